//===- Executor.cpp - Runs one kernel's tile IR -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The executor's core: binds the kernel's arguments, walks the ops of a
// block in order, dispatches each to its family, and runs `scf.for`,
// `scf.if` and `scf.while` by running their regions.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

SmallVector<int64_t, 2> interp::getShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return SmallVector<int64_t, 2>(tensor.getShape());
  return {};
}

Type interp::getElementType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

std::string interp::formatIndex(ArrayRef<int64_t> shape, size_t index) {
  SmallVector<int64_t> coords(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    coords[d] = static_cast<int64_t>(index) % shape[d];
    index /= shape[d];
  }
  std::string text = "[";
  for (auto [i, c] : llvm::enumerate(coords))
    text += (i ? ", " : "") + std::to_string(c);
  return text + "]";
}

InFlightDiagnostic Executor::error(Operation *op, StringRef what) {
  return op->emitError() << what << " in kernel '" << launch.kernelName
                         << "', program (" << pid[0] << ", " << pid[1] << ", "
                         << pid[2] << ")";
}

InFlightDiagnostic Executor::error(Operation *op, StringRef what,
                                   ArrayRef<int64_t> shape, size_t element) {
  InFlightDiagnostic diag = error(op, what);
  if (!shape.empty())
    diag << ", element " << formatIndex(shape, element);
  return diag;
}

const Tile &Executor::get(Value value) const {
  auto it = values.find(value);
  assert(it != values.end() && "value used before its definition");
  return it->second;
}

LogicalResult Executor::runProgram(std::array<unsigned, 3> programId,
                                   ArrayRef<Tile> args) {
  pid = programId;
  values.clear();
  SmallVector<Tile> results;
  return runBlock(body, args, results);
}

LogicalResult Executor::runBlock(Block &block, ArrayRef<Tile> args,
                                 SmallVectorImpl<Tile> &results) {
  for (auto [arg, tile] : llvm::zip_equal(block.getArguments(), args))
    set(arg, tile);
  for (Operation &op : block.without_terminator())
    if (failed(run(&op)))
      return failure();
  results.clear();
  for (Value operand : block.getTerminator()->getOperands())
    results.push_back(get(operand));
  return success();
}

LogicalResult Executor::run(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (isa_and_nonnull<arith::ArithDialect>(dialect))
    return runArith(op);
  if (isa_and_nonnull<math::MathDialect>(dialect))
    return runMath(op);
  if (isa<tile::DotOp>(op))
    return runDot(op);
  if (isa<tile::AddPtrOp, tile::IntToPtrOp, tile::PtrToIntOp, tile::PtrCastOp,
          tile::LoadOp, tile::StoreOp, tile::AtomicRMWOp, tile::AtomicCASOp>(
          op))
    return runMemoryOp(op);
  if (isa<tile::ExternElementwiseOp>(op))
    return runExternElementwise(op);
  // Programs run one after another, each on one thread; launches one after
  // another too.
  if (isa<tile::DebugBarrierOp, tile::GridDepWaitOp, tile::GridDepLaunchOp>(op))
    return success();
  if (isa<tile::PrintOp, tile::AssertOp>(op))
    return runDebugOp(op);
  if (isa<tile::CombineReduceOp, tile::CombineScanOp>(op))
    return runCombine(op);
  if (isa<tile::MapElementwiseOp>(op))
    return runMapElementwise(op);
  if (isa_and_nonnull<tile::TileDialect>(dialect))
    return runTileOp(op);
  if (isa<scf::ForOp>(op))
    return runFor(op);
  if (isa<scf::IfOp>(op))
    return runIf(op);
  if (isa<scf::WhileOp>(op))
    return runWhile(op);
  return op->emitError() << "the interpreter does not support '"
                         << op->getName() << "'";
}

/// The integer value of a scalar.
static int64_t scalarInt(const Tile &tile) { return tile.elems.front().i; }

LogicalResult Executor::runFor(Operation *op) {
  auto forOp = cast<scf::ForOp>(op);
  unsigned width = forOp.getInductionVar().getType().getIntOrFloatBitWidth();
  int64_t lower = scalarInt(get(forOp.getLowerBound()));
  int64_t upper = scalarInt(get(forOp.getUpperBound()));
  int64_t step = scalarInt(get(forOp.getStep()));
  if (step <= 0)
    return error(op, "loop step ") << step << " is not positive";
  SmallVector<Tile> carried;
  for (Value init : forOp.getInitArgs())
    carried.push_back(get(init));
  SmallVector<Tile> args;
  for (int64_t iv = lower; iv < upper; iv = wrapInt(iv + step, width)) {
    args.clear();
    Tile ivTile;
    ivTile.elems.push_back(Element{iv, 0.0, -1});
    args.push_back(std::move(ivTile));
    args.append(carried.begin(), carried.end());
    if (failed(runBlock(*forOp.getBody(), args, carried)))
      return failure();
    // A step that wraps the induction variable around ends the loop.
    if (wrapInt(iv + step, width) < iv)
      break;
  }
  for (auto [result, tile] : llvm::zip_equal(forOp.getResults(), carried))
    set(result, std::move(tile));
  return success();
}

LogicalResult Executor::runIf(Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  bool condition = scalarInt(get(ifOp.getCondition())) != 0;
  Region &region = condition ? ifOp.getThenRegion() : ifOp.getElseRegion();
  if (region.empty())
    return success();
  SmallVector<Tile> results;
  if (failed(runBlock(region.front(), {}, results)))
    return failure();
  for (auto [result, tile] : llvm::zip_equal(ifOp.getResults(), results))
    set(result, std::move(tile));
  return success();
}

LogicalResult Executor::runWhile(Operation *op) {
  auto whileOp = cast<scf::WhileOp>(op);
  SmallVector<Tile> carried;
  for (Value init : whileOp.getInits())
    carried.push_back(get(init));
  while (true) {
    SmallVector<Tile> forwarded;
    if (failed(runBlock(whileOp.getBefore().front(), carried, forwarded)))
      return failure();
    // The condition op's operands: the condition, then the values passed on.
    bool condition = scalarInt(forwarded.front()) != 0;
    forwarded.erase(forwarded.begin());
    if (!condition) {
      for (auto [result, tile] :
           llvm::zip_equal(whileOp.getResults(), forwarded))
        set(result, std::move(tile));
      return success();
    }
    if (failed(runBlock(whileOp.getAfter().front(), forwarded, carried)))
      return failure();
  }
}
