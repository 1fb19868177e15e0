//===- SplitBoundsChecks.cpp - Unmasked iterations without their checks ---===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-split-bounds-checks. A loop over blocks,
//
//   for start in range(lb, ub, BLOCK):
//     cols = start + tl.arange(0, BLOCK)
//     ... cols < N ...                          # keys within the sequence
//     ... rows[:, None] >= cols[None, :] ...    # causal: keys up to the query
//
// compares each block with bounds that do not change in the loop, although
// the comparison holds for the whole block in every iteration up to some
// point: `cols < N` while start <= N - BLOCK, the causal one while start +
// BLOCK - 1 <= the first row. When the body multiplies tiles and
// accumulates one product, the loop is split there: first the iterations
// where every such comparison holds for the whole block, with each a
// constant true (canonicalize then folds the selects and masks it fed),
// then the rest, which keeps them:
//
//   last = min over the comparisons of the last start where it holds
//   split = min(lb + max((last + BLOCK - lb) / BLOCK, 0) * BLOCK,
//               max(ub, lb))
//   for start in range(lb, split, BLOCK):  ... true ...
//   for start in range(split, ub, BLOCK):  ... cols < N ...
//
// (`min` left out when a comparison is known to stop a block before ub: for
// `cols < ub`, split = lb + max((ub - lb) / BLOCK, 0) * BLOCK.) The bounds
// are computed in the induction variable's type, the blocks taken as exact
// integers (a block of indices that wraps around is not one).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILESPLITBOUNDSCHECKS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// `value` without the ops that only repeat, regroup or widen its elements.
static Value stripShape(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<ExpandDimsOp, BroadcastOp, arith::ExtSIOp>(op))
      break;
    value = op->getOperand(0);
  }
  return value;
}

/// A block of integers: its elements lie in [base + lo, base + hi], where
/// `base` is a scalar (none: 0).
struct Span {
  Value base;
  int64_t lo = 0, hi = 0;
};

/// The span of `value`: sums of at most one splat scalar, ranges and
/// constants, through shape ops and sign extensions.
static std::optional<Span> spanOf(Value value) {
  value = stripShape(value);
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return Span{Value(), constant.getSExtValue(), constant.getSExtValue()};
  if (auto splat = value.getDefiningOp<SplatOp>())
    return Span{stripShape(splat.getSrc()), 0, 0};
  if (auto range = value.getDefiningOp<MakeRangeOp>()) {
    int64_t start = static_cast<int32_t>(range.getStart());
    int64_t end = static_cast<int32_t>(range.getEnd());
    if (end <= start)
      return std::nullopt;
    return Span{Value(), start, end - 1};
  }
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  std::optional<Span> lhs = spanOf(add.getLhs()), rhs = spanOf(add.getRhs());
  if (!lhs || !rhs || (lhs->base && rhs->base))
    return std::nullopt;
  return Span{lhs->base ? lhs->base : rhs->base, lhs->lo + rhs->lo,
              lhs->hi + rhs->hi};
}

/// A comparison that holds for the whole block while the induction
/// variable is at most `base + offset` (`base` none: 0).
struct Check {
  arith::CmpIOp cmp;
  Value base;
  int64_t offset;
};

/// The comparisons of `forOp`'s body (nested ops included) between a block
/// of its induction variable, below, and a block that does not change in
/// the loop.
static SmallVector<Check> checks(scf::ForOp forOp) {
  Value iv = forOp.getInductionVar();
  SmallVector<Check> found;
  forOp.getBody()->walk([&](arith::CmpIOp cmp) {
    Value below = cmp.getLhs(), above = cmp.getRhs();
    arith::CmpIPredicate pred = cmp.getPredicate();
    if (pred == arith::CmpIPredicate::sgt ||
        pred == arith::CmpIPredicate::sge) {
      std::swap(below, above);
      pred = pred == arith::CmpIPredicate::sgt ? arith::CmpIPredicate::slt
                                               : arith::CmpIPredicate::sle;
    }
    if (pred != arith::CmpIPredicate::slt && pred != arith::CmpIPredicate::sle)
      return;
    std::optional<Span> cols = spanOf(below), bound = spanOf(above);
    if (!cols || !bound || cols->base != iv)
      return;
    // The bound does not change in the loop and fits the induction
    // variable's type.
    if (bound->base) {
      auto type = dyn_cast<IntegerType>(bound->base.getType());
      if (!type || type.getWidth() > iv.getType().getIntOrFloatBitWidth() ||
          !forOp.isDefinedOutsideOfLoop(bound->base))
        return;
    }
    // iv + cols.hi < bound.base + bound.lo (or <=).
    int64_t offset = bound->lo - cols->hi;
    if (pred == arith::CmpIPredicate::slt)
      offset -= 1;
    found.push_back({cmp, bound->base, offset});
  });
  return found;
}

/// Whether `a` and `b` are the same scalar: one value, or the results of two
/// ops that compute it alike from the same operands (`tl.multiple_of` marks
/// a copy of `start_m * BLOCK_M` with a hint).
static bool sameValue(Value a, Value b) {
  if (a == b)
    return true;
  Operation *x = a ? a.getDefiningOp() : nullptr;
  Operation *y = b ? b.getDefiningOp() : nullptr;
  return x && y && x->getNumResults() == 1 && isPure(x) &&
         OperationEquivalence::isEquivalentTo(
             x, y,
             OperationEquivalence::IgnoreLocations |
                 OperationEquivalence::IgnoreDiscardableAttrs);
}

/// Whether `value`, a comparison's result, decides values of the loop (a
/// `tl.where` on scores) rather than only which elements memory operations
/// touch (masks, through the ops that combine and reshape them).
static bool decidesValues(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(user))
      continue;
    bool predicate = user->getNumResults() > 0 &&
                     llvm::all_of(user->getResultTypes(), [](Type type) {
                       return getElementTypeOrSelf(type).isInteger(1);
                     });
    if (!predicate || llvm::any_of(user->getResults(), decidesValues))
      return true;
  }
  return false;
}

/// `value` as `base + offset` (`base` none: 0).
static std::pair<Value, int64_t> splitOffset(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return {Value(), constant.getSExtValue()};
  if (auto add = value.getDefiningOp<arith::AddIOp>())
    if (matchPattern(add.getRhs(), m_ConstantInt(&constant)))
      return {add.getLhs(), constant.getSExtValue()};
  return {value, 0};
}

/// Splits `forOp` where its comparisons stop holding, when its body
/// multiplies tiles and holds such comparisons.
static void split(scf::ForOp forOp) {
  APInt step;
  auto ivType = dyn_cast<IntegerType>(forOp.getInductionVar().getType());
  if (!ivType || !matchPattern(forOp.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive() ||
      !forOp.getBody()
           ->walk([](DotOp) { return WalkResult::interrupt(); })
           .wasInterrupted())
    return;
  // A loop that accumulates two products or more stays whole: measured on
  // an H100, attention's dK/dV loop (dK and dV) split took 126 registers
  // to 186, lost its second program an SM and 40% of its speed, and a
  // batched attention (one accumulator a sequence) lost 9%.
  if (llvm::count_if(forOp.getBody()->getTerminator()->getOperands(),
                     [](Value v) { return v.getDefiningOp<DotOp>(); }) > 1)
    return;
  // Checks that only mask loads stay: cheap predicates of the copies, while
  // splitting a matmul's K loop doubles its copies' prologue (ptxas, sm_90a:
  // grouped_matmul's register-prefetched loop went from 245 registers to
  // 255 and 544 bytes of spills).
  SmallVector<Check> found = checks(forOp);
  if (llvm::none_of(found, [](Check check) {
        return decidesValues(check.cmp.getResult());
      }))
    return;
  // A comparison that fails on the first iteration (the diagonal pass of a
  // causal attention, from the first row's block) leaves nothing to split.
  auto [lbBase, lbOffset] = splitOffset(forOp.getLowerBound());
  for (const Check &check : found)
    if (sameValue(check.base, lbBase) && check.offset < lbOffset)
      return;

  // When a comparison stops holding a block before the upper bound (the
  // keys of a loop up to N checked against N), the split is at most the
  // upper bound: the loop's whole blocks.
  auto [ubBase, ubOffset] = splitOffset(forOp.getUpperBound());
  int64_t stride = step.getSExtValue();
  bool bounded = llvm::any_of(found, [&](Check check) {
    return sameValue(check.base, ubBase) && check.offset + stride <= ubOffset;
  });

  // last = the smallest bound; the iterations up to it:
  // max((last + step - lb) / step, 0) (0 when last < lb).
  OpBuilder b(forOp);
  Location loc = forOp.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, IntegerAttr::get(ivType, v));
  };
  Value last;
  for (const Check &check : found) {
    Value bound = constant(check.offset);
    if (check.base) {
      Value base = check.base;
      if (base.getType() != ivType)
        base = arith::ExtSIOp::create(b, loc, ivType, base);
      bound = arith::AddIOp::create(b, loc, base, bound);
    }
    last = last ? arith::MinSIOp::create(b, loc, last, bound) : bound;
  }
  Value lb = forOp.getLowerBound(), ub = forOp.getUpperBound();
  Value span = arith::SubIOp::create(
      b, loc, arith::AddIOp::create(b, loc, last, forOp.getStep()), lb);
  Value count = arith::MaxSIOp::create(
      b, loc, arith::DivSIOp::create(b, loc, span, forOp.getStep()),
      constant(0));
  Value at = arith::AddIOp::create(
      b, loc, lb, arith::MulIOp::create(b, loc, count, forOp.getStep()));
  if (!bounded)
    at = arith::MinSIOp::create(b, loc, at,
                                arith::MaxSIOp::create(b, loc, ub, lb));

  // The comparisons of the first loop hold: constants. (Found in the clone
  // the same way as in the original.)
  auto whole = cast<scf::ForOp>(b.clone(*forOp));
  for (const Check &check : checks(whole)) {
    arith::CmpIOp cmp = check.cmp;
    OpBuilder cb(cmp);
    TypedAttr yes = cb.getBoolAttr(true);
    if (auto shaped = dyn_cast<ShapedType>(cmp.getType()))
      yes = DenseElementsAttr::get(shaped, ArrayRef<Attribute>{yes});
    cmp.replaceAllUsesWith(
        arith::ConstantOp::create(cb, cmp.getLoc(), yes).getResult());
    cmp.erase();
  }
  whole.getUpperBoundMutable().assign(at);
  forOp.getLowerBoundMutable().assign(at);
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
