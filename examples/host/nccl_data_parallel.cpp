//===- nccl_data_parallel.cpp - A data-parallel step with NCCL ------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The weight gradient of a linear layer, G = X^T @ dY, data-parallel over
// every GPU of the host: device d holds its shard of the batch (rows of X
// and dY; the shards are not all the same size), computes its partial
// product with tilec's fp32 seed matmul (X_d^T read through its strides),
// and NCCL all-reduces the partials in place, so that every device ends
// with the whole G. Every device's G is checked against a float64
// reference (32 rows), and they must agree bit for bit.
//
// NCCL is opened with dlopen, as the runtime opens libcuda: nothing links
// against it. TILEC_NCCL_LIBRARY names the library (default libnccl.so.2
// from the loader's path; torch's wheels ship one under
// site-packages/nvidia/nccl/lib).
//
//   nccl-data-parallel [PTX_FILE [BATCH FEATURES OUTPUTS]]
//
// PTX_FILE defaults to matmul_ptr_ieee_fp32.ptx (64 x 64 x 32 blocks). Exit
// status: 0 on success, 1 on failure, 77 (with "SKIP: ...") without a CUDA
// device or without NCCL.
//
//===----------------------------------------------------------------------===//

#include "DeviceKernel.h"

#include "tilec/Runtime/Runtime.h"

#include <dlfcn.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
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

namespace {

/// The blocks tilec compiled matmul_ptr_ieee_fp32 with.
constexpr std::uint64_t BlockM = 64, BlockN = 64;

/// The part of NCCL's C interface this program calls (nccl.h's names and
/// values).
using NcclComm = struct NcclCommOpaque *;
using NcclResult = int;
constexpr int NcclFloat32 = 7;
constexpr int NcclSum = 0;

struct Nccl {
  NcclResult (*CommInitAll)(NcclComm *, int, const int *);
  NcclResult (*CommDestroy)(NcclComm);
  NcclResult (*AllReduce)(const void *, void *, std::size_t, int, int, NcclComm,
                          void *);
  NcclResult (*GroupStart)();
  NcclResult (*GroupEnd)();
  const char *(*GetErrorString)(NcclResult);

  /// Opens the library; an empty string on success, else why not.
  std::string open() {
    const char *path = std::getenv("TILEC_NCCL_LIBRARY");
    void *library = ::dlopen(path ? path : "libnccl.so.2", RTLD_NOW);
    if (!library)
      return std::string("cannot load NCCL: ") + ::dlerror();
    auto bind = [&](auto &fn, const char *name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
          ::dlsym(library, name));
      return fn != nullptr;
    };
    if (!bind(CommInitAll, "ncclCommInitAll") ||
        !bind(CommDestroy, "ncclCommDestroy") ||
        !bind(AllReduce, "ncclAllReduce") ||
        !bind(GroupStart, "ncclGroupStart") ||
        !bind(GroupEnd, "ncclGroupEnd") ||
        !bind(GetErrorString, "ncclGetErrorString"))
      return "the NCCL library lacks an entry point this program calls";
    return "";
  }

  Status check(NcclResult result, const char *call) const {
    if (result == 0)
      return Status::success();
    return Status::error(ErrorCode::CudaError, std::string(call) + " failed: " +
                                                   GetErrorString(result));
  }
};

int fail(const Status &status) {
  std::fprintf(stderr, "nccl-data-parallel: error: %s\n",
               status.message().c_str());
  return 1;
}

/// Device d's shard: its rows of X and dY, its partial (then whole) G.
struct Shard : DeviceKernel {
  std::uint64_t Row0 = 0, Rows = 0;
  DeviceBuffer X, DY, G;
};

} // namespace

int main(int argc, char **argv) {
  std::string ptxPath = argc > 1 ? argv[1]
                                 : std::string(TILEC_EXAMPLES_PTX_DIR) +
                                       "/matmul_ptr_ieee_fp32.ptx";
  std::uint64_t batch = 4099, features = 520, outputs = 300;
  if (argc > 4) {
    batch = std::strtoull(argv[2], nullptr, 10);
    features = std::strtoull(argv[3], nullptr, 10);
    outputs = std::strtoull(argv[4], nullptr, 10);
  }
  if (batch == 0 || features == 0 || outputs == 0) {
    std::fprintf(stderr, "usage: %s [PTX_FILE [BATCH FEATURES OUTPUTS]]\n",
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
  Nccl nccl;
  if (std::string why = nccl.open(); !why.empty()) {
    std::printf("SKIP: %s\n", why.c_str());
    return 77;
  }

  std::uint32_t seed = std::random_device()();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(batch * features), dy(batch * outputs);
  for (float &v : x)
    v = dist(rng);
  for (float &v : dy)
    v = dist(rng);

  std::uint64_t gBytes = features * outputs * sizeof(float);
  std::vector<Shard> shards;
  for (int d = 0; d < devices; ++d) {
    Expected<DeviceKernel> loaded =
        DeviceKernel::load(d, ptxPath, "matmul_ptr_ieee_kernel");
    if (!loaded)
      return fail(loaded.status());
    Shard s{loaded.take()};
    // Shards of uneven sizes: device d gets (d + 1) parts of the batch.
    std::uint64_t parts = std::uint64_t(devices) * (devices + 1) / 2;
    std::uint64_t before = std::uint64_t(d) * (d + 1) / 2;
    s.Row0 = batch * before / parts;
    s.Rows = batch * (before + d + 1) / parts - s.Row0;
    Expected<DeviceBuffer> dx =
        DeviceBuffer::allocate(s.Ctx, s.Rows * features * sizeof(float));
    Expected<DeviceBuffer> ddy =
        DeviceBuffer::allocate(s.Ctx, s.Rows * outputs * sizeof(float));
    Expected<DeviceBuffer> dg = DeviceBuffer::allocate(s.Ctx, gBytes);
    for (auto *buffer : {&dx, &ddy, &dg})
      if (!*buffer)
        return fail(buffer->status());
    s.X = dx.take();
    s.DY = ddy.take();
    s.G = dg.take();
    Status status = s.X.copyFromHost(x.data() + s.Row0 * features,
                                     s.Rows * features * sizeof(float));
    if (status.ok())
      status = s.DY.copyFromHost(dy.data() + s.Row0 * outputs,
                                 s.Rows * outputs * sizeof(float));
    if (status.ok())
      status = s.G.fill(0xff); // NaN: unwritten elements fail.
    if (!status.ok())
      return fail(status);
    shards.push_back(std::move(s));
  }

  // The partial products: G_d = X_d^T @ dY_d, X_d^T read through strides
  // (M = features along X's columns, K = the shard's rows).
  for (const Shard &s : shards) {
    if (Status current = s.Ctx.makeCurrent(); !current.ok())
      return fail(current);
    auto i32 = [](std::uint64_t v) { return KernelArg(std::int32_t(v)); };
    Status status = s.Fn.launch(
        Dim3((features + BlockM - 1) / BlockM, (outputs + BlockN - 1) / BlockN),
        {s.X, s.DY, s.G, i32(features), i32(outputs), i32(s.Rows), i32(1),
         i32(features), i32(outputs), i32(1), i32(outputs), i32(1)},
        &s.Str);
    if (!status.ok())
      return fail(status);
  }

  // G = sum of the partials, on every device, in place.
  std::vector<int> ordinals(devices);
  for (int d = 0; d < devices; ++d)
    ordinals[d] = d;
  std::vector<NcclComm> comms(devices);
  if (Status s =
          nccl.check(nccl.CommInitAll(comms.data(), devices, ordinals.data()),
                     "ncclCommInitAll");
      !s.ok())
    return fail(s);
  Status status = nccl.check(nccl.GroupStart(), "ncclGroupStart");
  for (int d = 0; d < devices && status.ok(); ++d) {
    void *g = reinterpret_cast<void *>(shards[d].G.ptr().Address);
    status =
        nccl.check(nccl.AllReduce(g, g, features * outputs, NcclFloat32,
                                  NcclSum, comms[d], shards[d].Str.handle()),
                   "ncclAllReduce");
  }
  if (status.ok())
    status = nccl.check(nccl.GroupEnd(), "ncclGroupEnd");
  for (const Shard &s : shards)
    if (status.ok())
      status = s.Str.synchronize();
  if (!status.ok())
    return fail(status);
  for (NcclComm comm : comms)
    nccl.CommDestroy(comm);

  // Every device's G: the same bits, and close to float64.
  std::vector<float> first(features * outputs), other(features * outputs);
  if (Status s = shards[0].G.copyToHost(first); !s.ok())
    return fail(s);
  std::uint64_t differ = 0;
  for (int d = 1; d < devices; ++d) {
    if (Status s = shards[d].G.copyToHost(other); !s.ok())
      return fail(s);
    differ += std::memcmp(first.data(), other.data(), gBytes) != 0;
  }
  double worst = 0;
  std::uint64_t bad = 0;
  for (std::uint64_t r = 0; r < 32; ++r) {
    std::uint64_t f = (features - 1) * r / 31;
    std::vector<double> ref(outputs, 0.0);
    for (std::uint64_t b = 0; b < batch; ++b)
      for (std::uint64_t o = 0; o < outputs; ++o)
        ref[o] += double(x[b * features + f]) * double(dy[b * outputs + o]);
    double scale = 1e-30;
    for (double v : ref)
      scale = std::max(scale, std::fabs(v));
    for (std::uint64_t o = 0; o < outputs; ++o) {
      double error = std::fabs(first[f * outputs + o] - ref[o]) / scale;
      if (!(error <= 1e-5))
        ++bad;
      worst = std::isnan(error) ? error : std::max(worst, error);
    }
  }
  std::printf("nccl-data-parallel: %d device(s), G[%" PRIu64 ", %" PRIu64
              "] = X^T @ dY over a batch of %" PRIu64 " (shards:",
              devices, features, outputs, batch);
  for (const Shard &s : shards)
    std::printf(" %" PRIu64, s.Rows);
  std::printf("), seed %u: largest relative error %.2e, %" PRIu64
              " device(s) differing from device 0: %s\n",
              seed, worst, differ, bad == 0 && differ == 0 ? "PASS" : "FAIL");
  return bad == 0 && differ == 0 ? 0 : 1;
}
