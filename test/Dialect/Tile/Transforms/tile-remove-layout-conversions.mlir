// RUN: tilec-opt %s -split-input-file -tile-remove-layout-conversions | FileCheck %s

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#col = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// Ranges, splats, constants, index arithmetic, expand_dims and broadcast
// are recomputed in the layout the conversion wanted.
// CHECK-LABEL: func.func @rematerialize
// CHECK-NOT: tile.convert_layout
// CHECK: %[[R:.*]] = tile.make_range {{.*}} : tensor<64xi32, #tile.slice<dim = 1, parent = #[[D2:blocked[0-9]*]]>>
// CHECK: %[[S:.*]] = tile.splat {{.*}} : tensor<64xi32, #tile.slice<dim = 1, parent = #[[D2]]>>
// CHECK: %[[A:.*]] = arith.addi %[[R]], %[[S]] : tensor<64xi32, #tile.slice<dim = 1, parent = #[[D2]]>>
// CHECK: %[[E:.*]] = tile.expand_dims %[[A]] {{.*}} -> tensor<64x1xi32, #[[D2]]>
// CHECK: %[[C:.*]] = arith.constant dense<3> : tensor<64x1xi32, #[[D2]]>
// CHECK: %[[M:.*]] = arith.muli %[[E]], %[[C]] : tensor<64x1xi32, #[[D2]]>
// CHECK: tile.broadcast %[[M]] : tensor<64x1xi32, #[[D2]]> -> tensor<64x64xi32, #[[D2]]>
// CHECK-NOT: tile.convert_layout
func.func @rematerialize(%p: !tile.ptr<f32>, %off: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
  %s = tile.splat %off : tensor<64xi32, #d1>
  %a = arith.addi %r, %s : tensor<64xi32, #d1>
  %c = tile.convert_layout %a : tensor<64xi32, #d1> -> tensor<64xi32, #tile.slice<dim = 1, parent = #col>>
  %e = tile.expand_dims %c {axis = 1 : i32} : tensor<64xi32, #tile.slice<dim = 1, parent = #col>> -> tensor<64x1xi32, #col>
  %three = arith.constant dense<3> : tensor<64x1xi32, #col>
  %m = arith.muli %e, %three : tensor<64x1xi32, #col>
  %mc = tile.convert_layout %m : tensor<64x1xi32, #col> -> tensor<64x1xi32, #d2>
  %b = tile.broadcast %mc : tensor<64x1xi32, #d2> -> tensor<64x64xi32, #d2>
  %ps = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #d2>
  %pp = tile.addptr %ps, %b : tensor<64x64x!tile.ptr<f32>, #d2>, tensor<64x64xi32, #d2>
  %x = tile.load %pp : (tensor<64x64x!tile.ptr<f32>, #d2>) -> tensor<64x64xf32, #d2>
  tile.store %pp, %x : tensor<64x64x!tile.ptr<f32>, #d2>, tensor<64x64xf32, #d2>
  return
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// A converted load stays converted; a conversion of a conversion converts
// once; a conversion back to the original layout disappears.
// CHECK-LABEL: func.func @chains
// CHECK: %[[X:.*]] = tile.load {{.*}} -> tensor<64xf32, #[[D1:blocked[0-9]*]]>
// CHECK-NEXT: tile.store {{.*}}, %[[X]] : tensor<64x!tile.ptr<f32>, #[[D1]]>, tensor<64xf32, #[[D1]]>
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[X]] : tensor<64xf32, #[[D1]]> -> tensor<64xf32, #tile.slice<dim = 0, parent = #{{blocked[0-9]*}}>>
// CHECK-NEXT: tile.reduce %[[C]]
func.func @chains(%p: !tile.ptr<f32>) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
  %x = tile.load %pp : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
  %a = tile.convert_layout %x : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
  %b = tile.convert_layout %a : tensor<64xf32, #tile.slice<dim = 1, parent = #d2>> -> tensor<64xf32, #d1>
  tile.store %pp, %b : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
  %c = tile.convert_layout %a : tensor<64xf32, #tile.slice<dim = 1, parent = #d2>> -> tensor<64xf32, #tile.slice<dim = 0, parent = #d2>>
  %s = tile.reduce %c {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64xf32, #tile.slice<dim = 0, parent = #d2>> -> f32
  tile.store %p, %s : !tile.ptr<f32>, f32
  return
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// A loop-carried value that the loop converts back every iteration is
// carried in the layout it is computed in; its initial constant is
// recomputed in that layout and only the use after the loop converts.
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<64xf32, #tile.slice<dim = 1, parent = #[[D2:blocked[0-9]*]]>>
// CHECK: %[[L:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64xf32, #tile.slice<dim = 1, parent = #[[D2]]>>)
// CHECK-NOT: tile.convert_layout
// CHECK: %[[N:.*]] = arith.addf %[[ACC]], {{.*}} : tensor<64xf32, #tile.slice<dim = 1, parent = #[[D2]]>>
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: tile.convert_layout %[[L]] : tensor<64xf32, #tile.slice<dim = 1, parent = #[[D2]]>> -> tensor<64xf32, #{{blocked[0-9]*}}>
func.func @loop(%p: !tile.ptr<f32>, %n: i32) {
  %z = arith.constant dense<0.0> : tensor<64xf32, #d1>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ps2 = tile.splat %p : tensor<64x64x!tile.ptr<f32>, #d2>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64xf32, #d1>) : i32 {
    %x = tile.load %ps2 : (tensor<64x64x!tile.ptr<f32>, #d2>) -> tensor<64x64xf32, #d2>
    %m = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<64x64xf32, #d2> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    %ac = tile.convert_layout %acc : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    %s = arith.addf %ac, %m : tensor<64xf32, #tile.slice<dim = 1, parent = #d2>>
    %sc = tile.convert_layout %s : tensor<64xf32, #tile.slice<dim = 1, parent = #d2>> -> tensor<64xf32, #d1>
    scf.yield %sc : tensor<64xf32, #d1>
  }
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
  tile.store %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xf32, #d1>
  return
}

// -----

#d1 = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
// Past the budget of cloned ops (64), the conversion stays.
// CHECK-LABEL: func.func @budget
// CHECK: tile.convert_layout
func.func @budget(%p: !tile.ptr<i32>, %v: i32) {
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
  %a1 = arith.addi %r, %r : tensor<64xi32, #d1>
  %a2 = arith.addi %a1, %r : tensor<64xi32, #d1>
  %a3 = arith.addi %a2, %r : tensor<64xi32, #d1>
  %a4 = arith.addi %a3, %r : tensor<64xi32, #d1>
  %a5 = arith.addi %a4, %r : tensor<64xi32, #d1>
  %a6 = arith.addi %a5, %r : tensor<64xi32, #d1>
  %a7 = arith.addi %a6, %r : tensor<64xi32, #d1>
  %a8 = arith.addi %a7, %r : tensor<64xi32, #d1>
  %a9 = arith.addi %a8, %r : tensor<64xi32, #d1>
  %a10 = arith.addi %a9, %r : tensor<64xi32, #d1>
  %a11 = arith.addi %a10, %r : tensor<64xi32, #d1>
  %a12 = arith.addi %a11, %r : tensor<64xi32, #d1>
  %a13 = arith.addi %a12, %r : tensor<64xi32, #d1>
  %a14 = arith.addi %a13, %r : tensor<64xi32, #d1>
  %a15 = arith.addi %a14, %r : tensor<64xi32, #d1>
  %a16 = arith.addi %a15, %r : tensor<64xi32, #d1>
  %a17 = arith.addi %a16, %r : tensor<64xi32, #d1>
  %a18 = arith.addi %a17, %r : tensor<64xi32, #d1>
  %a19 = arith.addi %a18, %r : tensor<64xi32, #d1>
  %a20 = arith.addi %a19, %r : tensor<64xi32, #d1>
  %a21 = arith.addi %a20, %r : tensor<64xi32, #d1>
  %a22 = arith.addi %a21, %r : tensor<64xi32, #d1>
  %a23 = arith.addi %a22, %r : tensor<64xi32, #d1>
  %a24 = arith.addi %a23, %r : tensor<64xi32, #d1>
  %a25 = arith.addi %a24, %r : tensor<64xi32, #d1>
  %a26 = arith.addi %a25, %r : tensor<64xi32, #d1>
  %a27 = arith.addi %a26, %r : tensor<64xi32, #d1>
  %a28 = arith.addi %a27, %r : tensor<64xi32, #d1>
  %a29 = arith.addi %a28, %r : tensor<64xi32, #d1>
  %a30 = arith.addi %a29, %r : tensor<64xi32, #d1>
  %a31 = arith.addi %a30, %r : tensor<64xi32, #d1>
  %a32 = arith.addi %a31, %r : tensor<64xi32, #d1>
  %a33 = arith.addi %a32, %r : tensor<64xi32, #d1>
  %a34 = arith.addi %a33, %r : tensor<64xi32, #d1>
  %a35 = arith.addi %a34, %r : tensor<64xi32, #d1>
  %a36 = arith.addi %a35, %r : tensor<64xi32, #d1>
  %a37 = arith.addi %a36, %r : tensor<64xi32, #d1>
  %a38 = arith.addi %a37, %r : tensor<64xi32, #d1>
  %a39 = arith.addi %a38, %r : tensor<64xi32, #d1>
  %a40 = arith.addi %a39, %r : tensor<64xi32, #d1>
  %a41 = arith.addi %a40, %r : tensor<64xi32, #d1>
  %a42 = arith.addi %a41, %r : tensor<64xi32, #d1>
  %a43 = arith.addi %a42, %r : tensor<64xi32, #d1>
  %a44 = arith.addi %a43, %r : tensor<64xi32, #d1>
  %a45 = arith.addi %a44, %r : tensor<64xi32, #d1>
  %a46 = arith.addi %a45, %r : tensor<64xi32, #d1>
  %a47 = arith.addi %a46, %r : tensor<64xi32, #d1>
  %a48 = arith.addi %a47, %r : tensor<64xi32, #d1>
  %a49 = arith.addi %a48, %r : tensor<64xi32, #d1>
  %a50 = arith.addi %a49, %r : tensor<64xi32, #d1>
  %a51 = arith.addi %a50, %r : tensor<64xi32, #d1>
  %a52 = arith.addi %a51, %r : tensor<64xi32, #d1>
  %a53 = arith.addi %a52, %r : tensor<64xi32, #d1>
  %a54 = arith.addi %a53, %r : tensor<64xi32, #d1>
  %a55 = arith.addi %a54, %r : tensor<64xi32, #d1>
  %a56 = arith.addi %a55, %r : tensor<64xi32, #d1>
  %a57 = arith.addi %a56, %r : tensor<64xi32, #d1>
  %a58 = arith.addi %a57, %r : tensor<64xi32, #d1>
  %a59 = arith.addi %a58, %r : tensor<64xi32, #d1>
  %a60 = arith.addi %a59, %r : tensor<64xi32, #d1>
  %a61 = arith.addi %a60, %r : tensor<64xi32, #d1>
  %a62 = arith.addi %a61, %r : tensor<64xi32, #d1>
  %a63 = arith.addi %a62, %r : tensor<64xi32, #d1>
  %a64 = arith.addi %a63, %r : tensor<64xi32, #d1>
  %a65 = arith.addi %a64, %r : tensor<64xi32, #d1>
  %a66 = arith.addi %a65, %r : tensor<64xi32, #d1>
  %c = tile.convert_layout %a66 : tensor<64xi32, #d1> -> tensor<64xi32, #tile.slice<dim = 1, parent = #d2>>
  %s = tile.reduce %c {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64xi32, #tile.slice<dim = 1, parent = #d2>> -> i32
  tile.store %p, %s : !tile.ptr<i32>, i32
  return
}

// -----

#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#st = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// A pointer tile carried by the loop that the body converts before loading
// through it, and otherwise only advances elementwise (addptr of a splat
// step) into its next value: it is carried in the converted-to layout. Its
// initial value (make_range, splat, addptr) is recomputed in that layout
// before the loop, the step too, and no conversion is left in the loop.
// CHECK: #[[ST:blocked[0-9]*]] = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// CHECK-LABEL: func.func @converted_iter_arg
// CHECK-NOT: tile.convert_layout
// CHECK: %[[P0:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[ST]]>, tensor<32x128xi32, #[[ST]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[STEP:.*]] = tile.splat %{{.*}} : tensor<32x128xi32, #[[ST]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %{{.*}}:2 = scf.for {{.*}} iter_args(%[[Q:.*]] = %[[P0]], %[[ACC:.*]] = %{{.*}}) -> (tensor<32x128x!tile.ptr<f32>, #[[ST]]>, tensor<32x128xf32, #[[ST]]>)
// CHECK-NOT: tile.convert_layout
// CHECK: %[[X:.*]] = tile.load %[[Q]] : (tensor<32x128x!tile.ptr<f32>, #[[ST]]>) -> tensor<32x128xf32, #[[ST]]>
// CHECK-NOT: tile.convert_layout
// CHECK: %[[N:.*]] = tile.addptr %[[Q]], %[[STEP]] : tensor<32x128x!tile.ptr<f32>, #[[ST]]>, tensor<32x128xi32, #[[ST]]>
// CHECK-NOT: tile.convert_layout
// CHECK: scf.yield %[[N]], %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[ST]]>, tensor<32x128xf32, #[[ST]]>
// CHECK-NEXT: }
// CHECK-NOT: tile.convert_layout
// CHECK: return
func.func @converted_iter_arg(%p: !tile.ptr<f32>, %s: i32, %n: i32) -> tensor<32x128xf32, #st> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<32x128xf32, #st>
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #b>>
  %r1 = tile.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #b>> -> tensor<1x128xi32, #b>
  %r2 = tile.broadcast %r1 : tensor<1x128xi32, #b> -> tensor<32x128xi32, #b>
  %ps = tile.splat %p : tensor<32x128x!tile.ptr<f32>, #b>
  %p0 = tile.addptr %ps, %r2 : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
  %step = tile.splat %s : tensor<32x128xi32, #b>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0, %acc = %z) -> (tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #st>) : i32 {
    %qc = tile.convert_layout %q : tensor<32x128x!tile.ptr<f32>, #b> -> tensor<32x128x!tile.ptr<f32>, #st>
    %x = tile.load %qc : (tensor<32x128x!tile.ptr<f32>, #st>) -> tensor<32x128xf32, #st>
    %a = arith.addf %acc, %x : tensor<32x128xf32, #st>
    %nq = tile.addptr %q, %step : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
    scf.yield %nq, %a : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #st>
  }
  return %res#1 : tensor<32x128xf32, #st>
}

// -----

#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#st = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// @converted_iter_arg where the body also loads through the pointers in
// their own layout: that use would need the conversion back, so the
// argument keeps its layout and the conversion stays in the loop.
// CHECK-LABEL: func.func @iter_arg_other_use
// CHECK: scf.for {{.*}} iter_args(%[[Q:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<32x128x!tile.ptr<f32>, #[[B:blocked[0-9]*]]>, tensor<32x128xf32, #[[ST:blocked[0-9]*]]>)
// CHECK: %[[QC:.*]] = tile.convert_layout %[[Q]] : tensor<32x128x!tile.ptr<f32>, #[[B]]> -> tensor<32x128x!tile.ptr<f32>, #[[ST]]>
// CHECK: tile.load %[[QC]] :
// CHECK: tile.load %[[Q]] : (tensor<32x128x!tile.ptr<f32>, #[[B]]>)
// CHECK: %[[N:.*]] = tile.addptr %[[Q]], %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[B]]>
// CHECK: scf.yield %[[N]], %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[B]]>
func.func @iter_arg_other_use(%p: !tile.ptr<f32>, %s: i32, %n: i32, %out: !tile.ptr<f32>) -> tensor<32x128xf32, #st> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<32x128xf32, #st>
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #b>>
  %r1 = tile.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #b>> -> tensor<1x128xi32, #b>
  %r2 = tile.broadcast %r1 : tensor<1x128xi32, #b> -> tensor<32x128xi32, #b>
  %ps = tile.splat %p : tensor<32x128x!tile.ptr<f32>, #b>
  %p0 = tile.addptr %ps, %r2 : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
  %step = tile.splat %s : tensor<32x128xi32, #b>
  %os = tile.splat %out : tensor<32x128x!tile.ptr<f32>, #b>
  %po = tile.addptr %os, %r2 : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0, %acc = %z) -> (tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #st>) : i32 {
    %qc = tile.convert_layout %q : tensor<32x128x!tile.ptr<f32>, #b> -> tensor<32x128x!tile.ptr<f32>, #st>
    %x = tile.load %qc : (tensor<32x128x!tile.ptr<f32>, #st>) -> tensor<32x128xf32, #st>
    %a = arith.addf %acc, %x : tensor<32x128xf32, #st>
    %y = tile.load %q : (tensor<32x128x!tile.ptr<f32>, #b>) -> tensor<32x128xf32, #b>
    tile.store %po, %y : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #b>
    %nq = tile.addptr %q, %step : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
    scf.yield %nq, %a : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #st>
  }
  return %res#1 : tensor<32x128xf32, #st>
}

// -----

#b = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#st = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
// @converted_iter_arg where the advanced pointers are also loaded through
// in their own layout (the addptr has a use besides the yield): the
// argument keeps its layout and the conversion stays in the loop.
// CHECK-LABEL: func.func @advanced_other_use
// CHECK: scf.for {{.*}} iter_args(%[[Q:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<32x128x!tile.ptr<f32>, #[[B:blocked[0-9]*]]>, tensor<32x128xf32, #[[ST:blocked[0-9]*]]>)
// CHECK: %[[QC:.*]] = tile.convert_layout %[[Q]] : tensor<32x128x!tile.ptr<f32>, #[[B]]> -> tensor<32x128x!tile.ptr<f32>, #[[ST]]>
// CHECK: tile.load %[[QC]] :
// CHECK: %[[N:.*]] = tile.addptr %[[Q]], %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[B]]>
// CHECK: tile.load %[[N]] : (tensor<32x128x!tile.ptr<f32>, #[[B]]>)
// CHECK: scf.yield %[[N]], %{{.*}} : tensor<32x128x!tile.ptr<f32>, #[[B]]>
func.func @advanced_other_use(%p: !tile.ptr<f32>, %s: i32, %n: i32, %out: !tile.ptr<f32>) -> tensor<32x128xf32, #st> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<32x128xf32, #st>
  %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #b>>
  %r1 = tile.expand_dims %r {axis = 0 : i32} : tensor<128xi32, #tile.slice<dim = 0, parent = #b>> -> tensor<1x128xi32, #b>
  %r2 = tile.broadcast %r1 : tensor<1x128xi32, #b> -> tensor<32x128xi32, #b>
  %ps = tile.splat %p : tensor<32x128x!tile.ptr<f32>, #b>
  %p0 = tile.addptr %ps, %r2 : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
  %step = tile.splat %s : tensor<32x128xi32, #b>
  %os = tile.splat %out : tensor<32x128x!tile.ptr<f32>, #b>
  %po = tile.addptr %os, %r2 : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p0, %acc = %z) -> (tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #st>) : i32 {
    %qc = tile.convert_layout %q : tensor<32x128x!tile.ptr<f32>, #b> -> tensor<32x128x!tile.ptr<f32>, #st>
    %x = tile.load %qc : (tensor<32x128x!tile.ptr<f32>, #st>) -> tensor<32x128xf32, #st>
    %a = arith.addf %acc, %x : tensor<32x128xf32, #st>
    %nq = tile.addptr %q, %step : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xi32, #b>
    %y = tile.load %nq : (tensor<32x128x!tile.ptr<f32>, #b>) -> tensor<32x128xf32, #b>
    tile.store %po, %y : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #b>
    scf.yield %nq, %a : tensor<32x128x!tile.ptr<f32>, #b>, tensor<32x128xf32, #st>
  }
  return %res#1 : tensor<32x128xf32, #st>
}

// -----

#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#d2 = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#d3 = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
// A load of at most one element a thread (64 and 128 with 128 threads) is
// loaded again in the layout its use wants (attention backward's row of
// m) when that layout holds at most 8 registers a thread (#d2: 4 and 8);
// into #d3 (128 registers a thread) it stays converted.
// CHECK-LABEL: func.func @small_loads
// CHECK: %[[R:.*]] = tile.make_range {{.*}} : tensor<64xi32, #tile.slice<dim = 0, parent = #[[D2:blocked[0-9]*]]>>
// CHECK: %[[P:.*]] = tile.addptr {{.*}}, %[[R]] : tensor<64x!tile.ptr<f32>, #tile.slice<dim = 0, parent = #[[D2]]>>
// CHECK: %[[M:.*]] = tile.load %[[P]] : {{.*}} -> tensor<64xf32, #tile.slice<dim = 0, parent = #[[D2]]>>
// CHECK: tile.expand_dims %[[M]]
// CHECK: %[[MID:.*]] = tile.load {{.*}} -> tensor<128xf32, #tile.slice<dim = 0, parent = #[[D2]]>>
// CHECK: tile.reduce %[[MID]]
// CHECK: %[[BIG:.*]] = tile.load {{.*}} -> tensor<128xf32, #{{blocked[0-9]*}}>
// CHECK: tile.convert_layout %[[BIG]]
module attributes {tile.num_warps = 4 : i32} {
  func.func @small_loads(%p: !tile.ptr<f32>) {
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d1>
    %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d1>, tensor<64xi32, #d1>
    %m = tile.load %pp : (tensor<64x!tile.ptr<f32>, #d1>) -> tensor<64xf32, #d1>
    %c = tile.convert_layout %m : tensor<64xf32, #d1> -> tensor<64xf32, #tile.slice<dim = 0, parent = #d2>>
    %e = tile.expand_dims %c {axis = 0 : i32} : tensor<64xf32, #tile.slice<dim = 0, parent = #d2>> -> tensor<1x64xf32, #d2>
    %b = tile.broadcast %e : tensor<1x64xf32, #d2> -> tensor<16x64xf32, #d2>
    %s = tile.reduce %b {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<16x64xf32, #d2> -> tensor<64xf32, #tile.slice<dim = 0, parent = #d2>>
    %r2 = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #d1>
    %ps2 = tile.splat %p : tensor<128x!tile.ptr<f32>, #d1>
    %pp2 = tile.addptr %ps2, %r2 : tensor<128x!tile.ptr<f32>, #d1>, tensor<128xi32, #d1>
    %mid = tile.load %pp2 : (tensor<128x!tile.ptr<f32>, #d1>) -> tensor<128xf32, #d1>
    %mc = tile.convert_layout %mid : tensor<128xf32, #d1> -> tensor<128xf32, #tile.slice<dim = 0, parent = #d2>>
    %w = tile.reduce %mc {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<128xf32, #tile.slice<dim = 0, parent = #d2>> -> f32
    %big = tile.load %pp2 : (tensor<128x!tile.ptr<f32>, #d1>) -> tensor<128xf32, #d1>
    %bc = tile.convert_layout %big : tensor<128xf32, #d1> -> tensor<128xf32, #tile.slice<dim = 0, parent = #d3>>
    %t = tile.reduce %bc {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<128xf32, #tile.slice<dim = 0, parent = #d3>> -> f32
    %u = tile.reduce %s {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64xf32, #tile.slice<dim = 0, parent = #d2>> -> f32
    %v0 = arith.addf %t, %u : f32
    %v = arith.addf %v0, %w : f32
    tile.store %p, %v : !tile.ptr<f32>, f32
    return
  }
}

// -----

#a = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#e = #tile.blocked<sizePerThread = [1, 1, 1], threadsPerWarp = [16, 2, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
#p = #tile.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// A tile converted, expanded and converted again (the halves of a tile
// unpacked into pairs) is converted once, straight into the slice of the
// final layout.
// CHECK-LABEL: func.func @conversion_through_expand
// CHECK: %[[X:.*]] = tile.load {{.*}} -> tensor<32x16xf32, #[[A:blocked[0-9]*]]>
// CHECK-NEXT: %[[C:.*]] = tile.convert_layout %[[X]] : tensor<32x16xf32, #[[A]]> -> tensor<32x16xf32, #tile.slice<dim = 2, parent = #[[P:blocked[0-9]*]]>>
// CHECK-NEXT: %[[E:.*]] = tile.expand_dims %[[C]] {axis = 2 : i32} : tensor<32x16xf32, #tile.slice<dim = 2, parent = #[[P]]>> -> tensor<32x16x1xf32, #[[P]]>
// CHECK-NEXT: tile.broadcast %[[E]] : tensor<32x16x1xf32, #[[P]]> -> tensor<32x16x2xf32, #[[P]]>
// CHECK-NOT: tile.convert_layout
func.func @conversion_through_expand(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) {
  %ps = tile.splat %p : tensor<32x16x!tile.ptr<f32>, #a>
  %x = tile.load %ps : (tensor<32x16x!tile.ptr<f32>, #a>) -> tensor<32x16xf32, #a>
  %c = tile.convert_layout %x : tensor<32x16xf32, #a> -> tensor<32x16xf32, #tile.slice<dim = 2, parent = #e>>
  %e = tile.expand_dims %c {axis = 2 : i32} : tensor<32x16xf32, #tile.slice<dim = 2, parent = #e>> -> tensor<32x16x1xf32, #e>
  %f = tile.convert_layout %e : tensor<32x16x1xf32, #e> -> tensor<32x16x1xf32, #p>
  %b = tile.broadcast %f : tensor<32x16x1xf32, #p> -> tensor<32x16x2xf32, #p>
  %qs = tile.splat %q : tensor<32x16x2x!tile.ptr<f32>, #p>
  tile.store %qs, %b : tensor<32x16x2x!tile.ptr<f32>, #p>, tensor<32x16x2xf32, #p>
  return
}

// -----

#a = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
#e = #tile.blocked<sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
#r = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]>
// A reshape that merges [32, 16, 2] into [32, 32] would go through shared
// memory; its operand is recomputed in the result's layout split in two
// ([1, 8] per thread: [1, 4, 2]), which keeps every element in its thread,
// and the one conversion on the way (of the loaded tile) moves into that
// layout's slice.
// CHECK: #[[S:blocked[0-9]*]] = #tile.blocked<sizePerThread = [1, 4, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
// CHECK-LABEL: func.func @reshape_operand
// CHECK: %[[X:.*]] = tile.load
// CHECK: %[[C:.*]] = tile.convert_layout %[[X]] : tensor<32x16xi32, #{{blocked[0-9]*}}> -> tensor<32x16xi32, #tile.slice<dim = 2, parent = #[[S]]>>
// CHECK: %[[E:.*]] = tile.expand_dims %[[C]]
// CHECK: %[[B:.*]] = tile.broadcast %[[E]] : tensor<32x16x1xi32, #[[S]]> -> tensor<32x16x2xi32, #[[S]]>
// CHECK: %[[P:.*]] = arith.addi %[[B]], %{{.*}} : tensor<32x16x2xi32, #[[S]]>
// CHECK: tile.reshape %[[P]] : tensor<32x16x2xi32, #[[S]]> -> tensor<32x32xi32, #{{blocked[0-9]*}}>
// CHECK-NOT: tile.convert_layout
func.func @reshape_operand(%p: !tile.ptr<i32>, %q: !tile.ptr<i32>) {
  %ps = tile.splat %p : tensor<32x16x!tile.ptr<i32>, #a>
  %x = tile.load %ps : (tensor<32x16x!tile.ptr<i32>, #a>) -> tensor<32x16xi32, #a>
  %c = tile.convert_layout %x : tensor<32x16xi32, #a> -> tensor<32x16xi32, #tile.slice<dim = 2, parent = #e>>
  %e = tile.expand_dims %c {axis = 2 : i32} : tensor<32x16xi32, #tile.slice<dim = 2, parent = #e>> -> tensor<32x16x1xi32, #e>
  %b = tile.broadcast %e : tensor<32x16x1xi32, #e> -> tensor<32x16x2xi32, #e>
  %one = arith.constant dense<1> : tensor<32x16x2xi32, #e>
  %s = arith.addi %b, %one : tensor<32x16x2xi32, #e>
  %m = tile.reshape %s : tensor<32x16x2xi32, #e> -> tensor<32x32xi32, #r>
  %qs = tile.splat %q : tensor<32x32x!tile.ptr<i32>, #r>
  tile.store %qs, %m : tensor<32x32x!tile.ptr<i32>, #r>, tensor<32x32xi32, #r>
  return
}

// -----

#l = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#p = #tile.blocked<sizePerThread = [1, 8, 2], threadsPerWarp = [16, 2, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]>
#a = #tile.blocked<sizePerThread = [1, 16], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]>
#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
// The 16-bit A of a wgmma product computed from narrower tiles (bytes
// spread into pairs and decoded, as tl.dot_scaled's fp4 lhs) is computed in
// the layout of wgmma's A fragments (#mma16: an accumulator 16 columns
// wide) back to the bytes, which alone are converted: the reshape's operand
// and the broadcast's get the linear layouts that keep every element in its
// thread. A loaded 16-bit A is left as it is.
// CHECK-DAG: #[[L3:linear[0-9]*]] = #tile.linear<shape = [64, 16, 1], registers = {{\[}}[8, 0, 0], [0, 4, 0], [0, 8, 0]], lanes = {{\[}}[0, 1, 0], [0, 2, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warps = {{\[}}[16, 0, 0], [32, 0, 0]]>
// CHECK-DAG: #[[P3:linear[0-9]*]] = #tile.linear<shape = [64, 16, 2], registers = {{\[}}[0, 0, 1], [8, 0, 0], [0, 4, 0], [0, 8, 0]], lanes = {{\[}}[0, 1, 0], [0, 2, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warps = {{\[}}[16, 0, 0], [32, 0, 0]]>
// CHECK-DAG: #[[F:mma[0-9]*]] = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]>
// CHECK-LABEL: func.func @decoded_lhs
// CHECK: %[[BYTES:.*]] = tile.load {{.*}} -> tensor<64x16xi8, #blocked>
// CHECK: %[[C:.*]] = tile.convert_layout %[[BYTES]] : tensor<64x16xi8, #blocked> -> tensor<64x16xi8, #tile.slice<dim = 2, parent = #[[L3]]>>
// CHECK: %[[E:.*]] = tile.expand_dims %[[C]] {{.*}} -> tensor<64x16x1xi8, #[[L3]]>
// CHECK: %[[B:.*]] = tile.broadcast %[[E]] : {{.*}} -> tensor<64x16x2xi8, #[[P3]]>
// CHECK: %[[D:.*]] = arith.sitofp %[[B]] : tensor<64x16x2xi8, #[[P3]]> to tensor<64x16x2xf16, #[[P3]]>
// CHECK: %[[A:.*]] = tile.reshape %[[D]] : tensor<64x16x2xf16, #[[P3]]> -> tensor<64x32xf16, #[[F]]>
// CHECK: tile.dot %[[A]], {{.*}} : tensor<64x32xf16, #[[F]]>, tensor<32x64xf16, #{{blocked[0-9]*}}>
// CHECK-LABEL: func.func @plain_lhs
// CHECK: tile.dot {{.*}} : tensor<64x32xf16, #{{blocked[0-9]*}}>, tensor<32x64xf16, #{{blocked[0-9]*}}>
module attributes {tile.num_warps = 4 : i32} {
  func.func @decoded_lhs(%pa: !tile.ptr<i8>, %pb: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<64x16x!tile.ptr<i8>, #l>
    %bytes = tile.load %a0 : (tensor<64x16x!tile.ptr<i8>, #l>) -> tensor<64x16xi8, #l>
    %c = tile.convert_layout %bytes : tensor<64x16xi8, #l> -> tensor<64x16xi8, #tile.slice<dim = 2, parent = #p>>
    %e = tile.expand_dims %c {axis = 2 : i32} : tensor<64x16xi8, #tile.slice<dim = 2, parent = #p>> -> tensor<64x16x1xi8, #p>
    %pairs = tile.broadcast %e : tensor<64x16x1xi8, #p> -> tensor<64x16x2xi8, #p>
    %f = arith.sitofp %pairs : tensor<64x16x2xi8, #p> to tensor<64x16x2xf16, #p>
    %a = tile.reshape %f : tensor<64x16x2xf16, #p> -> tensor<64x32xf16, #a>
    %b0 = tile.splat %pb : tensor<32x64x!tile.ptr<f16>, #b>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f16>, #b>) -> tensor<32x64xf16, #b>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16, #a>, tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    %c0 = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
    tile.store %c0, %d : tensor<64x64x!tile.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
  func.func @plain_lhs(%pa: !tile.ptr<f16>, %pc: !tile.ptr<f32>) {
    %a0 = tile.splat %pa : tensor<64x32x!tile.ptr<f16>, #a>
    %a = tile.load %a0 : (tensor<64x32x!tile.ptr<f16>, #a>) -> tensor<64x32xf16, #a>
    %b0 = tile.splat %pa : tensor<32x64x!tile.ptr<f16>, #b>
    %b = tile.load %b0 : (tensor<32x64x!tile.ptr<f16>, #b>) -> tensor<32x64xf16, #b>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %d = tile.dot %a, %b, %z {inputPrecision = #tile<input_precision ieee>} : tensor<64x32xf16, #a>, tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
    %c0 = tile.splat %pc : tensor<64x64x!tile.ptr<f32>, #mma>
    tile.store %c0, %d : tensor<64x64x!tile.ptr<f32>, #mma>, tensor<64x64xf32, #mma>
    return
  }
}

// -----

#z = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]>
#t = #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]>
#y = #tile.blocked<sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [1, 0]>
// Rematerialisation goes through a transposition: the small load is read
// in the layout whose transposition is the one wanted (a #tile.linear).
// CHECK: #[[LT:linear[0-9]*]] = #tile.linear<shape = [2, 64], registers = {{\[}}[1, 0]], lanes = {{\[}}[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], warps = {{\[}}[0, 0], [0, 32]]>
// CHECK-LABEL: func.func @transposed_load
// CHECK: %[[S:.*]] = tile.load {{.*}} -> tensor<2x64xf32, #[[LT]]>
// CHECK: tile.trans %[[S]] {{.*}} -> tensor<64x2xf32, #blocked>
// CHECK-NOT: tile.convert_layout
module attributes {tile.num_warps = 4 : i32} {
  func.func @transposed_load(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<2x64x!tile.ptr<f32>, #z>
    %s = tile.load %ps : (tensor<2x64x!tile.ptr<f32>, #z>) -> tensor<2x64xf32, #z>
    %t = tile.trans %s {order = array<i32: 1, 0>} : tensor<2x64xf32, #z> -> tensor<64x2xf32, #t>
    %c = tile.convert_layout %t : tensor<64x2xf32, #t> -> tensor<64x2xf32, #y>
    %r = tile.reduce %c {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<64x2xf32, #y> -> tensor<64xf32, #tile.slice<dim = 1, parent = #y>>
    %q = tile.reduce %r {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64xf32, #tile.slice<dim = 1, parent = #y>> -> f32
    tile.store %p, %q : !tile.ptr<f32>, f32
    return
  }
}

// -----

#d1 = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
#da = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]>
#db = #tile.blocked<sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]>
// A small load that would hold more than 8 registers a thread in the
// wanted layout (here 16: every thread a quarter of the row of 64) is
// loaded again only in place of a conversion of at least 16 times its
// bytes: the row of indices spread into a 128 x 64 tile of pointers (a
// gather, 64 KiB converted) is read again in #db; converted alone (256
// bytes) it stays a conversion.
// CHECK-LABEL: func.func @spread_indices
// CHECK: %[[K:.*]] = tile.load {{.*}} -> tensor<64xi32, #tile.slice<dim = 0, parent = #[[DB:blocked[0-9]*]]>>
// CHECK-NOT: tile.convert_layout
// CHECK: tile.expand_dims %[[K]]
// CHECK-LABEL: func.func @indices_alone
// CHECK: %[[L:.*]] = tile.load {{.*}} -> tensor<64xi32, #{{blocked[0-9]*}}>
// CHECK: tile.convert_layout %[[L]]
module attributes {tile.num_warps = 4 : i32} {
  func.func @spread_indices(%p: !tile.ptr<i32>, %q: !tile.ptr<f32>) {
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<i32>, #d1>
    %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<i32>, #d1>, tensor<64xi32, #d1>
    %k = tile.load %pp : (tensor<64x!tile.ptr<i32>, #d1>) -> tensor<64xi32, #d1>
    %kc = tile.convert_layout %k : tensor<64xi32, #d1> -> tensor<64xi32, #tile.slice<dim = 0, parent = #da>>
    %ke = tile.expand_dims %kc {axis = 0 : i32} : tensor<64xi32, #tile.slice<dim = 0, parent = #da>> -> tensor<1x64xi32, #da>
    %kb = tile.broadcast %ke : tensor<1x64xi32, #da> -> tensor<128x64xi32, #da>
    %qs = tile.splat %q : tensor<128x64x!tile.ptr<f32>, #da>
    %qp = tile.addptr %qs, %kb : tensor<128x64x!tile.ptr<f32>, #da>, tensor<128x64xi32, #da>
    %qc = tile.convert_layout %qp : tensor<128x64x!tile.ptr<f32>, #da> -> tensor<128x64x!tile.ptr<f32>, #db>
    %x = tile.load %qc : (tensor<128x64x!tile.ptr<f32>, #db>) -> tensor<128x64xf32, #db>
    tile.store %qc, %x : tensor<128x64x!tile.ptr<f32>, #db>, tensor<128x64xf32, #db>
    return
  }
  func.func @indices_alone(%p: !tile.ptr<i32>) {
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d1>
    %ps = tile.splat %p : tensor<64x!tile.ptr<i32>, #d1>
    %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<i32>, #d1>, tensor<64xi32, #d1>
    %k = tile.load %pp : (tensor<64x!tile.ptr<i32>, #d1>) -> tensor<64xi32, #d1>
    %kc = tile.convert_layout %k : tensor<64xi32, #d1> -> tensor<64xi32, #tile.slice<dim = 0, parent = #db>>
    %s = tile.reduce %kc {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<64xi32, #tile.slice<dim = 0, parent = #db>> -> i32
    tile.store %p, %s : !tile.ptr<i32>, i32
    return
  }
}
