//===- ParserImpl.h - Recursive-descent parser for .tile --------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file declares the Parser class behind tilec::parseModule. It is private
// to the front-end library: Parser.cpp implements the token stream, the
// diagnostics and the module, ParseStmt.cpp the statements and ParseExpr.cpp
// the expressions. The grammar of every method is written above its
// definition.
//
// Error handling is deliberately simple: the first syntax error is reported
// through the SourceMgr, `failed` is set, and every parse method returns null
// (or false) up to parseModule, which returns null.
//
// The parser never recurses without bound: recursion through parentheses,
// unary operators, `not`, `**` and conditional expressions is capped by
// `maxRecursionDepth`; the height of every expression tree it builds is capped
// by `maxExprHeight` (left-associative chains like `a+b+c+...` grow the tree
// without recursing); and statements nest at most `maxBlockDepth` deep
// (blocks and `elif` branches, which are nested if statements in the AST),
// with at most `maxElifBranches` branches in one chain. This keeps the parser,
// the AST destructors and every recursive AST walk safe on hostile input.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_PARSERIMPL_H
#define TILEC_LIB_FRONTEND_PARSERIMPL_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/DenseMap.h"

#include <initializer_list>
#include <optional>

namespace llvm {
class SourceMgr;
class Twine;
} // namespace llvm

namespace tilec {
namespace detail {

/// Parses one .tile buffer into a ModuleAST.
class Parser {
public:
  /// Prepares to parse buffer `bufferId` of `srcMgr`, where errors go too.
  Parser(llvm::SourceMgr &srcMgr, unsigned bufferId);

  /// Parses the whole buffer; null after a syntax error (already reported).
  std::unique_ptr<ModuleAST> parseModule();

  /// The deepest recursion through nested expressions.
  static constexpr unsigned maxRecursionDepth = 300;
  /// The tallest expression tree.
  static constexpr unsigned maxExprHeight = 300;
  /// The deepest nesting of blocks and `elif` branches.
  static constexpr unsigned maxBlockDepth = 1000;
  /// The most `elif` branches of one `if` statement.
  static constexpr unsigned maxElifBranches = 500;

private:
  //===--------------------------------------------------------------------===//
  // Token stream and diagnostics (Parser.cpp)
  //===--------------------------------------------------------------------===//

  /// Moves to the next token. A lexer error token is reported as soon as it
  /// becomes the current token.
  void consume();
  /// Consumes the current token if it has kind `kind`.
  bool consumeIf(TokenKind kind);
  /// The token after the current one (lexed on demand).
  const Token &peekNext();
  /// The range from `start` to the end of the last consumed token.
  llvm::SMRange rangeFrom(llvm::SMLoc start) const { return {start, prevEnd}; }

  /// Reports `message` at `loc` unless an error was already reported.
  std::nullptr_t emitError(llvm::SMLoc loc, const llvm::Twine &message);
  /// Reports that the current token was not expected, with `message`. An
  /// INDENT gives "unexpected indent" and `:=` "not supported" instead.
  std::nullptr_t emitUnexpected(const llvm::Twine &message);
  /// Like emitUnexpected for errors that only say the parser is lost. As in
  /// CPython, if a bracket that is open here is never closed, that is
  /// reported instead since it is almost always the real mistake.
  std::nullptr_t emitSyntaxError(const llvm::Twine &message);
  /// Reports "'what' is not supported in tilec kernels" at `loc`; `what` is
  /// quoted if it is a single word or symbol (`lambda`, `...`).
  std::nullptr_t emitUnsupported(llvm::StringRef what, llvm::SMLoc loc);
  /// Reports a bad token after an element of a bracketed list closed by
  /// `closer` (a missing comma, a comprehension...).
  std::nullptr_t emitElementError(char closer);

  /// Counts one level of recursion for as long as it lives.
  class RecursionGuard {
  public:
    explicit RecursionGuard(Parser &parser);
    ~RecursionGuard() { --parser.recursionDepth; }
    RecursionGuard(const RecursionGuard &) = delete;
    RecursionGuard &operator=(const RecursionGuard &) = delete;
    /// False if the depth limit was exceeded (already reported).
    explicit operator bool() const { return ok; }

  private:
    /// The parser whose depth is counted.
    Parser &parser;
    /// False if the limit was exceeded.
    bool ok;
  };

  /// Counts nested statements (blocks and `elif` branches) for as long as
  /// it lives.
  class BlockGuard {
  public:
    explicit BlockGuard(Parser &parser) : parser(parser) {}
    ~BlockGuard() { parser.blockDepth -= count; }
    BlockGuard(const BlockGuard &) = delete;
    BlockGuard &operator=(const BlockGuard &) = delete;
    /// Adds one level; reports `message` at `loc` and returns false if that
    /// exceeds the limit.
    bool push(llvm::SMLoc loc, const llvm::Twine &message);

  private:
    /// The parser whose depth is counted.
    Parser &parser;
    /// The levels this guard added.
    unsigned count = 0;
  };

  //===--------------------------------------------------------------------===//
  // Expression tree heights (ParseExpr.cpp)
  //===--------------------------------------------------------------------===//

  /// The recorded height of `e` (0 for null).
  unsigned heightOf(const ExprAST *e) const;
  /// One more than the tallest of `children`, or 0 after reporting an error
  /// at `loc` if that exceeds maxExprHeight.
  unsigned newHeight(llvm::SMLoc loc,
                     std::initializer_list<const ExprAST *> children,
                     const ExprList *more = nullptr);
  /// Records the height of a new node and returns it.
  ExprPtr record(ExprPtr node, unsigned height);

  //===--------------------------------------------------------------------===//
  // Statements (ParseStmt.cpp)
  //===--------------------------------------------------------------------===//

  /// Parses one statement (several for `a; b`) and appends it to `out`.
  bool parseStatement(StmtList &out);
  /// Parses `;`-separated simple statements up to the NEWLINE.
  bool parseSimpleStatements(StmtList &out);
  /// Parses one simple statement.
  StmtPtr parseSimpleStatement();
  /// Parses an expression statement or a (chained, augmented or
  /// annotated) assignment.
  StmtPtr parseExprStatement();
  /// Parses `return [value]`.
  StmtPtr parseReturn();
  /// Parses `assert cond[, msg]`.
  StmtPtr parseAssert();
  /// Parses `import a.b as c, ...`.
  StmtPtr parseImport();
  /// Parses `from module import names`.
  StmtPtr parseFromImport();
  /// Parses `a.b.c` into `name`.
  bool parseDottedName(std::string &name, const char *what);
  /// Parses one imported name with its optional `as` alias.
  bool parseImportAlias(ImportAlias &alias, bool dotted);
  /// Parses an if statement with its elif and else branches.
  StmtPtr parseIf();
  /// Parses a for loop.
  StmtPtr parseFor();
  /// Parses a while loop.
  StmtPtr parseWhile();
  /// Parses decorators and the function they decorate.
  StmtPtr parseDecorated();
  /// Parses a function definition starting at `def`.
  StmtPtr parseFunctionDef(ExprList decorators);
  /// Parses `class`, `with`, `try` and `async` statements, kept unparsed.
  StmtPtr parseUnsupportedCompound();
  /// Skips a `match` statement, kept unparsed.
  StmtPtr parseMatch();
  /// Skips a compound statement's header up to and including its ':'.
  bool skipHeader();
  /// Parses a parameter list after its `(`.
  bool parseParameters(std::vector<ParamAST> &params,
                       TokenKind closer = TokenKind::r_paren);
  /// Parses the optional `else` clause of a loop.
  bool parseElse(StmtList &orelse);
  /// Parses the block after a compound statement header's `:`.
  bool parseBlock(StmtList &body, llvm::StringRef what);
  /// Checks that `e` may be assigned to; reports an error if not.
  bool checkAssignTarget(const ExprAST &e);

  //===--------------------------------------------------------------------===//
  // Expressions (ParseExpr.cpp)
  //===--------------------------------------------------------------------===//

  /// Parses expressions separated by commas (a bare tuple if several).
  ExprPtr parseTestList();
  /// Parses the targets of a for loop.
  ExprPtr parseTargetList();
  /// element (',' element)* [','] with `parseElement` parsing each element:
  /// one element alone is itself, more (or a trailing comma) a bare tuple.
  ExprPtr parseCommaSeparated(ExprPtr (Parser::*parseElement)());
  /// operand (keyword operand)*, left-associative, building `op` nodes: the
  /// shared shape of `or_test` and `and_test`.
  ExprPtr parseBooleanChain(TokenKind keyword, BinaryOp op,
                            ExprPtr (Parser::*parseOperand)());
  /// Parses an expression, including a conditional expression.
  ExprPtr parseTest();
  /// Parses `or` operands.
  ExprPtr parseOrTest();
  /// Parses `and` operands.
  ExprPtr parseAndTest();
  /// Parses `not` prefixes.
  ExprPtr parseNotTest();
  /// Parses a possibly chained comparison.
  ExprPtr parseComparison();
  /// Parses the binary operators from `|` to `*`.
  ExprPtr parseBitOr();
  /// Precedence climbing for the operators from `|` to `*`.
  ExprPtr parseBinaryRHS(unsigned minPrec, ExprPtr lhs, llvm::SMLoc start);
  /// Parses unary `+`, `-` and `~`.
  ExprPtr parseFactor();
  /// Parses `**`.
  ExprPtr parsePower();
  /// Parses an atom followed by calls, subscripts and attributes.
  ExprPtr parsePrimary();
  /// Parses a name, literal, parenthesized expression or list.
  ExprPtr parseAtom();
  /// Parses adjacent string literals.
  ExprPtr parseStrings();
  /// Parses `(...)`: a parenthesized expression or a tuple.
  ExprPtr parseParenthesized();
  /// Parses a list display.
  ExprPtr parseList();
  /// Parses `{...}` (a dict display).
  ExprPtr parseDict();
  /// Skips the rest of a `{...}` display that only host code uses.
  ExprPtr skipHostDisplay(llvm::SMLoc start, llvm::StringRef what);
  /// Parses `lambda params: test`.
  ExprPtr parseLambda();
  /// Parses the `for ... in ... [if ...]` clauses after `element`, up to
  /// `closer`, which it consumes.
  ExprPtr parseComprehension(ExprPtr element, llvm::SMLoc start,
                             TokenKind closer, bool isGenerator);
  /// Parses the arguments of a call of `callee`, which starts at `start`.
  ExprPtr parseCall(ExprPtr callee, llvm::SMLoc start);
  /// Parses the indices of a subscript of `value`, which starts at `start`.
  ExprPtr parseSubscript(ExprPtr value, llvm::SMLoc start);
  /// Parses one index: an expression or a slice.
  ExprPtr parseSubscriptIndex();
  /// True if `tok` can start an expression.
  static bool startsExpression(const Token &tok);

  /// The source manager diagnostics go to.
  llvm::SourceMgr &srcMgr;
  /// Produces the tokens.
  Lexer lexer;
  /// The current token.
  Token tok;
  /// The token after `tok`, if it was already lexed by peekNext().
  std::optional<Token> lookahead;
  /// The end of the last consumed token that is not NEWLINE/INDENT/DEDENT.
  llvm::SMLoc prevEnd;
  /// True once an error was reported.
  bool failed = false;
  /// Current recursion depth through expressions.
  unsigned recursionDepth = 0;
  /// Current nesting of blocks and `elif` branches.
  unsigned blockDepth = 0;
  /// The height of every expression node built so far.
  llvm::DenseMap<const ExprAST *, unsigned> heights;
};

} // namespace detail
} // namespace tilec

#endif // TILEC_LIB_FRONTEND_PARSERIMPL_H
