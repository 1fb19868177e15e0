// RUN: tilec-opt %s -split-input-file -tile-cap-occupancy | FileCheck %s

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>

// Two loops read the same argument (a layer norm's passes over a row, the
// pointer carried by one of them): at most half of sm_90a's 2048 threads,
// 8 programs of 4 warps. A kernel whose loops read different arguments
// keeps its occupancy.
// CHECK-LABEL: func.func @two_passes
// CHECK-SAME: tile.max_programs_per_sm = 8 : i32
// CHECK-LABEL: func.func @different_rows
// CHECK-NOT: tile.max_programs_per_sm
module attributes {tile.num_warps = 4 : i32} {
  func.func @two_passes(%x: !tile.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<1024> : tensor<1024xi32, #b8>
    %px = tile.splat %x : tensor<1024x!tile.ptr<f16>, #b8>
    %q = scf.for %i = %c0 to %n step %c1 iter_args(%p = %px) -> (tensor<1024x!tile.ptr<f16>, #b8>) : i32 {
      %v = tile.load %p : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
      %next = tile.addptr %p, %step : tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xi32, #b8>
      scf.yield %next : tensor<1024x!tile.ptr<f16>, #b8>
    }
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tile.load %px : (tensor<1024x!tile.ptr<f16>, #b8>) -> tensor<1024xf16, #b8>
      tile.store %px, %v : tensor<1024x!tile.ptr<f16>, #b8>, tensor<1024xf16, #b8>
    }
    return
  }
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

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [16], order = [0]>

// Programs of 16 warps: half the SM would be 2 of them; left alone.
// CHECK-LABEL: func.func @big_programs
// CHECK-NOT: tile.max_programs_per_sm
module attributes {tile.num_warps = 16 : i32} {
  func.func @big_programs(%x: !tile.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %px = tile.splat %x : tensor<4096x!tile.ptr<f16>, #b8>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tile.load %px : (tensor<4096x!tile.ptr<f16>, #b8>) -> tensor<4096xf16, #b8>
    }
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tile.load %px : (tensor<4096x!tile.ptr<f16>, #b8>) -> tensor<4096xf16, #b8>
    }
    return
  }
}

// -----

#b8 = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#acc = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>

// A kernel with a product keeps its occupancy (its loops are pipelined
// through shared memory of their own).
// CHECK-LABEL: func.func @with_dot
// CHECK-NOT: tile.max_programs_per_sm
module attributes {tile.num_warps = 4 : i32} {
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
// to it, not to the outer loop too): no cap.
// CHECK-LABEL: func.func @one_nest
// CHECK-NOT: tile.max_programs_per_sm
module attributes {tile.num_warps = 4 : i32} {
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
