//===- ProgramIdOpToLLVM.cpp - Program ids and grid sizes -------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// A program is a CUDA thread block: tl.program_id reads %ctaid and
// tl.num_programs reads %nctaid.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

struct ProgramIdOpLowering : public OpConversionPattern<ProgramIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ProgramIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Location loc = op.getLoc();
    Value id;
    switch (op.getAxis()) {
    case 0:
      id = NVVM::BlockIdXOp::create(rewriter, loc, i32);
      break;
    case 1:
      id = NVVM::BlockIdYOp::create(rewriter, loc, i32);
      break;
    default:
      id = NVVM::BlockIdZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, id);
    return success();
  }
};

struct NumProgramsOpLowering : public OpConversionPattern<NumProgramsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NumProgramsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Location loc = op.getLoc();
    Value n;
    switch (op.getAxis()) {
    case 0:
      n = NVVM::GridDimXOp::create(rewriter, loc, i32);
      break;
    case 1:
      n = NVVM::GridDimYOp::create(rewriter, loc, i32);
      break;
    default:
      n = NVVM::GridDimZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, n);
    return success();
  }
};

} // namespace

void tilec::populateProgramIdOpToLLVMPatterns(TileTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ProgramIdOpLowering, NumProgramsOpLowering>(
      converter, patterns.getContext());
}
