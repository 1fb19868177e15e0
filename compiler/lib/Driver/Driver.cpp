//===- Driver.cpp - Compile a .tile file ------------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Runs the stages of tilec in order and stops at the one the user asked to
// see. Front-end and MLIR diagnostics share one source manager so that every
// error prints the same way.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Driver.h"

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/MLIRGen/DiagnosticHandler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;

/// Generates the tile IR of the kernel `options` selects and lowers it as
/// far as `options.emit` needs.
static OwningOpRef<ModuleOp> generateAndLower(llvm::SourceMgr &srcMgr,
                                              const ModuleAST &ast,
                                              const CompileOptions &options,
                                              MLIRContext &context,
                                              KernelInfo &info) {
  OwningOpRef<ModuleOp> module =
      mlirGen(context, ast, srcMgr, options.kernel, info);
  if (!module)
    return nullptr;

  // The module is verified once, after the last pass, not after each of the
  // twenty (a few milliseconds of every compile). tilec-opt, which the lit
  // tests run, verifies after every pass.
  PassManager pm(&context);
  pm.enableVerifier(false);
  buildTileSimplifyPipeline(pm);
  if (options.emit != EmitKind::Tile) {
    buildTileToGPUPipeline(pm, options.pipeline);
    if (options.emit != EmitKind::TileGPU)
      buildGPUToLLVMPipeline(pm);
  }
  if (failed(pm.run(*module)) || failed(verify(*module)))
    return nullptr;
  return module;
}

/// Emits the PTX of a lowered module, metadata line first.
static FailureOr<CompiledPTX> emitCompiledPTX(ModuleOp module,
                                              const CompileOptions &options,
                                              KernelInfo info) {
  CompiledPTX result;
  if (failed(emitPTX(module, options.ptx, result.ptx)))
    return failure();
  abi::KernelMetadata &meta = result.metadata;
  meta.Name = info.name;
  meta.NumWarps = options.pipeline.numWarps;
  // The shared-memory bytes were recorded by the allocation pass and
  // survive lowering as a module attribute.
  meta.SharedBytes = tile::getSharedMemoryBytes(module);
  meta.Signature = info.signature;
  meta.Requirements = info.requirements;
  meta.Descriptors = info.descriptors;
  for (tile::TensorMapAttr map : tile::getTensorMaps(module))
    meta.TensorMaps.push_back(map.getSpec());
  if (std::optional<tile::RereadFootprint> reread =
          tile::getRereadFootprint(module)) {
    abi::RereadFootprint &footprint = meta.Reread.emplace();
    if (reread->argIndex >= 0)
      footprint.ArgIndex = static_cast<std::size_t>(reread->argIndex);
    footprint.Bytes = static_cast<std::uint64_t>(reread->bytes);
    footprint.Step = static_cast<std::uint64_t>(reread->step);
  }
  // What the runtime will check when it parses the line.
  if (abi::Status consistent = meta.verify(); !consistent.ok())
    return module.emitError("kernel metadata the runtime would reject: ")
           << consistent.message();
  result.ptx = abi::printMetadataLine(meta) + "\n" + result.ptx;
  result.info = std::move(info);
  return result;
}

namespace {
/// The MLIR context of one compilation, with tilec's dialects; its
/// diagnostics print through `srcMgr` to `os` with the source line and a
/// caret (not an IR dump of the op).
struct CompilationContext {
  static DialectRegistry registry() {
    DialectRegistry registry;
    registerTilecDialects(registry);
    return registry;
  }
  CompilationContext(llvm::SourceMgr &srcMgr, llvm::raw_ostream &os)
      : context(registry(), MLIRContext::Threading::DISABLED),
        diagnostics(srcMgr, &context, os) {
    context.loadAllAvailableDialects();
    context.printOpOnDiagnostic(false);
  }
  MLIRContext context;
  SourceDiagnosticHandler diagnostics;
};
} // namespace

FailureOr<CompiledPTX> tilec::compileToPTX(llvm::SourceMgr &srcMgr,
                                           const CompileOptions &options,
                                           llvm::raw_ostream &diagnosticOS) {
  std::unique_ptr<ModuleAST> ast = parseModule(srcMgr, srcMgr.getMainFileID());
  if (!ast)
    return failure();
  CompilationContext compilation(srcMgr, diagnosticOS);
  MLIRContext &context = compilation.context;
  CompileOptions ptxOptions = options;
  ptxOptions.emit = EmitKind::PTX;
  KernelInfo info;
  OwningOpRef<ModuleOp> module =
      generateAndLower(srcMgr, *ast, ptxOptions, context, info);
  if (!module)
    return failure();
  return emitCompiledPTX(*module, ptxOptions, std::move(info));
}

FailureOr<KernelTuning> tilec::readTuning(llvm::SourceMgr &srcMgr,
                                          const KernelConfig &kernel,
                                          llvm::raw_ostream &diagnosticOS) {
  std::unique_ptr<ModuleAST> ast = parseModule(srcMgr, srcMgr.getMainFileID());
  if (!ast)
    return failure();
  CompilationContext compilation(srcMgr, diagnosticOS);
  return readKernelTuning(compilation.context, *ast, srcMgr, kernel);
}

FailureOr<HeuristicValues>
tilec::evaluateHeuristics(llvm::SourceMgr &srcMgr, const KernelConfig &kernel,
                          llvm::raw_ostream &diagnosticOS) {
  std::unique_ptr<ModuleAST> ast = parseModule(srcMgr, srcMgr.getMainFileID());
  if (!ast)
    return failure();
  CompilationContext compilation(srcMgr, diagnosticOS);
  return evaluateHeuristics(compilation.context, *ast, srcMgr, kernel);
}

LogicalResult tilec::compile(llvm::SourceMgr &srcMgr,
                             const CompileOptions &options,
                             llvm::raw_ostream &os) {
  std::unique_ptr<ModuleAST> ast = parseModule(srcMgr, srcMgr.getMainFileID());
  if (!ast)
    return failure();
  if (options.emit == EmitKind::AST) {
    dump(*ast, srcMgr, os);
    return success();
  }

  CompilationContext compilation(srcMgr, llvm::errs());
  MLIRContext &context = compilation.context;
  KernelInfo info;
  OwningOpRef<ModuleOp> module =
      generateAndLower(srcMgr, *ast, options, context, info);
  if (!module)
    return failure();

  switch (options.emit) {
  case EmitKind::Tile:
  case EmitKind::TileGPU:
  case EmitKind::LLVMMLIR:
    module->print(os);
    return success();
  case EmitKind::LLVM:
    return emitLLVMIR(*module, options.ptx, os);
  case EmitKind::PTX:
  case EmitKind::Cubin: { // The caller assembles the PTX.
    FailureOr<CompiledPTX> compiled =
        emitCompiledPTX(*module, options, std::move(info));
    if (failed(compiled))
      return failure();
    os << compiled->ptx;
    return success();
  }
  case EmitKind::AST:
  case EmitKind::Header: // emitLaunchers (Launcher.h), not this function.
    break;
  }
  return success();
}
