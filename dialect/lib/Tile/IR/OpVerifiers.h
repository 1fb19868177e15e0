//===- OpVerifiers.h - Checks shared by the op verifiers --------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The checks the verifiers of TileOps.cpp (language level) and TileGPUOps.cpp
// (GPU level) share. Internal to the dialect's IR library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_OPVERIFIERS_H
#define TILEC_DIALECT_TILE_IR_OPVERIFIERS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

namespace tilec::tile {

/// Appends `[d0, d1, ...]` to `diag`.
mlir::InFlightDiagnostic &&printShape(mlir::InFlightDiagnostic &&diag,
                                      llvm::ArrayRef<int64_t> shape);

/// Checks that `mask`, when given, is an i1 tile of the shape of the pointer
/// tile `ptr` (an i1 scalar for a scalar pointer).
mlir::LogicalResult verifyMask(mlir::Operation *op, mlir::Type ptr,
                               mlir::Value mask);

/// Checks that `a` @ `b` + `c` are matrices of matching shapes (with
/// `rankMessage` when one is not a matrix); tile.dot and
/// tile.warp_group_dot share it.
mlir::LogicalResult verifyProductShapes(mlir::Operation *op,
                                        mlir::ShapedType a, mlir::ShapedType b,
                                        mlir::ShapedType c,
                                        llvm::StringRef rankMessage);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_OPVERIFIERS_H
