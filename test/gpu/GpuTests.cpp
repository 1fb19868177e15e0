//===- GpuTests.cpp - Run tilec's kernels on a GPU and check them ---------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-gpu-tests loads the PTX that tilec produced for the examples, runs
// each kernel on a list of sizes with fresh random inputs and a poisoned
// (NaN) output, checks every element, and prints one table row per size.
// Tests are entries of a small registry (name, PTX file, kernel, sizes, run
// function); adding a kernel means adding a run function and an entry.
//
//   tilec-gpu-tests [--ptx-dir DIR] [--only NAME] [--seed N] [--max-size N]
//                   [--list]
//
// Exit status: 0 when every case passes, 1 otherwise, 2 for bad usage, 77
// (after "SKIP: no CUDA device (...)") when there is no CUDA driver or
// device.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"

#include "tilec/Runtime/Runtime.h"

#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#ifndef TILEC_EXAMPLES_PTX_DIR
#define TILEC_EXAMPLES_PTX_DIR "."
#endif

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

/// What one (test, size) case produced.
struct CaseResult {
  bool Passed = false;
  std::uint64_t Blocks = 0;
  std::uint64_t Mismatches = 0;
  double RelError = std::nan("");
  /// Kernel time from CUDA events, in milliseconds (0 if not measured).
  double KernelMs = 0.0;
  /// DRAM bytes the kernel must move, for the GB/s column (0: no column).
  double Bytes = 0.0;
  /// Why the case failed, or extra detail.
  std::string Note;
};

/// Shared by all cases of a run.
struct TestEnv {
  Context &Ctx;
  std::uint32_t Seed;
  /// Distinguishes the random streams of successive cases.
  std::uint32_t NextStream = 0;
};

using RunFn = CaseResult (*)(TestEnv &env, const Kernel &kernel,
                             std::uint64_t size);

/// One registry entry: a kernel of an example's PTX and the sizes to run.
struct GpuTest {
  const char *Name;
  const char *PtxFile;
  const char *KernelName;
  std::vector<std::uint64_t> Sizes;
  RunFn Run;
};

CaseResult failed(const Status &status, CaseResult result = CaseResult()) {
  result.Passed = false;
  result.Note = status.message();
  return result;
}

/// Formats a float for the table and notes ("NaN" for any NaN).
std::string formatValue(double value, const char *format) {
  if (std::isnan(value))
    return "NaN";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

//===----------------------------------------------------------------------===//
// vector_add: out = x + y, fp32, BLOCK=1024
//===----------------------------------------------------------------------===//

CaseResult runVectorAdd(TestEnv &env, const Kernel &kernel, std::uint64_t n) {
  constexpr std::uint64_t Block = 1024; // The constexpr tilec compiled with.
  CaseResult result;
  result.Blocks = (n + Block - 1) / Block;
  result.Bytes = 3.0 * sizeof(float) * n;

  std::vector<float> x(n), y(n), out(n);
  fillRandomFloats(x.data(), n, env.Seed, env.NextStream++);
  fillRandomFloats(y.data(), n, env.Seed, env.NextStream++);

  std::size_t bytes = n * sizeof(float);
  Expected<DeviceBuffer> dx = DeviceBuffer::allocate(env.Ctx, bytes);
  Expected<DeviceBuffer> dy = DeviceBuffer::allocate(env.Ctx, bytes);
  Expected<DeviceBuffer> dout = DeviceBuffer::allocate(env.Ctx, bytes);
  Expected<Event> start = Event::create(env.Ctx);
  Expected<Event> stop = Event::create(env.Ctx);
  for (const Status *status : {&dx.status(), &dy.status(), &dout.status(),
                               &start.status(), &stop.status()})
    if (!status->ok())
      return failed(*status, result);

  Status status = dx->copyFromHost(x);
  if (status.ok())
    status = dy->copyFromHost(y);
  if (status.ok())
    status = dout->fill(0xFF); // NaN everywhere.
  if (status.ok())
    status = start->record();
  if (status.ok())
    status = kernel.launch(Dim3(result.Blocks), {*dx, *dy, *dout, n});
  if (status.ok())
    status = stop->record();
  if (status.ok())
    status = env.Ctx.synchronize();
  if (!status.ok())
    return failed(status, result);
  Expected<float> ms = Event::elapsedMs(*start, *stop);
  if (!ms)
    return failed(ms.status(), result);
  result.KernelMs = *ms;
  if (Status copy = dout->copyToHost(out); !copy.ok())
    return failed(copy, result);

  Comparison check = checkVectorAdd(x.data(), y.data(), out.data(), n);
  result.Mismatches = check.Mismatches;
  result.RelError = check.RelError;
  // Exactness is the criterion; the relative error is reported, and must
  // be a number (NaN never passes).
  result.Passed = check.Mismatches == 0 && check.RelError <= 1e-6;
  if (!check.FirstMismatches.empty())
    result.Note = "first mismatches:";
  for (std::uint64_t i : check.FirstMismatches)
    result.Note += "\n    out[" + std::to_string(i) +
                   "] = " + formatValue(out[i], "%.9g") + ", expected " +
                   formatValue(x[i], "%.9g") + " + " +
                   formatValue(y[i], "%.9g") + " = " +
                   formatValue(x[i] + y[i], "%.9g");
  return result;
}

/// Every test. To add a kernel: write a run function that fills inputs,
/// poisons outputs, launches, and checks every element; then add a line.
const std::vector<GpuTest> &registry() {
  static const std::vector<GpuTest> Tests = {
      {"vector_add",
       "vector_add.ptx",
       "add_kernel",
       {1, 1000, 1024, 1025, (1u << 20) + 3, 1u << 28},
       runVectorAdd},
      // The same kernel compiled with n declared a multiple of 16 (i32:16),
      // as Triton's launcher specializes it for such n.
      {"vector_add_n16",
       "vector_add_n16.ptx",
       "add_kernel",
       {16, 1024, 1040, (1u << 20) + 16, 1u << 28},
       runVectorAdd},
  };
  return Tests;
}

struct Options {
  std::string PtxDir = TILEC_EXAMPLES_PTX_DIR;
  std::string Only;
  bool List = false;
  bool HaveSeed = false;
  std::uint32_t Seed = 0;
  /// Sizes above this are left out (for slow stand-ins of the GPU).
  std::uint64_t MaxSize = UINT64_MAX;
};

void printUsage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--ptx-dir DIR] [--only NAME] [--seed N] "
               "[--max-size N] [--list]\n"
               "  --ptx-dir DIR  directory holding the examples' PTX "
               "(default %s)\n"
               "  --only NAME    run only the test NAME\n"
               "  --seed N       reuse the seed of an earlier run\n"
               "  --max-size N   leave out sizes above N\n"
               "  --list         list the tests and exit\n",
               argv0, TILEC_EXAMPLES_PTX_DIR);
}

bool parseOptions(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    std::string seed;
    if (arg == "--ptx-dir") {
      if (!value(options.PtxDir))
        return false;
    } else if (arg == "--only") {
      if (!value(options.Only))
        return false;
    } else if (arg == "--seed") {
      if (!value(seed))
        return false;
      char *end = nullptr;
      unsigned long parsed = std::strtoul(seed.c_str(), &end, 10);
      if (!end || *end != '\0' || parsed > UINT32_MAX)
        return false;
      options.Seed = static_cast<std::uint32_t>(parsed);
      options.HaveSeed = true;
    } else if (arg == "--max-size") {
      std::string size;
      if (!value(size))
        return false;
      char *end = nullptr;
      options.MaxSize = std::strtoull(size.c_str(), &end, 10);
      if (!end || *end != '\0' || size.empty())
        return false;
    } else if (arg == "--list") {
      options.List = true;
    } else {
      return false;
    }
  }
  return true;
}

void printRow(const char *test, const char *kernel, std::uint64_t n,
              const CaseResult &result) {
  std::string rel = formatValue(result.RelError, "%.3e");
  char time[32], rate[32];
  if (result.KernelMs > 0.0) {
    std::snprintf(time, sizeof(time), "%.4f", result.KernelMs);
    if (result.Bytes > 0.0)
      std::snprintf(rate, sizeof(rate), "%.1f",
                    result.Bytes / (result.KernelMs * 1e-3) / 1e9);
    else
      std::snprintf(rate, sizeof(rate), "-");
  } else {
    std::snprintf(time, sizeof(time), "-");
    std::snprintf(rate, sizeof(rate), "-");
  }
  std::printf("| %-16s | %-12s | %10" PRIu64 " | %8" PRIu64 " | %10" PRIu64
              " | %10s | %10s | %8s | %-6s |\n",
              test, kernel, n, result.Blocks, result.Mismatches, rel.c_str(),
              time, rate, result.Passed ? "PASS" : "FAIL");
  if (!result.Note.empty())
    std::printf("    note: %s\n", result.Note.c_str());
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options)) {
    printUsage(argv[0]);
    return 2;
  }
  if (options.List) {
    for (const GpuTest &test : registry())
      std::printf("%s (%s: %s)\n", test.Name, test.PtxFile, test.KernelName);
    return 0;
  }
  bool known = options.Only.empty();
  for (const GpuTest &test : registry())
    known |= options.Only == test.Name;
  if (!known) {
    std::fprintf(stderr, "tilec-gpu-tests: no test named '%s'\n",
                 options.Only.c_str());
    return 2;
  }

  Expected<Context> ctx = Context::create();
  if (!ctx) {
    if (ctx.status().isNoDevice()) {
      std::printf("SKIP: no CUDA device (%s)\n",
                  ctx.status().message().c_str());
      return 77;
    }
    std::fprintf(stderr, "tilec-gpu-tests: error: %s\n",
                 ctx.status().message().c_str());
    return 1;
  }

  std::uint32_t seed = options.Seed;
  if (!options.HaveSeed) {
    std::random_device device;
    seed = device();
  }
  std::printf("tilec-gpu-tests: %s\n", ctx->info().summary().c_str());
  std::printf("ptx dir: %s\nseed: %u (rerun with --seed %u)\n\n",
              options.PtxDir.c_str(), seed, seed);
  std::printf("| %-16s | %-12s | %10s | %8s | %10s | %10s | %10s | %8s | "
              "%-6s |\n",
              "test", "kernel", "n", "blocks", "mismatches", "rel. error",
              "time (ms)", "GB/s", "result");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n", "------------------",
              "--------------", "------------", "----------", "------------",
              "------------", "------------", "----------", "--------");
  std::fflush(stdout);

  TestEnv env{*ctx, seed};
  std::map<std::string, Module> modules;
  unsigned passed = 0, failedCount = 0;
  for (const GpuTest &test : registry()) {
    if (!options.Only.empty() && options.Only != test.Name)
      continue;
    std::string path = options.PtxDir + "/" + test.PtxFile;
    auto found = modules.find(path);
    Status loadStatus;
    if (found == modules.end()) {
      Expected<Module> module = Module::loadFile(*ctx, path);
      if (module)
        found = modules.emplace(path, module.take()).first;
      else
        loadStatus = module.status();
    }
    Expected<Kernel> kernel = found != modules.end()
                                  ? found->second.getKernel(test.KernelName)
                                  : Expected<Kernel>(loadStatus);
    if (!kernel) {
      printRow(test.Name, test.KernelName, 0, failed(kernel.status()));
      ++failedCount;
      continue;
    }
    for (std::uint64_t size : test.Sizes) {
      if (size > options.MaxSize) {
        std::printf("    (%s: size %" PRIu64 " left out by --max-size)\n",
                    test.Name, size);
        continue;
      }
      CaseResult result = test.Run(env, *kernel, size);
      printRow(test.Name, test.KernelName, size, result);
      ++(result.Passed ? passed : failedCount);
    }
  }

  std::printf("\ntilec-gpu-tests: %u passed, %u failed (seed %u)\n", passed,
              failedCount, seed);
  return failedCount == 0 ? 0 : 1;
}
