// RUN: tilec-opt %s -tile-pipeline="num-stages=3 batched-tma=true multi-product-tma=true" | FileCheck %s
// RUN: tilec-opt %s -tile-pipeline="num-stages=3 batched-tma=true multi-product-tma=true" | FileCheck %s --check-prefix=NOCP
// RUN: tilec-opt %s -tile-pipeline="num-stages=3" | FileCheck %s --check-prefix=DEFAULT
// RUN: tilec-opt %s -tile-pipeline="num-stages=3 batched-tma=false" | FileCheck %s --check-prefix=CPASYNC

// A loop of two wgmma products whose loaded operands are tensor-descriptor
// loads: examples/flash_attention.tile's attn_fwd_desc (HEAD_DIM 64, 128 x
// 64 blocks, 8 warps, not causal) after tile-assign-layouts,
// tile-coalesce, tile-remove-layout-conversions, canonicalize and cse
// (without tile-split-bounds-checks: one loop). Each head's Q, K, V and O
// are descriptors at `X + off_hz * N_CTX * 64`: with multi-product-tma, K's and
// V's rings are filled by TMA from 3-D maps whose outer dimension is the
// head (the program id of axis 1, stride N_CTX * 64: arg(5) * 64), O's
// store is a TMA store of a third map, and q (loaded before the loop)
// keeps its buffer, stored once before the loop. Stages 0 and 1 are
// copied before the loop, each arming its slot's barrier for both tiles
// (16384 bytes); the loop carries read = 0, write = 2 and the parity of
// slot `read`'s barrier, waits on it at the top, reads k through
// tile.smem_trans (K-major) for q @ k^T and v as it is for p @ v (left in
// flight), and after a barrier (every warp group is past the products that
// read slot `write`) copies stage i + 2 into slot `write`. No cp.async is
// left (NOCP). Without the experimental multi-product-tma the rings are
// filled by cp.async and O is stored by TMA through its 3-D map (DEFAULT);
// without batched-tma too, O is stored by the threads (CPASYNC).
// CHECK: module attributes {{{.*}}tile.tma = [#tile.tensor_map<param = 6, base = 1, element = f16, shape = [arg(5), 64], row_stride = 64, box = [64, 64], swizzle = 128, outer = [(2147483648, arg(5) * 64)]>, #tile.tensor_map<param = 7, base = 2, element = f16, shape = [arg(5), 64], row_stride = 64, box = [64, 64], swizzle = 128, outer = [(2147483648, arg(5) * 64)]>, #tile.tensor_map<param = 8, base = 3, element = f16, shape = [arg(5), 64], row_stride = 64, box = [128, 64], swizzle = 128, outer = [(2147483648, arg(5) * 64)]>]}
// CHECK: %[[HEAD:.*]] = tile.program_id 1 : i32
// CHECK: %[[RK:.*]] = tile.local_alloc : <3x64x64xf16, #[[S:shared[0-9]*]]>
// CHECK-NEXT: %[[RV:.*]] = tile.local_alloc : <3x64x64xf16, #[[S]]>
// CHECK-NEXT: %[[QB:.*]] = tile.local_alloc : <128x64xf16, #[[S]]>
// CHECK-NEXT: %[[BARS:.*]] = tile.barrier_alloc : <3>
// CHECK: tile.barrier_expect %[[BARS]][%[[S0:.*]]], %{{.*}} {bytes = 16384 : i32} : <3>
// CHECK-NEXT: %[[K0:.*]] = tile.smem_slot %[[RK]][%[[S0]]]
// CHECK-NEXT: tile.async_tma_copy %arg6[%[[HEAD]], %{{.*}}, %{{.*}}], %[[K0]], %[[BARS]][%[[S0]]], %{{.*}} : !tile.tensormap, <64x64xf16, #[[S]]>, <3>
// CHECK-NEXT: %[[V0:.*]] = tile.smem_slot %[[RV]][%[[S0]]]
// CHECK-NEXT: tile.async_tma_copy %arg7[%[[HEAD]], %{{.*}}, %{{.*}}], %[[V0]], %[[BARS]][%[[S0]]], %{{.*}} : !tile.tensormap, <64x64xf16, #[[S]]>, <3>
// CHECK: tile.barrier_expect %[[BARS]][%{{.*}}], %{{.*}} {bytes = 16384 : i32} : <3>
// CHECK: tile.local_store %{{.*}}, %[[QB]]
// CHECK-NEXT: tile.cta_barrier {asyncProxy}
// CHECK: scf.for {{.*}} iter_args({{.*}}, %[[READ:[^ ]*]] = %{{[^,]*}}, %[[WRITE:[^ ]*]] = %{{[^,]*}}, %[[PARITY:[^ ]*]] = %{{[^)]*}})
// CHECK-NEXT: tile.barrier_wait %[[BARS]][%[[READ]]], %[[PARITY]] : <3>
// CHECK-NEXT: %[[K:.*]] = tile.smem_slot %[[RK]][%[[READ]]]
// CHECK-NEXT: %[[V:.*]] = tile.smem_slot %[[RV]][%[[READ]]]
// CHECK: %[[KT:.*]] = tile.smem_trans %[[K]]
// CHECK-NEXT: tile.warp_group_dot %[[QB]], %[[KT]], %{{.*}} {inputPrecision = #tile<input_precision tf32>} :
// CHECK: tile.warp_group_dot %{{.*}}, %[[V]], %{{.*}} {inputPrecision = #tile<input_precision tf32>, isAsync} :
// CHECK-NEXT: tile.cta_barrier
// CHECK: tile.barrier_expect %[[BARS]][%[[WRITE]]], %{{.*}} {bytes = 16384 : i32} : <3>
// CHECK-NEXT: %[[KW:.*]] = tile.smem_slot %[[RK]][%[[WRITE]]]
// CHECK-NEXT: tile.async_tma_copy %arg6[%[[HEAD]], %{{.*}}, %{{.*}}], %[[KW]], %[[BARS]][%[[WRITE]]]
// CHECK-NEXT: %[[VW:.*]] = tile.smem_slot %[[RV]][%[[WRITE]]]
// CHECK-NEXT: tile.async_tma_copy %arg7[%[[HEAD]], %{{.*}}, %{{.*}}], %[[VW]], %[[BARS]][%[[WRITE]]]
// CHECK: scf.yield
// CHECK: tile.barrier_invalidate %[[BARS]] : <3>
// CHECK: tile.async_tma_store %arg8[%[[HEAD]], %{{.*}}, %{{.*}}], %{{.*}} : !tile.tensormap, tensor<128x64xf16, #{{.*}}>
// NOCP-NOT: tile.async_copy
// NOCP-NOT: tile.async_wait
// DEFAULT: module attributes {{{.*}}tile.tma = [#tile.tensor_map<param = 6, base = 3, element = f16, shape = [arg(5), 64], row_stride = 64, box = [128, 64], swizzle = 128, outer = [(2147483648, arg(5) * 64)]>]}
// DEFAULT-NOT: tile.async_tma_copy
// DEFAULT: tile.async_copy
// DEFAULT-NOT: tile.async_tma_copy
// DEFAULT: tile.async_tma_store %arg6
// CPASYNC-NOT: tile.tma
// CPASYNC: tile.async_copy
// CPASYNC-NOT: tile.async_tma_copy
// CPASYNC-NOT: tile.async_tma_store

#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 8 : i32, tile.target = "sm_90a"} {
  func.func @attn_fwd_desc(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: f32, %arg5: i32) {
    %cst = arith.constant dense<-1.000000e+06> : tensor<128x64xf32, #mma>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
    %cst_1 = arith.constant dense<0> : tensor<64x1xi64, #blocked>
    %cst_2 = arith.constant dense<64> : tensor<64x1xi64, #blocked>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked>
    %cst_4 = arith.constant dense<64> : tensor<1x64xi64, #blocked>
    %cst_5 = arith.constant dense<64> : tensor<1x64xi64, #mma>
    %cst_6 = arith.constant dense<0> : tensor<1x64xi64, #blocked>
    %cst_7 = arith.constant dense<0> : tensor<1x64xi64, #mma>
    %cst_8 = arith.constant dense<0> : tensor<128x1xi64, #blocked>
    %cst_9 = arith.constant dense<0> : tensor<128x1xi64, #mma>
    %cst_10 = arith.constant dense<64> : tensor<128x1xi64, #blocked>
    %cst_11 = arith.constant dense<64> : tensor<128x1xi64, #mma>
    %cst_12 = arith.constant 1.44269502 : f32
    %cst_13 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %cst_14 = arith.constant dense<0.000000e+00> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_15 = arith.constant dense<0xFF800000> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %c128_i32 = arith.constant 128 : i32
    %c64_i64 = arith.constant 64 : i64
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.extsi %1 : i32 to i64
    %3 = arith.extsi %arg5 : i32 to i64
    %4 = arith.muli %2, %3 : i64
    %5 = arith.muli %4, %c64_i64 : i64
    %6 = tile.addptr %arg0, %5 : !tile.ptr<f16>, i64
    %7 = tile.addptr %arg1, %5 : !tile.ptr<f16>, i64
    %8 = tile.addptr %arg2, %5 : !tile.ptr<f16>, i64
    %9 = tile.addptr %arg3, %5 : !tile.ptr<f16>, i64
    %10 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
    %11 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %12 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %13 = arith.mulf %arg4, %cst_12 : f32
    %14 = arith.muli %0, %c128_i32 : i32
    %15 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %16 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>>
    %17 = arith.extsi %15 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>> to tensor<128xi64, #tile.slice<dim = 1, parent = #blocked>>
    %18 = arith.extsi %16 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma>> to tensor<128xi64, #tile.slice<dim = 1, parent = #mma>>
    %19 = tile.expand_dims %17 {axis = 1 : i32} : tensor<128xi64, #tile.slice<dim = 1, parent = #blocked>> -> tensor<128x1xi64, #blocked>
    %20 = tile.expand_dims %18 {axis = 1 : i32} : tensor<128xi64, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xi64, #mma>
    %21 = arith.extsi %14 : i32 to i64
    %22 = tile.splat %21 : tensor<128x1xi64, #blocked>
    %23 = tile.splat %21 : tensor<128x1xi64, #mma>
    %24 = arith.addi %19, %22 : tensor<128x1xi64, #blocked>
    %25 = arith.addi %20, %23 : tensor<128x1xi64, #mma>
    %26 = arith.muli %24, %cst_10 : tensor<128x1xi64, #blocked>
    %27 = arith.muli %25, %cst_11 : tensor<128x1xi64, #mma>
    %28 = arith.cmpi sge, %24, %cst_8 : tensor<128x1xi64, #blocked>
    %29 = arith.cmpi sge, %25, %cst_9 : tensor<128x1xi64, #mma>
    %30 = tile.splat %3 : tensor<128x1xi64, #blocked>
    %31 = tile.splat %3 : tensor<128x1xi64, #mma>
    %32 = arith.cmpi slt, %24, %30 : tensor<128x1xi64, #blocked>
    %33 = arith.cmpi slt, %25, %31 : tensor<128x1xi64, #mma>
    %34 = arith.andi %28, %32 : tensor<128x1xi1, #blocked>
    %35 = arith.andi %29, %33 : tensor<128x1xi1, #mma>
    %36 = arith.extsi %11 : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> to tensor<64xi64, #tile.slice<dim = 0, parent = #blocked>>
    %37 = arith.extsi %12 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> to tensor<64xi64, #tile.slice<dim = 1, parent = #blocked>>
    %38 = arith.extsi %10 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>> to tensor<64xi64, #tile.slice<dim = 0, parent = #mma>>
    %39 = tile.expand_dims %36 {axis = 0 : i32} : tensor<64xi64, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi64, #blocked>
    %40 = tile.expand_dims %38 {axis = 0 : i32} : tensor<64xi64, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x64xi64, #mma>
    %41 = tile.broadcast %26 : tensor<128x1xi64, #blocked> -> tensor<128x64xi64, #blocked>
    %42 = tile.broadcast %27 : tensor<128x1xi64, #mma> -> tensor<128x64xi64, #mma>
    %43 = tile.broadcast %39 : tensor<1x64xi64, #blocked> -> tensor<128x64xi64, #blocked>
    %44 = tile.broadcast %40 : tensor<1x64xi64, #mma> -> tensor<128x64xi64, #mma>
    %45 = arith.addi %41, %43 : tensor<128x64xi64, #blocked>
    %46 = arith.addi %42, %44 : tensor<128x64xi64, #mma>
    %47 = arith.cmpi sge, %39, %cst_6 : tensor<1x64xi64, #blocked>
    %48 = arith.cmpi sge, %40, %cst_7 : tensor<1x64xi64, #mma>
    %49 = arith.cmpi slt, %39, %cst_4 : tensor<1x64xi64, #blocked>
    %50 = arith.cmpi slt, %40, %cst_5 : tensor<1x64xi64, #mma>
    %51 = arith.andi %47, %49 : tensor<1x64xi1, #blocked>
    %52 = arith.andi %48, %50 : tensor<1x64xi1, #mma>
    %53 = tile.broadcast %34 : tensor<128x1xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %54 = tile.broadcast %35 : tensor<128x1xi1, #mma> -> tensor<128x64xi1, #mma>
    %55 = tile.broadcast %51 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %56 = tile.broadcast %52 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
    %57 = arith.andi %53, %55 : tensor<128x64xi1, #blocked>
    %58 = arith.andi %54, %56 : tensor<128x64xi1, #mma>
    %59 = tile.splat %6 : tensor<128x64x!tile.ptr<f16>, #blocked>
    %60 = tile.addptr %59, %45 : tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi64, #blocked>
    %61 = tile.load %60, %57 other %cst_3 descriptor %6[%14, %c0_i32] shape(%arg5, %c64_i64) strides(%c64_i64, %c1_i64) : (tensor<128x64x!tile.ptr<f16>, #blocked>, tensor<128x64xi1, #blocked>, tensor<128x64xf16, #blocked>, !tile.ptr<f16>, i32, i64, i64, i64, i32, i32) -> tensor<128x64xf16, #blocked>
    %62:3 = scf.for %arg6 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg7 = %cst_13, %arg8 = %cst_14, %arg9 = %cst_15) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>)  : i32 {
      %69 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %70 = arith.addi %69, %10 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %71 = tile.expand_dims %37 {axis = 1 : i32} : tensor<64xi64, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi64, #blocked>
      %72 = arith.extsi %arg6 : i32 to i64
      %73 = tile.splat %72 : tensor<64x1xi64, #blocked>
      %74 = arith.addi %71, %73 : tensor<64x1xi64, #blocked>
      %75 = arith.muli %74, %cst_2 : tensor<64x1xi64, #blocked>
      %76 = arith.cmpi sge, %74, %cst_1 : tensor<64x1xi64, #blocked>
      %77 = tile.splat %3 : tensor<64x1xi64, #blocked>
      %78 = arith.cmpi slt, %74, %77 : tensor<64x1xi64, #blocked>
      %79 = arith.andi %76, %78 : tensor<64x1xi1, #blocked>
      %80 = tile.broadcast %75 : tensor<64x1xi64, #blocked> -> tensor<64x64xi64, #blocked>
      %81 = tile.broadcast %39 : tensor<1x64xi64, #blocked> -> tensor<64x64xi64, #blocked>
      %82 = arith.addi %80, %81 : tensor<64x64xi64, #blocked>
      %83 = tile.broadcast %79 : tensor<64x1xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %84 = tile.broadcast %51 : tensor<1x64xi1, #blocked> -> tensor<64x64xi1, #blocked>
      %85 = arith.andi %83, %84 : tensor<64x64xi1, #blocked>
      %86 = tile.splat %7 : tensor<64x64x!tile.ptr<f16>, #blocked>
      %87 = tile.addptr %86, %82 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
      %88 = tile.load %87, %85 other %cst_0 descriptor %7[%arg6, %c0_i32] shape(%arg5, %c64_i64) strides(%c64_i64, %c1_i64) : (tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi1, #blocked>, tensor<64x64xf16, #blocked>, !tile.ptr<f16>, i32, i64, i64, i64, i32, i32) -> tensor<64x64xf16, #blocked>
      %89 = tile.trans %88 {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>
      %90 = tile.dot %61, %89, %cst_13 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #blocked>, tensor<64x64xf16, #blocked> -> tensor<128x64xf32, #mma>
      %91 = tile.splat %13 : tensor<128x64xf32, #mma>
      %92 = arith.mulf %90, %91 : tensor<128x64xf32, #mma>
      %93 = tile.expand_dims %70 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x64xi32, #mma>
      %94 = tile.splat %arg5 : tensor<1x64xi32, #mma>
      %95 = arith.cmpi slt, %93, %94 : tensor<1x64xi32, #mma>
      %96 = tile.broadcast %95 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
      %97 = arith.select %96, %92, %cst : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %98 = tile.reduce %97 {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %99 = arith.maxnumf %arg9, %98 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %100 = tile.expand_dims %99 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
      %101 = tile.broadcast %100 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %102 = arith.subf %97, %101 : tensor<128x64xf32, #mma>
      %103 = math.exp2 %102 : tensor<128x64xf32, #mma>
      %104 = arith.subf %arg9, %99 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %105 = math.exp2 %104 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %106 = arith.mulf %arg8, %105 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %107 = tile.reduce %103 {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %108 = arith.addf %106, %107 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %109 = tile.expand_dims %105 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
      %110 = tile.broadcast %109 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %111 = arith.mulf %arg7, %110 : tensor<128x64xf32, #mma>
      %112 = tile.splat %8 : tensor<64x64x!tile.ptr<f16>, #blocked>
      %113 = tile.addptr %112, %82 : tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi64, #blocked>
      %114 = tile.load %113, %85 other %cst_0 descriptor %8[%arg6, %c0_i32] shape(%arg5, %c64_i64) strides(%c64_i64, %c1_i64) : (tensor<64x64x!tile.ptr<f16>, #blocked>, tensor<64x64xi1, #blocked>, tensor<64x64xf16, #blocked>, !tile.ptr<f16>, i32, i64, i64, i64, i32, i32) -> tensor<64x64xf16, #blocked>
      %115 = arith.truncf %103 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %116 = tile.dot %115, %114, %111 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #mma>, tensor<64x64xf16, #blocked> -> tensor<128x64xf32, #mma>
      scf.yield %116, %108, %99 : tensor<128x64xf32, #mma>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    }
    %63 = tile.expand_dims %62#1 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
    %64 = tile.broadcast %63 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %65 = arith.divf %62#0, %64 fastmath<afn> : tensor<128x64xf32, #mma>
    %66 = arith.truncf %65 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %67 = tile.splat %9 : tensor<128x64x!tile.ptr<f16>, #mma>
    %68 = tile.addptr %67, %46 : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xi64, #mma>
    tile.store %68, %66, %58 descriptor %9[%14, %c0_i32] shape(%arg5, %c64_i64) strides(%c64_i64, %c1_i64) : tensor<128x64x!tile.ptr<f16>, #mma>, tensor<128x64xf16, #mma>, tensor<128x64xi1, #mma>, !tile.ptr<f16>, i32, i64, i64, i64, i32, i32
    return
  }
}

