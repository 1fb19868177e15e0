//===- GroupPrograms.cpp - L2-friendly order of matmul programs -*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Implements tile-group-programs (see Passes.td): the program ids of 2-D
// matmul grids are computed from the launch position so that consecutive
// programs walk groups of rows across all columns.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilec::tile {
#define GEN_PASS_DEF_TILEGROUPPROGRAMS
#include "tilec/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tilec::tile

using namespace mlir;
using namespace tilec::tile;

namespace {

/// Replaces the program ids of `func` by those of the grouped order.
static void groupPrograms(func::FuncOp func, unsigned groupSize) {
  SmallVector<ProgramIdOp> ids[3];
  bool hasDot = false;
  func.walk([&](Operation *op) {
    if (auto id = dyn_cast<ProgramIdOp>(op))
      ids[id.getAxis()].push_back(id);
    hasDot |= isa<DotOp>(op);
  });
  if (!hasDot || ids[0].empty() || ids[1].empty() || !ids[2].empty())
    return;

  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  Location loc = func.getLoc();
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
  };
  Value x = ProgramIdOp::create(b, loc, i32, 0);
  Value y = ProgramIdOp::create(b, loc, i32, 1);
  Value gx = NumProgramsOp::create(b, loc, i32, 0);
  Value gy = NumProgramsOp::create(b, loc, i32, 1);
  Value size = constant(groupSize);
  // The program's place in launch order, which a grid of fewer than 2^31
  // programs keeps from overflowing (nsw: analyses may count on it).
  auto nsw = arith::IntegerOverflowFlags::nsw;
  Value position = arith::AddIOp::create(
      b, loc, x, arith::MulIOp::create(b, loc, y, gx, nsw), nsw);
  Value group = arith::MulIOp::create(b, loc, size, gy);
  Value first = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, position, group), size);
  Value rows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, gx, first), size);
  Value within = arith::RemUIOp::create(b, loc, position, group);
  Value id0 = arith::AddIOp::create(
      b, loc, first, arith::RemUIOp::create(b, loc, within, rows));
  Value id1 = arith::DivUIOp::create(b, loc, within, rows);
  for (ProgramIdOp old : ids[0]) {
    old.replaceAllUsesWith(id0);
    old.erase();
  }
  for (ProgramIdOp old : ids[1]) {
    old.replaceAllUsesWith(id1);
    old.erase();
  }
}

struct GroupProgramsPass
    : public tilec::tile::impl::TileGroupProgramsBase<GroupProgramsPass> {
  using TileGroupProgramsBase::TileGroupProgramsBase;
  void runOnOperation() override {
    if (groupSize < 2)
      return;
    getOperation().walk(
        [&](func::FuncOp func) { groupPrograms(func, groupSize); });
  }
};

} // namespace
