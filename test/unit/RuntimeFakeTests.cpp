//===- RuntimeFakeTests.cpp - Launchers, tuning and JIT on the fake GPU ---===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Runs with TILEC_CUDA_LIBRARY pointing at the fake driver of test/gpu,
// which emulates examples/vector_add.tile's add_kernel (BLOCK=1024, four
// warps) on the CPU. The launchers under test are generated at build time
// by tilec_add_kernels (see CMakeLists.txt): add_kernel_aot.h (variants
// i32:16, pointers :16, generic), add_kernel_tuned.h (two configurations
// tuned on n), add_kernel_baked.h (the same with a tuning file baked in)
// matmul_desc_aot.h (examples/seeds/matmul_desc.tile, whose launch
// requirements the launchers check; the fake does not run it) and
// persistent_matmul_aot.h (examples/persistent_matmul.tile, taking host-side
// tensor descriptors; not run either).
// The JIT tests compile vector_add.tile in process with tilec::jit.
//
//===----------------------------------------------------------------------===//

#include "add_kernel_aot.h"
#include "add_kernel_baked.h"
#include "add_kernel_tuned.h"
#include "matmul_desc_aot.h"
#include "persistent_matmul_aot.h"

#include "tilec/JIT/Compiler.h"
#include "tilec/Runtime/Jit.h"

#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

using namespace tilec::rt;
using Catch::Matchers::Contains;

namespace {

/// x[i] = i, y[i] = 2i and a poisoned output, n floats each.
struct Inputs {
  Inputs(const Context &ctx, std::int32_t n) : N(n) {
    std::vector<float> x(n), y(n);
    for (std::int32_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = 2.0f * i;
    }
    X = DeviceBuffer::allocate(ctx, n * sizeof(float)).take();
    Y = DeviceBuffer::allocate(ctx, n * sizeof(float)).take();
    Out = DeviceBuffer::allocate(ctx, n * sizeof(float)).take();
    REQUIRE(X.copyFromHost(x).ok());
    REQUIRE(Y.copyFromHost(y).ok());
    REQUIRE(Out.fill(0xff).ok());
  }

  /// Checks out[i] = 3i for i in [first, N).
  void checkOutput(std::int32_t first = 0) const {
    std::vector<float> out(N);
    REQUIRE(Out.copyToHost(out).ok());
    std::int32_t wrong = 0;
    for (std::int32_t i = first; i < N; ++i)
      wrong += out[i] != 3.0f * i;
    CHECK(wrong == 0);
  }

  TensorView view(const DeviceBuffer &buffer) const {
    return TensorView(buffer, ScalarType::FP32, {N});
  }

  std::int32_t N;
  DeviceBuffer X, Y, Out;
};

Context makeContext() {
  Expected<Context> ctx = Context::create();
  INFO(ctx.status().message());
  REQUIRE(ctx.ok());
  return ctx.take();
}

Dim3 blocksFor(std::int32_t n) { return Dim3((n + 1023) / 1024); }

std::string freshPath(const std::string &name) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("tilec-fake-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(path);
  return path.string();
}

DevicePtr offset(const DeviceBuffer &buffer, std::uint64_t bytes) {
  return DevicePtr{buffer.ptr().Address + bytes};
}

} // namespace

TEST_CASE("A generated launcher takes the most specialized variant",
          "[fake][aot]") {
  Context ctx = makeContext();
  Inputs a(ctx, 4096), b(ctx, 4008);
  CHECK(std::string(aot::add_kernel_variant(a.X, a.Y, a.Out, a.N)) ==
        "0d1d2d3d");
  CHECK(std::string(aot::add_kernel_variant(b.X, b.Y, b.Out, b.N)) == "0d1d2d");
  CHECK(std::string(aot::add_kernel_variant(offset(b.X, 4), b.Y, b.Out, b.N)) ==
        "generic");

  REQUIRE(aot::add_kernel(ctx, blocksFor(a.N), a.view(a.X), a.view(a.Y),
                          a.view(a.Out), a.N)
              .ok());
  a.checkOutput();
  REQUIRE(aot::add_kernel(ctx, blocksFor(b.N), b.X, b.Y, b.Out, b.N).ok());
  b.checkOutput();

  // On an explicit stream.
  Stream stream = Stream::create(ctx).take();
  Inputs onStream(ctx, 2048);
  REQUIRE(aot::add_kernel(ctx, blocksFor(onStream.N), onStream.X, onStream.Y,
                          onStream.Out, onStream.N, &stream)
              .ok());
  REQUIRE(stream.synchronize().ok());
  onStream.checkOutput();

  // Misaligned pointers (one element in) fall back to the generic kernel.
  Inputs c(ctx, 3000);
  REQUIRE(aot::add_kernel(ctx, blocksFor(c.N - 1), offset(c.X, 4),
                          offset(c.Y, 4), offset(c.Out, 4), c.N - 1)
              .ok());
  c.checkOutput(1);
  REQUIRE(ctx.synchronize().ok());
}

TEST_CASE("A variant's launcher checks every assumption", "[fake][aot]") {
  Context ctx = makeContext();
  Inputs in(ctx, 4008);
  Status notMultiple =
      aot::add_kernel_0d1d2d3d(ctx, blocksFor(in.N), in.X, in.Y, in.Out, in.N);
  REQUIRE_FALSE(notMultiple.ok());
  CHECK(notMultiple.message() ==
        "kernel 'add_kernel' (variant '*fp32:16, *fp32:16, *fp32:16, "
        "i32:16'): argument 'n' = 4008 is not a multiple of 16");

  Status misaligned = aot::add_kernel_0d1d2d(ctx, blocksFor(in.N), in.X,
                                             offset(in.Y, 8), in.Out, 16);
  REQUIRE_FALSE(misaligned.ok());
  char address[32];
  std::snprintf(address, sizeof(address), "0x%llx",
                static_cast<unsigned long long>(in.Y.ptr().Address + 8));
  CHECK(misaligned.message() ==
        std::string("kernel 'add_kernel' (variant '*fp32:16, *fp32:16, "
                    "*fp32:16, i32'): argument 'y_ptr' = ") +
            address + " is not 16-byte aligned");
  // A negative integer prints as one.
  Status negative =
      aot::add_kernel_0d1d2d3d(ctx, Dim3(1), in.X, in.Y, in.Out, -8 + 1);
  CHECK_THAT(negative.message(), Contains("argument 'n' = -7 is not"));

  TensorView halves(in.X, ScalarType::FP16, {in.N});
  Status wrongType =
      aot::add_kernel(ctx, blocksFor(in.N), halves, in.Y, in.Out, in.N);
  REQUIRE_FALSE(wrongType.ok());
  CHECK(wrongType.message() == "kernel 'add_kernel', argument 'x_ptr': a "
                               "tensor of fp16 was passed for *fp32");

  // The generic variant assumes nothing.
  CHECK(aot::add_kernel_generic(ctx, blocksFor(in.N), in.X, in.Y, in.Out, in.N)
            .ok());
  in.checkOutput();
}

TEST_CASE("Generated launchers load once and are thread-safe", "[fake][aot]") {
  Context ctx = makeContext();
  std::vector<Inputs> inputs;
  for (int i = 0; i < 8; ++i)
    inputs.emplace_back(ctx, 1000 + 16 * i);
  std::vector<std::thread> threads;
  for (Inputs &in : inputs)
    threads.emplace_back([&ctx, &in] {
      REQUIRE(ctx.makeCurrent().ok());
      for (int j = 0; j < 20; ++j)
        REQUIRE(aot::add_kernel(ctx, blocksFor(in.N), in.X, in.Y, in.Out, in.N)
                    .ok());
    });
  for (std::thread &thread : threads)
    thread.join();
  for (Inputs &in : inputs)
    in.checkOutput();
}

TEST_CASE("The autotuner keeps the fastest configuration", "[fake][tune]") {
  Context ctx = makeContext();
  std::string file = freshPath("tuner.tsv");
  TuningOptions options;
  options.Warmup = 1;
  // Three rounds (the median) and sleeps far apart: the machine running the
  // test may be busy, and one descheduled millisecond must not reorder them.
  options.Rounds = 3;
  options.LaunchesPerRound = 1;
  options.Progress = false;
  // The fake's events measure host time, so sleeping is "running".
  auto sleepy = [](unsigned config) {
    static const int millis[] = {20, 1, 8};
    std::this_thread::sleep_for(std::chrono::milliseconds(millis[config]));
    return Status::success();
  };
  Autotuner tuner("k", {"slow", "fast", "medium"}, {}, file, options);
  Expected<unsigned> chosen = tuner.choose(ctx, "n=1", sleepy);
  REQUIRE(chosen.ok());
  CHECK(*chosen == 1);
  CHECK(tuner.tunedCount() == 1);

  // A later run reads the choice instead of timing again.
  auto mustNotRun = [](unsigned) {
    FAIL("a remembered choice was tuned again");
    return Status::success();
  };
  Autotuner later("k", {"slow", "fast", "medium"}, {}, file, options);
  chosen = later.choose(ctx, "n=1", mustNotRun);
  REQUIRE(chosen.ok());
  CHECK(*chosen == 1);
  CHECK(later.tunedCount() == 0);
  // A configuration the kernel no longer has is not taken from the file.
  Autotuner renamed("k", {"slow", "medium"}, {}, file, options);
  CHECK(renamed.choose(ctx, "n=1", sleepy).ok());
  CHECK(renamed.tunedCount() == 1);

  // A failing launch names the kernel, key and configuration.
  Autotuner failing("k", {"only"}, {}, file, options);
  Expected<unsigned> failed = failing.choose(
      ctx, "n=2", [](unsigned) { return Status::invalidArgument("boom"); });
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().message() ==
        "tuning kernel 'k' for n=2, config only: boom");
  std::filesystem::remove(file);
}

TEST_CASE("A tuned launcher tunes once per key and remembers",
          "[fake][tune][aot]") {
  std::string file = freshPath("tuned.tsv");
  ::setenv("TILEC_TUNING_FILE", file.c_str(), 1);
  Context ctx = makeContext();
  Inputs in(ctx, 4096);
  auto grid = [&](const tuned::add_kernel_config &config) {
    return Dim3((in.N + config.BLOCK - 1) / config.BLOCK);
  };
  REQUIRE(tuned::add_kernel(ctx, grid, in.X, in.Y, in.Out, in.N).ok());
  in.checkOutput();
  CHECK(tuned::add_kernel_tuner().tunedCount() == 1);
  REQUIRE(tuned::add_kernel(ctx, grid, in.X, in.Y, in.Out, in.N).ok());
  CHECK(tuned::add_kernel_tuner().tunedCount() == 1);

  std::string contents;
  REQUIRE(readFile(file, contents).ok());
  CHECK_THAT(contents, Contains("add_kernel\tn=4096\tBLOCK=1024,num_warps=4,"
                                "num_stages="));
  // One configuration explicitly, whatever was tuned.
  REQUIRE(tuned::add_kernel_0d1d2d(ctx, grid(tuned::add_kernel_configs[0]), 0,
                                   in.X, in.Y, in.Out, in.N)
              .ok());
  CHECK_FALSE(
      tuned::add_kernel_0d1d2d(ctx, Dim3(4), 2, in.X, in.Y, in.Out, in.N).ok());
  std::filesystem::remove(file);
}

TEST_CASE("Choices baked into a launcher are not tuned again",
          "[fake][tune][aot]") {
  std::string file = freshPath("baked.tsv");
  ::setenv("TILEC_TUNING_FILE", file.c_str(), 1);
  Context ctx = makeContext();
  Inputs in(ctx, 4096);
  auto grid = [&](const baked::add_kernel_config &config) {
    return Dim3((in.N + config.BLOCK - 1) / config.BLOCK);
  };
  // Inputs/add_kernel.tuning.tsv holds a choice for n=4096.
  REQUIRE(baked::add_kernel(ctx, grid, in.X, in.Y, in.Out, in.N).ok());
  in.checkOutput();
  CHECK(baked::add_kernel_tuner().tunedCount() == 0);
  CHECK_FALSE(std::filesystem::exists(file));
  // Another key is tuned at run time.
  REQUIRE(baked::add_kernel(ctx, grid, in.X, in.Y, in.Out, 2048).ok());
  CHECK(baked::add_kernel_tuner().tunedCount() == 1);
  std::filesystem::remove(file);
}

TEST_CASE("The JIT compiles a specialization once, then reads the cache",
          "[fake][jit]") {
  Context ctx = makeContext();
  std::string dir = freshPath("jit-cache");
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};

  auto kernel = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                    compiler.get(), DiskCache(dir));
  REQUIRE(kernel.ok());
  Inputs in(ctx, 4008);
  auto launch = [&](JitKernel &k, std::int32_t n) {
    return k.launch(ctx, blocksFor(n),
                    {in.view(in.X), in.view(in.Y), in.view(in.Out), n}, config);
  };
  Status first = launch(**kernel, in.N);
  INFO(first.message());
  REQUIRE(first.ok());
  in.checkOutput();
  REQUIRE(launch(**kernel, in.N).ok());
  // 4008 is i32:8 (a multiple of 8, not of 16: tilec's hint beyond
  // Triton's); 3968 i32:16, 4001 i32: two other specializations; 3992 i32:8
  // again.
  REQUIRE(launch(**kernel, 3968).ok());
  REQUIRE(launch(**kernel, 4001).ok());
  REQUIRE(launch(**kernel, 3992).ok());
  JitStats stats = (*kernel)->stats();
  CHECK(stats.Compiled == 3);
  CHECK(stats.FromMemory == 2);
  CHECK(stats.FromDisk == 0);

  // A new kernel object (as in a second run) compiles nothing.
  auto again = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                   compiler.get(), DiskCache(dir));
  REQUIRE(again.ok());
  REQUIRE(launch(**again, in.N).ok());
  CHECK((*again)->stats().Compiled == 0);
  CHECK((*again)->stats().FromDisk == 1);

  // Without a compiler, the cache is all there is.
  auto cacheOnly = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                       nullptr, DiskCache(dir));
  REQUIRE(cacheOnly.ok());
  REQUIRE(launch(**cacheOnly, 3968).ok());
  Status miss = launch(**cacheOnly, 1);
  REQUIRE_FALSE(miss.ok());
  CHECK(miss.code() == ErrorCode::NotFound);
  CHECK_THAT(miss.message(),
             Contains("with signature '*fp32:16, *fp32:16, *fp32:16, i32:1'") &&
                 Contains("this program has no compiler"));
  std::filesystem::remove_all(dir);
}

/// Writes `text` to `path`.
static void writeFile(const std::filesystem::path &path,
                      const std::string &text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST_CASE("The JIT compiles kernels that import helpers, and recompiles when "
          "a helper changes",
          "[fake][jit]") {
  Context ctx = makeContext();
  std::filesystem::path dir = freshPath("jit-imports");
  std::filesystem::create_directories(dir / "lib");
  std::string cache = (dir / "cache").string();
  writeFile(dir / "add.tile", R"(import triton
import triton.language as tl
from .sum2 import sum2
import scale


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, sum2(x, y) * scale.ONE, mask=mask)
)");
  writeFile(dir / "sum2.py", "import triton\n@triton.jit\ndef sum2(a, b):\n"
                             "    return a + b\n");
  writeFile(dir / "lib" / "scale.py", "ONE = 1\n");
  tilec::jit::CompilerOptions options;
  options.IncludeDirs = {(dir / "lib").string()};
  std::unique_ptr<KernelCompiler> compiler =
      tilec::jit::createCompiler(options);
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};
  Inputs in(ctx, 4008);
  auto run = [&]() {
    auto kernel = JitKernel::fromFile((dir / "add.tile").string(), "add_kernel",
                                      compiler.get(), DiskCache(cache));
    REQUIRE(kernel.ok());
    Status launched = (*kernel)->launch(
        ctx, blocksFor(in.N),
        {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N}, config);
    INFO(launched.message());
    REQUIRE(launched.ok());
    in.checkOutput();
    return (*kernel)->stats();
  };
  CHECK(run().Compiled == 1);
  // A second run reads the cache while the helpers read the same.
  JitStats cached = run();
  CHECK(cached.Compiled == 0);
  CHECK(cached.FromDisk == 1);
  // A changed helper (the same sum, spelled differently) is compiled again.
  writeFile(dir / "sum2.py", "import triton\n@triton.jit\ndef sum2(a, b):\n"
                             "    return b + a\n");
  JitStats changed = run();
  CHECK(changed.Compiled == 1);
  CHECK(changed.FromDisk == 0);
  CHECK(run().FromDisk == 1);
  // So is one that is gone: its import now fails, with the diagnostic.
  std::filesystem::remove(dir / "lib" / "scale.py");
  auto kernel = JitKernel::fromFile((dir / "add.tile").string(), "add_kernel",
                                    compiler.get(), DiskCache(cache));
  REQUIRE(kernel.ok());
  Status missing = (*kernel)->launch(
      ctx, blocksFor(in.N),
      {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N}, config);
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.message(), Contains("module 'scale' cannot be used"));
  std::filesystem::remove_all(dir);
}

/// The key and value of the one entry in cache folder `dir`.
static std::pair<std::string, std::string> onlyEntry(const std::string &dir) {
  std::string text;
  for (const auto &file : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(file.path(), std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::size_t header = text.find('\n') + 1;
  std::size_t body = text.find('\n', header) + 1;
  std::size_t keyLength = std::stoul(text.substr(header));
  return {text.substr(body, keyLength), text.substr(body + keyLength)};
}

TEST_CASE("The JIT drops a cache entry that does not load and rebuilds it",
          "[fake][jit]") {
  Context ctx = makeContext();
  std::string dir = freshPath("jit-corrupt");
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};
  Inputs in(ctx, 4096);
  auto launch = [&](KernelCompiler *with) {
    auto kernel = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel", with,
                                      DiskCache(dir));
    REQUIRE(kernel.ok());
    Status status = (*kernel)->launch(
        ctx, blocksFor(in.N),
        {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N}, config);
    return std::make_pair(status, (*kernel)->stats());
  };
  REQUIRE(launch(compiler.get()).first.ok());

  // The entry's framing and checksum hold, but its metadata line says 8
  // warps where the PTX has 4: it does not load.
  auto [key, value] = onlyEntry(dir);
  std::size_t at = value.find("num_warps=4");
  REQUIRE(at != std::string::npos);
  value.replace(at, 11, "num_warps=8");
  REQUIRE(DiskCache(dir).store(key, value).ok());
  auto [status, stats] = launch(compiler.get());
  INFO(status.message());
  REQUIRE(status.ok());
  CHECK(stats.Compiled == 1);
  in.checkOutput();
  CHECK(onlyEntry(dir).second.find("num_warps=4") != std::string::npos);

  // Without a compiler it is removed and named.
  REQUIRE(DiskCache(dir).store(key, value).ok());
  Status noCompiler = launch(nullptr).first;
  REQUIRE_FALSE(noCompiler.ok());
  CHECK_THAT(noCompiler.message(), Contains("corrupt cache entry") &&
                                       Contains("does not load") &&
                                       Contains("no compiler to rebuild it"));
  CHECK(DiskCache(dir).lookup(key).EntryState == CacheEntry::State::Missing);

  // A damaged byte is found by the checksum before anything loads.
  REQUIRE(launch(compiler.get()).first.ok());
  for (const auto &file : std::filesystem::directory_iterator(dir)) {
    std::fstream io(file.path(),
                    std::ios::binary | std::ios::in | std::ios::out);
    io.seekg(-10, std::ios::end);
    char byte = static_cast<char>(io.get());
    io.seekp(-10, std::ios::end);
    io.put(static_cast<char>(byte ^ 0x5a));
  }
  Status damaged = launch(nullptr).first;
  CHECK_THAT(damaged.message(),
             Contains("corrupt cache entry") && Contains("checksum"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("JIT compile errors carry the diagnostics", "[fake][jit]") {
  Context ctx = makeContext();
  std::string dir = freshPath("jit-errors");
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  JitKernel kernel("broken.tile",
                   "import triton\nimport triton.language as tl\n\n"
                   "@triton.jit\ndef broken(x_ptr):\n"
                   "    tl.store(x_ptr, undefined_name)\n",
                   "broken", compiler.get(), DiskCache(dir));
  Inputs in(ctx, 16);
  Status status = kernel.launch(ctx, Dim3(1), {in.view(in.X)});
  REQUIRE_FALSE(status.ok());
  CHECK(status.code() == ErrorCode::CompileError);
  CHECK_THAT(status.message(),
             Contains("compiling kernel 'broken' of broken.tile (*fp32:16; "
                      "num_warps=4,num_stages=3) failed:") &&
                 Contains("broken.tile:6:") && Contains("error:"));
  CHECK(kernel.stats().Compiled == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("The JIT tunes over configurations", "[fake][jit][tune]") {
  Context ctx = makeContext();
  std::string dir = freshPath("jit-tune");
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  auto source = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                    compiler.get(), DiskCache(dir));
  REQUIRE(source.ok());
  std::vector<JitConfig> configs(2);
  for (unsigned i = 0; i < 2; ++i) {
    configs[i].Constexprs = {{"BLOCK", "1024"}};
    configs[i].NumStages = 2 + i;
  }
  TuningOptions options;
  options.Progress = false;
  Autotuner tuner("add_kernel", {configs[0].name(), configs[1].name()}, {},
                  dir + "/tuning.tsv", options);
  Inputs in(ctx, 2048);
  auto grid = [](const JitConfig &) { return Dim3(2); };
  for (int i = 0; i < 2; ++i)
    REQUIRE(
        (*source)
            ->launchTuned(ctx, grid,
                          {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N},
                          configs, tuner, "n=2048")
            .ok());
  in.checkOutput();
  CHECK(tuner.tunedCount() == 1);
  // num_stages changes the code of pipelined loops, so it is part of the
  // cache key: each configuration is compiled once.
  CHECK((*source)->stats().Compiled == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("The JIT tunes over @triton.autotune's configurations",
          "[fake][jit][tune]") {
  Context ctx = makeContext();
  std::string dir = freshPath("jit-autotune");
  std::filesystem::create_directories(dir);
  std::string tuningFile = dir + "/tuning.tsv";
  ::setenv("TILEC_TUNING_FILE", tuningFile.c_str(), 1);
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  JitKernel kernel(
      "tuned.tile",
      "import triton\nimport triton.language as tl\n\n"
      "@triton.autotune(configs=[triton.Config({'BLOCK': b}, num_warps=4)\n"
      "                          for b in (256, 512, 1024, 2048)\n"
      "                          if b < 2048],\n"
      "                 key=['n', 'BLOCK'])\n"
      "@triton.jit\n"
      "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    mask = offs < n\n"
      "    x = tl.load(x_ptr + offs, mask=mask)\n"
      "    y = tl.load(y_ptr + offs, mask=mask)\n"
      "    tl.store(out_ptr + offs, x + y, mask=mask)\n",
      "add_kernel", compiler.get(), DiskCache(dir));
  Expected<const std::vector<JitConfig> *> configs = kernel.autotuneConfigs();
  INFO(configs.status().message());
  REQUIRE(configs.ok());
  REQUIRE((*configs)->size() == 3);
  CHECK((**configs)[2].name() == "BLOCK=1024,num_warps=4,num_stages=3");
  Inputs in(ctx, 3000);
  auto grid = [&](const JitConfig &config) {
    unsigned block = std::stoi(config.Constexprs.front().second);
    return Dim3((in.N + block - 1) / block);
  };
  for (int i = 0; i < 2; ++i) {
    Status status = kernel.launchAutotuned(
        ctx, grid, {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N});
    INFO(status.message());
    REQUIRE(status.ok());
  }
  in.checkOutput();
  // Every configuration compiled once; the choice is keyed by n alone
  // (BLOCK is what is tuned).
  CHECK(kernel.stats().Compiled == 3);
  std::string recorded;
  REQUIRE(readFile(tuningFile, recorded).ok());
  CHECK_THAT(recorded, Contains("add_kernel\tn=3000\t"));

  // A kernel without the decorator says so.
  auto plain = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                   compiler.get(), DiskCache(dir));
  REQUIRE(plain.ok());
  Status none = (*plain)->launchAutotuned(
      ctx, grid, {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N});
  CHECK_THAT(none.message(),
             Contains("has no @triton.autotune configurations"));
  ::unsetenv("TILEC_TUNING_FILE");
  std::filesystem::remove_all(dir);
}

TEST_CASE("The JIT compiles the descriptor blocks a pre_hook sets",
          "[fake][jit]") {
  Context ctx = makeContext();
  std::string dir = freshPath("jit-pre-hook");
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  JitKernel kernel(
      "hooked.tile",
      "import triton\nimport triton.language as tl\n\n"
      "def set_block(nargs):\n"
      "    nargs['x_desc'].block_shape = [nargs['BLOCK_M'], 64]\n"
      "    nargs['y_desc'].block_shape = [nargs['BLOCK_M'], 64]\n\n"
      "@triton.autotune(configs=[triton.Config({'BLOCK_M': m},\n"
      "                                        pre_hook=set_block)\n"
      "                          for m in (32, 64)], key=['n'])\n"
      "@triton.jit\n"
      "def scale(x_desc, y_desc, n, BLOCK_M: tl.constexpr):\n"
      "    row = tl.program_id(0) * BLOCK_M\n"
      "    x = x_desc.load([row, 0])\n"
      "    tl.static_assert(x.shape[0] == BLOCK_M)\n"
      "    y_desc.store([row, 0], x * 2)\n",
      "scale", compiler.get(), DiskCache(dir));
  Expected<DeviceBuffer> buffer = DeviceBuffer::allocate(ctx, 128 * 64 * 2);
  REQUIRE(buffer.ok());
  // Descriptors of 128x64 blocks: each configuration is compiled for, and
  // launched with, the blocks its hook sets (the fake driver then refuses
  // the kernel it does not emulate).
  Expected<TensorDescriptor> desc = TensorDescriptor::fromTensor(
      TensorView(*buffer, ScalarType::FP16, {128, 64}), {128, 64});
  REQUIRE(desc.ok());
  for (const char *m : {"32", "64"}) {
    JitConfig config;
    config.Constexprs = {{"BLOCK_M", m}};
    Status status = kernel.launch(ctx, Dim3(1), {*desc, *desc, 128}, config);
    INFO(status.message());
    CHECK_THAT(status.message(),
               Contains("cuLaunchKernel") && Contains("scale"));
  }
  CHECK(kernel.stats().Compiled == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("The JIT evaluates @triton.heuristics over the launch's values",
          "[fake][jit]") {
  Context ctx = makeContext();
  std::string dir = freshPath("jit-heuristics");
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  // EVEN depends on the run-time n: each launch's value decides it.
  const std::string source =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] "
      "== 0})\n"
      "@triton.jit\n"
      "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr,\n"
      "               EVEN: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    if EVEN:\n"
      "        out = tl.load(x_ptr + offs) + tl.load(y_ptr + offs)\n"
      "        tl.store(out_ptr + offs, out)\n"
      "    else:\n"
      "        mask = offs < n\n"
      "        out = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs,\n"
      "                                                         mask=mask)\n"
      "        tl.store(out_ptr + offs, out, mask=mask)\n";
  JitKernel kernel("even.tile", source, "add_kernel", compiler.get(),
                   DiskCache(dir));
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};
  Inputs in(ctx, 4096);
  auto launch = [&](std::int32_t n) {
    return kernel.launch(ctx, blocksFor(n),
                         {in.view(in.X), in.view(in.Y), in.view(in.Out), n},
                         config);
  };
  // n = 3001 and 3003 (i32): EVEN false, one compilation; 3072 and 4096
  // (i32:16): EVEN true; 3008 (i32:16): EVEN false.
  for (std::int32_t n : {3001, 3003, 3072, 4096, 3008}) {
    Status status = launch(n);
    INFO(n << ": " << status.message());
    REQUIRE(status.ok());
  }
  JitStats stats = kernel.stats();
  CHECK(stats.Compiled == 3);
  CHECK(stats.FromMemory == 2);
  // Three compiled kernels (the heuristic's value is part of each key),
  // and the heuristic's record: which arguments it read for each of the
  // two specializations, and its result for each of the five launches.
  std::vector<std::string> keys;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    keys.push_back(entry.path().filename().string());
  CHECK(keys.size() == 3 + 2 + 5);

  // A program without a compiler launches what the record holds, and says
  // what it lacks for a value it does not.
  JitKernel cacheOnly("even.tile", source, "add_kernel", nullptr,
                      DiskCache(dir));
  for (std::int32_t n : {3001, 4096}) {
    REQUIRE(in.Out.fill(0xff).ok());
    Status status = cacheOnly.launch(
        ctx, blocksFor(n), {in.view(in.X), in.view(in.Y), in.view(in.Out), n},
        config);
    INFO(n << ": " << status.message());
    REQUIRE(status.ok());
  }
  in.checkOutput();
  CHECK(cacheOnly.stats().FromDisk == 2);
  Status unrecorded = cacheOnly.launch(
      ctx, blocksFor(1024),
      {in.view(in.X), in.view(in.Y), in.view(in.Out), std::int32_t(1024)},
      config);
  CHECK(unrecorded.code() == ErrorCode::NotFound);
  CHECK_THAT(unrecorded.message(),
             Contains("kernel 'add_kernel': its @triton.heuristics read "
                      "run-time arguments") &&
                 Contains("no compiler to evaluate them"));

  // A heuristic reads a tensor argument's dtype, shape and strides (as
  // torch.Tensor has them): EVEN when x holds whole blocks, contiguous, in
  // fp32. Views of 4096 and 3000 elements and a strided one decide it.
  JitKernel tensor(
      "tensor.tile",
      "import torch\nimport triton\nimport triton.language as tl\n\n"
      "@triton.heuristics({'EVEN': lambda args: args['x_ptr'].numel() % "
      "args['BLOCK'] == 0 and args['x_ptr'].is_contiguous() and "
      "args['x_ptr'].dtype == torch.float32 and args['x_ptr'].stride(-1) == "
      "1 and args['x_ptr'].shape[0] == args['x_ptr'].size(0) and "
      "args['x_ptr'].dim() == 1 and args['x_ptr'].element_size() == 4})\n"
      "@triton.jit\n"
      "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr,\n"
      "               EVEN: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    if EVEN:\n"
      "        tl.store(out_ptr + offs, tl.load(x_ptr + offs) + "
      "tl.load(y_ptr + offs))\n"
      "    else:\n"
      "        mask = offs < n\n"
      "        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + "
      "tl.load(y_ptr + offs, mask=mask), mask=mask)\n",
      "add_kernel", compiler.get(), DiskCache(dir));
  // n stays 4096 (one specialization): only the views differ. 4096
  // elements: EVEN; 3000, or 2048 two apart: not.
  auto launchWith = [&](TensorView x) {
    REQUIRE(in.Out.fill(0xff).ok());
    Status status = tensor.launch(
        ctx, blocksFor(4096),
        {x, in.view(in.Y), in.view(in.Out), std::int32_t(4096)}, config);
    INFO(x.describe() << ": " << status.message());
    REQUIRE(status.ok());
    in.checkOutput();
  };
  launchWith(TensorView(in.X, ScalarType::FP32, {4096}));
  launchWith(TensorView(in.X, ScalarType::FP32, {3000}));
  CHECK(tensor.stats().Compiled == 2);
  // The same views again, and a strided one whose EVEN is the 3000's: no
  // compilation more.
  launchWith(TensorView(in.X, ScalarType::FP32, {4096}));
  launchWith(TensorView(in.X.ptr(), ScalarType::FP32, {2048}, {2}));
  CHECK(tensor.stats().Compiled == 2);
  CHECK(tensor.stats().FromMemory == 2);

  // What a tensor has not (here: a device) is an error at the launch.
  JitKernel device(
      "device.tile",
      "import triton\nimport triton.language as tl\n\n"
      "@triton.heuristics({'EVEN': lambda args: args['x_ptr'].device})\n"
      "@triton.jit\n"
      "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr,\n"
      "               EVEN: tl.constexpr):\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    tl.store(out_ptr + offs, tl.load(x_ptr + offs))\n",
      "add_kernel", compiler.get(), DiskCache(dir));
  Status status = device.launch(
      ctx, blocksFor(4096),
      {in.view(in.X), in.view(in.Y), in.view(in.Out), std::int32_t(4096)},
      config);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.message(),
             Contains("evaluating the @triton.heuristics of kernel "
                      "'add_kernel'") &&
                 Contains("has no attribute 'device'"));
  std::filesystem::remove_all(dir);
}

/// examples/vector_add.tile's add_kernel (BLOCK 1024) compiled in process.
static Expected<CompiledKernel> compileVectorAdd() {
  std::string source;
  if (Status read = readFile(TILEC_VECTOR_ADD_TILE, source); !read.ok())
    return read;
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  CompileRequest request;
  request.SourceName = "vector_add.tile";
  request.Source = source;
  request.Kernel = "add_kernel";
  request.Signature = "*fp32, *fp32, *fp32, i32";
  request.Config.Constexprs = {{"BLOCK", "1024"}};
  request.Arch = "sm_90a";
  return compiler->compile(request);
}

TEST_CASE("A tensor descriptor launches as its base, extents and strides",
          "[fake][launch]") {
  Context ctx = makeContext();
  Expected<CompiledKernel> compiled = compileVectorAdd();
  REQUIRE(compiled.ok());
  Expected<Module> module = Module::loadPtx(ctx, compiled->Ptx);
  REQUIRE(module.ok());
  Expected<Kernel> kernel = module->getKernel("add_kernel");
  REQUIRE(kernel.ok());
  // add_kernel(x_ptr, y_ptr, out_ptr, n): a 1-D descriptor of out is
  // (out_ptr, n).
  Inputs in(ctx, 3000);
  Expected<TensorDescriptor> out = TensorDescriptor::fromTensor(
      TensorView(in.Out, ScalarType::FP32, {in.N}), {1024});
  REQUIRE(out.ok());
  CHECK(out->signatureEntry() == "tensordesc<fp32[1024]>");
  REQUIRE(kernel->launch(blocksFor(in.N), {in.X, in.Y, *out}).ok());
  in.checkOutput();
  // Its element type must be the kernel's.
  Expected<TensorDescriptor> wrong = TensorDescriptor::fromTensor(
      TensorView(in.Out, ScalarType::FP16, {in.N}), {1024});
  REQUIRE(wrong.ok());
  Status mismatch = kernel->launch(blocksFor(in.N), {in.X, in.Y, *wrong});
  CHECK_THAT(mismatch.message(),
             Contains("argument 2: tensordesc<fp16[1024]>") &&
                 Contains("where the kernel takes *fp32"));
  // Descriptors need a last stride of 1 and blocks of the view's rank.
  CHECK_THAT(
      TensorDescriptor::fromTensor(
          TensorView(in.Out.ptr(), ScalarType::FP32, {4, 8}, {1, 4}), {4, 4})
          .status()
          .message(),
      Contains("its last stride must be 1"));
  CHECK_THAT(TensorDescriptor::fromTensor(
                 TensorView(in.Out, ScalarType::FP32, {in.N}), {4, 4})
                 .status()
                 .message(),
             Contains("the block shape has 2 dimensions, the view 1"));
}

TEST_CASE("A tuple argument launches as its elements", "[fake][jit]") {
  Context ctx = makeContext();
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  // add_kernel with its inputs in a pair and its bound in a 1-tuple: the
  // same four kernel arguments (x, y, out, n) as the fake driver's.
  const std::string source =
      "import triton\nimport triton.language as tl\n\n"
      "@triton.jit\n"
      "def add_kernel(ins, out_ptr, bounds, BLOCK: tl.constexpr):\n"
      "    x_ptr, y_ptr = ins\n"
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
      "    mask = offs < bounds[0]\n"
      "    out = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs,\n"
      "                                                     mask=mask)\n"
      "    tl.store(out_ptr + offs, out, mask=mask)\n";
  JitKernel kernel("pairs.tile", source, "add_kernel", compiler.get(),
                   DiskCache(freshPath("jit-tuple")));
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};
  Inputs in(ctx, 3000);
  Status status = kernel.launch(ctx, blocksFor(in.N),
                                {JitArg::tuple({in.view(in.X), in.view(in.Y)}),
                                 in.view(in.Out), JitArg::tuple({in.N})},
                                config);
  INFO(status.message());
  REQUIRE(status.ok());
  in.checkOutput();
  CHECK(kernel.stats().Compiled == 1);
}

TEST_CASE("A programmatic dependent launch goes through cuLaunchKernelEx "
          "with its attribute, from Kernel::launch, generated launchers and "
          "the JIT",
          "[fake][launch]") {
  Context ctx = makeContext();
  Expected<CompiledKernel> compiled = compileVectorAdd();
  REQUIRE(compiled.ok());
  Expected<Module> module = Module::loadPtx(ctx, compiled->Ptx);
  REQUIRE(module.ok());
  Expected<Kernel> kernel = module->getKernel("add_kernel");
  REQUIRE(kernel.ok());
  // The fake driver counts the launches that carry the attribute.
  void *fake = ::dlopen(std::getenv("TILEC_CUDA_LIBRARY"), RTLD_NOW);
  REQUIRE(fake);
  auto count = reinterpret_cast<int (*)()>(
      ::dlsym(fake, "tilecFakeCudaProgrammaticLaunches"));
  REQUIRE(count);
  int before = count();
  Inputs in(ctx, 3000);
  REQUIRE(kernel->launch(blocksFor(in.N), {in.X, in.Y, in.Out, in.N}).ok());
  CHECK(count() == before);
  LaunchOptions pdl;
  pdl.ProgrammaticDependentLaunch = true;
  REQUIRE(in.Out.fill(0xff).ok());
  REQUIRE(
      kernel->launch(blocksFor(in.N), {in.X, in.Y, in.Out, in.N}, nullptr, pdl)
          .ok());
  CHECK(count() == before + 1);
  in.checkOutput();

  // Generated launchers and the JIT take the same options.
  REQUIRE(in.Out.fill(0xff).ok());
  REQUIRE(aot::add_kernel(ctx, blocksFor(in.N), in.X, in.Y, in.Out, in.N,
                          nullptr, pdl)
              .ok());
  CHECK(count() == before + 2);
  in.checkOutput();
  REQUIRE(aot::add_kernel(ctx, blocksFor(in.N), in.X, in.Y, in.Out, in.N).ok());
  CHECK(count() == before + 2);
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  auto jit =
      JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel", compiler.get());
  REQUIRE(jit.ok());
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};
  REQUIRE(in.Out.fill(0xff).ok());
  REQUIRE((*jit)
              ->launch(ctx, blocksFor(in.N),
                       {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N},
                       config, nullptr, pdl)
              .ok());
  CHECK(count() == before + 3);
  in.checkOutput();
  ::dlclose(fake);
}

TEST_CASE("Fewer programs an SM for kernels that read rows again",
          "[fake][launch]") {
  // The policy alone: an SM of 16 programs, a GPU of 132 SMs and 50 MB of
  // L2 (an H100's). Rows of 16 KB: 8 programs (233472 / 9 - 1024 + 1,
  // rounded up to 16 bytes); rows of 8 KB: 16 fit already; rows of 128 KB
  // would want 0, and get half the SM.
  OccupancyLimits h100{50u << 20, 132, 233472, 1024, 16};
  CHECK(rereadSharedBytes(16, 16384, h100) == 24928);
  CHECK(rereadSharedBytes(16, 8192, h100) == 16);
  CHECK(rereadSharedBytes(16, 2048, h100) == 16);
  CHECK(rereadSharedBytes(16, 131072, h100) == 24928);
  CHECK(rereadSharedBytes(16, 0, h100) == 16);
  // A footprint past any L2 (saturated by bytesFor) caps like a big one.
  CHECK(rereadSharedBytes(16, std::uint64_t(1) << 62, h100) == 24928);
  CHECK(rereadSharedBytes(16, ~std::uint64_t(0), h100) == 24928);
  // 12 an SM (rows of 10 KB: 12.9 fit) asks for 233472 / 13 - 1023.
  CHECK(rereadSharedBytes(16, 10240, h100) == 16944);
  // A kernel that needs more already keeps what it needs.
  CHECK(rereadSharedBytes(30000, 16384, h100) == 30000);
  // Programs of 8 warps, 8 an SM: never fewer than 4.
  OccupancyLimits big = h100;
  big.Programs = 8;
  CHECK(rereadSharedBytes(16, 131072, big) == 45680);
  // 4 an SM: fewer would leave the SM too empty; as is.
  big.Programs = 4;
  CHECK(rereadSharedBytes(16, 131072, big) == 16);

  // Through Kernel::launch, on the fake driver's device (4 SMs, 1 MB of L2,
  // 16 programs of 4 warps an SM): a kernel reading 2048 bytes again for
  // every 1024 of its argument 1.
  Context ctx = makeContext();
  const char *ptx = "// tilec.kernel name=empty_kernel num_warps=4 shared=16 "
                    "signature=*fp16:16,i32 reread=1:2048:1024\n"
                    ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry empty_kernel(\n"
                    "  .param .u64 empty_kernel_param_0,\n"
                    "  .param .u32 empty_kernel_param_1\n"
                    ")\n{\n  ret;\n}\n";
  Expected<Module> module = Module::loadPtx(ctx, ptx);
  INFO(module.status().message());
  REQUIRE(module.ok());
  Expected<Kernel> kernel = module->getKernel("empty_kernel");
  REQUIRE(kernel.ok());
  void *fake = ::dlopen(std::getenv("TILEC_CUDA_LIBRARY"), RTLD_NOW);
  REQUIRE(fake);
  auto lastShared = reinterpret_cast<unsigned (*)()>(
      ::dlsym(fake, "tilecFakeCudaLastSharedBytes"));
  REQUIRE(lastShared);
  Expected<DeviceBuffer> buffer = DeviceBuffer::allocate(ctx, 1 << 16);
  REQUIRE(buffer.ok());
  auto sharedFor = [&](std::int32_t n) {
    REQUIRE(kernel->launch(Dim3(1), {*buffer, n}).ok());
    return lastShared();
  };
  // 1 MB / (3 x 4 SMs x footprint) programs fit: short rows launch as
  // compiled, 4 KB rows (21 fit) too, 8 KB rows 10 an SM, 64 KB rows 8.
  CHECK(sharedFor(1024) == 16);
  CHECK(sharedFor(2048) == 16);
  CHECK(sharedFor(4096) == 20208);
  CHECK(sharedFor(32768) == 24928);
  CHECK(sharedFor(0) == 16);
  ::dlclose(fake);
}

TEST_CASE("Launch requirements of the metadata line are checked at launch",
          "[fake][launch]") {
  Context ctx = makeContext();
  Expected<CompiledKernel> compiled = compileVectorAdd();
  INFO(compiled.status().message());
  REQUIRE(compiled.ok());
  // Requirements as tilec writes them for a tensor descriptor whose base is
  // out_ptr and whose first stride is n (fp16 elements).
  std::string ptx = compiled->Ptx;
  ptx.insert(ptx.find('\n'), " requires=out_ptr@2:align16,n@3:bytes16/fp16");
  Expected<Module> module = Module::loadPtx(ctx, ptx);
  REQUIRE(module.ok());
  Expected<Kernel> kernel = module->getKernel("add_kernel");
  REQUIRE(kernel.ok());
  REQUIRE(kernel->metadata().Requirements.size() == 2);

  Inputs in(ctx, 1024);
  REQUIRE(kernel->launch(blocksFor(1024), {in.X, in.Y, in.Out, 1024}).ok());
  in.checkOutput();

  Status stride = kernel->launch(blocksFor(1001), {in.X, in.Y, in.Out, 1001});
  CHECK(stride.code() == ErrorCode::InvalidArgument);
  CHECK(stride.message() ==
        "kernel 'add_kernel': argument 'n' (3) = 1001: tensor descriptor "
        "strides must be multiples of 16 bytes (fp16: 8 elements)");

  Status base =
      kernel->launch(blocksFor(16), {in.X, in.Y, offset(in.Out, 4), 16});
  CHECK(base.code() == ErrorCode::InvalidArgument);
  CHECK_THAT(base.message(),
             Contains("kernel 'add_kernel': argument 'out_ptr' (2) = 0x") &&
                 Contains(": tensor descriptor base pointers must be 16-byte "
                          "aligned"));
}

TEST_CASE("Kernel::launch builds the TMA tensor maps of the metadata line",
          "[fake][launch]") {
  Context ctx = makeContext();
  // A kernel whose third parameter receives the tensor map of an n x n fp32
  // matrix at its first argument (the fake driver knows no such kernel: the
  // launch itself fails after the maps are built).
  const char *ptx = "// tilec.kernel name=tma_kernel num_warps=4 shared=0 "
                    "signature=*fp32:16,i32 tma=2:@0:f32:@1,@1:@1:8x32:128\n"
                    ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry tma_kernel(\n"
                    "  .param .u64 tma_kernel_param_0,\n"
                    "  .param .u32 tma_kernel_param_1,\n"
                    "  .param .align 64 .b8 tma_kernel_param_2[128]\n"
                    ")\n{\n  ret;\n}\n";
  Expected<Module> module = Module::loadPtx(ctx, ptx);
  INFO(module.status().message());
  REQUIRE(module.ok());
  Expected<Kernel> kernel = module->getKernel("tma_kernel");
  REQUIRE(kernel.ok());
  REQUIRE(kernel->metadata().TensorMaps.size() == 1);
  Inputs in(ctx, 1024);
  // Rows of 32 fp32 (128 bytes): the map is built, the launch refused.
  Status launched = kernel->launch(Dim3(1), {in.X, 32});
  CHECK_THAT(launched.message(),
             Contains("cuLaunchKernel") && Contains("tma_kernel"));
  // Rows of 30 fp32 (120 bytes) are no multiple of 16 bytes: the driver
  // rejects the map, and the error names the call and the kernel.
  Status rejected = kernel->launch(Dim3(1), {in.X, 30});
  CHECK(rejected.code() == ErrorCode::CudaError);
  CHECK_THAT(rejected.message(), Contains("cuTensorMapEncodeTiled") &&
                                     Contains("tma_kernel") &&
                                     Contains("row stride 120 bytes"));
}

TEST_CASE("Kernel::launch builds tensor maps with outer dimensions",
          "[fake][launch]") {
  Context ctx = makeContext();
  // Matrices of n rows of 32 fp32, one of a batch 2^31 long, n * 32
  // elements apart (attention's heads): a 3-D map.
  const char *ptx =
      "// tilec.kernel name=tma_batch num_warps=4 shared=0 "
      "signature=*fp32:16,i32 tma=2:@0:f32:2147483648,@1,32:@1*32,32:8x32:128\n"
      ".version 8.0\n.target sm_90a\n.address_size 64\n"
      ".visible .entry tma_batch(\n"
      "  .param .u64 tma_batch_param_0,\n"
      "  .param .u32 tma_batch_param_1,\n"
      "  .param .align 64 .b8 tma_batch_param_2[128]\n"
      ")\n{\n  ret;\n}\n";
  Expected<Module> module = Module::loadPtx(ctx, ptx);
  INFO(module.status().message());
  REQUIRE(module.ok());
  Expected<Kernel> kernel = module->getKernel("tma_batch");
  REQUIRE(kernel.ok());
  REQUIRE(kernel->metadata().TensorMaps.size() == 1);
  REQUIRE(kernel->metadata().TensorMaps[0].Outer.size() == 1);
  Inputs in(ctx, 1024);
  // 8 rows a matrix (1024 bytes apart): the map is built, the launch
  // refused by the fake driver.
  Status launched = kernel->launch(Dim3(1), {in.X, 8});
  CHECK_THAT(launched.message(),
             Contains("cuLaunchKernel") && Contains("tma_batch"));
  // A batch stride the host computes from the arguments: its message says
  // the tensor's outer extent.
  Status rejected = kernel->launch(Dim3(1), {in.X, 0});
  CHECK_FALSE(rejected.ok());
  CHECK_THAT(rejected.message(), Contains("tma_batch"));
}

TEST_CASE("Generated launchers take host-side tensor descriptors",
          "[fake][aot][launch]") {
  Context ctx = makeContext();
  const std::int64_t M = 256, N = 256, K = 128;
  Expected<DeviceBuffer> a = DeviceBuffer::allocate(ctx, M * K * 2);
  Expected<DeviceBuffer> b = DeviceBuffer::allocate(ctx, K * N * 2);
  Expected<DeviceBuffer> c = DeviceBuffer::allocate(ctx, M * N * 2);
  REQUIRE((a.ok() && b.ok() && c.ok()));
  auto describe = [](const DeviceBuffer &buffer, ScalarType type,
                     std::int64_t rows, std::int64_t cols,
                     std::vector<std::int64_t> block) {
    return TensorDescriptor::fromTensor(TensorView(buffer, type, {rows, cols}),
                                        std::move(block));
  };
  Expected<TensorDescriptor> da =
      describe(*a, ScalarType::FP16, M, K, {128, 64});
  Expected<TensorDescriptor> db =
      describe(*b, ScalarType::FP16, K, N, {64, 128});
  Expected<TensorDescriptor> dc =
      describe(*c, ScalarType::FP16, M, N, {128, 128});
  REQUIRE((da.ok() && db.ok() && dc.ok()));
  Dim3 grid(2);

  // Descriptors that meet the signature get through packing and the tensor
  // maps' encoding to the driver, which emulates add_kernel only.
  Status launched =
      hostdesc::persistent_matmul_kernel(ctx, grid, *da, *db, *dc, M, N, K);
  CHECK_THAT(launched.message(), Contains("add_kernel only"));

  // A descriptor of another element type is refused, naming the argument.
  Expected<TensorDescriptor> fp32 =
      describe(*a, ScalarType::FP32, M, K / 2, {128, 64});
  REQUIRE(fp32.ok());
  Status wrongType =
      hostdesc::persistent_matmul_kernel(ctx, grid, *fp32, *db, *dc, M, N, K);
  CHECK(wrongType.code() == ErrorCode::InvalidArgument);
  CHECK_THAT(wrongType.message(),
             Contains("kernel 'persistent_matmul_kernel', argument 0: "
                      "tensordesc<fp32[128, 64]>") &&
                 Contains("where the kernel takes *fp16"));

  // So is one of other blocks than the kernel was compiled for: it would
  // load the blocks of its signature, not the descriptor's.
  Expected<TensorDescriptor> blocks =
      describe(*a, ScalarType::FP16, M, K, {64, 64});
  REQUIRE(blocks.ok());
  Status wrongBlock =
      hostdesc::persistent_matmul_kernel(ctx, grid, *blocks, *db, *dc, M, N, K);
  CHECK(wrongBlock.code() == ErrorCode::InvalidArgument);
  CHECK(wrongBlock.message() ==
        "kernel 'persistent_matmul_kernel', argument 0: "
        "tensordesc<fp16[64, 64]> where the kernel was compiled for "
        "tensordesc<fp16[128, 64]>");
}

TEST_CASE("A descriptor block a pre_hook set follows the kernel",
          "[fake][launch]") {
  Context ctx = makeContext();
  // A kernel compiled for 64x32 blocks of its 2-D fp16 descriptor (base,
  // two extents, one stride), the block its pre_hook set: a host
  // descriptor of any block of that rank launches (the fake driver then
  // refuses the unknown kernel), one of another rank does not.
  const char *ptx = "// tilec.kernel name=hooked num_warps=4 shared=0 "
                    "signature=*fp16:16,i32,i32,i64 "
                    "descriptors=0:64x32@pre_hook\n"
                    ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry hooked(\n"
                    "  .param .u64 hooked_param_0,\n"
                    "  .param .u32 hooked_param_1,\n"
                    "  .param .u32 hooked_param_2,\n"
                    "  .param .u64 hooked_param_3\n"
                    ")\n{\n  ret;\n}\n";
  Expected<Module> module = Module::loadPtx(ctx, ptx);
  INFO(module.status().message());
  REQUIRE(module.ok());
  Expected<Kernel> kernel = module->getKernel("hooked");
  REQUIRE(kernel.ok());
  REQUIRE(kernel->metadata().Descriptors.size() == 1);
  CHECK(kernel->metadata().Descriptors[0].FromPreHook);
  Expected<DeviceBuffer> buffer = DeviceBuffer::allocate(ctx, 128 * 64 * 2);
  REQUIRE(buffer.ok());
  TensorView view(*buffer, ScalarType::FP16, {128, 64});
  Expected<TensorDescriptor> other =
      TensorDescriptor::fromTensor(view, {128, 64});
  REQUIRE(other.ok());
  Status launched = kernel->launch(Dim3(1), {*other});
  CHECK_THAT(launched.message(),
             Contains("cuLaunchKernel") && Contains("hooked"));
  Expected<TensorDescriptor> flat = TensorDescriptor::fromTensor(
      TensorView(*buffer, ScalarType::FP16, {128 * 64}), {64});
  REQUIRE(flat.ok());
  Status rank = kernel->launch(Dim3(1), {*flat});
  CHECK(rank.code() == ErrorCode::InvalidArgument);
  CHECK(rank.message() == "kernel 'hooked', argument 0: tensordesc<fp16[64]> "
                          "where the kernel was compiled for "
                          "tensordesc<fp16[64, 32]>");
}

TEST_CASE("Generated launchers check the launch requirements",
          "[fake][aot][launch]") {
  Context ctx = makeContext();
  // Row-major fp16 matrices: M x K, K x N and M x N, leading strides K, N, N.
  const std::int32_t M = 64, N = 64, K = 64;
  Expected<DeviceBuffer> a = DeviceBuffer::allocate(ctx, M * K * 2 + 64);
  Expected<DeviceBuffer> b = DeviceBuffer::allocate(ctx, K * N * 2 + 64);
  Expected<DeviceBuffer> c = DeviceBuffer::allocate(ctx, M * N * 2 + 64);
  REQUIRE((a.ok() && b.ok() && c.ok()));
  Dim3 grid(1);

  // A leading stride of 1001 fp16 elements is not a multiple of 16 bytes:
  // the dispatcher, the variant's launcher and Kernel::launch all say so.
  const char *stride =
      "kernel 'matmul_desc_kernel': argument 'stride_am' (6) = 1001: tensor "
      "descriptor strides must be multiples of 16 bytes (fp16: 8 elements)";
  Status dispatched =
      desc::matmul_desc_kernel(ctx, grid, *a, *b, *c, M, N, K, 1001, N, N);
  CHECK(dispatched.code() == ErrorCode::InvalidArgument);
  CHECK(dispatched.message() == stride);
  Status variant = desc::matmul_desc_kernel_0d1d2d(ctx, grid, *a, *b, *c, M, N,
                                                   K, 1001, N, N);
  CHECK(variant.code() == ErrorCode::InvalidArgument);
  CHECK(variant.message() == stride);
  Status generic = desc::matmul_desc_kernel_generic(ctx, grid, *a, *b, *c, M, N,
                                                    K, K, N, 12);
  CHECK(generic.message() ==
        "kernel 'matmul_desc_kernel': argument 'stride_cm' (8) = 12: tensor "
        "descriptor strides must be multiples of 16 bytes (fp16: 8 elements)");

  // A misaligned base takes the generic variant, which requires the
  // alignment itself.
  CHECK(std::string(desc::matmul_desc_kernel_variant(
            offset(*a, 2), *b, *c, M, N, K, K, N, N)) == "generic");
  Status base = desc::matmul_desc_kernel(ctx, grid, offset(*a, 2), *b, *c, M, N,
                                         K, K, N, N);
  CHECK(base.code() == ErrorCode::InvalidArgument);
  CHECK_THAT(base.message(),
             Contains("kernel 'matmul_desc_kernel': argument 'a_ptr' (0) = "
                      "0x") &&
                 Contains(": tensor descriptor base pointers must be 16-byte "
                          "aligned"));

  // Arguments that meet them get past the checks to the driver, which
  // emulates add_kernel only.
  Status launched =
      desc::matmul_desc_kernel(ctx, grid, *a, *b, *c, M, N, K, K, N, N);
  CHECK_THAT(launched.message(), Contains("add_kernel only"));
  CHECK_THAT(launched.message(), !Contains("tensor descriptor"));
}

//===----------------------------------------------------------------------===//
// Several devices (the fake driver with TILEC_FAKE_CUDA_DEVICES=2)
//===----------------------------------------------------------------------===//

namespace {

/// Two fake devices for the test's lifetime, and the fake's counters.
struct TwoDevices {
  TwoDevices() {
    ::setenv("TILEC_FAKE_CUDA_DEVICES", "2", 1);
    Fake = ::dlopen(std::getenv("TILEC_CUDA_LIBRARY"), RTLD_NOW);
    REQUIRE(Fake);
    Launches =
        reinterpret_cast<int (*)(int)>(::dlsym(Fake, "tilecFakeCudaLaunches"));
    REQUIRE(Launches);
  }
  ~TwoDevices() {
    ::unsetenv("TILEC_FAKE_CUDA_DEVICES");
    ::dlclose(Fake);
  }
  Context create(int ordinal) {
    Expected<Context> ctx = Context::create(ordinal);
    INFO(ctx.status().message());
    REQUIRE(ctx.ok());
    return ctx.take();
  }

  void *Fake = nullptr;
  int (*Launches)(int) = nullptr;
};

} // namespace

TEST_CASE("A Context per device, each with its own primary context",
          "[fake][devices]") {
  TwoDevices fake;
  Expected<int> count = Context::deviceCount();
  REQUIRE(count.ok());
  CHECK(*count == 2);
  Context first = fake.create(0);
  Context second = fake.create(1);
  CHECK(first.ordinal() == 0);
  CHECK(second.ordinal() == 1);
  CHECK(first.handle() != second.handle());
  CHECK(first.isPrimary());
  Expected<Context> third = Context::create(2);
  REQUIRE_FALSE(third.ok());
  CHECK_THAT(third.status().message(),
             Contains("device ordinal 2 is out of range (2 device(s))"));
}

TEST_CASE("A generated launcher loads its image on each device it is used on",
          "[fake][devices][aot]") {
  TwoDevices fake;
  Context first = fake.create(0);
  Context second = fake.create(1);
  Inputs onFirst(first, 3000), onSecond(second, 5000);
  int before0 = fake.Launches(0), before1 = fake.Launches(1);
  REQUIRE(first.makeCurrent().ok());
  REQUIRE(aot::add_kernel(first, blocksFor(onFirst.N), onFirst.X, onFirst.Y,
                          onFirst.Out, onFirst.N)
              .ok());
  REQUIRE(second.makeCurrent().ok());
  Status launched = aot::add_kernel(second, blocksFor(onSecond.N), onSecond.X,
                                    onSecond.Y, onSecond.Out, onSecond.N);
  INFO(launched.message());
  REQUIRE(launched.ok());
  onFirst.checkOutput();
  onSecond.checkOutput();
  CHECK(fake.Launches(0) == before0 + 1);
  CHECK(fake.Launches(1) == before1 + 1);

  // Device 0's kernel launched while device 1's context is current: the
  // driver refuses it, and the message says what to do.
  Status wrong = aot::add_kernel(first, blocksFor(onFirst.N), onFirst.X,
                                 onFirst.Y, onFirst.Out, onFirst.N);
  REQUIRE_FALSE(wrong.ok());
  CHECK_THAT(wrong.message(), Contains("CUDA_ERROR_INVALID_HANDLE") &&
                                  Contains("Context::makeCurrent"));
}

TEST_CASE("A JIT kernel compiles once and loads on each device",
          "[fake][devices][jit]") {
  TwoDevices fake;
  Context first = fake.create(0);
  Context second = fake.create(1);
  std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
  std::string dir = freshPath("jit-devices");
  auto kernel = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                    compiler.get(), DiskCache(dir));
  REQUIRE(kernel.ok());
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};
  int before1 = fake.Launches(1);
  for (Context *ctx : {&first, &second}) {
    Inputs in(*ctx, 4008);
    Status launched = (*kernel)->launch(
        *ctx, blocksFor(in.N),
        {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N}, config);
    INFO(launched.message());
    REQUIRE(launched.ok());
    in.checkOutput();
  }
  CHECK(fake.Launches(1) == before1 + 1);
  JitStats stats = (*kernel)->stats();
  CHECK(stats.Compiled == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("Threads launch on their own devices and streams at once",
          "[fake][devices][aot]") {
  TwoDevices fake;
  std::vector<Context> contexts;
  contexts.push_back(fake.create(0));
  contexts.push_back(fake.create(1));
  // Inputs made here: Catch's assertions are not for several threads.
  std::vector<Inputs> inputs;
  for (int t = 0; t < 4; ++t)
    inputs.emplace_back(contexts[t % 2], 1000 + 300 * t);
  int before0 = fake.Launches(0), before1 = fake.Launches(1);
  std::vector<std::thread> threads;
  std::vector<Status> results(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      const Context &ctx = contexts[t % 2];
      Inputs &in = inputs[t];
      results[t] = [&]() -> Status {
        Expected<Stream> stream = Stream::create(ctx);
        if (!stream)
          return stream.status();
        for (int j = 0; j < 10; ++j)
          if (Status s = aot::add_kernel(ctx, blocksFor(in.N), in.X, in.Y,
                                         in.Out, in.N, &*stream);
              !s.ok())
            return s;
        return stream->synchronize();
      }();
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const Status &result : results) {
    INFO(result.message());
    CHECK(result.ok());
  }
  for (Inputs &in : inputs)
    in.checkOutput();
  CHECK(fake.Launches(0) == before0 + 20);
  CHECK(fake.Launches(1) == before1 + 20);
}

TEST_CASE("Context::current wraps the context the caller made current",
          "[fake][devices]") {
  TwoDevices fake;
  // A thread where nothing is current yet.
  std::thread([] {
    Expected<Context> none = Context::current();
    REQUIRE_FALSE(none.ok());
    CHECK_THAT(none.status().message(),
               Contains("no CUDA context is current on this thread"));
  }).join();

  // A device's primary context, made current elsewhere (as torch does).
  Context second = fake.create(1);
  std::thread([&] {
    REQUIRE(second.makeCurrent().ok());
    Expected<Context> wrapped = Context::current();
    REQUIRE(wrapped.ok());
    CHECK(wrapped->ordinal() == 1);
    CHECK(wrapped->isPrimary());
    CHECK(wrapped->handle() == second.handle());
  }).join();

  // A context of device 1 made with cuCtxCreate: used as it is, modules
  // loaded into it.
  auto create = reinterpret_cast<void *(*)(int)>(
      ::dlsym(fake.Fake, "tilecFakeCudaCreateContext"));
  auto setCurrent =
      reinterpret_cast<int (*)(void *)>(::dlsym(fake.Fake, "cuCtxSetCurrent"));
  REQUIRE(create);
  REQUIRE(setCurrent);
  void *own = create(1);
  std::thread([&] {
    REQUIRE(setCurrent(own) == 0);
    Expected<Context> wrapped = Context::current();
    INFO(wrapped.status().message());
    REQUIRE(wrapped.ok());
    CHECK(wrapped->ordinal() == 1);
    CHECK_FALSE(wrapped->isPrimary());
    CHECK(wrapped->handle() == own);
    Inputs in(*wrapped, 2500);
    int before = fake.Launches(1);
    Status launched =
        aot::add_kernel(*wrapped, blocksFor(in.N), in.X, in.Y, in.Out, in.N);
    INFO(launched.message());
    REQUIRE(launched.ok());
    in.checkOutput();
    CHECK(fake.Launches(1) == before + 1);
  }).join();
}

TEST_CASE("Peer copies move results between devices", "[fake][devices]") {
  TwoDevices fake;
  Context first = fake.create(0);
  Context second = fake.create(1);
  std::vector<float> part(300);
  for (std::size_t i = 0; i < part.size(); ++i)
    part[i] = float(i) + 0.5f;
  DeviceBuffer onSecond = DeviceBuffer::allocate(second, 1200).take();
  REQUIRE(onSecond.copyFromHost(part).ok());
  DeviceBuffer whole = DeviceBuffer::allocate(first, 2400).take();
  REQUIRE(whole.fill(0).ok());
  Status copied = whole.copyFromPeer(first, 1200, onSecond, second, 0, 1200);
  INFO(copied.message());
  REQUIRE(copied.ok());
  std::vector<float> back(600);
  REQUIRE(whole.copyToHost(back).ok());
  CHECK(back[299] == 0.0f);
  CHECK(back[300] == 0.5f);
  CHECK(back[599] == 299.5f);
  Status tooFar = whole.copyFromPeer(first, 2000, onSecond, second, 0, 1200);
  REQUIRE_FALSE(tooFar.ok());
  CHECK_THAT(tooFar.message(),
             Contains("copyFromPeer: 1200 bytes at offset 2000 do not fit in "
                      "a buffer of 2400 bytes"));
}

TEST_CASE("Several processes share the JIT's disk cache", "[fake][jit]") {
  // As torchrun starts one process per GPU: each compiles or reads the same
  // specialization in the same cache at once, launches it, and checks.
  std::string dir = freshPath("jit-processes");
  std::vector<pid_t> children;
  for (int p = 0; p < 4; ++p) {
    pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      // No Catch assertions here: the child reports through its status.
      Expected<Context> ctx = Context::create();
      std::unique_ptr<KernelCompiler> compiler = tilec::jit::createCompiler();
      auto kernel = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                        compiler.get(), DiskCache(dir));
      if (!ctx || !kernel)
        ::_exit(2);
      std::int32_t n = 4008;
      std::vector<float> x(n), y(n), out(n);
      for (std::int32_t i = 0; i < n; ++i) {
        x[i] = float(i);
        y[i] = 2.0f * i;
      }
      DeviceBuffer dx = DeviceBuffer::allocate(*ctx, n * 4).take();
      DeviceBuffer dy = DeviceBuffer::allocate(*ctx, n * 4).take();
      DeviceBuffer dout = DeviceBuffer::allocate(*ctx, n * 4).take();
      JitConfig config;
      config.Constexprs = {{"BLOCK", "1024"}};
      bool ok = dx.copyFromHost(x).ok() && dy.copyFromHost(y).ok() &&
                dout.fill(0xff).ok() &&
                (*kernel)
                    ->launch(*ctx, blocksFor(n),
                             {TensorView(dx, ScalarType::FP32, {n}),
                              TensorView(dy, ScalarType::FP32, {n}),
                              TensorView(dout, ScalarType::FP32, {n}), n},
                             config)
                    .ok() &&
                dout.copyToHost(out).ok();
      for (std::int32_t i = 0; ok && i < n; ++i)
        ok = out[i] == 3.0f * i;
      ::_exit(ok ? 0 : 1);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  // One entry, readable by a program without a compiler.
  auto cacheOnly = JitKernel::fromFile(TILEC_VECTOR_ADD_TILE, "add_kernel",
                                       nullptr, DiskCache(dir));
  REQUIRE(cacheOnly.ok());
  Context ctx = makeContext();
  Inputs in(ctx, 4008);
  JitConfig config;
  config.Constexprs = {{"BLOCK", "1024"}};
  Status launched =
      (*cacheOnly)
          ->launch(ctx, blocksFor(in.N),
                   {in.view(in.X), in.view(in.Y), in.view(in.Out), in.N},
                   config);
  INFO(launched.message());
  REQUIRE(launched.ok());
  in.checkOutput();
  std::filesystem::remove_all(dir);
}
