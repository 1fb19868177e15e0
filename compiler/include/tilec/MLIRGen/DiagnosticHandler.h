//===- DiagnosticHandler.h - MLIR diagnostics with their source -*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Prints the MLIR diagnostics of a compilation (code generation, passes,
// lowering) as the parser prints its own: through the source manager that
// holds the kernel's source, with its line and a caret
// (tilec/Frontend/Diagnostics.h), and the notes attached to each.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_MLIRGEN_DIAGNOSTICHANDLER_H
#define TILEC_MLIRGEN_DIAGNOSTICHANDLER_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/SourceMgr.h"

namespace tilec {

class SourceDiagnosticHandler : public mlir::ScopedDiagnosticHandler {
public:
  SourceDiagnosticHandler(llvm::SourceMgr &srcMgr, mlir::MLIRContext *context,
                          llvm::raw_ostream &os);

private:
  /// Prints one diagnostic (not its notes).
  void emit(mlir::Location loc, llvm::StringRef message,
            mlir::DiagnosticSeverity severity);

  llvm::SourceMgr &srcMgr;
  llvm::raw_ostream &os;
};

} // namespace tilec

#endif // TILEC_MLIRGEN_DIAGNOSTICHANDLER_H
