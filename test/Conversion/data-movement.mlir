// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// Rows to columns: every thread stores its registers at their row-major
// index, then loads its new registers, with barriers before and after the
// stores. Registers holding consecutive elements of a row go in one vector
// (the rows' four a thread: 16 bytes); the columns' are loaded one by one.
// Back to rows, the stores are single and the loads vectors.
#rows = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#cols = #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @convert_back
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
  // CHECK-LABEL: llvm.func @convert
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  func.func @convert_back(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #cols>
    %x = tile.load %ps : (tensor<32x32x!tile.ptr<f32>, #cols>) -> tensor<32x32xf32, #cols>
    %y = tile.convert_layout %x : tensor<32x32xf32, #cols> -> tensor<32x32xf32, #rows>
    %qs = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #rows>
    tile.store %qs, %y : tensor<32x32x!tile.ptr<f32>, #rows>, tensor<32x32xf32, #rows>
    return
  }
  func.func @convert(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #rows>
    %x = tile.load %ps : (tensor<32x32x!tile.ptr<f32>, #rows>) -> tensor<32x32xf32, #rows>
    %y = tile.convert_layout %x : tensor<32x32xf32, #rows> -> tensor<32x32xf32, #cols>
    %qs = tile.splat %p : tensor<32x32x!tile.ptr<f32>, #cols>
    tile.store %qs, %y : tensor<32x32x!tile.ptr<f32>, #cols>, tensor<32x32xf32, #cols>
    return
  }
}

// -----

// expand_dims from the slice of its result's layout, broadcast within one
// layout and a conversion between equal layouts only pick registers. i1
// tiles are stored as bytes when they do go through shared memory.
#rows = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#other = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 64 : i32} {
  // CHECK-LABEL: llvm.func @registers_only
  // CHECK-NOT: nvvm.barrier0
  // CHECK: llvm.return
  func.func @registers_only(%p: !tile.ptr<i32>) {
    %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #rows>>
    %e = tile.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #rows>> -> tensor<32x1xi32, #rows>
    %b = tile.broadcast %e : tensor<32x1xi32, #rows> -> tensor<32x32xi32, #rows>
    %ps = tile.splat %p : tensor<32x32x!tile.ptr<i32>, #rows>
    tile.store %ps, %b : tensor<32x32x!tile.ptr<i32>, #rows>, tensor<32x32xi32, #rows>
    return
  }
  // CHECK-LABEL: llvm.func @bool_exchange
  // CHECK: nvvm.barrier0
  // CHECK: llvm.zext %{{.*}} : i1 to i8
  // CHECK: llvm.store %{{.*}}, %{{.*}} : i8, !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i8
  // CHECK: llvm.icmp "ne"
  func.func @bool_exchange(%p: !tile.ptr<i32>, %n: i32) {
    %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #rows>>
    %ns = tile.splat %n : tensor<32xi32, #tile.slice<dim = 1, parent = #rows>>
    %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #tile.slice<dim = 1, parent = #rows>>
    %mc = tile.convert_layout %m : tensor<32xi1, #tile.slice<dim = 1, parent = #rows>> -> tensor<32xi1, #tile.slice<dim = 1, parent = #other>>
    %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #tile.slice<dim = 1, parent = #other>>
    %rc = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #tile.slice<dim = 1, parent = #other>>
    tile.store %ps, %rc, %mc : tensor<32x!tile.ptr<i32>, #tile.slice<dim = 1, parent = #other>>, tensor<32xi32, #tile.slice<dim = 1, parent = #other>>, tensor<32xi1, #tile.slice<dim = 1, parent = #other>>
    return
  }
}

// -----

// trans reads the transposed row-major index; reshape reads the same
// row-major index in the new shape.
#rows = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#flat = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32, tile.shared = 4096 : i32} {
  // CHECK-LABEL: llvm.func @trans_reshape
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load
  // CHECK: nvvm.barrier0
  // CHECK: llvm.store
  // CHECK: nvvm.barrier0
  // CHECK: llvm.load
  func.func @trans_reshape(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<16x64x!tile.ptr<f32>, #rows>
    %x = tile.load %ps : (tensor<16x64x!tile.ptr<f32>, #rows>) -> tensor<16x64xf32, #rows>
    %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x64xf32, #rows> -> tensor<64x16xf32, #rows>
    %f = tile.reshape %t : tensor<64x16xf32, #rows> -> tensor<1024xf32, #flat>
    %qs = tile.splat %p : tensor<1024x!tile.ptr<f32>, #flat>
    tile.store %qs, %f : tensor<1024x!tile.ptr<f32>, #flat>, tensor<1024xf32, #flat>
    return
  }
}

// -----

// The registers of a vector need not come first: here register bit 0 steps
// a row and bits 1 and 2 step the columns by 1 and 2, so each thread reads
// its two rows of four as two 16-byte vectors (registers 0, 2, 4, 6 and 1,
// 3, 5, 7), as the stores of tensor-core operands pack theirs.
#rows = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]>
#lin = #tile.linear<shape = [16, 4], registers = [[1, 0], [0, 1], [0, 2]], lanes = [[2, 0], [4, 0], [8, 0], [0, 0], [0, 0]], warps = []>
module attributes {tile.num_warps = 1 : i32, tile.shared = 256 : i32} {
  // CHECK-LABEL: llvm.func @vector_bits_not_first
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
  // CHECK-NOT: llvm.load %{{.*}} : !llvm.ptr<3>
  func.func @vector_bits_not_first(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<16x4x!tile.ptr<f32>, #rows>
    %x = tile.load %ps : (tensor<16x4x!tile.ptr<f32>, #rows>) -> tensor<16x4xf32, #rows>
    %y = tile.convert_layout %x : tensor<16x4xf32, #rows> -> tensor<16x4xf32, #lin>
    %qs = tile.splat %p : tensor<16x4x!tile.ptr<f32>, #lin>
    tile.store %qs, %y : tensor<16x4x!tile.ptr<f32>, #lin>, tensor<16x4xf32, #lin>
    return
  }
}
