//===- TileGPUOps.cpp - GPU-level operations of the tile dialect ----------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Verifiers of the operations of TileGPUOps.td.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "OpVerifiers.h"

using namespace mlir;
using namespace tilec::tile;

//===----------------------------------------------------------------------===//
// Shared memory and asynchronous copies
//===----------------------------------------------------------------------===//

LogicalResult LocalAllocOp::verify() {
  if (std::optional<int64_t> offset = getOffset();
      offset && *offset % 1024 != 0)
    return emitOpError("offset must be a multiple of 1024, not ") << *offset;
  return success();
}

LogicalResult SmemSlotOp::verify() {
  SmemType src = getSrc().getType(), result = getResult().getType();
  if (src.getRank() != result.getRank() + 1 ||
      src.getShape().drop_front() != result.getShape() ||
      src.getElementType() != result.getElementType() ||
      src.getLayout() != result.getLayout())
    return emitOpError("result must be one slot of the buffer: ")
           << SmemType::get(getContext(), src.getShape().drop_front(),
                            src.getElementType(), src.getLayout());
  return success();
}

LogicalResult SmemTransOp::verify() {
  SmemType src = getSrc().getType(), result = getResult().getType();
  SharedLayoutAttr layout = src.getLayout();
  if (src.getRank() != 2 ||
      result !=
          SmemType::get(getContext(), {src.getDimSize(1), src.getDimSize(0)},
                        src.getElementType(),
                        SharedLayoutAttr::get(getContext(),
                                              1 - layout.getContiguousDim(),
                                              layout.getSwizzle())))
    return emitOpError("result must be the transpose of a matrix: shape "
                       "swapped, the other dimension contiguous");
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptr = cast<RankedTensorType>(getPtr().getType());
  SmemType dst = getDst().getType();
  if (dst.getRank() != 2 || ptr.getShape() != dst.getShape())
    return printShape(emitOpError("destination must be one matrix of shape "),
                      ptr.getShape());
  Type pointee = cast<PtrType>(ptr.getElementType()).getPointeeType();
  if (pointee != dst.getElementType())
    return emitOpError("copies ") << pointee << " elements into a "
                                  << dst.getElementType() << " buffer";
  return verifyMask(*this, ptr, getMask());
}

LogicalResult LocalStoreOp::verify() {
  auto value = cast<RankedTensorType>(getValue().getType());
  SmemType dst = getDst().getType();
  if (dst.getRank() != 2 || value.getShape() != dst.getShape())
    return printShape(emitOpError("destination must be one matrix of shape "),
                      value.getShape());
  if (value.getElementType() != dst.getElementType())
    return emitOpError("stores ")
           << value.getElementType() << " elements into a "
           << dst.getElementType() << " buffer";
  return success();
}

std::optional<SmallVector<int64_t>>
tilec::tile::getWgmmaRegisterFragments(RankedTensorType a, RankedTensorType c) {
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(c.getEncoding());
  if (!mma || !mma.isWgmma() || mma.getTransposed() ||
      mma.getWarpsPerCTA()[1] != 1 || a.getRank() != 2 ||
      !a.getElementType().isIntOrFloat() || a.getElementTypeBitWidth() != 16)
    return std::nullopt;
  // Each K step's m64k16 fragment holds what an accumulator 16 columns wide
  // would: rows l / 4 (+ 8), columns 2 * (l % 4) (+ 1) (+ 8).
  unsigned warps[] = {mma.getWarpsPerCTA()[0], 1u};
  unsigned instr[] = {64u, 16u, 16u};
  auto fragments = MmaLayoutAttr::get(a.getContext(), 3, warps, instr,
                                      /*transposed=*/false);
  std::optional<TileDistribution> src = TileDistribution::get(a);
  std::optional<TileDistribution> dst =
      TileDistribution::get(fragments, a.getShape());
  if (!src || !dst || src->getNumWarps() != dst->getNumWarps())
    return std::nullopt;
  return getRegisterRemap(*src, *dst, identityCoords);
}

LogicalResult WarpGroupDotOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  SmemType b = getB().getType();
  auto c = cast<RankedTensorType>(getC().getType());
  if (failed(verifyProductShapes(*this, a, b, c, "operands must be matrices")))
    return failure();
  if (a.getElementType() != b.getElementType())
    return emitOpError("operands must have the same element type, not ")
           << a.getElementType() << " and " << b.getElementType();
  if (getUnsignedOperands() && !a.getElementType().isInteger(8))
    return emitOpError("unsignedOperands needs 8-bit integer operands, not ")
           << a.getElementType();
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(c.getEncoding());
  if (!mma || !mma.isWgmma())
    return emitOpError(
        "accumulator must be in a #tile.mma layout of version 3");
  if (auto aSmem = dyn_cast<SmemType>(a)) {
    if (aSmem.getLayout().getContiguousDim() != 1)
      return emitOpError("a must be stored with K contiguous");
  } else if (!getWgmmaRegisterFragments(cast<RankedTensorType>(a), c)) {
    return emitOpError("a in registers must be a 16-bit tile whose threads "
                       "hold the fragments wgmma reads (an accumulator "
                       "layout of the same rows, warps along M only)");
  }
  if (b.getLayout().getContiguousDim() == 1) {
    // A transposed product reads b^T as the instruction's A: from registers
    // (32-bit), else through N-panel descriptors (16-bit).
    unsigned bits = mma.getTransposed() ? 32 : 16;
    if (b.getElementTypeBitWidth() != bits)
      return emitOpError("b can be stored with N contiguous only for ")
             << bits << "-bit elements"
             << (mma.getTransposed() ? " with a transposed accumulator" : "");
  }
  if (!c.getElementType().isIntOrFloat())
    return emitOpError("accumulates into integers or floats only");
  if (getIsAsync() && c.getElementTypeBitWidth() != 32)
    return emitOpError("can be left in flight only with 32-bit accumulators");
  return success();
}

LogicalResult WarpGroupDotWaitOp::verify() {
  auto type = cast<RankedTensorType>(getInput().getType());
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(type.getEncoding());
  if (!mma || !mma.isWgmma())
    return emitOpError("waits for an accumulator in a #tile.mma layout of "
                       "version 3");
  if (!type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() != 32)
    return emitOpError("waits for 32-bit accumulators only");
  return success();
}

/// Whether `count` coordinates address a matrix of a tensor map: its rows
/// and columns, after up to three outer dimensions.
static bool isMatrixOfTensorMap(size_t count) {
  return count >= 2 && count <= tilec::abi::TensorMapSpec::MaxRank;
}

LogicalResult AsyncTmaCopyOp::verify() {
  if (getDst().getType().getRank() != 2 ||
      !isMatrixOfTensorMap(getCoords().size()))
    return emitOpError("copies a matrix of a tensor of 2 to ")
           << tilec::abi::TensorMapSpec::MaxRank
           << " dimensions into one matrix";
  return success();
}

LogicalResult AsyncTmaStoreOp::verify() {
  auto type = cast<RankedTensorType>(getValue().getType());
  if (type.getRank() != 2 || !isMatrixOfTensorMap(getCoords().size()))
    return emitOpError("stores a 2-D tile into a tensor of 2 to ")
           << tilec::abi::TensorMapSpec::MaxRank << " dimensions";
  int64_t swizzle = getSwizzleBytes();
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError("needs rows of 32, 64 or at least 128 bytes");
  return success();
}

int64_t AsyncTmaStoreOp::getSwizzleBytes() {
  auto type = cast<RankedTensorType>(getValue().getType());
  int64_t rowBytes = type.getDimSize(1) *
                     std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  return std::min<int64_t>(128, rowBytes);
}
