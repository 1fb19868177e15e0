//===- SplitTf32x3.cpp - tf32x3 dots as three tf32 dots ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-split-tf32x3: an fp32 value x is the exact sum of
// hi = x with its low 13 mantissa bits cleared (a tf32 number) and
// lo = x - hi, so a @ b = hi(a) @ hi(b) + hi(a) @ lo(b) + lo(a) @ hi(b)
// + lo(a) @ lo(b); the last product is below fp32 rounding and is dropped.
// The three others are tf32 dots, accumulated smallest first into a zero
// tile, which is then added to the accumulator with an ordinary fp32 add:
// tensor cores round their fp32 sums less carefully, and over a long K loop
// that error would dominate.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/TensorCores.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILESPLITTF32X3
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// The tf32 part of `x` (low 13 mantissa bits cleared) and the rest.
static std::pair<Value, Value> splitTf32(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  auto intType = type.clone(b.getI32Type());
  Value bits = arith::BitcastOp::create(b, loc, intType, x);
  Value mask = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(intType, b.getI32IntegerAttr(~0x1fff)));
  Value hi = arith::BitcastOp::create(
      b, loc, type, arith::AndIOp::create(b, loc, bits, mask));
  Value lo = arith::SubFOp::create(b, loc, x, hi);
  return {hi, lo};
}

struct SplitTf32x3Pass
    : public tilec::tile::impl::TileSplitTf32x3Base<SplitTf32x3Pass> {
  using TileSplitTf32x3Base::TileSplitTf32x3Base;

  void runOnOperation() override {
    SmallVector<DotOp> dots;
    getOperation().walk([&](DotOp dot) {
      auto a = cast<RankedTensorType>(dot.getA().getType());
      auto c = cast<RankedTensorType>(dot.getC().getType());
      if (dot.getInputPrecision() == InputPrecision::TF32x3 &&
          a.getElementType().isF32() &&
          chooseMmaLayout(a, c, InputPrecision::TF32, numWarps,
                          TargetInfo::get(getOperation())))
        dots.push_back(dot);
    });
    for (DotOp dot : dots) {
      OpBuilder b(dot);
      Location loc = dot.getLoc();
      auto [aHi, aLo] = splitTf32(b, loc, dot.getA());
      auto [bHi, bLo] = splitTf32(b, loc, dot.getB());
      auto tf32 = InputPrecisionAttr::get(&getContext(), InputPrecision::TF32);
      auto type = cast<RankedTensorType>(dot.getType());
      Value zero = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(type, b.getF32FloatAttr(0.0f)));
      Value sum = DotOp::create(b, loc, type, aLo, bHi, zero, tf32);
      sum = DotOp::create(b, loc, type, aHi, bLo, sum, tf32);
      sum = DotOp::create(b, loc, type, aHi, bHi, sum, tf32);
      dot.replaceAllUsesWith(
          arith::AddFOp::create(b, loc, dot.getC(), sum).getResult());
      dot.erase();
    }
  }
};

} // namespace
