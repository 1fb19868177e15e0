//===- Math.cpp - Elementwise math functions --------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tl.exp, exp2, log, log2, sqrt, sqrt_rn, rsqrt, sin, cos, floor, ceil, erf,
// abs, fma, div_rn, fdiv, sigmoid and softmax (also spelt tl.math.* and, for
// some, as tile methods), on the upstream math and arith dialects. As in
// Triton, the transcendental functions take fp32 or fp64 values; integers
// (tiles or constants) are converted to fp32 first, and 16-bit floats are
// rejected with a hint to convert them.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilec;

namespace {
/// The unary functions on floats and the math op each becomes.
enum class UnaryFn {
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Sin,
  Cos,
  Floor,
  Ceil,
  Erf,
  Tanh
};
} // namespace

static std::optional<UnaryFn> unaryFn(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<UnaryFn>>(name)
      .Case("exp", UnaryFn::Exp)
      .Case("exp2", UnaryFn::Exp2)
      .Case("log", UnaryFn::Log)
      .Case("log2", UnaryFn::Log2)
      .Cases({"sqrt", "sqrt_rn"}, UnaryFn::Sqrt)
      .Case("rsqrt", UnaryFn::Rsqrt)
      .Case("sin", UnaryFn::Sin)
      .Case("cos", UnaryFn::Cos)
      .Case("floor", UnaryFn::Floor)
      .Case("ceil", UnaryFn::Ceil)
      .Case("erf", UnaryFn::Erf)
      .Case("tanh", UnaryFn::Tanh)
      .Default(std::nullopt);
}

static Value createUnary(OpBuilder &b, Location l, UnaryFn fn, Value x) {
  switch (fn) {
  case UnaryFn::Exp:
    return math::ExpOp::create(b, l, x);
  case UnaryFn::Exp2:
    return math::Exp2Op::create(b, l, x);
  case UnaryFn::Log:
    return math::LogOp::create(b, l, x);
  case UnaryFn::Log2:
    return math::Log2Op::create(b, l, x);
  case UnaryFn::Sqrt:
    return math::SqrtOp::create(b, l, x);
  case UnaryFn::Rsqrt:
    return math::RsqrtOp::create(b, l, x);
  case UnaryFn::Sin:
    return math::SinOp::create(b, l, x);
  case UnaryFn::Cos:
    return math::CosOp::create(b, l, x);
  case UnaryFn::Floor:
    return math::FloorOp::create(b, l, x);
  case UnaryFn::Ceil:
    return math::CeilOp::create(b, l, x);
  case UnaryFn::Erf:
    return math::ErfOp::create(b, l, x);
  case UnaryFn::Tanh:
    return math::TanhOp::create(b, l, x);
  }
  return x;
}

/// Converts a math function's argument: integers become fp32, and the
/// element type must be one of `allowF64 ? {f32, f64} : {f32}`.
static FailureOr<Value> floatOperand(Generator &gen, Binder &bind, unsigned i,
                                     bool allowF64) {
  const TValue &v = bind.get(i);
  if (!v.isValue() && !v.isConstNumber())
    return gen.error(bind.locs[i])
           << "'" << bind.params[i] << "' of '" << bind.function
           << "' must be a scalar or a tile, not " << v.describe();
  FailureOr<Value> x = gen.toValue(v, bind.locs[i]);
  if (failed(x))
    return failure();
  Type elem = getElementTypeOrSelf(x->getType());
  if (isa<tile::PtrType>(elem))
    return gen.error(bind.locs[i])
           << "'" << bind.function << "' is not defined for " << v.describe();
  if (!isa<FloatType>(elem))
    return gen.cast(*x, gen.builder.getF32Type(), gen.loc(bind.locs[i]));
  if (elem.isF32() || (allowF64 && elem.isF64()))
    return *x;
  return gen.error(bind.locs[i])
         << "'" << bind.function << "' expects "
         << (allowF64 ? "fp32 or fp64" : "fp32") << " values, not "
         << typeName(elem) << "; convert with .to(tl.float32)";
}

BuiltinResult Generator::callMathBuiltin(llvm::StringRef name, CallArgs &args,
                                         llvm::SMLoc callLoc) {
  std::string qualified = "tl." + name.str();
  Binder bind(*this, qualified, args, callLoc);
  Location l = loc(callLoc);

  if (std::optional<UnaryFn> fn = unaryFn(name)) {
    if (failed(bind.bind({"x"}, 1)))
      return builtinFailure();
    bool allowF64 = name != "sqrt_rn";
    FailureOr<Value> x = floatOperand(*this, bind, 0, allowF64);
    if (failed(x))
      return builtinFailure();
    return TValue::of(createUnary(builder, l, *fn, *x));
  }

  if (name == "abs") {
    if (failed(bind.bind({"x"}, 1)))
      return builtinFailure();
    FailureOr<Value> x = bind.value(0);
    if (failed(x))
      return builtinFailure();
    Type elem = getElementTypeOrSelf(x->getType());
    if (isa<tile::PtrType>(elem))
      return builtinError(error(bind.locs[0])
                          << "tl.abs is not defined for pointers");
    if (isa<FloatType>(elem))
      return TValue::of(math::AbsFOp::create(builder, l, *x));
    if (elem.isInteger(1))
      return TValue::of(*x);
    return TValue::of(math::AbsIOp::create(builder, l, *x));
  }

  if (name == "sigmoid") {
    if (failed(bind.bind({"x"}, 1)))
      return builtinFailure();
    FailureOr<Value> x = floatOperand(*this, bind, 0, true);
    if (failed(x))
      return builtinFailure();
    Type type = x->getType();
    Type elem = getElementTypeOrSelf(type);
    Value neg = arith::NegFOp::create(builder, l, *x);
    Value e = math::ExpOp::create(builder, l, neg);
    Value one = constant(1, elem, type, l);
    Value denom = arith::AddFOp::create(builder, l, one, e);
    return TValue::of(arith::DivFOp::create(builder, l, one, denom));
  }

  if (name == "fma") {
    if (failed(bind.bind({"x", "y", "z"}, 3)))
      return builtinFailure();
    Value x, y, x2, z;
    if (failed(binaryOperands(bind.get(0), bind.get(1), false, callLoc,
                              "operands of tl.fma", x, y)) ||
        failed(binaryOperands(TValue::of(x), bind.get(2), false, callLoc,
                              "operands of tl.fma", x2, z)))
      return builtinFailure();
    Type elem = getElementTypeOrSelf(x2.getType());
    if (!isa<FloatType>(elem))
      return builtinError(error(callLoc)
                          << "tl.fma expects floating-point values, not "
                          << typeName(elem));
    FailureOr<Value> y2 =
        toValueOfType(TValue::of(y), elem, x2.getType(), callLoc);
    if (failed(y2))
      return builtinFailure();
    return TValue::of(math::FmaOp::create(builder, l, x2, *y2, z));
  }

  if (name == "div_rn" || name == "fdiv") {
    bool isFdiv = name == "fdiv";
    if (failed(isFdiv ? bind.bind({"x", "y", "ieee_rounding"}, 2)
                      : bind.bind({"x", "y"}, 2)))
      return builtinFailure();
    if (isFdiv && bind.has(2) && failed(bind.constBool(2)))
      return builtinFailure();
    for (unsigned i : {0u, 1u}) {
      Type t = defaultType(bind.get(i));
      if (!t || !isa<FloatType>(t))
        return builtinError(error(bind.locs[i])
                            << "'" << qualified
                            << "' expects floating-point values, not "
                            << bind.get(i).describe());
    }
    Value x, y;
    if (failed(binaryOperands(bind.get(0), bind.get(1), false, callLoc,
                              "operands of " + qualified, x, y)))
      return builtinFailure();
    if (!isFdiv && !getElementTypeOrSelf(x.getType()).isF32())
      return builtinError(error(callLoc)
                          << "tl.div_rn expects fp32 values, "
                             "not "
                          << typeName(getElementTypeOrSelf(x.getType())));
    return TValue::of(arith::DivFOp::create(builder, l, x, y));
  }

  if (name == "pow") {
    if (failed(bind.bind({"x", "y"}, 2)))
      return builtinFailure();
    for (unsigned i : {0u, 1u})
      if (!bind.get(i).isValue() && !bind.get(i).isConstNumber())
        return builtinError(error(bind.locs[i])
                            << "'tl.pow' is not defined for "
                            << bind.get(i).describe());
    FailureOr<Value> x = floatOperand(*this, bind, 0, true);
    if (failed(x))
      return builtinFailure();
    return genPow(TValue::of(*x), bind.get(1), callLoc);
  }

  if (name == "softmax") {
    if (failed(bind.bind({"x", "dim", "keep_dims", "ieee_rounding"}, 1)))
      return builtinFailure();
    FailureOr<Value> x = floatOperand(*this, bind, 0, true);
    if (failed(x))
      return builtinFailure();
    auto tensor = dyn_cast<RankedTensorType>(x->getType());
    if (!tensor)
      return builtinError(error(bind.locs[0])
                          << "tl.softmax expects a tile, not "
                          << bind.get(0).describe());
    int64_t dim = 0;
    if (bind.has(1)) {
      FailureOr<int64_t> d = bind.axis(1, tensor.getRank());
      if (failed(d))
        return builtinFailure();
      dim = *d;
    }
    FailureOr<bool> keep = bind.has(2) ? bind.constBool(2) : false;
    if (failed(keep) || (bind.has(3) && failed(bind.constBool(3))))
      return builtinFailure();
    FailureOr<TValue> max =
        reduce(*x, dim, *keep, int(tile::ReduceKind::Max), callLoc);
    if (failed(max))
      return builtinFailure();
    FailureOr<TValue> z =
        genBinary(BinaryOp::Sub, TValue::of(*x), *max, callLoc);
    if (failed(z))
      return builtinFailure();
    Value num = math::ExpOp::create(builder, l, z->value);
    FailureOr<TValue> den =
        reduce(num, dim, *keep, int(tile::ReduceKind::Sum), callLoc);
    if (failed(den))
      return builtinFailure();
    FailureOr<TValue> q =
        genBinary(BinaryOp::Div, TValue::of(num), *den, callLoc);
    if (failed(q))
      return builtinFailure();
    return *q;
  }

  if (name == "umulhi")
    return builtinError(error(callLoc) << "'tl.umulhi' is not supported");
  return std::nullopt;
}
