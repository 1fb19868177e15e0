//===- ElementwiseOpToLLVM.cpp - Register-by-register tile ops --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers the tile ops that act on each element independently: splats,
// ranges, pointer offsets and casts, splat constants, and every elementwise
// `arith` or `math` op on tiles (and `arith.select`,
// `tile.extern_elementwise`), which is re-created once per register on scalars
// and then lowered by the upstream arith patterns or tilec's math patterns.
// Scalar operands of such ops (the condition of a select on tiles) are used by
// every register.
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

namespace {

/// tile.splat: every register holds the scalar.
struct SplatOpLowering : public OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    auto structType = cast<LLVM::LLVMStructType>(type);
    SmallVector<Value> regs(structType.getBody().size(), adaptor.getSrc());
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(), type, regs));
    return success();
  }
};

/// tile.make_range: register r holds start + its coordinate.
struct MakeRangeOpLowering : public OpConversionPattern<MakeRangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MakeRangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    Location loc = op.getLoc();
    Value start = i32Constant(rewriter, loc, op.getStart());
    SmallVector<Value> regs;
    for (auto &coords : emitIndices(rewriter, loc, op.getType()))
      regs.push_back(LLVM::AddOp::create(rewriter, loc, start, coords[0]));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, type, regs));
    return success();
  }
};

/// tile.addptr: one getelementptr per register.
struct AddPtrOpLowering : public OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    Type pointee = getTypeConverter()->convertType(
        cast<PtrType>(getElementTypeOrSelf(op.getType())).getPointeeType());
    if (!type || !pointee)
      return failure();
    Location loc = op.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(getContext(), 1);
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> offs =
        unpackRegisters(rewriter, loc, adaptor.getOffset());
    SmallVector<Value> regs;
    for (auto [ptr, off] : llvm::zip_equal(ptrs, offs))
      regs.push_back(
          LLVM::GEPOp::create(rewriter, loc, ptrType, pointee, ptr, off));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, type, regs));
    return success();
  }
};

/// tile.int_to_ptr, tile.ptr_to_int, tile.ptr_cast: one LLVM cast per
/// register (none for ptr_cast: LLVM pointers are untyped).
template <typename Op>
struct AddressCastLowering : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    Type scalar = this->getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getType()));
    if (!type || !scalar)
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value> regs = unpackRegisters(rewriter, loc, adaptor.getSrc());
    for (Value &reg : regs) {
      if constexpr (std::is_same_v<Op, IntToPtrOp>)
        reg = LLVM::IntToPtrOp::create(rewriter, loc, scalar, reg);
      else if constexpr (std::is_same_v<Op, PtrToIntOp>)
        reg = LLVM::PtrToIntOp::create(rewriter, loc, scalar, reg);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, type, regs));
    return success();
  }
};

/// arith.constant of a splat tile: every register holds the scalar constant.
struct SplatConstantLowering : public OpConversionPattern<arith::ConstantOp> {
  SplatConstantLowering(TypeConverter &converter, MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/10) {}
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tensor = dyn_cast<RankedTensorType>(op.getType());
    if (!tensor || !getLayout(tensor))
      return failure();
    auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!dense)
      return failure(); // rejected before conversion
    Type type = getTypeConverter()->convertType(tensor);
    Type element = getTypeConverter()->convertType(tensor.getElementType());
    if (!type || !element)
      return failure();
    Value scalar = LLVM::ConstantOp::create(
        rewriter, op.getLoc(), element,
        cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    SmallVector<Value> regs(cast<LLVM::LLVMStructType>(type).getBody().size(),
                            scalar);
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(), type, regs));
    return success();
  }
};

/// Any elementwise op from another dialect applied to tiles: re-created on
/// the scalars of each register, or of the first register of each run that
/// `runs` proves equal (the others reuse its result).
struct ElementwiseOpLowering : public ConversionPattern {
  ElementwiseOpLowering(TypeConverter &converter, MLIRContext *ctx,
                        const ConstantRuns &runs)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/10, ctx),
        runs(runs) {}
  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!(op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(op)) ||
        (isa<TileDialect>(op->getDialect()) && !isa<ExternElementwiseOp>(op)) ||
        op->getNumResults() == 0 ||
        !llvm::all_of(op->getResultTypes(), [](Type t) {
          return isa<RankedTensorType>(t) && getLayout(t);
        }))
      return failure();
    // Float types LLVM has no arithmetic for (the fp8 formats) are stored as
    // integers; re-creating the op on them would build invalid IR. Only
    // conversions to and from them are lowered (Fp8OpToLLVM.cpp, which has a
    // higher benefit); the pass rejected arithmetic on them before.
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      Type elem = getElementTypeOrSelf(t);
      if (isa<FloatType>(elem) && getTypeConverter()->convertType(elem) != elem)
        return failure();
    }
    Location loc = op->getLoc();
    SmallVector<Type> resultTypes, scalarTypes;
    for (Type t : op->getResultTypes()) {
      resultTypes.push_back(getTypeConverter()->convertType(t));
      scalarTypes.push_back(getTypeConverter()->convertType(
          cast<RankedTensorType>(t).getElementType()));
      if (!resultTypes.back() || !scalarTypes.back())
        return failure();
    }
    SmallVector<SmallVector<Value>> operandRegs;
    for (Value operand : operands)
      operandRegs.push_back(unpackRegisters(rewriter, loc, operand));
    size_t n = cast<LLVM::LLVMStructType>(resultTypes.front()).getBody().size();
    size_t run = runs.lookup(op);
    SmallVector<SmallVector<Value>> resultRegs(op->getNumResults());
    for (size_t i = 0; i < n; ++i) {
      if (run > 1 && i % run != 0) {
        for (SmallVector<Value> &regs : resultRegs) {
          Value first = regs[i - i % run];
          regs.push_back(first);
        }
        continue;
      }
      OperationState state(loc, op->getName());
      for (auto &regs : operandRegs)
        state.addOperands(regs.size() == 1 ? regs[0] : regs[i]);
      state.addTypes(scalarTypes);
      state.addAttributes(op->getAttrs());
      Operation *scalar = rewriter.create(state);
      for (auto [j, result] : llvm::enumerate(scalar->getResults()))
        resultRegs[j].push_back(result);
    }
    SmallVector<Value> results;
    for (auto [type, regs] : llvm::zip_equal(resultTypes, resultRegs))
      results.push_back(packRegisters(rewriter, loc, type, regs));
    rewriter.replaceOp(op, results);
    return success();
  }

private:
  const ConstantRuns &runs;
};

/// tile.inline_asm: the user's PTX once per group of `packed` registers of
/// the thread. Narrow elements (under 32 bits) travel min(packed, 32 /
/// width) to a register as an LLVM vector; the asm's operands are the
/// result registers, then the argument registers, each in element order.
struct InlineAsmOpLowering : public OpConversionPattern<InlineAsmOp> {
  using OpConversionPattern::OpConversionPattern;

  /// Elements of `type` (converted) one asm register holds.
  static unsigned perRegister(Type type, unsigned packed) {
    return InlineAsmOp::getElementsPerRegister(type, packed);
  }

  LogicalResult
  matchAndRewrite(InlineAsmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned packed = op.getPacked();
    bool tiles = isa<RankedTensorType>(op.getResult(0).getType());
    if (tiles && !getLayout(op.getResult(0).getType()))
      return rewriter.notifyMatchFailure(op, "tiles without layouts");
    SmallVector<Type> resultTypes, resultElems;
    for (Type type : op.getResultTypes()) {
      resultTypes.push_back(getTypeConverter()->convertType(type));
      resultElems.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(type)));
      if (!resultTypes.back() || !resultElems.back())
        return failure();
    }
    SmallVector<SmallVector<Value>> args;
    for (Value arg : adaptor.getArgs())
      args.push_back(unpackRegisters(rewriter, loc, arg));
    // verifyInlineAsmPacking checked that groups fill the registers.
    size_t n = args.front().size();

    // The asm's result types: per result, packed / per registers.
    SmallVector<Type> asmTypes;
    for (Type elem : resultElems) {
      unsigned per = perRegister(elem, packed);
      Type reg = per > 1 ? VectorType::get({int64_t(per)}, elem) : elem;
      asmTypes.append(packed / per, reg);
    }
    Type asmType =
        asmTypes.size() == 1
            ? asmTypes.front()
            : LLVM::LLVMStructType::getLiteral(rewriter.getContext(), asmTypes);
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (size_t group = 0; group < n; group += packed) {
      SmallVector<Value> operands;
      for (SmallVector<Value> &regs : args) {
        Type elem = regs.front().getType();
        unsigned per = perRegister(elem, packed);
        for (unsigned j = 0; j < packed; j += per) {
          if (per == 1) {
            operands.push_back(regs[group + j]);
            continue;
          }
          auto vector = VectorType::get({int64_t(per)}, elem);
          Value value = LLVM::UndefOp::create(rewriter, loc, vector);
          for (unsigned k = 0; k < per; ++k)
            value = LLVM::InsertElementOp::create(
                rewriter, loc, value, regs[group + j + k],
                i32Constant(rewriter, loc, k));
          operands.push_back(value);
        }
      }
      Value out = LLVM::InlineAsmOp::create(
                      rewriter, loc, asmType, operands, op.getAsmString(),
                      op.getConstraints(), /*has_side_effects=*/!op.getPure(),
                      /*is_align_stack=*/false, LLVM::TailCallKind::None,
                      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
                      .getResult(0);
      size_t field = 0;
      for (auto [r, elem] : llvm::enumerate(resultElems)) {
        unsigned per = perRegister(elem, packed);
        for (unsigned j = 0; j < packed; j += per) {
          Value reg =
              asmTypes.size() == 1
                  ? out
                  : LLVM::ExtractValueOp::create(rewriter, loc, out, field);
          ++field;
          if (per == 1) {
            results[r].push_back(reg);
            continue;
          }
          for (unsigned k = 0; k < per; ++k)
            results[r].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, reg, i32Constant(rewriter, loc, k)));
        }
      }
    }
    SmallVector<Value> replacements;
    for (auto [type, regs] : llvm::zip_equal(resultTypes, results))
      replacements.push_back(tiles ? packRegisters(rewriter, loc, type, regs)
                                   : regs.front());
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

/// tile.map_elementwise: the body inlined once per group of `pack`
/// registers of the thread (inlineScalarRegion), its arguments the group's
/// elements of each operand in turn.
struct MapElementwiseOpLowering : public OpConversionPattern<MapElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MapElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!getLayout(op.getResult(0).getType()))
      return rewriter.notifyMatchFailure(op, "tiles without layouts");
    unsigned pack = op.getPack();
    SmallVector<Type> resultTypes, yieldTypes;
    for (Type type : op.getResultTypes()) {
      resultTypes.push_back(getTypeConverter()->convertType(type));
      Type elem = getTypeConverter()->convertType(getElementTypeOrSelf(type));
      if (!resultTypes.back() || !elem)
        return failure();
      yieldTypes.append(pack, elem);
    }
    SmallVector<SmallVector<Value>> srcs;
    for (Value src : adaptor.getSrcs())
      srcs.push_back(unpackRegisters(rewriter, loc, src));
    // verifyPacking checked that groups fill the registers.
    SmallVector<SmallVector<Value>> results(op.getNumResults());
    for (size_t group = 0; group < srcs.front().size(); group += pack) {
      SmallVector<Value> args;
      for (SmallVector<Value> &regs : srcs)
        args.append(regs.begin() + group, regs.begin() + group + pack);
      SmallVector<Value> yielded =
          inlineScalarRegion(rewriter, op.getBody(), args, yieldTypes);
      for (auto [r, regs] : llvm::enumerate(results))
        regs.append(yielded.begin() + r * pack,
                    yielded.begin() + (r + 1) * pack);
    }
    SmallVector<Value> replacements;
    for (auto [type, regs] : llvm::zip_equal(resultTypes, results))
      replacements.push_back(packRegisters(rewriter, loc, type, regs));
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

} // namespace

void tilec::populateElementwiseOpToLLVMPatterns(TileTypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                const ConstantRuns &runs) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SplatOpLowering, MakeRangeOpLowering, AddPtrOpLowering,
               AddressCastLowering<IntToPtrOp>, AddressCastLowering<PtrToIntOp>,
               AddressCastLowering<PtrCastOp>, InlineAsmOpLowering,
               MapElementwiseOpLowering>(converter, ctx);
  patterns.add<SplatConstantLowering>(converter, ctx);
  patterns.add<ElementwiseOpLowering>(converter, ctx, runs);
}
