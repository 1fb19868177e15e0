// REQUIRES: ptxas
// RUN: tilec-opt %s -tilec-lower-to-llvm=num-warps=8 | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: opt -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -passes='default<O3>' %t.ll -o %t.bc
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.bc -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// Column reductions of a 64x128 tile over 8 warps (sum, argmax): rows are
// split over warps, so partial results meet in shared memory.
// CHECK: .entry column_reduce(
// CHECK: .maxntid 256, 1, 1
// CHECK: bar.sync 0;
// CHECK: st.shared
// CHECK: bar.sync 0;
// CHECK: ld.shared
module {
  func.func @column_reduce(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %sum: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
    %rr = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %rc = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
    %e0 = tile.expand_dims %rr {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c128 = arith.constant dense<128> : tensor<64x1xi32>
    %rows = arith.muli %e0, %c128 : tensor<64x1xi32>
    %b0 = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x128xi32>
    %e1 = tile.expand_dims %rc {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %b1 = tile.broadcast %e1 : tensor<1x128xi32> -> tensor<64x128xi32>
    %off = arith.addi %b0, %b1 : tensor<64x128xi32>
    %xs = tile.splat %x : tensor<64x128x!tile.ptr<f32>>
    %xp = tile.addptr %xs, %off : tensor<64x128x!tile.ptr<f32>>, tensor<64x128xi32>
    %v = tile.load %xp : (tensor<64x128x!tile.ptr<f32>>) -> tensor<64x128xf32>
    %s = tile.reduce %v {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64x128xf32> -> tensor<128xf32>
    %a = tile.reduce %v {axis = 0 : i32, kind = #tile<reduce_kind argmax>} : tensor<64x128xf32> -> tensor<128xi32>
    %ss = tile.splat %sum : tensor<128x!tile.ptr<f32>>
    %sp = tile.addptr %ss, %rc : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %sp, %s : tensor<128x!tile.ptr<f32>>, tensor<128xf32>
    %as = tile.splat %arg : tensor<128x!tile.ptr<i32>>
    %ap = tile.addptr %as, %rc : tensor<128x!tile.ptr<i32>>, tensor<128xi32>
    tile.store %ap, %a : tensor<128x!tile.ptr<i32>>, tensor<128xi32>
    return
  }
}
