//===- Parser.cpp - Parser entry point, tokens and diagnostics ------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file implements tilec::parseModule and the parts of the Parser that
// are shared by statements and expressions: moving through the token stream,
// reporting syntax errors (including CPython's "'(' was never closed"
// heuristic), and the guards that bound nesting. The grammar itself lives in
// ParseStmt.cpp and ParseExpr.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Parser.h"

#include "ParserImpl.h"

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;
using namespace tilec::detail;

std::unique_ptr<ModuleAST> tilec::parseModule(llvm::SourceMgr &srcMgr,
                                              unsigned bufferId) {
  if (bufferId == 0 || bufferId > srcMgr.getNumBuffers())
    return nullptr;
  Parser parser(srcMgr, bufferId);
  return parser.parseModule();
}

Parser::Parser(llvm::SourceMgr &srcMgr, unsigned bufferId)
    : srcMgr(srcMgr), lexer(srcMgr, bufferId) {
  prevEnd = llvm::SMLoc::getFromPointer(
      srcMgr.getMemoryBuffer(bufferId)->getBufferStart());
  tok = lexer.lex();
  if (tok.is(TokenKind::error))
    emitError(tok.getLoc(), tok.getStringValue());
}

//===----------------------------------------------------------------------===//
// Token stream
//===----------------------------------------------------------------------===//

void Parser::consume() {
  if (!tok.isAny(TokenKind::newline, TokenKind::indent, TokenKind::dedent,
                 TokenKind::eof, TokenKind::error))
    prevEnd = tok.getEndLoc();
  if (lookahead) {
    tok = std::move(*lookahead);
    lookahead.reset();
  } else {
    tok = lexer.lex();
  }
  if (tok.is(TokenKind::error))
    emitError(tok.getLoc(), tok.getStringValue());
}

bool Parser::consumeIf(TokenKind kind) {
  if (tok.isNot(kind))
    return false;
  consume();
  return true;
}

const Token &Parser::peekNext() {
  if (!lookahead)
    lookahead = lexer.lex();
  return *lookahead;
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::nullptr_t Parser::emitError(llvm::SMLoc loc, const llvm::Twine &message) {
  if (failed)
    return nullptr;
  failed = true;
  printSourceDiagnostic(
      srcMgr, srcMgr.GetMessage(loc, llvm::SourceMgr::DK_Error, message),
      llvm::errs());
  return nullptr;
}

std::nullptr_t Parser::emitUnexpected(const llvm::Twine &message) {
  switch (tok.getKind()) {
  case TokenKind::error:
    // Reported when it became the current token.
    return emitError(tok.getLoc(), tok.getStringValue());
  case TokenKind::indent:
    return emitError(tok.getLoc(), "unexpected indent");
  case TokenKind::walrus:
    return emitUnsupported("':=' (assignment expression)", tok.getLoc());
  default:
    return emitError(tok.getLoc(), message);
  }
}

std::nullptr_t Parser::emitSyntaxError(const llvm::Twine &message) {
  if (!failed && lexer.getBracketDepth() > 0 &&
      !tok.isAny(TokenKind::error, TokenKind::indent, TokenKind::walrus)) {
    // Look for an error later in the buffer saying a bracket is never
    // closed: the tokens after an unclosed bracket rarely make sense.
    Token next = lookahead ? *lookahead : lexer.lex();
    while (!next.isAny(TokenKind::eof, TokenKind::error))
      next = lexer.lex();
    if (next.is(TokenKind::error) &&
        next.getStringValue().ends_with("' was never closed"))
      return emitError(next.getLoc(), next.getStringValue());
  }
  return emitUnexpected(message);
}

std::nullptr_t Parser::emitUnsupported(llvm::StringRef what, llvm::SMLoc loc) {
  // Quote a bare keyword or symbol; a phrase is used as it is.
  if (what.find_first_of(" '") != llvm::StringRef::npos)
    return emitError(loc, what + " is not supported in tilec kernels");
  return emitError(loc, "'" + what + "' is not supported in tilec kernels");
}

std::nullptr_t Parser::emitElementError(char closer) {
  if (tok.is(TokenKind::kw_for))
    return emitError(tok.getLoc(),
                     "comprehensions are not supported in tilec kernels");
  if (tok.is(TokenKind::equal))
    return emitSyntaxError(
        "invalid syntax. Maybe you meant '==' instead of '='?");
  if (startsExpression(tok))
    return emitSyntaxError("invalid syntax. Perhaps you forgot a comma?");
  return emitSyntaxError(llvm::Twine("expected ',' or '") +
                         llvm::Twine(closer) + "'");
}

//===----------------------------------------------------------------------===//
// Nesting guards
//===----------------------------------------------------------------------===//

Parser::RecursionGuard::RecursionGuard(Parser &parser) : parser(parser) {
  ok = ++parser.recursionDepth <= maxRecursionDepth;
  if (!ok)
    parser.emitError(parser.tok.getLoc(), "too many nested expressions");
}

bool Parser::BlockGuard::push(llvm::SMLoc loc, const llvm::Twine &message) {
  ++count;
  if (++parser.blockDepth <= maxBlockDepth)
    return true;
  parser.emitError(loc, message);
  return false;
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

/// file: (NEWLINE | statement)* EOF
std::unique_ptr<ModuleAST> Parser::parseModule() {
  StmtList body;
  while (!failed && tok.isNot(TokenKind::eof)) {
    if (tok.is(TokenKind::newline)) {
      consume();
      continue;
    }
    if (!parseStatement(body)) {
      // Every failing path reports an error; this is only a safety net.
      emitUnexpected("invalid syntax");
      break;
    }
  }
  if (failed)
    return nullptr;
  return std::make_unique<ModuleAST>(std::move(body));
}
