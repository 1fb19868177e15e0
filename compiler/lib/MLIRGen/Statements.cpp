//===- Statements.cpp - Statements of kernel bodies -------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Assignments (with tuple unpacking), augmented assignments, expression
// statements, `return`, `assert` and the statements tilec rejects. Control
// flow (`if`, `for`, `while`) is in ControlFlow.cpp. A statement that tilec
// does not support is reported at its keyword.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec;

/// The `return` that ends `body`, if it ends with one.
static const ReturnStmtAST *endingReturn(const StmtList &body) {
  return body.empty() ? nullptr
                      : llvm::dyn_cast<ReturnStmtAST>(body.back().get());
}

LogicalResult Generator::genBlock(const StmtList &body, size_t start) {
  for (size_t i = start; i < body.size(); ++i) {
    // After a `return` (possibly inside a compile-time `if`), the rest of the
    // function is dead code, as in Python.
    if (returnValue)
      return success();
    const StmtAST &stmt = *body[i];
    // `if cond: ...; return [value]` with a run-time cond: its `else` and
    // the rest of the function become the `else` branch.
    auto *ifStmt = llvm::dyn_cast<IfStmtAST>(&stmt);
    if (ifStmt && endingReturn(ifStmt->getThen()) &&
        (regionDepth == 0 || int(regionDepth) == earlyExitDepth)) {
      FailureOr<TValue> cond = genExpr(ifStmt->getCond());
      if (failed(cond))
        return failure();
      if (cond->isValue() && !cond->tileType())
        return genEarlyExit(*ifStmt, *cond, body, i + 1);
      if (!cond->isValue()) {
        FailureOr<bool> truth = constTruth(*cond, ifStmt->getCond().getLoc());
        if (failed(truth))
          return failure();
        continuations.push_back({&body, i + 1});
        LogicalResult r =
            genBlock(*truth ? ifStmt->getThen() : ifStmt->getElse());
        continuations.pop_back();
        if (failed(r))
          return failure();
        continue;
      }
      // A tile condition: genIf reports it.
    }
    continuations.push_back({&body, i + 1});
    LogicalResult r = genStmt(stmt);
    continuations.pop_back();
    if (failed(r))
      return failure();
  }
  return success();
}

LogicalResult Generator::genEarlyExit(const IfStmtAST &stmt, const TValue &cond,
                                      const StmtList &body, size_t next) {
  FailureOr<Value> c = toBool(cond, stmt.getCond().getLoc());
  if (failed(c))
    return failure();
  Location location = loc(stmt.getLoc());
  auto ifOp = scf::IfOp::create(builder, location, TypeRange(), *c,
                                /*withElseRegion=*/true);
  Scope outer = *scope;
  ++regionDepth;
  // The branch that returns, then the value it returns.
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  const StmtList &then = stmt.getThen();
  for (size_t i = 0; i + 1 < then.size(); ++i)
    if (failed(genStmt(*then[i])))
      return failure();
  const ReturnStmtAST &thenReturn = *endingReturn(then);
  TValue thenValue;
  if (thenReturn.getValue()) {
    FailureOr<TValue> v = genExpr(*thenReturn.getValue());
    if (failed(v))
      return failure();
    thenValue = *v;
  }
  *scope = outer;
  // The other: the `else` statements, then what follows, in this block and
  // in the enclosing ones that continue the function (compile-time `if`s),
  // innermost last.
  builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  int savedExitDepth = earlyExitDepth;
  size_t savedBase = continuationBase;
  earlyExitDepth = regionDepth;
  std::vector<std::pair<const StmtList *, size_t>> rest(
      continuations.begin() + continuationBase, continuations.end());
  rest.push_back({&body, next});
  continuationBase = continuations.size();
  continuations.insert(continuations.end(), rest.begin(), rest.end());
  LogicalResult result = genBlock(stmt.getElse());
  continuations.resize(continuationBase);
  for (auto it = rest.rbegin(); succeeded(result) && it != rest.rend(); ++it)
    result = genBlock(*it->first, it->second);
  continuationBase = savedBase;
  earlyExitDepth = savedExitDepth;
  --regionDepth;
  *scope = outer;
  if (failed(result))
    return failure();
  TValue elseValue = returnValue.value_or(TValue());
  // Everything after was generated in the `else` branch.
  returnValue = TValue();
  if (thenValue.kind == TValue::Kind::None &&
      elseValue.kind == TValue::Kind::None) {
    builder.setInsertionPointAfter(ifOp);
    return success();
  }
  // The values both paths return, merged as an `if` merges a variable.
  FailureOr<TValue> merged =
      mergeBranchValues(ifOp, thenValue, elseValue, thenReturn.getLoc());
  if (failed(merged))
    return error(thenReturn.getLoc())
           << "this 'return' inside a run-time 'if' returns "
           << thenValue.describe() << ", but the function returns "
           << elseValue.describe()
           << " on the other path; both must return the same type";
  builder.setInsertionPointAfter(ifOp);
  returnValue = *merged;
  return success();
}

void Generator::define(llvm::StringRef name, const TValue &value,
                       llvm::SMLoc l) {
  std::string key = name.str();
  if (scope->globalNames.count(key)) {
    globals()[key] = value;
    return;
  }
  scope->values[key] = value;
  scope->defLocs[key] = l;
  scope->hidden.erase(key);
}

LogicalResult Generator::assign(const ExprAST &target, const TValue &value) {
  if (auto *name = llvm::dyn_cast<NameExprAST>(&target)) {
    define(name->getName(), value, target.getLoc());
    return success();
  }
  if (llvm::isa<TupleExprAST, ListExprAST>(target)) {
    const ExprList &targets =
        llvm::isa<TupleExprAST>(target)
            ? llvm::cast<TupleExprAST>(target).getElements()
            : llvm::cast<ListExprAST>(target).getElements();
    if (value.kind != TValue::Kind::Tuple)
      return error(target.getLoc()) << "cannot unpack " << value.describe()
                                    << " into " << targets.size() << " names";
    // `*rest, last = t`: the starred name takes what the others leave.
    auto star = llvm::find_if(targets, [](const ExprPtr &t) {
      return llvm::isa<StarredExprAST>(t.get());
    });
    if (star != targets.end()) {
      size_t before = star - targets.begin();
      size_t after = targets.size() - before - 1;
      if (value.elements.size() < before + after)
        return error(target.getLoc())
               << "cannot unpack " << value.elements.size()
               << " values into at least " << before + after << " names";
      size_t restEnd = value.elements.size() - after;
      for (size_t i = 0; i < before; ++i)
        if (failed(assign(*targets[i], value.elements[i])))
          return failure();
      std::vector<TValue> rest(value.elements.begin() + before,
                               value.elements.begin() + restEnd);
      if (failed(assign(llvm::cast<StarredExprAST>(**star).getValue(),
                        TValue::ofTuple(std::move(rest)))))
        return failure();
      for (size_t i = 0; i < after; ++i)
        if (failed(
                assign(*targets[before + 1 + i], value.elements[restEnd + i])))
          return failure();
      return success();
    }
    if (value.elements.size() != targets.size())
      return error(target.getLoc())
             << "cannot unpack " << value.elements.size() << " values into "
             << targets.size() << " names";
    for (auto [t, v] : llvm::zip_equal(targets, value.elements))
      if (failed(assign(*t, v)))
        return failure();
    return success();
  }
  if (llvm::isa<SubscriptExprAST>(target))
    return error(target.getLoc())
           << "tiles are values: assigning to an element is not supported";
  if (auto *attr = llvm::dyn_cast<AttributeExprAST>(&target)) {
    // Only objects with settable attributes (a pre_hook's descriptors).
    FailureOr<TValue> base = genExpr(attr->getValue());
    if (failed(base))
      return failure();
    if (base->kind != TValue::Kind::Object || !base->mutableAttributes)
      return error(target.getLoc()) << "assigning to an attribute of "
                                    << base->describe() << " is not supported";
    for (auto [key, current] : llvm::zip(base->keys, *base->mutableAttributes))
      if (key.s == attr->getAttr()) {
        current = value;
        return success();
      }
    return error(target.getLoc()) << base->describe() << " has no attribute '"
                                  << attr->getAttr() << "'";
  }
  return error(target.getLoc()) << "cannot assign to this expression";
}

std::optional<FailureOr<std::pair<std::string, TValue>>>
Generator::listMutation(const ExprAST &expr) {
  auto *call = llvm::dyn_cast<CallExprAST>(&expr);
  auto *method =
      call ? llvm::dyn_cast<AttributeExprAST>(&call->getCallee()) : nullptr;
  auto *name =
      method ? llvm::dyn_cast<NameExprAST>(&method->getValue()) : nullptr;
  if (!name ||
      !llvm::is_contained({"append", "extend", "insert"}, method->getAttr()))
    return std::nullopt;
  std::optional<TValue> list;
  withErrorsHeld([&] {
    FailureOr<TValue> v = genName(*name);
    if (succeeded(v) && v->kind == TValue::Kind::Tuple)
      list = *v;
    return true;
  });
  if (!list)
    return std::nullopt;
  FailureOr<CallArgs> args = genArgs(*call);
  if (failed(args))
    return FailureOr<std::pair<std::string, TValue>>(failure());
  llvm::StringRef attr = method->getAttr();
  Binder bind(*this, attr, *args, call->getLoc());
  std::vector<TValue> &elements = list->elements;
  auto fail = [] {
    return FailureOr<std::pair<std::string, TValue>>(failure());
  };
  if (attr == "append") {
    if (failed(bind.bind({"object"}, 1)))
      return fail();
    elements.push_back(bind.get(0));
  } else if (attr == "extend") {
    if (failed(bind.bind({"iterable"}, 1)))
      return fail();
    if (bind.get(0).kind != TValue::Kind::Tuple) {
      (void)(error(call->getLoc())
             << "list.extend expects a list or tuple, not "
             << bind.get(0).describe());
      return fail();
    }
    llvm::append_range(elements, bind.get(0).elements);
  } else {
    if (failed(bind.bind({"index", "object"}, 2)))
      return fail();
    if (bind.get(0).kind != TValue::Kind::Int) {
      (void)(error(call->getLoc())
             << "list.insert expects an integer index, not "
             << bind.get(0).describe());
      return fail();
    }
    // Python clamps the index to the list.
    int64_t size = elements.size();
    int64_t at = bind.get(0).i < 0 ? bind.get(0).i + size : bind.get(0).i;
    at = std::clamp<int64_t>(at, 0, size);
    elements.insert(elements.begin() + at, bind.get(1));
  }
  return FailureOr<std::pair<std::string, TValue>>(
      std::make_pair(name->getName().str(), *list));
}

bool Generator::runTry(const UnsupportedStmtAST &stmt,
                       llvm::function_ref<bool(const StmtList &)> run) {
  const auto &clauses = stmt.getClauses();
  bool ok = withErrorsHeld([&] { return run(clauses[0].body); });
  if (!ok)
    returnValue.reset();
  bool returned = ok && returnValue.has_value(), handled = ok;
  for (const UnsupportedClause &clause : llvm::drop_begin(clauses)) {
    bool runs = clause.keyword == "finally" ||
                (clause.keyword == "else" && ok && !returned) ||
                (clause.keyword == "except" && !handled);
    if (clause.keyword == "except" && !handled)
      handled = true; // the first handler only
    if (runs && !run(clause.body))
      return false;
  }
  // No handler: the body's error, shown now.
  if (!handled)
    return run(clauses[0].body) && false;
  return true;
}

LogicalResult Generator::genStmt(const StmtAST &stmt) {
  switch (stmt.getKind()) {
  case StmtAST::Stmt_Expr: {
    const auto &expr = llvm::cast<ExprStmtAST>(stmt);
    if (llvm::isa<StringExprAST>(expr.getValue()))
      return success(); // docstring
    if (auto mutation = listMutation(expr.getValue())) {
      if (failed(*mutation))
        return failure();
      define((*mutation)->first, (*mutation)->second, expr.getLoc());
      return success();
    }
    return genExpr(expr.getValue());
  }
  case StmtAST::Stmt_Assign: {
    const auto &a = llvm::cast<AssignStmtAST>(stmt);
    FailureOr<TValue> value = genExpr(a.getValue());
    if (failed(value))
      return failure();
    for (const ExprPtr &target : a.getTargets())
      if (failed(assign(*target, *value)))
        return failure();
    return success();
  }
  case StmtAST::Stmt_AnnAssign: {
    const auto &a = llvm::cast<AnnAssignStmtAST>(stmt);
    if (!a.getValue())
      return success();
    FailureOr<TValue> value = genExpr(*a.getValue());
    if (failed(value))
      return failure();
    return assign(a.getTarget(), *value);
  }
  case StmtAST::Stmt_AugAssign: {
    const auto &a = llvm::cast<AugAssignStmtAST>(stmt);
    if (!llvm::isa<NameExprAST>(a.getTarget()))
      return error(a.getTarget().getLoc())
             << "augmented assignment needs a plain name";
    FailureOr<TValue> current = genExpr(a.getTarget());
    if (failed(current))
      return failure();
    FailureOr<TValue> value = genExpr(a.getValue());
    if (failed(value))
      return failure();
    FailureOr<TValue> result =
        genBinary(a.getOp(), *current, *value, a.getOpLoc());
    if (failed(result))
      return failure();
    return assign(a.getTarget(), *result);
  }
  case StmtAST::Stmt_Pass:
    return success();
  case StmtAST::Stmt_Return: {
    const auto &r = llvm::cast<ReturnStmtAST>(stmt);
    // A `return` that ends the rest of the function after an early exit
    // (genEarlyExit) is where that branch ends.
    if (regionDepth > 0 && int(regionDepth) != earlyExitDepth)
      return error(stmt.getLoc())
             << "'return' inside a run-time loop, or inside a run-time 'if' "
                "other than as the last statement of its first branch, is "
                "not supported; assign the result to a variable and return "
                "after it";
    TValue value;
    if (r.getValue()) {
      FailureOr<TValue> v = genExpr(*r.getValue());
      if (failed(v))
        return failure();
      value = *v;
    }
    if (callDepth == 0 && value.kind != TValue::Kind::None)
      return error(stmt.getLoc()) << "a kernel cannot return a value";
    returnValue = value;
    return success();
  }
  case StmtAST::Stmt_If:
    return genIf(llvm::cast<IfStmtAST>(stmt));
  case StmtAST::Stmt_For:
    return genFor(llvm::cast<ForStmtAST>(stmt));
  case StmtAST::Stmt_While:
    return genWhile(llvm::cast<WhileStmtAST>(stmt));
  case StmtAST::Stmt_Break:
  case StmtAST::Stmt_Continue: {
    bool isBreak = stmt.getKind() == StmtAST::Stmt_Break;
    if (!innermostLoop)
      return error(stmt.getLoc())
             << "'" << (isBreak ? "break" : "continue") << "' outside a loop";
    return error(stmt.getLoc())
           << "'" << (isBreak ? "break" : "continue")
           << "' is not supported in tilec kernels; use a 'while' loop "
              "condition or tl.where instead";
  }
  case StmtAST::Stmt_Assert: {
    const auto &s = llvm::cast<AssertStmtAST>(stmt);
    FailureOr<TValue> cond = genExpr(s.getCond());
    if (failed(cond))
      return failure();
    if (cond->isValue()) {
      // As in Triton: tl.device_assert, checked in debug mode (--debug).
      CallArgs args;
      args.positional.push_back(*cond);
      args.positionalRanges.push_back(s.getCond().getRange());
      if (s.getMsg()) {
        FailureOr<TValue> msg = genExpr(*s.getMsg());
        if (failed(msg))
          return failure();
        args.positional.push_back(*msg);
        args.positionalRanges.push_back(s.getMsg()->getRange());
      }
      return callBuiltin("device_assert", args, stmt.getLoc());
    }
    FailureOr<bool> truth = constTruth(*cond, s.getCond().getLoc());
    if (failed(truth))
      return failure();
    if (!*truth) {
      auto diag = error(stmt.getLoc()) << "assertion failed";
      if (s.getMsg()) {
        FailureOr<TValue> msg = genExpr(*s.getMsg());
        if (succeeded(msg) && msg->kind == TValue::Kind::String)
          diag << ": " << msg->s;
      }
      return diag;
    }
    return success();
  }
  case StmtAST::Stmt_Import:
  case StmtAST::Stmt_FromImport:
    return error(stmt.getLoc())
           << "imports must be at the top level of the file";
  case StmtAST::Stmt_FunctionDef:
    return error(stmt.getLoc()) << "nested functions are not supported";
  case StmtAST::Stmt_Unsupported: {
    const auto &other = llvm::cast<UnsupportedStmtAST>(stmt);
    if (hostDepth && other.getKeyword() == "try")
      return success(runTry(other, [&](const StmtList &block) {
        return succeeded(genBlock(block));
      }));
    // `global x` in a host function: `x` is its module's.
    if (hostDepth && hostCallDepth && other.getKeyword() == "global") {
      scope->globalNames.insert(other.getDeclaredNames().begin(),
                                other.getDeclaredNames().end());
      return success();
    }
    return hostError(stmt.getLoc())
           << "'" << other.getKeyword() << "' is not supported in "
           << whereGenerated();
  }
  }
  return error(stmt.getLoc()) << "unsupported statement";
}
