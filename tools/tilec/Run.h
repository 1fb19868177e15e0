//===- Run.h - The `tilec run` subcommand -----------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_RUN_H
#define TILEC_TOOLS_TILEC_RUN_H

namespace tilec {

/// Whether the command line chose `tilec run`.
bool isRunCommand();

/// Runs `tilec run` on the parsed command line; returns the exit status.
int runMain();

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_RUN_H
