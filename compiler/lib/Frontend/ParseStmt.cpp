//===- ParseStmt.cpp - Parsing of .tile statements ------------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file implements the statement half of the recursive-descent Parser:
// simple statements (expressions, assignments, return, import, assert...),
// compound statements (if/elif/else, for, while, decorated function
// definitions) and indented blocks. Python statements that tilec does not
// support (class, with, try, del, global, ...) are rejected with a clear
// error at their keyword.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Casting.h"

using namespace tilec;
using namespace tilec::detail;
using llvm::SMLoc;

/// Appends `stmt` to `out`; false if it is null (an error was reported).
static bool append(StmtList &out, StmtPtr stmt) {
  if (!stmt)
    return false;
  out.push_back(std::move(stmt));
  return true;
}

/// How Python's messages name the expression `e` ("function call",
/// "literal", "comparison"...).
static const char *describeExpr(const ExprAST &e) {
  switch (e.getKind()) {
  case ExprAST::Expr_Name:
    return "name";
  case ExprAST::Expr_Int:
  case ExprAST::Expr_Float:
  case ExprAST::Expr_String:
    return "literal";
  case ExprAST::Expr_Bool:
    return llvm::cast<BoolExprAST>(e).getValue() ? "True" : "False";
  case ExprAST::Expr_None:
    return "None";
  case ExprAST::Expr_Attribute:
    return "attribute";
  case ExprAST::Expr_Call:
    return "function call";
  case ExprAST::Expr_Binary:
    switch (llvm::cast<BinaryExprAST>(e).getOp()) {
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
    case BinaryOp::Eq:
    case BinaryOp::Ne:
    case BinaryOp::Is:
    case BinaryOp::IsNot:
    case BinaryOp::In:
    case BinaryOp::NotIn:
      return "comparison";
    default:
      return "expression";
    }
  case ExprAST::Expr_Unary:
    return "expression";
  case ExprAST::Expr_Subscript:
    return "subscript";
  case ExprAST::Expr_Slice:
    return "slice";
  case ExprAST::Expr_Tuple:
    return "tuple";
  case ExprAST::Expr_List:
    return "list";
  case ExprAST::Expr_IfExp:
    return "conditional expression";
  case ExprAST::Expr_Dict:
    return "dict literal";
  case ExprAST::Expr_Lambda:
    return "lambda";
  case ExprAST::Expr_Comprehension:
    return "comprehension";
  case ExprAST::Expr_FString:
    return "f-string";
  case ExprAST::Expr_Starred:
    return "starred expression";
  case ExprAST::Expr_Named:
    return "assignment expression";
  case ExprAST::Expr_HostOnly:
    return "expression";
  }
  return "expression";
}

/// The operator of an augmented assignment token, if `kind` is one.
static std::optional<BinaryOp> getAugAssignOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::plusequal:
    return BinaryOp::Add;
  case TokenKind::minusequal:
    return BinaryOp::Sub;
  case TokenKind::starequal:
    return BinaryOp::Mul;
  case TokenKind::slashequal:
    return BinaryOp::Div;
  case TokenKind::slashslashequal:
    return BinaryOp::FloorDiv;
  case TokenKind::percentequal:
    return BinaryOp::Mod;
  case TokenKind::starstarequal:
    return BinaryOp::Pow;
  case TokenKind::atequal:
    return BinaryOp::MatMul;
  case TokenKind::lesslessequal:
    return BinaryOp::LShift;
  case TokenKind::greatergreaterequal:
    return BinaryOp::RShift;
  case TokenKind::ampequal:
    return BinaryOp::BitAnd;
  case TokenKind::pipeequal:
    return BinaryOp::BitOr;
  case TokenKind::caretequal:
    return BinaryOp::BitXor;
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Statements and blocks
//===----------------------------------------------------------------------===//

/// statement: compound_stmt | simple_stmts
/// compound_stmt: if_stmt | for_stmt | while_stmt | funcdef | decorated
///
/// Appends the parsed statement(s) to `out`.
bool Parser::parseStatement(StmtList &out) {
  switch (tok.getKind()) {
  case TokenKind::kw_if:
    return append(out, parseIf());
  case TokenKind::kw_for:
    return append(out, parseFor());
  case TokenKind::kw_while:
    return append(out, parseWhile());
  case TokenKind::kw_def:
    return append(out, parseFunctionDef({}));
  case TokenKind::at:
    return append(out, parseDecorated());
  case TokenKind::kw_class:
  case TokenKind::kw_with:
  case TokenKind::kw_try:
  case TokenKind::kw_async:
    return append(out, parseUnsupportedCompound());
  case TokenKind::kw_elif:
  case TokenKind::kw_else:
  case TokenKind::kw_except:
  case TokenKind::kw_finally:
    emitSyntaxError("invalid syntax");
    return false;
  case TokenKind::dedent:
    emitError(tok.getLoc(), "unexpected unindent");
    return false;
  case TokenKind::identifier:
    // `match` is a soft keyword: `match x:` starts a match statement, but
    // `match = 1` and `match(x)` are ordinary statements.
    if (tok.getSpelling() == "match" &&
        peekNext().isAny(
            TokenKind::identifier, TokenKind::integer, TokenKind::floating,
            TokenKind::string, TokenKind::kw_None, TokenKind::kw_True,
            TokenKind::kw_False, TokenKind::kw_not, TokenKind::l_brace))
      return append(out, parseMatch());
    return parseSimpleStatements(out);
  default:
    return parseSimpleStatements(out);
  }
}

/// simple_stmts: simple_stmt (';' simple_stmt)* [';'] NEWLINE
bool Parser::parseSimpleStatements(StmtList &out) {
  for (;;) {
    if (!append(out, parseSimpleStatement()))
      return false;
    if (!consumeIf(TokenKind::semi) || tok.is(TokenKind::newline))
      break;
  }
  if (consumeIf(TokenKind::newline))
    return true;
  emitSyntaxError("invalid syntax");
  return false;
}

/// simple_stmt: expr_stmt | return_stmt | import_stmt | from_stmt
///            | assert_stmt | 'pass' | 'break' | 'continue'
StmtPtr Parser::parseSimpleStatement() {
  SMLoc start = tok.getLoc();
  switch (tok.getKind()) {
  case TokenKind::kw_pass:
  case TokenKind::kw_break:
  case TokenKind::kw_continue: {
    StmtAST::StmtKind kind = tok.is(TokenKind::kw_pass) ? StmtAST::Stmt_Pass
                             : tok.is(TokenKind::kw_break)
                                 ? StmtAST::Stmt_Break
                                 : StmtAST::Stmt_Continue;
    consume();
    return std::make_unique<SimpleStmtAST>(kind, rangeFrom(start));
  }
  case TokenKind::kw_return:
    return parseReturn();
  case TokenKind::kw_import:
    return parseImport();
  case TokenKind::kw_from:
    return parseFromImport();
  case TokenKind::kw_assert:
    return parseAssert();
  case TokenKind::kw_del:
  case TokenKind::kw_global:
  case TokenKind::kw_nonlocal:
  case TokenKind::kw_raise:
  case TokenKind::kw_yield: {
    // Kept, unparsed, for code generation to reject if it ever runs: the
    // host code of pasted files holds them (`raise` in a branch that is
    // dead at compile time, `nonlocal` in a launcher's closure, `yield` in
    // a context manager).
    std::string keyword = tok.getSpelling().str();
    // `global a, b` and `nonlocal a`: the names, for host functions.
    bool declares = tok.isAny(TokenKind::kw_global, TokenKind::kw_nonlocal);
    std::vector<std::string> names;
    while (!tok.isAny(TokenKind::newline, TokenKind::semi, TokenKind::eof,
                      TokenKind::error)) {
      if (declares && tok.is(TokenKind::identifier))
        names.push_back(tok.getSpelling().str());
      consume();
    }
    if (tok.is(TokenKind::error))
      return emitUnexpected("invalid syntax");
    return std::make_unique<UnsupportedStmtAST>(
        rangeFrom(start), std::move(keyword), std::vector<UnsupportedClause>{},
        "", std::move(names));
  }
  case TokenKind::kw_if:
  case TokenKind::kw_for:
  case TokenKind::kw_while:
  case TokenKind::kw_def:
  case TokenKind::kw_class:
  case TokenKind::kw_with:
  case TokenKind::kw_try:
  case TokenKind::kw_async:
  case TokenKind::at:
    // Only reachable after `;` or in a one-line suite.
    return emitError(start, "a compound statement cannot follow ';' or ':' "
                            "on the same line");
  default:
    return parseExprStatement();
  }
}

/// expr_stmt: testlist ('=' testlist)+
///          | target augassign testlist
///          | target ':' test ['=' testlist]
///          | testlist
/// augassign: '+=' | '-=' | '*=' | '/=' | '//=' | '%=' | '**=' | '@='
///          | '<<=' | '>>=' | '&=' | '|=' | '^='
StmtPtr Parser::parseExprStatement() {
  SMLoc start = tok.getLoc();
  bool startsWithMatch =
      tok.is(TokenKind::identifier) && tok.getSpelling() == "match";
  ExprPtr first = parseTestList();
  if (!first)
    return nullptr;

  // Assignment, possibly chained: `a = b = value`.
  if (tok.is(TokenKind::equal)) {
    ExprList targets;
    targets.push_back(std::move(first));
    while (consumeIf(TokenKind::equal)) {
      ExprPtr next = parseTestList();
      if (!next)
        return nullptr;
      targets.push_back(std::move(next));
    }
    ExprPtr value = std::move(targets.back());
    targets.pop_back();
    for (const ExprPtr &target : targets)
      if (!checkAssignTarget(*target))
        return nullptr;
    return std::make_unique<AssignStmtAST>(rangeFrom(start), std::move(targets),
                                           std::move(value));
  }

  // Augmented assignment.
  if (std::optional<BinaryOp> op = getAugAssignOp(tok.getKind())) {
    if (!llvm::isa<NameExprAST, AttributeExprAST, SubscriptExprAST>(*first))
      return emitError(first->getRange().Start,
                       llvm::Twine("'") + describeExpr(*first) +
                           "' is an illegal expression for augmented "
                           "assignment");
    SMLoc opLoc = tok.getLoc();
    consume();
    ExprPtr value = parseTestList();
    if (!value)
      return nullptr;
    return std::make_unique<AugAssignStmtAST>(
        rangeFrom(start), std::move(first), *op, opLoc, std::move(value));
  }

  // Annotated assignment.
  if (tok.is(TokenKind::colon)) {
    if (startsWithMatch && !llvm::isa<NameExprAST>(*first))
      return emitUnsupported("match", start);
    if (llvm::isa<TupleExprAST, ListExprAST>(*first))
      return emitError(first->getRange().Start,
                       llvm::Twine("only single target (not ") +
                           describeExpr(*first) + ") can be annotated");
    if (!llvm::isa<NameExprAST, AttributeExprAST, SubscriptExprAST>(*first))
      return emitError(first->getRange().Start,
                       "illegal target for annotation");
    consume();
    ExprPtr annotation = parseTest();
    if (!annotation)
      return nullptr;
    ExprPtr value;
    if (consumeIf(TokenKind::equal)) {
      value = parseTestList();
      if (!value)
        return nullptr;
    }
    return std::make_unique<AnnAssignStmtAST>(
        rangeFrom(start), std::move(first), std::move(annotation),
        std::move(value));
  }

  return std::make_unique<ExprStmtAST>(rangeFrom(start), std::move(first));
}

bool Parser::checkAssignTarget(const ExprAST &e) {
  switch (e.getKind()) {
  case ExprAST::Expr_Name:
  case ExprAST::Expr_Attribute:
  case ExprAST::Expr_Subscript:
    return true;
  case ExprAST::Expr_Starred:
    return checkAssignTarget(llvm::cast<StarredExprAST>(e).getValue());
  case ExprAST::Expr_Tuple:
    for (const ExprPtr &element : llvm::cast<TupleExprAST>(e).getElements())
      if (!checkAssignTarget(*element))
        return false;
    return true;
  case ExprAST::Expr_List:
    for (const ExprPtr &element : llvm::cast<ListExprAST>(e).getElements())
      if (!checkAssignTarget(*element))
        return false;
    return true;
  default:
    emitError(e.getRange().Start,
              llvm::Twine("cannot assign to ") + describeExpr(e));
    return false;
  }
}

/// return_stmt: 'return' [testlist]
StmtPtr Parser::parseReturn() {
  SMLoc start = tok.getLoc();
  consume();
  ExprPtr value;
  if (startsExpression(tok)) {
    value = parseTestList();
    if (!value)
      return nullptr;
  }
  return std::make_unique<ReturnStmtAST>(rangeFrom(start), std::move(value));
}

/// assert_stmt: 'assert' test [',' test]
StmtPtr Parser::parseAssert() {
  SMLoc start = tok.getLoc();
  consume();
  ExprPtr cond = parseTest();
  if (!cond)
    return nullptr;
  ExprPtr msg;
  if (consumeIf(TokenKind::comma)) {
    msg = parseTest();
    if (!msg)
      return nullptr;
  }
  return std::make_unique<AssertStmtAST>(rangeFrom(start), std::move(cond),
                                         std::move(msg));
}

//===----------------------------------------------------------------------===//
// Imports
//===----------------------------------------------------------------------===//

/// dotted_name: NAME ('.' NAME)*
///
/// Appends the name to `name`; `what` describes the expected name for the
/// message if the first NAME is missing.
bool Parser::parseDottedName(std::string &name, const char *what) {
  if (tok.isNot(TokenKind::identifier)) {
    emitUnexpected(llvm::Twine("expected ") + what);
    return false;
  }
  name += tok.getSpelling();
  consume();
  while (tok.is(TokenKind::period)) {
    consume();
    if (tok.isNot(TokenKind::identifier)) {
      emitUnexpected("expected a name after '.'");
      return false;
    }
    name += '.';
    name += tok.getSpelling();
    consume();
  }
  return true;
}

/// dotted_as_name: dotted_name ['as' NAME]
/// import_as_name: NAME ['as' NAME]
bool Parser::parseImportAlias(ImportAlias &alias, bool dotted) {
  SMLoc start = tok.getLoc();
  if (dotted) {
    if (!parseDottedName(alias.name, "a module name after 'import'"))
      return false;
  } else {
    if (tok.isNot(TokenKind::identifier)) {
      emitUnexpected("expected a name to import");
      return false;
    }
    alias.name = tok.getSpelling().str();
    consume();
  }
  if (consumeIf(TokenKind::kw_as)) {
    if (tok.isNot(TokenKind::identifier)) {
      emitUnexpected("expected a name after 'as'");
      return false;
    }
    alias.alias = tok.getSpelling().str();
    consume();
  }
  alias.range = rangeFrom(start);
  return true;
}

/// import_stmt: 'import' dotted_as_name (',' dotted_as_name)*
StmtPtr Parser::parseImport() {
  SMLoc start = tok.getLoc();
  consume();
  std::vector<ImportAlias> names;
  do {
    ImportAlias alias;
    if (!parseImportAlias(alias, /*dotted=*/true))
      return nullptr;
    names.push_back(std::move(alias));
  } while (consumeIf(TokenKind::comma));
  return std::make_unique<ImportStmtAST>(rangeFrom(start), std::move(names));
}

/// from_stmt: 'from' ('.'* dotted_name | '.'+) 'import'
///            ('(' import_as_names [','] ')' | import_as_names)
/// import_as_names: import_as_name (',' import_as_name)*
StmtPtr Parser::parseFromImport() {
  SMLoc start = tok.getLoc();
  consume();
  std::string module;
  while (tok.isAny(TokenKind::period, TokenKind::ellipsis)) {
    module += tok.getSpelling();
    consume();
  }
  if (module.empty() || tok.is(TokenKind::identifier))
    if (!parseDottedName(module, "a module name after 'from'"))
      return nullptr;
  if (tok.isNot(TokenKind::kw_import))
    return emitUnexpected("expected 'import' after module name");
  consume();
  if (tok.is(TokenKind::star)) {
    // `from m import *`: one name, "*".
    ImportAlias all{"*", "", tok.getRange()};
    consume();
    std::vector<ImportAlias> names;
    names.push_back(std::move(all));
    return std::make_unique<FromImportStmtAST>(rangeFrom(start), module,
                                               std::move(names));
  }

  bool parenthesized = consumeIf(TokenKind::l_paren);
  std::vector<ImportAlias> names;
  for (;;) {
    ImportAlias alias;
    if (!parseImportAlias(alias, /*dotted=*/false))
      return nullptr;
    names.push_back(std::move(alias));
    if (tok.isNot(TokenKind::comma))
      break;
    SMLoc commaLoc = tok.getLoc();
    consume();
    if (parenthesized && tok.is(TokenKind::r_paren))
      break;
    if (!parenthesized && tok.isAny(TokenKind::newline, TokenKind::semi))
      return emitError(commaLoc, "trailing comma not allowed without "
                                 "surrounding parentheses");
  }
  if (parenthesized) {
    if (tok.isNot(TokenKind::r_paren))
      return emitSyntaxError("expected ',' or ')'");
    consume();
  }
  return std::make_unique<FromImportStmtAST>(
      rangeFrom(start), std::move(module), std::move(names));
}

//===----------------------------------------------------------------------===//
// Compound statements
//===----------------------------------------------------------------------===//

/// block: NEWLINE INDENT statement+ DEDENT | simple_stmts
///
/// `what` names the statement that owns the block, for messages.
bool Parser::parseBlock(StmtList &body, llvm::StringRef what) {
  if (tok.isNot(TokenKind::newline))
    return parseSimpleStatements(body);
  consume();
  if (tok.isNot(TokenKind::indent)) {
    emitError(tok.getLoc(), "expected an indented block after " + what);
    return false;
  }
  BlockGuard guard(*this);
  if (!guard.push(tok.getLoc(), "too many nested blocks"))
    return false;
  consume();
  while (tok.isNot(TokenKind::dedent) && tok.isNot(TokenKind::eof)) {
    if (tok.is(TokenKind::newline)) {
      consume();
      continue;
    }
    if (!parseStatement(body))
      return false;
  }
  consume();
  return !failed;
}

bool Parser::skipHeader() {
  int depth = 0;
  while (depth > 0 || tok.isNot(TokenKind::colon)) {
    if (tok.isAny(TokenKind::newline, TokenKind::eof, TokenKind::error)) {
      emitSyntaxError("expected ':'");
      return false;
    }
    if (tok.isAny(TokenKind::l_paren, TokenKind::l_square, TokenKind::l_brace))
      ++depth;
    else if (tok.isAny(TokenKind::r_paren, TokenKind::r_square,
                       TokenKind::r_brace))
      --depth;
    consume();
  }
  consume();
  return true;
}

/// match_stmt: 'match' subject ':' NEWLINE INDENT case_block+ DEDENT
///
/// Only host code holds one: its tokens are skipped, and it is kept for
/// code generation to reject if it ever runs.
StmtPtr Parser::parseMatch() {
  SMLoc start = tok.getLoc();
  consume();
  if (!skipHeader())
    return nullptr;
  if (!consumeIf(TokenKind::newline) || tok.isNot(TokenKind::indent))
    return emitUnexpected("expected an indented block after 'match' "
                          "statement");
  unsigned level = 0;
  do {
    if (tok.isAny(TokenKind::eof, TokenKind::error))
      return emitUnexpected("invalid syntax");
    if (tok.is(TokenKind::indent))
      ++level;
    else if (tok.is(TokenKind::dedent))
      --level;
    consume();
  } while (level > 0);
  return std::make_unique<UnsupportedStmtAST>(rangeFrom(start), "match");
}

/// unsupported_compound: ('class' | 'with' | 'try' | 'async') header ':'
///                       block clause*
///
/// The host code of pasted files holds `with` (profiler scopes), `try` and
/// `class`: they are kept, their headers unparsed, for code generation to
/// reject if they ever run. A `try` takes its `except`, `else` and
/// `finally` clauses along; `async` the statement it prefixes.
StmtPtr Parser::parseUnsupportedCompound() {
  SMLoc start = tok.getLoc();
  std::string keyword = tok.getSpelling().str();
  bool isTry = tok.is(TokenKind::kw_try);
  consume();
  if (keyword == "async") {
    StmtList inner;
    if (!parseStatement(inner))
      return nullptr;
    std::string bound;
    if (inner.size() == 1)
      if (auto *fn = llvm::dyn_cast<FunctionDefAST>(inner.front().get()))
        bound = fn->getName().str();
    return std::make_unique<UnsupportedStmtAST>(
        rangeFrom(start), std::move(keyword), std::vector<UnsupportedClause>{},
        std::move(bound));
  }
  std::string bound;
  if (keyword == "class" && tok.is(TokenKind::identifier))
    bound = tok.getSpelling().str();
  std::vector<UnsupportedClause> clauses;
  std::string prevKeyword;
  auto clause = [&]() -> bool {
    UnsupportedClause parsed;
    parsed.keyword = clauses.empty() ? keyword : prevKeyword;
    if (!skipHeader())
      return false;
    if (!parseBlock(parsed.body, "'" + parsed.keyword + "'"))
      return false;
    clauses.push_back(std::move(parsed));
    return true;
  };
  if (!clause())
    return nullptr;
  while (isTry && tok.isAny(TokenKind::kw_except, TokenKind::kw_else,
                            TokenKind::kw_finally)) {
    prevKeyword = tok.getSpelling().str();
    consume();
    if (!clause())
      return nullptr;
  }
  return std::make_unique<UnsupportedStmtAST>(
      rangeFrom(start), std::move(keyword), std::move(clauses),
      std::move(bound));
}

/// else_clause: 'else' ':' block
///
/// Parses an optional `else` clause of `for` and `while`.
bool Parser::parseElse(StmtList &orelse) {
  if (tok.isNot(TokenKind::kw_else))
    return true;
  consume();
  if (tok.isNot(TokenKind::colon)) {
    emitUnexpected("expected ':' after 'else'");
    return false;
  }
  consume();
  return parseBlock(orelse, "'else' statement");
}

/// if_stmt: 'if' test ':' block ('elif' test ':' block)* ['else' ':' block]
///
/// An `elif` becomes an IfStmtAST that is the only statement of the
/// enclosing else branch; its range runs from `elif` to the end of the chain.
StmtPtr Parser::parseIf() {
  SMLoc start = tok.getLoc();
  consume();
  ExprPtr cond = parseTest();
  if (!cond)
    return nullptr;
  if (tok.isNot(TokenKind::colon))
    return emitUnexpected("expected ':' after 'if' condition");
  consume();
  StmtList thenBody;
  if (!parseBlock(thenBody, "'if' statement"))
    return nullptr;

  // The elif branches, nested from the back once the chain is complete.
  struct Branch {
    SMLoc loc;
    ExprPtr cond;
    StmtList body;
  };
  std::vector<Branch> elifs;
  BlockGuard guard(*this);
  while (tok.is(TokenKind::kw_elif)) {
    Branch branch;
    branch.loc = tok.getLoc();
    if (elifs.size() >= maxElifBranches)
      return emitError(branch.loc, "too many 'elif' branches");
    if (!guard.push(branch.loc, "too many nested blocks"))
      return nullptr;
    consume();
    branch.cond = parseTest();
    if (!branch.cond)
      return nullptr;
    if (tok.isNot(TokenKind::colon))
      return emitUnexpected("expected ':' after 'elif' condition");
    consume();
    if (!parseBlock(branch.body, "'elif' statement"))
      return nullptr;
    elifs.push_back(std::move(branch));
  }

  StmtList elseBody;
  if (tok.is(TokenKind::kw_else)) {
    consume();
    if (tok.isNot(TokenKind::colon))
      return emitUnexpected("expected ':' after 'else'");
    consume();
    if (!parseBlock(elseBody, "'else' statement"))
      return nullptr;
  }

  SMLoc end = prevEnd;
  for (size_t i = elifs.size(); i-- > 0;) {
    auto nested = std::make_unique<IfStmtAST>(
        llvm::SMRange(elifs[i].loc, end), std::move(elifs[i].cond),
        std::move(elifs[i].body), std::move(elseBody));
    elseBody = StmtList();
    elseBody.push_back(std::move(nested));
  }
  return std::make_unique<IfStmtAST>(rangeFrom(start), std::move(cond),
                                     std::move(thenBody), std::move(elseBody));
}

/// for_stmt: 'for' target_list 'in' testlist ':' block ['else' ':' block]
StmtPtr Parser::parseFor() {
  SMLoc start = tok.getLoc();
  consume();
  ExprPtr target = parseTargetList();
  if (!target || !checkAssignTarget(*target))
    return nullptr;
  if (tok.isNot(TokenKind::kw_in))
    return emitUnexpected("expected 'in' after 'for' target");
  consume();
  ExprPtr iter = parseTestList();
  if (!iter)
    return nullptr;
  if (tok.isNot(TokenKind::colon))
    return emitUnexpected("expected ':' after 'for' iterable");
  consume();
  StmtList body, orelse;
  if (!parseBlock(body, "'for' statement") || !parseElse(orelse))
    return nullptr;
  return std::make_unique<ForStmtAST>(rangeFrom(start), std::move(target),
                                      std::move(iter), std::move(body),
                                      std::move(orelse));
}

/// while_stmt: 'while' test ':' block ['else' ':' block]
StmtPtr Parser::parseWhile() {
  SMLoc start = tok.getLoc();
  consume();
  ExprPtr cond = parseTest();
  if (!cond)
    return nullptr;
  if (tok.isNot(TokenKind::colon))
    return emitUnexpected("expected ':' after 'while' condition");
  consume();
  StmtList body, orelse;
  if (!parseBlock(body, "'while' statement") || !parseElse(orelse))
    return nullptr;
  return std::make_unique<WhileStmtAST>(rangeFrom(start), std::move(cond),
                                        std::move(body), std::move(orelse));
}

/// decorated: decorator+ funcdef
/// decorator: '@' test NEWLINE
StmtPtr Parser::parseDecorated() {
  ExprList decorators;
  while (tok.is(TokenKind::at)) {
    consume();
    ExprPtr decorator = parseTest();
    if (!decorator)
      return nullptr;
    if (tok.isNot(TokenKind::newline))
      return emitSyntaxError("expected a newline after decorator");
    consume();
    decorators.push_back(std::move(decorator));
  }
  if (tok.is(TokenKind::kw_def))
    return parseFunctionDef(std::move(decorators));
  if (tok.isAny(TokenKind::kw_class, TokenKind::kw_async))
    return parseUnsupportedCompound();
  return emitUnexpected("expected 'def' after decorator");
}

/// funcdef: 'def' NAME '(' [parameters] ')' ['->' test] ':' block
///
/// The statement's range starts at `def`; decorators keep their own ranges.
StmtPtr Parser::parseFunctionDef(ExprList decorators) {
  SMLoc start = tok.getLoc();
  consume();
  if (tok.isNot(TokenKind::identifier))
    return emitUnexpected("expected a function name after 'def'");
  std::string name = tok.getSpelling().str();
  llvm::SMRange nameRange = tok.getRange();
  consume();
  if (tok.isNot(TokenKind::l_paren))
    return emitUnexpected("expected '(' after function name");
  consume();
  std::vector<ParamAST> params;
  if (!parseParameters(params))
    return nullptr;
  ExprPtr returns;
  if (consumeIf(TokenKind::arrow)) {
    returns = parseTest();
    if (!returns)
      return nullptr;
  }
  if (tok.isNot(TokenKind::colon))
    return emitUnexpected("expected ':' after function signature");
  consume();
  StmtList body;
  if (!parseBlock(body, "function definition"))
    return nullptr;
  return std::make_unique<FunctionDefAST>(
      rangeFrom(start), std::move(name), nameRange, std::move(decorators),
      std::move(params), std::move(returns), std::move(body));
}

/// parameters: param (',' param)* [','] closer
/// param: NAME [':' test] ['=' test] | '*' [NAME] | '**' NAME
///
/// Called after '(' (or `lambda`); consumes `closer`. Annotations are only
/// parsed when `closer` is ')' (a lambda's ':' ends its parameters).
bool Parser::parseParameters(std::vector<ParamAST> &params, TokenKind closer) {
  llvm::StringSet<> seen;
  bool sawDefault = false, sawVarKeywords = false, sawStar = false;
  while (tok.isNot(closer)) {
    if (tok.is(TokenKind::slash)) {
      // `def f(a, /, b)`: the parameters before it are positional-only,
      // which tilec does not enforce.
      consume();
      consumeIf(TokenKind::comma);
      continue;
    }
    SMLoc start = tok.getLoc();
    ParamKind kind = ParamKind::Normal;
    if (sawVarKeywords) {
      emitError(start, "parameters cannot follow '**' parameters");
      return false;
    }
    if (tok.isAny(TokenKind::star, TokenKind::starstar)) {
      kind =
          tok.is(TokenKind::star) ? ParamKind::VarArgs : ParamKind::VarKeywords;
      sawVarKeywords = kind == ParamKind::VarKeywords;
      sawStar = true;
      consume();
      // A bare '*' only marks the parameters after it keyword-only.
      if (kind == ParamKind::VarArgs && tok.isAny(TokenKind::comma, closer)) {
        consumeIf(TokenKind::comma);
        continue;
      }
    }
    if (tok.isNot(TokenKind::identifier)) {
      emitUnexpected("expected a parameter name");
      return false;
    }
    ParamAST param;
    param.kind = kind;
    param.name = tok.getSpelling().str();
    if (!seen.insert(param.name).second) {
      emitError(start, "duplicate argument '" + param.name +
                           "' in function definition");
      return false;
    }
    consume();
    if (closer == TokenKind::r_paren && consumeIf(TokenKind::colon)) {
      param.annotation = parseTest();
      if (!param.annotation)
        return false;
    }
    if (kind == ParamKind::Normal && consumeIf(TokenKind::equal)) {
      param.defaultValue = parseTest();
      if (!param.defaultValue)
        return false;
      sawDefault = true;
    } else if (kind == ParamKind::Normal && sawDefault && !sawStar) {
      emitError(start, "parameter without a default follows parameter with "
                       "a default");
      return false;
    }
    param.range = rangeFrom(start);
    params.push_back(std::move(param));
    if (consumeIf(TokenKind::comma))
      continue;
    if (tok.isNot(closer)) {
      emitSyntaxError(closer == TokenKind::r_paren
                          ? "expected ',' or ')' in parameter list"
                          : "expected ',' or ':' in lambda parameters");
      return false;
    }
  }
  consume();
  return true;
}
