// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=2" | FileCheck %s --check-prefix=TWO

// tile-pipeline on tf32 products: fp32 B is stored K-major.
// tf32: fp32 B can only be stored K-major. Its registers run along N, so
// each element is copied alone (4 bytes); the 32 K of 4 bytes fill a
// 128-byte swizzle. A is stored K-major as usual. (tile-coalesce gives a
// 16-byte aligned B the 4 x 4 layout of @tf32_staged instead.)
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8]>
// CHECK-DAG: #[[SA:shared[0-9]*]] = #tile.shared<contiguousDim = 1, swizzle = 128>
// CHECK-DAG: #[[SB:shared[0-9]*]] = #tile.shared<contiguousDim = 0, swizzle = 128>
// CHECK-LABEL: func.func @tf32
// CHECK: tile.local_alloc : <3x64x32xf32, #[[SA]]>
// CHECK: tile.local_alloc : <3x32x64xf32, #[[SB]]>
// CHECK: scf.for
// CHECK: tile.warp_group_dot {{.*}} {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf32, #[[SA]]>, <32x64xf32, #[[SB]]> -> tensor<64x64xf32, #mma>
module attributes {tile.num_warps = 4 : i32} {
  func.func @tf32(%pa: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<64x1x!tile.ptr<f32>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<64x1x!tile.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<64x1x!tile.ptr<f32>, #blocked1> -> tensor<64x32x!tile.ptr<f32>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f32>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f32>, #blocked> -> tensor<32x64x!tile.ptr<f32>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x64x!tile.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
    %stepa = tile.splat %c32 : tensor<64x32xi32, #blocked1>
    %sb = arith.muli %ldb, %c32 : i32
    %stepb = tile.splat %sb : tensor<32x64xi32, #blocked>
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f32>, #blocked>) : i32 {
      %a = tile.load %qa : (tensor<64x32x!tile.ptr<f32>, #blocked1>) -> tensor<64x32xf32, #blocked1>
      %b = tile.load %qb : (tensor<32x64x!tile.ptr<f32>, #blocked>) -> tensor<32x64xf32, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32, #blocked1>, tensor<32x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %na = tile.addptr %qa, %stepa : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
      %nb = tile.addptr %qb, %stepb : tensor<32x64x!tile.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f32>, #blocked>
    }
    return %r#1 : tensor<64x64xf32, #mma>
  }
}

// -----

// tf32 with B laid out 4 x 4 per thread (tile-coalesce's choice for a B
// read from rows of N): B is staged through registers. Its tile is loaded
// with the stage's mask (plain loads, no cp.async) and stored into the slot
// by the threads (tile.local_store) while the product runs: the product is
// started asynchronously and waited for after the store. With 3 stages the
// copies run two iterations ahead, so B's tile of stage i + 2 is loaded in
// iteration i and stored in iteration i + 1 (the loop carries it; the
// prologue stores stage 0 and loads stage 1), into the slot before `write`.
// With 2 stages (one ahead) it is loaded and stored in the same iteration,
// into slot `write`. The accumulator and the staged tile fit 128 registers
// and A moves in 16-byte copies: the function asks for two programs per SM.
// CHECK-LABEL: func.func @tf32_staged(
// CHECK-SAME: attributes {tile.programs_per_sm = 2 : i32}
// CHECK: %[[RA:.*]] = tile.local_alloc : <3x64x32xf32, #[[SA:shared[0-9]*]]>
// CHECK: %[[RB:.*]] = tile.local_alloc : <3x32x64xf32, #[[SB:shared[0-9]*]]>
// CHECK: tile.async_copy
// CHECK: %[[B0:.*]] = tile.load
// CHECK: %[[SLOT0:.*]] = tile.smem_slot %[[RB]][%{{.*}}]
// CHECK: tile.local_store %[[B0]], %[[SLOT0]]
// CHECK: tile.async_commit_group
// CHECK: tile.async_copy
// CHECK: %[[B1:.*]] = tile.load
// CHECK-NOT: tile.local_store
// CHECK: tile.async_commit_group
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[WRITE:[^ ]*]] = %c2_i32, %[[CARRIED:[^ ]*]] = %[[B1]])
// CHECK: tile.async_wait {pending = 1 : i32}
// CHECK: tile.async_copy
// CHECK: %[[BN:.*]] = tile.load
// CHECK: tile.async_commit_group
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[WRITE]], %c0_i32
// CHECK: %[[PREVW:.*]] = arith.subi %[[WRITE]], %c1_i32
// CHECK: %[[PREV:.*]] = arith.select %[[FIRST]], %c2_i32{{.*}}, %[[PREVW]]
// CHECK: %[[SLOT:.*]] = tile.smem_slot %[[RB]][%[[PREV]]]
// CHECK: %[[P:.*]] = tile.warp_group_dot {{.*}} {inputPrecision = #tile<input_precision tf32>, isAsync}
// CHECK-NEXT: tile.local_store %[[CARRIED]], %[[SLOT]]
// CHECK-NEXT: %[[D:.*]] = tile.warp_group_dot_wait %[[P]] {pending = 0 : i32}
// CHECK: scf.yield {{.*}}, %[[BN]] :
// CHECK: tile.async_wait {pending = 0 : i32}
// TWO-LABEL: func.func @tf32_staged(
// TWO: scf.for {{.*}} iter_args({{.*}}, %[[WRITE:[^ ]*]] = %c1_i32{{[^ ]*}}) ->
// TWO: tile.async_wait {pending = 0 : i32}
// TWO: %[[BN:.*]] = tile.load
// TWO: %[[SLOT:.*]] = tile.smem_slot %{{.*}}[%[[WRITE]]] : <2x32x64xf32
// TWO: %[[P:.*]] = tile.warp_group_dot {{.*}}isAsync}
// TWO-NEXT: tile.local_store %[[BN]], %[[SLOT]]
// TWO-NEXT: tile.warp_group_dot_wait %[[P]] {pending = 0 : i32}
#blocked = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @tf32_staged(%pa: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<64x1x!tile.ptr<f32>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<64x1x!tile.ptr<f32>, #blocked1>, tensor<64x1xi32, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<64x1x!tile.ptr<f32>, #blocked1> -> tensor<64x32x!tile.ptr<f32>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f32>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f32>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f32>, #blocked> -> tensor<32x64x!tile.ptr<f32>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x64x!tile.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
    %stepa = tile.splat %c32 : tensor<64x32xi32, #blocked1>
    %sb = arith.muli %ldb, %c32 : i32
    %stepb = tile.splat %sb : tensor<32x64xi32, #blocked>
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f32>, #blocked>) : i32 {
      %a = tile.load %qa : (tensor<64x32x!tile.ptr<f32>, #blocked1>) -> tensor<64x32xf32, #blocked1>
      %b = tile.load %qb : (tensor<32x64x!tile.ptr<f32>, #blocked>) -> tensor<32x64xf32, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32, #blocked1>, tensor<32x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      %na = tile.addptr %qa, %stepa : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
      %nb = tile.addptr %qb, %stepb : tensor<32x64x!tile.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f32>, #blocked>
    }
    return %r#1 : tensor<64x64xf32, #mma>
  }
}
