//===- SharedMemory.h - Scratch shared memory of tile ops -------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Which laid-out tile ops exchange data through shared memory, how many bytes
// each needs and where its buffers sit. The allocation pass and the lowering
// to LLVM share these functions so that they always agree.
//
// Every op's scratch starts at offset 0 of the one dynamic shared-memory
// buffer of the program: each use is `barrier; write; barrier; read`, so the
// leading barrier of the next use orders it after every read of the previous
// one and the program needs the largest scratch of any op, not the sum.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_ANALYSIS_SHAREDMEMORY_H
#define TILEC_DIALECT_TILE_ANALYSIS_SHAREDMEMORY_H

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

namespace tilec::tile {

/// Bytes one element of `type` occupies in memory: i1 takes a byte, pointers
/// and indices eight, other integers and floats their width rounded up to
/// bytes.
int64_t getStorageBytes(mlir::Type type);

/// `value` rounded up to a multiple of 16.
inline int64_t alignTo16(int64_t value) { return (value + 15) / 16 * 16; }

/// For the data-movement ops (convert_layout, expand_dims, broadcast,
/// reshape, trans): the operand coordinates of the element that result
/// coordinates `coords` hold.
Coords getOperandCoords(mlir::Operation *op, llvm::ArrayRef<int64_t> coords);

/// Whether `op` is one of the data-movement ops above.
bool isDataMovementOp(mlir::Operation *op);

/// For a data-movement op: the operand register each result register copies
/// when no thread needs another thread's data, else std::nullopt.
std::optional<llvm::SmallVector<int64_t>>
getDataMovementRemap(mlir::Operation *op);

/// The element types a reduction or scan (tile.reduce, tile.scan,
/// tile.combine_reduce, tile.combine_scan) carries from step to step: its
/// operands' element types, and i32 indices for argmax/argmin.
llvm::SmallVector<mlir::Type> getCombinedTypes(mlir::Operation *op);

/// Number of warps that hold different parts of one reduced row of a
/// tile.reduce or tile.combine_reduce: 2 to the number of warp bits along the
/// reduction axis (1: no shared memory).
int64_t getReduceWarpsAlongAxis(mlir::Operation *op);

/// Byte offsets of the scratch buffers of a reduction or scan across warps:
/// one per carried type (getCombinedTypes), each 16-byte aligned, and last
/// the end of the scratch.
llvm::SmallVector<int64_t> getCombineScratchOffsets(mlir::Operation *op);

/// Whether a wgmma dot reads its A from registers: its threads hold A's
/// fragments already (getWgmmaRegisterFragments), so only B goes through
/// the dot's scratch buffer.
bool dotReadsARegisters(DotOp op);

/// Byte offset of the B operand buffer of a dot (A sits at 0, unless the
/// dot reads A from registers).
int64_t getDotOperandBOffset(DotOp op);

/// Whether the old values returned by `op` (an atomic_rmw or atomic_cas)
/// must be broadcast from the thread that performed each atomic to the
/// threads holding copies.
bool atomicNeedsBroadcast(mlir::Operation *op);

/// Scratch bytes `op` needs (0 when it needs none or is not a tile op).
int64_t getScratchBytes(mlir::Operation *op);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_ANALYSIS_SHAREDMEMORY_H
