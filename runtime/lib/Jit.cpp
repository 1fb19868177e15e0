//===- Jit.cpp - Kernels compiled from source at run time -----------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Specialization, the cache key, the disk-cache entry format and loading.
// A disk-cache entry's value is
//
//   ptx <bytes>\n<PTX>cubin <bytes>\n<cubin>
//
// and the key lists everything the compiled code depends on (Jit.h).
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Jit.h"

#include "ABI/Text.h"
#include "tilec/ABI/KernelABI.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#ifndef TILEC_BUILD_IDENTITY
#error "TILEC_BUILD_IDENTITY must name this build (set by CMake)"
#endif

using namespace tilec::rt;

const char *tilec::rt::buildIdentity() { return TILEC_BUILD_IDENTITY; }

KernelCompiler::~KernelCompiler() = default;

Expected<JitTuning> KernelCompiler::readTuning(const CompileRequest &request) {
  return Status::invalidArgument("kernel '" + request.Kernel +
                                 "': this compiler cannot read decorators");
}

Expected<JitHeuristics>
KernelCompiler::evaluateHeuristics(const CompileRequest &,
                                   const std::vector<std::string> &) {
  return JitHeuristics();
}

std::string JitConfig::name() const {
  return abi::configurationName(Constexprs, NumWarps, NumStages);
}

JitArg JitArg::tuple(std::vector<JitArg> elements) {
  JitArg arg(0);
  arg.IsTuple = true;
  arg.Elements = std::move(elements);
  return arg;
}

void JitArg::appendValues(std::vector<KernelArg> &values) const {
  if (!IsTuple) {
    values.push_back(Value);
    return;
  }
  for (const JitArg &element : Elements)
    element.appendValues(values);
}

/// The divisibility hint a pointer or integer earns: ':16' as Triton's
/// launcher gives it, else tilec's ':8' (rows of 16-bit elements that start
/// on 16 bytes: vector copies and TMA).
static unsigned alignmentHint(std::uint64_t bits) {
  return bits % 16 == 0 ? 16 : bits % 8 == 0 ? 8 : 0;
}

void JitArg::appendSpecialization(std::string &signature) const {
  if (!signature.empty())
    signature += ", ";
  if (IsTuple) {
    std::string elements;
    for (const JitArg &element : Elements)
      element.appendSpecialization(elements);
    signature += "(" + elements + (Elements.size() == 1 ? ",)" : ")");
    return;
  }
  std::uint64_t bits = Value.bits();
  ArgType type;
  switch (Value.kind()) {
  case KernelArg::Kind::Pointer:
    type = {true, DType, alignmentHint(bits)};
    break;
  case KernelArg::Kind::Signed:
  case KernelArg::Kind::Unsigned: {
    bool isSigned = Value.kind() == KernelArg::Kind::Signed;
    std::int64_t s = static_cast<std::int64_t>(bits);
    if (isSigned ? (s >= INT32_MIN && s <= INT32_MAX) : bits <= INT32_MAX)
      type.Elem = ScalarType::I32;
    else if (isSigned || bits <= static_cast<std::uint64_t>(INT64_MAX))
      type.Elem = ScalarType::I64;
    else
      type.Elem = ScalarType::U64;
    type.Hint = bits == 1 ? 1 : alignmentHint(bits);
    break;
  }
  case KernelArg::Kind::Float32:
    type.Elem = ScalarType::FP32;
    break;
  case KernelArg::Kind::Float64:
    type.Elem = ScalarType::FP64;
    break;
  case KernelArg::Kind::Half:
    type.Elem = ScalarType::FP16;
    break;
  case KernelArg::Kind::BFloat:
    type.Elem = ScalarType::BF16;
    break;
  case KernelArg::Kind::Descriptor:
    signature += Value.descriptor()->signatureEntry();
    return;
  }
  signature += type.str();
}

std::string JitArg::valueText() const {
  if (IsTuple)
    return "";
  if (IsTensor) {
    if (Shape.empty() && Strides.empty())
      return "";
    auto list = [](const std::vector<std::int64_t> &values) {
      std::string text;
      for (std::int64_t v : values)
        text += (text.empty() ? "" : ",") + std::to_string(v);
      return text;
    };
    return "tensor(" + std::string(scalarTypeName(DType)) + ";" + list(Shape) +
           ";" + list(Strides) + ")";
  }
  std::uint64_t bits = Value.bits();
  double value;
  switch (Value.kind()) {
  case KernelArg::Kind::Signed:
    return std::to_string(static_cast<std::int64_t>(bits));
  case KernelArg::Kind::Unsigned:
    return std::to_string(bits);
  case KernelArg::Kind::Float32: {
    float f;
    std::uint32_t word = static_cast<std::uint32_t>(bits);
    std::memcpy(&f, &word, sizeof f);
    value = f;
    break;
  }
  case KernelArg::Kind::Float64:
    std::memcpy(&value, &bits, sizeof value);
    break;
  default:
    return "";
  }
  if (!std::isfinite(value))
    return "";
  // Enough digits to read back the same double, and always a float.
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  std::string result = text;
  if (result.find_first_of(".e") == std::string::npos)
    result += ".0";
  return result;
}

/// One specialization loaded on one device.
/// A kernel loaded in one CUDA context, which Ctx keeps alive.
struct JitKernel::Loaded {
  Context Ctx;
  Module Mod;
  tilec::rt::Kernel Fn;
};

struct JitKernel::Autotuned {
  std::vector<JitConfig> Configs;
  /// The key's parameters: position among the arguments, name.
  std::vector<std::pair<std::size_t, std::string>> KeyArgs;
  std::unique_ptr<Autotuner> Tuner;
};

JitKernel::JitKernel(std::string sourceName, std::string source,
                     std::string kernel, KernelCompiler *compiler,
                     DiskCache cache, std::string arch)
    : SourceName(std::move(sourceName)), Source(std::move(source)),
      KernelName(std::move(kernel)), Compiler(compiler),
      Cache(std::move(cache)), Arch(std::move(arch)) {}

JitKernel::~JitKernel() = default;

Expected<std::unique_ptr<JitKernel>>
JitKernel::fromFile(const std::string &path, std::string kernel,
                    KernelCompiler *compiler, DiskCache cache,
                    std::string arch) {
  std::string source;
  if (Status read = readFile(path, source); !read.ok())
    return read;
  return std::make_unique<JitKernel>(path, std::move(source), std::move(kernel),
                                     compiler, std::move(cache),
                                     std::move(arch));
}

JitStats JitKernel::stats() const {
  std::lock_guard<std::mutex> guard(Lock);
  return Stats;
}

std::string JitKernel::cacheKey(const std::string &signature,
                                const JitConfig &config) const {
  std::string key = "tilec-jit 1\nbuild " + std::string(buildIdentity()) +
                    "\nkernel " + KernelName + "\nsignature " + signature +
                    "\narch " + Arch + "\nnum_warps " +
                    std::to_string(config.NumWarps) + "\nnum_stages " +
                    std::to_string(config.NumStages);
  for (const auto &[name, value] : config.Constexprs)
    key += "\nconstexpr " + name + "=" + value;
  return key + "\nsource\n" + Source;
}

/// Splits a disk-cache value into the PTX, the cubin and the imported
/// files.
static bool parseEntry(std::string_view value, CompiledKernel &out) {
  auto section = [&value](std::string_view tag, std::string &into) {
    if (value.substr(0, tag.size()) != tag)
      return false;
    value.remove_prefix(tag.size());
    std::size_t newline = value.find('\n');
    if (newline == std::string_view::npos)
      return false;
    std::string length(value.substr(0, newline));
    char *end = nullptr;
    unsigned long long bytes = std::strtoull(length.c_str(), &end, 10);
    if (length.empty() || *end != '\0' || bytes > value.size() - newline - 1)
      return false;
    into.assign(value.substr(newline + 1, bytes));
    value.remove_prefix(newline + 1 + bytes);
    return true;
  };
  if (!section("ptx ", out.Ptx) || !section("cubin ", out.Cubin))
    return false;
  while (!value.empty()) {
    std::pair<std::string, std::string> file;
    if (!section("import ", file.first) || !section("contents ", file.second))
      return false;
    out.Imports.push_back(std::move(file));
  }
  return true;
}

/// The disk-cache value of a compiled kernel (parseEntry reads it).
static std::string printEntry(const CompiledKernel &compiled) {
  auto section = [](std::string_view tag, const std::string &bytes) {
    return std::string(tag) + std::to_string(bytes.size()) + "\n" + bytes;
  };
  std::string value =
      section("ptx ", compiled.Ptx) + section("cubin ", compiled.Cubin);
  for (const auto &[path, contents] : compiled.Imports)
    value += section("import ", path) + section("contents ", contents);
  return value;
}

/// True while every file the kernel imported reads as when it compiled.
static bool importsUnchanged(const CompiledKernel &compiled) {
  for (const auto &[path, contents] : compiled.Imports) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return false;
    std::string now((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
    if (now != contents)
      return false;
  }
  return true;
}

Expected<CompiledKernel> JitKernel::compileOrLoad(const std::string &signature,
                                                  const JitConfig &config,
                                                  bool &fromDisk) {
  std::string key = cacheKey(signature, config);
  fromDisk = false;
  CacheEntry entry = Cache.lookup(key);
  if (entry.found()) {
    CompiledKernel compiled;
    if (!parseEntry(entry.Value, compiled)) {
      entry.EntryState = CacheEntry::State::Corrupt;
      entry.Problem =
          Cache.removeCorrupt(key, "its value is not a compiled kernel");
    } else if (importsUnchanged(compiled)) {
      ++Stats.FromDisk;
      fromDisk = true;
      return compiled;
    }
    // An imported file changed: compiled again, and the entry replaced.
  }
  std::string what = "kernel '" + KernelName + "' of " + SourceName +
                     " with signature '" + signature + "' and " + config.name();
  if (!Compiler && entry.corrupt())
    return Status::error(ErrorCode::NotFound,
                         what + ": " + entry.Problem +
                             " was removed, and this program has no compiler "
                             "to rebuild it (link tilec::jit)");
  if (!Compiler)
    return Status::error(ErrorCode::NotFound,
                         what + " is not in the cache '" + Cache.directory() +
                             "' and this program has no compiler (link "
                             "tilec::jit)");
  if (entry.corrupt())
    std::fprintf(stderr, "tilec: warning: %s: removed, recompiling\n",
                 entry.Problem.c_str());
  CompileRequest request{SourceName, Source, KernelName,
                         signature,  config, Arch};
  Expected<CompiledKernel> compiled = Compiler->compile(request);
  if (!compiled)
    return compiled;
  ++Stats.Compiled;
  // A cache that cannot be written costs a recompile next time, no more.
  if (Status stored = Cache.store(key, printEntry(*compiled)); !stored.ok())
    std::fprintf(stderr, "tilec: warning: %s\n", stored.message().c_str());
  return compiled;
}

Expected<const tilec::rt::Kernel *>
JitKernel::prepare(const Context &ctx, std::initializer_list<JitArg> args,
                   const JitConfig &config) {
  return prepare(ctx, args.begin(), args.size(), config);
}

Expected<JitConfig> JitKernel::withHeuristics(const std::string &signature,
                                              const JitConfig &config,
                                              const JitArg *args,
                                              std::size_t numArgs) {
  HeuristicMemo &memo = Heuristics[signature + "\n" + config.name()];
  auto valuesOf = [&](const std::vector<std::size_t> &reads) {
    std::string key;
    for (std::size_t i : reads)
      key += (i < numArgs ? args[i].valueText() : "") + "\n";
    return key;
  };
  auto valuesOfReads = [&] { return valuesOf(memo.Reads); };
  auto merged =
      [&](const std::vector<std::pair<std::string, std::string>> &values) {
        JitConfig full = config;
        full.Constexprs.insert(full.Constexprs.end(), values.begin(),
                               values.end());
        return full;
      };
  // Heuristics that read run-time arguments are recorded in the disk cache
  // (which arguments, then the values computed for theirs), so that a
  // program without a compiler launches what a compiling one did.
  std::string record = cacheKey(signature, config) + "\nheuristics ";
  if (!Compiler) {
    // Without a record, the heuristics read no run-time value: the
    // compiler computed them into the cached kernel.
    CacheEntry reads = Cache.lookup(record + "reads");
    if (!reads.found())
      return config;
    std::vector<std::size_t> positions;
    for (std::string_view field : text::split(reads.Value, ','))
      positions.push_back(
          std::strtoull(std::string(field).c_str(), nullptr, 10));
    std::string readValues = valuesOf(positions);
    CacheEntry values = Cache.lookup(record + "values\n" + readValues);
    if (!values.found())
      return Status::error(
          ErrorCode::NotFound,
          "kernel '" + KernelName +
              "': its @triton.heuristics read run-time arguments, and the "
              "cache '" +
              Cache.directory() +
              "' holds no result for this launch's values; this program has no "
              "compiler to evaluate them (link tilec::jit)");
    std::vector<std::pair<std::string, std::string>> bound;
    for (std::string_view line : text::split(values.Value, '\n')) {
      std::size_t eq = line.find('=');
      if (eq != std::string_view::npos)
        bound.emplace_back(std::string(line.substr(0, eq)),
                           std::string(line.substr(eq + 1)));
    }
    return merged(bound);
  }
  if (memo.Evaluated) {
    if (memo.Reads.empty())
      return config;
    auto found = memo.Values.find(valuesOfReads());
    if (found != memo.Values.end())
      return merged(found->second);
  }
  std::vector<std::string> values;
  for (std::size_t i = 0; i < numArgs; ++i)
    values.push_back(args[i].valueText());
  CompileRequest request{SourceName, Source, KernelName,
                         signature,  config, Arch};
  Expected<JitHeuristics> computed =
      Compiler->evaluateHeuristics(request, values);
  if (!computed)
    return computed.status();
  // Reads can depend on the values (a heuristic that branches): keyed by
  // the latest set, the earlier results are dropped.
  if (!memo.Evaluated || computed->Reads != memo.Reads) {
    memo.Reads = computed->Reads;
    memo.Values.clear();
  }
  memo.Evaluated = true;
  if (memo.Reads.empty())
    return config;
  memo.Values[valuesOfReads()] = computed->Values;
  std::string readList, bindings;
  for (std::size_t i : memo.Reads)
    readList += (readList.empty() ? "" : ",") + std::to_string(i);
  for (const auto &[name, value] : computed->Values)
    bindings += name + "=" + value + "\n";
  // A record that cannot be written only costs a cache-only program.
  (void)Cache.store(record + "reads", readList);
  (void)Cache.store(record + "values\n" + valuesOfReads(), bindings);
  return merged(computed->Values);
}

Expected<const tilec::rt::Kernel *>
JitKernel::prepare(const Context &ctx, const JitArg *args, std::size_t numArgs,
                   const JitConfig &launchConfig) {
  std::string signature;
  for (std::size_t i = 0; i < numArgs; ++i)
    args[i].appendSpecialization(signature);
  std::lock_guard<std::mutex> guard(Lock);
  Expected<JitConfig> withValues =
      withHeuristics(signature, launchConfig, args, numArgs);
  if (!withValues)
    return withValues.status();
  const JitConfig &config = *withValues;
  std::pair<void *, std::string> slot(ctx.handle(),
                                      signature + "\n" + config.name());
  auto found = Kernels.find(slot);
  if (found != Kernels.end()) {
    ++Stats.FromMemory;
    return &found->second->Fn;
  }

  bool fromDisk = false;
  Expected<CompiledKernel> compiled =
      compileOrLoad(signature, config, fromDisk);
  if (!compiled)
    return compiled.status();
  // The module lands in ctx's context (loading makes it current).
  std::string display = SourceName + ":" + KernelName + " [" + signature + "]";
  auto load =
      [&](const CompiledKernel &kernel) -> Expected<std::unique_ptr<Loaded>> {
    Expected<Module> module = [&]() -> Expected<Module> {
      if (kernel.Cubin.empty())
        return Module::loadPtx(ctx, kernel.Ptx, display);
      std::size_t lineEnd = kernel.Ptx.find('\n');
      Expected<KernelMetadata> meta =
          parseMetadataLine(std::string_view(kernel.Ptx).substr(0, lineEnd));
      if (!meta)
        return meta.status().withContext(display);
      // The cubin was assembled from the PTX stored with it.
      if (Status check = checkMetadataAgainstPtx({*meta}, kernel.Ptx);
          !check.ok())
        return check.withContext(display);
      return Module::loadImage(ctx, kernel.Cubin.data(), {meta.take()},
                               display);
    }();
    if (!module)
      return module.status();
    Expected<tilec::rt::Kernel> fn = module->getKernel(KernelName);
    if (!fn)
      return fn.status();
    Expected<Context> shared = ctx.share();
    if (!shared)
      return shared.status();
    return std::unique_ptr<Loaded>(
        new Loaded{shared.take(), module.take(), fn.take()});
  };
  Expected<std::unique_ptr<Loaded>> loaded = load(*compiled);
  // An entry from the disk that does not load (a zeroed cubin, metadata
  // that disagrees with it) is removed, and rebuilt where there is a
  // compiler.
  if (!loaded && fromDisk) {
    std::string key = cacheKey(signature, config);
    std::string problem = Cache.removeCorrupt(
        key, "it does not load: " + loaded.status().message());
    if (!Compiler)
      return Status::error(loaded.status().code(),
                           problem +
                               " was removed, and this program has no "
                               "compiler to rebuild it (link tilec::jit)");
    std::fprintf(stderr, "tilec: warning: %s: removed, recompiling\n",
                 problem.c_str());
    compiled = compileOrLoad(signature, config, fromDisk);
    if (!compiled)
      return compiled.status();
    loaded = load(*compiled);
  }
  if (!loaded)
    return loaded.status();
  auto &entry = Kernels[slot];
  entry = loaded.take();
  return &entry->Fn;
}

Status JitKernel::launch(const Context &ctx, Dim3 grid,
                         std::initializer_list<JitArg> args,
                         const JitConfig &config, const Stream *stream,
                         const LaunchOptions &options) {
  return launch(ctx, grid, args.begin(), args.size(), config, stream, options);
}

Status JitKernel::launch(const Context &ctx, Dim3 grid, const JitArg *args,
                         std::size_t numArgs, const JitConfig &config,
                         const Stream *stream, const LaunchOptions &options) {
  Expected<const tilec::rt::Kernel *> kernel =
      prepare(ctx, args, numArgs, config);
  if (!kernel)
    return kernel.status();
  std::vector<KernelArg> values;
  values.reserve(numArgs);
  for (std::size_t i = 0; i < numArgs; ++i)
    args[i].appendValues(values);
  return (*kernel)->launch(grid, values.data(), values.size(), stream, options);
}

Status JitKernel::launchTuned(const Context &ctx,
                              FunctionRef<Dim3(const JitConfig &)> grid,
                              std::initializer_list<JitArg> args,
                              const std::vector<JitConfig> &configs,
                              Autotuner &tuner, std::string_view key,
                              const Stream *stream,
                              const LaunchOptions &options) {
  return launchTuned(ctx, grid, args.begin(), args.size(), configs, tuner, key,
                     stream, options);
}

Expected<JitKernel::Autotuned *> JitKernel::autotuned() {
  std::lock_guard<std::mutex> guard(Lock);
  if (Tuning)
    return Tuning.get();
  if (!Compiler)
    return Status::invalidArgument(
        "kernel '" + KernelName +
        "': reading its @triton.autotune needs a compiler");
  CompileRequest request;
  request.SourceName = SourceName;
  request.Source = Source;
  request.Kernel = KernelName;
  request.Arch = Arch;
  Expected<JitTuning> tuning = Compiler->readTuning(request);
  if (!tuning)
    return tuning.status();
  if (tuning->Configs.empty())
    return Status::invalidArgument("kernel '" + KernelName +
                                   "' has no @triton.autotune configurations");
  auto result = std::make_unique<Autotuned>();
  result->Configs = std::move(tuning->Configs);
  for (const std::string &name : tuning->Key)
    for (std::size_t i = 0; i < tuning->Params.size(); ++i)
      if (tuning->Params[i] == name)
        result->KeyArgs.emplace_back(i, name);
  std::vector<std::string> names;
  for (const JitConfig &config : result->Configs)
    names.push_back(config.name());
  result->Tuner = std::make_unique<Autotuner>(KernelName, std::move(names));
  Tuning = std::move(result);
  return Tuning.get();
}

Expected<const std::vector<JitConfig> *> JitKernel::autotuneConfigs() {
  Expected<Autotuned *> tuned = autotuned();
  if (!tuned)
    return tuned.status();
  return &(*tuned)->Configs;
}

Status JitKernel::launchAutotuned(const Context &ctx,
                                  FunctionRef<Dim3(const JitConfig &)> grid,
                                  std::initializer_list<JitArg> args,
                                  const Stream *stream,
                                  const LaunchOptions &options) {
  Expected<Autotuned *> tuned = autotuned();
  if (!tuned)
    return tuned.status();
  // The integer arguments of the key, as generated launchers spell it.
  std::string key;
  for (const auto &[index, name] : (*tuned)->KeyArgs) {
    if (index >= args.size())
      continue;
    const KernelArg &value = args.begin()[index].value();
    if (value.kind() == KernelArg::Kind::Signed)
      key += (key.empty() ? "" : ",") + name + "=" +
             std::to_string(static_cast<std::int64_t>(value.bits()));
    else if (value.kind() == KernelArg::Kind::Unsigned)
      key +=
          (key.empty() ? "" : ",") + name + "=" + std::to_string(value.bits());
  }
  return launchTuned(ctx, grid, args.begin(), args.size(), (*tuned)->Configs,
                     *(*tuned)->Tuner, key, stream, options);
}

Status JitKernel::launchTuned(const Context &ctx,
                              FunctionRef<Dim3(const JitConfig &)> grid,
                              const JitArg *args, std::size_t numArgs,
                              const std::vector<JitConfig> &configs,
                              Autotuner &tuner, std::string_view key,
                              const Stream *stream,
                              const LaunchOptions &options) {
  if (tuner.configNames().size() != configs.size())
    return Status::invalidArgument(
        "kernel '" + KernelName + "': the tuner has " +
        std::to_string(tuner.configNames().size()) + " configurations, " +
        std::to_string(configs.size()) + " were given");
  auto run = [&](unsigned config) {
    return launch(ctx, grid(configs[config]), args, numArgs, configs[config],
                  stream, options);
  };
  Expected<unsigned> chosen = tuner.choose(ctx, key, run, stream);
  if (!chosen)
    return chosen.status();
  return run(*chosen);
}
