//===- Runtime.h - Load and launch tilec kernels ----------------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// A small CUDA driver-API runtime for the PTX that tilec produces. It does not
// link against libcuda: the driver is opened with dlopen("libcuda.so.1") the
// first time a Context is created, so programs built with it start (and can
// report "no CUDA driver") on machines without a GPU. This header does not
// include cuda.h; CUDA handles are kept opaque.
//
// Typical use:
//
//   auto ctx = Context::create();
//   if (!ctx) { if (ctx.status().isNoDevice()) skip(); else fail(); }
//   auto module = Module::loadFile(*ctx, "vector_add.ptx");
//   auto kernel = module->getKernel("add_kernel");
//   auto x = DeviceBuffer::allocate(*ctx, n * sizeof(float));
//   ...
//   Status s = kernel->launch(Dim3(blocks), {*x, *y, *out, n});
//
// Objects must not outlive the Context they were made with, and a Kernel must
// not outlive its Module. The Context's (primary) CUDA context is made current
// on the thread that creates it; call Context::makeCurrent on other threads
// (and to switch a thread between devices) before launching there.
// Every CUDA failure message names the CUDA call, the CUresult's name and
// description, and the kernel when one is involved.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_RUNTIME_H
#define TILEC_RUNTIME_RUNTIME_H

#include "tilec/Runtime/Metadata.h"
#include "tilec/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {
namespace rt {

/// Loads the CUDA driver library at \p libraryPath (libcuda.so.1 when null),
/// resolves every entry point the runtime uses, calls cuInit and counts the
/// devices. Returns success when at least one device is usable, a NoDevice
/// status otherwise. It does not touch the process-wide driver that
/// Context::create uses, so tests can point it at a stub library.
Status probeDriver(const char *libraryPath = nullptr);

/// Properties of the device a Context runs on.
struct DeviceInfo {
  int Ordinal = 0;
  std::string Name;
  int ComputeMajor = 0;
  int ComputeMinor = 0;
  int SmCount = 0;
  std::uint64_t TotalMemoryBytes = 0;
  int MaxThreadsPerBlock = 0;
  /// Largest dynamic shared memory a block can opt in to, in bytes.
  int MaxSharedPerBlockOptin = 0;
  /// Shared memory of one SM, and what the driver reserves of it for each
  /// resident block, in bytes (0 when not reported).
  int MaxSharedPerSM = 0;
  int ReservedSharedPerBlock = 0;
  int L2CacheBytes = 0;
  /// Peak memory clock in kHz and bus width in bits (0 when not reported).
  int MemoryClockKHz = 0;
  int MemoryBusWidthBits = 0;
  /// CUDA driver version, e.g. 13000.
  int DriverVersion = 0;

  /// Theoretical DRAM bandwidth in GB/s (1e9 bytes/s) from the memory clock
  /// and bus width; 0 when the driver does not report them.
  double peakMemoryBandwidthGBs() const;
  /// One line: "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB, driver 13.0)".
  std::string summary() const;
};

/// A CUDA context of one device: its primary context (create), or the
/// context the caller made current (current).
class Context {
public:
  /// Loads the driver (once per process), initializes CUDA and retains the
  /// primary context of device \p ordinal, making it current on this thread.
  /// Fails with a NoDevice status when there is no driver or no device.
  /// The driver is libcuda.so.1 from the loader's search path (then from
  /// /usr/local/nvidia/lib64, /usr/lib/x86_64-linux-gnu and /usr/lib64); the
  /// environment variable TILEC_CUDA_LIBRARY names another library instead.
  static Expected<Context> create(int ordinal = 0);
  /// The number of CUDA devices (loads the driver like create does).
  static Expected<int> deviceCount();
  /// The context current on the calling thread, made by someone else (a
  /// framework such as torch, or cuCtxCreate). A device's primary context is
  /// retained as create() retains it; any other context is used as it is,
  /// never destroyed, and must outlive this object and everything made with
  /// it. Fails when no context is current.
  static Expected<Context> current();

  Context(Context &&other) noexcept;
  Context &operator=(Context &&other) noexcept;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  /// Releases the primary context.
  ~Context();

  const DeviceInfo &info() const { return Info; }
  /// The device ordinal this context was created for.
  int ordinal() const { return Info.Ordinal; }
  /// The CUcontext.
  void *handle() const { return Handle; }
  /// True for the device's primary context.
  bool isPrimary() const { return Primary; }
  /// Another Context for the same CUDA context (a primary one retained once
  /// more), for objects that keep the context alive.
  Expected<Context> share() const;
  /// Makes this context current on the calling thread. Allocating memory,
  /// creating streams and events and loading modules do so first; launches
  /// do not: a thread launches on the context current there.
  Status makeCurrent() const;
  /// Waits for all work on the device (cuCtxSynchronize). A failure names the
  /// kernel launched last on this thread.
  Status synchronize() const;

private:
  Context() = default;

  /// Fills Info for device \p ordinal.
  Status describe(int ordinal);

  void *Handle = nullptr; // CUcontext
  int Device = -1;        // CUdevice
  /// A primary context is retained (and released by the destructor); any
  /// other belongs to whoever made it.
  bool Primary = true;
  DeviceInfo Info;
};

/// A CUDA stream. A default-constructed Stream is the legacy default stream.
class Stream {
public:
  Stream() = default;
  /// Creates a stream that synchronizes with the default stream.
  static Expected<Stream> create(const Context &ctx);
  /// A stream made elsewhere (a CUstream, e.g. torch's current stream), used
  /// but never destroyed by this object.
  static Stream borrow(void *handle);

  Stream(Stream &&other) noexcept;
  Stream &operator=(Stream &&other) noexcept;
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;
  ~Stream();

  /// Waits for the stream's work (cuStreamSynchronize); a failure names the
  /// kernel launched last on this thread.
  Status synchronize() const;
  /// The CUstream (nullptr for the default stream).
  void *handle() const { return Handle; }

private:
  void *Handle = nullptr; // CUstream
  bool Owned = true;
};

/// A CUDA event for timing.
class Event {
public:
  static Expected<Event> create(const Context &ctx);

  Event(Event &&other) noexcept;
  Event &operator=(Event &&other) noexcept;
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event();

  /// Records the event on \p stream (the default stream when null).
  Status record(const Stream *stream = nullptr);
  /// Waits until the event has completed.
  Status synchronize() const;
  /// Milliseconds between two completed events (cuEventElapsedTime).
  static Expected<float> elapsedMs(const Event &start, const Event &end);

private:
  Event() = default;

  void *Handle = nullptr; // CUevent
};

/// Device memory owned RAII-style (cuMemAlloc / cuMemFree).
class DeviceBuffer {
public:
  /// An empty buffer (size 0, address 0).
  DeviceBuffer() = default;
  /// Allocates \p bytes of device memory (uninitialized). Zero bytes gives
  /// an empty buffer without calling the driver.
  static Expected<DeviceBuffer> allocate(const Context &ctx, std::size_t bytes);

  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  DevicePtr ptr() const { return DevicePtr{Address}; }
  std::size_t size() const { return Size; }

  /// Copies \p bytes from host memory to the buffer at byte \p offset.
  Status copyFromHost(const void *src, std::size_t bytes,
                      std::size_t offset = 0);
  /// Copies \p bytes from the buffer at byte \p offset to host memory.
  Status copyToHost(void *dst, std::size_t bytes, std::size_t offset = 0) const;
  /// Copies all of \p src (which must fit) to the start of this buffer.
  Status copyFromDevice(const DeviceBuffer &src);
  /// Copies \p bytes of \p src, a buffer of \p srcCtx's device, at byte
  /// \p srcOffset to this buffer of \p dstCtx's device at byte \p offset
  /// (cuMemcpyPeerAsync, over NVLink or PCIe), ordered on \p stream (the
  /// default stream when null).
  Status copyFromPeer(const Context &dstCtx, std::size_t offset,
                      const DeviceBuffer &src, const Context &srcCtx,
                      std::size_t srcOffset, std::size_t bytes,
                      const Stream *stream = nullptr);
  /// Sets every byte to \p value (e.g. 0xFF poisons floats with NaN).
  Status fill(std::uint8_t value);

  template <typename T> Status copyFromHost(const std::vector<T> &src) {
    return copyFromHost(src.data(), src.size() * sizeof(T));
  }
  /// Copies dst.size() elements from the start of the buffer.
  template <typename T> Status copyToHost(std::vector<T> &dst) const {
    return copyToHost(dst.data(), dst.size() * sizeof(T));
  }

private:
  std::uint64_t Address = 0; // CUdeviceptr
  std::size_t Size = 0;
};

/// A launch grid, in blocks. Write Dim3(blocks) for a 1-D grid.
struct Dim3 {
  Dim3(std::uint64_t x = 1, std::uint64_t y = 1, std::uint64_t z = 1)
      : X(x), Y(y), Z(z) {}
  std::uint64_t X, Y, Z;
};

class Module;

/// How a launch runs, beyond its grid, arguments and stream.
struct LaunchOptions {
  /// Programmatic dependent launch (Triton's `launch_pdl=True`; sm_90 and
  /// later): the kernel may start before the kernel launched before it on
  /// the same stream has finished, as soon as every block of that one has
  /// called `tl.extra.cuda.gdc_launch_dependents` (or exited). The kernel
  /// must call `tl.extra.cuda.gdc_wait` before it reads what that kernel
  /// wrote. Launched through cuLaunchKernelEx with
  /// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION.
  bool ProgrammaticDependentLaunch = false;
};

/// What one SM offers the programs of a kernel, for the choice of how many
/// of them share it (rereadSharedBytes).
struct OccupancyLimits {
  std::uint64_t L2Bytes = 0;
  int SmCount = 0;
  int SharedPerSM = 0;
  int ReservedSharedPerProgram = 0;
  /// Programs of the kernel an SM holds at its metadata's shared memory
  /// (cuOccupancyMaxActiveBlocksPerMultiprocessor).
  int Programs = 0;
};

/// The dynamic shared memory to launch a kernel of \p sharedBytes with,
/// when each of its programs reads \p footprint bytes more than once
/// (KernelMetadata::Reread): enough that fewer programs fit on an SM when
/// the footprints of a full GPU would outgrow a third of L2, so that the
/// later passes find their data there. Programs are kept to
/// L2 / (3 x SMs x footprint), never fewer than half of \p limits.Programs
/// nor than 4 (measured on an H100: a layer norm over 16 KB rows runs 1.27x
/// faster at 8 programs of 4 warps an SM than at 16, one over 2 KB rows 1.27x
/// slower); \p sharedBytes when no cap applies.
unsigned rereadSharedBytes(unsigned sharedBytes, std::uint64_t footprint,
                           const OccupancyLimits &limits);

/// A kernel of a loaded Module, with its tilec metadata.
class Kernel {
public:
  const KernelMetadata &metadata() const { return Meta; }
  const std::string &name() const { return Meta.Name; }
  /// Registers per thread as reported by the driver.
  int numRegisters() const { return NumRegisters; }

  /// Launches the kernel on \p grid blocks of metadata().blockSize() threads
  /// with the metadata's dynamic shared memory. The arguments are checked
  /// against the signature first (see packArguments), and the TMA tensor
  /// maps of its descriptor loads are built from them
  /// (cuTensorMapEncodeTiled). A grid with a zero
  /// dimension launches nothing and succeeds. Launch errors are reported
  /// here; errors while the kernel runs show up at the next synchronize.
  Status launch(Dim3 grid, std::initializer_list<KernelArg> args,
                const Stream *stream = nullptr,
                const LaunchOptions &options = {}) const;
  Status launch(Dim3 grid, const KernelArg *args, std::size_t numArgs,
                const Stream *stream = nullptr,
                const LaunchOptions &options = {}) const;
  /// Launches with arguments already checked and laid out by the caller:
  /// \p params holds one pointer per parameter, to a value of the
  /// parameter's size (cuLaunchKernel's kernelParams). Only the grid is
  /// checked. Generated launchers use this; it is the fast path.
  Status launchUnchecked(Dim3 grid, void **params,
                         const Stream *stream = nullptr,
                         const LaunchOptions &options = {}) const;
  /// Builds the tensor maps \p packed asks for in place (before
  /// launchUnchecked with its kernelParams()).
  Status encodeTensorMaps(const PackedArguments &packed) const;
  /// The dynamic shared memory a launch with \p params gets: the
  /// metadata's, or more for a kernel with a re-read footprint
  /// (rereadSharedBytes).
  unsigned launchSharedBytes(void *const *params) const;

private:
  friend class Module;
  Kernel() = default;

  void *Function = nullptr; // CUfunction
  KernelMetadata Meta;
  std::string ModuleName;
  int NumRegisters = 0;
  /// Set for kernels with a re-read footprint on devices that report what
  /// rereadSharedBytes needs.
  std::optional<OccupancyLimits> Occupancy;
};

/// A loaded PTX module (cuModuleLoadDataEx) and its tilec metadata.
class Module {
public:
  /// JIT-compiles \p ptx for the context's device. \p displayName names the
  /// module in messages. Malformed metadata lines, metadata that disagrees
  /// with the PTX entry parameters, and JIT failures (with the JIT error
  /// log) are errors.
  static Expected<Module> loadPtx(const Context &ctx, std::string_view ptx,
                                  std::string_view displayName = "<memory>");
  /// Loads a compiled image (a cubin, or NUL-terminated PTX) whose kernels'
  /// metadata is given rather than read from the image.
  static Expected<Module> loadImage(const Context &ctx, const void *image,
                                    std::vector<KernelMetadata> kernels,
                                    std::string_view displayName);
  /// Reads a PTX file and loads it as loadPtx does.
  static Expected<Module> loadFile(const Context &ctx, const std::string &path);

  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module();

  /// Looks up a kernel by its entry name. It must have a metadata line. When
  /// it needs more than 48 KiB of dynamic shared memory, the function's
  /// limit is raised (cuFuncSetAttribute) here.
  Expected<Kernel> getKernel(std::string_view name) const;

  const std::string &name() const { return Name; }
  /// The metadata of every kernel in the module.
  const std::vector<KernelMetadata> &kernels() const { return Kernels; }
  /// The JIT compiler's informational log (may be empty).
  const std::string &jitInfoLog() const { return InfoLog; }

private:
  Module() = default;

  void *Handle = nullptr; // CUmodule
  /// The device's, for getKernel.
  DeviceInfo Device;
  std::string Name;
  std::vector<KernelMetadata> Kernels;
  std::string InfoLog;
};

/// Reads a whole file into \p contents.
Status readFile(const std::string &path, std::string &contents);

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_RUNTIME_H
