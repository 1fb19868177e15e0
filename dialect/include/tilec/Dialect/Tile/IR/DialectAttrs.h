//===- DialectAttrs.h - The tile dialect's discardable attributes -*- C++
//-*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Typed accessors of the attributes passes leave for later passes and the
// driver (declared in TileDialect.td, checked by the dialect's verifiers):
//
//   tile.num_warps        module    warps per program (tile-assign-layouts)
//   tile.shared           module    dynamic shared-memory bytes
//   tile.scratch_offset   op        start of its scratch buffer
//   tile.tma              module    the #tile.tensor_map of each TMA parameter
//   tile.programs_per_sm  function  programs per SM its registers must allow
//   tile.reread           module    what each program reads more than once
//   tile.target           module    the architecture (TargetInfo.h)
//   tile.divisibility     argument  the signature's `:16` hint
//   tile.hint_divisibility, tile.hint_contiguity, tile.hint_constancy
//                         op        tl.multiple_of, tl.max_contiguous and
//                                   tl.max_constancy of its one result
//   tile.loop_unroll_factor
//                         scf.for   tl.range's loop_unroll_factor
//   tile.flatten          scf.for   tl.range's flatten=True
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_DIALECTATTRS_H
#define TILEC_DIALECT_TILE_IR_DIALECTATTRS_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

namespace tilec::tile {

/// Warps per program of the module of `op`, once layouts are assigned.
std::optional<int64_t> getNumWarps(mlir::Operation *op);
void setNumWarps(mlir::ModuleOp module, int64_t numWarps);

/// Dynamic shared-memory bytes of the module of `op` (0 when none).
int64_t getSharedMemoryBytes(mlir::Operation *op);
/// Records `bytes` (none when 0, which keeps the IR of programs without
/// shared memory unchanged).
void setSharedMemoryBytes(mlir::ModuleOp module, int64_t bytes);

/// Where the scratch buffer of `op` starts (0 unless recorded).
int64_t getScratchOffset(mlir::Operation *op);
void setScratchOffset(mlir::Operation *op, int64_t offset);

/// The TMA tensor maps of the module, in parameter order.
llvm::SmallVector<TensorMapAttr> getTensorMaps(mlir::ModuleOp module);
void addTensorMap(mlir::ModuleOp module, TensorMapAttr map);

/// Programs per SM the registers of kernel `func` must allow.
std::optional<int64_t> getProgramsPerSM(mlir::Operation *func);
void setProgramsPerSM(mlir::Operation *func, int64_t programs);
void removeProgramsPerSM(mlir::Operation *func);

/// The bytes each program of the module's kernel reads more than once (a
/// layer norm's row, read by each of its passes): `bytes` for every `step`
/// of the kernel's integer argument `argIndex` (rounded up), or `bytes`
/// whatever the arguments when `argIndex` is -1 (and `step` 1). The runtime
/// keeps fewer programs on an SM when the footprints in flight would
/// outgrow L2 (KernelMetadata::Reread).
struct RereadFootprint {
  int64_t argIndex = -1;
  int64_t bytes = 0;
  int64_t step = 1;
};
std::optional<RereadFootprint> getRereadFootprint(mlir::Operation *op);
void setRereadFootprint(mlir::ModuleOp module, RereadFootprint footprint);

/// The divisibility hint of argument `index` of `func` (`:16`).
std::optional<int64_t> getDivisibility(mlir::FunctionOpInterface func,
                                       unsigned index);
void setDivisibility(mlir::FunctionOpInterface func, unsigned index,
                     int64_t divisor);
void removeDivisibility(mlir::FunctionOpInterface func, unsigned index);

/// The user's facts about the values of an op's one result (tl.multiple_of,
/// tl.max_contiguous, tl.max_constancy), one number per dimension (one for a
/// scalar): what AxisInfo takes where it proves less.
enum class AxisHint { Divisibility, Contiguity, Constancy };
/// The hint of `kind` on `op`, empty when it has none.
llvm::ArrayRef<int64_t> getAxisHint(mlir::Operation *op, AxisHint kind);
void setAxisHint(mlir::Operation *op, AxisHint kind,
                 llvm::ArrayRef<int64_t> values);
/// Removes every axis hint from `op` (once AxisInfo has been used).
void removeAxisHints(mlir::Operation *op);

/// The factor `tl.range(..., loop_unroll_factor=N)` asks to unroll `loop`
/// by (std::nullopt when it asks nothing).
std::optional<int64_t> getLoopUnrollFactor(mlir::Operation *loop);
void setLoopUnrollFactor(mlir::Operation *loop, int64_t factor);
void removeLoopUnrollFactor(mlir::Operation *loop);

/// Whether `tl.range(..., flatten=True)` made `loop`.
bool isFlattenRequested(mlir::Operation *loop);
void setFlattenRequested(mlir::Operation *loop);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_DIALECTATTRS_H
