//===- WgmmaDotOpToLLVM.cpp - Products on Hopper tensor cores ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.dot whose result is in an `#tile.mma` version 3 layout, and
// tile.warp_group_dot, with `wgmma.mma_async` (sm_90a). The operands of
// tile.dot arrive in registers (any layout): every thread stores its
// elements into shared memory in the canonical swizzled layouts wgmma reads
// through matrix descriptors (those of tile.warp_group_dot are there
// already), and each warp group then multiplies its 64-row blocks of the
// accumulator:
//
//   bar.sync; st.shared (swizzled) a and b; fence.proxy.async; bar.sync;
//   wgmma.fence; wgmma.mma_async x (K steps x M reps x N reps);
//   wgmma.commit_group; wgmma.wait_group 0
//
// The operands are stored in the swizzled layout of SharedOperand.h, with
// K stored contiguously (K-major), or N for an MN-major B.
//
// One instruction reads 32 bytes of K of 64 rows of A and N rows of B: its
// descriptor points at the first of them; "stride byte offset" is the
// distance between 8-row groups of the outer dimension (8 * S), and for an
// MN-major B "leading byte offset" is the distance between its N panels.
//
// A transposed accumulator layout (tf32) computes c^T += b^T a^T: b takes
// the instructions' A role and a their B role. b^T stored K-major is read
// through descriptors; stored N-major (a TMA copy of B's rows), its m64k8
// fragments are loaded into registers (ld.shared of the swizzled layout)
// and the instructions take A from registers.
//
//===----------------------------------------------------------------------===//

#include "SharedOperand.h"
#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// The PTX type name of a wgmma operand or accumulator element (8-bit
/// integers unsigned when `isUnsigned`).
static StringRef getPtxType(Type type, InputPrecision precision,
                            bool isUnsigned = false) {
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return precision == InputPrecision::IEEE ? "f32" : "tf32";
  if (isa<Float8E4M3FNType>(type))
    return "e4m3";
  if (isa<Float8E5M2Type>(type))
    return "e5m2";
  if (type.isInteger(8))
    return isUnsigned ? "u8" : "s8";
  if (type.isInteger(32))
    return "s32";
  return "";
}

/// One operand of a wgmma instruction sequence, in the instructions'
/// orientation (A: M x K, B: K x N): the matrix at shared address `addr`
/// (i32) stored as `smem`, whose outer and inner dimensions are (M or N, K)
/// when `kMajor`, else (K, M or N); or an A in registers, its `fragments`
/// (i32, in the order loadAFragments returns them; no address).
struct WgmmaOperand {
  Value addr;
  SharedOperand smem;
  bool kMajor;
  SmallVector<Value> fragments = {};
};

/// Two 16-bit values in one i32 register, `lo` in its low half.
static Value packPair(OpBuilder &b, Location loc, Value lo, Value hi) {
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get({2}, lo.getType()));
  v = LLVM::InsertElementOp::create(b, loc, v, lo, i32Constant(b, loc, 0));
  v = LLVM::InsertElementOp::create(b, loc, v, hi, i32Constant(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

/// Loads the A fragments of the instructions of a product from an A stored
/// M-major (32-bit elements): for each K step `s`, M repetition `rm` and
/// register `j` of the m64k8 fragment, lane `l` of warp `w` holds element
/// (rm * 16 * warpsM + 16 * (w % warpsM) + l / 4 + 8 * (j % 2),
///  8 * s + l % 4 + 4 * (j / 2)). Returned in that order (s, rm, j), as i32.
static SmallVector<Value> loadAFragments(OpBuilder &b, Location loc,
                                         const WgmmaOperand &a, int64_t K,
                                         int64_t repM, int64_t warpsM) {
  const SharedOperand &smem = a.smem;
  Value lane = getLaneId(b, loc), warp = getWarpId(b, loc);
  Value row = LLVM::AddOp::create(
      b, loc,
      LLVM::MulOp::create(
          b, loc,
          LLVM::URemOp::create(b, loc, warp, i32Constant(b, loc, warpsM)),
          i32Constant(b, loc, 16)),
      LLVM::UDivOp::create(b, loc, lane, i32Constant(b, loc, 4)));
  Value col = LLVM::URemOp::create(b, loc, lane, i32Constant(b, loc, 4));
  // The swizzle repeats every 8 rows of the stored matrix (rows of K here),
  // so K step `s` is `8 * s` rows, `8 * s * S` bytes, past step 0.
  SmallVector<Value> firstStep;
  for (int64_t rm = 0; rm < repM; ++rm)
    for (int64_t j = 0; j < 4; ++j) {
      Value m = LLVM::AddOp::create(
          b, loc, row, i32Constant(b, loc, rm * 16 * warpsM + 8 * (j % 2)));
      Value k =
          LLVM::AddOp::create(b, loc, col, i32Constant(b, loc, 4 * (j / 2)));
      firstStep.push_back(LLVM::AddOp::create(
          b, loc, a.addr, emitSwizzledOffset(b, loc, smem, k, m)));
    }
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  SmallVector<Value> fragments;
  for (int64_t s = 0; s < K / 8; ++s)
    for (Value address : firstStep) {
      if (s != 0)
        address = LLVM::AddOp::create(
            b, loc, address, i32Constant(b, loc, 8 * s * smem.swizzle));
      Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
      fragments.push_back(
          LLVM::LoadOp::create(b, loc, b.getI32Type(), ptr, /*alignment=*/4));
    }
  return fragments;
}

/// Emits `c + a @ b` on wgmma for the accumulator `c` (converted value, of
/// tensor type `cType` in an `#tile.mma` version 3 layout; for a transposed
/// layout, `a` and `b` are the operands of the transposed product). A
/// K-major `a` and `b` are read through matrix descriptors, an M-major `a`
/// (32-bit) from registers loaded first, an `a` with fragments from those,
/// an N-major `b` (16-bit) through descriptors of N panels. When `c` is
/// zero (`zeroC`), its registers are not inputs: the first K step's
/// instructions do not read them (scale-d false); with `useC` (an i1), the
/// first K step's scale-d is its value. Returns the result's registers,
/// packed into the converted type; unless `inFlight`, after waiting for the
/// product to complete.
static Value emitWgmma(ConversionPatternRewriter &rewriter, Location loc,
                       const TypeConverter &converter, const WgmmaOperand &a,
                       const WgmmaOperand &b, Value c, RankedTensorType cType,
                       StringRef inPtx, bool zeroC, bool inFlight = false,
                       Value useC = {}) {
  auto mma = cast<MmaLayoutAttr>(cType.getEncoding());
  SmallVector<int64_t, 2> shape = mma.getInstrOrientedShape(cType.getShape());
  Type accElem = cType.getElementType();
  StringRef accPtx = getPtxType(accElem, InputPrecision::IEEE);
  const SharedOperand &aSmem = a.smem, &bSmem = b.smem;
  int64_t K = b.kMajor ? bSmem.inner : bSmem.outer;
  int64_t kStep = 32 / bSmem.elemBytes; // K of one instruction: 32 bytes
  int64_t n = mma.getInstrShape()[1];
  int64_t warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
  int64_t repM = mma.getRepetitions(shape, 0);
  int64_t repN = mma.getRepetitions(shape, 1);
  bool bMNMajor = !b.kMajor;
  Type i64 = rewriter.getI64Type();

  // The warp group's place: rows 64 * gm of each M repetition, columns
  // n * gn of each N repetition (uniform: the descriptors are too).
  Value warp = getUniformWarpId(rewriter, loc);
  Value wInM = LLVM::URemOp::create(rewriter, loc, warp,
                                    i32Constant(rewriter, loc, warpsM));
  Value gm =
      LLVM::UDivOp::create(rewriter, loc, wInM, i32Constant(rewriter, loc, 4));
  Value gn = LLVM::UDivOp::create(rewriter, loc, warp,
                                  i32Constant(rewriter, loc, warpsM));
  // Descriptor of the operand's first byte for this warp group (`group`
  // times `groupBytes` in): the start address (>> 4) plus the constant
  // fields.
  auto baseDescriptor = [&](const SharedOperand &smem, Value base, Value group,
                            int64_t groupBytes, int64_t leading) {
    Value address = LLVM::AddOp::create(
        rewriter, loc, base,
        LLVM::MulOp::create(rewriter, loc, group,
                            i32Constant(rewriter, loc, groupBytes)));
    Value start = LLVM::ZExtOp::create(
        rewriter, loc, i64,
        LLVM::LShrOp::create(rewriter, loc, address,
                             i32Constant(rewriter, loc, 4)));
    uint64_t fields = (uint64_t(leading >> 4) << 16) |
                      (uint64_t(8 * smem.swizzle >> 4) << 32) |
                      (uint64_t(smem.swizzleMode()) << 62);
    return LLVM::OrOp::create(
        rewriter, loc, start,
        LLVM::ConstantOp::create(rewriter, loc, i64,
                                 rewriter.getI64IntegerAttr(fields)));
  };
  // The leading byte offset is unused by K-major swizzled layouts. An A in
  // registers has fragments instead.
  Value aDesc;
  SmallVector<Value> aFragments;
  if (a.kMajor)
    aDesc = baseDescriptor(aSmem, a.addr, gm, aSmem.offset(64, 0),
                           /*leading=*/16);
  else if (a.fragments.empty())
    aFragments = loadAFragments(rewriter, loc, a, K, repM, warpsM);
  else
    aFragments = a.fragments;
  Value bDesc = bMNMajor ? baseDescriptor(bSmem, b.addr, gn, bSmem.offset(0, n),
                                          bSmem.panelBytes())
                         : baseDescriptor(bSmem, b.addr, gn, bSmem.offset(n, 0),
                                          /*leading=*/16);
  auto plus = [&](Value desc, int64_t byteOffset) -> Value {
    if (byteOffset == 0)
      return desc;
    return LLVM::AddOp::create(
        rewriter, loc, desc,
        LLVM::ConstantOp::create(rewriter, loc, i64,
                                 rewriter.getI64IntegerAttr(byteOffset >> 4)));
  };

  // Accumulator registers: f16 pairs travel packed in 32-bit registers.
  SmallVector<Value> acc = unpackRegisters(rewriter, loc, c);
  bool packed = accElem.isF16();
  auto pack = [&](ArrayRef<Value> regs) {
    if (!packed)
      return SmallVector<Value>(regs);
    SmallVector<Value> out;
    for (size_t i = 0; i < regs.size(); i += 2)
      out.push_back(packPair(rewriter, loc, regs[i], regs[i + 1]));
    return out;
  };
  SmallVector<Value> regs = pack(acc);
  int64_t perInstr = regs.size() / (repM * repN);

  std::string instr = llvm::formatv("m64n{0}k{1}", n, kStep).str();
  std::string modifiers;
  // An A from registers has no transpose flag.
  if (inPtx == "f16" || inPtx == "bf16")
    modifiers = llvm::formatv(a.kMajor ? ", 1, 1, 0, {0}" : ", 1, 1, {0}",
                              bMNMajor ? 1 : 0)
                    .str();
  else if (inPtx != "s8" && inPtx != "u8")
    modifiers = ", 1, 1";

  // One inline-asm statement issues the whole product: the fence, every
  // instruction (K steps x M reps x N reps), the commit and, unless it stays
  // in flight, the wait. The accumulators are its outputs, tied to its
  // inputs: every register the instructions read is written before the
  // fence (ptxas would otherwise serialize them with warpgroup.arrive), and
  // nothing reads one before the statement. Each instruction's A (a
  // descriptor or four fragment registers) and B descriptor follow the
  // accumulators, then the scale-d flag. (One statement rather than one per
  // instruction: each of those carried all the accumulators through the
  // backend's instruction selection.)
  int64_t numRegs = regs.size();
  SmallVector<Value> inputs;
  std::string body;
  for (int64_t s = 0; s < K / kStep; ++s) {
    int64_t bK =
        bMNMajor ? bSmem.offset(s * kStep, 0) : bSmem.offset(0, s * kStep);
    for (int64_t rm = 0; rm < repM; ++rm) {
      // The A operand: a descriptor, or the fragment's 4 registers.
      Value aRep;
      if (a.kMajor)
        aRep = plus(aDesc, aSmem.offset(0, s * kStep) +
                               aSmem.offset(rm * 16 * warpsM, 0));
      for (int64_t rn = 0; rn < repN; ++rn) {
        int64_t col = rn * n * warpsN;
        Value bDescRep = plus(bDesc, bK + (bMNMajor ? bSmem.offset(0, col)
                                                    : bSmem.offset(col, 0)));
        int64_t first = (rm * repN + rn) * perInstr;
        int64_t operand = numRegs + inputs.size();
        std::string aText = "$" + std::to_string(operand);
        if (a.kMajor) {
          inputs.push_back(aRep);
        } else {
          aText = ptxOperandList(operand, 4);
          for (int64_t j = 0; j < 4; ++j)
            inputs.push_back(aFragments[(s * repM + rm) * 4 + j]);
        }
        body += llvm::formatv(
            "wgmma.mma_async.sync.aligned.{0}.{1}.{2}.{2} {3}, {4}, ${5}, "
            "{6}{7};\n",
            instr, accPtx, inPtx, ptxOperandList(first, perInstr), aText,
            numRegs + inputs.size(), (zeroC || useC) && s == 0 ? "z" : "p",
            modifiers);
        inputs.push_back(bDescRep);
      }
    }
  }
  inputs.push_back(i32Constant(rewriter, loc, 1));
  // p is true; z, the first K step's scale-d, false for a zero c, else
  // useC.
  std::string predicates =
      llvm::formatv(zeroC || useC ? ".reg .pred p, z;\n"
                                    "setp.ne.b32 p, ${0}, 0;\n"
                                    "setp.{1}.b32 z, ${2}, 0;\n"
                                  : ".reg .pred p;\n"
                                    "setp.ne.b32 p, ${0}, 0;\n",
                    numRegs + inputs.size() - 1, zeroC ? "eq" : "ne",
                    numRegs + inputs.size() - (useC ? 0 : 1));
  if (useC)
    inputs.push_back(
        LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), useC));
  std::string text = llvm::formatv(
      "{{\n{0}wgmma.fence.sync.aligned;\n{1}wgmma.commit_group.sync.aligned;"
      "\n{2}}",
      predicates, body, inFlight ? "" : "wgmma.wait_group.sync.aligned 0;\n");
  // A zero c is not an input: the accumulators are outputs only.
  regs = emitInlinePtx(rewriter, loc, text, ValueRange(regs).getTypes(), inputs,
                       zeroC ? ValueRange() : ValueRange(regs));

  if (packed) {
    SmallVector<Value> unpacked;
    auto pair = VectorType::get({2}, acc.front().getType());
    for (Value r : regs) {
      Value v = LLVM::BitcastOp::create(rewriter, loc, pair, r);
      for (int64_t j = 0; j < 2; ++j)
        unpacked.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, v, i32Constant(rewriter, loc, j)));
    }
    regs = unpacked;
  }
  return packRegisters(rewriter, loc, converter.convertType(cType), regs);
}

/// Whether `value` is a constant tile of zeros.
static bool isZeroTile(Value value) {
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// The PTX input type of a product of `elem` operands, or an empty string
/// (with an error on `op`) when wgmma cannot compute it into `accElem`.
static StringRef getInputPtxType(Operation *op, Type elem, Type accElem,
                                 InputPrecision precision, bool isUnsigned) {
  StringRef inPtx = getPtxType(elem, precision, isUnsigned);
  if (inPtx.empty() || inPtx == "f32" ||
      getPtxType(accElem, InputPrecision::IEEE).empty()) {
    op->emitOpError("cannot run on wgmma: ")
        << elem << " operands into " << accElem;
    return "";
  }
  return inPtx;
}

/// The A fragments of a product into `cType` from the registers of the
/// 16-bit tile `a` (converted value, of tensor type `aType`), each i32
/// holding two elements, in the order emitWgmma takes them: K step, M
/// repetition, then the fragment's four registers.
static SmallVector<Value> packAFragments(OpBuilder &b, Location loc, Value a,
                                         RankedTensorType aType,
                                         RankedTensorType cType) {
  SmallVector<int64_t> remap = *getWgmmaRegisterFragments(aType, cType);
  SmallVector<Value> regs = unpackRegisters(b, loc, a);
  auto mma = cast<MmaLayoutAttr>(cType.getEncoding());
  int64_t repM = mma.getRepetitions(cType.getShape(), 0);
  int64_t steps = aType.getDimSize(1) / 16;
  SmallVector<Value> fragments;
  for (int64_t s = 0; s < steps; ++s)
    for (int64_t rm = 0; rm < repM; ++rm)
      for (int64_t j = 0; j < 8; j += 2) {
        int64_t first = (rm * steps + s) * 8 + j;
        fragments.push_back(
            packPair(b, loc, regs[remap[first]], regs[remap[first + 1]]));
      }
  return fragments;
}

/// tile.dot with operands in registers: stored into the op's scratch
/// buffer first, except an A whose threads hold wgmma's A fragments
/// (a decoded microscaled lhs), given from registers.
struct WgmmaDotOpLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(cType.getEncoding());
    if (!mma || !mma.isWgmma())
      return failure();
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    Type inElem = aType.getElementType();
    StringRef inPtx =
        getInputPtxType(op, inElem, cType.getElementType(),
                        op.getInputPrecision(), op.getUnsignedOperands());
    if (inPtx.empty())
      return failure();
    if (!TileDistribution::get(aType) || !TileDistribution::get(bType))
      return op.emitOpError("has operands without a lowerable layout");
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();

    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);
    int64_t eb = getStorageBytes(inElem);
    int64_t n = mma.getInstrShape()[1];
    // A is stored K-major; B MN-major when its registers run along N and
    // the type allows it (16-bit; not for a transposed product, whose A it
    // is), else K-major.
    SharedOperand aSmem = SharedOperand::get(1, M, K, eb);
    bool bMNMajor = !mma.getTransposed() && eb == 2 &&
                    std::min(n, N) * eb >= 32 &&
                    cast<LayoutAttrInterface>(bType.getEncoding())
                            .getContiguousRegisters(bType.getShape(), 1) > 1;
    SharedOperand bSmem =
        bMNMajor
            ? SharedOperand::get(1, K, N, eb, std::min<int64_t>(128, n * eb))
            : SharedOperand::get(0, N, K, eb);

    Type i32 = rewriter.getI32Type();
    Value smemBase = LLVM::PtrToIntOp::create(
        rewriter, loc, i32, getScratchBase(rewriter, loc, op));
    int64_t bOffset = getDotOperandBOffset(op);
    bool aInRegisters = dotReadsARegisters(op);
    emitBarrier(rewriter, loc);
    if (!aInRegisters)
      storeSharedOperand(rewriter, loc, adaptor.getA(), aType, aSmem, smemBase,
                         0);
    storeSharedOperand(rewriter, loc, adaptor.getB(), bType, bSmem, smemBase,
                       bOffset);
    emitInlinePtx(rewriter, loc, "fence.proxy.async.shared::cta;", {}, {});
    emitBarrier(rewriter, loc);
    Value bAddr = LLVM::AddOp::create(rewriter, loc, smemBase,
                                      i32Constant(rewriter, loc, bOffset));
    WgmmaOperand a{smemBase, aSmem, /*kMajor=*/true};
    if (aInRegisters)
      a = {Value(), SharedOperand(), /*kMajor=*/false,
           packAFragments(rewriter, loc, adaptor.getA(), aType, cType)};
    WgmmaOperand b{bAddr, bSmem, /*kMajor=*/!bMNMajor};
    // The transposed product reads b^T (stored K-major) as its A and a^T
    // (K-major) as its B.
    if (mma.getTransposed())
      std::swap(a, b);
    // (A zero c stays an input here: the fp32 attention kernel, whose
    // products both take this path, spills 32 bytes otherwise.)
    rewriter.replaceOp(op, emitWgmma(rewriter, loc, *getTypeConverter(), a, b,
                                     adaptor.getC(), cType, inPtx,
                                     /*zeroC=*/false));
    return success();
  }
};

/// tile.warp_group_dot_wait: `wgmma.wait_group`, with the accumulator's
/// registers passing through it (so that nothing reads them before).
struct WarpGroupDotWaitOpLowering
    : public OpConversionPattern<WarpGroupDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> regs =
        unpackRegisters(rewriter, loc, adaptor.getInput());
    regs = emitInlinePtx(
        rewriter, loc,
        llvm::formatv("wgmma.wait_group.sync.aligned {0};", op.getPending())
            .str(),
        ValueRange(regs).getTypes(), {}, regs);
    rewriter.replaceOp(
        op, packRegisters(rewriter, loc, adaptor.getInput().getType(), regs));
    return success();
  }
};

/// The layout of a `!tile.smem` matrix as a SharedOperand.
static SharedOperand getSharedOperand(SmemType type) {
  SharedLayoutAttr layout = type.getLayout();
  unsigned inner = layout.getContiguousDim();
  return {inner, type.getDimSize(1 - inner), type.getDimSize(inner),
          getStorageBytes(type.getElementType()), layout.getSwizzle()};
}

/// tile.warp_group_dot: b (and a, unless in registers) in shared memory
/// already.
struct WarpGroupDotOpLowering : public OpConversionPattern<WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto cType = cast<RankedTensorType>(op.getC().getType());
    SmemType bType = op.getB().getType();
    StringRef inPtx =
        getInputPtxType(op, bType.getElementType(), cType.getElementType(),
                        op.getInputPrecision(), op.getUnsignedOperands());
    if (inPtx.empty())
      return failure();
    Type i32 = rewriter.getI32Type();
    // a (M x K) is stored K-major or in registers; b (K x N) K-major when
    // its dimension 0 is contiguous.
    WgmmaOperand a;
    if (auto aType = dyn_cast<SmemType>(op.getA().getType()))
      a = {LLVM::PtrToIntOp::create(rewriter, loc, i32, adaptor.getA()),
           getSharedOperand(aType), /*kMajor=*/true};
    else
      a = {Value(), SharedOperand(), /*kMajor=*/false,
           packAFragments(rewriter, loc, adaptor.getA(),
                          cast<RankedTensorType>(op.getA().getType()), cType)};
    WgmmaOperand b{LLVM::PtrToIntOp::create(rewriter, loc, i32, adaptor.getB()),
                   getSharedOperand(bType),
                   /*kMajor=*/bType.getLayout().getContiguousDim() == 0};
    // The transposed product reads b^T as its A (from registers when b is
    // stored N-major) and a^T (K-major) as its B.
    if (cast<MmaLayoutAttr>(cType.getEncoding()).getTransposed())
      std::swap(a, b);
    bool zeroC = !op.getUseC() && isZeroTile(op.getC());
    rewriter.replaceOp(op, emitWgmma(rewriter, loc, *getTypeConverter(), a, b,
                                     adaptor.getC(), cType, inPtx, zeroC,
                                     op.getIsAsync(), adaptor.getUseC()));
    return success();
  }
};

} // namespace

void tilec::populateWgmmaDotOpToLLVMPatterns(TileTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<WgmmaDotOpLowering, WarpGroupDotOpLowering,
               WarpGroupDotWaitOpLowering>(converter, patterns.getContext());
}
