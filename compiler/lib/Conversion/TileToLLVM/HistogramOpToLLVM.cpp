//===- HistogramOpToLLVM.cpp - tl.histogram -----------------------*- C++
//-*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.histogram through one i32 count a bin in shared memory:
//
//   barrier; the threads zero the bins their result registers hold; barrier;
//   each thread adds 1 (red.shared.add) to the bin of every element it owns
//   that is in range and not masked off; barrier; each thread loads the bins
//   of its result registers.
//
// An element several threads hold is counted by its owner only (the copies'
// duplicated lane and warp bits zero, its first register).
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

struct HistogramOpLowering : public OpConversionPattern<HistogramOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type llvmType = getTypeConverter()->convertType(dstType);
    if (!llvmType || !getLayout(srcType) || !getLayout(dstType))
      return rewriter.notifyMatchFailure(op, "tiles without layouts");
    std::optional<TileDistribution> src = TileDistribution::get(srcType);
    if (!src)
      return op.emitOpError("operand layout is not supported");
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();

    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());
    Value base = getScratchBase(rewriter, loc, op);
    SmallVector<SmallVector<Value>> bins = emitIndices(rewriter, loc, dstType);
    Type i32 = rewriter.getI32Type();

    emitBarrier(rewriter, loc);
    Value zero = i32Constant(rewriter, loc, 0);
    for (const SmallVector<Value> &bin : bins)
      storeShared(rewriter, loc, base, bin[0], zero);
    emitBarrier(rewriter, loc);

    Value owner = emitOwnerPredicate(rewriter, loc, src->getDuplicateLaneMask(),
                                     src->getDuplicateWarpMask());
    // Compared in 64 bits: num_bins may not fit the values' type.
    Type i64 = rewriter.getI64Type();
    Value zero64 = LLVM::ConstantOp::create(rewriter, loc, i64,
                                            rewriter.getI64IntegerAttr(0));
    Value numBins = LLVM::ConstantOp::create(
        rewriter, loc, i64, rewriter.getI64IntegerAttr(dstType.getDimSize(0)));
    Value bytes = i32Constant(rewriter, loc, 4);
    Value baseAddress = LLVM::PtrToIntOp::create(rewriter, loc, i32, base);
    for (auto [r, value] : llvm::enumerate(values)) {
      if (src->isDuplicateRegister(r))
        continue;
      Value wide = value;
      if (value.getType().getIntOrFloatBitWidth() < 64)
        wide = LLVM::SExtOp::create(rewriter, loc, i64, value);
      Value inRange = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::sge, wide,
                               zero64),
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt, wide,
                               numBins));
      Value pred = inRange;
      if (!masks.empty())
        pred = LLVM::AndOp::create(rewriter, loc, pred, masks[r]);
      if (owner)
        pred = LLVM::AndOp::create(rewriter, loc, pred, owner);
      Value bin = LLVM::TruncOp::create(rewriter, loc, i32, wide);
      Value address =
          LLVM::AddOp::create(rewriter, loc, baseAddress,
                              LLVM::MulOp::create(rewriter, loc, bin, bytes));
      // A predicate operand ("b"): emitInlinePtx passes i1 as a register.
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange(), ValueRange{pred, address},
          "@$0 red.shared.add.u32 [$1], 1;", "b,r",
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
          /*operand_attrs=*/nullptr);
    }
    emitBarrier(rewriter, loc);

    SmallVector<Value> regs;
    for (const SmallVector<Value> &bin : bins)
      regs.push_back(loadShared(rewriter, loc, base, bin[0], i32));
    rewriter.replaceOp(op, packRegisters(rewriter, loc, llvmType, regs));
    return success();
  }
};

} // namespace

void tilec::populateHistogramOpToLLVMPatterns(TileTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<HistogramOpLowering>(converter, patterns.getContext());
}
