//===- Metadata.cpp - Kernel metadata and launch arguments ----------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Reads the parameter list of a PTX .entry to cross-check a kernel's
// metadata (tilec/ABI/KernelABI.h parses it), and checks and packs typed
// launch arguments. Everything here is plain string
// and integer work with no CUDA calls, so it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Metadata.h"

#include "ABI/Text.h"

#include <fmt/format.h>

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace tilec::rt;
using namespace tilec::text;

namespace {

/// PTX identifiers also allow '%' and '.' after the first character.
bool isPtxIdentifierChar(char c) {
  return isIdentifierChar(c) || c == '%' || c == '.';
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

/// The x of `.maxntid x, y, z` among the directives of PTX entry \p name
/// (between its parameter list and its body), or 0 when it has none.
static unsigned parsePtxEntryMaxThreads(std::string_view ptx,
                                        std::string_view name) {
  std::string text = stripPtxComments(ptx);
  std::string entry = ".entry " + std::string(name) + "(";
  std::size_t at = text.find(entry);
  if (at == std::string::npos)
    return 0;
  std::size_t close = text.find(')', at);
  std::size_t body = text.find('{', at);
  if (close == std::string::npos || body == std::string::npos)
    return 0;
  std::string_view directives =
      std::string_view(text).substr(close, body - close);
  std::size_t maxntid = directives.find(".maxntid");
  if (maxntid == std::string_view::npos)
    return 0;
  return static_cast<unsigned>(std::strtoul(
      std::string(directives.substr(maxntid + 8)).c_str(), nullptr, 10));
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
    if (unsigned threads = parsePtxEntryMaxThreads(ptx, meta.Name);
        threads != 0 && threads != 32 * meta.NumWarps)
      return Status::parseError(
          prefix + ": the tilec.kernel line says num_warps=" +
          std::to_string(meta.NumWarps) + " but the PTX entry has .maxntid " +
          std::to_string(threads));
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
  switch (ArgKind) {
  case Kind::Pointer:
    return fmt::format("device pointer {:#x}", Bits);
  case Kind::Signed:
    return fmt::format("int{} {}", Width, static_cast<std::int64_t>(Bits));
  case Kind::Unsigned:
    return fmt::format("uint{} {}", Width, Bits);
  case Kind::Float32: {
    float value;
    std::uint32_t bits = static_cast<std::uint32_t>(Bits);
    std::memcpy(&value, &bits, sizeof(value));
    return fmt::format("float {:g}", value);
  }
  case Kind::Float64: {
    double value;
    std::memcpy(&value, &Bits, sizeof(value));
    return fmt::format("double {:g}", value);
  }
  case Kind::Half:
    return fmt::format("fp16 bits {:#06x}", Bits);
  case Kind::BFloat:
    return fmt::format("bf16 bits {:#06x}", Bits);
  case Kind::Descriptor:
    return "a tensor descriptor";
  }
  return "";
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
        return fail(fmt::format("{:#x}", arg.bits()),
                    "tensor descriptor base pointers must be "
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
      if (param.Hint > 1 && arg.bits() % param.Hint)
        return fail(arg.describe() + " is not " + std::to_string(param.Hint) +
                    "-byte aligned as the ':" + std::to_string(param.Hint) +
                    "' hint requires");
      packed.push(arg.bits(), 8);
      continue;
    }

    if (param.isInteger()) {
      if (kind != KernelArg::Kind::Signed && kind != KernelArg::Kind::Unsigned)
        return fail("expected an integer, got " + arg.describe());
      if (!integerFits(arg, param.Elem))
        return fail(arg.describe() + " does not fit in " +
                    scalarTypeName(param.Elem));
      if (param.Hint > 1 && arg.bits() % param.Hint)
        return fail(arg.describe() + " is not a multiple of " +
                    std::to_string(param.Hint) + " as the ':" +
                    std::to_string(param.Hint) + "' hint requires");
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
      return s.IsArg ? static_cast<std::int64_t>(args[s.Arg].bits()) * s.Factor
                     : s.Value;
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
    for (const TensorMapSpec::OuterDim &dim : map.Outer) {
      std::int64_t extent = value(dim.Extent), outerStride = value(dim.Stride);
      if (extent <= 0 || outerStride <= 0)
        return Status::invalidArgument(
            "kernel " + quoted(kernel.Name) +
            ": a tensor descriptor's outer dimension needs a positive extent "
            "and stride, not " +
            std::to_string(extent) + " and " + std::to_string(outerStride));
      request.OuterExtents.push_back(static_cast<std::uint64_t>(extent));
      request.OuterStrideBytes.push_back(
          static_cast<std::uint64_t>(outerStride) * map.elementBytes());
    }
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
