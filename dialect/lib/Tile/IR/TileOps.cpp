//===- TileOps.cpp - Operations of the tile dialect -------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Verifiers, folders and memory effects of the tile dialect's operations.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilec::tile;

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// MakeRangeOp
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tensor");
  if (end <= start)
    return emitOpError("end (") << end << ") must be greater than start ("
                                << start << ")";
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError("length ")
           << end - start << " must be a power of two";
  if (type.getDimSize(0) != end - start)
    return emitOpError("result has ")
           << type.getDimSize(0) << " elements, expected " << end - start;
  return success();
}

//===----------------------------------------------------------------------===//
// SplatOp
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  auto value = adaptor.getSrc();
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  auto type = cast<RankedTensorType>(getType());
  if (type.getEncoding())
    return {};
  return DenseElementsAttr::get(type, value);
}

//===----------------------------------------------------------------------===//
// AddPtrOp
//===----------------------------------------------------------------------===//

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

//===----------------------------------------------------------------------===//
// LoadOp and StoreOp
//===----------------------------------------------------------------------===//

/// The pointee type of a pointer or of a tile of pointers, with the shape of
/// the tile.
static Type getPointeeType(Type ptrLike) {
  auto ptr = cast<PtrType>(getElementTypeOrSelf(ptrLike));
  return withElementType(ptrLike, ptr.getPointeeType());
}

/// Checks that `mask` (if present) is i1 with the shape of `ptr`.
static LogicalResult verifyMask(Operation *op, Type ptr, Value mask) {
  if (!mask)
    return success();
  Type expected = withElementType(ptr, IntegerType::get(op->getContext(), 1));
  auto maskTensor = dyn_cast<RankedTensorType>(mask.getType());
  auto ptrTensor = dyn_cast<RankedTensorType>(ptr);
  if (bool(maskTensor) != bool(ptrTensor) ||
      (ptrTensor && maskTensor.getShape() != ptrTensor.getShape()))
    return op->emitOpError("mask type ")
           << mask.getType() << " does not match pointer type " << ptr
           << " (expected " << expected << ")";
  return success();
}

LogicalResult LoadOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  auto resultTensor = dyn_cast<RankedTensorType>(getType());
  auto expectedTensor = dyn_cast<RankedTensorType>(expected);
  if (bool(resultTensor) != bool(expectedTensor) ||
      getElementTypeOrSelf(getType()) != getElementTypeOrSelf(expected) ||
      (resultTensor && resultTensor.getShape() != expectedTensor.getShape()))
    return emitOpError("result type ")
           << getType() << " does not match pointer type "
           << getPtr().getType();
  if (failed(verifyMask(*this, getPtr().getType(), getMask())))
    return failure();
  if (getOther()) {
    if (!getMask())
      return emitOpError("'other' requires a mask");
    if (getOther().getType() != getType())
      return emitOpError("'other' type ")
             << getOther().getType() << " does not match result type "
             << getType();
  }
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult StoreOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  auto valueTensor = dyn_cast<RankedTensorType>(getValue().getType());
  auto expectedTensor = dyn_cast<RankedTensorType>(expected);
  if (bool(valueTensor) != bool(expectedTensor) ||
      getElementTypeOrSelf(getValue().getType()) !=
          getElementTypeOrSelf(expected) ||
      (valueTensor && valueTensor.getShape() != expectedTensor.getShape()))
    return emitOpError("value type ")
           << getValue().getType() << " does not match pointer type "
           << getPtr().getType();
  return verifyMask(*this, getPtr().getType(), getMask());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}
