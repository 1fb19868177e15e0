// RUN: tilec-opt %s -tile-set-target=arch=sm_90a -tile-split-tf32x3=num-warps=4 | FileCheck %s
// RUN: tilec-opt %s -tile-set-target=arch=sm_80 -tile-split-tf32x3=num-warps=4 | FileCheck %s --check-prefix=FMA

// On tensor cores, a tf32x3 dot becomes three tf32 dots on the operands'
// tf32 parts (mantissa bits 0-12 cleared) and rests, smallest terms first,
// summed from zero and then added to the accumulator.
// CHECK-LABEL: func.func @tf32x3
// CHECK: %[[ABITS:.*]] = arith.bitcast %[[A:.*]] : tensor<64x32xf32> to tensor<64x32xi32>
// CHECK: %[[MASK:.*]] = arith.constant dense<-8192> : tensor<64x32xi32>
// CHECK: %[[AHIBITS:.*]] = arith.andi %[[ABITS]], %[[MASK]]
// CHECK: %[[AHI:.*]] = arith.bitcast %[[AHIBITS]] : tensor<64x32xi32> to tensor<64x32xf32>
// CHECK: %[[ALO:.*]] = arith.subf %[[A]], %[[AHI]]
// CHECK: %[[BHI:.*]] = arith.bitcast %{{.*}} : tensor<32x64xi32> to tensor<32x64xf32>
// CHECK: %[[BLO:.*]] = arith.subf %{{.*}}, %[[BHI]]
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
// CHECK: %[[D1:.*]] = tile.dot %[[ALO]], %[[BHI]], %[[ZERO]] {inputPrecision = #tile<input_precision tf32>}
// CHECK: %[[D2:.*]] = tile.dot %[[AHI]], %[[BLO]], %[[D1]] {inputPrecision = #tile<input_precision tf32>}
// CHECK: %[[D3:.*]] = tile.dot %[[AHI]], %[[BHI]], %[[D2]] {inputPrecision = #tile<input_precision tf32>}
// CHECK: %[[SUM:.*]] = arith.addf %[[C:.*]], %[[D3]]
// CHECK: return %[[SUM]]
// FMA: tile.dot {{.*}} {inputPrecision = #tile<input_precision tf32x3>}
// FMA-NOT: tile.dot
func.func @tf32x3(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %a, %b, %c {inputPrecision = #tile<input_precision tf32x3>} : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
