// RUN: tilec-opt %s -split-input-file -tile-group-programs | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-group-programs="group-size=1" | FileCheck %s --check-prefix=OFF

// A matmul reading program ids along axes 0 and 1: both are computed from
// the launch position l = x + y * gx in groups of 8 ids along axis 0:
// first = l / (8 * gy) * 8, rows = min(gx - first, 8),
// id(0) = first + l % (8 * gy) % rows, id(1) = l % (8 * gy) / rows; every
// use of the old ids (two of axis 0 here) reads the new ones. l does not
// overflow (nsw), which tells tile-pipeline the new ids are not negative.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[X:.*]] = tile.program_id 0 : i32
// CHECK-DAG: %[[Y:.*]] = tile.program_id 1 : i32
// CHECK-DAG: %[[GX:.*]] = tile.num_programs 0 : i32
// CHECK-DAG: %[[GY:.*]] = tile.num_programs 1 : i32
// CHECK: %[[YGX:.*]] = arith.muli %[[Y]], %[[GX]] overflow<nsw> : i32
// CHECK: %[[L:.*]] = arith.addi %[[X]], %[[YGX]] overflow<nsw> : i32
// CHECK: %[[GROUP:.*]] = arith.muli %[[C8]], %[[GY]] : i32
// CHECK: %[[G:.*]] = arith.divui %[[L]], %[[GROUP]] : i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %[[C8]] : i32
// CHECK: %[[LEFT:.*]] = arith.subi %[[GX]], %[[FIRST]] : i32
// CHECK: %[[ROWS:.*]] = arith.minui %[[LEFT]], %[[C8]] : i32
// CHECK: %[[WITHIN:.*]] = arith.remui %[[L]], %[[GROUP]] : i32
// CHECK: %[[R:.*]] = arith.remui %[[WITHIN]], %[[ROWS]] : i32
// CHECK: %[[ID0:.*]] = arith.addi %[[FIRST]], %[[R]] : i32
// CHECK: %[[ID1:.*]] = arith.divui %[[WITHIN]], %[[ROWS]] : i32
// CHECK-NOT: tile.program_id
// CHECK: arith.muli %[[ID0]], %{{.*}} : i32
// CHECK: arith.muli %[[ID1]], %{{.*}} : i32
// CHECK: arith.addi %[[ID0]], %{{.*}} : i32
// OFF-LABEL: func.func @matmul
// OFF: %[[X:.*]] = tile.program_id 0 : i32
// OFF-NEXT: %[[Y:.*]] = tile.program_id 1 : i32
// OFF-NOT: tile.num_programs
func.func @matmul(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %n: i32) -> (tensor<16x16xf32>, i32, i32, i32) {
  %c16 = arith.constant 16 : i32
  %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %m0 = arith.muli %x, %c16 : i32
  %n0 = arith.muli %y, %c16 : i32
  %x2 = tile.program_id 0 : i32
  %m1 = arith.addi %x2, %n : i32
  %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return %d, %m0, %n0, %m1 : tensor<16x16xf32>, i32, i32, i32
}

// -----

// No dot: the order of the programs is left as launched.
// CHECK-LABEL: func.func @no_dot
// CHECK-NEXT: tile.program_id 0 : i32
// CHECK-NEXT: tile.program_id 1 : i32
// CHECK-NOT: tile.num_programs
func.func @no_dot() -> (i32, i32) {
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  return %x, %y : i32, i32
}

// -----

// A 3-D grid (axis 2 read): left as launched.
// CHECK-LABEL: func.func @three_axes
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tile.program_id 0 : i32
// CHECK-NEXT: tile.program_id 1 : i32
// CHECK-NEXT: tile.program_id 2 : i32
// CHECK-NOT: tile.num_programs
func.func @three_axes(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>) -> (tensor<16x16xf32>, i32, i32, i32) {
  %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %z = tile.program_id 2 : i32
  %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return %d, %x, %y, %z : tensor<16x16xf32>, i32, i32, i32
}

// -----

// Only axis 0 read (a 1-D grid of row blocks): left as launched.
// CHECK-LABEL: func.func @one_axis
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tile.program_id 0 : i32
// CHECK-NOT: tile.num_programs
func.func @one_axis(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>) -> (tensor<16x16xf32>, i32) {
  %acc = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
  %x = tile.program_id 0 : i32
  %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return %d, %x : tensor<16x16xf32>, i32
}
