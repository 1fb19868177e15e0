// REQUIRES: ptxas
// RUN: tilec-opt %s -tilec-lower-to-llvm=num-warps=4 | mlir-translate --mlir-to-llvmir -o %t.ll
// RUN: opt -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 -passes='default<O3>' %t.ll -o %t.bc
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.bc -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin

// Triton's fused softmax: programs step over rows; each row is one 1024-wide
// tile, max and sum are reduced across 4 warps (shuffles, then shared
// memory), exp is ex2.approx.
// CHECK: .extern .shared .align 1024 .b8 global_smem[];
// CHECK: .entry softmax_rows(
// CHECK: .maxntid 128, 1, 1
// CHECK: max.f32
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: bar.sync 0;
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ex2.approx.f32
// CHECK: shfl.sync.bfly.b32
// CHECK: div.rn.f32
// CHECK: st.global.b32
module {
func.func @softmax_rows(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %in: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %in_stride: i32, %out_stride: i32, %n_rows: i32, %n_cols: i32) {
  %pid = tile.program_id 0 : i32
  %np = tile.num_programs 0 : i32
  scf.for %row = %pid to %n_rows step %np : i32 {
    %cols = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
    %ns = tile.splat %n_cols : tensor<1024xi32>
    %mask = arith.cmpi slt, %cols, %ns : tensor<1024xi32>
    %off = arith.muli %row, %in_stride : i32
    %base = tile.addptr %in, %off : !tile.ptr<f32>, i32
    %bs = tile.splat %base : tensor<1024x!tile.ptr<f32>>
    %ptrs = tile.addptr %bs, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
    %x = tile.load %ptrs, %mask other %ninf : (tensor<1024x!tile.ptr<f32>>, tensor<1024xi1>, tensor<1024xf32>) -> tensor<1024xf32>
    %m = tile.reduce %x {axis = 0 : i32, kind = #tile<reduce_kind max>} : tensor<1024xf32> -> f32
    %ms = tile.splat %m : tensor<1024xf32>
    %d = arith.subf %x, %ms : tensor<1024xf32>
    %e = math.exp %d : tensor<1024xf32>
    %s = tile.reduce %e {axis = 0 : i32, kind = #tile<reduce_kind sum>} : tensor<1024xf32> -> f32
    %ss = tile.splat %s : tensor<1024xf32>
    %y = arith.divf %e, %ss : tensor<1024xf32>
    %ooff = arith.muli %row, %out_stride : i32
    %obase = tile.addptr %out, %ooff : !tile.ptr<f32>, i32
    %os = tile.splat %obase : tensor<1024x!tile.ptr<f32>>
    %optrs = tile.addptr %os, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    tile.store %optrs, %y, %mask : tensor<1024x!tile.ptr<f32>>, tensor<1024xf32>, tensor<1024xi1>
  }
  return
}
}
