//===- TileBuilders.cpp - Tile computations several places build ----------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileBuilders.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilec::tile;

Value tilec::tile::buildAxisIndexIs(OpBuilder &b, Location loc,
                                    ArrayRef<int64_t> shape, int64_t axis,
                                    int64_t which) {
  Value idx = MakeRangeOp::create(
      b, loc, RankedTensorType::get({shape[axis]}, b.getI32Type()), 0,
      shape[axis]);
  // Size-1 dimensions inserted around it (expand_dims, not a reshape: the
  // layouts of the result then derive from the full tile's, and the index
  // is computed in place rather than converted).
  SmallVector<int64_t> ones{shape[axis]};
  for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
    if (d == axis)
      continue;
    ones.insert(ones.begin() + d, 1);
    idx = ExpandDimsOp::create(b, loc,
                               RankedTensorType::get(ones, b.getI32Type()), idx,
                               b.getI32IntegerAttr(d));
  }
  auto full = RankedTensorType::get(shape, b.getI32Type());
  if (ArrayRef<int64_t>(ones) != shape)
    idx = BroadcastOp::create(b, loc, full, idx);
  Value c = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(full, b.getI32IntegerAttr(which)));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, idx, c);
}

Value tilec::tile::buildSliceAlong(OpBuilder &b, Location loc, Value x,
                                   int64_t axis, int64_t which) {
  auto type = cast<RankedTensorType>(x.getType());
  Type elem = type.getElementType();
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  auto sliceOf = [&](Type e) -> Type {
    if (shape.empty())
      return e;
    return RankedTensorType::get(shape, e);
  };
  // Every slice of a splat (a zero accumulator) is the smaller splat.
  DenseElementsAttr splat;
  if (matchPattern(x, m_Constant(&splat)) && splat.isSplat()) {
    if (shape.empty())
      return arith::ConstantOp::create(
          b, loc, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
    return arith::ConstantOp::create(
        b, loc, splat.resizeSplat(cast<ShapedType>(sliceOf(elem))));
  }
  // Exact as integers: pointers as their addresses, floats as their bits,
  // narrow integers widened to 32 bits (the sum picks one element).
  bool isPtr = isa<PtrType>(elem);
  unsigned width = isPtr ? 64 : elem.getIntOrFloatBitWidth();
  auto wide = b.getIntegerType(width > 32 ? 64 : 32);
  auto wideType = type.clone(wide);
  Value xi = x;
  if (isPtr) {
    xi = PtrToIntOp::create(b, loc, wideType, x);
  } else {
    if (isa<FloatType>(elem))
      xi = arith::BitcastOp::create(b, loc, type.clone(b.getIntegerType(width)),
                                    xi);
    if (width < wide.getWidth())
      xi = arith::ExtUIOp::create(b, loc, wideType, xi);
  }
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(wideType, b.getIntegerAttr(wide, 0)));
  Value picked = arith::SelectOp::create(
      b, loc, buildAxisIndexIs(b, loc, type.getShape(), axis, which), xi, zero);
  Value v = ReduceOp::create(b, loc, sliceOf(wide), picked, uint32_t(axis),
                             ReduceKind::Sum);
  if (isPtr)
    return IntToPtrOp::create(b, loc, sliceOf(elem), v);
  if (width < wide.getWidth())
    v = arith::TruncIOp::create(b, loc, sliceOf(b.getIntegerType(width)), v);
  if (isa<FloatType>(elem))
    v = arith::BitcastOp::create(b, loc, sliceOf(elem), v);
  return v;
}

Value tilec::tile::buildStackLeading(OpBuilder &b, Location loc,
                                     ArrayRef<Value> parts) {
  Type part = parts.front().getType();
  SmallVector<int64_t> shape{int64_t(parts.size())};
  SmallVector<int64_t> one{1};
  if (auto tensor = dyn_cast<RankedTensorType>(part)) {
    llvm::append_range(shape, tensor.getShape());
    llvm::append_range(one, tensor.getShape());
  }
  Type elem = getElementTypeOrSelf(part);
  auto type = RankedTensorType::get(shape, elem);
  auto spread = [&](Value v) -> Value {
    if (isa<RankedTensorType>(v.getType()))
      v = ExpandDimsOp::create(b, loc, RankedTensorType::get(one, elem), v,
                               b.getI32IntegerAttr(0));
    else
      return SplatOp::create(b, loc, type, v);
    if (parts.size() == 1)
      return v;
    return BroadcastOp::create(b, loc, type, v);
  };
  // Every index starts as the first part; the others are selected in where
  // they differ from it.
  Value stacked = spread(parts.front());
  for (int64_t i = 1, e = int64_t(parts.size()); i < e; ++i)
    if (parts[i] != parts.front())
      stacked =
          arith::SelectOp::create(b, loc, buildAxisIndexIs(b, loc, shape, 0, i),
                                  spread(parts[i]), stacked);
  return stacked;
}
