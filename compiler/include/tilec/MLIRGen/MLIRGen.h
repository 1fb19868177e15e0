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

#include "tilec/ABI/KernelABI.h"

#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mlir {
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace tilec {

class ModuleAST;

// Signatures and launch requirements are the kernel ABI's
// (tilec/ABI/KernelABI.h), shared with the runtime.
using abi::LaunchRequirement;
using abi::SignatureEntry;

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
  /// Triton's debug mode (TRITON_DEBUG=1): tl.device_assert checks.
  bool debug = false;
  /// The target (`sm_90a`), as host code's get_current_target() sees it.
  std::string target = "sm_90a";
  /// The values of the run-time arguments of one launch, in launch order,
  /// as -D spells them (empty where unknown: tensors), which the functions
  /// of @triton.heuristics may read (`args["N"]`); kernel code still sees
  /// run-time values. Empty when compiling for every launch.
  std::vector<std::string> runtimeValues;
};

/// What the @triton.heuristics of a kernel computed for one launch
/// (evaluateHeuristics).
struct HeuristicValues {
  /// NAME=VALUE of each constexpr computed, VALUE as -D spells it.
  std::vector<std::pair<std::string, std::string>> values;
  /// The run-time arguments whose values they read, as positions in launch
  /// order.
  std::vector<unsigned> reads;
};

/// One configuration of `@triton.autotune`: constexpr bindings (values
/// spelled as `-D` takes them), num_warps and num_stages.
struct AutotuneConfig {
  std::vector<std::pair<std::string, std::string>> constexprs;
  unsigned numWarps = 4;
  unsigned numStages = 3;
};

/// What a kernel's `@triton.autotune` and `@triton.heuristics` say.
struct KernelTuning {
  std::string kernel;
  /// The run-time (not constexpr) parameters, in launch order.
  std::vector<std::string> params;
  /// The configurations (none without @triton.autotune).
  std::vector<AutotuneConfig> configs;
  /// `key=`: the parameters whose values select a configuration.
  std::vector<std::string> key;
  /// The constexprs @triton.heuristics computes, in order.
  std::vector<std::string> heuristics;
};

/// What code generation produced besides IR: the kernel's name, its runtime
/// signature (one entry per argument passed at launch), the names of the
/// parameters those arguments bind and the launch requirements.
struct KernelInfo {
  std::string name;
  std::vector<abi::ArgType> signature;
  std::vector<std::string> argNames;
  /// What the runtime must check at every launch, sorted by argument.
  std::vector<LaunchRequirement> requirements;
  /// The parameters taken as host-side tensor descriptors.
  std::vector<abi::DescriptorParam> descriptors;
};

/// Prints the index of the `tl.*` functions from the builtin table, as the
/// Markdown table of docs/language.md §7 (`tilec --list-builtins`).
void printBuiltinIndex(llvm::raw_ostream &os);

/// Generates the tile module of the kernel `config` selects from `module`.
/// Errors are emitted as MLIR diagnostics on file locations of `srcMgr`'s main
/// buffer; returns null after an error.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const ModuleAST &module,
                                          llvm::SourceMgr &srcMgr,
                                          const KernelConfig &config,
                                          KernelInfo &info);

/// Evaluates the @triton.heuristics of the kernel `config` selects (its
/// signature, defines and runtimeValues as for one launch) without
/// generating its body. Errors are emitted as MLIR diagnostics, as by
/// mlirGen.
mlir::FailureOr<HeuristicValues> evaluateHeuristics(mlir::MLIRContext &context,
                                                    const ModuleAST &module,
                                                    llvm::SourceMgr &srcMgr,
                                                    const KernelConfig &config);

/// Runs the module-level code of `module` and reads the decorators of the
/// kernel `config` selects (its name, signature and defines are not needed).
/// Errors are emitted as MLIR diagnostics, as by mlirGen.
mlir::FailureOr<KernelTuning> readKernelTuning(mlir::MLIRContext &context,
                                               const ModuleAST &module,
                                               llvm::SourceMgr &srcMgr,
                                               const KernelConfig &config);

} // namespace tilec

#endif // TILEC_MLIRGEN_MLIRGEN_H
