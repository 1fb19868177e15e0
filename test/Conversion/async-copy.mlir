// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// The shared buffers of a pipelined loop and the copies that fill them.
// A ring is the address of its offset in the shared array, after a barrier
// (the ops before it may have used those bytes as scratch), and a slot that
// address plus index * slot bytes (64x32 fp16: 4096). The 64x32 fp16 tile
// of pointers (eight elements in a row per thread, from a 16-divisible base
// and a make_range along the columns) is copied 16 bytes at a time with
// cp.async.cg; its mask is constant along each row, so each copy's source
// size is 16 where the mask holds and 0 (zero-fill) where it does not.
// Two 8-element groups per thread (64x32 over 128 threads). The
// commit is cp.async.commit_group; the wait is cp.async.wait_group with its
// count, then a proxy fence (wgmma reads through the async proxy) and a
// barrier; with noProxyFence only the barrier. tile.smem_trans is its
// slot's address.
#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
module attributes {tile.num_warps = 4 : i32, tile.shared = 20480 : i32} {
  // CHECK-LABEL: llvm.func @copy_16
  // CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i32) : i32
  // CHECK-DAG: %[[FULL:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-DAG: %[[NONE:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-DAG: %[[SLOTBYTES:.*]] = llvm.mlir.constant(4096 : i32) : i32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: %[[RING:.*]] = llvm.getelementptr %[[BASE]][8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mul %arg3, %[[SLOTBYTES]] : i32
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[RING]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[M0:.*]] = llvm.icmp "slt" %{{.*}}, %arg2 : i32
  // CHECK: %[[DST:.*]] = llvm.ptrtoint %[[SLOT]] : !llvm.ptr<3> to i32
  // The element's byte offset in the slot, swizzled: o ^ (((o >> 7) & 3) << 4).
  // CHECK: %[[ROW:.*]] = llvm.lshr %[[O:.*]], %[[C7]] : i32
  // CHECK-NEXT: %[[CHUNK:.*]] = llvm.and %[[ROW]], %[[C3]] : i32
  // CHECK-NEXT: %[[SH:.*]] = llvm.shl %[[CHUNK]], %[[C4]] : i32
  // CHECK-NEXT: %[[SW:.*]] = llvm.xor %[[O]], %[[SH]] : i32
  // CHECK-NEXT: %[[D0:.*]] = llvm.add %[[DST]], %[[SW]] : i32
  // CHECK-NEXT: %[[S0:.*]] = llvm.select %[[M0]], %[[FULL]], %[[NONE]] : i1, i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r" %[[D0]], %{{.*}}, %[[S0]] : (i32, !llvm.ptr<1>, i32) -> ()
  // CHECK: llvm.select %{{.*}}, %[[FULL]], %[[NONE]] : i1, i32
  // CHECK-NEXT: "cp.async.cg.shared.global [$0], [$1], 16, $2;", "r,l,r"
  // CHECK-NOT: cp.async.cg
  // CHECK: llvm.inline_asm has_side_effects "cp.async.commit_group;", ""  : () -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.wait_group 1;", ""  : () -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects "fence.proxy.async.shared::cta;", ""  : () -> ()
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.inline_asm has_side_effects "cp.async.wait_group 0;", ""  : () -> ()
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.return
  func.func @copy_16(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %m: i32, %idx: i32) {
    %ring = tile.local_alloc {offset = 8192 : i64} : !tile.smem<3x64x32xf16, #sa>
    %slot = tile.smem_slot %ring[%idx] : !tile.smem<3x64x32xf16, #sa> -> !tile.smem<64x32xf16, #sa>
    %rows = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #a>>
    %rows1 = tile.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #a>> -> tensor<64x1xi32, #a>
    %ldas = tile.splat %lda : tensor<64x1xi32, #a>
    %rowoff = arith.muli %rows1, %ldas : tensor<64x1xi32, #a>
    %base = tile.splat %pa : tensor<64x1x!tile.ptr<f16>, #a>
    %rowp = tile.addptr %base, %rowoff : tensor<64x1x!tile.ptr<f16>, #a>, tensor<64x1xi32, #a>
    %cols = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #a>>
    %cols1 = tile.expand_dims %cols {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #a>> -> tensor<1x32xi32, #a>
    %rowp2 = tile.broadcast %rowp : tensor<64x1x!tile.ptr<f16>, #a> -> tensor<64x32x!tile.ptr<f16>, #a>
    %cols2 = tile.broadcast %cols1 : tensor<1x32xi32, #a> -> tensor<64x32xi32, #a>
    %ptrs = tile.addptr %rowp2, %cols2 : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
    %ms = tile.splat %m : tensor<64x1xi32, #a>
    %mask1 = arith.cmpi slt, %rows1, %ms : tensor<64x1xi32, #a>
    %mask = tile.broadcast %mask1 : tensor<64x1xi1, #a> -> tensor<64x32xi1, #a>
    tile.async_copy %ptrs, %slot, %mask : tensor<64x32x!tile.ptr<f16>, #a>, !tile.smem<64x32xf16, #sa>, tensor<64x32xi1, #a>
    tile.async_commit_group
    tile.async_wait {pending = 1 : i32}
    %t = tile.smem_trans %slot : !tile.smem<64x32xf16, #sa> -> !tile.smem<32x64xf16, #tile.shared<contiguousDim = 0, swizzle = 64>>
    tile.async_wait {noProxyFence, pending = 0 : i32}
    return
  }
}

// -----

// fp32 B stored K-major (contiguousDim 0) while each thread's registers run
// along N: one element per copy, 4 bytes with cp.async.ca (.cg exists for
// 16-byte copies only); without a mask the source size is always 4. The
// 32x64 tile over 128 threads gives each thread 16 elements. A local_alloc
// without a ring dimension is its offset in the shared array (after the
// barrier every local_alloc starts with, here the only one).
#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#sb = #tile.shared<contiguousDim = 0, swizzle = 128>
module attributes {tile.num_warps = 4 : i32, tile.shared = 12288 : i32} {
  // CHECK-LABEL: llvm.func @copy_4
  // CHECK-DAG: %[[FULL:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-DAG: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-NEXT: %[[BUF:.*]] = llvm.getelementptr %[[BASE]][4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[DST:.*]] = llvm.ptrtoint %[[BUF]] : !llvm.ptr<3> to i32
  // CHECK-NOT: llvm.select
  // CHECK: llvm.inline_asm has_side_effects "cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r" %{{.*}}, %{{.*}}, %[[FULL]] : (i32, !llvm.ptr<1>, i32) -> ()
  // CHECK-COUNT-15: "cp.async.ca.shared.global [$0], [$1], 4, $2;", "r,l,r" %{{.*}}, %{{.*}}, %[[FULL]]
  // CHECK-NOT: cp.async
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @copy_4(%pb: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) {
    %buf = tile.local_alloc {offset = 4096 : i64} : !tile.smem<32x64xf32, #sb>
    %k = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #b>>
    %k1 = tile.expand_dims %k {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #b>> -> tensor<32x1xi32, #b>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #b>
    %rowoff = arith.muli %k1, %ldbs : tensor<32x1xi32, #b>
    %base = tile.splat %pb : tensor<32x1x!tile.ptr<f32>, #b>
    %rowp = tile.addptr %base, %rowoff : tensor<32x1x!tile.ptr<f32>, #b>, tensor<32x1xi32, #b>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #b>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #b>> -> tensor<1x64xi32, #b>
    %rowp2 = tile.broadcast %rowp : tensor<32x1x!tile.ptr<f32>, #b> -> tensor<32x64x!tile.ptr<f32>, #b>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
    %ptrs = tile.addptr %rowp2, %n2 : tensor<32x64x!tile.ptr<f32>, #b>, tensor<32x64xi32, #b>
    tile.async_copy %ptrs, %buf : tensor<32x64x!tile.ptr<f32>, #b>, !tile.smem<32x64xf32, #sb>
    return
  }
}

// -----

// tile.warp_group_dot reads its operands where they are: no st.shared, and
// no barrier but the one before the two buffers (consecutive local_allocs
// share one); the descriptors start from each slot's address (>> 4) and add
// the constant fields (A: K-major 64-byte swizzle, 512-byte stride between
// 8-row groups: 1 << 16 | 32 << 32 | 2 << 62; B: N-major 128-byte swizzle,
// leading offset 32 rows x 128 bytes = 4096: 256 << 16 | 64 << 32 | 1 << 62).
// Two K steps of m64n64k16, B read with the transpose bit; the second step
// moves A's descriptor 32 bytes along K (+2) and B's 16 rows of 128 bytes
// (+128). Then commit, and wait for the product (wgmma.wait_group 0): all
// in one statement. The accumulator is zero: the first K step does not read
// it (scale-d z, false), so its registers are outputs only.
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#sb = #tile.shared<contiguousDim = 1, swizzle = 128>
module attributes {tile.num_warps = 4 : i32, tile.shared = 24576 : i32} {
  // CHECK-LABEL: llvm.func @warp_group_dot
  // CHECK-DAG: %[[C128:.*]] = llvm.mlir.constant(128 : i64) : i64
  // CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK-DAG: %[[AF:.*]] = llvm.mlir.constant(-9223371899415756800 : i64) : i64
  // CHECK-DAG: %[[BF:.*]] = llvm.mlir.constant(4611686293322072064 : i64) : i64
  // CHECK-NOT: llvm.store
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: %[[RB:.*]] = llvm.getelementptr %[[BASE]][12288] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mul %arg0, %{{.*}} : i32
  // CHECK-NEXT: %[[SA:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[SB:.*]] = llvm.getelementptr %[[RB]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[A:.*]] = llvm.ptrtoint %[[SA]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: %[[B:.*]] = llvm.ptrtoint %[[SB]] : !llvm.ptr<3> to i32
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[AADDR:.*]] = llvm.add %[[A]], %{{.*}} : i32
  // CHECK: %[[ASTART:.*]] = llvm.lshr %[[AADDR]], %{{.*}} : i32
  // CHECK-NEXT: %[[AZ:.*]] = llvm.zext %[[ASTART]] : i32 to i64
  // CHECK-NEXT: %[[ADESC:.*]] = llvm.or %[[AZ]], %[[AF]] : i64
  // CHECK: %[[BADDR:.*]] = llvm.add %[[B]], %{{.*}} : i32
  // CHECK: %[[BSTART:.*]] = llvm.lshr %[[BADDR]], %{{.*}} : i32
  // CHECK-NEXT: %[[BZ:.*]] = llvm.zext %[[BSTART]] : i32 to i64
  // CHECK-NEXT: %[[BDESC:.*]] = llvm.or %[[BZ]], %[[BF]] : i64
  // CHECK: %[[ADESC1:.*]] = llvm.add %[[ADESC]], %[[C2]] : i64
  // CHECK-NEXT: %[[BDESC1:.*]] = llvm.add %[[BDESC]], %[[C128]] : i64
  // CHECK-NEXT: llvm.inline_asm has_side_effects "{\0A.reg .pred p, z;\0Asetp.ne.b32 p, $36, 0;\0Asetp.eq.b32 z, $36, 0;\0Awgmma.fence.sync.aligned;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $32, $33, z, 1, 1, 0, 1;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $34, $35, p, 1, 1, 0, 1;\0A
  // CHECK-SAME: wgmma.commit_group.sync.aligned;\0Awgmma.wait_group.sync.aligned 0;\0A}", "{{(=f,){32}l}},l,l,l,r" %[[ADESC]], %[[BDESC]], %[[ADESC1]], %[[BDESC1]], %{{[^,]*}} :
  // CHECK-NOT: wgmma
  // CHECK-NOT: nvvm.barrier0
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  func.func @warp_group_dot(%idx: i32) -> tensor<64x64xf32, #mma> {
    %ra = tile.local_alloc {offset = 0 : i64} : !tile.smem<3x64x32xf16, #sa>
    %rb = tile.local_alloc {offset = 12288 : i64} : !tile.smem<3x32x64xf16, #sb>
    %sa = tile.smem_slot %ra[%idx] : !tile.smem<3x64x32xf16, #sa> -> !tile.smem<64x32xf16, #sa>
    %sb = tile.smem_slot %rb[%idx] : !tile.smem<3x32x64xf16, #sb> -> !tile.smem<32x64xf16, #sb>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.warp_group_dot %sa, %sb, %z {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sb> -> tensor<64x64xf32, #mma>
    return %d : tensor<64x64xf32, #mma>
  }
}

// -----

// A product left in flight (isAsync): the same statement up to the commit,
// without the wait; tile.warp_group_dot_wait is
// wgmma.wait_group with its count, the accumulator's registers tied
// through it ("=f" x 32 and "0" .. "31"), so nothing reads them before the
// wait. Here pending = 1 passes the last wgmma's registers on, then
// pending = 0 those of the first wait. The two buffers are not consecutive
// (a slot between them), so each local_alloc has its own barrier.
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#sb = #tile.shared<contiguousDim = 1, swizzle = 128>
module attributes {tile.num_warps = 4 : i32, tile.shared = 24576 : i32} {
  // CHECK-LABEL: llvm.func @in_flight
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.getelementptr %{{.*}}[12288] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK-NOT: nvvm.barrier0
  // CHECK: %[[LAST:.*]] = llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $36, 0;\0Awgmma.fence.sync.aligned;\0A
  // CHECK-SAME: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {$0, {{.*}}, $31}, $34, $35, p, 1, 1, 0, 1;\0Awgmma.commit_group.sync.aligned;\0A}"
  // CHECK-NEXT: %[[R0:.*]] = llvm.extractvalue %[[LAST]][0]
  // CHECK: %[[R31:.*]] = llvm.extractvalue %[[LAST]][31]
  // CHECK-NEXT: %[[W1:.*]] = llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 1;", "{{(=f,){32}0}},1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31" %[[R0]], {{.*}}, %[[R31]] :
  // CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[W1]][0]
  // CHECK: %[[S31:.*]] = llvm.extractvalue %[[W1]][31]
  // CHECK-NEXT: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;", "{{(=f,){32}0}},1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31" %[[S0]], {{.*}}, %[[S31]] :
  // CHECK-NOT: wgmma
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @in_flight(%idx: i32, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
    %ra = tile.local_alloc {offset = 0 : i64} : !tile.smem<3x64x32xf16, #sa>
    %sa = tile.smem_slot %ra[%idx] : !tile.smem<3x64x32xf16, #sa> -> !tile.smem<64x32xf16, #sa>
    %rb = tile.local_alloc {offset = 12288 : i64} : !tile.smem<3x32x64xf16, #sb>
    %sb = tile.smem_slot %rb[%idx] : !tile.smem<3x32x64xf16, #sb> -> !tile.smem<32x64xf16, #sb>
    %d = tile.warp_group_dot %sa, %sb, %c {inputPrecision = #tile<input_precision tf32>, isAsync} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sb> -> tensor<64x64xf32, #mma>
    %w = tile.warp_group_dot_wait %d {pending = 1 : i32} : tensor<64x64xf32, #mma>
    %r = tile.warp_group_dot_wait %w {pending = 0 : i32} : tensor<64x64xf32, #mma>
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// tile.local_store of a tf32 B tile (32 K x 64 N, rows of N in registers)
// into a K-major slot: each thread's four registers one K apart (register
// bits 2 and 3 of the [4, 4] layout) make one 16-byte vector, four per
// thread. In the 128-byte swizzle, lanes 0 and 2 of each group of 8 would
// write the same 16-byte column of banks (their N are 8 apart): lanes with
// lane-index bit 1 set store their vectors in the other order (registers 2
// apart along N, a select per element and per index), which spreads each
// group over the eight columns.
#b = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#sb = #tile.shared<contiguousDim = 0, swizzle = 128>
module attributes {tile.num_warps = 4 : i32, tile.shared = 16384 : i32} {
  // CHECK-LABEL: llvm.func @stage_k_major
  // CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[LANE:.*]] = llvm.and %[[TID]], %{{.*}} : i32
  // CHECK: %[[BIT:.*]] = llvm.and %[[LANE]], %[[TWO]] : i32
  // CHECK: %[[SWAP:.*]] = llvm.icmp "ne" %[[BIT]], %[[ZERO]] : i32
  // CHECK-COUNT-4: llvm.select %[[SWAP]], %{{.*}}, %{{.*}} : i1, f32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK-COUNT-4: llvm.select %[[SWAP]], %{{.*}}, %{{.*}} : i1, f32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK-COUNT-4: llvm.select %[[SWAP]], %{{.*}}, %{{.*}} : i1, f32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK-COUNT-4: llvm.select %[[SWAP]], %{{.*}}, %{{.*}} : i1, f32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  func.func @stage_k_major(%v: tensor<32x64xf32, #b>) {
    %ring = tile.local_alloc {offset = 0 : i64} : !tile.smem<2x32x64xf32, #sb>
    %c1 = arith.constant 1 : i32
    %slot = tile.smem_slot %ring[%c1] : !tile.smem<2x32x64xf32, #sb> -> !tile.smem<32x64xf32, #sb>
    tile.local_store %v, %slot : tensor<32x64xf32, #b>, !tile.smem<32x64xf32, #sb>
    return
  }
}

// -----

// An int8 B tile loaded from rows of N (4 x 4 bytes a thread, a 32-bit load
// a row) stored into a K-major slot (8-bit wgmma's B, staged by
// tile-pipeline): each 4-byte store of K gathers byte j of four loaded
// words with byte permutes, 8 for the 4 x 4 block: a permute of two words
// gives bytes j & ~1 and j | 1 of both (shared by two stores), a third
// joins two such pairs. No byte is extracted or inserted alone.
#b = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#sb = #tile.shared<contiguousDim = 0, swizzle = 32>
module attributes {tile.num_warps = 4 : i32, tile.shared = 16384 : i32} {
  // CHECK-LABEL: llvm.func @stage_bytes_k_major
  // CHECK-COUNT-4: ld.global.b32
  // CHECK-NOT: llvm.insertelement {{.*}} : vector<4xi8>
  // CHECK: %[[W0:.*]] = nvvm.prmt <default> %[[PAIR01:.*]], %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[W1:.*]] = nvvm.prmt <default> %[[PAIR01]], %{{.*}}, %{{.*}} : i32
  // CHECK: %[[J0:.*]] = nvvm.prmt <default> %[[JOIN0:.*]], %[[W0]], %[[W1]] : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<1xi32>, !llvm.ptr<3>
  // CHECK: nvvm.prmt <default> %{{.*}}, %[[W0]], %[[W1]] : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<1xi32>, !llvm.ptr<3>
  // CHECK: %[[W2:.*]] = nvvm.prmt <default> %[[PAIR23:.*]], %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[W3:.*]] = nvvm.prmt <default> %[[PAIR23]], %{{.*}}, %{{.*}} : i32
  // CHECK: nvvm.prmt <default> %[[JOIN0]], %[[W2]], %[[W3]] : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<1xi32>, !llvm.ptr<3>
  // CHECK: nvvm.prmt <default> %{{.*}}, %[[W2]], %[[W3]] : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<1xi32>, !llvm.ptr<3>
  // CHECK-NOT: nvvm.prmt
  // CHECK-NOT: llvm.store
  func.func @stage_bytes_k_major(%pb: !tile.ptr<i8> {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) {
    %k = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #b>>
    %k1 = tile.expand_dims %k {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #b>> -> tensor<32x1xi32, #b>
    %lds = tile.splat %ldb : tensor<32x1xi32, #b>
    %row = arith.muli %k1, %lds : tensor<32x1xi32, #b>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #b>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #b>> -> tensor<1x64xi32, #b>
    %row2 = tile.broadcast %row : tensor<32x1xi32, #b> -> tensor<32x64xi32, #b>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
    %off = arith.addi %row2, %n2 : tensor<32x64xi32, #b>
    %ps = tile.splat %pb : tensor<32x64x!tile.ptr<i8>, #b>
    %p = tile.addptr %ps, %off : tensor<32x64x!tile.ptr<i8>, #b>, tensor<32x64xi32, #b>
    %v = tile.load %p : (tensor<32x64x!tile.ptr<i8>, #b>) -> tensor<32x64xi8, #b>
    %ring = tile.local_alloc {offset = 0 : i64} : !tile.smem<2x32x64xi8, #sb>
    %c1 = arith.constant 1 : i32
    %slot = tile.smem_slot %ring[%c1] : !tile.smem<2x32x64xi8, #sb> -> !tile.smem<32x64xi8, #sb>
    tile.local_store %v, %slot : tensor<32x64xi8, #b>, !tile.smem<32x64xi8, #sb>
    return
  }
}

// -----

// A tile whose registers already run along the slot's contiguous dimension
// (8 fp16 of K per thread): two 16-byte stores per thread, in register
// order; no lane spreads better, so nothing is swapped.
#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
module attributes {tile.num_warps = 4 : i32, tile.shared = 16384 : i32} {
  // CHECK-LABEL: llvm.func @stage_row_major
  // CHECK-NOT: llvm.select
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.select
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  func.func @stage_row_major(%v: tensor<64x32xf16, #a>) {
    %ring = tile.local_alloc {offset = 0 : i64} : !tile.smem<2x64x32xf16, #sa>
    %c0 = arith.constant 0 : i32
    %slot = tile.smem_slot %ring[%c0] : !tile.smem<2x64x32xf16, #sa> -> !tile.smem<64x32xf16, #sa>
    tile.local_store %v, %slot : tensor<64x32xf16, #a>, !tile.smem<64x32xf16, #sa>
    return
  }
}
