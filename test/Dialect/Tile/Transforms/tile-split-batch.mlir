// RUN: tilec-opt %s -tile-split-batch | FileCheck %s
// RUN: tilec-opt %s -tile-split-batch -canonicalize -cse | FileCheck %s --check-prefix=SIMPLE

// A K loop of a batched dot carries each index's accumulator and pointers
// on its own; the offsets by the batch index (a tl.arange along it) become
// per-index constants; the zero accumulator is one slice shared by both
// indices; the loop keeps its attributes.
// CHECK-LABEL: func.func @loop
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK: tile.make_range {end = 2 : i32, start = 0 : i32}
// CHECK-NEXT: %[[I0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[I1:.*]] = arith.constant 1 : i32
// CHECK: tile.splat %[[I0]] : tensor<1xi32>
// CHECK: tile.splat %[[I1]] : tensor<1xi32>
// CHECK: %[[P0:.*]] = tile.addptr %{{.*}} : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
// CHECK: %[[P1:.*]] = tile.addptr %{{.*}} : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
// CHECK: %[[R:.*]]:4 = scf.for %{{.*}} iter_args(%[[A0:.*]] = %[[ZERO]], %[[A1:.*]] = %[[ZERO]], %[[Q0:.*]] = %[[P0]], %[[Q1:.*]] = %[[P1]])
// CHECK: %[[X0:.*]] = tile.load %[[Q0]] : (tensor<16x16x!tile.ptr<f16>>) -> tensor<16x16xf16>
// CHECK: %[[X1:.*]] = tile.load %[[Q1]]
// CHECK: %[[D0:.*]] = tile.dot %[[X0]], %[[X0]], %[[A0]] {{.*}} -> tensor<16x16xf32>
// CHECK: %[[D1:.*]] = tile.dot %[[X1]], %[[X1]], %[[A1]]
// CHECK: %[[N0:.*]] = tile.addptr %[[Q0]]
// CHECK: %[[N1:.*]] = tile.addptr %[[Q1]]
// CHECK: scf.yield %[[D0]], %[[D1]], %[[N0]], %[[N1]]
// CHECK: } {tt.num_stages = 2 : i32}
// CHECK: tile.store %{{.*}}, %[[R]]#0 : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
// CHECK: tile.store %{{.*}}, %[[R]]#1
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: func.func @whole
func.func @loop(%p: !tile.ptr<f16>, %q: !tile.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<2x16x16xf32>
  %r = tile.make_range {start = 0 : i32, end = 2 : i32} : tensor<2xi32>
  %r1 = tile.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %r2 = tile.expand_dims %r1 {axis = 2 : i32} : tensor<2x1xi32> -> tensor<2x1x1xi32>
  %off = tile.broadcast %r2 : tensor<2x1x1xi32> -> tensor<2x16x16xi32>
  %base = tile.splat %p : tensor<2x16x16x!tile.ptr<f16>>
  %ptrs = tile.addptr %base, %off : tensor<2x16x16x!tile.ptr<f16>>, tensor<2x16x16xi32>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pp = %ptrs) -> (tensor<2x16x16xf32>, tensor<2x16x16x!tile.ptr<f16>>) : i32 {
    %x = tile.load %pp : (tensor<2x16x16x!tile.ptr<f16>>) -> tensor<2x16x16xf16>
    %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x16xf16>, tensor<2x16x16xf16> -> tensor<2x16x16xf32>
    %step = arith.constant dense<256> : tensor<2x16x16xi32>
    %next = tile.addptr %pp, %step : tensor<2x16x16x!tile.ptr<f16>>, tensor<2x16x16xi32>
    scf.yield %d, %next : tensor<2x16x16xf32>, tensor<2x16x16x!tile.ptr<f16>>
  } {tt.num_stages = 2 : i32}
  %out = tile.splat %q : tensor<2x16x16x!tile.ptr<f32>>
  tile.store %out, %res#0 : tensor<2x16x16x!tile.ptr<f32>>, tensor<2x16x16xf32>
  return
}

// What no op computes slice by slice (an argument) is picked out by masked
// sums of its bits; a shared operand (a broadcast of a new leading
// dimension) is used as it is; a non-splat constant is split into its
// slices (whose broadcasts fold into constants, and the slice's product
// scaled by 1 into the product); a reduction along another dimension and
// the store of its result are split; the value scf.yield reads whole is
// stacked back by selection.
// SIMPLE-LABEL: func.func @whole
// SIMPLE-DAG: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<16x16xf32>
// SIMPLE-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// SIMPLE: %[[BITS:.*]] = arith.bitcast %arg0 : tensor<2x16x16xf16> to tensor<2x16x16xi16>
// SIMPLE: %[[WIDE:.*]] = arith.extui %[[BITS]] : tensor<2x16x16xi16> to tensor<2x16x16xi32>
// SIMPLE: %[[IS0:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : tensor<2x16x16xi32>
// SIMPLE: %[[PICK0:.*]] = arith.select %[[IS0]], %[[WIDE]], %{{.*}}
// SIMPLE: %[[SUM0:.*]] = tile.reduce %[[PICK0]] {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<2x16x16xi32> -> tensor<16x16xi32>
// SIMPLE: %[[T0:.*]] = arith.trunci %[[SUM0]] : tensor<16x16xi32> to tensor<16x16xi16>
// SIMPLE: %[[A0:.*]] = arith.bitcast %[[T0]] : tensor<16x16xi16> to tensor<16x16xf16>
// SIMPLE: %[[IS1:.*]] = arith.cmpi eq
// SIMPLE: %[[A1:.*]] = arith.bitcast %{{.*}} : tensor<16x16xi16> to tensor<16x16xf16>
// SIMPLE: %[[ZE:.*]] = tile.expand_dims %[[ZERO]] {axis = 0 : i32} : tensor<16x16xf32> -> tensor<1x16x16xf32>
// SIMPLE: %[[ZW:.*]] = tile.broadcast %[[ZE]] : tensor<1x16x16xf32> -> tensor<2x16x16xf32>
// SIMPLE: scf.if
// SIMPLE: %[[D0:.*]] = tile.dot %[[A0]], %arg1, %[[ZERO]]
// SIMPLE: %[[D1:.*]] = tile.dot %[[A1]], %arg1, %[[ZERO]]
// SIMPLE: %[[M1:.*]] = arith.mulf %[[D1]], %[[TWO]]
// SIMPLE: %[[E0:.*]] = tile.expand_dims %[[D0]] {axis = 0 : i32} : tensor<16x16xf32> -> tensor<1x16x16xf32>
// SIMPLE: %[[W0:.*]] = tile.broadcast %[[E0]] : tensor<1x16x16xf32> -> tensor<2x16x16xf32>
// SIMPLE: %[[E1:.*]] = tile.expand_dims %[[M1]]
// SIMPLE: %[[W1:.*]] = tile.broadcast %[[E1]]
// SIMPLE: %[[M:.*]] = arith.select %[[IS1]], %[[W1]], %[[W0]] : tensor<2x16x16xi1>, tensor<2x16x16xf32>
// SIMPLE: %[[R0:.*]] = tile.reduce %[[D0]] {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<16x16xf32> -> tensor<16xf32>
// SIMPLE: %[[R1:.*]] = tile.reduce %[[M1]] {axis = 1 : i32
// SIMPLE: %[[Q:.*]] = tile.splat %arg3 : tensor<16x!tile.ptr<f32>>
// SIMPLE: tile.store %[[Q]], %[[R0]] : tensor<16x!tile.ptr<f32>>, tensor<16xf32>
// SIMPLE: tile.store %[[Q]], %[[R1]]
// SIMPLE: scf.yield %[[M]] : tensor<2x16x16xf32>
// SIMPLE: } else {
// SIMPLE-NEXT: scf.yield %[[ZW]] : tensor<2x16x16xf32>
func.func @whole(%a: tensor<2x16x16xf16>, %b: tensor<16x16xf16>, %c: i1, %q: !tile.ptr<f32>) -> tensor<2x16x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<2x16x16xf32>
  %scale = arith.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %b1 = tile.expand_dims %b {axis = 0 : i32} : tensor<16x16xf16> -> tensor<1x16x16xf16>
  %b2 = tile.broadcast %b1 : tensor<1x16x16xf16> -> tensor<2x16x16xf16>
  %r = scf.if %c -> tensor<2x16x16xf32> {
    %d = tile.dot %a, %b2, %zero {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x16xf16>, tensor<2x16x16xf16> -> tensor<2x16x16xf32>
    %s = tile.broadcast %scale : tensor<2x1x1xf32> -> tensor<2x16x16xf32>
    %m = arith.mulf %d, %s : tensor<2x16x16xf32>
    %rows = tile.reduce %m {axis = 2 : i32, kind = #tile<reduce_kind max>} : tensor<2x16x16xf32> -> tensor<2x16xf32>
    %qs = tile.splat %q : tensor<2x16x!tile.ptr<f32>>
    tile.store %qs, %rows : tensor<2x16x!tile.ptr<f32>>, tensor<2x16xf32>
    scf.yield %m : tensor<2x16x16xf32>
  } else {
    scf.yield %zero : tensor<2x16x16xf32>
  }
  return %r : tensor<2x16x16xf32>
}

// A loop carries a value whose leading dimension is the batch of its dot
// (row maxima [2, 16]) as one value per index too; slices of an argument
// are picked out once, before the loop.
// CHECK-LABEL: func.func @carried_rows
// CHECK-COUNT-2: tile.reduce %{{.*}} {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<2x16x16xi32> -> tensor<16x16xi32>
// CHECK: scf.for {{.*}} iter_args(%[[M0:.*]] = %{{.*}}, %[[M1:.*]] = %{{.*}}) -> (tensor<16xf32>, tensor<16xf32>)
// CHECK-NOT: axis = 0
// CHECK: %[[R0:.*]] = tile.reduce %{{.*}} {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<16x16xf32> -> tensor<16xf32>
// CHECK: %[[R1:.*]] = tile.reduce %{{.*}} {axis = 1 : i32, kind = #tile<reduce_kind max>}
// CHECK: %[[N0:.*]] = arith.maximumf %[[M0]], %[[R0]] : tensor<16xf32>
// CHECK: %[[N1:.*]] = arith.maximumf %[[M1]], %[[R1]] : tensor<16xf32>
// CHECK: scf.yield %[[N0]], %[[N1]] : tensor<16xf32>, tensor<16xf32>
func.func @carried_rows(%a: tensor<2x16x16xf16>, %n: i32) -> tensor<2x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<2x16x16xf32>
  %init = arith.constant dense<0.0> : tensor<2x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %init) -> (tensor<2x16xf32>) : i32 {
    %d = tile.dot %a, %a, %zero {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x16xf16>, tensor<2x16x16xf16> -> tensor<2x16x16xf32>
    %row = tile.reduce %d {axis = 2 : i32, kind = #tile<reduce_kind max>} : tensor<2x16x16xf32> -> tensor<2x16xf32>
    %next = arith.maximumf %m, %row : tensor<2x16xf32>
    scf.yield %next : tensor<2x16xf32>
  }
  return %r : tensor<2x16xf32>
}
