//===- AssignLayouts.cpp - Give every tile a layout -------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements the tile-assign-layouts pass. Ops are visited in program order
// (a region-holding op before its regions), so that the layouts of a value's
// operands are known when it is visited. Each op's results get a layout by a
// local rule (Passes.td lists them), and every operand whose layout differs
// from what the op needs is converted with tile.convert_layout. No attempt is
// made here to avoid conversions: tile-remove-layout-conversions does that.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/Analysis/TensorCores.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>

namespace tilec::tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// The accumulator layout of a dot on the FMA path (no tensor cores), for
/// its M x N shape over `numWarps` warps and operands of `elemBytes`-byte
/// elements, or null when the tile has fewer elements than the program has
/// threads. Each thread holds TM rows and TN columns (TM * TN = M * N /
/// threads, TN = TM or 2 TM), so that a k step loads TM elements of a and
/// TN of b for TM * TN multiply-adds; it holds them in blocks of at most 16
/// bytes of the operand type in each dimension (the rest repeats the
/// pattern), so that the lanes of a warp load consecutive 16-byte pieces of
/// the dot's staging buffers. Lanes then warps go along N first.
static BlockedLayoutAttr buildFmaLayout(MLIRContext *ctx,
                                        ArrayRef<int64_t> shape,
                                        unsigned numWarps, int64_t elemBytes) {
  int64_t threads = 32 * int64_t(numWarps);
  int64_t M = shape[0], N = shape[1];
  if (M * N < threads)
    return {};
  int64_t perThread = M * N / threads;
  int64_t tm = int64_t(1) << (llvm::Log2_64(perThread) / 2);
  int64_t tn = perThread / tm;
  if (tm > M || tn > N)
    return {};
  int64_t vector = std::max<int64_t>(1, 16 / elemBytes);
  unsigned threadsN = N / tn;
  unsigned lanesN = std::min<unsigned>(32, threadsN);
  unsigned warpsN = threadsN / lanesN;
  if (warpsN > numWarps || (M / tm) * threadsN != threads)
    return {};
  return BlockedLayoutAttr::get(
      ctx, {unsigned(std::min(tm, vector)), unsigned(std::min(tn, vector))},
      {32 / lanesN, lanesN}, {numWarps / warpsN, warpsN}, {1, 0});
}

/// Builds the blocked layout for tiles of `shape` over `numWarps` warps, with
/// `vector` consecutive elements per thread along the last dimension, fewer
/// where a tile has fewer than `vector` elements a thread: every thread then
/// holds different elements (a 256-element tile over 128 threads takes 2
/// each, not 4 each on 64 threads with the other 64 repeating them).
static BlockedLayoutAttr buildBlockedLayout(MLIRContext *ctx,
                                            ArrayRef<int64_t> shape,
                                            unsigned numWarps,
                                            unsigned vector) {
  unsigned rank = shape.size();
  SmallVector<unsigned> order, spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  for (unsigned d = 0; d < rank; ++d)
    order.push_back(rank - 1 - d);
  int64_t perThread =
      std::max<int64_t>(1, ShapedType::getNumElements(shape) / (32 * numWarps));
  spt[rank - 1] = std::min<int64_t>({vector, shape[rank - 1], perThread});
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

/// Whether arith/math/tile treat `op` as applied element by element.
static bool isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(op);
}

/// Whether the pointer tile `ptr` is a value an `scf.for` carries, advanced
/// (through `tile.addptr`) or as it is.
static bool isLoopCarried(Value ptr) {
  while (auto add = ptr.getDefiningOp<AddPtrOp>())
    ptr = add.getPtr();
  auto arg = dyn_cast<BlockArgument>(ptr);
  return arg && isa<scf::ForOp>(arg.getOwner()->getParentOp()) &&
         arg.getArgNumber() > 0;
}

/// The state of one run of the pass over a module.
class LayoutAssigner {
public:
  LayoutAssigner(MLIRContext *ctx, unsigned numWarps, unsigned vector,
                 const TargetInfo &target)
      : ctx(ctx), numWarps(numWarps), vector(vector), target(target) {}

  /// Gives the results (and region arguments) of `op` layouts and converts
  /// its operands.
  LogicalResult visit(Operation *op);

private:
  /// The default layout of tiles of `shape`.
  Attribute getDefaultLayout(ArrayRef<int64_t> shape) {
    SmallVector<int64_t> key(shape);
    auto it = defaults.find(key);
    if (it != defaults.end())
      return it->second;
    Attribute layout = buildBlockedLayout(ctx, shape, numWarps, vector);
    defaults[key] = layout;
    return layout;
  }
  Attribute getDefaultLayout(Type type) {
    return getDefaultLayout(cast<RankedTensorType>(type).getShape());
  }

  /// `type` (a tensor) with layout `layout`.
  static Type withLayout(Type type, Attribute layout) {
    auto tensor = cast<RankedTensorType>(type);
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                 layout);
  }

  /// Gives `value` (a tensor result or block argument without a layout)
  /// the layout `layout`.
  static void setLayout(Value value, Attribute layout) {
    auto tensor = dyn_cast<RankedTensorType>(value.getType());
    if (tensor && !tensor.getEncoding())
      value.setType(withLayout(tensor, layout));
  }

  /// Makes operand `operand` of its owner have type `type`, converting the
  /// value just before the owner when its layout differs.
  void convertOperand(OpOperand &operand, Type type) {
    Value value = operand.get();
    if (value.getType() == type || !isa<RankedTensorType>(type))
      return;
    OpBuilder b(operand.getOwner());
    operand.set(ConvertLayoutOp::create(b, value.getLoc(), type, value));
  }
  void convertOperand(OpOperand &operand, Attribute layout) {
    if (isa<RankedTensorType>(operand.get().getType()))
      convertOperand(operand, withLayout(operand.get().getType(), layout));
  }

  LogicalResult visitElementwise(Operation *op);
  LogicalResult visitYield(scf::YieldOp yield);

  /// The accumulator layout of `dot`: a tensor-core layout where one
  /// applies, else the FMA path's register blocks, else null (the
  /// accumulator's own layout).
  LayoutAttrInterface chooseDotLayout(DotOp dot) {
    if (MmaLayoutAttr mma = chooseMmaLayout(dot, numWarps, target))
      return mma;
    return buildFmaLayout(
        ctx, dot.getType().getShape(), numWarps,
        getStorageBytes(
            cast<RankedTensorType>(dot.getA().getType()).getElementType()));
  }

  /// The dot accumulator layout (chooseDotLayout) of the loop value that
  /// `forOp` yields at `index`, when that value is a dot's result, or the
  /// loop value plus one (the accumulator of a K loop then stays in that
  /// layout).
  LayoutAttrInterface getYieldedDotLayout(scf::ForOp forOp, unsigned index) {
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    Value value = yield.getOperand(index);
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<arith::AddFOp, arith::AddIOp>(def)) {
      Value arg = forOp.getRegionIterArgs()[index];
      if (def->getOperand(0) == arg)
        value = def->getOperand(1);
      else if (def->getOperand(1) == arg)
        value = def->getOperand(0);
    }
    auto dot = value.getDefiningOp<DotOp>();
    return dot ? chooseDotLayout(dot) : LayoutAttrInterface();
  }

  MLIRContext *ctx;
  unsigned numWarps;
  unsigned vector;
  TargetInfo target;
  std::map<SmallVector<int64_t>, Attribute> defaults;
};

LogicalResult LayoutAssigner::visitElementwise(Operation *op) {
  // The first operand in a layout other than its shape's default (a
  // reduction result, a loop value carried in such a layout) decides.
  Attribute layout;
  for (Value operand : op->getOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (tensor && tensor.getEncoding() &&
        tensor.getEncoding() != getDefaultLayout(tensor.getShape())) {
      layout = tensor.getEncoding();
      break;
    }
  }
  if (!layout)
    layout = getDefaultLayout(op->getResult(0).getType());
  for (OpResult result : op->getResults())
    setLayout(result, layout);
  for (OpOperand &operand : op->getOpOperands())
    convertOperand(operand, layout);
  return success();
}

LogicalResult LayoutAssigner::visitYield(scf::YieldOp yield) {
  Operation *parent = yield->getParentOp();
  if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
    // The `then` branch is visited first and decides the results' layouts.
    if (yield->getParentRegion() == &ifOp.getThenRegion())
      for (auto [result, value] :
           llvm::zip_equal(ifOp.getResults(), yield.getOperands()))
        if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
          setLayout(result, tensor.getEncoding());
    for (auto [result, operand] :
         llvm::zip_equal(ifOp.getResults(), yield->getOpOperands()))
      convertOperand(operand, result.getType());
    return success();
  }
  if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
    for (auto [result, operand] :
         llvm::zip_equal(forOp.getResults(), yield->getOpOperands()))
      convertOperand(operand, result.getType());
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
    for (auto [arg, operand] :
         llvm::zip_equal(whileOp.getBeforeArguments(), yield->getOpOperands()))
      convertOperand(operand, arg.getType());
    return success();
  }
  if (llvm::any_of(yield.getOperandTypes(), llvm::IsaPred<RankedTensorType>))
    return parent->emitOpError("with tile results is not supported at the "
                               "GPU level");
  return success();
}

LogicalResult LayoutAssigner::visit(Operation *op) {
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
    if (auto tensor = dyn_cast<RankedTensorType>(type);
        tensor && tensor.getRank() == 0)
      return op->emitOpError("rank-0 tiles are not supported; use scalars");

  if (auto func = dyn_cast<func::FuncOp>(op)) {
    if (llvm::any_of(func.getArgumentTypes(),
                     llvm::IsaPred<RankedTensorType>) ||
        llvm::any_of(func.getResultTypes(), llvm::IsaPred<RankedTensorType>))
      return op->emitOpError("tile arguments and results are not supported");
    return success();
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto tensor = dyn_cast<RankedTensorType>(constant.getType());
    if (!tensor || tensor.getEncoding())
      return success();
    setLayout(constant.getResult(), getDefaultLayout(tensor));
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
      constant.setValueAttr(
          withEncoding(dense, cast<RankedTensorType>(constant.getType())));
    return success();
  }
  if (auto load = dyn_cast<LoadOp>(op)) {
    Attribute layout = getLayout(load.getPtr().getType());
    if (!layout)
      return success(); // a scalar load
    setLayout(load.getResult(), layout);
    for (OpOperand &operand : op->getOpOperands())
      convertOperand(operand, layout);
    return success();
  }
  if (isa<PrintOp, AssertOp>(op)) {
    // Every operand in the first tile operand's layout.
    for (Value arg : op->getOperands())
      if (Attribute layout = getLayout(arg.getType())) {
        for (OpOperand &operand : op->getOpOperands())
          convertOperand(operand, layout);
        break;
      }
    return success();
  }
  if (isa<StoreOp, AtomicRMWOp, AtomicCASOp>(op)) {
    Attribute layout = getLayout(op->getOperand(0).getType());
    if (!layout)
      return success();
    // A value computed in a layout of its own (a reduction result) decides:
    // pointers and masks are usually cheap to recompute in it. Not pointers
    // a loop carries (`dq_ptrs += ...` in attention's backward), which
    // cannot be: the value is converted instead, whose elements take at most
    // the bytes of a pointer, and the loop keeps one copy of the pointers.
    auto value = cast<RankedTensorType>(op->getOperand(1).getType());
    if (value.getEncoding() &&
        value.getEncoding() != getDefaultLayout(value.getShape()) &&
        !isLoopCarried(op->getOperand(0)))
      layout = value.getEncoding();
    for (OpResult result : op->getResults())
      setLayout(result, layout);
    for (OpOperand &operand : op->getOpOperands())
      convertOperand(operand, layout);
    return success();
  }
  if (isElementwise(op) && op->getNumResults() == 1 &&
      isa<RankedTensorType>(op->getResult(0).getType()))
    return visitElementwise(op);
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    Attribute layout = getDefaultLayout(expand.getType());
    setLayout(expand.getResult(), layout);
    auto slice = SliceLayoutAttr::get(
        ctx, expand.getAxis(),
        cast<LayoutAttrInterface>(getLayout(expand.getType())));
    convertOperand(expand.getSrcMutable(), slice);
    return success();
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    setLayout(broadcast.getResult(), getDefaultLayout(broadcast.getType()));
    convertOperand(broadcast.getSrcMutable(),
                   cast<RankedTensorType>(broadcast.getType()).getEncoding());
    return success();
  }
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    LayoutAttrInterface src = getLayout(reduce.getSrc().getType());
    if (src && isa<RankedTensorType>(reduce.getType()))
      setLayout(reduce.getResult(),
                SliceLayoutAttr::get(ctx, reduce.getAxis(), src));
    return success();
  }
  if (auto scan = dyn_cast<ScanOp>(op)) {
    setLayout(scan.getResult(),
              cast<RankedTensorType>(scan.getSrc().getType()).getEncoding());
    return success();
  }
  if (isa<CombineReduceOp, CombineScanOp>(op)) {
    // Every operand takes the first one's layout; results are its slice
    // along the axis (a reduction) or that layout (a scan).
    Attribute layout =
        cast<RankedTensorType>(op->getOperand(0).getType()).getEncoding();
    for (OpOperand &operand : llvm::drop_begin(op->getOpOperands()))
      convertOperand(operand, layout);
    unsigned axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
    for (Value result : op->getResults()) {
      if (!isa<RankedTensorType>(result.getType()))
        continue;
      if (isa<CombineScanOp>(op))
        setLayout(result, layout);
      else if (auto src = dyn_cast_or_null<LayoutAttrInterface>(layout))
        setLayout(result, SliceLayoutAttr::get(ctx, axis, src));
    }
    return success();
  }
  if (isa<InlineAsmOp, MapElementwiseOp>(op)) {
    // Elementwise over its operands (one shape): all in the first one's
    // layout, and so are the results.
    auto first = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!first)
      return success();
    for (OpOperand &operand : llvm::drop_begin(op->getOpOperands()))
      convertOperand(operand, first.getEncoding());
    for (OpResult result : op->getResults())
      setLayout(result, first.getEncoding());
    return success();
  }
  if (auto gather = dyn_cast<GatherOp>(op)) {
    // Each thread gathers the elements of its index registers; the source
    // goes through shared memory in whatever layout it has.
    setLayout(
        gather.getResult(),
        cast<RankedTensorType>(gather.getIndex().getType()).getEncoding());
    return success();
  }
  if (auto histogram = dyn_cast<HistogramOp>(op)) {
    // The mask in the values' layout; the counts in their default one.
    if (histogram.getMask())
      convertOperand(
          histogram.getMaskMutable()[0],
          cast<RankedTensorType>(histogram.getSrc().getType()).getEncoding());
    setLayout(histogram.getResult(),
              getDefaultLayout(histogram.getResult().getType()));
    return success();
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    if (LayoutAttrInterface layout = chooseDotLayout(dot)) {
      setLayout(dot.getResult(), layout);
      convertOperand(dot.getCMutable(), layout);
      return success();
    }
    setLayout(dot.getResult(),
              cast<RankedTensorType>(dot.getC().getType()).getEncoding());
    return success();
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (auto [index, init, arg, result] :
         llvm::enumerate(forOp.getInitsMutable(), forOp.getRegionIterArgs(),
                         forOp.getResults())) {
      auto tensor = dyn_cast<RankedTensorType>(init.get().getType());
      if (!tensor)
        continue;
      Attribute layout = tensor.getEncoding();
      if (LayoutAttrInterface dotLayout = getYieldedDotLayout(forOp, index)) {
        layout = dotLayout;
        convertOperand(init, dotLayout);
      }
      setLayout(arg, layout);
      setLayout(result, layout);
    }
    return success();
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    for (auto [init, arg] :
         llvm::zip_equal(whileOp.getInits(), whileOp.getBeforeArguments()))
      if (auto tensor = dyn_cast<RankedTensorType>(init.getType()))
        setLayout(arg, tensor.getEncoding());
    return success();
  }
  if (auto condition = dyn_cast<scf::ConditionOp>(op)) {
    auto whileOp = cast<scf::WhileOp>(condition->getParentOp());
    for (auto [value, arg, result] :
         llvm::zip_equal(condition.getArgs(), whileOp.getAfterArguments(),
                         whileOp.getResults()))
      if (auto tensor = dyn_cast<RankedTensorType>(value.getType())) {
        setLayout(arg, tensor.getEncoding());
        setLayout(result, tensor.getEncoding());
      }
    return success();
  }
  if (auto yield = dyn_cast<scf::YieldOp>(op))
    return visitYield(yield);
  if (isa<scf::IfOp>(op))
    return success(); // results are typed by the `then` yield
  if (op->getNumRegions() != 0 &&
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return op->emitOpError("with tile results is not supported at the GPU "
                           "level");

  // make_range, splat, reshape, trans and anything else: the default layout
  // of the result's shape, operands as they are.
  for (OpResult result : op->getResults())
    if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
      setLayout(result, getDefaultLayout(tensor));
  return success();
}

struct AssignLayoutsPass
    : public tilec::tile::impl::TileAssignLayoutsBase<AssignLayoutsPass> {
  using TileAssignLayoutsBase::TileAssignLayoutsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (!llvm::isPowerOf2_32(numWarps) || numWarps > 32) {
      module.emitError("num-warps must be a power of two between 1 and 32, "
                       "not ")
          << numWarps.getValue();
      return signalPassFailure();
    }

    // Tile dimensions must be powers of two, as in Triton.
    WalkResult shapes = module.walk([&](Operation *op) {
      for (Type type : llvm::concat<const Type>(op->getOperandTypes(),
                                                op->getResultTypes()))
        if (auto tensor = dyn_cast<RankedTensorType>(type))
          for (int64_t size : tensor.getShape())
            if (size <= 0 || !llvm::isPowerOf2_64(size)) {
              op->emitOpError("tile dimensions must be powers of two, not ")
                  << type;
              return WalkResult::interrupt();
            }
      return WalkResult::advance();
    });
    if (shapes.wasInterrupted())
      return signalPassFailure();

    // The narrowest element accessed in memory decides the vector width.
    int64_t minBytes = 4;
    module.walk([&](Operation *op) {
      if (!isa<LoadOp, StoreOp>(op))
        return;
      Type ptr = getElementTypeOrSelf(op->getOperand(0).getType());
      minBytes = std::min(minBytes,
                          getStorageBytes(cast<PtrType>(ptr).getPointeeType()));
    });
    unsigned vector = 16 / minBytes;

    SmallVector<Operation *> ops;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != module)
        ops.push_back(op);
    });
    LayoutAssigner assigner(ctx, numWarps, vector, TargetInfo::get(module));
    for (Operation *op : ops)
      if (failed(assigner.visit(op)))
        return signalPassFailure();

    // A wgmma product keeps its whole accumulator in registers while it
    // runs: one that takes a thread's share of the register file compiles
    // (ptxas spills the accumulator and serializes the products, as it does
    // for Triton's kernel of the same blocks) but runs slowly, which the
    // user is told at the dot.
    int64_t threads = 32 * numWarps;
    TargetInfo target = TargetInfo::get(module);
    int64_t limit = std::min<int64_t>(target.getMaxRegistersPerThread(),
                                      target.getRegistersPerSM() / threads);
    module.walk([&](DotOp dot) {
      auto mma = dyn_cast<MmaLayoutAttr>(dot.getType().getEncoding());
      if (!mma || !mma.isWgmma())
        return;
      int64_t accRegs = dot.getType().getNumElements() *
                        dot.getType().getElementTypeBitWidth() / 32 / threads;
      if (accRegs < limit)
        return;
      dot.emitWarning("tl.dot's ")
          << dot.getType().getDimSize(0) << "x" << dot.getType().getDimSize(1)
          << " accumulator needs " << accRegs << " registers per thread with "
          << numWarps.getValue() << " warps, but a thread has at most " << limit
          << ": ptxas will spill it and serialize the products (slow); use "
             "smaller blocks or more warps";
    });
    setNumWarps(module, numWarps);
  }
};

} // namespace
