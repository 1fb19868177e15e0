//===- AllocateSharedMemory.cpp - Size the program's scratch ----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements the tile-allocate-shared-memory pass: the program's dynamic
// shared memory is the largest scratch buffer of any op (SharedMemory.h says
// why the buffers may overlap). A liveness-based allocator becomes necessary
// once buffers live across ops (pipelined loads, wgmma operands); the
// attribute and the lowering's single base symbol stay the same then.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Transforms/Passes.h"
#include "tilec/Dialect/Tile/Transforms/SharedMemory.h"

#include "mlir/IR/BuiltinOps.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEALLOCATESHAREDMEMORY
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

struct AllocateSharedMemoryPass
    : public tilec::tile::impl::TileAllocateSharedMemoryBase<
          AllocateSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t bytes = 0;
    Operation *largest = nullptr;
    module.walk([&](Operation *op) {
      int64_t need = getScratchBytes(op);
      if (need > bytes) {
        bytes = need;
        largest = op;
      }
    });
    if (bytes > kMaxSharedMemoryBytes) {
      largest->emitOpError("needs ")
          << bytes << " bytes of shared memory, more than the "
          << kMaxSharedMemoryBytes << " a thread block can have";
      return signalPassFailure();
    }
    // No attribute means no shared memory, which keeps the IR of programs
    // without cross-thread exchanges as it was.
    if (bytes == 0) {
      module->removeAttr(kSharedMemoryAttrName);
      return;
    }
    module->setAttr(
        kSharedMemoryAttrName,
        IntegerAttr::get(IntegerType::get(&getContext(), 32), bytes));
  }
};

} // namespace
