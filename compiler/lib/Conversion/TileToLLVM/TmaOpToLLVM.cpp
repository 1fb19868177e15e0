//===- TmaOpToLLVM.cpp - TMA copies and mbarriers ---------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers the TMA side of pipelined loops (sm_90a) to inline PTX:
//
// - tile.barrier_alloc: thread 0 initializes `count` mbarriers (`arrivals`
//   arrivals per phase) at the allocation's offset, then
//   `fence.mbarrier_init` and a barrier make them visible to every thread
//   and to TMA;
// - tile.barrier_expect: thread 0 (where the predicate holds) arrives with
//   `mbarrier.arrive.expect_tx` for the stage's bytes;
// - tile.async_tma_copy: thread 0 issues one
//   `cp.async.bulk.tensor.2d...mbarrier::complete_tx::bytes` per
//   swizzle-wide panel of the destination (the tensor map's box), with the
//   innermost coordinate first;
// - tile.barrier_wait: every thread spins on `mbarrier.try_wait.parity`;
// - tile.async_copy_arrive: `cp.async.mbarrier.arrive.noinc` by every
//   thread; tile.barrier_arrive: `__syncwarp`, then lane 0 of each warp
//   `mbarrier.arrive`s;
// - tile.barrier_invalidate: after a barrier, thread 0 invalidates the
//   mbarriers (`mbarrier.inval`) so that their bytes can be reused;
// - tile.async_tma_store: the tile staged swizzled in the op's scratch,
//   `fence.proxy.async`, a barrier, then thread 0 issues one
//   `cp.async.bulk.tensor.2d.global.shared::cta` per panel and waits for
//   them to have read the scratch;
// - tile.cta_barrier: `bar.sync 0` (after `fence.proxy.async` with
//   asyncProxy);
// - tile.start_turns, tile.await_turn, tile.pass_turn, tile.end_turns:
//   warp group k (the thread id / 128) of n syncs on named barrier k + 1
//   (`bar.sync k + 1, 256`) and arrives on barrier (k + 1 mod n) + 1; to
//   start, warp group n - 1 arrives on barrier 1, and to end warp group 0
//   syncs on it. One predicated instruction per warp group.
//
// The tensor map operand is the generic address of its `__grid_constant__`
// kernel parameter.
//
//===----------------------------------------------------------------------===//

#include "SharedOperand.h"
#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// An i32 that is 1 in thread 0 where `pred` (i1, or null for true) holds.
static Value threadZeroAnd(OpBuilder &b, Location loc, Value pred) {
  Value first =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, getThreadId(b, loc),
                           i32Constant(b, loc, 0));
  if (pred)
    first = LLVM::AndOp::create(b, loc, first, pred);
  return LLVM::ZExtOp::create(b, loc, b.getI32Type(), first);
}

/// The 32-bit shared-window address of `ptr` (`!llvm.ptr<3>`) plus `offset`.
static Value sharedAddress(OpBuilder &b, Location loc, Value ptr,
                           Value offset = Value()) {
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), ptr);
  if (offset)
    address = LLVM::AddOp::create(b, loc, address, offset);
  return address;
}

/// The address of mbarrier `index` (i32) of the barriers at `base`.
static Value barrierAddress(OpBuilder &b, Location loc, Value base,
                            Value index) {
  return sharedAddress(
      b, loc, base, LLVM::MulOp::create(b, loc, index, i32Constant(b, loc, 8)));
}

/// Calls `emit` with the shared address (from `base`) and the innermost
/// tensor coordinate (from `inner`) of each swizzle-wide panel of `smem`:
/// one TMA box each.
static void forEachPanel(OpBuilder &b, Location loc, const SharedOperand &smem,
                         Value base, Value inner,
                         llvm::function_ref<void(Value, Value)> emit) {
  int64_t panelElems = smem.swizzle / smem.elemBytes;
  for (int64_t panel = 0; panel * panelElems < smem.inner; ++panel) {
    Value address = LLVM::AddOp::create(
        b, loc, base, i32Constant(b, loc, panel * smem.panelBytes()));
    Value coordinate = LLVM::AddOp::create(
        b, loc, inner, i32Constant(b, loc, panel * panelElems));
    emit(address, coordinate);
  }
}

struct BarrierAllocOpLowering : public OpConversionPattern<BarrierAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = op.getOffset();
    if (!offset)
      return op.emitOpError("has no offset: run tile-allocate-shared-memory "
                            "first");
    unsigned count = op.getType().getCount();
    if (failed(checkSharedMemory(op, *offset + 8 * count)))
      return failure();
    Location loc = op.getLoc();
    Value base = getSharedMemoryBase(rewriter, loc, *offset);
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
    for (unsigned i = 0; i < count; ++i)
      text += llvm::formatv("@p mbarrier.init.shared::cta.b64 [$1+{0}], {1};\n",
                            8 * i, op.getArrivals())
                  .str();
    text += "}";
    // Ops before may have used these bytes as scratch.
    emitBarrier(rewriter, loc);
    emitInlinePtx(rewriter, loc, text, {},
                  ValueRange{threadZeroAnd(rewriter, loc, Value()),
                             sharedAddress(rewriter, loc, base)});
    emitInlinePtx(rewriter, loc, "fence.mbarrier_init.release.cluster;", {},
                  {});
    emitBarrier(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct BarrierInvalidateOpLowering
    : public OpConversionPattern<BarrierInvalidateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierInvalidateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned count = op.getBarriers().getType().getCount();
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n";
    for (unsigned i = 0; i < count; ++i)
      text +=
          llvm::formatv("@p mbarrier.inval.shared::cta.b64 [$1+{0}];\n", 8 * i)
              .str();
    text += "}";
    // Every thread has finished waiting on them.
    emitBarrier(rewriter, loc);
    emitInlinePtx(
        rewriter, loc, text, {},
        ValueRange{threadZeroAnd(rewriter, loc, Value()),
                   sharedAddress(rewriter, loc, adaptor.getBarriers())});
    rewriter.eraseOp(op);
    return success();
  }
};

struct CtaBarrierOpLowering : public OpConversionPattern<CtaBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CtaBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getAsyncProxy())
      emitInlinePtx(rewriter, op.getLoc(), "fence.proxy.async.shared::cta;", {},
                    {});
    emitBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.start_turns, tile.await_turn, tile.pass_turn and tile.end_turns: for
/// each warp group k of the n of the program, `instruction` on the named
/// barrier `barrier(k, n)` returns (none where it returns 0), predicated on
/// the warp group.
template <typename OpTy>
struct TurnOpLowering : public OpConversionPattern<OpTy> {
  TurnOpLowering(TypeConverter &converter, MLIRContext *ctx,
                 StringRef instruction,
                 std::function<int64_t(int64_t, int64_t)> barrier)
      : OpConversionPattern<OpTy>(converter, ctx), instruction(instruction),
        barrier(std::move(barrier)) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t groups = getNumWarps(op).value_or(4) / 4;
    std::string text = "{\n.reg .pred p;\n";
    bool any = false;
    for (int64_t k = 0; groups > 1 && k < groups; ++k) {
      int64_t id = barrier(k, groups);
      if (!id)
        continue;
      text += llvm::formatv("setp.eq.b32 p, $0, {0};\n@p {1} {2}, 256;\n", k,
                            instruction, id)
                  .str();
      any = true;
    }
    if (any) {
      Value group =
          LLVM::LShrOp::create(rewriter, loc, getThreadId(rewriter, loc),
                               i32Constant(rewriter, loc, 7));
      emitInlinePtx(rewriter, loc, text + "}", {}, ValueRange{group});
    }
    rewriter.eraseOp(op);
    return success();
  }

  std::string instruction;
  std::function<int64_t(int64_t, int64_t)> barrier;
};

struct AsyncCopyArriveOpLowering
    : public OpConversionPattern<AsyncCopyArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncCopyArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitInlinePtx(
        rewriter, loc, "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [$0];",
        {},
        ValueRange{barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                  adaptor.getIndex())});
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierArriveOpLowering : public OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lane = LLVM::AndOp::create(rewriter, loc, getThreadId(rewriter, loc),
                                     i32Constant(rewriter, loc, 31));
    emitInlinePtx(
        rewriter, loc,
        "{\n.reg .pred p;\nbar.warp.sync -1;\n"
        "setp.eq.b32 p, $0, 0;\n"
        "@p mbarrier.arrive.shared::cta.b64 _, [$1];\n}",
        {},
        ValueRange{lane, barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                        adaptor.getIndex())});
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierExpectOpLowering : public OpConversionPattern<BarrierExpectOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierExpectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string text = llvm::formatv(
        "{{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n"
        "@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], {0};\n}",
        op.getBytes());
    emitInlinePtx(
        rewriter, loc, text, {},
        ValueRange{threadZeroAnd(rewriter, loc, adaptor.getPred()),
                   barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                  adaptor.getIndex())});
    rewriter.eraseOp(op);
    return success();
  }
};

/// The operand list `$first, $first+1, ...` of a bulk tensor copy's
/// `count` coordinates.
static std::string tensorCoordList(unsigned first, size_t count) {
  std::string list;
  for (size_t i = 0; i < count; ++i)
    list += (i ? ", $" : "$") + std::to_string(first + i);
  return list;
}

/// Appends a bulk tensor copy's coordinates, innermost first as PTX takes
/// them: the panel's column `inner`, then the rest of `coords` (outermost
/// first) from the row outwards.
static void appendInnermostFirst(SmallVectorImpl<Value> &operands,
                                 ValueRange coords, Value inner) {
  operands.push_back(inner);
  for (Value coord : llvm::reverse(coords.drop_back()))
    operands.push_back(coord);
}

struct AsyncTmaCopyOpLowering : public OpConversionPattern<AsyncTmaCopyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncTmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmemType type = op.getDst().getType();
    SharedLayoutAttr layout = type.getLayout();
    if (layout.getContiguousDim() != 1)
      return op.emitOpError("TMA writes rows of the tensor contiguously: the "
                            "destination must store dimension 1 "
                            "contiguously");
    int64_t elemBytes = getStorageBytes(type.getElementType());
    SharedOperand smem{1, type.getDimSize(0), type.getDimSize(1), elemBytes,
                       layout.getSwizzle()};
    Value pred = threadZeroAnd(rewriter, loc, adaptor.getPred());
    Value bar = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                               adaptor.getIndex());
    Value dst = sharedAddress(rewriter, loc, adaptor.getDst());
    ValueRange coords = adaptor.getCoords();
    std::string text =
        "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n"
        "@p cp.async.bulk.tensor." +
        std::to_string(coords.size()) +
        "d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {" +
        tensorCoordList(3, coords.size()) + "}], [$" +
        std::to_string(3 + coords.size()) + "];\n}";
    forEachPanel(
        rewriter, loc, smem, dst, coords.back(),
        [&](Value panelDst, Value panelInner) {
          SmallVector<Value> operands = {pred, panelDst, adaptor.getMap()};
          appendInnermostFirst(operands, coords, panelInner);
          operands.push_back(bar);
          emitInlinePtx(rewriter, loc, text, {}, operands);
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.async_tma_store: the tile is staged in the op's scratch in the
/// swizzled layout (one panel per TMA box), made visible to the async proxy,
/// and thread 0 issues one bulk tensor store per panel, then waits until
/// they have read the scratch (so that the next user of it may write).
struct AsyncTmaStoreOpLowering : public OpConversionPattern<AsyncTmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncTmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    if (!TileDistribution::get(type))
      return op.emitOpError("stores a tile without a lowerable layout");
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();
    int64_t elemBytes = getStorageBytes(type.getElementType());
    SharedOperand smem =
        SharedOperand::get(1, type.getDimSize(0), type.getDimSize(1), elemBytes,
                           op.getSwizzleBytes());
    Value base =
        sharedAddress(rewriter, loc, getScratchBase(rewriter, loc, op));
    emitBarrier(rewriter, loc);
    storeSharedOperand(rewriter, loc, adaptor.getValue(), type, smem, base, 0);
    emitInlinePtx(rewriter, loc, "fence.proxy.async.shared::cta;", {}, {});
    emitBarrier(rewriter, loc);
    Value pred = threadZeroAnd(rewriter, loc, Value());
    ValueRange coords = adaptor.getCoords();
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n"
                       "@p cp.async.bulk.tensor." +
                       std::to_string(coords.size()) +
                       "d.global.shared::cta.bulk_group [$1, {" +
                       tensorCoordList(2, coords.size()) + "}], [$" +
                       std::to_string(2 + coords.size()) + "];\n}";
    forEachPanel(rewriter, loc, smem, base, coords.back(),
                 [&](Value panelSrc, Value panelInner) {
                   SmallVector<Value> operands = {pred, adaptor.getMap()};
                   appendInnermostFirst(operands, coords, panelInner);
                   operands.push_back(panelSrc);
                   emitInlinePtx(rewriter, loc, text, {}, operands);
                 });
    // Threads that issued nothing have no group to wait for.
    emitInlinePtx(rewriter, loc,
                  "cp.async.bulk.commit_group;\n"
                  "cp.async.bulk.wait_group.read 0;",
                  {}, {});
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierWaitOpLowering : public OpConversionPattern<BarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitInlinePtx(
        rewriter, loc,
        "{\n.reg .pred done;\ntilec_wait_${:uid}:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\n"
        "@!done bra tilec_wait_${:uid};\n}",
        {},
        ValueRange{barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                  adaptor.getIndex()),
                   adaptor.getParity()});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tilec::populateTmaOpToLLVMPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<BarrierAllocOpLowering, BarrierInvalidateOpLowering,
               CtaBarrierOpLowering, AsyncTmaStoreOpLowering,
               BarrierExpectOpLowering, AsyncTmaCopyOpLowering,
               BarrierWaitOpLowering, AsyncCopyArriveOpLowering,
               BarrierArriveOpLowering>(converter, patterns.getContext());
  MLIRContext *ctx = patterns.getContext();
  // Warp group k syncs on barrier k + 1 and arrives on the next group's;
  // the last group starts the cycle by arriving on warp group 0's.
  patterns.add<TurnOpLowering<AwaitTurnOp>>(
      converter, ctx, "bar.sync", [](int64_t k, int64_t) { return k + 1; });
  patterns.add<TurnOpLowering<PassTurnOp>>(
      converter, ctx, "bar.arrive",
      [](int64_t k, int64_t n) { return (k + 1) % n + 1; });
  patterns.add<TurnOpLowering<StartTurnsOp>>(
      converter, ctx, "bar.arrive",
      [](int64_t k, int64_t n) -> int64_t { return k == n - 1 ? 1 : 0; });
  patterns.add<TurnOpLowering<EndTurnsOp>>(
      converter, ctx, "bar.sync",
      [](int64_t k, int64_t) -> int64_t { return k == 0 ? 1 : 0; });
}
