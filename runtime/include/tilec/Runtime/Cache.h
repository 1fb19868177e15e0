//===- Cache.h - The on-disk cache of compiled kernels ----------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// A folder of entries, one file per key, shared by every process that uses
// it. The folder is $TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec, else
// $HOME/.cache/tilec. An entry file is named after the 64-bit FNV-1a hash of
// its key and holds the key itself, so that a hash collision is a miss, not
// a wrong kernel:
//
//   tilec-cache 1\n<key length>\n<key><value>
//
// Writes go to a temporary file in the folder that is then renamed over the
// entry, so readers see a whole entry or none, and concurrent writers of the
// same key (which write the same bytes) are harmless. A hit sets the entry's
// modification time; after a write, the least recently used entries are
// removed while the folder holds more than the size bound
// ($TILEC_CACHE_MAX_BYTES, default 1 GiB).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_CACHE_H
#define TILEC_RUNTIME_CACHE_H

#include "tilec/Runtime/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {
namespace rt {

/// The 64-bit FNV-1a hash of \p text.
std::uint64_t fnv1a64(std::string_view text);

class DiskCache {
public:
  /// $TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec, else $HOME/.cache/tilec,
  /// else ".tilec-cache" in the current folder.
  static std::string defaultDirectory();
  /// $TILEC_CACHE_MAX_BYTES when set to a number, else 1 GiB.
  static std::uint64_t defaultMaxBytes();

  explicit DiskCache(std::string directory = defaultDirectory(),
                     std::uint64_t maxBytes = defaultMaxBytes());

  const std::string &directory() const { return Directory; }
  std::uint64_t maxBytes() const { return MaxBytes; }
  /// The file that holds (or would hold) the entry for \p key.
  std::string entryPath(std::string_view key) const;

  /// The value stored under \p key, or std::nullopt (also when the entry
  /// is unreadable or belongs to another key).
  std::optional<std::string> lookup(std::string_view key) const;
  /// Stores \p value under \p key (creating the folder), then evicts.
  Status store(std::string_view key, std::string_view value) const;

private:
  /// Removes the least recently used entries, and temporary files left by
  /// processes that died, while the folder holds more than MaxBytes.
  void evict() const;

  std::string Directory;
  std::uint64_t MaxBytes;
};

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_CACHE_H
