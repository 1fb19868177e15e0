//===- tilec.cpp - The tilec compiler driver --------------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Command line: `tilec FILE.tile [-k NAME] [--signature SIG] [-D N=V]
// [--num-warps W] [--arch sm_90a] [--emit ast|tile|tile-gpu|llvm-mlir|llvm|ptx]
// [-o OUT|-]`. PTX goes to FILE.ptx in the current directory unless -o says
// otherwise; every other stage goes to standard output.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Driver.h"

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
                                      cl::Required, cl::cat(category));
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
static cl::opt<unsigned> numWarps("num-warps",
                                  cl::desc("Warps per program (default 4)"),
                                  cl::init(4), cl::cat(category));
static cl::alias numWarpsShort("w", cl::aliasopt(numWarps),
                               cl::desc("Alias for --num-warps"));
static cl::opt<std::string> arch("arch",
                                 cl::desc("GPU architecture (default sm_90a)"),
                                 cl::init("sm_90a"), cl::cat(category));
static cl::opt<std::string>
    ptxVersion("ptx-version", cl::desc("PTX ISA version feature (+ptx80)"),
               cl::init("+ptx80"), cl::cat(category));
static cl::opt<unsigned> optLevel("O", cl::Prefix,
                                  cl::desc("LLVM optimisation level (0-3)"),
                                  cl::init(3), cl::cat(category));
static cl::opt<tilec::EmitKind> emit(
    "emit", cl::desc("Stage to output"), cl::init(tilec::EmitKind::PTX),
    cl::values(clEnumValN(tilec::EmitKind::AST, "ast", "the syntax tree"),
               clEnumValN(tilec::EmitKind::Tile, "tile", "tile IR"),
               clEnumValN(tilec::EmitKind::TileGPU, "tile-gpu",
                          "tile IR with layouts"),
               clEnumValN(tilec::EmitKind::LLVMMLIR, "llvm-mlir",
                          "the LLVM and NVVM dialects"),
               clEnumValN(tilec::EmitKind::LLVM, "llvm", "LLVM IR"),
               clEnumValN(tilec::EmitKind::PTX, "ptx", "PTX (default)")),
    cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for "
                                                     "standard output)"),
                                       cl::value_desc("file"),
                                       cl::cat(category));

/// Reports a command-line error in the compiler's diagnostic style.
static int usageError(const Twine &message) {
  WithColor::error(errs(), "tilec") << message << "\n";
  return 1;
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

  tilec::CompileOptions options;
  options.kernel.name = kernelName;
  if (!signature.empty()) {
    auto entries = tilec::parseSignature(signature);
    if (!entries)
      return usageError(toString(entries.takeError()));
    options.kernel.signature = std::move(*entries);
  }
  for (const std::string &define : defines) {
    auto [name, value] = StringRef(define).split('=');
    if (name.empty() || value.empty())
      return usageError("-D expects NAME=VALUE, not '" + define + "'");
    options.kernel.defines[name.trim()] = value.trim().str();
  }
  if (numWarps == 0 || numWarps > 32 || (numWarps & (numWarps - 1)))
    return usageError("--num-warps must be a power of two from 1 to 32");
  options.pipeline.numWarps = numWarps;
  options.ptx.arch = arch;
  options.ptx.features = ptxVersion;
  options.ptx.optLevel = optLevel;
  options.emit = emit;

  auto buffer = MemoryBuffer::getFileOrSTDIN(inputFile, /*IsText=*/true);
  if (std::error_code ec = buffer.getError())
    return usageError("cannot open '" + inputFile + "': " + ec.message());
  SourceMgr srcMgr;
  srcMgr.AddNewSourceBuffer(std::move(*buffer), SMLoc());

  std::string output = outputFile;
  if (output.empty())
    output = emit == tilec::EmitKind::PTX
                 ? (sys::path::stem(inputFile) + ".ptx").str()
                 : "-";
  std::string text;
  raw_string_ostream os(text);
  if (failed(tilec::compile(srcMgr, options, os)))
    return 1;

  std::error_code ec;
  ToolOutputFile out(output, ec, sys::fs::OF_Text);
  if (ec)
    return usageError("cannot write '" + output + "': " + ec.message());
  out.os() << text;
  out.keep();
  return 0;
}
