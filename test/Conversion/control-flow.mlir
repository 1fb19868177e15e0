// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// scf is lowered to blocks first, so loop-carried tiles become block
// arguments of the register struct type.
#d = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 2 : i32} {
  // CHECK-LABEL: llvm.func @loop
  // CHECK: llvm.br ^[[HEAD:bb[0-9]+]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
  // CHECK: ^[[HEAD]](%[[I:.*]]: i32, %[[ACC:.*]]: !llvm.struct<(f32, f32)>):
  // CHECK: llvm.cond_br
  // CHECK: llvm.extractvalue %[[ACC]][0]
  // CHECK: llvm.fadd
  // CHECK: llvm.br ^[[HEAD]](%{{.*}}, %{{.*}} : i32, !llvm.struct<(f32, f32)>)
  func.func @loop(%p: !tile.ptr<f32>, %n: i32) {
    %z = arith.constant dense<0.0> : tensor<128xf32, #d>
    %ps = tile.splat %p : tensor<128x!tile.ptr<f32>, #d>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128xf32, #d>) : i32 {
      %x = tile.load %ps : (tensor<128x!tile.ptr<f32>, #d>) -> tensor<128xf32, #d>
      %s = arith.addf %acc, %x : tensor<128xf32, #d>
      scf.yield %s : tensor<128xf32, #d>
    }
    tile.store %ps, %r : tensor<128x!tile.ptr<f32>, #d>, tensor<128xf32, #d>
    return
  }
}

// -----

// scf.if and scf.while with tile results; a select on tiles with a scalar
// condition uses the condition for every register.
#d = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 2 : i32} {
  // CHECK-LABEL: llvm.func @branches
  // CHECK: llvm.cond_br %{{.*}}, ^{{.*}}, ^{{.*}}
  // CHECK: llvm.br ^[[JOIN:bb[0-9]+]](%{{.*}} : !llvm.struct<(i32, i32)>)
  // CHECK: llvm.br ^[[JOIN]](%{{.*}} : !llvm.struct<(i32, i32)>)
  // CHECK: ^[[JOIN]](%{{.*}}: !llvm.struct<(i32, i32)>):
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  // CHECK: ^[[BEFORE:bb[0-9]+]](%{{.*}}: i32, %{{.*}}: !llvm.struct<(i32, i32)>):
  // CHECK: llvm.cond_br %{{.*}}, ^{{.*}}(%{{.*}}, %{{.*}} : i32, !llvm.struct<(i32, i32)>), ^{{.*}}
  func.func @branches(%p: !tile.ptr<i32>, %c: i1, %n: i32) {
    %r = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #d>
    %y = scf.if %c -> (tensor<128xi32, #d>) {
      %t = arith.addi %r, %r : tensor<128xi32, #d>
      scf.yield %t : tensor<128xi32, #d>
    } else {
      scf.yield %r : tensor<128xi32, #d>
    }
    %sel = arith.select %c, %y, %r : tensor<128xi32, #d>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %w:2 = scf.while (%i = %c0, %t = %sel) : (i32, tensor<128xi32, #d>) -> (i32, tensor<128xi32, #d>) {
      %go = arith.cmpi slt, %i, %n : i32
      scf.condition(%go) %i, %t : i32, tensor<128xi32, #d>
    } do {
    ^bb0(%i2: i32, %t2: tensor<128xi32, #d>):
      %i3 = arith.addi %i2, %c1 : i32
      %t3 = arith.muli %t2, %t2 : tensor<128xi32, #d>
      scf.yield %i3, %t3 : i32, tensor<128xi32, #d>
    }
    %ps = tile.splat %p : tensor<128x!tile.ptr<i32>, #d>
    tile.store %ps, %w#1 : tensor<128x!tile.ptr<i32>, #d>, tensor<128xi32, #d>
    return
  }
}
