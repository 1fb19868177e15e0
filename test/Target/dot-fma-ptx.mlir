// REQUIRES: ptxas
// RUN: tilec-opt %s -tilec-lower-to-llvm="num-warps=4 target=sm_75" | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: opt -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -passes='default<O3>' %t.ll -o %t.bc
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.bc -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// A 64x64x32 f16 matmul with an f32 accumulator carried by a K loop: the
// dot stages a and b in shared memory and multiplies on the FMA path (the
// path of GPUs without tensor cores, sm_75).
// CHECK: .entry matmul(
// CHECK: bar.sync 0;
// CHECK: st.shared.b16
// CHECK: bar.sync 0;
// CHECK: ld.shared
// CHECK: cvt.f32.f16
// CHECK: fma.rn.f32
module {
func.func @matmul(%a_ptr: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b_ptr: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c_ptr: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32) {
  %rm = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rk = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %am = tile.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %amk = arith.muli %am, %c32 : tensor<64x1xi32>
  %ak = tile.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %a1 = tile.broadcast %amk : tensor<64x1xi32> -> tensor<64x32xi32>
  %a2 = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %a1, %a2 : tensor<64x32xi32>
  %as = tile.splat %a_ptr : tensor<64x32x!tile.ptr<f16>>
  %ap0 = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %bk = tile.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64 = arith.constant dense<64> : tensor<32x1xi32>
  %bkn = arith.muli %bk, %c64 : tensor<32x1xi32>
  %bn = tile.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %b1 = tile.broadcast %bkn : tensor<32x1xi32> -> tensor<32x64xi32>
  %b2 = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %b1, %b2 : tensor<32x64xi32>
  %bs = tile.splat %b_ptr : tensor<32x64x!tile.ptr<f16>>
  %bp0 = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %bstep = arith.constant dense<2048> : tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %a = tile.load %ap : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
    %b = tile.load %bp : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %ap1 = tile.addptr %ap, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %bp1 = tile.addptr %bp, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %ap1, %bp1 : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  %cm = tile.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64c = arith.constant dense<64> : tensor<64x1xi32>
  %cmn = arith.muli %cm, %c64c : tensor<64x1xi32>
  %cn = tile.expand_dims %rm {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c1b = tile.broadcast %cmn : tensor<64x1xi32> -> tensor<64x64xi32>
  %c2b = tile.broadcast %cn : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %c1b, %c2b : tensor<64x64xi32>
  %cs = tile.splat %c_ptr : tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %coff : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp, %res#0 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>
  return
}
}
