//===- Fp8OpToLLVM.cpp - Conversions to and from fp8 ------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers arith.extf and arith.truncf whose source or result is an 8-bit float
// (f8E4M3FN = tl.float8e4nv, f8E5M2 = tl.float8e5), on tiles (per register)
// and on scalars. LLVM has no arithmetic on these formats, so the type
// converter stores them as i8 and the conversions are the sm_90 PTX `cvt`
// instructions, through inline assembly, one value at a time:
//
//   fp8 -> f16: cvt.rn.f16x2.{e4m3,e5m2}x2 (exact), then fpext (to f32, f64)
//     or fpext + fptrunc (to bf16, exact: every fp8 value is a bf16 value);
//   f16/bf16/f32/f64 -> fp8: to f32 first (exact, except from f64), then
//     cvt.rn.satfinite.{e4m3,e5m2}x2.f32, which rounds to nearest even and
//     saturates to the largest finite value, as Triton does.
//
// The packed instructions hold two values; the value converted is put in
// both lanes, so that the byte (half) read back is the right one whatever the
// packing order.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

bool tilec::isSupportedFp8Type(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// One-result inline assembly without side effects.
static Value inlineAsm(OpBuilder &b, Location loc, Type resultType,
                       ValueRange operands, StringRef text,
                       StringRef constraints) {
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, text, constraints,
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  return asmOp.getResult(0);
}

/// The PTX name of a supported fp8 format.
static StringRef fp8Name(Type type) {
  return isa<Float8E4M3FNType>(type) ? "e4m3" : "e5m2";
}

Value tilec::convertFp8(OpBuilder &b, Location loc, Value value, Type from,
                        Type to) {
  Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
  Type f16 = b.getF16Type(), f32 = b.getF32Type();
  if (isSupportedFp8Type(from)) {
    assert(value.getType() == i8 && "fp8 values are held as i8");
    // The byte in both lanes of a .b16: (x << 8) | x.
    Value wide = LLVM::ZExtOp::create(b, loc, i16, value);
    Value both = LLVM::OrOp::create(
        b, loc, wide,
        LLVM::ShlOp::create(b, loc, wide,
                            LLVM::ConstantOp::create(
                                b, loc, i16, b.getIntegerAttr(i16, 8))));
    std::string text =
        ("cvt.rn.f16x2." + fp8Name(from) + "x2 $0, $1;").str();
    Value pair = inlineAsm(b, loc, i32, both, text, "=r,h");
    Value half = LLVM::BitcastOp::create(
        b, loc, f16, LLVM::TruncOp::create(b, loc, i16, pair));
    if (isSupportedFp8Type(to)) // fp8 -> fp8 (not built by the front end)
      return convertFp8(b, loc, castScalar(b, loc, half, f32), f32, to);
    return castScalar(b, loc, half, to);
  }
  assert(isSupportedFp8Type(to) && "one side must be fp8");
  Value single = castScalar(b, loc, value, f32);
  std::string text =
      ("cvt.rn.satfinite." + fp8Name(to) + "x2.f32 $0, $1, $1;").str();
  Value pair = inlineAsm(b, loc, i16, {single}, text, "=h,f");
  return LLVM::TruncOp::create(b, loc, i8, pair);
}

namespace {

/// arith.extf / arith.truncf from or to fp8, on a tile with a layout or on a
/// scalar: one conversion per register.
template <typename OpTy>
struct Fp8CastLowering : public OpConversionPattern<OpTy> {
  Fp8CastLowering(TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern<OpTy>(converter, ctx, /*benefit=*/20) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type srcType = op.getIn().getType(), dstType = op.getType();
    Type from = getElementTypeOrSelf(srcType);
    Type to = getElementTypeOrSelf(dstType);
    if (!isSupportedFp8Type(from) && !isSupportedFp8Type(to))
      return failure();
    if (isa<RankedTensorType>(dstType) && !getLayout(dstType))
      return failure();
    if constexpr (std::is_same_v<OpTy, arith::TruncFOp>) {
      std::optional<arith::RoundingMode> mode = op.getRoundingmode();
      if (mode && *mode != arith::RoundingMode::to_nearest_even)
        return op.emitOpError("only rounds to nearest even when converting "
                              "to ")
               << to;
    }
    Type resultType = this->getTypeConverter()->convertType(dstType);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> regs;
    for (Value reg : unpackRegisters(rewriter, loc, adaptor.getIn()))
      regs.push_back(convertFp8(rewriter, loc, reg, from, to));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, regs));
    return success();
  }
};

} // namespace

void tilec::populateFp8OpToLLVMPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<Fp8CastLowering<arith::ExtFOp>, Fp8CastLowering<arith::TruncFOp>>(
      converter, patterns.getContext());
}
