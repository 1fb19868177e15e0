//===- ArithOps.cpp - arith and math ops in the interpreter -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Elementwise `arith` and `math` ops on scalars and tiles. Integers wrap to
// their width; float results are computed in double and rounded once to
// their type (correctly rounded for + - * / and sqrt, which is what the GPU
// computes for tl.div_rn and tl.sqrt_rn; the GPU's `/` and tl.sqrt, marked
// afn, and its approximate exp2, log2, sin... differ from these by a few
// ulp). Integer division by zero is an error; float-to-integer
// conversions saturate and take NaN to 0, as PTX's cvt.rzi does.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace tilec;
using namespace tilec::interp;

namespace {

Element intElement(int64_t v) { return Element{v, 0.0, -1}; }
Element floatElement(double v) { return Element{0, v, -1}; }

template <typename Fn> Tile map1(const Tile &a, Fn fn) {
  Tile r;
  r.shape = a.shape;
  r.elems.reserve(a.elems.size());
  for (const Element &e : a.elems)
    r.elems.push_back(fn(e));
  return r;
}

template <typename Fn> Tile map2(const Tile &a, const Tile &b, Fn fn) {
  Tile r;
  r.shape = a.shape;
  r.elems.reserve(a.elems.size());
  for (auto [x, y] : llvm::zip_equal(a.elems, b.elems))
    r.elems.push_back(fn(x, y));
  return r;
}

bool compareInts(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                 unsigned width) {
  int64_t sa = asSigned(a, width), sb = asSigned(b, width);
  uint64_t ua = asUnsigned(a, width), ub = asUnsigned(b, width);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return a == b;
  case arith::CmpIPredicate::ne:
    return a != b;
  case arith::CmpIPredicate::slt:
    return sa < sb;
  case arith::CmpIPredicate::sle:
    return sa <= sb;
  case arith::CmpIPredicate::sgt:
    return sa > sb;
  case arith::CmpIPredicate::sge:
    return sa >= sb;
  case arith::CmpIPredicate::ult:
    return ua < ub;
  case arith::CmpIPredicate::ule:
    return ua <= ub;
  case arith::CmpIPredicate::ugt:
    return ua > ub;
  case arith::CmpIPredicate::uge:
    return ua >= ub;
  }
  llvm_unreachable("unknown cmpi predicate");
}

bool compareFloats(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (predicate) {
  case arith::CmpFPredicate::AlwaysFalse:
    return false;
  case arith::CmpFPredicate::OEQ:
    return !unordered && a == b;
  case arith::CmpFPredicate::OGT:
    return !unordered && a > b;
  case arith::CmpFPredicate::OGE:
    return !unordered && a >= b;
  case arith::CmpFPredicate::OLT:
    return !unordered && a < b;
  case arith::CmpFPredicate::OLE:
    return !unordered && a <= b;
  case arith::CmpFPredicate::ONE:
    return !unordered && a != b;
  case arith::CmpFPredicate::ORD:
    return !unordered;
  case arith::CmpFPredicate::UEQ:
    return unordered || a == b;
  case arith::CmpFPredicate::UGT:
    return unordered || a > b;
  case arith::CmpFPredicate::UGE:
    return unordered || a >= b;
  case arith::CmpFPredicate::ULT:
    return unordered || a < b;
  case arith::CmpFPredicate::ULE:
    return unordered || a <= b;
  case arith::CmpFPredicate::UNE:
    return unordered || a != b;
  case arith::CmpFPredicate::UNO:
    return unordered;
  case arith::CmpFPredicate::AlwaysTrue:
    return true;
  }
  llvm_unreachable("unknown cmpf predicate");
}

/// IEEE maximum/minimum: NaN if either is NaN, -0 < +0.
double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// `v` truncated toward zero and clamped to the range of a `width`-bit
/// integer, NaN giving 0 (cvt.rzi).
int64_t floatToInt(double v, unsigned width, bool isSigned) {
  if (std::isnan(v))
    return 0;
  double t = std::trunc(v);
  if (isSigned) {
    double lo = -std::ldexp(1.0, width - 1), hi = std::ldexp(1.0, width - 1);
    if (t <= lo)
      return wrapInt(static_cast<uint64_t>(
                         std::numeric_limits<int64_t>::min() >> (64 - width)),
                     width);
    if (t >= hi)
      return wrapInt(~uint64_t(0) >> (65 - width), width);
    return wrapInt(static_cast<uint64_t>(static_cast<int64_t>(t)), width);
  }
  if (t <= 0)
    return 0;
  if (t >= std::ldexp(1.0, width))
    return wrapInt(~uint64_t(0), width);
  return wrapInt(static_cast<uint64_t>(t), width);
}

llvm::RoundingMode toLLVM(arith::RoundingMode mode) {
  switch (mode) {
  case arith::RoundingMode::to_nearest_even:
    return llvm::RoundingMode::NearestTiesToEven;
  case arith::RoundingMode::downward:
    return llvm::RoundingMode::TowardNegative;
  case arith::RoundingMode::upward:
    return llvm::RoundingMode::TowardPositive;
  case arith::RoundingMode::toward_zero:
    return llvm::RoundingMode::TowardZero;
  case arith::RoundingMode::to_nearest_away:
    return llvm::RoundingMode::NearestTiesToAway;
  }
  llvm_unreachable("unknown rounding mode");
}

/// The elements of an arith.constant.
Tile constantTile(arith::ConstantOp op) {
  Tile tile;
  Type type = op.getType();
  tile.shape = getShape(type);
  Type elem = getElementType(type);
  auto pushInt = [&](const APInt &v) {
    tile.elems.push_back(
        intElement(wrapInt(v.getZExtValue(), elem.getIntOrFloatBitWidth())));
  };
  auto pushFloat = [&](const APFloat &v) {
    tile.elems.push_back(floatElement(v.convertToDouble()));
  };
  Attribute value = op.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (isa<IntegerType>(elem))
      llvm::for_each(dense.getValues<APInt>(), pushInt);
    else
      llvm::for_each(dense.getValues<APFloat>(), pushFloat);
  } else if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    pushInt(intAttr.getValue());
  } else {
    pushFloat(cast<FloatAttr>(value).getValue());
  }
  return tile;
}

} // namespace

LogicalResult Executor::runArith(Operation *op) {
  auto operand = [&](unsigned i) -> const Tile & {
    return get(op->getOperand(i));
  };
  Type resultType = getElementType(op->getResult(0).getType());
  Type inType = op->getNumOperands()
                    ? getElementType(op->getOperand(0).getType())
                    : resultType;
  unsigned width =
      resultType.isIntOrFloat() ? resultType.getIntOrFloatBitWidth() : 0;
  unsigned inWidth = inType.isIntOrFloat() ? inType.getIntOrFloatBitWidth() : 0;
  auto result = [&](Tile tile) {
    set(op->getResult(0), std::move(tile));
    return success();
  };
  // Integer ops compute on 64 bits (unsigned, so that overflow wraps) and
  // wrap to the result's width.
  auto ints = [&](auto fn) {
    return result(map2(operand(0), operand(1), [&](Element a, Element b) {
      return intElement(wrapInt(
          fn(static_cast<uint64_t>(a.i), static_cast<uint64_t>(b.i)), width));
    }));
  };
  auto roundToResult = [&](double v) {
    return roundFloat(cast<FloatType>(resultType).getFloatSemantics(), v);
  };
  auto floats = [&](auto fn) {
    return result(map2(operand(0), operand(1), [&](Element a, Element b) {
      return floatElement(roundToResult(fn(a.f, b.f)));
    }));
  };
  // Division and remainder, which fail on a zero divisor.
  auto divide = [&](bool isSigned, bool remainder) -> LogicalResult {
    const Tile &a = operand(0), &b = operand(1);
    Tile r;
    r.shape = a.shape;
    for (size_t k = 0; k < a.elems.size(); ++k) {
      int64_t x = a.elems[k].i, y = b.elems[k].i;
      if (y == 0)
        return error(op, "integer division by zero", r.shape, k);
      uint64_t v;
      if (isSigned && y == -1)
        v = remainder ? 0 : 0 - static_cast<uint64_t>(x);
      else if (isSigned)
        v = static_cast<uint64_t>(remainder ? x % y : x / y);
      else
        v = remainder ? asUnsigned(x, width) % asUnsigned(y, width)
                      : asUnsigned(x, width) / asUnsigned(y, width);
      r.elems.push_back(intElement(wrapInt(v, width)));
    }
    return result(std::move(r));
  };
  auto shiftAmount = [&](uint64_t b) -> std::optional<unsigned> {
    if (asUnsigned(static_cast<int64_t>(b), width) >= width)
      return std::nullopt;
    return static_cast<unsigned>(b);
  };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp c) { return result(constantTile(c)); })
      .Case([&](arith::AddIOp) {
        return ints([](uint64_t a, uint64_t b) { return a + b; });
      })
      .Case([&](arith::SubIOp) {
        return ints([](uint64_t a, uint64_t b) { return a - b; });
      })
      .Case([&](arith::MulIOp) {
        return ints([](uint64_t a, uint64_t b) { return a * b; });
      })
      .Case([&](arith::AndIOp) {
        return ints([](uint64_t a, uint64_t b) { return a & b; });
      })
      .Case([&](arith::OrIOp) {
        return ints([](uint64_t a, uint64_t b) { return a | b; });
      })
      .Case([&](arith::XOrIOp) {
        return ints([](uint64_t a, uint64_t b) { return a ^ b; });
      })
      // Shifts by the width or more give 0 (or the sign), as PTX clamps.
      .Case([&](arith::ShLIOp) {
        return ints([&](uint64_t a, uint64_t b) -> uint64_t {
          auto s = shiftAmount(b);
          return s ? a << *s : 0;
        });
      })
      .Case([&](arith::ShRUIOp) {
        return ints([&](uint64_t a, uint64_t b) -> uint64_t {
          auto s = shiftAmount(b);
          return s ? asUnsigned(static_cast<int64_t>(a), width) >> *s : 0;
        });
      })
      .Case([&](arith::ShRSIOp) {
        return ints([&](uint64_t a, uint64_t b) -> uint64_t {
          int64_t x = asSigned(static_cast<int64_t>(a), width);
          auto s = shiftAmount(b);
          return static_cast<uint64_t>(s ? x >> *s : (x < 0 ? -1 : 0));
        });
      })
      .Case([&](arith::MaxSIOp) {
        return ints([&](uint64_t a, uint64_t b) {
          int64_t x = asSigned(a, width), y = asSigned(b, width);
          return x > y ? a : b;
        });
      })
      .Case([&](arith::MinSIOp) {
        return ints([&](uint64_t a, uint64_t b) {
          int64_t x = asSigned(a, width), y = asSigned(b, width);
          return x < y ? a : b;
        });
      })
      .Case([&](arith::MaxUIOp) {
        return ints([&](uint64_t a, uint64_t b) {
          return asUnsigned(a, width) > asUnsigned(b, width) ? a : b;
        });
      })
      .Case([&](arith::MinUIOp) {
        return ints([&](uint64_t a, uint64_t b) {
          return asUnsigned(a, width) < asUnsigned(b, width) ? a : b;
        });
      })
      .Case([&](arith::DivSIOp) { return divide(true, false); })
      .Case([&](arith::RemSIOp) { return divide(true, true); })
      .Case([&](arith::DivUIOp) { return divide(false, false); })
      .Case([&](arith::RemUIOp) { return divide(false, true); })
      .Case([&](arith::CmpIOp cmp) {
        return result(map2(operand(0), operand(1), [&](Element a, Element b) {
          return intElement(compareInts(cmp.getPredicate(), a.i, b.i, inWidth));
        }));
      })
      .Case([&](arith::AddFOp) {
        return floats([](double a, double b) { return a + b; });
      })
      .Case([&](arith::SubFOp) {
        return floats([](double a, double b) { return a - b; });
      })
      .Case([&](arith::MulFOp) {
        return floats([](double a, double b) { return a * b; });
      })
      .Case([&](arith::DivFOp) {
        return floats([](double a, double b) { return a / b; });
      })
      .Case([&](arith::RemFOp) {
        return floats([](double a, double b) { return std::fmod(a, b); });
      })
      .Case([&](arith::MaxNumFOp) {
        return floats([](double a, double b) { return std::fmax(a, b); });
      })
      .Case([&](arith::MinNumFOp) {
        return floats([](double a, double b) { return std::fmin(a, b); });
      })
      .Case([&](arith::MaximumFOp) { return floats(maximum); })
      .Case([&](arith::MinimumFOp) { return floats(minimum); })
      .Case([&](arith::NegFOp) {
        return result(
            map1(operand(0), [](Element a) { return floatElement(-a.f); }));
      })
      .Case([&](arith::CmpFOp cmp) {
        return result(map2(operand(0), operand(1), [&](Element a, Element b) {
          return intElement(compareFloats(cmp.getPredicate(), a.f, b.f));
        }));
      })
      .Case([&](arith::SelectOp) {
        const Tile &c = operand(0), &t = operand(1), &f = operand(2);
        Tile r;
        r.shape = t.shape;
        for (size_t k = 0; k < t.elems.size(); ++k) {
          const Element &cond = c.elems[c.elems.size() == 1 ? 0 : k];
          r.elems.push_back(cond.i ? t.elems[k] : f.elems[k]);
        }
        return result(std::move(r));
      })
      .Case([&](arith::ExtSIOp) {
        return result(map1(operand(0), [&](Element a) {
          return intElement(wrapInt(asSigned(a.i, inWidth), width));
        }));
      })
      .Case([&](arith::ExtUIOp) {
        return result(map1(operand(0), [&](Element a) {
          return intElement(wrapInt(asUnsigned(a.i, inWidth), width));
        }));
      })
      .Case([&](arith::TruncIOp) {
        return result(map1(operand(0), [&](Element a) {
          return intElement(wrapInt(a.i, width));
        }));
      })
      .Case([&](arith::SIToFPOp) {
        return result(map1(operand(0), [&](Element a) {
          return floatElement(
              roundToResult(static_cast<double>(asSigned(a.i, inWidth))));
        }));
      })
      .Case([&](arith::UIToFPOp) {
        return result(map1(operand(0), [&](Element a) {
          return floatElement(
              roundToResult(static_cast<double>(asUnsigned(a.i, inWidth))));
        }));
      })
      .Case([&](arith::FPToSIOp) {
        return result(map1(operand(0), [&](Element a) {
          return intElement(floatToInt(a.f, width, /*isSigned=*/true));
        }));
      })
      .Case([&](arith::FPToUIOp) {
        return result(map1(operand(0), [&](Element a) {
          return intElement(floatToInt(a.f, width, /*isSigned=*/false));
        }));
      })
      .Case([&](arith::ExtFOp) { return result(operand(0)); })
      .Case([&](arith::TruncFOp trunc) {
        llvm::RoundingMode mode = llvm::RoundingMode::NearestTiesToEven;
        if (auto attr = trunc.getRoundingmode())
          mode = toLLVM(*attr);
        // The GPU converts to fp8 with .satfinite.
        bool saturate = isa<Float8E4M3FNType, Float8E5M2Type>(resultType);
        const auto &sem = cast<FloatType>(resultType).getFloatSemantics();
        return result(map1(operand(0), [&](Element a) {
          return floatElement(roundFloat(sem, a.f, mode, saturate));
        }));
      })
      .Case([&](arith::BitcastOp) {
        return result(map1(operand(0), [&](Element a) {
          uint8_t bytes[8];
          interp::store(inType, a, bytes);
          return interp::load(resultType, bytes);
        }));
      })
      .Default([&](Operation *) {
        return op->emitError()
               << "the interpreter does not support '" << op->getName() << "'";
      });
}

LogicalResult Executor::runMath(Operation *op) {
  Type resultType = getElementType(op->getResult(0).getType());
  auto result = [&](Tile tile) {
    set(op->getResult(0), std::move(tile));
    return success();
  };
  auto unary = [&](double (*fn)(double)) {
    const auto &sem = cast<FloatType>(resultType).getFloatSemantics();
    return result(map1(get(op->getOperand(0)), [&](Element a) {
      return floatElement(roundFloat(sem, fn(a.f)));
    }));
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](math::ExpOp) { return unary(std::exp); })
      .Case([&](math::Exp2Op) { return unary(std::exp2); })
      .Case([&](math::LogOp) { return unary(std::log); })
      .Case([&](math::Log2Op) { return unary(std::log2); })
      .Case([&](math::SqrtOp) { return unary(std::sqrt); })
      .Case([&](math::RsqrtOp) {
        return unary([](double x) { return 1.0 / std::sqrt(x); });
      })
      .Case([&](math::SinOp) { return unary(std::sin); })
      .Case([&](math::CosOp) { return unary(std::cos); })
      .Case([&](math::TanhOp) { return unary(std::tanh); })
      .Case([&](math::ErfOp) { return unary(std::erf); })
      .Case([&](math::FloorOp) { return unary(std::floor); })
      .Case([&](math::CeilOp) { return unary(std::ceil); })
      .Case([&](math::AbsFOp) { return unary(std::fabs); })
      .Case([&](math::AbsIOp) {
        unsigned width = resultType.getIntOrFloatBitWidth();
        return result(map1(get(op->getOperand(0)), [&](Element a) {
          int64_t x = asSigned(a.i, width);
          return intElement(
              wrapInt(x < 0 ? 0 - static_cast<uint64_t>(x) : x, width));
        }));
      })
      .Case([&](math::PowFOp) {
        const auto &sem = cast<FloatType>(resultType).getFloatSemantics();
        return result(map2(get(op->getOperand(0)), get(op->getOperand(1)),
                           [&](Element a, Element b) {
                             return floatElement(
                                 roundFloat(sem, std::pow(a.f, b.f)));
                           }));
      })
      .Case([&](math::FmaOp) {
        const auto &sem = cast<FloatType>(resultType).getFloatSemantics();
        const Tile &a = get(op->getOperand(0)), &b = get(op->getOperand(1)),
                   &c = get(op->getOperand(2));
        Tile r;
        r.shape = a.shape;
        for (size_t k = 0; k < a.elems.size(); ++k)
          r.elems.push_back(floatElement(roundFloat(
              sem, std::fma(a.elems[k].f, b.elems[k].f, c.elems[k].f))));
        return result(std::move(r));
      })
      .Default([&](Operation *) {
        return op->emitError()
               << "the interpreter does not support '" << op->getName() << "'";
      });
}
