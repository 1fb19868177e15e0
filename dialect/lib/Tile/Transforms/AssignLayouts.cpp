//===- AssignLayouts.cpp - Give every tile a blocked layout -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements the tile-assign-layouts pass. All tiles of one shape get the same
// layout, so elementwise operations never need a layout conversion. The
// per-thread vector along the fastest dimension is sized for 16-byte accesses
// of the narrowest element type that the module loads or stores.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// Builds the blocked layout for tiles of `shape` over `numWarps` warps, with
/// `vector` consecutive elements per thread along the last dimension.
static BlockedLayoutAttr buildBlockedLayout(MLIRContext *ctx,
                                            ArrayRef<int64_t> shape,
                                            unsigned numWarps,
                                            unsigned vector) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order, spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  for (unsigned d = 0; d < rank; ++d)
    order.push_back(rank - 1 - d);
  spt[rank - 1] = std::min<int64_t>(vector, shape[rank - 1]);
  unsigned lanes = 32, warps = numWarps;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    tpw[d] = std::min<int64_t>(lanes, room);
    lanes /= tpw[d];
  }
  tpw[order.back()] *= lanes;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d]));
    wpc[d] = std::min<int64_t>(warps, room);
    warps /= wpc[d];
  }
  wpc[order.back()] *= warps;
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}

struct AssignLayoutsPass
    : public tilec::tile::impl::TileAssignLayoutsBase<AssignLayoutsPass> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (!llvm::isPowerOf2_32(numWarps) || numWarps > 32) {
      module.emitError("num-warps must be a power of two between 1 and 32, "
                       "not ")
          << numWarps;
      return signalPassFailure();
    }

    // The narrowest element accessed in memory decides the vector width.
    unsigned minBytes = 4;
    module.walk([&](Operation *op) {
      if (!isa<LoadOp, StoreOp>(op))
        return;
      Type ptr = getElementTypeOrSelf(op->getOperand(0).getType());
      Type elem = cast<PtrType>(ptr).getPointeeType();
      unsigned bits = elem.getIntOrFloatBitWidth();
      minBytes = std::min(minBytes, std::max(1u, bits / 8));
    });
    unsigned vector = 16 / minBytes;

    DenseMap<Type, Type> converted;
    auto convert = [&](Type type) -> Type {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.getEncoding())
        return type;
      auto it = converted.find(type);
      if (it != converted.end())
        return it->second;
      auto layout =
          buildBlockedLayout(ctx, tensor.getShape(), numWarps, vector);
      Type result = RankedTensorType::get(tensor.getShape(),
                                          tensor.getElementType(), layout);
      converted[type] = result;
      return result;
    };

    module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(convert(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(convert(result.getType()));
      if (auto constant = dyn_cast<arith::ConstantOp>(op))
        if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
          if (dense.getType() != constant.getType())
            constant.setValueAttr(dense.reshape(
                cast<ShapedType>(constant.getType())));
    });
    module->setAttr("tile.num_warps",
                    IntegerAttr::get(IntegerType::get(ctx, 32), numWarps));
  }
};

} // namespace
