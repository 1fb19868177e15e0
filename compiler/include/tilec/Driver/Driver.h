//===- Driver.h - Compile a .tile file --------------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The library behind the tilec CLI: parse, generate tile IR, lower, and emit
// the requested stage.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DRIVER_DRIVER_H
#define TILEC_DRIVER_DRIVER_H

#include "tilec/MLIRGen/MLIRGen.h"
#include "tilec/Pipeline/Pipeline.h"
#include "tilec/Target/PTX.h"

#include "mlir/Support/LLVM.h"

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace tilec {

/// The stage whose output the driver writes.
enum class EmitKind {
  AST,      ///< the parsed syntax tree
  Tile,     ///< tile IR as generated from the source, simplified
  TileGPU,  ///< tile IR with layouts
  LLVMMLIR, ///< the LLVM/NVVM dialects
  LLVM,     ///< LLVM IR after optimisation
  PTX,      ///< PTX, with tilec's metadata comment lines first
  Cubin,    ///< the PTX assembled by ptxas (the tilec tool runs it)
  Header,   ///< C++ launchers with the PTX embedded (Launcher.h)
};

struct CompileOptions {
  KernelConfig kernel;
  PipelineOptions pipeline;
  PTXOptions ptx;
  EmitKind emit = EmitKind::PTX;
};

/// Compiles the main buffer of `srcMgr` and writes the `options.emit` output
/// to `os`. Diagnostics are printed to stderr as `file:line:col: error: ...`
/// with the source line and a caret. Returns failure after any error.
mlir::LogicalResult compile(llvm::SourceMgr &srcMgr,
                            const CompileOptions &options,
                            llvm::raw_ostream &os);

/// A kernel compiled to PTX.
struct CompiledPTX {
  /// The kernel's name, launch signature and parameter names.
  KernelInfo info;
  /// What the runtime reads from the PTX's first line: the launch signature,
  /// warps, dynamic shared memory, launch requirements and tensor maps.
  abi::KernelMetadata metadata;
  /// The PTX, starting with the kernel's metadata line.
  std::string ptx;
};

/// Compiles the main buffer of `srcMgr` to PTX (whatever `options.emit`
/// says). MLIR diagnostics are printed to `diagnosticOS`; front-end errors
/// go through `srcMgr` (its handler, when one is set, else stderr).
mlir::FailureOr<CompiledPTX> compileToPTX(llvm::SourceMgr &srcMgr,
                                          const CompileOptions &options,
                                          llvm::raw_ostream &diagnosticOS);

/// Runs the module-level code of the main buffer of `srcMgr` and reads the
/// decorators of the kernel `kernel` selects: @triton.autotune's
/// configurations and key, the constexprs @triton.heuristics computes.
/// Diagnostics go to `diagnosticOS` as compileToPTX's do.
mlir::FailureOr<KernelTuning> readTuning(llvm::SourceMgr &srcMgr,
                                         const KernelConfig &kernel,
                                         llvm::raw_ostream &diagnosticOS);

/// Evaluates the @triton.heuristics of the kernel `kernel` selects for one
/// launch (its signature, defines and runtimeValues) without compiling it.
/// Diagnostics go to `diagnosticOS` as compileToPTX's do.
mlir::FailureOr<HeuristicValues>
evaluateHeuristics(llvm::SourceMgr &srcMgr, const KernelConfig &kernel,
                   llvm::raw_ostream &diagnosticOS);

} // namespace tilec

#endif // TILEC_DRIVER_DRIVER_H
