// RUN: tilec-opt %s -split-input-file -verify-diagnostics

func.func @range_not_power_of_two() {
  // expected-error @+1 {{length 48 must be a power of two}}
  %r = tile.make_range {start = 0 : i32, end = 48 : i32} : tensor<48xi32>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{end (0) must be greater than start (0)}}
  %r = tile.make_range {start = 0 : i32, end = 0 : i32} : tensor<1xi32>
  return
}

// -----

func.func @range_wrong_size() {
  // expected-error @+1 {{result has 32 elements, expected 64}}
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<32xi32>
  return
}

// -----

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %p = tile.program_id 3 : i32
  return
}

// -----

func.func @load_wrong_result(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{result type 'tensor<16xf16>' does not match pointer type}}
  %v = tile.load %p : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{mask type 'tensor<8xi1>' does not match pointer type}}
  %v = tile.load %p, %m : (tensor<16x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @store_wrong_value(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xi32>) {
  // expected-error @+1 {{value type 'tensor<16xi32>' does not match pointer type}}
  tile.store %p, %v : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, not 16}}
func.func @bad_layout(%t: tensor<128xf32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [1], order = [0]>>) {
  return
}

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
func.func @bad_order(%t: tensor<16x16xf32, #tile.blocked<sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 1]>>) {
  return
}

// -----

func.func @expand_dims_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{result must have shape [16, 1] and element type 'f32'}}
  %e = tile.expand_dims %x {axis = 1 : i32} : tensor<16xf32> -> tensor<1x16xf32>
  return
}

// -----

func.func @broadcast_shape(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{cannot broadcast shape [2, 16] to [4, 16]}}
  %b = tile.broadcast %x : tensor<2x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{cannot reshape 32 elements into 64}}
  %r = tile.reshape %x : tensor<2x16xf32> -> tensor<64xf32>
  return
}

// -----

func.func @trans_order(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{order must be a permutation}}
  %t = tile.trans %x {order = array<i32: 0, 0>} : tensor<2x16xf32> -> tensor<2x16xf32>
  return
}

// -----

func.func @reduce_shape(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{result must have shape [2]}}
  %r = tile.reduce %x {axis = 1 : i32, kind = #tile<reduce_kind sum>} : tensor<2x16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @reduce_argmax_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{result element type must be 'i32'}}
  %r = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind argmax>} : tensor<16xf32> -> f32
  return
}

// -----

func.func @dot_shapes(%a: tensor<16x32xf16>, %b: tensor<16x64xf16>, %c: tensor<16x64xf32>) {
  // expected-error @+1 {{incompatible shapes [16, 32] @ [16, 64] + [16, 64]}}
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<16x32xf16>, tensor<16x64xf16> -> tensor<16x64xf32>
  return
}

// -----

// expected-error @+1 {{mma version 3 needs warps along M in groups of 4 (warp groups)}}
func.func @mma_v3_warps(%t: tensor<64x64xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [2, 2], instrShape = [64, 64, 16]>>) {
  return
}

// -----

// expected-error @+1 {{mma version 3 computes 64xN blocks with N a power of two from 8 to 256}}
func.func @mma_v3_n(%t: tensor<64x64xf32, #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 512, 16]>>) {
  return
}

// -----

// expected-error @+1 {{mma version must be 2 or 3, not 1}}
func.func @mma_version(%t: tensor<64x64xf32, #tile.mma<versionMajor = 1, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>) {
  return
}
