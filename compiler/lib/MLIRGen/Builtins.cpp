//===- Builtins.cpp - triton.language functions -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The `tl.*` functions, tile methods (`x.to(...)`) and the Python builtins a
// kernel may call. Each checks its arguments against Triton's parameter names
// so that wrong counts and unknown keywords get precise diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

namespace {

/// Matches call arguments to a builtin's parameters, Python style.
struct Binder {
  Generator &gen;
  llvm::StringRef function;
  CallArgs &args;
  llvm::SMLoc callLoc;
  SmallVector<std::optional<TValue>> values;
  SmallVector<llvm::SMLoc> locs;

  /// Binds `args` to `params`; the first `required` are mandatory. Keywords
  /// listed in `ignored` are accepted and dropped (performance hints).
  LogicalResult bind(ArrayRef<llvm::StringRef> params, unsigned required,
                     ArrayRef<llvm::StringRef> ignored = {}) {
    values.assign(params.size(), std::nullopt);
    locs.assign(params.size(), callLoc);
    if (args.positional.size() > params.size())
      return gen.error(callLoc)
             << "'" << function << "' takes at most " << params.size()
             << " arguments (" << args.positional.size() << " given)";
    for (size_t i = 0; i < args.positional.size(); ++i) {
      values[i] = args.positional[i];
      locs[i] = args.positionalRanges[i].Start;
    }
    for (auto [i, kw] : llvm::enumerate(args.keywords)) {
      if (llvm::is_contained(ignored, kw.first))
        continue;
      auto it = llvm::find(params, kw.first);
      if (it == params.end()) {
        auto diag = gen.error(args.keywordRanges[i].Start)
                    << "'" << function << "' got an unexpected keyword "
                    << "argument '" << kw.first << "'";
        return diag;
      }
      size_t index = it - params.begin();
      if (values[index])
        return gen.error(args.keywordRanges[i].Start)
               << "'" << function << "' got multiple values for argument '"
               << kw.first << "'";
      values[index] = kw.second;
      locs[index] = args.keywordRanges[i].Start;
    }
    for (unsigned i = 0; i < required; ++i)
      if (!values[i])
        return gen.error(callLoc) << "'" << function
                                  << "' is missing its argument '"
                                  << params[i] << "'";
    return success();
  }

  /// True if parameter `i` was given and is not None.
  bool has(unsigned i) const {
    return values[i] && values[i]->kind != TValue::Kind::None;
  }

  /// Parameter `i` as a compile-time integer.
  FailureOr<int64_t> constInt(unsigned i, llvm::StringRef what) {
    const TValue &v = *values[i];
    if (v.kind == TValue::Kind::Int || v.kind == TValue::Kind::Bool)
      return v.i;
    return gen.error(locs[i]) << "'" << what << "' of '" << function
                              << "' must be a constexpr integer, not "
                              << v.describe();
  }
};

} // namespace

Type Generator::parseDType(llvm::StringRef name) const {
  MLIRContext *ctx = builder.getContext();
  return llvm::StringSwitch<std::function<Type()>>(name)
      .Cases("int1", "i1", "u1", [&] { return IntegerType::get(ctx, 1); })
      .Cases("int8", "i8", "uint8", "u8",
             [&] { return IntegerType::get(ctx, 8); })
      .Cases("int16", "i16", "uint16", "u16",
             [&] { return IntegerType::get(ctx, 16); })
      .Cases("int32", "i32", "uint32", "u32",
             [&] { return IntegerType::get(ctx, 32); })
      .Cases("int64", "i64", "uint64", "u64",
             [&] { return IntegerType::get(ctx, 64); })
      .Cases("float16", "fp16", "f16",
             [&] { return Float16Type::get(ctx); })
      .Cases("bfloat16", "bf16", [&] { return BFloat16Type::get(ctx); })
      .Cases("float32", "fp32", "f32",
             [&] { return Float32Type::get(ctx); })
      .Cases("float64", "fp64", "f64",
             [&] { return Float64Type::get(ctx); })
      .Cases("float8e4nv", "fp8e4nv",
             [&] { return Float8E4M3FNType::get(ctx); })
      .Cases("float8e5", "fp8e5", [&] { return Float8E5M2Type::get(ctx); })
      .Default([] { return Type(); })();
}

FailureOr<TValue> Generator::callBuiltin(llvm::StringRef name, CallArgs &args,
                                         llvm::SMLoc callLoc) {
  std::string qualified = "tl." + name.str();
  Binder bind{*this, qualified, args, callLoc, {}, {}};
  Location l = loc(callLoc);

  if (name == "program_id" || name == "num_programs") {
    if (failed(bind.bind({"axis"}, 1)))
      return failure();
    FailureOr<int64_t> axis = bind.constInt(0, "axis");
    if (failed(axis))
      return failure();
    if (*axis < 0 || *axis > 2)
      return error(bind.locs[0]) << "'axis' of '" << qualified
                                 << "' must be 0, 1 or 2, not " << *axis;
    Type i32 = builder.getI32Type();
    if (name == "program_id")
      return TValue::of(tile::ProgramIdOp::create(builder, l, i32, *axis));
    return TValue::of(tile::NumProgramsOp::create(builder, l, i32, *axis));
  }

  if (name == "arange") {
    if (failed(bind.bind({"start", "end"}, 2)))
      return failure();
    FailureOr<int64_t> start = bind.constInt(0, "start");
    FailureOr<int64_t> end = bind.constInt(1, "end");
    if (failed(start) || failed(end))
      return failure();
    if (*end <= *start)
      return error(callLoc) << "tl.arange(" << *start << ", " << *end
                            << "): end must be greater than start";
    if (!llvm::isPowerOf2_64(*end - *start))
      return error(callLoc) << "tl.arange(" << *start << ", " << *end
                            << "): the length " << *end - *start
                            << " must be a power of two";
    if (*start < INT32_MIN || *end > INT32_MAX || *end - *start > (1 << 20))
      return error(callLoc) << "tl.arange(" << *start << ", " << *end
                            << "): range too large";
    auto type = RankedTensorType::get({*end - *start}, builder.getI32Type());
    return TValue::of(tile::MakeRangeOp::create(
        builder, l, type, builder.getI32IntegerAttr(*start),
        builder.getI32IntegerAttr(*end)));
  }

  if (name == "load") {
    if (failed(bind.bind({"pointer", "mask", "other", "boundary_check",
                          "padding_option"},
                         1, {"cache_modifier", "eviction_policy", "volatile"})))
      return failure();
    const TValue &ptr = *bind.values[0];
    if (!ptr.isValue() ||
        !isa<tile::PtrType>(getElementTypeOrSelf(ptr.value.getType())))
      return error(bind.locs[0])
             << "tl.load expects a pointer or a tile of pointers, not "
             << ptr.describe();
    if (bind.has(3) || bind.has(4))
      return error(callLoc) << "'boundary_check' and 'padding_option' need "
                               "a block pointer, which is not supported yet";
    Type ptrType = ptr.value.getType();
    Type elem =
        llvm::cast<tile::PtrType>(getElementTypeOrSelf(ptrType)).getPointeeType();
    Value mask, other;
    if (bind.has(1)) {
      FailureOr<Value> m = toValueOfType(*bind.values[1],
                                         builder.getI1Type(), ptrType,
                                         bind.locs[1]);
      if (failed(m))
        return failure();
      mask = *m;
    }
    if (bind.has(2)) {
      if (!mask)
        return error(bind.locs[2]) << "'other' of tl.load needs a 'mask'";
      FailureOr<Value> o =
          toValueOfType(*bind.values[2], elem, ptrType, bind.locs[2]);
      if (failed(o))
        return failure();
      other = *o;
    }
    Type resultType = tile::withElementType(ptrType, elem);
    return TValue::of(
        tile::LoadOp::create(builder, l, resultType, ptr.value, mask, other));
  }

  if (name == "store") {
    if (failed(bind.bind({"pointer", "value", "mask", "boundary_check"}, 2,
                         {"cache_modifier", "eviction_policy"})))
      return failure();
    const TValue &ptr = *bind.values[0];
    if (!ptr.isValue() ||
        !isa<tile::PtrType>(getElementTypeOrSelf(ptr.value.getType())))
      return error(bind.locs[0])
             << "tl.store expects a pointer or a tile of pointers, not "
             << ptr.describe();
    if (bind.has(3))
      return error(callLoc) << "'boundary_check' needs a block pointer, "
                               "which is not supported yet";
    Type ptrType = ptr.value.getType();
    Type elem =
        llvm::cast<tile::PtrType>(getElementTypeOrSelf(ptrType)).getPointeeType();
    if (bind.values[1]->isValue()) {
      auto valueTensor =
          dyn_cast<RankedTensorType>(bind.values[1]->value.getType());
      if (valueTensor && !isa<RankedTensorType>(ptrType))
        return error(bind.locs[1]) << "cannot store " << bind.values[1]->describe()
                                   << " through a single pointer";
    }
    FailureOr<Value> value =
        toValueOfType(*bind.values[1], elem, ptrType, bind.locs[1]);
    if (failed(value))
      return failure();
    Value mask;
    if (bind.has(2)) {
      FailureOr<Value> m = toValueOfType(*bind.values[2],
                                         builder.getI1Type(), ptrType,
                                         bind.locs[2]);
      if (failed(m))
        return failure();
      mask = *m;
    }
    tile::StoreOp::create(builder, l, ptr.value, *value, mask);
    return TValue();
  }

  if (name == "cdiv") {
    if (failed(bind.bind({"x", "div"}, 2)))
      return failure();
    TValue x = *bind.values[0], div = *bind.values[1];
    FailureOr<TValue> sum =
        genBinary(BinaryOp::Add, x, div, callLoc);
    if (failed(sum))
      return failure();
    FailureOr<TValue> minus =
        genBinary(BinaryOp::Sub, *sum, TValue::ofInt(1), callLoc);
    if (failed(minus))
      return failure();
    return genBinary(BinaryOp::FloorDiv, *minus, div, callLoc);
  }

  if (name == "constexpr") {
    if (failed(bind.bind({"value"}, 1)))
      return failure();
    if (bind.values[0]->isValue())
      return error(bind.locs[0]) << "tl.constexpr needs a compile-time value";
    return *bind.values[0];
  }

  if (name == "static_assert") {
    if (failed(bind.bind({"cond", "msg"}, 1)))
      return failure();
    FailureOr<bool> truth = constTruth(*bind.values[0], bind.locs[0]);
    if (failed(truth))
      return failure();
    if (!*truth) {
      auto diag = error(callLoc) << "static assertion failed";
      if (bind.has(1) && bind.values[1]->kind == TValue::Kind::String)
        diag << ": " << bind.values[1]->s;
      return diag;
    }
    return TValue();
  }

  return error(callLoc) << "'" << qualified << "' is not supported";
}

FailureOr<TValue> Generator::callMethod(const TValue &method, CallArgs &args,
                                        llvm::SMLoc callLoc) {
  const TValue &self = method.elements.front();
  if (method.s == "to") {
    Binder bind{*this, "to", args, callLoc, {}, {}};
    if (failed(bind.bind({"dtype", "fp_downcast_rounding", "bitcast"}, 1)))
      return failure();
    if (bind.values[0]->kind != TValue::Kind::DType)
      return error(bind.locs[0]) << "'.to' expects a dtype, not "
                                 << bind.values[0]->describe();
    if (bind.has(2) || bind.has(1))
      return error(callLoc) << "'.to' with 'bitcast' or "
                               "'fp_downcast_rounding' is not supported yet";
    Type to = bind.values[0]->type;
    if (isa<tile::PtrType>(to) ||
        isa<tile::PtrType>(getElementTypeOrSelf(self.value.getType())))
      return error(callLoc) << "pointer casts are not supported";
    return TValue::of(cast(self.value, to, loc(callLoc)));
  }
  return error(callLoc) << self.describe() << " has no method '" << method.s
                        << "'";
}

FailureOr<TValue> Generator::callPythonBuiltin(llvm::StringRef name,
                                               CallArgs &args,
                                               llvm::SMLoc callLoc) {
  if (!args.keywords.empty())
    return error(args.keywordRanges.front().Start)
           << "'" << name << "' takes no keyword arguments here";
  auto &a = args.positional;
  if (name == "float" && a.size() == 1 && a[0].kind == TValue::Kind::String) {
    llvm::StringRef s = llvm::StringRef(a[0].s).trim().lower();
    if (s == "inf" || s == "+inf" || s == "infinity")
      return TValue::ofFloat(INFINITY);
    if (s == "-inf" || s == "-infinity")
      return TValue::ofFloat(-INFINITY);
    if (s == "nan")
      return TValue::ofFloat(NAN);
    double d;
    if (!s.getAsDouble(d))
      return TValue::ofFloat(d);
    return error(callLoc) << "could not convert string to float: '" << a[0].s
                          << "'";
  }
  if ((name == "float" || name == "int" || name == "bool" || name == "abs") &&
      a.size() == 1 && a[0].isConstNumber()) {
    double x = a[0].kind == TValue::Kind::Float ? a[0].f : double(a[0].i);
    if (name == "float")
      return TValue::ofFloat(x);
    if (name == "int")
      return TValue::ofInt(int64_t(x));
    if (name == "bool")
      return TValue::ofBool(x != 0);
    return a[0].kind == TValue::Kind::Float ? TValue::ofFloat(std::fabs(x))
                                            : TValue::ofInt(std::llabs(a[0].i));
  }
  if ((name == "min" || name == "max") && a.size() >= 2 &&
      llvm::all_of(a, [](const TValue &v) { return v.isConstNumber(); })) {
    TValue best = a[0];
    for (size_t i = 1; i < a.size(); ++i) {
      FailureOr<TValue> less = genBinary(BinaryOp::Lt, a[i], best, callLoc);
      if (failed(less))
        return failure();
      if ((less->i != 0) == (name == "min"))
        best = a[i];
    }
    return best;
  }
  if (name == "len" && a.size() == 1 && a[0].kind == TValue::Kind::Tuple)
    return TValue::ofInt(a[0].elements.size());
  if (name == "range")
    return error(callLoc) << "'range' may only be used in a 'for' statement";
  return error(callLoc) << "'" << name
                        << "' is only supported on compile-time constants "
                           "here";
}
