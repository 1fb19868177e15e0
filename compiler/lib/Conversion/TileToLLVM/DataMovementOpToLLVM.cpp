//===- DataMovementOpToLLVM.cpp - Layout and shape changes ------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers the ops that move a tile's elements without computing on them:
// tile.convert_layout, tile.expand_dims, tile.broadcast, tile.reshape and
// tile.trans. Each result element is some operand element (SharedMemory.h's
// getOperandCoords says which). When every thread already holds the operand
// elements of its result registers, the lowering only picks registers; else
// the elements go through shared memory:
//
//   barrier; each thread stores its (distinct) registers at their row-major
//   index in the operand; barrier; each thread loads its result registers
//   from the row-major index of their operand coordinates.
//
// Elements that several threads hold are stored by each of them, with the
// same value.
//
// tile.gather goes the same way, the operand coordinate along its axis
// coming from the index tile (which the result's layout matches): clamped
// to the axis, so that no index reads outside the staged source.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// The row-major operand index (i32) of the element that result coordinates
/// `coords` (runtime values) hold, for data-movement op `op`.
static Value emitOperandIndex(OpBuilder &b, Location loc, Operation *op,
                              ArrayRef<Value> coords) {
  auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
  auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<Value> src(coords);
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    src.erase(src.begin() + expand.getAxis());
  } else if (isa<BroadcastOp>(op)) {
    for (unsigned d = 0; d < src.size(); ++d)
      if (srcType.getDimSize(d) == 1)
        src[d] = i32Constant(b, loc, 0);
  } else if (isa<ReshapeOp>(op)) {
    // The same row-major index in both shapes.
    return linearizeIndex(b, loc, coords, dstType.getShape());
  } else if (auto trans = dyn_cast<TransOp>(op)) {
    for (auto [i, d] : llvm::enumerate(trans.getOrder()))
      src[d] = coords[i];
  }
  return linearizeIndex(b, loc, src, srcType.getShape());
}

/// The registers of `dist` one shared-memory access moves as a vector:
/// those holding consecutive elements of a row (the scratch buffer is
/// row-major), up to 16 bytes of `elemType`; single registers for i1 (bytes
/// in memory) and non-scalar elements.
static TileDistribution::RegisterVectors
getSharedVectors(const TileDistribution &dist, Type elemType) {
  bool scalar = elemType.isIntOrFloat() && !elemType.isInteger(1);
  return dist.getRegisterVectors(dist.getRank() - 1,
                                 scalar ? 16 / getStorageBytes(elemType) : 1);
}

/// Where a shared-memory round trip reads from.
struct Staged {
  /// The scratch buffer's address.
  Value base;
  /// The coordinates of each result register of the running thread.
  SmallVector<SmallVector<Value>> dstIndices;
};

/// Stores the registers of a tile of `srcType` (each element once a thread)
/// at their row-major index in `op`'s scratch buffer, between barriers, and
/// indexes the result registers of a tile of `dstType`.
static Staged stageInShared(OpBuilder &b, Location loc, Operation *op,
                            RankedTensorType srcType,
                            const TileDistribution &src,
                            ArrayRef<Value> srcRegs, RankedTensorType dstType) {
  Staged staged;
  staged.base = getScratchBase(b, loc, op);
  SmallVector<SmallVector<Value>> srcIndices = emitIndices(b, loc, srcType);
  staged.dstIndices = emitIndices(b, loc, dstType);
  emitBarrier(b, loc);
  Type elemType = srcRegs.front().getType();
  TileDistribution::RegisterVectors vectors = getSharedVectors(src, elemType);
  int64_t width = vectors.offsets.size();
  for (int64_t r = 0; r < src.getNumRegisters(); ++r) {
    if ((r & vectors.bits) || src.isDuplicateRegister(r))
      continue;
    Value index = linearizeIndex(b, loc, srcIndices[r], srcType.getShape());
    if (width == 1) {
      storeShared(b, loc, staged.base, index, srcRegs[r]);
      continue;
    }
    // `width` registers in one vector store.
    auto vectorType = VectorType::get({width}, elemType);
    Value vector = LLVM::UndefOp::create(b, loc, vectorType);
    for (auto [i, offset] : llvm::enumerate(vectors.offsets))
      vector = LLVM::InsertElementOp::create(
          b, loc, vector, srcRegs[r + offset], i32Constant(b, loc, i));
    Value ptr = LLVM::GEPOp::create(b, loc, staged.base.getType(), elemType,
                                    staged.base, ValueRange{index});
    LLVM::StoreOp::create(b, loc, vector, ptr,
                          width * getStorageBytes(elemType));
  }
  emitBarrier(b, loc);
  return staged;
}

/// Lowers any of the data-movement ops.
template <typename OpTy>
struct DataMovementOpLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op->getOperand(0).getType());
    auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
    Type llvmType = this->getTypeConverter()->convertType(dstType);
    Type elemType =
        this->getTypeConverter()->convertType(dstType.getElementType());
    if (!llvmType || !elemType || !getLayout(srcType))
      return rewriter.notifyMatchFailure(op, "tiles without layouts");
    SmallVector<Value> srcRegs =
        unpackRegisters(rewriter, loc, adaptor.getOperands()[0]);

    if (std::optional<SmallVector<int64_t>> remap = getDataMovementRemap(op)) {
      SmallVector<Value> regs;
      for (int64_t r : *remap)
        regs.push_back(srcRegs[r]);
      rewriter.replaceOp(op, packRegisters(rewriter, loc, llvmType, regs));
      return success();
    }

    std::optional<TileDistribution> src = TileDistribution::get(srcType);
    if (!src)
      return op.emitOpError("operand layout is not supported");
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();

    Staged staged =
        stageInShared(rewriter, loc, op, srcType, *src, srcRegs, dstType);
    // A conversion reads its result's registers where they lie, in vectors
    // of registers holding consecutive elements of a row.
    TileDistribution::RegisterVectors vectors;
    vectors.offsets = {0};
    if (isa<ConvertLayoutOp>(op))
      if (std::optional<TileDistribution> dst = TileDistribution::get(dstType))
        vectors = getSharedVectors(*dst, elemType);
    int64_t width = vectors.offsets.size();
    SmallVector<Value> regs(staged.dstIndices.size());
    for (auto [r, coords] : llvm::enumerate(staged.dstIndices)) {
      if (int64_t(r) & vectors.bits)
        continue;
      Value index = emitOperandIndex(rewriter, loc, op, coords);
      if (width == 1) {
        regs[r] = loadShared(rewriter, loc, staged.base, index, elemType);
        continue;
      }
      auto vectorType = VectorType::get({width}, elemType);
      Value ptr = LLVM::GEPOp::create(rewriter, loc, staged.base.getType(),
                                      elemType, staged.base, ValueRange{index});
      Value vector = LLVM::LoadOp::create(rewriter, loc, vectorType, ptr,
                                          width * getStorageBytes(elemType));
      for (auto [i, offset] : llvm::enumerate(vectors.offsets))
        regs[r + offset] = LLVM::ExtractElementOp::create(
            rewriter, loc, vector, i32Constant(rewriter, loc, i));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, llvmType, regs));
    return success();
  }
};

/// Lowers tile.gather through shared memory.
struct GatherOpLowering : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto indexType = cast<RankedTensorType>(op.getIndex().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Type llvmType = getTypeConverter()->convertType(dstType);
    Type elemType = getTypeConverter()->convertType(dstType.getElementType());
    if (!llvmType || !elemType || !getLayout(srcType) || !getLayout(dstType))
      return rewriter.notifyMatchFailure(op, "tiles without layouts");
    if (indexType.getEncoding() != dstType.getEncoding())
      return op.emitOpError("index and result layouts differ");
    std::optional<TileDistribution> src = TileDistribution::get(srcType);
    if (!src)
      return op.emitOpError("operand layout is not supported");
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();

    SmallVector<Value> srcRegs =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> indexRegs =
        unpackRegisters(rewriter, loc, adaptor.getIndex());
    Staged staged =
        stageInShared(rewriter, loc, op, srcType, *src, srcRegs, dstType);

    unsigned axis = op.getAxis();
    Type indexElem = indexRegs.front().getType();
    Value zero = LLVM::ConstantOp::create(
        rewriter, loc, indexElem, rewriter.getIntegerAttr(indexElem, 0));
    Value last = LLVM::ConstantOp::create(
        rewriter, loc, indexElem,
        rewriter.getIntegerAttr(indexElem, srcType.getDimSize(axis) - 1));
    SmallVector<Value> regs;
    for (auto [coords, i] : llvm::zip_equal(staged.dstIndices, indexRegs)) {
      // clamp(i, 0, size - 1) in the index's width, then i32.
      Value below = LLVM::ICmpOp::create(rewriter, loc,
                                         LLVM::ICmpPredicate::slt, i, zero);
      i = LLVM::SelectOp::create(rewriter, loc, below, zero, i);
      Value above = LLVM::ICmpOp::create(rewriter, loc,
                                         LLVM::ICmpPredicate::sgt, i, last);
      i = LLVM::SelectOp::create(rewriter, loc, above, last, i);
      unsigned width = indexElem.getIntOrFloatBitWidth();
      if (width > 32)
        i = LLVM::TruncOp::create(rewriter, loc, rewriter.getI32Type(), i);
      else if (width < 32)
        i = LLVM::ZExtOp::create(rewriter, loc, rewriter.getI32Type(), i);
      SmallVector<Value> at(coords);
      at[axis] = i;
      Value index = linearizeIndex(rewriter, loc, at, srcType.getShape());
      regs.push_back(loadShared(rewriter, loc, staged.base, index, elemType));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, llvmType, regs));
    return success();
  }
};

} // namespace

void tilec::populateDataMovementOpToLLVMPatterns(TileTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<DataMovementOpLowering<ConvertLayoutOp>,
               DataMovementOpLowering<ExpandDimsOp>,
               DataMovementOpLowering<BroadcastOp>,
               DataMovementOpLowering<ReshapeOp>,
               DataMovementOpLowering<TransOp>, GatherOpLowering>(converter,
                                                                  ctx);
}
