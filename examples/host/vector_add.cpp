//===- vector_add.cpp - Run tilec's vector_add kernel from C++ ------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// A minimal host program for examples/vector_add.tile. It compiles nothing
// at run time: tilec has already turned the kernel into vector_add.ptx, with
// BLOCK=1024 baked in. The program loads that PTX, adds two random vectors on
// the GPU and checks the result against the CPU bit for bit.
//
//   vector-add [PTX_FILE [N]]
//
// PTX_FILE defaults to vector_add.ptx in the build's examples directory.
// Exit status: 0 on success, 1 on failure, 77 (with "SKIP: ...") when the
// machine has no CUDA driver or device.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifndef TILEC_EXAMPLES_PTX_DIR
#define TILEC_EXAMPLES_PTX_DIR "."
#endif

using namespace tilec::rt;

/// The BLOCK constexpr tilec compiled add_kernel with.
static constexpr std::uint64_t Block = 1024;

static int fail(const Status &status) {
  std::fprintf(stderr, "vector-add: error: %s\n", status.message().c_str());
  return 1;
}

int main(int argc, char **argv) {
  std::string ptxPath =
      argc > 1 ? argv[1]
               : std::string(TILEC_EXAMPLES_PTX_DIR) + "/vector_add.ptx";
  std::uint64_t n = 1000003; // Not a multiple of BLOCK: the mask matters.
  if (argc > 2) {
    char *end = nullptr;
    n = std::strtoull(argv[2], &end, 10);
    if (!end || *end != '\0') {
      std::fprintf(stderr, "usage: %s [PTX_FILE [N]]\n", argv[0]);
      return 2;
    }
  }

  Expected<Context> ctx = Context::create();
  if (!ctx) {
    if (ctx.status().isNoDevice()) {
      std::printf("SKIP: %s\n", ctx.status().message().c_str());
      return 77;
    }
    return fail(ctx.status());
  }

  Expected<Module> module = Module::loadFile(*ctx, ptxPath);
  if (!module)
    return fail(module.status());
  Expected<Kernel> kernel = module->getKernel("add_kernel");
  if (!kernel)
    return fail(kernel.status());

  // Random inputs on the host.
  std::random_device device;
  std::uint32_t seed = device();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<float> x(n), y(n), out(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }

  std::size_t bytes = n * sizeof(float);
  Expected<DeviceBuffer> dx = DeviceBuffer::allocate(*ctx, bytes);
  Expected<DeviceBuffer> dy = DeviceBuffer::allocate(*ctx, bytes);
  Expected<DeviceBuffer> dout = DeviceBuffer::allocate(*ctx, bytes);
  for (auto *buffer : {&dx, &dy, &dout})
    if (!*buffer)
      return fail(buffer->status());

  Status status = dx->copyFromHost(x);
  if (status.ok())
    status = dy->copyFromHost(y);
  // Poison the output: 0xFFFFFFFF is a NaN, so unwritten elements fail.
  if (status.ok())
    status = dout->fill(0xFF);
  if (status.ok())
    status =
        kernel->launch(Dim3((n + Block - 1) / Block), {*dx, *dy, *dout, n});
  if (status.ok())
    status = ctx->synchronize();
  if (status.ok())
    status = dout->copyToHost(out);
  if (!status.ok())
    return fail(status);

  std::uint64_t mismatches = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    float expected = x[i] + y[i];
    if (std::memcmp(&out[i], &expected, sizeof(float)) != 0) {
      if (mismatches < 5)
        std::fprintf(stderr,
                     "vector-add: out[%" PRIu64 "] = %.9g, expected %.9g "
                     "(%.9g + %.9g)\n",
                     i, out[i], expected, x[i], y[i]);
      ++mismatches;
    }
  }

  std::printf("vector-add: %s: add_kernel n=%" PRIu64 " grid=%" PRIu64
              " block=%u regs=%d seed=%u: %s (%" PRIu64 " mismatches)\n",
              ctx->info().summary().c_str(), n, (n + Block - 1) / Block,
              kernel->metadata().blockSize(), kernel->numRegisters(), seed,
              mismatches == 0 ? "PASS" : "FAIL", mismatches);
  return mismatches == 0 ? 0 : 1;
}
