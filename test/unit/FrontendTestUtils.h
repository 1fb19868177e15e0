//===- FrontendTestUtils.h - Front-end test helpers -------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file declares what the front-end tests share: parsing a string with
// its diagnostics captured, compact renderings of tokens and ASTs, the
// structural checks run on every parse of the robustness tests, and the
// kernels (from the seed documents and typical Triton code) used as inputs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_FRONTENDTESTUTILS_H
#define TILEC_TEST_UNIT_FRONTENDTESTUTILS_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Token.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace tilec {
namespace test {

/// Parses a source string with its diagnostics captured as
/// "line:col: message\n" lines, and keeps everything needed to inspect the
/// result.
class Parse {
public:
  explicit Parse(llvm::StringRef source);

  /// The full --emit=ast dump (empty if parsing failed).
  std::string dump() const;
  /// The position of `loc` as "line:col".
  std::string pos(llvm::SMLoc loc) const;
  /// The parsed buffer.
  llvm::StringRef buffer() const;

  /// Owns the parsed buffer.
  llvm::SourceMgr srcMgr;
  /// The id of the parsed buffer in srcMgr.
  unsigned bufferId;
  /// The diagnostics, one "line:col: message" per line.
  std::string diags;
  /// The result of parseModule.
  std::unique_ptr<ModuleAST> module;
};

/// The dump (without locations) of the statements of `source`, which must
/// parse.
std::string stmtTree(llvm::StringRef source);
/// The dump (without locations) of `expr`, parsed as an expression
/// statement, which must parse.
std::string exprTree(llvm::StringRef expr);
/// The single diagnostic ("line:col: message") of `source`, which must fail
/// to parse.
std::string parseError(llvm::StringRef source);
/// The source text `range` covers.
llvm::StringRef textOf(llvm::SMRange range);

/// The kinds of the tokens of `source`, space separated; an error token is
/// written `error(message)`.
std::string lexKinds(llvm::StringRef source);
/// All the tokens of `source`, up to eof or error; `holder` keeps the buffer
/// alive.
std::vector<Token> lexAll(llvm::StringRef source,
                          std::unique_ptr<llvm::MemoryBuffer> &holder);
/// The first token of `source`.
Token lexOne(llvm::StringRef source,
             std::unique_ptr<llvm::MemoryBuffer> &holder);
/// The first lexer error of `source` as "line:col: message", or "no error".
std::string lexError(llvm::StringRef source);

/// Checks that every range of `parse.module` lies in the buffer, that every
/// node's location lies in its range and every child within its parent.
void checkRanges(const Parse &parse);
/// Parses `source` and checks what must hold for any input: no crash,
/// exactly one diagnostic if and only if parsing failed, and a dump and
/// consistent ranges on success.
void checkRobust(llvm::StringRef source);

/// The vector-add kernel of the tilec documentation.
extern const char *const addKernel;
/// Seed 000 ("Triton matmul"): the pointer-arithmetic K loop in a kernel.
extern const char *const seedMatmulKernel;
/// Seed 000: the one-line block-pointer and descriptor snippets.
extern const char *const seedMatmulSnippets;
/// Seed 002 ("Block Pointers"): the block-pointer matmul and its launch.
extern const char *const seedBlockPtrMatmul;
/// Seed 002: the 1-D block pointer of homework 1.
extern const char *const seedBlockPtr1D;
/// Seed 002: softmax with a block pointer and a manual -inf mask.
extern const char *const seedSoftmax;
/// Layer-norm and attention kernels using most of the supported syntax.
extern const char *const layerNormKernel;

} // namespace test
} // namespace tilec

#endif // TILEC_TEST_UNIT_FRONTENDTESTUTILS_H
