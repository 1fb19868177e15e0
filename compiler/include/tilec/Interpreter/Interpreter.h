//===- Interpreter.h - Run tile IR on the CPU -------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Runs a kernel's front-end tile IR (what `tilec --emit=tile` prints, the IR
// the GPU lowering starts from) on the CPU, over a grid of programs, with
// the semantics the GPU code must have. Every memory access is checked
// against the buffers handed to the kernel: a masked-in load, store or
// atomic outside them is an error naming the kernel, the program, the
// element of the tile and the buffer, at the op's source line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_INTERPRETER_INTERPRETER_H
#define TILEC_INTERPRETER_INTERPRETER_H

#include "tilec/MLIRGen/MLIRGen.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace tilec {
namespace interp {

/// The element types of buffers and scalar arguments: the kernel ABI's
/// dtypes (abi::lookupScalarType reads their names).
using abi::ScalarType;

/// Memory handed to a kernel; a pointer argument points at its first byte.
class Buffer {
public:
  /// The largest buffer the interpreter runs kernels on, in bytes (16 GiB):
  /// callers check sizes against it before building one.
  static constexpr uint64_t kMaxBytes = uint64_t(1) << 34;
  /// Whether `count` elements of `type` fit in kMaxBytes.
  static bool fits(ScalarType type, uint64_t count) {
    return count <= kMaxBytes / abi::scalarTypeSize(type);
  }

  Buffer(ScalarType type, size_t count)
      : type(type), bytes(count * abi::scalarTypeSize(type)) {}

  ScalarType getType() const { return type; }
  size_t size() const { return bytes.size() / abi::scalarTypeSize(type); }
  std::vector<uint8_t> &getBytes() { return bytes; }
  const std::vector<uint8_t> &getBytes() const { return bytes; }

  /// Element `i` as a number (a float, or an integer converted exactly for
  /// the widths up to 53 bits), and its encoding from a number (rounded to
  /// nearest even for floats, truncated for integers).
  double get(size_t i) const;
  void set(size_t i, double value);

private:
  ScalarType type;
  std::vector<uint8_t> bytes;
};

/// One argument of a launch: a buffer, an integer or a float; scalars are
/// converted to the parameter's type.
struct Argument {
  static Argument ofBuffer(Buffer &buffer) { return {&buffer, false, 0, 0}; }
  static Argument ofInt(int64_t value) { return {nullptr, false, value, 0}; }
  static Argument ofFloat(double value) { return {nullptr, true, 0, value}; }

  Buffer *buffer;
  bool isFloat;
  int64_t intValue;
  double floatValue;
};

/// A kernel compiled to tile IR, ready to run.
class Kernel {
public:
  /// Parses the main buffer of `srcMgr` and generates the kernel `config`
  /// selects. Diagnostics (at compilation and at run time) are printed to
  /// `diagnostics` as `file:line:col: error: ...` with the source line and
  /// a caret; both must outlive the kernel. Returns null after an error.
  static std::unique_ptr<Kernel> create(llvm::SourceMgr &srcMgr,
                                        const KernelConfig &config,
                                        llvm::raw_ostream &diagnostics);
  ~Kernel();

  /// The kernel's name, signature and argument names.
  const KernelInfo &getInfo() const;

  /// Runs programs (0, 0, 0) to grid - 1, x fastest, one after the other,
  /// on `args` (one per signature entry). Buffers are read and written in
  /// place. Reports the first error (a bad argument, an out-of-bounds
  /// access, an integer division by zero) and returns failure.
  mlir::LogicalResult run(std::array<unsigned, 3> grid,
                          llvm::ArrayRef<Argument> args);

private:
  struct Impl;
  explicit Kernel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace interp
} // namespace tilec

#endif // TILEC_INTERPRETER_INTERPRETER_H
