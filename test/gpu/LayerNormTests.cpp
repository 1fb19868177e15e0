//===- LayerNormTests.cpp - GPU tests of the layer norm kernel ------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The layer-norm family of tilec-gpu-tests: layer_norm_fwd of
// examples/layer_norm.tile (Triton's layer-norm tutorial) with BLOCK_SIZE =
// 1024 and 4 warps (the tutorial's num_warps for that block), one program per
// row, on rows shorter than, equal to and longer than the block (N = 1000,
// 1024, 4096, 5000: the kernel loops over column chunks), with contiguous and
// padded row strides. X, Y, W and B are fp32 or fp16 (the kernel computes in
// fp32 either way); Mean and Rstd are fp32. All three outputs are checked
// against a float64 layer norm of the same values; the rate column counts
// 2 * M * N element bytes (X read, Y written), as the tutorial does.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestUtil.h"

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

constexpr float Eps = 1e-5f;

/// layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps); size (M, N).
CaseResult runLayerNorm(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                        const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  const std::uint64_t stride =
      shape.has(Shape::Flag::Padded) ? (cols + 15) / 16 * 16 + 16 : cols;
  const ElemType type = test.Config.In;

  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * rows * cols * elemSize(type);

  HostMatrix x = HostMatrix::random(env, type, rows, cols, stride);
  HostMatrix w = HostMatrix::random(env, type, 1, cols);
  HostMatrix b = HostMatrix::random(env, type, 1, cols);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dy = buffers.output(rows * stride * elemSize(type));
  DeviceBuffer &dw = buffers.input(w);
  DeviceBuffer &db = buffers.input(b);
  DeviceBuffer &dmean = buffers.output(rows * sizeof(float));
  DeviceBuffer &drstd = buffers.output(rows * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid,
                              {dx, dy, dw, db, dmean, drstd, stride, cols, Eps},
                              buffers, result);
  std::vector<float> y, mean, rstd;
  std::uint64_t clobbered = 0, none = 0;
  if (status.ok())
    status = readMatrix(dy, type, rows, cols, stride, y, clobbered);
  if (status.ok())
    status = readMatrix(dmean, ElemType::F32, rows, 1, 1, mean, none);
  if (status.ok())
    status = readMatrix(drstd, ElemType::F32, rows, 1, 1, rstd, none);
  if (!status.ok())
    return failed(status, result);

  std::vector<double> refY(rows * cols), refMean(rows), refRstd(rows);
  layerNormReference(x.Values.data(), w.Values.data(), b.Values.data(), rows,
                     cols, stride, static_cast<double>(Eps), refY.data(),
                     refMean.data(), refRstd.data());
  Tolerance statsTol = Tolerance::relative(1e-5);
  bool ok = checkOutput(result, "Y", y, refY, cols, test.Config.Tol);
  ok &= recordClobbered(result, "Y", clobbered);
  ok &= checkOutput(result, "Mean", mean, refMean, 0, statsTol);
  ok &= checkOutput(result, "Rstd", rstd, refRstd, 0, statsTol);
  result.Passed = ok;
  return result;
}

} // namespace

/// rms_norm_fwd_kernel(y, x, w, rstd, row_stride, n_cols, eps, offset);
/// size (rows, cols), rows padded to 16-byte multiples.
CaseResult runRmsNorm(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                      const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  const std::uint64_t stride = (cols + 7) / 8 * 8 + 8;
  const ElemType type = test.Config.In;
  const float offset = 1.0f;
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * rows * cols * elemSize(type);
  HostMatrix x = HostMatrix::random(env, type, rows, cols, stride);
  HostMatrix w = HostMatrix::random(env, type, 1, cols);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dy = buffers.output(rows * stride * elemSize(type));
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dw = buffers.input(w);
  DeviceBuffer &drstd = buffers.output(rows * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid,
                              {dy, dx, dw, drstd, stride, cols, Eps, offset},
                              buffers, result);
  std::vector<float> y, rstd;
  std::uint64_t clobbered = 0, none = 0;
  if (status.ok())
    status = readMatrix(dy, type, rows, cols, stride, y, clobbered);
  if (status.ok())
    status = readMatrix(drstd, ElemType::F32, rows, 1, 1, rstd, none);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> refY(rows * cols), refRstd(rows);
  rmsNormReference(x.Values.data(), w.Values.data(), rows, cols, stride,
                   static_cast<double>(Eps), offset, refY.data(),
                   refRstd.data());
  bool ok = checkOutput(result, "Y", y, refY, cols, test.Config.Tol);
  ok &= recordClobbered(result, "Y", clobbered);
  ok &=
      checkOutput(result, "Rstd", rstd, refRstd, 0, Tolerance::relative(1e-5));
  result.Passed = ok;
  return result;
}

void tilec::gpu::addLayerNormTests(std::vector<GpuTest> &tests) {
  std::vector<Shape> sizes = {{1, 1},       {1, 1000},
                              {1823, 1000}, {64, 1024},
                              {512, 4096},  {300, 5000},
                              {4, 3000},    {{100, 1000}, Shape::Flag::Padded}};
  TestConfig config;
  config.Block = 1024;
  config.NumWarps = 4;
  config.Tol = Tolerance::relative(1e-5);
  tests.push_back({"layer_norm_fp32", "layer_norm_fp32.ptx", "layer_norm_fwd",
                   sizes, runLayerNorm, config});
  config.In = config.Out = ElemType::F16;
  config.Tol = Tolerance::relative(2e-3);
  tests.push_back({"layer_norm_fp16", "layer_norm_fp16.ptx", "layer_norm_fwd",
                   sizes, runLayerNorm, config});
  // RMS norm on bf16 rows of up to 8192 (one block a row), fp32 math.
  TestConfig rms;
  rms.In = rms.Out = ElemType::BF16;
  rms.Block = 8192;
  rms.NumWarps = 16;
  rms.Tol = Tolerance::relative(1e-2);
  tests.push_back({"rms_norm_bf16",
                   "rms_norm_bf16.ptx",
                   "rms_norm_fwd_kernel",
                   {{1, 1}, {7, 1000}, {300, 5000}, {4096, 4096}, {1000, 8192}},
                   runRmsNorm,
                   rms});
}
