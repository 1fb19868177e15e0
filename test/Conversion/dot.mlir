// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// The FMA path: a (as aT[k][m]) and b (as b[k][n]) are staged in shared
// memory between barriers, b 16-byte aligned after a; then a loop over k
// carries the 8 accumulator registers, loading a for the thread's 2
// distinct rows and b for its 4 distinct columns (consecutive: one vector),
// extended to f32.
#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#c = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 2048 : i32} {
  // CHECK-LABEL: llvm.func @dot_f16
  // CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-DAG: %[[K:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: %[[B:.*]] = llvm.getelementptr %[[SMEM]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
  // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.br ^[[HEADER:.*]](%{{.*}} : i32, f32, f32, f32, f32, f32, f32, f32, f32)
  // CHECK: ^[[HEADER]](%[[KV:.*]]: i32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
  // CHECK: %[[MORE:.*]] = llvm.icmp "slt" %[[KV]], %[[K]] : i32
  // CHECK: llvm.cond_br %[[MORE]], ^[[BODY:.*]], ^[[EXIT:.*]]
  // CHECK: ^[[BODY]]:
  // CHECK-COUNT-2: llvm.fpext %{{.*}} : f16 to f32
  // CHECK: llvm.getelementptr %[[B]]
  // CHECK-COUNT-8: llvm.intr.fma
  // CHECK: llvm.br ^[[HEADER]]
  // CHECK: ^[[EXIT]]:
  func.func @dot_f16(%pa: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<32x16x!tile.ptr<f16>, #a>
    %a = tile.load %a0 : (tensor<32x16x!tile.ptr<f16>, #a>) -> tensor<32x16xf16, #a>
    %b0 = tile.splat %pa : tensor<16x32x!tile.ptr<f16>, #a>
    %b = tile.load %b0 : (tensor<16x32x!tile.ptr<f16>, #a>) -> tensor<16x32xf16, #a>
    %c0 = tile.splat %pc : tensor<32x32x!tile.ptr<f32>, #c>
    %c = tile.load %c0 : (tensor<32x32x!tile.ptr<f32>, #c>) -> tensor<32x32xf32, #c>
    %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<32x16xf16, #a>, tensor<16x32xf16, #a> -> tensor<32x32xf32, #c>
    tile.store %c0, %d : tensor<32x32x!tile.ptr<f32>, #c>, tensor<32x32xf32, #c>
    return
  }
}

// -----

// Integer products: i8 operands sign-extended, multiplied and added in i32.
// tf32 is computed as ieee on this path.
#c = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 2048 : i32} {
  // CHECK-LABEL: llvm.func @dot_i8
  // CHECK: llvm.sext %{{.*}} : i8 to i32
  // CHECK: llvm.mul %{{.*}} : i32
  // CHECK: llvm.add %{{.*}} : i32
  // CHECK-NOT: llvm.intr.fma
  func.func @dot_i8(%pa: !tile.ptr<i8>, %pc: !tile.ptr<i32>) {
    %a0 = tile.splat %pa : tensor<32x32x!tile.ptr<i8>, #c>
    %a = tile.load %a0 : (tensor<32x32x!tile.ptr<i8>, #c>) -> tensor<32x32xi8, #c>
    %c0 = tile.splat %pc : tensor<32x32x!tile.ptr<i32>, #c>
    %z = arith.constant dense<0> : tensor<32x32xi32, #c>
    %d = tile.dot %a, %a, %z {inputPrecision = #tile<input_precision tf32>} : tensor<32x32xi8, #c>, tensor<32x32xi8, #c> -> tensor<32x32xi32, #c>
    tile.store %c0, %d : tensor<32x32x!tile.ptr<i32>, #c>, tensor<32x32xi32, #c>
    return
  }
  // uint8 operands are zero-extended.
  // CHECK-LABEL: llvm.func @dot_u8
  // CHECK-NOT: llvm.sext
  // CHECK: llvm.zext %{{.*}} : i8 to i32
  // CHECK: llvm.mul %{{.*}} : i32
  func.func @dot_u8(%pa: !tile.ptr<i8>, %pc: !tile.ptr<i32>) {
    %a0 = tile.splat %pa : tensor<32x32x!tile.ptr<i8>, #c>
    %a = tile.load %a0 : (tensor<32x32x!tile.ptr<i8>, #c>) -> tensor<32x32xi8, #c>
    %c0 = tile.splat %pc : tensor<32x32x!tile.ptr<i32>, #c>
    %z = arith.constant dense<0> : tensor<32x32xi32, #c>
    %d = tile.dot %a, %a, %z {inputPrecision = #tile<input_precision tf32>, unsignedOperands} : tensor<32x32xi8, #c>, tensor<32x32xi8, #c> -> tensor<32x32xi32, #c>
    tile.store %c0, %d : tensor<32x32x!tile.ptr<i32>, #c>, tensor<32x32xi32, #c>
    return
  }
}

// -----

// An accumulator in 4 x 4 blocks per thread (the FMA layout of
// tile-assign-layouts): the 4 distinct rows of a thread are consecutive in
// aT[k][m] and its 4 columns in b[k][n], starting at multiples of 4 in every
// thread, so each k step loads one 16-byte vector of each for 16
// multiply-adds.
#a = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#c = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 8192 : i32} {
  // CHECK-LABEL: llvm.func @dot_blocks
  // CHECK: llvm.cond_br %{{.*}}, ^[[BODY:.*]], ^{{.*}}
  // CHECK: ^[[BODY]]:
  // CHECK-NOT: llvm.load
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
  // CHECK-NOT: llvm.load
  // CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
  // CHECK-NOT: llvm.load
  // CHECK-COUNT-16: llvm.intr.fma
  // CHECK-NOT: llvm.load
  // CHECK: llvm.br
  func.func @dot_blocks(%pa: !tile.ptr<f32>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<64x16x!tile.ptr<f32>, #a>
    %a = tile.load %a0 : (tensor<64x16x!tile.ptr<f32>, #a>) -> tensor<64x16xf32, #a>
    %b0 = tile.splat %pa : tensor<16x32x!tile.ptr<f32>, #a>
    %b = tile.load %b0 : (tensor<16x32x!tile.ptr<f32>, #a>) -> tensor<16x32xf32, #a>
    %c0 = tile.splat %pc : tensor<64x32x!tile.ptr<f32>, #c>
    %z = arith.constant dense<0.0> : tensor<64x32xf32, #c>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x16xf32, #a>, tensor<16x32xf32, #a> -> tensor<64x32xf32, #c>
    tile.store %c0, %d : tensor<64x32x!tile.ptr<f32>, #c>, tensor<64x32xf32, #c>
    return
  }
}
