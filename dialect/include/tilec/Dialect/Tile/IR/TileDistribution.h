//===- TileDistribution.h - Layouts tabulated for a shape -------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// A layout applied to one tile shape, tabulated so that code generation can
// reason about it at compile time. Every layout tilec has today (blocked, and
// slices of it) is linear over GF(2) on power-of-two shapes: the element held
// by register `r` of lane `l` of warp `w` has coordinates
//
//   coords(r, l, w) = regs[r] ^ lanes(l) ^ warps(w)
//
// (per dimension, `^` is the bitwise xor of the coordinate), where `lanes(l)`
// is the xor of the bases of the bits set in `l`, and likewise for warps. A
// basis of zero means threads (or registers) that differ in that bit hold
// copies of the same elements. Reductions, scans, layout conversions and
// register remappings are all derived from these bases.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEDISTRIBUTION_H
#define TILEC_DIALECT_TILE_IR_TILEDISTRIBUTION_H

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tilec::tile {

/// Coordinates of one element of a tile, one entry per dimension.
using Coords = llvm::SmallVector<int64_t, 4>;

/// How the bit of a register, lane or warp index moves coordinates with
/// respect to one dimension `axis`.
enum class BitKind {
  Duplicate, ///< moves nothing: the two sides hold the same elements
  Axis,      ///< moves only along `axis`
  Other,     ///< moves only along other dimensions
  Mixed,     ///< moves along `axis` and along others
};

/// The span over GF(2) of the bit vectors added to it (a layout's bases as
/// row-major indices): its rank is how many coordinate bits they reach.
class BitSpan {
public:
  /// Adds `vector`; returns whether it was outside the span so far.
  bool add(uint64_t vector);
  unsigned getRank() const { return rank; }

private:
  /// The vector of the span whose highest set bit is `k`, or 0.
  uint64_t leading[64] = {};
  unsigned rank = 0;
};

/// A layout tabulated for one shape (see the file comment).
class TileDistribution {
public:
  /// Tabulates `layout` for tiles of `shape`. Returns std::nullopt when a
  /// dimension is not a power of two, when the layout is not linear, or when
  /// it does not cover every element of the shape.
  static std::optional<TileDistribution> get(LayoutAttrInterface layout,
                                             llvm::ArrayRef<int64_t> shape);
  /// Same for a tensor type carrying a layout (std::nullopt without one).
  static std::optional<TileDistribution> get(mlir::Type type);

  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  unsigned getRank() const { return shape.size(); }
  int64_t getNumElements() const;
  int64_t getNumRegisters() const { return regs.size(); }
  int64_t getNumWarps() const { return int64_t(1) << warpBases.size(); }
  unsigned getNumRegisterBits() const { return regBits; }
  static constexpr unsigned getNumLaneBits() { return 5; }
  unsigned getNumWarpBits() const { return warpBases.size(); }

  /// Coordinates held by register `reg` of lane 0 of warp 0.
  const Coords &getRegisterCoords(int64_t reg) const { return regs[reg]; }
  /// Coordinate change of flipping bit `bit` of the register index.
  const Coords &getRegisterBasis(unsigned bit) const {
    return regs[int64_t(1) << bit];
  }
  /// Coordinate change of flipping bit `bit` of the lane index.
  const Coords &getLaneBasis(unsigned bit) const { return laneBases[bit]; }
  /// Coordinate change of flipping bit `bit` of the warp index.
  const Coords &getWarpBasis(unsigned bit) const { return warpBases[bit]; }

  /// Coordinates of register `reg` of lane `lane` of warp `warp`.
  Coords getCoordinates(int64_t reg, int64_t lane, int64_t warp) const;

  /// Lane (warp) bits whose basis is zero: the threads differing in them hold
  /// the same elements.
  unsigned getDuplicateLaneMask() const;
  unsigned getDuplicateWarpMask() const;
  /// Whether register `reg` holds the same element as a lower register of the
  /// same thread.
  bool isDuplicateRegister(int64_t reg) const;
  /// Whether some element is held by more than one register or thread.
  bool hasDuplicates() const;

  /// The registers one vector access of a thread moves along dimension
  /// `dim`: `offsets[j]` is the register (added to the vector's first one)
  /// holding element j, from register bits stepping `dim` by 1, 2, 4, ...
  /// (whatever their order), at most `maxElems` (a power of two) elements;
  /// every other register, lane and warp step along `dim` is a multiple of
  /// the vector's length, so vectors start at multiples of it. `bits` is
  /// the mask of those register bits (a vector starts at each register
  /// without them).
  struct RegisterVectors {
    llvm::SmallVector<int64_t> offsets;
    int64_t bits = 0;
  };
  RegisterVectors getRegisterVectors(unsigned dim, int64_t maxElems) const;

  /// Row-major index of `coords` in the shape.
  int64_t getLinearIndex(llvm::ArrayRef<int64_t> coords) const;

private:
  llvm::SmallVector<int64_t> shape;
  unsigned regBits = 0;
  llvm::SmallVector<Coords> regs;
  llvm::SmallVector<Coords, 5> laneBases;
  llvm::SmallVector<Coords> warpBases;
};

/// Classifies a coordinate change `basis` with respect to dimension `axis`.
BitKind classifyBasis(llvm::ArrayRef<int64_t> basis, unsigned axis);

/// Maps coordinates of a destination tile to those of the source tile element
/// they come from. Must be linear (xor-preserving) on power-of-two shapes.
using CoordinateMap = llvm::function_ref<Coords(llvm::ArrayRef<int64_t>)>;

/// If every thread can build its registers of `dst` from its own registers
/// of `src` (destination element `c` being source element `dstToSrc(c)`),
/// returns for each destination register the source register to copy.
std::optional<llvm::SmallVector<int64_t>>
getRegisterRemap(const TileDistribution &src, const TileDistribution &dst,
                 CoordinateMap dstToSrc);

/// The identity coordinate map.
Coords identityCoords(llvm::ArrayRef<int64_t> coords);

/// `dist` as a layout attribute: its bases listed by a #tile.linear.
LinearLayoutAttr getLinearLayout(mlir::MLIRContext *context,
                                 const TileDistribution &dist);

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TILEDISTRIBUTION_H
