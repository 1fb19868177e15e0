//===- Math.cpp - Elementwise math functions --------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tl.exp, exp2, log, log2, sqrt, sqrt_rn, rsqrt, sin, cos, floor, ceil, erf,
// abs, fma, div_rn, fdiv, sigmoid and softmax (also spelt tl.math.* and, for
// some, as tile methods), on the upstream math and arith dialects; and the
// functions of `triton.language.extra.libdevice` (Libdevice.def) as
// tile.extern_elementwise ops. As in
// Triton, the transcendental functions take fp32 or fp64 values; integers
// (tiles or constants) are converted to fp32 first, and 16-bit floats are
// rejected with a hint to convert them.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/Libdevice.h"
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
  SqrtRn,
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
      .Case("sqrt", UnaryFn::Sqrt)
      .Case("sqrt_rn", UnaryFn::SqrtRn)
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
    // Triton's tl.sqrt is its fast square root (sqrt.approx.ftz on fp32):
    // math.sqrt marked afn; tl.sqrt_rn is the correctly rounded one.
    return math::SqrtOp::create(b, l, x, arith::FastMathFlags::afn);
  case UnaryFn::SqrtRn:
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
    return gen.cast(*x, gen.builder.getF32Type(), gen.loc(bind.locs[i]),
                    /*rtz=*/false, Generator::unsignedOf(v));
  if (elem.isF32() || (allowF64 && elem.isF64()))
    return *x;
  return gen.error(bind.locs[i])
         << "'" << bind.function << "' expects "
         << (allowF64 ? "fp32 or fp64" : "fp32") << " values, not "
         << typeName(elem) << "; convert with .to(tl.float32)";
}

FailureOr<TValue> Generator::builtinUnaryMath(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  std::optional<UnaryFn> fn = unaryFn(name);
  assert(fn && "the builtin table names a unary function unaryFn lacks");
  bool allowF64 = *fn != UnaryFn::SqrtRn;
  FailureOr<Value> x = floatOperand(*this, bind, 0, allowF64);
  if (failed(x))
    return failure();
  return TValue::of(createUnary(builder, l, *fn, *x));
}

FailureOr<TValue> Generator::builtinAbs(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = bind.value(0);
  if (failed(x))
    return failure();
  Type elem = getElementTypeOrSelf(x->getType());
  if (isa<tile::PtrType>(elem))
    return error(bind.locs[0]) << "tl.abs is not defined for pointers";
  if (isa<FloatType>(elem))
    return TValue::of(math::AbsFOp::create(builder, l, *x));
  if (elem.isInteger(1) || bind.get(0).isUnsigned)
    return TValue::of(*x, bind.get(0).isUnsigned);
  return TValue::of(math::AbsIOp::create(builder, l, *x));
}

FailureOr<TValue> Generator::builtinSigmoid(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = floatOperand(*this, bind, 0, true);
  if (failed(x))
    return failure();
  Type type = x->getType();
  Type elem = getElementTypeOrSelf(type);
  Value neg = arith::NegFOp::create(builder, l, *x);
  Value e = math::ExpOp::create(builder, l, neg);
  Value one = constant(1, elem, type, l);
  Value denom = arith::AddFOp::create(builder, l, one, e);
  return TValue::of(approximateDivide(l, one, denom));
}

FailureOr<TValue> Generator::builtinFma(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  Value x, y, x2, z;
  if (failed(binaryOperands(bind.get(0), bind.get(1), false, callLoc,
                            "operands of tl.fma", x, y)) ||
      failed(binaryOperands(TValue::of(x), bind.get(2), false, callLoc,
                            "operands of tl.fma", x2, z)))
    return failure();
  Type elem = getElementTypeOrSelf(x2.getType());
  if (!isa<FloatType>(elem))
    return error(callLoc) << "tl.fma expects floating-point values, not "
                          << typeName(elem);
  FailureOr<Value> y2 =
      toValueOfType(TValue::of(y), elem, x2.getType(), callLoc);
  if (failed(y2))
    return failure();
  return TValue::of(math::FmaOp::create(builder, l, x2, *y2, z));
}

FailureOr<TValue> Generator::builtinDivRn(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  bool isFdiv = name == "fdiv";
  bool ieee = !isFdiv;
  if (isFdiv && bind.has(2)) {
    FailureOr<bool> rounding = bind.constBool(2);
    if (failed(rounding))
      return failure();
    ieee = *rounding;
  }
  for (unsigned i : {0u, 1u}) {
    Type t = defaultType(bind.get(i));
    if (!t || !isa<FloatType>(t))
      return error(bind.locs[i])
             << "'" << qualified << "' expects floating-point values, not "
             << bind.get(i).describe();
  }
  Value x, y;
  if (failed(binaryOperands(bind.get(0), bind.get(1), false, callLoc,
                            "operands of " + qualified, x, y)))
    return failure();
  if (!isFdiv && !getElementTypeOrSelf(x.getType()).isF32())
    return error(callLoc) << "tl.div_rn expects fp32 values, "
                             "not "
                          << typeName(getElementTypeOrSelf(x.getType()));
  if (!ieee)
    return TValue::of(approximateDivide(l, x, y));
  return TValue::of(arith::DivFOp::create(builder, l, x, y));
}

FailureOr<TValue> Generator::builtinPow(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  for (unsigned i : {0u, 1u})
    if (!bind.get(i).isValue() && !bind.get(i).isConstNumber())
      return error(bind.locs[i])
             << "'tl.pow' is not defined for " << bind.get(i).describe();
  FailureOr<Value> x = floatOperand(*this, bind, 0, true);
  if (failed(x))
    return failure();
  return genPow(TValue::of(*x), bind.get(1), callLoc);
}

FailureOr<TValue> Generator::builtinSoftmax(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = floatOperand(*this, bind, 0, true);
  if (failed(x))
    return failure();
  auto tensor = dyn_cast<RankedTensorType>(x->getType());
  if (!tensor)
    return error(bind.locs[0])
           << "tl.softmax expects a tile, not " << bind.get(0).describe();
  int64_t dim = 0;
  if (bind.has(1)) {
    FailureOr<int64_t> d = bind.axis(1, tensor.getRank());
    if (failed(d))
      return failure();
    dim = *d;
  }
  FailureOr<bool> keep = bind.has(2) ? bind.constBool(2) : false;
  if (failed(keep) || (bind.has(3) && failed(bind.constBool(3))))
    return failure();
  FailureOr<TValue> max =
      reduce(*x, dim, *keep, int(tile::ReduceKind::Max), callLoc);
  if (failed(max))
    return failure();
  FailureOr<TValue> z = genBinary(BinaryOp::Sub, TValue::of(*x), *max, callLoc);
  if (failed(z))
    return failure();
  Value num = math::ExpOp::create(builder, l, z->value);
  FailureOr<TValue> den =
      reduce(num, dim, *keep, int(tile::ReduceKind::Sum), callLoc);
  if (failed(den))
    return failure();
  return genBinary(BinaryOp::Div, TValue::of(num), *den, callLoc);
}

FailureOr<TValue> Generator::callLibdevice(llvm::StringRef name, CallArgs &args,
                                           llvm::SMLoc callLoc) {
  // abs, for integers and floats alike, is tilec's tl.abs.
  if (name == "abs")
    return callBuiltin("abs", args, callLoc);
  std::string qualified = "libdevice." + name.str();
  const tile::LibdeviceFunction *fn = tile::lookupLibdeviceFunction(name);
  assert(fn && fn->isPublic && "genAttribute names only public functions");
  // pow with an integer exponent is powi.
  if (name == "pow" && args.positional.size() == 2) {
    const TValue &e = args.positional[1];
    if (e.isValue() ? getElementTypeOrSelf(e.value.getType()).isInteger()
                    : e.kind == TValue::Kind::Int)
      fn = tile::lookupLibdeviceFunction("powi");
  }
  Binder bind(*this, qualified, args, callLoc);
  bind.function = qualified;
  static const llvm::StringRef names[] = {"arg0", "arg1", "arg2", "arg3"};
  unsigned arity = fn->getArity();
  if (failed(bind.bind(ArrayRef(names).take_front(arity), arity)))
    return failure();
  if (fn->kind == tile::LibdeviceKind::Convert) {
    // One fixed argument type: run-time values must have it, constants
    // become it.
    Type from = fn->getArgumentTypes(builder.getContext(), false).front();
    const TValue &arg = bind.get(0);
    FailureOr<Value> v = failure();
    if (arg.isValue()) {
      if (getElementTypeOrSelf(arg.value.getType()) != from)
        return error(bind.locs[0])
               << "'" << qualified << "' takes " << typeName(from) << ", not "
               << arg.describe();
      v = arg.value;
    } else {
      v = toValueOfType(arg, from, from, bind.locs[0]);
    }
    if (failed(v))
      return failure();
    Type result = fn->getResultType(builder.getContext(), false);
    if (auto tensor = dyn_cast<RankedTensorType>(v->getType()))
      result = RankedTensorType::get(tensor.getShape(), result);
    return TValue::of(tile::ExternElementwiseOp::create(
                          builder, loc(callLoc), result,
                          builder.getStringAttr(fn->symbol32), ValueRange{*v}),
                      fn->returnsUnsigned());
  }
  // The int32 argument of (T, int32) and (int32, T) functions.
  auto isIntArgument = [&](unsigned i) {
    return (fn->kind == tile::LibdeviceKind::FInt && i == 1) ||
           (fn->kind == tile::LibdeviceKind::IntF && i == 0);
  };
  // The arguments as values; the 32- or 64-bit form is chosen by the widest.
  SmallVector<Value> values;
  bool is64 = false;
  SmallVector<int64_t> shape;
  for (unsigned i = 0; i < arity; ++i) {
    bool takesFloat = fn->takesFloats() && !isIntArgument(i);
    FailureOr<Value> v = failure();
    if (takesFloat) {
      v = floatOperand(*this, bind, i, /*allowF64=*/true);
    } else {
      v = bind.value(i);
      if (succeeded(v) && !getElementTypeOrSelf(v->getType()).isInteger())
        return error(bind.locs[i])
               << "'" << bind.params[i] << "' of '" << qualified
               << "' must be an integer, not " << bind.get(i).describe();
    }
    if (failed(v))
      return failure();
    unsigned bits = getElementTypeOrSelf(v->getType()).getIntOrFloatBitWidth();
    if (takesFloat || !fn->takesFloats())
      is64 |= bits == 64;
    if (auto tensor = dyn_cast<RankedTensorType>(v->getType())) {
      FailureOr<SmallVector<int64_t>> s = broadcastShapes(
          shape, tensor.getShape(), bind.locs[i], "the arguments");
      if (failed(s))
        return failure();
      shape = *s;
    }
    values.push_back(*v);
  }
  llvm::StringRef symbol = is64 ? fn->symbol64 : fn->symbol32;
  if (symbol.empty())
    return error(callLoc) << "'" << qualified << "' has no "
                          << (is64 ? "fp64" : "fp32") << " form in libdevice";
  SmallVector<Type> types = fn->getArgumentTypes(builder.getContext(), is64);
  for (auto [i, v] : llvm::enumerate(values)) {
    v = cast(v, types[i], loc(callLoc));
    if (!shape.empty()) {
      FailureOr<Value> b = broadcastTo(v, shape, bind.locs[i]);
      if (failed(b))
        return failure();
      v = *b;
    }
  }
  Type result = fn->getResultType(builder.getContext(), is64);
  if (!shape.empty())
    result = RankedTensorType::get(shape, result);
  return TValue::of(tile::ExternElementwiseOp::create(
      builder, loc(callLoc), result, builder.getStringAttr(symbol), values));
}
