// RUN: tilec-opt %s -split-input-file -tile-assign-layouts=num-warps=4 | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=W8

// fp32 accesses: 4 elements (16 bytes) per thread, lanes then warps along the
// tile.
// CHECK: #[[B:blocked]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {tile.num_warps = 4 : i32}
// CHECK: tile.make_range {{.*}} : tensor<1024xi32, #[[B]]>
// CHECK: tile.load {{.*}} -> tensor<1024xf32, #[[B]]>
// W8: #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
func.func @f32(%p: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %pp : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  tile.store %pp, %v : tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>
  return
}

// -----

// fp16 accesses: 8 elements per thread. A tile smaller than the threads
// spreads over fewer lanes and the remaining lanes and warps hold copies.
// CHECK: #blocked = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: tile.load {{.*}} -> tensor<64xf16, #blocked>
func.func @f16(%p: !tile.ptr<f16>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f16>>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %v = tile.load %pp : (tensor<64x!tile.ptr<f16>>) -> tensor<64xf16>
  tile.store %pp, %v : tensor<64x!tile.ptr<f16>>, tensor<64xf16>
  return
}

// -----

// Splat constants take the layout of their tile.
// CHECK-LABEL: func.func @constant
// CHECK: arith.constant dense<1.000000e+00> : tensor<256xf32, #blocked>
func.func @constant(%p: !tile.ptr<f32>) {
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ps = tile.splat %p : tensor<256x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %pp, %c : tensor<256x!tile.ptr<f32>>, tensor<256xf32>
  return
}
