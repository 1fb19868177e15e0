//===- PrefetchLoads.cpp - Next iteration's loads issued early --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-prefetch-loads. In a loop that multiplies tiles (before
// or after tile-pipeline) and writes no global memory, each iteration's
// loads are issued one iteration ahead, so that their latency overlaps the
// previous iteration's product:
//
//   x0 = load(p(init), mask(init) & lb < ub)
//   for i, args, x = x0:
//     x' = load(p(next(args)), mask(next(args), i + step) & i + step < ub)
//     ... uses of x instead of the original load ...
//     yield next(args), x'
//
// where p and mask are the load's operands as functions of the loop's
// iteration values, and next(args) the values the loop yields. A load
// qualifies when its operands, and the yielded values they depend on, are
// computed from the loop's arguments and values defined outside of it by
// pure operations without regions (pointer increments, masks), so that
// they can be recomputed for the next iteration at the top of the body.
// The comparisons with the upper bound keep the loads of iterations that do
// not exist from touching memory. A load whose latency a product of its own
// iteration hides already (issued before the product, read after it) is
// left where it is, and so is a load whose tile would not fit in the
// registers a thread has besides the loop's carried tiles.
//
//===----------------------------------------------------------------------===//

#include "LoopSlice.h"

#include "tilec/Dialect/Tile/Analysis/AxisInfo.h"
#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEPREFETCHLOADS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// Moves the load of the next iteration's value of iteration argument `arg`
/// of `forOp` after the body's last use of the current one, when that use
/// comes before any product and the value is narrower than 32-bit elements
/// (bytes or halves converted, decoded or split before the product reads
/// them). Loaded at the top, the two values overlap in registers and the
/// copy of the new into the old one, which ptxas places right after the old
/// one's last use, waits for the load there; loaded after it, they share
/// registers and nothing waits before the next iteration. (Measured on an
/// H100, 4096^3: tl.dot_scaled of fp4 x fp8 132.8 -> 148.6 TFLOP/s, an
/// fp8 product of int8 tiles 58.1 -> 62.8; a tf32x3 product, whose fp32
/// tiles are split, lost 5% so, and keeps its loads at the top. A use by a
/// product itself keeps the load there too: after the product, the latency
/// would not be hidden.)
static void issueAfterLastUse(scf::ForOp forOp, unsigned arg) {
  Block *body = forOp.getBody();
  Operation *yield = body->getTerminator();
  BlockArgument current = forOp.getRegionIterArgs()[arg];
  auto next = yield->getOperand(arg).getDefiningOp<LoadOp>();
  auto type = dyn_cast<RankedTensorType>(current.getType());
  if (!next || next->getBlock() != body || !type ||
      !type.getElementType().isIntOrFloat() ||
      type.getElementTypeBitWidth() >= 32)
    return;
  Operation *last = nullptr;
  for (Operation *user : current.getUsers()) {
    Operation *at = body->findAncestorOpInBlock(*user);
    if (at == yield)
      return;
    if (!last || last->isBeforeInBlock(at))
      last = at;
  }
  if (!last || last->isBeforeInBlock(next))
    return;
  for (Operation *op = next; op != last->getNextNode(); op = op->getNextNode())
    if (isa<DotOp, WarpGroupDotOp, WarpGroupDotWaitOp>(op))
      return;
  next->moveAfter(last);
}

/// Whether the body of the loop issues a product between `load` and the
/// first use of its tile: the product then hides the load's latency within
/// its own iteration, and loading it an iteration ahead would only keep a
/// second copy live across the loop (and the copy of the new tile into the
/// carried one would wait for the load where ptxas places it). Measured on
/// an H100: the rows of m and D that attention's dK/dV loop loads before
/// its products q k^T and v dO^T and reads after them, left in their
/// iteration, took the kernel from 155 to 126 registers and dK/dV from 347
/// to 415 TFLOP/s (causal 318 -> 388).
static bool hiddenByProduct(LoadOp load) {
  Block *body = load->getBlock();
  Operation *first = nullptr;
  for (Operation *user : load->getUsers()) {
    Operation *at = body->findAncestorOpInBlock(*user);
    if (!first || at->isBeforeInBlock(first))
      first = at;
  }
  if (!first)
    return false;
  for (Operation *op = load->getNextNode(); op != first; op = op->getNextNode())
    if (isa<DotOp, WarpGroupDotOp, WarpGroupDotWaitOp>(op))
      return true;
  return false;
}

/// The widest vector, in elements, of accesses through the pointer tile
/// `ptr` (under `mask`), along any dimension.
static int64_t getAccessWidth(AxisInfoAnalysis &axisInfo, Value ptr,
                              Value mask) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  auto ptrType = type ? dyn_cast<PtrType>(type.getElementType()) : nullptr;
  if (!ptrType || !ptrType.getPointeeType().isIntOrFloat())
    return 1;
  Type pointee = ptrType.getPointeeType();
  int64_t bytes = std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
  int64_t width = 1;
  for (unsigned dim = 0; dim < type.getRank(); ++dim)
    width =
        std::max(width, axisInfo.getVectorWidth(
                            ptr, mask, dim, std::max<int64_t>(1, 16 / bytes)));
  return width;
}

/// The longest run of consecutive addresses a thread holds in the pointer
/// tile `ptr`, along any dimension: one address register serves the run
/// (the others are immediate offsets from it), aligned or not.
static int64_t getAddressRun(AxisInfoAnalysis &axisInfo, Value ptr) {
  auto type = dyn_cast<RankedTensorType>(ptr.getType());
  LayoutAttrInterface layout = type ? getLayout(type) : nullptr;
  if (!layout)
    return 1;
  const AxisInfo &info = axisInfo.get(ptr);
  int64_t run = 1;
  for (unsigned dim = 0; dim < type.getRank(); ++dim)
    run = std::max(
        run, std::min(info.contiguity[dim],
                      layout.getContiguousRegisters(type.getShape(), dim)));
  return run;
}

/// 32-bit registers a thread of `threads` holds for the pointer tile `type`:
/// a 64-bit address per `run` consecutive pointers.
static int64_t getAddressRegisters(RankedTensorType type, int64_t run,
                                   int64_t threads) {
  int64_t perThread = llvm::divideCeil(type.getNumElements(), threads);
  return 2 * llvm::divideCeil(perThread, run);
}

/// 32-bit registers a thread of `threads` holds for the tile `type` of
/// numbers: its elements, packed when `packed` (loaded in vectors, or
/// computed), else a register each when narrower than 32 bits.
static int64_t getValueRegisters(RankedTensorType type, bool packed,
                                 int64_t threads) {
  int64_t perThread = llvm::divideCeil(type.getNumElements(), threads);
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  if (!packed)
    bits = std::max<int64_t>(bits, 32);
  return llvm::divideCeil(perThread * bits, 32);
}

/// Issues the qualifying loads of `forOp` one iteration ahead.
static void prefetch(scf::ForOp forOp) {
  Block *body = forOp.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  if (!llvm::any_of(body->getOperations(),
                    llvm::IsaPred<DotOp, WarpGroupDotOp>))
    return;
  // A load issued an iteration early must not miss a write of the
  // iteration before it: loops that write global memory are left alone.
  if (forOp
          .walk([](Operation *op) {
            return isa<StoreOp, AtomicRMWOp, AtomicCASOp, AsyncTmaStoreOp>(op)
                       ? WalkResult::interrupt()
                       : WalkResult::advance();
          })
          .wasInterrupted())
    return;

  // The registers of a thread: what the loop carries (accumulators,
  // pointer tiles: an address a run of consecutive ones), then each
  // prefetched tile in addition, within the thread's registers less a
  // quarter for the rest of the body (addresses, indices, masks). Measured on
  // an H100, the seed matmul without alignment hints (each element loaded alone
  // through its own address), 8 warps, 4095^3 fp16: 128 x 128 x 32 blocks carry
  // an estimated 128 registers and prefetch 32 more (ptxas: 217, no spills;
  // prefetched, 1.3x faster); 128 x 128 x 64 blocks (192 + 64) spilled 616
  // bytes and ran at 41.5 TFLOP/s prefetched, 104.0 not; 128 x 256 x 64 (320 +
  // 96) 8.3 and 69.3 (Triton 94 and 62). (Without layouts, before
  // tile-assign-layouts, nothing is estimated.)
  AxisInfoAnalysis axisInfo;
  int64_t threads = 0;
  body->walk([&](Operation *op) {
    if (!isa<DotOp, WarpGroupDotOp>(op) || threads)
      return;
    if (LayoutAttrInterface layout = getLayout(op->getResult(0).getType()))
      threads = 32 * layout.getNumWarps();
  });
  int64_t budget =
      threads ? TargetInfo::get(forOp).getMaxRegistersPerThread() * 3 / 4
              : std::numeric_limits<int64_t>::max();
  for (BlockArgument arg : forOp.getRegionIterArgs()) {
    if (!threads)
      break;
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      continue;
    budget -=
        isa<PtrType>(type.getElementType())
            ? getAddressRegisters(type, getAddressRun(axisInfo, arg), threads)
            : getValueRegisters(type, /*packed=*/true, threads);
  }

  SmallVector<LoadOp> loads;
  llvm::SetVector<Operation *> loadSlice, yieldSlice;
  llvm::SetVector<unsigned> usedArgs;
  for (auto load : body->getOps<LoadOp>()) {
    auto type = dyn_cast<RankedTensorType>(load.getType());
    if (!type)
      continue;
    int64_t registers =
        threads ? getValueRegisters(type,
                                    getAccessWidth(axisInfo, load.getPtr(),
                                                   load.getMask()) > 1,
                                    threads)
                : 0;
    if (registers > budget)
      continue;
    // Tiles tile-pipeline stages through registers are loaded an iteration
    // ahead already (carried to the iteration that stores them).
    if (llvm::any_of(load->getUsers(),
                     llvm::IsaPred<scf::YieldOp, LocalStoreOp>) ||
        hiddenByProduct(load))
      continue;
    llvm::SetVector<Operation *> slice = loadSlice;
    if (failed(collectSlice(body, load->getOperands(), slice)))
      continue;
    // The loop values the operands depend on, and how the next iteration's
    // are computed.
    llvm::SetVector<unsigned> args = usedArgs;
    collectIterArgs(forOp, load.getOperation(), args);
    collectIterArgs(forOp, slice.getArrayRef(), args);
    llvm::SetVector<Operation *> next = yieldSlice;
    SmallVector<Value> yielded;
    for (unsigned i : args)
      yielded.push_back(yield.getOperand(i));
    if (failed(collectSlice(body, yielded, next)))
      continue;
    loads.push_back(load);
    budget -= registers;
    loadSlice = std::move(slice);
    usedArgs = std::move(args);
    yieldSlice = std::move(next);
  }
  if (loads.empty())
    return;

  // The loads of the first iteration, before the loop.
  OpBuilder b(forOp);
  Location loc = forOp.getLoc();
  Value iv = forOp.getInductionVar();
  IRMapping first;
  first.map(iv, forOp.getLowerBound());
  for (auto [arg, init] :
       llvm::zip_equal(forOp.getRegionIterArgs(), forOp.getInitArgs()))
    first.map(arg, init);
  cloneSlice(b, loadSlice, first);
  Value firstValid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                            forOp.getLowerBound(), forOp.getUpperBound());
  SmallVector<Value> initial;
  for (LoadOp load : loads)
    initial.push_back(cloneLoad(b, load, first, firstValid));

  // The loop carries them; the next iteration's are loaded at the top of
  // the body. (The callback runs before the body moves to the new loop, so
  // it builds in the old body, from the old loop's values.)
  IRRewriter rewriter(forOp.getContext());
  auto yieldNext = [&](OpBuilder &yb, Location, ArrayRef<BlockArgument>) {
    yb.setInsertionPointToStart(body);
    IRMapping identity;
    cloneSlice(yb, yieldSlice, identity);
    IRMapping next;
    Value nextIv = arith::AddIOp::create(yb, loc, iv, forOp.getStep());
    next.map(iv, nextIv);
    for (unsigned i : usedArgs)
      next.map(forOp.getRegionIterArgs()[i],
               identity.lookupOrDefault(yield.getOperand(i)));
    cloneSlice(yb, loadSlice, next);
    Value valid = arith::CmpIOp::create(yb, loc, arith::CmpIPredicate::slt,
                                        nextIv, forOp.getUpperBound());
    SmallVector<Value> values;
    for (LoadOp load : loads)
      values.push_back(cloneLoad(yb, load, next, valid));
    return values;
  };
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(forOp.getOperation())
          .replaceWithAdditionalYields(rewriter, initial,
                                       /*replaceInitOperandUsesInLoop=*/false,
                                       yieldNext);
  if (failed(replaced))
    return;
  auto newFor = cast<scf::ForOp>(replaced->getOperation());
  unsigned firstNew = newFor.getNumRegionIterArgs() - loads.size();
  for (auto [i, load] : llvm::enumerate(loads)) {
    load.replaceAllUsesWith(newFor.getRegionIterArgs()[firstNew + i]);
    load.erase();
  }
  for (unsigned i = firstNew; i < newFor.getNumRegionIterArgs(); ++i)
    issueAfterLastUse(newFor, i);
}

struct PrefetchLoadsPass
    : public tilec::tile::impl::TilePrefetchLoadsBase<PrefetchLoadsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
    for (scf::ForOp forOp : loops)
      prefetch(forOp);
  }
};

} // namespace
