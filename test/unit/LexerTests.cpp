//===- LexerTests.cpp - Unit tests of the .tile lexer ---------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Catch2 tests of the Lexer: logical lines and indentation, line joining,
// integer, float and string literals, every operator, invalid input, token
// locations, and every lexer error message with its line:col.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "tilec/Frontend/Lexer.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <catch2/catch.hpp>

#include <cstdint>

using namespace tilec;
using namespace tilec::test;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

TEST_CASE("lexer: simple statement", "[lexer]") {
  CHECK(lexKinds("x = 1\n") == "identifier equal integer newline eof");
  CHECK(lexKinds("") == "eof");
  CHECK(lexKinds("\n\n   \n# only a comment\n") == "eof");
  // A last line without a line break still ends with NEWLINE.
  CHECK(lexKinds("pass") == "kw_pass newline eof");
  CHECK(lexKinds("a # comment\nb") ==
        "identifier newline identifier newline eof");
}

TEST_CASE("lexer: keywords and soft keywords", "[lexer]") {
  CHECK(lexKinds("if elif else for while def return import from as") ==
        "kw_if kw_elif kw_else kw_for kw_while kw_def kw_return kw_import "
        "kw_from kw_as newline eof");
  CHECK(lexKinds("True False None and or not is in lambda yield") ==
        "kw_True kw_False kw_None kw_and kw_or kw_not kw_is kw_in kw_lambda "
        "kw_yield newline eof");
  CHECK(lexKinds("match case type _ print") ==
        "identifier identifier identifier identifier identifier newline eof");
  CHECK(lexKinds("iff _if If") ==
        "identifier identifier identifier newline eof");
}

TEST_CASE("lexer: non-ASCII identifiers", "[lexer]") {
  // Letters of any script start or continue a name (caf\u00e9, \u1e21, Greek
  // lambda, Cyrillic, CJK), combining marks continue one (l + U+0304).
  CHECK(lexKinds("caf\xC3\xA9 = \xE1\xB8\xA1 + \xCE\xBB1\n") ==
        "identifier equal identifier plus identifier newline eof");
  CHECK(lexKinds("\xD1\x8F\xD0\xB4\xD1\x80\xD0\xBE(\xE5\x80\xBC)\n") ==
        "identifier l_paren identifier r_paren newline eof");
  CHECK(lexKinds("l\xCC\x84 = 1\n") == "identifier equal integer newline eof");
  // One token, not a name followed by an error.
  CHECK(lexError("\xCE\xB1\xCE\xB2_2 = 1\n") == "no error");
}

TEST_CASE("lexer: indentation", "[lexer]") {
  CHECK(lexKinds("if x:\n    y\nz\n") ==
        "kw_if identifier colon newline indent identifier newline dedent "
        "identifier newline eof");
  // Several levels closed at once, and pending DEDENTs at the end.
  CHECK(lexKinds("a:\n  b:\n    c\nd:\n  e\n") ==
        "identifier colon newline indent identifier colon newline indent "
        "identifier newline dedent dedent identifier colon newline indent "
        "identifier newline dedent eof");
  // Blank lines, comment-only lines (at any indentation) and trailing
  // whitespace produce nothing.
  CHECK(lexKinds("if x:\n\n    # c\n  # d\n    y   \n\n# e\n") ==
        "kw_if identifier colon newline indent identifier newline dedent eof");
  // A tab advances to the next multiple of 8: "\t" and 8 spaces match.
  CHECK(lexKinds("if x:\n\ty\n        z\n") ==
        "kw_if identifier colon newline indent identifier newline identifier "
        "newline dedent eof");
  CHECK(lexKinds("if x:\n  \ty\n        z\n") ==
        "kw_if identifier colon newline indent identifier newline identifier "
        "newline dedent eof");
  // CRLF line endings.
  CHECK(lexKinds("if x:\r\n    y\r\nz\r\n") ==
        "kw_if identifier colon newline indent identifier newline dedent "
        "identifier newline eof");
}

TEST_CASE("lexer: indentation errors", "[lexer]") {
  CHECK(lexError("if x:\n    y\n  z\n") ==
        "3:3: unindent does not match any outer indentation level");
  CHECK(lexError("if a:\n  if b:\n      c\n    d\n") ==
        "4:5: unindent does not match any outer indentation level");
  std::string deep;
  for (int i = 0; i < 150; ++i)
    deep += std::string(i, ' ') + "if x:\n";
  CHECK(lexError(deep) == "102:102: too many levels of indentation");
}

TEST_CASE("lexer: implicit and explicit line joining", "[lexer]") {
  CHECK(lexKinds("f(a,\n  b)\n") ==
        "identifier l_paren identifier comma identifier r_paren newline eof");
  CHECK(lexKinds("x = [1,  # one\n\n     2]\n") ==
        "identifier equal l_square integer comma integer r_square newline eof");
  CHECK(lexKinds("x = {\n}\n") ==
        "identifier equal l_brace r_brace newline eof");
  // Inside brackets, indentation is irrelevant.
  CHECK(lexKinds("if (a and\nb):\n    c\n") ==
        "kw_if l_paren identifier kw_and identifier r_paren colon newline "
        "indent identifier newline dedent eof");
  CHECK(lexKinds("x = 1 + \\\n    2\n") ==
        "identifier equal integer plus integer newline eof");
  CHECK(lexKinds("x = 1 + \\\r\n2\n") ==
        "identifier equal integer plus integer newline eof");
  CHECK(lexError("x = 1 \\ 2\n") ==
        "1:8: unexpected character after line continuation character");
  CHECK(lexError("x = 1 \\") ==
        "1:7: unexpected end of file after line continuation character");
}

TEST_CASE("lexer: bracket errors", "[lexer]") {
  CHECK(lexError("x = 1)\n") == "1:6: unmatched ')'");
  CHECK(lexError("x = ]\n") == "1:5: unmatched ']'");
  CHECK(lexError("x = (1]\n") ==
        "1:7: closing parenthesis ']' does not match opening parenthesis '('");
  CHECK(lexError("x = (1,\n 2}\n") ==
        "2:3: closing parenthesis '}' does not match opening parenthesis '(' "
        "on line 1");
  CHECK(lexError("x = f(a, [1,\n") == "1:10: '[' was never closed");
  CHECK(lexError(std::string(100000, '(')) ==
        "1:201: too many nested parentheses");
}

TEST_CASE("lexer: integer literals", "[lexer]") {
  std::unique_ptr<llvm::MemoryBuffer> holder;
  auto intValue = [&](StringRef text) {
    Token tok = lexOne(text, holder);
    INFO(text.str());
    REQUIRE(tok.is(TokenKind::integer));
    CHECK(tok.getSpelling() == text);
    return tok.getIntValue();
  };
  CHECK(intValue("0") == 0);
  CHECK(intValue("00") == 0);
  CHECK(intValue("0_0") == 0);
  CHECK(intValue("42") == 42);
  CHECK(intValue("1_000_000") == 1000000);
  CHECK(intValue("0x1F") == 31);
  CHECK(intValue("0XfF") == 255);
  CHECK(intValue("0x_ff") == 255);
  CHECK(intValue("0o17") == 15);
  CHECK(intValue("0O1_7") == 15);
  CHECK(intValue("0b101") == 5);
  CHECK(intValue("0B1_0") == 2);
  CHECK(intValue("9223372036854775807") == INT64_MAX);
  CHECK(intValue("0x7fffffffffffffff") == INT64_MAX);

  // Wider integers are host-only literals.
  for (const char *wide : {"9223372036854775808", "0x8000000000000000",
                           "123456789012345678901234567890"}) {
    CHECK(lexKinds(wide) == "hostliteral newline eof");
    std::unique_ptr<llvm::MemoryBuffer> holder;
    CHECK(lexOne(wide, holder).getStringValue() ==
          "integer literals above 2**63 - 1");
  }
  CHECK(lexError("x = 0x\n") == "1:5: invalid hexadecimal literal");
  CHECK(lexError("x = 0xfg\n") == "1:5: invalid hexadecimal literal");
  CHECK(lexError("x = 0b102\n") == "1:9: invalid digit '2' in binary literal");
  CHECK(lexError("x = 0o8\n") == "1:7: invalid digit '8' in octal literal");
  CHECK(lexError("x = 0x_\n") == "1:5: invalid hexadecimal literal");
  CHECK(lexError("x = 1_\n") == "1:5: invalid decimal literal");
  CHECK(lexError("x = 1__0\n") == "1:5: invalid decimal literal");
  CHECK(lexError("x = 12abc\n") == "1:5: invalid decimal literal");
  CHECK(lexError("x = 012\n") ==
        "1:5: leading zeros in decimal integer literals are not permitted; "
        "use an 0o prefix for octal integers");
  CHECK(lexKinds("3j 1.5J") == "hostliteral hostliteral newline eof");
}

TEST_CASE("lexer: float literals", "[lexer]") {
  std::unique_ptr<llvm::MemoryBuffer> holder;
  auto floatValue = [&](StringRef text) {
    Token tok = lexOne(text, holder);
    INFO(text.str());
    REQUIRE(tok.is(TokenKind::floating));
    CHECK(tok.getSpelling() == text);
    return tok.getFloatValue();
  };
  CHECK(floatValue("1.") == 1.0);
  CHECK(floatValue(".5") == 0.5);
  CHECK(floatValue("0.0") == 0.0);
  CHECK(floatValue("1e-5") == 1e-5);
  CHECK(floatValue("1.5E+3") == 1500.0);
  CHECK(floatValue("2e3") == 2000.0);
  CHECK(floatValue("1.e2") == 100.0);
  CHECK(floatValue("1_0.2_5") == 10.25);
  CHECK(floatValue("1.4142135623730951") == 1.4142135623730951);
  CHECK(floatValue("0123.5") == 123.5);
  CHECK(lexError("x = 1e\n") == "1:5: invalid decimal literal");
  CHECK(lexError("x = 1e+\n") == "1:5: invalid decimal literal");
  CHECK(lexError("x = 1._5\n") == "1:5: invalid decimal literal");
  // `1..x` is not a number followed by an attribute: `1.` then `.x`.
  CHECK(lexKinds("1..x") == "floating period identifier newline eof");
  CHECK(lexKinds("x.y") == "identifier period identifier newline eof");
}

TEST_CASE("lexer: string literals", "[lexer]") {
  std::unique_ptr<llvm::MemoryBuffer> holder;
  auto stringValue = [&](StringRef text) {
    Token tok = lexOne(text, holder);
    INFO(text.str());
    REQUIRE(tok.is(TokenKind::string));
    CHECK(tok.getSpelling() == text);
    return tok.getStringValue().str();
  };
  CHECK(stringValue("'zero'") == "zero");
  CHECK(stringValue("\"zero\"") == "zero");
  CHECK(stringValue("''") == "");
  CHECK(stringValue("'it\"s'") == "it\"s");
  CHECK(stringValue("'a\\nb\\tc'") == "a\nb\tc");
  CHECK(stringValue("'\\\\ \\' \\\"'") == "\\ ' \"");
  CHECK(stringValue("'\\a\\b\\f\\r\\v'") == "\a\b\f\r\v");
  CHECK(stringValue("'\\x41\\101\\0'") == std::string("AA\0", 3));
  CHECK(stringValue("'\\u00e9\\U0001F600'") == "\xC3\xA9\xF0\x9F\x98\x80");
  CHECK(stringValue("'\\q'") == "\\q");   // unknown escapes keep the backslash
  CHECK(stringValue("'a\\\nb'") == "ab"); // backslash-newline continues
  CHECK(stringValue("'caf\xC3\xA9'") == "caf\xC3\xA9");
  CHECK(stringValue("r'\\n\\''") == "\\n\\'");
  CHECK(stringValue("R\"\\d+\"") == "\\d+");
  CHECK(stringValue("u'x'") == "x");
  CHECK(stringValue("'''a\n'b'\n\"\"c'''") == "a\n'b'\n\"\"c");
  CHECK(stringValue("\"\"\"doc\r\nstring\"\"\"") == "doc\nstring");
  CHECK(stringValue("r'''\\''''") == "\\'");

  CHECK(lexKinds("'a' \"b\"") == "string string newline eof");
  CHECK(lexKinds("ru'x'") == "identifier string newline eof");

  CHECK(lexError("x = 'abc\n") == "1:5: unterminated string literal");
  CHECK(lexError("x = \"abc") == "1:5: unterminated string literal");
  CHECK(lexError("x = 'abc\\'\n") == "1:5: unterminated string literal");
  CHECK(lexError("x = \"\"\"abc\n\ndef\n") ==
        "1:5: unterminated triple-quoted string literal");
  // f-strings are lexed (code generation rejects evaluating them).
  CHECK(lexKinds("f'{a}' RF'{b}'") == "fstring fstring newline eof");
  // Bytes and t-strings are host-only literals.
  CHECK(lexKinds("b'abc' Rb'\\d' t'{x}'") ==
        "hostliteral hostliteral hostliteral newline eof");
  CHECK(lexError("x = b'abc\n") == "1:5: unterminated string literal");
  CHECK(lexError("x = 'ab\\x4'\n") == "1:8: truncated \\xXX escape");
  CHECK(lexError("x = 'ab\\u12'\n") == "1:8: truncated \\uXXXX escape");
  CHECK(lexError("x = '\\U00110000'\n") ==
        "1:6: illegal Unicode character in \\U escape");
  CHECK(lexError("x = '\\N{DASH}'\n") ==
        "1:6: \\N{...} escapes are not supported");
}

TEST_CASE("lexer: every operator and delimiter", "[lexer]") {
  std::unique_ptr<llvm::MemoryBuffer> holder;
  unsigned count = 0;
#define TOK_PUNCT(NAME, SPELLING)                                              \
  {                                                                            \
    std::string text = SPELLING;                                               \
    if (text != "(" && text != "[" && text != "{" && text != ")" &&            \
        text != "]" && text != "}") {                                          \
      std::vector<Token> tokens = lexAll("x " + text + " y", holder);          \
      INFO(text);                                                              \
      REQUIRE(tokens.size() >= 3);                                             \
      CHECK(tokens[1].getKind() == TokenKind::NAME);                           \
      CHECK(tokens[1].getSpelling() == text);                                  \
      CHECK(getTokenSpelling(TokenKind::NAME) == text);                        \
      ++count;                                                                 \
    }                                                                          \
  }
#include "tilec/Frontend/TokenKinds.def"
  CHECK(count == 41);
  // Longest match.
  CHECK(lexKinds("a**=b//=c<<=d>>=e->f:=g...") ==
        "identifier starstarequal identifier slashslashequal identifier "
        "lesslessequal identifier greatergreaterequal identifier arrow "
        "identifier walrus identifier ellipsis newline eof");
  CHECK(lexKinds("a<=>b") == "identifier lessequal greater identifier newline "
                             "eof");
  CHECK(lexKinds("()[]{}") == "l_paren r_paren l_square r_square l_brace "
                              "r_brace newline eof");
}

TEST_CASE("lexer: invalid characters", "[lexer]") {
  CHECK(lexError("x = $\n") == "1:5: invalid character '$'");
  CHECK(lexError("x = a ? b : c\n") == "1:7: invalid character '?'");
  CHECK(lexError("x = `a`\n") == "1:5: invalid character '`'");
  CHECK(lexError("x = !a\n") == "1:5: invalid character '!'");
  CHECK(lexError("x = \x01\n") == "1:5: invalid character '\\x01'");
  CHECK(lexError(StringRef("x = \0\n", 6)) ==
        "1:5: source code cannot contain null bytes");
  // Python's message names the character and its code point.
  CHECK(lexError("x = \xE2\x86\x92\n") ==
        "1:5: invalid character '\xE2\x86\x92' (U+2192)");
  CHECK(lexError("x\xC2\xB2 = 1\n") ==
        "1:2: invalid character '\xC2\xB2' (U+00B2)");
  CHECK(lexError("x = \xF0\x9F\x98\x80\n") ==
        "1:5: invalid character '\xF0\x9F\x98\x80' (U+1F600)");
  // A combining mark continues a name but does not start one.
  CHECK(lexError("\xCC\x81x = 1\n") ==
        "1:1: invalid character '\xCC\x81' (U+0301)");
  // Bytes that are not UTF-8 (a name cut short included).
  CHECK(lexError("x = \xFF\n") == "1:5: the file is not UTF-8 text: byte 0xFF "
                                  "cannot start a character here");
  CHECK(lexError("x\xE2\x86 = 1\n") == "1:2: the file is not UTF-8 text: "
                                       "byte 0xE2 cannot start a character "
                                       "here");
  // Non-ASCII text is fine in comments and strings.
  CHECK(lexError("# caf\xC3\xA9\nx = 'caf\xC3\xA9'\n") == "no error");
}

TEST_CASE("lexer: token locations", "[lexer]") {
  llvm::SourceMgr srcMgr;
  unsigned id =
      srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                                    "def f(a):\n    return a**2\n", "t.tile"),
                                llvm::SMLoc());
  Lexer lexer(srcMgr, id);
  std::vector<std::string> seen;
  for (;;) {
    Token tok = lexer.lex();
    auto [line, col] = srcMgr.getLineAndColumn(tok.getLoc(), id);
    seen.push_back(getTokenKindName(tok.getKind()).str() + "@" +
                   std::to_string(line) + ":" + std::to_string(col));
    if (tok.isAny(TokenKind::eof, TokenKind::error))
      break;
  }
  std::vector<std::string> expected = {
      "kw_def@1:1",    "identifier@1:5",  "l_paren@1:6",   "identifier@1:7",
      "r_paren@1:8",   "colon@1:9",       "newline@1:10",  "indent@2:5",
      "kw_return@2:5", "identifier@2:12", "starstar@2:13", "integer@2:15",
      "newline@2:16",  "dedent@3:1",      "eof@3:1"};
  CHECK(seen == expected);
}

TEST_CASE("lexer: after an error only eof follows", "[lexer]") {
  std::unique_ptr<llvm::MemoryBuffer> holder;
  std::vector<Token> tokens = lexAll("x = $ + 1\n", holder);
  REQUIRE(tokens.back().is(TokenKind::error));
  Lexer lexer(holder->getBuffer());
  for (int i = 0; i < 3; ++i)
    lexer.lex();
  CHECK(lexer.lex().is(TokenKind::eof));
  CHECK(lexer.lex().is(TokenKind::eof));
}
