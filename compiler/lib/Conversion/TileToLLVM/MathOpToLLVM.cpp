//===- MathOpToLLVM.cpp - Scalar math on NVPTX ------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers scalar `math` ops (tile ops have already been split into one op per
// register by the elementwise pattern) to what NVPTX implements, without
// libdevice:
//
//   exp(x)    = ex2.approx(x * log2(e))      exp2  = ex2.approx
//   log(x)    = lg2.approx(x) * ln(2)        log2  = lg2.approx
//   sqrt      = sqrt.rn                      rsqrt = rsqrt.approx (f64: 1/sqrt)
//   sin, cos  = sin.approx, cos.approx       floor, ceil, trunc =
//   cvt.rmi/rpi/rzi absf, absi, fma                          as LLVM intrinsics
//   erf       = series below 0.5, Abramowitz-Stegun 7.1.26 above (|error| <
//               1.5e-7)
//   powf(x,y) = ex2.approx(y * lg2.approx(|x|)), with the sign of x for odd
//               integer y, NaN for negative x and non-integer y, and 1 for
//               y == 0 or x == 1
//
// f16 and bf16 are computed in f32 (except fma and abs) and rounded back.
// f64 supports sqrt, rsqrt, abs, fma, floor, ceil and trunc; its
// transcendental functions are rejected with an error (no approximate f64
// instructions exist; a software implementation is future work).
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

namespace {

/// An f32 constant.
static Value f32Constant(OpBuilder &b, Location loc, double v) {
  return LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(v));
}

/// A call to the NVVM intrinsic `name` on one f32.
static Value nvvmUnary(OpBuilder &b, Location loc, StringRef name, Value x) {
  return LLVM::CallIntrinsicOp::create(b, loc, x.getType(),
                                       b.getStringAttr(name), ValueRange{x})
      .getResult(0);
}

static Value emitExp2(OpBuilder &b, Location loc, Value x) {
  return LLVM::Exp2Op::create(b, loc, x);
}
static Value emitLog2(OpBuilder &b, Location loc, Value x) {
  return nvvmUnary(b, loc, "llvm.nvvm.lg2.approx.f", x);
}

/// erf on f32 (see the file comment).
static Value emitErf(OpBuilder &b, Location loc, Value x) {
  Value ax = LLVM::FAbsOp::create(b, loc, x);
  Value x2 = LLVM::FMulOp::create(b, loc, x, x);
  // Series: 2/sqrt(pi) * sum_k (-1)^k x^(2k+1) / (k! (2k+1)), k <= 5.
  const double series[] = {1.1283791670955126,   -0.37612638903183754,
                           0.11283791670955126,  -0.026866170645131252,
                           0.005223977625442188, -0.0008548327023450853};
  Value poly = f32Constant(b, loc, series[5]);
  for (int i = 4; i >= 0; --i)
    poly =
        LLVM::FMAOp::create(b, loc, poly, x2, f32Constant(b, loc, series[i]));
  Value small = LLVM::FMulOp::create(b, loc, x, poly);
  // 1 - (a1 t + ... + a5 t^5) exp(-x^2), t = 1 / (1 + p |x|).
  const double a[] = {0.254829592, -0.284496736, 1.421413741, -1.453152027,
                      1.061405429};
  Value t = LLVM::FDivOp::create(
      b, loc, f32Constant(b, loc, 1.0),
      LLVM::FMAOp::create(b, loc, f32Constant(b, loc, 0.3275911), ax,
                          f32Constant(b, loc, 1.0)));
  Value q = f32Constant(b, loc, a[4]);
  for (int i = 3; i >= 0; --i)
    q = LLVM::FMAOp::create(b, loc, q, t, f32Constant(b, loc, a[i]));
  q = LLVM::FMulOp::create(b, loc, q, t);
  Value e =
      emitExp2(b, loc,
               LLVM::FMulOp::create(b, loc, LLVM::FNegOp::create(b, loc, x2),
                                    f32Constant(b, loc, M_LOG2E)));
  Value large = LLVM::FSubOp::create(b, loc, f32Constant(b, loc, 1.0),
                                     LLVM::FMulOp::create(b, loc, q, e));
  large = LLVM::CopySignOp::create(b, loc, large, x);
  Value isSmall = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, ax,
                                       f32Constant(b, loc, 0.5));
  return LLVM::SelectOp::create(b, loc, isSmall, small, large);
}

/// powf on f32 (see the file comment).
static Value emitPow(OpBuilder &b, Location loc, Value x, Value y) {
  Value ax = LLVM::FAbsOp::create(b, loc, x);
  Value r =
      emitExp2(b, loc, LLVM::FMulOp::create(b, loc, y, emitLog2(b, loc, ax)));
  Value yIsInt = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq,
                                      LLVM::FFloorOp::create(b, loc, y), y);
  Value half = LLVM::FMulOp::create(b, loc, y, f32Constant(b, loc, 0.5));
  Value yIsOdd = LLVM::AndOp::create(
      b, loc, yIsInt,
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::one,
                           LLVM::FFloorOp::create(b, loc, half), half));
  Value negative = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, x,
                                        f32Constant(b, loc, 0.0));
  Value nan = f32Constant(b, loc, std::nan(""));
  Value signedR = LLVM::SelectOp::create(b, loc, yIsOdd,
                                         LLVM::FNegOp::create(b, loc, r), r);
  Value negResult = LLVM::SelectOp::create(b, loc, yIsInt, signedR, nan);
  r = LLVM::SelectOp::create(b, loc, negative, negResult, r);
  Value one = f32Constant(b, loc, 1.0);
  Value trivial = LLVM::OrOp::create(
      b, loc,
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq, y,
                           f32Constant(b, loc, 0.0)),
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq, x, one));
  return LLVM::SelectOp::create(b, loc, trivial, one, r);
}

/// Computes an f32 function of `operands` (all of one float type): f16 and
/// bf16 are extended and the result rounded back; f64 is passed as is.
using F32Fn = std::function<Value(OpBuilder &, Location, ValueRange)>;

/// Lowers a scalar math op through an f32 implementation (`fn`) and,
/// optionally, an f64 one (`fn64`, null if unsupported).
template <typename OpTy>
struct FloatMathLowering : public OpConversionPattern<OpTy> {
  FloatMathLowering(TypeConverter &converter, MLIRContext *ctx, F32Fn fn,
                    F32Fn fn64, bool native16 = false)
      : OpConversionPattern<OpTy>(converter, ctx, /*benefit=*/2),
        fn(std::move(fn)), fn64(std::move(fn64)), native16(native16) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    if (!isa<FloatType>(type))
      return rewriter.notifyMatchFailure(op, "tiles are split first");
    Location loc = op.getLoc();
    SmallVector<Value> operands(adaptor.getOperands());
    if (type.isF32() || (native16 && (type.isF16() || type.isBF16()))) {
      rewriter.replaceOp(op, fn(rewriter, loc, operands));
      return success();
    }
    if (type.isF64()) {
      if (!fn64)
        return op.emitOpError("on f64 is not supported (no libdevice); "
                              "convert to f32 first");
      rewriter.replaceOp(op, fn64(rewriter, loc, operands));
      return success();
    }
    if (!type.isF16() && !type.isBF16())
      return op.emitOpError("on ") << type << " is not supported";
    for (Value &operand : operands)
      operand =
          LLVM::FPExtOp::create(rewriter, loc, rewriter.getF32Type(), operand);
    Value result = fn(rewriter, loc, operands);
    rewriter.replaceOp(op,
                       LLVM::FPTruncOp::create(rewriter, loc, type, result));
    return success();
  }

  F32Fn fn, fn64;
  bool native16;
};

/// math.absi on integers.
struct AbsIOpLowering : public OpConversionPattern<math::AbsIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(math::AbsIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "tiles are split first");
    rewriter.replaceOpWithNewOp<LLVM::AbsOp>(op, op.getType(),
                                             adaptor.getOperand(),
                                             /*is_int_min_poison=*/false);
    return success();
  }
};

} // namespace

void tilec::populateMathOpToLLVMPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  auto unary = [](auto build) -> F32Fn {
    return [build](OpBuilder &b, Location loc, ValueRange v) -> Value {
      return build(b, loc, v[0]);
    };
  };
  F32Fn exp = unary([](OpBuilder &b, Location loc, Value x) {
    return emitExp2(
        b, loc, LLVM::FMulOp::create(b, loc, x, f32Constant(b, loc, M_LOG2E)));
  });
  F32Fn exp2 = unary(emitExp2);
  F32Fn log = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    return LLVM::FMulOp::create(b, loc, emitLog2(b, loc, x),
                                f32Constant(b, loc, M_LN2));
  });
  F32Fn log2 = unary(emitLog2);
  F32Fn sqrt = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    return LLVM::SqrtOp::create(b, loc, x);
  });
  F32Fn rsqrt = unary([](OpBuilder &b, Location loc, Value x) {
    return nvvmUnary(b, loc, "llvm.nvvm.rsqrt.approx.f", x);
  });
  F32Fn rsqrt64 = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    Value one = LLVM::ConstantOp::create(b, loc, b.getF64Type(),
                                         b.getF64FloatAttr(1.0));
    return LLVM::FDivOp::create(b, loc, one, LLVM::SqrtOp::create(b, loc, x));
  });
  F32Fn sin = unary([](OpBuilder &b, Location loc, Value x) {
    return nvvmUnary(b, loc, "llvm.nvvm.sin.approx.f", x);
  });
  F32Fn cos = unary([](OpBuilder &b, Location loc, Value x) {
    return nvvmUnary(b, loc, "llvm.nvvm.cos.approx.f", x);
  });
  F32Fn abs = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    return LLVM::FAbsOp::create(b, loc, x);
  });
  F32Fn floor = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    return LLVM::FFloorOp::create(b, loc, x);
  });
  F32Fn ceil = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    return LLVM::FCeilOp::create(b, loc, x);
  });
  F32Fn trunc = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    return LLVM::FTruncOp::create(b, loc, x);
  });
  F32Fn erf = unary(emitErf);
  F32Fn fma = [](OpBuilder &b, Location loc, ValueRange v) -> Value {
    return LLVM::FMAOp::create(b, loc, v[0], v[1], v[2]);
  };
  F32Fn pow = [](OpBuilder &b, Location loc, ValueRange v) -> Value {
    return emitPow(b, loc, v[0], v[1]);
  };

  patterns.add<FloatMathLowering<math::ExpOp>>(converter, ctx, exp, nullptr);
  patterns.add<FloatMathLowering<math::Exp2Op>>(converter, ctx, exp2, nullptr);
  patterns.add<FloatMathLowering<math::LogOp>>(converter, ctx, log, nullptr);
  patterns.add<FloatMathLowering<math::Log2Op>>(converter, ctx, log2, nullptr);
  patterns.add<FloatMathLowering<math::SqrtOp>>(converter, ctx, sqrt, sqrt);
  patterns.add<FloatMathLowering<math::RsqrtOp>>(converter, ctx, rsqrt,
                                                 rsqrt64);
  patterns.add<FloatMathLowering<math::SinOp>>(converter, ctx, sin, nullptr);
  patterns.add<FloatMathLowering<math::CosOp>>(converter, ctx, cos, nullptr);
  patterns.add<FloatMathLowering<math::ErfOp>>(converter, ctx, erf, nullptr);
  patterns.add<FloatMathLowering<math::PowFOp>>(converter, ctx, pow, nullptr);
  patterns.add<FloatMathLowering<math::AbsFOp>>(converter, ctx, abs, abs,
                                                /*native16=*/true);
  patterns.add<FloatMathLowering<math::FmaOp>>(converter, ctx, fma, fma,
                                               /*native16=*/true);
  patterns.add<FloatMathLowering<math::FloorOp>>(converter, ctx, floor, floor);
  patterns.add<FloatMathLowering<math::CeilOp>>(converter, ctx, ceil, ceil);
  patterns.add<FloatMathLowering<math::TruncOp>>(converter, ctx, trunc, trunc);
  patterns.add<AbsIOpLowering>(converter, ctx);
}
