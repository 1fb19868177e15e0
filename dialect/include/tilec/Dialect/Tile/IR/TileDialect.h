//===- TileDialect.h - The tile dialect ---------------------------*- C++
//-*-===//
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

#include <map>
#include <mutex>
#include <vector>

#include "tilec/Dialect/Tile/IR/TileOpsDialect.h.inc"

#include "tilec/Dialect/Tile/IR/TileEnums.h.inc"

#include "tilec/Dialect/Tile/IR/TileAttrInterfaces.h.inc"

#include "tilec/ABI/KernelABI.h"

namespace mlir {
class AsmParser;
class AsmPrinter;
} // namespace mlir

namespace tilec::abi {
/// Hashes a tensor-map scalar for the uniquing of #tile.tensor_map.
llvm::hash_code hash_value(const TensorMapSpec::Scalar &scalar);
llvm::hash_code hash_value(const TensorMapSpec::OuterDim &dim);
} // namespace tilec::abi

namespace tilec::tile {
/// Parses and prints a tensor-map scalar: `arg(N)`, `arg(N) * F` or an
/// integer.
mlir::FailureOr<abi::TensorMapSpec::Scalar>
parseTensorMapScalar(mlir::AsmParser &parser);
void printTensorMapScalar(mlir::AsmPrinter &printer,
                          const abi::TensorMapSpec::Scalar &scalar);
/// Parses and prints a tensor map's outer dimensions, if any:
/// `, outer = [(EXTENT, STRIDE), ...]`.
mlir::ParseResult
parseTensorMapOuter(mlir::AsmParser &parser,
                    llvm::SmallVector<abi::TensorMapSpec::OuterDim> &outer);
void printTensorMapOuter(mlir::AsmPrinter &printer,
                         llvm::ArrayRef<abi::TensorMapSpec::OuterDim> outer);
} // namespace tilec::tile

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
