// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// The TMA side of a pipelined loop (sm_90a), as tile-pipeline makes it and
// tile-allocate-shared-memory places it. A tensor map is a kernel parameter
// passed by value: the generic address of a 128-byte, 64-byte aligned
// __grid_constant__ parameter (llvm.byval, llvm.align, nvvm.grid_constant on
// that parameter only). tile.barrier_alloc is a barrier (the bytes may have
// been scratch before), one thread initializing each 8-byte mbarrier at the
// allocation's offset for one arrival per phase, fence.mbarrier_init and
// another barrier. tile.cta_barrier is a barrier. tile.barrier_expect: the
// thread 0 where the predicate holds arrives on mbarrier `index` (its
// address: the allocation's plus 8 * index) expecting the stage's bytes.
// tile.async_tma_copy: the same thread issues one cp.async.bulk.tensor per
// swizzle-wide panel of the slot, innermost coordinate first, completing on
// the same mbarrier: a 64x64 fp16 slot with a 128-byte swizzle is one panel
// (one copy at {k, m}); a 32x128 fp16 slot two panels of 32 rows x 128
// bytes, the second 4096 bytes further and 64 elements further along the
// inner coordinate. tile.barrier_wait: every thread spins on
// mbarrier.try_wait.parity, with a label made unique per asm instance
// (${:uid}) so that the loop may be duplicated.
#s128 = #tile.shared<contiguousDim = 1, swizzle = 128>
module attributes {tile.num_warps = 4 : i32, tile.shared = 32784 : i32} {
  // CHECK-LABEL: llvm.func @tma(
  // CHECK-SAME: %arg0: !llvm.ptr<1>,
  // CHECK-SAME: %[[MAPA:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
  // CHECK-SAME: %[[MAPB:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
  // CHECK-SAME: %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32, %[[I:[^:]*]]: i32, %[[VALID:[^:]*]]: i1, %[[PHASE:[^:]*]]: i32)
  // CHECK-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>}
  // CHECK-DAG: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK-DAG: %[[C4096:.*]] = llvm.mlir.constant(4096 : i32) : i32
  // CHECK-DAG: %[[C8192:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: %[[RB:.*]] = llvm.getelementptr %[[SMEM]][16384] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[BARS:.*]] = llvm.getelementptr %[[SMEM]][32768] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // tile.barrier_alloc
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK-NEXT: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %[[C0]] : i32
  // CHECK-NEXT: %[[FIRSTI:.*]] = llvm.zext %[[FIRST]] : i1 to i32
  // CHECK-NEXT: %[[BARADDR:.*]] = llvm.ptrtoint %[[BARS]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p mbarrier.init.shared::cta.b64 [$1+0], 1;\0A@p mbarrier.init.shared::cta.b64 [$1+8], 1;\0A}", "r,r" %[[FIRSTI]], %[[BARADDR]] : (i32, i32) -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects "fence.mbarrier_init.release.cluster;", ""  : () -> ()
  // CHECK-NEXT: nvvm.barrier0
  // tile.cta_barrier
  // CHECK-NEXT: nvvm.barrier0
  // tile.barrier_expect
  // CHECK-NEXT: %[[P:.*]] = llvm.and %[[FIRST]], %[[VALID]] : i1
  // CHECK-NEXT: %[[PI:.*]] = llvm.zext %[[P]] : i1 to i32
  // CHECK-NEXT: %[[BAROFF:.*]] = llvm.mul %[[I]], %[[C8]] : i32
  // CHECK-NEXT: %[[BAR:.*]] = llvm.add %[[BARADDR]], %[[BAROFF]] : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 16384;\0A}", "r,r" %[[PI]], %[[BAR]] : (i32, i32) -> ()
  // A: slot i of the ring at 0, one panel.
  // CHECK-NEXT: %[[SLOTOFF:.*]] = llvm.mul %[[I]], %[[C8192]] : i32
  // CHECK-NEXT: %[[SA:.*]] = llvm.getelementptr %[[SMEM]][%[[SLOTOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[SAI:.*]] = llvm.ptrtoint %[[SA]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: %[[DA:.*]] = llvm.add %[[SAI]], %[[C0]] : i32
  // CHECK-NEXT: %[[KA:.*]] = llvm.add %[[K]], %[[C0]] : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];\0A}", "r,r,l,r,r,r" %[[PI]], %[[DA]], %[[MAPA]], %[[KA]], %[[M]], %[[BAR]] : (i32, i32, !llvm.ptr, i32, i32, i32) -> ()
  // B: slot i of the ring at 16384, two panels.
  // CHECK-NEXT: %[[SB:.*]] = llvm.getelementptr %[[RB]][%[[SLOTOFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[SBI:.*]] = llvm.ptrtoint %[[SB]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: %[[DB0:.*]] = llvm.add %[[SBI]], %[[C0]] : i32
  // CHECK-NEXT: %[[MB0:.*]] = llvm.add %[[M]], %[[C0]] : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];\0A}", "r,r,l,r,r,r" %[[PI]], %[[DB0]], %[[MAPB]], %[[MB0]], %[[K]], %[[BAR]] : (i32, i32, !llvm.ptr, i32, i32, i32) -> ()
  // CHECK-NEXT: %[[DB1:.*]] = llvm.add %[[SBI]], %[[C4096]] : i32
  // CHECK-NEXT: %[[MB1:.*]] = llvm.add %[[M]], %[[C64]] : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5];\0A}", "r,r,l,r,r,r" %[[PI]], %[[DB1]], %[[MAPB]], %[[MB1]], %[[K]], %[[BAR]] : (i32, i32, !llvm.ptr, i32, i32, i32) -> ()
  // tile.barrier_wait
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred done;\0Atilec_wait_${:uid}:\0Ambarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\0A@!done bra tilec_wait_${:uid};\0A}", "r,r" %[[BAR]], %[[PHASE]] : (i32, i32) -> ()
  // tile.barrier_invalidate: a barrier, then thread 0 invalidates both.
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p mbarrier.inval.shared::cta.b64 [$1+0];\0A@p mbarrier.inval.shared::cta.b64 [$1+8];\0A}", "r,r"
  // CHECK-NEXT: llvm.return
  func.func @tma(%pa: !tile.ptr<f16>, %mapa: !tile.tensormap, %mapb: !tile.tensormap, %m: i32, %k: i32, %i: i32, %valid: i1, %phase: i32) {
    %ra = tile.local_alloc {offset = 0 : i64} : !tile.smem<2x64x64xf16, #s128>
    %rb = tile.local_alloc {offset = 16384 : i64} : !tile.smem<2x32x128xf16, #s128>
    %bars = tile.barrier_alloc {offset = 32768 : i64} : !tile.barriers<2>
    tile.cta_barrier
    tile.barrier_expect %bars[%i], %valid {bytes = 16384 : i32} : !tile.barriers<2>
    %sa = tile.smem_slot %ra[%i] : !tile.smem<2x64x64xf16, #s128> -> !tile.smem<64x64xf16, #s128>
    tile.async_tma_copy %mapa[%m, %k], %sa, %bars[%i], %valid : !tile.tensormap, !tile.smem<64x64xf16, #s128>, !tile.barriers<2>
    %sb = tile.smem_slot %rb[%i] : !tile.smem<2x32x128xf16, #s128> -> !tile.smem<32x128xf16, #s128>
    tile.async_tma_copy %mapb[%k, %m], %sb, %bars[%i], %valid : !tile.tensormap, !tile.smem<32x128xf16, #s128>, !tile.barriers<2>
    tile.barrier_wait %bars[%i], %phase : !tile.barriers<2>
    tile.barrier_invalidate %bars : !tile.barriers<2>
    return
  }
}

// -----

// A 64x32 fp16 slot with a 64-byte swizzle (A of tile-pipeline-tma.mlir) is
// one panel: one copy. Without a tensor-map parameter no parameter gets the
// by-value attributes.
#s64 = #tile.shared<contiguousDim = 1, swizzle = 64>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4128 : i32} {
  // CHECK-LABEL: llvm.func @no_map(
  // CHECK-NOT: llvm.byval
  // CHECK-NOT: nvvm.grid_constant
  // CHECK: llvm.return
  func.func @no_map(%p: !tile.ptr<f16>) {
    return
  }
  // CHECK-LABEL: llvm.func @swizzle64(
  // CHECK-SAME: %{{[^:]*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %{{[^:]*}}: i32)
  // CHECK: mbarrier.init.shared::cta.b64 [$1+0], 1;\0A}"
  // CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], 4096;
  // CHECK-COUNT-1: cp.async.bulk.tensor.2d
  // CHECK-NOT: cp.async.bulk.tensor
  // CHECK: llvm.return
  func.func @swizzle64(%map: !tile.tensormap, %k: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %slot = tile.local_alloc {offset = 0 : i64} : !tile.smem<64x32xf16, #s64>
    %bars = tile.barrier_alloc {offset = 4096 : i64} : !tile.barriers<1>
    tile.barrier_expect %bars[%c0], %true {bytes = 4096 : i32} : !tile.barriers<1>
    tile.async_tma_copy %map[%c0, %k], %slot, %bars[%c0], %true : !tile.tensormap, !tile.smem<64x32xf16, #s64>, !tile.barriers<1>
    tile.barrier_wait %bars[%c0], %c0 : !tile.barriers<1>
    return
  }
}

// -----

// A copy of a matrix of a 4-D tensor map (two outer dimensions, as
// tile-pipeline makes for a base moved by per-program offsets): the rank in
// the instruction, the coordinates innermost first (column, row, then the
// outer ones from the innermost), the panel's column offset on the first.
// A store of a 3-D map likewise.
#s64 = #tile.shared<contiguousDim = 1, swizzle = 64>
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4128 : i32} {
  // CHECK-LABEL: llvm.func @outer(
  // CHECK-SAME: %[[MAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[Z:[^:]*]]: i32, %[[H:[^:]*]]: i32, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32)
  // CHECK: %[[K0:.*]] = llvm.add %[[K]], %{{.*}} : i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4, $5, $6}], [$7];\0A}", "r,r,l,r,r,r,r,r" %{{.*}}, %{{.*}}, %[[MAP]], %[[K0]], %[[M]], %[[H]], %[[Z]], %{{.*}} : (i32, i32, !llvm.ptr, i32, i32, i32, i32, i32) -> ()
  // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [$1, {$2, $3, $4}], [$5];\0A}", "r,l,r,r,r,r" %{{.*}}, %[[MAP]], %{{.*}}, %[[M]], %[[Z]], %{{.*}} :
  func.func @outer(%map: !tile.tensormap, %z: i32, %h: i32, %m: i32, %k: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %slot = tile.local_alloc {offset = 0 : i64} : !tile.smem<64x32xf16, #s64>
    %bars = tile.barrier_alloc {offset = 4096 : i64} : !tile.barriers<1>
    tile.barrier_expect %bars[%c0], %true {bytes = 4096 : i32} : !tile.barriers<1>
    tile.async_tma_copy %map[%z, %h, %m, %k], %slot, %bars[%c0], %true : !tile.tensormap, !tile.smem<64x32xf16, #s64>, !tile.barriers<1>
    tile.barrier_wait %bars[%c0], %c0 : !tile.barriers<1>
    %v = arith.constant dense<1.0> : tensor<64x32xf16, #b>
    tile.async_tma_store %map[%z, %m, %c0], %v : !tile.tensormap, tensor<64x32xf16, #b>
    return
  }
}

// -----

// tile.async_tma_store of a 64x128 fp16 tile (rows of 256 bytes: two
// 128-byte-swizzled panels of 64 columns) from its scratch at 0: a barrier,
// the registers stored swizzled with 16-byte vectors, fence.proxy.async, a
// barrier, then thread 0 stores each panel (the second 8192 bytes further
// in shared memory, 64 columns further in the tensor) and waits until the
// stores have read the scratch.
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 16384 : i32} {
  // CHECK-LABEL: llvm.func @tma_store(
  // CHECK-SAME: %[[MAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[M:[^:]*]]: i32, %[[N:[^:]*]]: i32)
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK: llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;"
  // CHECK-NEXT: nvvm.barrier0
  // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];\0A}", "r,l,r,r,r" %[[P:.*]], %[[MAP]], %{{.*}}, %[[M]], %{{.*}} :
  // CHECK-NEXT: %[[SRC1:.*]] = llvm.add %[[BASE:.*]], %[[C8192:.*]] : i32
  // CHECK-NEXT: %[[N1:.*]] = llvm.add %[[N]], %[[C64:.*]] : i32
  // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $0, 0;\0A@p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];\0A}", "r,l,r,r,r" %[[P]], %[[MAP]], %[[N1]], %[[M]], %[[SRC1]] :
  // CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;\0Acp.async.bulk.wait_group.read 0;"
  // CHECK-NEXT: llvm.return
  func.func @tma_store(%map: !tile.tensormap, %m: i32, %n: i32) {
    %v = arith.constant dense<1.0> : tensor<64x128xf16, #b>
    tile.async_tma_store %map[%m, %n], %v : !tile.tensormap, tensor<64x128xf16, #b>
    return
  }
}
