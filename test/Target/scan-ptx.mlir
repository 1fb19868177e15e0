// REQUIRES: ptxas
// RUN: tilec-opt %s -tilec-lower-to-llvm=num-warps=4 | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: opt -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -passes='default<O3>' %t.ll -o %t.bc
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.bc -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// Forward and reverse cumsums of 1024 integers over 4 warps.
// CHECK: .entry cumsums(
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: st.global.v4.b32
module {
  func.func @cumsums(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %q: !tile.ptr<i32> {tile.divisibility = 16 : i32}) {
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %ps = tile.splat %p : tensor<1024x!tile.ptr<i32>>
    %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
    %x = tile.load %pp : (tensor<1024x!tile.ptr<i32>>) -> tensor<1024xi32>
    %f = tile.scan %x {axis = 0 : i32, reverse = false} : tensor<1024xi32>
    tile.store %pp, %f : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
    %b = tile.scan %x {axis = 0 : i32, reverse = true} : tensor<1024xi32>
    %qs = tile.splat %q : tensor<1024x!tile.ptr<i32>>
    %qp = tile.addptr %qs, %r : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
    tile.store %qp, %b : tensor<1024x!tile.ptr<i32>>, tensor<1024xi32>
    return
  }
}
