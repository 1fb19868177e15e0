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
#include <sys/stat.h>
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

constexpr std::string_view Magic = "tilec-cache 2\n";
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

namespace {

/// Reads the regular file at \p path, of at most \p maxBytes, into
/// \p contents without following a link or blocking on a FIFO. Returns
/// whether there was a file, and sets \p problem when it is not such a
/// file or cannot be read.
bool readEntryFile(const std::string &path, std::uint64_t maxBytes,
                   std::string &contents, std::string &problem) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      return false;
    problem = errno == ELOOP
                  ? "it is a symbolic link"
                  : std::string("it cannot be opened: ") + std::strerror(errno);
    return true;
  }
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    problem = "it is not a regular file";
    return true;
  }
  if (static_cast<std::uint64_t>(info.st_size) > maxBytes) {
    ::close(fd);
    problem = fmt::format("it holds {} bytes, more than the cache's bound",
                          static_cast<std::uint64_t>(info.st_size));
    return true;
  }
  contents.resize(static_cast<std::size_t>(info.st_size));
  std::size_t done = 0;
  while (done < contents.size()) {
    ssize_t n = ::read(fd, &contents[done], contents.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (done != contents.size())
    problem = "it cannot be read";
  return true;
}

/// Checks the framing of entry \p contents; on success \p value is the
/// value, and an entry of another key is reported by \p otherKey.
std::string parseEntryFile(std::string_view contents, std::string_view key,
                           std::string_view &value, bool &otherKey) {
  std::string_view rest = contents;
  if (rest.substr(0, Magic.size()) != Magic)
    return "it does not start with '" +
           std::string(Magic.substr(0, Magic.size() - 1)) + "'";
  rest.remove_prefix(Magic.size());
  std::size_t newline = rest.find('\n');
  if (newline == std::string_view::npos || newline > 64)
    return "its header line is garbled";
  std::string header(rest.substr(0, newline));
  unsigned long long keyLength = 0, valueLength = 0, hash = 0;
  int used = 0;
  if (std::sscanf(header.c_str(), "%llu %llu %16llx%n", &keyLength,
                  &valueLength, &hash, &used) != 3 ||
      static_cast<std::size_t>(used) != header.size())
    return "its header line is garbled";
  rest.remove_prefix(newline + 1);
  if (keyLength > rest.size() || rest.size() - keyLength != valueLength)
    return "its length does not match its header (truncated?)";
  if (rest.substr(0, keyLength) != key) {
    otherKey = true;
    return "";
  }
  value = rest.substr(keyLength);
  if (fnv1a64(value) != hash)
    return "its contents do not match their checksum";
  return "";
}

} // namespace

CacheEntry DiskCache::lookup(std::string_view key) const {
  CacheEntry entry;
  std::string path = entryPath(key);
  std::string contents, problem;
  if (!readEntryFile(path, std::max<std::uint64_t>(MaxBytes, 1 << 20), contents,
                     problem))
    return entry;
  std::string_view value;
  bool otherKey = false;
  if (problem.empty())
    problem = parseEntryFile(contents, key, value, otherKey);
  if (otherKey)
    return entry;
  if (!problem.empty()) {
    entry.EntryState = CacheEntry::State::Corrupt;
    entry.Problem = removeCorrupt(key, problem);
    return entry;
  }
  // Refresh the entry's time for eviction; failing to is harmless.
  std::error_code ec;
  fs::last_write_time(path, fs::file_time_type::clock::now(), ec);
  entry.EntryState = CacheEntry::State::Found;
  entry.Value.assign(value);
  return entry;
}

std::string DiskCache::removeCorrupt(std::string_view key,
                                     std::string_view why) const {
  std::string path = entryPath(key);
  std::error_code ec;
  fs::remove(path, ec);
  return "corrupt cache entry '" + path + "' (" + std::string(why) + ")";
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
  std::string header =
      std::string(Magic) +
      fmt::format("{} {} {:016x}\n", key.size(), value.size(), fnv1a64(value));
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
