//===- AxisInfo.cpp - Contiguity and alignment of tile values ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Transfer functions of the AxisInfo analysis. Every quantity is a power of
// two (or 1), so combining runs is a gcd, which for powers of two is a min.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/AxisInfo.h"
#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec::tile;

/// Divisibility claimed for zero and other values with many trailing zeros.
static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

static int64_t largestPowerOfTwoDividing(int64_t v) {
  if (v == 0)
    return kMaxDivisibility;
  uint64_t u = v < 0 ? -uint64_t(v) : uint64_t(v);
  return std::min<int64_t>(kMaxDivisibility, int64_t(u & -u));
}

static SmallVector<int64_t> shapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

AxisInfo AxisInfo::unknown(unsigned rank) {
  AxisInfo info;
  info.contiguity.assign(rank, 1);
  info.divisibility.assign(rank, 1);
  info.constancy.assign(rank, 1);
  return info;
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](StringRef name, ArrayRef<int64_t> v) {
    os << name << " = [";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  list("contiguity", contiguity);
  os << ", ";
  list("divisibility", divisibility);
  os << ", ";
  list("constancy", constancy);
  if (constant)
    os << ", constant = " << *constant;
}

/// Info of a value equal to `c` everywhere in a tile of `shape`.
static AxisInfo constantInfo(ArrayRef<int64_t> shape, int64_t c) {
  AxisInfo info = AxisInfo::unknown(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.divisibility[d] = largestPowerOfTwoDividing(c);
    info.constancy[d] = shape[d];
  }
  info.constant = c;
  return info;
}

const AxisInfo &AxisInfoAnalysis::get(Value value) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  AxisInfo info = compute(value);
  return cache.try_emplace(value, std::move(info)).first->second;
}

/// The largest power of two dividing `v` (> 0): what a hint of `v` gives
/// an analysis whose facts are powers of two.
static int64_t powerOfTwoPart(int64_t v) {
  return int64_t(uint64_t(v) & -uint64_t(v));
}

AxisInfo AxisInfoAnalysis::compute(Value value) {
  AxisInfo info = computeUnhinted(value);
  Operation *op = value.getDefiningOp();
  if (!op || op->getNumResults() != 1)
    return info;
  auto apply = [&](AxisHint kind, SmallVectorImpl<int64_t> &facts) {
    ArrayRef<int64_t> hint = getAxisHint(op, kind);
    if (hint.size() != facts.size())
      return;
    for (auto [fact, h] : llvm::zip_equal(facts, hint))
      fact = std::max(fact, std::min(kMaxDivisibility, powerOfTwoPart(h)));
  };
  apply(AxisHint::Divisibility, info.divisibility);
  apply(AxisHint::Contiguity, info.contiguity);
  apply(AxisHint::Constancy, info.constancy);
  return info;
}

AxisInfo AxisInfoAnalysis::computeUnhinted(Value value) {
  SmallVector<int64_t> shape = shapeOf(value.getType());
  unsigned rank = shape.size();
  AxisInfo result = AxisInfo::unknown(rank);

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    auto func = dyn_cast<func::FuncOp>(parent);
    if (func && arg.getOwner()->isEntryBlock())
      if (std::optional<int64_t> hint =
              getDivisibility(func, arg.getArgNumber()))
        result.divisibility.assign(rank, *hint);
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      return computeLoopArgument(loop, arg);
    return result;
  }

  Operation *op = value.getDefiningOp();
  APInt intValue;
  if (matchPattern(value, m_ConstantInt(&intValue)))
    return constantInfo(shape, intValue.getSExtValue());

  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    result.contiguity[0] = shape[0];
    result.divisibility[0] = largestPowerOfTwoDividing(range.getStart());
    return result;
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    const AxisInfo &src = get(splat.getSrc());
    for (unsigned d = 0; d < rank; ++d) {
      result.divisibility[d] = src.divisibility[0];
      result.constancy[d] = shape[d];
    }
    result.constant = src.constant;
    return result;
  }
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
          ConvertLayoutOp>(op))
    return get(op->getOperand(0));
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    // The new dimension has size 1: each element is its own run, divisible
    // as every element of the operand is (which consecutive values are not).
    AxisInfo src = get(expand.getSrc());
    if (src.getRank() + 1 != rank)
      return result;
    unsigned axis = expand.getAxis();
    int64_t elementDivisibility = 1;
    for (unsigned d = 0; d < src.getRank(); ++d)
      elementDivisibility =
          d == 0 ? (src.contiguity[d] > 1 ? 1 : src.divisibility[d])
                 : std::min(elementDivisibility,
                            src.contiguity[d] > 1 ? 1 : src.divisibility[d]);
    src.contiguity.insert(src.contiguity.begin() + axis, 1);
    src.constancy.insert(src.constancy.begin() + axis, 1);
    src.divisibility.insert(src.divisibility.begin() + axis,
                            elementDivisibility);
    return src;
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    // Along a broadcast dimension every element repeats the operand's.
    AxisInfo src = get(broadcast.getSrc());
    auto srcShape =
        cast<RankedTensorType>(broadcast.getSrc().getType()).getShape();
    if (src.getRank() != rank)
      return result;
    for (unsigned d = 0; d < rank; ++d)
      if (srcShape[d] == 1 && shape[d] != 1) {
        src.contiguity[d] = 1;
        src.constancy[d] = shape[d];
      }
    return src;
  }

  if (op->getNumOperands() == 2 &&
      isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, AddPtrOp, arith::RemSIOp,
          arith::RemUIOp, arith::DivSIOp, arith::DivUIOp, arith::AndIOp,
          arith::OrIOp, arith::CmpIOp>(op)) {
    const AxisInfo lhs = get(op->getOperand(0));
    const AxisInfo rhs = get(op->getOperand(1));
    if (lhs.getRank() != rank || rhs.getRank() != rank)
      return result;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t constancy = std::min(lhs.constancy[d], rhs.constancy[d]);
      result.constancy[d] = constancy;
      bool lhsConst = lhs.constancy[d] == shape[d];
      bool rhsConst = rhs.constancy[d] == shape[d];
      int64_t cl = lhs.contiguity[d], cr = rhs.contiguity[d];
      int64_t dl = lhs.divisibility[d], dr = rhs.divisibility[d];
      if (isa<arith::AddIOp>(op)) {
        result.contiguity[d] = std::max(std::min(cl, rhs.constancy[d]),
                                        std::min(cr, lhs.constancy[d]));
        result.divisibility[d] = std::min(dl, dr);
      } else if (isa<arith::SubIOp>(op)) {
        result.contiguity[d] = std::min(cl, rhs.constancy[d]);
        result.divisibility[d] = std::min(dl, dr);
      } else if (auto addptr = dyn_cast<AddPtrOp>(op)) {
        Type pointee = cast<PtrType>(getElementTypeOrSelf(addptr.getType()))
                           .getPointeeType();
        int64_t bytes = getStorageBytes(pointee);
        // Consecutive offsets from one pointer, or consecutive pointers
        // moved by one offset, stay consecutive.
        result.contiguity[d] = std::max(std::min(cr, lhs.constancy[d]),
                                        std::min(cl, rhs.constancy[d]));
        result.divisibility[d] =
            std::min(dl, std::min(kMaxDivisibility, dr * bytes));
      } else if (isa<arith::MulIOp>(op) &&
                 (lhs.constant == 1 || rhs.constant == 1)) {
        // x * 1 is x.
        const AxisInfo &other = lhs.constant == 1 ? rhs : lhs;
        result.contiguity[d] = other.contiguity[d];
        result.divisibility[d] = other.divisibility[d];
        result.constancy[d] = other.constancy[d];
      } else if (isa<arith::MulIOp>(op)) {
        // A run of consecutive values times a constant is divisible by the
        // constant's divisibility only; two runs of equal values multiply.
        if (lhsConst && rhsConst)
          result.divisibility[d] = std::min(kMaxDivisibility, dl * dr);
        else if (rhsConst && lhs.constancy[d] > 1)
          result.divisibility[d] = std::min(kMaxDivisibility, dl * dr);
        else if (lhsConst && rhs.constancy[d] > 1)
          result.divisibility[d] = std::min(kMaxDivisibility, dl * dr);
        else if (rhsConst)
          result.divisibility[d] = dr;
        else if (lhsConst)
          result.divisibility[d] = dl;
      } else if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
        // (run of consecutive values) % m stays consecutive within blocks of
        // m's divisibility, when the run starts at such a block.
        if (rhsConst)
          result.contiguity[d] = std::min(cl, std::min(dl, dr));
        result.divisibility[d] = std::min(dl, dr);
      } else if (isa<arith::DivSIOp, arith::DivUIOp>(op)) {
        // A multiple of dl over a positive divisor c of dl is exact: a
        // multiple of dl / c (fp4 bytes: K // 2 with K a multiple of 16).
        // Unsigned, consecutive values from a multiple of c (a power of
        // two) have equal quotients over each block of c (signed, -1 / 2
        // and -2 / 2 differ).
        if (rhs.constant && *rhs.constant > 0) {
          int64_t c = *rhs.constant;
          if (dl % c == 0)
            result.divisibility[d] = dl / c;
          if (isa<arith::DivUIOp>(op) && llvm::isPowerOf2_64(c))
            result.constancy[d] =
                std::max(constancy, std::min(cl, std::min(dl, c)));
        }
      } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
        // `offs < n` and `offs >= n`, with offs consecutive and aligned and
        // n equally aligned, are equal over each aligned block. Not `<=`,
        // `>`, `==`, `!=`: they change inside the block that starts at n.
        using arith::CmpIPredicate;
        CmpIPredicate p = cmp.getPredicate();
        bool lhsRuns = p == CmpIPredicate::slt || p == CmpIPredicate::ult ||
                       p == CmpIPredicate::sge || p == CmpIPredicate::uge;
        bool rhsRuns = p == CmpIPredicate::sgt || p == CmpIPredicate::ugt ||
                       p == CmpIPredicate::sle || p == CmpIPredicate::ule;
        if (lhsRuns && rhsConst)
          result.constancy[d] =
              std::max(constancy, std::min(cl, std::min(dl, dr)));
        else if (rhsRuns && lhsConst)
          result.constancy[d] =
              std::max(constancy, std::min(cr, std::min(dl, dr)));
      }
    }
    if (lhs.constant && rhs.constant) {
      if (isa<arith::AddIOp>(op))
        result.constant = *lhs.constant + *rhs.constant;
      else if (isa<arith::MulIOp>(op))
        result.constant = *lhs.constant * *rhs.constant;
      else if (isa<arith::SubIOp>(op))
        result.constant = *lhs.constant - *rhs.constant;
    }
    return result;
  }
  return result;
}

/// What holds for both `a` and `b`: the weaker of each fact.
static AxisInfo meet(const AxisInfo &a, const AxisInfo &b) {
  AxisInfo m = AxisInfo::unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    m.contiguity[d] = std::min(a.contiguity[d], b.contiguity[d]);
    m.divisibility[d] = std::min(a.divisibility[d], b.divisibility[d]);
    m.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
  }
  if (a.constant == b.constant)
    m.constant = a.constant;
  return m;
}

static bool operator==(const AxisInfo &a, const AxisInfo &b) {
  return a.contiguity == b.contiguity && a.divisibility == b.divisibility &&
         a.constancy == b.constancy && a.constant == b.constant;
}

AxisInfo AxisInfoAnalysis::computeLoopArgument(scf::ForOp loop,
                                               BlockArgument arg) {
  if (arg == loop.getInductionVar()) {
    // lower + i * step: each value divisible as both are.
    AxisInfo iv = AxisInfo::unknown(1);
    iv.divisibility[0] = std::min(get(loop.getLowerBound()).divisibility[0],
                                  get(loop.getStep()).divisibility[0]);
    return iv;
  }
  // A loop-carried value: assume what holds for its initial value, compute
  // the value yielded back under that assumption, and weaken the assumption
  // until both agree (a fixpoint, reached in a few rounds because each round
  // only lowers powers of two).
  unsigned index = arg.getArgNumber() - loop.getNumInductionVars();
  Value init = loop.getInitArgs()[index];
  Value yielded = loop.getBody()->getTerminator()->getOperand(index);
  AxisInfo assumed = get(init);
  for (int round = 0; round < 8; ++round) {
    AxisInfoAnalysis inner;
    inner.cache = cache;
    inner.cache[arg] = assumed;
    AxisInfo next = meet(assumed, inner.get(yielded));
    if (next == assumed)
      return assumed;
    assumed = next;
  }
  return AxisInfo::unknown(assumed.getRank());
}

int64_t AxisInfoAnalysis::getVectorWidth(Value ptr, Value mask, unsigned dim,
                                         int64_t maxElems) {
  const AxisInfo &info = get(ptr);
  Type pointee =
      cast<PtrType>(getElementTypeOrSelf(ptr.getType())).getPointeeType();
  int64_t bytes = getStorageBytes(pointee);
  int64_t width = std::min(maxElems, info.contiguity[dim]);
  width = std::min(width, std::max<int64_t>(1, info.divisibility[dim] / bytes));
  if (mask)
    width = std::min(width, get(mask).constancy[dim]);
  return std::max<int64_t>(1, width);
}
