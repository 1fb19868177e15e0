// RUN: tilec-opt %s -split-input-file -tile-allocate-shared-memory -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// The mbarriers and turns of a ping-pong loop (tile-pipeline's deferred
// product, 8 warps). tile.barrier_alloc initializes each mbarrier for its
// `arrivals` (256 threads; 8 warps). tile.async_copy_arrive: every thread's
// copies arrive on mbarrier `index` when they land
// (cp.async.mbarrier.arrive.noinc; the address is the allocation's plus 8 *
// index). tile.barrier_arrive: after a warp sync, lane 0 of each warp
// arrives. Turns: warp group 1 (thread id / 128) starts the cycle by
// arriving on warp group 0's named barrier 1; warp group k syncs on barrier
// k + 1 and arrives on the other's; to end, warp group 0 syncs on barrier 1.
module attributes {tile.num_warps = 8 : i32} {
  // CHECK-LABEL: llvm.func @ping_pong(
  // CHECK-SAME: %[[I:[^:]*]]: i32)
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK-DAG: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p mbarrier.init.shared::cta.b64 [$1+0], 256;\0A@p mbarrier.init.shared::cta.b64 [$1+8], 256;\0A}"
  // CHECK: "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p mbarrier.init.shared::cta.b64 [$1+0], 8;\0A@p mbarrier.init.shared::cta.b64 [$1+8], 8;\0A}"
  // CHECK: %[[OFF:.*]] = llvm.mul %[[I]], %[[C8]] : i32
  // CHECK-NEXT: %[[FULL:.*]] = llvm.add %{{.*}}, %[[OFF]] : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];", "r" %[[FULL]] : (i32) -> ()
  // CHECK: %[[LANE:.*]] = llvm.and %[[TID:.*]], %[[C31]] : i32
  // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Abar.warp.sync -1;\0Asetp.eq.b32 p, $0, 0;\0A@p mbarrier.arrive.shared::cta.b64 _, [$1];\0A}", "r,r" %[[LANE]], %{{.*}} : (i32, i32) -> ()
  // CHECK: %[[WG:.*]] = llvm.lshr %[[TID]], %[[C7]] : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.eq.b32 p, $0, 1;\0A@p bar.arrive 1, 256;\0A}", "r" %[[WG]] : (i32) -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.eq.b32 p, $0, 0;\0A@p bar.sync 1, 256;\0Asetp.eq.b32 p, $0, 1;\0A@p bar.sync 2, 256;\0A}", "r" %[[WG]] : (i32) -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.eq.b32 p, $0, 0;\0A@p bar.arrive 2, 256;\0Asetp.eq.b32 p, $0, 1;\0A@p bar.arrive 1, 256;\0A}", "r" %[[WG]] : (i32) -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.eq.b32 p, $0, 0;\0A@p bar.sync 1, 256;\0A}", "r" %[[WG]] : (i32) -> ()
  func.func @ping_pong(%i: i32) {
    %full = tile.barrier_alloc {arrivals = 256 : i32} : !tile.barriers<2>
    %empty = tile.barrier_alloc {arrivals = 8 : i32} : !tile.barriers<2>
    tile.async_copy_arrive %full[%i] : !tile.barriers<2>
    tile.barrier_arrive %empty[%i] : !tile.barriers<2>
    tile.start_turns
    tile.await_turn
    tile.pass_turn
    tile.end_turns
    tile.barrier_invalidate %full : !tile.barriers<2>
    tile.barrier_invalidate %empty : !tile.barriers<2>
    return
  }
}

// -----

// Four warp groups (16 warps) take turns in a cycle of four barriers.
module attributes {tile.num_warps = 16 : i32} {
  // CHECK-LABEL: llvm.func @four(
  // CHECK: "{\0A.reg .pred p;\0Asetp.eq.b32 p, $0, 3;\0A@p bar.arrive 1, 256;\0A}"
  // CHECK-NEXT: "{\0A.reg .pred p;\0Asetp.eq.b32 p, $0, 0;\0A@p bar.sync 1, 256;\0Asetp.eq.b32 p, $0, 1;\0A@p bar.sync 2, 256;\0Asetp.eq.b32 p, $0, 2;\0A@p bar.sync 3, 256;\0Asetp.eq.b32 p, $0, 3;\0A@p bar.sync 4, 256;\0A}"
  // CHECK-NEXT: "{\0A.reg .pred p;\0Asetp.eq.b32 p, $0, 0;\0A@p bar.arrive 2, 256;\0Asetp.eq.b32 p, $0, 1;\0A@p bar.arrive 3, 256;\0Asetp.eq.b32 p, $0, 2;\0A@p bar.arrive 4, 256;\0Asetp.eq.b32 p, $0, 3;\0A@p bar.arrive 1, 256;\0A}"
  func.func @four() {
    tile.start_turns
    tile.await_turn
    tile.pass_turn
    return
  }
}

// -----

// One warp group takes no turns: the three ops vanish.
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @alone(
  // CHECK-NOT: bar.
  // CHECK: llvm.return
  func.func @alone() {
    tile.start_turns
    tile.await_turn
    tile.pass_turn
    return
  }
}
