// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s

// Loops of two wgmma products: examples/attention.tile's loop as
// tile-remove-layout-conversions leaves it (fp16, sm_90a, 8 warps), q @ k
// then p @ v. Each operand the body loads for its product alone (k, v)
// gets a ring of 3 slots filled by cp.async two iterations ahead, both
// copies of one stage in one group; q, loaded before the loop, is stored
// once into a buffer of its own before the prologue, then fenced for the
// tensor cores and a barrier (the waits in the loop have no proxy fence:
// their data comes from cp.async only). p, computed by the body:
// @p_in_registers (128 x 64 blocks, warps along M only): its accumulator
// layout holds wgmma's A fragments, so the product takes it from registers;
// no store, no barrier in the loop but the wait at its top. The two
// accumulators take 32 + 32 registers a thread and the rings and buffers
// 64 KiB: the kernel asks for two programs an SM.
// CHECK-LABEL: func.func @p_in_registers
// CHECK-SAME: attributes {tile.programs_per_sm = 2 : i32}
// CHECK: %[[Q:.*]] = tile.load
// CHECK-NEXT: %[[RK:.*]] = tile.local_alloc : <3x64x64xf16, #[[SK:shared[0-9]*]]>
// CHECK-NEXT: %[[RV:.*]] = tile.local_alloc : <3x64x64xf16, #[[SV:shared[0-9]*]]>
// CHECK-NEXT: %[[QB:.*]] = tile.local_alloc : <128x64xf16, #[[SQ:shared[0-9]*]]>
// CHECK-NEXT: tile.local_store %[[Q]], %[[QB]] :
// CHECK-NEXT: tile.cta_barrier {asyncProxy}
// CHECK-COUNT-2: tile.async_commit_group
// CHECK: scf.for
// CHECK-NEXT: tile.async_wait {noProxyFence, pending = 1 : i32}
// CHECK-NOT: tile.local_store
// CHECK-NOT: tile.cta_barrier
// CHECK: tile.async_copy {{.*}} : tensor<64x64x!tile.ptr<f16>, #{{.*}}>, <64x64xf16, #[[SK]]>
// CHECK: tile.async_copy {{.*}} : tensor<64x64x!tile.ptr<f16>, #{{.*}}>, <64x64xf16, #[[SV]]>
// CHECK-NEXT: tile.async_commit_group
// CHECK-NEXT: %[[KS:.*]] = tile.smem_slot %[[RK]][%[[READ:.*]]]
// CHECK-NEXT: %[[VS:.*]] = tile.smem_slot %[[RV]][%[[READ]]]
// CHECK-NOT: tile.local_store
// CHECK-NOT: tile.cta_barrier
// CHECK: tile.warp_group_dot %[[QB]], %[[KS]], %{{.*}} : !tile.smem<128x64xf16, #[[SQ]]>, <64x64xf16, #[[SK]]> -> tensor<128x64xf32, #mma>
// CHECK-NOT: tile.local_store
// CHECK-NOT: tile.cta_barrier
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
// CHECK-NEXT: tile.warp_group_dot %[[P]], %[[VS]], %{{.*}} : tensor<128x64xf16, #mma>, <64x64xf16, #[[SV]]> -> tensor<128x64xf32, #mma>
// CHECK-NOT: tile.dot
// CHECK-NOT: tile.load
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
#blocked2 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 8 : i32, tile.target = "sm_90a"} {
  func.func @p_in_registers(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: f32, %arg5: i32) {
    %cst = arith.constant dense<0xFF800000> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_0 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %cst_1 = arith.constant dense<0xFF800000> : tensor<128x64xf32, #mma>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked1>
    %cst_4 = arith.constant dense<64> : tensor<1x64xi32, #blocked1>
    %c0_i32 = arith.constant 0 : i32
    %cst_5 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
    %cst_8 = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.muli %1, %arg5 : i32
    %3 = arith.muli %2, %c64_i32 : i32
    %4 = arith.muli %0, %c128_i32 : i32
    %5 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %6 = tile.splat %4 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %7 = arith.addi %6, %5 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %8 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %9 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %10 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
    %11 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %12 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %13 = tile.addptr %arg0, %3 : !tile.ptr<f16>, i32
    %14 = tile.expand_dims %7 {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<128x1xi32, #blocked>
    %15 = arith.muli %14, %cst_8 : tensor<128x1xi32, #blocked>
    %16 = tile.splat %13 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %17 = tile.addptr %16, %15 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %18 = tile.expand_dims %9 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %19 = tile.broadcast %17 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %20 = tile.broadcast %18 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %21 = tile.addptr %19, %20 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %22 = tile.splat %arg5 : tensor<128x1xi32, #blocked>
    %23 = arith.cmpi slt, %14, %22 : tensor<128x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %25 = tile.load %21, %24 other %cst_7 : (tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi1, #blocked>, tensor<128x64xf16, #blocked>) -> tensor<128x64xf16, #blocked>
    %26:3 = scf.for %arg6 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg7 = %cst_5, %arg8 = %cst_6, %arg9 = %cst) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>)  : i32 {
      %39 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
      %40 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %41 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %42 = arith.addi %39, %8 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
      %43 = arith.addi %40, %10 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %44 = arith.addi %41, %11 : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %45 = tile.addptr %arg1, %3 : !tile.ptr<f16>, i32
      %46 = tile.expand_dims %43 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x64xi32, #mma>
      %47 = tile.expand_dims %44 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x64xi32, #blocked1>
      %48 = arith.muli %47, %cst_4 : tensor<1x64xi32, #blocked1>
      %49 = tile.splat %45 : tensor<1x64x!tile.ptr<f16>, #blocked1>
      %50 = tile.addptr %49, %48 : tensor<1x64x!tile.ptr<f16>, #blocked1>, tensor<1x64xi32, #blocked1>
      %51 = tile.expand_dims %12 {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
      %52 = tile.broadcast %50 : tensor<1x64x!tile.ptr<f16>, #blocked1> -> tensor<64x64x!tile.ptr<f16>, #blocked1>
      %53 = tile.broadcast %51 : tensor<64x1xi32, #blocked1> -> tensor<64x64xi32, #blocked1>
      %54 = tile.addptr %52, %53 : tensor<64x64x!tile.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
      %55 = tile.splat %arg5 : tensor<1x64xi32, #mma>
      %56 = tile.splat %arg5 : tensor<1x64xi32, #blocked1>
      %57 = arith.cmpi slt, %46, %55 : tensor<1x64xi32, #mma>
      %58 = arith.cmpi slt, %47, %56 : tensor<1x64xi32, #blocked1>
      %59 = tile.broadcast %58 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
      %60 = tile.load %54, %59 other %cst_3 : (tensor<64x64x!tile.ptr<f16>, #blocked1>, tensor<64x64xi1, #blocked1>, tensor<64x64xf16, #blocked1>) -> tensor<64x64xf16, #blocked1>
      %61 = tile.convert_layout %60 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
      %62 = tile.dot %25, %61, %cst_5 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked>, tensor<64x64xf16, #blocked> -> tensor<128x64xf32, #mma>
      %63 = tile.splat %arg4 : tensor<128x64xf32, #mma>
      %64 = arith.mulf %62, %63 : tensor<128x64xf32, #mma>
      %65 = tile.broadcast %57 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
      %66 = arith.select %65, %64, %cst_1 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %67 = tile.reduce %66 {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %68 = arith.maxnumf %arg9, %67 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %69 = arith.subf %arg9, %68 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %70 = math.exp %69 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %71 = tile.expand_dims %68 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
      %72 = tile.broadcast %71 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %73 = arith.subf %66, %72 : tensor<128x64xf32, #mma>
      %74 = math.exp %73 : tensor<128x64xf32, #mma>
      %75 = arith.mulf %arg8, %70 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %76 = tile.reduce %74 {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %77 = arith.addf %75, %76 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %78 = tile.addptr %arg2, %3 : !tile.ptr<f16>, i32
      %79 = tile.expand_dims %42 {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi32, #blocked>
      %80 = arith.muli %79, %cst_0 : tensor<64x1xi32, #blocked>
      %81 = tile.splat %78 : tensor<64x1x!tile.ptr<f16>, #blocked>
      %82 = tile.addptr %81, %80 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
      %83 = tile.broadcast %82 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x64x!tile.ptr<f16>, #blocked>
      %84 = tile.broadcast %18 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
      %85 = tile.addptr %83, %84 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
      %86 = tile.splat %arg5 : tensor<64x1xi32, #blocked>
      %87 = arith.cmpi slt, %79, %86 : tensor<64x1xi32, #blocked>
      %88 = tile.broadcast %87 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %89 = tile.load %85, %88 other %cst_2 : (tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi1, #blocked>, tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked>
      %90 = tile.expand_dims %70 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
      %91 = tile.broadcast %90 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %92 = arith.mulf %arg7, %91 : tensor<128x64xf32, #mma>
      %93 = arith.truncf %74 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %94 = tile.dot %93, %89, %cst_5 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #mma>, tensor<64x64xf16, #blocked> -> tensor<128x64xf32, #mma>
      %95 = arith.addf %92, %94 : tensor<128x64xf32, #mma>
      scf.yield %95, %77, %68 : tensor<128x64xf32, #mma>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    }
    %27 = tile.convert_layout %26#0 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked>
    %28 = tile.convert_layout %26#1 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128xf32, #tile.slice<dim = 1, parent = #blocked2>>
    %29 = tile.expand_dims %28 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #blocked2>> -> tensor<128x1xf32, #blocked2>
    %30 = tile.convert_layout %29 : tensor<128x1xf32, #blocked2> -> tensor<128x1xf32, #blocked>
    %31 = tile.broadcast %30 : tensor<128x1xf32, #blocked> -> tensor<128x64xf32, #blocked>
    %32 = arith.divf %27, %31 fastmath<afn> : tensor<128x64xf32, #blocked>
    %33 = tile.addptr %arg3, %3 : !tile.ptr<f16>, i32
    %34 = tile.splat %33 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %35 = tile.addptr %34, %15 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %36 = tile.broadcast %35 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %37 = tile.addptr %36, %20 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %38 = arith.truncf %32 : tensor<128x64xf32, #blocked> to tensor<128x64xf16, #blocked>
    tile.store %37, %38, %24 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xf16, #blocked>, tensor<128x64xi1, #blocked>
    return
  }
}


// -----

// @p_stored (64 x 32 blocks, warps [4, 2]): the two warp groups split
// p @ v's N, so neither holds all of its A fragments; p gets a buffer,
// stored right before the product and made visible to wgmma by a proxy
// fence and a barrier.
// CHECK-LABEL: func.func @p_stored
// CHECK-SAME: attributes {tile.programs_per_sm = 2 : i32}
// CHECK: %[[Q:.*]] = tile.load
// CHECK-NEXT: tile.local_alloc : <3x64x32xf16
// CHECK-NEXT: tile.local_alloc : <3x32x64xf16
// CHECK-NEXT: %[[QB:.*]] = tile.local_alloc : <64x64xf16
// CHECK-NEXT: tile.local_store %[[Q]], %[[QB]] :
// CHECK-NEXT: %[[PB:.*]] = tile.local_alloc : <64x32xf16, #[[SP:shared[0-9]*]]>
// CHECK: scf.for
// CHECK-NEXT: tile.async_wait {noProxyFence, pending = 1 : i32}
// CHECK: tile.warp_group_dot %[[QB]],
// CHECK: %[[P:.*]] = arith.truncf %{{.*}} : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
// CHECK-NEXT: tile.local_store %[[P]], %[[PB]] : tensor<64x32xf16, #mma>, <64x32xf16, #[[SP]]>
// CHECK-NEXT: tile.cta_barrier {asyncProxy}
// CHECK-NEXT: tile.warp_group_dot %[[PB]], %{{.*}} : !tile.smem<64x32xf16, #[[SP]]>,
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
#blocked2 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked3 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [64, 16, 16]>
#mma1 = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 2], instrShape = [64, 32, 16]>
module attributes {tile.num_warps = 8 : i32, tile.target = "sm_90a"} {
  func.func @p_stored(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: f32, %arg5: i32) {
    %cst = arith.constant dense<0xFF800000> : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #blocked>
    %cst_1 = arith.constant dense<64> : tensor<32x1xi32, #blocked>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<64x32xf32, #mma>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<64x32xf32, #mma>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked1>
    %cst_5 = arith.constant dense<64> : tensor<1x32xi32, #blocked1>
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma1>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_8 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %cst_9 = arith.constant dense<64> : tensor<64x1xi32, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.muli %1, %arg5 : i32
    %3 = arith.muli %2, %c64_i32 : i32
    %4 = arith.muli %0, %c64_i32 : i32
    %5 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %6 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %7 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %8 = tile.splat %4 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %9 = arith.addi %8, %5 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %10 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %11 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #mma>>
    %12 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %13 = tile.addptr %arg0, %3 : !tile.ptr<f16>, i32
    %14 = tile.expand_dims %9 {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi32, #blocked>
    %15 = arith.muli %14, %cst_9 : tensor<64x1xi32, #blocked>
    %16 = tile.splat %13 : tensor<64x1x!tile.ptr<f16>, #blocked>
    %17 = tile.addptr %16, %15 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %18 = tile.expand_dims %6 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %19 = tile.broadcast %17 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %20 = tile.broadcast %18 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
    %21 = tile.addptr %19, %20 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %22 = tile.splat %arg5 : tensor<64x1xi32, #blocked>
    %23 = arith.cmpi slt, %14, %22 : tensor<64x1xi32, #blocked>
    %24 = tile.broadcast %23 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
    %25 = tile.load %21, %24 other %cst_8 : (tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi1, #blocked>, tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked>
    %26:3 = scf.for %arg6 = %c0_i32 to %arg5 step %c32_i32 iter_args(%arg7 = %cst_6, %arg8 = %cst_7, %arg9 = %cst) -> (tensor<64x64xf32, #mma1>, tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>)  : i32 {
      %39 = tile.splat %arg6 : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
      %40 = tile.splat %arg6 : tensor<32xi32, #tile.slice<dim = 0, parent = #mma>>
      %41 = tile.splat %arg6 : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %42 = arith.addi %39, %10 : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
      %43 = arith.addi %40, %11 : tensor<32xi32, #tile.slice<dim = 0, parent = #mma>>
      %44 = arith.addi %41, %12 : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %45 = tile.addptr %arg1, %3 : !tile.ptr<f16>, i32
      %46 = tile.expand_dims %43 {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x32xi32, #mma>
      %47 = tile.expand_dims %44 {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
      %48 = arith.muli %47, %cst_5 : tensor<1x32xi32, #blocked1>
      %49 = tile.splat %45 : tensor<1x32x!tile.ptr<f16>, #blocked1>
      %50 = tile.addptr %49, %48 : tensor<1x32x!tile.ptr<f16>, #blocked1>, tensor<1x32xi32, #blocked1>
      %51 = tile.expand_dims %7 {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
      %52 = tile.broadcast %50 : tensor<1x32x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
      %53 = tile.broadcast %51 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
      %54 = tile.addptr %52, %53 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %55 = tile.splat %arg5 : tensor<1x32xi32, #mma>
      %56 = tile.splat %arg5 : tensor<1x32xi32, #blocked1>
      %57 = arith.cmpi slt, %46, %55 : tensor<1x32xi32, #mma>
      %58 = arith.cmpi slt, %47, %56 : tensor<1x32xi32, #blocked1>
      %59 = tile.broadcast %57 : tensor<1x32xi1, #mma> -> tensor<64x32xi1, #mma>
      %60 = tile.broadcast %58 : tensor<1x32xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
      %61 = tile.load %54, %60 other %cst_4 : (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi1, #blocked1>, tensor<64x32xf16, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %62 = tile.convert_layout %61 : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #blocked2>
      %63 = tile.dot %25, %62, %cst_3 {inputPrecision = #tile<input_precision tf32>} : tensor<64x64xf16, #blocked>, tensor<64x32xf16, #blocked2> -> tensor<64x32xf32, #mma>
      %64 = tile.splat %arg4 : tensor<64x32xf32, #mma>
      %65 = arith.mulf %63, %64 : tensor<64x32xf32, #mma>
      %66 = arith.select %59, %65, %cst_2 : tensor<64x32xi1, #mma>, tensor<64x32xf32, #mma>
      %67 = tile.reduce %66 {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<64x32xf32, #mma> -> tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
      %68 = arith.maxnumf %arg9, %67 : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
      %69 = arith.subf %arg9, %68 : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
      %70 = math.exp %69 : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
      %71 = tile.convert_layout %70 : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<64xf32, #tile.slice<dim = 1, parent = #mma1>>
      %72 = tile.expand_dims %68 {axis = 1 : i32} : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<64x1xf32, #mma>
      %73 = tile.broadcast %72 : tensor<64x1xf32, #mma> -> tensor<64x32xf32, #mma>
      %74 = arith.subf %66, %73 : tensor<64x32xf32, #mma>
      %75 = math.exp %74 : tensor<64x32xf32, #mma>
      %76 = arith.mulf %arg8, %70 : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
      %77 = tile.reduce %75 {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<64x32xf32, #mma> -> tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
      %78 = arith.addf %76, %77 : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
      %79 = tile.addptr %arg2, %3 : !tile.ptr<f16>, i32
      %80 = tile.expand_dims %42 {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi32, #blocked>
      %81 = arith.muli %80, %cst_1 : tensor<32x1xi32, #blocked>
      %82 = tile.splat %79 : tensor<32x1x!tile.ptr<f16>, #blocked>
      %83 = tile.addptr %82, %81 : tensor<32x1x!tile.ptr<f16>, #blocked>, tensor<32x1xi32, #blocked>
      %84 = tile.broadcast %83 : tensor<32x1x!tile.ptr<f16>, #blocked> -> tensor<32x64x!tile.ptr<f16>, #blocked>
      %85 = tile.broadcast %18 : tensor<1x64xi32, #blocked> -> tensor<32x64xi32, #blocked>
      %86 = tile.addptr %84, %85 : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      %87 = tile.splat %arg5 : tensor<32x1xi32, #blocked>
      %88 = arith.cmpi slt, %80, %87 : tensor<32x1xi32, #blocked>
      %89 = tile.broadcast %88 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %90 = tile.load %86, %89 other %cst_0 : (tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi1, #blocked>, tensor<32x64xf16, #blocked>) -> tensor<32x64xf16, #blocked>
      %91 = tile.expand_dims %71 {axis = 1 : i32} : tensor<64xf32, #tile.slice<dim = 1, parent = #mma1>> -> tensor<64x1xf32, #mma1>
      %92 = tile.broadcast %91 : tensor<64x1xf32, #mma1> -> tensor<64x64xf32, #mma1>
      %93 = arith.mulf %arg7, %92 : tensor<64x64xf32, #mma1>
      %94 = arith.truncf %75 : tensor<64x32xf32, #mma> to tensor<64x32xf16, #mma>
      %95 = tile.dot %94, %90, %cst_6 {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #mma>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma1>
      %96 = arith.addf %93, %95 : tensor<64x64xf32, #mma1>
      scf.yield %96, %78, %68 : tensor<64x64xf32, #mma1>, tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<64xf32, #tile.slice<dim = 1, parent = #mma>>
    }
    %27 = tile.convert_layout %26#0 : tensor<64x64xf32, #mma1> -> tensor<64x64xf32, #blocked>
    %28 = tile.convert_layout %26#1 : tensor<64xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<64xf32, #tile.slice<dim = 1, parent = #blocked3>>
    %29 = tile.expand_dims %28 {axis = 1 : i32} : tensor<64xf32, #tile.slice<dim = 1, parent = #blocked3>> -> tensor<64x1xf32, #blocked3>
    %30 = tile.convert_layout %29 : tensor<64x1xf32, #blocked3> -> tensor<64x1xf32, #blocked>
    %31 = tile.broadcast %30 : tensor<64x1xf32, #blocked> -> tensor<64x64xf32, #blocked>
    %32 = arith.divf %27, %31 fastmath<afn> : tensor<64x64xf32, #blocked>
    %33 = tile.addptr %arg3, %3 : !tile.ptr<f16>, i32
    %34 = tile.splat %33 : tensor<64x1x!tile.ptr<f16>, #blocked>
    %35 = tile.addptr %34, %15 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %36 = tile.broadcast %35 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x64x!tile.ptr<f16>, #blocked>
    %37 = tile.addptr %36, %20 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %38 = arith.truncf %32 : tensor<64x64xf32, #blocked> to tensor<64x64xf16, #blocked>
    tile.store %37, %38, %24 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xf16, #blocked>, tensor<64x64xi1, #blocked>
    return
  }
}


// -----

// @p_v_in_flight: examples/flash_attention.tile's loop (block pointers
// advanced by the loop, exp2, the product p @ v accumulating into the
// rescaled accumulator, which the loop only carries to the next
// iteration). p @ v is left in flight (isAsync, no wait after it): the next
// iteration's q @ k^T, synchronous, completes it, and a wait (free by then)
// comes right before the accumulator's first use, its rescaling. With two
// products, the iteration's copies come last, after p @ v and a barrier:
// q @ k^T's wait completed the products of the iteration before, so after
// the barrier no warp group still reads its slots, which the copies refill,
// two stages ahead as in the other loops (two stages before the loop,
// slots read 0 and write 2); q is stored into its buffer after those two
// stages' copies, which need not wait for it. The accumulator enters the
// loop and leaves it through a wait.
// CHECK-LABEL: func.func @p_v_in_flight
// CHECK-NOT: tile.cta_barrier
// CHECK-COUNT-2: tile.async_commit_group
// CHECK-NOT: tile.async_commit_group
// CHECK: tile.local_store
// CHECK-NEXT: tile.cta_barrier {asyncProxy}
// CHECK-NOT: tile.async_commit_group
// CHECK: %[[INIT:.*]] = tile.warp_group_dot_wait %{{.*}} {pending = 0 : i32} : tensor<128x64xf32, #mma>
// CHECK-NEXT: %[[LOOP:.*]]:9 = scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %[[INIT]], {{.*}}, %{{[^ ]*}} = %c0_i32{{[_0-9]*}}, %{{[^ ]*}} = %c2_i32)
// CHECK-NEXT: tile.async_wait {noProxyFence, pending = 1 : i32}
// CHECK-NOT: tile.async_copy
// CHECK-NOT: tile.cta_barrier
// CHECK: tile.warp_group_dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x64xf16
// CHECK-NOT: tile.async_copy
// CHECK-NOT: tile.cta_barrier
// CHECK-NOT: %[[ACC]]
// CHECK: %[[DONE:.*]] = tile.warp_group_dot_wait %[[ACC]] {pending = 0 : i32}
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[DONE]], %{{.*}} : tensor<128x64xf32, #mma>
// CHECK: %[[PV:.*]] = tile.warp_group_dot %{{.*}}, %{{.*}}, %[[SCALED]] {inputPrecision = #tile<input_precision tf32>, isAsync} : tensor<128x64xf16, #mma>
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: tile.cta_barrier{{$}}
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: tile.async_copy
// CHECK: tile.async_copy
// CHECK-NEXT: tile.async_commit_group
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: scf.yield %[[PV]],
// CHECK-NEXT: }
// CHECK-NEXT: tile.warp_group_dot_wait %[[LOOP]]#0 {pending = 0 : i32}
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 8 : i32, tile.target = "sm_90a"} {
  func.func @p_v_in_flight(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: f32, %arg5: i32) {
    %cst = arith.constant dense<0> : tensor<64x1xi64, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<64x1xi64, #blocked>
    %cst_1 = arith.constant dense<-1.000000e+06> : tensor<128x64xf32, #mma>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked1>
    %cst_4 = arith.constant dense<0> : tensor<1x64xi64, #blocked1>
    %cst_5 = arith.constant dense<64> : tensor<1x64xi64, #blocked1>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
    %cst_7 = arith.constant dense<0> : tensor<128x1xi64, #blocked>
    %cst_8 = arith.constant dense<0> : tensor<128x1xi64, #mma>
    %cst_9 = arith.constant dense<64> : tensor<128x1xi64, #blocked>
    %cst_10 = arith.constant dense<64> : tensor<128x1xi64, #mma>
    %cst_11 = arith.constant 1.44269502 : f32
    %cst_12 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %cst_13 = arith.constant dense<0.000000e+00> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_14 = arith.constant dense<0xFF800000> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %c128_i32 = arith.constant 128 : i32
    %c64_i64 = arith.constant 64 : i64
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.extsi %1 : i32 to i64
    %3 = arith.extsi %arg5 : i32 to i64
    %4 = arith.muli %2, %3 : i64
    %5 = arith.muli %4, %c64_i64 : i64
    %6 = tile.addptr %arg0, %5 : !tile.ptr<f16>, i64
    %7 = arith.muli %0, %c128_i32 : i32
    %8 = tile.addptr %arg1, %5 : !tile.ptr<f16>, i64
    %9 = tile.addptr %arg2, %5 : !tile.ptr<f16>, i64
    %10 = tile.addptr %arg3, %5 : !tile.ptr<f16>, i64
    %11 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %12 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %13 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
    %14 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %15 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %16 = arith.mulf %arg4, %cst_11 : f32
    %17 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %18 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>>
    %19 = arith.extsi %17 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>> to tensor<128xi64, #tile.slice<dim = 1, parent = #blocked>>
    %20 = arith.extsi %18 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>> to tensor<128xi64, #tile.slice<dim = 1, parent = #mma>>
    %21 = tile.expand_dims %19 {axis = 1 : i32} : tensor<128xi64, #tile.slice<dim = 1, parent = #blocked>> -> tensor<128x1xi64, #blocked>
    %22 = tile.expand_dims %20 {axis = 1 : i32} : tensor<128xi64, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xi64, #mma>
    %23 = arith.extsi %7 : i32 to i64
    %24 = tile.splat %23 : tensor<128x1xi64, #blocked>
    %25 = tile.splat %23 : tensor<128x1xi64, #mma>
    %26 = arith.addi %21, %24 : tensor<128x1xi64, #blocked>
    %27 = arith.addi %22, %25 : tensor<128x1xi64, #mma>
    %28 = arith.muli %26, %cst_9 : tensor<128x1xi64, #blocked>
    %29 = arith.muli %27, %cst_10 : tensor<128x1xi64, #mma>
    %30 = arith.cmpi sge, %26, %cst_7 : tensor<128x1xi64, #blocked>
    %31 = arith.cmpi sge, %27, %cst_8 : tensor<128x1xi64, #mma>
    %32 = tile.splat %3 : tensor<128x1xi64, #blocked>
    %33 = tile.splat %3 : tensor<128x1xi64, #mma>
    %34 = arith.cmpi slt, %26, %32 : tensor<128x1xi64, #blocked>
    %35 = arith.cmpi slt, %27, %33 : tensor<128x1xi64, #mma>
    %36 = arith.andi %30, %34 : tensor<128x1xi1, #blocked>
    %37 = arith.andi %31, %35 : tensor<128x1xi1, #mma>
    %38 = arith.extsi %11 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> to tensor<64xi64, #tile.slice<dim = 1, parent = #blocked>>
    %39 = arith.extsi %12 : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> to tensor<64xi64, #tile.slice<dim = 0, parent = #blocked>>
    %40 = arith.extsi %14 : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>> to tensor<64xi64, #tile.slice<dim = 0, parent = #blocked1>>
    %41 = arith.extsi %15 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> to tensor<64xi64, #tile.slice<dim = 1, parent = #blocked1>>
    %42 = arith.extsi %13 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>> to tensor<64xi64, #tile.slice<dim = 0, parent = #mma>>
    %43 = tile.expand_dims %39 {axis = 0 : i32} : tensor<64xi64, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi64, #blocked>
    %44 = tile.expand_dims %40 {axis = 0 : i32} : tensor<64xi64, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x64xi64, #blocked1>
    %45 = tile.expand_dims %42 {axis = 0 : i32} : tensor<64xi64, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x64xi64, #mma>
    %46 = tile.broadcast %28 : tensor<128x1xi64, #blocked> -> tensor<128x64xi64, #blocked>
    %47 = tile.broadcast %29 : tensor<128x1xi64, #mma> -> tensor<128x64xi64, #mma>
    %48 = tile.broadcast %43 : tensor<1x64xi64, #blocked> -> tensor<128x64xi64, #blocked>
    %49 = tile.broadcast %45 : tensor<1x64xi64, #mma> -> tensor<128x64xi64, #mma>
    %50 = arith.addi %46, %48 : tensor<128x64xi64, #blocked>
    %51 = arith.addi %47, %49 : tensor<128x64xi64, #mma>
    %52 = tile.splat %6 : tensor<128x64x!tile.ptr<f16>, #blocked>
    %53 = tile.addptr %52, %50 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi64, #blocked>
    %54 = tile.broadcast %36 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %55 = tile.broadcast %37 : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
    %56 = tile.load %53, %54 other %cst_6 : (tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi1, #blocked>, tensor<128x64xf16, #blocked>) -> tensor<128x64xf16, #blocked>
    %57:5 = scf.for %arg6 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg7 = %cst_12, %arg8 = %c0_i32, %arg9 = %cst_13, %arg10 = %cst_14, %arg11 = %c0_i32) -> (tensor<128x64xf32, #mma>, i32, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, i32)  : i32 {
      %64 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %65 = arith.addi %64, %13 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %66 = tile.expand_dims %38 {axis = 1 : i32} : tensor<64xi64, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi64, #blocked>
      %67 = tile.expand_dims %41 {axis = 1 : i32} : tensor<64xi64, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi64, #blocked1>
      %68 = arith.extsi %arg8 : i32 to i64
      %69 = tile.splat %68 : tensor<1x64xi64, #blocked1>
      %70 = arith.addi %44, %69 : tensor<1x64xi64, #blocked1>
      %71 = arith.muli %70, %cst_5 : tensor<1x64xi64, #blocked1>
      %72 = tile.broadcast %67 : tensor<64x1xi64, #blocked1> -> tensor<64x64xi64, #blocked1>
      %73 = tile.broadcast %71 : tensor<1x64xi64, #blocked1> -> tensor<64x64xi64, #blocked1>
      %74 = arith.addi %72, %73 : tensor<64x64xi64, #blocked1>
      %75 = arith.cmpi sge, %70, %cst_4 : tensor<1x64xi64, #blocked1>
      %76 = tile.splat %3 : tensor<1x64xi64, #blocked1>
      %77 = arith.cmpi slt, %70, %76 : tensor<1x64xi64, #blocked1>
      %78 = arith.andi %75, %77 : tensor<1x64xi1, #blocked1>
      %79 = tile.splat %8 : tensor<64x64x!tile.ptr<f16>, #blocked1>
      %80 = tile.addptr %79, %74 : tensor<64x64x!tile.ptr<f16>, #blocked1>, tensor<64x64xi64, #blocked1>
      %81 = tile.broadcast %78 : tensor<1x64xi1, #blocked1> -> tensor<64x64xi1, #blocked1>
      %82 = tile.load %80, %81 other %cst_3 : (tensor<64x64x!tile.ptr<f16>, #blocked1>, tensor<64x64xi1, #blocked1>, tensor<64x64xf16, #blocked1>) -> tensor<64x64xf16, #blocked1>
      %83 = tile.convert_layout %82 : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked>
      %84 = tile.dot %56, %83, %cst_12 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked>, tensor<64x64xf16, #blocked> -> tensor<128x64xf32, #mma>
      %85 = tile.splat %16 : tensor<128x64xf32, #mma>
      %86 = arith.mulf %84, %85 : tensor<128x64xf32, #mma>
      %87 = tile.expand_dims %65 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x64xi32, #mma>
      %88 = tile.splat %arg5 : tensor<1x64xi32, #mma>
      %89 = arith.cmpi slt, %87, %88 : tensor<1x64xi32, #mma>
      %90 = tile.broadcast %89 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
      %91 = arith.select %90, %86, %cst_1 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %92 = tile.reduce %91 {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %93 = arith.maxnumf %arg10, %92 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %94 = tile.expand_dims %93 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
      %95 = tile.broadcast %94 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %96 = arith.subf %91, %95 : tensor<128x64xf32, #mma>
      %97 = math.exp2 %96 : tensor<128x64xf32, #mma>
      %98 = arith.subf %arg10, %93 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %99 = math.exp2 %98 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %100 = arith.mulf %arg9, %99 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %101 = tile.reduce %97 {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %102 = arith.addf %100, %101 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %103 = tile.expand_dims %99 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
      %104 = tile.broadcast %103 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %105 = arith.mulf %arg7, %104 : tensor<128x64xf32, #mma>
      %106 = arith.extsi %arg11 : i32 to i64
      %107 = tile.splat %106 : tensor<64x1xi64, #blocked>
      %108 = arith.addi %66, %107 : tensor<64x1xi64, #blocked>
      %109 = arith.muli %108, %cst_0 : tensor<64x1xi64, #blocked>
      %110 = arith.cmpi sge, %108, %cst : tensor<64x1xi64, #blocked>
      %111 = tile.splat %3 : tensor<64x1xi64, #blocked>
      %112 = arith.cmpi slt, %108, %111 : tensor<64x1xi64, #blocked>
      %113 = arith.andi %110, %112 : tensor<64x1xi1, #blocked>
      %114 = tile.broadcast %109 : tensor<64x1xi64, #blocked> -> tensor<64x64xi64, #blocked>
      %115 = tile.broadcast %43 : tensor<1x64xi64, #blocked> -> tensor<64x64xi64, #blocked>
      %116 = arith.addi %114, %115 : tensor<64x64xi64, #blocked>
      %117 = tile.splat %9 : tensor<64x64x!tile.ptr<f16>, #blocked>
      %118 = tile.addptr %117, %116 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
      %119 = tile.broadcast %113 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %120 = tile.load %118, %119 other %cst_2 : (tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi1, #blocked>, tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked>
      %121 = arith.truncf %97 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %122 = tile.dot %121, %120, %105 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #mma>, tensor<64x64xf16, #blocked> -> tensor<128x64xf32, #mma>
      %123 = arith.addi %arg8, %c64_i32 : i32
      %124 = arith.addi %arg11, %c64_i32 : i32
      scf.yield %122, %123, %102, %93, %124 : tensor<128x64xf32, #mma>, i32, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, i32
    }
    %58 = tile.expand_dims %57#2 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
    %59 = tile.broadcast %58 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %60 = arith.divf %57#0, %59 fastmath<afn> : tensor<128x64xf32, #mma>
    %61 = arith.truncf %60 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %62 = tile.splat %10 : tensor<128x64x!tile.ptr<f16>, #mma>
    %63 = tile.addptr %62, %51 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xi64, #mma>
    tile.store %63, %61, %55 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xf16, #mma>, tensor<128x64xi1, #mma>
    return
  }
}

