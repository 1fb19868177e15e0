//===- Bench.h - Shared parts of tilec-bench --------------------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-bench times one kernel family per run (--kernel vector_add, the
// default, softmax or matmul). This header holds what its parts share: the
// command line options, the error report, the timing loop (do_bench's: the
// L2 flushed before every timed launch) and the median of its timings, and
// a file-existence test. BenchMain.cpp parses the options, creates the
// CUDA context and calls benchVectorAdd (vector_add_bench.cpp), benchSoftmax
// (softmax_bench.cpp) or benchMatmul (matmul_bench.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_BENCH_BENCH_H
#define TILEC_BENCH_BENCH_H

#include "tilec/Runtime/Runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tilec {
namespace bench {

/// tilec-bench's options; each family reads the ones it needs.
struct BenchOptions {
  std::string Kernel = "vector_add";
  std::string PtxDir;
  /// vector_add: elements.
  std::uint64_t N = std::uint64_t(1) << 28;
  /// softmax: the input is Rows x Cols fp32.
  std::uint64_t Rows = 8192;
  std::uint64_t Cols = 4096;
  /// matmul: 0 for the default sizes, else S x S x S for every dtype.
  std::uint64_t Size = 0;
  /// matmul: block sizes of the PTX when they differ from the table's
  /// (0: the table's), to time other tile shapes built into the same files.
  unsigned BlockM = 0, BlockN = 0, BlockK = 0;
  unsigned Iters = 200;
  unsigned Warmup = 20;
  /// Whether --iters / --warmup were given (matmul's defaults are lower).
  bool ItersGiven = false;
  bool WarmupGiven = false;
};

/// Prints "tilec-bench: error: <message>" and returns exit status 1.
inline int fail(const rt::Status &status) {
  std::fprintf(stderr, "tilec-bench: error: %s\n", status.message().c_str());
  return 1;
}

inline bool fileExists(const std::string &path) {
  if (std::FILE *file = std::fopen(path.c_str(), "rb")) {
    std::fclose(file);
    return true;
  }
  return false;
}

/// The median of \p times (which it sorts); 0 for none.
inline double median(std::vector<double> &times) {
  if (times.empty())
    return 0.0;
  std::sort(times.begin(), times.end());
  std::size_t mid = times.size() / 2;
  return times.size() % 2 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);
}

/// Creates \p count pairs of CUDA events, one pair per timed launch.
inline rt::Status createEvents(const rt::Context &ctx, unsigned count,
                               std::vector<rt::Event> &starts,
                               std::vector<rt::Event> &stops) {
  for (unsigned i = 0; i < count; ++i) {
    rt::Expected<rt::Event> start = rt::Event::create(ctx);
    if (!start)
      return start.status();
    rt::Expected<rt::Event> stop = rt::Event::create(ctx);
    if (!stop)
      return stop.status();
    starts.push_back(start.take());
    stops.push_back(stop.take());
  }
  return rt::Status::success();
}

/// Runs \p launch \p warmup times, then once per pair of \p starts and
/// \p stops, timed as triton.testing.do_bench times: before every timed
/// launch a 256 MB buffer is written (so that the L2 is cold), then the
/// start event, the launch and the stop event are recorded.
template <typename Launch>
rt::Status timeLaunches(const rt::Context &ctx, unsigned warmup,
                        std::vector<rt::Event> &starts,
                        std::vector<rt::Event> &stops, Launch launch) {
  rt::Expected<rt::DeviceBuffer> flush =
      rt::DeviceBuffer::allocate(ctx, std::size_t(256) << 20);
  if (!flush)
    return flush.status();
  rt::Status status;
  for (unsigned i = 0; status.ok() && i < warmup; ++i)
    status = launch();
  for (std::size_t i = 0; status.ok() && i < starts.size(); ++i) {
    status = flush->fill(0);
    if (status.ok())
      status = starts[i].record();
    if (status.ok())
      status = launch();
    if (status.ok())
      status = stops[i].record();
  }
  return status;
}

/// Times vector_add.ptx (and vector_add_n16.ptx when present).
int benchVectorAdd(rt::Context &ctx, const BenchOptions &options);
/// Times softmax_kernel on Rows x Cols fp32 (BLOCK_SIZE=4096 PTX).
int benchSoftmax(rt::Context &ctx, const BenchOptions &options);
/// Times the tensor-core matmuls (fp16, bf16, tf32) at large sizes.
int benchMatmul(rt::Context &ctx, const BenchOptions &options);

} // namespace bench
} // namespace tilec

#endif // TILEC_BENCH_BENCH_H
