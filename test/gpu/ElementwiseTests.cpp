//===- ElementwiseTests.cpp - GPU tests of math, random numbers, locks ----===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The elementwise family of tilec-gpu-tests:
//
//  - math_functions / math_functions_fp64: examples/math_functions.tile,
//    every math function of triton.language and libdevice tilec supports,
//    one output row per function, against float64 references
//    (mathFunctions in Reference.h);
//  - random_streams: the four Philox words of every offset must equal
//    Triton's (the host Philox of Reference.h) bit for bit, tl.rand too, and
//    tl.randn within fp32 rounding of the float64 Box-Muller;
//  - seeded_dropout: the tutorial's dropout (kept values within 2 ulp:
//    '/' is div.full.f32, as in Triton);
//  - complex_square: tl.split, tl.join and tl.interleave on (re, im) pairs;
//  - row_scans: tl.cumsum and a reversed tl.cumprod along rows;
//  - linear_recurrence: tl.associative_scan of a non-commutative combine
//    function (h = a h + b) forward and reversed;
//  - row_combines: tl.reduce of (level, index) pairs with ties (the first
//    index must win), tl.xor_sum and tl.reduce_or of the rows' bits;
//  - flip_rows: tl.flip along a row and along dim 0 of a 2-D tile, tl.cat;
//  - sort_rows: tl.sort ascending and descending with ties and infinities,
//    of floats and integers; tl.topk;
//  - merge_rows: tl.bitonic_merge of rows made bitonic from sorted halves;
//  - sort_fp8_rows: tl.sort of fp8e4nv and fp8e5 rows;
//  - asm_bytes / asm_pair: tl.inline_asm_elementwise with four bytes packed
//    in a register, and with two results and a scalar argument;
//  - map_elementwise: tl.map_elementwise of functions that branch (SELU
//    with `if`/`else` returns) and loop (Collatz step counts), with pack=2,
//    and a (max, first index) tl.reduce whose combine function branches;
//  - strided_axpy: tuple arguments (shapes and strides), a transposed view;
//  - mask_compare: loads through masks of every comparison with a boundary
//    that is a multiple of 16 (vectorized only where the comparison holds
//    for a whole vector);
//  - gather_rows: tl.gather of random indices along rows;
//  - row_histogram: tl.histogram of each row's bucketed values, masked tail;
//  - cross_entropy: the fused loss and gradient of examples/cross_entropy.tile,
//    a row in eight with the ignore index (early return);
//  - grouped_sum: partial row sums under per-group spin locks
//    (tl.atomic_cas, tl.atomic_xchg, tl.debug_barrier), the pattern of the
//    layer-norm backward kernel;
//  - hash_buckets: MurmurHash3's finalizer of uniform 32-bit keys, then
//    `%`, `>=`, `>>` and the conversion to float, all unsigned, bit-exact.
//
// Sizes are ragged (not multiples of the block).
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestUtil.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

/// x in [-1, 1) as fp32, from the next random stream of `env`.
std::vector<float> uniformInputs(TestEnv &env, std::uint64_t n) {
  HostMatrix x = HostMatrix::random(env, ElemType::F32, 1, n);
  return x.Values;
}

/// Adds to `result` the check of row `k` (named `name`) of `out` (rows of
/// n) against `ref`.
bool checkRow(CaseResult &result, const char *name, const float *out,
              const std::vector<double> &ref, const Tolerance &tol) {
  Check check = compareToReference(out, ref.data(), ref.size(), tol);
  return recordCheck(result, name, check, out, ref.data(), 0, tol);
}

/// unary_math_kernel(x, out, n): out[k * n + i] = function k of x[i].
CaseResult runMathFunctions(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  const std::vector<MathFunction> &functions = mathFunctions();
  const std::uint64_t rows = functions.size();
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = (1.0 + rows) * n * sizeof(float);
  std::vector<float> x = uniformInputs(env, n);
  // One element's relative error is ill-conditioned next to a function's
  // zero (j0 or sinpi a few ulp off where the value is 1e-4): a lone input
  // is drawn again until every function's value is 0 or at least 1e-2.
  auto nearZero = [&](float v) {
    return std::any_of(functions.begin(), functions.end(),
                       [&](const MathFunction &f) {
                         double ref = std::fabs(f.Ref(v));
                         return ref != 0.0 && ref < 1e-2;
                       });
  };
  for (int tries = 0; n == 1 && nearZero(x[0]) && tries < 100; ++tries)
    x = uniformInputs(env, n);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x.data(), n * sizeof(float));
  DeviceBuffer &dout = buffers.output(rows * n * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, dout, n}, buffers, result);
  std::vector<float> out(rows * n);
  if (status.ok())
    status = dout.copyToHost(out);
  if (!status.ok())
    return failed(status, result);
  bool ok = true;
  std::vector<double> ref(n);
  for (std::uint64_t k = 0; k < rows; ++k) {
    for (std::uint64_t i = 0; i < n; ++i)
      ref[i] = functions[k].Ref(x[i]);
    ok &= checkRow(result, functions[k].Name, out.data() + k * n, ref,
                   test.Config.Tol);
  }
  result.Passed = ok;
  return result;
}

/// unary_math64_kernel(x, out, n) on fp64 values.
CaseResult runMathFunctions64(TestEnv &env, const GpuTest &test,
                              const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  const std::vector<MathFunction64> &functions = mathFunctions64();
  const std::uint64_t rows = functions.size();
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = (1.0 + rows) * n * sizeof(double);
  std::vector<float> x32 = uniformInputs(env, n);
  std::vector<double> x(x32.begin(), x32.end());
  for (std::uint64_t i = 0; i < n; ++i)
    x[i] += x32[(i + 1) % n] * 1e-9; // bits past fp32's
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x.data(), n * sizeof(double));
  DeviceBuffer &dout = buffers.output(rows * n * sizeof(double));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, dout, n}, buffers, result);
  std::vector<double> out(rows * n);
  if (status.ok())
    status = dout.copyToHost(out);
  if (!status.ok())
    return failed(status, result);
  // fp64 results are compared in fp64 (libdevice is within a few ulp):
  // every element within Tol.Elem of its reference, relative to the
  // function's largest magnitude.
  bool ok = true;
  double worst = 0.0;
  for (std::uint64_t k = 0; k < rows && ok; ++k) {
    double scale = 0.0;
    for (std::uint64_t i = 0; i < n; ++i)
      scale = std::max(scale, std::fabs(functions[k].Ref(x[i])));
    for (std::uint64_t i = 0; i < n; ++i) {
      double ref = functions[k].Ref(x[i]), got = out[k * n + i];
      double err = std::fabs(got - ref) / (std::fabs(ref) + scale);
      if (!(err <= test.Config.Tol.Elem)) {
        ok = false;
        ++result.Mismatches;
        result.Note = std::string(functions[k].Name) + "[" + std::to_string(i) +
                      "] = " + formatValue(got, "%.17g") + ", expected " +
                      formatValue(ref, "%.17g");
        break;
      }
      worst = std::max(worst, err);
    }
  }
  result.RelError = ok ? worst : std::nan("");
  result.Passed = ok;
  return result;
}

/// random_streams_kernel(words, uniform, normal, n, seed).
CaseResult runRandomStreams(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  const std::int32_t seed = std::int32_t(env.Seed * 7919 + n) - 12345;
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = 6.0 * n * sizeof(float);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &words = buffers.output(4 * n * sizeof(std::uint32_t));
  DeviceBuffer &uniform = buffers.output(n * sizeof(float));
  DeviceBuffer &normal = buffers.output(n * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid, {words, uniform, normal, n, seed}, buffers, result);
  std::vector<std::uint32_t> w(4 * n);
  std::vector<float> u(n), z(n);
  if (status.ok())
    status = words.copyToHost(w);
  if (status.ok())
    status = uniform.copyToHost(u);
  if (status.ok())
    status = normal.copyToHost(z);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> zRef(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::array<std::uint32_t, 4> expected = randint4x(seed, std::int64_t(i));
    float uRef = uniformFromWord(expected[0]);
    bool same = std::memcmp(&w[4 * i], expected.data(), 16) == 0 &&
                std::memcmp(&u[i], &uRef, 4) == 0;
    if (!same && result.Mismatches++ == 0)
      result.Note = "offset " + std::to_string(i) + ": words or uniform " +
                    formatValue(u[i], "%.9g") + " differ from Triton's (" +
                    formatValue(uRef, "%.9g") + ")";
    zRef[i] = normalReference(seed, std::int64_t(i));
  }
  bool ok = result.Mismatches == 0;
  ok &= checkRow(result, "normal", z.data(), zRef, test.Config.Tol);
  result.Passed = ok;
  return result;
}

/// seeded_dropout_kernel(x, out, n, p, seed).
CaseResult runSeededDropout(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  const float p = 0.375f;
  const std::int32_t seed = 1234567 + std::int32_t(n);
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * n * sizeof(float);
  std::vector<float> x = uniformInputs(env, n);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x.data(), n * sizeof(float));
  DeviceBuffer &dout = buffers.output(n * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, dout, n, p, seed}, buffers, result);
  std::vector<float> out(n);
  if (status.ok())
    status = dout.copyToHost(out);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(n);
  std::uint64_t kept = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    bool keep = uniformFromWord(randint4x(seed, std::int64_t(i))[0]) > p;
    kept += keep;
    ref[i] = keep ? double(x[i] / (1.0f - p)) : 0.0;
  }
  result.Passed = checkRow(result, "out", out.data(), ref, test.Config.Tol);
  if (n >= 10000 && std::fabs(double(kept) / n - (1.0 - p)) > 0.02) {
    result.Passed = false;
    result.Note += " kept " + std::to_string(kept) + " of " + std::to_string(n);
  }
  return result;
}

/// grouped_row_sum_kernel(x, partial, lock, count, N, stride): M programs,
/// row r into partial row r % GROUP; size (M, N).
CaseResult runGroupedSum(TestEnv &env, const GpuTest &test,
                         const Kernel &kernel, const Shape &shape) {
  const std::uint64_t m = shape[0], n = shape[1], groups = test.Config.GroupM;
  if (n > test.Config.BlockN)
    return badSize(test, shape, "N exceeds BLOCK_N");
  const std::uint64_t stride = n + 3;
  CaseResult result;
  Dim3 grid(m);
  result.Grid = gridString(grid);
  result.Bytes = double(m) * n * sizeof(float);
  HostMatrix x = HostMatrix::random(env, ElemType::F32, m, n, stride);
  std::vector<std::int32_t> zeros(groups, 0);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &partial = buffers.output(groups * n * sizeof(float));
  DeviceBuffer &locks = buffers.input(zeros.data(), groups * 4);
  DeviceBuffer &counts = buffers.input(zeros.data(), groups * 4);
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, partial, locks, counts, n, stride},
                  buffers, result);
  std::vector<float> out(groups * n);
  std::vector<std::int32_t> lockValues(groups), countValues(groups);
  if (status.ok())
    status = partial.copyToHost(out);
  if (status.ok())
    status = locks.copyToHost(lockValues);
  if (status.ok())
    status = counts.copyToHost(countValues);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(groups * n, 0.0);
  for (std::uint64_t r = 0; r < m; ++r)
    for (std::uint64_t c = 0; c < n; ++c)
      ref[(r % groups) * n + c] += x.at(r, c);
  // Groups no row reaches keep the poison: compare the others.
  std::uint64_t used = std::min(groups, m);
  out.resize(used * n);
  ref.resize(used * n);
  bool ok = checkOutput(result, "partial", out, ref, n, test.Config.Tol);
  for (std::uint64_t g = 0; g < used; ++g)
    if (lockValues[g] != 0 || countValues[g] != 1) {
      ok = false;
      result.Note += " group " + std::to_string(g) + ": lock " +
                     std::to_string(lockValues[g]) + ", count " +
                     std::to_string(countValues[g]);
    }
  result.Passed = ok;
  return result;
}

/// complex_square_kernel(z, out, swapped, n): z is n (re, im) pairs.
CaseResult runComplexSquare(TestEnv &env, const GpuTest &test,
                            const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = 6.0 * n * sizeof(float);
  std::vector<float> z = uniformInputs(env, 2 * n);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dz = buffers.input(z.data(), 2 * n * sizeof(float));
  DeviceBuffer &dout = buffers.output(2 * n * sizeof(float));
  DeviceBuffer &dswapped = buffers.output(2 * n * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dz, dout, dswapped, n}, buffers, result);
  std::vector<float> out(2 * n), swapped(2 * n);
  if (status.ok())
    status = dout.copyToHost(out);
  if (status.ok())
    status = dswapped.copyToHost(swapped);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> outRef(2 * n), swappedRef(2 * n);
  complexSquareReference(z.data(), n, outRef.data(), swappedRef.data());
  bool ok = checkOutput(result, "out", out, outRef, 2, test.Config.Tol);
  ok &= checkOutput(result, "swapped", swapped, swappedRef, 2,
                    Tolerance::exact());
  result.Passed = ok;
  return result;
}

/// Fills one float64 reference per output of a row kernel from its input
/// rows (`x`, rows x cols, row stride `stride`).
using RowReference = std::function<void(
    const float *x, std::uint64_t rows, std::uint64_t cols,
    std::uint64_t stride, std::vector<std::vector<double>> &refs)>;

/// A row kernel `k(x, out_1, ..., out_k, n_cols, stride)` whose fp32
/// outputs are shaped like its input (rows x cols, row stride cols + 5, one
/// program a row); size (rows, cols). Each output is checked against
/// `reference` with `tol` and for writes past its rows.
CaseResult runRowOutputs(TestEnv &env, const GpuTest &test,
                         const Kernel &kernel, const Shape &shape,
                         const std::vector<const char *> &names, Tolerance tol,
                         const RowReference &reference) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  if (cols > test.Config.Block)
    return badSize(test, shape, "n_cols exceeds BLOCK");
  const std::uint64_t stride = cols + 5;
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = (1.0 + names.size()) * rows * cols * sizeof(float);
  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, stride);
  CaseBuffers buffers(env.Ctx);
  std::vector<KernelArg> args = {buffers.input(x)};
  std::vector<DeviceBuffer *> outs;
  for (size_t k = 0; k < names.size(); ++k) {
    outs.push_back(&buffers.output(rows * stride * sizeof(float)));
    args.push_back(*outs.back());
  }
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  args.push_back(cols);
  args.push_back(stride);
  Status status = launchTimed(env, kernel, grid, args, buffers, result);
  std::vector<std::vector<float>> values(names.size());
  std::vector<std::uint64_t> clobbered(names.size(), 0);
  for (size_t k = 0; k < names.size() && status.ok(); ++k)
    status = readMatrix(*outs[k], ElemType::F32, rows, cols, stride, values[k],
                        clobbered[k]);
  if (!status.ok())
    return failed(status, result);
  std::vector<std::vector<double>> refs(names.size(),
                                        std::vector<double>(rows * cols));
  reference(x.Values.data(), rows, cols, stride, refs);
  bool ok = true;
  for (size_t k = 0; k < names.size(); ++k)
    ok &= checkOutput(result, names[k], values[k], refs[k], cols, tol);
  for (size_t k = 0; k < names.size(); ++k)
    ok &= recordClobbered(result, names[k], clobbered[k]);
  result.Passed = ok;
  return result;
}

/// row_scans_kernel(x, sums, prods, n_cols, stride); size (rows, cols).
CaseResult runRowScans(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  return runRowOutputs(
      env, test, kernel, shape, {"sum", "prod"}, test.Config.Tol,
      [](const float *x, std::uint64_t rows, std::uint64_t cols,
         std::uint64_t stride, std::vector<std::vector<double>> &refs) {
        rowScansReference(x, rows, cols, stride, refs[0].data(),
                          refs[1].data());
      });
}

/// linear_recurrence_kernel(x, fwd, bwd, n_cols, stride); size (rows, cols).
CaseResult runLinearRecurrence(TestEnv &env, const GpuTest &test,
                               const Kernel &kernel, const Shape &shape) {
  return runRowOutputs(
      env, test, kernel, shape, {"fwd", "bwd"}, test.Config.Tol,
      [](const float *x, std::uint64_t rows, std::uint64_t cols,
         std::uint64_t stride, std::vector<std::vector<double>> &refs) {
        linearRecurrenceReference(x, rows, cols, stride, refs[0].data(),
                                  refs[1].data());
      });
}

/// flip_rows_kernel(x, rev, chunks, cat, n_cols, stride); size (rows, cols).
/// The row stride of flip_rows / sort_rows cases: five elements past the
/// row, or for a Padded case (the _h16 builds, whose sizes and strides are
/// declared multiples of 16) past the row rounded to 16 elements.
static std::uint64_t rowStride(const Shape &shape, std::uint64_t cols) {
  return shape.has(Shape::Flag::Padded) ? (cols + 15) / 16 * 16 + 16 : cols + 5;
}

CaseResult runFlipRows(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1],
                      block = test.Config.Block;
  if (cols > block)
    return badSize(test, shape, "n_cols exceeds BLOCK");
  const std::uint64_t stride = rowStride(shape, cols);
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = (rows * cols + rows * cols + 3.0 * rows * block) * 4;
  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, stride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &drev = buffers.output(rows * stride * sizeof(float));
  DeviceBuffer &dchunks = buffers.output(rows * block * sizeof(float));
  DeviceBuffer &dcat = buffers.output(rows * 2 * block * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, drev, dchunks, dcat, cols, stride},
                  buffers, result);
  std::vector<float> rev, chunks, cat;
  std::uint64_t clobbered[3] = {0, 0, 0};
  if (status.ok())
    status =
        readMatrix(drev, ElemType::F32, rows, cols, stride, rev, clobbered[0]);
  if (status.ok())
    status = readMatrix(dchunks, ElemType::F32, rows, block, block, chunks,
                        clobbered[1]);
  if (status.ok())
    status = readMatrix(dcat, ElemType::F32, rows, 2 * block, 2 * block, cat,
                        clobbered[2]);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> revRef(rows * cols), chunksRef(rows * block),
      catRef(rows * 2 * block);
  flipRowsReference(x.Values.data(), rows, cols, stride, block, revRef.data(),
                    chunksRef.data(), catRef.data());
  bool ok = checkOutput(result, "rev", rev, revRef, cols, Tolerance::exact());
  ok &= checkOutput(result, "chunks", chunks, chunksRef, block,
                    Tolerance::exact());
  ok &= checkOutput(result, "cat", cat, catRef, 2 * block, Tolerance::exact());
  ok &= recordClobbered(result, "rev", clobbered[0]);
  ok &= recordClobbered(result, "chunks", clobbered[1]);
  ok &= recordClobbered(result, "cat", clobbered[2]);
  result.Passed = ok;
  return result;
}

/// sort_rows_kernel(x, asc, desc, ints, top, n_cols, stride); size (rows,
/// cols).
CaseResult runSortRows(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  if (cols > test.Config.Block)
    return badSize(test, shape, "n_cols exceeds BLOCK");
  const std::uint64_t stride = rowStride(shape, cols);
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = (4.0 * rows * cols + 16.0 * rows) * sizeof(float);
  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, stride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer *outs[4];
  for (int k = 0; k < 3; ++k)
    outs[k] = &buffers.output(rows * stride * sizeof(float));
  outs[3] = &buffers.output(rows * 16 * sizeof(std::int32_t));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid,
                  {dx, *outs[0], *outs[1], *outs[2], *outs[3], cols, stride},
                  buffers, result);
  std::vector<double> refs[4];
  for (int k = 0; k < 3; ++k)
    refs[k].resize(rows * cols);
  refs[3].resize(rows * 16);
  sortRowsReference(x.Values.data(), rows, cols, stride, refs[0].data(),
                    refs[1].data(), refs[2].data(), refs[3].data());
  const char *names[4] = {"asc", "desc", "ints", "top"};
  bool ok = true;
  for (int k = 0; k < 4 && status.ok(); ++k) {
    std::vector<float> values;
    std::uint64_t clobbered = 0;
    // The integers (|v| <= 1000, or -2^31) are exact as floats.
    std::uint64_t width = k == 3 ? 16 : cols, ld = k == 3 ? 16 : stride;
    status = readMatrix(*outs[k], k >= 2 ? ElemType::I32 : ElemType::F32, rows,
                        width, ld, values, clobbered);
    if (!status.ok())
      break;
    ok &= checkOutput(result, names[k], values, refs[k], width,
                      Tolerance::exact());
    ok &= recordClobbered(result, names[k], clobbered);
  }
  if (!status.ok())
    return failed(status, result);
  result.Passed = ok;
  return result;
}

/// merge_rows_kernel(x, out, n_cols, stride); size (rows, cols): the row
/// sorted ascending (the +inf padding sorts after it).
CaseResult runMergeRows(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                        const Shape &shape) {
  return runRowOutputs(
      env, test, kernel, shape, {"sorted"}, Tolerance::exact(),
      [](const float *x, std::uint64_t rows, std::uint64_t cols,
         std::uint64_t stride, std::vector<std::vector<double>> &refs) {
        for (std::uint64_t r = 0; r < rows; ++r) {
          std::vector<float> row(x + r * stride, x + r * stride + cols);
          std::sort(row.begin(), row.end());
          std::copy(row.begin(), row.end(), refs[0].begin() + r * cols);
        }
      });
}

/// sort_fp8_rows_kernel(x, e4, e5, n_cols, stride); size (rows, cols): the
/// row rounded down to eighths (exact in both fp8 formats), sorted, twice.
CaseResult runSortFp8Rows(TestEnv &env, const GpuTest &test,
                          const Kernel &kernel, const Shape &shape) {
  return runRowOutputs(
      env, test, kernel, shape, {"e4", "e5"}, Tolerance::exact(),
      [](const float *x, std::uint64_t rows, std::uint64_t cols,
         std::uint64_t stride, std::vector<std::vector<double>> &refs) {
        for (std::uint64_t r = 0; r < rows; ++r) {
          std::vector<double> row(cols);
          for (std::uint64_t c = 0; c < cols; ++c)
            row[c] = std::floor(double(x[r * stride + c]) * 8.0) / 8.0;
          std::sort(row.begin(), row.end());
          for (std::vector<double> &ref : refs)
            std::copy(row.begin(), row.end(), ref.begin() + r * cols);
        }
      });
}

/// asm_bytes_kernel(x, y, n); size (n).
CaseResult runAsmBytes(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                       const Shape &shape) {
  const std::uint64_t n = shape[0];
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = n * 5.0;
  HostMatrix x = HostMatrix::random(env, ElemType::F32, 1, n);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dy = buffers.output(n);
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid, {dx, dy, n}, buffers, result);
  std::vector<float> y;
  std::uint64_t clobbered = 0;
  // The poison (0xFF, -1) is not a result: those end in three zero bits.
  if (status.ok())
    status = readMatrix(dy, ElemType::I8, 1, n, n, y, clobbered);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(n);
  asmBytesReference(x.Values.data(), n, ref.data());
  bool ok = checkOutput(result, "y", y, ref, n, Tolerance::exact());
  ok &= recordClobbered(result, "y", clobbered);
  result.Passed = ok;
  return result;
}

/// asm_pair_kernel(x, sum, diff, n, shift); size (n).
CaseResult runAsmPair(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                      const Shape &shape) {
  const std::uint64_t n = shape[0];
  const float shift = 0.375f;
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = n * 12.0;
  HostMatrix x = HostMatrix::random(env, ElemType::F32, 1, n);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dsum = buffers.output(n * sizeof(float));
  DeviceBuffer &ddiff = buffers.output(n * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid, {dx, dsum, ddiff, n, shift},
                              buffers, result);
  std::vector<float> sums, diffs;
  std::uint64_t clobbered[2] = {0, 0};
  if (status.ok())
    status = readMatrix(dsum, ElemType::F32, 1, n, n, sums, clobbered[0]);
  if (status.ok())
    status = readMatrix(ddiff, ElemType::F32, 1, n, n, diffs, clobbered[1]);
  if (!status.ok())
    return failed(status, result);
  // add.f32 and sub.f32 round to nearest: the fp32 sum and difference.
  std::vector<double> sumRef(n), diffRef(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    sumRef[i] = x.Values[i] + shift;
    diffRef[i] = x.Values[i] - shift;
  }
  bool ok = checkOutput(result, "sum", sums, sumRef, n, Tolerance::exact());
  ok &= checkOutput(result, "diff", diffs, diffRef, n, Tolerance::exact());
  ok &= recordClobbered(result, "sum", clobbered[0]);
  ok &= recordClobbered(result, "diff", clobbered[1]);
  result.Passed = ok;
  return result;
}

/// map_elementwise_kernel(x, selu, steps, swap, max, argmax, n, alpha); size
/// (n).
CaseResult runMapElementwise(TestEnv &env, const GpuTest &test,
                             const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0], block = test.Config.Block;
  const float alpha = 1.6732632f;
  CaseResult result;
  Dim3 grid(cdiv(n, block));
  const std::uint64_t programs = grid.X;
  result.Grid = gridString(grid);
  result.Bytes = n * 16.0;
  HostMatrix x = HostMatrix::random(env, ElemType::F32, 1, n);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dselu = buffers.output(n * sizeof(float));
  DeviceBuffer &dsteps = buffers.output(n * sizeof(float));
  DeviceBuffer &dswap = buffers.output(n * sizeof(float));
  DeviceBuffer &dmax = buffers.output(programs * sizeof(float));
  DeviceBuffer &dargmax = buffers.output(programs * sizeof(std::int32_t));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid, {dx, dselu, dsteps, dswap, dmax, dargmax, n, alpha},
      buffers, result);
  std::vector<float> selu, steps, swap, maxima, argmax;
  std::uint64_t clobbered[5] = {0, 0, 0, 0, 0};
  if (status.ok())
    status = readMatrix(dselu, ElemType::F32, 1, n, n, selu, clobbered[0]);
  if (status.ok())
    status = readMatrix(dsteps, ElemType::F32, 1, n, n, steps, clobbered[1]);
  if (status.ok())
    status = readMatrix(dswap, ElemType::F32, 1, n, n, swap, clobbered[2]);
  if (status.ok())
    status = readMatrix(dmax, ElemType::F32, 1, programs, programs, maxima,
                        clobbered[3]);
  if (status.ok())
    status = readMatrix(dargmax, ElemType::I32, 1, programs, programs, argmax,
                        clobbered[4]);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> seluRef(n), stepsRef(n), swapRef(n), maxRef(programs),
      argmaxRef(programs);
  mapElementwiseReference(x.Values.data(), n, block, alpha, seluRef.data(),
                          stepsRef.data(), swapRef.data(), maxRef.data(),
                          argmaxRef.data());
  bool ok =
      checkOutput(result, "selu", selu, seluRef, n, Tolerance::relative(1e-6));
  ok &= checkOutput(result, "steps", steps, stepsRef, n, Tolerance::exact());
  ok &= checkOutput(result, "swap", swap, swapRef, n, Tolerance::exact());
  ok &=
      checkOutput(result, "max", maxima, maxRef, programs, Tolerance::exact());
  ok &= checkOutput(result, "argmax", argmax, argmaxRef, programs,
                    Tolerance::exact());
  const char *names[] = {"selu", "steps", "swap", "max", "argmax"};
  for (int k = 0; k < 5; ++k)
    ok &= recordClobbered(result, names[k], clobbered[k]);
  result.Passed = ok;
  return result;
}

/// strided_axpy_kernel(x, y, out, shape, x_strides, y_strides, out_strides,
/// a): x with padded rows, y a transposed view (the transpose of a padded
/// cols x rows matrix), out with padded rows; each tensor's shape and
/// strides go as tuples, that is as their elements; size (rows, cols).
CaseResult runStridedAxpy(TestEnv &env, const GpuTest &test,
                          const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  const std::uint64_t xld = cols + 3, yld = rows + 1, outld = cols + 5;
  const float a = 0.5f;
  CaseResult result;
  Dim3 grid(cdiv(rows, test.Config.BlockM), cdiv(cols, test.Config.BlockN));
  result.Grid = gridString(grid);
  result.Bytes = 3.0 * rows * cols * 4;
  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, xld);
  HostMatrix yt = HostMatrix::random(env, ElemType::F32, cols, rows, yld);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dyt = buffers.input(yt);
  DeviceBuffer &dout = buffers.output(rows * outld * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  std::int32_t one = 1;
  Status status = launchTimed(
      env, kernel, grid,
      {dx, dyt, dout, rows, cols, xld, one, one, yld, outld, one, a}, buffers,
      result);
  std::vector<float> out;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dout, ElemType::F32, rows, cols, outld, out, clobbered);
  if (!status.ok())
    return failed(status, result);
  const std::uint64_t xs[2] = {xld, 1}, ys[2] = {1, yld};
  std::vector<double> ref(rows * cols);
  stridedAxpyReference(x.Values.data(), xs, yt.Values.data(), ys, a, rows, cols,
                       ref.data());
  // fp32 arithmetic against the float64 reference.
  bool ok =
      checkOutput(result, "out", out, ref, cols, Tolerance::relative(1e-6));
  ok &= recordClobbered(result, "out", clobbered);
  result.Passed = ok;
  return result;
}

/// mask_compare_kernel(x, y, n, lo, hi); size (n), a multiple of 16, with
/// lo and hi multiples of 16 at about a quarter and three quarters of it.
CaseResult runMaskCompare(TestEnv &env, const GpuTest &test,
                          const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  const std::uint64_t lo = n / 4 / 16 * 16, hi = 3 * n / 4 / 16 * 16;
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = n * 8.0;
  HostMatrix x = HostMatrix::random(env, ElemType::F32, 1, n);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dy = buffers.output(n * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, dy, n, lo, hi}, buffers, result);
  std::vector<float> y;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dy, ElemType::F32, 1, n, n, y, clobbered);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(n);
  maskCompareReference(x.Values.data(), n, lo, hi, ref.data());
  bool ok = checkOutput(result, "y", y, ref, n, Tolerance::relative(1e-6));
  ok &= recordClobbered(result, "y", clobbered);
  result.Passed = ok;
  return result;
}

/// gather_rows_kernel(src, idx, out, n_rows); size (rows).
CaseResult runGatherRows(TestEnv &env, const GpuTest &test,
                         const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], n = test.Config.BlockN,
                      k = test.Config.BlockK;
  CaseResult result;
  Dim3 grid(cdiv(rows, test.Config.BlockM));
  result.Grid = gridString(grid);
  result.Bytes = rows * (n + 2.0 * k) * 4;
  HostMatrix src = HostMatrix::random(env, ElemType::F32, rows, n);
  // Indices uniform in [0, n), from the next random stream.
  HostMatrix u = HostMatrix::random(env, ElemType::F32, rows, k);
  std::vector<std::int32_t> idx(rows * k);
  for (std::uint64_t i = 0; i < idx.size(); ++i)
    idx[i] = std::min<std::int32_t>(
        std::int32_t(n) - 1, std::int32_t((u.Values[i] + 1.0f) * 0.5f * n));
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dsrc = buffers.input(src);
  DeviceBuffer &didx = buffers.input(idx.data(), idx.size() * 4);
  DeviceBuffer &dout = buffers.output(rows * k * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dsrc, didx, dout, rows}, buffers, result);
  std::vector<float> out;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dout, ElemType::F32, rows, k, k, out, clobbered);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(rows * k);
  gatherRowsReference(src.Values.data(), idx.data(), rows, n, k, ref.data());
  bool ok = checkOutput(result, "out", out, ref, k, Tolerance::exact());
  ok &= recordClobbered(result, "out", clobbered);
  result.Passed = ok;
  return result;
}

/// row_histogram_kernel(x, out, n_cols, stride); size (rows, cols).
CaseResult runRowHistogram(TestEnv &env, const GpuTest &test,
                           const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1],
                      bins = test.Config.BlockN;
  if (cols > test.Config.Block)
    return badSize(test, shape, "n_cols exceeds BLOCK");
  const std::uint64_t stride = cols + 3;
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = rows * (cols + double(bins)) * 4;
  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, stride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dout = buffers.output(rows * bins * sizeof(std::int32_t));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dx, dout, cols, stride}, buffers, result);
  std::vector<float> out;
  std::uint64_t clobbered = 0;
  // Counts up to 1024 are exact as floats.
  if (status.ok())
    status = readMatrix(dout, ElemType::I32, rows, bins, bins, out, clobbered);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(rows * bins);
  rowHistogramReference(x.Values.data(), rows, cols, stride, bins, ref.data());
  bool ok = checkOutput(result, "counts", out, ref, bins, Tolerance::exact());
  ok &= recordClobbered(result, "counts", clobbered);
  result.Passed = ok;
  return result;
}

/// row_combines_kernel(x, max, index, xor, or, n_rows, n_cols, stride);
/// size (rows, cols).
CaseResult runRowCombines(TestEnv &env, const GpuTest &test,
                          const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  if (cols > test.Config.Block)
    return badSize(test, shape, "n_cols exceeds BLOCK");
  const std::uint64_t stride =
      shape.has(Shape::Flag::Padded) ? rowStride(shape, cols) : cols + 3;
  CaseResult result;
  Dim3 grid(cdiv(rows, test.Config.BlockM));
  result.Grid = gridString(grid);
  result.Bytes = (rows * cols + 4.0 * rows) * sizeof(float);
  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, stride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer *outs[4];
  for (DeviceBuffer *&out : outs)
    out = &buffers.output(rows * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid,
      {dx, *outs[0], *outs[1], *outs[2], *outs[3], rows, cols, stride}, buffers,
      result);
  std::vector<double> refs[4];
  for (std::vector<double> &ref : refs)
    ref.resize(rows);
  rowCombinesReference(x.Values.data(), rows, cols, stride, refs[0].data(),
                       refs[1].data(), refs[2].data(), refs[3].data());
  const char *names[4] = {"max", "index", "xor", "or"};
  bool ok = true;
  for (int k = 0; k < 4 && status.ok(); ++k) {
    // Indices and bits are compared as integers (they do not fit floats);
    // readMatrix checks the guard region.
    std::vector<float> values;
    std::vector<std::int32_t> bits(rows);
    std::uint64_t clobbered = 0;
    status = readMatrix(*outs[k], k == 0 ? ElemType::F32 : ElemType::I32, 1,
                        rows, rows, values, clobbered);
    if (status.ok() && k > 0)
      status = outs[k]->copyToHost(bits);
    if (!status.ok())
      break;
    ok &= recordClobbered(result, names[k], clobbered);
    if (k == 0) {
      ok &= checkOutput(result, names[k], values, refs[k], rows,
                        Tolerance::exact());
      continue;
    }
    for (std::uint64_t r = 0; r < rows; ++r)
      if (bits[r] != std::int32_t(refs[k][r]) && result.Mismatches++ == 0) {
        result.Note = std::string(names[k]) + "[" + std::to_string(r) +
                      "] = " + std::to_string(bits[r]) + ", expected " +
                      std::to_string(std::int32_t(refs[k][r]));
        ok = false;
      }
  }
  if (!status.ok())
    return failed(status, result);
  result.Passed = ok;
  return result;
}

/// cross_entropy_kernel(logits, grad, labels, loss, n_cols, stride,
/// ignore_index); size (rows, cols).
CaseResult runCrossEntropy(TestEnv &env, const GpuTest &test,
                           const Kernel &kernel, const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  const std::uint64_t stride = (cols + 15) / 16 * 16 + 16;
  const int ignore = -100;
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = 2.0 * rows * cols * sizeof(float);
  // Logits in [-4, 4); labels anywhere in the row, one row in eight ignored.
  HostMatrix x = HostMatrix::random(env, ElemType::F32, rows, cols, stride);
  for (std::uint64_t i = 0; i < x.Values.size(); ++i)
    if (!std::isnan(x.Values[i])) {
      x.Values[i] *= 4.0f;
      std::memcpy(&x.Bytes[4 * i], &x.Values[i], 4);
    }
  std::vector<int> labels(rows);
  std::vector<float> u = uniformInputs(env, rows);
  for (std::uint64_t r = 0; r < rows; ++r)
    labels[r] = r % 8 == 3 ? ignore
                           : std::min<int>(int(cols) - 1,
                                           int((u[r] + 1.0f) * 0.5f * cols));
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dx = buffers.input(x);
  DeviceBuffer &dgrad = buffers.output(rows * stride * sizeof(float));
  DeviceBuffer &dlabels = buffers.input(labels.data(), rows * sizeof(int));
  DeviceBuffer &dloss = buffers.output(rows * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid,
                              {dx, dgrad, dlabels, dloss, cols, stride, ignore},
                              buffers, result);
  std::vector<float> grads, losses(rows);
  std::uint64_t clobbered = 0;
  if (status.ok())
    status =
        readMatrix(dgrad, ElemType::F32, rows, cols, stride, grads, clobbered);
  if (status.ok())
    status = dloss.copyToHost(losses);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> lossRef(rows), gradRef(rows * cols);
  crossEntropyReference(x.Values.data(), labels.data(), rows, cols, stride,
                        ignore, lossRef.data(), gradRef.data());
  bool ok = checkOutput(result, "loss", losses, lossRef, 0, test.Config.Tol);
  ok &= checkOutput(result, "grad", grads, gradRef, cols, test.Config.Tol);
  ok &= recordClobbered(result, "grad", clobbered);
  result.Passed = ok;
  return result;
}

/// glu_fwd_kernel(a, b, c, row_stride, n_cols) built with ACTIVATION silu
/// (test name swiglu_bf16) or gelu_tanh; size (rows, cols), padded rows.
CaseResult runGlu(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                  const Shape &shape) {
  const std::uint64_t rows = shape[0], cols = shape[1];
  const std::uint64_t stride = (cols + 7) / 8 * 8 + 8;
  const ElemType type = test.Config.In;
  const bool gelu = test.Name.find("geglu") != std::string::npos;
  CaseResult result;
  Dim3 grid(rows);
  result.Grid = gridString(grid);
  result.Bytes = 3.0 * rows * cols * elemSize(type);
  HostMatrix a = HostMatrix::random(env, type, rows, cols, stride);
  HostMatrix b = HostMatrix::random(env, type, rows, cols, stride);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &da = buffers.input(a);
  DeviceBuffer &db = buffers.input(b);
  DeviceBuffer &dc = buffers.output(rows * stride * elemSize(type));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid, {da, db, dc, stride, cols},
                              buffers, result);
  std::vector<float> c;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status = readMatrix(dc, type, rows, cols, stride, c, clobbered);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> ref(rows * cols);
  gluReference(a.Values.data(), b.Values.data(), rows, cols, stride, gelu,
               ref.data());
  bool ok = checkOutput(result, "C", c, ref, cols, test.Config.Tol);
  ok &= recordClobbered(result, "C", clobbered);
  result.Passed = ok;
  return result;
}

/// hash_buckets_kernel(keys, bucket, unit, n, n_buckets, split); size (n).
/// The keys are uniform 32-bit words, so half of the hashes are at or above
/// 2^31, where signed arithmetic would differ.
CaseResult runHashBuckets(TestEnv &env, const GpuTest &test,
                          const Kernel &kernel, const Shape &shape) {
  const std::uint64_t n = shape[0];
  const std::int32_t buckets = 1009;
  const std::int64_t split = 0xC0000000;
  CaseResult result;
  Dim3 grid(cdiv(n, test.Config.Block));
  result.Grid = gridString(grid);
  result.Bytes = n * 12.0;
  std::mt19937 generator(env.Seed * 7919u + env.NextStream++);
  std::vector<std::uint32_t> keys(n);
  for (std::uint32_t &key : keys)
    key = std::uint32_t(generator());
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dkeys = buffers.input(keys.data(), n * sizeof(std::uint32_t));
  DeviceBuffer &dbucket = buffers.output(n * sizeof(std::int32_t));
  DeviceBuffer &dunit = buffers.output(n * sizeof(float));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {dkeys, dbucket, dunit, n, buckets, split},
                  buffers, result);
  std::vector<std::int32_t> bucketValues(n);
  std::vector<float> units(n);
  if (status.ok())
    status = dbucket.copyToHost(bucketValues);
  if (status.ok())
    status = dunit.copyToHost(units);
  if (!status.ok())
    return failed(status, result);
  std::vector<double> bucketRef(n), unitRef(n);
  hashBucketsReference(keys.data(), n, buckets, split, bucketRef.data(),
                       unitRef.data());
  // Buckets are below 2^24: exact as floats (the poison -1 is no bucket).
  std::vector<float> bucketOut(bucketValues.begin(), bucketValues.end());
  bool ok = checkOutput(result, "bucket", bucketOut, bucketRef, n,
                        Tolerance::exact());
  ok &= checkOutput(result, "unit", units, unitRef, n, Tolerance::exact());
  result.Passed = ok;
  return result;
}

} // namespace

void tilec::gpu::addElementwiseTests(std::vector<GpuTest> &tests) {
  TestConfig math;
  math.Block = 256;
  math.Tol = Tolerance::relative(1e-5);
  tests.push_back({"math_functions",
                   "math_functions.ptx",
                   "unary_math_kernel",
                   {{1}, {1000}, {4099}, {(1u << 18) + 5}},
                   runMathFunctions,
                   math});
  TestConfig math64 = math;
  math64.Tol = Tolerance{1e-13, 1e-13};
  tests.push_back({"math_functions_fp64",
                   "math_functions_fp64.ptx",
                   "unary_math64_kernel",
                   {{1}, {1000}, {4099}, {(1u << 18) + 5}},
                   runMathFunctions64,
                   math64});
  TestConfig random;
  random.Block = 256;
  random.Tol = Tolerance::relative(1e-6);
  tests.push_back({"random_streams",
                   "random_streams.ptx",
                   "random_streams_kernel",
                   {{1}, {1000}, {4099}, {(1u << 20) + 7}},
                   runRandomStreams,
                   random});
  TestConfig dropout;
  dropout.Block = 1024;
  // x / (1 - p) is Triton's '/': div.full.f32, within 2 ulp.
  dropout.Tol = Tolerance::relative(1e-6);
  tests.push_back({"seeded_dropout",
                   "seeded_dropout.ptx",
                   "seeded_dropout_kernel",
                   {{1}, {1000}, {98304 + 17}, {(1u << 22) + 3}},
                   runSeededDropout,
                   dropout});
  TestConfig pairs;
  pairs.Block = 256;
  pairs.Tol = Tolerance::relative(1e-6);
  tests.push_back({"complex_square",
                   "complex_square.ptx",
                   "complex_square_kernel",
                   {{1}, {1000}, {4099}, {(1u << 20) + 7}},
                   runComplexSquare,
                   pairs});
  TestConfig scans;
  scans.Block = 1024;
  scans.Tol = Tolerance::relative(1e-5);
  tests.push_back({"row_scans",
                   "row_scans.ptx",
                   "row_scans_kernel",
                   {{1, 1}, {7, 1000}, {300, 513}, {4096, 1000}},
                   runRowScans,
                   scans});
  tests.push_back({"linear_recurrence",
                   "linear_recurrence.ptx",
                   "linear_recurrence_kernel",
                   {{1, 1}, {7, 1000}, {300, 513}, {4096, 1000}},
                   runLinearRecurrence,
                   scans});
  // Rows of up to 512: the warp bits are the top bits of the row.
  scans.Block = 512;
  tests.push_back({"row_scans_b512",
                   "row_scans_b512.ptx",
                   "row_scans_kernel",
                   {{1, 1}, {7, 500}, {300, 512}, {4096, 333}},
                   runRowScans,
                   scans});
  tests.push_back({"linear_recurrence_b512",
                   "linear_recurrence_b512.ptx",
                   "linear_recurrence_kernel",
                   {{1, 1}, {7, 500}, {300, 512}, {4096, 333}},
                   runLinearRecurrence,
                   scans});
  TestConfig flips;
  flips.Block = 256;
  tests.push_back({"flip_rows",
                   "flip_rows.ptx",
                   "flip_rows_kernel",
                   {{1, 1}, {7, 200}, {301, 256}, {4099, 129}},
                   runFlipRows,
                   flips});
  tests.push_back({"sort_rows",
                   "sort_rows.ptx",
                   "sort_rows_kernel",
                   {{1, 1}, {7, 200}, {301, 256}, {4099, 129}},
                   runSortRows,
                   flips});
  // The benchmark's builds: n_cols and the row stride declared multiples
  // of 16, as Triton's launcher specializes 16384 x 256.
  std::vector<Shape> flipsH16 = {{{1, 16}, Shape::Flag::Padded},
                                 {{7, 208}, Shape::Flag::Padded},
                                 {{4099, 256}, Shape::Flag::Padded}};
  tests.push_back({"flip_rows_h16", "flip_rows_h16.ptx", "flip_rows_kernel",
                   flipsH16, runFlipRows, flips});
  tests.push_back({"sort_rows_h16", "sort_rows_h16.ptx", "sort_rows_kernel",
                   flipsH16, runSortRows, flips});
  tests.push_back({"merge_rows",
                   "merge_rows.ptx",
                   "merge_rows_kernel",
                   {{1, 1}, {7, 200}, {301, 256}, {4099, 129}},
                   runMergeRows,
                   flips});
  tests.push_back({"sort_fp8_rows",
                   "sort_fp8_rows.ptx",
                   "sort_fp8_rows_kernel",
                   {{1, 1}, {7, 200}, {301, 256}, {4099, 129}},
                   runSortFp8Rows,
                   flips});
  TestConfig inlineAsm;
  inlineAsm.Block = 1024;
  tests.push_back({"asm_bytes",
                   "asm_bytes.ptx",
                   "asm_bytes_kernel",
                   {{1}, {1000}, {4099}, {(1u << 20) + 7}},
                   runAsmBytes,
                   inlineAsm});
  tests.push_back({"asm_pair",
                   "asm_pair.ptx",
                   "asm_pair_kernel",
                   {{1}, {1000}, {4099}, {(1u << 20) + 7}},
                   runAsmPair,
                   inlineAsm});
  TestConfig maps;
  maps.Block = 1024;
  tests.push_back({"map_elementwise",
                   "map_elementwise.ptx",
                   "map_elementwise_kernel",
                   {{1}, {1000}, {4099}, {(1u << 20) + 7}},
                   runMapElementwise,
                   maps});
  TestConfig strided;
  strided.BlockM = 32;
  strided.BlockN = 64;
  tests.push_back({"strided_axpy",
                   "strided_axpy.ptx",
                   "strided_axpy_kernel",
                   {{1, 1}, {33, 70}, {1000, 777}, {4099, 129}},
                   runStridedAxpy,
                   strided});
  TestConfig masks;
  masks.Block = 1024;
  tests.push_back({"mask_compare",
                   "mask_compare.ptx",
                   "mask_compare_kernel",
                   {{16}, {1008}, {4000}, {(1u << 20) + 16}},
                   runMaskCompare,
                   masks});
  TestConfig gathers;
  gathers.BlockM = 32;
  gathers.BlockN = 64;
  gathers.BlockK = 32;
  tests.push_back({"gather_rows",
                   "gather_rows.ptx",
                   "gather_rows_kernel",
                   {{1}, {33}, {1000}, {65537}},
                   runGatherRows,
                   gathers});
  TestConfig histograms;
  histograms.Block = 1024;
  histograms.BlockN = 64;
  tests.push_back({"row_histogram",
                   "row_histogram.ptx",
                   "row_histogram_kernel",
                   {{1, 1}, {7, 200}, {301, 1024}, {4099, 777}},
                   runRowHistogram,
                   histograms});
  TestConfig combines;
  combines.Block = 256;
  combines.BlockM = 4;
  tests.push_back({"row_combines",
                   "row_combines.ptx",
                   "row_combines_kernel",
                   {{1, 1}, {7, 200}, {301, 256}, {4099, 129}},
                   runRowCombines,
                   combines});
  // The benchmark's build: rows, columns and row stride multiples of 16.
  tests.push_back({"row_combines_h16",
                   "row_combines_h16.ptx",
                   "row_combines_kernel",
                   {{{16, 16}, Shape::Flag::Padded},
                    {{112, 208}, Shape::Flag::Padded},
                    {{4096, 256}, Shape::Flag::Padded}},
                   runRowCombines,
                   combines});
  TestConfig ce;
  ce.Block = 1024;
  ce.Tol = Tolerance::relative(1e-5);
  tests.push_back({"cross_entropy",
                   "cross_entropy.ptx",
                   "cross_entropy_kernel",
                   {{1, 1}, {9, 1000}, {64, 5003}, {4096, 32000}},
                   runCrossEntropy,
                   ce});
  TestConfig glu;
  glu.In = glu.Out = ElemType::BF16;
  glu.Block = 8192;
  glu.NumWarps = 16;
  glu.Tol = Tolerance::relative(1e-2);
  for (const char *name : {"swiglu_bf16", "geglu_bf16"})
    tests.push_back({name,
                     std::string(name) + ".ptx",
                     "glu_fwd_kernel",
                     {{1, 1}, {7, 1000}, {300, 5000}, {2048, 8192}},
                     runGlu,
                     glu});
  TestConfig grouped;
  grouped.GroupM = 8;
  grouped.BlockN = 1024;
  grouped.Tol = Tolerance::relative(1e-5);
  tests.push_back({"grouped_sum",
                   "grouped_sum.ptx",
                   "grouped_row_sum_kernel",
                   {{1, 1}, {5, 300}, {1000, 1000}, {8191, 777}},
                   runGroupedSum,
                   grouped});
  TestConfig hashing;
  hashing.Block = 1024;
  tests.push_back({"hash_buckets",
                   "hash_buckets.ptx",
                   "hash_buckets_kernel",
                   {{1}, {1000}, {4099}, {(1u << 22) + 3}},
                   runHashBuckets,
                   hashing});
}
