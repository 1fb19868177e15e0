//===- ReduceOpToLLVM.cpp - Reductions along one axis -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.reduce and tile.combine_reduce in three steps, following the
// operand layout's bases (TileDistribution): the bits of the register, lane
// and warp indices that move only along the axis are combined, those that
// move along other dimensions are kept apart, and those that move nothing
// (copies) are ignored, so duplicated elements are never counted twice.
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
// A partial result is one value per carried type (getCombinedTypes): the
// operands of a combine_reduce, whose region is inlined at every
// combination; the value of a sum, max or min; (value, index) for
// argmax/argmin. Sums add, max/min use maxnum/minnum on floats (a NaN loses
// against a number) and signed comparisons on integers; argmax/argmin prefer
// the smaller index on ties (NaNs lose as in max). The result register of
// each row is then picked from the operand register of that row, which is
// valid because the result layout is the slice of the operand layout along
// the axis.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// A partial reduction: one value per carried type.
using Partial = SmallVector<Value, 2>;

/// Combines two partials of a reduction of `kind`: (value) or, for
/// argmax/argmin, (value, index).
static Partial combine(OpBuilder &b, Location loc, ReduceKind kind,
                       ValueRange x, ValueRange y) {
  Type type = x[0].getType();
  bool isFloat = isa<FloatType>(type);
  switch (kind) {
  case ReduceKind::Sum:
    return {isFloat ? LLVM::FAddOp::create(b, loc, x[0], y[0]).getResult()
                    : LLVM::AddOp::create(b, loc, x[0], y[0]).getResult()};
  case ReduceKind::Max:
    return {isFloat ? LLVM::MaxNumOp::create(b, loc, x[0], y[0]).getResult()
                    : LLVM::SMaxOp::create(b, loc, x[0], y[0]).getResult()};
  case ReduceKind::Min:
    return {isFloat ? LLVM::MinNumOp::create(b, loc, x[0], y[0]).getResult()
                    : LLVM::SMinOp::create(b, loc, x[0], y[0]).getResult()};
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
    break;
  }
  bool isMax = kind == ReduceKind::ArgMax;
  Value better, equal;
  if (isFloat) {
    better = LLVM::FCmpOp::create(
        b, loc, isMax ? LLVM::FCmpPredicate::ogt : LLVM::FCmpPredicate::olt,
        x[0], y[0]);
    equal = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq, x[0], y[0]);
  } else {
    better = LLVM::ICmpOp::create(
        b, loc, isMax ? LLVM::ICmpPredicate::sgt : LLVM::ICmpPredicate::slt,
        x[0], y[0]);
    equal = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, x[0], y[0]);
  }
  Value earlier =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, x[1], y[1]);
  Value pickX = LLVM::OrOp::create(b, loc, better,
                                   LLVM::AndOp::create(b, loc, equal, earlier));
  if (isFloat) {
    // A NaN loses against a number; between two NaNs the earlier wins.
    Value xNaN =
        LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, x[0], x[0]);
    Value yNaN =
        LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, y[0], y[0]);
    Value xNumber = LLVM::XOrOp::create(
        b, loc, xNaN,
        LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true)));
    Value bothNaN = LLVM::AndOp::create(b, loc, xNaN, yNaN);
    pickX = LLVM::OrOp::create(b, loc, pickX,
                               LLVM::AndOp::create(b, loc, yNaN, xNumber));
    pickX = LLVM::OrOp::create(b, loc, pickX,
                               LLVM::AndOp::create(b, loc, bothNaN, earlier));
  }
  return {LLVM::SelectOp::create(b, loc, pickX, x[0], y[0]),
          LLVM::SelectOp::create(b, loc, pickX, x[1], y[1])};
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

/// How a reduction starts and combines its partials.
struct ReductionSpec {
  /// The tile reduced (the first operand) and the axis.
  RankedTensorType srcType;
  unsigned axis;
  /// The converted carried types (getCombinedTypes).
  SmallVector<Type> types;
  /// The partial of operand register `reg`, whose element has coordinates
  /// `coords`.
  llvm::function_ref<Partial(int64_t reg, ArrayRef<Value> coords)> initial;
  /// The combination of two partials, `x` earlier along the axis.
  llvm::function_ref<Partial(ValueRange x, ValueRange y)> combine;
};

/// Emits the reduction of `op` (tile.reduce or tile.combine_reduce) and
/// returns, for each result register of the op (one for a scalar result), the
/// partial of its row.
static FailureOr<SmallVector<Partial>>
emitReduction(Operation *op, ConversionPatternRewriter &rewriter,
              const ReductionSpec &spec) {
  Location loc = op->getLoc();
  RankedTensorType srcType = spec.srcType;
  unsigned axis = spec.axis;
  std::optional<TileDistribution> src = TileDistribution::get(srcType);
  if (!src ||
      !llvm::all_of(spec.types, [](Type t) { return t && t.isIntOrFloat(); })) {
    op->emitOpError("operand layout or element type is not supported");
    return failure();
  }

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
  if (mixed || !axisBasesAreIndependent(axisBases)) {
    op->emitOpError("operand layout is not supported by the reduction "
                    "lowering");
    return failure();
  }

  SmallVector<SmallVector<Value>> indices = emitIndices(rewriter, loc, srcType);
  int64_t numRegs = src->getNumRegisters();
  auto isRepresentative = [&](int64_t r) {
    return (r & (axisRegMask | dupRegMask)) == 0;
  };
  auto shuffle = [&](const Partial &p, unsigned mask) {
    Partial other;
    for (Value v : p)
      other.push_back(shuffleXor(rewriter, loc, v, mask));
    return other;
  };

  // 1. Within the thread.
  SmallVector<Partial> partials(numRegs);
  for (int64_t r = 0; r < numRegs; ++r) {
    if (!isRepresentative(r))
      continue;
    Partial acc = spec.initial(r, indices[r]);
    for (int64_t m = 1; m <= axisRegMask; ++m)
      if ((m & axisRegMask) == m)
        acc = spec.combine(acc, spec.initial(r | m, indices[r | m]));
    partials[r] = acc;
  }

  // 2. Within the warp.
  for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b) {
    if (!(axisLaneMask & (1u << b)))
      continue;
    for (int64_t r = 0; r < numRegs; ++r)
      if (isRepresentative(r))
        partials[r] = spec.combine(partials[r], shuffle(partials[r], 1u << b));
  }

  // 3. Across warps, through shared memory.
  auto resultTensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<int64_t> resultShape =
      resultTensor ? SmallVector<int64_t>(resultTensor.getShape())
                   : SmallVector<int64_t>();
  int64_t warpsAlong = int64_t(1) << axisWarpBits.size();
  if (warpsAlong > 1) {
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();
    SmallVector<int64_t> offsets = getCombineScratchOffsets(op);
    SmallVector<Value> bases;
    for (size_t k = 0; k < spec.types.size(); ++k)
      bases.push_back(getScratchBase(rewriter, loc, op, offsets[k]));
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
    auto loadPartial = [&](Value at) {
      Partial p;
      for (auto [base, type] : llvm::zip(bases, spec.types))
        p.push_back(loadShared(rewriter, loc, base, at, type));
      return p;
    };
    emitBarrier(rewriter, loc);
    for (int64_t r = 0; r < numRegs; ++r) {
      if (!isRepresentative(r))
        continue;
      Value at = LLVM::AddOp::create(rewriter, loc, rowStarts[r], slot);
      for (auto [base, value] : llvm::zip(bases, partials[r]))
        storeShared(rewriter, loc, base, at, value);
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
        Partial p = loadPartial(LLVM::AddOp::create(
            rewriter, loc, rowStarts[r], i32Constant(rewriter, loc, w)));
        acc = w == 0 ? p : spec.combine(acc, p);
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
      Partial acc = loadPartial(
          LLVM::AddOp::create(rewriter, loc, rowStarts[r], laneSlot));
      for (int64_t m = warpsAlong / 2; m >= 1; m /= 2)
        acc = spec.combine(acc, shuffle(acc, m));
      partials[r] = acc;
    }
  }

  if (!resultTensor)
    return SmallVector<Partial>{partials[0]};

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
  SmallVector<Partial> results;
  for (int64_t i = 0; compatible && i < dst->getNumRegisters(); ++i) {
    int64_t found = -1;
    for (int64_t r = 0; r < numRegs && found < 0; ++r)
      if (isRepresentative(r) &&
          dropAxis(src->getRegisterCoords(r)) == dst->getRegisterCoords(i))
        found = r;
    compatible = found >= 0;
    if (compatible)
      results.push_back(partials[found]);
  }
  if (!compatible) {
    op->emitOpError("result layout must be the slice of the operand layout "
                    "along the reduced axis");
    return failure();
  }
  return results;
}

/// The converted types of `types`.
static SmallVector<Type> convertTypes(const TypeConverter &converter,
                                      ArrayRef<Type> types) {
  return llvm::map_to_vector(types,
                             [&](Type t) { return converter.convertType(t); });
}

/// Packs value `k` of each result register's partial as result `k` of `op`.
static Value packResult(ConversionPatternRewriter &rewriter, Location loc,
                        Type convertedType, ArrayRef<Partial> partials,
                        unsigned k) {
  SmallVector<Value> registers;
  for (const Partial &p : partials)
    registers.push_back(p[k]);
  return packRegisters(rewriter, loc, convertedType, registers);
}

struct ReduceOpLowering : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ReduceKind kind = op.getKind();
    bool isArg = kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
    unsigned axis = op.getAxis();
    SmallVector<Value> regs = unpackRegisters(rewriter, loc, adaptor.getSrc());
    auto initial = [&](int64_t reg, ArrayRef<Value> coords) {
      Partial p{regs[reg]};
      if (isArg)
        p.push_back(coords[axis]);
      return p;
    };
    auto combineKind = [&](ValueRange x, ValueRange y) {
      return combine(rewriter, loc, kind, x, y);
    };
    ReductionSpec spec{cast<RankedTensorType>(op.getSrc().getType()), axis,
                       convertTypes(*getTypeConverter(), getCombinedTypes(op)),
                       initial, combineKind};
    FailureOr<SmallVector<Partial>> partials =
        emitReduction(op, rewriter, spec);
    if (failed(partials))
      return failure();
    Type resultType = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(
        op, packResult(rewriter, loc, resultType, *partials, isArg ? 1 : 0));
    return success();
  }
};

struct CombineReduceOpLowering : public OpConversionPattern<CombineReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CombineReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<SmallVector<Value>> regs;
    for (Value src : adaptor.getSrcs())
      regs.push_back(unpackRegisters(rewriter, loc, src));
    auto initial = [&](int64_t reg, ArrayRef<Value>) {
      Partial p;
      for (const SmallVector<Value> &operand : regs)
        p.push_back(operand[reg]);
      return p;
    };
    SmallVector<Type> types =
        convertTypes(*getTypeConverter(), getCombinedTypes(op));
    auto combineRegion = [&](ValueRange x, ValueRange y) {
      return Partial(inlineScalarRegion(
          rewriter, op.getCombine(), llvm::to_vector(llvm::concat<Value>(x, y)),
          types));
    };
    ReductionSpec spec{cast<RankedTensorType>(op.getSrcs()[0].getType()),
                       static_cast<unsigned>(op.getAxis()),
                       convertTypes(*getTypeConverter(), getCombinedTypes(op)),
                       initial, combineRegion};
    FailureOr<SmallVector<Partial>> partials =
        emitReduction(op, rewriter, spec);
    if (failed(partials))
      return failure();
    SmallVector<Value> results;
    for (auto [k, result] : llvm::enumerate(op.getResults()))
      results.push_back(packResult(
          rewriter, loc, getTypeConverter()->convertType(result.getType()),
          *partials, k));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tilec::populateReduceOpToLLVMPatterns(TileTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering, CombineReduceOpLowering>(
      converter, patterns.getContext());
}
