// RUN: tilec-opt %s -split-input-file -tile-describe-pointer-blocks -canonicalize -cse | FileCheck %s
// RUN: sed -n '/^  func.func @block_ptr_kt(/,$p' %s | sed -e '1s/^/module {\n/' -e 's/arith.cmpi sge, %28, %cst /arith.cmpi sge, %15, %cst /' | tilec-opt -tile-describe-pointer-blocks -canonicalize -cse | FileCheck %s --check-prefix=LOWER

// The matmul tutorial's pointer kernel (16x16x16 blocks, unit column
// strides): a's rows and b's columns wrap `% M` and `% N`, the loads mask K
// (`offs_k < K - k * 16`) and the store masks rows < M and columns < N, so
// both loads read the blocks at [pid_m * 16, k * 16] of (M x K, row stride
// stride_am) and [k * 16, pid_n * 16] of (K x N, row stride stride_bk). The
// scalars that do not change in the loop are built before it. The store of
// the product (through a conversion to fp16) masks both dimensions: it
// writes the block [pid_m * 16, pid_n * 16] of M x N (row stride stride_cm).
// CHECK-LABEL: func.func @tutorial
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[PM:.*]] = tile.program_id 0
// CHECK-DAG: %[[PN:.*]] = tile.program_id 1
// CHECK-DAG: %[[ROW:.*]] = arith.muli %[[PM]], %c16_i32 : i32
// CHECK-DAG: %[[COL:.*]] = arith.muli %[[PN]], %c16_i32 : i32
// CHECK-DAG: %[[M:.*]] = arith.extsi %arg3 : i32 to i64
// CHECK-DAG: %[[N:.*]] = arith.extsi %arg4 : i32 to i64
// CHECK-DAG: %[[K:.*]] = arith.extsi %arg5 : i32 to i64
// CHECK-DAG: %[[SAM:.*]] = arith.extsi %arg6 : i32 to i64
// CHECK-DAG: %[[SBK:.*]] = arith.extsi %arg7 : i32 to i64
// CHECK: scf.for %[[IV:.*]] = %c0_i32 to
// CHECK: %[[KOFF:.*]] = arith.muli %[[IV]], %c16_i32 : i32
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %arg0[%[[ROW]], %[[KOFF]]] shape(%[[M]], %[[K]]) strides(%[[SAM]], %[[ONE]]) {descUnchecked}
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %arg1[%[[KOFF]], %[[COL]]] shape(%[[K]], %[[N]]) strides(%[[SBK]], %[[ONE]]) {descUnchecked}
// CHECK: %[[SCM:.*]] = arith.extsi %arg8 : i32 to i64
// CHECK-NEXT: tile.store %{{.*}}, %{{.*}}, %{{.*}} descriptor %arg2[%[[ROW]], %[[COL]]] shape(%[[M]], %[[N]]) strides(%[[SCM]], %[[ONE]]) {descUnchecked}
module {
  func.func @tutorial(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}) {
    %c15_i32 = arith.constant 15 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tile.splat %2 : tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = tile.splat %arg3 : tensor<16xi32>
    %7 = arith.remsi %5, %6 : tensor<16xi32>
    %8 = arith.muli %1, %c16_i32 : i32
    %9 = tile.splat %8 : tensor<16xi32>
    %10 = arith.addi %9, %3 : tensor<16xi32>
    %11 = tile.splat %arg4 : tensor<16xi32>
    %12 = arith.remsi %10, %11 : tensor<16xi32>
    %13 = tile.expand_dims %7 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %14 = tile.splat %arg6 : tensor<16x1xi32>
    %15 = arith.muli %13, %14 : tensor<16x1xi32>
    %16 = tile.splat %arg0 : tensor<16x1x!tile.ptr<f16>>
    %17 = tile.addptr %16, %15 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %18 = tile.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %19 = tile.broadcast %17 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %20 = tile.broadcast %18 : tensor<1x16xi32> -> tensor<16x16xi32>
    %21 = tile.addptr %19, %20 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %22 = tile.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %23 = tile.splat %arg7 : tensor<16x1xi32>
    %24 = arith.muli %22, %23 : tensor<16x1xi32>
    %25 = tile.splat %arg1 : tensor<16x1x!tile.ptr<f16>>
    %26 = tile.addptr %25, %24 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %27 = tile.expand_dims %12 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %28 = tile.broadcast %26 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %29 = tile.broadcast %27 : tensor<1x16xi32> -> tensor<16x16xi32>
    %30 = tile.addptr %28, %29 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %31 = arith.addi %arg5, %c15_i32 : i32
    %32 = arith.divsi %31, %c16_i32 : i32
    %33:3 = scf.for %arg9 = %c0_i32 to %32 step %c1_i32 iter_args(%arg10 = %21, %arg11 = %cst_0, %arg12 = %30) -> (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>)  : i32 {
      %51 = arith.muli %arg9, %c16_i32 : i32
      %52 = arith.subi %arg5, %51 : i32
      %53 = tile.splat %52 : tensor<1x16xi32>
      %54 = arith.cmpi slt, %18, %53 : tensor<1x16xi32>
      %55 = tile.broadcast %54 : tensor<1x16xi1> -> tensor<16x16xi1>
      %56 = tile.load %arg10, %55 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %57 = tile.splat %52 : tensor<16x1xi32>
      %58 = arith.cmpi slt, %22, %57 : tensor<16x1xi32>
      %59 = tile.broadcast %58 : tensor<16x1xi1> -> tensor<16x16xi1>
      %60 = tile.load %arg12, %59 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %61 = tile.dot %56, %60, %arg11 {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      %62 = tile.splat %c16_i32 : tensor<16x16xi32>
      %63 = tile.addptr %arg10, %62 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %64 = arith.muli %arg7, %c16_i32 : i32
      %65 = tile.splat %64 : tensor<16x16xi32>
      %66 = tile.addptr %arg12, %65 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      scf.yield %63, %61, %66 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>
    }
    %34 = tile.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %35 = tile.splat %arg8 : tensor<16x1xi32>
    %36 = arith.muli %34, %35 : tensor<16x1xi32>
    %37 = tile.splat %arg2 : tensor<16x1x!tile.ptr<f16>>
    %38 = tile.addptr %37, %36 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %39 = tile.expand_dims %10 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %40 = tile.broadcast %38 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %41 = tile.broadcast %39 : tensor<1x16xi32> -> tensor<16x16xi32>
    %42 = tile.addptr %40, %41 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %43 = tile.splat %arg3 : tensor<16x1xi32>
    %44 = arith.cmpi slt, %34, %43 : tensor<16x1xi32>
    %45 = tile.splat %arg4 : tensor<1x16xi32>
    %46 = arith.cmpi slt, %39, %45 : tensor<1x16xi32>
    %47 = tile.broadcast %44 : tensor<16x1xi1> -> tensor<16x16xi1>
    %48 = tile.broadcast %46 : tensor<1x16xi1> -> tensor<16x16xi1>
    %49 = arith.andi %47, %48 : tensor<16x16xi1>
    %50 = arith.truncf %33#1 : tensor<16x16xf32> to tensor<16x16xf16>
    tile.store %42, %50, %49 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf16>, tensor<16x16xi1>
    return
  }
}


// -----

// The same loop, but the store masks only columns: the rows of a that wrap
// (read again from row 0 where TMA would read zeros) reach stored elements,
// so a's load keeps its pointers alone; b's columns are still masked off.
// The store, masked along one dimension only, is not a block either.
// CHECK-LABEL: func.func @rows_unmasked
// CHECK: scf.for
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} : (
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %arg1[
// CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} : tensor
module {
  func.func @rows_unmasked(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}) {
    %c15_i32 = arith.constant 15 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.muli %0, %c16_i32 : i32
    %3 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %4 = tile.splat %2 : tensor<16xi32>
    %5 = arith.addi %4, %3 : tensor<16xi32>
    %6 = tile.splat %arg3 : tensor<16xi32>
    %7 = arith.remsi %5, %6 : tensor<16xi32>
    %8 = arith.muli %1, %c16_i32 : i32
    %9 = tile.splat %8 : tensor<16xi32>
    %10 = arith.addi %9, %3 : tensor<16xi32>
    %11 = tile.splat %arg4 : tensor<16xi32>
    %12 = arith.remsi %10, %11 : tensor<16xi32>
    %13 = tile.expand_dims %7 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %14 = tile.splat %arg6 : tensor<16x1xi32>
    %15 = arith.muli %13, %14 : tensor<16x1xi32>
    %16 = tile.splat %arg0 : tensor<16x1x!tile.ptr<f16>>
    %17 = tile.addptr %16, %15 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %18 = tile.expand_dims %3 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %19 = tile.broadcast %17 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %20 = tile.broadcast %18 : tensor<1x16xi32> -> tensor<16x16xi32>
    %21 = tile.addptr %19, %20 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %22 = tile.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %23 = tile.splat %arg7 : tensor<16x1xi32>
    %24 = arith.muli %22, %23 : tensor<16x1xi32>
    %25 = tile.splat %arg1 : tensor<16x1x!tile.ptr<f16>>
    %26 = tile.addptr %25, %24 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %27 = tile.expand_dims %12 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %28 = tile.broadcast %26 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %29 = tile.broadcast %27 : tensor<1x16xi32> -> tensor<16x16xi32>
    %30 = tile.addptr %28, %29 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %31 = arith.addi %arg5, %c15_i32 : i32
    %32 = arith.divsi %31, %c16_i32 : i32
    %33:3 = scf.for %arg9 = %c0_i32 to %32 step %c1_i32 iter_args(%arg10 = %21, %arg11 = %cst_0, %arg12 = %30) -> (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>)  : i32 {
      %47 = arith.muli %arg9, %c16_i32 : i32
      %48 = arith.subi %arg5, %47 : i32
      %49 = tile.splat %48 : tensor<1x16xi32>
      %50 = arith.cmpi slt, %18, %49 : tensor<1x16xi32>
      %51 = tile.broadcast %50 : tensor<1x16xi1> -> tensor<16x16xi1>
      %52 = tile.load %arg10, %51 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %53 = tile.splat %48 : tensor<16x1xi32>
      %54 = arith.cmpi slt, %22, %53 : tensor<16x1xi32>
      %55 = tile.broadcast %54 : tensor<16x1xi1> -> tensor<16x16xi1>
      %56 = tile.load %arg12, %55 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %57 = tile.dot %52, %56, %arg11 {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      %58 = tile.splat %c16_i32 : tensor<16x16xi32>
      %59 = tile.addptr %arg10, %58 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %60 = arith.muli %arg7, %c16_i32 : i32
      %61 = tile.splat %60 : tensor<16x16xi32>
      %62 = tile.addptr %arg12, %61 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      scf.yield %59, %57, %62 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>
    }
    %34 = tile.expand_dims %5 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %35 = tile.splat %arg8 : tensor<16x1xi32>
    %36 = arith.muli %34, %35 : tensor<16x1xi32>
    %37 = tile.splat %arg2 : tensor<16x1x!tile.ptr<f16>>
    %38 = tile.addptr %37, %36 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %39 = tile.expand_dims %10 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %40 = tile.broadcast %38 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %41 = tile.broadcast %39 : tensor<1x16xi32> -> tensor<16x16xi32>
    %42 = tile.addptr %40, %41 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %43 = tile.splat %arg4 : tensor<1x16xi32>
    %44 = arith.cmpi slt, %39, %43 : tensor<1x16xi32>
    %45 = arith.truncf %33#1 : tensor<16x16xf32> to tensor<16x16xf16>
    %46 = tile.broadcast %44 : tensor<1x16xi1> -> tensor<16x16xi1>
    tile.store %42, %45, %46 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf16>, tensor<16x16xi1>
    return
  }
}


// -----

// a's program offset is added after the modulus (`pid_m * 16 * stride_am +
// (arange % M) * stride_am`): a block would start at pid_m * 16, where the
// load reads rows pid_m * 16 + i % M, so a is not described. b masks both of
// its dimensions (K and N), which is exactly what TMA zero-fills.
// CHECK-LABEL: func.func @offset_after_modulus
// CHECK: scf.for %[[IV:.*]] = %c0_i32 to
// CHECK: %[[KOFF:.*]] = arith.muli %[[IV]], %c16_i32 : i32
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} : (
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %arg1[%[[KOFF]], %c0_i32]
// CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} descriptor %arg2[
module {
  func.func @offset_after_modulus(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}) {
    %c15_i32 = arith.constant 15 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %2 = tile.splat %arg3 : tensor<16xi32>
    %3 = arith.remsi %1, %2 : tensor<16xi32>
    %4 = arith.muli %0, %c16_i32 : i32
    %5 = arith.muli %4, %arg6 : i32
    %6 = tile.addptr %arg0, %5 : !tile.ptr<f16>, i32
    %7 = tile.expand_dims %3 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %8 = tile.splat %arg6 : tensor<16x1xi32>
    %9 = arith.muli %7, %8 : tensor<16x1xi32>
    %10 = tile.splat %6 : tensor<16x1x!tile.ptr<f16>>
    %11 = tile.addptr %10, %9 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %12 = tile.expand_dims %1 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %13 = tile.broadcast %11 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %14 = tile.broadcast %12 : tensor<1x16xi32> -> tensor<16x16xi32>
    %15 = tile.addptr %13, %14 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %16 = tile.expand_dims %1 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %17 = tile.splat %arg7 : tensor<16x1xi32>
    %18 = arith.muli %16, %17 : tensor<16x1xi32>
    %19 = tile.splat %arg1 : tensor<16x1x!tile.ptr<f16>>
    %20 = tile.addptr %19, %18 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %21 = tile.broadcast %20 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %22 = tile.addptr %21, %14 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %23 = arith.addi %arg5, %c15_i32 : i32
    %24 = arith.divsi %23, %c16_i32 : i32
    %25:3 = scf.for %arg9 = %c0_i32 to %24 step %c1_i32 iter_args(%arg10 = %15, %arg11 = %cst_0, %arg12 = %22) -> (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>)  : i32 {
      %43 = arith.muli %arg9, %c16_i32 : i32
      %44 = arith.subi %arg5, %43 : i32
      %45 = tile.splat %44 : tensor<1x16xi32>
      %46 = arith.cmpi slt, %12, %45 : tensor<1x16xi32>
      %47 = tile.broadcast %46 : tensor<1x16xi1> -> tensor<16x16xi1>
      %48 = tile.load %arg10, %47 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %49 = tile.splat %44 : tensor<16x1xi32>
      %50 = arith.cmpi slt, %16, %49 : tensor<16x1xi32>
      %51 = tile.splat %arg4 : tensor<1x16xi32>
      %52 = arith.cmpi slt, %12, %51 : tensor<1x16xi32>
      %53 = tile.broadcast %50 : tensor<16x1xi1> -> tensor<16x16xi1>
      %54 = tile.broadcast %52 : tensor<1x16xi1> -> tensor<16x16xi1>
      %55 = arith.andi %53, %54 : tensor<16x16xi1>
      %56 = tile.load %arg12, %55 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %57 = tile.dot %48, %56, %arg11 {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      %58 = tile.splat %c16_i32 : tensor<16x16xi32>
      %59 = tile.addptr %arg10, %58 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %60 = arith.muli %arg7, %c16_i32 : i32
      %61 = tile.splat %60 : tensor<16x16xi32>
      %62 = tile.addptr %arg12, %61 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      scf.yield %59, %57, %62 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>
    }
    %26 = tile.splat %4 : tensor<16xi32>
    %27 = arith.addi %26, %1 : tensor<16xi32>
    %28 = tile.expand_dims %27 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %29 = tile.splat %arg8 : tensor<16x1xi32>
    %30 = arith.muli %28, %29 : tensor<16x1xi32>
    %31 = tile.splat %arg2 : tensor<16x1x!tile.ptr<f16>>
    %32 = tile.addptr %31, %30 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %33 = tile.broadcast %32 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %34 = tile.addptr %33, %14 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %35 = tile.splat %arg3 : tensor<16x1xi32>
    %36 = arith.cmpi slt, %28, %35 : tensor<16x1xi32>
    %37 = tile.splat %arg4 : tensor<1x16xi32>
    %38 = arith.cmpi slt, %12, %37 : tensor<1x16xi32>
    %39 = tile.broadcast %36 : tensor<16x1xi1> -> tensor<16x16xi1>
    %40 = tile.broadcast %38 : tensor<1x16xi1> -> tensor<16x16xi1>
    %41 = arith.andi %39, %40 : tensor<16x16xi1>
    %42 = arith.truncf %25#1 : tensor<16x16xf32> to tensor<16x16xf16>
    tile.store %34, %42, %41 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf16>, tensor<16x16xi1>
    return
  }
}


// -----

// Pointers computed in the body from `k0` (stepping by 16 up to K) with both
// dimensions masked: each block starts at k0 along K, and the unmasked
// store needs no proof (and, with no mask to bound it, is no block).
// CHECK-LABEL: func.func @masked_in_loop
// CHECK-DAG: %[[ROW:.*]] = arith.muli %{{.*}}, %c16_i32 : i32
// CHECK: scf.for %[[K0:.*]] = %c0_i32 to %arg5 step %c16_i32
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %arg0[%[[ROW]], %[[K0]]]
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %arg1[%[[K0]], %c0_i32]
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor
module {
  func.func @masked_in_loop(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}) {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tile.program_id 0 : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tile.splat %1 : tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %5 = scf.for %arg9 = %c0_i32 to %arg5 step %c16_i32 iter_args(%arg10 = %cst_0) -> (tensor<16x16xf32>)  : i32 {
      %16 = tile.splat %arg9 : tensor<16xi32>
      %17 = arith.addi %16, %2 : tensor<16xi32>
      %18 = tile.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %19 = tile.splat %arg6 : tensor<16x1xi32>
      %20 = arith.muli %18, %19 : tensor<16x1xi32>
      %21 = tile.splat %arg0 : tensor<16x1x!tile.ptr<f16>>
      %22 = tile.addptr %21, %20 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
      %23 = tile.expand_dims %17 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %24 = tile.broadcast %22 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
      %25 = tile.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
      %26 = tile.addptr %24, %25 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %27 = tile.splat %arg3 : tensor<16x1xi32>
      %28 = arith.cmpi slt, %18, %27 : tensor<16x1xi32>
      %29 = tile.splat %arg5 : tensor<1x16xi32>
      %30 = arith.cmpi slt, %23, %29 : tensor<1x16xi32>
      %31 = tile.broadcast %28 : tensor<16x1xi1> -> tensor<16x16xi1>
      %32 = tile.broadcast %30 : tensor<1x16xi1> -> tensor<16x16xi1>
      %33 = arith.andi %31, %32 : tensor<16x16xi1>
      %34 = tile.load %26, %33 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %35 = tile.expand_dims %17 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %36 = tile.splat %arg7 : tensor<16x1xi32>
      %37 = arith.muli %35, %36 : tensor<16x1xi32>
      %38 = tile.splat %arg1 : tensor<16x1x!tile.ptr<f16>>
      %39 = tile.addptr %38, %37 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
      %40 = tile.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %41 = tile.broadcast %39 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
      %42 = tile.broadcast %40 : tensor<1x16xi32> -> tensor<16x16xi32>
      %43 = tile.addptr %41, %42 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %44 = tile.splat %arg5 : tensor<16x1xi32>
      %45 = arith.cmpi slt, %35, %44 : tensor<16x1xi32>
      %46 = tile.splat %arg4 : tensor<1x16xi32>
      %47 = arith.cmpi slt, %40, %46 : tensor<1x16xi32>
      %48 = tile.broadcast %45 : tensor<16x1xi1> -> tensor<16x16xi1>
      %49 = tile.broadcast %47 : tensor<1x16xi1> -> tensor<16x16xi1>
      %50 = arith.andi %48, %49 : tensor<16x16xi1>
      %51 = tile.load %43, %50 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %52 = tile.dot %34, %51, %arg10 {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %52 : tensor<16x16xf32>
    }
    %6 = tile.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %7 = tile.splat %arg8 : tensor<16x1xi32>
    %8 = arith.muli %6, %7 : tensor<16x1xi32>
    %9 = tile.splat %arg2 : tensor<16x1x!tile.ptr<f16>>
    %10 = tile.addptr %9, %8 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %11 = tile.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %12 = tile.broadcast %10 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %13 = tile.broadcast %11 : tensor<1x16xi32> -> tensor<16x16xi32>
    %14 = tile.addptr %12, %13 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %15 = arith.truncf %5 : tensor<16x16xf32> to tensor<16x16xf16>
    tile.store %14, %15 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf16>
    return
  }
}

// -----

// The same with a uniform offset added to a's pointers that is a multiple
// of neither stride (a batch's, `pid_b * stride_ab`): a's block is of the
// tensor that starts there (tile.addptr of the base, which tile-pipeline's
// batched-tma reads as an outer dimension of the map).
// CHECK-LABEL: func.func @batch_offset
// CHECK: %[[PID:.*]] = tile.program_id 2 : i32
// CHECK: %[[OFF:.*]] = arith.muli %[[PID]], %arg9 : i32
// CHECK: %[[BASE:.*]] = tile.addptr %arg0, %[[OFF]] : !tile.ptr<f16>, i32
// CHECK: scf.for %[[K0:.*]] = %c0_i32 to %arg5 step %c16_i32
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %[[BASE]][%{{.*}}, %[[K0]]]
// CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} descriptor %arg1[%[[K0]], %c0_i32]
module {
  func.func @batch_offset(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}, %sab: i32) {
    %cst = arith.constant dense<0.000000e+00> : tensor<16x16xf16>
    %c0_i32 = arith.constant 0 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
    %c16_i32 = arith.constant 16 : i32
    %0 = tile.program_id 0 : i32
    %1 = arith.muli %0, %c16_i32 : i32
    %2 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %3 = tile.splat %1 : tensor<16xi32>
    %4 = arith.addi %3, %2 : tensor<16xi32>
    %pid2 = tile.program_id 2 : i32
    %boff = arith.muli %pid2, %sab : i32
    %5 = scf.for %arg9 = %c0_i32 to %arg5 step %c16_i32 iter_args(%arg10 = %cst_0) -> (tensor<16x16xf32>)  : i32 {
      %16 = tile.splat %arg9 : tensor<16xi32>
      %17 = arith.addi %16, %2 : tensor<16xi32>
      %18 = tile.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %19 = tile.splat %arg6 : tensor<16x1xi32>
      %20 = arith.muli %18, %19 : tensor<16x1xi32>
      %21 = tile.splat %arg0 : tensor<16x1x!tile.ptr<f16>>
      %22 = tile.addptr %21, %20 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
      %23 = tile.expand_dims %17 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %24 = tile.broadcast %22 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
      %25 = tile.broadcast %23 : tensor<1x16xi32> -> tensor<16x16xi32>
      %26 = tile.addptr %24, %25 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %27 = tile.splat %arg3 : tensor<16x1xi32>
      %28 = arith.cmpi slt, %18, %27 : tensor<16x1xi32>
      %29 = tile.splat %arg5 : tensor<1x16xi32>
      %30 = arith.cmpi slt, %23, %29 : tensor<1x16xi32>
      %31 = tile.broadcast %28 : tensor<16x1xi1> -> tensor<16x16xi1>
      %32 = tile.broadcast %30 : tensor<1x16xi1> -> tensor<16x16xi1>
      %33 = arith.andi %31, %32 : tensor<16x16xi1>
      %bs = tile.splat %boff : tensor<16x16xi32>
      %ab = tile.addptr %26, %bs : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %34 = tile.load %ab, %33 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %35 = tile.expand_dims %17 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %36 = tile.splat %arg7 : tensor<16x1xi32>
      %37 = arith.muli %35, %36 : tensor<16x1xi32>
      %38 = tile.splat %arg1 : tensor<16x1x!tile.ptr<f16>>
      %39 = tile.addptr %38, %37 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
      %40 = tile.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
      %41 = tile.broadcast %39 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
      %42 = tile.broadcast %40 : tensor<1x16xi32> -> tensor<16x16xi32>
      %43 = tile.addptr %41, %42 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
      %44 = tile.splat %arg5 : tensor<16x1xi32>
      %45 = arith.cmpi slt, %35, %44 : tensor<16x1xi32>
      %46 = tile.splat %arg4 : tensor<1x16xi32>
      %47 = arith.cmpi slt, %40, %46 : tensor<1x16xi32>
      %48 = tile.broadcast %45 : tensor<16x1xi1> -> tensor<16x16xi1>
      %49 = tile.broadcast %47 : tensor<1x16xi1> -> tensor<16x16xi1>
      %50 = arith.andi %48, %49 : tensor<16x16xi1>
      %51 = tile.load %43, %50 other %cst : (tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi1>, tensor<16x16xf16>) -> tensor<16x16xf16>
      %52 = tile.dot %34, %51, %arg10 {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %52 : tensor<16x16xf32>
    }
    %6 = tile.expand_dims %4 {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
    %7 = tile.splat %arg8 : tensor<16x1xi32>
    %8 = arith.muli %6, %7 : tensor<16x1xi32>
    %9 = tile.splat %arg2 : tensor<16x1x!tile.ptr<f16>>
    %10 = tile.addptr %9, %8 : tensor<16x1x!tile.ptr<f16>>, tensor<16x1xi32>
    %11 = tile.expand_dims %2 {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %12 = tile.broadcast %10 : tensor<16x1x!tile.ptr<f16>> -> tensor<16x16x!tile.ptr<f16>>
    %13 = tile.broadcast %11 : tensor<1x16xi32> -> tensor<16x16xi32>
    %14 = tile.addptr %12, %13 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    %15 = arith.truncf %5 : tensor<16x16xf32> to tensor<16x16xf16>
    tile.store %14, %15 : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xf16>
    return
  }
}

// -----

// A block pointer's loads (tl.make_block_ptr, as the front end lowers it):
// indices widened to i64, the offset added after the expansion, and masks
// `0 <= index < extent` (TMA reads zeros below 0 as well). b is K^T of
// order (0, 1), checked along N only: its rows of HEAD_DIM start at the
// constant 0 (extent 64) and the stride along them is 1, which the
// description keeps (strides (1, 64)). The loop's lower bound is not
// constant, which does not matter when the pointer is computed in the body
// from the carried offset. The store of the product is described too.
// CHECK-LABEL: func.func @block_ptr_kt(
// CHECK: scf.for
// CHECK: tile.load %{{[0-9]+}}, %{{[0-9]+}} other %{{[a-z_0-9]+}} descriptor %arg1[%c0_i32, %arg7] shape(%c64_i64, %3) strides(%c1_i64, %c64_i64) {descUnchecked}
// CHECK: tile.store %{{[0-9]+}}, %{{[0-9#]+}}, %{{[0-9]+}} descriptor %arg2[%1, %c0_i32] shape(%2, %c64_i64) strides(%c64_i64, %c1_i64) {descUnchecked}
// A lower bound on other indices than the block's (here without the
// offset) is not TMA's: the load stays undescribed.
// LOWER-LABEL: func.func @block_ptr_kt(
// LOWER: scf.for
// LOWER: tile.load %{{[0-9]+}}, %{{[0-9]+}} other %{{[a-z_0-9]+}} :
module {
  func.func @block_ptr_kt(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %arg3: i32, %arg4: i32) {
    %cst = arith.constant dense<0> : tensor<1x64xi64>
    %cst_0 = arith.constant dense<64> : tensor<1x64xi64>
    %c0_i32 = arith.constant 0 : i32
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf16>
    %cst_3 = arith.constant dense<0> : tensor<64x1xi64>
    %cst_4 = arith.constant dense<64> : tensor<64x1xi64>
    %c64_i32 = arith.constant 64 : i32
    %0 = tile.program_id 0 : i32
    %1 = arith.muli %0, %c64_i32 : i32
    %2 = arith.extsi %arg3 : i32 to i64
    %3 = arith.extsi %arg4 : i32 to i64
    %4 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %5 = arith.extsi %4 : tensor<64xi32> to tensor<64xi64>
    %6 = tile.expand_dims %5 {axis = 1 : i32} : tensor<64xi64> -> tensor<64x1xi64>
    %7 = arith.extsi %1 : i32 to i64
    %8 = tile.splat %7 : tensor<64x1xi64>
    %9 = arith.addi %6, %8 : tensor<64x1xi64>
    %10 = arith.muli %9, %cst_4 : tensor<64x1xi64>
    %11 = arith.cmpi sge, %9, %cst_3 : tensor<64x1xi64>
    %12 = tile.splat %2 : tensor<64x1xi64>
    %13 = arith.cmpi slt, %9, %12 : tensor<64x1xi64>
    %14 = arith.andi %11, %13 : tensor<64x1xi1>
    %15 = tile.expand_dims %5 {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
    %16 = tile.broadcast %10 : tensor<64x1xi64> -> tensor<64x64xi64>
    %17 = tile.broadcast %15 : tensor<1x64xi64> -> tensor<64x64xi64>
    %18 = arith.addi %16, %17 : tensor<64x64xi64>
    %19 = tile.splat %arg0 : tensor<64x64x!tile.ptr<f16>>
    %20 = tile.addptr %19, %18 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi64>
    %21 = tile.broadcast %14 : tensor<64x1xi1> -> tensor<64x64xi1>
    %22 = tile.load %20, %21 other %cst_2 : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi1>, tensor<64x64xf16>) -> tensor<64x64xf16>
    %23:2 = scf.for %arg5 = %0 to %arg4 step %c64_i32 iter_args(%arg6 = %cst_1, %arg7 = %c0_i32) -> (tensor<64x64xf32>, i32)  : i32 {
      %26 = arith.extsi %arg7 : i32 to i64
      %27 = tile.splat %26 : tensor<1x64xi64>
      %28 = arith.addi %15, %27 : tensor<1x64xi64>
      %29 = arith.muli %28, %cst_0 : tensor<1x64xi64>
      %30 = tile.broadcast %6 : tensor<64x1xi64> -> tensor<64x64xi64>
      %31 = tile.broadcast %29 : tensor<1x64xi64> -> tensor<64x64xi64>
      %32 = arith.addi %30, %31 : tensor<64x64xi64>
      %33 = arith.cmpi sge, %28, %cst : tensor<1x64xi64>
      %34 = tile.splat %3 : tensor<1x64xi64>
      %35 = arith.cmpi slt, %28, %34 : tensor<1x64xi64>
      %36 = arith.andi %33, %35 : tensor<1x64xi1>
      %37 = tile.splat %arg1 : tensor<64x64x!tile.ptr<f16>>
      %38 = tile.addptr %37, %32 : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi64>
      %39 = tile.broadcast %36 : tensor<1x64xi1> -> tensor<64x64xi1>
      %40 = tile.load %38, %39 other %cst_2 : (tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi1>, tensor<64x64xf16>) -> tensor<64x64xf16>
      %41 = tile.dot %22, %40, %arg6 {inputPrecision = #tile<input_precision tf32>} : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %42 = arith.addi %arg7, %c64_i32 : i32
      scf.yield %41, %42 : tensor<64x64xf32>, i32
    }
    %24 = tile.splat %arg2 : tensor<64x64x!tile.ptr<f32>>
    %25 = tile.addptr %24, %18 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi64>
    tile.store %25, %23#0, %21 : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>, tensor<64x64xi1>
    return
  }
}

