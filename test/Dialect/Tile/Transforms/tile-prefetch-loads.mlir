// RUN: tilec-opt %s -split-input-file -tile-prefetch-loads | FileCheck %s

// A K loop: the loads of the first iteration move before the loop, masked
// by lb < ub; each iteration computes the next pointers (cloned from the
// yielded values), loads the next tiles masked by their own mask and
// i + step < ub, and the product uses the tiles the loop carries.
// CHECK-LABEL: func.func @k_loop
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32)
// CHECK: %[[P0:.*]] = tile.splat %[[P]] : tensor<64x32x!tile.ptr<f16>>
// CHECK: %[[FIRST:.*]] = arith.cmpi slt, %[[LB:.*]], %[[N]] : i32
// CHECK: %[[FMASK:.*]] = tile.splat %[[FIRST]] : tensor<64x32xi1>
// CHECK: %[[A0:.*]] = tile.load %[[P0]], %[[FMASK]] : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1>) -> tensor<64x32xf16>
// CHECK: %[[R:.*]]:3 = scf.for %[[I:.*]] = %[[LB]] to %[[N]] step %[[S:.*]] iter_args(%[[PA:.*]] = %[[P0]], %[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %[[A0]])
// CHECK:   %[[NEXTP:.*]] = tile.addptr %[[PA]], %{{.*}}
// CHECK:   %[[NEXTI:.*]] = arith.addi %[[I]], %[[S]] : i32
// CHECK:   %[[VALID:.*]] = arith.cmpi slt, %[[NEXTI]], %[[N]] : i32
// CHECK:   %[[VMASK:.*]] = tile.splat %[[VALID]] : tensor<64x32xi1>
// CHECK:   %[[NEXTA:.*]] = tile.load %[[NEXTP]], %[[VMASK]]
// CHECK:   %[[D:.*]] = tile.dot %[[A]], %{{.*}}, %[[ACC]]
// CHECK:   scf.yield %{{.*}}, %[[D]], %[[NEXTA]]
func.func @k_loop(%p: !tile.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %d32 = arith.constant dense<32> : tensor<64x32xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %sb = tile.splat %p : tensor<32x64x!tile.ptr<f16>>
  %b = tile.load %sb : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
  %p0 = tile.splat %p : tensor<64x32x!tile.ptr<f16>>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %p0, %acc = %zero) -> (tensor<64x32x!tile.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %a = tile.load %pa : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %next = tile.addptr %pa, %d32 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %next, %d : tensor<64x32x!tile.ptr<f16>>, tensor<64x64xf32>
  }
  return
}

// -----

// A loop without a product is left alone. In a gather, the index load is
// prefetched (its pointers do not change), but the load whose pointers come
// from it stays where it is.
// CHECK-LABEL: func.func @untouched
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.store
// CHECK: %[[IDX0:.*]] = tile.load %{{.*}}, %{{.*}} : (tensor<16x16x!tile.ptr<i32>>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[IDX:.*]] = %[[IDX0]])
// CHECK:   tile.load {{.*}} -> tensor<16x16xi32>
// CHECK:   %[[G:.*]] = tile.addptr %{{.*}}, %[[IDX]]
// CHECK:   tile.load %[[G]] : (tensor<16x16x!tile.ptr<f32>>) -> tensor<16x16xf32>
// CHECK:   tile.dot
func.func @untouched(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tile.load %ps : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
    tile.store %ps, %x : tensor<64x!tile.ptr<f32>>, tensor<64xf32>
  }
  %qs = tile.splat %q : tensor<16x16x!tile.ptr<i32>>
  %pm = tile.splat %p : tensor<16x16x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %idx = tile.load %qs : (tensor<16x16x!tile.ptr<i32>>) -> tensor<16x16xi32>
    %g = tile.addptr %pm, %idx : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
    %x = tile.load %g : (tensor<16x16x!tile.ptr<f32>>) -> tensor<16x16xf32>
    %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  return
}

// -----

// A loop tile-pipeline has rebuilt (its products are warp_group_dots on
// shared memory): the loads left in registers are prefetched the same way.
// A load the body issues before a product and first reads after it (the
// attention backward's rows of m) stays in its iteration: the product hides
// its latency there. A loop that stores to global memory is left alone (its
// next iteration could read what this one writes).
#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#shared = #tile.shared<contiguousDim = 1, swizzle = 128>
// CHECK-LABEL: func.func @pipelined
// CHECK: %[[M0:.*]] = tile.load %{{.*}}, %{{.*}} : (tensor<64x!tile.ptr<f32>, #{{.*}}>, tensor<64xi1, #{{.*}}>) -> tensor<64xf32, #{{.*}}>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[M:.*]] = %[[M0]])
// CHECK:   %[[NEXTM:.*]] = tile.load
// CHECK:   arith.addf %{{.*}}, %[[M]]
// CHECK:   tile.warp_group_dot
// CHECK:   scf.yield %{{.*}}, %{{.*}}, %{{.*}}, %[[NEXTM]]
// CHECK-LABEL: func.func @hidden_by_product
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) ->
// CHECK-NEXT: %[[HM:.*]] = tile.load
// CHECK-NEXT: tile.warp_group_dot
// CHECK-NEXT: arith.addf %{{.*}}, %[[HM]]
// CHECK-LABEL: func.func @stores
// CHECK: scf.for
// CHECK-NEXT: tile.load
module attributes {tile.num_warps = 4 : i32, tile.target = "sm_90a"} {
  func.func @pipelined(%p: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %d64 = arith.constant dense<64> : tensor<64xi32, #d1>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %zs = arith.constant dense<0.0> : tensor<64xf32, #d1>
    %a = tile.local_alloc : <64x64xf16, #shared>
    %b = tile.local_alloc : <64x64xf16, #shared>
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%pm = %p0, %acc = %zero, %s = %zs) -> (tensor<64x!tile.ptr<f32>, #d1>, tensor<64x64xf32, #mma>, tensor<64xf32, #d1>) : i32 {
      %m = tile.load %pm : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %s2 = arith.addf %s, %m : tensor<64xf32, #d1>
      %d = tile.warp_group_dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x64xf16, #shared>, <64x64xf16, #shared> -> tensor<64x64xf32, #mma>
      %next = tile.addptr %pm, %d64 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
      scf.yield %next, %d, %s2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64x64xf32, #mma>, tensor<64xf32, #d1>
    }
    tile.store %p0, %res#2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
    return
  }

  func.func @hidden_by_product(%p: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %d64 = arith.constant dense<64> : tensor<64xi32, #d1>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %zs = arith.constant dense<0.0> : tensor<64xf32, #d1>
    %a = tile.local_alloc : <64x64xf16, #shared>
    %b = tile.local_alloc : <64x64xf16, #shared>
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%pm = %p0, %acc = %zero, %s = %zs) -> (tensor<64x!tile.ptr<f32>, #d1>, tensor<64x64xf32, #mma>, tensor<64xf32, #d1>) : i32 {
      %m = tile.load %pm : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %d = tile.warp_group_dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x64xf16, #shared>, <64x64xf16, #shared> -> tensor<64x64xf32, #mma>
      %s2 = arith.addf %s, %m : tensor<64xf32, #d1>
      %next = tile.addptr %pm, %d64 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
      scf.yield %next, %d, %s2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64x64xf32, #mma>, tensor<64xf32, #d1>
    }
    tile.store %p0, %res#2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
    return
  }

  func.func @stores(%p: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %one = arith.constant dense<1.0> : tensor<64xf32, #d1>
    %a = tile.local_alloc : <64x64xf16, #shared>
    %b = tile.local_alloc : <64x64xf16, #shared>
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
    %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %m = tile.load %p0 : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %m1 = arith.addf %m, %one : tensor<64xf32, #d1>
      tile.store %p0, %m1 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
      %d = tile.warp_group_dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x64xf16, #shared>, <64x64xf16, #shared> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return
  }
}

// -----

// Bytes converted before the product: the next iteration's are loaded right
// after the conversion reads the current ones (they then share registers).
// An fp32 tile computed with before the product keeps its load at the top.
// CHECK-LABEL: func.func @after_last_use
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[A:.*]] = %{{.*}}, %[[X:.*]] = %{{.*}})
// CHECK:   %[[NEXTX:.*]] = tile.load {{.*}} -> tensor<32x64xf32>
// CHECK:   %[[AF:.*]] = arith.sitofp %[[A]] : tensor<64x32xi8> to tensor<64x32xf16>
// CHECK:   %[[NEXTA:.*]] = tile.load {{.*}} -> tensor<64x32xi8>
// CHECK:   %[[XF:.*]] = arith.truncf %[[X]]
// CHECK:   tile.dot %[[AF]], %[[XF]]
// CHECK:   scf.yield %{{.*}}, %{{.*}}, %[[NEXTA]], %[[NEXTX]]
func.func @after_last_use(%p: !tile.ptr<i8>, %q: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %d32 = arith.constant dense<32> : tensor<64x32xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %pb = tile.splat %q : tensor<32x64x!tile.ptr<f32>>
  %p0 = tile.splat %p : tensor<64x32x!tile.ptr<i8>>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %p0, %acc = %zero) -> (tensor<64x32x!tile.ptr<i8>>, tensor<64x64xf32>) : i32 {
    %a = tile.load %pa : (tensor<64x32x!tile.ptr<i8>>) -> tensor<64x32xi8>
    %x = tile.load %pb : (tensor<32x64x!tile.ptr<f32>>) -> tensor<32x64xf32>
    %af = arith.sitofp %a : tensor<64x32xi8> to tensor<64x32xf16>
    %xf = arith.truncf %x : tensor<32x64xf32> to tensor<32x64xf16>
    %d = tile.dot %af, %xf, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %next = tile.addptr %pa, %d32 : tensor<64x32x!tile.ptr<i8>>, tensor<64x32xi32>
    scf.yield %next, %d : tensor<64x32x!tile.ptr<i8>>, tensor<64x64xf32>
  }
  return
}

// -----

// A tile of pointers loaded in the loop (pointers as data) is prefetched
// and stays at the top: only narrow numbers move after their last use.
// CHECK-LABEL: func.func @pointer_tiles
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[PTRS:.*]] = %{{.*}})
// CHECK:   %[[NEXT:.*]] = tile.load {{.*}} -> tensor<16x16x!tile.ptr<f16>>
// CHECK:   tile.load %[[PTRS]] : (tensor<16x16x!tile.ptr<f16>>) -> tensor<16x16xf16>
// CHECK:   scf.yield %{{.*}}, %[[NEXT]]
func.func @pointer_tiles(%pp: !tile.ptr<!tile.ptr<f16>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %s = tile.splat %pp : tensor<16x16x!tile.ptr<!tile.ptr<f16>>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %ptrs = tile.load %s : (tensor<16x16x!tile.ptr<!tile.ptr<f16>>>) -> tensor<16x16x!tile.ptr<f16>>
    %x = tile.load %ptrs : (tensor<16x16x!tile.ptr<f16>>) -> tensor<16x16xf16>
    %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  return
}

// -----

// Registers: a loop whose accumulator (128 x 256 fp32 over 4 warps: 256
// registers a thread) leaves no room for a second copy of a tile keeps its
// loads in their iteration; the same load beside a 64 x 64 accumulator (32
// registers) is prefetched.
#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#big = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 256, 16]>
#shared = #tile.shared<contiguousDim = 1, swizzle = 128>
// CHECK-LABEL: func.func @over_budget
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) ->
// CHECK-NEXT: tile.load
// CHECK-LABEL: func.func @within_budget
// CHECK: tile.load
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) ->
module attributes {tile.num_warps = 4 : i32, tile.target = "sm_90a"} {
  func.func @over_budget(%p: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %d64 = arith.constant dense<64> : tensor<64xi32, #d1>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32, #big>
    %zs = arith.constant dense<0.0> : tensor<64xf32, #d1>
    %a = tile.local_alloc : <128x64xf16, #shared>
    %b = tile.local_alloc : <64x256xf16, #shared>
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%pm = %p0, %acc = %zero, %s = %zs) -> (tensor<64x!tile.ptr<f32>, #d1>, tensor<128x256xf32, #big>, tensor<64xf32, #d1>) : i32 {
      %m = tile.load %pm : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %s2 = arith.addf %s, %m : tensor<64xf32, #d1>
      %d = tile.warp_group_dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x64xf16, #shared>, <64x256xf16, #shared> -> tensor<128x256xf32, #big>
      %next = tile.addptr %pm, %d64 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
      scf.yield %next, %d, %s2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<128x256xf32, #big>, tensor<64xf32, #d1>
    }
    tile.store %p0, %res#2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
    return
  }

  func.func @within_budget(%p: !tile.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %d64 = arith.constant dense<64> : tensor<64xi32, #d1>
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %zs = arith.constant dense<0.0> : tensor<64xf32, #d1>
    %a = tile.local_alloc : <64x64xf16, #shared>
    %b = tile.local_alloc : <64x64xf16, #shared>
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %p0 = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
    %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%pm = %p0, %acc = %zero, %s = %zs) -> (tensor<64x!tile.ptr<f32>, #d1>, tensor<64x64xf32, #mma>, tensor<64xf32, #d1>) : i32 {
      %m = tile.load %pm : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
      %s2 = arith.addf %s, %m : tensor<64xf32, #d1>
      %d = tile.warp_group_dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x64xf16, #shared>, <64x64xf16, #shared> -> tensor<64x64xf32, #mma>
      %next = tile.addptr %pm, %d64 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
      scf.yield %next, %d, %s2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64x64xf32, #mma>, tensor<64xf32, #d1>
    }
    tile.store %p0, %res#2 : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
    return
  }
}

// -----

// Addresses: a thread of #rows holds runs of 8 consecutive elements of a
// row (tl.arange along it), so a 64 x 128 tile of pointers costs it an
// address per run (8 x 2 registers), not one per element (64 x 2): beside a
// 128 x 64 fp32 accumulator (64 registers) its unaligned fp16 tile (64
// registers, an element each) is prefetched. The same tile strided along
// its rows (an unknown stride: one address an element) is not.
#rows = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
#shared = #tile.shared<contiguousDim = 1, swizzle = 128>
// CHECK-LABEL: func.func @runs
// CHECK: tile.load
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) ->
// CHECK-LABEL: func.func @strided
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}}, %{{[^,]*}}) ->
// CHECK-NEXT: tile.load
module attributes {tile.num_warps = 4 : i32, tile.target = "sm_90a"} {
  func.func @runs(%p: !tile.ptr<f16>, %n: i32, %stride: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %d64 = arith.constant dense<64> : tensor<64x128xi32, #rows>
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %a = tile.local_alloc : <128x64xf16, #shared>
    %b = tile.local_alloc : <64x64xf16, #shared>
    %cols = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #rows>>
    %cols1 = tile.expand_dims %cols {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #rows>> -> tensor<1x128xi32, #rows>
    %cols2 = tile.broadcast %cols1 : tensor<1x128xi32, #rows> -> tensor<64x128xi32, #rows>
    %ps = tile.splat %p : tensor<64x128x!tile.ptr<f16>, #rows>
    %p0 = tile.addptr %ps, %cols2 : tensor<64x128x!tile.ptr<f16>, #rows>, tensor<64x128xi32, #rows>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pm = %p0, %acc = %zero) -> (tensor<64x128x!tile.ptr<f16>, #rows>, tensor<128x64xf32, #mma>) : i32 {
      %t = tile.load %pm : (tensor<64x128x!tile.ptr<f16>, #rows>) -> tensor<64x128xf16, #rows>
      %d = tile.warp_group_dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x64xf16, #shared>, <64x64xf16, #shared> -> tensor<128x64xf32, #mma>
      %next = tile.addptr %pm, %d64 : tensor<64x128x!tile.ptr<f16>, #rows>, tensor<64x128xi32, #rows>
      scf.yield %next, %d : tensor<64x128x!tile.ptr<f16>, #rows>, tensor<128x64xf32, #mma>
    }
    return
  }

  func.func @strided(%p: !tile.ptr<f16>, %n: i32, %stride: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %d64 = arith.constant dense<64> : tensor<64x128xi32, #rows>
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %a = tile.local_alloc : <128x64xf16, #shared>
    %b = tile.local_alloc : <64x64xf16, #shared>
    %cols = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #rows>>
    %cols1 = tile.expand_dims %cols {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #rows>> -> tensor<1x128xi32, #rows>
    %cols2 = tile.broadcast %cols1 : tensor<1x128xi32, #rows> -> tensor<64x128xi32, #rows>
    %st = tile.splat %stride : tensor<64x128xi32, #rows>
    %off = arith.muli %cols2, %st : tensor<64x128xi32, #rows>
    %ps = tile.splat %p : tensor<64x128x!tile.ptr<f16>, #rows>
    %p0 = tile.addptr %ps, %off : tensor<64x128x!tile.ptr<f16>, #rows>, tensor<64x128xi32, #rows>
    %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pm = %p0, %acc = %zero) -> (tensor<64x128x!tile.ptr<f16>, #rows>, tensor<128x64xf32, #mma>) : i32 {
      %t = tile.load %pm : (tensor<64x128x!tile.ptr<f16>, #rows>) -> tensor<64x128xf16, #rows>
      %d = tile.warp_group_dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x64xf16, #shared>, <64x64xf16, #shared> -> tensor<128x64xf32, #mma>
      %next = tile.addptr %pm, %d64 : tensor<64x128x!tile.ptr<f16>, #rows>, tensor<64x128xi32, #rows>
      scf.yield %next, %d : tensor<64x128x!tile.ptr<f16>, #rows>, tensor<128x64xf32, #mma>
    }
    return
  }
}
