// RUN: tilec-opt %s | tilec-opt | FileCheck %s

// Layouts print as aliases.
// CHECK: #[[B:blocked]] = #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>

// CHECK-LABEL: func.func @ops
func.func @ops(%p: !tile.ptr<f16>, %n: i32) {
  // CHECK: tile.program_id 0 : i32
  %pid = tile.program_id 0 : i32
  // CHECK: tile.num_programs 2 : i32
  %np = tile.num_programs 2 : i32
  // CHECK: tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %r = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  // CHECK: tile.splat %{{.*}} : tensor<64x!tile.ptr<f16>>
  %ps = tile.splat %p : tensor<64x!tile.ptr<f16>>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %ns = tile.splat %n : tensor<64xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  %zero = arith.constant dense<0.0> : tensor<64xf16>
  // CHECK: tile.load %{{.*}}, %{{.*}} other %{{.*}} : (tensor<64x!tile.ptr<f16>>, tensor<64xi1>, tensor<64xf16>) -> tensor<64xf16>
  %v = tile.load %pp, %m other %zero : (tensor<64x!tile.ptr<f16>>, tensor<64xi1>, tensor<64xf16>) -> tensor<64xf16>
  // CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f16>>, tensor<64xf16>, tensor<64xi1>
  tile.store %pp, %v, %m : tensor<64x!tile.ptr<f16>>, tensor<64xf16>, tensor<64xi1>
  // CHECK: tile.load %{{.*}} : (!tile.ptr<f16>) -> f16
  %s = tile.load %p : (!tile.ptr<f16>) -> f16
  // CHECK: tile.store %{{.*}}, %{{.*}} : !tile.ptr<f16>, f16
  tile.store %p, %s : !tile.ptr<f16>, f16
  return
}

// CHECK-LABEL: func.func @layouts
// CHECK-SAME: tensor<128xf32, #[[B]]>
func.func @layouts(%t: tensor<128xf32, #tile.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]>>) {
  return
}
