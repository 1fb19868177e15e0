//===- TileDistribution.cpp - Tabulated layouts of one tile shape -*- C++ -*-=//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Builds a TileDistribution by asking a layout for the coordinates of each
// register of lane 0 of warp 0 and of each single lane and warp bit, checks
// that the layout is linear and covers its shape, and answers the questions
// code generation asks about it (duplicates, register remappings).
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDistribution.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tile;

/// The per-dimension xor of two coordinate vectors.
static Coords xorCoords(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  Coords r(a.begin(), a.end());
  for (unsigned d = 0; d < r.size(); ++d)
    r[d] ^= b[d];
  return r;
}

static bool isZero(ArrayRef<int64_t> c) {
  return llvm::all_of(c, [](int64_t v) { return v == 0; });
}

/// Checks that `regs` is linear in the register index.
static bool registersAreLinear(ArrayRef<Coords> regs) {
  for (int64_t r = 1, e = regs.size(); r < e; ++r) {
    int64_t low = r & (r - 1);
    if (low == 0)
      continue; // a basis
    if (regs[r] != xorCoords(regs[low], regs[r ^ low]))
      return false;
  }
  return isZero(regs.front());
}

/// The rank of the tiles `layout` can describe, when known.
static std::optional<unsigned> getLayoutRank(LayoutAttrInterface layout) {
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout))
    return blocked.getOrder().size();
  if (isa<MmaLayoutAttr>(layout))
    return 2;
  if (auto linear = dyn_cast<LinearLayoutAttr>(layout))
    return linear.getShape().size();
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    std::optional<unsigned> parent = getLayoutRank(slice.getParent());
    if (!parent || *parent == 0 || slice.getDim() >= *parent)
      return std::nullopt;
    return *parent - 1;
  }
  return std::nullopt;
}

/// Tabulates any layout through the interface, checking linearity.
static bool tabulate(LayoutAttrInterface layout, ArrayRef<int64_t> shape,
                     SmallVectorImpl<Coords> &regs,
                     SmallVectorImpl<Coords> &lanes,
                     SmallVectorImpl<Coords> &warps) {
  int64_t numRegs = layout.getElemsPerThread(shape);
  int64_t numWarps = layout.getNumWarps();
  if (!llvm::isPowerOf2_64(numRegs) || !llvm::isPowerOf2_64(numWarps))
    return false;
  for (int64_t r = 0; r < numRegs; ++r)
    regs.push_back(Coords(layout.getCoordinates(shape, r, 0, 0)));
  for (unsigned b = 0; b < 5; ++b)
    lanes.push_back(Coords(layout.getCoordinates(shape, 0, 1 << b, 0)));
  for (int64_t b = 0; (int64_t(1) << b) < numWarps; ++b)
    warps.push_back(Coords(layout.getCoordinates(shape, 0, 0, 1 << b)));
  if (!registersAreLinear(regs))
    return false;
  // Every lane and warp, and the last lane and warp with every register.
  auto threadPart = [&](ArrayRef<Coords> bases, int64_t t) {
    Coords c(shape.size(), 0);
    for (unsigned b = 0; b < bases.size(); ++b)
      if (t & (int64_t(1) << b))
        c = xorCoords(c, bases[b]);
    return c;
  };
  for (int64_t l = 0; l < 32; ++l)
    if (Coords(layout.getCoordinates(shape, 0, l, 0)) != threadPart(lanes, l))
      return false;
  for (int64_t w = 0; w < numWarps; ++w)
    if (Coords(layout.getCoordinates(shape, 0, 0, w)) != threadPart(warps, w))
      return false;
  Coords last =
      xorCoords(threadPart(lanes, 31), threadPart(warps, numWarps - 1));
  for (int64_t r = 0; r < numRegs; ++r)
    if (Coords(layout.getCoordinates(shape, r, 31, numWarps - 1)) !=
        xorCoords(regs[r], last))
      return false;
  return true;
}

std::optional<TileDistribution>
TileDistribution::get(LayoutAttrInterface layout, ArrayRef<int64_t> shape) {
  if (!layout || shape.empty())
    return std::nullopt;
  // Layouts whose rank is known must match the shape's (a tensor type does
  // not verify its encoding).
  std::optional<unsigned> rank = getLayoutRank(layout);
  if (isa<BlockedLayoutAttr, SliceLayoutAttr>(layout) &&
      (!rank || *rank != shape.size()))
    return std::nullopt;
  if (auto linear = dyn_cast<LinearLayoutAttr>(layout))
    if (linear.getShape() != shape)
      return std::nullopt;
  for (int64_t s : shape)
    if (s <= 0 || !llvm::isPowerOf2_64(s))
      return std::nullopt;

  TileDistribution result;
  result.shape.assign(shape.begin(), shape.end());
  if (auto slice = dyn_cast<SliceLayoutAttr>(layout)) {
    // A slice keeps some registers of its parent and drops one dimension;
    // tabulating the parent is linear in the number of registers.
    SmallVector<int64_t> parentShape = slice.getParentShape(shape);
    std::optional<TileDistribution> parent =
        get(slice.getParent(), parentShape);
    if (!parent)
      return std::nullopt;
    unsigned dim = slice.getDim();
    auto drop = [&](const Coords &c) {
      Coords r(c);
      r.erase(r.begin() + dim);
      return r;
    };
    for (int64_t r : slice.getParentRegisters(shape))
      result.regs.push_back(drop(parent->regs[r]));
    for (const Coords &c : parent->laneBases)
      result.laneBases.push_back(drop(c));
    for (const Coords &c : parent->warpBases)
      result.warpBases.push_back(drop(c));
    if (!llvm::isPowerOf2_64(result.regs.size()) ||
        !registersAreLinear(result.regs))
      return std::nullopt;
  } else if (!tabulate(layout, shape, result.regs, result.laneBases,
                       result.warpBases)) {
    return std::nullopt;
  }
  result.regBits = llvm::Log2_64(result.regs.size());

  // The bases must span every coordinate bit: as row-major indices, the
  // coordinates' bits are disjoint fields, so xor of coordinates is xor of
  // indices and coverage is a rank computation over GF(2).
  BitSpan span;
  auto addRow = [&](const Coords &c) { span.add(result.getLinearIndex(c)); };
  for (unsigned b = 0; b < result.regBits; ++b)
    addRow(result.getRegisterBasis(b));
  for (const Coords &c : result.laneBases)
    addRow(c);
  for (const Coords &c : result.warpBases)
    addRow(c);
  if (span.getRank() != llvm::Log2_64(result.getNumElements()))
    return std::nullopt;
  return result;
}

std::optional<TileDistribution> TileDistribution::get(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  LayoutAttrInterface layout = getLayout(type);
  if (!tensor || !layout)
    return std::nullopt;
  return get(layout, tensor.getShape());
}

int64_t TileDistribution::getNumElements() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

Coords TileDistribution::getCoordinates(int64_t reg, int64_t lane,
                                        int64_t warp) const {
  Coords c = regs[reg];
  for (unsigned b = 0; b < laneBases.size(); ++b)
    if (lane & (int64_t(1) << b))
      c = xorCoords(c, laneBases[b]);
  for (unsigned b = 0; b < warpBases.size(); ++b)
    if (warp & (int64_t(1) << b))
      c = xorCoords(c, warpBases[b]);
  return c;
}

unsigned TileDistribution::getDuplicateLaneMask() const {
  unsigned mask = 0;
  for (unsigned b = 0; b < laneBases.size(); ++b)
    if (isZero(laneBases[b]))
      mask |= 1u << b;
  return mask;
}

unsigned TileDistribution::getDuplicateWarpMask() const {
  unsigned mask = 0;
  for (unsigned b = 0; b < warpBases.size(); ++b)
    if (isZero(warpBases[b]))
      mask |= 1u << b;
  return mask;
}

bool TileDistribution::isDuplicateRegister(int64_t reg) const {
  for (int64_t r = 0; r < reg; ++r)
    if (regs[r] == regs[reg])
      return true;
  return false;
}

bool TileDistribution::hasDuplicates() const {
  if (getDuplicateLaneMask() || getDuplicateWarpMask())
    return true;
  for (unsigned b = 0; b < regBits; ++b)
    if (isZero(getRegisterBasis(b)))
      return true;
  return false;
}

TileDistribution::RegisterVectors
TileDistribution::getRegisterVectors(unsigned dim, int64_t maxElems) const {
  RegisterVectors vectors;
  vectors.offsets = {0};
  auto isStep = [&](const Coords &step, int64_t size) {
    for (unsigned d = 0; d < getRank(); ++d)
      if (step[d] != (d == dim ? size : 0))
        return false;
    return true;
  };
  while (int64_t(vectors.offsets.size()) < maxElems) {
    int64_t size = vectors.offsets.size();
    unsigned bit = 0;
    while (bit < regBits && !isStep(getRegisterBasis(bit), size))
      ++bit;
    if (bit == regBits)
      break;
    int64_t bitsPlus = vectors.bits | int64_t(1) << bit;
    auto aligned = [&](const Coords &step) {
      return step[dim] % (2 * size) == 0;
    };
    bool ok = true;
    for (unsigned other = 0; other < regBits; ++other)
      if (!(bitsPlus & int64_t(1) << other))
        ok &= aligned(getRegisterBasis(other));
    for (const Coords &lane : laneBases)
      ok &= aligned(lane);
    for (const Coords &warp : warpBases)
      ok &= aligned(warp);
    if (!ok)
      break;
    vectors.bits = bitsPlus;
    for (int64_t j = 0; j < size; ++j)
      vectors.offsets.push_back(vectors.offsets[j] + (int64_t(1) << bit));
  }
  return vectors;
}

int64_t TileDistribution::getLinearIndex(ArrayRef<int64_t> coords) const {
  int64_t index = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    index = index * shape[d] + coords[d];
  return index;
}

BitKind tilec::tile::classifyBasis(ArrayRef<int64_t> basis, unsigned axis) {
  bool alongAxis = basis[axis] != 0;
  bool alongOther = false;
  for (unsigned d = 0; d < basis.size(); ++d)
    if (d != axis && basis[d] != 0)
      alongOther = true;
  if (alongAxis && alongOther)
    return BitKind::Mixed;
  if (alongAxis)
    return BitKind::Axis;
  return alongOther ? BitKind::Other : BitKind::Duplicate;
}

Coords tilec::tile::identityCoords(ArrayRef<int64_t> coords) {
  return Coords(coords.begin(), coords.end());
}

std::optional<SmallVector<int64_t>>
tilec::tile::getRegisterRemap(const TileDistribution &src,
                              const TileDistribution &dst,
                              CoordinateMap dstToSrc) {
  if (src.getNumWarps() != dst.getNumWarps())
    return std::nullopt;
  for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b)
    if (dstToSrc(dst.getLaneBasis(b)) != src.getLaneBasis(b))
      return std::nullopt;
  for (unsigned b = 0; b < dst.getNumWarpBits(); ++b)
    if (dstToSrc(dst.getWarpBasis(b)) != src.getWarpBasis(b))
      return std::nullopt;
  SmallVector<int64_t> remap;
  for (int64_t r = 0; r < dst.getNumRegisters(); ++r) {
    Coords want = dstToSrc(dst.getRegisterCoords(r));
    int64_t found = -1;
    for (int64_t s = 0; s < src.getNumRegisters() && found < 0; ++s)
      if (src.getRegisterCoords(s) == want)
        found = s;
    if (found < 0)
      return std::nullopt;
    remap.push_back(found);
  }
  return remap;
}

LinearLayoutAttr tilec::tile::getLinearLayout(MLIRContext *context,
                                              const TileDistribution &dist) {
  SmallVector<int64_t> registers, lanes, warps;
  for (unsigned b = 0; b < dist.getNumRegisterBits(); ++b)
    llvm::append_range(registers, dist.getRegisterBasis(b));
  for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b)
    llvm::append_range(lanes, dist.getLaneBasis(b));
  for (unsigned b = 0; b < dist.getNumWarpBits(); ++b)
    llvm::append_range(warps, dist.getWarpBasis(b));
  return LinearLayoutAttr::get(context, dist.getShape(), registers, lanes,
                               warps);
}

bool BitSpan::add(uint64_t vector) {
  for (int k = 63; k >= 0 && vector; --k) {
    if (!((vector >> k) & 1))
      continue;
    if (!leading[k]) {
      leading[k] = vector;
      ++rank;
      return true;
    }
    vector ^= leading[k];
  }
  return false;
}
