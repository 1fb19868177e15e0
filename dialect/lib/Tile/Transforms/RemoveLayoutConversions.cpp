//===- RemoveLayoutConversions.cpp - Avoid layout conversions ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements the tile-remove-layout-conversions pass. A conversion costs a
// round trip through shared memory and two barriers, while the ops that
// usually feed one (ranges, splats, index arithmetic, expand_dims and
// broadcast, reshape and transposition of those, and loads of about one
// element a thread) cost a few instructions per register. So the
// pass recomputes such producers directly in the wanted layout
// ("rematerialisation", bounded by a budget of cloned ops), folds chains of
// conversions (also through an expand_dims between them), and re-types
// loop-carried values that the loop body keeps converting (the value it yields,
// or the argument before using it). Clones are placed right after the ops they
// copy, so they dominate every use of the original; originals left without uses
// are erased. A reshape that would go through shared memory gets its operand
// recomputed in the result's layout split in two, where the reshape keeps
// every element in its thread, when that moves at most one conversion (fp4
// codes spread into pairs and merged back). The 16-bit A of a wgmma product
// computed from narrower tiles (decoded microscaled bytes) is recomputed in
// the layout of wgmma's A fragments, its narrow sources alone converted, so
// that the product reads it from registers. A conversion in which every
// thread keeps its own elements (a row
// vector of one accumulator layout into another's: attention's `alpha[:, None]
// * acc` when the two products differ in N) only renames registers: it is left
// alone, and rematerialisation may end in one instead of converting a larger
// tile.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/RegionUtils.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// Most ops cloned to rematerialise the operand of one conversion.
constexpr int kRematerializationBudget = 64;

/// Rounds of rewriting before the pass gives up looking for more.
constexpr int kMaxRounds = 8;

/// `type` (a tensor) with layout `layout`.
static RankedTensorType withLayout(Type type, Attribute layout) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               layout);
}

/// Whether `op` computes each element of its result from the same element
/// of its operands, all of one shape.
static bool isElementwise(Operation *op) {
  return (op->hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(op)) &&
         op->getNumResults() == 1 && op->getNumRegions() == 0 &&
         isMemoryEffectFree(op);
}

/// Whether converting a tile of type `type` to `layout` keeps every element
/// in the thread that holds it (the conversion lowers to register copies).
static bool isRegisterConversion(RankedTensorType type, Attribute layout) {
  std::optional<TileDistribution> src = TileDistribution::get(type);
  std::optional<TileDistribution> dst =
      TileDistribution::get(withLayout(type, layout));
  return src && dst && getRegisterRemap(*src, *dst, identityCoords);
}

/// Registers a thread of `layout` holds other than copies of its own.
static int64_t getDistinctRegisters(RankedTensorType type, Attribute layout) {
  std::optional<TileDistribution> dist =
      TileDistribution::get(withLayout(type, layout));
  if (!dist)
    return std::numeric_limits<int64_t>::max();
  int64_t n = 0;
  for (int64_t r = 0; r < dist->getNumRegisters(); ++r)
    n += !dist->isDuplicateRegister(r);
  return n;
}

/// The bytes of tile `value`.
static int64_t getTileBytes(Value value) {
  auto tensor = cast<RankedTensorType>(value.getType());
  return tensor.getNumElements() * getStorageBytes(tensor.getElementType());
}

/// Whether `load`, read again in `layout` to remove the conversion of a
/// tile of `convertedBytes`, costs less than that conversion's round trip
/// through shared memory (threads that want the same element read it from
/// the cache), as in Triton (attention backward's rows of m and D,
/// broadcast over a product; the scales of a microscaled lhs): it reads at
/// most one element a thread and holds at most 8 registers a thread in
/// `layout`, or more (every thread holding copies of a row) in place of a
/// conversion of at least 16 times its bytes (a gather's row of indices
/// against the tile of pointers it spreads into). Where the load is issued
/// an iteration ahead, more registers stay live: a microscaled rhs's
/// scales, 16 a thread, spill its loop.
static bool isSmallLoad(LoadOp load, Attribute layout, int64_t convertedBytes) {
  auto tensor = dyn_cast<RankedTensorType>(load.getType());
  std::optional<int64_t> warps = getNumWarps(load);
  if (!tensor || !warps || tensor.getNumElements() > *warps * 32)
    return false;
  return getDistinctRegisters(tensor, layout) <= 8 ||
         (tensor.getNumElements() < *warps * 32 &&
          convertedBytes >= 16 * getTileBytes(load.getResult()));
}

/// The layout of the operand of data-movement op `op` (reshape, trans,
/// broadcast) in which each thread holds the elements its registers of the
/// result in `layout` come from: the result's bases carried through the
/// op's coordinate map (linear on power-of-two shapes), as a #tile.linear,
/// less the register bits that then move nothing (a broadcast's copies
/// need no registers of their own). Null when `layout` is not linear on the
/// result's shape.
static LinearLayoutAttr getOperandLayout(Operation *op, Attribute layout) {
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  auto operand = cast<RankedTensorType>(op->getOperand(0).getType());
  auto interface = dyn_cast<LayoutAttrInterface>(layout);
  std::optional<TileDistribution> dist =
      interface ? TileDistribution::get(interface, result.getShape())
                : std::nullopt;
  if (!dist)
    return {};
  auto map = [&](ArrayRef<int64_t> basis) {
    return getOperandCoords(op, basis);
  };
  SmallVector<int64_t> registers, lanes, warps;
  for (unsigned b = 0; b < dist->getNumRegisterBits(); ++b) {
    Coords basis = map(dist->getRegisterBasis(b));
    if (llvm::any_of(basis, [](int64_t c) { return c != 0; }))
      llvm::append_range(registers, basis);
  }
  for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b)
    llvm::append_range(lanes, map(dist->getLaneBasis(b)));
  for (unsigned b = 0; b < dist->getNumWarpBits(); ++b)
    llvm::append_range(warps, map(dist->getWarpBasis(b)));
  return LinearLayoutAttr::get(op->getContext(), operand.getShape(), registers,
                               lanes, warps);
}

/// Whether `layout` describes tiles of one shape only: a linear layout, or
/// a slice of one.
static bool isShapeSpecific(Attribute layout) {
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout))
    return isShapeSpecific(slice.getParent());
  return isa<LinearLayoutAttr>(layout);
}

/// Whether rematerialising `op` in `layout` needs getOperandLayout: a
/// reshape or transposition, or a broadcast into a layout of one shape (the
/// others describe the operand's shape too).
static bool needsOperandLayout(Operation *op, Attribute layout) {
  return isa<ReshapeOp, TransOp>(op) ||
         (isa<BroadcastOp>(op) && isShapeSpecific(layout));
}

/// Rematerialises values in other layouts, one conversion at a time.
class Rematerializer {
public:
  /// How values that cannot be recomputed in the wanted layout are treated.
  enum class Mode {
    /// They make the rematerialisation fail.
    Fail,
    /// A conversion on the way is replaced by a conversion of its source
    /// into the wanted layout (moving a conversion, not adding one: for the
    /// operand of a reshape that then keeps its elements in their threads).
    Reconvert,
    /// They are converted where they are computed ("leaves": loads, loop
    /// arguments, other ops), their bytes summed in `leafBytes`: a
    /// conversion moves to the narrow tiles a wide one is computed from.
    ConvertLeaves,
  };
  /// `convertedBytes`: the bytes of the tile whose conversion the
  /// rematerialisation removes (isSmallLoad weighs loads against it).
  explicit Rematerializer(Mode mode = Mode::Fail, int64_t convertedBytes = 0)
      : mode(mode), convertedBytes(convertedBytes) {}

  /// Whether `value` can be produced in `layout` without a conversion,
  /// cloning at most `budget` ops (decremented by what is used).
  bool canRematerialize(Value value, Attribute layout, int &budget);

  /// Produces `value` in `layout`; canRematerialize must have said yes.
  Value rematerialize(Value value, Attribute layout);

  /// The conversions canRematerialize would replace (Mode::Reconvert).
  SmallPtrSet<Operation *, 4> reconverted;

  /// The bytes of the values canRematerialize would convert
  /// (Mode::ConvertLeaves).
  int64_t leafBytes = 0;

private:
  /// Clones `op` right after itself with result type in `layout` and
  /// operands `operands`.
  Value cloneInLayout(Operation *op, Attribute layout, ValueRange operands);

  /// canRematerialize for a value not approved yet.
  bool check(Value value, Attribute layout, int &budget);

  /// Records `value` as converted to `layout` where it is computed
  /// (Mode::ConvertLeaves); false in the other modes.
  bool convertLeaf(Value value, Attribute layout);

  DenseMap<std::pair<Value, Attribute>, Value> cache;
  DenseSet<std::pair<Value, Attribute>> approved;
  DenseSet<std::pair<Value, Attribute>> leaves;
  Mode mode;
  int64_t convertedBytes;
};

bool Rematerializer::convertLeaf(Value value, Attribute layout) {
  if (mode != Mode::ConvertLeaves)
    return false;
  if (leaves.insert({value, layout}).second) {
    auto tensor = cast<RankedTensorType>(value.getType());
    leafBytes +=
        tensor.getNumElements() * getStorageBytes(tensor.getElementType());
  }
  return true;
}

bool Rematerializer::canRematerialize(Value value, Attribute layout,
                                      int &budget) {
  // A value reached twice (through both operands of an op) counts once.
  auto key = std::make_pair(value, layout);
  if (approved.count(key))
    return true;
  if (!check(value, layout, budget))
    return false;
  approved.insert(key);
  return true;
}

bool Rematerializer::check(Value value, Attribute layout, int &budget) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor)
    return true; // scalars need no layout
  if (tensor.getEncoding() == layout ||
      cache.count(std::make_pair(value, layout)) ||
      isRegisterConversion(tensor, layout))
    return true;
  if (leaves.count({value, layout}))
    return true;
  Operation *op = value.getDefiningOp();
  if (!op)
    return convertLeaf(value, layout);
  if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    if (mode != Mode::Reconvert)
      return canRematerialize(convert.getSrc(), layout, budget);
    reconverted.insert(convert);
    return true;
  }
  if (--budget < 0)
    return false;
  if (isa<MakeRangeOp, SplatOp>(op))
    return true;
  if (auto load = dyn_cast<LoadOp>(op)) {
    // Loads are leaves when converting leaves: a small one is then
    // recomputed by a later round.
    if (mode == Mode::ConvertLeaves)
      return convertLeaf(value, layout);
    return isSmallLoad(load, layout, convertedBytes) &&
           llvm::all_of(op->getOperands(), [&](Value v) {
             return canRematerialize(v, layout, budget);
           });
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return isa<SplatElementsAttr>(constant.getValue()) ||
           convertLeaf(value, layout);
  if (needsOperandLayout(op, layout)) {
    LinearLayoutAttr operandLayout = getOperandLayout(op, layout);
    return operandLayout &&
           canRematerialize(op->getOperand(0), operandLayout, budget);
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    auto parent = dyn_cast<LayoutAttrInterface>(layout);
    return parent &&
           canRematerialize(
               expand.getSrc(),
               SliceLayoutAttr::get(op->getContext(), expand.getAxis(), parent),
               budget);
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op))
    return canRematerialize(broadcast.getSrc(), layout, budget);
  if (isElementwise(op))
    return llvm::all_of(op->getOperands(), [&](Value operand) {
      return canRematerialize(operand, layout, budget);
    });
  return convertLeaf(value, layout);
}

Value Rematerializer::cloneInLayout(Operation *op, Attribute layout,
                                    ValueRange operands) {
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  IRMapping mapping;
  mapping.map(op->getOperands(), operands);
  Operation *clone = b.clone(*op, mapping);
  clone->getResult(0).setType(withLayout(op->getResult(0).getType(), layout));
  if (auto constant = dyn_cast<arith::ConstantOp>(clone))
    constant.setValueAttr(
        withEncoding(cast<DenseElementsAttr>(constant.getValue()),
                     cast<RankedTensorType>(constant.getType())));
  return clone->getResult(0);
}

Value Rematerializer::rematerialize(Value value, Attribute layout) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor || tensor.getEncoding() == layout)
    return value;
  auto key = std::make_pair(value, layout);
  if (Value cached = cache.lookup(key))
    return cached;
  Operation *op = value.getDefiningOp();
  Value result;
  if (isRegisterConversion(tensor, layout) || leaves.count(key)) {
    OpBuilder b(value.getContext());
    b.setInsertionPointAfterValue(value);
    result = ConvertLayoutOp::create(b, value.getLoc(),
                                     withLayout(tensor, layout), value);
  } else if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    if (mode == Mode::Reconvert) {
      OpBuilder b(convert);
      result = ConvertLayoutOp::create(
          b, convert.getLoc(), withLayout(tensor, layout), convert.getSrc());
    } else {
      result = rematerialize(convert.getSrc(), layout);
    }
  } else if (needsOperandLayout(op, layout)) {
    result = cloneInLayout(
        op, layout,
        rematerialize(op->getOperand(0), getOperandLayout(op, layout)));
  } else if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    auto slice = SliceLayoutAttr::get(op->getContext(), expand.getAxis(),
                                      cast<LayoutAttrInterface>(layout));
    result = cloneInLayout(op, layout, rematerialize(expand.getSrc(), slice));
  } else {
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(rematerialize(operand, layout));
    result = cloneInLayout(op, layout, operands);
  }
  cache[key] = result;
  return result;
}

/// Folds `convert` if it converts to its operand's layout or converts a
/// conversion. Returns true if the IR changed.
static bool foldConversion(ConvertLayoutOp convert) {
  if (convert.getSrc().getType() == convert.getType()) {
    convert.getResult().replaceAllUsesWith(convert.getSrc());
    convert->erase();
    return true;
  }
  if (auto inner = convert.getSrc().getDefiningOp<ConvertLayoutOp>()) {
    convert.getSrcMutable().assign(inner.getSrc());
    if (convert.getSrc().getType() == convert.getType()) {
      convert.getResult().replaceAllUsesWith(convert.getSrc());
      convert->erase();
    }
    return true;
  }
  return false;
}

/// Moves `convert` of an expand_dims whose operand is itself a conversion
/// above the expand_dims, where the two fold into one:
/// convert(expand_dims(convert(x)), L) becomes expand_dims(convert(x,
/// slice(L))) (a tile unpacked into pairs: two round trips through shared
/// memory become one). Returns true if the IR changed.
static bool hoistConversionAboveExpand(ConvertLayoutOp convert) {
  auto expand = convert.getSrc().getDefiningOp<ExpandDimsOp>();
  auto layout = dyn_cast<LayoutAttrInterface>(convert.getType().getEncoding());
  if (!expand || !layout || !expand->hasOneUse() ||
      !expand.getSrc().getDefiningOp<ConvertLayoutOp>())
    return false;
  OpBuilder b(convert);
  auto slice =
      SliceLayoutAttr::get(convert.getContext(), expand.getAxis(), layout);
  Value src = ConvertLayoutOp::create(
      b, convert.getLoc(), withLayout(expand.getSrc().getType(), slice),
      expand.getSrc());
  Value expanded = ExpandDimsOp::create(b, expand.getLoc(), convert.getType(),
                                        src, expand.getAxisAttr());
  convert.getResult().replaceAllUsesWith(expanded);
  convert->erase();
  expand->erase();
  return true;
}

/// The blocked layout of `reshape`'s operand in which the reshape keeps
/// every element in its thread, when the reshape splits one dimension of
/// its result (in a blocked layout) in two, the inner part held within
/// registers, lanes and warps in that order without wrapping; null
/// otherwise.
static BlockedLayoutAttr splitLayout(ReshapeOp reshape) {
  auto src = cast<RankedTensorType>(reshape.getSrc().getType());
  auto dst = cast<RankedTensorType>(reshape.getType());
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(dst.getEncoding());
  if (!blocked || src.getRank() != dst.getRank() + 1)
    return {};
  // The split dimension: the first where the shapes differ.
  int64_t d = 0;
  while (d < dst.getRank() && src.getDimSize(d) == dst.getDimSize(d))
    ++d;
  if (d == dst.getRank() ||
      src.getDimSize(d) * src.getDimSize(d + 1) != dst.getDimSize(d) ||
      src.getShape().drop_front(d + 2) != dst.getShape().drop_front(d + 1))
    return {};
  SmallVector<unsigned> spt(blocked.getSizePerThread()),
      tpw(blocked.getThreadsPerWarp()), wpc(blocked.getWarpsPerCTA());
  // The inner part takes registers first, then lanes, then warps.
  int64_t inner = src.getDimSize(d + 1);
  auto take = [&inner](unsigned &from) {
    unsigned taken = unsigned(std::min<int64_t>(from, inner));
    if (inner % taken != 0 || from % taken != 0)
      return 0u;
    from /= taken;
    inner /= taken;
    return taken;
  };
  unsigned innerSpt = take(spt[d]);
  unsigned innerTpw = innerSpt ? take(tpw[d]) : 0;
  unsigned innerWpc = innerTpw ? take(wpc[d]) : 0;
  if (!innerWpc || inner != 1)
    return {};
  spt.insert(spt.begin() + d + 1, innerSpt);
  tpw.insert(tpw.begin() + d + 1, innerTpw);
  wpc.insert(wpc.begin() + d + 1, innerWpc);
  SmallVector<unsigned> order;
  for (unsigned o : blocked.getOrder()) {
    if (o == d) {
      order.push_back(d + 1);
      order.push_back(d);
    } else {
      order.push_back(o > d ? o + 1 : o);
    }
  }
  auto layout =
      BlockedLayoutAttr::get(reshape.getContext(), spt, tpw, wpc, order);
  // Checked, not assumed: every destination element's source element is in
  // the same thread.
  std::optional<TileDistribution> from =
      TileDistribution::get(withLayout(src, layout));
  std::optional<TileDistribution> to = TileDistribution::get(dst);
  auto dstToSrc = [&](ArrayRef<int64_t> coords) {
    return getOperandCoords(reshape, coords);
  };
  if (!from || !to || !getRegisterRemap(*from, *to, dstToSrc))
    return {};
  return layout;
}

/// Recomputes the operand of `reshape` in splitLayout's layout when the
/// reshape would otherwise go through shared memory and the operand can be,
/// moving at most one conversion (the reshape's round trip is one). Returns
/// true if the IR changed.
static bool relayoutReshapeOperand(ReshapeOp reshape) {
  if (getDataMovementRemap(reshape))
    return false;
  BlockedLayoutAttr layout = splitLayout(reshape);
  if (!layout)
    return false;
  Rematerializer remat(Rematerializer::Mode::Reconvert,
                       getTileBytes(reshape.getSrc()));
  int budget = kRematerializationBudget;
  if (!remat.canRematerialize(reshape.getSrc(), layout, budget) ||
      remat.reconverted.size() > 1)
    return false;
  reshape.getSrcMutable().assign(remat.rematerialize(reshape.getSrc(), layout));
  return true;
}

/// Computes the 16-bit A of a wgmma product in the layout of wgmma's A
/// fragments when it is computed from narrower tiles (the decoded bytes of
/// a microscaled lhs and its scales): the computation is recomputed in that
/// layout back to those tiles, which alone are converted (at most half the
/// bytes of A), and the product then reads A from registers instead of
/// storing it to shared memory. Returns true if the IR changed.
static bool computeOperandInFragments(DotOp dot) {
  auto c = dot.getType();
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(c.getEncoding());
  auto a = cast<RankedTensorType>(dot.getA().getType());
  if (!mma || !mma.isWgmma() || mma.getTransposed() ||
      mma.getWarpsPerCTA()[1] != 1 || a.getRank() != 2 ||
      a.getElementTypeBitWidth() != 16 || !getLayout(a) ||
      getWgmmaRegisterFragments(a, c))
    return false;
  unsigned warps[] = {mma.getWarpsPerCTA()[0], 1u};
  unsigned instr[] = {64u, 16u, 16u};
  auto fragments = MmaLayoutAttr::get(dot.getContext(), 3, warps, instr,
                                      /*transposed=*/false);
  if (!getWgmmaRegisterFragments(withLayout(a, fragments), c))
    return false;
  Rematerializer remat(Rematerializer::Mode::ConvertLeaves);
  int budget = kRematerializationBudget;
  int64_t aBytes = a.getNumElements() * getStorageBytes(a.getElementType());
  if (!remat.canRematerialize(dot.getA(), fragments, budget) ||
      2 * remat.leafBytes > aBytes)
    return false;
  dot.getAMutable().assign(remat.rematerialize(dot.getA(), fragments));
  return true;
}

/// Carries iter arg `index` of `forOp` as `newType`: its initial value and
/// the value the body yields are converted to it, and the argument and the
/// result converted back for their uses (conversions the rounds then fold
/// or rematerialise).
static void carryAs(scf::ForOp forOp, unsigned index, Type newType) {
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  BlockArgument arg = forOp.getRegionIterArg(index);
  Type oldType = arg.getType();
  Location loc = forOp.getLoc();

  OpBuilder b(forOp);
  OpOperand &init = forOp.getInitArgsMutable()[index];
  init.set(ConvertLayoutOp::create(b, loc, newType, init.get()));

  arg.setType(newType);
  b.setInsertionPointToStart(forOp.getBody());
  auto inLoop = ConvertLayoutOp::create(b, loc, oldType, arg);
  arg.replaceAllUsesExcept(inLoop, inLoop);

  b.setInsertionPoint(yield);
  OpOperand &next = yield->getOpOperand(index);
  next.set(ConvertLayoutOp::create(b, loc, newType, next.get()));

  Value result = forOp.getResult(index);
  result.setType(newType);
  b.setInsertionPointAfter(forOp);
  auto after = ConvertLayoutOp::create(b, loc, oldType, result);
  result.replaceAllUsesExcept(after, after);
}

/// Carries iter arg `index` of `forOp` in the layout of the value its
/// yield converts, if it does. Returns true if the IR changed.
static bool retypeLoopCarriedValue(scf::ForOp forOp, unsigned index) {
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  auto convert = yield.getOperand(index).getDefiningOp<ConvertLayoutOp>();
  if (!convert ||
      convert.getSrc().getType() == forOp.getRegionIterArg(index).getType())
    return false;
  carryAs(forOp, index, convert.getSrc().getType());
  return true;
}

/// Carries iter arg `index` of `forOp` in the layout the body converts it
/// to before using it, if the body does nothing else with it than step it
/// elementwise into its next value (a pointer tile advanced each
/// iteration). Returns true if the IR changed.
static bool retypeConvertedIterArg(scf::ForOp forOp, unsigned index) {
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  ConvertLayoutOp convert;
  for (Operation *user : forOp.getRegionIterArg(index).getUsers()) {
    if (auto use = dyn_cast<ConvertLayoutOp>(user)) {
      if (convert && use.getType() != convert.getType())
        return false;
      convert = use;
      continue;
    }
    if (!isElementwise(user) || !user->hasOneUse() ||
        yield.getOperand(index) != user->getResult(0))
      return false;
  }
  if (!convert)
    return false;
  carryAs(forOp, index, convert.getType());
  return true;
}

/// Erases ops without uses or side effects, innermost first.
static bool eraseDeadOps(ModuleOp module) {
  bool changed = false;
  SmallVector<Operation *> dead;
  do {
    dead.clear();
    module.walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isOpTriviallyDead(op))
        dead.push_back(op);
    });
    for (Operation *op : dead)
      op->erase();
    changed |= !dead.empty();
  } while (!dead.empty());
  return changed;
}

struct RemoveLayoutConversionsPass
    : public tilec::tile::impl::TileRemoveLayoutConversionsBase<
          RemoveLayoutConversionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Each loop-carried value is re-typed at most once, so that two
    // layouts can never chase each other around a loop.
    DenseSet<std::pair<Operation *, unsigned>> retyped;
    for (int round = 0; round < kMaxRounds; ++round) {
      bool changed = false;

      SmallVector<scf::ForOp> loops;
      module.walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
      for (scf::ForOp forOp : loops)
        for (unsigned i = 0, e = forOp.getNumRegionIterArgs(); i < e; ++i)
          if (!retyped.count({forOp, i}) &&
              (retypeLoopCarriedValue(forOp, i) ||
               retypeConvertedIterArg(forOp, i))) {
            retyped.insert({forOp, i});
            changed = true;
          }

      module.walk(
          [&](DotOp dot) { changed |= computeOperandInFragments(dot); });

      SmallVector<ReshapeOp> reshapes;
      module.walk([&](ReshapeOp op) { reshapes.push_back(op); });
      for (ReshapeOp reshape : reshapes)
        changed |= relayoutReshapeOperand(reshape);

      SmallVector<ConvertLayoutOp> converts;
      module.walk([&](ConvertLayoutOp op) { converts.push_back(op); });
      // Each rewrite erases at most the conversion it looks at.
      for (ConvertLayoutOp convert : converts) {
        if (foldConversion(convert) || hoistConversionAboveExpand(convert)) {
          changed = true;
          continue;
        }
        Attribute layout = convert.getType().getEncoding();
        if (!isa_and_nonnull<LayoutAttrInterface>(layout) ||
            isRegisterConversion(convert.getSrc().getType(), layout))
          continue;
        Rematerializer remat(Rematerializer::Mode::Fail,
                             getTileBytes(convert.getSrc()));
        int budget = kRematerializationBudget;
        if (!remat.canRematerialize(convert.getSrc(), layout, budget))
          continue;
        Value value = remat.rematerialize(convert.getSrc(), layout);
        convert.getResult().replaceAllUsesWith(value);
        convert->erase();
        changed = true;
      }
      changed |= eraseDeadOps(module);
      if (!changed)
        break;
    }
  }
};

} // namespace
