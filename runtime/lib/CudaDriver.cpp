//===- CudaDriver.cpp - Load the CUDA driver with dlopen ------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Opens libcuda.so.1 at run time, resolves the entry points listed in
// CudaDriverFunctions.def by their versioned symbol names, and calls cuInit.
// Any failure on the way is a NoDevice status, so programs can skip cleanly on
// machines without a driver. Also formats CUresult values for messages.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "tilec/Runtime/Runtime.h"

#include <fmt/format.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

using namespace tilec::rt;
using namespace tilec::rt::detail;

namespace {

// Compile-time check that the symbol names in CudaDriverFunctions.def are the
// ones cuda.h maps the plain names to, so the function pointer types (taken
// from cuda.h's declarations) match the symbols that are resolved.
constexpr bool equalStrings(const char *a, const char *b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}
#define TILEC_STRINGIFY_IMPL(x) #x
#define TILEC_STRINGIFY(x) TILEC_STRINGIFY_IMPL(x)
#define TILEC_CU_FN(name, symbol, fallback)                                    \
  static_assert(equalStrings(TILEC_STRINGIFY(name), symbol),                   \
                "CudaDriverFunctions.def: symbol of " #name                    \
                " disagrees with cuda.h");
#include "CudaDriverFunctions.def"

static_assert(sizeof(CUdeviceptr) == 8, "the runtime assumes 64-bit devices");

/// Returns the name of the common CUresult codes without asking the driver.
const char *builtinResultName(CUresult result) {
  switch (result) {
#define TILEC_CASE(x)                                                          \
  case x:                                                                      \
    return #x;
    TILEC_CASE(CUDA_SUCCESS)
    TILEC_CASE(CUDA_ERROR_INVALID_VALUE)
    TILEC_CASE(CUDA_ERROR_OUT_OF_MEMORY)
    TILEC_CASE(CUDA_ERROR_NOT_INITIALIZED)
    TILEC_CASE(CUDA_ERROR_DEINITIALIZED)
    TILEC_CASE(CUDA_ERROR_STUB_LIBRARY)
    TILEC_CASE(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER)
    TILEC_CASE(CUDA_ERROR_DEVICE_UNAVAILABLE)
    TILEC_CASE(CUDA_ERROR_NO_DEVICE)
    TILEC_CASE(CUDA_ERROR_INVALID_DEVICE)
    TILEC_CASE(CUDA_ERROR_INVALID_IMAGE)
    TILEC_CASE(CUDA_ERROR_INVALID_CONTEXT)
    TILEC_CASE(CUDA_ERROR_NO_BINARY_FOR_GPU)
    TILEC_CASE(CUDA_ERROR_INVALID_PTX)
    TILEC_CASE(CUDA_ERROR_JIT_COMPILER_NOT_FOUND)
    TILEC_CASE(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    TILEC_CASE(CUDA_ERROR_INVALID_SOURCE)
    TILEC_CASE(CUDA_ERROR_FILE_NOT_FOUND)
    TILEC_CASE(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED)
    TILEC_CASE(CUDA_ERROR_OPERATING_SYSTEM)
    TILEC_CASE(CUDA_ERROR_INVALID_HANDLE)
    TILEC_CASE(CUDA_ERROR_NOT_FOUND)
    TILEC_CASE(CUDA_ERROR_NOT_READY)
    TILEC_CASE(CUDA_ERROR_ILLEGAL_ADDRESS)
    TILEC_CASE(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    TILEC_CASE(CUDA_ERROR_LAUNCH_TIMEOUT)
    TILEC_CASE(CUDA_ERROR_HARDWARE_STACK_ERROR)
    TILEC_CASE(CUDA_ERROR_ILLEGAL_INSTRUCTION)
    TILEC_CASE(CUDA_ERROR_MISALIGNED_ADDRESS)
    TILEC_CASE(CUDA_ERROR_INVALID_ADDRESS_SPACE)
    TILEC_CASE(CUDA_ERROR_INVALID_PC)
    TILEC_CASE(CUDA_ERROR_LAUNCH_FAILED)
    TILEC_CASE(CUDA_ERROR_NOT_PERMITTED)
    TILEC_CASE(CUDA_ERROR_NOT_SUPPORTED)
    TILEC_CASE(CUDA_ERROR_SYSTEM_NOT_READY)
    TILEC_CASE(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
    TILEC_CASE(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)
    TILEC_CASE(CUDA_ERROR_UNKNOWN)
#undef TILEC_CASE
  default:
    return nullptr;
  }
}

/// The process-wide driver and the lock that guards its first load.
struct GlobalDriver {
  std::once_flag Once;
  LoadedDriver Driver;
};

GlobalDriver &globalDriver() {
  static GlobalDriver Instance;
  return Instance;
}

thread_local std::string LastLaunchedKernel;

} // namespace

LoadedDriver detail::loadDriver(const char *libraryPath) {
  LoadedDriver result;
  // Without an explicit path: the loader's search path first, then where
  // drivers are commonly installed but not always on that path (containers
  // mount the driver under /usr/local/nvidia).
  static const char *const DefaultPaths[] = {
      "libcuda.so.1",
      "/usr/local/nvidia/lib64/libcuda.so.1",
      "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
      "/usr/lib64/libcuda.so.1",
  };
  const char *const *candidates = libraryPath ? &libraryPath : DefaultPaths;
  std::size_t numCandidates =
      libraryPath ? 1 : sizeof(DefaultPaths) / sizeof(DefaultPaths[0]);

  // RTLD_NODELETE: the driver starts threads in cuInit; it must never be
  // unmapped under them, even when a probe closes its handle.
  void *handle = nullptr;
  const char *path = candidates[0];
  std::string firstError;
  for (std::size_t i = 0; i < numCandidates && !handle; ++i) {
    handle = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle) {
      path = candidates[i];
    } else if (i == 0) {
      const char *why = dlerror();
      firstError = why ? why : "unknown dlopen error";
    }
  }
  if (!handle) {
    result.LoadStatus = Status::noDevice(
        std::string("no CUDA driver: cannot load ") + path + ": " + firstError);
    return result;
  }
  result.LibraryHandle = handle;

  DriverApi &api = result.Api;
  std::string missing;
#define TILEC_CU_FN(name, symbol, fallback)                                    \
  {                                                                            \
    void *address = dlsym(handle, symbol);                                     \
    if (!address && fallback[0] != '\0')                                       \
      address = dlsym(handle, fallback);                                       \
    if (address)                                                               \
      api.name = reinterpret_cast<decltype(api.name)>(address);                \
    else                                                                       \
      missing += std::string(missing.empty() ? "" : ", ") + symbol;            \
  }
#include "CudaDriverFunctions.def"
  if (!missing.empty()) {
    result.LoadStatus =
        Status::noDevice(std::string("no CUDA driver: ") + path +
                         " lacks entry points (driver too old?): " + missing);
    return result;
  }

  CUresult initResult = api.cuInit(0);
  if (initResult != CUDA_SUCCESS) {
    result.LoadStatus = Status::noDevice("no CUDA device: cuInit failed: " +
                                         describeResult(&api, initResult));
    return result;
  }
  return result;
}

void detail::unloadDriver(LoadedDriver &driver) {
  if (driver.LibraryHandle)
    dlclose(driver.LibraryHandle);
  driver.LibraryHandle = nullptr;
  driver.Api = DriverApi();
  if (driver.LoadStatus.ok())
    driver.LoadStatus = Status::noDevice("no CUDA driver: unloaded");
}

const DriverApi *detail::getDriver(Status &status) {
  GlobalDriver &global = globalDriver();
  std::call_once(global.Once, [&global] {
    const char *envPath = std::getenv("TILEC_CUDA_LIBRARY");
    global.Driver = loadDriver(envPath && *envPath != '\0' ? envPath : nullptr);
  });
  if (!global.Driver.LoadStatus.ok()) {
    status = global.Driver.LoadStatus;
    return nullptr;
  }
  status = Status::success();
  return &global.Driver.Api;
}

const DriverApi *detail::getLoadedDriver() {
  // Only called from destructors of objects that a successfully loaded
  // driver created, so the once-flag has run.
  GlobalDriver &global = globalDriver();
  if (!global.Driver.LibraryHandle || !global.Driver.LoadStatus.ok())
    return nullptr;
  return &global.Driver.Api;
}

std::string detail::describeResult(const DriverApi *api, CUresult result) {
  const char *name = nullptr;
  const char *description = nullptr;
  if (api && api->cuGetErrorName &&
      api->cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (api && api->cuGetErrorString &&
      api->cuGetErrorString(result, &description) != CUDA_SUCCESS)
    description = nullptr;
  if (!name)
    name = builtinResultName(result);

  std::string text;
  if (name) {
    text = name;
  } else {
    text = fmt::format("CUresult {}", static_cast<int>(result));
  }
  if (description)
    text += std::string(" (") + description + ")";
  return text;
}

Status detail::cudaFailure(const DriverApi *api, const char *call,
                           CUresult result, std::string_view kernel) {
  std::string message = std::string(call) + " failed";
  if (!kernel.empty())
    message += " for kernel '" + std::string(kernel) + "'";
  message += ": " + describeResult(api, result);
  return Status::error(ErrorCode::CudaError, std::move(message));
}

void detail::setLastLaunchedKernel(std::string_view name) {
  LastLaunchedKernel.assign(name.data(), name.size());
}

const std::string &detail::lastLaunchedKernel() { return LastLaunchedKernel; }

Status tilec::rt::probeDriver(const char *libraryPath) {
  LoadedDriver driver = loadDriver(libraryPath);
  Status status = driver.LoadStatus;
  if (status.ok()) {
    int count = 0;
    CUresult result = driver.Api.cuDeviceGetCount(&count);
    if (result != CUDA_SUCCESS)
      status = Status::noDevice("no CUDA device: cuDeviceGetCount failed: " +
                                describeResult(&driver.Api, result));
    else if (count == 0)
      status = Status::noDevice("no CUDA device: the driver reports 0 devices");
  }
  unloadDriver(driver);
  return status;
}
