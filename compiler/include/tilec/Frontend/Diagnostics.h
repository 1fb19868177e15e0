//===- Diagnostics.h - Printing diagnostics with their source ---*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The one printer of tilec's located diagnostics, for the parser's and (via
// tilec/MLIRGen/DiagnosticHandler.h) MLIR's: `FILE:LINE:COL: error: ...`,
// then the source line and a caret under the column.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_DIAGNOSTICS_H
#define TILEC_FRONTEND_DIAGNOSTICS_H

#include "llvm/Support/SourceMgr.h"

namespace tilec {

/// Prints `diag` through `srcMgr` (its handler, if it has one, else `os`).
/// The source line is printed with its control characters and non-ASCII
/// bytes as '?', one per byte: a binary file writes nothing raw to the
/// terminal, and the caret stays under the column (LLVM prints no caret
/// under a line with other characters).
void printSourceDiagnostic(const llvm::SourceMgr &srcMgr,
                           const llvm::SMDiagnostic &diag,
                           llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_FRONTEND_DIAGNOSTICS_H
