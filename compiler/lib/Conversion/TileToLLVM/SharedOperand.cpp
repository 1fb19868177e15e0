//===- SharedOperand.cpp - Tensor-core operands in smem ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Address arithmetic of the swizzled operand layout (SharedOperand.h) and
// the stores that stage a register tile into it.
//
//===----------------------------------------------------------------------===//

#include "SharedOperand.h"
#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileDistribution.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

Value tilec::emitSwizzledOffset(OpBuilder &b, Location loc,
                                const SharedOperand &smem, Value outer,
                                Value inner) {
  // offset = panel * panelBytes + o * S + (i * eb) % S, then swizzled.
  Value byte =
      LLVM::MulOp::create(b, loc, inner, i32Constant(b, loc, smem.elemBytes));
  Value panel = LLVM::LShrOp::create(
      b, loc, byte, i32Constant(b, loc, llvm::Log2_64(smem.swizzle)));
  Value within =
      LLVM::AndOp::create(b, loc, byte, i32Constant(b, loc, smem.swizzle - 1));
  Value offset = LLVM::AddOp::create(
      b, loc,
      LLVM::MulOp::create(b, loc, panel,
                          i32Constant(b, loc, smem.panelBytes())),
      LLVM::AddOp::create(
          b, loc,
          LLVM::MulOp::create(b, loc, outer, i32Constant(b, loc, smem.swizzle)),
          within));
  Value chunk = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, offset, i32Constant(b, loc, 7)),
      i32Constant(b, loc, smem.swizzle / 16 - 1));
  return LLVM::XOrOp::create(
      b, loc, offset,
      LLVM::ShlOp::create(b, loc, chunk, i32Constant(b, loc, 4)));
}

void tilec::storeSharedOperand(OpBuilder &b, Location loc, Value tile,
                               RankedTensorType type, const SharedOperand &smem,
                               Value smemBase, int64_t baseOffset) {
  std::optional<TileDistribution> dist = TileDistribution::get(type);
  auto layout = cast<LayoutAttrInterface>(type.getEncoding());
  unsigned inner = smem.innerDim, outer = 1 - inner;
  // Consecutive registers along `inner` that stay within one 16-byte chunk
  // in every thread (lane and warp offsets along `inner` are multiples).
  int64_t vec =
      std::min<int64_t>(layout.getContiguousRegisters(type.getShape(), inner),
                        16 / smem.elemBytes);
  auto aligned = [&](ArrayRef<int64_t> basis) {
    return basis[inner] % vec == 0;
  };
  for (unsigned bit = 0; bit < 5; ++bit)
    if (!aligned(dist->getLaneBasis(bit)))
      vec = 1;
  for (unsigned bit = 0; bit < dist->getNumWarpBits(); ++bit)
    if (!aligned(dist->getWarpBasis(bit)))
      vec = 1;

  SmallVector<Value> regs = unpackRegisters(b, loc, tile);
  SmallVector<SmallVector<Value>> idx = emitIndices(b, loc, type);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  for (int64_t r = 0; r < dist->getNumRegisters(); r += vec) {
    if (dist->isDuplicateRegister(r))
      continue;
    Value offset =
        emitSwizzledOffset(b, loc, smem, idx[r][outer], idx[r][inner]);
    Value address = LLVM::AddOp::create(
        b, loc, smemBase,
        LLVM::AddOp::create(b, loc, offset, i32Constant(b, loc, baseOffset)));
    Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
    if (vec == 1) {
      LLVM::StoreOp::create(b, loc, regs[r], ptr, smem.elemBytes);
      continue;
    }
    auto vecType = VectorType::get({vec}, regs[r].getType());
    Value vector = LLVM::UndefOp::create(b, loc, vecType);
    for (int64_t j = 0; j < vec; ++j)
      vector = LLVM::InsertElementOp::create(b, loc, vector, regs[r + j],
                                             i32Constant(b, loc, j));
    LLVM::StoreOp::create(b, loc, vector, ptr, vec * smem.elemBytes);
  }
}
