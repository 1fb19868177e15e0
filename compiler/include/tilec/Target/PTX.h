//===- PTX.h - LLVM-dialect module to PTX text ------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTX_H
#define TILEC_TARGET_PTX_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// Where to stop when translating an LLVM-dialect module.
struct PTXOptions {
  std::string arch = "sm_90a";     ///< `-mcpu` of the NVPTX backend
  std::string features = "+ptx80"; ///< PTX ISA version and other features
  unsigned optLevel = 3;           ///< LLVM optimisation level, 0 to 3
  /// CUDA's libdevice bitcode, linked when the module calls `__nv_*`
  /// functions; empty: found by findLibdevice().
  std::string libdevice;
  /// Contract a * b + c into fused multiply-adds (ptxas too), as Triton does
  /// unless a kernel is launched with enable_fp_fusion=False.
  bool fpFusion = true;
};

/// The libdevice bitcode tilec links by default: $TILEC_LIBDEVICE, else
/// nvvm/libdevice/libdevice.10.bc under $CUDA_HOME, $CUDA_PATH, the CUDA
/// toolkit tilec was configured with and /usr/local/cuda, the first that
/// exists; empty if none does.
std::string findLibdevice();

/// Translates `module` (LLVM and NVVM dialects only) to LLVM IR, optimises it
/// at `options.optLevel` and prints it to `os` (the `--emit=llvm` output).
mlir::LogicalResult emitLLVMIR(mlir::ModuleOp module, const PTXOptions &options,
                               llvm::raw_ostream &os);

/// Translates `module` to LLVM IR, optimises it and compiles it with LLVM's
/// NVPTX backend, storing the PTX text in `ptx`. Errors are reported on the
/// module's location.
mlir::LogicalResult emitPTX(mlir::ModuleOp module, const PTXOptions &options,
                            std::string &ptx);

} // namespace tilec

#endif // TILEC_TARGET_PTX_H
