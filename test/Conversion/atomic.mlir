// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// One predicated atom.global per element, under the mask; the 32-element
// tile has copies in lanes 8-31 and in warps 1-3, so only threads whose
// copy bits are zero issue the atomics, and the old values reach the other
// threads through shared memory (stored by owners only).
#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 128 : i32} {
  // CHECK-LABEL: llvm.func @add_f32
  // CHECK-DAG: %[[LANEDUP:.*]] = llvm.mlir.constant(24 : i32) : i32
  // CHECK-DAG: %[[WARPDUP:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK: llvm.and %{{.*}}, %[[LANEDUP]] : i32
  // CHECK: llvm.and %{{.*}}, %[[WARPDUP]] : i32
  // CHECK-COUNT-4: llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.add.f32 $0, [$1], $2;", "=r,l,r,b"
  // CHECK: nvvm.barrier0
  // CHECK: llvm.cond_br %{{.*}}, ^[[STORE:.*]], ^[[JOIN:.*]]
  // CHECK: ^[[STORE]]:
  // CHECK-COUNT-4: llvm.store %{{.*}} : f32, !llvm.ptr<3>
  // CHECK: ^[[JOIN]]:
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  func.func @add_f32(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) {
    %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #d1>
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #d1>
    %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>, #d1>, tensor<32xi32, #d1>
    %one = arith.constant dense<1.0> : tensor<32xf32, #d1>
    %c16 = arith.constant dense<16> : tensor<32xi32, #d1>
    %m = arith.cmpi slt, %r, %c16 : tensor<32xi32, #d1>
    %old = tile.atomic_rmw add, %pp, %one, %m : (tensor<32x!tile.ptr<f32>, #d1>, tensor<32xf32, #d1>, tensor<32xi1, #d1>) -> tensor<32xf32, #d1>
    %qs = tile.splat %q : tensor<32x!tile.ptr<f32>, #d1>
    %qp = tile.addptr %qs, %r : tensor<32x!tile.ptr<f32>, #d1>, tensor<32xi32, #d1>
    tile.store %qp, %old : tensor<32x!tile.ptr<f32>, #d1>, tensor<32xf32, #d1>
    return
  }
}

// -----

// Float max goes through signed max (non-negative values) and unsigned min
// (negative values) on the bit patterns. Unused old values need no shared
// memory.
#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @max_f32
  // CHECK: llvm.icmp "slt" %{{.*}} : i32
  // CHECK: atom.acq_rel.gpu.global.max.s32
  // CHECK: atom.acq_rel.gpu.global.min.u32
  // CHECK-NOT: nvvm.barrier0
  func.func @max_f32(%p: !tile.ptr<f32>, %v: f32) {
    %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #d1>
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #d1>
    %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>, #d1>, tensor<32xi32, #d1>
    %vs = tile.splat %v : tensor<32xf32, #d1>
    %old = tile.atomic_rmw max, %pp, %vs : (tensor<32x!tile.ptr<f32>, #d1>, tensor<32xf32, #d1>) -> tensor<32xf32, #d1>
    return
  }
}

// -----

// Unsigned max and min of integers: atom.max.u32 / atom.min.u32.
#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @umax_i32
  // CHECK: atom.acq_rel.gpu.global.max.u32
  // CHECK: atom.acq_rel.gpu.global.min.u32
  func.func @umax_i32(%p: !tile.ptr<i32>, %v: i32) {
    %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #d1>
    %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #d1>
    %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #d1>, tensor<32xi32, #d1>
    %vs = tile.splat %v : tensor<32xi32, #d1>
    %a = tile.atomic_rmw umax, %pp, %vs : (tensor<32x!tile.ptr<i32>, #d1>, tensor<32xi32, #d1>) -> tensor<32xi32, #d1>
    %b = tile.atomic_rmw umin, %pp, %vs : (tensor<32x!tile.ptr<i32>, #d1>, tensor<32xi32, #d1>) -> tensor<32xi32, #d1>
    return
  }
}

// -----

// A scalar atomic is issued by thread 0 only; its old value is broadcast.
// As a release (acq_rel) it follows a barrier, which also keeps the shared
// word from being overwritten while read: no second barrier before the
// store.
module attributes {tile.num_warps = 4 : i32, tile.shared = 8 : i32} {
  // CHECK-LABEL: llvm.func @counter
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
  // CHECK: nvvm.barrier0
  // CHECK: llvm.inline_asm has_side_effects "mov.b64 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.add.u64 $0, [$1], $2;", "=l,l,l,b" %{{.*}}, %{{.*}}, %[[FIRST]]
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.cond_br %[[FIRST]]
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i64
  func.func @counter(%p: !tile.ptr<i64>, %q: !tile.ptr<i64>) {
    %one = arith.constant 1 : i64
    %old = tile.atomic_rmw add, %p, %one : (!tile.ptr<i64>, i64) -> i64
    tile.store %q, %old : !tile.ptr<i64>, i64
    return
  }
}

// -----

// sem= and scope= become the atom's qualifiers; a compare-and-swap takes the
// compared and the new value, and its old value is broadcast like any
// scalar atomic's. tl.debug_barrier is a CTA barrier.
module attributes {tile.num_warps = 4 : i32, tile.shared = 8 : i32} {
  // CHECK-LABEL: llvm.func @lock
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, 0;\0A\09@$4 atom.acquire.gpu.global.cas.b32 $0, [$1], $2, $3;", "=r,l,r,r,b" %{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]]
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
  // CHECK: nvvm.barrier0
  // CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.release.sys.global.exch.b32 $0, [$1], $2;"
  func.func @lock(%p: !tile.ptr<i32>, %q: !tile.ptr<i32>) {
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %old = tile.atomic_cas %p, %zero, %one {sem = #tile<sem acquire>} : (!tile.ptr<i32>, i32, i32) -> i32
    tile.store %q, %old : !tile.ptr<i32>, i32
    tile.debug_barrier
    %o = tile.atomic_rmw xchg, %p, %zero {sem = #tile<sem release>, scope = #tile<scope sys>} : (!tile.ptr<i32>, i32) -> i32
    return
  }
}
