//===- TensorCores.cpp - Which dots run on tensor cores ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// wgmma (mma version 3) needs sm_90a, warps in groups of four, 64-row
// blocks of the accumulator, and K in steps of 32 bytes of the operand
// type. Warps go along M first (as far as M allows), then along N; each warp
// group's instruction then covers the widest power-of-two N up to 256 that
// its share of the columns allows. tf32 products whose N is a multiple of
// 64 are computed transposed (c^T += b^T a^T, a transposed `#tile.mma`):
// B's rows of N then need no transposition on the way to the tensor cores.
// Where wgmma does not apply (sm_80, or a shape it cannot take), f16 and
// bf16 products into f32 use mma.sync m16n8k16 (mma version 2); everything
// else takes the FMA path.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Analysis/TensorCores.h"
#include "tilec/Dialect/Tile/Analysis/SharedMemory.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tile;

/// Whether wgmma multiplies `in` operands into `acc` (with `precision` for
/// f32 operands).
static bool isWgmmaType(Type in, Type acc, InputPrecision precision) {
  if (in.isF16())
    return acc.isF32() || acc.isF16();
  if (in.isBF16())
    return acc.isF32();
  if (in.isF32())
    return acc.isF32() && precision == InputPrecision::TF32;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(in))
    return acc.isF32() || acc.isF16();
  if (in.isInteger(8))
    return acc.isInteger(32);
  return false;
}

MmaLayoutAttr tilec::tile::chooseMmaLayout(DotOp dot, unsigned numWarps,
                                           const TargetInfo &target) {
  return chooseMmaLayout(cast<RankedTensorType>(dot.getA().getType()),
                         cast<RankedTensorType>(dot.getC().getType()),
                         dot.getInputPrecision(), numWarps, target);
}

/// Warps along M, from `first` (a power of two) up, doubling while they
/// still cover whole 16-row blocks of M and there are warps left.
static unsigned getWarpsAlongM(int64_t M, unsigned numWarps, unsigned first) {
  unsigned warpsM = first;
  while (warpsM < numWarps && M % (16 * warpsM * 2) == 0)
    warpsM *= 2;
  return warpsM;
}

/// The mma.sync (version 2) layout, m16n8k16 on f16/bf16 operands into f32:
/// warps along M first, then along N.
static MmaLayoutAttr chooseMmaSyncLayout(RankedTensorType a, RankedTensorType c,
                                         unsigned numWarps) {
  Type in = a.getElementType();
  if (!(in.isF16() || in.isBF16()) || !c.getElementType().isF32())
    return {};
  int64_t M = c.getDimSize(0), N = c.getDimSize(1), K = a.getDimSize(1);
  if (M % 16 != 0 || N % 8 != 0 || K % 16 != 0)
    return {};
  unsigned warpsM = getWarpsAlongM(M, numWarps, 1);
  unsigned warpsN = numWarps / warpsM;
  if (N % (8 * warpsN) != 0)
    return {};
  return MmaLayoutAttr::get(a.getContext(), getMmaVersion(DotEngine::MmaSync),
                            {warpsM, warpsN}, {16, 8, 16},
                            /*transposed=*/false);
}

/// The wgmma (version 3) layout of an M x N product of the instruction's
/// orientation (the transposed tile's when `transposed`) in steps of
/// `kStep`, or null: warp groups along M first, then warps along N, each
/// instruction as wide as the warps' share of N allows (up to 256).
static MmaLayoutAttr chooseWgmmaLayout(MLIRContext *ctx, int64_t M, int64_t N,
                                       int64_t kStep, unsigned numWarps,
                                       bool transposed) {
  unsigned warpsM = getWarpsAlongM(M, numWarps, 4);
  unsigned warpsN = numWarps / warpsM;
  if (N % (8 * warpsN) != 0)
    return {};
  unsigned n = std::min<int64_t>(256, N / warpsN);
  return MmaLayoutAttr::get(ctx, getMmaVersion(DotEngine::Wgmma),
                            {warpsM, warpsN}, {64, n, unsigned(kStep)},
                            transposed);
}

MmaLayoutAttr tilec::tile::chooseMmaLayout(RankedTensorType a,
                                           RankedTensorType c,
                                           InputPrecision precision,
                                           unsigned numWarps,
                                           const TargetInfo &target) {
  if (!target.hasMmaSync())
    return {};
  Type in = a.getElementType();
  int64_t M = c.getDimSize(0), N = c.getDimSize(1), K = a.getDimSize(1);
  int64_t kStep = 256 / in.getIntOrFloatBitWidth();
  if (!target.hasWgmma() || numWarps % 4 != 0 ||
      !isWgmmaType(in, c.getElementType(), precision) || K % kStep != 0)
    return chooseMmaSyncLayout(a, c, numWarps);
  // tf32 wgmma reads B from shared memory only K-major, while the B of a
  // row-major matmul has rows of N: the transposed product c^T += b^T a^T
  // takes b^T as the instruction's A, which may come from registers in any
  // order (and a^T is K-major where a is).
  if (in.isF32() && N % 64 == 0)
    if (MmaLayoutAttr mma = chooseWgmmaLayout(a.getContext(), N, M, kStep,
                                              numWarps, /*transposed=*/true))
      return mma;
  if (M % 64 != 0)
    return chooseMmaSyncLayout(a, c, numWarps);
  if (MmaLayoutAttr mma = chooseWgmmaLayout(a.getContext(), M, N, kStep,
                                            numWarps, /*transposed=*/false))
    return mma;
  return chooseMmaSyncLayout(a, c, numWarps);
}

bool tilec::tile::wgmmaReadsBOnlyKMajor(Type elemType) {
  int64_t bytes = getStorageBytes(elemType);
  return bytes == 4 || bytes == 1;
}
