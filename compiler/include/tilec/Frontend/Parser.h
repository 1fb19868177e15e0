//===- Parser.h - Parser for .tile sources ----------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file declares the entry point of the front end: parsing a .tile buffer
// (the Triton kernel subset of Python 3) into a ModuleAST.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_PARSER_H
#define TILEC_FRONTEND_PARSER_H

#include "tilec/Frontend/AST.h"

#include <memory>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// Parses buffer `bufferId` of `srcMgr`. Every syntax error is reported through
/// srcMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, msg) (so it prints
/// `file:line:col: error: msg`, the source line and a caret, and tests can
/// capture it with srcMgr.setDiagHandler). Parsing stops at the first error.
/// Returns nullptr if there was any error (or if `bufferId` is not a buffer of
/// `srcMgr`). Never crashes and never asserts, whatever bytes the buffer holds.
std::unique_ptr<ModuleAST> parseModule(llvm::SourceMgr &srcMgr,
                                       unsigned bufferId);

} // namespace tilec

#endif // TILEC_FRONTEND_PARSER_H
