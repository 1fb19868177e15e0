//===- LayoutTests.cpp - Layout math unit tests -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Checks the layout math code generation relies on, by brute force over every
// (register, lane, warp): that blocked and slice layouts are linear (so that
// TileDistribution's bases predict every coordinate), that they cover every
// element of their shape, that slice registers are the parent's registers
// with the sliced dimension dropped (expand_dims and reductions pick
// registers by that), that register remappings found for expand_dims and
// broadcast agree with the layouts in every thread, and that duplicate
// detection finds exactly the threads and registers holding copies.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDistribution.h"

#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>

using namespace mlir;
using namespace tilec::tile;

namespace {

/// A context with the tile dialect loaded.
struct Fixture {
  Fixture() { ctx.loadDialect<TileDialect>(); }
  BlockedLayoutAttr blocked(ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                            ArrayRef<unsigned> wpc, ArrayRef<unsigned> order) {
    return BlockedLayoutAttr::get(&ctx, spt, tpw, wpc, order);
  }
  MLIRContext ctx;
};

/// Every (register, lane, warp) of `layout` on `shape`.
template <typename Fn>
void forEachSlot(LayoutAttrInterface layout, ArrayRef<int64_t> shape, Fn fn) {
  int64_t regs = layout.getElemsPerThread(shape);
  for (int64_t w = 0; w < layout.getNumWarps(); ++w)
    for (int64_t l = 0; l < 32; ++l)
      for (int64_t r = 0; r < regs; ++r)
        fn(r, l, w);
}

/// Checks linearity and coverage of `layout` on `shape`.
void checkLayout(LayoutAttrInterface layout, ArrayRef<int64_t> shape) {
  std::optional<TileDistribution> dist = TileDistribution::get(layout, shape);
  REQUIRE(dist);
  REQUIRE(dist->getNumRegisters() == layout.getElemsPerThread(shape));
  std::set<Coords> covered;
  forEachSlot(layout, shape, [&](int64_t r, int64_t l, int64_t w) {
    Coords expected(layout.getCoordinates(shape, r, l, w));
    REQUIRE(dist->getCoordinates(r, l, w) == expected);
    for (unsigned d = 0; d < shape.size(); ++d) {
      REQUIRE(expected[d] >= 0);
      REQUIRE(expected[d] < shape[d]);
    }
    covered.insert(expected);
  });
  REQUIRE(int64_t(covered.size()) == dist->getNumElements());
}

/// The blocked layouts the tests sweep: 1-D and 2-D, both orders, several
/// warp counts, including layouts larger than their shapes.
std::vector<std::pair<BlockedLayoutAttr, SmallVector<int64_t>>>
sampleLayouts(Fixture &f) {
  std::vector<std::pair<BlockedLayoutAttr, SmallVector<int64_t>>> samples;
  for (int64_t n : {1, 8, 64, 128, 1024, 4096})
    for (unsigned w : {1u, 4u, 8u})
      for (unsigned spt : {1u, 4u, 8u})
        samples.push_back({f.blocked({spt}, {32}, {w}, {0}), {n}});
  for (SmallVector<int64_t> shape : {SmallVector<int64_t>{16, 128},
                                     {64, 64},
                                     {128, 32},
                                     {1, 64},
                                     {64, 1},
                                     {2, 2},
                                     {32, 8}})
    for (unsigned w : {1u, 2u, 4u, 8u}) {
      samples.push_back({f.blocked({1, 4}, {1, 32}, {w, 1}, {1, 0}), shape});
      samples.push_back({f.blocked({1, 8}, {4, 8}, {w, 1}, {1, 0}), shape});
      samples.push_back({f.blocked({2, 1}, {8, 4}, {1, w}, {0, 1}), shape});
      samples.push_back({f.blocked({4, 4}, {2, 16}, {w, 1}, {1, 0}), shape});
    }
  return samples;
}

TEST_CASE("blocked layouts are linear and cover their shapes", "[layout]") {
  Fixture f;
  for (auto &[layout, shape] : sampleLayouts(f))
    checkLayout(layout, shape);
}

TEST_CASE("slice layouts keep the parent's registers", "[layout]") {
  Fixture f;
  for (auto &[parent, parentShape] : sampleLayouts(f)) {
    if (parentShape.size() != 2)
      continue;
    for (unsigned dim = 0; dim < 2; ++dim) {
      auto slice = SliceLayoutAttr::get(&f.ctx, dim, parent);
      SmallVector<int64_t> shape(parentShape);
      shape.erase(shape.begin() + dim);
      checkLayout(slice, shape);

      // Each slice register is the parent register it names, with the
      // sliced dimension (0 in the parent shape) dropped, in every thread.
      SmallVector<int64_t> unitShape = slice.getParentShape(shape);
      SmallVector<int64_t> parentRegs = slice.getParentRegisters(shape);
      forEachSlot(slice, shape, [&](int64_t r, int64_t l, int64_t w) {
        SmallVector<int64_t> c =
            parent.getCoordinates(unitShape, parentRegs[r], l, w);
        REQUIRE(c[dim] == 0);
        c.erase(c.begin() + dim);
        REQUIRE(c == slice.getCoordinates(shape, r, l, w));
      });

      // expand_dims: the remap from slice registers to parent registers
      // agrees with both layouts in every thread.
      std::optional<TileDistribution> src = TileDistribution::get(slice, shape);
      std::optional<TileDistribution> dst =
          TileDistribution::get(parent, unitShape);
      REQUIRE(src);
      REQUIRE(dst);
      auto drop = [&](ArrayRef<int64_t> c) {
        Coords r(c.begin(), c.end());
        r.erase(r.begin() + dim);
        return r;
      };
      std::optional<SmallVector<int64_t>> remap =
          getRegisterRemap(*src, *dst, drop);
      REQUIRE(remap);
      forEachSlot(parent, unitShape, [&](int64_t r, int64_t l, int64_t w) {
        REQUIRE(drop(dst->getCoordinates(r, l, w)) ==
                src->getCoordinates((*remap)[r], l, w));
      });
    }
  }
}

TEST_CASE("broadcast within one layout remaps registers", "[layout]") {
  Fixture f;
  for (auto &[layout, shape] : sampleLayouts(f)) {
    if (shape.size() != 2)
      continue;
    for (unsigned dim = 0; dim < 2; ++dim) {
      SmallVector<int64_t> srcShape(shape);
      srcShape[dim] = 1;
      std::optional<TileDistribution> src =
          TileDistribution::get(layout, srcShape);
      std::optional<TileDistribution> dst =
          TileDistribution::get(layout, shape);
      REQUIRE(src);
      REQUIRE(dst);
      auto zero = [&](ArrayRef<int64_t> c) {
        Coords r(c.begin(), c.end());
        r[dim] = 0;
        return r;
      };
      std::optional<SmallVector<int64_t>> remap =
          getRegisterRemap(*src, *dst, zero);
      REQUIRE(remap);
      forEachSlot(layout, shape, [&](int64_t r, int64_t l, int64_t w) {
        REQUIRE(zero(dst->getCoordinates(r, l, w)) ==
                src->getCoordinates((*remap)[r], l, w));
      });
    }
  }
}

TEST_CASE("a layout converts to itself without data movement", "[layout]") {
  Fixture f;
  for (auto &[layout, shape] : sampleLayouts(f)) {
    std::optional<TileDistribution> dist = TileDistribution::get(layout, shape);
    REQUIRE(dist);
    std::optional<SmallVector<int64_t>> remap =
        getRegisterRemap(*dist, *dist, identityCoords);
    REQUIRE(remap);
    for (int64_t r = 0; r < dist->getNumRegisters(); ++r)
      REQUIRE(dist->getRegisterCoords((*remap)[r]) ==
              dist->getRegisterCoords(r));
  }
}

TEST_CASE("different layouts need shared memory", "[layout]") {
  Fixture f;
  auto rows = f.blocked({1, 4}, {1, 32}, {4, 1}, {1, 0});
  auto cols = f.blocked({4, 1}, {32, 1}, {1, 4}, {0, 1});
  SmallVector<int64_t> shape{128, 128};
  std::optional<TileDistribution> a = TileDistribution::get(rows, shape);
  std::optional<TileDistribution> b = TileDistribution::get(cols, shape);
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(!getRegisterRemap(*a, *b, identityCoords));
}

TEST_CASE("duplicates are found exactly", "[layout]") {
  Fixture f;
  for (auto &[layout, shape] : sampleLayouts(f)) {
    std::optional<TileDistribution> dist = TileDistribution::get(layout, shape);
    REQUIRE(dist);
    // An element's owner is the first (warp, lane, register) holding it.
    std::map<Coords, std::tuple<int64_t, int64_t, int64_t>> owner;
    int64_t slots = 0;
    forEachSlot(layout, shape, [&](int64_t r, int64_t l, int64_t w) {
      owner.try_emplace(dist->getCoordinates(r, l, w), w, l, r);
      ++slots;
    });
    REQUIRE(dist->hasDuplicates() == (slots != dist->getNumElements()));
    unsigned laneDup = dist->getDuplicateLaneMask();
    unsigned warpDup = dist->getDuplicateWarpMask();
    forEachSlot(layout, shape, [&](int64_t r, int64_t l, int64_t w) {
      bool isOwnerThread = (l & laneDup) == 0 && (w & warpDup) == 0;
      bool owns = isOwnerThread && !dist->isDuplicateRegister(r);
      // Owners as the lowering defines them are exactly one per element.
      auto [ow, ol, orr] = owner.at(dist->getCoordinates(r, l, w));
      REQUIRE(owns == (ow == w && ol == l && orr == r));
    });
  }
}

TEST_CASE("reductions see independent bits along the axis", "[layout]") {
  Fixture f;
  for (auto &[layout, shape] : sampleLayouts(f)) {
    std::optional<TileDistribution> dist = TileDistribution::get(layout, shape);
    REQUIRE(dist);
    for (unsigned axis = 0; axis < shape.size(); ++axis) {
      // Every basis moves one dimension by a power of two, or nothing, and
      // the bits along the axis move distinct coordinate bits.
      int64_t seen = 0, count = 0;
      auto visit = [&](const Coords &basis) {
        BitKind kind = classifyBasis(basis, axis);
        REQUIRE(kind != BitKind::Mixed);
        if (kind != BitKind::Axis)
          return;
        REQUIRE(llvm::isPowerOf2_64(basis[axis]));
        REQUIRE((seen & basis[axis]) == 0);
        seen |= basis[axis];
        ++count;
      };
      for (unsigned b = 0; b < dist->getNumRegisterBits(); ++b)
        visit(dist->getRegisterBasis(b));
      for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b)
        visit(dist->getLaneBasis(b));
      for (unsigned b = 0; b < dist->getNumWarpBits(); ++b)
        visit(dist->getWarpBasis(b));
      // Together they span the axis: a scan finds a source for each bit.
      REQUIRE(seen == shape[axis] - 1);
      REQUIRE((int64_t(1) << count) == shape[axis]);
    }
  }
}

TEST_CASE("row-major indices", "[layout]") {
  Fixture f;
  auto layout = f.blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  std::optional<TileDistribution> dist =
      TileDistribution::get(layout, {16, 32});
  REQUIRE(dist);
  REQUIRE(dist->getLinearIndex({0, 0}) == 0);
  REQUIRE(dist->getLinearIndex({1, 0}) == 32);
  REQUIRE(dist->getLinearIndex({15, 31}) == 511);
}

TEST_CASE("unsupported shapes and ranks are rejected", "[layout]") {
  Fixture f;
  auto layout = f.blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  REQUIRE(!TileDistribution::get(layout, {12, 32}));
  REQUIRE(!TileDistribution::get(layout, {32}));
  REQUIRE(!TileDistribution::get(layout, {4, 4, 4}));
}

} // namespace
