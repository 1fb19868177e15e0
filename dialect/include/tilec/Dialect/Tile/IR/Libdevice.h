//===- Libdevice.h - The functions of CUDA's libdevice ----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The functions of `triton.language.extra.libdevice` (Libdevice.def): what
// the front end accepts, what tile.extern_elementwise verifies and what the
// interpreter computes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_LIBDEVICE_H
#define TILEC_DIALECT_TILE_IR_LIBDEVICE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace tilec::tile {

/// The signature classes of libdevice functions, on T = fp32 or fp64 (float
/// kinds) or I = int32 or int64 (integer kinds).
enum class LibdeviceKind {
  F1,      ///< T -> T
  F2,      ///< (T, T) -> T
  F3,      ///< (T, T, T) -> T
  F4,      ///< (T, T, T, T) -> T
  FPred,   ///< T -> int32
  FInt,    ///< (T, int32) -> T
  IntF,    ///< (int32, T) -> T
  FLong,   ///< T -> int64
  I1,      ///< I -> I
  I2,      ///< (I, I) -> I
  I3,      ///< (I, I, I) -> I
  ICount,  ///< I -> int32
  HiLo,    ///< (int32, int32) -> fp64
  Convert, ///< one fixed type to another (LibdeviceFunction::from, to)
};

/// The argument and result types of Convert functions. U32 and U64 are the
/// signless i32 and i64 in the IR; a U32 or U64 result is unsigned for the
/// frontend.
enum class LibdeviceScalar { None, F32, F64, I32, I64, U32, U64 };

struct LibdeviceFunction {
  llvm::StringRef name;
  LibdeviceKind kind;
  /// The fp32 (int32) and fp64 (int64) forms; empty where there is none.
  llvm::StringRef symbol32, symbol64;
  /// False for a form reached through another name (`powi`, of `pow`).
  bool isPublic;
  /// For Convert functions: the argument and result types.
  LibdeviceScalar from = LibdeviceScalar::None, to = LibdeviceScalar::None;

  /// The number of arguments.
  unsigned getArity() const;
  /// True for the float kinds.
  bool takesFloats() const;
  /// The symbol for arguments whose first element type is `type`, or "".
  llvm::StringRef getSymbol(mlir::Type type) const;
  /// The element types of the arguments and of the result of `symbol`'s
  /// form (one of symbol32, symbol64).
  llvm::SmallVector<mlir::Type> getArgumentTypes(mlir::MLIRContext *ctx,
                                                 bool is64) const;
  mlir::Type getResultType(mlir::MLIRContext *ctx, bool is64) const;
  /// True for the conversions to unsigned integers (`float2uint_rn`).
  bool returnsUnsigned() const {
    return to == LibdeviceScalar::U32 || to == LibdeviceScalar::U64;
  }
};

/// Every function, in the order of Libdevice.def.
llvm::ArrayRef<LibdeviceFunction> getLibdeviceFunctions();
/// The function named `name` in Python (forms included), or null.
const LibdeviceFunction *lookupLibdeviceFunction(llvm::StringRef name);
/// The function with the symbol `symbol`, or null; `is64` tells which form.
const LibdeviceFunction *lookupLibdeviceSymbol(llvm::StringRef symbol,
                                               bool &is64);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_LIBDEVICE_H
