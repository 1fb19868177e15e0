//===- TileOps.h - Operations of the tile dialect -----------------*- C++
//-*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_H
#define TILEC_DIALECT_TILE_IR_TILEOPS_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.h.inc"

namespace tilec::tile {

/// When every thread holds in its registers of the 16-bit tile `a` [M, K]
/// the A fragments wgmma reads from registers for a product into the
/// accumulator type `c`, returns for each register of those fragments the
/// register of `a` holding it: fragment registers in the order of an
/// `#tile.mma<3, [warpsM, 1], [64, 16, 16]>` layout of `a`'s shape (M
/// repetition, K step of 16, then the 8 elements of the m64k16 fragment).
/// std::nullopt otherwise (also when warps split the accumulator's N).
std::optional<llvm::SmallVector<int64_t>>
getWgmmaRegisterFragments(mlir::RankedTensorType a, mlir::RankedTensorType c);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_H
