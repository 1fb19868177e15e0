//===- Cubin.cpp - PTX to cubin with ptxas --------------------------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Cubin.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#ifndef TILEC_CONFIGURED_PTXAS
#error "TILEC_CONFIGURED_PTXAS must be defined (by CMake; empty for none)"
#endif

using namespace llvm;

StringRef tilec::configuredPtxas() { return TILEC_CONFIGURED_PTXAS; }

std::string tilec::findPtxas() {
  if (!configuredPtxas().empty() && sys::fs::can_execute(configuredPtxas()))
    return configuredPtxas().str();
  if (std::optional<std::string> home = sys::Process::GetEnv("CUDA_HOME")) {
    SmallString<128> path(*home);
    sys::path::append(path, "bin", "ptxas");
    if (sys::fs::can_execute(path))
      return path.str().str();
  }
  if (sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (ErrorOr<std::string> found = sys::findProgramByName("ptxas"))
    return *found;
  return "";
}

Expected<std::string> tilec::assembleCubin(StringRef ptx, StringRef arch,
                                           StringRef ptxas, std::string *log) {
  SmallString<128> ptxPath, cubinPath, logPath;
  auto cleanup = [&] {
    for (const SmallString<128> &path : {ptxPath, cubinPath, logPath})
      if (!path.empty())
        sys::fs::remove(path);
  };
  if (std::error_code ec =
          sys::fs::createTemporaryFile("tilec", "ptx", ptxPath))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  if (std::error_code ec =
          sys::fs::createTemporaryFile("tilec", "cubin", cubinPath)) {
    cleanup();
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  }
  if (std::error_code ec =
          sys::fs::createTemporaryFile("tilec", "log", logPath)) {
    cleanup();
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  }
  {
    std::error_code ec;
    raw_fd_ostream out(ptxPath, ec);
    if (ec) {
      cleanup();
      return createStringError(ec, "cannot write '" + ptxPath + "'");
    }
    out << ptx;
  }
  std::string archFlag = ("-arch=" + arch).str();
  SmallVector<StringRef, 6> args = {ptxas, archFlag, ptxPath, "-o", cubinPath};
  if (log)
    args.push_back("-v");
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string error;
  int rc = sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                               /*SecondsToWait=*/0, /*MemoryLimit=*/0, &error);
  std::string output;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
          MemoryBuffer::getFile(logPath))
    output = (*buffer)->getBuffer().str();
  if (rc != 0) {
    cleanup();
    return createStringError(inconvertibleErrorCode(),
                             ptxas + " failed" +
                                 (error.empty() ? "" : ": " + error) +
                                 (output.empty() ? "" : "\n" + output));
  }
  if (log)
    *log = std::move(output);
  ErrorOr<std::unique_ptr<MemoryBuffer>> cubin =
      MemoryBuffer::getFile(cubinPath, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!cubin) {
    cleanup();
    return createStringError(cubin.getError(),
                             "cannot read '" + cubinPath + "'");
  }
  std::string bytes = (*cubin)->getBuffer().str();
  cleanup();
  return bytes;
}
