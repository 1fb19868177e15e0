//===- AllocateSharedMemory.cpp - Size the program's scratch ----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements the tile-allocate-shared-memory pass. Buffers of
// `tile.local_alloc` (the rings and buffers of pipelined loops) and of
// `tile.barrier_alloc` live from the alloc to its last use; in program order
// each is placed at the lowest offset (a 1024-byte boundary for matrices,
// 16 bytes for mbarriers) where it overlaps no buffer that lives at the same
// time, so loops one after the other reuse the same bytes. Scratch buffers
// of single ops (SharedMemory.h) are used between barriers, so they may
// overlap each other: one that is used while buffers live starts after the
// last of them, the others at byte 0. The program needs the largest end of
// any of them.
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
static bool isLive(Operation *alloc, Operation *op) {
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
  if (isa<LocalAllocOp, BarrierAllocOp>(op))
    return "the operand tiles of a pipelined tl.dot loop";
  if (isa<ReduceOp, CombineReduceOp>(op))
    return "a reduction across warps";
  if (isa<ScanOp, CombineScanOp>(op))
    return "a scan across warps";
  if (isa<DotOp>(op))
    return "the operands of a tl.dot";
  if (isa<AsyncTmaStoreOp>(op))
    return "a tile stored with TMA";
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return "the old values of an atomic";
  return "moving a tile between threads";
}

/// A buffer of `tile.local_alloc` or `tile.barrier_alloc` and its place.
struct Buffer {
  Operation *alloc;
  int64_t bytes;
  int64_t alignment;
  int64_t offset = 0;

  int64_t end() const { return offset + bytes; }
  bool overlapsInTime(const Buffer &other) const {
    return isLive(alloc, other.alloc) || isLive(other.alloc, alloc);
  }
};

/// Places `buffer` at the lowest aligned offset where it overlaps none of
/// the `placed` buffers that live while it does.
static void place(Buffer &buffer, ArrayRef<Buffer> placed) {
  for (bool moved = true; moved;) {
    moved = false;
    for (const Buffer &other : placed)
      if (buffer.offset < other.end() && other.offset < buffer.end() &&
          buffer.overlapsInTime(other)) {
        buffer.offset = llvm::alignTo(other.end(), buffer.alignment);
        moved = true;
      }
  }
}

struct AllocateSharedMemoryPass
    : public tilec::tile::impl::TileAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<Buffer> buffers;
    int64_t bytes = 0;
    Operation *largest = nullptr;
    module.walk([&](Operation *op) {
      Buffer buffer{op, 0, 1024};
      if (auto local = dyn_cast<LocalAllocOp>(op)) {
        SmemType type = local.getType();
        buffer.bytes = type.getSlotBytes() *
                       (type.getRank() == 3 ? type.getDimSize(0) : 1);
      } else if (auto barriers = dyn_cast<BarrierAllocOp>(op)) {
        buffer.bytes = llvm::alignTo(8 * barriers.getType().getCount(), 16);
        buffer.alignment = 16;
      } else {
        return;
      }
      place(buffer, buffers);
      op->setAttr("offset",
                  IntegerAttr::get(IntegerType::get(ctx, 64), buffer.offset));
      buffers.push_back(buffer);
      if (buffer.end() > bytes) {
        bytes = buffer.end();
        largest = op;
      }
    });
    module.walk([&](Operation *op) {
      int64_t need = getScratchBytes(op);
      if (need == 0)
        return;
      int64_t liveEnd = 0;
      for (const Buffer &buffer : buffers)
        if (isLive(buffer.alloc, op))
          liveEnd = std::max(liveEnd, buffer.end());
      if (liveEnd != 0) {
        int64_t offset = llvm::alignTo(liveEnd, 1024);
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
