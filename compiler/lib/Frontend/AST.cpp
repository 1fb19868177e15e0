//===- AST.cpp - AST helpers and the --emit=ast dump ----------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file implements the operator spellings and tilec::dump, which prints a
// ModuleAST as an indented tree for `tilec --emit=ast` and FileCheck tests.
//
// Dump format
// -----------
// One node per line, indented two spaces per level, children below their
// parent:
//
//   Kind [details] @line:col
//
// `@line:col` (1-based, columns in bytes) is the node's getLoc(): the start
// of a statement (for a FunctionDef, its `def` keyword), the operator of a
// Binary, the attribute name of an Attribute, the start of the callee of a
// Call, and the first token of every other expression. Lines without `@` are
// groups that only label the children below them.
//
// Statements:
//   Module                              children: the statements
//   FunctionDef NAME @                  Decorator groups (each one
//                                       expression), Param lines, an optional
//                                       Returns group, a Body group
//   Param NAME @                        optional Annotation and Default groups
//   Assign @                            one Target group per target, then the
//                                       value
//   AugAssign OP= @                     Target group, then the value
//   AnnAssign @                         Target group, Annotation group, then
//                                       the value if any
//   ExprStmt @                          the expression
//   If @                                condition, Then group, Else group (if
//                                       not empty; an elif is an If inside it)
//   For @                               Target group, the iterable, Body group,
//                                       Else group (if not empty)
//   While @                             condition, Body group, Else group (if
//                                       not empty)
//   Return @                            the value, if any
//   Pass @, Break @, Continue @
//   Assert @                            condition, Msg group (if any)
//   Import A.B as C, D @
//   FromImport MOD import A as B, C @
//   Unsupported KEYWORD @
//
// Expressions:
//   Name x @          Int 42 @          Float 0.1 @ (shortest round-trip)
//   Bool True @       None @            String "esc\"aped" @
//   Attribute NAME @                    the value
//   Call @                              callee, positional arguments, then
//                                       `Keyword NAME @` lines with the value
//   Binary OP [chained] @               lhs, rhs (OP is spell(op): `+`, `//`,
//                                       `is not`, `and`...)
//   Unary OP @                          operand (`-`, `+`, `~`, `not`)
//   Subscript @                         value, then one child per index
//   Slice @                             Lower, Upper and Step groups, each
//                                       only when present
//   Tuple @, List @                     the elements
//   IfExp @                             condition, then-value, else-value
//
// Strings are printed in double quotes with `\\`, `\"`, `\n`, `\t`, `\r` and
// `\xHH` (other control bytes) escaped; other bytes are printed as they are.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/AST.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

using namespace tilec;
using llvm::cast;

llvm::StringRef tilec::spell(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::FloorDiv:
    return "//";
  case BinaryOp::Mod:
    return "%";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::MatMul:
    return "@";
  case BinaryOp::LShift:
    return "<<";
  case BinaryOp::RShift:
    return ">>";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Is:
    return "is";
  case BinaryOp::IsNot:
    return "is not";
  case BinaryOp::In:
    return "in";
  case BinaryOp::NotIn:
    return "not in";
  case BinaryOp::And:
    return "and";
  case BinaryOp::Or:
    return "or";
  }
  return "?";
}

llvm::StringRef tilec::spell(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Plus:
    return "+";
  case UnaryOp::Invert:
    return "~";
  case UnaryOp::Not:
    return "not";
  }
  return "?";
}

namespace {

/// Prints one ModuleAST in the format described at the top of this file.
class ASTDumper {
public:
  /// A dumper printing to `os`, with locations resolved by `srcMgr`.
  ASTDumper(const llvm::SourceMgr &srcMgr, llvm::raw_ostream &os)
      : srcMgr(srcMgr), os(os) {}

  /// Prints `module` and everything below it.
  void dumpModule(const ModuleAST &module);

private:
  /// Increases the indentation for as long as it lives.
  struct Nest {
    explicit Nest(ASTDumper &dumper) : dumper(dumper) { ++dumper.depth; }
    ~Nest() { --dumper.depth; }
    /// The dumper whose indentation is increased.
    ASTDumper &dumper;
  };

  /// Prints one node line: `text @line:col`, or just `text` for an invalid
  /// location.
  void line(const llvm::Twine &text, llvm::SMLoc loc = llvm::SMLoc());
  /// Prints a group line `label` with `e` below it.
  void group(llvm::StringRef label, const ExprAST &e);
  /// Prints a group line `label` with `body` below it.
  void group(llvm::StringRef label, const StmtList &body);
  /// Prints statement `s` and its children.
  void dumpStmt(const StmtAST &s);
  /// Prints expression `e` and its children.
  void dumpExpr(const ExprAST &e);
  void dumpParams(const std::vector<ParamAST> &params);
  /// Formats the names of an import statement.
  static std::string formatAliases(const std::vector<ImportAlias> &names);

  /// Resolves locations to line:col.
  const llvm::SourceMgr &srcMgr;
  /// Where the dump goes.
  llvm::raw_ostream &os;
  /// The current indentation level.
  unsigned depth = 0;
};

} // namespace

/// The shortest decimal form of `value` that reads back as the same double,
/// always recognisable as a float (`1.0`, `1e+20`, `inf`, `nan`).
static std::string formatFloat(double value) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value)
      break;
  }
  std::string text = buf;
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0";
  return text;
}

/// `value` in double quotes with backslash escapes.
static std::string quote(llvm::StringRef value) {
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '"':
      out += "\\\"";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
        out += "\\x";
        out += llvm::hexdigit(static_cast<unsigned char>(c) >> 4, true);
        out += llvm::hexdigit(c & 0xF, true);
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

std::string ASTDumper::formatAliases(const std::vector<ImportAlias> &names) {
  std::string text;
  for (const ImportAlias &alias : names) {
    if (!text.empty())
      text += ", ";
    text += alias.name;
    if (!alias.alias.empty())
      text += " as " + alias.alias;
  }
  return text;
}

void ASTDumper::line(const llvm::Twine &text, llvm::SMLoc loc) {
  os.indent(depth * 2) << text;
  if (loc.isValid()) {
    if (unsigned buffer = srcMgr.FindBufferContainingLoc(loc)) {
      auto [lineNo, col] = srcMgr.getLineAndColumn(loc, buffer);
      os << " @" << lineNo << ':' << col;
    }
  }
  os << '\n';
}

void ASTDumper::group(llvm::StringRef label, const ExprAST &e) {
  line(label);
  Nest nest(*this);
  dumpExpr(e);
}

void ASTDumper::group(llvm::StringRef label, const StmtList &body) {
  line(label);
  Nest nest(*this);
  for (const StmtPtr &s : body)
    dumpStmt(*s);
}

void ASTDumper::dumpModule(const ModuleAST &module) {
  line("Module");
  Nest nest(*this);
  for (const StmtPtr &s : module.getBody())
    dumpStmt(*s);
}

void ASTDumper::dumpStmt(const StmtAST &s) {
  llvm::SMLoc loc = s.getLoc();
  switch (s.getKind()) {
  case StmtAST::Stmt_Expr: {
    line("ExprStmt", loc);
    Nest nest(*this);
    dumpExpr(cast<ExprStmtAST>(s).getValue());
    return;
  }
  case StmtAST::Stmt_Assign: {
    const auto &assign = cast<AssignStmtAST>(s);
    line("Assign", loc);
    Nest nest(*this);
    for (const ExprPtr &target : assign.getTargets())
      group("Target", *target);
    dumpExpr(assign.getValue());
    return;
  }
  case StmtAST::Stmt_AugAssign: {
    const auto &assign = cast<AugAssignStmtAST>(s);
    line("AugAssign " + spell(assign.getOp()) + "=", loc);
    Nest nest(*this);
    group("Target", assign.getTarget());
    dumpExpr(assign.getValue());
    return;
  }
  case StmtAST::Stmt_AnnAssign: {
    const auto &assign = cast<AnnAssignStmtAST>(s);
    line("AnnAssign", loc);
    Nest nest(*this);
    group("Target", assign.getTarget());
    group("Annotation", assign.getAnnotation());
    if (const ExprAST *value = assign.getValue())
      dumpExpr(*value);
    return;
  }
  case StmtAST::Stmt_If: {
    const auto &ifStmt = cast<IfStmtAST>(s);
    line("If", loc);
    Nest nest(*this);
    dumpExpr(ifStmt.getCond());
    group("Then", ifStmt.getThen());
    if (!ifStmt.getElse().empty())
      group("Else", ifStmt.getElse());
    return;
  }
  case StmtAST::Stmt_For: {
    const auto &forStmt = cast<ForStmtAST>(s);
    line("For", loc);
    Nest nest(*this);
    group("Target", forStmt.getTarget());
    dumpExpr(forStmt.getIter());
    group("Body", forStmt.getBody());
    if (!forStmt.getOrElse().empty())
      group("Else", forStmt.getOrElse());
    return;
  }
  case StmtAST::Stmt_While: {
    const auto &whileStmt = cast<WhileStmtAST>(s);
    line("While", loc);
    Nest nest(*this);
    dumpExpr(whileStmt.getCond());
    group("Body", whileStmt.getBody());
    if (!whileStmt.getOrElse().empty())
      group("Else", whileStmt.getOrElse());
    return;
  }
  case StmtAST::Stmt_Return: {
    line("Return", loc);
    Nest nest(*this);
    if (const ExprAST *value = cast<ReturnStmtAST>(s).getValue())
      dumpExpr(*value);
    return;
  }
  case StmtAST::Stmt_Pass:
    line("Pass", loc);
    return;
  case StmtAST::Stmt_Break:
    line("Break", loc);
    return;
  case StmtAST::Stmt_Continue:
    line("Continue", loc);
    return;
  case StmtAST::Stmt_Assert: {
    const auto &assertStmt = cast<AssertStmtAST>(s);
    line("Assert", loc);
    Nest nest(*this);
    dumpExpr(assertStmt.getCond());
    if (const ExprAST *msg = assertStmt.getMsg())
      group("Msg", *msg);
    return;
  }
  case StmtAST::Stmt_Import:
    line("Import " + formatAliases(cast<ImportStmtAST>(s).getNames()), loc);
    return;
  case StmtAST::Stmt_FromImport: {
    const auto &from = cast<FromImportStmtAST>(s);
    line("FromImport " + from.getModule() + " import " +
             formatAliases(from.getNames()),
         loc);
    return;
  }
  case StmtAST::Stmt_FunctionDef: {
    const auto &def = cast<FunctionDefAST>(s);
    line("FunctionDef " + def.getName(), loc);
    Nest nest(*this);
    for (const ExprPtr &decorator : def.getDecorators())
      group("Decorator", *decorator);
    dumpParams(def.getParams());
    if (const ExprAST *returns = def.getReturns())
      group("Returns", *returns);
    group("Body", def.getBody());
    return;
  }
  case StmtAST::Stmt_Unsupported:
    line("Unsupported " + cast<UnsupportedStmtAST>(s).getKeyword(), loc);
    return;
  }
}

void ASTDumper::dumpExpr(const ExprAST &e) {
  llvm::SMLoc loc = e.getLoc();
  switch (e.getKind()) {
  case ExprAST::Expr_Name:
    line("Name " + cast<NameExprAST>(e).getName(), loc);
    return;
  case ExprAST::Expr_Int:
    line("Int " + llvm::Twine(cast<IntExprAST>(e).getValue()), loc);
    return;
  case ExprAST::Expr_Float:
    line("Float " + formatFloat(cast<FloatExprAST>(e).getValue()), loc);
    return;
  case ExprAST::Expr_Bool:
    line(cast<BoolExprAST>(e).getValue() ? "Bool True" : "Bool False", loc);
    return;
  case ExprAST::Expr_None:
    line("None", loc);
    return;
  case ExprAST::Expr_String:
    line("String " + quote(cast<StringExprAST>(e).getValue()), loc);
    return;
  case ExprAST::Expr_Attribute: {
    const auto &attr = cast<AttributeExprAST>(e);
    line("Attribute " + attr.getAttr(), loc);
    Nest nest(*this);
    dumpExpr(attr.getValue());
    return;
  }
  case ExprAST::Expr_Call: {
    const auto &call = cast<CallExprAST>(e);
    line("Call", loc);
    Nest nest(*this);
    dumpExpr(call.getCallee());
    for (const ExprPtr &arg : call.getArgs())
      dumpExpr(*arg);
    for (const KeywordArg &keyword : call.getKeywords()) {
      line("Keyword " + keyword.name, keyword.nameRange.Start);
      Nest keywordNest(*this);
      dumpExpr(*keyword.value);
    }
    return;
  }
  case ExprAST::Expr_Binary: {
    const auto &binary = cast<BinaryExprAST>(e);
    line("Binary " + spell(binary.getOp()) +
             (binary.isChained() ? " chained" : ""),
         loc);
    Nest nest(*this);
    dumpExpr(binary.getLHS());
    dumpExpr(binary.getRHS());
    return;
  }
  case ExprAST::Expr_Unary: {
    const auto &unary = cast<UnaryExprAST>(e);
    line("Unary " + spell(unary.getOp()), loc);
    Nest nest(*this);
    dumpExpr(unary.getOperand());
    return;
  }
  case ExprAST::Expr_Subscript: {
    const auto &subscript = cast<SubscriptExprAST>(e);
    line("Subscript", loc);
    Nest nest(*this);
    dumpExpr(subscript.getValue());
    for (const ExprPtr &index : subscript.getIndices())
      dumpExpr(*index);
    return;
  }
  case ExprAST::Expr_Slice: {
    const auto &slice = cast<SliceExprAST>(e);
    line("Slice", loc);
    Nest nest(*this);
    if (const ExprAST *lower = slice.getLower())
      group("Lower", *lower);
    if (const ExprAST *upper = slice.getUpper())
      group("Upper", *upper);
    if (const ExprAST *step = slice.getStep())
      group("Step", *step);
    return;
  }
  case ExprAST::Expr_Tuple:
  case ExprAST::Expr_List: {
    bool isTuple = e.getKind() == ExprAST::Expr_Tuple;
    line(isTuple ? "Tuple" : "List", loc);
    Nest nest(*this);
    const ExprList &elements = isTuple ? cast<TupleExprAST>(e).getElements()
                                       : cast<ListExprAST>(e).getElements();
    for (const ExprPtr &element : elements)
      dumpExpr(*element);
    return;
  }
  case ExprAST::Expr_IfExp: {
    const auto &ifExp = cast<IfExpAST>(e);
    line("IfExp", loc);
    Nest nest(*this);
    dumpExpr(ifExp.getCond());
    dumpExpr(ifExp.getThen());
    dumpExpr(ifExp.getElse());
    return;
  }
  case ExprAST::Expr_Starred: {
    const auto &starred = cast<StarredExprAST>(e);
    line(starred.isDoubleStar() ? "DoubleStarred" : "Starred", loc);
    Nest nest(*this);
    dumpExpr(starred.getValue());
    return;
  }
  case ExprAST::Expr_Named: {
    const auto &named = cast<NamedExprAST>(e);
    line("Named " + named.getName().str(), loc);
    Nest nest(*this);
    dumpExpr(named.getValue());
    return;
  }
  case ExprAST::Expr_HostOnly:
    line("HostOnly \"" + cast<HostOnlyExprAST>(e).getWhat() + "\"", loc);
    return;
  case ExprAST::Expr_FString:
    line("FString \"" + llvm::StringRef(cast<FStringExprAST>(e).getText()) +
             "\"",
         loc);
    return;
  case ExprAST::Expr_Dict: {
    const auto &dict = cast<DictExprAST>(e);
    line("Dict", loc);
    Nest nest(*this);
    for (auto [key, value] : llvm::zip(dict.getKeys(), dict.getValues())) {
      group("Key", *key);
      group("Value", *value);
    }
    return;
  }
  case ExprAST::Expr_Lambda: {
    const auto &lambda = cast<LambdaExprAST>(e);
    line("Lambda", loc);
    Nest nest(*this);
    dumpParams(lambda.getParams());
    group("Body", lambda.getBody());
    return;
  }
  case ExprAST::Expr_Comprehension: {
    const auto &comp = cast<ComprehensionExprAST>(e);
    line(comp.isGeneratorExpression() ? "GeneratorExp" : "ListComp", loc);
    Nest nest(*this);
    group("Element", comp.getElement());
    for (const ComprehensionClause &clause : comp.getClauses()) {
      group("For", *clause.target);
      group("In", *clause.iter);
      for (const ExprPtr &cond : clause.conditions)
        group("If", *cond);
    }
    return;
  }
  }
}

void ASTDumper::dumpParams(const std::vector<ParamAST> &params) {
  for (const ParamAST &param : params) {
    llvm::StringRef stars = param.kind == ParamKind::VarArgs       ? "*"
                            : param.kind == ParamKind::VarKeywords ? "**"
                                                                   : "";
    line("Param " + stars + param.name, param.range.Start);
    Nest paramNest(*this);
    if (param.annotation)
      group("Annotation", *param.annotation);
    if (param.defaultValue)
      group("Default", *param.defaultValue);
  }
}

void tilec::dump(const ModuleAST &module, const llvm::SourceMgr &srcMgr,
                 llvm::raw_ostream &os) {
  ASTDumper(srcMgr, os).dumpModule(module);
}
