//===- matmul_bench.cpp - Time tilec's tensor-core matmuls ----------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-bench --kernel matmul times tilec's PTX of the seed pointer matmul
// (examples/seeds/matmul_ptr.tile, matmul_ptr_kernel) in fp16 and bf16 and
// of examples/matmul_dtypes.tile's matmul_precision_kernel with
// PRECISION="tf32" (fp32 inputs), on dense row-major M x K and K x N
// matrices, one program per BLOCK_M x BLOCK_N tile of C (grid
// (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))), as bench/triton_matmul.py launches
// the same sources under Triton next to torch.matmul (cuBLAS):
//
//   file                        kernel                   blocks     warps
//   matmul_ptr_fp16_tc_n256.ptx matmul_ptr_kernel        128x256x64 8
//   matmul_ptr_bf16_tc_n256.ptx matmul_ptr_kernel        128x256x64 8
//   matmul_tf32_tc_m256.ptx     matmul_precision_kernel  256x128x32 8
//   matmul_desc_fp16_tc_n256.ptx matmul_desc_kernel      128x256x64 8
//   matmul_desc_bf16_tc.ptx     matmul_desc_kernel       128x256x64 8
//
// (the last two, examples/seeds/matmul_desc.tile, load their operands
// through tensor descriptors: TMA on the H200; reported as dtype
// fp16-desc / bf16-desc).
//
// (the PTX metadata line holds no constexpr values, so the blocks are this
// table's; the _h16 builds declare N, K and the row strides multiples of 16
// and the column strides 1, as Triton's launcher specializes contiguous
// matrices). Sizes: fp16, bf16 and the descriptor kernels at 4096^3, 8192^3
// and 4000^3 (ragged tiles), tf32 at 4096^3 and 8192^3; --size S runs every
// dtype at S^3 only.
//
// Per case: inputs uniform in [-1, 1) rounded to the dtype, the output
// poisoned with NaN, warm-up launches (10 unless --warmup), then timed
// launches (100 unless --iters), each after an L2 flush between its own pair
// of CUDA events, as triton.testing.do_bench times (Bench.h's
// timeLaunches). The
// output of the last one is checked before anything is printed for the
// case: every element must be finite, and on 64 sampled rows (the first, the
// last and 62 random ones; every column) ||C - ref|| / ||ref|| against a
// float64 product of the rounded inputs must be at most 2e-3 (fp16), 1e-2
// (bf16) or 3e-3 (tf32). Then the median time and the rate (2 * M * N * K
// flops) are printed:
//
//   BENCH matmul impl=tilec dtype=fp16 m=M n=N k=K median_ms=T tflops=R
//
// A failing case prints "tilec-bench: FAIL: ..." and the other
// cases still run; the exit status is then 1.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"
#include "HostData.h"

#include "tilec/Runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace tilec::rt;
using namespace tilec::gpu;
using namespace tilec::bench;

namespace {

/// One compiled matmul and what tilec compiled it with.
struct MatmulVariant {
  const char *File;
  const char *Kernel;
  /// The element type of A, B and C.
  ElemType Type;
  /// The name on the BENCH line ("tf32": fp32 data, tf32 tensor cores).
  const char *DType;
  unsigned BlockM, BlockN, BlockK, NumWarps;
  /// Built with N, K and the row strides declared multiples of 16.
  bool Hinted;
  /// matmul_desc_kernel(a, b, c, M, N, K, stride_am, stride_bk, stride_cm)
  /// rather than the six strides of the pointer matmuls.
  bool Descriptor;
  double Tolerance;
  /// The square sizes it runs at by default.
  std::vector<std::uint64_t> Sizes;
};

const std::vector<MatmulVariant> &variants() {
  static const std::vector<MatmulVariant> table = {
      {"matmul_ptr_fp16_tc_n256.ptx",
       "matmul_ptr_kernel",
       ElemType::F16,
       "fp16",
       128,
       256,
       64,
       8,
       true,
       false,
       2e-3,
       {4096, 8192, 4000}},
      {"matmul_ptr_bf16_tc_n256.ptx",
       "matmul_ptr_kernel",
       ElemType::BF16,
       "bf16",
       128,
       256,
       64,
       8,
       true,
       false,
       1e-2,
       {4096, 8192, 4000}},
      {"matmul_tf32_tc_m256.ptx",
       "matmul_precision_kernel",
       ElemType::F32,
       "tf32",
       256,
       128,
       32,
       8,
       true,
       false,
       3e-3,
       {4096, 8192}},
      {"matmul_desc_fp16_tc_n256.ptx",
       "matmul_desc_kernel",
       ElemType::F16,
       "fp16-desc",
       128,
       256,
       64,
       8,
       true,
       true,
       2e-3,
       {4096, 8192, 4000}},
      {"matmul_desc_bf16_tc.ptx",
       "matmul_desc_kernel",
       ElemType::BF16,
       "bf16-desc",
       128,
       256,
       64,
       8,
       true,
       true,
       1e-2,
       {4096, 8192, 4000}},
  };
  return table;
}

constexpr unsigned SampledRows = 64;
constexpr unsigned DefaultIters = 100;
constexpr unsigned DefaultWarmup = 10;

std::uint64_t cdiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

/// The fp32 inputs of one size (before rounding to a dtype), shared by the
/// dtypes that run at that size.
struct HostInputs {
  std::uint64_t M = 0, N = 0, K = 0;
  std::vector<float> A, B; // M x K, K x N, row-major.
};

/// True when the \p type element at \p bytes is an infinity or a NaN.
bool nonFinite(ElemType type, const std::uint8_t *bytes) {
  if (type == ElemType::F32) {
    std::uint32_t bits;
    std::memcpy(&bits, bytes, 4);
    return (bits & 0x7f800000u) == 0x7f800000u;
  }
  std::uint16_t bits;
  std::memcpy(&bits, bytes, 2);
  return type == ElemType::F16 ? (bits & 0x7c00u) == 0x7c00u
                               : (bits & 0x7f80u) == 0x7f80u;
}

/// Counts the non-finite elements of \p bytes (n elements of \p type) and
/// sets \p first to the index of the first one.
std::uint64_t countNonFinite(ElemType type, const std::uint8_t *bytes,
                             std::uint64_t n, std::uint64_t &first) {
  std::uint64_t chunks = cdiv(n, ChunkSize);
  std::vector<std::uint64_t> counts(chunks, 0);
  std::vector<std::uint64_t> firsts(chunks,
                                    std::numeric_limits<std::uint64_t>::max());
  const unsigned size = elemSize(type);
  forEachChunk(
      n, [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
        for (std::uint64_t i = begin; i < end; ++i)
          if (nonFinite(type, bytes + i * size) && counts[chunk]++ == 0)
            firsts[chunk] = i;
      });
  std::uint64_t total = 0;
  first = std::numeric_limits<std::uint64_t>::max();
  for (std::uint64_t c = 0; c < chunks; ++c) {
    total += counts[c];
    first = std::min(first, firsts[c]);
  }
  return total;
}

/// The rows of C the reference computes: the first, the last and random
/// others, sorted, at most SampledRows.
std::vector<std::uint64_t> sampleRows(std::uint64_t m, std::uint32_t seed) {
  std::vector<std::uint64_t> rows;
  if (m <= SampledRows) {
    for (std::uint64_t r = 0; r < m; ++r)
      rows.push_back(r);
    return rows;
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> pick(1, m - 2);
  rows = {0, m - 1};
  while (rows.size() < SampledRows) {
    std::uint64_t r = pick(rng);
    if (std::find(rows.begin(), rows.end(), r) == rows.end())
      rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// ref[s * n + j] = sum_k a[s * k + kk] * b[kk * n + j] in float64, for the
/// rows.size() rows of A gathered in \p a (rows x k, dense) and B (k x n,
/// dense). Parallel over blocks of columns so that B is read once.
void sampledReference(const std::vector<float> &a, const float *b,
                      std::uint64_t rows, std::uint64_t n, std::uint64_t k,
                      std::vector<double> &ref) {
  ref.assign(rows * n, 0.0);
  constexpr std::uint64_t ColBlock = 128;
  forEachRow(cdiv(n, ColBlock), [&](std::uint64_t block) {
    const std::uint64_t j0 = block * ColBlock;
    const std::uint64_t j1 = std::min(n, j0 + ColBlock);
    for (std::uint64_t kk = 0; kk < k; ++kk) {
      const float *brow = b + kk * n;
      for (std::uint64_t s = 0; s < rows; ++s) {
        const double aik = a[s * k + kk];
        double *dst = ref.data() + s * n;
        for (std::uint64_t j = j0; j < j1; ++j)
          dst[j] += aik * static_cast<double>(brow[j]);
      }
    }
  });
}

/// Runs one variant at one size; returns 0, or 1 after printing why.
int benchCase(Context &ctx, const BenchOptions &options,
              const MatmulVariant &variant, const HostInputs &inputs,
              std::uint32_t seed, std::vector<Event> &starts,
              std::vector<Event> &stops, unsigned iters, unsigned warmup) {
  const std::uint64_t m = inputs.M, n = inputs.N, k = inputs.K;
  const std::string path = options.PtxDir + "/" + variant.File;
  char label[160];
  std::snprintf(label, sizeof(label),
                "matmul impl=tilec dtype=%s m=%" PRIu64 " n=%" PRIu64
                " k=%" PRIu64,
                variant.DType, m, n, k);
  auto failCase = [&](const std::string &why) {
    std::fprintf(stderr, "tilec-bench: FAIL: %s (%s): %s\n", label,
                 path.c_str(), why.c_str());
    std::fflush(stderr);
    return 1;
  };

  Expected<Module> module = Module::loadFile(ctx, path);
  if (!module)
    return failCase(module.status().message());
  Expected<Kernel> kernel = module->getKernel(variant.Kernel);
  if (!kernel)
    return failCase(kernel.status().message());
  const KernelMetadata &meta = kernel->metadata();
  const ScalarType expectedElem =
      variant.Type == ElemType::F16    ? ScalarType::FP16
      : variant.Type == ElemType::BF16 ? ScalarType::BF16
                                       : ScalarType::FP32;
  const std::size_t integers = variant.Descriptor ? 6 : 9;
  if (meta.Signature.size() != 3 + integers || !meta.Signature[0].IsPointer ||
      meta.Signature[0].Elem != expectedElem || !meta.Signature[2].IsPointer ||
      meta.Signature[2].Elem != expectedElem)
    return failCase("unexpected signature " + signatureString(meta.Signature) +
                    " (expected *" + elemName(variant.Type) + " A, B, C and " +
                    std::to_string(integers) + " integers)");
  if (meta.NumWarps != variant.NumWarps)
    std::fprintf(stderr,
                 "tilec-bench: warning: %s has num_warps=%u, the bench's "
                 "table says %u\n",
                 path.c_str(), meta.NumWarps, variant.NumWarps);

  // Device data: A and B rounded to the dtype, C poisoned with NaN.
  const unsigned size = elemSize(variant.Type);
  std::vector<std::uint8_t> aBytes(m * k * size), bBytes(k * n * size);
  encodeElements(variant.Type, inputs.A.data(), m * k, aBytes.data());
  encodeElements(variant.Type, inputs.B.data(), k * n, bBytes.data());
  DeviceBuffer da, db, dc;
  for (auto [buffer, bytes] :
       {std::pair<DeviceBuffer *, std::uint64_t>{&da, m * k * size},
        {&db, k * n * size},
        {&dc, m * n * size}}) {
    Expected<DeviceBuffer> allocated = DeviceBuffer::allocate(ctx, bytes);
    if (!allocated)
      return failCase(allocated.status().message());
    *buffer = allocated.take();
  }
  Status status = da.copyFromHost(aBytes);
  if (status.ok())
    status = db.copyFromHost(bBytes);
  if (status.ok())
    status = dc.fill(0xFF); // NaN: every element must be written.
  if (!status.ok())
    return failCase(status.message());

  // matmul(a, b, c, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
  // stride_cm, stride_cn) on dense row-major matrices.
  const Dim3 grid(cdiv(m, variant.BlockM), cdiv(n, variant.BlockN));
  const std::int64_t M = m, N = n, K = k, one = 1;
  auto launch = [&] {
    if (variant.Descriptor)
      return kernel->launch(grid, {da, db, dc, M, N, K, K, N, N});
    return kernel->launch(grid, {da, db, dc, M, N, K, K, one, N, one, N, one});
  };
  if (status.ok())
    status = timeLaunches(ctx, warmup, starts, stops, launch);
  if (status.ok())
    status = ctx.synchronize();
  std::vector<std::uint8_t> cBytes(m * n * size);
  if (status.ok())
    status = dc.copyToHost(cBytes);
  if (!status.ok())
    return failCase(status.message());

  // The check: every element finite, sampled rows against float64.
  std::uint64_t firstBad = 0;
  std::uint64_t bad =
      countNonFinite(variant.Type, cBytes.data(), m * n, firstBad);
  if (bad != 0)
    return failCase(std::to_string(bad) + " of " + std::to_string(m * n) +
                    " outputs are not finite (unwritten or overflowed), the "
                    "first at [" +
                    std::to_string(firstBad / n) + ", " +
                    std::to_string(firstBad % n) + "] (seed " +
                    std::to_string(seed) + ")");
  std::vector<std::uint64_t> rows = sampleRows(m, seed);
  std::vector<float> aRows(rows.size() * k);
  for (std::size_t s = 0; s < rows.size(); ++s)
    decodeElements(variant.Type, aBytes.data() + rows[s] * k * size, k,
                   aRows.data() + s * k);
  std::vector<float> bRounded;
  const float *bRef = inputs.B.data();
  if (variant.Type != ElemType::F32) {
    bRounded.resize(k * n);
    decodeElements(variant.Type, bBytes.data(), k * n, bRounded.data());
    bRef = bRounded.data();
  }
  std::vector<double> ref;
  sampledReference(aRows, bRef, rows.size(), n, k, ref);
  std::vector<float> cRow(n);
  double errorSquares = 0.0, refSquares = 0.0;
  for (std::size_t s = 0; s < rows.size(); ++s) {
    decodeElements(variant.Type, cBytes.data() + rows[s] * n * size, n,
                   cRow.data());
    for (std::uint64_t j = 0; j < n; ++j) {
      double diff = cRow[j] - ref[s * n + j];
      errorSquares += diff * diff;
      refSquares += ref[s * n + j] * ref[s * n + j];
    }
  }
  double relError = std::sqrt(errorSquares) / std::sqrt(refSquares);
  if (!(relError <= variant.Tolerance)) {
    char why[200];
    std::snprintf(why, sizeof(why),
                  "relative error %.3e on %zu sampled rows against float64 "
                  "exceeds %g (seed %u)",
                  relError, rows.size(), variant.Tolerance, seed);
    return failCase(why);
  }

  std::vector<double> times;
  for (unsigned i = 0; i < iters; ++i) {
    Expected<float> ms = Event::elapsedMs(starts[i], stops[i]);
    if (!ms)
      return failCase(ms.status().message());
    times.push_back(*ms);
  }
  const double medianMs = median(times);
  const double flops = 2.0 * double(m) * double(n) * double(k);
  const double tflops = flops / (medianMs * 1e-3) / 1e12;

  std::printf("\ntilec %s %" PRIu64 "x%" PRIu64 "x%" PRIu64 ": %s\n",
              variant.DType, m, n, k, path.c_str());
  std::printf("%s (signature %s): BLOCK %ux%ux%u, grid=%" PRIu64 "x%" PRIu64
              ", block=%u, %d registers, %u bytes of shared memory\n",
              variant.Kernel, signatureString(meta.Signature).c_str(),
              variant.BlockM, variant.BlockN, variant.BlockK, grid.X, grid.Y,
              meta.blockSize(), kernel->numRegisters(), meta.SharedBytes);
  std::printf("result: every output finite; rel. error %.3e on %zu sampled "
              "rows against float64 (tolerance %g)\n",
              relError, rows.size(), variant.Tolerance);
  std::printf("%u timed launches after %u warm-up: median %.4f ms, "
              "min %.4f ms, max %.4f ms\n",
              iters, warmup, medianMs, times.front(), times.back());
  std::printf("BENCH %s median_ms=%.4f tflops=%.1f\n", label, medianMs, tflops);
  std::fflush(stdout);
  return 0;
}

} // namespace

int tilec::bench::benchMatmul(Context &ctx, const BenchOptions &options) {
  const unsigned iters = options.ItersGiven ? options.Iters : DefaultIters;
  const unsigned warmup = options.WarmupGiven ? options.Warmup : DefaultWarmup;
  std::random_device device;
  const std::uint32_t seed = device();
  std::vector<Event> starts, stops;
  if (Status events = createEvents(ctx, iters, starts, stops); !events.ok())
    return fail(events);

  // The cases, grouped by size so that each size's inputs are made once.
  std::vector<std::uint64_t> sizes;
  for (const MatmulVariant &variant : variants())
    for (std::uint64_t size : variant.Sizes)
      if (std::find(sizes.begin(), sizes.end(), size) == sizes.end())
        sizes.push_back(size);
  if (options.Size != 0)
    sizes = {options.Size};

  std::printf("tilec-bench: matmul, PTX from %s, seed %u\n",
              options.PtxDir.c_str(), seed);
  std::fflush(stdout);
  int rc = 0;
  for (std::uint64_t size : sizes) {
    HostInputs inputs;
    for (const MatmulVariant &variant : variants()) {
      if (options.Size == 0 &&
          std::find(variant.Sizes.begin(), variant.Sizes.end(), size) ==
              variant.Sizes.end())
        continue;
      if (variant.Hinted && size % 16 != 0) {
        std::printf("\ntilec %s %" PRIu64 "^3: skipped (%s declares N, K and "
                    "the strides multiples of 16)\n",
                    variant.DType, size, variant.File);
        continue;
      }
      if (inputs.A.empty()) {
        inputs.M = inputs.N = inputs.K = size;
        inputs.A.resize(size * size);
        inputs.B.resize(size * size);
        fillUniform(inputs.A.data(), size * size, seed,
                    static_cast<std::uint32_t>(2 * size));
        fillUniform(inputs.B.data(), size * size, seed,
                    static_cast<std::uint32_t>(2 * size + 1));
      }
      MatmulVariant blocks = variant;
      if (options.BlockM) {
        blocks.BlockM = options.BlockM;
        blocks.BlockN = options.BlockN;
        blocks.BlockK = options.BlockK;
      }
      // Keep going after a failure so that every case is reported.
      if (benchCase(ctx, options, blocks, inputs, seed, starts, stops, iters,
                    warmup))
        rc = 1;
    }
  }
  return rc;
}
