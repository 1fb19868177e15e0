//===- MmaSyncDotOpToLLVM.cpp - Matrix products with mma.sync ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.dot whose result is in an `#tile.mma` version 2 layout (f16 or
// bf16 operands, f32 accumulator) with warp-level `mma.sync.m16n8k16`, the
// tensor-core instruction of sm_80 that sm_90 keeps. The operands are staged
// from registers into the swizzled layout of SharedOperand.h (K-major A,
// N-major B), and each warp reads its fragments with ldmatrix:
//
//   bar.sync; st.shared a and b; bar.sync;
//   for each K step of 16: for each 16-row block of the warp:
//     ldmatrix.x4 (a 16x16 fragment of A);
//     for each 8-column block: ldmatrix.x2.trans (a 16x8 fragment of B);
//       mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}
//
// Lane `l` of ldmatrix gives the address of row `l % 8` of matrix `l / 8`.
// For A the four 8x8 matrices are rows 0-7 and 8-15 of columns 0-7, then of
// columns 8-15 (the a0..a3 registers of mma); for B, stored as [K][N],
// `.trans` turns rows k0..k0+7 of 8 columns into the b registers.
//
//===----------------------------------------------------------------------===//

#include "SharedOperand.h"
#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

namespace {

struct MmaSyncDotOpLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(cType.getEncoding());
    if (!mma || !mma.isMmaSync())
      return failure();
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    Type inElem = aType.getElementType();
    if (!(inElem.isF16() || inElem.isBF16()) ||
        !cType.getElementType().isF32() || !TileDistribution::get(aType) ||
        !TileDistribution::get(bType))
      return op.emitOpError("cannot run on mma.sync: ")
             << inElem << " operands into " << cType.getElementType();
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();

    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);
    int64_t warpsM = mma.getWarpsPerCTA()[0], warpsN = mma.getWarpsPerCTA()[1];
    int64_t repM = mma.getRepetitions(cType.getShape(), 0);
    int64_t repN = mma.getRepetitions(cType.getShape(), 1);
    SharedOperand aSmem = SharedOperand::get(1, M, K, 2);
    SharedOperand bSmem = SharedOperand::get(1, K, N, 2);

    Type i32 = rewriter.getI32Type();
    Value smemBase = LLVM::PtrToIntOp::create(
        rewriter, loc, i32, getScratchBase(rewriter, loc, op));
    int64_t bOffset = getDotOperandBOffset(op);
    emitBarrier(rewriter, loc);
    storeSharedOperand(rewriter, loc, adaptor.getA(), aType, aSmem, smemBase,
                       0);
    storeSharedOperand(rewriter, loc, adaptor.getB(), bType, bSmem, smemBase,
                       bOffset);
    emitBarrier(rewriter, loc);

    // Lane l addresses row l % 16 of its 16-row (A) or 16-deep (B) block, at
    // column 8 * (l / 16) for A.
    Value lane = getLaneId(rewriter, loc);
    Value warp = getWarpId(rewriter, loc);
    Value laneRow = LLVM::URemOp::create(rewriter, loc, lane,
                                         i32Constant(rewriter, loc, 16));
    Value laneCol = LLVM::MulOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, lane,
                             i32Constant(rewriter, loc, 16)),
        i32Constant(rewriter, loc, 8));
    Value warpRow = LLVM::MulOp::create(
        rewriter, loc,
        LLVM::URemOp::create(rewriter, loc, warp,
                             i32Constant(rewriter, loc, warpsM)),
        i32Constant(rewriter, loc, 16));
    Value warpCol = LLVM::MulOp::create(
        rewriter, loc,
        LLVM::UDivOp::create(rewriter, loc, warp,
                             i32Constant(rewriter, loc, warpsM)),
        i32Constant(rewriter, loc, 8));
    auto add = [&](Value v, int64_t c) -> Value {
      return LLVM::AddOp::create(rewriter, loc, v,
                                 i32Constant(rewriter, loc, c));
    };
    auto address = [&](const SharedOperand &smem, int64_t base, Value outer,
                       Value inner) -> Value {
      return LLVM::AddOp::create(
          rewriter, loc, smemBase,
          add(emitSwizzledOffset(rewriter, loc, smem, outer, inner), base));
    };

    StringRef type = inElem.isF16() ? "f16" : "bf16";
    std::string mmaText =
        ("mma.sync.aligned.m16n8k16.row.col.f32." + type + "." + type +
         ".f32 " + ptxOperandList(0, 4) + ", " + ptxOperandList(4, 4) + ", " +
         ptxOperandList(8, 2) + ", " + ptxOperandList(10, 4) + ";")
            .str();
    SmallVector<Value> acc = unpackRegisters(rewriter, loc, adaptor.getC());
    SmallVector<Type> i32x4(4, i32), i32x2(2, i32);
    Value aRowBase = LLVM::AddOp::create(rewriter, loc, warpRow, laneRow);
    for (int64_t k = 0; k < K; k += 16) {
      Value aCol = add(laneCol, k);
      Value bRow = add(laneRow, k);
      SmallVector<SmallVector<Value>> bFrags;
      for (int64_t rn = 0; rn < repN; ++rn) {
        Value col = add(warpCol, rn * 8 * warpsN);
        bFrags.push_back(emitInlinePtx(
            rewriter, loc,
            "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {$0, $1}, [$2];",
            i32x2, address(bSmem, bOffset, bRow, col)));
      }
      for (int64_t rm = 0; rm < repM; ++rm) {
        Value row = add(aRowBase, rm * 16 * warpsM);
        SmallVector<Value> aFrag = emitInlinePtx(
            rewriter, loc,
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [$4];",
            i32x4, address(aSmem, 0, row, aCol));
        for (int64_t rn = 0; rn < repN; ++rn) {
          int64_t first = (rm * repN + rn) * 4;
          ValueRange c = ArrayRef<Value>(acc).slice(first, 4);
          SmallVector<Value> inputs(aFrag);
          inputs.append(bFrags[rn]);
          SmallVector<Value> d =
              emitInlinePtx(rewriter, loc, mmaText, c.getTypes(), inputs, c);
          llvm::copy(d, acc.begin() + first);
        }
      }
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(cType),
                                         acc));
    return success();
  }
};

} // namespace

void tilec::populateMmaSyncDotOpToLLVMPatterns(TileTypeConverter &converter,
                                               RewritePatternSet &patterns) {
  patterns.add<MmaSyncDotOpLowering>(converter, patterns.getContext());
}
