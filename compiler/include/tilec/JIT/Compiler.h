//===- Compiler.h - tilec as a JIT compiler ---------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The tilec::jit library (libtilec-jit.so) runs the whole compiler in the
// process, for tilec::rt::JitKernel (tilec/Runtime/Jit.h). This header needs
// no LLVM: the library links LLVM and MLIR privately.
//
//   auto compiler = tilec::jit::createCompiler();
//   tilec::rt::JitKernel kernel("add.tile", source, "add_kernel",
//                               compiler.get());
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_COMPILER_H
#define TILEC_JIT_COMPILER_H

#include "tilec/Runtime/Jit.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec {
namespace jit {

struct CompilerOptions {
  /// Also assemble a cubin with the ptxas tilec was configured with, when
  /// it exists (cubins load faster than PTX, which the driver compiles).
  bool Cubin = true;
  /// Where imported modules are looked for after the directory of the
  /// kernel's source (tilec's -I).
  std::vector<std::string> IncludeDirs;
};

/// A compiler that runs tilec in process. It is thread-safe: each request
/// gets its own MLIR context. Diagnostics end up in the failure's message.
std::unique_ptr<rt::KernelCompiler>
createCompiler(CompilerOptions options = {});

} // namespace jit
} // namespace tilec

#endif // TILEC_JIT_COMPILER_H
