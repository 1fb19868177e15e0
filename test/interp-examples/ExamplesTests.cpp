//===- ExamplesTests.cpp - Every example kernel in the interpreter -------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-interpreter-examples [--only NAME,...] [--save DIR] [--list]
//
// Runs every configuration of the example and seed kernels that
// examples/CMakeLists.txt compiles to PTX (same name, kernel, signature and
// constexprs) in the interpreter, at ragged sizes, and checks every output
// against the float64 references of test/gpu/Reference.h with the
// tolerances of the GPU tests. No GPU needed.
//
// With --save DIR each case's launch, inputs and the interpreter's outputs
// are written to DIR (cases.txt, then CASE.ARG.in / CASE.ARG.out for every
// buffer argument); tilec-interp-compare runs the same PTX on a GPU from
// them and compares the GPU's outputs with the interpreter's.
//
//===----------------------------------------------------------------------===//

#include "Reference.h"

#include "tilec/Interpreter/Interpreter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <functional>
#include <random>

using namespace llvm;
using namespace tilec;
using namespace tilec::interp;

namespace {

constexpr double ExactTol = 1e-5, Tf32Tol = 3e-3, Fp16Tol = 2e-3,
                 Bf16Tol = 1e-2;

uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/// One configuration of examples/CMakeLists.txt.
struct Config;

/// One (configuration, size) case being set up, run and checked.
class Case {
public:
  Case(const Config &config, ArrayRef<uint64_t> size, unsigned seed)
      : config(config), size(size), generator(seed) {}

  /// The value of a constexpr of the configuration.
  uint64_t constant(StringRef name) const;
  /// A padded row stride for rows of `cols` elements: `cols + extra`, or
  /// the next multiple of 16 after `cols` when the signature declares
  /// integers multiples of 16.
  uint64_t stride(uint64_t cols, uint64_t extra) const;

  /// A rows x cols input with row stride ld, values uniform in [-1, 1)
  /// rounded to `type` (padding NaN) or, for integer types, uniform in
  /// [-8, 8] (padding 127, outside that range); and a zero-filled output.
  Buffer &input(ScalarType type, uint64_t rows, uint64_t cols, uint64_t ld = 0);
  Buffer &output(ScalarType type, uint64_t count);
  /// A uniform 32-bit word of the case's stream (for inputs of other
  /// distributions).
  uint32_t random() { return generator(); }

  /// The rows x cols matrix of `buffer` with row stride ld, as floats.
  static std::vector<float> values(const Buffer &buffer, uint64_t rows,
                                   uint64_t cols, uint64_t ld = 0);

  /// Compares rows x cols of `buffer` (row stride ld) with `ref` under the
  /// tolerance `rel` (on the norm; 10 * rel on every element), judging a
  /// reference whose rms is below refFloor by refFloor.
  void check(StringRef what, const Buffer &buffer, uint64_t rows, uint64_t cols,
             uint64_t ld, const std::vector<double> &ref, double rel);

  const Config &config;
  std::vector<uint64_t> size;
  std::array<unsigned, 3> grid = {1, 1, 1};
  std::vector<Argument> args;
  std::vector<std::unique_ptr<Buffer>> buffers;
  /// The initial contents of each buffer (for --save).
  std::vector<std::vector<uint8_t>> initial;
  std::string failure;
  /// The size below which a result is rounding (the GPU tests'
  /// Tolerance::RefFloor); saved with the case for tilec-interp-compare.
  double refFloor = 0;

private:
  std::mt19937 generator;
};

/// Sets up a case's buffers, arguments and grid; runs the reference checks
/// after the run.
using Setup = std::function<std::function<void()>(Case &)>;

struct Config {
  std::string name, source, kernel, signature;
  std::vector<std::string> defines;
  Setup setup;
  std::vector<std::vector<uint64_t>> sizes;
  double tol;
};

uint64_t Case::constant(StringRef name) const {
  for (StringRef define : config.defines) {
    auto [key, value] = define.split('=');
    if (key == name)
      return std::stoull(value.str());
  }
  return 0;
}

/// The kernel arguments of a configuration's signature, in launch order (a
/// tuple is its elements, a descriptor its base, extents and strides).
static std::vector<abi::ArgType> launchTypes(const Config &config);

uint64_t Case::stride(uint64_t cols, uint64_t extra) const {
  if (llvm::any_of(launchTypes(config), [](const abi::ArgType &type) {
        return type == abi::ArgType{false, ScalarType::I32, 16};
      }))
    return (cols + 15) / 16 * 16 + 16;
  return cols + extra;
}

Buffer &Case::input(ScalarType type, uint64_t rows, uint64_t cols,
                    uint64_t ld) {
  ld = ld ? ld : cols;
  auto buffer = std::make_unique<Buffer>(type, rows * ld);
  bool isInt = !abi::isFloatType(type);
  bool isUnsigned = abi::isUnsignedType(type);
  auto value = [&]() -> double {
    // Unsigned bytes over all of [0, 255]; other integers in [-8, 8].
    if (isUnsigned && abi::scalarTypeSize(type) == 1)
      return static_cast<int>(generator() % 256);
    if (isInt)
      return static_cast<int>(generator() % 17) - 8;
    return (generator() >> 8) * 0x1p-23 - 1.0;
  };
  double padding = isInt ? 127 : std::nan("");
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < ld; ++c)
      buffer->set(r * ld + c, c < cols ? value() : padding);
  args.push_back(Argument::ofBuffer(*buffer));
  buffers.push_back(std::move(buffer));
  return *buffers.back();
}

Buffer &Case::output(ScalarType type, uint64_t count) {
  buffers.push_back(std::make_unique<Buffer>(type, count));
  args.push_back(Argument::ofBuffer(*buffers.back()));
  return *buffers.back();
}

std::vector<float> Case::values(const Buffer &buffer, uint64_t rows,
                                uint64_t cols, uint64_t ld) {
  ld = ld ? ld : cols;
  std::vector<float> v;
  v.reserve(rows * cols);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < cols; ++c)
      v.push_back(static_cast<float>(buffer.get(r * ld + c)));
  return v;
}

void Case::check(StringRef what, const Buffer &buffer, uint64_t rows,
                 uint64_t cols, uint64_t ld, const std::vector<double> &ref,
                 double rel) {
  std::vector<float> out = values(buffer, rows, cols, ld);
  double refSquares = 0, errorSquares = 0;
  for (double r : ref)
    refSquares += r * r;
  double rms = ref.empty() ? 0 : std::sqrt(refSquares / ref.size());
  if (rms < refFloor) {
    rms = refFloor;
    refSquares = rms * rms * ref.size();
  }
  for (size_t i = 0; i < out.size(); ++i) {
    double diff = out[i] - ref[i];
    errorSquares += diff * diff;
    if (failure.empty() &&
        (!std::isfinite(out[i]) ||
         std::fabs(diff) > 10 * rel * (std::fabs(ref[i]) + rms)))
      failure =
          formatv("{0}[{1}, {2}] = {3}, expected {4}", what,
                  cols ? i / cols : 0, cols ? i % cols : 0, out[i], ref[i])
              .str();
  }
  double relError =
      std::sqrt(errorSquares) / std::max(std::sqrt(refSquares), 1e-30);
  if (failure.empty() && !(relError <= rel))
    failure =
        formatv("{0}: relative error {1:e} above {2:e}", what, relError, rel)
            .str();
}

//===----------------------------------------------------------------------===//
// The kernels' launches and references
//===----------------------------------------------------------------------===//

static std::vector<abi::ArgType> launchTypes(const Config &config) {
  std::vector<abi::ArgType> types;
  for (const SignatureEntry &entry :
       abi::parseSignatureEntries(config.signature).take()) {
    if (entry.IsConstant)
      continue;
    std::vector<abi::ArgType> args = abi::flatTypes(entry);
    types.insert(types.end(), args.begin(), args.end());
  }
  return types;
}

/// The element type of kernel argument `index` (`*fp16:16` -> fp16).
ScalarType argType(const Config &config, unsigned index) {
  return launchTypes(config)[index].Elem;
}

/// add_kernel / add_bp_kernel(x, y, out, n); size (n).
std::function<void()> vectorAdd(Case &c) {
  uint64_t n = c.size[0];
  Buffer &x = c.input(ScalarType::FP32, 1, n);
  Buffer &y = c.input(ScalarType::FP32, 1, n);
  Buffer &out = c.output(ScalarType::FP32, n);
  c.args.push_back(Argument::ofInt(n));
  c.grid[0] = cdiv(n, c.constant("BLOCK"));
  return [&c, &x, &y, &out, n] {
    std::vector<double> ref(n);
    for (uint64_t i = 0; i < n; ++i)
      ref[i] = static_cast<float>(x.get(i) + y.get(i));
    c.check("out", out, 1, n, n, ref, 0.0);
  };
}

/// unary_math_kernel(x, out, n): one row of n per function of
/// gpu::mathFunctions().
std::function<void()> mathFunctions(Case &c) {
  uint64_t n = c.size[0];
  const std::vector<gpu::MathFunction> &functions = gpu::mathFunctions();
  uint64_t rows = functions.size();
  Buffer &x = c.input(ScalarType::FP32, 1, n);
  Buffer &out = c.output(ScalarType::FP32, rows * n);
  c.args.push_back(Argument::ofInt(n));
  c.grid[0] = cdiv(n, c.constant("BLOCK"));
  return [&c, &x, &out, n, rows, &functions] {
    std::vector<float> xv = Case::values(x, 1, n);
    std::vector<double> ref(rows * n);
    for (uint64_t k = 0; k < rows; ++k)
      for (uint64_t i = 0; i < n; ++i)
        ref[k * n + i] = functions[k].Ref(xv[i]);
    c.check("out", out, rows, n, n, ref, c.config.tol);
  };
}

/// random_streams_kernel(words, uniform, normal, n, seed): Triton's words
/// and uniforms exactly, normals within fp32 rounding.
std::function<void()> randomStreams(Case &c) {
  uint64_t n = c.size[0];
  int64_t seed = 20261201 + int64_t(n);
  Buffer &words = c.output(ScalarType::I32, 4 * n);
  Buffer &uniform = c.output(ScalarType::FP32, n);
  Buffer &normal = c.output(ScalarType::FP32, n);
  c.args.push_back(Argument::ofInt(n));
  c.args.push_back(Argument::ofInt(seed));
  c.grid[0] = cdiv(n, c.constant("BLOCK"));
  return [&c, &words, &uniform, &normal, n, seed] {
    std::vector<double> u(n), z(n);
    for (uint64_t i = 0; i < n; ++i) {
      std::array<uint32_t, 4> w = gpu::randint4x(seed, int64_t(i));
      for (unsigned j = 0; j < 4; ++j)
        if (c.failure.empty() &&
            int64_t(words.get(4 * i + j)) != int64_t(int32_t(w[j])))
          c.failure = formatv("words[{0}] = {1}, expected {2}", 4 * i + j,
                              int64_t(words.get(4 * i + j)), int32_t(w[j]))
                          .str();
      u[i] = gpu::uniformFromWord(w[0]);
      z[i] = gpu::normalReference(seed, int64_t(i));
    }
    c.check("uniform", uniform, 1, n, n, u, 0.0);
    c.check("normal", normal, 1, n, n, z, c.config.tol);
  };
}

/// seeded_dropout_kernel(x, out, n, p, seed).
std::function<void()> seededDropout(Case &c) {
  uint64_t n = c.size[0];
  const float p = 0.375f;
  int64_t seed = 1234567 + int64_t(n);
  Buffer &x = c.input(ScalarType::FP32, 1, n);
  Buffer &out = c.output(ScalarType::FP32, n);
  c.args.push_back(Argument::ofInt(n));
  c.args.push_back(Argument::ofFloat(p));
  c.args.push_back(Argument::ofInt(seed));
  c.grid[0] = cdiv(n, c.constant("BLOCK"));
  return [&c, &x, &out, n, p, seed] {
    std::vector<float> xv = Case::values(x, 1, n);
    std::vector<double> ref(n);
    for (uint64_t i = 0; i < n; ++i)
      ref[i] = gpu::uniformFromWord(gpu::randint4x(seed, int64_t(i))[0]) > p
                   ? double(xv[i] / (1.0f - p))
                   : 0.0;
    c.check("out", out, 1, n, n, ref, 1e-6);
  };
}

/// complex_square_kernel(z, out, swapped, n): n (re, im) pairs.
std::function<void()> complexSquare(Case &c) {
  uint64_t n = c.size[0];
  Buffer &z = c.input(ScalarType::FP32, 1, 2 * n);
  Buffer &out = c.output(ScalarType::FP32, 2 * n);
  Buffer &swapped = c.output(ScalarType::FP32, 2 * n);
  c.args.push_back(Argument::ofInt(n));
  c.grid[0] = cdiv(n, c.constant("BLOCK"));
  return [&c, &z, &out, &swapped, n] {
    std::vector<float> zv = Case::values(z, 1, 2 * n);
    std::vector<double> outRef(2 * n), swappedRef(2 * n);
    gpu::complexSquareReference(zv.data(), n, outRef.data(), swappedRef.data());
    c.check("out", out, n, 2, 2, outRef, c.config.tol);
    c.check("swapped", swapped, n, 2, 2, swappedRef, 0.0);
  };
}

/// row_scans_kernel(x, sums, prods, n_cols, stride); size (rows, cols).
std::function<void()> rowScans(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 5;
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &sums = c.output(ScalarType::FP32, rows * ld);
  Buffer &prods = c.output(ScalarType::FP32, rows * ld);
  c.args.push_back(Argument::ofInt(cols));
  c.args.push_back(Argument::ofInt(ld));
  c.grid[0] = rows;
  return [&c, &x, &sums, &prods, rows, cols, ld] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> sumRef(rows * cols), prodRef(rows * cols);
    gpu::rowScansReference(xv.data(), rows, cols, cols, sumRef.data(),
                           prodRef.data());
    c.check("sum", sums, rows, cols, ld, sumRef, c.config.tol);
    c.check("prod", prods, rows, cols, ld, prodRef, c.config.tol);
  };
}

/// linear_recurrence_kernel(x, fwd, bwd, n_cols, stride); size (rows, cols).
std::function<void()> linearRecurrence(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 5;
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &fwd = c.output(ScalarType::FP32, rows * ld);
  Buffer &bwd = c.output(ScalarType::FP32, rows * ld);
  c.args.push_back(Argument::ofInt(cols));
  c.args.push_back(Argument::ofInt(ld));
  c.grid[0] = rows;
  return [&c, &x, &fwd, &bwd, rows, cols, ld] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> fwdRef(rows * cols), bwdRef(rows * cols);
    gpu::linearRecurrenceReference(xv.data(), rows, cols, cols, fwdRef.data(),
                                   bwdRef.data());
    c.check("fwd", fwd, rows, cols, ld, fwdRef, c.config.tol);
    c.check("bwd", bwd, rows, cols, ld, bwdRef, c.config.tol);
  };
}

/// flip_rows_kernel(x, rev, chunks, cat, n_cols, stride); size (rows, cols).
std::function<void()> flipRows(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 3;
  uint64_t block = c.constant("BLOCK");
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &rev = c.output(ScalarType::FP32, rows * ld);
  Buffer &chunks = c.output(ScalarType::FP32, rows * block);
  Buffer &cat = c.output(ScalarType::FP32, rows * 2 * block);
  c.args.push_back(Argument::ofInt(int64_t(cols)));
  c.args.push_back(Argument::ofInt(int64_t(ld)));
  c.grid[0] = rows;
  return [&c, &x, &rev, &chunks, &cat, rows, cols, ld, block] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> revRef(rows * cols), chunksRef(rows * block),
        catRef(rows * 2 * block);
    gpu::flipRowsReference(xv.data(), rows, cols, cols, block, revRef.data(),
                           chunksRef.data(), catRef.data());
    c.check("rev", rev, rows, cols, ld, revRef, 0);
    c.check("chunks", chunks, rows, block, block, chunksRef, 0);
    c.check("cat", cat, rows, 2 * block, 2 * block, catRef, 0);
  };
}

/// sort_rows_kernel(x, asc, desc, ints, top, n_cols, stride); size (rows,
/// cols).
std::function<void()> sortRows(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 3;
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &asc = c.output(ScalarType::FP32, rows * ld);
  Buffer &desc = c.output(ScalarType::FP32, rows * ld);
  Buffer &ints = c.output(ScalarType::I32, rows * ld);
  Buffer &top = c.output(ScalarType::I32, rows * 16);
  c.args.push_back(Argument::ofInt(int64_t(cols)));
  c.args.push_back(Argument::ofInt(int64_t(ld)));
  c.grid[0] = rows;
  return [&c, &x, &asc, &desc, &ints, &top, rows, cols, ld] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> ascRef(rows * cols), descRef(rows * cols),
        intsRef(rows * cols), topRef(rows * 16);
    gpu::sortRowsReference(xv.data(), rows, cols, cols, ascRef.data(),
                           descRef.data(), intsRef.data(), topRef.data());
    c.check("asc", asc, rows, cols, ld, ascRef, 0);
    c.check("desc", desc, rows, cols, ld, descRef, 0);
    c.check("ints", ints, rows, cols, ld, intsRef, 0);
    // -2^31 is exact as a float.
    c.check("top", top, rows, 16, 16, topRef, 0);
  };
}

/// merge_rows_kernel(x, out, n_cols, stride); size (rows, cols).
std::function<void()> mergeRows(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 3;
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &out = c.output(ScalarType::FP32, rows * ld);
  c.args.push_back(Argument::ofInt(int64_t(cols)));
  c.args.push_back(Argument::ofInt(int64_t(ld)));
  c.grid[0] = rows;
  return [&c, &x, &out, rows, cols, ld] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> ref(rows * cols);
    for (uint64_t r = 0; r < rows; ++r) {
      std::sort(xv.begin() + r * cols, xv.begin() + (r + 1) * cols);
      std::copy(xv.begin() + r * cols, xv.begin() + (r + 1) * cols,
                ref.begin() + r * cols);
    }
    c.check("sorted", out, rows, cols, ld, ref, 0);
  };
}

/// sort_fp8_rows_kernel(x, e4, e5, n_cols, stride); size (rows, cols).
std::function<void()> sortFp8Rows(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 3;
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &e4 = c.output(ScalarType::FP32, rows * ld);
  Buffer &e5 = c.output(ScalarType::FP32, rows * ld);
  c.args.push_back(Argument::ofInt(int64_t(cols)));
  c.args.push_back(Argument::ofInt(int64_t(ld)));
  c.grid[0] = rows;
  return [&c, &x, &e4, &e5, rows, cols, ld] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> ref(rows * cols);
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t i = 0; i < cols; ++i)
        ref[r * cols + i] = std::floor(double(xv[r * cols + i]) * 8.0) / 8.0;
      std::sort(ref.begin() + r * cols, ref.begin() + (r + 1) * cols);
    }
    c.check("e4", e4, rows, cols, ld, ref, 0);
    c.check("e5", e5, rows, cols, ld, ref, 0);
  };
}

/// map_elementwise_kernel(x, selu, steps, swap, max, argmax, n, alpha); size
/// (n).
std::function<void()> mapElementwise(Case &c) {
  uint64_t n = c.size[0], block = c.constant("BLOCK");
  uint64_t programs = cdiv(n, block);
  const float alpha = 1.6732632f;
  Buffer &x = c.input(ScalarType::FP32, 1, n);
  Buffer &selu = c.output(ScalarType::FP32, n);
  Buffer &steps = c.output(ScalarType::FP32, n);
  Buffer &swap = c.output(ScalarType::FP32, n);
  Buffer &maxima = c.output(ScalarType::FP32, programs);
  Buffer &argmax = c.output(ScalarType::I32, programs);
  c.args.push_back(Argument::ofInt(int64_t(n)));
  c.args.push_back(Argument::ofFloat(alpha));
  c.grid[0] = programs;
  return [&c, &x, &selu, &steps, &swap, &maxima, &argmax, n, block, programs,
          alpha] {
    std::vector<float> xv = Case::values(x, 1, n);
    std::vector<double> seluRef(n), stepsRef(n), swapRef(n), maxRef(programs),
        argmaxRef(programs);
    gpu::mapElementwiseReference(xv.data(), n, block, alpha, seluRef.data(),
                                 stepsRef.data(), swapRef.data(), maxRef.data(),
                                 argmaxRef.data());
    c.check("selu", selu, 1, n, n, seluRef, c.config.tol);
    c.check("steps", steps, 1, n, n, stepsRef, 0);
    c.check("swap", swap, 1, n, n, swapRef, 0);
    c.check("max", maxima, 1, programs, programs, maxRef, 0);
    c.check("argmax", argmax, 1, programs, programs, argmaxRef, 0);
  };
}

/// strided_axpy_kernel(x, y, out, shape, x_strides, y_strides, out_strides,
/// a): x padded rows, y a transposed view, out padded; size (rows, cols).
std::function<void()> stridedAxpy(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1];
  uint64_t xld = cols + 3, yld = rows + 1, outld = cols + 5;
  Buffer &x = c.input(ScalarType::FP32, rows, cols, xld);
  // y[r][col] is yt[col][r]: the transpose of a cols x rows matrix.
  Buffer &yt = c.input(ScalarType::FP32, cols, rows, yld);
  Buffer &out = c.output(ScalarType::FP32, rows * outld);
  const float a = 0.5f;
  for (uint64_t value :
       {rows, cols, xld, uint64_t(1), uint64_t(1), yld, outld, uint64_t(1)})
    c.args.push_back(Argument::ofInt(int64_t(value)));
  c.args.push_back(Argument::ofFloat(a));
  c.grid[0] = cdiv(rows, c.constant("BLOCK_M"));
  c.grid[1] = cdiv(cols, c.constant("BLOCK_N"));
  return [&c, &x, &yt, &out, rows, cols, xld, yld, outld, a] {
    std::vector<float> xv = Case::values(x, rows, xld);
    std::vector<float> yv = Case::values(yt, cols, yld);
    const uint64_t xs[2] = {xld, 1}, ys[2] = {1, yld};
    std::vector<double> ref(rows * cols);
    gpu::stridedAxpyReference(xv.data(), xs, yv.data(), ys, a, rows, cols,
                              ref.data());
    c.check("out", out, rows, cols, outld, ref, ExactTol);
  };
}

/// mask_compare_kernel(x, y, n, lo, hi); size (n), a multiple of 16.
std::function<void()> maskCompare(Case &c) {
  uint64_t n = c.size[0];
  uint64_t lo = n / 4 / 16 * 16, hi = 3 * n / 4 / 16 * 16;
  Buffer &x = c.input(ScalarType::FP32, 1, n);
  Buffer &y = c.output(ScalarType::FP32, n);
  for (uint64_t value : {n, lo, hi})
    c.args.push_back(Argument::ofInt(int64_t(value)));
  c.grid[0] = cdiv(n, c.constant("BLOCK"));
  return [&c, &x, &y, n, lo, hi] {
    std::vector<float> xv = Case::values(x, 1, n);
    std::vector<double> ref(n);
    gpu::maskCompareReference(xv.data(), n, lo, hi, ref.data());
    c.check("y", y, 1, n, n, ref, 1e-6);
  };
}

/// gather_rows_kernel(src, idx, out, n_rows); size (rows).
std::function<void()> gatherRows(Case &c) {
  uint64_t rows = c.size[0], n = c.constant("N"), k = c.constant("K");
  Buffer &src = c.input(ScalarType::FP32, rows, n);
  // Indices in [-8, 8]: the negative ones are clamped to 0, as on the GPU.
  Buffer &idx = c.input(ScalarType::I32, rows, k);
  Buffer &out = c.output(ScalarType::FP32, rows * k);
  c.args.push_back(Argument::ofInt(int64_t(rows)));
  c.grid[0] = unsigned(cdiv(rows, c.constant("BLOCK_M")));
  return [&c, &src, &idx, &out, rows, n, k] {
    std::vector<float> sv = Case::values(src, rows, n);
    std::vector<float> iv = Case::values(idx, rows, k);
    std::vector<std::int32_t> indices(iv.begin(), iv.end());
    std::vector<double> ref(rows * k);
    gpu::gatherRowsReference(sv.data(), indices.data(), rows, n, k, ref.data());
    c.check("out", out, rows, k, k, ref, 0);
  };
}

/// hash_buckets_kernel(keys, bucket, unit, n, n_buckets, split); size (n).
/// The keys are small integers, negative ones wrapping to above 2^31.
std::function<void()> hashBuckets(Case &c) {
  uint64_t n = c.size[0];
  const uint32_t buckets = 1009, split = 0xC0000000u;
  Buffer &keys = c.input(ScalarType::U32, 1, n);
  Buffer &bucket = c.output(ScalarType::I32, n);
  Buffer &unit = c.output(ScalarType::FP32, n);
  c.args.push_back(Argument::ofInt(int64_t(n)));
  c.args.push_back(Argument::ofInt(buckets));
  c.args.push_back(Argument::ofInt(split));
  c.grid[0] = cdiv(n, c.constant("BLOCK"));
  return [&c, &keys, &bucket, &unit, n, buckets, split] {
    std::vector<uint32_t> k(n);
    for (uint64_t i = 0; i < n; ++i)
      k[i] = uint32_t(int64_t(keys.get(i)));
    std::vector<double> bucketRef(n), unitRef(n);
    gpu::hashBucketsReference(k.data(), n, buckets, split, bucketRef.data(),
                              unitRef.data());
    c.check("bucket", bucket, 1, n, n, bucketRef, 0.0);
    c.check("unit", unit, 1, n, n, unitRef, 0.0);
  };
}

/// row_histogram_kernel(x, out, n_cols, stride); size (rows, cols).
std::function<void()> rowHistogram(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 3;
  uint64_t bins = c.constant("NUM_BINS");
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &out = c.output(ScalarType::I32, rows * bins);
  c.args.push_back(Argument::ofInt(int64_t(cols)));
  c.args.push_back(Argument::ofInt(int64_t(ld)));
  c.grid[0] = rows;
  return [&c, &x, &out, rows, cols, ld, bins] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> ref(rows * bins);
    gpu::rowHistogramReference(xv.data(), rows, cols, cols, bins, ref.data());
    c.check("counts", out, rows, bins, bins, ref, 0);
  };
}

/// row_combines_kernel(x, max, index, xor, or, n_rows, n_cols, stride);
/// size (rows, cols).
std::function<void()> rowCombines(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 3;
  uint64_t perProgram = c.constant("ROWS");
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &maxes = c.output(ScalarType::FP32, rows);
  Buffer &indices = c.output(ScalarType::I32, rows);
  Buffer &xors = c.output(ScalarType::I32, rows);
  Buffer &ors = c.output(ScalarType::I32, rows);
  for (uint64_t v : {rows, cols, ld})
    c.args.push_back(Argument::ofInt(int64_t(v)));
  c.grid[0] = (rows + perProgram - 1) / perProgram;
  return [&c, &x, &maxes, &indices, &xors, &ors, rows, cols, ld] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<double> maxRef(rows), indexRef(rows), xorRef(rows), orRef(rows);
    gpu::rowCombinesReference(xv.data(), rows, cols, cols, maxRef.data(),
                              indexRef.data(), xorRef.data(), orRef.data());
    c.check("max", maxes, 1, rows, rows, maxRef, 0);
    // Bits do not fit floats: compared as integers.
    for (auto [what, buffer, ref] :
         {std::tuple("index", &indices, &indexRef),
          std::tuple("xor", &xors, &xorRef), std::tuple("or", &ors, &orRef)})
      for (uint64_t r = 0; r < rows && c.failure.empty(); ++r)
        if (buffer->get(r) != (*ref)[r])
          c.failure = formatv("{0}[{1}] = {2}, expected {3}", what, r,
                              int64_t(buffer->get(r)), int64_t((*ref)[r]))
                          .str();
  };
}

/// cross_entropy_kernel(logits, grad, labels, loss, n_cols, stride,
/// ignore_index); size (rows, cols); every third row ignored.
std::function<void()> crossEntropy(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 3;
  const int ignore = -100;
  Buffer &x = c.input(ScalarType::FP32, rows, cols, ld);
  Buffer &grad = c.output(ScalarType::FP32, rows * ld);
  Buffer &labels = c.output(ScalarType::I32, rows);
  for (uint64_t r = 0; r < rows; ++r)
    labels.set(r, r % 3 == 1 ? ignore : double((r * 7919) % cols));
  Buffer &loss = c.output(ScalarType::FP32, rows);
  for (int64_t v : {int64_t(cols), int64_t(ld), int64_t(ignore)})
    c.args.push_back(Argument::ofInt(v));
  c.grid[0] = rows;
  return [&c, &x, &grad, &labels, &loss, rows, cols, ld, ignore] {
    std::vector<float> xv = Case::values(x, rows, cols, ld);
    std::vector<int> lv(rows);
    for (uint64_t r = 0; r < rows; ++r)
      lv[r] = int(labels.get(r));
    std::vector<double> lossRef(rows), gradRef(rows * cols);
    gpu::crossEntropyReference(xv.data(), lv.data(), rows, cols, cols, ignore,
                               lossRef.data(), gradRef.data());
    c.check("loss", loss, 1, rows, rows, lossRef, c.config.tol);
    c.check("grad", grad, rows, cols, ld, gradRef, c.config.tol);
  };
}

/// grouped_row_sum_kernel(x, partial, lock, count, N, stride); size (M, N).
std::function<void()> groupedSum(Case &c) {
  uint64_t m = c.size[0], n = c.size[1], groups = c.constant("GROUP");
  uint64_t ld = n + 3;
  Buffer &x = c.input(ScalarType::FP32, m, n, ld);
  Buffer &partial = c.output(ScalarType::FP32, groups * n);
  c.output(ScalarType::I32, groups);
  c.output(ScalarType::I32, groups);
  c.args.push_back(Argument::ofInt(n));
  c.args.push_back(Argument::ofInt(ld));
  c.grid[0] = m;
  return [&c, &x, &partial, m, n, ld, groups] {
    std::vector<float> xv = Case::values(x, m, n, ld);
    uint64_t used = std::min(groups, m);
    std::vector<double> ref(used * n, 0.0);
    for (uint64_t r = 0; r < m; ++r)
      for (uint64_t col = 0; col < n; ++col)
        ref[(r % groups) * n + col] += xv[r * n + col];
    c.check("partial", partial, used, n, n, ref, c.config.tol);
  };
}

/// softmax_kernel(out, in, in_stride, out_stride, n_rows, n_cols),
/// softmax_where_kernel(x, out, M, N, stride), softmax_bp_kernel(x, out,
/// M, N) (in place into x); size (rows, cols).
enum class SoftmaxForm { Rows, Where, BlockPtr };
Setup softmax(SoftmaxForm form) {
  return [form](Case &c) -> std::function<void()> {
    uint64_t rows = c.size[0], cols = c.size[1];
    uint64_t ld = form == SoftmaxForm::BlockPtr ? cols : c.stride(cols, 3);
    Buffer *x, *out;
    if (form == SoftmaxForm::Rows) {
      out = &c.output(ScalarType::FP32, rows * ld);
      x = &c.input(ScalarType::FP32, rows, cols, ld);
      for (uint64_t v : {ld, ld, rows, cols})
        c.args.push_back(Argument::ofInt(v));
      c.grid[0] = rows;
    } else {
      x = &c.input(ScalarType::FP32, rows, cols, ld);
      out = &c.output(ScalarType::FP32, rows * ld);
      c.args.push_back(Argument::ofInt(rows));
      c.args.push_back(Argument::ofInt(cols));
      if (form == SoftmaxForm::Where)
        c.args.push_back(Argument::ofInt(ld));
      else
        out = x;
      c.grid[0] = cdiv(rows, c.constant("BLOCK_M"));
    }
    std::vector<float> in = Case::values(*x, rows, ld);
    return [&c, out, in, rows, cols, ld] {
      std::vector<double> ref(rows * cols);
      gpu::softmaxReference(in.data(), rows, cols, ld, ref.data());
      c.check("out", *out, rows, cols, ld, ref, c.config.tol);
    };
  };
}

/// layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps); size (rows,
/// cols).
std::function<void()> layerNorm(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 5;
  ScalarType type = argType(c.config, 0);
  Buffer &x = c.input(type, rows, cols, ld);
  Buffer &y = c.output(type, rows * ld);
  Buffer &w = c.input(type, 1, cols);
  Buffer &b = c.input(type, 1, cols);
  Buffer &mean = c.output(ScalarType::FP32, rows);
  Buffer &rstd = c.output(ScalarType::FP32, rows);
  c.args.push_back(Argument::ofInt(ld));
  c.args.push_back(Argument::ofInt(cols));
  c.args.push_back(Argument::ofFloat(1e-5));
  c.grid[0] = rows;
  return [&, rows, cols, ld] {
    std::vector<float> xs = Case::values(x, rows, ld);
    std::vector<float> ws = Case::values(w, 1, cols);
    std::vector<float> bs = Case::values(b, 1, cols);
    std::vector<double> refY(rows * cols), refMean(rows), refRstd(rows);
    gpu::layerNormReference(xs.data(), ws.data(), bs.data(), rows, cols, ld,
                            static_cast<double>(1e-5f), refY.data(),
                            refMean.data(), refRstd.data());
    c.check("Y", y, rows, cols, ld, refY, c.config.tol);
    c.check("Mean", mean, rows, 1, 1, refMean, ExactTol);
    c.check("Rstd", rstd, rows, 1, 1, refRstd, ExactTol);
  };
}

/// layer_norm_bwd_dx(DX, DY, PartialDW, PartialDB, Locks, X, W, Mean,
/// Rstd, stride, N); size (rows, cols). Mean and Rstd are the forward's of
/// X; the groups' partial rows are summed and checked against dW and dB.
std::function<void()> layerNormBwdDx(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 8;
  uint64_t groups = c.constant("GROUP_SIZE");
  ScalarType type = argType(c.config, 0);
  Buffer &dx = c.output(type, rows * ld);
  Buffer &dy = c.input(type, rows, cols, ld);
  Buffer &partialDw = c.output(ScalarType::FP32, groups * cols);
  Buffer &partialDb = c.output(ScalarType::FP32, groups * cols);
  c.output(ScalarType::I32, 2 * groups); // Locks and counters, zeros.
  Buffer &x = c.input(type, rows, cols, ld);
  Buffer &w = c.input(type, 1, cols);
  std::vector<float> xs = Case::values(x, rows, ld);
  std::vector<float> mean, rstd;
  gpu::layerNormStatistics(xs.data(), rows, cols, ld,
                           static_cast<double>(1e-5f), mean, rstd);
  Buffer &meanBuffer = c.input(ScalarType::FP32, rows, 1);
  Buffer &rstdBuffer = c.input(ScalarType::FP32, rows, 1);
  for (uint64_t r = 0; r < rows; ++r) {
    meanBuffer.set(r, mean[r]);
    rstdBuffer.set(r, rstd[r]);
  }
  c.args.push_back(Argument::ofInt(ld));
  c.args.push_back(Argument::ofInt(cols));
  c.grid[0] = rows;
  return [&, rows, cols, ld, groups, xs, mean, rstd] {
    std::vector<float> dys = Case::values(dy, rows, ld);
    std::vector<float> ws = Case::values(w, 1, cols);
    std::vector<double> refDx(rows * cols), refDw(cols), refDb(cols);
    gpu::layerNormBackwardReference(xs.data(), dys.data(), ws.data(),
                                    mean.data(), rstd.data(), rows, cols, ld,
                                    refDx.data(), refDw.data(), refDb.data());
    c.check("DX", dx, rows, cols, ld, refDx, c.config.tol);
    // The used groups' partial rows, summed per column.
    uint64_t used = std::min(groups, rows);
    std::vector<float> pdw = Case::values(partialDw, used, cols);
    std::vector<float> pdb = Case::values(partialDb, used, cols);
    Buffer sumDw(ScalarType::FP64, cols), sumDb(ScalarType::FP64, cols);
    for (uint64_t col = 0; col < cols; ++col) {
      double dwCol = 0.0, dbCol = 0.0;
      for (uint64_t g = 0; g < used; ++g) {
        dwCol += pdw[g * cols + col];
        dbCol += pdb[g * cols + col];
      }
      sumDw.set(col, dwCol);
      sumDb.set(col, dbCol);
    }
    c.check("DW", sumDw, 1, cols, cols, refDw, 1e-4);
    c.check("DB", sumDb, 1, cols, cols, refDb, 1e-4);
  };
}

/// layer_norm_bwd_dwdb(PartialDW, PartialDB, DW, DB, groups, N); size
/// (groups, cols).
std::function<void()> layerNormBwdDwDb(Case &c) {
  uint64_t groups = c.size[0], cols = c.size[1];
  ScalarType type = argType(c.config, 2);
  Buffer &pdw = c.input(ScalarType::FP32, groups, cols, cols);
  Buffer &pdb = c.input(ScalarType::FP32, groups, cols, cols);
  Buffer &dw = c.output(type, cols);
  Buffer &db = c.output(type, cols);
  c.args.push_back(Argument::ofInt(groups));
  c.args.push_back(Argument::ofInt(cols));
  c.grid[0] = cdiv(cols, c.constant("BLOCK_N"));
  return [&, groups, cols] {
    std::vector<float> a = Case::values(pdw, groups, cols);
    std::vector<float> b = Case::values(pdb, groups, cols);
    std::vector<double> refDw(cols, 0.0), refDb(cols, 0.0);
    for (uint64_t g = 0; g < groups; ++g)
      for (uint64_t col = 0; col < cols; ++col) {
        refDw[col] += a[g * cols + col];
        refDb[col] += b[g * cols + col];
      }
    c.check("DW", dw, 1, cols, cols, refDw, c.config.tol);
    c.check("DB", db, 1, cols, cols, refDb, c.config.tol);
  };
}

/// rope_fwd_kernel(Q, K, Cos, Sin, q_stride, k_stride, cs_stride, seq_len,
/// n_q_heads, n_k_heads), in place; size (tokens, q heads, k heads).
std::function<void()> rope(Case &c) {
  uint64_t tokens = c.size[0], qHeads = c.size[1], kHeads = c.size[2];
  uint64_t dim = c.constant("HEAD_DIM"), half = dim / 2;
  uint64_t seqLen = tokens > 7 ? tokens / 2 + 1 : tokens;
  uint64_t qLd = qHeads * dim + 8, kLd = kHeads * dim + 8, csLd = half + 4;
  ScalarType type = argType(c.config, 0);
  Buffer &q = c.input(type, tokens, qHeads * dim, qLd);
  Buffer &k = c.input(type, tokens, kHeads * dim, kLd);
  Buffer &cos = c.input(ScalarType::FP32, seqLen, half, csLd);
  Buffer &sin = c.input(ScalarType::FP32, seqLen, half, csLd);
  for (uint64_t v : {qLd, kLd, csLd, seqLen, qHeads, kHeads})
    c.args.push_back(Argument::ofInt(v));
  c.grid[0] = tokens;
  std::vector<float> qs = Case::values(q, tokens, qHeads * dim, qLd);
  std::vector<float> ks = Case::values(k, tokens, kHeads * dim, kLd);
  std::vector<float> cs = Case::values(cos, seqLen, half, csLd);
  std::vector<float> ss = Case::values(sin, seqLen, half, csLd);
  return [&, tokens, qHeads, kHeads, dim, seqLen, qLd, kLd, qs, ks, cs, ss] {
    std::vector<double> refQ(tokens * qHeads * dim),
        refK(tokens * kHeads * dim);
    gpu::ropeReference(qs.data(), cs.data(), ss.data(), tokens, qHeads, dim,
                       qHeads * dim, seqLen, dim / 2, refQ.data());
    gpu::ropeReference(ks.data(), cs.data(), ss.data(), tokens, kHeads, dim,
                       kHeads * dim, seqLen, dim / 2, refK.data());
    c.check("Q", q, tokens, qHeads * dim, qLd, refQ, c.config.tol);
    c.check("K", k, tokens, kHeads * dim, kLd, refK, c.config.tol);
  };
}

/// rms_norm_fwd_kernel(Y, X, W, Rstd, stride, N, eps, offset); size (rows,
/// cols).
std::function<void()> rmsNorm(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 8;
  ScalarType type = argType(c.config, 0);
  Buffer &y = c.output(type, rows * ld);
  Buffer &x = c.input(type, rows, cols, ld);
  Buffer &w = c.input(type, 1, cols);
  Buffer &rstd = c.output(ScalarType::FP32, rows);
  c.args.push_back(Argument::ofInt(ld));
  c.args.push_back(Argument::ofInt(cols));
  c.args.push_back(Argument::ofFloat(1e-5));
  c.args.push_back(Argument::ofFloat(1.0));
  c.grid[0] = rows;
  return [&, rows, cols, ld] {
    std::vector<float> xs = Case::values(x, rows, ld);
    std::vector<float> ws = Case::values(w, 1, cols);
    std::vector<double> refY(rows * cols), refRstd(rows);
    gpu::rmsNormReference(xs.data(), ws.data(), rows, cols, ld,
                          static_cast<double>(1e-5f), 1.0, refY.data(),
                          refRstd.data());
    c.check("Y", y, rows, cols, ld, refY, c.config.tol);
    c.check("Rstd", rstd, rows, 1, 1, refRstd, ExactTol);
  };
}

/// glu_fwd_kernel(A, B, C, stride, N) with ACTIVATION silu or gelu_tanh
/// (geglu_*); size (rows, cols).
std::function<void()> glu(Case &c) {
  uint64_t rows = c.size[0], cols = c.size[1], ld = cols + 8;
  ScalarType type = argType(c.config, 0);
  Buffer &a = c.input(type, rows, cols, ld);
  Buffer &b = c.input(type, rows, cols, ld);
  Buffer &out = c.output(type, rows * ld);
  c.args.push_back(Argument::ofInt(ld));
  c.args.push_back(Argument::ofInt(cols));
  c.grid[0] = rows;
  bool gelu = llvm::StringRef(c.config.name).starts_with("geglu");
  return [&, rows, cols, ld, gelu] {
    std::vector<float> as = Case::values(a, rows, ld);
    std::vector<float> bs = Case::values(b, rows, ld);
    std::vector<double> ref(rows * cols);
    gpu::gluReference(as.data(), bs.data(), rows, cols, ld, gelu, ref.data());
    c.check("C", out, rows, cols, ld, ref, c.config.tol);
  };
}

/// The matmul kernels: a, b, c, M, N, K, then all six strides (Strided,
/// Grouped, Persistent: NUM_PROGRAMS programs walking the tiles, Linear: B
/// given as w [N, K], the kernel computing a @ w.T), none
/// (BlockPtr, TransposedB) or the three row strides (Descriptor); size (M,
/// N, K). The kernel multiplies its inputs scaled by `inputScale` (the fp8
/// kernel: int8 / 8).
enum class MatmulForm {
  Strided,
  Grouped,
  Persistent,
  Linear,
  BlockPtr,
  TransposedB,
  Descriptor,
  /// A, Bt and C with row strides (matmul_bt_block_ptr_kernel), GROUP_M
  /// ordering.
  TransposedRows,
  /// Descriptor's arguments with a bias after B, C = relu(A @ B + bias)
  /// (matmul_bias_act_kernel), GROUP_M ordering.
  BiasRelu
};
Setup matmul(MatmulForm form, double inputScale = 1.0) {
  return [form, inputScale](Case &c) -> std::function<void()> {
    uint64_t m = c.size[0], n = c.size[1], k = c.size[2];
    bool transB = form == MatmulForm::TransposedB ||
                  form == MatmulForm::Linear ||
                  form == MatmulForm::TransposedRows;
    // Padded rows where the kernel takes strides (16-byte rows for
    // descriptors).
    bool strided = form == MatmulForm::Strided || form == MatmulForm::Grouped ||
                   form == MatmulForm::Persistent ||
                   form == MatmulForm::Linear ||
                   form == MatmulForm::TransposedRows;
    bool rowStrides =
        form == MatmulForm::Descriptor || form == MatmulForm::BiasRelu;
    uint64_t pad = strided ? 3 : rowStrides ? 8 : 0;
    ScalarType in = argType(c.config, 0), out = argType(c.config, 2);
    auto ld = [&](uint64_t cols) { return pad ? c.stride(cols, pad) : cols; };
    uint64_t lda = ld(k), ldb = ld(transB ? k : n), ldc = ld(n);
    Buffer &a = c.input(in, m, k, lda);
    Buffer &b = transB ? c.input(in, n, k, ldb) : c.input(in, k, n, ldb);
    Buffer *bias =
        form == MatmulForm::BiasRelu ? &c.input(in, 1, n, n) : nullptr;
    Buffer &d = c.output(out, m * ldc);
    std::vector<uint64_t> ints = {m, n, k};
    if (form == MatmulForm::Linear)
      ints.insert(ints.end(), {lda, 1, 1, ldb, ldc, 1});
    else if (form == MatmulForm::TransposedRows)
      ints.insert(ints.end(), {lda, ldb, ldc});
    else if (strided)
      ints.insert(ints.end(), {lda, 1, ldb, 1, ldc, 1});
    else if (rowStrides)
      ints.insert(ints.end(), {lda, ldb, ldc});
    for (uint64_t v : ints)
      c.args.push_back(Argument::ofInt(v));
    uint64_t tilesM = cdiv(m, c.constant("BLOCK_M"));
    uint64_t tilesN = cdiv(n, c.constant("BLOCK_N"));
    if (form == MatmulForm::Grouped || form == MatmulForm::TransposedRows ||
        form == MatmulForm::BiasRelu)
      c.grid[0] = tilesM * tilesN;
    else if (form == MatmulForm::Persistent)
      c.grid[0] = c.constant("NUM_PROGRAMS");
    else
      c.grid = {static_cast<unsigned>(tilesM), static_cast<unsigned>(tilesN),
                1};
    return [&c, &a, &b, bias, &d, m, n, k, lda, ldb, ldc, transB, inputScale] {
      std::vector<float> av = Case::values(a, m, lda);
      std::vector<float> bv = Case::values(b, transB ? n : k, ldb);
      std::vector<double> ref(m * n);
      gpu::matmulReference(av.data(), bv.data(), m, n, k, lda, 1,
                           transB ? 1 : ldb, transB ? ldb : 1, ref.data());
      for (double &r : ref)
        r *= inputScale * inputScale;
      if (bias) {
        std::vector<float> biasValues = Case::values(*bias, 1, n);
        for (uint64_t i = 0; i < m; ++i)
          for (uint64_t j = 0; j < n; ++j)
            ref[i * n + j] = std::max(ref[i * n + j] + biasValues[j], 0.0);
      }
      c.check("C", d, m, n, ldc, ref, c.config.tol);
    };
  };
}

/// batched_matmul_kernel(a, b, c, batch, M, N, K, nine strides): C[i] =
/// A[i] @ B[i] (a 3-D tl.dot), BLOCK_B matrices a program
/// (batched_matmul_desc_kernel, without BLOCK_B: one); size (batch, M, N,
/// K), B given transposed (rows N, columns K) for odd batch sizes.
std::function<void()> batchedMatmul(Case &c) {
  uint64_t batch = c.size[0], m = c.size[1], n = c.size[2], k = c.size[3];
  bool transB = batch % 2 == 1;
  ScalarType in = argType(c.config, 0), out = argType(c.config, 2);
  uint64_t lda = c.stride(k, 3), ldb = c.stride(transB ? k : n, 3),
           ldc = c.stride(n, 3);
  uint64_t bRows = transB ? n : k;
  Buffer &a = c.input(in, batch * m, k, lda);
  Buffer &b = c.input(in, batch * bRows, transB ? k : n, ldb);
  Buffer &d = c.output(out, batch * m * ldc);
  uint64_t strideBK = transB ? 1 : ldb, strideBN = transB ? ldb : 1;
  for (uint64_t v : {batch, m, n, k, m * lda, lda, uint64_t(1), bRows * ldb,
                     strideBK, strideBN, m * ldc, ldc, uint64_t(1)})
    c.args.push_back(Argument::ofInt(v));
  uint64_t perProgram = std::max<uint64_t>(1, c.constant("BLOCK_B"));
  c.grid = {static_cast<unsigned>(cdiv(batch, perProgram)),
            static_cast<unsigned>(cdiv(m, c.constant("BLOCK_M"))),
            static_cast<unsigned>(cdiv(n, c.constant("BLOCK_N")))};
  return [&c, &a, &b, &d, batch, m, n, k, lda, ldb, ldc, bRows, strideBK,
          strideBN] {
    std::vector<float> av = Case::values(a, batch * m, lda);
    std::vector<float> bv = Case::values(b, batch * bRows, ldb);
    std::vector<double> ref(batch * m * n);
    for (uint64_t i = 0; i < batch; ++i)
      gpu::matmulReference(av.data() + i * m * lda, bv.data() + i * bRows * ldb,
                           m, n, k, lda, 1, strideBK, strideBN,
                           ref.data() + i * m * n);
    c.check("C", d, batch * m, n, ldc, ref, c.config.tol);
  };
}

/// Fills rows x cols bytes of `buffer` (row stride ld) with random codes of
/// `format` that are finite.
void fillMx(Case &c, Buffer &buffer, uint64_t rows, uint64_t cols, uint64_t ld,
            gpu::MxFormat format) {
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t col = 0; col < cols; ++col) {
      uint8_t byte = uint8_t(c.random());
      while (!gpu::mxFinite(format, byte))
        byte = uint8_t(c.random());
      buffer.set(r * ld + col, byte);
    }
}

/// mx_matmul_kernel(a, a_scale, b, b_scale, c, M, N, K, stride_am,
/// stride_bk, stride_cm) with A in `fa` and B in `fb`; size (M, N, K), K a
/// multiple of the group. Bytes uniform over the finite codes, scales
/// 2^-3..2^3: e8m0 powers of two one per 32 elements, or for `nvfp4` e4m3
/// values with any mantissa one per 16.
Setup mxMatmul(gpu::MxFormat fa, gpu::MxFormat fb, bool nvfp4 = false) {
  return [fa, fb, nvfp4](Case &c) -> std::function<void()> {
    uint64_t group = nvfp4 ? 16 : 32;
    uint64_t m = c.size[0], n = c.size[1], k = c.size[2], groups = k / group;
    uint64_t rowsB = k / gpu::mxPacking(fb), colsA = k / gpu::mxPacking(fa);
    uint64_t lda = c.stride(colsA, 0), ldb = c.stride(n, 0),
             ldc = c.stride(n, 0);
    ScalarType scaleType = nvfp4 ? ScalarType::FP8E4NV : ScalarType::U8;
    Buffer &a = c.input(ScalarType::U8, m, colsA, lda);
    Buffer &aScale = c.input(scaleType, m, groups);
    Buffer &b = c.input(ScalarType::U8, rowsB, n, ldb);
    Buffer &bScale = c.input(scaleType, n, groups);
    Buffer &d = c.output(ScalarType::FP32, m * ldc);
    fillMx(c, a, m, colsA, lda, fa);
    fillMx(c, b, rowsB, n, ldb, fb);
    // The scales' bytes (e4m3: exponent field 4..10, bias 7).
    for (Buffer *scale : {&aScale, &bScale})
      for (uint64_t i = 0; i < (scale == &aScale ? m : n) * groups; ++i)
        scale->getBytes()[i] =
            nvfp4 ? uint8_t((4 + c.random() % 7) << 3 | c.random() % 8)
                  : uint8_t(124 + c.random() % 7);
    for (uint64_t v : {m, n, k, lda, ldb, ldc})
      c.args.push_back(Argument::ofInt(int64_t(v)));
    c.grid = {unsigned(cdiv(m, c.constant("BLOCK_M"))),
              unsigned(cdiv(n, c.constant("BLOCK_N"))), 1};
    return [&c, &a, &aScale, &b, &bScale, &d, fa, fb, m, n, k, lda, ldb, ldc,
            group, nvfp4] {
      auto bytes = [](const Buffer &buffer, uint64_t count) {
        return std::vector<uint8_t>(buffer.getBytes().begin(),
                                    buffer.getBytes().begin() + count);
      };
      uint64_t groups = k / group;
      std::vector<uint8_t> av = bytes(a, m * lda),
                           as = bytes(aScale, m * groups),
                           bv = bytes(b, k / gpu::mxPacking(fb) * ldb),
                           bs = bytes(bScale, n * groups);
      std::vector<double> ref(m * n);
      double rmsA = 0, rmsB = 0;
      gpu::mxMatmulReference(av.data(), lda, as.data(), fa, bv.data(), ldb,
                             bs.data(), fb, m, n, k, ref.data(), rmsA, rmsB,
                             group, nvfp4);
      c.refFloor = 0.5 * std::sqrt(double(k)) * rmsA * rmsB;
      c.check("C", d, m, n, ldc, ref, c.config.tol);
    };
  };
}

/// batched_mx_matmul_kernel(a, a_scale, b, b_scale, c, BATCH, M, N, K,
/// stride_ab, stride_am, stride_bb, stride_bk, stride_cb, stride_cm): the
/// products of mxMatmul over a batch, e8m0 scales one per 32 elements; size
/// (BATCH, M, N, K), K a multiple of 32.
Setup batchedMxMatmul(gpu::MxFormat fa, gpu::MxFormat fb) {
  return [fa, fb](Case &c) -> std::function<void()> {
    const uint64_t group = 32;
    uint64_t batch = c.size[0], m = c.size[1], n = c.size[2], k = c.size[3];
    uint64_t groups = k / group;
    uint64_t rowsB = k / gpu::mxPacking(fb), colsA = k / gpu::mxPacking(fa);
    uint64_t lda = c.stride(colsA, 0), ldb = c.stride(n, 0),
             ldc = c.stride(n, 0);
    uint64_t strideA = m * lda, strideB = rowsB * ldb, strideC = m * ldc;
    Buffer &a = c.input(ScalarType::U8, batch * m, colsA, lda);
    Buffer &aScale = c.input(ScalarType::U8, batch * m, groups);
    Buffer &b = c.input(ScalarType::U8, batch * rowsB, n, ldb);
    Buffer &bScale = c.input(ScalarType::U8, batch * n, groups);
    Buffer &d = c.output(ScalarType::FP32, batch * strideC);
    fillMx(c, a, batch * m, colsA, lda, fa);
    fillMx(c, b, batch * rowsB, n, ldb, fb);
    for (Buffer *scale : {&aScale, &bScale})
      for (uint64_t i = 0; i < batch * (scale == &aScale ? m : n) * groups; ++i)
        scale->getBytes()[i] = uint8_t(124 + c.random() % 7);
    for (uint64_t v :
         {batch, m, n, k, strideA, lda, strideB, ldb, strideC, ldc})
      c.args.push_back(Argument::ofInt(int64_t(v)));
    c.grid = {unsigned(cdiv(batch, c.constant("BLOCK_B"))),
              unsigned(cdiv(m, c.constant("BLOCK_M"))),
              unsigned(cdiv(n, c.constant("BLOCK_N")))};
    return [&c, &a, &aScale, &b, &bScale, &d, fa, fb, batch, m, n, k, lda, ldb,
            ldc, groups, strideA, strideB, strideC] {
      const std::vector<uint8_t> &av = a.getBytes(), &as = aScale.getBytes(),
                                 &bv = b.getBytes(), &bs = bScale.getBytes();
      std::vector<double> ref(batch * strideC);
      double floor = 0;
      for (uint64_t i = 0; i < batch; ++i) {
        double rmsA = 0, rmsB = 0;
        std::vector<double> one(m * n);
        gpu::mxMatmulReference(
            av.data() + i * strideA, lda, as.data() + i * m * groups, fa,
            bv.data() + i * strideB, ldb, bs.data() + i * n * groups, fb, m, n,
            k, one.data(), rmsA, rmsB, group, false);
        floor = std::max(floor, 0.5 * std::sqrt(double(k)) * rmsA * rmsB);
        for (uint64_t r = 0; r < m; ++r)
          for (uint64_t col = 0; col < n; ++col)
            ref[(i * m + r) * n + col] = one[r * n + col];
      }
      c.refFloor = floor;
      c.check("C", d, batch * m, n, ldc, ref, c.config.tol);
    };
  };
}

/// attention_fwd(Q, K, V, O, sm_scale, N_CTX) (and flash_attention.tile's
/// attn_fwd, causal when CAUSAL is 1, over a sliding window of WINDOW keys
/// when given); size (heads, N_CTX).
std::function<void()> attention(Case &c) {
  uint64_t heads = c.size[0], seq = c.size[1], dim = c.constant("HEAD_DIM");
  bool causal = c.constant("CAUSAL") != 0;
  uint64_t window = c.constant("WINDOW");
  Buffer &q = c.input(ScalarType::FP16, heads * seq, dim);
  Buffer &k = c.input(ScalarType::FP16, heads * seq, dim);
  Buffer &v = c.input(ScalarType::FP16, heads * seq, dim);
  Buffer &o = c.output(ScalarType::FP16, heads * seq * dim);
  c.args.push_back(Argument::ofFloat(0.5));
  c.args.push_back(Argument::ofInt(seq));
  c.grid = {static_cast<unsigned>(cdiv(seq, c.constant("BLOCK_M"))),
            static_cast<unsigned>(heads), 1};
  return [&c, &q, &k, &v, &o, heads, seq, dim, causal, window] {
    std::vector<float> qv = Case::values(q, heads * seq, dim);
    std::vector<float> kv = Case::values(k, heads * seq, dim);
    std::vector<float> vv = Case::values(v, heads * seq, dim);
    std::vector<double> ref(heads * seq * dim);
    gpu::attentionReference(qv.data(), kv.data(), vv.data(), heads, seq, dim,
                            0.5, ref.data(), causal, window);
    c.check("O", o, heads * seq, dim, dim, ref, c.config.tol);
  };
}

/// batched_attention_kernel(q, k, v, o, batch, seq_len, sm_scale, stride_b,
/// stride_s): BLOCK_B sequences a program, 3-D tl.dot; size (batch,
/// seq_len), rows padded.
std::function<void()> batchedAttention(Case &c) {
  uint64_t batch = c.size[0], seq = c.size[1], dim = c.constant("HEAD_DIM");
  uint64_t ld = c.stride(dim, 8);
  Buffer &q = c.input(ScalarType::FP16, batch * seq, dim, ld);
  Buffer &k = c.input(ScalarType::FP16, batch * seq, dim, ld);
  Buffer &v = c.input(ScalarType::FP16, batch * seq, dim, ld);
  Buffer &o = c.output(ScalarType::FP16, batch * seq * ld);
  c.args.push_back(Argument::ofInt(batch));
  c.args.push_back(Argument::ofInt(seq));
  c.args.push_back(Argument::ofFloat(0.5));
  c.args.push_back(Argument::ofInt(seq * ld));
  c.args.push_back(Argument::ofInt(ld));
  uint64_t perProgram = std::max<uint64_t>(1, c.constant("BLOCK_B"));
  c.grid = {static_cast<unsigned>(cdiv(batch, perProgram)),
            static_cast<unsigned>(cdiv(seq, c.constant("BLOCK_M"))), 1};
  return [&c, &q, &k, &v, &o, batch, seq, dim, ld] {
    std::vector<float> qv = Case::values(q, batch * seq, dim, ld);
    std::vector<float> kv = Case::values(k, batch * seq, dim, ld);
    std::vector<float> vv = Case::values(v, batch * seq, dim, ld);
    std::vector<double> ref(batch * seq * dim);
    gpu::attentionReference(qv.data(), kv.data(), vv.data(), batch, seq, dim,
                            0.5, ref.data());
    c.check("O", o, batch * seq, dim, ld, ref, c.config.tol);
  };
}

/// attn_bwd_dkdv (Q, K, V, DO, DK, DV, M, Delta, sm_scale, N_CTX) or, with
/// `dq`, attn_bwd_dq (Q, K, V, DO, DQ, M, Delta, sm_scale, N_CTX) of
/// flash_attention_bwd.tile, causal when CAUSAL is 1, M and Delta from the
/// float64 forward; size (heads, N_CTX).
std::function<void()> attentionBackward(Case &c, bool dq) {
  uint64_t heads = c.size[0], seq = c.size[1], dim = c.constant("HEAD_DIM");
  bool causal = c.constant("CAUSAL") != 0;
  const double scale = 0.5;
  Buffer &q = c.input(ScalarType::FP16, heads * seq, dim);
  Buffer &k = c.input(ScalarType::FP16, heads * seq, dim);
  Buffer &v = c.input(ScalarType::FP16, heads * seq, dim);
  Buffer &dout = c.input(ScalarType::FP16, heads * seq, dim);
  Buffer *outs[2] = {&c.output(ScalarType::FP16, heads * seq * dim),
                     dq ? nullptr
                        : &c.output(ScalarType::FP16, heads * seq * dim)};
  Buffer &m = c.input(ScalarType::FP32, heads, seq);
  Buffer &delta = c.input(ScalarType::FP32, heads, seq);
  c.args.push_back(Argument::ofFloat(scale));
  c.args.push_back(Argument::ofInt(seq));
  uint64_t block = c.constant(dq ? "BLOCK_M" : "BLOCK_N");
  c.grid = {static_cast<unsigned>(cdiv(seq, block)),
            static_cast<unsigned>(heads), 1};
  auto ref = std::make_shared<gpu::AttentionBackward>();
  std::vector<float> qv = Case::values(q, heads * seq, dim);
  std::vector<float> kv = Case::values(k, heads * seq, dim);
  std::vector<float> vv = Case::values(v, heads * seq, dim);
  std::vector<float> dov = Case::values(dout, heads * seq, dim);
  gpu::attentionForwardStats(qv.data(), kv.data(), vv.data(), heads, seq, dim,
                             scale, causal, *ref);
  std::vector<float> o(ref->O.size());
  for (size_t i = 0; i < o.size(); ++i)
    o[i] = gpu::roundTo(gpu::ElemType::F16, static_cast<float>(ref->O[i]));
  gpu::attentionBackwardReference(qv.data(), kv.data(), vv.data(), dov.data(),
                                  o.data(), heads, seq, dim, scale, causal,
                                  *ref);
  for (uint64_t i = 0; i < heads * seq; ++i) {
    m.set(i, static_cast<float>(ref->Lse2[i]));
    delta.set(i, static_cast<float>(ref->Delta[i]));
  }
  // With one key, dQ and dK are 0 in exact arithmetic (p = 1 and dp = D, the
  // same sum taken in two orders): judged against a floor of 1e-4, as on the
  // GPU, far below the gradients of the other sizes.
  c.refFloor = 1e-4;
  return [&c, outs, ref, heads, seq, dim, dq] {
    if (dq) {
      c.check("dQ", *outs[0], heads * seq, dim, dim, ref->DQ, c.config.tol);
      return;
    }
    c.check("dK", *outs[0], heads * seq, dim, dim, ref->DK, c.config.tol);
    c.check("dV", *outs[1], heads * seq, dim, dim, ref->DV, c.config.tol);
  };
}

/// The configurations of examples/CMakeLists.txt, with sizes small enough
/// for the interpreter and ragged where the kernel allows it.
std::vector<Config> configurations() {
  const std::string mmInts = "i32, i32, i32, i32, i32, i32, i32, i32, i32";
  // N, K and the row strides multiples of 16, unit column strides.
  const std::string mmHintedInts =
      "i32, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1";
  const std::vector<std::string> mmBlocks = {"BLOCK_M=64", "BLOCK_N=64",
                                             "BLOCK_K=32"};
  // The tensor-core configurations' 128 x 128 blocks (8 warps on the GPU).
  const std::vector<std::string> tcBlocks = {"BLOCK_M=128", "BLOCK_N=128",
                                             "BLOCK_K=32"};
  auto with = [](std::vector<std::string> list,
                 std::initializer_list<std::string> more) {
    list.insert(list.end(), more);
    return list;
  };
  const std::string bpSig = "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32";
  const std::string smSig = "*fp32:16, *fp32:16, i32, i32, i32, i32";
  const std::string smSigH16 =
      "*fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:16";
  const std::string lnTail = "*fp32:16, *fp32:16, i32, i32, fp32";
  Setup rows = softmax(SoftmaxForm::Rows);
  std::vector<std::vector<uint64_t>> rows1024 = {{1, 1}, {3, 1000}, {9, 513}};
  std::vector<std::vector<uint64_t>> rows4096 = {{2, 4000}, {1, 2049}};
  // Ragged in every dimension (K not a multiple of BLOCK_K); the hinted
  // ones with N and K multiples of 16.
  std::vector<std::vector<uint64_t>> mmSizes = {{200, 136, 72}, {130, 100, 48}};
  std::vector<std::vector<uint64_t>> mmHintedSizes = {{200, 144, 80},
                                                      {130, 112, 48}};
  // Microscaled products: ragged M, N and K (a multiple of the scale
  // group of 32, not of BLOCK_K = 64).
  const std::string mxSig = "*u8:16, *u8:16, *u8:16, *u8:16, *fp32:16, i32, "
                            "i32, i32, i32:16, i32:16, i32:16";
  const std::vector<std::string> mxBlocks = {"BLOCK_M=128", "BLOCK_N=128",
                                             "BLOCK_K=64"};
  std::vector<std::vector<uint64_t>> mxSizes = {{1, 1, 32}, {130, 100, 96}};
  const std::string batchedMxSig =
      "*u8:16, *u8:16, *u8:16, *u8:16, *fp32:16, i32, i32, i32, i32, i32:16, "
      "i32:16, i32:16, i32:16, i32:16, i32:16";
  return {
      {"vector_add",
       "vector_add.tile",
       "add_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32",
       {"BLOCK=1024"},
       vectorAdd,
       {{1}, {1000}, {1025}, {5000}},
       0},
      {"vector_add_n16",
       "vector_add.tile",
       "add_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32:16",
       {"BLOCK=1024"},
       vectorAdd,
       {{16}, {1040}},
       0},
      {"block_ptr_1d",
       "seeds/block_ptr_1d.tile",
       "add_bp_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32",
       {"BLOCK=1024"},
       vectorAdd,
       {{1}, {1000}, {1025}, {5000}},
       0},
      {"vector_add_gdc",
       "dependent_launch.tile",
       "chained_add_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32",
       {"BLOCK=1024", "USE_GDC=True"},
       vectorAdd,
       {{1}, {1025}, {5000}},
       0},
      {"softmax_b1024_w4",
       "softmax.tile",
       "softmax_kernel",
       smSig,
       {"BLOCK_SIZE=1024"},
       rows,
       rows1024,
       ExactTol},
      {"softmax_b1024_w8",
       "softmax.tile",
       "softmax_kernel",
       smSig,
       {"BLOCK_SIZE=1024"},
       rows,
       rows1024,
       ExactTol},
      {"softmax_b4096_w8",
       "softmax.tile",
       "softmax_kernel",
       smSig,
       {"BLOCK_SIZE=4096"},
       rows,
       rows4096,
       ExactTol},
      {"softmax_b4096_w16",
       "softmax.tile",
       "softmax_kernel",
       smSig,
       {"BLOCK_SIZE=4096"},
       rows,
       rows4096,
       ExactTol},
      {"softmax_b4096_w8_h16",
       "softmax.tile",
       "softmax_kernel",
       smSigH16,
       {"BLOCK_SIZE=4096"},
       rows,
       {{16, 4000}},
       ExactTol},
      {"softmax_b4096_w16_h16",
       "softmax.tile",
       "softmax_kernel",
       smSigH16,
       {"BLOCK_SIZE=4096"},
       rows,
       {{16, 4000}},
       ExactTol},
      {"softmax_where",
       "softmax.tile",
       "softmax_where_kernel",
       "*fp32:16, *fp32:16, i32, i32, i32",
       {"BLOCK_M=4", "BLOCK_N=1024"},
       softmax(SoftmaxForm::Where),
       {{1, 1}, {7, 1000}},
       ExactTol},
      {"softmax_bp",
       "seeds/softmax_block_ptr.tile",
       "softmax_bp_kernel",
       "*fp32:16, *fp32:16, i32, i32",
       {"BLOCK_M=4", "BLOCK_N=1024"},
       softmax(SoftmaxForm::BlockPtr),
       {{1, 1}, {7, 1000}},
       ExactTol},
      {"layer_norm_fp32",
       "layer_norm.tile",
       "layer_norm_fwd",
       "*fp32:16, *fp32:16, *fp32:16, *fp32:16, " + lnTail,
       {"BLOCK_SIZE=1024"},
       layerNorm,
       {{1, 1}, {3, 1000}, {2, 3000}},
       ExactTol},
      {"layer_norm_fp16",
       "layer_norm.tile",
       "layer_norm_fwd",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, " + lnTail,
       {"BLOCK_SIZE=1024"},
       layerNorm,
       {{1, 1}, {3, 1000}, {2, 3000}},
       Fp16Tol},
      {"layer_norm_bwd_dx_fp16",
       "layer_norm.tile",
       "layer_norm_bwd_dx",
       "*fp16:16, *fp16:16, *fp32:16, *fp32:16, *i32:16, *fp16:16, *fp16:16, "
       "*fp32:16, *fp32:16, i32, i32",
       {"GROUP_SIZE=128", "BLOCK_SIZE=4096"},
       layerNormBwdDx,
       {{1, 1}, {3, 1000}, {130, 300}},
       Fp16Tol},
      {"layer_norm_bwd_dwdb_fp16",
       "layer_norm.tile",
       "layer_norm_bwd_dwdb",
       "*fp32:16, *fp32:16, *fp16:16, *fp16:16, i32, i32",
       {"BLOCK_M=32", "BLOCK_N=128"},
       layerNormBwdDwDb,
       {{1, 1}, {5, 300}, {70, 130}},
       Fp16Tol},
      {"rope_bf16",
       "rope.tile",
       "rope_fwd_kernel",
       "*bf16:16, *bf16:16, *fp32:16, *fp32:16, i32, i32, i32, i32, i32, i32",
       {"HEAD_DIM=128", "HALF_BLOCK=64", "Q_HEADS_BLOCK=32", "K_HEADS_BLOCK=8"},
       rope,
       {{1, 1, 1}, {9, 5, 3}, {3, 32, 8}},
       Bf16Tol},
      {"rms_norm_bf16",
       "rms_norm.tile",
       "rms_norm_fwd_kernel",
       "*bf16:16, *bf16:16, *bf16:16, *fp32:16, i32, i32, fp32, fp32",
       {"BLOCK_SIZE=8192"},
       rmsNorm,
       {{1, 1}, {3, 1000}, {2, 5000}},
       Bf16Tol},
      {"matmul_ptr_fp16",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmInts,
       mmBlocks,
       matmul(MatmulForm::Strided),
       {{100, 130, 77}, {1, 1, 1}, {33, 17, 9}},
       Fp16Tol},
      {"matmul_ptr_fp16_n1",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmInts,
       {"BLOCK_M=64", "BLOCK_N=1", "BLOCK_K=32"},
       matmul(MatmulForm::Strided),
       {{100, 13, 77}, {1, 1, 1}, {33, 5, 9}},
       Fp16Tol},
      {"matmul_ptr_fp16_h16",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmHintedInts,
       mmBlocks,
       matmul(MatmulForm::Strided),
       {{100, 144, 80}, {1, 16, 16}},
       Fp16Tol},
      {"matmul_ptr_bf16",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*bf16:16, *bf16:16, *bf16:16, " + mmInts,
       mmBlocks,
       matmul(MatmulForm::Strided),
       {{100, 130, 77}, {33, 17, 9}},
       Bf16Tol},
      {"matmul_ptr_ieee_fp32",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_ieee_kernel",
       "*fp32:16, *fp32:16, *fp32:16, " + mmInts,
       mmBlocks,
       matmul(MatmulForm::Strided),
       {{100, 130, 77}, {33, 17, 9}},
       ExactTol},
      {"matmul_ptr_tf32",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*fp32:16, *fp32:16, *fp32:16, " + mmInts,
       mmBlocks,
       matmul(MatmulForm::Strided),
       {{100, 130, 77}, {33, 17, 9}},
       Tf32Tol},
      {"matmul_group_fp16",
       "matmul.tile",
       "matmul_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmInts,
       with(mmBlocks, {"GROUP_M=8"}),
       matmul(MatmulForm::Grouped),
       {{100, 130, 77}, {600, 70, 40}},
       Fp16Tol},
      // N a multiple of 8 (fp16 vectors of 16 bytes), not of BLOCK_N: the
      // hints hold.
      {"matmul_group_fp16_hints",
       "matmul.tile",
       "matmul_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, "
       "i32:1, i32:16, i32:1",
       with(mmBlocks, {"GROUP_M=8", "HINTS=True"}),
       matmul(MatmulForm::Grouped),
       {{100, 136, 77}, {33, 8, 40}},
       Fp16Tol},
      {"matmul_group_tf32",
       "matmul.tile",
       "matmul_kernel",
       "*fp32:16, *fp32:16, *fp32:16, " + mmInts,
       with(mmBlocks, {"GROUP_M=8"}),
       matmul(MatmulForm::Grouped),
       {{100, 130, 77}},
       Tf32Tol},
      {"matmul_bp_fp16_it3",
       "seeds/matmul_block_ptr.tile",
       "matmul_bp_kernel",
       bpSig,
       with(mmBlocks, {"N_ITERS=3"}),
       matmul(MatmulForm::BlockPtr),
       {{100, 130, 77}, {33, 17, 65}},
       ExactTol},
      {"matmul_bp_fp16_it4",
       "seeds/matmul_block_ptr.tile",
       "matmul_bp_kernel",
       bpSig,
       with(mmBlocks, {"N_ITERS=4"}),
       matmul(MatmulForm::BlockPtr),
       {{100, 130, 100}, {1, 1, 128}},
       ExactTol},
      {"matmul_bp_fp16_tc_h16",
       "seeds/matmul_block_ptr.tile",
       "matmul_bp_kernel",
       "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16",
       {"BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=64", "N_ITERS=8"},
       matmul(MatmulForm::BlockPtr),
       {{200, 144, 496}, {1, 16, 16}},
       Fp16Tol},
      {"matmul_bp_fp16_it16",
       "seeds/matmul_block_ptr.tile",
       "matmul_bp_kernel",
       bpSig,
       with(mmBlocks, {"N_ITERS=16"}),
       matmul(MatmulForm::BlockPtr),
       {{70, 65, 500}},
       ExactTol},
      {"matmul_bp_tf32_it3",
       "seeds/matmul_block_ptr.tile",
       "matmul_bp_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32, i32, i32",
       with(mmBlocks, {"N_ITERS=3"}),
       matmul(MatmulForm::BlockPtr),
       {{100, 130, 77}},
       Tf32Tol},
      {"matmul_bp_check_n_fp16_it4",
       "seeds/matmul_block_ptr.tile",
       "matmul_bp_check_n_kernel",
       bpSig,
       with(mmBlocks, {"N_ITERS=4"}),
       matmul(MatmulForm::BlockPtr),
       {{128, 130, 128}, {64, 1, 128}},
       ExactTol},
      {"matmul_bp_check_m_fp16_it4",
       "seeds/matmul_block_ptr.tile",
       "matmul_bp_check_m_kernel",
       bpSig,
       with(mmBlocks, {"N_ITERS=4"}),
       matmul(MatmulForm::BlockPtr),
       {{130, 128, 128}, {1, 64, 128}},
       ExactTol},
      {"matmul_bt_fp16_it3",
       "seeds/matmul_block_ptr_bt.tile",
       "matmul_bt_kernel",
       bpSig,
       with(mmBlocks, {"N_ITERS=3"}),
       matmul(MatmulForm::TransposedB),
       {{100, 130, 77}, {33, 17, 65}},
       ExactTol},
      {"matmul_bt_fp16_it4",
       "seeds/matmul_block_ptr_bt.tile",
       "matmul_bt_kernel",
       bpSig,
       with(mmBlocks, {"N_ITERS=4"}),
       matmul(MatmulForm::TransposedB),
       {{100, 130, 100}},
       ExactTol},
      {"matmul_bt_fp16_it4_h16",
       "seeds/matmul_block_ptr_bt.tile",
       "matmul_bt_kernel",
       "*fp16:16, *fp16:16, *fp32:16, i32, i32:16, i32:16",
       with(mmBlocks, {"N_ITERS=4"}),
       matmul(MatmulForm::TransposedB),
       {{100, 144, 112}},
       ExactTol},
      {"matmul_desc_fp16",
       "seeds/matmul_desc.tile",
       "matmul_desc_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32",
       mmBlocks,
       matmul(MatmulForm::Descriptor),
       {{100, 136, 72}, {1, 8, 8}},
       Fp16Tol},
      {"matmul_desc_fp16_tc",
       "seeds/matmul_desc.tile",
       "matmul_desc_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32",
       {"BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=64"},
       matmul(MatmulForm::Descriptor),
       {{200, 136, 72}, {1, 8, 8}},
       Fp16Tol},
      {"matmul_desc_bf16_tc",
       "seeds/matmul_desc.tile",
       "matmul_desc_kernel",
       "*bf16:16, *bf16:16, *bf16:16, i32, i32:16, i32, i32, i32, i32:16",
       {"BLOCK_M=128", "BLOCK_N=256", "BLOCK_K=64"},
       matmul(MatmulForm::Descriptor),
       {{200, 272, 72}, {1, 16, 8}},
       Bf16Tol},
      {"matmul_desc_fp16_tc_n256",
       "seeds/matmul_desc.tile",
       "matmul_desc_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32, i32:16, i32, i32, i32, i32:16",
       {"BLOCK_M=128", "BLOCK_N=256", "BLOCK_K=64"},
       matmul(MatmulForm::Descriptor),
       {{200, 272, 72}, {1, 16, 8}},
       Fp16Tol},
      {"matmul_bias_relu_fp16_n256",
       "matmul_epilogue.tile",
       "matmul_bias_act_kernel",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32:16, i32, i32, i32, "
       "i32:16",
       {"BLOCK_M=128", "BLOCK_N=256", "BLOCK_K=64", "GROUP_M=8",
        "ACTIVATION=relu"},
       matmul(MatmulForm::BiasRelu),
       {{200, 272, 72}, {1, 16, 8}},
       Fp16Tol},
      // B given as Bt [N, K] through a block pointer of order (0, 1).
      {"matmul_bt_bp_fp16_tc",
       "matmul.tile",
       "matmul_bt_block_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32",
       {"BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=32", "GROUP_M=8"},
       matmul(MatmulForm::TransposedRows),
       {{257, 129, 70}, {1, 1, 1}},
       Fp16Tol},
      {"matmul_ptr_fp16_tc", "seeds/matmul_ptr.tile", "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmInts, tcBlocks,
       matmul(MatmulForm::Strided), mmSizes, Fp16Tol},
      // Flattened (tl.range(..., flatten=True)): 156 tiles of 16 x 16 for
      // 132 programs (some walk two), three K steps; one tile; no K steps.
      {"persistent_matmul_ptr",
       "persistent_matmul.tile",
       "persistent_matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, i32:1, "
       "i32:16, i32:1, i32:16, i32:1",
       {"BLOCK_M=16", "BLOCK_N=16", "BLOCK_K=16", "NUM_PROGRAMS=132"},
       matmul(MatmulForm::Persistent),
       {{208, 192, 48}, {16, 16, 16}, {48, 32, 0}},
       Fp16Tol},
      {"linear_fp16", "linear.tile", "linear_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32, i32:16, i32:16, i32:16, i32:1, "
       "i32:1, i32:16, i32:16, i32:1",
       tcBlocks, matmul(MatmulForm::Linear), mmHintedSizes, Fp16Tol},
      {"matmul_ptr_fp16_tc_h16", "seeds/matmul_ptr.tile", "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmHintedInts, tcBlocks,
       matmul(MatmulForm::Strided), mmHintedSizes, Fp16Tol},
      {"matmul_ptr_bf16_tc", "seeds/matmul_ptr.tile", "matmul_ptr_kernel",
       "*bf16:16, *bf16:16, *bf16:16, " + mmInts, tcBlocks,
       matmul(MatmulForm::Strided), mmSizes, Bf16Tol},
      {"matmul_ptr_bf16_tc_h16", "seeds/matmul_ptr.tile", "matmul_ptr_kernel",
       "*bf16:16, *bf16:16, *bf16:16, " + mmHintedInts, tcBlocks,
       matmul(MatmulForm::Strided), mmHintedSizes, Bf16Tol},
      {"matmul_tf32_tc", "matmul_dtypes.tile", "matmul_precision_kernel",
       "*fp32:16, *fp32:16, *fp32:16, " + mmInts,
       with(tcBlocks, {"PRECISION=\"tf32\""}), matmul(MatmulForm::Strided),
       mmSizes, Tf32Tol},
      {"matmul_tf32_tc_h16", "matmul_dtypes.tile", "matmul_precision_kernel",
       "*fp32:16, *fp32:16, *fp32:16, " + mmHintedInts,
       with(tcBlocks, {"PRECISION=\"tf32\""}), matmul(MatmulForm::Strided),
       mmHintedSizes, Tf32Tol},
      {"matmul_tf32_tc_m256",
       "matmul_dtypes.tile",
       "matmul_precision_kernel",
       "*fp32:16, *fp32:16, *fp32:16, " + mmHintedInts,
       {"BLOCK_M=256", "BLOCK_N=128", "BLOCK_K=32", "PRECISION=\"tf32\""},
       matmul(MatmulForm::Strided),
       mmHintedSizes,
       Tf32Tol},
      {"matmul_ptr_fp16_tc_k64s4",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmHintedInts,
       {"BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=64"},
       matmul(MatmulForm::Strided),
       mmHintedSizes,
       Fp16Tol},
      {"matmul_ptr_fp16_tc_n256",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmHintedInts,
       {"BLOCK_M=128", "BLOCK_N=256", "BLOCK_K=64"},
       matmul(MatmulForm::Strided),
       mmHintedSizes,
       Fp16Tol},
      {"matmul_ptr_bf16_tc_n256",
       "seeds/matmul_ptr.tile",
       "matmul_ptr_kernel",
       "*bf16:16, *bf16:16, *bf16:16, " + mmHintedInts,
       {"BLOCK_M=128", "BLOCK_N=256", "BLOCK_K=64"},
       matmul(MatmulForm::Strided),
       mmHintedSizes,
       Bf16Tol},
      // tf32x3 holds the hi and lo parts of both tiles: BLOCK_K=16.
      {"matmul_tf32x3_tc",
       "matmul_dtypes.tile",
       "matmul_precision_kernel",
       "*fp32:16, *fp32:16, *fp32:16, " + mmInts,
       {"BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=16", "PRECISION=\"tf32x3\""},
       matmul(MatmulForm::Strided),
       mmSizes,
       ExactTol},
      // Integers in [-8, 8] summed into int32: exact.
      {"matmul_int8_tc", "matmul_dtypes.tile", "matmul_int8_kernel",
       "*i8:16, *i8:16, *i32:16, " + mmInts, tcBlocks,
       matmul(MatmulForm::Strided), mmSizes, 0},
      {"matmul_int8_tc_h16", "matmul_dtypes.tile", "matmul_int8_kernel",
       "*i8:16, *i8:16, *i32:16, " + mmHintedInts, tcBlocks,
       matmul(MatmulForm::Strided), mmHintedSizes, 0},
      {"matmul_uint8_tc", "matmul_dtypes.tile", "matmul_int8_kernel",
       "*u8:16, *u8:16, *i32:16, " + mmInts, tcBlocks,
       matmul(MatmulForm::Strided), mmSizes, 0},
      // fp8 products of int8 inputs / 8 (exact in e4m3 and e5m2).
      {"matmul_e4m3_tc", "matmul_dtypes.tile", "matmul_fp8_kernel",
       "*i8:16, *i8:16, *fp32:16, " + mmInts,
       with(tcBlocks, {"FP8=tl.float8e4nv"}),
       matmul(MatmulForm::Strided, 0.125), mmSizes, 1e-7},
      {"matmul_e5m2_tc", "matmul_dtypes.tile", "matmul_fp8_kernel",
       "*i8:16, *i8:16, *fp32:16, " + mmInts,
       with(tcBlocks, {"FP8=tl.float8e5"}), matmul(MatmulForm::Strided, 0.125),
       mmSizes, 1e-7},
      // Microscaled products (tl.dot_scaled).
      {"mx_matmul_fp4_fp8", "mx_matmul.tile", "mx_matmul_kernel", mxSig,
       with(mxBlocks, {"A_FORMAT=e2m1", "B_FORMAT=e4m3"}),
       mxMatmul(gpu::MxFormat::E2M1, gpu::MxFormat::E4M3), mxSizes, 1e-5},
      {"mx_matmul_fp8_fp8", "mx_matmul.tile", "mx_matmul_kernel", mxSig,
       with(mxBlocks, {"A_FORMAT=e5m2", "B_FORMAT=e4m3"}),
       mxMatmul(gpu::MxFormat::E5M2, gpu::MxFormat::E4M3), mxSizes, 1e-5},
      {"mx_matmul_fp4_fp4",
       "mx_matmul.tile",
       "mx_matmul_kernel",
       mxSig,
       {"BLOCK_M=128", "BLOCK_N=64", "BLOCK_K=64", "A_FORMAT=e2m1",
        "B_FORMAT=e2m1"},
       mxMatmul(gpu::MxFormat::E2M1, gpu::MxFormat::E2M1),
       mxSizes,
       1e-5},
      {"mx_matmul_nvfp4",
       "mx_matmul.tile",
       "mx_matmul_kernel",
       "*u8:16, *fp8e4nv:16, *u8:16, *fp8e4nv:16, *fp32:16, i32, i32, i32, "
       "i32:16, i32:16, i32:16",
       {"BLOCK_M=128", "BLOCK_N=64", "BLOCK_K=64", "A_FORMAT=e2m1",
        "B_FORMAT=e2m1", "GROUP=16"},
       mxMatmul(gpu::MxFormat::E2M1, gpu::MxFormat::E2M1, /*nvfp4=*/true),
       mxSizes,
       1e-5},
      // One 3-D tl.dot_scaled a K step, two matrices a program.
      {"batched_mx_matmul_fp4_fp8",
       "mx_matmul.tile",
       "batched_mx_matmul_kernel",
       batchedMxSig,
       {"BLOCK_B=2", "BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=64", "A_FORMAT=e2m1",
        "B_FORMAT=e4m3"},
       batchedMxMatmul(gpu::MxFormat::E2M1, gpu::MxFormat::E4M3),
       {{1, 1, 1, 32}, {3, 70, 45, 96}, {5, 33, 80, 64}},
       1e-5},
      {"batched_mx_matmul_fp8_fp8",
       "mx_matmul.tile",
       "batched_mx_matmul_kernel",
       batchedMxSig,
       {"BLOCK_B=2", "BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=64", "A_FORMAT=e5m2",
        "B_FORMAT=e4m3"},
       batchedMxMatmul(gpu::MxFormat::E5M2, gpu::MxFormat::E4M3),
       {{3, 70, 45, 96}},
       1e-5},
      // The sm_80 (mma.sync) configurations: the arch does not matter here.
      {"matmul_ptr_fp16_sm80", "seeds/matmul_ptr.tile", "matmul_ptr_kernel",
       "*fp16:16, *fp16:16, *fp16:16, " + mmInts, mmBlocks,
       matmul(MatmulForm::Strided), mmSizes, Fp16Tol},
      {"matmul_ptr_bf16_sm80", "seeds/matmul_ptr.tile", "matmul_ptr_kernel",
       "*bf16:16, *bf16:16, *bf16:16, " + mmInts, mmBlocks,
       matmul(MatmulForm::Strided), mmSizes, Bf16Tol},
      {"attention_fp16",
       "attention.tile",
       "attention_fwd",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      {"flash_attention_fp16",
       "flash_attention.tile",
       "attn_fwd",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=0"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      {"attn_bwd_dkdv_causal",
       "flash_attention_bwd.tile",
       "attn_bwd_dkdv",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, "
       "*fp32:16, *fp32:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=32", "BLOCK_N=64", "CAUSAL=1"},
       [](Case &c) { return attentionBackward(c, /*dq=*/false); },
       {{1, 1}, {2, 100}, {1, 257}},
       1e-2},
      {"attn_bwd_dq_causal",
       "flash_attention_bwd.tile",
       "attn_bwd_dq",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, "
       "*fp32:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=1"},
       [](Case &c) { return attentionBackward(c, /*dq=*/true); },
       {{1, 1}, {2, 100}, {1, 257}},
       1e-2},
      {"attn_bwd_dkdv",
       "flash_attention_bwd.tile",
       "attn_bwd_dkdv",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, "
       "*fp32:16, *fp32:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=32", "BLOCK_N=64", "CAUSAL=0"},
       [](Case &c) { return attentionBackward(c, /*dq=*/false); },
       {{2, 100}},
       1e-2},
      {"attn_bwd_dq",
       "flash_attention_bwd.tile",
       "attn_bwd_dq",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, "
       "*fp32:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=0"},
       [](Case &c) { return attentionBackward(c, /*dq=*/true); },
       {{2, 100}},
       1e-2},
      {"flash_attention_fp16_causal",
       "flash_attention.tile",
       "attn_fwd",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=1"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      {"flash_attention_desc_fp16",
       "flash_attention.tile",
       "attn_fwd_desc",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=0"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      {"flash_attention_desc_fp16_causal",
       "flash_attention.tile",
       "attn_fwd_desc",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=1"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      {"flash_attention_desc_fp16_window",
       "flash_attention.tile",
       "attn_fwd_desc",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=1", "WINDOW=200"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      // attn_fwd's names for its --multi-product-tma builds (the interpreter
      // reads the same kernel).
      {"flash_attention_tma_fp16",
       "flash_attention.tile",
       "attn_fwd",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=0"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      {"flash_attention_tma_fp16_causal",
       "flash_attention.tile",
       "attn_fwd",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, fp32, i32",
       {"HEAD_DIM=64", "BLOCK_M=64", "BLOCK_N=32", "CAUSAL=1"},
       attention,
       {{1, 1}, {2, 100}, {1, 257}},
       2e-3},
      {"math_functions",
       "math_functions.tile",
       "unary_math_kernel",
       "*fp32:16, *fp32:16, i32",
       {"BLOCK=256"},
       mathFunctions,
       {{1}, {300}, {1000}},
       ExactTol},
      {"random_streams",
       "dropout.tile",
       "random_streams_kernel",
       "*i32:16, *fp32:16, *fp32:16, i32, i32",
       {"BLOCK=256"},
       randomStreams,
       {{1}, {1000}},
       1e-6},
      {"seeded_dropout",
       "dropout.tile",
       "seeded_dropout_kernel",
       "*fp32:16, *fp32:16, i32, fp32, i32",
       {"BLOCK=1024"},
       seededDropout,
       {{1}, {3000}},
       1e-6}, // '/' is div.full.f32 on the GPU (as in Triton): 2 ulp.
      {"complex_square",
       "complex_square.tile",
       "complex_square_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32",
       {"BLOCK=256"},
       complexSquare,
       {{1}, {1000}},
       1e-6},
      {"row_scans",
       "scans.tile",
       "row_scans_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32, i32",
       {"BLOCK=1024"},
       rowScans,
       {{1, 1}, {3, 1000}, {5, 513}},
       ExactTol},
      {"linear_recurrence",
       "scans.tile",
       "linear_recurrence_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32, i32",
       {"BLOCK=1024"},
       linearRecurrence,
       {{1, 1}, {3, 1000}, {2, 513}},
       1e-5},
      {"row_scans_b512",
       "scans.tile",
       "row_scans_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32, i32",
       {"BLOCK=512"},
       rowScans,
       {{1, 1}, {3, 500}, {5, 512}},
       ExactTol},
      {"linear_recurrence_b512",
       "scans.tile",
       "linear_recurrence_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32, i32",
       {"BLOCK=512"},
       linearRecurrence,
       {{1, 1}, {3, 500}, {2, 512}},
       1e-5},
      {"flip_rows",
       "flip_cat.tile",
       "flip_rows_kernel",
       "*fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, i32",
       {"BLOCK=256"},
       flipRows,
       {{1, 1}, {3, 200}, {2, 256}},
       ExactTol},
      {"sort_rows",
       "sort.tile",
       "sort_rows_kernel",
       "*fp32:16, *fp32:16, *fp32:16, *i32:16, *i32:16, i32, i32",
       {"BLOCK=256"},
       sortRows,
       {{1, 1}, {3, 200}, {2, 256}},
       ExactTol},
      {"merge_rows",
       "sort.tile",
       "merge_rows_kernel",
       "*fp32:16, *fp32:16, i32, i32",
       {"BLOCK=256"},
       mergeRows,
       {{1, 1}, {3, 200}, {2, 256}},
       ExactTol},
      {"sort_fp8_rows",
       "sort.tile",
       "sort_fp8_rows_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32, i32",
       {"BLOCK=256"},
       sortFp8Rows,
       {{1, 1}, {3, 200}, {2, 256}},
       ExactTol},
      {"map_elementwise",
       "map_elementwise.tile",
       "map_elementwise_kernel",
       "*fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, i32, fp32",
       {"BLOCK=1024"},
       mapElementwise,
       {{1}, {1000}, {2051}},
       1e-6},
      {"strided_axpy",
       "strided.tile",
       "strided_axpy_kernel",
       "*fp32:16, *fp32:16, *fp32:16, (i32, i32), (i32, i32), (i32, i32), "
       "(i32, i32), fp32",
       {"BLOCK_M=32", "BLOCK_N=64"},
       stridedAxpy,
       {{1, 1}, {33, 70}, {64, 128}},
       ExactTol},
      {"mask_compare",
       "mask_compare.tile",
       "mask_compare_kernel",
       "*fp32:16, *fp32:16, i32:16, i32:16, i32:16",
       {"BLOCK=1024"},
       maskCompare,
       {{16}, {1008}, {4000}},
       1e-6},
      {"gather_rows",
       "gather_histogram.tile",
       "gather_rows_kernel",
       "*fp32:16, *i32:16, *fp32:16, i32",
       {"BLOCK_M=32", "N=64", "K=32"},
       gatherRows,
       {{1}, {33}, {70}},
       ExactTol},
      {"row_histogram",
       "gather_histogram.tile",
       "row_histogram_kernel",
       "*fp32:16, *i32:16, i32, i32",
       {"BLOCK=1024", "NUM_BINS=64"},
       rowHistogram,
       {{1, 1}, {3, 200}, {2, 1024}},
       ExactTol},
      {"row_combines",
       "scans.tile",
       "row_combines_kernel",
       "*fp32:16, *fp32:16, *i32:16, *i32:16, *i32:16, i32, i32, i32",
       {"ROWS=4", "BLOCK=256"},
       rowCombines,
       {{1, 1}, {7, 200}, {9, 256}},
       ExactTol},
      {"cross_entropy",
       "cross_entropy.tile",
       "cross_entropy_kernel",
       "*fp32:16, *fp32:16, *i32:16, *fp32:16, i32, i32, i32",
       {"BLOCK=1024"},
       crossEntropy,
       {{1, 1}, {4, 1000}, {3, 2500}},
       ExactTol},
      {"swiglu_bf16",
       "swiglu.tile",
       "glu_fwd_kernel",
       "*bf16:16, *bf16:16, *bf16:16, i32, i32",
       {"ACTIVATION=silu", "BLOCK_SIZE=8192"},
       glu,
       {{1, 1}, {3, 1000}, {2, 5000}},
       Bf16Tol},
      {"geglu_bf16",
       "swiglu.tile",
       "glu_fwd_kernel",
       "*bf16:16, *bf16:16, *bf16:16, i32, i32",
       {"ACTIVATION=gelu_tanh", "BLOCK_SIZE=8192"},
       glu,
       {{1, 1}, {3, 1000}, {2, 5000}},
       Bf16Tol},
      {"grouped_sum",
       "grouped_sum.tile",
       "grouped_row_sum_kernel",
       "*fp32:16, *fp32:16, *i32:16, *i32:16, i32, i32",
       {"GROUP=8", "BLOCK_N=1024"},
       groupedSum,
       {{1, 1}, {5, 300}, {21, 1000}},
       ExactTol},
      {"hash_buckets",
       "hashing.tile",
       "hash_buckets_kernel",
       "*u32:16, *i32:16, *fp32:16, i32, i32, i64",
       {"BLOCK=1024"},
       hashBuckets,
       {{1}, {1000}, {2049}},
       ExactTol},
      {"batched_matmul",
       "batched_matmul.tile",
       "batched_matmul_kernel",
       "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32, i32, i32, i32, i32, "
       "i32, i32, i32, i32, i32, i32",
       {"BLOCK_B=2", "BLOCK_M=32", "BLOCK_N=32", "BLOCK_K=32"},
       batchedMatmul,
       {{1, 1, 1, 1}, {3, 40, 70, 45}, {6, 33, 20, 77}},
       ExactTol},
      {"batched_matmul_desc",
       "batched_matmul.tile",
       "batched_matmul_desc_kernel",
       "*fp16:16, *fp16:16, *fp32:16, i32, i32, i32, i32, i32:16, i32:16, "
       "i32:1, i32:16, i32:16, i32:1, i32:16, i32:16, i32:1",
       {"BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=32"},
       batchedMatmul,
       {{2, 40, 70, 45}, {4, 33, 20, 77}},
       ExactTol},
      {"batched_attention",
       "batched_attention.tile",
       "batched_attention_kernel",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, fp32, i32:16, "
       "i32:16",
       {"BLOCK_B=2", "BLOCK_M=32", "BLOCK_N=32", "HEAD_DIM=32"},
       batchedAttention,
       {{1, 1}, {3, 50}, {5, 97}},
       2e-3},
      {"batched_attention_wg",
       "batched_attention.tile",
       "batched_attention_kernel",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, i32, i32, fp32, i32:16, "
       "i32:16",
       {"BLOCK_B=2", "BLOCK_M=64", "BLOCK_N=64", "HEAD_DIM=64"},
       batchedAttention,
       {{1, 1}, {3, 130}},
       2e-3},
  };
}

/// "100x130x77".
std::string sizeString(ArrayRef<uint64_t> size) {
  std::string text;
  for (uint64_t d : size)
    text += (text.empty() ? "" : "x") + std::to_string(d);
  return text;
}

/// Appends the case to DIR/cases.txt and writes its buffers.
bool save(StringRef dir, const Case &c, raw_ostream &cases) {
  std::string id = c.config.name + "." + sizeString(c.size);
  cases << id << " " << c.config.name << " " << c.config.kernel << " "
        << c.grid[0] << " " << c.grid[1] << " " << c.grid[2] << " "
        << c.config.tol << " " << c.refFloor << " " << c.args.size();
  std::vector<abi::ArgType> types = launchTypes(c.config);
  size_t buffer = 0;
  for (auto [i, arg] : llvm::enumerate(c.args)) {
    StringRef type = abi::scalarTypeName(types[i].Elem);
    if (!arg.buffer) {
      cases << " " << type << "=";
      if (arg.isFloat)
        cases << format("%.17g", arg.floatValue);
      else
        cases << arg.intValue;
      continue;
    }
    cases << " " << type;
    auto write = [&](StringRef suffix, const std::vector<uint8_t> &bytes) {
      std::error_code ec;
      raw_fd_ostream file((dir + "/" + id + "." + Twine(i) + suffix).str(), ec);
      file.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
      return !ec;
    };
    if (!write(".in", c.initial[buffer]) ||
        !write(".out", arg.buffer->getBytes()))
      return false;
    ++buffer;
  }
  cases << "\n";
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> only;
  std::string saveDir;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--only" && i + 1 < argc) {
      SmallVector<StringRef> names;
      StringRef(argv[++i]).split(names, ',');
      for (StringRef name : names)
        only.push_back(name.str());
    } else if (arg == "--save" && i + 1 < argc) {
      saveDir = argv[++i];
    } else if (arg == "--list") {
      list = true;
    } else {
      errs() << "usage: tilec-interpreter-examples [--only NAME,...] "
                "[--save DIR] [--list]\n";
      return 2;
    }
  }

  std::vector<Config> configs = configurations();
  if (list) {
    for (const Config &config : configs)
      outs() << config.name << "\n";
    return 0;
  }
  std::unique_ptr<raw_fd_ostream> cases;
  if (!saveDir.empty()) {
    std::error_code ec = sys::fs::create_directories(saveDir);
    if (!ec)
      cases = std::make_unique<raw_fd_ostream>(saveDir + "/cases.txt", ec);
    if (ec) {
      errs() << "cannot write to '" << saveDir << "': " << ec.message() << "\n";
      return 1;
    }
  }

  unsigned numPassed = 0, numFailed = 0, seed = 1;
  for (const Config &config : configs) {
    if (!only.empty() && !llvm::is_contained(only, config.name))
      continue;
    std::string path = TILEC_EXAMPLES_DIR "/" + config.source;
    auto file = MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!file) {
      errs() << "cannot open '" << path << "'\n";
      return 1;
    }
    SourceMgr srcMgr;
    srcMgr.AddNewSourceBuffer(std::move(*file), SMLoc());
    KernelConfig kernelConfig;
    kernelConfig.name = config.kernel;
    kernelConfig.signature =
        abi::parseSignatureEntries(config.signature).take();
    // The examples ask for tf32 on purpose.
    kernelConfig.warnImplicitTf32 = false;
    // The seeds use block pointers on purpose.
    kernelConfig.blockPtrPolicy = BlockPtrPolicy::Allow;
    for (StringRef define : config.defines) {
      auto [name, value] = define.split('=');
      kernelConfig.defines[name] = value.str();
    }
    std::unique_ptr<Kernel> kernel =
        Kernel::create(srcMgr, kernelConfig, errs());
    for (const std::vector<uint64_t> &size : config.sizes) {
      Case c(config, size, seed++);
      std::function<void()> check = config.setup(c);
      for (const auto &buffer : c.buffers)
        c.initial.push_back(buffer->getBytes());
      if (!kernel || failed(kernel->run(c.grid, c.args)))
        c.failure = "the interpreter failed (see above)";
      else
        check();
      if (c.failure.empty() && cases && !save(saveDir, c, *cases))
        c.failure = "cannot write the case to '" + saveDir + "'";
      outs() << formatv("| {0,-28} | {1,-11} | {2,-8} | {3}\n", config.name,
                        sizeString(size),
                        formatv("{0}x{1}x{2}", c.grid[0], c.grid[1], c.grid[2]),
                        c.failure.empty() ? "PASS" : "FAIL " + c.failure);
      ++(c.failure.empty() ? numPassed : numFailed);
    }
  }
  outs() << "tilec-interpreter-examples: " << numPassed << " passed, "
         << numFailed << " failed\n";
  return numFailed ? 1 : 0;
}
