//===- TestUtil.h - The harness of tilec-gpu-tests --------------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// What every test of tilec-gpu-tests is made of: the registry entry (a PTX
// file, a kernel, the configuration it was compiled with, sizes and a run
// function), what one (test, size) case reports, host tensors rounded to a
// kernel's element type, device buffers that are re-uploaded or poisoned
// before every launch, the timed launch, and the check of an output against
// a float64 reference with a tolerance (a relative error over the whole
// output and a bound on every element; NaN never passes).
//
// Each family of tests lives in its own file (GpuTests.cpp, SoftmaxTests.cpp,
// LayerNormTests.cpp, MatmulTests.cpp, AttentionTests.cpp) and appends its
// entries to the registry with an add*Tests function declared here.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_GPU_TESTUTIL_H
#define TILEC_TEST_GPU_TESTUTIL_H

#include "HostData.h"

#include "tilec/Runtime/Runtime.h"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace tilec {
namespace gpu {

/// Ceiling division.
constexpr std::uint64_t cdiv(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}

/// The size of one case: up to four dimensions (their meaning is the test's)
/// and at most one variant flag. Write {100, 130, 77} or, with a flag,
/// {{100, 130, 77}, Shape::Flag::Padded}; the flag is a scoped enum so that
/// it cannot be taken for a dimension.
struct Shape {
  enum class Flag : unsigned {
    None = 0,
    /// Matrices have padded rows: each row stride exceeds the row length,
    /// and the padding holds NaN (inputs) or poison (outputs).
    Padded = 1u << 0,
    /// B is given transposed: B^T is stored row-major ([N, K]).
    TransB = 1u << 1,
  };

  Shape(std::initializer_list<std::uint64_t> dims, Flag flag = Flag::None)
      : Dims(dims), Variant(flag) {}

  std::uint64_t operator[](std::size_t i) const {
    return i < Dims.size() ? Dims[i] : 1;
  }
  bool has(Flag flag) const { return Variant == flag; }
  /// The product of the dimensions (what --max-size compares).
  std::uint64_t count() const;
  /// "100x130x77", followed by " pad" or " bT" for the flag.
  std::string str() const;

  std::vector<std::uint64_t> Dims;
  Flag Variant = Flag::None;
};

/// When an output is close enough to its float64 reference.
struct Tolerance {
  /// Bound on ||out - ref|| / ||ref|| (2-norms over the whole output); 0
  /// means the output must be exact.
  double Rel = 0.0;
  /// Bound on every element: |out - ref| <= Elem * (|ref| + rms(ref)). It
  /// catches a few wrong elements that the norm would average away.
  double Elem = 0.0;
  /// A floor under rms(ref) in both bounds: an output that cancels to far
  /// below the size of the terms that were rounded (a matmul of a few
  /// elements) is judged by the size of those terms instead.
  double RefFloor = 0.0;

  static Tolerance exact() { return Tolerance(); }
  /// A relative bound, with 10 times that bound on each element.
  static Tolerance relative(double rel) {
    return Tolerance{rel, 10.0 * rel, 0.0};
  }
  /// "exact" or the relative bound, e.g. "2e-03".
  std::string str() const;
};

/// How a test's PTX was compiled and how its kernel is launched. Fields a
/// kernel does not have stay 0.
struct TestConfig {
  /// Element type of the inputs and of the (main) output.
  ElemType In = ElemType::F32;
  ElemType Out = ElemType::F32;
  /// num_warps the PTX was compiled with; checked against its metadata.
  unsigned NumWarps = 4;
  /// The constexpr parameters the PTX was compiled with.
  unsigned Block = 0;
  unsigned BlockM = 0, BlockN = 0, BlockK = 0;
  unsigned GroupM = 0;
  unsigned NIters = 0;
  unsigned HeadDim = 0;
  /// Attention: query i attends to keys j <= i only.
  bool Causal = false;
  /// Attention (causal): and to its last Window keys only (0: all).
  unsigned Window = 0;
  /// Softmax: launch min(n_rows, #SMs * occupancy) programs that loop over
  /// the rows (Triton's persistent form) instead of one program per row.
  bool Persistent = false;
  Tolerance Tol;
};

/// What one (test, size) case produced.
struct CaseResult {
  bool Passed = false;
  /// The launch grid, e.g. "64x8".
  std::string Grid = "-";
  /// Output elements outside the per-element bound (NaN included) and
  /// padding elements the kernel overwrote.
  std::uint64_t Mismatches = 0;
  /// The largest relative error over the case's outputs; NaN when an
  /// output holds a NaN.
  double RelError = std::nan("");
  /// Kernel time from CUDA events, in milliseconds (0 if not measured).
  double KernelMs = 0.0;
  /// DRAM bytes the kernel must move (for a GB/s column) or floating-point
  /// operations it performs (for GFLOP/s); 0 when not meaningful.
  double Bytes = 0.0;
  double Flops = 0.0;
  /// Bytes past the end of the outputs that the kernel overwrote (each
  /// output is followed by a poisoned guard region); any fails the case.
  std::uint64_t Overruns = 0;
  /// Why the case failed, or extra detail.
  std::string Note;
};

/// Shared by all cases of a run.
struct TestEnv {
  rt::Context &Ctx;
  std::uint32_t Seed;
  /// Distinguishes the random streams of successive inputs.
  std::uint32_t NextStream = 0;
};

struct GpuTest;
using RunFn = CaseResult (*)(TestEnv &env, const GpuTest &test,
                             const rt::Kernel &kernel, const Shape &shape);

/// One registry entry: a kernel of one PTX file and the sizes to run it on.
struct GpuTest {
  std::string Name;
  std::string PtxFile;
  std::string KernelName;
  std::vector<Shape> Sizes;
  RunFn Run;
  TestConfig Config;
};

/// The families of tests; each appends its entries.
void addVectorAddTests(std::vector<GpuTest> &tests);
void addSoftmaxTests(std::vector<GpuTest> &tests);
void addLayerNormTests(std::vector<GpuTest> &tests);
void addMatmulTests(std::vector<GpuTest> &tests);
void addAttentionTests(std::vector<GpuTest> &tests);
void addElementwiseTests(std::vector<GpuTest> &tests);

/// A failed case whose note is \p status's message.
CaseResult failed(const rt::Status &status, CaseResult result = CaseResult());
/// A failed case for a size the test cannot run (a registry mistake).
CaseResult badSize(const GpuTest &test, const Shape &shape,
                   const std::string &why);
/// Formats a number for the table and notes ("NaN" for any NaN).
std::string formatValue(double value, const char *format);
/// "X", "XxY" or "XxYxZ".
std::string gridString(const rt::Dim3 &grid);

/// A host copy of a kernel's rows x cols tensor with row stride Ld >= Cols:
/// the values rounded to the element type (what the reference reads) and
/// their encoding (what is uploaded). Row padding is NaN in both, so a
/// kernel that reads it poisons its result.
struct HostMatrix {
  ElemType Type = ElemType::F32;
  std::uint64_t Rows = 0, Cols = 0, Ld = 0;
  std::vector<float> Values;
  std::vector<std::uint8_t> Bytes;

  /// Values uniform in [-1, 1), from the next random stream of \p env.
  static HostMatrix random(TestEnv &env, ElemType type, std::uint64_t rows,
                           std::uint64_t cols, std::uint64_t ld = 0);
  float at(std::uint64_t r, std::uint64_t c) const {
    return Values[r * Ld + c];
  }
};

/// Device buffers of one case: inputs are uploaded and outputs poisoned
/// (every byte 0xFF, a NaN in fp32, fp16 and bf16) before every launch.
/// Each output is followed by a poisoned guard region (as large as the
/// output, at most 4 MiB, plus 256 bytes), so that stores past the last row
/// (a lost row mask) are seen even where they would not fault.
class CaseBuffers {
public:
  explicit CaseBuffers(rt::Context &ctx) : Ctx(ctx) {}

  /// A buffer that holds a copy of \p bytes bytes at \p data (which must
  /// outlive this) before every launch.
  rt::DeviceBuffer &input(const void *data, std::size_t bytes);
  rt::DeviceBuffer &input(const std::vector<std::uint8_t> &bytes) {
    return input(bytes.data(), bytes.size());
  }
  rt::DeviceBuffer &input(const HostMatrix &matrix) {
    return input(matrix.Bytes);
  }
  /// A buffer of \p bytes that is poisoned before every launch.
  rt::DeviceBuffer &output(std::size_t bytes);
  /// The first allocation failure, or success.
  const rt::Status &status() const { return Error; }
  /// Uploads the inputs and poisons the outputs and their guards.
  rt::Status reset();
  /// Counts the guard bytes of all outputs that are no longer poisoned.
  rt::Status countOverruns(std::uint64_t &overruns) const;

private:
  struct Entry {
    rt::DeviceBuffer Buffer;
    const void *Data = nullptr; // Null: an output.
    std::size_t Bytes = 0;
    std::size_t GuardBytes = 0;
  };
  rt::DeviceBuffer &add(std::size_t bytes, const void *data);

  rt::Context &Ctx;
  std::vector<std::unique_ptr<Entry>> Entries;
  rt::Status Error;
};

/// Resets \p buffers and launches once (a warm-up: the first launch of a
/// function pays for loading it), then resets them again and launches once
/// more between two CUDA events, whose time goes to result.KernelMs. The
/// buffers keep what the timed launch wrote; overwritten guard bytes go to
/// result.Overruns (with a note).
rt::Status launchTimed(TestEnv &env, const rt::Kernel &kernel, rt::Dim3 grid,
                       const std::vector<rt::KernelArg> &args,
                       CaseBuffers &buffers, CaseResult &result);

/// Copies a rows x cols output of \p type with row stride \p ld back from
/// \p buffer into \p values (dense, rows x cols); \p clobbered counts the
/// padding elements that no longer hold the poison.
rt::Status readMatrix(const rt::DeviceBuffer &buffer, ElemType type,
                      std::uint64_t rows, std::uint64_t cols, std::uint64_t ld,
                      std::vector<float> &values, std::uint64_t &clobbered);

/// The comparison of an output with its float64 reference.
struct Check {
  /// Elements outside the per-element bound, NaN and infinities included.
  std::uint64_t Mismatches = 0;
  /// The first few of them, in order.
  std::vector<std::uint64_t> First;
  /// ||out - ref|| / ||ref|| (||out - ref|| when the reference is all zero);
  /// NaN if an output is NaN.
  double RelError = std::nan("");
};

/// Compares out[0, n) with ref[0, n) under \p tol.
Check compareToReference(const float *out, const double *ref, std::uint64_t n,
                         const Tolerance &tol, unsigned keepFirst = 4);

/// Adds the check of output \p what to \p result: mismatches add up, the
/// relative error is the largest so far (NaN wins), and the first
/// mismatches are described in the note, as what[row, col] when \p cols is
/// not 0. Returns whether this output passed (no mismatch and a relative
/// error within the tolerance).
bool recordCheck(CaseResult &result, const char *what, const Check &check,
                 const float *out, const double *ref, std::uint64_t cols,
                 const Tolerance &tol);

/// Compares \p out with \p ref under \p tol and records the check.
inline bool checkOutput(CaseResult &result, const char *what,
                        const std::vector<float> &out,
                        const std::vector<double> &ref, std::uint64_t cols,
                        const Tolerance &tol) {
  Check check = compareToReference(out.data(), ref.data(), out.size(), tol);
  return recordCheck(result, what, check, out.data(), ref.data(), cols, tol);
}

/// Records \p clobbered overwritten padding elements of output \p what.
bool recordClobbered(CaseResult &result, const char *what,
                     std::uint64_t clobbered);

} // namespace gpu
} // namespace tilec

#endif // TILEC_TEST_GPU_TESTUTIL_H
