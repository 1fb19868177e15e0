//===- Random.cpp - Counter-based random numbers ----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tl.philox, tl.philox_impl, tl.randint, tl.randint4x, tl.rand, tl.rand4x,
// tl.randn, tl.randn4x, tl.uint_to_uniform_float, tl.pair_uniform_to_normal and
// tl.umulhi, defined as Triton defines them so that a seed and offsets give
// the same bits under tilec and Triton:
//
//  - Philox-4x32 (or 4x64) with `n_rounds` rounds (10 by default): per round
//    c0' = umulhi(B, c2) ^ c1 ^ k0, c2' = umulhi(A, c0) ^ c3 ^ k1,
//    c1' = B * c2, c3' = A * c0, then k0 += KEY_A, k1 += KEY_B. The key is
//    the seed sign-extended to 64 bits: (low, high) words for 32-bit
//    counters, (seed, 0) for 64-bit ones.
//  - randint4x(seed, offset) runs Philox-4x32 on the counter (low 32 bits
//    of offset, high 32 bits for a 64-bit offset or 0, 0, 0).
//  - A random word x becomes a float in [0, 1) as (x < 0 ? -x - 1 : x) *
//    4.6566127342e-10 in fp32 (x read as a signed int32; 64-bit words use
//    1.0842020432385337e-19).
//  - Normal numbers by Box-Muller on two uniforms: r = sqrt(-2 log(max(1e-7,
//    u1))), (r cos(2 pi u2), r sin(2 pi u2)), with libdevice's logf, sqrtf,
//    cosf and sinf, the functions Triton's math module calls.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilec;

namespace {

/// Builds the integer arithmetic of Philox on scalars or tiles of one shape.
struct PhiloxBuilder {
  OpBuilder &b;
  Location l;

  /// The integer constant `v` of `type`'s element type, splat to its shape.
  Value constant(uint64_t v, Type type) {
    Type elem = getElementTypeOrSelf(type);
    auto attr = IntegerAttr::get(elem, APInt(elem.getIntOrFloatBitWidth(), v,
                                             /*isSigned=*/false,
                                             /*implicitTrunc=*/true));
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return arith::ConstantOp::create(b, l,
                                       DenseElementsAttr::get(tensor, attr));
    return arith::ConstantOp::create(b, l, attr);
  }
  /// `scalar` splat to the shape of `like` (itself if `like` is a scalar).
  Value like(Value scalar, Value like) {
    auto tensor = dyn_cast<RankedTensorType>(like.getType());
    if (!tensor || isa<RankedTensorType>(scalar.getType()))
      return scalar;
    return tile::SplatOp::create(b, l, tensor, scalar);
  }
  Value umulhi(Value x, Value y) {
    bool is64 = getElementTypeOrSelf(x.getType()).isInteger(64);
    return tile::ExternElementwiseOp::create(
        b, l, x.getType(),
        b.getStringAttr(is64 ? "__nv_umul64hi" : "__nv_umulhi"),
        ValueRange{x, y});
  }
  Value xori(Value x, Value y) { return arith::XOrIOp::create(b, l, x, y); }
  Value muli(Value x, Value y) { return arith::MulIOp::create(b, l, x, y); }
  Value addi(Value x, Value y) { return arith::AddIOp::create(b, l, x, y); }

  /// Runs the rounds on counters `c` (one type) with key words `k0`, `k1`
  /// (scalars or tiles of the counters' element type).
  std::array<Value, 4> rounds(std::array<Value, 4> c, Value k0, Value k1,
                              int64_t n) {
    Type type = c[0].getType();
    bool is64 = getElementTypeOrSelf(type).isInteger(64);
    uint64_t keyA = is64 ? 0x9E3779B97F4A7C15ull : 0x9E3779B9ull;
    uint64_t keyB = is64 ? 0xBB67AE8584CAA73Bull : 0xBB67AE85ull;
    uint64_t roundA = is64 ? 0xD2E7470EE14C6C93ull : 0xD2511F53ull;
    uint64_t roundB = is64 ? 0xCA5A826395121157ull : 0xCD9E8D57ull;
    Value a = constant(roundA, type), bConst = constant(roundB, type);
    for (int64_t r = 0; r < n; ++r) {
      Value c0 = c[0], c2 = c[2];
      c[0] = xori(xori(umulhi(bConst, c2), c[1]), like(k0, c2));
      c[2] = xori(xori(umulhi(a, c0), c[3]), like(k1, c0));
      c[1] = muli(bConst, c2);
      c[3] = muli(a, c0);
      k0 = addi(k0, constant(keyA, k0.getType()));
      k1 = addi(k1, constant(keyB, k1.getType()));
    }
    return c;
  }
};

} // namespace

/// The `n_rounds` argument at `i` (10 when absent).
static FailureOr<int64_t> philoxRounds(Binder &bind, unsigned i) {
  if (!bind.has(i))
    return 10;
  FailureOr<int64_t> n = bind.constInt(i);
  if (failed(n))
    return failure();
  if (*n < 0 || *n > 64)
    return bind.gen.error(bind.locs[i])
           << "'n_rounds' of '" << bind.function
           << "' must be between 0 and 64, not " << *n;
  return n;
}

/// Parameter `i` as an integer scalar or tile.
static FailureOr<Value> integerArg(Binder &bind, unsigned i) {
  FailureOr<Value> v = bind.value(i);
  if (failed(v))
    return failure();
  Type elem = getElementTypeOrSelf(v->getType());
  if (!elem.isInteger() || elem.isInteger(1))
    return bind.gen.error(bind.locs[i])
           << "'" << bind.params[i] << "' of '" << bind.function
           << "' must be an integer scalar or tile, not "
           << bind.get(i).describe();
  return v;
}

FailureOr<std::array<Value, 4>> Generator::philox(Binder &bind, unsigned seedAt,
                                                  std::array<Value, 4> c,
                                                  int64_t rounds,
                                                  llvm::SMLoc callLoc) {
  Location l = loc(callLoc);
  PhiloxBuilder p{builder, l};
  FailureOr<Value> seed = integerArg(bind, seedAt);
  if (failed(seed))
    return failure();
  if (isa<RankedTensorType>(seed->getType()))
    return error(bind.locs[seedAt])
           << "the seed of '" << bind.function << "' must be a scalar, not "
           << bind.get(seedAt).describe();
  // The counters: one width (that of c0), one shape.
  Type elem = getElementTypeOrSelf(c[0].getType());
  unsigned bits = elem.getIntOrFloatBitWidth();
  if (bits != 32 && bits != 64)
    return error(callLoc) << "'" << bind.function
                          << "' needs 32- or 64-bit counters, not "
                          << typeName(elem);
  SmallVector<int64_t> shape;
  for (Value &v : c) {
    if (getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth() != bits)
      return error(callLoc) << "the counters of '" << bind.function
                            << "' must all have " << bits << " bits";
    if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
      FailureOr<SmallVector<int64_t>> s =
          broadcastShapes(shape, t.getShape(), callLoc, "the counters");
      if (failed(s))
        return failure();
      shape = *s;
    }
  }
  for (Value &v : c) {
    FailureOr<Value> b = broadcastTo(v, shape, callLoc);
    if (failed(b))
      return failure();
    v = *b;
  }
  // The key: the seed sign-extended to 64 bits.
  Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
  Value seed64 = cast(*seed, i64, l);
  Value k0, k1;
  if (bits == 32) {
    k0 = arith::TruncIOp::create(builder, l, i32, seed64);
    Value high =
        arith::ShRUIOp::create(builder, l, seed64, p.constant(32, i64));
    k1 = arith::TruncIOp::create(builder, l, i32, high);
  } else {
    k0 = seed64;
    k1 = p.constant(0, i64);
  }
  return p.rounds(c, k0, k1, rounds);
}

FailureOr<std::array<Value, 4>> Generator::randint4x(Binder &bind,
                                                     llvm::SMLoc callLoc) {
  FailureOr<int64_t> rounds = philoxRounds(bind, 2);
  if (failed(rounds))
    return failure();
  FailureOr<Value> offset = integerArg(bind, 1);
  if (failed(offset))
    return failure();
  Location l = loc(callLoc);
  PhiloxBuilder p{builder, l};
  Type i32 = builder.getI32Type();
  Type type = offset->getType();
  Value lo = cast(*offset, i32, l);
  Value zero = p.constant(0, lo.getType());
  Value hi = zero;
  if (getElementTypeOrSelf(type).isInteger(64))
    hi = cast(arith::ShRSIOp::create(builder, l, *offset, p.constant(32, type)),
              i32, l);
  return philox(bind, 0, {lo, hi, zero, zero}, *rounds, callLoc);
}

Value Generator::uniformFloat(Value x, Location l) {
  PhiloxBuilder p{builder, l};
  Type type = x.getType();
  bool is64 = getElementTypeOrSelf(type).isInteger(64);
  Value zero = p.constant(0, type);
  Value negative =
      arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt, x, zero);
  Value flipped = arith::SubIOp::create(
      builder, l, arith::SubIOp::create(builder, l, zero, x),
      p.constant(1, type));
  Value folded = arith::SelectOp::create(builder, l, negative, flipped, x);
  Type f32 = builder.getF32Type();
  Value f = cast(folded, f32, l);
  return arith::MulFOp::create(
      builder, l, f,
      constant(is64 ? 1.0842020432385337e-19 : 4.6566127342e-10, f32,
               f.getType(), l));
}

std::pair<Value, Value> Generator::uniformToNormal(Value u1, Value u2,
                                                   Location l) {
  Type type = u1.getType(), f32 = builder.getF32Type();
  auto libdevice = [&](llvm::StringRef symbol, Value x) -> Value {
    return tile::ExternElementwiseOp::create(
        builder, l, x.getType(), builder.getStringAttr(symbol), ValueRange{x});
  };
  u1 = arith::MaxNumFOp::create(builder, l, constant(1.0e-7, f32, type, l), u1);
  Value th = arith::MulFOp::create(
      builder, l, constant(6.283185307179586, f32, u2.getType(), l), u2);
  Value r =
      libdevice("__nv_sqrtf",
                arith::MulFOp::create(builder, l, constant(-2.0, f32, type, l),
                                      libdevice("__nv_logf", u1)));
  return {arith::MulFOp::create(builder, l, r, libdevice("__nv_cosf", th)),
          arith::MulFOp::create(builder, l, r, libdevice("__nv_sinf", th))};
}

/// Parameter `i` as an fp32 scalar or tile.
static FailureOr<Value> uniformArg(Binder &bind, unsigned i) {
  FailureOr<Value> v = bind.value(i);
  if (failed(v))
    return failure();
  if (!getElementTypeOrSelf(v->getType()).isF32())
    return bind.gen.error(bind.locs[i])
           << "'" << bind.params[i] << "' of '" << bind.function
           << "' must be fp32, not " << bind.get(i).describe();
  return v;
}

FailureOr<TValue> Generator::builtinRandom(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  // As Triton's, the random integers are unsigned (uint32 or uint64).
  auto tuple = [](ArrayRef<Value> values) {
    std::vector<TValue> elements;
    for (Value v : values)
      elements.push_back(
          TValue::of(v, getElementTypeOrSelf(v.getType()).isInteger()));
    return TValue::ofTuple(std::move(elements));
  };
  if (name == "philox") {
    std::array<Value, 4> c;
    for (unsigned i = 0; i < 4; ++i) {
      FailureOr<Value> v = integerArg(bind, 1 + i);
      if (failed(v))
        return failure();
      c[i] = *v;
    }
    FailureOr<int64_t> rounds = philoxRounds(bind, 5);
    if (failed(rounds))
      return failure();
    FailureOr<std::array<Value, 4>> r = philox(bind, 0, c, *rounds, callLoc);
    if (failed(r))
      return failure();
    return tuple(*r);
  }
  if (name == "philox_impl") {
    // The rounds alone, on counters and key words of one width.
    SmallVector<Value> v;
    for (unsigned i = 0; i < 6; ++i) {
      FailureOr<Value> x = integerArg(bind, i);
      if (failed(x))
        return failure();
      v.push_back(*x);
    }
    Type elem = getElementTypeOrSelf(v[0].getType());
    unsigned bits = elem.getIntOrFloatBitWidth();
    if (bits != 32 && bits != 64)
      return error(bind.locs[0])
             << "'" << qualified << "' needs 32- or 64-bit counters, not "
             << typeName(elem);
    SmallVector<int64_t> shape;
    for (Value &x : v) {
      if (getElementTypeOrSelf(x.getType()) != elem)
        return error(callLoc) << "the counters and keys of '" << qualified
                              << "' must all be " << typeName(elem);
      if (auto t = dyn_cast<RankedTensorType>(x.getType())) {
        FailureOr<SmallVector<int64_t>> s =
            broadcastShapes(shape, t.getShape(), callLoc, "the counters");
        if (failed(s))
          return failure();
        shape = *s;
      }
    }
    // Scalar keys stay scalars (splat where used).
    for (unsigned i = 0; i < 6; ++i) {
      if (i >= 4 && !isa<RankedTensorType>(v[i].getType()))
        continue;
      FailureOr<Value> b = broadcastTo(v[i], shape, callLoc);
      if (failed(b))
        return failure();
      v[i] = *b;
    }
    FailureOr<int64_t> rounds = philoxRounds(bind, 6);
    if (failed(rounds))
      return failure();
    return tuple(PhiloxBuilder{builder, l}.rounds({v[0], v[1], v[2], v[3]},
                                                  v[4], v[5], *rounds));
  }
  if (name == "uint_to_uniform_float") {
    FailureOr<Value> x = integerArg(bind, 0);
    if (failed(x))
      return failure();
    unsigned bits = getElementTypeOrSelf(x->getType()).getIntOrFloatBitWidth();
    if (bits != 32 && bits != 64)
      return error(bind.locs[0])
             << "'" << qualified << "' needs 32- or 64-bit integers, not "
             << bind.get(0).describe();
    return TValue::of(uniformFloat(*x, l));
  }
  if (name == "pair_uniform_to_normal") {
    FailureOr<Value> u1 = uniformArg(bind, 0), u2 = uniformArg(bind, 1);
    if (failed(u1) || failed(u2))
      return failure();
    if (u1->getType() != u2->getType())
      return error(callLoc) << "the arguments of '" << qualified
                            << "' must have the same shape";
    auto [n1, n2] = uniformToNormal(*u1, *u2, l);
    return tuple({n1, n2});
  }
  FailureOr<std::array<Value, 4>> words = randint4x(bind, callLoc);
  if (failed(words))
    return failure();
  std::array<Value, 4> &w = *words;
  if (name == "randint")
    return TValue::of(w[0], /*isUnsigned=*/true);
  if (name == "randint4x")
    return tuple(w);
  if (name == "rand")
    return TValue::of(uniformFloat(w[0], l));
  std::array<Value, 4> u;
  for (unsigned i = 0; i < 4; ++i)
    u[i] = uniformFloat(w[i], l);
  if (name == "rand4x")
    return tuple(u);
  auto [n1, n2] = uniformToNormal(u[0], u[1], l);
  if (name == "randn")
    return TValue::of(n1);
  assert(name == "randn4x" && "the builtin table names another function");
  auto [n3, n4] = uniformToNormal(u[2], u[3], l);
  return tuple({n1, n2, n3, n4});
}

FailureOr<TValue> Generator::builtinUmulhi(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  Value x, y;
  bool isUnsigned = false;
  if (failed(binaryOperands(bind.get(0), bind.get(1), false, callLoc,
                            "operands of tl.umulhi", x, y, &isUnsigned)))
    return failure();
  Type elem = getElementTypeOrSelf(x.getType());
  if (!elem.isInteger(32) && !elem.isInteger(64))
    return error(callLoc) << "tl.umulhi expects 32- or 64-bit integers, not "
                          << typeName(elem);
  return TValue::of(PhiloxBuilder{builder, l}.umulhi(x, y), isUnsigned);
}
