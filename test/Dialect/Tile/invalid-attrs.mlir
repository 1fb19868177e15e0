// The dialect's discardable attributes (DialectAttrs.h) and #tile.tensor_map
// are checked by the dialect's verifiers.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// The box rule of tilec::abi::checkTensorMapBox: rows of one swizzle span.
// expected-error @+1 {{the box must be at most 256 x 256 elements with rows of the swizzle's 32, 64 or 128 bytes}}
module attributes {tile.tma = [#tile.tensor_map<param = 2, base = 0, element = f16, shape = [arg(1), 64], row_stride = 64, box = [64, 32], swizzle = 128>]} {
}

// -----

// expected-error @+1 {{TMA cannot copy elements of 'f64'}}
module attributes {tile.tma = [#tile.tensor_map<param = 2, base = 0, element = f64, shape = [arg(1), 64], row_stride = 64, box = [64, 16], swizzle = 128>]} {
}

// -----

// expected-error @+1 {{'tile.tma' must be an array of #tile.tensor_map}}
module attributes {tile.tma = [{arg = 9 : i64}]} {
}

// -----

// tile-reread-footprint's [argument, bytes, step].
// expected-error @+1 {{'tile.reread' must be [argument, bytes, step]: an argument index (-1 for none, with step 1), then two positive integers}}
module attributes {tile.reread = array<i64: 1, 0, 1024>} {
}

// -----

// A constant footprint has no step.
// expected-error @+1 {{'tile.reread' must be [argument, bytes, step]}}
module attributes {tile.reread = array<i64: -1, 4096, 8>} {
}

// -----

// expected-error @+1 {{'tile.reread' belongs on the module}}
func.func @f() attributes {tile.reread = array<i64: 0, 2048, 1024>} {
  return
}

// -----

// expected-error @+1 {{unsupported target 'sm_100a': tilec compiles for sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a}}
module attributes {tile.target = "sm_100a"} {
}

// -----

// expected-error @+1 {{'tile.num_warps' must be an integer of at least 1}}
module attributes {tile.num_warps = 0 : i32} {
}

// -----

module {
  // expected-error @+1 {{'tile.num_warps' belongs on the module}}
  func.func @f() attributes {tile.num_warps = 4 : i32} {
    return
  }
}

// -----

// expected-error @+1 {{unknown attribute 'tile.num_warp' of the tile dialect}}
module attributes {tile.num_warp = 4 : i32} {
}

// -----

// expected-error @+1 {{'tile.divisibility' must be an integer of at least 1}}
func.func @hint(%n: i32 {tile.divisibility = 0 : i32}) {
  return
}

// -----

// The axis hints of tl.multiple_of and its kin: one positive number per
// dimension of the op's one result.
func.func @axis_hint_rank(%x: tensor<16x16xi32>) {
  // expected-error @+1 {{'tile.hint_divisibility' must be 2 positive integers (one per dimension of the result)}}
  %y = arith.addi %x, %x {tile.hint_divisibility = array<i64: 16>} : tensor<16x16xi32>
  return
}

// -----

func.func @axis_hint_positive(%n: i32) {
  // expected-error @+1 {{'tile.hint_contiguity' must be 1 positive integer (one per dimension of the result)}}
  %y = arith.addi %n, %n {tile.hint_contiguity = array<i64: 0>} : i32
  return
}

// -----

func.func @axis_hint_results(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.hint_constancy' belongs on an op of one result}}
  tile.store %p, %v {tile.hint_constancy = array<i64: 4>} : !tile.ptr<f32>, f32
  return
}

// -----

// tl.range's loop_unroll_factor: a positive number on an scf.for.
func.func @unroll_factor_positive(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'tile.loop_unroll_factor' must be an integer of at least 1}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.loop_unroll_factor = 0 : i32}
  return
}

// -----

func.func @unroll_factor_loop(%n: i32) {
  // expected-error @+1 {{'tile.loop_unroll_factor' belongs on an scf.for}}
  %y = arith.addi %n, %n {tile.loop_unroll_factor = 2 : i32} : i32
  return
}

// -----

// tl.range's flatten=True: a unit attribute on an scf.for.
func.func @flatten_loop(%n: i32) {
  // expected-error @+1 {{'tile.flatten' belongs on an scf.for}}
  %y = arith.addi %n, %n {tile.flatten} : i32
  return
}

// -----

func.func @flatten_unit(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{'tile.flatten' must be a unit attribute}}
  scf.for %i = %c0 to %n step %c1 : i32 {
  } {tile.flatten = 1 : i32}
  return
}

// -----

// TMA maps have at most 5 dimensions: the matrix and 3 outer ones.
// expected-error @+1 {{a tensor map has at most 5 dimensions}}
module attributes {tile.tma = [#tile.tensor_map<param = 2, base = 0, element = f16, shape = [arg(1), 64], row_stride = 64, box = [64, 64], swizzle = 128, outer = [(8, 4096), (8, 32768), (8, 262144), (8, 2097152)]>]} {
}

// -----

// A scalar's factor is positive.
// expected-error @+1 {{tensor-map extents and strides are not negative}}
module attributes {tile.tma = [#tile.tensor_map<param = 2, base = 0, element = f16, shape = [arg(1), 64], row_stride = 64, box = [64, 64], swizzle = 128, outer = [(8, arg(1) * -64)]>]} {
}
