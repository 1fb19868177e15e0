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

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Parser.h"
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

std::optional<ScalarType> interp::parseScalarType(StringRef name) {
  return llvm::StringSwitch<std::optional<ScalarType>>(name)
      .Cases({"i1", "int1", "u1"}, ScalarType::I1)
      .Cases({"i8", "int8", "u8", "uint8"}, ScalarType::I8)
      .Cases({"i16", "int16", "u16", "uint16"}, ScalarType::I16)
      .Cases({"i32", "int32", "u32", "uint32"}, ScalarType::I32)
      .Cases({"i64", "int64", "u64", "uint64"}, ScalarType::I64)
      .Cases({"fp16", "f16", "float16"}, ScalarType::F16)
      .Cases({"bf16", "bfloat16"}, ScalarType::BF16)
      .Cases({"fp32", "f32", "float32"}, ScalarType::F32)
      .Cases({"fp64", "f64", "float64"}, ScalarType::F64)
      .Cases({"fp8e4nv", "float8e4nv"}, ScalarType::F8E4M3)
      .Cases({"fp8e5", "float8e5"}, ScalarType::F8E5M2)
      .Default(std::nullopt);
}

StringRef interp::getName(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
    return "i1";
  case ScalarType::I8:
    return "i8";
  case ScalarType::I16:
    return "i16";
  case ScalarType::I32:
    return "i32";
  case ScalarType::I64:
    return "i64";
  case ScalarType::F16:
    return "fp16";
  case ScalarType::BF16:
    return "bf16";
  case ScalarType::F32:
    return "fp32";
  case ScalarType::F64:
    return "fp64";
  case ScalarType::F8E4M3:
    return "fp8e4nv";
  case ScalarType::F8E5M2:
    return "fp8e5";
  }
  llvm_unreachable("unknown scalar type");
}

/// The float format of a float type, null for integers.
static const llvm::fltSemantics *getSemantics(ScalarType type) {
  switch (type) {
  case ScalarType::F16:
    return &llvm::APFloat::IEEEhalf();
  case ScalarType::BF16:
    return &llvm::APFloat::BFloat();
  case ScalarType::F32:
    return &llvm::APFloat::IEEEsingle();
  case ScalarType::F64:
    return &llvm::APFloat::IEEEdouble();
  case ScalarType::F8E4M3:
    return &llvm::APFloat::Float8E4M3FN();
  case ScalarType::F8E5M2:
    return &llvm::APFloat::Float8E5M2();
  default:
    return nullptr;
  }
}

/// The width of an integer type.
static unsigned getIntWidth(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
    return 1;
  case ScalarType::I8:
    return 8;
  case ScalarType::I16:
    return 16;
  case ScalarType::I32:
    return 32;
  default:
    return 64;
  }
}

bool interp::isFloat(ScalarType type) { return getSemantics(type); }

unsigned interp::getByteSize(ScalarType type) {
  if (const llvm::fltSemantics *sem = getSemantics(type))
    return llvm::APFloat::semanticsSizeInBits(*sem) / 8;
  return std::max(1u, getIntWidth(type) / 8);
}

double Buffer::get(size_t i) const {
  const uint8_t *at = bytes.data() + i * getByteSize(type);
  if (const llvm::fltSemantics *sem = getSemantics(type))
    return loadFloat(*sem, at);
  return static_cast<double>(loadInt(getIntWidth(type), at));
}

void Buffer::set(size_t i, double value) {
  uint8_t *at = bytes.data() + i * getByteSize(type);
  if (const llvm::fltSemantics *sem = getSemantics(type))
    return storeFloat(*sem, value, at);
  storeInt(getIntWidth(type), static_cast<int64_t>(value), at);
}

/// The MLIR type of `type` elements.
static Type toMLIR(MLIRContext *context, ScalarType type) {
  Builder b(context);
  switch (type) {
  case ScalarType::F16:
    return b.getF16Type();
  case ScalarType::BF16:
    return b.getBF16Type();
  case ScalarType::F32:
    return b.getF32Type();
  case ScalarType::F64:
    return b.getF64Type();
  case ScalarType::F8E4M3:
    return b.getType<Float8E4M3FNType>();
  case ScalarType::F8E5M2:
    return b.getType<Float8E5M2Type>();
  default:
    return b.getIntegerType(getIntWidth(type));
  }
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
  SourceMgrDiagnosticHandler diagnostics;
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
  const SignatureEntry &entry = info.signature[index];
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
    if (toMLIR(&context, arg.buffer->getType()) != ptrType.getPointeeType())
      return fail() << "points at " << ptrType.getPointeeType()
                    << ", not at the buffer's "
                    << getName(arg.buffer->getType());
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
    if (element.i != arg.intValue)
      return fail() << "cannot hold " << arg.intValue;
    // The hints were promises the compiled code relies on.
    if (entry.hint == 16 && arg.intValue % 16 != 0)
      return fail() << "is declared a multiple of 16, but is " << arg.intValue;
    if (entry.hint == 1 && arg.intValue != 1)
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
