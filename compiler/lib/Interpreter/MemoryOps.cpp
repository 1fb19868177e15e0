//===- MemoryOps.cpp - Pointers and memory in the interpreter ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// `tile.addptr`, `tile.load`, `tile.store` and `tile.atomic_rmw`. A pointer
// is a buffer (the kernel argument it was derived from) and a byte offset,
// so every masked-in access is checked against that buffer exactly: an
// access outside it, or not aligned to its element, is an error at the op
// naming the program, the element of the tile and the buffer. Masked-off
// elements are not accessed; a masked-off load without `other` gives 0, as
// the GPU code does. Elements of a store or an atomic are applied in
// row-major order, so duplicate addresses within a tile end with the last
// one's value (atomics see each other's updates).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

namespace {

/// Where element `k` of pointer tile `ptrs` points when it accesses an
/// element of `type`, or null after reporting why it cannot.
uint8_t *address(Executor &ex, Operation *op, StringRef access,
                 const Tile &ptrs, size_t k, Type type) {
  const Element &p = ptrs.elems[k];
  const Launch &launch = ex.getLaunch();
  if (p.buffer < 0 || size_t(p.buffer) >= launch.buffers.size()) {
    ex.error(op, ("invalid " + access).str(), ptrs.shape, k)
        << ": the pointer was made from the integer " << p.i
        << ", which is not the address of an argument's buffer";
    return nullptr;
  }
  Buffer &buffer = *launch.buffers[p.buffer];
  StringRef name = launch.argNames[p.buffer];
  int64_t size = getMemoryBytes(type);
  int64_t bytes = static_cast<int64_t>(buffer.getBytes().size());
  if (p.i % size != 0) {
    ex.error(op, ("misaligned " + access).str(), ptrs.shape, k)
        << ": byte offset " << p.i << " into '" << name
        << "' is not a multiple of " << size;
    return nullptr;
  }
  if (p.i < 0 || p.i + size > bytes) {
    ex.error(op, ("out-of-bounds " + access).str(), ptrs.shape, k)
        << ": element " << p.i / size << " of '" << name << "', which holds "
        << buffer.size() << " " << abi::scalarTypeName(buffer.getType())
        << " elements";
    return nullptr;
  }
  return buffer.getBytes().data() + p.i;
}

/// The mask of element `k` (every element is masked in without a mask).
bool maskedIn(const Tile *mask, size_t k) {
  return !mask || mask->elems[k].i != 0;
}

/// `old <kind> value` in the element type `type`.
Element atomicUpdate(tile::AtomicKind kind, Type type, Element old,
                     Element value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    double r = value.f;
    if (kind == tile::AtomicKind::Add)
      r = roundFloat(floatType.getFloatSemantics(), old.f + value.f);
    else if (kind == tile::AtomicKind::Max)
      r = std::fmax(old.f, value.f);
    else if (kind == tile::AtomicKind::Min)
      r = std::fmin(old.f, value.f);
    return Element{0, r, -1};
  }
  unsigned width = type.getIntOrFloatBitWidth();
  uint64_t a = static_cast<uint64_t>(old.i), b = static_cast<uint64_t>(value.i);
  uint64_t r = b;
  switch (kind) {
  case tile::AtomicKind::Add:
    r = a + b;
    break;
  case tile::AtomicKind::Max:
    r = old.i > value.i ? a : b;
    break;
  case tile::AtomicKind::Min:
    r = old.i < value.i ? a : b;
    break;
  case tile::AtomicKind::UMax:
  case tile::AtomicKind::UMin: {
    uint64_t bitsMask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    bool aFirst = (a & bitsMask) > (b & bitsMask);
    r = (kind == tile::AtomicKind::UMax) == aFirst ? a : b;
    break;
  }
  case tile::AtomicKind::Xchg:
    break;
  case tile::AtomicKind::And:
    r = a & b;
    break;
  case tile::AtomicKind::Or:
    r = a | b;
    break;
  case tile::AtomicKind::Xor:
    r = a ^ b;
    break;
  }
  return Element{wrapInt(r, width), 0.0, -1};
}

} // namespace

LogicalResult Executor::runMemoryOp(Operation *op) {
  auto optional = [&](Value v) { return v ? &get(v) : nullptr; };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](tile::AddPtrOp addPtr) {
        auto ptrType = cast<tile::PtrType>(getElementType(addPtr.getType()));
        int64_t size = getMemoryBytes(ptrType.getPointeeType());
        Tile r = get(addPtr.getPtr());
        const Tile &offsets = get(addPtr.getOffset());
        for (auto [p, offset] : llvm::zip_equal(r.elems, offsets.elems))
          p.i += offset.i * size;
        set(addPtr.getResult(), std::move(r));
        return success();
      })
      .Case([&](tile::PtrToIntOp cast) {
        // The interpreter's addresses: the buffer's index + 1 above bit 40,
        // the byte offset below.
        Tile r = get(cast.getSrc());
        for (Element &p : r.elems)
          p = Element{(int64_t(p.buffer + 1) << kAddressBufferShift) + p.i, 0.0,
                      -1};
        set(cast.getResult(), std::move(r));
        return success();
      })
      .Case([&](tile::IntToPtrOp cast) {
        Tile r = get(cast.getSrc());
        for (Element &p : r.elems) {
          int64_t buffer = (p.i >> kAddressBufferShift) - 1;
          int64_t offset = p.i & ((int64_t(1) << kAddressBufferShift) - 1);
          p = buffer >= 0 ? Element{offset, 0.0, int32_t(buffer)}
                          : Element{p.i, 0.0, -1};
        }
        set(cast.getResult(), std::move(r));
        return success();
      })
      .Case([&](tile::PtrCastOp cast) {
        set(cast.getResult(), Tile(get(cast.getSrc())));
        return success();
      })
      .Case([&](tile::LoadOp load) {
        Type type = getElementType(load.getType());
        const Tile &ptrs = get(load.getPtr());
        const Tile *mask = optional(load.getMask());
        const Tile *other = optional(load.getOther());
        Tile r;
        r.shape = ptrs.shape;
        r.elems.resize(ptrs.elems.size());
        for (size_t k = 0; k < ptrs.elems.size(); ++k) {
          if (!maskedIn(mask, k)) {
            if (other)
              r.elems[k] = other->elems[k];
            continue;
          }
          uint8_t *at = address(*this, op, "load", ptrs, k, type);
          if (!at)
            return failure();
          r.elems[k] = interp::load(type, at);
        }
        set(load.getResult(), std::move(r));
        return success();
      })
      .Case([&](tile::StoreOp store) {
        Type type = getElementType(store.getValue().getType());
        const Tile &ptrs = get(store.getPtr());
        const Tile &values = get(store.getValue());
        const Tile *mask = optional(store.getMask());
        for (size_t k = 0; k < ptrs.elems.size(); ++k) {
          if (!maskedIn(mask, k))
            continue;
          uint8_t *at = address(*this, op, "store", ptrs, k, type);
          if (!at)
            return failure();
          interp::store(type, values.elems[k], at);
        }
        return success();
      })
      .Case([&](tile::AtomicRMWOp atomic) {
        Type type = getElementType(atomic.getType());
        const Tile &ptrs = get(atomic.getPtr());
        const Tile &values = get(atomic.getValue());
        const Tile *mask = optional(atomic.getMask());
        Tile r;
        r.shape = ptrs.shape;
        r.elems.resize(ptrs.elems.size());
        for (size_t k = 0; k < ptrs.elems.size(); ++k) {
          if (!maskedIn(mask, k))
            continue;
          uint8_t *at = address(*this, op, "atomic", ptrs, k, type);
          if (!at)
            return failure();
          r.elems[k] = interp::load(type, at);
          interp::store(
              type,
              atomicUpdate(atomic.getKind(), type, r.elems[k], values.elems[k]),
              at);
        }
        set(atomic.getResult(), std::move(r));
        return success();
      })
      .Case([&](tile::AtomicCASOp cas) {
        Type type = getElementType(cas.getType());
        const Tile &ptrs = get(cas.getPtr());
        const Tile &cmps = get(cas.getCmp());
        const Tile &values = get(cas.getValue());
        Tile r;
        r.shape = ptrs.shape;
        r.elems.resize(ptrs.elems.size());
        for (size_t k = 0; k < ptrs.elems.size(); ++k) {
          uint8_t *at = address(*this, op, "atomic", ptrs, k, type);
          if (!at)
            return failure();
          r.elems[k] = interp::load(type, at);
          // Compare the stored bits, as the GPU does (a NaN equals itself).
          uint8_t expected[8], current[8];
          interp::store(type, cmps.elems[k], expected);
          interp::store(type, r.elems[k], current);
          if (!memcmp(expected, current, getMemoryBytes(type)))
            interp::store(type, values.elems[k], at);
        }
        set(cas.getResult(), std::move(r));
        return success();
      });
}
