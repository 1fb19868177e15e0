// RUN: tilec-opt %s -split-input-file -tile-split-bounds-checks | FileCheck %s

// Attention's loop over blocks of keys: the block start + [0, 64) compared
// with the loop's upper bound, through expand_dims and broadcast. The whole
// blocks run first with the comparison a constant true; the original loop
// runs the rest (at most one block) from where they stop, carrying on from
// their results.
// CHECK-LABEL: func.func @keys
// CHECK-SAME: (%[[N:.*]]: i32,
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i32
// CHECK: %[[SPAN:.*]] = arith.subi %[[N]], %[[C0]] : i32
// CHECK: %[[TRIPS:.*]] = arith.divsi %[[SPAN]], %[[C64]] : i32
// CHECK: %[[POS:.*]] = arith.maxsi %[[TRIPS]], %{{.*}} : i32
// CHECK: %[[LEN:.*]] = arith.muli %[[POS]], %[[C64]] : i32
// CHECK: %[[FULL:.*]] = arith.addi %[[C0]], %[[LEN]] : i32
// CHECK: %[[WHOLE:.*]] = scf.for %{{.*}} = %[[C0]] to %[[FULL]] step %[[C64]] iter_args(%[[A:.*]] = %{{.*}})
// CHECK-NOT: arith.cmpi
// CHECK:   %[[YES:.*]] = arith.constant dense<true> : tensor<1x64xi1>
// CHECK:   tile.broadcast %[[YES]]
// CHECK:   tile.dot
// CHECK: scf.for %{{.*}} = %[[FULL]] to %[[N]] step %[[C64]] iter_args(%{{.*}} = %[[WHOLE]])
// CHECK:   arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1x64xi32>
// CHECK:   tile.dot
func.func @keys(%n: i32, %a: tensor<32x16xf16>, %b: tensor<16x64xf16>) -> tensor<32x64xf32> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<32x64xf32>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %res = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %row = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %sn = tile.splat %n : tensor<1x64xi32>
    %ok = arith.cmpi slt, %row, %sn : tensor<1x64xi32>
    %okb = tile.broadcast %ok : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %okb, %d, %ninf : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  return %res : tensor<32x64xf32>
}

// -----

// Left alone: a loop without a product; a loop that yields two products;
// a comparison with a bound other than the loop's; a range longer than the
// step (a block may reach past the bound before the last iteration).
// CHECK-LABEL: func.func @untouched
// CHECK-COUNT-4: scf.for
// CHECK-NOT: scf.for
func.func @untouched(%n: i32, %m: i32, %a: tensor<32x16xf16>, %b: tensor<16x64xf16>) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %fz = arith.constant dense<0.0> : tensor<64xf32>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %sn = tile.splat %n : tensor<64xi32>
  %sm = tile.splat %m : tensor<64xi32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %s0 = scf.for %i = %c0 to %n step %c64 iter_args(%s = %fz) -> (tensor<64xf32>) : i32 {
    %cols = arith.addi %r, %sn : tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %sn : tensor<64xi32>
    %v = arith.select %ok, %one, %fz : tensor<64xi1>, tensor<64xf32>
    %s2 = arith.addf %s, %v : tensor<64xf32>
    scf.yield %s2 : tensor<64xf32>
  }
  %two:2 = scf.for %i = %c0 to %n step %c64 iter_args(%x = %zero, %y = %zero) -> (tensor<32x64xf32>, tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %sn : tensor<64xi32>
    %row = tile.expand_dims %ok {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
    %okb = tile.broadcast %row : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %e = tile.dot %a, %b, %y {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    scf.yield %d, %e : tensor<32x64xf32>, tensor<32x64xf32>
  }
  %other = scf.for %i = %c0 to %n step %c64 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %sm : tensor<64xi32>
    %row = tile.expand_dims %ok {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
    %okb = tile.broadcast %row : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %okb, %d, %zero : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %long = scf.for %i = %c0 to %n step %c32 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %sn : tensor<64xi32>
    %row = tile.expand_dims %ok {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
    %okb = tile.broadcast %row : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %okb, %d, %zero : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  return
}
