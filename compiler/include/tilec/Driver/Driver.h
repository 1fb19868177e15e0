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

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace tilec {

/// The stage whose output the driver writes.
enum class EmitKind {
  AST,     ///< the parsed syntax tree
  Tile,    ///< tile IR as generated from the source, simplified
  TileGPU, ///< tile IR with layouts
  LLVMMLIR, ///< the LLVM/NVVM dialects
  LLVM,    ///< LLVM IR after optimisation
  PTX,     ///< PTX, with tilec's metadata comment lines first
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

/// The metadata comment line tilec puts at the top of the PTX for a kernel,
/// which the runtime reads to launch it.
std::string kernelMetadataLine(const KernelInfo &info, unsigned numWarps,
                               unsigned sharedBytes);

} // namespace tilec

#endif // TILEC_DRIVER_DRIVER_H
