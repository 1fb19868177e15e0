//===- Defines.h - tilec's -D NAME=VALUE options ----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_DEFINES_H
#define TILEC_TOOLS_TILEC_DEFINES_H

#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

namespace tilec {

/// Adds each `-D NAME=VALUE` of `defines` to `into` (both sides trimmed; an
/// empty VALUE is the empty string, as `ACTIVATION=""` in Python; the last
/// of two values for one name wins, with a warning). Returns the message of
/// the first malformed one, or an empty string.
std::string addDefines(const std::vector<std::string> &defines,
                       llvm::StringMap<std::string> &into);

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_DEFINES_H
