//===- TestUtil.cpp - The harness of tilec-gpu-tests ----------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// This file implements the shared parts of tilec-gpu-tests declared in
// TestUtil.h: shapes and tolerances as text, random host matrices, device
// buffers reset before each launch, the warm-up plus timed launch, reading
// outputs back (with the check that row padding kept its poison), and the
// comparison with float64 references.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

using namespace tilec::rt;

namespace tilec {
namespace gpu {

std::uint64_t Shape::count() const {
  std::uint64_t product = 1;
  for (std::uint64_t dim : Dims)
    product *= dim;
  return product;
}

std::string Shape::str() const {
  std::string text;
  for (std::size_t i = 0; i < Dims.size(); ++i)
    text += (i ? "x" : "") + std::to_string(Dims[i]);
  if (has(Flag::Padded))
    text += " pad";
  if (has(Flag::TransB))
    text += " bT";
  return text;
}

std::string Tolerance::str() const {
  if (Rel == 0.0)
    return "exact";
  return formatValue(Rel, "%.0e");
}

CaseResult failed(const Status &status, CaseResult result) {
  result.Passed = false;
  result.Note = status.message();
  return result;
}

CaseResult badSize(const GpuTest &test, const Shape &shape,
                   const std::string &why) {
  CaseResult result;
  result.Note = "size " + shape.str() + " is not valid for " + test.Name +
                ": " + why + " (a mistake in the test registry)";
  return result;
}

std::string formatValue(double value, const char *format) {
  if (std::isnan(value))
    return "NaN";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string gridString(const Dim3 &grid) {
  std::string text = std::to_string(grid.X);
  if (grid.Y != 1 || grid.Z != 1)
    text += "x" + std::to_string(grid.Y);
  if (grid.Z != 1)
    text += "x" + std::to_string(grid.Z);
  return text;
}

//===----------------------------------------------------------------------===//
// Host and device data
//===----------------------------------------------------------------------===//

HostMatrix HostMatrix::random(TestEnv &env, ElemType type, std::uint64_t rows,
                              std::uint64_t cols, std::uint64_t ld) {
  HostMatrix m;
  m.Type = type;
  m.Rows = rows;
  m.Cols = cols;
  m.Ld = ld ? ld : cols;
  std::vector<float> dense(rows * cols);
  fillUniform(dense.data(), dense.size(), env.Seed, env.NextStream++);
  m.Values.assign(rows * m.Ld, std::nanf(""));
  forEachRow(rows, [&](std::uint64_t r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      // Integers: uniform in [-8, 8]; unsigned bytes over all of [0, 255].
      float value = dense[r * cols + c];
      if (type == ElemType::I8 || type == ElemType::I32)
        value *= 8.0f;
      if (type == ElemType::U8)
        value = (value + 1.0f) * 127.5f;
      m.Values[r * m.Ld + c] = roundTo(type, value);
    }
  });
  m.Bytes.assign(m.Values.size() * elemSize(type), 0xFF);
  forEachRow(rows, [&](std::uint64_t r) {
    encodeElements(type, &m.Values[r * m.Ld], cols,
                   &m.Bytes[r * m.Ld * elemSize(type)]);
  });
  return m;
}

DeviceBuffer &CaseBuffers::add(std::size_t bytes, const void *data) {
  auto entry = std::make_unique<Entry>();
  entry->Data = data;
  entry->Bytes = bytes;
  if (!data)
    entry->GuardBytes = std::min<std::size_t>(bytes, 4u << 20) + 256;
  // Keep at least one byte so that every kernel argument is a real address.
  Expected<DeviceBuffer> buffer = DeviceBuffer::allocate(
      Ctx, std::max<std::size_t>(bytes + entry->GuardBytes, 1));
  if (buffer)
    entry->Buffer = buffer.take();
  else if (Error.ok())
    Error = buffer.status();
  Entries.push_back(std::move(entry));
  return Entries.back()->Buffer;
}

DeviceBuffer &CaseBuffers::input(const void *data, std::size_t bytes) {
  return add(bytes, data);
}

DeviceBuffer &CaseBuffers::output(std::size_t bytes) {
  return add(bytes, nullptr);
}

Status CaseBuffers::reset() {
  if (!Error.ok())
    return Error;
  for (const std::unique_ptr<Entry> &entry : Entries) {
    Status status = entry->Data
                        ? entry->Buffer.copyFromHost(entry->Data, entry->Bytes)
                        : entry->Buffer.fill(0xFF);
    if (!status.ok())
      return status;
  }
  return Status::success();
}

Status CaseBuffers::countOverruns(std::uint64_t &overruns) const {
  overruns = 0;
  if (!Error.ok())
    return Error;
  std::vector<std::uint8_t> guard;
  for (const std::unique_ptr<Entry> &entry : Entries) {
    if (entry->GuardBytes == 0)
      continue;
    guard.resize(entry->GuardBytes);
    if (Status status =
            entry->Buffer.copyToHost(guard.data(), guard.size(), entry->Bytes);
        !status.ok())
      return status;
    for (std::uint8_t byte : guard)
      overruns += byte != 0xFF;
  }
  return Status::success();
}

Status launchTimed(TestEnv &env, const Kernel &kernel, Dim3 grid,
                   const std::vector<KernelArg> &args, CaseBuffers &buffers,
                   CaseResult &result) {
  Expected<Event> start = Event::create(env.Ctx);
  if (!start)
    return start.status();
  Expected<Event> stop = Event::create(env.Ctx);
  if (!stop)
    return stop.status();
  Status status = buffers.reset();
  if (status.ok())
    status = kernel.launch(grid, args.data(), args.size());
  if (status.ok())
    status = env.Ctx.synchronize();
  if (status.ok())
    status = buffers.reset();
  if (status.ok())
    status = env.Ctx.synchronize();
  if (status.ok())
    status = start->record();
  if (status.ok())
    status = kernel.launch(grid, args.data(), args.size());
  if (status.ok())
    status = stop->record();
  if (status.ok())
    status = env.Ctx.synchronize();
  if (!status.ok())
    return status;
  Expected<float> elapsed = Event::elapsedMs(*start, *stop);
  if (!elapsed)
    return elapsed.status();
  result.KernelMs = *elapsed;
  if (Status guards = buffers.countOverruns(result.Overruns); !guards.ok())
    return guards;
  if (result.Overruns)
    result.Note += std::string(result.Note.empty() ? "" : "\n    ") +
                   std::to_string(result.Overruns) +
                   " bytes past the end of the outputs were overwritten";
  return Status::success();
}

Status readMatrix(const DeviceBuffer &buffer, ElemType type, std::uint64_t rows,
                  std::uint64_t cols, std::uint64_t ld,
                  std::vector<float> &values, std::uint64_t &clobbered) {
  unsigned size = elemSize(type);
  std::vector<std::uint8_t> bytes(rows * ld * size);
  if (Status status = buffer.copyToHost(bytes.data(), bytes.size());
      !status.ok())
    return status;
  values.assign(rows * cols, 0.0f);
  std::vector<std::uint64_t> perRow(rows, 0);
  forEachRow(rows, [&](std::uint64_t r) {
    const std::uint8_t *row = bytes.data() + r * ld * size;
    decodeElements(type, row, cols, &values[r * cols]);
    for (std::uint64_t c = cols; c < ld; ++c)
      for (unsigned b = 0; b < size; ++b)
        if (row[c * size + b] != 0xFF) {
          ++perRow[r];
          break;
        }
  });
  clobbered = 0;
  for (std::uint64_t count : perRow)
    clobbered += count;
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

Check compareToReference(const float *out, const double *ref, std::uint64_t n,
                         const Tolerance &tol, unsigned keepFirst) {
  std::uint64_t chunks = (n + ChunkSize - 1) / ChunkSize;
  struct Partial {
    double ErrorSquares = 0.0, RefSquares = 0.0;
    std::uint64_t Mismatches = 0;
    std::vector<std::uint64_t> First;
  };
  std::vector<Partial> partials(chunks);
  forEachChunk(n, [&](std::uint64_t c, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i)
      partials[c].RefSquares += ref[i] * ref[i];
  });
  double refSquares = 0.0;
  for (const Partial &p : partials)
    refSquares += p.RefSquares;
  double rms = n ? std::sqrt(refSquares / static_cast<double>(n)) : 0.0;
  if (rms < tol.RefFloor) {
    rms = tol.RefFloor;
    refSquares = static_cast<double>(n) * rms * rms;
  }

  forEachChunk(n, [&](std::uint64_t c, std::uint64_t begin, std::uint64_t end) {
    Partial &p = partials[c];
    for (std::uint64_t i = begin; i < end; ++i) {
      double diff = static_cast<double>(out[i]) - ref[i];
      p.ErrorSquares += diff * diff; // NaN outputs make this NaN.
      bool bad = !std::isfinite(out[i]) ||
                 (tol.Rel == 0.0
                      ? static_cast<double>(out[i]) != ref[i]
                      : std::fabs(diff) > tol.Elem * (std::fabs(ref[i]) + rms));
      if (bad && p.Mismatches++ < keepFirst)
        p.First.push_back(i);
    }
  });

  Check check;
  double errorSquares = 0.0;
  for (const Partial &p : partials) {
    errorSquares += p.ErrorSquares;
    check.Mismatches += p.Mismatches;
    for (std::uint64_t i : p.First)
      if (check.First.size() < keepFirst)
        check.First.push_back(i);
  }
  check.RelError = refSquares > 0.0 ? std::sqrt(errorSquares / refSquares)
                                    : std::sqrt(errorSquares);
  return check;
}

bool recordCheck(CaseResult &result, const char *what, const Check &check,
                 const float *out, const double *ref, std::uint64_t cols,
                 const Tolerance &tol) {
  result.Mismatches += check.Mismatches;
  if (std::isnan(check.RelError) || std::isnan(result.RelError) ||
      check.RelError > result.RelError)
    result.RelError = check.RelError;
  bool passed = check.Mismatches == 0 && check.RelError <= tol.Rel;
  if (!passed && check.Mismatches == 0)
    result.Note += std::string(result.Note.empty() ? "" : "\n    ") + what +
                   ": relative error " + formatValue(check.RelError, "%.3e") +
                   " exceeds " + tol.str();
  if (check.Mismatches != 0) {
    result.Note += std::string(result.Note.empty() ? "" : "\n    ") + what +
                   ": " + std::to_string(check.Mismatches) +
                   " elements out of tolerance; first:";
    for (std::uint64_t i : check.First) {
      char index[64];
      if (cols)
        std::snprintf(index, sizeof(index), "[%" PRIu64 ", %" PRIu64 "]",
                      i / cols, i % cols);
      else
        std::snprintf(index, sizeof(index), "[%" PRIu64 "]", i);
      result.Note += std::string("\n      ") + what + index + " = " +
                     formatValue(out[i], "%.8g") + ", expected " +
                     formatValue(ref[i], "%.8g");
    }
  }
  return passed;
}

bool recordClobbered(CaseResult &result, const char *what,
                     std::uint64_t clobbered) {
  if (clobbered == 0)
    return true;
  result.Mismatches += clobbered;
  result.Note += std::string(result.Note.empty() ? "" : "\n    ") + what +
                 ": " + std::to_string(clobbered) +
                 " padding elements were overwritten";
  return false;
}

} // namespace gpu
} // namespace tilec
