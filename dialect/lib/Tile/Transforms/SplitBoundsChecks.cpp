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
//     ... cols[None, :] + W > rows[:, None] ... # a sliding window
//
// compares each block with bounds that do not change in the loop, although
// each comparison holds for the whole block in every iteration up to some
// point (`cols < N` while start <= N - BLOCK, the causal one while start +
// BLOCK - 1 <= the first row) or from some point on (the window while start
// + W > the last row). When the body multiplies tiles and accumulates one
// product, the loop is split there: the iterations before every lower
// comparison holds, then those where every comparison holds for the whole
// block, with each a constant true (canonicalize then folds the selects and
// masks it fed), then the rest; the first and last keep them:
//
//   first = max over the lower comparisons of the first start where it holds
//   last = min over the upper ones of the last start where it holds
//   start = min(lb + ceil(max(first - lb, 0) / BLOCK) * BLOCK, max(ub, lb))
//   end = max(min(lb + max((last + BLOCK - lb) / BLOCK, 0) * BLOCK,
//                 max(ub, lb)), start)
//   for start in range(lb, start, BLOCK):  ... masked ...
//   for start in range(start, end, BLOCK): ... true ...
//   for start in range(end, ub, BLOCK):    ... masked ...
//
// (A loop without lower comparisons has no first loop, one without upper
// ones no last; `min` is left out when a comparison is known to stop a block
// before ub: for `cols < ub`, end = lb + max((ub - lb) / BLOCK, 0) * BLOCK.)
// The bounds are computed in the induction variable's type, the blocks
// taken as exact integers (a block of indices that wraps around is not
// one).
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
/// variable is at most `base + offset` (upper) or at least `base + offset`
/// (lower; `base` none: 0).
struct Check {
  arith::CmpIOp cmp;
  Value base;
  int64_t offset;
  bool lower;
};

/// Whether the scalar `base` of a block that `forOp`'s checks compare with
/// does not change in the loop and fits its induction variable's type.
static bool isLoopBound(scf::ForOp forOp, Value base) {
  if (!base)
    return true;
  auto type = dyn_cast<IntegerType>(base.getType());
  return type &&
         type.getWidth() <=
             forOp.getInductionVar().getType().getIntOrFloatBitWidth() &&
         forOp.isDefinedOutsideOfLoop(base);
}

/// The comparisons of `forOp`'s body (nested ops included) between a block
/// of its induction variable and a block that does not change in the loop:
/// `iv + cols < bound` holds while iv is at most a bound, `bound < iv +
/// cols` (a sliding window's `keys + W > rows`) from a bound on.
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
    std::optional<Span> low = spanOf(below), high = spanOf(above);
    if (!low || !high)
      return;
    int64_t strict = pred == arith::CmpIPredicate::slt ? 1 : 0;
    if (low->base == iv && isLoopBound(forOp, high->base)) {
      // iv + low.hi < high.base + high.lo (or <=).
      found.push_back(
          {cmp, high->base, high->lo - low->hi - strict, /*lower=*/false});
    } else if (high->base == iv && isLoopBound(forOp, low->base)) {
      // low.base + low.hi < iv + high.lo (or <=).
      found.push_back(
          {cmp, low->base, low->hi - high->lo + strict, /*lower=*/true});
    }
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
  // A lower comparison whose bound is at most the lower bound holds in
  // every iteration (a descriptor's `0 <= keys`); the others split off the
  // iterations before they hold when one of them decides values (a sliding
  // window), else stay as they are. `holds[i]`: found[i] is a constant in
  // the unmasked iterations.
  auto [lbBase, lbOffset] = splitOffset(forOp.getLowerBound());
  SmallVector<Check> upper, lower;
  SmallVector<bool> holds;
  bool lowerDecides = llvm::any_of(found, [&](Check check) {
    return check.lower &&
           !(sameValue(check.base, lbBase) && check.offset <= lbOffset) &&
           decidesValues(check.cmp.getResult());
  });
  for (const Check &check : found) {
    bool always = check.lower && sameValue(check.base, lbBase) &&
                  check.offset <= lbOffset;
    if (!check.lower)
      upper.push_back(check);
    else if (!always && lowerDecides)
      lower.push_back(check);
    holds.push_back(!check.lower || always || lowerDecides);
  }
  if (upper.empty() && lower.empty())
    return;
  // An upper comparison that fails on the first iteration (the diagonal
  // pass of a causal attention, from the first row's block) leaves nothing
  // to split.
  if (lower.empty())
    for (const Check &check : upper)
      if (sameValue(check.base, lbBase) && check.offset < lbOffset)
        return;

  // When an upper comparison stops holding a block before the upper bound
  // (the keys of a loop up to N checked against N), the split is at most
  // the upper bound: the loop's whole blocks.
  auto [ubBase, ubOffset] = splitOffset(forOp.getUpperBound());
  int64_t stride = step.getSExtValue();
  bool bounded = llvm::any_of(upper, [&](Check check) {
    return sameValue(check.base, ubBase) && check.offset + stride <= ubOffset;
  });

  OpBuilder b(forOp);
  Location loc = forOp.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, IntegerAttr::get(ivType, v));
  };
  // The bound of `checks` combined by `combine` (min or max).
  auto combined = [&](ArrayRef<Check> checks, auto combine) {
    Value result;
    for (const Check &check : checks) {
      Value bound = constant(check.offset);
      if (check.base) {
        Value base = check.base;
        if (base.getType() != ivType)
          base = arith::ExtSIOp::create(b, loc, ivType, base);
        bound = arith::AddIOp::create(b, loc, base, bound);
      }
      result = result ? combine(result, bound) : bound;
    }
    return result;
  };
  Value lb = forOp.getLowerBound(), ub = forOp.getUpperBound();
  Value top;
  auto getTop = [&] {
    if (!top)
      top = arith::MaxSIOp::create(b, loc, ub, lb);
    return top;
  };
  // The first iteration where every lower comparison holds: first = the
  // largest bound, start = lb + ceil(max(first - lb, 0) / step) * step, at
  // most max(ub, lb).
  Value start = lb;
  if (!lower.empty()) {
    Value first = combined(lower, [&](Value x, Value y) -> Value {
      return arith::MaxSIOp::create(b, loc, x, y);
    });
    Value behind = arith::MaxSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, first, lb), constant(0));
    Value count = arith::DivSIOp::create(
        b, loc, arith::AddIOp::create(b, loc, behind, constant(stride - 1)),
        forOp.getStep());
    start = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, count, forOp.getStep()));
    start = arith::MinSIOp::create(b, loc, start, getTop());
  }
  // After the last iteration where every upper comparison holds: last = the
  // smallest bound, end = lb + max((last + step - lb) / step, 0) * step, at
  // most max(ub, lb) (no min when bounded) and at least start.
  Value end;
  if (!upper.empty()) {
    Value last = combined(upper, [&](Value x, Value y) -> Value {
      return arith::MinSIOp::create(b, loc, x, y);
    });
    Value span = arith::SubIOp::create(
        b, loc, arith::AddIOp::create(b, loc, last, forOp.getStep()), lb);
    Value count = arith::MaxSIOp::create(
        b, loc, arith::DivSIOp::create(b, loc, span, forOp.getStep()),
        constant(0));
    end = arith::AddIOp::create(
        b, loc, lb, arith::MulIOp::create(b, loc, count, forOp.getStep()));
    if (!bounded)
      end = arith::MinSIOp::create(b, loc, end, getTop());
    if (!lower.empty())
      end = arith::MaxSIOp::create(b, loc, end, start);
  }

  // The iterations before `start` run masked, in a loop of their own; those
  // from `start` to `end` (to the upper bound without upper comparisons)
  // with every comparison a constant (found in the clone the same way as in
  // the original); the rest, masked, in the original.
  if (!lower.empty()) {
    auto before = cast<scf::ForOp>(b.clone(*forOp));
    before.getUpperBoundMutable().assign(start);
    forOp.getLowerBoundMutable().assign(start);
    forOp.getInitArgsMutable().assign(before.getResults());
  }
  scf::ForOp whole = forOp;
  if (!upper.empty()) {
    whole = cast<scf::ForOp>(b.clone(*forOp));
    whole.getUpperBoundMutable().assign(end);
    forOp.getLowerBoundMutable().assign(end);
    forOp.getInitArgsMutable().assign(whole.getResults());
  }
  for (auto [check, replace] : llvm::zip_equal(checks(whole), holds)) {
    if (!replace)
      continue;
    arith::CmpIOp cmp = check.cmp;
    OpBuilder cb(cmp);
    TypedAttr yes = cb.getBoolAttr(true);
    if (auto shaped = dyn_cast<ShapedType>(cmp.getType()))
      yes = DenseElementsAttr::get(shaped, ArrayRef<Attribute>{yes});
    cmp.replaceAllUsesWith(
        arith::ConstantOp::create(cb, cmp.getLoc(), yes).getResult());
    cmp.erase();
  }
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
