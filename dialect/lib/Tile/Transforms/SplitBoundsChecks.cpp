//===- SplitBoundsChecks.cpp - Full iterations without bounds checks ------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-split-bounds-checks. A loop over blocks of a range,
//
//   for start in range(lb, ub, BLOCK):
//     cols = start + tl.arange(0, BLOCK)
//     ... mask = cols < ub ...
//
// compares each block against the upper bound it runs to, although only
// its last iteration can hold columns past it. When the body multiplies
// tiles and accumulates one product, the loop is split in two: the iterations
// that hold a whole block, where every such comparison is true and becomes a
// constant (canonicalize then folds the selects and masks it fed), and the
// rest, at most one iteration, which keeps the comparisons:
//
//   full = lb + max((ub - lb) / BLOCK, 0) * BLOCK
//   for start in range(lb, full, BLOCK):  ... mask = true ...
//   for start in range(full, ub, BLOCK):  ... mask = cols < ub ...
//
// In the first loop start + BLOCK <= full <= ub, so start + r < ub for
// every r of the range.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILESPLITBOUNDSCHECKS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// `value` without the shape ops that only repeat or regroup its elements.
static Value stripShape(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<ExpandDimsOp, BroadcastOp>(op))
      break;
    value = op->getOperand(0);
  }
  return value;
}

/// Whether `value` is a tile of `scalar` (up to shape ops).
static bool isSplatOf(Value value, Value scalar) {
  auto splat = stripShape(value).getDefiningOp<SplatOp>();
  return splat && splat.getSrc() == scalar;
}

/// Whether `value` is `iv + tl.arange(start, end)` (up to shape ops) with
/// 0 <= start and end <= step: every element lies in [iv, iv + step).
static bool isBlockOf(Value value, Value iv, int64_t step) {
  auto add = stripShape(value).getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [splat, range] : {std::pair(add.getLhs(), add.getRhs()),
                              std::pair(add.getRhs(), add.getLhs())}) {
    auto make = range.getDefiningOp<MakeRangeOp>();
    if (make && isSplatOf(splat, iv) &&
        static_cast<int32_t>(make.getStart()) >= 0 &&
        static_cast<int32_t>(make.getEnd()) <= step)
      return true;
  }
  return false;
}

/// The comparisons of `forOp`'s body (nested ops included) that say a
/// block of the induction variable lies below the upper bound.
static SmallVector<arith::CmpIOp> boundsChecks(scf::ForOp forOp, int64_t step) {
  Value iv = forOp.getInductionVar(), ub = forOp.getUpperBound();
  SmallVector<arith::CmpIOp> checks;
  forOp.getBody()->walk([&](arith::CmpIOp cmp) {
    bool below =
        (cmp.getPredicate() == arith::CmpIPredicate::slt &&
         isBlockOf(cmp.getLhs(), iv, step) && isSplatOf(cmp.getRhs(), ub)) ||
        (cmp.getPredicate() == arith::CmpIPredicate::sgt &&
         isSplatOf(cmp.getLhs(), ub) && isBlockOf(cmp.getRhs(), iv, step));
    if (below)
      checks.push_back(cmp);
  });
  return checks;
}

/// Splits `forOp` into its whole blocks and the rest, when its body
/// multiplies tiles and checks blocks against its upper bound.
static void split(scf::ForOp forOp) {
  APInt step;
  if (!matchPattern(forOp.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive() ||
      !forOp.getBody()
           ->walk([](DotOp) { return WalkResult::interrupt(); })
           .wasInterrupted())
    return;
  if (boundsChecks(forOp, step.getSExtValue()).empty())
    return;
  // A loop that accumulates two products or more stays whole: measured on
  // an H100, attention's dK/dV loop (dK and dV) split took 126 registers
  // to 186, lost its second program an SM and 40% of its speed, and a
  // batched attention (one accumulator a sequence) lost 9%.
  if (llvm::count_if(forOp.getBody()->getTerminator()->getOperands(),
                     [](Value v) { return v.getDefiningOp<DotOp>(); }) > 1)
    return;

  OpBuilder b(forOp);
  Location loc = forOp.getLoc();
  Value lb = forOp.getLowerBound(), ub = forOp.getUpperBound();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(lb.getType()));
  Value trips = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ub, lb), forOp.getStep());
  trips = arith::MaxSIOp::create(b, loc, trips, zero);
  Value full = arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, trips, forOp.getStep()));

  // The bounds checks of the whole blocks hold: constants. (Found in the
  // clone before its upper bound changes: they compare with `ub`.)
  auto whole = cast<scf::ForOp>(b.clone(*forOp));
  for (arith::CmpIOp cmp : boundsChecks(whole, step.getSExtValue())) {
    OpBuilder cb(cmp);
    TypedAttr yes = cb.getBoolAttr(true);
    if (auto shaped = dyn_cast<ShapedType>(cmp.getType()))
      yes = DenseElementsAttr::get(shaped, ArrayRef<Attribute>{yes});
    cmp.replaceAllUsesWith(
        arith::ConstantOp::create(cb, cmp.getLoc(), yes).getResult());
    cmp.erase();
  }
  whole.getUpperBoundMutable().assign(full);
  forOp.getLowerBoundMutable().assign(full);
  forOp.getInitArgsMutable().assign(whole.getResults());
}

struct SplitBoundsChecksPass
    : public tilec::tile::impl::TileSplitBoundsChecksBase<
          SplitBoundsChecksPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
    for (scf::ForOp forOp : loops)
      split(forOp);
  }
};

} // namespace
