//===- TileDialect.cpp - The tile dialect -----------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Registers the tile dialect's types, attributes and operations, and the
// small type helpers shared by passes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;

#include "tilec/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

namespace {
/// Prints layouts as aliases (`#blocked`, `#blocked1`, `#mma`...) at the top of
/// the module, as Triton does, so that tile types stay readable.
struct TileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedLayoutAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<MmaLayoutAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<LinearLayoutAttr>(attr)) {
      os << "linear";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedLayoutAttr>(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

ArrayRef<int64_t> TileDialect::getSliceParentRegisters(
    Attribute slice, ArrayRef<int64_t> shape,
    function_ref<SmallVector<int64_t>()> compute) {
  std::pair<const void *, std::vector<int64_t>> key(
      slice.getAsOpaquePointer(),
      std::vector<int64_t>(shape.begin(), shape.end()));
  {
    std::lock_guard<std::mutex> lock(sliceParentRegistersMutex);
    auto it = sliceParentRegisters.find(key);
    if (it != sliceParentRegisters.end())
      return it->second;
  }
  // Computed unlocked: the parent's list may be asked for on the way.
  SmallVector<int64_t> registers = compute();
  std::lock_guard<std::mutex> lock(sliceParentRegistersMutex);
  // A std::map's elements stay where they are: the view outlives the lock.
  return sliceParentRegisters.emplace(std::move(key), std::move(registers))
      .first->second;
}

void TileDialect::initialize() {
  registerTypes();
  registerAttributes();
  addInterfaces<TileOpAsmInterface>();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder,
                                            Attribute value, Type type,
                                            Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
}

Type tilec::tile::withElementType(Type type, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

DenseElementsAttr tilec::tile::withEncoding(DenseElementsAttr dense,
                                            RankedTensorType type) {
  if (dense.isSplat())
    return DenseElementsAttr::get(type, dense.getSplatValue<Attribute>());
  return DenseElementsAttr::get(type,
                                llvm::to_vector(dense.getValues<Attribute>()));
}

LayoutAttrInterface tilec::tile::getLayout(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return dyn_cast_or_null<LayoutAttrInterface>(tensor.getEncoding());
  return {};
}

//===----------------------------------------------------------------------===//
// SmemType
//===----------------------------------------------------------------------===//

Type SmemType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SharedLayoutAttr layout;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(layout) || parser.parseGreater())
    return {};
  return parser.getChecked<SmemType>(parser.getContext(), shape, elementType,
                                     layout);
}

void SmemType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << getLayout() << ">";
}

LogicalResult SmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               SharedLayoutAttr layout) {
  if (shape.size() < 2 || shape.size() > 3)
    return emitError() << "a shared-memory buffer holds one matrix or a ring "
                          "of them (rank 2 or 3)";
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "dimensions must be positive";
  if (!elementType.isIntOrFloat())
    return emitError() << "elements must be integers or floats";
  return success();
}

SmemType SmemType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                             Type elementType) const {
  return SmemType::get(getContext(), shape ? *shape : getShape(), elementType,
                       getLayout());
}

int64_t SmemType::getSlotBytes() const {
  ArrayRef<int64_t> matrix = getShape().take_back(2);
  int64_t bytes = matrix[0] * matrix[1] *
                  std::max<int64_t>(1, getElementTypeBitWidth() / 8);
  return llvm::alignTo(bytes, 1024);
}
