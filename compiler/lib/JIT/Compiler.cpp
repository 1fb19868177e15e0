//===- Compiler.cpp - tilec as a JIT compiler -----------------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/JIT/Compiler.h"

#include "tilec/Dialect/Tile/IR/TargetInfo.h"
#include "tilec/Driver/Driver.h"
#include "tilec/Target/Cubin.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

namespace {

/// The source of a request, its diagnostics collected as text.
struct RequestSource {
  RequestSource(const rt::CompileRequest &request,
                const std::vector<std::string> &includeDirs) {
    srcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                                  request.Source, request.SourceName),
                              llvm::SMLoc());
    srcMgr.setIncludeDirs(includeDirs);
    srcMgr.setDiagHandler(
        [](const llvm::SMDiagnostic &diagnostic, void *os) {
          diagnostic.print(nullptr, *static_cast<llvm::raw_ostream *>(os));
        },
        &os);
  }
  RequestSource(const RequestSource &) = delete;
  RequestSource &operator=(const RequestSource &) = delete;

  llvm::SourceMgr srcMgr;
  std::string diagnostics;
  llvm::raw_string_ostream os{diagnostics};
};

class InProcessCompiler : public rt::KernelCompiler {
public:
  explicit InProcessCompiler(jit::CompilerOptions options)
      : IncludeDirs(std::move(options.IncludeDirs)) {
    // Only the configured ptxas: its version is in the cache keys.
    if (options.Cubin && !configuredPtxas().empty() &&
        llvm::sys::fs::can_execute(configuredPtxas()))
      Ptxas = configuredPtxas().str();
  }

  rt::Expected<rt::CompiledKernel>
  compile(const rt::CompileRequest &request) override;
  rt::Expected<rt::JitTuning>
  readTuning(const rt::CompileRequest &request) override;
  rt::Expected<rt::JitHeuristics>
  evaluateHeuristics(const rt::CompileRequest &request,
                     const std::vector<std::string> &args) override;

private:
  std::string Ptxas;
  std::vector<std::string> IncludeDirs;
};

} // namespace

rt::Expected<rt::CompiledKernel>
InProcessCompiler::compile(const rt::CompileRequest &request) {
  std::string what = "compiling kernel '" + request.Kernel + "' of " +
                     request.SourceName + " (" + request.Signature + "; " +
                     request.Config.name() + ")";
  CompileOptions options;
  options.kernel.name = request.Kernel;
  rt::Expected<std::vector<SignatureEntry>> signature =
      abi::parseSignatureEntries(request.Signature);
  if (!signature)
    return rt::Status::invalidArgument(what + ": " +
                                       signature.status().message());
  options.kernel.signature = signature.take();
  for (const auto &[name, value] : request.Config.Constexprs)
    options.kernel.defines[name] = value;
  options.pipeline.numWarps = request.Config.NumWarps;
  options.pipeline.numStages = request.Config.NumStages;
  std::optional<tile::TargetInfo> target =
      tile::TargetInfo::lookup(request.Arch);
  if (!target)
    return rt::Status::invalidArgument(
        what + ": " + tile::TargetInfo::getUnsupportedMessage(request.Arch));
  options.pipeline.target = request.Arch;
  options.kernel.target = request.Arch;
  options.ptx.arch = request.Arch;
  options.ptx.features = target->getDefaultPtxFeatures();

  RequestSource source(request, IncludeDirs);
  mlir::FailureOr<CompiledPTX> compiled =
      compileToPTX(source.srcMgr, options, source.os);
  if (mlir::failed(compiled))
    return rt::Status::error(rt::ErrorCode::CompileError,
                             what + " failed:\n" + source.diagnostics);

  rt::CompiledKernel result;
  result.Ptx = std::move(compiled->ptx);
  // Buffers after the source's are the files it imported.
  for (unsigned id = 2; id <= source.srcMgr.getNumBuffers(); ++id) {
    const llvm::MemoryBuffer *file = source.srcMgr.getMemoryBuffer(id);
    result.Imports.emplace_back(file->getBufferIdentifier().str(),
                                file->getBuffer().str());
  }
  if (!Ptxas.empty()) {
    llvm::Expected<std::string> cubin =
        assembleCubin(result.Ptx, request.Arch, Ptxas);
    if (!cubin)
      return rt::Status::error(rt::ErrorCode::CompileError,
                               what + ": " + llvm::toString(cubin.takeError()));
    result.Cubin = std::move(*cubin);
  }
  return result;
}

rt::Expected<rt::JitTuning>
InProcessCompiler::readTuning(const rt::CompileRequest &request) {
  KernelConfig kernel;
  kernel.name = request.Kernel;
  kernel.target = request.Arch;
  RequestSource source(request, IncludeDirs);
  mlir::FailureOr<KernelTuning> tuning =
      tilec::readTuning(source.srcMgr, kernel, source.os);
  if (mlir::failed(tuning))
    return rt::Status::error(rt::ErrorCode::CompileError,
                             "reading the decorators of kernel '" +
                                 request.Kernel + "' of " + request.SourceName +
                                 " failed:\n" + source.diagnostics);
  rt::JitTuning result;
  for (const AutotuneConfig &autotune : tuning->configs) {
    rt::JitConfig config;
    config.Constexprs = autotune.constexprs;
    config.NumWarps = autotune.numWarps;
    config.NumStages = autotune.numStages;
    result.Configs.push_back(std::move(config));
  }
  result.Params = tuning->params;
  result.Key = tuning->key;
  return result;
}

rt::Expected<rt::JitHeuristics>
InProcessCompiler::evaluateHeuristics(const rt::CompileRequest &request,
                                      const std::vector<std::string> &args) {
  std::string what = "evaluating the @triton.heuristics of kernel '" +
                     request.Kernel + "' of " + request.SourceName + " (" +
                     request.Signature + "; " + request.Config.name() + ")";
  KernelConfig kernel;
  kernel.name = request.Kernel;
  kernel.target = request.Arch;
  rt::Expected<std::vector<SignatureEntry>> signature =
      abi::parseSignatureEntries(request.Signature);
  if (!signature)
    return rt::Status::invalidArgument(what + ": " +
                                       signature.status().message());
  kernel.signature = signature.take();
  for (const auto &[name, value] : request.Config.Constexprs)
    kernel.defines[name] = value;
  kernel.runtimeValues = args;
  RequestSource source(request, IncludeDirs);
  mlir::FailureOr<HeuristicValues> values =
      tilec::evaluateHeuristics(source.srcMgr, kernel, source.os);
  if (mlir::failed(values))
    return rt::Status::error(rt::ErrorCode::CompileError,
                             what + " failed:\n" + source.diagnostics);
  rt::JitHeuristics result;
  result.Values = std::move(values->values);
  result.Reads.assign(values->reads.begin(), values->reads.end());
  return result;
}

std::unique_ptr<rt::KernelCompiler>
jit::createCompiler(CompilerOptions options) {
  return std::make_unique<InProcessCompiler>(options);
}
