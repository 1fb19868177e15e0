// RUN: tilec-opt %s -split-input-file -tile-reread-footprint | FileCheck %s

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// Two loops from 0 to argument 1 by 1024 read the same argument (a layer
// norm's passes over a row, the pointer carried by one of them): 1024 f16,
// 2048 bytes, for every 1024 of %n. The second loop's bound goes through a
// cast; the first loop decides.
// CHECK: module attributes {tile.reread = array<i64: 1, 2048, 1024>}
module {
  func.func @two_passes(%x: !tile.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %step = arith.constant dense<1024> : tensor<1024xi32, #b8>
    %px = tile.splat %x : tensor<1024x!tile.ptr<f16>, #b8>
    %q = scf.for %i = %c0 to %n step %c1024 iter_args(%p = %px) -> (tensor<1024x!tile.ptr<f16>, #b8>) : i32 {
      %v = tile.load %p : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
      %next = tile.addptr %p, %step : tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xi32, #b8>
      scf.yield %next : tensor<1024x!tile.ptr<f16>, #b8>
    }
    %c0i = arith.constant 0 : index
    %c1024i = arith.constant 1024 : index
    %ni = arith.index_cast %n : i32 to index
    scf.for %i = %c0i to %ni step %c1024i {
      %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
      tile.store %px, %v : tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xf16, #b8>
    }
    return
  }
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// Both loads of one iteration count (two 512-element f32 halves of a
// chunk: 4096 bytes an iteration), and a constant trip count gives a
// constant footprint: 3 iterations of 4096 bytes.
// CHECK: module attributes {tile.reread = array<i64: -1, 12288, 1>}
module {
  func.func @constant_trips(%x: !tile.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %c1 = arith.constant 1 : i32
    %px = tile.splat %x : tensor<512x!tile.ptr<f32>, #b8>
    scf.for %i = %c0 to %c3 step %c1 : i32 {
      %v = tile.load %px : (tensor<512x!tile.ptr<f32>, #b8>) -> tensor<512xf32, #b8>
      %w = tile.load %px : (tensor<512x!tile.ptr<f32>, #b8>) -> tensor<512xf32, #b8>
    }
    scf.for %i = %c0 to %c3 step %c1 : i32 {
      %v = tile.load %px : (tensor<512x!tile.ptr<f32>, #b8>) -> tensor<512xf32, #b8>
    }
    return
  }
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// Loops that read different arguments read nothing twice.
// CHECK-NOT: tile.reread
module {
  func.func @different_rows(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %px = tile.splat %x : tensor<1024x!tile.ptr<f16>, #b8>
    %py = tile.splat %y : tensor<1024x!tile.ptr<f16>, #b8>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
    }
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tile.load %py : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
    }
    return
  }
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// A loop that starts elsewhere than 0, or whose bound is computed, has no
// footprint the runtime can compute from one argument: nothing recorded.
// CHECK-NOT: tile.reread
module {
  func.func @other_bounds(%x: !tile.ptr<f16>, %n: i32) {
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %m = arith.muli %n, %c2 : i32
    %px = tile.splat %x : tensor<1024x!tile.ptr<f16>, #b8>
    scf.for %i = %c1 to %n step %c1 : i32 {
      %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
    }
    scf.for %i = %c1 to %m step %c1 : i32 {
      %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
    }
    return
  }
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#acc = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>

// A kernel with a product records nothing (its loops are pipelined through
// shared memory of their own).
// CHECK-NOT: tile.reread
module {
  func.func @with_dot(%x: !tile.ptr<f16>, %n: i32, %a: tensor<32x32xf16, #acc>, %c: tensor<32x32xf32, #acc>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %px = tile.splat %x : tensor<1024x!tile.ptr<f16>, #b8>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
    }
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
    }
    %d = tile.dot %a, %a, %c {inputPrecision = #tile<input_precision tf32>} : tensor<32x32xf16, #acc>, tensor<32x32xf16, #acc> -> tensor<32x32xf32, #acc>
    return
  }
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// One nest of loops reads the argument once (the inner loop's loads belong
// to it, not to the outer loop too): nothing recorded.
// CHECK-NOT: tile.reread
module {
  func.func @one_nest(%x: !tile.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %px = tile.splat %x : tensor<1024x!tile.ptr<f16>, #b8>
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
      }
    }
    return
  }
}
