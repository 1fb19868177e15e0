//===- SharedMemory.cpp - Scratch shared memory of tile ops -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The shared-memory needs of each laid-out tile op (see SharedMemory.h): data
// movement that threads cannot do from their own registers goes through a
// buffer of the operand's elements in row-major order; cross-warp reductions
// and scans, dots and broadcast atomics have buffers of their own.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tile;

int64_t tilec::tile::getStorageBytes(Type type) {
  if (isa<PtrType, IndexType>(type))
    return 8;
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
  return 8;
}

bool tilec::tile::isDataMovementOp(Operation *op) {
  return isa<ConvertLayoutOp, ExpandDimsOp, BroadcastOp, ReshapeOp, TransOp>(
      op);
}

Coords tilec::tile::getOperandCoords(Operation *op, ArrayRef<int64_t> coords) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  return llvm::TypeSwitch<Operation *, Coords>(op)
      .Case([&](ExpandDimsOp expand) {
        Coords c(coords.begin(), coords.end());
        c.erase(c.begin() + expand.getAxis());
        return c;
      })
      .Case([&](BroadcastOp) {
        Coords c(coords.begin(), coords.end());
        for (unsigned d = 0; d < c.size(); ++d)
          if (srcType.getDimSize(d) == 1)
            c[d] = 0;
        return c;
      })
      .Case([&](ReshapeOp) {
        int64_t index = 0;
        for (unsigned d = 0; d < coords.size(); ++d)
          index = index * dstType.getDimSize(d) + coords[d];
        Coords c(srcType.getRank(), 0);
        for (int64_t d = srcType.getRank() - 1; d >= 0; --d) {
          c[d] = index % srcType.getDimSize(d);
          index /= srcType.getDimSize(d);
        }
        return c;
      })
      .Case([&](TransOp trans) {
        Coords c(coords.size(), 0);
        for (auto [i, d] : llvm::enumerate(trans.getOrder()))
          c[d] = coords[i];
        return c;
      })
      .Default([&](Operation *) { return identityCoords(coords); });
}

std::optional<SmallVector<int64_t>>
tilec::tile::getDataMovementRemap(Operation *op) {
  std::optional<TileDistribution> src =
      TileDistribution::get(op->getOperand(0).getType());
  std::optional<TileDistribution> dst =
      TileDistribution::get(op->getResult(0).getType());
  if (!src || !dst)
    return std::nullopt;
  return getRegisterRemap(
      *src, *dst, [&](ArrayRef<int64_t> c) { return getOperandCoords(op, c); });
}

int64_t tilec::tile::getReduceWarpsAlongAxis(ReduceOp op) {
  std::optional<TileDistribution> src =
      TileDistribution::get(op.getSrc().getType());
  if (!src)
    return 1;
  int64_t warps = 1;
  for (unsigned b = 0; b < src->getNumWarpBits(); ++b)
    if (classifyBasis(src->getWarpBasis(b), op.getAxis()) == BitKind::Axis)
      warps *= 2;
  return warps;
}

/// Number of elements of a reduction's result (1 for a scalar).
static int64_t getResultElements(ReduceOp op) {
  auto tensor = dyn_cast<RankedTensorType>(op.getType());
  return tensor ? tensor.getNumElements() : 1;
}

/// Whether `op` reduces to the position of its extreme element.
static bool isArgReduce(ReduceOp op) {
  return op.getKind() == ReduceKind::ArgMax ||
         op.getKind() == ReduceKind::ArgMin;
}

int64_t tilec::tile::getReduceIndexOffset(ReduceOp op) {
  Type elem = cast<RankedTensorType>(op.getSrc().getType()).getElementType();
  return alignTo16(getResultElements(op) * getReduceWarpsAlongAxis(op) *
                   getStorageBytes(elem));
}

int64_t tilec::tile::getDotOperandBOffset(DotOp op) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  int64_t bytes = a.getNumElements() * getStorageBytes(a.getElementType());
  // Tensor-core operands start on a 1024-byte swizzle atom.
  if (isa_and_nonnull<MmaLayoutAttr>(
          cast<RankedTensorType>(op.getType()).getEncoding()))
    return (bytes + 1023) / 1024 * 1024;
  return alignTo16(bytes);
}

bool tilec::tile::atomicNeedsBroadcast(Operation *op) {
  assert((isa<AtomicRMWOp, AtomicCASOp>(op)) && "not an atomic");
  Value result = op->getResult(0);
  if (result.use_empty())
    return false;
  if (!isa<RankedTensorType>(result.getType()))
    return true;
  std::optional<TileDistribution> dist =
      TileDistribution::get(result.getType());
  return dist && dist->hasDuplicates();
}

int64_t tilec::tile::getScratchBytes(Operation *op) {
  if (isDataMovementOp(op)) {
    auto src = cast<RankedTensorType>(op->getOperand(0).getType());
    if (!getLayout(src) || !getLayout(op->getResult(0).getType()) ||
        getDataMovementRemap(op))
      return 0;
    return src.getNumElements() * getStorageBytes(src.getElementType());
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    int64_t warps = getReduceWarpsAlongAxis(reduce);
    if (warps == 1)
      return 0;
    int64_t slots = getResultElements(reduce) * warps;
    if (isArgReduce(reduce))
      return getReduceIndexOffset(reduce) + slots * 4;
    Type elem =
        cast<RankedTensorType>(reduce.getSrc().getType()).getElementType();
    return slots * getStorageBytes(elem);
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    std::optional<TileDistribution> dist =
        TileDistribution::get(scan.getType());
    if (!dist)
      return 0;
    for (unsigned b = 0; b < dist->getNumWarpBits(); ++b)
      if (classifyBasis(dist->getWarpBasis(b), scan.getAxis()) == BitKind::Axis)
        return dist->getNumElements() *
               getStorageBytes(scan.getType().getElementType());
    return 0;
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    auto b = cast<RankedTensorType>(dot.getB().getType());
    return getDotOperandBOffset(dot) +
           b.getNumElements() * getStorageBytes(b.getElementType());
  }
  if (auto store = dyn_cast<AsyncTmaStoreOp>(op)) {
    // The staged tile, on 1024-byte swizzle atoms.
    auto type = cast<RankedTensorType>(store.getValue().getType());
    return llvm::alignTo(
        type.getNumElements() * getStorageBytes(type.getElementType()), 1024);
  }
  if (isa<AtomicRMWOp, AtomicCASOp>(op)) {
    if (!atomicNeedsBroadcast(op))
      return 0;
    Type type = op->getResult(0).getType();
    auto tensor = dyn_cast<RankedTensorType>(type);
    return (tensor ? tensor.getNumElements() : 1) *
           getStorageBytes(getElementTypeOrSelf(type));
  }
  return 0;
}
