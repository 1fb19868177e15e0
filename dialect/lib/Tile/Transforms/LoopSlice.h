//===- LoopSlice.h - Recomputing a loop body's values -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Helpers of the passes that issue a loop's loads ahead of their iteration
// (tile-prefetch-loads, tile-pipeline): the pure operations a value of the
// body depends on, which can be cloned for another iteration.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TILE_TRANSFORMS_LOOPSLICE_H
#define TILEC_LIB_TILE_TRANSFORMS_LOOPSLICE_H

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::scf {
class ForOp;
} // namespace mlir::scf

namespace tilec::tile {

/// Adds to `slice` the operations of `body` that `values` depend on,
/// (and the values their regions use), stopping at block arguments and
/// values defined outside; fails when one of them cannot be recomputed
/// freely (side effects, loads, dots).
mlir::LogicalResult collectSlice(mlir::Block *body, mlir::ValueRange values,
                                 llvm::SetVector<mlir::Operation *> &slice);

/// Clones the operations of `slice` (in program order) with `mapping`.
void cloneSlice(mlir::OpBuilder &b,
                const llvm::SetVector<mlir::Operation *> &slice,
                mlir::IRMapping &mapping);

/// Clones `load` with `mapping`, its mask restricted to where `valid` (an
/// i1 scalar) holds.
mlir::Value cloneLoad(mlir::OpBuilder &b, LoadOp load, mlir::IRMapping &mapping,
                      mlir::Value valid);

/// The numbers of the iteration arguments of `loop` that `ops` (or their
/// regions) use.
void collectIterArgs(mlir::scf::ForOp loop,
                     llvm::ArrayRef<mlir::Operation *> ops,
                     llvm::SetVector<unsigned> &args);

} // namespace tilec::tile

#endif // TILEC_LIB_TILE_TRANSFORMS_LOOPSLICE_H
