// RUN: tilec-opt %s -split-input-file -tile-prefetch-loads | FileCheck %s

// A K loop: the loads of the first iteration move before the loop, masked
// by lb < ub; each iteration computes the next pointers (cloned from the
// yielded values), loads the next tiles masked by their own mask and
// i + step < ub, and the product uses the tiles the loop carries.
// CHECK-LABEL: func.func @k_loop
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32)
// CHECK: %[[P0:.*]] = tile.splat %[[P]] : tensor<64x32x!tile.ptr<f16>>
// CHECK: %[[FIRST:.*]] = arith.cmpi slt, %[[LB:.*]], %[[N]] : i32
// CHECK: %[[FMASK:.*]] = tile.splat %[[FIRST]] : tensor<64x32xi1>
// CHECK: %[[A0:.*]] = tile.load %[[P0]], %[[FMASK]] : (tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi1>) -> tensor<64x32xf16>
// CHECK: %[[R:.*]]:3 = scf.for %[[I:.*]] = %[[LB]] to %[[N]] step %[[S:.*]] iter_args(%[[PA:.*]] = %[[P0]], %[[ACC:.*]] = %{{.*}}, %[[A:.*]] = %[[A0]])
// CHECK:   %[[NEXTP:.*]] = tile.addptr %[[PA]], %{{.*}}
// CHECK:   %[[NEXTI:.*]] = arith.addi %[[I]], %[[S]] : i32
// CHECK:   %[[VALID:.*]] = arith.cmpi slt, %[[NEXTI]], %[[N]] : i32
// CHECK:   %[[VMASK:.*]] = tile.splat %[[VALID]] : tensor<64x32xi1>
// CHECK:   %[[NEXTA:.*]] = tile.load %[[NEXTP]], %[[VMASK]]
// CHECK:   %[[D:.*]] = tile.dot %[[A]], %{{.*}}, %[[ACC]]
// CHECK:   scf.yield %{{.*}}, %[[D]], %[[NEXTA]]
func.func @k_loop(%p: !tile.ptr<f16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %d32 = arith.constant dense<32> : tensor<64x32xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %sb = tile.splat %p : tensor<32x64x!tile.ptr<f16>>
  %b = tile.load %sb : (tensor<32x64x!tile.ptr<f16>>) -> tensor<32x64xf16>
  %p0 = tile.splat %p : tensor<64x32x!tile.ptr<f16>>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%pa = %p0, %acc = %zero) -> (tensor<64x32x!tile.ptr<f16>>, tensor<64x64xf32>) : i32 {
    %a = tile.load %pa : (tensor<64x32x!tile.ptr<f16>>) -> tensor<64x32xf16>
    %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %next = tile.addptr %pa, %d32 : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %next, %d : tensor<64x32x!tile.ptr<f16>>, tensor<64x64xf32>
  }
  return
}

// -----

// A loop without a product is left alone. In a gather, the index load is
// prefetched (its pointers do not change), but the load whose pointers come
// from it stays where it is.
// CHECK-LABEL: func.func @untouched
// CHECK: scf.for
// CHECK-NEXT: tile.load
// CHECK-NEXT: tile.store
// CHECK: %[[IDX0:.*]] = tile.load %{{.*}}, %{{.*}} : (tensor<16x16x!tile.ptr<i32>>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[IDX:.*]] = %[[IDX0]])
// CHECK:   tile.load {{.*}} -> tensor<16x16xi32>
// CHECK:   %[[G:.*]] = tile.addptr %{{.*}}, %[[IDX]]
// CHECK:   tile.load %[[G]] : (tensor<16x16x!tile.ptr<f32>>) -> tensor<16x16xf32>
// CHECK:   tile.dot
func.func @untouched(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ps = tile.splat %p : tensor<64x!tile.ptr<f32>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = tile.load %ps : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf32>
    tile.store %ps, %x : tensor<64x!tile.ptr<f32>>, tensor<64xf32>
  }
  %qs = tile.splat %q : tensor<16x16x!tile.ptr<i32>>
  %pm = tile.splat %p : tensor<16x16x!tile.ptr<f32>>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %idx = tile.load %qs : (tensor<16x16x!tile.ptr<i32>>) -> tensor<16x16xi32>
    %g = tile.addptr %pm, %idx : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
    %x = tile.load %g : (tensor<16x16x!tile.ptr<f32>>) -> tensor<16x16xf32>
    %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision ieee>} : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  return
}
