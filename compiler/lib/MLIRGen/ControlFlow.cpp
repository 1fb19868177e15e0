//===- ControlFlow.cpp - if, for, while and conditional values --*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Control flow with Triton's semantics:
//
//  - `if` on a compile-time condition generates one branch; on a run-time
//    scalar it becomes scf.if, yielding every variable that either branch
//    assigns and that exists after the `if` (assigned before it, or in both
//    branches);
//  - `for ... in range(...)` / `tl.range(...)` becomes scf.for whose
//    loop-carried variables are the names the body assigns that were defined
//    before the loop (found by scanning the body's AST); `tl.static_range`
//    and tuples are unrolled at compile time;
//  - `while cond:` becomes scf.while with the same loop-carried variables;
//  - `a if c else b` with a run-time scalar condition becomes scf.if.
//
// Structured values (tuples, block pointers, descriptors) are carried as their
// leaves. Every run-time leaf is carried; a loop is generated once with its
// compile-time numbers as they are, and if the body changes some of them
// (`i = 0` ... `i += 1`, block-pointer offsets moved by tl.advance) it is
// generated again with those numbers materialised and carried too. A leaf the
// loop does not change keeps its value after the loop (a constant stays one).
// Other compile-time values may not change inside a loop; in a run-time `if`
// two different numbers are merged into one run-time type, other compile-time
// values must agree.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/ScopeExit.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace tilec;

/// The most iterations tl.static_range may unroll.
static constexpr int64_t maxUnroll = 4096;

//===----------------------------------------------------------------------===//
// Leaves of structured values
//===----------------------------------------------------------------------===//

void Generator::flatten(const TValue &v, SmallVectorImpl<Leaf> &leaves,
                        Type hint) {
  if (v.kind == TValue::Kind::Tuple) {
    for (const TValue &e : v.elements)
      flatten(e, leaves, hint);
    return;
  }
  if (v.isPointerStruct()) {
    const BlockPointer &bp = *v.pointer;
    Type i32 = builder.getI32Type(), i64 = builder.getI64Type();
    bool isDesc = v.kind == TValue::Kind::TensorDesc;
    leaves.push_back({TValue::of(bp.base), Type()});
    for (const TValue &e : bp.shape)
      leaves.push_back({e, isDesc ? i32 : i64});
    for (const TValue &e : bp.strides)
      leaves.push_back({e, i64});
    for (const TValue &e : bp.offsets)
      leaves.push_back({e, i32});
    return;
  }
  leaves.push_back({v, hint});
}

TValue Generator::unflatten(const TValue &shape, ArrayRef<TValue> leaves,
                            size_t &pos) {
  if (shape.kind == TValue::Kind::Tuple) {
    std::vector<TValue> elements;
    for (const TValue &e : shape.elements)
      elements.push_back(unflatten(e, leaves, pos));
    return TValue::ofTuple(std::move(elements));
  }
  if (shape.isPointerStruct()) {
    auto bp = std::make_shared<BlockPointer>(*shape.pointer);
    bp->base = leaves[pos++].value;
    for (TValue &e : bp->shape)
      e = leaves[pos++];
    for (TValue &e : bp->strides)
      e = leaves[pos++];
    for (TValue &e : bp->offsets)
      e = leaves[pos++];
    TValue result;
    result.kind = shape.kind;
    result.pointer = std::move(bp);
    return result;
  }
  return leaves[pos++];
}

/// True if `a` and `b` have the same structure: the same tuple sizes, the
/// same kinds of pointer structures with the same block shapes, and leaves
/// that are both run-time-or-numeric or both other compile-time values.
static bool sameSkeleton(const TValue &a, const TValue &b) {
  auto numeric = [](const TValue &v) {
    return v.isValue() || v.isConstNumber();
  };
  if (a.kind == TValue::Kind::Tuple || b.kind == TValue::Kind::Tuple) {
    if (a.kind != b.kind || a.elements.size() != b.elements.size())
      return false;
    for (auto [x, y] : llvm::zip_equal(a.elements, b.elements))
      if (!sameSkeleton(x, y))
        return false;
    return true;
  }
  if (a.isPointerStruct() || b.isPointerStruct()) {
    if (a.kind != b.kind)
      return false;
    const BlockPointer &p = *a.pointer, &q = *b.pointer;
    return p.blockShape == q.blockShape && p.order == q.order &&
           p.padding == q.padding && p.offsets.size() == q.offsets.size() &&
           p.base.getType() == q.base.getType();
  }
  return numeric(a) == numeric(b);
}

/// A leaf that loops carry and `if`s yield: a run-time value or a number.
static bool isDynamicLeaf(const Leaf &leaf) {
  return leaf.value.isValue() || leaf.value.isConstNumber();
}

/// The type a compile-time number leaf gets when it becomes run-time.
static Type leafType(Generator &gen, const Leaf &leaf) {
  if (leaf.value.isValue())
    return leaf.value.value.getType();
  if (leaf.hint && leaf.value.kind != TValue::Kind::Float)
    return leaf.hint;
  return gen.defaultType(leaf.value);
}

/// Names assigned by `body` (recursively, including loop targets).
static void collectTargets(const ExprAST &target, std::set<std::string> &out) {
  if (auto *name = llvm::dyn_cast<NameExprAST>(&target))
    out.insert(name->getName().str());
  else if (auto *tuple = llvm::dyn_cast<TupleExprAST>(&target))
    for (const ExprPtr &e : tuple->getElements())
      collectTargets(*e, out);
  else if (auto *list = llvm::dyn_cast<ListExprAST>(&target))
    for (const ExprPtr &e : list->getElements())
      collectTargets(*e, out);
}

static void collectAssigned(const StmtList &body, std::set<std::string> &out) {
  for (const StmtPtr &stmt : body) {
    if (auto *a = llvm::dyn_cast<AssignStmtAST>(stmt.get())) {
      for (const ExprPtr &t : a->getTargets())
        collectTargets(*t, out);
    } else if (auto *a = llvm::dyn_cast<AugAssignStmtAST>(stmt.get())) {
      collectTargets(a->getTarget(), out);
    } else if (auto *a = llvm::dyn_cast<AnnAssignStmtAST>(stmt.get())) {
      if (a->getValue())
        collectTargets(a->getTarget(), out);
    } else if (auto *s = llvm::dyn_cast<IfStmtAST>(stmt.get())) {
      collectAssigned(s->getThen(), out);
      collectAssigned(s->getElse(), out);
    } else if (auto *s = llvm::dyn_cast<ForStmtAST>(stmt.get())) {
      collectTargets(s->getTarget(), out);
      collectAssigned(s->getBody(), out);
      collectAssigned(s->getOrElse(), out);
    } else if (auto *s = llvm::dyn_cast<WhileStmtAST>(stmt.get())) {
      collectAssigned(s->getBody(), out);
      collectAssigned(s->getOrElse(), out);
    }
  }
}

//===----------------------------------------------------------------------===//
// Loop-carried variables
//===----------------------------------------------------------------------===//

namespace {
/// The loop-carried variables of one loop.
struct Carried {
  /// The names, in order, with their values before the loop.
  SmallVector<std::string> names;
  SmallVector<TValue, 4> initial;
  /// Every leaf of those values, in order; `carried[i]` says whether leaf i
  /// is carried by the loop (else it must not change inside the loop).
  SmallVector<Leaf, 4> leaves;
  SmallVector<bool> carried;
  /// The run-time initial values of the carried leaves and their types.
  SmallVector<Value> inits;
  SmallVector<Type> types;
};
} // namespace

/// Finds the loop-carried variables of a loop whose body is `body`
/// (excluding `exclude`, the loop's own target) and materialises the initial
/// values of their carried leaves: every run-time leaf, and the compile-time
/// numbers listed in `forced` (those an earlier attempt saw change).
static FailureOr<Carried> findCarried(Generator &gen, const StmtList &body,
                                      llvm::StringRef exclude, llvm::SMLoc l,
                                      const std::set<size_t> &forced) {
  std::set<std::string> assigned;
  collectAssigned(body, assigned);
  Carried c;
  for (const std::string &name : assigned) {
    if (name == exclude)
      continue;
    auto it = gen.scope->values.find(name);
    if (it == gen.scope->values.end())
      continue;
    c.names.push_back(name);
    c.initial.push_back(it->second);
    gen.flatten(it->second, c.leaves);
  }
  for (auto [i, leaf] : llvm::enumerate(c.leaves)) {
    bool carried =
        leaf.value.isValue() || (leaf.value.isConstNumber() && forced.count(i));
    c.carried.push_back(carried);
    if (!carried)
      continue;
    Type type = leafType(gen, leaf);
    FailureOr<Value> v =
        gen.toValueOfType(leaf.value, getElementTypeOrSelf(type), type, l,
                          Generator::unsignedOf(leaf.value));
    if (failed(v))
      return failure();
    c.inits.push_back(*v);
    c.types.push_back(type);
  }
  return c;
}

/// Binds the carried variables to `args` (one per carried leaf) in the
/// current scope.
static void bindCarried(Generator &gen, const Carried &c, ValueRange args) {
  SmallVector<TValue, 4> leaves;
  size_t k = 0;
  for (auto [leaf, carried] : llvm::zip_equal(c.leaves, c.carried))
    leaves.push_back(
        carried ? TValue::of(args[k++], Generator::unsignedOf(leaf.value))
                : leaf.value);
  size_t pos = 0;
  for (auto [name, init] : llvm::zip_equal(c.names, c.initial))
    gen.scope->values[name] = gen.unflatten(init, leaves, pos);
}

/// Reports a loop-carried variable whose type changed.
static LogicalResult typeChanged(Generator &gen, const std::string &name,
                                 const TValue &before, const TValue &after,
                                 llvm::SMLoc loopLoc, const Scope &outer) {
  auto diag = gen.error(loopLoc)
              << "loop-carried variable '" << name << "' changes type from "
              << before.describe() << " to " << after.describe()
              << " inside the loop";
  auto assignedAt = gen.scope->defLocs.find(name);
  if (assignedAt != gen.scope->defLocs.end())
    diag.attachNote(gen.loc(assignedAt->second))
        << "'" << name << "' is assigned " << after.describe() << " here";
  auto definedAt = outer.defLocs.find(name);
  if (definedAt != outer.defLocs.end())
    diag.attachNote(gen.loc(definedAt->second))
        << "'" << name << "' is defined before the loop here";
  return diag;
}

/// Collects the values the loop body yields for the carried leaves, after
/// checking that each variable kept its type. Compile-time numbers that are
/// not carried but changed are added to `retry`: the loop must be generated
/// again, carrying them.
static FailureOr<SmallVector<Value>>
yieldCarried(Generator &gen, const Carried &c, llvm::SMLoc loopLoc,
             const Scope &outer, std::set<size_t> &retry) {
  SmallVector<Value> yields;
  size_t leafIndex = 0, k = 0;
  for (auto [name, init] : llvm::zip_equal(c.names, c.initial)) {
    const TValue &now = gen.scope->values[name];
    SmallVector<Leaf, 4> leaves, initLeaves;
    gen.flatten(now, leaves);
    gen.flatten(init, initLeaves);
    if (!sameSkeleton(init, now) || leaves.size() != initLeaves.size())
      return typeChanged(gen, name, init, now, loopLoc, outer);
    for (const Leaf &leaf : leaves) {
      size_t i = leafIndex++;
      if (!c.carried[i]) {
        if (leaf.value.sameAs(c.leaves[i].value))
          continue;
        if (leaf.value.isValue() || leaf.value.isConstNumber()) {
          retry.insert(i);
          continue;
        }
        auto diag = gen.error(loopLoc) << "the compile-time value of '" << name
                                       << "' cannot change inside a loop";
        auto assignedAt = gen.scope->defLocs.find(name);
        if (assignedAt != gen.scope->defLocs.end())
          diag.attachNote(gen.loc(assignedAt->second))
              << "'" << name << "' is assigned here";
        return diag;
      }
      Type type = c.types[k++];
      bool isUnsigned = Generator::unsignedOf(c.leaves[i].value);
      if (leaf.value.isValue() && (leaf.value.value.getType() != type ||
                                   leaf.value.isUnsigned != isUnsigned))
        return typeChanged(gen, name, init, now, loopLoc, outer);
      FailureOr<Value> v = gen.toValueOfType(
          leaf.value, getElementTypeOrSelf(type), type, loopLoc, isUnsigned);
      if (failed(v))
        return failure();
      yields.push_back(*v);
    }
  }
  return yields;
}

/// Rebinds the carried variables after the loop: a leaf the loop does not
/// change keeps its value from before the loop.
static void bindResults(Generator &gen, const Carried &c, ValueRange results,
                        ValueRange blockArgs, ArrayRef<Value> yields) {
  SmallVector<TValue, 4> leaves;
  size_t k = 0;
  for (auto [leaf, carried] : llvm::zip_equal(c.leaves, c.carried)) {
    if (!carried) {
      leaves.push_back(leaf.value);
      continue;
    }
    bool unchanged = yields[k] == blockArgs[k];
    leaves.push_back(
        unchanged ? leaf.value
                  : TValue::of(results[k], Generator::unsignedOf(leaf.value)));
    ++k;
  }
  size_t pos = 0;
  for (auto [name, init] : llvm::zip_equal(c.names, c.initial))
    gen.scope->values[name] = gen.unflatten(init, leaves, pos);
}

/// After a loop body: restores `outer`'s variables, and hides the names the
/// body introduced.
static void restoreScope(Generator &gen, const Scope &outer,
                         const Scope &inner) {
  Scope result = outer;
  for (const auto &[name, value] : inner.values) {
    if (outer.values.count(name))
      continue;
    auto at = inner.defLocs.find(name);
    result.hidden[name] = {at != inner.defLocs.end() ? at->second
                                                     : llvm::SMLoc(),
                           /*inLoop=*/true};
  }
  *gen.scope = std::move(result);
}

//===----------------------------------------------------------------------===//
// for
//===----------------------------------------------------------------------===//

namespace {
/// A `range`, `tl.range` or `tl.static_range` call.
struct RangeArgs {
  TValue start, end, step;
  bool isStatic = false;
  /// `range(hi, lo, -s)`: start and end swapped and the step negated, so
  /// that the loop counts up and its variable is `end + start - iv`.
  bool descending = false;
  /// `tl.range(..., loop_unroll_factor=N)`: the factor, 0 when not given.
  int64_t unrollFactor = 0;
  /// `tl.range(..., flatten=True)`.
  bool flatten = false;
};
} // namespace

/// Reads the arguments of a range call.
static FailureOr<RangeArgs> rangeArgs(Generator &gen, llvm::StringRef name,
                                      CallArgs &args, llvm::SMLoc l) {
  // Triton reads only the positional arguments of Python's range in a
  // kernel and drops its keywords (`range(n, flatten=True)` runs as
  // `range(n)`); host code runs Python's, which takes none.
  if (name == "range" && !gen.hostDepth && !args.keywords.empty()) {
    std::string names;
    for (const auto &keyword : args.keywords)
      names += (names.empty() ? "'" : ", '") + keyword.first + "'";
    gen.warning(args.keywordRanges.front().Start,
                "Python's range ignores " + names +
                    " in a kernel, as in Triton; tl.range takes them");
    args.keywords.clear();
    args.keywordRanges.clear();
    args.keywordValueRanges.clear();
  }
  Binder bind(gen, name, args, l);
  LogicalResult bound =
      name == "tl.range"
          ? bind.bind({"arg1", "arg2", "step", "num_stages",
                       "loop_unroll_factor", "disallow_acc_multi_buffer",
                       "flatten", "warp_specialize", "disable_licm"},
                      1)
          : bind.bind({"arg1", "arg2", "step"}, 1);
  if (failed(bound))
    return failure();
  if (name == "range" && !args.keywords.empty())
    return gen.error(args.keywordRanges.front().Start)
           << "'range' takes no keyword arguments";
  RangeArgs r;
  // Host code runs its loops at compile time.
  r.isStatic = name == "tl.static_range" || (gen.hostDepth && name == "range");
  if (bind.has(1)) {
    r.start = bind.get(0);
    r.end = bind.get(1);
  } else {
    r.start = TValue::ofInt(0);
    r.end = bind.get(0);
  }
  r.step = bind.has(2) ? bind.get(2) : TValue::ofInt(1);
  if (name == "tl.range" && bind.has(4)) {
    FailureOr<int64_t> factor = bind.constInt(4);
    if (failed(factor))
      return failure();
    if (*factor < 1)
      return gen.error(bind.locs[4])
             << "loop_unroll_factor must be at least 1, not " << *factor;
    r.unrollFactor = *factor;
  }
  if (name == "tl.range" && bind.has(6)) {
    FailureOr<bool> flatten = bind.constBool(6);
    if (failed(flatten))
      return failure();
    r.flatten = *flatten;
  }
  llvm::SMLoc locs[3] = {bind.has(1) ? bind.locs[0] : l,
                         bind.has(1) ? bind.locs[1] : bind.locs[0],
                         bind.has(2) ? bind.locs[2] : l};
  for (unsigned i = 0; i < 3; ++i) {
    const TValue &v = i == 0 ? r.start : i == 1 ? r.end : r.step;
    bool isInt = v.kind == TValue::Kind::Int || v.kind == TValue::Kind::Bool;
    if (r.isStatic && !isInt)
      return gen.error(locs[i]) << "the bounds of tl.static_range must be "
                                   "constexpr integers, not "
                                << v.describe();
    bool runtimeInt = v.isValue() && v.value.getType().isInteger();
    if (!isInt && !runtimeInt)
      return gen.error(locs[i]) << "the bounds of '" << name << "' must be "
                                << "integer scalars, not " << v.describe();
  }
  if (r.isStatic && r.step.i == 0)
    return gen.error(locs[2]) << "the step of tl.static_range cannot be 0";
  if (!r.isStatic && r.step.kind == TValue::Kind::Int && r.step.i == 0)
    return gen.error(locs[2])
           << "the step of a '" << name << "' loop cannot be 0";
  if (!r.isStatic && r.step.kind == TValue::Kind::Int && r.step.i < 0) {
    // A compile-time negative step counts down, as in Triton.
    std::swap(r.start, r.end);
    r.step.i = -r.step.i;
    r.descending = true;
  }
  return r;
}

LogicalResult Generator::genFor(const ForStmtAST &stmt) {
  if (!stmt.getOrElse().empty())
    return error(stmt.getLoc()) << "'else' after a loop is not supported";
  const ExprAST &iter = stmt.getIter();
  const StmtAST *savedLoop = innermostLoop;
  llvm::scope_exit restoreLoop([&] { innermostLoop = savedLoop; });
  innermostLoop = &stmt;

  // Compile-time iteration over a tuple.
  auto *call = llvm::dyn_cast<CallExprAST>(&iter);
  std::string rangeName;
  if (call) {
    FailureOr<TValue> callee = genExpr(call->getCallee());
    if (failed(callee))
      return failure();
    if (callee->kind == TValue::Kind::Builtin &&
        (callee->s == "range" || callee->s == "tl.range" ||
         callee->s == "tl.static_range"))
      rangeName = callee->s;
  }
  if (rangeName.empty()) {
    FailureOr<TValue> seq = genExpr(iter);
    if (failed(seq))
      return failure();
    if (seq->kind != TValue::Kind::Tuple)
      return error(iter.getLoc())
             << "a 'for' loop iterates over range(...), tl.range(...), "
                "tl.static_range(...) or a compile-time tuple, not "
             << seq->describe();
    for (const TValue &element : seq->elements) {
      if (failed(assign(stmt.getTarget(), element)) ||
          failed(genBlock(stmt.getBody())))
        return failure();
      if (returnValue)
        break;
    }
    return success();
  }

  FailureOr<CallArgs> args = genArgs(*call);
  if (failed(args))
    return failure();
  FailureOr<RangeArgs> range =
      rangeArgs(*this, rangeName, *args, call->getLoc());
  if (failed(range))
    return failure();

  if (range->isStatic) {
    int64_t start = range->start.i, end = range->end.i, step = range->step.i;
    // The iteration count, computed without overflow.
    double count = std::ceil((double(end) - double(start)) / double(step));
    if (count > double(maxUnroll))
      return error(iter.getLoc()) << "tl.static_range would unroll more than "
                                  << maxUnroll << " iterations";
    for (int64_t n = 0; double(n) < count; ++n) {
      if (++expansions > maxExpansions)
        return error(iter.getLoc())
               << "too many helper calls and unrolled iterations (more than "
               << maxExpansions << ")";
      int64_t i = int64_t(uint64_t(start) + uint64_t(n) * uint64_t(step));
      if (failed(assign(stmt.getTarget(), TValue::ofInt(i))) ||
          failed(genBlock(stmt.getBody())))
        return failure();
      if (returnValue)
        break;
    }
    return success();
  }

  auto *target = llvm::dyn_cast<NameExprAST>(&stmt.getTarget());
  if (!target)
    return error(stmt.getTarget().getLoc())
           << "the target of a 'for' loop over a range must be a single "
              "name";

  // The induction variable is i32 unless a bound is i64.
  Type ivType = builder.getI32Type();
  for (const TValue *v : {&range->start, &range->end, &range->step})
    if (defaultType(*v).isInteger(64))
      ivType = builder.getI64Type();
  Location l = loc(stmt.getLoc());
  SmallVector<Value, 3> bounds;
  for (const TValue *v : {&range->start, &range->end, &range->step}) {
    FailureOr<Value> b = toValueOfType(*v, ivType, ivType, iter.getLoc());
    if (failed(b))
      return failure();
    bounds.push_back(*b);
  }

  // Generate the loop; if a compile-time number turns out to change inside
  // it, generate it again carrying that number.
  Scope outer = *scope;
  OpBuilder::InsertPoint ip = builder.saveInsertionPoint();
  std::set<size_t> forced;
  for (;;) {
    FailureOr<Carried> carried = findCarried(
        *this, stmt.getBody(), target->getName(), stmt.getLoc(), forced);
    if (failed(carried))
      return failure();
    auto forOp = scf::ForOp::create(builder, l, bounds[0], bounds[1], bounds[2],
                                    carried->inits);
    if (range->unrollFactor)
      tile::setLoopUnrollFactor(forOp, range->unrollFactor);
    if (range->flatten)
      tile::setFlattenRequested(forOp);
    Block *body = forOp.getBody();
    // Without iter_args the builder adds an empty scf.yield; ours replaces
    // it.
    if (!body->empty())
      body->getTerminator()->erase();
    builder.setInsertionPointToStart(body);
    bindCarried(*this, *carried, forOp.getRegionIterArgs());
    Value iv = forOp.getInductionVar();
    if (range->descending)
      iv = arith::AddIOp::create(
          builder, l, arith::SubIOp::create(builder, l, bounds[1], iv),
          bounds[0]);
    define(target->getName(), TValue::of(iv), target->getLoc());
    size_t remarkCount = remarks.size();
    ++regionDepth;
    LogicalResult result = genBlock(stmt.getBody());
    --regionDepth;
    if (failed(result))
      return failure();
    builder.setInsertionPointToEnd(body);
    std::set<size_t> retry;
    FailureOr<SmallVector<Value>> yields =
        yieldCarried(*this, *carried, stmt.getLoc(), outer, retry);
    if (failed(yields))
      return failure();
    if (!retry.empty()) {
      forOp.erase();
      remarks.erase(remarks.begin() + remarkCount, remarks.end());
      *scope = outer;
      builder.restoreInsertionPoint(ip);
      forced.insert(retry.begin(), retry.end());
      continue;
    }
    scf::YieldOp::create(builder, l, *yields);
    Scope inner = *scope;
    restoreScope(*this, outer, inner);
    bindResults(*this, *carried, forOp.getResults(), forOp.getRegionIterArgs(),
                *yields);
    builder.setInsertionPointAfter(forOp);
    return success();
  }
}

//===----------------------------------------------------------------------===//
// while
//===----------------------------------------------------------------------===//

LogicalResult Generator::genWhile(const WhileStmtAST &stmt) {
  if (!stmt.getOrElse().empty())
    return error(stmt.getLoc()) << "'else' after a loop is not supported";
  const StmtAST *savedLoop = innermostLoop;
  llvm::scope_exit restoreLoop([&] { innermostLoop = savedLoop; });
  innermostLoop = &stmt;
  Location l = loc(stmt.getLoc());

  Scope outer = *scope;
  OpBuilder::InsertPoint ip = builder.saveInsertionPoint();
  std::set<size_t> forced;
  for (;;) {
    FailureOr<Carried> carried =
        findCarried(*this, stmt.getBody(), "", stmt.getLoc(), forced);
    if (failed(carried))
      return failure();
    auto whileOp =
        scf::WhileOp::create(builder, l, carried->types, carried->inits);
    SmallVector<Location> locs(carried->types.size(), l);
    size_t remarkCount = remarks.size();

    // The condition, on the carried values.
    Block *before =
        builder.createBlock(&whileOp.getBefore(), {}, carried->types, locs);
    bindCarried(*this, *carried, before->getArguments());
    FailureOr<TValue> cond = genExpr(stmt.getCond());
    if (failed(cond))
      return failure();
    if (cond->tileType())
      return error(stmt.getCond().getLoc())
             << "the condition of a 'while' loop must be a scalar, not "
             << cond->describe();
    FailureOr<Value> c = toBool(*cond, stmt.getCond().getLoc());
    if (failed(c))
      return failure();
    scf::ConditionOp::create(builder, l, *c, before->getArguments());
    *scope = outer;

    // The body.
    Block *after =
        builder.createBlock(&whileOp.getAfter(), {}, carried->types, locs);
    bindCarried(*this, *carried, after->getArguments());
    ++regionDepth;
    LogicalResult result = genBlock(stmt.getBody());
    --regionDepth;
    if (failed(result))
      return failure();
    builder.setInsertionPointToEnd(after);
    std::set<size_t> retry;
    FailureOr<SmallVector<Value>> yields =
        yieldCarried(*this, *carried, stmt.getLoc(), outer, retry);
    if (failed(yields))
      return failure();
    if (!retry.empty()) {
      whileOp.erase();
      remarks.erase(remarks.begin() + remarkCount, remarks.end());
      *scope = outer;
      builder.restoreInsertionPoint(ip);
      forced.insert(retry.begin(), retry.end());
      continue;
    }
    scf::YieldOp::create(builder, l, *yields);
    Scope inner = *scope;
    restoreScope(*this, outer, inner);
    bindResults(*this, *carried, whileOp.getResults(), after->getArguments(),
                *yields);
    builder.setInsertionPointAfter(whileOp);
    return success();
  }
}

//===----------------------------------------------------------------------===//
// if
//===----------------------------------------------------------------------===//

/// Replaces `old` (an scf.if without results whose blocks end with empty
/// yields) by one yielding `thenValues`/`elseValues`.
static scf::IfOp addResults(OpBuilder &b, scf::IfOp old,
                            ArrayRef<Value> thenValues,
                            ArrayRef<Value> elseValues) {
  if (thenValues.empty())
    return old;
  SmallVector<Type> types;
  for (Value v : thenValues)
    types.push_back(v.getType());
  b.setInsertionPoint(old);
  auto newIf = scf::IfOp::create(b, old.getLoc(), types, old.getCondition(),
                                 /*addThenBlock=*/false,
                                 /*addElseBlock=*/false);
  newIf.getThenRegion().takeBody(old.getThenRegion());
  newIf.getElseRegion().takeBody(old.getElseRegion());
  for (auto [block, values] : {std::make_pair(newIf.thenBlock(), thenValues),
                               std::make_pair(newIf.elseBlock(), elseValues)}) {
    Operation *terminator = block->getTerminator();
    b.setInsertionPoint(terminator);
    scf::YieldOp::create(b, terminator->getLoc(), values);
    terminator->erase();
  }
  old.erase();
  return newIf;
}

/// The run-time type two different leaves of a merged variable share, or
/// null if they cannot be merged.
static Type mergedType(Generator &gen, const Leaf &a, const Leaf &b) {
  if (!isDynamicLeaf(a) || !isDynamicLeaf(b))
    return Type();
  if (a.value.isValue() && b.value.isValue())
    return a.value.value.getType() == b.value.value.getType()
               ? a.value.value.getType()
               : Type();
  if (a.value.isValue() || b.value.isValue()) {
    const TValue &v = a.value.isValue() ? a.value : b.value;
    const TValue &c = a.value.isValue() ? b.value : a.value;
    Type t = v.value.getType();
    Type elem = getElementTypeOrSelf(t);
    if (isa<tile::PtrType>(elem))
      return Type();
    if (c.kind == TValue::Kind::Float && !isa<FloatType>(elem))
      return Type();
    return t;
  }
  if (a.hint)
    return a.hint;
  if (a.value.kind == TValue::Kind::Float ||
      b.value.kind == TValue::Kind::Float) {
    Type ta = gen.defaultType(a.value), tb = gen.defaultType(b.value);
    return (ta.isF64() || tb.isF64()) ? Type(gen.builder.getF64Type())
                                      : Type(gen.builder.getF32Type());
  }
  if (a.value.kind == TValue::Kind::Bool && b.value.kind == TValue::Kind::Bool)
    return gen.builder.getI1Type();
  Type ta = gen.defaultType(a.value), tb = gen.defaultType(b.value);
  return ta.getIntOrFloatBitWidth() >= tb.getIntOrFloatBitWidth() ? ta : tb;
}

/// The signedness of a value two branches merge: that of the run-time one
/// (both must agree), else of the constants; std::nullopt if they differ.
static std::optional<bool> mergedSignedness(const TValue &a, const TValue &b) {
  bool ua = Generator::unsignedOf(a), ub = Generator::unsignedOf(b);
  if (a.isValue() && b.isValue() && ua != ub)
    return std::nullopt;
  return a.isValue() ? ua : b.isValue() ? ub : ua || ub;
}

/// Reports a variable whose two branches disagree.
static LogicalResult branchMismatch(Generator &gen, const std::string &name,
                                    const TValue &a, const TValue &b,
                                    llvm::SMLoc ifLoc, const Scope &thenScope,
                                    const Scope &elseScope) {
  auto diag = gen.error(ifLoc)
              << "'" << name << "' is " << a.describe()
              << " after the 'then' branch but " << b.describe()
              << " after the 'else' branch of this run-time 'if'";
  for (auto [scope, branch] : {std::make_pair(&thenScope, "then"),
                               std::make_pair(&elseScope, "else")}) {
    auto it = scope->defLocs.find(name);
    if (it != scope->defLocs.end() && it->second.isValid())
      diag.attachNote(gen.loc(it->second))
          << "'" << name << "' is last assigned here (" << branch << " branch)";
  }
  return diag;
}

FailureOr<TValue> Generator::mergeBranchValues(scf::IfOp &ifOp, const TValue &a,
                                               const TValue &b, llvm::SMLoc l) {
  if (a.sameAs(b))
    return a;
  SmallVector<Leaf> al, bl;
  if (!sameSkeleton(a, b))
    return failure();
  flatten(a, al);
  flatten(b, bl);
  if (al.size() != bl.size())
    return failure();
  SmallVector<TValue> leaves;
  SmallVector<int> resultIndex;
  SmallVector<Value> thenValues, elseValues;
  OpBuilder::InsertionGuard guard(builder);
  for (auto [x, y] : llvm::zip_equal(al, bl)) {
    if (x.value.sameAs(y.value)) {
      leaves.push_back(x.value);
      resultIndex.push_back(-1);
      continue;
    }
    Type type = mergedType(*this, x, y);
    std::optional<bool> isUnsigned = mergedSignedness(x.value, y.value);
    if (!type || !isUnsigned)
      return failure();
    Type elem = getElementTypeOrSelf(type);
    builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    FailureOr<Value> tv = toValueOfType(x.value, elem, type, l, *isUnsigned);
    builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    FailureOr<Value> ev = toValueOfType(y.value, elem, type, l, *isUnsigned);
    if (failed(tv) || failed(ev))
      return failure();
    leaves.push_back(TValue::of(Value(), *isUnsigned));
    resultIndex.push_back(thenValues.size());
    thenValues.push_back(*tv);
    elseValues.push_back(*ev);
  }
  ifOp = addResults(builder, ifOp, thenValues, elseValues);
  for (auto [leaf, index] : llvm::zip_equal(leaves, resultIndex))
    if (index >= 0)
      leaf = TValue::of(ifOp.getResult(index), leaf.isUnsigned);
  size_t pos = 0;
  return unflatten(a, leaves, pos);
}

LogicalResult Generator::genIf(const IfStmtAST &stmt) {
  FailureOr<TValue> cond = genExpr(stmt.getCond());
  if (failed(cond))
    return failure();
  if (!cond->isValue()) {
    FailureOr<bool> truth = constTruth(*cond, stmt.getCond().getLoc());
    if (failed(truth))
      return failure();
    return genBlock(*truth ? stmt.getThen() : stmt.getElse());
  }
  if (cond->tileType())
    return error(stmt.getCond().getLoc())
           << "the condition of an 'if' must be a scalar, not "
           << cond->describe() << "; use tl.where to select between tiles";
  FailureOr<Value> c = toBool(*cond, stmt.getCond().getLoc());
  if (failed(c))
    return failure();
  Location l = loc(stmt.getLoc());
  auto ifOp = scf::IfOp::create(builder, l, TypeRange(), *c,
                                /*withElseRegion=*/true);

  Scope outer = *scope;
  ++regionDepth;
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  LogicalResult thenResult = genBlock(stmt.getThen());
  Scope thenScope = *scope;
  *scope = outer;
  LogicalResult elseResult = success();
  if (succeeded(thenResult)) {
    builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    elseResult = genBlock(stmt.getElse());
  }
  Scope elseScope = *scope;
  --regionDepth;
  if (failed(thenResult) || failed(elseResult))
    return failure();

  // Merge the variables of the two branches.
  Scope merged = outer;
  SmallVector<Value> thenValues, elseValues;
  struct Pending {
    std::string name;
    TValue shape;
    SmallVector<TValue> leaves;
    SmallVector<int> resultIndex; ///< -1: the leaf is the same in both
  };
  std::vector<Pending> pending;
  std::set<std::string> names;
  for (const auto &entry : thenScope.values)
    names.insert(entry.first);
  for (const auto &entry : elseScope.values)
    names.insert(entry.first);
  for (const std::string &name : names) {
    auto t = thenScope.values.find(name), e = elseScope.values.find(name);
    bool inThen = t != thenScope.values.end();
    bool inElse = e != elseScope.values.end();
    if (!inThen || !inElse) {
      const Scope &where = inThen ? thenScope : elseScope;
      auto at = where.defLocs.find(name);
      merged.hidden[name] = {
          at != where.defLocs.end() ? at->second : llvm::SMLoc(), false};
      continue;
    }
    auto defAt = [&](const Scope &s) {
      auto it = s.defLocs.find(name);
      return it != s.defLocs.end() ? it->second : llvm::SMLoc();
    };
    merged.defLocs[name] =
        defAt(thenScope).isValid() ? defAt(thenScope) : defAt(elseScope);
    if (t->second.sameAs(e->second)) {
      merged.values[name] = t->second;
      continue;
    }
    if (!sameSkeleton(t->second, e->second))
      return branchMismatch(*this, name, t->second, e->second, stmt.getLoc(),
                            thenScope, elseScope);
    SmallVector<Leaf> tl, el;
    flatten(t->second, tl);
    flatten(e->second, el);
    if (tl.size() != el.size())
      return branchMismatch(*this, name, t->second, e->second, stmt.getLoc(),
                            thenScope, elseScope);
    Pending p{name, t->second, {}, {}};
    for (auto [a, b] : llvm::zip_equal(tl, el)) {
      if (a.value.sameAs(b.value)) {
        p.leaves.push_back(a.value);
        p.resultIndex.push_back(-1);
        continue;
      }
      Type type = mergedType(*this, a, b);
      std::optional<bool> isUnsigned = mergedSignedness(a.value, b.value);
      if (!type || !isUnsigned)
        return branchMismatch(*this, name, t->second, e->second, stmt.getLoc(),
                              thenScope, elseScope);
      Type elem = getElementTypeOrSelf(type);
      builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      FailureOr<Value> tv =
          toValueOfType(a.value, elem, type, stmt.getLoc(), *isUnsigned);
      if (failed(tv))
        return failure();
      builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      FailureOr<Value> ev =
          toValueOfType(b.value, elem, type, stmt.getLoc(), *isUnsigned);
      if (failed(ev))
        return failure();
      // A placeholder for the result, with its signedness.
      p.leaves.push_back(TValue::of(Value(), *isUnsigned));
      p.resultIndex.push_back(thenValues.size());
      thenValues.push_back(*tv);
      elseValues.push_back(*ev);
    }
    pending.push_back(std::move(p));
  }
  scf::IfOp result = addResults(builder, ifOp, thenValues, elseValues);
  for (Pending &p : pending) {
    for (auto [leaf, index] : llvm::zip_equal(p.leaves, p.resultIndex))
      if (index >= 0)
        leaf = TValue::of(result.getResult(index), leaf.isUnsigned);
    size_t pos = 0;
    merged.values[p.name] = unflatten(p.shape, p.leaves, pos);
  }
  *scope = std::move(merged);
  builder.setInsertionPointAfter(result);
  return success();
}

FailureOr<TValue> Generator::genIfExp(const IfExpAST &expr) {
  FailureOr<TValue> cond = genExpr(expr.getCond());
  if (failed(cond))
    return failure();
  if (!cond->isValue()) {
    FailureOr<bool> truth = constTruth(*cond, expr.getCond().getLoc());
    if (failed(truth))
      return failure();
    return genExpr(*truth ? expr.getThen() : expr.getElse());
  }
  if (cond->tileType()) {
    // A tile condition selects elementwise (both sides are evaluated).
    FailureOr<TValue> a = genExpr(expr.getThen());
    if (failed(a))
      return failure();
    FailureOr<TValue> b = genExpr(expr.getElse());
    if (failed(b))
      return failure();
    return genWhere(*cond, *a, *b, expr.getLoc());
  }
  FailureOr<Value> c = toBool(*cond, expr.getCond().getLoc());
  if (failed(c))
    return failure();
  auto ifOp = scf::IfOp::create(builder, loc(expr.getLoc()), TypeRange(), *c,
                                /*withElseRegion=*/true);
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  FailureOr<TValue> a = genExpr(expr.getThen());
  if (failed(a))
    return failure();
  builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  FailureOr<TValue> b = genExpr(expr.getElse());
  if (failed(b))
    return failure();
  if (a->sameAs(*b)) {
    builder.setInsertionPointAfter(ifOp);
    return *a;
  }
  Type type = mergedType(*this, Leaf{*a, Type()}, Leaf{*b, Type()});
  std::optional<bool> isUnsigned = mergedSignedness(*a, *b);
  if (!type || !isUnsigned)
    return error(expr.getLoc())
           << "the two values of a conditional expression with a run-time "
              "condition must have the same type, not "
           << a->describe() << " and " << b->describe();
  Type elem = getElementTypeOrSelf(type);
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  FailureOr<Value> tv =
      toValueOfType(*a, elem, type, expr.getLoc(), *isUnsigned);
  if (failed(tv))
    return failure();
  builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  FailureOr<Value> ev =
      toValueOfType(*b, elem, type, expr.getLoc(), *isUnsigned);
  if (failed(ev))
    return failure();
  scf::IfOp result = addResults(builder, ifOp, {*tv}, {*ev});
  builder.setInsertionPointAfter(result);
  return TValue::of(result.getResult(0), *isUnsigned);
}
