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

// -----

// The B operand of a tf32 wgmma (mma version 3, f32 elements), read from
// rows of N (k * ldb + n) that are contiguous and 16-byte aligned: the load
// moves to the K-major staging layout tile-pipeline copies through, 4 x 4
// elements per thread, lanes 8 along K (min(8, 32 / 4)) and 4 along N, the
// 4 warps all along N (128 / 16 = 8 >= 4). Although N is already the
// fastest dimension, the pointers, the mask and `other` are converted to
// it, and the loaded value goes back to the dot's operand layout.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 8]>
// CHECK-DAG: #[[B:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[ST:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: func.func @wgmma_tf32_b
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[B]]> -> tensor<32x128x!tile.ptr<f32>, #[[ST]]>
// CHECK-NEXT: %[[M:.*]] = tile.convert_layout %{{.*}} : tensor<32x128xi1, #[[B]]> -> tensor<32x128xi1, #[[ST]]>
// CHECK-NEXT: %[[O:.*]] = tile.convert_layout %{{.*}} : tensor<32x128xf32, #[[B]]> -> tensor<32x128xf32, #[[ST]]>
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]], %[[M]] other %[[O]] : (tensor<32x128x!tile.ptr<f32>, #[[ST]]>, tensor<32x128xi1, #[[ST]]>, tensor<32x128xf32, #[[ST]]>) -> tensor<32x128xf32, #[[ST]]>
// CHECK-NEXT: %[[V:.*]] = tile.convert_layout %[[L]] : tensor<32x128xf32, #[[ST]]> -> tensor<32x128xf32, #[[B]]>
// CHECK-NEXT: tile.dot %{{.*}}, %[[V]], %{{.*}} {{.*}}: tensor<64x32xf32, #{{.*}}>, tensor<32x128xf32, #[[B]]> -> tensor<64x128xf32, #mma>
module attributes {tile.num_warps = 4 : i32} {
  func.func @wgmma_tf32_b(%a: tensor<64x32xf32, #blocked1>, %pb: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}, %left: i32) -> tensor<64x128xf32, #mma> {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %zb = arith.constant dense<0.000000e+00> : tensor<32x128xf32, #blocked>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f32>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x128xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f32>, #blocked> -> tensor<32x128x!tile.ptr<f32>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x128x!tile.ptr<f32>, #blocked>, tensor<32x128xi32, #blocked>
    %leftb = tile.splat %left : tensor<32x1xi32, #blocked>
    %mb1 = arith.cmpi slt, %kb1, %leftb : tensor<32x1xi32, #blocked>
    %mb = tile.broadcast %mb1 : tensor<32x1xi1, #blocked> -> tensor<32x128xi1, #blocked>
    %b = tile.load %b0, %mb other %zb : (tensor<32x128x!tile.ptr<f32>, #blocked>, tensor<32x128xi1, #blocked>, tensor<32x128xf32, #blocked>) -> tensor<32x128xf32, #blocked>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32, #blocked1>, tensor<32x128xf32, #blocked> -> tensor<64x128xf32, #mma>
    return %d : tensor<64x128xf32, #mma>
  }
}

// -----

// An int8 B (8-bit wgmma, too, reads B only K-major) read from rows of N:
// the same staging layout with 16 bytes of K a thread (64 x 128 bytes over
// 4 warps hold 64 a thread): lanes 4 along K (64 / 16) and 8 along N.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 32]>
// CHECK-DAG: #[[B:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[ST:blocked[0-9]*]] = #tile.blocked<sizePerThread = [16, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: func.func @wgmma_i8_b
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<64x128x!tile.ptr<i8>, #[[B]]> -> tensor<64x128x!tile.ptr<i8>, #[[ST]]>
// CHECK: %[[L:.*]] = tile.load %[[P]], %{{.*}} other %{{.*}} : (tensor<64x128x!tile.ptr<i8>, #[[ST]]>, tensor<64x128xi1, #[[ST]]>, tensor<64x128xi8, #[[ST]]>) -> tensor<64x128xi8, #[[ST]]>
// CHECK-NEXT: %[[V:.*]] = tile.convert_layout %[[L]] : tensor<64x128xi8, #[[ST]]> -> tensor<64x128xi8, #[[B]]>
// CHECK-NEXT: tile.dot %{{.*}}, %[[V]], %{{.*}} : tensor<64x64xi8, #{{.*}}>, tensor<64x128xi8, #[[B]]> -> tensor<64x128xi32, #mma>
module attributes {tile.num_warps = 4 : i32} {
  func.func @wgmma_i8_b(%a: tensor<64x64xi8, #blocked1>, %pb: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}, %left: i32) -> tensor<64x128xi32, #mma> {
    %acc = arith.constant dense<0> : tensor<64x128xi32, #mma>
    %zb = arith.constant dense<0> : tensor<64x128xi8, #blocked>
    %kb = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<64x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<64x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<64x1x!tile.ptr<i8>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<64x1x!tile.ptr<i8>, #blocked>, tensor<64x1xi32, #blocked>
    %n = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x128xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<64x1x!tile.ptr<i8>, #blocked> -> tensor<64x128x!tile.ptr<i8>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<64x128x!tile.ptr<i8>, #blocked>, tensor<64x128xi32, #blocked>
    %leftb = tile.splat %left : tensor<64x1xi32, #blocked>
    %mb1 = arith.cmpi slt, %kb1, %leftb : tensor<64x1xi32, #blocked>
    %mb = tile.broadcast %mb1 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
    %b = tile.load %b0, %mb other %zb : (tensor<64x128x!tile.ptr<i8>, #blocked>, tensor<64x128xi1, #blocked>, tensor<64x128xi8, #blocked>) -> tensor<64x128xi8, #blocked>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x64xi8, #blocked1>, tensor<64x128xi8, #blocked> -> tensor<64x128xi32, #mma>
    return %d : tensor<64x128xi32, #mma>
  }
}


// -----

// A 32 x 128 int8 B holds 32 bytes a thread over 4 warps, too few for 16 of
// K by 4 of N: 4 bytes of K a thread, lanes 8 along K.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 32]>
// CHECK-DAG: #[[B:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[ST:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: func.func @wgmma_i8_b_small
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<32x128x!tile.ptr<i8>, #[[B]]> -> tensor<32x128x!tile.ptr<i8>, #[[ST]]>
// CHECK: %[[L:.*]] = tile.load %[[P]], %{{.*}} other %{{.*}} : (tensor<32x128x!tile.ptr<i8>, #[[ST]]>, tensor<32x128xi1, #[[ST]]>, tensor<32x128xi8, #[[ST]]>) -> tensor<32x128xi8, #[[ST]]>
// CHECK-NEXT: %[[V:.*]] = tile.convert_layout %[[L]] : tensor<32x128xi8, #[[ST]]> -> tensor<32x128xi8, #[[B]]>
// CHECK-NEXT: tile.dot %{{.*}}, %[[V]], %{{.*}} : tensor<64x32xi8, #{{.*}}>, tensor<32x128xi8, #[[B]]> -> tensor<64x128xi32, #mma>
module attributes {tile.num_warps = 4 : i32} {
  func.func @wgmma_i8_b_small(%a: tensor<64x32xi8, #blocked1>, %pb: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}, %left: i32) -> tensor<64x128xi32, #mma> {
    %acc = arith.constant dense<0> : tensor<64x128xi32, #mma>
    %zb = arith.constant dense<0> : tensor<32x128xi8, #blocked>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<i8>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<i8>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x128xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<i8>, #blocked> -> tensor<32x128x!tile.ptr<i8>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x128x!tile.ptr<i8>, #blocked>, tensor<32x128xi32, #blocked>
    %leftb = tile.splat %left : tensor<32x1xi32, #blocked>
    %mb1 = arith.cmpi slt, %kb1, %leftb : tensor<32x1xi32, #blocked>
    %mb = tile.broadcast %mb1 : tensor<32x1xi1, #blocked> -> tensor<32x128xi1, #blocked>
    %b = tile.load %b0, %mb other %zb : (tensor<32x128x!tile.ptr<i8>, #blocked>, tensor<32x128xi1, #blocked>, tensor<32x128xi8, #blocked>) -> tensor<32x128xi8, #blocked>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xi8, #blocked1>, tensor<32x128xi8, #blocked> -> tensor<64x128xi32, #mma>
    return %d : tensor<64x128xi32, #mma>
  }
}


// -----

// The same B operand as @wgmma_tf32_b, 32x64 over 8 warps and reaching the
// dot through a conversion: lanes 8 along K and 4 along N, warps along N as
// far as N allows (64 / 16 = 4) and the other 2 along K.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked2 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 8]>
// CHECK-DAG: #[[B:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
// CHECK-DAG: #[[ST:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]>
// CHECK-LABEL: func.func @wgmma_tf32_b_converted
// CHECK: %[[P:.*]] = tile.convert_layout %{{.*}} : tensor<32x64x!tile.ptr<f32>, #[[B]]> -> tensor<32x64x!tile.ptr<f32>, #[[ST]]>
// CHECK-NEXT: %[[L:.*]] = tile.load %[[P]] : (tensor<32x64x!tile.ptr<f32>, #[[ST]]>) -> tensor<32x64xf32, #[[ST]]>
// CHECK-NEXT: %[[V:.*]] = tile.convert_layout %[[L]] : tensor<32x64xf32, #[[ST]]> -> tensor<32x64xf32, #[[B]]>
// CHECK-NEXT: %[[W:.*]] = tile.convert_layout %[[V]] : tensor<32x64xf32, #[[B]]> -> tensor<32x64xf32, #
// CHECK-NEXT: tile.dot %{{.*}}, %[[W]], %{{.*}}
module attributes {tile.num_warps = 8 : i32} {
  func.func @wgmma_tf32_b_converted(%a: tensor<128x32xf32, #blocked1>, %pb: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<128x64xf32, #mma> {
    %acc = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f32>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f32>, #blocked> -> tensor<32x64x!tile.ptr<f32>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x64x!tile.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f32>, #blocked>) -> tensor<32x64xf32, #blocked>
    %bc = tile.convert_layout %b : tensor<32x64xf32, #blocked> -> tensor<32x64xf32, #blocked2>
    %d = tile.dot %a, %bc, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<128x32xf32, #blocked1>, tensor<32x64xf32, #blocked2> -> tensor<128x64xf32, #mma>
    return %d : tensor<128x64xf32, #mma>
  }
}

// -----

// @wgmma_tf32_b with an mma.sync (version 2) product: the staging layout is
// for wgmma only, and the addresses already run along the fastest
// dimension: unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 8]>
// CHECK-LABEL: func.func @mma_v2_tf32_b
// CHECK-NOT: tile.convert_layout
// CHECK: tile.load %{{.*}} : (tensor<32x128x!tile.ptr<f32>, #[[B:blocked[0-9]*]]>) -> tensor<32x128xf32, #[[B]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot
module attributes {tile.num_warps = 4 : i32} {
  func.func @mma_v2_tf32_b(%a: tensor<64x32xf32, #blocked1>, %pb: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x128xf32, #mma> {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f32>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x128xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f32>, #blocked> -> tensor<32x128x!tile.ptr<f32>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x128x!tile.ptr<f32>, #blocked>, tensor<32x128xi32, #blocked>
    %b = tile.load %b0 : (tensor<32x128x!tile.ptr<f32>, #blocked>) -> tensor<32x128xf32, #blocked>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32, #blocked1>, tensor<32x128xf32, #blocked> -> tensor<64x128xf32, #mma>
    return %d : tensor<64x128xf32, #mma>
  }
}

// -----

// @wgmma_tf32_b with f16 elements: a 16-bit B can be stored N-major and
// needs no staging through registers: unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 16]>
// CHECK-LABEL: func.func @wgmma_f16_b
// CHECK-NOT: tile.convert_layout
// CHECK: tile.load %{{.*}} : (tensor<32x128x!tile.ptr<f16>, #[[B:blocked[0-9]*]]>) -> tensor<32x128xf16, #[[B]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot
module attributes {tile.num_warps = 4 : i32} {
  func.func @wgmma_f16_b(%a: tensor<64x32xf16, #blocked1>, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x128xf32, #mma> {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x128xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f16>, #blocked> -> tensor<32x128x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x128x!tile.ptr<f16>, #blocked>, tensor<32x128xi32, #blocked>
    %b = tile.load %b0 : (tensor<32x128x!tile.ptr<f16>, #blocked>) -> tensor<32x128xf16, #blocked>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16, #blocked1>, tensor<32x128xf16, #blocked> -> tensor<64x128xf32, #mma>
    return %d : tensor<64x128xf32, #mma>
  }
}

// -----

// A tf32 wgmma's A operand read from rows of K (m * lda + k), contiguous and
// 16-byte aligned: only B is staged, and A's addresses already run along
// the fastest dimension: unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 8]>
// CHECK-LABEL: func.func @wgmma_tf32_a
// CHECK-NOT: tile.convert_layout
// CHECK: tile.load %{{.*}} : (tensor<64x32x!tile.ptr<f32>, #[[A:blocked[0-9]*]]>) -> tensor<64x32xf32, #[[A]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot
module attributes {tile.num_warps = 4 : i32} {
  func.func @wgmma_tf32_a(%pa: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %b: tensor<32x128xf32, #blocked>) -> tensor<64x128xf32, #mma> {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<64x1x!tile.ptr<f32>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<64x1x!tile.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<64x1x!tile.ptr<f32>, #blocked1> -> tensor<64x32x!tile.ptr<f32>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<f32>, #blocked1>) -> tensor<64x32xf32, #blocked1>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32, #blocked1>, tensor<32x128xf32, #blocked> -> tensor<64x128xf32, #mma>
    return %d : tensor<64x128xf32, #mma>
  }
}

// -----

// @wgmma_tf32_b without divisibility hints: the rows of B are not known to
// be 16-byte aligned, a thread could not load 4 elements at once, and the
// addresses already run along the fastest dimension: unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128, 8]>
// CHECK-LABEL: func.func @wgmma_tf32_b_unaligned
// CHECK-NOT: tile.convert_layout
// CHECK: tile.load %{{.*}} : (tensor<32x128x!tile.ptr<f32>, #[[B:blocked[0-9]*]]>) -> tensor<32x128xf32, #[[B]]>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.dot
module attributes {tile.num_warps = 4 : i32} {
  func.func @wgmma_tf32_b_unaligned(%a: tensor<64x32xf32, #blocked1>, %pb: !tile.ptr<f32>, %ldb: i32) -> tensor<64x128xf32, #mma> {
    %acc = arith.constant dense<0.000000e+00> : tensor<64x128xf32, #mma>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f32>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x128xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f32>, #blocked> -> tensor<32x128x!tile.ptr<f32>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x128x!tile.ptr<f32>, #blocked>, tensor<32x128xi32, #blocked>
    %b = tile.load %b0 : (tensor<32x128x!tile.ptr<f32>, #blocked>) -> tensor<32x128xf32, #blocked>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32, #blocked1>, tensor<32x128xf32, #blocked> -> tensor<64x128xf32, #mma>
    return %d : tensor<64x128xf32, #mma>
  }
}

// -----

// A row of fp32 values in the layout of fp16 loads (8 consecutive elements
// a thread): each thread's run is two 16-byte stores, so the store moves to
// a layout of one 16-byte vector a thread (each warp instruction writing
// 512 consecutive bytes). The load through the same pointers keeps its
// layout, as does the fp16 store (8 elements are one 16-byte vector), and
// the store through pointers not known to be 16-byte aligned.
#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: #[[B4:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @wide_runs
// CHECK: %[[V:.*]] = tile.load %{{.*}} : (tensor<1024x!tile.ptr<f32>, #blocked>) -> tensor<1024xf32, #blocked>
// CHECK: %[[P4:.*]] = tile.convert_layout %{{.*}} : tensor<1024x!tile.ptr<f32>, #blocked> -> tensor<1024x!tile.ptr<f32>, #[[B4]]>
// CHECK: %[[V4:.*]] = tile.convert_layout %[[V]] : tensor<1024xf32, #blocked> -> tensor<1024xf32, #[[B4]]>
// CHECK: tile.store %[[P4]], %[[V4]] : tensor<1024x!tile.ptr<f32>, #[[B4]]>
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f16>, #blocked>
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>, #blocked>
module attributes {tile.num_warps = 4 : i32} {
  func.func @wide_runs(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %h: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %u: !tile.ptr<f32>) {
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b8>
    %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b8>
    %ptr = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xi32, #b8>
    %v = tile.load %ptr : (tensor<1024x!tile.ptr<f32>, #b8>) -> tensor<1024xf32, #b8>
    tile.store %ptr, %v : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xf32, #b8>
    %hs = tile.splat %h : tensor<1024x!tile.ptr<f16>, #b8>
    %hptr = tile.addptr %hs, %r : tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xi32, #b8>
    %hv = arith.truncf %v : tensor<1024xf32, #b8> to tensor<1024xf16, #b8>
    tile.store %hptr, %hv : tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xf16, #b8>
    %us = tile.splat %u : tensor<1024x!tile.ptr<f32>, #b8>
    %uptr = tile.addptr %us, %r : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xi32, #b8>
    tile.store %uptr, %v : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xf32, #b8>
    return
  }
}

// -----

// The same store of 16384 fp32 values (64 KB, more than the 32 KB a store
// is moved for: the value would cross shared memory whole) keeps its
// layout.
#w8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-LABEL: func.func @wide_tile
// CHECK-NOT: tile.convert_layout
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<16384x!tile.ptr<f32>, #blocked>
module attributes {tile.num_warps = 4 : i32} {
  func.func @wide_tile(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range {start = 0 : i32, end = 16384 : i32} : tensor<16384xi32, #w8>
    %ps = tile.splat %p : tensor<16384x!tile.ptr<f32>, #w8>
    %ptr = tile.addptr %ps, %r : tensor<16384x!tile.ptr<f32>, #w8>, tensor<16384xi32, #w8>
    %v = tile.load %ptr : (tensor<16384x!tile.ptr<f32>, #w8>) -> tensor<16384xf32, #w8>
    tile.store %ptr, %v : tensor<16384x!tile.ptr<f32>, #w8>, tensor<16384xf32, #w8>
    return
  }
}
