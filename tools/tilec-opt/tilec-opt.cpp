//===- tilec-opt.cpp - Run tilec passes on MLIR files -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt for tilec: parses tile, arith, func, LLVM and NVVM IR and runs
// tilec's passes and the canonicaliser and CSE on it. Used by the lit tests
// of every pass.
//
//===----------------------------------------------------------------------===//

#include "tilec/Pipeline/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilec::registerTilecDialects(registry);
  tilec::registerTilecPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver\n", registry));
}
