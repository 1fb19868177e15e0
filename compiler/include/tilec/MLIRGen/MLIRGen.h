//===- MLIRGen.h - From the AST to the tile dialect -------------*- C++ -*-===//
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

/// What tl.make_block_ptr, which Triton 3.9 removed, gets.
enum class BlockPtrPolicy {
  Warn,   ///< a warning and a note with the tensor-descriptor equivalent
  Allow,  ///< nothing (-Wno-block-ptr)
  Reject, ///< an error, as in Triton 3.9 (--triton-compat=3.9)
};

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
  /// What tl.make_block_ptr gets.
  BlockPtrPolicy blockPtrPolicy = BlockPtrPolicy::Warn;
};

/// A property of a launch argument that only the runtime can check: a kernel
/// argument used directly as a tensor descriptor's base or one of its
/// strides other than the last (TMA needs both 16-byte aligned).
struct LaunchRequirement {
  enum class Kind {
    Align16, ///< a pointer that must be 16-byte aligned
    Bytes16, ///< an integer whose value times the element size must be a
             ///< multiple of 16 bytes
  };
  Kind kind = Kind::Align16;
  /// The argument's index in KernelInfo::signature.
  unsigned argIndex = 0;
  /// Bytes16: the descriptor's element type (`fp16`, `fp32`...).
  std::string elementType;

  /// The requirement as the metadata line writes it: `NAME@INDEX:align16`
  /// or `NAME@INDEX:bytes16/TYPE`, where NAME is `argName`.
  std::string str(llvm::StringRef argName) const;
  bool operator==(const LaunchRequirement &other) const {
    return kind == other.kind && argIndex == other.argIndex &&
           elementType == other.elementType;
  }
};

/// What code generation produced besides IR: the kernel's name, its runtime
/// signature (one entry per argument passed at launch), the names of the
/// parameters those arguments bind and the launch requirements.
struct KernelInfo {
  std::string name;
  std::vector<SignatureEntry> signature;
  std::vector<std::string> argNames;
  /// What the runtime must check at every launch, by argument.
  std::vector<LaunchRequirement> requirements;
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
