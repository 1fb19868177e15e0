//===- TileDialect.cpp - The tile dialect -----------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Registers the tile dialect's types, attributes and operations, and the
// small type helpers shared by passes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;

#include "tilec/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

namespace {
/// Prints layouts as aliases (`#blocked`, `#blocked1`, `#mma`...) at the top of
/// the module, as Triton does, so that tile types stay readable.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaLayoutAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TileDialect::initialize() {
  registerTypes();
  registerAttributes();
  addInterfaces<TileOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
}

Type tilec::tile::withElementType(Type type, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

DenseElementsAttr tilec::tile::withEncoding(DenseElementsAttr dense,
                                            RankedTensorType type) {
  if (dense.isSplat())
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  return DenseElementsAttr::get(type,
                                llvm::to_vector(dense.getValues<Attribute>()));
}

LayoutAttrInterface tilec::tile::getLayout(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<LayoutAttrInterface>(tensor.getEncoding());
  return {};
}
