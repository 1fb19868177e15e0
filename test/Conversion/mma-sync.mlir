// RUN: tilec-opt %s -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// mma.sync for an fp16 32x16x16 product on two warps (one 16-row block
// each, two 8-column blocks): a and b are stored from registers between
// barriers, then each warp loads its A fragment with ldmatrix.x4 and the
// two B fragments with ldmatrix.x2.trans, and issues one m16n8k16 per
// 8-column block, each reading and writing its 4 accumulator registers.
#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [2, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 2, warpsPerCTA = [2, 1], instrShape = [16, 8, 16]>
module attributes {tile.num_warps = 2 : i32, tile.shared = 2048 : i32} {
  // CHECK-LABEL: llvm.func @mma_sync_f16
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {$0, $1}, [$2];", "=r,=r,r"
  // CHECK: "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,r"
  // CHECK-COUNT-2: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3"
  // CHECK-NOT: wgmma
  func.func @mma_sync_f16(%pa: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<32x16x!tile.ptr<f16>, #a>
    %a = tile.load %a0 : (tensor<32x16x!tile.ptr<f16>, #a>) -> tensor<32x16xf16, #a>
    %b0 = tile.splat %pa : tensor<16x16x!tile.ptr<f16>, #a>
    %b = tile.load %b0 : (tensor<16x16x!tile.ptr<f16>, #a>) -> tensor<16x16xf16, #a>
    %c0 = tile.splat %pc : tensor<32x16x!tile.ptr<f32>, #mma>
    %z = arith.constant dense<0.0> : tensor<32x16xf32, #mma>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16, #a>, tensor<16x16xf16, #a> -> tensor<32x16xf32, #mma>
    tile.store %c0, %d : tensor<32x16x!tile.ptr<f32>, #mma>, tensor<32x16xf32, #mma>
    return
  }
}
