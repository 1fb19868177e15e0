//===- Metadata.cpp - Kernel metadata and launch arguments ----------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Parses tilec's "// tilec.kernel" PTX comment lines and Triton signatures,
// reads the parameter list of a PTX .entry to cross-check the metadata, and
// checks and packs typed launch arguments. Everything here is plain string
// and integer work with no CUDA calls, so it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Metadata.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace tilec::rt;

namespace {

struct ScalarTypeInfo {
  const char *Name;
  ScalarType Type;
  unsigned Size;
};

// clang-format off
constexpr ScalarTypeInfo ScalarTypes[] = {
    {"i1", ScalarType::I1, 1},
    {"i8", ScalarType::I8, 1},
    {"i16", ScalarType::I16, 2},
    {"i32", ScalarType::I32, 4},
    {"i64", ScalarType::I64, 8},
    {"u8", ScalarType::U8, 1},
    {"u16", ScalarType::U16, 2},
    {"u32", ScalarType::U32, 4},
    {"u64", ScalarType::U64, 8},
    {"fp8e4nv", ScalarType::FP8E4NV, 1},
    {"fp8e5", ScalarType::FP8E5, 1},
    {"fp8e4b15", ScalarType::FP8E4B15, 1},
    {"fp16", ScalarType::FP16, 2},
    {"bf16", ScalarType::BF16, 2},
    {"fp32", ScalarType::FP32, 4},
    {"fp64", ScalarType::FP64, 8},
};
// clang-format on

const ScalarTypeInfo &infoFor(ScalarType type) {
  for (const ScalarTypeInfo &info : ScalarTypes)
    if (info.Type == type)
      return info;
  return ScalarTypes[0]; // Unreachable: the table covers the enum.
}

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool isSpace(char c) { return isBlank(c) || c == '\n' || c == '\f'; }

std::string_view trimBlanks(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

/// Parses a whole decimal unsigned number.
bool parseUnsigned(std::string_view text, std::uint64_t &value) {
  if (text.empty())
    return false;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value, 10);
  return ec == std::errc() && ptr == end;
}

bool isIdentifierStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$';
}
bool isIdentifierChar(char c) {
  return isIdentifierStart(c) || (c >= '0' && c <= '9');
}
/// PTX identifiers also allow '%' and '.' after the first character.
bool isPtxIdentifierChar(char c) {
  return isIdentifierChar(c) || c == '%' || c == '.';
}

bool isIdentifier(std::string_view text) {
  if (text.empty() || !isIdentifierStart(text.front()))
    return false;
  for (char c : text)
    if (!isIdentifierChar(c))
      return false;
  return true;
}

/// Splits \p text at every \p separator (empty pieces are kept).
std::vector<std::string_view> split(std::string_view text, char separator) {
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
std::vector<std::string_view> tokenize(std::string_view text) {
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

/// Returns \p ptx with comments replaced by blanks (newlines are kept, and
/// comment markers inside string literals are ignored).
std::string stripPtxComments(std::string_view ptx) {
  std::string out(ptx);
  std::size_t i = 0;
  while (i < out.size()) {
    char c = out[i];
    if (c == '"') {
      ++i;
      while (i < out.size() && out[i] != '"' && out[i] != '\n')
        ++i;
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n')
        out[i++] = ' ';
      continue;
    }
    if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      out[i] = out[i + 1] = ' ';
      i += 2;
      while (i < out.size() &&
             !(out[i] == '*' && i + 1 < out.size() && out[i + 1] == '/')) {
        if (out[i] != '\n')
          out[i] = ' ';
        ++i;
      }
      if (i < out.size())
        out[i] = out[i + 1] = ' ';
      i += 2;
      continue;
    }
    ++i;
  }
  return out;
}

/// Byte size of a PTX parameter type token (".u64", ".f32", ...); 0 when
/// the token is not a type.
unsigned ptxTypeSize(std::string_view token) {
  static const struct {
    const char *Name;
    unsigned Size;
  } Types[] = {
      {".b8", 1},  {".u8", 1},  {".s8", 1},    {".b16", 2},    {".u16", 2},
      {".s16", 2}, {".f16", 2}, {".bf16", 2},  {".b32", 4},    {".u32", 4},
      {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4}, {".b64", 8},
      {".u64", 8}, {".s64", 8}, {".f64", 8},   {".b128", 16},
  };
  for (const auto &type : Types)
    if (token == type.Name)
      return type.Size;
  return 0;
}

/// Parses one ".param ..." declaration of an entry's parameter list.
Expected<unsigned> parsePtxParam(std::string_view decl) {
  std::vector<std::string_view> tokens = tokenize(decl);
  if (tokens.empty() || tokens.front() != ".param")
    return Status::parseError("expected '.param' in PTX parameter " +
                              quoted(trimBlanks(decl)));
  unsigned typeSize = 0;
  std::uint64_t count = 1;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    std::string_view token = tokens[i];
    if (token == ".align") {
      ++i; // Skip the alignment value.
      continue;
    }
    if (unsigned size = ptxTypeSize(token)) {
      if (typeSize == 0)
        typeSize = size;
      continue;
    }
    std::size_t open = token.find('[');
    if (open != std::string_view::npos) {
      std::size_t close = token.find(']', open);
      std::uint64_t n = 0;
      if (close == std::string_view::npos ||
          !parseUnsigned(token.substr(open + 1, close - open - 1), n))
        return Status::parseError("bad array size in PTX parameter " +
                                  quoted(trimBlanks(decl)));
      count = n;
    }
  }
  if (typeSize == 0)
    return Status::parseError("no type in PTX parameter " +
                              quoted(trimBlanks(decl)));
  return static_cast<unsigned>(typeSize * count);
}

} // namespace

//===----------------------------------------------------------------------===//
// Types and signatures
//===----------------------------------------------------------------------===//

const char *tilec::rt::scalarTypeName(ScalarType type) {
  return infoFor(type).Name;
}

unsigned tilec::rt::scalarTypeSize(ScalarType type) {
  return infoFor(type).Size;
}

Expected<ScalarType> tilec::rt::parseScalarType(std::string_view name) {
  for (const ScalarTypeInfo &info : ScalarTypes)
    if (name == info.Name)
      return info.Type;
  return Status::parseError("unknown type " + quoted(name));
}

bool ArgType::isInteger() const {
  if (IsPointer)
    return false;
  switch (Elem) {
  case ScalarType::I1:
  case ScalarType::I8:
  case ScalarType::I16:
  case ScalarType::I32:
  case ScalarType::I64:
  case ScalarType::U8:
  case ScalarType::U16:
  case ScalarType::U32:
  case ScalarType::U64:
    return true;
  default:
    return false;
  }
}

bool ArgType::isFloat() const { return !IsPointer && !isInteger(); }

std::string ArgType::str() const {
  std::string text = IsPointer ? "*" : "";
  text += scalarTypeName(Elem);
  if (Hint != 0)
    text += ":" + std::to_string(Hint);
  return text;
}

Expected<ArgType> tilec::rt::parseArgType(std::string_view text) {
  ArgType type;
  std::string_view rest = text;
  if (!rest.empty() && rest.front() == '*') {
    type.IsPointer = true;
    rest.remove_prefix(1);
  }
  std::string_view hint;
  std::size_t colon = rest.find(':');
  if (colon != std::string_view::npos) {
    hint = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
  }
  if (rest.empty())
    return Status::parseError("empty type in " + quoted(text));
  Expected<ScalarType> elem = parseScalarType(rest);
  if (!elem)
    return Status::parseError(elem.status().message() + " in " + quoted(text));
  type.Elem = *elem;

  if (colon != std::string_view::npos) {
    if (hint == "16")
      type.Hint = 16;
    else if (hint == "1")
      type.Hint = 1;
    else
      return Status::parseError("unknown hint " +
                                quoted(":" + std::string(hint)) + " in " +
                                quoted(text) + " (expected ':16' or ':1')");
    if (type.isFloat())
      return Status::parseError("hint on a floating-point parameter in " +
                                quoted(text));
    if (type.IsPointer && type.Hint == 1)
      return Status::parseError("hint ':1' on a pointer in " + quoted(text));
  }
  return type;
}

Expected<std::vector<ArgType>>
tilec::rt::parseSignature(std::string_view text) {
  std::vector<ArgType> signature;
  if (text.empty())
    return signature;
  std::vector<std::string_view> pieces = split(text, ',');
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    Expected<ArgType> type = parseArgType(pieces[i]);
    if (!type)
      return Status::parseError("signature " + quoted(text) + ", entry " +
                                std::to_string(i) + ": " +
                                type.status().message());
    signature.push_back(*type);
  }
  return signature;
}

std::string tilec::rt::signatureString(const std::vector<ArgType> &signature) {
  std::string text;
  for (std::size_t i = 0; i < signature.size(); ++i) {
    if (i != 0)
      text += ',';
    text += signature[i].str();
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Metadata lines
//===----------------------------------------------------------------------===//

static constexpr std::string_view MetadataTag = "tilec.kernel";

/// If \p line is a metadata line, returns the text after the tag.
static bool splitMetadataLine(std::string_view line, std::string_view &rest) {
  std::size_t i = 0;
  while (i < line.size() && isBlank(line[i]))
    ++i;
  if (line.substr(i, 2) != "//")
    return false;
  i += 2;
  while (i < line.size() && isBlank(line[i]))
    ++i;
  if (line.substr(i, MetadataTag.size()) != MetadataTag)
    return false;
  i += MetadataTag.size();
  if (i < line.size() && !isSpace(line[i]))
    return false; // e.g. "tilec.kernels"
  rest = line.substr(i);
  return true;
}

bool tilec::rt::isMetadataLine(std::string_view line) {
  std::string_view rest;
  return splitMetadataLine(line, rest);
}

/// Parses the value of the "requires=" key: comma-separated
/// NAME@INDEX:align16 and NAME@INDEX:bytes16/TYPE entries.
static Expected<std::vector<LaunchRequirement>>
parseRequirements(std::string_view text) {
  std::vector<LaunchRequirement> requirements;
  for (std::string_view entry : split(text, ',')) {
    auto bad = [&](const std::string &why) {
      return Status::parseError("requirement " + quoted(entry) + ": " + why);
    };
    std::size_t at = entry.find('@');
    std::size_t colon = entry.find(':');
    if (at == std::string_view::npos || colon == std::string_view::npos ||
        colon < at)
      return bad("expected NAME@INDEX:KIND");
    LaunchRequirement requirement;
    requirement.ArgName = std::string(entry.substr(0, at));
    if (!isIdentifier(requirement.ArgName))
      return bad("the argument name is not an identifier");
    std::uint64_t index = 0;
    if (!parseUnsigned(entry.substr(at + 1, colon - at - 1), index))
      return bad("the argument index is not a number");
    requirement.ArgIndex = static_cast<std::size_t>(index);
    std::string_view kind = entry.substr(colon + 1);
    if (kind == "align16") {
      requirement.ReqKind = LaunchRequirement::Kind::Align16;
    } else if (kind.substr(0, 8) == "bytes16/") {
      Expected<ScalarType> elem = parseScalarType(kind.substr(8));
      if (!elem)
        return bad(elem.status().message());
      requirement.ReqKind = LaunchRequirement::Kind::Bytes16;
      requirement.Elem = *elem;
    } else {
      return bad("unknown kind " + quoted(kind) +
                 " (expected align16 or bytes16/TYPE)");
    }
    requirements.push_back(std::move(requirement));
  }
  return requirements;
}

unsigned TensorMapSpec::elementBytes() const {
  switch (Elem) {
  case Element::F16:
  case Element::BF16:
    return 2;
  case Element::F32:
    return 4;
  case Element::U8:
    return 1;
  }
  return 1;
}

/// Parses a scalar of a tensor map: "@N" or a non-negative number.
static bool parseMapScalar(std::string_view text, TensorMapSpec::Scalar &out) {
  std::uint64_t value = 0;
  out.IsArg = !text.empty() && text.front() == '@';
  if (!parseUnsigned(out.IsArg ? text.substr(1) : text, value))
    return false;
  if (out.IsArg)
    out.Arg = static_cast<std::size_t>(value);
  else
    out.Value = static_cast<std::int64_t>(value);
  return true;
}

/// Parses the value of the "tma=" key: ';'-separated
/// PARAM:@BASE:ELEMENT:ROWS,COLS:ROW_STRIDE:BOXROWSxBOXCOLS:SWIZZLE.
static Expected<std::vector<TensorMapSpec>>
parseTensorMaps(std::string_view text) {
  std::vector<TensorMapSpec> maps;
  for (std::string_view entry : split(text, ';')) {
    auto bad = [&](const std::string &why) {
      return Status::parseError("tensor map " + quoted(entry) + ": " + why);
    };
    std::vector<std::string_view> fields = split(entry, ':');
    if (fields.size() != 7)
      return bad("expected PARAM:@BASE:ELEMENT:ROWS,COLS:ROW_STRIDE:"
                 "BOXROWSxBOXCOLS:SWIZZLE");
    TensorMapSpec map;
    std::uint64_t param = 0, swizzle = 0;
    TensorMapSpec::Scalar base;
    if (!parseUnsigned(fields[0], param) || !parseMapScalar(fields[1], base) ||
        !base.IsArg)
      return bad("expected a parameter number and @BASE");
    map.ParamIndex = static_cast<std::size_t>(param);
    map.BaseArg = base.Arg;
    if (fields[2] == "f16")
      map.Elem = TensorMapSpec::Element::F16;
    else if (fields[2] == "bf16")
      map.Elem = TensorMapSpec::Element::BF16;
    else if (fields[2] == "f32")
      map.Elem = TensorMapSpec::Element::F32;
    else if (fields[2] == "u8")
      map.Elem = TensorMapSpec::Element::U8;
    else
      return bad("unknown element type " + quoted(fields[2]));
    std::vector<std::string_view> dims = split(fields[3], ',');
    std::size_t x = fields[5].find('x');
    std::uint64_t boxRows = 0, boxCols = 0;
    if (dims.size() != 2 || !parseMapScalar(dims[0], map.Rows) ||
        !parseMapScalar(dims[1], map.Cols) ||
        !parseMapScalar(fields[4], map.RowStride) ||
        x == std::string_view::npos ||
        !parseUnsigned(fields[5].substr(0, x), boxRows) ||
        !parseUnsigned(fields[5].substr(x + 1), boxCols) ||
        !parseUnsigned(fields[6], swizzle))
      return bad("malformed extents, stride, box or swizzle");
    if (boxRows == 0 || boxRows > 256 || boxCols == 0 || boxCols > 256 ||
        (swizzle != 32 && swizzle != 64 && swizzle != 128) ||
        boxCols * map.elementBytes() != swizzle)
      return bad("the box must be at most 256 x 256 elements with rows of "
                 "the swizzle's 32, 64 or 128 bytes");
    map.BoxRows = static_cast<unsigned>(boxRows);
    map.BoxCols = static_cast<unsigned>(boxCols);
    map.Swizzle = static_cast<unsigned>(swizzle);
    maps.push_back(map);
  }
  return maps;
}

Expected<KernelMetadata> tilec::rt::parseMetadataLine(std::string_view line) {
  std::string_view rest;
  if (!splitMetadataLine(line, rest))
    return Status::parseError("not a '// tilec.kernel' line: " +
                              quoted(trimBlanks(line)));

  auto bad = [&](const std::string &why) {
    return Status::parseError("bad tilec.kernel line (" + why +
                              "): " + quoted(trimBlanks(line)));
  };

  KernelMetadata meta;
  bool seenName = false, seenWarps = false, seenShared = false,
       seenSignature = false, seenRequires = false;
  for (std::string_view token : tokenize(rest)) {
    std::size_t eq = token.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return bad("expected key=value, got " + quoted(token));
    std::string_view key = token.substr(0, eq);
    std::string_view value = token.substr(eq + 1);
    auto markSeen = [&](bool &seen) {
      bool wasSeen = seen;
      seen = true;
      return !wasSeen;
    };

    if (key == "name") {
      if (!markSeen(seenName))
        return bad("duplicate key 'name'");
      if (!isIdentifier(value))
        return bad("kernel name " + quoted(value) + " is not an identifier");
      meta.Name = std::string(value);
    } else if (key == "num_warps") {
      if (!markSeen(seenWarps))
        return bad("duplicate key 'num_warps'");
      std::uint64_t warps = 0;
      if (!parseUnsigned(value, warps) || warps == 0 || warps > 32)
        return bad("num_warps " + quoted(value) +
                   " is not a number from 1 to 32");
      meta.NumWarps = static_cast<unsigned>(warps);
    } else if (key == "shared") {
      if (!markSeen(seenShared))
        return bad("duplicate key 'shared'");
      std::uint64_t bytes = 0;
      if (!parseUnsigned(value, bytes) ||
          bytes > std::numeric_limits<std::int32_t>::max())
        return bad("shared " + quoted(value) + " is not a byte count");
      meta.SharedBytes = static_cast<unsigned>(bytes);
    } else if (key == "signature") {
      if (!markSeen(seenSignature))
        return bad("duplicate key 'signature'");
      Expected<std::vector<ArgType>> signature = parseSignature(value);
      if (!signature)
        return bad(signature.status().message());
      meta.Signature = signature.take();
    } else if (key == "requires") {
      if (!markSeen(seenRequires))
        return bad("duplicate key 'requires'");
      Expected<std::vector<LaunchRequirement>> requirements =
          parseRequirements(value);
      if (!requirements)
        return bad(requirements.status().message());
      meta.Requirements = requirements.take();
    } else if (key == "tma") {
      if (!meta.TensorMaps.empty())
        return bad("duplicate key 'tma'");
      Expected<std::vector<TensorMapSpec>> maps = parseTensorMaps(value);
      if (!maps)
        return bad(maps.status().message());
      meta.TensorMaps = maps.take();
    }
    // Other keys are ignored so that tilec can add more later.
  }

  const char *missing = !seenName        ? "name"
                        : !seenWarps     ? "num_warps"
                        : !seenShared    ? "shared"
                        : !seenSignature ? "signature"
                                         : nullptr;
  if (missing)
    return bad(std::string("missing key '") + missing + "'");
  for (std::size_t i = 0; i < meta.TensorMaps.size(); ++i) {
    const TensorMapSpec &map = meta.TensorMaps[i];
    auto integerArg = [&](const TensorMapSpec::Scalar &s) {
      return !s.IsArg || (s.Arg < meta.Signature.size() &&
                          meta.Signature[s.Arg].isInteger());
    };
    if (map.ParamIndex != meta.Signature.size() + i ||
        map.BaseArg >= meta.Signature.size() ||
        !meta.Signature[map.BaseArg].IsPointer || !integerArg(map.Rows) ||
        !integerArg(map.Cols) || !integerArg(map.RowStride))
      return bad("tensor map " + std::to_string(i) +
                 " does not follow the signature's parameters or names "
                 "arguments of the wrong kind");
  }
  for (const LaunchRequirement &requirement : meta.Requirements) {
    bool align = requirement.ReqKind == LaunchRequirement::Kind::Align16;
    if (requirement.ArgIndex >= meta.Signature.size() ||
        meta.Signature[requirement.ArgIndex].IsPointer != align ||
        (!align && !meta.Signature[requirement.ArgIndex].isInteger()))
      return bad("requirement on argument " + quoted(requirement.ArgName) +
                 " (" + std::to_string(requirement.ArgIndex) +
                 ") does not match the signature");
  }
  return meta;
}

Expected<std::vector<KernelMetadata>>
tilec::rt::parseModuleMetadata(std::string_view ptx) {
  std::vector<KernelMetadata> kernels;
  std::size_t lineNumber = 0;
  for (std::string_view line : split(ptx, '\n')) {
    ++lineNumber;
    if (!isMetadataLine(line))
      continue;
    Expected<KernelMetadata> meta = parseMetadataLine(line);
    if (!meta)
      return meta.status().withContext("line " + std::to_string(lineNumber));
    for (const KernelMetadata &other : kernels)
      if (other.Name == meta->Name)
        return Status::parseError("line " + std::to_string(lineNumber) +
                                  ": second tilec.kernel line for kernel " +
                                  quoted(meta->Name));
    kernels.push_back(meta.take());
  }
  return kernels;
}

//===----------------------------------------------------------------------===//
// PTX entry parameters
//===----------------------------------------------------------------------===//

Expected<std::vector<unsigned>>
tilec::rt::parsePtxEntryParamSizes(std::string_view ptx,
                                   std::string_view name) {
  std::string text = stripPtxComments(ptx);
  static constexpr std::string_view EntryKeyword = ".entry";
  std::size_t pos = 0;
  while ((pos = text.find(EntryKeyword, pos)) != std::string::npos) {
    std::size_t after = pos + EntryKeyword.size();
    bool startsToken = pos == 0 || isSpace(text[pos - 1]);
    pos = after;
    if (!startsToken || after >= text.size() || !isSpace(text[after]))
      continue;
    std::size_t i = after;
    while (i < text.size() && isSpace(text[i]))
      ++i;
    std::size_t nameStart = i;
    while (i < text.size() && isPtxIdentifierChar(text[i]))
      ++i;
    if (std::string_view(text).substr(nameStart, i - nameStart) != name)
      continue;
    while (i < text.size() && isSpace(text[i]))
      ++i;
    if (i >= text.size() || text[i] != '(')
      return std::vector<unsigned>(); // ".entry name" with no parameters.
    std::size_t close = text.find(')', i);
    if (close == std::string::npos)
      return Status::parseError("unterminated parameter list of PTX entry " +
                                quoted(name));
    std::string_view list =
        trimBlanks(std::string_view(text).substr(i + 1, close - i - 1));
    std::vector<unsigned> sizes;
    if (list.empty())
      return sizes;
    for (std::string_view decl : split(list, ',')) {
      Expected<unsigned> size = parsePtxParam(decl);
      if (!size)
        return size.status().withContext("PTX entry " + quoted(name));
      sizes.push_back(*size);
    }
    return sizes;
  }
  return Status::error(ErrorCode::NotFound,
                       "the PTX has no entry " + quoted(name));
}

Status
tilec::rt::checkMetadataAgainstPtx(const std::vector<KernelMetadata> &kernels,
                                   std::string_view ptx) {
  for (const KernelMetadata &meta : kernels) {
    std::string prefix = "kernel " + quoted(meta.Name);
    Expected<std::vector<unsigned>> sizes =
        parsePtxEntryParamSizes(ptx, meta.Name);
    if (!sizes)
      return sizes.status().withContext(prefix + ": tilec.kernel line");
    std::size_t expectedCount = meta.Signature.size() + meta.TensorMaps.size();
    if (sizes->size() != expectedCount)
      return Status::parseError(
          prefix + ": the tilec.kernel signature " +
          quoted(signatureString(meta.Signature)) + " has " +
          std::to_string(meta.Signature.size()) + " parameter(s)" +
          (meta.TensorMaps.empty()
               ? std::string()
               : " and " + std::to_string(meta.TensorMaps.size()) +
                     " tensor map(s)") +
          " but the PTX entry has " + std::to_string(sizes->size()));
    for (std::size_t i = meta.Signature.size(); i < sizes->size(); ++i)
      if ((*sizes)[i] != 128)
        return Status::parseError(prefix + ": parameter " + std::to_string(i) +
                                  " is a 128-byte tensor map but " +
                                  std::to_string((*sizes)[i]) +
                                  " bytes in the PTX entry");
    for (std::size_t i = 0; i < meta.Signature.size(); ++i) {
      unsigned expected = meta.Signature[i].sizeInBytes();
      if ((*sizes)[i] != expected)
        return Status::parseError(
            prefix + ": parameter " + std::to_string(i) + " is " +
            meta.Signature[i].str() + " (" + std::to_string(expected) +
            " bytes) in the tilec.kernel signature but " +
            std::to_string((*sizes)[i]) + " bytes in the PTX entry");
    }
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Launch arguments
//===----------------------------------------------------------------------===//

KernelArg::KernelArg(float value) : ArgKind(Kind::Float32), Width(32) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  Bits = bits;
}

KernelArg::KernelArg(double value) : ArgKind(Kind::Float64), Width(64) {
  std::memcpy(&Bits, &value, sizeof(Bits));
}

KernelArg KernelArg::fp16Bits(std::uint16_t bits) {
  return KernelArg(Kind::Half, bits, 16);
}

KernelArg KernelArg::bf16Bits(std::uint16_t bits) {
  return KernelArg(Kind::BFloat, bits, 16);
}

std::string KernelArg::describe() const {
  char buffer[96];
  switch (ArgKind) {
  case Kind::Pointer:
    std::snprintf(buffer, sizeof(buffer), "device pointer 0x%" PRIx64, Bits);
    break;
  case Kind::Signed:
    std::snprintf(buffer, sizeof(buffer), "int%u %" PRId64, Width,
                  static_cast<std::int64_t>(Bits));
    break;
  case Kind::Unsigned:
    std::snprintf(buffer, sizeof(buffer), "uint%u %" PRIu64, Width, Bits);
    break;
  case Kind::Float32: {
    float value;
    std::uint32_t bits = static_cast<std::uint32_t>(Bits);
    std::memcpy(&value, &bits, sizeof(value));
    std::snprintf(buffer, sizeof(buffer), "float %g", value);
    break;
  }
  case Kind::Float64: {
    double value;
    std::memcpy(&value, &Bits, sizeof(value));
    std::snprintf(buffer, sizeof(buffer), "double %g", value);
    break;
  }
  case Kind::Half:
    std::snprintf(buffer, sizeof(buffer), "fp16 bits 0x%04" PRIx64, Bits);
    break;
  case Kind::BFloat:
    std::snprintf(buffer, sizeof(buffer), "bf16 bits 0x%04" PRIx64, Bits);
    break;
  }
  return buffer;
}

void PackedArguments::push(std::uint64_t value, unsigned size) {
  if (size < 8)
    value &= (std::uint64_t(1) << (8 * size)) - 1;
  Slots.push_back(value);
  Sizes.push_back(size);
  MapIndex.push_back(-1);
}

void PackedArguments::pushTensorMap(TensorMapRequest request) {
  MapStorage.push_back(std::make_unique<TensorMapBytes>());
  request.Dest = MapStorage.back()->Bytes;
  Maps.push_back(request);
  Slots.push_back(0);
  Sizes.push_back(sizeof(TensorMapBytes));
  MapIndex.push_back(static_cast<int>(MapStorage.size() - 1));
}

void **PackedArguments::kernelParams() {
  Pointers.resize(Slots.size());
  for (std::size_t i = 0; i < Slots.size(); ++i)
    Pointers[i] = MapIndex[i] < 0 ? static_cast<void *>(&Slots[i])
                                  : MapStorage[MapIndex[i]]->Bytes;
  return Pointers.empty() ? nullptr : Pointers.data();
}

/// Returns true when the integer argument \p arg is representable in \p type.
static bool integerFits(const KernelArg &arg, ScalarType type) {
  bool isSigned = arg.kind() == KernelArg::Kind::Signed;
  std::int64_t s = static_cast<std::int64_t>(arg.bits());
  std::uint64_t u = arg.bits();
  auto inSigned = [&](std::int64_t lo, std::int64_t hi) {
    if (isSigned)
      return s >= lo && s <= hi;
    return u <= static_cast<std::uint64_t>(hi);
  };
  auto inUnsigned = [&](std::uint64_t hi) {
    if (isSigned)
      return s >= 0 && static_cast<std::uint64_t>(s) <= hi;
    return u <= hi;
  };
  switch (type) {
  case ScalarType::I1:
    return inUnsigned(1);
  case ScalarType::I8:
    return inSigned(INT8_MIN, INT8_MAX);
  case ScalarType::I16:
    return inSigned(INT16_MIN, INT16_MAX);
  case ScalarType::I32:
    return inSigned(INT32_MIN, INT32_MAX);
  case ScalarType::I64:
    return inSigned(INT64_MIN, INT64_MAX);
  case ScalarType::U8:
    return inUnsigned(UINT8_MAX);
  case ScalarType::U16:
    return inUnsigned(UINT16_MAX);
  case ScalarType::U32:
    return inUnsigned(UINT32_MAX);
  case ScalarType::U64:
    return inUnsigned(UINT64_MAX);
  default:
    return false;
  }
}

/// The error for an argument count other than the signature's.
static Status argumentCountError(const KernelMetadata &kernel,
                                 std::size_t numArgs) {
  return Status::invalidArgument("kernel " + quoted(kernel.Name) + " expects " +
                                 std::to_string(kernel.Signature.size()) +
                                 " argument(s) (signature " +
                                 quoted(signatureString(kernel.Signature)) +
                                 "), got " + std::to_string(numArgs));
}

Status tilec::rt::checkLaunchRequirements(const KernelMetadata &kernel,
                                          const KernelArg *args,
                                          std::size_t numArgs) {
  if (kernel.Requirements.empty())
    return Status::success();
  if (numArgs != kernel.Signature.size())
    return argumentCountError(kernel, numArgs);
  for (const LaunchRequirement &requirement : kernel.Requirements) {
    const KernelArg &arg = args[requirement.ArgIndex];
    auto fail = [&](const std::string &value, const std::string &why) {
      return Status::invalidArgument(
          "kernel " + quoted(kernel.Name) + ": argument " +
          quoted(requirement.ArgName) + " (" +
          std::to_string(requirement.ArgIndex) + ") = " + value + ": " + why);
    };
    if (requirement.ReqKind == LaunchRequirement::Kind::Align16) {
      if (arg.bits() % 16 != 0) {
        char address[32];
        std::snprintf(address, sizeof(address), "0x%" PRIx64, arg.bits());
        return fail(address, "tensor descriptor base pointers must be "
                             "16-byte aligned");
      }
      continue;
    }
    // Integer arguments were checked to fit a signed or unsigned type.
    std::int64_t elements = 16 / scalarTypeSize(requirement.Elem);
    bool isSigned = arg.kind() == KernelArg::Kind::Signed;
    std::int64_t value = static_cast<std::int64_t>(arg.bits());
    if (isSigned ? value % elements != 0
                 : arg.bits() % static_cast<std::uint64_t>(elements) != 0)
      return fail(isSigned ? std::to_string(value) : std::to_string(arg.bits()),
                  "tensor descriptor strides must be multiples of 16 bytes (" +
                      std::string(scalarTypeName(requirement.Elem)) + ": " +
                      std::to_string(elements) + " elements)");
  }
  return Status::success();
}

Expected<PackedArguments> tilec::rt::packArguments(const KernelMetadata &kernel,
                                                   const KernelArg *args,
                                                   std::size_t numArgs) {
  const std::vector<ArgType> &signature = kernel.Signature;
  if (numArgs != signature.size())
    return argumentCountError(kernel, numArgs);

  PackedArguments packed;
  for (std::size_t i = 0; i < numArgs; ++i) {
    const ArgType &param = signature[i];
    const KernelArg &arg = args[i];
    auto fail = [&](const std::string &why) {
      return Status::invalidArgument("kernel " + quoted(kernel.Name) +
                                     ", argument " + std::to_string(i) + " (" +
                                     param.str() + "): " + why);
    };
    KernelArg::Kind kind = arg.kind();

    if (param.IsPointer) {
      if (kind != KernelArg::Kind::Pointer)
        return fail("expected a device pointer, got " + arg.describe());
      if (param.Hint == 16 && arg.bits() % 16 != 0)
        return fail(arg.describe() +
                    " is not 16-byte aligned as the ':16' hint requires");
      packed.push(arg.bits(), 8);
      continue;
    }

    if (param.isInteger()) {
      if (kind != KernelArg::Kind::Signed && kind != KernelArg::Kind::Unsigned)
        return fail("expected an integer, got " + arg.describe());
      if (!integerFits(arg, param.Elem))
        return fail(arg.describe() + " does not fit in " +
                    scalarTypeName(param.Elem));
      if (param.Hint == 16 && arg.bits() % 16 != 0)
        return fail(arg.describe() +
                    " is not a multiple of 16 as the ':16' hint requires");
      if (param.Hint == 1 && arg.bits() != 1)
        return fail(arg.describe() + " is not 1 as the ':1' hint requires");
      packed.push(arg.bits(), param.sizeInBytes());
      continue;
    }

    float floatValue = 0.0f;
    if (kind == KernelArg::Kind::Float32) {
      std::uint32_t bits = static_cast<std::uint32_t>(arg.bits());
      std::memcpy(&floatValue, &bits, sizeof(floatValue));
    }
    switch (param.Elem) {
    case ScalarType::FP32:
      if (kind != KernelArg::Kind::Float32)
        return fail("expected a float, got " + arg.describe());
      packed.push(arg.bits(), 4);
      break;
    case ScalarType::FP64:
      if (kind == KernelArg::Kind::Float64) {
        packed.push(arg.bits(), 8);
      } else if (kind == KernelArg::Kind::Float32) {
        double widened = floatValue;
        std::uint64_t bits;
        std::memcpy(&bits, &widened, sizeof(bits));
        packed.push(bits, 8);
      } else {
        return fail("expected a double or float, got " + arg.describe());
      }
      break;
    case ScalarType::FP16:
      if (kind == KernelArg::Kind::Half)
        packed.push(arg.bits(), 2);
      else if (kind == KernelArg::Kind::Float32)
        packed.push(floatToHalfBits(floatValue), 2);
      else
        return fail("expected fp16 bits or a float, got " + arg.describe());
      break;
    case ScalarType::BF16:
      if (kind == KernelArg::Kind::BFloat)
        packed.push(arg.bits(), 2);
      else if (kind == KernelArg::Kind::Float32)
        packed.push(floatToBFloat16Bits(floatValue), 2);
      else
        return fail("expected bf16 bits or a float, got " + arg.describe());
      break;
    default:
      return fail("scalar arguments of this type are not supported");
    }
  }
  if (Status check = checkLaunchRequirements(kernel, args, numArgs);
      !check.ok())
    return check;
  for (const TensorMapSpec &map : kernel.TensorMaps) {
    auto value = [&](const TensorMapSpec::Scalar &s) -> std::int64_t {
      return s.IsArg ? static_cast<std::int64_t>(args[s.Arg].bits()) : s.Value;
    };
    PackedArguments::TensorMapRequest request;
    request.Elem = map.Elem;
    request.Base = args[map.BaseArg].bits();
    std::int64_t rows = value(map.Rows), cols = value(map.Cols),
                 stride = value(map.RowStride);
    if (rows <= 0 || cols <= 0 || stride < cols)
      return Status::invalidArgument(
          "kernel " + quoted(kernel.Name) +
          ": a tensor descriptor needs positive extents and a row stride "
          "of at least its row length, not shape (" +
          std::to_string(rows) + ", " + std::to_string(cols) +
          ") and row stride " + std::to_string(stride));
    request.Rows = static_cast<std::uint64_t>(rows);
    request.Cols = static_cast<std::uint64_t>(cols);
    request.RowStrideBytes =
        static_cast<std::uint64_t>(stride) * map.elementBytes();
    request.BoxRows = map.BoxRows;
    request.BoxCols = map.BoxCols;
    request.Swizzle = map.Swizzle;
    packed.pushTensorMap(request);
  }
  return packed;
}

std::uint16_t tilec::rt::floatToHalfBits(float value) {
  std::uint32_t x;
  std::memcpy(&x, &value, sizeof(x));
  std::uint32_t sign = (x >> 16) & 0x8000u;
  std::uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // Inf or NaN (NaNs become the quiet NaN).
    return static_cast<std::uint16_t>(sign | 0x7c00u |
                                      (absx > 0x7f800000u ? 0x200u : 0u));
  int exponent = static_cast<int>(absx >> 23) - 127;
  std::uint32_t mantissa = absx & 0x7fffffu;
  if (exponent > 15)
    return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (exponent >= -14) {
    std::uint32_t half =
        (static_cast<std::uint32_t>(exponent + 15) << 10) | (mantissa >> 13);
    std::uint32_t rest = mantissa & 0x1fffu;
    // Round to nearest even; a carry correctly rolls into the exponent (and
    // up to infinity).
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
      ++half;
    return static_cast<std::uint16_t>(sign | half);
  }
  if (exponent < -25)
    return static_cast<std::uint16_t>(sign);
  // Subnormal half: value / 2^-24 = (1.mantissa) * 2^(exponent + 1).
  mantissa |= 0x800000u;
  unsigned shift = static_cast<unsigned>(-exponent - 1); // 14 .. 24
  std::uint32_t half = mantissa >> shift;
  std::uint32_t rest = mantissa & ((1u << shift) - 1);
  std::uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1u)))
    ++half;
  return static_cast<std::uint16_t>(sign | half);
}

std::uint16_t tilec::rt::floatToBFloat16Bits(float value) {
  std::uint32_t x;
  std::memcpy(&x, &value, sizeof(x));
  if ((x & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a (quiet) NaN.
    return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  std::uint32_t roundingBias = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<std::uint16_t>((x + roundingBias) >> 16);
}
