//===- FakeCuda.cpp - A CPU stand-in for libcuda.so.1 for tests -----------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// A shared library exporting the CUDA driver entry points the tilec runtime
// uses, implemented on the CPU, so that the runtime and the GPU programs can
// be run end to end on a machine without a GPU: point TILEC_CUDA_LIBRARY at
// it. "Device" memory is host memory; a module is its PTX text; a function
// is found by its ".entry" name; and cuLaunchKernel emulates the kernels it
// knows (add_kernel of examples/vector_add.tile, BLOCK=1024, and
// bench/empty_kernel.tile's empty_kernel) and checks that
// their pointer arguments stay inside allocations (a stray access becomes a
// sticky CUDA_ERROR_ILLEGAL_ADDRESS, as on a GPU). Launching any other
// kernel fails cleanly, at once, with CUDA_ERROR_NOT_SUPPORTED ("... it
// emulates add_kernel only"), so that tests of kernels it cannot run
// report a failure instead of a wrong result. It proves nothing about PTX or
// the hardware; it exercises the host side.
//
// Contexts are checked as the driver checks them: each device has its
// primary context, a context is current per thread (cuCtxSetCurrent), a
// module belongs to the context current when it was loaded, and launching
// one of its functions while another context is current fails with
// CUDA_ERROR_INVALID_HANDLE; memory calls need a current context.
//
// Knobs (environment variables), to check how failures are reported:
//   TILEC_FAKE_CUDA_NO_DEVICE=1  cuDeviceGetCount reports 0 devices.
//   TILEC_FAKE_CUDA_DEVICES=N    N devices (1 to 8; default 1).
//   TILEC_FAKE_CUDA_WRONG=1      add_kernel leaves the last element unwritten.
//   TILEC_FAKE_CUDA_FAULT=1      every launch faults (illegal address).
// A PTX text containing "tilec-fake-jit-error" fails to load with a JIT log.
// A cubin (an ELF image) loads; its functions are the names in its strings.
//
// The definitions include cuda.h, so its macros give every function its
// versioned symbol name (cuMemAlloc -> cuMemAlloc_v2) and its exact type.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

struct CUctx_st {
  int Device = 0;
};
struct CUmod_st {
  /// The PTX text, or the bytes of a cubin.
  std::string Ptx;
  bool IsCubin = false;
  /// The context current when it was loaded.
  CUcontext Context = nullptr;
};
struct CUfunc_st {
  std::string Name;
  CUcontext Context = nullptr;
  int MaxDynamicShared = 48 * 1024;
};
struct CUstream_st {
  unsigned Flags = 0;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point Time;
  bool Recorded = false;
};

namespace {

std::mutex Lock;
bool Initialized = false;
constexpr int MaxDevices = 8;
CUctx_st PrimaryContexts[MaxDevices] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};
int PrimaryRefCounts[MaxDevices] = {};
/// Contexts made with tilecFakeCudaCreateContext (never freed; tests only).
std::vector<CUctx_st *> UserContexts;
/// The context current on each thread.
thread_local CUcontext Current = nullptr;
/// Kernels launched on each device.
int Launches[MaxDevices] = {};
/// Allocations: start address -> size.
std::map<std::uint64_t, std::size_t> Allocations;
/// A launch error that, like a GPU fault, sticks to the context.
CUresult StickyError = CUDA_SUCCESS;

#define FAKE_CHECK_INIT()                                                      \
  do {                                                                         \
    if (!Initialized)                                                          \
      return CUDA_ERROR_NOT_INITIALIZED;                                       \
  } while (0)

/// True when [address, address + bytes) lies inside one allocation.
bool isValidRange(std::uint64_t address, std::size_t bytes) {
  auto it = Allocations.upper_bound(address);
  if (it == Allocations.begin())
    return false;
  --it;
  return address >= it->first && address + bytes <= it->first + it->second;
}

bool knob(const char *name) {
  const char *value = std::getenv(name);
  return value && std::strcmp(value, "1") == 0;
}

int deviceCount() {
  if (knob("TILEC_FAKE_CUDA_NO_DEVICE"))
    return 0;
  const char *value = std::getenv("TILEC_FAKE_CUDA_DEVICES");
  int count = value ? std::atoi(value) : 1;
  return count < 1 ? 1 : count > MaxDevices ? MaxDevices : count;
}

/// True when `ctx` is a primary context of an existing device or a context
/// a test made.
bool isContext(CUcontext ctx) {
  for (int i = 0; i < deviceCount(); ++i)
    if (ctx == &PrimaryContexts[i])
      return true;
  std::lock_guard<std::mutex> guard(Lock);
  return std::find(UserContexts.begin(), UserContexts.end(), ctx) !=
         UserContexts.end();
}

/// The size of an ELF64 image (a cubin): its section headers come last.
std::size_t elfSize(const unsigned char *image) {
  std::uint64_t sectionHeaders;
  std::uint16_t entrySize, entries;
  std::memcpy(&sectionHeaders, image + 0x28, sizeof(sectionHeaders));
  std::memcpy(&entrySize, image + 0x3a, sizeof(entrySize));
  std::memcpy(&entries, image + 0x3c, sizeof(entries));
  return sectionHeaders + std::size_t(entrySize) * entries;
}

/// Emulates add_kernel(x, y, out, n) with BLOCK=1024.
CUresult launchAddKernel(unsigned gridX, void **params) {
  if (!params)
    return CUDA_ERROR_INVALID_VALUE;
  std::uint64_t x = *static_cast<std::uint64_t *>(params[0]);
  std::uint64_t y = *static_cast<std::uint64_t *>(params[1]);
  std::uint64_t out = *static_cast<std::uint64_t *>(params[2]);
  std::int32_t n = *static_cast<std::int32_t *>(params[3]);
  constexpr std::int64_t Block = 1024;
  for (std::int64_t pid = 0; pid < static_cast<std::int64_t>(gridX); ++pid) {
    std::int64_t begin = pid * Block;
    std::int64_t end = begin + Block < n ? begin + Block : n;
    if (end <= begin)
      continue;
    std::size_t bytes = (end - begin) * sizeof(float);
    std::uint64_t offset = begin * sizeof(float);
    if (!isValidRange(x + offset, bytes) || !isValidRange(y + offset, bytes) ||
        !isValidRange(out + offset, bytes)) {
      StickyError = CUDA_ERROR_ILLEGAL_ADDRESS;
      return CUDA_SUCCESS; // Reported later, like an asynchronous fault.
    }
    const float *xp = reinterpret_cast<const float *>(x + offset);
    const float *yp = reinterpret_cast<const float *>(y + offset);
    float *op = reinterpret_cast<float *>(out + offset);
    std::int64_t count = end - begin;
    if (end == n && knob("TILEC_FAKE_CUDA_WRONG"))
      --count;
    for (std::int64_t i = 0; i < count; ++i)
      op[i] = xp[i] + yp[i];
  }
  return CUDA_SUCCESS;
}

} // namespace

extern "C" {

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr) {
  switch (error) {
  case CUDA_SUCCESS:
    *pStr = "CUDA_SUCCESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *pStr = "CUDA_ERROR_INVALID_VALUE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *pStr = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_INITIALIZED:
    *pStr = "CUDA_ERROR_NOT_INITIALIZED";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_PTX:
    *pStr = "CUDA_ERROR_INVALID_PTX";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *pStr = "CUDA_ERROR_NOT_FOUND";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *pStr = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_SUPPORTED:
    *pStr = "CUDA_ERROR_NOT_SUPPORTED";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_HANDLE:
    *pStr = "CUDA_ERROR_INVALID_HANDLE";
    return CUDA_SUCCESS;
  default:
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr) {
  const char *name = nullptr;
  if (cuGetErrorName(error, &name) != CUDA_SUCCESS)
    return CUDA_ERROR_INVALID_VALUE;
  *pStr = "fake driver error";
  if (error == CUDA_ERROR_INVALID_VALUE)
    *pStr = "invalid argument";
  else if (error == CUDA_ERROR_ILLEGAL_ADDRESS)
    *pStr = "an illegal memory access was encountered";
  else if (error == CUDA_ERROR_NOT_FOUND)
    *pStr = "named symbol not found";
  else if (error == CUDA_ERROR_NOT_SUPPORTED)
    *pStr = "operation not supported by the fake driver (it emulates "
            "add_kernel only)";
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuInit(unsigned int) {
  std::lock_guard<std::mutex> guard(Lock);
  Initialized = true;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDriverGetVersion(int *driverVersion) {
  *driverVersion = 13000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int *count) {
  FAKE_CHECK_INIT();
  *count = deviceCount();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  FAKE_CHECK_INIT();
  if (ordinal < 0 || ordinal >= deviceCount())
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice) {
  FAKE_CHECK_INIT();
  std::snprintf(name, static_cast<std::size_t>(len), "%s", "tilec fake GPU");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib,
                                      CUdevice) {
  FAKE_CHECK_INIT();
  switch (attrib) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *pi = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *pi = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *pi = 4;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *pi = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *pi = 227 * 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *pi = 228 * 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK:
    *pi = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *pi = 1 << 20;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE; // Optional attributes stay unknown.
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice) {
  FAKE_CHECK_INIT();
  *bytes = std::size_t(16) << 30;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice device) {
  FAKE_CHECK_INIT();
  if (device < 0 || device >= deviceCount())
    return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> guard(Lock);
  ++PrimaryRefCounts[device];
  *pctx = &PrimaryContexts[device];
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice device,
                                            unsigned int *flags, int *active) {
  FAKE_CHECK_INIT();
  if (device < 0 || device >= deviceCount())
    return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> guard(Lock);
  *flags = 0;
  *active = PrimaryRefCounts[device] > 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice device) {
  if (device < 0 || device >= deviceCount())
    return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> guard(Lock);
  if (PrimaryRefCounts[device] == 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  --PrimaryRefCounts[device];
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) {
  FAKE_CHECK_INIT();
  if (ctx && !isContext(ctx))
    return CUDA_ERROR_INVALID_CONTEXT;
  Current = ctx;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx) {
  FAKE_CHECK_INIT();
  *pctx = Current;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device) {
  FAKE_CHECK_INIT();
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  *device = Current->Device;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void) {
  FAKE_CHECK_INIT();
  return StickyError;
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image,
                                    unsigned int numOptions,
                                    CUjit_option *options,
                                    void **optionValues) {
  FAKE_CHECK_INIT();
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  const unsigned char *bytes = static_cast<const unsigned char *>(image);
  if (std::memcmp(bytes,
                  "\x7f"
                  "ELF",
                  4) == 0) {
    // A cubin: kept whole; functions are found in its string table.
    *module = new CUmod_st{
        std::string(reinterpret_cast<const char *>(bytes), elfSize(bytes)),
        true, Current};
    return CUDA_SUCCESS;
  }
  const char *ptx = static_cast<const char *>(image);
  char *errorLog = nullptr, *infoLog = nullptr;
  std::size_t errorSize = 0, infoSize = 0;
  for (unsigned i = 0; i < numOptions; ++i) {
    std::uintptr_t value = reinterpret_cast<std::uintptr_t>(optionValues[i]);
    switch (options[i]) {
    case CU_JIT_ERROR_LOG_BUFFER:
      errorLog = static_cast<char *>(optionValues[i]);
      break;
    case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
      errorSize = value;
      break;
    case CU_JIT_INFO_LOG_BUFFER:
      infoLog = static_cast<char *>(optionValues[i]);
      break;
    case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
      infoSize = value;
      break;
    default:
      break;
    }
  }
  if (std::strstr(ptx, "tilec-fake-jit-error")) {
    if (errorLog && errorSize)
      std::snprintf(errorLog, errorSize, "%s",
                    "ptxas fatal   : fake JIT error requested by the PTX");
    return CUDA_ERROR_INVALID_PTX;
  }
  if (infoLog && infoSize)
    std::snprintf(infoLog, infoSize, "fake JIT: %zu bytes of PTX accepted",
                  std::strlen(ptx));
  *module = new CUmod_st{ptx, false, Current};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleUnload(CUmodule module) {
  delete module;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule module,
                                     const char *name) {
  FAKE_CHECK_INIT();
  if (!module)
    return CUDA_ERROR_INVALID_HANDLE;
  if (module->IsCubin) {
    // The function's symbol name, NUL-terminated, in the string table.
    if (module->Ptx.find(std::string(name) + '\0') == std::string::npos)
      return CUDA_ERROR_NOT_FOUND;
    *function = new CUfunc_st{name, module->Context}; // Leaked; tests only.
    return CUDA_SUCCESS;
  }
  std::string needle = std::string(".entry ") + name;
  std::size_t pos = module->Ptx.find(needle);
  while (pos != std::string::npos) {
    char next = module->Ptx[pos + needle.size()];
    if (next == '(' || next == ' ' || next == '\n' || next == '\t') {
      *function = new CUfunc_st{name, module->Context}; // Leaked; tests only.
      return CUDA_SUCCESS;
    }
    pos = module->Ptx.find(needle, pos + 1);
  }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
                                    CUfunction function) {
  FAKE_CHECK_INIT();
  switch (attrib) {
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *pi = 16;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *pi = 1024;
    return CUDA_SUCCESS;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
    *pi = function->MaxDynamicShared;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction function,
                                    CUfunction_attribute attrib, int value) {
  FAKE_CHECK_INIT();
  if (attrib != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return CUDA_ERROR_NOT_SUPPORTED;
  if (value < 0 || value > 227 * 1024)
    return CUDA_ERROR_INVALID_VALUE;
  function->MaxDynamicShared = value;
  return CUDA_SUCCESS;
}

/// An SM of 2048 threads, 32 blocks and 228 KB of shared memory (1 KB
/// reserved per block); registers are never the limit (16 a thread).
CUresult CUDAAPI cuOccupancyMaxActiveBlocksPerMultiprocessor(
    int *numBlocks, CUfunction f, int blockSize, size_t dynamicSMemSize) {
  FAKE_CHECK_INIT();
  if (!numBlocks || !f || blockSize <= 0 || blockSize > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  int byThreads = std::min(2048 / blockSize, 32);
  int byShared = static_cast<int>(228 * 1024 / (dynamicSMemSize + 1024));
  *numBlocks = std::min(byThreads, byShared);
  return CUDA_SUCCESS;
}

/// The dynamic shared memory of the last launch, for tests.
static unsigned LastSharedBytes = 0;

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX,
                                unsigned int gridDimY, unsigned int gridDimZ,
                                unsigned int blockDimX, unsigned int blockDimY,
                                unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream,
                                void **kernelParams, void **extra) {
  FAKE_CHECK_INIT();
  if (!f || extra)
    return CUDA_ERROR_INVALID_VALUE;
  if (gridDimX == 0 || gridDimY == 0 || gridDimZ == 0 || blockDimX == 0 ||
      blockDimY == 0 || blockDimZ == 0 ||
      blockDimX * blockDimY * blockDimZ > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  if (sharedMemBytes > static_cast<unsigned>(f->MaxDynamicShared))
    return CUDA_ERROR_INVALID_VALUE;
  if (StickyError != CUDA_SUCCESS)
    return StickyError;
  // A function runs in the context its module was loaded in.
  if (f->Context != Current)
    return CUDA_ERROR_INVALID_HANDLE;
  std::lock_guard<std::mutex> guard(Lock);
  ++Launches[f->Context->Device];
  LastSharedBytes = sharedMemBytes;
  if (knob("TILEC_FAKE_CUDA_FAULT")) {
    StickyError = CUDA_ERROR_ILLEGAL_ADDRESS;
    return CUDA_SUCCESS;
  }
  if (f->Name == "empty_kernel")
    return CUDA_SUCCESS; // bench/empty_kernel.tile does nothing.
  if (f->Name == "add_kernel") {
    if (blockDimX != 128 || gridDimY != 1 || gridDimZ != 1)
      return CUDA_ERROR_INVALID_VALUE; // num_warps=4, 1-D grid.
    return launchAddKernel(gridDimX, kernelParams);
  }
  return CUDA_ERROR_NOT_SUPPORTED; // An unknown kernel: refuse it cleanly.
}

/// Launches with programmatic stream serialization, the one attribute the
/// runtime sets: counted, then run as cuLaunchKernel runs them.
static int ProgrammaticLaunches = 0;

CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                                  void **kernelParams, void **extra) {
  FAKE_CHECK_INIT();
  if (!config || (config->numAttrs && !config->attrs))
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute &attr = config->attrs[i];
    if (attr.id != CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      return CUDA_ERROR_NOT_SUPPORTED;
    if (attr.value.programmaticStreamSerializationAllowed) {
      std::lock_guard<std::mutex> guard(Lock);
      ++ProgrammaticLaunches;
    }
  }
  return cuLaunchKernel(f, config->gridDimX, config->gridDimY, config->gridDimZ,
                        config->blockDimX, config->blockDimY, config->blockDimZ,
                        config->sharedMemBytes, config->hStream, kernelParams,
                        extra);
}

/// For tests: how many launches asked for programmatic dependent launch.
__attribute__((visibility("default"))) int tilecFakeCudaProgrammaticLaunches() {
  std::lock_guard<std::mutex> guard(Lock);
  return ProgrammaticLaunches;
}

/// For tests: how many kernels were launched on `device`.
__attribute__((visibility("default"))) int tilecFakeCudaLaunches(int device) {
  std::lock_guard<std::mutex> guard(Lock);
  return device >= 0 && device < MaxDevices ? Launches[device] : 0;
}

/// For tests: the dynamic shared memory the last launch asked for.
__attribute__((visibility("default"))) unsigned tilecFakeCudaLastSharedBytes() {
  std::lock_guard<std::mutex> guard(Lock);
  return LastSharedBytes;
}

/// For tests: a context of `device` other than its primary one (what
/// cuCtxCreate makes), not current anywhere yet.
__attribute__((visibility("default"))) void *
tilecFakeCudaCreateContext(int device) {
  std::lock_guard<std::mutex> guard(Lock);
  UserContexts.push_back(new CUctx_st{device});
  return UserContexts.back();
}

/// Checks what the driver checks of a tiled tensor map of 2 to 5
/// dimensions and fills the map with a pattern; the fake kernels never read
/// it.
CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType, cuuint32_t tensorRank,
    void *globalAddress, const cuuint64_t *globalDim,
    const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion,
    CUtensorMapFloatOOBfill) {
  FAKE_CHECK_INIT();
  if (!tensorMap || reinterpret_cast<std::uintptr_t>(tensorMap) % 64 != 0 ||
      tensorRank < 2 || tensorRank > 5 ||
      reinterpret_cast<std::uintptr_t>(globalAddress) % 16 != 0 ||
      swizzle == CU_TENSOR_MAP_SWIZZLE_NONE)
    return CUDA_ERROR_INVALID_VALUE;
  for (cuuint32_t d = 0; d < tensorRank; ++d)
    if (globalDim[d] == 0 || globalDim[d] > (cuuint64_t(1) << 32) ||
        boxDim[d] == 0 || boxDim[d] > 256 || elementStrides[d] != 1 ||
        (d > 0 && (globalStrides[d - 1] % 16 != 0 ||
                   globalStrides[d - 1] >= (cuuint64_t(1) << 40))))
      return CUDA_ERROR_INVALID_VALUE;
  std::memset(tensorMap, 0x7e, sizeof(CUtensorMap));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  FAKE_CHECK_INIT();
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (bytesize == 0)
    return CUDA_ERROR_INVALID_VALUE;
  void *memory = std::aligned_alloc(256, (bytesize + 255) / 256 * 256);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard<std::mutex> guard(Lock);
  *dptr = reinterpret_cast<std::uintptr_t>(memory);
  Allocations[*dptr] = bytesize;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) {
  std::lock_guard<std::mutex> guard(Lock);
  auto it = Allocations.find(dptr);
  if (it == Allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  Allocations.erase(it);
  std::free(reinterpret_cast<void *>(dptr));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n) {
  FAKE_CHECK_INIT();
  if (StickyError != CUDA_SUCCESS)
    return StickyError;
  if (!isValidRange(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void *>(dst), src, n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n) {
  FAKE_CHECK_INIT();
  if (StickyError != CUDA_SUCCESS)
    return StickyError;
  if (!isValidRange(src, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(dst, reinterpret_cast<const void *>(src), n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  FAKE_CHECK_INIT();
  if (StickyError != CUDA_SUCCESS)
    return StickyError;
  if (!isValidRange(src, n) || !isValidRange(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(dst),
               reinterpret_cast<const void *>(src), n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dstContext,
                                   CUdeviceptr src, CUcontext srcContext,
                                   size_t n, CUstream) {
  FAKE_CHECK_INIT();
  if (StickyError != CUDA_SUCCESS)
    return StickyError;
  if (!isContext(dstContext) || !isContext(srcContext))
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!isValidRange(src, n) || !isValidRange(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(dst),
               reinterpret_cast<const void *>(src), n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t n) {
  FAKE_CHECK_INIT();
  if (StickyError != CUDA_SUCCESS)
    return StickyError;
  if (!isValidRange(dst, n))
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(reinterpret_cast<void *>(dst), value, n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamCreate(CUstream *stream, unsigned int flags) {
  FAKE_CHECK_INIT();
  *stream = new CUstream_st{flags};
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamDestroy(CUstream stream) {
  delete stream;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream) {
  FAKE_CHECK_INIT();
  return StickyError;
}

CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int) {
  FAKE_CHECK_INIT();
  *event = new CUevent_st();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent event) {
  delete event;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent event, CUstream) {
  FAKE_CHECK_INIT();
  if (!event)
    return CUDA_ERROR_INVALID_HANDLE;
  event->Time = std::chrono::steady_clock::now();
  event->Recorded = true;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventSynchronize(CUevent event) {
  FAKE_CHECK_INIT();
  return event ? StickyError : CUDA_ERROR_INVALID_HANDLE;
}

CUresult CUDAAPI cuEventElapsedTime(float *pMilliseconds, CUevent start,
                                    CUevent end) {
  FAKE_CHECK_INIT();
  if (!start || !end)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!start->Recorded || !end->Recorded)
    return CUDA_ERROR_INVALID_HANDLE;
  *pMilliseconds =
      std::chrono::duration<float, std::milli>(end->Time - start->Time).count();
  return CUDA_SUCCESS;
}

} // extern "C"
