// RUN: tilec-opt %s -canonicalize | FileCheck %s

// Splats and broadcasts of constants fold into constants (the tile
// dialect materializes them as arith.constant): a load's `other` written
// `tl.zeros((1, 1), dtype)` broadcast to the block is then the zero
// padding tile-pipeline asks for, and `x * 1` of a broadcast 1 folds away.
// CHECK-LABEL: func.func @fold_constants
// CHECK-DAG: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<128x32xf16>
// CHECK-DAG: %[[SEVENS:.*]] = arith.constant dense<7> : tensor<16xi32>
// CHECK-NOT: tile.broadcast
// CHECK-NOT: tile.splat
// CHECK: %[[X:.*]] = tile.load %{{.*}}, %{{.*}} other %[[ZEROS]]
// CHECK-NOT: arith.mulf
// CHECK: return %[[X]], %[[SEVENS]]
func.func @fold_constants(%p: tensor<128x32x!tile.ptr<f16>>, %m: tensor<128x32xi1>) -> (tensor<128x32xf16>, tensor<16xi32>) {
  %z = arith.constant dense<0.0> : tensor<1x1xf16>
  %zeros = tile.broadcast %z : tensor<1x1xf16> -> tensor<128x32xf16>
  %x = tile.load %p, %m other %zeros : (tensor<128x32x!tile.ptr<f16>>, tensor<128x32xi1>, tensor<128x32xf16>) -> tensor<128x32xf16>
  %one = arith.constant dense<1.0> : tensor<1x32xf16>
  %ones = tile.broadcast %one : tensor<1x32xf16> -> tensor<128x32xf16>
  %y = arith.mulf %x, %ones : tensor<128x32xf16>
  %c7 = arith.constant 7 : i32
  %sevens = tile.splat %c7 : tensor<16xi32>
  return %y, %sevens : tensor<128x32xf16>, tensor<16xi32>
}
