//===- Launcher.h - Generate C++ launchers for a kernel ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// `tilec --emit header`: compiles a kernel in every requested configuration
// (constexprs, num_warps) and specialization variant (Triton's ":16" and
// ":1" hints; a generic variant without hints is always added) and writes a
// C++ header and source that embed the PTX or cubins and declare typed
// launchers built on tilec/Runtime/Aot.h. docs/runtime.md describes the
// generated API.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DRIVER_LAUNCHER_H
#define TILEC_DRIVER_LAUNCHER_H

#include "tilec/Driver/Driver.h"

#include <string>
#include <utility>
#include <vector>

namespace tilec {

/// One configuration of a kernel.
struct LauncherConfig {
  /// NAME=VALUE constexpr bindings, in the order they were given.
  std::vector<std::pair<std::string, std::string>> constexprs;
  unsigned numWarps = 4;
  /// Shared-memory stages of pipelined tl.dot loops.
  unsigned numStages = 3;

  /// "BLOCK_M=64,BLOCK_N=64,num_warps=4,num_stages=3": the name tuning
  /// files use (the runtime's JitConfig::name() spells it the same way).
  std::string name() const;
};

/// Parses a --config value: comma-separated NAME=VALUE items, where
/// num_warps and num_stages set those fields and every other name binds a
/// constexpr. Bindings of `base` come first unless overridden.
llvm::Expected<LauncherConfig> parseLauncherConfig(llvm::StringRef text,
                                                   const LauncherConfig &base);

struct LauncherOptions {
  /// The signatures to compile, most specialized first after sorting; a
  /// generic one (every hint removed) is added when absent.
  std::vector<std::vector<SignatureEntry>> variants;
  /// At least one.
  std::vector<LauncherConfig> configs;
  /// Names of integer parameters whose values select a tuned configuration.
  std::vector<std::string> tuneKey;
  /// `key=` of @triton.autotune, used when tuneKey is empty: its integer
  /// run-time parameters key the choice (constexprs and the other
  /// parameters are fixed in one build).
  std::vector<std::string> autotuneKey;
  /// A tuning file whose choices for this kernel are baked in ("": none).
  std::string tuningFile;
  std::string cppNamespace = "tilec_kernels";
  /// How the source includes the header.
  std::string headerInclude;
  /// Embed cubins made by `ptxas` instead of PTX.
  bool cubin = false;
  std::string ptxas;
  std::string arch = "sm_90a";
};

/// Compiles the kernel of `base.kernel` (its signature and defines are
/// replaced by each variant and configuration) and writes the header and
/// the source. Errors are printed to stderr.
mlir::LogicalResult emitLaunchers(llvm::SourceMgr &srcMgr,
                                  const CompileOptions &base,
                                  const LauncherOptions &options,
                                  llvm::raw_ostream &header,
                                  llvm::raw_ostream &source);

} // namespace tilec

#endif // TILEC_DRIVER_LAUNCHER_H
