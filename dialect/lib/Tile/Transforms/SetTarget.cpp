//===- SetTarget.cpp - Record the target architecture on the module -------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILESETTARGET
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

struct TileSetTarget
    : public tilec::tile::impl::TileSetTargetBase<TileSetTarget> {
  using TileSetTargetBase::TileSetTargetBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<TargetInfo> target = TargetInfo::lookup(arch);
    if (!target) {
      module.emitError(TargetInfo::getUnsupportedMessage(arch));
      return signalPassFailure();
    }
    module->setAttr(TargetInfo::getAttrName(),
                    StringAttr::get(&getContext(), target->getName()));
  }
};

} // namespace
