//===- SoftmaxTests.cpp - GPU tests of the softmax kernels ----------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The softmax family of tilec-gpu-tests:
//
//  - softmax_kernel of examples/softmax.tile (Triton's fused-softmax
//    tutorial), compiled with BLOCK_SIZE = 1024 (rows of up to 1024, e.g.
//    1000) and 4096 (rows of up to 4096), num_warps 4, 8 and 16, launched
//    with one program per row or in the persistent form (min(n_rows, #SMs *
//    occupancy) programs, each looping over rows), with contiguous and padded
//    row strides (different for input and output); the *_h16 PTX declares
//    strides and sizes multiples of 16, as Triton's launcher specializes
//    8192 x 4096;
//  - softmax_where_kernel (BLOCK_M rows at once, padding replaced with
//    tl.where and -inf);
//  - softmax_bp_kernel of examples/seeds/softmax_block_ptr.tile, which reads
//    through a block pointer and writes its result in place into x.
//
// Inputs are uniform in [-1, 1); the reference is the float64 softmax of the
// same values. The rate column counts 2 * rows * cols * 4 bytes.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestUtil.h"

#include <algorithm>

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

constexpr double SoftmaxTol = 1e-5;

/// Row strides of the padded variants: past the row, rounded to 16 elements
/// so that the :16 specializations hold, and different for input and output.
std::uint64_t paddedInputStride(std::uint64_t cols) {
  return (cols + 15) / 16 * 16 + 16;
}
std::uint64_t paddedOutputStride(std::uint64_t cols) {
  return (cols + 15) / 16 * 16 + 32;
}

/// Programs of the persistent launch, as Triton's tutorial computes them:
/// #SMs times how many programs fit on an SM (registers, threads, shared
/// memory), at most one per row.
std::uint64_t persistentPrograms(const Context &ctx, const Kernel &kernel,
                                 std::uint64_t rows) {
  const KernelMetadata &meta = kernel.metadata();
  std::uint64_t threads = meta.blockSize();
  std::uint64_t regs = std::max(1, kernel.numRegisters());
  std::uint64_t occupancy =
      std::min<std::uint64_t>(65536 / (regs * threads), 2048 / threads);
  if (meta.SharedBytes > 0 && ctx.info().MaxSharedPerBlockOptin > 0)
    occupancy = std::min<std::uint64_t>(
        occupancy, ctx.info().MaxSharedPerBlockOptin / meta.SharedBytes);
  occupancy = std::max<std::uint64_t>(occupancy, 1);
  std::uint64_t sms = std::max(1, ctx.info().SmCount);
  return std::min(rows, sms * occupancy);
}

/// softmax_kernel(output_ptr, input_ptr, input_row_stride,
/// output_row_stride, n_rows, n_cols); size (n_rows, n_cols).
CaseResult runSoftmax(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                      const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  if (cols > test.Config.Block)
    return badSize(test, shape, "n_cols exceeds BLOCK_SIZE");
  const bool padded = shape.has(Shape::Flag::Padded);
  const std::uint64_t inStride = padded ? paddedInputStride(cols) : cols;
  const std::uint64_t outStride = padded ? paddedOutputStride(cols) : cols;

  CaseResult result;
  Dim3 grid(test.Config.Persistent ? persistentPrograms(env.Ctx, kernel, rows)
                                   : rows);
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * rows * cols * sizeof(float);

  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, inStride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &in = buffers.input(x);
  DeviceBuffer &out = buffers.output(rows * outStride * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {out, in, inStride, outStride, rows, cols},
                  buffers, result);
  std::vector<float> values;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(out, ElemType::F32, rows, cols, outStride, values,
                        clobbered);
  if (!status.ok())
    return failed(status, result);

  std::vector<double> ref(rows * cols);
  softmaxReference(x.Values.data(), rows, cols, inStride, ref.data());
  bool ok = checkOutput(result, "out", values, ref, cols, test.Config.Tol);
  ok &= recordClobbered(result, "out", clobbered);
  result.Passed = ok;
  return result;
}

/// softmax_where_kernel(x_ptr, out_ptr, M, N, stride): BLOCK_M rows per
/// program, one stride for x and out; size (M, N).
CaseResult runSoftmaxWhere(TestEnv &env, const GpuTest &test,
                           const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  if (cols > test.Config.BlockN)
    return badSize(test, shape, "N exceeds BLOCK_N");
  const std::uint64_t stride =
      shape.has(Shape::Flag::Padded) ? paddedInputStride(cols) : cols;

  CaseResult result;
  Dim3 grid(cdiv(rows, test.Config.BlockM));
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * rows * cols * sizeof(float);

  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, stride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &in = buffers.input(x);
  DeviceBuffer &out = buffers.output(rows * stride * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid, {in, out, rows, cols, stride},
                              buffers, result);
  std::vector<float> values;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status =
        readMatrix(out, ElemType::F32, rows, cols, stride, values, clobbered);
  if (!status.ok())
    return failed(status, result);

  std::vector<double> ref(rows * cols);
  softmaxReference(x.Values.data(), rows, cols, stride, ref.data());
  bool ok = checkOutput(result, "out", values, ref, cols, test.Config.Tol);
  ok &= recordClobbered(result, "out", clobbered);
  result.Passed = ok;
  return result;
}

/// softmax_bp_kernel(x_ptr, out_ptr, M, N): reads x through a block pointer
/// and overwrites it with the result; out_ptr is never touched (it stays
/// poisoned, which is checked). Size (M, N), contiguous rows.
CaseResult runSoftmaxBlockPtr(TestEnv &env, const GpuTest &test,
                              const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  if (cols > test.Config.BlockN)
    return badSize(test, shape, "N exceeds BLOCK_N");

  CaseResult result;
  Dim3 grid(cdiv(rows, test.Config.BlockM));
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * rows * cols * sizeof(float);

  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &inout = buffers.input(x);
  DeviceBuffer &unused = buffers.output(rows * cols * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid, {inout, unused, rows, cols},
                              buffers, result);
  std::vector<float> values, untouched;
  std::uint64_t clobbered = 0, ignored = 0;
  if (status.ok())
    status =
        readMatrix(inout, ElemType::F32, rows, cols, cols, values, ignored);
  // out_ptr as a matrix whose rows are all padding: every element must
  // still be poison.
  if (status.ok())
    status =
        readMatrix(unused, ElemType::F32, rows, 0, cols, untouched, clobbered);
  if (!status.ok())
    return failed(status, result);

  std::vector<double> ref(rows * cols);
  softmaxReference(x.Values.data(), rows, cols, cols, ref.data());
  bool ok = checkOutput(result, "x", values, ref, cols, test.Config.Tol);
  ok &= recordClobbered(result, "out_ptr (unused)", clobbered);
  result.Passed = ok;
  return result;
}

TestConfig softmaxConfig(unsigned block, unsigned numWarps,
                         bool persistent = false) {
  TestConfig config;
  config.Block = block;
  config.NumWarps = numWarps;
  config.Persistent = persistent;
  config.Tol = Tolerance::relative(SoftmaxTol);
  return config;
}

} // namespace

void tilec::gpu::addSoftmaxTests(std::vector<GpuTest> &tests) {
  const Shape::Flag Pad = Shape::Flag::Padded;
  // Rows of up to 1024 (the tutorial's 1000 among them): BLOCK_SIZE = 1024.
  std::vector<Shape> rows1024 = {{1, 1000},          {1823, 1000}, {4096, 1000},
                                 {100, 1},           {7, 1024},    {33, 513},
                                 {{1000, 1000}, Pad}};
  tests.push_back({"softmax_b1024_w4", "softmax_b1024_w4.ptx", "softmax_kernel",
                   rows1024, runSoftmax, softmaxConfig(1024, 4)});
  tests.push_back({"softmax_b1024_w4_persistent",
                   "softmax_b1024_w4.ptx",
                   "softmax_kernel",
                   {{1823, 1000}, {20000, 1000}, {7, 1024}, {{5000, 17}, Pad}},
                   runSoftmax,
                   softmaxConfig(1024, 4, /*persistent=*/true)});
  tests.push_back({"softmax_b1024_w8", "softmax_b1024_w8.ptx", "softmax_kernel",
                   rows1024, runSoftmax, softmaxConfig(1024, 8)});

  // Rows of up to 4096: BLOCK_SIZE = 4096.
  std::vector<Shape> rows4096 = {{1, 4096},   {1000, 4096}, {8192, 4096},
                                 {123, 4000}, {64, 2049},   {{100, 4096}, Pad}};
  tests.push_back({"softmax_b4096_w8", "softmax_b4096_w8.ptx", "softmax_kernel",
                   rows4096, runSoftmax, softmaxConfig(4096, 8)});
  tests.push_back({"softmax_b4096_w8_persistent",
                   "softmax_b4096_w8.ptx",
                   "softmax_kernel",
                   {{8192, 4096}, {3001, 4000}, {{100, 4096}, Pad}},
                   runSoftmax,
                   softmaxConfig(4096, 8, /*persistent=*/true)});
  tests.push_back({"softmax_b4096_w16", "softmax_b4096_w16.ptx",
                   "softmax_kernel", rows4096, runSoftmax,
                   softmaxConfig(4096, 16)});
  // Strides, n_rows and n_cols declared multiples of 16 (i32:16), as
  // Triton's launcher specializes 8192 x 4096: the benchmark's variants.
  std::vector<Shape> rows4096h16 = {
      {16, 4096}, {8192, 4096}, {64, 4000}, {{128, 4096}, Pad}};
  tests.push_back({"softmax_b4096_w8_h16", "softmax_b4096_w8_h16.ptx",
                   "softmax_kernel", rows4096h16, runSoftmax,
                   softmaxConfig(4096, 8)});
  tests.push_back({"softmax_b4096_w16_h16", "softmax_b4096_w16_h16.ptx",
                   "softmax_kernel", rows4096h16, runSoftmax,
                   softmaxConfig(4096, 16)});

  // BLOCK_M = 4 rows of up to BLOCK_N = 1024 per program.
  TestConfig where;
  where.BlockM = 4;
  where.BlockN = 1024;
  where.Tol = Tolerance::relative(SoftmaxTol);
  tests.push_back({"softmax_where",
                   "softmax_where.ptx",
                   "softmax_where_kernel",
                   {{1, 1},
                    {4, 1000},
                    {1001, 1000},
                    {257, 1024},
                    {33, 100},
                    {{100, 1000}, Pad}},
                   runSoftmaxWhere,
                   where});
  tests.push_back(
      {"softmax_bp",
       "softmax_bp.ptx",
       "softmax_bp_kernel",
       {{1, 1}, {4, 1000}, {1001, 1000}, {33, 1024}, {7, 17}, {2048, 1000}},
       runSoftmaxBlockPtr,
       where});
}
