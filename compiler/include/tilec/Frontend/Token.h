//===- Token.h - Tokens of the .tile lexer ----------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file declares Token, the unit the Lexer hands to the Parser: a kind
// (from TokenKinds.def), the source range it covers, and for literals the
// decoded value. An error token carries the lexer's diagnostic message.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TOKEN_H
#define TILEC_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <string>

namespace tilec {

/// Every kind of token, see TokenKinds.def.
enum class TokenKind : uint8_t {
#define TOK(NAME) NAME,
#include "tilec/Frontend/TokenKinds.def"
};

/// The name of a token kind as written in TokenKinds.def (`l_paren`,
/// `kw_if`, `newline`...). Useful in tests and debugging output.
llvm::StringRef getTokenKindName(TokenKind kind);

/// The fixed source spelling of a keyword or punctuation kind (`if`, `(`,
/// `**=`), or an empty string for markers, identifiers and literals.
llvm::StringRef getTokenSpelling(TokenKind kind);

/// One token of a .tile source buffer.
class Token {
public:
  /// An `eof` token with no location.
  Token() = default;
  /// A token of `kind` whose source text is `spelling`.
  Token(TokenKind kind, llvm::StringRef spelling)
      : kind(kind), spelling(spelling) {}

  /// The kind of this token.
  TokenKind getKind() const { return kind; }
  /// True if the token has kind `k`.
  bool is(TokenKind k) const { return kind == k; }
  /// True if the token does not have kind `k`.
  bool isNot(TokenKind k) const { return kind != k; }
  /// True if the token has any of the given kinds.
  template <typename... Kinds> bool isAny(TokenKind k, Kinds... rest) const {
    if (is(k))
      return true;
    if constexpr (sizeof...(rest) > 0)
      return isAny(rest...);
    return false;
  }
  /// True for the reserved words of Python.
  bool isKeyword() const;

  /// The source text of the token. Empty (but correctly placed) for the
  /// zero-width tokens: INDENT, DEDENT, EOF and a NEWLINE synthesized at the
  /// end of the buffer.
  llvm::StringRef getSpelling() const { return spelling; }
  /// The location of the first character of the token.
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data());
  }
  /// The location just past the last character of the token.
  llvm::SMLoc getEndLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data() + spelling.size());
  }
  /// The half-open range [getLoc(), getEndLoc()).
  llvm::SMRange getRange() const { return {getLoc(), getEndLoc()}; }

  /// The value of an `integer` token.
  int64_t getIntValue() const { return intValue; }
  /// Sets the value of an `integer` token.
  void setIntValue(int64_t v) { intValue = v; }
  /// The value of a `floating` token.
  double getFloatValue() const { return floatValue; }
  /// Sets the value of a `floating` token.
  void setFloatValue(double v) { floatValue = v; }
  /// The decoded contents of a `string` token (quotes and prefix removed,
  /// escapes resolved), or the diagnostic message of an `error` token.
  llvm::StringRef getStringValue() const { return stringValue; }
  /// Sets the decoded string or the error message.
  void setStringValue(std::string v) { stringValue = std::move(v); }

private:
  /// What kind of token this is.
  TokenKind kind = TokenKind::eof;
  /// The source text of the token, pointing into the source buffer.
  llvm::StringRef spelling;
  /// Value of integer literals.
  int64_t intValue = 0;
  /// Value of floating-point literals.
  double floatValue = 0.0;
  /// Decoded string literal, or the error message of an error token.
  std::string stringValue;
};

} // namespace tilec

#endif // TILEC_FRONTEND_TOKEN_H
