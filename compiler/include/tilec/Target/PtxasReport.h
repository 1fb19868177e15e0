//===- PtxasReport.h - What ptxas -v says about a kernel --------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// `ptxas -v` prints, per function, its registers, stack frame, spill stores
// and loads and static shared memory, and besides those its notes: info lines
// such as "(C7515) Potential Performance Loss: wgmma.mma_async instructions
// are serialized ..." and warnings. parsePtxasReport turns that text into one
// record per function so that tilec can print a resource report and reject
// kernels that spill or draw a note (--ptxas-report, --Werror=ptxas).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PTXASREPORT_H
#define TILEC_TARGET_PTXASREPORT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilec {

/// What ptxas -v reported about one function.
struct PtxasFunctionReport {
  std::string name;
  /// A kernel (ptxas compiled it as an entry function), not a device
  /// function it calls.
  bool isEntry = false;
  unsigned registers = 0;
  unsigned barriers = 0;
  uint64_t stackFrameBytes = 0;
  uint64_t spillStoreBytes = 0;
  uint64_t spillLoadBytes = 0;
  /// Static shared memory (tilec's own is dynamic: the metadata line's
  /// shared=).
  uint64_t staticSharedBytes = 0;
  /// ptxas's notes and warnings about this function, verbatim.
  std::vector<std::string> notes;

  bool spills() const { return spillStoreBytes != 0 || spillLoadBytes != 0; }
};

/// What ptxas -v reported about a module.
struct PtxasReport {
  /// In the order ptxas first names them.
  std::vector<PtxasFunctionReport> functions;
  /// Notes and warnings that name no function, verbatim.
  std::vector<std::string> notes;

  /// The function named `name`, or null.
  const PtxasFunctionReport *lookup(llvm::StringRef name) const;
};

/// Parses the output of `ptxas -v`. Lines other than ptxas's routine
/// resource lines (gmem, "Compiling entry function", "Function properties",
/// the stack/spill line, "Used N registers", "Compile time") are notes; a
/// note that names a function ("... in the function 'k'") belongs to it,
/// another one to the function whose block it is in, if any.
PtxasReport parsePtxasReport(llvm::StringRef log);

/// Prints one line per kernel of `report`, with `dynamicSharedBytes` (the
/// shared memory tilec allocates at launch) next to ptxas's static shared
/// memory, then every note verbatim, indented:
///   ptxas: k: registers=127 spill_stores=0 spill_loads=0 stack=0
///     shared=16384 (static=0 dynamic=16384) barriers=1
void printPtxasReport(const PtxasReport &report, uint64_t dynamicSharedBytes,
                      llvm::raw_ostream &os);

/// What --Werror=ptxas rejects: one message per function that spills and
/// per note (empty when there is nothing to reject).
std::vector<std::string> ptxasReportProblems(const PtxasReport &report);

} // namespace tilec

#endif // TILEC_TARGET_PTXASREPORT_H
