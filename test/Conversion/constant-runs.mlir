// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// An elementwise op on integers whose result AxisInfo proves equal over runs
// of a thread's consecutive registers is computed once a run: `offs < n`,
// offs consecutive from a multiple of 4 and n a multiple of 16, is one
// comparison for the four registers of each thread, and the select that
// uses it reads that one i1 four times.
#d = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @masked_where
  // CHECK: %[[M:.*]] = llvm.icmp "slt"
  // CHECK-NOT: llvm.icmp
  // CHECK-COUNT-4: llvm.select %[[M]],
  // CHECK-NOT: llvm.select
  func.func @masked_where(%x: tensor<128xf32, #d>, %n: i32 {tile.divisibility = 16 : i32}) -> tensor<128xf32, #d> {
    %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #d>
    %ns = tile.splat %n : tensor<128xi32, #d>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #d>
    %z = arith.constant dense<0.0> : tensor<128xf32, #d>
    %y = arith.select %m, %x, %z : tensor<128xi1, #d>, tensor<128xf32, #d>
    return %y : tensor<128xf32, #d>
  }
}

// -----

// `offs == n` and `offs <= n` change inside the block that holds n: one
// comparison a register; so does `offs < n` when n is not known aligned.
#d = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @per_register
  // CHECK-COUNT-4: llvm.icmp "eq"
  // CHECK-COUNT-4: llvm.icmp "sle"
  // CHECK-COUNT-4: llvm.icmp "slt"
  func.func @per_register(%n: i32 {tile.divisibility = 16 : i32}, %u: i32) -> (tensor<128xi1, #d>, tensor<128xi1, #d>, tensor<128xi1, #d>) {
    %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #d>
    %ns = tile.splat %n : tensor<128xi32, #d>
    %us = tile.splat %u : tensor<128xi32, #d>
    %e = arith.cmpi eq, %r, %ns : tensor<128xi32, #d>
    %l = arith.cmpi sle, %r, %ns : tensor<128xi32, #d>
    %s = arith.cmpi slt, %r, %us : tensor<128xi32, #d>
    return %e, %l, %s : tensor<128xi1, #d>, tensor<128xi1, #d>, tensor<128xi1, #d>
  }
}
