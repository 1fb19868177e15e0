//===- Autotune.cpp - Choose a kernel configuration by timing it ----------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Autotune.h"

#include "tilec/Runtime/Cache.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

using namespace tilec::rt;

std::string Autotuner::defaultFile() {
  const char *file = std::getenv("TILEC_TUNING_FILE");
  if (file && *file)
    return file;
  return DiskCache::defaultDirectory() + "/tuning.tsv";
}

Autotuner::Autotuner(std::string kernel, std::vector<std::string> configNames,
                     std::vector<TuningPreset> presets, std::string file,
                     TuningOptions options)
    : KernelName(std::move(kernel)), ConfigNames(std::move(configNames)),
      File(std::move(file)), Options(options) {
  for (const TuningPreset &preset : presets)
    if (preset.Config < ConfigNames.size())
      Choices.emplace(preset.Key, preset.Config);
}

unsigned Autotuner::tunedCount() const {
  std::lock_guard<std::mutex> guard(Lock);
  return Tuned;
}

void Autotuner::loadFile() {
  Loaded = true;
  std::string contents;
  if (!readFile(File, contents).ok())
    return; // No file yet.
  std::string_view rest = contents;
  while (!rest.empty()) {
    std::size_t newline = rest.find('\n');
    std::string_view line = rest.substr(0, newline);
    rest.remove_prefix(newline == std::string_view::npos ? rest.size()
                                                         : newline + 1);
    std::string_view fields[4];
    unsigned count = 0;
    while (count < 4) {
      std::size_t tab = line.find('\t');
      fields[count++] = line.substr(0, tab);
      if (tab == std::string_view::npos)
        break;
      line.remove_prefix(tab + 1);
    }
    if (count != 4 || fields[0] != KernelName)
      continue;
    auto config = std::find(ConfigNames.begin(), ConfigNames.end(), fields[2]);
    if (config == ConfigNames.end())
      continue;
    // Presets (baked into the program) stay; later lines replace earlier.
    Choices.insert_or_assign(
        std::string(fields[1]),
        static_cast<unsigned>(config - ConfigNames.begin()));
  }
}

Expected<unsigned> Autotuner::choose(const Context &ctx, std::string_view key,
                                     FunctionRef<Status(unsigned)> launch,
                                     const Stream *stream) {
  std::lock_guard<std::mutex> guard(Lock);
  if (!Loaded) {
    // Presets win over the file: keep them aside while reading it.
    std::map<std::string, unsigned, std::less<>> presets;
    presets.swap(Choices);
    loadFile();
    for (auto &preset : presets)
      Choices.insert_or_assign(preset.first, preset.second);
  }
  auto known = Choices.find(key);
  if (known != Choices.end())
    return known->second;
  if (ConfigNames.empty())
    return Status::invalidArgument("kernel '" + KernelName +
                                   "' has no configurations to tune");

  double bestMs = 0;
  Expected<unsigned> best = tune(ctx, key, launch, stream, bestMs);
  if (!best)
    return best;
  ++Tuned;
  Choices.emplace(std::string(key), *best);

  // One write of a whole line to a file opened for appending: concurrent
  // processes do not interleave their lines.
  std::error_code ec;
  std::filesystem::path parent = std::filesystem::path(File).parent_path();
  if (!parent.empty())
    std::filesystem::create_directories(parent, ec);
  std::string line = fmt::format("{}\t{}\t{}\t{:.6f}\n", KernelName, key,
                                 ConfigNames[*best], bestMs);
  int fd =
      ::open(File.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  bool written = fd >= 0 && ::write(fd, line.data(), line.size()) ==
                                static_cast<ssize_t>(line.size());
  if (fd >= 0)
    ::close(fd);
  if (!written && Options.Progress)
    std::fprintf(stderr, "tilec: cannot record the tuning in '%s': %s\n",
                 File.c_str(), std::strerror(errno));
  return best;
}

Expected<unsigned> Autotuner::tune(const Context &ctx, std::string_view key,
                                   FunctionRef<Status(unsigned)> launch,
                                   const Stream *stream, double &bestMs) {
  auto started = std::chrono::steady_clock::now();
  Expected<Event> begin = Event::create(ctx);
  if (!begin)
    return begin.status();
  Expected<Event> end = Event::create(ctx);
  if (!end)
    return end.status();

  // The line that counts the configurations is redrawn in place, so only
  // on a terminal; the choice is printed in any case.
  bool progressLine = Options.Progress && ::isatty(STDERR_FILENO);
  unsigned best = 0;
  bestMs = -1;
  std::string keyText(key);
  for (unsigned config = 0; config < ConfigNames.size(); ++config) {
    if (progressLine) {
      std::fprintf(stderr,
                   "\rtilec: tuning %s for %s: config %u/%zu (%s)\x1b[K",
                   KernelName.c_str(), keyText.c_str(), config + 1,
                   ConfigNames.size(), ConfigNames[config].c_str());
      std::fflush(stderr);
    }
    auto context = [&](const Status &status) {
      if (progressLine)
        std::fputc('\n', stderr);
      return status.withContext("tuning kernel '" + KernelName + "' for " +
                                keyText + ", config " + ConfigNames[config]);
    };
    for (unsigned i = 0; i < Options.Warmup; ++i)
      if (Status status = launch(config); !status.ok())
        return context(status);
    std::vector<double> rounds;
    for (unsigned round = 0; round < Options.Rounds; ++round) {
      Status status = begin->record(stream);
      for (unsigned i = 0; status.ok() && i < Options.LaunchesPerRound; ++i)
        status = launch(config);
      if (status.ok())
        status = end->record(stream);
      if (status.ok())
        status = end->synchronize();
      if (!status.ok())
        return context(status);
      Expected<float> ms = Event::elapsedMs(*begin, *end);
      if (!ms)
        return context(ms.status());
      rounds.push_back(*ms / std::max(1u, Options.LaunchesPerRound));
    }
    double median = 0;
    if (!rounds.empty()) {
      std::sort(rounds.begin(), rounds.end());
      median = rounds[rounds.size() / 2];
    }
    if (bestMs < 0 || median < bestMs) {
      bestMs = median;
      best = config;
    }
  }
  if (Options.Progress) {
    double totalMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - started)
                         .count();
    std::fprintf(stderr,
                 "%stilec: tuned %s for %s: %s (%.4f ms; %zu configs in "
                 "%.0f ms)\n",
                 progressLine ? "\r\x1b[K" : "", KernelName.c_str(),
                 keyText.c_str(), ConfigNames[best].c_str(), bestMs,
                 ConfigNames.size(), totalMs);
  }
  return best;
}
