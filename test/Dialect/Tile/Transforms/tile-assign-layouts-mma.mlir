// RUN: tilec-opt %s -split-input-file -tile-set-target=arch=sm_90a -tile-assign-layouts=num-warps=8 | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-set-target=arch=sm_80 -tile-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=SM80
// RUN: tilec-opt %s -split-input-file -tile-set-target=arch=sm_75 -tile-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=FMA

// A K loop on sm_90a: the dot's accumulator and the loop value that carries
// it take the wgmma layout (two warp groups along M, one m64n128 instruction
// each); the zero initial value is converted once, before the loop, and the
// result stays in that layout after it.
// CHECK: #[[MMA:mma]] = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>
// CHECK-LABEL: func.func @k_loop
// CHECK: %[[INIT:.*]] = tile.convert_layout %{{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128x128xf32, #[[MMA]]>)
// CHECK:   %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]] {{.*}} -> tensor<128x128xf32, #[[MMA]]>
// CHECK:   scf.yield %[[D]] : tensor<128x128xf32, #[[MMA]]>
// CHECK: arith.truncf {{.*}} : tensor<128x128xf32, #[[MMA]]> to tensor<128x128xf16, #[[MMA]]>
// On sm_80 the same loop uses mma.sync: eight warps along M, 16 rows each.
// SM80: #tile.mma<versionMajor = 2, warpsPerCTA = [8, 1], instrShape = [16, 8, 16]>
// SM80-LABEL: func.func @k_loop
// SM80: scf.for {{.*}} -> (tensor<128x128xf32, #mma>)
// FMA-NOT: #tile.mma
// Without tensor cores the loop carries the FMA path's accumulator layout:
// 8 x 8 elements per thread (64 of 128 x 128 over 256 threads), in blocks
// of 16 bytes of the fp16 operands.
// FMA: #[[F:blocked[0-9]*]] = #tile.blocked<sizePerThread = [8, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
// FMA-LABEL: func.func @k_loop
// FMA: scf.for {{.*}} -> (tensor<128x128xf32, #[[F]]>)
func.func @k_loop(%pa: !tile.ptr<f16>, %n: i32) {
  %sa = tile.splat %pa : tensor<128x64x!tile.ptr<f16>>
  %a = tile.load %sa : (tensor<128x64x!tile.ptr<f16>>) -> tensor<128x64xf16>
  %sb = tile.splat %pa : tensor<64x128x!tile.ptr<f16>>
  %b = tile.load %sb : (tensor<64x128x!tile.ptr<f16>>) -> tensor<64x128xf16>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%c = %zero) -> (tensor<128x128xf32>) : i32 {
    %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
    scf.yield %d : tensor<128x128xf32>
  }
  %h = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
  %sc = tile.splat %pa : tensor<128x128x!tile.ptr<f16>>
  tile.store %sc, %h : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xf16>
  return
}

// -----

// Shapes and types wgmma cannot take: 32 rows (under one 64-row block) of
// fp16 go to mma.sync (two warps along M, four along N); fp32 with ieee
// precision and K of 8 fp16 elements (under the 16 of one instruction)
// stay on the FMA path. Their accumulators there give each of the 256
// threads a 4 x 4 block (16 of the 64 x 64 elements), lanes then warps
// along N, so that a k step loads 4 + 4 operand elements for 16
// multiply-adds.
// CHECK: #[[F4:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
// CHECK: #[[V2:mma[0-9]*]] = #tile.mma<versionMajor = 2, warpsPerCTA = [2, 4], instrShape = [16, 8, 16]>
// CHECK-LABEL: func.func @fma_fallbacks
// CHECK: tile.dot {{.*}} -> tensor<32x128xf32, #[[V2]]>
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #[[F4]]>
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #[[F4]]>
// Without tensor cores the 32 x 128 accumulator takes 4 x 4 blocks too,
// all 32 lanes of a warp along N.
// FMA: #[[F32:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
// FMA-LABEL: func.func @fma_fallbacks
// FMA: tile.dot {{.*}} -> tensor<32x128xf32, #[[F32]]>
func.func @fma_fallbacks(%ph: !tile.ptr<f16>, %pf: !tile.ptr<f32>) {
  %sa = tile.splat %ph : tensor<32x64x!tile.ptr<f16>>
  %a = tile.load %sa : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
  %sb = tile.splat %ph : tensor<64x128x!tile.ptr<f16>>
  %b = tile.load %sb : (tensor<64x128x!tile.ptr<f16>>) -> tensor<64x128xf16>
  %c = arith.constant dense<0.0> : tensor<32x128xf32>
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : tensor<32x64xf16>, tensor<64x128xf16> -> tensor<32x128xf32>
  %sx = tile.splat %pf : tensor<64x64x!tile.ptr<f32>>
  %x = tile.load %sx : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
  %e = tile.dot %x, %x, %x {inputPrecision = #tile<input_precision ieee>} : tensor<64x64xf32>, tensor<64x64xf32> -> tensor<64x64xf32>
  %sp = tile.splat %ph : tensor<64x8x!tile.ptr<f16>>
  %p = tile.load %sp : (tensor<64x8x!tile.ptr<f16>>) -> tensor<64x8xf16>
  %sq = tile.splat %ph : tensor<8x64x!tile.ptr<f16>>
  %q = tile.load %sq : (tensor<8x64x!tile.ptr<f16>>) -> tensor<8x64xf16>
  %f = tile.dot %p, %q, %x {inputPrecision = #tile<input_precision tf32>} : tensor<64x8xf16>, tensor<8x64xf16> -> tensor<64x64xf32>
  return
}

// -----

// A 16-bit product 64 rows high: four warps along M make one warp group
// covering them, so the other two go along N; each warp group's
// instruction covers its 256 columns.
// CHECK: #tile.mma<versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [64, 256, 16]>
// CHECK-LABEL: func.func @f16_wide
func.func @f16_wide(%ph: !tile.ptr<f16>) {
  %sa = tile.splat %ph : tensor<64x32x!tile.ptr<f16>>
  %a = tile.load %sa : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
  %sb = tile.splat %ph : tensor<32x512x!tile.ptr<f16>>
  %b = tile.load %sb : (tensor<32x512x!tile.ptr<f16>>) -> tensor<32x512xf16>
  %c = arith.constant dense<0.0> : tensor<64x512xf32>
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16>, tensor<32x512xf16> -> tensor<64x512xf32>
  return
}

// -----

// tf32 products are computed transposed (c^T += b^T a^T) when N is a
// multiple of 64: the instructions' M runs along the tile's N (two warp
// groups of 64 rows of the 128 columns, one 256-wide instruction each
// along the tile's M).
// CHECK: #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 8], transposed = true>
// CHECK-LABEL: func.func @tf32_transposed
// CHECK: tile.dot {{.*}} -> tensor<256x128xf32, #mma>
func.func @tf32_transposed(%pf: !tile.ptr<f32>) {
  %sa = tile.splat %pf : tensor<256x32x!tile.ptr<f32>>
  %a = tile.load %sa : (tensor<256x32x!tile.ptr<f32>>) -> tensor<256x32xf32>
  %sb = tile.splat %pf : tensor<32x128x!tile.ptr<f32>>
  %b = tile.load %sb : (tensor<32x128x!tile.ptr<f32>>) -> tensor<32x128xf32>
  %c = arith.constant dense<0.0> : tensor<256x128xf32>
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : tensor<256x32xf32>, tensor<32x128xf32> -> tensor<256x128xf32>
  return
}

// -----

// N = 32 is no multiple of 64: the tf32 product keeps its orientation (M a
// multiple of 64), one warp group along M and the other along N.
// CHECK: #tile.mma<versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [64, 16, 8]>
// CHECK-LABEL: func.func @tf32_narrow
func.func @tf32_narrow(%pf: !tile.ptr<f32>) {
  %sa = tile.splat %pf : tensor<64x32x!tile.ptr<f32>>
  %a = tile.load %sa : (tensor<64x32x!tile.ptr<f32>>) -> tensor<64x32xf32>
  %sb = tile.splat %pf : tensor<32x32x!tile.ptr<f32>>
  %b = tile.load %sb : (tensor<32x32x!tile.ptr<f32>>) -> tensor<32x32xf32>
  %c = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32>, tensor<32x32xf32> -> tensor<64x32xf32>
  return
}

// -----

// A product stored through pointers: ones the body computes (%fresh) are
// recomputed in the product's layout, so the store takes it; ones the loop
// carries and advances (%carried, attention backward's dq_ptrs) cannot be,
// so the store keeps theirs and the product's value is converted instead
// (4-byte elements, not 8-byte pointers; one copy of the pointers).
// CHECK: #[[MMA:mma[0-9]*]] = #tile.mma<versionMajor = 3
// CHECK-LABEL: func.func @store_through_carried_pointers
// CHECK: scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}) -> (tensor<128x64x!tile.ptr<f32>, #[[B:blocked[0-9]*]]>)
// CHECK: %[[D:.*]] = tile.dot {{.*}} -> tensor<128x64xf32, #[[MMA]]>
// CHECK: %[[FRESH:.*]] = tile.convert_layout %{{.*}} : tensor<128x64x!tile.ptr<f32>, #{{.*}}> -> tensor<128x64x!tile.ptr<f32>, #[[MMA]]>
// CHECK-NEXT: tile.store %[[FRESH]], %[[D]] : tensor<128x64x!tile.ptr<f32>, #[[MMA]]>, tensor<128x64xf32, #[[MMA]]>
// CHECK: %[[V:.*]] = tile.convert_layout %[[D]] : tensor<128x64xf32, #[[MMA]]> -> tensor<128x64xf32, #[[B]]>
// CHECK-NEXT: tile.store %[[P]], %[[V]] : tensor<128x64x!tile.ptr<f32>, #[[B]]>, tensor<128x64xf32, #[[B]]>
func.func @store_through_carried_pointers(%pa: !tile.ptr<f16>, %pc: !tile.ptr<f32>, %n: i32) {
  %sa = tile.splat %pa : tensor<128x64x!tile.ptr<f16>>
  %a = tile.load %sa : (tensor<128x64x!tile.ptr<f16>>) -> tensor<128x64xf16>
  %sb = tile.splat %pa : tensor<64x64x!tile.ptr<f16>>
  %b = tile.load %sb : (tensor<64x64x!tile.ptr<f16>>) -> tensor<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %step = arith.constant dense<64> : tensor<128x64xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %p0 = tile.splat %pc : tensor<128x64x!tile.ptr<f32>>
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0) -> (tensor<128x64x!tile.ptr<f32>>) : i32 {
    %d = tile.dot %a, %b, %zero {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
    %fresh = tile.splat %pc : tensor<128x64x!tile.ptr<f32>>
    tile.store %fresh, %d : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xf32>
    tile.store %p, %d : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xf32>
    %next = tile.addptr %p, %step : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
    scf.yield %next : tensor<128x64x!tile.ptr<f32>>
  }
  return
}
