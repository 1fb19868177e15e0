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

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;

std::string tilec::kernelMetadataLine(const KernelInfo &info,
                                      unsigned numWarps,
                                      unsigned sharedBytes) {
  std::string sig;
  for (const SignatureEntry &entry : info.signature)
    sig += (sig.empty() ? "" : ",") + entry.str();
  return "// tilec.kernel name=" + info.name +
         " num_warps=" + std::to_string(numWarps) +
         " shared=" + std::to_string(sharedBytes) + " signature=" + sig;
}

LogicalResult tilec::compile(llvm::SourceMgr &srcMgr,
                             const CompileOptions &options,
                             llvm::raw_ostream &os) {
  std::unique_ptr<ModuleAST> ast =
      parseModule(srcMgr, srcMgr.getMainFileID());
  if (!ast)
    return failure();
  if (options.emit == EmitKind::AST) {
    dump(*ast, srcMgr, os);
    return success();
  }

  DialectRegistry registry;
  registerTilecDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  SourceMgrDiagnosticHandler diagnostics(srcMgr, &context);
  // Users see their source line and a caret, not an IR dump of the op.
  context.printOpOnDiagnostic(false);

  KernelInfo info;
  OwningOpRef<ModuleOp> module =
      mlirGen(context, *ast, srcMgr, options.kernel, info);
  if (!module)
    return failure();

  PassManager pm(&context);
  buildTileSimplifyPipeline(pm);
  if (options.emit != EmitKind::Tile) {
    buildTileToGPUPipeline(pm, options.pipeline);
    if (options.emit != EmitKind::TileGPU)
      buildGPUToLLVMPipeline(pm);
  }
  if (failed(pm.run(*module)))
    return failure();

  switch (options.emit) {
  case EmitKind::Tile:
  case EmitKind::TileGPU:
  case EmitKind::LLVMMLIR:
    module->print(os);
    return success();
  case EmitKind::LLVM:
    return emitLLVMIR(*module, options.ptx, os);
  case EmitKind::PTX: {
    std::string ptx;
    if (failed(emitPTX(*module, options.ptx, ptx)))
      return failure();
    // The shared-memory bytes were recorded by the allocation pass and
    // survive lowering as a module attribute.
    unsigned sharedBytes = 0;
    if (auto shared = (*module)->getAttrOfType<IntegerAttr>("tile.shared"))
      sharedBytes = shared.getInt();
    os << kernelMetadataLine(info, options.pipeline.numWarps, sharedBytes)
       << "\n"
       << ptx;
    return success();
  }
  case EmitKind::AST:
    break;
  }
  return success();
}
