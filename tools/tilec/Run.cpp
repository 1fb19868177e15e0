//===- Run.cpp - The `tilec run` subcommand ---------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// `tilec run FILE.tile --interpret [-k NAME] [-s SIG] [-D N=V]...
// [--grid X[,Y[,Z]]] [--seed N] [--print N|all] [--output-dir DIR] ARG...`
// runs a kernel in the interpreter, one ARG per non-constexpr parameter:
//
//   TYPE[N]          a buffer of N elements, zeros (fp32[1000], i32[16])
//   TYPE[N]:INIT     INIT is zeros, rand (uniform in [-1, 1), integers in
//                    [-8, 8)), iota (0, 1,
//                    2, ...), a number (every element), or @FILE (its raw
//                    little-endian elements; the size must match)
//   TYPE=VALUE       a scalar (i32=1000, fp32=0.5)
//   (ARG, ...)       a tuple argument, its elements in order (nested ones
//                    too; `(i32=4,)` has one)
//
// Without --signature the signature follows from the arguments (`*fp32`
// for an fp32 buffer, `i32` for an i32 scalar). Afterwards every buffer is
// printed (its first --print elements), and written to DIR/NAME.bin with
// --output-dir.
//
//===----------------------------------------------------------------------===//

#include "Run.h"
#include "Defines.h"

#include "tilec/Interpreter/Interpreter.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace llvm;
using namespace tilec;
using namespace tilec::interp;

static cl::SubCommand
    runCommand("run", "Run a kernel: tilec run FILE.tile --interpret ARG...");
static cl::OptionCategory runCategory("tilec run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.tile>"),
                                      cl::Required, cl::sub(runCommand),
                                      cl::cat(runCategory));
static cl::list<std::string>
    arguments(cl::Positional,
              cl::desc("<TYPE[N][:INIT] | TYPE=VALUE>... (INIT: "
                       "zeros, rand, iota, a number, "
                       "@FILE)"),
              cl::sub(runCommand), cl::cat(runCategory));
static cl::opt<bool> runDebug(
    "debug",
    cl::desc("Triton's debug mode: tl.device_assert checks its condition"),
    cl::sub(runCommand), cl::cat(runCategory));
static cl::opt<bool> interpret("interpret",
                               cl::desc("Run in the CPU interpreter"),
                               cl::sub(runCommand), cl::cat(runCategory));
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("Kernel to run (the file's "
                                                "only one by default)"),
                                       cl::value_desc("name"),
                                       cl::sub(runCommand),
                                       cl::cat(runCategory));
static cl::alias kernelNameShort("k", cl::aliasopt(kernelName),
                                 cl::desc("Alias for --kernel"));
static cl::opt<std::string>
    signature("signature",
              cl::desc("Triton signature (default: from the arguments)"),
              cl::value_desc("sig"), cl::sub(runCommand), cl::cat(runCategory));
static cl::alias signatureShort("s", cl::aliasopt(signature),
                                cl::desc("Alias for --signature"));
static cl::list<std::string>
    includeDirs("I", cl::Prefix,
                cl::desc("Also look for imported modules in <dir> (after the "
                         "kernel file's directory)"),
                cl::value_desc("dir"), cl::sub(runCommand),
                cl::cat(runCategory));
static cl::list<std::string> defines("D", cl::Prefix,
                                     cl::desc("Bind a constexpr parameter"),
                                     cl::value_desc("NAME=VALUE"),
                                     cl::sub(runCommand), cl::cat(runCategory));
static cl::opt<std::string> grid("grid",
                                 cl::desc("Programs along x, y and z "
                                          "(default 1)"),
                                 cl::value_desc("X[,Y[,Z]]"), cl::init("1"),
                                 cl::sub(runCommand), cl::cat(runCategory));
static cl::opt<unsigned> seed("seed", cl::desc("Seed of ':rand' buffers"),
                              cl::init(0), cl::sub(runCommand),
                              cl::cat(runCategory));
static cl::opt<std::string> printCount("print",
                                       cl::desc("Elements of each buffer to "
                                                "print: a number or 'all' "
                                                "(default 8)"),
                                       cl::value_desc("N|all"), cl::init("8"),
                                       cl::sub(runCommand),
                                       cl::cat(runCategory));
static cl::opt<std::string> outputDir("output-dir",
                                      cl::desc("Write each buffer to "
                                               "DIR/NAME.bin after the run"),
                                      cl::value_desc("dir"),
                                      cl::sub(runCommand),
                                      cl::cat(runCategory));

bool tilec::isRunCommand() { return static_cast<bool>(runCommand); }

static int usageError(const Twine &message) {
  WithColor::error(errs(), "tilec run") << message << "\n";
  return 1;
}

namespace {
/// A parsed command-line argument: a buffer to create or a scalar.
struct ArgSpec {
  ScalarType type;
  bool isBuffer = false;
  std::unique_ptr<Buffer> buffer;
  Argument arg = Argument::ofInt(0);
};
} // namespace

/// Fills `buffer` as `init` says (see the file comment).
static Error initialize(Buffer &buffer, StringRef init, unsigned stream) {
  if (init.empty() || init == "zeros")
    return Error::success();
  if (init == "rand") {
    std::mt19937 generator(seed * 7919u + stream);
    // Floats uniform in [-1, 1), integers uniform in [-8, 8).
    bool floats = abi::isFloatType(buffer.getType());
    for (size_t i = 0; i < buffer.size(); ++i) {
      double u = (generator() >> 8) * 0x1p-23 - 1.0;
      buffer.set(i, floats ? u : std::floor(8.0 * u));
    }
    return Error::success();
  }
  if (init == "iota") {
    for (size_t i = 0; i < buffer.size(); ++i)
      buffer.set(i, static_cast<double>(i));
    return Error::success();
  }
  if (init.consume_front("@")) {
    auto file = MemoryBuffer::getFile(init, /*IsText=*/false);
    if (std::error_code ec = file.getError())
      return createStringError("cannot open '" + init + "': " + ec.message());
    StringRef data = (*file)->getBuffer();
    if (data.size() != buffer.getBytes().size())
      return createStringError(
          "'" + init + "' holds " + Twine(data.size()) + " bytes, not the " +
          Twine(buffer.getBytes().size()) + " of the buffer");
    llvm::copy(data, buffer.getBytes().begin());
    return Error::success();
  }
  double value;
  if (init.getAsDouble(value))
    return createStringError("unknown buffer contents '" + init +
                             "' (zeros, rand, iota, a number or @FILE)");
  for (size_t i = 0; i < buffer.size(); ++i)
    buffer.set(i, value);
  return Error::success();
}

/// Parses `TYPE[N][:INIT]` or `TYPE=VALUE`.
static Expected<ArgSpec> parseArgument(StringRef text, unsigned index) {
  ArgSpec spec;
  size_t typeEnd = text.find_first_of("[=");
  StringRef typeName = text.take_front(typeEnd);
  auto type = abi::lookupScalarType(typeName);
  if (!type || typeEnd == StringRef::npos)
    return createStringError(
        "cannot parse the argument '" + text +
        "': expected TYPE[N], TYPE[N]:INIT or TYPE=VALUE (such as "
        "fp32[1000]:rand or i32=1000)");
  spec.type = *type;
  StringRef rest = text.drop_front(typeEnd);
  if (rest.consume_front("=")) {
    int64_t intValue;
    double floatValue;
    if (!abi::isFloatType(*type) && !rest.getAsInteger(0, intValue))
      spec.arg = Argument::ofInt(intValue);
    else if (abi::isFloatType(*type) && !rest.getAsDouble(floatValue))
      spec.arg = Argument::ofFloat(floatValue);
    else
      return createStringError("cannot parse the " +
                               Twine(abi::scalarTypeName(*type)) + " value '" +
                               rest + "'");
    return std::move(spec);
  }
  auto [count, init] = rest.drop_front().split(']');
  uint64_t n;
  if (count.getAsInteger(10, n) || !(init.empty() || init.consume_front(":")))
    return createStringError("cannot parse the buffer '" + text +
                             "': expected TYPE[N] or TYPE[N]:INIT");
  if (!Buffer::fits(*type, n))
    return createStringError("the buffer '" + text +
                             "' is too large: the interpreter runs "
                             "kernels on buffers of at most " +
                             Twine(Buffer::kMaxBytes >> 30) + " GiB");
  spec.isBuffer = true;
  spec.buffer = std::make_unique<Buffer>(*type, n);
  if (Error error = initialize(*spec.buffer, init, index))
    return std::move(error);
  spec.arg = Argument::ofBuffer(*spec.buffer);
  return std::move(spec);
}

/// Parses ARG, or a tuple of them, `(ARG, ...)` (nested ones too), into
/// `specs` (a tuple's elements in order) and its signature entry into
/// `entry`; `index` counts the buffers' streams.
static Error parseArguments(StringRef text, std::vector<ArgSpec> &specs,
                            std::string &entry, unsigned &index) {
  text = text.trim();
  if (!text.starts_with("(") || !text.ends_with(")")) {
    auto spec = parseArgument(text, index++);
    if (!spec)
      return spec.takeError();
    entry = std::string(spec->isBuffer ? "*" : "") +
            abi::scalarTypeName(spec->type);
    specs.push_back(std::move(*spec));
    return Error::success();
  }
  // The elements: split at the commas outside parentheses and brackets.
  StringRef inner = text.drop_front().drop_back().trim();
  if (inner.ends_with(","))
    inner = inner.drop_back();
  SmallVector<StringRef> elements;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    char c = inner[i];
    depth += c == '(' || c == '[';
    depth -= c == ')' || c == ']';
    if (c == ',' && depth == 0) {
      elements.push_back(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (!inner.trim().empty())
    elements.push_back(inner.drop_front(start));
  entry = "(";
  for (auto [i, element] : llvm::enumerate(elements)) {
    std::string inside;
    if (Error error = parseArguments(element, specs, inside, index))
      return error;
    entry += (i ? ", " : "") + inside;
  }
  entry += elements.size() == 1 ? ",)" : ")";
  return Error::success();
}

/// Prints the first `count` elements of `buffer` (integers exactly, floats
/// with 6 significant digits).
static void printBuffer(raw_ostream &os, StringRef name, const Buffer &buffer,
                        size_t count) {
  os << name << ": " << abi::scalarTypeName(buffer.getType()) << "["
     << buffer.size() << "] = [";
  size_t shown = std::min(count, buffer.size());
  bool integers = abi::isIntegerType(buffer.getType());
  for (size_t i = 0; i < shown; ++i) {
    os << (i ? ", " : "");
    if (integers)
      os << int64_t(buffer.get(i));
    else
      os << format("%g", buffer.get(i));
  }
  os << (shown < buffer.size() ? (shown ? ", ...]" : "...]") : "]") << "\n";
}

int tilec::runMain() {
  if (!interpret)
    return usageError("only the interpreter can run kernels: pass "
                      "--interpret (GPU runs go through the runtime, see "
                      "examples/host)");
  std::array<unsigned, 3> gridDims = {1, 1, 1};
  SmallVector<StringRef> gridParts;
  StringRef(grid).split(gridParts, ',');
  if (gridParts.size() > 3)
    return usageError("--grid expects X[,Y[,Z]], not '" + grid + "'");
  for (auto [i, part] : llvm::enumerate(gridParts))
    if (part.trim().getAsInteger(10, gridDims[i]) || gridDims[i] == 0)
      return usageError("--grid expects positive X[,Y[,Z]], not '" + grid +
                        "'");
  size_t printLimit = SIZE_MAX;
  if (printCount != "all" && StringRef(printCount).getAsInteger(10, printLimit))
    return usageError("--print expects a number or 'all', not '" + printCount +
                      "'");

  std::vector<ArgSpec> specs;
  std::string derived;
  KernelConfig config;
  unsigned streams = 0;
  for (auto [i, text] : llvm::enumerate(arguments)) {
    std::string entry;
    size_t first = specs.size();
    if (Error error = parseArguments(text, specs, entry, streams))
      return usageError(toString(std::move(error)));
    derived += (i ? ", " : "") + entry;
    // A scalar's value, which @triton.heuristics may read.
    bool scalar = specs.size() == first + 1 && !specs.back().isBuffer &&
                  !StringRef(text).trim().starts_with("(");
    config.runtimeValues.push_back(
        scalar ? StringRef(text).split('=').second.trim().str() : "");
  }

  config.name = kernelName;
  config.debug = runDebug;
  auto entries =
      abi::parseSignatureEntries(signature.empty() ? derived : signature);
  if (!entries)
    return usageError(entries.status().message());
  config.signature = entries.take();
  // A tuple entry of --signature may take its elements as separate
  // arguments; the heuristics see the launch values of the other entries.
  size_t runtimeEntries = llvm::count_if(
      config.signature, [](const SignatureEntry &e) { return !e.IsConstant; });
  if (!signature.empty() && config.runtimeValues.size() != runtimeEntries) {
    std::vector<std::string> entryValues;
    size_t flat = 0;
    for (const SignatureEntry &entry : config.signature) {
      if (entry.IsConstant)
        continue;
      entryValues.push_back(!entry.IsTuple && flat < config.runtimeValues.size()
                                ? config.runtimeValues[flat]
                                : "");
      flat += entry.IsTuple ? abi::flatTypes(entry).size() : 1;
    }
    config.runtimeValues = std::move(entryValues);
  }
  if (std::string error = tilec::addDefines(defines, config.defines);
      !error.empty())
    return usageError(error);

  auto file = MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (std::error_code ec = file.getError())
    return usageError("cannot open '" + inputFile + "': " + ec.message());
  SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(std::move(*file), SMLoc());
  srcMgr.setIncludeDirs(includeDirs);
  std::unique_ptr<Kernel> kernel = Kernel::create(srcMgr, config, errs());
  if (!kernel)
    return 1;
  SmallVector<Argument> args;
  for (const ArgSpec &spec : specs)
    args.push_back(spec.arg);
  if (failed(kernel->run(gridDims, args)))
    return 1;

  const KernelInfo &info = kernel->getInfo();
  outs() << "ran " << info.name << " on a " << gridDims[0] << "x" << gridDims[1]
         << "x" << gridDims[2] << " grid in the interpreter\n";
  for (auto [name, spec] : llvm::zip_equal(info.argNames, specs)) {
    if (!spec.isBuffer)
      continue;
    printBuffer(outs(), name, *spec.buffer, printLimit);
    if (outputDir.empty())
      continue;
    if (std::error_code ec = sys::fs::create_directories(outputDir))
      return usageError("cannot create '" + outputDir + "': " + ec.message());
    SmallString<128> path(outputDir);
    sys::path::append(path, name + ".bin");
    std::error_code ec;
    raw_fd_ostream out(path, ec, sys::fs::OF_None);
    if (ec)
      return usageError("cannot write '" + path + "': " + ec.message());
    const std::vector<uint8_t> &bytes = spec.buffer->getBytes();
    out.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  }
  return 0;
}
