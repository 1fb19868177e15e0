//===- AttentionTests.cpp - GPU tests of the attention kernel -------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// The attention family of tilec-gpu-tests: attention_fwd of
// examples/attention.tile (online-softmax attention forward, no causal
// mask) with HEAD_DIM = 64, BLOCK_M = 64, BLOCK_N = 32 and 8 warps, in fp16
// (Q, K, V, O) with an fp32 sm_scale of 0.5 (as Triton's attention tests
// use), and in fp32 (tf32 products, tolerance 3e-3) with BLOCK_N = 32 and
// 64; and the benchmark's configurations, BLOCK_M = 128 and BLOCK_N = 64
// with HEAD_DIM 64 (fp16), BLOCK_N = 128 with HEAD_DIM 128 (fp16, and bf16
// with tolerance 1e-2),
// whose K and V stream through shared-memory rings, also with K loaded as
// stored and transposed for the product (attention_fwd_kt); and attn_fwd of
// examples/flash_attention.tile (the same parameters, block pointers, exp2;
// its attn_fwd_desc: tensor descriptors made in the kernel)
// with the same blocks, causal (the reference's query i sees keys 0 .. i)
// and not; and the kernels of examples/flash_attention_bwd.tile (D, then
// dK and dV, and dQ, each checked against float64 on its own, from M and D
// of the float64 forward), causal and not. Q, K, V and O are [Z * H, N_CTX,
// HEAD_DIM], contiguous; the grid is (cdiv(N_CTX, BLOCK_M), Z * H) as in
// Triton's tutorial. Sizes (Z, H, N_CTX) include N_CTX that is not a multiple
// of either block (the kernel masks the last query and key blocks). Inputs are
// uniform in [-1, 1) rounded to fp16; the reference is softmax(sm_scale * Q
// K^T) V in float64 of those values; tolerance 2e-3 (fp16 O, and P rounded to
// fp16 before P @ V). The rate column counts 4 * Z * H * N_CTX^2 * HEAD_DIM
// flops (both products).
//
//===----------------------------------------------------------------------===//

#include "Reference.h"
#include "TestUtil.h"

using namespace tilec::rt;
using namespace tilec::gpu;

namespace {

constexpr float SmScale = 0.5f;

/// attention_fwd(Q, K, V, O, sm_scale, N_CTX); size (Z, H, N_CTX).
CaseResult runAttention(TestEnv &env, const GpuTest &test, const Kernel &kernel,
                        const Shape &shape) {
  const TestConfig &config = test.Config;
  const std::uint64_t heads = shape[0] * shape[1], seq = shape[2];
  const std::uint64_t dim = config.HeadDim;

  CaseResult result;
  Dim3 grid(cdiv(seq, config.BlockM), heads);
  result.Grid = gridString(grid);
  // Causal: about half the score matrix.
  result.Flops = 4.0 * heads * seq * seq * dim * (config.Causal ? 0.5 : 1.0);

  // Each as a (Z * H * N_CTX) x HEAD_DIM matrix.
  HostMatrix q = HostMatrix::random(env, config.In, heads * seq, dim);
  HostMatrix k = HostMatrix::random(env, config.In, heads * seq, dim);
  HostMatrix v = HostMatrix::random(env, config.In, heads * seq, dim);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &dq = buffers.input(q);
  DeviceBuffer &dk = buffers.input(k);
  DeviceBuffer &dv = buffers.input(v);
  DeviceBuffer &dout = buffers.output(heads * seq * dim * elemSize(config.Out));
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(
      env, kernel, grid, {dq, dk, dv, dout, SmScale, seq}, buffers, result);
  std::vector<float> out;
  std::uint64_t clobbered = 0;
  if (status.ok())
    status =
        readMatrix(dout, config.Out, heads * seq, dim, dim, out, clobbered);
  if (!status.ok())
    return failed(status, result);

  std::vector<double> ref(heads * seq * dim);
  attentionReference(q.Values.data(), k.Values.data(), v.Values.data(), heads,
                     seq, dim, static_cast<double>(SmScale), ref.data(),
                     config.Causal, config.Window);
  result.Passed = checkOutput(result, "O", out, ref, dim, config.Tol);
  return result;
}

/// A [rows, cols] input of \p type holding \p values rounded to it.
HostMatrix matrixOf(ElemType type, std::uint64_t rows, std::uint64_t cols,
                    const std::vector<double> &values) {
  HostMatrix m;
  m.Type = type;
  m.Rows = rows;
  m.Cols = m.Ld = cols;
  m.Values.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    m.Values[i] = roundTo(type, static_cast<float>(values[i]));
  m.Bytes.resize(m.Values.size() * elemSize(type));
  encodeElements(type, m.Values.data(), m.Values.size(), m.Bytes.data());
  return m;
}

/// The inputs every backward kernel of flash_attention_bwd.tile reads, and
/// the float64 answers, for size (Z, H, N_CTX).
struct BackwardCase {
  std::uint64_t Heads, Seq, Dim;
  HostMatrix Q, K, V, DO, O, Lse2, Delta;
  AttentionBackward Ref;

  BackwardCase(TestEnv &env, const TestConfig &config, const Shape &shape)
      : Heads(shape[0] * shape[1]), Seq(shape[2]), Dim(config.HeadDim),
        Q(HostMatrix::random(env, config.In, Heads * Seq, Dim)),
        K(HostMatrix::random(env, config.In, Heads * Seq, Dim)),
        V(HostMatrix::random(env, config.In, Heads * Seq, Dim)),
        DO(HostMatrix::random(env, config.In, Heads * Seq, Dim)) {
    attentionForwardStats(Q.Values.data(), K.Values.data(), V.Values.data(),
                          Heads, Seq, Dim, SmScale, config.Causal, Ref);
    // The kernels read O as the forward stored it, M and D in fp32.
    O = matrixOf(config.In, Heads * Seq, Dim, Ref.O);
    attentionBackwardReference(
        Q.Values.data(), K.Values.data(), V.Values.data(), DO.Values.data(),
        O.Values.data(), Heads, Seq, Dim, SmScale, config.Causal, Ref);
    Lse2 = matrixOf(ElemType::F32, Heads, Seq, Ref.Lse2);
    Delta = matrixOf(ElemType::F32, Heads, Seq, Ref.Delta);
  }
};

/// Reads output \p buffer ([rows, cols] of \p type) and checks it against
/// \p ref.
bool checkGradient(CaseResult &result, const char *what,
                   const DeviceBuffer &buffer, ElemType type,
                   std::uint64_t rows, std::uint64_t cols,
                   const std::vector<double> &ref, const Tolerance &tol,
                   Status &status) {
  std::vector<float> out;
  std::uint64_t clobbered = 0;
  status = readMatrix(buffer, type, rows, cols, cols, out, clobbered);
  if (!status.ok())
    return false;
  return checkOutput(result, what, out, ref, cols, tol) &
         recordClobbered(result, what, clobbered);
}

/// attn_bwd_preprocess(O, DO, Delta, N_CTX): Delta = rowsum(O * dO).
CaseResult runBackwardPreprocess(TestEnv &env, const GpuTest &test,
                                 const Kernel &kernel, const Shape &shape) {
  const TestConfig &config = test.Config;
  BackwardCase c(env, config, shape);
  CaseResult result;
  Dim3 grid(cdiv(c.Seq, config.BlockM), c.Heads);
  result.Grid = gridString(grid);
  CaseBuffers buffers(env.Ctx);
  DeviceBuffer &o = buffers.input(c.O);
  DeviceBuffer &dout = buffers.input(c.DO);
  DeviceBuffer &delta = buffers.output(c.Heads * c.Seq * 4);
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status =
      launchTimed(env, kernel, grid, {o, dout, delta, c.Seq}, buffers, result);
  if (status.ok())
    result.Passed = checkGradient(result, "D", delta, ElemType::F32, c.Heads,
                                  c.Seq, c.Ref.Delta, config.Tol, status);
  if (!status.ok())
    return failed(status, result);
  return result;
}

/// attn_bwd_dkdv(Q, K, V, DO, DK, DV, M, Delta, sm_scale, N_CTX) or
/// attn_bwd_dq(Q, K, V, DO, DQ, M, Delta, sm_scale, N_CTX), with M and
/// Delta from the float64 reference.
CaseResult runBackwardGradients(TestEnv &env, const GpuTest &test,
                                const Kernel &kernel, const Shape &shape) {
  const TestConfig &config = test.Config;
  bool dq = test.KernelName == "attn_bwd_dq";
  BackwardCase c(env, config, shape);
  CaseResult result;
  Dim3 grid(cdiv(c.Seq, dq ? config.BlockM : config.BlockN), c.Heads);
  result.Grid = gridString(grid);
  // dK and dV: two products of p and two of ds, 8 flops a (query, key,
  // dim) seen; dQ: p, dp and ds @ k, 6.
  result.Flops = (dq ? 6.0 : 8.0) * c.Heads * c.Seq * c.Seq * c.Dim *
                 (config.Causal ? 0.5 : 1.0);
  std::uint64_t bytes = c.Heads * c.Seq * c.Dim * elemSize(config.Out);
  CaseBuffers buffers(env.Ctx);
  std::vector<KernelArg> args = {buffers.input(c.Q), buffers.input(c.K),
                                 buffers.input(c.V), buffers.input(c.DO)};
  DeviceBuffer &first = buffers.output(bytes);
  args.push_back(first);
  DeviceBuffer *dv = dq ? nullptr : &buffers.output(bytes);
  if (dv)
    args.push_back(*dv);
  for (KernelArg arg :
       {KernelArg(buffers.input(c.Lse2)), KernelArg(buffers.input(c.Delta)),
        KernelArg(SmScale), KernelArg(c.Seq)})
    args.push_back(arg);
  if (!buffers.status().ok())
    return failed(buffers.status(), result);
  Status status = launchTimed(env, kernel, grid, args, buffers, result);
  if (status.ok())
    result.Passed = checkGradient(result, dq ? "dQ" : "dK", first, config.Out,
                                  c.Heads * c.Seq, c.Dim,
                                  dq ? c.Ref.DQ : c.Ref.DK, config.Tol, status);
  if (status.ok() && dv)
    result.Passed &=
        checkGradient(result, "dV", *dv, config.Out, c.Heads * c.Seq, c.Dim,
                      c.Ref.DV, config.Tol, status);
  if (!status.ok())
    return failed(status, result);
  return result;
}

} // namespace

void tilec::gpu::addAttentionTests(std::vector<GpuTest> &tests) {
  TestConfig config;
  config.In = config.Out = ElemType::F16;
  config.NumWarps = 8;
  config.HeadDim = 64;
  config.BlockM = 64;
  config.BlockN = 32;
  config.Tol = Tolerance::relative(2e-3);
  const std::vector<Shape> sizes = {{1, 1, 1},   {1, 1, 64},  {1, 2, 100},
                                    {2, 3, 257}, {1, 4, 512}, {2, 4, 1024}};
  tests.push_back({"attention_fp16", "attention_fp16.ptx", "attention_fwd",
                   sizes, runAttention, config});
  // The benchmark's blocks: 128 x 64 with HEAD_DIM 64, 128 x 128 with 128.
  const std::vector<Shape> wideSizes = {{1, 1, 1},    {1, 1, 64},
                                        {1, 2, 100},  {2, 3, 257},
                                        {1, 4, 1000}, {2, 2, 2048}};
  config.BlockM = 128;
  config.BlockN = 64;
  tests.push_back({"attention_fp16_m128", "attention_fp16_m128.ptx",
                   "attention_fwd", wideSizes, runAttention, config});
  // The same built with --multi-product-tma (K's transposed view and V by
  // TMA).
  tests.push_back({"attention_fp16_m128_tma", "attention_fp16_m128_tma.ptx",
                   "attention_fwd", wideSizes, runAttention, config});
  config.HeadDim = 128;
  config.BlockN = 128;
  tests.push_back({"attention_fp16_d128", "attention_fp16_d128.ptx",
                   "attention_fwd", wideSizes, runAttention, config});
  tests.push_back({"attention_fp16_d128_tma", "attention_fp16_d128_tma.ptx",
                   "attention_fwd", wideSizes, runAttention, config});
  config.In = config.Out = ElemType::BF16;
  config.Tol = Tolerance::relative(1e-2);
  tests.push_back({"attention_bf16_d128", "attention_bf16_d128.ptx",
                   "attention_fwd", wideSizes, runAttention, config});
  // attention_fwd_kt: K loaded as stored and transposed for q @ k^T.
  config.In = config.Out = ElemType::F16;
  config.HeadDim = 64;
  config.BlockN = 64;
  config.Tol = Tolerance::relative(2e-3);
  tests.push_back({"attention_kt_fp16", "attention_kt_fp16.ptx",
                   "attention_fwd_kt", wideSizes, runAttention, config});
  // The same built with --multi-product-tma (K and V by TMA).
  tests.push_back({"attention_kt_fp16_tma", "attention_kt_fp16_tma.ptx",
                   "attention_fwd_kt", wideSizes, runAttention, config});
  // flash_attention.tile's attn_fwd (the same blocks), causal and not.
  struct Flash {
    const char *Name;
    ElemType Type;
    unsigned HeadDim;
    bool Causal;
  };
  for (const Flash &flash :
       {Flash{"flash_attention_fp16", ElemType::F16, 64, false},
        Flash{"flash_attention_fp16_causal", ElemType::F16, 64, true},
        Flash{"flash_attention_fp16_d128_causal", ElemType::F16, 128, true},
        Flash{"flash_attention_bf16_d128", ElemType::BF16, 128, false}}) {
    config.In = config.Out = flash.Type;
    config.HeadDim = flash.HeadDim;
    config.BlockN = flash.HeadDim == 128 ? 128 : 64;
    config.Causal = flash.Causal;
    config.Tol = Tolerance::relative(flash.Type == ElemType::F16 ? 2e-3 : 1e-2);
    tests.push_back({flash.Name, std::string(flash.Name) + ".ptx", "attn_fwd",
                     wideSizes, runAttention, config});
    // attn_fwd_desc: the same with tensor descriptors (K and V by TMA).
    std::string name = flash.Name;
    std::string desc =
        "flash_attention_desc" + name.substr(name.find("attention") + 9);
    tests.push_back({desc, desc + ".ptx", "attn_fwd_desc", wideSizes,
                     runAttention, config});
    // attn_fwd with --multi-product-tma: its block pointers' K and V by TMA.
    std::string tma =
        "flash_attention_tma" + name.substr(name.find("attention") + 9);
    tests.push_back(
        {tma, tma + ".ptx", "attn_fwd", wideSizes, runAttention, config});
  }
  // attn_fwd_desc with a sliding window of 200 keys (causal, HEAD_DIM 64).
  config.In = config.Out = ElemType::F16;
  config.HeadDim = 64;
  config.BlockM = 128;
  config.BlockN = 64;
  config.Causal = true;
  config.Window = 200;
  config.Tol = Tolerance::relative(2e-3);
  tests.push_back({"flash_attention_desc_fp16_window",
                   "flash_attention_desc_fp16_window.ptx", "attn_fwd_desc",
                   wideSizes, runAttention, config});
  config.Window = 0;
  config.Causal = false;
  config.HeadDim = 64;
  config.BlockM = 64;
  config.BlockN = 32;
  // flash_attention_bwd.tile in fp16, HEAD_DIM 64, causal and not: D; dK
  // and dV (programs of 128 keys, 32 queries a step); dQ (programs of 128
  // queries, 32 keys a step). The p and ds rounded to fp16 before their
  // products: tolerance 1e-2.
  const std::vector<Shape> backwardSizes = {
      {1, 1, 1}, {1, 1, 64}, {1, 2, 100}, {2, 3, 257}, {1, 2, 1000}};
  config.In = config.Out = ElemType::F16;
  config.Tol = Tolerance::relative(1e-2);
  config.BlockM = 128;
  config.NumWarps = 4;
  tests.push_back({"attn_bwd_preprocess", "attn_bwd_preprocess.ptx",
                   "attn_bwd_preprocess", backwardSizes, runBackwardPreprocess,
                   config});
  config.NumWarps = 8;
  // With one key, dQ and dK are 0 in exact arithmetic (p = 1 and dp = D,
  // the same sum taken in two orders) and fp32 leaves about 1e-7: judged
  // against a floor of 1e-4, far below the gradients of the other sizes.
  config.Tol.RefFloor = 1e-4;
  for (bool causal : {false, true}) {
    config.Causal = causal;
    std::string suffix = causal ? "_causal" : "";
    config.BlockM = 32;
    config.BlockN = 128;
    tests.push_back({"attn_bwd_dkdv" + suffix,
                     "attn_bwd_dkdv" + suffix + ".ptx", "attn_bwd_dkdv",
                     backwardSizes, runBackwardGradients, config});
    config.BlockM = 128;
    config.BlockN = 32;
    tests.push_back({"attn_bwd_dq" + suffix, "attn_bwd_dq" + suffix + ".ptx",
                     "attn_bwd_dq", backwardSizes, runBackwardGradients,
                     config});
  }
  config.Causal = false;
  config.Tol.RefFloor = 0;
  config.BlockM = 64;
  config.BlockN = 32;
  // fp32 inputs, tf32 products (plain and transposed accumulators).
  config.In = config.Out = ElemType::F32;
  config.Tol = Tolerance::relative(3e-3);
  tests.push_back({"attention_fp32_n32", "attention_fp32_n32.ptx",
                   "attention_fwd", sizes, runAttention, config});
  config.BlockN = 64;
  tests.push_back({"attention_fp32_n64", "attention_fp32_n64.ptx",
                   "attention_fwd", sizes, runAttention, config});
}
