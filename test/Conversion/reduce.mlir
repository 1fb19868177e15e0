// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// A 1-D sum over 4 warps: in-thread adds, a butterfly over the 5 lane bits,
// then one slot per warp through shared memory between two barriers; lane
// l reads slot l mod 4 and a butterfly over lane bits 0-1 combines them.
#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 16 : i32} {
  // CHECK-LABEL: llvm.func @sum_1d
  // CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-DAG: %[[CLAMP:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK-COUNT-7: llvm.fadd
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]], %[[CLAMP]] : f32 -> f32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C2]], %[[CLAMP]] : f32 -> f32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]], %[[CLAMP]] : f32 -> f32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C8]], %[[CLAMP]] : f32 -> f32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]], %[[CLAMP]] : f32 -> f32
  // CHECK: nvvm.barrier0
  // CHECK: llvm.getelementptr %[[SMEM]]
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: llvm.and %{{.*}}, %[[C3]] : i32
  // CHECK: %[[SLOT:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: llvm.load
  // CHECK: %[[S1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[SLOT]], %[[C2]], %[[CLAMP]] : f32 -> f32
  // CHECK: %[[A1:.*]] = llvm.fadd %[[SLOT]], %[[S1]] : f32
  // CHECK: %[[S2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[A1]], %[[C1]], %[[CLAMP]] : f32 -> f32
  // CHECK: llvm.fadd %[[A1]], %[[S2]] : f32
  // CHECK-NOT: llvm.load
  func.func @sum_1d(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #d1>
    %x = tile.load %ps : (tensor<1024x!tile.ptr<f32>, #d1>) -> tensor<1024xf32, #d1>
    %s = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<1024xf32, #d1> -> f32
    tile.store %p, %s : !tile.ptr<f32>, f32
    return
  }
}

// -----

// Rows of 64 spread over 16 lanes: shuffles over lane bits 0-3 only, no
// shared memory. argmax carries (value, index) pairs, prefers the earlier
// index on ties and lets numbers win over NaNs.
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @argmax_rows
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.fcmp "ogt"
  // CHECK: llvm.fcmp "oeq"
  // CHECK: llvm.icmp "slt"
  // CHECK: llvm.fcmp "uno"
  // CHECK: llvm.select %{{.*}} : i1, f32
  // CHECK: llvm.select %{{.*}} : i1, i32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C8]], %{{.*}} : f32 -> f32
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C8]], %{{.*}} : i32 -> i32
  // CHECK-NOT: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]]
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @argmax_rows(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #d2>
    %x = tile.load %ps : (tensor<64x64x!tile.ptr<f32>, #d2>) -> tensor<64x64xf32, #d2>
    %a = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind argmax>} : tensor<64x64xf32, #d2> -> tensor<64xi32, #tile.slice<dim = 1, parent = #d2>>
    %qs = tile.splat %q : tensor<64x!tile.ptr<i32>, #tile.slice<dim = 1, parent = #d2>>
    tile.store %qs, %a : tensor<64x!tile.ptr<i32>, #tile.slice<dim = 1, parent = #d2>>, tensor<64xi32, #tile.slice<dim = 1, parent = #d2>>
    return
  }
}

// -----

// Columns of a tile whose rows are split over 2 lanes and 4 warps: one
// shuffle, then 4 warp slots per column in shared memory. Integer max is
// signed.
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 1024 : i32} {
  // CHECK-LABEL: llvm.func @max_columns
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.intr.smax
  // CHECK: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C16]], %{{.*}} : i32 -> i32
  // CHECK: llvm.intr.smax
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.intr.smax
  func.func @max_columns(%p: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<i32>, #d2>
    %x = tile.load %ps : (tensor<64x64x!tile.ptr<i32>, #d2>) -> tensor<64x64xi32, #d2>
    %m = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind max>} : tensor<64x64xi32, #d2> -> tensor<64xi32, #tile.slice<dim = 0, parent = #d2>>
    %qs = tile.splat %p : tensor<64x!tile.ptr<i32>, #tile.slice<dim = 0, parent = #d2>>
    tile.store %qs, %m : tensor<64x!tile.ptr<i32>, #tile.slice<dim = 0, parent = #d2>>, tensor<64xi32, #tile.slice<dim = 0, parent = #d2>>
    return
  }
}

// -----

// Float max and min follow maxnum/minnum.
#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @minmax
  // CHECK: llvm.intr.maxnum
  // CHECK: llvm.intr.minnum
  func.func @minmax(%p: !tile.ptr<f16>) {
    %ps = tile.splat %p : tensor<128x!tile.ptr<f16>, #d1>
    %x = tile.load %ps : (tensor<128x!tile.ptr<f16>, #d1>) -> tensor<128xf16, #d1>
    %a = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind max>} : tensor<128xf16, #d1> -> f16
    %b = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind min>} : tensor<128xf16, #d1> -> f16
    %s = arith.addf %a, %b : f16
    tile.store %p, %s : !tile.ptr<f16>, f16
    return
  }
}

// -----

// A combine_reduce of (value, index) pairs over 2 warps: the region is
// inlined at every combination (the compare and two selects), both values
// of a partial take each shuffle, and across warps each has its own
// 16-byte-aligned buffer (values at 0, indices at 16).
#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 2 : i32, tile.shared = 32 : i32} {
  // CHECK-LABEL: llvm.func @first_max
  // CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-COUNT-3: llvm.fcmp "ogt"
  // CHECK: %[[V:.*]] = nvvm.shfl.sync bfly %{{.*}} : f32 -> f32
  // CHECK-NEXT: %[[I:.*]] = nvvm.shfl.sync bfly %{{.*}} : i32 -> i32
  // CHECK-NEXT: %[[GT:.*]] = llvm.fcmp "ogt" %{{.*}}, %[[V]] : f32
  // CHECK-NEXT: llvm.select %[[GT]], %{{.*}}, %[[V]] : i1, f32
  // CHECK-NEXT: llvm.select %[[GT]], %{{.*}}, %[[I]] : i1, i32
  // CHECK-COUNT-4: nvvm.shfl.sync bfly %{{.*}} : i32 -> i32
  // CHECK: %[[IDX:.*]] = llvm.getelementptr %[[SMEM]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: llvm.getelementptr %[[IDX]][
  // CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NEXT: llvm.getelementptr %[[IDX]][
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: llvm.fcmp "ogt"
  func.func @first_max(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<256x!tile.ptr<f32>, #d1>
    %x = tile.load %ps : (tensor<256x!tile.ptr<f32>, #d1>) -> tensor<256xf32, #d1>
    %i = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #d1>
    %v, %k = tile.combine_reduce %x, %i {axis = 0 : i32} : (tensor<256xf32, #d1>, tensor<256xi32, #d1>) -> (f32, i32) {
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %vm = arith.select %gt, %v0, %v1 : f32
      %im = arith.select %gt, %i0, %i1 : i32
      tile.combine_yield %vm, %im : f32, i32
    }
    tile.store %p, %v : !tile.ptr<f32>, f32
    tile.store %q, %k : !tile.ptr<i32>, i32
    return
  }
}
