//===- TileDialect.h - The tile dialect ---------------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Declares the tile dialect, its types and its layout attributes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDIALECT_H
#define TILEC_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/TypeUtilities.h"

#include "tilec/Dialect/Tile/IR/TileOpsDialect.h.inc"

#include "tilec/Dialect/Tile/IR/TileEnums.h.inc"

#include "tilec/Dialect/Tile/IR/TileAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileOpsTypes.h.inc"

namespace tilec::tile {

/// Returns `type` with its scalar or element type replaced by `elementType`:
/// a scalar for a scalar, a tensor of the same shape and encoding for a tensor.
mlir::Type withElementType(mlir::Type type, mlir::Type elementType);

/// The constant `dense` with type `type` (the same shape and element type,
/// another encoding). Unlike DenseElementsAttr::reshape it rebuilds the
/// attribute from its values, which is safe for every element type.
mlir::DenseElementsAttr withEncoding(mlir::DenseElementsAttr dense,
                                     mlir::RankedTensorType type);

/// The layout of a tensor type, or null if it has none (or is not a tensor).
LayoutAttrInterface getLayout(mlir::Type type);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILEDIALECT_H
