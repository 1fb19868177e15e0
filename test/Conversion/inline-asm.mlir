// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// pack = 4 on bytes: four registers of the thread go in one <4 x i8>
// operand and come back from one; pure asm has no side effects.
#bytes = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @packed_bytes
  // CHECK-COUNT-4: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<4xi8>
  // CHECK-NEXT: %[[R:.*]] = llvm.inline_asm "and.b32 $0, $1, 0x1F1F1F1F;", "=r,r" %{{.*}} : (vector<4xi8>) -> vector<4xi8>
  // CHECK: llvm.extractelement %[[R]][%{{.*}} : i32] : vector<4xi8>
  // CHECK: llvm.inline_asm "and.b32 $0, $1, 0x1F1F1F1F;", "=r,r" %{{.*}} : (vector<4xi8>) -> vector<4xi8>
  // CHECK-NOT: llvm.inline_asm "and.b32
  func.func @packed_bytes(%p: !tile.ptr<i8>) {
    %ps = tile.splat %p : tensor<1024x!tile.ptr<i8>, #bytes>
    %x = tile.load %ps : (tensor<1024x!tile.ptr<i8>, #bytes>) -> tensor<1024xi8, #bytes>
    %y = tile.inline_asm "and.b32 $0, $1, 0x1F1F1F1F;", "=r,r" (%x) {packed = 4 : i32, pure = true} : (tensor<1024xi8, #bytes>) -> tensor<1024xi8, #bytes>
    tile.store %ps, %y : tensor<1024x!tile.ptr<i8>, #bytes>, tensor<1024xi8, #bytes>
    return
  }
}

// -----

// Two results: one asm a register returning a struct of both (the unused
// sum is not extracted); without `pure` it has side effects.
#blocked = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @two_results
  // CHECK: %[[S:.*]] = llvm.inline_asm has_side_effects "{{.*}}", "=r,=r,r,r" %{{.*}}, %{{.*}} : (f32, f32) -> !llvm.struct<(f32, f32)>
  // CHECK: llvm.extractvalue %[[S]][1] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.inline_asm has_side_effects
  // CHECK-NOT: llvm.inline_asm has_side_effects "{
  func.func @two_results(%p: !tile.ptr<f32>, %q: tensor<256xf32, #blocked>) {
    %ps = tile.splat %p : tensor<256x!tile.ptr<f32>, #blocked>
    %x = tile.load %ps : (tensor<256x!tile.ptr<f32>, #blocked>) -> tensor<256xf32, #blocked>
    %s:2 = tile.inline_asm "{ add.f32 $0, $2, $3; sub.f32 $1, $2, $3; }", "=r,=r,r,r" (%x, %q) {packed = 1 : i32, pure = false} : (tensor<256xf32, #blocked>, tensor<256xf32, #blocked>) -> (tensor<256xf32, #blocked>, tensor<256xf32, #blocked>)
    tile.store %ps, %s#1 : tensor<256x!tile.ptr<f32>, #blocked>, tensor<256xf32, #blocked>
    return
  }
}
