//===- KernelABI.cpp - The launch contract of a tilec kernel --------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The dtype table, the signature grammar, and the printer and parser of the
// "// tilec.kernel" metadata line. Plain string and integer work, shared by
// the compiler (which prints) and the runtime (which parses).
//
//===----------------------------------------------------------------------===//

#include "tilec/ABI/KernelABI.h"

#include "Text.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <limits>
#include <tuple>

using namespace tilec::abi;
using namespace tilec::text;

//===----------------------------------------------------------------------===//
// Dtypes
//===----------------------------------------------------------------------===//

namespace {

enum class TypeClass { SignedInt, UnsignedInt, Float };

/// One row of the dtype table.
struct DType {
  ScalarType Type;
  /// The enumerator's name, for generated C++ ("FP32").
  const char *Enumerator;
  /// The canonical Triton name (signatures, metadata lines).
  const char *Name;
  /// The triton.language name (tl.float32).
  const char *LanguageName;
  /// Other names Triton accepts in signatures (nullptr: none).
  const char *Alias;
  unsigned Size;
  TypeClass Class;
};

// clang-format off
constexpr DType DTypes[] = {
    {ScalarType::I1,       "I1",       "i1",       "int1",        "u1",    1, TypeClass::SignedInt},
    {ScalarType::I8,       "I8",       "i8",       "int8",        nullptr, 1, TypeClass::SignedInt},
    {ScalarType::I16,      "I16",      "i16",      "int16",       nullptr, 2, TypeClass::SignedInt},
    {ScalarType::I32,      "I32",      "i32",      "int32",       nullptr, 4, TypeClass::SignedInt},
    {ScalarType::I64,      "I64",      "i64",      "int64",       nullptr, 8, TypeClass::SignedInt},
    {ScalarType::U8,       "U8",       "u8",       "uint8",       nullptr, 1, TypeClass::UnsignedInt},
    {ScalarType::U16,      "U16",      "u16",      "uint16",      nullptr, 2, TypeClass::UnsignedInt},
    {ScalarType::U32,      "U32",      "u32",      "uint32",      nullptr, 4, TypeClass::UnsignedInt},
    {ScalarType::U64,      "U64",      "u64",      "uint64",      nullptr, 8, TypeClass::UnsignedInt},
    {ScalarType::FP8E4NV,  "FP8E4NV",  "fp8e4nv",  "float8e4nv",  nullptr, 1, TypeClass::Float},
    {ScalarType::FP8E5,    "FP8E5",    "fp8e5",    "float8e5",    nullptr, 1, TypeClass::Float},
    {ScalarType::FP8E4B15, "FP8E4B15", "fp8e4b15", "float8e4b15", nullptr, 1, TypeClass::Float},
    {ScalarType::FP16,     "FP16",     "fp16",     "float16",     "f16",   2, TypeClass::Float},
    {ScalarType::BF16,     "BF16",     "bf16",     "bfloat16",    nullptr, 2, TypeClass::Float},
    {ScalarType::FP32,     "FP32",     "fp32",     "float32",     "f32",   4, TypeClass::Float},
    {ScalarType::FP64,     "FP64",     "fp64",     "float64",     "f64",   8, TypeClass::Float},
};
// clang-format on

constexpr bool dtypesInEnumOrder() {
  for (std::size_t i = 0; i < std::size(DTypes); ++i)
    if (DTypes[i].Type != static_cast<ScalarType>(i))
      return false;
  return std::size(DTypes) == std::size_t(ScalarType::FP64) + 1;
}
static_assert(dtypesInEnumOrder(), "DTypes must list ScalarType in order");

const DType &dtype(ScalarType type) {
  return DTypes[static_cast<std::size_t>(type)];
}

} // namespace

const char *tilec::abi::scalarTypeName(ScalarType type) {
  return dtype(type).Name;
}

const char *tilec::abi::scalarTypeEnumerator(ScalarType type) {
  return dtype(type).Enumerator;
}

const char *tilec::abi::scalarTypeLanguageName(ScalarType type) {
  return dtype(type).LanguageName;
}

unsigned tilec::abi::scalarTypeSize(ScalarType type) {
  return dtype(type).Size;
}

bool tilec::abi::isIntegerType(ScalarType type) {
  return dtype(type).Class != TypeClass::Float;
}

bool tilec::abi::isUnsignedType(ScalarType type) {
  return dtype(type).Class == TypeClass::UnsignedInt;
}

bool tilec::abi::isFloatType(ScalarType type) {
  return dtype(type).Class == TypeClass::Float;
}

std::optional<ScalarType> tilec::abi::lookupScalarType(std::string_view name) {
  for (const DType &row : DTypes)
    if (name == row.Name || name == row.LanguageName ||
        (row.Alias && name == row.Alias))
      return row.Type;
  return std::nullopt;
}

Expected<ScalarType> tilec::abi::parseScalarType(std::string_view name) {
  if (std::optional<ScalarType> type = lookupScalarType(name))
    return *type;
  return Status::parseError("unknown type " + quoted(name));
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

std::string ArgType::str() const {
  std::string text =
      fmt::format("{}{}", IsPointer ? "*" : "", scalarTypeName(Elem));
  if (Hint != 0)
    text += fmt::format(":{}", Hint);
  return text;
}

Expected<ArgType> tilec::abi::parseArgType(std::string_view text) {
  auto bad = [&](const std::string &why) {
    return Status::parseError("invalid signature entry " + quoted(text) + ": " +
                              why);
  };
  ArgType type;
  std::string_view rest = text;
  if (!rest.empty() && rest.front() == '*') {
    type.IsPointer = true;
    rest.remove_prefix(1);
  }
  std::string_view hint;
  std::size_t colon = rest.find(':');
  if (colon != std::string_view::npos) {
    hint = trimBlanks(rest.substr(colon + 1));
    rest = trimBlanks(rest.substr(0, colon));
  }
  if (rest.empty())
    return bad("empty type");
  std::optional<ScalarType> elem = lookupScalarType(rest);
  if (!elem)
    return bad("unknown type " + quoted(rest));
  type.Elem = *elem;
  if (colon == std::string_view::npos)
    return type;
  if (hint == "16")
    type.Hint = 16;
  else if (hint == "8")
    type.Hint = 8;
  else if (hint == "1")
    type.Hint = 1;
  else
    return bad("unknown hint " + quoted(":" + std::string(hint)) +
               " (expected ':16', ':8' or ':1')");
  if (type.isFloat())
    return bad("a hint on a floating-point parameter");
  if (type.IsPointer && type.Hint == 1)
    return bad("the hint ':1' on a pointer");
  return type;
}

/// Splits a signature at the commas outside brackets.
static std::vector<std::string_view> splitEntries(std::string_view text) {
  std::vector<std::string_view> entries;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' || c == '<' || c == '(')
      ++depth;
    else if ((c == ']' || c == '>' || c == ')') && depth > 0)
      --depth;
    else if (c == ',' && depth == 0) {
      entries.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  entries.push_back(text.substr(start));
  return entries;
}

/// Whether \p entry is a constexpr literal: a number, True/False, or None
/// (Triton's AOT signature of a None-valued constexpr).
static bool isConstantLiteral(std::string_view entry) {
  return (entry.front() >= '0' && entry.front() <= '9') ||
         entry.front() == '-' || entry == "True" || entry == "False" ||
         entry == "None";
}

std::string SignatureEntry::str() const {
  if (IsConstant)
    return Literal;
  if (IsTuple) {
    std::string text = "(";
    for (const SignatureEntry &element : Elements)
      text += (text.size() > 1 ? ", " : "") + element.str();
    return text + (Elements.size() == 1 ? ",)" : ")");
  }
  if (!isTensorDesc())
    return Type.str();
  return fmt::format("tensordesc<{}[{}]>", scalarTypeName(Type.Elem),
                     fmt::join(DescriptorBlock, ", "));
}

std::vector<ArgType> tilec::abi::descriptorArgTypes(ScalarType elem,
                                                    std::size_t rank) {
  std::vector<ArgType> types;
  ArgType base;
  base.IsPointer = true;
  base.Elem = elem;
  types.push_back(base);
  ArgType extent, stride;
  extent.Elem = ScalarType::I32;
  stride.Elem = ScalarType::I64;
  types.insert(types.end(), rank, extent);
  types.insert(types.end(), rank - 1, stride);
  return types;
}

/// Parses "tensordesc<T[B0, B1, ...]>" (without its blanks trimmed).
static Expected<SignatureEntry> parseTensorDesc(std::string_view entry) {
  auto invalid = [&](const std::string &why) {
    return Status::parseError("invalid signature entry " + quoted(entry) +
                              ": " + why);
  };
  std::string_view inner = trimBlanks(entry.substr(11, entry.size() - 12));
  std::size_t open = inner.find('[');
  if (open == std::string_view::npos || inner.back() != ']')
    return invalid("expected tensordesc<TYPE[BLOCK, ...]>");
  std::string_view dtype = trimBlanks(inner.substr(0, open));
  std::optional<ScalarType> elem = lookupScalarType(dtype);
  if (!elem)
    return invalid("unknown type " + quoted(dtype));
  SignatureEntry parsed;
  parsed.Type.IsPointer = true;
  parsed.Type.Elem = *elem;
  std::string_view dims = inner.substr(open + 1, inner.size() - open - 2);
  while (true) {
    std::size_t comma = dims.find(',');
    std::string_view dim = trimBlanks(dims.substr(0, comma));
    std::int64_t value = 0;
    auto [end, ec] =
        std::from_chars(dim.data(), dim.data() + dim.size(), value);
    if (dim.empty() || ec != std::errc() || end != dim.data() + dim.size() ||
        value <= 0)
      return invalid("the block dimension " + quoted(dim) +
                     " is not a positive integer");
    parsed.DescriptorBlock.push_back(value);
    if (comma == std::string_view::npos)
      break;
    dims.remove_prefix(comma + 1);
  }
  if (parsed.DescriptorBlock.size() > 5)
    return invalid("a tensor descriptor has 1 to 5 dimensions");
  return parsed;
}

std::vector<ArgType> tilec::abi::flatTypes(const SignatureEntry &entry) {
  if (entry.isTensorDesc())
    return descriptorArgTypes(entry.Type.Elem, entry.DescriptorBlock.size());
  if (!entry.IsTuple)
    return {entry.Type};
  std::vector<ArgType> types;
  for (const SignatureEntry &element : entry.Elements) {
    std::vector<ArgType> inner = flatTypes(element);
    types.insert(types.end(), inner.begin(), inner.end());
  }
  return types;
}

/// Parses "(ENTRY, ...)": run-time types and tuples of them, a trailing
/// comma allowed ("(i32,)"), "()" the empty tuple.
static Expected<SignatureEntry> parseTuple(std::string_view entry) {
  SignatureEntry tuple;
  tuple.IsTuple = true;
  std::string_view inner = trimBlanks(entry.substr(1, entry.size() - 2));
  if (inner.empty())
    return tuple;
  if (inner.back() == ',')
    inner = trimBlanks(inner.substr(0, inner.size() - 1));
  if (inner.empty())
    return Status::parseError("invalid signature entry " + quoted(entry) +
                              ": a comma without an element");
  Expected<std::vector<SignatureEntry>> elements = parseSignatureEntries(inner);
  if (!elements)
    return elements.status();
  for (const SignatureEntry &element : *elements)
    if (element.IsConstant || element.isTensorDesc())
      return Status::parseError(
          "invalid signature entry " + quoted(entry) + ": " +
          quoted(element.str()) +
          " in a tuple (a tuple's elements are run-time types or tuples)");
  tuple.Elements = elements.take();
  return tuple;
}

Expected<std::vector<SignatureEntry>>
tilec::abi::parseSignatureEntries(std::string_view text) {
  std::vector<SignatureEntry> entries;
  if (trimBlanks(text).empty())
    return entries;
  for (std::string_view piece : splitEntries(text)) {
    std::string_view entry = trimBlanks(piece);
    if (entry.empty())
      return Status::parseError("invalid signature entry " + quoted(piece) +
                                ": empty entry");
    SignatureEntry parsed;
    if (entry.front() == '(' && entry.back() == ')') {
      Expected<SignatureEntry> tuple = parseTuple(entry);
      if (!tuple)
        return tuple.status();
      parsed = tuple.take();
    } else if (entry.size() > 12 && entry.substr(0, 11) == "tensordesc<" &&
               entry.back() == '>') {
      Expected<SignatureEntry> desc = parseTensorDesc(entry);
      if (!desc)
        return desc.status();
      parsed = *desc;
    } else if (isConstantLiteral(entry)) {
      parsed.IsConstant = true;
      parsed.Literal = std::string(entry);
    } else {
      Expected<ArgType> type = parseArgType(entry);
      if (!type)
        return type.status();
      parsed.Type = *type;
    }
    entries.push_back(std::move(parsed));
  }
  return entries;
}

Expected<std::vector<ArgType>>
tilec::abi::parseSignature(std::string_view text) {
  Expected<std::vector<SignatureEntry>> entries = parseSignatureEntries(text);
  if (!entries)
    return entries.status();
  std::vector<ArgType> signature;
  for (const SignatureEntry &entry : *entries) {
    if (entry.IsConstant)
      return Status::parseError("entry " + std::to_string(signature.size()) +
                                " of " + quoted(text) + " is the constant " +
                                quoted(entry.Literal) +
                                ", not a run-time parameter");
    if (entry.isTensorDesc() || entry.IsTuple)
      return Status::parseError(
          "entry " + std::to_string(signature.size()) + " of " + quoted(text) +
          " is the " + (entry.IsTuple ? "tuple " : "tensor descriptor ") +
          quoted(entry.str()) + ", which launches as several arguments");
    signature.push_back(entry.Type);
  }
  return signature;
}

std::string tilec::abi::signatureString(const std::vector<ArgType> &signature) {
  std::vector<std::string> entries;
  for (const ArgType &type : signature)
    entries.push_back(type.str());
  return fmt::format("{}", fmt::join(entries, ","));
}

//===----------------------------------------------------------------------===//
// Launch requirements
//===----------------------------------------------------------------------===//

std::string LaunchRequirement::str() const {
  if (ReqKind == Kind::Align16)
    return fmt::format("{}@{}:align16", ArgName, ArgIndex);
  return fmt::format("{}@{}:bytes16/{}", ArgName, ArgIndex,
                     scalarTypeName(Elem));
}

bool LaunchRequirement::operator<(const LaunchRequirement &other) const {
  return std::tie(ArgIndex, ReqKind, Elem) <
         std::tie(other.ArgIndex, other.ReqKind, other.Elem);
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

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

namespace {

struct TensorMapElementInfo {
  TensorMapSpec::Element Elem;
  const char *Name;
  unsigned Bytes;
};

constexpr TensorMapElementInfo TensorMapElements[] = {
    {TensorMapSpec::Element::F16, "f16", 2},
    {TensorMapSpec::Element::BF16, "bf16", 2},
    {TensorMapSpec::Element::F32, "f32", 4},
    {TensorMapSpec::Element::U8, "u8", 1},
};

constexpr bool elementsInEnumOrder() {
  for (std::size_t i = 0; i < std::size(TensorMapElements); ++i)
    if (TensorMapElements[i].Elem != static_cast<TensorMapSpec::Element>(i))
      return false;
  return true;
}
static_assert(elementsInEnumOrder(),
              "TensorMapElements must list TensorMapSpec::Element in order");

const TensorMapElementInfo &elementInfo(TensorMapSpec::Element elem) {
  return TensorMapElements[static_cast<std::size_t>(elem)];
}

} // namespace

unsigned TensorMapSpec::tensorMapElementBytes(Element elem) {
  return elementInfo(elem).Bytes;
}

const char *tilec::abi::tensorMapElementName(TensorMapSpec::Element elem) {
  return elementInfo(elem).Name;
}

std::optional<TensorMapSpec::Element>
tilec::abi::tensorMapElementFor(ScalarType type) {
  switch (type) {
  case ScalarType::FP16:
    return TensorMapSpec::Element::F16;
  case ScalarType::BF16:
    return TensorMapSpec::Element::BF16;
  case ScalarType::FP32:
    return TensorMapSpec::Element::F32;
  case ScalarType::I8:
  case ScalarType::U8:
  case ScalarType::FP8E4NV:
  case ScalarType::FP8E5:
    return TensorMapSpec::Element::U8;
  default:
    return std::nullopt;
  }
}

Status tilec::abi::checkTensorMapBox(unsigned boxRows, unsigned boxCols,
                                     unsigned swizzle, unsigned elementBytes) {
  if (boxRows == 0 || boxRows > 256 || boxCols == 0 || boxCols > 256 ||
      (swizzle != 32 && swizzle != 64 && swizzle != 128) ||
      boxCols * elementBytes != swizzle)
    return Status::parseError(
        "the box must be at most 256 x 256 elements with rows of the "
        "swizzle's 32, 64 or 128 bytes");
  return Status::success();
}

static std::string scalarString(const TensorMapSpec::Scalar &scalar) {
  if (!scalar.IsArg)
    return fmt::format("{}", scalar.Value);
  return scalar.Factor == 1 ? fmt::format("@{}", scalar.Arg)
                            : fmt::format("@{}*{}", scalar.Arg, scalar.Factor);
}

std::string TensorMapSpec::str() const {
  std::string extents, strides;
  for (const OuterDim &dim : Outer) {
    extents += scalarString(dim.Extent) + ",";
    strides += scalarString(dim.Stride) + ",";
  }
  return fmt::format("{}:@{}:{}:{}{},{}:{}{}:{}x{}:{}", ParamIndex, BaseArg,
                     tensorMapElementName(Elem), extents, scalarString(Rows),
                     scalarString(Cols), strides, scalarString(RowStride),
                     BoxRows, BoxCols, Swizzle);
}

bool TensorMapSpec::operator==(const TensorMapSpec &other) const {
  return ParamIndex == other.ParamIndex && BaseArg == other.BaseArg &&
         Elem == other.Elem && Rows == other.Rows && Cols == other.Cols &&
         RowStride == other.RowStride && Outer == other.Outer &&
         BoxRows == other.BoxRows && BoxCols == other.BoxCols &&
         Swizzle == other.Swizzle;
}

/// Parses a scalar of a tensor map: "@N", "@N*F" (F positive) or a
/// non-negative number.
static bool parseMapScalar(std::string_view text, TensorMapSpec::Scalar &out) {
  std::uint64_t value = 0;
  out = TensorMapSpec::Scalar();
  out.IsArg = !text.empty() && text.front() == '@';
  if (out.IsArg) {
    text.remove_prefix(1);
    std::size_t star = text.find('*');
    if (star != std::string_view::npos) {
      std::uint64_t factor = 0;
      if (!parseUnsigned(text.substr(star + 1), factor) || factor == 0 ||
          factor > std::uint64_t(std::numeric_limits<std::int32_t>::max()))
        return false;
      out.Factor = static_cast<std::int64_t>(factor);
      text = text.substr(0, star);
    }
  }
  if (!parseUnsigned(text, value))
    return false;
  if (out.IsArg)
    out.Arg = static_cast<std::size_t>(value);
  else if (value > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
    return false;
  else
    out.Value = static_cast<std::int64_t>(value);
  return true;
}

/// Parses the value of the "tma=" key: ';'-separated TensorMapSpec::str().
static Expected<std::vector<TensorMapSpec>>
parseTensorMaps(std::string_view text) {
  std::vector<TensorMapSpec> maps;
  for (std::string_view entry : split(text, ';')) {
    auto bad = [&](const std::string &why) {
      return Status::parseError("tensor map " + quoted(entry) + ": " + why);
    };
    std::vector<std::string_view> fields = split(entry, ':');
    if (fields.size() != 7)
      return bad("expected PARAM:@BASE:ELEMENT:[OUTER,...,]ROWS,COLS:"
                 "[OUTER_STRIDE,...,]ROW_STRIDE:BOXROWSxBOXCOLS:SWIZZLE");
    TensorMapSpec map;
    std::uint64_t param = 0, swizzle = 0;
    TensorMapSpec::Scalar base;
    if (!parseUnsigned(fields[0], param) || !parseMapScalar(fields[1], base) ||
        !base.IsArg)
      return bad("expected a parameter number and @BASE");
    map.ParamIndex = static_cast<std::size_t>(param);
    map.BaseArg = base.Arg;
    const TensorMapElementInfo *elem = nullptr;
    for (const TensorMapElementInfo &info : TensorMapElements)
      if (fields[2] == info.Name)
        elem = &info;
    if (!elem)
      return bad("unknown element type " + quoted(fields[2]));
    map.Elem = elem->Elem;
    // Outermost first: the outer dimensions, then rows and columns (one
    // stride fewer: the columns' is 1).
    std::vector<std::string_view> dims = split(fields[3], ',');
    std::vector<std::string_view> strides = split(fields[4], ',');
    std::size_t x = fields[5].find('x');
    std::uint64_t boxRows = 0, boxCols = 0;
    bool good = dims.size() >= 2 && dims.size() <= TensorMapSpec::MaxRank &&
                strides.size() + 1 == dims.size();
    if (good) {
      std::size_t outer = dims.size() - 2;
      map.Outer.resize(outer);
      for (std::size_t d = 0; d < outer; ++d)
        good &= parseMapScalar(dims[d], map.Outer[d].Extent) &&
                parseMapScalar(strides[d], map.Outer[d].Stride);
      good &= parseMapScalar(dims[outer], map.Rows) &&
              parseMapScalar(dims[outer + 1], map.Cols) &&
              parseMapScalar(strides[outer], map.RowStride);
    }
    if (!good || x == std::string_view::npos ||
        !parseUnsigned(fields[5].substr(0, x), boxRows) ||
        !parseUnsigned(fields[5].substr(x + 1), boxCols) ||
        !parseUnsigned(fields[6], swizzle) || boxRows > 256 || boxCols > 256 ||
        swizzle > 128)
      return bad("malformed extents, strides, box or swizzle");
    map.BoxRows = static_cast<unsigned>(boxRows);
    map.BoxCols = static_cast<unsigned>(boxCols);
    map.Swizzle = static_cast<unsigned>(swizzle);
    Status box = checkTensorMapBox(map.BoxRows, map.BoxCols, map.Swizzle,
                                   map.elementBytes());
    if (!box.ok())
      return bad(box.message());
    maps.push_back(map);
  }
  return maps;
}

static constexpr std::string_view PreHookSuffix = "@pre_hook";

std::uint64_t RereadFootprint::bytesFor(std::int64_t argValue) const {
  if (!ArgIndex)
    return Bytes;
  if (argValue <= 0)
    return 0;
  std::uint64_t steps =
      (static_cast<std::uint64_t>(argValue) + Step - 1) / Step;
  return steps > std::numeric_limits<std::uint64_t>::max() / Bytes
             ? std::numeric_limits<std::uint64_t>::max()
             : steps * Bytes;
}

std::string RereadFootprint::str() const {
  if (!ArgIndex)
    return std::to_string(Bytes);
  return fmt::format("{}:{}:{}", *ArgIndex, Bytes, Step);
}

/// The inverse of RereadFootprint::str().
static Expected<RereadFootprint> parseRereadFootprint(std::string_view text) {
  std::vector<std::string_view> fields = split(text, ':');
  RereadFootprint footprint;
  std::uint64_t index = 0;
  bool ok = fields.size() == 1
                ? parseUnsigned(fields[0], footprint.Bytes)
                : fields.size() == 3 && parseUnsigned(fields[0], index) &&
                      parseUnsigned(fields[1], footprint.Bytes) &&
                      parseUnsigned(fields[2], footprint.Step);
  if (!ok || footprint.Bytes == 0 || footprint.Step == 0)
    return Status::parseError("reread " + quoted(text) +
                              " is not BYTES or ARG:BYTES:STEP (positive "
                              "bytes and step)");
  if (fields.size() == 3)
    footprint.ArgIndex = static_cast<std::size_t>(index);
  return footprint;
}

std::string DescriptorParam::str() const {
  return fmt::format("{}:{}{}", ArgIndex, fmt::join(Block, "x"),
                     FromPreHook ? PreHookSuffix : "");
}

/// Parses the value of the "descriptors=" key: ';'-separated
/// DescriptorParam::str().
static Expected<std::vector<DescriptorParam>>
parseDescriptorParams(std::string_view text) {
  std::vector<DescriptorParam> params;
  for (std::string_view entry : split(text, ';')) {
    std::size_t colon = entry.find(':');
    std::uint64_t index = 0;
    DescriptorParam param;
    std::string_view whole = entry;
    if (entry.size() > PreHookSuffix.size() &&
        entry.substr(entry.size() - PreHookSuffix.size()) == PreHookSuffix) {
      param.FromPreHook = true;
      entry.remove_suffix(PreHookSuffix.size());
    }
    bool ok = colon != std::string_view::npos &&
              parseUnsigned(entry.substr(0, colon), index);
    if (ok)
      for (std::string_view dim : split(entry.substr(colon + 1), 'x')) {
        std::uint64_t value = 0;
        ok &= parseUnsigned(dim, value) && value > 0 &&
              value <= std::uint64_t(std::numeric_limits<std::int32_t>::max());
        param.Block.push_back(static_cast<std::int64_t>(value));
      }
    if (!ok || param.Block.empty() || param.Block.size() > 5)
      return Status::parseError("tensor descriptor " + quoted(whole) +
                                ": expected INDEX:B0xB1... (1 to 5 positive "
                                "block dimensions), then @pre_hook if a "
                                "pre_hook set the block");
    param.ArgIndex = static_cast<std::size_t>(index);
    params.push_back(std::move(param));
  }
  return params;
}

//===----------------------------------------------------------------------===//
// Metadata lines
//===----------------------------------------------------------------------===//

static constexpr std::string_view MetadataTag = "tilec.kernel";

Status KernelMetadata::verify() const {
  if (!isIdentifier(Name))
    return Status::parseError("kernel name " + quoted(Name) +
                              " is not an identifier");
  if (NumWarps < 1 || NumWarps > 32)
    return Status::parseError("num_warps " + std::to_string(NumWarps) +
                              " is not a number from 1 to 32");
  if (Reread && Reread->ArgIndex &&
      (*Reread->ArgIndex >= Signature.size() ||
       !Signature[*Reread->ArgIndex].isInteger()))
    return Status::parseError("reread footprint of argument " +
                              std::to_string(*Reread->ArgIndex) +
                              ", which is not an integer of the signature");
  for (std::size_t i = 0; i < TensorMaps.size(); ++i) {
    const TensorMapSpec &map = TensorMaps[i];
    auto integerArg = [&](const TensorMapSpec::Scalar &s) {
      return !s.IsArg ||
             (s.Arg < Signature.size() && Signature[s.Arg].isInteger());
    };
    bool integers = integerArg(map.Rows) && integerArg(map.Cols) &&
                    integerArg(map.RowStride);
    for (const TensorMapSpec::OuterDim &dim : map.Outer)
      integers &= integerArg(dim.Extent) && integerArg(dim.Stride);
    if (map.ParamIndex != Signature.size() + i ||
        map.BaseArg >= Signature.size() || !Signature[map.BaseArg].IsPointer ||
        !integers)
      return Status::parseError(
          "tensor map " + std::to_string(i) +
          " does not follow the signature's parameters or names arguments of "
          "the wrong kind");
  }
  for (const DescriptorParam &desc : Descriptors) {
    // The base pointer, then rank extents and rank - 1 strides.
    std::size_t rank = desc.Block.size();
    std::size_t end = desc.ArgIndex + 2 * rank;
    bool matches = end <= Signature.size();
    if (matches) {
      std::vector<ArgType> expected =
          descriptorArgTypes(Signature[desc.ArgIndex].Elem, rank);
      for (std::size_t i = 0; i < expected.size(); ++i)
        matches &=
            Signature[desc.ArgIndex + i].IsPointer == expected[i].IsPointer &&
            Signature[desc.ArgIndex + i].Elem == expected[i].Elem;
    }
    if (!matches)
      return Status::parseError("tensor descriptor at argument " +
                                std::to_string(desc.ArgIndex) +
                                " does not match the signature");
  }
  for (const LaunchRequirement &requirement : Requirements) {
    bool align = requirement.ReqKind == LaunchRequirement::Kind::Align16;
    if (!isIdentifier(requirement.ArgName))
      return Status::parseError("requirement on argument " +
                                quoted(requirement.ArgName) +
                                ": the name is not an identifier");
    if (requirement.ArgIndex >= Signature.size() ||
        Signature[requirement.ArgIndex].IsPointer != align ||
        (!align && !Signature[requirement.ArgIndex].isInteger()))
      return Status::parseError("requirement on argument " +
                                quoted(requirement.ArgName) + " (" +
                                std::to_string(requirement.ArgIndex) +
                                ") does not match the signature");
  }
  return Status::success();
}

std::string tilec::abi::printMetadataLine(const KernelMetadata &kernel) {
  std::string line =
      fmt::format("// {} name={} num_warps={} shared={} signature={}",
                  MetadataTag, kernel.Name, kernel.NumWarps, kernel.SharedBytes,
                  signatureString(kernel.Signature));
  // Runtimes older than a key ignore it.
  std::vector<std::string> entries;
  for (const LaunchRequirement &requirement : kernel.Requirements)
    entries.push_back(requirement.str());
  if (!entries.empty())
    line += fmt::format(" requires={}", fmt::join(entries, ","));
  entries.clear();
  for (const TensorMapSpec &map : kernel.TensorMaps)
    entries.push_back(map.str());
  if (!entries.empty())
    line += fmt::format(" tma={}", fmt::join(entries, ";"));
  entries.clear();
  for (const DescriptorParam &desc : kernel.Descriptors)
    entries.push_back(desc.str());
  if (!entries.empty())
    line += fmt::format(" descriptors={}", fmt::join(entries, ";"));
  if (kernel.Reread)
    line += " reread=" + kernel.Reread->str();
  return line;
}

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

bool tilec::abi::isMetadataLine(std::string_view line) {
  std::string_view rest;
  return splitMetadataLine(line, rest);
}

Expected<KernelMetadata> tilec::abi::parseMetadataLine(std::string_view line) {
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
       seenSignature = false, seenRequires = false, seenTma = false,
       seenDescriptors = false, seenReread = false;
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
          bytes > std::uint64_t(std::numeric_limits<std::int32_t>::max()))
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
      if (!markSeen(seenTma))
        return bad("duplicate key 'tma'");
      Expected<std::vector<TensorMapSpec>> maps = parseTensorMaps(value);
      if (!maps)
        return bad(maps.status().message());
      meta.TensorMaps = maps.take();
    } else if (key == "descriptors") {
      if (!markSeen(seenDescriptors))
        return bad("duplicate key 'descriptors'");
      Expected<std::vector<DescriptorParam>> descriptors =
          parseDescriptorParams(value);
      if (!descriptors)
        return bad(descriptors.status().message());
      meta.Descriptors = descriptors.take();
    } else if (key == "reread") {
      if (!markSeen(seenReread))
        return bad("duplicate key 'reread'");
      Expected<RereadFootprint> footprint = parseRereadFootprint(value);
      if (!footprint)
        return bad(footprint.status().message());
      meta.Reread = footprint.take();
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
  Status consistent = meta.verify();
  if (!consistent.ok())
    return bad(consistent.message());
  return meta;
}

Expected<std::vector<KernelMetadata>>
tilec::abi::parseModuleMetadata(std::string_view ptx) {
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
// Configurations
//===----------------------------------------------------------------------===//

std::string tilec::abi::configurationName(
    const std::vector<std::pair<std::string, std::string>> &constexprs,
    unsigned numWarps, unsigned numStages) {
  std::string text;
  for (const auto &[name, value] : constexprs)
    text += fmt::format("{}={},", name, value);
  return text + fmt::format("num_warps={},num_stages={}", numWarps, numStages);
}
