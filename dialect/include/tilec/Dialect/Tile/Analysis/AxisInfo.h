//===- AxisInfo.h - Contiguity and alignment of tile values -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// AxisInfo says, per dimension of an integer or pointer tile, how many
// consecutive elements are consecutive values (contiguity), how many are equal
// (constancy), and the largest power of two dividing the first element of each
// such run (divisibility; bytes for pointers). Memory accesses use it to pick
// vector widths: `ptr + offs` with 16-byte-aligned `ptr` and
// `offs = pid * 1024 + arange(0, 1024)` may use 16-byte accesses.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_ANALYSIS_AXISINFO_H
#define TILEC_DIALECT_TILE_ANALYSIS_AXISINFO_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::scf {
class ForOp;
} // namespace mlir::scf

namespace tilec::tile {

/// What is known about the values of one integer or pointer tile (or scalar,
/// treated as a 1-element tile of rank 1).
struct AxisInfo {
  llvm::SmallVector<int64_t> contiguity;
  llvm::SmallVector<int64_t> divisibility;
  llvm::SmallVector<int64_t> constancy;
  /// The value, when every element is the same known integer.
  std::optional<int64_t> constant;

  /// Nothing known about a value of `rank` dimensions.
  static AxisInfo unknown(unsigned rank);
  unsigned getRank() const { return contiguity.size(); }
  void print(llvm::raw_ostream &os) const;
};

/// Computes AxisInfo on demand for values of one function, memoizing results.
/// Function arguments take their divisibility from the `tile.divisibility`
/// argument attribute (set from `:16` hints of the kernel signature); values
/// carried by scf.for loops get the fixpoint of their initial and yielded
/// values; other block arguments are treated as unknown. Where the op of a
/// value holds the user's hints (`tile.hint_*`: tl.multiple_of,
/// tl.max_contiguous, tl.max_constancy), each fact is the larger of the
/// hint's and what the analysis proves.
class AxisInfoAnalysis {
public:
  const AxisInfo &get(mlir::Value value);

  /// The widest vector, in elements, that a load or store through `ptr`
  /// (optionally under `mask`) may use along dimension `dim`, at most
  /// `maxElems`.
  int64_t getVectorWidth(mlir::Value ptr, mlir::Value mask, unsigned dim,
                         int64_t maxElems);

private:
  AxisInfo compute(mlir::Value value);
  AxisInfo computeUnhinted(mlir::Value value);
  AxisInfo computeLoopArgument(mlir::scf::ForOp loop, mlir::BlockArgument arg);
  llvm::DenseMap<mlir::Value, AxisInfo> cache;
};

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_ANALYSIS_AXISINFO_H
