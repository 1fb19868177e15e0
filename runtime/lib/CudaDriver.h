//===- CudaDriver.h - The dynamically loaded CUDA driver API ----*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Internal to the runtime library. The CUDA driver is not linked: DriverApi
// holds one function pointer per entry point in CudaDriverFunctions.def,
// resolved with dlsym from libcuda.so.1 (or the library named by the
// environment variable TILEC_CUDA_LIBRARY). The process-wide instance is
// loaded, and cuInit called, the first time it is asked for. Also here: the
// helpers that turn a CUresult into the runtime's error messages.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_CUDADRIVER_H
#define TILEC_RUNTIME_LIB_CUDADRIVER_H

#include "tilec/Runtime/Status.h"

#include <cuda.h>

#include <string>
#include <string_view>

namespace tilec {
namespace rt {
namespace detail {

/// The resolved driver entry points. Member names are cuda.h's plain names;
/// cuda.h's macros rename both the members and their uses to the versioned
/// names consistently.
struct DriverApi {
#define TILEC_CU_FN(name, symbol, fallback) decltype(&::name) name = nullptr;
#include "CudaDriverFunctions.def"
};

/// A driver library opened with dlopen.
struct LoadedDriver {
  void *LibraryHandle = nullptr;
  DriverApi Api;
  /// Success once the library is open, every symbol is resolved and cuInit
  /// succeeded; otherwise a NoDevice status saying why.
  Status LoadStatus;
};

/// Opens \p libraryPath (libcuda.so.1 when null), resolves the entry points
/// and calls cuInit(0). The library is opened with RTLD_NODELETE, so closing
/// it later never unmaps a driver that has started threads.
LoadedDriver loadDriver(const char *libraryPath);
/// Closes a driver opened by loadDriver (the mapping stays, see above).
void unloadDriver(LoadedDriver &driver);

/// The process-wide driver; loaded on first use, never unloaded. Returns
/// null and sets \p status when the driver is unusable.
const DriverApi *getDriver(Status &status);
/// The process-wide driver when it has already been loaded successfully,
/// null otherwise. Used by destructors, which must not load it.
const DriverApi *getLoadedDriver();

/// "CUDA_ERROR_INVALID_VALUE (invalid argument)" for \p result; works
/// without a driver for the common codes.
std::string describeResult(const DriverApi *api, CUresult result);

/// The status for a failed driver call: "<call> failed[ for kernel '<k>']:
/// <name> (<description>)". \p kernel may be empty.
Status cudaFailure(const DriverApi *api, const char *call, CUresult result,
                   std::string_view kernel = {});

/// Remembers the kernel launched last on this thread, so that errors found
/// at a later synchronization can name it.
void setLastLaunchedKernel(std::string_view name);
const std::string &lastLaunchedKernel();

} // namespace detail
} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_LIB_CUDADRIVER_H
