//===- FrontendTests.cpp - Unit tests of the .tile parser and AST ---------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Catch2 tests of the parser and the AST dump on valid input: operator
// precedence and associativity, every expression and statement form, the
// documented --emit=ast format, source ranges and locations, and the kernels
// of the seed documents.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "tilec/Frontend/AST.h"

#include "llvm/Support/Casting.h"

#include <catch2/catch.hpp>

#include <iterator>

using namespace tilec;
using namespace tilec::test;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Parser: expressions
//===----------------------------------------------------------------------===//

TEST_CASE("parser: unary minus binds looser than power", "[parser]") {
  CHECK(exprTree("-2**2") == "Unary -\n"
                             "  Binary **\n"
                             "    Int 2\n"
                             "    Int 2\n");
  CHECK(exprTree("2**-1") == "Binary **\n"
                             "  Int 2\n"
                             "  Unary -\n"
                             "    Int 1\n");
  // ** is right associative.
  CHECK(exprTree("a**b**c") == "Binary **\n"
                               "  Name a\n"
                               "  Binary **\n"
                               "    Name b\n"
                               "    Name c\n");
  CHECK(exprTree("-~+x") == "Unary -\n"
                            "  Unary ~\n"
                            "    Unary +\n"
                            "      Name x\n");
}

TEST_CASE("parser: arithmetic precedence", "[parser]") {
  CHECK(exprTree("a + b * c") == "Binary +\n"
                                 "  Name a\n"
                                 "  Binary *\n"
                                 "    Name b\n"
                                 "    Name c\n");
  CHECK(exprTree("(a + b) * c") == "Binary *\n"
                                   "  Binary +\n"
                                   "    Name a\n"
                                   "    Name b\n"
                                   "  Name c\n");
  CHECK(exprTree("a - b - c") == "Binary -\n"
                                 "  Binary -\n"
                                 "    Name a\n"
                                 "    Name b\n"
                                 "  Name c\n");
  CHECK(exprTree("a // b % c @ d / e") == "Binary /\n"
                                          "  Binary @\n"
                                          "    Binary %\n"
                                          "      Binary //\n"
                                          "        Name a\n"
                                          "        Name b\n"
                                          "      Name c\n"
                                          "    Name d\n"
                                          "  Name e\n");
  CHECK(exprTree("a | b ^ c & d << e + f * g") == "Binary |\n"
                                                  "  Name a\n"
                                                  "  Binary ^\n"
                                                  "    Name b\n"
                                                  "    Binary &\n"
                                                  "      Name c\n"
                                                  "      Binary <<\n"
                                                  "        Name d\n"
                                                  "        Binary +\n"
                                                  "          Name e\n"
                                                  "          Binary *\n"
                                                  "            Name f\n"
                                                  "            Name g\n");
  CHECK(exprTree("a * b + c >> d & e ^ f | g") == "Binary |\n"
                                                  "  Binary ^\n"
                                                  "    Binary &\n"
                                                  "      Binary >>\n"
                                                  "        Binary +\n"
                                                  "          Binary *\n"
                                                  "            Name a\n"
                                                  "            Name b\n"
                                                  "          Name c\n"
                                                  "        Name d\n"
                                                  "      Name e\n"
                                                  "    Name f\n"
                                                  "  Name g\n");
  CHECK(exprTree("-a * b") == "Binary *\n"
                              "  Unary -\n"
                              "    Name a\n"
                              "  Name b\n");
}

TEST_CASE("parser: boolean operators and conditional expressions", "[parser]") {
  CHECK(exprTree("a or b and not c") == "Binary or\n"
                                        "  Name a\n"
                                        "  Binary and\n"
                                        "    Name b\n"
                                        "    Unary not\n"
                                        "      Name c\n");
  CHECK(exprTree("not a == b") == "Unary not\n"
                                  "  Binary ==\n"
                                  "    Name a\n"
                                  "    Name b\n");
  CHECK(exprTree("a if b else c if d else e") == "IfExp\n"
                                                 "  Name b\n"
                                                 "  Name a\n"
                                                 "  IfExp\n"
                                                 "    Name d\n"
                                                 "    Name c\n"
                                                 "    Name e\n");
  CHECK(exprTree("a or b if c or d else e") == "IfExp\n"
                                               "  Binary or\n"
                                               "    Name c\n"
                                               "    Name d\n"
                                               "  Binary or\n"
                                               "    Name a\n"
                                               "    Name b\n"
                                               "  Name e\n");
}

TEST_CASE("parser: comparisons", "[parser]") {
  CHECK(exprTree("a < b < c") == "Binary < chained\n"
                                 "  Binary <\n"
                                 "    Name a\n"
                                 "    Name b\n"
                                 "  Name c\n");
  CHECK(exprTree("a == b != c >= d") == "Binary >= chained\n"
                                        "  Binary != chained\n"
                                        "    Binary ==\n"
                                        "      Name a\n"
                                        "      Name b\n"
                                        "    Name c\n"
                                        "  Name d\n");
  CHECK(exprTree("a is not b") == "Binary is not\n"
                                  "  Name a\n"
                                  "  Name b\n");
  CHECK(exprTree("a not in b") == "Binary not in\n"
                                  "  Name a\n"
                                  "  Name b\n");
  CHECK(exprTree("a in b is c") == "Binary is chained\n"
                                   "  Binary in\n"
                                   "    Name a\n"
                                   "    Name b\n"
                                   "  Name c\n");
  CHECK(exprTree("a < b | c") == "Binary <\n"
                                 "  Name a\n"
                                 "  Binary |\n"
                                 "    Name b\n"
                                 "    Name c\n");
  Parse p("a < b < c\n");
  REQUIRE(p.module);
  const auto &outer = llvm::cast<BinaryExprAST>(
      llvm::cast<ExprStmtAST>(*p.module->getBody()[0]).getValue());
  CHECK(outer.isChained());
  CHECK(!llvm::cast<BinaryExprAST>(outer.getLHS()).isChained());
}

TEST_CASE("parser: literals", "[parser]") {
  CHECK(exprTree("(1, 0x10, 1.5, 1e-5, 0.1, 2., True, False, None)") ==
        "Tuple\n"
        "  Int 1\n"
        "  Int 16\n"
        "  Float 1.5\n"
        "  Float 1e-05\n"
        "  Float 0.1\n"
        "  Float 2.0\n"
        "  Bool True\n"
        "  Bool False\n"
        "  None\n");
  CHECK(exprTree("'a' \"b\" '''c'''") == "String \"abc\"\n");
  CHECK(exprTree("('a'\n 'b')") == "String \"ab\"\n");
  CHECK(exprTree("'q\"\\\\\\n\\t\\x01'") ==
        "String \"q\\\"\\\\\\n\\t\\x01\"\n");
  CHECK(exprTree("1.4142135623730951") == "Float 1.4142135623730951\n");
  CHECK(exprTree("1e300 * 1e300") == "Binary *\n"
                                     "  Float 1e+300\n"
                                     "  Float 1e+300\n");
}

TEST_CASE("parser: subscripts and slices", "[parser]") {
  CHECK(exprTree("x[:, None]") == "Subscript\n"
                                  "  Name x\n"
                                  "  Slice\n"
                                  "  None\n");
  CHECK(exprTree("x[None, :]") == "Subscript\n"
                                  "  Name x\n"
                                  "  None\n"
                                  "  Slice\n");
  CHECK(exprTree("x[1:n:2]") == "Subscript\n"
                                "  Name x\n"
                                "  Slice\n"
                                "    Lower\n"
                                "      Int 1\n"
                                "    Upper\n"
                                "      Name n\n"
                                "    Step\n"
                                "      Int 2\n");
  CHECK(exprTree("x[::2, a:]") == "Subscript\n"
                                  "  Name x\n"
                                  "  Slice\n"
                                  "    Step\n"
                                  "      Int 2\n"
                                  "  Slice\n"
                                  "    Lower\n"
                                  "      Name a\n");
  CHECK(exprTree("x[i][j]") == "Subscript\n"
                               "  Subscript\n"
                               "    Name x\n"
                               "    Name i\n"
                               "  Name j\n");
  CHECK(exprTree("x[i,]") == "Subscript\n"
                             "  Name x\n"
                             "  Name i\n");
  CHECK(exprTree("x[(i, j)]") == "Subscript\n"
                                 "  Name x\n"
                                 "  Tuple\n"
                                 "    Name i\n"
                                 "    Name j\n");
}

TEST_CASE("parser: calls attributes and methods", "[parser]") {
  CHECK(exprTree("tl.load(p + o, mask=m, other=0.0,)") == "Call\n"
                                                          "  Attribute load\n"
                                                          "    Name tl\n"
                                                          "  Binary +\n"
                                                          "    Name p\n"
                                                          "    Name o\n"
                                                          "  Keyword mask\n"
                                                          "    Name m\n"
                                                          "  Keyword other\n"
                                                          "    Float 0.0\n");
  CHECK(exprTree("x.to(tl.float16).T") == "Attribute T\n"
                                          "  Call\n"
                                          "    Attribute to\n"
                                          "      Name x\n"
                                          "    Attribute float16\n"
                                          "      Name tl\n");
  CHECK(exprTree("-float(\"inf\")") == "Unary -\n"
                                       "  Call\n"
                                       "    Name float\n"
                                       "    String \"inf\"\n");
  CHECK(exprTree("f()()") == "Call\n"
                             "  Call\n"
                             "    Name f\n");
  CHECK(exprTree("k[grid](a)") == "Call\n"
                                  "  Subscript\n"
                                  "    Name k\n"
                                  "    Name grid\n"
                                  "  Name a\n");
}

TEST_CASE("parser: tuples and lists", "[parser]") {
  CHECK(exprTree("()") == "Tuple\n");
  CHECK(exprTree("(x)") == "Name x\n");
  CHECK(exprTree("((x))") == "Name x\n");
  CHECK(exprTree("(x,)") == "Tuple\n"
                            "  Name x\n");
  CHECK(exprTree("x, y") == "Tuple\n"
                            "  Name x\n"
                            "  Name y\n");
  CHECK(exprTree("x,") == "Tuple\n"
                          "  Name x\n");
  CHECK(exprTree("[]") == "List\n");
  CHECK(exprTree("[a, (b, c),]") == "List\n"
                                    "  Name a\n"
                                    "  Tuple\n"
                                    "    Name b\n"
                                    "    Name c\n");
}

//===----------------------------------------------------------------------===//
// Parser: statements
//===----------------------------------------------------------------------===//

TEST_CASE("parser: the documented dump format", "[parser][dump]") {
  Parse p(addKernel);
  INFO(p.diags);
  REQUIRE(p.module);
  CHECK(p.dump() == R"(Module
  Import triton @1:1
  Import triton.language as tl @2:1
  FunctionDef add_kernel @5:1
    Decorator
      Attribute jit @4:9
        Name triton @4:2
    Param x_ptr @5:16
    Param y_ptr @5:23
    Param out_ptr @5:30
    Param n @5:39
    Param BLOCK @5:42
      Annotation
        Attribute constexpr @5:52
          Name tl @5:49
    Body
      Assign @6:5
        Target
          Name pid @6:5
        Call @6:11
          Attribute program_id @6:14
            Name tl @6:11
          Int 0 @6:25
      Assign @7:5
        Target
          Name offs @7:5
        Binary + @7:24
          Binary * @7:16
            Name pid @7:12
            Name BLOCK @7:18
          Call @7:26
            Attribute arange @7:29
              Name tl @7:26
            Int 0 @7:36
            Name BLOCK @7:39
      Assign @8:5
        Target
          Name mask @8:5
        Binary < @8:17
          Name offs @8:12
          Name n @8:19
      Assign @9:5
        Target
          Name x @9:5
        Call @9:9
          Attribute load @9:12
            Name tl @9:9
          Binary + @9:23
            Name x_ptr @9:17
            Name offs @9:25
          Keyword mask @9:31
            Name mask @9:36
      Assign @10:5
        Target
          Name y @10:5
        Call @10:9
          Attribute load @10:12
            Name tl @10:9
          Binary + @10:23
            Name y_ptr @10:17
            Name offs @10:25
          Keyword mask @10:31
            Name mask @10:36
      ExprStmt @11:5
        Call @11:5
          Attribute store @11:8
            Name tl @11:5
          Binary + @11:22
            Name out_ptr @11:14
            Name offs @11:24
          Binary + @11:32
            Name x @11:30
            Name y @11:34
          Keyword mask @11:37
            Name mask @11:42
)");
}

TEST_CASE("parser: assignments", "[parser]") {
  CHECK(stmtTree("a = b = c\n") == "Assign\n"
                                   "  Target\n"
                                   "    Name a\n"
                                   "  Target\n"
                                   "    Name b\n"
                                   "  Name c\n");
  CHECK(stmtTree("a, b = b, a\n") == "Assign\n"
                                     "  Target\n"
                                     "    Tuple\n"
                                     "      Name a\n"
                                     "      Name b\n"
                                     "  Tuple\n"
                                     "    Name b\n"
                                     "    Name a\n");
  CHECK(stmtTree("(a, [b, c]) = x.y[0] = t\n") == "Assign\n"
                                                  "  Target\n"
                                                  "    Tuple\n"
                                                  "      Name a\n"
                                                  "      List\n"
                                                  "        Name b\n"
                                                  "        Name c\n"
                                                  "  Target\n"
                                                  "    Subscript\n"
                                                  "      Attribute y\n"
                                                  "        Name x\n"
                                                  "      Int 0\n"
                                                  "  Name t\n");
  CHECK(stmtTree("x: tl.constexpr = 4\ny: int\n") == "AnnAssign\n"
                                                     "  Target\n"
                                                     "    Name x\n"
                                                     "  Annotation\n"
                                                     "    Attribute constexpr\n"
                                                     "      Name tl\n"
                                                     "  Int 4\n"
                                                     "AnnAssign\n"
                                                     "  Target\n"
                                                     "    Name y\n"
                                                     "  Annotation\n"
                                                     "    Name int\n");
  CHECK(stmtTree("acc += a * b\n") == "AugAssign +=\n"
                                      "  Target\n"
                                      "    Name acc\n"
                                      "  Binary *\n"
                                      "    Name a\n"
                                      "    Name b\n");
  const char *ops[] = {"+=", "-=",  "*=",  "/=", "//=", "%=", "**=",
                       "@=", "<<=", ">>=", "&=", "|=",  "^="};
  const BinaryOp kinds[] = {
      BinaryOp::Add,      BinaryOp::Sub,    BinaryOp::Mul,    BinaryOp::Div,
      BinaryOp::FloorDiv, BinaryOp::Mod,    BinaryOp::Pow,    BinaryOp::MatMul,
      BinaryOp::LShift,   BinaryOp::RShift, BinaryOp::BitAnd, BinaryOp::BitOr,
      BinaryOp::BitXor};
  for (size_t i = 0; i < std::size(ops); ++i) {
    std::string src = std::string("x[0] ") + ops[i] + " 2\n";
    Parse p(src);
    INFO(src);
    REQUIRE(p.module);
    const auto &aug = llvm::cast<AugAssignStmtAST>(*p.module->getBody()[0]);
    CHECK(aug.getOp() == kinds[i]);
    CHECK(p.pos(aug.getOpLoc()) == "1:6");
    CHECK((spell(aug.getOp()) + "=").str() == ops[i]);
  }
}

TEST_CASE("parser: if elif else", "[parser]") {
  CHECK(stmtTree("if a:\n"
                 "    x = 1\n"
                 "elif b:\n"
                 "    x = 2\n"
                 "elif c:\n"
                 "    pass\n"
                 "else:\n"
                 "    x = 3\n"
                 "    y = 4\n") == "If\n"
                                   "  Name a\n"
                                   "  Then\n"
                                   "    Assign\n"
                                   "      Target\n"
                                   "        Name x\n"
                                   "      Int 1\n"
                                   "  Else\n"
                                   "    If\n"
                                   "      Name b\n"
                                   "      Then\n"
                                   "        Assign\n"
                                   "          Target\n"
                                   "            Name x\n"
                                   "          Int 2\n"
                                   "      Else\n"
                                   "        If\n"
                                   "          Name c\n"
                                   "          Then\n"
                                   "            Pass\n"
                                   "          Else\n"
                                   "            Assign\n"
                                   "              Target\n"
                                   "                Name x\n"
                                   "              Int 3\n"
                                   "            Assign\n"
                                   "              Target\n"
                                   "                Name y\n"
                                   "              Int 4\n");
  CHECK(stmtTree("if a: x = 1; y = 2\nelse: pass\n") == "If\n"
                                                        "  Name a\n"
                                                        "  Then\n"
                                                        "    Assign\n"
                                                        "      Target\n"
                                                        "        Name x\n"
                                                        "      Int 1\n"
                                                        "    Assign\n"
                                                        "      Target\n"
                                                        "        Name y\n"
                                                        "      Int 2\n"
                                                        "  Else\n"
                                                        "    Pass\n");
  // Nested ifs and dedents of several levels at once.
  CHECK(stmtTree("if a:\n  if b:\n    c\nd\n") == "If\n"
                                                  "  Name a\n"
                                                  "  Then\n"
                                                  "    If\n"
                                                  "      Name b\n"
                                                  "      Then\n"
                                                  "        ExprStmt\n"
                                                  "          Name c\n"
                                                  "ExprStmt\n"
                                                  "  Name d\n");
}

TEST_CASE("parser: loops", "[parser]") {
  CHECK(stmtTree("for k in range(0, tl.cdiv(K, BLOCK_K)):\n"
                 "    acc += k\n"
                 "else:\n"
                 "    break\n") == "For\n"
                                   "  Target\n"
                                   "    Name k\n"
                                   "  Call\n"
                                   "    Name range\n"
                                   "    Int 0\n"
                                   "    Call\n"
                                   "      Attribute cdiv\n"
                                   "        Name tl\n"
                                   "      Name K\n"
                                   "      Name BLOCK_K\n"
                                   "  Body\n"
                                   "    AugAssign +=\n"
                                   "      Target\n"
                                   "        Name acc\n"
                                   "      Name k\n"
                                   "  Else\n"
                                   "    Break\n");
  CHECK(stmtTree("for i, (j, k) in a, b: continue\n") == "For\n"
                                                         "  Target\n"
                                                         "    Tuple\n"
                                                         "      Name i\n"
                                                         "      Tuple\n"
                                                         "        Name j\n"
                                                         "        Name k\n"
                                                         "  Tuple\n"
                                                         "    Name a\n"
                                                         "    Name b\n"
                                                         "  Body\n"
                                                         "    Continue\n");
  CHECK(stmtTree("while i < n:\n    i += 1\nelse:\n    pass\n") ==
        "While\n"
        "  Binary <\n"
        "    Name i\n"
        "    Name n\n"
        "  Body\n"
        "    AugAssign +=\n"
        "      Target\n"
        "        Name i\n"
        "      Int 1\n"
        "  Else\n"
        "    Pass\n");
}

TEST_CASE("parser: functions and decorators", "[parser]") {
  CHECK(stmtTree("@triton.jit\n"
                 "@triton.jit(do_not_specialize=[\"n\"])\n"
                 "def f(a, b: int = 1, c=-2) -> tl.tensor:\n"
                 "    \"\"\"Doc.\"\"\"\n"
                 "    return a, b\n") == "FunctionDef f\n"
                                         "  Decorator\n"
                                         "    Attribute jit\n"
                                         "      Name triton\n"
                                         "  Decorator\n"
                                         "    Call\n"
                                         "      Attribute jit\n"
                                         "        Name triton\n"
                                         "      Keyword do_not_specialize\n"
                                         "        List\n"
                                         "          String \"n\"\n"
                                         "  Param a\n"
                                         "  Param b\n"
                                         "    Annotation\n"
                                         "      Name int\n"
                                         "    Default\n"
                                         "      Int 1\n"
                                         "  Param c\n"
                                         "    Default\n"
                                         "      Unary -\n"
                                         "        Int 2\n"
                                         "  Returns\n"
                                         "    Attribute tensor\n"
                                         "      Name tl\n"
                                         "  Body\n"
                                         "    ExprStmt\n"
                                         "      String \"Doc.\"\n"
                                         "    Return\n"
                                         "      Tuple\n"
                                         "        Name a\n"
                                         "        Name b\n");
  CHECK(stmtTree("def g(): return\n") == "FunctionDef g\n"
                                         "  Body\n"
                                         "    Return\n");
  CHECK(stmtTree("def h(a,): pass\n") == "FunctionDef h\n"
                                         "  Param a\n"
                                         "  Body\n"
                                         "    Pass\n");
}

TEST_CASE("parser: imports assert and simple statements", "[parser]") {
  CHECK(stmtTree("import a.b as c, d\n"
                 "from triton.language import (x as y, z,)\n"
                 "from . import m\n"
                 "from ..pkg.mod import n\n"
                 "from ... import o\n") ==
        "Import a.b as c, d\n"
        "FromImport triton.language import x as y, z\n"
        "FromImport . import m\n"
        "FromImport ..pkg.mod import n\n"
        "FromImport ... import o\n");
  CHECK(stmtTree("assert x > 0, \"msg\"\nassert y\n") == "Assert\n"
                                                         "  Binary >\n"
                                                         "    Name x\n"
                                                         "    Int 0\n"
                                                         "  Msg\n"
                                                         "    String \"msg\"\n"
                                                         "Assert\n"
                                                         "  Name y\n");
  CHECK(stmtTree("pass; break; continue;\n") == "Pass\n"
                                                "Break\n"
                                                "Continue\n");
  CHECK(stmtTree("match = 1\nmatch(x)\n") == "Assign\n"
                                             "  Target\n"
                                             "    Name match\n"
                                             "  Int 1\n"
                                             "ExprStmt\n"
                                             "  Call\n"
                                             "    Name match\n"
                                             "    Name x\n");
}

TEST_CASE("parser: import details", "[parser]") {
  Parse p("from a.b import (c as d,\n    e)\n");
  REQUIRE(p.module);
  const auto &from = llvm::cast<FromImportStmtAST>(*p.module->getBody()[0]);
  CHECK(from.getModule() == "a.b");
  REQUIRE(from.getNames().size() == 2);
  CHECK(from.getNames()[0].name == "c");
  CHECK(from.getNames()[0].alias == "d");
  CHECK(textOf(from.getNames()[0].range) == "c as d");
  CHECK(from.getNames()[1].alias.empty());
  CHECK(textOf(from.getRange()) == "from a.b import (c as d,\n    e)");
}

//===----------------------------------------------------------------------===//
// Parser: source ranges
//===----------------------------------------------------------------------===//

TEST_CASE("parser: source ranges and locations", "[parser]") {
  Parse p("y = (a + b) * f(c, k=d)[0].x\n"
          "t = (1, 2), 3\n"
          "@dec\n"
          "def g(p: int = 3):\n"
          "    if p:\n"
          "        pass\n"
          "    elif q:\n"
          "        return -x ** 2\n"
          "    # trailing comment\n"
          "\n");
  INFO(p.diags);
  REQUIRE(p.module);
  const StmtList &body = p.module->getBody();
  REQUIRE(body.size() == 3);

  const auto &assign = llvm::cast<AssignStmtAST>(*body[0]);
  CHECK(textOf(assign.getRange()) == "y = (a + b) * f(c, k=d)[0].x");
  const auto &mul = llvm::cast<BinaryExprAST>(assign.getValue());
  CHECK(textOf(mul.getRange()) == "(a + b) * f(c, k=d)[0].x");
  CHECK(p.pos(mul.getLoc()) == "1:13");
  const auto &add = llvm::cast<BinaryExprAST>(mul.getLHS());
  CHECK(textOf(add.getRange()) == "a + b");
  CHECK(p.pos(add.getLoc()) == "1:8");
  const auto &attr = llvm::cast<AttributeExprAST>(mul.getRHS());
  CHECK(textOf(attr.getRange()) == "f(c, k=d)[0].x");
  CHECK(p.pos(attr.getLoc()) == "1:28");
  const auto &sub = llvm::cast<SubscriptExprAST>(attr.getValue());
  CHECK(textOf(sub.getRange()) == "f(c, k=d)[0]");
  const auto &call = llvm::cast<CallExprAST>(sub.getValue());
  CHECK(textOf(call.getRange()) == "f(c, k=d)");
  CHECK(p.pos(call.getLoc()) == "1:15");
  CHECK(textOf(call.getKeywords()[0].nameRange) == "k");

  const auto &tupleAssign = llvm::cast<AssignStmtAST>(*body[1]);
  const auto &outer = llvm::cast<TupleExprAST>(tupleAssign.getValue());
  CHECK(textOf(outer.getRange()) == "(1, 2), 3");
  CHECK(textOf(outer.getElements()[0]->getRange()) == "(1, 2)");

  const auto &def = llvm::cast<FunctionDefAST>(*body[2]);
  CHECK(p.pos(def.getLoc()) == "4:1");
  CHECK(textOf(def.getRange()).starts_with("def g("));
  CHECK(textOf(def.getRange()).ends_with("return -x ** 2"));
  CHECK(textOf(def.getNameRange()) == "g");
  CHECK(textOf(def.getDecorators()[0]->getRange()) == "dec");
  CHECK(textOf(def.getParams()[0].range) == "p: int = 3");
  const auto &ifStmt = llvm::cast<IfStmtAST>(*def.getBody()[0]);
  CHECK(textOf(ifStmt.getRange()).starts_with("if p:"));
  CHECK(textOf(ifStmt.getRange()).ends_with("return -x ** 2"));
  const auto &elif = llvm::cast<IfStmtAST>(*ifStmt.getElse()[0]);
  CHECK(textOf(elif.getRange()) == "elif q:\n        return -x ** 2");
  const auto &ret = llvm::cast<ReturnStmtAST>(*elif.getThen()[0]);
  CHECK(textOf(ret.getRange()) == "return -x ** 2");
  const auto &neg = llvm::cast<UnaryExprAST>(*ret.getValue());
  CHECK(textOf(neg.getRange()) == "-x ** 2");
  const auto &pow = llvm::cast<BinaryExprAST>(neg.getOperand());
  CHECK(p.pos(pow.getLoc()) == "8:19");
}

TEST_CASE("parser: slice ranges", "[parser]") {
  Parse p("x[:, 1:n, ::2]\n");
  REQUIRE(p.module);
  const auto &sub = llvm::cast<SubscriptExprAST>(
      llvm::cast<ExprStmtAST>(*p.module->getBody()[0]).getValue());
  REQUIRE(sub.getIndices().size() == 3);
  CHECK(textOf(sub.getIndices()[0]->getRange()) == ":");
  CHECK(textOf(sub.getIndices()[1]->getRange()) == "1:n");
  CHECK(textOf(sub.getIndices()[2]->getRange()) == "::2");
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

TEST_CASE("parser: the seed kernels parse", "[parser][kernels]") {
  for (const char *kernel :
       {addKernel, seedMatmulKernel, seedMatmulSnippets, seedBlockPtrMatmul,
        seedBlockPtr1D, seedSoftmax, layerNormKernel}) {
    Parse p(kernel);
    INFO(kernel);
    INFO(p.diags);
    REQUIRE(p.module);
    CHECK(p.diags.empty());
    checkRanges(p);
    CHECK(!p.dump().empty());
  }
}

TEST_CASE("parser: host Python around kernels", "[parser]") {
  // Decorators and the module-level code that configures them.
  Parse p("configs = [triton.Config({'BLOCK': b, \"W\": 2}, num_warps=w)\n"
          "           for b in [64, 128] for w in (4, 8) if b * w < 1024]\n"
          "def keep(conf, *args, key=None, **kwargs):\n"
          "    return conf.num_warps == 8\n"
          "@triton.heuristics({'EVEN': lambda args: args['n'] % 2 == 0})\n"
          "@triton.jit\n"
          "def k(x, n, *, EVEN: tl.constexpr = False):\n"
          "    pass\n"
          "total = sum(x * x for x in range(4))\n"
          "empty = {}\n");
  INFO(p.diags);
  REQUIRE(p.module);
  checkRanges(p);
  std::string dump = p.dump();
  CHECK(dump.find("ListComp @1:11") != std::string::npos);
  CHECK(dump.find("Dict @1:26") != std::string::npos);
  CHECK(dump.find("Param *args") != std::string::npos);
  CHECK(dump.find("Param **kwargs") != std::string::npos);
  CHECK(dump.find("Lambda @5:29") != std::string::npos);
  CHECK(dump.find("GeneratorExp @9:13") != std::string::npos);

  // Statements code generation rejects if they run: kept unparsed.
  Parse kept("def f(x):\n    global y\n    del x\n    raise ValueError("
             "f'bad {x}')\n    def g():\n        nonlocal x\n    yield x\n");
  INFO(kept.diags);
  REQUIRE(kept.module);
  std::string keptDump = kept.dump();
  Parse compound(
      "class A(B):\n    x = {1: 2}\nwith a(b, c=':') as d:\n"
      "    pass\ntry:\n    pass\nexcept (E, F) as e:\n    pass\n"
      "else:\n    pass\nfinally:\n    pass\n"
      "async def f():\n    pass\n@dataclass\nclass C:\n    y: int\n");
  INFO(compound.diags);
  REQUIRE(compound.module);
  CHECK(compound.module->getBody().size() == 5);
  for (const char *keyword : {"global", "del", "raise", "nonlocal", "yield"})
    CHECK(keptDump.find(std::string("Unsupported ") + keyword) !=
          std::string::npos);
}

TEST_CASE("parser: seed kernel details", "[parser][kernels]") {
  Parse p(seedSoftmax);
  REQUIRE(p.module);
  const auto &def = llvm::cast<FunctionDefAST>(*p.module->getBody()[2]);
  CHECK(def.getName() == "softmax_bp_kernel");
  CHECK(def.getParams().size() == 6);
  CHECK(def.getBody().size() == 11);
  // t = tl.where(col_mask, t, -float("inf"))
  const auto &where = llvm::cast<CallExprAST>(
      llvm::cast<AssignStmtAST>(*def.getBody()[5]).getValue());
  REQUIRE(where.getArgs().size() == 3);
  CHECK(textOf(where.getArgs()[2]->getRange()) == "-float(\"inf\")");

  Parse bp(seedBlockPtrMatmul);
  REQUIRE(bp.module);
  // The launch: matmul_bp_kernel[grid](a, b, c, M, N, K, N_ITERS=..., ...)
  const auto &launch = llvm::cast<CallExprAST>(
      llvm::cast<ExprStmtAST>(*bp.module->getBody().back()).getValue());
  CHECK(launch.getArgs().size() == 6);
  CHECK(launch.getKeywords().size() == 4);
  CHECK(llvm::isa<SubscriptExprAST>(launch.getCallee()));
}
