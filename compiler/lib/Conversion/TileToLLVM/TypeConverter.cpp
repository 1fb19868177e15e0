//===- TypeConverter.cpp - Types and registers of tiles ---------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The type converter of the tile lowering and the helpers that map between a
// tile, the registers one thread holds, and the coordinates of those
// registers' elements. Index emission is specialised per layout: a blocked
// layout computes each coordinate as (register part + thread part) mod size,
// a slice layout emits its parent's indices and keeps the registers it keeps.
//
//===----------------------------------------------------------------------===//

#include "TileToLLVMPatterns.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::tile;

TileTypeConverter::TileTypeConverter(MLIRContext *ctx)
    : LLVMTypeConverter(ctx) {
  addConversion([ctx](PtrType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/1);
  });
  // A shared-memory buffer is the address of its first byte, and so are
  // mbarriers.
  addConversion([ctx](SmemType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3);
  });
  addConversion([ctx](BarriersType) -> Type {
    return LLVM::LLVMPointerType::get(ctx, /*addressSpace=*/3);
  });
  // A tensor map is the (generic) address of the kernel parameter holding
  // it.
  addConversion(
      [ctx](TensorMapType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    LayoutAttrInterface layout = getLayout(type);
    if (!layout)
      return std::nullopt;
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    int64_t n = layout.getElemsPerThread(type.getShape());
    SmallVector<Type> fields(n, element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), fields);
  });
}

SmallVector<Value> tilec::unpackRegisters(OpBuilder &b, Location loc,
                                          Value value) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(value.getType());
  if (!structType)
    return {value};
  // A struct packRegisters built: its registers are the inserted values
  // (extracting them again would only give the canonicalizer work).
  int64_t size = structType.getBody().size();
  SmallVector<Value> regs(size);
  int64_t found = 0;
  Value chain = value;
  while (auto insert = chain.getDefiningOp<LLVM::InsertValueOp>()) {
    ArrayRef<int64_t> position = insert.getPosition();
    if (position.size() != 1)
      break;
    if (!regs[position[0]]) {
      regs[position[0]] = insert.getValue();
      ++found;
    }
    chain = insert.getContainer();
  }
  if (found == size)
    return regs;
  for (int64_t i = 0; i < size; ++i)
    regs[i] = LLVM::ExtractValueOp::create(b, loc, value, i);
  return regs;
}

Value tilec::packRegisters(OpBuilder &b, Location loc, Type type,
                           ValueRange registers) {
  if (!isa<LLVM::LLVMStructType>(type)) {
    assert(registers.size() == 1 && "a scalar has one register");
    return registers.front();
  }
  Value result = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, reg] : llvm::enumerate(registers))
    result = LLVM::InsertValueOp::create(b, loc, result, reg, i);
  return result;
}

Value tilec::i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(v));
}

Value tilec::getThreadId(OpBuilder &b, Location loc) {
  return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
}

Value tilec::getLaneId(OpBuilder &b, Location loc) {
  return LLVM::AndOp::create(b, loc, getThreadId(b, loc),
                             i32Constant(b, loc, 31));
}

Value tilec::getWarpId(OpBuilder &b, Location loc) {
  return LLVM::LShrOp::create(b, loc, getThreadId(b, loc),
                              i32Constant(b, loc, 5));
}

Value tilec::getUniformWarpId(OpBuilder &b, Location loc) {
  // Lane 0's copy, so that ptxas knows it is the same in every lane.
  return NVVM::ShflOp::create(b, loc, b.getI32Type(), i32Constant(b, loc, -1),
                              getWarpId(b, loc), i32Constant(b, loc, 0),
                              i32Constant(b, loc, 0x1f), NVVM::ShflKind::idx,
                              /*return_value_and_is_valid=*/UnitAttr());
}

Value tilec::linearizeIndex(OpBuilder &b, Location loc, ValueRange coords,
                            ArrayRef<int64_t> shape) {
  Value index = i32Constant(b, loc, 0);
  for (auto [c, size] : llvm::zip_equal(coords, shape)) {
    index = LLVM::MulOp::create(b, loc, index, i32Constant(b, loc, size));
    index = LLVM::AddOp::create(b, loc, index, c);
  }
  return index;
}

Value tilec::emitOwnerPredicate(OpBuilder &b, Location loc,
                                unsigned duplicateLaneMask,
                                unsigned duplicateWarpMask) {
  Value pred;
  auto addCondition = [&](Value id, unsigned mask) {
    if (!mask)
      return;
    Value bits = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, mask));
    Value zero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                                      i32Constant(b, loc, 0));
    pred = pred ? LLVM::AndOp::create(b, loc, pred, zero) : zero;
  };
  addCondition(getLaneId(b, loc), duplicateLaneMask);
  addCondition(getWarpId(b, loc), duplicateWarpMask);
  return pred;
}

/// The coordinates of every register of a layout whose thread part
/// (`threadPart`, per dimension) and register part (known at compile time)
/// add without carries: `(registerPart(r) + threadPart) mod shape`. Shapes
/// are powers of two (checked when layouts are assigned), so the modulo is a
/// mask. With `viaXor` (a linear layout's parts, which may share bits), the
/// parts are xor-ed instead.
static SmallVector<SmallVector<Value>>
addRegisterParts(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                 LayoutAttrInterface layout, ArrayRef<Value> threadPart,
                 bool viaXor = false) {
  int64_t n = layout.getElemsPerThread(shape);
  SmallVector<SmallVector<Value>> indices(n);
  // Registers share coordinates along each dimension (the 128 registers of
  // a 128x256 accumulator hold 2 rows and 64 columns): one value each.
  SmallVector<DenseMap<int64_t, Value>> emitted(shape.size());
  for (int64_t r = 0; r < n; ++r) {
    SmallVector<int64_t> regPart = layout.getCoordinates(shape, r, 0, 0);
    for (unsigned d = 0; d < shape.size(); ++d) {
      Value &index = emitted[d][regPart[d]];
      if (!index) {
        index = threadPart[d];
        if (regPart[d] != 0) {
          Value part = i32Constant(b, loc, regPart[d]);
          index = viaXor ? Value(LLVM::XOrOp::create(b, loc, index, part))
                         : Value(LLVM::AddOp::create(b, loc, index, part));
        }
        if (!viaXor)
          index = LLVM::AndOp::create(b, loc, index,
                                      i32Constant(b, loc, shape[d] - 1));
      }
      indices[r].push_back(index);
    }
  }
  return indices;
}

/// Coordinates for a blocked layout: the element held by register `r` is at
/// `(registerPart(r) + threadPart(lane, warp)) mod shape` along each
/// dimension, where the register part is known at compile time.
static SmallVector<SmallVector<Value>>
emitBlockedIndices(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   BlockedLayoutAttr layout) {
  unsigned rank = shape.size();
  Value lane = getLaneId(b, loc);
  Value warp = getWarpId(b, loc);

  SmallVector<Value> threadPart(rank);
  int64_t laneStride = 1, warpStride = 1;
  for (unsigned d : layout.getOrder()) {
    int64_t tpw = layout.getThreadsPerWarp()[d];
    int64_t wpc = layout.getWarpsPerCTA()[d];
    Value laneD = LLVM::URemOp::create(
        b, loc,
        LLVM::UDivOp::create(b, loc, lane, i32Constant(b, loc, laneStride)),
        i32Constant(b, loc, tpw));
    Value warpD = LLVM::URemOp::create(
        b, loc,
        LLVM::UDivOp::create(b, loc, warp, i32Constant(b, loc, warpStride)),
        i32Constant(b, loc, wpc));
    Value thread = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, warpD, i32Constant(b, loc, tpw)),
        laneD);
    threadPart[d] = LLVM::MulOp::create(
        b, loc, thread, i32Constant(b, loc, layout.getSizePerThread()[d]));
    laneStride *= tpw;
    warpStride *= wpc;
  }

  return addRegisterParts(b, loc, shape, layout, threadPart);
}

/// Indices of an mma accumulator layout: warp `w` starts at row
/// 16 * (w % warpsM) and column n * (w / warpsM), lane `l` at row l / 4 and
/// column 2 * (l % 4) (of the transposed tile, for a transposed layout);
/// registers add their own offsets.
static SmallVector<SmallVector<Value>> emitMmaIndices(OpBuilder &b,
                                                      Location loc,
                                                      ArrayRef<int64_t> shape,
                                                      MmaLayoutAttr layout) {
  Value lane = getLaneId(b, loc);
  Value warp = getWarpId(b, loc);
  Value warpsM = i32Constant(b, loc, layout.getWarpsPerCTA()[0]);
  Value row = LLVM::AddOp::create(
      b, loc,
      LLVM::MulOp::create(b, loc, LLVM::URemOp::create(b, loc, warp, warpsM),
                          i32Constant(b, loc, 16)),
      LLVM::UDivOp::create(b, loc, lane, i32Constant(b, loc, 4)));
  Value col = LLVM::AddOp::create(
      b, loc,
      LLVM::MulOp::create(b, loc, LLVM::UDivOp::create(b, loc, warp, warpsM),
                          i32Constant(b, loc, layout.getInstrShape()[1])),
      LLVM::MulOp::create(
          b, loc, LLVM::URemOp::create(b, loc, lane, i32Constant(b, loc, 4)),
          i32Constant(b, loc, 2)));
  if (layout.getTransposed())
    std::swap(row, col);
  return addRegisterParts(b, loc, shape, layout, {row, col});
}

/// Indices of a linear layout: per dimension, the xor of the lane and warp
/// bases of the thread's set bits, xor-ed with each register's part.
static SmallVector<SmallVector<Value>>
emitLinearIndices(OpBuilder &b, Location loc, LinearLayoutAttr layout) {
  ArrayRef<int64_t> shape = layout.getShape();
  Value zero = i32Constant(b, loc, 0);
  SmallVector<Value> threadPart(shape.size(), zero);
  auto addBits = [&](Value id, ArrayRef<int64_t> bases, unsigned bits) {
    for (unsigned bit = 0; bit < bits; ++bit) {
      ArrayRef<int64_t> basis = layout.getBasis(bases, bit);
      if (llvm::all_of(basis, [](int64_t c) { return c == 0; }))
        continue;
      // 0 or all ones, as the bit of `id` is.
      Value shifted = bit == 0 ? id
                               : Value(LLVM::LShrOp::create(
                                     b, loc, id, i32Constant(b, loc, bit)));
      Value set = LLVM::SubOp::create(
          b, loc, zero,
          LLVM::AndOp::create(b, loc, shifted, i32Constant(b, loc, 1)));
      for (auto [d, c] : llvm::enumerate(basis)) {
        if (!c)
          continue;
        Value term = LLVM::AndOp::create(b, loc, set, i32Constant(b, loc, c));
        threadPart[d] =
            threadPart[d] == zero
                ? term
                : Value(LLVM::XOrOp::create(b, loc, threadPart[d], term));
      }
    }
  };
  addBits(getLaneId(b, loc), layout.getLanes(), 5);
  addBits(getWarpId(b, loc), layout.getWarps(), layout.getNumWarpBits());
  return addRegisterParts(b, loc, shape, layout, threadPart, /*viaXor=*/true);
}

/// Indices of a layout for `shape`.
static SmallVector<SmallVector<Value>>
emitLayoutIndices(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Attribute layout) {
  return llvm::TypeSwitch<Attribute, SmallVector<SmallVector<Value>>>(layout)
      .Case<BlockedLayoutAttr>([&](BlockedLayoutAttr blocked) {
        return emitBlockedIndices(b, loc, shape, blocked);
      })
      .Case<MmaLayoutAttr>(
          [&](MmaLayoutAttr mma) { return emitMmaIndices(b, loc, shape, mma); })
      .Case<LinearLayoutAttr>([&](LinearLayoutAttr linear) {
        return emitLinearIndices(b, loc, linear);
      })
      .Case<SliceLayoutAttr>([&](SliceLayoutAttr slice) {
        // The parent's indices for the shape with a unit dimension
        // inserted, restricted to the registers the slice keeps, with that
        // dimension (always 0) dropped.
        SmallVector<SmallVector<Value>> parent = emitLayoutIndices(
            b, loc, slice.getParentShape(shape), slice.getParent());
        SmallVector<SmallVector<Value>> indices;
        for (int64_t r : slice.getParentRegisters(shape)) {
          SmallVector<Value> coords = parent[r];
          coords.erase(coords.begin() + slice.getDim());
          indices.push_back(std::move(coords));
        }
        return indices;
      })
      .Default([](Attribute) -> SmallVector<SmallVector<Value>> {
        llvm_unreachable("every layout must define its index emission");
      });
}

SmallVector<SmallVector<Value>> tilec::emitIndices(OpBuilder &b, Location loc,
                                                   RankedTensorType type) {
  return emitLayoutIndices(b, loc, type.getShape(), type.getEncoding());
}
