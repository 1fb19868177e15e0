//===- TargetInfo.h - What the target GPU offers tilec ----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The one description of each GPU architecture tilec compiles for: the PTX
// version it needs, the engine tl.dot runs on (FMA, mma.sync, wgmma), whether
// tilec copies with TMA and launches clusters there, and its shared-memory and
// register limits. Built once from `--arch`, recorded on the module as
// `tile.target = "sm_90a"` (the tile-set-target pass), and asked by every
// pass and lowering instead of comparing compute capabilities.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TARGETINFO_H
#define TILEC_DIALECT_TILE_IR_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace tilec::tile {

/// The instructions tl.dot runs on.
enum class DotEngine {
  FMA,     ///< fused multiply-adds of the CUDA cores
  MmaSync, ///< warp-level mma.sync (sm_80 and later; mma layout version 2)
  Wgmma,   ///< warpgroup wgmma.mma_async (sm_90a; mma layout version 3)
};

/// The mma layout version (TileAttrs.td) of a tensor-core engine.
inline unsigned getMmaVersion(DotEngine engine) {
  return engine == DotEngine::Wgmma ? 3 : 2;
}

class TargetInfo {
public:
  /// Every architecture tilec supports, oldest first.
  static llvm::ArrayRef<TargetInfo> getSupported();
  /// The target of an architecture name (`sm_90a`), if tilec supports it.
  static std::optional<TargetInfo> lookup(llvm::StringRef arch);
  /// The supported architecture names, comma-separated, for messages.
  static std::string getSupportedNames();
  /// An error message for an unsupported architecture name.
  static std::string getUnsupportedMessage(llvm::StringRef arch);
  /// The target tilec compiles for without `--arch`: sm_90a.
  static TargetInfo getDefault();
  /// The target recorded on the module of `op` (`tile.target`), or the
  /// default when there is none.
  static TargetInfo get(mlir::Operation *op);
  /// The name of the module attribute holding the target's name.
  static llvm::StringRef getAttrName();

  /// The architecture name (`sm_90a`), LLVM's -mcpu.
  llvm::StringRef getName() const { return name; }
  /// 10 * major + minor (90 for sm_90a).
  unsigned getComputeCapability() const { return capability; }
  /// The PTX ISA version tilec writes by default, as an LLVM feature
  /// (`+ptx80`; 8.0 or the minimum if newer), and the oldest one tilec
  /// writes for the architecture (80 for 8.0).
  std::string getDefaultPtxFeatures() const;
  unsigned getMinPtxVersion() const { return minPtxVersion; }
  /// Checks a `--ptx-version` feature (`+ptx83`): its form, and that the
  /// architecture exists in that PTX version. Returns the problem, if any.
  std::optional<std::string> checkPtxFeatures(llvm::StringRef features) const;

  /// The fastest engine tl.dot may use here; a dot that does not fit it
  /// falls back to the next one (wgmma, then mma.sync, then FMA).
  DotEngine getBestDotEngine() const { return bestDotEngine; }
  bool hasMmaSync() const { return bestDotEngine != DotEngine::FMA; }
  bool hasWgmma() const { return bestDotEngine == DotEngine::Wgmma; }
  /// Whether the target converts to and from fp8 (cvt ... e4m3x2/e5m2x2).
  bool hasFp8Conversions() const { return capability >= 89; }
  /// Whether the target adds bf16 atomically (atom.add.bf16).
  bool hasBf16AtomicAdd() const { return capability >= 90; }
  /// Whether tilec copies tiles with TMA (cp.async.bulk.tensor) here.
  bool hasTma() const { return tma; }
  /// Whether tilec may launch thread-block clusters here.
  bool hasClusters() const { return clusters; }
  /// Dynamic shared memory one thread block may use, in bytes.
  int64_t getMaxSharedMemoryBytes() const { return maxSharedMemoryBytes; }
  /// 32-bit registers of one SM, and the most one thread may use.
  int64_t getRegistersPerSM() const { return 65536; }
  int64_t getMaxRegistersPerThread() const { return 255; }

private:
  TargetInfo(llvm::StringRef name, unsigned capability, unsigned minPtxVersion,
             DotEngine bestDotEngine, bool tma, bool clusters,
             int64_t maxSharedMemoryBytes)
      : name(name), capability(capability), minPtxVersion(minPtxVersion),
        bestDotEngine(bestDotEngine), tma(tma), clusters(clusters),
        maxSharedMemoryBytes(maxSharedMemoryBytes) {}

  llvm::StringRef name;
  unsigned capability;
  unsigned minPtxVersion;
  DotEngine bestDotEngine;
  bool tma;
  bool clusters;
  int64_t maxSharedMemoryBytes;
};

} // namespace tilec::tile

#endif // TILEC_DIALECT_TILE_IR_TARGETINFO_H
