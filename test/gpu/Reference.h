//===- Reference.h - Float64 references of the examples ---------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// What each example kernel must compute, evaluated on the host in float64
// from the very float values the kernel was given (inputs are rounded to the
// kernel's element type first, so the reference sees exactly what the GPU
// sees): row softmax, layer norm forward and backward, rotary embeddings,
// matrix multiplication with
// arbitrary strides, attention forward, the elementwise math functions of
// examples/math_functions.tile, and Philox random numbers as Triton defines
// them. Every function spreads its rows over the machine's cores; results do
// not depend on the thread count.
// Header-only; used by tilec-gpu-tests and tilec-bench.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_GPU_REFERENCE_H
#define TILEC_TEST_GPU_REFERENCE_H

#include "HostData.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
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

/// The mean and rstd = 1 / sqrt(var + eps) (biased variance) of one row.
inline void layerNormRowStatistics(const float *row, std::uint64_t cols,
                                   double eps, double &mean, double &rstd) {
  double sum = 0.0;
  for (std::uint64_t c = 0; c < cols; ++c)
    sum += row[c];
  mean = sum / static_cast<double>(cols);
  double squares = 0.0;
  for (std::uint64_t c = 0; c < cols; ++c) {
    double d = row[c] - mean;
    squares += d * d;
  }
  rstd = 1.0 / std::sqrt(squares / static_cast<double>(cols) + eps);
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
    double mu, inv;
    layerNormRowStatistics(row, cols, eps, mu, inv);
    for (std::uint64_t c = 0; c < cols; ++c)
      y[r * cols + c] = (row[c] - mu) * inv * w[c] + b[c];
    mean[r] = mu;
    rstd[r] = inv;
  });
}

/// The mean and rstd of each row as layer_norm_fwd stores them (fp32): the
/// inputs of the backward.
inline void layerNormStatistics(const float *x, std::uint64_t rows,
                                std::uint64_t cols, std::uint64_t stride,
                                double eps, std::vector<float> &mean,
                                std::vector<float> &rstd) {
  mean.resize(rows);
  rstd.resize(rows);
  forEachRow(rows, [&](std::uint64_t r) {
    double mu, inv;
    layerNormRowStatistics(x + r * stride, cols, eps, mu, inv);
    mean[r] = static_cast<float>(mu);
    rstd[r] = static_cast<float>(inv);
  });
}

/// Layer norm backward of rows of \p cols elements (row r of x and dy at
/// x[r * stride], dy[r * stride]) given each row's \p mean and \p rstd:
/// with x_hat = (x - mean) * rstd, dx = rstd * (w dy - mean(w dy) - x_hat *
/// mean(x_hat w dy)) (dense, rows x cols); dw and db (cols each) are the
/// column sums of dy * x_hat and dy.
inline void layerNormBackwardReference(const float *x, const float *dy,
                                       const float *w, const float *mean,
                                       const float *rstd, std::uint64_t rows,
                                       std::uint64_t cols, std::uint64_t stride,
                                       double *dx, double *dw, double *db) {
  forEachRow(rows, [&](std::uint64_t r) {
    const float *xr = x + r * stride, *dyr = dy + r * stride;
    double mu = mean[r], inv = rstd[r], sumWdy = 0.0, sumXWdy = 0.0;
    for (std::uint64_t c = 0; c < cols; ++c) {
      double wdy = static_cast<double>(w[c]) * dyr[c];
      sumWdy += wdy;
      sumXWdy += (xr[c] - mu) * inv * wdy;
    }
    double n = static_cast<double>(cols);
    for (std::uint64_t c = 0; c < cols; ++c) {
      double xHat = (xr[c] - mu) * inv;
      double wdy = static_cast<double>(w[c]) * dyr[c];
      dx[r * cols + c] = inv * (wdy - sumWdy / n - xHat * sumXWdy / n);
    }
  });
  std::fill(dw, dw + cols, 0.0);
  std::fill(db, db + cols, 0.0);
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < cols; ++c) {
      double g = dy[r * stride + c];
      dw[c] += g * (x[r * stride + c] - static_cast<double>(mean[r])) *
               static_cast<double>(rstd[r]);
      db[c] += g;
    }
}

/// Rotary embedding of \p tokens tokens of \p heads heads of \p headDim
/// (token t's heads at x[t * stride], contiguous): each head's halves
/// (x1, x2) become (x1 cos - x2 sin, x2 cos + x1 sin) with the angles of
/// position t % seqLen, cos and sin rows of headDim / 2 (\p csStride apart).
/// \p out is dense (tokens x heads * headDim).
inline void ropeReference(const float *x, const float *cos, const float *sin,
                          std::uint64_t tokens, std::uint64_t heads,
                          std::uint64_t headDim, std::uint64_t stride,
                          std::uint64_t seqLen, std::uint64_t csStride,
                          double *out) {
  std::uint64_t half = headDim / 2;
  forEachRow(tokens, [&](std::uint64_t t) {
    const float *c = cos + (t % seqLen) * csStride;
    const float *s = sin + (t % seqLen) * csStride;
    for (std::uint64_t h = 0; h < heads; ++h) {
      const float *v = x + t * stride + h * headDim;
      double *o = out + (t * heads + h) * headDim;
      for (std::uint64_t i = 0; i < half; ++i) {
        double x1 = v[i], x2 = v[i + half];
        o[i] = x1 * c[i] - x2 * s[i];
        o[i + half] = x2 * c[i] + x1 * s[i];
      }
    }
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

/// RMS norm of each row of \p x (\p rows x \p cols, rows \p stride apart):
/// y = x * rstd * (offset + w), rstd = 1 / sqrt(mean(x^2) + eps). \p y is
/// dense.
inline void rmsNormReference(const float *x, const float *w, std::uint64_t rows,
                             std::uint64_t cols, std::uint64_t stride,
                             double eps, double offset, double *y,
                             double *rstd) {
  forEachRow(rows, [&](std::uint64_t r) {
    const float *row = x + r * stride;
    double squares = 0.0;
    for (std::uint64_t c = 0; c < cols; ++c)
      squares += double(row[c]) * double(row[c]);
    double inv = 1.0 / std::sqrt(squares / double(cols) + eps);
    rstd[r] = inv;
    for (std::uint64_t c = 0; c < cols; ++c)
      y[r * cols + c] = double(row[c]) * inv * (offset + double(w[c]));
  });
}

/// c = act(a) * b elementwise over \p rows x \p cols (rows \p stride
/// apart; \p c dense), act = silu (x * sigmoid(x)) or, with \p gelu, the
/// tanh approximation of gelu.
inline void gluReference(const float *a, const float *b, std::uint64_t rows,
                         std::uint64_t cols, std::uint64_t stride, bool gelu,
                         double *c) {
  forEachRow(rows, [&](std::uint64_t r) {
    for (std::uint64_t j = 0; j < cols; ++j) {
      double x = a[r * stride + j];
      double act = gelu ? 0.5 * x *
                              (1.0 + std::tanh(0.7978845608028654 *
                                               (x + 0.044715 * x * x * x)))
                        : x / (1.0 + std::exp(-x));
      c[r * cols + j] = act * double(b[r * stride + j]);
    }
  });
}

/// Attention forward for \p heads independent heads of \p seq queries, keys
/// and values of \p dim elements each, all dense [heads, seq, dim]:
/// o = softmax(scale * q @ k^T) @ v, with \p causal over the keys up to the
/// query's own position only, and with a \p window (causal) over its last
/// `window` keys. \p o is dense too.
inline void attentionReference(const float *q, const float *k, const float *v,
                               std::uint64_t heads, std::uint64_t seq,
                               std::uint64_t dim, double scale, double *o,
                               bool causal = false, std::uint64_t window = 0) {
  forEachRow(heads * seq, [&](std::uint64_t row) {
    std::uint64_t head = row / seq;
    const float *qi = q + row * dim;
    const float *kh = k + head * seq * dim;
    const float *vh = v + head * seq * dim;
    // Causal: query i attends to keys 0 .. i (window: i - window + 1 .. i).
    std::uint64_t keys = causal ? row % seq + 1 : seq;
    std::uint64_t first = window && keys > window ? keys - window : 0;
    std::vector<double> scores(keys);
    double max = -std::numeric_limits<double>::infinity();
    for (std::uint64_t j = first; j < keys; ++j) {
      double dot = 0.0;
      for (std::uint64_t d = 0; d < dim; ++d)
        dot += static_cast<double>(qi[d]) * kh[j * dim + d];
      scores[j] = dot * scale;
      max = std::max(max, scores[j]);
    }
    double sum = 0.0;
    for (std::uint64_t j = first; j < keys; ++j) {
      scores[j] = std::exp(scores[j] - max);
      sum += scores[j];
    }
    double *dst = o + row * dim;
    std::fill(dst, dst + dim, 0.0);
    for (std::uint64_t j = first; j < keys; ++j) {
      double p = scores[j] / sum;
      for (std::uint64_t d = 0; d < dim; ++d)
        dst[d] += p * vh[j * dim + d];
    }
  });
}

/// What the backward pass of attention needs and gives, in float64, for
/// \p heads heads of \p seq queries, keys and values of \p dim elements
/// (all [heads, seq, dim]) and the gradient \p dOut of the output, with P
/// the softmax of scale * q @ k^T (query i sees keys j <= i when \p causal):
/// the output O = P V (o), the base-2 log-sum-exp of each query's scores
/// times scale * log2(e) (lse2), D = rowsum(oRounded * dOut) from the output
/// as the kernels read it (\p oRounded, [heads, seq, dim]; computed by
/// attentionForwardStats first), and the gradients dQ, dK, dV.
struct AttentionBackward {
  std::vector<double> O, Lse2, Delta, DQ, DK, DV;
};

/// The forward half of AttentionBackward: O and Lse2.
inline void attentionForwardStats(const float *q, const float *k,
                                  const float *v, std::uint64_t heads,
                                  std::uint64_t seq, std::uint64_t dim,
                                  double scale, bool causal,
                                  AttentionBackward &r) {
  r.O.assign(heads * seq * dim, 0.0);
  r.Lse2.assign(heads * seq, 0.0);
  forEachRow(heads * seq, [&](std::uint64_t row) {
    std::uint64_t head = row / seq, keys = causal ? row % seq + 1 : seq;
    const float *kh = k + head * seq * dim, *vh = v + head * seq * dim;
    std::vector<double> t(keys);
    double max = -std::numeric_limits<double>::infinity();
    for (std::uint64_t j = 0; j < keys; ++j) {
      double dot = 0.0;
      for (std::uint64_t d = 0; d < dim; ++d)
        dot += static_cast<double>(q[row * dim + d]) * kh[j * dim + d];
      t[j] = dot * scale * 1.4426950408889634;
      max = std::max(max, t[j]);
    }
    double sum = 0.0;
    for (double x : t)
      sum += std::exp2(x - max);
    r.Lse2[row] = max + std::log2(sum);
    for (std::uint64_t j = 0; j < keys; ++j) {
      double p = std::exp2(t[j] - r.Lse2[row]);
      for (std::uint64_t d = 0; d < dim; ++d)
        r.O[row * dim + d] += p * vh[j * dim + d];
    }
  });
}

/// The backward half of AttentionBackward: Delta, dQ, dK and dV (Lse2
/// from attentionForwardStats).
inline void attentionBackwardReference(const float *q, const float *k,
                                       const float *v, const float *dOut,
                                       const float *oRounded,
                                       std::uint64_t heads, std::uint64_t seq,
                                       std::uint64_t dim, double scale,
                                       bool causal, AttentionBackward &r) {
  r.Delta.assign(heads * seq, 0.0);
  r.DQ.assign(heads * seq * dim, 0.0);
  r.DK.assign(heads * seq * dim, 0.0);
  r.DV.assign(heads * seq * dim, 0.0);
  forEachRow(heads * seq, [&](std::uint64_t row) {
    double delta = 0.0;
    for (std::uint64_t d = 0; d < dim; ++d)
      delta +=
          static_cast<double>(oRounded[row * dim + d]) * dOut[row * dim + d];
    r.Delta[row] = delta;
  });
  // dS[i, j] = P[i, j] (dO_i . v_j - D_i), one head at a time: dQ by
  // query rows, dK and dV by key rows.
  auto dS = [&](std::uint64_t head, std::uint64_t i, std::uint64_t j,
                double &p) {
    std::uint64_t qi = head * seq + i, kj = head * seq + j;
    double dot = 0.0, dp = 0.0;
    for (std::uint64_t d = 0; d < dim; ++d) {
      dot += static_cast<double>(q[qi * dim + d]) * k[kj * dim + d];
      dp += static_cast<double>(dOut[qi * dim + d]) * v[kj * dim + d];
    }
    p = std::exp2(dot * scale * 1.4426950408889634 - r.Lse2[qi]);
    return p * (dp - r.Delta[qi]);
  };
  forEachRow(heads * seq, [&](std::uint64_t row) {
    std::uint64_t head = row / seq, i = row % seq;
    for (std::uint64_t j = 0; j < (causal ? i + 1 : seq); ++j) {
      double p, ds = dS(head, i, j, p);
      for (std::uint64_t d = 0; d < dim; ++d)
        r.DQ[row * dim + d] += scale * ds * k[(head * seq + j) * dim + d];
    }
  });
  forEachRow(heads * seq, [&](std::uint64_t row) {
    std::uint64_t head = row / seq, j = row % seq;
    for (std::uint64_t i = causal ? j : 0; i < seq; ++i) {
      double p, ds = dS(head, i, j, p);
      std::uint64_t qi = head * seq + i;
      for (std::uint64_t d = 0; d < dim; ++d) {
        r.DK[row * dim + d] += scale * ds * q[qi * dim + d];
        r.DV[row * dim + d] += p * dOut[qi * dim + d];
      }
    }
  });
}

/// One output row of examples/math_functions.tile: its name and the float64
/// value of the function at x, the derived arguments computed in fp32 as the
/// kernel computes them.
struct MathFunction {
  const char *Name;
  double (*Ref)(float x);
};

namespace detail {
inline float pos(float x) { return std::fabs(x) + 0.25f; }
inline float big(float x) { return pos(x) * 4.0f + 1.0f; }
inline double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }
/// The inverse error function by Newton's method on std::erf.
inline double erfinv(double y) {
  double x = 0.0;
  for (int i = 0; i < 100; ++i) {
    double step =
        (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) < 1e-17)
      break;
  }
  return x;
}
} // namespace detail

/// The rows of unary_math_kernel, in order.
inline const std::vector<MathFunction> &mathFunctions() {
  using namespace detail;
  static const std::vector<MathFunction> functions = {
      {"exp", [](float x) { return std::exp(double(x)); }},
      {"exp2", [](float x) { return std::exp2(double(x)); }},
      {"log", [](float x) { return std::log(double(pos(x))); }},
      {"log2", [](float x) { return std::log2(double(pos(x))); }},
      {"sqrt", [](float x) { return std::sqrt(double(pos(x))); }},
      {"sqrt_rn", [](float x) { return std::sqrt(double(pos(x))); }},
      {"rsqrt", [](float x) { return 1.0 / std::sqrt(double(pos(x))); }},
      {"sin", [](float x) { return std::sin(double(x * 4.0f)); }},
      {"cos", [](float x) { return std::cos(double(x * 4.0f)); }},
      {"tanh", [](float x) { return std::tanh(double(x * 2.0f)); }},
      {"erf", [](float x) { return std::erf(double(x * 2.0f)); }},
      {"floor", [](float x) { return std::floor(double(x * 8.0f)); }},
      {"ceil", [](float x) { return std::ceil(double(x * 8.0f)); }},
      {"abs", [](float x) { return std::fabs(double(x)); }},
      {"sigmoid", [](float x) { return sigmoid(double(x * 4.0f)); }},
      {"fma",
       [](float x) { return std::fma(double(x), pos(x), double(big(x))); }},
      {"div_rn", [](float x) { return double(x) / pos(x); }},
      {"fdiv", [](float x) { return double(x) / pos(x); }},
      {"asin", [](float x) { return std::asin(double(x)); }},
      {"acos", [](float x) { return std::acos(double(x)); }},
      {"atan", [](float x) { return std::atan(double(x * 4.0f)); }},
      {"sinh", [](float x) { return std::sinh(double(x * 2.0f)); }},
      {"cosh", [](float x) { return std::cosh(double(x * 2.0f)); }},
      {"asinh", [](float x) { return std::asinh(double(x * 4.0f)); }},
      {"acosh", [](float x) { return std::acosh(double(big(x))); }},
      {"atanh", [](float x) { return std::atanh(double(x * 0.5f)); }},
      {"expm1", [](float x) { return std::expm1(double(x)); }},
      {"log1p", [](float x) { return std::log1p(double(pos(x))); }},
      {"log10", [](float x) { return std::log10(double(pos(x))); }},
      {"exp10", [](float x) { return std::pow(10.0, double(x)); }},
      {"cbrt", [](float x) { return std::cbrt(double(x)); }},
      {"tan", [](float x) { return std::tan(double(x)); }},
      {"erfc", [](float x) { return std::erfc(double(x)); }},
      {"erfinv", [](float x) { return erfinv(double(x * 0.5f)); }},
      {"lgamma", [](float x) { return std::lgamma(double(big(x))); }},
      {"tgamma", [](float x) { return std::tgamma(double(big(x))); }},
      {"atan2", [](float x) { return std::atan2(double(x), double(pos(x))); }},
      {"hypot", [](float x) { return std::hypot(double(x), double(pos(x))); }},
      {"libdevice.pow",
       [](float x) { return std::pow(double(pos(x)), double(x)); }},
      {"powi", [](float x) { return std::pow(double(pos(x)), 3.0); }},
      {"fmod",
       [](float x) { return std::fmod(double(x * 8.0f), double(pos(x))); }},
      {"copysign",
       [](float x) { return std::copysign(double(pos(x)), double(x)); }},
      {"round", [](float x) { return std::round(double(x * 8.0f)); }},
      {"trunc", [](float x) { return std::trunc(double(x * 8.0f)); }},
      {"rint", [](float x) { return std::rint(double(x * 8.0f)); }},
      {"nextafter", [](float x) { return double(std::nextafter(x, big(x))); }},
      {"logb", [](float x) { return std::logb(double(big(x))); }},
      {"erfcx",
       [](float x) { return std::exp(double(x) * x) * std::erfc(double(x)); }},
      {"normcdf",
       [](float x) { return 0.5 * std::erfc(-double(x * 2.0f) / M_SQRT2); }},
      {"rcbrt", [](float x) { return 1.0 / std::cbrt(double(pos(x))); }},
      {"sinpi", [](float x) { return std::sin(M_PI * double(x)); }},
      {"cospi", [](float x) { return std::cos(M_PI * double(x)); }},
      {"fdim", [](float x) { return std::fdim(double(x), 0.25); }},
      {"remainder",
       [](float x) {
         return std::remainder(double(x * 8.0f), double(pos(x)));
       }},
      {"ldexp", [](float x) { return std::ldexp(double(x), 3); }},
      {"libdevice.fma",
       [](float x) { return std::fma(double(x), pos(x), double(big(x))); }},
      {"libdevice.div_rn", [](float x) { return double(x) / pos(x); }},
      {"fast_expf", [](float x) { return std::exp(double(x)); }},
      {"fast_logf", [](float x) { return std::log(double(pos(x))); }},
      {"isnan+signbit", [](float x) { return std::signbit(x) ? 1.0 : 0.0; }},
      {"j0", [](float x) { return ::j0(double(x * 4.0f)); }},
      {"y0", [](float x) { return ::y0(double(big(x))); }},
      {"add_rd", [](float x) { return double(x) + pos(x); }},
      {"mul_ru", [](float x) { return double(x) * pos(x); }},
      {"div_rz", [](float x) { return double(x) / pos(x); }},
      {"fma_rd",
       [](float x) { return std::fma(double(x), pos(x), double(big(x))); }},
      {"sqrt_ru", [](float x) { return std::sqrt(double(pos(x))); }},
      {"rcp_rd", [](float x) { return 1.0 / pos(x); }},
      {"rsqrt_rn", [](float x) { return 1.0 / std::sqrt(double(pos(x))); }},
      {"float2int_rd", [](float x) { return std::floor(double(x * 8.0f)); }},
      {"int2float_ru(float2int_rn)",
       [](float x) { return std::nearbyint(double(x * 1000.0f)); }},
      {"int_as_float(float_as_int)", [](float x) { return double(x); }},
      {"cyl_bessel_i1",
       [](float x) {
         return std::copysign(std::cyl_bessel_i(1.0, std::fabs(double(x))),
                              double(x));
       }},
      {"norm3d",
       [](float x) {
         return std::sqrt(double(x) * x + double(pos(x)) * pos(x) +
                          double(big(x)) * big(x));
       }},
      {"jn", [](float x) { return ::jn(2, double(big(x))); }},
      {"llround", [](float x) { return std::round(double(x * 8.0f)); }},
      {"hadd",
       [](float x) {
         return std::floor((std::trunc(double(x * 8.0f)) + 3.0) / 2.0);
       }},
      // Within one unit of the high word (about 1e-6).
      {"rcp64h", [](float x) { return 1.0 / double(pos(x)); }},
  };
  return functions;
}

/// One output row of unary_math64_kernel and its float64 reference at x.
struct MathFunction64 {
  const char *Name;
  double (*Ref)(double x);
};

/// The rows of unary_math64_kernel, in order.
inline const std::vector<MathFunction64> &mathFunctions64() {
  static const std::vector<MathFunction64> functions = {
      {"exp", [](double x) { return std::exp(x); }},
      {"exp2", [](double x) { return std::exp2(x); }},
      {"log", [](double x) { return std::log(std::fabs(x) + 0.25); }},
      {"log2", [](double x) { return std::log2(std::fabs(x) + 0.25); }},
      {"sqrt", [](double x) { return std::sqrt(std::fabs(x) + 0.25); }},
      {"sin", [](double x) { return std::sin(x * 4.0); }},
      {"cos", [](double x) { return std::cos(x * 4.0); }},
      {"tanh", [](double x) { return std::tanh(x * 2.0); }},
      {"erf", [](double x) { return std::erf(x * 2.0); }},
      {"pow", [](double x) { return std::pow(std::fabs(x) + 0.25, x); }},
      {"sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x * 4.0)); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"atan2", [](double x) { return std::atan2(x, std::fabs(x) + 0.25); }},
      {"expm1", [](double x) { return std::expm1(x); }},
      {"cbrt", [](double x) { return std::cbrt(x); }},
      {"lgamma",
       [](double x) { return std::lgamma((std::fabs(x) + 0.25) * 4.0 + 1.0); }},
      {"hiloint2double", [](double x) { return x; }},
  };
  return functions;
}

/// complex_square_kernel: out[2i], out[2i+1] = z_i^2 (computed in fp32 as
/// the kernel does: re * re - im * im, 2 * re * im) and swapped[2i],
/// swapped[2i+1] = (im, re) of z_i.
inline void complexSquareReference(const float *z, std::uint64_t n, double *out,
                                   double *swapped) {
  for (std::uint64_t i = 0; i < n; ++i) {
    float re = z[2 * i], im = z[2 * i + 1];
    out[2 * i] = double(re) * re - double(im) * im;
    out[2 * i + 1] = 2.0 * re * im;
    swapped[2 * i] = im;
    swapped[2 * i + 1] = re;
  }
}

/// map_elementwise_kernel over x[n], programs of `block` elements: SELU
/// (scale 1.0507009873554805, `alpha`; fp32 as the kernel rounds its inputs),
/// the Collatz step count of int(|x| * 1000) + 1 (fp32 product, truncated),
/// x with the elements of each pair swapped (0 past the end, the masked
/// load's `other`), and each program's largest element with its first
/// position in x.
inline void mapElementwiseReference(const float *x, std::uint64_t n,
                                    std::uint64_t block, float alpha,
                                    double *selu, double *steps, double *swap,
                                    double *maxima, double *argmax) {
  const double scale = float(1.0507009873554805);
  for (std::uint64_t i = 0; i < n; ++i) {
    double v = x[i];
    selu[i] = v > 0 ? scale * v : scale * double(alpha) * (std::exp(v) - 1.0);
    std::int64_t seed = std::int32_t(std::fabs(x[i]) * 1000.0f) + 1;
    double count = 0;
    for (; seed > 1; ++count)
      seed = seed % 2 == 0 ? seed / 2 : 3 * seed + 1;
    steps[i] = count;
    std::uint64_t partner = i ^ 1;
    swap[i] = partner < n ? x[partner] : 0.0;
    std::uint64_t p = i / block;
    if (i % block == 0 || v > maxima[p]) {
      maxima[p] = v;
      argmax[p] = double(i);
    }
  }
}

/// row_scans_kernel: per row of x (row stride `stride`, `cols` long), the
/// running sum and the running product from the end of the row of
/// 1 + 0.01 x (the factor rounded to fp32 as the kernel computes it).
inline void rowScansReference(const float *x, std::uint64_t rows,
                              std::uint64_t cols, std::uint64_t stride,
                              double *sums, double *prods) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    const float *row = x + r * stride;
    double sum = 0.0, prod = 1.0;
    for (std::uint64_t c = 0; c < cols; ++c) {
      sum += row[c];
      sums[r * cols + c] = sum;
    }
    for (std::uint64_t c = cols; c-- > 0;) {
      prod *= double(1.0f + 0.01f * row[c]);
      prods[r * cols + c] = prod;
    }
  }
}

/// linear_recurrence_kernel: per row (stride `stride`), h[t] = a[t] h[t - 1]
/// + x[t] from the start (`fwd`) and g[t] = a[t] g[t + 1] + x[t] from the end
/// (`bwd`), with a[t] = 0.9 + 0.1 x[t] computed in fp32 as the kernel does.
/// `fwd` and `bwd` are dense.
inline void linearRecurrenceReference(const float *x, std::uint64_t rows,
                                      std::uint64_t cols, std::uint64_t stride,
                                      double *fwd, double *bwd) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    const float *row = x + r * stride;
    auto decay = [&](std::uint64_t c) { return double(0.9f + 0.1f * row[c]); };
    double h = 0.0;
    for (std::uint64_t c = 0; c < cols; ++c)
      fwd[r * cols + c] = h = decay(c) * h + row[c];
    h = 0.0;
    for (std::uint64_t c = cols; c-- > 0;)
      bwd[r * cols + c] = h = decay(c) * h + row[c];
  }
}

/// flip_rows_kernel: per row (stride `stride`, `cols` of a `block`-wide
/// block, zeros past them): the row reversed (`rev`, rows x cols), the
/// block's chunks of 32 in reverse order (`chunks`, rows x block) and the
/// block followed by its reversal (`cat`, rows x 2 block). Exact.
inline void flipRowsReference(const float *x, std::uint64_t rows,
                              std::uint64_t cols, std::uint64_t stride,
                              std::uint64_t block, double *rev, double *chunks,
                              double *cat) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    auto at = [&](std::uint64_t c) {
      return c < cols ? double(x[r * stride + c]) : 0.0;
    };
    for (std::uint64_t c = 0; c < cols; ++c)
      rev[r * cols + c] = at(cols - 1 - c);
    for (std::uint64_t c = 0; c < block; ++c) {
      chunks[r * block + c] = at((block / 32 - 1 - c / 32) * 32 + c % 32);
      cat[r * 2 * block + c] = at(c);
      cat[r * 2 * block + block + c] = at(block - 1 - c);
    }
  }
}

/// strided_axpy_kernel: out = a * x + y over rows x cols, each tensor read
/// through its own (row, column) strides; out is rows x cols, dense.
inline void stridedAxpyReference(const float *x, const std::uint64_t xs[2],
                                 const float *y, const std::uint64_t ys[2],
                                 float a, std::uint64_t rows,
                                 std::uint64_t cols, double *out) {
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < cols; ++c)
      out[r * cols + c] = double(a) * x[r * xs[0] + c * xs[1]] +
                          double(y[r * ys[0] + c * ys[1]]);
}

/// mask_compare_kernel: each element of x times the weights of the masks
/// that hold for it (1 [i >= lo], 2 [i <= hi], 4 [i > lo], 8 [i < hi],
/// 16 [i == lo], 32 [i != lo]).
inline void maskCompareReference(const float *x, std::uint64_t n,
                                 std::uint64_t lo, std::uint64_t hi,
                                 double *y) {
  for (std::uint64_t i = 0; i < n; ++i) {
    int weight = (i >= lo ? 1 : 0) + (i <= hi ? 2 : 0) + (i > lo ? 4 : 0) +
                 (i < hi ? 8 : 0) + (i == lo ? 16 : 0) + (i != lo ? 32 : 0);
    y[i] = double(x[i]) * weight;
  }
}

/// asm_bytes_kernel: y = (int8(100 x) & 0x1F) << 3 as an int8 (computed in
/// fp32 as the kernel does). Exact.
inline void asmBytesReference(const float *x, std::uint64_t n, double *y) {
  for (std::uint64_t i = 0; i < n; ++i) {
    auto b = static_cast<std::int8_t>(x[i] * 100.0f);
    auto bits = static_cast<std::uint8_t>((std::uint8_t(b) & 0x1F) << 3);
    y[i] = static_cast<std::int8_t>(bits);
  }
}

/// gather_rows_kernel: out[r, k] = src[r, idx[r, k]] (rows of n values, of
/// k indices, dense), the index clamped to [0, n) as tilec defines it.
/// Exact.
inline void gatherRowsReference(const float *src, const std::int32_t *idx,
                                std::uint64_t rows, std::uint64_t n,
                                std::uint64_t k, double *out) {
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t j = 0; j < k; ++j) {
      std::int64_t i = idx[r * k + j];
      i = i < 0 ? 0 : i >= std::int64_t(n) ? std::int64_t(n) - 1 : i;
      out[r * k + j] = src[r * n + i];
    }
}

/// row_histogram_kernel: per row (stride `stride`) of `cols` values x in
/// [-1, 1), how many fall in each of `bins` buckets, int32((x + 1) *
/// (bins / 2)) (rows x bins, dense; computed in fp32 as the kernel does).
/// Exact.
inline void rowHistogramReference(const float *x, std::uint64_t rows,
                                  std::uint64_t cols, std::uint64_t stride,
                                  std::uint64_t bins, double *out) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t b = 0; b < bins; ++b)
      out[r * bins + b] = 0;
    for (std::uint64_t c = 0; c < cols; ++c) {
      float scaled = (x[r * stride + c] + 1.0f) * float(bins / 2);
      std::int64_t bucket = static_cast<std::int32_t>(scaled);
      if (bucket >= 0 && bucket < std::int64_t(bins))
        out[r * bins + bucket] += 1;
    }
  }
}

/// MurmurHash3's 32-bit finalizer.
inline std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

/// hash_buckets_kernel: h = fmix32(key); bucket = h % buckets, plus buckets
/// when h >= split; unit = (h >> 8) * 2^-24. Exact.
inline void hashBucketsReference(const std::uint32_t *keys, std::uint64_t n,
                                 std::uint32_t buckets, std::uint32_t split,
                                 double *bucket, double *unit) {
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint32_t h = fmix32(keys[i]);
    bucket[i] = double(h % buckets) + (h >= split ? double(buckets) : 0.0);
    unit[i] = double(h >> 8) * 0x1p-24;
  }
}

/// sort_rows_kernel: per row (stride `stride`) of `cols` values, floor(8 x)
/// / 8 sorted ascending (`asc`) and descending (`desc`), and int32(1000 x)
/// ascending (`ints`), all dense rows x cols; and the 16 largest of
/// int32(1000 x), largest first, padded with -2^31 (`top`, rows x 16).
/// Exact.
inline void sortRowsReference(const float *x, std::uint64_t rows,
                              std::uint64_t cols, std::uint64_t stride,
                              double *asc, double *desc, double *ints,
                              double *top) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    std::vector<double> level(cols), whole(cols);
    for (std::uint64_t c = 0; c < cols; ++c) {
      float v = x[r * stride + c];
      level[c] = double(std::floor(v * 8.0f) / 8.0f);
      whole[c] = double(std::int32_t(v * 1000.0f));
    }
    std::sort(level.begin(), level.end());
    std::sort(whole.begin(), whole.end());
    for (std::uint64_t c = 0; c < cols; ++c) {
      asc[r * cols + c] = level[c];
      desc[r * cols + c] = level[cols - 1 - c];
      ints[r * cols + c] = whole[c];
    }
    for (std::uint64_t c = 0; c < 16; ++c)
      top[r * 16 + c] = c < cols ? whole[cols - 1 - c] : -2147483648.0;
  }
}

/// row_combines_kernel: per row (stride `stride`), the largest level
/// floor(4 x), the first column holding it, and the xor and the or of the
/// elements' fp32 bits (as int32).
inline void rowCombinesReference(const float *x, std::uint64_t rows,
                                 std::uint64_t cols, std::uint64_t stride,
                                 double *maxes, double *indices, double *xors,
                                 double *ors) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    const float *row = x + r * stride;
    auto level = [&](std::uint64_t c) { return std::floor(row[c] * 4.0f); };
    std::uint64_t best = 0;
    std::uint32_t xorBits = 0, orBits = 0;
    for (std::uint64_t c = 0; c < cols; ++c) {
      if (level(c) > level(best))
        best = c;
      std::uint32_t bits;
      std::memcpy(&bits, &row[c], sizeof(bits));
      xorBits ^= bits;
      orBits |= bits;
    }
    maxes[r] = level(best);
    indices[r] = double(best);
    xors[r] = double(std::int32_t(xorBits));
    ors[r] = double(std::int32_t(orBits));
  }
}

/// cross_entropy_kernel: per row of logits (row stride `stride`), the loss
/// logsumexp(x) - x[label] and the gradient softmax(x) - onehot(label); rows
/// whose label is `ignore` get zeros. `grads` is dense.
inline void crossEntropyReference(const float *logits, const int *labels,
                                  std::uint64_t rows, std::uint64_t cols,
                                  std::uint64_t stride, int ignore,
                                  double *losses, double *grads) {
  for (std::uint64_t r = 0; r < rows; ++r) {
    const float *x = logits + r * stride;
    double *g = grads + r * cols;
    if (labels[r] == ignore) {
      losses[r] = 0.0;
      std::fill(g, g + cols, 0.0);
      continue;
    }
    double m = -std::numeric_limits<double>::infinity(), s = 0.0;
    for (std::uint64_t c = 0; c < cols; ++c)
      m = std::max(m, double(x[c]));
    for (std::uint64_t c = 0; c < cols; ++c)
      s += std::exp(x[c] - m);
    double lse = m + std::log(s);
    losses[r] = lse - x[labels[r]];
    for (std::uint64_t c = 0; c < cols; ++c)
      g[c] = std::exp(x[c] - lse) - (int64_t(c) == labels[r] ? 1.0 : 0.0);
  }
}

/// Philox-4x32 with `rounds` rounds on counter `c` and key (k0, k1), as
/// Triton's tl.philox computes it.
inline std::array<std::uint32_t, 4> philox4x32(std::array<std::uint32_t, 4> c,
                                               std::uint32_t k0,
                                               std::uint32_t k1,
                                               int rounds = 10) {
  for (int r = 0; r < rounds; ++r) {
    std::uint64_t p0 = std::uint64_t(0xD2511F53u) * c[0];
    std::uint64_t p2 = std::uint64_t(0xCD9E8D57u) * c[2];
    std::array<std::uint32_t, 4> n = {
        std::uint32_t(p2 >> 32) ^ c[1] ^ k0, std::uint32_t(p2),
        std::uint32_t(p0 >> 32) ^ c[3] ^ k1, std::uint32_t(p0)};
    c = n;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// tl.randint4x(seed, offset) for an int64 seed and offset.
inline std::array<std::uint32_t, 4> randint4x(std::int64_t seed,
                                              std::int64_t offset) {
  std::uint64_t s = std::uint64_t(seed), o = std::uint64_t(offset);
  return philox4x32({std::uint32_t(o), std::uint32_t(o >> 32), 0, 0},
                    std::uint32_t(s), std::uint32_t(s >> 32));
}

/// tl.uint_to_uniform_float of a 32-bit word: a float in [0, 1), exactly as
/// the GPU computes it in fp32.
inline float uniformFromWord(std::uint32_t word) {
  // -x - 1 is ~x, without the overflow at INT32_MIN.
  std::int32_t x = std::int32_t(word);
  x = x < 0 ? ~x : x;
  return float(x) * 4.6566127342e-10f;
}

/// tl.randn(seed, offset) in float64 from the fp32 uniforms of its first two
/// words (Box-Muller).
inline double normalReference(std::int64_t seed, std::int64_t offset) {
  std::array<std::uint32_t, 4> w = randint4x(seed, offset);
  double u1 = std::max(1.0e-7f, uniformFromWord(w[0]));
  double th = double(6.283185307179586f * uniformFromWord(w[1]));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(th);
}

/// An OCP MX operand format of examples/mx_matmul.tile.
enum class MxFormat { E2M1, E4M3, E5M2 };

/// Values one byte of \p format holds.
inline unsigned mxPacking(MxFormat format) {
  return format == MxFormat::E2M1 ? 2 : 1;
}

/// The value of code \p code (the low 4 bits for e2m1) of \p format.
inline double mxDecode(MxFormat format, unsigned code) {
  auto decode = [](unsigned bits, int expBits, int manBits) {
    const unsigned exponent = (bits >> manBits) & ((1u << expBits) - 1);
    const unsigned mantissa = bits & ((1u << manBits) - 1);
    const int bias = (1 << (expBits - 1)) - 1;
    const double magnitude = exponent == 0
                                 ? std::ldexp(mantissa, 1 - bias - manBits)
                                 : std::ldexp((1u << manBits) + mantissa,
                                              int(exponent) - bias - manBits);
    return (bits >> (expBits + manBits)) & 1 ? -magnitude : magnitude;
  };
  switch (format) {
  case MxFormat::E2M1:
    return decode(code & 15, 2, 1);
  case MxFormat::E4M3:
    return decode(code, 4, 3);
  case MxFormat::E5M2:
    return decode(code, 5, 2);
  }
  return 0.0;
}

/// True if \p byte encodes a finite value of \p format (no e4m3 NaN
/// S.1111.111, no e5m2 infinity or NaN; every e2m1 byte).
inline bool mxFinite(MxFormat format, std::uint8_t byte) {
  if (format == MxFormat::E4M3)
    return (byte & 0x7F) != 0x7F;
  if (format == MxFormat::E5M2)
    return (byte & 0x7C) != 0x7C;
  return true;
}

/// mx_matmul_kernel: C[M, N] = A @ B of microscaled operands. A is M rows
/// of K / packing(fa) bytes (row stride lda), B K / packing(fb) rows of N
/// bytes (stride ldb); e2m1 bytes hold two values along K, the first in the
/// low nibble. Element k of a row of A (column of B) is scaled by
/// s = aScale[r * K / group + k / group] (bScale[col * K / group + k /
/// group]): 2^(s - 127) for e8m0 scales, the e4m3 value of s for
/// \p e4m3Scales (nvfp4's). Returns the rms of the decoded, scaled A and B
/// in \p rmsA and \p rmsB.
inline void mxMatmulReference(const std::uint8_t *a, std::uint64_t lda,
                              const std::uint8_t *aScale, MxFormat fa,
                              const std::uint8_t *b, std::uint64_t ldb,
                              const std::uint8_t *bScale, MxFormat fb,
                              std::uint64_t m, std::uint64_t n, std::uint64_t k,
                              double *c, double &rmsA, double &rmsB,
                              std::uint64_t group = 32,
                              bool e4m3Scales = false) {
  const std::uint64_t packA = mxPacking(fa), packB = mxPacking(fb);
  const std::uint64_t groups = k / group;
  auto factor = [e4m3Scales](std::uint8_t s) {
    return e4m3Scales ? mxDecode(MxFormat::E4M3, s)
                      : std::ldexp(1.0, int(s) - 127);
  };
  auto code = [](std::uint8_t byte, std::uint64_t index, std::uint64_t pack) {
    return pack == 2 ? unsigned(byte >> (4 * (index % 2))) & 15u
                     : unsigned(byte);
  };
  std::vector<double> av(m * k), bv(k * n);
  double squaresA = 0.0, squaresB = 0.0;
  for (std::uint64_t r = 0; r < m; ++r)
    for (std::uint64_t kk = 0; kk < k; ++kk) {
      const double v = mxDecode(fa, code(a[r * lda + kk / packA], kk, packA)) *
                       factor(aScale[r * groups + kk / group]);
      av[r * k + kk] = v;
      squaresA += v * v;
    }
  for (std::uint64_t kk = 0; kk < k; ++kk)
    for (std::uint64_t col = 0; col < n; ++col) {
      const double v =
          mxDecode(fb, code(b[kk / packB * ldb + col], kk, packB)) *
          factor(bScale[col * groups + kk / group]);
      bv[kk * n + col] = v;
      squaresB += v * v;
    }
  rmsA = m * k != 0 ? std::sqrt(squaresA / double(m * k)) : 0.0;
  rmsB = k * n != 0 ? std::sqrt(squaresB / double(k * n)) : 0.0;
  for (std::uint64_t i = 0; i < m * n; ++i)
    c[i] = 0.0;
  for (std::uint64_t r = 0; r < m; ++r)
    for (std::uint64_t kk = 0; kk < k; ++kk)
      for (std::uint64_t col = 0; col < n; ++col)
        c[r * n + col] += av[r * k + kk] * bv[kk * n + col];
}

} // namespace gpu
} // namespace tilec

#endif // TILEC_TEST_GPU_REFERENCE_H
