//===- HostData.h - Host-side data for GPU tests and benchmarks -*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// Header-only helpers shared by tilec-gpu-tests and tilec-bench: a parallel
// loop over fixed-size chunks (results do not depend on the number of
// threads) and one over rows, reproducible random fills seeded per chunk,
// the element types of the kernels' tensors (fp32, fp16, bf16) with their
// round-to-nearest-even encoding and decoding, and the exact check of a
// vector sum with its relative error against a float64 reference.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_GPU_HOSTDATA_H
#define TILEC_TEST_GPU_HOSTDATA_H

#include "tilec/Runtime/Metadata.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <thread>
#include <vector>

namespace tilec {
namespace gpu {

/// Elements per chunk of the parallel helpers.
constexpr std::uint64_t ChunkSize = 1 << 16;

/// Calls fn(chunkIndex, begin, end) for every ChunkSize-element chunk of
/// [0, n), spread over the machine's cores.
template <typename Fn> void forEachChunk(std::uint64_t n, Fn fn) {
  std::uint64_t chunks = (n + ChunkSize - 1) / ChunkSize;
  std::atomic<std::uint64_t> next{0};
  auto worker = [&] {
    for (std::uint64_t c = next++; c < chunks; c = next++)
      fn(c, c * ChunkSize, std::min(n, (c + 1) * ChunkSize));
  };
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(
      std::min<std::uint64_t>(threads, std::max<std::uint64_t>(chunks, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread &thread : pool)
    thread.join();
}

/// Fills data[0, n) with random floats of mixed magnitude: uniform in
/// (-1, 1) times 2^k, k uniform in [-10, 10]. The values depend only on
/// (seed, stream), not on the thread count.
inline void fillRandomFloats(float *data, std::uint64_t n, std::uint32_t seed,
                             std::uint32_t stream) {
  forEachChunk(
      n, [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
        std::seed_seq seq{seed, stream, static_cast<std::uint32_t>(chunk),
                          static_cast<std::uint32_t>(chunk >> 32)};
        std::mt19937 rng(seq);
        std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
        std::uniform_int_distribution<int> exponent(-10, 10);
        for (std::uint64_t i = begin; i < end; ++i)
          data[i] = std::ldexp(mantissa(rng), exponent(rng));
      });
}

/// Calls fn(row) for every row of [0, rows), spread over the machine's
/// cores (each call must only write data of its own row).
template <typename Fn> void forEachRow(std::uint64_t rows, Fn fn) {
  std::atomic<std::uint64_t> next{0};
  auto worker = [&] {
    for (std::uint64_t r = next++; r < rows; r = next++)
      fn(r);
  };
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(
      std::min<std::uint64_t>(threads, std::max<std::uint64_t>(rows, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread &thread : pool)
    thread.join();
}

/// Fills data[0, n) with floats uniform in [lo, hi). Like fillRandomFloats,
/// the values depend only on (seed, stream).
inline void fillUniform(float *data, std::uint64_t n, std::uint32_t seed,
                        std::uint32_t stream, float lo = -1.0f,
                        float hi = 1.0f) {
  forEachChunk(
      n, [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
        std::seed_seq seq{seed, stream, static_cast<std::uint32_t>(chunk),
                          static_cast<std::uint32_t>(chunk >> 32)};
        std::mt19937 rng(seq);
        std::uniform_real_distribution<float> value(lo, hi);
        for (std::uint64_t i = begin; i < end; ++i)
          data[i] = value(rng);
      });
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// The element type of a kernel's tensor.
/// Integers travel as floats on the host (exact below 2^24).
enum class ElemType { F32, F16, BF16, I8, U8, I32 };

/// The kernel ABI's dtype of `type`, which gives its name and size.
inline tilec::abi::ScalarType scalarType(ElemType type) {
  using tilec::abi::ScalarType;
  switch (type) {
  case ElemType::F32:
    return ScalarType::FP32;
  case ElemType::F16:
    return ScalarType::FP16;
  case ElemType::BF16:
    return ScalarType::BF16;
  case ElemType::I8:
    return ScalarType::I8;
  case ElemType::U8:
    return ScalarType::U8;
  case ElemType::I32:
    return ScalarType::I32;
  }
  return ScalarType::FP32;
}

inline unsigned elemSize(ElemType type) {
  return tilec::abi::scalarTypeSize(scalarType(type));
}

/// Triton's spelling: "fp32", "fp16", "bf16", "i8", "u8", "i32".
inline const char *elemName(ElemType type) {
  return tilec::abi::scalarTypeName(scalarType(type));
}

/// Decodes IEEE binary16 bits (subnormals, infinities and NaNs included).
inline float halfBitsToFloat(std::uint16_t bits) {
  std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  std::uint32_t word =
      exponent == 0x1fu ? sign | 0x7f800000u | (mantissa << 13)
                        : sign | ((exponent + 112u) << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// Decodes bfloat16 bits.
inline float bf16BitsToFloat(std::uint16_t bits) {
  std::uint32_t word = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// Rounds \p value to \p type (nearest even; integers saturate) and widens
/// it back.
inline float roundTo(ElemType type, float value) {
  switch (type) {
  case ElemType::F32:
    return value;
  case ElemType::I8:
    return std::fmin(127.0f, std::fmax(-128.0f, std::nearbyint(value)));
  case ElemType::U8:
    return std::fmin(255.0f, std::fmax(0.0f, std::nearbyint(value)));
  case ElemType::I32:
    return std::nearbyint(value);
  case ElemType::F16:
    return halfBitsToFloat(rt::floatToHalfBits(value));
  case ElemType::BF16:
    return bf16BitsToFloat(rt::floatToBFloat16Bits(value));
  }
  return value;
}

/// Writes values[0, n) as \p type (rounding to nearest even) to \p bytes,
/// which must hold n * elemSize(type) bytes.
inline void encodeElements(ElemType type, const float *values, std::uint64_t n,
                           std::uint8_t *bytes) {
  forEachChunk(n, [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      if (type == ElemType::F32) {
        std::memcpy(bytes + 4 * i, &values[i], 4);
        continue;
      }
      if (type == ElemType::I8) {
        bytes[i] = static_cast<std::uint8_t>(static_cast<std::int8_t>(
            std::isnan(values[i]) ? -1.0f : values[i]));
        continue;
      }
      if (type == ElemType::U8) {
        bytes[i] = std::isnan(values[i]) ? std::uint8_t(0xFF)
                                         : static_cast<std::uint8_t>(values[i]);
        continue;
      }
      if (type == ElemType::I32) {
        std::int32_t v = static_cast<std::int32_t>(values[i]);
        std::memcpy(bytes + 4 * i, &v, 4);
        continue;
      }
      std::uint16_t bits = type == ElemType::F16
                               ? rt::floatToHalfBits(values[i])
                               : rt::floatToBFloat16Bits(values[i]);
      std::memcpy(bytes + 2 * i, &bits, 2);
    }
  });
}

/// Reads n elements of \p type from \p bytes into values[0, n).
inline void decodeElements(ElemType type, const std::uint8_t *bytes,
                           std::uint64_t n, float *values) {
  forEachChunk(n, [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      if (type == ElemType::F32) {
        std::memcpy(&values[i], bytes + 4 * i, 4);
        continue;
      }
      if (type == ElemType::I8) {
        values[i] = static_cast<std::int8_t>(bytes[i]);
        continue;
      }
      if (type == ElemType::U8) {
        values[i] = bytes[i];
        continue;
      }
      if (type == ElemType::I32) {
        std::int32_t v;
        std::memcpy(&v, bytes + 4 * i, 4);
        values[i] = static_cast<float>(v);
        continue;
      }
      std::uint16_t bits;
      std::memcpy(&bits, bytes + 2 * i, 2);
      values[i] =
          type == ElemType::F16 ? halfBitsToFloat(bits) : bf16BitsToFloat(bits);
    }
  });
}

/// The outcome of checking a kernel's float output.
struct Comparison {
  /// Elements whose bits differ from the exact float result.
  std::uint64_t Mismatches = 0;
  /// The first few mismatching indices, in order.
  std::vector<std::uint64_t> FirstMismatches;
  /// ||out - ref|| / ||ref|| against the float64 reference; NaN if any
  /// output is NaN.
  double RelError = std::numeric_limits<double>::quiet_NaN();
};

/// Checks out[i] == x[i] + y[i] exactly (bit for bit) and computes the
/// relative error against the float64 sum.
inline Comparison checkVectorAdd(const float *x, const float *y,
                                 const float *out, std::uint64_t n,
                                 unsigned keepFirst = 8) {
  std::uint64_t chunks = (n + ChunkSize - 1) / ChunkSize;
  struct Partial {
    std::uint64_t Mismatches = 0;
    std::uint64_t First = std::numeric_limits<std::uint64_t>::max();
    double ErrorSquares = 0.0;
    double RefSquares = 0.0;
  };
  std::vector<Partial> partials(chunks);
  forEachChunk(
      n, [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
        Partial &p = partials[chunk];
        for (std::uint64_t i = begin; i < end; ++i) {
          float expected = x[i] + y[i];
          if (std::memcmp(&out[i], &expected, sizeof(float)) != 0) {
            if (p.Mismatches++ == 0)
              p.First = i;
          }
          double ref = static_cast<double>(x[i]) + static_cast<double>(y[i]);
          double diff = static_cast<double>(out[i]) - ref;
          p.ErrorSquares += diff * diff; // NaN outputs make this NaN.
          p.RefSquares += ref * ref;
        }
      });

  Comparison result;
  double errorSquares = 0.0, refSquares = 0.0;
  for (std::uint64_t c = 0; c < chunks; ++c) {
    const Partial &p = partials[c];
    result.Mismatches += p.Mismatches;
    errorSquares += p.ErrorSquares;
    refSquares += p.RefSquares;
    if (p.Mismatches == 0 || result.FirstMismatches.size() >= keepFirst)
      continue;
    // Collect this chunk's first mismatches (rarely needed, so rescan).
    std::uint64_t end = std::min(n, (c + 1) * ChunkSize);
    for (std::uint64_t i = p.First;
         i < end && result.FirstMismatches.size() < keepFirst; ++i) {
      float expected = x[i] + y[i];
      if (std::memcmp(&out[i], &expected, sizeof(float)) != 0)
        result.FirstMismatches.push_back(i);
    }
  }
  if (refSquares > 0.0)
    result.RelError = std::sqrt(errorSquares) / std::sqrt(refSquares);
  else
    result.RelError = std::sqrt(errorSquares); // All-zero reference.
  return result;
}

} // namespace gpu
} // namespace tilec

#endif // TILEC_TEST_GPU_HOSTDATA_H
