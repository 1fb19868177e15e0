//===- DTypes.cpp - The kernel ABI's dtypes as MLIR types -----------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/DTypes.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using tilec::abi::ScalarType;

Type tilec::tile::getElementType(MLIRContext *context, ScalarType type) {
  switch (type) {
  case ScalarType::I1:
    return IntegerType::get(context, 1);
  case ScalarType::I8:
  case ScalarType::I16:
  case ScalarType::I32:
  case ScalarType::I64:
  case ScalarType::U8:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
    return IntegerType::get(context, abi::scalarTypeSize(type) * 8);
  case ScalarType::FP16:
    return Float16Type::get(context);
  case ScalarType::BF16:
    return BFloat16Type::get(context);
  case ScalarType::FP32:
    return Float32Type::get(context);
  case ScalarType::FP64:
    return Float64Type::get(context);
  case ScalarType::FP8E4NV:
    return Float8E4M3FNType::get(context);
  case ScalarType::FP8E5:
    return Float8E5M2Type::get(context);
  case ScalarType::FP8E4B15:
    return Type();
  }
  return Type();
}

std::optional<ScalarType> tilec::tile::getScalarType(Type type) {
  if (type.isF16())
    return ScalarType::FP16;
  if (type.isBF16())
    return ScalarType::BF16;
  if (type.isF32())
    return ScalarType::FP32;
  if (type.isF64())
    return ScalarType::FP64;
  if (isa<Float8E4M3FNType>(type))
    return ScalarType::FP8E4NV;
  if (isa<Float8E5M2Type>(type))
    return ScalarType::FP8E5;
  switch (type.isInteger() ? type.getIntOrFloatBitWidth() : 0) {
  case 1:
    return ScalarType::I1;
  case 8:
    return ScalarType::I8;
  case 16:
    return ScalarType::I16;
  case 32:
    return ScalarType::I32;
  case 64:
    return ScalarType::I64;
  default:
    return std::nullopt;
  }
}

std::string tilec::tile::getTypeName(Type type) {
  if (auto ptr = dyn_cast<PtrType>(type))
    return "pointer<" + getTypeName(ptr.getPointeeType()) + ">";
  if (std::optional<ScalarType> scalar = getScalarType(type))
    return abi::scalarTypeName(*scalar);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}
