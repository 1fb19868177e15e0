//===- FlattenLoops.cpp - One loop over a persistent kernel's K steps -----===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-flatten-loops. A persistent kernel walks its output tiles
// in an outer loop and their K steps in an inner one:
//
//   for tile in range(pid, tiles, programs):      # tl.range(..., flatten=True)
//     P(tile)                                     # pure: the tile's place
//     acc = for k in range(klo, khi, kstep) iter_args(acc = init):
//       acc = B(tile, k, acc)                     # loads and a product
//     E(tile, acc)                                # the epilogue: a store
//
// Pipelined as it is, every tile starts with an empty pipeline and its
// epilogue runs with nothing in flight. Flattened, one loop runs every K
// step of every tile, so that the pipeliner's copies run ahead across tile
// boundaries, into the next tile's first blocks while the epilogue runs:
//
//   nK = max(ceildiv(khi - klo, kstep), 0), nT likewise
//   if nK > 0:
//     for j in range(0, nT * nK)                  # counts in 64 bits
//         iter_args(tile = pid, kk = 0, s = S(pid), acc = init):
//       T(s)
//       acc = B(tile, klo + kk * kstep, select(kk == 0, init, acc))
//       last = kk == nK - 1
//       if last: E(tile, acc)
//       s' = last and tile + programs < tiles ? S(tile + programs) : s
//       yield select(last, tile + programs, tile), select(last, 0, kk + 1),
//             s', acc
//   else:
//     for tile in range(pid, tiles, programs): P(tile); E(tile, init)
//
// P splits into S, the scalars computed from the tile alone (its row and
// column of tiles, divisions: computed once a tile, in an scf.if that
// tile-pipeline can clone for the copies ahead), and T, the tiles computed
// from them (every step); what does not depend on the tile runs once,
// before the loop. Values the outer loop carries (the tutorials count the
// epilogue's tiles apart) are carried by the flattened loop; the epilogue's
// scf.if yields their next values. `init` must not depend on the tile (a
// constant or a value from before the loops): a zero accumulator is then an
// accumulator the product ignores (wgmma's scale-d), not a reset of its
// registers. Applies to an outer loop marked `tile.flatten`
// (`tl.range(..., flatten=True)`) whose body is ops without side effects,
// one loop with a `tile.dot` and bounds from outside, and the rest. Only on
// request, as in Triton: flattened, the persistent matmul on descriptors
// (examples/persistent_matmul.tile) measured as fast as with its two loops on
// an H100 (510-512 against 514 TFLOP/s; 438 while the place was recomputed
// every step).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEFLATTENLOOPS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// The loop in `outer`'s body that it can be flattened with, or null.
static scf::ForOp getFlattenableInner(scf::ForOp outer) {
  if (!isFlattenRequested(outer))
    return nullptr;
  scf::ForOp inner;
  for (Operation &op : outer.getBody()->without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (inner)
        return nullptr;
      inner = loop;
      continue;
    }
    // Before the inner loop, ops without effects only: they run once per
    // K step.
    if (!inner && (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
      return nullptr;
  }
  if (!inner ||
      inner.getInductionVar().getType() != outer.getInductionVar().getType())
    return nullptr;
  for (Value bound :
       {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
    if (!outer.isDefinedOutsideOfLoop(bound))
      return nullptr;
  APInt step;
  if (!matchPattern(inner.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return nullptr;
  // The accumulators start from constants or values from before the loops.
  for (Value init : inner.getInitArgs())
    if (!outer.isDefinedOutsideOfLoop(init) &&
        !matchPattern(init, m_Constant()))
      return nullptr;
  bool multiplies = inner.getBody()
                        ->walk([](DotOp) { return WalkResult::interrupt(); })
                        .wasInterrupted();
  return multiplies ? inner : nullptr;
}

/// The iterations of `loop`, whose step is positive: max((ub - lb + step -
/// 1) / step, 0) (a negative span gives at most 0).
static Value getTripCount(OpBuilder &b, Location loc, scf::ForOp loop) {
  Type type = loop.getLowerBound().getType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  Value span =
      arith::SubIOp::create(b, loc, loop.getUpperBound(), loop.getLowerBound());
  span = arith::AddIOp::create(
      b, loc, span, arith::SubIOp::create(b, loc, loop.getStep(), one));
  Value trips = arith::DivSIOp::create(b, loc, span, loop.getStep());
  return arith::MaxSIOp::create(b, loc, trips, zero);
}

/// `value` if it is defined outside `outer`, else a clone of its
/// (constant) definition before `outer`.
static Value getOutside(OpBuilder &b, scf::ForOp outer, Value value) {
  if (outer.isDefinedOutsideOfLoop(value))
    return value;
  return b.clone(*value.getDefiningOp())->getResult(0);
}

/// `cond ? a : c`, the scalar `cond` splatted when `a` is a tile.
static Value select(OpBuilder &b, Location loc, Value cond, Value a, Value c) {
  if (auto tensor = dyn_cast<RankedTensorType>(a.getType()))
    cond = SplatOp::create(
        b, loc, RankedTensorType::get(tensor.getShape(), b.getI1Type()), cond);
  return arith::SelectOp::create(b, loc, cond, a, c);
}

static void flatten(scf::ForOp outer, scf::ForOp inner) {
  Location loc = outer.getLoc();
  OpBuilder b(outer);
  Type ivType = outer.getInductionVar().getType();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(ivType, v));
  };
  Value zero = constant(0), one = constant(1);
  Value numK = getTripCount(b, loc, inner);
  Value numTiles = getTripCount(b, loc, outer);
  Value hasK =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, numK, zero);
  // (Without results, the branches come with their terminators.)
  unsigned numOuter = outer.getNumRegionIterArgs();
  auto ifOp = scf::IfOp::create(b, loc, outer.getResultTypes(), hasK,
                                /*withElseRegion=*/true);

  if (numOuter == 0)
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  else
    b.setInsertionPointToStart(ifOp.thenBlock());
  // The loop counts the steps in 64 bits: tiles x steps of 32-bit loops
  // may not fit in 32.
  Type i64 = b.getI64Type();
  auto widen = [&](Value v) -> Value {
    return ivType == i64 ? v : arith::ExtSIOp::create(b, loc, i64, v);
  };
  Value wideTiles = widen(numTiles), wideK = widen(numK);
  Value total = arith::MulIOp::create(b, loc, wideTiles, wideK);
  Value start = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value stride = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1));
  // The tile's place: ops before the inner loop that do not depend on the
  // tile run once, before the loop. Scalars computed from the tile alone
  // (its row and column of tiles: divisions) are carried and recomputed
  // only when the loop moves on to the next tile. Tiles computed from the
  // tile, and the scalars that feed them, are computed on every step from
  // those (carrying a splatted scalar itself made ptxas serialize the
  // products of examples/persistent_matmul.tile's pointer kernel, C7514).
  Block *outerBody = outer.getBody();
  auto innerIt = Block::iterator(inner);
  auto place = llvm::make_range(outerBody->begin(), innerIt);
  Value iv = outer.getInductionVar();
  // The outer loop's own iteration arguments change from tile to tile too
  // (they are carried as they are).
  llvm::DenseSet<Value> dependent = {iv};
  dependent.insert_range(outer.getRegionIterArgs());
  llvm::SetVector<Operation *> dependentOps, tileScalars;
  IRMapping invariant;
  auto isTile = [](Type t) { return isa<ShapedType>(t); };
  for (Operation &op : place) {
    auto isDependent = [&](Value v) { return dependent.contains(v); };
    if (llvm::none_of(op.getOperands(), isDependent)) {
      b.clone(op, invariant);
      continue;
    }
    dependent.insert(op.result_begin(), op.result_end());
    dependentOps.insert(&op);
    auto fromScalars = [&](Value v) {
      return v == iv || !isDependent(v) ||
             tileScalars.contains(v.getDefiningOp());
    };
    auto feedsTile = [&](Operation *user) {
      return llvm::any_of(user->getResultTypes(), isTile);
    };
    if (llvm::none_of(op.getResultTypes(), isTile) &&
        llvm::all_of(op.getOperands(), fromScalars) &&
        llvm::none_of(op.getUsers(), feedsTile))
      tileScalars.insert(&op);
  }
  SmallVector<Value> carried;
  for (Operation *op : tileScalars)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !tileScalars.contains(
                outerBody->findAncestorOpInBlock(*user));
          }))
        carried.push_back(result);
  // The carried scalars of the tile `tileValue`.
  auto computePlace = [&](Value tileValue) {
    IRMapping mapping = invariant;
    mapping.map(iv, tileValue);
    for (Operation *op : tileScalars)
      b.clone(*op, mapping);
    return llvm::map_to_vector(carried,
                               [&](Value v) { return mapping.lookup(v); });
  };

  SmallVector<Value> inits = {outer.getLowerBound(), zero};
  llvm::append_range(inits, computePlace(outer.getLowerBound()));
  llvm::append_range(inits, outer.getInitArgs());
  SmallVector<Value> accInits;
  for (Value init : inner.getInitArgs())
    accInits.push_back(getOutside(b, outer, init));
  llvm::append_range(inits, accInits);
  auto flat = scf::ForOp::create(b, loc, start, total, stride, inits);
  flat->setAttrs(inner->getDiscardableAttrDictionary());
  Block *body = flat.getBody();
  b.setInsertionPointToStart(body);
  Value tile = flat.getRegionIterArg(0), kk = flat.getRegionIterArg(1);
  ValueRange carriedArgs = flat.getRegionIterArgs().slice(2, carried.size());
  ValueRange outerArgs =
      flat.getRegionIterArgs().slice(2 + carried.size(), numOuter);
  ValueRange accArgs =
      flat.getRegionIterArgs().drop_front(2 + carried.size() + numOuter);

  // The tiles of the tile's place, then the K step with the accumulators
  // restarted on a tile's first step.
  IRMapping mapping = invariant;
  mapping.map(iv, tile);
  mapping.map(carried, carriedArgs);
  mapping.map(outer.getRegionIterArgs(), outerArgs);
  for (Operation &op : place)
    if (dependentOps.contains(&op) && !tileScalars.contains(&op))
      b.clone(op, mapping);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, kk, zero);
  for (auto [arg, init, acc] :
       llvm::zip_equal(inner.getRegionIterArgs(), accInits, accArgs))
    mapping.map(arg, select(b, loc, first, init, acc));
  mapping.map(inner.getInductionVar(),
              arith::AddIOp::create(
                  b, loc, inner.getLowerBound(),
                  arith::MulIOp::create(b, loc, kk, inner.getStep())));
  for (Operation &op : inner.getBody()->without_terminator())
    b.clone(op, mapping);
  SmallVector<Value> accs;
  for (Value v : inner.getBody()->getTerminator()->getOperands())
    accs.push_back(mapping.lookupOrDefault(v));

  // The epilogue after a tile's last step, which computes the outer
  // loop's next iteration arguments.
  Value next = arith::AddIOp::create(b, loc, kk, one);
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next, numK);
  auto epilogue = scf::IfOp::create(b, loc, outer.getResultTypes(), last,
                                    /*withElseRegion=*/numOuter != 0);
  for (auto [result, acc] : llvm::zip_equal(inner.getResults(), accs))
    mapping.map(result, acc);
  b.setInsertionPointToStart(epilogue.thenBlock());
  for (Operation &op : llvm::make_range(std::next(innerIt),
                                        outerBody->without_terminator().end()))
    b.clone(op, mapping);
  if (numOuter != 0) {
    SmallVector<Value> outerNext;
    for (Value v : outerBody->getTerminator()->getOperands())
      outerNext.push_back(mapping.lookupOrDefault(v));
    scf::YieldOp::create(b, loc, outerNext);
    b.setInsertionPointToStart(epilogue.elseBlock());
    scf::YieldOp::create(b, loc, outerArgs);
  }

  // The next tile, its place computed when there is one.
  b.setInsertionPointToEnd(body);
  Value nextTile = arith::AddIOp::create(b, loc, tile, outer.getStep());
  SmallVector<Value> yields = {
      arith::SelectOp::create(b, loc, last, nextTile, tile),
      arith::SelectOp::create(b, loc, last, zero, next)};
  if (!carried.empty()) {
    Value more = arith::AndIOp::create(
        b, loc, last,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, nextTile,
                              outer.getUpperBound()));
    auto nextPlace = scf::IfOp::create(b, loc, ValueRange(carried).getTypes(),
                                       more, /*withElseRegion=*/true);
    b.setInsertionPointToStart(nextPlace.thenBlock());
    scf::YieldOp::create(b, loc, computePlace(nextTile));
    b.setInsertionPointToStart(nextPlace.elseBlock());
    scf::YieldOp::create(b, loc, carriedArgs);
    b.setInsertionPointToEnd(body);
    llvm::append_range(yields, nextPlace.getResults());
  }
  llvm::append_range(yields, epilogue.getResults());
  llvm::append_range(yields, accs);
  scf::YieldOp::create(b, loc, yields);
  // Without K steps each tile's epilogue runs on the initial accumulators.
  if (numOuter == 0) {
    outer->moveBefore(ifOp.elseBlock()->getTerminator());
  } else {
    b.setInsertionPointToEnd(ifOp.thenBlock());
    scf::YieldOp::create(b, loc,
                         flat.getResults().slice(2 + carried.size(), numOuter));
    outer->replaceAllUsesWith(ifOp.getResults());
    outer->moveBefore(ifOp.elseBlock(), ifOp.elseBlock()->end());
    b.setInsertionPointToEnd(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, outer.getResults());
  }
  inner.replaceAllUsesWith(inner.getInitArgs());
  inner.erase();
}

struct FlattenLoopsPass
    : public tilec::tile::impl::TileFlattenLoopsBase<FlattenLoopsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, scf::ForOp>> nests;
    getOperation().walk([&](scf::ForOp outer) {
      if (scf::ForOp inner = getFlattenableInner(outer))
        nests.push_back({outer, inner});
    });
    for (auto [outer, inner] : nests)
      flatten(outer, inner);
  }
};

} // namespace
