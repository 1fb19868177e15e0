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
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
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

namespace {
/// Where an 8-bit register came from: byte `byte` of 32-bit word `word` of
/// the byte vector `vector`.
struct SourceByte {
  Value vector;
  int64_t word, byte;
};
} // namespace

/// The source of the 8-bit value `value` when it is a byte of a loaded
/// vector (the global loads' `extractelement` of their registers as bytes).
static std::optional<SourceByte> getSourceByte(Value value) {
  auto extract = value.getDefiningOp<LLVM::ExtractElementOp>();
  if (!extract)
    return std::nullopt;
  auto vecType = dyn_cast<VectorType>(extract.getVector().getType());
  APInt index;
  if (!vecType || !vecType.getElementType().isInteger(8) ||
      vecType.getNumElements() % 4 != 0 ||
      !matchPattern(extract.getPosition(), m_ConstantInt(&index)))
    return std::nullopt;
  int64_t byte = index.getZExtValue();
  return SourceByte{extract.getVector(), byte / 4, byte % 4};
}

/// The 32-bit words of `bytes` (4 each; all bytes of loaded words, see
/// getSourceByte) gathered by byte permutes (`prmt`), or empty when a byte
/// is not a byte of a loaded word. In the lanes where `swap` holds (null:
/// none) the bytes are `swapped` instead. A pair of words gives two bytes
/// of each of two output words (byte j of both words serves the outputs of
/// bytes j and j ^ 1 alike), and a third permute joins two pairs: a 4 x 4
/// block of bytes transposed from rows of N into runs of K (8-bit wgmma's B
/// staged K-major) takes 8 permutes, where bytes inserted one at a time
/// take conversions and shifts each.
static SmallVector<Value> gatherBytes(OpBuilder &b, Location loc,
                                      ArrayRef<Value> bytes,
                                      ArrayRef<Value> swapped, Value swap) {
  // A byte's word (selected by `swap` when the swapped byte's differs) and
  // where the byte is in the lanes that do not swap and in those that do.
  struct Source {
    Value word;
    SourceByte plain, other;
  };
  auto sameWord = [](const SourceByte &x, const SourceByte &y) {
    return x.vector == y.vector && x.word == y.word;
  };
  // The word `word` of `vector` as an i32.
  auto wordOf = [&](const SourceByte &source) -> Value {
    auto type = cast<VectorType>(source.vector.getType());
    auto wordsType =
        VectorType::get({type.getNumElements() / 4}, b.getI32Type());
    Value words = LLVM::BitcastOp::create(b, loc, wordsType, source.vector);
    return LLVM::ExtractElementOp::create(b, loc, words,
                                          i32Constant(b, loc, source.word));
  };
  SmallVector<Source> sources;
  for (auto [byte, other] : llvm::zip_equal(bytes, swapped)) {
    std::optional<SourceByte> source = getSourceByte(byte);
    std::optional<SourceByte> otherSource =
        swap ? getSourceByte(other) : source;
    if (!source || !otherSource)
      return {};
    Value word = wordOf(*source);
    if (!sameWord(*source, *otherSource))
      word = LLVM::SelectOp::create(b, loc, swap, wordOf(*otherSource), word);
    sources.push_back({word, *source, *otherSource});
  }
  // A selector that is `plain` in the lanes that do not swap.
  auto selector = [&](int64_t plain, int64_t other) -> Value {
    if (plain == other)
      return i32Constant(b, loc, plain);
    return LLVM::SelectOp::create(b, loc, swap, i32Constant(b, loc, other),
                                  i32Constant(b, loc, plain));
  };
  // Bytes jx of x and jy of y as bytes pos, pos + 1 of a word: when jx = jy
  // = j, bytes j & ~1 and j | 1 of both (pos = 2 * (j & 1)).
  auto pairSelector = [](int64_t jx, int64_t jy, int64_t &pos) {
    if (jx != jy) {
      pos = 0;
      return jx | (4 + jy) << 4;
    }
    int64_t even = jx & ~1;
    pos = 2 * (jx & 1);
    return even | (4 + even) << 4 | (even + 1) << 8 | (5 + even) << 12;
  };
  struct Pair {
    Value word;
    int64_t plainPos, otherPos;
  };
  auto pair = [&](const Source &x, const Source &y) {
    Pair result;
    int64_t plain = pairSelector(x.plain.byte, y.plain.byte, result.plainPos);
    int64_t other = pairSelector(x.other.byte, y.other.byte, result.otherPos);
    result.word = NVVM::PermuteOp::create(b, loc, b.getI32Type(), x.word,
                                          y.word, selector(plain, other),
                                          NVVM::PermuteMode::DEFAULT);
    return result;
  };
  auto joinSelector = [](int64_t lo, int64_t hi) {
    return lo | (lo + 1) << 4 | (4 + hi) << 8 | (5 + hi) << 12;
  };
  SmallVector<Value> words;
  for (size_t i = 0; i < sources.size(); i += 4) {
    ArrayRef<Source> group = ArrayRef<Source>(sources).slice(i, 4);
    // Four bytes of one word (a tile stored along the dimension it was
    // loaded along): the word itself, or one permute.
    if (llvm::all_of(group, [&](const Source &source) {
          return sameWord(source.plain, group.front().plain) &&
                 sameWord(source.other, group.front().other);
        })) {
      int64_t plain = 0, other = 0;
      for (auto [j, source] : llvm::enumerate(group)) {
        plain |= source.plain.byte << (4 * j);
        other |= source.other.byte << (4 * j);
      }
      if (plain == 0x3210 && other == 0x3210)
        words.push_back(group.front().word);
      else
        words.push_back(NVVM::PermuteOp::create(
            b, loc, b.getI32Type(), group.front().word, Value(),
            selector(plain, other), NVVM::PermuteMode::DEFAULT));
      continue;
    }
    Pair low = pair(group[0], group[1]), high = pair(group[2], group[3]);
    Value join = selector(joinSelector(low.plainPos, high.plainPos),
                          joinSelector(low.otherPos, high.otherPos));
    words.push_back(NVVM::PermuteOp::create(b, loc, b.getI32Type(), low.word,
                                            high.word, join,
                                            NVVM::PermuteMode::DEFAULT));
  }
  return words;
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
    if (smem.elemBytes == 1 && vec % 4 == 0) {
      SmallVector<Value> bytes, swapped;
      for (int64_t j = 0; j < vec; ++j) {
        int64_t reg = r + offsets[j];
        bytes.push_back(regs[reg]);
        swapped.push_back(swap ? regs[reg ^ (int64_t(1) << bestReg)]
                               : regs[reg]);
      }
      SmallVector<Value> words = gatherBytes(b, loc, bytes, swapped, swap);
      if (!words.empty()) {
        auto wordsType = VectorType::get({vec / 4}, b.getI32Type());
        Value vector = LLVM::UndefOp::create(b, loc, wordsType);
        for (auto [j, word] : llvm::enumerate(words))
          vector = LLVM::InsertElementOp::create(b, loc, vector, word,
                                                 i32Constant(b, loc, j));
        LLVM::StoreOp::create(b, loc, vector, ptr, vec);
        continue;
      }
    }
    auto vecType = VectorType::get({vec}, regs[r].getType());
    Value vector = LLVM::UndefOp::create(b, loc, vecType);
    for (int64_t j = 0; j < vec; ++j)
      vector = LLVM::InsertElementOp::create(
          b, loc, vector, pick(regs, r + offsets[j]), i32Constant(b, loc, j));
    LLVM::StoreOp::create(b, loc, vector, ptr, vec * smem.elemBytes);
  }
}
