//===- DiagnosticHandler.cpp - MLIR diagnostics with their source ---------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/MLIRGen/DiagnosticHandler.h"

#include "tilec/Frontend/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;

/// The file location `loc` stands for: itself, or the one inside a name, a
/// call site (the callee) or a fusion (the first).
static std::optional<FileLineColLoc> findFileLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto name = dyn_cast<NameLoc>(loc))
    return findFileLoc(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return findFileLoc(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (std::optional<FileLineColLoc> file = findFileLoc(part))
        return file;
  return std::nullopt;
}

static llvm::SourceMgr::DiagKind toDiagKind(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return llvm::SourceMgr::DK_Error;
  case DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  case DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  }
  return llvm::SourceMgr::DK_Error;
}

tilec::SourceDiagnosticHandler::SourceDiagnosticHandler(llvm::SourceMgr &srcMgr,
                                                        MLIRContext *context,
                                                        llvm::raw_ostream &os)
    : ScopedDiagnosticHandler(context), srcMgr(srcMgr), os(os) {
  setHandler([this](Diagnostic &diag) {
    emit(diag.getLocation(), diag.str(), diag.getSeverity());
    for (Diagnostic &note : diag.getNotes())
      emit(note.getLocation(), note.str(), note.getSeverity());
    return success();
  });
}

void tilec::SourceDiagnosticHandler::emit(Location loc, llvm::StringRef message,
                                          DiagnosticSeverity severity) {
  llvm::SourceMgr::DiagKind kind = toDiagKind(severity);
  std::optional<FileLineColLoc> file = findFileLoc(loc);
  if (file) {
    for (unsigned id = 1; id <= srcMgr.getNumBuffers(); ++id) {
      if (srcMgr.getMemoryBuffer(id)->getBufferIdentifier() !=
          file->getFilename().getValue())
        continue;
      llvm::SMLoc at = srcMgr.FindLocForLineAndColumn(id, file->getLine(),
                                                      file->getColumn());
      if (!at.isValid())
        break;
      printSourceDiagnostic(srcMgr, srcMgr.GetMessage(at, kind, message), os);
      return;
    }
  }
  // A location outside the sources: its file, line and column if it has
  // them, without a source line.
  if (file)
    srcMgr.PrintMessage(
        os, llvm::SMDiagnostic(srcMgr, llvm::SMLoc(),
                               file->getFilename().getValue(), file->getLine(),
                               static_cast<int>(file->getColumn()) - 1, kind,
                               message, "", {}));
  else
    srcMgr.PrintMessage(os, llvm::SMDiagnostic("", kind, message));
}
