//===- ValueOps.cpp - tile ops that compute in registers --------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The tile ops that do not touch memory: program ids, ranges, splats, the
// shape ops, reductions and scans. Sums and scans accumulate in order along
// the axis, rounding to the element type after every addition (the GPU adds
// in a tree, so float sums differ from these by rounding only); so do the
// reductions and scans with a combine region, which runs on scalars.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

namespace {

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

int64_t getNumElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// The view of a tile as [outer, size, inner] around dimension `axis`.
struct AxisView {
  int64_t outer = 1, size = 1, inner = 1;
  AxisView(ArrayRef<int64_t> shape, unsigned axis) {
    for (auto [d, n] : llvm::enumerate(shape)) {
      if (d < axis)
        outer *= n;
      else if (d == axis)
        size = n;
      else
        inner *= n;
    }
  }
};

/// `acc + x`, or `acc * x` with `multiply`, in the element type `type`
/// (integers wrap).
Element combine(Type type, Element acc, Element x, bool multiply = false) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    uint64_t a = static_cast<uint64_t>(acc.i), b = static_cast<uint64_t>(x.i);
    acc.i = wrapInt(multiply ? a * b : a + b, intType.getWidth());
    return acc;
  }
  acc.f = roundFloat(cast<FloatType>(type).getFloatSemantics(),
                     multiply ? acc.f * x.f : acc.f + x.f);
  return acc;
}

/// Whether `x` replaces `best` in a max (or min) reduction: floats as
/// maxnumf (a NaN loses to any number), integers signed.
bool better(Type type, bool isMax, Element x, Element best) {
  if (isa<IntegerType>(type))
    return isMax ? x.i > best.i : x.i < best.i;
  if (std::isnan(x.f))
    return false;
  if (std::isnan(best.f))
    return true;
  return isMax ? x.f > best.f : x.f < best.f;
}

Tile reduce(tile::ReduceOp op, const Tile &src) {
  Type type = getElementType(op.getSrc().getType());
  unsigned axis = op.getAxis();
  AxisView view(src.shape, axis);
  tile::ReduceKind kind = op.getKind();
  bool isArg =
      kind == tile::ReduceKind::ArgMax || kind == tile::ReduceKind::ArgMin;
  bool isMax =
      kind == tile::ReduceKind::Max || kind == tile::ReduceKind::ArgMax;
  Tile r;
  r.shape = getShape(op.getResult().getType());
  for (int64_t o = 0; o < view.outer; ++o) {
    for (int64_t i = 0; i < view.inner; ++i) {
      auto at = [&](int64_t k) {
        return src.elems[(o * view.size + k) * view.inner + i];
      };
      Element acc = at(0);
      int64_t index = 0;
      for (int64_t k = 1; k < view.size; ++k) {
        if (kind == tile::ReduceKind::Sum) {
          acc = combine(type, acc, at(k));
        } else if (better(type, isMax, at(k), acc)) {
          acc = at(k);
          index = k;
        }
      }
      r.elems.push_back(isArg ? Element{index, 0.0, -1} : acc);
    }
  }
  return r;
}

Tile scan(tile::ScanOp op, const Tile &src) {
  Type type = getElementType(op.getSrc().getType());
  AxisView view(src.shape, op.getAxis());
  Tile r = src;
  for (int64_t o = 0; o < view.outer; ++o) {
    for (int64_t i = 0; i < view.inner; ++i) {
      auto at = [&](int64_t k) -> Element & {
        if (op.getReverse())
          k = view.size - 1 - k;
        return r.elems[(o * view.size + k) * view.inner + i];
      };
      for (int64_t k = 1; k < view.size; ++k)
        at(k) = combine(type, at(k - 1), at(k),
                        op.getKind() == tile::ScanKind::Prod);
    }
  }
  return r;
}

/// `src` broadcast to `shape` along its dimensions of size 1.
Tile broadcast(const Tile &src, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> srcStrides = getStrides(src.shape);
  SmallVector<int64_t> strides = getStrides(shape);
  Tile r;
  r.shape.assign(shape.begin(), shape.end());
  int64_t n = getNumElements(shape);
  r.elems.reserve(n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t from = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      if (src.shape[d] != 1)
        from += (k / strides[d] % shape[d]) * srcStrides[d];
    r.elems.push_back(src.elems[from]);
  }
  return r;
}

/// Result dimension d of `trans` is dimension order[d] of `src`.
Tile transpose(const Tile &src, ArrayRef<int32_t> order,
               ArrayRef<int64_t> shape) {
  SmallVector<int64_t> srcStrides = getStrides(src.shape);
  SmallVector<int64_t> strides = getStrides(shape);
  Tile r;
  r.shape.assign(shape.begin(), shape.end());
  int64_t n = getNumElements(shape);
  r.elems.reserve(n);
  for (int64_t k = 0; k < n; ++k) {
    int64_t from = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      from += (k / strides[d] % shape[d]) * srcStrides[order[d]];
    r.elems.push_back(src.elems[from]);
  }
  return r;
}

/// tl.gather: the result has the index's shape; along `axis` each element
/// reads the source at its index (clamped to the axis, as the GPU does).
Tile gather(const Tile &src, const Tile &index, unsigned axis) {
  SmallVector<int64_t> srcStrides = getStrides(src.shape);
  SmallVector<int64_t> strides = getStrides(index.shape);
  Tile r;
  r.shape = index.shape;
  r.elems.reserve(index.elems.size());
  int64_t size = src.shape[axis];
  for (size_t k = 0; k < index.elems.size(); ++k) {
    int64_t from = 0;
    for (size_t d = 0; d < index.shape.size(); ++d) {
      int64_t coord = int64_t(k) / strides[d] % index.shape[d];
      if (d == axis)
        coord = std::clamp<int64_t>(index.elems[k].i, 0, size - 1);
      from += coord * srcStrides[d];
    }
    r.elems.push_back(src.elems[from]);
  }
  return r;
}

/// tl.histogram: counts of the values in [0, bins) whose mask is set.
Tile histogram(const Tile &src, const Tile *mask, int64_t bins) {
  Tile r;
  r.shape = {bins};
  r.elems.assign(bins, Element{0, 0.0, -1});
  for (size_t k = 0; k < src.elems.size(); ++k) {
    int64_t v = src.elems[k].i;
    if (v >= 0 && v < bins && (!mask || mask->elems[k].i))
      ++r.elems[v].i;
  }
  return r;
}

} // namespace

LogicalResult Executor::runTileOp(Operation *op) {
  Value resultValue = op->getResult(0);
  SmallVector<int64_t, 2> shape = getShape(resultValue.getType());
  auto result = [&](Tile tile) {
    set(resultValue, std::move(tile));
    return success();
  };
  // The same elements with the result's shape.
  auto reshaped = [&](Value src) {
    Tile r = get(src);
    r.shape = shape;
    return result(std::move(r));
  };
  auto scalar = [&](int64_t v) {
    Tile r;
    r.elems.push_back(Element{v, 0.0, -1});
    return result(std::move(r));
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](tile::ProgramIdOp p) { return scalar(pid[p.getAxis()]); })
      .Case([&](tile::NumProgramsOp p) {
        return scalar(launch.grid[p.getAxis()]);
      })
      .Case([&](tile::MakeRangeOp range) {
        Tile r;
        r.shape = shape;
        for (int64_t v = range.getStart(); v < range.getEnd(); ++v)
          r.elems.push_back(Element{v, 0.0, -1});
        return result(std::move(r));
      })
      .Case([&](tile::SplatOp splat) {
        Tile r;
        r.shape = shape;
        r.elems.assign(getNumElements(shape), get(splat.getSrc()).elems[0]);
        return result(std::move(r));
      })
      .Case([&](tile::ExpandDimsOp e) { return reshaped(e.getSrc()); })
      .Case([&](tile::ReshapeOp e) { return reshaped(e.getSrc()); })
      .Case([&](tile::BroadcastOp b) {
        return result(broadcast(get(b.getSrc()), shape));
      })
      .Case([&](tile::TransOp t) {
        return result(transpose(get(t.getSrc()), t.getOrder(), shape));
      })
      .Case([&](tile::InlineAsmOp) {
        return op->emitError()
               << "tl.inline_asm_elementwise runs PTX, which the interpreter "
                  "cannot run";
      })
      .Case([&](tile::GatherOp g) {
        return result(gather(get(g.getSrc()), get(g.getIndex()), g.getAxis()));
      })
      .Case([&](tile::HistogramOp h) {
        return result(histogram(get(h.getSrc()),
                                h.getMask() ? &get(h.getMask()) : nullptr,
                                shape[0]));
      })
      .Case(
          [&](tile::ReduceOp r) { return result(reduce(r, get(r.getSrc()))); })
      .Case([&](tile::ScanOp s) { return result(scan(s, get(s.getSrc()))); })
      .Default([&](Operation *) {
        return op->emitError()
               << "the interpreter does not support '" << op->getName() << "'";
      });
}

LogicalResult Executor::runCombine(Operation *op) {
  auto reduce = dyn_cast<tile::CombineReduceOp>(op);
  auto scan = dyn_cast<tile::CombineScanOp>(op);
  Block &block = (reduce ? reduce.getCombine() : scan.getCombine()).front();
  unsigned axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  bool reverse = scan && scan.getReverse();
  // Copies: running the region adds values, which may move the others.
  SmallVector<Tile> srcs;
  for (Value src : op->getOperands())
    srcs.push_back(get(src));
  size_t n = srcs.size();
  AxisView view(srcs[0].shape, axis);
  SmallVector<Tile> results(n);
  for (auto [tile, result] : llvm::zip(results, op->getResults())) {
    tile.shape = getShape(result.getType());
    if (scan)
      tile.elems.resize(srcs[0].elems.size());
  }
  auto scalarTile = [](Element e) {
    Tile t;
    t.elems.push_back(e);
    return t;
  };
  SmallVector<Tile> args(2 * n), combined;
  for (int64_t o = 0; o < view.outer; ++o) {
    for (int64_t i = 0; i < view.inner; ++i) {
      for (int64_t step = 0; step < view.size; ++step) {
        int64_t k = reverse ? view.size - 1 - step : step;
        size_t at = (o * view.size + k) * view.inner + i;
        for (size_t j = 0; j < n; ++j)
          args[n + j] = scalarTile(srcs[j].elems[at]);
        if (step == 0) {
          for (size_t j = 0; j < n; ++j)
            args[j] = args[n + j];
        } else {
          if (failed(runBlock(block, args, combined)))
            return failure();
          for (size_t j = 0; j < n; ++j)
            args[j] = combined[j];
        }
        if (scan)
          for (size_t j = 0; j < n; ++j)
            results[j].elems[at] = args[j].elems[0];
      }
      if (reduce)
        for (size_t j = 0; j < n; ++j)
          results[j].elems.push_back(args[j].elems[0]);
    }
  }
  for (auto [result, tile] : llvm::zip(op->getResults(), results))
    set(result, std::move(tile));
  return success();
}

LogicalResult Executor::runMapElementwise(Operation *op) {
  auto map = cast<tile::MapElementwiseOp>(op);
  Block &block = map.getBody().front();
  size_t pack = map.getPack();
  // Copies: running the region adds values, which may move the others.
  SmallVector<Tile> srcs;
  for (Value src : map.getSrcs())
    srcs.push_back(get(src));
  SmallVector<Tile> results(map.getNumResults());
  for (auto [tile, result] : llvm::zip(results, map.getResults()))
    tile.shape = getShape(result.getType());
  SmallVector<Tile> args, yielded;
  for (size_t group = 0; group < srcs[0].elems.size(); group += pack) {
    args.clear();
    for (const Tile &src : srcs)
      for (size_t j = 0; j < pack; ++j) {
        Tile scalar;
        scalar.elems.push_back(src.elems[group + j]);
        args.push_back(std::move(scalar));
      }
    if (failed(runBlock(block, args, yielded)))
      return failure();
    for (auto [i, value] : llvm::enumerate(yielded))
      results[i / pack].elems.push_back(value.elems[0]);
  }
  for (auto [result, tile] : llvm::zip(map.getResults(), results))
    set(result, std::move(tile));
  return success();
}
