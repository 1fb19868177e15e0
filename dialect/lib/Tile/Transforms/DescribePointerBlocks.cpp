//===- DescribePointerBlocks.cpp - Blocks of pointer tiles ------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-describe-pointer-blocks (see Passes.td): a tl.dot operand
// loaded through pointer arithmetic (the matmul tutorial's
// `a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]`, advanced by
// `BLOCK_K` each iteration, masked along K) gets the description of the same
// block of a 2-D tensor, so that tile-pipeline may copy it with TMA; so
// does the store of the product when its mask bounds both dimensions.
//
// Index arithmetic is read as linear forms over scalar values. A pointer
// tile is `base + sum_d index_d(i_d) * stride_d (+ iteration * advance)`,
// where each index vector is `start + arange(n)`, possibly wrapped
// `% extent`. A dimension is described exactly when the load's mask is
// `start_d + i < extent_d` along it (TMA fills the same elements with zeros)
// and, when the vector wraps instead, the pass proves that the rows it
// wraps (where TMA reads zeros and the load the rows `% extent`) only reach
// elements of the product that every store masks off.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEDESCRIBEPOINTERBLOCKS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// An integer scalar as `constant + sum(coefficient * atom)`.
struct Linear {
  llvm::SmallMapVector<Value, int64_t, 4> terms;
  int64_t constant = 0;

  static Linear of(int64_t c) {
    Linear l;
    l.constant = c;
    return l;
  }
  Linear scaled(int64_t factor) const {
    Linear l = of(constant * factor);
    if (factor != 0)
      for (auto [atom, coefficient] : terms)
        l.terms[atom] = coefficient * factor;
    return l;
  }
  Linear plus(const Linear &other, int64_t factor = 1) const {
    Linear l = *this;
    l.constant += other.constant * factor;
    for (auto [atom, coefficient] : other.terms) {
      int64_t &c = l.terms[atom];
      c += coefficient * factor;
      if (c == 0)
        l.terms.erase(atom);
    }
    return l;
  }
  /// `factor` when this form is `factor * other` for a constant factor.
  std::optional<int64_t> ratioTo(const Linear &other) const {
    if (other.terms.empty() || other.constant != 0 || constant != 0 ||
        terms.size() != other.terms.size())
      return std::nullopt;
    std::optional<int64_t> factor;
    for (auto [atom, coefficient] : other.terms) {
      auto it = terms.find(atom);
      if (it == terms.end() || it->second % coefficient != 0)
        return std::nullopt;
      int64_t f = it->second / coefficient;
      if (factor && *factor != f)
        return std::nullopt;
      factor = f;
    }
    return factor;
  }
  bool isConstant() const { return terms.empty(); }
  bool mentions(Value atom) const { return terms.count(atom); }
  bool operator==(const Linear &other) const {
    return constant == other.constant && plus(other, -1).terms.empty();
  }
};

/// `value` (an integer scalar) as a linear form: sums, differences and
/// products by constants are read through, anything else is an atom.
static Linear linearize(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return Linear::of(constant.getSExtValue());
  if (auto add = value.getDefiningOp<arith::AddIOp>())
    return linearize(add.getLhs()).plus(linearize(add.getRhs()));
  if (auto sub = value.getDefiningOp<arith::SubIOp>())
    return linearize(sub.getLhs()).plus(linearize(sub.getRhs()), -1);
  if (auto mul = value.getDefiningOp<arith::MulIOp>()) {
    Linear lhs = linearize(mul.getLhs()), rhs = linearize(mul.getRhs());
    if (rhs.isConstant())
      return lhs.scaled(rhs.constant);
    if (lhs.isConstant())
      return rhs.scaled(lhs.constant);
  }
  Linear atom;
  atom.terms[value] = 1;
  return atom;
}

/// Looks through the ops that move a tile between layouts and shapes
/// without changing which index an element has along a kept dimension.
static Value stripViews(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<BroadcastOp, ConvertLayoutOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// The scalar every element of the integer tile `value` equals, as a linear
/// form, when it is uniform (a splat or a splat constant).
static std::optional<Linear> getUniform(Value value) {
  value = stripViews(value);
  if (auto expand = value.getDefiningOp<ExpandDimsOp>())
    value = stripViews(expand.getSrc());
  if (auto splat = value.getDefiningOp<SplatOp>())
    return linearize(splat.getSrc());
  SplatElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) &&
      isa<IntegerType>(dense.getElementType()))
    return Linear::of(dense.getSplatValue<APInt>().getSExtValue());
  return std::nullopt;
}

/// A 1-D index vector: element i is `start + i`, or `(start + i) % extent`.
struct IndexVector {
  Linear start;
  int64_t length = 0;
  Value extent; ///< the modulus (a scalar), if the vector wraps
};

/// `value` (a 1-D integer tile) as an index vector without a modulus.
static std::optional<IndexVector> matchPlainIndex(Value value) {
  value = stripViews(value);
  // A block pointer's indices are widened to i64 (the values are kept).
  if (auto ext = value.getDefiningOp<arith::ExtSIOp>())
    value = stripViews(ext.getIn());
  if (auto range = value.getDefiningOp<MakeRangeOp>())
    return IndexVector{Linear::of(range.getStart()),
                       range.getEnd() - range.getStart(), Value()};
  if (auto add = value.getDefiningOp<arith::AddIOp>()) {
    for (auto [uniform, other] : {std::pair(add.getLhs(), add.getRhs()),
                                  std::pair(add.getRhs(), add.getLhs())}) {
      std::optional<Linear> offset = getUniform(uniform);
      std::optional<IndexVector> index =
          offset ? matchPlainIndex(other) : std::nullopt;
      if (index) {
        index->start = index->start.plus(*offset);
        return index;
      }
    }
  }
  return std::nullopt;
}

/// `value` (a 1-D integer tile) as an index vector, possibly wrapped by a
/// remainder by a uniform scalar.
static std::optional<IndexVector> matchIndex(Value value) {
  value = stripViews(value);
  Value lhs, rhs;
  if (auto rem = value.getDefiningOp<arith::RemSIOp>())
    lhs = rem.getLhs(), rhs = rem.getRhs();
  else if (auto rem = value.getDefiningOp<arith::RemUIOp>())
    lhs = rem.getLhs(), rhs = rem.getRhs();
  if (lhs) {
    std::optional<IndexVector> index = matchPlainIndex(lhs);
    auto splat = stripViews(rhs).getDefiningOp<SplatOp>();
    if (!index || !splat)
      return std::nullopt;
    index->extent = splat.getSrc();
    return index;
  }
  return matchPlainIndex(value);
}

/// The index vector along dimension `dim` that `value` (a 2-D integer
/// tile) spreads across the other dimension: `expand_dims` of a 1-D vector.
static std::optional<IndexVector> matchSpreadIndex(Value value, unsigned &dim) {
  value = stripViews(value);
  // A uniform offset added after the expansion (a block pointer's offsets).
  if (auto add = value.getDefiningOp<arith::AddIOp>()) {
    for (auto [uniform, other] : {std::pair(add.getLhs(), add.getRhs()),
                                  std::pair(add.getRhs(), add.getLhs())}) {
      std::optional<Linear> offset = getUniform(uniform);
      std::optional<IndexVector> index =
          offset ? matchSpreadIndex(other, dim) : std::nullopt;
      if (index && !index->extent) {
        index->start = index->start.plus(*offset);
        return index;
      }
    }
    return std::nullopt;
  }
  auto expand = value.getDefiningOp<ExpandDimsOp>();
  if (!expand || cast<RankedTensorType>(expand.getType()).getRank() != 2)
    return std::nullopt;
  dim = 1 - expand.getAxis();
  return matchIndex(expand.getSrc());
}

/// `value` (a 2-D integer tile) as a spread index vector along `dim` times
/// a uniform `stride` (1 when there is no product).
static std::optional<IndexVector> matchScaledIndex(Value value, unsigned &dim,
                                                   Linear &stride) {
  stride = Linear::of(1);
  if (std::optional<IndexVector> index = matchSpreadIndex(value, dim))
    return index;
  auto mul = value.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return std::nullopt;
  for (auto [factor, other] : {std::pair(mul.getLhs(), mul.getRhs()),
                               std::pair(mul.getRhs(), mul.getLhs())}) {
    std::optional<Linear> uniform = getUniform(factor);
    if (!uniform)
      continue;
    if (std::optional<IndexVector> index = matchSpreadIndex(other, dim)) {
      stride = *uniform;
      return index;
    }
  }
  return std::nullopt;
}

/// The pointer tile of a load, as `base + sum_d index_d * stride_d +
/// uniform` (element offsets).
struct PointerForm {
  Value base;
  std::optional<IndexVector> index[2];
  Linear stride[2];
  Linear uniform;

  /// Adds the offsets `value` (a 2-D integer tile).
  bool addOffsets(Value value) {
    value = stripViews(value);
    if (std::optional<Linear> u = getUniform(value)) {
      uniform = uniform.plus(*u);
      return true;
    }
    if (auto add = value.getDefiningOp<arith::AddIOp>())
      return addOffsets(add.getLhs()) && addOffsets(add.getRhs());
    unsigned dim = 0;
    Linear s;
    std::optional<IndexVector> vector = matchScaledIndex(value, dim, s);
    if (!vector || index[dim])
      return false;
    index[dim] = std::move(vector);
    stride[dim] = s;
    return true;
  }

  /// Adds the pointer tile `value`.
  bool addPointer(Value value) {
    value = stripViews(value);
    if (auto splat = value.getDefiningOp<SplatOp>()) {
      if (base)
        return false;
      base = splat.getSrc();
      return true;
    }
    if (auto add = value.getDefiningOp<AddPtrOp>())
      return addPointer(add.getPtr()) && addOffsets(add.getOffset());
    return false;
  }
};

/// One conjunct of a mask: `start + i < bound` along `dim`, or with
/// `lower`, `start + i >= 0` (a block pointer checks both ends).
struct Bound {
  unsigned dim;
  IndexVector index;
  Linear bound;
  bool lower = false;
};

/// The conjuncts of the mask `value` (an `and` of broadcast comparisons of
/// index vectors with uniform bounds), or nothing if it has another form.
static bool collectBounds(Value value, SmallVectorImpl<Bound> &bounds) {
  value = stripViews(value);
  if (auto andOp = value.getDefiningOp<arith::AndIOp>())
    return collectBounds(andOp.getLhs(), bounds) &&
           collectBounds(andOp.getRhs(), bounds);
  auto cmp = value.getDefiningOp<arith::CmpIOp>();
  if (!cmp || (cmp.getPredicate() != arith::CmpIPredicate::slt &&
               cmp.getPredicate() != arith::CmpIPredicate::sge))
    return false;
  bool lower = cmp.getPredicate() == arith::CmpIPredicate::sge;
  unsigned dim;
  std::optional<IndexVector> index = matchSpreadIndex(cmp.getLhs(), dim);
  std::optional<Linear> bound = getUniform(cmp.getRhs());
  if (!index || index->extent || !bound ||
      (lower && !(*bound == Linear::of(0))))
    return false;
  bounds.push_back({dim, *index, *bound, lower});
  return true;
}

/// Whether every use of `value` (rows or columns `dim` of a product)
/// reaches memory only through elementwise ops and stores whose masks hold
/// only where `index.start + i < extent` along `dim`.
static bool reachesOnlyMaskedStores(Value value, unsigned dim,
                                    const IndexVector &index, Value extent) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto store = dyn_cast<StoreOp>(user)) {
      SmallVector<Bound, 4> bounds;
      if (use.getOperandNumber() != 1 || !store.getMask() ||
          !collectBounds(store.getMask(), bounds) ||
          llvm::none_of(bounds, [&](const Bound &b) {
            return b.dim == dim && b.index.length == index.length &&
                   b.index.start == index.start && b.bound == linearize(extent);
          }))
        return false;
      continue;
    }
    if (!(user->hasTrait<OpTrait::Elementwise>() ||
          isa<ConvertLayoutOp>(user)) ||
        user->getNumResults() != 1 ||
        cast<ShapedType>(user->getResult(0).getType()).getShape() !=
            cast<ShapedType>(value.getType()).getShape())
      return false;
    if (!reachesOnlyMaskedStores(user->getResult(0), dim, index, extent))
      return false;
  }
  return true;
}

/// Creates `form` as an i32 scalar before `b`'s insertion point, or null
/// when one of its atoms is neither an i32 nor one widened to i64 (a block
/// pointer's offsets).
static Value materialize(OpBuilder &b, Location loc, const Linear &form) {
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
  };
  Value sum;
  for (auto [atom, coefficient] : form.terms) {
    Value term = atom;
    if (auto ext = atom.getDefiningOp<arith::ExtSIOp>())
      term = ext.getIn();
    if (term.getType() != i32)
      return Value();
    if (coefficient != 1)
      term = arith::MulIOp::create(b, loc, term, constant(coefficient));
    sum = sum ? arith::AddIOp::create(b, loc, sum, term) : term;
  }
  if (!sum)
    return constant(form.constant);
  if (form.constant != 0)
    sum = arith::AddIOp::create(b, loc, sum, constant(form.constant));
  return sum;
}

/// A scalar the host can read for a tensor map's extent or stride: a value
/// equal to `form` (a constant, or one atom times 1), widened to i64.
static Value materializeScalar(OpBuilder &b, Location loc, const Linear &form) {
  Type i64 = b.getI64Type();
  if (form.isConstant())
    return arith::ConstantOp::create(b, loc,
                                     b.getI64IntegerAttr(form.constant));
  if (form.constant != 0 || form.terms.size() != 1 ||
      form.terms.front().second != 1)
    return Value();
  Value atom = form.terms.front().first;
  if (!atom.getType().isInteger())
    return Value();
  if (atom.getType() == i64)
    return atom;
  return arith::ExtSIOp::create(b, loc, i64, atom);
}

/// Creates `form` (element offsets) as a scalar before `b`'s insertion
/// point: i64 when an atom is, else i32; null when an atom is another type.
static Value materializeOffset(OpBuilder &b, Location loc, const Linear &form) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Type type = i32;
  for (auto [atom, coefficient] : form.terms) {
    if (atom.getType() == i64)
      type = i64;
    else if (atom.getType() != i32)
      return Value();
  }
  if (type == i32)
    return materialize(b, loc, form);
  Value sum =
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(form.constant));
  for (auto [atom, coefficient] : form.terms) {
    Value term = atom;
    if (atom.getType() != i64)
      term = arith::ExtSIOp::create(b, loc, i64, atom);
    if (coefficient != 1)
      term = arith::MulIOp::create(
          b, loc, term,
          arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(coefficient)));
    sum = arith::AddIOp::create(b, loc, sum, term);
  }
  return sum;
}

/// The block of a 2-D tensor that an access through a pointer tile reads or
/// writes, in iteration `iv` of its loop.
struct Block {
  PointerForm form;
  Linear start[2];    ///< first index along each dimension
  Linear extent[2];   ///< the tensor's extent along each dimension
  bool wraps[2] = {}; ///< the index wraps `% extent` instead of being masked
  /// Element offsets that are a multiple of neither stride (attention's
  /// `off_hz * N_CTX * HEAD_DIM`, a head's place): the tensor starts there.
  Linear baseOffset;
};

/// Adds `offset` (element offsets) to the start of the one dimension whose
/// stride it is a constant multiple of; with `iv`, the offset is added per
/// iteration of the loop `lb, lb + step, ...` that `iv` counts.
static bool addToStart(Block &block, const Linear &offset, Value iv, int64_t lb,
                       int64_t step) {
  if (offset.terms.empty() && offset.constant == 0)
    return true;
  for (unsigned d = 0; d < 2; ++d) {
    const Linear &stride = block.form.stride[d];
    std::optional<int64_t> units;
    if (stride.isConstant() && stride.constant != 0) {
      if (offset.isConstant() && offset.constant % stride.constant == 0)
        units = offset.constant / stride.constant;
    } else {
      units = offset.ratioTo(stride);
    }
    if (!units)
      continue;
    if (!iv) {
      block.start[d] = block.start[d].plus(Linear::of(*units));
      return true;
    }
    // Iteration (iv - lb) / step is `units` further.
    if (*units % step != 0)
      return false;
    int64_t perIv = *units / step;
    Linear ivForm;
    ivForm.terms[iv] = 1;
    block.start[d] =
        block.start[d].plus(ivForm.scaled(perIv)).plus(Linear::of(-lb * perIv));
    return true;
  }
  return false;
}

/// The block `form` (advanced by `advance` per iteration of the loop that
/// `iv` counts, if any) addresses under `mask`, for a tile of `shape`: each
/// dimension needs one mask bound or, with `allowWrap`, a wrapped index
/// with no offset added after the modulus (TMA's block would start there).
static std::optional<Block> analyzeBlock(const PointerForm &form,
                                         const Linear &advance, Value mask,
                                         ArrayRef<int64_t> shape, Value iv,
                                         int64_t lb, int64_t step,
                                         bool allowWrap) {
  if (!form.base || !form.index[0] || !form.index[1] ||
      form.index[0]->length != shape[0] || form.index[1]->length != shape[1])
    return std::nullopt;
  Block block;
  block.form = form;
  for (unsigned d = 0; d < 2; ++d)
    block.start[d] = form.index[d]->start;
  // Each term of the uniform offset moves the block along the dimension
  // whose stride it is a multiple of, or else the tensor's start.
  if (!addToStart(block, Linear::of(form.uniform.constant), Value(), 0, 1))
    block.baseOffset = Linear::of(form.uniform.constant);
  for (auto [atom, coefficient] : form.uniform.terms) {
    Linear term;
    term.terms[atom] = coefficient;
    if (!addToStart(block, term, Value(), 0, 1))
      block.baseOffset = block.baseOffset.plus(term);
  }
  if (!addToStart(block, advance, iv, lb, step))
    return std::nullopt;

  SmallVector<Bound, 4> bounds;
  if (mask && !collectBounds(mask, bounds))
    return std::nullopt;
  for (unsigned d = 0; d < 2; ++d) {
    const Bound *bound = nullptr;
    for (const Bound &b : bounds) {
      if (b.dim != d)
        continue;
      // TMA reads zeros below index 0 as well: a lower bound at 0 of the
      // block's own indices is what it does anyway.
      if (b.lower) {
        if (!(b.index.start == block.start[d]) || b.index.length != shape[d])
          return std::nullopt;
        continue;
      }
      if (bound)
        return std::nullopt;
      bound = &b;
    }
    const IndexVector &index = *form.index[d];
    if (bound) {
      // start + i < extent  <=>  bound.index.start + i < bound.bound.
      if (index.extent || bound->index.length != index.length)
        return std::nullopt;
      block.extent[d] =
          bound->bound.plus(bound->index.start, -1).plus(block.start[d]);
      if (iv && block.extent[d].mentions(iv))
        return std::nullopt;
    } else if (allowWrap && index.extent && block.start[d] == index.start) {
      block.extent[d] = linearize(index.extent);
      block.wraps[d] = true;
    } else if (!index.extent && block.start[d].isConstant() &&
               block.start[d].constant >= 0) {
      // Unmasked, at constant indices (`tl.arange(0, HEAD_DIM)`): a tensor
      // that ends right after them holds the same elements.
      block.extent[d] = Linear::of(block.start[d].constant + index.length);
    } else {
      return std::nullopt;
    }
  }
  return block;
}

/// The descriptor operands of `block`: extents and strides as i64, offsets
/// as i32, built with `outer` when every value they use is defined outside
/// `scope` (if any), else with `inner`. False when one cannot be built.
static bool buildDescriptor(const Block &block, OpBuilder &inner,
                            OpBuilder &outer, Operation *scope, Location loc,
                            Value &base, SmallVectorImpl<Value> &shape,
                            SmallVectorImpl<Value> &strides,
                            SmallVectorImpl<Value> &offsets) {
  auto builderFor = [&](const Linear &l) -> OpBuilder & {
    if (scope)
      for (auto [atom, coefficient] : l.terms)
        if (scope->isAncestor(atom.getParentBlock()->getParentOp()))
          return inner;
    return outer;
  };
  for (unsigned d = 0; d < 2; ++d) {
    shape.push_back(
        materializeScalar(builderFor(block.extent[d]), loc, block.extent[d]));
    strides.push_back(materializeScalar(builderFor(block.form.stride[d]), loc,
                                        block.form.stride[d]));
    offsets.push_back(
        materialize(builderFor(block.start[d]), loc, block.start[d]));
    if (!shape.back() || !strides.back() || !offsets.back())
      return false; // (ops made so far are dead: canonicalization drops them)
  }
  base = block.form.base;
  if (block.baseOffset.isConstant() && block.baseOffset.constant == 0)
    return true;
  OpBuilder &b = builderFor(block.baseOffset);
  Value offset = materializeOffset(b, loc, block.baseOffset);
  if (!offset)
    return false;
  base = AddPtrOp::create(b, loc, base.getType(), base, offset);
  return true;
}

/// Gives `load` (operand `operandIndex` of `dot`, through tl.trans when
/// `transposed`, in `forOp`) the description of the tensor block it reads,
/// when the analysis proves one.
static void describeLoad(LoadOp load, DotOp dot, unsigned operandIndex,
                         bool transposed, scf::ForOp forOp) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || load.getDescBase() ||
      (load.getMask() && !load.getOther()))
    return;
  // The pointer: computed in the body, or carried by the loop and advanced
  // by a uniform amount each iteration (which a constant lower bound and
  // step make a multiple of the induction variable).
  PointerForm form;
  Linear advance; // element offsets added per iteration
  std::optional<int64_t> lb = 0, step = 1;
  Value ptr = load.getPtr();
  if (auto arg = dyn_cast<BlockArgument>(ptr);
      arg && arg.getOwner() == forOp.getBody() && arg.getArgNumber() > 0) {
    lb = getConstantIntValue(forOp.getLowerBound());
    step = getConstantIntValue(forOp.getStep());
    if (!lb || !step || *step <= 0)
      return;
    unsigned i = arg.getArgNumber() - 1;
    auto next =
        stripViews(forOp.getYieldedValues()[i]).getDefiningOp<AddPtrOp>();
    std::optional<Linear> delta =
        next ? getUniform(next.getOffset()) : std::nullopt;
    if (!delta || stripViews(next.getPtr()) != arg ||
        !form.addPointer(forOp.getInitArgs()[i]))
      return;
    advance = *delta;
  } else if (!form.addPointer(ptr)) {
    return;
  }
  std::optional<Block> block =
      analyzeBlock(form, advance, load.getMask(), type.getShape(),
                   forOp.getInductionVar(), *lb, *step, /*allowWrap=*/true);
  if (!block)
    return;

  // Wrapped rows of a (columns of b) reach only masked-off elements: the
  // product's rows (columns) come from the operand's alone, and the
  // accumulator carries them to stores that mask them off.
  // The load's dimension along the product's rows (a) or columns (b).
  unsigned outDim = operandIndex == 0 || transposed ? 0 : 1;
  for (unsigned d = 0; d < 2; ++d) {
    if (!block->wraps[d])
      continue;
    auto acc = dyn_cast<BlockArgument>(dot.getC());
    if (d != outDim || !acc || acc.getOwner() != forOp.getBody() ||
        acc.getArgNumber() == 0 || !acc.hasOneUse() || !dot->hasOneUse())
      return;
    unsigned i = acc.getArgNumber() - 1;
    if (forOp.getYieldedValues()[i] != dot.getResult() ||
        !reachesOnlyMaskedStores(forOp.getResult(i), d, *form.index[d],
                                 form.index[d]->extent))
      return;
  }

  OpBuilder inLoop(load), beforeLoop(forOp);
  Value base;
  SmallVector<Value> shape, strides, offsets;
  if (!buildDescriptor(*block, inLoop, beforeLoop, forOp, load.getLoc(), base,
                       shape, strides, offsets))
    return;
  auto described =
      LoadOp::create(inLoop, load.getLoc(), type, load.getPtr(), load.getMask(),
                     load.getOther(), base, shape, strides, offsets);
  described.setDescUncheckedAttr(inLoop.getUnitAttr());
  load.replaceAllUsesWith(described.getResult());
  load.erase();
}

/// Whether `value` is a product's result: a `tile.dot`, or a loop's
/// accumulator of one, through elementwise ops.
static bool isFromDot(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<DotOp>(def))
    return true;
  if (auto forOp = dyn_cast<scf::ForOp>(def)) {
    Value yielded =
        forOp.getYieldedValues()[cast<OpResult>(value).getResultNumber()];
    return yielded.getDefiningOp<DotOp>() != nullptr;
  }
  if (!def->hasTrait<OpTrait::Elementwise>() && !isa<ConvertLayoutOp>(def))
    return false;
  return llvm::any_of(def->getOperands(), isFromDot);
}

/// Gives `store` (of a product, outside loops) the description of the
/// tensor block it writes when its mask bounds both dimensions: TMA skips
/// exactly the elements the mask does.
static void describeStore(StoreOp store) {
  auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
  if (!type || type.getRank() != 2 || store.getDescBase() ||
      store->getParentOfType<scf::ForOp>() || !isFromDot(store.getValue()))
    return;
  PointerForm form;
  if (!form.addPointer(store.getPtr()))
    return;
  std::optional<Block> block =
      analyzeBlock(form, Linear(), store.getMask(), type.getShape(), Value(), 0,
                   1, /*allowWrap=*/false);
  if (!block)
    return;
  OpBuilder b(store);
  Value base;
  SmallVector<Value> shape, strides, offsets;
  if (!buildDescriptor(*block, b, b, nullptr, store.getLoc(), base, shape,
                       strides, offsets))
    return;
  auto described =
      StoreOp::create(b, store.getLoc(), store.getPtr(), store.getValue(),
                      store.getMask(), base, shape, strides, offsets);
  described.setDescUncheckedAttr(b.getUnitAttr());
  store.erase();
}

struct TileDescribePointerBlocksPass
    : public tilec::tile::impl::TileDescribePointerBlocksBase<
          TileDescribePointerBlocksPass> {
  void runOnOperation() override {
    SmallVector<DotOp> dots;
    getOperation().walk([&](DotOp dot) { dots.push_back(dot); });
    for (DotOp dot : dots) {
      auto forOp = dyn_cast<scf::ForOp>(dot->getParentOp());
      if (!forOp)
        continue;
      for (unsigned i = 0; i < 2; ++i) {
        // b may be `tl.trans` of a tile of rows of N (`q @ k.T`).
        Value operand = dot->getOperand(i);
        auto trans = operand.getDefiningOp<TransOp>();
        bool transposed = i == 1 && trans && trans->hasOneUse() &&
                          trans.getOrder() == ArrayRef<int32_t>{1, 0};
        if (transposed)
          operand = trans.getSrc();
        auto load = operand.getDefiningOp<LoadOp>();
        if (load && load->getBlock() == dot->getBlock() && load->hasOneUse())
          describeLoad(load, dot, i, transposed, forOp);
      }
    }
    SmallVector<StoreOp> stores;
    getOperation().walk([&](StoreOp store) { stores.push_back(store); });
    for (StoreOp store : stores)
      describeStore(store);
  }
};

} // namespace
