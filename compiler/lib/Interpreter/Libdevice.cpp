//===- Libdevice.cpp - The functions of libdevice ---------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// tile.extern_elementwise: each libdevice function of Libdevice.def computed
// in double precision (or on 64-bit integers) by the C++ library and rounded
// to the result type, for comparison with the GPU's libdevice within the
// usual tolerances.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tilec/Dialect/Tile/IR/Libdevice.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

namespace {

/// A value computed by a libdevice function, as a double or an integer.
struct Number {
  Number(double f) : isFloat(true), f(f) {}
  Number(int64_t i) : i(i) {}
  Number(int i) : i(i) {}
  bool isFloat = false;
  double f = 0;
  int64_t i = 0;
};

constexpr double kPi = 3.14159265358979323846;

double sinpi(double a) { return std::sin(kPi * a); }
double cospi(double a) { return std::cos(kPi * a); }

/// The inverse error function: Winitzki's approximation refined by
/// Newton's method.
double erfinv(double y) {
  if (y <= -1 || y >= 1)
    return y == 1 ? INFINITY : y == -1 ? -INFINITY : NAN;
  const double a = 0.147;
  double l = std::log((1 - y) * (1 + y));
  double t = 2 / (kPi * a) + l / 2;
  double x = std::copysign(std::sqrt(std::sqrt(t * t - l / a) - t), y);
  for (int k = 0; k < 20; ++k) {
    double step = (std::erf(x) - y) / (2 / std::sqrt(kPi) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(x))
      break;
  }
  return x;
}

/// nextafter in the format of `bits` (32: float).
double nextafter(double a, double b, unsigned bits) {
  if (bits == 32)
    return std::nextafter(float(a), float(b));
  return std::nextafter(a, b);
}

/// The directed roundings of libdevice's _rd, _ru and _rz functions.
constexpr llvm::RoundingMode kDown = llvm::RoundingMode::TowardNegative;
constexpr llvm::RoundingMode kUp = llvm::RoundingMode::TowardPositive;
constexpr llvm::RoundingMode kZero = llvm::RoundingMode::TowardZero;

/// The IEEE format of `bits` (32: float).
const llvm::fltSemantics &formatOf(unsigned bits) {
  return bits == 32 ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEdouble();
}

/// `v` (exactly representable in the format of `bits`) in that format.
llvm::APFloat inFormat(double v, unsigned bits) {
  llvm::APFloat f(v);
  bool lost = false;
  f.convert(formatOf(bits), llvm::RoundingMode::NearestTiesToEven, &lost);
  return f;
}

double toDouble(llvm::APFloat f) {
  bool lost = false;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::RoundingMode::NearestTiesToEven,
            &lost);
  return f.convertToDouble();
}

enum RoundedOp { Add, Sub, Mul, Div, Fma };

/// `a op b` (or a * b + c) computed exactly and rounded once, in `mode`, to
/// the format of `bits`.
double rounded(RoundedOp op, double a, double b, double c, unsigned bits,
               llvm::RoundingMode mode) {
  llvm::APFloat x = inFormat(a, bits), y = inFormat(b, bits);
  switch (op) {
  case Add:
    x.add(y, mode);
    break;
  case Sub:
    x.subtract(y, mode);
    break;
  case Mul:
    x.multiply(y, mode);
    break;
  case Div:
    x.divide(y, mode);
    break;
  case Fma:
    x.fusedMultiplyAdd(y, inFormat(c, bits), mode);
    break;
  }
  return toDouble(x);
}

/// The square root of `a` rounded in `mode` to the format of `bits`: the
/// correctly rounded root, moved by one step when its square lies on the
/// wrong side of `a` (the residual is exact: in double for floats, by fma
/// for doubles).
double sqrtRounded(double a, unsigned bits, llvm::RoundingMode mode) {
  double r = bits == 32 ? double(std::sqrt(float(a))) : std::sqrt(a);
  if (!std::isfinite(r) || r == 0)
    return r;
  double residual = bits == 32 ? r * r - a : std::fma(r, r, -a);
  if (residual > 0 && mode != kUp)
    return nextafter(r, 0.0, bits);
  if (residual < 0 && mode == kUp)
    return nextafter(r, INFINITY, bits);
  return r;
}

constexpr llvm::RoundingMode kNearest = llvm::RoundingMode::NearestTiesToEven;

/// `a` rounded in `mode` to the format of `bits` (32: float).
double floatRounded(double a, unsigned bits, llvm::RoundingMode mode) {
  llvm::APFloat f(a);
  bool lost = false;
  f.convert(formatOf(bits), mode, &lost);
  return toDouble(f);
}

/// `a` rounded in `mode` to an integer of `width` bits (`isSigned` or not),
/// saturating at its range; NaN gives 0 (PTX cvt.rni and friends).
int64_t intRounded(double a, unsigned width, bool isSigned,
                   llvm::RoundingMode mode) {
  if (std::isnan(a))
    return 0;
  llvm::APSInt result(width, !isSigned);
  bool exact = false;
  llvm::APFloat(a).convertToInteger(result, mode, &exact);
  return isSigned ? result.getSExtValue() : int64_t(result.getZExtValue());
}

uint64_t lowBits(int64_t a, unsigned bits);

/// The integer `a` (of `width` bits, `isSigned` or not) rounded in `mode` to
/// the float format of `bits`.
double intToFloat(int64_t a, unsigned width, bool isSigned, unsigned bits,
                  llvm::RoundingMode mode) {
  // Integers arrive sign-extended from their width: unsigned ones are the
  // low `width` bits.
  llvm::APInt value(width, isSigned ? uint64_t(a) : lowBits(a, width),
                    isSigned);
  llvm::APFloat f(formatOf(bits));
  f.convertFromAPInt(value, isSigned, mode);
  return toDouble(f);
}

/// The bits of `a` as an fp32 or fp64, and back.
int64_t floatBits(double a) { return llvm::bit_cast<int32_t>(float(a)); }
double bitsFloat(int64_t a) {
  return llvm::bit_cast<float>(uint32_t(uint64_t(a)));
}
int64_t doubleBits(double a) { return llvm::bit_cast<int64_t>(a); }
double bitsDouble(int64_t a) { return llvm::bit_cast<double>(a); }
/// The double whose high and low words are `hi` and `lo` (int32s).
double hiLoDouble(int64_t hi, int64_t lo) {
  return bitsDouble(int64_t(uint64_t(hi) << 32 | (uint64_t(lo) & 0xffffffff)));
}
/// 1 / a with a's low word dropped, its own low word dropped (rcp64h).
double reciprocalHigh(double a) {
  const uint64_t high = ~uint64_t(0) << 32;
  double r = 1.0 / bitsDouble(int64_t(uint64_t(doubleBits(a)) & high));
  return bitsDouble(int64_t(uint64_t(doubleBits(r)) & high));
}

uint64_t lowBits(int64_t a, unsigned bits) {
  return bits == 64 ? uint64_t(a) : uint64_t(a) & ((uint64_t(1) << bits) - 1);
}
int64_t bitReverse(int64_t a, unsigned bits) {
  uint64_t r = llvm::reverseBits(uint64_t(a));
  return int64_t(bits == 64 ? r : r >> 32);
}
int64_t countLeadingZeros(int64_t a, unsigned bits) {
  uint64_t v = lowBits(a, bits);
  return v == 0 ? bits : llvm::countl_zero(v) - (64 - bits);
}
int64_t findFirstSet(int64_t a, unsigned bits) {
  uint64_t v = lowBits(a, bits);
  return v == 0 ? 0 : llvm::countr_zero(v) + 1;
}
int64_t populationCount(int64_t a, unsigned bits) {
  return llvm::popcount(lowBits(a, bits));
}
int64_t mulHigh(int64_t a, int64_t b, unsigned bits) {
  __int128 p = __int128(a) * __int128(b);
  return int64_t(p >> bits);
}
int64_t unsignedMulHigh(int64_t a, int64_t b, unsigned bits) {
  unsigned __int128 p = (unsigned __int128)lowBits(a, bits) * lowBits(b, bits);
  return int64_t(uint64_t(p >> bits));
}

/// The modified Bessel function of the first kind of order 0 or 1 (even
/// and odd in `a`).
double besselI(int order, double a) {
  if (std::isnan(a))
    return a;
  double v = std::cyl_bessel_i(double(order), std::fabs(a));
  return order == 1 ? std::copysign(v, a) : v;
}

/// The low 24 bits of `a`, sign-extended (mul24's operands).
int64_t lowSigned24(int64_t a) {
  return int64_t(int32_t(uint32_t(uint64_t(a)) << 8) >> 8);
}

/// Byte i of the result is byte (s >> 4 i) & 7 of the 8 bytes {b, a}
/// (a the low word).
int64_t bytePerm(int64_t a, int64_t b, int64_t s) {
  uint64_t bytes = (lowBits(b, 32) << 32) | lowBits(a, 32);
  uint64_t r = 0;
  for (unsigned i = 0; i < 4; ++i) {
    unsigned pick = unsigned(lowBits(s, 32) >> (4 * i)) & 7;
    r |= ((bytes >> (8 * pick)) & 0xff) << (8 * i);
  }
  return int64_t(r);
}

/// Evaluates the function named `name` on one element of each argument,
/// doubles for the float functions and integers for the others (every row's
/// expression compiles for both; only the matching one runs).
template <typename T>
Number evaluate(llvm::StringRef name, unsigned bits, T a, T b, T c, T d) {
#define TILEC_LIBDEVICE(NAME, KIND, SYMBOL32, SYMBOL64, EVAL)                  \
  if (name == #NAME)                                                           \
    return Number(EVAL);
#define TILEC_LIBDEVICE_CONVERT(NAME, SYMBOL, FROM, TO, EVAL)                  \
  if (name == #NAME)                                                           \
    return Number(EVAL);
#include "tilec/Dialect/Tile/IR/Libdevice.def"
  (void)b;
  (void)c;
  (void)d;
  llvm_unreachable("the verifier accepts only the functions of the table");
}

} // namespace

LogicalResult Executor::runExternElementwise(Operation *op) {
  auto ext = cast<tile::ExternElementwiseOp>(op);
  bool is64 = false;
  const tile::LibdeviceFunction *fn =
      tile::lookupLibdeviceSymbol(ext.getSymbol(), is64);
  Type resultType = getElementType(ext.getType());
  SmallVector<const Tile *> args;
  for (Value arg : ext.getArgs())
    args.push_back(&get(arg));
  Tile r;
  r.shape = getShape(ext.getType());
  size_t n = args.front()->elems.size();
  for (size_t k = 0; k < n; ++k) {
    Element x[4];
    for (size_t j = 0; j < args.size(); ++j)
      x[j] = args[j]->elems[k];
    unsigned bits = is64 ? 64 : 32;
    // The int32 argument of (T, int32) and (int32, T) functions is passed as
    // a double.
    if (fn->kind == tile::LibdeviceKind::FInt)
      x[1].f = double(x[1].i);
    if (fn->kind == tile::LibdeviceKind::IntF)
      x[0].f = double(x[0].i);
    Number v =
        fn->takesFloats()
            ? evaluate<double>(fn->name, bits, x[0].f, x[1].f, x[2].f, x[3].f)
            : evaluate<int64_t>(fn->name, bits, x[0].i, x[1].i, x[2].i, x[3].i);
    if (auto floatType = dyn_cast<FloatType>(resultType))
      r.elems.push_back(
          Element{0, roundFloat(floatType.getFloatSemantics(), v.f), -1});
    else
      r.elems.push_back(Element{wrapInt(v.isFloat ? int64_t(v.f) : v.i,
                                        resultType.getIntOrFloatBitWidth()),
                                0.0, -1});
  }
  set(ext.getResult(), std::move(r));
  return success();
}
