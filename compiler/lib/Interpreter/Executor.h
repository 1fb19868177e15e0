//===- Executor.h - Runs one kernel's tile IR -------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The interpreter's internals: the run-time values (tiles of elements), the
// scalar semantics of the element types (rounding, memory encoding), and the
// executor that evaluates the ops of one program. Each op family is
// evaluated in its own file: Executor.cpp (control flow), ArithOps.cpp
// (arith and math), ValueOps.cpp (construction, shapes, reductions, scans),
// MemoryOps.cpp (pointers, loads, stores, atomics) and DotOp.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_EXECUTOR_H
#define TILEC_LIB_INTERPRETER_EXECUTOR_H

#include "tilec/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {
namespace interp {

/// One element of a run-time value; which fields mean something depends on
/// the element type.
/// Pointers converted to integers (tile.ptr_to_int) hold the index of their
/// buffer + 1 above this bit and the byte offset below it.
constexpr unsigned kAddressBufferShift = 40;

struct Element {
  /// An integer, sign-extended from its width (an i1 is 0 or 1), or a
  /// pointer's byte offset from the start of its buffer.
  int64_t i = 0;
  /// A float, exactly representable in its type.
  double f = 0.0;
  /// A pointer's buffer: the index of the kernel argument it came from.
  int32_t buffer = -1;
};

/// A run-time value: a tile (row-major elements) or a scalar (no shape, one
/// element).
struct Tile {
  llvm::SmallVector<int64_t, 2> shape;
  std::vector<Element> elems;
};

//===----------------------------------------------------------------------===//
// Scalar semantics (Scalars.cpp)
//===----------------------------------------------------------------------===//

/// `v` reduced to `width` bits, sign-extended (an i1 is 0 or 1).
int64_t wrapInt(uint64_t v, unsigned width);
/// An integer of `width` bits read as signed, and as unsigned.
int64_t asSigned(int64_t v, unsigned width);
uint64_t asUnsigned(int64_t v, unsigned width);

/// `v` rounded to the float format `sem`; out-of-range values become
/// infinities, or the largest finite value with `saturate` (and in formats
/// without infinities).
double
roundFloat(const llvm::fltSemantics &sem, double v,
           llvm::RoundingMode mode = llvm::RoundingMode::NearestTiesToEven,
           bool saturate = false);
/// `v` rounded to tf32 (10 mantissa bits) to nearest, ties away from zero,
/// as PTX's cvt.rna.tf32.f32 does.
double roundTF32(double v);

/// Bytes an element of `type` takes in memory (an i1 takes a byte).
unsigned getMemoryBytes(mlir::Type type);
/// Reads and writes one element in little-endian memory: an integer of
/// `width` bits (an i1 is a byte), a float of format `sem` (stores round to
/// nearest even), an element of `type`.
int64_t loadInt(unsigned width, const uint8_t *bytes);
void storeInt(unsigned width, int64_t value, uint8_t *bytes);
double loadFloat(const llvm::fltSemantics &sem, const uint8_t *bytes);
void storeFloat(const llvm::fltSemantics &sem, double value, uint8_t *bytes);
Element load(mlir::Type type, const uint8_t *bytes);
void store(mlir::Type type, const Element &value, uint8_t *bytes);

/// The number as a double (an i1 is 0 or 1, wider integers are signed).
double toDouble(mlir::Type type, const Element &value);

//===----------------------------------------------------------------------===//
// The executor
//===----------------------------------------------------------------------===//

/// What the executor needs to know about the launch.
struct Launch {
  llvm::StringRef kernelName;
  llvm::ArrayRef<std::string> argNames;
  /// The buffer of each argument (null for scalars).
  llvm::ArrayRef<Buffer *> buffers;
  std::array<unsigned, 3> grid;
};

/// Evaluates the ops of a kernel for one program at a time.
class Executor {
public:
  /// Runs `body`, the entry block of the kernel's function.
  Executor(mlir::Block &body, const Launch &launch)
      : body(body), launch(launch) {}

  /// Runs program `pid` on the kernel's arguments (one tile per argument).
  mlir::LogicalResult runProgram(std::array<unsigned, 3> pid,
                                 llvm::ArrayRef<Tile> args);

  /// An error at `op` that names the kernel and the program; `element`
  /// (an index into `shape`'s row-major elements) adds the element's
  /// coordinates.
  mlir::InFlightDiagnostic error(mlir::Operation *op, llvm::StringRef what);
  mlir::InFlightDiagnostic error(mlir::Operation *op, llvm::StringRef what,
                                 llvm::ArrayRef<int64_t> shape, size_t element);

  const Tile &get(mlir::Value value) const;
  void set(mlir::Value value, Tile tile) { values[value] = std::move(tile); }

  const Launch &getLaunch() const { return launch; }
  std::array<unsigned, 3> getProgramId() const { return pid; }

private:
  /// Runs the ops of `block` with its arguments bound to `args`; the
  /// operands of its terminator go to `results`.
  mlir::LogicalResult runBlock(mlir::Block &block, llvm::ArrayRef<Tile> args,
                               llvm::SmallVectorImpl<Tile> &results);
  mlir::LogicalResult run(mlir::Operation *op);
  mlir::LogicalResult runFor(mlir::Operation *op);
  mlir::LogicalResult runIf(mlir::Operation *op);
  mlir::LogicalResult runWhile(mlir::Operation *op);

  // Op families, each in its own file; they report unsupported ops.
  mlir::LogicalResult runArith(mlir::Operation *op);
  mlir::LogicalResult runMath(mlir::Operation *op);
  mlir::LogicalResult runTileOp(mlir::Operation *op);
  mlir::LogicalResult runMemoryOp(mlir::Operation *op);
  mlir::LogicalResult runDot(mlir::Operation *op);
  mlir::LogicalResult runExternElementwise(mlir::Operation *op);
  mlir::LogicalResult runDebugOp(mlir::Operation *op);
  /// tile.combine_reduce and tile.combine_scan: the combine region runs on
  /// scalars, folding each row in order along the axis.
  mlir::LogicalResult runCombine(mlir::Operation *op);
  /// tile.map_elementwise: the body runs on each group of `pack`
  /// consecutive (row-major) elements.
  mlir::LogicalResult runMapElementwise(mlir::Operation *op);

  mlir::Block &body;
  const Launch &launch;
  std::array<unsigned, 3> pid = {0, 0, 0};
  llvm::DenseMap<mlir::Value, Tile> values;
};

/// The shape of a tile type; empty for scalars.
llvm::SmallVector<int64_t, 2> getShape(mlir::Type type);
/// The element type of a tile type, or the type of a scalar.
mlir::Type getElementType(mlir::Type type);
/// "[3, 5]": the coordinates of row-major element `index` of `shape`.
std::string formatIndex(llvm::ArrayRef<int64_t> shape, size_t index);

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_EXECUTOR_H
