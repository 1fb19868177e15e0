//===- AsyncCopyOpToLLVM.cpp - Shared buffers and cp.async ------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers the shared-memory buffers of pipelined loops and the asynchronous
// copies that fill them:
//
// - tile.local_alloc is the address of its offset in the shared array,
//   after a barrier (ops before it may have used those bytes as scratch),
//   and tile.smem_slot that address plus the slot's byte offset
//   (tile.smem_trans the same address);
// - tile.async_copy is one `cp.async` per group of `width` consecutive
//   registers (chosen by AxisInfo before conversion) of 4, 8 or 16 bytes,
//   into the element's swizzled place (SharedOperand.h); a false mask makes
//   the source size 0, which zero-fills the bytes without reading memory;
// - tile.local_store is `st.shared` of the tile's registers into their
//   swizzled places, up to 16 bytes at a time;
// - tile.async_commit_group is `cp.async.commit_group`, and tile.async_wait
//   `cp.async.wait_group N`, then `fence.proxy.async` (so that wgmma, which
//   reads through the async proxy, sees the bytes) and a barrier (so that
//   every thread's copies are complete).
//
//===----------------------------------------------------------------------===//

#include "SharedOperand.h"
#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Where the elements of the matrix `type` live.
static SharedOperand getSharedOperand(SmemType type) {
  SharedLayoutAttr layout = type.getLayout();
  unsigned inner = layout.getContiguousDim(), outer = 1 - inner;
  return {inner, type.getDimSize(outer), type.getDimSize(inner),
          getStorageBytes(type.getElementType()), layout.getSwizzle()};
}

struct LocalAllocOpLowering : public OpConversionPattern<LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return op.emitOpError("has no offset: run tile-allocate-shared-memory "
                            "first");
    SmemType type = op.getType();
    int64_t bytes =
        type.getSlotBytes() * (type.getRank() == 3 ? type.getDimSize(0) : 1);
    if (failed(checkSharedMemory(op, *offset + bytes)))
      return failure();
    // Ops before the buffer may have used its bytes as scratch (one barrier
    // serves consecutive allocations).
    if (!isa_and_nonnull<LocalAllocOp>(op->getPrevNode()))
      emitBarrier(rewriter, op.getLoc());
    rewriter.replaceOp(op, getSharedMemoryBase(rewriter, op.getLoc(), *offset));
    return success();
  }
};

struct SmemSlotOpLowering : public OpConversionPattern<SmemSlotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SmemSlotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value offset = LLVM::MulOp::create(
        rewriter, loc, adaptor.getIndex(),
        i32Constant(rewriter, loc, op.getSrc().getType().getSlotBytes()));
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
        op, adaptor.getSrc().getType(), rewriter.getI8Type(), adaptor.getSrc(),
        ValueRange{offset});
    return success();
  }
};

/// The transposed view has the same address.
struct SmemTransOpLowering : public OpConversionPattern<SmemTransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SmemTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct AsyncCopyOpLowering : public OpConversionPattern<AsyncCopyOp> {
  AsyncCopyOpLowering(TypeConverter &converter, MLIRContext *ctx,
                      const VectorWidths &widths)
      : OpConversionPattern(converter, ctx), widths(widths) {}

  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getPtr().getType());
    SharedOperand smem = getSharedOperand(op.getDst().getType());
    unsigned inner = smem.innerDim, outer = 1 - inner;
    auto it = widths.find(op);
    int64_t width = it == widths.end() ? 1 : it->second;
    int64_t bytes = width * smem.elemBytes;
    if (bytes != 4 && bytes != 8 && bytes != 16)
      return op.emitOpError("cannot copy ")
             << bytes << "-byte pieces asynchronously (4, 8 or 16 bytes)";
    std::optional<TileDistribution> dist = TileDistribution::get(type);
    if (!dist)
      return op.emitOpError("has a pointer tile without a lowerable layout");

    Type i32 = rewriter.getI32Type();
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, i32, adaptor.getDst());
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> mask;
    if (adaptor.getMask())
      mask = unpackRegisters(rewriter, loc, adaptor.getMask());
    SmallVector<SmallVector<Value>> idx = emitIndices(rewriter, loc, type);
    // .cg (bypassing L1) exists for 16-byte copies only.
    std::string text =
        llvm::formatv("cp.async.{0}.shared.global [$0], [$1], {1}, $2;",
                      bytes == 16 ? "cg" : "ca", bytes)
            .str();
    Value full = i32Constant(rewriter, loc, bytes);
    Value none = i32Constant(rewriter, loc, 0);
    for (int64_t r = 0; r < dist->getNumRegisters(); r += width) {
      if (dist->isDuplicateRegister(r))
        continue;
      Value dst =
          LLVM::AddOp::create(rewriter, loc, base,
                              emitSwizzledOffset(rewriter, loc, smem,
                                                 idx[r][outer], idx[r][inner]));
      Value size = mask.empty() ? full
                                : LLVM::SelectOp::create(rewriter, loc, mask[r],
                                                         full, none);
      emitInlinePtx(rewriter, loc, text, {}, ValueRange{dst, ptrs[r], size});
    }
    rewriter.eraseOp(op);
    return success();
  }

  const VectorWidths &widths;
};

struct LocalStoreOpLowering : public OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    if (!TileDistribution::get(type))
      return op.emitOpError("has a tile without a lowerable layout");
    SharedOperand smem = getSharedOperand(op.getDst().getType());
    Value base = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                          adaptor.getDst());
    storeSharedOperand(rewriter, loc, adaptor.getValue(), type, smem, base, 0);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitGroupOpLowering
    : public OpConversionPattern<AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitInlinePtx(rewriter, op.getLoc(), "cp.async.commit_group;", {}, {});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitOpLowering : public OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitInlinePtx(
        rewriter, loc,
        llvm::formatv("cp.async.wait_group {0};", op.getPending()).str(), {},
        {});
    if (!op.getNoProxyFence())
      emitInlinePtx(rewriter, loc, "fence.proxy.async.shared::cta;", {}, {});
    emitBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tilec::populateAsyncCopyOpToLLVMPatterns(TileTypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              const VectorWidths &widths) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<LocalAllocOpLowering, SmemSlotOpLowering, SmemTransOpLowering,
               LocalStoreOpLowering,
               AsyncCommitGroupOpLowering, AsyncWaitOpLowering>(converter, ctx);
  patterns.add<AsyncCopyOpLowering>(converter, ctx, widths);
}
