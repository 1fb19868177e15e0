//===- InterpCompare.cpp - The GPU against the interpreter ------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// tilec-interp-compare DIR [--ptx-dir PTX_DIR]
//
// The GPU half of the differential test of the interpreter. DIR holds what
// `tilec-interpreter-examples --save DIR` wrote where LLVM is: cases.txt,
// one line per case
//
//   ID PTX KERNEL GX GY GZ TOL FLOOR NARGS ARG...
//
// where each ARG is a buffer's element type (fp32, fp16, bf16, i8, i32) or a
// scalar TYPE=VALUE, and ID.I.in / ID.I.out hold buffer I before and after
// the interpreter ran. Each case is launched on the GPU from PTX_DIR/PTX.ptx
// with the same inputs, and every buffer is compared with the
// interpreter's: integers exactly, floats within TOL (||gpu - interp|| /
// ||interp|| <= TOL and |gpu - interp| <= 10 TOL (|interp| + rms) for
// every element, where an rms below FLOOR counts as FLOOR; NaN only where
// the interpreter has NaN). No LLVM.
// Exit status: 0 when every case agrees, 1 otherwise, 77 without a GPU.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"

#include "tilec/Runtime/Runtime.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

/// Reads a whole file; false if it cannot be opened.
bool readFile(const std::string &path, std::vector<std::uint8_t> &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  bytes.assign(std::istreambuf_iterator<char>(in),
               std::istreambuf_iterator<char>());
  return true;
}

/// The buffer element type cases.txt spells `name`; false for another name.
bool parseElemType(const std::string &name, ElemType &type) {
  // Unsigned and fp8 buffers compare bit for bit, as the signed integers of
  // their width do.
  if (name == "u32") {
    type = ElemType::I32;
    return true;
  }
  if (name == "u8" || name == "fp8e4nv" || name == "fp8e5") {
    type = ElemType::I8;
    return true;
  }
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16, ElemType::I8,
                     ElemType::I32}) {
    if (name == elemName(t)) {
      type = t;
      return true;
    }
  }
  return false;
}

bool isInteger(ElemType type) {
  return type == ElemType::I8 || type == ElemType::I32;
}

/// The elements of a buffer of `type` as doubles (integers exactly).
std::vector<double> decode(ElemType type,
                           const std::vector<std::uint8_t> &bytes) {
  std::vector<double> values(bytes.size() / elemSize(type));
  if (type == ElemType::I32) {
    // Not through float: int32 values above 2^24 must stay exact.
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::int32_t v;
      std::memcpy(&v, bytes.data() + 4 * i, 4);
      values[i] = v;
    }
    return values;
  }
  std::vector<float> floats(values.size());
  decodeElements(type, bytes.data(), floats.size(), floats.data());
  values.assign(floats.begin(), floats.end());
  return values;
}

/// Compares the GPU's values with the interpreter's; returns a description
/// of the first disagreement, or "" when they agree.
std::string compare(const std::vector<double> &gpu,
                    const std::vector<double> &interp, double tol, double floor,
                    double &relError) {
  double refSquares = 0, errorSquares = 0;
  for (double v : interp)
    if (std::isfinite(v))
      refSquares += v * v;
  double rms = interp.empty() ? 0 : std::sqrt(refSquares / interp.size());
  if (rms < floor) {
    rms = floor;
    refSquares = rms * rms * interp.size();
  }
  std::string first;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    if (std::isnan(interp[i]) && std::isnan(gpu[i]))
      continue;
    double diff = gpu[i] - interp[i];
    if (std::isfinite(diff))
      errorSquares += diff * diff;
    bool bad = !std::isfinite(diff) ||
               std::fabs(diff) > 10 * tol * (std::fabs(interp[i]) + rms);
    if (bad && first.empty()) {
      char text[160];
      std::snprintf(text, sizeof(text),
                    "[%zu] = %.9g on the GPU, %.9g in "
                    "the interpreter",
                    i, gpu[i], interp[i]);
      first = text;
    }
  }
  relError = refSquares > 0 ? std::sqrt(errorSquares / refSquares)
                            : std::sqrt(errorSquares);
  if (first.empty() && !(relError <= tol)) {
    char text[96];
    std::snprintf(text, sizeof(text), "relative error %.3g above %.3g",
                  relError, tol);
    first = text;
  }
  return first;
}

/// Runs one case; returns "" when the GPU agrees with the interpreter.
std::string runCase(Context &ctx, const std::string &dir,
                    const std::string &ptxDir,
                    std::map<std::string, std::unique_ptr<Module>> &modules,
                    std::istringstream &line, const std::string &id,
                    double &worst) {
  std::string ptx, kernelName;
  unsigned gx, gy, gz, numArgs;
  double tol, floor;
  line >> ptx >> kernelName >> gx >> gy >> gz >> tol >> floor >> numArgs;
  if (!line)
    return "malformed line in cases.txt";
  std::unique_ptr<Module> &module = modules[ptx];
  if (!module) {
    Expected<Module> loaded =
        Module::loadFile(ctx, ptxDir + "/" + ptx + ".ptx");
    if (!loaded)
      return loaded.status().message();
    module = std::make_unique<Module>(loaded.take());
  }
  Expected<Kernel> kernel = module->getKernel(kernelName);
  if (!kernel)
    return kernel.status().message();

  std::vector<DeviceBuffer> buffers;
  buffers.reserve(numArgs);
  std::vector<KernelArg> args;
  std::vector<std::pair<unsigned, ElemType>> bufferArgs;
  for (unsigned i = 0; i < numArgs; ++i) {
    std::string arg;
    line >> arg;
    std::size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      std::string type = arg.substr(0, eq), value = arg.substr(eq + 1);
      if (type == "i32")
        args.emplace_back(static_cast<std::int32_t>(std::stol(value)));
      else if (type == "i64")
        args.emplace_back(static_cast<std::int64_t>(std::stoll(value)));
      else if (type == "u32")
        args.emplace_back(static_cast<std::uint32_t>(std::stoul(value)));
      else if (type == "fp32")
        args.emplace_back(std::stof(value));
      else if (type == "fp64")
        args.emplace_back(std::stod(value));
      else
        return "unsupported scalar type " + type;
      continue;
    }
    ElemType type;
    if (!parseElemType(arg, type))
      return "unsupported buffer type " + arg;
    std::vector<std::uint8_t> bytes;
    std::string path = dir + "/" + id + "." + std::to_string(i) + ".in";
    if (!readFile(path, bytes))
      return "cannot open '" + path + "'";
    Expected<DeviceBuffer> buffer = DeviceBuffer::allocate(ctx, bytes.size());
    if (!buffer)
      return buffer.status().message();
    Status status = buffer->copyFromHost(bytes.data(), bytes.size());
    if (!status.ok())
      return status.message();
    buffers.push_back(buffer.take());
    args.emplace_back(buffers.back());
    bufferArgs.push_back({i, type});
  }
  Status status = kernel->launch(Dim3(gx, gy, gz), args.data(), args.size());
  if (status.ok())
    status = ctx.synchronize();
  if (!status.ok())
    return status.message();

  for (std::size_t b = 0; b < bufferArgs.size(); ++b) {
    auto [index, type] = bufferArgs[b];
    std::vector<std::uint8_t> expected, actual(buffers[b].size());
    std::string path = dir + "/" + id + "." + std::to_string(index) + ".out";
    if (!readFile(path, expected))
      return "cannot open '" + path + "'";
    status = buffers[b].copyToHost(actual.data(), actual.size());
    if (!status.ok())
      return status.message();
    double relError = 0;
    std::string diff = compare(decode(type, actual), decode(type, expected),
                               isInteger(type) ? 0.0 : tol, floor, relError);
    worst = std::max(worst, relError);
    if (!diff.empty())
      return "argument " + std::to_string(index) + ": " + diff;
  }
  return "";
}

} // namespace

int main(int argc, char **argv) {
  std::string dir, ptxDir;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--ptx-dir" && i + 1 < argc)
      ptxDir = argv[++i];
    else if (dir.empty() && arg[0] != '-')
      dir = arg;
    else
      dir = "";
  }
  if (dir.empty() || argc < 2) {
    std::fprintf(stderr,
                 "usage: tilec-interp-compare DIR [--ptx-dir PTX_DIR]\n");
    return 2;
  }
  if (ptxDir.empty())
    ptxDir = dir;
  std::ifstream cases(dir + "/cases.txt");
  if (!cases) {
    std::fprintf(stderr, "tilec-interp-compare: cannot open '%s/cases.txt'\n",
                 dir.c_str());
    return 1;
  }
  Expected<Context> ctx = Context::create();
  if (!ctx) {
    if (ctx.status().isNoDevice()) {
      std::printf("SKIP: no CUDA device (%s)\n",
                  ctx.status().message().c_str());
      return 77;
    }
    std::fprintf(stderr, "tilec-interp-compare: error: %s\n",
                 ctx.status().message().c_str());
    return 1;
  }

  std::map<std::string, std::unique_ptr<Module>> modules;
  unsigned passed = 0, failed = 0;
  std::string text;
  while (std::getline(cases, text)) {
    std::istringstream line(text);
    std::string id;
    if (!(line >> id))
      continue;
    double worst = 0;
    std::string diff = runCase(*ctx, dir, ptxDir, modules, line, id, worst);
    std::printf("| %-40s | %9.2e | %s\n", id.c_str(), worst,
                diff.empty() ? "PASS" : ("FAIL " + diff).c_str());
    ++(diff.empty() ? passed : failed);
  }
  std::printf("tilec-interp-compare: %u passed, %u failed\n", passed, failed);
  return failed || !passed ? 1 : 0;
}
