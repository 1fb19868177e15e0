// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s

// Loops tile-pipeline leaves as they are: products that are not wgmma, and
// operands whose copies would not be exact.
// @instr_n with an mma.sync (version 2) product: not wgmma, left unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>
// CHECK-LABEL: func.func @mma_v2
// CHECK-NOT: tile.local_alloc
// CHECK-NOT: tile.async_copy
// CHECK: scf.for %{{.*}} iter_args(%[[QA:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[QB:.*]] = %{{.*}}) -> {{.*}} {
// CHECK-NEXT: %[[A:.*]] = tile.load %[[QA]] :
// CHECK-NEXT: %[[B:.*]] = tile.load %[[QB]] :
// CHECK-NEXT: tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @mma_v2(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<64x1x!tile.ptr<f16>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<64x1x!tile.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<64x1x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f16>, #blocked> -> tensor<32x64x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %stepa = tile.splat %c32 : tensor<64x32xi32, #blocked1>
    %sb = arith.muli %ldb, %c32 : i32
    %stepb = tile.splat %sb : tensor<32x64xi32, #blocked>
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>) : i32 {
      %a = tile.load %qa : (tensor<64x32x!tile.ptr<f16>, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %b = tile.load %qb : (tensor<32x64x!tile.ptr<f16>, #blocked>) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      %na = tile.addptr %qa, %stepa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %nb = tile.addptr %qb, %stepb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>
    }
    return %r#1 : tensor<64x64xf32, #mma>
  }
}

// -----

// @instr_n with a blocked (FMA) product: left unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @blocked_dot
// CHECK-NOT: tile.local_alloc
// CHECK-NOT: tile.async_copy
// CHECK: scf.for %{{.*}} iter_args(%[[QA:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[QB:.*]] = %{{.*}}) -> {{.*}} {
// CHECK-NEXT: %[[A:.*]] = tile.load %[[QA]] :
// CHECK-NEXT: %[[B:.*]] = tile.load %[[QB]] :
// CHECK-NEXT: tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @blocked_dot(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked>
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<64x1x!tile.ptr<f16>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<64x1x!tile.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<64x1x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f16>, #blocked> -> tensor<32x64x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %stepa = tile.splat %c32 : tensor<64x32xi32, #blocked1>
    %sb = arith.muli %ldb, %c32 : i32
    %stepb = tile.splat %sb : tensor<32x64xi32, #blocked>
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #blocked>, tensor<32x64x!tile.ptr<f16>, #blocked>) : i32 {
      %a = tile.load %qa : (tensor<64x32x!tile.ptr<f16>, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %b = tile.load %qb : (tensor<32x64x!tile.ptr<f16>, #blocked>) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #blocked>
      %na = tile.addptr %qa, %stepa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %nb = tile.addptr %qb, %stepb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #blocked>, tensor<32x64x!tile.ptr<f16>, #blocked>
    }
    return %r#1 : tensor<64x64xf32, #blocked>
  }
}

// -----

// @instr_n where A's padding is 1.0 instead of zeros: copies can only
// zero-fill, so the loop is left unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>
// CHECK-LABEL: func.func @nonzero_other
// CHECK-NOT: tile.local_alloc
// CHECK-NOT: tile.async_copy
// CHECK: scf.for %{{.*}} iter_args(%[[QA:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[QB:.*]] = %{{.*}}) -> {{.*}} {
// CHECK-NEXT: %[[A:.*]] = tile.load %[[QA]], %{{.*}} other %{{.*}} :
// CHECK-NEXT: %[[B:.*]] = tile.load %[[QB]] :
// CHECK-NEXT: tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @nonzero_other(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %ones = arith.constant dense<1.000000e+00> : tensor<64x32xf16, #blocked1>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<64x1x!tile.ptr<f16>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<64x1x!tile.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<64x1x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %Ks = tile.splat %K : tensor<1x32xi32, #blocked1>
    %ma1 = arith.cmpi slt, %ka1, %Ks : tensor<1x32xi32, #blocked1>
    %ma = tile.broadcast %ma1 : tensor<1x32xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f16>, #blocked> -> tensor<32x64x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %stepa = tile.splat %c32 : tensor<64x32xi32, #blocked1>
    %sb = arith.muli %ldb, %c32 : i32
    %stepb = tile.splat %sb : tensor<32x64xi32, #blocked>
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>) : i32 {
      %a = tile.load %qa, %ma other %ones : (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi1, #blocked1>, tensor<64x32xf16, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %b = tile.load %qb : (tensor<32x64x!tile.ptr<f16>, #blocked>) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      %na = tile.addptr %qa, %stepa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %nb = tile.addptr %qb, %stepb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>
    }
    return %r#1 : tensor<64x64xf32, #mma>
  }
}

// -----

// @instr_n without the divisibility hints: AxisInfo cannot show 4 aligned
// bytes in a row (fp16 elements one at a time), too small for cp.async, so
// the loop is left unchanged.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: tile.local_alloc
// CHECK-NOT: tile.async_copy
// CHECK: scf.for %{{.*}} iter_args(%[[QA:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[QB:.*]] = %{{.*}}) -> {{.*}} {
// CHECK-NEXT: %[[A:.*]] = tile.load %[[QA]] :
// CHECK-NEXT: %[[B:.*]] = tile.load %[[QB]] :
// CHECK-NEXT: tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: tile.addptr
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @unaligned(%pa: !tile.ptr<f16>, %pb: !tile.ptr<f16>, %ub: i32, %lda: i32, %ldb: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pa : tensor<64x1x!tile.ptr<f16>, #blocked1>
    %pa1 = tile.addptr %pas, %rowa : tensor<64x1x!tile.ptr<f16>, #blocked1>, tensor<64x1xi32, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
    %pa2 = tile.broadcast %pa1 : tensor<64x1x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
    %ka2 = tile.broadcast %ka1 : tensor<1x32xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
    %a0 = tile.addptr %pa2, %ka2 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
    %ldbs = tile.splat %ldb : tensor<32x1xi32, #blocked>
    %rowb = arith.muli %kb1, %ldbs : tensor<32x1xi32, #blocked>
    %pbs = tile.splat %pb : tensor<32x1x!tile.ptr<f16>, #blocked>
    %pb1 = tile.addptr %pbs, %rowb : tensor<32x1x!tile.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
    %n = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %n1 = tile.expand_dims %n {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %pb2 = tile.broadcast %pb1 : tensor<32x1x!tile.ptr<f16>, #blocked> -> tensor<32x64x!tile.ptr<f16>, #blocked>
    %n2 = tile.broadcast %n1 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
    %b0 = tile.addptr %pb2, %n2 : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
    %stepa = tile.splat %c32 : tensor<64x32xi32, #blocked1>
    %sb = arith.muli %ldb, %c32 : i32
    %stepb = tile.splat %sb : tensor<32x64xi32, #blocked>
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>) : i32 {
      %a = tile.load %qa : (tensor<64x32x!tile.ptr<f16>, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %b = tile.load %qb : (tensor<32x64x!tile.ptr<f16>, #blocked>) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      %na = tile.addptr %qa, %stepa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %nb = tile.addptr %qb, %stepb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>
    }
    return %r#1 : tensor<64x64xf32, #mma>
  }
}
