//===- PtxasReport.cpp - What ptxas -v says about a kernel ----------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// ptxas -v output (CUDA 13) looks like
//
//   ptxas info    : 0 bytes gmem
//   ptxas info    : Compiling entry function 'k' for 'sm_90a'
//   ptxas info    : Function properties for k
//       2112 bytes stack frame, 3118 bytes spill stores, 3272 bytes spill loads
//   ptxas info    : Used 255 registers, used 1 barriers, 2112 bytes
//                   cumulative stack size                     (one line)
//   ptxas info    : Compile time = 378.606 ms
//
// with notes such as "ptxas info    : (C7515) Potential Performance Loss:
// ... in the function 'k'" among them.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PtxasReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;
using namespace tilec;

const PtxasFunctionReport *PtxasReport::lookup(StringRef name) const {
  for (const PtxasFunctionReport &function : functions)
    if (function.name == name)
      return &function;
  return nullptr;
}

/// The number written just before the first `unit` in `text` ("Used 40
/// registers" with " register" gives 40); 0 when there is none.
static uint64_t numberBefore(StringRef text, StringRef unit) {
  size_t end = text.find(unit);
  if (end == StringRef::npos)
    return 0;
  size_t begin = end;
  while (begin > 0 && isDigit(text[begin - 1]))
    --begin;
  uint64_t value = 0;
  if (text.slice(begin, end).getAsInteger(10, value))
    return 0;
  return value;
}

/// The name in "... function 'NAME' ...", or empty.
static StringRef namedFunction(StringRef line) {
  size_t begin = line.find("function '");
  if (begin == StringRef::npos)
    return {};
  StringRef rest = line.drop_front(begin + StringRef("function '").size());
  return rest.take_until([](char c) { return c == '\''; });
}

PtxasReport tilec::parsePtxasReport(StringRef log) {
  PtxasReport report;
  auto getOrCreate = [&](StringRef name) -> size_t {
    for (size_t i = 0; i < report.functions.size(); ++i)
      if (report.functions[i].name == name)
        return i;
    report.functions.push_back(PtxasFunctionReport{});
    report.functions.back().name = name.str();
    return report.functions.size() - 1;
  };
  // Index of the function whose block the lines are in (an index: the
  // vector grows).
  std::optional<size_t> current;

  SmallVector<StringRef> lines;
  log.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef rawLine : lines) {
    StringRef line = rawLine.rtrim();
    if (line.trim().empty())
      continue;
    // "ptxas info    : MESSAGE"; the stack/spill line has no prefix.
    StringRef message = line.trim();
    if (message.starts_with("ptxas")) {
      size_t colon = message.find(':');
      if (colon != StringRef::npos)
        message = message.drop_front(colon + 1).trim();
    }

    if (message.contains(" bytes gmem") || message.starts_with("Compile time"))
      continue;
    if (message.consume_front("Compiling entry function '")) {
      current =
          getOrCreate(message.take_until([](char c) { return c == '\''; }));
      report.functions[*current].isEntry = true;
      continue;
    }
    if (message.consume_front("Function properties for ")) {
      current = getOrCreate(message.trim());
      continue;
    }
    if (current && message.contains(" bytes stack frame")) {
      PtxasFunctionReport &function = report.functions[*current];
      function.stackFrameBytes = numberBefore(message, " bytes stack frame");
      function.spillStoreBytes = numberBefore(message, " bytes spill stores");
      function.spillLoadBytes = numberBefore(message, " bytes spill loads");
      continue;
    }
    if (current && message.starts_with("Used ") &&
        message.contains(" register")) {
      PtxasFunctionReport &function = report.functions[*current];
      function.registers = numberBefore(message, " register");
      function.barriers = numberBefore(message, " barrier");
      function.staticSharedBytes = numberBefore(message, " bytes smem");
      continue;
    }

    // Anything else is a note, kept verbatim.
    StringRef named = namedFunction(line);
    if (!named.empty())
      report.functions[getOrCreate(named)].notes.push_back(line.str());
    else if (current)
      report.functions[*current].notes.push_back(line.str());
    else
      report.notes.push_back(line.str());
  }
  return report;
}

void tilec::printPtxasReport(const PtxasReport &report,
                             uint64_t dynamicSharedBytes, raw_ostream &os) {
  for (const PtxasFunctionReport &function : report.functions) {
    if (!function.isEntry)
      continue;
    os << "ptxas: " << function.name << ": registers=" << function.registers
       << " spill_stores=" << function.spillStoreBytes
       << " spill_loads=" << function.spillLoadBytes
       << " stack=" << function.stackFrameBytes
       << " shared=" << function.staticSharedBytes + dynamicSharedBytes
       << " (static=" << function.staticSharedBytes
       << " dynamic=" << dynamicSharedBytes << ")"
       << " barriers=" << function.barriers << "\n";
    for (const std::string &note : function.notes)
      os << "  " << note << "\n";
  }
  // Device functions tilec calls (none today) show only when ptxas has
  // something to say about them.
  for (const PtxasFunctionReport &function : report.functions) {
    if (function.isEntry || (!function.spills() && function.notes.empty()))
      continue;
    os << "ptxas: function " << function.name
       << ": spill_stores=" << function.spillStoreBytes
       << " spill_loads=" << function.spillLoadBytes
       << " stack=" << function.stackFrameBytes << "\n";
    for (const std::string &note : function.notes)
      os << "  " << note << "\n";
  }
  for (const std::string &note : report.notes)
    os << "  " << note << "\n";
}

std::vector<std::string> tilec::ptxasReportProblems(const PtxasReport &report) {
  std::vector<std::string> problems;
  for (const PtxasFunctionReport &function : report.functions) {
    std::string what =
        (function.isEntry ? "kernel '" : "function '") + function.name + "'";
    if (function.spills())
      problems.push_back(
          what + " spills registers: " +
          std::to_string(function.spillStoreBytes) + " bytes spill stores, " +
          std::to_string(function.spillLoadBytes) + " bytes spill loads");
    for (const std::string &note : function.notes)
      problems.push_back("ptxas note on " + what + ": " +
                         StringRef(note).trim().str());
  }
  for (const std::string &note : report.notes)
    problems.push_back("ptxas note: " + StringRef(note).trim().str());
  return problems;
}
