//===- MatmulTests.cpp - GPU tests of the matmul kernels ------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The matmul family of tilec-gpu-tests, C[M, N] = A[M, K] @ B[K, N] with
// fp32 accumulation, for every matmul kernel of the examples and the seeds,
// all with BLOCK_M = 64, BLOCK_N = 64, BLOCK_K = 32 and 4 warps:
//
//  - matmul_ptr_kernel of examples/seeds/matmul_ptr.tile (pointer
//    arithmetic, % M / % N wrap, K mask) in fp16, bf16 and fp32 (default
//    tl.dot precision: tf32 allowed), and matmul_ptr_ieee_kernel (fp32,
//    input_precision="ieee"); C has the inputs' type;
//  - matmul_kernel of examples/matmul.tile (GROUP_M = 8 program order, 1-D
//    grid of cdiv(M, 64) * cdiv(N, 64) programs) in fp16 and fp32 (tf32);
//  - the block-pointer kernels of examples/seeds/matmul_block_ptr.tile and
//    matmul_block_ptr_bt.tile, which store the fp32 accumulator (C is fp32)
//    and take N_ITERS = cdiv(K, BLOCK_K) as a constexpr: one PTX per N_ITERS,
//    each run only on sizes with that many K blocks. The homework variants
//    that check one axis only run where the unchecked axes (and K) divide
//    their blocks;
//  - matmul_desc_kernel of examples/seeds/matmul_desc.tile (tensor
//    descriptors; only row strides are passed, the last stride is 1; fp16,
//    K and N multiples of 8 so that row strides stay 16-byte aligned);
//  - batched_matmul_kernel of examples/batched_matmul.tile (a 3-D tl.dot,
//    several matrices of a batch a program; B also given transposed), and
//    its batched_matmul_desc_kernel (one matrix a program, tensor
//    descriptors made in the kernel on moved bases: 3-D TMA maps).
//
// Sizes include ragged M, N and K (K not a multiple of BLOCK_K), transposed
// B (through the strides of the strided kernels), and padded rows (row
// strides past the row; the padding of the inputs is NaN, that of C must stay
// poisoned). Inputs are uniform in [-1, 1) rounded to the input type; the
// reference is the float64 product of those values. Tolerances (relative
// error of the whole C): fp32 results of exact products (fp16 inputs, or
// ieee) 1e-5; tf32 3e-3 (tf32 keeps 10 mantissa bits: Triton's tf32 code on
// the H200 gave 7e-4 on large C, but a single product can be off by up to
// 2^-9 = 2e-3, and 1e-3 would flake on tiny sizes); fp16 C 2e-3; bf16 C
// 1e-2. Triton's code on the H200 gave about 2e-4 (fp16), 1.7e-3 (bf16) and
// 1e-7 to 7e-7 (exact products). The error is relative to rms(C), floored at
// half the rms C of independent inputs (matmulTolerance), so that a tiny C
// whose products cancel is not judged against its own small size.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestUtil.h"

#include "tilec/Runtime/Tensor.h"

#include <random>
#include <tuple>

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

/// How a matmul kernel takes its operands and is launched.
struct MatmulKind {
  enum ArgStyle {
    /// a, b, c, M, N, K, and all six strides (the pointer kernels).
    Strided,
    /// a, b, c, M, N, K (the block-pointer kernels; contiguous rows).
    Plain,
    /// a, b, c, M, N, K, stride_am, stride_bk, stride_cm (descriptors);
    /// with TransposedB, Bt's row stride (stride_btn) for stride_bk.
    RowStrides,
  };
  ArgStyle Args = Strided;
  /// A 1-D grid of cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs (GROUP_M
  /// ordering) instead of a 2-D one.
  bool Grouped = false;
  /// The kernel reads B as its transpose Bt [N, K], row-major.
  bool TransposedB = false;
  /// The PTX was compiled for N_ITERS = cdiv(K, BLOCK_K) K blocks.
  bool FixedKBlocks = false;
  /// Axes the kernel does not bounds-check: M (resp. N) and K must be
  /// multiples of their blocks.
  bool UncheckedM = false, UncheckedN = false;
  /// The kernel multiplies its inputs scaled by this (fp8 of int8 / 8).
  double InputScale = 1.0;
  /// A persistent kernel: 132 programs walk the tiles.
  bool Persistent = false;
  /// The kernel takes a bias (N values of the input type) after B and
  /// computes C = relu(A @ B + bias).
  bool BiasRelu = false;
  /// RowStrides of block pointers (no TMA unless the hints prove rows of
  /// 16 bytes): any row stride.
  bool AnyRowStride = false;
};

/// A row stride past \p cols that keeps rows 16-byte aligned.
std::uint64_t paddedStride(std::uint64_t cols) {
  return (cols + 7) / 8 * 8 + 8;
}

/// The root mean square of the elements of \p a (not its padding).
double rootMeanSquare(const HostMatrix &a) {
  double squares = 0.0;
  for (std::uint64_t r = 0; r < a.Rows; ++r)
    for (std::uint64_t c = 0; c < a.Cols; ++c)
      squares += static_cast<double>(a.at(r, c)) * a.at(r, c);
  const std::uint64_t n = a.Rows * a.Cols;
  return n != 0 ? std::sqrt(squares / static_cast<double>(n)) : 0.0;
}

/// \p tol for C = A @ B over \p k: a C of independent inputs has an rms of
/// sqrt(K) rms(A) rms(B); half of that is the floor under rms(C), so that
/// a C of a few elements whose products happen to cancel is not judged
/// against its own small size (1x1x128 once came out 1.1e-5 off).
Tolerance matmulTolerance(Tolerance tol, const HostMatrix &a,
                          const HostMatrix &b, std::uint64_t k,
                          double scale = 1.0) {
  tol.RefFloor = 0.5 * std::sqrt(static_cast<double>(k)) * rootMeanSquare(a) *
                 rootMeanSquare(b) * scale * scale;
  return tol;
}

CaseResult runMatmulKind(TestEnv &env, const GpuTest &test,
                         const Kernel &kernel, const Shape &shape,
                         const MatmulKind &kind) {
  const TestConfig &config = test.Config;
  const std::uint64_t m = shape[0], n = shape[1], k = shape[2];
  const bool padded = shape.has(Shape::Flag::Padded);
  const bool transB = kind.TransposedB || shape.has(Shape::Flag::TransB);
  if (shape.has(Shape::Flag::TransB) && kind.Args != MatmulKind::Strided)
    return badSize(test, shape, "this kernel cannot take B transposed");
  if (padded && kind.Args == MatmulKind::Plain)
    return badSize(test, shape, "this kernel assumes contiguous rows");
  if (kind.FixedKBlocks && cdiv(k, config.BlockK) != config.NIters)
    return badSize(test, shape,
                   "K needs N_ITERS=" + std::to_string(cdiv(k, config.BlockK)) +
                       ", the PTX has " + std::to_string(config.NIters));
  if (kind.UncheckedM && (m % config.BlockM || k % config.BlockK))
    return badSize(test, shape, "M and K must be multiples of their blocks");
  if (kind.UncheckedN && (n % config.BlockN || k % config.BlockK))
    return badSize(test, shape, "N and K must be multiples of their blocks");

  // A [M, K], B [K, N] or Bt [N, K], C [M, N]; row strides lda, ldb, ldc.
  const std::uint64_t bRows = transB ? n : k, bCols = transB ? k : n;
  const std::uint64_t lda = padded ? paddedStride(k) : k;
  const std::uint64_t ldb = padded ? paddedStride(bCols) : bCols;
  const std::uint64_t ldc = padded ? paddedStride(n) : n;
  if (kind.Args == MatmulKind::RowStrides && !kind.AnyRowStride &&
      ((lda * elemSize(config.In)) % 16 || (ldb * elemSize(config.In)) % 16 ||
       (ldc * elemSize(config.Out)) % 16))
    return badSize(test, shape,
                   "descriptor row strides must be 16-byte "
                   "multiples");
  const std::uint64_t strideAM = lda, strideAK = 1;
  const std::uint64_t strideBK = transB ? 1 : ldb;
  const std::uint64_t strideBN = transB ? ldb : 1;
  const std::uint64_t strideCM = ldc, strideCN = 1;

  CaseResult result;
  const std::uint64_t tilesM = cdiv(m, config.BlockM);
  const std::uint64_t tilesN = cdiv(n, config.BlockN);
  Dim3 grid = kind.Persistent ? Dim3(132)
              : kind.Grouped  ? Dim3(tilesM * tilesN)
                              : Dim3(tilesM, tilesN);
  result.Grid = gridString(grid);
  result.Flops = 2.0 * m * n * k;

  HostMatrix a = HostMatrix::random(env, config.In, m, k, lda);
  HostMatrix b = HostMatrix::random(env, config.In, bRows, bCols, ldb);
  HostMatrix bias =
      HostMatrix::random(env, config.In, 1, kind.BiasRelu ? n : 0);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &da = buffers.input(a);
  DeviceBuffer &db = buffers.input(b);
  DeviceBuffer *dbias = kind.BiasRelu ? &buffers.input(bias) : nullptr;
  DeviceBuffer &dc = buffers.output(m * ldc * elemSize(config.Out));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);

  std::vector<KernelArg> args = {da, db, dc, m, n, k};
  if (dbias)
    args.insert(args.begin() + 2, *dbias);
  if (kind.Args == MatmulKind::Strided)
    args.insert(args.end(),
                {strideAM, strideAK, strideBK, strideBN, strideCM, strideCN});
  else if (kind.Args == MatmulKind::RowStrides)
    args.insert(args.end(), {strideAM, transB ? strideBN : strideBK, strideCM});
  Status status = launchTimed(env, kernel, grid, args, buffers, result);
  std::vector<float> c;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dc, config.Out, m, n, ldc, c, clobbered);
  if (!status.ok())
    return failed(status, result);

  std::vector<double> ref(m * n);
  matmulReference(a.Values.data(), b.Values.data(), m, n, k, strideAM, strideAK,
                  strideBK, strideBN, ref.data());
  for (double &r : ref)
    r *= kind.InputScale * kind.InputScale;
  if (kind.BiasRelu)
    for (std::uint64_t i = 0; i < m; ++i)
      for (std::uint64_t j = 0; j < n; ++j)
        ref[i * n + j] = std::max(ref[i * n + j] + bias.at(0, j), 0.0);
  bool ok = checkOutput(result, "C", c, ref, n,
                        matmulTolerance(config.Tol, a, b, k, kind.InputScale));
  ok &= recordClobbered(result, "C", clobbered);
  result.Passed = ok;
  return result;
}

CaseResult runMatmulStrided(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  return runMatmulKind(env, test, kernel, shape, MatmulKind());
}

CaseResult runMatmulPersistent(TestEnv &env, const GpuTest &test,
                               const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Persistent = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

/// fp8 products of int8 inputs scaled by 1/8.
CaseResult runMatmulFp8(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                        const Shape &shape) {
  MatmulKind kind;
  kind.InputScale = 0.125;
  return runMatmulKind(env, test, kernel, shape, kind);
}

CaseResult runMatmulGrouped(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Grouped = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

CaseResult runMatmulBlockPtr(TestEnv &env, const GpuTest &test,
                             const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Args = MatmulKind::Plain;
  kind.FixedKBlocks = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

/// boundary_check=(1,) only: M and K are not checked.
CaseResult runMatmulCheckN(TestEnv &env, const GpuTest &test,
                           const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Args = MatmulKind::Plain;
  kind.FixedKBlocks = true;
  kind.UncheckedM = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

/// boundary_check=(0,) only: N and K are not checked.
CaseResult runMatmulCheckM(TestEnv &env, const GpuTest &test,
                           const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Args = MatmulKind::Plain;
  kind.FixedKBlocks = true;
  kind.UncheckedN = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

CaseResult runMatmulBt(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  MatmulKind kind;
  kind.Args = MatmulKind::Plain;
  kind.FixedKBlocks = true;
  kind.TransposedB = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

CaseResult runMatmulDesc(TestEnv &env, const GpuTest &test,
                         const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Args = MatmulKind::RowStrides;
  return runMatmulKind(env, test, kernel, shape, kind);
}

/// matmul_bias_act_kernel(a, b, bias, c, M, N, K, stride_am, stride_bk,
/// stride_cm) with ACTIVATION "relu", GROUP_M ordering.
CaseResult runMatmulBiasRelu(TestEnv &env, const GpuTest &test,
                             const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Args = MatmulKind::RowStrides;
  kind.Grouped = true;
  kind.BiasRelu = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

/// matmul_bt_block_ptr_kernel(a, bt, c, M, N, K, stride_am, stride_btn,
/// stride_cm): B given as Bt [N, K], GROUP_M ordering.
CaseResult runMatmulBtRows(TestEnv &env, const GpuTest &test,
                           const Kernel &kernel, const Shape &shape) {
  MatmulKind kind;
  kind.Args = MatmulKind::RowStrides;
  kind.TransposedB = true;
  kind.Grouped = true;
  kind.AnyRowStride = true;
  return runMatmulKind(env, test, kernel, shape, kind);
}

TestConfig matmulConfig(ElemType in, ElemType out, double tol,
                        unsigned nIters = 0, unsigned groupM = 0) {
  TestConfig config;
  config.In = in;
  config.Out = out;
  config.NumWarps = 4;
  config.BlockM = 64;
  config.BlockN = 64;
  config.BlockK = 32;
  config.NIters = nIters;
  config.GroupM = groupM;
  config.Tol = Tolerance::relative(tol);
  return config;
}

/// grouped_matmul_kernel(a_ptrs, b_ptrs, c_ptrs, sizes, strides,
/// tile_starts, num_groups): shape (G, S), G problems of ragged sizes around
/// S, each fp16 A_g [M, K] @ B_g [K, N] with padded row strides, their
/// addresses passed in int64 arrays; 132 programs take the tiles in turn.
CaseResult runGroupedMatmul(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  const TestConfig &config = test.Config;
  const std::uint64_t groups = shape[0], base = shape[1];
  CaseResult result;
  CaseBuffers buffers(env.Ctx);
  struct Problem {
    std::uint64_t M, N, K, Lda, Ldb, Ldc;
    HostMatrix A, B;
    DeviceBuffer *C = nullptr;
  };
  std::vector<Problem> problems;
  std::vector<std::int32_t> sizes, strides, tileStarts = {0};
  std::vector<std::int64_t> aAddrs, bAddrs, cAddrs;
  for (std::uint64_t g = 0; g < groups; ++g) {
    Problem p;
    p.M = base + 13 * g;
    p.N = base + 29 * (g % 3) + 7 * (g % 2);
    p.K = std::max<std::uint64_t>(1, base + 5 * g - 3 * (g % 4));
    p.Lda = paddedStride(p.K);
    p.Ldb = paddedStride(p.N);
    p.Ldc = paddedStride(p.N);
    p.A = HostMatrix::random(env, config.In, p.M, p.K, p.Lda);
    p.B = HostMatrix::random(env, config.In, p.K, p.N, p.Ldb);
    aAddrs.push_back(std::int64_t(buffers.input(p.A).ptr().Address));
    bAddrs.push_back(std::int64_t(buffers.input(p.B).ptr().Address));
    p.C = &buffers.output(p.M * p.Ldc * elemSize(config.Out));
    cAddrs.push_back(std::int64_t(p.C->ptr().Address));
    for (std::uint64_t v : {p.M, p.N, p.K})
      sizes.push_back(std::int32_t(v));
    for (std::uint64_t v : {p.Lda, p.Ldb, p.Ldc})
      strides.push_back(std::int32_t(v));
    tileStarts.push_back(
        tileStarts.back() +
        std::int32_t(cdiv(p.M, config.BlockM) * cdiv(p.N, config.BlockN)));
    result.Flops += 2.0 * p.M * p.N * p.K;
    problems.push_back(std::move(p));
  }
  DeviceBuffer &da = buffers.input(aAddrs.data(), 8 * groups);
  DeviceBuffer &db = buffers.input(bAddrs.data(), 8 * groups);
  DeviceBuffer &dc = buffers.input(cAddrs.data(), 8 * groups);
  DeviceBuffer &dsizes = buffers.input(sizes.data(), 4 * sizes.size());
  DeviceBuffer &dstrides = buffers.input(strides.data(), 4 * strides.size());
  DeviceBuffer &dstarts =
      buffers.input(tileStarts.data(), 4 * tileStarts.size());
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Dim3 grid(std::min<std::uint64_t>(132, tileStarts.back()));
  result.Grid = gridString(grid);
  Status status = launchTimed(env, kernel, grid,
                              {da, db, dc, dsizes, dstrides, dstarts, groups},
                              buffers, result);
  if (!status.ok())
    return failed(status, result);
  bool ok = true;
  for (std::uint64_t g = 0; g < groups; ++g) {
    const Problem &p = problems[g];
    std::vector<float> c;
    std::uint64_t clobbered = 0;
    status = readMatrix(*p.C, config.Out, p.M, p.N, p.Ldc, c, clobbered);
    if (!status.ok())
      return failed(status, result);
    std::vector<double> ref(p.M * p.N);
    matmulReference(p.A.Values.data(), p.B.Values.data(), p.M, p.N, p.K, p.Lda,
                    1, p.Ldb, 1, ref.data());
    std::string name = "C" + std::to_string(g);
    ok &= checkOutput(result, name.c_str(), c, ref, p.N,
                      matmulTolerance(config.Tol, p.A, p.B, p.K));
    ok &= recordClobbered(result, name.c_str(), clobbered);
  }
  result.Passed = ok;
  return result;
}

/// A kernel of host-side TensorDescriptors of its blocks (a_desc, b_desc,
/// c_desc, M, N, K): fp16 A [M, K], B [K, N] or, \p linear, w [N, K] (the
/// kernel computes A @ w.T), and C [M, N] with padded row strides; 132
/// programs (persistent) or one a block of C.
CaseResult runHostDesc(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape, bool linear) {
  const TestConfig &config = test.Config;
  const std::uint64_t m = shape[0], n = shape[1], k = shape[2];
  const std::uint64_t bRows = linear ? n : k, bCols = linear ? k : n;
  const std::uint64_t lda = paddedStride(k), ldb = paddedStride(bCols),
                      ldc = paddedStride(n);
  CaseResult result;
  Dim3 grid =
      linear ? Dim3(cdiv(m, config.BlockM), cdiv(n, config.BlockN)) : Dim3(132);
  result.Grid = gridString(grid);
  result.Flops = 2.0 * m * n * k;
  HostMatrix a = HostMatrix::random(env, config.In, m, k, lda);
  HostMatrix b = HostMatrix::random(env, config.In, bRows, bCols, ldb);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &da = buffers.input(a);
  DeviceBuffer &db = buffers.input(b);
  DeviceBuffer &dc = buffers.output(m * ldc * elemSize(config.Out));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  auto view = [](const DeviceBuffer &buffer, std::uint64_t rows,
                 std::uint64_t cols, std::uint64_t ld) {
    return TensorView(buffer.ptr(), ScalarType::FP16,
                      {std::int64_t(rows), std::int64_t(cols)},
                      {std::int64_t(ld), 1});
  };
  const std::int64_t bm = config.BlockM, bn = config.BlockN, bk = config.BlockK;
  Expected<TensorDescriptor> aDesc =
      TensorDescriptor::fromTensor(view(da, m, k, lda), {bm, bk});
  Expected<TensorDescriptor> bDesc = TensorDescriptor::fromTensor(
      view(db, bRows, bCols, ldb), {linear ? bn : bk, linear ? bk : bn});
  Expected<TensorDescriptor> cDesc =
      TensorDescriptor::fromTensor(view(dc, m, n, ldc), {bm, bn});
  for (const Status &s : {aDesc.status(), bDesc.status(), cDesc.status()})
    if (!s.ok())
      return failed(s, result);
  Status status = launchTimed(
      env, kernel, grid, {*aDesc, *bDesc, *cDesc, m, n, k}, buffers, result);
  std::vector<float> c;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dc, config.Out, m, n, ldc, c, clobbered);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(m * n);
  matmulReference(a.Values.data(), b.Values.data(), m, n, k, lda, 1,
                  linear ? 1 : ldb, linear ? ldb : 1, ref.data());
  bool ok =
      checkOutput(result, "C", c, ref, n, matmulTolerance(config.Tol, a, b, k));
  ok &= recordClobbered(result, "C", clobbered);
  result.Passed = ok;
  return result;
}

/// persistent_matmul_kernel: A @ B on 132 programs.
CaseResult runMatmulHostDesc(TestEnv &env, const GpuTest &test,
                             const Kernel &kernel, const Shape &shape) {
  return runHostDesc(env, test, kernel, shape, /*linear=*/false);
}

/// linear_desc_kernel: A @ w.T, a program a block of C.
CaseResult runLinearHostDesc(TestEnv &env, const GpuTest &test,
                             const Kernel &kernel, const Shape &shape) {
  return runHostDesc(env, test, kernel, shape, /*linear=*/true);
}

/// batched_matmul_kernel(a, b, c, batch, M, N, K, nine strides) of
/// examples/batched_matmul.tile: C[i] = A[i] @ B[i] (a 3-D tl.dot), fp16
/// A [batch, M, K] and B [batch, K, N] with padded rows, fp32 C; size
/// (batch, M, N, K, transposed): B given transposed (its rows are N, its
/// columns K) when `transposed` is 1. Grid (cdiv(batch, BLOCK_B), cdiv(M,
/// BLOCK_M), cdiv(N, BLOCK_N)), BLOCK_B in config.Block.
CaseResult runBatchedMatmul(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  const TestConfig &config = test.Config;
  const std::uint64_t batch = shape[0], m = shape[1], n = shape[2],
                      k = shape[3];
  const bool transposed = shape[4] != 0;
  // Padded rows, 16 elements past a multiple of 16 (strides the wgmma
  // build declares multiples of 16).
  auto stride = [](std::uint64_t cols) { return (cols + 15) / 16 * 16 + 16; };
  const std::uint64_t lda = stride(k), ldb = stride(transposed ? k : n),
                      ldc = stride(n);
  const std::uint64_t bRows = transposed ? n : k;
  CaseResult result;
  Dim3 grid(cdiv(batch, config.Block), cdiv(m, config.BlockM),
            cdiv(n, config.BlockN));
  result.Grid = gridString(grid);
  result.Flops = 2.0 * batch * m * n * k;
  HostMatrix a = HostMatrix::random(env, config.In, batch * m, k, lda);
  HostMatrix b = HostMatrix::random(env, config.In, batch * bRows,
                                    transposed ? k : n, ldb);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &da = buffers.input(a);
  DeviceBuffer &db = buffers.input(b);
  DeviceBuffer &dc = buffers.output(batch * m * ldc * elemSize(config.Out));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  const std::uint64_t strideBK = transposed ? 1 : ldb,
                      strideBN = transposed ? ldb : 1;
  Status status =
      launchTimed(env, kernel, grid,
                  {da, db, dc, batch, m, n, k, m * lda, lda, 1, bRows * ldb,
                   strideBK, strideBN, m * ldc, ldc, 1},
                  buffers, result);
  std::vector<float> c;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dc, config.Out, batch * m, n, ldc, c, clobbered);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(batch * m * n);
  for (std::uint64_t i = 0; i < batch; ++i)
    matmulReference(a.Values.data() + i * m * lda,
                    b.Values.data() + i * bRows * ldb, m, n, k, lda, 1,
                    strideBK, strideBN, ref.data() + i * m * n);
  bool ok =
      checkOutput(result, "C", c, ref, n, matmulTolerance(config.Tol, a, b, k));
  ok &= recordClobbered(result, "C", clobbered);
  result.Passed = ok;
  return result;
}

/// The tensor-core configurations: 128 x 128 x \p blockK blocks, 8 warps.
TestConfig tensorCoreConfig(ElemType in, ElemType out, double tol,
                            unsigned blockK) {
  TestConfig config = matmulConfig(in, out, tol);
  config.NumWarps = 8;
  config.BlockM = 128;
  config.BlockN = 128;
  config.BlockK = blockK;
  return config;
}

/// mx_matmul_kernel(a, a_scale, b, b_scale, c, M, N, K, stride_am,
/// stride_bk, stride_cm) of examples/mx_matmul.tile with A in \p formatA and
/// B in \p formatB, bytes uniform over the finite codes; e8m0 scales
/// uniform in 2^-3..2^3 (124..130) one per 32 elements, or for \p nvfp4
/// e4m3 scales uniform over 2^-3..2^3 with any mantissa, one per 16; size
/// (M, N, K), K a multiple of the group.
CaseResult runMxMatmul(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape, MxFormat formatA, MxFormat formatB,
                       bool nvfp4 = false) {
  const TestConfig &config = test.Config;
  const std::uint64_t m = shape[0], n = shape[1], k = shape[2];
  const std::uint64_t group = nvfp4 ? 16 : 32;
  if (k % group)
    return badSize(test, shape, "K must be a multiple of the scale group");
  const bool padded = shape.has(Shape::Flag::Padded);
  const std::uint64_t packA = mxPacking(formatA), packB = mxPacking(formatB);
  // Row strides multiples of 16 (the signature says so), past the row
  // when padded.
  auto stride = [padded](std::uint64_t cols) {
    return (cols + 15) / 16 * 16 + (padded ? 16 : 0);
  };
  const std::uint64_t lda = stride(k / packA), ldb = stride(n), ldc = stride(n);
  const std::uint64_t groups = k / group;
  CaseResult result;
  Dim3 grid(cdiv(m, config.BlockM), cdiv(n, config.BlockN));
  result.Grid = gridString(grid);
  result.Flops = 2.0 * m * n * k;

  // Padding bytes hold e4m3 NaN codes: read, they would show.
  std::mt19937 generator(env.Seed * 7919u + env.NextStream++);
  auto randomByte = [&](MxFormat format) {
    for (;;)
      if (auto byte = std::uint8_t(generator()); mxFinite(format, byte))
        return byte;
  };
  std::vector<std::uint8_t> a(m * lda, 0xFF), b(k / packB * ldb, 0xFF);
  std::vector<std::uint8_t> aScale(m * groups), bScale(n * groups);
  for (std::uint64_t r = 0; r < m; ++r)
    for (std::uint64_t c = 0; c < k / packA; ++c)
      a[r * lda + c] = randomByte(formatA);
  for (std::uint64_t r = 0; r < k / packB; ++r)
    for (std::uint64_t c = 0; c < n; ++c)
      b[r * ldb + c] = randomByte(formatB);
  // e4m3: exponent field 4..10 (bias 7), any mantissa.
  auto randomScale = [&] {
    return nvfp4 ? std::uint8_t((4 + generator() % 7) << 3 | generator() % 8)
                 : std::uint8_t(124 + generator() % 7);
  };
  for (std::uint8_t &s : aScale)
    s = randomScale();
  for (std::uint8_t &s : bScale)
    s = randomScale();

  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &da = buffers.input(a);
  DeviceBuffer &daScale = buffers.input(aScale);
  DeviceBuffer &db = buffers.input(b);
  DeviceBuffer &dbScale = buffers.input(bScale);
  DeviceBuffer &dc = buffers.output(m * ldc * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid, {da, daScale, db, dbScale, dc, m, n, k, lda, ldb, ldc},
      buffers, result);
  std::vector<float> c;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dc, ElemType::F32, m, n, ldc, c, clobbered);
  if (!status.ok())
    return failed(status, result);

  std::vector<double> ref(m * n);
  double rmsA = 0.0, rmsB = 0.0;
  mxMatmulReference(a.data(), lda, aScale.data(), formatA, b.data(), ldb,
                    bScale.data(), formatB, m, n, k, ref.data(), rmsA, rmsB,
                    group, nvfp4);
  // The products are exact in bf16; the sums are fp32.
  Tolerance tol = config.Tol;
  tol.RefFloor = 0.5 * std::sqrt(double(k)) * rmsA * rmsB;
  bool ok = checkOutput(result, "C", c, ref, n, tol);
  ok &= recordClobbered(result, "C", clobbered);
  result.Passed = ok;
  return result;
}

CaseResult runMxFp4Fp8(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  return runMxMatmul(env, test, kernel, shape, MxFormat::E2M1, MxFormat::E4M3);
}

CaseResult runMxFp8Fp8(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  return runMxMatmul(env, test, kernel, shape, MxFormat::E5M2, MxFormat::E4M3);
}

CaseResult runMxFp4Fp4(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  return runMxMatmul(env, test, kernel, shape, MxFormat::E2M1, MxFormat::E2M1);
}

CaseResult runMxNvfp4(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                      const Shape &shape) {
  return runMxMatmul(env, test, kernel, shape, MxFormat::E2M1, MxFormat::E2M1,
                     /*nvfp4=*/true);
}

} // namespace

void tilec::gpu::addMatmulTests(std::vector<GpuTest> &tests) {
  const ElemType F32 = ElemType::F32, F16 = ElemType::F16,
                 BF16 = ElemType::BF16;
  const Shape::Flag Pad = Shape::Flag::Padded, BT = Shape::Flag::TransB;
  constexpr double ExactTol = 1e-5, Tf32Tol = 3e-3, Fp16Tol = 2e-3,
                   Bf16Tol = 1e-2;

  // The seed's pointer-arithmetic matmul. Ragged sizes: K = 77 is not a
  // multiple of BLOCK_K, 100 and 130 not of 64; M, N < 64 wrap with % M.
  std::vector<Shape> ptrSizes = {{64, 64, 32},          {128, 128, 128},
                                 {100, 130, 77},        {1, 1, 1},
                                 {33, 17, 9},           {257, 129, 200},
                                 {{128, 96, 64}, BT},   {{100, 130, 77}, BT},
                                 {{100, 130, 77}, Pad}, {512, 512, 512}};
  std::vector<Shape> ptrSizesLarge = ptrSizes;
  ptrSizesLarge.push_back({1024, 1024, 1024});
  tests.push_back({"matmul_ptr_fp16", "matmul_ptr_fp16.ptx",
                   "matmul_ptr_kernel", ptrSizesLarge, runMatmulStrided,
                   matmulConfig(F16, F16, Fp16Tol)});
  {
    // BLOCK_N = 1: tl.dot of a 64 x 32 tile and a column (the FMA path).
    TestConfig config = matmulConfig(F16, F16, Fp16Tol);
    config.BlockN = 1;
    tests.push_back({"matmul_ptr_fp16_n1", "matmul_ptr_fp16_n1.ptx",
                     "matmul_ptr_kernel", ptrSizes, runMatmulStrided, config});
  }
  // The hinted build needs N and K multiples of 16 and contiguous rows; M
  // stays ragged, and K = 80 or 208 is not a multiple of BLOCK_K.
  std::vector<Shape> hintedSizes = {{128, 128, 128}, {100, 144, 80},
                                    {1, 16, 16},     {257, 128, 208},
                                    {512, 512, 512}, {1024, 1024, 1024}};
  tests.push_back({"matmul_ptr_fp16_h16", "matmul_ptr_fp16_h16.ptx",
                   "matmul_ptr_kernel", hintedSizes, runMatmulStrided,
                   matmulConfig(F16, F16, Fp16Tol)});
  tests.push_back({"matmul_ptr_bf16", "matmul_ptr_bf16.ptx",
                   "matmul_ptr_kernel", ptrSizes, runMatmulStrided,
                   matmulConfig(BF16, BF16, Bf16Tol)});
  std::vector<Shape> ieeeSizes = ptrSizes;
  ieeeSizes.push_back({4096, 4096, 4096});
  tests.push_back({"matmul_ptr_ieee_fp32", "matmul_ptr_ieee_fp32.ptx",
                   "matmul_ptr_ieee_kernel", ieeeSizes, runMatmulStrided,
                   matmulConfig(F32, F32, ExactTol)});
  tests.push_back({"matmul_ptr_tf32", "matmul_ptr_tf32.ptx",
                   "matmul_ptr_kernel", ptrSizes, runMatmulStrided,
                   matmulConfig(F32, F32, Tf32Tol)});

  // The tutorial's GROUP_M matmul: 600 rows are 10 row tiles, so the last
  // group has 2; 1000 rows are 16 tiles, two full groups.
  std::vector<Shape> groupSizes = {
      {128, 128, 128},        {100, 130, 77},    {600, 200, 64},
      {1000, 1000, 96},       {1, 1, 1},         {{300, 500, 200}, BT},
      {{257, 129, 200}, Pad}, {1024, 1024, 1024}};
  tests.push_back({"matmul_group_fp16", "matmul_group_fp16.ptx",
                   "matmul_kernel", groupSizes, runMatmulGrouped,
                   matmulConfig(F16, F16, Fp16Tol, 0, 8)});
  tests.push_back({"matmul_group_tf32",
                   "matmul_group_tf32.ptx",
                   "matmul_kernel",
                   {{128, 128, 128}, {600, 200, 77}, {512, 512, 512}},
                   runMatmulGrouped,
                   matmulConfig(F32, F32, Tf32Tol, 0, 8)});

  // Block pointers: fp16 A and B, fp32 C. N_ITERS = 3 covers K in (64, 96],
  // 4 covers (96, 128], 16 covers (480, 512].
  tests.push_back({"matmul_bp_fp16_it3",
                   "matmul_bp_fp16_it3.ptx",
                   "matmul_bp_kernel",
                   {{100, 130, 77}, {33, 17, 65}, {256, 256, 96}},
                   runMatmulBlockPtr,
                   matmulConfig(F16, F32, ExactTol, 3)});
  tests.push_back(
      {"matmul_bp_fp16_it4",
       "matmul_bp_fp16_it4.ptx",
       "matmul_bp_kernel",
       {{128, 128, 128}, {100, 130, 100}, {64, 64, 97}, {1, 1, 128}},
       runMatmulBlockPtr,
       matmulConfig(F16, F32, ExactTol, 4)});
  // Through TMA (N, K multiples of 16; the 8 K steps of 64 cover K).
  TestConfig bpTma = tensorCoreConfig(F16, F32, Fp16Tol, 64);
  bpTma.NIters = 8;
  tests.push_back(
      {"matmul_bp_fp16_tc_h16",
       "matmul_bp_fp16_tc_h16.ptx",
       "matmul_bp_kernel",
       {{128, 128, 512}, {256, 144, 464}, {1000, 784, 496}, {4096, 4096, 512}},
       runMatmulBlockPtr,
       bpTma});
  tests.push_back({"matmul_bp_fp16_it16",
                   "matmul_bp_fp16_it16.ptx",
                   "matmul_bp_kernel",
                   {{512, 512, 512}, {300, 200, 500}},
                   runMatmulBlockPtr,
                   matmulConfig(F16, F32, ExactTol, 16)});
  // The lesson's own setting: fp32 everywhere (default precision: tf32).
  tests.push_back({"matmul_bp_tf32_it3",
                   "matmul_bp_tf32_it3.ptx",
                   "matmul_bp_kernel",
                   {{100, 130, 77}, {128, 128, 96}},
                   runMatmulBlockPtr,
                   matmulConfig(F32, F32, Tf32Tol, 3)});
  // Homework 3: only N checked (M, K multiples of 64, 32), only M checked
  // (N, K multiples of 64, 32).
  tests.push_back({"matmul_bp_check_n_fp16_it4",
                   "matmul_bp_check_n_fp16_it4.ptx",
                   "matmul_bp_check_n_kernel",
                   {{128, 130, 128}, {192, 1, 128}, {64, 64, 128}},
                   runMatmulCheckN,
                   matmulConfig(F16, F32, ExactTol, 4)});
  tests.push_back({"matmul_bp_check_m_fp16_it4",
                   "matmul_bp_check_m_fp16_it4.ptx",
                   "matmul_bp_check_m_kernel",
                   {{130, 128, 128}, {1, 64, 128}, {100, 192, 128}},
                   runMatmulCheckM,
                   matmulConfig(F16, F32, ExactTol, 4)});
  // Part C: B given as Bt [N, K].
  tests.push_back({"matmul_bt_fp16_it3",
                   "matmul_bt_fp16_it3.ptx",
                   "matmul_bt_kernel",
                   {{100, 130, 77}, {33, 17, 65}, {256, 192, 96}},
                   runMatmulBt,
                   matmulConfig(F16, F32, ExactTol, 3)});
  tests.push_back({"matmul_bt_fp16_it4",
                   "matmul_bt_fp16_it4.ptx",
                   "matmul_bt_kernel",
                   {{128, 128, 128}, {100, 130, 100}},
                   runMatmulBt,
                   matmulConfig(F16, F32, ExactTol, 4)});
  tests.push_back({"matmul_bt_fp16_it4_h16",
                   "matmul_bt_fp16_it4_h16.ptx",
                   "matmul_bt_kernel",
                   {{128, 128, 128}, {100, 144, 112}, {256, 192, 128}},
                   runMatmulBt,
                   matmulConfig(F16, F32, ExactTol, 4)});

  // Tensor cores (wgmma): 128x128x32 blocks (128x128x16 for tf32x3), 8
  // warps. 1000 x 777 x 515 is
  // ragged in every dimension; 4096^3 is the size the speed is judged at.
  std::vector<Shape> tcSizes = {{1000, 777, 515},       {128, 128, 128},
                                {257, 129, 200},        {{1000, 777, 515}, BT},
                                {{300, 200, 100}, Pad}, {1, 1, 1},
                                {4096, 4096, 4096}};
  std::vector<Shape> tcHintedSizes = {
      {1000, 784, 528}, {128, 128, 128}, {4096, 4096, 4096}};
  tests.push_back({"matmul_ptr_fp16_tc", "matmul_ptr_fp16_tc.ptx",
                   "matmul_ptr_kernel", tcSizes, runMatmulStrided,
                   tensorCoreConfig(F16, F16, Fp16Tol, 32)});
  {
    TestConfig config = tensorCoreConfig(F16, F16, Fp16Tol, 64);
    config.BlockN = 256;
    tests.push_back({"matmul_ptr_fp16_tc_u256", "matmul_ptr_fp16_tc_u256.ptx",
                     "matmul_ptr_kernel", tcSizes, runMatmulStrided, config});
  }
  {
    // Row strides that are multiples of 8, not all of 16 (the ':8' hint).
    TestConfig config = tensorCoreConfig(F16, F16, Fp16Tol, 64);
    config.BlockN = 256;
    std::vector<Shape> sizes = {
        {1000, 776, 520}, {257, 136, 200}, {1000, 5000, 2000}};
    tests.push_back({"matmul_ptr_fp16_tc_h8", "matmul_ptr_fp16_tc_h8.ptx",
                     "matmul_ptr_kernel", sizes, runMatmulStrided, config});
  }
  tests.push_back({"matmul_ptr_fp16_tc_h16", "matmul_ptr_fp16_tc_h16.ptx",
                   "matmul_ptr_kernel", tcHintedSizes, runMatmulStrided,
                   tensorCoreConfig(F16, F16, Fp16Tol, 32)});
  tests.push_back({"matmul_ptr_bf16_tc", "matmul_ptr_bf16_tc.ptx",
                   "matmul_ptr_kernel", tcSizes, runMatmulStrided,
                   tensorCoreConfig(BF16, BF16, Bf16Tol, 32)});
  tests.push_back({"matmul_ptr_bf16_tc_h16", "matmul_ptr_bf16_tc_h16.ptx",
                   "matmul_ptr_kernel", tcHintedSizes, runMatmulStrided,
                   tensorCoreConfig(BF16, BF16, Bf16Tol, 32)});
  tests.push_back({"matmul_tf32_tc", "matmul_tf32_tc.ptx",
                   "matmul_precision_kernel", tcSizes, runMatmulStrided,
                   tensorCoreConfig(F32, F32, Tf32Tol, 32)});
  tests.push_back({"matmul_tf32_tc_h16", "matmul_tf32_tc_h16.ptx",
                   "matmul_precision_kernel", tcHintedSizes, runMatmulStrided,
                   tensorCoreConfig(F32, F32, Tf32Tol, 32)});
  {
    TestConfig config = tensorCoreConfig(F32, F32, Tf32Tol, 32);
    config.BlockM = 256;
    tests.push_back({"matmul_tf32_tc_m256", "matmul_tf32_tc_m256.ptx",
                     "matmul_precision_kernel", tcHintedSizes, runMatmulStrided,
                     config});
  }
  // tf32 blocks of 32 x 64 (x 32), 4 warps: transposed products whose
  // instructions are m64n32k8.
  {
    TestConfig config = matmulConfig(F32, F32, Tf32Tol);
    config.BlockM = 32;
    tests.push_back({"matmul_ptr_tf32_m32", "matmul_ptr_tf32_m32.ptx",
                     "matmul_ptr_kernel", ptrSizes, runMatmulStrided, config});
    tests.push_back({"matmul_ptr_tf32_m32_h16", "matmul_ptr_tf32_m32_h16.ptx",
                     "matmul_ptr_kernel", hintedSizes, runMatmulStrided,
                     config});
  }
  tests.push_back({"matmul_ptr_fp16_tc_k64s4", "matmul_ptr_fp16_tc_k64s4.ptx",
                   "matmul_ptr_kernel", tcHintedSizes, runMatmulStrided,
                   tensorCoreConfig(F16, F16, Fp16Tol, 64)});
  // 128x256x64 blocks, 4 stages, products in flight.
  for (auto [name, type, tol] :
       {std::tuple{"matmul_ptr_fp16_tc_n256", F16, Fp16Tol},
        std::tuple{"matmul_ptr_bf16_tc_n256", BF16, Bf16Tol}}) {
    TestConfig config = tensorCoreConfig(type, type, tol, 64);
    config.BlockN = 256;
    tests.push_back({name, std::string(name) + ".ptx", "matmul_ptr_kernel",
                     tcHintedSizes, runMatmulStrided, config});
  }
  // The same blocks on 4 warps: the accumulator spilled by ptxas.
  {
    TestConfig config = tensorCoreConfig(F16, F16, Fp16Tol, 64);
    config.NumWarps = 4;
    config.BlockN = 256;
    tests.push_back({"matmul_ptr_fp16_tc_w4_n256",
                     "matmul_ptr_fp16_tc_w4_n256.ptx", "matmul_ptr_kernel",
                     tcHintedSizes, runMatmulStrided, config});
  }
  // tf32x3: three tf32 products on hi/lo splits, about fp32 accuracy.
  tests.push_back({"matmul_tf32x3_tc", "matmul_tf32x3_tc.ptx",
                   "matmul_precision_kernel", tcSizes, runMatmulStrided,
                   tensorCoreConfig(F32, F32, ExactTol, 16)});
  // int8 into int32: integers in [-8, 8], summed exactly.
  tests.push_back({"matmul_int8_tc", "matmul_int8_tc.ptx", "matmul_int8_kernel",
                   tcSizes, runMatmulStrided,
                   tensorCoreConfig(ElemType::I8, ElemType::I32, 1e-9, 32)});
  // The same with the hints: B's rows of N staged into K-major slots
  // through registers (tile-pipeline), at the test's blocks and at the
  // benchmark's 128 x 256 x 64 ones.
  tests.push_back({"matmul_int8_tc_h16", "matmul_int8_tc_h16.ptx",
                   "matmul_int8_kernel", tcHintedSizes, runMatmulStrided,
                   tensorCoreConfig(ElemType::I8, ElemType::I32, 1e-9, 32)});
  {
    TestConfig config = tensorCoreConfig(ElemType::I8, ElemType::I32, 1e-9, 64);
    config.BlockN = 256;
    tests.push_back({"matmul_int8_tc_n256", "matmul_int8_tc_n256.ptx",
                     "matmul_int8_kernel", tcHintedSizes, runMatmulStrided,
                     config});
  }
  // uint8 into int32, bytes over all of [0, 255] (wgmma's .u8 operands):
  // exact sums, read as floats.
  tests.push_back({"matmul_uint8_tc", "matmul_uint8_tc.ptx",
                   "matmul_int8_kernel", tcSizes, runMatmulStrided,
                   tensorCoreConfig(ElemType::U8, ElemType::I32, 1e-7, 32)});

  // fp8 (e4m3, e5m2) into fp32: int8 inputs in [-8, 8] divided by 8 are
  // exact in both formats, and so are the sums.
  for (const char *fp8 : {"e4m3", "e5m2"})
    tests.push_back({std::string("matmul_") + fp8 + "_tc",
                     std::string("matmul_") + fp8 + "_tc.ptx",
                     "matmul_fp8_kernel", tcSizes, runMatmulFp8,
                     tensorCoreConfig(ElemType::I8, F32, 1e-7, 32)});

  // Microscaled products (tl.dot_scaled): fp4 and fp8 bytes with e8m0
  // scales (and nvfp4: fp4 with e4m3 scales), decoded to bf16 (exact) and
  // summed in fp32. Ragged M, N and K (K a multiple of the scale group, not
  // of BLOCK_K = 64).
  std::vector<Shape> mxSizes = {{1, 1, 32},
                                {100, 72, 96},
                                {{257, 130, 160}, Pad},
                                {512, 512, 512},
                                {1000, 776, 256}};
  // (fp4 x fp4 with BLOCK_N = 64, as examples/CMakeLists.txt builds it.)
  for (auto [name, run, blockN] :
       {std::tuple{"mx_matmul_fp4_fp8", &runMxFp4Fp8, 128u},
        std::tuple{"mx_matmul_fp8_fp8", &runMxFp8Fp8, 128u},
        std::tuple{"mx_matmul_fp4_fp4", &runMxFp4Fp4, 64u},
        std::tuple{"mx_matmul_nvfp4", &runMxNvfp4, 64u}}) {
    TestConfig config = tensorCoreConfig(ElemType::I8, F32, 1e-5, 64);
    config.BlockN = blockN;
    tests.push_back({name, std::string(name) + ".ptx", "mx_matmul_kernel",
                     mxSizes, run, config});
  }

  // The benchmark's build, whose M, N and K are declared multiples of 16:
  // sizes that are, ragged against the 128 x 128 x 64 blocks.
  {
    TestConfig config = tensorCoreConfig(ElemType::I8, F32, 1e-5, 64);
    config.BlockN = 128;
    tests.push_back({"mx_matmul_fp4_fp8_h16",
                     "mx_matmul_fp4_fp8_h16.ptx",
                     "mx_matmul_kernel",
                     {{16, 16, 32}, {1008, 784, 160}, {512, 512, 512}},
                     &runMxFp4Fp8,
                     config});
  }

  // mma.sync with ldmatrix (the sm_80 path), on the H200.
  tests.push_back({"matmul_ptr_fp16_sm80", "matmul_ptr_fp16_sm80.ptx",
                   "matmul_ptr_kernel", ptrSizesLarge, runMatmulStrided,
                   matmulConfig(F16, F16, Fp16Tol)});
  tests.push_back({"matmul_ptr_bf16_sm80", "matmul_ptr_bf16_sm80.ptx",
                   "matmul_ptr_kernel", ptrSizes, runMatmulStrided,
                   matmulConfig(BF16, BF16, Bf16Tol)});

  // Tensor descriptors: K and N multiples of 8 (fp16 rows 16-byte aligned);
  // K = 72 is not a multiple of BLOCK_K, M = 100 not of BLOCK_M.
  tests.push_back({"matmul_desc_fp16",
                   "matmul_desc_fp16.ptx",
                   "matmul_desc_kernel",
                   {{128, 128, 128},
                    {100, 136, 72},
                    {1, 8, 8},
                    {{100, 136, 72}, Pad},
                    {512, 512, 512}},
                   runMatmulDesc,
                   matmulConfig(F16, F16, Fp16Tol)});
  // Through TMA: ragged in M, N and K, and a 4096^3 product.
  std::vector<Shape> descTcSizes = {{128, 128, 128},
                                    {1000, 776, 520},
                                    {1, 8, 8},
                                    {{300, 200, 104}, Pad},
                                    {4096, 4096, 4096}};
  tests.push_back({"matmul_desc_fp16_tc", "matmul_desc_fp16_tc.ptx",
                   "matmul_desc_kernel", descTcSizes, runMatmulDesc,
                   tensorCoreConfig(F16, F16, Fp16Tol, 64)});
  // Built with N and C's row stride multiples of 16.
  TestConfig bf16Wide = tensorCoreConfig(BF16, BF16, Bf16Tol, 64);
  bf16Wide.BlockN = 256;
  tests.push_back(
      {"matmul_desc_bf16_tc",
       "matmul_desc_bf16_tc.ptx",
       "matmul_desc_kernel",
       {{128, 128, 128}, {1000, 784, 520}, {1, 16, 8}, {4096, 4096, 4096}},
       runMatmulDesc,
       bf16Wide});
  // Operands whose addresses the kernel loads from arrays.
  tests.push_back({"grouped_matmul",
                   "grouped_matmul.ptx",
                   "grouped_matmul_kernel",
                   {{1, 1}, {3, 100}, {7, 257}, {16, 1000}},
                   runGroupedMatmul,
                   tensorCoreConfig(F16, F16, Fp16Tol, 64)});
  // A 3-D tl.dot: two products a program; any strides (B also given
  // transposed), or row-major with the unit strides specialized.
  TestConfig batched = matmulConfig(F16, F32, ExactTol);
  batched.Block = 2;
  batched.BlockM = batched.BlockN = 32;
  tests.push_back({"batched_matmul",
                   "batched_matmul.ptx",
                   "batched_matmul_kernel",
                   {{1, 1, 1, 1, 0},
                    {3, 50, 70, 45, 0},
                    {7, 33, 100, 77, 1},
                    {64, 64, 64, 64, 1},
                    {130, 129, 95, 300, 1}},
                   runBatchedMatmul,
                   batched});
  TestConfig batchedWg = batched;
  batchedWg.NumWarps = 8;
  batchedWg.BlockM = batchedWg.BlockN = 64;
  tests.push_back({"batched_matmul_wg",
                   "batched_matmul_wg.ptx",
                   "batched_matmul_kernel",
                   {{1, 1, 1, 1, 0},
                    {3, 50, 70, 45, 0},
                    {7, 130, 100, 77, 0},
                    {64, 64, 64, 64, 0},
                    {1000, 64, 64, 64, 0}},
                   runBatchedMatmul,
                   batchedWg});
  tests.push_back({"batched_matmul_wg16",
                   "batched_matmul_wg16.ptx",
                   "batched_matmul_kernel",
                   {{16, 16, 16, 16, 0},
                    {48, 128, 64, 32, 0},
                    {32, 80, 144, 96, 0},
                    {1024, 64, 64, 64, 0}},
                   runBatchedMatmul,
                   batchedWg});
  // One matrix a program, tensor descriptors on bases the program's matrix
  // moves: 3-D TMA maps (the batch outside each matrix), B row-major. N is
  // a multiple of 4 (C's fp32 rows of 16 bytes): TMA stores clip at 16-byte
  // granularity (N = 70 overwrote columns 70 and 71 of each row on an
  // H100, as below).
  TestConfig batchedDesc = tensorCoreConfig(F16, F32, ExactTol, 64);
  batchedDesc.Block = 1;
  tests.push_back({"batched_matmul_desc",
                   "batched_matmul_desc.ptx",
                   "batched_matmul_desc_kernel",
                   {{1, 1, 4, 1, 0},
                    {3, 50, 68, 45, 0},
                    {5, 200, 132, 300, 0},
                    {2, 256, 256, 128, 0},
                    {64, 128, 136, 72, 0}},
                   runBatchedMatmul,
                   batchedDesc});
  // Host-side tensor descriptors, a persistent grid: programs of one tile
  // or none, of two ragged tiles (five K steps, the last partial), of one K
  // step a tile, of eight tiles. N is a multiple of 8 (rows of 16 bytes):
  // TMA stores clip at 16-byte granularity, and N = 1500 overwrote the 4
  // padding columns 1500..1503 of each row on an H100 (as Triton's
  // descriptor stores do, triton-lang/triton#11583).
  tests.push_back({"persistent_matmul",
                   "persistent_matmul.ptx",
                   "persistent_matmul_kernel",
                   {{128, 128, 128},
                    {1000, 776, 520},
                    {1, 8, 8},
                    {2000, 1496, 300},
                    {1100, 2000, 40},
                    {4096, 4096, 4096}},
                   runMatmulHostDesc,
                   tensorCoreConfig(F16, F16, Fp16Tol, 64)});
  {
    // 128 x 256 tiles (the tutorial's widest configuration).
    TestConfig config = tensorCoreConfig(F16, F16, Fp16Tol, 64);
    config.BlockN = 256;
    tests.push_back({"persistent_matmul_n256",
                     "persistent_matmul_n256.ptx",
                     "persistent_matmul_kernel",
                     {{128, 256, 128},
                      {1000, 776, 520},
                      {2000, 1496, 300},
                      {4096, 4096, 4096}},
                     runMatmulHostDesc,
                     config});
  }
  // The same with pointers, its tiles and K steps one flattened loop
  // (sizes multiples of 16, as its signature says, ragged in the blocks).
  tests.push_back({"persistent_matmul_ptr",
                   "persistent_matmul_ptr.ptx",
                   "persistent_matmul_ptr_kernel",
                   {{128, 128, 128},
                    {1008, 784, 528},
                    {16, 16, 16},
                    {2000, 1504, 304},
                    {1104, 2000, 48},
                    {4096, 4096, 4096}},
                   runMatmulPersistent,
                   tensorCoreConfig(F16, F16, Fp16Tol, 64)});
  TestConfig fp16Wide = tensorCoreConfig(F16, F16, Fp16Tol, 64);
  fp16Wide.BlockN = 256;
  // x @ w.T with w's rows of N (examples/linear.tile): the pointer build
  // (N and K multiples of 16, contiguous rows; M ragged, K not a multiple
  // of BLOCK_K) and the descriptor build (rows of 16 bytes, padded).
  tests.push_back({"linear_fp16",
                   "linear_fp16.ptx",
                   "linear_kernel",
                   {{{128, 256, 64}, BT},
                    {{100, 144, 80}, BT},
                    {{1, 16, 16}, BT},
                    {{257, 528, 208}, BT},
                    {{1000, 784, 528}, BT},
                    {{4096, 4096, 4096}, BT}},
                   runMatmulStrided,
                   fp16Wide});
  tests.push_back({"linear_desc_fp16",
                   "linear_desc_fp16.ptx",
                   "linear_desc_kernel",
                   {{128, 256, 64},
                    {100, 136, 72},
                    {1, 8, 8},
                    {257, 520, 200},
                    {1000, 784, 528},
                    {4096, 4096, 4096}},
                   runLinearHostDesc,
                   fp16Wide});
  tests.push_back(
      {"matmul_desc_fp16_tc_n256",
       "matmul_desc_fp16_tc_n256.ptx",
       "matmul_desc_kernel",
       {{128, 128, 128}, {1000, 784, 520}, {1, 16, 8}, {4000, 4000, 4000}},
       runMatmulDesc,
       fp16Wide});
  // B given as Bt [N, K] through a block pointer of order (0, 1)
  // (examples/matmul.tile): TMA of the transposed view where the hints
  // (N, K multiples of 16) prove rows of 16 bytes, M and the blocks of N and
  // K ragged; else cp.async at any size.
  TestConfig btRows = tensorCoreConfig(F16, F16, Fp16Tol, 64);
  btRows.BlockN = 256;
  btRows.GroupM = 8;
  tests.push_back(
      {"matmul_bt_bp_fp16_tc_n256",
       "matmul_bt_bp_fp16_tc_n256.ptx",
       "matmul_bt_block_ptr_kernel",
       {{128, 256, 64}, {1000, 784, 528}, {1, 16, 16}, {4096, 4096, 4096}},
       runMatmulBtRows,
       btRows});
  // C = relu(A @ B + bias) (examples/matmul_epilogue.tile): descriptors
  // made in the kernel, the bias loaded by pointer in the epilogue;
  // M and K ragged, N a multiple of 16 (the hints), not of BLOCK_N.
  TestConfig biasRelu = tensorCoreConfig(F16, F16, Fp16Tol, 64);
  biasRelu.BlockN = 256;
  biasRelu.GroupM = 8;
  tests.push_back({"matmul_bias_relu_fp16_n256",
                   "matmul_bias_relu_fp16_n256.ptx",
                   "matmul_bias_act_kernel",
                   {{128, 256, 64},
                    {1000, 784, 520},
                    {257, 272, 72},
                    {1, 16, 8},
                    {4096, 4096, 4096}},
                   runMatmulBiasRelu,
                   biasRelu});
  TestConfig btRowsSmall = tensorCoreConfig(F16, F16, Fp16Tol, 32);
  btRowsSmall.GroupM = 8;
  tests.push_back(
      {"matmul_bt_bp_fp16_tc",
       "matmul_bt_bp_fp16_tc.ptx",
       "matmul_bt_block_ptr_kernel",
       {{1000, 777, 515}, {257, 129, 200}, {1, 1, 1}, {{300, 200, 100}, Pad}},
       runMatmulBtRows,
       btRowsSmall});
}
