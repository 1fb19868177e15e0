//===- RewriteBlockPointers.h - Block pointers to descriptors ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// `tilec --rewrite-block-ptrs`: rewrites the tl.make_block_ptr block
// pointers of a .tile file into tl.make_tensor_descriptor tensor descriptors
// (which Triton 3.9 keeps) where that is exact, leaving the rest of the text
// as it is. The rewrite is syntactic; docs/language.md says what it handles.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_REWRITEBLOCKPOINTERS_H
#define TILEC_FRONTEND_REWRITEBLOCKPOINTERS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

class ModuleAST;

/// Returns the text of `srcMgr`'s main buffer (parsed as `module`) with every
/// block pointer that can be rewritten exactly turned into a tensor
/// descriptor. Each one left as it is gets a warning, with a note at the
/// code that prevents the rewrite, through `srcMgr`.
std::string rewriteBlockPointers(const ModuleAST &module,
                                 llvm::SourceMgr &srcMgr);

/// The source text of a tuple written as a list: `(M, K)` becomes `[M, K]`
/// and `(n,)` becomes `[n]`; any other text is returned as it is.
std::string tupleTextAsList(llvm::StringRef text);

/// The row-major `order` of a block pointer of rank `rank`: `(1, 0)`.
std::string rowMajorOrder(size_t rank);

} // namespace tilec

#endif // TILEC_FRONTEND_REWRITEBLOCKPOINTERS_H
