//===- LoopSlice.cpp - Recomputing a loop body's values ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "LoopSlice.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

/// Calls `fn` on each value `op` uses: its operands, and the values its
/// regions use from outside it.
static void forEachUsedValue(Operation *op, function_ref<void(Value)> fn) {
  for (Value v : op->getOperands())
    fn(v);
  op->walk([&](Operation *nested) {
    if (nested == op)
      return;
    for (Value v : nested->getOperands())
      if (!op->isAncestor(v.getParentRegion()->getParentOp()))
        fn(v);
  });
}

LogicalResult tilec::tile::collectSlice(Block *body, ValueRange values,
                                        llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val().getDefiningOp();
    if (!op || op->getBlock() != body || slice.contains(op))
      continue;
    // Ops with regions (an scf.if choosing a value) qualify when nothing in
    // them has effects.
    if (!isMemoryEffectFree(op) || op->walk([](Operation *nested) {
                                       return isa<LoadOp, DotOp>(nested)
                                                  ? WalkResult::interrupt()
                                                  : WalkResult::advance();
                                     }).wasInterrupted())
      return failure();
    slice.insert(op);
    forEachUsedValue(op, [&](Value v) { worklist.push_back(v); });
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

Value tilec::tile::cloneLoad(OpBuilder &b, LoadOp load, IRMapping &mapping,
                             Value valid) {
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  Value mask = SplatOp::create(b, loc, type.clone(b.getI1Type()), valid);
  if (load.getMask())
    mask = arith::AndIOp::create(b, loc,
                                 mapping.lookupOrDefault(load.getMask()), mask);
  Value other =
      load.getOther() ? mapping.lookupOrDefault(load.getOther()) : Value();
  auto clone = cast<LoadOp>(b.clone(*load, mapping));
  clone.getMaskMutable().assign(mask);
  if (other)
    clone.getOtherMutable().assign(other);
  return clone.getResult();
}

void tilec::tile::collectIterArgs(scf::ForOp loop, ArrayRef<Operation *> ops,
                                  llvm::SetVector<unsigned> &args) {
  Block *body = loop.getBody();
  for (Operation *op : ops)
    forEachUsedValue(op, [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && arg.getOwner() == body && arg.getArgNumber() > 0)
        args.insert(arg.getArgNumber() - 1);
    });
}
