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

using namespace mlir;
using namespace tilec;

LogicalResult Generator::genBlock(const StmtList &body) {
  for (const StmtPtr &stmt : body) {
    // After a `return` (possibly inside a compile-time `if`), the rest of the
    // function is dead code, as in Python.
    if (returnValue)
      return success();
    if (failed(genStmt(*stmt)))
      return failure();
  }
  return success();
}

void Generator::define(llvm::StringRef name, const TValue &value,
                       llvm::SMLoc l) {
  std::string key = name.str();
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
  if (llvm::isa<AttributeExprAST>(target))
    return error(target.getLoc()) << "assigning to an attribute is not "
                                     "supported";
  return error(target.getLoc()) << "cannot assign to this expression";
}

LogicalResult Generator::genStmt(const StmtAST &stmt) {
  switch (stmt.getKind()) {
  case StmtAST::Stmt_Expr: {
    const auto &expr = llvm::cast<ExprStmtAST>(stmt);
    if (llvm::isa<StringExprAST>(expr.getValue()))
      return success(); // docstring
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
    if (regionDepth > 0)
      return error(stmt.getLoc())
             << "'return' inside a run-time 'if' or loop is not supported; "
                "assign the result to a variable and return after it";
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
    if (cond->isValue())
      return error(s.getCond().getLoc())
             << "'assert' on run-time values is not supported (nor is "
                "tl.device_assert)";
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
  case StmtAST::Stmt_Unsupported:
    return error(stmt.getLoc())
           << "'" << llvm::cast<UnsupportedStmtAST>(stmt).getKeyword()
           << "' is not supported in tilec kernels";
  }
  return error(stmt.getLoc()) << "unsupported statement";
}
