// RUN: tilec-opt %s -tile-pipeline="num-stages=3 ping-pong=true" | FileCheck %s
// RUN: tilec-opt %s -tile-pipeline="num-stages=3 defer-products=false" | FileCheck %s --check-prefix=SAME
// RUN: tilec-opt %s -tile-pipeline="num-stages=3" | FileCheck %s --check-prefix=NOPP

// examples/attention.tile's loop with HEAD_DIM 128 and 128 x 64 blocks
// (fp16, sm_90a, 8 warps) as tile-remove-layout-conversions leaves it: q @ k,
// the online softmax, then p @ v into the rescaled accumulator, which the
// loop only carries. The accumulators and rings leave no room for a second
// program on the SM, so p @ v is deferred: the loop carries p and the
// ring slot its v was read from, and each iteration issues its q @ k, then
// the previous iteration's p @ v, both asynchronous, waits for q @ k with
// p @ v still in flight (pending = 1), and for p @ v (pending = 0) where
// the body first uses the accumulator: its rescaling, after the softmax.
// The first iteration's p is zeros, its slot the ring's last (2), which
// the threads store zeros into before the loop (with q, then the fence);
// the last iteration's p @ v follows the loop. Copies go at the top of the
// iteration, one stage ahead (slot 1).
//
// With ping-pong, the warp groups take turns: the slots are guarded by mbarriers, not by a
// CTA barrier an iteration. Every thread's copies of a stage arrive on the
// slot's full barrier (256 arrivals), which the iteration waits on (parity
// carried, flipped when `read` wraps) before reading the slot; every warp
// arrives on the slot's empty barrier (8 arrivals) once p @ v, the slot's
// last reader, is done, and the copies into slot `write` wait for it first
// (parity 1 passes on a fresh barrier; it flips when the next write goes to
// slot 2, the zero slot's stage -1 counting as a use). Warp group 0 gets
// the first turn before the loop; each iteration's two products are issued
// in turn. After the loop, the copies past the end are waited for on their
// full barrier, warp group 0 takes back the last turn, and the barriers
// end.
// CHECK-LABEL: func.func @attention_fwd
// CHECK-NOT: tile.programs_per_sm
// CHECK: %[[RK:.*]] = tile.local_alloc : <3x128x64xf16, #[[SK:shared[0-9]*]]>
// CHECK-NEXT: %[[RV:.*]] = tile.local_alloc : <3x64x128xf16, #[[SV:shared[0-9]*]]>
// CHECK-NEXT: %[[QB:.*]] = tile.local_alloc : <128x128xf16
// CHECK-NEXT: %[[FULL:.*]] = tile.barrier_alloc {arrivals = 256 : i32} : <3>
// CHECK-NEXT: %[[EMPTY:.*]] = tile.barrier_alloc {arrivals = 8 : i32} : <3>
// CHECK: tile.async_commit_group
// CHECK-NEXT: tile.async_copy_arrive %[[FULL]][%c0_i32{{[_0-9]*}}] : <3>
// CHECK-NOT: tile.async_commit_group
// CHECK: tile.local_store %{{.*}}, %[[QB]]
// CHECK: %[[ZSLOT:.*]] = tile.smem_slot %[[RV]][%c2_i32{{[_0-9]*}}] :
// CHECK-NEXT: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<64x128xf16
// CHECK-NEXT: tile.local_store %[[ZEROS]], %[[ZSLOT]] :
// CHECK-NEXT: tile.cta_barrier {asyncProxy}
// CHECK-NEXT: tile.start_turns
// CHECK-NEXT: %[[LOOP:.*]]:9 = scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^,]*}}, {{.*}}, %[[READ:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[WRITE:[^ ]*]] = %c1_i32{{[_0-9]*}}, %[[FP:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[EP:[^ ]*]] = %c1_i32{{[_0-9]*}}, %[[P:[^ ]*]] = %{{[^,]*}}, %[[PREV:[^ ]*]] = %c2_i32{{[_0-9]*}})
// CHECK-NEXT: tile.barrier_wait %[[EMPTY]][%[[WRITE]]], %[[EP]] : <3>
// CHECK-NOT: tile.warp_group_dot
// CHECK-NOT: tile.cta_barrier
// CHECK-NOT: tile.async_wait
// CHECK: tile.smem_slot %[[RK]][%[[WRITE]]]
// CHECK: tile.async_commit_group
// CHECK-NEXT: tile.async_copy_arrive %[[FULL]][%[[WRITE]]] : <3>
// CHECK-NEXT: tile.barrier_wait %[[FULL]][%[[READ]]], %[[FP]] : <3>
// CHECK-NEXT: %[[KS:.*]] = tile.smem_slot %[[RK]][%[[READ]]]
// CHECK-NEXT: %[[VS:.*]] = tile.smem_slot %[[RV]][%[[READ]]]
// CHECK: %[[RWRAPS:.*]] = arith.cmpi eq, %[[READPLUS:.*]], %c3_i32{{[_0-9]*}}
// CHECK: %[[NEXTREAD:.*]] = arith.select %[[RWRAPS]], %c0_i32{{[_0-9]*}}, %[[READPLUS]]
// CHECK: %[[NEXTWRITE:.*]] = arith.select
// CHECK: %[[FFLIP:.*]] = arith.xori %[[FP]], %c1_i32{{[_0-9]*}}
// CHECK: %[[NEXTFP:.*]] = arith.select %[[RWRAPS]], %[[FFLIP]], %[[FP]]
// CHECK: %[[TOLAST:.*]] = arith.cmpi eq, %[[NEXTWRITE]], %c2_i32{{[_0-9]*}}
// CHECK: %[[EFLIP:.*]] = arith.xori %[[EP]], %c1_i32{{[_0-9]*}}
// CHECK: %[[NEXTEP:.*]] = arith.select %[[TOLAST]], %[[EFLIP]], %[[EP]]
// CHECK-NOT: tile.cta_barrier
// CHECK: tile.await_turn
// CHECK-NEXT: %[[QK:.*]] = tile.warp_group_dot %[[QB]], %[[KS]], %{{.*}} {inputPrecision = #tile<input_precision tf32>, isAsync} : !tile.smem<128x128xf16
// CHECK-NEXT: %[[PVS:.*]] = tile.smem_slot %[[RV]][%[[PREV]]]
// CHECK-NEXT: %[[PV:.*]] = tile.warp_group_dot %[[P]], %[[PVS]], %[[ACC]] {inputPrecision = #tile<input_precision tf32>, isAsync} : tensor<128x64xf16
// CHECK-NEXT: tile.pass_turn
// CHECK-NEXT: %[[S:.*]] = tile.warp_group_dot_wait %[[QK]] {pending = 1 : i32}
// CHECK: arith.mulf %[[S]],
// CHECK-NOT: %[[ACC]]
// CHECK: %[[DONE:.*]] = tile.warp_group_dot_wait %[[PV]] {pending = 0 : i32}
// CHECK-NEXT: tile.barrier_arrive %[[EMPTY]][%[[PREV]]] : <3>
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[DONE]], %{{.*}} : tensor<128x128xf32
// CHECK-NEXT: %[[NEXTP:.*]] = arith.truncf %{{.*}} : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
// CHECK-NOT: tile.warp_group_dot
// CHECK-NOT: tile.cta_barrier
// CHECK: scf.yield %[[SCALED]], {{.*}}, %[[NEXTREAD]], %[[NEXTWRITE]], %[[NEXTFP]], %[[NEXTEP]], %[[NEXTP]], %[[READ]] :
// CHECK-NEXT: }
// CHECK-NEXT: %[[LASTVS:.*]] = tile.smem_slot %[[RV]][%[[LOOP]]#8]
// CHECK-NEXT: %[[LAST:.*]] = tile.warp_group_dot %[[LOOP]]#7, %[[LASTVS]], %[[LOOP]]#0 {{.*}}isAsync
// CHECK-NEXT: %[[RESULT:.*]] = tile.warp_group_dot_wait %[[LAST]] {pending = 0 : i32}
// CHECK-NEXT: tile.barrier_wait %[[FULL]][%[[LOOP]]#3], %[[LOOP]]#5 : <3>
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK-NEXT: tile.end_turns
// CHECK-NEXT: tile.barrier_invalidate %[[FULL]] : <3>
// CHECK-NEXT: tile.barrier_invalidate %[[EMPTY]] : <3>
// CHECK: arith.divf %[[RESULT]],
// CHECK-NOT: tile.dot
// CHECK-NOT: tile.load

// Without ping-pong (the default), the slots are guarded as in a loop of
// one product: at the top of each iteration a wait whose barrier also ends
// every warp group's reads of the slot p @ v of two iterations before read.
// NOPP-LABEL: func.func @attention_fwd
// NOPP-NOT: tile.programs_per_sm
// NOPP: %[[RK:.*]] = tile.local_alloc : <3x128x64xf16, #[[SK:shared[0-9]*]]>
// NOPP-NEXT: %[[RV:.*]] = tile.local_alloc : <3x64x128xf16, #[[SV:shared[0-9]*]]>
// NOPP-NEXT: %[[QB:.*]] = tile.local_alloc : <128x128xf16
// NOPP-COUNT-1: tile.async_commit_group
// NOPP-NOT: tile.async_commit_group
// NOPP: tile.local_store %{{.*}}, %[[QB]]
// NOPP: %[[ZSLOT:.*]] = tile.smem_slot %[[RV]][%c2_i32{{[_0-9]*}}] :
// NOPP-NEXT: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<64x128xf16
// NOPP-NEXT: tile.local_store %[[ZEROS]], %[[ZSLOT]] :
// NOPP-NEXT: tile.cta_barrier {asyncProxy}
// NOPP-NEXT: %[[LOOP:.*]]:7 = scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{[^,]*}}, {{.*}}, %[[READ:[^ ]*]] = %c0_i32{{[_0-9]*}}, %[[WRITE:[^ ]*]] = %c1_i32{{[_0-9]*}}, %[[P:[^ ]*]] = %{{[^,]*}}, %[[PREV:[^ ]*]] = %c2_i32{{[_0-9]*}})
// NOPP-NEXT: tile.async_wait {noProxyFence, pending = 0 : i32}
// NOPP-NOT: tile.warp_group_dot
// NOPP: tile.smem_slot %[[RK]][%[[WRITE]]]
// NOPP: tile.async_commit_group
// NOPP-NEXT: %[[KS:.*]] = tile.smem_slot %[[RK]][%[[READ]]]
// NOPP-NEXT: %[[VS:.*]] = tile.smem_slot %[[RV]][%[[READ]]]
// NOPP-NOT: tile.cta_barrier
// NOPP: %[[QK:.*]] = tile.warp_group_dot %[[QB]], %[[KS]], %{{.*}} {inputPrecision = #tile<input_precision tf32>, isAsync} : !tile.smem<128x128xf16
// NOPP-NEXT: %[[PVS:.*]] = tile.smem_slot %[[RV]][%[[PREV]]]
// NOPP-NEXT: %[[PV:.*]] = tile.warp_group_dot %[[P]], %[[PVS]], %[[ACC]] {inputPrecision = #tile<input_precision tf32>, isAsync} : tensor<128x64xf16
// NOPP-NEXT: %[[S:.*]] = tile.warp_group_dot_wait %[[QK]] {pending = 1 : i32}
// NOPP: arith.mulf %[[S]],
// NOPP-NOT: %[[ACC]]
// NOPP: %[[DONE:.*]] = tile.warp_group_dot_wait %[[PV]] {pending = 0 : i32}
// NOPP-NEXT: %[[SCALED:.*]] = arith.mulf %[[DONE]], %{{.*}} : tensor<128x128xf32
// NOPP-NEXT: %[[NEXTP:.*]] = arith.truncf %{{.*}} : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
// NOPP-NOT: tile.warp_group_dot
// NOPP-NOT: tile.cta_barrier
// NOPP: scf.yield %[[SCALED]], {{.*}}, %[[NEXTP]], %[[READ]] :
// NOPP-NEXT: }
// NOPP-NEXT: %[[LASTVS:.*]] = tile.smem_slot %[[RV]][%[[LOOP]]#6]
// NOPP-NEXT: %[[LAST:.*]] = tile.warp_group_dot %[[LOOP]]#5, %[[LASTVS]], %[[LOOP]]#0 {{.*}}isAsync
// NOPP-NEXT: %[[RESULT:.*]] = tile.warp_group_dot_wait %[[LAST]] {pending = 0 : i32}
// NOPP-NEXT: tile.async_wait {pending = 0 : i32}
// NOPP: arith.divf %[[RESULT]],
// NOPP-NOT: tile.dot
// NOPP-NOT: tile.load

// Without defer-products, p @ v stays in its iteration (in flight into the
// next), the copies at the end, two stages ahead.
// SAME-LABEL: func.func @attention_fwd
// SAME-NOT: tile.local_store %cst
// SAME: scf.for
// SAME-NEXT: tile.async_wait {noProxyFence, pending = 1 : i32}
// SAME: tile.warp_group_dot %{{.*}} {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x128xf16
// SAME: %[[PV:.*]] = tile.warp_group_dot %{{.*}} isAsync} : tensor<128x64xf16
// SAME-NEXT: tile.cta_barrier
// SAME: scf.yield %[[PV]],
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 8], order = [0, 1]>
#blocked2 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 64, 16]>
#mma1 = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>
module attributes {tile.num_warps = 8 : i32, tile.target = "sm_90a"} {
  func.func @attention_fwd(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg4: f32, %arg5: i32) {
    %cst = arith.constant dense<0xFF800000> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x128xf16, #blocked>
    %cst_1 = arith.constant dense<128> : tensor<64x1xi32, #blocked>
    %cst_2 = arith.constant dense<0xFF800000> : tensor<128x64xf32, #mma>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
    %cst_5 = arith.constant dense<128> : tensor<1x64xi32, #blocked1>
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst_6 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma1>
    %cst_7 = arith.constant dense<0.000000e+00> : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    %cst_8 = arith.constant dense<0.000000e+00> : tensor<128x128xf16, #blocked>
    %cst_9 = arith.constant dense<128> : tensor<128x1xi32, #mma1>
    %cst_10 = arith.constant dense<128> : tensor<128x1xi32, #blocked>
    %c128_i32 = arith.constant 128 : i32
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.muli %1, %arg5 : i32
    %3 = arith.muli %2, %c128_i32 : i32
    %4 = arith.muli %0, %c128_i32 : i32
    %5 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>>
    %6 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %7 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %8 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %9 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #mma1>>
    %10 = tile.splat %4 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %11 = tile.splat %4 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %12 = arith.addi %10, %6 : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>>
    %13 = arith.addi %11, %8 : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>>
    %14 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
    %15 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
    %16 = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %17 = tile.addptr %arg0, %3 : !tile.ptr<f16>, i32
    %18 = tile.expand_dims %12 {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #mma1>> -> tensor<128x1xi32, #mma1>
    %19 = tile.expand_dims %13 {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<128x1xi32, #blocked>
    %20 = arith.muli %18, %cst_9 : tensor<128x1xi32, #mma1>
    %21 = arith.muli %19, %cst_10 : tensor<128x1xi32, #blocked>
    %22 = tile.splat %17 : tensor<128x1x!tile.ptr<f16>, #blocked>
    %23 = tile.addptr %22, %21 : tensor<128x1x!tile.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
    %24 = tile.expand_dims %5 {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x128xi32, #blocked>
    %25 = tile.expand_dims %9 {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #mma1>> -> tensor<1x128xi32, #mma1>
    %26 = tile.broadcast %23 : tensor<128x1x!tile.ptr<f16>, #blocked> -> tensor<128x128x!tile.ptr<f16>, #blocked>
    %27 = tile.broadcast %24 : tensor<1x128xi32, #blocked> -> tensor<128x128xi32, #blocked>
    %28 = tile.broadcast %25 : tensor<1x128xi32, #mma1> -> tensor<128x128xi32, #mma1>
    %29 = tile.addptr %26, %27 : tensor<128x128x!tile.ptr<f16>, #blocked>, tensor<128x128xi32, #blocked>
    %30 = tile.splat %arg5 : tensor<128x1xi32, #blocked>
    %31 = tile.splat %arg5 : tensor<128x1xi32, #mma1>
    %32 = arith.cmpi slt, %19, %30 : tensor<128x1xi32, #blocked>
    %33 = arith.cmpi slt, %18, %31 : tensor<128x1xi32, #mma1>
    %34 = tile.broadcast %32 : tensor<128x1xi1, #blocked> -> tensor<128x128xi1, #blocked>
    %35 = tile.broadcast %33 : tensor<128x1xi1, #mma1> -> tensor<128x128xi1, #mma1>
    %36 = tile.load %29, %34 other %cst_8 : (tensor<128x128x!tile.ptr<f16>, #blocked>, tensor<128x128xi1, #blocked>, tensor<128x128xf16, #blocked>) -> tensor<128x128xf16, #blocked>
    %37:3 = scf.for %arg6 = %c0_i32 to %arg5 step %c64_i32 iter_args(%arg7 = %cst_6, %arg8 = %cst_7, %arg9 = %cst) -> (tensor<128x128xf32, #mma1>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>)  : i32 {
      %48 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
      %49 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %50 = tile.splat %arg6 : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %51 = arith.addi %48, %14 : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>>
      %52 = arith.addi %49, %15 : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>>
      %53 = arith.addi %50, %16 : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>>
      %54 = tile.addptr %arg1, %3 : !tile.ptr<f16>, i32
      %55 = tile.expand_dims %52 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #mma>> -> tensor<1x64xi32, #mma>
      %56 = tile.expand_dims %53 {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x64xi32, #blocked1>
      %57 = arith.muli %56, %cst_5 : tensor<1x64xi32, #blocked1>
      %58 = tile.splat %54 : tensor<1x64x!tile.ptr<f16>, #blocked1>
      %59 = tile.addptr %58, %57 : tensor<1x64x!tile.ptr<f16>, #blocked1>, tensor<1x64xi32, #blocked1>
      %60 = tile.broadcast %59 : tensor<1x64x!tile.ptr<f16>, #blocked1> -> tensor<128x64x!tile.ptr<f16>, #blocked1>
      %61 = tile.expand_dims %7 {axis = 1 : i32} : tensor<128xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<128x1xi32, #blocked1>
      %62 = tile.broadcast %61 : tensor<128x1xi32, #blocked1> -> tensor<128x64xi32, #blocked1>
      %63 = tile.addptr %60, %62 : tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
      %64 = tile.splat %arg5 : tensor<1x64xi32, #mma>
      %65 = tile.splat %arg5 : tensor<1x64xi32, #blocked1>
      %66 = arith.cmpi slt, %55, %64 : tensor<1x64xi32, #mma>
      %67 = arith.cmpi slt, %56, %65 : tensor<1x64xi32, #blocked1>
      %68 = tile.broadcast %66 : tensor<1x64xi1, #mma> -> tensor<128x64xi1, #mma>
      %69 = tile.broadcast %67 : tensor<1x64xi1, #blocked1> -> tensor<128x64xi1, #blocked1>
      %70 = tile.load %63, %69 other %cst_4 : (tensor<128x64x!tile.ptr<f16>, #blocked1>, tensor<128x64xi1, #blocked1>, tensor<128x64xf16, #blocked1>) -> tensor<128x64xf16, #blocked1>
      %71 = tile.convert_layout %70 : tensor<128x64xf16, #blocked1> -> tensor<128x64xf16, #blocked2>
      %72 = tile.dot %36, %71, %cst_3 {inputPrecision = #tile<input_precision tf32>} : tensor<128x128xf16, #blocked>, tensor<128x64xf16, #blocked2> -> tensor<128x64xf32, #mma>
      %73 = tile.splat %arg4 : tensor<128x64xf32, #mma>
      %74 = arith.mulf %72, %73 : tensor<128x64xf32, #mma>
      %75 = arith.select %68, %74, %cst_2 : tensor<128x64xi1, #mma>, tensor<128x64xf32, #mma>
      %76 = tile.reduce %75 {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %77 = arith.maxnumf %arg9, %76 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %78 = arith.subf %arg9, %77 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %79 = math.exp %78 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %80 = tile.convert_layout %79 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>>
      %81 = tile.expand_dims %77 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128x1xf32, #mma>
      %82 = tile.broadcast %81 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
      %83 = arith.subf %75, %82 : tensor<128x64xf32, #mma>
      %84 = math.exp %83 : tensor<128x64xf32, #mma>
      %85 = arith.mulf %arg8, %79 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %86 = tile.reduce %84 {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<128x64xf32, #mma> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %87 = arith.addf %85, %86 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
      %88 = tile.addptr %arg2, %3 : !tile.ptr<f16>, i32
      %89 = tile.expand_dims %51 {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked>> -> tensor<64x1xi32, #blocked>
      %90 = arith.muli %89, %cst_1 : tensor<64x1xi32, #blocked>
      %91 = tile.splat %88 : tensor<64x1x!tile.ptr<f16>, #blocked>
      %92 = tile.addptr %91, %90 : tensor<64x1x!tile.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
      %93 = tile.broadcast %92 : tensor<64x1x!tile.ptr<f16>, #blocked> -> tensor<64x128x!tile.ptr<f16>, #blocked>
      %94 = tile.broadcast %24 : tensor<1x128xi32, #blocked> -> tensor<64x128xi32, #blocked>
      %95 = tile.addptr %93, %94 : tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi32, #blocked>
      %96 = tile.splat %arg5 : tensor<64x1xi32, #blocked>
      %97 = arith.cmpi slt, %89, %96 : tensor<64x1xi32, #blocked>
      %98 = tile.broadcast %97 : tensor<64x1xi1, #blocked> -> tensor<64x128xi1, #blocked>
      %99 = tile.load %95, %98 other %cst_0 : (tensor<64x128x!tile.ptr<f16>, #blocked>, tensor<64x128xi1, #blocked>, tensor<64x128xf16, #blocked>) -> tensor<64x128xf16, #blocked>
      %100 = tile.expand_dims %80 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>> -> tensor<128x1xf32, #mma1>
      %101 = tile.broadcast %100 : tensor<128x1xf32, #mma1> -> tensor<128x128xf32, #mma1>
      %102 = arith.mulf %arg7, %101 : tensor<128x128xf32, #mma1>
      %103 = arith.truncf %84 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %104 = tile.dot %103, %99, %102 {inputPrecision = #tile<input_precision tf32>} : tensor<128x64xf16, #mma>, tensor<64x128xf16, #blocked> -> tensor<128x128xf32, #mma1>
      scf.yield %104, %87, %77 : tensor<128x128xf32, #mma1>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>, tensor<128xf32, #tile.slice<dim = 1, parent = #mma>>
    }
    %38 = tile.convert_layout %37#1 : tensor<128xf32, #tile.slice<dim = 1, parent = #mma>> -> tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>>
    %39 = tile.expand_dims %38 {axis = 1 : i32} : tensor<128xf32, #tile.slice<dim = 1, parent = #mma1>> -> tensor<128x1xf32, #mma1>
    %40 = tile.broadcast %39 : tensor<128x1xf32, #mma1> -> tensor<128x128xf32, #mma1>
    %41 = arith.divf %37#0, %40 fastmath<afn> : tensor<128x128xf32, #mma1>
    %42 = tile.addptr %arg3, %3 : !tile.ptr<f16>, i32
    %43 = tile.splat %42 : tensor<128x1x!tile.ptr<f16>, #mma1>
    %44 = tile.addptr %43, %20 : tensor<128x1x!tile.ptr<f16>, #mma1>, tensor<128x1xi32, #mma1>
    %45 = tile.broadcast %44 : tensor<128x1x!tile.ptr<f16>, #mma1> -> tensor<128x128x!tile.ptr<f16>, #mma1>
    %46 = tile.addptr %45, %28 : tensor<128x128x!tile.ptr<f16>, #mma1>, tensor<128x128xi32, #mma1>
    %47 = arith.truncf %41 : tensor<128x128xf32, #mma1> to tensor<128x128xf16, #mma1>
    tile.store %46, %47, %35 : tensor<128x128x!tile.ptr<f16>, #mma1>, tensor<128x128xf16, #mma1>, tensor<128x128xi1, #mma1>
    return
  }
}

