// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tile-allocate-shared-memory | FileCheck %s

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// Reductions within a warp, expand_dims of a slice and broadcast need no
// shared memory: no attribute.
// CHECK-LABEL: module {
// CHECK-NOT: tile.shared
module {
  func.func @none(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #d2>
    %x = tile.load %ps : (tensor<64x64x!tile.ptr<f32>, #d2>) -> tensor<64x64xf32, #d2>
    %m = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<64x64xf32, #d2> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    %e = tile.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #tile.slice<dim = 1, parent = #d2>> -> tensor<64x1xf32, #d2>
    %b = tile.broadcast %e : tensor<64x1xf32, #d2> -> tensor<64x64xf32, #d2>
    tile.store %ps, %b : tensor<64x64x!tile.ptr<f32>, #d2>, tensor<64x64xf32, #d2>
    return
  }
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// The largest scratch, not the sum: a conversion of 64 f32 (256 bytes), a
// reduction along an axis split over 4 warps (64 rows x 4 slots x 4 bytes),
// and an argmax over the same axis (values, then i32 indices 16-aligned).
// CHECK: module attributes {tile.shared = 2048 : i32}
module {
  func.func @max(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %x = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
    %c = tile.convert_layout %x : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    %q = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #d2>
    %y = tile.load %q : (tensor<64x64x!tile.ptr<f32>, #d2>) -> tensor<64x64xf32, #d2>
    %s = tile.reduce %y {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64x64xf32, #d2> -> tensor<64xf32, #tile.slice<dim = 0, parent = #d2>>
    %a = tile.reduce %y {axis = 0 : i32, kind = #tile<reduce_kind argmax>} : tensor<64x64xf32, #d2> -> tensor<64xi32, #tile.slice<dim = 0, parent = #d2>>
    return
  }
}

// -----

#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// A dot on the FMA path stages both operands: 64x32 f16 (4096 bytes) then
// 32x64 f16 (4096 bytes).
// CHECK: module attributes {tile.shared = 8192 : i32}
module {
  func.func @dot(%pa: !tile.ptr<f16>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<f16>, #a>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<f16>, #a>) -> tensor<64x32xf16, #a>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #a>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f16>, #a>) -> tensor<32x64xf16, #a>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #a>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16, #a>, tensor<32x64xf16, #a> -> tensor<64x64xf32, #a>
    return
  }
}

// -----

#big = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
module {
  func.func @too_big(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<256x256x!tile.ptr<f32>, #big>
    %x = tile.load %ps : (tensor<256x256x!tile.ptr<f32>, #big>) -> tensor<256x256xf32, #big>
    // expected-error @+1 {{needs 262144 bytes of shared memory, more than the 232448 a thread block can have}}
    %c = tile.convert_layout %x : tensor<256x256xf32, #big> -> tensor<256x256xf32, #col>
    return
  }
}
