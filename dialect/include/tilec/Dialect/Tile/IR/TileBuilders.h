//===- TileBuilders.h - Tile computations several places build --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Small computations on tiles that the frontend and the passes both emit,
// built from the dialect's own ops so that every later stage handles them:
// the mask of one index along an axis, one slice of a tile along an axis,
// and slices stacked back along a new leading axis.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEBUILDERS_H
#define TILEC_DIALECT_TILE_IR_TILEBUILDERS_H

#include "mlir/IR/Builders.h"

namespace tilec::tile {

/// An i1 tile of `shape`, true where the coordinate along `axis` is `which`.
mlir::Value buildAxisIndexIs(mlir::OpBuilder &b, mlir::Location loc,
                             llvm::ArrayRef<int64_t> shape, int64_t axis,
                             int64_t which);

/// The slice of tile `x` at index `which` of dimension `axis` (that
/// dimension dropped; a scalar when `x` is 1-D): the other slices masked to
/// zero and summed along `axis`, exact in integers of the element's width
/// (pointers as their addresses). A splat constant gives the smaller splat.
mlir::Value buildSliceAlong(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x, int64_t axis, int64_t which);

/// `parts` (tiles of one type) stacked along a new leading dimension:
/// element [i, ...] is parts[i][...].
mlir::Value buildStackLeading(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::ArrayRef<mlir::Value> parts);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILEBUILDERS_H
