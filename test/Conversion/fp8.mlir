// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// Conversions to and from fp8 (held as i8) are PTX cvt instructions, one
// value at a time, with the value in both lanes of the packed operand: fp8 ->
// f16 (then fpext), and f32 -> fp8 with round to nearest even and
// saturation (f16 is extended to f32 first, f64 truncated to f32).
#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @e4m3
  // CHECK: %[[X:.*]] = llvm.fpext %{{.*}} : f16 to f32
  // CHECK: %[[Q:.*]] = llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $1;", "=h,f" %[[X]] : (f32) -> i16
  // CHECK: %[[B:.*]] = llvm.trunc %[[Q]] : i16 to i8
  // CHECK: %[[W:.*]] = llvm.zext %[[B]] : i8 to i16
  // CHECK: %[[S:.*]] = llvm.shl %[[W]], %{{.*}} : i16
  // CHECK: %[[P:.*]] = llvm.or %[[W]], %[[S]] : i16
  // CHECK: %[[H2:.*]] = llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %[[P]] : (i16) -> i32
  // CHECK: %[[H:.*]] = llvm.trunc %[[H2]] : i32 to i16
  // CHECK: %[[F:.*]] = llvm.bitcast %[[H]] : i16 to f16
  // CHECK: llvm.fpext %[[F]] : f16 to f32
  func.func @e4m3(%p: !tile.ptr<f16>, %q: !tile.ptr<f32>) {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f16>, #d>
    %x = tile.load %ps : (tensor<32x!tile.ptr<f16>, #d>) -> tensor<32xf16, #d>
    %y = arith.truncf %x : tensor<32xf16, #d> to tensor<32xf8E4M3FN, #d>
    %z = arith.extf %y : tensor<32xf8E4M3FN, #d> to tensor<32xf32, #d>
    %qs = tile.splat %q : tensor<32x!tile.ptr<f32>, #d>
    tile.store %qs, %z : tensor<32x!tile.ptr<f32>, #d>, tensor<32xf32, #d>
    return
  }

  // CHECK-LABEL: llvm.func @e5m2
  // CHECK: %[[X:.*]] = llvm.fptrunc %{{.*}} : f64 to f32
  // CHECK: llvm.inline_asm "cvt.rn.satfinite.e5m2x2.f32 $0, $1, $1;", "=h,f" %[[X]] : (f32) -> i16
  // CHECK: %[[H2:.*]] = llvm.inline_asm "cvt.rn.f16x2.e5m2x2 $0, $1;", "=r,h" %{{.*}} : (i16) -> i32
  // CHECK: %[[H:.*]] = llvm.trunc %[[H2]] : i32 to i16
  // CHECK: %[[F:.*]] = llvm.bitcast %[[H]] : i16 to f16
  // CHECK: %[[F32:.*]] = llvm.fpext %[[F]] : f16 to f32
  // CHECK: llvm.fptrunc %[[F32]] : f32 to bf16
  func.func @e5m2(%p: !tile.ptr<f64>, %q: !tile.ptr<bf16>) {
    %ps = tile.splat %p : tensor<32x!tile.ptr<f64>, #d>
    %x = tile.load %ps : (tensor<32x!tile.ptr<f64>, #d>) -> tensor<32xf64, #d>
    %y = arith.truncf %x : tensor<32xf64, #d> to tensor<32xf8E5M2, #d>
    %z = arith.extf %y : tensor<32xf8E5M2, #d> to tensor<32xbf16, #d>
    %qs = tile.splat %q : tensor<32x!tile.ptr<bf16>, #d>
    tile.store %qs, %z : tensor<32x!tile.ptr<bf16>, #d>, tensor<32xbf16, #d>
    return
  }

  // Scalars take the same path.
  // CHECK-LABEL: llvm.func @scalar
  // CHECK: llvm.inline_asm "cvt.rn.satfinite.e4m3x2.f32 $0, $1, $1;", "=h,f" %{{.*}} : (f32) -> i16
  // CHECK: llvm.inline_asm "cvt.rn.f16x2.e4m3x2 $0, $1;", "=r,h" %{{.*}} : (i16) -> i32
  func.func @scalar(%x: f32) -> f16 {
    %y = arith.truncf %x : f32 to f8E4M3FN
    %z = arith.extf %y : f8E4M3FN to f16
    return %z : f16
  }
}
