//===- Scalars.cpp - Element types of the interpreter -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// How the interpreter holds, rounds and stores the elements of each type:
// integers as sign-extended 64-bit values wrapped to their width, floats as
// doubles rounded to their format (APFloat for the narrow ones), pointers as
// a buffer and a byte offset.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/APInt.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

int64_t interp::wrapInt(uint64_t v, unsigned width) {
  if (width == 1)
    return v & 1;
  if (width >= 64)
    return static_cast<int64_t>(v);
  uint64_t sign = uint64_t(1) << (width - 1);
  v &= (sign << 1) - 1;
  return static_cast<int64_t>((v ^ sign) - sign);
}

int64_t interp::asSigned(int64_t v, unsigned width) {
  return width == 1 ? -v : v;
}

uint64_t interp::asUnsigned(int64_t v, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << width) - 1);
}

double interp::roundFloat(const llvm::fltSemantics &sem, double v,
                          llvm::RoundingMode mode, bool saturate) {
  if (&sem == &llvm::APFloat::IEEEdouble())
    return v;
  if (&sem == &llvm::APFloat::IEEEsingle() &&
      mode == llvm::RoundingMode::NearestTiesToEven)
    return static_cast<float>(v);
  llvm::APFloat x(v);
  bool lost;
  x.convert(sem, mode, &lost);
  bool hasInfinity = llvm::APFloat::semanticsHasInf(sem);
  if (!std::isnan(v) && (x.isInfinity() || x.isNaN()) &&
      (saturate || !hasInfinity))
    x = llvm::APFloat::getLargest(sem, std::signbit(v));
  return x.convertToDouble();
}

double interp::roundTF32(double v) {
  float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7f800000u) != 0x7f800000u) {
    // Keep 10 of the 23 mantissa bits; adding half of the last kept bit to
    // the magnitude rounds ties away from zero.
    bits += 0x1000u;
    bits &= 0xffffe000u;
  }
  std::memcpy(&f, &bits, 4);
  return f;
}

unsigned interp::getMemoryBytes(Type type) {
  return std::max(1u, (type.getIntOrFloatBitWidth() + 7) / 8);
}

/// The bits of `bytes` little-endian bytes.
static uint64_t readBits(const uint8_t *bytes, unsigned n) {
  uint64_t bits = 0;
  for (unsigned b = 0; b < n; ++b)
    bits |= uint64_t(bytes[b]) << (8 * b);
  return bits;
}

static void writeBits(uint64_t bits, uint8_t *bytes, unsigned n) {
  for (unsigned b = 0; b < n; ++b)
    bytes[b] = static_cast<uint8_t>(bits >> (8 * b));
}

int64_t interp::loadInt(unsigned width, const uint8_t *bytes) {
  uint64_t bits = readBits(bytes, std::max(1u, (width + 7) / 8));
  return width == 1 ? bits != 0 : wrapInt(bits, width);
}

void interp::storeInt(unsigned width, int64_t value, uint8_t *bytes) {
  writeBits(static_cast<uint64_t>(value), bytes, std::max(1u, (width + 7) / 8));
}

double interp::loadFloat(const llvm::fltSemantics &sem, const uint8_t *bytes) {
  if (&sem == &llvm::APFloat::IEEEsingle()) {
    float f;
    std::memcpy(&f, bytes, 4);
    return f;
  }
  if (&sem == &llvm::APFloat::IEEEdouble()) {
    double d;
    std::memcpy(&d, bytes, 8);
    return d;
  }
  unsigned width = llvm::APFloat::semanticsSizeInBits(sem);
  llvm::APFloat x(sem, llvm::APInt(width, readBits(bytes, width / 8)));
  return x.convertToDouble();
}

void interp::storeFloat(const llvm::fltSemantics &sem, double value,
                        uint8_t *bytes) {
  if (&sem == &llvm::APFloat::IEEEsingle()) {
    float f = static_cast<float>(value);
    std::memcpy(bytes, &f, 4);
    return;
  }
  if (&sem == &llvm::APFloat::IEEEdouble()) {
    std::memcpy(bytes, &value, 8);
    return;
  }
  llvm::APFloat x(value);
  bool lost;
  x.convert(sem, llvm::RoundingMode::NearestTiesToEven, &lost);
  writeBits(x.bitcastToAPInt().getZExtValue(), bytes,
            llvm::APFloat::semanticsSizeInBits(sem) / 8);
}

Element interp::load(Type type, const uint8_t *bytes) {
  Element e;
  if (auto floatType = dyn_cast<FloatType>(type))
    e.f = loadFloat(floatType.getFloatSemantics(), bytes);
  else
    e.i = loadInt(type.getIntOrFloatBitWidth(), bytes);
  return e;
}

void interp::store(Type type, const Element &value, uint8_t *bytes) {
  if (auto floatType = dyn_cast<FloatType>(type))
    storeFloat(floatType.getFloatSemantics(), value.f, bytes);
  else
    storeInt(type.getIntOrFloatBitWidth(), value.i, bytes);
}

double interp::toDouble(Type type, const Element &value) {
  return isa<IntegerType>(type) ? static_cast<double>(value.i) : value.f;
}
