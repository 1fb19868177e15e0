//===- TensorCores.h - Which dots run on tensor cores -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The choice between tensor cores and the FMA path for a tile.dot, made on
// layout-free IR from the target, the warp count, the element types and the
// tile shape.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_ANALYSIS_TENSORCORES_H
#define TILEC_DIALECT_TILE_ANALYSIS_TENSORCORES_H

#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

namespace tilec::tile {

/// The accumulator layout `dot` gets on the tensor cores of `target` with
/// `numWarps` warps: wgmma (version 3) where the target has it and the dot
/// fits, else mma.sync (version 2) for f16/bf16 into f32, else null (the FMA
/// path).
MmaLayoutAttr chooseMmaLayout(DotOp dot, unsigned numWarps,
                              const TargetInfo &target);
/// The same for a dot of `a` by a tile into `c` with `precision`.
MmaLayoutAttr chooseMmaLayout(mlir::RankedTensorType a,
                              mlir::RankedTensorType c,
                              InputPrecision precision, unsigned numWarps,
                              const TargetInfo &target);

/// Whether wgmma reads a shared-memory B of `elemType` only K-major (tf32
/// and 8-bit products; 16-bit ones read it N-major too).
bool wgmmaReadsBOnlyKMajor(mlir::Type elemType);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_ANALYSIS_TENSORCORES_H
