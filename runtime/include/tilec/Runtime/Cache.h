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
// a wrong kernel, and the length and FNV-1a hash of its value, so that an
// entry damaged on disk is found out:
//
//   tilec-cache 2\n<key length> <value length> <value hash, 16 hex>\n
//   <key><value>
//
// An entry that is not a regular file (a FIFO, a link, a device), is larger
// than the cache's bound, or whose framing or hash does not hold is corrupt:
// lookup removes it and says why. Entries are opened without following links
// and without blocking.
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

/// What DiskCache::lookup found under a key.
struct CacheEntry {
  enum class State {
    Missing, ///< no entry (or the entry of another key)
    Found,   ///< the value stored under the key
    Corrupt, ///< a damaged entry, now removed
  };
  State EntryState = State::Missing;
  /// The value (Found) or what was wrong with the entry (Corrupt).
  std::string Value, Problem;

  bool found() const { return EntryState == State::Found; }
  bool corrupt() const { return EntryState == State::Corrupt; }
};

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

  /// The entry under \p key: its value, none (also when it belongs to
  /// another key), or a corrupt one, which is removed.
  CacheEntry lookup(std::string_view key) const;
  /// Stores \p value under \p key (creating the folder), then evicts.
  Status store(std::string_view key, std::string_view value) const;
  /// Removes the entry under \p key, found unusable for the reason \p why,
  /// and returns the message that names it: "corrupt cache entry 'PATH'
  /// (WHY)".
  std::string removeCorrupt(std::string_view key, std::string_view why) const;

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
