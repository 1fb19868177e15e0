//===- GpuTests.cpp - Run tilec's kernels on a GPU and check them ---------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-gpu-tests loads the PTX that tilec produced for the examples and the
// seed kernels, runs each kernel on a list of sizes (ragged ones included)
// with fresh random inputs and poisoned (NaN) outputs, compares every output
// element with a float64 reference computed on the host, and prints one
// table row per size: relative error, tolerance, kernel time (CUDA events,
// after one warm-up launch) and bandwidth or FLOP rate. Tests are entries of
// a registry (name, PTX file, kernel, configuration, sizes, run function);
// this file holds the driver and the vector-add family, the other families
// live in SoftmaxTests.cpp, LayerNormTests.cpp, MatmulTests.cpp and
// AttentionTests.cpp.
//
//   tilec-gpu-tests [--ptx-dir DIR] [--only NAMES] [--seed N] [--max-size N]
//                   [--list]
//
// NAMES is a comma-separated list of test names, each of which may contain
// '*' wildcards ("softmax*,matmul_ptr_fp16"). A missing PTX file or kernel,
// or a kernel whose num_warps differs from the test's, is a FAIL row naming
// the path. Exit status: 0 when every case passes, 1 otherwise, 2 for bad
// usage, 77 (after "SKIP: no CUDA device (...)") when there is no CUDA
// driver or device.
//
// The harness can be checked without tilec's code generator:
// bench/triton_reference_ptx.py compiles the same kernels with the same
// configurations with Triton into PTX this program loads.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#ifndef TILEC_EXAMPLES_PTX_DIR
#define TILEC_EXAMPLES_PTX_DIR "."
#endif

using namespace tilec::rt;
using namespace tilec::gpu;

//===----------------------------------------------------------------------===//
// vector_add and block_ptr_1d: out = x + y, fp32, exact
//===----------------------------------------------------------------------===//

namespace {

/// add_kernel(x, y, out, n) and add_bp_kernel(x, y, out, N): one program per
/// BLOCK elements; the sum must be exact (bit for bit).
CaseResult runVectorAdd(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                        const Shape &shape) {
  const std::uint64_t n = shape[0];
  const std::uint64_t block = test.Config.Block;
  CaseResult result;
  Dim3 grid(cdiv(n, block));
  result.Grid = gridString(grid);
  result.Bytes = 3.0 * sizeof(float) * n;

  // Mixed magnitudes make rounding visible.
  std::vector<float> x(n), y(n), out(n);
  fillRandomFloats(x.data(), n, env.Seed, env.NextStream++);
  fillRandomFloats(y.data(), n, env.Seed, env.NextStream++);

  std::size_t bytes = n * sizeof(float);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x.data(), bytes);
  DeviceBuffer &dy = buffers.input(y.data(), bytes);
  DeviceBuffer &dout = buffers.output(bytes);
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, dy, dout, n}, buffers, result);
  if (status.ok())
    status = dout.copyToHost(out);
  if (!status.ok())
    return failed(status, result);

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

/// chained_add_kernel four times in a row on one stream, each launch a
/// programmatic dependent launch of the one before: s1 = x + y, s2 = s1 + y,
/// s3 = s2 + y, s4 = s3 + y. Each reads its predecessor's output after
/// griddepcontrol.wait, so every sum must be exact in fp32.
CaseResult runChainedAddPdl(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  constexpr int Links = 4;
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = Links * 3.0 * sizeof(float) * n;
  std::vector<float> x(n), y(n), out(n);
  fillRandomFloats(x.data(), n, env.Seed, env.NextStream++);
  fillRandomFloats(y.data(), n, env.Seed, env.NextStream++);
  std::size_t bytes = n * sizeof(float);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x.data(), bytes);
  DeviceBuffer &dy = buffers.input(y.data(), bytes);
  std::vector<DeviceBuffer *> sums;
  for (int k = 0; k < Links; ++k)
    sums.push_back(&buffers.output(bytes));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Expected<Stream> stream = Stream::create(env.Ctx);
  if (!stream)
    return failed(stream.status(), result);
  LaunchOptions pdl;
  pdl.ProgrammaticDependentLaunch = true;
  Status status = buffers.reset();
  for (int k = 0; k < Links && status.ok(); ++k)
    status = kernel.launch(grid, {k ? *sums[k - 1] : dx, dy, *sums[k], n},
                           &*stream, pdl);
  if (status.ok())
    status = stream->synchronize();
  if (status.ok())
    status = sums.back()->copyToHost(out);
  if (status.ok())
    status = buffers.countOverruns(result.Overruns);
  if (!status.ok())
    return failed(status, result);
  std::vector<std::uint64_t> wrong;
  for (std::uint64_t i = 0; i < n; ++i) {
    float ref = x[i];
    for (int k = 0; k < Links; ++k)
      ref += y[i];
    if (!(out[i] == ref) && ++result.Mismatches <= 4)
      wrong.push_back(i);
  }
  result.RelError = result.Mismatches ? std::nan("") : 0.0;
  result.Passed = result.Mismatches == 0 && result.Overruns == 0;
  for (std::uint64_t i : wrong)
    result.Note +=
        "\n    s4[" + std::to_string(i) + "] = " + formatValue(out[i], "%.9g");
  return result;
}

} // namespace

void tilec::gpu::addVectorAddTests(std::vector<GpuTest> &tests) {
  TestConfig config;
  config.Block = 1024;
  config.Tol = Tolerance::exact();
  tests.push_back({"vector_add",
                   "vector_add.ptx",
                   "add_kernel",
                   {{1}, {1000}, {1024}, {1025}, {(1u << 20) + 3}, {1u << 28}},
                   runVectorAdd,
                   config});
  // The same kernel compiled with n declared a multiple of 16 (i32:16), as
  // Triton's launcher specializes it for such n.
  tests.push_back({"vector_add_n16",
                   "vector_add_n16.ptx",
                   "add_kernel",
                   {{16}, {1024}, {1040}, {(1u << 20) + 16}, {1u << 28}},
                   runVectorAdd,
                   config});
  // Homework 1 of the block-pointer lesson: the same sum through 1-D block
  // pointers whose boundary check replaces the mask.
  tests.push_back({"block_ptr_1d",
                   "block_ptr_1d.ptx",
                   "add_bp_kernel",
                   {{1}, {1000}, {1024}, {1025}, {(1u << 20) + 3}, {1u << 26}},
                   runVectorAdd,
                   config});
  // The sum with programmatic dependent launch's griddepcontrol.wait before
  // the loads and griddepcontrol.launch_dependents after them.
  tests.push_back({"vector_add_gdc",
                   "vector_add_gdc.ptx",
                   "chained_add_kernel",
                   {{1}, {1000}, {1025}, {(1u << 20) + 3}},
                   runVectorAdd,
                   config});
  // The same kernel chained four times by programmatic dependent launches.
  tests.push_back({"vector_add_gdc_pdl",
                   "vector_add_gdc.ptx",
                   "chained_add_kernel",
                   {{1}, {1000}, {1025}, {(1u << 20) + 3}},
                   runChainedAddPdl,
                   config});
}

//===----------------------------------------------------------------------===//
// The driver
//===----------------------------------------------------------------------===//

namespace {

/// Every test, in the order they run.
const std::vector<GpuTest> &registry() {
  static const std::vector<GpuTest> Tests = [] {
    std::vector<GpuTest> tests;
    addVectorAddTests(tests);
    addSoftmaxTests(tests);
    addLayerNormTests(tests);
    addMatmulTests(tests);
    addAttentionTests(tests);
    addElementwiseTests(tests);
    return tests;
  }();
  return Tests;
}

struct Options {
  std::string PtxDir = TILEC_EXAMPLES_PTX_DIR;
  /// Name patterns of --only (empty: every test).
  std::vector<std::string> Only;
  bool List = false;
  bool HaveSeed = false;
  std::uint32_t Seed = 0;
  /// Sizes whose dimensions multiply to more than this are left out (for
  /// slow stand-ins of the GPU).
  std::uint64_t MaxSize = UINT64_MAX;
};

void printUsage(const char *argv0) {
  std::fprintf(stderr,
               "usage: %s [--ptx-dir DIR] [--only NAMES] [--seed N] "
               "[--max-size N] [--list]\n"
               "  --ptx-dir DIR  directory holding the examples' PTX "
               "(default %s)\n"
               "  --only NAMES   run only these tests: a comma-separated "
               "list of names,\n"
               "                 '*' matches any text (\"softmax*\")\n"
               "  --seed N       reuse the seed of an earlier run\n"
               "  --max-size N   leave out sizes whose dimensions multiply "
               "to more than N\n"
               "  --list         list the tests and exit\n",
               argv0, TILEC_EXAMPLES_PTX_DIR);
}

/// True when \p text matches \p pattern, in which '*' matches any text.
bool matchesPattern(const char *pattern, const char *text) {
  if (*pattern == '\0')
    return *text == '\0';
  if (*pattern == '*')
    return matchesPattern(pattern + 1, text) ||
           (*text != '\0' && matchesPattern(pattern, text + 1));
  return *text == *pattern && matchesPattern(pattern + 1, text + 1);
}

bool isSelected(const Options &options, const GpuTest &test) {
  if (options.Only.empty())
    return true;
  for (const std::string &pattern : options.Only)
    if (matchesPattern(pattern.c_str(), test.Name.c_str()))
      return true;
  return false;
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
    std::string text;
    if (arg == "--ptx-dir") {
      if (!value(options.PtxDir))
        return false;
    } else if (arg == "--only") {
      if (!value(text))
        return false;
      std::size_t begin = 0;
      while (begin <= text.size()) {
        std::size_t end = text.find(',', begin);
        if (end == std::string::npos)
          end = text.size();
        if (end == begin)
          return false; // An empty name.
        options.Only.push_back(text.substr(begin, end - begin));
        begin = end + 1;
      }
    } else if (arg == "--seed") {
      if (!value(text))
        return false;
      char *end = nullptr;
      unsigned long parsed = std::strtoul(text.c_str(), &end, 10);
      if (text.empty() || !end || *end != '\0' || parsed > UINT32_MAX)
        return false;
      options.Seed = static_cast<std::uint32_t>(parsed);
      options.HaveSeed = true;
    } else if (arg == "--max-size") {
      if (!value(text))
        return false;
      char *end = nullptr;
      options.MaxSize = std::strtoull(text.c_str(), &end, 10);
      if (!end || *end != '\0' || text.empty())
        return false;
    } else if (arg == "--list") {
      options.List = true;
    } else {
      return false;
    }
  }
  return true;
}

void printList(const Options &options) {
  for (const GpuTest &test : registry()) {
    if (!isSelected(options, test))
      continue;
    std::string sizes;
    for (const Shape &shape : test.Sizes)
      sizes += (sizes.empty() ? "" : ", ") + shape.str();
    std::printf("%s (%s: %s) num_warps=%u tol=%s sizes: %s\n",
                test.Name.c_str(), test.PtxFile.c_str(),
                test.KernelName.c_str(), test.Config.NumWarps,
                test.Config.Tol.str().c_str(), sizes.c_str());
  }
}

void printHeader() {
  std::printf("| %-28s | %-18s | %-10s | %10s | %10s | %-6s | %10s | "
              "%-13s | %-6s |\n",
              "test", "size", "grid", "mismatches", "rel. error", "tol",
              "time (ms)", "rate", "result");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n",
              "------------------------------", "--------------------",
              "------------", "------------", "------------", "--------",
              "------------", "---------------", "--------");
  std::fflush(stdout);
}

void printRow(const GpuTest &test, const std::string &size,
              const CaseResult &result) {
  std::string rel = formatValue(result.RelError, "%.3e");
  char time[32] = "-", rate[32] = "-";
  if (result.KernelMs > 0.0) {
    std::snprintf(time, sizeof(time), "%.4f", result.KernelMs);
    double seconds = result.KernelMs * 1e-3;
    if (result.Bytes > 0.0)
      std::snprintf(rate, sizeof(rate), "%.1f GB/s",
                    result.Bytes / seconds / 1e9);
    else if (result.Flops > 0.0)
      std::snprintf(rate, sizeof(rate), "%.1f GF/s",
                    result.Flops / seconds / 1e9);
  }
  std::printf("| %-28s | %-18s | %-10s | %10" PRIu64
              " | %10s | %-6s | %10s | %-13s | %-6s |\n",
              test.Name.c_str(), size.c_str(), result.Grid.c_str(),
              result.Mismatches, rel.c_str(), test.Config.Tol.str().c_str(),
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
  for (const std::string &pattern : options.Only) {
    bool known = false;
    for (const GpuTest &test : registry())
      known |= matchesPattern(pattern.c_str(), test.Name.c_str());
    if (!known) {
      std::fprintf(stderr, "tilec-gpu-tests: no test named '%s'\n",
                   pattern.c_str());
      return 2;
    }
  }
  if (options.List) {
    printList(options);
    return 0;
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
  std::printf("ptx dir: %s\nseed: %u (rerun with --seed %u)\n",
              options.PtxDir.c_str(), seed, seed);
  std::printf("rel. error: ||out - ref|| / ||ref|| against float64; tol: "
              "its bound (each element must also\nlie within 10 tol * "
              "(|ref| + rms(ref))); time: one launch after a warm-up\n\n");
  printHeader();

  TestEnv env{*ctx, seed};
  std::map<std::string, Module> modules;
  unsigned passed = 0, failedCount = 0;
  for (const GpuTest &test : registry()) {
    if (!isSelected(options, test))
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
    if (kernel && kernel->metadata().NumWarps != test.Config.NumWarps)
      kernel = Status::invalidArgument(
          path + ": kernel '" + test.KernelName +
          "' has num_warps=" + std::to_string(kernel->metadata().NumWarps) +
          ", the test expects " + std::to_string(test.Config.NumWarps));
    if (!kernel) {
      printRow(test, "-", failed(kernel.status()));
      ++failedCount;
      continue;
    }
    for (const Shape &shape : test.Sizes) {
      if (shape.count() > options.MaxSize) {
        std::printf("    (%s: size %s left out by --max-size)\n",
                    test.Name.c_str(), shape.str().c_str());
        continue;
      }
      CaseResult result = test.Run(env, test, *kernel, shape);
      if (result.Overruns)
        result.Passed = false;
      printRow(test, shape.str(), result);
      ++(result.Passed ? passed : failedCount);
    }
  }

  std::printf("\ntilec-gpu-tests: %u passed, %u failed (seed %u)\n", passed,
              failedCount, seed);
  return failedCount == 0 ? 0 : 1;
}
