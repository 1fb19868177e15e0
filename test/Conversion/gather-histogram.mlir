// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// tl.gather: the source staged in shared memory between barriers (each
// thread's four consecutive elements in one vector), each index clamped to
// the axis and read from its row.
#rows = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#idx = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @gather
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: %[[LOW:.*]] = llvm.icmp "slt" %{{.*}}, %{{.*}} : i32
  // CHECK: %[[I:.*]] = llvm.select %[[LOW]], %{{.*}}, %{{.*}} : i1, i32
  // CHECK: %[[HIGH:.*]] = llvm.icmp "sgt" %[[I]], %{{.*}} : i32
  // CHECK: llvm.select %[[HIGH]], %{{.*}}, %[[I]] : i1, i32
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @gather(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<16x32x!tile.ptr<f32>, #rows>
    %x = tile.load %ps : (tensor<16x32x!tile.ptr<f32>, #rows>) -> tensor<16x32xf32, #rows>
    %qs = tile.splat %q : tensor<16x8x!tile.ptr<i32>, #idx>
    %i = tile.load %qs : (tensor<16x8x!tile.ptr<i32>, #idx>) -> tensor<16x8xi32, #idx>
    %g = tile.gather %x[%i] {axis = 1 : i32} : (tensor<16x32xf32, #rows>, tensor<16x8xi32, #idx>) -> tensor<16x8xf32, #idx>
    %os = tile.splat %p : tensor<16x8x!tile.ptr<f32>, #idx>
    tile.store %os, %g : tensor<16x8x!tile.ptr<f32>, #idx>, tensor<16x8xf32, #idx>
    return
  }
}

// -----

// tl.histogram: the bins zeroed, then one predicated red.shared.add a value
// (in range, not masked off, owned by the thread), then the bins read back.
#vals = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#bins = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @histogram
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-DAG: llvm.icmp "sge" %{{.*}}, %{{.*}} : i64
  // CHECK-DAG: llvm.icmp "slt" %{{.*}}, %{{.*}} : i64
  // CHECK: llvm.inline_asm has_side_effects "@$0 red.shared.add.u32 [$1], 1;", "b,r"
  // CHECK: llvm.inline_asm has_side_effects "@$0 red.shared.add.u32 [$1], 1;", "b,r"
  // CHECK-NOT: red.shared
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  func.func @histogram(%p: !tile.ptr<i32>, %q: !tile.ptr<i32>) {
    %ps = tile.splat %p : tensor<256x!tile.ptr<i32>, #vals>
    %x = tile.load %ps : (tensor<256x!tile.ptr<i32>, #vals>) -> tensor<256xi32, #vals>
    %true = arith.constant true
    %m = tile.splat %true : tensor<256xi1, #vals>
    %h = tile.histogram %x, %m : (tensor<256xi32, #vals>, tensor<256xi1, #vals>) -> tensor<128xi32, #bins>
    %qs = tile.splat %q : tensor<128x!tile.ptr<i32>, #bins>
    tile.store %qs, %h : tensor<128x!tile.ptr<i32>, #bins>, tensor<128xi32, #bins>
    return
  }
}
