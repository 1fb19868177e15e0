//===- DotOp.cpp - tl.dot in the interpreter --------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// `tile.dot` (d = a[M, K] @ b[K, N] + c) with the precision the GPU must
// give: products accumulate in the result's type along k with one rounding
// per multiply-add (fma), starting from c. fp32 operands are rounded to
// tf32 (10 mantissa bits, to nearest with ties away, as cvt.rna.tf32.f32)
// for `input_precision = tf32`; for `tf32x3` each operand is split into a
// tf32 high part and a tf32 low part (the rounded remainder) and the
// result is c + (a_lo @ b_hi + a_hi @ b_lo + a_hi @ b_hi), the three
// products summed from zero first, as Triton (and tile-split-tf32x3)
// computes it. fp16, bf16 and fp8 products are exact in fp32. Integer
// products accumulate in the result's width.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

namespace {

/// A [rows, cols] matrix of doubles.
struct Matrix {
  int64_t rows, cols;
  std::vector<double> values;
  double at(int64_t r, int64_t c) const { return values[r * cols + c]; }
};

Matrix toMatrix(const Tile &tile, double (*convert)(double)) {
  Matrix m{tile.shape[0], tile.shape[1], {}};
  m.values.reserve(tile.elems.size());
  for (const Element &e : tile.elems)
    m.values.push_back(convert(e.f));
  return m;
}

double identity(double v) { return v; }

/// `v - roundTF32(v)` rounded to tf32: the low part of a tf32x3 split.
double lowTF32(double v) {
  return roundTF32(static_cast<float>(v - roundTF32(v)));
}

} // namespace

LogicalResult Executor::runDot(Operation *op) {
  auto dot = cast<tile::DotOp>(op);
  const Tile &a = get(dot.getA()), &b = get(dot.getB());
  Tile r = get(dot.getC());
  Type inType = getElementType(dot.getA().getType());
  Type accType = getElementType(dot.getType());
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];

  if (auto intType = dyn_cast<IntegerType>(accType)) {
    // Elements are held sign-extended; unsigned operands are their bytes.
    uint64_t mask = dot.getUnsignedOperands() ? 0xff : ~uint64_t(0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        Element &acc = r.elems[i * n + j];
        uint64_t sum = static_cast<uint64_t>(acc.i);
        for (int64_t kk = 0; kk < k; ++kk)
          sum += (static_cast<uint64_t>(a.elems[i * k + kk].i) & mask) *
                 (static_cast<uint64_t>(b.elems[kk * n + j].i) & mask);
        acc.i = wrapInt(sum, intType.getWidth());
      }
    set(dot.getResult(), std::move(r));
    return success();
  }

  const auto &sem = cast<FloatType>(accType).getFloatSemantics();
  bool isF32 = accType.isF32();
  // acc + sum_k x[i, k] * y[k, j] for every element, one fma at a time.
  auto accumulate = [&](const Matrix &x, const Matrix &y) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = r.elems[i * n + j].f;
        for (int64_t kk = 0; kk < k; ++kk) {
          if (isF32)
            acc = std::fmaf(static_cast<float>(x.at(i, kk)),
                            static_cast<float>(y.at(kk, j)),
                            static_cast<float>(acc));
          else
            acc = roundFloat(sem, std::fma(x.at(i, kk), y.at(kk, j), acc));
        }
        r.elems[i * n + j].f = acc;
      }
  };

  tile::InputPrecision precision = dot.getInputPrecision();
  if (!inType.isF32() || precision == tile::InputPrecision::IEEE) {
    accumulate(toMatrix(a, identity), toMatrix(b, identity));
  } else if (precision == tile::InputPrecision::TF32) {
    accumulate(toMatrix(a, roundTF32), toMatrix(b, roundTF32));
  } else {
    // The three products accumulate, smallest first, from zero; their sum
    // is then added to c once.
    Tile c = r;
    for (Element &e : r.elems)
      e.f = 0.0;
    Matrix aHi = toMatrix(a, roundTF32), bHi = toMatrix(b, roundTF32);
    accumulate(toMatrix(a, lowTF32), bHi);
    accumulate(aHi, toMatrix(b, lowTF32));
    accumulate(aHi, bHi);
    for (auto [sum, acc] : llvm::zip_equal(r.elems, c.elems))
      sum.f = static_cast<float>(sum.f + acc.f);
  }
  set(dot.getResult(), std::move(r));
  return success();
}
