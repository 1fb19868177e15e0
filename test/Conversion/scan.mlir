// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// An inclusive cumsum over 4 registers, 32 lanes and 2 warps: register
// steps, one shuffle per lane bit (positions with the bit set add the
// partner's total), then the warp bit through shared memory.
#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 2 : i32, tile.shared = 1024 : i32} {
  // CHECK-LABEL: llvm.func @cumsum
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]], %{{.*}} : i32 -> i32
  // CHECK: llvm.icmp "ne"
  // CHECK: llvm.select
  // CHECK-COUNT-3: nvvm.shfl.sync bfly
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]], %{{.*}} : i32 -> i32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.xor %{{.*}}, %[[C128]] : i32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  func.func @cumsum(%p: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<256x!tile.ptr<i32>, #d1>
    %x = tile.load %ps : (tensor<256x!tile.ptr<i32>, #d1>) -> tensor<256xi32, #d1>
    %s = tile.scan %x {axis = 0 : i32, reverse = false} : tensor<256xi32, #d1>
    tile.store %ps, %s : tensor<256x!tile.ptr<i32>, #d1>, tensor<256xi32, #d1>
    return
  }
}

// -----

// A reverse scan along rows held within one warp: no shared memory, and the
// partner total is added where the position bit is clear.
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @reverse_rows
  // CHECK: llvm.fadd
  // CHECK: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
  // CHECK: llvm.icmp "eq"
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @reverse_rows(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<16x32x!tile.ptr<f32>, #d2>
    %x = tile.load %ps : (tensor<16x32x!tile.ptr<f32>, #d2>) -> tensor<16x32xf32, #d2>
    %s = tile.scan %x {axis = 1 : i32, reverse = true} : tensor<16x32xf32, #d2>
    tile.store %ps, %s : tensor<16x32x!tile.ptr<f32>, #d2>, tensor<16x32xf32, #d2>
    return
  }
}

// -----

// A product scan combines with multiplications where a sum adds.
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @cumprod_rows
  // CHECK-NOT: llvm.fadd
  // CHECK: llvm.fmul
  // CHECK: nvvm.shfl.sync bfly {{.*}} : f32 -> f32
  // CHECK: llvm.fmul
  // CHECK-NOT: llvm.fadd
  // CHECK: llvm.return
  func.func @cumprod_rows(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<16x32x!tile.ptr<f32>, #d2>
    %x = tile.load %ps : (tensor<16x32x!tile.ptr<f32>, #d2>) -> tensor<16x32xf32, #d2>
    %s = tile.scan %x {axis = 1 : i32, kind = #tile<scan_kind prod>, reverse = false} : tensor<16x32xf32, #d2>
    tile.store %ps, %s : tensor<16x32x!tile.ptr<f32>, #d2>, tensor<16x32xf32, #d2>
    return
  }
}
