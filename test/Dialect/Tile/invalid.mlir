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

// A descriptor load names one extent, stride and offset per dimension of
// its tile (tl.make_tensor_descriptor's shape and strides, desc.load's
// offsets).
func.func @desc_load_scalar(%p: !tile.ptr<f16>, %n: i32, %s: i64, %o: i32) {
  // expected-error @+1 {{a descriptor load needs a tile result and one extent, stride and offset per dimension}}
  %v = tile.load %p descriptor %p[%o] shape(%n) strides(%s) : (!tile.ptr<f16>, !tile.ptr<f16>, i32, i64, i32) -> f16
  return
}

// -----

func.func @desc_load_offsets(%p: tensor<64x32x!tile.ptr<f16>>, %b: !tile.ptr<f16>, %m: i32, %k: i32, %s: i64, %c1: i64, %o: i32) {
  // expected-error @+1 {{a descriptor load needs a tile result and one extent, stride and offset per dimension}}
  %v = tile.load %p descriptor %b[%o] shape(%m, %k) strides(%s, %c1) : (tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f16>, i32, i32, i64, i64, i32) -> tensor<64x32xf16>
  return
}

// -----

func.func @desc_load_shape(%p: tensor<64x32x!tile.ptr<f16>>, %b: !tile.ptr<f16>, %m: i32, %s: i64, %c1: i64, %o: i32) {
  // expected-error @+1 {{a descriptor load needs a tile result and one extent, stride and offset per dimension}}
  %v = tile.load %p descriptor %b[%o, %o] shape(%m) strides(%s, %c1) : (tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f16>, i32, i64, i64, i32, i32) -> tensor<64x32xf16>
  return
}

// -----

func.func @desc_load_strides(%p: tensor<64x32x!tile.ptr<f16>>, %b: !tile.ptr<f16>, %m: i32, %k: i32, %s: i64, %o: i32) {
  // expected-error @+1 {{a descriptor load needs a tile result and one extent, stride and offset per dimension}}
  %v = tile.load %p descriptor %b[%o, %o] shape(%m, %k) strides(%s) : (tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f16>, i32, i32, i64, i32, i32) -> tensor<64x32xf16>
  return
}

// -----

func.func @desc_load_base_type(%p: tensor<64x32x!tile.ptr<f16>>, %b: !tile.ptr<f32>, %m: i32, %k: i32, %s: i64, %c1: i64, %o: i32) {
  // expected-error @+1 {{descriptor base must point at 'f16' elements}}
  %v = tile.load %p descriptor %b[%o, %o] shape(%m, %k) strides(%s, %c1) : (tensor<64x32x!tile.ptr<f16>>, !tile.ptr<f32>, i32, i32, i64, i64, i32, i32) -> tensor<64x32xf16>
  return
}

// -----

// The assembly format cannot leave the base out; the generic form can.
func.func @desc_load_no_base(%p: tensor<16x!tile.ptr<f32>>, %n: i32) {
  // expected-error @+1 {{descriptor extents, strides and offsets need a base}}
  %v = "tile.load"(%p, %n) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>, i32) -> tensor<16xf32>
  return
}

// -----

func.func @desc_load_offsets_no_base(%p: tensor<16x!tile.ptr<f32>>, %o: i32) {
  // expected-error @+1 {{descriptor extents, strides and offsets need a base}}
  %v = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1>}> : (tensor<16x!tile.ptr<f32>>, i32) -> tensor<16xf32>
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

// expected-error @+1 {{linear layout must have 5 lane bases}}
func.func @linear_lanes(%t: tensor<4x2xf32, #tile.linear<shape = [4, 2], registers = [[0, 1]], lanes = [[1, 0], [2, 0]], warps = []>>) {
  return
}

// -----

// expected-error @+1 {{linear layout basis coordinate 4 is outside dimension 0 of size 4}}
func.func @linear_outside(%t: tensor<4x2xf32, #tile.linear<shape = [4, 2], registers = [[0, 1]], lanes = [[4, 0], [2, 0], [0, 0], [0, 0], [0, 0]], warps = []>>) {
  return
}

// -----

// Rows 0 and 1 only: the bases miss bit 1 of the rows.
// expected-error @+1 {{linear layout bases must reach every element of the shape}}
func.func @linear_span(%t: tensor<4x2xf32, #tile.linear<shape = [4, 2], registers = [[0, 1]], lanes = [[1, 0], [1, 1], [0, 0], [0, 0], [0, 0]], warps = []>>) {
  return
}

// -----

// expected-error @+1 {{linear layout shape must be powers of two}}
func.func @linear_shape(%t: tensor<3x2xf32, #tile.linear<shape = [3, 2], registers = [[0, 1]], lanes = [[1, 0], [2, 0], [0, 0], [0, 0], [0, 0]], warps = []>>) {
  return
}

// -----

// expected-error @+1 {{expected a basis of 2 coordinates}}
func.func @linear_basis_rank(%t: tensor<4x2xf32, #tile.linear<shape = [4, 2], registers = [[0, 1, 0]], lanes = [[1, 0], [2, 0], [0, 0], [0, 0], [0, 0]], warps = []>>) {
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

func.func @dot_batches(%a: tensor<2x16x32xf16>, %b: tensor<4x32x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{batch dimensions differ: [2, 16, 32] @ [4, 32, 16] + [2, 16, 16]}}
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x32xf16>, tensor<4x32x16xf16> -> tensor<2x16x16xf32>
  return
}

// -----

func.func @dot_batched_shapes(%a: tensor<2x16x32xf16>, %b: tensor<2x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{incompatible shapes [16, 32] @ [16, 16] + [16, 16]}}
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x32xf16>, tensor<2x16x16xf16> -> tensor<2x16x16xf32>
  return
}

// -----

func.func @dot_ranks(%a: tensor<2x16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{operands must be 2-D tiles (or 3-D, batched)}}
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>} : tensor<2x16x16xf16>, tensor<16x16xf16> -> tensor<2x16x16xf32>
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

// expected-error @+1 {{only mma version 3 layouts can be transposed}}
func.func @mma_v2_transposed(%t: tensor<64x64xf32, #tile.mma<versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16], transposed = true>>) {
  return
}

// -----

// expected-error @+1 {{mma version must be 2 or 3, not 1}}
func.func @mma_version(%t: tensor<64x64xf32, #tile.mma<versionMajor = 1, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>>) {
  return
}

// -----

// Shared-memory buffers start on 1024-byte boundaries (swizzle atoms).
func.func @local_alloc_offset() {
  // expected-error @+1 {{offset must be a multiple of 1024, not 512}}
  %b = tile.local_alloc {offset = 512 : i64} : !tile.smem<2x64x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  return
}

// -----

func.func @smem_rank() {
  // expected-error @+1 {{a shared-memory buffer holds one matrix or a ring of them (rank 2 or 3)}}
  %b = tile.local_alloc : !tile.smem<64xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  return
}

// -----

func.func @smem_zero_dim() {
  // expected-error @+1 {{dimensions must be positive}}
  %b = tile.local_alloc : !tile.smem<3x0x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>
  return
}

// -----

func.func @smem_element() {
  // expected-error @+1 {{elements must be integers or floats}}
  %b = tile.local_alloc : !tile.smem<64x32x!tile.ptr<f16>, #tile.shared<contiguousDim = 1, swizzle = 64>>
  return
}

// -----

func.func @shared_contiguous_dim() {
  // expected-error @+1 {{contiguousDim must be 0 or 1}}
  %b = tile.local_alloc : !tile.smem<64x32xf16, #tile.shared<contiguousDim = 2, swizzle = 64>>
  return
}

// -----

func.func @shared_swizzle() {
  // expected-error @+1 {{swizzle must be 32, 64 or 128 bytes}}
  %b = tile.local_alloc : !tile.smem<64x32xf16, #tile.shared<contiguousDim = 1, swizzle = 16>>
  return
}

// -----

#s = #tile.shared<contiguousDim = 1, swizzle = 64>
func.func @smem_slot_shape(%i: i32) {
  %b = tile.local_alloc : !tile.smem<3x64x32xf16, #s>
  // expected-error @+1 {{result must be one slot of the buffer: '!tile.smem<64x32xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>'}}
  %s = tile.smem_slot %b[%i] : !tile.smem<3x64x32xf16, #s> -> !tile.smem<32x64xf16, #s>
  return
}

// -----

#s = #tile.shared<contiguousDim = 1, swizzle = 64>
#t = #tile.shared<contiguousDim = 1, swizzle = 128>
func.func @smem_slot_layout(%i: i32) {
  %b = tile.local_alloc : !tile.smem<3x64x64xf16, #s>
  // expected-error @+1 {{result must be one slot of the buffer: '!tile.smem<64x64xf16, #tile.shared<contiguousDim = 1, swizzle = 64>>'}}
  %s = tile.smem_slot %b[%i] : !tile.smem<3x64x64xf16, #s> -> !tile.smem<64x64xf16, #t>
  return
}

// -----

// A transposed view swaps the shape and the contiguous dimension.
#s = #tile.shared<contiguousDim = 1, swizzle = 64>
func.func @smem_trans_layout(%i: i32) {
  %b = tile.local_alloc : !tile.smem<3x64x32xf16, #s>
  %s = tile.smem_slot %b[%i] : !tile.smem<3x64x32xf16, #s> -> !tile.smem<64x32xf16, #s>
  // expected-error @+1 {{result must be the transpose of a matrix: shape swapped, the other dimension contiguous}}
  %t = tile.smem_trans %s : !tile.smem<64x32xf16, #s> -> !tile.smem<32x64xf16, #s>
  return
}

// -----

// A copy fills one matrix: a slot, not the ring.
#s = #tile.shared<contiguousDim = 1, swizzle = 64>
func.func @async_copy_ring(%p: tensor<64x32x!tile.ptr<f16>>) {
  %b = tile.local_alloc : !tile.smem<3x64x32xf16, #s>
  // expected-error @+1 {{destination must be one matrix of shape [64, 32]}}
  tile.async_copy %p, %b : tensor<64x32x!tile.ptr<f16>>, !tile.smem<3x64x32xf16, #s>
  return
}

// -----

#s = #tile.shared<contiguousDim = 1, swizzle = 64>
func.func @async_copy_shape(%p: tensor<64x32x!tile.ptr<f16>>) {
  %b = tile.local_alloc : !tile.smem<32x64xf16, #s>
  // expected-error @+1 {{destination must be one matrix of shape [64, 32]}}
  tile.async_copy %p, %b : tensor<64x32x!tile.ptr<f16>>, !tile.smem<32x64xf16, #s>
  return
}

// -----

#s = #tile.shared<contiguousDim = 1, swizzle = 64>
func.func @async_copy_element(%p: tensor<64x32x!tile.ptr<f32>>) {
  %b = tile.local_alloc : !tile.smem<64x32xf16, #s>
  // expected-error @+1 {{copies 'f32' elements into a 'f16' buffer}}
  tile.async_copy %p, %b : tensor<64x32x!tile.ptr<f32>>, !tile.smem<64x32xf16, #s>
  return
}

// -----

#s = #tile.shared<contiguousDim = 1, swizzle = 64>
func.func @async_copy_mask(%p: tensor<64x32x!tile.ptr<f16>>, %m: tensor<32x64xi1>) {
  %b = tile.local_alloc : !tile.smem<64x32xf16, #s>
  // expected-error @+1 {{mask type 'tensor<32x64xi1>' does not match pointer type 'tensor<64x32x!tile.ptr<f16>>' (expected 'tensor<64x32xi1>')}}
  tile.async_copy %p, %b, %m : tensor<64x32x!tile.ptr<f16>>, !tile.smem<64x32xf16, #s>, tensor<32x64xi1>
  return
}

// -----

func.func @async_wait_negative() {
  // expected-error @+1 {{attribute 'pending' failed to satisfy constraint}}
  tile.async_wait {pending = -1 : i32}
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_rank(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<3x64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xf16, #sa>
  // expected-error @+1 {{operands must be matrices}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<3x64x32xf16, #sa>, !tile.smem<32x64xf16, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_shapes(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<16x64xf16, #sa>
  // expected-error @+1 {{incompatible shapes [64, 32] @ [16, 64] + [64, 64]}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #sa>, !tile.smem<16x64xf16, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_elements(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xbf16, #sa>
  // expected-error @+1 {{operands must have the same element type, not 'f16' and 'bf16'}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xbf16, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_unsigned_f16(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xf16, #sa>
  // expected-error @+1 {{unsignedOperands needs 8-bit integer operands, not 'f16'}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>, unsignedOperands} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

func.func @dot_unsigned_i16(%a: tensor<16x16xi16>, %c: tensor<16x16xi32>) {
  // expected-error @+1 {{unsignedOperands needs 8-bit integer operands, not 'i16'}}
  %d = tile.dot %a, %a, %c {inputPrecision = #tile<input_precision tf32>, unsignedOperands} : tensor<16x16xi16>, tensor<16x16xi16> -> tensor<16x16xi32>
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>
func.func @warp_group_dot_mma_v2(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xf16, #sa>
  // expected-error @+1 {{accumulator must be in a #tile.mma layout of version 3}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
func.func @warp_group_dot_no_layout(%c: tensor<64x64xf32>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xf16, #sa>
  // expected-error @+1 {{accumulator must be in a #tile.mma layout of version 3}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sa> -> tensor<64x64xf32>
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#m = #tile.shared<contiguousDim = 0, swizzle = 128>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_a_m_major(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #m>
  %b = tile.local_alloc : !tile.smem<32x64xf16, #sa>
  // expected-error @+1 {{a must be stored with K contiguous}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #m>, !tile.smem<32x64xf16, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

// Only 16-bit B may be stored N-major (wgmma's transpose bit); fp32 (tf32)
// B must be K-major unless the accumulator is transposed.
#sa = #tile.shared<contiguousDim = 1, swizzle = 128>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 8]>
func.func @warp_group_dot_b_n_major_f32(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf32, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xf32, #sa>
  // expected-error @+1 {{b can be stored with N contiguous only for 16-bit elements}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf32, #sa>, !tile.smem<32x64xf32, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

// A transposed accumulator takes b^T from registers: 32-bit elements only.
#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16], transposed = true>
func.func @warp_group_dot_transposed_f16(%c: tensor<64x64xf32, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xf16, #sa>
  // expected-error @+1 {{b can be stored with N contiguous only for 32-bit elements with a transposed accumulator}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sa> -> tensor<64x64xf32, #mma>
  return
}

// -----

// wgmma leaves only 32-bit accumulators in flight.
#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_async_f16(%c: tensor<64x64xf16, #mma>) {
  %a = tile.local_alloc : !tile.smem<64x32xf16, #sa>
  %b = tile.local_alloc : !tile.smem<32x64xf16, #sa>
  // expected-error @+1 {{can be left in flight only with 32-bit accumulators}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision ieee>, isAsync} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sa> -> tensor<64x64xf16, #mma>
  return
}

// -----

#mma = #tile.mma<versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8, 16]>
func.func @warp_group_dot_wait_mma_v2(%t: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{waits for an accumulator in a #tile.mma layout of version 3}}
  %r = tile.warp_group_dot_wait %t {pending = 0 : i32} : tensor<64x64xf32, #mma>
  return
}

// -----

#blocked = #tile.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @warp_group_dot_wait_blocked(%t: tensor<64x64xf32, #blocked>) {
  // expected-error @+1 {{waits for an accumulator in a #tile.mma layout of version 3}}
  %r = tile.warp_group_dot_wait %t {pending = 0 : i32} : tensor<64x64xf32, #blocked>
  return
}

// -----

#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_wait_f16(%t: tensor<64x64xf16, #mma>) {
  // expected-error @+1 {{waits for 32-bit accumulators only}}
  %r = tile.warp_group_dot_wait %t {pending = 1 : i32} : tensor<64x64xf16, #mma>
  return
}

// -----

#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @warp_group_dot_wait_negative(%t: tensor<64x64xf32, #mma>) {
  // expected-error @+1 {{attribute 'pending' failed to satisfy constraint}}
  %r = tile.warp_group_dot_wait %t {pending = -1 : i32} : tensor<64x64xf32, #mma>
  return
}

// -----

#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @wait_pointer_accumulator(%t: tensor<64x64x!tile.ptr<f32>, #mma>) {
  // expected-error @+1 {{waits for 32-bit accumulators only}}
  %r = tile.warp_group_dot_wait %t {pending = 0 : i32} : tensor<64x64x!tile.ptr<f32>, #mma>
  return
}

// -----

#sa = #tile.shared<contiguousDim = 1, swizzle = 64>
#mma = #tile.mma<versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]>
func.func @dot_pointer_accumulator(%a: !tile.smem<64x32xf16, #sa>, %b: !tile.smem<32x64xf16, #sa>, %c: tensor<64x64x!tile.ptr<f32>, #mma>) {
  // expected-error @+1 {{accumulates into integers or floats only}}
  %d = tile.warp_group_dot %a, %b, %c {inputPrecision = #tile<input_precision tf32>} : !tile.smem<64x32xf16, #sa>, !tile.smem<32x64xf16, #sa> -> tensor<64x64x!tile.ptr<f32>, #mma>
  return
}

// -----

// A TMA copy writes one matrix (a slot, not the ring) at the coordinates
// of a block of a tensor of 2 to 5 dimensions.
#s = #tile.shared<contiguousDim = 1, swizzle = 128>
func.func @tma_copy_coords(%map: !tile.tensormap, %slot: !tile.smem<64x64xf16, #s>, %bars: !tile.barriers<3>, %i: i32, %valid: i1) {
  // expected-error @+1 {{copies a matrix of a tensor of 2 to 5 dimensions into one matrix}}
  tile.async_tma_copy %map[%i, %i, %i, %i, %i, %i], %slot, %bars[%i], %valid : !tile.tensormap, !tile.smem<64x64xf16, #s>, !tile.barriers<3>
  return
}

// -----

#s = #tile.shared<contiguousDim = 1, swizzle = 128>
func.func @tma_copy_ring(%map: !tile.tensormap, %i: i32, %valid: i1) {
  %ring = tile.local_alloc : !tile.smem<3x64x64xf16, #s>
  %bars = tile.barrier_alloc : !tile.barriers<3>
  // expected-error @+1 {{copies a matrix of a tensor of 2 to 5 dimensions into one matrix}}
  tile.async_tma_copy %map[%i, %i], %ring, %bars[%i], %valid : !tile.tensormap, !tile.smem<3x64x64xf16, #s>, !tile.barriers<3>
  return
}

// -----

func.func @barrier_expect_bytes(%bars: !tile.barriers<3>, %i: i32, %valid: i1) {
  // expected-error @+1 {{attribute 'bytes' failed to satisfy constraint}}
  tile.barrier_expect %bars[%i], %valid {bytes = 0 : i32} : !tile.barriers<3>
  return
}

// -----

#b = #tile.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]>
func.func @tma_store_narrow_rows(%map: !tile.tensormap, %m: i32, %v: tensor<64x8xf16, #b>) {
  // expected-error @+1 {{needs rows of 32, 64 or at least 128 bytes}}
  tile.async_tma_store %map[%m, %m], %v : !tile.tensormap, tensor<64x8xf16, #b>
  return
}

// -----

#b = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
func.func @tma_store_rank(%map: !tile.tensormap, %m: i32, %v: tensor<1024xf16, #b>) {
  // expected-error @+1 {{stores a 2-D tile into a tensor of 2 to 5 dimensions}}
  tile.async_tma_store %map[%m], %v : !tile.tensormap, tensor<1024xf16, #b>
  return
}

// -----

func.func @store_descriptor_without_base(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>, %o: i32) {
  // expected-error @+1 {{descriptor extents, strides and offsets need a base}}
  "tile.store"(%p, %v, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xf32>, i32) -> ()
  return
}

// -----

// A local store fills one matrix of the value's shape: a slot, not the
// ring.
#b = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#s = #tile.shared<contiguousDim = 0, swizzle = 128>
func.func @local_store_ring(%v: tensor<32x128xf32, #b>) {
  %r = tile.local_alloc : !tile.smem<3x32x128xf32, #s>
  // expected-error @+1 {{destination must be one matrix of shape [32, 128]}}
  tile.local_store %v, %r : tensor<32x128xf32, #b>, !tile.smem<3x32x128xf32, #s>
  return
}

// -----

#b = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#s = #tile.shared<contiguousDim = 0, swizzle = 128>
func.func @local_store_shape(%v: tensor<32x128xf32, #b>) {
  %r = tile.local_alloc : !tile.smem<128x32xf32, #s>
  // expected-error @+1 {{destination must be one matrix of shape [32, 128]}}
  tile.local_store %v, %r : tensor<32x128xf32, #b>, !tile.smem<128x32xf32, #s>
  return
}

// -----

#b = #tile.blocked<sizePerThread = [4, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]>
#s = #tile.shared<contiguousDim = 0, swizzle = 128>
func.func @local_store_element(%v: tensor<32x128xf16, #b>) {
  %r = tile.local_alloc : !tile.smem<32x128xf32, #s>
  // expected-error @+1 {{stores 'f16' elements into a 'f32' buffer}}
  tile.local_store %v, %r : tensor<32x128xf16, #b>, !tile.smem<32x128xf32, #s>
  return
}

// -----

func.func @extern_unknown(%x: f32) {
  // expected-error @+1 {{'__nv_frexpf' is not a libdevice function}}
  %y = tile.extern_elementwise "__nv_frexpf"(%x) : (f32) -> f32
  return
}

// -----

func.func @extern_arity(%x: f32) {
  // expected-error @+1 {{'__nv_atan2f' takes 2 arguments, not 1}}
  %y = tile.extern_elementwise "__nv_atan2f"(%x) : (f32) -> f32
  return
}

// -----

func.func @extern_width(%x: tensor<4xf64>) {
  // expected-error @+1 {{argument 0 of '__nv_sinf' must have elements of type 'f32'}}
  %y = tile.extern_elementwise "__nv_sinf"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  return
}

// -----

func.func @extern_result(%x: f32) {
  // expected-error @+1 {{the result of '__nv_isnanf' must have elements of type 'i32'}}
  %y = tile.extern_elementwise "__nv_isnanf"(%x) : (f32) -> i1
  return
}

// -----

func.func @cas_types(%p: !tile.ptr<i32>, %c: i32, %v: i64) {
  // expected-error @+1 {{all of {cmp, value, result} have same type}}
  %o = tile.atomic_cas %p, %c, %v : (!tile.ptr<i32>, i32, i64) -> i32
  return
}

// -----

func.func @cas_i8(%p: !tile.ptr<i8>, %c: i8) {
  // expected-error @+1 {{needs 16-, 32- or 64-bit values, not 'i8'}}
  %o = tile.atomic_cas %p, %c, %c : (!tile.ptr<i8>, i8, i8) -> i8
  return
}

// -----

func.func @combine_shapes(%x: tensor<16xf32>, %y: tensor<32xf32>) {
  // expected-error @+1 {{operands must have one shape, not [16] and [32]}}
  %r:2 = tile.combine_reduce %x, %y {axis = 0 : i32} : (tensor<16xf32>, tensor<32xf32>) -> (f32, f32) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tile.combine_yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @combine_result(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{result 0 must be 'tensor<8xf32>'}}
  %r = tile.combine_reduce %x {axis = 0 : i32} : (tensor<16x8xf32>) -> (tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  return
}

// -----

func.func @combine_arguments(%x: tensor<16xf32>) {
  // expected-error @+1 {{combine region must take 2 scalars of the operands' element types}}
  %r = tile.combine_reduce %x {axis = 0 : i32} : (tensor<16xf32>) -> (f32) {
  ^bb0(%a: f32, %b: i32):
    tile.combine_yield %a : f32
  }
  return
}

// -----

func.func @combine_yield(%x: tensor<16xi32>) {
  %r = tile.combine_scan %x {axis = 0 : i32, reverse = false} : (tensor<16xi32>) -> (tensor<16xi32>) {
  ^bb0(%a: i32, %b: i32):
    %f = arith.sitofp %a : i32 to f32
    // expected-error @+1 {{must yield 1 scalars of the results' element types}}
    tile.combine_yield %f : f32
  }
  return
}

// -----

func.func @combine_memory(%x: tensor<16xi32>, %p: !tile.ptr<i32>) {
  %r = tile.combine_reduce %x {axis = 0 : i32} : (tensor<16xi32>) -> (i32) {
  ^bb0(%a: i32, %b: i32):
    // expected-error @+1 {{is not allowed in combine region (it must have no memory effects)}}
    %v = tile.load %p : (!tile.ptr<i32>) -> i32
    tile.combine_yield %v : i32
  }
  return
}

// -----

func.func @combine_scan_types(%x: tensor<16xi32>) {
  // expected-error @+1 {{results must have the operands' types}}
  %r = tile.combine_scan %x {axis = 0 : i32, reverse = false} : (tensor<16xi32>) -> (tensor<16xf32>) {
  ^bb0(%a: i32, %b: i32):
    tile.combine_yield %a : i32
  }
  return
}

// -----

func.func @combine_axis(%x: tensor<16xi32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %r = tile.combine_reduce %x {axis = 1 : i32} : (tensor<16xi32>) -> (i32) {
  ^bb0(%a: i32, %b: i32):
    tile.combine_yield %a : i32
  }
  return
}

// -----

func.func @extern_convert_result(%x: f32) {
  // expected-error @+1 {{the result of '__nv_float2ll_rz' must have elements of type 'i64'}}
  %y = tile.extern_elementwise "__nv_float2ll_rz"(%x) : (f32) -> i32
  return
}

// -----

func.func @extern_convert_argument(%x: f64) {
  // expected-error @+1 {{argument 0 of '__nv_float_as_int' must have elements of type 'f32'}}
  %y = tile.extern_elementwise "__nv_float_as_int"(%x) : (f64) -> i32
  return
}

// -----

func.func @gather_axis(%x: tensor<16x64xf32>, %i: tensor<16x8xi32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %g = tile.gather %x[%i] {axis = 2 : i32} : (tensor<16x64xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @gather_index_type(%x: tensor<16x64xf32>, %i: tensor<16x8xf32>) {
  // expected-error @+1 {{index must be a tile of integers}}
  %g = tile.gather %x[%i] {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @gather_index_shape(%x: tensor<16x64xf32>, %i: tensor<8x8xi32>) {
  // expected-error @+1 {{index must have the size of src along dimension 0 (16), not 8}}
  %g = tile.gather %x[%i] {axis = 1 : i32} : (tensor<16x64xf32>, tensor<8x8xi32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @gather_index_rank(%x: tensor<16x64xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{index must have the rank of src (2), not 1}}
  %g = tile.gather %x[%i] {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16xi32>) -> tensor<16xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<16x64xf32>, %i: tensor<16x8xi32>) {
  // expected-error @+1 {{result must have the shape of index and the element type of src}}
  %g = tile.gather %x[%i] {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16x8xi32>) -> tensor<16x8xf16>
  return
}

// -----

func.func @histogram_src(%x: tensor<64xf32>) {
  // expected-error @+1 {{src must be a 1-D tile of integers}}
  %h = tile.histogram %x : (tensor<64xf32>) -> tensor<8xi32>
  return
}

// -----

func.func @histogram_result(%x: tensor<64xi32>) {
  // expected-error @+1 {{result must be a 1-D tile of i32}}
  %h = tile.histogram %x : (tensor<64xi32>) -> tensor<8xi64>
  return
}

// -----

func.func @histogram_mask(%x: tensor<64xi32>, %m: tensor<32xi1>) {
  // expected-error @+1 {{mask must be a tile of i1 of the shape of src}}
  %h = tile.histogram %x, %m : (tensor<64xi32>, tensor<32xi1>) -> tensor<8xi32>
  return
}

// -----

func.func @inline_asm_pack(%x: tensor<64xi32>) {
  // expected-error @+1 {{packs 3 elements, which must divide the elements of 'tensor<64xi32>'}}
  %y = tile.inline_asm "mov.b32 $0, $1;", "=r,r" (%x) {packed = 3 : i32, pure = true} : (tensor<64xi32>) -> tensor<64xi32>
  return
}

// -----

func.func @inline_asm_shapes(%x: tensor<64xi32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %y = tile.inline_asm "mov.b32 $0, $1;", "=r,r" (%x) {packed = 1 : i32, pure = true} : (tensor<64xi32>) -> tensor<32xi32>
  return
}

// -----

func.func @umax_float(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'umax' needs integer values}}
  %o = tile.atomic_rmw umax, %p, %v : (!tile.ptr<f32>, f32) -> f32
  return
}

// -----

func.func @print_flags(%x: i32, %y: i32) {
  // expected-error @+1 {{'is_unsigned' must have one flag per operand, not 1}}
  tile.print %x, %y {prefix = "", hex = false, is_unsigned = array<i1: true>} : i32, i32
  return
}

// -----

func.func @map_elementwise_pack(%x: tensor<6xf32>) {
  // expected-error @+1 {{packs 4 elements, which must divide the elements of 'tensor<6xf32>'}}
  %r = tile.map_elementwise %x {pack = 4 : i32} : (tensor<6xf32>) -> (tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tile.map_elementwise_yield %a, %b, %c, %d : f32, f32, f32, f32
  }
  return
}

// -----

func.func @map_elementwise_arguments(%x: tensor<8xf32>, %y: tensor<8xi32>) {
  // expected-error @+1 {{the body must take 4 scalars of the operands' element types}}
  %r = tile.map_elementwise %x, %y {pack = 2 : i32} : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    tile.map_elementwise_yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @map_elementwise_yield(%x: tensor<8xf32>) {
  %r = tile.map_elementwise %x {pack = 1 : i32} : (tensor<8xf32>) -> (tensor<8xi32>) {
  ^bb0(%a: f32):
    // expected-error @+1 {{must yield 1 scalars of the results' element types}}
    tile.map_elementwise_yield %a : f32
  }
  return
}

// -----

func.func @map_elementwise_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %r = tile.map_elementwise %x {pack = 1 : i32} : (tensor<8xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: f32):
    tile.map_elementwise_yield %a : f32
  }
  return
}

// -----

func.func @map_elementwise_memory(%x: tensor<8xf32>, %p: !tile.ptr<f32>) {
  %r = tile.map_elementwise %x {pack = 1 : i32} : (tensor<8xf32>) -> (tensor<8xf32>) {
  ^bb0(%a: f32):
    // expected-error @+1 {{is not allowed in the body (it must have no memory effects)}}
    tile.store %p, %a : !tile.ptr<f32>, f32
    tile.map_elementwise_yield %a : f32
  }
  return
}

// -----

func.func @inline_asm_constraints(%x: tensor<64xi32>) {
  // expected-error @+1 {{'tile.inline_asm' op the constraints "=r,=r,r" have 1 input, but the arguments take 2 registers per group of 2 elements}}
  %y = tile.inline_asm "mov.b32 $0, $1;", "=r,=r,r" (%x) {packed = 2 : i32, pure = true} : (tensor<64xi32>) -> tensor<64xi32>
  return
}
