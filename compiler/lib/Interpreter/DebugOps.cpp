//===- DebugOps.cpp - tl.device_print and tl.device_assert ------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tile.print prints, to standard output, the lines the GPU prints (`pid (x,
// y, z) idx (i, j) PREFIX v0 v1 ...`, in row-major element order); floats
// with %f, integers in decimal or 0x hex. tile.assert fails the run at the
// first false element with the assertion's message and position.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

LogicalResult Executor::runDebugOp(Operation *op) {
  if (auto assertOp = dyn_cast<tile::AssertOp>(op)) {
    const Tile &cond = get(assertOp.getCondition());
    for (size_t k = 0; k < cond.elems.size(); ++k)
      if (!cond.elems[k].i)
        return error(op, "device assertion failed", cond.shape, k)
               << ": " << assertOp.getMessage() << " (" << assertOp.getFile()
               << ":" << assertOp.getLine() << ")";
    return success();
  }
  auto print = cast<tile::PrintOp>(op);
  SmallVector<const Tile *> args;
  for (Value arg : print.getArgs())
    args.push_back(&get(arg));
  ArrayRef<int64_t> shape =
      args.empty() ? ArrayRef<int64_t>() : ArrayRef<int64_t>(args[0]->shape);
  size_t n = args.empty() ? 1 : args[0]->elems.size();
  llvm::raw_ostream &os = llvm::outs();
  for (size_t k = 0; k < n; ++k) {
    os << "pid (" << pid[0] << ", " << pid[1] << ", " << pid[2] << ") ";
    if (!shape.empty()) {
      std::string index = formatIndex(shape, k);
      os << "idx (" << StringRef(index).drop_front().drop_back() << ") ";
    }
    os << print.getPrefix();
    for (auto [i, arg] : llvm::enumerate(print.getArgs())) {
      Type elem = getElementType(arg.getType());
      const Element &e = args[i]->elems[args[i]->elems.size() == 1 ? 0 : k];
      os << (i ? " " : "");
      if (isa<FloatType>(elem))
        os << llvm::format("%f", e.f);
      else if (print.getHex() || isa<tile::PtrType>(elem))
        os << llvm::format("0x%llx", (unsigned long long)e.i);
      else if (print.isUnsignedArg(i))
        os << (uint64_t(e.i) &
               (elem.getIntOrFloatBitWidth() >= 64
                    ? ~uint64_t(0)
                    : (uint64_t(1) << elem.getIntOrFloatBitWidth()) - 1));
      else
        os << e.i;
    }
    os << "\n";
  }
  return success();
}
