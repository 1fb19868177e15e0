// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm -canonicalize -cse | FileCheck %s

// i1 tiles live in memory as bytes: loads compare the byte with 0, stores
// zero-extend. 8-bit values use 16-bit registers, so `other` is moved with
// mov.b16.
#d = #tile.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @bools
  // CHECK: llvm.inline_asm has_side_effects "mov.b16 $0, $3;\0A\09@$2 ld.global.b8 $0, [$1];", "=c,l,b,c"
  // CHECK: llvm.icmp "ne" %{{.*}}, %{{.*}} : i8
  // CHECK: llvm.zext %{{.*}} : i1 to i8
  // CHECK: llvm.inline_asm has_side_effects "st.global.b8 [$0], $1;", "l,c"
  func.func @bools(%p: !tile.ptr<i1>, %n: i32) {
    %r = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #d>
    %ns = tile.splat %n : tensor<32xi32, #d>
    %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #d>
    %ps = tile.splat %p : tensor<32x!tile.ptr<i1>, #d>
    %pp = tile.addptr %ps, %r : tensor<32x!tile.ptr<i1>, #d>, tensor<32xi32, #d>
    %x = tile.load %pp, %m other %m : (tensor<32x!tile.ptr<i1>, #d>, tensor<32xi1, #d>, tensor<32xi1, #d>) -> tensor<32xi1, #d>
    %y = arith.xori %x, %m : tensor<32xi1, #d>
    tile.store %pp, %y : tensor<32x!tile.ptr<i1>, #d>, tensor<32xi1, #d>
    return
  }
}

// -----

// 16-byte vectors of f16 (8 elements) and f64 (2 elements) move as four
// 32-bit words; a masked i8 vector of 4 moves as one 32-bit word.
#h = #tile.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#w = #tile.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
#b = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>
module attributes {tile.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @vectors
  // CHECK: "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];"
  // CHECK: llvm.bitcast %{{.*}} : vector<4xi32> to vector<8xf16>
  // CHECK: "ld.global.v4.b32 {$0, $1, $2, $3}, [$4];"
  // CHECK: llvm.bitcast %{{.*}} : vector<4xi32> to vector<2xf64>
  // CHECK: "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [$1];", "=r,l,b,r"
  // CHECK: llvm.bitcast %{{.*}} : vector<1xi32> to vector<4xi8>
  func.func @vectors(%ph: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pw: !tile.ptr<f64> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<i8> {tile.divisibility = 16 : i32}) {
    %rh = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #h>
    %hs = tile.splat %ph : tensor<256x!tile.ptr<f16>, #h>
    %hp = tile.addptr %hs, %rh : tensor<256x!tile.ptr<f16>, #h>, tensor<256xi32, #h>
    %h = tile.load %hp : (tensor<256x!tile.ptr<f16>, #h>) -> tensor<256xf16, #h>
    tile.store %hp, %h : tensor<256x!tile.ptr<f16>, #h>, tensor<256xf16, #h>
    %rw = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #w>
    %ws = tile.splat %pw : tensor<64x!tile.ptr<f64>, #w>
    %wp = tile.addptr %ws, %rw : tensor<64x!tile.ptr<f64>, #w>, tensor<64xi32, #w>
    %w = tile.load %wp : (tensor<64x!tile.ptr<f64>, #w>) -> tensor<64xf64, #w>
    tile.store %wp, %w : tensor<64x!tile.ptr<f64>, #w>, tensor<64xf64, #w>
    %rb = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32, #b>
    %bs = tile.splat %pb : tensor<128x!tile.ptr<i8>, #b>
    %bp = tile.addptr %bs, %rb : tensor<128x!tile.ptr<i8>, #b>, tensor<128xi32, #b>
    %c64 = arith.constant dense<64> : tensor<128xi32, #b>
    %m = arith.cmpi slt, %rb, %c64 : tensor<128xi32, #b>
    %z = arith.constant dense<0> : tensor<128xi8, #b>
    %bv = tile.load %bp, %m other %z : (tensor<128x!tile.ptr<i8>, #b>, tensor<128xi1, #b>, tensor<128xi8, #b>) -> tensor<128xi8, #b>
    tile.store %bp, %bv : tensor<128x!tile.ptr<i8>, #b>, tensor<128xi8, #b>
    return
  }
}

// -----

// Each element is stored once: a scalar store by thread 0, and a tile with
// copies (64 elements over 2 warps of 32 lanes with 4 registers each) only
// by the threads whose copy bits are zero.
#d = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]>
module attributes {tile.num_warps = 2 : i32} {
  // CHECK-LABEL: llvm.func @store_once
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
  // CHECK: llvm.inline_asm has_side_effects "@$1 st.global.b32 [$0], $2;", "l,b,r" %{{.*}}, %[[FIRST]]
  // CHECK: %[[WARP:.*]] = llvm.lshr %[[TID]]
  // CHECK: %[[DUP:.*]] = llvm.and %[[WARP]], %{{.*}} : i32
  // CHECK: %[[OWNER:.*]] = llvm.icmp "eq" %[[DUP]]
  // CHECK: %[[BOTH:.*]] = llvm.and %{{.*}}, %[[OWNER]] : i1
  // CHECK-COUNT-4: "@$1 st.global.b32 [$0], $2;", "l,b,r" %{{.*}}, %[[BOTH]]
  func.func @store_once(%p: !tile.ptr<f32>, %v: f32) {
    tile.store %p, %v : !tile.ptr<f32>, f32
    %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #d>
    %ps = tile.splat %p : tensor<64x!tile.ptr<f32>, #d>
    %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f32>, #d>, tensor<64xi32, #d>
    %vs = tile.splat %v : tensor<64xf32, #d>
    tile.store %pp, %vs : tensor<64x!tile.ptr<f32>, #d>, tensor<64xf32, #d>
    return
  }
}
