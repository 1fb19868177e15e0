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

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_TENSORCORES_H
#define TILEC_DIALECT_TILE_TRANSFORMS_TENSORCORES_H

#include "tilec/Dialect/Tile/IR/TileOps.h"

namespace tilec::tile {

/// The accumulator layout `dot` gets on tensor cores of a GPU of compute
/// capability `computeCapability` (90 for sm_90a, 80 for sm_80) with
/// `numWarps` warps: wgmma (version 3) where it applies, else mma.sync
/// (version 2) for f16/bf16 into f32, else null (the FMA path).
MmaLayoutAttr chooseMmaLayout(DotOp dot, unsigned numWarps,
                              unsigned computeCapability);
/// The same for a dot of `a` by a tile into `c` with `precision`.
MmaLayoutAttr chooseMmaLayout(mlir::RankedTensorType a,
                              mlir::RankedTensorType c,
                              InputPrecision precision, unsigned numWarps,
                              unsigned computeCapability);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_TENSORCORES_H
