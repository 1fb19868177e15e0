// REQUIRES: ptxas
// RUN: tilec-opt %s -tilec-lower-to-llvm=num-warps=4 | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: opt -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -passes='default<O3>' %t.ll -o %t.bc
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.bc -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// Online-softmax attention: two dots per K/V block, row max and sum carried
// across iterations in the reductions' slice layout.
// CHECK: .entry attn(
// CHECK: fma.rn.f32
// CHECK: ex2.approx.f32
// CHECK: shfl.sync.bfly.b32
module {
// Online-softmax attention for one head: Q [M, D] (program 0 takes rows
// 0..BM), K and V [N, D] row-major, O [M, D]; BM = 64, BN = 32, D = 32.
func.func @attn(%q: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32, %scale: f32) {
  %pid = tile.program_id 0 : i32
  %c64 = arith.constant 64 : i32
  %c32 = arith.constant 32 : i32
  %row0 = arith.muli %pid, %c64 : i32
  %rm0 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rs = tile.splat %row0 : tensor<64xi32>
  %rm = arith.addi %rm0, %rs : tensor<64xi32>
  %rd = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %rn = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  // Q pointers [64, 32]
  %qm = tile.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32t = arith.constant dense<32> : tensor<64x1xi32>
  %qms = arith.muli %qm, %c32t : tensor<64x1xi32>
  %qmb = tile.broadcast %qms : tensor<64x1xi32> -> tensor<64x32xi32>
  %qd = tile.expand_dims %rd {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %qdb = tile.broadcast %qd : tensor<1x32xi32> -> tensor<64x32xi32>
  %qoff = arith.addi %qmb, %qdb : tensor<64x32xi32>
  %qsp = tile.splat %q : tensor<64x32x!tile.ptr<f32>>
  %qp = tile.addptr %qsp, %qoff : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  %qt = tile.load %qp : (tensor<64x32x!tile.ptr<f32>>) -> tensor<64x32xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %zero64 = arith.constant dense<0.0> : tensor<64xf32>
  %acc0 = arith.constant dense<0.0> : tensor<64x32xf32>
  %c0 = arith.constant 0 : i32
  %res:3 = scf.for %start = %c0 to %n step %c32 iter_args(%m_i = %ninf, %l_i = %zero64, %acc = %acc0) -> (tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>) : i32 {
    %ss = tile.splat %start : tensor<32xi32>
    %cols = arith.addi %ss, %rn : tensor<32xi32>
    // K^T pointers [32 (d), 32 (n)]: k[n, d] at n*32 + d
    %kd = tile.expand_dims %rd {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %kdb = tile.broadcast %kd : tensor<32x1xi32> -> tensor<32x32xi32>
    %kn = tile.expand_dims %cols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %c32n = arith.constant dense<32> : tensor<1x32xi32>
    %kns = arith.muli %kn, %c32n : tensor<1x32xi32>
    %knb = tile.broadcast %kns : tensor<1x32xi32> -> tensor<32x32xi32>
    %koff = arith.addi %kdb, %knb : tensor<32x32xi32>
    %ksp = tile.splat %k : tensor<32x32x!tile.ptr<f32>>
    %kp = tile.addptr %ksp, %koff : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    %kt = tile.load %kp : (tensor<32x32x!tile.ptr<f32>>) -> tensor<32x32xf32>
    %z = arith.constant dense<0.0> : tensor<64x32xf32>
    %qk0 = tile.dot %qt, %kt, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf32>, tensor<32x32xf32> -> tensor<64x32xf32>
    %scs = tile.splat %scale : tensor<64x32xf32>
    %qk = arith.mulf %qk0, %scs : tensor<64x32xf32>
    %mx = tile.reduce %qk {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<64x32xf32> -> tensor<64xf32>
    %m_new = arith.maxnumf %m_i, %mx : tensor<64xf32>
    %dm = arith.subf %m_i, %m_new : tensor<64xf32>
    %alpha = math.exp %dm : tensor<64xf32>
    %mn2 = tile.expand_dims %m_new {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %mnb = tile.broadcast %mn2 : tensor<64x1xf32> -> tensor<64x32xf32>
    %qkm = arith.subf %qk, %mnb : tensor<64x32xf32>
    %p = math.exp %qkm : tensor<64x32xf32>
    %ps = tile.reduce %p {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<64x32xf32> -> tensor<64xf32>
    %la = arith.mulf %l_i, %alpha : tensor<64xf32>
    %l_new = arith.addf %la, %ps : tensor<64xf32>
    // V pointers [32 (n), 32 (d)]
    %vn = tile.expand_dims %cols {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %c32v = arith.constant dense<32> : tensor<32x1xi32>
    %vns = arith.muli %vn, %c32v : tensor<32x1xi32>
    %vnb = tile.broadcast %vns : tensor<32x1xi32> -> tensor<32x32xi32>
    %vd = tile.expand_dims %rd {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %vdb = tile.broadcast %vd : tensor<1x32xi32> -> tensor<32x32xi32>
    %voff = arith.addi %vnb, %vdb : tensor<32x32xi32>
    %vsp = tile.splat %v : tensor<32x32x!tile.ptr<f32>>
    %vp = tile.addptr %vsp, %voff : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    %vt = tile.load %vp : (tensor<32x32x!tile.ptr<f32>>) -> tensor<32x32xf32>
    %al2 = tile.expand_dims %alpha {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
    %alb = tile.broadcast %al2 : tensor<64x1xf32> -> tensor<64x32xf32>
    %accs = arith.mulf %acc, %alb : tensor<64x32xf32>
    %acc_new = tile.dot %p, %vt, %accs {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf32>, tensor<32x32xf32> -> tensor<64x32xf32>
    scf.yield %m_new, %l_new, %acc_new : tensor<64xf32>, tensor<64xf32>, tensor<64x32xf32>
  }
  %l2 = tile.expand_dims %res#1 {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %lb = tile.broadcast %l2 : tensor<64x1xf32> -> tensor<64x32xf32>
  %out = arith.divf %res#2, %lb : tensor<64x32xf32>
  %osp = tile.splat %o : tensor<64x32x!tile.ptr<f32>>
  %op = tile.addptr %osp, %qoff : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xi32>
  tile.store %op, %out : tensor<64x32x!tile.ptr<f32>>, tensor<64x32xf32>
  return
}
}
