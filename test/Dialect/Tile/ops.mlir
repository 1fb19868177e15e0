// RUN: tilec-opt %s | tilec-opt | FileCheck %s

// Layouts print as aliases.
// CHECK: #[[B:blocked]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
// CHECK: #linear = #tile.linear<shape = [4, 2], registers = {{\[}}[0, 1]], lanes = {{\[}}[1, 0], [2, 0], [0, 0], [0, 0], [0, 0]], warps = {{\[}}[0, 0]]>
// CHECK: #mma = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>
// CHECK: #[[MT:mma1]] = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 8], transposed = true>
// CHECK: #[[SA:shared]] = #tile.shared<contiguousDim = 1, swizzle = 64>
// CHECK: #[[SB:shared1]] = #tile.shared<contiguousDim = 0, swizzle = 32>

// CHECK-LABEL: func.func @ops
func.func @ops(%p: !tile.ptr<f16>, %n: i32) {
  // CHECK: tile.program_id 0 : i32
  %pid = tile.program_id 0 : i32
  // CHECK: tile.num_programs 2 : i32
  %np = tile.num_programs 2 : i32
  // CHECK: tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // CHECK: tile.splat %{{.*}} : tensor<64x!tile.ptr<f16>>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f16>>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %ns = tile.splat %n : tensor<64xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf16>
  // CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} : (tensor<64x!tile.ptr<f16>>, tensor<64xi1>, tensor<64xf16>) -> tensor<64xf16>
  %v = tile.load %pp, %m other %zero : (tensor<64x!tile.ptr<f16>>, tensor<64xi1>, tensor<64xf16>) -> tensor<64xf16>
  // CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f16>>, tensor<64xf16>, tensor<64xi1>
  tile.store %pp, %v, %m : tensor<64x!tile.ptr<f16>>, tensor<64xf16>, tensor<64xi1>
  // CHECK: tile.load %{{.*}} : (!tile.ptr<f16>) -> f16
  %s = tile.load %p : (!tile.ptr<f16>) -> f16
  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.ptr<f16>, f16
  tile.store %p, %s : !tile.ptr<f16>, f16
  return
}

// CHECK-LABEL: func.func @layouts
// CHECK-SAME: tensor<128xf32, #[[B]]>
func.func @layouts(%t: tensor<128xf32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>) {
  return
}

// CHECK-LABEL: func.func @shapes_and_reductions
func.func @shapes_and_reductions(%x: tensor<16x64xf32>, %a: tensor<16x32xf16>, %b: tensor<32x64xf16>, %p: tensor<64x!tile.ptr<f32>>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // CHECK: tile.expand_dims %{{.*}} {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // CHECK: tile.broadcast %{{.*}} : tensor<1x64xi32> -> tensor<16x64xi32>
  %b2 = tile.broadcast %e : tensor<1x64xi32> -> tensor<16x64xi32>
  // CHECK: tile.reshape %{{.*}} : tensor<16x64xi32> -> tensor<1024xi32>
  %rs = tile.reshape %b2 : tensor<16x64xi32> -> tensor<1024xi32>
  // CHECK: tile.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
  // CHECK: tile.reduce %{{.*}} {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<16x64xf32> -> tensor<16xf32>
  %m = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<16x64xf32> -> tensor<16xf32>
  // CHECK: tile.reduce %{{.*}} {axis = 0 : i32, kind = #tile<reduce_kind argmax>} : tensor<16xf32> -> i32
  %am = tile.reduce %m {axis = 0 : i32, kind = #tile<reduce_kind argmax>} : tensor<16xf32> -> i32
  // CHECK: tile.scan %{{.*}} {axis = 0 : i32, reverse = false} : tensor<64xi32>
  %cs = tile.scan %r {axis = 0 : i32, reverse = false} : tensor<64xi32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}] {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
  %c0 = arith.constant 0 : i32
  %gi = tile.splat %c0 : tensor<16x8xi32>
  %g = tile.gather %x[%gi] {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
  // CHECK: tile.inline_asm "shl.b32 $0, $1, 3;", "=r,r"(%{{.*}}) {packed = 1 : i32, pure = true} : (tensor<64xi32>) -> tensor<64xi32>
  %sh = tile.inline_asm "shl.b32 $0, $1, 3;", "=r,r" (%r) {packed = 1 : i32, pure = true} : (tensor<64xi32>) -> tensor<64xi32>
  // A clobber binds no register.
  // CHECK: tile.inline_asm "shl.b32 $0, $1, 3;", "=r,r,~{memory}"(%{{.*}})
  %cl = tile.inline_asm "shl.b32 $0, $1, 3;", "=r,r,~{memory}" (%r) {packed = 1 : i32, pure = false} : (tensor<64xi32>) -> tensor<64xi32>
  // CHECK: %{{.*}}:2 = tile.inline_asm "{{.*}}", "=r,=r,=r,=r,r,r"(%{{.*}}) {packed = 2 : i32, pure = false} : (tensor<64xi32>) -> (tensor<64xi32>, tensor<64xf32>)
  %two:2 = tile.inline_asm "mov.b32 $0, $4; mov.b32 $1, $5; mov.b32 $2, $4; mov.b32 $3, $5;", "=r,=r,=r,=r,r,r" (%r) {packed = 2 : i32, pure = false} : (tensor<64xi32>) -> (tensor<64xi32>, tensor<64xf32>)
  // CHECK: tile.histogram %{{.*}} : (tensor<64xi32>) -> tensor<16xi32>
  %h = tile.histogram %r : (tensor<64xi32>) -> tensor<16xi32>
  // CHECK: tile.histogram %{{.*}}, %{{.*}} : (tensor<64xi32>, tensor<64xi1>) -> tensor<8xi32>
  %true = arith.constant true
  %hm = tile.splat %true : tensor<64xi1>
  %h2 = tile.histogram %r, %hm : (tensor<64xi32>, tensor<64xi1>) -> tensor<8xi32>
  // CHECK: %{{.*}}:2 = tile.combine_reduce %{{.*}}, %{{.*}} {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16x64xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
  // CHECK: tile.combine_yield %{{.*}}, %{{.*}} : f32, f32
  %pr:2 = tile.combine_reduce %x, %x {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16x64xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
    %s = arith.addf %a0, %a1 : f32
    %mx = arith.maximumf %b0, %b1 : f32
    tile.combine_yield %s, %mx : f32, f32
  }
  // CHECK: tile.combine_scan %{{.*}} {axis = 0 : i32, reverse = true} : (tensor<64xi32>) -> (tensor<64xi32>) {
  %xs = tile.combine_scan %r {axis = 0 : i32, reverse = true} : (tensor<64xi32>) -> (tensor<64xi32>) {
  ^bb0(%u: i32, %v: i32):
    %w = arith.xori %u, %v : i32
    tile.combine_yield %w : i32
  }
  // CHECK: tile.map_elementwise %{{.*}}, %{{.*}} {pack = 2 : i32} : (tensor<64xi32>, tensor<64xi32>) -> (tensor<64xi32>) {
  // CHECK: scf.if
  // CHECK: tile.map_elementwise_yield %{{.*}}, %{{.*}} : i32, i32
  %me = tile.map_elementwise %r, %xs {pack = 2 : i32} : (tensor<64xi32>, tensor<64xi32>) -> (tensor<64xi32>) {
  ^bb0(%r0: i32, %r1: i32, %x0: i32, %x1: i32):
    %lt = arith.cmpi slt, %r0, %x0 : i32
    %sel = scf.if %lt -> (i32) {
      scf.yield %x1 : i32
    } else {
      %sum = arith.addi %r0, %r1 : i32
      scf.yield %sum : i32
    }
    tile.map_elementwise_yield %sel, %r1 : i32, i32
  }
  %c = arith.constant dense<0.0> : tensor<16x64xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tile<input_precision tf32>} : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf32>
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : tensor<16x32xf16>, tensor<32x64xf16> -> tensor<16x64xf32>
  %ba = arith.constant dense<1.0> : tensor<2x16x32xf16>
  %bb = arith.constant dense<1.0> : tensor<2x32x16xf16>
  %bc = arith.constant dense<0.0> : tensor<2x16x16xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x32xf16>, tensor<2x32x16xf16> -> tensor<2x16x16xf32>
  %bd = tile.dot %ba, %bb, %bc {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x32xf16>, tensor<2x32x16xf16> -> tensor<2x16x16xf32>
  %v = arith.constant dense<1.0> : tensor<64xf32>
  // CHECK: tile.atomic_rmw add, %{{.*}}, %{{.*}} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  %old = tile.atomic_rmw add, %p, %v : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tile.atomic_rmw max, %{{.*}}, %{{.*}} {scope = #tile<scope cta>, sem = #tile<sem relaxed>}
  %o2 = tile.atomic_rmw max, %p, %v {sem = #tile<sem relaxed>, scope = #tile<scope cta>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tile.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} {sem = #tile<sem acquire>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %o3 = tile.atomic_cas %p, %v, %old {sem = #tile<sem acquire>} : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  // CHECK: tile.debug_barrier
  tile.debug_barrier
  // CHECK: tile.grid_dep_wait
  tile.grid_dep_wait
  // CHECK: tile.grid_dep_launch_dependents
  tile.grid_dep_launch_dependents
  // CHECK: tile.extern_elementwise "__nv_powif"(%{{.*}}, %{{.*}}) : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  %pw = tile.extern_elementwise "__nv_powif"(%v, %r) : (tensor<64xf32>, tensor<64xi32>) -> tensor<64xf32>
  return
}

// CHECK-LABEL: func.func @slice_layout
// CHECK-SAME: #tile.slice<dim = 1, parent = #blocked1>
func.func @slice_layout(%t: tensor<16xf32, #tile.slice<dim = 1, parent = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>>>) {
  return
}

// CHECK-LABEL: func.func @mma_layout
// CHECK-SAME: tensor<128x128xf32, #mma>
// CHECK-SAME: #tile.slice<dim = 1, parent = #mma>
func.func @mma_layout(%t: tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>,
                      %s: tensor<128xf32, #tile.slice<dim = 1, parent = #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>>) {
  return
}

// A linear layout lists its bases (nested, one coordinate per dimension)
// and prints as an alias.
// CHECK-LABEL: func.func @linear_layout
// CHECK-SAME: tensor<4x2xf32, #linear>
func.func @linear_layout(%t: tensor<4x2xf32, #tile.linear<shape = [4, 2], registers = [[0, 1]], lanes = [[1, 0], [2, 0], [0, 0], [0, 0], [0, 0]], warps = [[0, 0]]>>) {
  return
}

// A transposed mma layout prints its flag; the default (false) is left out.
// CHECK-LABEL: func.func @mma_transposed
// CHECK-SAME: tensor<256x128xf32, #[[MT]]>
// CHECK-SAME: tensor<64x64xf32, #mma>
func.func @mma_transposed(%t: tensor<256x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256, 8], transposed = true>>,
                          %u: tensor<64x64xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16], transposed = false>>) {
  return
}

// The GPU-level ops of pipelined loops: shared-memory buffers (a ring and a
// single matrix), a slot of the ring, asynchronous copies with and without
// a mask, commit and wait, and the product of two shared matrices: waited
// for, or left in flight (isAsync) until warp_group_dot_wait (one product
// still pending, then none). Inside tile ops !tile.smem prints without its
// prefix; #tile.shared as an alias.
// CHECK-LABEL: func.func @shared_memory
// CHECK-SAME: %[[ARG:[^:]*]]: !tile.smem<128x32xf16, #[[SA]]>
func.func @shared_memory(%p: tensor<128x32x!tile.ptr<f16>, #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>>,
                         %m: tensor<128x32xi1, #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>>,
                         %i: i32,
                         %arg: !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>,
                         %acc: tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>) -> tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>> {
  // CHECK: %[[RA:.*]] = tile.local_alloc {offset = 0 : i64} : <3x128x32xf16, #[[SA]]>
  %ra = tile.local_alloc {offset = 0 : i64} : !tile.smem<3x128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  // CHECK: %[[RB:.*]] = tile.local_alloc : <32x128xf16, #[[SB]]>
  %rb = tile.local_alloc : !tile.smem<32x128xf16, #tile.shared<contiguousDim = 0, swizzle = 32>>
  // CHECK: %[[SLOT:.*]] = tile.smem_slot %[[RA]][%{{.*}}] : <3x128x32xf16, #[[SA]]> -> <128x32xf16, #[[SA]]>
  %slot = tile.smem_slot %ra[%i] : !tile.smem<3x128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>> -> !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  // CHECK: tile.async_copy %{{.*}}, %[[SLOT]], %{{.*}} : tensor<128x32x!tile.ptr<f16>, #[[BL:blocked[0-9]*]]>, <128x32xf16, #[[SA]]>, tensor<128x32xi1, #[[BL]]>
  tile.async_copy %p, %slot, %m : tensor<128x32x!tile.ptr<f16>, #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>>, !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>, tensor<128x32xi1, #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>>
  // CHECK: tile.async_copy %{{.*}}, %[[ARG]] : tensor<128x32x!tile.ptr<f16>, #[[BL]]>, <128x32xf16, #[[SA]]>{{$}}
  tile.async_copy %p, %arg : tensor<128x32x!tile.ptr<f16>, #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]>>, !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  // CHECK: tile.async_commit_group
  tile.async_commit_group
  // CHECK: tile.async_wait {pending = 2 : i32}
  tile.async_wait {pending = 2 : i32}
  // CHECK: tile.async_wait {noProxyFence, pending = 0 : i32}
  tile.async_wait {noProxyFence, pending = 0 : i32}
  // CHECK: tile.smem_trans %[[SLOT]] : <128x32xf16, #[[SA]]> -> <32x128xf16, #{{.*}}>
  %tr = tile.smem_trans %slot : !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>> -> !tile.smem<32x128xf16, #tile.shared<contiguousDim = 0, swizzle = 64>>
  // CHECK: %[[D:.*]] = tile.warp_group_dot %[[SLOT]], %[[RB]], %{{.*}} {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x32xf16, #[[SA]]>, <32x128xf16, #[[SB]]> -> tensor<128x128xf32, #mma>
  %d = tile.warp_group_dot %slot, %rb, %acc {inputPrecision = #tile<input_precision tf32>} : !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>, !tile.smem<32x128xf16, #tile.shared<contiguousDim = 0, swizzle = 32>> -> tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>
  // CHECK: %[[E:.*]] = tile.warp_group_dot %[[SLOT]], %[[RB]], %[[D]] {inputPrecision = #tile<input_precision ieee>, isAsync} : !tile.smem<128x32xf16, #[[SA]]>, <32x128xf16, #[[SB]]> -> tensor<128x128xf32, #mma>
  %e = tile.warp_group_dot %slot, %rb, %d {inputPrecision = #tile<input_precision ieee>, isAsync} : !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>, !tile.smem<32x128xf16, #tile.shared<contiguousDim = 0, swizzle = 32>> -> tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>
  // CHECK: %[[W:.*]] = tile.warp_group_dot_wait %[[E]] {pending = 1 : i32} : tensor<128x128xf32, #mma>
  %w = tile.warp_group_dot_wait %e {pending = 1 : i32} : tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>
  // CHECK: %[[F:.*]] = tile.warp_group_dot_wait %[[W]] {pending = 0 : i32} : tensor<128x128xf32, #mma>
  %f = tile.warp_group_dot_wait %w {pending = 0 : i32} : tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>
  // CHECK: return %[[F]]
  return %f : tensor<128x128xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]>>
}

// Loads of tensor descriptors also name the descriptor: its base, the block
// offsets, its extents and strides (elements, any integer type), with or
// without mask and padding; a 1-D one too.
// CHECK-LABEL: func.func @descriptor_load
// CHECK-SAME: (%[[P:[^:]*]]: tensor<64x32x!tile.ptr<f16>>, %[[MASK:[^:]*]]: tensor<64x32xi1>, %[[B:[^:]*]]: !tile.ptr<f16>, %[[M:[^:]*]]: i32, %[[K:[^:]*]]: i32, %[[S:[^:]*]]: i64, %[[OM:[^:]*]]: i32, %[[OK:[^:]*]]: i32, %[[Q:[^:]*]]: tensor<128x!tile.ptr<f32>>, %[[BQ:[^:]*]]: !tile.ptr<f32>, %[[N:[^:]*]]: i64)
func.func @descriptor_load(%p: tensor<64x32x!tile.ptr<f16>>, %mask: tensor<64x32xi1>, %b: !tile.ptr<f16>, %m: i32, %k: i32, %s: i64, %om: i32, %ok: i32,
                           %q: tensor<128x!tile.ptr<f32>>, %bq: !tile.ptr<f32>, %n: i64) -> (tensor<64x32xf16>, tensor<64x32xf16>, tensor<128xf32>) {
  // CHECK: %[[C1:.*]] = arith.constant 1 : i64
  %c1 = arith.constant 1 : i64
  // CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf16>
  // CHECK: tile.load %[[P]], %[[MASK]] other %[[Z]] descriptor %[[B]][%[[OM]], %[[OK]]] shape(%[[M]], %[[K]]) strides(%[[S]], %[[C1]]) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1>, tensor<64x32xf16>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16>
  %v = tile.load %p, %mask other %z descriptor %b[%om, %ok] shape(%m, %k) strides(%s, %c1) : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1>, tensor<64x32xf16>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16>
  // CHECK: tile.load %[[P]] descriptor %[[B]][%[[OM]], %[[OK]]] shape(%[[M]], %[[K]]) strides(%[[S]], %[[C1]]) : (tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16>
  %w = tile.load %p descriptor %b[%om, %ok] shape(%m, %k) strides(%s, %c1) : (tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f16>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16>
  // CHECK: tile.load %[[Q]] descriptor %[[BQ]][%[[OM]]] shape(%[[N]]) strides(%[[C1]]) : (tensor<128x!tile.ptr<f32>>, !tile.ptr<f32>, i64, i64, i32) -> tensor<128xf32>
  %x = tile.load %q descriptor %bq[%om] shape(%n) strides(%c1) : (tensor<128x!tile.ptr<f32>>, !tile.ptr<f32>, i64, i64, i32) -> tensor<128xf32>
  return %v, %w, %x : tensor<64x32xf16>, tensor<64x32xf16>, tensor<128xf32>
}

// The TMA ops of pipelined loops and their types: mbarriers (placed at an
// offset, or not yet), the barrier of every thread, arming an mbarrier for
// a stage's bytes, a TMA copy through a tensor map into a slot counted on
// an mbarrier, and waiting for an mbarrier's phase.
// CHECK-LABEL: func.func @tma
// CHECK-SAME: (%[[MAP:[^:]*]]: !tile.tensormap, %[[BARG:[^:]*]]: !tile.barriers<2>, %[[OM:[^:]*]]: i32, %[[OK:[^:]*]]: i32, %[[I:[^:]*]]: i32, %[[VALID:[^:]*]]: i1, %[[PHASE:[^:]*]]: i32)
func.func @tma(%map: !tile.tensormap, %barg: !tile.barriers<2>, %om: i32, %ok: i32, %i: i32, %valid: i1, %phase: i32) {
  // CHECK: %[[RING:.*]] = tile.local_alloc {offset = 0 : i64} : <3x128x32xf16, #[[SA]]>
  %ring = tile.local_alloc {offset = 0 : i64} : !tile.smem<3x128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  // CHECK: %[[BARS:.*]] = tile.barrier_alloc {offset = 24576 : i64} : <3>
  %bars = tile.barrier_alloc {offset = 24576 : i64} : !tile.barriers<3>
  // CHECK: tile.barrier_alloc : <1>{{$}}
  %one = tile.barrier_alloc : !tile.barriers<1>
  // CHECK: tile.cta_barrier{{$}}
  tile.cta_barrier
  // CHECK: tile.cta_barrier {asyncProxy}{{$}}
  tile.cta_barrier {asyncProxy}
  // CHECK: tile.barrier_expect %[[BARS]][%[[I]]], %[[VALID]] {bytes = 8192 : i32} : <3>
  tile.barrier_expect %bars[%i], %valid {bytes = 8192 : i32} : !tile.barriers<3>
  // CHECK: %[[SLOT:.*]] = tile.smem_slot %[[RING]][%[[I]]]
  %slot = tile.smem_slot %ring[%i] : !tile.smem<3x128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>> -> !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  // CHECK: tile.async_tma_copy %[[MAP]][%[[OM]], %[[OK]]], %[[SLOT]], %[[BARS]][%[[I]]], %[[VALID]] : !tile.tensormap, <128x32xf16, #[[SA]]>, <3>
  tile.async_tma_copy %map[%om, %ok], %slot, %bars[%i], %valid : !tile.tensormap, !tile.smem<128x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>, !tile.barriers<3>
  // CHECK: tile.barrier_wait %[[BARS]][%[[I]]], %[[PHASE]] : <3>
  tile.barrier_wait %bars[%i], %phase : !tile.barriers<3>
  // CHECK: tile.barrier_wait %[[BARG]][%[[I]]], %[[PHASE]] : <2>
  tile.barrier_wait %barg[%i], %phase : !tile.barriers<2>
  // CHECK: tile.barrier_invalidate %[[BARG]] : <2>
  tile.barrier_invalidate %barg : !tile.barriers<2>
  return
}

// The ping-pong ops of a deferred loop: mbarriers expecting several
// arrivals (one arrival is the default, not printed), a thread's copies
// and a warp arriving on them, and the warp groups' turns.
// CHECK-LABEL: func.func @ping_pong
func.func @ping_pong(%i: i32) {
  // CHECK: %[[FULL:.*]] = tile.barrier_alloc {arrivals = 256 : i32} : <3>
  %full = tile.barrier_alloc {arrivals = 256 : i32} : !tile.barriers<3>
  // CHECK: tile.barrier_alloc : <3>{{$}}
  %one = tile.barrier_alloc {arrivals = 1 : i32} : !tile.barriers<3>
  // CHECK: tile.async_copy_arrive %[[FULL]][%{{.*}}] : <3>
  tile.async_copy_arrive %full[%i] : !tile.barriers<3>
  // CHECK: tile.barrier_arrive %[[FULL]][%{{.*}}] : <3>
  tile.barrier_arrive %full[%i] : !tile.barriers<3>
  // CHECK: tile.start_turns{{$}}
  tile.start_turns
  // CHECK: tile.await_turn{{$}}
  tile.await_turn
  // CHECK: tile.pass_turn{{$}}
  tile.pass_turn
  // CHECK: tile.end_turns{{$}}
  tile.end_turns
  return
}


// A descriptor store and a TMA store round-trip.
#bts = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @tma_store(
func.func @tma_store(%map: !tile.tensormap, %base: !tile.ptr<f16>, %ptrs: tensor<64x128x!tile.ptr<f16>, #bts>, %v: tensor<64x128xf16, #bts>, %m: i32, %n: i64, %s: i64) {
  // CHECK: tile.store %{{.*}}, %{{.*}} descriptor %{{.*}}[%{{.*}}, %{{.*}}] shape(%{{.*}}, %{{.*}}) strides(%{{.*}}, %{{.*}}) {descUnchecked} : tensor<64x128x!tile.ptr<f16>, #{{.*}}>, tensor<64x128xf16, #{{.*}}>, !tile.ptr<f16>, i64, i64, i64, i64, i32, i32
  tile.store %ptrs, %v descriptor %base[%m, %m] shape(%n, %n) strides(%s, %s) {descUnchecked} : tensor<64x128x!tile.ptr<f16>, #bts>, tensor<64x128xf16, #bts>, !tile.ptr<f16>, i64, i64, i64, i64, i32, i32
  // CHECK: tile.async_tma_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tile.tensormap, tensor<64x128xf16, #{{.*}}>
  tile.async_tma_store %map[%m, %m], %v : !tile.tensormap, tensor<64x128xf16, #bts>
  return
}

// A register tile stored into one slot of a shared-memory ring (the B
// operand of a tf32 product, staged through registers K-major).
#bls = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: func.func @local_store(
// CHECK-SAME: %[[V:[^:]*]]: tensor<32x128xf32, #[[BLS:blocked[0-9]*]]>, %[[I:[^:]*]]: i32)
func.func @local_store(%v: tensor<32x128xf32, #bls>, %i: i32) {
  // CHECK: %[[RING:.*]] = tile.local_alloc : <3x32x128xf32, #[[SB]]>
  %ring = tile.local_alloc : !tile.smem<3x32x128xf32, #tile.shared<contiguousDim = 0, swizzle = 32>>
  // CHECK: %[[SLOT:.*]] = tile.smem_slot %[[RING]][%[[I]]] : <3x32x128xf32, #[[SB]]> -> <32x128xf32, #[[SB]]>
  %slot = tile.smem_slot %ring[%i] : !tile.smem<3x32x128xf32, #tile.shared<contiguousDim = 0, swizzle = 32>> -> !tile.smem<32x128xf32, #tile.shared<contiguousDim = 0, swizzle = 32>>
  // CHECK: tile.local_store %[[V]], %[[SLOT]] : tensor<32x128xf32, #[[BLS]]>, <32x128xf32, #[[SB]]>{{$}}
  tile.local_store %v, %slot : tensor<32x128xf32, #bls>, !tile.smem<32x128xf32, #tile.shared<contiguousDim = 0, swizzle = 32>>
  return
}
