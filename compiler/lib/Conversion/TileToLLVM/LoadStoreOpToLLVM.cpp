//===- LoadStoreOpToLLVM.cpp - Masked global loads and stores ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.load and tile.store to predicated PTX `ld.global` /
// `st.global` instructions through inline assembly, one instruction per group
// of `width` consecutive registers (`width` was proven safe by AxisInfo before
// conversion). Groups of 32 bits or more move as 32-bit words (`.v2`/`.v4`),
// narrower groups as one 16-bit or 8-bit access. i1 tiles live in memory as
// bytes (0 or 1), as in Triton. Stores are issued only by the thread that
// owns each element when the layout gives several threads copies (thread 0
// for a scalar store), so that each address is written once.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// How one access of `width` elements of `bits` bits moves through registers.
struct AccessShape {
  unsigned numRegs; ///< inline-asm operands for the data
  unsigned regBits; ///< bits of each such operand
  char constraint;  ///< inline-asm constraint letter of a data operand
};

static AccessShape getAccessShape(unsigned bits, int64_t width) {
  unsigned total = bits * width;
  if (total >= 32)
    return {total / 32, 32, 'r'};
  if (total == 16)
    return {1, 16, 'h'};
  return {1, 8, 'c'};
}

/// The PTX type suffix of one access (`.v4.b32`, `.b16`, `.b8`...).
static std::string ptxAccessType(const AccessShape &shape) {
  std::string vec =
      shape.numRegs > 1 ? ".v" + std::to_string(shape.numRegs) : std::string();
  return vec + ".b" + std::to_string(shape.regBits);
}

/// Packs `elements` (of one scalar type) into `shape.numRegs` integers of
/// `shape.regBits` bits.
static SmallVector<Value> toAccessRegs(OpBuilder &b, Location loc,
                                       ArrayRef<Value> elements,
                                       const AccessShape &shape) {
  Type elemType = elements.front().getType();
  Type regType = b.getIntegerType(shape.regBits);
  auto vecType = VectorType::get({int64_t(elements.size())}, elemType);
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, e] : llvm::enumerate(elements))
    vec = LLVM::InsertElementOp::create(b, loc, vec, e, i32Constant(b, loc, i));
  auto regsType = VectorType::get({int64_t(shape.numRegs)}, regType);
  Value regs = LLVM::BitcastOp::create(b, loc, regsType, vec);
  SmallVector<Value> result;
  for (unsigned i = 0; i < shape.numRegs; ++i)
    result.push_back(
        LLVM::ExtractElementOp::create(b, loc, regs, i32Constant(b, loc, i)));
  return result;
}

/// Inverse of toAccessRegs: `width` elements of `elemType`.
static SmallVector<Value> fromAccessRegs(OpBuilder &b, Location loc,
                                         ArrayRef<Value> regs, Type elemType,
                                         int64_t width) {
  Type regType = regs.front().getType();
  auto regsType = VectorType::get({int64_t(regs.size())}, regType);
  Value vec = LLVM::UndefOp::create(b, loc, regsType);
  for (auto [i, r] : llvm::enumerate(regs))
    vec = LLVM::InsertElementOp::create(b, loc, vec, r, i32Constant(b, loc, i));
  auto elemsType = VectorType::get({width}, elemType);
  Value elems = LLVM::BitcastOp::create(b, loc, elemsType, vec);
  SmallVector<Value> result;
  for (int64_t i = 0; i < width; ++i)
    result.push_back(
        LLVM::ExtractElementOp::create(b, loc, elems, i32Constant(b, loc, i)));
  return result;
}

/// The type an element of register type `type` is moved through global
/// memory as: i1 as a byte, pointers as 64-bit integers.
static Type getGlobalMemoryType(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return IntegerType::get(type.getContext(), 64);
  return getMemoryType(type);
}

/// Converts register values to their global memory type.
static SmallVector<Value> toMemory(OpBuilder &b, Location loc,
                                   SmallVector<Value> values) {
  for (Value &v : values) {
    Type memType = getGlobalMemoryType(v.getType());
    if (isa<LLVM::LLVMPointerType>(v.getType()))
      v = LLVM::PtrToIntOp::create(b, loc, memType, v);
    else if (v.getType() != memType)
      v = LLVM::ZExtOp::create(b, loc, memType, v);
  }
  return values;
}

/// Converts a loaded memory value back to the register type `type`.
static Value fromMemory(OpBuilder &b, Location loc, Value v, Type type) {
  if (v.getType() == type)
    return v;
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, v);
  return LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::ne, v,
      LLVM::ConstantOp::create(b, loc, v.getType(),
                               b.getIntegerAttr(v.getType(), 0)));
}

/// The vector width recorded for `op`, limited by how many registers of the
/// layout are consecutive.
static int64_t getWidth(Operation *op, const VectorWidths &widths) {
  auto it = widths.find(op);
  return it == widths.end() ? 1 : it->second;
}

struct LoadOpLowering : public OpConversionPattern<LoadOp> {
  LoadOpLowering(TypeConverter &converter, MLIRContext *ctx,
                 const VectorWidths &widths)
      : OpConversionPattern(converter, ctx), widths(widths) {}

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elemType =
        getTypeConverter()->convertType(getElementTypeOrSelf(op.getType()));
    if (!resultType || !elemType)
      return failure();
    Type memType = getGlobalMemoryType(elemType);
    if (!memType.isIntOrFloat() || memType.getIntOrFloatBitWidth() % 8 != 0)
      return op.emitOpError("cannot load ") << elemType << " elements";
    unsigned bits = memType.getIntOrFloatBitWidth();
    int64_t width = getWidth(op, widths);

    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = toMemory(rewriter, loc,
                        unpackRegisters(rewriter, loc, adaptor.getOther()));

    AccessShape shape = getAccessShape(bits, width);
    Type regType = rewriter.getIntegerType(shape.regBits);
    SmallVector<Type> asmResults(shape.numRegs, regType);
    Type asmResultType =
        shape.numRegs == 1
            ? regType
            : LLVM::LLVMStructType::getLiteral(getContext(), asmResults);

    SmallVector<Value> loaded;
    for (size_t i = 0; i < ptrs.size(); i += width) {
      // Outputs $0..$k-1, then the address, the predicate and the values used
      // where the predicate is false.
      std::string constraints, asmText;
      unsigned k = shape.numRegs;
      for (unsigned j = 0; j < k; ++j)
        constraints += std::string(j ? "," : "") + "=" + shape.constraint;
      constraints += ",l";
      SmallVector<Value> asmOperands{ptrs[i]};
      std::string outs;
      for (unsigned j = 0; j < k; ++j)
        outs += (j ? ", $" : "$") + std::to_string(j);
      if (shape.numRegs > 1)
        outs = "{" + outs + "}";
      std::string ld = "ld.global" + ptxAccessType(shape) + " " + outs +
                       ", [$" + std::to_string(k) + "];";
      if (!masks.empty()) {
        constraints += ",b";
        asmOperands.push_back(masks[i]);
        SmallVector<Value> fill;
        if (!others.empty())
          fill = toAccessRegs(rewriter, loc,
                              ArrayRef<Value>(others).slice(i, width), shape);
        else
          fill.assign(
              k, LLVM::ConstantOp::create(rewriter, loc, regType,
                                          rewriter.getIntegerAttr(regType, 0)));
        for (unsigned j = 0; j < k; ++j) {
          constraints += std::string(",") + shape.constraint;
          asmOperands.push_back(fill[j]);
          // 8-bit values live in 16-bit registers ('c'); PTX has no mov.b8.
          asmText += llvm::formatv("mov.b{0} ${1}, ${2};\n\t",
                                   std::max(16u, shape.regBits), j, k + 2 + j)
                         .str();
        }
        asmText += "@$" + std::to_string(k + 1) + " " + ld;
      } else {
        asmText = ld;
      }
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, asmResultType, asmOperands, asmText, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
          /*operand_attrs=*/nullptr);
      SmallVector<Value> regs;
      if (k == 1)
        regs.push_back(asmOp.getResult(0));
      else
        for (unsigned j = 0; j < k; ++j)
          regs.push_back(LLVM::ExtractValueOp::create(rewriter, loc,
                                                      asmOp.getResult(0), j));
      for (Value v : fromAccessRegs(rewriter, loc, regs, memType, width))
        loaded.push_back(fromMemory(rewriter, loc, v, elemType));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, loaded));
    return success();
  }

private:
  const VectorWidths &widths;
};

struct StoreOpLowering : public OpConversionPattern<StoreOp> {
  StoreOpLowering(TypeConverter &converter, MLIRContext *ctx,
                  const VectorWidths &widths)
      : OpConversionPattern(converter, ctx), widths(widths) {}

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType = getTypeConverter()->convertType(
        getElementTypeOrSelf(op.getValue().getType()));
    if (!elemType)
      return failure();
    Type memType = getGlobalMemoryType(elemType);
    if (!memType.isIntOrFloat() || memType.getIntOrFloatBitWidth() % 8 != 0)
      return op.emitOpError("cannot store ") << elemType << " elements";
    unsigned bits = memType.getIntOrFloatBitWidth();
    int64_t width = getWidth(op, widths);
    AccessShape shape = getAccessShape(bits, width);

    SmallVector<Value> ptrs = unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values = toMemory(
        rewriter, loc, unpackRegisters(rewriter, loc, adaptor.getValue()));
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());

    // Only one thread writes each element.
    std::optional<tile::TileDistribution> dist;
    Value owner;
    if (isa<RankedTensorType>(op.getPtr().getType())) {
      dist = tile::TileDistribution::get(op.getPtr().getType());
      if (!dist)
        return op.emitOpError("layout is not supported");
      owner = emitOwnerPredicate(rewriter, loc, dist->getDuplicateLaneMask(),
                                 dist->getDuplicateWarpMask());
    } else {
      owner = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                   getThreadId(rewriter, loc),
                                   i32Constant(rewriter, loc, 0));
    }

    for (size_t i = 0; i < ptrs.size(); i += width) {
      // Groups are aligned runs of one dimension, so a group repeating
      // earlier registers repeats them all.
      if (dist && dist->isDuplicateRegister(i))
        continue;
      unsigned k = shape.numRegs;
      SmallVector<Value> asmOperands{ptrs[i]};
      std::string constraints = "l";
      unsigned next = 1;
      std::string pred;
      Value predicate = owner;
      if (!masks.empty())
        predicate =
            predicate ? LLVM::AndOp::create(rewriter, loc, predicate, masks[i])
                            .getResult()
                      : masks[i];
      if (predicate) {
        constraints += ",b";
        asmOperands.push_back(predicate);
        pred = "@$1 ";
        next = 2;
      }
      SmallVector<Value> regs = toAccessRegs(
          rewriter, loc, ArrayRef<Value>(values).slice(i, width), shape);
      std::string ins;
      for (unsigned j = 0; j < k; ++j) {
        constraints += std::string(",") + shape.constraint;
        asmOperands.push_back(regs[j]);
        ins += (j ? ", $" : "$") + std::to_string(next + j);
      }
      if (k > 1)
        ins = "{" + ins + "}";
      std::string asmText =
          pred + "st.global" + ptxAccessType(shape) + " [$0], " + ins + ";";
      LLVM::InlineAsmOp::create(
          rewriter, loc, TypeRange(), asmOperands, asmText, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
          /*operand_attrs=*/nullptr);
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  const VectorWidths &widths;
};

} // namespace

void tilec::populateLoadStoreOpToLLVMPatterns(TileTypeConverter &converter,
                                              RewritePatternSet &patterns,
                                              const VectorWidths &widths) {
  patterns.add<LoadOpLowering, StoreOpLowering>(converter,
                                                patterns.getContext(), widths);
}
