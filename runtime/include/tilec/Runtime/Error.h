//===- Error.h - Runtime failures as C++ exceptions -------------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The runtime itself reports failures as Status and Expected<T> values and is
// built without exceptions. Programs that prefer exceptions wrap calls with
// check() and value(), which throw tilec::rt::Error carrying the status (the
// message names the CUDA call, the kernel and the argument, as the status
// does). Header-only, so it compiles with the program's own settings.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ERROR_H
#define TILEC_RUNTIME_ERROR_H

#include "tilec/Runtime/Status.h"

#include <stdexcept>
#include <utility>

namespace tilec {
namespace rt {

/// A failed Status as an exception.
class Error : public std::runtime_error {
public:
  explicit Error(Status status)
      : std::runtime_error(status.message()), Failure(std::move(status)) {}

  const Status &status() const { return Failure; }
  ErrorCode code() const { return Failure.code(); }

private:
  Status Failure;
};

/// Throws Error when \p status is a failure.
inline void check(Status status) {
  if (!status.ok())
    throw Error(std::move(status));
}

/// Returns the value of \p expected, or throws Error with its failure.
template <typename T> T value(Expected<T> expected) {
  if (!expected)
    throw Error(expected.status());
  return expected.take();
}

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_ERROR_H
