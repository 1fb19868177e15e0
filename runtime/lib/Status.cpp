//===- Status.cpp - Error values of the tilec runtime ---------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Out-of-line members of Status.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Status.h"

using namespace tilec::rt;

const char *tilec::rt::errorCodeName(ErrorCode code) {
  switch (code) {
  case ErrorCode::Success:
    return "success";
  case ErrorCode::NoDevice:
    return "no-device";
  case ErrorCode::CudaError:
    return "cuda-error";
  case ErrorCode::InvalidArgument:
    return "invalid-argument";
  case ErrorCode::ParseError:
    return "parse-error";
  case ErrorCode::IOError:
    return "io-error";
  case ErrorCode::NotFound:
    return "not-found";
  case ErrorCode::CompileError:
    return "compile-error";
  }
  return "unknown";
}

Status Status::error(ErrorCode code, std::string message) {
  assert(code != ErrorCode::Success && "an error needs an error code");
  if (code == ErrorCode::Success)
    code = ErrorCode::InvalidArgument;
  return Status(code, std::move(message));
}

Status Status::withContext(std::string_view prefix) const {
  if (ok())
    return *this;
  return Status(Code, std::string(prefix) + ": " + Message);
}
