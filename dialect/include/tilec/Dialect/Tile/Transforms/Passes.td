//===- Passes.td - Passes over the tile dialect ------------*- tablegen -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAssignLayouts : Pass<"tile-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Gives every tile in the module a blocked layout.";
  let description = [{
    Moves the module from the layout-free level to the GPU level: every
    ranked tensor type of every value gets a `#tile.blocked` encoding spread
    over `num-warps` warps. Each thread owns up to 16 bytes of consecutive
    elements along the last dimension, lanes then warps tile that dimension
    first, so that consecutive lanes touch consecutive addresses. The module
    records the warp count in the `tile.num_warps` attribute.

    Before:
    ```mlir
    %r = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    ```
    After (`num-warps=4`):
    ```mlir
    %r = tile.make_range {end = 1024 : i32, start = 0 : i32}
        : tensor<1024xi32, #tile.blocked<sizePerThread = [4],
                 threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>>
    ```
  }];
  let options = [
    Option<"numWarps", "num-warps", "unsigned", /*default=*/"4",
           "Number of warps each program runs with">,
  ];
}

#endif // TILEC_DIALECT_TILE_TRANSFORMS_PASSES_TD
