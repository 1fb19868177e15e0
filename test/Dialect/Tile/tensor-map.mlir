// RUN: tilec-opt %s | tilec-opt | FileCheck %s

// #tile.tensor_map round-trips: a 2-D map prints no outer dimensions; a
// map of a batch of matrices lists them outermost first, each an extent
// and a stride in elements, a scalar an argument, an argument times a
// constant, or a constant.
// CHECK: tile.tma = [#tile.tensor_map<param = 4, base = 0, element = f16, shape = [arg(3), 64], row_stride = 64, box = [64, 64], swizzle = 128>,
// CHECK-SAME: #tile.tensor_map<param = 5, base = 1, element = bf16, shape = [arg(3), 128], row_stride = 128, box = [128, 64], swizzle = 128, outer = [(2147483648, arg(3) * 128), (7, arg(2))]>]
module attributes {tile.tma = [
    #tile.tensor_map<param = 4, base = 0, element = f16, shape = [arg(3), 64], row_stride = 64, box = [64, 64], swizzle = 128>,
    #tile.tensor_map<param = 5, base = 1, element = bf16, shape = [arg(3), 128], row_stride = 128, box = [128, 64], swizzle = 128, outer = [(2147483648, arg(3) * 128), (7, arg(2) * 1)]>]} {
}
