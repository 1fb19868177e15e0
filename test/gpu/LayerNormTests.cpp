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
// Also the tutorial-style backward (layer_norm_bwd_dx with its grouped
// partial sums under spin locks, layer_norm_bwd_dwdb), RMS norm forward
// (examples/rms_norm.tile) and RoPE (examples/rope.tile).
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

/// layer_norm_bwd_dx(DX, DY, PartialDW, PartialDB, Locks, X, W, Mean, Rstd,
/// stride, N); size (M, N), N <= BLOCK_SIZE. dX is checked, and the sums of
/// the groups' partial rows against dW and dB.
static CaseResult runLayerNormBwdDx(TestEnv &env, const GpuTest &test,
                                    const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  const std::uint64_t groups = test.Config.GroupM;
  if (cols > test.Config.Block)
    return badSize(test, shape, "N exceeds BLOCK_SIZE");
  const std::uint64_t stride = (cols + 7) / 8 * 8 + 8;
  const ElemType type = test.Config.In;
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = 3.0 * rows * cols * elemSize(type);
  HostMatrix x = HostMatrix::random(env, type, rows, cols, stride);
  HostMatrix dy = HostMatrix::random(env, type, rows, cols, stride);
  HostMatrix w = HostMatrix::random(env, type, 1, cols);
  std::vector<float> mean, rstd;
  layerNormStatistics(x.Values.data(), rows, cols, stride,
                      static_cast<double>(Eps), mean, rstd);
  std::vector<std::int32_t> locks(2 * groups, 0);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &ddx = buffers.output(rows * stride * elemSize(type));
  DeviceBuffer &ddy = buffers.input(dy);
  DeviceBuffer &pdw = buffers.output(groups * cols * sizeof(float));
  DeviceBuffer &pdb = buffers.output(groups * cols * sizeof(float));
  DeviceBuffer &dlocks = buffers.input(locks.data(), locks.size() * 4);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dw = buffers.input(w);
  DeviceBuffer &dmean = buffers.input(mean.data(), rows * sizeof(float));
  DeviceBuffer &drstd = buffers.input(rstd.data(), rows * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid,
      {ddx, ddy, pdw, pdb, dlocks, dx, dw, dmean, drstd, stride, cols}, buffers,
      result);
  std::vector<float> gotDx, partialDw, partialDb;
  std::vector<std::int32_t> lockValues(2 * groups);
  std::uint64_t clobbered = 0, none = 0;
  if (status.ok())
    status = readMatrix(ddx, type, rows, cols, stride, gotDx, clobbered);
  if (status.ok())
    status =
        readMatrix(pdw, ElemType::F32, groups, cols, cols, partialDw, none);
  if (status.ok())
    status =
        readMatrix(pdb, ElemType::F32, groups, cols, cols, partialDb, none);
  if (status.ok())
    status = dlocks.copyToHost(lockValues);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> refDx(rows * cols), refDw(cols), refDb(cols);
  layerNormBackwardReference(x.Values.data(), dy.Values.data(), w.Values.data(),
                             mean.data(), rstd.data(), rows, cols, stride,
                             refDx.data(), refDw.data(), refDb.data());
  // Groups no row reaches keep the poison: sum the others.
  std::uint64_t used = std::min(groups, rows);
  std::vector<double> dwSum(cols, 0.0), dbSum(cols, 0.0);
  for (std::uint64_t g = 0; g < used; ++g)
    for (std::uint64_t c = 0; c < cols; ++c) {
      dwSum[c] += partialDw[g * cols + c];
      dbSum[c] += partialDb[g * cols + c];
    }
  std::vector<float> sumDw(dwSum.begin(), dwSum.end());
  std::vector<float> sumDb(dbSum.begin(), dbSum.end());
  bool ok = checkOutput(result, "DX", gotDx, refDx, cols, test.Config.Tol);
  ok &= recordClobbered(result, "DX", clobbered);
  ok &= checkOutput(result, "DW", sumDw, refDw, 0, Tolerance::relative(1e-4));
  ok &= checkOutput(result, "DB", sumDb, refDb, 0, Tolerance::relative(1e-4));
  for (std::uint64_t g = 0; g < used; ++g)
    if (lockValues[g] != 0 || lockValues[groups + g] != 1) {
      ok = false;
      result.Note += " group " + std::to_string(g) + ": lock " +
                     std::to_string(lockValues[g]) + ", written " +
                     std::to_string(lockValues[groups + g]);
    }
  result.Passed = ok;
  return result;
}

/// layer_norm_bwd_dwdb(PartialDW, PartialDB, DW, DB, groups, N); size
/// (groups, N): the column sums of the partial rows.
static CaseResult runLayerNormBwdDwDb(TestEnv &env, const GpuTest &test,
                                      const Kernel &kernel,
                                      const Shape &shape) {
  const std::uint64_t groups = shape[0], cols = shape[1];
  const ElemType type = test.Config.Out;
  CaseResult result;
  Dim3 grid(cdiv(cols, test.Config.BlockN));
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * groups * cols * sizeof(float);
  HostMatrix pdw = HostMatrix::random(env, ElemType::F32, groups, cols, cols);
  HostMatrix pdb = HostMatrix::random(env, ElemType::F32, groups, cols, cols);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dpdw = buffers.input(pdw);
  DeviceBuffer &dpdb = buffers.input(pdb);
  DeviceBuffer &ddw = buffers.output(cols * elemSize(type));
  DeviceBuffer &ddb = buffers.output(cols * elemSize(type));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid, {dpdw, dpdb, ddw, ddb, groups, cols}, buffers, result);
  std::vector<float> dw, db;
  std::uint64_t none = 0;
  if (status.ok())
    status = readMatrix(ddw, type, 1, cols, cols, dw, none);
  if (status.ok())
    status = readMatrix(ddb, type, 1, cols, cols, db, none);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> refDw(cols, 0.0), refDb(cols, 0.0);
  for (std::uint64_t g = 0; g < groups; ++g)
    for (std::uint64_t c = 0; c < cols; ++c) {
      refDw[c] += pdw.at(g, c);
      refDb[c] += pdb.at(g, c);
    }
  bool ok = checkOutput(result, "DW", dw, refDw, 0, test.Config.Tol);
  ok &= checkOutput(result, "DB", db, refDb, 0, test.Config.Tol);
  result.Passed = ok;
  return result;
}

/// rope_fwd_kernel(q, k, cos, sin, q_stride, k_stride, cs_stride, seq_len,
/// n_q_heads, n_k_heads), in place; size (tokens, q heads, k heads), the
/// positions of a sequence shorter than the tokens (so that t % seq_len
/// matters).
static CaseResult runRope(TestEnv &env, const GpuTest &test,
                          const Kernel &kernel, const Shape &shape) {
  const std::uint64_t tokens = shape[0], qHeads = shape[1], kHeads = shape[2];
  const std::uint64_t dim = test.Config.HeadDim, half = dim / 2;
  const std::uint64_t seqLen = tokens > 7 ? tokens / 2 + 1 : tokens;
  // Rows of whole heads, padded (16-byte multiples).
  const std::uint64_t qStride = qHeads * dim + 8, kStride = kHeads * dim + 8;
  const std::uint64_t csStride = half + 4;
  const ElemType type = test.Config.In;
  CaseResult result;
  Dim3 grid(tokens);
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * tokens * (qHeads + kHeads) * dim * elemSize(type);
  HostMatrix q = HostMatrix::random(env, type, tokens, qHeads * dim, qStride);
  HostMatrix k = HostMatrix::random(env, type, tokens, kHeads * dim, kStride);
  HostMatrix cos =
      HostMatrix::random(env, ElemType::F32, seqLen, half, csStride);
  HostMatrix sin =
      HostMatrix::random(env, ElemType::F32, seqLen, half, csStride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dq = buffers.input(q);
  DeviceBuffer &dk = buffers.input(k);
  DeviceBuffer &dcos = buffers.input(cos);
  DeviceBuffer &dsin = buffers.input(sin);
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid,
      {dq, dk, dcos, dsin, qStride, kStride, csStride, seqLen, qHeads, kHeads},
      buffers, result);
  std::vector<float> gotQ, gotK;
  std::uint64_t clobberedQ = 0, clobberedK = 0;
  if (status.ok())
    status =
        readMatrix(dq, type, tokens, qHeads * dim, qStride, gotQ, clobberedQ);
  if (status.ok())
    status =
        readMatrix(dk, type, tokens, kHeads * dim, kStride, gotK, clobberedK);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> refQ(tokens * qHeads * dim), refK(tokens * kHeads * dim);
  ropeReference(q.Values.data(), cos.Values.data(), sin.Values.data(), tokens,
                qHeads, dim, qStride, seqLen, csStride, refQ.data());
  ropeReference(k.Values.data(), cos.Values.data(), sin.Values.data(), tokens,
                kHeads, dim, kStride, seqLen, csStride, refK.data());
  bool ok = checkOutput(result, "Q", gotQ, refQ, qHeads * dim, test.Config.Tol);
  ok &= checkOutput(result, "K", gotK, refK, kHeads * dim, test.Config.Tol);
  ok &= recordClobbered(result, "Q", clobberedQ);
  ok &= recordClobbered(result, "K", clobberedK);
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
  // The backward on fp16 rows of up to 4096 (one block a row), 128 groups:
  // fewer rows than groups, a few rows per group, many.
  TestConfig bwd;
  bwd.In = bwd.Out = ElemType::F16;
  bwd.Block = 4096;
  bwd.NumWarps = 8;
  bwd.GroupM = 128;
  bwd.Tol = Tolerance::relative(2e-3);
  tests.push_back({"layer_norm_bwd_dx_fp16",
                   "layer_norm_bwd_dx_fp16.ptx",
                   "layer_norm_bwd_dx",
                   {{1, 1}, {5, 1000}, {300, 777}, {1000, 4096}, {4096, 4000}},
                   runLayerNormBwdDx,
                   bwd});
  TestConfig dwdb;
  dwdb.Out = ElemType::F16;
  dwdb.BlockM = 32;
  dwdb.BlockN = 128;
  dwdb.Tol = Tolerance::relative(2e-3);
  tests.push_back({"layer_norm_bwd_dwdb_fp16",
                   "layer_norm_bwd_dwdb_fp16.ptx",
                   "layer_norm_bwd_dwdb",
                   {{1, 1}, {5, 1000}, {128, 4096}, {100, 4000}},
                   runLayerNormBwdDwDb,
                   dwdb});
  // RoPE on bf16 heads of 128: ragged head counts and token counts.
  TestConfig rope;
  rope.In = rope.Out = ElemType::BF16;
  rope.HeadDim = 128;
  rope.Tol = Tolerance::relative(1e-2);
  tests.push_back({"rope_bf16",
                   "rope_bf16.ptx",
                   "rope_fwd_kernel",
                   {{1, 1, 1}, {7, 5, 3}, {1000, 32, 8}, {4099, 28, 4}},
                   runRope,
                   rope});
}
