//===- ScanOpToLLVM.cpp - Inclusive prefix sums -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.scan (inclusive cumsum or cumprod along an axis, optionally
// reversed) and tile.combine_scan (the same with a combine region over one
// or more tiles) with a bit-serial butterfly that works for any layout whose
// bases move each bit of the axis coordinate with exactly one register, lane
// or warp bit. Every element keeps two partials (one value per operand):
// `prefix`, the combination of its aligned block of 2^i positions up to
// itself in scan order, and `total`, that of the whole block. Step i pairs
// each element with the one whose axis coordinate differs in bit i (its
// partner block) and sets
//
//   total  = earlier total (+) later total
//   prefix = partner total (+) prefix   if the partner block comes first
//
// where (+) is the combination, whose left operand is always the earlier in
// scan order (a combine region need not be commutative; sums and products
// are, and skip the selects that order their operands). The partner block
// comes first when bit i of the position is set (clear for a reverse scan,
// which runs from the end). The partner lives in another register of the
// same thread, in lane `lane ^ (1 << b)` (one `shfl.sync.bfly`), or in
// another warp (through shared memory: barrier; store totals at their
// row-major index; barrier; load the partner's), depending on which bit moves
// the coordinate. Consecutive warp bits (two or more, as in the usual
// layouts, where warps split the axis last) share one exchange: every block
// stores its total once, and each thread reads the totals of its group's
// blocks and combines those before its own in scan order (one barrier pair
// instead of one per bit, as Triton's scan). Copies of elements compute the
// same values side by side.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Where a bit of the axis coordinate comes from.
struct AxisBitSource {
  enum Kind { Register, Lane, Warp } kind;
  unsigned bit;
};

/// A partial scan: one value per operand.
using Partial = SmallVector<Value, 2>;

/// `a + b` (or `a * b` for a product scan) for the scan's element type.
static Partial combine(OpBuilder &b, Location loc, ScanKind kind, ValueRange x,
                       ValueRange y) {
  bool isFloat = isa<FloatType>(x[0].getType());
  if (kind == ScanKind::Prod)
    return {isFloat ? Value(LLVM::FMulOp::create(b, loc, x[0], y[0]))
                    : Value(LLVM::MulOp::create(b, loc, x[0], y[0]))};
  return {isFloat ? Value(LLVM::FAddOp::create(b, loc, x[0], y[0]))
                  : Value(LLVM::AddOp::create(b, loc, x[0], y[0]))};
}

/// How a scan combines its partials.
struct ScanSpec {
  /// The operand type (every operand has its layout) and the axis.
  RankedTensorType type;
  unsigned axis;
  bool reverse;
  /// The converted element types of the operands.
  SmallVector<Type> types;
  /// The combination of two partials, `x` earlier in scan order.
  llvm::function_ref<Partial(ValueRange x, ValueRange y)> combine;
  /// Whether the combination may take its operands in either order.
  bool commutative;
};

/// Emits the scan of `op` (tile.scan or tile.combine_scan) over the
/// registers `operands` (one list per operand) and returns the registers of
/// each result.
static FailureOr<SmallVector<SmallVector<Value>>>
emitScan(Operation *op, ConversionPatternRewriter &rewriter,
         const ScanSpec &spec, ArrayRef<SmallVector<Value>> operands) {
  Location loc = op->getLoc();
  RankedTensorType type = spec.type;
  unsigned axis = spec.axis;
  bool reverse = spec.reverse;
  std::optional<TileDistribution> dist = TileDistribution::get(type);
  if (!dist ||
      !llvm::all_of(spec.types, [](Type t) { return t && t.isIntOrFloat(); })) {
    op->emitOpError("layout or element type is not supported");
    return failure();
  }

  // Find the source of each bit of the axis coordinate.
  int64_t size = type.getDimSize(axis);
  unsigned axisBits = llvm::Log2_64(size);
  SmallVector<std::optional<AxisBitSource>> sources(axisBits);
  bool supported = true;
  auto record = [&](ArrayRef<int64_t> basis, AxisBitSource source) {
    BitKind k = classifyBasis(basis, axis);
    if (k == BitKind::Mixed ||
        (k == BitKind::Axis && !llvm::isPowerOf2_64(basis[axis]))) {
      supported = false;
      return;
    }
    if (k != BitKind::Axis)
      return;
    unsigned i = llvm::Log2_64(basis[axis]);
    if (sources[i])
      supported = false;
    sources[i] = source;
  };
  for (unsigned b = 0; b < dist->getNumRegisterBits(); ++b)
    record(dist->getRegisterBasis(b), {AxisBitSource::Register, b});
  for (unsigned b = 0; b < TileDistribution::getNumLaneBits(); ++b)
    record(dist->getLaneBasis(b), {AxisBitSource::Lane, b});
  for (unsigned b = 0; b < dist->getNumWarpBits(); ++b)
    record(dist->getWarpBasis(b), {AxisBitSource::Warp, b});
  if (!supported || llvm::any_of(sources, [](auto &s) { return !s; })) {
    op->emitOpError("layout is not supported by the scan lowering");
    return failure();
  }
  bool usesWarps = llvm::any_of(
      sources, [](auto &s) { return s->kind == AxisBitSource::Warp; });
  if (usesWarps && failed(checkSharedMemory(op, getScratchBytes(op))))
    return failure();

  int64_t numRegs = dist->getNumRegisters();
  SmallVector<Partial> prefix(numRegs);
  for (int64_t r = 0; r < numRegs; ++r)
    for (const SmallVector<Value> &operand : operands)
      prefix[r].push_back(operand[r]);
  SmallVector<Partial> total = prefix;
  SmallVector<SmallVector<Value>> indices;
  if (usesWarps)
    indices = emitIndices(rewriter, loc, type);
  Value lane = getLaneId(rewriter, loc);
  Value warp = getWarpId(rewriter, loc);
  SmallVector<Value> bases;
  if (usesWarps) {
    SmallVector<int64_t> offsets = getCombineScratchOffsets(op);
    for (size_t k = 0; k < spec.types.size(); ++k)
      bases.push_back(getScratchBase(rewriter, loc, op, offsets[k]));
  }
  // Totals are often shared by registers (after register steps): combine
  // each distinct pair once.
  using Key = std::vector<const void *>;
  auto keyOf = [](ValueRange x, ValueRange y) {
    Key key;
    for (Value v : llvm::concat<const Value>(x, y))
      key.push_back(v.getAsOpaquePointer());
    return key;
  };
  auto select = [&](Value condition, ValueRange x, ValueRange y) {
    Partial p;
    for (auto [a, b] : llvm::zip(x, y))
      p.push_back(LLVM::SelectOp::create(rewriter, loc, condition, a, b));
    return p;
  };

  // Whether the running thread's position has bit `bit` of `id` set
  // (clear for a reverse scan): its partner block comes first.
  auto partnerFirst = [&](Value id, unsigned bit) -> Value {
    Value set = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, id,
                             i32Constant(rewriter, loc, bit)),
        i32Constant(rewriter, loc, 1));
    return LLVM::ICmpOp::create(rewriter, loc,
                                reverse ? LLVM::ICmpPredicate::eq
                                        : LLVM::ICmpPredicate::ne,
                                set, i32Constant(rewriter, loc, 0));
  };

  // The totals of the partner blocks across lane or warp bit `i` (one per
  // register), and whether the partner block comes first. Registers whose
  // `shared` bits are set hold the total of the register without them, which
  // alone goes through shared memory.
  auto exchange = [&](unsigned i, ArrayRef<Partial> totals,
                      SmallVectorImpl<Partial> &partner,
                      int64_t shared) -> Value {
    const AxisBitSource &source = *sources[i];
    partner.assign(numRegs, Partial());
    if (source.kind == AxisBitSource::Lane) {
      std::map<Key, Partial> shuffled;
      for (int64_t r = 0; r < numRegs; ++r) {
        Partial &s = shuffled[keyOf(totals[r], {})];
        if (s.empty())
          for (Value v : totals[r])
            s.push_back(shuffleXor(rewriter, loc, v, 1u << source.bit));
        partner[r] = s;
      }
      return partnerFirst(lane, source.bit);
    }
    emitBarrier(rewriter, loc);
    for (int64_t r = 0; r < numRegs; ++r) {
      if (dist->isDuplicateRegister(r) || (r & shared))
        continue;
      Value at = linearizeIndex(rewriter, loc, indices[r], type.getShape());
      for (auto [base, value] : llvm::zip(bases, totals[r]))
        storeShared(rewriter, loc, base, at, value);
    }
    emitBarrier(rewriter, loc);
    std::map<Key, Partial> loaded;
    for (int64_t r = 0; r < numRegs; ++r) {
      Partial &p = loaded[keyOf(totals[r], {})];
      if (p.empty()) {
        SmallVector<Value> coords = indices[r];
        coords[axis] =
            LLVM::XOrOp::create(rewriter, loc, coords[axis],
                                i32Constant(rewriter, loc, int64_t(1) << i));
        Value at = linearizeIndex(rewriter, loc, coords, type.getShape());
        for (auto [base, elemType] : llvm::zip(bases, spec.types))
          p.push_back(loadShared(rewriter, loc, base, at, elemType));
      }
      partner[r] = p;
    }
    return partnerFirst(warp, source.bit);
  };
  // The combination of the totals of two partner blocks.
  auto combineTotals = [&](Value first, const Partial &total,
                           const Partial &partner) {
    return spec.commutative ? spec.combine(total, partner)
                            : spec.combine(select(first, partner, total),
                                           select(first, total, partner));
  };

  // Bits [lo, lo + k) of the axis coordinate all come from warp bits (k >=
  // 2): the totals of the blocks of 2^lo positions (`totals`, equal on
  // registers that differ in `lowRegisters` bits only) go through shared
  // memory at once, each at its block's first position, instead of one
  // exchange (a barrier pair) per bit. Each register gets the combination
  // of the blocks of its group (2^k blocks) before its own in scan order
  // (`before`; the result says whether there is one: the same for every
  // register, the block index coming from warp bits only) and, with
  // `wantTotal`, the group's total.
  auto exchangeBlocks = [&](unsigned lo, unsigned k, ArrayRef<Partial> totals,
                            int64_t lowRegisters, bool wantTotal,
                            SmallVectorImpl<Partial> &before,
                            SmallVectorImpl<Partial> &groupTotal) -> Value {
    int64_t numBlocks = int64_t(1) << k;
    auto notMask = [&](unsigned bits) {
      return i32Constant(rewriter, loc, ~((int64_t(1) << bits) - 1));
    };
    emitBarrier(rewriter, loc);
    for (int64_t r = 0; r < numRegs; ++r) {
      if (dist->isDuplicateRegister(r) || (r & lowRegisters))
        continue;
      SmallVector<Value> coords = indices[r];
      coords[axis] =
          LLVM::AndOp::create(rewriter, loc, coords[axis], notMask(lo));
      Value at = linearizeIndex(rewriter, loc, coords, type.getShape());
      for (auto [base, value] : llvm::zip(bases, totals[r]))
        storeShared(rewriter, loc, base, at, value);
    }
    emitBarrier(rewriter, loc);
    Value block = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, indices[0][axis],
                             i32Constant(rewriter, loc, lo)),
        i32Constant(rewriter, loc, numBlocks - 1));
    before.assign(numRegs, Partial());
    groupTotal.assign(numRegs, Partial());
    Value anyBefore;
    for (int64_t r = 0; r < numRegs; ++r) {
      int64_t representative = r & ~lowRegisters;
      if (representative != r) {
        before[r] = before[representative];
        groupTotal[r] = groupTotal[representative];
        continue;
      }
      Value group =
          LLVM::AndOp::create(rewriter, loc, indices[r][axis], notMask(lo + k));
      Value valid;
      // Blocks in scan order; the last precedes none.
      for (int64_t n = 0; n < numBlocks - (wantTotal ? 0 : 1); ++n) {
        int64_t other = reverse ? numBlocks - 1 - n : n;
        SmallVector<Value> coords = indices[r];
        coords[axis] = LLVM::OrOp::create(
            rewriter, loc, group, i32Constant(rewriter, loc, other << lo));
        Value at = linearizeIndex(rewriter, loc, coords, type.getShape());
        Partial t;
        for (auto [base, elemType] : llvm::zip(bases, spec.types))
          t.push_back(loadShared(rewriter, loc, base, at, elemType));
        if (wantTotal)
          groupTotal[r] = n == 0 ? t : spec.combine(groupTotal[r], t);
        if (n == numBlocks - 1)
          break;
        // The blocks before this thread's are a prefix of the order.
        Value precedes = LLVM::ICmpOp::create(
            rewriter, loc,
            reverse ? LLVM::ICmpPredicate::ult : LLVM::ICmpPredicate::ugt,
            block, i32Constant(rewriter, loc, other));
        if (!valid) {
          before[r] = t;
          valid = precedes;
          continue;
        }
        before[r] = select(precedes, spec.combine(before[r], t), before[r]);
        valid = LLVM::OrOp::create(rewriter, loc, valid, precedes);
      }
      if (!anyBefore)
        anyBefore = valid;
    }
    return anyBefore;
  };

  // The low bits of the axis coordinate come from registers (a thread holds
  // runs of consecutive elements): each run is scanned in order within the
  // thread, and only the runs' totals cross lanes and warps, gathering the
  // combination of the runs before (`before`, valid once a partner block came
  // first), which then goes in front of every element of the run.
  unsigned runBits = 0;
  while (runBits < axisBits &&
         sources[runBits]->kind == AxisBitSource::Register)
    ++runBits;
  bool contiguousRuns =
      llvm::all_of(ArrayRef(sources).drop_front(runBits),
                   [](auto &s) { return s->kind != AxisBitSource::Register; });
  if (runBits > 0 && contiguousRuns) {
    int64_t runMask = 0;
    for (unsigned i = 0; i < runBits; ++i)
      runMask |= int64_t(1) << sources[i]->bit;
    // The register of position k of the run starting at register `base`.
    auto registerAt = [&](int64_t base, int64_t k) {
      int64_t r = base;
      for (unsigned i = 0; i < runBits; ++i)
        if (k & (int64_t(1) << i))
          r |= int64_t(1) << sources[i]->bit;
      return r;
    };
    int64_t runLength = int64_t(1) << runBits;
    SmallVector<Partial> runTotal(numRegs);
    for (int64_t base = 0; base < numRegs; ++base) {
      if (base & runMask)
        continue;
      for (int64_t step = 1; step < runLength; ++step) {
        int64_t k = reverse ? runLength - 1 - step : step;
        int64_t previous = reverse ? k + 1 : k - 1;
        prefix[registerAt(base, k)] = spec.combine(
            prefix[registerAt(base, previous)], prefix[registerAt(base, k)]);
      }
      Partial last = prefix[registerAt(base, reverse ? 0 : runLength - 1)];
      for (int64_t k = 0; k < runLength; ++k)
        runTotal[registerAt(base, k)] = last;
    }
    SmallVector<Partial> before(numRegs);
    Value valid;
    // Two warp bits or more at the top of the axis (the common layouts) go
    // through shared memory at once: every warp block's total is stored,
    // and each thread combines the totals of the blocks before its own
    // (one barrier pair instead of one per warp bit).
    unsigned warpFrom = axisBits;
    while (warpFrom > runBits &&
           sources[warpFrom - 1]->kind == AxisBitSource::Warp)
      --warpFrom;
    unsigned bitwiseEnd = axisBits - warpFrom >= 2 ? warpFrom : axisBits;
    for (unsigned i = runBits; i < bitwiseEnd; ++i) {
      SmallVector<Partial> partner;
      Value first = exchange(i, runTotal, partner, runMask);
      std::map<Key, std::pair<Partial, Partial>> updated;
      for (int64_t r = 0; r < numRegs; ++r) {
        auto &[newBefore, newTotal] = updated[keyOf(runTotal[r], before[r])];
        if (newTotal.empty()) {
          Partial joined =
              valid ? select(valid, spec.combine(partner[r], before[r]),
                             partner[r])
                    : partner[r];
          newBefore = valid ? select(first, joined, before[r]) : joined;
          newTotal = combineTotals(first, runTotal[r], partner[r]);
        }
        before[r] = newBefore;
        runTotal[r] = newTotal;
      }
      valid = valid ? Value(LLVM::OrOp::create(rewriter, loc, valid, first))
                    : first;
    }
    if (bitwiseEnd < axisBits) {
      SmallVector<Partial> fromBlocks, unused;
      Value blocksValid =
          exchangeBlocks(warpFrom, axisBits - warpFrom, runTotal, runMask,
                         /*wantTotal=*/false, fromBlocks, unused);
      // The blocks before, then the runs before within the block.
      for (int64_t r = 0; r < numRegs; ++r) {
        if (!valid) {
          before[r] = fromBlocks[r];
          continue;
        }
        Partial both = select(valid, spec.combine(fromBlocks[r], before[r]),
                              fromBlocks[r]);
        before[r] = select(blocksValid, both, before[r]);
      }
      valid = valid
                  ? Value(LLVM::OrOp::create(rewriter, loc, valid, blocksValid))
                  : blocksValid;
    }
    if (valid)
      for (int64_t r = 0; r < numRegs; ++r)
        prefix[r] =
            select(valid, spec.combine(before[r], prefix[r]), prefix[r]);
  } else {
    // Any layout: every element keeps its prefix and its block's total
    // through every bit.
    for (unsigned i = 0; i < axisBits; ++i) {
      const AxisBitSource &source = *sources[i];
      if (source.kind == AxisBitSource::Register) {
        int64_t mask = int64_t(1) << source.bit;
        std::map<Key, Partial> totals;
        for (int64_t lo = 0; lo < numRegs; ++lo) {
          if (lo & mask)
            continue;
          int64_t hi = lo | mask; // holds the position with bit i set
          int64_t first = reverse ? hi : lo, second = reverse ? lo : hi;
          Partial &sum = totals[keyOf(total[first], total[second])];
          if (sum.empty())
            sum = spec.combine(total[first], total[second]);
          prefix[second] = spec.combine(total[first], prefix[second]);
          total[lo] = total[hi] = sum;
        }
        continue;
      }
      unsigned warpRun = 0;
      while (i + warpRun < axisBits &&
             sources[i + warpRun]->kind == AxisBitSource::Warp)
        ++warpRun;
      if (warpRun >= 2) {
        int64_t lowRegisters = 0;
        for (unsigned j = 0; j < i; ++j)
          if (sources[j]->kind == AxisBitSource::Register)
            lowRegisters |= int64_t(1) << sources[j]->bit;
        SmallVector<Partial> before, groupTotal;
        Value anyBefore =
            exchangeBlocks(i, warpRun, total, lowRegisters,
                           /*wantTotal=*/true, before, groupTotal);
        for (int64_t r = 0; r < numRegs; ++r) {
          prefix[r] =
              select(anyBefore, spec.combine(before[r], prefix[r]), prefix[r]);
          total[r] = groupTotal[r];
        }
        i += warpRun - 1;
        continue;
      }
      SmallVector<Partial> partner;
      Value first = exchange(i, total, partner, /*shared=*/0);
      std::map<Key, Partial> totals;
      for (int64_t r = 0; r < numRegs; ++r) {
        prefix[r] =
            select(first, spec.combine(partner[r], prefix[r]), prefix[r]);
        Partial &sum = totals[keyOf(total[r], partner[r])];
        if (sum.empty())
          sum = combineTotals(first, total[r], partner[r]);
        total[r] = sum;
      }
    }
  }
  SmallVector<SmallVector<Value>> results(operands.size());
  for (const Partial &p : prefix)
    for (auto [k, v] : llvm::enumerate(p))
      results[k].push_back(v);
  return results;
}

struct ScanOpLowering : public OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ScanKind kind = op.getKind();
    Type llvmType = getTypeConverter()->convertType(op.getType());
    auto combineKind = [&](ValueRange x, ValueRange y) {
      return combine(rewriter, loc, kind, x, y);
    };
    ScanSpec spec{
        op.getType(),
        static_cast<unsigned>(op.getAxis()),
        op.getReverse(),
        {getTypeConverter()->convertType(op.getType().getElementType())},
        combineKind,
        /*commutative=*/true};
    SmallVector<SmallVector<Value>> operands = {
        unpackRegisters(rewriter, loc, adaptor.getSrc())};
    FailureOr<SmallVector<SmallVector<Value>>> results =
        emitScan(op, rewriter, spec, operands);
    if (!llvmType || failed(results))
      return failure();
    rewriter.replaceOp(op,
                       packRegisters(rewriter, loc, llvmType, (*results)[0]));
    return success();
  }
};

struct CombineScanOpLowering : public OpConversionPattern<CombineScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CombineScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<SmallVector<Value>> operands;
    SmallVector<Type> types;
    for (auto [src, converted] : llvm::zip(op.getSrcs(), adaptor.getSrcs())) {
      operands.push_back(unpackRegisters(rewriter, loc, converted));
      types.push_back(
          getTypeConverter()->convertType(getElementTypeOrSelf(src.getType())));
    }
    auto combineRegion = [&](ValueRange x, ValueRange y) {
      return Partial(inlineScalarRegion(
          rewriter, op.getCombine(), llvm::to_vector(llvm::concat<Value>(x, y)),
          types));
    };
    ScanSpec spec{cast<RankedTensorType>(op.getSrcs()[0].getType()),
                  static_cast<unsigned>(op.getAxis()),
                  op.getReverse(),
                  types,
                  combineRegion,
                  /*commutative=*/false};
    FailureOr<SmallVector<SmallVector<Value>>> results =
        emitScan(op, rewriter, spec, operands);
    if (failed(results))
      return failure();
    SmallVector<Value> packed;
    for (auto [result, registers] : llvm::zip(op.getResults(), *results))
      packed.push_back(packRegisters(
          rewriter, loc, getTypeConverter()->convertType(result.getType()),
          registers));
    rewriter.replaceOp(op, packed);
    return success();
  }
};

} // namespace

void tilec::populateScanOpToLLVMPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<ScanOpLowering, CombineScanOpLowering>(converter,
                                                      patterns.getContext());
}
