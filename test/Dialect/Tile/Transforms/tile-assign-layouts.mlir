// RUN: tilec-opt %s -split-input-file -tile-set-target=arch=sm_75 -tile-assign-layouts=num-warps=4 | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-set-target=arch=sm_75 -tile-assign-layouts=num-warps=8 | FileCheck %s --check-prefix=W8

// fp32 accesses: 4 elements (16 bytes) per thread, lanes then warps along the
// tile.
// CHECK: #[[B:blocked]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: module attributes {tile.num_warps = 4 : i32, tile.target = "sm_75"}
// CHECK: tile.make_range {{.*}} : tensor<1024xi32, #[[B]]>
// CHECK: tile.load {{.*}} -> tensor<1024xf32, #[[B]]>
// W8: #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]>
func.func @f32(%p: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %v = tile.load %pp : (tensor<1024x!tile.ptr<f32>>) -> tensor<1024xf32>
  tile.store %pp, %v : tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>
  return
}

// -----

// fp16 accesses would take 8 elements per thread, but a tile smaller than
// that many a thread takes fewer (as Triton's coalescing does): 64 elements
// over 128 threads take one each, and the remaining lanes hold copies.
// CHECK: #blocked = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK: tile.load {{.*}} -> tensor<64xf16, #blocked>
func.func @f16(%p: !tile.ptr<f16>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f16>>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %v = tile.load %pp : (tensor<64x!tile.ptr<f16>>) -> tensor<64xf16>
  tile.store %pp, %v : tensor<64x!tile.ptr<f16>>, tensor<64xf16>
  return
}

// -----

// Splat constants take the layout of their tile.
// CHECK-LABEL: func.func @constant
// CHECK: arith.constant dense<1.000000e+00> : tensor<256xf32, #blocked>
func.func @constant(%p: !tile.ptr<f32>) {
  %c = arith.constant dense<1.0> : tensor<256xf32>
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ps = tile.splat %p : tensor<256x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  tile.store %pp, %c : tensor<256x!tile.ptr<f32>>, tensor<256xf32>
  return
}

// -----

// expand_dims converts its operand to the slice of its result's layout and
// broadcast converts its operand to its result's layout; a reduction yields
// the slice of its operand's layout, which then decides the layout of the
// elementwise op and the store it feeds.
// CHECK-DAG: #[[D1:blocked]] = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
// CHECK-DAG: #[[COL:blocked1]] = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-DAG: #[[D2:blocked2]] = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @reduce_expand
// CHECK: %[[R:.*]] = tile.make_range {{.*}} : tensor<64xi32, #[[D1]]>
// CHECK: %[[RS:.*]] = tile.convert_layout %[[R]] : tensor<64xi32, #[[D1]]> -> tensor<64xi32, #tile.slice<dim = 1, parent = #[[COL]]>>
// CHECK: %[[E:.*]] = tile.expand_dims %[[RS]] {{.*}} -> tensor<64x1xi32, #[[COL]]>
// CHECK: %[[EC:.*]] = tile.convert_layout %[[E]] : tensor<64x1xi32, #[[COL]]> -> tensor<64x1xi32, #[[D2]]>
// CHECK: tile.broadcast %[[EC]] : tensor<64x1xi32, #[[D2]]> -> tensor<64x64xi32, #[[D2]]>
// CHECK: %[[M:.*]] = tile.reduce {{.*}} -> tensor<64xf32, #tile.slice<dim = 1, parent = #[[D2]]>>
// CHECK: %[[Y:.*]] = tile.load {{.*}} -> tensor<64xf32, #[[D1]]>
// CHECK: %[[YC:.*]] = tile.convert_layout %[[Y]] : {{.*}} -> tensor<64xf32, #tile.slice<dim = 1, parent = #[[D2]]>>
// CHECK: %[[S:.*]] = arith.addf %[[YC]], %[[M]] : tensor<64xf32, #tile.slice<dim = 1, parent = #[[D2]]>>
// CHECK: %[[PC:.*]] = tile.convert_layout {{.*}} -> tensor<64x!tile.ptr<f32>, #tile.slice<dim = 1, parent = #[[D2]]>>
// CHECK: tile.store %[[PC]], %[[S]]
func.func @reduce_expand(%p: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %b = tile.broadcast %e : tensor<64x1xi32> -> tensor<64x64xi32>
  %ps = tile.splat %p : tensor<64x64x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %b : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %x = tile.load %pp : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
  %m = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<64x64xf32> -> tensor<64xf32>
  %q = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %qp = tile.addptr %q, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %y = tile.load %qp : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
  %s = arith.addf %y, %m : tensor<64xf32>
  tile.store %qp, %s : tensor<64x!tile.ptr<f32>>, tensor<64xf32>
  return
}

// -----

// Loop-carried tiles take the layout of their initial value; yielded values
// are converted to it. A 1-D reduction gives a scalar.
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32, #[[L:blocked]]>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128xf32, #[[L]]>)
// CHECK: %[[M:.*]] = tile.reduce {{.*}} -> tensor<128xf32, #tile.slice<dim = 0, parent = #[[L2:blocked1]]>>
// CHECK: %[[N:.*]] = arith.addf %[[M]], {{.*}} : tensor<128xf32, #tile.slice<dim = 0, parent = #[[L2]]>>
// CHECK: %[[Y:.*]] = tile.convert_layout %[[N]] : {{.*}} -> tensor<128xf32, #[[L]]>
// CHECK: scf.yield %[[Y]] : tensor<128xf32, #[[L]]>
// CHECK: tile.reduce {{.*}} : tensor<128xf32, #[[L]]> -> f32
func.func @loop(%p: !tile.ptr<f32>, %n: i32) -> () {
  %z = arith.constant dense<0.0> : tensor<128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128xf32>) : i32 {
    %x = tile.splat %p : tensor<16x128x!tile.ptr<f32>>
    %v = tile.load %x : (tensor<16x128x!tile.ptr<f32>>) -> tensor<16x128xf32>
    %m = tile.reduce %v {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<16x128xf32> -> tensor<128xf32>
    %n2 = arith.addf %m, %acc : tensor<128xf32>
    scf.yield %n2 : tensor<128xf32>
  }
  %s = tile.reduce %r {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<128xf32> -> f32
  tile.store %p, %s : !tile.ptr<f32>, f32
  return
}

// -----

// scf.if results take the `then` branch's layouts; scf.while carries its
// initial values' layouts around and its results take the condition's.
// CHECK-LABEL: func.func @if_while
// CHECK: %[[IF:.*]] = scf.if {{.*}} -> (tensor<64xi32, #tile.slice<dim = 1, parent = #[[P:blocked[0-9]*]]>>)
// CHECK: } else {
// CHECK: %[[C:.*]] = tile.convert_layout {{.*}} -> tensor<64xi32, #tile.slice<dim = 1, parent = #[[P]]>>
// CHECK: scf.yield %[[C]]
// CHECK: scf.while ({{.*}}) : (i32, tensor<64xi32, #tile.slice<dim = 1, parent = #[[P]]>>) -> (i32, tensor<64xi32, #tile.slice<dim = 1, parent = #[[P]]>>)
func.func @if_while(%p: !tile.ptr<i32>, %c: i1, %n: i32) {
  %x = tile.splat %p : tensor<64x64x!tile.ptr<i32>>
  %v = tile.load %x : (tensor<64x64x!tile.ptr<i32>>) -> tensor<64x64xi32>
  %y = scf.if %c -> (tensor<64xi32>) {
    %m = tile.reduce %v {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<64x64xi32> -> tensor<64xi32>
    scf.yield %m : tensor<64xi32>
  } else {
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    scf.yield %r : tensor<64xi32>
  }
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %w:2 = scf.while (%i = %c0, %t = %y) : (i32, tensor<64xi32>) -> (i32, tensor<64xi32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %t : i32, tensor<64xi32>
  } do {
  ^bb0(%i2: i32, %t2: tensor<64xi32>):
    %i3 = arith.addi %i2, %c1 : i32
    %t3 = arith.addi %t2, %t2 : tensor<64xi32>
    scf.yield %i3, %t3 : i32, tensor<64xi32>
  }
  %s = tile.reduce %w#1 {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64xi32> -> i32
  tile.store %p, %s : !tile.ptr<i32>, i32
  return
}

// -----

// A dot result takes its accumulator's layout; its operands keep theirs.
// CHECK-LABEL: func.func @dot
// CHECK: tile.dot {{.*}} : tensor<32x16xf16, #[[A:blocked[0-9]*]]>, tensor<16x32xf16, #[[B:blocked[0-9]*]]> -> tensor<32x32xf32, #[[C:blocked[0-9]*]]>
func.func @dot(%pa: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
  %a = tile.splat %pa : tensor<32x16x!tile.ptr<f16>>
  %va = tile.load %a : (tensor<32x16x!tile.ptr<f16>>) -> tensor<32x16xf16>
  %b = tile.splat %pa : tensor<16x32x!tile.ptr<f16>>
  %vb = tile.load %b : (tensor<16x32x!tile.ptr<f16>>) -> tensor<16x32xf16>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = tile.dot %va, %vb, %z {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x32xf16> -> tensor<32x32xf32>
  %c = tile.splat %pc : tensor<32x32x!tile.ptr<f32>>
  tile.store %c, %d : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xf32>
  return
}

// -----

// A combine_reduce takes every operand in the first one's layout and yields
// the slice of it; a combine_scan yields that layout.
// CHECK-LABEL: func.func @combine
// CHECK: %[[X:.*]] = tile.load {{.*}} -> tensor<64x64xf32, #[[L:blocked[0-9]*]]>
// CHECK: tile.combine_reduce %[[X]], %{{.*}} {axis = 1 : i32} : (tensor<64x64xf32, #[[L]]>, tensor<64x64xi32, #[[L]]>) -> (tensor<64xf32, #tile.slice<dim = 1, parent = #[[L]]>>, tensor<64xi32, #tile.slice<dim = 1, parent = #[[L]]>>)
// CHECK: tile.combine_scan %[[X]] {axis = 1 : i32, reverse = false} : (tensor<64x64xf32, #[[L]]>) -> (tensor<64x64xf32, #[[L]]>)
// A second operand in another layout (a row maximum, sliced) is converted to
// the first's (the range's).
// CHECK: %[[M:.*]] = tile.reduce
// CHECK: %[[MC:.*]] = tile.convert_layout %[[M]] : tensor<64xf32, #tile.slice<dim = 1, parent = #[[L]]>> -> tensor<64xf32, #[[R:blocked[0-9]*]]>
// CHECK: tile.combine_reduce %{{.*}}, %[[MC]] {axis = 0 : i32} : (tensor<64xi32, #[[R]]>, tensor<64xf32, #[[R]]>) -> (i32, f32)
func.func @combine(%p: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %b = tile.broadcast %e : tensor<1x64xi32> -> tensor<64x64xi32>
  %ps = tile.splat %p : tensor<64x64x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %b : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  %x = tile.load %pp : (tensor<64x64x!tile.ptr<f32>>) -> tensor<64x64xf32>
  %v, %i = tile.combine_reduce %x, %b {axis = 1 : i32} : (tensor<64x64xf32>, tensor<64x64xi32>) -> (tensor<64xf32>, tensor<64xi32>) {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %vm = arith.select %gt, %v0, %v1 : f32
    %im = arith.select %gt, %i0, %i1 : i32
    tile.combine_yield %vm, %im : f32, i32
  }
  %s = tile.combine_scan %x {axis = 1 : i32, reverse = false} : (tensor<64x64xf32>) -> (tensor<64x64xf32>) {
  ^bb0(%a: f32, %c: f32):
    %sum = arith.addf %a, %c : f32
    tile.combine_yield %sum : f32
  }
  tile.store %pp, %s : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xf32>
  %q = tile.splat %p : tensor<64x!tile.ptr<f32>>
  %qp = tile.addptr %q, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  tile.store %qp, %v : tensor<64x!tile.ptr<f32>>, tensor<64xf32>
  %m = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind max>} : tensor<64x64xf32> -> tensor<64xf32>
  %ri, %rm = tile.combine_reduce %r, %m {axis = 0 : i32} : (tensor<64xi32>, tensor<64xf32>) -> (i32, f32) {
  ^bb0(%i0: i32, %m0: f32, %i1: i32, %m1: f32):
    %gt = arith.cmpf ogt, %m0, %m1 : f32
    %mm = arith.select %gt, %m0, %m1 : f32
    %ii = arith.select %gt, %i0, %i1 : i32
    tile.combine_yield %ii, %mm : i32, f32
  }
  tile.store %p, %rm : !tile.ptr<f32>, f32
  return
}
