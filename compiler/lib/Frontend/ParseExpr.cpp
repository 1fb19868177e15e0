//===- ParseExpr.cpp - Parsing of .tile expressions -----------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file implements the expression half of the recursive-descent Parser,
// with Python's precedence, from loosest to tightest:
//
//   conditional expression  <  or  <  and  <  not  <  comparisons (chained)
//   <  |  <  ^  <  &  <  << >>  <  + -  <  * / // % @  <  unary + - ~
//   <  ** (right associative)  <  calls, subscripts, attributes
//
// The binary operators from `|` to `*` are parsed by precedence climbing; the
// other levels have their own method. Every node gets the range from its
// first to its last token; binary operators are located at the operator,
// attributes at the attribute name, calls at the start of the callee.
//
//===----------------------------------------------------------------------===//

#include "ParserImpl.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Casting.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::detail;
using llvm::SMLoc;

//===----------------------------------------------------------------------===//
// Tree heights
//===----------------------------------------------------------------------===//

unsigned Parser::heightOf(const ExprAST *e) const {
  if (!e)
    return 0;
  auto it = heights.find(e);
  return it == heights.end() ? 1 : it->second;
}

unsigned Parser::newHeight(SMLoc loc,
                           std::initializer_list<const ExprAST *> children,
                           const ExprList *more) {
  unsigned tallest = 0;
  for (const ExprAST *child : children)
    tallest = std::max(tallest, heightOf(child));
  if (more)
    for (const ExprPtr &child : *more)
      tallest = std::max(tallest, heightOf(child.get()));
  if (tallest + 1 > maxExprHeight) {
    emitError(loc, "too many nested expressions");
    return 0;
  }
  return tallest + 1;
}

ExprPtr Parser::record(ExprPtr node, unsigned height) {
  heights[node.get()] = height;
  return node;
}

//===----------------------------------------------------------------------===//
// Expression lists
//===----------------------------------------------------------------------===//

bool Parser::startsExpression(const Token &tok) {
  switch (tok.getKind()) {
  case TokenKind::identifier:
  case TokenKind::integer:
  case TokenKind::floating:
  case TokenKind::string:
  case TokenKind::fstring:
  case TokenKind::hostliteral:
  case TokenKind::kw_True:
  case TokenKind::kw_False:
  case TokenKind::kw_None:
  case TokenKind::kw_not:
  case TokenKind::kw_lambda:
  case TokenKind::kw_await:
  case TokenKind::kw_yield:
  case TokenKind::l_paren:
  case TokenKind::l_square:
  case TokenKind::l_brace:
  case TokenKind::plus:
  case TokenKind::minus:
  case TokenKind::tilde:
  case TokenKind::star:
  case TokenKind::ellipsis:
    return true;
  default:
    return false;
  }
}

/// testlist: test (',' test)* [',']
///
/// More than one element, or a trailing comma, makes a bare tuple.
ExprPtr Parser::parseTestList() {
  return parseCommaSeparated(&Parser::parseTest);
}

/// target_list: bitor (',' bitor)* [',']
///
/// The targets of a `for` loop stop before comparisons, so that the `in`
/// that follows them is not parsed as an operator.
ExprPtr Parser::parseTargetList() {
  return parseCommaSeparated(&Parser::parseBitOr);
}

ExprPtr Parser::parseCommaSeparated(ExprPtr (Parser::*parseElement)()) {
  SMLoc start = tok.getLoc();
  ExprPtr first = (this->*parseElement)();
  if (!first || tok.isNot(TokenKind::comma))
    return first;
  ExprList elements;
  elements.push_back(std::move(first));
  while (consumeIf(TokenKind::comma) && startsExpression(tok)) {
    ExprPtr element = (this->*parseElement)();
    if (!element)
      return nullptr;
    elements.push_back(std::move(element));
  }
  unsigned height = newHeight(start, {}, &elements);
  if (!height)
    return nullptr;
  return record(
      std::make_unique<TupleExprAST>(rangeFrom(start), std::move(elements)),
      height);
}

//===----------------------------------------------------------------------===//
// Boolean and comparison levels
//===----------------------------------------------------------------------===//

/// test: or_test ['if' or_test 'else' test] | lambdef
ExprPtr Parser::parseTest() {
  RecursionGuard guard(*this);
  if (!guard)
    return nullptr;
  if (tok.is(TokenKind::kw_lambda))
    return parseLambda();
  SMLoc start = tok.getLoc();
  ExprPtr thenValue = parseOrTest();
  if (thenValue && tok.is(TokenKind::walrus) &&
      llvm::isa<NameExprAST>(*thenValue)) {
    // `(n := len(x))` in host code.
    consume();
    ExprPtr value = parseTest();
    if (!value)
      return nullptr;
    unsigned height = newHeight(start, {value.get()});
    if (!height)
      return nullptr;
    std::string name = llvm::cast<NameExprAST>(*thenValue).getName().str();
    return record(std::make_unique<NamedExprAST>(
                      rangeFrom(start), std::move(name), std::move(value)),
                  height);
  }
  if (!thenValue || tok.isNot(TokenKind::kw_if))
    return thenValue;
  consume();
  ExprPtr cond = parseOrTest();
  if (!cond)
    return nullptr;
  if (tok.isNot(TokenKind::kw_else))
    return emitUnexpected("expected 'else' after 'if' expression");
  consume();
  ExprPtr elseValue = parseTest();
  if (!elseValue)
    return nullptr;
  unsigned height =
      newHeight(start, {cond.get(), thenValue.get(), elseValue.get()});
  if (!height)
    return nullptr;
  return record(std::make_unique<IfExpAST>(rangeFrom(start), std::move(cond),
                                           std::move(thenValue),
                                           std::move(elseValue)),
                height);
}

/// or_test: and_test ('or' and_test)*
ExprPtr Parser::parseOrTest() {
  return parseBooleanChain(TokenKind::kw_or, BinaryOp::Or,
                           &Parser::parseAndTest);
}

/// and_test: not_test ('and' not_test)*
ExprPtr Parser::parseAndTest() {
  return parseBooleanChain(TokenKind::kw_and, BinaryOp::And,
                           &Parser::parseNotTest);
}

ExprPtr Parser::parseBooleanChain(TokenKind keyword, BinaryOp op,
                                  ExprPtr (Parser::*parseOperand)()) {
  SMLoc start = tok.getLoc();
  ExprPtr lhs = (this->*parseOperand)();
  while (lhs && tok.is(keyword)) {
    SMLoc opLoc = tok.getLoc();
    consume();
    ExprPtr rhs = (this->*parseOperand)();
    if (!rhs)
      return nullptr;
    unsigned height = newHeight(opLoc, {lhs.get(), rhs.get()});
    if (!height)
      return nullptr;
    lhs = record(std::make_unique<BinaryExprAST>(
                     rangeFrom(start), op, std::move(lhs), std::move(rhs)),
                 height);
    lhs->setLoc(opLoc);
  }
  return lhs;
}

/// not_test: 'not' not_test | comparison
ExprPtr Parser::parseNotTest() {
  if (tok.isNot(TokenKind::kw_not))
    return parseComparison();
  RecursionGuard guard(*this);
  if (!guard)
    return nullptr;
  SMLoc start = tok.getLoc();
  consume();
  ExprPtr operand = parseNotTest();
  if (!operand)
    return nullptr;
  unsigned height = newHeight(start, {operand.get()});
  if (!height)
    return nullptr;
  return record(std::make_unique<UnaryExprAST>(rangeFrom(start), UnaryOp::Not,
                                               std::move(operand)),
                height);
}

/// comparison: bitor (comp_op bitor)*
/// comp_op: '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in'
///        | 'is' | 'is' 'not'
///
/// `a < b < c` becomes `Binary(<, Binary(<, a, b), c)` with the outer node
/// marked chained.
ExprPtr Parser::parseComparison() {
  SMLoc start = tok.getLoc();
  ExprPtr lhs = parseBitOr();
  bool chained = false;
  while (lhs) {
    BinaryOp op;
    switch (tok.getKind()) {
    case TokenKind::less:
      op = BinaryOp::Lt;
      break;
    case TokenKind::greater:
      op = BinaryOp::Gt;
      break;
    case TokenKind::equalequal:
      op = BinaryOp::Eq;
      break;
    case TokenKind::greaterequal:
      op = BinaryOp::Ge;
      break;
    case TokenKind::lessequal:
      op = BinaryOp::Le;
      break;
    case TokenKind::notequal:
      op = BinaryOp::Ne;
      break;
    case TokenKind::kw_in:
      op = BinaryOp::In;
      break;
    case TokenKind::kw_not:
      op = BinaryOp::NotIn;
      break;
    case TokenKind::kw_is:
      op = BinaryOp::Is;
      break;
    default:
      return lhs;
    }
    SMLoc opLoc = tok.getLoc();
    consume();
    if (op == BinaryOp::NotIn) {
      if (tok.isNot(TokenKind::kw_in))
        return emitUnexpected("expected 'in' after 'not'");
      consume();
    } else if (op == BinaryOp::Is && consumeIf(TokenKind::kw_not)) {
      op = BinaryOp::IsNot;
    }
    ExprPtr rhs = parseBitOr();
    if (!rhs)
      return nullptr;
    unsigned height = newHeight(opLoc, {lhs.get(), rhs.get()});
    if (!height)
      return nullptr;
    lhs = record(std::make_unique<BinaryExprAST>(rangeFrom(start), op,
                                                 std::move(lhs), std::move(rhs),
                                                 chained),
                 height);
    lhs->setLoc(opLoc);
    chained = true;
  }
  return lhs;
}

//===----------------------------------------------------------------------===//
// Arithmetic and bitwise levels
//===----------------------------------------------------------------------===//

/// The operator and precedence of binary operator token `kind` among the
/// levels parsed by precedence climbing; precedence 0 if it is not one.
static unsigned getBinaryPrecedence(TokenKind kind, BinaryOp &op) {
  switch (kind) {
  case TokenKind::pipe:
    op = BinaryOp::BitOr;
    return 1;
  case TokenKind::caret:
    op = BinaryOp::BitXor;
    return 2;
  case TokenKind::amp:
    op = BinaryOp::BitAnd;
    return 3;
  case TokenKind::lessless:
    op = BinaryOp::LShift;
    return 4;
  case TokenKind::greatergreater:
    op = BinaryOp::RShift;
    return 4;
  case TokenKind::plus:
    op = BinaryOp::Add;
    return 5;
  case TokenKind::minus:
    op = BinaryOp::Sub;
    return 5;
  case TokenKind::star:
    op = BinaryOp::Mul;
    return 6;
  case TokenKind::slash:
    op = BinaryOp::Div;
    return 6;
  case TokenKind::slashslash:
    op = BinaryOp::FloorDiv;
    return 6;
  case TokenKind::percent:
    op = BinaryOp::Mod;
    return 6;
  case TokenKind::at:
    op = BinaryOp::MatMul;
    return 6;
  default:
    return 0;
  }
}

/// bitor: xor ('|' xor)*
/// xor:   and ('^' and)*
/// and:   shift ('&' shift)*
/// shift: arith (('<<' | '>>') arith)*
/// arith: term (('+' | '-') term)*
/// term:  factor (('*' | '/' | '//' | '%' | '@') factor)*
ExprPtr Parser::parseBitOr() {
  SMLoc start = tok.getLoc();
  ExprPtr lhs = parseFactor();
  if (!lhs)
    return nullptr;
  return parseBinaryRHS(1, std::move(lhs), start);
}

/// Precedence climbing: folds the operators of precedence `minPrec` or
/// higher that follow `lhs` (which starts at `start`) into it. All these
/// levels are left associative.
ExprPtr Parser::parseBinaryRHS(unsigned minPrec, ExprPtr lhs, SMLoc start) {
  for (;;) {
    BinaryOp op;
    unsigned prec = getBinaryPrecedence(tok.getKind(), op);
    if (prec == 0 || prec < minPrec)
      return lhs;
    SMLoc opLoc = tok.getLoc();
    consume();
    SMLoc rhsStart = tok.getLoc();
    ExprPtr rhs = parseFactor();
    if (!rhs)
      return nullptr;
    // Let tighter operators after the right operand take it first. This
    // recursion is at most as deep as the number of precedence levels.
    BinaryOp nextOp;
    while (getBinaryPrecedence(tok.getKind(), nextOp) > prec) {
      rhs = parseBinaryRHS(prec + 1, std::move(rhs), rhsStart);
      if (!rhs)
        return nullptr;
    }
    unsigned height = newHeight(opLoc, {lhs.get(), rhs.get()});
    if (!height)
      return nullptr;
    lhs = record(std::make_unique<BinaryExprAST>(
                     rangeFrom(start), op, std::move(lhs), std::move(rhs)),
                 height);
    lhs->setLoc(opLoc);
  }
}

/// factor: ('+' | '-' | '~') factor | power
ExprPtr Parser::parseFactor() {
  UnaryOp op;
  switch (tok.getKind()) {
  case TokenKind::plus:
    op = UnaryOp::Plus;
    break;
  case TokenKind::minus:
    op = UnaryOp::Neg;
    break;
  case TokenKind::tilde:
    op = UnaryOp::Invert;
    break;
  default:
    return parsePower();
  }
  RecursionGuard guard(*this);
  if (!guard)
    return nullptr;
  SMLoc start = tok.getLoc();
  consume();
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  unsigned height = newHeight(start, {operand.get()});
  if (!height)
    return nullptr;
  return record(
      std::make_unique<UnaryExprAST>(rangeFrom(start), op, std::move(operand)),
      height);
}

/// power: primary ['**' factor]
///
/// The exponent is a factor, so `**` is right associative and `-2**2` is
/// `-(2**2)` while `2**-1` is `2**(-1)`.
ExprPtr Parser::parsePower() {
  SMLoc start = tok.getLoc();
  ExprPtr base = parsePrimary();
  if (!base || tok.isNot(TokenKind::starstar))
    return base;
  SMLoc opLoc = tok.getLoc();
  consume();
  RecursionGuard guard(*this);
  if (!guard)
    return nullptr;
  ExprPtr exponent = parseFactor();
  if (!exponent)
    return nullptr;
  unsigned height = newHeight(opLoc, {base.get(), exponent.get()});
  if (!height)
    return nullptr;
  ExprPtr result = record(
      std::make_unique<BinaryExprAST>(rangeFrom(start), BinaryOp::Pow,
                                      std::move(base), std::move(exponent)),
      height);
  result->setLoc(opLoc);
  return result;
}

//===----------------------------------------------------------------------===//
// Primaries
//===----------------------------------------------------------------------===//

/// primary: atom trailer*
/// trailer: '(' [arglist] ')' | '[' subscripts ']' | '.' NAME
ExprPtr Parser::parsePrimary() {
  SMLoc start = tok.getLoc();
  ExprPtr value = parseAtom();
  while (value) {
    if (tok.is(TokenKind::l_paren)) {
      value = parseCall(std::move(value), start);
    } else if (tok.is(TokenKind::l_square)) {
      value = parseSubscript(std::move(value), start);
    } else if (tok.is(TokenKind::period)) {
      consume();
      if (tok.isNot(TokenKind::identifier))
        return emitUnexpected("expected an attribute name after '.'");
      SMLoc nameLoc = tok.getLoc();
      std::string name = tok.getSpelling().str();
      consume();
      unsigned height = newHeight(nameLoc, {value.get()});
      if (!height)
        return nullptr;
      value = record(std::make_unique<AttributeExprAST>(
                         rangeFrom(start), std::move(value), std::move(name)),
                     height);
      value->setLoc(nameLoc);
    } else {
      break;
    }
  }
  return value;
}

/// call: primary '(' [arglist] ')'
/// arglist: argument (',' argument)* [',']
/// argument: test | NAME '=' test
///
/// Positional arguments must come before keyword arguments.
ExprPtr Parser::parseCall(ExprPtr callee, SMLoc start) {
  consume();
  ExprList args;
  std::vector<KeywordArg> keywords;
  llvm::StringSet<> keywordNames;
  bool closed = false; // a generator expression consumed the ')'
  bool sawDoubleStar = false;
  while (tok.isNot(TokenKind::r_paren)) {
    if (tok.isAny(TokenKind::star, TokenKind::starstar)) {
      // `f(*args, **kwargs)`: kept in order among the positional arguments.
      SMLoc starStart = tok.getLoc();
      bool isDouble = tok.is(TokenKind::starstar);
      consume();
      ExprPtr value = parseTest();
      if (!value)
        return nullptr;
      if (!isDouble && sawDoubleStar)
        return emitError(starStart, "iterable argument unpacking follows "
                                    "keyword argument unpacking");
      sawDoubleStar |= isDouble;
      unsigned height = newHeight(starStart, {value.get()});
      if (!height)
        return nullptr;
      args.push_back(
          record(std::make_unique<StarredExprAST>(rangeFrom(starStart),
                                                  std::move(value), isDouble),
                 height));
      if (consumeIf(TokenKind::comma))
        continue;
      if (tok.isNot(TokenKind::r_paren))
        return emitElementError(')');
      continue;
    }
    SMLoc argStart = tok.getLoc();
    ExprPtr arg = parseTest();
    if (!arg)
      return nullptr;
    if (tok.is(TokenKind::equal)) {
      auto *name = llvm::dyn_cast<NameExprAST>(arg.get());
      if (!name || name->getRange().Start != argStart)
        return emitError(argStart, "expression cannot contain assignment, "
                                   "perhaps you meant \"==\"?");
      KeywordArg keyword;
      keyword.name = name->getName().str();
      keyword.nameRange = name->getRange();
      if (!keywordNames.insert(keyword.name).second)
        return emitError(argStart,
                         "keyword argument repeated: " + keyword.name);
      consume();
      keyword.value = parseTest();
      if (!keyword.value)
        return nullptr;
      keywords.push_back(std::move(keyword));
    } else {
      if (tok.is(TokenKind::kw_for)) {
        // `f(x for x in xs)`: a generator expression as the only argument.
        if (!args.empty() || !keywords.empty())
          return emitError(argStart, "a generator expression must be "
                                     "parenthesized unless it is the only "
                                     "argument");
        arg = parseComprehension(std::move(arg), argStart, TokenKind::r_paren,
                                 /*isGenerator=*/true);
        if (!arg)
          return nullptr;
        args.push_back(std::move(arg));
        closed = true;
        break;
      }
      if (!keywords.empty())
        return emitError(argStart,
                         "positional argument follows keyword argument");
      args.push_back(std::move(arg));
    }
    if (consumeIf(TokenKind::comma))
      continue;
    if (tok.isNot(TokenKind::r_paren))
      return emitElementError(')');
  }
  if (!closed)
    consume();

  unsigned height = newHeight(start, {callee.get()}, &args);
  for (const KeywordArg &keyword : keywords)
    if (height)
      height = std::max(height, newHeight(start, {keyword.value.get()}));
  if (!height)
    return nullptr;
  ExprPtr call = record(
      std::make_unique<CallExprAST>(rangeFrom(start), std::move(callee),
                                    std::move(args), std::move(keywords)),
      height);
  call->setLoc(start);
  return call;
}

/// subscripts: subscript (',' subscript)* [',']
ExprPtr Parser::parseSubscript(ExprPtr value, SMLoc start) {
  consume();
  ExprList indices;
  for (;;) {
    ExprPtr index = parseSubscriptIndex();
    if (!index)
      return nullptr;
    indices.push_back(std::move(index));
    if (consumeIf(TokenKind::comma)) {
      if (tok.is(TokenKind::r_square))
        break;
      continue;
    }
    if (tok.is(TokenKind::r_square))
      break;
    return emitElementError(']');
  }
  consume();
  unsigned height = newHeight(start, {value.get()}, &indices);
  if (!height)
    return nullptr;
  return record(std::make_unique<SubscriptExprAST>(
                    rangeFrom(start), std::move(value), std::move(indices)),
                height);
}

/// subscript: test | [test] ':' [test] [':' [test]]
ExprPtr Parser::parseSubscriptIndex() {
  SMLoc start = tok.getLoc();
  ExprPtr lower;
  if (tok.isNot(TokenKind::colon)) {
    lower = parseTest();
    if (!lower || tok.isNot(TokenKind::colon))
      return lower;
  }
  consume();
  auto endsPart = [&] {
    return tok.isAny(TokenKind::colon, TokenKind::comma, TokenKind::r_square);
  };
  ExprPtr upper, step;
  if (!endsPart()) {
    upper = parseTest();
    if (!upper)
      return nullptr;
  }
  if (consumeIf(TokenKind::colon) && !endsPart()) {
    step = parseTest();
    if (!step)
      return nullptr;
  }
  unsigned height = newHeight(start, {lower.get(), upper.get(), step.get()});
  if (!height)
    return nullptr;
  return record(
      std::make_unique<SliceExprAST>(rangeFrom(start), std::move(lower),
                                     std::move(upper), std::move(step)),
      height);
}

//===----------------------------------------------------------------------===//
// Atoms
//===----------------------------------------------------------------------===//

/// atom: NAME | NUMBER | STRING+ | 'True' | 'False' | 'None'
///     | '(' [testlist] ')' | '[' [testlist] ']'
ExprPtr Parser::parseAtom() {
  llvm::SMRange range = tok.getRange();
  ExprPtr result;
  switch (tok.getKind()) {
  case TokenKind::identifier:
    result = std::make_unique<NameExprAST>(range, tok.getSpelling().str());
    break;
  case TokenKind::integer:
    result = std::make_unique<IntExprAST>(range, tok.getIntValue());
    break;
  case TokenKind::floating:
    result = std::make_unique<FloatExprAST>(range, tok.getFloatValue());
    break;
  case TokenKind::kw_True:
  case TokenKind::kw_False:
    result = std::make_unique<BoolExprAST>(range, tok.is(TokenKind::kw_True));
    break;
  case TokenKind::kw_None:
    result = std::make_unique<NoneExprAST>(range);
    break;
  case TokenKind::string:
  case TokenKind::fstring:
    return parseStrings();
  case TokenKind::hostliteral: {
    // Adjacent literals (`b"ab" b"cd"`) make one.
    std::string what = tok.getStringValue().str();
    consume();
    while (tok.isAny(TokenKind::hostliteral, TokenKind::string,
                     TokenKind::fstring))
      consume();
    return record(
        std::make_unique<HostOnlyExprAST>(rangeFrom(range.Start), what), 1);
  }
  case TokenKind::l_paren:
    return parseParenthesized();
  case TokenKind::l_square:
    return parseList();
  case TokenKind::l_brace:
    return parseDict();
  case TokenKind::ellipsis:
    result =
        std::make_unique<HostOnlyExprAST>(range, "Ellipsis ('...') values");
    break;
  case TokenKind::kw_yield:
  case TokenKind::kw_await: {
    // `await f()`, `x = yield`, `yield from g()` in host coroutines and
    // generators.
    std::string what = "'" + tok.getSpelling().str() + "' expressions";
    bool isYield = tok.is(TokenKind::kw_yield);
    consume();
    ExprPtr operand;
    if (!isYield || startsExpression(tok) || tok.is(TokenKind::kw_from)) {
      if (!isYield)
        operand = parsePrimary();
      else if (consumeIf(TokenKind::kw_from))
        operand = parseTest();
      else
        operand = parseTestList();
      if (!operand)
        return nullptr;
    }
    unsigned height = newHeight(range.Start, {operand.get()});
    if (!height)
      return nullptr;
    return record(std::make_unique<HostOnlyExprAST>(rangeFrom(range.Start),
                                                    std::move(what)),
                  height);
  }
  case TokenKind::star: {
    // `*rest, last = shape` in host code: parsed, rejected when run.
    consume();
    ExprPtr value = parseBitOr();
    if (!value)
      return nullptr;
    unsigned height = newHeight(range.Start, {value.get()});
    if (!height)
      return nullptr;
    return record(std::make_unique<StarredExprAST>(rangeFrom(range.Start),
                                                   std::move(value), false),
                  height);
  }
  default:
    return emitUnexpected("expected an expression");
  }
  consume();
  return record(std::move(result), 1);
}

/// strings: (STRING | FSTRING)+
///
/// Adjacent string literals are concatenated into one node; with an f-string
/// among them, into one f-string (the braces of the plain parts doubled).
ExprPtr Parser::parseStrings() {
  SMLoc start = tok.getLoc();
  std::string value, formatted;
  bool isFormatted = false;
  while (tok.isAny(TokenKind::string, TokenKind::fstring)) {
    if (tok.is(TokenKind::fstring)) {
      isFormatted = true;
      formatted += tok.getStringValue();
    } else {
      value += tok.getStringValue();
      for (char c : tok.getStringValue()) {
        formatted += c;
        if (c == '{' || c == '}')
          formatted += c;
      }
    }
    consume();
  }
  if (isFormatted)
    return record(std::make_unique<FStringExprAST>(rangeFrom(start),
                                                   std::move(formatted)),
                  1);
  return record(
      std::make_unique<StringExprAST>(rangeFrom(start), std::move(value)), 1);
}

/// parenthesized: '(' ')' | '(' test ')' | '(' test ',' [testlist] ')'
///
/// `(x)` is `x` itself (with its own range); a comma makes a tuple whose
/// range includes the parentheses.
ExprPtr Parser::parseParenthesized() {
  SMLoc start = tok.getLoc();
  consume();
  ExprList elements;
  bool sawComma = false;
  while (tok.isNot(TokenKind::r_paren)) {
    ExprPtr element = parseTest();
    if (!element)
      return nullptr;
    if (elements.empty() && !sawComma && tok.is(TokenKind::kw_for))
      return parseComprehension(std::move(element), start, TokenKind::r_paren,
                                /*isGenerator=*/true);
    elements.push_back(std::move(element));
    if (consumeIf(TokenKind::comma)) {
      sawComma = true;
      continue;
    }
    if (tok.isNot(TokenKind::r_paren))
      return emitElementError(')');
  }
  consume();
  if (elements.size() == 1 && !sawComma)
    return std::move(elements.front());
  unsigned height = newHeight(start, {}, &elements);
  if (!height)
    return nullptr;
  return record(
      std::make_unique<TupleExprAST>(rangeFrom(start), std::move(elements)),
      height);
}

/// list: '[' [testlist] ']'
ExprPtr Parser::parseList() {
  SMLoc start = tok.getLoc();
  consume();
  ExprList elements;
  while (tok.isNot(TokenKind::r_square)) {
    ExprPtr element = parseTest();
    if (!element)
      return nullptr;
    if (elements.empty() && tok.is(TokenKind::kw_for))
      return parseComprehension(std::move(element), start, TokenKind::r_square,
                                /*isGenerator=*/false);
    elements.push_back(std::move(element));
    if (consumeIf(TokenKind::comma))
      continue;
    if (tok.isNot(TokenKind::r_square))
      return emitElementError(']');
  }
  consume();
  unsigned height = newHeight(start, {}, &elements);
  if (!height)
    return nullptr;
  return record(
      std::make_unique<ListExprAST>(rangeFrom(start), std::move(elements)),
      height);
}

/// Skips the rest of a brace display whose '{' is at `start`, to its '}',
/// as a host-only expression saying `what` it is.
ExprPtr Parser::skipHostDisplay(SMLoc start, llvm::StringRef what) {
  unsigned depth = 1;
  for (;;) {
    if (tok.isAny(TokenKind::eof, TokenKind::error))
      return emitSyntaxError("'{' was never closed");
    if (tok.isAny(TokenKind::l_paren, TokenKind::l_square, TokenKind::l_brace))
      ++depth;
    else if (tok.isAny(TokenKind::r_paren, TokenKind::r_square,
                       TokenKind::r_brace) &&
             --depth == 0)
      break;
    consume();
  }
  consume();
  return record(std::make_unique<HostOnlyExprAST>(rangeFrom(start), what.str()),
                1);
}

/// dict: '{' [test ':' test (',' test ':' test)* [',']] '}'
///
/// Set displays, set and dict comprehensions and `**` in a display are
/// host-only expressions.
ExprPtr Parser::parseDict() {
  SMLoc start = tok.getLoc();
  consume();
  ExprList keys, values;
  while (tok.isNot(TokenKind::r_brace)) {
    if (tok.is(TokenKind::starstar))
      return skipHostDisplay(start, "'**' in dict displays");
    ExprPtr key = parseTest();
    if (!key)
      return nullptr;
    if (tok.isNot(TokenKind::colon)) {
      if (tok.is(TokenKind::kw_for))
        return skipHostDisplay(start, "set comprehensions");
      if (tok.isAny(TokenKind::comma, TokenKind::r_brace))
        return skipHostDisplay(start, "set displays");
      return emitSyntaxError("expected ':' after a dict key");
    }
    consume();
    ExprPtr value = parseTest();
    if (!value)
      return nullptr;
    if (tok.is(TokenKind::kw_for))
      return skipHostDisplay(start, "dict comprehensions");
    keys.push_back(std::move(key));
    values.push_back(std::move(value));
    if (consumeIf(TokenKind::comma))
      continue;
    if (tok.isNot(TokenKind::r_brace))
      return emitElementError('}');
  }
  consume();
  unsigned keyHeight = newHeight(start, {}, &keys);
  unsigned height = keyHeight ? newHeight(start, {}, &values) : 0;
  if (!height)
    return nullptr;
  height = std::max(height, keyHeight);
  return record(std::make_unique<DictExprAST>(rangeFrom(start), std::move(keys),
                                              std::move(values)),
                height);
}

/// lambdef: 'lambda' [parameters] ':' test
ExprPtr Parser::parseLambda() {
  SMLoc start = tok.getLoc();
  consume();
  std::vector<ParamAST> params;
  if (!parseParameters(params, TokenKind::colon))
    return nullptr;
  ExprPtr body = parseTest();
  if (!body)
    return nullptr;
  unsigned height = newHeight(start, {body.get()});
  if (!height)
    return nullptr;
  return record(std::make_unique<LambdaExprAST>(
                    rangeFrom(start), std::move(params), std::move(body)),
                height);
}

/// comprehension: element ('for' target_list 'in' or_test ('if' or_test)*)+
ExprPtr Parser::parseComprehension(ExprPtr element, SMLoc start,
                                   TokenKind closer, bool isGenerator) {
  std::vector<ComprehensionClause> clauses;
  while (consumeIf(TokenKind::kw_for)) {
    ComprehensionClause clause;
    clause.target = parseTargetList();
    if (!clause.target || !checkAssignTarget(*clause.target))
      return nullptr;
    if (tok.isNot(TokenKind::kw_in))
      return emitSyntaxError("expected 'in' after the comprehension's target");
    consume();
    clause.iter = parseOrTest();
    if (!clause.iter)
      return nullptr;
    while (consumeIf(TokenKind::kw_if)) {
      ExprPtr cond = parseOrTest();
      if (!cond)
        return nullptr;
      clause.conditions.push_back(std::move(cond));
    }
    clauses.push_back(std::move(clause));
  }
  if (tok.isNot(closer))
    return emitSyntaxError(closer == TokenKind::r_square
                               ? "expected ']' after the comprehension"
                               : "expected ')' after the generator expression");
  consume();
  unsigned height = newHeight(start, {element.get()});
  for (const ComprehensionClause &clause : clauses) {
    if (!height)
      return nullptr;
    unsigned clauseHeight = newHeight(
        start, {clause.target.get(), clause.iter.get()}, &clause.conditions);
    height = clauseHeight ? std::max(height, clauseHeight) : 0;
  }
  if (!height)
    return nullptr;
  return record(std::make_unique<ComprehensionExprAST>(
                    rangeFrom(start), std::move(element), std::move(clauses),
                    isGenerator),
                height);
}
