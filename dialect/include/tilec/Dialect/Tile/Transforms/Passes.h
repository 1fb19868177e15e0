//===- Passes.h - Passes over the tile dialect --------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tilec::tile {

#define GEN_PASS_DECL
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_H
