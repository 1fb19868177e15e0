// RUN: tilec-opt %s -tile-set-target="arch=sm_90a" -tile-flatten-loops -tile-assign-layouts="num-warps=8" -tile-coalesce -tile-remove-layout-conversions -canonicalize -cse -tile-pipeline="num-stages=3" | FileCheck %s
// The persistent matmul (examples/persistent_matmul.tile, 128x128x64, 8
// warps, as `tilec --emit=tile` writes it, its loop over tiles marked
// `tile.flatten` as `tl.range(..., flatten=True)` would) through
// tile-flatten-loops and tile-pipeline: the flattened loop's product
// restarts its accumulator on a
// tile's first K step through `use_c` (the select of zeros is gone) and
// stays in flight (the program has its SM alone: it walks tiles from its
// id; no second program asked for); the epilogue waits for it and passes
// the completed accumulator on as the scf.if's result, which the loop
// yields; the tile's place (row and column of tiles, divisions) is
// carried and recomputed in an scf.if when a tile ends, for the product's
// tile and for the copies' tile two iterations ahead; the copies of that
// stage follow a barrier at the end of the iteration (TMA: no barrier at
// its top).
// CHECK-NOT: tile.programs_per_sm
// CHECK: %[[INIT:.*]] = tile.warp_group_dot_wait %{{.*}} {pending = 0 : i32}
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[KK:[^ ]*]] = %{{.*}}, %[[ROW:[^ ]*]] = %{{.*}}, %[[COL:[^ ]*]] = %{{.*}}, %[[ACC:[^ ]*]] = %[[INIT]],
// CHECK-NOT: tile.cta_barrier
// CHECK-NOT: arith.divsi
// CHECK: tile.barrier_wait
// CHECK-NOT: arith.select %{{.*}} : tensor<128x128xi1
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[KK]], %{{.*}} : i32
// CHECK: %[[USE:.*]] = arith.xori %[[FIRST]], %{{.*}} : i1
// CHECK: %[[D:.*]] = tile.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] use_c %[[USE]] {{.*}}isAsync
// CHECK-NEXT: %[[W1:.*]] = tile.warp_group_dot_wait %[[D]] {pending = 1 : i32}
// CHECK: %[[E:.*]] = scf.if %{{.*}} -> (tensor<128x128xf32, #mma>) {
// CHECK-NEXT: %[[W0:.*]] = tile.warp_group_dot_wait %[[W1]] {pending = 0 : i32}
// CHECK: arith.truncf %[[W0]]
// CHECK: tile.async_tma_store
// CHECK: scf.yield %[[W0]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[W1]]
// CHECK: %[[PLACE:.*]]:2 = scf.if %{{.*}} -> (i32, i32) {
// CHECK: arith.divsi
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[ROW]], %[[COL]] : i32, i32
// CHECK-NOT: arith.divsi
// CHECK: tile.cta_barrier
// CHECK-NOT: arith.divsi
// CHECK: tile.async_tma_copy
// CHECK: tile.async_tma_copy
// CHECK: scf.if %{{.*}} -> (i32, i32) {
// CHECK: arith.divsi
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[PLACE]]#0, %[[PLACE]]#1, %[[E]],
// CHECK: tile.warp_group_dot_wait %{{.*}}#4 {pending = 0 : i32}
module {
  func.func @persistent_matmul_kernel(%arg0: !tile.ptr<f16>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: !tile.ptr<f16>, %arg5: i32, %arg6: i32, %arg7: i64, %arg8: !tile.ptr<f16>, %arg9: i32, %arg10: i32, %arg11: i64, %arg12: i32, %arg13: i32, %arg14: i32) {
    %c63_i32 = arith.constant 63 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x128xf16>
    %cst_0 = arith.constant dense<0> : tensor<1x128xi64>
    %cst_1 = arith.constant dense<0> : tensor<64x1xi64>
    %c1_i64 = arith.constant 1 : i64
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf16>
    %cst_3 = arith.constant dense<0> : tensor<1x64xi64>
    %cst_4 = arith.constant dense<0> : tensor<128x1xi64>
    %c0_i32 = arith.constant 0 : i32
    %cst_5 = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c132_i32 = arith.constant 132 : i32
    %c8_i32 = arith.constant 8 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %c128_i32 = arith.constant 128 : i32
    %c127_i32 = arith.constant 127 : i32
    %0 = arith.addi %arg12, %c127_i32 : i32
    %1 = arith.divsi %0, %c128_i32 : i32
    %2 = arith.addi %arg13, %c127_i32 : i32
    %3 = arith.divsi %2, %c128_i32 : i32
    %4 = arith.addi %arg14, %c63_i32 : i32
    %5 = arith.divsi %4, %c64_i32 : i32
    %6 = arith.muli %3, %c8_i32 : i32
    %7 = tile.program_id 0 : i32
    %8 = arith.muli %1, %3 : i32
    scf.for %arg15 = %7 to %8 step %c132_i32  : i32 {
      %9 = arith.divsi %arg15, %6 : i32
      %10 = arith.muli %9, %c8_i32 : i32
      %11 = arith.subi %1, %10 : i32
      %12 = arith.minsi %11, %c8_i32 : i32
      %13 = arith.remsi %arg15, %6 : i32
      %14 = arith.remsi %13, %12 : i32
      %15 = arith.addi %10, %14 : i32
      %16 = arith.divsi %13, %12 : i32
      %17 = scf.for %arg16 = %c0_i32 to %5 step %c1_i32 iter_args(%arg17 = %cst_5) -> (tensor<128x128xf32>)  : i32 {
        %51 = arith.muli %15, %c128_i32 : i32
        %52 = arith.muli %arg16, %c64_i32 : i32
        %53 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
        %54 = arith.extsi %53 : tensor<128xi32> to tensor<128xi64>
        %55 = tile.expand_dims %54 {axis = 1 : i32} : tensor<128xi64> -> tensor<128x1xi64>
        %56 = arith.extsi %51 : i32 to i64
        %57 = tile.splat %56 : tensor<128x1xi64>
        %58 = arith.addi %55, %57 : tensor<128x1xi64>
        %59 = tile.splat %arg3 : tensor<128x1xi64>
        %60 = arith.muli %58, %59 : tensor<128x1xi64>
        %61 = arith.cmpi sge, %58, %cst_4 : tensor<128x1xi64>
        %62 = arith.extsi %arg1 : i32 to i64
        %63 = tile.splat %62 : tensor<128x1xi64>
        %64 = arith.cmpi slt, %58, %63 : tensor<128x1xi64>
        %65 = arith.andi %61, %64 : tensor<128x1xi1>
        %66 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
        %67 = arith.extsi %66 : tensor<64xi32> to tensor<64xi64>
        %68 = tile.expand_dims %67 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
        %69 = arith.extsi %52 : i32 to i64
        %70 = tile.splat %69 : tensor<1x64xi64>
        %71 = arith.addi %68, %70 : tensor<1x64xi64>
        %72 = tile.broadcast %60 : tensor<128x1xi64> -> tensor<128x64xi64>
        %73 = tile.broadcast %71 : tensor<1x64xi64> -> tensor<128x64xi64>
        %74 = arith.addi %72, %73 : tensor<128x64xi64>
        %75 = arith.cmpi sge, %71, %cst_3 : tensor<1x64xi64>
        %76 = arith.extsi %arg2 : i32 to i64
        %77 = tile.splat %76 : tensor<1x64xi64>
        %78 = arith.cmpi slt, %71, %77 : tensor<1x64xi64>
        %79 = arith.andi %75, %78 : tensor<1x64xi1>
        %80 = tile.broadcast %65 : tensor<128x1xi1> -> tensor<128x64xi1>
        %81 = tile.broadcast %79 : tensor<1x64xi1> -> tensor<128x64xi1>
        %82 = arith.andi %80, %81 : tensor<128x64xi1>
        %83 = tile.splat %arg0 : tensor<128x64x!tile.ptr<f16>>
        %84 = tile.addptr %83, %74 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi64>
        %85 = tile.load %84, %82 other %cst_2 descriptor %arg0[%51, %52] shape(%arg1, %arg2) strides(%arg3, %c1_i64) : (tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi1>, tensor<128x64xf16>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<128x64xf16>
        %86 = arith.muli %16, %c128_i32 : i32
        %87 = tile.expand_dims %67 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
        %88 = tile.splat %69 : tensor<64x1xi64>
        %89 = arith.addi %87, %88 : tensor<64x1xi64>
        %90 = tile.splat %arg7 : tensor<64x1xi64>
        %91 = arith.muli %89, %90 : tensor<64x1xi64>
        %92 = arith.cmpi sge, %89, %cst_1 : tensor<64x1xi64>
        %93 = arith.extsi %arg5 : i32 to i64
        %94 = tile.splat %93 : tensor<64x1xi64>
        %95 = arith.cmpi slt, %89, %94 : tensor<64x1xi64>
        %96 = arith.andi %92, %95 : tensor<64x1xi1>
        %97 = tile.expand_dims %54 {axis = 0 : i32} : tensor<128xi64> -> tensor<1x128xi64>
        %98 = arith.extsi %86 : i32 to i64
        %99 = tile.splat %98 : tensor<1x128xi64>
        %100 = arith.addi %97, %99 : tensor<1x128xi64>
        %101 = tile.broadcast %91 : tensor<64x1xi64> -> tensor<64x128xi64>
        %102 = tile.broadcast %100 : tensor<1x128xi64> -> tensor<64x128xi64>
        %103 = arith.addi %101, %102 : tensor<64x128xi64>
        %104 = arith.cmpi sge, %100, %cst_0 : tensor<1x128xi64>
        %105 = arith.extsi %arg6 : i32 to i64
        %106 = tile.splat %105 : tensor<1x128xi64>
        %107 = arith.cmpi slt, %100, %106 : tensor<1x128xi64>
        %108 = arith.andi %104, %107 : tensor<1x128xi1>
        %109 = tile.broadcast %96 : tensor<64x1xi1> -> tensor<64x128xi1>
        %110 = tile.broadcast %108 : tensor<1x128xi1> -> tensor<64x128xi1>
        %111 = arith.andi %109, %110 : tensor<64x128xi1>
        %112 = tile.splat %arg4 : tensor<64x128x!tile.ptr<f16>>
        %113 = tile.addptr %112, %103 : tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi64>
        %114 = tile.load %113, %111 other %cst descriptor %arg4[%52, %86] shape(%arg5, %arg6) strides(%arg7, %c1_i64) : (tensor<64x128x!tile.ptr<f16>>, tensor<64x128xi1>, tensor<64x128xf16>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x128xf16>
        %115 = tile.dot %85, %114, %arg17 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16>, tensor<64x128xf16> -> tensor<128x128xf32>
        scf.yield %115 : tensor<128x128xf32>
      }
      %18 = arith.muli %15, %c128_i32 : i32
      %19 = arith.muli %16, %c128_i32 : i32
      %20 = arith.truncf %17 : tensor<128x128xf32> to tensor<128x128xf16>
      %21 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
      %22 = arith.extsi %21 : tensor<128xi32> to tensor<128xi64>
      %23 = tile.expand_dims %22 {axis = 1 : i32} : tensor<128xi64> -> tensor<128x1xi64>
      %24 = arith.extsi %18 : i32 to i64
      %25 = tile.splat %24 : tensor<128x1xi64>
      %26 = arith.addi %23, %25 : tensor<128x1xi64>
      %27 = tile.splat %arg11 : tensor<128x1xi64>
      %28 = arith.muli %26, %27 : tensor<128x1xi64>
      %29 = arith.cmpi sge, %26, %cst_4 : tensor<128x1xi64>
      %30 = arith.extsi %arg9 : i32 to i64
      %31 = tile.splat %30 : tensor<128x1xi64>
      %32 = arith.cmpi slt, %26, %31 : tensor<128x1xi64>
      %33 = arith.andi %29, %32 : tensor<128x1xi1>
      %34 = tile.expand_dims %22 {axis = 0 : i32} : tensor<128xi64> -> tensor<1x128xi64>
      %35 = arith.extsi %19 : i32 to i64
      %36 = tile.splat %35 : tensor<1x128xi64>
      %37 = arith.addi %34, %36 : tensor<1x128xi64>
      %38 = tile.broadcast %28 : tensor<128x1xi64> -> tensor<128x128xi64>
      %39 = tile.broadcast %37 : tensor<1x128xi64> -> tensor<128x128xi64>
      %40 = arith.addi %38, %39 : tensor<128x128xi64>
      %41 = arith.cmpi sge, %37, %cst_0 : tensor<1x128xi64>
      %42 = arith.extsi %arg10 : i32 to i64
      %43 = tile.splat %42 : tensor<1x128xi64>
      %44 = arith.cmpi slt, %37, %43 : tensor<1x128xi64>
      %45 = arith.andi %41, %44 : tensor<1x128xi1>
      %46 = tile.broadcast %33 : tensor<128x1xi1> -> tensor<128x128xi1>
      %47 = tile.broadcast %45 : tensor<1x128xi1> -> tensor<128x128xi1>
      %48 = arith.andi %46, %47 : tensor<128x128xi1>
      %49 = tile.splat %arg8 : tensor<128x128x!tile.ptr<f16>>
      %50 = tile.addptr %49, %40 : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi64>
      tile.store %50, %20, %48 descriptor %arg8[%18, %19] shape(%arg9, %arg10) strides(%arg11, %c1_i64) : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xf16>, tensor<128x128xi1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32
    } {tile.flatten}
    return
  }
}
