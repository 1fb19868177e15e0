//===- multi_gpu_matmul.cpp - One matmul split over every GPU -------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// C = A @ B in fp16 (fp32 accumulation) over all GPUs of the host: device d
// gets a contiguous block of A's rows and all of B, runs tilec's seed matmul
// (matmul_ptr_fp16_tc_n256.ptx, loaded on every device) on its rows from its
// own host thread and stream, and device 0 gathers the blocks of C with
// peer copies. The output is poisoned with NaNs first; 64 rows of C, spread
// over every block, are checked against a float64 reference.
//
// It then times each device's share alone and all of them at once (CUDA
// events around the kernels, median of 10) and prints the throughput per
// GPU both ways: splitting costs nothing when they agree.
//
//   multi-gpu-matmul [PTX_FILE [M N K]]
//
// N and K must be multiples of 16 (the kernel's signature says so); M need
// not be. Exit status: 0 on success, 1 on failure, 77 (with "SKIP: ...")
// without a CUDA driver or device.
//
//===----------------------------------------------------------------------===//

#include "DeviceKernel.h"

#include "tilec/Runtime/Runtime.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#ifndef TILEC_EXAMPLES_PTX_DIR
#define TILEC_EXAMPLES_PTX_DIR "."
#endif

using namespace tilec::rt;

namespace {

/// The blocks tilec compiled matmul_ptr_fp16_tc_n256 with.
constexpr std::uint64_t BlockM = 128, BlockN = 256;

int fail(const Status &status) {
  std::fprintf(stderr, "multi-gpu-matmul: error: %s\n",
               status.message().c_str());
  return 1;
}

float halfToFloat(std::uint16_t bits) {
  std::uint32_t sign = std::uint32_t(bits >> 15) << 31;
  std::uint32_t exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  if (exponent == 0) // Zero or subnormal: mantissa * 2^-24.
    return (bits >> 15 ? -1.0f : 1.0f) * std::ldexp(float(mantissa), -24);
  std::uint32_t word =
      sign | (exponent == 0x1f ? 0x7f800000u : (exponent + 112) << 23) |
      (mantissa << 13);
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// One device's share: its rows of A and C, B, its stream and kernel.
struct Share : DeviceKernel {
  std::uint64_t Row0 = 0, Rows = 0;
  DeviceBuffer A, B, C;
};

/// Launches device `s`'s product of its rows on its stream.
Status launch(const Share &s, std::uint64_t n, std::uint64_t k) {
  if (s.Rows == 0)
    return Status::success();
  auto i32 = [](std::uint64_t v) { return KernelArg(std::int32_t(v)); };
  return s.Fn.launch(
      Dim3((s.Rows + BlockM - 1) / BlockM, (n + BlockN - 1) / BlockN),
      {s.A, s.B, s.C, i32(s.Rows), i32(n), i32(k), i32(k), i32(1), i32(n),
       i32(1), i32(n), i32(1)},
      &s.Str);
}

/// Milliseconds of `reps` launches on device `s` (median of event pairs).
Expected<double> timeShare(const Share &s, std::uint64_t n, std::uint64_t k,
                           int reps) {
  if (Status current = s.Ctx.makeCurrent(); !current.ok())
    return current;
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    Expected<Event> start = Event::create(s.Ctx), end = Event::create(s.Ctx);
    if (!start || !end)
      return !start ? start.status() : end.status();
    Status status = start->record(&s.Str);
    if (status.ok())
      status = launch(s, n, k);
    if (status.ok())
      status = end->record(&s.Str);
    if (status.ok())
      status = end->synchronize();
    if (!status.ok())
      return status;
    Expected<float> ms = Event::elapsedMs(*start, *end);
    if (!ms)
      return ms.status();
    times.push_back(*ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  std::string ptxPath = argc > 1 ? argv[1]
                                 : std::string(TILEC_EXAMPLES_PTX_DIR) +
                                       "/matmul_ptr_fp16_tc_n256.ptx";
  std::uint64_t m = 8191, n = 8192, k = 4096;
  if (argc > 4) {
    m = std::strtoull(argv[2], nullptr, 10);
    n = std::strtoull(argv[3], nullptr, 10);
    k = std::strtoull(argv[4], nullptr, 10);
  }
  if (m == 0 || n % 16 || k % 16 || n == 0 || k == 0) {
    std::fprintf(stderr,
                 "usage: %s [PTX_FILE [M N K]] (N and K multiples of "
                 "16)\n",
                 argv[0]);
    return 2;
  }

  Expected<int> count = Context::deviceCount();
  if (!count || *count == 0) {
    std::printf("SKIP: %s\n",
                count ? "no CUDA device" : count.status().message().c_str());
    return count || count.status().isNoDevice() ? 77 : 1;
  }
  int devices = *count;

  // Inputs in [-1, 1), rounded to fp16, on the host.
  std::uint32_t seed = std::random_device()();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<std::uint16_t> a(m * k), b(k * n);
  for (auto &x : a)
    x = floatToHalfBits(dist(rng));
  for (auto &x : b)
    x = floatToHalfBits(dist(rng));

  // Each device: its context, the kernel loaded there, its rows.
  std::vector<Share> shares;
  for (int d = 0; d < devices; ++d) {
    Expected<DeviceKernel> loaded =
        DeviceKernel::load(d, ptxPath, "matmul_ptr_kernel");
    if (!loaded)
      return fail(loaded.status());
    Share s{loaded.take()};
    s.Row0 = m * d / devices;
    s.Rows = m * (d + 1) / devices - s.Row0;
    Expected<DeviceBuffer> da = DeviceBuffer::allocate(s.Ctx, s.Rows * k * 2);
    Expected<DeviceBuffer> db = DeviceBuffer::allocate(s.Ctx, k * n * 2);
    Expected<DeviceBuffer> dc = DeviceBuffer::allocate(s.Ctx, s.Rows * n * 2);
    for (auto *buffer : {&da, &db, &dc})
      if (!*buffer)
        return fail(buffer->status());
    s.A = da.take();
    s.B = db.take();
    s.C = dc.take();
    Status status = s.A.copyFromHost(a.data() + s.Row0 * k, s.Rows * k * 2);
    if (status.ok())
      status = s.B.copyFromHost(b);
    if (status.ok())
      status = s.C.fill(0xff); // NaN: unwritten elements fail.
    if (!status.ok())
      return fail(status);
    shares.push_back(std::move(s));
  }

  // Every device computes its rows from its own thread, at once.
  std::vector<Status> results(devices);
  std::vector<std::thread> threads;
  for (int d = 0; d < devices; ++d)
    threads.emplace_back([&, d] {
      const Share &s = shares[d];
      results[d] = s.Ctx.makeCurrent();
      if (results[d].ok())
        results[d] = launch(s, n, k);
      if (results[d].ok())
        results[d] = s.Str.synchronize();
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const Status &result : results)
    if (!result.ok())
      return fail(result);

  // Device 0 gathers C with peer copies.
  const Share &home = shares[0];
  Expected<DeviceBuffer> whole = DeviceBuffer::allocate(home.Ctx, m * n * 2);
  if (!whole)
    return fail(whole.status());
  Status status = whole->fill(0xff);
  for (const Share &s : shares)
    if (status.ok())
      status = whole->copyFromPeer(home.Ctx, s.Row0 * n * 2, s.C, s.Ctx, 0,
                                   s.Rows * n * 2, &home.Str);
  if (status.ok())
    status = home.Str.synchronize();
  std::vector<std::uint16_t> c(m * n);
  if (status.ok())
    status = whole->copyToHost(c);
  if (!status.ok())
    return fail(status);

  // 64 rows spread over all blocks against float64; relative to the row's
  // largest reference value.
  double worst = 0;
  std::uint64_t bad = 0;
  for (std::uint64_t r = 0; r < 64; ++r) {
    std::uint64_t row = (m - 1) * r / 63;
    std::vector<double> ref(n, 0.0);
    for (std::uint64_t kk = 0; kk < k; ++kk) {
      double x = halfToFloat(a[row * k + kk]);
      for (std::uint64_t col = 0; col < n; ++col)
        ref[col] += x * halfToFloat(b[kk * n + col]);
    }
    double scale = 1e-30;
    for (double v : ref)
      scale = std::max(scale, std::fabs(v));
    for (std::uint64_t col = 0; col < n; ++col) {
      double got = halfToFloat(c[row * n + col]);
      double error = std::fabs(got - ref[col]) / scale;
      if (!(error <= 1e-2))
        ++bad;
      worst = std::isnan(error) ? error : std::max(worst, error);
    }
  }

  // Throughput per GPU: each share alone, then all at once.
  const int reps = 10;
  std::vector<double> alone(devices), together(devices);
  for (int d = 0; d < devices; ++d) {
    Expected<double> ms = timeShare(shares[d], n, k, reps);
    if (!ms)
      return fail(ms.status());
    alone[d] = *ms;
  }
  threads.clear();
  std::vector<Expected<double>> timed(devices, Expected<double>(0.0));
  for (int d = 0; d < devices; ++d)
    threads.emplace_back(
        [&, d] { timed[d] = timeShare(shares[d], n, k, reps); });
  for (std::thread &thread : threads)
    thread.join();
  for (int d = 0; d < devices; ++d) {
    if (!timed[d])
      return fail(timed[d].status());
    together[d] = *timed[d];
  }

  std::printf("multi-gpu-matmul: %d device(s), C[%" PRIu64 ", %" PRIu64
              "] = A @ B (K = %" PRIu64 "), fp16, seed %u\n",
              devices, m, n, k, seed);
  for (int d = 0; d < devices; ++d) {
    double flops = 2.0 * double(shares[d].Rows) * double(n) * double(k);
    std::printf("  device %d (%s): rows %" PRIu64 "..%" PRIu64
                ": %.1f TFLOP/s alone, %.1f TFLOP/s with the others\n",
                d, shares[d].Ctx.info().Name.c_str(), shares[d].Row0,
                shares[d].Row0 + shares[d].Rows, flops / (alone[d] * 1e9),
                flops / (together[d] * 1e9));
  }
  std::printf("multi-gpu-matmul: 64 rows checked, largest relative error "
              "%.2e: %s\n",
              worst, bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
