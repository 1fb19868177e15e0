// RUN: tilec-opt %s -split-input-file -tile-unroll-loops | FileCheck %s

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// A layer norm's first pass: one fp16 load of 16 bytes a thread per
// iteration, unrolled by 8 (128 bytes; the factor is at most 8). The upper
// bound, unknown, becomes max(n, 0); the unrolled loop steps by 8192 up to
// the last full group and issues its eight loads first, then adds them in
// the original order; the epilogue loop runs the rest one iteration at a
// time.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32)
// CHECK: %[[UB:.*]] = arith.maxsi %[[N]], %[[LB:.*]] : i32
// CHECK: %[[MAIN:.*]] = scf.for %[[I:.*]] = %[[LB]] to %[[UBU:.*]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-COUNT-8: tile.load
// CHECK-NOT: tile.load
// CHECK: %[[E0:.*]] = arith.extf
// CHECK: %[[A0:.*]] = arith.addf %[[ACC]], %[[E0]]
// CHECK: %[[E1:.*]] = arith.extf
// CHECK: %[[A1:.*]] = arith.addf %[[A0]], %[[E1]]
// CHECK-COUNT-6: arith.addf
// CHECK: scf.yield
// CHECK: scf.for %{{.*}} = %[[UBU]] to %[[UB]] step %{{.*}} iter_args(%{{.*}} = %[[MAIN]])
// CHECK: tile.load
// CHECK-NOT: tile.load
// CHECK: scf.yield
func.func @row_sum(%p: !tile.ptr<f16>, %n: i32) -> tensor<1024xf32, #b8> {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %zero = arith.constant dense<0.0> : tensor<1024xf32, #b8>
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b8>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f16>, #b8>
  %nv = tile.splat %n : tensor<1024xi32, #b8>
  %s = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #b8>) : i32 {
    %o = tile.splat %off : tensor<1024xi32, #b8>
    %cols = arith.addi %o, %r : tensor<1024xi32, #b8>
    %m = arith.cmpi slt, %cols, %nv : tensor<1024xi32, #b8>
    %q = tile.addptr %ps, %cols : tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xi32, #b8>
    %x = tile.load %q, %m : (tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xi1, #b8>) -> tensor<1024xf16, #b8>
    %xf = arith.extf %x : tensor<1024xf16, #b8> to tensor<1024xf32, #b8>
    %a = arith.addf %acc, %xf : tensor<1024xf32, #b8>
    scf.yield %a : tensor<1024xf32, #b8>
  }
  return %s : tensor<1024xf32, #b8>
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// An online log-sum-exp over fp32 chunks (32 bytes a thread): six
// iterations, a known count, so unrolled by 4 (the largest power of two
// they allow); the one unrolled iteration is inlined, its four loads
// issued before the first reduction; the epilogue runs the other two.
// CHECK-LABEL: func.func @online_max
// CHECK-NOT: arith.maxsi
// CHECK-NOT: scf.for
// CHECK-COUNT-4: tile.load
// CHECK-NOT: tile.load
// CHECK-COUNT-4: tile.reduce
// CHECK: scf.for
// CHECK: tile.load
// CHECK-NOT: tile.load
// CHECK: return
func.func @online_max(%p: !tile.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %c6144 = arith.constant 6144 : i32
  %init = arith.constant 0xFF800000 : f32
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #b8>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b8>
  %s = scf.for %off = %c0 to %c6144 step %c1024 iter_args(%m = %init) -> (f32) : i32 {
    %o = tile.splat %off : tensor<1024xi32, #b8>
    %cols = arith.addi %o, %r : tensor<1024xi32, #b8>
    %q = tile.addptr %ps, %cols : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xi32, #b8>
    %x = tile.load %q : (tensor<1024x!tile.ptr<f32>, #b8>) -> tensor<1024xf32, #b8>
    %bm = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind max>} : tensor<1024xf32, #b8> -> f32
    %mn = arith.maximumf %m, %bm : f32
    scf.yield %mn : f32
  }
  return %s : f32
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#b32 = #tile.blocked<sizePerThread = [32], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// Loops left alone: one that stores (a load moved above a store could miss
// it), one asked not to be unrolled (loop_unroll_factor=1, the attribute
// dropped), one loading 256 bytes a thread per iteration (the most a
// factor of 2 allows is 256 in all). A loop of two iterations (fp32, 32
// bytes) becomes straight-line code, its loads first.
// CHECK-LABEL: func.func @left_alone
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.store
// CHECK-NEXT: }
// CHECK-NOT: scf.for
// CHECK: tile.load
// CHECK-NEXT: tile.load
// CHECK-NOT: tile.load
// CHECK: arith.addf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: tile.loop_unroll_factor
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: scf.yield
// CHECK-NOT: scf.for
func.func @left_alone(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %zero = arith.constant dense<0.0> : tensor<1024xf32, #b8>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b8>
  %qs = tile.splat %q : tensor<1024x!tile.ptr<f32>, #b8>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tile.load %ps : (tensor<1024x!tile.ptr<f32>, #b8>) -> tensor<1024xf32, #b8>
    tile.store %qs, %x : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xf32, #b8>
  }
  %a = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #b8>) : i32 {
    %x = tile.load %ps : (tensor<1024x!tile.ptr<f32>, #b8>) -> tensor<1024xf32, #b8>
    %s = arith.addf %acc, %x : tensor<1024xf32, #b8>
    scf.yield %s : tensor<1024xf32, #b8>
  }
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #b8>) : i32 {
    %x = tile.load %ps : (tensor<1024x!tile.ptr<f32>, #b8>) -> tensor<1024xf32, #b8>
    %s = arith.addf %acc, %x : tensor<1024xf32, #b8>
    scf.yield %s : tensor<1024xf32, #b8>
  } {tile.loop_unroll_factor = 1 : i32}
  %wide = arith.constant dense<0.0> : tensor<4096xf32, #b32>
  %pw = tile.splat %p : tensor<4096x!tile.ptr<f32>, #b32>
  %qw = tile.splat %q : tensor<4096x!tile.ptr<f32>, #b32>
  %c = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %wide) -> (tensor<4096xf32, #b32>) : i32 {
    %x = tile.load %pw : (tensor<4096x!tile.ptr<f32>, #b32>) -> tensor<4096xf32, #b32>
    %y = tile.load %qw : (tensor<4096x!tile.ptr<f32>, #b32>) -> tensor<4096xf32, #b32>
    %s = arith.addf %acc, %x : tensor<4096xf32, #b32>
    %t = arith.addf %s, %y : tensor<4096xf32, #b32>
    scf.yield %t : tensor<4096xf32, #b32>
  }
  return
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// loop_unroll_factor=2 on a loop that stores: unrolled as asked, its loads
// left between the stores. A gather's second load, whose addresses come
// from the first, stays after it.
// CHECK-LABEL: func.func @asked
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.store
// CHECK: tile.load
// CHECK-NEXT: tile.store
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.store
// CHECK-NOT: loop_unroll_factor
// CHECK-LABEL: func.func @gather
// CHECK: scf.for
// CHECK: %[[I0:.*]] = tile.load {{.*}} -> tensor<1024xi32
// CHECK: %[[I1:.*]] = tile.load {{.*}} -> tensor<1024xi32
// CHECK: tile.addptr %{{.*}}, %[[I0]]
// CHECK: tile.load {{.*}} -> tensor<1024xf32
// CHECK: tile.addptr %{{.*}}, %[[I1]]
// CHECK: tile.load {{.*}} -> tensor<1024xf32
func.func @asked(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b8>
  %qs = tile.splat %q : tensor<1024x!tile.ptr<f32>, #b8>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tile.load %ps : (tensor<1024x!tile.ptr<f32>, #b8>) -> tensor<1024xf32, #b8>
    tile.store %qs, %x : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xf32, #b8>
  } {tile.loop_unroll_factor = 2 : i32}
  return
}

func.func @gather(%p: !tile.ptr<f32>, %idx: !tile.ptr<i32>, %n: i32) -> tensor<1024xf32, #b8> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<1024xf32, #b8>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>, #b8>
  %is = tile.splat %idx : tensor<1024x!tile.ptr<i32>, #b8>
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<1024xf32, #b8>) : i32 {
    %k = tile.load %is : (tensor<1024x!tile.ptr<i32>, #b8>) -> tensor<1024xi32, #b8>
    %g = tile.addptr %ps, %k : tensor<1024x!tile.ptr<f32>, #b8>, tensor<1024xi32, #b8>
    %x = tile.load %g : (tensor<1024x!tile.ptr<f32>, #b8>) -> tensor<1024xf32, #b8>
    %s = arith.addf %acc, %x : tensor<1024xf32, #b8>
    scf.yield %s : tensor<1024xf32, #b8>
  } {tile.loop_unroll_factor = 2 : i32}
  return %a : tensor<1024xf32, #b8>
}
