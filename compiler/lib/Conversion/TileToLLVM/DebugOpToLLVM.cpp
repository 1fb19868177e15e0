//===- DebugOpToLLVM.cpp - Printing, assertions and barriers ----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tile.print calls CUDA's vprintf once per element (its owner thread; a
// scalar by thread 0) with `pid (x, y, z) idx (i, j) PREFIX v0 v1 ...`:
// floats printed as doubles (%f), integers as 64-bit (%lld, or 0x%llx with
// hex), pointers as addresses. tile.assert calls __assertfail (the CUDA
// device runtime's assertion, which stops the kernel and makes the launch
// fail) in each thread that holds an element whose condition is false.
// tile.debug_barrier is `bar.sync 0`.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileDistribution.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

/// Runs `body` only where `pred` holds (always when `pred` is null).
static void emitIf(ConversionPatternRewriter &rewriter, Location loc,
                   Value pred, llvm::function_ref<void()> body) {
  if (!pred) {
    body();
    return;
  }
  Block *current = rewriter.getInsertionBlock();
  Block *after = rewriter.splitBlock(current, rewriter.getInsertionPoint());
  Block *then = rewriter.createBlock(after);
  rewriter.setInsertionPointToEnd(current);
  LLVM::CondBrOp::create(rewriter, loc, pred, then, after);
  rewriter.setInsertionPointToEnd(then);
  body();
  LLVM::BrOp::create(rewriter, loc, ValueRange(), after);
  rewriter.setInsertionPointToStart(after);
}

/// The owner predicate of `type`'s elements (a scalar: thread 0), or null
/// when every thread owns its elements.
static Value ownerOf(OpBuilder &b, Location loc, Type type,
                     std::optional<TileDistribution> &dist) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    dist = TileDistribution::get(tensor);
    if (!dist)
      return {};
    return emitOwnerPredicate(b, loc, dist->getDuplicateLaneMask(),
                              dist->getDuplicateWarpMask());
  }
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                              getThreadId(b, loc), i32Constant(b, loc, 0));
}

struct PrintOpLowering : public OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = getContext();
    Type first = op.getArgs().empty() ? Type() : op.getArgs()[0].getType();
    auto tensor = dyn_cast_or_null<RankedTensorType>(first);
    std::optional<TileDistribution> dist;
    Value owner = first ? ownerOf(rewriter, loc, first, dist)
                        : ownerOf(rewriter, loc, rewriter.getI32Type(), dist);
    if (tensor && !dist)
      return op.emitOpError("layout is not supported");

    // The format: pid, the element's coordinates, the prefix, the values.
    std::string format = "pid (%u, %u, %u) ";
    if (tensor) {
      format += "idx (";
      for (int64_t d = 0; d < tensor.getRank(); ++d)
        format += d ? ", %d" : "%d";
      format += ") ";
    }
    format += op.getPrefix().str();
    SmallVector<Type> slots(3, rewriter.getI32Type());
    if (tensor)
      slots.append(tensor.getRank(), rewriter.getI32Type());
    for (auto [i, arg] : llvm::enumerate(op.getArgs())) {
      Type elem = getElementTypeOrSelf(arg.getType());
      format += i ? " " : "";
      if (isa<FloatType>(elem)) {
        format += "%f";
        slots.push_back(rewriter.getF64Type());
      } else {
        format += isa<PtrType>(elem) || op.getHex() ? "0x%llx"
                  : op.isUnsignedArg(i)             ? "%llu"
                                                    : "%lld";
        slots.push_back(rewriter.getI64Type());
      }
    }
    format += "\n";
    Value fmt = getStringConstant(rewriter, loc, "printfFormat", format);
    auto bufferType = LLVM::LLVMStructType::getLiteral(ctx, slots);
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    // The argument buffer, allocated once at the function's entry.
    Value buffer;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block &entry =
          op->getParentOfType<FunctionOpInterface>().getFunctionBody().front();
      rewriter.setInsertionPointToStart(&entry);
      buffer = LLVM::AllocaOp::create(rewriter, loc, ptrType, bufferType,
                                      i32Constant(rewriter, loc, 1));
    }

    SmallVector<SmallVector<Value>> regs;
    for (Value arg : adaptor.getArgs())
      regs.push_back(unpackRegisters(rewriter, loc, arg));
    SmallVector<SmallVector<Value>> coords;
    if (tensor)
      coords = emitIndices(rewriter, loc, tensor);
    Value pid[3] = {
        NVVM::BlockIdXOp::create(rewriter, loc, rewriter.getI32Type()),
        NVVM::BlockIdYOp::create(rewriter, loc, rewriter.getI32Type()),
        NVVM::BlockIdZOp::create(rewriter, loc, rewriter.getI32Type())};
    size_t numRegs = tensor ? dist->getNumRegisters() : 1;
    for (size_t r = 0; r < numRegs; ++r) {
      if (dist && dist->isDuplicateRegister(r))
        continue;
      emitIf(rewriter, loc, owner, [&] {
        SmallVector<Value> fields(pid, pid + 3);
        if (tensor)
          fields.append(coords[r].begin(), coords[r].end());
        for (auto [i, argRegs] : llvm::enumerate(regs)) {
          Value v = argRegs.size() == 1 ? argRegs[0] : argRegs[r];
          Type t = v.getType();
          if (isa<FloatType>(t))
            v = LLVM::FPExtOp::create(rewriter, loc, rewriter.getF64Type(), v);
          else if (isa<LLVM::LLVMPointerType>(t))
            v = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                         v);
          else if (t.getIntOrFloatBitWidth() < 64)
            v = t.isInteger(1) || op.isUnsignedArg(i)
                    ? Value(LLVM::ZExtOp::create(rewriter, loc,
                                                 rewriter.getI64Type(), v))
                    : Value(LLVM::SExtOp::create(rewriter, loc,
                                                 rewriter.getI64Type(), v));
          fields.push_back(v);
        }
        for (auto [i, field] : llvm::enumerate(fields)) {
          Value at =
              LLVM::GEPOp::create(rewriter, loc, ptrType, bufferType, buffer,
                                  ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
          LLVM::StoreOp::create(rewriter, loc, field, at);
        }
        emitExternCall(rewriter, loc, "vprintf", rewriter.getI32Type(),
                       ValueRange{fmt, buffer});
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpLowering : public OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Fails where any element this thread holds is false.
    Value fails;
    for (Value holds : unpackRegisters(rewriter, loc, adaptor.getCondition())) {
      Value f = LLVM::XOrOp::create(
          rewriter, loc, holds,
          LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                   rewriter.getBoolAttr(true)));
      fails = fails ? Value(LLVM::OrOp::create(rewriter, loc, fails, f)) : f;
    }
    emitIf(rewriter, loc, fails, [&] {
      Value message =
          getStringConstant(rewriter, loc, "assertMessage", op.getMessage());
      Value file = getStringConstant(rewriter, loc, "assertFile", op.getFile());
      auto func = op->getParentOfType<FunctionOpInterface>();
      Value function = getStringConstant(rewriter, loc, "assertFunction",
                                         func ? func.getName() : "kernel");
      Value line = i32Constant(rewriter, loc, op.getLine());
      Value charSize = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI64Type(), rewriter.getI64IntegerAttr(1));
      emitExternCall(rewriter, loc, "__assertfail",
                     LLVM::LLVMVoidType::get(getContext()),
                     ValueRange{message, file, line, function, charSize});
    });
    rewriter.eraseOp(op);
    return success();
  }
};

struct DebugBarrierOpLowering : public OpConversionPattern<DebugBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DebugBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitBarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.grid_dep_wait and tile.grid_dep_launch_dependents: griddepcontrol.
template <typename Op, NVVM::GridDepActionKind kind>
struct GridDepOpLowering : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::GriddepcontrolOp::create(rewriter, op.getLoc(), kind);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tilec::populateDebugOpToLLVMPatterns(TileTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<PrintOpLowering, AssertOpLowering, DebugBarrierOpLowering,
               GridDepOpLowering<GridDepWaitOp, NVVM::GridDepActionKind::wait>,
               GridDepOpLowering<GridDepLaunchOp,
                                 NVVM::GridDepActionKind::launch_dependents>>(
      converter, patterns.getContext());
}
