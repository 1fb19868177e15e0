//===- AST.h - Abstract syntax tree of .tile sources ------------*- C++ -*-===//
//
// Part of tilec. A .tile file is the Triton kernel subset of Python.
//
//===----------------------------------------------------------------------===//
//
// This file declares the AST produced by the parser. Nodes own their children
// through std::unique_ptr, carry the source range they were parsed from, and
// use LLVM-style RTTI (a kind enum plus classof) so that code generation can
// dispatch with llvm::dyn_cast.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
class SourceMgr;
} // namespace llvm

namespace tilec {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Base class of every expression node.
class ExprAST {
public:
  enum ExprKind {
    Expr_Name,          ///< `x`
    Expr_Int,           ///< `42`, `0x10`, `1_000`
    Expr_Float,         ///< `1.5`, `1e-5`
    Expr_Bool,          ///< `True`, `False`
    Expr_None,          ///< `None`
    Expr_String,        ///< `"zero"` (adjacent literals are concatenated)
    Expr_Attribute,     ///< `tl.float32`, `x.to`
    Expr_Call,          ///< `f(a, b, key=c)`
    Expr_Binary,        ///< `a + b`, `a < b`, `a and b`
    Expr_Unary,         ///< `-a`, `~a`, `not a`, `+a`
    Expr_Subscript,     ///< `a[:, None]`
    Expr_Slice,         ///< `lo:hi:step` inside a subscript
    Expr_Tuple,         ///< `(a, b)` or `a, b`
    Expr_List,          ///< `[a, b]`
    Expr_IfExp,         ///< `a if c else b`
    Expr_Dict,          ///< `{k: v, ...}`
    Expr_Lambda,        ///< `lambda args: body`
    Expr_Comprehension, ///< `[e for x in xs if c]`, `(e for x in xs)`
    Expr_FString,       ///< `f"..."` (rejected when evaluated)
    Expr_Starred,       ///< `*args` or `**kwargs` in a call's arguments
    Expr_Named,         ///< `name := value` (host code only)
    Expr_HostOnly,      ///< Python tilec parses but never evaluates
  };

  ExprAST(ExprKind kind, llvm::SMRange range) : kind(kind), range(range) {}
  virtual ~ExprAST() = default;

  ExprKind getKind() const { return kind; }
  /// The whole source range of the expression.
  llvm::SMRange getRange() const { return range; }
  /// The location diagnostics about this expression point at. For binary
  /// operators this is the operator token, for calls the callee.
  llvm::SMLoc getLoc() const { return loc.isValid() ? loc : range.Start; }
  void setLoc(llvm::SMLoc l) { loc = l; }

private:
  const ExprKind kind;
  llvm::SMRange range;
  llvm::SMLoc loc;
};

using ExprPtr = std::unique_ptr<ExprAST>;
using ExprList = std::vector<ExprPtr>;

/// A bare identifier.
class NameExprAST : public ExprAST {
public:
  NameExprAST(llvm::SMRange range, std::string name)
      : ExprAST(Expr_Name, range), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Name; }

private:
  std::string name;
};

/// An integer literal. Python integers are unbounded; literals that do not fit
/// in 64 bits are rejected by the lexer.
class IntExprAST : public ExprAST {
public:
  IntExprAST(llvm::SMRange range, int64_t value)
      : ExprAST(Expr_Int, range), value(value) {}
  int64_t getValue() const { return value; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Int; }

private:
  int64_t value;
};

/// A floating-point literal.
class FloatExprAST : public ExprAST {
public:
  FloatExprAST(llvm::SMRange range, double value)
      : ExprAST(Expr_Float, range), value(value) {}
  double getValue() const { return value; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Float; }

private:
  double value;
};

/// `True` or `False`.
class BoolExprAST : public ExprAST {
public:
  BoolExprAST(llvm::SMRange range, bool value)
      : ExprAST(Expr_Bool, range), value(value) {}
  bool getValue() const { return value; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Bool; }

private:
  bool value;
};

/// `None`.
class NoneExprAST : public ExprAST {
public:
  explicit NoneExprAST(llvm::SMRange range) : ExprAST(Expr_None, range) {}
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_None; }
};

/// A string literal with escapes already decoded.
class StringExprAST : public ExprAST {
public:
  StringExprAST(llvm::SMRange range, std::string value)
      : ExprAST(Expr_String, range), value(std::move(value)) {}
  llvm::StringRef getValue() const { return value; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_String; }

private:
  std::string value;
};

/// `value.attr`.
class AttributeExprAST : public ExprAST {
public:
  AttributeExprAST(llvm::SMRange range, ExprPtr value, std::string attr)
      : ExprAST(Expr_Attribute, range), value(std::move(value)),
        attr(std::move(attr)) {}
  const ExprAST &getValue() const { return *value; }
  llvm::StringRef getAttr() const { return attr; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Expr_Attribute;
  }

private:
  ExprPtr value;
  std::string attr;
};

/// One `name=value` argument of a call.
struct KeywordArg {
  std::string name;
  llvm::SMRange nameRange;
  ExprPtr value;
};

/// `callee(args..., keywords...)`.
class CallExprAST : public ExprAST {
public:
  CallExprAST(llvm::SMRange range, ExprPtr callee, ExprList args,
              std::vector<KeywordArg> keywords)
      : ExprAST(Expr_Call, range), callee(std::move(callee)),
        args(std::move(args)), keywords(std::move(keywords)) {}
  const ExprAST &getCallee() const { return *callee; }
  const ExprList &getArgs() const { return args; }
  const std::vector<KeywordArg> &getKeywords() const { return keywords; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Call; }

private:
  ExprPtr callee;
  ExprList args;
  std::vector<KeywordArg> keywords;
};

/// Binary operators, including comparisons and the short-circuit `and`/`or`.
enum class BinaryOp {
  Add,
  Sub,
  Mul,
  Div,      ///< `/`
  FloorDiv, ///< `//`
  Mod,
  Pow,
  MatMul, ///< `@`
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  Is,
  IsNot,
  In,
  NotIn,
  And, ///< `and`
  Or,  ///< `or`
};

/// The source spelling of a binary operator (`+`, `//`, `and`, `is not`...).
llvm::StringRef spell(BinaryOp op);

/// `lhs op rhs`. A chained comparison `a < b < c` is parsed as
/// `(a < b) and (b < c)` would be in Python, but represented as a left-nested
/// pair of comparisons marked chained so that the code generator can reject it.
class BinaryExprAST : public ExprAST {
public:
  BinaryExprAST(llvm::SMRange range, BinaryOp op, ExprPtr lhs, ExprPtr rhs,
                bool chained = false)
      : ExprAST(Expr_Binary, range), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)), chained(chained) {}
  BinaryOp getOp() const { return op; }
  const ExprAST &getLHS() const { return *lhs; }
  const ExprAST &getRHS() const { return *rhs; }
  /// True for the second and later comparisons of a chain like `a < b < c`.
  bool isChained() const { return chained; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Binary; }

private:
  BinaryOp op;
  ExprPtr lhs, rhs;
  bool chained;
};

/// Unary operators.
enum class UnaryOp { Neg, Plus, Invert, Not };

/// The source spelling of a unary operator.
llvm::StringRef spell(UnaryOp op);

/// `op operand`.
class UnaryExprAST : public ExprAST {
public:
  UnaryExprAST(llvm::SMRange range, UnaryOp op, ExprPtr operand)
      : ExprAST(Expr_Unary, range), op(op), operand(std::move(operand)) {}
  UnaryOp getOp() const { return op; }
  const ExprAST &getOperand() const { return *operand; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Unary; }

private:
  UnaryOp op;
  ExprPtr operand;
};

/// `lower:upper:step`, any part may be absent. Only valid as a subscript
/// index.
class SliceExprAST : public ExprAST {
public:
  SliceExprAST(llvm::SMRange range, ExprPtr lower, ExprPtr upper, ExprPtr step)
      : ExprAST(Expr_Slice, range), lower(std::move(lower)),
        upper(std::move(upper)), step(std::move(step)) {}
  const ExprAST *getLower() const { return lower.get(); }
  const ExprAST *getUpper() const { return upper.get(); }
  const ExprAST *getStep() const { return step.get(); }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Slice; }

private:
  ExprPtr lower, upper, step;
};

/// `value[indices...]`. `x[:, None]` has two indices: a SliceExprAST and a
/// NoneExprAST. A single index without a trailing comma is one index.
class SubscriptExprAST : public ExprAST {
public:
  SubscriptExprAST(llvm::SMRange range, ExprPtr value, ExprList indices)
      : ExprAST(Expr_Subscript, range), value(std::move(value)),
        indices(std::move(indices)) {}
  const ExprAST &getValue() const { return *value; }
  const ExprList &getIndices() const { return indices; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Expr_Subscript;
  }

private:
  ExprPtr value;
  ExprList indices;
};

/// `(a, b)`, `a, b` or `()`.
class TupleExprAST : public ExprAST {
public:
  TupleExprAST(llvm::SMRange range, ExprList elements)
      : ExprAST(Expr_Tuple, range), elements(std::move(elements)) {}
  const ExprList &getElements() const { return elements; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Tuple; }

private:
  ExprList elements;
};

/// `[a, b]`.
class ListExprAST : public ExprAST {
public:
  ListExprAST(llvm::SMRange range, ExprList elements)
      : ExprAST(Expr_List, range), elements(std::move(elements)) {}
  const ExprList &getElements() const { return elements; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_List; }

private:
  ExprList elements;
};

/// `then if cond else otherwise`.
class IfExpAST : public ExprAST {
public:
  IfExpAST(llvm::SMRange range, ExprPtr cond, ExprPtr thenValue,
           ExprPtr elseValue)
      : ExprAST(Expr_IfExp, range), cond(std::move(cond)),
        thenValue(std::move(thenValue)), elseValue(std::move(elseValue)) {}
  const ExprAST &getCond() const { return *cond; }
  const ExprAST &getThen() const { return *thenValue; }
  const ExprAST &getElse() const { return *elseValue; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_IfExp; }

private:
  ExprPtr cond, thenValue, elseValue;
};

/// `f"..."`: parsed so that host code around kernels may hold one; code
/// generation rejects evaluating it.
class FStringExprAST : public ExprAST {
public:
  FStringExprAST(llvm::SMRange range, std::string text)
      : ExprAST(Expr_FString, range), text(std::move(text)) {}
  llvm::StringRef getText() const { return text; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_FString; }

private:
  std::string text;
};

/// Python syntax that only host code uses (set displays, dict
/// comprehensions, bytes literals, `:=`, `await`, `...`): parsed so that a
/// pasted module with it compiles, and an error when it is evaluated. The
/// sub-expressions are not kept.
/// `name := value`: binds `name` and is the value (in host code, as
/// Triton's kernels do not take it).
class NamedExprAST : public ExprAST {
public:
  NamedExprAST(llvm::SMRange range, std::string name, ExprPtr value)
      : ExprAST(Expr_Named, range), name(std::move(name)),
        value(std::move(value)) {}
  llvm::StringRef getName() const { return name; }
  const ExprAST &getValue() const { return *value; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Named; }

private:
  std::string name;
  ExprPtr value;
};

class HostOnlyExprAST : public ExprAST {
public:
  HostOnlyExprAST(llvm::SMRange range, std::string what)
      : ExprAST(Expr_HostOnly, range), what(std::move(what)) {}
  /// What the syntax is, as a plural phrase: "set displays".
  llvm::StringRef getWhat() const { return what; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Expr_HostOnly;
  }

private:
  std::string what;
};

/// `*value` (a positional argument per element) or `**value` (a keyword
/// argument per item) among a call's arguments.
class StarredExprAST : public ExprAST {
public:
  StarredExprAST(llvm::SMRange range, ExprPtr value, bool isDouble)
      : ExprAST(Expr_Starred, range), value(std::move(value)),
        isDouble(isDouble) {}
  const ExprAST &getValue() const { return *value; }
  bool isDoubleStar() const { return isDouble; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Starred; }

private:
  ExprPtr value;
  bool isDouble;
};

/// `{key: value, ...}`.
class DictExprAST : public ExprAST {
public:
  DictExprAST(llvm::SMRange range, ExprList keys, ExprList values)
      : ExprAST(Expr_Dict, range), keys(std::move(keys)),
        values(std::move(values)) {}
  const ExprList &getKeys() const { return keys; }
  const ExprList &getValues() const { return values; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Dict; }

private:
  ExprList keys, values;
};

/// How a parameter takes its arguments.
enum class ParamKind {
  Normal,      ///< `name`, `name=default`
  VarArgs,     ///< `*name`: the extra positional arguments, as a tuple
  VarKeywords, ///< `**name`: the extra keyword arguments, as a dict
};

/// One parameter of a function or lambda: `name[: annotation][= default]`,
/// `*name` or `**name`.
struct ParamAST {
  std::string name;
  llvm::SMRange range;
  ExprPtr annotation;   ///< may be null
  ExprPtr defaultValue; ///< may be null
  ParamKind kind = ParamKind::Normal;
};

/// `lambda params: body`.
class LambdaExprAST : public ExprAST {
public:
  LambdaExprAST(llvm::SMRange range, std::vector<ParamAST> params, ExprPtr body)
      : ExprAST(Expr_Lambda, range), params(std::move(params)),
        body(std::move(body)) {}
  const std::vector<ParamAST> &getParams() const { return params; }
  const ExprAST &getBody() const { return *body; }
  static bool classof(const ExprAST *e) { return e->getKind() == Expr_Lambda; }

private:
  std::vector<ParamAST> params;
  ExprPtr body;
};

/// One `for target in iter [if cond]...` clause of a comprehension.
struct ComprehensionClause {
  ExprPtr target;
  ExprPtr iter;
  ExprList conditions;
};

/// `[element for ... in ... if ...]` (a list) or `(element for ...)` (a
/// generator expression, which tilec evaluates to a tuple).
class ComprehensionExprAST : public ExprAST {
public:
  ComprehensionExprAST(llvm::SMRange range, ExprPtr element,
                       std::vector<ComprehensionClause> clauses,
                       bool isGenerator)
      : ExprAST(Expr_Comprehension, range), element(std::move(element)),
        clauses(std::move(clauses)), isGenerator(isGenerator) {}
  const ExprAST &getElement() const { return *element; }
  const std::vector<ComprehensionClause> &getClauses() const { return clauses; }
  bool isGeneratorExpression() const { return isGenerator; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Expr_Comprehension;
  }

private:
  ExprPtr element;
  std::vector<ComprehensionClause> clauses;
  bool isGenerator;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// Base class of every statement node.
class StmtAST {
public:
  enum StmtKind {
    Stmt_Expr,      ///< an expression evaluated for its effect
    Stmt_Assign,    ///< `a = b = value`, `a, b = value`
    Stmt_AugAssign, ///< `a += value`
    Stmt_AnnAssign, ///< `a: ann = value`
    Stmt_If,        ///< `if` / `elif` / `else`
    Stmt_For,       ///< `for target in iter:`
    Stmt_While,     ///< `while cond:`
    Stmt_Return,    ///< `return [value]`
    Stmt_Pass,
    Stmt_Break,
    Stmt_Continue,
    Stmt_Assert,     ///< `assert cond[, msg]`
    Stmt_Import,     ///< `import a.b as c`
    Stmt_FromImport, ///< `from a.b import c as d, e`
    Stmt_FunctionDef,
    Stmt_Unsupported, ///< a Python statement tilec recognises but rejects
  };

  StmtAST(StmtKind kind, llvm::SMRange range) : kind(kind), range(range) {}
  virtual ~StmtAST() = default;
  StmtKind getKind() const { return kind; }
  llvm::SMRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return range.Start; }

private:
  const StmtKind kind;
  llvm::SMRange range;
};

using StmtPtr = std::unique_ptr<StmtAST>;
using StmtList = std::vector<StmtPtr>;

class ExprStmtAST : public StmtAST {
public:
  ExprStmtAST(llvm::SMRange range, ExprPtr value)
      : StmtAST(Stmt_Expr, range), value(std::move(value)) {}
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_Expr; }

private:
  ExprPtr value;
};

/// `t1 = t2 = value`. Each target is a NameExprAST, a TupleExprAST of names,
/// a SubscriptExprAST or an AttributeExprAST (the latter two are rejected by
/// code generation).
class AssignStmtAST : public StmtAST {
public:
  AssignStmtAST(llvm::SMRange range, ExprList targets, ExprPtr value)
      : StmtAST(Stmt_Assign, range), targets(std::move(targets)),
        value(std::move(value)) {}
  const ExprList &getTargets() const { return targets; }
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_Assign; }

private:
  ExprList targets;
  ExprPtr value;
};

/// `target op= value`.
class AugAssignStmtAST : public StmtAST {
public:
  AugAssignStmtAST(llvm::SMRange range, ExprPtr target, BinaryOp op,
                   llvm::SMLoc opLoc, ExprPtr value)
      : StmtAST(Stmt_AugAssign, range), target(std::move(target)), op(op),
        opLoc(opLoc), value(std::move(value)) {}
  const ExprAST &getTarget() const { return *target; }
  BinaryOp getOp() const { return op; }
  llvm::SMLoc getOpLoc() const { return opLoc; }
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) {
    return s->getKind() == Stmt_AugAssign;
  }

private:
  ExprPtr target;
  BinaryOp op;
  llvm::SMLoc opLoc;
  ExprPtr value;
};

/// `target: annotation [= value]`.
class AnnAssignStmtAST : public StmtAST {
public:
  AnnAssignStmtAST(llvm::SMRange range, ExprPtr target, ExprPtr annotation,
                   ExprPtr value)
      : StmtAST(Stmt_AnnAssign, range), target(std::move(target)),
        annotation(std::move(annotation)), value(std::move(value)) {}
  const ExprAST &getTarget() const { return *target; }
  const ExprAST &getAnnotation() const { return *annotation; }
  const ExprAST *getValue() const { return value.get(); }
  static bool classof(const StmtAST *s) {
    return s->getKind() == Stmt_AnnAssign;
  }

private:
  ExprPtr target, annotation, value;
};

/// `if cond: then [else: otherwise]`. `elif` chains are an IfStmtAST as the
/// single statement of the else branch.
class IfStmtAST : public StmtAST {
public:
  IfStmtAST(llvm::SMRange range, ExprPtr cond, StmtList thenBody,
            StmtList elseBody)
      : StmtAST(Stmt_If, range), cond(std::move(cond)),
        thenBody(std::move(thenBody)), elseBody(std::move(elseBody)) {}
  const ExprAST &getCond() const { return *cond; }
  const StmtList &getThen() const { return thenBody; }
  const StmtList &getElse() const { return elseBody; }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_If; }

private:
  ExprPtr cond;
  StmtList thenBody, elseBody;
};

/// `for target in iter: body [else: orelse]`.
class ForStmtAST : public StmtAST {
public:
  ForStmtAST(llvm::SMRange range, ExprPtr target, ExprPtr iter, StmtList body,
             StmtList orelse)
      : StmtAST(Stmt_For, range), target(std::move(target)),
        iter(std::move(iter)), body(std::move(body)),
        orelse(std::move(orelse)) {}
  const ExprAST &getTarget() const { return *target; }
  const ExprAST &getIter() const { return *iter; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orelse; }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_For; }

private:
  ExprPtr target, iter;
  StmtList body, orelse;
};

/// `while cond: body [else: orelse]`.
class WhileStmtAST : public StmtAST {
public:
  WhileStmtAST(llvm::SMRange range, ExprPtr cond, StmtList body,
               StmtList orelse)
      : StmtAST(Stmt_While, range), cond(std::move(cond)),
        body(std::move(body)), orelse(std::move(orelse)) {}
  const ExprAST &getCond() const { return *cond; }
  const StmtList &getBody() const { return body; }
  const StmtList &getOrElse() const { return orelse; }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_While; }

private:
  ExprPtr cond;
  StmtList body, orelse;
};

/// `return [value]`.
class ReturnStmtAST : public StmtAST {
public:
  ReturnStmtAST(llvm::SMRange range, ExprPtr value)
      : StmtAST(Stmt_Return, range), value(std::move(value)) {}
  const ExprAST *getValue() const { return value.get(); }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_Return; }

private:
  ExprPtr value;
};

/// `pass`, `break` and `continue`: statements with no operands.
class SimpleStmtAST : public StmtAST {
public:
  SimpleStmtAST(StmtKind kind, llvm::SMRange range) : StmtAST(kind, range) {}
  static bool classof(const StmtAST *s) {
    return s->getKind() == Stmt_Pass || s->getKind() == Stmt_Break ||
           s->getKind() == Stmt_Continue;
  }
};

/// `assert cond[, msg]`.
class AssertStmtAST : public StmtAST {
public:
  AssertStmtAST(llvm::SMRange range, ExprPtr cond, ExprPtr msg)
      : StmtAST(Stmt_Assert, range), cond(std::move(cond)),
        msg(std::move(msg)) {}
  const ExprAST &getCond() const { return *cond; }
  const ExprAST *getMsg() const { return msg.get(); }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_Assert; }

private:
  ExprPtr cond, msg;
};

/// One imported name: `a.b.c as d` (module path and optional alias).
struct ImportAlias {
  std::string name;  ///< dotted name, e.g. `triton.language`
  std::string alias; ///< empty when there is no `as`
  llvm::SMRange range;
};

/// `import a.b as c, d`.
class ImportStmtAST : public StmtAST {
public:
  ImportStmtAST(llvm::SMRange range, std::vector<ImportAlias> names)
      : StmtAST(Stmt_Import, range), names(std::move(names)) {}
  const std::vector<ImportAlias> &getNames() const { return names; }
  static bool classof(const StmtAST *s) { return s->getKind() == Stmt_Import; }

private:
  std::vector<ImportAlias> names;
};

/// `from module import a as b, c`.
class FromImportStmtAST : public StmtAST {
public:
  FromImportStmtAST(llvm::SMRange range, std::string module,
                    std::vector<ImportAlias> names)
      : StmtAST(Stmt_FromImport, range), module(std::move(module)),
        names(std::move(names)) {}
  llvm::StringRef getModule() const { return module; }
  const std::vector<ImportAlias> &getNames() const { return names; }
  static bool classof(const StmtAST *s) {
    return s->getKind() == Stmt_FromImport;
  }

private:
  std::string module;
  std::vector<ImportAlias> names;
};

/// `@decorators def name(params) [-> returns]: body`.
class FunctionDefAST : public StmtAST {
public:
  FunctionDefAST(llvm::SMRange range, std::string name, llvm::SMRange nameRange,
                 ExprList decorators, std::vector<ParamAST> params,
                 ExprPtr returns, StmtList body)
      : StmtAST(Stmt_FunctionDef, range), name(std::move(name)),
        nameRange(nameRange), decorators(std::move(decorators)),
        params(std::move(params)), returns(std::move(returns)),
        body(std::move(body)) {}
  llvm::StringRef getName() const { return name; }
  llvm::SMRange getNameRange() const { return nameRange; }
  const ExprList &getDecorators() const { return decorators; }
  const std::vector<ParamAST> &getParams() const { return params; }
  const ExprAST *getReturns() const { return returns.get(); }
  const StmtList &getBody() const { return body; }
  static bool classof(const StmtAST *s) {
    return s->getKind() == Stmt_FunctionDef;
  }

private:
  std::string name;
  llvm::SMRange nameRange;
  ExprList decorators;
  std::vector<ParamAST> params;
  ExprPtr returns;
  StmtList body;
};

/// One block of a compound statement tilec keeps unparsed: its keyword
/// (`try`, `except`, `else`, `finally`, `with`, `class`) and its body.
struct UnsupportedClause {
  std::string keyword;
  StmtList body;
};

/// A Python statement the parser recognises (`class`, `with`, `try`, `del`,
/// `global`, `raise`...) but kernels cannot hold. Code generation reports it
/// with the keyword in the message; the module level runs a `try`'s clauses
/// (version-dependent imports) and skips a `class`.
class UnsupportedStmtAST : public StmtAST {
public:
  UnsupportedStmtAST(llvm::SMRange range, std::string keyword,
                     std::vector<UnsupportedClause> clauses = {},
                     std::string boundName = "",
                     std::vector<std::string> declaredNames = {})
      : StmtAST(Stmt_Unsupported, range), keyword(std::move(keyword)),
        clauses(std::move(clauses)), boundName(std::move(boundName)),
        declaredNames(std::move(declaredNames)) {}
  llvm::StringRef getKeyword() const { return keyword; }
  /// The names a `global` or `nonlocal` statement declares.
  const std::vector<std::string> &getDeclaredNames() const {
    return declaredNames;
  }
  /// The name a `class` or `async def` statement binds ("" for others).
  llvm::StringRef getBoundName() const { return boundName; }
  /// The blocks of a compound statement, in source order.
  const std::vector<UnsupportedClause> &getClauses() const { return clauses; }
  static bool classof(const StmtAST *s) {
    return s->getKind() == Stmt_Unsupported;
  }

private:
  std::string keyword;
  std::vector<UnsupportedClause> clauses;
  std::string boundName;
  std::vector<std::string> declaredNames;
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// A parsed .tile file: its top-level statements in order.
class ModuleAST {
public:
  explicit ModuleAST(StmtList body) : body(std::move(body)) {}
  const StmtList &getBody() const { return body; }

private:
  StmtList body;
};

/// Prints the AST as an indented tree, one node per line, each with its
/// `line:col` (from `srcMgr`). This is the `--emit=ast` output.
void dump(const ModuleAST &module, const llvm::SourceMgr &srcMgr,
          llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_FRONTEND_AST_H
