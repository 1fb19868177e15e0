//===- Builtins.cpp - triton.language functions -----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The dispatch of `tl.*` calls to their families (Shapes.cpp, Math.cpp,
// Reductions.cpp, BlockPointers.cpp) and the functions that belong to none of
// them: program ids, tl.arange, loads, stores and atomics through pointers,
// tl.clamp, compile-time helpers and hints (tl.where, tl.minimum/maximum and
// casts are in Operators.cpp).
// Also tile methods (`x.to(...)`, `x.sum(...)`) and the Python builtins a
// kernel may call. Arguments are matched against Triton's parameter names so
// that wrong counts and unknown keywords get precise diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/DTypes.h"
#include "tilec/Dialect/Tile/IR/DialectAttrs.h"

#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Binder
//===----------------------------------------------------------------------===//

LogicalResult Binder::bind(ArrayRef<llvm::StringRef> names, unsigned required,
                           ArrayRef<llvm::StringRef> ignored) {
  params.assign(names.begin(), names.end());
  values.assign(params.size(), std::nullopt);
  locs.assign(params.size(), callLoc);
  ranges.assign(params.size(), llvm::SMRange());
  if (args.positional.size() > params.size())
    return gen.error(callLoc)
           << "'" << function << "' takes at most " << params.size()
           << " arguments (" << args.positional.size() << " given)";
  for (size_t i = 0; i < args.positional.size(); ++i) {
    values[i] = args.positional[i];
    locs[i] = args.positionalRanges[i].Start;
    ranges[i] = args.positionalRanges[i];
  }
  for (auto [i, kw] : llvm::enumerate(args.keywords)) {
    auto it = llvm::find(params, kw.first);
    if (it == params.end()) {
      if (llvm::is_contained(ignored, kw.first))
        continue;
      return gen.error(args.keywordRanges[i].Start)
             << "'" << function << "' got an unexpected keyword "
             << "argument '" << kw.first << "'";
    }
    size_t index = it - params.begin();
    if (values[index])
      return gen.error(args.keywordRanges[i].Start)
             << "'" << function << "' got multiple values for argument '"
             << kw.first << "'";
    values[index] = kw.second;
    locs[index] = args.keywordRanges[i].Start;
    ranges[index] = args.keywordValueRanges[i];
  }
  for (unsigned i = 0; i < required; ++i)
    if (!values[i])
      return gen.error(callLoc)
             << "'" << function << "' is missing its argument '" << params[i]
             << "'";
  return success();
}

FailureOr<int64_t> Binder::constInt(unsigned i) {
  const TValue &v = *values[i];
  if (v.kind == TValue::Kind::Int || v.kind == TValue::Kind::Bool)
    return v.i;
  return gen.error(locs[i])
         << "'" << params[i] << "' of '" << function
         << "' must be a constexpr integer, not " << v.describe();
}

FailureOr<bool> Binder::constBool(unsigned i) {
  const TValue &v = *values[i];
  if (v.kind == TValue::Kind::Int || v.kind == TValue::Kind::Bool)
    return v.i != 0;
  if (v.isNone())
    return false;
  return gen.error(locs[i])
         << "'" << params[i] << "' of '" << function
         << "' must be a constexpr bool, not " << v.describe();
}

FailureOr<std::string> Binder::constString(unsigned i) {
  const TValue &v = *values[i];
  if (v.kind == TValue::Kind::String)
    return v.s;
  if (v.isNone())
    return std::string();
  return gen.error(locs[i])
         << "'" << params[i] << "' of '" << function
         << "' must be a constexpr string, not " << v.describe();
}

FailureOr<Type> Binder::dtype(unsigned i) {
  const TValue &v = *values[i];
  if (v.kind == TValue::Kind::DType)
    return v.type;
  return gen.error(locs[i]) << "'" << params[i] << "' of '" << function
                            << "' must be a dtype, not " << v.describe();
}

FailureOr<Value> Binder::value(unsigned i) {
  const TValue &v = *values[i];
  if (!v.isValue() && !v.isConstNumber())
    return gen.error(locs[i])
           << "'" << params[i] << "' of '" << function
           << "' must be a scalar or a tile, not " << v.describe();
  return gen.toValue(v, locs[i]);
}

FailureOr<Value> Binder::tile(unsigned i) {
  const TValue &v = *values[i];
  if (!v.tileType())
    return gen.error(locs[i]) << "'" << params[i] << "' of '" << function
                              << "' must be a tile, not " << v.describe();
  return v.value;
}

FailureOr<int64_t> Binder::axis(unsigned i, int64_t rank) {
  FailureOr<int64_t> a = constInt(i);
  if (failed(a))
    return failure();
  if (*a < -rank || *a >= rank)
    return gen.error(locs[i]) << "invalid axis " << *a << " for '" << function
                              << "' on a tile of rank " << rank << ": expected "
                              << -rank << " <= axis < " << rank;
  return *a < 0 ? *a + rank : *a;
}

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

Type Generator::parseDType(llvm::StringRef name) const {
  std::optional<abi::ScalarType> type = abi::lookupScalarType(name);
  return type ? tile::getElementType(builder.getContext(), *type) : Type();
}

TValue Generator::dtypeNamed(llvm::StringRef name) const {
  std::optional<abi::ScalarType> type = abi::lookupScalarType(name);
  if (!type)
    return TValue();
  return TValue::ofDType(tile::getElementType(builder.getContext(), *type),
                         abi::isUnsignedType(*type));
}

/// Answers `dtype.is_<what>()` for `t` (`isUnsigned`: an unsigned integer
/// type). As in Triton, int1 counts as unsigned.
static std::optional<bool> dtypePredicate(Type t, bool isUnsigned,
                                          llvm::StringRef what) {
  bool isInt = t.isInteger(), isFloat = isa<FloatType>(t);
  unsigned bits = (isInt || isFloat) ? t.getIntOrFloatBitWidth() : 0;
  bool isSigned = isInt && bits > 1 && !isUnsigned;
  return llvm::StringSwitch<std::optional<bool>>(what)
      .Case("is_floating", isFloat)
      .Case("is_int", isInt)
      .Case("is_int_signed", isSigned)
      .Case("is_int_unsigned", isInt && !isSigned)
      .Case("is_bool", t.isInteger(1))
      .Cases({"is_int1", "is_int8", "is_int16", "is_int32", "is_int64"},
             isInt && (bits == 1 || isSigned) &&
                 what.drop_front(6) == std::to_string(bits))
      .Cases({"is_uint8", "is_uint16", "is_uint32", "is_uint64"},
             isInt && bits > 1 && !isSigned &&
                 what.drop_front(7) == std::to_string(bits))
      .Case("is_fp8", isFloat && bits == 8)
      .Case("is_fp16", t.isF16())
      .Case("is_bf16", t.isBF16())
      .Case("is_fp32", t.isF32())
      .Case("is_fp64", t.isF64())
      .Case("is_ptr", isa<tile::PtrType>(t))
      .Case("is_block", false)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Checks a cache modifier or eviction policy string (accepted, ignored).
static LogicalResult checkHint(Generator &gen, Binder &bind, unsigned i,
                               ArrayRef<llvm::StringRef> allowed) {
  if (!bind.has(i))
    return success();
  FailureOr<std::string> s = bind.constString(i);
  if (failed(s))
    return failure();
  if (s->empty() || llvm::is_contained(allowed, *s))
    return success();
  auto diag = gen.error(bind.locs[i]) << "'" << bind.params[i] << "' of '"
                                      << bind.function << "' must be one of ";
  for (auto [k, a] : llvm::enumerate(allowed))
    diag << (k ? ", " : "") << "\"" << a << "\"";
  return diag << ", not \"" << *s << "\"";
}

FailureOr<TValue> Generator::builtinLoad(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  if (failed(checkHint(*this, bind, 5, {".ca", ".cg", ".cv"})) ||
      failed(checkHint(*this, bind, 6,
                       {"evict_first", "evict_last", "evict_normal"})))
    return failure();
  const TValue &ptr = bind.get(0);
  if (ptr.kind == TValue::Kind::BlockPtr)
    return loadBlock(ptr, bind, callLoc);
  if (ptr.kind == TValue::Kind::TensorDesc)
    return error(bind.locs[0]) << "tl.load cannot load through a tensor "
                                  "descriptor; use desc.load(offsets)";
  Type elem = pointeeOf(ptr);
  if (!elem)
    return error(bind.locs[0])
           << "tl.load expects a pointer or a tile of pointers, not "
           << ptr.describe();
  bool hasBoundary = bind.has(3) && !(bind.get(3).kind == TValue::Kind::Tuple &&
                                      bind.get(3).elements.empty());
  bool hasPadding = bind.has(4) && !(bind.get(4).kind == TValue::Kind::String &&
                                     bind.get(4).s.empty());
  if (hasBoundary || hasPadding)
    return error(bind.locs[hasBoundary ? 3 : 4])
           << "'boundary_check' and 'padding_option' need a block pointer "
              "(tl.make_block_ptr), not "
           << ptr.describe();
  if (bind.has(2) && !bind.has(1))
    return error(bind.locs[2]) << "'other' of tl.load needs a 'mask'";

  // The pointer, the mask and `other` broadcast together.
  auto ptrTensor = ptr.tileType();
  SmallVector<int64_t> shape;
  if (ptrTensor)
    shape.assign(ptrTensor.getShape().begin(), ptrTensor.getShape().end());
  for (unsigned i : {1u, 2u}) {
    if (!bind.has(i))
      continue;
    auto t = bind.get(i).tileType();
    if (!t)
      continue;
    if (!ptrTensor)
      return error(bind.locs[i])
             << "'" << bind.params[i] << "' of tl.load cannot be a tile when "
             << "the pointer is a scalar";
    FailureOr<SmallVector<int64_t>> s = broadcastShapes(
        shape, t.getShape(), bind.locs[i],
        "the pointer and the " + bind.params[i].str() + " of tl.load");
    if (failed(s))
      return failure();
    shape = *s;
  }
  Type ptrType = ptr.value.getType();
  Value ptrValue = ptr.value;
  if (ptrTensor) {
    FailureOr<Value> p = broadcastTo(ptrValue, shape, bind.locs[0]);
    if (failed(p))
      return failure();
    ptrValue = *p;
    ptrType = ptrValue.getType();
  }
  Value mask, other;
  if (bind.has(1)) {
    FailureOr<Value> m = toBool(bind.get(1), bind.locs[1]);
    if (failed(m))
      return failure();
    FailureOr<Value> b = ptrTensor ? broadcastTo(*m, shape, bind.locs[1]) : m;
    if (failed(b))
      return failure();
    mask = *b;
  }
  if (bind.has(2)) {
    FailureOr<Value> o = toValueOfType(storedConstant(bind.get(2), elem), elem,
                                       ptrType, bind.locs[2], ptr.isUnsigned);
    if (failed(o))
      return failure();
    other = *o;
  }
  Type resultType = tile::withElementType(ptrType, elem);
  return TValue::of(tile::LoadOp::create(builder, loc(callLoc), resultType,
                                         ptrValue, mask, other),
                    ptr.isUnsigned);
}

FailureOr<TValue> Generator::builtinStore(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  if (failed(checkHint(*this, bind, 4, {".wb", ".cg", ".cs", ".wt"})) ||
      failed(checkHint(*this, bind, 5,
                       {"evict_first", "evict_last", "evict_normal"})))
    return failure();
  const TValue &ptr = bind.get(0);
  if (ptr.kind == TValue::Kind::BlockPtr)
    return storeBlock(ptr, bind, callLoc);
  if (ptr.kind == TValue::Kind::TensorDesc)
    return error(bind.locs[0]) << "tl.store cannot store through a tensor "
                                  "descriptor; use desc.store(offsets, value)";
  Type elem = pointeeOf(ptr);
  if (!elem)
    return error(bind.locs[0])
           << "tl.store expects a pointer or a tile of pointers, not "
           << ptr.describe();
  if (bind.has(3) && !(bind.get(3).kind == TValue::Kind::Tuple &&
                       bind.get(3).elements.empty()))
    return error(bind.locs[3]) << "'boundary_check' needs a block pointer "
                                  "(tl.make_block_ptr), not "
                               << ptr.describe();
  Type ptrType = ptr.value.getType();
  auto ptrTensor = dyn_cast<RankedTensorType>(ptrType);
  for (unsigned i : {1u, 2u}) {
    if (!bind.has(i))
      continue;
    auto t = bind.get(i).tileType();
    if (!t)
      continue;
    if (!ptrTensor)
      return error(bind.locs[i])
             << (i == 1 ? "cannot store " + bind.get(i).describe() +
                              " through a single pointer"
                        : std::string("the mask of tl.store cannot be a tile "
                                      "when the pointer is a scalar"));
    FailureOr<SmallVector<int64_t>> s = broadcastShapes(
        ptrTensor.getShape(), t.getShape(), bind.locs[i],
        "the pointer and the " + bind.params[i].str() + " of tl.store");
    if (failed(s))
      return failure();
    if (ArrayRef<int64_t>(*s) != ptrTensor.getShape())
      return error(bind.locs[i])
             << "the " << bind.params[i] << " of tl.store has shape "
             << shapeString(t.getShape())
             << ", which does not broadcast to the pointer's shape "
             << shapeString(ptrTensor.getShape());
  }
  if (bind.get(1).isValue() &&
      isa<tile::PtrType>(getElementTypeOrSelf(bind.get(1).value.getType())))
    return error(bind.locs[1]) << "tl.store cannot store pointers";
  FailureOr<Value> value =
      toValueOfType(storedConstant(bind.get(1), elem), elem, ptrType,
                    bind.locs[1], ptr.isUnsigned);
  if (failed(value))
    return failure();
  Value mask;
  if (bind.has(2)) {
    FailureOr<Value> m = toBool(bind.get(2), bind.locs[2]);
    if (failed(m))
      return failure();
    FailureOr<Value> b =
        ptrTensor ? broadcastTo(*m, ptrTensor.getShape(), bind.locs[2]) : m;
    if (failed(b))
      return failure();
    mask = *b;
  }
  tile::StoreOp::create(builder, loc(callLoc), ptr.value, *value, mask);
  return TValue();
}

/// Reads the `sem=` and `scope=` arguments of an atomic (parameters `semAt`
/// and `semAt + 1`), with Triton's defaults: acq_rel and gpu.
static LogicalResult atomicOrdering(Generator &gen, Binder &bind,
                                    unsigned semAt, tile::MemSemantic &sem,
                                    tile::MemScope &scope) {
  if (failed(checkHint(gen, bind, semAt,
                       {"acquire", "release", "acq_rel", "relaxed"})) ||
      failed(checkHint(gen, bind, semAt + 1, {"gpu", "cta", "sys"})))
    return failure();
  sem = tile::MemSemantic::AcqRel;
  scope = tile::MemScope::GPU;
  if (bind.has(semAt))
    if (std::optional<tile::MemSemantic> s =
            tile::symbolizeMemSemantic(*bind.constString(semAt)))
      sem = *s;
  if (bind.has(semAt + 1))
    if (std::optional<tile::MemScope> s =
            tile::symbolizeMemScope(*bind.constString(semAt + 1)))
      scope = *s;
  return success();
}

/// The pointee of an atomic's pointer argument, or an error.
static FailureOr<Type> atomicElement(Generator &gen, Binder &bind,
                                     llvm::StringRef qualified) {
  const TValue &ptr = bind.get(0);
  Type elem = pointeeOf(ptr);
  if (!elem)
    return gen.error(bind.locs[0]) << qualified
                                   << " expects a pointer or a tile of "
                                      "pointers, not "
                                   << ptr.describe();
  return elem;
}

/// Checks that the tile arguments `which` of an atomic broadcast to the
/// pointer's shape.
static LogicalResult checkAtomicShapes(Generator &gen, Binder &bind,
                                       llvm::StringRef qualified,
                                       ArrayRef<unsigned> which) {
  auto ptrTensor = dyn_cast<RankedTensorType>(bind.get(0).value.getType());
  for (unsigned i : which) {
    if (!bind.has(i))
      continue;
    auto t = bind.get(i).tileType();
    if (!t)
      continue;
    bool fits = ptrTensor && t.getRank() <= ptrTensor.getRank();
    for (int64_t d = 0; fits && d < t.getRank(); ++d) {
      int64_t size = t.getDimSize(t.getRank() - 1 - d);
      fits = size == 1 ||
             size == ptrTensor.getDimSize(ptrTensor.getRank() - 1 - d);
    }
    if (!fits)
      return gen.error(bind.locs[i])
             << "'" << bind.params[i] << "' of " << qualified << " has shape "
             << shapeString(t.getShape())
             << ", which does not broadcast to the pointer's shape "
             << shapeString(ptrTensor ? ptrTensor.getShape()
                                      : ArrayRef<int64_t>());
  }
  return success();
}

FailureOr<TValue> Generator::builtinAtomic(BuiltinCall &call) {
  [[maybe_unused]] auto &[fullName, qualified, bind, l, callLoc, args,
                          varargs] = call;
  llvm::StringRef name = fullName.drop_front(strlen("atomic_"));
  tile::MemSemantic sem;
  tile::MemScope scope;
  if (failed(atomicOrdering(*this, bind, 3, sem, scope)))
    return failure();
  FailureOr<Type> elemOr = atomicElement(*this, bind, qualified);
  if (failed(elemOr))
    return failure();
  Type elem = *elemOr;
  const TValue &ptr = bind.get(0);
  bool isFloat = isa<FloatType>(elem);
  unsigned bits = elem.getIntOrFloatBitWidth();
  if ((elem.isF16() || elem.isBF16()) && name != "add")
    return error(bind.locs[0])
           << qualified << " does not support " << typeName(elem);
  if (bits < 16 || (!isFloat && bits == 16))
    return error(bind.locs[0])
           << qualified << " does not support " << typeName(elem);
  if (std::optional<tile::TargetInfo> arch = tile::TargetInfo::lookup(target);
      elem.isBF16() && arch && !arch->hasBf16AtomicAdd())
    return error(bind.locs[0])
           << qualified << " on bf16 needs the atom.add.bf16 of sm_90 and "
           << "later; " << arch->getName() << " has none (accumulate in fp32)";
  if (isFloat && (name == "and" || name == "or" || name == "xor"))
    return error(bind.locs[0])
           << qualified << " needs integer values, not " << typeName(elem);
  if (failed(checkAtomicShapes(*this, bind, qualified, {1, 2})))
    return failure();
  Type ptrType = ptr.value.getType();
  auto ptrTensor = dyn_cast<RankedTensorType>(ptrType);
  FailureOr<Value> val = toValueOfType(storedConstant(bind.get(1), elem), elem,
                                       ptrType, bind.locs[1], ptr.isUnsigned);
  if (failed(val))
    return failure();
  Value mask;
  if (bind.has(2)) {
    FailureOr<Value> m = toBool(bind.get(2), bind.locs[2]);
    if (failed(m))
      return failure();
    FailureOr<Value> b =
        ptrTensor ? broadcastTo(*m, ptrTensor.getShape(), bind.locs[2]) : m;
    if (failed(b))
      return failure();
    mask = *b;
  }
  tile::AtomicKind kind = llvm::StringSwitch<tile::AtomicKind>(name)
                              .Case("add", tile::AtomicKind::Add)
                              .Case("max", tile::AtomicKind::Max)
                              .Case("min", tile::AtomicKind::Min)
                              .Case("xchg", tile::AtomicKind::Xchg)
                              .Case("and", tile::AtomicKind::And)
                              .Case("or", tile::AtomicKind::Or)
                              .Default(tile::AtomicKind::Xor);
  if (!isFloat && ptr.isUnsigned && kind == tile::AtomicKind::Max)
    kind = tile::AtomicKind::UMax;
  if (!isFloat && ptr.isUnsigned && kind == tile::AtomicKind::Min)
    kind = tile::AtomicKind::UMin;
  Type resultType = tile::withElementType(ptrType, elem);
  MLIRContext *ctx = builder.getContext();
  return TValue::of(tile::AtomicRMWOp::create(
                        builder, loc(callLoc), resultType,
                        tile::AtomicKindAttr::get(ctx, kind), ptr.value, *val,
                        mask, tile::MemSemanticAttr::get(ctx, sem),
                        tile::MemScopeAttr::get(ctx, scope)),
                    ptr.isUnsigned);
}

FailureOr<TValue> Generator::builtinAtomicCas(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  tile::MemSemantic sem;
  tile::MemScope scope;
  if (failed(atomicOrdering(*this, bind, 3, sem, scope)))
    return failure();
  FailureOr<Type> elem = atomicElement(*this, bind, qualified);
  if (failed(elem))
    return failure();
  unsigned bits = elem->getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32 && bits != 64)
    return error(bind.locs[0])
           << qualified << " does not support " << typeName(*elem);
  if (failed(checkAtomicShapes(*this, bind, qualified, {1, 2})))
    return failure();
  Type ptrType = bind.get(0).value.getType();
  bool isUnsigned = bind.get(0).isUnsigned;
  FailureOr<Value> cmp =
      toValueOfType(storedConstant(bind.get(1), *elem), *elem, ptrType,
                    bind.locs[1], isUnsigned);
  if (failed(cmp))
    return failure();
  FailureOr<Value> val =
      toValueOfType(storedConstant(bind.get(2), *elem), *elem, ptrType,
                    bind.locs[2], isUnsigned);
  if (failed(val))
    return failure();
  MLIRContext *ctx = builder.getContext();
  return TValue::of(tile::AtomicCASOp::create(
                        builder, l, tile::withElementType(ptrType, *elem),
                        bind.get(0).value, *cmp, *val,
                        tile::MemSemanticAttr::get(ctx, sem),
                        tile::MemScopeAttr::get(ctx, scope)),
                    isUnsigned);
}

FailureOr<TValue> Generator::builtinDebugBarrier(BuiltinCall &call) {
  tile::DebugBarrierOp::create(builder, call.l);
  return TValue();
}

/// tl.extra.cuda.gdc_wait() and gdc_launch_dependents(): programmatic
/// dependent launch, on sm_90 and later.
FailureOr<TValue> Generator::builtinGridDependency(BuiltinCall &call) {
  std::optional<tile::TargetInfo> arch = tile::TargetInfo::lookup(target);
  if (arch && arch->getComputeCapability() < 90)
    return error(call.callLoc)
           << call.qualified << " needs the griddepcontrol of sm_90 and later; "
           << arch->getName() << " has none";
  if (call.name.ends_with("gdc_wait"))
    tile::GridDepWaitOp::create(builder, call.l);
  else
    tile::GridDepLaunchOp::create(builder, call.l);
  return TValue();
}

/// Reads a `propagate_nan` argument: tl.PropagateNan.ALL or .NONE.
static FailureOr<bool> propagateNanArg(Generator &gen, Binder &bind,
                                       unsigned i) {
  if (!bind.has(i))
    return false;
  const TValue &v = bind.get(i);
  if (v.kind == TValue::Kind::String && (v.s == "ALL" || v.s == "NONE"))
    return v.s == "ALL";
  return gen.error(bind.locs[i])
         << "'propagate_nan' of '" << bind.function
         << "' must be tl.PropagateNan.ALL or tl.PropagateNan.NONE, not "
         << v.describe();
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// Prints a compile-time value the way Python would (tl.static_print).
static std::string printValue(const TValue &v) {
  switch (v.kind) {
  case TValue::Kind::Int:
    return std::to_string(v.i);
  case TValue::Kind::Bool:
    return v.i ? "True" : "False";
  case TValue::Kind::Float: {
    // The shortest form that reads back exactly, as Python's repr.
    if (std::isnan(v.f))
      return "nan";
    if (std::isinf(v.f))
      return v.f < 0 ? "-inf" : "inf";
    std::string s;
    for (int precision = 1; precision <= 17; ++precision) {
      s = llvm::formatv("{0}", llvm::format("%.*g", precision, v.f)).str();
      if (std::strtod(s.c_str(), nullptr) == v.f)
        break;
    }
    if (s.find_first_of(".e") == std::string::npos)
      s += ".0";
    return s;
  }
  case TValue::Kind::String:
    return v.s;
  case TValue::Kind::DType:
    return typeName(v.type, v.isUnsigned);
  case TValue::Kind::Tuple: {
    std::string s = "(";
    for (auto [i, e] : llvm::enumerate(v.elements))
      s += (i ? ", " : "") + printValue(e);
    return s + (v.elements.size() == 1 ? ",)" : ")");
  }
  default:
    return v.describe();
  }
}

FailureOr<TValue> Generator::builtinProgramId(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<int64_t> axis = bind.constInt(0);
  if (failed(axis))
    return failure();
  if (*axis < 0 || *axis > 2)
    return error(bind.locs[0]) << "'axis' of '" << qualified
                               << "' must be 0, 1 or 2, not " << *axis;
  Type i32 = builder.getI32Type();
  if (name == "program_id")
    return TValue::of(tile::ProgramIdOp::create(builder, l, i32, *axis));
  return TValue::of(tile::NumProgramsOp::create(builder, l, i32, *axis));
}

FailureOr<TValue> Generator::builtinArange(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<int64_t> start = bind.constInt(0);
  if (failed(start))
    return failure();
  FailureOr<int64_t> end = bind.constInt(1);
  if (failed(end))
    return failure();
  if (*start < INT32_MIN || *end > INT32_MAX || *start > INT32_MAX ||
      *end < INT32_MIN)
    return error(callLoc) << "tl.arange(" << *start << ", " << *end
                          << "): the bounds must fit in int32";
  if (*end <= *start)
    return error(callLoc) << "tl.arange(" << *start << ", " << *end
                          << "): end must be greater than start";
  if (!llvm::isPowerOf2_64(*end - *start))
    return error(callLoc) << "tl.arange(" << *start << ", " << *end
                          << "): the length " << *end - *start
                          << " must be a power of two";
  if (*end - *start > kMaxTileElements)
    return error(callLoc) << "tl.arange(" << *start << ", " << *end
                          << "): range too large";
  auto type = RankedTensorType::get({*end - *start}, builder.getI32Type());
  return TValue::of(tile::MakeRangeOp::create(builder, l, type,
                                              builder.getI32IntegerAttr(*start),
                                              builder.getI32IntegerAttr(*end)));
}

FailureOr<TValue> Generator::builtinWhere(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  return genWhere(bind.get(0), bind.get(1), bind.get(2), callLoc);
}

FailureOr<TValue> Generator::builtinMaximum(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<bool> nan = propagateNanArg(*this, bind, 2);
  if (failed(nan))
    return failure();
  return genMinMax(name == "maximum", bind.get(0), bind.get(1), *nan, callLoc);
}

FailureOr<TValue> Generator::builtinClamp(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<bool> nan = propagateNanArg(*this, bind, 3);
  if (failed(nan))
    return failure();
  FailureOr<TValue> lo =
      genMinMax(true, bind.get(0), bind.get(1), *nan, callLoc);
  if (failed(lo))
    return failure();
  return genMinMax(false, *lo, bind.get(2), *nan, callLoc);
}

FailureOr<TValue> Generator::builtinCast(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  if (failed(bind.dtype(1)))
    return failure();
  FailureOr<std::string> rounding =
      bind.has(2) ? bind.constString(2) : FailureOr<std::string>(std::string());
  if (failed(rounding))
    return failure();
  FailureOr<bool> bitcast = bind.has(3) ? bind.constBool(3) : false;
  if (failed(bitcast))
    return failure();
  return genCast(bind.get(0), bind.get(1), *bitcast, *rounding, callLoc);
}

FailureOr<TValue> Generator::builtinCdiv(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  TValue x = bind.get(0), div = bind.get(1);
  FailureOr<TValue> sum = genBinary(BinaryOp::Add, x, div, callLoc);
  if (failed(sum))
    return failure();
  FailureOr<TValue> minus =
      genBinary(BinaryOp::Sub, *sum, TValue::ofInt(1), callLoc);
  if (failed(minus))
    return failure();
  return genBinary(BinaryOp::FloorDiv, *minus, div, callLoc);
}

FailureOr<TValue> Generator::builtinStandardIntHelper(BuiltinCall &call) {
  FailureOr<int64_t> i = call.bind.constInt(0);
  if (failed(i))
    return failure();
  if (call.name == "_is_power_of_two")
    return TValue::ofBool(*i > 0 && llvm::isPowerOf2_64(uint64_t(*i)));
  return TValue::ofInt(*i > 1 ? int64_t(llvm::Log2_64(uint64_t(*i))) : 0);
}

FailureOr<TValue> Generator::builtinConstexpr(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  if (bind.get(0).isValue())
    return error(bind.locs[0]) << "tl.constexpr needs a compile-time value";
  return bind.get(0);
}

/// tl.constexpr_function(f) (also triton.constexpr_function and
/// triton.runtime.jit.constexpr_function), the call form of the decorator:
/// kernels may call `f` on compile-time arguments. Triton's own helpers
/// (`core.get_int_dtype`) are compile-time already.
FailureOr<TValue> Generator::builtinConstexprFunction(BuiltinCall &call) {
  const TValue &fn = call.bind.get(0);
  if (fn.kind == TValue::Kind::Function && fn.function) {
    constexprFunctions.insert(fn.function);
    return fn;
  }
  if (fn.kind == TValue::Kind::Builtin)
    return fn;
  return error(call.bind.locs[0])
         << "tl.constexpr_function takes a function, not " << fn.describe();
}

/// tl.core.get_int_dtype(bitwidth, signed): int8..int64 or uint8..uint64.
FailureOr<TValue> Generator::builtinGetIntDtype(BuiltinCall &call) {
  FailureOr<int64_t> bits = call.bind.constInt(0);
  FailureOr<bool> isSigned = call.bind.constBool(1);
  if (failed(bits) || failed(isSigned))
    return failure();
  if (!llvm::is_contained({8, 16, 32, 64}, *bits))
    return error(call.bind.locs[0]) << "get_int_dtype: no integer dtype of "
                                    << *bits << " bits (8, 16, 32 or 64)";
  return TValue::ofDType(builder.getIntegerType(*bits), !*isSigned);
}

/// tl.assume(cond): a fact the compiler may use. tilec uses none, so a
/// run-time condition generates nothing; a compile-time one must hold.
FailureOr<TValue> Generator::builtinAssume(BuiltinCall &call) {
  Binder &bind = call.bind;
  const TValue &cond = bind.get(0);
  if (cond.isConstNumber()) {
    FailureOr<bool> truth = constTruth(cond, bind.locs[0]);
    if (failed(truth))
      return failure();
    if (!*truth)
      return error(bind.locs[0]) << "tl.assume of a condition that is false";
    return TValue();
  }
  if (!cond.isValue() ||
      !getElementTypeOrSelf(cond.value.getType()).isInteger())
    return error(bind.locs[0])
           << "tl.assume takes a boolean condition, not " << cond.describe();
  return TValue();
}

FailureOr<TValue> Generator::builtinStaticAssert(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<bool> truth = constTruth(bind.get(0), bind.locs[0]);
  if (failed(truth))
    return failure();
  if (!*truth) {
    auto diag = error(callLoc) << "static assertion failed";
    if (bind.has(1) && bind.get(1).kind == TValue::Kind::String)
      diag << ": " << bind.get(1).s;
    return diag;
  }
  return TValue();
}

FailureOr<TValue> Generator::builtinStaticPrint(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  std::string text;
  for (auto [i, v] : llvm::enumerate(args.positional))
    text += (i ? " " : "") + printValue(v);
  for (auto [i, kw] : llvm::enumerate(args.keywords))
    if (kw.first != "sep" && kw.first != "end" && kw.first != "flush" &&
        kw.first != "file")
      return error(args.keywordRanges[i].Start)
             << "'tl.static_print' got an unexpected keyword argument '"
             << kw.first << "'";
  remarks.push_back({l, "static_print: " + text});
  return TValue();
}

FailureOr<TValue> Generator::builtinMultipleOf(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  const TValue &x = bind.get(0), &v = bind.get(1);
  auto isInt = [](const TValue &e) { return e.kind == TValue::Kind::Int; };
  if (!isInt(v) &&
      !(v.kind == TValue::Kind::Tuple && llvm::all_of(v.elements, isInt)))
    return error(bind.locs[1])
           << "'values' of '" << qualified
           << "' must be constexpr integers, not " << v.describe();
  SmallVector<int64_t> values;
  for (const TValue &e :
       v.kind == TValue::Kind::Tuple ? v.elements : std::vector{v}) {
    if (e.i < 1)
      return error(bind.locs[1]) << "'values' of '" << qualified
                                 << "' must be positive, not " << e.i;
    values.push_back(e.i);
  }
  // Compile-time values are known exactly: nothing to add.
  if (!x.isValue())
    return x;
  auto tensor = dyn_cast<RankedTensorType>(x.value.getType());
  int64_t rank = tensor ? tensor.getRank() : 1;
  if (int64_t(values.size()) != rank)
    return error(bind.locs[1])
           << "'" << qualified << "' needs one value per dimension of "
           << x.describe() << " (" << rank << "), not " << values.size();
  // The hint stays on the op of the value for AxisInfo (the user's promise,
  // as in Triton); a value no op defines here (a kernel argument, a loop
  // variable) has nowhere to hold it and passes through as it is.
  Operation *op = x.value.getDefiningOp();
  if (op && op->getNumResults() == 1)
    tile::setAxisHint(op,
                      name == "multiple_of"      ? tile::AxisHint::Divisibility
                      : name == "max_contiguous" ? tile::AxisHint::Contiguity
                                                 : tile::AxisHint::Constancy,
                      values);
  return x;
}

FailureOr<TValue> Generator::builtinPointerType(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<Type> elem = bind.dtype(0);
  if (failed(elem))
    return failure();
  return TValue::ofDType(tile::PtrType::get(builder.getContext(), *elem),
                         bind.get(0).isUnsigned);
}

FailureOr<TValue> Generator::builtinLoopIterable(BuiltinCall &call) {
  return error(call.callLoc) << "'" << call.qualified
                             << "' may only be the iterable of a 'for' loop";
}

FailureOr<TValue> Generator::callMethod(const TValue &method, CallArgs &args,
                                        llvm::SMLoc callLoc) {
  const TValue &self = method.elements.front();
  if (self.kind == TValue::Kind::DType) {
    if (!args.positional.empty() || !args.keywords.empty())
      return error(callLoc) << "'" << method.s << "' takes no arguments";
    if (std::optional<bool> answer =
            dtypePredicate(self.type, self.isUnsigned, method.s))
      return TValue::ofBool(*answer);
    return error(callLoc) << self.describe() << " has no method '" << method.s
                          << "'";
  }
  if (self.kind == TValue::Kind::TensorDesc)
    return callDescriptorMethod(self, method.s, args, callLoc);

  CallArgs withSelf = args;
  withSelf.positional.insert(withSelf.positional.begin(), self);
  withSelf.positionalRanges.insert(withSelf.positionalRanges.begin(),
                                   llvm::SMRange(callLoc, callLoc));
  if (self.kind == TValue::Kind::BlockPtr && method.s == "advance")
    return callBuiltin("advance", withSelf, callLoc);
  if (!self.isValue())
    return error(callLoc) << self.describe() << " has no method '" << method.s
                          << "'";

  if (isTileMethod(method.s))
    return callBuiltin(method.s, withSelf, callLoc, /*asMethod=*/true);
  return error(callLoc) << self.describe() << " has no method '" << method.s
                        << "'";
}

FailureOr<TValue> Generator::callPythonBuiltin(llvm::StringRef name,
                                               CallArgs &args,
                                               llvm::SMLoc callLoc) {
  if (name == "print")
    return error(callLoc) << "'print' is not supported in kernels "
                             "(tl.device_print neither); use "
                             "tl.static_print for compile-time values";
  if (!args.keywords.empty())
    return error(args.keywordRanges.front().Start)
           << "'" << name << "' takes no keyword arguments here";
  auto &a = args.positional;
  if (name == "float" && a.size() == 1 && a[0].kind == TValue::Kind::String) {
    llvm::StringRef s = llvm::StringRef(a[0].s).trim();
    std::string lower = s.lower();
    if (lower == "inf" || lower == "+inf" || lower == "infinity")
      return TValue::ofFloat(INFINITY);
    if (lower == "-inf" || lower == "-infinity")
      return TValue::ofFloat(-INFINITY);
    if (lower == "nan")
      return TValue::ofFloat(NAN);
    double d;
    if (!s.getAsDouble(d))
      return TValue::ofFloat(d);
    return error(callLoc) << "could not convert string to float: '" << a[0].s
                          << "'";
  }
  if (name == "int" && a.size() == 1 && a[0].kind == TValue::Kind::String) {
    // Decimal, as Python's int("42") (surrounding spaces and '_' apart).
    int64_t i;
    if (!llvm::StringRef(a[0].s).trim().getAsInteger(10, i))
      return TValue::ofInt(i);
    return error(callLoc) << "invalid literal for int() with base 10: '"
                          << a[0].s << "'";
  }
  // bool() of any other compile-time value is its truth (None, a string, a
  // tuple, a match of re).
  if (name == "bool" && a.size() == 1 && !a[0].isValue() &&
      !a[0].isConstNumber()) {
    FailureOr<bool> truth = constTruth(a[0], callLoc);
    if (failed(truth))
      return failure();
    return TValue::ofBool(*truth);
  }
  if ((name == "float" || name == "int" || name == "bool" || name == "abs") &&
      a.size() == 1 && a[0].isConstNumber()) {
    double x = a[0].kind == TValue::Kind::Float ? a[0].f : double(a[0].i);
    if (name == "float")
      return TValue::ofFloat(x);
    if (name == "int") {
      if (!(x > -9.3e18 && x < 9.3e18))
        return error(callLoc) << "int() of an out-of-range float";
      return TValue::ofInt(a[0].kind == TValue::Kind::Float ? int64_t(x)
                                                            : a[0].i);
    }
    if (name == "bool")
      return TValue::ofBool(x != 0);
    return a[0].kind == TValue::Kind::Float
               ? TValue::ofFloat(std::fabs(x))
               : TValue::ofInt(a[0].i < 0 ? int64_t(0 - uint64_t(a[0].i))
                                          : a[0].i);
  }
  if (name == "abs" && a.size() == 1 && a[0].isValue())
    return callBuiltin("abs", args, callLoc);
  if (name == "min" || name == "max") {
    std::vector<TValue> values = a;
    if (values.size() == 1 && values[0].kind == TValue::Kind::Tuple)
      values = values[0].elements;
    if (values.empty())
      return error(callLoc) << "'" << name << "' needs at least one value";
    for (const TValue &v : values)
      if (!v.isValue() && !v.isConstNumber())
        return error(callLoc)
               << "'" << name << "' is not defined for " << v.describe();
    TValue best = values[0];
    for (size_t i = 1; i < values.size(); ++i) {
      FailureOr<TValue> next =
          genMinMax(name == "max", best, values[i], false, callLoc);
      if (failed(next))
        return failure();
      best = *next;
    }
    return best;
  }
  if (name == "len" && a.size() == 1 && a[0].kind == TValue::Kind::Tuple)
    return TValue::ofInt(a[0].elements.size());
  if (name == "len" && a.size() == 1 && a[0].tileType())
    return TValue::ofInt(a[0].tileType().getDimSize(0));
  if (name == "range")
    return error(callLoc) << "'range' may only be the iterable of a 'for' "
                             "loop";
  if ((name == "float" || name == "int" || name == "bool") && a.size() == 1 &&
      a[0].isValue())
    return error(callLoc) << "'" << name << "()' of a run-time value is not "
                          << "supported; use .to(tl."
                          << (name == "float" ? "float32"
                              : name == "int" ? "int32"
                                              : "int1")
                          << ")";
  return error(callLoc) << "'" << name
                        << "' is only supported on compile-time constants "
                           "here";
}

FailureOr<TValue> Generator::builtinDevicePrint(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<std::string> prefix = bind.constString(0);
  if (failed(prefix))
    return failure();
  FailureOr<bool> hex = bind.has(1) ? bind.constBool(1) : false;
  if (failed(hex))
    return failure();
  // The values, broadcast to one shape.
  SmallVector<Value> values;
  SmallVector<bool> isUnsigned;
  SmallVector<int64_t> shape;
  for (const TValue &v : varargs ? *varargs : std::vector<TValue>()) {
    isUnsigned.push_back(unsignedOf(v));
    FailureOr<Value> x = toValue(v, callLoc);
    if (failed(x))
      return failure();
    if (auto t = dyn_cast<RankedTensorType>(x->getType())) {
      FailureOr<SmallVector<int64_t>> s =
          broadcastShapes(shape, t.getShape(), callLoc, "the values printed");
      if (failed(s))
        return failure();
      shape = *s;
    }
    values.push_back(*x);
  }
  for (Value &v : values) {
    FailureOr<Value> b = broadcastTo(v, shape, callLoc);
    if (failed(b))
      return failure();
    v = *b;
  }
  // Triton separates the prefix from the values.
  std::string text = *prefix;
  if (!values.empty() && !text.empty() && text.back() != ' ')
    text += " ";
  tile::PrintOp::create(builder, l, builder.getStringAttr(text),
                        builder.getBoolAttr(*hex),
                        llvm::is_contained(isUnsigned, true)
                            ? builder.getDenseBoolArrayAttr(isUnsigned)
                            : DenseBoolArrayAttr(),
                        values);
  return TValue();
}

FailureOr<TValue> Generator::builtinDeviceAssert(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<std::string> message =
      bind.has(1) ? bind.constString(1) : FailureOr<std::string>(std::string());
  if (failed(message))
    return failure();
  FailureOr<Value> cond = toBool(bind.get(0), bind.locs[0]);
  if (failed(cond))
    return failure();
  Value holds = *cond;
  if (bind.has(2)) {
    // Masked-off elements hold: cond | !mask.
    FailureOr<Value> mask = toBool(bind.get(2), bind.locs[2]);
    if (failed(mask))
      return failure();
    Value c, m;
    if (failed(
            binaryOperands(TValue::of(holds), TValue::of(*mask), false, callLoc,
                           "the condition and the mask of " + qualified, c, m)))
      return failure();
    Value one = constant(1, builder.getI1Type(), m.getType(), l);
    holds = arith::OrIOp::create(builder, l, c,
                                 arith::XOrIOp::create(builder, l, m, one));
  }
  // As in Triton, the check exists in debug mode only.
  if (!debug)
    return TValue();
  unsigned line = srcMgr.getLineAndColumn(callLoc).first;
  llvm::StringRef file =
      srcMgr.getMemoryBuffer(srcMgr.FindBufferContainingLoc(callLoc))
          ->getBufferIdentifier();
  tile::AssertOp::create(builder, l, holds, builder.getStringAttr(*message),
                         builder.getStringAttr(file),
                         builder.getI32IntegerAttr(line));
  return TValue();
}

FailureOr<TValue> Generator::builtinInlineAsm(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  FailureOr<std::string> asmString = bind.constString(0);
  FailureOr<std::string> constraints = bind.constString(1);
  FailureOr<bool> pure = bind.constBool(4);
  FailureOr<int64_t> pack = bind.constInt(5);
  if (failed(asmString) || failed(constraints) || failed(pure) || failed(pack))
    return failure();
  if (*pack < 1)
    return error(bind.locs[5])
           << "'pack' of " << qualified << " must be positive, not " << *pack;
  // The arguments, broadcast together.
  const TValue &list = bind.get(2);
  if (list.kind != TValue::Kind::Tuple)
    return error(bind.locs[2])
           << "'args' of " << qualified
           << " must be a list or tuple of values, not " << list.describe();
  if (list.elements.empty())
    return error(bind.locs[2])
           << qualified << " without arguments is not supported by tilec";
  SmallVector<int64_t> shape;
  bool anyTile = false;
  FailureOr<SmallVector<Value>> values =
      broadcastTogether(list.elements, bind.locs[2],
                        "the arguments of " + qualified, shape, anyTile);
  if (failed(values))
    return failure();
  // One result per dtype.
  const TValue &dtypes = bind.get(3);
  bool several = dtypes.kind == TValue::Kind::Tuple;
  SmallVector<Type> resultTypes;
  for (const TValue &d :
       several ? dtypes.elements : std::vector<TValue>{dtypes}) {
    if (d.kind != TValue::Kind::DType)
      return error(bind.locs[3]) << "'dtype' of " << qualified
                                 << " must be a dtype or a tuple of dtypes, "
                                    "not "
                                 << d.describe();
    resultTypes.push_back(anyTile ? Type(RankedTensorType::get(shape, d.type))
                                  : d.type);
  }
  if (resultTypes.empty())
    return error(bind.locs[3]) << qualified << " needs at least one dtype";
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  if (*pack > 1 && (!anyTile || elements % *pack != 0))
    return error(bind.locs[5])
           << "'pack' of " << qualified << " (" << *pack
           << ") must divide the number of elements of the arguments ("
           << elements << ")";
  auto op = tile::InlineAsmOp::create(
      builder, l, resultTypes, builder.getStringAttr(*asmString),
      builder.getStringAttr(*constraints), builder.getBoolAttr(*pure),
      builder.getI32IntegerAttr(*pack), *values);
  if (std::string problem = op.checkConstraints(); !problem.empty()) {
    op.erase();
    return error(bind.locs[1]) << qualified << ": " << problem;
  }
  if (!several)
    return TValue::of(op.getResult(0), dtypes.isUnsigned);
  std::vector<TValue> results;
  for (auto [r, d] : llvm::zip_equal(op.getResults(), dtypes.elements))
    results.push_back(TValue::of(r, d.isUnsigned));
  return TValue::ofTuple(std::move(results));
}

FailureOr<TValue> Generator::builtinMapElementwise(BuiltinCall &call) {
  [[maybe_unused]] auto &[name, qualified, bind, l, callLoc, args, varargs] =
      call;
  const TValue &fn = bind.get(0);
  if (fn.kind != TValue::Kind::Function)
    return error(bind.locs[0])
           << "the function " << qualified
           << " maps must be a @triton.jit function, not " << fn.describe();
  FailureOr<int64_t> pack = bind.has(1) ? bind.constInt(1) : 1;
  if (failed(pack))
    return failure();
  if (*pack < 1)
    return error(bind.locs[1])
           << "'pack' of " << qualified << " must be positive, not " << *pack;
  std::vector<TValue> inputs = varargs.value_or(std::vector<TValue>());
  SmallVector<int64_t> shape;
  bool anyTile = false;
  FailureOr<SmallVector<Value>> srcs = broadcastTogether(
      inputs, callLoc, "the arguments of " + qualified, shape, anyTile);
  if (failed(srcs))
    return failure();
  if (!anyTile)
    return error(callLoc) << qualified << " needs at least one tile to map "
                          << "the function over";
  int64_t elements =
      llvm::cast<RankedTensorType>(srcs->front().getType()).getNumElements();
  if (elements % *pack != 0)
    return error(bind.locs[1])
           << "'pack' of " << qualified << " (" << *pack
           << ") must divide the number of elements of the arguments ("
           << elements << ")";

  // The body first, in an op without results: what the function returns
  // gives the results' types.
  auto body = tile::MapElementwiseOp::create(builder, l, TypeRange(), *srcs,
                                             builder.getI32IntegerAttr(*pack));
  std::vector<TValue> returned;
  bool returnedTuple = false;
  {
    OpBuilder::InsertionGuard guard(builder);
    SmallVector<Type> argTypes;
    CallArgs callArgs;
    for (Value src : *srcs)
      argTypes.append(*pack, getElementTypeOrSelf(src.getType()));
    Block *block =
        builder.createBlock(&body.getBody(), {}, argTypes,
                            SmallVector<Location>(argTypes.size(), l));
    for (auto [i, arg] : llvm::enumerate(block->getArguments())) {
      callArgs.positional.push_back(
          TValue::of(arg, unsignedOf(inputs[i / *pack])));
      callArgs.positionalRanges.push_back(llvm::SMRange(callLoc, callLoc));
    }
    FailureOr<TValue> result =
        callFunction(*fn.function, callArgs, bind.locs[0]);
    if (failed(result))
      return failure();
    returnedTuple = result->kind == TValue::Kind::Tuple;
    returned = returnedTuple ? result->elements : std::vector<TValue>{*result};
    std::string fnName = fn.function->getName().str();
    if (result->kind == TValue::Kind::None || returned.size() % *pack != 0)
      return error(bind.locs[0])
             << "the function '" << fnName << "' that " << qualified
             << " maps must return a multiple of pack (" << *pack
             << ") scalars, not " << result->describe();
    SmallVector<Value> values;
    for (auto [i, part] : llvm::enumerate(returned)) {
      FailureOr<Value> v = toValue(part, bind.locs[0]);
      if (failed(v))
        return failure();
      if (isa<RankedTensorType>(v->getType()))
        return error(bind.locs[0])
               << "the function '" << fnName << "' that " << qualified
               << " maps must return scalars, not " << part.describe();
      Type first = values.empty() || i % *pack == 0
                       ? v->getType()
                       : values[i - i % *pack].getType();
      if (v->getType() != first)
        return error(bind.locs[0])
               << "the function '" << fnName << "' that " << qualified
               << " maps returns " << typeName(first) << " and "
               << typeName(v->getType()) << " for the elements of one pack";
      values.push_back(*v);
    }
    tile::MapElementwiseYieldOp::create(builder, l, values);
    for (Operation &op : *block)
      if (!isMemoryEffectFree(&op))
        return error(bind.locs[0])
               << "the function '" << fnName << "' that " << qualified
               << " maps must not load, store, use atomics or print: it "
                  "runs on each element";
  }
  SmallVector<Type> resultTypes;
  for (size_t i = 0; i < returned.size(); i += *pack)
    resultTypes.push_back(RankedTensorType::get(
        shape,
        body.getBody().front().getTerminator()->getOperand(i).getType()));
  auto map = tile::MapElementwiseOp::create(builder, l, resultTypes, *srcs,
                                            body.getPackAttr());
  map.getBody().takeBody(body.getBody());
  body.erase();
  std::vector<TValue> results;
  for (auto [r, result] : llvm::enumerate(map.getResults()))
    results.push_back(TValue::of(result, returned[r * *pack].isUnsigned));
  // As in Triton, a tuple whenever the function returned one (with pack > 1
  // it must): `(y,) = tl.map_elementwise(f, x, pack=2)`.
  if (!returnedTuple)
    return results.front();
  return TValue::ofTuple(std::move(results));
}
