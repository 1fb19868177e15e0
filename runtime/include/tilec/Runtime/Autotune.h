//===- Autotune.h - Choose a kernel configuration by timing it --*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Triton's @triton.autotune for C++: a kernel comes in several configurations
// (constexpr values, num_warps, num_stages), each named by a canonical string
// such as "BLOCK_M=64,BLOCK_N=64,num_warps=4". For each key (the values of
// the arguments named as the tuning key, e.g. "M=512,N=512,K=512"), the
// first launch times every configuration with CUDA events on the caller's
// stream and arguments, with a progress line on standard error, and the
// fastest is used from then on. Choices are appended to a tuning file,
// $TILEC_TUNING_FILE or else tuning.tsv in the kernel cache folder, one line
// per choice:
//
//   <kernel>\t<key>\t<config name>\t<milliseconds>
//
// and read back by later runs (the last line for a key wins; lines naming a
// configuration the kernel no longer has are ignored). The same file given
// to `tilec --emit header --tuning FILE` bakes the choices into a generated
// launcher, which passes them here as presets.
//
// Tuning launches the kernel many times on the real arguments: a kernel that
// accumulates into or updates its inputs in place sees them changed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_AUTOTUNE_H
#define TILEC_RUNTIME_AUTOTUNE_H

#include "tilec/Runtime/FunctionRef.h"
#include "tilec/Runtime/Runtime.h"

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {
namespace rt {

/// A choice known before the program runs.
struct TuningPreset {
  const char *Key;
  unsigned Config;
};

/// How configurations are timed.
struct TuningOptions {
  /// Launches of each configuration before timing (loads its module).
  unsigned Warmup = 2;
  /// Timed rounds per configuration; the median round counts.
  unsigned Rounds = 5;
  /// Launches per timed round.
  unsigned LaunchesPerRound = 10;
  /// Print the choice on standard error, and while timing, when standard
  /// error is a terminal, a progress line.
  bool Progress = true;
};

class Autotuner {
public:
  /// $TILEC_TUNING_FILE, else tuning.tsv in DiskCache::defaultDirectory().
  static std::string defaultFile();

  Autotuner(std::string kernel, std::vector<std::string> configNames,
            std::vector<TuningPreset> presets = {},
            std::string file = defaultFile(), TuningOptions options = {});

  /// Returns the configuration for \p key: a preset, a choice recorded in
  /// the tuning file, or else the fastest when timed now, with \p launch
  /// launching configuration i once on \p stream. Thread-safe; concurrent
  /// callers with a new key wait for one tuning.
  Expected<unsigned> choose(const Context &ctx, std::string_view key,
                            FunctionRef<Status(unsigned)> launch,
                            const Stream *stream = nullptr);

  const std::vector<std::string> &configNames() const { return ConfigNames; }
  const std::string &file() const { return File; }
  /// How many keys this object has timed (not counting presets and
  /// choices read from the file).
  unsigned tunedCount() const;

private:
  /// Reads the tuning file's lines for this kernel into Choices.
  void loadFile();
  Expected<unsigned> tune(const Context &ctx, std::string_view key,
                          FunctionRef<Status(unsigned)> launch,
                          const Stream *stream, double &bestMs);

  std::string KernelName;
  std::vector<std::string> ConfigNames;
  std::string File;
  TuningOptions Options;
  mutable std::mutex Lock;
  bool Loaded = false;
  unsigned Tuned = 0;
  std::map<std::string, unsigned, std::less<>> Choices;
};

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_AUTOTUNE_H
