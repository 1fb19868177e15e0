//===- main.cpp - A host program that runs tilec kernels ------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// What a C++ application does with tilec, in five steps (--steps picks
// some; all by default):
//
//   aot-vector-add  vector_add through its generated launcher, which picks
//                   the variant for the arguments' alignment and sizes;
//   aot-matmul      the seed matmul through its generated launcher, tuned on
//                   first use for (M, N, K) and remembered in the tuning file;
//   aot-desc-matmul examples/persistent_matmul.tile through its generated
//                   launcher, given host-side tensor descriptors;
//   jit-matmul      the same kernel compiled at run time from the .tile
//                   source, specialized on the arguments and cached on disk:
//                   a second run compiles nothing;
//   jit-desc-matmul examples/matmul_descriptor_autotune.tile through the JIT
//                   on tensor descriptors of a placeholder block, the blocks
//                   set by its @triton.autotune configuration's pre_hook.
//
// Each step checks its results against the CPU and prints one line. Errors
// are exceptions (tilec/Runtime/Error.h). Options:
//   --steps a,b     the steps to run
//   --size N        the matmul is N x N x N (default 512; jit-desc-matmul's
//                   is 520 x 520 x 520)
//   --matmul-source PATH   the .tile file of the jit-matmul step
//   --desc-matmul-source PATH   the .tile file of the jit-desc-matmul step
//   --jit-no-launch compile and load the JIT kernels without launching them
//                   (fills the cache for a machine without a compiler)
// Exit status 0 when every step passed, 1 otherwise, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "add_kernel.h"
#include "matmul_ptr_kernel.h"
#include "persistent_matmul_kernel.h"

#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/Jit.h"
#ifdef HOST_APP_HAS_COMPILER
#include "tilec/JIT/Compiler.h"
#endif

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace tilec::rt;

namespace {

struct Options {
  std::string Steps =
      "aot-vector-add,aot-matmul,aot-desc-matmul,jit-matmul,jit-desc-matmul";
  std::int32_t Size = 512;
  std::string MatmulSource = HOST_APP_MATMUL_TILE;
  std::string DescMatmulSource = HOST_APP_DESC_MATMUL_TILE;
  /// The jit-desc-matmul step's N: rows of 16-byte multiples, as TMA needs,
  /// and not a multiple of the 128-row blocks (ragged edges).
  std::int32_t DescSize = 520;
  bool JitNoLaunch = false;

  bool has(const char *step) const {
    return ("," + Steps + ",").find(std::string(",") + step + ",") !=
           std::string::npos;
  }
};

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

float halfToFloat(std::uint16_t bits) {
  std::uint32_t sign = (bits & 0x8000u) << 16;
  std::uint32_t exponent = (bits >> 10) & 0x1f;
  std::uint32_t mantissa = bits & 0x3ff;
  std::uint32_t out;
  if (exponent == 0 && mantissa == 0) {
    out = sign;
  } else if (exponent == 0) { // subnormal
    exponent = 113;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      --exponent;
    }
    out = sign | (exponent << 23) | ((mantissa & 0x3ff) << 13);
  } else if (exponent == 31) {
    out = sign | 0x7f800000u | (mantissa << 13);
  } else {
    out = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &out, sizeof(value));
  return value;
}

bool runVectorAdd(const Context &ctx) {
  const std::int32_t n = 1 << 20;
  std::vector<float> x(n), y(n), out(n);
  for (std::int32_t i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1.0f - i;
  }
  DeviceBuffer dx = value(DeviceBuffer::allocate(ctx, n * sizeof(float)));
  DeviceBuffer dy = value(DeviceBuffer::allocate(ctx, n * sizeof(float)));
  DeviceBuffer dout = value(DeviceBuffer::allocate(ctx, n * sizeof(float)));
  check(dx.copyFromHost(x));
  check(dy.copyFromHost(y));
  TensorView vx(dx, ScalarType::FP32, {n}), vy(dy, ScalarType::FP32, {n}),
      vout(dout, ScalarType::FP32, {n});
  check(
      tilec_kernels::add_kernel(ctx, Dim3((n + 1023) / 1024), vx, vy, vout, n));
  check(ctx.synchronize());
  check(dout.copyToHost(out));
  std::int32_t wrong = 0;
  for (std::int32_t i = 0; i < n; ++i)
    wrong += out[i] != x[i] + y[i];
  std::printf("aot-vector-add: n=%d variant %s: %s\n", n,
              tilec_kernels::add_kernel_variant(vx, vy, vout, n),
              wrong ? "FAIL" : "PASS");
  return wrong == 0;
}

/// The matmul's operands and result, contiguous fp16 N x N.
struct Matmul {
  Matmul(const Context &ctx, std::int32_t n) : N(n) {
    std::vector<std::uint16_t> a(n * n), b(n * n);
    HostA.resize(n * n);
    HostB.resize(n * n);
    for (std::int32_t i = 0; i < n; ++i)
      for (std::int32_t j = 0; j < n; ++j) {
        // Quarters in [-1, 1]: exact in fp16, sums exact in fp32.
        HostA[i * n + j] = ((i * 7 + j * 3) % 9 - 4) * 0.25f;
        HostB[i * n + j] = ((i * 5 + j * 11) % 9 - 4) * 0.25f;
        a[i * n + j] = floatToHalfBits(HostA[i * n + j]);
        b[i * n + j] = floatToHalfBits(HostB[i * n + j]);
      }
    std::size_t bytes = std::size_t(n) * n * sizeof(std::uint16_t);
    A = value(DeviceBuffer::allocate(ctx, bytes));
    B = value(DeviceBuffer::allocate(ctx, bytes));
    C = value(DeviceBuffer::allocate(ctx, bytes));
    check(A.copyFromHost(a));
    check(B.copyFromHost(b));
  }

  TensorView view(const DeviceBuffer &buffer) const {
    return TensorView(buffer, ScalarType::FP16, {N, N});
  }

  /// Compares C with the CPU product; returns the largest error.
  double maxError() const {
    std::vector<std::uint16_t> c(std::size_t(N) * N);
    check(C.copyToHost(c));
    double worst = 0;
    for (std::int32_t i = 0; i < N; ++i)
      for (std::int32_t j = 0; j < N; ++j) {
        float expected = 0;
        for (std::int32_t k = 0; k < N; ++k)
          expected += HostA[i * N + k] * HostB[k * N + j];
        // fp16 output: compare relative to the value's magnitude.
        double error = std::fabs(halfToFloat(c[i * N + j]) - expected) /
                       std::max(1.0f, std::fabs(expected));
        worst = std::max(worst, error);
      }
    return worst;
  }

  std::int32_t N;
  std::vector<float> HostA, HostB;
  DeviceBuffer A, B, C;
};

constexpr double MatmulTolerance = 1e-2;

/// Waits for the product `mm` of step `step` and prints its line
/// ("STEP: NxNxN<detail>max rel error E: PASS"); returns whether it passed.
bool reportMatmul(const Context &ctx, const Matmul &mm, const char *step,
                  const char *detail) {
  check(ctx.synchronize());
  double error = mm.maxError();
  bool pass = error <= MatmulTolerance;
  std::printf("%s: %dx%dx%d%smax rel error %.2g: %s\n", step, mm.N, mm.N, mm.N,
              detail, error, pass ? "PASS" : "FAIL");
  return pass;
}

bool runAotMatmul(const Context &ctx, std::int32_t n) {
  Matmul mm(ctx, n);
  auto grid = [n](const tilec_kernels::matmul_ptr_kernel_config &config) {
    return Dim3((n + config.BLOCK_M - 1) / config.BLOCK_M,
                (n + config.BLOCK_N - 1) / config.BLOCK_N);
  };
  auto launch = [&] {
    check(tilec_kernels::matmul_ptr_kernel(ctx, grid, mm.view(mm.A),
                                           mm.view(mm.B), mm.view(mm.C), n, n,
                                           n, n, 1, n, 1, n, 1));
  };
  auto start = std::chrono::steady_clock::now();
  launch(); // Tunes, when (M, N, K) is new to the tuning file.
  check(ctx.synchronize());
  double firstMs = millisecondsSince(start);
  unsigned tuned = tilec_kernels::matmul_ptr_kernel_tuner().tunedCount();
  start = std::chrono::steady_clock::now();
  launch(); // Reuses the choice.
  check(ctx.synchronize());
  double secondMs = millisecondsSince(start);
  unsigned tunedAgain = tilec_kernels::matmul_ptr_kernel_tuner().tunedCount();

  double error = mm.maxError();
  bool pass = error <= MatmulTolerance && tunedAgain == tuned;
  std::printf("aot-matmul: %dx%dx%d variant %s, tuned now %u (file %s), "
              "first call %.3f ms, second %.3f ms, max rel error %.2g: %s\n",
              n, n, n,
              tilec_kernels::matmul_ptr_kernel_variant(mm.A, mm.B, mm.C, n, n,
                                                       n, n, 1, n, 1, n, 1),
              tuned, tilec_kernels::matmul_ptr_kernel_tuner().file().c_str(),
              firstMs, secondMs, error, pass ? "PASS" : "FAIL");
  return pass;
}

/// The persistent matmul of examples/persistent_matmul.tile through its
/// generated launcher, which takes host-side tensor descriptors (Triton's
/// TensorDescriptor.from_tensor) of blocks 128 x 64, 64 x 128, 128 x 128.
bool runAotDescMatmul(const Context &ctx, std::int32_t n) {
  Matmul mm(ctx, n);
  auto describe = [&](const DeviceBuffer &buffer, std::int64_t rows,
                      std::int64_t cols) {
    return value(TensorDescriptor::fromTensor(mm.view(buffer), {rows, cols}));
  };
  TensorDescriptor a = describe(mm.A, 128, 64);
  TensorDescriptor b = describe(mm.B, 64, 128);
  TensorDescriptor c = describe(mm.C, 128, 128);
  std::int32_t tiles = ((n + 127) / 128) * ((n + 127) / 128);
  check(tilec_kernels::persistent_matmul_kernel(ctx, Dim3(std::min(tiles, 132)),
                                                a, b, c, n, n, n));
  return reportMatmul(ctx, mm, "aot-desc-matmul",
                      " through tensor descriptors, ");
}

bool runJitMatmul(const Context &ctx, const Options &options) {
#ifdef HOST_APP_HAS_COMPILER
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  const char *mode = "compiler linked";
#else
  std::unique_ptr<KernelCompiler> compiler;
  const char *mode = "no compiler: cache only";
#endif
  std::int32_t n = options.Size;
  std::unique_ptr<JitKernel> kernel = value(JitKernel::fromFile(
      options.MatmulSource, "matmul_ptr_kernel", compiler.get()));
  JitConfig config;
  config.Constexprs = {{"BLOCK_M", "64"}, {"BLOCK_N", "64"}, {"BLOCK_K", "32"}};
  Matmul mm(ctx, n);
  std::initializer_list<JitArg> args = {
      mm.view(mm.A), mm.view(mm.B), mm.view(mm.C), n, n, n, n, 1, n, 1, n, 1};
  Dim3 grid((n + 63) / 64, (n + 63) / 64);

  auto start = std::chrono::steady_clock::now();
  check(kernel->prepare(ctx, args, config).status());
  double prepareMs = millisecondsSince(start);
  JitStats stats = kernel->stats();
  std::printf("jit-matmul: %s, cache %s: first use %.1f ms, compiled %u, "
              "from disk %u\n",
              mode, kernel->cache().directory().c_str(), prepareMs,
              stats.Compiled, stats.FromDisk);
  if (options.JitNoLaunch)
    return true;
  check(kernel->launch(ctx, grid, args, config));
  return reportMatmul(ctx, mm, "jit-matmul", " ");
}

/// examples/matmul_descriptor_autotune.tile through the JIT, as Triton's
/// persistent-matmul tutorial calls its descriptor kernel: descriptors built
/// with a placeholder 1 x 1 block, and the configuration's pre_hook setting
/// the blocks the kernel loads and stores (128 x 64, 64 x 128, 128 x 128),
/// from which the runtime builds its tensor maps.
bool runJitDescMatmul(const Context &ctx, const Options &options) {
#ifdef HOST_APP_HAS_COMPILER
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
#else
  std::unique_ptr<KernelCompiler> compiler;
#endif
  std::int32_t n = options.DescSize;
  std::unique_ptr<JitKernel> kernel = value(JitKernel::fromFile(
      options.DescMatmulSource, "matmul_descriptor_kernel", compiler.get()));
  // The first of the kernel's @triton.autotune configurations.
  JitConfig config;
  config.Constexprs = {
      {"BLOCK_M", "128"}, {"BLOCK_N", "128"}, {"BLOCK_K", "64"}};
  config.NumWarps = 8;
  Matmul mm(ctx, n);
  auto placeholder = [&](const DeviceBuffer &buffer) {
    return value(TensorDescriptor::fromTensor(mm.view(buffer), {1, 1}));
  };
  TensorDescriptor a = placeholder(mm.A), b = placeholder(mm.B),
                   c = placeholder(mm.C);
  std::initializer_list<JitArg> args = {a, b, c, n, n, n};
  check(kernel->prepare(ctx, args, config).status());
  JitStats stats = kernel->stats();
  std::printf("jit-desc-matmul: compiled %u, from disk %u\n", stats.Compiled,
              stats.FromDisk);
  if (options.JitNoLaunch)
    return true;
  check(kernel->launch(ctx, Dim3((n + 127) / 128, (n + 127) / 128), args,
                       config));
  return reportMatmul(ctx, mm, "jit-desc-matmul",
                      ", blocks from the pre_hook, ");
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--steps" && i + 1 < argc) {
      options.Steps = argv[++i];
    } else if (arg == "--size" && i + 1 < argc) {
      options.Size = std::atoi(argv[++i]);
    } else if (arg == "--matmul-source" && i + 1 < argc) {
      options.MatmulSource = argv[++i];
    } else if (arg == "--desc-matmul-source" && i + 1 < argc) {
      options.DescMatmulSource = argv[++i];
    } else if (arg == "--jit-no-launch") {
      options.JitNoLaunch = true;
    } else {
      std::fprintf(stderr,
                   "usage: host-app [--steps aot-vector-add,aot-matmul,"
                   "aot-desc-matmul,jit-matmul,jit-desc-matmul] [--size N] "
                   "[--matmul-source FILE] [--desc-matmul-source FILE] "
                   "[--jit-no-launch]\n");
      return 2;
    }
  }

  Expected<Context> ctx = Context::create();
  if (!ctx) {
    std::printf("SKIP: %s\n", ctx.status().message().c_str());
    return ctx.status().isNoDevice() ? 77 : 1;
  }
  std::printf("device: %s\n", ctx->info().summary().c_str());
  bool pass = true;
  try {
    if (options.has("aot-vector-add"))
      pass &= runVectorAdd(*ctx);
    if (options.has("aot-matmul"))
      pass &= runAotMatmul(*ctx, options.Size);
    if (options.has("aot-desc-matmul"))
      pass &= runAotDescMatmul(*ctx, options.Size);
    if (options.has("jit-matmul"))
      pass &= runJitMatmul(*ctx, options);
    if (options.has("jit-desc-matmul"))
      pass &= runJitDescMatmul(*ctx, options);
  } catch (const Error &error) {
    std::printf("FAIL: %s\n", error.what());
    return 1;
  }
  std::printf("host-app: %s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
