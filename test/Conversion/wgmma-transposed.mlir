// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// A transposed accumulator (tf32): the instructions compute c^T += b^T a^T.
// b (32x64, stored N-major: two 128-byte panels of 32 columns, 4096 bytes
// each) is the instructions' A, loaded from shared memory into the m64k8
// fragments: lane l of warp w holds b^T rows 16 * w + l / 4 (+ 8) and
// columns l % 4 (+ 4), i.e. b's element (k, n) with k = l % 4 (+ 4) and
// n = 16 * w + l / 4 (+ 8), at byte k * 128 + (n / 32) * 4096 + (n % 32) * 4
// with 16-byte chunk k % 8 swizzled in. Four addresses per thread, each K
// step 8 rows (1024 bytes) further: 16 loads. a (64x32, K-major, 128-byte
// swizzle) is the instructions' B: a descriptor (leading 16 bytes, 1024
// between 8-row groups, 128-byte swizzle: 1 << 16 | 64 << 32 | 1 << 62)
// that moves 32 bytes (+2) per K step. The accumulator is zero: the first
// K step does not read it (scale-d z), its registers are outputs only.
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8], transposed = true>
#sa = #tile.shared<contiguousDim = 1, swizzle = 128>
module attributes {tile.num_warps = 4 : i32, tile.shared = 16384 : i32} {
  // CHECK-LABEL: llvm.func @register_fragments
  // CHECK-DAG: %[[DF:.*]] = llvm.mlir.constant(4611686293305360384 : i64) : i64
  // CHECK-DAG: %[[C1024:.*]] = llvm.mlir.constant(1024 : i32) : i32
  // CHECK-DAG: %[[C3072:.*]] = llvm.mlir.constant(3072 : i32) : i32
  // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
  // CHECK-NEXT: %[[B:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
  // CHECK: %[[X0:.*]] = llvm.xor
  // CHECK-NEXT: %[[F0:.*]] = llvm.add %[[B]], %[[X0]] : i32
  // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %{{.*}} = llvm.add %[[F0]], %[[C1024]] : i32
  // CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %{{.*}} = llvm.add %[[F0]], %[[C3072]] : i32
  // CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
  // CHECK-NOT: llvm.load
  // CHECK: llvm.or %{{.*}}, %[[DF]] : i64
  // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p, z;\0Asetp.ne.b32 p, $52, 0;\0Asetp.eq.b32 z, $52, 0;\0Awgmma.fence.sync.aligned;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, z, 1, 1;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{.*}}, $31}, {$37, $38, $39, $40}, $41, p, 1, 1;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{.*}}, $31}, {$42, $43, $44, $45}, $46, p, 1, 1;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {$0, {{.*}}, $31}, {$47, $48, $49, $50}, $51, p, 1, 1;\0A
  // CHECK-SAME: wgmma.commit_group.sync.aligned;\0Awgmma.wait_group.sync.aligned 0;\0A}"
  // CHECK-SAME: "{{(=f,){32}(r,r,r,r,l,)+}}r" %{{[^:]*}} :
  // CHECK-NOT: wgmma
  func.func @register_fragments() -> tensor<64x64xf32, #mma> {
    %a = tile.local_alloc {offset = 0 : i64} : !tile.smem<64x32xf32, #sa>
    %b = tile.local_alloc {offset = 8192 : i64} : !tile.smem<32x64xf32, #sa>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.warp_group_dot %a, %b, %z {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf32, #sa>, !tile.smem<32x64xf32, #sa> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A transposed accumulator's registers hold the tile transposed: register
// pairs run along M (dimension 0), so a store of it writes one element per
// register: lane l of warp w stores rows 2 * (l % 4) (+ 1, + 8 t) of
// column 16 * w + l / 4 (+ 8).
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8], transposed = true>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @store_transposed
  // CHECK-COUNT-32: st.global.b32
  // CHECK-NOT: st.global
  func.func @store_transposed(%p: !tile.ptr<f32>) {
    %z = arith.constant dense<1.0> : tensor<64x64xf32, #mma>
    %s = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #mma>
    tile.store %s, %z : tensor<64x64x!tile.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}
