//===- AllocateSharedMemory.cpp - Size the program's scratch ----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements the tile-allocate-shared-memory pass. Buffers of
// `tile.local_alloc` (the rings of pipelined loops) are placed one after
// the other from byte 0, each on a 1024-byte boundary; they live from the
// alloc to its last use. Scratch buffers of single ops (SharedMemory.h) are
// used between barriers, so they may overlap each other: one that is used
// while a ring lives starts after the rings, the others at byte 0. The
// program needs the largest end of any of them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEALLOCATESHAREDMEMORY
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// Whether the buffer of `alloc` is live while `op` runs: `op` is (or is
/// nested in) an op of the alloc's block between the alloc and its last
/// use.
static bool isLive(LocalAllocOp alloc, Operation *op) {
  Block *block = alloc->getBlock();
  Operation *at = block->findAncestorOpInBlock(*op);
  if (!at || at->isBeforeInBlock(alloc))
    return false;
  Operation *last = alloc;
  for (Operation *user : alloc->getUsers())
    if (Operation *u = block->findAncestorOpInBlock(*user);
        u && last->isBeforeInBlock(u))
      last = u;
  return !last->isBeforeInBlock(at);
}

/// What `op`'s shared memory is for, in the words of the kernel's source.
static StringRef describeSharedUse(Operation *op) {
  if (isa<LocalAllocOp>(op))
    return "the operand tiles of a pipelined tl.dot loop";
  if (isa<ReduceOp>(op))
    return "a reduction across warps";
  if (isa<ScanOp>(op))
    return "a scan across warps";
  if (isa<DotOp>(op))
    return "the operands of a tl.dot";
  if (isa<AsyncTmaStoreOp>(op))
    return "a tile stored with TMA";
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return "the old values of an atomic";
  return "moving a tile between threads";
}

struct AllocateSharedMemoryPass
    : public tilec::tile::impl::TileAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    int64_t allocEnd = 0;
    SmallVector<LocalAllocOp> allocs;
    module.walk([&](LocalAllocOp alloc) {
      SmemType type = alloc.getType();
      alloc.setOffsetAttr(
          IntegerAttr::get(IntegerType::get(ctx, 64), allocEnd));
      allocEnd +=
          type.getSlotBytes() * (type.getRank() == 3 ? type.getDimSize(0) : 1);
      allocs.push_back(alloc);
    });
    // mbarriers (8 bytes each) follow the rings; they live as long.
    module.walk([&](BarrierAllocOp alloc) {
      alloc.setOffsetAttr(
          IntegerAttr::get(IntegerType::get(ctx, 64), allocEnd));
      allocEnd += llvm::alignTo(8 * alloc.getType().getCount(), 16);
    });
    int64_t bytes = allocEnd;
    Operation *largest = allocs.empty() ? nullptr : allocs.back();
    module.walk([&](Operation *op) {
      int64_t need = getScratchBytes(op);
      if (need == 0)
        return;
      if (llvm::any_of(allocs,
                       [&](LocalAllocOp alloc) { return isLive(alloc, op); })) {
        int64_t offset = llvm::alignTo(allocEnd, 1024);
        setScratchOffset(op, offset);
        need += offset;
      }
      if (need > bytes) {
        bytes = need;
        largest = op;
      }
    });
    TargetInfo target = TargetInfo::get(getOperation());
    if (bytes > target.getMaxSharedMemoryBytes()) {
      largest->emitError("the kernel needs ")
          << bytes << " bytes of shared memory (the largest part for "
          << describeSharedUse(largest) << " here), more than the "
          << target.getMaxSharedMemoryBytes() << " a program can have on "
          << target.getName()
          << ": use smaller blocks, or fewer stages (num_stages, "
             "--num-stages)";
      return signalPassFailure();
    }
    setSharedMemoryBytes(module, bytes);
  }
};

} // namespace
