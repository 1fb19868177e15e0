//===- Operators.cpp - Python operators on tiles and constants --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Binary and unary operators with Triton's semantics: constant folding of
// compile-time numbers, pointer arithmetic, type promotion (Triton's
// computation_type rules, where compile-time numbers are weakly typed),
// numpy broadcasting, and the conversions between element types (implicit
// ones, `.to()` and tl.cast); also tl.where and tl.maximum/minimum, which
// promote like operators. The rules are written down in docs/language.md.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Compile-time values
//===----------------------------------------------------------------------===//

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

/// True if `f` is exactly representable in range as an f32 (Triton types
/// Python floats outside of f32's range as f64).
static bool fitsF32(double f) {
  double a = std::fabs(f);
  return std::isinf(a) || std::isnan(a) || a == 0 ||
         (a >= 0x1p-126 && a <= 0x1.fffffep127);
}

static std::optional<TValue> foldConstants(BinaryOp op, const TValue &a,
                                           const TValue &b);

std::optional<int> Generator::compareConstants(const TValue &a,
                                               const TValue &b) {
  if (a.isConstNumber() && b.isConstNumber()) {
    std::optional<TValue> less = foldConstants(BinaryOp::Lt, a, b);
    std::optional<TValue> more = foldConstants(BinaryOp::Gt, a, b);
    if (!less || !more)
      return std::nullopt;
    return less->i ? -1 : more->i ? 1 : 0;
  }
  if (a.kind == TValue::Kind::String && b.kind == TValue::Kind::String)
    return a.s.compare(b.s) < 0 ? -1 : a.s == b.s ? 0 : 1;
  if (a.kind != TValue::Kind::Tuple || b.kind != TValue::Kind::Tuple)
    return std::nullopt;
  for (auto [x, y] : llvm::zip(a.elements, b.elements)) {
    std::optional<int> order = compareConstants(x, y);
    if (!order || *order != 0)
      return order;
  }
  size_t m = a.elements.size(), n = b.elements.size();
  return m < n ? -1 : m == n ? 0 : 1;
}

Type Generator::defaultType(const TValue &v) {
  switch (v.kind) {
  case TValue::Kind::Int:
    return (v.i >= INT32_MIN && v.i <= UINT32_MAX) ? builder.getI32Type()
                                                   : builder.getI64Type();
  case TValue::Kind::Bool:
    return builder.getI1Type();
  case TValue::Kind::Float:
    return fitsF32(v.f) ? Type(builder.getF32Type())
                        : Type(builder.getF64Type());
  case TValue::Kind::Value:
    return getElementTypeOrSelf(v.value.getType());
  default:
    return Type();
  }
}

bool Generator::unsignedOf(const TValue &v) {
  if (v.kind == TValue::Kind::Int)
    return v.i > INT32_MAX && v.i <= UINT32_MAX;
  return (v.isValue() || v.kind == TValue::Kind::DType) && v.isUnsigned;
}

Value Generator::constant(double v, Type elem, Type like, Location l) {
  TypedAttr attr;
  if (isa<FloatType>(elem))
    attr = builder.getFloatAttr(elem, v);
  else
    attr = builder.getIntegerAttr(elem, int64_t(v));
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return arith::ConstantOp::create(
        builder, l,
        DenseElementsAttr::get(RankedTensorType::get(tensor.getShape(), elem),
                               attr));
  return arith::ConstantOp::create(builder, l, attr);
}

FailureOr<Value> Generator::toValue(const TValue &v, llvm::SMLoc l) {
  Location location = loc(l);
  switch (v.kind) {
  case TValue::Kind::Value:
    return v.value;
  case TValue::Kind::Int:
    return Value(arith::ConstantOp::create(
        builder, location, builder.getIntegerAttr(defaultType(v), v.i)));
  case TValue::Kind::Bool:
    return Value(arith::ConstantOp::create(builder, location,
                                           builder.getBoolAttr(v.i != 0)));
  case TValue::Kind::Float:
    return Value(arith::ConstantOp::create(
        builder, location, builder.getFloatAttr(defaultType(v), v.f)));
  default:
    return error(l) << v.describe() << " cannot be used as a value";
  }
}

/// True if `v` fits in a signed or an unsigned integer of `bits` bits: the
/// integer types are signless, and `u8_tile & 0xF0` or
/// `u32_tile & 0xFFFF0000` take the constant's bits.
static bool fitsBits(int64_t v, unsigned bits) {
  if (bits >= 64)
    return true;
  int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << bits) - 1;
  return v >= lo && v <= hi;
}

TValue Generator::storedConstant(const TValue &v, Type elem) {
  if (v.kind == TValue::Kind::Float && elem.isIntOrIndex() &&
      std::isfinite(v.f) && std::fabs(v.f) < 0x1p63)
    return elem.isInteger(1) ? TValue::ofBool(v.f != 0)
                             : TValue::ofInt(int64_t(v.f));
  return v;
}

FailureOr<Value> Generator::toValueOfType(const TValue &v, Type elem, Type like,
                                          llvm::SMLoc l, bool toUnsigned) {
  Location location = loc(l);
  if (v.isConstNumber()) {
    if (isa<FloatType>(elem))
      return constant(v.kind == TValue::Kind::Float ? v.f : double(v.i), elem,
                      like, location);
    if (v.kind == TValue::Kind::Float)
      return error(l) << "cannot use a float constant as " << typeName(elem);
    if (!elem.isIntOrIndex())
      return error(l) << "cannot use " << v.describe() << " as "
                      << typeName(elem);
    if (elem.getIntOrFloatBitWidth() > 1 &&
        !fitsBits(v.i, elem.getIntOrFloatBitWidth()))
      return error(l) << "the integer " << v.i << " is out of range for "
                      << typeName(elem);
    TypedAttr attr = builder.getIntegerAttr(
        elem, elem.isInteger(1) ? int64_t(v.i != 0) : v.i);
    if (auto tensor = dyn_cast<RankedTensorType>(like))
      return Value(arith::ConstantOp::create(
          builder, location,
          DenseElementsAttr::get(RankedTensorType::get(tensor.getShape(), elem),
                                 attr)));
    return Value(arith::ConstantOp::create(builder, location, attr));
  }
  if (!v.isValue())
    return error(l) << v.describe() << " cannot be used as a value";
  Type from = getElementTypeOrSelf(v.value.getType());
  if (isa<tile::PtrType>(from) != isa<tile::PtrType>(elem) ||
      (isa<tile::PtrType>(from) && from != elem))
    return error(l) << "cannot convert " << v.describe() << " to "
                    << typeName(elem);
  Value scalar =
      cast(v.value, elem, location, /*rtz=*/false, v.isUnsigned, toUnsigned);
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return broadcastTo(scalar, tensor.getShape(), l);
  return scalar;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

/// A zero of `v`'s type (a splat zero tile for a tile).
static Value zeroLike(OpBuilder &b, Location l, Value v) {
  Type elem = getElementTypeOrSelf(v.getType());
  TypedAttr zero = isa<FloatType>(elem) ? TypedAttr(b.getFloatAttr(elem, 0))
                                        : TypedAttr(b.getIntegerAttr(elem, 0));
  if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
    return arith::ConstantOp::create(b, l,
                                     DenseElementsAttr::get(tensor, zero));
  return arith::ConstantOp::create(b, l, zero);
}

/// True for the 8-bit float types.
static bool isFP8(Type t) {
  return isa<FloatType>(t) && t.getIntOrFloatBitWidth() == 8;
}

Value Generator::cast(Value v, Type to, Location l, bool rtz, bool fromUnsigned,
                      bool toUnsigned) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == to)
    return v;
  Type f32 = builder.getF32Type();
  Type result = tile::withElementType(v.getType(), to);
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    unsigned fromBits = fromFloat.getWidth(), toBits = toFloat.getWidth();
    // f16 <-> bf16 and fp8 <-> fp8 have no direct conversion: go via f32.
    if (fromBits == toBits)
      return cast(cast(v, f32, l), to, l, rtz);
    if (fromBits < toBits)
      return arith::ExtFOp::create(builder, l, result, v);
    auto trunc = arith::TruncFOp::create(builder, l, result, v);
    if (rtz)
      trunc.setRoundingmodeAttr(arith::RoundingModeAttr::get(
          builder.getContext(), arith::RoundingMode::toward_zero));
    return trunc;
  }
  if (!fromFloat && toFloat) {
    if (isFP8(to))
      return cast(cast(v, f32, l, false, fromUnsigned), to, l, rtz);
    if (isUnsignedInt(from, fromUnsigned))
      return arith::UIToFPOp::create(builder, l, result, v);
    return arith::SIToFPOp::create(builder, l, result, v);
  }
  if (fromFloat && !toFloat) {
    if (to.isInteger(1))
      return arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, v,
                                   zeroLike(builder, l, v));
    if (isFP8(from))
      return cast(cast(v, f32, l), to, l, false, false, toUnsigned);
    if (toUnsigned)
      return arith::FPToUIOp::create(builder, l, result, v);
    return arith::FPToSIOp::create(builder, l, result, v);
  }
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (toBits == 1)
    return arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, v,
                                 zeroLike(builder, l, v));
  if (fromBits < toBits && isUnsignedInt(from, fromUnsigned))
    return arith::ExtUIOp::create(builder, l, result, v);
  if (fromBits < toBits)
    return arith::ExtSIOp::create(builder, l, result, v);
  return arith::TruncIOp::create(builder, l, result, v);
}

FailureOr<Value> Generator::toBool(const TValue &v, llvm::SMLoc l) {
  if (v.isConstNumber()) {
    FailureOr<bool> truth = constTruth(v, l);
    if (failed(truth))
      return failure();
    return Value(arith::ConstantOp::create(builder, loc(l),
                                           builder.getBoolAttr(*truth)));
  }
  if (!v.isValue())
    return error(l) << v.describe() << " cannot be used as a condition";
  Type elem = getElementTypeOrSelf(v.value.getType());
  if (isa<tile::PtrType>(elem))
    return error(l) << "cannot use " << v.describe() << " as a condition";
  return cast(v.value, builder.getI1Type(), loc(l));
}

//===----------------------------------------------------------------------===//
// Type promotion
//===----------------------------------------------------------------------===//

/// Triton's kinds of types: bool < integer < float.
static int kindOf(Type t) {
  if (t.isInteger(1))
    return 0;
  return isa<FloatType>(t) ? 2 : 1;
}

Type Generator::promote(const TValue &lhs, const TValue &rhs, bool divOrMod,
                        llvm::SMLoc l, llvm::StringRef what, bool &isUnsigned) {
  isUnsigned = false;
  Type a = defaultType(lhs), b = defaultType(rhs);
  if (!a || !b) {
    error(l) << what << " must be numbers, not " << lhs.describe() << " and "
             << rhs.describe();
    return Type();
  }
  Type f32 = builder.getF32Type();
  // A compile-time number of a lower or equal kind takes the other operand's
  // type.
  bool lhsConst = lhs.isConstNumber(), rhsConst = rhs.isConstNumber();
  if (lhsConst != rhsConst) {
    Type scalar = lhsConst ? a : b, other = lhsConst ? b : a;
    if (kindOf(scalar) <= kindOf(other)) {
      if (divOrMod && (other.isF16() || other.isBF16()))
        return f32;
      isUnsigned = unsignedOf(lhsConst ? rhs : lhs);
      return other;
    }
  }
  if (a.isF64() || b.isF64())
    return builder.getF64Type();
  if (a.isF32() || b.isF32())
    return f32;
  if (a.isF16() || b.isF16())
    return divOrMod ? f32 : Type(builder.getF16Type());
  if (a.isBF16() && b.isBF16())
    return divOrMod ? f32 : a;
  if (a.isBF16() || b.isBF16())
    return f32;
  if (isFP8(a) && isFP8(b))
    return a == b ? a : Type(builder.getF16Type());
  if (!a.isIntOrIndex() || !b.isIntOrIndex()) {
    error(l) << what << " must be numbers, not " << lhs.describe() << " and "
             << rhs.describe();
    return Type();
  }
  // C's usual arithmetic conversions: the wider type; between a signed and
  // an unsigned type, the unsigned one unless the signed one is wider.
  bool ua = isUnsignedInt(a, unsignedOf(lhs));
  bool ub = isUnsignedInt(b, unsignedOf(rhs));
  unsigned wa = a.getIntOrFloatBitWidth(), wb = b.getIntOrFloatBitWidth();
  if (divOrMod && ua != ub) {
    error(l) << what << " have different signedness (" << typeName(a, ua)
             << " and " << typeName(b, ub)
             << "): division and remainder need the same signedness; cast "
                "one of them";
    return Type();
  }
  bool pickA = ua == ub ? wa >= wb : ua ? wa >= wb : wa > wb;
  Type result = pickA ? a : b;
  isUnsigned = (pickA ? ua : ub) && !result.isInteger(1);
  return result;
}

/// The shape of `v` if it is a tile.
static std::optional<SmallVector<int64_t>> shapeOf(const TValue &v) {
  if (auto t = v.tileType())
    return SmallVector<int64_t>(t.getShape());
  return std::nullopt;
}

LogicalResult Generator::binaryOperands(TValue lhs, TValue rhs, bool divOrMod,
                                        llvm::SMLoc l, llvm::StringRef what,
                                        Value &x, Value &y, bool *isUnsigned) {
  bool uns = false;
  Type elem = promote(lhs, rhs, divOrMod, l, what, uns);
  if (!elem)
    return failure();
  if (isUnsigned)
    *isUnsigned = uns;
  // Triton checks that a constant fits the type it takes.
  if (elem.isInteger() && !elem.isInteger(1)) {
    unsigned bits = elem.getIntOrFloatBitWidth();
    for (const TValue *c : {&lhs, &rhs}) {
      if (c->kind != TValue::Kind::Int)
        continue;
      if (uns && c->i < 0)
        return error(l) << "cannot combine " << typeName(elem, uns)
                        << " with the negative constant " << c->i << " in the "
                        << what << "; cast one of them";
      int64_t lo = uns          ? 0
                   : bits >= 64 ? INT64_MIN
                                : -(int64_t(1) << (bits - 1));
      int64_t hi = bits >= 64 ? INT64_MAX
                   : uns      ? int64_t((uint64_t(1) << bits) - 1)
                              : (int64_t(1) << (bits - 1)) - 1;
      if (c->i < lo || c->i > hi)
        return error(l) << "the constant " << c->i << " is out of range for "
                        << typeName(elem, uns) << " in the " << what;
    }
  }
  std::optional<SmallVector<int64_t>> ls = shapeOf(lhs), rs = shapeOf(rhs);
  std::optional<SmallVector<int64_t>> shape = ls ? ls : rs;
  if (ls && rs) {
    FailureOr<SmallVector<int64_t>> s = broadcastShapes(*ls, *rs, l, what);
    if (failed(s))
      return failure();
    shape = *s;
  }
  Type like = shape ? Type(RankedTensorType::get(*shape, elem)) : elem;
  FailureOr<Value> a = toValueOfType(lhs, elem, like, l, uns);
  if (failed(a))
    return failure();
  FailureOr<Value> b = toValueOfType(rhs, elem, like, l, uns);
  if (failed(b))
    return failure();
  x = *a;
  y = *b;
  return success();
}

//===----------------------------------------------------------------------===//
// Binary operators
//===----------------------------------------------------------------------===//

/// Folds an operator on two compile-time numbers with Python's semantics.
static std::optional<TValue> foldConstants(BinaryOp op, const TValue &a,
                                           const TValue &b) {
  bool isFloat = a.kind == TValue::Kind::Float || b.kind == TValue::Kind::Float;
  bool bothBool = a.kind == TValue::Kind::Bool && b.kind == TValue::Kind::Bool;
  double x = a.kind == TValue::Kind::Float ? a.f : double(a.i);
  double y = b.kind == TValue::Kind::Float ? b.f : double(b.i);
  int64_t i = a.i, j = b.i;
  auto num = [&](double f, int64_t n) {
    return isFloat ? TValue::ofFloat(f) : TValue::ofInt(n);
  };
  auto wrap = [](int64_t v, int64_t w, auto fn) {
    return int64_t(fn(uint64_t(v), uint64_t(w)));
  };
  switch (op) {
  case BinaryOp::Add:
    return num(x + y, wrap(i, j, [](uint64_t p, uint64_t q) { return p + q; }));
  case BinaryOp::Sub:
    return num(x - y, wrap(i, j, [](uint64_t p, uint64_t q) { return p - q; }));
  case BinaryOp::Mul:
    return num(x * y, wrap(i, j, [](uint64_t p, uint64_t q) { return p * q; }));
  case BinaryOp::Div:
    if (y == 0)
      return std::nullopt;
    return TValue::ofFloat(x / y);
  case BinaryOp::FloorDiv:
    if (y == 0)
      return std::nullopt;
    if (isFloat)
      return TValue::ofFloat(std::floor(x / y));
    if (i == INT64_MIN && j == -1)
      return std::nullopt;
    return TValue::ofInt(i / j - ((i % j != 0) && ((i < 0) != (j < 0))));
  case BinaryOp::Mod:
    if (y == 0)
      return std::nullopt;
    if (isFloat)
      return TValue::ofFloat(x - y * std::floor(x / y));
    if (j == -1)
      return TValue::ofInt(0);
    return TValue::ofInt(((i % j) + j) % j);
  case BinaryOp::Pow:
    if (!isFloat && j >= 0) {
      uint64_t r = 1;
      for (int64_t k = 0; k < j && k < 64; ++k)
        r *= uint64_t(i);
      return TValue::ofInt(int64_t(r));
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
  auto intOrBool = [&](int64_t v) {
    return bothBool ? TValue::ofBool(v != 0) : TValue::ofInt(v);
  };
  switch (op) {
  case BinaryOp::BitAnd:
    return intOrBool(i & j);
  case BinaryOp::BitOr:
    return intOrBool(i | j);
  case BinaryOp::BitXor:
    return intOrBool(i ^ j);
  case BinaryOp::LShift:
    return j >= 0 && j < 64
               ? std::optional(TValue::ofInt(int64_t(uint64_t(i) << j)))
               : std::nullopt;
  case BinaryOp::RShift:
    return j >= 0 && j < 64 ? std::optional(TValue::ofInt(i >> j))
                            : std::nullopt;
  default:
    return std::nullopt;
  }
}

Type tilec::pointeeOf(const TValue &v) {
  if (!v.isValue())
    return Type();
  auto ptr = dyn_cast<tile::PtrType>(getElementTypeOrSelf(v.value.getType()));
  return ptr ? ptr.getPointeeType() : Type();
}

/// True if `v` is a pointer or a tile of pointers.
static bool isPointer(const TValue &v) {
  return v.isValue() &&
         isa<tile::PtrType>(getElementTypeOrSelf(v.value.getType()));
}

/// The phrase diagnostics use for the operands of `op`.
static std::string operandsOf(BinaryOp op) {
  return "operands of '" + spell(op).str() + "'";
}

/// The unsigned form of an ordering predicate.
static arith::CmpIPredicate unsignedPredicate(arith::CmpIPredicate p) {
  switch (p) {
  case arith::CmpIPredicate::slt:
    return arith::CmpIPredicate::ult;
  case arith::CmpIPredicate::sle:
    return arith::CmpIPredicate::ule;
  case arith::CmpIPredicate::sgt:
    return arith::CmpIPredicate::ugt;
  case arith::CmpIPredicate::sge:
    return arith::CmpIPredicate::uge;
  default:
    return p;
  }
}

Value Generator::approximateDivide(Location loc, Value x, Value y) {
  return arith::DivFOp::create(
      builder, loc, x, y,
      arith::FastMathFlagsAttr::get(builder.getContext(),
                                    arith::FastMathFlags::afn));
}

FailureOr<TValue> Generator::genBinary(BinaryOp op, TValue lhs, TValue rhs,
                                       llvm::SMLoc opLoc) {
  Location l = loc(opLoc);
  if ((op == BinaryOp::In || op == BinaryOp::NotIn) &&
      rhs.kind == TValue::Kind::Dict)
    rhs = TValue::ofTuple(rhs.keys);
  if (op == BinaryOp::BitOr && lhs.kind == TValue::Kind::Dict &&
      rhs.kind == TValue::Kind::Dict) {
    // `a | b`: the items of a, updated by those of b.
    for (auto [key, value] : llvm::zip(rhs.keys, rhs.elements)) {
      auto it = llvm::find_if(lhs.keys,
                              [&](const TValue &k) { return k.sameAs(key); });
      if (it != lhs.keys.end())
        lhs.elements[it - lhs.keys.begin()] = value;
      else {
        lhs.keys.push_back(key);
        lhs.elements.push_back(value);
      }
    }
    return lhs;
  }
  if ((op == BinaryOp::In || op == BinaryOp::NotIn) &&
      lhs.kind == TValue::Kind::String && rhs.kind == TValue::Kind::String)
    return TValue::ofBool(llvm::StringRef(rhs.s).contains(lhs.s) ==
                          (op == BinaryOp::In));
  if (op == BinaryOp::In || op == BinaryOp::NotIn) {
    if (rhs.kind != TValue::Kind::Tuple)
      return error(opLoc) << "'" << spell(op)
                          << "' needs a tuple or list on its right, not "
                          << rhs.describe();
    if (lhs.isValue())
      return error(opLoc) << "'" << spell(op)
                          << "' is only supported on compile-time values";
    bool found = llvm::any_of(rhs.elements, [&](const TValue &e) {
      if (lhs.isConstNumber() && e.isConstNumber()) {
        std::optional<TValue> eq = foldConstants(BinaryOp::Eq, lhs, e);
        return eq && eq->i != 0;
      }
      return lhs.sameAs(e);
    });
    return TValue::ofBool(found == (op == BinaryOp::In));
  }
  if (lhs.isConstNumber() && rhs.isConstNumber()) {
    if (std::optional<TValue> folded = foldConstants(op, lhs, rhs))
      return *folded;
    if (op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Mod)
      return error(opLoc) << "division by zero in a constant expression";
    if ((op == BinaryOp::LShift || op == BinaryOp::RShift) &&
        rhs.kind != TValue::Kind::Float && lhs.kind != TValue::Kind::Float)
      return error(opLoc) << "shift count " << rhs.i
                          << " is out of range in a constant expression";
    return error(opLoc) << "operator '" << spell(op)
                        << "' is not defined on these constants";
  }
  if (op == BinaryOp::Is || op == BinaryOp::IsNot) {
    bool same = lhs.kind == rhs.kind &&
                (lhs.kind == TValue::Kind::None || lhs.sameAs(rhs));
    return TValue::ofBool(same == (op == BinaryOp::Is));
  }
  // Tuples and other compile-time values.
  if (lhs.kind == TValue::Kind::Tuple && rhs.kind == TValue::Kind::Tuple) {
    if (op == BinaryOp::Add) {
      std::vector<TValue> all = lhs.elements;
      llvm::append_range(all, rhs.elements);
      return TValue::ofTuple(std::move(all));
    }
    if (op == BinaryOp::Eq || op == BinaryOp::Ne)
      return TValue::ofBool(lhs.sameAs(rhs) == (op == BinaryOp::Eq));
    // Python's order: element by element, then the shorter first (version
    // tuples: `version.parse(triton.__version__) >= version.parse("3.0")`).
    if (op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
        op == BinaryOp::Ge)
      if (std::optional<int> order = compareConstants(lhs, rhs))
        return TValue::ofBool(op == BinaryOp::Lt   ? *order < 0
                              : op == BinaryOp::Le ? *order <= 0
                              : op == BinaryOp::Gt ? *order > 0
                                                   : *order >= 0);
  }
  // Strings: concatenated, compared, repeated.
  if (lhs.kind == TValue::Kind::String && rhs.kind == TValue::Kind::String) {
    if (op == BinaryOp::Add)
      return TValue::named(TValue::Kind::String, lhs.s + rhs.s);
    if (op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Gt ||
        op == BinaryOp::Ge) {
      int order = *compareConstants(lhs, rhs);
      return TValue::ofBool(op == BinaryOp::Lt   ? order < 0
                            : op == BinaryOp::Le ? order <= 0
                            : op == BinaryOp::Gt ? order > 0
                                                 : order >= 0);
    }
  }
  if (op == BinaryOp::Mul &&
      ((lhs.kind == TValue::Kind::String && rhs.kind == TValue::Kind::Int) ||
       (lhs.kind == TValue::Kind::Int && rhs.kind == TValue::Kind::String))) {
    const std::string &text = lhs.kind == TValue::Kind::String ? lhs.s : rhs.s;
    int64_t count = lhs.kind == TValue::Kind::Int ? lhs.i : rhs.i;
    if (count > 0 && text.size() * uint64_t(count) > (1u << 20))
      return error(opLoc) << "a string of more than " << (1u << 20)
                          << " characters is not supported";
    std::string repeated;
    for (int64_t i = 0; i < count; ++i)
      repeated += text;
    return TValue::named(TValue::Kind::String, repeated);
  }
  // `[None] * n`, `(1,) * 3`: a list repeated.
  if (op == BinaryOp::Mul &&
      ((lhs.kind == TValue::Kind::Tuple && rhs.kind == TValue::Kind::Int) ||
       (lhs.kind == TValue::Kind::Int && rhs.kind == TValue::Kind::Tuple))) {
    const TValue &list = lhs.kind == TValue::Kind::Tuple ? lhs : rhs;
    int64_t count = lhs.kind == TValue::Kind::Int ? lhs.i : rhs.i;
    if (count > 0 && list.elements.size() * uint64_t(count) > (1u << 16))
      return error(opLoc) << "a list of more than " << (1u << 16)
                          << " elements is not supported";
    std::vector<TValue> repeated;
    for (int64_t i = 0; i < count; ++i)
      llvm::append_range(repeated, list.elements);
    return TValue::ofTuple(std::move(repeated));
  }
  if ((op == BinaryOp::Eq || op == BinaryOp::Ne) && !lhs.isValue() &&
      !rhs.isValue() && !(lhs.isConstNumber() && rhs.isConstNumber()))
    return TValue::ofBool(lhs.sameAs(rhs) == (op == BinaryOp::Eq));

  if (!(lhs.isValue() || lhs.isConstNumber()) ||
      !(rhs.isValue() || rhs.isConstNumber()))
    return error(opLoc) << "operator '" << spell(op) << "' is not defined "
                        << "for " << lhs.describe() << " and "
                        << rhs.describe();

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
    Type offElem = getElementTypeOrSelf(offset->getType());
    if (!offElem.isIntOrIndex())
      return error(opLoc) << "pointer offsets must be integers, not "
                          << rhs.describe();
    if (offElem.isInteger(1))
      offset = cast(*offset, builder.getI32Type(), l);
    // The offset is signed: an unsigned one is zero-extended first.
    else if (unsignedOf(rhs) && !offElem.isInteger(64))
      offset = cast(*offset, builder.getI64Type(), l, false, true);
    if (op == BinaryOp::Sub)
      offset = Value(arith::SubIOp::create(
          builder, l,
          constant(0, getElementTypeOrSelf(offset->getType()),
                   offset->getType(), l),
          *offset));
    Value ptr = lhs.value;
    std::optional<SmallVector<int64_t>> ps = shapeOf(lhs);
    std::optional<SmallVector<int64_t>> os = shapeOf(TValue::of(*offset));
    std::optional<SmallVector<int64_t>> shape = ps ? ps : os;
    if (ps && os) {
      FailureOr<SmallVector<int64_t>> s =
          broadcastShapes(*ps, *os, opLoc, operandsOf(op));
      if (failed(s))
        return failure();
      shape = *s;
    }
    if (shape) {
      FailureOr<Value> p = broadcastTo(ptr, *shape, opLoc);
      if (failed(p))
        return failure();
      FailureOr<Value> o = broadcastTo(*offset, *shape, opLoc);
      if (failed(o))
        return failure();
      ptr = *p;
      offset = *o;
    }
    return TValue::of(
        tile::AddPtrOp::create(builder, l, ptr.getType(), ptr, *offset),
        lhs.isUnsigned);
  }

  if (op == BinaryOp::MatMul)
    return error(opLoc) << "operator '@' is not supported; use tl.dot";

  // `and` / `or` on run-time values: logical, on truth values.
  if (op == BinaryOp::And || op == BinaryOp::Or) {
    FailureOr<Value> a = toBool(lhs, opLoc);
    if (failed(a))
      return failure();
    FailureOr<Value> b = toBool(rhs, opLoc);
    if (failed(b))
      return failure();
    Value x, y;
    if (failed(binaryOperands(TValue::of(*a), TValue::of(*b), false, opLoc,
                              operandsOf(op), x, y)))
      return failure();
    if (op == BinaryOp::And)
      return TValue::of(arith::AndIOp::create(builder, l, x, y));
    return TValue::of(arith::OrIOp::create(builder, l, x, y));
  }

  bool divOrMod =
      op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Mod;
  if (op == BinaryOp::Pow)
    return genPow(lhs, rhs, opLoc);
  Value x, y;
  bool isUnsigned = false;
  if (failed(binaryOperands(lhs, rhs, divOrMod, opLoc, operandsOf(op), x, y,
                            &isUnsigned)))
    return failure();
  Type elem = getElementTypeOrSelf(x.getType());
  bool isFloat = isa<FloatType>(elem);
  if (op == BinaryOp::Div && !isFloat) {
    x = cast(x, builder.getF32Type(), l, false, isUnsigned);
    y = cast(y, builder.getF32Type(), l, false, isUnsigned);
    isFloat = true;
    isUnsigned = false;
  }
  // Unsigned integers (and i1) divide, compare and shift right as unsigned.
  bool u = !isFloat && isUnsignedInt(elem, isUnsigned);

  auto cmp = [&](arith::CmpIPredicate ip, arith::CmpFPredicate fp) -> Value {
    if (isFloat)
      return arith::CmpFOp::create(builder, l, fp, x, y);
    if (u)
      ip = unsignedPredicate(ip);
    return arith::CmpIOp::create(builder, l, ip, x, y);
  };
  auto intOnly = [&]() -> LogicalResult {
    if (!isFloat)
      return success();
    return error(opLoc) << "operator '" << spell(op)
                        << "' needs integer operands, not " << typeName(elem);
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
    result = approximateDivide(l, x, y);
    break;
  case BinaryOp::FloorDiv:
    if (isFloat)
      result = math::FloorOp::create(builder, l,
                                     arith::DivFOp::create(builder, l, x, y));
    else if (u)
      result = arith::DivUIOp::create(builder, l, x, y);
    else
      result = arith::DivSIOp::create(builder, l, x, y);
    break;
  case BinaryOp::Mod:
    result = isFloat ? Value(arith::RemFOp::create(builder, l, x, y))
             : u     ? Value(arith::RemUIOp::create(builder, l, x, y))
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
    if (failed(intOnly()))
      return failure();
    result = arith::AndIOp::create(builder, l, x, y);
    break;
  case BinaryOp::BitOr:
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
    result = u ? Value(arith::ShRUIOp::create(builder, l, x, y))
               : Value(arith::ShRSIOp::create(builder, l, x, y));
    break;
  default:
    return error(opLoc) << "operator '" << spell(op)
                        << "' is not supported on tiles";
  }
  // Comparisons give i1; the others keep the operands' signedness.
  return TValue::of(result, isUnsigned &&
                                getElementTypeOrSelf(result.getType()) == elem);
}

FailureOr<TValue> Generator::genPow(const TValue &lhs, const TValue &rhs,
                                    llvm::SMLoc opLoc) {
  Location l = loc(opLoc);
  Type lt = defaultType(lhs), rt = defaultType(rhs);
  bool intBase = lt && !isa<FloatType>(lt);
  bool intExp = rt && !isa<FloatType>(rt);
  if (intBase && intExp) {
    // Integer powers: repeated squaring of a compile-time exponent.
    if (rhs.kind != TValue::Kind::Int || rhs.i < 0)
      return error(opLoc) << "'**' on integers needs a non-negative constexpr "
                             "integer exponent, not "
                          << rhs.describe();
    FailureOr<Value> base = toValue(lhs, opLoc);
    if (failed(base))
      return failure();
    Type elem = getElementTypeOrSelf(base->getType());
    if (elem.isInteger(1)) {
      elem = builder.getI32Type();
      base = cast(*base, elem, l);
    }
    Value result = constant(1, elem, base->getType(), l);
    Value square = *base;
    for (int64_t e = rhs.i; e > 0; e >>= 1) {
      if (e & 1)
        result = arith::MulIOp::create(builder, l, result, square);
      if (e > 1)
        square = arith::MulIOp::create(builder, l, square, square);
    }
    return TValue::of(result, lhs.isUnsigned);
  }
  Value x, y;
  bool isUnsigned = false;
  if (failed(binaryOperands(lhs, rhs, false, opLoc, "operands of '**'", x, y,
                            &isUnsigned)))
    return failure();
  if (!isa<FloatType>(getElementTypeOrSelf(x.getType()))) {
    x = cast(x, builder.getF32Type(), l, false, isUnsigned);
    y = cast(y, builder.getF32Type(), l, false, isUnsigned);
  }
  return TValue::of(math::PowFOp::create(builder, l, x, y));
}

//===----------------------------------------------------------------------===//
// Unary operators
//===----------------------------------------------------------------------===//

FailureOr<TValue> Generator::genUnary(UnaryOp op, TValue operand,
                                      llvm::SMLoc opLoc) {
  switch (operand.kind) {
  case TValue::Kind::Int:
  case TValue::Kind::Bool:
    if (op == UnaryOp::Neg)
      return TValue::ofInt(int64_t(0 - uint64_t(operand.i)));
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
  if (isa<tile::PtrType>(elem))
    return error(opLoc) << "operator '" << spell(op) << "' is not defined "
                        << "for " << operand.describe();
  switch (op) {
  case UnaryOp::Plus:
    return operand;
  case UnaryOp::Neg:
    if (isa<FloatType>(elem))
      return TValue::of(arith::NegFOp::create(builder, l, operand.value));
    return TValue::of(
        arith::SubIOp::create(builder, l,
                              constant(0, elem, operand.value.getType(), l),
                              operand.value),
        operand.isUnsigned);
  case UnaryOp::Not: {
    FailureOr<Value> truth = toBool(operand, opLoc);
    if (failed(truth))
      return failure();
    return TValue::of(arith::XOrIOp::create(
        builder, l, *truth,
        constant(1, builder.getI1Type(), truth->getType(), l)));
  }
  case UnaryOp::Invert: {
    if (isa<FloatType>(elem))
      return error(opLoc) << "operator '~' is not defined for "
                          << operand.describe();
    return TValue::of(
        arith::XOrIOp::create(builder, l, operand.value,
                              constant(-1, elem, operand.value.getType(), l)),
        operand.isUnsigned);
  }
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Selection and extrema
//===----------------------------------------------------------------------===//

FailureOr<TValue> Generator::genWhere(const TValue &cond, const TValue &a,
                                      const TValue &b, llvm::SMLoc l) {
  FailureOr<Value> c = toBool(cond, l);
  if (failed(c))
    return failure();
  Value x, y;
  bool isUnsigned = false;
  if (pointeeOf(a) || pointeeOf(b)) {
    if (!pointeeOf(a) || !pointeeOf(b) ||
        getElementTypeOrSelf(a.value.getType()) !=
            getElementTypeOrSelf(b.value.getType()) ||
        a.isUnsigned != b.isUnsigned)
      return error(l) << "tl.where needs two pointers of the same type or two "
                         "numbers, not "
                      << a.describe() << " and " << b.describe();
    x = a.value;
    y = b.value;
    isUnsigned = a.isUnsigned;
  } else if (failed(binaryOperands(a, b, false, l, "operands of tl.where", x, y,
                                   &isUnsigned))) {
    return failure();
  }
  SmallVector<int64_t> shape;
  if (auto t = dyn_cast<RankedTensorType>(x.getType()))
    shape.assign(t.getShape().begin(), t.getShape().end());
  if (auto t = dyn_cast<RankedTensorType>(y.getType())) {
    FailureOr<SmallVector<int64_t>> s =
        broadcastShapes(shape, t.getShape(), l, "operands of tl.where");
    if (failed(s))
      return failure();
    shape = *s;
  }
  if (auto t = dyn_cast<RankedTensorType>(c->getType())) {
    FailureOr<SmallVector<int64_t>> s = broadcastShapes(
        t.getShape(), shape, l, "the condition and the values of tl.where");
    if (failed(s))
      return failure();
    shape = *s;
  }
  FailureOr<Value> cb = broadcastTo(*c, shape, l);
  if (failed(cb))
    return failure();
  FailureOr<Value> xb = broadcastTo(x, shape, l);
  if (failed(xb))
    return failure();
  FailureOr<Value> yb = broadcastTo(y, shape, l);
  if (failed(yb))
    return failure();
  return TValue::of(arith::SelectOp::create(builder, loc(l), *cb, *xb, *yb),
                    isUnsigned);
}

FailureOr<TValue> Generator::genMinMax(bool isMax, const TValue &a,
                                       const TValue &b, bool propagateNan,
                                       llvm::SMLoc l) {
  if (a.isConstNumber() && b.isConstNumber()) {
    FailureOr<TValue> less = genBinary(BinaryOp::Lt, a, b, l);
    if (failed(less))
      return failure();
    return (less->i != 0) == isMax ? b : a;
  }
  if (pointeeOf(a) || pointeeOf(b))
    return error(l) << "tl." << (isMax ? "maximum" : "minimum")
                    << " is not defined for pointers";
  Value x, y;
  std::string what =
      std::string("operands of tl.") + (isMax ? "maximum" : "minimum");
  bool isUnsigned = false;
  if (failed(binaryOperands(a, b, false, l, what, x, y, &isUnsigned)))
    return failure();
  Location location = loc(l);
  if (isa<FloatType>(getElementTypeOrSelf(x.getType()))) {
    if (isMax)
      return propagateNan
                 ? TValue::of(
                       arith::MaximumFOp::create(builder, location, x, y))
                 : TValue::of(
                       arith::MaxNumFOp::create(builder, location, x, y));
    return propagateNan
               ? TValue::of(arith::MinimumFOp::create(builder, location, x, y))
               : TValue::of(arith::MinNumFOp::create(builder, location, x, y));
  }
  if (isUnsignedInt(getElementTypeOrSelf(x.getType()), isUnsigned))
    return TValue::of(
        isMax ? Value(arith::MaxUIOp::create(builder, location, x, y))
              : Value(arith::MinUIOp::create(builder, location, x, y)),
        isUnsigned);
  if (isMax)
    return TValue::of(arith::MaxSIOp::create(builder, location, x, y));
  return TValue::of(arith::MinSIOp::create(builder, location, x, y));
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

FailureOr<TValue> Generator::castPointer(const TValue &v, const TValue &dtype,
                                         llvm::SMLoc l) {
  Location location = loc(l);
  Type to = dtype.type;
  Type from = v.isValue() ? getElementTypeOrSelf(v.value.getType()) : Type();
  Type result = v.isValue() ? tile::withElementType(v.value.getType(), to) : to;
  bool fromPtr = from && isa<tile::PtrType>(from);
  if (isa<tile::PtrType>(to)) {
    if (fromPtr)
      return TValue::of(
          tile::PtrCastOp::create(builder, location, result, v.value),
          dtype.isUnsigned);
    if (from && from.isInteger(64))
      return TValue::of(
          tile::IntToPtrOp::create(builder, location, result, v.value),
          dtype.isUnsigned);
    return error(l) << "only int64 and uint64 values convert to pointers, not "
                    << v.describe();
  }
  if (to.isInteger(64))
    return TValue::of(
        tile::PtrToIntOp::create(builder, location, result, v.value),
        dtype.isUnsigned);
  return error(l) << "pointers convert to int64, uint64 or pointers, not to "
                  << typeName(to);
}

FailureOr<TValue> Generator::genCast(const TValue &v, const TValue &dtype,
                                     bool bitcast, llvm::StringRef rounding,
                                     llvm::SMLoc l) {
  Location location = loc(l);
  Type to = dtype.type;
  bool toUnsigned = dtype.isUnsigned;
  if (isa<tile::PtrType>(to) || pointeeOf(v))
    return castPointer(v, dtype, l);
  if (!v.isValue() && !v.isConstNumber())
    return error(l) << "cannot convert " << v.describe() << " to "
                    << typeName(to);
  if (!bitcast && v.isConstNumber() &&
      !(v.kind == TValue::Kind::Float && !isa<FloatType>(to))) {
    FailureOr<Value> c = toValueOfType(v, to, to, l, toUnsigned);
    if (failed(c))
      return failure();
    return TValue::of(*c, toUnsigned);
  }
  FailureOr<Value> x = toValue(v, l);
  if (failed(x))
    return failure();
  Type from = getElementTypeOrSelf(x->getType());
  if (bitcast) {
    if (!rounding.empty())
      return error(l) << "'fp_downcast_rounding' cannot be combined with "
                         "'bitcast'";
    if (from == to)
      return TValue::of(*x, toUnsigned);
    unsigned fromBits = from.getIntOrFloatBitWidth();
    unsigned toBits = to.getIntOrFloatBitWidth();
    if (fromBits != toBits)
      return error(l) << "cannot bitcast " << typeName(from) << " (" << fromBits
                      << " bits) to " << typeName(to) << " (" << toBits
                      << " bits)";
    return TValue::of(
        arith::BitcastOp::create(builder, location,
                                 tile::withElementType(x->getType(), to), *x),
        toUnsigned);
  }
  // As in Triton, a conversion to the value's own type returns it unchanged,
  // whatever rounding mode it names.
  if (from == to && unsignedOf(v) == toUnsigned)
    return TValue::of(*x, toUnsigned);
  bool rtz = false;
  if (!rounding.empty()) {
    if (rounding != "rtne" && rounding != "rtz")
      return error(l) << "invalid rounding mode '" << rounding
                      << "': expected 'rtne' or 'rtz'";
    if (!isa<FloatType>(from) || !isa<FloatType>(to) ||
        from.getIntOrFloatBitWidth() <= to.getIntOrFloatBitWidth())
      return error(l) << "'fp_downcast_rounding' applies to truncating "
                         "float conversions only, not "
                      << typeName(from) << " to " << typeName(to);
    rtz = rounding == "rtz";
  }
  return TValue::of(cast(*x, to, location, rtz, unsignedOf(v), toUnsigned),
                    toUnsigned);
}

FailureOr<TValue> Generator::builtinArithmetic(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  // sanitize_overflow only adds checks under Triton's debug mode.
  if (bind.has(2) && failed(bind.constBool(2)))
    return failure();
  BinaryOp op = name == "add"   ? BinaryOp::Add
                : name == "sub" ? BinaryOp::Sub
                                : BinaryOp::Mul;
  return genBinary(op, bind.get(0), bind.get(1), callLoc);
}

FailureOr<TValue> Generator::builtinToTensor(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> v = bind.value(0);
  if (failed(v))
    return failure();
  return TValue::of(*v);
}

FailureOr<TValue> Generator::builtinItem(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> v = bind.tile(0);
  if (failed(v))
    return failure();
  auto type = llvm::cast<RankedTensorType>(v->getType());
  if (type.getNumElements() != 1)
    return error(bind.locs[0]) << "item() needs a tile of one element, not "
                               << bind.get(0).describe();
  // The one element: the maximum over every axis of a one-element tile.
  return reduce(*v, std::nullopt, /*keepDims=*/false,
                int(tile::ReduceKind::Max), callLoc);
}

FailureOr<TValue> Generator::builtinSwizzle2d(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  // Groups of size_g rows, numbered column-major inside a group:
  // ij = i * size_j + j; the group of ij starts at row
  // (ij // (size_g * size_j)) * size_g and is min(size_i - that, size_g)
  // rows tall; (i, j) maps to that start plus ij % rows, and column
  // (ij % (size_g * size_j)) // rows.
  const TValue &i = bind.get(0), &j = bind.get(1), &sizeI = bind.get(2),
               &sizeJ = bind.get(3), &sizeG = bind.get(4);
  auto op = [&](BinaryOp kind, const TValue &a,
                const TValue &b) -> FailureOr<TValue> {
    return genBinary(kind, a, b, callLoc);
  };
  FailureOr<TValue> iTimes = op(BinaryOp::Mul, i, sizeJ);
  if (failed(iTimes))
    return failure();
  FailureOr<TValue> ij = op(BinaryOp::Add, *iTimes, j);
  FailureOr<TValue> groupSize = op(BinaryOp::Mul, sizeG, sizeJ);
  if (failed(ij) || failed(groupSize))
    return failure();
  FailureOr<TValue> group = op(BinaryOp::FloorDiv, *ij, *groupSize);
  if (failed(group))
    return failure();
  FailureOr<TValue> offI = op(BinaryOp::Mul, *group, sizeG);
  if (failed(offI))
    return failure();
  FailureOr<TValue> left = op(BinaryOp::Sub, sizeI, *offI);
  if (failed(left))
    return failure();
  CallArgs minArgs;
  minArgs.positional = {*left, sizeG};
  minArgs.positionalRanges = {bind.ranges[2], bind.ranges[4]};
  FailureOr<TValue> rows = callBuiltin("minimum", minArgs, callLoc);
  if (failed(rows))
    return failure();
  FailureOr<TValue> inGroup = op(BinaryOp::Mod, *ij, *groupSize);
  if (failed(inGroup))
    return failure();
  FailureOr<TValue> rowInGroup = op(BinaryOp::Mod, *inGroup, *rows);
  if (failed(rowInGroup))
    return failure();
  FailureOr<TValue> newI = op(BinaryOp::Add, *offI, *rowInGroup);
  FailureOr<TValue> newJ = op(BinaryOp::FloorDiv, *inGroup, *rows);
  if (failed(newI) || failed(newJ))
    return failure();
  return TValue::ofTuple({*newI, *newJ});
}
