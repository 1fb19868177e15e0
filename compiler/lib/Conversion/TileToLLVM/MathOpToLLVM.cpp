//===- MathOpToLLVM.cpp - Scalar math on NVPTX ------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers scalar `math` ops (tile ops have already been split into one op per
// register by the elementwise pattern) as Triton lowers them on NVIDIA GPUs:
//
//   x / y     = div.full.f32 for `/` (arith.divf marked afn; tl.div_rn is
//               the correctly rounded div.rn.f32 of the arith lowering)
//   exp(x)    = ex2.approx(x * log2(e))      exp2  = ex2.approx.ftz
//   sqrt      = sqrt.approx.ftz (tl.sqrt: math.sqrt marked afn; f64, and
//               tl.sqrt_rn, sqrt.rn)         rsqrt = rsqrt.approx (f64: 1/sqrt)
//   floor, ceil, trunc = cvt.rmi/rpi/rzi     absf, absi, fma as LLVM intrinsics
//   log, log2, sin, cos, erf, tanh = libdevice (__nv_logf, ...)
//   powf(x,y) = ex2.approx(y * lg2.approx(|x|)), with the sign of x for odd
//               integer y, NaN for negative x and non-integer y, and 1 for
//               y == 0 or x == 1
//
// f16 and bf16 are computed in f32 (except fma and
// abs) and rounded back. f64 has sqrt, rsqrt, abs, fma, floor, ceil and
// trunc as instructions; its transcendental functions call libdevice
// (__nv_exp, __nv_log, ...), as do scalar tile.extern_elementwise ops (the
// libdevice module of the language). The calls are to declarations; the PTX
// stage links CUDA's libdevice.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/StringSwitch.h"

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

/// A libdevice function of f64 values (`__nv_exp`).
static std::function<Value(OpBuilder &, Location, ValueRange)>
libdevice(StringRef symbol) {
  return [symbol = symbol.str()](OpBuilder &b, Location loc, ValueRange v) {
    return emitExternCall(b, loc, symbol, v[0].getType(), v);
  };
}

static Value emitExp2(OpBuilder &b, Location loc, Value x) {
  return LLVM::Exp2Op::create(b, loc, x);
}
/// exp2 as Triton computes tl.exp2 (libdevice's __nv_exp2f with denormals
/// flushed): one MUFU.EX2, without the scaling ex2.approx.f32 adds around it
/// for denormal results.
static Value emitExp2Ftz(OpBuilder &b, Location loc, Value x) {
  return nvvmUnary(b, loc, "llvm.nvvm.ex2.approx.ftz.f", x);
}
static Value emitLog2(OpBuilder &b, Location loc, Value x) {
  return nvvmUnary(b, loc, "llvm.nvvm.lg2.approx.f", x);
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
/// When \p applies is given, only the ops it accepts are lowered so.
template <typename OpTy>
struct FloatMathLowering : public OpConversionPattern<OpTy> {
  FloatMathLowering(TypeConverter &converter, MLIRContext *ctx, F32Fn fn,
                    F32Fn fn64, bool native16 = false,
                    std::function<bool(OpTy)> applies = nullptr)
      : OpConversionPattern<OpTy>(converter, ctx, /*benefit=*/2),
        fn(std::move(fn)), fn64(std::move(fn64)), native16(native16),
        applies(std::move(applies)) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op->getResult(0).getType();
    if (!isa<FloatType>(type))
      return rewriter.notifyMatchFailure(op, "tiles are split first");
    if (applies && !applies(op))
      return rewriter.notifyMatchFailure(op, "left to another lowering");
    Location loc = op.getLoc();
    SmallVector<Value> operands(adaptor.getOperands());
    if (type.isF32() || (native16 && (type.isF16() || type.isBF16()))) {
      rewriter.replaceOp(op, fn(rewriter, loc, operands));
      return success();
    }
    if (type.isF64()) {
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
  std::function<bool(OpTy)> applies;
};

/// A scalar tile.extern_elementwise: a call of its libdevice function.
struct ExternElementwiseOpLowering
    : public OpConversionPattern<tile::ExternElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(tile::ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isIntOrFloat())
      return rewriter.notifyMatchFailure(op, "tiles are split first");
    // The high halves of products are single instructions; calling them
    // from PTX directly spares Philox kernels the link.
    StringRef intrinsic = llvm::StringSwitch<StringRef>(op.getSymbol())
                              .Case("__nv_umulhi", "llvm.nvvm.mulhi.ui")
                              .Case("__nv_umul64hi", "llvm.nvvm.mulhi.ull")
                              .Case("__nv_mulhi", "llvm.nvvm.mulhi.i")
                              .Case("__nv_mul64hi", "llvm.nvvm.mulhi.ll")
                              .Default("");
    if (!intrinsic.empty()) {
      rewriter.replaceOpWithNewOp<LLVM::CallIntrinsicOp>(
          op, op.getType(), rewriter.getStringAttr(intrinsic),
          adaptor.getArgs());
      return success();
    }
    rewriter.replaceOp(op, emitExternCall(rewriter, op.getLoc(), op.getSymbol(),
                                          op.getType(), adaptor.getArgs()));
    return success();
  }
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
  F32Fn exp2 = unary(emitExp2Ftz);
  F32Fn sqrt = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    return LLVM::SqrtOp::create(b, loc, x);
  });
  F32Fn sqrtApprox = unary([](OpBuilder &b, Location loc, Value x) {
    return nvvmUnary(b, loc, "llvm.nvvm.sqrt.approx.ftz.f", x);
  });
  F32Fn rsqrt = unary([](OpBuilder &b, Location loc, Value x) {
    return nvvmUnary(b, loc, "llvm.nvvm.rsqrt.approx.f", x);
  });
  F32Fn rsqrt64 = unary([](OpBuilder &b, Location loc, Value x) -> Value {
    Value one = LLVM::ConstantOp::create(b, loc, b.getF64Type(),
                                         b.getF64FloatAttr(1.0));
    return LLVM::FDivOp::create(b, loc, one, LLVM::SqrtOp::create(b, loc, x));
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
  F32Fn fma = [](OpBuilder &b, Location loc, ValueRange v) -> Value {
    return LLVM::FMAOp::create(b, loc, v[0], v[1], v[2]);
  };
  F32Fn pow = [](OpBuilder &b, Location loc, ValueRange v) -> Value {
    return emitPow(b, loc, v[0], v[1]);
  };

  patterns.add<FloatMathLowering<math::ExpOp>>(converter, ctx, exp,
                                               libdevice("__nv_exp"));
  patterns.add<FloatMathLowering<math::Exp2Op>>(converter, ctx, exp2,
                                                libdevice("__nv_exp2"));
  // Triton's tl.sqrt (marked afn): sqrt.approx.ftz.f32, within 1 ulp for
  // normal results (subnormal ones flush to zero); f64 and tl.sqrt_rn,
  // correctly rounded.
  auto fastSqrt = [](math::SqrtOp op) {
    return bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn);
  };
  patterns.add<FloatMathLowering<math::SqrtOp>>(
      converter, ctx, sqrtApprox, sqrt, /*native16=*/false, fastSqrt);
  patterns.add<FloatMathLowering<math::SqrtOp>>(
      converter, ctx, sqrt, sqrt, /*native16=*/false,
      [fastSqrt](math::SqrtOp op) { return !fastSqrt(op); });
  patterns.add<FloatMathLowering<math::RsqrtOp>>(converter, ctx, rsqrt,
                                                 rsqrt64);
  patterns.add<FloatMathLowering<math::PowFOp>>(converter, ctx, pow,
                                                libdevice("__nv_pow"));
  auto addLibdevice = [&](auto op, StringRef f32, StringRef f64) {
    patterns.add<FloatMathLowering<decltype(op)>>(
        converter, ctx, libdevice(f32), libdevice(f64));
  };
  addLibdevice(math::LogOp(), "__nv_logf", "__nv_log");
  addLibdevice(math::Log2Op(), "__nv_log2f", "__nv_log2");
  addLibdevice(math::SinOp(), "__nv_sinf", "__nv_sin");
  addLibdevice(math::CosOp(), "__nv_cosf", "__nv_cos");
  addLibdevice(math::ErfOp(), "__nv_erff", "__nv_erf");
  addLibdevice(math::TanhOp(), "__nv_tanhf", "__nv_tanh");
  patterns.add<FloatMathLowering<math::AbsFOp>>(converter, ctx, abs, abs,
                                                /*native16=*/true);
  patterns.add<FloatMathLowering<math::FmaOp>>(converter, ctx, fma, fma,
                                               /*native16=*/true);
  patterns.add<FloatMathLowering<math::FloorOp>>(converter, ctx, floor, floor);
  patterns.add<FloatMathLowering<math::CeilOp>>(converter, ctx, ceil, ceil);
  patterns.add<FloatMathLowering<math::TruncOp>>(converter, ctx, trunc, trunc);
  // Triton's `/` (arith.divf marked afn): div.full.f32, within 2 ulp; f64,
  // and divisions without the mark (tl.div_rn), correctly rounded.
  F32Fn divFull = [](OpBuilder &b, Location loc, ValueRange v) -> Value {
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getF32Type(), b.getStringAttr("llvm.nvvm.div.full"), v)
        .getResult(0);
  };
  F32Fn fdiv = [](OpBuilder &b, Location loc, ValueRange v) -> Value {
    return LLVM::FDivOp::create(b, loc, v[0], v[1]);
  };
  patterns.add<FloatMathLowering<arith::DivFOp>>(
      converter, ctx, divFull, fdiv, /*native16=*/false, [](arith::DivFOp op) {
        return bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn);
      });
  patterns.add<AbsIOpLowering, ExternElementwiseOpLowering>(converter, ctx);
}
