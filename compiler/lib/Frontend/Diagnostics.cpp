//===- Diagnostics.cpp - Printing diagnostics with their source -----------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/Support/raw_ostream.h"

void tilec::printSourceDiagnostic(const llvm::SourceMgr &srcMgr,
                                  const llvm::SMDiagnostic &diag,
                                  llvm::raw_ostream &os) {
  std::string line = diag.getLineContents().str();
  for (char &c : line)
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') ||
        static_cast<unsigned char>(c) >= 0x7f)
      c = '?';
  if (line == diag.getLineContents()) {
    srcMgr.PrintMessage(os, diag);
    return;
  }
  srcMgr.PrintMessage(
      os,
      llvm::SMDiagnostic(srcMgr, diag.getLoc(), diag.getFilename(),
                         diag.getLineNo(), diag.getColumnNo(), diag.getKind(),
                         diag.getMessage(), line, diag.getRanges()));
}
