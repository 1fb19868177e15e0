//===- BlockPointers.cpp - Block pointers and tensor descriptors *- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tl.make_block_ptr / tl.advance and tl.make_tensor_descriptor with
// desc.load / desc.store, desugared at code generation: a block pointer is a
// compile-time structure (base pointer, per-dimension extent, stride and
// offset, block shape, order) whose loads and stores become a tile of
// pointers
//
//   ptrs = base + sum_d (offset_d + arange(0, block_d)) * stride_d
//
// (each term expanded to the block's rank and broadcast) and, for every
// dimension d that is bounds-checked, the mask
//
//   0 <= offset_d + arange(0, block_d) < shape_d
//
// with `other` 0 or NaN as the padding option says. Index arithmetic is in
// i64, as in Triton's lowering of block pointers. A tensor descriptor is the
// same structure without offsets: desc.load(offsets) checks every dimension
// and pads with zeros (or NaN).
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/DTypes.h"
#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Frontend/RewriteBlockPointers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

/// The elements of a tuple/list argument, or the argument itself.
static std::vector<TValue> asList(const TValue &v) {
  if (v.kind == TValue::Kind::Tuple)
    return v.elements;
  return {v};
}

/// Converts one extent, stride or offset: a constexpr integer stays one, a
/// run-time integer scalar is converted to `type` (i64 for extents and
/// strides; i32 for offsets, which must not be i64 as in Triton, unless
/// `narrow`: a tensor descriptor's extents, which Triton casts to i32).
static FailureOr<TValue> indexValue(Generator &gen, const TValue &v, Type type,
                                    llvm::SMLoc l, llvm::StringRef what,
                                    bool narrow = false) {
  if (v.kind == TValue::Kind::Int) {
    if (type.isInteger(32) && (v.i < INT32_MIN || v.i > INT32_MAX))
      return gen.error(l) << what << " (" << v.i << ") does not fit in 32 bits";
    return v;
  }
  if (v.kind == TValue::Kind::Bool)
    return TValue::ofInt(v.i);
  Type elem = v.isValue() ? v.value.getType() : Type();
  if (!elem || !elem.isInteger() || elem.isInteger(1))
    return gen.error(l) << what << " must be an integer (a constexpr or a "
                        << "run-time scalar), not " << v.describe();
  if (type.isInteger(32) && elem.isInteger(64) && !narrow)
    return gen.error(l) << what << " must be a 32-bit integer, not "
                        << v.describe() << "; convert it with "
                        << ".to(tl.int32)";
  return TValue::of(gen.cast(v.value, type, gen.loc(l)));
}

/// Converts a tuple/list of extents, strides or offsets.
static FailureOr<std::vector<TValue>> indexList(Generator &gen, const TValue &v,
                                                Type type, llvm::SMLoc l,
                                                llvm::StringRef what,
                                                bool narrow = false) {
  std::vector<TValue> result;
  for (auto [i, e] : llvm::enumerate(asList(v))) {
    FailureOr<TValue> x = indexValue(
        gen, e, type, l, (what + " " + std::to_string(i)).str(), narrow);
    if (failed(x))
      return failure();
    result.push_back(*x);
  }
  return result;
}

/// Converts a tuple/list of constexpr integers.
static FailureOr<SmallVector<int64_t>> constList(Generator &gen,
                                                 const TValue &v, llvm::SMLoc l,
                                                 llvm::StringRef what) {
  SmallVector<int64_t> result;
  for (const TValue &e : asList(v)) {
    if (e.kind != TValue::Kind::Int)
      return gen.error(l) << what << " must hold constexpr integers, not "
                          << e.describe();
    result.push_back(e.i);
  }
  return result;
}

/// The scalar base pointer argument `i`.
static FailureOr<Value> basePointer(Generator &gen, Binder &bind, unsigned i) {
  const TValue &v = bind.get(i);
  if (!v.isValue() || !isa<tile::PtrType>(v.value.getType()))
    return gen.error(bind.locs[i])
           << "'" << bind.params[i] << "' of '" << bind.function
           << "' must be a scalar pointer, not " << v.describe();
  return v.value;
}

namespace {
/// The pointer tile and the bounds mask of one access.
struct Access {
  Value ptrs;
  Value mask; ///< null when no dimension is checked
};
} // namespace

/// Builds the pointers (and the mask of the dimensions in `checked`) of the
/// block at `offsets` of `bp`.
static FailureOr<Access> address(Generator &gen, const BlockPointer &bp,
                                 ArrayRef<TValue> offsets,
                                 ArrayRef<int64_t> checked, llvm::SMLoc l) {
  Location location = gen.loc(l);
  OpBuilder &b = gen.builder;
  int64_t rank = bp.blockShape.size();
  Type i64 = b.getI64Type();
  std::optional<TValue> total, mask;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t block = bp.blockShape[d];
    Value range = tile::MakeRangeOp::create(
        b, location, RankedTensorType::get({block}, b.getI32Type()),
        b.getI32IntegerAttr(0), b.getI32IntegerAttr(block));
    Value idx = gen.cast(range, i64, location);
    // Put the block dimension at position d.
    for (int64_t j = d + 1; j < rank; ++j)
      idx = gen.expandDims(
          idx, llvm::cast<RankedTensorType>(idx.getType()).getRank(), location);
    for (int64_t j = 0; j < d; ++j)
      idx = gen.expandDims(idx, 0, location);
    TValue index = TValue::of(idx);
    const TValue &offset = offsets[d];
    if (!(offset.kind == TValue::Kind::Int && offset.i == 0)) {
      FailureOr<TValue> sum = gen.genBinary(BinaryOp::Add, index, offset, l);
      if (failed(sum))
        return failure();
      index = *sum;
    }
    TValue term = index;
    const TValue &stride = bp.strides[d];
    if (!(stride.kind == TValue::Kind::Int && stride.i == 1)) {
      FailureOr<TValue> product =
          gen.genBinary(BinaryOp::Mul, index, stride, l);
      if (failed(product))
        return failure();
      term = *product;
    }
    if (total) {
      FailureOr<TValue> sum = gen.genBinary(BinaryOp::Add, *total, term, l);
      if (failed(sum))
        return failure();
      total = *sum;
    } else {
      total = term;
    }
    if (!llvm::is_contained(checked, d))
      continue;
    FailureOr<TValue> low =
        gen.genBinary(BinaryOp::Ge, index, TValue::ofInt(0), l);
    if (failed(low))
      return failure();
    FailureOr<TValue> high = gen.genBinary(BinaryOp::Lt, index, bp.shape[d], l);
    if (failed(high))
      return failure();
    FailureOr<TValue> inside = gen.genBinary(BinaryOp::BitAnd, *low, *high, l);
    if (failed(inside))
      return failure();
    if (mask) {
      FailureOr<TValue> both =
          gen.genBinary(BinaryOp::BitAnd, *mask, *inside, l);
      if (failed(both))
        return failure();
      mask = *both;
    } else {
      mask = *inside;
    }
  }
  Access access;
  FailureOr<Value> offsetsTile =
      gen.broadcastTo(total->value, bp.blockShape, l);
  if (failed(offsetsTile))
    return failure();
  auto ptrType = RankedTensorType::get(bp.blockShape, bp.base.getType());
  Value base = tile::SplatOp::create(b, location, ptrType, bp.base);
  access.ptrs =
      tile::AddPtrOp::create(b, location, ptrType, base, *offsetsTile);
  if (mask) {
    FailureOr<Value> m = gen.broadcastTo(mask->value, bp.blockShape, l);
    if (failed(m))
      return failure();
    access.mask = *m;
  }
  return access;
}

/// Reads a `boundary_check` argument: None, an axis or a tuple of axes.
static FailureOr<SmallVector<int64_t>>
boundaryCheck(Generator &gen, Binder &bind, unsigned i, int64_t rank) {
  SmallVector<int64_t> dims;
  if (!bind.has(i))
    return dims;
  for (const TValue &e : asList(bind.get(i))) {
    if (e.kind != TValue::Kind::Int)
      return gen.error(bind.locs[i])
             << "'boundary_check' must hold constexpr dimensions, not "
             << e.describe();
    if (e.i < 0 || e.i >= rank)
      return gen.error(bind.locs[i])
             << "'boundary_check' dimension " << e.i
             << " is out of range for a block pointer of rank " << rank;
    if (llvm::is_contained(dims, e.i))
      return gen.error(bind.locs[i])
             << "dimension " << e.i << " repeated in 'boundary_check'";
    dims.push_back(e.i);
  }
  return dims;
}

/// Reads a padding option: "", "zero" or "nan" (not for integers).
static FailureOr<std::string> paddingOption(Generator &gen, Binder &bind,
                                            unsigned i, Type elem) {
  if (!bind.has(i))
    return std::string();
  FailureOr<std::string> s = bind.constString(i);
  if (failed(s))
    return failure();
  if (!s->empty() && *s != "zero" && *s != "nan")
    return gen.error(bind.locs[i]) << "'padding_option' must be \"zero\" or "
                                      "\"nan\", not \""
                                   << *s << "\"";
  if (*s == "nan" && !isa<FloatType>(elem))
    return gen.error(bind.locs[i])
           << "'padding_option' \"nan\" is not supported for " << typeName(elem)
           << " elements";
  return *s;
}

/// An integer operand of a descriptor load: a run-time value as it is, a
/// constexpr as a constant of `type`.
static Value integerOperand(Generator &gen, const TValue &v, Type type,
                            Location l) {
  if (v.isValue())
    return v.value;
  return arith::ConstantOp::create(gen.builder, l,
                                   gen.builder.getIntegerAttr(type, v.i));
}

namespace {
/// What a load records of the block it reads.
enum class DescriptorKind {
  None,
  /// A tensor descriptor: its launch checks the base's and strides'
  /// alignment.
  Descriptor,
  /// A block pointer checking every dimension: nothing is checked at launch.
  BlockPointer,
};
} // namespace

namespace {
/// The extents, strides and offsets a descriptor access records.
struct DescriptorOperands {
  SmallVector<Value> shape, strides, offsets;
  DescriptorOperands(Generator &gen, const BlockPointer &bp,
                     ArrayRef<TValue> blockOffsets, Location l) {
    Type i32 = gen.builder.getI32Type(), i64 = gen.builder.getI64Type();
    for (size_t d = 0; d < bp.blockShape.size(); ++d) {
      shape.push_back(integerOperand(gen, bp.shape[d], i64, l));
      strides.push_back(integerOperand(gen, bp.strides[d], i64, l));
      offsets.push_back(integerOperand(gen, blockOffsets[d], i32, l));
    }
  }
};
} // namespace

/// Stores `value` to the block at `offsets` (`access`), recording the block
/// as `descriptor` says.
static void storeAt(Generator &gen, const BlockPointer &bp,
                    ArrayRef<TValue> offsets, const Access &access, Value value,
                    DescriptorKind descriptor, Location l) {
  if (descriptor == DescriptorKind::None) {
    tile::StoreOp::create(gen.builder, l, access.ptrs, value, access.mask);
    return;
  }
  DescriptorOperands d(gen, bp, offsets, l);
  auto store =
      tile::StoreOp::create(gen.builder, l, access.ptrs, value, access.mask,
                            bp.base, d.shape, d.strides, d.offsets);
  if (descriptor == DescriptorKind::BlockPointer)
    store.setDescUncheckedAttr(gen.builder.getUnitAttr());
}

/// Loads the block at `offsets` with the given checked dimensions/padding;
/// `descriptor` says whether the load records the block's description (TMA
/// may then copy it).
static FailureOr<TValue>
loadAt(Generator &gen, const BlockPointer &bp, ArrayRef<TValue> offsets,
       ArrayRef<int64_t> checked, llvm::StringRef padding, llvm::SMLoc l,
       DescriptorKind descriptor = DescriptorKind::None) {
  FailureOr<Access> access = address(gen, bp, offsets, checked, l);
  if (failed(access))
    return failure();
  Type elem = bp.elementType();
  auto resultType = RankedTensorType::get(bp.blockShape, elem);
  Location location = gen.loc(l);
  Value other;
  if (access->mask && !padding.empty())
    other =
        gen.constant(padding == "nan" ? NAN : 0.0, elem, resultType, location);
  if (descriptor == DescriptorKind::None)
    return TValue::of(tile::LoadOp::create(gen.builder, location, resultType,
                                           access->ptrs, access->mask, other),
                      bp.isUnsigned);
  DescriptorOperands d(gen, bp, offsets, location);
  auto load = tile::LoadOp::create(gen.builder, location, resultType,
                                   access->ptrs, access->mask, other, bp.base,
                                   d.shape, d.strides, d.offsets);
  if (descriptor == DescriptorKind::BlockPointer)
    load.setDescUncheckedAttr(gen.builder.getUnitAttr());
  return TValue::of(load.getResult(), bp.isUnsigned);
}

/// Converts a value to store through `bp`: a scalar is splat, a tile must have
/// the block's shape. With `exactType`, the element type must match (block
/// pointers); otherwise it is converted (descriptors).
static FailureOr<Value> storedValue(Generator &gen, const BlockPointer &bp,
                                    const TValue &v, bool exactType,
                                    llvm::SMLoc l, llvm::StringRef what) {
  Type elem = bp.elementType();
  auto blockType = RankedTensorType::get(bp.blockShape, elem);
  if (auto t = v.tileType()) {
    if (t.getShape() != ArrayRef<int64_t>(bp.blockShape))
      return gen.error(l) << "the value stored through " << what
                          << " must be a " << shapeString(bp.blockShape)
                          << " tile, not " << v.describe();
    if (exactType && t.getElementType() != elem)
      return gen.error(l) << "the value stored through " << what << " of "
                          << typeName(elem)
                          << " must have that element type, not "
                          << v.describe() << "; convert it with .to()";
  }
  if (v.isValue() &&
      isa<tile::PtrType>(getElementTypeOrSelf(v.value.getType())))
    return gen.error(l) << "cannot store pointers";
  return gen.toValueOfType(Generator::storedConstant(v, elem), elem, blockType,
                           l, bp.isUnsigned);
}

FailureOr<TValue> Generator::loadBlock(const TValue &ptr, Binder &bind,
                                       llvm::SMLoc callLoc) {
  const BlockPointer &bp = *ptr.pointer;
  if (bind.has(1) || bind.has(2))
    return error(bind.locs[bind.has(1) ? 1 : 2])
           << "'mask' and 'other' cannot be used with a block pointer; use "
              "'boundary_check' and 'padding_option'";
  FailureOr<SmallVector<int64_t>> checked =
      boundaryCheck(*this, bind, 3, bp.blockShape.size());
  if (failed(checked))
    return failure();
  FailureOr<std::string> padding =
      paddingOption(*this, bind, 4, bp.elementType());
  if (failed(padding))
    return failure();
  // A load that checks every dimension reads what a tensor descriptor's
  // load reads: it carries the same description, marked as not checked at
  // launch (TMA may copy it where the signature's hints prove what a
  // descriptor's launch would check).
  bool describable = checked->size() == bp.blockShape.size();
  return loadAt(*this, bp, bp.offsets, *checked, *padding, callLoc,
                describable ? DescriptorKind::BlockPointer
                            : DescriptorKind::None);
}

FailureOr<TValue> Generator::storeBlock(const TValue &ptr, Binder &bind,
                                        llvm::SMLoc callLoc) {
  const BlockPointer &bp = *ptr.pointer;
  if (bind.has(2))
    return error(bind.locs[2]) << "'mask' cannot be used with a block "
                                  "pointer; use 'boundary_check'";
  FailureOr<SmallVector<int64_t>> checked =
      boundaryCheck(*this, bind, 3, bp.blockShape.size());
  if (failed(checked))
    return failure();
  FailureOr<Value> value =
      storedValue(*this, bp, bind.get(1), /*exactType=*/true, bind.locs[1],
                  "a block pointer");
  if (failed(value))
    return failure();
  FailureOr<Access> access = address(*this, bp, bp.offsets, *checked, callLoc);
  if (failed(access))
    return failure();
  storeAt(*this, bp, bp.offsets, *access, *value,
          checked->size() == bp.blockShape.size() ? DescriptorKind::BlockPointer
                                                  : DescriptorKind::None,
          loc(callLoc));
  return TValue();
}

/// Reads the offsets of a descriptor access.
static FailureOr<std::vector<TValue>> descriptorOffsets(Generator &gen,
                                                        const BlockPointer &bp,
                                                        const TValue &v,
                                                        llvm::SMLoc l) {
  std::vector<TValue> list = asList(v);
  if (list.size() != bp.blockShape.size())
    return gen.error(l) << "expected " << bp.blockShape.size()
                        << " offsets for a tensor descriptor of rank "
                        << bp.blockShape.size() << ", not " << list.size();
  return indexList(gen, TValue::ofTuple(list), gen.builder.getI32Type(), l,
                   "descriptor offset");
}

FailureOr<TValue> Generator::callDescriptorMethod(const TValue &desc,
                                                  llvm::StringRef name,
                                                  CallArgs &args,
                                                  llvm::SMLoc callLoc) {
  const BlockPointer &bp = *desc.pointer;
  SmallVector<int64_t> all;
  for (size_t d = 0; d < bp.blockShape.size(); ++d)
    all.push_back(d);
  if (name == "load") {
    Binder bind(*this, "load", args, callLoc);
    if (failed(bind.bind({"offsets", "cache_modifier", "eviction_policy"}, 1)))
      return failure();
    FailureOr<std::vector<TValue>> offsets =
        descriptorOffsets(*this, bp, bind.get(0), bind.locs[0]);
    if (failed(offsets))
      return failure();
    return loadAt(*this, bp, *offsets, all, bp.padding, callLoc,
                  DescriptorKind::Descriptor);
  }
  if (name == "store") {
    Binder bind(*this, "store", args, callLoc);
    if (failed(bind.bind({"offsets", "value", "store_reduce"}, 2)))
      return failure();
    FailureOr<std::vector<TValue>> offsets =
        descriptorOffsets(*this, bp, bind.get(0), bind.locs[0]);
    if (failed(offsets))
      return failure();
    FailureOr<Value> value =
        storedValue(*this, bp, bind.get(1), /*exactType=*/false, bind.locs[1],
                    "a tensor descriptor");
    if (failed(value))
      return failure();
    FailureOr<Access> access = address(*this, bp, *offsets, all, callLoc);
    if (failed(access))
      return failure();
    storeAt(*this, bp, *offsets, *access, *value, DescriptorKind::Descriptor,
            loc(callLoc));
    return TValue();
  }
  return error(callLoc) << desc.describe() << " has no method '" << name << "'";
}

FailureOr<TValue> Generator::descriptorAttribute(const TValue &desc,
                                                 llvm::StringRef attr,
                                                 llvm::SMLoc l) {
  const BlockPointer &bp = *desc.pointer;
  bool isDesc = desc.kind == TValue::Kind::TensorDesc;
  if (isDesc && attr == "dtype")
    return TValue::ofDType(bp.elementType(), bp.isUnsigned);
  if (isDesc && attr == "block_shape") {
    std::vector<TValue> dims;
    for (int64_t d : bp.blockShape)
      dims.push_back(TValue::ofInt(d));
    return TValue::ofTuple(std::move(dims));
  }
  if (isDesc && attr == "shape")
    return TValue::ofTuple(bp.shape);
  if (isDesc && attr == "strides")
    return TValue::ofTuple(bp.strides);
  if (isDesc && (attr == "load" || attr == "store")) {
    TValue method = TValue::named(TValue::Kind::Method, attr);
    method.elements.push_back(desc);
    return method;
  }
  // A block pointer's type points to its block (`p.type.element_ty`, the
  // dtype its loads cast to).
  if (!isDesc && attr == "type")
    return TValue::ofDType(
        tile::PtrType::get(builder.getContext(), bp.elementType()),
        bp.isUnsigned);
  if (!isDesc && attr == "advance") {
    TValue method = TValue::named(TValue::Kind::Method, attr);
    method.elements.push_back(desc);
    return method;
  }
  return error(l) << desc.describe() << " has no attribute '" << attr << "'";
}

/// The note of tl.make_block_ptr's warning: the tensor-descriptor code that
/// does the same, built from the call's source text, when the block pointer
/// is row-major with a last stride of 1; why there is none otherwise.
static std::string descriptorEquivalent(Generator &gen, const Binder &bind,
                                        ArrayRef<TValue> strides,
                                        ArrayRef<int64_t> order) {
  std::string why;
  const TValue &last = strides.back();
  bool rowMajor = llvm::equal(
      order, llvm::reverse(llvm::seq<int64_t>(0, int64_t(order.size()))));
  if (!rowMajor)
    why = "its 'order' is not the row-major " + rowMajorOrder(order.size());
  else if (last.kind != TValue::Kind::Int || last.i != 1)
    why = "its last stride is not the literal 1";
  if (!why.empty())
    return "no exact tensor descriptor equivalent: " + why +
           "; a tensor descriptor describes a row-major tensor whose last "
           "stride is 1 (describe the transposed tensor and transpose the "
           "loaded block with tl.trans)";
  auto text = [&](unsigned i) {
    return tupleTextAsList(gen.sourceText(bind.ranges[i]));
  };
  std::string offsets = text(3);
  return "the equivalent tensor descriptor: desc = tl.make_tensor_descriptor(" +
         text(0) + ", shape=" + text(1) + ", strides=" + text(2) +
         ", block_shape=" + text(4) + "), then desc.load(" + offsets +
         ") and desc.store(" + offsets +
         ", value) with the offsets carried as integers (tl.advance adds to "
         "them); desc.load checks every dimension and pads with zeros "
         "(tilec --rewrite-block-ptrs rewrites a file)";
}

std::optional<unsigned> Generator::kernelArgument(Value v,
                                                  int64_t implied) const {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return std::nullopt;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func)
    return std::nullopt;
  unsigned index = arg.getArgNumber();
  // A ':16' hint, checked at launch, may imply the requirement.
  if (std::optional<int64_t> hint = tile::getDivisibility(func, index))
    if (*hint % implied == 0)
      return std::nullopt;
  return index;
}

void Generator::addRequirement(const LaunchRequirement &requirement) {
  if (!llvm::is_contained(requirements, requirement))
    requirements.push_back(requirement);
}

FailureOr<TValue> Generator::builtinMakeBlockPtr(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  Type i32 = builder.getI32Type();
  Type i64 = builder.getI64Type();
  FailureOr<Value> base = basePointer(*this, bind, 0);
  if (failed(base))
    return failure();
  auto bp = std::make_shared<BlockPointer>();
  bp->base = *base;
  bp->isUnsigned = bind.get(0).isUnsigned;
  FailureOr<std::vector<TValue>> shape =
      indexList(*this, bind.get(1), i64, bind.locs[1], "extent");
  if (failed(shape))
    return failure();
  FailureOr<std::vector<TValue>> strides =
      indexList(*this, bind.get(2), i64, bind.locs[2], "stride");
  if (failed(strides))
    return failure();
  FailureOr<std::vector<TValue>> offsets =
      indexList(*this, bind.get(3), i32, bind.locs[3], "offset");
  if (failed(offsets))
    return failure();
  FailureOr<SmallVector<int64_t>> block = constList(
      *this, bind.get(4), bind.locs[4], "'block_shape' of tl.make_block_ptr");
  if (failed(block) || failed(checkTileShape(*block, bind.locs[4])))
    return failure();
  FailureOr<SmallVector<int64_t>> order = constList(
      *this, bind.get(5), bind.locs[5], "'order' of tl.make_block_ptr");
  if (failed(order))
    return failure();
  size_t rank = block->size();
  if (shape->size() != rank || strides->size() != rank ||
      offsets->size() != rank || order->size() != rank)
    return error(callLoc) << "'shape', 'strides', 'offsets', 'block_shape' "
                             "and 'order' of tl.make_block_ptr must have the "
                             "same length (got "
                          << shape->size() << ", " << strides->size() << ", "
                          << offsets->size() << ", " << rank << ", "
                          << order->size() << ")";
  SmallVector<int64_t> sorted = *order;
  llvm::sort(sorted);
  for (size_t d = 0; d < rank; ++d)
    if (sorted[d] != int64_t(d))
      return error(bind.locs[5]) << "'order' of tl.make_block_ptr must be a "
                                    "permutation of 0.."
                                 << rank - 1;
  if (blockPtrPolicy != BlockPtrPolicy::Allow) {
    std::string note = descriptorEquivalent(*this, bind, *strides, *order);
    if (blockPtrPolicy == BlockPtrPolicy::Reject) {
      InFlightDiagnostic diag =
          error(callLoc) << "tl.make_block_ptr was removed in Triton 3.9 "
                            "(--triton-compat=3.9); use "
                            "tl.make_tensor_descriptor";
      diag.attachNote(loc(callLoc)) << note;
      return failure();
    }
    warning(callLoc,
            "tl.make_block_ptr was removed in Triton 3.9; use "
            "tl.make_tensor_descriptor (-Wno-block-ptr silences this "
            "warning)",
            note);
  }
  bp->shape = std::move(*shape);
  bp->strides = std::move(*strides);
  bp->offsets = std::move(*offsets);
  bp->blockShape = *block;
  bp->order = *order;
  return TValue::ofPointer(TValue::Kind::BlockPtr, std::move(bp));
}

FailureOr<TValue> Generator::builtinAdvance(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  Type i32 = builder.getI32Type();
  const TValue &base = bind.get(0);
  if (base.kind != TValue::Kind::BlockPtr)
    return error(bind.locs[0])
           << "'base' of tl.advance must be a block pointer, "
              "not "
           << base.describe();
  FailureOr<std::vector<TValue>> delta =
      indexList(*this, bind.get(1), i32, bind.locs[1], "offset");
  if (failed(delta))
    return failure();
  const BlockPointer &old = *base.pointer;
  if (delta->size() != old.blockShape.size())
    return error(bind.locs[1])
           << "tl.advance needs " << old.blockShape.size()
           << " offsets for a block pointer of rank " << old.blockShape.size()
           << ", not " << delta->size();
  auto bp = std::make_shared<BlockPointer>(old);
  for (size_t d = 0; d < delta->size(); ++d) {
    FailureOr<TValue> sum =
        genBinary(BinaryOp::Add, old.offsets[d], (*delta)[d], bind.locs[1]);
    if (failed(sum))
      return failure();
    bp->offsets[d] = *sum;
  }
  return TValue::ofPointer(TValue::Kind::BlockPtr, std::move(bp));
}

FailureOr<TValue> Generator::builtinMakeTensorDescriptor(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  Type i32 = builder.getI32Type();
  Type i64 = builder.getI64Type();
  FailureOr<Value> base = basePointer(*this, bind, 0);
  if (failed(base))
    return failure();
  Type elem = llvm::cast<tile::PtrType>(base->getType()).getPointeeType();
  size_t rank = asList(bind.get(1)).size();
  if (rank < 1 || rank > 5)
    return error(bind.locs[1]) << "tl.make_tensor_descriptor supports 1 to 5 "
                                  "dimensions, not "
                               << rank;
  if (asList(bind.get(2)).size() != rank)
    return error(bind.locs[2]) << "expected " << rank << " strides but got "
                               << asList(bind.get(2)).size();
  FailureOr<SmallVector<int64_t>> block =
      constList(*this, bind.get(3), bind.locs[3],
                "'block_shape' of tl.make_tensor_descriptor");
  if (failed(block))
    return failure();
  if (block->size() != rank)
    return error(bind.locs[3]) << "expected a block shape of " << rank
                               << " dimensions but got " << block->size();
  if (failed(checkTileShape(*block, bind.locs[3])))
    return failure();
  int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
  if (bytes == 0)
    bytes = 1;
  if (block->back() * bytes < 16)
    return error(bind.locs[3]) << "a tensor descriptor's block must have at "
                                  "least 16 bytes in the last dimension, not "
                               << block->back() << " * " << bytes << " = "
                               << block->back() * bytes << " bytes";
  std::vector<TValue> strideList = asList(bind.get(2));
  const TValue &lastStride = strideList.back();
  if (lastStride.kind != TValue::Kind::Int)
    return error(bind.locs[2])
           << "Tensor descriptor last dim must be 1 but got "
           << lastStride.describe()
           << "; the last stride must be the constexpr 1";
  if (lastStride.i != 1)
    return error(bind.locs[2])
           << "Tensor descriptor last dim must be 1 but got " << lastStride.i;
  if (std::optional<unsigned> arg = kernelArgument(*base, 16))
    addRequirement({LaunchRequirement::Kind::Align16, *arg});
  for (const TValue &stride : llvm::drop_end(strideList))
    if (std::optional<unsigned> arg =
            stride.isValue() ? kernelArgument(stride.value, 16 / bytes)
                             : std::nullopt)
      if (std::optional<abi::ScalarType> dtype = tile::getScalarType(elem))
        addRequirement({LaunchRequirement::Kind::Bytes16, *arg, "", *dtype});
  // The extents become i32, as Triton's make_scalar casts them.
  FailureOr<std::vector<TValue>> shape =
      indexList(*this, bind.get(1), i32, bind.locs[1], "extent",
                /*narrow=*/true);
  if (failed(shape))
    return failure();
  FailureOr<std::vector<TValue>> strides =
      indexList(*this, bind.get(2), i64, bind.locs[2], "stride");
  if (failed(strides))
    return failure();
  std::string padding = "zero";
  if (bind.has(4)) {
    FailureOr<std::string> p = paddingOption(*this, bind, 4, elem);
    if (failed(p))
      return failure();
    if (!p->empty())
      padding = *p;
  }
  auto bp = std::make_shared<BlockPointer>();
  bp->base = *base;
  bp->isUnsigned = bind.get(0).isUnsigned;
  bp->shape = std::move(*shape);
  bp->strides = std::move(*strides);
  bp->blockShape = *block;
  bp->padding = padding;
  return TValue::ofPointer(TValue::Kind::TensorDesc, std::move(bp));
}

FailureOr<TValue> Generator::builtinLoadTensorDescriptor(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  if (args.positional.empty() ||
      args.positional.front().kind != TValue::Kind::TensorDesc)
    return error(callLoc) << "'" << qualified
                          << "' expects a tensor descriptor as its first "
                             "argument";
  TValue desc = args.positional.front();
  CallArgs rest = args;
  rest.positional.erase(rest.positional.begin());
  rest.positionalRanges.erase(rest.positionalRanges.begin());
  return callDescriptorMethod(
      desc, name == "load_tensor_descriptor" ? "load" : "store", rest, callLoc);
}
