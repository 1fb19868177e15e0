//===- Utility.cpp - Shared memory, barriers and shuffles -------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The helpers that lowering patterns use to exchange data between threads:
// the one external shared-memory array (`global_smem`, sized at launch from
// the module's `tile.shared`), element loads and stores into it, CTA
// barriers, warp shuffles of any scalar type, and scalar casts.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace tilec;

LogicalResult tilec::checkSharedMemory(Operation *op, int64_t bytes) {
  int64_t reserved = tile::getSharedMemoryBytes(op);
  bytes += tile::getScratchOffset(op);
  if (reserved >= bytes)
    return success();
  return op->emitOpError("needs ")
         << bytes << " bytes of shared memory but the module reserves "
         << reserved << ": run tile-allocate-shared-memory first";
}

Value tilec::getSharedMemoryBase(OpBuilder &b, Location loc, int64_t offset) {
  MLIRContext *ctx = b.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3);
  Value base = LLVM::AddressOfOp::create(
      b, loc, ptrType, FlatSymbolRefAttr::get(ctx, kSharedMemorySymbol));
  if (offset == 0)
    return base;
  return LLVM::GEPOp::create(b, loc, ptrType, b.getI8Type(), base,
                             ArrayRef<LLVM::GEPArg>{int32_t(offset)});
}

Value tilec::getScratchBase(OpBuilder &b, Location loc, Operation *op,
                            int64_t offset) {
  return getSharedMemoryBase(b, loc, tile::getScratchOffset(op) + offset);
}

Type tilec::getMemoryType(Type type) {
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

void tilec::storeShared(OpBuilder &b, Location loc, Value base, Value index,
                        Value value) {
  Type memType = getMemoryType(value.getType());
  if (memType != value.getType())
    value = LLVM::ZExtOp::create(b, loc, memType, value);
  Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), memType, base,
                                  ValueRange{index});
  LLVM::StoreOp::create(b, loc, value, ptr);
}

Value tilec::loadShared(OpBuilder &b, Location loc, Value base, Value index,
                        Type type) {
  Type memType = getMemoryType(type);
  Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), memType, base,
                                  ValueRange{index});
  Value value = LLVM::LoadOp::create(b, loc, memType, ptr);
  if (memType == type)
    return value;
  return LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::ne, value,
      LLVM::ConstantOp::create(b, loc, memType, b.getIntegerAttr(memType, 0)));
}

void tilec::emitBarrier(OpBuilder &b, Location loc) {
  NVVM::Barrier0Op::create(b, loc);
}

/// One 32-bit butterfly shuffle.
static Value shuffle32(OpBuilder &b, Location loc, Value value,
                       unsigned laneMask) {
  return NVVM::ShflOp::create(b, loc, value.getType(), i32Constant(b, loc, -1),
                              value, i32Constant(b, loc, laneMask),
                              i32Constant(b, loc, 0x1f), NVVM::ShflKind::bfly,
                              /*return_value_and_is_valid=*/UnitAttr());
}

Value tilec::shuffleXor(OpBuilder &b, Location loc, Value value,
                        unsigned laneMask) {
  Type type = value.getType();
  Type i32 = b.getI32Type();
  if (type.isF32() || type.isInteger(32))
    return shuffle32(b, loc, value, laneMask);
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = b.getIntegerType(bits);
  Value asInt =
      type.isInteger()
          ? value
          : LLVM::BitcastOp::create(b, loc, intType, value).getResult();
  Value result;
  if (bits == 64) {
    auto vec = VectorType::get({2}, i32);
    Value halves = LLVM::BitcastOp::create(b, loc, vec, asInt);
    Value out = LLVM::UndefOp::create(b, loc, vec);
    for (int i = 0; i < 2; ++i) {
      Value idx = i32Constant(b, loc, i);
      Value half = LLVM::ExtractElementOp::create(b, loc, halves, idx);
      out = LLVM::InsertElementOp::create(
          b, loc, out, shuffle32(b, loc, half, laneMask), idx);
    }
    result = LLVM::BitcastOp::create(b, loc, intType, out);
  } else {
    assert(bits < 32 && "scalars are at most 64 bits");
    Value wide = LLVM::ZExtOp::create(b, loc, i32, asInt);
    result = LLVM::TruncOp::create(b, loc, intType,
                                   shuffle32(b, loc, wide, laneMask));
  }
  if (type.isInteger())
    return result;
  return LLVM::BitcastOp::create(b, loc, type, result);
}

SmallVector<Value> tilec::inlineScalarRegion(RewriterBase &b, Region &region,
                                             ValueRange args,
                                             TypeRange yieldTypes) {
  auto isYield = [](Operation *op) {
    return isa<tile::CombineYieldOp, tile::MapElementwiseYieldOp>(op);
  };
  IRMapping mapping;
  mapping.map(region.front().getArguments(), args);
  if (region.hasOneBlock()) {
    Block &block = region.front();
    for (Operation &op : block.without_terminator())
      b.clone(op, mapping);
    return llvm::map_to_vector(
        block.getTerminator()->getOperands(),
        [&](Value v) { return mapping.lookupOrDefault(v); });
  }
  // before -> (the region's blocks) -> join(results) -> tail.
  Location loc = region.getParentOp()->getLoc();
  Block *before = b.getInsertionBlock();
  Block *tail = b.splitBlock(before, b.getInsertionPoint());
  Block *join = b.createBlock(tail, yieldTypes,
                              SmallVector<Location>(yieldTypes.size(), loc));
  LLVM::BrOp::create(b, loc, ValueRange(), tail);
  b.cloneRegionBefore(region, *join->getParent(), join->getIterator(), mapping);
  Block *entry = mapping.lookup(&region.front());
  b.setInsertionPointToEnd(before);
  LLVM::BrOp::create(b, loc, ValueRange(), entry);
  for (Block *block = entry; block != join; block = block->getNextNode()) {
    Operation *terminator = block->getTerminator();
    if (!isYield(terminator))
      continue;
    b.setInsertionPoint(terminator);
    LLVM::BrOp::create(b, loc, terminator->getOperands(), join);
    b.eraseOp(terminator);
  }
  b.setInsertionPointToStart(tail);
  return SmallVector<Value>(join->getArguments());
}

Value tilec::castScalar(OpBuilder &b, Location loc, Value value, Type type) {
  Type from = value.getType();
  if (from == type)
    return value;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(type);
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = type.getIntOrFloatBitWidth();
  if (fromFloat && toFloat) {
    if (fromBits == toBits) // f16 <-> bf16, through f32
      value = LLVM::FPExtOp::create(b, loc, b.getF32Type(), value);
    else if (fromBits < toBits)
      return LLVM::FPExtOp::create(b, loc, type, value);
    return LLVM::FPTruncOp::create(b, loc, type, value);
  }
  if (!fromFloat && !toFloat) {
    if (fromBits < toBits)
      return LLVM::SExtOp::create(b, loc, type, value);
    return LLVM::TruncOp::create(b, loc, type, value);
  }
  if (!fromFloat)
    return LLVM::SIToFPOp::create(b, loc, type, value);
  return LLVM::FPToSIOp::create(b, loc, type, value);
}

//===----------------------------------------------------------------------===//
// Inline PTX
//===----------------------------------------------------------------------===//

/// The inline-asm constraint letter of a register of `type` (shared-memory
/// pointers have 32 bits: the data layout tilec's PTX is made with).
static StringRef constraintLetter(Type type) {
  if (type.isF32())
    return "f";
  if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(type))
    return ptr.getAddressSpace() == unsigned(NVVM::NVVMMemorySpace::Shared)
               ? "r"
               : "l";
  if (type.isInteger(64))
    return "l";
  return "r";
}

SmallVector<Value> tilec::emitInlinePtx(OpBuilder &b, Location loc,
                                        StringRef text, TypeRange resultTypes,
                                        ValueRange inputs, ValueRange tied) {
  std::string constraints;
  auto add = [&](const std::string &c) {
    constraints += (constraints.empty() ? "" : ",") + c;
  };
  for (Type t : resultTypes)
    add("=" + constraintLetter(t).str());
  for (Value v : inputs)
    add(constraintLetter(v.getType()).str());
  for (size_t i = 0; i < tied.size(); ++i)
    add(std::to_string(i));
  SmallVector<Value> operands(inputs.begin(), inputs.end());
  operands.append(tied.begin(), tied.end());
  Type result;
  if (resultTypes.size() == 1)
    result = resultTypes.front();
  else if (!resultTypes.empty())
    result = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                              SmallVector<Type>(resultTypes));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, result ? TypeRange(result) : TypeRange(), operands, text,
      constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
      /*operand_attrs=*/nullptr);
  if (resultTypes.size() <= 1)
    return SmallVector<Value>(asmOp->getResults());
  SmallVector<Value> out;
  for (size_t i = 0; i < resultTypes.size(); ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0),
                                               ArrayRef<int64_t>{int64_t(i)}));
  return out;
}

std::string tilec::ptxOperandList(size_t first, size_t n) {
  std::string s = "{";
  for (size_t i = 0; i < n; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + "}";
}

Value tilec::emitExternCall(OpBuilder &b, Location loc, StringRef symbol,
                            Type resultType, ValueRange args) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  auto fnType = LLVM::LLVMFunctionType::get(
      resultType, llvm::to_vector(args.getTypes()), /*isVarArg=*/false);
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol);
  if (!fn) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    fn = LLVM::LLVMFuncOp::create(b, loc, symbol, fnType);
  }
  auto call = LLVM::CallOp::create(b, loc, fn, args);
  return call.getNumResults() ? call.getResult() : Value();
}

Value tilec::getStringConstant(OpBuilder &b, Location loc, StringRef prefix,
                               StringRef text) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  std::string data = text.str();
  data.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
  // One global per distinct text.
  LLVM::GlobalOp global;
  for (unsigned n = 0;; ++n) {
    std::string name = prefix.str() + "_" + std::to_string(n);
    global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                      LLVM::Linkage::Internal, name,
                                      b.getStringAttr(data));
      break;
    }
    auto value = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
    if (value && value.getValue() == data)
      break;
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}
