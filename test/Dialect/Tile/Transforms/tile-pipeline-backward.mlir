// RUN: tilec-opt %s -tile-pipeline="num-stages=3" | FileCheck %s

// The backward's dQ loop (examples/flash_attention_bwd.tile's attn_bwd_dq,
// fp16, HEAD_DIM 64, 128 queries and 32 keys a step, 8 warps, as
// tile-remove-layout-conversions leaves it): q k^T, then dO v^T, then dQ
// accumulated from ds in registers, left in flight. dO v^T reads only
// loop-invariant buffers and ring slots and adds to zeros, so it is issued
// right after q k^T; q k^T is waited for with it still in flight (pending
// 1) before the barrier and the next stage's copies, and dO v^T where ds
// first needs it, after exp2 (pending 0).
// CHECK-LABEL: func.func @attn_bwd_dq
// CHECK: scf.for
// CHECK: tile.async_wait
// CHECK: %[[QK:.*]] = tile.warp_group_dot {{.*}} {{{.*}}isAsync} : !tile.smem<128x64xf16
// CHECK-NEXT: %[[DP:.*]] = tile.warp_group_dot {{.*}} {{{.*}}isAsync} : !tile.smem<128x64xf16
// CHECK-NEXT: %[[QKDONE:.*]] = tile.warp_group_dot_wait %[[QK]] {pending = 1 : i32}
// CHECK-NEXT: tile.cta_barrier
// CHECK: tile.async_copy
// CHECK: tile.async_commit_group
// CHECK: arith.mulf %[[QKDONE]]
// CHECK: math.exp2
// CHECK: %[[DPDONE:.*]] = tile.warp_group_dot_wait %[[DP]] {pending = 0 : i32}
// CHECK: arith.subf %[[DPDONE]]
// CHECK: tile.warp_group_dot_wait %{{.*}} {pending = 0 : i32} : tensor<128x64xf32
// CHECK-NEXT: %[[DQ:.*]] = tile.warp_group_dot {{.*}} {{{.*}}isAsync} : tensor<128x32xf16
// CHECK-NEXT: scf.yield %[[DQ]]
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]>
#blocked2 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#mma1 = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 32, 16]>
module attributes {tile.num_warps = 8 : i32, tile.target = "sm_90a"} {
  func.func @attn_bwd_dq(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg5: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg6: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg7: f32, %arg8: i32) {
    %c128_i32 = arith.constant 128 : i32
    %c64_i64 = arith.constant 64 : i64
    %cst = arith.constant dense<64> : tensor<128x1xi32, #blocked>
    %cst_0 = arith.constant dense<64> : tensor<128x1xi32, #mma>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %cst_4 = arith.constant 1.44269502 : f32
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_5 = arith.constant dense<64> : tensor<1x32xi32, #blocked1>
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked1>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<128x32xf32, #mma1>
    %c8_i32 = arith.constant 8 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = tile.num_programs 0 : i32
    %3 = tile.num_programs 1 : i32
    %4 = arith.muli %1, %2 : i32
    %5 = arith.addi %0, %4 : i32
    %6 = arith.muli %3, %c8_i32 : i32
    %7 = arith.divui %5, %6 : i32
    %8 = arith.muli %7, %c8_i32 : i32
    %9 = arith.subi %2, %8 : i32
    %10 = arith.minui %9, %c8_i32 : i32
    %11 = arith.remui %5, %6 : i32
    %12 = arith.remui %11, %10 : i32
    %13 = arith.addi %8, %12 : i32
    %14 = arith.divui %11, %10 : i32
    %15 = arith.muli %13, %c128_i32 : i32
    %16 = arith.extsi %14 : i32 to i64
    %17 = arith.extsi %arg8 : i32 to i64
    %18 = arith.muli %16, %17 : i64
    %19 = arith.muli %18, %c64_i64 : i64
    %20 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %21 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>>
    %22 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %23 = tile.splat %15 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %24 = tile.splat %15 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>>
    %25 = tile.splat %15 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %26 = arith.addi %23, %20 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %27 = arith.addi %24, %21 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>>
    %28 = arith.addi %25, %22 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %29 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %30 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
    %31 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %32 = tile.splat %arg8 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %33 = tile.splat %arg8 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>>
    %34 = tile.splat %arg8 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %35 = arith.cmpi slt, %26, %32 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %36 = arith.cmpi slt, %27, %33 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>>
    %37 = arith.cmpi slt, %28, %34 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %38 = tile.addptr %arg0, %19 : !tile.ptr<f16>, i64
    %39 = tile.expand_dims %27 {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xi32, #mma>
    %40 = tile.expand_dims %26 {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<128x1xi32, #blocked>
    %41 = arith.muli %39, %cst_0 : tensor<128x1xi32, #mma>
    %42 = arith.muli %40, %cst : tensor<128x1xi32, #blocked>
    %43 = tile.splat %38 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %44 = tile.addptr %43, %42 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %45 = tile.broadcast %44 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %46 = tile.expand_dims %29 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi32, #blocked>
    %47 = tile.expand_dims %30 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x64xi32, #mma>
    %48 = tile.broadcast %46 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
    %49 = tile.broadcast %47 : tensor<1x64xi32, #mma> -> tensor<128x64xi32, #mma>
    %50 = tile.addptr %45, %48 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %51 = tile.expand_dims %35 {axis = 1 : i32} : tensor<128xi1, #tile.slice<dim = 1, parent = #blocked>> -> tensor<128x1xi1, #blocked>
    %52 = tile.expand_dims %36 {axis = 1 : i32} : tensor<128xi1, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xi1, #mma>
    %53 = tile.broadcast %51 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %54 = tile.broadcast %52 : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
    %55 = tile.load %50, %53 other %cst_1 : (tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi1, #blocked>, tensor<128x64xf16, #blocked>) -> tensor<128x64xf16, #blocked>
    %56 = tile.addptr %arg3, %19 : !tile.ptr<f16>, i64
    %57 = tile.splat %56 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %58 = tile.addptr %57, %42 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %59 = tile.broadcast %58 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x64x!tile.ptr<f16>, #blocked>
    %60 = tile.addptr %59, %48 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %61 = tile.load %60, %53 other %cst_1 : (tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi1, #blocked>, tensor<128x64xf16, #blocked>) -> tensor<128x64xf16, #blocked>
    %62 = tile.addptr %arg5, %18 : !tile.ptr<f32>, i64
    %63 = tile.splat %62 : tensor<128x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #mma1>>
    %64 = tile.addptr %63, %28 : tensor<128x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #mma1>>, tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %65 = tile.load %64, %37 other %cst_2 : (tensor<128x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #mma1>>, tensor<128xi1, #tile.slice<dim = 1, parent = #mma1>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>>) -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>>
    %66 = tile.addptr %arg6, %18 : !tile.ptr<f32>, i64
    %67 = tile.splat %66 : tensor<128x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #mma1>>
    %68 = tile.addptr %67, %28 : tensor<128x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #mma1>>, tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %69 = tile.load %68, %37 other %cst_2 : (tensor<128x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #mma1>>, tensor<128xi1, #tile.slice<dim = 1, parent = #mma1>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>>) -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>>
    %70 = arith.mulf %arg7, %cst_4 : f32
    %71 = scf.for %arg9 = %c0_i32 to %arg8 step %c32_i32 iter_args(%arg10 = %cst_3) -> (tensor<128x64xf32, #mma>)  : i32 {
      %80 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #mma1>>
      %81 = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %82 = tile.splat %arg9 : tensor<32xi32, #tile.slice<dim = 0, parent = #mma1>>
      %83 = tile.splat %arg9 : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %84 = arith.addi %82, %80 : tensor<32xi32, #tile.slice<dim = 0, parent = #mma1>>
      %85 = arith.addi %83, %81 : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %86 = tile.splat %arg8 : tensor<32xi32, #tile.slice<dim = 0, parent = #mma1>>
      %87 = tile.splat %arg8 : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %88 = arith.cmpi slt, %84, %86 : tensor<32xi32, #tile.slice<dim = 0, parent = #mma1>>
      %89 = arith.cmpi slt, %85, %87 : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %90 = tile.addptr %arg1, %19 : !tile.ptr<f16>, i64
      %91 = tile.expand_dims %85 {axis = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi32, #blocked1>
      %92 = arith.muli %91, %cst_5 : tensor<1x32xi32, #blocked1>
      %93 = tile.splat %90 : tensor<1x32x!tile.ptr<f16>, #blocked1>
      %94 = tile.addptr %93, %92 : tensor<1x32x!tile.ptr<f16>, #blocked1>, tensor<1x32xi32, #blocked1>
      %95 = tile.broadcast %94 : tensor<1x32x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
      %96 = tile.expand_dims %31 {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
      %97 = tile.broadcast %96 : tensor<64x1xi32, #blocked1> -> tensor<64x32xi32, #blocked1>
      %98 = tile.addptr %95, %97 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %99 = tile.expand_dims %89 {axis = 0 : i32} : tensor<32xi1, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi1, #blocked1>
      %100 = tile.broadcast %99 : tensor<1x32xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
      %101 = tile.load %98, %100 other %cst_6 : (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi1, #blocked1>, tensor<64x32xf16, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %102 = tile.convert_layout %101 : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #blocked2>
      %103 = tile.addptr %arg2, %19 : !tile.ptr<f16>, i64
      %104 = tile.splat %103 : tensor<1x32x!tile.ptr<f16>, #blocked1>
      %105 = tile.addptr %104, %92 : tensor<1x32x!tile.ptr<f16>, #blocked1>, tensor<1x32xi32, #blocked1>
      %106 = tile.broadcast %105 : tensor<1x32x!tile.ptr<f16>, #blocked1> -> tensor<64x32x!tile.ptr<f16>, #blocked1>
      %107 = tile.addptr %106, %97 : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %108 = tile.load %107, %100 other %cst_6 : (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi1, #blocked1>, tensor<64x32xf16, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %109 = tile.convert_layout %108 : tensor<64x32xf16, #blocked1> -> tensor<64x32xf16, #blocked2>
      %110 = tile.dot %55, %102, %cst_7 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked>, tensor<64x32xf16, #blocked2> -> tensor<128x32xf32, #mma1>
      %111 = tile.splat %70 : tensor<128x32xf32, #mma1>
      %112 = arith.mulf %110, %111 : tensor<128x32xf32, #mma1>
      %113 = tile.expand_dims %65 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>> -> tensor<128x1xf32, #mma1>
      %114 = tile.broadcast %113 : tensor<128x1xf32, #mma1> -> tensor<128x32xf32, #mma1>
      %115 = arith.subf %112, %114 : tensor<128x32xf32, #mma1>
      %116 = math.exp2 %115 : tensor<128x32xf32, #mma1>
      %117 = tile.expand_dims %88 {axis = 0 : i32} : tensor<32xi1, #tile.slice<dim = 0, parent = #mma1>> -> tensor<1x32xi1, #mma1>
      %118 = tile.broadcast %117 : tensor<1x32xi1, #mma1> -> tensor<128x32xi1, #mma1>
      %119 = arith.select %118, %116, %cst_7 : tensor<128x32xi1, #mma1>, tensor<128x32xf32, #mma1>
      %120 = tile.dot %61, %109, %cst_7 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked>, tensor<64x32xf16, #blocked2> -> tensor<128x32xf32, #mma1>
      %121 = tile.expand_dims %69 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>> -> tensor<128x1xf32, #mma1>
      %122 = tile.broadcast %121 : tensor<128x1xf32, #mma1> -> tensor<128x32xf32, #mma1>
      %123 = arith.subf %120, %122 : tensor<128x32xf32, #mma1>
      %124 = arith.mulf %119, %123 : tensor<128x32xf32, #mma1>
      %125 = arith.truncf %124 : tensor<128x32xf32, #mma1> to tensor<128x32xf16, #mma1>
      %126 = tile.trans %102 {order = array<i32: 1, 0>} : tensor<64x32xf16, #blocked2> -> tensor<32x64xf16, #blocked>
      %127 = tile.dot %125, %126, %arg10 {inputPrecision = #tile<input_precision tf32>} : tensor<128x32xf16, #mma1>, tensor<32x64xf16, #blocked> -> tensor<128x64xf32, #mma>
      scf.yield %127 : tensor<128x64xf32, #mma>
    }
    %72 = tile.splat %arg7 : tensor<128x64xf32, #mma>
    %73 = arith.mulf %71, %72 : tensor<128x64xf32, #mma>
    %74 = tile.addptr %arg4, %19 : !tile.ptr<f16>, i64
    %75 = tile.splat %74 : tensor<128x1x!tile.ptr<f16>, #mma>
    %76 = tile.addptr %75, %41 : tensor<128x1x!tile.ptr<f16>, #mma>, tensor<128x1xi32, #mma>
    %77 = tile.broadcast %76 : tensor<128x1x!tile.ptr<f16>, #mma> -> tensor<128x64x!tile.ptr<f16>, #mma>
    %78 = tile.addptr %77, %49 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xi32, #mma>
    %79 = arith.truncf %73 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    tile.store %78, %79, %54 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xf16, #mma>, tensor<128x64xi1, #mma>
    return
  }
}

