//===- DotScaled.cpp - tl.dot_scaled on tile.dot ----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tl.dot_scaled, the product of two microscaled (OCP MX) operands, as Triton
// computes it on GPUs without native microscaled products (sm_90): each
// operand is decoded to bf16 (fp16 when either operand's format is fp16),
// multiplied by its e8m0 scales, 2^(s - 127) for each group of K / scale_K
// elements along K (NaN where s = 0xFF, unless fast_math), or by its e4m3
// scales (nvfp4's) as they are, and the two go to
// tile.dot with an fp32 accumulator. The decoding is exact: fp4 (e2m1, two
// to a byte, the first element in the low nibble), fp8 and 16-bit values
// are representable in bf16/fp16, and so are their products with a power of
// two unless they leave the range of the compute type, and the products of
// fp4 and fp8 values with an e4m3 factor (at most 8 significant bits).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tilec;

namespace {

/// An operand format of tl.dot_scaled.
enum class MxFormat { E2M1, E4M3, E5M2, BF16, FP16 };

/// One operand of tl.dot_scaled, as bound.
struct MxOperand {
  Value value;
  MxFormat format;
  /// Packed along K (e2m1 only may be packed along M or N instead).
  bool kPack;
  /// 0 for the left-hand side ([M, K]), 1 for the right ([K, N]).
  unsigned index;
  /// 1 when batched ([B, M, K] and [B, K, N]), else 0: the dimension of
  /// the matrices' rows.
  int64_t batchDims;

  /// The dimension an e2m1 operand holds two values a byte along: K (the
  /// last of the lhs, the first of the matrix dimensions of the rhs), or
  /// M / N.
  int64_t packedDim() const {
    return batchDims + ((index == 0) == kPack ? 1 : 0);
  }
};

} // namespace

static std::optional<MxFormat> mxFormatNamed(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<MxFormat>>(name)
      .Case("e2m1", MxFormat::E2M1)
      .Case("e4m3", MxFormat::E4M3)
      .Case("e5m2", MxFormat::E5M2)
      .Case("bf16", MxFormat::BF16)
      .Case("fp16", MxFormat::FP16)
      .Default(std::nullopt);
}

/// The element type an operand of `format` arrives as (e2m1: the uint8 that
/// packs two), and the unsigned integer type that may stand for it.
static std::pair<Type, Type> mxStorageTypes(OpBuilder &b, MxFormat format) {
  switch (format) {
  case MxFormat::E2M1:
    return {b.getI8Type(), b.getI8Type()};
  case MxFormat::E4M3:
    return {b.getType<Float8E4M3FNType>(), b.getI8Type()};
  case MxFormat::E5M2:
    return {b.getType<Float8E5M2Type>(), b.getI8Type()};
  case MxFormat::BF16:
    return {b.getBF16Type(), b.getI16Type()};
  case MxFormat::FP16:
    return {b.getF16Type(), b.getI16Type()};
  }
  llvm_unreachable("unknown format");
}

/// Repeats every element of `v` `factor` times along `dim`: [.., n, ..]
/// becomes [.., n * factor, ..].
static Value repeatEach(Generator &gen, Value v, int64_t dim, int64_t factor,
                        Location l) {
  auto type = llvm::cast<RankedTensorType>(v.getType());
  SmallVector<int64_t> spread(type.getShape());
  spread.insert(spread.begin() + dim + 1, factor);
  Value expanded = gen.expandDims(v, dim + 1, l);
  Value broadcast = tile::BroadcastOp::create(
      gen.builder, l, RankedTensorType::get(spread, type.getElementType()),
      expanded);
  SmallVector<int64_t> merged(type.getShape());
  merged[dim] *= factor;
  return gen.reshape(broadcast, merged, l);
}

/// Decodes a tile of e2m1 codes (the low four bits of each i8) to `compute`
/// (bf16 or fp16) exactly: magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 and a sign.
static Value decodeE2M1(Generator &gen, Value codes, FloatType compute,
                        Location l) {
  OpBuilder &b = gen.builder;
  auto type = llvm::cast<RankedTensorType>(codes.getType());
  auto i16 = RankedTensorType::get(type.getShape(), b.getI16Type());
  auto c = [&](int64_t v) { return gen.constant(v, b.getI16Type(), i16, l); };
  Value wide = arith::ExtUIOp::create(b, l, i16, codes);
  Value magnitude = arith::AndIOp::create(b, l, wide, c(7));
  Value sign = arith::ShLIOp::create(
      b, l, arith::AndIOp::create(b, l, wide, c(8)), c(12));
  // The mantissa bits of the compute type, and the bits of 0.5 in it.
  int64_t mantissa = compute.getFPMantissaWidth() - 1;
  int64_t half = compute.isBF16() ? 0x3F00 : 0x3800;
  // A normal e2m1 value e.m (e in 1..3) is 2^(e - 1) * 1.m: its magnitude
  // code shifted into the mantissa's top bit, above the exponent of 0.5.
  Value normal = arith::AddIOp::create(
      b, l, arith::ShLIOp::create(b, l, magnitude, c(mantissa - 1)), c(half));
  Value subnormal = arith::SelectOp::create(
      b, l,
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, magnitude, c(1)),
      c(half), c(0));
  Value bits = arith::SelectOp::create(
      b, l,
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, magnitude, c(2)),
      normal, subnormal);
  bits = arith::OrIOp::create(b, l, bits, sign);
  return arith::BitcastOp::create(
      b, l, RankedTensorType::get(type.getShape(), compute), bits);
}

/// Decodes operand `op` to a tile of `compute` of its logical shape ([M, K]
/// or [K, N]).
static Value decodeOperand(Generator &gen, const MxOperand &op,
                           FloatType compute, Location l) {
  OpBuilder &b = gen.builder;
  auto type = llvm::cast<RankedTensorType>(op.value.getType());
  Type elem = type.getElementType();
  if (op.format != MxFormat::E2M1) {
    Type stored = mxStorageTypes(b, op.format).first;
    Value v = op.value;
    if (elem != stored)
      v = arith::BitcastOp::create(
          b, l, RankedTensorType::get(type.getShape(), stored), v);
    return gen.cast(v, compute, l);
  }
  // Two codes a byte, the first in the low nibble; the pair lies along the
  // packed dimension.
  int64_t packedDim = op.packedDim();
  // The bytes spread to [..., r, c, 2] (one conversion of bytes, not two of
  // the decoded halves), shifted by 0 and 4 along the pair, decoded.
  SmallVector<int64_t> shape(type.getShape());
  int64_t rank = type.getRank();
  SmallVector<int64_t> pairShape(shape);
  pairShape.push_back(2);
  auto pairType = RankedTensorType::get(pairShape, elem);
  Value bytes = tile::BroadcastOp::create(b, l, pairType,
                                          gen.expandDims(op.value, rank, l));
  Value half = tile::MakeRangeOp::create(
      b, l, RankedTensorType::get({2}, b.getI32Type()), 0, 2);
  for (int64_t d = 0; d < rank; ++d)
    half = gen.expandDims(half, 0, l);
  SmallVector<int64_t> halfShape(rank, 1);
  halfShape.push_back(2);
  half = arith::TruncIOp::create(b, l, RankedTensorType::get(halfShape, elem),
                                 half);
  Value shift = arith::MulIOp::create(
      b, l, tile::BroadcastOp::create(b, l, pairType, half),
      gen.constant(4, elem, pairType, l));
  Value codes =
      arith::AndIOp::create(b, l, arith::ShRUIOp::create(b, l, bytes, shift),
                            gen.constant(15, elem, pairType, l));
  Value pairs = decodeE2M1(gen, codes, compute, l);
  if (packedDim == rank - 2) {
    // Each pair next to its byte's row: [..., r, 2, c].
    SmallVector<int32_t> order;
    for (int32_t d = 0; d < rank - 1; ++d)
      order.push_back(d);
    order.push_back(rank);
    order.push_back(rank - 1);
    SmallVector<int64_t> pairsShape(shape);
    pairsShape.insert(pairsShape.begin() + rank - 1, 2);
    pairs =
        tile::TransOp::create(b, l, RankedTensorType::get(pairsShape, compute),
                              pairs, b.getDenseI32ArrayAttr(order));
  }
  shape[packedDim] *= 2;
  return gen.reshape(pairs, shape, l);
}

FailureOr<TValue> Generator::builtinDotScaled(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  // Parameters: lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc,
  // fast_math, lhs_k_pack, rhs_k_pack, out_dtype.
  MxOperand ops[2];
  for (unsigned i = 0; i < 2; ++i) {
    unsigned param = 3 * i;
    FailureOr<Value> v = bind.tile(param);
    FailureOr<std::string> formatName = bind.constString(param + 2);
    FailureOr<bool> kPack = bind.has(8 + i) ? bind.constBool(8 + i) : true;
    if (failed(v) || failed(formatName) || failed(kPack))
      return failure();
    std::optional<MxFormat> format = mxFormatNamed(*formatName);
    if (!format)
      return error(bind.locs[param + 2])
             << "the format of " << qualified
             << " must be \"e2m1\", \"e4m3\", \"e5m2\", \"bf16\" or "
                "\"fp16\", not \""
             << *formatName << "\"";
    auto type = llvm::cast<RankedTensorType>(v->getType());
    if (type.getRank() != 2 && type.getRank() != 3)
      return error(bind.locs[param])
             << qualified << " needs 2-D (or 3-D, batched) operands, not "
             << bind.get(param).describe();
    auto [stored, integer] = mxStorageTypes(builder, *format);
    Type elem = type.getElementType();
    bool asInteger = elem == integer && bind.get(param).isUnsigned;
    if (*format == MxFormat::E2M1 ? !asInteger : elem != stored && !asInteger)
      return error(bind.locs[param])
             << "an operand of " << qualified << " in format \"" << *formatName
             << "\" must be a tile of "
             << (*format == MxFormat::E2M1
                     ? std::string("uint8 (two fp4 values a byte)")
                     : typeName(stored) + " or " + typeName(integer, true))
             << ", not " << bind.get(param).describe();
    if (!*kPack && *format != MxFormat::E2M1)
      return error(bind.locs[8 + i])
             << "only e2m1 operands of " << qualified
             << " may be packed along a dimension other than K";
    ops[i] = {*v, *format, *kPack, i, type.getRank() - 2};
  }
  if (ops[0].batchDims != ops[1].batchDims)
    return error(callLoc) << qualified << " needs operands of one rank, not "
                          << bind.get(0).describe() << " and "
                          << bind.get(3).describe();
  int64_t batchDims = ops[0].batchDims;

  // The logical shapes: e2m1 holds two values a byte along its packed
  // dimension.
  auto shapeOf = [](const MxOperand &op) {
    auto type = llvm::cast<RankedTensorType>(op.value.getType());
    SmallVector<int64_t> shape(type.getShape());
    if (op.format == MxFormat::E2M1)
      shape[op.packedDim()] *= 2;
    return shape;
  };
  SmallVector<int64_t> lhsShape = shapeOf(ops[0]), rhsShape = shapeOf(ops[1]);
  // The batch dimension (when batched), then the matrices'.
  SmallVector<int64_t> batch(lhsShape.begin(), lhsShape.begin() + batchDims);
  if (!llvm::equal(batch, ArrayRef(rhsShape).take_front(batchDims)))
    return error(callLoc) << qualified << ": the batch dimensions ("
                          << lhsShape[0] << " and " << rhsShape[0]
                          << ") must be equal";
  int64_t m = lhsShape[batchDims], k = lhsShape[batchDims + 1],
          n = rhsShape[batchDims + 1];
  if (rhsShape[batchDims] != k)
    return error(callLoc) << qualified
                          << ": the operands hold different numbers of "
                             "elements along K: "
                          << k << " in " << bind.get(0).describe() << " and "
                          << rhsShape[batchDims] << " in "
                          << bind.get(3).describe();
  if (m < 16 || n < 16 || k < 16)
    return error(callLoc) << qualified
                          << " needs M, N and K of at least 16, not M = " << m
                          << ", N = " << n << ", K = " << k;

  FloatType compute =
      ops[0].format == MxFormat::FP16 || ops[1].format == MxFormat::FP16
          ? FloatType(builder.getF16Type())
          : FloatType(builder.getBF16Type());
  FailureOr<bool> fastMath = bind.has(7) ? bind.constBool(7) : false;
  if (failed(fastMath))
    return failure();

  Value operands[2];
  for (unsigned i = 0; i < 2; ++i) {
    Value v = decodeOperand(*this, ops[i], compute, l);
    unsigned param = 3 * i + 1;
    if (!bind.has(param)) {
      operands[i] = v;
      continue;
    }
    // Scales: [M, K / group] for the lhs, [N, K / group] for the rhs (each
    // after the batch dimension when batched), one e8m0 exponent (uint8) or
    // one e4m3 factor (float8e4nv, NVIDIA's nvfp4 scales) each.
    FailureOr<Value> scale = bind.tile(param);
    if (failed(scale))
      return failure();
    auto st = llvm::cast<RankedTensorType>(scale->getType());
    int64_t rows = i == 0 ? m : n;
    bool e8m0 = st.getElementType().isInteger(8) && bind.get(param).isUnsigned;
    bool e4m3 = isa<Float8E4M3FNType>(st.getElementType());
    if (!(e8m0 || e4m3) || st.getRank() != 2 + batchDims ||
        !llvm::equal(st.getShape().take_front(batchDims), batch) ||
        st.getDimSize(batchDims) != rows ||
        k % st.getDimSize(batchDims + 1) != 0)
      return error(bind.locs[param])
             << "the scales of " << qualified << "'s "
             << (i == 0 ? "lhs" : "rhs")
             << " must be a tile of uint8 (e8m0) or float8e4nv (e4m3) of "
             << "shape [" << (batchDims ? std::to_string(batch[0]) + ", " : "")
             << rows << ", K / group] with K = " << k << ", not "
             << bind.get(param).describe();
    int64_t groups = st.getDimSize(batchDims + 1), group = k / groups;
    Value s = *scale;
    if (i == 1) {
      // [..., K / group, N], as the rhs.
      SmallVector<int64_t> shape(batch);
      shape.append({groups, n});
      auto order = batchDims ? SmallVector<int32_t>{0, 2, 1}
                             : SmallVector<int32_t>{1, 0};
      s = tile::TransOp::create(
          builder, l, RankedTensorType::get(shape, st.getElementType()), s,
          builder.getDenseI32ArrayAttr(order));
    }
    auto sType = llvm::cast<RankedTensorType>(s.getType());
    int64_t kDim = batchDims + (i == 0 ? 1 : 0);
    if (e4m3) {
      // The factor itself, exact in bf16 and fp16 (NaN stays NaN).
      operands[i] = arith::MulFOp::create(
          builder, l, v,
          repeatEach(*this, cast(s, compute, l), kDim, group, l));
      continue;
    }
    // 2^(s - 127): s as the exponent field of the compute type (bf16), or
    // of fp32 rounded to fp16.
    Type wideInt =
        compute.isBF16() ? builder.getI16Type() : builder.getI32Type();
    Type wideFloat =
        compute.isBF16() ? Type(compute) : Type(builder.getF32Type());
    auto wideIntType = sType.clone(wideInt);
    Value exponent = arith::ShLIOp::create(
        builder, l, arith::ExtUIOp::create(builder, l, wideIntType, s),
        constant(compute.isBF16() ? 7 : 23, wideInt, wideIntType, l));
    Value factor = cast(
        arith::BitcastOp::create(builder, l, sType.clone(wideFloat), exponent),
        compute, l);
    if (!*fastMath) {
      // 0xFF is NaN: a NaN factor makes its whole group NaN, as Triton's
      // select does, at the cost of one select per scale.
      Value isNaN =
          arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, s,
                                constant(-1, builder.getI8Type(), sType, l));
      Value nan = arith::ConstantOp::create(
          builder, l,
          DenseElementsAttr::get(llvm::cast<RankedTensorType>(factor.getType()),
                                 APFloat::getNaN(compute.getFloatSemantics())));
      factor = arith::SelectOp::create(builder, l, isNaN, nan, factor);
    }
    Value scaled = arith::MulFOp::create(
        builder, l, v, repeatEach(*this, factor, kDim, group, l));
    operands[i] = scaled;
  }

  // The accumulator and result: fp32.
  if (bind.has(10)) {
    FailureOr<Type> out = bind.dtype(10);
    if (failed(out))
      return failure();
    if (!out->isF32())
      return error(bind.locs[10]) << "'out_dtype' of " << qualified
                                  << " must be fp32, not " << typeName(*out);
  }
  SmallVector<int64_t> resultShape(batch);
  resultShape.append({m, n});
  auto resultType = RankedTensorType::get(resultShape, builder.getF32Type());
  if (failed(checkTileShape(resultShape, callLoc)))
    return failure();
  Value acc;
  if (bind.has(6)) {
    const TValue &c = bind.get(6);
    if (c.tileType() != resultType)
      return error(bind.locs[6]) << "the accumulator of " << qualified
                                 << " must be a " << shapeString(resultShape)
                                 << " tile of fp32, not " << c.describe();
    acc = c.value;
  } else {
    acc = constant(0, builder.getF32Type(), resultType, l);
  }
  return TValue::of(tile::DotOp::create(
      builder, l, resultType, operands[0], operands[1], acc,
      tile::InputPrecisionAttr::get(builder.getContext(),
                                    tile::InputPrecision::IEEE)));
}
