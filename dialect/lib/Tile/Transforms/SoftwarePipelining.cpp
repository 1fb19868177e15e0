//===- SoftwarePipelining.cpp - Shared-memory rings of K loops --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-pipeline. A loop whose body multiplies two tiles it loads
// on wgmma (a dot with a `#tile.mma` version 3 result) gets a ring of
// `R = num-stages` shared-memory slots per operand; the loads become
// asynchronous copies issued `D = R - 1` iterations ahead, and the product
// reads its operands from the ring:
//
//   for s in [0, D): copy stage s into slot s; commit
//   for i, args, ahead = args(D), read = 0, write = D:
//     wait until stage i has landed (at most D - 1 groups in flight)
//     copy stage i + D (from `ahead`) into slot `write`; commit
//     acc = warp_group_dot(slot `read` of A, slot `read` of B, acc)
//     yield args', ahead', read + 1 mod R, write + 1 mod R
//   wait for every group
//
// The wait ends with a barrier, after which every warp group has finished
// the product of iteration i - 1, so slot `write` (stage i - 1's) is free.
//
// When the program has its SM alone and the accumulator only flows from
// one product to the next, the product stays in flight instead
// (`isAsync`, then `warp_group_dot_wait {pending = 1}`: the previous
// product is complete) and D = R - 2: after the barrier every warp group has
// finished the product of iteration i - 2, whose slot `write` then is. After
// the loop, `warp_group_dot_wait {pending = 0}` completes the last one; the
// accumulator enters the loop through one as well (see below).
//
// A b that is `tl.trans` of a loaded tile of rows of N (`x @ w.T`) is
// copied as loaded, K contiguous, and the product reads its slot through
// `tile.smem_trans` (K-major B, any type).
//
// A 32-bit B read from rows of N is copied N-major when the accumulator is
// transposed (the product loads b^T from the slot into registers); else, as
// an 8-bit B always (tf32 and 8-bit wgmma read B only K-major), it is staged
// through registers: plain loads of the stage's tile, which the threads store
// into its slot (vectors of K, with the layout tile-coalesce gave the load)
// while the iteration's product runs (started asynchronously, then waited for).
// When D >= 2 the tile of stage i + D is loaded in iteration i and stored in
// iteration i + 1 (the loop carries it, so that the loads' latency spans an
// iteration), else loaded and stored in iteration i. The next iteration's wait
// (a fence and a barrier) makes the stores visible to wgmma.
//
// With TMA (both operands loads of 2-D tensor descriptors, or of block
// pointers whose alignment the hints prove), the copies are
// `tile.async_tma_copy`s counted on one mbarrier per slot: the stage's
// copies are armed with its bytes, each iteration waits on the barrier of
// slot `read` with the phase parity the loop carries, and a plain barrier at
// the top of the iteration frees slot `write`. The kernel gets a tensor-map
// parameter per operand (the module's `tile.tma` says how to build it). On
// sm_90a the pass also turns stores of such descriptors into
// `tile.async_tma_store`.
// Copies of stages past the last iteration are masked off (zero-filled
// without reading memory); the wait after the loop keeps those writes from
// landing in memory the code after the loop reuses.
//
// A loop of several products with 16-bit operands (attention's q @ k^T and
// p @ v) is pipelined with cp.async: each tile the body loads for products
// only, read by one or several, as it is or through tl.trans, gets a ring
// (one commit group a stage for all of them; tile.smem_trans views a slot
// transposed); an A the body computes whose threads hold wgmma's register
// fragments (p) stays in registers; every other operand gets a buffer, stored
// once before the loop if the loop does not change it (q), else before its
// product, followed by a proxy fence and a barrier. The products are
// synchronous, except the last when the loop only carries its 32-bit
// result: it stays in flight into the next iteration, whose first product
// waits for it, and the accumulator is waited for where the next iteration
// first uses it; the copies then come after the first product and a
// barrier (D = R - 1 still). When such a loop of two products (attention's
// forward) has its SM alone, its last product is deferred instead: issued
// in the next iteration right after the first, reading the p and v slot
// the loop carries, so that it runs during the online softmax (the first
// iteration multiplies zeros; the last one's product follows the loop),
// and the copies go at the top, D = R - 2. With `ping-pong` (experimental,
// off by default) such a loop's slots are guarded by mbarriers instead of a
// barrier an iteration (a full one a slot, on which every thread's copies
// arrive, waited on before the slot is read; an empty one, on which every warp
// arrives once p @ v, the slot's last reader, is done, waited on before the
// slot is refilled), so that the warp groups can drift apart, and they issue
// their products in turn (tile.await_turn, tile.pass_turn): one warp group's
// softmax runs while the next one's products do. With TMA rings the slots'
// TMA barriers are the full ones (one expect_tx a stage) and the empty ones
// guard the copies the same way. The waits of such loops have
// no proxy fence (wgmma reads what cp.async wrote after the barrier, as
// Triton's and CUTLASS's loops do); stores before the loop are fenced once.
//
//===----------------------------------------------------------------------===//

#include "LoopSlice.h"

#include "tilec/Dialect/Tile/Analysis/AxisInfo.h"
#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/Analysis/TensorCores.h"
#include "tilec/Dialect/Tile/IR/DTypes.h"
#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEPIPELINE
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
namespace abi = tilec::abi;
using namespace tilec::tile;

namespace {

/// How one operand of the product reaches shared memory.
struct OperandPlan {
  LoadOp load;
  SharedLayoutAttr layout;
  /// With TMA: how the host builds the tensor map (its parameter still 0),
  /// and the program's indices along its outer dimensions.
  TensorMapAttr tensorMap;
  SmallVector<Value> outerCoords;
  /// Loaded into registers and stored into the slot by the threads, after
  /// the iteration's product: a 32-bit B stored K-major (tf32 wgmma reads
  /// nothing else) from rows of N, whose layout gives each thread 16 bytes
  /// of K to store at once (tile-coalesce chooses such a layout).
  bool staged = false;
  /// Bytes each thread moves per copy (TMA and staged tiles: 16).
  int64_t copyBytes = 16;
  /// The product reads the slot transposed: b is `tl.trans` of a tile of
  /// rows of N (K contiguous, which is how wgmma reads B).
  bool transposed = false;
  /// With TMA: the map is of the transposed view of the load's descriptor
  /// (a block pointer of order (0, 1), whose strides are (1, S)): the slot
  /// holds the tile transposed, and the copies name the offsets reversed.
  bool swapped = false;
};

/// Whether the elements `load` reads where its mask is false are zeros.
static bool padsWithZeros(LoadOp load) {
  Value other = load.getOther();
  return !other || matchPattern(other, m_Zero()) ||
         matchPattern(other, m_AnyZeroFloat());
}

/// How the host gets a scalar of a descriptor: the kernel's argument N
/// (through integer casts), or the value of a constant.
static std::optional<abi::TensorMapSpec::Scalar> describeScalar(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp>(def))
      break;
    value = def->getOperand(0);
  }
  if (auto arg = dyn_cast<BlockArgument>(value);
      arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return abi::TensorMapSpec::Scalar::argument(arg.getArgNumber());
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return abi::TensorMapSpec::Scalar::constant(constant.getSExtValue());
  return std::nullopt;
}

/// The load in `dot`'s block whose tile operand `index` of `dot` is,
/// through layout conversions and a 2-D `tl.trans` (`transposed`), or null.
static LoadOp traceOperandLoad(DotOp dot, unsigned index, bool &transposed) {
  Value value = dot->getOperand(index);
  auto skipConversion = [&] {
    if (auto convert = value.getDefiningOp<ConvertLayoutOp>())
      value = convert.getSrc();
  };
  skipConversion();
  transposed = false;
  if (auto trans = value.getDefiningOp<TransOp>();
      trans && trans.getOrder() == ArrayRef<int32_t>{1, 0}) {
    transposed = true;
    value = trans.getSrc();
    skipConversion();
  }
  auto load = value.getDefiningOp<LoadOp>();
  if (!load || load->getBlock() != dot->getBlock())
    return LoadOp();
  return load;
}

/// The load in the dot's block whose tile is operand `index` of `dot` and
/// nothing else, through a layout conversion (which shared memory makes
/// moot) and, for b, a 2-D `tl.trans` (`transposed`: `x @ w.T` with w's
/// rows of N), or null.
static LoadOp getOperandLoad(DotOp dot, unsigned index, bool &transposed) {
  LoadOp load = traceOperandLoad(dot, index, transposed);
  if (!load || (transposed && index != 1) || !load->hasOneUse())
    return LoadOp();
  // Each conversion or transpose on the way feeds the next alone.
  for (Value v = dot->getOperand(index); v != load.getResult();
       v = v.getDefiningOp()->getOperand(0))
    if (!v.hasOneUse())
      return LoadOp();
  return load;
}

/// Whether `value` (a descriptor's base or stride) is known to be a multiple
/// of `multiple`: a constant, or a kernel argument (through integer casts)
/// whose signature hint says so.
static bool isProvenMultiple(Value value, int64_t multiple) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp>(def))
      break;
    value = def->getOperand(0);
  }
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue() % multiple == 0;
  auto arg = dyn_cast<BlockArgument>(value);
  auto func = arg ? dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())
                  : func::FuncOp();
  if (!func)
    return false;
  std::optional<int64_t> hint = getDivisibility(func, arg.getArgNumber());
  return hint && *hint % multiple == 0;
}

/// Looks through integer extensions.
static Value stripExtensions(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::ExtSIOp, arith::ExtUIOp>(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// Whether the i32 scalar `value` is never negative: a program id or count,
/// a non-negative constant, a remainder of such a value, its quotient by a
/// positive constant (unsigned: by anything), or a sum or product of such
/// values that does not overflow (nsw: tile-group-programs' launch order).
static bool isNonNegativeIndex(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return !constant.isNegative();
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<ProgramIdOp, NumProgramsOp>(def))
    return true;
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(def);
      flags && isa<arith::AddIOp, arith::MulIOp>(def) &&
      flags.hasNoSignedWrap())
    return isNonNegativeIndex(def->getOperand(0)) &&
           isNonNegativeIndex(def->getOperand(1));
  if (isa<arith::RemSIOp, arith::RemUIOp, arith::DivUIOp>(def))
    return isNonNegativeIndex(def->getOperand(0));
  if (isa<arith::DivSIOp>(def))
    return isNonNegativeIndex(def->getOperand(0)) &&
           matchPattern(def->getOperand(1), m_ConstantInt(&constant)) &&
           constant.isStrictlyPositive();
  return false;
}

/// A dimension outside the matrix a descriptor's base selects: the program
/// reads matrix `coord` (an i32 never negative) of it, `stride` elements
/// apart (`strideValue` a kernel argument or constant, times `factor`).
struct OuterIndex {
  Value coord;
  Value strideValue;
  int64_t factor = 1;
};

/// Reads `base` (a pointer scalar) as a kernel argument plus element
/// offsets `sum coord_d * stride_d` (`outer`), each term a product of one
/// index that is never negative (an i32, possibly widened) and of a kernel
/// argument or a constant, times constants: attention's
/// `Q + off_hz.to(tl.int64) * N_CTX * HEAD_DIM`. Returns the argument.
static Value decomposeBase(Value base, SmallVectorImpl<OuterIndex> &outer) {
  auto addTerm = [&](Value term) {
    SmallVector<Value> factors = {term}, leaves;
    while (!factors.empty()) {
      Value f = stripExtensions(factors.pop_back_val());
      if (auto mul = f.getDefiningOp<arith::MulIOp>()) {
        factors.append({mul.getLhs(), mul.getRhs()});
        continue;
      }
      leaves.push_back(f);
    }
    OuterIndex index;
    for (Value leaf : leaves) {
      Value plain = stripExtensions(leaf);
      APInt constant;
      if (matchPattern(plain, m_ConstantInt(&constant))) {
        index.factor *= constant.getSExtValue();
        continue;
      }
      std::optional<abi::TensorMapSpec::Scalar> host = describeScalar(plain);
      if (host && host->IsArg && !index.strideValue) {
        index.strideValue = plain;
        continue;
      }
      if (index.coord || !plain.getType().isInteger(32) ||
          !isNonNegativeIndex(plain))
        return false;
      index.coord = plain;
    }
    if (!index.coord || index.factor <= 0)
      return false;
    outer.push_back(index);
    return true;
  };
  std::function<bool(Value)> addOffsets = [&](Value offset) -> bool {
    if (auto add = offset.getDefiningOp<arith::AddIOp>())
      return addOffsets(add.getLhs()) && addOffsets(add.getRhs());
    return addTerm(offset);
  };
  while (auto add = base.getDefiningOp<AddPtrOp>()) {
    if (isa<ShapedType>(add.getType()) || !addOffsets(add.getOffset()))
      return Value();
    base = add.getPtr();
  }
  return base;
}

/// The tensor map (its parameter still 0) of the 2-D block `type` of
/// the tensor at `base` with extents `shape` and `strides`, read or written
/// in boxes of one `swizzle`-wide panel, or null when the host cannot build
/// it: base, extents and row stride must be kernel arguments or constants,
/// the last stride 1, and unless the launch checks them (`unchecked`: a
/// block pointer) the hints must prove a 16-byte aligned base and rows 16
/// bytes apart; boxes have at most 256 rows. A base that is an argument
/// plus per-program offsets (decomposeBase) makes those outer dimensions of
/// the map when `batched` allows them, each of one matrix a box, its extent
/// beyond any index (`outerCoords` gets the indices), its stride proven
/// 16-byte aligned.
static TensorMapAttr describeTensorMap(RankedTensorType type, Value base,
                                       ValueRange shape, ValueRange strides,
                                       bool unchecked, int64_t swizzle,
                                       bool batched,
                                       SmallVectorImpl<Value> &outerCoords) {
  Type element = type.getElementType();
  std::optional<abi::ScalarType> dtype = getScalarType(element);
  SmallVector<OuterIndex> outer;
  Value baseValue = decomposeBase(base, outer);
  std::optional<abi::TensorMapSpec::Scalar> baseArg =
      baseValue ? describeScalar(baseValue) : std::nullopt;
  std::optional<abi::TensorMapSpec::Scalar> rows = describeScalar(shape[0]);
  std::optional<abi::TensorMapSpec::Scalar> cols = describeScalar(shape[1]);
  std::optional<abi::TensorMapSpec::Scalar> stride = describeScalar(strides[0]);
  std::optional<abi::TensorMapSpec::Scalar> last = describeScalar(strides[1]);
  if (type.getRank() != 2 || !dtype || !abi::tensorMapElementFor(*dtype) ||
      !baseArg || !baseArg->IsArg || !rows || !cols || !stride || !last ||
      !(*last == abi::TensorMapSpec::Scalar::constant(1)) ||
      type.getDimSize(0) > 256 || (!batched && !outer.empty()) ||
      outer.size() + 2 > abi::TensorMapSpec::MaxRank)
    return TensorMapAttr();
  int64_t elemBytes = getStorageBytes(element);
  if ((unchecked || !outer.empty()) &&
      (!isProvenMultiple(baseValue, 16) ||
       !isProvenMultiple(strides[0], 16 / elemBytes)))
    return TensorMapAttr();
  // Outer dimensions: no index reaches 2^31.
  SmallVector<abi::TensorMapSpec::OuterDim> dims;
  for (const OuterIndex &index : outer) {
    abi::TensorMapSpec::Scalar outerStride =
        abi::TensorMapSpec::Scalar::constant(index.factor);
    int64_t unit = 16 / std::gcd<int64_t>(16, index.factor * elemBytes);
    if (index.strideValue) {
      outerStride = *describeScalar(index.strideValue);
      outerStride.Factor = index.factor;
      if (unit != 1 && !isProvenMultiple(index.strideValue, unit))
        return TensorMapAttr();
    } else if (unit != 1) {
      return TensorMapAttr();
    }
    dims.push_back(
        {abi::TensorMapSpec::Scalar::constant(int64_t(1) << 31), outerStride});
    outerCoords.push_back(index.coord);
  }
  return TensorMapAttr::getChecked(
      [&] { return emitError(base.getLoc()); }, type.getContext(),
      /*param=*/0u, unsigned(baseArg->Arg), element, *rows, *cols, *stride,
      unsigned(type.getDimSize(0)), unsigned(swizzle / elemBytes),
      unsigned(swizzle), ArrayRef<abi::TensorMapSpec::OuterDim>(dims));
}

/// What TMA copies of a descriptor load: the tile's type and the
/// descriptor's shape and strides, or, for a load whose strides are
/// (1, S) (B given as rows of K through a block pointer of order (0, 1);
/// `swapped`), the transposed view: the tile of the tensor with strides
/// (S, 1), which the product reads as through tl.trans.
struct TmaView {
  RankedTensorType type;
  SmallVector<Value> shape, strides;
  bool swapped = false;
};
static TmaView getTmaView(LoadOp load) {
  TmaView view{cast<RankedTensorType>(load.getType()),
               SmallVector<Value>(load.getDescShape()),
               SmallVector<Value>(load.getDescStrides())};
  if (view.type.getRank() != 2 || !matchPattern(view.strides[0], m_One()) ||
      matchPattern(view.strides[1], m_One()))
    return view;
  std::swap(view.shape[0], view.shape[1]);
  std::swap(view.strides[0], view.strides[1]);
  view.type =
      RankedTensorType::get({view.type.getDimSize(1), view.type.getDimSize(0)},
                            view.type.getElementType());
  view.swapped = true;
  return view;
}

/// The TMA plan for operand `index` (0: a, 1: b) of `dot` when it is a
/// zero-padded load of a 2-D tensor descriptor whose base, extents and row
/// stride are kernel arguments or constants, and TMA can write it the way
/// wgmma reads it (rows of the descriptor contiguous: A, a B read through
/// `tl.trans` (K-major), and a B stored N-major: 16-bit, or 32-bit into a
/// transposed accumulator, whose instructions load b^T from the slot into
/// registers).
static std::optional<OperandPlan> planTma(DotOp dot, unsigned index,
                                          bool batched) {
  bool transposed;
  LoadOp load = getOperandLoad(dot, index, transposed);
  if (!load || !load.getDescBase() || !padsWithZeros(load))
    return std::nullopt;
  Value operand = load.getResult();
  auto type = cast<RankedTensorType>(operand.getType());
  if (type.getRank() != 2)
    return std::nullopt;
  // A B stored as rows of K is copied as its transposed view.
  TmaView view = getTmaView(load);
  bool swapped = view.swapped && index == 1 && !transposed;
  if (view.swapped && !swapped)
    return std::nullopt;
  if (swapped) {
    type = view.type;
    transposed = true;
  }
  int64_t elemBytes = getStorageBytes(type.getElementType());
  auto mma = cast<MmaLayoutAttr>(dot.getType().getEncoding());
  int64_t inner = type.getDimSize(1);
  int64_t swizzle = std::min<int64_t>(128, inner * elemBytes);
  if (transposed) {
    if (mma.getTransposed())
      return std::nullopt;
  } else if (index == 1 && mma.getTransposed()) {
    if (elemBytes != 4)
      return std::nullopt;
  } else if (index == 1) {
    int64_t n = std::min<int64_t>(mma.getInstrShape()[1], inner);
    if (elemBytes != 2 || n * elemBytes < 32)
      return std::nullopt;
    swizzle = std::min<int64_t>(128, n * elemBytes);
  }
  SmallVector<Value> outerCoords;
  TensorMapAttr map =
      describeTensorMap(type, load.getDescBase(), view.shape, view.strides,
                        load.getDescUnchecked(), swizzle, batched, outerCoords);
  if (!map)
    return std::nullopt;
  OperandPlan plan{
      load, SharedLayoutAttr::get(dot.getContext(), 1, unsigned(swizzle)), map,
      outerCoords};
  plan.transposed = transposed;
  plan.swapped = swapped;
  return plan;
}

/// Bytes one asynchronous copy of `load` moves when its matrix is stored
/// with dimension `dim` contiguous (0 when a copy cannot be that small).
static int64_t getCopyBytes(LoadOp load, unsigned dim,
                            AxisInfoAnalysis &axisInfo) {
  auto type = cast<RankedTensorType>(load.getPtr().getType());
  LayoutAttrInterface layout = getLayout(type);
  int64_t elemBytes =
      getStorageBytes(cast<PtrType>(type.getElementType()).getPointeeType());
  int64_t maxElems = std::min(
      16 / elemBytes, layout.getContiguousRegisters(type.getShape(), dim));
  int64_t bytes =
      axisInfo.getVectorWidth(load.getPtr(), load.getMask(), dim, maxElems) *
      elemBytes;
  return bytes >= 4 ? bytes : 0;
}

/// The plan for operand `index` (0: a, 1: b) of `dot`, if it is a tile the
/// loop loads for the product alone and copies can store it the way wgmma
/// reads it.
static std::optional<OperandPlan> planOperand(DotOp dot, unsigned index,
                                              AxisInfoAnalysis &axisInfo) {
  bool transposed;
  LoadOp load = getOperandLoad(dot, index, transposed);
  if (!load || !padsWithZeros(load) || !getLayout(load.getPtr().getType()))
    return std::nullopt;
  Value operand = load.getResult();
  auto type = cast<RankedTensorType>(operand.getType());
  auto mma = cast<MmaLayoutAttr>(dot.getType().getEncoding());
  int64_t elemBytes = getStorageBytes(type.getElementType());
  if (transposed) {
    // b^T's tile is rows of N: copied with K contiguous, as wgmma reads B.
    int64_t bytes = getCopyBytes(load, 1, axisInfo);
    if (mma.getTransposed() || bytes == 0)
      return std::nullopt;
    int64_t swizzle = std::min<int64_t>(128, type.getDimSize(1) * elemBytes);
    OperandPlan plan{
        load,
        SharedLayoutAttr::get(dot.getContext(), 1, unsigned(swizzle)),
        TensorMapAttr(),
        {},
        /*staged=*/false,
        bytes};
    plan.transposed = true;
    return plan;
  }
  int64_t k = index == 0 ? type.getDimSize(1) : type.getDimSize(0);
  // A and (any type) B are stored K-major; a 16-bit B may be stored N-major
  // when an instruction's N spans a 32-byte swizzle, a 32-bit one when the
  // accumulator is transposed (b^T is loaded into registers).
  unsigned kDim = index == 0 ? 1 : 0;
  unsigned dim = kDim;
  int64_t bytes = getCopyBytes(load, kDim, axisInfo);
  int64_t n = mma.getTransposed() ? type.getDimSize(1)
                                  : std::min<int64_t>(mma.getInstrShape()[1],
                                                      type.getDimSize(1));
  if (index == 1 &&
      (mma.getTransposed() ? elemBytes == 4
                           : elemBytes == 2 && n * elemBytes >= 32)) {
    int64_t nBytes = getCopyBytes(load, 1, axisInfo);
    if (nBytes > bytes) {
      dim = 1;
      bytes = nBytes;
    }
  }
  // A tf32 or 8-bit B read from rows of N in tile-coalesce's staging layout
  // (whole vectors of K a thread: 16 bytes, or 4 of a small tile of bytes).
  bool staged = false;
  if (index == 1 && wgmmaReadsBOnlyKMajor(type.getElementType()) &&
      bytes < 16) {
    auto blocked =
        dyn_cast<BlockedLayoutAttr>(getLayout(load.getPtr().getType()));
    staged = blocked && blocked.getSizePerThread()[kDim] * elemBytes >=
                            (elemBytes == 4 ? 16 : 4);
  }
  if (bytes == 0 && !staged)
    return std::nullopt;
  int64_t swizzle =
      std::min<int64_t>(128, dim == kDim ? k * elemBytes : n * elemBytes);
  return OperandPlan{
      load,
      SharedLayoutAttr::get(dot.getContext(), dim, unsigned(swizzle)),
      TensorMapAttr(),
      {},
      staged,
      staged ? 16 : bytes};
}

/// Starts copying the tile `load` reads (its operands mapped by `mapping`),
/// where `valid` holds, into `slot`.
static void emitCopy(OpBuilder &b, LoadOp load, IRMapping &mapping, Value valid,
                     Value slot) {
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getPtr().getType());
  Value mask = SplatOp::create(b, loc, type.clone(b.getI1Type()), valid);
  if (load.getMask())
    mask = arith::AndIOp::create(b, loc,
                                 mapping.lookupOrDefault(load.getMask()), mask);
  AsyncCopyOp::create(b, loc, mapping.lookupOrDefault(load.getPtr()), slot,
                      mask);
}

/// `iv + stages * step`.
static Value ivAhead(OpBuilder &b, Location loc, Value iv, Value step,
                     int64_t stages) {
  if (stages == 0)
    return iv;
  Value n = arith::ConstantOp::create(b, loc,
                                      b.getIntegerAttr(step.getType(), stages));
  return arith::AddIOp::create(b, loc, iv,
                               arith::MulIOp::create(b, loc, step, n));
}

static Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

/// The ring slot after `index` (`index + 1 mod numStages`); `wraps` is
/// whether it wrapped around to 0.
static Value nextSlot(OpBuilder &b, Location loc, Value index,
                      int64_t numStages, Value &wraps) {
  Value plus = arith::AddIOp::create(b, loc, index, i32Constant(b, loc, 1));
  wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, plus,
                                i32Constant(b, loc, numStages));
  return arith::SelectOp::create(b, loc, wraps, i32Constant(b, loc, 0), plus);
}

/// The mbarrier phase parity `parity`, flipped where `flip` holds.
static Value flipParity(OpBuilder &b, Location loc, Value flip, Value parity) {
  Value flipped = arith::XOrIOp::create(b, loc, parity, i32Constant(b, loc, 1));
  return arith::SelectOp::create(b, loc, flip, flipped, parity);
}

/// The bytes of shared memory the rings of `plans` take in `numStages`
/// slots each.
static int64_t getRingBytes(ArrayRef<OperandPlan> plans, int64_t numStages) {
  int64_t bytes = 0;
  for (const OperandPlan &plan : plans) {
    auto type = cast<RankedTensorType>(plan.load->getResult(0).getType());
    bytes += numStages * type.getNumElements() *
             getStorageBytes(type.getElementType());
  }
  return bytes;
}

/// Whether `value` is `tile.program_id` (through integer casts).
static bool isProgramId(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<ProgramIdOp>(def))
      return true;
    if (!isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncIOp>(def))
      return false;
    value = def->getOperand(0);
  }
  return false;
}

/// Whether `op` is inside a loop that starts at the program's id, or
/// carries a value that does (the tile of tile-flatten-loops' loop): a
/// persistent kernel's walk over its tiles, which the host launches with
/// about one program per SM.
static bool isInPersistentLoop(Operation *op) {
  for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
       loop = loop->getParentOfType<scf::ForOp>())
    if (isProgramId(loop.getLowerBound()) ||
        llvm::any_of(loop.getInitArgs(), isProgramId))
      return true;
  return false;
}

/// Whether a program running `dot` through rings of `numStages` slots
/// leaves no room for a second program on its SM: it walks tiles in a
/// persistent loop (one program an SM), or its 32-bit accumulator
/// takes more than a quarter of the registers (the rest of the kernel
/// needs about as many again) or its rings more than half the shared
/// memory.
static bool hasSMAlone(DotOp dot, ArrayRef<OperandPlan> plans,
                       int64_t numStages) {
  if (isInPersistentLoop(dot))
    return true;
  TargetInfo target = TargetInfo::get(dot);
  int64_t threads = 32 * getLayout(dot.getType()).getNumWarps();
  int64_t accRegs = dot.getType().getNumElements() / threads;
  int64_t ringBytes = getRingBytes(plans, numStages);
  return accRegs * threads > target.getRegistersPerSM() / 4 ||
         ringBytes > target.getMaxSharedMemoryBytes() / 2;
}

/// Makes each iteration argument of `forOp` that only feeds its own next
/// value (the pointers of the loads the copies replaced) yield itself, so
/// that canonicalization drops it and the ops computing it.
static void forgetDeadIterArgs(scf::ForOp forOp) {
  auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
  for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs())) {
    if (!forOp.getResult(i).use_empty())
      continue;
    // The ops `arg` flows into must be pure and reach nothing but the
    // yield of `arg` itself.
    llvm::SetVector<Operation *> users;
    SmallVector<Value> worklist = {arg};
    bool dead = true;
    while (!worklist.empty() && dead) {
      for (OpOperand &use : worklist.pop_back_val().getUses()) {
        Operation *user = use.getOwner();
        if (user == yield) {
          dead = use.getOperandNumber() == i;
          if (!dead)
            break;
          continue;
        }
        if (!isMemoryEffectFree(user) || user->getNumRegions() != 0) {
          dead = false;
          break;
        }
        if (users.insert(user))
          llvm::append_range(worklist, user->getResults());
      }
    }
    if (dead)
      yield->setOperand(i, arg);
  }
}

/// Adds to `func` the parameter that receives the tensor map `map` and
/// records how to build it in the module's `tile.tma` attribute; returns
/// the parameter, or the one of the same map if `func` has it already (a
/// loop split in two copies the same tensors).
static Value addTensorMapParameter(func::FuncOp func, TensorMapAttr map) {
  MLIRContext *ctx = func.getContext();
  auto module = func->getParentOfType<ModuleOp>();
  for (TensorMapAttr known : getTensorMaps(module))
    if (known.getBase() == map.getBase() &&
        known.getElement() == map.getElement() &&
        known.getRows() == map.getRows() && known.getCols() == map.getCols() &&
        known.getRowStride() == map.getRowStride() &&
        known.getBoxRows() == map.getBoxRows() &&
        known.getBoxCols() == map.getBoxCols() &&
        known.getSwizzle() == map.getSwizzle() &&
        known.getOuter() == map.getOuter() &&
        known.getParam() < func.getNumArguments() &&
        isa<TensorMapType>(func.getArgument(known.getParam()).getType()))
      return func.getArgument(known.getParam());
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(index, TensorMapType::get(ctx),
                                 DictionaryAttr::get(ctx), func.getLoc())))
    return Value();
  addTensorMap(func->getParentOfType<ModuleOp>(),
               TensorMapAttr::get(
                   ctx, index, map.getBase(), map.getElement(), map.getRows(),
                   map.getCols(), map.getRowStride(), map.getBoxRows(),
                   map.getBoxCols(), map.getSwizzle(), map.getOuter()));
  return func.getArgument(index);
}

/// A matrix a product reads from shared memory that the threads store
/// there from registers: once before the loop when the loop does not change
/// it (attention's q), else in each iteration before the product (its p).
struct BufferPlan {
  Value value;
  SharedLayoutAttr layout;
  bool invariant;
};

/// Where operand a or b of one product comes from: a ring slot, a buffer,
/// or (an a the body computes whose threads hold wgmma's fragments, such
/// as attention's p) the registers of `value`.
struct ProductOperand {
  enum Kind { Ring, Buffer, Registers } kind;
  /// Into LoopPlan::plans for a ring, into LoopPlan::buffers for a buffer.
  unsigned index = 0;
  Value value = {};
  /// A ring operand the product reads transposed (`tl.trans` of the load).
  bool transposed = false;
};

struct ProductPlan {
  DotOp dot;
  ProductOperand operands[2];
  /// With several products, one before the last that only carries its
  /// result to the next iteration: it stays in flight until the next wait
  /// (a later product's, or the one before its next use).
  bool inFlight = false;
  /// The second product, issued right after the first (its operands ring
  /// slots or loop-invariant buffers, its accumulator from outside the
  /// loop): it runs while the body computes with the first one's result,
  /// which is waited for with this one still in flight.
  bool issuedEarly = false;
};

/// What pipelining one loop needs to know, decided before any IR changes.
struct LoopPlan {
  scf::ForOp forOp;
  SmallVector<ProductPlan> products;
  /// How the loaded operands reach shared memory (one ring each); all by
  /// TMA or all by cp.async.
  SmallVector<OperandPlan> plans;
  SmallVector<BufferPlan> buffers;
  bool tma = false;
  int64_t numStages = 0;
  /// Stages copied ahead of the one being multiplied.
  int64_t ahead = 0;
  /// The ops computing the copies' operands, the loop values they use, and
  /// the ops computing those values for the next iteration.
  llvm::SetVector<Operation *> loadSlice, yieldSlice;
  llvm::SetVector<unsigned> usedArgs;
  /// The iteration argument of the accumulator, or -1.
  int64_t accArg = -1;
  /// `select(splat(first), zeros, acc)`, the accumulator restarted on a
  /// tile's first K step (a flattened persistent loop), or null.
  arith::SelectOp accReset;
  /// The scf.if ops of the body (an epilogue after a tile's last K step)
  /// that read the product's result.
  SmallVector<scf::IfOp> epilogues;
  /// Whether the (last) product stays in flight during the next
  /// iteration's copies (and, with several products, until the next
  /// iteration's first product, which waits for it).
  bool inFlight = false;
  /// Whether the last product (attention's p @ v) is issued one iteration
  /// late, right after the next iteration's first product, so that it runs
  /// during that iteration's online softmax (see planLoop).
  bool deferLast = false;
  /// With deferLast: whether the ring's slots are guarded by mbarriers
  /// instead of the CTA barrier at the top of each iteration (a `full`
  /// barrier a slot, on which every thread's copies arrive, waited on before
  /// the slot is read; an `empty` one, on which every warp arrives when its
  /// products have read the slot, waited on before the slot is written), so
  /// that the warp groups can drift apart, and take turns issuing their
  /// products (FlashAttention-3's ping-pong).
  bool pingPong = false;
  /// The program's threads (with pingPong: the arrivals of a full barrier).
  int64_t threads = 0;
  /// Whether staged tiles are carried from one iteration to the next.
  bool carryStaged = false;
  /// Where the copies of the next stage go: after the wait at the top of
  /// the iteration, or (several products, the last in flight) after a
  /// barrier that follows the first product, or the last.
  enum class CopyPlace { Top, AfterFirstProduct, End };
  CopyPlace copyPlace = CopyPlace::Top;
  /// Whether the function should ask for a second program per SM.
  bool askSecondProgram = false;
};

/// Collects the slices of `plan`'s copies; fails when one cannot be cloned.
static LogicalResult collectLoopSlices(LoopPlan &plan) {
  scf::ForOp forOp = plan.forOp;
  Block *body = forOp.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (const OperandPlan &operand : plan.plans)
    if (failed(collectSlice(body, operand.load->getOperands(), plan.loadSlice)))
      return failure();
  SmallVector<Operation *> loads;
  for (const OperandPlan &operand : plan.plans)
    loads.push_back(operand.load);
  collectIterArgs(forOp, loads, plan.usedArgs);
  collectIterArgs(forOp, plan.loadSlice.getArrayRef(), plan.usedArgs);
  for (size_t seen = 0; seen != plan.usedArgs.size();) {
    seen = plan.usedArgs.size();
    SmallVector<Value> yielded;
    for (unsigned i : plan.usedArgs)
      yielded.push_back(yield.getOperand(i));
    if (failed(collectSlice(body, yielded, plan.yieldSlice)))
      return failure();
    collectIterArgs(forOp, plan.yieldSlice.getArrayRef(), plan.usedArgs);
    for (Value v : yielded)
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && arg.getOwner() == body && arg.getArgNumber() > 0)
        plan.usedArgs.insert(arg.getArgNumber() - 1);
  }
  return success();
}

/// The shared layout of a matrix operand `index` of a wgmma product that
/// the threads store from registers: K contiguous, as wide a swizzle as its
/// rows allow.
static SharedLayoutAttr getBufferLayout(DotOp dot, unsigned index) {
  auto type = cast<RankedTensorType>(dot->getOperand(index).getType());
  int64_t k = type.getDimSize(index == 0 ? 1 : 0);
  int64_t swizzle =
      std::min<int64_t>(128, k * getStorageBytes(type.getElementType()));
  return SharedLayoutAttr::get(dot.getContext(), index == 0 ? 1 : 0,
                               unsigned(swizzle));
}

/// Registers a thread of `dot`'s program has when two programs share an
/// SM (at most 255), and whether every copy of `plans` moves 16 bytes (few
/// addresses to keep): what asking for a second program depends on.
static int64_t getRegistersWithTwoPrograms(DotOp dot) {
  int64_t threads = 32 * getLayout(dot.getType()).getNumWarps();
  return std::min<int64_t>(255, TargetInfo::get(dot).getRegistersPerSM() /
                                    (2 * threads));
}
static bool hasWideCopies(ArrayRef<OperandPlan> plans) {
  return llvm::all_of(plans, [](const OperandPlan &operand) {
    return operand.copyBytes == 16;
  });
}

/// The bytes of shared memory the rings and buffers of `plan` take.
static int64_t getSharedBytes(const LoopPlan &plan) {
  int64_t bytes = getRingBytes(plan.plans, plan.numStages);
  for (const BufferPlan &buffer : plan.buffers) {
    auto type = cast<RankedTensorType>(buffer.value.getType());
    bytes += type.getNumElements() * getStorageBytes(type.getElementType());
  }
  return bytes;
}

/// Whether every use of `value` is, through layout conversions and
/// transposes, operand a or b of one of `dots` (each added to `uses`).
static bool feedsProductsOnly(Value value, ArrayRef<DotOp> dots,
                              SmallVectorImpl<OpOperand *> &uses) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<ConvertLayoutOp, TransOp>(user)) {
      if (!feedsProductsOnly(user->getResult(0), dots, uses))
        return false;
      continue;
    }
    auto dot = dyn_cast<DotOp>(user);
    if (!dot || use.getOperandNumber() > 1 || !llvm::is_contained(dots, dot))
      return false;
    uses.push_back(&use);
  }
  return true;
}

/// The ring plan of `load`, a tile of the loop body that feeds products only
/// (`uses`: the product, its operand and whether it reads the tile
/// transposed): copied with the dimension contiguous that AxisInfo allows
/// the widest copies along, into a layout every use can read (an a with K
/// contiguous, a b with K or, 16-bit, N contiguous; the swizzle no wider
/// than an N-major b's instruction N), or std::nullopt.
static std::optional<OperandPlan>
planSharedRing(LoadOp load, ArrayRef<std::tuple<DotOp, unsigned, bool>> uses,
               AxisInfoAnalysis &axisInfo) {
  if (!padsWithZeros(load) || !getLayout(load.getPtr().getType()))
    return std::nullopt;
  auto type = cast<RankedTensorType>(load.getResult().getType());
  if (type.getRank() != 2)
    return std::nullopt;
  int64_t elemBytes = getStorageBytes(type.getElementType());
  int64_t bytes0 = getCopyBytes(load, 0, axisInfo);
  int64_t bytes1 = getCopyBytes(load, 1, axisInfo);
  unsigned dim = bytes1 >= bytes0 ? 1 : 0;
  int64_t bytes = std::max(bytes0, bytes1);
  if (bytes == 0)
    return std::nullopt;
  int64_t swizzle = std::min<int64_t>(128, type.getDimSize(dim) * elemBytes);
  for (auto [dot, index, transposed] : uses) {
    // The contiguous dimension as the product sees its operand.
    unsigned seen = transposed ? 1 - dim : dim;
    bool kMajor = seen == (index == 0 ? 1u : 0u);
    if (kMajor)
      continue;
    auto mma = cast<MmaLayoutAttr>(dot.getType().getEncoding());
    int64_t n =
        std::min<int64_t>(mma.getInstrShape()[1], dot.getType().getDimSize(1));
    if (index == 0 || elemBytes != 2 || n * elemBytes < 32)
      return std::nullopt;
    swizzle = std::min<int64_t>(swizzle, n * elemBytes);
  }
  if (swizzle < 32)
    return std::nullopt;
  return OperandPlan{
      load,
      SharedLayoutAttr::get(load.getContext(), dim, unsigned(swizzle)),
      TensorMapAttr(),
      {},
      /*staged=*/false,
      bytes};
}

/// The TMA plan of the ring of `load`, a zero-padded load of a 2-D tensor
/// descriptor the host can build a map of, read by `uses` (product, operand,
/// through tl.trans): TMA writes the tile's rows contiguously, which an A
/// and a B read through tl.trans (K-major) read swizzled over the rows'
/// bytes (at most 128), and a 16-bit B as it is (N-major) swizzled over the
/// instruction's N; every use must agree on the swizzle.
static std::optional<OperandPlan>
planTmaRing(LoadOp load, ArrayRef<std::tuple<DotOp, unsigned, bool>> uses) {
  if (!load.getDescBase() || !padsWithZeros(load) ||
      cast<RankedTensorType>(load.getType()).getRank() != 2)
    return std::nullopt;
  // A b stored as rows of K (attention's K^T block pointer, strides
  // (1, HEAD_DIM)) is copied as its transposed view.
  TmaView view = getTmaView(load);
  bool swapped = view.swapped;
  RankedTensorType type = view.type;
  if (swapped)
    for (auto [dot, index, transposed] : uses)
      if (index != 1 || transposed)
        return std::nullopt;
  int64_t elemBytes = getStorageBytes(type.getElementType());
  int64_t inner = type.getDimSize(1);
  std::optional<int64_t> swizzle;
  for (auto [dot, index, useTransposed] : uses) {
    bool transposed = useTransposed || swapped;
    int64_t useSwizzle = std::min<int64_t>(128, inner * elemBytes);
    if (index == 0 && transposed)
      return std::nullopt;
    if (index == 1 && !transposed) {
      auto mma = cast<MmaLayoutAttr>(dot.getType().getEncoding());
      int64_t n = std::min<int64_t>(mma.getInstrShape()[1], inner);
      if (elemBytes != 2 || n * elemBytes < 32)
        return std::nullopt;
      useSwizzle = std::min<int64_t>(128, n * elemBytes);
    }
    if (useSwizzle < 32 || (swizzle && *swizzle != useSwizzle))
      return std::nullopt;
    swizzle = useSwizzle;
  }
  if (!swizzle)
    return std::nullopt;
  SmallVector<Value> outerCoords;
  TensorMapAttr map = describeTensorMap(
      type, load.getDescBase(), view.shape, view.strides,
      load.getDescUnchecked(), *swizzle, /*batched=*/true, outerCoords);
  if (!map)
    return std::nullopt;
  OperandPlan plan{
      load, SharedLayoutAttr::get(load.getContext(), 1, unsigned(*swizzle)),
      map, outerCoords};
  plan.swapped = swapped;
  return plan;
}

/// Plans the products of a loop with several (attention's q @ k^T and
/// p @ v, or the products of its backward pass): each tile the body loads
/// for products only (read as it is or through tl.trans, by one product or
/// several) gets a ring of cp.async copies; an a the body computes stays in
/// registers when its threads hold the fragments wgmma reads; every other
/// operand gets a buffer the threads store it into (BufferPlan). 16-bit
/// operands into accumulators that are not transposed only; fails unless
/// some operand gets a ring. With `useTma`, when every ring's load can be
/// copied with TMA (planTmaRing) and every buffer is stored once before the
/// loop (a buffer stored each iteration relies on the barrier of the
/// cp.async wait to be free again), the rings are filled by TMA instead.
static bool planProducts(LoopPlan &plan, ArrayRef<DotOp> dots, bool useTma) {
  AxisInfoAnalysis axisInfo;
  // The TMA plan of each ring, when there is one.
  SmallVector<std::optional<OperandPlan>> tmaPlans;
  // The ring of each load that feeds products only, by its first use.
  llvm::DenseMap<Operation *, std::optional<unsigned>> rings;
  auto ringOf = [&](LoadOp load) -> std::optional<unsigned> {
    auto [it, inserted] = rings.try_emplace(load, std::nullopt);
    if (!inserted)
      return it->second;
    // Every product operand the tile reaches must trace back to it (the
    // load and what the products read it through are erased).
    SmallVector<OpOperand *> operands;
    if (!feedsProductsOnly(load.getResult(), dots, operands))
      return std::nullopt;
    SmallVector<std::tuple<DotOp, unsigned, bool>> uses;
    for (OpOperand *operand : operands) {
      auto dot = cast<DotOp>(operand->getOwner());
      unsigned i = operand->getOperandNumber();
      bool transposed;
      if (traceOperandLoad(dot, i, transposed) != load)
        return std::nullopt;
      uses.push_back({dot, i, transposed});
    }
    std::optional<OperandPlan> ring = planSharedRing(load, uses, axisInfo);
    if (!ring)
      return std::nullopt;
    it->second = unsigned(plan.plans.size());
    plan.plans.push_back(*ring);
    tmaPlans.push_back(useTma ? planTmaRing(load, uses) : std::nullopt);
    return it->second;
  };
  for (DotOp dot : dots) {
    auto mma = cast<MmaLayoutAttr>(dot.getType().getEncoding());
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    if (mma.getTransposed() || getStorageBytes(aType.getElementType()) != 2)
      return false;
    ProductPlan product{dot, {}};
    for (unsigned i : {0u, 1u}) {
      bool transposed;
      if (LoadOp load = traceOperandLoad(dot, i, transposed)) {
        if (std::optional<unsigned> ring = ringOf(load)) {
          product.operands[i] = {ProductOperand::Ring, *ring, Value(),
                                 transposed};
          continue;
        }
      }
      // The layout conversion of a stored tile is moot, and one to the
      // layout wgmma's fragments are read from may be.
      Value value = dot->getOperand(i);
      if (auto convert = value.getDefiningOp<ConvertLayoutOp>())
        value = convert.getSrc();
      bool invariant = plan.forOp.isDefinedOutsideOfLoop(value);
      if (i == 0 && !invariant) {
        auto type = cast<RankedTensorType>(value.getType());
        if (getWgmmaRegisterFragments(type, dot.getType())) {
          product.operands[i] = {ProductOperand::Registers, 0, value};
          continue;
        }
        type = cast<RankedTensorType>(dot.getA().getType());
        if (getWgmmaRegisterFragments(type, dot.getType())) {
          product.operands[i] = {ProductOperand::Registers, 0, dot.getA()};
          continue;
        }
      }
      product.operands[i] = {ProductOperand::Buffer,
                             unsigned(plan.buffers.size())};
      plan.buffers.push_back({value, getBufferLayout(dot, i), invariant});
    }
    plan.products.push_back(product);
  }
  if (plan.plans.empty())
    return false;
  bool allTma =
      llvm::all_of(tmaPlans, [](const auto &p) { return p.has_value(); }) &&
      llvm::all_of(plan.buffers,
                   [](const BufferPlan &buffer) { return buffer.invariant; });
  if (allTma) {
    for (auto [ring, tmaPlan] : llvm::zip_equal(plan.plans, tmaPlans))
      ring = *tmaPlan;
    // The products read a swapped ring's slots transposed.
    for (ProductPlan &product : plan.products)
      for (ProductOperand &operand : product.operands)
        if (operand.kind == ProductOperand::Ring &&
            plan.plans[operand.index].swapped)
          operand.transposed = true;
    plan.tma = true;
  }
  return true;
}

/// The plan for pipelining `forOp` through rings of `numStages` slots, or
/// std::nullopt when it does not qualify: wgmma products, one whose
/// operands are plain loads of the body or several (planProducts).
static std::optional<LoopPlan> planLoop(scf::ForOp forOp, int64_t numStages,
                                        bool useTma, bool batchedTma,
                                        bool multiProductTma,
                                        bool deferProducts, bool pingPong) {
  Block *body = forOp.getBody();
  auto dots = llvm::to_vector(body->getOps<DotOp>());
  if (dots.empty() || llvm::any_of(dots, [](DotOp dot) {
        auto mma = dyn_cast_or_null<MmaLayoutAttr>(dot.getType().getEncoding());
        return !mma || !mma.isWgmma();
      }))
    return std::nullopt;
  LoopPlan plan;
  plan.forOp = forOp;
  plan.numStages = numStages;
  if (dots.size() > 1) {
    if (!planProducts(plan, dots, useTma && multiProductTma) ||
        failed(collectLoopSlices(plan)))
      return std::nullopt;
    // The last product stays in flight when the loop only carries its
    // 32-bit result to the next iteration (attention's p @ v into the
    // accumulator): it runs during the next iteration's wait and first
    // product, whose wait completes it; the accumulator is then waited for
    // (at no cost) where the next iteration first uses it. The copies then
    // follow the first product and a barrier, after which every warp group
    // has finished the products of the iteration before: they refill its
    // slots, R - 1 stages ahead.
    DotOp last = dots.back();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    auto onlyCarried = [&](DotOp dot) {
      return numStages >= 3 && dot->hasOneUse() &&
             *dot->getUsers().begin() == yield &&
             dot.getType().getElementTypeBitWidth() == 32;
    };
    if (onlyCarried(last)) {
      plan.accArg = last->getUses().begin()->getOperandNumber();
      plan.inFlight = true;
      // Two products (attention's forward): the copies go last, after the
      // product left in flight, as Triton places them (measured on an H100:
      // the D = 128 forward 3-4% faster, D = 64 within noise). With more
      // (the backward's), right after the first: at the end they would
      // leave the next stage less time (the causal dK/dV 5% slower).
      plan.copyPlace = dots.size() == 2
                           ? LoopPlan::CopyPlace::End
                           : LoopPlan::CopyPlace::AfterFirstProduct;
    }
    // Earlier products that only carry their result (the backward's dV
    // before dP) are not waited for either when a later product of the
    // iteration is (its wait completes them; the first product's wait then
    // still precedes the copies into the slots they read).
    for (auto [k, product] : llvm::enumerate(plan.products)) {
      bool laterWaited = llvm::any_of(
          ArrayRef(plan.products).drop_front(k + 1),
          [&](const ProductPlan &later) { return !onlyCarried(later.dot); });
      product.inFlight = laterWaited && onlyCarried(product.dot);
    }
    // The backward's dQ loop (q k^T, dO v^T, then dQ accumulated in
    // flight): dP = dO v^T needs nothing q k^T computes, so it is issued
    // right after it and runs during p = exp2(q k^T - m) (an H100: dQ
    // 430 -> 460 TFLOP/s, causal 376 -> 391). Only that shape was
    // measured: a batched attention's four products keep their order.
    if (plan.products.size() == 3 && plan.inFlight &&
        !plan.products[0].inFlight && !plan.products[1].inFlight) {
      ProductPlan &second = plan.products[1];
      bool atHand = llvm::all_of(second.operands, [&](const ProductOperand &o) {
        return o.kind == ProductOperand::Ring ||
               (o.kind == ProductOperand::Buffer &&
                plan.buffers[o.index].invariant);
      });
      second.issuedEarly =
          atHand && forOp.isDefinedOutsideOfLoop(second.dot.getC());
    }
    // Attention's forward (q k^T, then p @ v into the accumulator, in
    // flight): p @ v is issued one iteration late, right after the next
    // q k^T, with the loop carrying p and the slot of v; the iteration
    // waits for q k^T with it still in flight and for it where the body
    // first uses the accumulator (to rescale it), so it runs during the
    // online softmax, as FlashAttention-3 overlaps them within a warp
    // group. The loop then carries the accumulator without that product;
    // the first iteration adds p = 0 times a slot of zeros, and the last
    // one's product follows the loop.
    if (deferProducts && plan.products.size() == 2 && plan.inFlight &&
        !plan.products[0].inFlight) {
      const ProductPlan &first = plan.products[0], &last = plan.products[1];
      bool firstAtHand =
          llvm::all_of(first.operands, [&](const ProductOperand &o) {
            return o.kind == ProductOperand::Ring ||
                   (o.kind == ProductOperand::Buffer &&
                    plan.buffers[o.index].invariant);
          });
      plan.deferLast = firstAtHand &&
                       last.operands[0].kind == ProductOperand::Registers &&
                       last.operands[1].kind == ProductOperand::Ring;
    }
    plan.ahead = numStages - 1;
    // Two programs share an SM when the accumulators leave a thread 32 of
    // the registers two programs allow for each product whose result the
    // body computes with (the online softmax's temporaries, p or ds, the
    // copies' addresses; a product that only accumulates needs none) and
    // the rings and buffers half the shared memory. Measured (8 warps):
    // attention with HEAD_DIM 64 and 128 x 64 blocks fits in 126
    // registers, the backward's dQ loop (q k^T and dO v^T computed with,
    // dQ accumulated) in 112; its dK/dV loop (two of each) needs 178.
    int64_t threads = 32 * getLayout(dots.front().getType()).getNumWarps();
    int64_t tileRegs = 0;
    for (DotOp dot : dots)
      tileRegs += dot.getType().getNumElements() / threads +
                  (onlyCarried(dot) ? 0 : 32);
    plan.askSecondProgram =
        hasWideCopies(plan.plans) &&
        tileRegs <= getRegistersWithTwoPrograms(dots.front()) &&
        getSharedBytes(plan) <=
            TargetInfo::get(forOp).getMaxSharedMemoryBytes() / 2;
    // Two programs on an SM already overlap one's softmax with the other's
    // products.
    if (plan.askSecondProgram)
      plan.deferLast = false;
    if (plan.deferLast) {
      plan.copyPlace = LoopPlan::CopyPlace::Top;
      plan.ahead = numStages - 2;
      plan.pingPong = pingPong;
      plan.threads = threads;
    }
    return plan;
  }
  DotOp dot = dots.front();
  // Both operands by TMA, else both by cp.async.
  std::optional<OperandPlan> planA, planB;
  if (useTma) {
    planA = planTma(dot, 0, batchedTma);
    planB = planTma(dot, 1, batchedTma);
  }
  bool tma = planA && planB;
  if (!tma) {
    AxisInfoAnalysis axisInfo;
    planA = planOperand(dot, 0, axisInfo);
    planB = planOperand(dot, 1, axisInfo);
  }
  if (!planA || !planB)
    return std::nullopt;
  plan.products.push_back(
      {dot,
       {{ProductOperand::Ring, 0},
        {ProductOperand::Ring, 1, Value(), planB->transposed}}});
  plan.plans = {*planA, *planB};
  plan.tma = tma;
  if (failed(collectLoopSlices(plan)))
    return std::nullopt;

  // The product may stay in flight during the next iteration's copies when
  // its only use is the next product's accumulator; the copies then refill
  // the slots of two iterations before, one fewer stage ahead. That pays
  // when the program has its SM alone; two programs on one SM overlap each
  // other's products instead (measured on the H200, docs/performance.md).
  // The accumulator may also restart on some iterations (through a select
  // of zeros, which wgmma's scale-d does without touching its registers)
  // and be read by epilogues in scf.ifs after the product (which wait for
  // it).
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  Value acc = dot.getC();
  auto reset = acc.getDefiningOp<arith::SelectOp>();
  if (reset && reset->hasOneUse() &&
      reset.getCondition().getDefiningOp<SplatOp>() &&
      (matchPattern(reset.getTrueValue(), m_AnyZeroFloat()) ||
       matchPattern(reset.getTrueValue(), m_Zero())))
    acc = reset.getFalseValue();
  else
    reset = nullptr;
  SmallVector<scf::IfOp> epilogues;
  bool yieldedOnce = false, othersInEpilogues = true;
  for (OpOperand &use : dot->getUses()) {
    Operation *user = use.getOwner();
    if (user == yield) {
      yieldedOnce = !yieldedOnce;
      continue;
    }
    auto ifOp = dyn_cast<scf::IfOp>(body->findAncestorOpInBlock(*user));
    if (!ifOp || ifOp == user || !dot->isBeforeInBlock(ifOp))
      othersInEpilogues = false;
    else if (!llvm::is_contained(epilogues, ifOp))
      epilogues.push_back(ifOp);
  }
  if (auto arg = dyn_cast<BlockArgument>(acc);
      arg && arg.getOwner() == body && arg.getArgNumber() > 0 &&
      arg.hasOneUse() && yieldedOnce && othersInEpilogues &&
      yield.getOperand(arg.getArgNumber() - 1) == dot.getResult()) {
    plan.accArg = arg.getArgNumber() - 1;
    plan.accReset = reset;
    plan.epilogues = std::move(epilogues);
  }
  bool alone = hasSMAlone(dot, plan.plans, numStages);
  plan.inFlight = plan.accArg >= 0 && numStages >= 3 &&
                  dot.getType().getElementTypeBitWidth() == 32 && alone;
  if (!plan.inFlight) {
    // A synchronous product reads its accumulator as the body computes it.
    plan.accReset = nullptr;
    plan.epilogues.clear();
  }
  // Otherwise the products of two programs overlap on one SM; the registers
  // must leave room for both: at most 128 per thread with 8 warps. Asked for
  // when the copies move 16 bytes (few addresses to keep) and the
  // accumulator and staged tiles take at most 96 registers (measured: the
  // tf32 128x128x32 kernel fits without spills, docs/performance.md).
  int64_t threads = 32 * getLayout(dot.getType()).getNumWarps();
  int64_t tileRegs = dot.getType().getNumElements() / threads;
  for (const OperandPlan &operand : plan.plans)
    if (operand.staged)
      tileRegs += cast<RankedTensorType>(operand.load->getResult(0).getType())
                      .getNumElements() /
                  threads;
  // Tiles of numbers the loop carries besides the product's accumulator (a
  // scaled product added to its own sum, `acc += tl.dot(a, b) * scale`:
  // ptxas at 128 registers spilled 348 bytes of torchao's blockwise fp8
  // GEMM, 128 x 128 over 8 warps, with two programs asked for).
  for (BlockArgument arg : forOp.getRegionIterArgs()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.getElementType().isIntOrFloat() ||
        static_cast<int64_t>(arg.getArgNumber()) - 1 == plan.accArg)
      continue;
    tileRegs += llvm::divideCeil(
        type.getNumElements() * type.getElementTypeBitWidth(), 32 * threads);
  }
  // Two programs of 16 or 32 warps leave a thread 64 or 32 registers:
  // those tiles and 32 more must fit.
  plan.askSecondProgram = !alone && hasWideCopies(plan.plans) &&
                          tileRegs <= 96 &&
                          tileRegs + 32 <= getRegistersWithTwoPrograms(dot);
  // In a persistent loop with TMA, the copies of an in-flight product's
  // loop go last, after a barrier that follows the wait for the previous
  // product (Triton's order): slot `write` is then that product's, one
  // stage more ahead. (Other loops keep the order their speed was measured
  // with until this one is measured on them.)
  bool copiesLast = plan.inFlight && tma && isInPersistentLoop(dot);
  if (copiesLast)
    plan.copyPlace = LoopPlan::CopyPlace::End;
  plan.ahead = plan.inFlight && !copiesLast ? numStages - 2 : numStages - 1;
  // Staged tiles are loaded one iteration before they are stored when the
  // stage they belong to is then still at least one iteration away: the
  // loop carries them, and the loads' latency spans a whole iteration.
  bool staged = llvm::any_of(
      plan.plans, [](const OperandPlan &operand) { return operand.staged; });
  plan.carryStaged = staged && plan.ahead >= 2;
  return plan;
}

/// Rewrites one loop as its LoopPlan says: the rings and buffers (and
/// barriers and tensor maps) before it, the prologue's stages, each
/// iteration's copy of the stage `ahead` iterations later, the products from
/// shared memory, and the waits after it.
class LoopPipeliner {
public:
  LoopPipeliner(LoopPlan &plan)
      : plan(plan), forOp(plan.forOp), loc(plan.forOp.getLoc()),
        iv(plan.forOp.getInductionVar()),
        yield(cast<scf::YieldOp>(plan.forOp.getBody()->getTerminator())) {}

  void run();

private:
  /// The rings of the loaded operands and the buffers of the others (the
  /// loop-invariant ones stored unless `storeLater`), and with TMA the
  /// rings' tensor maps and the barriers of the slots; fails when a map
  /// parameter cannot be added.
  LogicalResult allocate(OpBuilder &b, bool storeLater);
  /// Stores the loop-invariant buffers (attention's q) allocate left for
  /// later.
  void storeInvariantBuffers(OpBuilder &b);
  /// The proxy fence and barrier after the invariant buffers' stores.
  void fenceInvariantBuffers(OpBuilder &b);
  /// Slot `index` of `ring`.
  Value slotOf(OpBuilder &b, Value ring, Value index);
  /// Copies the stage whose induction variable is `stageIv`, with the loop
  /// values in `mapping`, into slot `index` (staged operands: loads them,
  /// and stores them at once unless `defer`, else adds them to
  /// `loadedTiles`); returns the next stage's loop values.
  SmallVector<Value> copyStage(OpBuilder &b, IRMapping &mapping, Value stageIv,
                               Value index, bool defer);
  /// The prologue: stages 0 .. ahead - 1; returns the initial values the
  /// loop gets (the loop values of stage `ahead`, the slot indices, the
  /// barrier phase and the carried staged tiles).
  SmallVector<Value> emitPrologue(OpBuilder &b);
  /// The body's new start and the values it yields, given the loop's new
  /// block arguments.
  SmallVector<Value> buildIteration(OpBuilder &b,
                                    ArrayRef<BlockArgument> newArgs);
  /// Operand `operand` of a product read from `slot` of its ring, through
  /// tile.smem_trans when the product reads it transposed.
  Value ringOperand(OpBuilder &b, const ProductOperand &operand, Value slot);
  /// The deferred product's zeros for the first iteration: slot R - 1 of
  /// its ring, which the first stages copied leave free.
  void storeZeroSlot(OpBuilder &b);
  /// Replaces each dot by a warp_group_dot from the slots being read and
  /// the buffers (storing those the body computes first), and erases the
  /// loads; a deferred last product reads the p and slot `newFor` carries.
  void replaceProducts(scf::ForOp newFor);
  /// The iteration arguments of the products left in flight (before the
  /// loop is rebuilt).
  SmallVector<int64_t> getInFlightArgs();
  /// With several products, those left in flight: the wait before the
  /// first use of each accumulator (iteration argument of `args`) `newFor`
  /// carries in.
  void waitForCarriedProducts(scf::ForOp newFor, ArrayRef<int64_t> args);
  /// The waits after `newFor` (and on the initial values) of the
  /// accumulators of `inFlightArgs`, and the barrier invalidation.
  void emitEpilogue(scf::ForOp newFor, ArrayRef<int64_t> inFlightArgs);
  /// Waits for the in-flight product `result` in the plan's epilogues.
  void waitInEpilogues(Value result);

  LoopPlan &plan;
  scf::ForOp forOp;
  Location loc;
  Value iv;
  scf::YieldOp yield;
  SmallVector<Value> rings, maps, buffers;
  Value barriers;
  /// With plan.pingPong: the full and empty barriers of the slots, and the
  /// loop's arguments holding slot `read` and its full barrier's parity.
  Value fullBarriers, emptyBarriers;
  BlockArgument readArg, fullParityArg;
  int64_t stageBytes = 0;
  /// Where the carried staged tiles start among the loop's iteration
  /// arguments.
  unsigned carriedBase = 0;
  /// The staged tiles copyStage loaded without storing them, and the tiles
  /// and slots the loop stores after the product.
  SmallVector<Value> loadedTiles;
  SmallVector<std::pair<Value, Value>> pendingStores;
  /// The slots the products read, one per ring.
  SmallVector<Value> slots;
  /// With plan.deferLast: the loop's arguments holding the previous
  /// iteration's p and ring slot index.
  BlockArgument previousA, previousRead;
  /// With plan.deferLast: the previous iteration's last product, which the
  /// body issues after its first.
  WarpGroupDotOp deferred;
};

LogicalResult LoopPipeliner::allocate(OpBuilder &b, bool storeLater) {
  for (const OperandPlan &operand : plan.plans) {
    auto type = cast<RankedTensorType>(operand.load->getResult(0).getType());
    SmallVector<int64_t> shape = {plan.numStages};
    llvm::append_range(shape, type.getShape());
    if (operand.swapped)
      std::swap(shape[1], shape[2]);
    rings.push_back(LocalAllocOp::create(b, loc,
                                         SmemType::get(b.getContext(), shape,
                                                       type.getElementType(),
                                                       operand.layout),
                                         IntegerAttr()));
  }
  for (const BufferPlan &buffer : plan.buffers) {
    auto type = cast<RankedTensorType>(buffer.value.getType());
    buffers.push_back(LocalAllocOp::create(
        b, loc,
        SmemType::get(b.getContext(), type.getShape(), type.getElementType(),
                      buffer.layout),
        IntegerAttr()));
    if (buffer.invariant && !storeLater)
      LocalStoreOp::create(b, loc, buffer.value, buffers.back());
  }
  if (!storeLater) {
    storeZeroSlot(b);
    fenceInvariantBuffers(b);
  }
  if (plan.pingPong) {
    // The full barriers count the threads' cp.async copies (with TMA, the
    // barriers below are the full ones); the empty ones each warp's
    // arrival once it has read a slot.
    auto type = BarriersType::get(b.getContext(), plan.numStages);
    if (!plan.tma)
      fullBarriers = BarrierAllocOp::create(b, loc, type, IntegerAttr(),
                                            b.getI32IntegerAttr(plan.threads));
    emptyBarriers = BarrierAllocOp::create(
        b, loc, type, IntegerAttr(), b.getI32IntegerAttr(plan.threads / 32));
  }
  if (!plan.tma)
    return success();
  for (const OperandPlan &operand : plan.plans) {
    maps.push_back(addTensorMapParameter(forOp->getParentOfType<func::FuncOp>(),
                                         operand.tensorMap));
    if (!maps.back())
      return failure();
    auto type = cast<RankedTensorType>(operand.load->getResult(0).getType());
    stageBytes +=
        type.getNumElements() * getStorageBytes(type.getElementType());
  }
  barriers = BarrierAllocOp::create(
      b, loc, BarriersType::get(b.getContext(), plan.numStages), IntegerAttr(),
      b.getI32IntegerAttr(1));
  return success();
}

void LoopPipeliner::storeInvariantBuffers(OpBuilder &b) {
  for (auto [buffer, alloc] : llvm::zip_equal(plan.buffers, buffers))
    if (buffer.invariant)
      LocalStoreOp::create(b, loc, buffer.value, alloc);
  storeZeroSlot(b);
  fenceInvariantBuffers(b);
}

void LoopPipeliner::storeZeroSlot(OpBuilder &b) {
  if (!plan.deferLast)
    return;
  unsigned ring = plan.products.back().operands[1].index;
  Value slot = slotOf(b, rings[ring], i32Constant(b, loc, plan.numStages - 1));
  auto slotType = cast<SmemType>(slot.getType());
  auto type = RankedTensorType::get(
      slotType.getShape(), slotType.getElementType(),
      cast<RankedTensorType>(plan.plans[ring].load->getResult(0).getType())
          .getEncoding());
  LocalStoreOp::create(
      b, loc, arith::ConstantOp::create(b, loc, b.getZeroAttr(type)), slot);
}

Value LoopPipeliner::ringOperand(OpBuilder &b, const ProductOperand &operand,
                                 Value slot) {
  if (!operand.transposed)
    return slot;
  auto type = cast<SmemType>(slot.getType());
  SharedLayoutAttr layout = type.getLayout();
  return SmemTransOp::create(
      b, loc,
      SmemType::get(b.getContext(), {type.getDimSize(1), type.getDimSize(0)},
                    type.getElementType(),
                    SharedLayoutAttr::get(b.getContext(),
                                          1 - layout.getContiguousDim(),
                                          layout.getSwizzle())),
      slot);
}

void LoopPipeliner::fenceInvariantBuffers(OpBuilder &b) {
  // The waits of a loop of several products leave out the proxy fence
  // (their rings are written by cp.async only): stores before the loop get
  // theirs here.
  if (plan.deferLast ||
      llvm::any_of(plan.buffers,
                   [](const BufferPlan &buffer) { return buffer.invariant; }))
    CtaBarrierOp::create(b, loc, /*asyncProxy=*/true);
}

Value LoopPipeliner::slotOf(OpBuilder &b, Value ring, Value index) {
  auto type = cast<SmemType>(ring.getType());
  return SmemSlotOp::create(
      b, loc,
      SmemType::get(b.getContext(), type.getShape().drop_front(),
                    type.getElementType(), type.getLayout()),
      ring, index);
}

SmallVector<Value> LoopPipeliner::copyStage(OpBuilder &b, IRMapping &mapping,
                                            Value stageIv, Value index,
                                            bool defer) {
  mapping.map(iv, stageIv);
  cloneSlice(b, plan.loadSlice, mapping);
  Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                      stageIv, forOp.getUpperBound());
  if (plan.tma) {
    BarrierExpectOp::create(b, loc, barriers, index, valid,
                            b.getI32IntegerAttr(stageBytes));
    for (auto [i, operand] : llvm::enumerate(plan.plans)) {
      SmallVector<Value> coords;
      for (Value coord : operand.outerCoords)
        coords.push_back(mapping.lookupOrDefault(coord));
      SmallVector<Value> offsets(operand.load.getDescOffsets());
      if (operand.swapped)
        std::reverse(offsets.begin(), offsets.end());
      for (Value offset : offsets)
        coords.push_back(mapping.lookupOrDefault(offset));
      AsyncTmaCopyOp::create(b, loc, maps[i], coords,
                             slotOf(b, rings[i], index), barriers, index,
                             valid);
    }
  } else {
    for (auto [i, operand] : llvm::enumerate(plan.plans)) {
      if (!operand.staged) {
        emitCopy(b, operand.load, mapping, valid, slotOf(b, rings[i], index));
        continue;
      }
      Value tile = cloneLoad(b, operand.load, mapping, valid);
      if (defer)
        loadedTiles.push_back(tile);
      else
        LocalStoreOp::create(b, loc, tile, slotOf(b, rings[i], index));
    }
    AsyncCommitGroupOp::create(b, loc);
    if (plan.pingPong)
      AsyncCopyArriveOp::create(b, loc, fullBarriers, index);
  }
  cloneSlice(b, plan.yieldSlice, mapping);
  SmallVector<Value> next;
  for (unsigned i : plan.usedArgs)
    next.push_back(mapping.lookupOrDefault(yield.getOperand(i)));
  return next;
}

SmallVector<Value> LoopPipeliner::emitPrologue(OpBuilder &b) {
  Value lb = forOp.getLowerBound(), step = forOp.getStep();
  SmallVector<Value> args;
  for (unsigned i : plan.usedArgs)
    args.push_back(forOp.getInitArgs()[i]);
  for (int64_t s = 0; s < plan.ahead; ++s) {
    IRMapping mapping;
    for (auto [i, arg] : llvm::zip_equal(plan.usedArgs, args))
      mapping.map(forOp.getRegionIterArgs()[i], arg);
    args = copyStage(b, mapping, ivAhead(b, loc, lb, step, s),
                     i32Constant(b, loc, s),
                     /*defer=*/plan.carryStaged && s == plan.ahead - 1);
  }
  SmallVector<Value> carriedInits = loadedTiles;
  loadedTiles.clear();
  SmallVector<Value> inits = args;
  inits.push_back(i32Constant(b, loc, 0));
  inits.push_back(i32Constant(b, loc, plan.ahead % plan.numStages));
  // The parities of the phases to wait for: of slot `read`'s (full)
  // barrier, and with the ping-pong of slot `write`'s empty barrier, whose
  // first phase the first write into a fresh slot does not wait for
  // (parity 1 passes).
  if (plan.tma || plan.pingPong)
    inits.push_back(i32Constant(b, loc, 0));
  if (plan.pingPong)
    inits.push_back(i32Constant(b, loc, 1));
  carriedBase = inits.size();
  llvm::append_range(inits, carriedInits);
  if (plan.deferLast) {
    Value a = plan.products.back().operands[0].value;
    inits.push_back(
        arith::ConstantOp::create(b, loc, b.getZeroAttr(a.getType())));
    inits.push_back(i32Constant(b, loc, plan.numStages - 1));
  }
  return inits;
}

SmallVector<Value>
LoopPipeliner::buildIteration(OpBuilder &b, ArrayRef<BlockArgument> newArgs) {
  int64_t numStages = plan.numStages;
  unsigned numUsed = plan.usedArgs.size();
  b.setInsertionPointToStart(forOp.getBody());
  // Several products: cp.async rings only, whose data wgmma reads after the
  // wait's barrier (stores into buffers fence themselves).
  bool severalProducts = plan.products.size() > 1;
  bool afterProducts = plan.copyPlace != LoopPlan::CopyPlace::Top;
  Value read = newArgs[numUsed], write = newArgs[numUsed + 1];
  if (plan.tma && afterProducts)
    BarrierWaitOp::create(b, loc, barriers, read, newArgs[numUsed + 2]);
  else if (plan.pingPong)
    BarrierWaitOp::create(b, loc, emptyBarriers, write, newArgs[numUsed + 3]);
  else if (plan.tma)
    CtaBarrierOp::create(b, loc);
  else
    AsyncWaitOp::create(b, loc, b.getI32IntegerAttr(plan.ahead - 1),
                        severalProducts ? b.getUnitAttr() : UnitAttr());
  IRMapping mapping;
  for (auto [i, arg] : llvm::enumerate(plan.usedArgs))
    mapping.map(forOp.getRegionIterArgs()[arg], newArgs[i]);
  if (afterProducts) {
    for (Value ring : rings)
      slots.push_back(slotOf(b, ring, read));
    if (plan.copyPlace == LoopPlan::CopyPlace::End)
      b.setInsertionPoint(forOp.getBody()->getTerminator());
    else
      b.setInsertionPointAfter(plan.products.front().dot);
    CtaBarrierOp::create(b, loc);
  }
  SmallVector<Value> next =
      copyStage(b, mapping, ivAhead(b, loc, iv, forOp.getStep(), plan.ahead),
                write, /*defer=*/true);
  if (plan.tma && !afterProducts)
    BarrierWaitOp::create(b, loc, barriers, read, newArgs[numUsed + 2]);
  else if (plan.pingPong)
    BarrierWaitOp::create(b, loc, fullBarriers, read, newArgs[numUsed + 2]);
  if (!afterProducts)
    for (Value ring : rings)
      slots.push_back(slotOf(b, ring, read));
  // The staged tiles stored this iteration: those loaded in the previous
  // one, of the stage before the one copied now (slot `write` - 1), or
  // those just loaded.
  Value previous;
  if (plan.carryStaged) {
    Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          write, i32Constant(b, loc, 0));
    previous = arith::SelectOp::create(
        b, loc, isFirst, i32Constant(b, loc, numStages - 1),
        arith::SubIOp::create(b, loc, write, i32Constant(b, loc, 1)));
  }
  unsigned k = 0;
  for (auto [i, operand] : llvm::enumerate(plan.plans)) {
    if (!operand.staged)
      continue;
    if (plan.carryStaged)
      pendingStores.push_back(
          {newArgs[carriedBase + k], slotOf(b, rings[i], previous)});
    else
      pendingStores.push_back({loadedTiles[k], slotOf(b, rings[i], write)});
    ++k;
  }
  Value readWraps, writeWraps;
  next.push_back(nextSlot(b, loc, read, numStages, readWraps));
  Value nextWrite = nextSlot(b, loc, write, numStages, writeWraps);
  next.push_back(nextWrite);
  // The (full) barrier of slot `read` completes a phase per stage it holds:
  // it is next waited for in its next phase.
  if (plan.tma || plan.pingPong)
    next.push_back(flipParity(b, loc, readWraps, newArgs[numUsed + 2]));
  if (plan.pingPong) {
    // Slot `write`'s empty barrier completes one per stage read from it,
    // stage -1 (the zeros the first deferred product reads from slot R - 1)
    // included: the write of stage j waits for phase floor((j + 1) / R) -
    // 1, whose parity flips when the next write goes to slot R - 1.
    readArg = newArgs[numUsed];
    fullParityArg = newArgs[numUsed + 2];
    Value toLast =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, nextWrite,
                              i32Constant(b, loc, numStages - 1));
    next.push_back(flipParity(b, loc, toLast, newArgs[numUsed + 3]));
  }
  if (plan.carryStaged)
    llvm::append_range(next, loadedTiles);
  if (plan.deferLast) {
    previousA = newArgs[newArgs.size() - 2];
    previousRead = newArgs.back();
    next.push_back(plan.products.back().operands[0].value);
    next.push_back(read);
  }
  return next;
}

void LoopPipeliner::replaceProducts(scf::ForOp newFor) {
  // The first product's result, while the second is issued early.
  Value first;
  for (const ProductPlan &product : plan.products) {
    DotOp dot = product.dot;
    OpBuilder b(dot);
    if (plan.deferLast && &product == &plan.products.back()) {
      // Issued after the next iteration's first product (below): the loop
      // carries the accumulator it adds to.
      dot.replaceAllUsesWith(dot.getC());
      dot.erase();
      continue;
    }
    if (product.issuedEarly)
      b.setInsertionPointAfter(first.getDefiningOp());
    // Buffers the body computes are stored before the product reads them;
    // the wait at the top of the next iteration ends this one's reads.
    Value operands[2];
    bool stored = false;
    for (auto [i, operand] : llvm::enumerate(product.operands)) {
      if (operand.kind == ProductOperand::Ring) {
        operands[i] = ringOperand(b, operand, slots[operand.index]);
        continue;
      }
      if (operand.kind == ProductOperand::Registers) {
        operands[i] = operand.value;
        continue;
      }
      operands[i] = buffers[operand.index];
      const BufferPlan &buffer = plan.buffers[operand.index];
      if (!buffer.invariant) {
        LocalStoreOp::create(b, dot.getLoc(), buffer.value, operands[i]);
        stored = true;
      }
    }
    if (stored)
      CtaBarrierOp::create(b, dot.getLoc(), /*asyncProxy=*/true);
    // Staged tiles are stored while the product runs (then waited for,
    // unless it stays in flight). Of several products, the last one may
    // stay in flight into the next iteration (waitForCarriedProducts), as
    // may earlier ones that only carry their result.
    bool inFlight = product.inFlight ||
                    (plan.inFlight && &product == &plan.products.back());
    bool followedEarly = plan.products.size() > 1 &&
                         &product == &plan.products.front() &&
                         plan.products[1].issuedEarly;
    bool deferredNext = plan.deferLast && &product == &plan.products.front();
    bool async = inFlight || !pendingStores.empty() || followedEarly ||
                 product.issuedEarly || deferredNext;
    // A restarted accumulator: the product ignores it on the restart.
    Value acc = dot.getC(), useC;
    if (plan.accReset && &product == &plan.products.back()) {
      acc = plan.accReset.getFalseValue();
      Value restart =
          plan.accReset.getCondition().getDefiningOp<SplatOp>().getSrc();
      useC = arith::XOrIOp::create(
          b, dot.getLoc(), restart,
          arith::ConstantOp::create(b, dot.getLoc(), b.getBoolAttr(true)));
    }
    if (deferredNext && plan.pingPong)
      AwaitTurnOp::create(b, dot.getLoc());
    Value result = WarpGroupDotOp::create(
        b, dot.getLoc(), dot.getType(), operands[0], operands[1], acc, useC,
        dot.getInputPrecision(), async, dot.getUnsignedOperands());
    for (auto [tile, slot] : pendingStores)
      LocalStoreOp::create(b, dot.getLoc(), tile, slot);
    if (async && plan.products.size() == 1)
      result = WarpGroupDotWaitOp::create(b, dot.getLoc(), result,
                                          b.getI32IntegerAttr(inFlight));
    if (product.issuedEarly) {
      // The first product completes (and whatever the previous iteration
      // left in flight) with this one still running; this one completes
      // where the body first uses it.
      auto firstDone = WarpGroupDotWaitOp::create(b, dot.getLoc(), first,
                                                  b.getI32IntegerAttr(1));
      first.replaceAllUsesExcept(firstDone, firstDone);
      b.setInsertionPoint(dot);
      result = WarpGroupDotWaitOp::create(b, dot.getLoc(), result,
                                          b.getI32IntegerAttr(0));
    }
    if (followedEarly)
      first = result;
    if (deferredNext) {
      // The previous iteration's last product, then the wait for this one
      // with that one still in flight.
      ProductPlan &last = plan.products.back();
      Value b1 =
          ringOperand(b, last.operands[1],
                      slotOf(b, rings[last.operands[1].index], previousRead));
      deferred = WarpGroupDotOp::create(
          b, dot.getLoc(), last.dot.getType(), previousA, b1,
          newFor.getRegionIterArg(plan.accArg), Value(),
          last.dot.getInputPrecision(), /*isAsync=*/true,
          last.dot.getUnsignedOperands());
      if (plan.pingPong)
        PassTurnOp::create(b, dot.getLoc());
      result = WarpGroupDotWaitOp::create(b, dot.getLoc(), result,
                                          b.getI32IntegerAttr(1));
    }
    dot.replaceAllUsesWith(result);
    dot.erase();
    if (&product == &plan.products.back())
      waitInEpilogues(result);
  }
  if (deferred) {
    // The accumulator with the deferred product added, where the body first
    // uses it.
    BlockArgument acc = newFor.getRegionIterArg(plan.accArg);
    Block *body = newFor.getBody();
    Operation *firstUse = nullptr;
    for (Operation *user : acc.getUsers()) {
      if (user == deferred)
        continue;
      Operation *at = body->findAncestorOpInBlock(*user);
      if (!firstUse || at->isBeforeInBlock(firstUse))
        firstUse = at;
    }
    OpBuilder b(firstUse ? firstUse : body->getTerminator());
    auto done =
        WarpGroupDotWaitOp::create(b, loc, deferred, b.getI32IntegerAttr(0));
    acc.replaceUsesWithIf(
        done, [&](OpOperand &use) { return use.getOwner() != deferred; });
    // Both products have read the previous stage's slot: it may be written.
    if (plan.pingPong)
      BarrierArriveOp::create(b, loc, emptyBarriers, previousRead);
  }
  if (plan.accReset && plan.accReset->use_empty())
    plan.accReset->erase();
  // The loads and the conversions and transposes the products read them
  // through, users first.
  std::function<void(Operation *)> eraseWithUsers = [&](Operation *op) {
    for (Operation *user : llvm::make_early_inc_range(op->getUsers()))
      eraseWithUsers(user);
    op->erase();
  };
  for (OperandPlan &operand : plan.plans)
    eraseWithUsers(operand.load);
}

void LoopPipeliner::waitInEpilogues(Value result) {
  // Each epilogue reads the product once it is complete, and passes the
  // accumulator on as a result (waited for where it read it): were the
  // in-flight value still live after the wait, the backend would copy its
  // registers before it, which ptxas takes for reads of a running product
  // and serializes the products for (C7514).
  Value current = result;
  for (scf::IfOp epilogue : plan.epilogues) {
    OpBuilder b(epilogue);
    SmallVector<Type> types(epilogue.getResultTypes());
    types.push_back(result.getType());
    auto merged =
        scf::IfOp::create(b, epilogue.getLoc(), types, epilogue.getCondition(),
                          /*withElseRegion=*/true);
    for (auto [from, to] :
         llvm::zip_equal(epilogue->getRegions(), merged->getRegions())) {
      if (from.empty()) {
        OpBuilder eb = OpBuilder::atBlockEnd(&to.front());
        scf::YieldOp::create(eb, epilogue.getLoc(), current);
        continue;
      }
      to.takeBody(from);
      Block &block = to.front();
      Value passed = current;
      auto inRegion = [&](OpOperand &use) {
        return to.isAncestor(use.getOwner()->getParentRegion());
      };
      if (llvm::any_of(result.getUses(), inRegion)) {
        OpBuilder eb = OpBuilder::atBlockBegin(&block);
        auto done = WarpGroupDotWaitOp::create(eb, epilogue.getLoc(), current,
                                               eb.getI32IntegerAttr(0));
        result.replaceUsesWithIf(done, [&](OpOperand &use) {
          return use.getOwner() != done && inRegion(use);
        });
        passed = done;
      }
      block.getTerminator()->insertOperands(
          block.getTerminator()->getNumOperands(), passed);
    }
    epilogue.replaceAllUsesWith(merged.getResults().drop_back(1));
    epilogue.erase();
    current = merged.getResults().back();
  }
  if (current != result)
    yield->setOperand(plan.accArg, current);
}

SmallVector<int64_t> LoopPipeliner::getInFlightArgs() {
  // Only the last product's accumulator: earlier products left in flight
  // are completed by a later product's wait in the same iteration, and a
  // product accumulates into one in flight without a wait (waiting for them
  // before their next product as well made dQ 8% slower on an H100).
  SmallVector<int64_t> args;
  if (plan.inFlight && !plan.deferLast)
    args.push_back(plan.accArg);
  return args;
}

void LoopPipeliner::waitForCarriedProducts(scf::ForOp newFor,
                                           ArrayRef<int64_t> args) {
  Block *body = newFor.getBody();
  for (int64_t arg : args) {
    BlockArgument acc = newFor.getRegionIterArg(arg);
    Operation *first = nullptr;
    for (Operation *user : acc.getUsers()) {
      Operation *at = body->findAncestorOpInBlock(*user);
      if (!first || at->isBeforeInBlock(first))
        first = at;
    }
    if (!first)
      continue;
    OpBuilder b(first);
    auto done = WarpGroupDotWaitOp::create(b, loc, acc, b.getI32IntegerAttr(0));
    acc.replaceAllUsesExcept(done, done);
  }
}

void LoopPipeliner::emitEpilogue(scf::ForOp newFor,
                                 ArrayRef<int64_t> inFlightArgs) {
  OpBuilder b(newFor->getContext());
  b.setInsertionPointAfter(newFor);
  for (int64_t arg : inFlightArgs) {
    // The accumulator enters the loop through a wait too (nothing is in
    // flight yet; the instruction costs nothing): the backend then cannot
    // rematerialize its initial value (zeros) in a block of its own for
    // the path that skips the loop, which it may place between the loop
    // and the wait after it, where ptxas takes those copies for writes
    // into a product in flight and serializes every product (C7515).
    OpOperand &init = newFor.getInitsMutable()[arg];
    OpBuilder ib(newFor);
    init.set(WarpGroupDotWaitOp::create(ib, loc, init.get(),
                                        ib.getI32IntegerAttr(0)));
    Value acc = newFor.getResult(arg);
    auto done = WarpGroupDotWaitOp::create(b, loc, acc, b.getI32IntegerAttr(0));
    acc.replaceAllUsesExcept(done, done);
  }
  if (plan.deferLast) {
    // The last iteration's deferred product.
    const ProductOperand &v = plan.products.back().operands[1];
    Value acc = newFor.getResult(plan.accArg);
    Value slot =
        ringOperand(b, v,
                    slotOf(b, rings[v.index],
                           newFor.getResult(previousRead.getArgNumber() - 1)));
    auto product = cast<WarpGroupDotOp>(b.clone(*deferred));
    product.getAMutable().assign(
        newFor.getResult(previousA.getArgNumber() - 1));
    product.getBMutable().assign(slot);
    product.getCMutable().assign(acc);
    auto done = WarpGroupDotWaitOp::create(b, loc, product.getResult(),
                                           b.getI32IntegerAttr(0));
    acc.replaceAllUsesExcept(done, product);
  }
  // TMA copies past the last iteration are never issued; cp.async ones are
  // (zero-filling), and must land before the memory is reused. mbarriers
  // end their life before theirs is.
  if (plan.tma) {
    if (plan.pingPong)
      EndTurnsOp::create(b, loc);
    BarrierInvalidateOp::create(b, loc, barriers);
    if (plan.pingPong)
      BarrierInvalidateOp::create(b, loc, emptyBarriers);
    return;
  }
  if (plan.pingPong) {
    // The copies past the last stage arrive on their full barriers once
    // they land: wait for those phases before the barriers end.
    Value read = newFor.getResult(readArg.getArgNumber() - 1);
    Value phase = newFor.getResult(fullParityArg.getArgNumber() - 1);
    for (int64_t s = 0; s < plan.ahead; ++s) {
      BarrierWaitOp::create(b, loc, fullBarriers, read, phase);
      if (s + 1 == plan.ahead)
        break;
      Value wraps;
      read = nextSlot(b, loc, read, plan.numStages, wraps);
      phase = flipParity(b, loc, wraps, phase);
    }
  }
  AsyncWaitOp::create(b, loc, b.getI32IntegerAttr(0));
  if (plan.pingPong) {
    EndTurnsOp::create(b, loc);
    BarrierInvalidateOp::create(b, loc, fullBarriers);
    BarrierInvalidateOp::create(b, loc, emptyBarriers);
  }
}

void LoopPipeliner::run() {
  OpBuilder b(forOp);
  // The forward's q goes into its buffer after the prologue's copies, which
  // then need not wait for it to arrive, as in Triton's loop (measured on an
  // H100: attention over 1024 keys 2% faster, the rest within noise); the
  // backward's (dK/dV's k and v, dQ's q and dO) before them (there the later
  // store measured 3-4% slower).
  bool storeLater =
      plan.copyPlace == LoopPlan::CopyPlace::End || plan.deferLast;
  if (failed(allocate(b, storeLater)))
    return;
  SmallVector<Value> inits = emitPrologue(b);
  if (storeLater)
    storeInvariantBuffers(b);
  if (plan.pingPong)
    StartTurnsOp::create(b, loc);
  IRRewriter rewriter(forOp.getContext());
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(forOp.getOperation())
          .replaceWithAdditionalYields(
              rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &yb, Location, ArrayRef<BlockArgument> newArgs) {
                return buildIteration(yb, newArgs);
              });
  if (failed(replaced))
    return;
  auto newFor = cast<scf::ForOp>(replaced->getOperation());
  SmallVector<int64_t> inFlightArgs = getInFlightArgs();
  replaceProducts(newFor);
  if (plan.products.size() > 1)
    waitForCarriedProducts(newFor, inFlightArgs);
  emitEpilogue(newFor, inFlightArgs);
  forgetDeadIterArgs(newFor);
  if (plan.askSecondProgram)
    setProgramsPerSM(newFor->getParentOfType<func::FuncOp>(), 2);
}

/// Pipelines `forOp` through rings of `numStages` slots, if it qualifies
/// (`pipelined` says whether it did); fails (with an error at the product)
/// when the rings would not fit in shared memory, before any of them is
/// built.
static LogicalResult pipeline(scf::ForOp forOp, int64_t numStages, bool useTma,
                              bool batchedTma, bool multiProductTma,
                              bool deferProducts, bool pingPong,
                              bool &pipelined) {
  std::optional<LoopPlan> plan =
      planLoop(forOp, numStages, useTma, batchedTma, multiProductTma,
               deferProducts, pingPong);
  pipelined = false;
  if (!plan)
    return success();
  TargetInfo target = TargetInfo::get(forOp);
  int64_t bytes = getSharedBytes(*plan);
  if (bytes > target.getMaxSharedMemoryBytes())
    return plan->products.front().dot.emitError(
               plan->products.size() == 1
                   ? "the operand tiles of this tl.dot need "
                   : "the operand tiles of this loop's tl.dot products need ")
           << bytes << " bytes of shared memory in " << numStages
           << " stages, more than the " << target.getMaxSharedMemoryBytes()
           << " a program can have on " << target.getName()
           << ": use fewer stages (num_stages, --num-stages) or smaller "
              "blocks";
  LoopPipeliner(*plan).run();
  pipelined = true;
  return success();
}

/// Makes `store` (of a tensor descriptor or a checked block pointer) a TMA
/// store when the host can build its tensor map (with outer dimensions when
/// `batched`).
static void storeWithTma(StoreOp store, bool batched) {
  auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
  if (!store.getDescBase() || !type || type.getRank() != 2 || !getLayout(type))
    return;
  int64_t rowBytes =
      type.getDimSize(1) * getStorageBytes(type.getElementType());
  if (rowBytes < 32 || (rowBytes < 128 && rowBytes != 32 && rowBytes != 64))
    return;
  SmallVector<Value> coords;
  TensorMapAttr map =
      describeTensorMap(type, store.getDescBase(), store.getDescShape(),
                        store.getDescStrides(), store.getDescUnchecked(),
                        std::min<int64_t>(128, rowBytes), batched, coords);
  if (!map)
    return;
  Value param =
      addTensorMapParameter(store->getParentOfType<func::FuncOp>(), map);
  if (!param)
    return;
  OpBuilder b(store);
  llvm::append_range(coords, store.getDescOffsets());
  AsyncTmaStoreOp::create(b, store.getLoc(), param, coords, store.getValue());
  store.erase();
}

struct PipelinePass : public tilec::tile::impl::TilePipelineBase<PipelinePass> {
  using TilePipelineBase::TilePipelineBase;
  void runOnOperation() override {
    if (numStages >= 2) {
      SmallVector<scf::ForOp> loops;
      getOperation().walk([&](scf::ForOp forOp) { loops.push_back(forOp); });
      bool any = false;
      for (scf::ForOp forOp : loops) {
        bool pipelined = false;
        if (failed(pipeline(forOp, numStages, tma, batchedTma, multiProductTma,
                            deferProducts, pingPong, pipelined)))
          return signalPassFailure();
        any |= pipelined;
      }
      if (warnUnused && !any)
        getOperation().walk([&](func::FuncOp func) {
          func.emitWarning("num_stages=")
              << numStages.getValue()
              << " has no effect: no loop of this kernel is pipelined (tilec "
                 "pipelines loops of one tl.dot of loaded tiles, or of "
                 "several 16-bit tl.dot that load some operands, on sm_90a)";
        });
    }
    if (tma && TargetInfo::get(getOperation()).hasTma()) {
      SmallVector<StoreOp> stores;
      getOperation().walk([&](StoreOp store) { stores.push_back(store); });
      for (StoreOp store : stores)
        storeWithTma(store, batchedTma);
    }
  }
};

} // namespace
