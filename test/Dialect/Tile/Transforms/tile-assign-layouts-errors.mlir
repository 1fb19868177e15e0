// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tile-assign-layouts
// RUN: not tilec-opt %s -split-input-file -tile-assign-layouts=num-warps=3 2>&1 | FileCheck %s --check-prefix=WARPS

// WARPS: error: num-warps must be a power of two between 1 and 32, not 3

func.func @odd_shape(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{tile dimensions must be powers of two}}
  %x = tile.splat %p : tensor<24x!tile.ptr<f32>>
  return
}

// -----

func.func @rank0(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{rank-0 tiles are not supported; use scalars}}
  %x = tile.splat %p : tensor<!tile.ptr<f32>>
  return
}
