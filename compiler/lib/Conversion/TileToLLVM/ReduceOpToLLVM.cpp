//===- ReduceOpToLLVM.cpp - Reductions along one axis -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.reduce in three steps, following the operand layout's bases
// (TileDistribution): the bits of the register, lane and warp indices that
// move only along the axis are combined, those that move along other
// dimensions are kept apart, and those that move nothing (copies) are
// ignored, so duplicated elements are never counted twice.
//
//   1. Within a thread: the registers of one row are combined in order.
//   2. Within a warp: one `shfl.sync.bfly` per lane bit along the axis; every
//      lane of the butterfly ends with the warp's combination of its row.
//   3. Across warps, when warps split the axis: barrier; lane results are
//      stored at [row][warp slot]; barrier; where lanes that differ only in
//      their low log2(W) bits hold the same rows (W: the warps along the
//      axis), lane l loads slot l mod W of each of its rows and a butterfly
//      over those bits combines the W slots; otherwise every thread combines
//      the W slots of its rows in slot order.
//
// Sums add, max/min use maxnum/minnum on floats (a NaN loses against a
// number) and signed comparisons on integers; argmax/argmin carry (value,
// index) pairs and prefer the smaller index on ties (NaNs lose as in max).
// The result register of each row is then picked from the operand register
// of that row, which is valid because the result layout is the slice of the
// operand layout along the axis.
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

/// A partial reduction: the value, and for argmax/argmin its index.
struct Partial {
  Value value;
  Value index;
};

/// Combines two partials of a reduction of `kind`.
static Partial combine(OpBuilder &b, Location loc, ReduceKind kind,
                       const Partial &x, const Partial &y) {
  Type type = x.value.getType();
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case ReduceKind::Sum:
    return {isFloat ? LLVM::FAddOp::create(b, loc, x.value, y.value).getResult()
                    : LLVM::AddOp::create(b, loc, x.value, y.value).getResult(),
            {}};
  case ReduceKind::Max:
    return {isFloat
                ? LLVM::MaxNumOp::create(b, loc, x.value, y.value).getResult()
                : LLVM::SMaxOp::create(b, loc, x.value, y.value).getResult(),
            {}};
  case ReduceKind::Min:
    return {isFloat
                ? LLVM::MinNumOp::create(b, loc, x.value, y.value).getResult()
                : LLVM::SMinOp::create(b, loc, x.value, y.value).getResult(),
            {}};
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    break;
  }
  bool isMax = kind == ReduceKind::ArgMax;
  Value better, equal;
  if (isFloat) {
    better = LLVM::FCmpOp::create(
        b, loc, isMax ? LLVM::FCmpPredicate::ogt : LLVM::FCmpPredicate::olt,
        x.value, y.value);
    equal = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq, x.value,
                                 y.value);
  } else {
    better = LLVM::ICmpOp::create(
        b, loc, isMax ? LLVM::ICmpPredicate::sgt : LLVM::ICmpPredicate::slt,
        x.value, y.value);
    equal =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, x.value, y.value);
  }
  Value earlier =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, x.index, y.index);
  Value pickX = LLVM::OrOp::create(b, loc, better,
                                   LLVM::AndOp::create(b, loc, equal, earlier));
  if (isFloat) {
    // A NaN loses against a number; between two NaNs the earlier wins.
    Value xNaN = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, x.value,
                                      x.value);
    Value yNaN = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, y.value,
                                      y.value);
    Value xNumber = LLVM::XOrOp::create(
        b, loc, xNaN,
        LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true)));
    Value bothNaN = LLVM::AndOp::create(b, loc, xNaN, yNaN);
    pickX = LLVM::OrOp::create(b, loc, pickX,
                               LLVM::AndOp::create(b, loc, yNaN, xNumber));
    pickX = LLVM::OrOp::create(b, loc, pickX,
                               LLVM::AndOp::create(b, loc, bothNaN, earlier));
  }
  return {LLVM::SelectOp::create(b, loc, pickX, x.value, y.value),
          LLVM::SelectOp::create(b, loc, pickX, x.index, y.index)};
}

/// Checks that the bases of the bits along `axis` are independent, so that
/// combining over them visits each element of a row once.
static bool axisBasesAreIndependent(ArrayRef<int64_t> bases) {
  int64_t seen = 0;
  for (int64_t basis : bases) {
    if (!llvm::isPowerOf2_64(basis) || (seen & basis))
      return false;
    seen |= basis;
  }
  return true;
}

struct ReduceOpLowering : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    unsigned axis = op.getAxis();
    ReduceKind kind = op.getKind();
    bool isArg = kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
    Type elemType = getTypeConverter()->convertType(srcType.getElementType());
    Type resultType = getTypeConverter()->convertType(op.getType());
    std::optional<TileDistribution> src = TileDistribution::get(srcType);
    if (!src || !elemType || !resultType || !elemType.isIntOrFloat())
      return op.emitOpError("operand layout or element type is not "
                            "supported");

    // Classify every bit along the axis.
    int64_t axisRegMask = 0, dupRegMask = 0;
    unsigned axisLaneMask = 0, dupLaneMask = 0;
    SmallVector<unsigned> axisWarpBits;
    SmallVector<int64_t> axisBases;
    bool mixed = false;
    for (unsigned b = 0; b < src->getNumRegisterBits(); ++b) {
      BitKind k = classifyBasis(src->getRegisterBasis(b), axis);
      mixed |= k == BitKind::Mixed;
      if (k == BitKind::Axis) {
        axisRegMask |= int64_t(1) << b;
        axisBases.push_back(src->getRegisterBasis(b)[axis]);
      } else if (k == BitKind::Duplicate) {
        dupRegMask |= int64_t(1) << b;
      }
    }
    for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b) {
      BitKind k = classifyBasis(src->getLaneBasis(b), axis);
      mixed |= k == BitKind::Mixed;
      if (k == BitKind::Axis) {
        axisLaneMask |= 1u << b;
        axisBases.push_back(src->getLaneBasis(b)[axis]);
      } else if (k == BitKind::Duplicate) {
        dupLaneMask |= 1u << b;
      }
    }
    for (unsigned b = 0; b < src->getNumWarpBits(); ++b) {
      BitKind k = classifyBasis(src->getWarpBasis(b), axis);
      mixed |= k == BitKind::Mixed;
      if (k == BitKind::Axis) {
        axisWarpBits.push_back(b);
        axisBases.push_back(src->getWarpBasis(b)[axis]);
      }
    }
    if (mixed || !axisBasesAreIndependent(axisBases))
      return op.emitOpError("operand layout is not supported by the "
                            "reduction lowering");

    SmallVector<Value> regs = unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<SmallVector<Value>> indices =
        emitIndices(rewriter, loc, srcType);
    int64_t numRegs = src->getNumRegisters();
    auto isRepresentative = [&](int64_t r) {
      return (r & (axisRegMask | dupRegMask)) == 0;
    };

    // 1. Within the thread.
    SmallVector<Partial> partials(numRegs);
    for (int64_t r = 0; r < numRegs; ++r) {
      if (!isRepresentative(r))
        continue;
      auto partialOf = [&](int64_t reg) {
        return Partial{regs[reg], isArg ? indices[reg][axis] : Value()};
      };
      Partial acc = partialOf(r);
      for (int64_t m = 1; m <= axisRegMask; ++m)
        if ((m & axisRegMask) == m)
          acc = combine(rewriter, loc, kind, acc, partialOf(r | m));
      partials[r] = acc;
    }

    // 2. Within the warp.
    for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b) {
      if (!(axisLaneMask & (1u << b)))
        continue;
      for (int64_t r = 0; r < numRegs; ++r) {
        if (!isRepresentative(r))
          continue;
        Partial other{shuffleXor(rewriter, loc, partials[r].value, 1u << b),
                      {}};
        if (isArg)
          other.index = shuffleXor(rewriter, loc, partials[r].index, 1u << b);
        partials[r] = combine(rewriter, loc, kind, partials[r], other);
      }
    }

    // 3. Across warps, through shared memory.
    auto resultTensor = dyn_cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> resultShape =
        resultTensor ? SmallVector<int64_t>(resultTensor.getShape())
                     : SmallVector<int64_t>();
    int64_t warpsAlong = int64_t(1) << axisWarpBits.size();
    if (warpsAlong > 1) {
      if (failed(checkSharedMemory(op, getScratchBytes(op))))
        return failure();
      Value valueBase = getScratchBase(rewriter, loc, op);
      Value indexBase =
          getScratchBase(rewriter, loc, op, getReduceIndexOffset(op));
      Value warp = getWarpId(rewriter, loc);
      Value slot = i32Constant(rewriter, loc, 0);
      for (auto [k, bit] : llvm::enumerate(axisWarpBits)) {
        Value b1 = LLVM::AndOp::create(
            rewriter, loc,
            LLVM::LShrOp::create(rewriter, loc, warp,
                                 i32Constant(rewriter, loc, bit)),
            i32Constant(rewriter, loc, 1));
        slot = LLVM::OrOp::create(
            rewriter, loc, slot,
            LLVM::ShlOp::create(rewriter, loc, b1,
                                i32Constant(rewriter, loc, k)));
      }
      Value width = i32Constant(rewriter, loc, warpsAlong);
      SmallVector<Value> rowStarts(numRegs);
      for (int64_t r = 0; r < numRegs; ++r) {
        if (!isRepresentative(r))
          continue;
        SmallVector<Value> row = indices[r];
        row.erase(row.begin() + axis);
        rowStarts[r] = LLVM::MulOp::create(
            rewriter, loc, linearizeIndex(rewriter, loc, row, resultShape),
            width);
      }
      emitBarrier(rewriter, loc);
      for (int64_t r = 0; r < numRegs; ++r) {
        if (!isRepresentative(r))
          continue;
        Value at = LLVM::AddOp::create(rewriter, loc, rowStarts[r], slot);
        storeShared(rewriter, loc, valueBase, at, partials[r].value);
        if (isArg)
          storeShared(rewriter, loc, indexBase, at, partials[r].index);
      }
      emitBarrier(rewriter, loc);
      // When lanes that differ only in their low log2(W) bits hold the same
      // rows (those bits move along the axis or not at all), lane l of every
      // warp reads slot l mod W of its row and a butterfly over those bits
      // combines the W slots: one load and log2(W) shuffles per row instead
      // of W loads. Each step combines two values symmetrically, so every
      // lane ends with the same bits. Otherwise every thread loads the W
      // slots of its rows and combines them in slot order.
      unsigned lowLanes = static_cast<unsigned>(warpsAlong - 1);
      bool butterfly =
          warpsAlong <= 32 && (lowLanes & ~(axisLaneMask | dupLaneMask)) == 0;
      for (int64_t r = 0; r < numRegs && !butterfly; ++r) {
        if (!isRepresentative(r))
          continue;
        Partial acc;
        for (int64_t w = 0; w < warpsAlong; ++w) {
          Value at = LLVM::AddOp::create(rewriter, loc, rowStarts[r],
                                         i32Constant(rewriter, loc, w));
          Partial p{loadShared(rewriter, loc, valueBase, at, elemType), {}};
          if (isArg)
            p.index =
                loadShared(rewriter, loc, indexBase, at, rewriter.getI32Type());
          acc = w == 0 ? p : combine(rewriter, loc, kind, acc, p);
        }
        partials[r] = acc;
      }
      Value laneSlot =
          butterfly
              ? LLVM::AndOp::create(rewriter, loc, getLaneId(rewriter, loc),
                                    i32Constant(rewriter, loc, warpsAlong - 1))
              : Value();
      for (int64_t r = 0; r < numRegs && butterfly; ++r) {
        if (!isRepresentative(r))
          continue;
        Value at = LLVM::AddOp::create(rewriter, loc, rowStarts[r], laneSlot);
        Partial acc{loadShared(rewriter, loc, valueBase, at, elemType), {}};
        if (isArg)
          acc.index =
              loadShared(rewriter, loc, indexBase, at, rewriter.getI32Type());
        for (int64_t m = warpsAlong / 2; m >= 1; m /= 2) {
          Partial other{shuffleXor(rewriter, loc, acc.value, m), {}};
          if (isArg)
            other.index = shuffleXor(rewriter, loc, acc.index, m);
          acc = combine(rewriter, loc, kind, acc, other);
        }
        partials[r] = acc;
      }
    }

    auto resultOf = [&](const Partial &p) { return isArg ? p.index : p.value; };
    if (!resultTensor) {
      rewriter.replaceOp(op, resultOf(partials[0]));
      return success();
    }

    // Pick each result register from the operand register of its row.
    std::optional<TileDistribution> dst = TileDistribution::get(resultTensor);
    auto dropAxis = [&](ArrayRef<int64_t> c) {
      Coords r(c.begin(), c.end());
      r.erase(r.begin() + axis);
      return r;
    };
    bool compatible = dst && dst->getNumWarps() == src->getNumWarps();
    for (unsigned b = 0; compatible && b < TileDistribution::getNumLaneBits();
         ++b)
      compatible = dst->getLaneBasis(b) == dropAxis(src->getLaneBasis(b));
    for (unsigned b = 0; compatible && b < dst->getNumWarpBits(); ++b)
      compatible = dst->getWarpBasis(b) == dropAxis(src->getWarpBasis(b));
    SmallVector<Value> results;
    for (int64_t i = 0; compatible && i < dst->getNumRegisters(); ++i) {
      int64_t found = -1;
      for (int64_t r = 0; r < numRegs && found < 0; ++r)
        if (isRepresentative(r) &&
            dropAxis(src->getRegisterCoords(r)) == dst->getRegisterCoords(i))
          found = r;
      compatible = found >= 0;
      if (compatible)
        results.push_back(resultOf(partials[found]));
    }
    if (!compatible)
      return op.emitOpError("result layout must be the slice of the operand "
                            "layout along the reduced axis");
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, results));
    return success();
  }
};

} // namespace

void tilec::populateReduceOpToLLVMPatterns(TileTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering>(converter, patterns.getContext());
}
