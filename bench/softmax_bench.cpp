//===- softmax_bench.cpp - Time tilec's fused softmax kernel --------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-bench --kernel softmax times softmax_kernel of examples/softmax.tile
// (Triton's fused-softmax tutorial) compiled with BLOCK_SIZE=4096, on an
// 8192 x 4096 fp32 input (--rows, --cols; cols <= 4096), one program per row
// (grid = n_rows), as bench/triton_softmax.py launches the same source under
// Triton. Per variant: the output is poisoned, warm-up launches run, then at
// least 100 timed launches (each after an L2 flush, between its own CUDA
// events, as do_bench times); the output of the last
// one is checked against a float64 softmax of the input (relative error at
// most 1e-5, every element finite), and only then the median time and the
// bandwidth (2 * rows * cols * 4 bytes: one read, one write) are printed:
//
//   BENCH softmax impl=tilec-w8 rows=8192 cols=4096 median_ms=0.1 gbps=...
//
// Variants: softmax_b4096_w8.ptx and softmax_b4096_w16.ptx (num_warps 8 and
// 16; required) and, when present and the sizes are multiples of 16,
// softmax_b4096_w8_h16.ptx and softmax_b4096_w16_h16.ptx (strides and sizes
// declared multiples of 16, as Triton's launcher specializes 8192 x 4096).
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "HostData.h"
#include "Reference.h"

#include <cinttypes>
#include <cmath>
#include <random>

using namespace tilec::rt;
using namespace tilec::gpu;
using namespace tilec::bench;

namespace {

/// The data every variant runs on.
struct SoftmaxData {
  Context *Ctx = nullptr;
  std::uint64_t Rows = 0, Cols = 0;
  std::uint32_t Seed = 0;
  std::vector<float> X, Out;
  std::vector<double> Ref;
  DeviceBuffer DX, DOut;
  std::vector<Event> Starts, Stops;
};

/// ||out - ref|| / ||ref|| over all elements; NaN if any output is not
/// finite.
double relativeError(const SoftmaxData &data) {
  std::vector<double> errors(data.Rows), norms(data.Rows);
  forEachRow(data.Rows, [&](std::uint64_t r) {
    double error = 0.0, norm = 0.0;
    for (std::uint64_t c = 0; c < data.Cols; ++c) {
      std::uint64_t i = r * data.Cols + c;
      double diff = data.Out[i] - data.Ref[i];
      error += std::isfinite(data.Out[i]) ? diff * diff : std::nan("");
      norm += data.Ref[i] * data.Ref[i];
    }
    errors[r] = error;
    norms[r] = norm;
  });
  double error = 0.0, norm = 0.0;
  for (std::uint64_t r = 0; r < data.Rows; ++r) {
    error += errors[r];
    norm += norms[r];
  }
  return std::sqrt(error / norm);
}

/// Times one compiled variant; returns 0 or an exit status.
int benchVariant(SoftmaxData &data, const BenchOptions &options,
                 const std::string &ptxPath, const char *impl) {
  Expected<Module> module = Module::loadFile(*data.Ctx, ptxPath);
  if (!module)
    return fail(module.status());
  Expected<Kernel> kernel = module->getKernel("softmax_kernel");
  if (!kernel)
    return fail(kernel.status());

  const std::uint64_t rows = data.Rows, cols = data.Cols;
  const double bytesMoved = 2.0 * rows * cols * sizeof(float);
  // softmax_kernel(output_ptr, input_ptr, input_row_stride,
  // output_row_stride, n_rows, n_cols), one program per row.
  auto launch = [&] {
    return kernel->launch(Dim3(rows),
                          {data.DOut, data.DX, cols, cols, rows, cols});
  };

  Status status = data.DOut.fill(0xFF); // NaN: every element must be written.
  if (status.ok())
    status = timeLaunches(*data.Ctx, options.Warmup, data.Starts, data.Stops,
                          launch);
  if (status.ok())
    status = data.Ctx->synchronize();
  if (status.ok())
    status = data.DOut.copyToHost(data.Out);
  if (!status.ok())
    return fail(status);

  double relError = relativeError(data);
  if (!(relError <= 1e-5)) {
    std::fprintf(stderr,
                 "tilec-bench: FAIL: %s: relative error %.3e against the "
                 "float64 softmax exceeds 1e-5 (seed %u)\n",
                 ptxPath.c_str(), relError, data.Seed);
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
  std::printf("softmax_kernel (signature %s): %" PRIu64 " x %" PRIu64
              ", grid=%" PRIu64 ", block=%u, %d registers, %u bytes of "
              "shared memory, %.2f MiB moved per launch\n",
              signatureString(kernel->metadata().Signature).c_str(), rows, cols,
              rows, kernel->metadata().blockSize(), kernel->numRegisters(),
              kernel->metadata().SharedBytes, bytesMoved / (1u << 20));
  std::printf("result: rel. error %.3e against float64 (tolerance 1e-5)\n",
              relError);
  std::printf("%u timed launches after %u warm-up: median %.4f ms, "
              "min %.4f ms, max %.4f ms\n",
              options.Iters, options.Warmup, medianMs, times.front(),
              times.back());
  if (double peak = data.Ctx->info().peakMemoryBandwidthGBs(); peak > 0)
    std::printf("bandwidth: %.1f GB/s (%.1f%% of the %.0f GB/s DRAM peak)\n",
                gbps, 100.0 * gbps / peak, peak);
  std::printf("BENCH softmax impl=%s rows=%" PRIu64 " cols=%" PRIu64
              " median_ms=%.4f gbps=%.1f\n",
              impl, rows, cols, medianMs, gbps);
  std::fflush(stdout);
  return 0;
}

} // namespace

int tilec::bench::benchSoftmax(Context &ctx, const BenchOptions &options) {
  std::random_device device;
  SoftmaxData data;
  data.Ctx = &ctx;
  data.Rows = options.Rows;
  data.Cols = options.Cols;
  data.Seed = device();
  const std::uint64_t count = data.Rows * data.Cols;
  data.X.resize(count);
  data.Out.resize(count);
  data.Ref.resize(count);
  fillUniform(data.X.data(), count, data.Seed, 0);
  softmaxReference(data.X.data(), data.Rows, data.Cols, data.Cols,
                   data.Ref.data());

  for (DeviceBuffer *buffer : {&data.DX, &data.DOut}) {
    Expected<DeviceBuffer> allocated =
        DeviceBuffer::allocate(ctx, count * sizeof(float));
    if (!allocated)
      return fail(allocated.status());
    *buffer = allocated.take();
  }
  if (Status events = createEvents(ctx, options.Iters, data.Starts, data.Stops);
      !events.ok())
    return fail(events);
  if (Status status = data.DX.copyFromHost(data.X); !status.ok())
    return fail(status);

  struct Variant {
    const char *File;
    const char *Impl;
    bool Required;
  };
  const Variant variants[] = {
      {"softmax_b4096_w8.ptx", "tilec-w8", true},
      {"softmax_b4096_w16.ptx", "tilec-w16", true},
      {"softmax_b4096_w8_h16.ptx", "tilec-w8-h16", false},
      {"softmax_b4096_w16_h16.ptx", "tilec-w16-h16", false},
  };
  const bool multiplesOf16 = data.Rows % 16 == 0 && data.Cols % 16 == 0;
  int rc = 0;
  for (const Variant &variant : variants) {
    std::string path = options.PtxDir + "/" + variant.File;
    if (!variant.Required && (!multiplesOf16 || !fileExists(path)))
      continue;
    // Keep going after a failure so that every variant is reported.
    if (int variantRc = benchVariant(data, options, path, variant.Impl))
      rc = variantRc;
  }
  return rc;
}
