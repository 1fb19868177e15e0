// RUN: tilec-opt %s -split-input-file -convert-tile-to-llvm | FileCheck %s

// 16-byte aligned base pointers, offsets pid * 1024 + arange and a bound
// divisible by 16: every access is one masked 16-byte vector.
#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @vector_add
  // CHECK-SAME: nvvm.kernel
  // CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
  // CHECK: nvvm.read.ptx.sreg.ctaid.x
  // CHECK: nvvm.read.ptx.sreg.tid.x
  // CHECK: llvm.inline_asm has_side_effects "{{.*}}@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b,r,r,r,r"
  // CHECK: llvm.fadd {{.*}} : f32
  // CHECK: llvm.inline_asm has_side_effects "@$1 st.global.v4.b32 [$0], {$2, $3, $4, $5};", "l,b,r,r,r,r"
  // CHECK-NOT: tile.{{[a-z_]+}} %
  func.func @vector_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %y: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) {
    %pid = tile.program_id 0 : i32
    %c = arith.constant 1024 : i32
    %s = arith.muli %pid, %c : i32
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #blocked>
    %ss = tile.splat %s : tensor<1024xi32, #blocked>
    %offs = arith.addi %ss, %r : tensor<1024xi32, #blocked>
    %ns = tile.splat %n : tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %ys = tile.splat %y : tensor<1024x!tile.ptr<f32>, #blocked>
    %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %xv = tile.load %xp, %m : (tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    %yv = tile.load %yp, %m : (tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    %sum = arith.addf %xv, %yv : tensor<1024xf32, #blocked>
    tile.store %yp, %sum, %m : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xf32, #blocked>, tensor<1024xi1, #blocked>
    return
  }
}

// -----

// Without a divisibility hint on the bound, the mask may change inside a
// vector: one masked 4-byte access per element. Without a mask and with
// aligned pointers the accesses stay vectors.
#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @unaligned_bound
  // CHECK-COUNT-8: @$2 ld.global.b32 $0, [$1];
  // CHECK: ld.global.v4.b32
  func.func @unaligned_bound(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #blocked>
    %ns = tile.splat %n : tensor<1024xi32, #blocked>
    %m = arith.cmpi slt, %r, %ns : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %xv = tile.load %xp, %m : (tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi1, #blocked>) -> tensor<1024xf32, #blocked>
    %xw = tile.load %xp : (tensor<1024x!tile.ptr<f32>, #blocked>) -> tensor<1024xf32, #blocked>
    return
  }
}

// -----

// An unaligned base pointer forbids vectors even without a mask.
#blocked = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]>
module attributes {tile.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @unaligned_pointer
  // CHECK-NOT: ld.global.v
  // CHECK: ld.global.b32 $0, [$1];
  func.func @unaligned_pointer(%x: !tile.ptr<f32>) {
    %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32, #blocked>
    %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>, #blocked>
    %xp = tile.addptr %xs, %r : tensor<1024x!tile.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %xv = tile.load %xp : (tensor<1024x!tile.ptr<f32>, #blocked>) -> tensor<1024xf32, #blocked>
    return
  }
}
