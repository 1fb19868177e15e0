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

#include <algorithm>
#include <iterator>

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
  unsigned inner = smem.innerDim, outer = 1 - inner;
  // A thread packs into one store the registers whose elements follow each
  // other along `inner` (whatever the order of its registers); every other
  // step along `inner` is a multiple of the vector, which keeps vectors
  // within 16-byte chunks.
  TileDistribution::RegisterVectors vectors =
      dist->getRegisterVectors(inner, 16 / smem.elemBytes);
  ArrayRef<int64_t> offsets = vectors.offsets;
  int64_t vectorBits = vectors.bits;
  int64_t vec = offsets.size();

  // The cost of the stores in bank conflicts: per store, the wavefronts
  // beyond one of each group of lanes the hardware serves together (all 32
  // for 4-byte stores, 16 for 8-byte ones, 8 for 16-byte ones) of warp 0,
  // when lanes with bit `laneBit` set swap the registers `regBit` apart
  // (-1: no swap).
  int64_t vecBytes = vec * smem.elemBytes;
  int64_t groupLanes = 128 / std::max<int64_t>(4, vecBytes);
  unsigned duplicateLanes = dist->getDuplicateLaneMask();
  auto isVectorStart = [&](int64_t r) {
    return !(r & vectorBits) && !dist->isDuplicateRegister(r);
  };
  auto cost = [&](int laneBit, int regBit) {
    int64_t total = 0;
    for (int64_t r = 0; r < dist->getNumRegisters(); ++r) {
      if (!isVectorStart(r))
        continue;
      for (int64_t first = 0; first < 32; first += groupLanes) {
        int64_t words[32] = {};
        for (int64_t lane = first; lane < first + groupLanes; ++lane) {
          if (lane & duplicateLanes)
            continue;
          int64_t reg = r;
          if (laneBit >= 0 && (lane >> laneBit & 1))
            reg ^= int64_t(1) << regBit;
          Coords c = dist->getCoordinates(reg, lane, 0);
          int64_t byte = smem.swizzledOffset(c[outer], c[inner]);
          for (int64_t w = 0; w < std::max<int64_t>(4, vecBytes); w += 4)
            ++words[(byte + w) / 4 % 32];
        }
        total += *std::max_element(std::begin(words), std::end(words));
      }
    }
    return total;
  };
  // No store takes fewer than one wavefront per group of lanes that stores
  // at all: once a choice reaches that, no other can do better (and the
  // search, which ran for every tile of an epilogue, stops).
  int64_t vectorStarts = 0, storingGroups = 0;
  bool duplicates = false;
  for (int64_t r = 0; r < dist->getNumRegisters(); ++r) {
    duplicates |= dist->isDuplicateRegister(r);
    vectorStarts += isVectorStart(r);
  }
  for (int64_t first = 0; first < 32; first += groupLanes)
    for (int64_t lane = first; lane < first + groupLanes; ++lane)
      if (!(lane & duplicateLanes)) {
        ++storingGroups;
        break;
      }
  const int64_t leastCost = vectorStarts * storingGroups;
  int bestLane = -1, bestReg = -1;
  int64_t bestCost = cost(-1, -1);
  for (int laneBit = 0; laneBit < 5 && !duplicates && bestCost > leastCost;
       ++laneBit) {
    if (duplicateLanes & 1u << laneBit)
      continue;
    for (unsigned regBit = 0;
         regBit < dist->getNumRegisterBits() && bestCost > leastCost;
         ++regBit) {
      if (vectorBits & 1u << regBit)
        continue;
      int64_t c = cost(laneBit, regBit);
      if (c < bestCost) {
        bestCost = c;
        bestLane = laneBit;
        bestReg = regBit;
      }
    }
  }

  SmallVector<Value> regs = unpackRegisters(b, loc, tile);
  SmallVector<SmallVector<Value>> idx = emitIndices(b, loc, type);
  Value swap;
  if (bestLane >= 0)
    swap = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::ne,
        LLVM::AndOp::create(b, loc, getLaneId(b, loc),
                            i32Constant(b, loc, 1 << bestLane)),
        i32Constant(b, loc, 0));
  // Register `r`'s value (or the swapped one's, in the lanes that swap).
  auto pick = [&](ArrayRef<Value> values, int64_t r) -> Value {
    if (!swap)
      return values[r];
    return LLVM::SelectOp::create(
        b, loc, swap, values[r ^ (int64_t(1) << bestReg)], values[r]);
  };
  SmallVector<Value> outerIdx, innerIdx;
  for (const SmallVector<Value> &coords : idx) {
    outerIdx.push_back(coords[outer]);
    innerIdx.push_back(coords[inner]);
  }
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  for (int64_t r = 0; r < dist->getNumRegisters(); ++r) {
    if (!isVectorStart(r))
      continue;
    Value offset =
        emitSwizzledOffset(b, loc, smem, pick(outerIdx, r), pick(innerIdx, r));
    Value address = LLVM::AddOp::create(
        b, loc, smemBase,
        LLVM::AddOp::create(b, loc, offset, i32Constant(b, loc, baseOffset)));
    Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
    if (vec == 1) {
      LLVM::StoreOp::create(b, loc, pick(regs, r), ptr, smem.elemBytes);
      continue;
    }
    auto vecType = VectorType::get({vec}, regs[r].getType());
    Value vector = LLVM::UndefOp::create(b, loc, vecType);
    for (int64_t j = 0; j < vec; ++j)
      vector = LLVM::InsertElementOp::create(
          b, loc, vector, pick(regs, r + offsets[j]), i32Constant(b, loc, j));
    LLVM::StoreOp::create(b, loc, vector, ptr, vec * smem.elemBytes);
  }
}
