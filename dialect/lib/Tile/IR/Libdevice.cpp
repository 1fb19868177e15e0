//===- Libdevice.cpp - The functions of CUDA's libdevice --------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/Libdevice.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilec::tile;

namespace {
const LibdeviceFunction functions[] = {
#define TILEC_LIBDEVICE(NAME, KIND, SYMBOL32, SYMBOL64, EVAL)                  \
  {#NAME, LibdeviceKind::KIND, SYMBOL32, SYMBOL64, true},
#define TILEC_LIBDEVICE_FORM(NAME, KIND, SYMBOL32, SYMBOL64, EVAL)             \
  {#NAME, LibdeviceKind::KIND, SYMBOL32, SYMBOL64, false},
#define TILEC_LIBDEVICE_CONVERT(NAME, SYMBOL, FROM, TO, EVAL)                  \
  {#NAME,                                                                      \
   LibdeviceKind::Convert,                                                     \
   SYMBOL,                                                                     \
   "",                                                                         \
   true,                                                                       \
   LibdeviceScalar::FROM,                                                      \
   LibdeviceScalar::TO},
#include "tilec/Dialect/Tile/IR/Libdevice.def"
};

/// The MLIR type of `scalar`.
Type getScalarType(MLIRContext *ctx, LibdeviceScalar scalar) {
  switch (scalar) {
  case LibdeviceScalar::F32:
    return Float32Type::get(ctx);
  case LibdeviceScalar::F64:
    return Float64Type::get(ctx);
  case LibdeviceScalar::I32:
  case LibdeviceScalar::U32:
    return IntegerType::get(ctx, 32);
  case LibdeviceScalar::I64:
  case LibdeviceScalar::U64:
    return IntegerType::get(ctx, 64);
  case LibdeviceScalar::None:
    break;
  }
  llvm_unreachable("a Convert function has both types");
}

} // namespace

unsigned LibdeviceFunction::getArity() const {
  switch (kind) {
  case LibdeviceKind::F2:
  case LibdeviceKind::FInt:
  case LibdeviceKind::IntF:
  case LibdeviceKind::I2:
  case LibdeviceKind::HiLo:
    return 2;
  case LibdeviceKind::F3:
  case LibdeviceKind::I3:
    return 3;
  case LibdeviceKind::F4:
    return 4;
  default:
    return 1;
  }
}

bool LibdeviceFunction::takesFloats() const {
  if (kind == LibdeviceKind::Convert)
    return from == LibdeviceScalar::F32 || from == LibdeviceScalar::F64;
  return kind != LibdeviceKind::I1 && kind != LibdeviceKind::I2 &&
         kind != LibdeviceKind::I3 && kind != LibdeviceKind::ICount &&
         kind != LibdeviceKind::HiLo;
}

StringRef LibdeviceFunction::getSymbol(Type type) const {
  if (kind == LibdeviceKind::Convert)
    return type == getScalarType(type.getContext(), from) ? symbol32 : "";
  if (takesFloats() ? type.isF32() : type.isInteger(32))
    return symbol32;
  if (takesFloats() ? type.isF64() : type.isInteger(64))
    return symbol64;
  return "";
}

SmallVector<Type> LibdeviceFunction::getArgumentTypes(MLIRContext *ctx,
                                                      bool is64) const {
  if (kind == LibdeviceKind::Convert)
    return {getScalarType(ctx, from)};
  Type t = takesFloats() ? (is64 ? Type(Float64Type::get(ctx))
                                 : Type(Float32Type::get(ctx)))
                         : Type(IntegerType::get(ctx, is64 ? 64 : 32));
  SmallVector<Type> types(getArity(), t);
  if (kind == LibdeviceKind::FInt)
    types[1] = IntegerType::get(ctx, 32);
  if (kind == LibdeviceKind::IntF)
    types[0] = IntegerType::get(ctx, 32);
  return types;
}

Type LibdeviceFunction::getResultType(MLIRContext *ctx, bool is64) const {
  if (kind == LibdeviceKind::Convert)
    return getScalarType(ctx, to);
  if (kind == LibdeviceKind::FPred || kind == LibdeviceKind::ICount)
    return IntegerType::get(ctx, 32);
  if (kind == LibdeviceKind::FLong)
    return IntegerType::get(ctx, 64);
  if (kind == LibdeviceKind::HiLo)
    return Float64Type::get(ctx);
  // The float argument's type (the second of (int32, T)).
  SmallVector<Type> args = getArgumentTypes(ctx, is64);
  return kind == LibdeviceKind::IntF ? args.back() : args.front();
}

ArrayRef<LibdeviceFunction> tilec::tile::getLibdeviceFunctions() {
  return functions;
}

const LibdeviceFunction *tilec::tile::lookupLibdeviceFunction(StringRef name) {
  for (const LibdeviceFunction &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

const LibdeviceFunction *tilec::tile::lookupLibdeviceSymbol(StringRef symbol,
                                                            bool &is64) {
  if (symbol.empty())
    return nullptr;
  for (const LibdeviceFunction &f : functions) {
    if (f.symbol32 == symbol || f.symbol64 == symbol) {
      is64 = f.symbol64 == symbol;
      return &f;
    }
  }
  return nullptr;
}
