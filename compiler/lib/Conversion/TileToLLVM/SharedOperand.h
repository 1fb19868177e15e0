//===- SharedOperand.h - Tensor-core operands in shared memory --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The swizzled shared-memory layout tensor-core operands are staged in (the
// canonical layouts wgmma reads through matrix descriptors, which ldmatrix
// reads conflict-free as well). The dimension stored contiguously ("inner")
// is cut into panels of S bytes (the swizzle width: 32, 64 or 128); a panel
// holds S bytes of every row of the other ("outer") dimension, rows S bytes
// apart; panels follow each other. Within each 8-row x S-byte atom, the
// 16-byte chunk `c` of row `r` is stored at chunk `c ^ (r % (S / 16))`,
// i.e. byte offset `o` moves to `o ^ (((o >> 7) & (S / 16 - 1)) << 4)`: the
// address-based swizzle the hardware undoes, so an operand starts on a
// 1024-byte boundary.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_TILETOLLVM_SHAREDOPERAND_H
#define TILEC_LIB_CONVERSION_TILETOLLVM_SHAREDOPERAND_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

namespace tilec {

/// Where the elements of one operand live in shared memory.
struct SharedOperand {
  unsigned innerDim; ///< tensor dimension stored contiguously
  int64_t outer;     ///< extent of the other dimension
  int64_t inner;     ///< extent of the contiguous dimension
  int64_t elemBytes; ///< bytes per element
  int64_t swizzle;   ///< swizzle width S in bytes (32, 64 or 128)

  /// The layout of a tile whose dimension `innerDim` (of extent `inner`) is
  /// stored contiguously, with the widest swizzle its rows allow (at most
  /// `maxSwizzle` bytes).
  static SharedOperand get(unsigned innerDim, int64_t outer, int64_t inner,
                           int64_t elemBytes, int64_t maxSwizzle = 128) {
    return {innerDim, outer, inner, elemBytes,
            std::min<int64_t>(maxSwizzle, inner * elemBytes)};
  }

  int64_t panelBytes() const { return outer * swizzle; }
  /// The (unswizzled) byte offset of the first byte of element (o, i).
  int64_t offset(int64_t o, int64_t i) const {
    int64_t byte = i * elemBytes;
    return byte / swizzle * panelBytes() + o * swizzle + byte % swizzle;
  }
  /// The swizzled byte offset of the first byte of element (o, i).
  int64_t swizzledOffset(int64_t o, int64_t i) const {
    int64_t byte = offset(o, i);
    return byte ^ (((byte >> 7) & (swizzle / 16 - 1)) << 4);
  }
  /// Descriptor field for the swizzle width.
  int64_t swizzleMode() const {
    return swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  }
};

/// The swizzled byte offset (i32) of element (`outer`, `inner`) (i32
/// values) of `smem`.
mlir::Value emitSwizzledOffset(mlir::OpBuilder &b, mlir::Location loc,
                               const SharedOperand &smem, mlir::Value outer,
                               mlir::Value inner);

/// Stores the registers of `tile` (of tensor type `type`) into the shared
/// layout `smem` at the shared-window address `smemBase` + `baseOffset`,
/// with vectors of up to 16 bytes along the contiguous dimension. When that
/// has fewer bank conflicts, the lanes with one lane-index bit set store
/// their vectors in another order (swapping the registers one register-index
/// bit apart).
void storeSharedOperand(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value tile, mlir::RankedTensorType type,
                        const SharedOperand &smem, mlir::Value smemBase,
                        int64_t baseOffset);

} // namespace tilec

#endif // TILEC_LIB_CONVERSION_TILETOLLVM_SHAREDOPERAND_H
