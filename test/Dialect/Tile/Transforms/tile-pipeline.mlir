// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=3" -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=1" | FileCheck %s --check-prefix=ONE
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=4" | FileCheck %s --check-prefix=S4
// RUN: tilec-opt %s -split-input-file -tile-pipeline="num-stages=2" | FileCheck %s --check-prefix=TWO

// The K loop of the fp16 seed matmul (64x64x32, 4 warps, sm_90a), as
// tile-remove-layout-conversions leaves it: both operands are loaded in the
// body with zero padding past K, and the product runs on wgmma. With three
// stages, each operand gets a ring of 3 slots in the layout wgmma reads: A
// [64x32] stored K-major (64-byte rows, so a 64-byte swizzle); B [32x64]
// row-major fp16 stored N-major, swizzled by the instruction's N (64 fp16,
// 128 bytes). The program is small (an accumulator of 32 registers per
// thread, rings of 24 KiB), so programs share an SM and overlap each
// other's products: the product stays synchronous (no isAsync, no
// warp_group_dot_wait; @big below is left in flight). Stages 0 and 1 are
// copied before the loop into slots 0 and 1 (masked by lb < ub and
// lb + step < ub, their own masks cloned with iv replaced), each closed by a
// commit. The loop carries the pointers two iterations ahead and the slot
// indices read = 0, write = 2; each iteration waits until one group at most
// is in flight, copies stage i + 2 into slot `write` (masked by
// i + 2 * step < ub as well), commits, multiplies from slot `read`, and
// advances both indices modulo 3. After the loop, every group is waited
// for. The loads and tile.dot are gone; the old pointer arguments only
// yield themselves (canonicalization drops them, CANON).
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
// CHECK-DAG: #[[BA:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[BB:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[SA:shared[0-9]*]] = #tile.shared<contiguousDim = 1, swizzle = 64>
// CHECK-DAG: #[[SB:shared[0-9]*]] = #tile.shared<contiguousDim = 1, swizzle = 128>
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[K:[^:]*]]: i32 {tile.divisibility = 16 : i32}, %{{[^:]*}}: i32 {tile.divisibility = 16 : i32}, %[[LDB:[^:]*]]: i32 {tile.divisibility = 16 : i32})
// CHECK: %[[UB:.*]] = arith.divsi
// CHECK: %[[RA:.*]] = tile.local_alloc : <3x64x32xf16, #[[SA]]>
// CHECK: %[[RB:.*]] = tile.local_alloc : <3x32x64xf16, #[[SB]]>
// Stage 0: iv = lb, slot 0.
// CHECK: %[[SLOT0:.*]] = arith.constant 0 : i32
// CHECK: %[[K0:.*]] = arith.muli %[[LB:.*]], %[[C32:.*]] : i32
// CHECK: arith.subi %[[K]], %[[K0]] : i32
// CHECK: %[[V0:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK: %[[A0SLOT:.*]] = tile.smem_slot %[[RA]][%[[SLOT0]]] : <3x64x32xf16, #[[SA]]> -> <64x32xf16, #[[SA]]>
// CHECK: %[[V0A:.*]] = tile.splat %[[V0]] : tensor<64x32xi1, #[[BA]]>
// CHECK: %[[M0A:.*]] = arith.andi %{{.*}}, %[[V0A]] : tensor<64x32xi1, #[[BA]]>
// CHECK: tile.async_copy %[[A0:.*]], %[[A0SLOT]], %[[M0A]] : tensor<64x32x!tile.ptr<f16>, #[[BA]]>, <64x32xf16, #[[SA]]>, tensor<64x32xi1, #[[BA]]>
// CHECK: %[[B0SLOT:.*]] = tile.smem_slot %[[RB]][%[[SLOT0]]] : <3x32x64xf16, #[[SB]]> -> <32x64xf16, #[[SB]]>
// CHECK: %[[V0B:.*]] = tile.splat %[[V0]] : tensor<32x64xi1, #[[BB]]>
// CHECK: %[[M0B:.*]] = arith.andi %{{.*}}, %[[V0B]] : tensor<32x64xi1, #[[BB]]>
// CHECK: tile.async_copy %[[B0:.*]], %[[B0SLOT]], %[[M0B]] : tensor<32x64x!tile.ptr<f16>, #[[BB]]>, <32x64xf16, #[[SB]]>, tensor<32x64xi1, #[[BB]]>
// CHECK-NEXT: tile.async_commit_group
// Stage 1: iv = lb + step, the pointers advanced once, slot 1.
// CHECK: %[[A1:.*]] = tile.addptr %[[A0]], %{{.*}} : tensor<64x32x!tile.ptr<f16>, #[[BA]]>
// CHECK: %[[B1:.*]] = tile.addptr %[[B0]], %{{.*}} : tensor<32x64x!tile.ptr<f16>, #[[BB]]>
// CHECK: %[[SLOT1:.*]] = arith.constant 1 : i32
// CHECK: %[[NSTEPS1:.*]] = arith.constant 1 : i32
// CHECK: %[[STEP1:.*]] = arith.muli %[[STEP:.*]], %[[NSTEPS1]] : i32
// CHECK: %[[IV1:.*]] = arith.addi %[[LB]], %[[STEP1]] : i32
// CHECK: arith.muli %[[IV1]], %[[C32]] : i32
// CHECK: %[[V1:.*]] = arith.cmpi slt, %[[IV1]], %[[UB]] : i32
// CHECK: %[[A1SLOT:.*]] = tile.smem_slot %[[RA]][%[[SLOT1]]]
// CHECK: tile.splat %[[V1]] : tensor<64x32xi1, #[[BA]]>
// CHECK: tile.async_copy %[[A1]], %[[A1SLOT]], %{{.*}} :
// CHECK: %[[B1SLOT:.*]] = tile.smem_slot %[[RB]][%[[SLOT1]]]
// CHECK: tile.splat %[[V1]] : tensor<32x64xi1, #[[BB]]>
// CHECK: tile.async_copy %[[B1]], %[[B1SLOT]], %{{.*}} :
// CHECK-NEXT: tile.async_commit_group
// The loop starts two stages ahead.
// CHECK: %[[A2:.*]] = tile.addptr %[[A1]], %{{.*}} : tensor<64x32x!tile.ptr<f16>, #[[BA]]>
// CHECK: %[[B2:.*]] = tile.addptr %[[B1]], %{{.*}} : tensor<32x64x!tile.ptr<f16>, #[[BB]]>
// CHECK: %[[READ0:.*]] = arith.constant 0 : i32
// CHECK: %[[WRITE0:.*]] = arith.constant 2 : i32
// CHECK: %[[R:.*]]:7 = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[OLDA:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %[[OLDB:.*]] = %{{.*}}, %[[QA:.*]] = %[[A2]], %[[QB:.*]] = %[[B2]], %[[READ:.*]] = %[[READ0]], %[[WRITE:.*]] = %[[WRITE0]]) -> (tensor<64x32x!tile.ptr<f16>, #[[BA]]>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #[[BB]]>, tensor<64x32x!tile.ptr<f16>, #[[BA]]>, tensor<32x64x!tile.ptr<f16>, #[[BB]]>, i32, i32)
// CHECK-NEXT: tile.async_wait {pending = 1 : i32}
// CHECK-NEXT: %[[NSTEPS2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[STEP2:.*]] = arith.muli %[[STEP]], %[[NSTEPS2]] : i32
// CHECK-NEXT: %[[IV2:.*]] = arith.addi %[[I]], %[[STEP2]] : i32
// CHECK-NEXT: arith.muli %[[IV2]], %[[C32]] : i32
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[IV2]], %[[UB]] : i32
// CHECK: %[[WA:.*]] = tile.smem_slot %[[RA]][%[[WRITE]]] : <3x64x32xf16, #[[SA]]> -> <64x32xf16, #[[SA]]>
// CHECK: %[[VA:.*]] = tile.splat %[[VALID]] : tensor<64x32xi1, #[[BA]]>
// CHECK: %[[MA:.*]] = arith.andi %{{.*}}, %[[VA]] : tensor<64x32xi1, #[[BA]]>
// CHECK: tile.async_copy %[[QA]], %[[WA]], %[[MA]] :
// CHECK: %[[WB:.*]] = tile.smem_slot %[[RB]][%[[WRITE]]] : <3x32x64xf16, #[[SB]]> -> <32x64xf16, #[[SB]]>
// CHECK: %[[VB:.*]] = tile.splat %[[VALID]] : tensor<32x64xi1, #[[BB]]>
// CHECK: %[[MB:.*]] = arith.andi %{{.*}}, %[[VB]] : tensor<32x64xi1, #[[BB]]>
// CHECK: tile.async_copy %[[QB]], %[[WB]], %[[MB]] :
// CHECK-NEXT: tile.async_commit_group
// CHECK: %[[NQA:.*]] = tile.addptr %[[QA]], %{{.*}} : tensor<64x32x!tile.ptr<f16>, #[[BA]]>
// CHECK: %[[NQB:.*]] = tile.addptr %[[QB]], %{{.*}} : tensor<32x64x!tile.ptr<f16>, #[[BB]]>
// CHECK: %[[XA:.*]] = tile.smem_slot %[[RA]][%[[READ]]]
// CHECK: %[[XB:.*]] = tile.smem_slot %[[RB]][%[[READ]]]
// read + 1 == 3 ? 0 : read + 1, and the same for write.
// CHECK: %[[C1R:.*]] = arith.constant 1 : i32
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
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK: %[[D:.*]] = tile.warp_group_dot %[[XA]], %[[XB]], %[[ACC]] {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #[[SA]]>, <32x64xf16, #[[SB]]> -> tensor<64x64xf32, #mma>
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK: scf.yield %[[OLDA]], %[[D]], %[[OLDB]], %[[NQA]], %[[NQB]], %[[NREAD]], %[[NWRITE]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK-NOT: tile.warp_group_dot_wait
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK: tile.store %{{.*}}, %[[R]]#1 :
// CHECK-NEXT: return

// Canonicalization drops the dead pointer arguments and the pure ops that
// fed them, keeping the accumulator, the lookahead pointers and the slots.
// CANON-DAG: #[[BA:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// CANON-DAG: #[[BB:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
// CANON-LABEL: func.func @matmul(
// CANON: %{{.*}}:5 = scf.for {{.*}} -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #[[BA]]>, tensor<32x64x!tile.ptr<f16>, #[[BB]]>, i32, i32)
// CANON-NOT: tile.load
// CANON: tile.warp_group_dot

// Below 2 stages nothing changes.
// ONE-LABEL: func.func @matmul(
// ONE-NOT: tile.local_alloc
// ONE: %{{.*}}:3 = scf.for
// ONE-NOT: tile.async_wait
// ONE: tile.load %{{.*}} other
// ONE: tile.load %{{.*}} other
// ONE-NEXT: tile.dot
// ONE-NOT: tile.async
// ONE-NOT: tile.warp_group_dot
// ONE: return
module attributes {tile.num_warps = 4 : i32} {
  func.func @matmul(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pc: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c31 = arith.constant 31 : i32
    %c32 = arith.constant 32 : i32
    %za = arith.constant dense<0.000000e+00> : tensor<64x32xf16, #blocked1>
    %zb = arith.constant dense<0.000000e+00> : tensor<32x64xf16, #blocked>
    %acc0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    // A: row * lda + k.
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
    // B: k * ldb + column.
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
    %kp = arith.addi %K, %c31 : i32
    %ub = arith.divsi %kp, %c32 : i32
    %r:3 = scf.for %i = %c0 to %ub step %c1 iter_args(%qa = %a0, %acc = %acc0, %qb = %b0) -> (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>) : i32 {
      %k0 = arith.muli %i, %c32 : i32
      %left = arith.subi %K, %k0 : i32
      %lefta = tile.splat %left : tensor<1x32xi32, #blocked1>
      %ma1 = arith.cmpi slt, %ka1, %lefta : tensor<1x32xi32, #blocked1>
      %ma = tile.broadcast %ma1 : tensor<1x32xi1, #blocked1> -> tensor<64x32xi1, #blocked1>
      %a = tile.load %qa, %ma other %za : (tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi1, #blocked1>, tensor<64x32xf16, #blocked1>) -> tensor<64x32xf16, #blocked1>
      %leftb = tile.splat %left : tensor<32x1xi32, #blocked>
      %mb1 = arith.cmpi slt, %kb1, %leftb : tensor<32x1xi32, #blocked>
      %mb = tile.broadcast %mb1 : tensor<32x1xi1, #blocked> -> tensor<32x64xi1, #blocked>
      %b = tile.load %qb, %mb other %zb : (tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi1, #blocked>, tensor<32x64xf16, #blocked>) -> tensor<32x64xf16, #blocked>
      %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16, #blocked1>, tensor<32x64xf16, #blocked> -> tensor<64x64xf32, #mma>
      %stepa = tile.splat %c32 : tensor<64x32xi32, #blocked1>
      %na = tile.addptr %qa, %stepa : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x32xi32, #blocked1>
      %sb = arith.muli %ldb, %c32 : i32
      %stepb = tile.splat %sb : tensor<32x64xi32, #blocked>
      %nb = tile.addptr %qb, %stepb : tensor<32x64x!tile.ptr<f16>, #blocked>, tensor<32x64xi32, #blocked>
      scf.yield %na, %d, %nb : tensor<64x32x!tile.ptr<f16>, #blocked1>, tensor<64x64xf32, #mma>, tensor<32x64x!tile.ptr<f16>, #blocked>
    }
    %cs = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
    tile.store %cs, %r#1 : tensor<64x64x!tile.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}

// -----

// A program that has its SM alone: 128x256x64 blocks over 8 warps (two
// warp groups along M, m64n256k16 instructions), an fp32 accumulator of
// 128 registers per thread and rings of 3 x (16 + 32) KiB. Both operands
// are stored in 128-byte swizzles (A K-major, B N-major). The product's
// only use is the next product's (fp32) accumulator, so it stays in flight
// during the next iteration: the warp-group dot is asynchronous, and the
// wait after it leaves one product pending. The copies then refill the
// slots of two iterations before, and run num-stages - 2 = 1 iteration
// ahead: stage 0 alone is copied before the loop, into slot 0 (masked by
// lb < ub, its own mask cloned with iv replaced), closed by a commit. The
// loop carries the pointers one iteration ahead and the slot indices
// read = 0, write = 1; each iteration waits until no group is in flight,
// copies stage i + 1 into slot `write` (masked by i + step < ub as well),
// commits, multiplies from slot `read`, and advances both indices modulo 3.
// After the loop, the last product is waited for (that wait's result
// replaces the loop's), then every group.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 16]>
// CHECK-DAG: #[[BA:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
// CHECK-DAG: #[[BB:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
// CHECK-DAG: #[[SA:shared[0-9]*]] = #tile.shared<contiguousDim = 1, swizzle = 128>
// CHECK-LABEL: func.func @big(
// CHECK-SAME: %[[K:[^:]*]]: i32 {tile.divisibility = 16 : i32}, %{{[^:]*}}: i32 {tile.divisibility = 16 : i32}, %[[LDB:[^:]*]]: i32 {tile.divisibility = 16 : i32})
// The program has its SM alone: no second program is asked for.
// CHECK-NOT: tile.programs_per_sm
// CHECK: %[[UB:.*]] = arith.divsi
// CHECK: %[[RA:.*]] = tile.local_alloc : <3x128x64xf16, #[[SA]]>
// CHECK: %[[RB:.*]] = tile.local_alloc : <3x64x256xf16, #[[SA]]>
// Stage 0: iv = lb, slot 0.
// CHECK: %[[SLOT0:.*]] = arith.constant 0 : i32
// CHECK: %[[K0:.*]] = arith.muli %[[LB:.*]], %[[C64:.*]] : i32
// CHECK: arith.subi %[[K]], %[[K0]] : i32
// CHECK: %[[V0:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK: %[[A0SLOT:.*]] = tile.smem_slot %[[RA]][%[[SLOT0]]] : <3x128x64xf16, #[[SA]]> -> <128x64xf16, #[[SA]]>
// CHECK: %[[V0A:.*]] = tile.splat %[[V0]] : tensor<128x64xi1, #[[BA]]>
// CHECK: %[[M0A:.*]] = arith.andi %{{.*}}, %[[V0A]] : tensor<128x64xi1, #[[BA]]>
// CHECK: tile.async_copy %[[A0:.*]], %[[A0SLOT]], %[[M0A]] : tensor<128x64x!tile.ptr<f16>, #[[BA]]>, <128x64xf16, #[[SA]]>, tensor<128x64xi1, #[[BA]]>
// CHECK: %[[B0SLOT:.*]] = tile.smem_slot %[[RB]][%[[SLOT0]]] : <3x64x256xf16, #[[SA]]> -> <64x256xf16, #[[SA]]>
// CHECK: %[[V0B:.*]] = tile.splat %[[V0]] : tensor<64x256xi1, #[[BB]]>
// CHECK: %[[M0B:.*]] = arith.andi %{{.*}}, %[[V0B]] : tensor<64x256xi1, #[[BB]]>
// CHECK: tile.async_copy %[[B0:.*]], %[[B0SLOT]], %[[M0B]] : tensor<64x256x!tile.ptr<f16>, #[[BB]]>, <64x256xf16, #[[SA]]>, tensor<64x256xi1, #[[BB]]>
// CHECK-NEXT: tile.async_commit_group
// The loop starts one stage ahead: no second stage before it.
// CHECK-NOT: tile.async
// CHECK: %[[A1:.*]] = tile.addptr %[[A0]], %{{.*}} : tensor<128x64x!tile.ptr<f16>, #[[BA]]>
// CHECK-NOT: tile.async
// CHECK: %[[B1:.*]] = tile.addptr %[[B0]], %{{.*}} : tensor<64x256x!tile.ptr<f16>, #[[BB]]>
// CHECK-NOT: tile.async
// CHECK: %[[READ0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[WRITE0:.*]] = arith.constant 1 : i32
// The accumulator enters the loop through a wait (see tile-pipeline).
// CHECK-NEXT: %[[ACC0:.*]] = tile.warp_group_dot_wait %{{.*}} {pending = 0 : i32} : tensor<128x256xf32, #mma>
// CHECK-NEXT: %[[R:.*]]:7 = scf.for %[[I:.*]] = %[[LB]] to %[[UB]] step %[[STEP:.*]] iter_args(%[[OLDA:.*]] = %{{.*}}, %[[ACC:.*]] = %[[ACC0]], %[[OLDB:.*]] = %{{.*}}, %[[QA:.*]] = %[[A1]], %[[QB:.*]] = %[[B1]], %[[READ:.*]] = %[[READ0]], %[[WRITE:.*]] = %[[WRITE0]]) -> (tensor<128x64x!tile.ptr<f16>, #[[BA]]>, tensor<128x256xf32, #mma>, tensor<64x256x!tile.ptr<f16>, #[[BB]]>, tensor<128x64x!tile.ptr<f16>, #[[BA]]>, tensor<64x256x!tile.ptr<f16>, #[[BB]]>, i32, i32)
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK-NEXT: %[[NSTEPS1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[STEP1:.*]] = arith.muli %[[STEP]], %[[NSTEPS1]] : i32
// CHECK-NEXT: %[[IV1:.*]] = arith.addi %[[I]], %[[STEP1]] : i32
// CHECK-NEXT: arith.muli %[[IV1]], %[[C64]] : i32
// CHECK: %[[VALID:.*]] = arith.cmpi slt, %[[IV1]], %[[UB]] : i32
// CHECK: %[[WA:.*]] = tile.smem_slot %[[RA]][%[[WRITE]]] : <3x128x64xf16, #[[SA]]> -> <128x64xf16, #[[SA]]>
// CHECK: %[[VA:.*]] = tile.splat %[[VALID]] : tensor<128x64xi1, #[[BA]]>
// CHECK: %[[MA:.*]] = arith.andi %{{.*}}, %[[VA]] : tensor<128x64xi1, #[[BA]]>
// CHECK: tile.async_copy %[[QA]], %[[WA]], %[[MA]] :
// CHECK: %[[WB:.*]] = tile.smem_slot %[[RB]][%[[WRITE]]] : <3x64x256xf16, #[[SA]]> -> <64x256xf16, #[[SA]]>
// CHECK: %[[VB:.*]] = tile.splat %[[VALID]] : tensor<64x256xi1, #[[BB]]>
// CHECK: %[[MB:.*]] = arith.andi %{{.*}}, %[[VB]] : tensor<64x256xi1, #[[BB]]>
// CHECK: tile.async_copy %[[QB]], %[[WB]], %[[MB]] :
// CHECK-NEXT: tile.async_commit_group
// CHECK: %[[NQA:.*]] = tile.addptr %[[QA]], %{{.*}} : tensor<128x64x!tile.ptr<f16>, #[[BA]]>
// CHECK: %[[NQB:.*]] = tile.addptr %[[QB]], %{{.*}} : tensor<64x256x!tile.ptr<f16>, #[[BB]]>
// CHECK: %[[XA:.*]] = tile.smem_slot %[[RA]][%[[READ]]]
// CHECK: %[[XB:.*]] = tile.smem_slot %[[RB]][%[[READ]]]
// read + 1 == 3 ? 0 : read + 1, and the same for write.
// CHECK: %[[C1R:.*]] = arith.constant 1 : i32
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
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK-NOT: tile.async
// The product is started in flight; the wait after it leaves it pending,
// and its result is what the loop yields.
// CHECK: %[[D:.*]] = tile.warp_group_dot %[[XA]], %[[XB]], %[[ACC]] {inputPrecision = #tile<input_precision tf32>, isAsync} : !tile.smem<128x64xf16, #[[SA]]>, <64x256xf16, #[[SA]]> -> tensor<128x256xf32, #mma>
// CHECK-NEXT: %[[DW:.*]] = tile.warp_group_dot_wait %[[D]] {pending = 1 : i32} : tensor<128x256xf32, #mma>
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK-NOT: tile.async
// CHECK-NOT: tile.warp_group_dot
// CHECK: scf.yield %[[OLDA]], %[[DW]], %[[OLDB]], %[[NQA]], %[[NQB]], %[[NREAD]], %[[NWRITE]] :
// CHECK-NEXT: }
// After the loop the last product is waited for first, then the copies;
// the store reads the completed accumulator, not the loop's result.
// CHECK-NEXT: %[[DONE:.*]] = tile.warp_group_dot_wait %[[R]]#1 {pending = 0 : i32} : tensor<128x256xf32, #mma>
// CHECK-NEXT: tile.async_wait {pending = 0 : i32}
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK: tile.store %{{.*}}, %[[DONE]] :
// CHECK-NEXT: return

// Canonicalization drops the dead pointer arguments and the pure ops that
// fed them, keeping the accumulator, the lookahead pointers and the slots.
// CANON-DAG: #[[BA:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]>
// CANON-DAG: #[[BB:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]>
// CANON-LABEL: func.func @big(
// CANON: %[[R:.*]]:5 = scf.for {{.*}} -> (tensor<128x256xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #[[BA]]>, tensor<64x256x!tile.ptr<f16>, #[[BB]]>, i32, i32)
// CANON-NOT: tile.load
// CANON: %[[D:.*]] = tile.warp_group_dot {{.*}}, isAsync}
// CANON-NEXT: tile.warp_group_dot_wait %[[D]] {pending = 1 : i32}
// CANON: tile.warp_group_dot_wait %[[R]]#0 {pending = 0 : i32}

// Four stages: rings of 4 slots, copies two iterations ahead (stages 0 and
// 1 before the loop, write = 2, stage i + 2 copied in the body), one group
// left in flight by the wait; the product is still left one iteration in
// flight.
// S4-LABEL: func.func @big(
// S4: tile.local_alloc : <4x128x64xf16, #{{.*}}>
// S4: tile.local_alloc : <4x64x256xf16, #{{.*}}>
// S4-COUNT-2: tile.async_commit_group
// S4-NOT: tile.async_commit_group
// S4: %[[READ0:.*]] = arith.constant 0 : i32
// S4-NEXT: %[[WRITE0:.*]] = arith.constant 2 : i32
// S4-NEXT: tile.warp_group_dot_wait %{{.*}} {pending = 0 : i32}
// S4-NEXT: %[[R:.*]]:7 = scf.for %[[I:[^ ]*]] = %{{[^ ]*}} to %{{[^ ]*}} step %[[STEP:[^ ]*]] iter_args({{.*}}, %{{[^ ]*}} = %[[READ0]], %{{[^ ]*}} = %[[WRITE0]])
// S4-NEXT: tile.async_wait {pending = 1 : i32}
// S4-NEXT: %[[NSTEPS2:.*]] = arith.constant 2 : i32
// S4-NEXT: %[[STEP2:.*]] = arith.muli %[[STEP]], %[[NSTEPS2]] : i32
// S4-NEXT: arith.addi %[[I]], %[[STEP2]] : i32
// S4: arith.constant 4 : i32
// S4: %[[D:.*]] = tile.warp_group_dot {{.*}}, isAsync}
// S4-NEXT: %[[DW:.*]] = tile.warp_group_dot_wait %[[D]] {pending = 1 : i32}
// S4: scf.yield %{{[^ ]*}}, %[[DW]], {{.*}}
// S4-NEXT: }
// S4-NEXT: %[[DONE:.*]] = tile.warp_group_dot_wait %[[R]]#1 {pending = 0 : i32}
// S4-NEXT: tile.async_wait {pending = 0 : i32}
// S4: tile.store %{{.*}}, %[[DONE]] :

// Two stages: no slot to spare for a product in flight, so the product
// stays synchronous, with the copies one iteration ahead (num-stages - 1).
// TWO-LABEL: func.func @big(
// TWO: tile.local_alloc : <2x128x64xf16, #{{.*}}>
// TWO: tile.local_alloc : <2x64x256xf16, #{{.*}}>
// TWO: tile.async_commit_group
// TWO-NOT: tile.async_commit_group
// TWO: %[[READ0:.*]] = arith.constant 0 : i32
// TWO-NEXT: %[[WRITE0:.*]] = arith.constant 1 : i32
// TWO-NEXT: %[[R:.*]]:7 = scf.for {{.*}} iter_args(%{{[^,]*}}, %[[ACC:[^ ]*]] = %{{[^,]*}}, {{.*}}, %{{[^ ]*}} = %[[READ0]], %{{[^ ]*}} = %[[WRITE0]])
// TWO-NEXT: tile.async_wait {pending = 0 : i32}
// TWO-NOT: isAsync
// TWO: %[[D:.*]] = tile.warp_group_dot %{{.*}}, %{{.*}}, %[[ACC]] {inputPrecision = #tile<input_precision tf32>} :
// TWO-NOT: tile.warp_group_dot_wait
// TWO: scf.yield %{{[^ ]*}}, %[[D]], {{.*}}
// TWO-NEXT: }
// TWO-NEXT: tile.async_wait {pending = 0 : i32}
// TWO-NOT: tile.warp_group_dot_wait
// TWO: tile.store %{{.*}}, %[[R]]#1 :
module attributes {tile.num_warps = 8 : i32} {
  func.func @big(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pc: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %K: i32 {tile.divisibility = 16 : i32}, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) {
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

// The same loop, without masks, on m64n32 instructions: B's swizzle follows
// the instruction's N (32 fp16, 64 bytes), not the tile's (64). The copies'
// masks are only i + 2 * step < ub. This kernel is the reference the
// unchanged cases below differ from in one point each.
#blocked = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#blocked1 = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 32, 16]>
// CHECK: #[[S64:shared[0-9]*]] = #tile.shared<contiguousDim = 1, swizzle = 64>
// CHECK-NOT: #tile.shared
// CHECK-LABEL: func.func @instr_n
// CHECK: %[[RA:.*]] = tile.local_alloc : <3x64x32xf16, #[[S64]]>
// CHECK: %[[RB:.*]] = tile.local_alloc : <3x32x64xf16, #[[S64]]>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[UB:.*]] step
// CHECK: %[[IV2:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK-NEXT: %[[VALID:.*]] = arith.cmpi slt, %[[IV2]], %[[UB]] : i32
// CHECK-NEXT: %[[WA:.*]] = tile.smem_slot %[[RA]]
// CHECK-NEXT: %[[MA:.*]] = tile.splat %[[VALID]] : tensor<64x32xi1, #blocked{{[0-9]*}}>
// CHECK-NEXT: tile.async_copy %{{.*}}, %[[WA]], %[[MA]] :
// CHECK: tile.warp_group_dot {{.*}} : !tile.smem<64x32xf16, #[[S64]]>, <32x64xf16, #[[S64]]> -> tensor<64x64xf32, #mma>
module attributes {tile.num_warps = 4 : i32} {
  func.func @instr_n(%pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %ub: i32, %lda: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32, #mma> {
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
