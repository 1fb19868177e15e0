//===- LoopSlice.cpp - Recomputing a loop body's values ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "LoopSlice.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

LogicalResult tilec::tile::collectSlice(Block *body, ValueRange values,
                                        llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val().getDefiningOp();
    if (!op || op->getBlock() != body || slice.contains(op))
      continue;
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
        isa<LoadOp, DotOp>(op))
      return failure();
    slice.insert(op);
    worklist.append(op->operand_begin(), op->operand_end());
  }
  return success();
}

void tilec::tile::cloneSlice(OpBuilder &b,
                             const llvm::SetVector<Operation *> &slice,
                             IRMapping &mapping) {
  SmallVector<Operation *> ops(slice.begin(), slice.end());
  computeTopologicalSorting(ops);
  for (Operation *op : ops)
    b.clone(*op, mapping);
}

void tilec::tile::collectIterArgs(scf::ForOp loop, ArrayRef<Operation *> ops,
                                  llvm::SetVector<unsigned> &args) {
  Block *body = loop.getBody();
  for (Operation *op : ops)
    for (Value v : op->getOperands())
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && arg.getOwner() == body && arg.getArgNumber() > 0)
        args.insert(arg.getArgNumber() - 1);
}
