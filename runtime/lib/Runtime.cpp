//===- Runtime.cpp - Load and launch tilec kernels ------------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The CUDA-facing half of the runtime: the primary context, PTX modules (JIT
// compiled with cuModuleLoadDataEx, with the JIT's logs captured), kernels
// with their tilec metadata and checked launches, device buffers, streams
// and events. All driver calls go through the dlopen-ed DriverApi.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"

#include "tilec/Runtime/Tensor.h"

#include "CudaDriver.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <utility>

using namespace tilec::rt;
using namespace tilec::rt::detail;

namespace {

CUcontext asContext(void *handle) { return static_cast<CUcontext>(handle); }
CUstream asStream(const Stream *stream) {
  return stream ? static_cast<CUstream>(stream->handle()) : nullptr;
}

/// Returns the loaded driver, or null with \p status set. Objects of this
/// library exist only after Context::create loaded the driver, so this
/// fails only when called without a Context.
const DriverApi *requireDriver(Status &status) { return getDriver(status); }

/// A failed call that may be reporting an error from an earlier,
/// asynchronous kernel: the message names the kernel launched last.
Status failureAfterLaunch(const DriverApi *api, const char *call,
                          CUresult result) {
  std::string message = std::string(call) + " failed";
  const std::string &kernel = lastLaunchedKernel();
  if (!kernel.empty())
    message += " after kernel '" + kernel + "'";
  message += ": " + describeResult(api, result);
  return Status::error(ErrorCode::CudaError, std::move(message));
}

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

} // namespace

//===----------------------------------------------------------------------===//
// DeviceInfo and Context
//===----------------------------------------------------------------------===//

double DeviceInfo::peakMemoryBandwidthGBs() const {
  if (MemoryClockKHz <= 0 || MemoryBusWidthBits <= 0)
    return 0.0;
  // Double data rate: two transfers per clock.
  return 2.0 * MemoryClockKHz * 1e3 * (MemoryBusWidthBits / 8.0) / 1e9;
}

std::string DeviceInfo::summary() const {
  return fmt::format("{} (sm_{}{}, {} SMs, {:.1f} GiB, driver {}.{})", Name,
                     ComputeMajor, ComputeMinor, SmCount,
                     TotalMemoryBytes / (1024.0 * 1024.0 * 1024.0),
                     DriverVersion / 1000, (DriverVersion % 1000) / 10);
}

Expected<int> Context::deviceCount() {
  Status status;
  const DriverApi *api = getDriver(status);
  if (!api)
    return status;
  int count = 0;
  CUresult result = api->cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS)
    return Status::noDevice("no CUDA device: cuDeviceGetCount failed: " +
                            describeResult(api, result));
  return count;
}

Expected<Context> Context::create(int ordinal) {
  Expected<int> deviceCount = Context::deviceCount();
  if (!deviceCount)
    return deviceCount.status();
  int count = *deviceCount;
  if (count == 0)
    return Status::noDevice("no CUDA device: the driver reports 0 devices");
  Status status;
  const DriverApi *api = getDriver(status);
  CUresult result;
  if (ordinal < 0 || ordinal >= count)
    return Status::invalidArgument("device ordinal " + std::to_string(ordinal) +
                                   " is out of range (" +
                                   std::to_string(count) + " device(s))");

  CUdevice device = 0;
  if ((result = api->cuDeviceGet(&device, ordinal)) != CUDA_SUCCESS)
    return cudaFailure(api, "cuDeviceGet", result);

  CUcontext handle = nullptr;
  if ((result = api->cuDevicePrimaryCtxRetain(&handle, device)) != CUDA_SUCCESS)
    return cudaFailure(api, "cuDevicePrimaryCtxRetain", result);

  // From here on the Context owns the retained primary context.
  Context ctx;
  ctx.Handle = handle;
  ctx.Device = device;
  if ((result = api->cuCtxSetCurrent(handle)) != CUDA_SUCCESS)
    return cudaFailure(api, "cuCtxSetCurrent", result);
  if (Status described = ctx.describe(ordinal); !described.ok())
    return described;
  return ctx;
}

Expected<Context> Context::current() {
  Expected<int> deviceCount = Context::deviceCount();
  if (!deviceCount)
    return deviceCount.status();
  Status status;
  const DriverApi *api = getDriver(status);
  CUresult result;
  CUcontext handle = nullptr;
  if ((result = api->cuCtxGetCurrent(&handle)) != CUDA_SUCCESS)
    return cudaFailure(api, "cuCtxGetCurrent", result);
  if (!handle)
    return Status::invalidArgument(
        "Context::current: no CUDA context is current on this thread");
  CUdevice device = 0;
  if ((result = api->cuCtxGetDevice(&device)) != CUDA_SUCCESS)
    return cudaFailure(api, "cuCtxGetDevice", result);
  int ordinal = -1;
  for (int i = 0; i < *deviceCount && ordinal < 0; ++i) {
    CUdevice candidate = 0;
    if (api->cuDeviceGet(&candidate, i) == CUDA_SUCCESS && candidate == device)
      ordinal = i;
  }
  if (ordinal < 0)
    return Status::invalidArgument(
        "Context::current: the current context's device is not among the " +
        std::to_string(*deviceCount) + " device(s)");
  // The device's primary context is retained, as create() retains it. An
  // inactive one cannot be current (and retaining it would create it).
  unsigned flags = 0;
  int active = 0;
  if ((result = api->cuDevicePrimaryCtxGetState(device, &flags, &active)) !=
      CUDA_SUCCESS)
    return cudaFailure(api, "cuDevicePrimaryCtxGetState", result);
  CUcontext primary = nullptr;
  if (active && (result = api->cuDevicePrimaryCtxRetain(&primary, device)) !=
                    CUDA_SUCCESS)
    return cudaFailure(api, "cuDevicePrimaryCtxRetain", result);
  Context ctx;
  ctx.Handle = handle;
  ctx.Device = device;
  ctx.Primary = primary == handle;
  if (primary && !ctx.Primary)
    api->cuDevicePrimaryCtxRelease(device);
  if (Status described = ctx.describe(ordinal); !described.ok())
    return described;
  return ctx;
}

Expected<Context> Context::share() const {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  Context ctx;
  ctx.Handle = Handle;
  ctx.Device = Device;
  ctx.Primary = Primary;
  ctx.Info = Info;
  if (Primary) {
    CUcontext primary = nullptr;
    CUresult result = api->cuDevicePrimaryCtxRetain(&primary, Device);
    if (result != CUDA_SUCCESS) {
      ctx.Handle = nullptr; // Nothing retained to release.
      return cudaFailure(api, "cuDevicePrimaryCtxRetain", result);
    }
  }
  return ctx;
}

Status Context::describe(int ordinal) {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result;
  CUdevice device = Device;
  DeviceInfo &info = Info;
  info.Ordinal = ordinal;
  char name[256] = {0};
  if ((result = api->cuDeviceGetName(name, sizeof(name) - 1, device)) !=
      CUDA_SUCCESS)
    return cudaFailure(api, "cuDeviceGetName", result);
  info.Name = name;

  struct {
    CUdevice_attribute Attribute;
    int *Value;
    bool Required;
  } attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info.ComputeMajor, true},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info.ComputeMinor, true},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info.SmCount, true},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &info.MaxThreadsPerBlock,
       true},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &info.MaxSharedPerBlockOptin, true},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
       &info.MaxSharedPerSM, false},
      {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
       &info.ReservedSharedPerBlock, false},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info.L2CacheBytes, false},
      {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, &info.MemoryClockKHz, false},
      {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &info.MemoryBusWidthBits,
       false},
  };
  for (auto &attribute : attributes) {
    result =
        api->cuDeviceGetAttribute(attribute.Value, attribute.Attribute, device);
    if (result != CUDA_SUCCESS) {
      if (attribute.Required)
        return cudaFailure(api, "cuDeviceGetAttribute", result);
      *attribute.Value = 0;
    }
  }

  std::size_t totalMemory = 0;
  if ((result = api->cuDeviceTotalMem(&totalMemory, device)) == CUDA_SUCCESS)
    info.TotalMemoryBytes = totalMemory;
  if (api->cuDriverGetVersion(&info.DriverVersion) != CUDA_SUCCESS)
    info.DriverVersion = 0;
  return Status::success();
}

Context::Context(Context &&other) noexcept
    : Handle(std::exchange(other.Handle, nullptr)),
      Device(std::exchange(other.Device, -1)), Primary(other.Primary),
      Info(std::move(other.Info)) {}

Context &Context::operator=(Context &&other) noexcept {
  Context moved(std::move(other));
  std::swap(Handle, moved.Handle);
  std::swap(Device, moved.Device);
  std::swap(Primary, moved.Primary);
  std::swap(Info, moved.Info);
  return *this; // `moved` releases what this held.
}

Context::~Context() {
  if (!Handle || !Primary)
    return;
  if (const DriverApi *api = getLoadedDriver())
    api->cuDevicePrimaryCtxRelease(Device);
  Handle = nullptr;
}

Status Context::makeCurrent() const {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuCtxSetCurrent(asContext(Handle));
  if (result != CUDA_SUCCESS)
    return cudaFailure(api, "cuCtxSetCurrent", result);
  return Status::success();
}

Status Context::synchronize() const {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuCtxSynchronize();
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuCtxSynchronize", result);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Stream and Event
//===----------------------------------------------------------------------===//

Expected<Stream> Stream::create(const Context &ctx) {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  if (Status current = ctx.makeCurrent(); !current.ok())
    return current;
  CUstream handle = nullptr;
  CUresult result = api->cuStreamCreate(&handle, CU_STREAM_DEFAULT);
  if (result != CUDA_SUCCESS)
    return cudaFailure(api, "cuStreamCreate", result);
  Stream stream;
  stream.Handle = handle;
  return stream;
}

Stream Stream::borrow(void *handle) {
  Stream stream;
  stream.Handle = handle;
  stream.Owned = false;
  return stream;
}

Stream::Stream(Stream &&other) noexcept
    : Handle(std::exchange(other.Handle, nullptr)), Owned(other.Owned) {}

Stream &Stream::operator=(Stream &&other) noexcept {
  Stream moved(std::move(other));
  std::swap(Handle, moved.Handle);
  std::swap(Owned, moved.Owned);
  return *this;
}

Stream::~Stream() {
  if (!Handle || !Owned)
    return;
  if (const DriverApi *api = getLoadedDriver())
    api->cuStreamDestroy(static_cast<CUstream>(Handle));
  Handle = nullptr;
}

Status Stream::synchronize() const {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuStreamSynchronize(static_cast<CUstream>(Handle));
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuStreamSynchronize", result);
  return Status::success();
}

Expected<Event> Event::create(const Context &ctx) {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  if (Status current = ctx.makeCurrent(); !current.ok())
    return current;
  CUevent handle = nullptr;
  CUresult result = api->cuEventCreate(&handle, CU_EVENT_DEFAULT);
  if (result != CUDA_SUCCESS)
    return cudaFailure(api, "cuEventCreate", result);
  Event event;
  event.Handle = handle;
  return event;
}

Event::Event(Event &&other) noexcept
    : Handle(std::exchange(other.Handle, nullptr)) {}

Event &Event::operator=(Event &&other) noexcept {
  Event moved(std::move(other));
  std::swap(Handle, moved.Handle);
  return *this;
}

Event::~Event() {
  if (!Handle)
    return;
  if (const DriverApi *api = getLoadedDriver())
    api->cuEventDestroy(static_cast<CUevent>(Handle));
  Handle = nullptr;
}

Status Event::record(const Stream *stream) {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result =
      api->cuEventRecord(static_cast<CUevent>(Handle), asStream(stream));
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuEventRecord", result);
  return Status::success();
}

Status Event::synchronize() const {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuEventSynchronize(static_cast<CUevent>(Handle));
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuEventSynchronize", result);
  return Status::success();
}

Expected<float> Event::elapsedMs(const Event &start, const Event &end) {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  float ms = 0.0f;
  CUresult result =
      api->cuEventElapsedTime(&ms, static_cast<CUevent>(start.Handle),
                              static_cast<CUevent>(end.Handle));
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuEventElapsedTime", result);
  return ms;
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

KernelArg::KernelArg(const DeviceBuffer &buffer)
    : ArgKind(Kind::Pointer), Bits(buffer.ptr().Address) {}

Expected<DeviceBuffer> DeviceBuffer::allocate(const Context &ctx,
                                              std::size_t bytes) {
  if (bytes == 0)
    return DeviceBuffer();
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  if (Status current = ctx.makeCurrent(); !current.ok())
    return current;
  CUdeviceptr address = 0;
  CUresult result = api->cuMemAlloc(&address, bytes);
  if (result != CUDA_SUCCESS)
    return cudaFailure(api, "cuMemAlloc", result)
        .withContext("allocating " + std::to_string(bytes) + " bytes");
  DeviceBuffer buffer;
  buffer.Address = address;
  buffer.Size = bytes;
  return buffer;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : Address(std::exchange(other.Address, 0)),
      Size(std::exchange(other.Size, 0)) {}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  DeviceBuffer moved(std::move(other));
  std::swap(Address, moved.Address);
  std::swap(Size, moved.Size);
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (!Address)
    return;
  if (const DriverApi *api = getLoadedDriver())
    api->cuMemFree(static_cast<CUdeviceptr>(Address));
  Address = 0;
  Size = 0;
}

/// Checks that [offset, offset + bytes) lies inside a buffer of \p size.
static Status checkRange(const char *what, std::size_t offset,
                         std::size_t bytes, std::size_t size) {
  if (offset > size || bytes > size - offset)
    return Status::invalidArgument(
        std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " +
        std::to_string(offset) + " do not fit in a buffer of " +
        std::to_string(size) + " bytes");
  return Status::success();
}

Status DeviceBuffer::copyFromHost(const void *src, std::size_t bytes,
                                  std::size_t offset) {
  if (Status range = checkRange("copyFromHost", offset, bytes, Size);
      !range.ok())
    return range;
  if (bytes == 0)
    return Status::success();
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuMemcpyHtoD(Address + offset, src, bytes);
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuMemcpyHtoD", result);
  return Status::success();
}

Status DeviceBuffer::copyToHost(void *dst, std::size_t bytes,
                                std::size_t offset) const {
  if (Status range = checkRange("copyToHost", offset, bytes, Size); !range.ok())
    return range;
  if (bytes == 0)
    return Status::success();
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuMemcpyDtoH(dst, Address + offset, bytes);
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuMemcpyDtoH", result);
  return Status::success();
}

Status DeviceBuffer::copyFromDevice(const DeviceBuffer &src) {
  if (Status range = checkRange("copyFromDevice", 0, src.Size, Size);
      !range.ok())
    return range;
  if (src.Size == 0)
    return Status::success();
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuMemcpyDtoD(Address, src.Address, src.Size);
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuMemcpyDtoD", result);
  return Status::success();
}

Status DeviceBuffer::copyFromPeer(const Context &dstCtx, std::size_t offset,
                                  const DeviceBuffer &src,
                                  const Context &srcCtx, std::size_t srcOffset,
                                  std::size_t bytes, const Stream *stream) {
  if (Status range = checkRange("copyFromPeer", offset, bytes, Size);
      !range.ok())
    return range;
  if (Status range =
          checkRange("copyFromPeer (source)", srcOffset, bytes, src.Size);
      !range.ok())
    return range;
  if (bytes == 0)
    return Status::success();
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuMemcpyPeerAsync(
      Address + offset, asContext(dstCtx.handle()), src.Address + srcOffset,
      asContext(srcCtx.handle()), bytes, asStream(stream));
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuMemcpyPeerAsync", result)
        .withContext("copying " + std::to_string(bytes) +
                     " bytes from device " + std::to_string(srcCtx.ordinal()) +
                     " to device " + std::to_string(dstCtx.ordinal()));
  return Status::success();
}

Status DeviceBuffer::fill(std::uint8_t value) {
  if (Size == 0)
    return Status::success();
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  CUresult result = api->cuMemsetD8(Address, value, Size);
  if (result != CUDA_SUCCESS)
    return failureAfterLaunch(api, "cuMemsetD8", result);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Kernel
//===----------------------------------------------------------------------===//

Status Kernel::launch(Dim3 grid, std::initializer_list<KernelArg> args,
                      const Stream *stream,
                      const LaunchOptions &options) const {
  return launch(grid, args.begin(), args.size(), stream, options);
}

Status Kernel::launch(Dim3 grid, const KernelArg *args, std::size_t numArgs,
                      const Stream *stream,
                      const LaunchOptions &options) const {
  // Tensor descriptors launch as their base, extents and strides.
  std::vector<KernelArg> expanded;
  if (std::any_of(args, args + numArgs, [](const KernelArg &arg) {
        return arg.kind() == KernelArg::Kind::Descriptor;
      })) {
    for (std::size_t i = 0; i < numArgs; ++i) {
      const TensorDescriptor *desc = args[i].descriptor();
      if (!desc) {
        expanded.push_back(args[i]);
        continue;
      }
      std::size_t at = expanded.size();
      if (at >= Meta.Signature.size() || !Meta.Signature[at].IsPointer ||
          Meta.Signature[at].Elem != desc->view().dtype())
        return Status::invalidArgument(
            "kernel " + quoted(Meta.Name) + ", argument " + std::to_string(i) +
            ": " + desc->signatureEntry() + " of " + desc->view().describe() +
            " where the kernel takes " +
            (at < Meta.Signature.size() ? Meta.Signature[at].str()
                                        : std::string("no more arguments")));
      // The kernel loads the blocks it was compiled for: a descriptor of
      // other blocks is an error (PTX without the record is not checked),
      // unless the kernel's pre_hook set the block, as it would at this
      // launch under Triton (the block is not among the arguments).
      if (!Meta.Descriptors.empty()) {
        auto compiled = std::find_if(
            Meta.Descriptors.begin(), Meta.Descriptors.end(),
            [&](const abi::DescriptorParam &d) { return d.ArgIndex == at; });
        if (compiled == Meta.Descriptors.end() ||
            compiled->Block.size() != desc->blockShape().size() ||
            (!compiled->FromPreHook && compiled->Block != desc->blockShape())) {
          abi::SignatureEntry expected;
          expected.Type = Meta.Signature[at];
          if (compiled != Meta.Descriptors.end())
            expected.DescriptorBlock = compiled->Block;
          return Status::invalidArgument(
              "kernel " + quoted(Meta.Name) + ", argument " +
              std::to_string(i) + ": " + desc->signatureEntry() +
              " where the kernel was compiled for " + expected.str());
        }
      }
      desc->appendArguments(expanded);
    }
    args = expanded.data();
    numArgs = expanded.size();
  }
  Expected<PackedArguments> packed = packArguments(Meta, args, numArgs);
  if (!packed)
    return packed.status();
  if (Status maps = encodeTensorMaps(*packed); !maps.ok())
    return maps;
  return launchUnchecked(grid, packed->kernelParams(), stream, options);
}

Status Kernel::encodeTensorMaps(const PackedArguments &packed) const {
  if (packed.tensorMaps().empty())
    return Status::success();
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  for (const PackedArguments::TensorMapRequest &map : packed.tensorMaps()) {
    CUtensorMapDataType type = CU_TENSOR_MAP_DATA_TYPE_UINT8;
    switch (map.Elem) {
    case TensorMapSpec::Element::F16:
      type = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
      break;
    case TensorMapSpec::Element::BF16:
      type = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
      break;
    case TensorMapSpec::Element::F32:
      type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
      break;
    case TensorMapSpec::Element::U8:
      break;
    }
    CUtensorMapSwizzle swizzle = map.Swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                 : map.Swizzle == 64
                                     ? CU_TENSOR_MAP_SWIZZLE_64B
                                     : CU_TENSOR_MAP_SWIZZLE_32B;
    // Innermost dimension first; one matrix a box of the outer dimensions.
    cuuint64_t dims[TensorMapSpec::MaxRank] = {map.Cols, map.Rows};
    cuuint64_t strides[TensorMapSpec::MaxRank - 1] = {map.RowStrideBytes};
    cuuint32_t box[TensorMapSpec::MaxRank] = {map.BoxCols, map.BoxRows};
    cuuint32_t elementStrides[TensorMapSpec::MaxRank] = {1, 1, 1, 1, 1};
    std::size_t rank = 2 + map.OuterExtents.size();
    std::string outer;
    for (std::size_t d = 2; d < rank; ++d) {
      std::size_t o = rank - 1 - d; // outermost first in the request
      dims[d] = map.OuterExtents[o];
      strides[d - 1] = map.OuterStrideBytes[o];
      box[d] = 1;
      outer += std::to_string(map.OuterExtents[o]) + " x ";
    }
    CUresult result = api->cuTensorMapEncodeTiled(
        static_cast<CUtensorMap *>(map.Dest), type,
        static_cast<cuuint32_t>(rank),
        reinterpret_cast<void *>(static_cast<std::uintptr_t>(map.Base)), dims,
        strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
        CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
      return Status::error(
          ErrorCode::CudaError,
          cudaFailure(api, "cuTensorMapEncodeTiled", result, Meta.Name)
                  .message() +
              " [tensor " + outer + std::to_string(map.Rows) + " x " +
              std::to_string(map.Cols) + ", row stride " +
              std::to_string(map.RowStrideBytes) + " bytes, box " +
              std::to_string(map.BoxRows) + " x " +
              std::to_string(map.BoxCols) + "]");
  }
  return Status::success();
}

unsigned tilec::rt::rereadSharedBytes(unsigned sharedBytes,
                                      std::uint64_t footprint,
                                      const OccupancyLimits &limits) {
  // Measured safe down to half the programs; below 4 a program is so big
  // that its own bandwidth matters more.
  int fewest = std::max(limits.Programs / 2, 4);
  if (footprint == 0 || limits.SmCount <= 0 || limits.SharedPerSM <= 0 ||
      limits.Programs <= fewest)
    return sharedBytes;
  // Divided in steps: the product could overflow for huge footprints.
  std::uint64_t fit = limits.L2Bytes / 3 /
                      static_cast<std::uint64_t>(limits.SmCount) / footprint;
  if (fit >= static_cast<std::uint64_t>(limits.Programs))
    return sharedBytes;
  int programs = std::max(static_cast<int>(fit), fewest);
  // Enough that programs + 1 do not fit, rounded up to 16 bytes.
  int crowd =
      limits.SharedPerSM / (programs + 1) - limits.ReservedSharedPerProgram + 1;
  unsigned bytes = static_cast<unsigned>((crowd + 15) / 16 * 16);
  // Past the 48 KB every kernel may have without opting in, keep it as is.
  constexpr unsigned DefaultSharedLimit = 48 * 1024;
  if (bytes > DefaultSharedLimit)
    return sharedBytes;
  return std::max(sharedBytes, bytes);
}

unsigned Kernel::launchSharedBytes(void *const *params) const {
  if (!Occupancy)
    return Meta.SharedBytes;
  std::int64_t value = 0;
  if (Meta.Reread->ArgIndex) {
    std::size_t index = *Meta.Reread->ArgIndex;
    ScalarType type = Meta.Signature[index].Elem;
    const void *param = params[index];
    switch (scalarTypeSize(type)) {
    case 1:
      value = isUnsignedType(type) ? *static_cast<const std::uint8_t *>(param)
                                   : *static_cast<const std::int8_t *>(param);
      break;
    case 2:
      value = isUnsignedType(type) ? *static_cast<const std::uint16_t *>(param)
                                   : *static_cast<const std::int16_t *>(param);
      break;
    case 4:
      value = isUnsignedType(type) ? *static_cast<const std::uint32_t *>(param)
                                   : *static_cast<const std::int32_t *>(param);
      break;
    default: {
      std::uint64_t bits = *static_cast<const std::uint64_t *>(param);
      value = isUnsignedType(type) && bits > INT64_MAX
                  ? INT64_MAX
                  : static_cast<std::int64_t>(bits);
    }
    }
  }
  return rereadSharedBytes(Meta.SharedBytes, Meta.Reread->bytesFor(value),
                           *Occupancy);
}

Status Kernel::launchUnchecked(Dim3 grid, void **params, const Stream *stream,
                               const LaunchOptions &options) const {
  if (grid.X == 0 || grid.Y == 0 || grid.Z == 0)
    return Status::success(); // An empty grid launches nothing.
  // Formatted only for messages: formatting would cost more than the
  // launch.
  unsigned sharedBytes = launchSharedBytes(params);
  auto dims = [&] {
    return fmt::format("grid {}x{}x{}, block {}x1x1, dynamic shared {} bytes",
                       grid.X, grid.Y, grid.Z, Meta.blockSize(), sharedBytes);
  };
  if (grid.X > 0x7fffffffu || grid.Y > 65535u || grid.Z > 65535u)
    return Status::invalidArgument(
        "kernel " + quoted(Meta.Name) + ": " + dims() +
        " exceeds the CUDA grid limits (2147483647 x 65535 x 65535)");

  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  setLastLaunchedKernel(Meta.Name);
  CUresult result;
  const char *call = "cuLaunchKernel";
  if (options.ProgrammaticDependentLaunch) {
    call = "cuLaunchKernelEx";
    CUlaunchAttribute attribute = {};
    attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attribute.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config = {};
    config.gridDimX = static_cast<unsigned>(grid.X);
    config.gridDimY = static_cast<unsigned>(grid.Y);
    config.gridDimZ = static_cast<unsigned>(grid.Z);
    config.blockDimX = Meta.blockSize();
    config.blockDimY = config.blockDimZ = 1;
    config.sharedMemBytes = sharedBytes;
    config.hStream = asStream(stream);
    config.attrs = &attribute;
    config.numAttrs = 1;
    result = api->cuLaunchKernelEx(&config, static_cast<CUfunction>(Function),
                                   params, nullptr);
  } else {
    result = api->cuLaunchKernel(
        static_cast<CUfunction>(Function), static_cast<unsigned>(grid.X),
        static_cast<unsigned>(grid.Y), static_cast<unsigned>(grid.Z),
        Meta.blockSize(), 1, 1, sharedBytes, asStream(stream), params, nullptr);
  }
  if (result != CUDA_SUCCESS) {
    std::string message = cudaFailure(api, call, result, Meta.Name).message() +
                          " [" + dims() + "]";
    // A kernel runs in the context its module was loaded in.
    if (result == CUDA_ERROR_INVALID_HANDLE ||
        result == CUDA_ERROR_INVALID_CONTEXT)
      message += "; is the Context the kernel was loaded for current on this "
                 "thread? (Context::makeCurrent)";
    return Status::error(ErrorCode::CudaError, std::move(message));
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Status tilec::rt::readFile(const std::string &path, std::string &contents) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return Status::error(ErrorCode::IOError, "cannot open " + quoted(path) +
                                                 ": " + std::strerror(errno));
  contents.clear();
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
    contents.append(buffer, n);
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed)
    return Status::error(ErrorCode::IOError, "error reading " + quoted(path));
  return Status::success();
}

Expected<Module> Module::loadPtx(const Context &ctx, std::string_view ptx,
                                 std::string_view displayName) {
  std::string prefix = "module " + quoted(displayName);
  Expected<std::vector<KernelMetadata>> kernels = parseModuleMetadata(ptx);
  if (!kernels)
    return kernels.status().withContext(prefix);
  if (Status check = checkMetadataAgainstPtx(*kernels, ptx); !check.ok())
    return check.withContext(prefix);

  // The driver needs a NUL-terminated image.
  std::string image(ptx);
  return loadImage(ctx, image.c_str(), kernels.take(), displayName);
}

Expected<Module> Module::loadImage(const Context &ctx, const void *image,
                                   std::vector<KernelMetadata> kernels,
                                   std::string_view displayName) {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;
  // The module belongs to the context current when it loads.
  if (Status current = ctx.makeCurrent(); !current.ok())
    return current;

  constexpr std::size_t LogSize = 64 * 1024;
  std::vector<char> errorLog(LogSize, '\0');
  std::vector<char> infoLog(LogSize, '\0');
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER,  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE,
  };
  void *values[] = {
      errorLog.data(),
      reinterpret_cast<void *>(static_cast<std::uintptr_t>(LogSize - 1)),
      infoLog.data(),
      reinterpret_cast<void *>(static_cast<std::uintptr_t>(LogSize - 1)),
      reinterpret_cast<void *>(static_cast<std::uintptr_t>(1)),
  };
  static_assert(sizeof(options) / sizeof(options[0]) ==
                    sizeof(values) / sizeof(values[0]),
                "one value per JIT option");

  CUmodule handle = nullptr;
  CUresult result = api->cuModuleLoadDataEx(
      &handle, image, sizeof(options) / sizeof(options[0]), options, values);
  if (result != CUDA_SUCCESS) {
    std::string message =
        "cuModuleLoadDataEx failed for module " + quoted(displayName);
    if (!kernels.empty()) {
      message += " (kernel";
      message += kernels.size() == 1 ? " " : "s ";
      for (std::size_t i = 0; i < kernels.size(); ++i)
        message += (i ? ", " : "") + quoted(kernels[i].Name);
      message += ")";
    }
    message += ": " + describeResult(api, result);
    std::string log(errorLog.data());
    if (!log.empty())
      message += "\nJIT error log:\n" + log;
    return Status::error(ErrorCode::CudaError, std::move(message));
  }

  Module module;
  module.Handle = handle;
  module.Device = ctx.info();
  module.Name = std::string(displayName);
  module.Kernels = std::move(kernels);
  module.InfoLog = std::string(infoLog.data());
  return module;
}

Expected<Module> Module::loadFile(const Context &ctx, const std::string &path) {
  std::string ptx;
  if (Status read = readFile(path, ptx); !read.ok())
    return read;
  return loadPtx(ctx, ptx, path);
}

Module::Module(Module &&other) noexcept
    : Handle(std::exchange(other.Handle, nullptr)),
      Device(std::move(other.Device)), Name(std::move(other.Name)),
      Kernels(std::move(other.Kernels)), InfoLog(std::move(other.InfoLog)) {}

Module &Module::operator=(Module &&other) noexcept {
  Module moved(std::move(other));
  std::swap(Handle, moved.Handle);
  std::swap(Device, moved.Device);
  std::swap(Name, moved.Name);
  std::swap(Kernels, moved.Kernels);
  std::swap(InfoLog, moved.InfoLog);
  return *this;
}

Module::~Module() {
  if (!Handle)
    return;
  if (const DriverApi *api = getLoadedDriver())
    api->cuModuleUnload(static_cast<CUmodule>(Handle));
  Handle = nullptr;
}

Expected<Kernel> Module::getKernel(std::string_view name) const {
  Status status;
  const DriverApi *api = requireDriver(status);
  if (!api)
    return status;

  std::string nameString(name);
  CUfunction function = nullptr;
  CUresult result = api->cuModuleGetFunction(
      &function, static_cast<CUmodule>(Handle), nameString.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    return Status::error(ErrorCode::NotFound,
                         "kernel " + quoted(name) + " is not in module " +
                             quoted(Name) + " (" + describeResult(api, result) +
                             ")");
  if (result != CUDA_SUCCESS)
    return cudaFailure(api, "cuModuleGetFunction", result, name);

  const KernelMetadata *meta = nullptr;
  for (const KernelMetadata &candidate : Kernels)
    if (candidate.Name == name)
      meta = &candidate;
  if (!meta)
    return Status::error(ErrorCode::NotFound,
                         "kernel " + quoted(name) + " in module " +
                             quoted(Name) +
                             " has no '// tilec.kernel' metadata line");

  Kernel kernel;
  kernel.Function = function;
  kernel.Meta = *meta;
  kernel.ModuleName = Name;

  int maxThreads = 0;
  if ((result = api->cuFuncGetAttribute(&kernel.NumRegisters,
                                        CU_FUNC_ATTRIBUTE_NUM_REGS,
                                        function)) != CUDA_SUCCESS ||
      (result = api->cuFuncGetAttribute(&maxThreads,
                                        CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                        function)) != CUDA_SUCCESS)
    return cudaFailure(api, "cuFuncGetAttribute", result, name);
  if (static_cast<int>(meta->blockSize()) > maxThreads)
    return Status::invalidArgument(
        "kernel " + quoted(name) + " needs " +
        std::to_string(meta->blockSize()) +
        " threads per block (num_warps=" + std::to_string(meta->NumWarps) +
        ") but its compiled code allows at most " + std::to_string(maxThreads) +
        " (" + std::to_string(kernel.NumRegisters) + " registers per thread)");

  constexpr unsigned DefaultSharedLimit = 48 * 1024;
  if (meta->SharedBytes > DefaultSharedLimit) {
    if (Device.MaxSharedPerBlockOptin > 0 &&
        meta->SharedBytes >
            static_cast<unsigned>(Device.MaxSharedPerBlockOptin))
      return Status::invalidArgument(
          "kernel " + quoted(name) + " needs " +
          std::to_string(meta->SharedBytes) +
          " bytes of dynamic shared memory; the device allows at most " +
          std::to_string(Device.MaxSharedPerBlockOptin));
    result = api->cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        static_cast<int>(meta->SharedBytes));
    if (result != CUDA_SUCCESS)
      return cudaFailure(api, "cuFuncSetAttribute", result, name);
  }

  // A kernel whose programs read data again may launch with fewer of them
  // an SM; what that takes is asked once, here. Devices that do not report
  // it launch such kernels as any other.
  int programs = 0;
  if (meta->Reread && Device.L2CacheBytes > 0 && Device.MaxSharedPerSM > 0 &&
      api->cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &programs, function, static_cast<int>(meta->blockSize()),
          meta->SharedBytes) == CUDA_SUCCESS)
    kernel.Occupancy = OccupancyLimits{
        static_cast<std::uint64_t>(Device.L2CacheBytes), Device.SmCount,
        Device.MaxSharedPerSM, Device.ReservedSharedPerBlock, programs};
  return kernel;
}
