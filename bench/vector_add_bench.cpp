//===- vector_add_bench.cpp - Time tilec's vector_add kernel --------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-bench times add_kernel (examples/vector_add.tile, BLOCK=1024) on 2^28
// fp32 elements: the output is poisoned, the kernel runs some warm-up
// launches and then at least 100 timed launches back to back (one CUDA event
// pair each), the output is checked bit for bit against the CPU, and only
// then the median time and the bandwidth (3 * 4 * n bytes: two reads and one
// write) are printed, on a line shared with bench/triton_vector_add.py:
//
//   BENCH vector_add impl=tilec n=268435456 median_ms=0.7000 gbps=4601.3
//
// It times vector_add.ptx (compiled for any n) and, when the PTX directory
// also holds vector_add_n16.ptx (compiled with n declared a multiple of 16,
// which is what Triton's launcher specializes n = 2^28 to), that too, as
// impl=tilec-n16.
//
//   tilec-bench [--ptx-dir DIR] [--n N] [--iters K] [--warmup W]
//
// Exit status: 0 on success, 1 on failure (including a wrong result), 2 for
// bad usage, 77 (after "SKIP: ...") without a CUDA driver or device.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"

#include "tilec/Runtime/Runtime.h"

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifndef TILEC_EXAMPLES_PTX_DIR
#define TILEC_EXAMPLES_PTX_DIR "."
#endif

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

struct Options {
  std::string PtxDir = TILEC_EXAMPLES_PTX_DIR;
  std::uint64_t N = std::uint64_t(1) << 28;
  unsigned Iters = 200;
  unsigned Warmup = 20;
};

bool parseNumber(const char *text, std::uint64_t &value) {
  char *end = nullptr;
  value = std::strtoull(text, &end, 10);
  return end && end != text && *end == '\0';
}

bool parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc)
      return false;
    const char *value = argv[++i];
    std::uint64_t number = 0;
    if (arg == "--ptx-dir") {
      options.PtxDir = value;
    } else if (arg == "--n" && parseNumber(value, number) && number > 0 &&
               number <= 0x7fffffffu) {
      options.N = number;
    } else if (arg == "--iters" && parseNumber(value, number) && number >= 1 &&
               number <= 100000) {
      options.Iters = static_cast<unsigned>(number);
    } else if (arg == "--warmup" && parseNumber(value, number) &&
               number <= 100000) {
      options.Warmup = static_cast<unsigned>(number);
    } else {
      return false;
    }
  }
  return true;
}

int fail(const Status &status) {
  std::fprintf(stderr, "tilec-bench: error: %s\n", status.message().c_str());
  return 1;
}

bool fileExists(const std::string &path) {
  if (std::FILE *file = std::fopen(path.c_str(), "rb")) {
    std::fclose(file);
    return true;
  }
  return false;
}

/// The data every variant runs on.
struct BenchData {
  BenchData(Context &ctx, std::uint64_t n, std::uint32_t seed)
      : Ctx(ctx), N(n), Seed(seed), X(n), Y(n), Out(n) {}

  Context &Ctx;
  std::uint64_t N;
  std::uint32_t Seed;
  std::vector<float> X, Y, Out;
  DeviceBuffer DX, DY, DOut;
  std::vector<Event> Starts, Stops;
};

/// Times one compiled variant of add_kernel; returns 0 or an exit status.
int benchVariant(BenchData &data, const Options &options,
                 const std::string &ptxPath, const char *impl) {
  Expected<Module> module = Module::loadFile(data.Ctx, ptxPath);
  if (!module)
    return fail(module.status());
  Expected<Kernel> kernel = module->getKernel("add_kernel");
  if (!kernel)
    return fail(kernel.status());

  const std::uint64_t n = data.N;
  constexpr std::uint64_t Block = 1024; // The constexpr tilec compiled with.
  const std::uint64_t blocks = (n + Block - 1) / Block;
  const double bytesMoved = 3.0 * sizeof(float) * n;
  auto launch = [&] {
    return kernel->launch(Dim3(blocks), {data.DX, data.DY, data.DOut, n});
  };

  Status status = data.DOut.fill(0xFF); // NaN: every element must be written.
  for (unsigned i = 0; status.ok() && i < options.Warmup; ++i)
    status = launch();
  for (unsigned i = 0; status.ok() && i < options.Iters; ++i) {
    status = data.Starts[i].record();
    if (status.ok())
      status = launch();
    if (status.ok())
      status = data.Stops[i].record();
  }
  if (status.ok())
    status = data.Ctx.synchronize();
  if (status.ok())
    status = data.DOut.copyToHost(data.Out);
  if (!status.ok())
    return fail(status);

  Comparison check =
      checkVectorAdd(data.X.data(), data.Y.data(), data.Out.data(), n);
  if (check.Mismatches != 0 || !(check.RelError <= 1e-6)) {
    std::fprintf(stderr,
                 "tilec-bench: FAIL: %s: %" PRIu64 " of %" PRIu64
                 " elements differ from the CPU sum (rel. error %.3e, "
                 "seed %u)\n",
                 ptxPath.c_str(), check.Mismatches, n, check.RelError,
                 data.Seed);
    for (std::uint64_t i : check.FirstMismatches)
      std::fprintf(stderr, "  out[%" PRIu64 "] = %.9g, expected %.9g\n", i,
                   data.Out[i], data.X[i] + data.Y[i]);
    return 1;
  }

  std::vector<double> times;
  for (unsigned i = 0; i < options.Iters; ++i) {
    Expected<float> ms = Event::elapsedMs(data.Starts[i], data.Stops[i]);
    if (!ms)
      return fail(ms.status());
    times.push_back(*ms);
  }
  std::sort(times.begin(), times.end());
  std::size_t mid = times.size() / 2;
  double median =
      times.size() % 2 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);
  double gbps = bytesMoved / (median * 1e-3) / 1e9;

  std::printf("\n%s: %s\n", impl, ptxPath.c_str());
  std::printf("add_kernel (signature %s): n=%" PRIu64 ", grid=%" PRIu64
              ", block=%u, %d registers, %.2f GiB moved per launch\n",
              signatureString(kernel->metadata().Signature).c_str(), n, blocks,
              kernel->metadata().blockSize(), kernel->numRegisters(),
              bytesMoved / (1u << 30));
  std::printf("result: exact (%" PRIu64 " elements, rel. error %.3e)\n", n,
              check.RelError);
  std::printf("%u timed launches after %u warm-up: median %.4f ms, "
              "min %.4f ms, max %.4f ms\n",
              options.Iters, options.Warmup, median, times.front(),
              times.back());
  if (double peak = data.Ctx.info().peakMemoryBandwidthGBs(); peak > 0)
    std::printf("bandwidth: %.1f GB/s (%.1f%% of the %.0f GB/s DRAM peak)\n",
                gbps, 100.0 * gbps / peak, peak);
  std::printf("BENCH vector_add impl=%s n=%" PRIu64
              " median_ms=%.4f gbps=%.1f\n",
              impl, n, median, gbps);
  std::fflush(stdout);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options)) {
    std::fprintf(stderr,
                 "usage: %s [--ptx-dir DIR] [--n N] [--iters K] [--warmup W]\n"
                 "  defaults: --ptx-dir %s --n 268435456 --iters 200 "
                 "--warmup 20\n",
                 argv[0], TILEC_EXAMPLES_PTX_DIR);
    return 2;
  }
  if (options.Iters < 100)
    std::fprintf(stderr, "tilec-bench: warning: fewer than 100 timed "
                         "launches; the median is less stable\n");

  Expected<Context> ctx = Context::create();
  if (!ctx) {
    if (ctx.status().isNoDevice()) {
      std::printf("SKIP: %s\n", ctx.status().message().c_str());
      return 77;
    }
    return fail(ctx.status());
  }
  std::printf("tilec-bench: %s\n", ctx->info().summary().c_str());

  std::random_device device;
  BenchData data(*ctx, options.N, device());
  const std::uint64_t n = data.N;
  fillRandomFloats(data.X.data(), n, data.Seed, 0);
  fillRandomFloats(data.Y.data(), n, data.Seed, 1);

  std::size_t bytes = n * sizeof(float);
  for (DeviceBuffer *buffer : {&data.DX, &data.DY, &data.DOut}) {
    Expected<DeviceBuffer> allocated = DeviceBuffer::allocate(*ctx, bytes);
    if (!allocated)
      return fail(allocated.status());
    *buffer = allocated.take();
  }
  for (unsigned i = 0; i < options.Iters; ++i) {
    Expected<Event> start = Event::create(*ctx);
    Expected<Event> stop = Event::create(*ctx);
    if (!start)
      return fail(start.status());
    if (!stop)
      return fail(stop.status());
    data.Starts.push_back(start.take());
    data.Stops.push_back(stop.take());
  }
  Status status = data.DX.copyFromHost(data.X);
  if (status.ok())
    status = data.DY.copyFromHost(data.Y);
  if (!status.ok())
    return fail(status);

  // vector_add.ptx is compiled for any n; vector_add_n16.ptx assumes n is a
  // multiple of 16, as Triton's launcher specializes n = 2^28 (optional).
  if (int rc = benchVariant(data, options, options.PtxDir + "/vector_add.ptx",
                            "tilec"))
    return rc;
  std::string n16 = options.PtxDir + "/vector_add_n16.ptx";
  if (n % 16 == 0 && fileExists(n16))
    if (int rc = benchVariant(data, options, n16, "tilec-n16"))
      return rc;
  return 0;
}
