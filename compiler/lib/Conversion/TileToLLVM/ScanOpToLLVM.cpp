//===- ScanOpToLLVM.cpp - Inclusive prefix sums -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.scan (inclusive cumsum or cumprod along an axis, optionally
// reversed)
// with a bit-serial butterfly that works for any layout whose bases move
// each bit of the axis coordinate with exactly one register, lane or warp
// bit. Every element keeps two values: `prefix`, its inclusive prefix sum
// within its aligned block of 2^i positions, and `total`, the sum of that
// block. Step i pairs each element with the one whose axis coordinate
// differs in bit i (its partner block) and sets
//
//   total  = total + partner total
//   prefix = prefix + partner total   if bit i of the position is set
//
// where the position is the axis coordinate (for a reverse scan, its
// complement, so bit i must be clear). The partner lives in another register
// of the same thread, in lane `lane ^ (1 << b)` (one `shfl.sync.bfly`), or in
// another warp (through shared memory: barrier; store totals at their
// row-major index; barrier; load the partner's), depending on which bit moves
// the coordinate. Copies of elements compute the same values side by side.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Where a bit of the axis coordinate comes from.
struct AxisBitSource {
  enum Kind { Register, Lane, Warp } kind;
  unsigned bit;
};

/// `a + b` (or `a * b` for a product scan) for the scan's element type.
static Value combine(OpBuilder &b, Location loc, ScanKind kind, Value x,
                     Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  if (kind == ScanKind::Prod)
    return isFloat ? Value(LLVM::FMulOp::create(b, loc, x, y))
                   : Value(LLVM::MulOp::create(b, loc, x, y));
  return isFloat ? Value(LLVM::FAddOp::create(b, loc, x, y))
                 : Value(LLVM::AddOp::create(b, loc, x, y));
}

struct ScanOpLowering : public OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    ScanKind kind = op.getKind();
    auto add = [kind](OpBuilder &b, Location loc, Value x, Value y) {
      return combine(b, loc, kind, x, y);
    };
    Type llvmType = getTypeConverter()->convertType(type);
    Type elemType = getTypeConverter()->convertType(type.getElementType());
    std::optional<TileDistribution> dist = TileDistribution::get(type);
    if (!dist || !llvmType || !elemType || !elemType.isIntOrFloat())
      return op.emitOpError("layout or element type is not supported");

    // Find the source of each bit of the axis coordinate.
    int64_t size = type.getDimSize(axis);
    unsigned axisBits = llvm::Log2_64(size);
    SmallVector<std::optional<AxisBitSource>> sources(axisBits);
    bool supported = true;
    auto record = [&](ArrayRef<int64_t> basis, AxisBitSource source) {
      BitKind k = classifyBasis(basis, axis);
      if (k == BitKind::Mixed ||
          (k == BitKind::Axis && !llvm::isPowerOf2_64(basis[axis]))) {
        supported = false;
        return;
      }
      if (k != BitKind::Axis)
        return;
      unsigned i = llvm::Log2_64(basis[axis]);
      if (sources[i])
        supported = false;
      sources[i] = source;
    };
    for (unsigned b = 0; b < dist->getNumRegisterBits(); ++b)
      record(dist->getRegisterBasis(b), {AxisBitSource::Register, b});
    for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b)
      record(dist->getLaneBasis(b), {AxisBitSource::Lane, b});
    for (unsigned b = 0; b < dist->getNumWarpBits(); ++b)
      record(dist->getWarpBasis(b), {AxisBitSource::Warp, b});
    if (!supported || llvm::any_of(sources, [](auto &s) { return !s; }))
      return op.emitOpError("layout is not supported by the scan lowering");
    bool usesWarps = llvm::any_of(
        sources, [](auto &s) { return s->kind == AxisBitSource::Warp; });
    if (usesWarps && failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();

    SmallVector<Value> prefix =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> total = prefix;
    int64_t numRegs = dist->getNumRegisters();
    SmallVector<SmallVector<Value>> indices;
    if (usesWarps)
      indices = emitIndices(rewriter, loc, type);
    Value lane = getLaneId(rewriter, loc);
    Value warp = getWarpId(rewriter, loc);
    Value base = usesWarps ? getScratchBase(rewriter, loc, op) : Value();

    // Whether the running thread's position has bit `bit` of `id` set
    // (clear for a reverse scan): the condition to add the partner total.
    auto takesPartner = [&](Value id, unsigned bit) -> Value {
      Value set = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::LShrOp::create(rewriter, loc, id,
                               i32Constant(rewriter, loc, bit)),
          i32Constant(rewriter, loc, 1));
      return LLVM::ICmpOp::create(rewriter, loc,
                                  reverse ? LLVM::ICmpPredicate::eq
                                          : LLVM::ICmpPredicate::ne,
                                  set, i32Constant(rewriter, loc, 0));
    };

    for (unsigned i = 0; i < axisBits; ++i) {
      const AxisBitSource &source = *sources[i];
      if (source.kind == AxisBitSource::Register) {
        int64_t mask = int64_t(1) << source.bit;
        DenseMap<std::pair<Value, Value>, Value> sums;
        for (int64_t lo = 0; lo < numRegs; ++lo) {
          if (lo & mask)
            continue;
          int64_t hi = lo | mask; // holds the position with bit i set
          Value &sum = sums[{total[lo], total[hi]}];
          if (!sum)
            sum = add(rewriter, loc, total[lo], total[hi]);
          if (reverse)
            prefix[lo] = add(rewriter, loc, prefix[lo], total[hi]);
          else
            prefix[hi] = add(rewriter, loc, prefix[hi], total[lo]);
          total[lo] = total[hi] = sum;
        }
        continue;
      }
      SmallVector<Value> partner(numRegs);
      Value take;
      if (source.kind == AxisBitSource::Lane) {
        // Registers often share one total (after register steps): shuffle
        // each distinct value once.
        DenseMap<Value, Value> shuffled;
        for (int64_t r = 0; r < numRegs; ++r) {
          Value &s = shuffled[total[r]];
          if (!s)
            s = shuffleXor(rewriter, loc, total[r], 1u << source.bit);
          partner[r] = s;
        }
        take = takesPartner(lane, source.bit);
      } else {
        emitBarrier(rewriter, loc);
        for (int64_t r = 0; r < numRegs; ++r) {
          if (dist->isDuplicateRegister(r))
            continue;
          Value at = linearizeIndex(rewriter, loc, indices[r], type.getShape());
          storeShared(rewriter, loc, base, at, total[r]);
        }
        emitBarrier(rewriter, loc);
        for (int64_t r = 0; r < numRegs; ++r) {
          SmallVector<Value> coords = indices[r];
          coords[axis] =
              LLVM::XOrOp::create(rewriter, loc, coords[axis],
                                  i32Constant(rewriter, loc, int64_t(1) << i));
          Value at = linearizeIndex(rewriter, loc, coords, type.getShape());
          partner[r] = loadShared(rewriter, loc, base, at, elemType);
        }
        take = takesPartner(warp, source.bit);
      }
      DenseMap<std::pair<Value, Value>, Value> sums;
      for (int64_t r = 0; r < numRegs; ++r) {
        prefix[r] = LLVM::SelectOp::create(
            rewriter, loc, take, add(rewriter, loc, prefix[r], partner[r]),
            prefix[r]);
        Value &sum = sums[{total[r], partner[r]}];
        if (!sum)
          sum = add(rewriter, loc, total[r], partner[r]);
        total[r] = sum;
      }
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, llvmType, prefix));
    return success();
  }
};

} // namespace

void tilec::populateScanOpToLLVMPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ScanOpLowering>(converter, patterns.getContext());
}
