//===- Text.h - Small text helpers of the ABI and runtime parsers -*- C++
//-*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The character classes, splitting and number parsing that the metadata
// parser (KernelABI.cpp) and the PTX entry parser (Metadata.cpp) share.
// Internal to the runtime's sources.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_ABI_TEXT_H
#define TILEC_RUNTIME_LIB_ABI_TEXT_H

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {
namespace text {

inline bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
inline bool isSpace(char c) { return isBlank(c) || c == '\n' || c == '\f'; }

inline std::string_view trimBlanks(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

inline std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

/// Parses a whole decimal unsigned number.
inline bool parseUnsigned(std::string_view text, std::uint64_t &value) {
  if (text.empty())
    return false;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  return ec == std::errc() && ptr == end;
}

inline bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$';
}
inline bool isIdentifierChar(char c) {
  return isIdentifierStart(c) || (c >= '0' && c <= '9');
}

inline bool isIdentifier(std::string_view text) {
  if (text.empty() || !isIdentifierStart(text.front()))
    return false;
  for (char c : text)
    if (!isIdentifierChar(c))
      return false;
  return true;
}

/// Splits \p text at every \p separator (empty pieces are kept).
inline std::vector<std::string_view> split(std::string_view text,
                                           char separator) {
  std::vector<std::string_view> pieces;
  std::size_t start = 0;
  while (true) {
    std::size_t pos = text.find(separator, start);
    if (pos == std::string_view::npos) {
      pieces.push_back(text.substr(start));
      return pieces;
    }
    pieces.push_back(text.substr(start, pos - start));
    start = pos + 1;
  }
}

/// Splits \p text into whitespace-separated tokens.
inline std::vector<std::string_view> tokenize(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isSpace(text[i]))
      ++i;
    std::size_t start = i;
    while (i < text.size() && !isSpace(text[i]))
      ++i;
    if (i > start)
      tokens.push_back(text.substr(start, i - start));
  }
  return tokens;
}

} // namespace text
} // namespace tilec

#endif // TILEC_RUNTIME_LIB_ABI_TEXT_H
