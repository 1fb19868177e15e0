// REQUIRES: ptxas
// RUN: tilec-opt %s -tilec-lower-to-llvm=num-warps=4 | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: opt -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -passes='default<O3>' %t.ll -o %t.bc
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.bc -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// A tile chosen by an scf.if (exp or rsqrt) and then carried by an scf.while
// (repeated sqrt).
// CHECK: .entry ifwhile(
// CHECK-DAG: ex2.approx.f32
// CHECK-DAG: rsqrt.approx.f32
// CHECK: sqrt.rn.f32
module {
func.func @ifwhile(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %flag: i1) {
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ps = tile.splat %p : tensor<256x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %x = tile.load %pp : (tensor<256x!tile.ptr<f32>>) -> tensor<256xf32>
  %y = scf.if %flag -> (tensor<256xf32>) {
    %e = math.exp %x : tensor<256xf32>
    scf.yield %e : tensor<256xf32>
  } else {
    %l = math.rsqrt %x : tensor<256xf32>
    scf.yield %l : tensor<256xf32>
  }
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %w:2 = scf.while (%i = %c0, %acc = %y) : (i32, tensor<256xf32>) -> (i32, tensor<256xf32>) {
    %cond = arith.cmpi slt, %i, %n : i32
    scf.condition(%cond) %i, %acc : i32, tensor<256xf32>
  } do {
  ^bb0(%i2: i32, %acc2: tensor<256xf32>):
    %s = math.sqrt %acc2 : tensor<256xf32>
    %i3 = arith.addi %i2, %c1 : i32
    scf.yield %i3, %s : i32, tensor<256xf32>
  }
  tile.store %pp, %w#1 : tensor<256x!tile.ptr<f32>>, tensor<256xf32>
  return
}
}
