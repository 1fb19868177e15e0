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
//===----------------------------------------------------------------------===//

#include "SharedOperand.h"
#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/SharedMemory.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// The PTX type name of a wgmma operand or accumulator element.
static StringRef getPtxType(Type type, InputPrecision precision) {
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
    return "s8";
  if (type.isInteger(32))
    return "s32";
  return "";
}

/// Emits `c + a @ b` on wgmma for the accumulator `c` (converted value, of
/// tensor type `cType` in an `#tile.mma` version 3 layout) with operands in
/// shared memory: `a` at the shared address `aAddr` (i32) in layout `aSmem`,
/// `b` at `bAddr` in `bSmem` (K-major, or N-major when its inner dimension
/// is 1). Returns the result's registers, packed into the converted type;
/// unless `inFlight`, after waiting for the product to complete.
static Value emitWgmma(ConversionPatternRewriter &rewriter, Location loc,
                       const TypeConverter &converter, Value aAddr,
                       const SharedOperand &aSmem, Value bAddr,
                       const SharedOperand &bSmem, Value c,
                       RankedTensorType cType, StringRef inPtx,
                       bool inFlight = false) {
  auto mma = cast<MmaLayoutAttr>(cType.getEncoding());
  Type accElem = cType.getElementType();
  StringRef accPtx = getPtxType(accElem, InputPrecision::IEEE);
  int64_t K = aSmem.inner;
  int64_t kStep = 32 / aSmem.elemBytes; // K of one instruction: 32 bytes
  int64_t n = mma.getInstrShape()[1];
  int64_t warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
  int64_t repM = mma.getRepetitions(cType.getShape(), 0);
  int64_t repN = mma.getRepetitions(cType.getShape(), 1);
  bool bMNMajor = bSmem.innerDim == 1;
  Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();

  // The warp group's place: rows 64 * gm of each M repetition, columns
  // n * gn of each N repetition.
  Value warp = getWarpId(rewriter, loc);
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
  // The leading byte offset is unused by K-major swizzled layouts.
  Value aDesc =
      baseDescriptor(aSmem, aAddr, gm, aSmem.offset(64, 0), /*leading=*/16);
  Value bDesc = bMNMajor ? baseDescriptor(bSmem, bAddr, gn, bSmem.offset(0, n),
                                          bSmem.panelBytes())
                         : baseDescriptor(bSmem, bAddr, gn, bSmem.offset(n, 0),
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
    auto pair = VectorType::get({2}, regs.front().getType());
    for (size_t i = 0; i < regs.size(); i += 2) {
      Value v = LLVM::UndefOp::create(rewriter, loc, pair);
      v = LLVM::InsertElementOp::create(rewriter, loc, v, regs[i],
                                        i32Constant(rewriter, loc, 0));
      v = LLVM::InsertElementOp::create(rewriter, loc, v, regs[i + 1],
                                        i32Constant(rewriter, loc, 1));
      out.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, v));
    }
    return out;
  };
  SmallVector<Value> regs = pack(acc);
  int64_t perInstr = regs.size() / (repM * repN);

  std::string shape = llvm::formatv("m64n{0}k{1}", n, kStep).str();
  std::string modifiers;
  if (inPtx == "f16" || inPtx == "bf16")
    modifiers = llvm::formatv(", 1, 1, 0, {0}", bMNMajor ? 1 : 0).str();
  else if (inPtx != "s8")
    modifiers = ", 1, 1";

  // One inline-asm statement issues the whole product: the fence, every
  // instruction (K steps x M reps x N reps), the commit and, unless it stays
  // in flight, the wait. The accumulators are its outputs, tied to its
  // inputs: every register the instructions read is written before the
  // fence (ptxas would otherwise serialize them with warpgroup.arrive), and
  // nothing reads one before the statement. The descriptors follow the
  // accumulators, then the scale-d flag. (One statement rather than one per
  // instruction: each of those carried all the accumulators through the
  // backend's instruction selection.)
  int64_t numRegs = regs.size();
  SmallVector<Value> descriptors;
  std::string body;
  for (int64_t s = 0; s < K / kStep; ++s) {
    int64_t aK = aSmem.offset(0, s * kStep);
    int64_t bK =
        bMNMajor ? bSmem.offset(s * kStep, 0) : bSmem.offset(0, s * kStep);
    for (int64_t rm = 0; rm < repM; ++rm) {
      Value a = plus(aDesc, aK + aSmem.offset(rm * 16 * warpsM, 0));
      for (int64_t rn = 0; rn < repN; ++rn) {
        int64_t col = rn * n * warpsN;
        Value bDescRep = plus(bDesc, bK + (bMNMajor ? bSmem.offset(0, col)
                                                    : bSmem.offset(col, 0)));
        int64_t first = (rm * repN + rn) * perInstr;
        int64_t operand = numRegs + descriptors.size();
        body += llvm::formatv(
            "wgmma.mma_async.sync.aligned.{0}.{1}.{2}.{2} {3}, ${4}, ${5}, "
            "p{6};\n",
            shape, accPtx, inPtx, ptxOperandList(first, perInstr), operand,
            operand + 1, modifiers);
        descriptors.push_back(a);
        descriptors.push_back(bDescRep);
      }
    }
  }
  descriptors.push_back(i32Constant(rewriter, loc, 1));
  std::string text = llvm::formatv(
      "{{\n.reg .pred p;\nsetp.ne.b32 p, ${0}, 0;\n"
      "wgmma.fence.sync.aligned;\n{1}wgmma.commit_group.sync.aligned;\n{2}}",
      numRegs + descriptors.size() - 1, body,
      inFlight ? "" : "wgmma.wait_group.sync.aligned 0;\n");
  regs = emitInlinePtx(rewriter, loc, text, ValueRange(regs).getTypes(),
                       descriptors, regs);

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

/// The PTX input type of a product of `elem` operands, or an empty string
/// (with an error on `op`) when wgmma cannot compute it into `accElem`.
static StringRef getInputPtxType(Operation *op, Type elem, Type accElem,
                                 InputPrecision precision) {
  StringRef inPtx = getPtxType(elem, precision);
  if (inPtx.empty() || inPtx == "f32" ||
      getPtxType(accElem, InputPrecision::IEEE).empty()) {
    op->emitOpError("cannot run on wgmma: ")
        << elem << " operands into " << accElem;
    return "";
  }
  return inPtx;
}

/// tile.dot with operands in registers: stored into the op's scratch
/// buffer first.
struct WgmmaDotOpLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(cType.getEncoding());
    if (!mma || mma.getVersionMajor() != 3)
      return failure();
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    Type inElem = aType.getElementType();
    StringRef inPtx = getInputPtxType(op, inElem, cType.getElementType(),
                                      op.getInputPrecision());
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
    // the type allows it (16-bit), else K-major.
    SharedOperand aSmem = SharedOperand::get(1, M, K, eb);
    bool bMNMajor = eb == 2 && std::min(n, N) * eb >= 32 &&
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
    emitBarrier(rewriter, loc);
    storeSharedOperand(rewriter, loc, adaptor.getA(), aType, aSmem, smemBase,
                       0);
    storeSharedOperand(rewriter, loc, adaptor.getB(), bType, bSmem, smemBase,
                       bOffset);
    emitInlinePtx(rewriter, loc, "fence.proxy.async.shared::cta;", {}, {});
    emitBarrier(rewriter, loc);
    Value bAddr = LLVM::AddOp::create(rewriter, loc, smemBase,
                                      i32Constant(rewriter, loc, bOffset));
    rewriter.replaceOp(op, emitWgmma(rewriter, loc, *getTypeConverter(),
                                     smemBase, aSmem, bAddr, bSmem,
                                     adaptor.getC(), cType, inPtx));
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

/// tile.warp_group_dot: the operands are in shared memory already.
struct WarpGroupDotOpLowering : public OpConversionPattern<WarpGroupDotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto cType = cast<RankedTensorType>(op.getC().getType());
    SmemType aType = op.getA().getType();
    StringRef inPtx =
        getInputPtxType(op, aType.getElementType(), cType.getElementType(),
                        op.getInputPrecision());
    if (inPtx.empty())
      return failure();
    Type i32 = rewriter.getI32Type();
    Value aAddr = LLVM::PtrToIntOp::create(rewriter, loc, i32, adaptor.getA());
    Value bAddr = LLVM::PtrToIntOp::create(rewriter, loc, i32, adaptor.getB());
    rewriter.replaceOp(op, emitWgmma(rewriter, loc, *getTypeConverter(), aAddr,
                                     getSharedOperand(aType), bAddr,
                                     getSharedOperand(op.getB().getType()),
                                     adaptor.getC(), cType, inPtx,
                                     op.getIsAsync()));
    return success();
  }
};

} // namespace

void tilec::populateWgmmaDotOpToLLVMPatterns(TileTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<WgmmaDotOpLowering, WarpGroupDotOpLowering,
               WarpGroupDotWaitOpLowering>(converter, patterns.getContext());
}
