//===- Launcher.cpp - Generate C++ launchers for a kernel -----------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Compiles every configuration x variant of one kernel and prints the C++
// that embeds them. The generated code only uses tilec/Runtime/Aot.h. Per
// kernel it declares, in the chosen namespace:
//
//   struct K_config { <constexpr fields>; unsigned num_warps, num_stages;
//                     const char *name; };
//   extern const K_config K_configs[N];
//   Status K(ctx, grid, args..., stream = nullptr, options = {});
//                                                  // dispatching
//   const char *K_variant(args...);                // its choice
//   Status K_<suffix>(ctx, grid, [config,] args..., stream, options);
//                                                  // one variant
//   rt::Autotuner &K_tuner();                      // with several configs
//
// (`options`: rt::LaunchOptions, programmatic dependent launch.)
//
// `grid` is a Dim3 with one configuration, a function of the configuration
// with several. The dispatcher takes the first (most specialized) variant
// whose assumptions the arguments satisfy; the per-variant launchers check
// them and fail with a message naming the kernel, variant and argument.
// A kernel that takes host-side tensor descriptors or reads through TMA
// (tensor maps in its metadata) is launched through Kernel::launch, which
// checks and packs the arguments and encodes the maps. Otherwise the
// launchers pack the parameters themselves (launchUnchecked); when an image
// has launch requirements (the "requires=" key of its metadata line), they
// also pass the arguments as KernelArgs to
// tilec::rt::checkLaunchRequirements, with the loaded kernel's metadata: the
// check and messages of Kernel::launch.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Launcher.h"

#include "tilec/Target/Cubin.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace tilec;
using llvm::StringRef;

std::string LauncherConfig::name() const {
  return abi::configurationName(constexprs, numWarps, numStages);
}

llvm::Expected<LauncherConfig>
tilec::parseLauncherConfig(StringRef text, const LauncherConfig &base) {
  LauncherConfig config = base;
  llvm::SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [name, value] = item.split('=');
    name = name.trim();
    value = value.trim();
    if (name.empty() || value.empty())
      return llvm::createStringError(
          "--config expects NAME=VALUE items, not '" + item.str() + "'");
    if (name == "num_warps" || name == "num_stages") {
      unsigned number = 0;
      if (value.getAsInteger(10, number))
        return llvm::createStringError(name.str() + " must be a number, not '" +
                                       value.str() + "'");
      if (name == "num_warps" &&
          (number == 0 || number > 32 || (number & (number - 1))))
        return llvm::createStringError(
            "num_warps must be a power of two from 1 to 32");
      (name == "num_warps" ? config.numWarps : config.numStages) = number;
      continue;
    }
    auto existing = llvm::find_if(
        config.constexprs, [&](const auto &c) { return c.first == name; });
    if (existing != config.constexprs.end())
      existing->second = value.str();
    else
      config.constexprs.emplace_back(name.str(), value.str());
  }
  return config;
}

namespace {

/// How one parameter is passed and checked.
struct ParamType {
  std::string cppType;    ///< the launcher's parameter type
  std::string valueType;  ///< what goes into the parameter buffer
  std::string conversion; ///< expression from the parameter, {0} = name
  std::string scalarType; ///< tilec::rt::ScalarType enumerator (pointers)
  /// The tilec::rt::KernelArg of the value, {0} = the value's name.
  std::string kernelArg;
};

/// Maps a run-time parameter to its C++ types; fails for fp8 scalars.
std::optional<ParamType> paramType(const abi::ArgType &arg) {
  using abi::ScalarType;
  std::string enumerator = std::string("tilec::rt::ScalarType::") +
                           abi::scalarTypeEnumerator(arg.Elem);
  if (arg.IsPointer)
    return ParamType{"tilec::rt::PointerArg", "std::uint64_t", "{0}.address()",
                     enumerator, "tilec::rt::DevicePtr{{{0}}"};
  auto plain = [](StringRef cpp) {
    return ParamType{cpp.str(), cpp.str(), "{0}", "",
                     "tilec::rt::KernelArg({0})"};
  };
  switch (arg.Elem) {
  case ScalarType::I1:
    // KernelArg takes no bool; no requirement concerns one.
    return ParamType{"bool", "bool", "{0}", "",
                     "tilec::rt::KernelArg(static_cast<std::uint8_t>({0}))"};
  case ScalarType::I8:
    return plain("std::int8_t");
  case ScalarType::I16:
    return plain("std::int16_t");
  case ScalarType::I32:
    return plain("std::int32_t");
  case ScalarType::I64:
    return plain("std::int64_t");
  case ScalarType::U8:
    return plain("std::uint8_t");
  case ScalarType::U16:
    return plain("std::uint16_t");
  case ScalarType::U32:
    return plain("std::uint32_t");
  case ScalarType::U64:
    return plain("std::uint64_t");
  case ScalarType::FP32:
    return plain("float");
  case ScalarType::FP64:
    return plain("double");
  case ScalarType::FP16:
    return ParamType{"float", "std::uint16_t",
                     "tilec::rt::floatToHalfBits({0})", "",
                     "tilec::rt::KernelArg::fp16Bits({0})"};
  case ScalarType::BF16:
    return ParamType{"float", "std::uint16_t",
                     "tilec::rt::floatToBFloat16Bits({0})", "",
                     "tilec::rt::KernelArg::bf16Bits({0})"};
  case ScalarType::FP8E4NV:
  case ScalarType::FP8E5:
  case ScalarType::FP8E4B15:
    return std::nullopt;
  }
  return std::nullopt;
}

/// A host-side tensor descriptor parameter: passed as the runtime's
/// TensorDescriptor, which Kernel::launch expands into the kernel's
/// arguments and TMA tensor map.
ParamType descriptorParamType() {
  return ParamType{"const tilec::rt::TensorDescriptor &",
                   "const tilec::rt::TensorDescriptor &", "{0}", "",
                   "tilec::rt::KernelArg({0})"};
}

/// The C++ type and literal of a constexpr value as written for -D.
std::pair<std::string, std::string> constexprField(StringRef value) {
  long long integer;
  if (!value.getAsInteger(0, integer))
    return {"std::int64_t", value.str()};
  double real;
  if (!value.getAsDouble(real))
    return {"double", value.str()};
  if (value == "True" || value == "False")
    return {"bool", value == "True" ? "true" : "false"};
  std::string literal = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\')
      literal += '\\';
    literal += c;
  }
  return {"const char *", literal + "\""};
}

/// The signature with each tuple replaced by its elements (one launcher
/// parameter each, as one kernel argument each).
std::vector<SignatureEntry>
flattenTuples(const std::vector<SignatureEntry> &signature) {
  std::vector<SignatureEntry> flat;
  for (const SignatureEntry &entry : signature) {
    if (!entry.IsTuple) {
      flat.push_back(entry);
      continue;
    }
    for (const tilec::abi::ArgType &type : tilec::abi::flatTypes(entry)) {
      SignatureEntry element;
      element.Type = type;
      flat.push_back(element);
    }
  }
  return flat;
}

/// The entry without hints, a tuple's elements' included.
void dropHints(SignatureEntry &entry) {
  entry.Type.Hint = 0;
  for (SignatureEntry &element : entry.Elements)
    dropHints(element);
}

/// Triton's suffix for a variant: per hinted argument its index and 'd'
/// (multiple of 16) or 'c' (equal to 1), and tilec's 'e' (multiple of 8);
/// "generic" without hints.
std::string variantSuffix(const std::vector<SignatureEntry> &signature) {
  std::string suffix;
  for (auto [index, entry] : llvm::enumerate(flattenTuples(signature)))
    if (!entry.IsConstant && entry.Type.Hint)
      suffix += std::to_string(index) + (entry.Type.Hint == 16  ? "d"
                                         : entry.Type.Hint == 8 ? "e"
                                                                : "c");
  return suffix.empty() ? "generic" : suffix;
}

std::string signatureText(const std::vector<SignatureEntry> &signature) {
  std::string text;
  for (const SignatureEntry &entry : signature)
    text += (text.empty() ? "" : ", ") + entry.str();
  return text;
}

/// How much a variant assumes: its hinted arguments, then how strongly
/// (':16' and ':1' over ':8'), so that dispatch tries the stronger first.
std::pair<unsigned, unsigned>
countHints(const std::vector<SignatureEntry> &signature) {
  std::pair<unsigned, unsigned> count{0, 0};
  for (const SignatureEntry &e : flattenTuples(signature)) {
    if (e.IsConstant || !e.Type.Hint)
      continue;
    ++count.first;
    count.second += e.Type.Hint == 8 ? 1 : 2;
  }
  return count;
}

std::string cString(StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// Writes `bytes` as a brace-enclosed list of hex bytes, NUL-terminated.
void printBytes(llvm::raw_ostream &os, StringRef bytes) {
  os << "{";
  for (size_t i = 0; i <= bytes.size(); ++i) {
    if (i % 16 == 0)
      os << "\n    ";
    unsigned char c = i < bytes.size() ? bytes[i] : 0;
    os << "0x" << llvm::hexdigit(c >> 4, true) << llvm::hexdigit(c & 15, true)
       << ",";
  }
  os << "}";
}

/// Everything the printers need about the kernel.
struct KernelModel {
  std::string name;
  std::vector<std::string> params;
  std::vector<ParamType> types;
  /// Sorted variants (the last is generic) and their suffixes.
  std::vector<std::vector<SignatureEntry>> variants;
  std::vector<std::string> suffixes;
  std::vector<LauncherConfig> configs;
  /// Constexpr field names with their C++ types.
  std::vector<std::pair<std::string, std::string>> fields;
  /// Compiled images, config-major: index = config * variants + variant.
  std::vector<CompiledPTX> compiled;
  std::vector<std::string> cubins;
  std::vector<unsigned> keyParams;
  std::vector<std::pair<std::string, unsigned>> presets;
  /// Whether an image has launch requirements (a "requires=" key), which
  /// launchImage then checks with tilec::rt::checkLaunchRequirements.
  bool hasRequirements = false;
  /// Whether the kernel takes host-side tensor descriptors (one launcher
  /// parameter each, a TensorDescriptor).
  bool hasDescriptors = false;
  /// Whether the launchers go through Kernel::launch, which checks and packs
  /// the arguments and encodes TMA tensor maps: for kernels taking
  /// descriptors or reading through TMA. The others pack their own
  /// parameters (launchUnchecked).
  bool checkedLaunch = false;

  bool multiConfig() const { return configs.size() > 1; }
};

class Printer {
public:
  Printer(const KernelModel &model, const LauncherOptions &options)
      : m(model), options(options) {}

  void printHeader(llvm::raw_ostream &os, StringRef sourceName) const;
  void printSource(llvm::raw_ostream &os) const;

private:
  std::string gridParam() const {
    return m.multiConfig() ? "tilec::rt::FunctionRef<tilec::rt::Dim3(const " +
                                 m.name + "_config &)> grid"
                           : "tilec::rt::Dim3 grid";
  }
  /// "tilec::rt::PointerArg x_ptr, std::int32_t n"
  std::string argParams() const {
    std::string text;
    for (size_t i = 0; i < m.params.size(); ++i)
      text += (i ? ", " : "") + m.types[i].cppType + " " + m.params[i];
    return text;
  }
  /// "x_ptr_v, n_v" with types when `typed`.
  std::string valueList(bool typed) const {
    std::string text;
    for (size_t i = 0; i < m.params.size(); ++i)
      text += (i ? ", " : "") +
              (typed ? m.types[i].valueType + " " : std::string()) +
              m.params[i] + "_v";
    return text;
  }
  /// launchImage's arguments after the grid: "params, " and, with launch
  /// requirements, "checkedArgs, "; "checkedArgs, " alone for a checked
  /// launch.
  std::string launchArgs() const {
    return m.checkedLaunch     ? "checkedArgs, "
           : m.hasRequirements ? "params, checkedArgs, "
                               : "params, ";
  }
  /// The statements that check pointer element types and compute the
  /// parameter values and the kernelParams array (and, with launch
  /// requirements, the KernelArg array launchImage checks them on; for a
  /// checked launch, the KernelArg array alone, which has an element: TMA
  /// and descriptors need parameters).
  void printPrologue(llvm::raw_ostream &os, bool withParams) const;
  std::string condition(const SignatureEntry &entry, size_t index) const;

  const KernelModel &m;
  const LauncherOptions &options;
};

std::string Printer::condition(const SignatureEntry &entry,
                               size_t index) const {
  std::string value = m.params[index] + "_v";
  if (entry.Type.Hint == 1)
    return value + " == 1";
  return value + " % " + std::to_string(entry.Type.Hint) + " == 0";
}

void Printer::printPrologue(llvm::raw_ostream &os, bool withParams) const {
  for (size_t i = 0; i < m.params.size(); ++i) {
    const ParamType &type = m.types[i];
    if (!type.scalarType.empty())
      os << "  if (tilec::rt::Status status = " << m.params[i] << ".checkType("
         << type.scalarType << ", " << cString(m.name) << ", "
         << cString(m.params[i]) << "); !status.ok())\n"
         << "    return status;\n";
  }
  for (size_t i = 0; i < m.params.size(); ++i)
    os << "  " << m.types[i].valueType << " " << m.params[i] << "_v = "
       << llvm::formatv(m.types[i].conversion.c_str(), m.params[i]).str()
       << ";\n";
  if (!withParams)
    return;
  if (m.checkedLaunch) {
    os << "  const tilec::rt::KernelArg checkedArgs[] = {";
    for (size_t i = 0; i < m.params.size(); ++i)
      os << (i ? ", " : "")
         << llvm::formatv(m.types[i].kernelArg.c_str(), m.params[i] + "_v")
                .str();
    os << "};\n";
    return;
  }
  if (m.params.empty()) {
    os << "  void **params = nullptr;\n";
    return;
  }
  os << "  void *params[] = {";
  for (size_t i = 0; i < m.params.size(); ++i)
    os << (i ? ", " : "") << "&" << m.params[i] << "_v";
  os << "};\n";
  // A kernel with requirements has parameters (they name one).
  if (!m.hasRequirements)
    return;
  os << "  const tilec::rt::KernelArg checkedArgs[] = {";
  for (size_t i = 0; i < m.params.size(); ++i)
    os << (i ? ", " : "")
       << llvm::formatv(m.types[i].kernelArg.c_str(), m.params[i] + "_v").str();
  os << "};\n";
}

void Printer::printHeader(llvm::raw_ostream &os, StringRef sourceName) const {
  os << "// Generated by tilec from " << sourceName << ": do not edit.\n"
     << "// Kernel " << m.name << "(" << llvm::join(m.params, ", ")
     << "); see docs/runtime.md of tilec for the API.\n\n"
     << "#pragma once\n\n#include \"tilec/Runtime/Aot.h\"\n\n"
     << "#include <cstdint>\n\nnamespace " << options.cppNamespace << " {\n\n";

  os << "/// A configuration of " << m.name << ".\n"
     << "struct " << m.name << "_config {\n";
  for (const auto &[field, type] : m.fields)
    os << "  " << type << " " << field << ";\n";
  os << "  unsigned num_warps;\n  /// Not used by the compiler yet.\n"
     << "  unsigned num_stages;\n  const char *name;\n};\n\n";
  os << "inline constexpr unsigned " << m.name
     << "_num_configs = " << m.configs.size() << ";\n"
     << "extern const " << m.name << "_config " << m.name << "_configs["
     << m.configs.size() << "];\n\n";

  os << "/// Launches " << m.name << " on `grid`";
  if (m.multiConfig()) {
    os << "(config) blocks in the configuration tuned for";
    if (m.keyParams.empty())
      os << " all arguments";
    else
      for (auto [i, param] : llvm::enumerate(m.keyParams))
        os << (i ? ", " : " ") << m.params[param];
    os << " (" << m.name << "_tuner())";
  } else {
    os << " blocks of " << m.configs[0].numWarps * 32 << " threads";
  }
  os << ",\n/// with the first variant whose assumptions the arguments meet:\n";
  for (size_t v = 0; v < m.variants.size(); ++v)
    os << "///   " << m.name << "_" << m.suffixes[v] << ": "
       << signatureText(m.variants[v]) << "\n";
  os << "tilec::rt::Status " << m.name << "(const tilec::rt::Context &ctx, "
     << gridParam() << (m.params.empty() ? "" : ", ") << argParams()
     << ", const tilec::rt::Stream *stream = nullptr, "
     << "const tilec::rt::LaunchOptions &options = {});\n\n";

  os << "/// The variant " << m.name
     << "() launches for these arguments (its suffix).\n"
     << "const char *" << m.name << "_variant(" << argParams() << ");\n\n";

  for (size_t v = 0; v < m.variants.size(); ++v) {
    os << "/// Launches variant " << signatureText(m.variants[v]);
    if (m.multiConfig())
      os << " in configuration `config` (an index into " << m.name
         << "_configs)";
    os << "; fails when an argument breaks its assumptions.\n"
       << "tilec::rt::Status " << m.name << "_" << m.suffixes[v]
       << "(const tilec::rt::Context &ctx, tilec::rt::Dim3 grid, "
       << (m.multiConfig() ? "unsigned config, " : "") << argParams()
       << (m.params.empty() ? "" : ", ")
       << "const tilec::rt::Stream *stream = nullptr, "
       << "const tilec::rt::LaunchOptions &options = {});\n\n";
  }
  if (m.multiConfig())
    os << "/// The tuner that chooses " << m.name << "'s configuration.\n"
       << "tilec::rt::Autotuner &" << m.name << "_tuner();\n\n";
  os << "} // namespace " << options.cppNamespace << "\n";
}

void Printer::printSource(llvm::raw_ostream &os) const {
  size_t numVariants = m.variants.size();
  os << "// Generated by tilec: do not edit.\n\n#include \""
     << options.headerInclude << "\"\n\nnamespace " << options.cppNamespace
     << " {\n\nconst " << m.name << "_config " << m.name << "_configs["
     << m.configs.size() << "] = {\n";
  for (const LauncherConfig &config : m.configs) {
    os << "    {";
    for (const auto &[field, type] : m.fields) {
      auto binding = llvm::find_if(
          config.constexprs, [&](const auto &c) { return c.first == field; });
      os << constexprField(binding->second).second << ", ";
    }
    os << config.numWarps << ", " << config.numStages << ", "
       << cString(config.name()) << "},\n";
  }
  os << "};\n\nnamespace {\n\n";

  for (size_t i = 0; i < m.compiled.size(); ++i) {
    os << "// " << m.configs[i / numVariants].name() << ", "
       << signatureText(m.variants[i % numVariants]) << "\n"
       << "const unsigned char image" << i << "[] = ";
    printBytes(os, options.cubin ? StringRef(m.cubins[i])
                                 : StringRef(m.compiled[i].ptx));
    os << ";\n\n";
  }
  os << "const tilec::rt::EmbeddedImage images[] = {\n";
  for (size_t i = 0; i < m.compiled.size(); ++i) {
    StringRef ptx = m.compiled[i].ptx;
    os << "    {image" << i << ", sizeof(image" << i << ") - 1, "
       << (options.cubin ? "true" : "false") << ",\n     "
       << cString(ptx.take_until([](char c) { return c == '\n'; })) << "},\n";
  }
  os << "};\n\nconst tilec::rt::EmbeddedKernel &kernel(unsigned index) {\n"
     << "  static const tilec::rt::EmbeddedKernel kernels[] = {\n";
  for (size_t i = 0; i < m.compiled.size(); ++i)
    os << "      tilec::rt::EmbeddedKernel(images[" << i << "]),\n";
  os << "  };\n  return kernels[index];\n}\n\n";

  os << "tilec::rt::Status launchImage(const tilec::rt::Context &ctx, "
        "unsigned index,\n"
     << "                              tilec::rt::Dim3 grid, ";
  if (m.checkedLaunch)
    os << "const tilec::rt::KernelArg *args,\n";
  else
    os << "void **params,\n";
  if (m.hasRequirements && !m.checkedLaunch)
    os << "                              const tilec::rt::KernelArg *args,\n";
  os << "                              const tilec::rt::Stream *stream,\n"
     << "                              const tilec::rt::LaunchOptions "
        "&options) "
        "{\n"
     << "  tilec::rt::Expected<const tilec::rt::Kernel *> loaded =\n"
     << "      kernel(index).get(ctx);\n"
     << "  if (!loaded)\n    return loaded.status();\n";
  if (m.checkedLaunch) {
    // Checked and packed as Kernel::launch does, with the TMA tensor maps
    // (descriptors expanded into their shapes and strides).
    os << "  return (*loaded)->launch(grid, args, " << m.params.size()
       << ", stream, options);\n}\n\n";
  } else {
    // The image's "requires=" key, checked as Kernel::launch checks it.
    if (m.hasRequirements)
      os << "  if (tilec::rt::Status status = "
            "tilec::rt::checkLaunchRequirements(\n"
         << "          (*loaded)->metadata(), args, " << m.params.size()
         << ");\n      !status.ok())\n    return status;\n";
    os << "  return (*loaded)->launchUnchecked(grid, params, stream, "
          "options);\n"
       << "}\n\n";
  }

  // The dispatch rule: the first variant whose conditions hold.
  os << "unsigned selectVariant(" << valueList(/*typed=*/true) << ") {\n";
  for (size_t v = 0; v + 1 < numVariants; ++v) {
    std::vector<std::string> conditions;
    for (auto [i, entry] : llvm::enumerate(flattenTuples(m.variants[v])))
      if (entry.Type.Hint)
        conditions.push_back(condition(entry, i));
    os << "  if (" << llvm::join(conditions, " && ") << ")\n    return " << v
       << ";\n";
  }
  for (const std::string &param : m.params)
    os << "  (void)" << param << "_v;\n";
  os << "  return " << numVariants - 1 << ";\n}\n\n";

  // The check of each specialized variant.
  for (size_t v = 0; v + 1 < numVariants; ++v) {
    // Parameters the variant assumes nothing about are left unnamed.
    os << "tilec::rt::Status checkVariant" << v << "(";
    std::vector<SignatureEntry> flat = flattenTuples(m.variants[v]);
    for (auto [i, entry] : llvm::enumerate(flat))
      os << (i ? ", " : "") << m.types[i].valueType
         << (entry.Type.Hint ? " " + m.params[i] + "_v" : std::string());
    os << ") {\n";
    for (auto [i, entry] : llvm::enumerate(flat)) {
      if (!entry.Type.Hint)
        continue;
      std::string what =
          entry.Type.Hint == 1 ? "is not 1"
          : entry.Type.IsPointer
              ? "is not " + std::to_string(entry.Type.Hint) + "-byte aligned"
              : "is not a multiple of " + std::to_string(entry.Type.Hint);
      os << "  if (!(" << condition(entry, i) << "))\n"
         << "    return tilec::rt::specializationFailure(" << cString(m.name)
         << ", " << cString(signatureText(m.variants[v])) << ", "
         << cString(m.params[i]) << ", static_cast<std::uint64_t>("
         << m.params[i] << "_v), " << (entry.Type.IsPointer ? "true" : "false")
         << ", " << cString(what) << ");\n";
    }
    os << "  return tilec::rt::Status::success();\n}\n\n";
  }
  os << "} // namespace\n\n";

  if (m.multiConfig()) {
    os << "tilec::rt::Autotuner &" << m.name << "_tuner() {\n"
       << "  static tilec::rt::Autotuner tuner(" << cString(m.name) << ", {";
    for (auto [i, config] : llvm::enumerate(m.configs))
      os << (i ? ", " : "") << cString(config.name());
    os << "},\n                                  {";
    for (auto [i, preset] : llvm::enumerate(m.presets))
      os << (i ? ", " : "") << "{" << cString(preset.first) << ", "
         << preset.second << "}";
    os << "});\n  return tuner;\n}\n\n";
  }

  // The dispatching launcher.
  os << "tilec::rt::Status " << m.name << "(const tilec::rt::Context &ctx, "
     << gridParam() << (m.params.empty() ? "" : ", ") << argParams()
     << ",\n    const tilec::rt::Stream *stream,\n"
     << "    const tilec::rt::LaunchOptions &options) {\n";
  printPrologue(os, /*withParams=*/true);
  os << "  unsigned variant = selectVariant(" << valueList(false) << ");\n";
  if (!m.multiConfig()) {
    os << "  return launchImage(ctx, variant, grid, " << launchArgs()
       << "stream, options);\n}\n\n";
  } else {
    os << "  std::string key;\n";
    for (auto [i, param] : llvm::enumerate(m.keyParams))
      os << "  key += \"" << (i ? "," : "") << m.params[param]
         << "=\" + std::to_string(" << m.params[param] << ");\n";
    os << "  auto launch = [&](unsigned config) {\n"
       << "    return launchImage(ctx, config * " << numVariants
       << " + variant, grid(" << m.name << "_configs[config]),\n"
       << "                       " << launchArgs()
       << "stream, options);\n  };\n"
       << "  tilec::rt::Expected<unsigned> config =\n"
       << "      " << m.name << "_tuner().choose(ctx, key, launch, stream);\n"
       << "  if (!config)\n    return config.status();\n"
       << "  return launch(*config);\n}\n\n";
  }

  os << "const char *" << m.name << "_variant(" << argParams() << ") {\n"
     << "  static const char *const suffixes[] = {";
  for (auto [v, suffix] : llvm::enumerate(m.suffixes))
    os << (v ? ", " : "") << cString(suffix);
  os << "};\n";
  for (size_t i = 0; i < m.params.size(); ++i)
    os << "  " << m.types[i].valueType << " " << m.params[i] << "_v = "
       << llvm::formatv(m.types[i].conversion.c_str(), m.params[i]).str()
       << ";\n";
  os << "  return suffixes[selectVariant(" << valueList(false) << ")];\n}\n\n";

  for (size_t v = 0; v < numVariants; ++v) {
    os << "tilec::rt::Status " << m.name << "_" << m.suffixes[v]
       << "(const tilec::rt::Context &ctx, tilec::rt::Dim3 grid, "
       << (m.multiConfig() ? "unsigned config, " : "") << argParams()
       << (m.params.empty() ? "" : ", ") << "const tilec::rt::Stream *stream,\n"
       << "    const tilec::rt::LaunchOptions &options) {\n";
    if (m.multiConfig())
      os << "  if (config >= " << m.configs.size() << ")\n"
         << "    return tilec::rt::Status::invalidArgument(\"kernel '" << m.name
         << "': configuration \" + std::to_string(config) + \" of "
         << m.configs.size() << "\");\n";
    printPrologue(os, /*withParams=*/true);
    if (v + 1 < numVariants)
      os << "  if (tilec::rt::Status status = checkVariant" << v << "("
         << valueList(false) << "); !status.ok())\n    return status;\n";
    os << "  return launchImage(ctx, "
       << (m.multiConfig() ? "config * " + std::to_string(numVariants) + " + "
                           : std::string())
       << v << ", grid, " << launchArgs() << "stream, options);\n}\n\n";
  }
  os << "} // namespace " << options.cppNamespace << "\n";
}

/// Reads the choices of a tuning file for `kernel` whose configuration is
/// one of `configs` (the last line for a key wins).
llvm::Expected<std::vector<std::pair<std::string, unsigned>>>
readPresets(StringRef file, StringRef kernel,
            const std::vector<LauncherConfig> &configs) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read the tuning file '" + file +
                                       "': " + buffer.getError().message());
  std::vector<std::pair<std::string, unsigned>> presets;
  llvm::SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    llvm::SmallVector<StringRef> fields;
    line.split(fields, '\t');
    if (fields.size() != 4 || fields[0] != kernel)
      continue;
    auto config = llvm::find_if(configs, [&](const LauncherConfig &c) {
      return c.name() == fields[2];
    });
    if (config == configs.end())
      continue;
    unsigned index = config - configs.begin();
    auto known = llvm::find_if(
        presets, [&](const auto &p) { return p.first == fields[1]; });
    if (known != presets.end())
      known->second = index;
    else
      presets.emplace_back(fields[1].str(), index);
  }
  return presets;
}

LogicalResult fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tilec") << message << "\n";
  return failure();
}

} // namespace

LogicalResult tilec::emitLaunchers(llvm::SourceMgr &srcMgr,
                                   const CompileOptions &base,
                                   const LauncherOptions &options,
                                   llvm::raw_ostream &header,
                                   llvm::raw_ostream &source) {
  if (options.configs.empty())
    return fail("--emit=header needs at least one configuration");
  KernelModel model;
  model.configs = options.configs;

  // Variants: as given, plus the generic one; most hints first.
  std::vector<std::vector<SignatureEntry>> variants = options.variants;
  if (variants.empty())
    return fail("--emit=header needs a --signature");
  model.hasDescriptors =
      llvm::any_of(variants.front(),
                   [](const SignatureEntry &e) { return e.isTensorDesc(); });
  std::vector<SignatureEntry> generic = variants.front();
  for (SignatureEntry &entry : generic)
    dropHints(entry);
  variants.push_back(generic);
  llvm::StringSet<> seen;
  for (std::vector<SignatureEntry> &variant : variants)
    if (seen.insert(signatureText(variant)).second)
      model.variants.push_back(std::move(variant));
  std::stable_sort(model.variants.begin(), model.variants.end(),
                   [](const auto &a, const auto &b) {
                     return countHints(a) > countHints(b);
                   });
  for (const auto &variant : model.variants)
    model.suffixes.push_back(variantSuffix(variant));

  // Constexpr fields: every configuration must bind the same names.
  for (const auto &[name, value] : model.configs.front().constexprs)
    model.fields.emplace_back(name, constexprField(value).first);
  for (auto [index, config] : llvm::enumerate(model.configs)) {
    bool same = config.constexprs.size() == model.fields.size();
    for (const auto &[name, value] : config.constexprs)
      same &= llvm::any_of(model.fields,
                           [&](const auto &f) { return f.first == name; });
    if (!same)
      return fail("configuration " + llvm::Twine(index) + " (" + config.name() +
                  ") binds other constexprs than the first (" +
                  model.configs.front().name() + ")");
  }

  for (const LauncherConfig &config : model.configs) {
    for (const std::vector<SignatureEntry> &variant : model.variants) {
      CompileOptions compileOptions = base;
      compileOptions.kernel.signature = variant;
      compileOptions.kernel.defines.clear();
      for (const auto &[name, value] : config.constexprs)
        compileOptions.kernel.defines[name] = value;
      compileOptions.pipeline.numWarps = config.numWarps;
      compileOptions.pipeline.numStages = config.numStages;
      FailureOr<CompiledPTX> compiled =
          compileToPTX(srcMgr, compileOptions, llvm::errs());
      if (failed(compiled))
        return failure();
      if (options.cubin) {
        llvm::Expected<std::string> cubin =
            assembleCubin(compiled->ptx, options.arch, options.ptxas);
        if (!cubin)
          return fail(llvm::toString(cubin.takeError()));
        model.cubins.push_back(std::move(*cubin));
      }
      model.compiled.push_back(std::move(*compiled));
    }
  }

  const KernelInfo &info = model.compiled.front().info;
  model.hasRequirements = llvm::any_of(model.compiled, [](const auto &c) {
    return !c.info.requirements.empty();
  });
  model.checkedLaunch =
      model.hasDescriptors || llvm::any_of(model.compiled, [](const auto &c) {
        return !c.metadata.TensorMaps.empty();
      });
  model.name = info.name;
  auto argName = [&](size_t index) {
    return index < info.argNames.size() ? info.argNames[index]
                                        : "arg" + std::to_string(index);
  };
  if (model.hasDescriptors) {
    // One parameter per signature entry: a descriptor of rank R stands for
    // 2 R kernel arguments (descriptorArgTypes), named after the first.
    size_t abiIndex = 0;
    for (const SignatureEntry &entry : flattenTuples(model.variants.front())) {
      if (entry.IsConstant)
        return fail("--emit=header: a kernel taking tensor descriptors "
                    "cannot have constexprs bound in its signature ('" +
                    entry.str() + "'); bind them with -D");
      if (abiIndex >= info.signature.size())
        return fail("kernel '" + info.name +
                    "': its signature has more entries than parameters");
      model.params.push_back(argName(abiIndex));
      if (entry.isTensorDesc()) {
        model.types.push_back(descriptorParamType());
        abiIndex += 2 * entry.DescriptorBlock.size();
        continue;
      }
      std::optional<ParamType> type = paramType(info.signature[abiIndex]);
      if (!type)
        return fail("kernel '" + info.name + "': parameter " +
                    llvm::Twine(abiIndex) + " of type " + entry.str() +
                    " cannot be passed by a generated launcher");
      model.types.push_back(*type);
      ++abiIndex;
    }
  } else {
    for (auto [index, entry] : llvm::enumerate(info.signature)) {
      std::optional<ParamType> type = paramType(entry);
      if (!type)
        return fail("kernel '" + info.name + "': parameter " +
                    llvm::Twine(index) + " of type " + entry.str() +
                    " cannot be passed by a generated launcher");
      model.types.push_back(*type);
      model.params.push_back(argName(index));
    }
  }
  for (const std::string &key : options.tuneKey) {
    auto param = llvm::find(model.params, key);
    if (param == model.params.end() ||
        !model.types[param - model.params.begin()].scalarType.empty())
      return fail("--tune-key: '" + key + "' is not an integer parameter of '" +
                  model.name + "'");
    model.keyParams.push_back(param - model.params.begin());
  }
  if (!options.tuneKey.empty() && !model.multiConfig())
    return fail("--tune-key needs more than one --config");
  if (options.tuneKey.empty() && model.multiConfig()) {
    for (const std::string &key : options.autotuneKey) {
      auto param = llvm::find(model.params, key);
      if (param != model.params.end() &&
          model.types[param - model.params.begin()].scalarType.empty())
        model.keyParams.push_back(param - model.params.begin());
    }
  }
  if (!options.tuningFile.empty()) {
    auto presets = readPresets(options.tuningFile, model.name, model.configs);
    if (!presets)
      return fail(llvm::toString(presets.takeError()));
    model.presets = std::move(*presets);
  }

  Printer printer(model, options);
  StringRef sourceName =
      srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBufferIdentifier();
  printer.printHeader(header, llvm::sys::path::filename(sourceName));
  printer.printSource(source);
  return success();
}
