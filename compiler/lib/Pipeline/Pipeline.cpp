//===- Pipeline.cpp - The pass pipelines of tilec ---------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The order of passes from front-end tile IR to LLVM/NVVM, shared by the
// tilec driver and tilec-opt (docs/architecture.md describes each stage).
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipeline/Pipeline.h"

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tilec::buildTileSimplifyPipeline(OpPassManager &pm) {
  pm.addPass(tile::createTileSplitBatch());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // On canonical loops: bounds and constants hoisted out of the loop over
  // tiles.
  pm.addPass(tile::createTileFlattenLoops());
}

void tilec::buildTileToGPUPipeline(OpPassManager &pm,
                                   const PipelineOptions &options) {
  tile::TileSetTargetOptions targetOptions;
  targetOptions.arch = options.target;
  pm.addPass(tile::createTileSetTarget(targetOptions));
  std::optional<tile::TargetInfo> target =
      tile::TargetInfo::lookup(options.target);
  tile::TileGroupProgramsOptions groupOptions;
  groupOptions.groupSize = options.programGroup;
  pm.addPass(tile::createTileGroupPrograms(groupOptions));
  // Before the bounds checks are split off: the masks bound the blocks.
  if (options.tma && options.pointerTma && target && target->hasTma())
    pm.addPass(tile::createTileDescribePointerBlocks());
  pm.addPass(tile::createTileSplitBoundsChecks());
  tile::TileSplitTf32x3Options splitOptions;
  splitOptions.numWarps = options.numWarps;
  pm.addPass(tile::createTileSplitTf32x3(splitOptions));
  tile::TileAssignLayoutsOptions layoutOptions;
  layoutOptions.numWarps = options.numWarps;
  pm.addPass(tile::createTileAssignLayouts(layoutOptions));
  pm.addPass(tile::createTileCoalesce());
  pm.addPass(tile::createTileRemoveLayoutConversions());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  tile::TilePipelineOptions pipelineOptions;
  pipelineOptions.numStages = options.numStages;
  pipelineOptions.tma = options.tma;
  pipelineOptions.pingPong = options.pingPong;
  pipelineOptions.batchedTma = options.batchedTma;
  pipelineOptions.multiProductTma = options.multiProductTma;
  pipelineOptions.warnUnused = options.warnUnusedStages;
  pm.addPass(tile::createTilePipeline(pipelineOptions));
  pm.addPass(tile::createTilePrefetchLoads());
  // Before unrolling, which rewrites the loop bounds it reads.
  pm.addPass(tile::createTileRereadFootprint());
  pm.addPass(tile::createTileUnrollLoops());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(tile::createTileAllocateSharedMemory());
}

void tilec::buildGPUToLLVMPipeline(OpPassManager &pm) {
  pm.addPass(createConvertTileToLLVM());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void tilec::registerTilecDialects(DialectRegistry &registry) {
  registry.insert<tile::TileDialect, arith::ArithDialect, func::FuncDialect,
                  math::MathDialect, scf::SCFDialect, cf::ControlFlowDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect>();
}

namespace {
struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  Option<unsigned> numWarps{*this, "num-warps",
                            llvm::cl::desc("Warps per program"),
                            llvm::cl::init(4)};
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("The target architecture"),
                             llvm::cl::init("sm_90a")};
  Option<unsigned> numStages{
      *this, "num-stages",
      llvm::cl::desc("Slots of each operand ring of a pipelined wgmma loop"),
      llvm::cl::init(3)};
};
} // namespace

void tilec::registerTilecPasses() {
  tile::registerTilePasses();
  registerTilecConversionPasses();
  PassPipelineRegistration<LowerToLLVMOptions>(
      "tilec-lower-to-llvm",
      "The whole tilec pipeline from front-end tile IR to LLVM/NVVM",
      [](OpPassManager &pm, const LowerToLLVMOptions &options) {
        PipelineOptions pipelineOptions;
        pipelineOptions.numWarps = options.numWarps;
        pipelineOptions.target = options.target;
        pipelineOptions.numStages = options.numStages;
        buildTileSimplifyPipeline(pm);
        buildTileToGPUPipeline(pm, pipelineOptions);
        buildGPUToLLVMPipeline(pm);
      });
}
