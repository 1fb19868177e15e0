//===- UnrollLoops.cpp - Several iterations' loads in flight ----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-unroll-loops. A loop that walks a row in chunks, one
// load of a few bytes a thread per iteration, keeps one load in flight per
// thread and waits for it every iteration: the memory latency, not the
// bandwidth, bounds it. Unrolled by U, with the loads of the U iterations
// issued before the first is used, it keeps U loads in flight:
//
//   for i in [lb, ub) step s:       for i in [lb, ub') step U*s:
//     x = load(p(i))                  x0 = load(p(i)), ...
//     acc = f(acc, x)         ->      x3 = load(p(i + 3s))
//                                     acc = f(f(f(f(acc, x0), x1), x2), x3)
//                                   for i in [ub', ub) step s:   (the rest)
//                                     x = load(p(i)); acc = f(acc, x)
//
// mlir::loopUnrollByFactor builds the unrolled loop and the epilogue; this
// pass chooses the loops and the factors and moves the loads up.
//
//===----------------------------------------------------------------------===//

#include "LoopSlice.h"

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEUNROLLLOOPS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// True if `op` or an op nested in it may write memory, synchronise or
/// print (anything a load moved above it could observe or reorder).
static bool mayWrite(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        if (isa<scf::YieldOp, CombineYieldOp, MapElementwiseYieldOp>(nested))
          return WalkResult::advance();
        if (isa<LoadOp>(nested))
          return WalkResult::advance();
        if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
            isMemoryEffectFree(nested))
          return WalkResult::advance();
        return WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// Bytes each thread loads in one iteration of `body` (its top-level tile
/// loads; 0 when a loaded tile has no layout yet).
static int64_t bytesLoadedPerThread(Block *body) {
  int64_t bytes = 0;
  for (auto load : body->getOps<LoadOp>()) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type)
      continue;
    auto layout = dyn_cast_or_null<LayoutAttrInterface>(type.getEncoding());
    if (!layout)
      return 0;
    int64_t bits = type.getElementType().getIntOrFloatBitWidth();
    bytes += layout.getElemsPerThread(type.getShape()) *
             std::max<int64_t>(bits / 8, 1);
  }
  return bytes;
}

/// The factor a streaming loop is unrolled by (1: not unrolled); `writes`
/// is mayWrite(forOp).
static int64_t streamingFactor(scf::ForOp forOp, bool writes, int64_t maxFactor,
                               int64_t maxBytes) {
  Block *body = forOp.getBody();
  bool nested = false, dots = false;
  forOp.getBody()->walk([&](Operation *op) {
    nested |= isa<LoopLikeOpInterface>(op);
    dots |= isa<DotOp, WarpGroupDotOp>(op);
  });
  if (nested || dots || writes)
    return 1;
  int64_t bytes = bytesLoadedPerThread(body);
  if (bytes == 0)
    return 1;
  int64_t factor = 1;
  while (factor * 2 <= maxFactor && factor * 2 * bytes <= maxBytes)
    factor *= 2;
  if (std::optional<APInt> count = forOp.getStaticTripCount())
    while (factor > 1 && count->getSExtValue() < factor)
      factor /= 2;
  return factor;
}

/// Moves the loads among the ops of `block` from `begin` up to `end`
/// (excluded; null: the block's end), with the pure operations of the block
/// their operands need, to `begin`, in program order. Loads whose operands
/// need another load (an address read from memory) stay.
static void hoistLoads(Block *block, Operation *begin, Operation *end) {
  SmallVector<LoadOp> loads;
  for (Operation *op = begin; op && op != end; op = op->getNextNode())
    if (auto load = dyn_cast<LoadOp>(op))
      loads.push_back(load);
  // The ops of the range before `anchor` are those moved up so far.
  Operation *anchor = begin;
  auto moveUp = [&](Operation *op) {
    if (op == anchor) {
      anchor = anchor->getNextNode();
      return;
    }
    if (op->isBeforeInBlock(anchor))
      return;
    op->moveBefore(anchor);
  };
  for (LoadOp load : loads) {
    llvm::SetVector<Operation *> slice;
    if (failed(collectSlice(block, load->getOperands(), slice)))
      continue;
    SmallVector<Operation *> ops(slice.begin(), slice.end());
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    for (Operation *op : ops)
      moveUp(op);
    moveUp(load);
  }
}

struct UnrollLoopsPass
    : public tilec::tile::impl::TileUnrollLoopsBase<UnrollLoopsPass> {
  using TileUnrollLoopsBase::TileUnrollLoopsBase;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
    for (scf::ForOp forOp : loops) {
      std::optional<int64_t> requested = getLoopUnrollFactor(forOp);
      removeLoopUnrollFactor(forOp);
      bool writes = mayWrite(forOp);
      int64_t factor =
          requested ? *requested
                    : streamingFactor(forOp, writes, maxFactor, maxBytes);
      // The epilogue's bounds divide by the step: only a positive constant
      // step is safe to unroll.
      std::optional<int64_t> step = getConstantIntValue(forOp.getStep());
      if (factor < 2 || !step || *step < 1)
        continue;
      // mlir::loopUnrollByFactor counts the iterations as an unsigned
      // (ub - lb + step - 1) / step: a loop whose upper bound may be below
      // its lower bound gets max(ub, lb) first, which it runs as few times.
      if (!forOp.getStaticTripCount()) {
        OpBuilder b(forOp);
        forOp.getUpperBoundMutable().assign(arith::MaxSIOp::create(
            b, forOp.getLoc(), forOp.getUpperBound(), forOp.getLowerBound()));
      }
      // Where the loop was: a main loop of one iteration (or none, the
      // whole loop unrolled) is inlined there.
      Block *parent = forOp->getBlock();
      Operation *before = forOp->getPrevNode(), *after = forOp->getNextNode();
      FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(forOp, factor);
      if (failed(unrolled) || writes)
        continue;
      if (unrolled->mainLoopOp) {
        Block *body = unrolled->mainLoopOp->getBody();
        hoistLoads(body, &body->front(), body->getTerminator());
      } else {
        hoistLoads(parent, before ? before->getNextNode() : &parent->front(),
                   after);
      }
    }
  }
};

} // namespace
