// REQUIRES: ptxas
// RUN: tilec-opt %s -tilec-lower-to-llvm=num-warps=4 | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: opt -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -passes='default<O3>' %t.ll -o %t.bc
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.bc -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// Softmax over 16 rows of 128 at once: reductions along axis 1 stay within
// a warp (16 lanes per row), expand_dims/broadcast of the row results pick
// registers, and no shared memory is used.
// CHECK-NOT: global_smem
// CHECK: .entry softmax2d(
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: ex2.approx.f32
// CHECK-NOT: bar.sync
// CHECK: ret;
module {
func.func @softmax2d(%x_ptr: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %out_ptr: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %stride: i32 {tile.divisibility = 16 : i32}) {
  %pid = tile.program_id 0 : i32
  %c16 = arith.constant 16 : i32
  %p16 = arith.muli %pid, %c16 : i32
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %ps = tile.splat %p16 : tensor<16xi32>
  %rows = arith.addi %ps, %r : tensor<16xi32>
  %cols = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %rows2 = tile.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %Ms = tile.splat %M : tensor<16x1xi32>
  %rmask = arith.cmpi slt, %rows2, %Ms : tensor<16x1xi32>
  %Ns = tile.splat %N : tensor<1x128xi32>
  %cmask = arith.cmpi slt, %cols2, %Ns : tensor<1x128xi32>
  %rmaskb = tile.broadcast %rmask : tensor<16x1xi1> -> tensor<16x128xi1>
  %cmaskb = tile.broadcast %cmask : tensor<1x128xi1> -> tensor<16x128xi1>
  %mask = arith.andi %rmaskb, %cmaskb : tensor<16x128xi1>
  %ss = tile.splat %stride : tensor<16x1xi32>
  %roff = arith.muli %rows2, %ss : tensor<16x1xi32>
  %roffb = tile.broadcast %roff : tensor<16x1xi32> -> tensor<16x128xi32>
  %coffb = tile.broadcast %cols2 : tensor<1x128xi32> -> tensor<16x128xi32>
  %off = arith.addi %roffb, %coffb : tensor<16x128xi32>
  %xs = tile.splat %x_ptr : tensor<16x128x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %off : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi32>
  %zero = arith.constant dense<0.0> : tensor<16x128xf32>
  %x = tile.load %xp, %mask other %zero : (tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi1>, tensor<16x128xf32>) -> tensor<16x128xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<16x128xf32>
  %xm = arith.select %cmaskb, %x, %ninf : tensor<16x128xi1>, tensor<16x128xf32>
  %m = tile.reduce %xm {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<16x128xf32> -> tensor<16xf32>
  %m2 = tile.expand_dims %m {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %mb = tile.broadcast %m2 : tensor<16x1xf32> -> tensor<16x128xf32>
  %d = arith.subf %xm, %mb : tensor<16x128xf32>
  %p = math.exp %d : tensor<16x128xf32>
  %s = tile.reduce %p {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<16x128xf32> -> tensor<16xf32>
  %s2 = tile.expand_dims %s {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %sb = tile.broadcast %s2 : tensor<16x1xf32> -> tensor<16x128xf32>
  %y = arith.divf %p, %sb : tensor<16x128xf32>
  %os = tile.splat %out_ptr : tensor<16x128x!tile.ptr<f32>>
  %op = tile.addptr %os, %off : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xi32>
  tile.store %op, %y, %mask : tensor<16x128x!tile.ptr<f32>>, tensor<16x128xf32>, tensor<16x128xi1>
  return
}
}
