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

#include "OpVerifiers.h"

#include "tilec/Dialect/Tile/IR/Libdevice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tilec::tile;

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// ExternElementwiseOp
//===----------------------------------------------------------------------===//

LogicalResult ExternElementwiseOp::verify() {
  bool is64 = false;
  const LibdeviceFunction *fn = lookupLibdeviceSymbol(getSymbol(), is64);
  if (!fn)
    return emitOpError("'") << getSymbol() << "' is not a libdevice function";
  SmallVector<Type> expected = fn->getArgumentTypes(getContext(), is64);
  if (getArgs().size() != expected.size())
    return emitOpError("'") << getSymbol() << "' takes " << expected.size()
                            << " arguments, not " << getArgs().size();
  for (auto [i, arg] : llvm::enumerate(getArgs()))
    if (getElementTypeOrSelf(arg.getType()) != expected[i])
      return emitOpError("argument ")
             << i << " of '" << getSymbol() << "' must have elements of type "
             << expected[i];
  Type result = fn->getResultType(getContext(), is64);
  if (getElementTypeOrSelf(getType()) != result)
    return emitOpError("the result of '")
           << getSymbol() << "' must have elements of type " << result;
  return success();
}

//===----------------------------------------------------------------------===//
// PrintOp
//===----------------------------------------------------------------------===//

LogicalResult PrintOp::verify() {
  if (std::optional<ArrayRef<bool>> flags = getIsUnsigned();
      flags && flags->size() != getArgs().size())
    return emitOpError("'is_unsigned' must have one flag per operand, not ")
           << flags->size();
  std::optional<ArrayRef<int64_t>> shape;
  for (Value arg : getArgs()) {
    auto tensor = dyn_cast<RankedTensorType>(arg.getType());
    ArrayRef<int64_t> argShape =
        tensor ? tensor.getShape() : ArrayRef<int64_t>();
    if (shape && *shape != argShape)
      return emitOpError("operands must have one shape");
    shape = argShape;
    if (isa<PtrType>(getElementTypeOrSelf(arg.getType())))
      continue;
    if (!getElementTypeOrSelf(arg.getType()).isIntOrFloat())
      return emitOpError("cannot print ") << arg.getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MakeRangeOp
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be a 1-D tensor");
  if (end <= start)
    return emitOpError("end (")
           << end << ") must be greater than start (" << start << ")";
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError("length ") << end - start << " must be a power of two";
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
// IntToPtrOp, PtrToIntOp and PtrCastOp
//===----------------------------------------------------------------------===//

/// Pointers are 64-bit addresses.
static LogicalResult verifyAddressType(Operation *op, Type intLike) {
  if (getElementTypeOrSelf(intLike).isInteger(64))
    return success();
  return op->emitOpError("converts pointers to and from 64-bit integers, not ")
         << getElementTypeOrSelf(intLike);
}

LogicalResult IntToPtrOp::verify() {
  return verifyAddressType(*this, getSrc().getType());
}

LogicalResult PtrToIntOp::verify() {
  return verifyAddressType(*this, getType());
}

OpFoldResult PtrCastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
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
LogicalResult tilec::tile::verifyMask(Operation *op, Type ptr, Value mask) {
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

/// Checks the descriptor operands of a load or store of `tile`.
static LogicalResult verifyDescriptor(Operation *op, Type tile, Value base,
                                      ValueRange shape, ValueRange strides,
                                      ValueRange offsets) {
  if (!base) {
    if (!shape.empty() || !strides.empty() || !offsets.empty())
      return op->emitOpError(
          "descriptor extents, strides and offsets need a base");
    return success();
  }
  auto tensor = dyn_cast<RankedTensorType>(tile);
  size_t rank = tensor ? tensor.getRank() : 0;
  if (!tensor || shape.size() != rank || strides.size() != rank ||
      offsets.size() != rank)
    return op->emitOpError("a descriptor load needs a tile result and one "
                           "extent, stride and offset per dimension");
  if (cast<PtrType>(base.getType()).getPointeeType() != tensor.getElementType())
    return op->emitOpError("descriptor base must point at ")
           << tensor.getElementType() << " elements";
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
  if (failed(verifyDescriptor(*this, getType(), getDescBase(), getDescShape(),
                              getDescStrides(), getDescOffsets())))
    return failure();
  return success();
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult InlineAsmOp::verify() {
  if (getArgs().empty() || getResults().empty())
    return emitOpError("needs at least one argument and one result");
  int64_t packed = getPacked();
  if (packed < 1)
    return emitOpError("packs at least one element, not ") << packed;
  for (Type type : llvm::concat<const Type>(getArgs().getTypes(),
                                            getResults().getTypes())) {
    Type elem = getElementTypeOrSelf(type);
    if (!elem.isIntOrFloat() && !isa<PtrType>(elem))
      return emitOpError("operands and results must be numbers or pointers, "
                         "not ")
             << type;
  }
  auto tensor = dyn_cast<RankedTensorType>(getArgs().front().getType());
  if (packed > 1 && (!tensor || tensor.getNumElements() % packed != 0))
    return emitOpError("packs ")
           << packed << " elements, which must divide the elements of "
           << getArgs().front().getType();
  if (std::string problem = checkConstraints(); !problem.empty())
    return emitOpError(problem);
  return success();
}

/// The bits of one element of `elem` in an asm register (pointers: 64).
static unsigned getAsmElementBits(Type elem) {
  return elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 64;
}

unsigned InlineAsmOp::getElementsPerRegister(Type elem, unsigned packed) {
  unsigned width = getAsmElementBits(elem);
  return width < 32 ? std::min(packed, 32 / width) : 1;
}

/// The bits of a register the PTX constraint letter `c` binds (0 when
/// unknown: not checked).
static unsigned getConstraintBits(char c) {
  switch (c) {
  case 'c':
    return 8;
  case 'h':
    return 16;
  case 'r':
  case 'f':
    return 32;
  case 'l':
  case 'd':
    return 64;
  default:
    return 0;
  }
}

std::string InlineAsmOp::checkConstraints() {
  unsigned packed = getPacked();
  // The registers of a group: each result's, then each argument's.
  auto registers = [&](TypeRange types) {
    SmallVector<unsigned> bits;
    for (Type type : types) {
      Type elem = getElementTypeOrSelf(type);
      unsigned per = getElementsPerRegister(elem, packed);
      bits.append(packed / per, per * getAsmElementBits(elem));
    }
    return bits;
  };
  SmallVector<unsigned> outputs = registers(getResultTypes());
  SmallVector<unsigned> inputs = registers(getArgs().getTypes());
  SmallVector<StringRef> outputConstraints, inputConstraints;
  SmallVector<StringRef> all;
  getConstraints().split(all, ',');
  for (StringRef c : all) {
    c = c.trim();
    if (c.starts_with("~")) // A clobber (`~{memory}`) binds no operand.
      continue;
    if (c.consume_front("="))
      outputConstraints.push_back(c.ltrim('&'));
    else
      inputConstraints.push_back(c);
  }
  std::string message;
  llvm::raw_string_ostream os(message);
  auto count = [&](StringRef what, size_t constraints, size_t regs) {
    os << "the constraints \"" << getConstraints() << "\" have " << constraints
       << " " << what << (constraints == 1 ? "" : "s") << ", but the "
       << (what == "output" ? "results" : "arguments") << " take " << regs
       << " register" << (regs == 1 ? "" : "s") << " per group of " << packed
       << " element" << (packed == 1 ? "" : "s");
  };
  if (outputConstraints.size() != outputs.size()) {
    count("output", outputConstraints.size(), outputs.size());
    return message;
  }
  if (inputConstraints.size() != inputs.size()) {
    count("input", inputConstraints.size(), inputs.size());
    return message;
  }
  auto widths = [&](ArrayRef<StringRef> constraints, ArrayRef<unsigned> regs,
                    StringRef what) {
    for (auto [i, c, bits] : llvm::enumerate(constraints, regs)) {
      unsigned width = c.empty() ? 0 : getConstraintBits(c.front());
      if (width && bits > width) {
        os << what << " constraint " << i << " '" << c << "' binds a " << width
           << "-bit register, but it must hold " << bits << " bits";
        return false;
      }
    }
    return true;
  };
  if (!widths(outputConstraints, outputs, "output"))
    return message;
  widths(inputConstraints, inputs, "input");
  return message;
}

void InlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
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
  if (failed(verifyDescriptor(*this, getValue().getType(), getDescBase(),
                              getDescShape(), getDescStrides(),
                              getDescOffsets())))
    return failure();
  return verifyMask(*this, getPtr().getType(), getMask());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), &getPtrMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

/// Prints a shape as `[a, b]` into a diagnostic.
InFlightDiagnostic &&tilec::tile::printShape(InFlightDiagnostic &&diag,
                                             ArrayRef<int64_t> shape) {
  diag << "[";
  llvm::interleaveComma(shape, diag);
  diag << "]";
  return std::move(diag);
}

LogicalResult ExpandDimsOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (result.getShape() != ArrayRef<int64_t>(expected) ||
      result.getElementType() != src.getElementType())
    return printShape(emitOpError("result must have shape "), expected)
           << " and element type " << src.getElementType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getType());
  if (src.getRank() != result.getRank())
    return emitOpError("operand and result must have the same rank");
  for (auto [s, r] : llvm::zip_equal(src.getShape(), result.getShape()))
    if (s != r && s != 1)
      return printShape(
          printShape(emitOpError("cannot broadcast shape "), src.getShape())
              << " to ",
          result.getShape());
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(cast<ShapedType>(getType()),
                                  splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult ReshapeOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getType());
  if (src.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ")
           << src.getNumElements() << " elements into "
           << result.getNumElements();
  return success();
}

LogicalResult TransOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getType());
  ArrayRef<int32_t> order = getOrder();
  if (int64_t(order.size()) != src.getRank())
    return emitOpError("order must have ") << src.getRank() << " entries";
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> expected;
  for (int32_t d : order) {
    if (d < 0 || d >= src.getRank() || seen[d])
      return emitOpError("order must be a permutation");
    seen[d] = true;
    expected.push_back(src.getDimSize(d));
  }
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return printShape(emitOpError("result must have shape "), expected);
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(cast<ShapedType>(getType()),
                                  splat.getSplatValue<Attribute>());
  // convert(convert(x)) is one conversion.
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Reductions, scans and dot products
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << src.getRank();
  bool isArg =
      getKind() == ReduceKind::ArgMax || getKind() == ReduceKind::ArgMin;
  Type elem = isArg ? IntegerType::get(getContext(), 32) : src.getElementType();
  if (isa<PtrType>(src.getElementType()))
    return emitOpError("cannot reduce pointers");
  Type resultElem = getElementTypeOrSelf(getType());
  if (resultElem != elem)
    return emitOpError("result element type must be ") << elem;
  SmallVector<int64_t> expected(src.getShape());
  expected.erase(expected.begin() + axis);
  auto result = dyn_cast<RankedTensorType>(getType());
  if (expected.empty()
          ? bool(result)
          : (!result || result.getShape() != ArrayRef<int64_t>(expected)))
    return printShape(emitOpError("result must have shape "), expected)
           << (expected.empty() ? " (a scalar)" : "");
  return success();
}

LogicalResult ScanOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  if (getAxis() >= src.getRank())
    return emitOpError("axis ")
           << getAxis() << " is out of range for rank " << src.getRank();
  if (!src.getElementType().isIntOrFloat())
    return emitOpError("can only scan integers and floats");
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto index = cast<RankedTensorType>(getIndex().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << src.getRank();
  if (!index.getElementType().isInteger() ||
      index.getElementType().isInteger(1))
    return emitOpError("index must be a tile of integers, not ") << index;
  if (index.getRank() != src.getRank())
    return emitOpError("index must have the rank of src (")
           << src.getRank() << "), not " << index.getRank();
  for (int64_t d = 0; d < src.getRank(); ++d)
    if (d != axis && index.getDimSize(d) != src.getDimSize(d))
      return emitOpError("index must have the size of src along dimension ")
             << d << " (" << src.getDimSize(d) << "), not "
             << index.getDimSize(d);
  if (result.getShape() != index.getShape() ||
      result.getElementType() != src.getElementType())
    return emitOpError("result must have the shape of index and the element "
                       "type of src, not ")
           << result;
  return success();
}

LogicalResult HistogramOp::verify() {
  auto src = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (src.getRank() != 1 || !src.getElementType().isInteger() ||
      src.getElementType().isInteger(1))
    return emitOpError("src must be a 1-D tile of integers, not ") << src;
  if (result.getRank() != 1 || !result.getElementType().isInteger(32))
    return emitOpError("result must be a 1-D tile of i32, not ") << result;
  if (Value mask = getMask()) {
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (maskType.getShape() != src.getShape() ||
        !maskType.getElementType().isInteger(1))
      return emitOpError("mask must be a tile of i1 of the shape of src, "
                         "not ")
             << maskType;
  }
  return success();
}

/// Checks the operands of a combine_reduce or combine_scan: one or more
/// tiles of one shape, of integers or floats, with `axis` in range.
static LogicalResult verifyCombineOperands(Operation *op, ValueRange srcs,
                                           int64_t axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(srcs[0].getType());
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << first.getRank();
  for (Value src : srcs) {
    auto type = cast<RankedTensorType>(src.getType());
    if (type.getShape() != first.getShape())
      return printShape(printShape(op->emitOpError("operands must have one "
                                                   "shape, not "),
                                   first.getShape())
                            << " and ",
                        type.getShape());
    if (!type.getElementType().isIntOrFloat())
      return op->emitOpError("can only combine integers and floats, not ")
             << type.getElementType();
  }
  return success();
}

/// Checks a region that runs on scalars: its entry block takes `args`,
/// every `YieldOp` in it yields `yields`, a single block ends with one, and
/// nothing in it has memory effects (it may branch and loop).
template <typename YieldOp>
static LogicalResult verifyScalarRegion(Operation *op, Region &region,
                                        TypeRange args, TypeRange yields,
                                        llvm::StringRef what) {
  if (region.front().getArgumentTypes() != args)
    return op->emitOpError() << what << " must take " << args.size()
                             << " scalars of the operands' element types";
  if (region.hasOneBlock() && !isa<YieldOp>(region.front().getTerminator()))
    return op->emitOpError()
           << what << " must end with " << YieldOp::getOperationName();
  WalkResult result = region.walk([&](Operation *inner) {
    if (auto yield = dyn_cast<YieldOp>(inner);
        yield && yield.getValues().getTypes() != yields) {
      yield.emitOpError("must yield ")
          << yields.size() << " scalars of the results' element types";
      return WalkResult::interrupt();
    }
    if (!isMemoryEffectFree(inner)) {
      inner->emitOpError("is not allowed in ")
          << what << " (it must have no memory effects)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Checks the combine region of `op` over operands of element types
/// `elems`: 2N scalar arguments (two partial results) and yields of N.
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         TypeRange elems) {
  SmallVector<Type> expected(elems);
  expected.append(elems.begin(), elems.end());
  return verifyScalarRegion<CombineYieldOp>(op, region, expected, elems,
                                            "combine region");
}

LogicalResult MapElementwiseOp::verify() {
  if (getSrcs().empty() || getResults().empty())
    return emitOpError("needs at least one operand and one result");
  int64_t pack = getPack();
  auto type = cast<RankedTensorType>(getSrcs().front().getType());
  if (pack < 1 || type.getNumElements() % pack != 0)
    return emitOpError("packs ")
           << pack << " elements, which must divide the elements of " << type;
  return success();
}

LogicalResult MapElementwiseOp::verifyRegions() {
  SmallVector<Type> args, yields;
  for (Value src : getSrcs())
    args.append(getPack(), getElementTypeOrSelf(src.getType()));
  for (Value result : getResults())
    yields.append(getPack(), getElementTypeOrSelf(result.getType()));
  return verifyScalarRegion<MapElementwiseYieldOp>(*this, getBody(), args,
                                                   yields, "the body");
}

static SmallVector<Type> getElementTypes(ValueRange values) {
  return llvm::map_to_vector(
      values, [](Value v) { return getElementTypeOrSelf(v.getType()); });
}

LogicalResult CombineReduceOp::verify() {
  if (failed(verifyCombineOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getResults().size() != getSrcs().size())
    return emitOpError("must have one result per operand");
  auto src = cast<RankedTensorType>(getSrcs()[0].getType());
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + getAxis());
  for (auto [operand, result] : llvm::zip(getSrcs(), getResults())) {
    Type elem = getElementTypeOrSelf(operand.getType());
    Type expected =
        shape.empty() ? elem : Type(RankedTensorType::get(shape, elem));
    auto tensor = dyn_cast<RankedTensorType>(result.getType());
    if (tensor ? tensor.getShape() != ArrayRef<int64_t>(shape) ||
                     tensor.getElementType() != elem
               : result.getType() != expected)
      return emitOpError("result ")
             << result.getResultNumber() << " must be " << expected;
  }
  return success();
}

LogicalResult CombineReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombine(), getElementTypes(getSrcs()));
}

LogicalResult CombineScanOp::verify() {
  if (failed(verifyCombineOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getResults().getTypes() != getSrcs().getTypes())
    return emitOpError("results must have the operands' types");
  return success();
}

LogicalResult CombineScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombine(), getElementTypes(getSrcs()));
}

/// Checks that `a` @ `b` + `c` are matrices of matching shapes (with
/// `rankMessage` when one is not a matrix).
LogicalResult tilec::tile::verifyProductShapes(Operation *op, ShapedType a,
                                               ShapedType b, ShapedType c,
                                               StringRef rankMessage) {
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return op->emitOpError(rankMessage);
  if (a.getDimSize(1) != b.getDimSize(0) ||
      c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return printShape(
        printShape(
            printShape(op->emitOpError("incompatible shapes "), a.getShape())
                << " @ ",
            b.getShape())
            << " + ",
        c.getShape());
  return success();
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  // A batched product: [B, M, K] @ [B, K, N] + [B, M, N], one matrix product
  // per index of the leading dimension (tile-split-batch separates them).
  if (a.getRank() == 3 && b.getRank() == 3 && c.getRank() == 3) {
    if (a.getDimSize(0) != b.getDimSize(0) ||
        a.getDimSize(0) != c.getDimSize(0))
      return printShape(
          printShape(
              printShape(emitOpError("batch dimensions differ: "), a.getShape())
                  << " @ ",
              b.getShape())
              << " + ",
          c.getShape());
    auto matrix = [](RankedTensorType t) {
      return RankedTensorType::get(t.getShape().drop_front(),
                                   t.getElementType());
    };
    a = matrix(a);
    b = matrix(b);
    c = matrix(c);
  }
  if (failed(verifyProductShapes(
          *this, a, b, c, "operands must be 2-D tiles (or 3-D, batched)")))
    return failure();
  if (getType() != getC().getType())
    return emitOpError("result type must be the accumulator's type ")
           << getC().getType();
  if (a.getElementType() != b.getElementType())
    return emitOpError("operands must have the same element type, not ")
           << a.getElementType() << " and " << b.getElementType();
  if (getUnsignedOperands() && !a.getElementType().isInteger(8))
    return emitOpError("unsignedOperands needs 8-bit integer operands, not ")
           << a.getElementType();
  return success();
}

namespace {
/// `x + dot(a, b, 0)` -> `dot(a, b, x)` when the product has no other use:
/// the product accumulates into x (as Triton combines them), so that a
/// loop carrying x can leave the product in flight.
struct AccumulateAddIntoDot : public OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp add,
                                PatternRewriter &rewriter) const override {
    for (unsigned i = 0; i < 2; ++i) {
      auto dot = add->getOperand(i).getDefiningOp<DotOp>();
      Value x = add->getOperand(1 - i);
      if (!dot || !dot->hasOneUse() || x.getType() != dot.getType() ||
          !matchPattern(dot.getC(), m_AnyZeroFloat()))
        continue;
      rewriter.replaceOpWithNewOp<DotOp>(add, dot.getType(), dot.getA(),
                                         dot.getB(), x, dot.getInputPrecision(),
                                         dot.getUnsignedOperands());
      rewriter.eraseOp(dot);
      return success();
    }
    return failure();
  }
};
} // namespace

void DotOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<AccumulateAddIntoDot>(context);
}

LogicalResult AtomicRMWOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (expected != getValue().getType() || getType() != expected)
    return emitOpError("value and result must have type ") << expected;
  if ((getKind() == AtomicKind::UMax || getKind() == AtomicKind::UMin) &&
      !getElementTypeOrSelf(expected).isInteger())
    return emitOpError("'")
           << stringifyAtomicKind(getKind()) << "' needs integer values";
  return verifyMask(*this, getPtr().getType(), getMask());
}

LogicalResult AtomicCASOp::verify() {
  Type expected = getPointeeType(getPtr().getType());
  if (expected != getValue().getType())
    return emitOpError("compared, new and old values must have type ")
           << expected;
  Type elem = getElementTypeOrSelf(expected);
  unsigned bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 0;
  if (bits != 16 && bits != 32 && bits != 64)
    return emitOpError("needs 16-, 32- or 64-bit values, not ") << elem;
  return success();
}

/// An atomic reads and writes the memory its pointers address.
static void addAtomicEffects(
    OpOperand &ptr,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &ptr,
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &ptr,
                       SideEffects::DefaultResource::get());
}

void AtomicCASOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addAtomicEffects(getPtrMutable(), effects);
}

void AtomicRMWOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addAtomicEffects(getPtrMutable(), effects);
}
