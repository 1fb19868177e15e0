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
// The last start whose block lies below N is N - 64; a block before the
// upper bound, so the split is N's whole blocks, no min with N.
// CHECK: %[[CM64:.*]] = arith.constant -64 : i32
// CHECK: %[[LAST:.*]] = arith.addi %[[N]], %[[CM64]] : i32
// CHECK: %[[END:.*]] = arith.addi %[[LAST]], %[[C64]] : i32
// CHECK: %[[SPAN:.*]] = arith.subi %[[END]], %[[C0]] : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[SPAN]], %[[C64]] : i32
// CHECK: %[[CNT:.*]] = arith.maxsi %[[Q]], %{{.*}} : i32
// CHECK: %[[LEN:.*]] = arith.muli %[[CNT]], %[[C64]] : i32
// CHECK: %[[AT:.*]] = arith.addi %[[C0]], %[[LEN]] : i32
// CHECK-NOT: arith.minsi
// CHECK: %[[WHOLE:.*]] = scf.for %{{.*}} = %[[C0]] to %[[AT]] step %[[C64]] iter_args(%[[A:.*]] = %{{.*}})
// CHECK-NOT: arith.cmpi
// CHECK:   %[[YES:.*]] = arith.constant dense<true> : tensor<1x64xi1>
// CHECK:   tile.broadcast %[[YES]]
// CHECK:   tile.dot
// CHECK: scf.for %{{.*}} = %[[AT]] to %[[N]] step %[[C64]] iter_args(%{{.*}} = %[[WHOLE]])
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

// A causal attention's loop in one piece: the keys of the block up to the
// program's first row (`rows >= cols` holds for the whole block while
// start + 63 <= m0, the rows [m0, m0 + 31]) and below N (i64 indices
// through sign extensions, as a descriptor's bounds). The first loop runs
// while both hold, the last start the smaller of m0 - 63 and N - 64.
// CHECK-LABEL: func.func @causal
// CHECK-SAME: (%[[N:.*]]: i32, %[[M0:.*]]: i32,
// CHECK: %[[CM63:.*]] = arith.constant -63 : i32
// CHECK: %[[DIAG:.*]] = arith.addi %[[M0]], %[[CM63]] : i32
// CHECK: %[[CM64:.*]] = arith.constant -64 : i32
// CHECK: %[[KEYS:.*]] = arith.addi %[[N]], %[[CM64]] : i32
// CHECK: %[[LAST:.*]] = arith.minsi %[[DIAG]], %[[KEYS]] : i32
// CHECK: arith.addi %[[LAST]], %{{.*}} : i32
// The causal bound m0 - 63 stops before the upper bound m0 + 128: no min.
// CHECK: %[[AT:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NOT: arith.minsi
// CHECK: %[[FIRST:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[AT]] step
// CHECK-NOT: arith.cmpi
// CHECK:   tile.dot
// CHECK: scf.for %{{.*}} = %[[AT]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0, %{{.*}} = %[[FIRST]]#1)
// CHECK:   arith.cmpi sge, %{{.*}}, %{{.*}} : tensor<32x64xi32>
// CHECK:   arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1x64xi64>
// CHECK:   tile.dot
func.func @causal(%n: i32, %m0: i32, %a: tensor<32x16xf16>, %b: tensor<16x64xf16>) -> tensor<32x64xf32> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %fz = arith.constant dense<0.0> : tensor<32xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<32x64xf32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %sm = tile.splat %m0 : tensor<32xi32>
  %rows = arith.addi %sm, %r32 : tensor<32xi32>
  %hi = arith.addi %m0, %c128 : i32
  %n64 = arith.extsi %n : i32 to i64
  %res:2 = scf.for %i = %c0 to %hi step %c64 iter_args(%acc = %zero, %l = %fz) -> (tensor<32x64xf32>, tensor<32xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r64 : tensor<64xi32>
    %rows2 = tile.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %rowsb = tile.broadcast %rows2 : tensor<32x1xi32> -> tensor<32x64xi32>
    %cols2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<32x64xi32>
    %causal = arith.cmpi sge, %rowsb, %colsb : tensor<32x64xi32>
    %i64 = arith.extsi %i : i32 to i64
    %si64 = tile.splat %i64 : tensor<1x64xi64>
    %r64w = arith.extsi %r64 : tensor<64xi32> to tensor<64xi64>
    %r64e = tile.expand_dims %r64w {axis = 0 : i32} : tensor<64xi64> -> tensor<1x64xi64>
    %keys = arith.addi %r64e, %si64 : tensor<1x64xi64>
    %sn = tile.splat %n64 : tensor<1x64xi64>
    %inside = arith.cmpi slt, %keys, %sn : tensor<1x64xi64>
    %insideb = tile.broadcast %inside : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %zero {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s1 = arith.select %causal, %d, %ninf : tensor<32x64xi1>, tensor<32x64xf32>
    %s2 = arith.select %insideb, %s1, %ninf : tensor<32x64xi1>, tensor<32x64xf32>
    %acc2 = arith.addf %acc, %s2 : tensor<32x64xf32>
    %sum = tile.reduce %s2 {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<32x64xf32> -> tensor<32xf32>
    %l2 = arith.addf %l, %sum : tensor<32xf32>
    scf.yield %acc2, %l2 : tensor<32x64xf32>, tensor<32xf32>
  }
  return %res#0 : tensor<32x64xf32>
}

// -----

// Bounds other than the loop's, blocks longer than the step: the last start
// whose block [i, i + 63] lies below M is M - 64, whatever the step.
// CHECK-LABEL: func.func @other_bounds
// CHECK-SAME: (%[[N:.*]]: i32, %[[M:.*]]: i32,
// CHECK: %[[LAST:.*]] = arith.addi %[[M]], %{{.*}} : i32
// CHECK: arith.addi %[[LAST]], %{{.*}} : i32
// CHECK: %[[AT:.*]] = arith.minsi
// CHECK: %[[FIRST:.*]] = scf.for %{{.*}} to %[[AT]] step %[[C32:[^ ]*]]
// CHECK-NOT: arith.cmpi
// CHECK: scf.for %{{.*}} = %[[AT]] to %[[N]] step %[[C32]] iter_args(%{{.*}} = %[[FIRST]])
// CHECK:   arith.cmpi slt
func.func @other_bounds(%n: i32, %m: i32, %a: tensor<32x16xf16>, %b: tensor<16x64xf16>) -> tensor<32x64xf32> {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %sm = tile.splat %m : tensor<64xi32>
  %res = scf.for %i = %c0 to %n step %c32 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %sm : tensor<64xi32>
    %row = tile.expand_dims %ok {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
    %okb = tile.broadcast %row : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %okb, %d, %zero : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  return %res : tensor<32x64xf32>
}

// -----

// Left alone: a loop without a product; a loop that yields two products;
// the diagonal pass of a causal attention (from the first row's block
// `m0`, where `rows >= cols` fails at once, also when the lower bound is a
// copy of the rows' start with a hint); a bound computed in the loop; an
// unsigned comparison; comparisons that only mask a load (a matmul's loop).
// CHECK-LABEL: func.func @untouched
// CHECK-COUNT-7: scf.for
// CHECK-NOT: scf.for
func.func @untouched(%n: i32, %m0: i32, %a: tensor<32x16xf16>, %b: tensor<16x64xf16>, %p: !tile.ptr<f16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %fz = arith.constant dense<0.0> : tensor<64xf32>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %sn = tile.splat %n : tensor<64xi32>
  %one = arith.constant dense<1.0> : tensor<64xf32>
  %s0 = scf.for %i = %c0 to %n step %c64 iter_args(%s = %fz) -> (tensor<64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
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
  %hi = arith.addi %m0, %c128 : i32
  %rm = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %smr = tile.splat %m0 : tensor<32xi32>
  %rows = arith.addi %smr, %rm : tensor<32xi32>
  %rows2 = tile.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rowsb = tile.broadcast %rows2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %diag = scf.for %i = %m0 to %hi step %c64 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %cols2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<32x64xi32>
    %ok = arith.cmpi sge, %rowsb, %colsb : tensor<32x64xi32>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %ok, %d, %zero : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %inner = scf.for %i = %c0 to %n step %c64 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %bound = arith.addi %i, %c1 : i32
    %sb = tile.splat %bound : tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %sb : tensor<64xi32>
    %row = tile.expand_dims %ok {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
    %okb = tile.broadcast %row : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %okb, %d, %zero : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %unsigned = scf.for %i = %c0 to %n step %c64 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %ok = arith.cmpi ult, %cols, %sn : tensor<64xi32>
    %row = tile.expand_dims %ok {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
    %okb = tile.broadcast %row : tensor<1x64xi1> -> tensor<32x64xi1>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %okb, %d, %zero : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %start = arith.muli %m0, %c128 : i32
  %hinted = arith.muli %m0, %c128 {tile.hint_divisibility = array<i64: 128>} : i32
  %end = arith.addi %start, %c128 : i32
  %smh = tile.splat %start : tensor<32xi32>
  %rowsh = arith.addi %smh, %rm : tensor<32xi32>
  %rowsh2 = tile.expand_dims %rowsh {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rowshb = tile.broadcast %rowsh2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %diag2 = scf.for %i = %hinted to %end step %c64 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %cols2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<32x64xi32>
    %ok = arith.cmpi sge, %rowshb, %colsb : tensor<32x64xi32>
    %d = tile.dot %a, %b, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s = arith.select %ok, %d, %zero : tensor<32x64xi1>, tensor<32x64xf32>
    scf.yield %s : tensor<32x64xf32>
  }
  %bz = arith.constant dense<0.0> : tensor<16x64xf16>
  %pb = tile.splat %p : tensor<16x64x!tile.ptr<f16>>
  %masked = scf.for %i = %c0 to %n step %c64 iter_args(%x = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r : tensor<64xi32>
    %ok = arith.cmpi slt, %cols, %sn : tensor<64xi32>
    %row = tile.expand_dims %ok {axis = 0 : i32} : tensor<64xi1> -> tensor<1x64xi1>
    %okb = tile.broadcast %row : tensor<1x64xi1> -> tensor<16x64xi1>
    %bt = tile.load %pb, %okb other %bz : (tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1>, tensor<16x64xf16>) -> tensor<16x64xf16>
    %d = tile.dot %a, %bt, %x {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    scf.yield %d : tensor<32x64xf32>
  }
  return
}

// -----

// A sliding window in one loop with the causal mask: keys + 64 > rows
// (`keys[None, :] + W > offs_m[:, None]`, W = 64, rows [m0, m0 + 31]) holds
// for the whole block from start = m0 + 31 - 64 + 1 = m0 - 32 on (a lower
// bound), the causal rows >= keys up to m0 - 63. Three loops: before the
// window's first whole block (masked), the blocks where both hold (no
// comparison left), the rest (masked). start = lb + ceil(max(m0 - 32 - lb,
// 0) / 64) * 64 (at most max(ub, lb)); end at least start.
// CHECK-LABEL: func.func @window
// CHECK-SAME: (%[[N:[^:]*]]: i32, %[[M0:[^:]*]]: i32,
// CHECK: %[[CM32:.*]] = arith.constant -32 : i32
// CHECK: %[[FIRST:.*]] = arith.addi %[[M0]], %[[CM32]] : i32
// CHECK: %[[BEHIND:.*]] = arith.subi %[[FIRST]], %[[LB:.*]] : i32
// CHECK: arith.maxsi %[[BEHIND]]
// CHECK: %[[START0:.*]] = arith.addi %[[LB]], %{{.*}} : i32
// CHECK: %[[TOP:.*]] = arith.maxsi %[[HI:.*]], %[[LB]] : i32
// CHECK: %[[START:.*]] = arith.minsi %[[START0]], %[[TOP]] : i32
// CHECK: %[[CM63:.*]] = arith.constant -63 : i32
// CHECK: arith.addi %[[M0]], %[[CM63]] : i32
// CHECK: %[[END:.*]] = arith.maxsi %{{.*}}, %[[START]] : i32
// CHECK: %[[R1:.*]] = scf.for %{{.*}} = %[[LB]] to %[[START]] step
// CHECK-COUNT-2: arith.cmpi
// CHECK: %[[R2:.*]] = scf.for %{{.*}} = %[[START]] to %[[END]] step {{.*}} iter_args(%{{.*}} = %[[R1]])
// CHECK-NOT: arith.cmpi
// CHECK: scf.for %{{.*}} = %[[END]] to %[[HI]] step {{.*}} iter_args(%{{.*}} = %[[R2]])
// CHECK-COUNT-2: arith.cmpi
func.func @window(%n: i32, %m0: i32, %lo: i32, %a: tensor<32x16xf16>, %b: tensor<16x64xf16>) -> tensor<32x64xf32> {
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<32x64xf32>
  %w = arith.constant dense<64> : tensor<1x64xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %sm = tile.splat %m0 : tensor<32xi32>
  %rows = arith.addi %sm, %r32 : tensor<32xi32>
  %rows2 = tile.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rowsb = tile.broadcast %rows2 : tensor<32x1xi32> -> tensor<32x64xi32>
  %hi = arith.addi %m0, %c128 : i32
  %res = scf.for %i = %lo to %hi step %c64 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r64 : tensor<64xi32>
    %cols2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %colsw = arith.addi %cols2, %w : tensor<1x64xi32>
    %colswb = tile.broadcast %colsw : tensor<1x64xi32> -> tensor<32x64xi32>
    %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<32x64xi32>
    %inwindow = arith.cmpi sgt, %colswb, %rowsb : tensor<32x64xi32>
    %causal = arith.cmpi sge, %rowsb, %colsb : tensor<32x64xi32>
    %d = tile.dot %a, %b, %zero {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %s1 = arith.select %inwindow, %d, %ninf : tensor<32x64xi1>, tensor<32x64xf32>
    %s2 = arith.select %causal, %s1, %ninf : tensor<32x64xi1>, tensor<32x64xf32>
    %acc2 = arith.addf %acc, %s2 : tensor<32x64xf32>
    scf.yield %acc2 : tensor<32x64xf32>
  }
  return %res : tensor<32x64xf32>
}

// -----

// Lower comparisons: one that always holds (0 <= keys from a lower bound of
// 1) is a constant in the unmasked loop; one that only masks a load (m <=
// keys) splits nothing off and stays in both loops; the upper one splits
// as before: two loops.
// CHECK-LABEL: func.func @lower_kept
// CHECK: scf.for
// CHECK-NOT: arith.cmpi sle, %cst
// CHECK:   arith.cmpi sle, %{{.*}}, %{{.*}} : tensor<16x64xi32>
// CHECK-NOT: arith.cmpi
// CHECK: scf.yield
// CHECK: scf.for
// CHECK:   arith.cmpi sle, %cst
// CHECK:   arith.cmpi sle
// CHECK:   arith.cmpi slt
// CHECK-NOT: scf.for
func.func @lower_kept(%n: i32, %m: i32, %p: !tile.ptr<f16>, %a: tensor<32x16xf16>) -> tensor<32x64xf32> {
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<32x64xf32>
  %z = arith.constant dense<0> : tensor<16x64xi32>
  %bz = arith.constant dense<0.0> : tensor<16x64xf16>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %sn = tile.splat %n : tensor<1x64xi32>
  %sm = tile.splat %m : tensor<16x64xi32>
  %pb = tile.splat %p : tensor<16x64x!tile.ptr<f16>>
  %res = scf.for %i = %c1 to %n step %c64 iter_args(%acc = %zero) -> (tensor<32x64xf32>) : i32 {
    %si = tile.splat %i : tensor<64xi32>
    %cols = arith.addi %si, %r64 : tensor<64xi32>
    %cols2 = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %colsb = tile.broadcast %cols2 : tensor<1x64xi32> -> tensor<16x64xi32>
    %nonneg = arith.cmpi sle, %z, %colsb : tensor<16x64xi32>
    %above = arith.cmpi sle, %sm, %colsb : tensor<16x64xi32>
    %both = arith.andi %nonneg, %above : tensor<16x64xi1>
    %bt = tile.load %pb, %both other %bz : (tensor<16x64x!tile.ptr<f16>>, tensor<16x64xi1>, tensor<16x64xf16>) -> tensor<16x64xf16>
    %d = tile.dot %a, %bt, %zero {inputPrecision = #tile<input_precision tf32>} : tensor<32x16xf16>, tensor<16x64xf16> -> tensor<32x64xf32>
    %in = arith.cmpi slt, %cols2, %sn : tensor<1x64xi32>
    %inb = tile.broadcast %in : tensor<1x64xi1> -> tensor<32x64xi1>
    %s = arith.select %inb, %d, %ninf : tensor<32x64xi1>, tensor<32x64xf32>
    %acc2 = arith.addf %acc, %s : tensor<32x64xf32>
    scf.yield %acc2 : tensor<32x64xf32>
  }
  return %res : tensor<32x64xf32>
}
