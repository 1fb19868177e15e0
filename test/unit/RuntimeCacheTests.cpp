//===- RuntimeCacheTests.cpp - Host-side tests of the runtime's helpers ---===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// What needs no driver: the disk cache (entries, key checks, checksums and
// damaged entries, atomic files, the size bound, the folder from the
// environment), the JIT's
// specialization of arguments, configuration names, tensor views, pointer
// type checks, FunctionRef and the exceptions of Error.h.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Cache.h"
#include "tilec/Runtime/Error.h"
#include "tilec/Runtime/Jit.h"
#include "tilec/Runtime/Tensor.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace tilec::rt;
using Catch::Matchers::Contains;

namespace {

/// A fresh folder under the system's temporary folder.
std::string freshFolder(const std::string &name) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("tilec-unit-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

std::string signatureOf(std::initializer_list<JitArg> args) {
  std::string signature;
  for (const JitArg &arg : args)
    arg.appendSpecialization(signature);
  return signature;
}

} // namespace

TEST_CASE("The disk cache stores and finds entries", "[runtime][cache]") {
  std::string dir = freshFolder("cache");
  DiskCache cache(dir);
  CHECK(cache.lookup("key one").EntryState == CacheEntry::State::Missing);
  REQUIRE(cache.store("key one", std::string("value\0with nul", 14)).ok());
  CacheEntry hit = cache.lookup("key one");
  REQUIRE(hit.found());
  CHECK(hit.Value == std::string("value\0with nul", 14));
  CHECK_FALSE(cache.lookup("key two").found());

  // Storing again replaces the entry; no temporary file is left.
  REQUIRE(cache.store("key one", "second").ok());
  CHECK(cache.lookup("key one").Value == "second");
  unsigned files = 0;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().extension() == ".tilec");
    ++files;
  }
  CHECK(files == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("A cache entry of another key is a miss", "[runtime][cache]") {
  std::string dir = freshFolder("collision");
  DiskCache cache(dir);
  REQUIRE(cache.store("key a", "value a").ok());
  // Put key a's entry where key b's would be, as a hash collision would:
  // a miss, and the entry stays.
  std::filesystem::rename(cache.entryPath("key a"), cache.entryPath("key b"));
  CHECK(cache.lookup("key b").EntryState == CacheEntry::State::Missing);
  CHECK(std::filesystem::exists(cache.entryPath("key b")));
  std::filesystem::remove_all(dir);
}

/// Whether `key`'s entry is reported corrupt for a reason containing
/// `why`, and gone afterwards.
static bool isDroppedAsCorrupt(const DiskCache &cache, const std::string &key,
                               const std::string &why) {
  CacheEntry entry = cache.lookup(key);
  INFO(entry.Problem);
  std::error_code ec;
  return entry.corrupt() &&
         entry.Problem.find("corrupt cache entry") != std::string::npos &&
         entry.Problem.find(why) != std::string::npos &&
         !std::filesystem::exists(
             std::filesystem::symlink_status(cache.entryPath(key), ec));
}

TEST_CASE("Damaged cache entries are found out and removed",
          "[runtime][cache]") {
  std::string dir = freshFolder("damaged");
  DiskCache cache(dir, 1 << 20);
  auto contents = [&](const std::string &key) {
    std::ifstream in(cache.entryPath(key), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  auto overwrite = [&](const std::string &key, const std::string &text) {
    std::ofstream(cache.entryPath(key), std::ios::binary | std::ios::trunc)
        << text;
  };
  const std::string value = "ptx 5\nhello";

  // A changed byte of the value: the checksum no longer holds.
  REQUIRE(cache.store("k", value).ok());
  std::string text = contents("k");
  text.back() ^= 1;
  overwrite("k", text);
  CHECK(isDroppedAsCorrupt(cache, "k", "checksum"));

  // A truncated entry, a garbled header line, a foreign file.
  REQUIRE(cache.store("k", value).ok());
  text = contents("k");
  overwrite("k", text.substr(0, text.size() - 3));
  CHECK(isDroppedAsCorrupt(cache, "k", "length"));
  REQUIRE(cache.store("k", value).ok());
  text = contents("k");
  text[text.find('\n') + 1] = 'x';
  overwrite("k", text);
  CHECK(isDroppedAsCorrupt(cache, "k", "header line"));
  overwrite("k", "not a cache entry");
  CHECK(isDroppedAsCorrupt(cache, "k", "does not start with"));

  // Not regular files: a FIFO (opened without blocking), a link to
  // /dev/zero (not followed), a file past the bound.
  std::filesystem::create_directories(dir);
  REQUIRE(::mkfifo(cache.entryPath("k").c_str(), 0644) == 0);
  CHECK(isDroppedAsCorrupt(cache, "k", "not a regular file"));
  std::filesystem::create_symlink("/dev/zero", cache.entryPath("k"));
  CHECK(isDroppedAsCorrupt(cache, "k", "symbolic link"));
  overwrite("k", std::string((1 << 20) + 1, 'x'));
  CHECK(isDroppedAsCorrupt(cache, "k", "more than the cache's bound"));

  // A fresh store after all of that is found again.
  REQUIRE(cache.store("k", value).ok());
  CHECK(cache.lookup("k").Value == value);
  std::filesystem::remove_all(dir);
}

TEST_CASE("The cache keeps to its size bound", "[runtime][cache]") {
  std::string dir = freshFolder("bound");
  // Room for about three entries of 1000 bytes.
  DiskCache cache(dir, 3500);
  std::string value(1000, 'x');
  for (int i = 0; i < 3; ++i) {
    REQUIRE(cache.store("key " + std::to_string(i), value).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // A hit makes key 0 the most recently used, so key 1 goes first.
  REQUIRE(cache.lookup("key 0").found());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(cache.store("key 3", value).ok());
  CHECK(cache.lookup("key 0").found());
  CHECK_FALSE(cache.lookup("key 1").found());
  CHECK(cache.lookup("key 2").found());
  CHECK(cache.lookup("key 3").found());
  std::filesystem::remove_all(dir);
}

TEST_CASE("Concurrent writers of one key leave a whole entry",
          "[runtime][cache]") {
  std::string dir = freshFolder("concurrent");
  DiskCache cache(dir);
  std::string value(200000, 'v');
  std::vector<std::thread> writers;
  for (int i = 0; i < 4; ++i)
    writers.emplace_back([&] {
      for (int j = 0; j < 10; ++j)
        CHECK(cache.store("shared key", value).ok());
    });
  for (std::thread &writer : writers)
    writer.join();
  CHECK(cache.lookup("shared key").Value == value);
  std::filesystem::remove_all(dir);
}

TEST_CASE("The cache folder comes from the environment", "[runtime][cache]") {
  ::setenv("TILEC_CACHE_DIR", "/tmp/tilec-env-cache", 1);
  ::setenv("TILEC_CACHE_MAX_BYTES", "12345", 1);
  CHECK(DiskCache::defaultDirectory() == "/tmp/tilec-env-cache");
  CHECK(DiskCache::defaultMaxBytes() == 12345);
  CHECK(Autotuner::defaultFile() == "/tmp/tilec-env-cache/tuning.tsv");
  ::unsetenv("TILEC_CACHE_DIR");
  ::unsetenv("TILEC_CACHE_MAX_BYTES");
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  CHECK(DiskCache::defaultDirectory() == "/tmp/xdg/tilec");
  CHECK(DiskCache::defaultMaxBytes() == (std::uint64_t(1) << 30));
}

TEST_CASE("JIT arguments specialize as Triton's do", "[runtime][jit]") {
  TensorView aligned(DevicePtr{0x1000}, ScalarType::FP16, {4, 4});
  TensorView misaligned(DevicePtr{0x1004}, ScalarType::BF16, {4});
  CHECK(signatureOf({aligned, misaligned}) == "*fp16:16, *bf16");
  CHECK(signatureOf({1, 16, 17, 0}) == "i32:1, i32:16, i32, i32:16");
  CHECK(signatureOf({std::int64_t(1) << 40, -5}) == "i64:16, i32");
  CHECK(signatureOf({std::uint64_t(1) << 63}) == "u64:16");
  CHECK(signatureOf({1.5f, 2.5}) == "fp32, fp64");
  // Tuples element by element, nested ones too.
  CHECK(signatureOf({JitArg::tuple({16, 1}), 3}) == "(i32:16, i32:1), i32");
  CHECK(signatureOf({JitArg::tuple({aligned, JitArg::tuple({7})})}) ==
        "(*fp16:16, (i32,))");
}

TEST_CASE("Configurations are named as tuning files name them",
          "[runtime][jit]") {
  JitConfig config;
  config.Constexprs = {{"BLOCK_M", "64"}, {"BLOCK_N", "32"}};
  config.NumWarps = 8;
  CHECK(config.name() == "BLOCK_M=64,BLOCK_N=32,num_warps=8,num_stages=3");
  CHECK(std::string(buildIdentity()).rfind("tilec ", 0) == 0);
}

TEST_CASE("Tensor views and pointer arguments", "[runtime][tensor]") {
  TensorView view(DevicePtr{0x2000}, ScalarType::FP32, {3, 4, 5});
  CHECK(view.strides() == std::vector<std::int64_t>{20, 5, 1});
  CHECK(view.numel() == 60);
  CHECK(view.isContiguous());
  TensorView transposed(DevicePtr{0x2000}, ScalarType::FP32, {4, 3}, {1, 4});
  CHECK_FALSE(transposed.isContiguous());
  CHECK(transposed.describe() == "fp32[4, 3] strides [1, 4] at 0x2000");

  CHECK(PointerArg(view).checkType(ScalarType::FP32, "k", "x").ok());
  Status wrong = PointerArg(view).checkType(ScalarType::FP16, "k", "x_ptr");
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.message() ==
        "kernel 'k', argument 'x_ptr': a tensor of fp32 was passed for *fp16");
  // A raw pointer has no element type to check.
  CHECK(PointerArg(DevicePtr{0x10}).checkType(ScalarType::FP16, "k", "x").ok());
}

TEST_CASE("FunctionRef calls its callable", "[runtime]") {
  int calls = 0;
  auto twice = [&](int x) {
    ++calls;
    return 2 * x;
  };
  FunctionRef<int(int)> ref(twice);
  CHECK(ref(21) == 42);
  CHECK(calls == 1);
}

TEST_CASE("Error.h turns failures into exceptions", "[runtime]") {
  CHECK_NOTHROW(check(Status::success()));
  try {
    check(Status::invalidArgument("kernel 'k', argument 0: bad"));
    FAIL("check did not throw");
  } catch (const Error &error) {
    CHECK(error.code() == ErrorCode::InvalidArgument);
    CHECK_THAT(error.what(), Contains("argument 0: bad"));
  }
  CHECK(value(Expected<int>(7)) == 7);
  CHECK_THROWS_AS(value(Expected<int>(Status::parseError("x"))), Error);
}
