//===- Status.h - Error values of the tilec runtime -------------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The tilec runtime reports failures without exceptions: every fallible call
// returns a Status (success or an error code plus a human-readable message)
// or an Expected<T> (a T or a failed Status). The error code lets callers
// tell the one failure they usually want to handle specially, "there is no
// CUDA driver or device on this machine", from real errors.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_STATUS_H
#define TILEC_RUNTIME_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace tilec {
namespace rt {

/// What kind of failure a Status describes.
enum class ErrorCode {
  Success = 0,
  /// libcuda.so.1 could not be loaded, cuInit failed, or there is no device.
  NoDevice,
  /// A CUDA driver call returned an error.
  CudaError,
  /// The caller passed something the runtime cannot accept (wrong argument
  /// count or type for a kernel, out-of-range copy, bad grid, ...).
  InvalidArgument,
  /// Kernel metadata, a kernel signature or a PTX entry could not be parsed.
  ParseError,
  /// A file could not be read.
  IOError,
  /// A kernel or symbol that was asked for does not exist.
  NotFound,
  /// The JIT compiler rejected a kernel (the message holds its diagnostics).
  CompileError,
};

/// Returns a short lower-case name for \p code ("no-device", ...).
const char *errorCodeName(ErrorCode code);

/// The result of a fallible operation: success, or an error code with a
/// message. A default-constructed Status is a success.
class [[nodiscard]] Status {
public:
  Status() = default;

  /// Returns a successful status.
  static Status success() { return Status(); }
  /// Returns a failed status; \p code must not be ErrorCode::Success.
  static Status error(ErrorCode code, std::string message);
  /// Shorthand for error(ErrorCode::NoDevice, message).
  static Status noDevice(std::string message) {
    return error(ErrorCode::NoDevice, std::move(message));
  }
  /// Shorthand for error(ErrorCode::InvalidArgument, message).
  static Status invalidArgument(std::string message) {
    return error(ErrorCode::InvalidArgument, std::move(message));
  }
  /// Shorthand for error(ErrorCode::ParseError, message).
  static Status parseError(std::string message) {
    return error(ErrorCode::ParseError, std::move(message));
  }

  /// True when the operation succeeded.
  bool ok() const { return Code == ErrorCode::Success; }
  /// True when the failure means "no CUDA driver or no CUDA device": callers
  /// such as tests should skip rather than fail.
  bool isNoDevice() const { return Code == ErrorCode::NoDevice; }
  ErrorCode code() const { return Code; }
  /// The message; empty for a success.
  const std::string &message() const { return Message; }

  /// Returns a copy whose message is "<prefix>: <message>" (a success is
  /// returned unchanged).
  Status withContext(std::string_view prefix) const;

private:
  Status(ErrorCode code, std::string message)
      : Code(code), Message(std::move(message)) {}

  ErrorCode Code = ErrorCode::Success;
  std::string Message;
};

/// Either a value of type T or a failed Status.
template <typename T> class [[nodiscard]] Expected {
public:
  /// Wraps a value.
  Expected(T value) : Value(std::move(value)) {}
  /// Wraps a failure. Passing a successful Status is a programming error; it
  /// is turned into an InvalidArgument failure in release builds.
  Expected(Status status) : Err(std::move(status)) {
    assert(!Err.ok() && "Expected constructed from a successful Status");
    if (Err.ok())
      Err = Status::invalidArgument("internal error: Expected built from a "
                                    "successful status without a value");
  }

  /// True when a value is held.
  bool ok() const { return Value.has_value(); }
  explicit operator bool() const { return ok(); }

  /// The failure; a success when a value is held.
  const Status &status() const { return Err; }

  T &operator*() {
    assert(ok() && "dereferencing a failed Expected");
    return *Value;
  }
  const T &operator*() const {
    assert(ok() && "dereferencing a failed Expected");
    return *Value;
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  /// Moves the value out; only valid when ok().
  T take() {
    assert(ok() && "taking the value of a failed Expected");
    return std::move(*Value);
  }

private:
  std::optional<T> Value;
  Status Err;
};

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_STATUS_H
