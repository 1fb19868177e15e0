// RUN: tilec-opt %s -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// A tile in a #tile.linear layout: each coordinate is the xor of the bases
// of the lane (and warp) bits that are set, each bit's basis masked in as
// 0 - ((lane >> bit) & 1); a register's part is xor-ed in last. Here
// register bit 0 moves 1 and lane bits 0..4 move 2, 4, 8, 16, 32: lane l
// holds elements 2l and 2l + 1.
#l = #tile.linear<shape = [64], registers = [[1]], lanes = [[2], [4], [8], [16], [32]], warps = []>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @linear_range
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
  // CHECK: %[[B0:.*]] = llvm.and %[[LANE]], %[[ONE:.*]] : i32
  // CHECK: %[[S0:.*]] = llvm.sub %{{.*}}, %[[B0]] : i32
  // CHECK: %[[T0:.*]] = llvm.and %[[S0]], %{{.*}} : i32
  // CHECK: %[[H1:.*]] = llvm.lshr %[[LANE]], %[[ONE]] : i32
  // CHECK: llvm.xor %[[T0]], %{{.*}} : i32
  // CHECK-COUNT-3: llvm.xor
  // CHECK: %[[R1:.*]] = llvm.xor %[[X:.*]], %[[ONE]] : i32
  // CHECK-COUNT-2: st.global.b32
  func.func @linear_range(%p: !tile.ptr<i32>) {
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #l>
    %ps = tile.splat %p : tensor<64x!tile.ptr<i32>, #l>
    %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<i32>, #l>, tensor<64xi32, #l>
    tile.store %pp, %r : tensor<64x!tile.ptr<i32>, #l>, tensor<64xi32, #l>
    return
  }
}
