//===- TileToLLVMPatterns.h - Shared pieces of the lowering -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Private to the TileToLLVM conversion: the type converter, the helpers that
// move between a tile and the registers a thread holds, the shared-memory,
// barrier and shuffle helpers, and the populate functions of each op family.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILETOLLVM_TILETOLLVMPATTERNS_H
#define TILEC_LIB_CONVERSION_TILETOLLVM_TILETOLLVMPATTERNS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec {

/// Converts `!tile.ptr<T>` to a global-memory `!llvm.ptr<1>`, `!tile.smem` to
/// the shared-memory `!llvm.ptr<3>` of its first byte, and a tensor with a
/// layout to an LLVM struct of the registers one thread holds.
class TileTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TileTypeConverter(mlir::MLIRContext *ctx);
};

/// Vector widths (elements) chosen for each load and store before conversion.
using VectorWidths = llvm::DenseMap<mlir::Operation *, int64_t>;

/// For elementwise ops on integer tiles whose result AxisInfo proves equal in
/// runs of consecutive registers of each thread: the length of those runs.
/// Such an op is computed once per run (the comparisons of a mask such as
/// `cols < N` with `N` a multiple of 16, once per vector of columns).
using ConstantRuns = llvm::DenseMap<mlir::Operation *, int64_t>;

/// Name of the external shared-memory array every scratch buffer lives in.
constexpr llvm::StringLiteral kSharedMemorySymbol = "global_smem";

//===----------------------------------------------------------------------===//
// Registers and coordinates
//===----------------------------------------------------------------------===//

/// The registers of a converted tile (the fields of its struct), or the value
/// itself for a scalar.
llvm::SmallVector<mlir::Value>
unpackRegisters(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// Builds a value of converted type `type` from its registers: the struct for
/// a tile, the single register for a scalar.
mlir::Value packRegisters(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type type, mlir::ValueRange registers);

/// For each register of a tile of type `type` (which must carry a layout),
/// the i32 coordinates of the element it holds in the running thread.
llvm::SmallVector<llvm::SmallVector<mlir::Value>>
emitIndices(mlir::OpBuilder &b, mlir::Location loc,
            mlir::RankedTensorType type);

/// The row-major index (i32) of `coords` in a tile of `shape`.
mlir::Value linearizeIndex(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::ValueRange coords,
                           llvm::ArrayRef<int64_t> shape);

/// An i32 constant.
mlir::Value i32Constant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// A call of the external function `symbol` (libdevice's, vprintf,
/// __assertfail), declared in the module on first use; its result, or null
/// for a void `resultType`.
mlir::Value emitExternCall(mlir::OpBuilder &b, mlir::Location loc,
                           llvm::StringRef symbol, mlir::Type resultType,
                           mlir::ValueRange args);

/// The address of a NUL-terminated constant global holding `text`, one per
/// distinct text, named `prefix_N`.
mlir::Value getStringConstant(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::StringRef prefix, llvm::StringRef text);

/// %tid.x, its lane (tid % 32) and its warp (tid / 32), as i32.
mlir::Value getThreadId(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value getLaneId(mlir::OpBuilder &b, mlir::Location loc);
mlir::Value getWarpId(mlir::OpBuilder &b, mlir::Location loc);
/// The warp, broadcast from lane 0 (shfl.sync.idx) so that ptxas knows it
/// is the same in every lane: what is computed from it (the shared-memory
/// addresses of a warpgroup's wgmma descriptors) can live in uniform
/// registers instead of being moved there (R2UR) at every use. Every lane
/// of the warp must run the code that asks for it.
mlir::Value getUniformWarpId(mlir::OpBuilder &b, mlir::Location loc);

/// Whether the running thread is the one that owns (among the copies a
/// layout has) the elements of its registers: every duplicated lane and warp
/// bit is zero. Null when no thread holds copies (every thread owns).
mlir::Value emitOwnerPredicate(mlir::OpBuilder &b, mlir::Location loc,
                               unsigned duplicateLaneMask,
                               unsigned duplicateWarpMask);

//===----------------------------------------------------------------------===//
// Shared memory, barriers and shuffles
//===----------------------------------------------------------------------===//

/// Fails with an error on `op` unless the module reserves its scratch buffer
/// of `bytes` bytes (at the op's scratch offset) in shared memory
/// (`tile.shared`).
mlir::LogicalResult checkSharedMemory(mlir::Operation *op, int64_t bytes);

/// The address (`!llvm.ptr<3>`) of byte `offset` of the shared memory.
mlir::Value getSharedMemoryBase(mlir::OpBuilder &b, mlir::Location loc,
                                int64_t offset = 0);

/// The address of byte `offset` of the scratch buffer of `op` (which
/// tile-allocate-shared-memory places after the buffers live across `op`).
mlir::Value getScratchBase(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Operation *op, int64_t offset = 0);

/// The type an element of converted type `type` has in memory (i1 → i8).
mlir::Type getMemoryType(mlir::Type type);

/// Stores `value` as element `index` (i32) of a shared buffer of
/// getMemoryType(value's type) elements starting at `base`.
void storeShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                 mlir::Value index, mlir::Value value);

/// Loads element `index` of a shared buffer of `type` elements (converted
/// type; stored as getMemoryType(type)).
mlir::Value loadShared(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                       mlir::Value index, mlir::Type type);

/// `bar.sync 0`: every thread of the program waits for the others.
void emitBarrier(mlir::OpBuilder &b, mlir::Location loc);

/// The value `value` held by lane `lane ^ laneMask` (shfl.sync.bfly), for any
/// integer or float type up to 64 bits.
mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, unsigned laneMask);

/// Inlines `region` (the combine region of a tile.combine_reduce or
/// tile.combine_scan, or the body of a tile.map_elementwise) at `b`'s
/// insertion point with its entry arguments bound to `args`, and returns
/// the values it yields, of types `yieldTypes`. A region of several blocks
/// (control flow, already lowered to branches) is cloned between two halves
/// of the current block, its yields branching to a join block whose
/// arguments are the results; `b` then inserts after the join. The clones
/// are converted with the rest of the kernel.
llvm::SmallVector<mlir::Value> inlineScalarRegion(mlir::RewriterBase &b,
                                                  mlir::Region &region,
                                                  mlir::ValueRange args,
                                                  mlir::TypeRange yieldTypes);

/// Converts `value` between integer and float types of any width (sign
/// extension or truncation for integers, `sitofp` for int to float).
mlir::Value castScalar(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::Type type);

/// Whether `type` is an 8-bit float format the lowering converts
/// (f8E4M3FN or f8E5M2; held as i8 after conversion).
bool isSupportedFp8Type(mlir::Type type);

/// Converts the scalar `value` (of the converted type of `from`) from float
/// type `from` to float type `to`, one of which is a supported fp8 format:
/// PTX `cvt` with round to nearest even and saturation to the largest finite
/// value for the narrowing direction. Returns a value of `to`'s converted
/// type.
mlir::Value convertFp8(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::Type from, mlir::Type to);

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

/// Runs side-effecting inline PTX `text`. Its operands are the results
/// (`$0...`, of `resultTypes`), then `inputs`; the first `tied.size()`
/// results start with the values `tied` (read and written in place).
/// Returns the results.
llvm::SmallVector<mlir::Value>
emitInlinePtx(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef text,
              mlir::TypeRange resultTypes, mlir::ValueRange inputs,
              mlir::ValueRange tied = {});

/// The PTX vector operand `{$first, ..., $first+n-1}`.
std::string ptxOperandList(size_t first, size_t n);

//===----------------------------------------------------------------------===//
// Populate functions, one per op family
//===----------------------------------------------------------------------===//

void populateElementwiseOpToLLVMPatterns(TileTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns,
                                         const ConstantRuns &runs);
void populateLoadStoreOpToLLVMPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const VectorWidths &widths);
void populateProgramIdOpToLLVMPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateDataMovementOpToLLVMPatterns(TileTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateScanOpToLLVMPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateDotOpToLLVMPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
void populateAsyncCopyOpToLLVMPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const VectorWidths &widths);
void populateTmaOpToLLVMPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
void populateWgmmaDotOpToLLVMPatterns(TileTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateMmaSyncDotOpToLLVMPatterns(TileTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);
void populateAtomicOpToLLVMPatterns(TileTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
void populateHistogramOpToLLVMPatterns(TileTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateMathOpToLLVMPatterns(TileTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateDebugOpToLLVMPatterns(TileTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
void populateFp8OpToLLVMPatterns(TileTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_TILETOLLVM_TILETOLLVMPATTERNS_H
