//===- Reference.h - Float64 references of the examples ---------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// What each example kernel must compute, evaluated on the host in float64
// from the very float values the kernel was given (inputs are rounded to the
// kernel's element type first, so the reference sees exactly what the GPU
// sees): row softmax, layer norm forward, matrix multiplication with
// arbitrary strides, and attention forward. Every function spreads its rows
// over the machine's cores; results do not depend on the thread count.
// Header-only; used by tilec-gpu-tests and tilec-bench.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_GPU_REFERENCE_H
#define TILEC_TEST_GPU_REFERENCE_H

#include "HostData.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace tilec {
namespace gpu {

/// Row softmax: out[r * cols + c] = exp(x_rc - max_r) / sum_c exp(...), where
/// row r of x starts at x[r * stride]. \p out is dense (rows x cols).
inline void softmaxReference(const float *x, std::uint64_t rows,
                             std::uint64_t cols, std::uint64_t stride,
                             double *out) {
  forEachRow(rows, [&](std::uint64_t r) {
    const float *row = x + r * stride;
    double *dst = out + r * cols;
    double max = -std::numeric_limits<double>::infinity();
    for (std::uint64_t c = 0; c < cols; ++c)
      max = std::max(max, static_cast<double>(row[c]));
    double sum = 0.0;
    for (std::uint64_t c = 0; c < cols; ++c) {
      dst[c] = std::exp(static_cast<double>(row[c]) - max);
      sum += dst[c];
    }
    for (std::uint64_t c = 0; c < cols; ++c)
      dst[c] /= sum;
  });
}

/// Layer norm forward over rows of \p cols elements (row r of x starts at
/// x[r * stride]): y = (x - mean) * rstd * w + b with the biased variance,
/// rstd = 1 / sqrt(var + eps). \p y is dense (rows x cols); \p mean and
/// \p rstd hold one value per row.
inline void layerNormReference(const float *x, const float *w, const float *b,
                               std::uint64_t rows, std::uint64_t cols,
                               std::uint64_t stride, double eps, double *y,
                               double *mean, double *rstd) {
  forEachRow(rows, [&](std::uint64_t r) {
    const float *row = x + r * stride;
    double sum = 0.0;
    for (std::uint64_t c = 0; c < cols; ++c)
      sum += row[c];
    double mu = sum / static_cast<double>(cols);
    double squares = 0.0;
    for (std::uint64_t c = 0; c < cols; ++c) {
      double d = row[c] - mu;
      squares += d * d;
    }
    double inv = 1.0 / std::sqrt(squares / static_cast<double>(cols) + eps);
    for (std::uint64_t c = 0; c < cols; ++c)
      y[r * cols + c] = (row[c] - mu) * inv * w[c] + b[c];
    mean[r] = mu;
    rstd[r] = inv;
  });
}

/// C = A @ B with A(i, k) = a[i * strideAM + k * strideAK] and B(k, j) =
/// b[k * strideBK + j * strideBN]; \p c is dense (M x N).
inline void matmulReference(const float *a, const float *b, std::uint64_t m,
                            std::uint64_t n, std::uint64_t k,
                            std::uint64_t strideAM, std::uint64_t strideAK,
                            std::uint64_t strideBK, std::uint64_t strideBN,
                            double *c) {
  forEachRow(m, [&](std::uint64_t i) {
    double *dst = c + i * n;
    std::fill(dst, dst + n, 0.0);
    for (std::uint64_t kk = 0; kk < k; ++kk) {
      double aik = a[i * strideAM + kk * strideAK];
      const float *brow = b + kk * strideBK;
      if (strideBN == 1) {
        for (std::uint64_t j = 0; j < n; ++j)
          dst[j] += aik * static_cast<double>(brow[j]);
      } else {
        for (std::uint64_t j = 0; j < n; ++j)
          dst[j] += aik * static_cast<double>(brow[j * strideBN]);
      }
    }
  });
}

/// Attention forward for \p heads independent heads of \p seq queries, keys
/// and values of \p dim elements each, all dense [heads, seq, dim]:
/// o = softmax(scale * q @ k^T) @ v. \p o is dense too.
inline void attentionReference(const float *q, const float *k, const float *v,
                               std::uint64_t heads, std::uint64_t seq,
                               std::uint64_t dim, double scale, double *o) {
  forEachRow(heads * seq, [&](std::uint64_t row) {
    std::uint64_t head = row / seq;
    const float *qi = q + row * dim;
    const float *kh = k + head * seq * dim;
    const float *vh = v + head * seq * dim;
    std::vector<double> scores(seq);
    double max = -std::numeric_limits<double>::infinity();
    for (std::uint64_t j = 0; j < seq; ++j) {
      double dot = 0.0;
      for (std::uint64_t d = 0; d < dim; ++d)
        dot += static_cast<double>(qi[d]) * kh[j * dim + d];
      scores[j] = dot * scale;
      max = std::max(max, scores[j]);
    }
    double sum = 0.0;
    for (double &s : scores) {
      s = std::exp(s - max);
      sum += s;
    }
    double *dst = o + row * dim;
    std::fill(dst, dst + dim, 0.0);
    for (std::uint64_t j = 0; j < seq; ++j) {
      double p = scores[j] / sum;
      for (std::uint64_t d = 0; d < dim; ++d)
        dst[d] += p * vh[j * dim + d];
    }
  });
}

} // namespace gpu
} // namespace tilec

#endif // TILEC_TEST_GPU_REFERENCE_H
