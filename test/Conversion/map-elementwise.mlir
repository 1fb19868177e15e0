// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// A body that branches: each of the thread's two registers runs it in its
// own blocks (the scf.if became a conditional branch), joining with the
// element's result before the next register's copy starts; the stores take
// the two joins' values.
#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @branches
  // CHECK: llvm.fcmp "ogt" %[[X0:[0-9]+]], %{{.*}} : f32
  // CHECK-NEXT: llvm.cond_br %{{.*}}, ^[[POS0:bb[0-9]+]], ^[[NEG0:bb[0-9]+]]
  // CHECK-NEXT: ^[[POS0]]:
  // CHECK-NEXT: llvm.br ^[[IF0:bb[0-9]+]](%[[X0]] : f32)
  // CHECK-NEXT: ^[[NEG0]]:
  // CHECK: llvm.intr.exp2
  // CHECK-NEXT: llvm.br ^[[IF0]]
  // CHECK-NEXT: ^[[IF0]](%[[R0:[0-9]+]]: f32):
  // CHECK: llvm.br ^[[JOIN0:bb[0-9]+]](%[[R0]] : f32)
  // CHECK-NEXT: ^[[JOIN0]](%[[OUT0:[0-9]+]]: f32):
  // CHECK: llvm.fcmp "ogt" %[[X1:[0-9]+]], %{{.*}} : f32
  // CHECK-NEXT: llvm.cond_br %{{.*}}, ^[[POS1:bb[0-9]+]], ^[[NEG1:bb[0-9]+]]
  // CHECK-NEXT: ^[[POS1]]:
  // CHECK-NEXT: llvm.br ^[[IF1:bb[0-9]+]](%[[X1]] : f32)
  // CHECK-NEXT: ^[[NEG1]]:
  // CHECK: llvm.intr.exp2
  // CHECK: ^[[IF1]](%[[R1:[0-9]+]]: f32):
  // CHECK: llvm.br ^[[JOIN1:bb[0-9]+]](%[[R1]] : f32)
  // CHECK-NEXT: ^[[JOIN1]](%[[OUT1:[0-9]+]]: f32):
  // CHECK: llvm.insertelement %[[OUT0]]
  // CHECK: llvm.insertelement %[[OUT1]]
  func.func @branches(%p: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<256x!tile.ptr<f32>, #blocked>
    %x = tile.load %ps : (tensor<256x!tile.ptr<f32>, #blocked>) -> tensor<256xf32, #blocked>
    %zero = arith.constant 0.0 : f32
    %y = tile.map_elementwise %x {pack = 1 : i32} : (tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked>) {
    ^bb0(%v: f32):
      %pos = arith.cmpf ogt, %v, %zero : f32
      %r = scf.if %pos -> (f32) {
        scf.yield %v : f32
      } else {
        %e = math.exp %v : f32
        scf.yield %e : f32
      }
      tile.map_elementwise_yield %r : f32
    }
    tile.store %ps, %y : tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xf32, #blocked>
    return
  }
}

// -----

// pack = 2 over two operands: one straight-line copy of the body for the
// thread's pair of registers, taking both elements of %x, then both of %y;
// its yields are the pair of the result, stored in that order.
#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @pairs
  // CHECK: %[[X0:.*]] = llvm.extractvalue %[[X:.*]][0] : !llvm.struct<(i32, i32)>
  // CHECK: %[[X1:.*]] = llvm.extractvalue %[[X]][1] : !llvm.struct<(i32, i32)>
  // CHECK: %[[Y0:.*]] = llvm.extractvalue %[[Y:.*]][0] : !llvm.struct<(i32, i32)>
  // CHECK: %[[Y1:.*]] = llvm.extractvalue %[[Y]][1] : !llvm.struct<(i32, i32)>
  // CHECK-DAG: %[[A:.*]] = llvm.add %[[X1]], %[[Y0]] : i32
  // CHECK-DAG: %[[B:.*]] = llvm.sub %[[X0]], %[[Y1]] : i32
  // CHECK-NOT: llvm.br
  // CHECK: llvm.insertelement %[[A]]
  // CHECK: llvm.insertelement %[[B]]
  func.func @pairs(%x: tensor<256xi32, #blocked>, %y: tensor<256xi32, #blocked>, %p: !tile.ptr<i32>) {
    %z = tile.map_elementwise %x, %y {pack = 2 : i32} : (tensor<256xi32, #blocked>, tensor<256xi32, #blocked>) -> (tensor<256xi32, #blocked>) {
    ^bb0(%x0: i32, %x1: i32, %y0: i32, %y1: i32):
      %a = arith.addi %x1, %y0 : i32
      %b = arith.subi %x0, %y1 : i32
      tile.map_elementwise_yield %a, %b : i32, i32
    }
    %ps = tile.splat %p : tensor<256x!tile.ptr<i32>, #blocked>
    tile.store %ps, %z : tensor<256x!tile.ptr<i32>, #blocked>, tensor<256xi32, #blocked>
    return
  }
}
