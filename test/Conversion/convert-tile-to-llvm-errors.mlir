// RUN: tilec-opt %s -split-input-file -verify-diagnostics -convert-tile-to-llvm

// What the lowering rejects, with an error rather than a crash or wrong code.

#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @atomic_f16(%p: !tile.ptr<f16>) {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f16>, #d>
    %one = arith.constant dense<1.0> : tensor<32xf16, #d>
    // expected-error @+2 {{atomic max on 'f16' is not supported}}
    // expected-error @+1 {{failed to legalize operation 'tile.atomic_rmw'}}
    %o = tile.atomic_rmw max, %ps, %one : (tensor<32x!tile.ptr<f16>, #d>, tensor<32xf16, #d>) -> tensor<32xf16, #d>
    return
  }
}

// -----

#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @no_smem(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #d>
    %x = tile.load %ps : (tensor<32x!tile.ptr<f32>, #d>) -> tensor<32xf32, #d>
    // expected-error @+2 {{needs 128 bytes of shared memory but the module reserves 0: run tile-allocate-shared-memory first}}
    // expected-error @+1 {{failed to legalize operation 'tile.trans'}}
    %y = tile.trans %x {order = array<i32: 0>} : tensor<32xf32, #d> -> tensor<32xf32, #tile.blocked<sizePerThread = [32], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>
    return
  }
}

// -----

#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @warps(%p: !tile.ptr<f32>) {
    // expected-error @+1 {{has a tile laid out over 2 warps in a module of 1}}
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #d>
    return
  }
}

// -----

#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @shape(%p: !tile.ptr<f32>) {
    // expected-error @+1 {{has a tile whose layout cannot be lowered}}
    %ps = tile.splat %p : tensor<48x!tile.ptr<f32>, #d>
    return
  }
}

// -----

#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @dense(%p: !tile.ptr<i32>) {
    // expected-error @+1 {{non-splat constant tiles are not supported}}
    %c = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : tensor<32xi32, #d>
    %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #d>
    tile.store %ps, %c : tensor<32x!tile.ptr<i32>, #d>, tensor<32xi32, #d>
    return
  }
}

// -----

#d2 = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]>
#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  func.func @reduce_layout(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<8x8x!tile.ptr<f32>, #d2>
    %x = tile.load %ps : (tensor<8x8x!tile.ptr<f32>, #d2>) -> tensor<8x8xf32, #d2>
    // expected-error @+2 {{result layout must be the slice of the operand layout along the reduced axis}}
    // expected-error @+1 {{failed to legalize operation 'tile.reduce'}}
    %s = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<8x8xf32, #d2> -> tensor<8xf32, #d1>
    return
  }
}

// -----

// mbarriers need the offset tile-allocate-shared-memory gives them, inside
// the shared memory the module reserves.
module attributes {tile.num_warps = 4 : i32, tile.shared = 1024 : i32} {
  func.func @barrier_no_offset() {
    // expected-error @+2 {{has no offset: run tile-allocate-shared-memory first}}
    // expected-error @+1 {{failed to legalize operation 'tile.barrier_alloc'}}
    %bars = tile.barrier_alloc : !tile.barriers<2>
    return
  }
}

// -----

module attributes {tile.num_warps = 4 : i32, tile.shared = 1024 : i32} {
  func.func @barrier_past_shared() {
    // expected-error @+2 {{needs 1040 bytes of shared memory but the module reserves 1024: run tile-allocate-shared-memory first}}
    // expected-error @+1 {{failed to legalize operation 'tile.barrier_alloc'}}
    %bars = tile.barrier_alloc {offset = 1024 : i64} : !tile.barriers<2>
    return
  }
}

// -----

// TMA writes the tensor's rows contiguously: it cannot fill a matrix stored
// column by column (contiguousDim 0).
#k = #tile.shared<contiguousDim = 0, swizzle = 128>
module attributes {tile.num_warps = 4 : i32, tile.shared = 8208 : i32} {
  func.func @tma_column_major(%map: !tile.tensormap, %i: i32, %valid: i1) {
    %slot = tile.local_alloc {offset = 0 : i64} : !tile.smem<64x64xf16, #k>
    %bars = tile.barrier_alloc {offset = 8192 : i64} : !tile.barriers<1>
    // expected-error @+2 {{TMA writes rows of the tensor contiguously: the destination must store dimension 1 contiguously}}
    // expected-error @+1 {{failed to legalize operation 'tile.async_tma_copy'}}
    tile.async_tma_copy %map[%i, %i], %slot, %bars[%i], %valid : !tile.tensormap, !tile.smem<64x64xf16, #k>, !tile.barriers<1>
    return
  }
}
