//===- vector_add_bench.cpp - Time tilec's vector_add kernel --------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-bench --kernel vector_add (the default) times add_kernel
// (examples/vector_add.tile, BLOCK=1024) on 2^28 fp32 elements: the output
// is poisoned, the kernel runs some warm-up launches and then at least 100
// timed launches, each after an L2 flush between its own CUDA events (as
// triton.testing.do_bench times; Bench.h's timeLaunches), the output is
// checked bit for bit against the CPU, and only then the median time and the
// bandwidth (3 * 4 * n bytes: two reads and one write) are printed, on a
// line shared with bench/triton_vector_add.py:
//
//   BENCH vector_add impl=tilec n=268435456 median_ms=0.7000 gbps=4601.3
//
// It times vector_add.ptx (compiled for any n) and, when the PTX directory
// also holds vector_add_n16.ptx (compiled with n declared a multiple of 16,
// which is what Triton's launcher specializes n = 2^28 to), that too, as
// impl=tilec-n16.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
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

using namespace tilec::rt;
using namespace tilec::gpu;
using namespace tilec::bench;

namespace {

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
int benchVariant(BenchData &data, const BenchOptions &options,
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
  if (status.ok())
    status =
        timeLaunches(data.Ctx, options.Warmup, data.Starts, data.Stops, launch);
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
  double medianMs = median(times);
  double gbps = bytesMoved / (medianMs * 1e-3) / 1e9;

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
              options.Iters, options.Warmup, medianMs, times.front(),
              times.back());
  if (double peak = data.Ctx.info().peakMemoryBandwidthGBs(); peak > 0)
    std::printf("bandwidth: %.1f GB/s (%.1f%% of the %.0f GB/s DRAM peak)\n",
                gbps, 100.0 * gbps / peak, peak);
  std::printf("BENCH vector_add impl=%s n=%" PRIu64
              " median_ms=%.4f gbps=%.1f\n",
              impl, n, medianMs, gbps);
  std::fflush(stdout);
  return 0;
}

} // namespace

int tilec::bench::benchVectorAdd(Context &ctx, const BenchOptions &options) {
  std::random_device device;
  BenchData data(ctx, options.N, device());
  const std::uint64_t n = data.N;
  fillRandomFloats(data.X.data(), n, data.Seed, 0);
  fillRandomFloats(data.Y.data(), n, data.Seed, 1);

  std::size_t bytes = n * sizeof(float);
  for (DeviceBuffer *buffer : {&data.DX, &data.DY, &data.DOut}) {
    Expected<DeviceBuffer> allocated = DeviceBuffer::allocate(ctx, bytes);
    if (!allocated)
      return fail(allocated.status());
    *buffer = allocated.take();
  }
  if (Status events = createEvents(ctx, options.Iters, data.Starts, data.Stops);
      !events.ok())
    return fail(events);
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
