//===- tilec.cpp - The tilec compiler driver --------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Command line: `tilec FILE.tile [-k NAME] [--signature SIG] [-D N=V]
// [--num-warps W] [--arch sm_90a]
// [--emit ast|tile|tile-gpu|llvm-mlir|llvm|ptx|cubin|header]
// [--ptxas-report] [--Werror=ptxas] [-Wno-tf32] [-Wno-block-ptr] [-Wno-spills]
// [--triton-compat=3.9] [-o OUT|-]`. PTX goes to FILE.ptx (a
// cubin to FILE.cubin) in the current directory unless -o says otherwise;
// every other stage goes to standard output. `tilec run` runs a kernel
// instead (Run.cpp); `tilec --rewrite-block-ptrs FILE.tile [-o OUT]` rewrites
// the file's block pointers into tensor descriptors.
//
//===----------------------------------------------------------------------===//

#include "Defines.h"
#include "Run.h"

#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Driver/Driver.h"
#include "tilec/Driver/Launcher.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Parser.h"
#include "tilec/Frontend/RewriteBlockPointers.h"
#include "tilec/Target/Cubin.h"
#include "tilec/Target/PtxasReport.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::OptionCategory category("tilec options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.tile>"),
                                      cl::cat(category));
static cl::opt<bool> listBuiltins(
    "list-builtins",
    cl::desc("Print the index of the tl.* functions (Markdown) and exit"),
    cl::cat(category));
static cl::opt<std::string> kernelName("kernel",
                                       cl::desc("Kernel to compile (the "
                                                "file's only one by default)"),
                                       cl::value_desc("name"),
                                       cl::cat(category));
static cl::alias kernelNameShort("k", cl::aliasopt(kernelName),
                                 cl::desc("Alias for --kernel"));
static cl::opt<std::string>
    signature("signature",
              cl::desc("Triton signature of the non-constexpr parameters, "
                       "e.g. '*fp32:16, *fp32:16, i32'"),
              cl::value_desc("sig"), cl::cat(category));
static cl::alias signatureShort("s", cl::aliasopt(signature),
                                cl::desc("Alias for --signature"));
static cl::list<std::string> defines("D", cl::Prefix,
                                     cl::desc("Bind a constexpr parameter"),
                                     cl::value_desc("NAME=VALUE"),
                                     cl::cat(category));
static cl::list<std::string>
    includeDirs("I", cl::Prefix,
                cl::desc("Also look for imported modules in <dir> (after the "
                         "kernel file's directory)"),
                cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string> depFile(
    "depfile",
    cl::desc("Also write a Makefile rule 'OUTPUT: FILE.tile IMPORTED...' "
             "to <file>, for build systems (CMake's DEPFILE)"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<unsigned> numWarps("num-warps",
                                  cl::desc("Warps per program (default 4)"),
                                  cl::init(4), cl::cat(category));
static cl::alias numWarpsShort("w", cl::aliasopt(numWarps),
                               cl::desc("Alias for --num-warps"));
static cl::opt<unsigned>
    numStages("num-stages",
              cl::desc("Shared-memory stages of pipelined tl.dot loops on "
                       "sm_90a (default 3; 0 or 1: not pipelined)"),
              cl::init(3), cl::cat(category));
static cl::opt<bool> pointerTma(
    "pointer-tma",
    cl::desc("On sm_90a, copy tl.dot operands that pointer loads read as a "
             "block of a 2-D tensor with TMA (default true; false: cp.async)"),
    cl::init(true), cl::cat(category));

static cl::opt<bool> pingPong(
    "ping-pong",
    cl::desc("Experimental (measured slower or even on an H100): in "
             "attention loops whose p @ v is deferred (HEAD_DIM 128), guard "
             "the K/V ring with mbarriers instead of a barrier an iteration "
             "and let the two warp groups issue their products in turn "
             "(FlashAttention-3's ping-pong)"),
    cl::init(false), cl::cat(category));

static cl::opt<bool> batchedTma(
    "batched-tma",
    cl::desc("On sm_90a, copy and store blocks whose base is an argument "
             "moved by program ids (a head, a matrix of a batch) with TMA "
             "maps of several dimensions (default true; measured on an H100: "
             "attention's stores 1-6% faster, a batched GEMM 2x)"),
    cl::init(true), cl::cat(category));

static cl::opt<bool> multiProductTma(
    "multi-product-tma",
    cl::desc("Experimental (measured slower at HEAD_DIM 128 on an H100): "
             "fill the rings of loops of several tl.dot (attention) with TMA "
             "when every operand they load is a descriptor load"),
    cl::init(false), cl::cat(category));

static cl::opt<unsigned> programGroup(
    "program-group",
    cl::desc("In kernels with a tl.dot that read program ids along axes 0 "
             "and 1: run programs in groups of this many ids along axis 0 "
             "across axis 1, which share operand tiles in L2 (default 8; 0 "
             "or 1: launch order)"),
    cl::init(8), cl::cat(category));
static cl::opt<std::string> arch("arch",
                                 cl::desc("GPU architecture (default sm_90a)"),
                                 cl::init("sm_90a"), cl::cat(category));
static cl::opt<std::string> libdevicePath(
    "libdevice",
    cl::desc("CUDA's libdevice bitcode, linked when a kernel calls libdevice "
             "(default: $TILEC_LIBDEVICE, else "
             "nvvm/libdevice/libdevice.10.bc of $CUDA_HOME or the CUDA "
             "toolkit)"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> debugMode(
    "debug",
    cl::desc("Triton's debug mode (TRITON_DEBUG=1): tl.device_assert checks "
             "its condition on the GPU and in the interpreter"),
    cl::cat(category));
static cl::opt<bool> noTf32Warning(
    "Wno-tf32",
    cl::desc("Do not warn where an fp32 tl.dot uses tf32 by default"),
    cl::cat(category));
static cl::opt<bool> noBlockPtrWarning(
    "Wno-block-ptr",
    cl::desc("Do not warn that Triton 3.9 removed tl.make_block_ptr"),
    cl::cat(category));
static cl::opt<bool> noSpillWarning(
    "Wno-spills",
    cl::desc("Do not run ptxas on the PTX to warn when a kernel spills "
             "registers (the default when ptxas is found)"),
    cl::cat(category));
static cl::opt<std::string> tritonCompat(
    "triton-compat",
    cl::desc("Accept what this Triton version accepts: '3.9' makes "
             "tl.make_block_ptr an error"),
    cl::value_desc("version"), cl::cat(category));
static cl::opt<bool> rewriteBlockPtrs(
    "rewrite-block-ptrs",
    cl::desc("Write the file with its block pointers rewritten into tensor "
             "descriptors where that is exact (to -o, else standard output); "
             "warn about each one left"),
    cl::cat(category));
static cl::opt<std::string>
    ptxVersion("ptx-version",
               cl::desc("PTX ISA version feature (default +ptx80)"),
               cl::cat(category));
static cl::opt<bool> fpFusion(
    "fp-fusion",
    cl::desc("Contract a * b + c into fused multiply-adds, as Triton does "
             "(default true; --fp-fusion=false is Triton's "
             "enable_fp_fusion=False)"),
    cl::init(true), cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::Prefix,
                                  cl::desc("LLVM optimisation level (0-3)"),
                                  cl::init(3), cl::cat(category));
static cl::opt<tilec::EmitKind>
    emit("emit", cl::desc("Stage to output"), cl::init(tilec::EmitKind::PTX),
         cl::values(clEnumValN(tilec::EmitKind::AST, "ast", "the syntax tree"),
                    clEnumValN(tilec::EmitKind::Tile, "tile", "tile IR"),
                    clEnumValN(tilec::EmitKind::TileGPU, "tile-gpu",
                               "tile IR with layouts"),
                    clEnumValN(tilec::EmitKind::LLVMMLIR, "llvm-mlir",
                               "the LLVM and NVVM dialects"),
                    clEnumValN(tilec::EmitKind::LLVM, "llvm", "LLVM IR"),
                    clEnumValN(tilec::EmitKind::PTX, "ptx", "PTX (default)"),
                    clEnumValN(tilec::EmitKind::Cubin, "cubin",
                               "a cubin, the PTX assembled by ptxas"),
                    clEnumValN(tilec::EmitKind::Header, "header",
                               "C++ launchers with the PTX embedded "
                               "(OUT.h and OUT.cpp)")),
         cl::cat(category));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("Output file ('-' for "
                                                "standard output)"),
                                       cl::value_desc("file"),
                                       cl::cat(category));

static cl::opt<bool> ptxasReport(
    "ptxas-report",
    cl::desc("Run ptxas -v on the PTX and print, to standard error, one line "
             "per kernel: registers, spill stores and loads, stack and shared "
             "memory (static + tilec's dynamic) in bytes, barriers, then "
             "ptxas's notes verbatim (with --emit=ptx or cubin)"),
    cl::cat(category));
static cl::list<std::string> werror(
    "Werror", cl::CommaSeparated,
    cl::desc("Turn warnings into errors: 'ptxas' fails the compilation when "
             "ptxas spills registers or prints a note or warning (such as "
             "wgmma serialization, 'Potential Performance Loss')"),
    cl::value_desc("ptxas"), cl::cat(category));

/// Reports a command-line error in the compiler's diagnostic style.
static int usageError(const Twine &message) {
  WithColor::error(errs(), "tilec") << message << "\n";
  return 1;
}

/// Writes `text` to `path` ('-': standard output); reports a failure to
/// open or to write (a full disk, a closed pipe) as an error instead of
/// LLVM's fatal one. Returns the exit status.
static int writeOutput(StringRef path, StringRef text, bool binary = false) {
  std::error_code ec;
  ToolOutputFile out(path, ec, binary ? sys::fs::OF_None : sys::fs::OF_Text);
  if (ec)
    return usageError("cannot write '" + path + "': " + ec.message());
  out.os() << text;
  out.os().flush();
  if (out.os().has_error()) {
    std::string reason = out.os().error().message();
    out.os().clear_error();
    return usageError("cannot write '" + path + "': " + reason);
  }
  out.keep();
  return 0;
}

// --emit=header (tilec/Driver/Launcher.h).
static cl::list<std::string>
    specializations("specialize",
                    cl::desc("With --emit=header: another variant of the "
                             "signature, with other hints"),
                    cl::value_desc("sig"), cl::cat(category));
static cl::list<std::string>
    configs("config",
            cl::desc("With --emit=header: a configuration, NAME=VALUE,... "
                     "with num_warps=N and num_stages=S (several are tuned)"),
            cl::value_desc("items"), cl::cat(category));
static cl::list<std::string>
    tuneKey("tune-key", cl::CommaSeparated,
            cl::desc("With --emit=header: parameters whose values key the "
                     "tuned configuration"),
            cl::value_desc("names"), cl::cat(category));
static cl::opt<std::string>
    tuningFile("tuning",
               cl::desc("With --emit=header: a tuning file whose choices "
                        "are baked in"),
               cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    cppNamespace("namespace",
                 cl::desc("With --emit=header: the C++ namespace "
                          "(default tilec_kernels)"),
                 cl::init("tilec_kernels"), cl::cat(category));
static cl::opt<bool>
    embedCubin("cubin",
               cl::desc("With --emit=header: embed cubins assembled by ptxas "
                        "instead of PTX"),
               cl::cat(category));

/// Writes OUT.h and OUT.cpp for --emit=header.
static int emitHeader(SourceMgr &srcMgr, const tilec::CompileOptions &options,
                      StringRef outputBase) {
  tilec::LauncherOptions launcher;
  launcher.variants.push_back(options.kernel.signature);
  for (const std::string &text : specializations) {
    auto entries = tilec::abi::parseSignatureEntries(text);
    if (!entries)
      return usageError(entries.status().message());
    launcher.variants.push_back(entries.take());
  }
  tilec::LauncherConfig base;
  base.numWarps = options.pipeline.numWarps;
  base.numStages = options.pipeline.numStages;
  // In the order given, with the values main() read (addDefines).
  for (const std::string &define : defines) {
    StringRef name = StringRef(define).split('=').first.trim();
    if (llvm::none_of(base.constexprs,
                      [&](const auto &bound) { return bound.first == name; }))
      base.constexprs.emplace_back(name.str(),
                                   options.kernel.defines.lookup(name));
  }
  // Without --config, @triton.autotune's configurations (with -D's
  // bindings first) and key.
  if (configs.empty()) {
    FailureOr<tilec::KernelTuning> tuning =
        tilec::readTuning(srcMgr, options.kernel, errs());
    if (failed(tuning))
      return 1;
    for (const tilec::AutotuneConfig &autotune : tuning->configs) {
      tilec::LauncherConfig config = base;
      for (const auto &[name, value] : autotune.constexprs)
        if (!options.kernel.defines.count(name))
          config.constexprs.emplace_back(name, value);
      config.numWarps = autotune.numWarps;
      config.numStages = autotune.numStages;
      launcher.configs.push_back(std::move(config));
    }
    launcher.autotuneKey = tuning->key;
  }
  if (launcher.configs.empty() && configs.empty())
    launcher.configs.push_back(base);
  for (const std::string &text : configs) {
    auto config = tilec::parseLauncherConfig(text, base);
    if (!config)
      return usageError(toString(config.takeError()));
    launcher.configs.push_back(std::move(*config));
  }
  launcher.tuneKey.assign(tuneKey.begin(), tuneKey.end());
  launcher.tuningFile = tuningFile;
  launcher.cppNamespace = cppNamespace;
  launcher.headerInclude = (sys::path::filename(outputBase) + ".h").str();
  launcher.arch = options.ptx.arch;
  launcher.cubin = embedCubin;
  if (embedCubin) {
    launcher.ptxas = tilec::findPtxas();
    if (launcher.ptxas.empty())
      return usageError("--cubin needs ptxas (set CUDA_HOME or PATH)");
  }

  std::string header, source;
  raw_string_ostream headerOS(header), sourceOS(source);
  if (failed(
          tilec::emitLaunchers(srcMgr, options, launcher, headerOS, sourceOS)))
    return 1;
  using Output = std::pair<StringRef, StringRef>;
  for (auto [suffix, text] : {Output(".h", header), Output(".cpp", source)})
    if (int status = writeOutput((outputBase + suffix).str(), text))
      return status;
  return 0;
}

/// --emit=cubin, --ptxas-report, --Werror=ptxas and the spill warning:
/// compiles to PTX, runs ptxas (with -v for a report), prints the report or
/// warns of spills, and writes the PTX or the cubin to `output`, unless
/// --Werror=ptxas rejects the kernel. Without ptxas, PTX asked for only
/// with the spill warning is written without it.
static int assembleWithPtxas(SourceMgr &srcMgr,
                             const tilec::CompileOptions &options,
                             StringRef output, bool werrorPtxas,
                             bool warnSpills) {
  std::string ptxas = tilec::findPtxas();
  bool needed =
      options.emit == tilec::EmitKind::Cubin || ptxasReport || werrorPtxas;
  if (ptxas.empty() && !needed) {
    std::string text;
    raw_string_ostream os(text);
    if (failed(tilec::compile(srcMgr, options, os)))
      return 1;
    return writeOutput(output, text);
  }
  if (ptxas.empty()) {
    StringRef what = emit == tilec::EmitKind::Cubin ? "--emit=cubin"
                     : ptxasReport                  ? "--ptxas-report"
                                                    : "--Werror=ptxas";
    return usageError(what + " needs ptxas, which was not found (looked at "
                             "$CUDA_HOME/bin, /usr/local/cuda/bin and PATH)");
  }
  FailureOr<tilec::CompiledPTX> compiled =
      tilec::compileToPTX(srcMgr, options, errs());
  if (failed(compiled))
    return 1;
  bool verbose = ptxasReport || werrorPtxas || warnSpills;
  std::string log;
  Expected<std::string> cubin = tilec::assembleCubin(
      compiled->ptx, options.ptx.arch, ptxas, verbose ? &log : nullptr);
  if (!cubin && !needed) {
    // Only the spill check wanted ptxas: the PTX is written all the same
    // (the driver that loads it may accept what this ptxas does not).
    std::string why = toString(cubin.takeError());
    SmallVector<StringRef> lines;
    StringRef(why).split(lines, '\n', -1, /*KeepEmpty=*/false);
    auto error = llvm::find_if(
        lines, [](StringRef line) { return line.contains("error"); });
    WithColor::warning(errs(), "tilec")
        << "ptxas did not assemble the PTX, so its spills were not checked: "
        << (error != lines.end() ? error->trim() : lines.front()) << "\n";
    return writeOutput(output, compiled->ptx);
  }
  if (!cubin)
    return usageError(toString(cubin.takeError()));
  if (verbose) {
    tilec::PtxasReport report = tilec::parsePtxasReport(log);
    if (ptxasReport)
      tilec::printPtxasReport(report, compiled->metadata.SharedBytes, errs());
    if (werrorPtxas) {
      std::vector<std::string> problems = tilec::ptxasReportProblems(report);
      for (const std::string &problem : problems)
        WithColor::error(errs(), "tilec") << problem << " (--Werror=ptxas)\n";
      if (!problems.empty())
        return 1;
    } else if (warnSpills) {
      for (const tilec::PtxasFunctionReport &function : report.functions)
        if (function.spills())
          WithColor::warning(errs(), "tilec")
              << (function.isEntry ? "kernel '" : "function '") << function.name
              << "' spills " << function.spillStoreBytes
              << " bytes of registers (ptxas: " << function.registers
              << " registers a thread, " << function.spillLoadBytes
              << " bytes of spill loads); smaller blocks or more warps may "
                 "avoid it (-Wno-spills silences this)\n";
    }
  }

  bool binary = emit == tilec::EmitKind::Cubin;
  return writeOutput(output, binary ? *cubin : compiled->ptx, binary);
}

/// --rewrite-block-ptrs: writes the file with its block pointers rewritten.
/// Writes --depfile: `target` depends on every file the compilation read
/// (the kernel's and those it imported, in srcMgr's buffers).
static int writeDepFile(SourceMgr &srcMgr, StringRef target) {
  if (depFile.empty())
    return 0;
  auto escaped = [](StringRef path) {
    std::string text;
    for (char c : path) {
      if (c == ' ' || c == '#' || c == '\\')
        text += '\\';
      else if (c == '$')
        text += '$';
      text += c;
    }
    return text;
  };
  std::string rule = escaped(target) + ":";
  for (unsigned id = 1; id <= srcMgr.getNumBuffers(); ++id) {
    StringRef file = srcMgr.getMemoryBuffer(id)->getBufferIdentifier();
    if (file != "<stdin>")
      rule += " " + escaped(file);
  }
  return writeOutput(depFile, rule + "\n");
}

static int rewriteFile(SourceMgr &srcMgr, StringRef output) {
  std::unique_ptr<tilec::ModuleAST> module =
      tilec::parseModule(srcMgr, srcMgr.getMainFileID());
  if (!module)
    return 1;
  return writeOutput(output, tilec::rewriteBlockPointers(*module, srcMgr));
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "tilec " TILEC_VERSION " (LLVM/MLIR " TILEC_LLVM_VERSION
          ", default target sm_90a)\n";
  });
  cl::ParseCommandLineOptions(argc, argv,
                              "tilec: compiles Triton-style .tile kernels "
                              "to PTX\n");
  if (tilec::isRunCommand())
    return tilec::runMain();
  if (listBuiltins) {
    tilec::printBuiltinIndex(outs());
    return 0;
  }
  if (inputFile.empty())
    return usageError("no input file (tilec FILE.tile ...)");

  tilec::CompileOptions options;
  options.kernel.name = kernelName;
  options.kernel.warnImplicitTf32 = !noTf32Warning;
  options.kernel.debug = debugMode;
  if (!tritonCompat.empty() && tritonCompat != "3.9")
    return usageError("--triton-compat expects '3.9', not '" + tritonCompat +
                      "'");
  options.kernel.blockPtrPolicy =
      !tritonCompat.empty() ? tilec::BlockPtrPolicy::Reject
      : noBlockPtrWarning   ? tilec::BlockPtrPolicy::Allow
                            : tilec::BlockPtrPolicy::Warn;
  if (!signature.empty()) {
    auto entries = tilec::abi::parseSignatureEntries(signature);
    if (!entries)
      return usageError(entries.status().message());
    options.kernel.signature = entries.take();
  }
  if (std::string error = tilec::addDefines(defines, options.kernel.defines);
      !error.empty())
    return usageError(error);
  if (optLevel > 3)
    return usageError("-O expects an optimisation level from 0 to 3, not " +
                      Twine(optLevel.getValue()));
  if (numWarps == 0 || numWarps > 32 || (numWarps & (numWarps - 1)))
    return usageError("--num-warps must be a power of two from 1 to 32");
  options.pipeline.numWarps = numWarps;
  options.pipeline.numStages = numStages;
  options.pipeline.warnUnusedStages =
      numStages.getNumOccurrences() > 0 && numStages >= 2;
  options.pipeline.programGroup = programGroup;
  options.pipeline.pointerTma = pointerTma;
  options.pipeline.pingPong = pingPong;
  options.pipeline.batchedTma = batchedTma;
  options.pipeline.multiProductTma = multiProductTma;
  std::optional<tilec::tile::TargetInfo> target =
      tilec::tile::TargetInfo::lookup(arch);
  if (!target)
    return usageError("--arch: " +
                      tilec::tile::TargetInfo::getUnsupportedMessage(arch));
  std::string ptxFeatures =
      ptxVersion.empty() ? target->getDefaultPtxFeatures() : ptxVersion;
  if (std::optional<std::string> problem =
          target->checkPtxFeatures(ptxFeatures))
    return usageError("--ptx-version: " + *problem);
  options.pipeline.target = arch;
  options.kernel.target = arch;
  options.ptx.arch = arch;
  options.ptx.features = ptxFeatures;
  options.ptx.optLevel = optLevel;
  options.ptx.fpFusion = fpFusion;
  options.ptx.libdevice = libdevicePath;
  options.emit = emit;
  bool werrorPtxas = false;
  for (const std::string &kind : werror) {
    if (kind != "ptxas")
      return usageError("--Werror expects 'ptxas', not '" + kind + "'");
    werrorPtxas = true;
  }
  if ((ptxasReport || werrorPtxas) && emit != tilec::EmitKind::PTX &&
      emit != tilec::EmitKind::Cubin)
    return usageError(
        "--ptxas-report and --Werror=ptxas need --emit=ptx or --emit=cubin");

  auto buffer = MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (std::error_code ec = buffer.getError())
    return usageError("cannot open '" + inputFile + "': " + ec.message());
  SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(std::move(*buffer), SMLoc());
  srcMgr.setIncludeDirs(includeDirs);

  // Never write over the source.
  if (!outputFile.empty() && outputFile != "-" && inputFile != "-" &&
      sys::fs::equivalent(inputFile, outputFile))
    return usageError("-o '" + outputFile +
                      "' is the input file; tilec does not overwrite its "
                      "source");

  if (rewriteBlockPtrs)
    return rewriteFile(srcMgr,
                       outputFile.empty() ? "-" : outputFile.getValue());

  if (emit == tilec::EmitKind::Header) {
    if (outputFile == "-")
      return usageError("--emit=header writes two files, OUT.h and OUT.cpp: "
                        "-o names their base, and cannot be '-'");
    std::string base = outputFile.empty() ? sys::path::stem(inputFile).str()
                                          : outputFile.getValue();
    int status = emitHeader(srcMgr, options, base);
    return status ? status : writeDepFile(srcMgr, base + ".h");
  }

  std::string output = outputFile;
  if (output.empty())
    output = emit == tilec::EmitKind::PTX
                 ? (sys::path::stem(inputFile) + ".ptx").str()
             : emit == tilec::EmitKind::Cubin
                 ? (sys::path::stem(inputFile) + ".cubin").str()
                 : "-";
  bool warnSpills = !noSpillWarning && (emit == tilec::EmitKind::PTX ||
                                        emit == tilec::EmitKind::Cubin);
  if (emit == tilec::EmitKind::Cubin || ptxasReport || werrorPtxas ||
      warnSpills) {
    int status =
        assembleWithPtxas(srcMgr, options, output, werrorPtxas, warnSpills);
    return status ? status : writeDepFile(srcMgr, output);
  }
  std::string text;
  raw_string_ostream os(text);
  if (failed(tilec::compile(srcMgr, options, os)))
    return 1;
  int status = writeOutput(output, text);
  return status ? status : writeDepFile(srcMgr, output);
}
