//===- CAPI.cpp - The runtime's C interface -------------------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-c/Runtime.h over tilec::rt: opaque handles own the C++ objects, and
// every failure's message is kept per thread for tilecLastError.
//
//===----------------------------------------------------------------------===//

#include "tilec-c/Runtime.h"

#include "tilec/Runtime/Runtime.h"
#include "tilec/Runtime/Tensor.h"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace tilec::rt;

struct TilecContext {
  Context Ctx;
  std::string Summary;
};

struct TilecModule {
  Module Mod;
};

struct TilecKernel {
  Kernel K;
  std::string Signature;
};

namespace {

thread_local std::string lastError;

TilecStatus fail(const Status &status) {
  lastError = status.message();
  return status.isNoDevice() ? TILEC_NO_DEVICE : TILEC_ERROR;
}

TilecStatus fail(std::string message) {
  lastError = std::move(message);
  return TILEC_ERROR;
}

TilecStatus result(const Status &status) {
  return status.ok() ? TILEC_SUCCESS : fail(status);
}

/// The buffers tilecMemAlloc made, by address, for tilecMemFree and the
/// copies (which need their sizes).
struct Allocations {
  std::mutex Lock;
  std::map<std::uint64_t, DeviceBuffer> Buffers;
};

Allocations &allocations() {
  static Allocations *all = new Allocations; // Never destroyed: buffers may
                                             // outlive static destructors.
  return *all;
}

/// Runs \p copy(buffer, offset) on the tilecMemAlloc allocation holding
/// [address, address + bytes), or fails naming \p function.
template <typename Copy>
TilecStatus withAllocation(const char *function, std::uint64_t address,
                           std::size_t bytes, Copy copy) {
  Allocations &all = allocations();
  std::lock_guard<std::mutex> guard(all.Lock);
  auto it = all.Buffers.upper_bound(address);
  if (it != all.Buffers.begin()) {
    --it;
    std::size_t offset = address - it->first;
    if (offset + bytes <= it->second.size())
      return result(copy(it->second, offset));
  }
  return fail(std::string(function) + ": [" + std::to_string(address) + ", +" +
              std::to_string(bytes) +
              ") is not inside one tilecMemAlloc allocation");
}

/// The C++ form of one argument; descriptors are built into \p descs, which
/// must not reallocate (it is reserved for every argument).
std::optional<KernelArg> convertArg(const TilecArg &arg, std::size_t index,
                                    std::vector<TensorDescriptor> &descs,
                                    std::string &error) {
  switch (arg.Kind) {
  case TILEC_ARG_POINTER:
    return KernelArg(DevicePtr{arg.Bits});
  case TILEC_ARG_INT:
    return KernelArg(static_cast<std::int64_t>(arg.Bits));
  case TILEC_ARG_FLOAT32:
    return KernelArg(static_cast<float>(arg.Real));
  case TILEC_ARG_FLOAT64:
    return KernelArg(arg.Real);
  case TILEC_ARG_DESCRIPTOR: {
    if (arg.Rank < 1 || arg.Rank > TILEC_MAX_RANK) {
      error = "argument " + std::to_string(index) + ": a descriptor of rank " +
              std::to_string(arg.Rank) + " (1 to " +
              std::to_string(TILEC_MAX_RANK) + " are supported)";
      return std::nullopt;
    }
    Expected<ScalarType> dtype =
        parseScalarType(arg.DType ? arg.DType : "<null>");
    if (!dtype) {
      error =
          "argument " + std::to_string(index) + ": " + dtype.status().message();
      return std::nullopt;
    }
    std::vector<std::int64_t> shape(arg.Shape, arg.Shape + arg.Rank);
    std::vector<std::int64_t> strides(arg.Strides, arg.Strides + arg.Rank);
    std::vector<std::int64_t> block(arg.Block, arg.Block + arg.Rank);
    Expected<TensorDescriptor> desc = TensorDescriptor::fromTensor(
        TensorView(DevicePtr{arg.Bits}, *dtype, shape, strides), block);
    if (!desc) {
      error =
          "argument " + std::to_string(index) + ": " + desc.status().message();
      return std::nullopt;
    }
    descs.push_back(desc.take());
    return KernelArg(descs.back());
  }
  }
  error = "argument " + std::to_string(index) + ": unknown kind " +
          std::to_string(arg.Kind);
  return std::nullopt;
}

} // namespace

extern "C" {

const char *tilecLastError(void) { return lastError.c_str(); }

int tilecApiVersion(void) { return TILEC_C_API_VERSION; }

TilecStatus tilecContextCreate(int ordinal, TilecContext **out) {
  Expected<Context> ctx = Context::create(ordinal);
  if (!ctx)
    return fail(ctx.status());
  std::string summary = ctx->info().summary();
  *out = new TilecContext{ctx.take(), std::move(summary)};
  return TILEC_SUCCESS;
}

void tilecContextDestroy(TilecContext *ctx) { delete ctx; }

const char *tilecContextDeviceSummary(const TilecContext *ctx) {
  return ctx->Summary.c_str();
}

TilecStatus tilecContextSynchronize(const TilecContext *ctx) {
  return result(ctx->Ctx.synchronize());
}

TilecStatus tilecMemAlloc(const TilecContext *ctx, size_t bytes,
                          uint64_t *address) {
  if (bytes == 0)
    return fail("tilecMemAlloc: zero bytes");
  Expected<DeviceBuffer> buffer = DeviceBuffer::allocate(ctx->Ctx, bytes);
  if (!buffer)
    return fail(buffer.status());
  *address = buffer->ptr().Address;
  Allocations &all = allocations();
  std::lock_guard<std::mutex> guard(all.Lock);
  all.Buffers.emplace(*address, buffer.take());
  return TILEC_SUCCESS;
}

void tilecMemFree(uint64_t address) {
  Allocations &all = allocations();
  std::lock_guard<std::mutex> guard(all.Lock);
  all.Buffers.erase(address);
}

TilecStatus tilecMemcpyHtoD(uint64_t dst, const void *src, size_t bytes) {
  return withAllocation("tilecMemcpyHtoD", dst, bytes,
                        [&](DeviceBuffer &buffer, std::size_t offset) {
                          return buffer.copyFromHost(src, bytes, offset);
                        });
}

TilecStatus tilecMemcpyDtoH(void *dst, uint64_t src, size_t bytes) {
  return withAllocation("tilecMemcpyDtoH", src, bytes,
                        [&](DeviceBuffer &buffer, std::size_t offset) {
                          return buffer.copyToHost(dst, bytes, offset);
                        });
}

TilecStatus tilecModuleLoadFile(const TilecContext *ctx, const char *path,
                                TilecModule **out) {
  Expected<Module> module = Module::loadFile(ctx->Ctx, path);
  if (!module)
    return fail(module.status());
  *out = new TilecModule{module.take()};
  return TILEC_SUCCESS;
}

TilecStatus tilecModuleLoadPtx(const TilecContext *ctx, const char *ptx,
                               size_t size, const char *name,
                               TilecModule **out) {
  Expected<Module> module = Module::loadPtx(
      ctx->Ctx, std::string_view(ptx, size), name ? name : "<memory>");
  if (!module)
    return fail(module.status());
  *out = new TilecModule{module.take()};
  return TILEC_SUCCESS;
}

void tilecModuleDestroy(TilecModule *module) { delete module; }

TilecStatus tilecModuleGetKernel(const TilecModule *module, const char *name,
                                 TilecKernel **out) {
  Expected<Kernel> kernel = module->Mod.getKernel(name);
  if (!kernel)
    return fail(kernel.status());
  std::string signature = signatureString(kernel->metadata().Signature);
  *out = new TilecKernel{kernel.take(), std::move(signature)};
  return TILEC_SUCCESS;
}

void tilecKernelDestroy(TilecKernel *kernel) { delete kernel; }

const char *tilecKernelSignature(const TilecKernel *kernel) {
  return kernel->Signature.c_str();
}

int tilecKernelNumWarps(const TilecKernel *kernel) {
  return static_cast<int>(kernel->K.metadata().NumWarps);
}

int tilecKernelSharedBytes(const TilecKernel *kernel) {
  return static_cast<int>(kernel->K.metadata().SharedBytes);
}

int tilecKernelNumRegisters(const TilecKernel *kernel) {
  return kernel->K.numRegisters();
}

TilecStatus tilecKernelLaunch(const TilecKernel *kernel, uint32_t gridX,
                              uint32_t gridY, uint32_t gridZ,
                              const TilecArg *args, size_t numArgs,
                              void *stream, uint32_t flags) {
  if (flags & ~uint32_t(TILEC_LAUNCH_PROGRAMMATIC_DEPENDENT))
    return fail("kernel '" + kernel->K.name() + "': unknown launch flags " +
                std::to_string(flags));
  std::vector<TensorDescriptor> descs;
  descs.reserve(numArgs);
  std::vector<KernelArg> converted;
  converted.reserve(numArgs);
  for (std::size_t i = 0; i < numArgs; ++i) {
    std::string error;
    std::optional<KernelArg> arg = convertArg(args[i], i, descs, error);
    if (!arg)
      return fail("kernel '" + kernel->K.name() + "', " + error);
    converted.push_back(*arg);
  }
  Stream borrowed = Stream::borrow(stream);
  LaunchOptions options;
  options.ProgrammaticDependentLaunch =
      flags & TILEC_LAUNCH_PROGRAMMATIC_DEPENDENT;
  return result(kernel->K.launch(Dim3(gridX, gridY, gridZ), converted.data(),
                                 converted.size(), &borrowed, options));
}

} // extern "C"
