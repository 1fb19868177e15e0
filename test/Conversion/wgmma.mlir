// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// wgmma for an fp16 64x64x32 product on one warp group: a (K-major, 64-byte
// rows so a 64-byte swizzle) at offset 0 and b at 4096 (the next 1024-byte
// atom after a's 4096 bytes), stored from registers between barriers with
// 16-byte vectors and made visible to the async proxy; b's registers run
// along N, so b is stored MN-major and read with the transpose bit. Two K
// steps of m64n64k16 accumulate into the 32 registers, then the group is
// committed and waited for: one inline-asm statement from the fence to the
// wait, with the accumulators its outputs tied to its inputs, the two
// descriptors of each step next and the scale-d flag last.
#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 8192 : i32} {
  // CHECK-LABEL: llvm.func @wgmma_f16
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;"
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $36, 0;\0Awgmma.fence.sync.aligned;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $32, $33, p, 1, 1, 0, 1;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $34, $35, p, 1, 1, 0, 1;\0A
  // CHECK-SAME: wgmma.commit_group.sync.aligned;\0Awgmma.wait_group.sync.aligned 0;\0A}"
  // CHECK-SAME: "{{(=f,){32}l}},l,l,l,r,0,1,{{.*}},31"
  // CHECK-NOT: wgmma
  func.func @wgmma_f16(%pa: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<f16>, #a>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<f16>, #a>) -> tensor<64x32xf16, #a>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #b>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f16>, #b>) -> tensor<32x64xf16, #b>
    %c0 = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #a>, tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    tile.store %c0, %d : tensor<64x64x!tile.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}

// -----

// tf32 operands are stored K-major (b transposed on the way), with no
// transpose immediates; int8 products use the s32 form without scales.
#a = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8]>
#mma8 = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 32]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 16384 : i32} {
  // CHECK-LABEL: llvm.func @wgmma_tf32
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, $32, $33, p, 1, 1;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, $34, $35, p, 1, 1;\0A
  func.func @wgmma_tf32(%pa: !tile.ptr<f32>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<64x16x!tile.ptr<f32>, #a>
    %a = tile.load %a0 : (tensor<64x16x!tile.ptr<f32>, #a>) -> tensor<64x16xf32, #a>
    %b0 = tile.splat %pa : tensor<16x64x!tile.ptr<f32>, #a>
    %b = tile.load %b0 : (tensor<16x64x!tile.ptr<f32>, #a>) -> tensor<16x64xf32, #a>
    %c0 = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision tf32>} : tensor<64x16xf32, #a>, tensor<16x64xf32, #a> -> tensor<64x64xf32, #mma>
    tile.store %c0, %d : tensor<64x64x!tile.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
  // CHECK-LABEL: llvm.func @wgmma_i8
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 {{.*}}, $32, $33, p;\0A
  func.func @wgmma_i8(%pa: !tile.ptr<i8>, %pc: !tile.ptr<i32>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<i8>, #a>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<i8>, #a>) -> tensor<64x32xi8, #a>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<i8>, #a>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<i8>, #a>) -> tensor<32x64xi8, #a>
    %c0 = tile.splat %pc : tensor<64x64x!tile.ptr<i32>, #mma8>
    %z = arith.constant dense<0> : tensor<64x64xi32, #mma8>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xi8, #a>, tensor<32x64xi8, #a> -> tensor<64x64xi32, #mma8>
    tile.store %c0, %d : tensor<64x64x!tile.ptr<i32>, #mma8>, tensor<64x64xi32, #mma8>
    return
  }
  // uint8 operands: the same product with .u8 operand types.
  // CHECK-LABEL: llvm.func @wgmma_u8
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k32.s32.u8.u8 {{.*}}, $32, $33, p;\0A
  func.func @wgmma_u8(%pa: !tile.ptr<i8>, %pc: !tile.ptr<i32>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<i8>, #a>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<i8>, #a>) -> tensor<64x32xi8, #a>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<i8>, #a>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<i8>, #a>) -> tensor<32x64xi8, #a>
    %c0 = tile.splat %pc : tensor<64x64x!tile.ptr<i32>, #mma8>
    %z = arith.constant dense<0> : tensor<64x64xi32, #mma8>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision tf32>, unsignedOperands} : tensor<64x32xi8, #a>, tensor<32x64xi8, #a> -> tensor<64x64xi32, #mma8>
    tile.store %c0, %d : tensor<64x64x!tile.ptr<i32>, #mma8>, tensor<64x64xi32, #mma8>
    return
  }
}

// -----

// An A whose threads hold wgmma's A fragments (the layout of an accumulator
// 16 columns wide, as tile-remove-layout-conversions gives a decoded
// microscaled lhs) is given from registers: only b is stored, at offset 0
// (tile.shared: b's 4096 bytes), and each K step reads four registers of A.
#f = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]>
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @wgmma_a_registers
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;"
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, {$37, $38, $39, $40}, $41, p, 1, 1, 1;\0A
  func.func @wgmma_a_registers(%pa: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<f16>, #f>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<f16>, #f>) -> tensor<64x32xf16, #f>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #b>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f16>, #b>) -> tensor<32x64xf16, #b>
    %c0 = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16, #f>, tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    tile.store %c0, %d : tensor<64x64x!tile.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}
