//===- Shapes.cpp - Broadcasting, subscripts and shape builtins -*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Tile shapes: numpy broadcasting of two tiles (the lower rank is padded with
// leading 1s through tile.expand_dims, then size-1 dimensions are repeated by
// tile.broadcast), the `x[:, None]` subscripts, subscripts of compile-time
// tuples, and the tl.* functions that make or reshape tiles: zeros, full,
// reshape, view, ravel, trans, permute, expand_dims, broadcast_to, broadcast.
// Every tile shape must consist of powers of two, as in Triton.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileBuilders.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>>
Generator::broadcastShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                           llvm::SMLoc l, llvm::StringRef what) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> result(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
    int64_t y = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
    if (x != y && x != 1 && y != 1)
      return error(l) << what << " have incompatible shapes " << shapeString(a)
                      << " and " << shapeString(b);
    result[i] = x == 1 ? y : x;
  }
  if (failed(checkTileShape(result, l)))
    return failure();
  return result;
}

Value Generator::expandDims(Value v, int64_t axis, Location l) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor)
    return tile::SplatOp::create(builder, l,
                                 RankedTensorType::get({1}, v.getType()), v);
  SmallVector<int64_t> shape(tensor.getShape());
  shape.insert(shape.begin() + axis, 1);
  return tile::ExpandDimsOp::create(
      builder, l, RankedTensorType::get(shape, tensor.getElementType()), v,
      builder.getI32IntegerAttr(axis));
}

Value Generator::reshape(Value v, ArrayRef<int64_t> shape, Location l) {
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  Type elem = getElementTypeOrSelf(v.getType());
  auto type = RankedTensorType::get(shape, elem);
  if (!tensor)
    return tile::SplatOp::create(builder, l, type, v);
  if (tensor.getShape() == shape)
    return v;
  return tile::ReshapeOp::create(builder, l, type, v);
}

FailureOr<SmallVector<Value>>
Generator::broadcastTogether(ArrayRef<TValue> args, llvm::SMLoc l,
                             llvm::StringRef what,
                             SmallVectorImpl<int64_t> &shape, bool &anyTile) {
  SmallVector<Value> values;
  shape.clear();
  anyTile = false;
  for (const TValue &arg : args) {
    FailureOr<Value> v = toValue(arg, l);
    if (failed(v))
      return failure();
    if (auto tensor = dyn_cast<RankedTensorType>(v->getType())) {
      if (!anyTile) {
        shape.assign(tensor.getShape().begin(), tensor.getShape().end());
        anyTile = true;
      } else {
        FailureOr<SmallVector<int64_t>> s =
            broadcastShapes(shape, tensor.getShape(), l, what);
        if (failed(s))
          return failure();
        shape.assign(s->begin(), s->end());
      }
    }
    values.push_back(*v);
  }
  if (anyTile)
    for (Value &v : values) {
      FailureOr<Value> b = broadcastTo(v, shape, l);
      if (failed(b))
        return failure();
      v = *b;
    }
  return values;
}

FailureOr<Value> Generator::broadcastTo(Value v, ArrayRef<int64_t> shape,
                                        llvm::SMLoc l) {
  Location location = loc(l);
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor) {
    if (shape.empty())
      return v;
    return Value(tile::SplatOp::create(
        builder, location, RankedTensorType::get(shape, v.getType()), v));
  }
  if (tensor.getShape() == shape)
    return v;
  auto fail = [&]() {
    return error(l) << "cannot broadcast a tile of shape "
                    << shapeString(tensor.getShape()) << " to "
                    << shapeString(shape);
  };
  if (size_t(tensor.getRank()) > shape.size())
    return fail();
  for (size_t i = 0, e = tensor.getRank(); i < e; ++i) {
    int64_t d = tensor.getDimSize(i), r = shape[shape.size() - e + i];
    if (d != r && d != 1)
      return fail();
  }
  while (size_t(llvm::cast<RankedTensorType>(v.getType()).getRank()) <
         shape.size())
    v = expandDims(v, 0, location);
  if (llvm::cast<RankedTensorType>(v.getType()).getShape() == shape)
    return v;
  return Value(tile::BroadcastOp::create(
      builder, location, RankedTensorType::get(shape, tensor.getElementType()),
      v));
}

LogicalResult Generator::checkTileShape(ArrayRef<int64_t> shape,
                                        llvm::SMLoc l) {
  int64_t numel = 1;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return error(l) << "tile shape " << shapeString(shape) << ": dimension "
                      << i << " (" << d << ") must be a power of two";
    if (d > kMaxTileElements / numel)
      return error(l) << "tile shape " << shapeString(shape) << " has more "
                      << "than the maximum of " << kMaxTileElements
                      << " elements";
    numel *= d;
    if (numel > kMaxTileElements)
      return error(l) << "tile shape " << shapeString(shape) << " has more "
                      << "than the maximum of " << kMaxTileElements
                      << " elements";
  }
  return success();
}

FailureOr<SmallVector<int64_t>>
Generator::toShape(const TValue &v, llvm::SMLoc l, llvm::StringRef what) {
  SmallVector<int64_t> shape;
  if (v.kind == TValue::Kind::Int) {
    shape.push_back(v.i);
  } else if (v.kind == TValue::Kind::Tuple) {
    for (const TValue &e : v.elements) {
      if (e.kind != TValue::Kind::Int)
        return error(l) << what << " must be a tuple of constexpr integers, "
                        << "but one element is " << e.describe();
      shape.push_back(e.i);
    }
  } else {
    return error(l) << what << " must be a tuple of constexpr integers, not "
                    << v.describe();
  }
  if (failed(checkTileShape(shape, l)))
    return failure();
  return shape;
}

//===----------------------------------------------------------------------===//
// Subscripts
//===----------------------------------------------------------------------===//

/// True if `index` is `:` (a slice without bounds or step).
static bool isFullSlice(const ExprAST &index) {
  auto *slice = llvm::dyn_cast<SliceExprAST>(&index);
  auto isNone = [](const ExprAST *e) {
    return !e || llvm::isa<NoneExprAST>(e);
  };
  return slice && isNone(slice->getLower()) && isNone(slice->getUpper()) &&
         isNone(slice->getStep());
}

FailureOr<TValue> Generator::genSubscript(const SubscriptExprAST &expr) {
  FailureOr<TValue> base = genExpr(expr.getValue());
  if (failed(base))
    return failure();
  const ExprList &indices = expr.getIndices();

  if (base->kind == TValue::Kind::Dict && indices.size() == 1 &&
      !llvm::isa<SliceExprAST>(*indices.front())) {
    FailureOr<TValue> key = genExpr(*indices.front());
    if (failed(key))
      return failure();
    return dictItem(*base, *key, indices.front()->getLoc());
  }
  if (base->kind == TValue::Kind::Tuple) {
    const ExprAST &index = *indices.front();
    if (indices.size() != 1)
      return error(index.getLoc()) << "a tuple takes a single index";
    int64_t size = base->elements.size();
    auto bound = [&](const ExprAST *e, int64_t dflt) -> FailureOr<int64_t> {
      if (!e)
        return dflt;
      FailureOr<TValue> v = genExpr(*e);
      if (failed(v))
        return failure();
      if (v->isNone())
        return dflt;
      if (v->kind != TValue::Kind::Int)
        return error(e->getLoc()) << "tuple indices must be constexpr "
                                  << "integers, not " << v->describe();
      return v->i < 0 ? std::max<int64_t>(v->i + size, 0)
                      : std::min(v->i, size);
    };
    if (auto *slice = llvm::dyn_cast<SliceExprAST>(&index)) {
      if (slice->getStep())
        return error(slice->getStep()->getLoc())
               << "tuple slices with a step are not supported";
      FailureOr<int64_t> lo = bound(slice->getLower(), 0);
      if (failed(lo))
        return failure();
      FailureOr<int64_t> hi = bound(slice->getUpper(), size);
      if (failed(hi))
        return failure();
      std::vector<TValue> part;
      for (int64_t i = *lo; i < *hi; ++i)
        part.push_back(base->elements[i]);
      return TValue::ofTuple(std::move(part));
    }
    FailureOr<TValue> v = genExpr(index);
    if (failed(v))
      return failure();
    if (v->kind != TValue::Kind::Int)
      return error(index.getLoc()) << "tuple indices must be constexpr "
                                   << "integers, not " << v->describe();
    int64_t i = v->i < 0 ? v->i + size : v->i;
    if (i < 0 || i >= size)
      return error(index.getLoc())
             << "tuple index " << v->i << " out of range for a tuple of "
             << size << " values";
    return base->elements[i];
  }

  if (!base->isValue())
    return error(expr.getLoc()) << base->describe() << " cannot be indexed";

  Value v = base->value;
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  int64_t rank = tensor ? tensor.getRank() : 0;
  int64_t kept = 0;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    if (isFullSlice(*index)) {
      // ':' on a scalar changes nothing, as in Triton (`pid[:, None]`).
      if (rank == 0)
        continue;
      if (++kept > rank)
        return error(index->getLoc())
               << "too many indices for " << base->describe();
      continue;
    }
    bool isNone = llvm::isa<NoneExprAST>(*index);
    if (!isNone && !llvm::isa<SliceExprAST>(*index)) {
      FailureOr<TValue> i = genExpr(*index);
      if (failed(i))
        return failure();
      isNone = i->isNone();
    }
    if (!isNone)
      return error(index->getLoc())
             << "unsupported tile index: only ':' and 'None' may index a "
                "tile (e.g. x[:, None])";
    int64_t current = isa<RankedTensorType>(v.getType())
                          ? llvm::cast<RankedTensorType>(v.getType()).getRank()
                          : 0;
    // A scalar becomes a tile of one element wherever the 'None' is, as
    // Triton's expand_dims splats it.
    if (current == 0) {
      v = expandDims(v, 0, loc(index->getLoc()));
      continue;
    }
    if (int64_t(dim) > current)
      return error(index->getLoc())
             << "'None' at index " << dim << " is out of range for a tile of "
             << "rank " << current;
    v = expandDims(v, dim, loc(index->getLoc()));
  }
  return TValue::of(v, base->isUnsigned);
}

//===----------------------------------------------------------------------===//
// Shape builtins
//===----------------------------------------------------------------------===//

/// Converts the varargs of a shape or dims parameter to integers.
static FailureOr<SmallVector<int64_t>> intList(Generator &gen,
                                               ArrayRef<TValue> values,
                                               llvm::SMLoc l,
                                               llvm::StringRef what) {
  SmallVector<int64_t> result;
  for (const TValue &v : values) {
    if (v.kind != TValue::Kind::Int)
      return gen.error(l) << what << " must be constexpr integers, but one is "
                          << v.describe();
    result.push_back(v.i);
  }
  return result;
}

FailureOr<TValue> Generator::builtinZeros(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  bool isFull = name == "full";
  unsigned dtypeIndex = isFull ? 2 : 1;
  FailureOr<SmallVector<int64_t>> shape;
  if (bind.get(0).kind == TValue::Kind::Tuple && bind.get(0).elements.empty())
    shape = SmallVector<int64_t>();
  else
    shape = toShape(bind.get(0), bind.locs[0], "'shape' of " + qualified);
  if (failed(shape))
    return failure();
  FailureOr<Type> dtype = bind.dtype(dtypeIndex);
  if (failed(dtype))
    return failure();
  if (isa<tile::PtrType>(*dtype))
    return error(bind.locs[dtypeIndex])
           << qualified << " of pointers is not supported";
  TValue value = isFull ? bind.get(1) : TValue::ofInt(0);
  if (value.tileType())
    return error(bind.locs[1]) << "'value' of " << qualified
                               << " must be a scalar, not " << value.describe();
  Type like =
      shape->empty() ? *dtype : Type(RankedTensorType::get(*shape, *dtype));
  bool isUnsigned = bind.get(dtypeIndex).isUnsigned;
  FailureOr<Value> v = toValueOfType(value, *dtype, like, callLoc, isUnsigned);
  if (failed(v))
    return failure();
  return TValue::of(*v, isUnsigned);
}

FailureOr<TValue> Generator::builtinZerosLike(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  bool isFull = name == "full_like";
  FailureOr<Value> input = bind.value(0);
  if (failed(input))
    return failure();
  unsigned dtypeIndex = isFull ? 2 : 1;
  Type dtype = getElementTypeOrSelf(input->getType());
  bool isUnsigned = bind.get(0).isUnsigned;
  if (bind.has(dtypeIndex)) {
    FailureOr<Type> t = bind.dtype(dtypeIndex);
    if (failed(t))
      return failure();
    dtype = *t;
    isUnsigned = bind.get(dtypeIndex).isUnsigned;
  }
  if (isa<tile::PtrType>(dtype))
    return error(callLoc) << qualified << " of pointers is not supported";
  TValue value = isFull ? bind.get(1) : TValue::ofInt(0);
  if (value.tileType())
    return error(bind.locs[1]) << "'value' of " << qualified
                               << " must be a scalar, not " << value.describe();
  FailureOr<Value> v = toValueOfType(
      value, dtype, tile::withElementType(input->getType(), dtype), callLoc,
      isUnsigned);
  if (failed(v))
    return failure();
  return TValue::of(*v, isUnsigned);
}

FailureOr<TValue> Generator::builtinReshape(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  std::vector<TValue> shapeArgs = varargs.value_or(std::vector<TValue>());
  bool givenShape = varargs.has_value();
  FailureOr<Value> input = bind.tile(0);
  if (failed(input))
    return failure();
  auto tensor = llvm::cast<RankedTensorType>(input->getType());
  SmallVector<int64_t> shape;
  if (name == "ravel") {
    shape.push_back(tensor.getNumElements());
  } else {
    if (shapeArgs.empty())
      return error(callLoc) << qualified
                            << (givenShape ? " to a 0-d shape is not supported"
                                           : " is missing its 'shape'");
    FailureOr<SmallVector<int64_t>> s =
        intList(*this, shapeArgs, callLoc, "the shape of " + qualified);
    if (failed(s))
      return failure();
    shape = *s;
  }
  if (failed(checkTileShape(shape, callLoc)))
    return failure();
  int64_t numel = 1;
  for (int64_t d : shape)
    numel *= d;
  if (numel != tensor.getNumElements())
    return error(callLoc) << qualified << " cannot reshape a tile of shape "
                          << shapeString(tensor.getShape()) << " ("
                          << tensor.getNumElements() << " elements) to "
                          << shapeString(shape) << " (" << numel
                          << " elements)";
  return TValue::of(reshape(*input, shape, l), bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinTrans(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  std::vector<TValue> dimArgs = varargs.value_or(std::vector<TValue>());
  if (bind.has(1)) {
    if (!dimArgs.empty())
      return error(callLoc) << qualified << " got 'dims' twice";
    dimArgs = bind.get(1).kind == TValue::Kind::Tuple
                  ? bind.get(1).elements
                  : std::vector<TValue>{bind.get(1)};
  }
  FailureOr<Value> input = bind.tile(0);
  if (failed(input))
    return failure();
  auto tensor = llvm::cast<RankedTensorType>(input->getType());
  int64_t rank = tensor.getRank();
  SmallVector<int64_t> dims;
  if (dimArgs.empty()) {
    if (name == "permute")
      return error(callLoc) << "tl.permute is missing its 'dims'";
    if (rank != 2)
      return error(callLoc) << "tl.trans without 'dims' needs a 2-D tile, not "
                            << TValue::of(*input).describe();
    dims = {1, 0};
  } else {
    FailureOr<SmallVector<int64_t>> d =
        intList(*this, dimArgs, callLoc, "the dims of " + qualified);
    if (failed(d))
      return failure();
    dims = *d;
  }
  SmallVector<bool> seen(rank, false);
  bool valid = int64_t(dims.size()) == rank;
  for (int64_t &d : dims) {
    if (d < 0)
      d += rank;
    if (d < 0 || d >= rank || seen[d])
      valid = false;
    else
      seen[d] = true;
  }
  if (!valid)
    return error(callLoc) << "the dims of " << qualified
                          << " must be a permutation of the " << rank
                          << " dimensions of " << TValue::of(*input).describe();
  SmallVector<int64_t> shape;
  SmallVector<int32_t> order;
  for (int64_t d : dims) {
    shape.push_back(tensor.getDimSize(d));
    order.push_back(d);
  }
  bool identity = llvm::all_of(llvm::enumerate(dims), [](auto p) {
    return int64_t(p.index()) == p.value();
  });
  if (identity)
    return TValue::of(*input, bind.get(0).isUnsigned);
  return TValue::of(tile::TransOp::create(
                        builder, l,
                        RankedTensorType::get(shape, tensor.getElementType()),
                        *input, builder.getDenseI32ArrayAttr(order)),
                    bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinExpandDims(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> input = bind.value(0);
  if (failed(input))
    return failure();
  std::vector<TValue> axisValues = bind.get(1).kind == TValue::Kind::Tuple
                                       ? bind.get(1).elements
                                       : std::vector<TValue>{bind.get(1)};
  auto tensor = dyn_cast<RankedTensorType>(input->getType());
  int64_t rank = tensor ? tensor.getRank() : 0;
  int64_t newRank = rank + axisValues.size();
  SmallVector<int64_t> axes;
  for (const TValue &a : axisValues) {
    if (a.kind != TValue::Kind::Int)
      return error(bind.locs[1]) << "'axis' of tl.expand_dims must be "
                                    "constexpr integers, not "
                                 << a.describe();
    int64_t axis = a.i < 0 ? a.i + newRank : a.i;
    if (axis < 0 || axis >= newRank)
      return error(bind.locs[1])
             << "invalid axis " << a.i << " for tl.expand_dims: expected "
             << -newRank << " <= axis < " << newRank;
    if (llvm::is_contained(axes, axis))
      return error(bind.locs[1])
             << "axis " << axis << " repeated in tl.expand_dims";
    axes.push_back(axis);
  }
  llvm::sort(axes);
  Value v = *input;
  for (int64_t axis : axes)
    v = expandDims(v, axis, l);
  return TValue::of(v, bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinBroadcastTo(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  std::vector<TValue> shapeArgs = varargs.value_or(std::vector<TValue>());
  if (bind.has(1)) {
    if (!shapeArgs.empty())
      return error(callLoc) << "tl.broadcast_to got 'shape' twice";
    shapeArgs = bind.get(1).kind == TValue::Kind::Tuple
                    ? bind.get(1).elements
                    : std::vector<TValue>{bind.get(1)};
  }
  FailureOr<Value> input = bind.value(0);
  if (failed(input))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      intList(*this, shapeArgs, callLoc, "the shape of tl.broadcast_to");
  if (failed(shape) || failed(checkTileShape(*shape, callLoc)))
    return failure();
  FailureOr<Value> v = broadcastTo(*input, *shape, callLoc);
  if (failed(v))
    return failure();
  return TValue::of(*v, bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinBroadcast(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> a = bind.value(0);
  if (failed(a))
    return failure();
  FailureOr<Value> b = bind.value(1);
  if (failed(b))
    return failure();
  auto ta = dyn_cast<RankedTensorType>(a->getType());
  auto tb = dyn_cast<RankedTensorType>(b->getType());
  SmallVector<int64_t> shape;
  if (ta && tb) {
    FailureOr<SmallVector<int64_t>> s = broadcastShapes(
        ta.getShape(), tb.getShape(), callLoc, "operands of tl.broadcast");
    if (failed(s))
      return failure();
    shape = *s;
  } else if (ta || tb) {
    shape = SmallVector<int64_t>((ta ? ta : tb).getShape());
  }
  FailureOr<Value> x = broadcastTo(*a, shape, callLoc);
  if (failed(x))
    return failure();
  FailureOr<Value> y = broadcastTo(*b, shape, callLoc);
  if (failed(y))
    return failure();
  return TValue::ofTuple({TValue::of(*x, bind.get(0).isUnsigned),
                          TValue::of(*y, bind.get(1).isUnsigned)});
}

/// The integer type of `elem`'s width (i8 for i1), in which split's
/// selections and sums are exact; null for pointers.
static Type bitsType(OpBuilder &b, Type elem) {
  if (isa<tile::PtrType>(elem))
    return {};
  return b.getIntegerType(std::max(8u, elem.getIntOrFloatBitWidth()));
}

/// `v` as integers of its width, and back (`inverse`).
static Value toBits(OpBuilder &b, Location l, Value v, Type bits,
                    bool inverse = false, Type elem = {}) {
  Type from = getElementTypeOrSelf(v.getType());
  Type to = inverse ? elem : bits;
  Type result = tile::withElementType(v.getType(), to);
  if (from == to)
    return v;
  if (inverse ? to.isInteger(1) : from.isInteger(1)) {
    if (inverse)
      return arith::TruncIOp::create(b, l, result, v);
    return arith::ExtUIOp::create(b, l, result, v);
  }
  return arith::BitcastOp::create(b, l, result, v);
}

FailureOr<Value> Generator::join(const TValue &a, const TValue &b,
                                 llvm::SMLoc l, llvm::StringRef what) {
  Location location = loc(l);
  FailureOr<Value> x = toValue(a, l), y = toValue(b, l);
  if (failed(x) || failed(y))
    return failure();
  Type elem = getElementTypeOrSelf(x->getType());
  if (elem != getElementTypeOrSelf(y->getType()))
    return error(l) << "the operands of " << what
                    << " must have one element type, not " << typeName(elem)
                    << " and " << typeName(getElementTypeOrSelf(y->getType()));
  auto shapeOf = [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t ? SmallVector<int64_t>(t.getShape()) : SmallVector<int64_t>();
  };
  FailureOr<SmallVector<int64_t>> shape = broadcastShapes(
      shapeOf(*x), shapeOf(*y), l, ("the operands of " + what).str());
  if (failed(shape))
    return failure();
  FailureOr<Value> xb = broadcastTo(*x, *shape, l),
                   yb = broadcastTo(*y, *shape, l);
  if (failed(xb) || failed(yb))
    return failure();
  SmallVector<int64_t> joined(*shape);
  joined.push_back(2);
  if (failed(checkTileShape(joined, l)))
    return failure();
  auto type = RankedTensorType::get(joined, elem);
  auto spread = [&](Value v) -> Value {
    return tile::BroadcastOp::create(builder, location, type,
                                     expandDims(v, shape->size(), location));
  };
  return Value(arith::SelectOp::create(
      builder, location,
      tile::buildAxisIndexIs(builder, location, joined, joined.size() - 1, 0),
      spread(*xb), spread(*yb)));
}

FailureOr<TValue> Generator::builtinJoin(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> joined = join(bind.get(0), bind.get(1), callLoc, qualified);
  if (failed(joined))
    return failure();
  bool isUnsigned = bind.get(0).isUnsigned;
  if (name == "join")
    return TValue::of(*joined, isUnsigned);
  // interleave: the pairs laid out one after the other along the last axis.
  auto type = llvm::cast<RankedTensorType>(joined->getType());
  SmallVector<int64_t> shape(type.getShape().drop_back());
  if (shape.empty())
    shape.push_back(1);
  shape.back() *= 2;
  return TValue::of(reshape(*joined, shape, l), isUnsigned);
}

Value Generator::sliceAlong(Value x, int64_t axis, int64_t which,
                            llvm::SMLoc l) {
  return tile::buildSliceAlong(builder, loc(l), x, axis, which);
}

FailureOr<TValue> Generator::builtinSplit(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = bind.tile(0);
  if (failed(x))
    return failure();
  auto type = llvm::cast<RankedTensorType>(x->getType());
  if (type.getShape().back() != 2)
    return error(bind.locs[0])
           << qualified << " needs a last dimension of size 2, not "
           << shapeString(type.getShape());
  std::vector<TValue> halves;
  for (int64_t which : {0, 1})
    halves.push_back(
        TValue::of(sliceAlong(*x, type.getRank() - 1, which, callLoc),
                   bind.get(0).isUnsigned));
  return TValue::ofTuple(std::move(halves));
}

/// The other element of each pair along `axis` (of size 2) of the integer
/// tile `y`: y ^ (y0 ^ y1), the pair's xor_sum spread back, exactly.
static Value pairPartner(Generator &gen, Value y, int64_t axis,
                         llvm::SMLoc callLoc) {
  OpBuilder &b = gen.builder;
  Location l = gen.loc(callLoc);
  auto xorBody = [&](ValueRange pair) -> FailureOr<SmallVector<Value>> {
    return SmallVector<Value>{arith::XOrIOp::create(b, l, pair[0], pair[1])};
  };
  // A one-operator region on a tile of integers: cannot fail.
  Value pairXor = gen.combine(/*isScan=*/false, {y}, axis, /*keepDims=*/true,
                              /*reverse=*/false, xorBody, callLoc)
                      ->value;
  Value spread = tile::BroadcastOp::create(b, l, y.getType(), pairXor);
  return arith::XOrIOp::create(b, l, y, spread);
}

FailureOr<TValue> Generator::builtinFlip(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = bind.tile(0);
  if (failed(x))
    return failure();
  auto type = llvm::cast<RankedTensorType>(x->getType());
  int64_t dim = type.getRank() - 1;
  if (bind.has(1)) {
    FailureOr<int64_t> d = bind.axis(1, type.getRank());
    if (failed(d))
      return failure();
    dim = *d;
  }
  Type elem = type.getElementType();
  Type bits = bitsType(builder, elem);
  if (!bits)
    return error(bind.locs[0]) << qualified << " does not flip pointers";
  int64_t steps = llvm::Log2_64(type.getDimSize(dim));
  // Position k along `dim` goes to n - 1 - k: its bits complemented. With
  // the dimension reshaped to [2, ..., 2], each size-2 axis swaps its pair:
  // y ^ (y0 ^ y1) is the other element of the pair, exactly.
  SmallVector<int64_t> split(type.getShape().take_front(dim));
  split.append(steps, 2);
  llvm::append_range(split, type.getShape().drop_front(dim + 1));
  Value y = reshape(toBits(builder, l, *x, bits), split, l);
  for (int64_t i = 0; i < steps; ++i)
    y = pairPartner(*this, y, dim + i, callLoc);
  y = reshape(y, type.getShape(), l);
  return TValue::of(toBits(builder, l, y, bits, /*inverse=*/true, elem),
                    bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinCat(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> a = bind.tile(0), b = bind.tile(1);
  if (failed(a) || failed(b))
    return failure();
  if (bind.has(2) && failed(bind.constBool(2)))
    return failure();
  auto at = llvm::cast<RankedTensorType>(a->getType());
  auto bt = llvm::cast<RankedTensorType>(b->getType());
  if (at.getRank() != 1 || at != bt)
    return error(callLoc) << qualified
                          << " concatenates two 1-D tiles of one shape and "
                             "type (as Triton), not "
                          << bind.get(0).describe() << " and "
                          << bind.get(1).describe();
  // In order (Triton may reorder; tilec never does): the pairs [n, 2]
  // transposed to [2, n], read row by row.
  FailureOr<Value> pairs = join(bind.get(0), bind.get(1), callLoc, qualified);
  if (failed(pairs))
    return failure();
  int64_t n = at.getDimSize(0);
  Value rows = tile::TransOp::create(
      builder, l, RankedTensorType::get({2, n}, at.getElementType()), *pairs,
      builder.getDenseI32ArrayAttr({1, 0}));
  return TValue::of(reshape(rows, {2 * n}, l), bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinGather(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> src = bind.tile(0), index = bind.tile(1);
  if (failed(src) || failed(index))
    return failure();
  auto srcType = llvm::cast<RankedTensorType>(src->getType());
  auto indexType = llvm::cast<RankedTensorType>(index->getType());
  FailureOr<int64_t> axis = bind.axis(2, srcType.getRank());
  if (failed(axis))
    return failure();
  Type indexElem = indexType.getElementType();
  if (!indexElem.isInteger() || indexElem.isInteger(1))
    return error(bind.locs[1])
           << "the index of " << qualified
           << " must be a tile of integers, not " << bind.get(1).describe();
  bool fits = indexType.getRank() == srcType.getRank();
  for (int64_t d = 0; fits && d < srcType.getRank(); ++d)
    fits = d == *axis || indexType.getDimSize(d) == srcType.getDimSize(d);
  if (!fits)
    return error(bind.locs[1])
           << "the index of " << qualified << " must have the rank of the "
           << "source and its size along every dimension but axis " << *axis
           << ": the source is " << bind.get(0).describe() << ", the index "
           << bind.get(1).describe();
  if (isa<tile::PtrType>(srcType.getElementType()))
    return error(bind.locs[0]) << qualified << " does not gather pointers";
  auto resultType =
      RankedTensorType::get(indexType.getShape(), srcType.getElementType());
  return TValue::of(tile::GatherOp::create(builder, l, resultType, *src, *index,
                                           builder.getI32IntegerAttr(*axis)),
                    bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinHistogram(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = bind.tile(0);
  if (failed(x))
    return failure();
  auto type = llvm::cast<RankedTensorType>(x->getType());
  if (type.getRank() != 1 || !type.getElementType().isInteger() ||
      type.getElementType().isInteger(1))
    return error(bind.locs[0])
           << qualified << " counts a 1-D tile of integers, not "
           << bind.get(0).describe();
  FailureOr<int64_t> bins = bind.constInt(1);
  if (failed(bins))
    return failure();
  if (*bins < 1)
    return error(bind.locs[1]) << "'num_bins' of " << qualified
                               << " must be positive, not " << *bins;
  if (failed(checkTileShape({*bins}, bind.locs[1])))
    return failure();
  Value mask;
  if (bind.has(2)) {
    FailureOr<Value> m = toBool(bind.get(2), bind.locs[2]);
    if (failed(m))
      return failure();
    FailureOr<Value> b = broadcastTo(*m, type.getShape(), bind.locs[2]);
    if (failed(b))
      return failure();
    mask = *b;
  }
  auto resultType = RankedTensorType::get({*bins}, builder.getI32Type());
  return TValue::of(
      tile::HistogramOp::create(builder, l, resultType, *x, mask));
}

/// Checks the operand and dimension of tl.sort and tl.topk (parameter 0 and
/// `dimParam`): a tile of integers or floats, its last dimension.
static FailureOr<Value> sortOperand(Binder &bind, llvm::StringRef qualified,
                                    unsigned dimParam) {
  FailureOr<Value> x = bind.tile(0);
  if (failed(x))
    return failure();
  auto type = llvm::cast<RankedTensorType>(x->getType());
  int64_t rank = type.getRank();
  if (bind.has(dimParam)) {
    FailureOr<int64_t> d = bind.axis(dimParam, rank);
    if (failed(d))
      return failure();
    if (*d != rank - 1)
      return bind.gen.error(bind.locs[dimParam])
             << qualified
             << " works along the last dimension only (as Triton), not "
                "dimension "
             << *d;
  }
  Type elem = type.getElementType();
  if (isa<tile::PtrType>(elem) || elem.isInteger(1))
    return bind.gen.error(bind.locs[0])
           << qualified << " takes integers and floats, not "
           << bind.get(0).describe();
  return x;
}

FailureOr<TValue> Generator::builtinSort(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = sortOperand(bind, qualified, 1);
  FailureOr<bool> descending = bind.has(2) ? bind.constBool(2) : false;
  if (failed(x) || failed(descending))
    return failure();
  // tl.bitonic_merge: the network's last stage alone.
  bool isUnsigned = bind.get(0).isUnsigned;
  return TValue::of(sortLastDim(*x, *descending, isUnsigned, callLoc,
                                /*mergeOnly=*/name == "bitonic_merge"),
                    isUnsigned);
}

namespace {

/// A bitonic network along the last dimension of a tile, reshaped into a
/// hypercube [lead..., 2, ..., 2] of `bits` axes: bit j of a position lies
/// along axis lead + bits - 1 - j. Elements are ordered as by `less`.
struct BitonicNetwork {
  Generator &gen;
  Location l;
  llvm::SMLoc callLoc;
  Type elem;
  bool isUnsigned;
  int64_t lead;

  int64_t axisOfBit(int64_t bits, int64_t j) const {
    return lead + bits - 1 - j;
  }

  /// a before b ascending (scalars or tiles of integers: floats are sorted
  /// as their keys).
  Value less(Value a, Value b) {
    return arith::CmpIOp::create(gen.builder, l,
                                 isUnsignedInt(elem, isUnsigned)
                                     ? arith::CmpIPredicate::ult
                                     : arith::CmpIPredicate::slt,
                                 a, b);
  }

  /// Merge stage `stage` of a hypercube `y` of `bits` axes: compare-and-swap
  /// along bits stage - 1 .. 0. The last stage (stage == bits) sorts the
  /// whole row in `descending` order; earlier ones sort blocks of 2^stage
  /// positions in alternating orders by bit `stage` (`descending` where it
  /// is 0), so that two neighbouring blocks form a bitonic one.
  Value merge(Value y, int64_t bits, int64_t stage, bool descending) {
    OpBuilder &builder = gen.builder;
    auto type = llvm::cast<RankedTensorType>(y.getType());
    ArrayRef<int64_t> shape = type.getShape();
    Type bitType = bitsType(builder, elem);
    auto boolTile = [&](bool v) -> Value {
      return arith::ConstantOp::create(
          builder, l,
          DenseElementsAttr::get(
              RankedTensorType::get(shape, builder.getI1Type()), v));
    };
    Value blockDescending = boolTile(descending);
    if (stage < bits)
      blockDescending = arith::XOrIOp::create(
          builder, l,
          tile::buildAxisIndexIs(builder, l, shape, axisOfBit(bits, stage), 1),
          blockDescending);
    for (int64_t j = stage - 1; j >= 0; --j) {
      int64_t axis = axisOfBit(bits, j);
      // The partner across the axis, as in tl.flip (xor with the pair's
      // xor_sum).
      Value partner = toBits(
          builder, l,
          pairPartner(gen, toBits(builder, l, y, bitType), axis, callLoc),
          bitType, /*inverse=*/true, elem);
      // The low position of a pair keeps the smaller of the two, the high
      // one the larger (swapped in descending blocks): y stays where its
      // order agrees with its position.
      Value takeHigh = arith::XOrIOp::create(
          builder, l, tile::buildAxisIndexIs(builder, l, shape, axis, 1),
          blockDescending);
      Value keep =
          arith::XOrIOp::create(builder, l, less(y, partner), takeHigh);
      y = arith::SelectOp::create(builder, l, keep, y, partner);
    }
    return y;
  }

  /// The larger of each pair along bit `bit` of a hypercube of `bits` axes
  /// (that axis removed).
  Value keepLarger(Value y, int64_t bits, int64_t bit) {
    OpBuilder &builder = gen.builder;
    auto body = [&](ValueRange pair) -> FailureOr<SmallVector<Value>> {
      return SmallVector<Value>{arith::SelectOp::create(
          builder, l, less(pair[0], pair[1]), pair[1], pair[0])};
    };
    // A one-operation region on numbers: cannot fail.
    return gen
        .combine(/*isScan=*/false, {y}, axisOfBit(bits, bit),
                 /*keepDims=*/false, /*reverse=*/false, body, callLoc)
        ->value;
  }
};

} // namespace

/// The integer `bits` splat to `type`, a tile of integers of its width.
static Value splatBits(OpBuilder &b, Location l, RankedTensorType type,
                       const APInt &bits) {
  return arith::ConstantOp::create(b, l, DenseElementsAttr::get(type, bits));
}

/// How many encodings of float type `elem` are negative NaNs: those the
/// sign-dependent flip of `toSortKeys` orders before its most negative
/// number (-inf, or the largest negative finite number of a type without
/// infinities such as fp8e4nv), which it maps to that count.
static APInt negativeNaNs(FloatType elem) {
  const llvm::fltSemantics &semantics = elem.getFloatSemantics();
  APFloat lowest = APFloat::semanticsHasInf(semantics)
                       ? APFloat::getInf(semantics, /*Negative=*/true)
                       : APFloat::getLargest(semantics, /*Negative=*/true);
  return ~lowest.bitcastToAPInt();
}

/// Sort keys of a tile of floats: unsigned integers of their width in the
/// floats' order, NaN last. The bits with the sign bit flipped (numbers
/// from +0 up) or every bit flipped (negative ones) order every number, -0
/// before +0, with the negative NaNs first; less their count, which wraps
/// those past the positive NaNs. A network then compares keys with one
/// unsigned comparison, and `fromSortKeys` gives the same bits back.
static Value toSortKeys(OpBuilder &b, Location l, Value x) {
  auto type = llvm::cast<RankedTensorType>(x.getType());
  auto elem = dyn_cast<FloatType>(type.getElementType());
  if (!elem)
    return {};
  unsigned width = elem.getWidth();
  auto keyType = llvm::cast<RankedTensorType>(
      tile::withElementType(type, b.getIntegerType(width)));
  auto constant = [&](const APInt &v) { return splatBits(b, l, keyType, v); };
  Value bits = arith::BitcastOp::create(b, l, keyType, x);
  Value sign =
      arith::ShRSIOp::create(b, l, bits, constant(APInt(width, width - 1)));
  Value flip =
      arith::OrIOp::create(b, l, sign, constant(APInt::getSignMask(width)));
  Value ordered = arith::XOrIOp::create(b, l, bits, flip);
  return arith::SubIOp::create(b, l, ordered, constant(negativeNaNs(elem)));
}

/// The floats of element type `elem` whose sort keys are `keys`.
static Value fromSortKeys(OpBuilder &b, Location l, Value keys, Type elem) {
  auto keyType = llvm::cast<RankedTensorType>(keys.getType());
  unsigned width = keyType.getElementTypeBitWidth();
  auto constant = [&](const APInt &v) { return splatBits(b, l, keyType, v); };
  Value ordered = arith::AddIOp::create(
      b, l, keys, constant(negativeNaNs(llvm::cast<FloatType>(elem))));
  // All ones where the sign bit is set: a number from +0 up.
  Value positive =
      arith::ShRSIOp::create(b, l, ordered, constant(APInt(width, width - 1)));
  Value flip = arith::OrIOp::create(
      b, l,
      arith::XOrIOp::create(b, l, positive, constant(APInt::getAllOnes(width))),
      constant(APInt::getSignMask(width)));
  return arith::BitcastOp::create(b, l, tile::withElementType(keyType, elem),
                                  arith::XOrIOp::create(b, l, ordered, flip));
}

Value Generator::sortLastDim(Value x, bool descending, bool isUnsigned,
                             llvm::SMLoc callLoc, bool mergeOnly,
                             int64_t keep) {
  Location l = loc(callLoc);
  auto type = llvm::cast<RankedTensorType>(x.getType());
  int64_t n = type.getShape().back();
  int64_t steps = llvm::Log2_64(n);
  int64_t keepBits = keep ? llvm::Log2_64(keep) : steps;
  if (steps == 0)
    return x;
  // Floats are sorted as their keys (one integer comparison a swap, NaN
  // last without a test of its own).
  Value keys = toSortKeys(builder, l, x);
  Value sorted = keys ? keys : x;
  BitonicNetwork network{*this,
                         l,
                         callLoc,
                         getElementTypeOrSelf(sorted.getType()),
                         keys ? true : isUnsigned,
                         type.getRank() - 1};
  SmallVector<int64_t> shape(type.getShape().drop_back());
  shape.append(steps, 2);
  Value y = reshape(sorted, shape, l);
  // Blocks of 2^stage positions sorted in alternating directions, the last
  // stage one way (tl.bitonic_merge is that stage alone: it sorts a bitonic
  // row).
  for (int64_t stage = mergeOnly ? steps : 1; stage <= keepBits; ++stage)
    y = network.merge(y, steps, stage, descending);
  // The top `keep` (Triton's bitonic top-k): of two neighbouring sorted
  // blocks, one ascending and one descending, the larger of each pair of
  // positions are the block's largest and form a bitonic block, which one
  // merge sorts; until one block remains.
  for (int64_t bits = steps; bits > keepBits; --bits) {
    y = network.keepLarger(y, bits, keepBits);
    y = network.merge(y, bits - 1, keepBits, descending);
  }
  SmallVector<int64_t> result(type.getShape().drop_back());
  result.push_back(int64_t(1) << keepBits);
  y = reshape(y, result, l);
  return keys ? fromSortKeys(builder, l, y, type.getElementType()) : y;
}

FailureOr<TValue> Generator::builtinTopk(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Value> x = sortOperand(bind, qualified, 2);
  FailureOr<int64_t> k = bind.constInt(1);
  if (failed(x) || failed(k))
    return failure();
  auto type = llvm::cast<RankedTensorType>(x->getType());
  int64_t n = type.getShape().back();
  if (*k < 1 || *k > n || !llvm::isPowerOf2_64(uint64_t(*k)))
    return error(bind.locs[1])
           << qualified << " needs k a power of two of at most " << n
           << ", not " << *k;
  // The k largest, largest first.
  bool isUnsigned = bind.get(0).isUnsigned;
  return TValue::of(sortLastDim(*x, /*descending=*/true, isUnsigned, callLoc,
                                /*mergeOnly=*/false, *k),
                    isUnsigned);
}
