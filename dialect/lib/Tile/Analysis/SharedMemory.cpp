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

SmallVector<Type> tilec::tile::getCombinedTypes(Operation *op) {
  SmallVector<Type> types;
  for (Value src : op->getOperands())
    types.push_back(getElementTypeOrSelf(src.getType()));
  if (auto reduce = dyn_cast<ReduceOp>(op))
    if (reduce.getKind() == ReduceKind::ArgMax ||
        reduce.getKind() == ReduceKind::ArgMin)
      types.push_back(IntegerType::get(op->getContext(), 32));
  return types;
}

/// The axis of a reduction or scan.
static unsigned getCombineAxis(Operation *op) {
  return op->getAttrOfType<IntegerAttr>("axis").getInt();
}

int64_t tilec::tile::getReduceWarpsAlongAxis(Operation *op) {
  assert((isa<ReduceOp, CombineReduceOp>(op)) && "not a reduction");
  std::optional<TileDistribution> src =
      TileDistribution::get(op->getOperand(0).getType());
  if (!src)
    return 1;
  int64_t warps = 1;
  for (unsigned b = 0; b < src->getNumWarpBits(); ++b)
    if (classifyBasis(src->getWarpBasis(b), getCombineAxis(op)) ==
        BitKind::Axis)
      warps *= 2;
  return warps;
}

/// Whether warps split the axis of a scan (its operands go through shared
/// memory).
static bool scanCrossesWarps(Operation *op) {
  std::optional<TileDistribution> dist =
      TileDistribution::get(op->getOperand(0).getType());
  if (!dist)
    return false;
  for (unsigned b = 0; b < dist->getNumWarpBits(); ++b)
    if (classifyBasis(dist->getWarpBasis(b), getCombineAxis(op)) ==
        BitKind::Axis)
      return true;
  return false;
}

SmallVector<int64_t> tilec::tile::getCombineScratchOffsets(Operation *op) {
  // A reduction stores one slot per result element and warp along the axis;
  // a scan stores every element of the tile.
  int64_t slots = 0;
  if (isa<ReduceOp, CombineReduceOp>(op)) {
    int64_t warps = getReduceWarpsAlongAxis(op);
    auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    slots = warps == 1 ? 0 : (result ? result.getNumElements() : 1) * warps;
  } else if (scanCrossesWarps(op)) {
    slots =
        cast<RankedTensorType>(op->getOperand(0).getType()).getNumElements();
  }
  SmallVector<int64_t> offsets = {0};
  for (Type type : getCombinedTypes(op))
    offsets.push_back(
        alignTo16(offsets.back() + slots * getStorageBytes(type)));
  return offsets;
}

bool tilec::tile::dotReadsARegisters(DotOp op) {
  return getWgmmaRegisterFragments(cast<RankedTensorType>(op.getA().getType()),
                                   op.getType())
      .has_value();
}

int64_t tilec::tile::getDotOperandBOffset(DotOp op) {
  if (dotReadsARegisters(op))
    return 0;
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
  if (isa<ReduceOp, CombineReduceOp, ScanOp, CombineScanOp>(op))
    return getCombineScratchOffsets(op).back();
  if (auto gather = dyn_cast<GatherOp>(op)) {
    // The source, row-major.
    auto src = cast<RankedTensorType>(gather.getSrc().getType());
    return src.getNumElements() * getStorageBytes(src.getElementType());
  }
  if (auto histogram = dyn_cast<HistogramOp>(op))
    // One i32 count a bin.
    return cast<RankedTensorType>(histogram.getType()).getNumElements() * 4;
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
