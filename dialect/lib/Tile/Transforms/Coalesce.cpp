//===- Coalesce.cpp - Lay out accesses along contiguous addresses ---------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements the tile-coalesce pass: a global load or store whose addresses
// are consecutive along a dimension other than the fastest one of its layout
// is moved to a blocked layout whose lanes run along that dimension, so that
// a warp touches consecutive addresses (and each thread a vector of them when
// AxisInfo proves the alignment). A store whose threads hold runs longer
// than one 16-byte vector moves to a layout of one vector a thread. The B
// operand of a tf32 or 8-bit wgmma (which read B only K-major), read from
// rows of N, gets the layout tile-pipeline stages it through: 4 elements of
// N and 4 or more of K per thread, so that a thread's registers hold whole
// vectors of K.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/AxisInfo.h"
#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/Analysis/TensorCores.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILECOALESCE
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// The largest tile a store moves to another layout for (its value then
/// goes through this much shared memory).
constexpr int64_t kMaxStoreMoveBytes = 32 * 1024;

/// A blocked layout of `shape` over `numWarps` warps whose fastest dimension
/// is `fastest`, with `vector` consecutive elements per thread along it.
static BlockedLayoutAttr buildLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                     unsigned numWarps, unsigned fastest,
                                     int64_t vector) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order{fastest}, spt(rank, 1), tpw(rank, 1),
      wpc(rank, 1);
  for (unsigned d = rank; d-- > 0;)
    if (d != fastest)
      order.push_back(d);
  spt[fastest] = std::min<int64_t>(vector, shape[fastest]);
  unsigned lanes = 32, warps = numWarps;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    tpw[d] = std::min<int64_t>(lanes, room);
    lanes /= tpw[d];
  }
  tpw[order.back()] *= lanes;
  for (unsigned d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d]));
    wpc[d] = std::min<int64_t>(warps, room);
    warps /= wpc[d];
  }
  wpc[order.back()] *= warps;
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpc, order);
}

/// Whether the tile `load` reads is the B operand of a wgmma product of
/// 32-bit or 8-bit elements and nothing else (directly or through one
/// conversion), which reads it K-major (not transposed).
static bool isWgmmaKMajorB(LoadOp load) {
  Value value = load.getResult();
  if (!value.hasOneUse())
    return false;
  Operation *user = *value.getUsers().begin();
  if (auto convert = dyn_cast<ConvertLayoutOp>(user)) {
    if (!convert->hasOneUse())
      return false;
    value = convert.getResult();
    user = *convert->getUsers().begin();
  }
  auto dot = dyn_cast<DotOp>(user);
  auto mma = dot ? dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding())
                 : MmaLayoutAttr();
  return mma && mma.isWgmma() && !mma.getTransposed() && dot.getB() == value &&
         dot.getA() != value &&
         wgmmaReadsBOnlyKMajor(
             cast<RankedTensorType>(value.getType()).getElementType());
}

/// The layout of a K x N tile with rows of N contiguous that wgmma reads
/// K-major (tf32 and 8-bit products; tile-pipeline stages it through
/// registers): each thread holds 4 elements of N (loaded a row at a time)
/// by 16 bytes of K (4 fp32, 16 bytes; stored along K), or by 4 bytes of K
/// when a tile of bytes is too small for 64 a thread; 8 lanes along K (fewer
/// when K is short) write the chunks of a 128-byte swizzled row without bank
/// conflicts. Null when the tile is too small for a warp.
static BlockedLayoutAttr buildKMajorStagingLayout(MLIRContext *ctx,
                                                  ArrayRef<int64_t> shape,
                                                  int64_t elemBytes,
                                                  unsigned numWarps) {
  int64_t k = shape[0], n = shape[1];
  int64_t perK = 16 / elemBytes;
  if (perK * 4 * 32 * numWarps > k * n)
    perK = 4;
  if (k < perK)
    return BlockedLayoutAttr();
  unsigned lanesK = std::min<int64_t>(8, k / perK), lanesN = 32 / lanesK;
  if (n < 4 * lanesN)
    return BlockedLayoutAttr();
  unsigned warpsN = std::min<int64_t>(numWarps, n / (4 * lanesN));
  return BlockedLayoutAttr::get(ctx, {unsigned(perK), 4}, {lanesK, lanesN},
                                {numWarps / warpsN, warpsN}, {1, 0});
}

/// `value` converted to `layout` just before `user`.
static Value convertTo(OpBuilder &b, Value value, Attribute layout) {
  auto tensor = cast<RankedTensorType>(value.getType());
  auto type =
      RankedTensorType::get(tensor.getShape(), tensor.getElementType(), layout);
  return ConvertLayoutOp::create(b, value.getLoc(), type, value);
}

struct CoalescePass : public tilec::tile::impl::TileCoalesceBase<CoalescePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    std::optional<int64_t> numWarps = getNumWarps(module);
    if (!numWarps)
      return;
    module.walk([&](func::FuncOp func) {
      AxisInfoAnalysis axisInfo;
      // Decide first, rewrite after: AxisInfo reads the IR as it was.
      SmallVector<std::pair<Operation *, BlockedLayoutAttr>> moves;
      func.walk([&](Operation *op) {
        if (!isa<LoadOp, StoreOp>(op))
          return;
        Value ptr = op->getOperand(0);
        auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
        auto layout = dyn_cast_or_null<BlockedLayoutAttr>(
            tensor ? tensor.getEncoding() : Attribute());
        if (!tensor || !layout)
          return;
        Value mask = isa<LoadOp>(op) ? cast<LoadOp>(op).getMask()
                                     : cast<StoreOp>(op).getMask();
        Type pointee = cast<PtrType>(tensor.getElementType()).getPointeeType();
        int64_t maxElems = std::max<int64_t>(1, 16 / getStorageBytes(pointee));
        unsigned fastest = layout.getOrder().front();
        if (isa<StoreOp>(op)) {
          // A thread's run of consecutive elements longer than its widest
          // store (fp32 values in the layout of fp16 loads: 8 a thread, two
          // 16-byte stores) leaves gaps in each of a warp's store
          // instructions, every 32-byte sector written in halves; with one
          // vector a thread, each instruction writes whole sectors. (Loads
          // keep their layout: the second half comes from L1.) Measured on
          // an H100: the layer-norm backward dX kernel, whose fp32 partial
          // sums of dW and dB are written under a lock, 788 -> 818 GB/s.
          // The value moves through shared memory whole: tiles over
          // kMaxStoreMoveBytes keep their layout (a 64K-element row would
          // need all of it).
          int64_t vector =
              axisInfo.getVectorWidth(ptr, mask, fastest, maxElems);
          int64_t bytes = tensor.getNumElements() * getStorageBytes(pointee);
          if (layout.getSizePerThread()[fastest] > vector &&
              vector == maxElems && bytes <= kMaxStoreMoveBytes) {
            moves.push_back({op, buildLayout(ctx, tensor.getShape(), *numWarps,
                                             fastest, vector)});
            return;
          }
        }
        if (tensor.getRank() < 2)
          return;
        const AxisInfo &info = axisInfo.get(ptr);
        // The dimension with the longest runs of consecutive addresses; the
        // current fastest dimension wins ties.
        unsigned best = layout.getOrder().front();
        for (unsigned d = 0; d < tensor.getRank(); ++d)
          if (info.contiguity[d] > info.contiguity[best])
            best = d;
        // The B operand of a tf32 or 8-bit wgmma, rows of N in vectors of 4.
        auto load = dyn_cast<LoadOp>(op);
        if (load && best == 1 && isWgmmaKMajorB(load) &&
            axisInfo.getVectorWidth(ptr, mask, 1, 4) == 4) {
          BlockedLayoutAttr staging = buildKMajorStagingLayout(
              ctx, tensor.getShape(), getStorageBytes(pointee), *numWarps);
          if (staging && staging != layout)
            moves.push_back({op, staging});
          return;
        }
        if (best == fastest || info.contiguity[best] < 2)
          return;
        int64_t vector = axisInfo.getVectorWidth(ptr, mask, best, maxElems);
        // Moving costs a layout conversion of the loaded value; it pays when
        // the access becomes vectors (measured: scalar column accesses of a
        // small FMA matmul were faster left as they were).
        if (vector < 2)
          return;
        moves.push_back(
            {op, buildLayout(ctx, tensor.getShape(), *numWarps, best, vector)});
      });
      for (auto [op, layout] : moves) {
        OpBuilder b(op);
        // The tiles (pointers, mask, value or `other`); a descriptor's
        // scalars stay as they are.
        for (OpOperand &operand : op->getOpOperands())
          if (isa<RankedTensorType>(operand.get().getType()))
            operand.set(convertTo(b, operand.get(), layout));
        if (auto load = dyn_cast<LoadOp>(op)) {
          Value result = load.getResult();
          Type old = result.getType();
          auto tensor = cast<RankedTensorType>(old);
          result.setType(RankedTensorType::get(
              tensor.getShape(), tensor.getElementType(), layout));
          b.setInsertionPointAfter(op);
          auto back = ConvertLayoutOp::create(b, op->getLoc(), old, result);
          result.replaceAllUsesExcept(back.getResult(), back);
        }
      }
    });
  }
};

} // namespace
