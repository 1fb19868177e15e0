//===- TileAttrs.cpp - Layout attributes ------------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The layouts (blocked, slice, mma, linear): verification and the mapping from
// (register, lane, warp) to tensor coordinates that the layout interface
// promises.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "tilec/Dialect/Tile/IR/DTypes.h"
#include "tilec/Dialect/Tile/IR/TileDistribution.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <set>

using namespace mlir;
using namespace tilec::tile;

#include "tilec/Dialect/Tile/IR/TileAttrInterfaces.cpp.inc"

#include "tilec/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// BlockedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult BlockedLayoutAttr::verify(
    function_ref<InFlightDiagnostic()> emitError,
    ArrayRef<unsigned> sizePerThread, ArrayRef<unsigned> threadsPerWarp,
    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0)
    return emitError() << "blocked layout must have rank at least 1";
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank ||
      order.size() != rank)
    return emitError() << "blocked layout parameters must all have rank "
                       << rank;
  unsigned lanes = 1;
  for (size_t d = 0; d < rank; ++d) {
    if (!llvm::isPowerOf2_32(sizePerThread[d]) ||
        !llvm::isPowerOf2_32(threadsPerWarp[d]) ||
        !llvm::isPowerOf2_32(warpsPerCTA[d]))
      return emitError() << "blocked layout sizes must be powers of two";
    lanes *= threadsPerWarp[d];
  }
  if (lanes != 32)
    return emitError() << "threadsPerWarp must multiply to 32, not " << lanes;
  SmallVector<bool> seen(rank, false);
  for (unsigned d : order) {
    if (d >= rank || seen[d])
      return emitError() << "order must be a permutation of 0.." << rank - 1;
    seen[d] = true;
  }
  return success();
}

/// Registers a thread holds along dimension `d` of `shape`.
static int64_t regsAlong(BlockedLayoutAttr layout, ArrayRef<int64_t> shape,
                         unsigned d) {
  int64_t covered = int64_t(layout.getSizePerThread()[d]) *
                    layout.getThreadsPerWarp()[d] * layout.getWarpsPerCTA()[d];
  int64_t reps = std::max<int64_t>(1, (shape[d] + covered - 1) / covered);
  return layout.getSizePerThread()[d] * reps;
}

int64_t BlockedLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  int64_t n = 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    n *= regsAlong(*this, shape, d);
  return n;
}

int64_t BlockedLayoutAttr::getNumWarps() const {
  int64_t n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

SmallVector<int64_t> BlockedLayoutAttr::getCoordinates(ArrayRef<int64_t> shape,
                                                       int64_t reg,
                                                       int64_t lane,
                                                       int64_t warp) const {
  SmallVector<int64_t> coords(shape.size());
  for (unsigned d : getOrder()) {
    int64_t regs = regsAlong(*this, shape, d);
    int64_t r = reg % regs;
    reg /= regs;
    int64_t l = lane % getThreadsPerWarp()[d];
    lane /= getThreadsPerWarp()[d];
    int64_t w = warp % getWarpsPerCTA()[d];
    warp /= getWarpsPerCTA()[d];
    int64_t spt = getSizePerThread()[d];
    int64_t covered = spt * getThreadsPerWarp()[d] * getWarpsPerCTA()[d];
    int64_t c =
        (r / spt) * covered + (w * getThreadsPerWarp()[d] + l) * spt + r % spt;
    coords[d] = c % shape[d];
  }
  return coords;
}

int64_t BlockedLayoutAttr::getContiguousRegisters(ArrayRef<int64_t> shape,
                                                  unsigned dim) const {
  if (getOrder().front() != dim)
    return 1;
  return std::min<int64_t>(getSizePerThread()[dim], shape[dim]);
}

//===----------------------------------------------------------------------===//
// SliceLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, LayoutAttrInterface parent) {
  if (!parent)
    return emitError() << "slice layout needs a parent layout";
  std::optional<unsigned> rank;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(parent))
    rank = blocked.getOrder().size();
  else if (isa<MmaLayoutAttr>(parent))
    rank = 2;
  if (rank && dim >= *rank)
    return emitError() << "slice dimension " << dim
                       << " is out of the parent's rank " << *rank;
  return success();
}

SmallVector<int64_t>
SliceLayoutAttr::getParentShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  return parentShape;
}

/// SliceLayoutAttr::getParentRegisters without a copy (memoized in the
/// dialect).
static ArrayRef<int64_t> parentRegisters(SliceLayoutAttr slice,
                                         ArrayRef<int64_t> shape) {
  auto &dialect = static_cast<TileDialect &>(slice.getDialect());
  return dialect.getSliceParentRegisters(slice, shape, [&] {
    SmallVector<int64_t> parentShape = slice.getParentShape(shape);
    LayoutAttrInterface parent = slice.getParent();
    // Keep the first register of each distinct coordinate (lane 0, warp 0:
    // the register part of a coordinate does not depend on the thread).
    SmallVector<int64_t> kept;
    std::set<SmallVector<int64_t>> seen;
    int64_t n = parent.getElemsPerThread(parentShape);
    for (int64_t r = 0; r < n; ++r) {
      SmallVector<int64_t> c = parent.getCoordinates(parentShape, r, 0, 0);
      if (seen.insert(c).second)
        kept.push_back(r);
    }
    return kept;
  });
}

SmallVector<int64_t>
SliceLayoutAttr::getParentRegisters(ArrayRef<int64_t> shape) const {
  return SmallVector<int64_t>(parentRegisters(*this, shape));
}

int64_t SliceLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  return parentRegisters(*this, shape).size();
}

int64_t SliceLayoutAttr::getNumWarps() const {
  return getParent().getNumWarps();
}

SmallVector<int64_t> SliceLayoutAttr::getCoordinates(ArrayRef<int64_t> shape,
                                                     int64_t reg, int64_t lane,
                                                     int64_t warp) const {
  SmallVector<int64_t> parentShape = getParentShape(shape);
  int64_t parentReg = parentRegisters(*this, shape)[reg];
  SmallVector<int64_t> c =
      getParent().getCoordinates(parentShape, parentReg, lane, warp);
  c.erase(c.begin() + getDim());
  return c;
}

int64_t SliceLayoutAttr::getContiguousRegisters(ArrayRef<int64_t> shape,
                                                unsigned dim) const {
  unsigned parentDim = dim >= getDim() ? dim + 1 : dim;
  return getParent().getContiguousRegisters(getParentShape(shape), parentDim);
}

//===----------------------------------------------------------------------===//
// MmaLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      unsigned versionMajor, ArrayRef<unsigned> warpsPerCTA,
                      ArrayRef<unsigned> instrShape, bool transposed) {
  if (warpsPerCTA.size() != 2 || instrShape.size() != 3)
    return emitError() << "mma layout needs 2 warpsPerCTA and an instrShape "
                          "of [M, N, K]";
  if (!llvm::isPowerOf2_32(warpsPerCTA[0]) ||
      !llvm::isPowerOf2_32(warpsPerCTA[1]))
    return emitError() << "mma warpsPerCTA must be powers of two";
  unsigned m = instrShape[0], n = instrShape[1];
  if (versionMajor == 2) {
    if (transposed)
      return emitError() << "only mma version 3 layouts can be transposed";
    if (m != 16 || n != 8)
      return emitError() << "mma version 2 computes 16x8 blocks";
    return success();
  }
  if (versionMajor == 3) {
    if (m != 64 || n < 8 || n > 256 || !llvm::isPowerOf2_32(n))
      return emitError() << "mma version 3 computes 64xN blocks with N a "
                            "power of two from 8 to 256";
    if (warpsPerCTA[0] % 4 != 0)
      return emitError() << "mma version 3 needs warps along M in groups of "
                            "4 (warp groups)";
    return success();
  }
  return emitError() << "mma version must be 2 or 3, not " << versionMajor;
}

SmallVector<int64_t, 2>
MmaLayoutAttr::getInstrOrientedShape(ArrayRef<int64_t> shape) const {
  if (getTransposed())
    return {shape[1], shape[0]};
  return {shape[0], shape[1]};
}

int64_t MmaLayoutAttr::getRepetitions(ArrayRef<int64_t> shape,
                                      unsigned dim) const {
  int64_t covered = dim == 0
                        ? 16 * int64_t(getWarpsPerCTA()[0])
                        : int64_t(getInstrShape()[1]) * getWarpsPerCTA()[1];
  return std::max<int64_t>(1, shape[dim] / covered);
}

int64_t MmaLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t, 2> oriented = getInstrOrientedShape(shape);
  return getRepetitions(oriented, 0) * getRepetitions(oriented, 1) *
         getFragmentRegisters();
}

int64_t MmaLayoutAttr::getNumWarps() const {
  return int64_t(getWarpsPerCTA()[0]) * getWarpsPerCTA()[1];
}

SmallVector<int64_t> MmaLayoutAttr::getCoordinates(ArrayRef<int64_t> tile,
                                                   int64_t reg, int64_t lane,
                                                   int64_t warp) const {
  SmallVector<int64_t, 2> shape = getInstrOrientedShape(tile);
  int64_t fragment = getFragmentRegisters();
  int64_t n = getInstrShape()[1];
  int64_t warpsM = getWarpsPerCTA()[0], warpsN = getWarpsPerCTA()[1];
  int64_t f = reg % fragment, rep = reg / fragment;
  int64_t repN = rep % getRepetitions(shape, 1);
  int64_t repM = rep / getRepetitions(shape, 1);
  int64_t row =
      repM * 16 * warpsM + 16 * (warp % warpsM) + lane / 4 + 8 * ((f / 2) % 2);
  int64_t col = repN * n * warpsN + n * (warp / warpsM) + 8 * (f / 4) +
                2 * (lane % 4) + f % 2;
  if (getTransposed())
    return {col % shape[1], row % shape[0]};
  return {row % shape[0], col % shape[1]};
}

int64_t MmaLayoutAttr::getContiguousRegisters(ArrayRef<int64_t> shape,
                                              unsigned dim) const {
  // Register pairs run along the instruction's N.
  unsigned nDim = getTransposed() ? 0 : 1;
  return dim == nDim ? std::min<int64_t>(2, shape[nDim]) : 1;
}

//===----------------------------------------------------------------------===//
// LinearLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, ArrayRef<int64_t> registers,
                         ArrayRef<int64_t> lanes, ArrayRef<int64_t> warps) {
  size_t rank = shape.size();
  if (rank == 0)
    return emitError() << "linear layout must have rank at least 1";
  unsigned bits = 0;
  for (int64_t s : shape) {
    if (s <= 0 || !llvm::isPowerOf2_64(s))
      return emitError() << "linear layout shape must be powers of two";
    bits += llvm::Log2_64(s);
  }
  if (registers.size() % rank || warps.size() % rank)
    return emitError() << "linear layout bases must have " << rank
                       << " coordinates each";
  if (lanes.size() != 5 * rank)
    return emitError() << "linear layout must have 5 lane bases";
  // Each basis lies in the shape, and together they reach every element:
  // their coordinates, as bit vectors, span all `bits` bits.
  BitSpan span;
  for (ArrayRef<int64_t> all : {registers, lanes, warps}) {
    for (size_t i = 0; i < all.size(); i += rank) {
      uint64_t vector = 0;
      unsigned offset = 0;
      for (size_t d = 0; d < rank; ++d) {
        int64_t c = all[i + d];
        if (c < 0 || c >= shape[d])
          return emitError()
                 << "linear layout basis coordinate " << c
                 << " is outside dimension " << d << " of size " << shape[d];
        vector |= uint64_t(c) << offset;
        offset += llvm::Log2_64(shape[d]);
      }
      span.add(vector);
    }
  }
  if (span.getRank() != bits)
    return emitError() << "linear layout bases must reach every element of "
                          "the shape";
  return success();
}

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> shape;
  SmallVector<int64_t> bases[3];
  auto parseInts = [&](SmallVectorImpl<int64_t> &out) {
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                          [&]() -> ParseResult {
                                            int64_t v;
                                            if (parser.parseInteger(v))
                                              return failure();
                                            out.push_back(v);
                                            return success();
                                          });
  };
  if (parser.parseLess() || parser.parseKeyword("shape") ||
      parser.parseEqual() || parseInts(shape))
    return {};
  const StringRef names[] = {"registers", "lanes", "warps"};
  for (auto [name, into] : llvm::zip(names, bases)) {
    if (parser.parseComma() || parser.parseKeyword(name) ||
        parser.parseEqual() ||
        parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              SMLoc loc = parser.getCurrentLocation();
              size_t before = into.size();
              if (parseInts(into))
                return failure();
              if (into.size() - before != shape.size())
                return parser.emitError(loc) << "expected a basis of "
                                             << shape.size() << " coordinates";
              return success();
            }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<LinearLayoutAttr>(parser.getContext(), shape,
                                             bases[0], bases[1], bases[2]);
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  size_t rank = getShape().size();
  auto printBases = [&](StringRef name, ArrayRef<int64_t> all) {
    printer << ", " << name << " = [";
    for (size_t i = 0; i < all.size(); i += rank) {
      if (i)
        printer << ", ";
      printer << "[";
      llvm::interleaveComma(all.slice(i, rank), printer);
      printer << "]";
    }
    printer << "]";
  };
  printer << "<shape = [";
  llvm::interleaveComma(getShape(), printer);
  printer << "]";
  printBases("registers", getRegisters());
  printBases("lanes", getLanes());
  printBases("warps", getWarps());
  printer << ">";
}

/// The xor of the bases of the bits set in `index`.
static SmallVector<int64_t> xorBases(const LinearLayoutAttr &layout,
                                     ArrayRef<int64_t> bases, int64_t index) {
  SmallVector<int64_t> coords(layout.getShape().size(), 0);
  for (unsigned bit = 0; index >> bit; ++bit)
    if ((index >> bit) & 1)
      for (auto [c, b] : llvm::zip(coords, layout.getBasis(bases, bit)))
        c ^= b;
  return coords;
}

int64_t LinearLayoutAttr::getElemsPerThread(ArrayRef<int64_t>) const {
  return int64_t(1) << getNumRegisterBits();
}

int64_t LinearLayoutAttr::getNumWarps() const {
  return int64_t(1) << getNumWarpBits();
}

SmallVector<int64_t> LinearLayoutAttr::getCoordinates(ArrayRef<int64_t> shape,
                                                      int64_t reg, int64_t lane,
                                                      int64_t warp) const {
  assert(shape == getShape() && "a linear layout describes one shape");
  SmallVector<int64_t> coords = xorBases(*this, getRegisters(), reg);
  for (auto [c, l, w] : llvm::zip(coords, xorBases(*this, getLanes(), lane),
                                  xorBases(*this, getWarps(), warp)))
    c ^= l ^ w;
  return coords;
}

int64_t LinearLayoutAttr::getContiguousRegisters(ArrayRef<int64_t>,
                                                 unsigned dim) const {
  // The first register bits step 1, 2, 4... along `dim` alone.
  int64_t n = 1;
  for (unsigned bit = 0; bit < getNumRegisterBits(); ++bit) {
    ArrayRef<int64_t> basis = getBasis(getRegisters(), bit);
    for (auto [d, c] : llvm::enumerate(basis))
      if (c != (d == dim ? n : 0))
        return n;
    n *= 2;
  }
  return n;
}

//===----------------------------------------------------------------------===//
// SharedLayoutAttr
//===----------------------------------------------------------------------===//

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         unsigned contiguousDim, unsigned swizzle) {
  if (contiguousDim > 1)
    return emitError() << "contiguousDim must be 0 or 1";
  if (swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "swizzle must be 32, 64 or 128 bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// TensorMapAttr
//===----------------------------------------------------------------------===//

llvm::hash_code tilec::abi::hash_value(const TensorMapSpec::Scalar &scalar) {
  return llvm::hash_combine(scalar.IsArg, scalar.Arg, scalar.Value,
                            scalar.Factor);
}

llvm::hash_code tilec::abi::hash_value(const TensorMapSpec::OuterDim &dim) {
  return llvm::hash_combine(dim.Extent, dim.Stride);
}

FailureOr<tilec::abi::TensorMapSpec::Scalar>
tilec::tile::parseTensorMapScalar(AsmParser &parser) {
  if (succeeded(parser.parseOptionalKeyword("arg"))) {
    unsigned index = 0;
    if (parser.parseLParen() || parser.parseInteger(index) ||
        parser.parseRParen())
      return failure();
    int64_t factor = 1;
    if (succeeded(parser.parseOptionalStar()) && parser.parseInteger(factor))
      return failure();
    return abi::TensorMapSpec::Scalar::argument(index, factor);
  }
  int64_t value = 0;
  if (parser.parseInteger(value))
    return failure();
  return abi::TensorMapSpec::Scalar::constant(value);
}

void tilec::tile::printTensorMapScalar(
    AsmPrinter &printer, const abi::TensorMapSpec::Scalar &scalar) {
  if (!scalar.IsArg) {
    printer << scalar.Value;
    return;
  }
  printer << "arg(" << scalar.Arg << ")";
  if (scalar.Factor != 1)
    printer << " * " << scalar.Factor;
}

ParseResult tilec::tile::parseTensorMapOuter(
    AsmParser &parser, SmallVector<abi::TensorMapSpec::OuterDim> &outer) {
  if (failed(parser.parseOptionalComma()))
    return success();
  auto parseDim = [&]() -> ParseResult {
    if (parser.parseLParen())
      return failure();
    FailureOr<abi::TensorMapSpec::Scalar> extent = parseTensorMapScalar(parser);
    if (failed(extent) || parser.parseComma())
      return failure();
    FailureOr<abi::TensorMapSpec::Scalar> stride = parseTensorMapScalar(parser);
    if (failed(stride) || parser.parseRParen())
      return failure();
    outer.push_back({*extent, *stride});
    return success();
  };
  return failure(
      parser.parseKeyword("outer") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim));
}

void tilec::tile::printTensorMapOuter(
    AsmPrinter &printer, ArrayRef<abi::TensorMapSpec::OuterDim> outer) {
  if (outer.empty())
    return;
  printer << ", outer = [";
  llvm::interleaveComma(outer, printer,
                        [&](const abi::TensorMapSpec::OuterDim &dim) {
                          printer << "(";
                          printTensorMapScalar(printer, dim.Extent);
                          printer << ", ";
                          printTensorMapScalar(printer, dim.Stride);
                          printer << ")";
                        });
  printer << "]";
}

LogicalResult TensorMapAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, unsigned param, unsigned base,
    Type element, abi::TensorMapSpec::Scalar rows,
    abi::TensorMapSpec::Scalar cols, abi::TensorMapSpec::Scalar rowStride,
    unsigned boxRows, unsigned boxCols, unsigned swizzle,
    ArrayRef<abi::TensorMapSpec::OuterDim> outer) {
  std::optional<abi::ScalarType> dtype = getScalarType(element);
  std::optional<abi::TensorMapSpec::Element> tmaElement =
      dtype ? abi::tensorMapElementFor(*dtype) : std::nullopt;
  if (!tmaElement)
    return emitError() << "TMA cannot copy elements of " << element;
  SmallVector<abi::TensorMapSpec::Scalar> scalars = {rows, cols, rowStride};
  for (const abi::TensorMapSpec::OuterDim &dim : outer)
    scalars.append({dim.Extent, dim.Stride});
  for (const abi::TensorMapSpec::Scalar &scalar : scalars)
    if ((!scalar.IsArg && scalar.Value < 0) || scalar.Factor < 1)
      return emitError() << "tensor-map extents and strides are not negative";
  if (outer.size() + 2 > abi::TensorMapSpec::MaxRank)
    return emitError() << "a tensor map has at most "
                       << abi::TensorMapSpec::MaxRank << " dimensions";
  abi::Status box = abi::checkTensorMapBox(
      boxRows, boxCols, swizzle,
      abi::TensorMapSpec::tensorMapElementBytes(*tmaElement));
  if (!box.ok())
    return emitError() << box.message();
  return success();
}

tilec::abi::TensorMapSpec TensorMapAttr::getSpec() const {
  abi::TensorMapSpec spec;
  spec.ParamIndex = getParam();
  spec.BaseArg = getBase();
  spec.Elem = *abi::tensorMapElementFor(*getScalarType(getElement()));
  spec.Rows = getRows();
  spec.Cols = getCols();
  spec.RowStride = getRowStride();
  spec.Outer.assign(getOuter().begin(), getOuter().end());
  spec.BoxRows = getBoxRows();
  spec.BoxCols = getBoxCols();
  spec.Swizzle = getSwizzle();
  return spec;
}
