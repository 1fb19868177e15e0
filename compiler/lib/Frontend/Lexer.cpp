//===- Lexer.cpp - Tokenizer for .tile sources ----------------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file implements the Lexer. It follows Python 3's tokenizer: logical
// lines end with NEWLINE unless a bracket is open or the line ends with `\`;
// blank and comment-only lines produce nothing; the indentation of each
// logical line (tabs advance to the next multiple of 8) is compared with a
// stack of enclosing indentations to produce INDENT and DEDENT tokens; at the
// end of the buffer a NEWLINE (if the last line had tokens) and the pending
// DEDENTs are produced before EOF.
//
// Literals are decoded here: integers (decimal, 0x, 0o, 0b, `_` separators,
// limited to int64), floats, and strings (single, double and triple quoted,
// with an optional r/u prefix; escapes resolved). Bytes literals, f-strings and
// complex numbers are rejected with an error token.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>
#include <limits>

using namespace tilec;

//===----------------------------------------------------------------------===//
// Token helpers
//===----------------------------------------------------------------------===//

llvm::StringRef tilec::getTokenKindName(TokenKind kind) {
  switch (kind) {
#define TOK(NAME)                                                              \
  case TokenKind::NAME:                                                        \
    return #NAME;
#include "tilec/Frontend/TokenKinds.def"
  }
  return "unknown";
}

llvm::StringRef tilec::getTokenSpelling(TokenKind kind) {
  switch (kind) {
#define TOK_KEYWORD(NAME, SPELLING)                                            \
  case TokenKind::kw_##NAME:                                                   \
    return SPELLING;
#define TOK_PUNCT(NAME, SPELLING)                                              \
  case TokenKind::NAME:                                                        \
    return SPELLING;
#include "tilec/Frontend/TokenKinds.def"
  default:
    return "";
  }
}

bool Token::isKeyword() const {
  switch (kind) {
#define TOK_KEYWORD(NAME, SPELLING) case TokenKind::kw_##NAME:
#include "tilec/Frontend/TokenKinds.def"
    return true;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Character helpers
//===----------------------------------------------------------------------===//

/// The kind of keyword `name` is, or `identifier`.
static TokenKind getKeywordKind(llvm::StringRef name) {
  return llvm::StringSwitch<TokenKind>(name)
#define TOK_KEYWORD(NAME, SPELLING) .Case(SPELLING, TokenKind::kw_##NAME)
#include "tilec/Frontend/TokenKinds.def"
      .Default(TokenKind::identifier);
}

/// True for bytes that may continue a number; non-ASCII bytes count so that
/// `1é` is diagnosed as one malformed token.
static bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

/// Whether code point `cp` (not ASCII) may start (`first`) or continue a
/// Python identifier. Python allows Unicode's XID_Start and XID_Continue
/// classes; without Unicode's tables this approximates them by blocks:
/// letters of every script are accepted, combining marks continue a name
/// only, and the blocks of punctuation, symbols, arrows, operators, spaces,
/// surrogates, private use and emoji are rejected.
static bool isUnicodeIdentifierChar(llvm::UTF32 cp, bool first) {
  struct Range {
    llvm::UTF32 lo, hi;
  };
  // Marks that combine with the letter before them.
  static const Range marks[] = {{0x0300, 0x036F}, {0x0483, 0x0489},
                                {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF},
                                {0x20D0, 0x20FF}, {0xFE20, 0xFE2F}};
  // Neither letters nor marks: Latin-1's punctuation and symbols, Greek's
  // punctuation, general punctuation (but the ties U+203F-2040), the super-
  // and subscript digits and signs, currency, arrows through miscellaneous
  // symbols and arrows, supplemental and CJK punctuation, surrogates,
  // private use, the fullwidth forms of ASCII's punctuation and digits,
  // specials, and the symbol and emoji planes. (Blocks that mix letters
  // and symbols, such as letterlike symbols, are accepted whole.)
  static const Range rejected[] = {
      {0x0080, 0x00A9},   {0x00AB, 0x00B4}, {0x00B6, 0x00B9},
      {0x00BB, 0x00BF},   {0x00D7, 0x00D7}, {0x00F7, 0x00F7},
      {0x037E, 0x037E},   {0x0384, 0x0385}, {0x0387, 0x0387},
      {0x2000, 0x203E},   {0x2041, 0x2070}, {0x2072, 0x207E},
      {0x2080, 0x208F},   {0x20A0, 0x20CF}, {0x2190, 0x2BFF},
      {0x2E00, 0x2E7F},   {0x3000, 0x3004}, {0x3008, 0x3020},
      {0xD800, 0xF8FF},   {0xFF00, 0xFF20}, {0xFF3B, 0xFF40},
      {0xFF5B, 0xFF65},   {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF},
      {0xE0000, 0x10FFFF}};
  for (const Range &r : rejected)
    if (cp >= r.lo && cp <= r.hi)
      return false;
  for (const Range &r : marks)
    if (cp >= r.lo && cp <= r.hi)
      return !first;
  return cp <= 0x10FFFF;
}

/// Decodes the UTF-8 sequence at `p` before `end` into `cp`; returns its
/// length in bytes, or 0 when it is not valid UTF-8.
static size_t decodeUTF8(const char *p, const char *end, llvm::UTF32 &cp) {
  const auto *src = reinterpret_cast<const llvm::UTF8 *>(p);
  if (llvm::convertUTF8Sequence(&src, reinterpret_cast<const llvm::UTF8 *>(end),
                                &cp,
                                llvm::strictConversion) != llvm::conversionOK)
    return 0;
  return reinterpret_cast<const char *>(src) - p;
}

/// The length in bytes of the identifier character (ASCII or a UTF-8
/// sequence) at `p` before `end`, or 0 when none starts there.
static size_t identifierCharLength(const char *p, const char *end, bool first) {
  unsigned char c = static_cast<unsigned char>(*p);
  if (c < 0x80)
    return (llvm::isAlpha(c) || c == '_' || (!first && llvm::isDigit(c))) ? 1
                                                                          : 0;
  llvm::UTF32 cp;
  size_t length = decodeUTF8(p, end, cp);
  return length && isUnicodeIdentifierChar(cp, first) ? length : 0;
}

/// The value of digit `c` in bases up to 36, or -1.
static int digitValue(char c) {
  if (llvm::isDigit(c))
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return -1;
}

/// Appends code point `cp` to `out` as UTF-8.
static void appendCodePoint(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// Describes byte `c` for a message: `'$'`, or `'\x01'` if not printable.
static std::string describeChar(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F)
    return std::string("'") + c + "'";
  std::string s = "'\\x";
  s += llvm::hexdigit(u >> 4, /*LowerCase=*/true);
  s += llvm::hexdigit(u & 0xF, /*LowerCase=*/true);
  return s + "'";
}

/// Describes the non-ASCII character at `p` as Python does: `'→' (U+2192)`,
/// or its first byte, `'\xe2'`, when it is not valid UTF-8.
static std::string describeUTF8(const char *p, const char *end) {
  llvm::UTF32 cp;
  size_t length = decodeUTF8(p, end, cp);
  if (!length)
    return describeChar(*p);
  std::string hex = llvm::utohexstr(cp);
  return "'" + std::string(p, length) + "' (U+" +
         std::string(hex.size() < 4 ? 4 - hex.size() : 0, '0') + hex + ")";
}

/// The closing bracket that matches `open`.
static char closingBracket(char open) {
  return open == '(' ? ')' : open == '[' ? ']' : '}';
}

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

Lexer::Lexer(llvm::StringRef buffer)
    : bufStart(buffer.begin()), bufEnd(buffer.end()), curPtr(bufStart) {
  indentStack.push_back(0);
  // A UTF-8 byte order mark starts the text, as Python allows.
  if (buffer.starts_with("\xEF\xBB\xBF"))
    curPtr += 3;
  const auto *text = reinterpret_cast<const llvm::UTF8 *>(curPtr);
  if (!llvm::isLegalUTF8String(&text,
                               reinterpret_cast<const llvm::UTF8 *>(bufEnd)))
    invalidText = reinterpret_cast<const char *>(text);
}

Lexer::Lexer(const llvm::SourceMgr &srcMgr, unsigned bufferId)
    : Lexer(srcMgr.getMemoryBuffer(bufferId)->getBuffer()) {}

char Lexer::peek(const char *p, size_t offset) const {
  if (p >= bufEnd || static_cast<size_t>(bufEnd - p) <= offset)
    return 0;
  return p[offset];
}

unsigned Lexer::lineOf(const char *p) const {
  unsigned line = 1;
  for (const char *q = bufStart; q < p; ++q)
    if (*q == '\n')
      ++line;
  return line;
}

/// The length of the line terminator at `p` (1 for "\n", 2 for "\r\n"), or 0.
static size_t newlineLength(const char *p, const char *end) {
  if (p >= end)
    return 0;
  if (*p == '\n')
    return 1;
  if (*p == '\r' && end - p >= 2 && p[1] == '\n')
    return 2;
  return 0;
}

Token Lexer::makeToken(TokenKind kind, const char *start) {
  return Token(kind, llvm::StringRef(start, curPtr - start));
}

Token Lexer::makeError(const char *loc, const llvm::Twine &message,
                       size_t len) {
  done = true;
  if (loc > bufEnd)
    loc = bufEnd;
  len = std::min<size_t>(len, bufEnd - loc);
  Token tok(TokenKind::error, llvm::StringRef(loc, len));
  tok.setStringValue(message.str());
  return tok;
}

Token Lexer::lex() {
  if (done)
    return Token(TokenKind::eof, llvm::StringRef(bufEnd, 0));
  if (invalidText)
    return makeError(
        invalidText,
        "the file is not UTF-8 text: byte 0x" +
            llvm::utohexstr(static_cast<unsigned char>(*invalidText)) +
            " cannot start a character here");
  if (pendingDedents) {
    --pendingDedents;
    return Token(TokenKind::dedent, llvm::StringRef(pendingDedentLoc, 0));
  }

  for (;;) {
    if (atLineStart && brackets.empty()) {
      Token result;
      if (lexLineStart(result))
        return result;
    }

    // Skip whitespace, comments, `\` continuations, and line breaks inside
    // brackets.
    bool restartLine = false;
    for (;;) {
      if (curPtr >= bufEnd)
        return lexEndOfBuffer();
      char c = *curPtr;
      if (c == ' ' || c == '\t' || c == '\f') {
        ++curPtr;
        continue;
      }
      if (c == '#') {
        while (curPtr < bufEnd && *curPtr != '\n')
          ++curPtr;
        continue;
      }
      if (c == '\\') {
        if (size_t n = newlineLength(curPtr + 1, bufEnd)) {
          curPtr += 1 + n;
          continue;
        }
        if (curPtr + 1 >= bufEnd)
          return makeError(curPtr,
                           "unexpected end of file after line continuation "
                           "character");
        return makeError(curPtr + 1,
                         "unexpected character after line continuation "
                         "character");
      }
      if (size_t n = newlineLength(curPtr, bufEnd)) {
        if (!brackets.empty()) {
          curPtr += n;
          continue;
        }
        if (!lineHasTokens) {
          // A line that only held a continuation: treat it as blank.
          curPtr += n;
          atLineStart = true;
          restartLine = true;
          break;
        }
        const char *start = curPtr;
        curPtr += n;
        atLineStart = true;
        lineHasTokens = false;
        return makeToken(TokenKind::newline, start);
      }
      if (c == '\r') {
        // A lone carriage return is treated as whitespace.
        ++curPtr;
        continue;
      }
      break;
    }
    if (restartLine)
      continue;

    lineHasTokens = true;
    return lexToken();
  }
}

bool Lexer::lexLineStart(Token &result) {
  for (;;) {
    const char *p = curPtr;
    unsigned col = 0;
    for (; p < bufEnd; ++p) {
      if (*p == ' ')
        ++col;
      else if (*p == '\t')
        col = (col / 8 + 1) * 8;
      else if (*p == '\f')
        col = 0;
      else
        break;
      // Saturate absurd indentation instead of overflowing.
      col = std::min(col, 1u << 30);
    }
    if (p < bufEnd && *p == '#')
      while (p < bufEnd && *p != '\n')
        ++p;
    if (p >= bufEnd) {
      curPtr = p;
      return false;
    }
    if (size_t n = newlineLength(p, bufEnd)) {
      // Blank or comment-only line.
      curPtr = p + n;
      continue;
    }

    curPtr = p;
    atLineStart = false;
    unsigned current = indentStack.back();
    if (col > current) {
      if (indentStack.size() > maxIndentLevels) {
        result = makeError(p, "too many levels of indentation");
        return true;
      }
      indentStack.push_back(col);
      result = Token(TokenKind::indent, llvm::StringRef(p, 0));
      return true;
    }
    if (col < current) {
      unsigned count = 0;
      while (indentStack.back() > col) {
        indentStack.pop_back();
        ++count;
      }
      if (indentStack.back() != col) {
        result =
            makeError(p, "unindent does not match any outer indentation level");
        return true;
      }
      pendingDedents = count - 1;
      pendingDedentLoc = p;
      result = Token(TokenKind::dedent, llvm::StringRef(p, 0));
      return true;
    }
    return false;
  }
}

Token Lexer::lexEndOfBuffer() {
  curPtr = bufEnd;
  if (!brackets.empty()) {
    const OpenBracket &open = brackets.back();
    return makeError(open.loc, llvm::Twine("'") + llvm::Twine(open.kind) +
                                   "' was never closed");
  }
  if (lineHasTokens) {
    lineHasTokens = false;
    atLineStart = true;
    return Token(TokenKind::newline, llvm::StringRef(bufEnd, 0));
  }
  if (indentStack.size() > 1) {
    pendingDedents = indentStack.size() - 2;
    pendingDedentLoc = bufEnd;
    indentStack.resize(1);
    return Token(TokenKind::dedent, llvm::StringRef(bufEnd, 0));
  }
  done = true;
  return Token(TokenKind::eof, llvm::StringRef(bufEnd, 0));
}

Token Lexer::lexToken() {
  const char *start = curPtr;
  char c = *curPtr;
  if (identifierCharLength(start, bufEnd, /*first=*/true))
    return lexIdentifierOrKeyword(start);
  if (llvm::isDigit(c) || (c == '.' && llvm::isDigit(peek(curPtr, 1))))
    return lexNumber(start);
  if (c == '"' || c == '\'')
    return lexString(start, start, /*raw=*/false);
  if (static_cast<unsigned char>(c) >= 0x80)
    return makeError(start, "invalid character " + describeUTF8(start, bufEnd));
  if (c == '\0')
    return makeError(start, "source code cannot contain null bytes");
  return lexPunctuation(start);
}

Token Lexer::lexIdentifierOrKeyword(const char *start) {
  curPtr = start;
  while (curPtr < bufEnd) {
    size_t length =
        identifierCharLength(curPtr, bufEnd, /*first=*/curPtr == start);
    if (!length)
      break;
    curPtr += length;
  }
  if (curPtr < bufEnd && static_cast<unsigned char>(*curPtr) >= 0x80)
    return makeError(curPtr,
                     "invalid character " + describeUTF8(curPtr, bufEnd));
  llvm::StringRef name(start, curPtr - start);

  // String prefixes: r"...", u"...", and the unsupported b/f/t prefixes.
  char next = peek(curPtr);
  if ((next == '"' || next == '\'') && name.size() <= 2) {
    std::string prefix = name.lower();
    if (prefix == "r")
      return lexString(start, curPtr, /*raw=*/true);
    if (prefix == "u")
      return lexString(start, curPtr, /*raw=*/false);
    if (prefix == "b" || prefix == "br" || prefix == "rb")
      return hostLiteral(lexString(start, curPtr, prefix != "b"),
                         "bytes literals");
    // f-strings appear in the host code of pasted files (launch metadata
    // names); their text is kept as written, and evaluating one is an error.
    if (prefix == "f" || prefix == "fr" || prefix == "rf")
      return lexString(start, curPtr, /*raw=*/true, TokenKind::fstring);
    if (prefix == "t" || prefix == "tr" || prefix == "rt")
      return hostLiteral(lexString(start, curPtr, prefix != "t"), "t-strings");
  }
  return makeToken(getKeywordKind(name), start);
}

Token Lexer::lexNumber(const char *start) {
  curPtr = start;

  // Hexadecimal, octal and binary integers.
  char prefix = static_cast<char>(llvm::toLower(peek(start, 1)));
  if (*start == '0' && (prefix == 'x' || prefix == 'o' || prefix == 'b')) {
    unsigned base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    const char *what = prefix == 'x'   ? "hexadecimal"
                       : prefix == 'o' ? "octal"
                                       : "binary";
    curPtr = start + 2;
    uint64_t value = 0;
    bool overflow = false;
    unsigned numDigits = 0;
    for (;;) {
      char c = peek(curPtr);
      if (c == '_') {
        int d = digitValue(peek(curPtr, 1));
        if (d < 0 || static_cast<unsigned>(d) >= base)
          return makeError(start, llvm::Twine("invalid ") + what + " literal",
                           curPtr + 1 - start);
        ++curPtr;
        continue;
      }
      int d = digitValue(c);
      if (d < 0)
        break;
      if (static_cast<unsigned>(d) >= base) {
        if (base == 16 || !llvm::isDigit(c))
          break;
        return makeError(curPtr, llvm::Twine("invalid digit '") +
                                     llvm::Twine(c) + "' in " + what +
                                     " literal");
      }
      if (value >
          (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - d) /
              base)
        overflow = true;
      else
        value = value * base + d;
      ++numDigits;
      ++curPtr;
    }
    if (numDigits == 0 || isIdentifierChar(peek(curPtr)))
      return makeError(start, llvm::Twine("invalid ") + what + " literal",
                       curPtr + 1 - start);
    if (overflow)
      return hostLiteral(makeToken(TokenKind::integer, start),
                         "integer literals above 2**63 - 1");
    Token tok = makeToken(TokenKind::integer, start);
    tok.setIntValue(static_cast<int64_t>(value));
    return tok;
  }

  // Decimal integers and floats. `_` may only separate two digits.
  bool badUnderscore = false;
  auto scanDigits = [&] {
    while (llvm::isDigit(peek(curPtr))) {
      ++curPtr;
      if (peek(curPtr) == '_') {
        if (!llvm::isDigit(peek(curPtr, 1))) {
          badUnderscore = true;
          return;
        }
        ++curPtr;
      }
    }
  };
  bool isFloat = false;
  scanDigits();
  if (!badUnderscore && peek(curPtr) == '.') {
    isFloat = true;
    ++curPtr;
    if (peek(curPtr) == '_')
      badUnderscore = true;
    else
      scanDigits();
  }
  if (!badUnderscore && (peek(curPtr) == 'e' || peek(curPtr) == 'E')) {
    char sign = peek(curPtr, 1);
    size_t digitOffset = (sign == '+' || sign == '-') ? 2 : 1;
    if (!llvm::isDigit(peek(curPtr, digitOffset)))
      return makeError(start, "invalid decimal literal", curPtr + 1 - start);
    isFloat = true;
    curPtr += digitOffset;
    scanDigits();
  }
  if (badUnderscore)
    return makeError(start, "invalid decimal literal", curPtr + 1 - start);
  if (peek(curPtr) == 'j' || peek(curPtr) == 'J') {
    ++curPtr;
    return hostLiteral(makeToken(TokenKind::floating, start),
                       "complex literals");
  }
  if (isIdentifierChar(peek(curPtr)))
    return makeError(start, "invalid decimal literal", curPtr + 1 - start);

  std::string digits;
  for (const char *p = start; p < curPtr; ++p)
    if (*p != '_')
      digits += *p;

  if (isFloat) {
    Token tok = makeToken(TokenKind::floating, start);
    tok.setFloatValue(std::strtod(digits.c_str(), nullptr));
    return tok;
  }

  if (digits.size() > 1 && digits[0] == '0' &&
      digits.find_first_not_of('0') != std::string::npos)
    return makeError(start,
                     "leading zeros in decimal integer literals are not "
                     "permitted; use an 0o prefix for octal integers",
                     curPtr - start);
  uint64_t value = 0;
  const uint64_t max = std::numeric_limits<int64_t>::max();
  for (char c : digits) {
    unsigned d = c - '0';
    if (value > (max - d) / 10)
      return hostLiteral(makeToken(TokenKind::integer, start),
                         "integer literals above 2**63 - 1");
    value = value * 10 + d;
  }
  Token tok = makeToken(TokenKind::integer, start);
  tok.setIntValue(static_cast<int64_t>(value));
  return tok;
}

/// Reads `count` hex digits at `p`; returns false if there are fewer.
static bool readHex(const char *p, const char *end, unsigned count,
                    uint32_t &value) {
  value = 0;
  if (end - p < static_cast<ptrdiff_t>(count))
    return false;
  for (unsigned i = 0; i < count; ++i) {
    if (!llvm::isHexDigit(p[i]))
      return false;
    value = value * 16 + digitValue(p[i]);
  }
  return true;
}

Token Lexer::hostLiteral(Token lexed, llvm::StringRef what) {
  if (lexed.is(TokenKind::error))
    return lexed;
  Token tok(TokenKind::hostliteral, lexed.getSpelling());
  tok.setStringValue(what.str());
  return tok;
}

Token Lexer::lexString(const char *start, const char *quote, bool raw,
                       TokenKind kind) {
  char q = *quote;
  bool triple = peek(quote, 1) == q && peek(quote, 2) == q;
  curPtr = quote + (triple ? 3 : 1);
  std::string value;
  for (;;) {
    if (curPtr >= bufEnd)
      return makeError(start, triple ? "unterminated triple-quoted string "
                                       "literal"
                                     : "unterminated string literal");
    char c = *curPtr;
    if (c == q) {
      if (!triple) {
        ++curPtr;
        break;
      }
      if (peek(curPtr, 1) == q && peek(curPtr, 2) == q) {
        curPtr += 3;
        break;
      }
      value += c;
      ++curPtr;
      continue;
    }
    if (size_t n = newlineLength(curPtr, bufEnd)) {
      if (!triple)
        return makeError(start, "unterminated string literal");
      value += '\n';
      curPtr += n;
      continue;
    }
    if (c == '\0')
      return makeError(curPtr, "source code cannot contain null bytes");
    if (c != '\\') {
      value += c;
      ++curPtr;
      continue;
    }

    // A backslash. At the end of the buffer, let the loop report the
    // unterminated string.
    const char *esc = curPtr;
    char e = peek(curPtr, 1);
    if (curPtr + 1 >= bufEnd) {
      ++curPtr;
      continue;
    }
    if (size_t n = newlineLength(curPtr + 1, bufEnd)) {
      // Backslash-newline continues the string; a raw string keeps both.
      if (raw) {
        value += '\\';
        value += '\n';
      }
      curPtr += 1 + n;
      continue;
    }
    if (raw || e == '\0') {
      // In a raw string a backslash only prevents the next quote from ending
      // the string; both characters are kept.
      value += '\\';
      ++curPtr;
      if (e == q || e == '\\') {
        value += e;
        ++curPtr;
      }
      continue;
    }
    curPtr += 2;
    switch (e) {
    case '\\':
    case '\'':
    case '"':
      value += e;
      continue;
    case 'a':
      value += '\a';
      continue;
    case 'b':
      value += '\b';
      continue;
    case 'f':
      value += '\f';
      continue;
    case 'n':
      value += '\n';
      continue;
    case 'r':
      value += '\r';
      continue;
    case 't':
      value += '\t';
      continue;
    case 'v':
      value += '\v';
      continue;
    case 'N':
      return makeError(esc, "\\N{...} escapes are not supported", 2);
    case 'x':
    case 'u':
    case 'U': {
      unsigned count = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      uint32_t cp;
      if (!readHex(curPtr, bufEnd, count, cp))
        return makeError(esc,
                         e == 'x'   ? "truncated \\xXX escape"
                         : e == 'u' ? "truncated \\uXXXX escape"
                                    : "truncated \\UXXXXXXXX escape",
                         2);
      if (cp > 0x10FFFF)
        return makeError(esc, "illegal Unicode character in \\U escape",
                         2 + count);
      appendCodePoint(value, cp);
      curPtr += count;
      continue;
    }
    default:
      break;
    }
    if (e >= '0' && e <= '7') {
      uint32_t cp = e - '0';
      for (int i = 0; i < 2 && peek(curPtr) >= '0' && peek(curPtr) <= '7'; ++i)
        cp = cp * 8 + (*curPtr++ - '0');
      appendCodePoint(value, cp);
      continue;
    }
    // An unknown escape keeps its backslash, as in Python; the character
    // after it is processed normally.
    value += '\\';
    curPtr = esc + 1;
  }

  Token tok = makeToken(kind, start);
  tok.setStringValue(std::move(value));
  return tok;
}

Token Lexer::lexPunctuation(const char *start) {
  char c = *start;
  char c1 = peek(start, 1), c2 = peek(start, 2);
  auto make = [&](TokenKind kind, unsigned len) {
    curPtr = start + len;
    return makeToken(kind, start);
  };

  switch (c) {
  case '(':
  case '[':
  case '{':
    if (brackets.size() >= maxBracketDepth)
      return makeError(start, "too many nested parentheses");
    brackets.push_back({c, start});
    return make(c == '('   ? TokenKind::l_paren
                : c == '[' ? TokenKind::l_square
                           : TokenKind::l_brace,
                1);
  case ')':
  case ']':
  case '}': {
    if (brackets.empty())
      return makeError(start,
                       llvm::Twine("unmatched '") + llvm::Twine(c) + "'");
    OpenBracket open = brackets.back();
    if (closingBracket(open.kind) != c) {
      std::string msg = std::string("closing parenthesis '") + c +
                        "' does not match opening parenthesis '" + open.kind +
                        "'";
      unsigned openLine = lineOf(open.loc);
      if (openLine != lineOf(start))
        msg += " on line " + std::to_string(openLine);
      return makeError(start, msg);
    }
    brackets.pop_back();
    return make(c == ')'   ? TokenKind::r_paren
                : c == ']' ? TokenKind::r_square
                           : TokenKind::r_brace,
                1);
  }
  case ',':
    return make(TokenKind::comma, 1);
  case ';':
    return make(TokenKind::semi, 1);
  case '~':
    return make(TokenKind::tilde, 1);
  case ':':
    if (c1 == '=')
      return make(TokenKind::walrus, 2);
    return make(TokenKind::colon, 1);
  case '.':
    if (c1 == '.' && c2 == '.')
      return make(TokenKind::ellipsis, 3);
    return make(TokenKind::period, 1);
  case '=':
    if (c1 == '=')
      return make(TokenKind::equalequal, 2);
    return make(TokenKind::equal, 1);
  case '!':
    if (c1 == '=')
      return make(TokenKind::notequal, 2);
    return makeError(start, "invalid character '!'");
  case '+':
    if (c1 == '=')
      return make(TokenKind::plusequal, 2);
    return make(TokenKind::plus, 1);
  case '-':
    if (c1 == '=')
      return make(TokenKind::minusequal, 2);
    if (c1 == '>')
      return make(TokenKind::arrow, 2);
    return make(TokenKind::minus, 1);
  case '*':
    if (c1 == '*')
      return c2 == '=' ? make(TokenKind::starstarequal, 3)
                       : make(TokenKind::starstar, 2);
    if (c1 == '=')
      return make(TokenKind::starequal, 2);
    return make(TokenKind::star, 1);
  case '/':
    if (c1 == '/')
      return c2 == '=' ? make(TokenKind::slashslashequal, 3)
                       : make(TokenKind::slashslash, 2);
    if (c1 == '=')
      return make(TokenKind::slashequal, 2);
    return make(TokenKind::slash, 1);
  case '%':
    if (c1 == '=')
      return make(TokenKind::percentequal, 2);
    return make(TokenKind::percent, 1);
  case '@':
    if (c1 == '=')
      return make(TokenKind::atequal, 2);
    return make(TokenKind::at, 1);
  case '&':
    if (c1 == '=')
      return make(TokenKind::ampequal, 2);
    return make(TokenKind::amp, 1);
  case '|':
    if (c1 == '=')
      return make(TokenKind::pipeequal, 2);
    return make(TokenKind::pipe, 1);
  case '^':
    if (c1 == '=')
      return make(TokenKind::caretequal, 2);
    return make(TokenKind::caret, 1);
  case '<':
    if (c1 == '<')
      return c2 == '=' ? make(TokenKind::lesslessequal, 3)
                       : make(TokenKind::lessless, 2);
    if (c1 == '=')
      return make(TokenKind::lessequal, 2);
    return make(TokenKind::less, 1);
  case '>':
    if (c1 == '>')
      return c2 == '=' ? make(TokenKind::greatergreaterequal, 3)
                       : make(TokenKind::greatergreater, 2);
    if (c1 == '=')
      return make(TokenKind::greaterequal, 2);
    return make(TokenKind::greater, 1);
  default:
    return makeError(start, "invalid character " + describeChar(c));
  }
}
