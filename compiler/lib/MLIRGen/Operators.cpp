//===- Operators.cpp - Python operators on tiles and constants --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Binary and unary operators with Triton's semantics: constant folding of
// compile-time numbers, pointer arithmetic, type promotion and the splatting
// of scalars to tiles. The promotion rules are written down in
// docs/language.md.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

FailureOr<bool> Generator::constTruth(const TValue &v, llvm::SMLoc l) {
  switch (v.kind) {
  case TValue::Kind::Int:
  case TValue::Kind::Bool:
    return v.i != 0;
  case TValue::Kind::Float:
    return v.f != 0;
  case TValue::Kind::None:
    return false;
  case TValue::Kind::String:
    return !v.s.empty();
  case TValue::Kind::Tuple:
    return !v.elements.empty();
  case TValue::Kind::Value:
    return error(l) << "the truth of " << v.describe()
                    << " is only known at run time here";
  default:
    return true;
  }
}

FailureOr<Value> Generator::toValue(const TValue &v, llvm::SMLoc l) {
  Location location = loc(l);
  switch (v.kind) {
  case TValue::Kind::Value:
    return v.value;
  case TValue::Kind::Int: {
    Type t = (v.i >= INT32_MIN && v.i <= INT32_MAX) ? builder.getI32Type()
                                                     : builder.getI64Type();
    return Value(arith::ConstantOp::create(builder, location,
                                           builder.getIntegerAttr(t, v.i)));
  }
  case TValue::Kind::Bool:
    return Value(arith::ConstantOp::create(builder, location,
                                           builder.getBoolAttr(v.i != 0)));
  case TValue::Kind::Float:
    return Value(arith::ConstantOp::create(
        builder, location, builder.getF32FloatAttr(float(v.f))));
  default:
    return error(l) << v.describe() << " cannot be used as a value";
  }
}

/// A zero of `v`'s type (a splat zero tile for a tile).
static Value zeroLike(OpBuilder &b, Location l, Value v) {
  Type elem = getElementTypeOrSelf(v.getType());
  TypedAttr zero = isa<FloatType>(elem) ? TypedAttr(b.getFloatAttr(elem, 0))
                                        : TypedAttr(b.getIntegerAttr(elem, 0));
  if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
    return arith::ConstantOp::create(b, l, DenseElementsAttr::get(tensor, zero));
  return arith::ConstantOp::create(b, l, zero);
}

Value Generator::cast(Value v, Type to, Location l) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == to)
    return v;
  Type result = tile::withElementType(v.getType(), to);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(builder, l, result, v);
    return arith::TruncFOp::create(builder, l, result, v);
  }
  if (!fromFloat && toFloat) {
    if (from.isInteger(1))
      return arith::UIToFPOp::create(builder, l, result, v);
    return arith::SIToFPOp::create(builder, l, result, v);
  }
  if (fromFloat && !toFloat) {
    if (to.isInteger(1))
      return arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, v,
                                   zeroLike(builder, l, v));
    return arith::FPToSIOp::create(builder, l, result, v);
  }
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (toBits == 1)
    return arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, v,
                                 zeroLike(builder, l, v));
  if (fromBits == 1)
    return arith::ExtUIOp::create(builder, l, result, v);
  if (fromBits < toBits)
    return arith::ExtSIOp::create(builder, l, result, v);
  return arith::TruncIOp::create(builder, l, result, v);
}

FailureOr<Value> Generator::broadcastTo(Value v, ArrayRef<int64_t> shape,
                                        llvm::SMLoc l) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    return Value(tile::SplatOp::create(
        builder, loc(l), RankedTensorType::get(shape, v.getType()), v));
  if (tensor.getShape() == shape)
    return v;
  auto diag = error(l) << "cannot broadcast a tile of shape [";
  llvm::interleaveComma(tensor.getShape(), diag);
  diag << "] to [";
  llvm::interleaveComma(shape, diag);
  return diag << "]";
}

FailureOr<Value> Generator::toValueOfType(const TValue &v, Type elem,
                                          Type like, llvm::SMLoc l) {
  Location location = loc(l);
  Value scalar;
  if (v.isConstNumber()) {
    TypedAttr attr;
    if (isa<FloatType>(elem))
      attr = builder.getFloatAttr(
          elem, v.kind == TValue::Kind::Float ? v.f : double(v.i));
    else if (v.kind == TValue::Kind::Float)
      return error(l) << "cannot use a float constant as " << elem;
    else
      attr = builder.getIntegerAttr(elem, v.i);
    scalar = arith::ConstantOp::create(builder, location, attr);
  } else if (v.isValue()) {
    scalar = cast(v.value, elem, location);
  } else {
    return error(l) << v.describe() << " cannot be used as a value";
  }
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return broadcastTo(scalar, tensor.getShape(), l);
  return scalar;
}

/// Rank of a float type for promotion: f16/bf16 < f32 < f64.
static unsigned floatRank(Type t) {
  return t.isF64() ? 3 : t.isF32() ? 2 : 1;
}

/// The element type two operands are promoted to. Compile-time numbers are
/// weakly typed: they take the other operand's type when it has the same
/// kind (integer or float).
static Type promote(OpBuilder &b, const TValue &lhs, const TValue &rhs) {
  auto typeOf = [](const TValue &v) -> Type {
    return v.isValue() ? getElementTypeOrSelf(v.value.getType()) : Type();
  };
  Type l = typeOf(lhs), r = typeOf(rhs);
  auto weak = [&](const TValue &c, Type other) -> Type {
    if (c.kind == TValue::Kind::Float)
      return isa<FloatType>(other) ? other : b.getF32Type();
    if (c.kind == TValue::Kind::Bool)
      return other;
    if (isa<FloatType>(other) || other.getIntOrFloatBitWidth() > 32 ||
        (c.i >= INT32_MIN && c.i <= INT32_MAX))
      return other.isInteger(1) ? b.getI32Type() : other;
    return b.getI64Type();
  };
  if (!l)
    return weak(lhs, r);
  if (!r)
    return weak(rhs, l);
  bool lf = isa<FloatType>(l), rf = isa<FloatType>(r);
  if (lf && rf) {
    if (l == r)
      return l;
    if (floatRank(l) == floatRank(r)) // f16 with bf16
      return b.getF32Type();
    return floatRank(l) > floatRank(r) ? l : r;
  }
  if (lf)
    return l;
  if (rf)
    return r;
  return l.getIntOrFloatBitWidth() >= r.getIntOrFloatBitWidth() ? l : r;
}

/// Folds an operator on two compile-time numbers with Python's semantics.
static std::optional<TValue> foldConstants(BinaryOp op, const TValue &a,
                                           const TValue &b) {
  bool isFloat =
      a.kind == TValue::Kind::Float || b.kind == TValue::Kind::Float;
  double x = a.kind == TValue::Kind::Float ? a.f : double(a.i);
  double y = b.kind == TValue::Kind::Float ? b.f : double(b.i);
  int64_t i = a.i, j = b.i;
  auto num = [&](double f, int64_t n) {
    return isFloat ? TValue::ofFloat(f) : TValue::ofInt(n);
  };
  switch (op) {
  case BinaryOp::Add:
    return num(x + y, i + j);
  case BinaryOp::Sub:
    return num(x - y, i - j);
  case BinaryOp::Mul:
    return num(x * y, i * j);
  case BinaryOp::Div:
    if (y == 0)
      return std::nullopt;
    return TValue::ofFloat(x / y);
  case BinaryOp::FloorDiv:
    if (y == 0)
      return std::nullopt;
    if (isFloat)
      return TValue::ofFloat(std::floor(x / y));
    return TValue::ofInt(i / j - ((i % j != 0) && ((i < 0) != (j < 0))));
  case BinaryOp::Mod:
    if (y == 0)
      return std::nullopt;
    if (isFloat)
      return TValue::ofFloat(x - y * std::floor(x / y));
    return TValue::ofInt(((i % j) + j) % j);
  case BinaryOp::Pow:
    if (!isFloat && j >= 0) {
      int64_t r = 1;
      for (int64_t k = 0; k < j && k < 64; ++k)
        r *= i;
      return TValue::ofInt(r);
    }
    return TValue::ofFloat(std::pow(x, y));
  case BinaryOp::Lt:
    return TValue::ofBool(x < y);
  case BinaryOp::Le:
    return TValue::ofBool(x <= y);
  case BinaryOp::Gt:
    return TValue::ofBool(x > y);
  case BinaryOp::Ge:
    return TValue::ofBool(x >= y);
  case BinaryOp::Eq:
    return TValue::ofBool(x == y);
  case BinaryOp::Ne:
    return TValue::ofBool(x != y);
  default:
    break;
  }
  if (isFloat)
    return std::nullopt;
  switch (op) {
  case BinaryOp::BitAnd:
    return TValue::ofInt(i & j);
  case BinaryOp::BitOr:
    return TValue::ofInt(i | j);
  case BinaryOp::BitXor:
    return TValue::ofInt(i ^ j);
  case BinaryOp::LShift:
    return j >= 0 && j < 64 ? std::optional(TValue::ofInt(i << j))
                            : std::nullopt;
  case BinaryOp::RShift:
    return j >= 0 && j < 64 ? std::optional(TValue::ofInt(i >> j))
                            : std::nullopt;
  default:
    return std::nullopt;
  }
}

/// True if `v` is a pointer or a tile of pointers.
static bool isPointer(const TValue &v) {
  return v.isValue() &&
         isa<tile::PtrType>(getElementTypeOrSelf(v.value.getType()));
}

/// The shape of `v` if it is a tile.
static std::optional<ArrayRef<int64_t>> shapeOf(const TValue &v) {
  if (v.isValue())
    if (auto t = dyn_cast<RankedTensorType>(v.value.getType()))
      return t.getShape();
  return std::nullopt;
}

FailureOr<TValue> Generator::genBinary(BinaryOp op, TValue lhs, TValue rhs,
                                       llvm::SMLoc opLoc) {
  Location l = loc(opLoc);
  if (lhs.isConstNumber() && rhs.isConstNumber()) {
    if (std::optional<TValue> folded = foldConstants(op, lhs, rhs))
      return *folded;
    if (op == BinaryOp::Div || op == BinaryOp::FloorDiv ||
        op == BinaryOp::Mod)
      return error(opLoc) << "division by zero in a constant expression";
    return error(opLoc) << "operator '" << spell(op)
                        << "' is not defined on these constants";
  }
  if (op == BinaryOp::Is || op == BinaryOp::IsNot) {
    bool same = lhs.kind == rhs.kind &&
                (lhs.kind == TValue::Kind::None ||
                 (lhs.isValue() && lhs.value == rhs.value));
    if (!lhs.isValue() || !rhs.isValue() || lhs.kind == rhs.kind)
      return TValue::ofBool(same == (op == BinaryOp::Is));
  }
  if (op == BinaryOp::Eq && !lhs.isValue() && !rhs.isValue()) {
    bool same = lhs.kind == rhs.kind && lhs.s == rhs.s && lhs.type == rhs.type;
    return TValue::ofBool(same);
  }

  // The shape of the result: a tile operand's shape, else scalar.
  std::optional<ArrayRef<int64_t>> shape = shapeOf(lhs);
  std::optional<ArrayRef<int64_t>> rhsShape = shapeOf(rhs);
  if (shape && rhsShape && *shape != *rhsShape) {
    auto diag = error(opLoc) << "operands of '" << spell(op)
                             << "' have incompatible shapes [";
    llvm::interleaveComma(*shape, diag);
    diag << "] and [";
    llvm::interleaveComma(*rhsShape, diag);
    return diag << "]";
  }
  if (!shape)
    shape = rhsShape;

  // Pointer arithmetic: ptr + int, int + ptr, ptr - int.
  if (isPointer(lhs) || isPointer(rhs)) {
    if (op == BinaryOp::Add && isPointer(rhs))
      std::swap(lhs, rhs);
    if ((op != BinaryOp::Add && op != BinaryOp::Sub) || isPointer(rhs))
      return error(opLoc) << "operator '" << spell(op) << "' is not defined "
                          << "for " << lhs.describe() << " and "
                          << rhs.describe();
    FailureOr<Value> offset = toValue(rhs, opLoc);
    if (failed(offset))
      return failure();
    if (!getElementTypeOrSelf(offset->getType()).isIntOrIndex() ||
        getElementTypeOrSelf(offset->getType()).isInteger(1))
      return error(opLoc) << "pointer offsets must be integers, not "
                          << rhs.describe();
    if (op == BinaryOp::Sub) {
      Value zero = *toValueOfType(TValue::ofInt(0),
                                  getElementTypeOrSelf(offset->getType()),
                                  offset->getType(), opLoc);
      offset = Value(arith::SubIOp::create(builder, l, zero, *offset));
    }
    Value ptr = lhs.value;
    if (shape) {
      FailureOr<Value> p = broadcastTo(ptr, *shape, opLoc);
      FailureOr<Value> o = broadcastTo(*offset, *shape, opLoc);
      if (failed(p) || failed(o))
        return failure();
      ptr = *p;
      offset = *o;
    }
    return TValue::of(tile::AddPtrOp::create(builder, l, ptr.getType(), ptr,
                                             *offset));
  }

  if (!(lhs.isValue() || lhs.isConstNumber()) ||
      !(rhs.isValue() || rhs.isConstNumber()))
    return error(opLoc) << "operator '" << spell(op) << "' is not defined "
                        << "for " << lhs.describe() << " and "
                        << rhs.describe();

  Type elem = promote(builder, lhs, rhs);
  bool isFloat = isa<FloatType>(elem);
  if (op == BinaryOp::Div && !isFloat)
    elem = builder.getF32Type(), isFloat = true;
  if (!isFloat && !elem.isIntOrIndex())
    return error(opLoc) << "operator '" << spell(op)
                        << "' is not defined for " << elem;
  Type like = shape ? Type(RankedTensorType::get(*shape, elem)) : elem;
  FailureOr<Value> a = toValueOfType(lhs, elem, like, opLoc);
  FailureOr<Value> b = toValueOfType(rhs, elem, like, opLoc);
  if (failed(a) || failed(b))
    return failure();
  Value x = *a, y = *b;

  auto cmp = [&](arith::CmpIPredicate ip, arith::CmpFPredicate fp) -> Value {
    if (isFloat)
      return arith::CmpFOp::create(builder, l, fp, x, y);
    return arith::CmpIOp::create(builder, l, ip, x, y);
  };
  auto intOnly = [&]() -> LogicalResult {
    if (!isFloat)
      return success();
    return error(opLoc) << "operator '" << spell(op)
                        << "' needs integer operands, not " << elem;
  };
  Value result;
  switch (op) {
  case BinaryOp::Add:
    result = isFloat ? Value(arith::AddFOp::create(builder, l, x, y))
                     : Value(arith::AddIOp::create(builder, l, x, y));
    break;
  case BinaryOp::Sub:
    result = isFloat ? Value(arith::SubFOp::create(builder, l, x, y))
                     : Value(arith::SubIOp::create(builder, l, x, y));
    break;
  case BinaryOp::Mul:
    result = isFloat ? Value(arith::MulFOp::create(builder, l, x, y))
                     : Value(arith::MulIOp::create(builder, l, x, y));
    break;
  case BinaryOp::Div:
    result = arith::DivFOp::create(builder, l, x, y);
    break;
  case BinaryOp::FloorDiv:
    if (isFloat)
      return error(opLoc) << "'//' on floats is not supported";
    result = arith::DivSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Mod:
    result = isFloat ? Value(arith::RemFOp::create(builder, l, x, y))
                     : Value(arith::RemSIOp::create(builder, l, x, y));
    break;
  case BinaryOp::Lt:
    result = cmp(arith::CmpIPredicate::slt, arith::CmpFPredicate::OLT);
    break;
  case BinaryOp::Le:
    result = cmp(arith::CmpIPredicate::sle, arith::CmpFPredicate::OLE);
    break;
  case BinaryOp::Gt:
    result = cmp(arith::CmpIPredicate::sgt, arith::CmpFPredicate::OGT);
    break;
  case BinaryOp::Ge:
    result = cmp(arith::CmpIPredicate::sge, arith::CmpFPredicate::OGE);
    break;
  case BinaryOp::Eq:
    result = cmp(arith::CmpIPredicate::eq, arith::CmpFPredicate::OEQ);
    break;
  case BinaryOp::Ne:
    result = cmp(arith::CmpIPredicate::ne, arith::CmpFPredicate::UNE);
    break;
  case BinaryOp::BitAnd:
  case BinaryOp::And:
    if (failed(intOnly()))
      return failure();
    result = arith::AndIOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitOr:
  case BinaryOp::Or:
    if (failed(intOnly()))
      return failure();
    result = arith::OrIOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitXor:
    if (failed(intOnly()))
      return failure();
    result = arith::XOrIOp::create(builder, l, x, y);
    break;
  case BinaryOp::LShift:
    if (failed(intOnly()))
      return failure();
    result = arith::ShLIOp::create(builder, l, x, y);
    break;
  case BinaryOp::RShift:
    if (failed(intOnly()))
      return failure();
    result = arith::ShRSIOp::create(builder, l, x, y);
    break;
  default:
    return error(opLoc) << "operator '" << spell(op)
                        << "' is not supported on tiles";
  }
  return TValue::of(result);
}

FailureOr<TValue> Generator::genUnary(UnaryOp op, TValue operand,
                                      llvm::SMLoc opLoc) {
  switch (operand.kind) {
  case TValue::Kind::Int:
  case TValue::Kind::Bool:
    if (op == UnaryOp::Neg)
      return TValue::ofInt(-operand.i);
    if (op == UnaryOp::Plus)
      return TValue::ofInt(operand.i);
    if (op == UnaryOp::Invert)
      return TValue::ofInt(~operand.i);
    return TValue::ofBool(operand.i == 0);
  case TValue::Kind::Float:
    if (op == UnaryOp::Neg)
      return TValue::ofFloat(-operand.f);
    if (op == UnaryOp::Plus)
      return operand;
    if (op == UnaryOp::Not)
      return TValue::ofBool(operand.f == 0);
    return error(opLoc) << "'~' is not defined on floats";
  case TValue::Kind::Value:
    break;
  default:
    if (op == UnaryOp::Not) {
      FailureOr<bool> truth = constTruth(operand, opLoc);
      if (failed(truth))
        return failure();
      return TValue::ofBool(!*truth);
    }
    return error(opLoc) << "operator '" << spell(op) << "' is not defined "
                        << "for " << operand.describe();
  }
  Type elem = getElementTypeOrSelf(operand.value.getType());
  Location l = loc(opLoc);
  switch (op) {
  case UnaryOp::Plus:
    return operand;
  case UnaryOp::Neg:
    if (isa<FloatType>(elem))
      return TValue::of(arith::NegFOp::create(builder, l, operand.value));
    return genBinary(BinaryOp::Sub, TValue::ofInt(0), operand, opLoc);
  case UnaryOp::Invert:
  case UnaryOp::Not: {
    if (isa<FloatType>(elem) || (op == UnaryOp::Not && !elem.isInteger(1)))
      return error(opLoc) << "operator '" << spell(op)
                          << "' is not defined for " << operand.describe();
    FailureOr<Value> ones = toValueOfType(TValue::ofInt(-1), elem,
                                          operand.value.getType(), opLoc);
    if (failed(ones))
      return failure();
    return TValue::of(arith::XOrIOp::create(builder, l, operand.value, *ones));
  }
  }
  return failure();
}
