// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3 batched-tma=false" | FileCheck %s --check-prefix=UNBATCHED
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s --check-prefix=NOCP
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3 tma=false" | FileCheck %s --check-prefix=CPASYNC
// RUN: sed -e 's/ {tile.divisibility = 16 : i32}//g' %s | tilec-opt -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s --check-prefix=NOHINT
// RUN: sed -e 's/ {tile.divisibility = 16 : i32}//g' %s | tilec-opt -split-input-file -tile-pipeline="num-stages=3 tma=false" | FileCheck %s --check-prefix=NOHINT-OFF
// The first case with fp32 operands into a transposed accumulator (tf32,
// as tile-assign-layouts gives it): B's rows of N are copied by TMA as they
// are, 32x32 boxes with a 128-byte swizzle (its ring N-major), since the
// product loads b^T from the slot into registers.
// RUN: sed -n '1,/^\/\/ -----/p' %s | sed -e 's/f16/f32/g' -e 's/instrShape = \[64, 64, 16\]>/instrShape = [64, 64, 8], transposed = true>/' | tilec-opt -tile-pipeline="num-stages=3" | FileCheck %s --check-prefix=TF32
// TF32: tile.tma = [#tile.tensor_map<param = 9, base = 0, element = f32, shape = [arg(3), arg(5)], row_stride = arg(6), box = [64, 32], swizzle = 128>, #tile.tensor_map<param = 10, base = 1, element = f32, shape = [arg(5), arg(4)], row_stride = arg(7), box = [32, 32], swizzle = 128>]
// TF32: tile.local_alloc : <3x64x32xf32, #[[S:shared[0-9]*]]>
// TF32-NEXT: tile.local_alloc : <3x32x64xf32, #[[S]]>
// TF32: tile.barrier_expect {{.*}} {bytes = 16384 : i32}
// TF32: tile.warp_group_dot {{.*}} : !tile.smem<64x32xf32, #[[S]]>, <32x64xf32, #[[S]]> -> tensor<64x64xf32, #mma>

// TMA for tensor-descriptor loads (sm_90a). The input is the K loop of the
// seed descriptor matmul (examples/seeds/matmul_desc.tile, 64x64x32, 4
// warps) after tile-remove-layout-conversions, canonicalize and cse, before
// tile-prefetch-loads moves the loads into iteration arguments. The
// loop-invariant parts of the pointers and bounds were hoisted by hand and
// the C store was replaced by a return. N, K and the strides carry Triton's
// 16-divisibility hints so that cp.async could copy the tiles too
// (CPASYNC). Both operands are zero-padded loads of 2-D descriptors. Their
// bases (@0, @1), extents (M @3, N @4, K @5, seen through arith.extsi) and
// row strides (@6, @7) are kernel arguments, and their inner stride is the
// constant 1. A is row-major and B is fp16, so the pass copies both with
// TMA. The function gets one !tile.tensormap parameter per operand after
// the signature's (9 and 10), and the module's tile.tma says how the host
// builds each. A gets 64x32 boxes with a 64-byte swizzle (its ring's
// layout). B gets 32x64 boxes with a 128-byte swizzle (the instruction's N
// of 64 fp16), as in the cp.async form. Beside the rings there are three
// mbarriers, one per slot. Stages 0 and 1 are copied before the loop into
// slots 0 and 1. Each stage arms its slot's barrier for the bytes of both
// tiles (64x32 + 32x64 fp16: 8192) and starts one TMA copy per operand at
// the descriptor offsets (A: [off_m, k * 32], B: [k * 32, off_n]), all
// predicated on the stage being below ub. The loop carries read = 0,
// write = 2 and the parity of the phase of slot `read`'s barrier (0). Each
// iteration starts with a CTA barrier: every warp is then past the product
// of iteration i - 1, so slot `write` is free. It copies stage i + 2 into
// slot `write` the same way, waits on slot `read`'s barrier for the
// phase's parity and multiplies from slot `read`. Then it advances both
// indices modulo 3 and flips the parity when `read` wraps. No cp.async,
// commit or wait remains (NOCP): copies past the last stage are never
// issued, so nothing needs waiting for after the loop.

// CHECK-DAG: #[[SA:shared[0-9]*]] = #tile.shared<contiguousDim = 1, swizzle = 64>
// CHECK-DAG: #[[SB:shared[0-9]*]] = #tile.shared<contiguousDim = 1, swizzle = 128>
// CHECK: module attributes {tile.num_warps = 4 : i32, tile.tma = [#tile.tensor_map<param = 9, base = 0, element = f16, shape = [arg(3), arg(5)], row_stride = arg(6), box = [64, 32], swizzle = 64>, #tile.tensor_map<param = 10, base = 1, element = f16, shape = [arg(5), arg(4)], row_stride = arg(7), box = [32, 64], swizzle = 128>]} {
// CHECK-LABEL: func.func @matmul_desc_kernel(
// CHECK-SAME: %arg8: i32 {tile.divisibility = 16 : i32}, %[[MAPA:[^:]*]]: !tile.tensormap, %[[MAPB:[^:]*]]: !tile.tensormap) -> tensor<64x64xf32, #mma> attributes {tile.programs_per_sm = 2 : i32} {
// CHECK: %[[PID0:.*]] = tile.program_id 0 : i32
// CHECK-NEXT: %[[PID1:.*]] = tile.program_id 1 : i32
// CHECK: %[[OFFM:.*]] = arith.muli %[[PID0]], %{{.*}} : i32
// CHECK-NEXT: %[[OFFN:.*]] = arith.muli %[[PID1]], %{{.*}} : i32
// CHECK: %[[UB:.*]] = arith.divsi %{{.*}} : i32
// CHECK: %[[RA:.*]] = tile.local_alloc : <3x64x32xf16, #[[SA]]>
// CHECK-NEXT: %[[RB:.*]] = tile.local_alloc : <3x32x64xf16, #[[SB]]>
// CHECK-NEXT: %[[BARS:.*]] = tile.barrier_alloc : <3>
// Stage 0: iv = lb, slot 0.
// CHECK-NEXT: %[[SLOT0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[LB:.*]], %[[C32:.*]] : i32
// CHECK: %[[V0:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK-NEXT: tile.barrier_expect %[[BARS]][%[[SLOT0]]], %[[V0]] {bytes = 8192 : i32} : <3>
// CHECK-NEXT: %[[A0:.*]] = tile.smem_slot %[[RA]][%[[SLOT0]]] : <3x64x32xf16, #[[SA]]> -> <64x32xf16, #[[SA]]>
// CHECK-NEXT: tile.async_tma_copy %[[MAPA]][%[[OFFM]], %[[K0]]], %[[A0]], %[[BARS]][%[[SLOT0]]], %[[V0]] : !tile.tensormap, <64x32xf16, #[[SA]]>, <3>
// CHECK-NEXT: %[[B0:.*]] = tile.smem_slot %[[RB]][%[[SLOT0]]] : <3x32x64xf16, #[[SB]]> -> <32x64xf16, #[[SB]]>
// CHECK-NEXT: tile.async_tma_copy %[[MAPB]][%[[K0]], %[[OFFN]]], %[[B0]], %[[BARS]][%[[SLOT0]]], %[[V0]] : !tile.tensormap, <32x64xf16, #[[SB]]>, <3>
// Stage 1: iv = lb + step, slot 1.
// CHECK-NEXT: %[[SLOT1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[NSTEPS1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[STEP1:.*]] = arith.muli %[[STEP:.*]], %[[NSTEPS1]] : i32
// CHECK-NEXT: %[[IV1:.*]] = arith.addi %[[LB]], %[[STEP1]] : i32
// CHECK-NEXT: %[[K1:.*]] = arith.muli %[[IV1]], %[[C32]] : i32
// CHECK: %[[V1:.*]] = arith.cmpi slt, %[[IV1]], %[[UB]] : i32
// CHECK-NEXT: tile.barrier_expect %[[BARS]][%[[SLOT1]]], %[[V1]] {bytes = 8192 : i32} : <3>
// CHECK-NEXT: %[[A1:.*]] = tile.smem_slot %[[RA]][%[[SLOT1]]]
// CHECK-NEXT: tile.async_tma_copy %[[MAPA]][%[[OFFM]], %[[K1]]], %[[A1]], %[[BARS]][%[[SLOT1]]], %[[V1]] :
// CHECK-NEXT: %[[B1:.*]] = tile.smem_slot %[[RB]][%[[SLOT1]]]
// CHECK-NEXT: tile.async_tma_copy %[[MAPB]][%[[K1]], %[[OFFN]]], %[[B1]], %[[BARS]][%[[SLOT1]]], %[[V1]] :
// The loop: read = 0, write = 2, phase = 0.
// CHECK-NEXT: %[[READ0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[WRITE0:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[PHASE0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[R:.*]]:4 = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[READ:.*]] = %[[READ0]], %[[WRITE:.*]] = %[[WRITE0]], %[[PHASE:.*]] = %[[PHASE0]]) -> (tensor<64x64xf32, #mma>, i32, i32, i32)
// CHECK-NEXT: tile.cta_barrier
// CHECK-NEXT: %[[NSTEPS2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[STEP2:.*]] = arith.muli %[[STEP]], %[[NSTEPS2]] : i32
// CHECK-NEXT: %[[IV2:.*]] = arith.addi %[[I]], %[[STEP2]] : i32
// CHECK-NEXT: %[[K2:.*]] = arith.muli %[[IV2]], %[[C32]] : i32
// CHECK-NOT: tile.barrier_wait
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[IV2]], %[[UB]] : i32
// CHECK-NEXT: tile.barrier_expect %[[BARS]][%[[WRITE]]], %[[VALID]] {bytes = 8192 : i32} : <3>
// CHECK-NEXT: %[[WA:.*]] = tile.smem_slot %[[RA]][%[[WRITE]]] : <3x64x32xf16, #[[SA]]> -> <64x32xf16, #[[SA]]>
// CHECK-NEXT: tile.async_tma_copy %[[MAPA]][%[[OFFM]], %[[K2]]], %[[WA]], %[[BARS]][%[[WRITE]]], %[[VALID]] : !tile.tensormap, <64x32xf16, #[[SA]]>, <3>
// CHECK-NEXT: %[[WB:.*]] = tile.smem_slot %[[RB]][%[[WRITE]]] : <3x32x64xf16, #[[SB]]> -> <32x64xf16, #[[SB]]>
// CHECK-NEXT: tile.async_tma_copy %[[MAPB]][%[[K2]], %[[OFFN]]], %[[WB]], %[[BARS]][%[[WRITE]]], %[[VALID]] : !tile.tensormap, <32x64xf16, #[[SB]]>, <3>
// CHECK-NEXT: tile.barrier_wait %[[BARS]][%[[READ]]], %[[PHASE]] : <3>
// CHECK-NEXT: %[[XA:.*]] = tile.smem_slot %[[RA]][%[[READ]]] : <3x64x32xf16, #[[SA]]> -> <64x32xf16, #[[SA]]>
// CHECK-NEXT: %[[XB:.*]] = tile.smem_slot %[[RB]][%[[READ]]] : <3x32x64xf16, #[[SB]]> -> <32x64xf16, #[[SB]]>
// read + 1 == 3 ? 0 : read + 1, the same for write, and the parity flipped
// when read wraps.
// CHECK-NEXT: %[[C1R:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[READ]], %[[C1R]] : i32
// CHECK-NEXT: %[[C3R:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[RWRAP:.*]] = arith.cmpi eq, %[[R1]], %[[C3R]] : i32
// CHECK-NEXT: %[[C0R:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[NREAD:.*]] = arith.select %[[RWRAP]], %[[C0R]], %[[R1]] : i32
// CHECK-NEXT: %[[C1W:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[W1:.*]] = arith.addi %[[WRITE]], %[[C1W]] : i32
// CHECK-NEXT: %[[C3W:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[WWRAP:.*]] = arith.cmpi eq, %[[W1]], %[[C3W]] : i32
// CHECK-NEXT: %[[C0W:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[NWRITE:.*]] = arith.select %[[WWRAP]], %[[C0W]], %[[W1]] : i32
// CHECK-NEXT: %[[C1P:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[FLIP:.*]] = arith.xori %[[PHASE]], %[[C1P]] : i32
// CHECK-NEXT: %[[NPHASE:.*]] = arith.select %[[RWRAP]], %[[FLIP]], %[[PHASE]] : i32
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK: %[[D:.*]] = tile.warp_group_dot %[[XA]], %[[XB]], %[[ACC]] {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #[[SA]]>, <32x64xf16, #[[SB]]> -> tensor<64x64xf32, #mma>
// CHECK-NEXT: scf.yield %[[D]], %[[NREAD]], %[[NWRITE]], %[[NPHASE]] : tensor<64x64xf32, #mma>, i32, i32, i32
// CHECK-NEXT: }
// CHECK-NEXT: tile.barrier_invalidate %[[BARS]] : <3>
// CHECK-NEXT: return %[[R]]#0 : tensor<64x64xf32, #mma>

// NOCP-LABEL: func.func @matmul_desc_kernel(
// NOCP-NOT: tile.load
// NOCP-NOT: tile.async_copy
// NOCP-NOT: tile.async_commit_group
// NOCP-NOT: tile.async_wait
// NOCP-NOT: tile.warp_group_dot_wait
// NOCP-LABEL: func.func @ref(

// After canonicalization the copies keep only the descriptors' offsets of
// what computed the loads' pointers and masks: no splat, no addptr.
// CANON-LABEL: func.func @matmul_desc_kernel(
// CANON: tile.barrier_alloc : <3>
// CANON-NEXT: %[[V0:.*]] = arith.cmpi sgt, %[[UB:.*]], %[[C0:.*]] : i32
// CANON-NEXT: tile.barrier_expect %{{.*}}[%[[C0]]], %[[V0]] {bytes = 8192 : i32} : <3>
// CANON-NEXT: tile.smem_slot
// CANON-NEXT: tile.async_tma_copy %arg9[%{{.*}}, %[[C0]]], {{.*}}, %[[V0]] :
// CANON-NEXT: tile.smem_slot
// CANON-NEXT: tile.async_tma_copy %arg10[%[[C0]], %{{.*}}], {{.*}}, %[[V0]] :
// CANON-NEXT: %[[V1:.*]] = arith.cmpi sgt, %[[UB]], %[[C1:.*]] : i32
// CANON-NEXT: tile.barrier_expect %{{.*}}[%[[C1]]], %[[V1]] {bytes = 8192 : i32} : <3>
// CANON-NEXT: tile.smem_slot
// CANON-NEXT: tile.async_tma_copy %arg9[%{{.*}}, %[[C32:.*]]], {{.*}}, %[[V1]] :
// CANON-NEXT: tile.smem_slot
// CANON-NEXT: tile.async_tma_copy %arg10[%[[C32]], %{{.*}}], {{.*}}, %[[V1]] :
// CANON-NEXT: scf.for {{.*}} -> (tensor<64x64xf32, #mma>, i32, i32, i32)
// CANON-NEXT: tile.cta_barrier
// CANON-NEXT: %[[IV2:.*]] = arith.addi
// CANON-NEXT: %[[K2:.*]] = arith.muli %[[IV2]], %[[C32]] : i32
// CANON-NEXT: %[[VALID:.*]] = arith.cmpi slt, %[[IV2]], %[[UB]] : i32
// CANON-NEXT: tile.barrier_expect
// CANON-NEXT: tile.smem_slot
// CANON-NEXT: tile.async_tma_copy %arg9[%{{.*}}, %[[K2]]]
// CANON-NEXT: tile.smem_slot
// CANON-NEXT: tile.async_tma_copy %arg10[%[[K2]], %{{.*}}]
// CANON-NEXT: tile.barrier_wait
// CANON-NOT: tile.splat
// CANON-NOT: tile.addptr
// CANON: tile.warp_group_dot
// CANON-NEXT: scf.yield

// With tma=false the same loop gets the cp.async form of tile-pipeline.mlir
// (the 16-divisibility hints let each thread copy 16 bytes at a time): no
// tensor maps, no barriers.
// CPASYNC: module attributes {tile.num_warps = 4 : i32} {
// CPASYNC-NEXT: func.func @matmul_desc_kernel({{[^)]*}}%arg8: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> attributes {tile.programs_per_sm = 2 : i32} {
// CPASYNC-NOT: tile.barrier
// CPASYNC: tile.local_alloc : <3x64x32xf16, #{{shared[0-9]*}}>
// CPASYNC-NEXT: tile.local_alloc : <3x32x64xf16, #{{shared[0-9]*}}>
// CPASYNC-NOT: tile.barrier
// CPASYNC: tile.async_copy
// CPASYNC: tile.async_copy
// CPASYNC-NEXT: tile.async_commit_group
// CPASYNC: tile.async_copy
// CPASYNC: tile.async_copy
// CPASYNC-NEXT: tile.async_commit_group
// CPASYNC: scf.for {{.*}} -> (tensor<64x64xf32, #mma>, i32, i32)
// CPASYNC-NEXT: tile.async_wait {pending = 1 : i32}
// CPASYNC-NOT: tile.barrier
// CPASYNC-NOT: tile.cta_barrier
// CPASYNC: tile.async_copy
// CPASYNC: tile.async_copy
// CPASYNC-NEXT: tile.async_commit_group
// CPASYNC: tile.warp_group_dot
// CPASYNC: tile.async_wait {pending = 0 : i32}
// CPASYNC-NEXT: return

// TMA needs no hints: the copies check the descriptor's bounds themselves,
// and the host checks the alignment a tensor map needs when it builds it.
// Without the divisibility hints the loop is still copied with TMA, while
// cp.async could copy no more than one fp16 element at a time, so with
// tma=false the loop is left alone (NOHINT-OFF).
// NOHINT: module attributes {tile.num_warps = 4 : i32, tile.tma = [#tile.tensor_map<param = 9, base = 0, element = f16, shape = [arg(3), arg(5)], row_stride = arg(6), box = [64, 32], swizzle = 64>, #tile.tensor_map<param = 10, base = 1, element = f16, shape = [arg(5), arg(4)], row_stride = arg(7), box = [32, 64], swizzle = 128>]} {
// NOHINT-NEXT: func.func @matmul_desc_kernel(%arg0: !tile.ptr<f16>, {{.*}}, %arg8: i32, %arg9: !tile.tensormap, %arg10: !tile.tensormap) -> tensor<64x64xf32, #mma> attributes {tile.programs_per_sm = 2 : i32} {
// NOHINT: tile.barrier_alloc : <3>
// NOHINT: scf.for
// NOHINT-NEXT: tile.cta_barrier
// NOHINT: tile.async_tma_copy %arg9
// NOHINT: tile.async_tma_copy %arg10
// NOHINT: tile.barrier_wait
// NOHINT: tile.warp_group_dot
// NOHINT-OFF-LABEL: func.func @matmul_desc_kernel(
// NOHINT-OFF-SAME: %arg8: i32) -> tensor<64x64xf32, #mma> {
// NOHINT-OFF-NOT: tile.local_alloc
// NOHINT-OFF: scf.for
// NOHINT-OFF: tile.load
// NOHINT-OFF: tile.load
// NOHINT-OFF-NEXT: tile.dot
// NOHINT-OFF-NOT: tile.async
// NOHINT-OFF-NOT: tile.warp_group_dot
// NOHINT-OFF: return
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @matmul_desc_kernel(%arg0: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg2: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %arg3: i32, %arg4: i32 {tile.divisibility = 16 : i32}, %arg5: i32 {tile.divisibility = 16 : i32}, %arg6: i32 {tile.divisibility = 16 : i32}, %arg7: i32 {tile.divisibility = 16 : i32}, %arg8: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c31_i32 = arith.constant 31 : i32
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %c1_i64 = arith.constant 1 : i64
    %za = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked1>
    %zb = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #blocked>
    %z64x1 = arith.constant dense<0> : tensor<64x1xi64, #blocked1>
    %z1x32 = arith.constant dense<0> : tensor<1x32xi64, #blocked1>
    %z32x1 = arith.constant dense<0> : tensor<32x1xi64, #blocked>
    %z1x64 = arith.constant dense<0> : tensor<1x64xi64, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %0 = tile.program_id 0 : i32
    %1 = tile.program_id 1 : i32
    %2 = arith.extsi %arg6 : i32 to i64
    %3 = arith.extsi %arg7 : i32 to i64
    %5 = arith.muli %0, %c64_i32 : i32
    %6 = arith.muli %1, %c64_i32 : i32
    %7 = arith.addi %arg5, %c31_i32 : i32
    %8 = arith.divsi %7, %c32_i32 : i32
    %M = arith.extsi %arg3 : i32 to i64
    %N = arith.extsi %arg4 : i32 to i64
    %K = arith.extsi %arg5 : i32 to i64
    // A's rows (off_m + [0, 64)), their offsets and bounds; its columns.
    %rm = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %rm64 = arith.extsi %rm : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> to tensor<64xi64, #tile.slice<dim = 1, parent = #blocked1>>
    %rm1 = tile.expand_dims %rm64 {axis = 1 : i32} : tensor<64xi64, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi64, #blocked1>
    %offm = arith.extsi %5 : i32 to i64
    %offms = tile.splat %offm : tensor<64x1xi64, #blocked1>
    %rows = arith.addi %rm1, %offms : tensor<64x1xi64, #blocked1>
    %sams = tile.splat %2 : tensor<64x1xi64, #blocked1>
    %rowoff = arith.muli %rows, %sams : tensor<64x1xi64, #blocked1>
    %rowsge = arith.cmpi sge, %rows, %z64x1 : tensor<64x1xi64, #blocked1>
    %Ms = tile.splat %M : tensor<64x1xi64, #blocked1>
    %rowslt = arith.cmpi slt, %rows, %Ms : tensor<64x1xi64, #blocked1>
    %rowmask = arith.andi %rowsge, %rowslt : tensor<64x1xi1, #blocked1>
    %rowoff2 = tile.broadcast %rowoff : tensor<64x1xi64, #blocked1> -> tensor<64x32xi64, #blocked1>
    %rowmask2 = tile.broadcast %rowmask : tensor<64x1xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
    %ka = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>>
    %ka64 = arith.extsi %ka : tensor<32xi32, #tile.slice<dim = 0, parent = #blocked1>> to tensor<32xi64, #tile.slice<dim = 0, parent = #blocked1>>
    %ka1 = tile.expand_dims %ka64 {axis = 0 : i32} : tensor<32xi64, #tile.slice<dim = 0, parent = #blocked1>> -> tensor<1x32xi64, #blocked1>
    %Ka = tile.splat %K : tensor<1x32xi64, #blocked1>
    %pas = tile.splat %arg0 : tensor<64x32x!tile.ptr<f16>, #blocked1>
    // B's columns (off_n + [0, 64)), their bounds; its rows.
    %rn = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>>
    %rn64 = arith.extsi %rn : tensor<64xi32, #tile.slice<dim = 0, parent = #blocked>> to tensor<64xi64, #tile.slice<dim = 0, parent = #blocked>>
    %rn1 = tile.expand_dims %rn64 {axis = 0 : i32} : tensor<64xi64, #tile.slice<dim = 0, parent = #blocked>> -> tensor<1x64xi64, #blocked>
    %offn = arith.extsi %6 : i32 to i64
    %offns = tile.splat %offn : tensor<1x64xi64, #blocked>
    %cols = arith.addi %rn1, %offns : tensor<1x64xi64, #blocked>
    %colsge = arith.cmpi sge, %cols, %z1x64 : tensor<1x64xi64, #blocked>
    %Ns = tile.splat %N : tensor<1x64xi64, #blocked>
    %colslt = arith.cmpi slt, %cols, %Ns : tensor<1x64xi64, #blocked>
    %colmask = arith.andi %colsge, %colslt : tensor<1x64xi1, #blocked>
    %cols2 = tile.broadcast %cols : tensor<1x64xi64, #blocked> -> tensor<32x64xi64, #blocked>
    %colmask2 = tile.broadcast %colmask : tensor<1x64xi1, #blocked> -> tensor<32x64xi1, #blocked>
    %kb = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>>
    %kb64 = arith.extsi %kb : tensor<32xi32, #tile.slice<dim = 1, parent = #blocked>> to tensor<32xi64, #tile.slice<dim = 1, parent = #blocked>>
    %kb1 = tile.expand_dims %kb64 {axis = 1 : i32} : tensor<32xi64, #tile.slice<dim = 1, parent = #blocked>> -> tensor<32x1xi64, #blocked>
    %Kb = tile.splat %K : tensor<32x1xi64, #blocked>
    %sbks = tile.splat %3 : tensor<32x1xi64, #blocked>
    %pbs = tile.splat %arg1 : tensor<32x64x!tile.ptr<f16>, #blocked>
    %9 = scf.for %arg9 = %c0_i32 to %8 step %c1_i32 iter_args(%arg10 = %acc0) -> (tensor<64x64xf32, #mma>)  : i32 {
      %k0 = arith.muli %arg9, %c32_i32 : i32
      %k64 = arith.extsi %k0 : i32 to i64
      // a_desc.load([off_m, k * BLOCK_K])
      %ks = tile.splat %k64 : tensor<1x32xi64, #blocked1>
      %kcols = arith.addi %ka1, %ks : tensor<1x32xi64, #blocked1>
      %kge = arith.cmpi sge, %kcols, %z1x32 : tensor<1x32xi64, #blocked1>
      %klt = arith.cmpi slt, %kcols, %Ka : tensor<1x32xi64, #blocked1>
      %kmask = arith.andi %kge, %klt : tensor<1x32xi1, #blocked1>
      %kcols2 = tile.broadcast %kcols : tensor<1x32xi64, #blocked1> -> tensor<64x32xi64, #blocked1>
      %offa = arith.addi %rowoff2, %kcols2 : tensor<64x32xi64, #blocked1>
      %ptra = tile.addptr %pas, %offa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi64, #blocked1>
      %kmask2 = tile.broadcast %kmask : tensor<1x32xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
      %maska = arith.andi %rowmask2, %kmask2 : tensor<64x32xi1, #blocked1>
      %a = tile.load %ptra, %maska other %za descriptor %arg0[%5, %k0] shape(%arg3, %arg5) strides(%2, %c1_i64) : (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi1, #blocked1>, tensor<64x32xf16, #blocked1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16, #blocked1>
      // b_desc.load([k * BLOCK_K, off_n])
      %ksb = tile.splat %k64 : tensor<32x1xi64, #blocked>
      %krows = arith.addi %kb1, %ksb : tensor<32x1xi64, #blocked>
      %kbge = arith.cmpi sge, %krows, %z32x1 : tensor<32x1xi64, #blocked>
      %kblt = arith.cmpi slt, %krows, %Kb : tensor<32x1xi64, #blocked>
      %kbmask = arith.andi %kbge, %kblt : tensor<32x1xi1, #blocked>
      %krowoff = arith.muli %krows, %sbks : tensor<32x1xi64, #blocked>
      %krowoff2 = tile.broadcast %krowoff : tensor<32x1xi64, #blocked> -> tensor<32x64xi64, #blocked>
      %offb = arith.addi %krowoff2, %cols2 : tensor<32x64xi64, #blocked>
      %ptrb = tile.addptr %pbs, %offb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi64, #blocked>
      %kbmask2 = tile.broadcast %kbmask : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %maskb = arith.andi %kbmask2, %colmask2 : tensor<32x64xi1, #blocked>
      %b = tile.load %ptrb, %maskb other %zb descriptor %arg1[%k0, %6] shape(%arg5, %arg4) strides(%3, %c1_i64) : (tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi1, #blocked>, tensor<32x64xf16, #blocked>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %arg10 {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %9 : tensor<64x64xf32, #mma>
  }
}

// -----

// The reference the fallbacks below differ from in one point each: a
// smaller kernel (pointers computed in i32, no masks, rows from 0) whose
// descriptor loads qualify. B's extent N is the constant 4096, which the
// host gets as a number.
// CHECK: module attributes {tile.num_warps = 4 : i32, tile.tma = [#tile.tensor_map<param = 9, base = 0, element = f16, shape = [arg(3), arg(5)], row_stride = arg(7), box = [64, 32], swizzle = 64>, #tile.tensor_map<param = 10, base = 1, element = f16, shape = [arg(5), 4096], row_stride = arg(8), box = [32, 64], swizzle = 128>]} {
// CHECK-NEXT: func.func @ref({{[^)]*}}%arg8: i32 {tile.divisibility = 16 : i32}, %arg9: !tile.tensormap, %arg10: !tile.tensormap) -> tensor<64x64xf32, #mma> attributes {tile.programs_per_sm = 2 : i32} {
// CHECK: tile.barrier_alloc : <3>
// CHECK-NOT: tile.async_copy
// CHECK: scf.for
// CHECK-NEXT: tile.cta_barrier
// CHECK-NOT: tile.async_copy
// CHECK: tile.async_tma_copy %arg9
// CHECK: tile.async_tma_copy %arg10
// CHECK-NEXT: tile.barrier_wait
// CHECK-NOT: tile.async_copy
// CHECK: tile.warp_group_dot
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @ref(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %off: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %K: i32, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c4096 = arith.constant 4096 : i32
    %lda64 = arith.extsi %lda : i32 to i64
    %ldb64 = arith.extsi %ldb : i32 to i64
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
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %ska = tile.splat %k0 : tensor<64x32xi32, #blocked1>
      %qa = tile.addptr %a0, %ska : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %a = tile.load %qa descriptor %pa[%c0, %k0] shape(%M, %K) strides(%lda64, %c1_i64) : (tensor<64x32x!tile.ptr<f16>, #blocked1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16, #blocked1>
      %kk = arith.muli %k0, %ldb : i32
      %skb = tile.splat %kk : tensor<32x64xi32, #blocked>
      %qb = tile.addptr %b0, %skb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      %b = tile.load %qb descriptor %pb[%k0, %c0] shape(%K, %c4096) strides(%ldb64, %c1_i64) : (tensor<32x64x!tile.ptr<f16>, #blocked>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// B given as rows of K (a block pointer of order (0, 1): strides (1, ldb))
// is copied as the tile of its transposed view, box [64 rows of N, 32 of
// K], offsets reversed, into slots of 64x32 the product reads through
// tile.smem_trans (K-major B), with or without batched-tma (UNBATCHED);
// without TMA (CPASYNC), by cp.async along K into a K-major slot. The
// pointers are those of @ref (the TMA path ignores them).
// UNBATCHED: func.func @b_rows_of_k(
// UNBATCHED: tile.async_tma_copy %arg10
// UNBATCHED: tile.smem_trans
// CPASYNC-LABEL: func.func @b_rows_of_k(
// CPASYNC-NOT: tile.async_tma_copy
// CPASYNC: tile.local_alloc : <3x32x64xf16, #{{shared[0-9]*}}>
// CPASYNC: tile.async_copy
// CPASYNC-NOT: tile.smem_trans
// CPASYNC: return
// CHECK: module attributes {tile.num_warps = 4 : i32, tile.tma = [#tile.tensor_map<param = 9, base = 0, element = f16, shape = [arg(3), arg(5)], row_stride = arg(7), box = [64, 32], swizzle = 64>, #tile.tensor_map<param = 10, base = 1, element = f16, shape = [arg(4), arg(5)], row_stride = arg(8), box = [64, 32], swizzle = 64>]} {
// CHECK-NEXT: func.func @b_rows_of_k(
// CHECK: tile.local_alloc : <3x64x32xf16, #[[SA:shared[0-9]*]]>
// CHECK-NEXT: tile.local_alloc : <3x64x32xf16, #[[SA]]>
// CHECK: scf.for
// CHECK: tile.async_tma_copy %arg9[%c0{{[_0-9a-z]*}}, %[[KA:[0-9a-z_]+]]]
// CHECK: tile.async_tma_copy %arg10[%c0{{[_0-9a-z]*}}, %[[KA]]]
// CHECK: tile.smem_slot
// CHECK-NEXT: %[[SB:[0-9a-z_]+]] = tile.smem_slot
// CHECK: %[[BT:[0-9a-z_]+]] = tile.smem_trans %[[SB]] : <64x32xf16, #[[SA]]> -> <32x64xf16, #{{shared[0-9]*}}>
// CHECK-NEXT: tile.warp_group_dot %{{[0-9a-z_]+}}, %[[BT]]
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @b_rows_of_k(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %off: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %K: i32, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %c4096 = arith.constant 4096 : i32
    %lda64 = arith.extsi %lda : i32 to i64
    %ldb64 = arith.extsi %ldb : i32 to i64
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
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %ska = tile.splat %k0 : tensor<64x32xi32, #blocked1>
      %qa = tile.addptr %a0, %ska : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %a = tile.load %qa descriptor %pa[%c0, %k0] shape(%M, %K) strides(%lda64, %c1_i64) : (tensor<64x32x!tile.ptr<f16>, #blocked1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16, #blocked1>
      %kk = arith.muli %k0, %ldb : i32
      %skb = tile.splat %kk : tensor<32x64xi32, #blocked>
      %qb = tile.addptr %b0, %skb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      %b = tile.load %qb descriptor %pb[%k0, %c0] shape(%K, %N) strides(%c1_i64, %ldb64) : (tensor<32x64x!tile.ptr<f16>, #blocked>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// A's descriptor base is A's pointer moved by an offset the kernel computes
// (tile.addptr), not an argument the host can build a tensor map from: A
// cannot be copied with TMA, so neither is B (both operands or neither) and
// the loop gets the cp.async form.
// CHECK: module attributes {tile.num_warps = 4 : i32} {
// CHECK-NEXT: func.func @base_addptr({{[^)]*}}%arg8: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> attributes {tile.programs_per_sm = 2 : i32} {
// CHECK-NOT: tile.barrier_alloc
// CHECK: tile.local_alloc : <3x64x32xf16, #{{shared[0-9]*}}>
// CHECK-NEXT: tile.local_alloc : <3x32x64xf16, #{{shared[0-9]*}}>
// CHECK-NOT: tile.barrier_alloc
// CHECK-NOT: tile.async_tma_copy
// CHECK: tile.async_copy
// CHECK: tile.async_commit_group
// CHECK: scf.for
// CHECK-NEXT: tile.async_wait {pending = 1 : i32}
// CHECK-NOT: tile.async_tma_copy
// CHECK-NOT: tile.barrier_wait
// CHECK: tile.warp_group_dot
// CHECK: tile.async_wait {pending = 0 : i32}
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @base_addptr(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %off: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %K: i32, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pab = tile.addptr %pa, %off : !tile.ptr<f16>, i32
    %lda64 = arith.extsi %lda : i32 to i64
    %ldb64 = arith.extsi %ldb : i32 to i64
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pab : tensor<64x1x!tile.ptr<f16>, #blocked1>
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
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %ska = tile.splat %k0 : tensor<64x32xi32, #blocked1>
      %qa = tile.addptr %a0, %ska : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %a = tile.load %qa descriptor %pab[%c0, %k0] shape(%M, %K) strides(%lda64, %c1_i64) : (tensor<64x32x!tile.ptr<f16>, #blocked1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16, #blocked1>
      %kk = arith.muli %k0, %ldb : i32
      %skb = tile.splat %kk : tensor<32x64xi32, #blocked>
      %qb = tile.addptr %b0, %skb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      %b = tile.load %qb descriptor %pb[%k0, %c0] shape(%K, %N) strides(%ldb64, %c1_i64) : (tensor<32x64x!tile.ptr<f16>, #blocked>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// A's descriptor base is A's pointer moved by per-program offsets, as
// attention's `Q + off_z * (M * 64) + off_h * stride_h` selects its head:
// each term a product of an index that is never negative (a program id
// divided by a positive constant, a remainder of one) and a kernel argument
// times a constant (M * 64), or the argument alone (stride_h, i64 with a
// 16-divisibility hint). A's tensor map gets them as outer dimensions,
// outermost first as the terms come, each of extent 2^31 (beyond any i32
// index) and a stride of the argument times the constant; the copies of A
// start at [z, h, row, k]. B's base is its argument: a 2-D map. With
// batched-tma=false, no map has outer dimensions (UNBATCHED): A is not
// copied with TMA, so neither is B.
// UNBATCHED-NOT: outer =
// CHECK: module attributes {tile.num_warps = 4 : i32, tile.tma = [#tile.tensor_map<param = 11, base = 0, element = f16, shape = [arg(3), arg(5)], row_stride = arg(7), box = [64, 32], swizzle = 64, outer = [(2147483648, arg(3) * 64), (2147483648, arg(10))]>, #tile.tensor_map<param = 12, base = 1, element = f16, shape = [arg(5), arg(4)], row_stride = arg(8), box = [32, 64], swizzle = 128>]} {
// CHECK: %[[PID:.*]] = tile.program_id 1 : i32
// CHECK-NEXT: %[[Z:.*]] = arith.divsi %[[PID]], %{{.*}} : i32
// CHECK-NEXT: %[[H:.*]] = arith.remsi %[[PID]], %arg9 : i32
// CHECK: tile.async_tma_copy %arg11[%[[Z]], %[[H]], %{{.*}}, %{{.*}}], %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : !tile.tensormap, <64x32xf16
// CHECK: tile.async_tma_copy %arg12[%{{[^,]*}}, %{{[^,]*}}], %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : !tile.tensormap, <32x64xf16
// CHECK: scf.for
// CHECK: tile.async_tma_copy %arg11[%[[Z]], %[[H]], %{{.*}}, %{{.*}}]
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @batch_base(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %off: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %K: i32, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}, %H: i32, %hs: i64 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c4 = arith.constant 4 : i32
    %c64_i64 = arith.constant 64 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pid = tile.program_id 1 : i32
    %z = arith.divsi %pid, %c4 : i32
    %h = arith.remsi %pid, %H : i32
    %z64 = arith.extsi %z : i32 to i64
    %M64 = arith.extsi %M : i32 to i64
    %zm = arith.muli %z64, %M64 : i64
    %zoff = arith.muli %zm, %c64_i64 : i64
    %h64 = arith.extsi %h : i32 to i64
    %hoff = arith.muli %h64, %hs : i64
    %off64 = arith.addi %zoff, %hoff : i64
    %pab = tile.addptr %pa, %off64 : !tile.ptr<f16>, i64
    %lda64 = arith.extsi %lda : i32 to i64
    %ldb64 = arith.extsi %ldb : i32 to i64
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pab : tensor<64x1x!tile.ptr<f16>, #blocked1>
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
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %ska = tile.splat %k0 : tensor<64x32xi32, #blocked1>
      %qa = tile.addptr %a0, %ska : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %a = tile.load %qa descriptor %pab[%c0, %k0] shape(%M, %K) strides(%lda64, %c1_i64) : (tensor<64x32x!tile.ptr<f16>, #blocked1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16, #blocked1>
      %kk = arith.muli %k0, %ldb : i32
      %skb = tile.splat %kk : tensor<32x64xi32, #blocked>
      %qb = tile.addptr %b0, %skb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      %b = tile.load %qb descriptor %pb[%k0, %c0] shape(%K, %N) strides(%ldb64, %c1_i64) : (tensor<32x64x!tile.ptr<f16>, #blocked>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}


// -----

// The same with the index `pid // M`, a quotient by an argument, which
// may be negative (the pointer load would then read before the tensor,
// where TMA reads zeros): no tensor map, cp.async.
// CHECK: module attributes {tile.num_warps = 4 : i32} {
// CHECK-NEXT: func.func @batch_base_signed(
// CHECK-NOT: tile.async_tma_copy
// CHECK: tile.async_copy
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @batch_base_signed(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %off: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %K: i32, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %c64_i64 = arith.constant 64 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %pid = tile.program_id 1 : i32
    %z = arith.divsi %pid, %M : i32
    %z64 = arith.extsi %z : i32 to i64
    %zoff = arith.muli %z64, %c64_i64 : i64
    %pab = tile.addptr %pa, %zoff : !tile.ptr<f16>, i64
    %lda64 = arith.extsi %lda : i32 to i64
    %ldb64 = arith.extsi %ldb : i32 to i64
    %m = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>>
    %m1 = tile.expand_dims %m {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #blocked1>> -> tensor<64x1xi32, #blocked1>
    %ldas = tile.splat %lda : tensor<64x1xi32, #blocked1>
    %rowa = arith.muli %m1, %ldas : tensor<64x1xi32, #blocked1>
    %pas = tile.splat %pab : tensor<64x1x!tile.ptr<f16>, #blocked1>
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
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %ska = tile.splat %k0 : tensor<64x32xi32, #blocked1>
      %qa = tile.addptr %a0, %ska : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %a = tile.load %qa descriptor %pab[%c0, %k0] shape(%M, %K) strides(%lda64, %c1_i64) : (tensor<64x32x!tile.ptr<f16>, #blocked1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16, #blocked1>
      %kk = arith.muli %k0, %ldb : i32
      %skb = tile.splat %kk : tensor<32x64xi32, #blocked>
      %qb = tile.addptr %b0, %skb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      %b = tile.load %qb descriptor %pb[%k0, %c0] shape(%K, %N) strides(%ldb64, %c1_i64) : (tensor<32x64x!tile.ptr<f16>, #blocked>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}


// -----

// A's extent along K is computed in the kernel (K - off): not TMA, cp.async.
// CHECK: module attributes {tile.num_warps = 4 : i32} {
// CHECK-NEXT: func.func @computed_extent({{[^)]*}}%arg8: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> attributes {tile.programs_per_sm = 2 : i32} {
// CHECK-NOT: tile.barrier_alloc
// CHECK: tile.local_alloc : <3x64x32xf16, #{{shared[0-9]*}}>
// CHECK-NEXT: tile.local_alloc : <3x32x64xf16, #{{shared[0-9]*}}>
// CHECK-NOT: tile.barrier_alloc
// CHECK-NOT: tile.async_tma_copy
// CHECK: tile.async_copy
// CHECK: tile.async_commit_group
// CHECK: scf.for
// CHECK-NEXT: tile.async_wait {pending = 1 : i32}
// CHECK-NOT: tile.async_tma_copy
// CHECK-NOT: tile.barrier_wait
// CHECK: tile.warp_group_dot
// CHECK: tile.async_wait {pending = 0 : i32}
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @computed_extent(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %off: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %K: i32, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %Kl = arith.subi %K, %off : i32
    %lda64 = arith.extsi %lda : i32 to i64
    %ldb64 = arith.extsi %ldb : i32 to i64
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
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %ska = tile.splat %k0 : tensor<64x32xi32, #blocked1>
      %qa = tile.addptr %a0, %ska : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %a = tile.load %qa descriptor %pa[%c0, %k0] shape(%M, %Kl) strides(%lda64, %c1_i64) : (tensor<64x32x!tile.ptr<f16>, #blocked1>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16, #blocked1>
      %kk = arith.muli %k0, %ldb : i32
      %skb = tile.splat %kk : tensor<32x64xi32, #blocked>
      %qb = tile.addptr %b0, %skb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      %b = tile.load %qb descriptor %pb[%k0, %c0] shape(%K, %N) strides(%ldb64, %c1_i64) : (tensor<32x64x!tile.ptr<f16>, #blocked>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}

// -----

// tf32: A (fp32, row-major) would qualify, but wgmma reads fp32 B only
// K-major, which TMA cannot write from row-major B: cp.async for both.
// CHECK: module attributes {tile.num_warps = 4 : i32} {
// CHECK-NEXT: func.func @tf32({{[^)]*}}%arg8: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
// CHECK-NOT: tile.barrier_alloc
// CHECK: tile.local_alloc : <3x64x32xf32, #{{shared[0-9]*}}>
// CHECK-NEXT: tile.local_alloc : <3x32x64xf32, #{{shared[0-9]*}}>
// CHECK-NOT: tile.barrier_alloc
// CHECK-NOT: tile.async_tma_copy
// CHECK: tile.async_copy
// CHECK: tile.async_commit_group
// CHECK: scf.for
// CHECK-NEXT: tile.async_wait {pending = 1 : i32}
// CHECK-NOT: tile.async_tma_copy
// CHECK-NOT: tile.barrier_wait
// CHECK: tile.warp_group_dot
// CHECK: tile.async_wait {pending = 0 : i32}
#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8]>
module attributes {tile.num_warps = 4 : i32} {
  func.func @tf32(%pa: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %off: i32 {tile.divisibility = 16 : i32}, %M: i32, %N: i32, %K: i32, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c1_i64 = arith.constant 1 : i64
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %lda64 = arith.extsi %lda : i32 to i64
    %ldb64 = arith.extsi %ldb : i32 to i64
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
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %ska = tile.splat %k0 : tensor<64x32xi32, #blocked1>
      %qa = tile.addptr %a0, %ska : tensor<64x32x!tile.ptr<f32>, #blocked1>, tensor<64x32xi32, #blocked1>
      %a = tile.load %qa descriptor %pa[%c0, %k0] shape(%M, %K) strides(%lda64, %c1_i64) : (tensor<64x32x!tile.ptr<f32>, #blocked1>, !tile.ptr<f32>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf32, #blocked1>
      %kk = arith.muli %k0, %ldb : i32
      %skb = tile.splat %kk : tensor<32x64xi32, #blocked>
      %qb = tile.addptr %b0, %skb : tensor<32x64x!tile.ptr<f32>, #blocked>, tensor<32x64xi32, #blocked>
      %b = tile.load %qb descriptor %pb[%k0, %c0] shape(%K, %N) strides(%ldb64, %c1_i64) : (tensor<32x64x!tile.ptr<f32>, #blocked>, !tile.ptr<f32>, i32, i32, i64, i64, i32, i32) -> tensor<32x64xf32, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf32, #blocked1>, tensor<32x64xf32, #blocked> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }
}
