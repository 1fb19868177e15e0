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

namespace tilec {

/// Options of the lowering pipeline.
struct PipelineOptions {
  unsigned numWarps = 4;
};

/// Simplifies front-end tile IR (canonicalisation and CSE).
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
