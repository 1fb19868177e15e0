//===- Pipeline.h - The pass pipelines of tilec -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINE_PIPELINE_H
#define TILEC_PIPELINE_PIPELINE_H

namespace mlir {
class OpPassManager;
class DialectRegistry;
} // namespace mlir

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tilec {

/// Options of the lowering pipeline.
struct PipelineOptions {
  unsigned numWarps = 4;
  /// The target architecture (a name tile::TargetInfo::lookup knows),
  /// recorded on the module by tile-set-target.
  std::string target = "sm_90a";
  /// Shared-memory slots of each operand ring of a pipelined wgmma loop
  /// (tile-pipeline); below 2, loops are not pipelined.
  unsigned numStages = 3;
  /// Whether the user asked for numStages (tilec --num-stages): then a
  /// kernel in which no loop is pipelined gets a warning.
  bool warnUnusedStages = false;
  /// Rows of the L2-friendly program order of 2-D matmul grids
  /// (tile-group-programs; below 2: launch order).
  unsigned programGroup = 8;
  /// Whether pipelined loops may copy tensor-descriptor loads with TMA (the
  /// host then builds tensor maps: Kernel::launch does, generated
  /// launchers do not).
  bool tma = true;
  /// Whether tl.dot operands loaded through pointers that address a block of
  /// a 2-D tensor are described as that block, for TMA copies
  /// (tile-describe-pointer-blocks; needs `tma` and a target with TMA).
  bool pointerTma = true;
  /// Whether a deferred attention loop guards its ring with mbarriers and
  /// lets the warp groups take turns (tile-pipeline's ping-pong;
  /// experimental).
  bool pingPong = false;
  /// Whether TMA also copies and stores blocks at bases moved by program
  /// ids (tensor maps with outer dimensions; tile-pipeline's batched-tma).
  bool batchedTma = true;
  /// Whether TMA fills the rings of loops of several products (attention;
  /// tile-pipeline's multi-product-tma; experimental).
  bool multiProductTma = false;
};

/// Simplifies front-end tile IR: batched dots split per batch index
/// (tile-split-batch), canonicalisation and CSE, then loops over tiles
/// flattened with their K loops where `tl.range(..., flatten=True)` asks
/// (tile-flatten-loops; the interpreter runs them so).
void buildTileSimplifyPipeline(mlir::OpPassManager &pm);

/// From simplified tile IR to the GPU level: every tile gets a layout,
/// unnecessary layout conversions are removed, and the shared memory the
/// program needs is recorded on the module (`tile.shared`).
void buildTileToGPUPipeline(mlir::OpPassManager &pm,
                            const PipelineOptions &options);

/// From the GPU level to the LLVM and NVVM dialects.
void buildGPUToLLVMPipeline(mlir::OpPassManager &pm);

/// Registers every dialect tilec's IR may contain.
void registerTilecDialects(mlir::DialectRegistry &registry);

/// Registers tilec's passes and the `tilec-lower-to-llvm` pipeline with the
/// global pass registry (for tilec-opt).
void registerTilecPasses();

} // namespace tilec

#endif // TILEC_PIPELINE_PIPELINE_H
