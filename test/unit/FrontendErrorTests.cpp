//===- FrontendErrorTests.cpp - Unit tests of front-end errors ------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Catch2 tests of the parser on invalid input: every syntax error message
// with its line:col, the rejection of unsupported Python, the nesting limits
// that keep the parser and AST walks from overflowing the stack, and
// robustness on truncated, mutated and random input.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "tilec/Frontend/Parser.h"

#include "llvm/Support/SourceMgr.h"

#include <catch2/catch.hpp>

#include <iterator>
#include <random>
#include <string>

using namespace tilec;
using namespace tilec::test;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Parser: errors
//===----------------------------------------------------------------------===//

TEST_CASE("parser: block structure errors", "[parser][errors]") {
  CHECK(parseError("if x\n    pass\n") ==
        "1:5: expected ':' after 'if' condition");
  CHECK(parseError("if x:\n    pass\nelif y\n    pass\n") ==
        "3:7: expected ':' after 'elif' condition");
  CHECK(parseError("if x:\n    pass\nelse\n    pass\n") ==
        "3:5: expected ':' after 'else'");
  CHECK(parseError("while x\n    pass\n") ==
        "1:8: expected ':' after 'while' condition");
  CHECK(parseError("for i in x\n    pass\n") ==
        "1:11: expected ':' after 'for' iterable");
  CHECK(parseError("for i of x:\n    pass\n") ==
        "1:7: expected 'in' after 'for' target");
  CHECK(parseError("def f(a)\n    pass\n") ==
        "1:9: expected ':' after function signature");
  CHECK(parseError("for i in range(3):\npass\n") ==
        "2:1: expected an indented block after 'for' statement");
  CHECK(parseError("if x:\n\nx = 1\n") ==
        "3:1: expected an indented block after 'if' statement");
  CHECK(parseError("if x:\n    pass\nelif y:\nz\n") ==
        "4:1: expected an indented block after 'elif' statement");
  CHECK(parseError("if x:\n    pass\nelse:\n") ==
        "4:1: expected an indented block after 'else' statement");
  CHECK(parseError("while x:\n# comment\n") ==
        "3:1: expected an indented block after 'while' statement");
  CHECK(parseError("def f():\nreturn 1\n") ==
        "2:1: expected an indented block after function definition");
  CHECK(parseError("x = 1\n    y = 2\n") == "2:5: unexpected indent");
  CHECK(parseError("  x = 1\n") == "1:3: unexpected indent");
  CHECK(parseError("if x:\n    a\n      b\n") == "3:7: unexpected indent");
  CHECK(parseError("if x:\n    a\n  b\n") ==
        "3:3: unindent does not match any outer indentation level");
  CHECK(parseError("else:\n    pass\n") == "1:1: invalid syntax");
  CHECK(parseError("if x: for y in z: pass\n") ==
        "1:7: a compound statement cannot follow ';' or ':' on the same "
        "line");
}

TEST_CASE("parser: expression errors", "[parser][errors]") {
  CHECK(parseError("x = 1 2\n") == "1:7: invalid syntax");
  CHECK(parseError("x = \n") == "1:5: expected an expression");
  CHECK(parseError("x = (1 + )\n") == "1:10: expected an expression");
  CHECK(parseError("f(a b)\n") ==
        "1:5: invalid syntax. Perhaps you forgot a comma?");
  CHECK(parseError("x = [a b]\n") ==
        "1:8: invalid syntax. Perhaps you forgot a comma?");
  CHECK(parseError("x = (a = 1)\n") ==
        "1:8: invalid syntax. Maybe you meant '==' instead of '='?");
  CHECK(parseError("x = f(a;)\n") == "1:8: expected ',' or ')'");
  CHECK(parseError("x = y[a;]\n") == "1:8: expected ',' or ']'");
  CHECK(parseError("x = a if b\n") ==
        "1:11: expected 'else' after 'if' expression");
  CHECK(parseError("x = a not b\n") == "1:11: expected 'in' after 'not'");
  CHECK(parseError("x = a.\n") == "1:7: expected an attribute name after '.'");
  CHECK(parseError("x = a.1\n") == "1:6: invalid syntax");
  CHECK(parseError("x = )\n") == "1:5: unmatched ')'");
  CHECK(parseError("x = (1,\ny = 2\n") == "1:5: '(' was never closed");
  CHECK(parseError("foo(a,\n    b\nx = 1\n") == "1:4: '(' was never closed");
  CHECK(parseError("x = [1, 2\n") == "1:5: '[' was never closed");
  CHECK(parseError("x = (1]\n") ==
        "1:7: closing parenthesis ']' does not match opening parenthesis '('");
  CHECK(parseError("x = $\n") == "1:5: invalid character '$'");
  CHECK(parseError("x = 'abc\n") == "1:5: unterminated string literal");
  // An error on a later line is not reported before an earlier one.
  CHECK(parseError("x = 1 2\ny = $\n") == "1:7: invalid syntax");
}

TEST_CASE("parser: call and parameter errors", "[parser][errors]") {
  CHECK(parseError("f(a=1, 2)\n") ==
        "1:8: positional argument follows keyword argument");
  CHECK(parseError("f(a=1, a=2)\n") == "1:8: keyword argument repeated: a");
  CHECK(parseError("f(a.b=1)\n") ==
        "1:3: expression cannot contain assignment, perhaps you meant "
        "\"==\"?");
  CHECK(parseError("f((a)=1)\n") ==
        "1:3: expression cannot contain assignment, perhaps you meant "
        "\"==\"?");
  CHECK(parseError("f(**kw, *args)\n") ==
        "1:9: iterable argument unpacking follows keyword argument "
        "unpacking");
  CHECK(parseError("def f(**kw, a): pass\n") ==
        "1:13: parameters cannot follow '**' parameters");
  CHECK(parseError("def f(a=1, b): pass\n") ==
        "1:12: parameter without a default follows parameter with a default");
  CHECK(parseError("def f(a, a): pass\n") ==
        "1:10: duplicate argument 'a' in function definition");
  CHECK(parseError("def f(1): pass\n") == "1:7: expected a parameter name");
  CHECK(parseError("def f(a b): pass\n") ==
        "1:9: expected ',' or ')' in parameter list");
  CHECK(parseError("def (a): pass\n") ==
        "1:5: expected a function name after 'def'");
  CHECK(parseError("def f: pass\n") == "1:6: expected '(' after function name");
  CHECK(parseError("@triton.jit\nx = 1\n") ==
        "2:1: expected 'def' after decorator");
  CHECK(parseError("@triton.jit x\n") ==
        "1:13: expected a newline after decorator");
}

TEST_CASE("parser: assignment target errors", "[parser][errors]") {
  CHECK(parseError("f() = 1\n") == "1:1: cannot assign to function call");
  CHECK(parseError("1 = x\n") == "1:1: cannot assign to literal");
  CHECK(parseError("None = x\n") == "1:1: cannot assign to None");
  CHECK(parseError("a, b + 1 = x\n") == "1:4: cannot assign to expression");
  CHECK(parseError("a < b = x\n") == "1:1: cannot assign to comparison");
  CHECK(parseError("x = a if b else c = 1\n") ==
        "1:5: cannot assign to conditional expression");
  CHECK(parseError("for f() in x: pass\n") ==
        "1:5: cannot assign to function call");
  CHECK(parseError("a, b += 1\n") ==
        "1:1: 'tuple' is an illegal expression for augmented assignment");
  CHECK(parseError("f() += 1\n") ==
        "1:1: 'function call' is an illegal expression for augmented "
        "assignment");
  CHECK(parseError("a, b: int\n") ==
        "1:1: only single target (not tuple) can be annotated");
  CHECK(parseError("[a]: int\n") ==
        "1:1: only single target (not list) can be annotated");
  CHECK(parseError("f(): int\n") == "1:1: illegal target for annotation");
}

TEST_CASE("parser: import errors", "[parser][errors]") {
  CHECK(parseError("import\n") == "1:7: expected a module name after 'import'");
  CHECK(parseError("import a.\n") == "1:10: expected a name after '.'");
  CHECK(parseError("import a as\n") == "1:12: expected a name after 'as'");
  CHECK(parseError("from import a\n") ==
        "1:6: expected a module name after 'from'");
  CHECK(parseError("from a b\n") == "1:8: expected 'import' after module name");
  CHECK(parseError("from a import b,\n") ==
        "1:16: trailing comma not allowed without surrounding parentheses");
  CHECK(parseError("from a import (b c)\n") == "1:18: expected ',' or ')'");
  CHECK(parseError("from a import 1\n") == "1:15: expected a name to import");
}

TEST_CASE("parser: Python only host code uses", "[parser]") {
  // Parsed (a pasted module holds it in its host code), kept as a host-only
  // node that code generation rejects where it is evaluated.
  auto hostOnly = [](llvm::StringRef what) {
    return "Assign\n  Target\n    Name x\n  HostOnly \"" + what.str() + "\"\n";
  };
  CHECK(stmtTree("x = {1, 2}\n") == hostOnly("set displays"));
  CHECK(stmtTree("x = {a for a in y}\n") == hostOnly("set comprehensions"));
  CHECK(stmtTree("x = {**a, 'b': {1}}\n") == hostOnly("'**' in dict displays"));
  CHECK(stmtTree("x = {k: v for k in y}\n") == hostOnly("dict comprehensions"));
  CHECK(stmtTree("x = await y.z()\n") == hostOnly("'await' expressions"));
  CHECK(stmtTree("x = (yield)\n") == hostOnly("'yield' expressions"));
  // An assignment expression is evaluated in host code.
  CHECK(stmtTree("x = (n := 10)\n") ==
        "Assign\n  Target\n    Name x\n  Named n\n    Int 10\n");
  CHECK(stmtTree("x = ...\n") == hostOnly("Ellipsis ('...') values"));
  CHECK(stmtTree("x = b'a' b'b'\n") == hostOnly("bytes literals"));
  CHECK(stmtTree("x = 99999999999999999999\n") ==
        hostOnly("integer literals above 2**63 - 1"));
  CHECK(stmtTree("x = 3j\n") == hostOnly("complex literals"));
  CHECK(stmtTree("match x:\n    case {'a': 1}:\n        pass\n"
                 "    case _:\n        y = 1\nz = 2\n") ==
        "Unsupported match\nAssign\n  Target\n    Name z\n  Int 2\n");
  CHECK(stmtTree("from a import *\n").find("FromImport") == 0);
  CHECK(stmtTree("def f(a, /, b, *, c, d=1, e): pass\n").find("FunctionDef") ==
        0);
  CHECK(stmtTree("x = 'a' f'{b}' '{c}'\n") ==
        "Assign\n  Target\n    Name x\n  FString \"a{b}{{c}}\"\n");
}

TEST_CASE("parser: unsupported Python", "[parser][errors]") {
  CHECK(parseError("x = {1, 2\n") == "1:5: '{' was never closed");
  CHECK(parseError("x = {1: 2 3}\n") ==
        "1:11: invalid syntax. Perhaps you forgot a comma?");
  CHECK(parseError("x = [i for i in]\n") == "1:16: expected an expression");
  CHECK(parseError("x = [i for 1 in y]\n") == "1:12: cannot assign to literal");
  CHECK(parseError("f(a, i for i in y)\n") ==
        "1:6: a generator expression must be parenthesized unless it is the "
        "only argument");
  CHECK(parseError("x = lambda a b: 1\n") ==
        "1:14: expected ',' or ':' in lambda parameters");
  CHECK(parseError("with a as b\n    pass\n") == "1:12: expected ':'");
  CHECK(parseError("try:\n    pass\nexcept E\n    pass\n") ==
        "3:9: expected ':'");
  CHECK(parseError("match x\n    case 1:\n        pass\n") ==
        "1:8: expected ':'");
  CHECK(parseError("match x:\npass\n") ==
        "2:1: expected an indented block after 'match' statement");
  CHECK(parseError("x = 1 := 2\n") ==
        "1:7: ':=' (assignment expression) is not supported in tilec "
        "kernels");
}

TEST_CASE("parser: nesting limits", "[parser][errors]") {
  // 200 nested brackets are fine.
  CHECK(stmtTree("x = " + std::string(200, '(') + "1" + std::string(200, ')') +
                 "\n") == "Assign\n  Target\n    Name x\n  Int 1\n");
  Parse lists("x = " + std::string(150, '[') + std::string(150, ']') + "\n");
  CHECK(lists.module);

  CHECK(parseError(std::string(100000, '(')) ==
        "1:201: too many nested parentheses");
  CHECK(parseError("x = " + std::string(100000, '-') + "1\n") ==
        "1:304: too many nested expressions");
  std::string nots;
  for (int i = 0; i < 100000; ++i)
    nots += "not ";
  CHECK(StringRef(parseError("x = " + nots + "y\n"))
            .ends_with("too many nested expressions"));
  std::string powers;
  for (int i = 0; i < 100000; ++i)
    powers += "2**";
  CHECK(StringRef(parseError("x = " + powers + "2\n"))
            .ends_with("too many nested expressions"));
  std::string ifExps;
  for (int i = 0; i < 100000; ++i)
    ifExps += "a if b else ";
  CHECK(StringRef(parseError("x = " + ifExps + "c\n"))
            .ends_with("too many nested expressions"));
  // Long left-associative chains build deep trees without recursing.
  std::string sum = "x = 1";
  for (int i = 0; i < 100000; ++i)
    sum += "+1";
  CHECK(parseError(sum + "\n") == "1:604: too many nested expressions");
  std::string attrs = "x = a";
  for (int i = 0; i < 100000; ++i)
    attrs += ".b";
  CHECK(StringRef(parseError(attrs + "\n"))
            .ends_with("too many nested expressions"));
  std::string subscripts = "x = a";
  for (int i = 0; i < 100000; ++i)
    subscripts += "[0]";
  CHECK(StringRef(parseError(subscripts + "\n"))
            .ends_with("too many nested expressions"));
  std::string compares = "x = a";
  for (int i = 0; i < 100000; ++i)
    compares += " < a";
  CHECK(StringRef(parseError(compares + "\n"))
            .ends_with("too many nested expressions"));
  std::string ors = "x = a";
  for (int i = 0; i < 100000; ++i)
    ors += " or a";
  CHECK(StringRef(parseError(ors + "\n"))
            .ends_with("too many nested expressions"));
  // A parenthesised chain nested in chains still counts its real height.
  std::string mixed;
  for (int i = 0; i < 150; ++i)
    mixed = "(" + (mixed.empty() ? "" : mixed + "+") + "a+a+a+a)";
  CHECK(StringRef(parseError("x = " + mixed + "\n"))
            .ends_with("too many nested expressions"));
  // Wide is fine.
  std::string wide = "x = [";
  for (int i = 0; i < 100000; ++i)
    wide += "1, ";
  Parse widep(wide + "]\n");
  CHECK(widep.module);

  std::string elifs = "if a:\n    pass\n";
  for (int i = 0; i < 5000; ++i)
    elifs += "elif a:\n    pass\n";
  CHECK(parseError(elifs) == "1003:1: too many 'elif' branches");
  std::string fewElifs = "if a:\n    pass\n";
  for (int i = 0; i < 500; ++i)
    fewElifs += "elif a:\n    pass\n";
  Parse fewp(fewElifs);
  CHECK(fewp.module);
  // elif chains nested in else blocks add up.
  std::string nestedChains;
  for (int level = 0; level < 90; ++level) {
    std::string indent(level, ' ');
    nestedChains += indent + "if a:\n" + indent + " pass\n";
    for (int i = 0; i < 11; ++i)
      nestedChains += indent + "elif a:\n" + indent + " pass\n";
    nestedChains += indent + "else:\n";
  }
  nestedChains += std::string(90, ' ') + "pass\n";
  CHECK(
      StringRef(parseError(nestedChains)).ends_with("too many nested blocks"));

  std::string deep;
  for (int i = 0; i < 150; ++i)
    deep += std::string(i, ' ') + "if x:\n";
  CHECK(parseError(deep) == "102:102: too many levels of indentation");
}

//===----------------------------------------------------------------------===//
// Robustness
//===----------------------------------------------------------------------===//

TEST_CASE("robustness: every prefix of the kernels", "[robustness]") {
  for (const char *kernel : {seedMatmulKernel, seedSoftmax, layerNormKernel}) {
    StringRef text(kernel);
    for (size_t n = 0; n <= text.size(); ++n)
      checkRobust(text.take_front(n));
  }
}

TEST_CASE("robustness: mutated kernels", "[robustness]") {
  std::mt19937 rng(12345);
  StringRef text(layerNormKernel);
  static const char chars[] =
      "()[]{}:,.;=+-*/%@<>!&|^~'\"\\#\n\t \x00\xC3_a1eEjx";
  const std::string replacements(chars, sizeof(chars) - 1);
  for (int i = 0; i < 4000; ++i) {
    std::string mutated = text.str();
    int edits = 1 + rng() % 3;
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % mutated.size();
      switch (rng() % 3) {
      case 0:
        mutated[pos] = replacements[rng() % replacements.size()];
        break;
      case 1:
        mutated.erase(pos, 1 + rng() % 4);
        break;
      default:
        mutated.insert(pos, 1, replacements[rng() % replacements.size()]);
        break;
      }
      if (mutated.empty())
        mutated = "x";
    }
    checkRobust(mutated);
  }
}

TEST_CASE("robustness: random input", "[robustness]") {
  std::mt19937 rng(987654321);
  const std::string fragments[] = {"(",
                                   ")",
                                   "[",
                                   "]",
                                   "{",
                                   "}",
                                   ":",
                                   ",",
                                   ".",
                                   ";",
                                   "=",
                                   "==",
                                   "+",
                                   "-",
                                   "**",
                                   "//",
                                   "@",
                                   "<",
                                   ">>=",
                                   "->",
                                   ":=",
                                   "...",
                                   "\n",
                                   "\n    ",
                                   "\n  ",
                                   "\t",
                                   " ",
                                   "\\\n",
                                   "#c\n",
                                   "'s'",
                                   "\"\"\"",
                                   "'",
                                   "r'\\'",
                                   "0x1f",
                                   "1.5e-3",
                                   "1_0",
                                   "99999999999999999999",
                                   "x",
                                   "tl",
                                   "if ",
                                   "elif ",
                                   "else",
                                   "for ",
                                   " in ",
                                   "while ",
                                   "def ",
                                   "return ",
                                   "not ",
                                   " and ",
                                   " or ",
                                   " is ",
                                   "lambda",
                                   "import ",
                                   "from ",
                                   " as ",
                                   "pass",
                                   "None",
                                   "True",
                                   "@triton.jit\n",
                                   "f(",
                                   "a=",
                                   "\xC3\xA9",
                                   std::string("\0", 1),
                                   "$"};
  for (int i = 0; i < 4000; ++i) {
    std::string input;
    int pieces = 1 + rng() % 40;
    for (int k = 0; k < pieces; ++k) {
      if (rng() % 8 == 0)
        input += static_cast<char>(rng() % 256);
      else
        input += fragments[rng() % std::size(fragments)];
    }
    checkRobust(input);
  }
  // Pure random bytes.
  for (int i = 0; i < 2000; ++i) {
    std::string input(rng() % 64, '\0');
    for (char &c : input)
      c = static_cast<char>(rng() % 256);
    checkRobust(input);
  }
  // Embedded NUL bytes are errors, not the end of the buffer.
  CHECK(parseError(StringRef("x = 1\n\0\n", 8)) ==
        "2:1: source code cannot contain null bytes");
}

TEST_CASE("robustness: invalid buffer id", "[robustness]") {
  llvm::SourceMgr srcMgr;
  CHECK(!parseModule(srcMgr, 0));
  CHECK(!parseModule(srcMgr, 7));
}
