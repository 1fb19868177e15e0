//===- TargetInfo.cpp - What the target GPU offers tilec ------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilec::tile;

// tilec writes PTX 8.0 for every target (the oldest that has sm_90a), 8.1
// for sm_89 (the oldest in which sm_89 has the fp8 conversions). Plain
// sm_90 runs the kernels of sm_80: wgmma and tilec's TMA copies need the
// architecture-specific sm_90a. sm_100 and later are not supported: their
// tensor cores are not wgmma's.
llvm::ArrayRef<TargetInfo> TargetInfo::getSupported() {
  // name, capability, the oldest PTX version tilec writes for it (the one
  // that introduced it; for sm_89, the one whose sm_89 has fp8
  // conversions), the best dot engine, TMA, clusters, dynamic shared memory
  // per block.
  // clang-format off
  static const TargetInfo targets[] = {
      {"sm_75",  75, 63, DotEngine::FMA,     false, false,  65536},
      {"sm_80",  80, 70, DotEngine::MmaSync, false, false, 166912},
      {"sm_86",  86, 71, DotEngine::MmaSync, false, false, 101376},
      {"sm_89",  89, 81, DotEngine::MmaSync, false, false, 101376},
      {"sm_90",  90, 78, DotEngine::MmaSync, false, false, 232448},
      {"sm_90a", 90, 80, DotEngine::Wgmma,   true,  true,  232448},
  };
  // clang-format on
  return targets;
}

std::optional<TargetInfo> TargetInfo::lookup(llvm::StringRef arch) {
  for (const TargetInfo &target : getSupported())
    if (arch == target.name)
      return target;
  return std::nullopt;
}

std::string TargetInfo::getSupportedNames() {
  std::string names;
  for (const TargetInfo &target : getSupported())
    names += (names.empty() ? "" : ", ") + target.name.str();
  return names;
}

std::string TargetInfo::getUnsupportedMessage(llvm::StringRef arch) {
  return "unsupported target '" + arch.str() + "': tilec compiles for " +
         getSupportedNames();
}

TargetInfo TargetInfo::getDefault() { return *lookup("sm_90a"); }

TargetInfo TargetInfo::get(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  if (auto name = module ? module->getAttrOfType<StringAttr>(
                               TileDialect::TargetAttrHelper::getNameStr())
                         : StringAttr())
    if (std::optional<TargetInfo> target = lookup(name.getValue()))
      return *target;
  return getDefault();
}

llvm::StringRef TargetInfo::getAttrName() {
  return TileDialect::TargetAttrHelper::getNameStr();
}

std::string TargetInfo::getDefaultPtxFeatures() const {
  return "+ptx" + std::to_string(std::max(80u, minPtxVersion));
}

std::optional<std::string>
TargetInfo::checkPtxFeatures(llvm::StringRef features) const {
  llvm::StringRef digits = features;
  unsigned version = 0;
  if (!digits.consume_front("+ptx") || digits.size() != 2 ||
      digits.getAsInteger(10, version))
    return "the PTX version must read +ptxNN (such as +ptx80), not '" +
           features.str() + "'";
  // The newest PTX version LLVM 22's NVPTX backend (and CUDA 13's ptxas)
  // knows.
  constexpr unsigned kNewestPtxVersion = 90;
  if (version > kNewestPtxVersion)
    return "LLVM writes PTX up to 9.0 (+ptx90), not '" + features.str() + "'";
  if (version < minPtxVersion)
    return "PTX " + std::to_string(version / 10) + "." +
           std::to_string(version % 10) + " has no " + name.str() +
           " (it needs +ptx" + std::to_string(minPtxVersion) + " or later)";
  return std::nullopt;
}
