// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tile-allocate-shared-memory | FileCheck %s

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// Reductions within a warp, expand_dims of a slice and broadcast need no
// shared memory: no attribute.
// CHECK-LABEL: module {
// CHECK-NOT: tile.shared
module {
  func.func @none(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #d2>
    %x = tile.load %ps : (tensor<64x64x!tile.ptr<f32>, #d2>) -> tensor<64x64xf32, #d2>
    %m = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<64x64xf32, #d2> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    %e = tile.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #tile.slice<dim = 1, parent = #d2>> -> tensor<64x1xf32, #d2>
    %b = tile.broadcast %e : tensor<64x1xf32, #d2> -> tensor<64x64xf32, #d2>
    tile.store %ps, %b : tensor<64x64x!tile.ptr<f32>, #d2>, tensor<64x64xf32, #d2>
    return
  }
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// The largest scratch, not the sum: a conversion of 64 f32 (256 bytes), a
// reduction along an axis split over 4 warps (64 rows x 4 slots x 4 bytes),
// and an argmax over the same axis (values, then i32 indices 16-aligned).
// CHECK: module attributes {tile.shared = 2048 : i32}
module {
  func.func @max(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %x = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
    %c = tile.convert_layout %x : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    %q = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #d2>
    %y = tile.load %q : (tensor<64x64x!tile.ptr<f32>, #d2>) -> tensor<64x64xf32, #d2>
    %s = tile.reduce %y {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64x64xf32, #d2> -> tensor<64xf32, #tile.slice<dim = 0, parent = #d2>>
    %a = tile.reduce %y {axis = 0 : i32, kind = #tile<reduce_kind argmax>} : tensor<64x64xf32, #d2> -> tensor<64xi32, #tile.slice<dim = 0, parent = #d2>>
    return
  }
}

// -----

#a = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// A dot on the FMA path stages both operands: 64x32 f16 (4096 bytes) then
// 32x64 f16 (4096 bytes).
// CHECK: module attributes {tile.shared = 8192 : i32}
module {
  func.func @dot(%pa: !tile.ptr<f16>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<f16>, #a>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<f16>, #a>) -> tensor<64x32xf16, #a>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #a>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f16>, #a>) -> tensor<32x64xf16, #a>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #a>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16, #a>, tensor<32x64xf16, #a> -> tensor<64x64xf32, #a>
    return
  }
}

// -----

#f = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]>
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
// A wgmma dot whose A threads hold the A fragments stages only B (4096
// bytes).
// CHECK: module attributes {tile.shared = 4096 : i32}
module {
  func.func @dot_a_registers(%pa: !tile.ptr<f16>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<f16>, #f>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<f16>, #f>) -> tensor<64x32xf16, #f>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #b>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f16>, #b>) -> tensor<32x64xf16, #b>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16, #f>, tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    return
  }
}

// -----

#big = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
module {
  func.func @too_big(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<256x256x!tile.ptr<f32>, #big>
    %x = tile.load %ps : (tensor<256x256x!tile.ptr<f32>, #big>) -> tensor<256x256xf32, #big>
    // expected-error @+1 {{the kernel needs 262144 bytes of shared memory (the largest part for moving a tile between threads here), more than the 232448 a program can have}}
    %c = tile.convert_layout %x : tensor<256x256xf32, #big> -> tensor<256x256xf32, #col>
    return
  }
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#big = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#col = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
#bl = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#sa = #tile.shared<contiguousDim = 1, swizzle = 32>
#sb = #tile.shared<contiguousDim = 1, swizzle = 128>
// The rings of a pipelined loop are placed one after the other: the first
// (3 slots of 16x24 f16, 768 bytes each, every slot on a 1024-byte
// boundary: 3072 bytes) at 0, the second (3 x 4096 bytes) at 3072, ending
// at 15360. A conversion in the loop that reads the rings runs while they
// live, so its 256-byte scratch starts after them (15360); a conversion
// after their last use (the loop, whose copies the wait drains) overlaps
// them at 0 and gets no attribute. The program needs the largest end: the
// 16384 bytes of the conversion after the loop (not 15360 + 16384, not the
// 15616 of the one inside).
// CHECK: module attributes {tile.shared = 16384 : i32}
// CHECK-LABEL: func.func @rings
// CHECK: tile.local_alloc {offset = 0 : i64} : <3x16x24xf16, #{{.*}}>
// CHECK: tile.local_alloc {offset = 3072 : i64} : <3x32x64xf16, #{{.*}}>
// CHECK: scf.for
// CHECK:   tile.convert_layout %{{.*}} {tile.scratch_offset = 15360 : i64} : tensor<64xf32
// CHECK: }
// CHECK: tile.async_wait {pending = 0 : i32}
// CHECK: tile.convert_layout %{{[^{]*}} : tensor<64x64xf32
module {
  func.func @rings(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %ra = tile.local_alloc : !tile.smem<3x16x24xf16, #sa>
    %rb = tile.local_alloc : !tile.smem<3x32x64xf16, #sb>
    %qs = tile.splat %q : tensor<32x64x!tile.ptr<f16>, #bl>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %sa = tile.smem_slot %ra[%i] : !tile.smem<3x16x24xf16, #sa> -> !tile.smem<16x24xf16, #sa>
      %sb = tile.smem_slot %rb[%i] : !tile.smem<3x32x64xf16, #sb> -> !tile.smem<32x64xf16, #sb>
      tile.async_copy %qs, %sb : tensor<32x64x!tile.ptr<f16>, #bl>, !tile.smem<32x64xf16, #sb>
      tile.async_commit_group
      %x = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %c = tile.convert_layout %x : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    }
    tile.async_wait {pending = 0 : i32}
    %pb = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #big>
    %y = tile.load %pb : (tensor<64x64x!tile.ptr<f32>, #big>) -> tensor<64x64xf32, #big>
    %z = tile.convert_layout %y : tensor<64x64xf32, #big> -> tensor<64x64xf32, #col>
    return
  }
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#sb = #tile.shared<contiguousDim = 1, swizzle = 128>
// One ring (3 x 4096 bytes) and a conversion that runs while it lives: the
// program needs the end of that conversion's scratch, 12288 + 256.
// CHECK: module attributes {tile.shared = 12544 : i32}
// CHECK-LABEL: func.func @ring_then_scratch
// CHECK: tile.local_alloc {offset = 0 : i64}
// CHECK: tile.convert_layout %{{.*}} {tile.scratch_offset = 12288 : i64}
module {
  func.func @ring_then_scratch(%p: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %rb = tile.local_alloc : !tile.smem<3x32x64xf16, #sb>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %x = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %c = tile.convert_layout %x : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
      %sb = tile.smem_slot %rb[%i] : !tile.smem<3x32x64xf16, #sb> -> !tile.smem<32x64xf16, #sb>
    }
    return
  }
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#sb = #tile.shared<contiguousDim = 1, swizzle = 128>
// A loop pipelined with TMA: its mbarriers (3 x 8 bytes, padded to 32)
// follow the ring (3 x 4096 bytes) at 12288, and live as long. A conversion
// in the loop starts on the next 1024-byte boundary after them (13312), not
// over them; the program needs 13312 + 256.
// CHECK: module attributes {tile.shared = 13568 : i32}
// CHECK-LABEL: func.func @ring_and_barriers
// CHECK: tile.local_alloc {offset = 0 : i64} : <3x32x64xf16, #{{.*}}>
// CHECK: tile.barrier_alloc {offset = 12288 : i64} : <3>
// CHECK: scf.for
// CHECK: tile.convert_layout %{{.*}} {tile.scratch_offset = 13312 : i64} : tensor<64xf32
module {
  func.func @ring_and_barriers(%p: !tile.ptr<f32>, %map: !tile.tensormap, %n: i32, %phase: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant true
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %rb = tile.local_alloc : !tile.smem<3x32x64xf16, #sb>
    %bars = tile.barrier_alloc : !tile.barriers<3>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %sb = tile.smem_slot %rb[%i] : !tile.smem<3x32x64xf16, #sb> -> !tile.smem<32x64xf16, #sb>
      tile.barrier_expect %bars[%i], %true {bytes = 4096 : i32} : !tile.barriers<3>
      tile.async_tma_copy %map[%i, %c0], %sb, %bars[%i], %true : !tile.tensormap, !tile.smem<32x64xf16, #sb>, !tile.barriers<3>
      tile.barrier_wait %bars[%i], %phase : !tile.barriers<3>
      %x = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %c = tile.convert_layout %x : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    }
    return
  }
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#bl = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#sb = #tile.shared<contiguousDim = 1, swizzle = 128>
// Two pipelined loops one after the other (causal attention's two passes):
// the first loop's buffer (4096 bytes, stored before the loop) at 0 and
// ring (3 x 4096) after it at 4096 end with that loop, so the second loop's
// ring and buffer take the same bytes (0 and 12288), and its mbarriers
// follow them (16384). A conversion inside the second loop starts after the
// live buffers' end (16416 rounded up to 17408); the program needs
// 17408 + 256.
// CHECK: module attributes {tile.shared = 17664 : i32}
// CHECK-LABEL: func.func @two_loops
// CHECK: tile.local_alloc {offset = 0 : i64} : <32x64xf16, #{{.*}}>
// CHECK: tile.local_alloc {offset = 4096 : i64} : <3x32x64xf16, #{{.*}}>
// CHECK: scf.for
// CHECK: tile.local_alloc {offset = 0 : i64} : <3x32x64xf16, #{{.*}}>
// CHECK: tile.local_alloc {offset = 12288 : i64} : <32x64xf16, #{{.*}}>
// CHECK: tile.barrier_alloc {offset = 16384 : i64} : <3>
// CHECK: scf.for
// CHECK: tile.convert_layout %{{.*}} {tile.scratch_offset = 17408 : i64} : tensor<64xf32
module {
  func.func @two_loops(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>, %n: i32, %v: tensor<32x64xf16, #bl>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %qs = tile.splat %q : tensor<32x64x!tile.ptr<f16>, #bl>
    %b1 = tile.local_alloc : !tile.smem<32x64xf16, #sb>
    tile.local_store %v, %b1 : tensor<32x64xf16, #bl>, !tile.smem<32x64xf16, #sb>
    %r1 = tile.local_alloc : !tile.smem<3x32x64xf16, #sb>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = tile.smem_slot %r1[%i] : !tile.smem<3x32x64xf16, #sb> -> !tile.smem<32x64xf16, #sb>
      tile.async_copy %qs, %s : tensor<32x64x!tile.ptr<f16>, #bl>, !tile.smem<32x64xf16, #sb>
      tile.local_store %v, %b1 : tensor<32x64xf16, #bl>, !tile.smem<32x64xf16, #sb>
    }
    tile.async_wait {pending = 0 : i32}
    %r2 = tile.local_alloc : !tile.smem<3x32x64xf16, #sb>
    %b2 = tile.local_alloc : !tile.smem<32x64xf16, #sb>
    %bars = tile.barrier_alloc : !tile.barriers<3>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = tile.smem_slot %r2[%i] : !tile.smem<3x32x64xf16, #sb> -> !tile.smem<32x64xf16, #sb>
      tile.async_copy %qs, %s : tensor<32x64x!tile.ptr<f16>, #bl>, !tile.smem<32x64xf16, #sb>
      tile.local_store %v, %b2 : tensor<32x64xf16, #bl>, !tile.smem<32x64xf16, #sb>
      tile.barrier_wait %bars[%i], %c0 : !tile.barriers<3>
      %x = tile.load %ps : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %c = tile.convert_layout %x : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    }
    return
  }
}
