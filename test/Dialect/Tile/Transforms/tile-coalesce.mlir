// RUN: tilec-opt %s -split-input-file -tile-coalesce | FileCheck %s

// Addresses consecutive along dimension 0 (a column of a row-major matrix
// read as a row of its transpose), 16-byte aligned: the load moves to a
// layout whose lanes run along dimension 0 with 4-element vectors, and the
// value goes back to the original layout.
#row = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#s1 = #tile.slice<dim = 1, parent = #row>
#s0 = #tile.slice<dim = 0, parent = #row>
// CHECK: #[[COL:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
// CHECK-LABEL: func.func @column
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<32x32x!tile.ptr<f32>, #{{.*}}> -> tensor<32x32x!tile.ptr<f32>, #[[COL]]>
// CHECK: %[[L:.*]] = tile.load %[[P]] : (tensor<32x32x!tile.ptr<f32>, #[[COL]]>) -> tensor<32x32xf32, #[[COL]]>
// CHECK: tile.convert_layout %[[L]] : tensor<32x32xf32, #[[COL]]> -> tensor<32x32xf32, #
module attributes {tile.num_warps = 4 : i32} {
  func.func @column(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}) {
    %r0 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #s1>
    %r1 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #s0>
    %e0 = tile.expand_dims %r0 {axis = 1 : i32} : tensor<32xi32, #s1> -> tensor<32x1xi32, #row>
    %e1 = tile.expand_dims %r1 {axis = 0 : i32} : tensor<32xi32, #s0> -> tensor<1x32xi32, #row>
    %st = tile.splat %stride : tensor<1x32xi32, #row>
    %c = arith.muli %e1, %st : tensor<1x32xi32, #row>
    %b0 = tile.broadcast %e0 : tensor<32x1xi32, #row> -> tensor<32x32xi32, #row>
    %b1 = tile.broadcast %c : tensor<1x32xi32, #row> -> tensor<32x32xi32, #row>
    %off = arith.addi %b0, %b1 : tensor<32x32xi32, #row>
    %ps = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #row>
    %ptr = tile.addptr %ps, %off : tensor<32x32x!tile.ptr<f32>, #row>, tensor<32x32xi32, #row>
    %v = tile.load %ptr : (tensor<32x32x!tile.ptr<f32>, #row>) -> tensor<32x32xf32, #row>
    tile.store %ptr, %v : tensor<32x32x!tile.ptr<f32>, #row>, tensor<32x32xf32, #row>
    return
  }
}

// -----

// The same access without alignment: no vector is possible along
// dimension 0, and moving would only add a conversion: unchanged.
#row = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#s1 = #tile.slice<dim = 1, parent = #row>
// CHECK-LABEL: func.func @unaligned_column
// CHECK-NOT: tile.convert_layout
module attributes {tile.num_warps = 4 : i32} {
  func.func @unaligned_column(%p: !tile.ptr<f32>) {
    %r0 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #s1>
    %e0 = tile.expand_dims %r0 {axis = 1 : i32} : tensor<32xi32, #s1> -> tensor<32x1xi32, #row>
    %b0 = tile.broadcast %e0 : tensor<32x1xi32, #row> -> tensor<32x32xi32, #row>
    %ps = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #row>
    %ptr = tile.addptr %ps, %b0 : tensor<32x32x!tile.ptr<f32>, #row>, tensor<32x32xi32, #row>
    %v = tile.load %ptr : (tensor<32x32x!tile.ptr<f32>, #row>) -> tensor<32x32xf32, #row>
    return
  }
}

// -----

// Addresses consecutive along the fastest dimension already: unchanged.
#row = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#s0 = #tile.slice<dim = 0, parent = #row>
// CHECK-LABEL: func.func @row
// CHECK-NOT: tile.convert_layout
module attributes {tile.num_warps = 4 : i32} {
  func.func @row(%p: !tile.ptr<f32>) {
    %r1 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #s0>
    %e1 = tile.expand_dims %r1 {axis = 0 : i32} : tensor<32xi32, #s0> -> tensor<1x32xi32, #row>
    %b1 = tile.broadcast %e1 : tensor<1x32xi32, #row> -> tensor<32x32xi32, #row>
    %ps = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #row>
    %ptr = tile.addptr %ps, %b1 : tensor<32x32x!tile.ptr<f32>, #row>, tensor<32x32xi32, #row>
    %v = tile.load %ptr : (tensor<32x32x!tile.ptr<f32>, #row>) -> tensor<32x32xf32, #row>
    return
  }
}
