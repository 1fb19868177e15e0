// RUN: tilec-opt %s -split-input-file -tile-flatten-loops | FileCheck %s

// A persistent kernel whose loop over tiles asks to be flattened
// (tl.range(..., flatten=True)): programs walk tiles from their id, each
// tile's K steps in an inner loop from a zero accumulator, then a store.
// One loop runs every K step of every tile: the tile, the step within it
// and the tile's row (computed from the tile alone) are carried, the
// accumulator restarts on a tile's first step, the store runs after its
// last, the next tile's row is computed when the loop moves on to it;
// without K steps each tile stores its initial accumulator.
// CHECK-LABEL: func.func @persistent
// CHECK-SAME: (%{{.*}}: !tile.ptr<f32>, %[[TILES:.*]]: i32, %[[NK:.*]]: i32,
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: %[[PID:.*]] = tile.program_id 0 : i32
// CHECK: arith.subi %[[NK]], %{{.*}} : i32
// CHECK: %[[K:.*]] = arith.maxsi
// CHECK: arith.subi %[[TILES]], %[[PID]] : i32
// CHECK: arith.divsi %{{.*}}, %[[C4]] : i32
// CHECK: %[[T:.*]] = arith.maxsi
// CHECK: %[[HASK:.*]] = arith.cmpi sgt, %[[K]], %{{.*}} : i32
// CHECK: scf.if %[[HASK]] {
// CHECK:   %[[T64:.*]] = arith.extsi %[[T]] : i32 to i64
// CHECK:   %[[K64:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK:   %[[TOTAL:.*]] = arith.muli %[[T64]], %[[K64]] : i64
// CHECK:   %[[ROW0:.*]] = arith.muli %[[PID]], %[[C16]] : i32
// CHECK:   scf.for %{{.*}} = %{{.*}} to %[[TOTAL]] step %{{.*}} iter_args(%[[TILE:.*]] = %[[PID]], %[[KK:.*]] = %[[C0:[^,]*]], %[[ROW:.*]] = %[[ROW0]], %[[ACC:.*]] = %[[ZERO]]) -> (i32, i32, i32, tensor<16x16xf32>)  : i64 {
// CHECK-NOT:   arith.muli %[[TILE]]
// CHECK:     %[[FIRST:.*]] = arith.cmpi eq, %[[KK]], %[[C0]] : i32
// CHECK:     %[[FIRSTS:.*]] = tile.splat %[[FIRST]] : tensor<16x16xi1>
// CHECK:     %[[IN:.*]] = arith.select %[[FIRSTS]], %[[ZERO]], %[[ACC]]
// CHECK:     %[[KOFF:.*]] = arith.muli %[[KK]], %{{.*}} : i32
// CHECK:     %[[KIV:.*]] = arith.addi %{{.*}}, %[[KOFF]] : i32
// CHECK:     arith.addi %[[ROW]], %[[KIV]] : i32
// CHECK:     tile.load
// CHECK:     %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[IN]]
// CHECK:     %[[NEXT:.*]] = arith.addi %[[KK]], %{{.*}} : i32
// CHECK:     %[[LAST:.*]] = arith.cmpi eq, %[[NEXT]], %[[K]] : i32
// CHECK:     scf.if %[[LAST]] {
// CHECK:       tile.addptr %{{.*}}, %[[ROW]]
// CHECK:       tile.store %{{.*}}, %[[D]]
// CHECK:     }
// CHECK:     %[[NT:.*]] = arith.addi %[[TILE]], %[[C4]] : i32
// CHECK:     %[[TILE2:.*]] = arith.select %[[LAST]], %[[NT]], %[[TILE]] : i32
// CHECK:     %[[KK2:.*]] = arith.select %[[LAST]], %[[C0]], %[[NEXT]] : i32
// CHECK:     %[[INSIDE:.*]] = arith.cmpi slt, %[[NT]], %[[TILES]] : i32
// CHECK:     %[[MORE:.*]] = arith.andi %[[LAST]], %[[INSIDE]] : i1
// CHECK:     %[[ROW2:.*]] = scf.if %[[MORE]] -> (i32) {
// CHECK:       %[[NROW:.*]] = arith.muli %[[NT]], %[[C16]] : i32
// CHECK:       scf.yield %[[NROW]] : i32
// CHECK:     } else {
// CHECK:       scf.yield %[[ROW]] : i32
// CHECK:     }
// CHECK:     scf.yield %[[TILE2]], %[[KK2]], %[[ROW2]], %[[D]]
// CHECK: } else {
// CHECK:   scf.for %{{.*}} = %[[PID]] to %[[TILES]] step %[[C4]]
// CHECK-NOT:   scf.for
// CHECK-NOT:   tile.dot
// CHECK:     tile.store %{{.*}}, %[[ZERO]]
func.func @persistent(%p: !tile.ptr<f32>, %tiles: i32, %nk: i32, %a: !tile.ptr<f16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tile.program_id 0 : i32
  scf.for %t = %pid to %tiles step %c4 : i32 {
    %row = arith.muli %t, %c16 : i32
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %off = arith.addi %row, %k : i32
      %ap = tile.addptr %a, %off : !tile.ptr<f16>, i32
      %aps = tile.splat %ap : tensor<16x16x!tile.ptr<f16>>
      %x = tile.load %aps : (tensor<16x16x!tile.ptr<f16>>) -> tensor<16x16xf16>
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    %pp = tile.addptr %p, %row : !tile.ptr<f32>, i32
    %pps = tile.splat %pp : tensor<16x16x!tile.ptr<f32>>
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  return
}

// -----

// The tile's place: a value that does not depend on the tile is computed
// once, before the loop; scalars computed from the tile alone are carried
// and recomputed in an scf.if when the loop moves on: %q and %o, which the
// rest reads; a scalar that feeds a tile (%r), and what is computed from
// it (%w), are computed with the tile every step, from the carried ones.
// CHECK-LABEL: func.func @place
// CHECK-SAME: %[[N:[^:]*]]: i32)
// CHECK: %[[PID:.*]] = tile.program_id 0 : i32
// CHECK: scf.if
// CHECK:   %[[S:.*]] = arith.muli %[[N]], %{{.*}} : i32
// CHECK:   %[[Q0:.*]] = arith.divsi %[[PID]], %[[N]] : i32
// CHECK:   %[[O0:.*]] = arith.muli %[[Q0]], %[[N]] : i32
// CHECK:   scf.for %{{.*}} iter_args(%[[TILE:[^ ]*]] = %[[PID]], %{{[^ ]*}} = %{{[^,]*}}, %[[Q:[^ ]*]] = %[[Q0]], %[[O:[^ ]*]] = %[[O0]], %{{.*}} = %{{.*}}) -> (i32, i32, i32, i32, tensor<16x16xf32>)
// CHECK-NOT:   arith.divsi
// CHECK:     %[[R:.*]] = arith.addi %[[Q]], %[[S]] : i32
// CHECK:     %[[RS:.*]] = tile.splat %[[R]] : tensor<16x16xi32>
// CHECK:     %[[W:.*]] = arith.addi %[[R]], %{{.*}} : i32
// CHECK:     tile.dot
// CHECK:     scf.if
// CHECK:       %[[PO:.*]] = tile.addptr %{{.*}}, %[[O]] : !tile.ptr<f32>, i32
// CHECK:       tile.addptr %[[PO]], %[[W]] : !tile.ptr<f32>, i32
// CHECK:       tile.addptr %{{.*}}, %[[RS]]
// CHECK:       tile.store
// CHECK:     scf.if %{{.*}} -> (i32, i32) {
// CHECK:       %[[Q2:.*]] = arith.divsi %{{.*}}, %[[N]] : i32
// CHECK:       %[[O2:.*]] = arith.muli %[[Q2]], %[[N]] : i32
// CHECK:       scf.yield %[[Q2]], %[[O2]] : i32, i32
// CHECK:     } else {
// CHECK:       scf.yield %[[Q]], %[[O]] : i32, i32
func.func @place(%p: !tile.ptr<f32>, %tiles: i32, %nk: i32, %x: tensor<16x16xf16>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tile.program_id 0 : i32
  scf.for %t = %pid to %tiles step %c16 : i32 {
    %q = arith.divsi %t, %n : i32
    %s = arith.muli %n, %c16 : i32
    %r = arith.addi %q, %s : i32
    %rs = tile.splat %r : tensor<16x16xi32>
    %o = arith.muli %q, %n : i32
    %w = arith.addi %r, %c1 : i32
    %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%a = %zero) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %a {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    %pp = tile.addptr %p, %o : !tile.ptr<f32>, i32
    %pw = tile.addptr %pp, %w : !tile.ptr<f32>, i32
    %pps = tile.splat %pw : tensor<16x16x!tile.ptr<f32>>
    %pt = tile.addptr %pps, %rs : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
    tile.store %pt, %acc : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  return
}

// -----

// The loop over tiles carries a value of its own (Triton's persistent
// tutorial counts the epilogue's tiles apart): the flattened loop carries
// it too, the epilogue's scf.if computes its next value (else keeps it),
// and the loops' result is the scf.if's on either path.
// CHECK-LABEL: func.func @counted
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:   %[[FLAT:.*]]:4 = scf.for %{{.*}} iter_args(%{{[^ ]*}} = %{{[^,]*}}, %{{[^ ]*}} = %{{[^,]*}}, %[[DONE:[^ ]*]] = %[[INIT:[^,]*]], %{{.*}} = %{{.*}}) -> (i32, i32, i32, tensor<16x16xf32>)
// CHECK:     tile.dot
// CHECK:     %[[E:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK:       %[[NEXT:.*]] = arith.addi %[[DONE]], %{{.*}} : i32
// CHECK:       tile.addptr %{{.*}}, %[[NEXT]]
// CHECK:       tile.store
// CHECK:       scf.yield %[[NEXT]] : i32
// CHECK:     } else {
// CHECK:       scf.yield %[[DONE]] : i32
// CHECK:     scf.yield %{{.*}}, %{{.*}}, %[[E]], %{{.*}} : i32, i32, i32, tensor<16x16xf32>
// CHECK:   scf.yield %[[FLAT]]#2 : i32
// CHECK: } else {
// CHECK:   %[[L:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (i32)
// CHECK:   scf.yield %[[L]] : i32
// CHECK: tile.addptr %{{.*}}, %[[R]]
func.func @counted(%p: !tile.ptr<f32>, %tiles: i32, %nk: i32, %x: tensor<16x16xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tile.program_id 0 : i32
  %init = arith.subi %pid, %c4 : i32
  %last = scf.for %t = %pid to %tiles step %c4 iter_args(%done = %init) -> (i32) : i32 {
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    %next = arith.addi %done, %c4 : i32
    %pp = tile.addptr %p, %next : !tile.ptr<f32>, i32
    %pps = tile.splat %pp : tensor<16x16x!tile.ptr<f32>>
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
    scf.yield %next : i32
  } {tile.flatten}
  %q = tile.addptr %p, %last : !tile.ptr<f32>, i32
  %qs = tile.splat %q : tensor<16x16x!tile.ptr<f32>>
  tile.store %qs, %zero : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  return
}

// -----

// Flattened on request whatever the loop starts at.
// CHECK-LABEL: func.func @requested
// CHECK: scf.if
// CHECK:   scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:     tile.dot
// CHECK:     scf.if
// CHECK:       tile.store
func.func @requested(%p: !tile.ptr<f32>, %tiles: i32, %nk: i32, %x: tensor<16x16xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  scf.for %t = %c0 to %tiles step %c1 : i32 {
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    %pp = tile.addptr %p, %t : !tile.ptr<f32>, i32
    %pps = tile.splat %pp : tensor<16x16x!tile.ptr<f32>>
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  return
}

// -----

// Left alone: a persistent loop that does not ask for it (flattening is a
// request, as in Triton); asked
// for, an inner loop without a product; an accumulator starting from a
// value the tile computes; an inner bound the tile computes; a store
// before the inner loop; two inner loops.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: scf.if
func.func @untouched(%p: !tile.ptr<f32>, %tiles: i32, %nk: i32, %x: tensor<16x16xf16>, %y: tensor<16x16xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %pid = tile.program_id 0 : i32
  %pps = tile.splat %p : tensor<16x16x!tile.ptr<f32>>
  scf.for %t = %pid to %tiles step %c1 : i32 {
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  }
  scf.for %t = %pid to %tiles step %c1 : i32 {
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %s = arith.addf %acc, %y : tensor<16x16xf32>
      scf.yield %s : tensor<16x16xf32>
    }
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  scf.for %t = %pid to %tiles step %c1 : i32 {
    %init = arith.sitofp %t : i32 to f32
    %inits = tile.splat %init : tensor<16x16xf32>
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %inits) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  scf.for %t = %pid to %tiles step %c1 : i32 {
    %r = scf.for %k = %c0 to %t step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  scf.for %t = %pid to %tiles step %c1 : i32 {
    tile.store %pps, %y : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    tile.store %pps, %r : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  scf.for %t = %pid to %tiles step %c1 : i32 {
    %r = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    %r2 = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %r) -> (tensor<16x16xf32>) : i32 {
      %d = tile.dot %x, %x, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    tile.store %pps, %r2 : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xf32>
  } {tile.flatten}
  return
}
