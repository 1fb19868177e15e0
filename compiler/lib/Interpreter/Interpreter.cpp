//===- Interpreter.cpp - Run tile IR on the CPU -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The interpreter's API: element types and buffers, compiling a kernel to
// simplified tile IR (the same IR `tilec --emit=tile` prints and the GPU
// lowering starts from), checking a launch's arguments against the
// kernel's signature and its hints, and running the grid.
//
//===----------------------------------------------------------------------===//

#include "tilec/Interpreter/Interpreter.h"

#include "tilec/Dialect/Tile/IR/DTypes.h"

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/MLIRGen/DiagnosticHandler.h"
#include "tilec/Pipeline/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

//===----------------------------------------------------------------------===//
// Element types and buffers
//===----------------------------------------------------------------------===//

/// The float format of a float type, null for integers.
static const llvm::fltSemantics *getSemantics(ScalarType type) {
  switch (type) {
  case ScalarType::FP16:
    return &llvm::APFloat::IEEEhalf();
  case ScalarType::BF16:
    return &llvm::APFloat::BFloat();
  case ScalarType::FP32:
    return &llvm::APFloat::IEEEsingle();
  case ScalarType::FP64:
    return &llvm::APFloat::IEEEdouble();
  case ScalarType::FP8E4NV:
    return &llvm::APFloat::Float8E4M3FN();
  case ScalarType::FP8E5:
    return &llvm::APFloat::Float8E5M2();
  default:
    return nullptr;
  }
}

/// The width of an integer type.
static unsigned getIntWidth(ScalarType type) {
  return type == ScalarType::I1 ? 1 : abi::scalarTypeSize(type) * 8;
}

double Buffer::get(size_t i) const {
  const uint8_t *at = bytes.data() + i * abi::scalarTypeSize(type);
  if (const llvm::fltSemantics *sem = getSemantics(type))
    return loadFloat(*sem, at);
  unsigned width = getIntWidth(type);
  int64_t value = loadInt(width, at);
  if (abi::isUnsignedType(type) && width < 64)
    return static_cast<double>(static_cast<uint64_t>(value) &
                               ((uint64_t(1) << width) - 1));
  if (abi::isUnsignedType(type))
    return static_cast<double>(static_cast<uint64_t>(value));
  return static_cast<double>(value);
}

void Buffer::set(size_t i, double value) {
  uint8_t *at = bytes.data() + i * abi::scalarTypeSize(type);
  if (const llvm::fltSemantics *sem = getSemantics(type))
    return storeFloat(*sem, value, at);
  storeInt(getIntWidth(type), static_cast<int64_t>(value), at);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

struct Kernel::Impl {
  Impl(llvm::SourceMgr &srcMgr, llvm::raw_ostream &os)
      : context(makeRegistry()), diagnostics(srcMgr, &context, os) {
    context.loadAllAvailableDialects();
    // Users see their source line and a caret, not an IR dump of the op.
    context.printOpOnDiagnostic(false);
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerTilecDialects(registry);
    return registry;
  }

  /// Converts argument `index` to the tile the kernel's parameter holds.
  LogicalResult bindArgument(size_t index, const Argument &arg, Tile &tile,
                             std::vector<Buffer *> &buffers);

  MLIRContext context;
  SourceDiagnosticHandler diagnostics;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  KernelInfo info;
};

Kernel::Kernel(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Kernel::~Kernel() = default;

const KernelInfo &Kernel::getInfo() const { return impl->info; }

std::unique_ptr<Kernel> Kernel::create(llvm::SourceMgr &srcMgr,
                                       const KernelConfig &config,
                                       llvm::raw_ostream &diagnostics) {
  // Syntax errors go through the source manager: send them to the same
  // stream.
  srcMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &diag, void *os) {
        diag.print(nullptr, *static_cast<llvm::raw_ostream *>(os));
      },
      &diagnostics);
  std::unique_ptr<ModuleAST> ast = parseModule(srcMgr, srcMgr.getMainFileID());
  if (!ast)
    return nullptr;
  auto impl = std::make_unique<Impl>(srcMgr, diagnostics);
  impl->module = mlirGen(impl->context, *ast, srcMgr, config, impl->info);
  if (!impl->module)
    return nullptr;
  PassManager pm(&impl->context);
  buildTileSimplifyPipeline(pm);
  if (failed(pm.run(*impl->module)))
    return nullptr;
  impl->func = cast<func::FuncOp>(impl->module->getBody()->front());
  return std::unique_ptr<Kernel>(new Kernel(std::move(impl)));
}

LogicalResult Kernel::Impl::bindArgument(size_t index, const Argument &arg,
                                         Tile &tile,
                                         std::vector<Buffer *> &buffers) {
  const std::string &name = info.argNames[index];
  const abi::ArgType &entry = info.signature[index];
  Type type = func.getArgumentTypes()[index];
  auto fail = [&]() {
    return func.emitError()
           << "argument " << index << " ('" << name << "', " << entry.str()
           << ") of kernel '" << info.name << "' ";
  };
  Element element;
  if (auto ptrType = dyn_cast<tile::PtrType>(type)) {
    if (!arg.buffer)
      return fail() << "needs a buffer, not a scalar";
    if (tile::getElementType(&context, arg.buffer->getType()) !=
        ptrType.getPointeeType())
      return fail() << "points at " << ptrType.getPointeeType()
                    << ", not at the buffer's "
                    << abi::scalarTypeName(arg.buffer->getType());
    element.buffer = static_cast<int32_t>(index);
    buffers[index] = arg.buffer;
  } else if (arg.buffer) {
    return fail() << "is a scalar, not a buffer";
  } else if (auto floatType = dyn_cast<FloatType>(type)) {
    double value =
        arg.isFloat ? arg.floatValue : static_cast<double>(arg.intValue);
    element.f = roundFloat(floatType.getFloatSemantics(), value);
  } else {
    if (arg.isFloat)
      return fail() << "is an integer, not " << arg.floatValue;
    unsigned width = type.getIntOrFloatBitWidth();
    element.i = wrapInt(static_cast<uint64_t>(arg.intValue), width);
    // Unsigned parameters hold [0, 2^width), signed ones what wraps to
    // itself.
    bool fits = abi::isUnsignedType(entry.Elem)
                    ? arg.intValue >= 0 &&
                          (width >= 64 || uint64_t(arg.intValue) >> width == 0)
                    : element.i == arg.intValue;
    if (!fits)
      return fail() << "cannot hold " << arg.intValue;
    // The hints were promises the compiled code relies on.
    if (entry.Hint > 1 && arg.intValue % entry.Hint != 0)
      return fail() << "is declared a multiple of " << entry.Hint << ", but is "
                    << arg.intValue;
    if (entry.Hint == 1 && arg.intValue != 1)
      return fail() << "is declared to be 1, but is " << arg.intValue;
  }
  tile.elems.push_back(element);
  return success();
}

LogicalResult Kernel::run(std::array<unsigned, 3> grid,
                          ArrayRef<Argument> args) {
  const KernelInfo &info = impl->info;
  if (args.size() != info.signature.size())
    return impl->func.emitError()
           << "kernel '" << info.name << "' takes " << info.signature.size()
           << " arguments, not " << args.size();
  std::vector<Buffer *> buffers(args.size(), nullptr);
  SmallVector<Tile> tiles(args.size());
  for (auto [i, arg] : llvm::enumerate(args))
    if (failed(impl->bindArgument(i, arg, tiles[i], buffers)))
      return failure();

  Launch launch{info.name, info.argNames, buffers, grid};
  Executor executor(impl->func.getBody().front(), launch);
  for (unsigned z = 0; z < grid[2]; ++z)
    for (unsigned y = 0; y < grid[1]; ++y)
      for (unsigned x = 0; x < grid[0]; ++x)
        if (failed(executor.runProgram({x, y, z}, tiles)))
          return failure();
  return success();
}
