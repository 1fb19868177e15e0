//===- TileToLLVMPatterns.h - Shared pieces of the lowering ------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Private to the TileToLLVM conversion: the type converter, the helpers that
// move between a tile and the registers a thread holds, and the populate
// functions of each op family.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILETOLLVM_TILETOLLVMPATTERNS_H
#define TILEC_LIB_CONVERSION_TILETOLLVM_TILETOLLVMPATTERNS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec {

/// Converts `!tile.ptr<T>` to a global-memory `!llvm.ptr<1>` and a tensor with
/// a layout to an LLVM struct of the registers one thread holds.
class TileTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TileTypeConverter(mlir::MLIRContext *ctx);
};

/// Vector widths (elements) chosen for each load and store before conversion.
using VectorWidths = llvm::DenseMap<mlir::Operation *, int64_t>;

/// The registers of a converted tile (the fields of its struct), or the value
/// itself for a scalar.
llvm::SmallVector<mlir::Value> unpackRegisters(mlir::OpBuilder &b,
                                               mlir::Location loc,
                                               mlir::Value value);

/// Builds a value of converted type `type` from its registers: the struct for
/// a tile, the single register for a scalar.
mlir::Value packRegisters(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type type, mlir::ValueRange registers);

/// For each register of a tile of type `type` (which must carry a layout),
/// the i32 coordinates of the element it holds in the running thread.
llvm::SmallVector<llvm::SmallVector<mlir::Value>>
emitIndices(mlir::OpBuilder &b, mlir::Location loc,
            mlir::RankedTensorType type);

/// An i32 constant.
mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

void populateElementwiseOpToLLVMPatterns(TileTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
void populateLoadStoreOpToLLVMPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const VectorWidths &widths);
void populateProgramIdOpToLLVMPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_TILETOLLVM_TILETOLLVMPATTERNS_H
