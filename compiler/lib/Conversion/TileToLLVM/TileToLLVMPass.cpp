//===- TileToLLVMPass.cpp - The convert-tile-to-llvm pass -------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Drives the lowering of a laid-out tile module to the LLVM and NVVM
// dialects: picks the vector width of every memory access with AxisInfo, then
// runs one full conversion with the tile patterns and the upstream arith,
// math, control-flow and func patterns, and finally marks the functions as
// kernels with their thread count.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/AxisInfo.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilec {
#define GEN_PASS_DEF_CONVERTTILETOLLVM
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Largest number of bytes one thread moves in one access.
constexpr int64_t kMaxAccessBytes = 16;

/// Chooses the vector width of each load and store from the layout of its
/// pointer tile and what AxisInfo proves about its addresses and mask.
static VectorWidths chooseVectorWidths(ModuleOp module) {
  VectorWidths widths;
  module.walk([&](func::FuncOp func) {
    AxisInfoAnalysis axisInfo;
    func.walk([&](Operation *op) {
      if (!isa<LoadOp, StoreOp>(op))
        return;
      Value ptr = op->getOperand(0);
      Value mask = isa<LoadOp>(op) ? cast<LoadOp>(op).getMask()
                                   : cast<StoreOp>(op).getMask();
      auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
      LayoutAttrInterface layout = getLayout(ptr.getType());
      if (!tensor || !layout)
        return;
      Type pointee = cast<PtrType>(tensor.getElementType()).getPointeeType();
      int64_t bytes =
          std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
      unsigned dim = tensor.getRank() - 1;
      int64_t maxElems =
          std::min(kMaxAccessBytes / bytes,
                   layout.getContiguousRegisters(tensor.getShape(), dim));
      widths[op] = axisInfo.getVectorWidth(ptr, mask, dim, maxElems);
    });
  });
  return widths;
}

struct ConvertTileToLLVMPass
    : public tilec::impl::ConvertTileToLLVMBase<ConvertTileToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto numWarps = module->getAttrOfType<IntegerAttr>("tile.num_warps");
    if (!numWarps) {
      module.emitError("module has no 'tile.num_warps': run "
                       "tile-assign-layouts first");
      return signalPassFailure();
    }

    VectorWidths widths = chooseVectorWidths(module);

    TileTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateElementwiseOpToLLVMPatterns(converter, patterns);
    populateLoadStoreOpToLLVMPatterns(converter, patterns, widths);
    populateProgramIdOpToLLVMPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*ctx);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    int32_t threads = numWarps.getInt() * 32;
    module.walk([&](LLVM::LLVMFuncOp func) {
      func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    UnitAttr::get(ctx));
      func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                    DenseI32ArrayAttr::get(ctx, {threads, 1, 1}));
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.removeArgAttr(i, "tile.divisibility");
    });
  }
};

} // namespace
