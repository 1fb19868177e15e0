//===- DialectAttrs.cpp - The tile dialect's discardable attributes -------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The typed accessors of DialectAttrs.h, over the helpers ODS generates from
// TileDialect.td's discardableAttrs, and the dialect's verifiers of them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TargetInfo.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tilec::tile;

static TileDialect *getDialect(Operation *op) {
  return op->getContext()->getLoadedDialect<TileDialect>();
}

static ModuleOp getModule(Operation *op) {
  if (auto module = dyn_cast<ModuleOp>(op))
    return module;
  return op->getParentOfType<ModuleOp>();
}

static IntegerAttr getI32(Operation *op, int64_t value) {
  return Builder(op->getContext()).getI32IntegerAttr(value);
}

std::optional<int64_t> tilec::tile::getNumWarps(Operation *op) {
  ModuleOp module = getModule(op);
  if (!module)
    return std::nullopt;
  if (IntegerAttr warps =
          getDialect(op)->getNumWarpsAttrHelper().getAttr(module))
    return warps.getInt();
  return std::nullopt;
}

void tilec::tile::setNumWarps(ModuleOp module, int64_t numWarps) {
  getDialect(module)->getNumWarpsAttrHelper().setAttr(module,
                                                      getI32(module, numWarps));
}

int64_t tilec::tile::getSharedMemoryBytes(Operation *op) {
  ModuleOp module = getModule(op);
  IntegerAttr bytes =
      module ? getDialect(op)->getSharedAttrHelper().getAttr(module)
             : IntegerAttr();
  return bytes ? bytes.getInt() : 0;
}

void tilec::tile::setSharedMemoryBytes(ModuleOp module, int64_t bytes) {
  auto helper = getDialect(module)->getSharedAttrHelper();
  if (bytes == 0) {
    module->removeAttr(helper.getName());
    return;
  }
  helper.setAttr(module, getI32(module, bytes));
}

int64_t tilec::tile::getScratchOffset(Operation *op) {
  IntegerAttr offset = getDialect(op)->getScratchOffsetAttrHelper().getAttr(op);
  return offset ? offset.getInt() : 0;
}

void tilec::tile::setScratchOffset(Operation *op, int64_t offset) {
  getDialect(op)->getScratchOffsetAttrHelper().setAttr(
      op, Builder(op->getContext()).getI64IntegerAttr(offset));
}

SmallVector<TensorMapAttr> tilec::tile::getTensorMaps(ModuleOp module) {
  SmallVector<TensorMapAttr> maps;
  if (ArrayAttr array = getDialect(module)->getTmaAttrHelper().getAttr(module))
    for (Attribute map : array)
      maps.push_back(cast<TensorMapAttr>(map));
  return maps;
}

void tilec::tile::addTensorMap(ModuleOp module, TensorMapAttr map) {
  SmallVector<Attribute> maps;
  if (ArrayAttr old = getDialect(module)->getTmaAttrHelper().getAttr(module))
    llvm::append_range(maps, old);
  maps.push_back(map);
  getDialect(module)->getTmaAttrHelper().setAttr(
      module, ArrayAttr::get(module.getContext(), maps));
}

std::optional<int64_t> tilec::tile::getProgramsPerSM(Operation *func) {
  if (IntegerAttr programs =
          getDialect(func)->getProgramsPerSmAttrHelper().getAttr(func))
    return programs.getInt();
  return std::nullopt;
}

void tilec::tile::setProgramsPerSM(Operation *func, int64_t programs) {
  getDialect(func)->getProgramsPerSmAttrHelper().setAttr(
      func, getI32(func, programs));
}

void tilec::tile::removeProgramsPerSM(Operation *func) {
  func->removeAttr(getDialect(func)->getProgramsPerSmAttrHelper().getName());
}

std::optional<RereadFootprint> tilec::tile::getRereadFootprint(Operation *op) {
  ModuleOp module = getModule(op);
  DenseI64ArrayAttr values =
      module ? getDialect(op)->getRereadAttrHelper().getAttr(module)
             : DenseI64ArrayAttr();
  if (!values || values.size() != 3)
    return std::nullopt;
  return RereadFootprint{values[0], values[1], values[2]};
}

void tilec::tile::setRereadFootprint(ModuleOp module,
                                     RereadFootprint footprint) {
  getDialect(module)->getRereadAttrHelper().setAttr(
      module, DenseI64ArrayAttr::get(
                  module.getContext(),
                  {footprint.argIndex, footprint.bytes, footprint.step}));
}

std::optional<int64_t> tilec::tile::getDivisibility(FunctionOpInterface func,
                                                    unsigned index) {
  StringAttr name = getDialect(func)->getDivisibilityAttrHelper().getName();
  if (auto hint = func.getArgAttrOfType<IntegerAttr>(index, name))
    return hint.getInt();
  return std::nullopt;
}

void tilec::tile::setDivisibility(FunctionOpInterface func, unsigned index,
                                  int64_t divisor) {
  func.setArgAttr(index,
                  getDialect(func)->getDivisibilityAttrHelper().getName(),
                  getI32(func, divisor));
}

void tilec::tile::removeDivisibility(FunctionOpInterface func, unsigned index) {
  func.removeArgAttr(index,
                     getDialect(func)->getDivisibilityAttrHelper().getName());
}

/// The name of the attribute that holds hints of `kind`.
static StringAttr getAxisHintName(Operation *op, AxisHint kind) {
  TileDialect *dialect = getDialect(op);
  switch (kind) {
  case AxisHint::Divisibility:
    return dialect->getHintDivisibilityAttrHelper().getName();
  case AxisHint::Contiguity:
    return dialect->getHintContiguityAttrHelper().getName();
  case AxisHint::Constancy:
    return dialect->getHintConstancyAttrHelper().getName();
  }
  llvm_unreachable("unknown axis hint");
}

ArrayRef<int64_t> tilec::tile::getAxisHint(Operation *op, AxisHint kind) {
  if (auto hint =
          op->getAttrOfType<DenseI64ArrayAttr>(getAxisHintName(op, kind)))
    return hint.asArrayRef();
  return {};
}

void tilec::tile::setAxisHint(Operation *op, AxisHint kind,
                              ArrayRef<int64_t> values) {
  op->setAttr(getAxisHintName(op, kind),
              DenseI64ArrayAttr::get(op->getContext(), values));
}

void tilec::tile::removeAxisHints(Operation *op) {
  for (AxisHint kind :
       {AxisHint::Divisibility, AxisHint::Contiguity, AxisHint::Constancy})
    op->removeAttr(getAxisHintName(op, kind));
}

std::optional<int64_t> tilec::tile::getLoopUnrollFactor(Operation *loop) {
  if (IntegerAttr factor =
          getDialect(loop)->getLoopUnrollFactorAttrHelper().getAttr(loop))
    return factor.getInt();
  return std::nullopt;
}

void tilec::tile::setLoopUnrollFactor(Operation *loop, int64_t factor) {
  getDialect(loop)->getLoopUnrollFactorAttrHelper().setAttr(
      loop, getI32(loop, factor));
}

void tilec::tile::removeLoopUnrollFactor(Operation *loop) {
  loop->removeAttr(getDialect(loop)->getLoopUnrollFactorAttrHelper().getName());
}

bool tilec::tile::isFlattenRequested(Operation *loop) {
  return getDialect(loop)->getFlattenAttrHelper().isAttrPresent(loop);
}

void tilec::tile::setFlattenRequested(Operation *loop) {
  getDialect(loop)->getFlattenAttrHelper().setAttr(
      loop, UnitAttr::get(loop->getContext()));
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// Checks that `attr` is an integer of at least `min`.
static LogicalResult verifyInteger(Operation *op, NamedAttribute attr,
                                   int64_t min) {
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || value.getInt() < min)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' must be an integer of at least " << min;
  return success();
}

LogicalResult TileDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  bool onModule = isa<ModuleOp>(op);
  auto notHere = [&](StringRef where) {
    return op->emitError() << "'" << name << "' belongs on " << where;
  };
  if (name == NumWarpsAttrHelper::getNameStr())
    return onModule ? verifyInteger(op, attr, 1) : notHere("the module");
  if (name == SharedAttrHelper::getNameStr())
    return onModule ? verifyInteger(op, attr, 0) : notHere("the module");
  if (name == ScratchOffsetAttrHelper::getNameStr())
    return verifyInteger(op, attr, 0);
  if (name == ProgramsPerSmAttrHelper::getNameStr())
    return isa<FunctionOpInterface>(op) ? verifyInteger(op, attr, 1)
                                        : notHere("a kernel function");
  if (name == TargetAttrHelper::getNameStr()) {
    if (!onModule)
      return notHere("the module");
    auto arch = dyn_cast<StringAttr>(attr.getValue());
    if (!arch || !TargetInfo::lookup(arch.getValue()))
      return op->emitError() << TargetInfo::getUnsupportedMessage(
                 arch ? arch.getValue() : StringRef("<not a string>"));
    return success();
  }
  if (name == RereadAttrHelper::getNameStr()) {
    if (!onModule)
      return notHere("the module");
    auto values = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!values || values.size() != 3 || values[0] < -1 || values[1] < 1 ||
        values[2] < 1 || (values[0] == -1 && values[2] != 1))
      return op->emitError()
             << "'" << name
             << "' must be [argument, bytes, step]: an argument index (-1 "
                "for none, with step 1), then two positive integers";
    return success();
  }
  if (name == TmaAttrHelper::getNameStr()) {
    if (!onModule)
      return notHere("the module");
    auto maps = dyn_cast<ArrayAttr>(attr.getValue());
    if (!maps || !llvm::all_of(maps, llvm::IsaPred<TensorMapAttr>))
      return op->emitError()
             << "'" << name << "' must be an array of #tile.tensor_map";
    return success();
  }
  if (name == DivisibilityAttrHelper::getNameStr())
    return notHere("kernel arguments");
  if (name == LoopUnrollFactorAttrHelper::getNameStr())
    return op->getName().getStringRef() == "scf.for"
               ? verifyInteger(op, attr, 1)
               : notHere("an scf.for");
  if (name == FlattenAttrHelper::getNameStr()) {
    if (op->getName().getStringRef() != "scf.for")
      return notHere("an scf.for");
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == HintDivisibilityAttrHelper::getNameStr() ||
      name == HintContiguityAttrHelper::getNameStr() ||
      name == HintConstancyAttrHelper::getNameStr()) {
    if (op->getNumResults() != 1)
      return notHere("an op of one result");
    auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    int64_t rank = tensor ? tensor.getRank() : 1;
    auto values = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!values || int64_t(values.size()) != rank ||
        llvm::any_of(values.asArrayRef(), [](int64_t v) { return v < 1; }))
      return op->emitError()
             << "'" << name << "' must be " << rank << " positive integer"
             << (rank == 1 ? "" : "s") << " (one per dimension of the result)";
    return success();
  }
  return op->emitError() << "unknown attribute '" << name
                         << "' of the tile dialect";
}

LogicalResult TileDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                    unsigned,
                                                    NamedAttribute attr) {
  if (attr.getName().getValue() != DivisibilityAttrHelper::getNameStr())
    return op->emitError() << "unknown argument attribute '"
                           << attr.getName().getValue()
                           << "' of the tile dialect";
  return verifyInteger(op, attr, 1);
}
