// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tile-set-target=arch=sm_90a -tile-assign-layouts=num-warps=8

// A wgmma product holds its whole accumulator in registers while it runs:
// 256x256 fp32 over 8 warps is 256 registers per thread, past the 255 a
// thread can have. ptxas spills it: a warning, not an error.
func.func @too_big(%p: !tile.ptr<f32>) {
  %a = arith.constant dense<1.000000e+00> : tensor<256x32xf16>
  %b = arith.constant dense<1.000000e+00> : tensor<32x256xf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<256x256xf32>
  // expected-warning @+1 {{tl.dot's 256x256 accumulator needs 256 registers per thread with 8 warps, but a thread has at most 255: ptxas will spill it and serialize the products (slow); use smaller blocks or more warps}}
  %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<256x32xf16>, tensor<32x256xf16> -> tensor<256x256xf32>
  %ps = tile.splat %p : tensor<256x256x!tile.ptr<f32>>
  tile.store %ps, %d : tensor<256x256x!tile.ptr<f32>>, tensor<256x256xf32>
  return
}

// -----

// 128x256 fp32 over 8 warps: 128 registers per thread, accepted.
func.func @fits(%p: !tile.ptr<f32>) {
  %a = arith.constant dense<1.000000e+00> : tensor<128x32xf16>
  %b = arith.constant dense<1.000000e+00> : tensor<32x256xf16>
  %acc = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
  %d = tile.dot %a, %b, %acc {inputPrecision = #tile<input_precision tf32>} : tensor<128x32xf16>, tensor<32x256xf16> -> tensor<128x256xf32>
  %ps = tile.splat %p : tensor<128x256x!tile.ptr<f32>>
  tile.store %ps, %d : tensor<128x256x!tile.ptr<f32>>, tensor<128x256xf32>
  return
}
