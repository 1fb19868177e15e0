//===- AtomicOpToLLVM.cpp - Atomic read-modify-writes -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.atomic_rmw and tile.atomic_cas to predicated PTX
// `atom.SEM.SCOPE.global` through inline assembly, one instruction per
// element, with the op's memory semantics and scope (Triton's defaults:
// acq_rel, gpu). Each element is updated exactly once: only the thread that
// owns it (duplicated lane and warp bits zero, first register holding it)
// issues the atomic, and a scalar atomic is issued by thread 0 alone. When
// the old values are used and other threads hold copies, the owners pass
// them on through shared memory (barrier; store; barrier; load).
//
// Floating-point max/min use the integer trick: for a non-negative value,
// signed integer max/min of the bit patterns orders like the floats; for a
// negative one, unsigned min/max does. Masked-off elements return 0.
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

/// The PTX `.op.type` suffix for an update of `kind` on `type`, or "" if
/// the combination is not supported.
static std::string getAtomSuffix(AtomicKind kind, Type type) {
  unsigned bits = type.getIntOrFloatBitWidth();
  bool isFloat = isa<FloatType>(type);
  std::string b = ".b" + std::to_string(bits);
  switch (kind) {
  case AtomicKind::Add:
    if (type.isF32() || type.isF64())
      return ".add.f" + std::to_string(bits);
    if (type.isF16())
      return ".add.noftz.f16";
    if (type.isBF16())
      return ".add.noftz.bf16";
    if (!isFloat && (bits == 32 || bits == 64))
      return ".add.u" + std::to_string(bits);
    return "";
  case AtomicKind::Max:
  case AtomicKind::Min:
    if (bits != 32 && bits != 64)
      return "";
    // Floats are handled by the caller through integer updates.
    return std::string(kind == AtomicKind::Max ? ".max" : ".min") + ".s" +
           std::to_string(bits);
  case AtomicKind::UMax:
  case AtomicKind::UMin:
    if (isFloat || (bits != 32 && bits != 64))
      return "";
    return std::string(kind == AtomicKind::UMax ? ".max" : ".min") + ".u" +
           std::to_string(bits);
  case AtomicKind::Xchg:
    return bits == 32 || bits == 64 ? ".exch" + b : "";
  case AtomicKind::And:
  case AtomicKind::Or:
  case AtomicKind::Xor:
    if (isFloat || (bits != 32 && bits != 64))
      return "";
    return std::string(kind == AtomicKind::And  ? ".and"
                       : kind == AtomicKind::Or ? ".or"
                                                : ".xor") +
           b;
  }
  return "";
}

/// The `.sem.scope` qualifiers of an atomic.
static std::string getOrdering(MemSemantic sem, MemScope scope) {
  return "." + stringifyMemSemantic(sem).str() + "." +
         stringifyMemScope(scope).str();
}

/// One predicated atomic: `@pred atom<ordering>.global<suffix> old, [ptr],
/// value(, newValue);` on integer registers of the value's width, returning
/// the old bits (0 where the predicate is false). `newValue` is the new value
/// of a compare-and-swap, whose `bits` is the compared one.
static Value emitAtom(OpBuilder &b, Location loc, StringRef ordering,
                      StringRef suffix, Value ptr, Value bits, Value pred,
                      Value newValue = nullptr) {
  Type intType = bits.getType();
  unsigned width = intType.getIntOrFloatBitWidth();
  std::string c = width == 64 ? "l" : width == 32 ? "r" : "h";
  std::string asmText = "mov.b" + std::to_string(width) + " $0, 0;\n\t@$" +
                        (newValue ? "4" : "3") + " atom" + ordering.str() +
                        ".global" + suffix.str() + " $0, [$1], $2" +
                        (newValue ? ", $3;" : ";");
  std::string constraints =
      "=" + c + ",l," + c + (newValue ? "," + c : std::string()) + ",b";
  SmallVector<Value> operands = {ptr, bits};
  if (newValue)
    operands.push_back(newValue);
  operands.push_back(pred);
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, intType, operands, asmText, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  return asmOp.getResult(0);
}

/// The converted result type of atomic `op` and its element type, or null
/// after an error.
static std::pair<Type, Type> getAtomicTypes(Operation *op,
                                            const TypeConverter &converter) {
  Type type = op->getResult(0).getType();
  Type resultType = converter.convertType(type);
  Type elemType = converter.convertType(getElementTypeOrSelf(type));
  if (!resultType || !elemType || !elemType.isIntOrFloat()) {
    op->emitOpError("element type is not supported");
    return {};
  }
  return {resultType, elemType};
}

/// Replaces atomic `op` (result type `resultType` once converted; memory
/// semantics `sem` at `scope`) by its atomics, one per element its thread
/// owns, emitted by `emitOne(r, pred)` (r: the register; pred: owner and
/// mask): registers holding an element twice get the old value of the
/// first, and the old values are broadcast through shared memory when other
/// threads hold copies.
static LogicalResult
lowerAtomic(Operation *op, MemSemantic sem, MemScope scope, Type resultType,
            ConversionPatternRewriter &rewriter, size_t numRegisters,
            ArrayRef<Value> masks,
            llvm::function_ref<Value(size_t, Value)> emitOne) {
  Location loc = op->getLoc();
  Type type = op->getResult(0).getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  std::optional<TileDistribution> dist;
  if (tensor) {
    dist = TileDistribution::get(tensor);
    if (!dist)
      return op->emitOpError("layout is not supported");
  }
  bool broadcast = atomicNeedsBroadcast(op);
  if (broadcast && failed(checkSharedMemory(op, getScratchBytes(op))))
    return failure();
  Value owner =
      tensor ? emitOwnerPredicate(rewriter, loc, dist->getDuplicateLaneMask(),
                                  dist->getDuplicateWarpMask())
             : LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                    getThreadId(rewriter, loc),
                                    i32Constant(rewriter, loc, 0))
                   .getResult();
  Value trueValue = LLVM::ConstantOp::create(
      rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
  // A scalar atomic is the whole program's, though thread 0 alone issues
  // it. As a release it publishes what every thread stored before it (a
  // lock's hand-over): all threads meet first, so that their stores precede
  // thread 0's release in causality order, and the release, cumulative,
  // makes them visible with its own. As an acquire whose old value the
  // threads share, the barriers that share it order every thread's later
  // loads after thread 0's acquire. The atomic's own semantics do the rest:
  // a separate fence (each thread's, or thread 0's) changed nothing under
  // compute-sanitizer and made a layer-norm backward's lock 1.4x slower.
  bool met =
      !tensor && (sem == MemSemantic::Release || sem == MemSemantic::AcqRel);
  if (met)
    emitBarrier(rewriter, loc);

  SmallVector<Value> olds(numRegisters);
  for (size_t r = 0; r < numRegisters; ++r) {
    if (dist && dist->isDuplicateRegister(r))
      continue;
    Value pred = owner ? owner : trueValue;
    if (!masks.empty())
      pred = LLVM::AndOp::create(rewriter, loc, pred, masks[r]);
    olds[r] = emitOne(r, pred);
  }
  // Registers holding an element twice take the first one's old value.
  for (size_t r = 0; r < olds.size(); ++r)
    if (!olds[r])
      for (size_t s = 0; s < r && !olds[r]; ++s)
        if (dist->getRegisterCoords(s) == dist->getRegisterCoords(r))
          olds[r] = olds[s];
  if (!broadcast) {
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, olds));
    return success();
  }

  Type elemType = olds.front().getType();
  Value base = getScratchBase(rewriter, loc, op);
  SmallVector<Value> at;
  if (tensor) {
    for (const SmallVector<Value> &coords : emitIndices(rewriter, loc, tensor))
      at.push_back(linearizeIndex(rewriter, loc, coords, tensor.getShape()));
  } else {
    at.push_back(i32Constant(rewriter, loc, 0));
  }
  // No thread may still read the scratch buffer (an earlier op's) when the
  // owners store into it: a barrier, unless the release's meeting before
  // the atomic already was one (nothing touched shared memory since).
  if (!met)
    emitBarrier(rewriter, loc);
  Block *current = rewriter.getInsertionBlock();
  // Only owners store; others would store their zero placeholders.
  Block *after = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  Block *store = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(rewriter, loc, owner ? owner : trueValue, store,
                         after);
  rewriter.setInsertionPointToEnd(store);
  for (size_t r = 0; r < olds.size(); ++r)
    if (!dist || !dist->isDuplicateRegister(r))
      storeShared(rewriter, loc, base, at[r], olds[r]);
  LLVM::BrOp::create(rewriter, loc, ValueRange(), after);
  rewriter.setInsertionPointToStart(after);
  emitBarrier(rewriter, loc);
  for (size_t r = 0; r < olds.size(); ++r)
    olds[r] = loadShared(rewriter, loc, base, at[r], elemType);
  rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, olds));
  return success();
}

struct AtomicRMWOpLowering : public OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [resultType, elemType] = getAtomicTypes(op, *getTypeConverter());
    if (!resultType)
      return failure();
    AtomicKind kind = op.getKind();
    bool floatMinMax = isa<FloatType>(elemType) &&
                       (kind == AtomicKind::Max || kind == AtomicKind::Min);
    unsigned width = elemType.getIntOrFloatBitWidth();
    std::string suffix = getAtomSuffix(kind, elemType);
    if (suffix.empty() || (floatMinMax && width != 32 && width != 64))
      return op.emitOpError("atomic ") << stringifyAtomicKind(kind) << " on "
                                       << elemType << " is not supported";
    std::string ordering = getOrdering(op.getSem(), op.getScope());
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());
    Type intType = rewriter.getIntegerType(width);
    Value trueValue = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true));
    auto emitOne = [&](size_t r, Value pred) -> Value {
      Value bits = values[r];
      if (bits.getType() != intType)
        bits = LLVM::BitcastOp::create(rewriter, loc, intType, bits);
      Value old;
      if (floatMinMax) {
        // Non-negative values: signed max/min; negative: unsigned min/max.
        Value negative = LLVM::ICmpOp::create(
            rewriter, loc, LLVM::ICmpPredicate::slt, bits,
            LLVM::ConstantOp::create(rewriter, loc, intType,
                                     rewriter.getIntegerAttr(intType, 0)));
        Value positive =
            LLVM::XOrOp::create(rewriter, loc, negative, trueValue);
        std::string w = std::to_string(width);
        bool isMax = kind == AtomicKind::Max;
        Value oldPos = emitAtom(
            rewriter, loc, ordering, (isMax ? ".max.s" : ".min.s") + w, ptrs[r],
            bits, LLVM::AndOp::create(rewriter, loc, pred, positive));
        Value oldNeg = emitAtom(
            rewriter, loc, ordering, (isMax ? ".min.u" : ".max.u") + w, ptrs[r],
            bits, LLVM::AndOp::create(rewriter, loc, pred, negative));
        old = LLVM::SelectOp::create(rewriter, loc, negative, oldNeg, oldPos);
      } else {
        old = emitAtom(rewriter, loc, ordering, suffix, ptrs[r], bits, pred);
      }
      if (elemType != intType)
        old = LLVM::BitcastOp::create(rewriter, loc, elemType, old);
      return old;
    };
    return lowerAtomic(op, op.getSem(), op.getScope(), resultType, rewriter,
                       ptrs.size(), masks, emitOne);
  }
};

struct AtomicCASOpLowering : public OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [resultType, elemType] = getAtomicTypes(op, *getTypeConverter());
    if (!resultType)
      return failure();
    unsigned width = elemType.getIntOrFloatBitWidth();
    std::string ordering = getOrdering(op.getSem(), op.getScope());
    std::string suffix = ".cas.b" + std::to_string(width);
    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> cmps = unpackRegisters(rewriter, loc, adaptor.getCmp());
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getValue());
    Type intType = rewriter.getIntegerType(width);
    auto asInt = [&](Value v) -> Value {
      return v.getType() == intType
                 ? v
                 : LLVM::BitcastOp::create(rewriter, loc, intType, v);
    };
    auto emitOne = [&](size_t r, Value pred) -> Value {
      Value old = emitAtom(rewriter, loc, ordering, suffix, ptrs[r],
                           asInt(cmps[r]), pred, asInt(values[r]));
      if (elemType != intType)
        old = LLVM::BitcastOp::create(rewriter, loc, elemType, old);
      return old;
    };
    return lowerAtomic(op, op.getSem(), op.getScope(), resultType, rewriter,
                       ptrs.size(), {}, emitOne);
  }
};

} // namespace

void tilec::populateAtomicOpToLLVMPatterns(TileTypeConverter &converter,
                                           RewritePatternSet &patterns) {
  patterns.add<AtomicRMWOpLowering, AtomicCASOpLowering>(converter,
                                                         patterns.getContext());
}
