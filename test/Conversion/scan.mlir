// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// An inclusive cumsum over 4 registers, 32 lanes and 2 warps: each thread
// sums its run of 4 in order; only the run totals cross the lane bits (one
// shuffle each, gathering the sum of the runs before) and the warp bit (one
// store a thread through shared memory); then that sum goes in front of
// every element of the run.
#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 2 : i32, tile.shared = 1024 : i32} {
  // CHECK-LABEL: llvm.func @cumsum
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK: %[[X0:.*]] = llvm.extractelement %{{.*}} : vector<1xi32>
  // CHECK: %[[S1:.*]] = llvm.add %[[X0]], %{{.*}} : i32
  // CHECK-NEXT: %[[S2:.*]] = llvm.add %[[S1]], %{{.*}} : i32
  // CHECK-NEXT: %[[T:.*]] = llvm.add %[[S2]], %{{.*}} : i32
  // CHECK-NEXT: nvvm.shfl.sync bfly %{{.*}}, %[[T]], %[[C1]], %{{.*}} : i32 -> i32
  // CHECK-COUNT-3: nvvm.shfl.sync bfly
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]], %{{.*}} : i32 -> i32
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: llvm.xor %{{.*}}, %[[C128]] : i32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: %[[VALID:.*]] = llvm.or
  // CHECK-NEXT: %[[Y0:.*]] = llvm.add %[[BEFORE:.*]], %[[X0]] : i32
  // CHECK-NEXT: llvm.select %[[VALID]], %[[Y0]], %[[X0]] : i1, i32
  // CHECK-NEXT: %[[Y1:.*]] = llvm.add %[[BEFORE]], %[[S1]] : i32
  // CHECK-NEXT: llvm.select %[[VALID]], %[[Y1]], %[[S1]] : i1, i32
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

// -----

// A combine_scan of (a, b) steps, which do not commute, on a layout whose
// register bit is the axis' highest (threads do not hold runs): every
// element keeps its prefix and its block's total. Across lanes the
// partner's total goes first where the lane bit is set (selects order the
// operands of the totals, and pick the combined prefix); in registers the
// lower position's total is the region's first operand.
#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @recurrence
  // CHECK: %[[SA:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[A0:.*]], %{{.*}}, %{{.*}} : f32 -> f32
  // CHECK-NEXT: %[[SB:.*]] = nvvm.shfl.sync bfly %{{.*}} : f32 -> f32
  // CHECK: %[[FIRST:.*]] = llvm.icmp "ne"
  // CHECK-NEXT: %[[PA:.*]] = llvm.fmul %[[SA]], %[[A0]] : f32
  // CHECK: llvm.select %[[FIRST]], %[[PA]], %[[A0]] : i1, f32
  // CHECK: %[[LA:.*]] = llvm.select %[[FIRST]], %[[A0]], %[[SA]] : i1, f32
  // CHECK: %[[EA:.*]] = llvm.select %[[FIRST]], %[[SA]], %[[A0]] : i1, f32
  // CHECK: llvm.fmul %[[EA]], %[[LA]] : f32
  func.func @recurrence(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %a = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
    %b = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
    %ra, %rb = tile.combine_scan %a, %b {axis = 0 : i32, reverse = false} : (tensor<64xf32, #d1>, tensor<64xf32, #d1>) -> (tensor<64xf32, #d1>, tensor<64xf32, #d1>) {
    ^bb0(%a1: f32, %b1: f32, %a2: f32, %b2: f32):
      %aa = arith.mulf %a1, %a2 : f32
      %m = arith.mulf %b1, %a2 : f32
      %bb = arith.addf %m, %b2 : f32
      tile.combine_yield %aa, %bb : f32, f32
    }
    tile.store %ps, %rb : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
    return
  }
}

// -----

// A reverse cumsum whose axis has two warp bits on top (4 registers, 32
// lanes, 4 warps): after the shuffles, one barrier pair for both warp bits.
// Each warp block's total goes to shared memory at the block's first
// position (the axis coordinate with its 7 low bits cleared), and each
// thread combines the totals of the blocks after its own (a reverse scan
// runs from the end), in scan order: block 3 (element 384) if its block is
// below 3, then block 2 (256), then block 1 (128); block 0 precedes none.
#d4 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 2048 : i32} {
  // CHECK-LABEL: llvm.func @reverse_warp_blocks
  // CHECK-DAG: %[[C384:.*]] = llvm.mlir.constant(384 : i32) : i32
  // CHECK-DAG: %[[C256:.*]] = llvm.mlir.constant(256 : i32) : i32
  // CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-COUNT-5: nvvm.shfl.sync bfly
  // CHECK-NOT: nvvm.shfl.sync
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: %[[SHIFTED:.*]] = llvm.lshr %{{.*}}, %[[C7]] : i32
  // CHECK-NEXT: %[[BLOCK:.*]] = llvm.and %[[SHIFTED]], %[[C3]] : i32
  // CHECK-NEXT: %[[GROUP:.*]] = llvm.and
  // CHECK-NEXT: llvm.or %[[GROUP]], %[[C384]] : i32
  // CHECK: %[[T3:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[B3:.*]] = llvm.icmp "ult" %[[BLOCK]], %[[C3]] : i32
  // CHECK-NEXT: llvm.or %[[GROUP]], %[[C256]] : i32
  // CHECK: %[[T2:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[B2:.*]] = llvm.icmp "ult" %[[BLOCK]], %[[C2]] : i32
  // CHECK-NEXT: %[[S32:.*]] = llvm.add %[[T3]], %[[T2]] : i32
  // CHECK-NEXT: %[[U2:.*]] = llvm.select %[[B2]], %[[S32]], %[[T3]] : i1, i32
  // CHECK-NEXT: llvm.or %[[B3]], %[[B2]] : i1
  // CHECK-NEXT: llvm.or %[[GROUP]], %[[C128]] : i32
  // CHECK: %[[T1:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK-NEXT: %[[B1:.*]] = llvm.icmp "ult" %[[BLOCK]], %[[C1]] : i32
  // CHECK-NEXT: %[[S321:.*]] = llvm.add %[[U2]], %[[T1]] : i32
  // CHECK-NEXT: llvm.select %[[B1]], %[[S321]], %[[U2]] : i1, i32
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
  // CHECK: llvm.return
  func.func @reverse_warp_blocks(%p: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<512x!tile.ptr<i32>, #d4>
    %x = tile.load %ps : (tensor<512x!tile.ptr<i32>, #d4>) -> tensor<512xi32, #d4>
    %s = tile.scan %x {axis = 0 : i32, reverse = true} : tensor<512xi32, #d4>
    tile.store %ps, %s : tensor<512x!tile.ptr<i32>, #d4>, tensor<512xi32, #d4>
    return
  }
}

// -----

// Warp bits in the middle of the axis (4 registers, 32 lanes, 4 warps, the
// tile twice that: a register bit on top, as linear_recurrence's 1024 over
// 128 threads): one barrier pair for both warp bits, each half's four
// blocks stored (two stores a thread) and read back to give the blocks
// before and the half's total (seven loads: the upper half's total is not
// needed), then the register step of the top bit.
#d4 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @wrapped_warp_blocks
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-7: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
  // CHECK: llvm.return
  func.func @wrapped_warp_blocks(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #d4>
    %x = tile.load %ps : (tensor<1024x!tile.ptr<f32>, #d4>) -> tensor<1024xf32, #d4>
    %s = tile.scan %x {axis = 0 : i32, reverse = false} : tensor<1024xf32, #d4>
    tile.store %ps, %s : tensor<1024x!tile.ptr<f32>, #d4>, tensor<1024xf32, #d4>
    return
  }
}
