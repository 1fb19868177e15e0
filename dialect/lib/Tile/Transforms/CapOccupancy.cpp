//===- CapOccupancy.cpp - Fewer programs for multi-pass kernels -*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-cap-occupancy: kernels that read the same argument's data
// in two loops or more (and compute no products) get
// tile.max_programs_per_sm, half the SM's threads, which
// tile-allocate-shared-memory enforces with dynamic shared memory.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILECAPOCCUPANCY
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// The kernel argument `ptr`'s addresses come from: through pointer
/// arithmetic, splats, broadcasts, layout and shape changes, and the loop
/// arguments they are carried in. Null when they come from anywhere else
/// (a loaded pointer, a select).
static BlockArgument rootArgument(Value ptr) {
  for (int steps = 0; steps < 64; ++steps) {
    if (auto arg = dyn_cast<BlockArgument>(ptr)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (isa<func::FuncOp>(owner))
        return arg;
      auto loop = dyn_cast<scf::ForOp>(owner);
      if (!loop || arg.getArgNumber() == 0)
        return nullptr;
      ptr = loop.getInitArgs()[arg.getArgNumber() - 1];
      continue;
    }
    Operation *def = ptr.getDefiningOp();
    if (!isa_and_present<AddPtrOp, SplatOp, BroadcastOp, ExpandDimsOp,
                         ConvertLayoutOp, ReshapeOp>(def))
      return nullptr;
    ptr = def->getOperand(0);
  }
  return nullptr;
}

/// True when two loops of `func` load data of the same kernel argument
/// (each load counted for the innermost loop around it, so that the loops
/// of one nest reading a tile once do not count twice).
static bool readsAgain(func::FuncOp func) {
  llvm::DenseMap<BlockArgument, llvm::SmallPtrSet<Operation *, 4>> loops;
  func.walk([&](LoadOp load) {
    auto loop = load->getParentOfType<scf::ForOp>();
    if (!loop)
      return;
    if (BlockArgument root = rootArgument(load.getPtr()))
      loops[root].insert(loop);
  });
  return llvm::any_of(
      loops, [](const auto &entry) { return entry.second.size() >= 2; });
}

struct CapOccupancyPass
    : public tilec::tile::impl::TileCapOccupancyBase<CapOccupancyPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<int64_t> numWarps = getNumWarps(module);
    if (!numWarps)
      return;
    TargetInfo target = TargetInfo::get(module);
    // Measured with programs of 4 warps (16 -> 8 an SM); programs so large
    // that fewer than 4 would remain are left alone.
    int64_t programs = target.getMaxThreadsPerSM() / 2 / (*numWarps * 32);
    if (programs < 4)
      return;
    module.walk([&](func::FuncOp func) {
      bool products = func.walk([](Operation *op) {
                            return isa<DotOp, WarpGroupDotOp>(op)
                                       ? WalkResult::interrupt()
                                       : WalkResult::advance();
                          })
                          .wasInterrupted();
      if (!products && readsAgain(func))
        setMaxProgramsPerSM(func, programs);
    });
  }
};

} // namespace
