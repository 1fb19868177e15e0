// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s

// tile-pipeline on loops whose accumulator is not a plain 32-bit one used
// only by the next iteration: fp16 accumulators and products or accumulators
// with other uses.
// @big with an fp16 accumulator (and output): only 32-bit accumulators are
// left in flight, so the product stays synchronous (no isAsync, no
// warp_group_dot_wait) and the copies run num-stages - 1 = 2 iterations
// ahead: two stages before the loop, write = 2, and one group left in
// flight by the wait in the body.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>
// CHECK-LABEL: func.func @big_f16_acc(
// CHECK: %[[CS:.*]] = tile.splat %{{.*}} : tensor<128x256x!tile.ptr<f16>, #mma>
// CHECK: tile.local_alloc : <3x128x64xf16, #{{.*}}>
// CHECK: tile.local_alloc : <3x64x256xf16, #{{.*}}>
// CHECK-COUNT-2: tile.async_commit_group
// CHECK-NOT: tile.async_commit_group
// CHECK: %[[READ0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[WRITE0:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[R:.*]]:7 = scf.for {{.*}} iter_args(%{{[^,]*}}, %[[ACC:[^ ]*]] = %{{[^,]*}}, {{.*}}, %{{[^ ]*}} = %[[READ0]], %{{[^ ]*}} = %[[WRITE0]])
// CHECK-NEXT: tile.async_wait {pending = 1 : i32}
// CHECK-NEXT: %[[NSTEPS2:.*]] = arith.constant 2 : i32
// CHECK-NOT: isAsync
// CHECK: %[[D:.*]] = tile.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x64xf16, #{{.*}}>, <64x256xf16, #{{.*}}> -> tensor<128x256xf16, #mma>
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: scf.yield %{{[^ ]*}}, %[[D]], {{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: tile.store %[[CS]], %[[R]]#1 :
module attributes {tile.num_warps = 8 : i32} {
  func.func @big_f16_acc(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pc: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c63 = arith.constant 63 : i32
    %c64 = arith.constant 64 : i32
    %za = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
    %zb = arith.constant dense<0.000000e+00> : tensor<64x256xf16, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<128x256xf16, #mma>
    // A: row * lda + k.
    %m = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<128x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<128x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<128x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<128x1x!tile.ptr<f16>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<128x1x!tile.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
    %ka = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x64xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<128x1x!tile.ptr<f16>, #blocked1> -> tensor<128x64x!tile.ptr<f16>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    // B: k * ldb + column.
    %kb = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<64x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<64x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<64x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %n = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<256xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x256xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x256x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x256xi32, #blocked> -> tensor<64x256xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
    %cs = tile.splat %pc : tensor<128x256x!tile.ptr<f16>, #mma>
    %kp = arith.addi %K, %c63 : i32
    %ub = arith.divsi %kp, %c64 : i32
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x256xf16, #mma>, tensor<64x256x!tile.ptr<f16>, #blocked>) : i32 {
      %k0 = arith.muli %i, %c64 : i32
      %left = arith.subi %K, %k0 : i32
      %lefta = tile.splat %left : tensor<1x64xi32, #blocked1>
      %ma1 = arith.cmpi slt, %ka1, %lefta : tensor<1x64xi32, #blocked1>
      %ma = tile.broadcast %ma1 : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
      %a = tile.load %qa, %ma other %za : (tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi1, #blocked1>, tensor<128x64xf16, #blocked1>) -> tensor<128x64xf16, #blocked1>
      %leftb = tile.splat %left : tensor<64x1xi32, #blocked>
      %mb1 = arith.cmpi slt, %kb1, %leftb : tensor<64x1xi32, #blocked>
      %mb = tile.broadcast %mb1 : tensor<64x1xi1, #blocked> -> tensor<64x256xi1, #blocked>
      %b = tile.load %qb, %mb other %zb : (tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi1, #blocked>, tensor<64x256xf16, #blocked>) -> tensor<64x256xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked1>, tensor<64x256xf16, #blocked> -> tensor<128x256xf16, #mma>
      %stepa = tile.splat %c64 : tensor<128x64xi32, #blocked1>
      %na = tile.addptr %qa, %stepa : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %sb = arith.muli %ldb, %c64 : i32
      %stepb = tile.splat %sb : tensor<64x256xi32, #blocked>
      %nb = tile.addptr %qb, %stepb : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x256xf16, #mma>, tensor<64x256x!tile.ptr<f16>, #blocked>
    }
    tile.store %cs, %r#1 : tensor<128x256x!tile.ptr<f16>, #mma>, tensor<128x256xf16, #mma>
    return
  }
}

// -----

// @big where the body also stores each product: the product has a use
// besides the next accumulator, so it cannot stay in flight, and the loop
// takes the synchronous form, as @big_f16_acc.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>
// CHECK-LABEL: func.func @big_dot_other_use(
// CHECK: %[[CS:.*]] = tile.splat %{{.*}} : tensor<128x256x!tile.ptr<f32>, #mma>
// CHECK: tile.local_alloc : <3x128x64xf16, #{{.*}}>
// CHECK: tile.local_alloc : <3x64x256xf16, #{{.*}}>
// CHECK-COUNT-2: tile.async_commit_group
// CHECK-NOT: tile.async_commit_group
// CHECK: %[[READ0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[WRITE0:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[R:.*]]:7 = scf.for {{.*}} iter_args(%{{[^,]*}}, %[[ACC:[^ ]*]] = %{{[^,]*}}, {{.*}}, %{{[^ ]*}} = %[[READ0]], %{{[^ ]*}} = %[[WRITE0]])
// CHECK-NEXT: tile.async_wait {pending = 1 : i32}
// CHECK-NEXT: %[[NSTEPS2:.*]] = arith.constant 2 : i32
// CHECK-NOT: isAsync
// CHECK: %[[D:.*]] = tile.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x64xf16, #{{.*}}>, <64x256xf16, #{{.*}}> -> tensor<128x256xf32, #mma>
// CHECK-NEXT: tile.store %[[CS]], %[[D]] :
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: scf.yield %{{[^ ]*}}, %[[D]], {{.*}}
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: tile.store %[[CS]], %[[R]]#1 :
module attributes {tile.num_warps = 8 : i32} {
  func.func @big_dot_other_use(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pc: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c63 = arith.constant 63 : i32
    %c64 = arith.constant 64 : i32
    %za = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
    %zb = arith.constant dense<0.000000e+00> : tensor<64x256xf16, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    // A: row * lda + k.
    %m = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<128x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<128x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<128x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<128x1x!tile.ptr<f16>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<128x1x!tile.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
    %ka = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x64xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<128x1x!tile.ptr<f16>, #blocked1> -> tensor<128x64x!tile.ptr<f16>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    // B: k * ldb + column.
    %kb = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<64x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<64x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<64x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %n = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<256xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x256xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x256x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x256xi32, #blocked> -> tensor<64x256xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
    %cs = tile.splat %pc : tensor<128x256x!tile.ptr<f32>, #mma>
    %kp = arith.addi %K, %c63 : i32
    %ub = arith.divsi %kp, %c64 : i32
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x256xf32, #mma>, tensor<64x256x!tile.ptr<f16>, #blocked>) : i32 {
      %k0 = arith.muli %i, %c64 : i32
      %left = arith.subi %K, %k0 : i32
      %lefta = tile.splat %left : tensor<1x64xi32, #blocked1>
      %ma1 = arith.cmpi slt, %ka1, %lefta : tensor<1x64xi32, #blocked1>
      %ma = tile.broadcast %ma1 : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
      %a = tile.load %qa, %ma other %za : (tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi1, #blocked1>, tensor<128x64xf16, #blocked1>) -> tensor<128x64xf16, #blocked1>
      %leftb = tile.splat %left : tensor<64x1xi32, #blocked>
      %mb1 = arith.cmpi slt, %kb1, %leftb : tensor<64x1xi32, #blocked>
      %mb = tile.broadcast %mb1 : tensor<64x1xi1, #blocked> -> tensor<64x256xi1, #blocked>
      %b = tile.load %qb, %mb other %zb : (tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi1, #blocked>, tensor<64x256xf16, #blocked>) -> tensor<64x256xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked1>, tensor<64x256xf16, #blocked> -> tensor<128x256xf32, #mma>
      tile.store %cs, %d : tensor<128x256x!tile.ptr<f32>, #mma>, tensor<128x256xf32, #mma>
      %stepa = tile.splat %c64 : tensor<128x64xi32, #blocked1>
      %na = tile.addptr %qa, %stepa : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %sb = arith.muli %ldb, %c64 : i32
      %stepb = tile.splat %sb : tensor<64x256xi32, #blocked>
      %nb = tile.addptr %qb, %stepb : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x256xf32, #mma>, tensor<64x256x!tile.ptr<f16>, #blocked>
    }
    tile.store %cs, %r#1 : tensor<128x256x!tile.ptr<f32>, #mma>, tensor<128x256xf32, #mma>
    return
  }
}

// -----

// The accumulator argument is also stored in the body: that read must see
// final values, so the product stays synchronous.
// CHECK-LABEL: func.func @acc_arg_other_use(
// CHECK: scf.for
// CHECK: tile.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tile<input_precision tf32>} :
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: return
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>
module attributes {tile.num_warps = 8 : i32} {
  func.func @acc_arg_other_use(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pc: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c63 = arith.constant 63 : i32
    %c64 = arith.constant 64 : i32
    %za = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
    %zb = arith.constant dense<0.000000e+00> : tensor<64x256xf16, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<128x256xf32, #mma>
    // A: row * lda + k.
    %m = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<128x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<128x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<128x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<128x1x!tile.ptr<f16>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<128x1x!tile.ptr<f16>, #blocked1>, tensor<128x1xi32, #blocked1>
    %ka = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x64xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<128x1x!tile.ptr<f16>, #blocked1> -> tensor<128x64x!tile.ptr<f16>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x64xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    // B: k * ldb + column.
    %kb = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<64x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<64x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<64x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %n = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<256xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x256xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x256x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x256xi32, #blocked> -> tensor<64x256xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
    %cs = tile.splat %pc : tensor<128x256x!tile.ptr<f32>, #mma>
    %kp = arith.addi %K, %c63 : i32
    %ub = arith.divsi %kp, %c64 : i32
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x256xf32, #mma>, tensor<64x256x!tile.ptr<f16>, #blocked>) : i32 {
      %k0 = arith.muli %i, %c64 : i32
      %left = arith.subi %K, %k0 : i32
      %lefta = tile.splat %left : tensor<1x64xi32, #blocked1>
      %ma1 = arith.cmpi slt, %ka1, %lefta : tensor<1x64xi32, #blocked1>
      %ma = tile.broadcast %ma1 : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
      %a = tile.load %qa, %ma other %za : (tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi1, #blocked1>, tensor<128x64xf16, #blocked1>) -> tensor<128x64xf16, #blocked1>
      %leftb = tile.splat %left : tensor<64x1xi32, #blocked>
      %mb1 = arith.cmpi slt, %kb1, %leftb : tensor<64x1xi32, #blocked>
      %mb = tile.broadcast %mb1 : tensor<64x1xi1, #blocked> -> tensor<64x256xi1, #blocked>
      %b = tile.load %qb, %mb other %zb : (tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi1, #blocked>, tensor<64x256xf16, #blocked>) -> tensor<64x256xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked1>, tensor<64x256xf16, #blocked> -> tensor<128x256xf32, #mma>
      tile.store %cs, %acc : tensor<128x256x!tile.ptr<f32>, #mma>, tensor<128x256xf32, #mma>
      %stepa = tile.splat %c64 : tensor<128x64xi32, #blocked1>
      %na = tile.addptr %qa, %stepa : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %sb = arith.muli %ldb, %c64 : i32
      %stepb = tile.splat %sb : tensor<64x256xi32, #blocked>
      %nb = tile.addptr %qb, %stepb : tensor<64x256x!tile.ptr<f16>, #blocked>, tensor<64x256xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x256xf32, #mma>, tensor<64x256x!tile.ptr<f16>, #blocked>
    }
    tile.store %cs, %r#1 : tensor<128x256x!tile.ptr<f32>, #mma>, tensor<128x256xf32, #mma>
    return
  }
}
