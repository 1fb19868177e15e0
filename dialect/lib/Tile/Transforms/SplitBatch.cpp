//===- SplitBatch.cpp - Batched dots as one product per index ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-split-batch. In a function with a batched (3-D) tile.dot,
// every 3-D value is carried as its slices along the leading dimension: a
// list of B values of one rank less (or of one value when every slice is
// the same). The ops of the function are visited in order; an op with a 3-D
// result or operand, or with an operand already split, is rebuilt once per
// slice when its kind allows (SplitBatch::buildSlices) and its results are
// replaced by placeholders (unrealized casts of the slices) that later ops
// read their slices from. scf.for loops carrying 3-D values are rebuilt with
// one loop-carried value per slice. Values of lower rank that a split op
// needs slices of ([B, 1] offsets, [B] aranges) are split where they are
// computed, down to scalars for 1-D ones, and otherwise picked out by
// masked sums. Placeholders still read whole by an op that was not split
// are stacked back at the end.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileBuilders.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILESPLITBATCH
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// The slices of a value along its leading dimension, one per index, or a
/// single one that every index shares.
using Slices = SmallVector<Value, 4>;

bool isBatched(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getRank() == 3;
}

/// The type of one slice of `type` along its leading dimension (the element
/// type for a 1-D tile).
Type sliceType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  if (tensor.getRank() == 1)
    return tensor.getElementType();
  return RankedTensorType::get(tensor.getShape().drop_front(),
                               tensor.getElementType());
}

int64_t leadingSize(Value v) {
  return cast<RankedTensorType>(v.getType()).getDimSize(0);
}

Value slice(ArrayRef<Value> slices, int64_t i) {
  return slices.size() == 1 ? slices.front() : slices[i];
}

/// `slices` with a shared slice repeated `count` times.
Slices expanded(const Slices &slices, int64_t count) {
  if (slices.size() != 1)
    return slices;
  return Slices(count, slices.front());
}

/// Removes the tensor-descriptor operands of a load or store.
template <typename OpTy> void dropDescriptor(OpTy op) {
  op.getDescBaseMutable().clear();
  op.getDescShapeMutable().clear();
  op.getDescStridesMutable().clear();
  op.getDescOffsetsMutable().clear();
  op.setDescUnchecked(false);
}

class SplitBatch {
public:
  explicit SplitBatch(MLIRContext *context) : b(context) {}

  /// Splits what can be split in `block` and in the regions it holds.
  void splitBlock(Block &block);
  /// Stacks the placeholders still read whole and erases them.
  void finish();

private:
  /// Whether `op`'s kind can be rebuilt slice by slice.
  bool canSplit(Operation *op);
  /// Builds `op` once per slice at the insertion point (canSplit(op) holds),
  /// the slices of each of its results.
  SmallVector<Slices> buildSlices(Operation *op);
  /// The slices of `v`, built after its definition the first time.
  Slices getSlices(Value v);
  /// A placeholder of `type` whose slices are `slices`.
  Value placeholder(Type type, const Slices &slices, Location loc);
  /// Replaces `loop` by one carrying each value `carried` marks as its
  /// slices.
  void splitLoop(scf::ForOp loop, ArrayRef<bool> carried);

  OpBuilder b;
  DenseMap<Value, Slices> memo;
  SmallVector<UnrealizedConversionCastOp> placeholders;
};

} // namespace

bool SplitBatch::canSplit(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() > 1 ||
      !(isMemoryEffectFree(op) || isa<LoadOp, StoreOp>(op)))
    return false;
  auto resultType = op->getNumResults()
                        ? dyn_cast<RankedTensorType>(op->getResult(0).getType())
                        : RankedTensorType();
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return resultType && isa<DenseElementsAttr>(constant.getValue());
  if (isa<MakeRangeOp, SplatOp, ExpandDimsOp, BroadcastOp>(op))
    return true;
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getAxis() > 0;
  // Permutations that keep the leading dimension first, and reshapes that
  // keep it (each index's elements stay together, in order).
  if (auto trans = dyn_cast<TransOp>(op))
    return trans.getOrder().front() == 0;
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return reshape.getSrc().getType().getRank() > 1 &&
           resultType.getRank() > 1 &&
           reshape.getSrc().getType().getDimSize(0) == resultType.getDimSize(0);
  if (isa<DotOp>(op))
    return isBatched(op->getResult(0).getType());
  if (isa<StoreOp>(op))
    return true;
  if (!resultType)
    return false;
  // Slices of 1-D tiles are scalars, which only arith and math ops take.
  if (resultType.getRank() == 1 &&
      !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return false;
  return isa<LoadOp>(op) || op->hasTrait<OpTrait::Elementwise>();
}

SmallVector<Slices> SplitBatch::buildSlices(Operation *op) {
  Location loc = op->getLoc();
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto attr = cast<DenseElementsAttr>(constant.getValue());
    Type type = sliceType(attr.getType());
    auto typed = [&](Attribute a) -> Value {
      return arith::ConstantOp::create(b, loc, cast<TypedAttr>(a));
    };
    if (attr.isSplat()) {
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        return {{typed(attr.resizeSplat(tensor))}};
      return {{typed(attr.getSplatValue<Attribute>())}};
    }
    SmallVector<Attribute> values(attr.getValues<Attribute>());
    int64_t count = attr.getType().getDimSize(0);
    int64_t size = int64_t(values.size()) / count;
    Slices slices;
    for (int64_t i = 0; i < count; ++i) {
      ArrayRef<Attribute> part = ArrayRef(values).slice(i * size, size);
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        slices.push_back(typed(DenseElementsAttr::get(tensor, part)));
      else
        slices.push_back(typed(part.front()));
    }
    return {slices};
  }
  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    Slices slices;
    for (int64_t i = range.getStart(); i < int64_t(range.getEnd()); ++i)
      slices.push_back(
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(i)));
    return {slices};
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    Type type = sliceType(splat.getType());
    if (!isa<RankedTensorType>(type))
      return {{splat.getSrc()}};
    return {{SplatOp::create(b, loc, type, splat.getSrc())}};
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    // A new leading dimension has one index: the operand.
    if (expand.getAxis() == 0)
      return {{expand.getSrc()}};
    Type type = sliceType(expand.getType());
    Slices slices;
    for (Value s : getSlices(expand.getSrc())) {
      if (!isa<RankedTensorType>(s.getType()))
        slices.push_back(SplatOp::create(b, loc, type, s));
      else
        slices.push_back(ExpandDimsOp::create(
            b, loc, type, s, b.getI32IntegerAttr(expand.getAxis() - 1)));
    }
    return {slices};
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    Type type = sliceType(broadcast.getType());
    Slices slices;
    for (Value s : getSlices(broadcast.getSrc()))
      slices.push_back(s.getType() == type
                           ? s
                           : Value(BroadcastOp::create(b, loc, type, s)));
    return {slices};
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    Type type = sliceType(reduce.getType());
    Slices slices;
    for (Value s : getSlices(reduce.getSrc()))
      slices.push_back(ReduceOp::create(b, loc, type, s, reduce.getAxis() - 1,
                                        reduce.getKind()));
    return {slices};
  }
  if (auto trans = dyn_cast<TransOp>(op)) {
    Type type = sliceType(trans.getType());
    SmallVector<int32_t> order;
    for (int32_t d : trans.getOrder().drop_front())
      order.push_back(d - 1);
    Slices slices;
    for (Value s : getSlices(trans.getSrc()))
      slices.push_back(TransOp::create(b, loc, type, s, order));
    return {slices};
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    Type type = sliceType(reshape.getType());
    Slices slices;
    for (Value s : getSlices(reshape.getSrc()))
      slices.push_back(
          s.getType() == type ? s : Value(ReshapeOp::create(b, loc, type, s)));
    return {slices};
  }
  // Elementwise ops, loads, stores and dots: the op on each index's slices
  // of its tiles (operands of another rank, such as a scalar condition, as
  // they are).
  int64_t rank = 0;
  for (Value v : op->getOperands())
    if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
      rank = std::max(rank, tensor.getRank());
  SmallVector<std::pair<unsigned, Slices>> split;
  int64_t count = 1;
  for (OpOperand &operand : op->getOpOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!tensor || tensor.getRank() != rank)
      continue;
    split.emplace_back(operand.getOperandNumber(), getSlices(operand.get()));
    count = std::max(count, int64_t(split.back().second.size()));
  }
  Slices slices;
  for (int64_t i = 0; i < count; ++i) {
    IRMapping mapping;
    for (auto &[number, s] : split)
      mapping.map(op->getOperand(number), slice(s, i));
    Operation *clone = b.clone(*op, mapping);
    // A slice of a tensor descriptor's block is no block of it: the slice
    // loads and stores through its pointers and mask, which address the
    // same elements.
    if (auto load = dyn_cast<LoadOp>(clone))
      dropDescriptor(load);
    if (auto store = dyn_cast<StoreOp>(clone))
      dropDescriptor(store);
    if (op->getNumResults() == 0)
      continue;
    Value result = clone->getResult(0);
    result.setType(sliceType(result.getType()));
    // The user's facts about the remaining dimensions still hold for each
    // slice; a scalar slice keeps none.
    for (AxisHint kind :
         {AxisHint::Divisibility, AxisHint::Contiguity, AxisHint::Constancy}) {
      ArrayRef<int64_t> hint = getAxisHint(op, kind);
      if (hint.empty())
        continue;
      if (isa<RankedTensorType>(result.getType()))
        setAxisHint(clone, kind, hint.drop_front());
      else
        removeAxisHints(clone);
    }
    slices.push_back(result);
  }
  if (op->getNumResults() == 0)
    return {};
  return {slices};
}

Slices SplitBatch::getSlices(Value v) {
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  OpBuilder::InsertionGuard guard(b);
  Operation *def = v.getDefiningOp();
  Slices slices;
  if (def && canSplit(def)) {
    b.setInsertionPointAfter(def);
    slices = buildSlices(def).front();
  } else {
    if (def)
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
    int64_t count = leadingSize(v);
    for (int64_t i = 0; i < count; ++i)
      slices.push_back(buildSliceAlong(b, v.getLoc(), v, 0, i));
  }
  memo[v] = slices;
  return slices;
}

Value SplitBatch::placeholder(Type type, const Slices &slices, Location loc) {
  auto cast = UnrealizedConversionCastOp::create(b, loc, type, slices);
  placeholders.push_back(cast);
  memo[cast.getResult(0)] = slices;
  return cast.getResult(0);
}

void SplitBatch::splitLoop(scf::ForOp loop, ArrayRef<bool> carried) {
  Location loc = loop.getLoc();
  // The loop's values with each carried one replaced by its slices...
  auto flattened = [&](ValueRange values) {
    SmallVector<Value> flat;
    for (auto [v, split] : llvm::zip_equal(values, carried)) {
      if (split)
        llvm::append_range(flat, expanded(getSlices(v), leadingSize(v)));
      else
        flat.push_back(v);
    }
    return flat;
  };
  // ...and the old values rebound to the new ones, through placeholders of
  // the slices (at the insertion point).
  auto rebind = [&](ValueRange old, ValueRange fresh) {
    unsigned next = 0;
    for (auto [v, split] : llvm::zip_equal(old, carried)) {
      if (!split) {
        v.replaceAllUsesWith(fresh[next++]);
        continue;
      }
      int64_t count = leadingSize(v);
      Slices slices(fresh.slice(next, count));
      next += count;
      v.replaceAllUsesWith(placeholder(v.getType(), slices, v.getLoc()));
    }
  };

  b.setInsertionPoint(loop);
  auto newLoop =
      scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep(), flattened(loop.getInitArgs()),
                         /*bodyBuilder=*/nullptr, loop.getUnsignedCmp());
  newLoop->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *oldBody = loop.getBody(), *newBody = newLoop.getBody();
  b.setInsertionPointToStart(newBody);
  oldBody->getArgument(0).replaceAllUsesWith(newBody->getArgument(0));
  rebind(oldBody->getArguments().drop_front(),
         newBody->getArguments().drop_front());
  newBody->getOperations().splice(newBody->end(), oldBody->getOperations());
  splitBlock(*newBody);

  auto yield = cast<scf::YieldOp>(newBody->getTerminator());
  b.setInsertionPoint(yield);
  scf::YieldOp::create(b, yield.getLoc(), flattened(yield.getOperands()));
  yield.erase();

  b.setInsertionPointAfter(newLoop);
  rebind(loop.getResults(), newLoop.getResults());
  loop.erase();
}

void SplitBatch::splitBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isa<UnrealizedConversionCastOp>(op))
      continue;
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // 3-D values, and those whose leading dimension is the batch of a
      // batched dot of the loop (an attention's row maxima [B, M]), are
      // carried as their slices.
      SmallVector<int64_t> batches;
      loop.walk([&](DotOp dot) {
        if (isBatched(dot.getType()))
          batches.push_back(leadingSize(dot));
      });
      SmallVector<bool> carried;
      for (Value init : loop.getInitArgs()) {
        auto tensor = dyn_cast<RankedTensorType>(init.getType());
        carried.push_back(
            isBatched(init.getType()) ||
            (tensor && llvm::is_contained(batches, tensor.getDimSize(0))));
      }
      if (llvm::is_contained(carried, true)) {
        splitLoop(loop, carried);
        continue;
      }
    }
    // 3-D values and the values computed from split ones are split.
    bool wanted = llvm::any_of(op.getResultTypes(), isBatched) ||
                  llvm::any_of(op.getOperands(), [&](Value v) {
                    auto cast = v.getDefiningOp<UnrealizedConversionCastOp>();
                    return isBatched(v.getType()) || (cast && memo.count(v));
                  });
    if (wanted && canSplit(&op)) {
      b.setInsertionPoint(&op);
      SmallVector<Slices> slices = buildSlices(&op);
      if (op.getNumResults())
        op.getResult(0).replaceAllUsesWith(placeholder(
            op.getResult(0).getType(), slices.front(), op.getLoc()));
      op.erase();
      continue;
    }
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        splitBlock(inner);
  }
}

void SplitBatch::finish() {
  for (UnrealizedConversionCastOp cast : placeholders) {
    Value whole = cast.getResult(0);
    if (!whole.use_empty()) {
      b.setInsertionPoint(cast);
      Slices slices(cast.getOperands());
      whole.replaceAllUsesWith(buildStackLeading(
          b, cast.getLoc(), expanded(slices, leadingSize(whole))));
    }
    cast.erase();
  }
  placeholders.clear();
  memo.clear();
}

namespace {
struct SplitBatchPass
    : public tilec::tile::impl::TileSplitBatchBase<SplitBatchPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      WalkResult batched = func.walk([](DotOp dot) {
        return isBatched(dot.getType()) ? WalkResult::interrupt()
                                        : WalkResult::advance();
      });
      if (!batched.wasInterrupted())
        return;
      SplitBatch splitter(&getContext());
      for (Block &block : func.getBody())
        splitter.splitBlock(block);
      splitter.finish();
    });
  }
};
} // namespace
