//===- BenchMain.cpp - The tilec-bench driver -----------------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-bench times tilec's kernels through the runtime and prints, per
// compiled variant, a line shared with the Triton/torch scripts of bench/:
//
//   BENCH vector_add impl=tilec n=268435456 median_ms=0.7000 gbps=4601.3
//   BENCH softmax impl=tilec-w8 rows=8192 cols=4096 median_ms=0.1 gbps=...
//   BENCH matmul impl=tilec dtype=fp16 m=M n=N k=K median_ms=T tflops=R
//
//   tilec-bench [--kernel vector_add|softmax|matmul] [--ptx-dir DIR] [--n N]
//               [--rows R] [--cols C] [--size S] [--block MxNxK]
//               [--iters K] [--warmup W]
//
// This file parses the options, creates the CUDA context and runs the
// family --kernel names (vector_add_bench.cpp, softmax_bench.cpp,
// matmul_bench.cpp). Exit status: 0 on success, 1 on failure (including a
// wrong result), 2 for bad usage, 77 (after "SKIP: ...") without a CUDA
// driver or device.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include <cstdlib>

#ifndef TILEC_EXAMPLES_PTX_DIR
#define TILEC_EXAMPLES_PTX_DIR "."
#endif

using namespace tilec::rt;
using namespace tilec::bench;

namespace {

bool parseNumber(const char *text, std::uint64_t &value) {
  char *end = nullptr;
  value = std::strtoull(text, &end, 10);
  return end && end != text && *end == '\0';
}

bool parseOptions(int argc, char **argv, BenchOptions &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (i + 1 >= argc)
      return false;
    const char *value = argv[++i];
    std::uint64_t number = 0;
    if (arg == "--kernel" &&
        (std::string(value) == "vector_add" ||
         std::string(value) == "softmax" || std::string(value) == "matmul")) {
      options.Kernel = value;
    } else if (arg == "--ptx-dir") {
      options.PtxDir = value;
    } else if (arg == "--n" && parseNumber(value, number) && number > 0 &&
               number <= 0x7fffffffu) {
      options.N = number;
    } else if (arg == "--rows" && parseNumber(value, number) && number > 0 &&
               number <= 0x7fffffffu) {
      options.Rows = number;
    } else if (arg == "--cols" && parseNumber(value, number) && number > 0 &&
               number <= 4096) {
      options.Cols = number;
    } else if (arg == "--size" && parseNumber(value, number) && number > 0 &&
               number <= 32768) {
      options.Size = number;
    } else if (arg == "--block" && std::sscanf(value, "%ux%ux%u",
                                               &options.BlockM, &options.BlockN,
                                               &options.BlockK) == 3 &&
               options.BlockM && options.BlockN && options.BlockK) {
    } else if (arg == "--iters" && parseNumber(value, number) && number >= 1 &&
               number <= 100000) {
      options.Iters = static_cast<unsigned>(number);
      options.ItersGiven = true;
    } else if (arg == "--warmup" && parseNumber(value, number) &&
               number <= 100000) {
      options.Warmup = static_cast<unsigned>(number);
      options.WarmupGiven = true;
    } else {
      return false;
    }
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  BenchOptions options;
  options.PtxDir = TILEC_EXAMPLES_PTX_DIR;
  if (!parseOptions(argc, argv, options)) {
    std::fprintf(
        stderr,
        "usage: %s [--kernel vector_add|softmax|matmul] [--ptx-dir DIR]\n"
        "          [--n N] [--rows R] [--cols C] [--size S] [--block MxNxK]\n"
        "          [--iters K] [--warmup W]\n"
        "  defaults: --kernel vector_add --ptx-dir %s --n 268435456\n"
        "            --rows 8192 --cols 4096 (softmax; cols <= 4096)\n"
        "            --iters 200 --warmup 20 (matmul: 100 and 10)\n"
        "  matmul: fp16/bf16 at 4096^3, 8192^3, 4000^3 and tf32 at 4096^3,\n"
        "          8192^3, or every dtype at S^3 with --size S; --block\n"
        "          gives the blocks the PTX was built with when they are not\n"
        "          the table's (to time other tile shapes)\n",
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
  if (options.Kernel == "softmax")
    return benchSoftmax(*ctx, options);
  if (options.Kernel == "matmul")
    return benchMatmul(*ctx, options);
  return benchVectorAdd(*ctx, options);
}
