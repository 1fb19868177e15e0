// RUN: tilec-opt %s -tile-describe-pointer-blocks | FileCheck %s

// Attention written with pointer arithmetic (examples/attention.tile's
// attention_fwd_kt, HEAD_DIM 64, 128 x 64 blocks, as the front end emits
// it): a loop of two products, k read through tl.trans (`q @ k.T`), v as
// it is, each `X + off_hz * N_CTX * HEAD_DIM` (a scalar pointer the loop
// computes) plus rows `start_n + tl.arange(0, 64)` masked against N_CTX
// times 64 plus the unmasked columns `tl.arange(0, 64)`. Both loads get the
// block of a [N_CTX, 64] tensor at that pointer: rows from start_n, bounded
// by the mask, columns from 0, whose extent is where they end (64), row
// stride 64. So does O's store after the loop (rows masked against N_CTX,
// from start_m * 128). tile-pipeline then may copy them with TMA (its
// batched-tma option: the bases are moved by the program id).
// CHECK: scf.for %[[IV:[^ ]*]] =
// CHECK: %[[KB:.*]] = tile.addptr %arg1, %{{.*}} : !tile.ptr<f16>, i32
// CHECK: tile.load {{.*}} descriptor %[[KB]][%[[IV]], %{{.*}}] shape(%{{.*}}, %[[C64:[^)]*]]) strides(%{{.*}}, %{{.*}}) {descUnchecked}
// CHECK: tile.trans
// CHECK: %[[VB:.*]] = tile.addptr %arg2, %{{.*}} : !tile.ptr<f16>, i32
// CHECK: tile.load {{.*}} descriptor %[[VB]][%[[IV]], %{{.*}}] shape(%{{.*}}, %{{.*}}) strides(%{{.*}}, %{{.*}}) {descUnchecked}
// CHECK: scf.yield
// CHECK: %[[OB:.*]] = tile.addptr %arg3, %{{.*}} : !tile.ptr<f16>, i32
// CHECK: tile.store {{.*}} descriptor %[[OB]][%{{.*}}, %{{.*}}] shape(%{{.*}}, %{{.*}}) strides(%{{.*}}, %{{.*}}) {descUnchecked}

module {
  func.func @attention_fwd_kt(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: f32, %arg5: i32) {
    %cst = arith.constant dense<0xFF800000> : tensor<128xf32>
    %cst_0 = arith.constant dense<0xFF800000> : tensor<128x64xf32>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf16>
    %cst_2 = arith.constant dense<64> : tensor<64x1xi32>
    %c0_i32 = arith.constant 0 : i32
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %cst_5 = arith.constant dense<0.000000e+00> : tensor<128x64xf16>
    %cst_6 = arith.constant dense<64> : tensor<128x1xi32>
    %c128_i32 = arith.constant 128 : i32
    %c64_i32 = arith.constant 64 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.muli %1, %arg5 : i32
    %3 = arith.muli %2, %c64_i32 : i32
    %4 = arith.muli %0, %c128_i32 : i32
    %5 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %6 = tile.splat %4 : tensor<128xi32>
    %7 = arith.addi %6, %5 : tensor<128xi32>
    %8 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %9 = tile.addptr %arg0, %3 : !tile.ptr<f16>, i32
    %10 = tile.expand_dims %7 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %11 = arith.muli %10, %cst_6 : tensor<128x1xi32>
    %12 = tile.splat %9 : tensor<128x1x!tile.ptr<f16>>
    %13 = tile.addptr %12, %11 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
    %14 = tile.expand_dims %8 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %15 = tile.broadcast %13 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
    %16 = tile.broadcast %14 : tensor<1x64xi32> -> tensor<128x64xi32>
    %17 = tile.addptr %15, %16 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %18 = tile.splat %arg5 : tensor<128x1xi32>
    %19 = arith.cmpi slt, %10, %18 : tensor<128x1xi32>
    %20 = tile.broadcast %19 : tensor<128x1xi1> -> tensor<128x64xi1>
    %21 = tile.load %17, %20 other %cst_5 : (tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi1>, tensor<128x64xf16>) -> tensor<128x64xf16>
    %22:3 = scf.for %arg6 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg7 = %cst_3, %arg8 = %cst_4, %arg9 = %cst) -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>)  : i32 {
      %32 = tile.splat %arg6 : tensor<64xi32>
      %33 = arith.addi %32, %8 : tensor<64xi32>
      %34 = tile.addptr %arg1, %3 : !tile.ptr<f16>, i32
      %35 = tile.expand_dims %33 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %36 = arith.muli %35, %cst_2 : tensor<64x1xi32>
      %37 = tile.splat %34 : tensor<64x1x!tile.ptr<f16>>
      %38 = tile.addptr %37, %36 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %39 = tile.broadcast %38 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %40 = tile.broadcast %14 : tensor<1x64xi32> -> tensor<64x64xi32>
      %41 = tile.addptr %39, %40 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %42 = tile.splat %arg5 : tensor<64x1xi32>
      %43 = arith.cmpi slt, %35, %42 : tensor<64x1xi32>
      %44 = tile.broadcast %43 : tensor<64x1xi1> -> tensor<64x64xi1>
      %45 = tile.load %41, %44 other %cst_1 : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi1>, tensor<64x64xf16>) -> tensor<64x64xf16>
      %46 = tile.trans %45 {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
      %47 = tile.dot %21, %46, %cst_3 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
      %48 = tile.splat %arg4 : tensor<128x64xf32>
      %49 = arith.mulf %47, %48 : tensor<128x64xf32>
      %50 = tile.expand_dims %33 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %51 = tile.splat %arg5 : tensor<1x64xi32>
      %52 = arith.cmpi slt, %50, %51 : tensor<1x64xi32>
      %53 = tile.broadcast %52 : tensor<1x64xi1> -> tensor<128x64xi1>
      %54 = arith.select %53, %49, %cst_0 : tensor<128x64xi1>, tensor<128x64xf32>
      %55 = tile.reduce %54 {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<128x64xf32> -> tensor<128xf32>
      %56 = arith.maxnumf %arg9, %55 : tensor<128xf32>
      %57 = arith.subf %arg9, %56 : tensor<128xf32>
      %58 = math.exp %57 : tensor<128xf32>
      %59 = tile.expand_dims %56 {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
      %60 = tile.broadcast %59 : tensor<128x1xf32> -> tensor<128x64xf32>
      %61 = arith.subf %54, %60 : tensor<128x64xf32>
      %62 = math.exp %61 : tensor<128x64xf32>
      %63 = arith.mulf %arg8, %58 : tensor<128xf32>
      %64 = tile.reduce %62 {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<128x64xf32> -> tensor<128xf32>
      %65 = arith.addf %63, %64 : tensor<128xf32>
      %66 = tile.addptr %arg2, %3 : !tile.ptr<f16>, i32
      %67 = tile.splat %66 : tensor<64x1x!tile.ptr<f16>>
      %68 = tile.addptr %67, %36 : tensor<64x1x!tile.ptr<f16>>, tensor<64x1xi32>
      %69 = tile.broadcast %68 : tensor<64x1x!tile.ptr<f16>> -> tensor<64x64x!tile.ptr<f16>>
      %70 = tile.addptr %69, %40 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %71 = tile.load %70, %44 other %cst_1 : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi1>, tensor<64x64xf16>) -> tensor<64x64xf16>
      %72 = tile.expand_dims %58 {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
      %73 = tile.broadcast %72 : tensor<128x1xf32> -> tensor<128x64xf32>
      %74 = arith.mulf %arg7, %73 : tensor<128x64xf32>
      %75 = arith.truncf %62 : tensor<128x64xf32> to tensor<128x64xf16>
      %76 = tile.dot %75, %71, %74 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
      scf.yield %76, %65, %56 : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
    }
    %23 = tile.expand_dims %22#1 {axis = 1 : i32} : tensor<128xf32> -> tensor<128x1xf32>
    %24 = tile.broadcast %23 : tensor<128x1xf32> -> tensor<128x64xf32>
    %25 = arith.divf %22#0, %24 fastmath<afn> : tensor<128x64xf32>
    %26 = tile.addptr %arg3, %3 : !tile.ptr<f16>, i32
    %27 = tile.splat %26 : tensor<128x1x!tile.ptr<f16>>
    %28 = tile.addptr %27, %11 : tensor<128x1x!tile.ptr<f16>>, tensor<128x1xi32>
    %29 = tile.broadcast %28 : tensor<128x1x!tile.ptr<f16>> -> tensor<128x64x!tile.ptr<f16>>
    %30 = tile.addptr %29, %16 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
    %31 = arith.truncf %25 : tensor<128x64xf32> to tensor<128x64xf16>
    tile.store %30, %31, %20 : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xf16>, tensor<128x64xi1>
    return
  }
}
