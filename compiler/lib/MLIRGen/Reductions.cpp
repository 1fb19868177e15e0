//===- Reductions.cpp - Reductions, scans and tl.dot ------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tl.sum, tl.max, tl.min, tl.argmax, tl.argmin (and their method spellings)
// on tile.reduce, tl.cumsum on tile.scan, tl.reduce, tl.xor_sum and
// tl.reduce_or on tile.combine_reduce, tl.associative_scan on
// tile.combine_scan (the @triton.jit combine function inlined into the
// region on scalars), and tl.dot on tile.dot. The element
// types follow Triton: sums of integers narrower than 32 bits accumulate in
// int32, max/min of 16-bit floats and narrow integers are computed in fp32 and
// int32, arg-reductions give int32 indices; tl.dot takes [M, K] and [K, N]
// tiles with M, N, K >= 16 and accumulates in fp32 (int32 for int8).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

FailureOr<TValue> Generator::reduce(Value x, std::optional<int64_t> axis,
                                    bool keepDims, int kindValue, llvm::SMLoc l,
                                    bool isUnsigned) {
  Location location = loc(l);
  auto kind = tile::ReduceKind(kindValue);
  bool isArg =
      kind == tile::ReduceKind::ArgMax || kind == tile::ReduceKind::ArgMin;
  Type elem = getElementTypeOrSelf(x.getType());
  if (isa<tile::PtrType>(elem))
    return error(l) << "cannot reduce pointers";

  // Triton's accumulation types: narrow integers in i32 (u32 for a sum of
  // unsigned ones), narrow floats in f32.
  Type i32 = builder.getI32Type(), f32 = builder.getF32Type();
  bool resultUnsigned = isUnsigned && !isArg;
  // Unsigned extrema of 32 and 64 bits: with the sign bit flipped, unsigned
  // order is signed order, so the signed reduction finds them.
  Value signBit;
  if (elem.isInteger() && elem.getIntOrFloatBitWidth() < 32) {
    x = cast(x, i32, location, false, isUnsigned);
    resultUnsigned &= kind == tile::ReduceKind::Sum;
  } else if (isUnsigned && elem.isInteger() && kind != tile::ReduceKind::Sum) {
    double sign = -std::ldexp(1.0, elem.getIntOrFloatBitWidth() - 1);
    signBit = constant(sign, elem, x.getType(), location);
    x = arith::XOrIOp::create(builder, location, x, signBit);
  } else if (kind != tile::ReduceKind::Sum && isa<FloatType>(elem) &&
             elem.getIntOrFloatBitWidth() < 32 && !(isArg && elem.isF16()))
    x = cast(x, f32, location);

  auto tensor = dyn_cast<RankedTensorType>(x.getType());
  if (!tensor) {
    if (axis)
      return error(l) << "cannot reduce a scalar along axis " << *axis;
    x = reshape(x, {1}, location);
    tensor = llvm::cast<RankedTensorType>(x.getType());
  }
  int64_t rank = tensor.getRank();
  int64_t a = 0;
  if (axis) {
    a = *axis;
  } else if (rank > 1) {
    x = reshape(x, {tensor.getNumElements()}, location);
    tensor = llvm::cast<RankedTensorType>(x.getType());
  }
  SmallVector<int64_t> shape(tensor.getShape());
  shape.erase(shape.begin() + a);
  Type resultElem = isArg ? i32 : tensor.getElementType();
  Type resultType = shape.empty()
                        ? resultElem
                        : Type(RankedTensorType::get(shape, resultElem));
  Value result = tile::ReduceOp::create(builder, location, resultType, x,
                                        uint32_t(a), kind);
  if (signBit && !isArg)
    result = arith::XOrIOp::create(
        builder, location, result,
        constant(-std::ldexp(1.0, resultElem.getIntOrFloatBitWidth() - 1),
                 resultElem, resultType, location));
  if (keepDims) {
    if (axis) {
      result = expandDims(result, a, location);
    } else {
      SmallVector<int64_t> ones(rank, 1);
      result = reshape(result, ones, location);
    }
  }
  return TValue::of(result, resultUnsigned);
}

/// Reads the `axis` argument of a reduction: None or an axis of `x`.
static FailureOr<std::optional<int64_t>> reduceAxis(Binder &bind, unsigned i,
                                                    Value x) {
  if (!bind.has(i))
    return std::optional<int64_t>();
  auto tensor = dyn_cast<RankedTensorType>(x.getType());
  if (!tensor)
    return bind.gen.error(bind.locs[i])
           << "'" << bind.function << "' of a scalar takes no 'axis'";
  FailureOr<int64_t> a = bind.axis(i, tensor.getRank());
  if (failed(a))
    return failure();
  return std::optional<int64_t>(*a);
}

/// The tile operand of a reduction or scan (parameter 0 of `bind`).
static FailureOr<Value> reduceInput(Binder &bind, llvm::StringRef qualified) {
  const TValue &v = bind.get(0);
  if (!v.isValue())
    return bind.gen.error(bind.locs[0])
           << "'" << qualified << "' expects a tile, not " << v.describe();
  return v.value;
}

FailureOr<TValue> Generator::builtinSum(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = reduceInput(bind, qualified);
  if (failed(x))
    return failure();
  FailureOr<std::optional<int64_t>> axis = reduceAxis(bind, 1, *x);
  if (failed(axis))
    return failure();
  FailureOr<bool> keep = bind.has(2) ? bind.constBool(2) : false;
  if (failed(keep))
    return failure();
  Value v = *x;
  bool isUnsigned = bind.get(0).isUnsigned;
  if (bind.has(3)) {
    FailureOr<Type> dtype = bind.dtype(3);
    if (failed(dtype))
      return failure();
    if (isa<tile::PtrType>(*dtype))
      return error(bind.locs[3]) << "cannot sum pointers";
    if (!isa<tile::PtrType>(getElementTypeOrSelf(v.getType())))
      v = cast(v, *dtype, l, false, isUnsigned, bind.get(3).isUnsigned);
    isUnsigned = bind.get(3).isUnsigned;
  }
  return reduce(v, *axis, *keep, int(tile::ReduceKind::Sum), callLoc,
                isUnsigned);
}

FailureOr<TValue> Generator::builtinMax(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = reduceInput(bind, qualified);
  if (failed(x))
    return failure();
  FailureOr<std::optional<int64_t>> axis = reduceAxis(bind, 1, *x);
  if (failed(axis))
    return failure();
  FailureOr<bool> indices = bind.has(2) ? bind.constBool(2) : false;
  // With return_indices_tie_break_left=False Triton returns any of the tied
  // indices; tilec's is always the first.
  FailureOr<bool> left = bind.has(3) ? bind.constBool(3) : true;
  FailureOr<bool> keep = bind.has(4) ? bind.constBool(4) : false;
  if (failed(indices) || failed(left) || failed(keep))
    return failure();
  bool isMax = name == "max";
  bool isUnsigned = bind.get(0).isUnsigned;
  FailureOr<TValue> values =
      reduce(*x, *axis, *keep,
             int(isMax ? tile::ReduceKind::Max : tile::ReduceKind::Min),
             callLoc, isUnsigned);
  if (failed(values))
    return failure();
  if (!*indices)
    return *values;
  FailureOr<TValue> idx =
      reduce(*x, *axis, *keep,
             int(isMax ? tile::ReduceKind::ArgMax : tile::ReduceKind::ArgMin),
             callLoc, isUnsigned);
  if (failed(idx))
    return failure();
  return TValue::ofTuple({*values, *idx});
}

FailureOr<TValue> Generator::builtinArgmax(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = reduceInput(bind, qualified);
  if (failed(x))
    return failure();
  FailureOr<std::optional<int64_t>> axis = reduceAxis(bind, 1, *x);
  if (failed(axis))
    return failure();
  // With tie_break_left=False Triton returns any of the tied indices;
  // tilec's is always the first.
  FailureOr<bool> left = bind.has(2) ? bind.constBool(2) : true;
  FailureOr<bool> keep = bind.has(3) ? bind.constBool(3) : false;
  if (failed(left) || failed(keep))
    return failure();
  return reduce(*x, *axis, *keep,
                int(name == "argmax" ? tile::ReduceKind::ArgMax
                                     : tile::ReduceKind::ArgMin),
                callLoc, bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinCumsum(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = reduceInput(bind, qualified);
  if (failed(x))
    return failure();
  auto tensor = dyn_cast<RankedTensorType>(x->getType());
  if (!tensor)
    return error(bind.locs[0])
           << qualified << " expects a tile, not " << bind.get(0).describe();
  int64_t axis = 0;
  if (bind.has(1)) {
    FailureOr<int64_t> a = bind.axis(1, tensor.getRank());
    if (failed(a))
      return failure();
    axis = *a;
  }
  FailureOr<bool> reverse = bind.has(2) ? bind.constBool(2) : false;
  if (failed(reverse))
    return failure();
  Value v = *x;
  Type elem = tensor.getElementType();
  if (isa<tile::PtrType>(elem))
    return error(bind.locs[0]) << "cannot scan pointers";
  bool isProd = name == "cumprod";
  bool isUnsigned = bind.get(0).isUnsigned;
  if (!isProd && bind.has(3)) {
    FailureOr<Type> dtype = bind.dtype(3);
    if (failed(dtype))
      return failure();
    if (isa<tile::PtrType>(*dtype))
      return error(bind.locs[3]) << "cannot scan pointers";
    v = cast(v, *dtype, l, false, isUnsigned, bind.get(3).isUnsigned);
    isUnsigned = bind.get(3).isUnsigned;
  } else if (!isProd && elem.isInteger() && elem.getIntOrFloatBitWidth() < 32) {
    // As Triton: narrow integers are summed in i32 or u32 (products keep
    // theirs).
    v = cast(v, builder.getI32Type(), l, false, isUnsigned);
  } else if (elem.isBF16()) {
    // As Triton: bf16 scans in fp32.
    v = cast(v, builder.getF32Type(), l);
  }
  auto kind = isProd ? tile::ScanKind::Prod : tile::ScanKind::Sum;
  return TValue::of(
      tile::ScanOp::create(builder, l, v.getType(), v,
                           builder.getI32IntegerAttr(axis),
                           builder.getBoolAttr(*reverse),
                           tile::ScanKindAttr::get(builder.getContext(), kind)),
      isUnsigned);
}

//===----------------------------------------------------------------------===//
// Reductions and scans with a combine function
//===----------------------------------------------------------------------===//

FailureOr<TValue> Generator::combine(bool isScan, ArrayRef<Value> inputs,
                                     std::optional<int64_t> axis, bool keepDims,
                                     bool reverse, CombineBodyFn body,
                                     llvm::SMLoc l) {
  Location location = loc(l);
  SmallVector<Value> xs(inputs);
  auto first = llvm::cast<RankedTensorType>(xs[0].getType());
  int64_t rank = first.getRank();
  int64_t a = axis.value_or(0);
  if (!axis && rank > 1)
    for (Value &x : xs)
      x = reshape(x, {first.getNumElements()}, location);
  auto operand = llvm::cast<RankedTensorType>(xs[0].getType());
  SmallVector<Type> elems, resultTypes;
  SmallVector<int64_t> shape(operand.getShape());
  shape.erase(shape.begin() + a);
  for (Value x : xs) {
    Type elem = getElementTypeOrSelf(x.getType());
    elems.push_back(elem);
    if (isScan)
      resultTypes.push_back(x.getType());
    else
      resultTypes.push_back(
          shape.empty() ? elem : Type(RankedTensorType::get(shape, elem)));
  }
  Operation *op;
  if (isScan)
    op = tile::CombineScanOp::create(builder, location, resultTypes, xs,
                                     builder.getI32IntegerAttr(a),
                                     builder.getBoolAttr(reverse));
  else
    op = tile::CombineReduceOp::create(builder, location, resultTypes, xs,
                                       builder.getI32IntegerAttr(a));
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<Type> argTypes(elems);
    argTypes.append(elems.begin(), elems.end());
    Block *block =
        builder.createBlock(&op->getRegion(0), {}, argTypes,
                            SmallVector<Location>(argTypes.size(), location));
    FailureOr<SmallVector<Value>> yielded = body(block->getArguments());
    if (failed(yielded))
      return failure();
    tile::CombineYieldOp::create(builder, location, *yielded);
    for (Operation &inner : block->without_terminator())
      if (!isMemoryEffectFree(&inner))
        return error(l) << "the combine function must not load, store, use "
                           "atomics or print: it only combines its "
                           "arguments";
  }
  std::vector<TValue> results;
  for (Value result : op->getResults()) {
    Value r = result;
    if (!isScan && keepDims)
      r = axis ? expandDims(r, a, location)
               : reshape(r, SmallVector<int64_t>(rank, 1), location);
    results.push_back(TValue::of(r));
  }
  if (results.size() == 1)
    return results[0];
  return TValue::ofTuple(std::move(results));
}

/// The tiles of a reduction or scan with a combine function: parameter 0, a
/// tile or a tuple of tiles of one shape; `isUnsigned` receives their
/// signedness.
static FailureOr<SmallVector<Value>>
combineInputs(Binder &bind, llvm::StringRef qualified,
              SmallVectorImpl<bool> &isUnsigned) {
  const TValue &input = bind.get(0);
  std::vector<TValue> parts = input.kind == TValue::Kind::Tuple
                                  ? input.elements
                                  : std::vector<TValue>{input};
  SmallVector<Value> xs;
  for (const TValue &part : parts) {
    RankedTensorType type = part.tileType();
    if (!type || isa<tile::PtrType>(type.getElementType()))
      return bind.gen.error(bind.locs[0])
             << "'" << qualified << "' expects tiles of numbers"
             << (parts.size() > 1 ? " in its tuple" : "") << ", not "
             << part.describe();
    if (!xs.empty() &&
        llvm::cast<RankedTensorType>(xs[0].getType()).getShape() !=
            type.getShape())
      return bind.gen.error(bind.locs[0])
             << "the tiles of '" << qualified << "' must have one shape, not "
             << shapeString(
                    llvm::cast<RankedTensorType>(xs[0].getType()).getShape())
             << " and " << shapeString(type.getShape());
    xs.push_back(part.value);
    isUnsigned.push_back(part.isUnsigned);
  }
  if (xs.empty())
    return bind.gen.error(bind.locs[0])
           << "'" << qualified << "' needs at least one tile";
  return xs;
}

/// A combine region's body: the @triton.jit function `fn` called on the
/// region's arguments (two of each operand, whose signedness `isUnsigned`
/// gives), which must return one scalar of each operand's element type.
static FailureOr<SmallVector<Value>>
callCombineFunction(Generator &gen, const TValue &fn, ValueRange args,
                    ArrayRef<bool> isUnsigned, llvm::SMLoc fnLoc,
                    llvm::SMLoc callLoc) {
  size_t n = args.size() / 2;
  std::string name = fn.function->getName().str();
  size_t required = 0, total = 0;
  bool variadic = false;
  for (const ParamAST &param : fn.function->getParams()) {
    variadic |= param.kind == ParamKind::VarArgs;
    if (param.kind != ParamKind::Normal)
      continue;
    ++total;
    required += !param.defaultValue;
  }
  if (required > 2 * n || (!variadic && total < 2 * n))
    return gen.error(fnLoc)
           << "the combine function '" << name << "' takes " << required
           << " argument" << (required == 1 ? "" : "s") << ", but "
           << "combining " << n << " tile" << (n == 1 ? "" : "s") << " passes "
           << 2 * n << " (two partial results of " << n << " value"
           << (n == 1 ? "" : "s") << ")";
  CallArgs callArgs;
  for (auto [i, arg] : llvm::enumerate(args)) {
    callArgs.positional.push_back(TValue::of(arg, isUnsigned[i % n]));
    callArgs.positionalRanges.push_back(llvm::SMRange(callLoc, callLoc));
  }
  FailureOr<TValue> returned = gen.callFunction(*fn.function, callArgs, fnLoc);
  if (failed(returned))
    return failure();
  std::vector<TValue> parts = returned->kind == TValue::Kind::Tuple
                                  ? returned->elements
                                  : std::vector<TValue>{*returned};
  if (returned->kind == TValue::Kind::None || parts.size() != n)
    return gen.error(fnLoc)
           << "the combine function '" << name << "' must return " << n
           << " value" << (n == 1 ? "" : "s") << " (one per input tile), not "
           << returned->describe();
  SmallVector<Value> values;
  for (auto [i, part] : llvm::enumerate(parts)) {
    Type elem = args[i].getType();
    if (part.isValue() && part.value.getType() != elem)
      return gen.error(fnLoc)
             << "the combine function '" << name << "' returns "
             << part.describe() << " for an input of " << typeName(elem)
             << "; it must return the input's type";
    FailureOr<Value> v =
        gen.toValueOfType(part, elem, elem, fnLoc, isUnsigned[i]);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  return values;
}

FailureOr<TValue> Generator::builtinCombine(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  bool isScan = name == "associative_scan";
  SmallVector<bool> isUnsigned;
  FailureOr<SmallVector<Value>> xs = combineInputs(bind, qualified, isUnsigned);
  if (failed(xs))
    return failure();
  // tl.reduce takes axis=None (every element); a scan needs an axis.
  std::optional<int64_t> axis;
  if (bind.has(1)) {
    FailureOr<int64_t> a = bind.axis(
        1, llvm::cast<RankedTensorType>((*xs)[0].getType()).getRank());
    if (failed(a))
      return failure();
    axis = *a;
  } else if (isScan) {
    return error(bind.locs[1]) << "'" << qualified << "' needs an axis";
  }
  const TValue &fn = bind.get(2);
  if (fn.kind != TValue::Kind::Function)
    return error(bind.locs[2])
           << "the combine function of '" << qualified
           << "' must be a @triton.jit function, not " << fn.describe();
  // keep_dims of a reduction, reverse of a scan.
  FailureOr<bool> flag = bind.has(3) ? bind.constBool(3) : false;
  if (failed(flag))
    return failure();
  FailureOr<TValue> result = combine(
      isScan, *xs, axis, /*keepDims=*/!isScan && *flag,
      /*reverse=*/isScan && *flag,
      [&](ValueRange regionArgs) {
        return callCombineFunction(*this, fn, regionArgs, isUnsigned,
                                   bind.locs[2], callLoc);
      },
      callLoc);
  if (failed(result))
    return failure();
  if (result->kind != TValue::Kind::Tuple)
    result->isUnsigned = isUnsigned[0];
  else
    for (auto [r, u] : llvm::zip_equal(result->elements, isUnsigned))
      r.isUnsigned = u;
  return result;
}

FailureOr<TValue> Generator::builtinBitwiseReduce(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = reduceInput(bind, qualified);
  if (failed(x))
    return failure();
  auto tensor = dyn_cast<RankedTensorType>(x->getType());
  if (!tensor || !tensor.getElementType().isInteger())
    return error(bind.locs[0])
           << "'" << qualified << "' expects a tile of integers, not "
           << bind.get(0).describe();
  FailureOr<std::optional<int64_t>> axis = reduceAxis(bind, 1, *x);
  FailureOr<bool> keep = bind.has(2) ? bind.constBool(2) : false;
  if (failed(axis) || failed(keep))
    return failure();
  bool isXor = name == "xor_sum";
  FailureOr<TValue> result = combine(
      /*isScan=*/false, {*x}, *axis, *keep, /*reverse=*/false,
      [&](ValueRange regionArgs) -> FailureOr<SmallVector<Value>> {
        Value v = isXor ? Value(arith::XOrIOp::create(builder, l, regionArgs[0],
                                                      regionArgs[1]))
                        : Value(arith::OrIOp::create(builder, l, regionArgs[0],
                                                     regionArgs[1]));
        return SmallVector<Value>{v};
      },
      callLoc);
  if (succeeded(result))
    result->isUnsigned = bind.get(0).isUnsigned;
  return result;
}

//===----------------------------------------------------------------------===//
// tl.dot
//===----------------------------------------------------------------------===//

/// True for the element types tl.dot accepts.
static bool isDotType(Type t) {
  return t.isInteger(8) || t.isF16() || t.isBF16() || t.isF32() || t.isF64() ||
         (isa<FloatType>(t) && t.getIntOrFloatBitWidth() == 8);
}

FailureOr<TValue> Generator::builtinDot(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> a = bind.tile(0);
  if (failed(a))
    return failure();
  FailureOr<Value> b = bind.tile(1);
  if (failed(b))
    return failure();
  auto at = llvm::cast<RankedTensorType>(a->getType());
  auto bt = llvm::cast<RankedTensorType>(b->getType());
  if (at.getRank() != bt.getRank() || (at.getRank() != 2 && at.getRank() != 3))
    return error(callLoc) << "tl.dot needs two 2-D tiles or two 3-D (batched) "
                             "tiles, not "
                          << shapeString(at.getShape()) << " and "
                          << shapeString(bt.getShape());
  // A batched dot multiplies a[i] @ b[i] for each index i of the leading
  // dimension.
  int64_t batch = at.getRank() == 3 ? at.getDimSize(0) : 0;
  if (batch && bt.getDimSize(0) != batch)
    return error(callLoc) << "tl.dot: incompatible shapes "
                          << shapeString(at.getShape()) << " and "
                          << shapeString(bt.getShape())
                          << ": the batch dimensions (" << batch << " and "
                          << bt.getDimSize(0) << ") must be equal";
  int64_t m = at.getDimSize(at.getRank() - 2),
          k = at.getDimSize(at.getRank() - 1),
          n = bt.getDimSize(bt.getRank() - 1);
  if (bt.getDimSize(bt.getRank() - 2) != k)
    return error(callLoc) << "tl.dot: incompatible shapes "
                          << shapeString(at.getShape()) << " and "
                          << shapeString(bt.getShape())
                          << ": the last dimension of the first (" << k
                          << ") must equal the " << (batch ? "second" : "first")
                          << " dimension of the second ("
                          << bt.getDimSize(bt.getRank() - 2) << ")";
  // As Triton: any M and N (products too small for tensor cores run on
  // the FMA path), K of at least 16.
  if (k < 16)
    return error(callLoc) << "tl.dot needs K of at least 16, not "
                          << "M = " << m << ", N = " << n << ", K = " << k
                          << " (shapes " << shapeString(at.getShape())
                          << " and " << shapeString(bt.getShape()) << ")";
  Type ae = at.getElementType(), be = bt.getElementType();
  if (!isDotType(ae) || !isDotType(be))
    return error(callLoc) << "tl.dot does not support "
                          << typeName(isDotType(ae) ? be : ae)
                          << " operands (int8, fp8, fp16, bf16, fp32 and fp64 "
                             "are supported)";
  bool aUnsigned = ae.isInteger(8) && bind.get(0).isUnsigned;
  bool bUnsigned = be.isInteger(8) && bind.get(1).isUnsigned;
  if (ae != be || aUnsigned != bUnsigned)
    return error(callLoc) << "tl.dot operands must have the same dtype, not "
                          << typeName(ae, aUnsigned) << " and "
                          << typeName(be, bUnsigned);

  // Precision.
  if (bind.has(3) && bind.has(4))
    return error(bind.locs[4]) << "only one of 'input_precision' and "
                                  "'allow_tf32' may be given";
  tile::InputPrecision precision = tile::InputPrecision::TF32;
  if (bind.has(4)) {
    FailureOr<bool> tf32 = bind.constBool(4);
    if (failed(tf32))
      return failure();
    warning(bind.locs[4],
            std::string("'allow_tf32' of tl.dot is deprecated; write "
                        "input_precision=\"") +
                (*tf32 ? "tf32" : "ieee") + "\" instead");
    precision = *tf32 ? tile::InputPrecision::TF32 : tile::InputPrecision::IEEE;
  }
  if (bind.has(3)) {
    FailureOr<std::string> p = bind.constString(3);
    if (failed(p))
      return failure();
    std::string lower = llvm::StringRef(*p).lower();
    if (lower == "tf32")
      precision = tile::InputPrecision::TF32;
    else if (lower == "tf32x3")
      precision = tile::InputPrecision::TF32x3;
    else if (lower == "ieee")
      precision = tile::InputPrecision::IEEE;
    else
      return error(bind.locs[3]) << "'input_precision' of tl.dot must be "
                                    "\"tf32\", \"tf32x3\" or \"ieee\", not \""
                                 << *p << "\"";
  }
  if (ae.isF32() && !bind.has(3) && !bind.has(4) && warnImplicitTf32)
    warning(callLoc,
            "tl.dot on fp32 tiles uses tf32 (10-bit mantissa, about 1e-3 "
            "relative error) by default, as Triton does on NVIDIA GPUs; pass "
            "input_precision=\"ieee\" for exact fp32 products, \"tf32x3\" "
            "for near-fp32 accuracy, or \"tf32\" (or -Wno-tf32) to silence "
            "this warning");
  if (bind.has(5)) {
    FailureOr<int64_t> imprecise = bind.constInt(5);
    if (failed(imprecise))
      return failure();
    if (ae.getIntOrFloatBitWidth() == 8 && isa<FloatType>(ae) && *imprecise > k)
      return error(bind.locs[5]) << "'max_num_imprecise_acc' (" << *imprecise
                                 << ") must be at most K (" << k << ")";
  }

  // The accumulator.
  SmallVector<int64_t> resultShape{m, n};
  if (batch)
    resultShape.insert(resultShape.begin(), batch);
  Value acc;
  if (bind.has(2)) {
    const TValue &c = bind.get(2);
    auto ct = c.tileType();
    if (!ct || ct.getShape() != ArrayRef<int64_t>(resultShape))
      return error(bind.locs[2])
             << "the accumulator of tl.dot must be a "
             << shapeString(resultShape) << " tile, not " << c.describe();
    acc = c.value;
  }
  Type outType = builder.getF32Type();
  if (bind.has(6)) {
    FailureOr<Type> t = bind.dtype(6);
    if (failed(t))
      return failure();
    outType = *t;
    if (outType.isBF16())
      return error(bind.locs[6]) << "'out_dtype' bf16 is not supported by "
                                    "tl.dot; use fp32 or fp16 and convert "
                                    "with .to(tl.bfloat16)";
  } else if (acc) {
    outType = getElementTypeOrSelf(acc.getType());
  }
  Type resultElem;
  if (ae.isInteger(8))
    resultElem = builder.getI32Type();
  else if (ae.isF32() || ae.isBF16())
    resultElem = builder.getF32Type();
  else if (ae.isF64())
    resultElem = builder.getF64Type();
  else if (outType.isF16() || outType.isF32())
    resultElem = outType;
  else
    return error(bind.has(6) ? bind.locs[6] : callLoc)
           << "'out_dtype' of tl.dot on " << typeName(ae)
           << " operands must be fp32 or fp16, not " << typeName(outType);
  if (failed(checkTileShape(resultShape, callLoc)))
    return failure();
  auto resultType = RankedTensorType::get(resultShape, resultElem);
  if (acc) {
    if (acc.getType() != resultType)
      return error(bind.locs[2]) << "the accumulator of tl.dot on "
                                 << typeName(ae) << " operands must be "
                                 << "a tile of " << typeName(resultElem)
                                 << ", not " << bind.get(2).describe();
  } else {
    acc = constant(0, resultElem, resultType, l);
  }
  // uint8 operands are read as unsigned by the product itself (wgmma's
  // .u8, zero-extended elsewhere). A batched product stays one 3-D op until
  // tile-split-batch gives each index of the batch its own.
  return TValue::of(tile::DotOp::create(builder, l, resultType, *a, *b, acc,
                                        precision, aUnsigned));
}
