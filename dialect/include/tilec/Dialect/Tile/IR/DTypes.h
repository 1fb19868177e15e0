//===- DTypes.h - The kernel ABI's dtypes as MLIR types ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The one mapping between the dtypes of the kernel ABI (tilec/ABI/KernelABI.h:
// signatures, tl.* dtypes, launch requirements, tensor maps) and the MLIR
// element types of the tile dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_DTYPES_H
#define TILEC_DIALECT_TILE_IR_DTYPES_H

#include "tilec/ABI/KernelABI.h"

#include "mlir/IR/Types.h"

#include <optional>
#include <string>

namespace tilec::tile {

/// The element type of `type` (integers are signless, so tl.uint32 is i32);
/// null for a dtype kernels cannot use (fp8e4b15).
mlir::Type getElementType(mlir::MLIRContext *context, abi::ScalarType type);

/// The dtype of an element type (an integer as the signed one), if the ABI
/// has it.
std::optional<abi::ScalarType> getScalarType(mlir::Type type);

/// How diagnostics name `type`: the dtype as Triton's signatures spell it
/// (`fp32`, `bf16`, `i32`, `fp8e4nv`), a pointer as `pointer<fp32>`, any
/// other type as MLIR prints it.
std::string getTypeName(mlir::Type type);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_DTYPES_H
