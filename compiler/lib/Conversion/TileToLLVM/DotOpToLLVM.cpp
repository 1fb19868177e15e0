//===- DotOpToLLVM.cpp - Matrix products on the FMA path --------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Lowers tile.dot (d = a[M, K] @ b[K, N] + c[M, N]) whose result is not in
// an mma layout (see WgmmaDotOpToLLVM.cpp) with scalar multiply-adds, for
// every element type: `input_precision = tf32` and `tf32x3` are computed as
// `ieee` (exact fp32 products, which is at least as accurate as what they
// ask for). Operands and products are
// converted to the accumulator's element type first (f16/bf16 -> f32, i8 ->
// i32, fp8 -> f32 with PTX cvt...), then multiplied and added with `fma` for
// floats and `mul` + `add` for integers.
//
//   barrier; every thread stores its registers of a as aT[k][m] and of b as
//   b[k][n] in shared memory (so that lanes reading one k step read
//   consecutive addresses); barrier;
//   for k in 0..K: load a[m][k] for each distinct row m and b[k][n] for each
//   distinct column n of the thread's accumulator registers (16-byte
//   vectors where they run contiguously: the FMA accumulator layout of
//   tile-assign-layouts gives each thread blocks of rows and columns), then
//   c[m][n] += a[m][k] * b[k][n] for each register.
//
// The k loop is an LLVM loop carrying the accumulator registers (LLVM
// unrolls it as it sees fit), built with blocks split around the op.
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

/// For each register of the accumulator, the index of its row (or column)
/// among the thread's distinct rows (columns), and for each distinct one the
/// register whose runtime coordinate gives it.
struct DistinctCoords {
  SmallVector<int64_t> ofRegister;
  SmallVector<int64_t> firstRegister;
};

/// Groups the registers of `dist` by their coordinate along `dim`. By
/// linearity, registers with equal coordinates in lane 0 of warp 0 have
/// equal coordinates in every thread.
static DistinctCoords groupByCoordinate(const TileDistribution &dist,
                                        unsigned dim) {
  DistinctCoords result;
  SmallVector<int64_t> values;
  for (int64_t r = 0; r < dist.getNumRegisters(); ++r) {
    int64_t c = dist.getRegisterCoords(r)[dim];
    auto it = llvm::find(values, c);
    if (it == values.end()) {
      values.push_back(c);
      result.firstRegister.push_back(r);
      result.ofRegister.push_back(values.size() - 1);
    } else {
      result.ofRegister.push_back(it - values.begin());
    }
  }
  return result;
}

/// The widest vector (at most 16 bytes of `elemBytes`-byte elements) in
/// which a thread can load its distinct coordinates along `dim` from a
/// staging buffer where they lie contiguously: those of lane 0 of warp 0
/// come in runs of that many consecutive coordinates, each starting at a
/// multiple of it, and every lane and warp moves them by a multiple of it
/// (so the runs stay aligned in every thread).
static int64_t getLoadVector(const TileDistribution &dist,
                             const DistinctCoords &distinct, unsigned dim,
                             int64_t elemBytes) {
  SmallVector<int64_t> coords;
  for (int64_t r : distinct.firstRegister)
    coords.push_back(dist.getRegisterCoords(r)[dim]);
  auto fits = [&](int64_t v) {
    if (coords.size() % v != 0)
      return false;
    for (size_t i = 0; i < coords.size(); ++i)
      if (coords[i] != coords[i - i % v] + int64_t(i % v) ||
          coords[i - i % v] % v != 0)
        return false;
    for (unsigned bit = 0; bit < 5; ++bit)
      if (dist.getLaneBasis(bit)[dim] % v != 0)
        return false;
    for (unsigned bit = 0; bit < dist.getNumWarpBits(); ++bit)
      if (dist.getWarpBasis(bit)[dim] % v != 0)
        return false;
    return true;
  };
  for (int64_t v = std::max<int64_t>(1, 16 / elemBytes); v > 1; v /= 2)
    if (fits(v))
      return v;
  return 1;
}

/// Loads elements `index` (i32) .. `index + count - 1` of a shared buffer
/// of `type` elements (not i1) at `base`, as one vector when `count` > 1
/// (the index is then a multiple of `count`).
static SmallVector<Value> loadSharedRun(OpBuilder &b, Location loc, Value base,
                                        Value index, Type type, int64_t count) {
  if (count == 1)
    return {loadShared(b, loc, base, index, type)};
  Value ptr = LLVM::GEPOp::create(b, loc, base.getType(), type, base,
                                  ValueRange{index});
  auto vecType = VectorType::get({count}, type);
  Value vec = LLVM::LoadOp::create(b, loc, vecType, ptr,
                                   count * type.getIntOrFloatBitWidth() / 8);
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(
        LLVM::ExtractElementOp::create(b, loc, vec, i32Constant(b, loc, i)));
  return values;
}

/// `acc + x * y` in the accumulator type.
static Value multiplyAdd(OpBuilder &b, Location loc, Value x, Value y,
                         Value acc) {
  if (isa<FloatType>(acc.getType()))
    return LLVM::FMAOp::create(b, loc, x, y, acc);
  return LLVM::AddOp::create(b, loc, acc, LLVM::MulOp::create(b, loc, x, y));
}

struct DotOpLowering : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    if (isa_and_nonnull<MmaLayoutAttr>(cType.getEncoding()))
      return failure(); // tensor cores
    Type llvmType = getTypeConverter()->convertType(cType);
    Type inType = getTypeConverter()->convertType(aType.getElementType());
    Type bInType = getTypeConverter()->convertType(bType.getElementType());
    Type accType = getTypeConverter()->convertType(cType.getElementType());
    std::optional<TileDistribution> aDist = TileDistribution::get(aType);
    std::optional<TileDistribution> bDist = TileDistribution::get(bType);
    std::optional<TileDistribution> cDist = TileDistribution::get(cType);
    if (!llvmType || !inType || !bInType || !accType || !aDist || !bDist ||
        !cDist)
      return op.emitOpError("operand layouts are not supported");
    if (!inType.isIntOrFloat() || !accType.isIntOrFloat() ||
        inType.isInteger(1) || accType.isInteger(1) ||
        ((isa<FloatType>(inType) ||
          isSupportedFp8Type(aType.getElementType())) &&
         !isa<FloatType>(accType)))
      return op.emitOpError("cannot multiply ")
             << aType.getElementType() << " tiles into "
             << cType.getElementType();
    if (failed(checkSharedMemory(op, getScratchBytes(op))))
      return failure();
    int64_t M = cType.getDimSize(0), N = cType.getDimSize(1);
    int64_t K = aType.getDimSize(1);

    // Stage the operands in shared memory.
    Value aBase = getScratchBase(rewriter, loc, op);
    Value bBase = getScratchBase(rewriter, loc, op, getDotOperandBOffset(op));
    SmallVector<Value> aRegs = unpackRegisters(rewriter, loc, adaptor.getA());
    SmallVector<Value> bRegs = unpackRegisters(rewriter, loc, adaptor.getB());
    SmallVector<SmallVector<Value>> aIdx = emitIndices(rewriter, loc, aType);
    SmallVector<SmallVector<Value>> bIdx = emitIndices(rewriter, loc, bType);
    SmallVector<SmallVector<Value>> cIdx = emitIndices(rewriter, loc, cType);
    emitBarrier(rewriter, loc);
    for (int64_t r = 0; r < aDist->getNumRegisters(); ++r) {
      if (aDist->isDuplicateRegister(r))
        continue;
      // aT[k][m]
      Value at =
          linearizeIndex(rewriter, loc, {aIdx[r][1], aIdx[r][0]}, {K, M});
      storeShared(rewriter, loc, aBase, at, aRegs[r]);
    }
    for (int64_t r = 0; r < bDist->getNumRegisters(); ++r) {
      if (bDist->isDuplicateRegister(r))
        continue;
      Value at = linearizeIndex(rewriter, loc, bIdx[r], {K, N});
      storeShared(rewriter, loc, bBase, at, bRegs[r]);
    }
    emitBarrier(rewriter, loc);

    DistinctCoords rows = groupByCoordinate(*cDist, 0);
    DistinctCoords cols = groupByCoordinate(*cDist, 1);
    SmallVector<Value> cRegs = unpackRegisters(rewriter, loc, adaptor.getC());

    // The k loop: current -> header(k, acc...) -> body -> header; the
    // header exits to the rest of the original block.
    Block *current = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(current, rewriter.getInsertionPoint());
    Type i32 = rewriter.getI32Type();
    SmallVector<Type> headerTypes(1, i32);
    headerTypes.append(cRegs.size(), accType);
    SmallVector<Location> headerLocs(headerTypes.size(), loc);
    Block *header = rewriter.createBlock(after, headerTypes, headerLocs);
    Block *body = rewriter.createBlock(after);

    rewriter.setInsertionPointToEnd(current);
    SmallVector<Value> initial{i32Constant(rewriter, loc, 0)};
    initial.append(cRegs.begin(), cRegs.end());
    LLVM::BrOp::create(rewriter, loc, initial, header);

    rewriter.setInsertionPointToEnd(header);
    Value k = header->getArgument(0);
    Value more = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::slt,
                                      k, i32Constant(rewriter, loc, K));
    LLVM::CondBrOp::create(rewriter, loc, more, body, after);

    rewriter.setInsertionPointToEnd(body);
    Value aRow =
        LLVM::MulOp::create(rewriter, loc, k, i32Constant(rewriter, loc, M));
    Value bRow =
        LLVM::MulOp::create(rewriter, loc, k, i32Constant(rewriter, loc, N));
    // fp8 operands (held as i8) are widened with PTX conversions, unsigned
    // integers zero-extended.
    auto widen = [&](Value v, Type elemType) -> Value {
      if (isSupportedFp8Type(elemType))
        return convertFp8(rewriter, loc, v, elemType, cType.getElementType());
      if (op.getUnsignedOperands())
        return LLVM::ZExtOp::create(rewriter, loc, accType, v);
      return castScalar(rewriter, loc, v, accType);
    };
    // Each distinct row of a (column of b) once, in vectors where they
    // run contiguously in the staging buffer.
    auto loadOperand = [&](const DistinctCoords &distinct, unsigned dim,
                           Value base, Value rowStart, Type type,
                           Type elemType) {
      int64_t vec =
          getLoadVector(*cDist, distinct, dim, getStorageBytes(elemType));
      SmallVector<Value> values;
      for (size_t i = 0; i < distinct.firstRegister.size(); i += vec) {
        Value at = LLVM::AddOp::create(rewriter, loc, rowStart,
                                       cIdx[distinct.firstRegister[i]][dim]);
        for (Value v : loadSharedRun(rewriter, loc, base, at, type, vec))
          values.push_back(widen(v, elemType));
      }
      return values;
    };
    SmallVector<Value> aVals =
        loadOperand(rows, 0, aBase, aRow, inType, aType.getElementType());
    SmallVector<Value> bVals =
        loadOperand(cols, 1, bBase, bRow, bInType, bType.getElementType());
    SmallVector<Value> next{
        LLVM::AddOp::create(rewriter, loc, k, i32Constant(rewriter, loc, 1))};
    for (int64_t r = 0; r < cDist->getNumRegisters(); ++r)
      next.push_back(multiplyAdd(rewriter, loc, aVals[rows.ofRegister[r]],
                                 bVals[cols.ofRegister[r]],
                                 header->getArgument(1 + r)));
    LLVM::BrOp::create(rewriter, loc, next, header);

    rewriter.setInsertionPointToStart(after);
    rewriter.replaceOp(op, packRegisters(rewriter, loc, llvmType,
                                         header->getArguments().drop_front()));
    return success();
  }
};

} // namespace

void tilec::populateDotOpToLLVMPatterns(TileTypeConverter &converter,
                                        RewritePatternSet &patterns) {
  patterns.add<DotOpLowering>(converter, patterns.getContext());
}
