//===- Cubin.h - PTX to cubin with ptxas ------------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tilec emits PTX in process; a cubin (which loads without the driver's JIT)
// is made by running the CUDA toolkit's ptxas on it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_CUBIN_H
#define TILEC_TARGET_CUBIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tilec {

/// The ptxas tilec was configured with when it exists, else the first of
/// $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas and ptxas on the PATH;
/// empty when there is none.
std::string findPtxas();

/// The ptxas tilec was configured with (empty when none was found at
/// configure time); its version is part of this build's identity.
llvm::StringRef configuredPtxas();

/// Assembles `ptx` for `arch` (sm_90a...) with the ptxas at `ptxas`; a
/// failure's message holds ptxas's output. With `log`, ptxas runs with -v
/// and `log` receives its output (parsePtxasReport reads it).
llvm::Expected<std::string> assembleCubin(llvm::StringRef ptx,
                                          llvm::StringRef arch,
                                          llvm::StringRef ptxas,
                                          std::string *log = nullptr);

} // namespace tilec

#endif // TILEC_TARGET_CUBIN_H
