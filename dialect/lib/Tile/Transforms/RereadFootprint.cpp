//===- RereadFootprint.cpp - What a program reads again ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-reread-footprint: for kernels that read the same
// argument's data in two loops or more (and compute no products), records
// the bytes each program reads per pass as `tile.reread`, for the runtime's
// choice of programs per SM.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/MapVector.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEREREADFOOTPRINT
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

/// Bytes one execution of `load` reads (pointers count 8 bytes, booleans
/// 1).
static int64_t loadedBytes(LoadOp load) {
  Type type = load.getResult().getType();
  int64_t elements = 1;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    elements = tensor.getNumElements();
    type = tensor.getElementType();
  }
  int64_t bits = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 64;
  return elements * llvm::divideCeil(bits, 8);
}

/// The kernel argument `bound` is, through integer casts; null otherwise.
static BlockArgument boundArgument(func::FuncOp func, Value bound) {
  while (Operation *def = bound.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp>(def))
      return nullptr;
    bound = def->getOperand(0);
  }
  auto arg = cast<BlockArgument>(bound);
  return arg.getOwner() == &func.getBody().front() ? arg : BlockArgument();
}

/// The footprint of `loop` reading `bytes` per iteration: its trip count
/// times `bytes` when it is a constant, `bytes` per `step` of an argument
/// when the loop runs from 0 to that argument by a constant step.
static std::optional<RereadFootprint>
loopFootprint(func::FuncOp func, scf::ForOp loop, int64_t bytes) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !step || *step <= 0)
    return std::nullopt;
  if (std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound())) {
    int64_t trips = *ub > *lb ? llvm::divideCeil(*ub - *lb, *step) : 0;
    if (trips == 0)
      return std::nullopt;
    return RereadFootprint{-1, trips * bytes, 1};
  }
  BlockArgument arg = boundArgument(func, loop.getUpperBound());
  if (!arg || *lb != 0 || !arg.getType().isSignlessInteger())
    return std::nullopt;
  return RereadFootprint{arg.getArgNumber(), bytes, *step};
}

/// The footprint of the first argument whose data two loops of `func` load
/// and whose loop has a shape loopFootprint knows.
static std::optional<RereadFootprint> rereadFootprint(func::FuncOp func) {
  // Per argument, per innermost loop around its loads, the bytes an
  // iteration reads.
  llvm::MapVector<BlockArgument, llvm::MapVector<scf::ForOp, int64_t>> reads;
  func.walk([&](LoadOp load) {
    auto loop = load->getParentOfType<scf::ForOp>();
    if (!loop)
      return;
    if (BlockArgument root = rootArgument(load.getPtr()))
      reads[root][loop] += loadedBytes(load);
  });
  for (auto &[root, loops] : reads) {
    if (loops.size() < 2)
      continue;
    for (auto [loop, bytes] : loops)
      if (std::optional<RereadFootprint> footprint =
              loopFootprint(func, loop, bytes))
        return footprint;
  }
  return std::nullopt;
}

struct RereadFootprintPass
    : public tilec::tile::impl::TileRereadFootprintBase<RereadFootprintPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>()) {
      bool products = func.walk([](Operation *op) {
                            return isa<DotOp, WarpGroupDotOp>(op)
                                       ? WalkResult::interrupt()
                                       : WalkResult::advance();
                          })
                          .wasInterrupted();
      if (products || func.isExternal())
        continue;
      if (std::optional<RereadFootprint> footprint = rereadFootprint(func)) {
        setRereadFootprint(module, *footprint);
        return; // One kernel a module.
      }
    }
  }
};

} // namespace
