//===- Defines.cpp - tilec's -D NAME=VALUE options ------------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "Defines.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;

std::string tilec::addDefines(const std::vector<std::string> &defines,
                              StringMap<std::string> &into) {
  for (const std::string &define : defines) {
    auto [name, value] = StringRef(define).split('=');
    name = name.trim();
    value = value.trim();
    if (name.empty() || !StringRef(define).contains('='))
      return "-D expects NAME=VALUE, not '" + define + "'";
    // The empty string, spelled as a string literal for the kernel's
    // constexpr parser (which reads an absent value as "not given").
    std::string text = value.empty() ? "''" : value.str();
    auto [it, inserted] = into.try_emplace(name, text);
    if (!inserted) {
      WithColor::warning(errs(), "tilec")
          << "-D " << name << " is given twice; the last value (" << value
          << ") is used\n";
      it->second = text;
    }
  }
  return "";
}
