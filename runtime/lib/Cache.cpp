//===- Cache.cpp - The on-disk cache of compiled kernels ------------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// See Cache.h for the layout. The library is built without exceptions, so
// only the error_code overloads of std::filesystem are used.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Cache.h"

#include "tilec/Runtime/Runtime.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace fs = std::filesystem;
using namespace tilec::rt;

namespace {

constexpr std::string_view Magic = "tilec-cache 1\n";
constexpr std::string_view EntrySuffix = ".tilec";
constexpr std::string_view TempMarker = ".tmp.";

/// Temporary files older than this were left by a process that died.
constexpr auto StaleTempAge = std::chrono::minutes(10);

const char *nonEmptyEnv(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

/// Writes all of \p data to \p fd.
bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

} // namespace

std::uint64_t tilec::rt::fnv1a64(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string DiskCache::defaultDirectory() {
  if (const char *dir = nonEmptyEnv("TILEC_CACHE_DIR"))
    return dir;
  if (const char *xdg = nonEmptyEnv("XDG_CACHE_HOME"))
    return std::string(xdg) + "/tilec";
  if (const char *home = nonEmptyEnv("HOME"))
    return std::string(home) + "/.cache/tilec";
  return ".tilec-cache";
}

std::uint64_t DiskCache::defaultMaxBytes() {
  if (const char *text = nonEmptyEnv("TILEC_CACHE_MAX_BYTES")) {
    char *end = nullptr;
    unsigned long long value = std::strtoull(text, &end, 10);
    if (end && *end == '\0')
      return value;
  }
  return std::uint64_t(1) << 30;
}

DiskCache::DiskCache(std::string directory, std::uint64_t maxBytes)
    : Directory(std::move(directory)), MaxBytes(maxBytes) {}

std::string DiskCache::entryPath(std::string_view key) const {
  return fmt::format("{}/{:016x}{}", Directory, fnv1a64(key), EntrySuffix);
}

std::optional<std::string> DiskCache::lookup(std::string_view key) const {
  std::string path = entryPath(key);
  std::string contents;
  if (!readFile(path, contents).ok())
    return std::nullopt;
  std::string_view rest = contents;
  if (rest.substr(0, Magic.size()) != Magic)
    return std::nullopt;
  rest.remove_prefix(Magic.size());
  std::size_t newline = rest.find('\n');
  if (newline == std::string_view::npos)
    return std::nullopt;
  std::string lengthText(rest.substr(0, newline));
  char *end = nullptr;
  unsigned long long keyLength = std::strtoull(lengthText.c_str(), &end, 10);
  if (lengthText.empty() || *end != '\0')
    return std::nullopt;
  rest.remove_prefix(newline + 1);
  if (keyLength > rest.size() || rest.substr(0, keyLength) != key)
    return std::nullopt;
  rest.remove_prefix(keyLength);
  // Refresh the entry's time for eviction; failing to is harmless.
  std::error_code ec;
  fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
  return std::string(rest);
}

Status DiskCache::store(std::string_view key, std::string_view value) const {
  std::error_code ec;
  fs::create_directories(Directory, ec);
  if (ec)
    return Status::error(ErrorCode::IOError,
                         "cannot create the cache folder '" + Directory +
                             "': " + ec.message());
  static std::atomic<unsigned> counter{0};
  std::string path = entryPath(key);
  std::string temp = path + std::string(TempMarker) +
                     std::to_string(::getpid()) + "." +
                     std::to_string(counter.fetch_add(1));
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return Status::error(ErrorCode::IOError, "cannot create '" + temp +
                                                 "': " + std::strerror(errno));
  std::string header = std::string(Magic) + std::to_string(key.size()) + "\n";
  bool ok = writeAll(fd, header) && writeAll(fd, key) && writeAll(fd, value);
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    return Status::error(ErrorCode::IOError,
                         "cannot write the cache entry '" + path + "': " + why);
  }
  evict();
  return Status::success();
}

void DiskCache::evict() const {
  struct Entry {
    fs::path Path;
    std::uintmax_t Size;
    fs::file_time_type Time;
  };
  std::vector<Entry> entries;
  std::uintmax_t total = 0;
  auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::directory_iterator it(Directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::string name = it->path().filename().string();
    std::error_code entryError;
    std::uintmax_t size = it->file_size(entryError);
    fs::file_time_type time = it->last_write_time(entryError);
    if (entryError)
      continue; // Removed by another process meanwhile.
    if (name.find(TempMarker) != std::string::npos) {
      if (now - time > StaleTempAge)
        fs::remove(it->path(), entryError);
      continue;
    }
    if (name.size() <= EntrySuffix.size() ||
        name.compare(name.size() - EntrySuffix.size(), EntrySuffix.size(),
                     EntrySuffix) != 0)
      continue;
    entries.push_back({it->path(), size, time});
    total += size;
  }
  if (total <= MaxBytes)
    return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.Time < b.Time; });
  for (const Entry &entry : entries) {
    if (total <= MaxBytes)
      break;
    std::error_code removeError;
    fs::remove(entry.Path, removeError);
    total -= entry.Size;
  }
}
