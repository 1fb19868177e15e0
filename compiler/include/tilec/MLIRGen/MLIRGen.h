//===- MLIRGen.h - From the AST to the tile dialect --------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Generates a tile-dialect module for one kernel of a parsed .tile file,
// specialised for a Triton-style signature and constexpr values.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_MLIRGEN_MLIRGEN_H
#define TILEC_MLIRGEN_MLIRGEN_H

#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace tilec {

class ModuleAST;

/// One entry of a Triton signature: `*fp32:16`, `i32`, `i64:1` or `128`.
struct SignatureEntry {
  enum class Kind { Pointer, Scalar, Constant };
  Kind kind = Kind::Scalar;
  /// Element type name (`fp32`, `i32`, `bf16`...) for pointers and scalars.
  std::string type;
  /// Divisibility hint: 0 (none), 1 (the value is 1) or 16.
  unsigned hint = 0;
  /// The literal of a Constant entry (a constexpr value).
  std::string literal;

  /// The entry as Triton writes it (`*fp32:16`).
  std::string str() const;
};

/// Parses a comma-separated Triton signature such as
/// `*fp32:16, *fp32:16, i32, 1024`.
llvm::Expected<std::vector<SignatureEntry>>
parseSignature(llvm::StringRef text);

/// Which kernel to generate and how to specialise it.
struct KernelConfig {
  /// The kernel's name; empty means the file's only @triton.jit kernel.
  std::string name;
  /// The signature; empty means none was given.
  std::vector<SignatureEntry> signature;
  /// `-D NAME=VALUE` bindings of constexpr parameters (VALUE as written).
  llvm::StringMap<std::string> defines;
  /// Warn where an fp32 tl.dot uses tf32 without `input_precision`.
  bool warnImplicitTf32 = true;
};

/// What code generation produced besides IR: the kernel's name, its runtime
/// signature (one entry per argument passed at launch) and the names of the
/// parameters those arguments bind.
struct KernelInfo {
  std::string name;
  std::vector<SignatureEntry> signature;
  std::vector<std::string> argNames;
};

/// Generates the tile module of the kernel `config` selects from `module`.
/// Errors are emitted as MLIR diagnostics on file locations of `srcMgr`'s main
/// buffer; returns null after an error.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const ModuleAST &module,
                                          const llvm::SourceMgr &srcMgr,
                                          const KernelConfig &config,
                                          KernelInfo &info);

} // namespace tilec

#endif // TILEC_MLIRGEN_MLIRGEN_H
