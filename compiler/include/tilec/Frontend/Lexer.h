//===- Lexer.h - Tokenizer for .tile sources --------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file declares the Lexer, which turns a .tile source buffer into Python 3
// tokens: NEWLINE/INDENT/DEDENT from an indentation stack, implicit line
// joining inside brackets, explicit `\` continuation, keywords, identifiers,
// numeric and string literals, and operators.
//
// The lexer never prints anything. A malformed input yields one token of kind
// `error` whose string value is the message and whose location is where the
// problem is; every later call returns `eof`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_LEXER_H
#define TILEC_FRONTEND_LEXER_H

#include "tilec/Frontend/Token.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace llvm {
class SourceMgr;
class Twine;
} // namespace llvm

namespace tilec {

/// Produces the tokens of one source buffer on demand.
class Lexer {
public:
  /// Lexes `buffer`. The buffer must stay alive as long as the tokens; to get
  /// diagnostics with line numbers it should be a buffer of a SourceMgr. It
  /// may contain any bytes (NUL included); its end is `buffer.end()`.
  explicit Lexer(llvm::StringRef buffer);
  /// Lexes buffer `bufferId` of `srcMgr`.
  Lexer(const llvm::SourceMgr &srcMgr, unsigned bufferId);

  /// Returns the next token. After `eof` or `error`, returns `eof` forever.
  Token lex();

  /// The number of brackets (`(`, `[`, `{`) open at the current position.
  unsigned getBracketDepth() const { return brackets.size(); }

  /// The most indentation levels a file may have (as in CPython).
  static constexpr unsigned maxIndentLevels = 100;
  /// The most brackets that may be open at once (as in CPython).
  static constexpr unsigned maxBracketDepth = 200;

private:
  /// Lexes the token that starts at `curPtr` (whitespace already skipped).
  Token lexToken();
  /// Handles the start of a logical line: skips blank and comment-only lines
  /// and computes INDENT/DEDENT. Returns true and sets `result` if it
  /// produced a token.
  bool lexLineStart(Token &result);
  /// Produces the tokens that end the buffer: NEWLINE, DEDENTs, EOF.
  Token lexEndOfBuffer();
  /// Lexes an identifier or keyword at `start`, or a string literal if the
  /// identifier is a string prefix (`r`, `u`, `f`; `b` and `t` make host
  /// literals).
  Token lexIdentifierOrKeyword(const char *start);
  /// Lexes an integer or floating-point literal at `start`.
  Token lexNumber(const char *start);
  /// Lexes a string literal that starts at `start` (its prefix, if any) and
  /// whose opening quote is at `quote`; `raw` disables escapes.
  Token lexString(const char *start, const char *quote, bool raw,
                  TokenKind kind = TokenKind::string);
  /// The literal `lexed` as a host-only literal token saying `what` it is
  /// (an error token stays one).
  Token hostLiteral(Token lexed, llvm::StringRef what);
  /// Lexes an operator or delimiter at `start`, tracking brackets.
  Token lexPunctuation(const char *start);

  /// Builds a token of `kind` spanning [start, curPtr).
  Token makeToken(TokenKind kind, const char *start);
  /// Builds an error token at `loc` (spanning `len` bytes) and stops lexing.
  Token makeError(const char *loc, const llvm::Twine &message, size_t len = 1);
  /// The byte `offset` positions after `p`, or 0 past the end of the buffer.
  char peek(const char *p, size_t offset = 0) const;
  /// The 1-based line number of `p` (only used for messages).
  unsigned lineOf(const char *p) const;

  /// One open bracket: its character and where it is.
  struct OpenBracket {
    /// `(`, `[` or `{`.
    char kind;
    /// The position of the bracket in the buffer.
    const char *loc;
  };

  /// The first byte of the buffer being lexed.
  const char *bufStart;
  /// One past the last byte of the buffer being lexed.
  const char *bufEnd;
  /// The next character to look at.
  const char *curPtr;
  /// Indentation columns of the enclosing blocks; always starts with 0.
  std::vector<unsigned> indentStack;
  /// Brackets currently open, innermost last.
  std::vector<OpenBracket> brackets;
  /// DEDENT tokens still to be returned.
  unsigned pendingDedents = 0;
  /// Where the pending DEDENT tokens are placed.
  const char *pendingDedentLoc = nullptr;
  /// True when the next token starts a logical line.
  bool atLineStart = true;
  /// True if a token other than INDENT/DEDENT was produced on this line.
  bool lineHasTokens = false;
  /// True once `eof` or `error` was returned.
  bool done = false;
  /// The first byte that is not part of valid UTF-8 text, if any: the
  /// first token is an error there, as Python rejects such a file.
  const char *invalidText = nullptr;
};

} // namespace tilec

#endif // TILEC_FRONTEND_LEXER_H
