//===- InterpreterTests.cpp - Unit tests of the interpreter -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The interpreter's API on small kernels written here: buffer encodings,
// rounding (tf32, fp16, fp8), integer wrapping, loops, and the diagnostics
// of out-of-bounds accesses and bad arguments.
//
//===----------------------------------------------------------------------===//

#include "tilec/Interpreter/Interpreter.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace tilec;
using namespace tilec::interp;

namespace {

/// Compiles `body` as the kernel `k(PARAMS)` and runs it on one program.
struct Run {
  Run(const std::string &params, const std::string &body,
      const std::string &signature, std::vector<Argument> args) {
    std::string source = "import triton\nimport triton.language as tl\n\n\n"
                         "@triton.jit\ndef k(" +
                         params + "):\n" + body;
    srcMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, "k.tile"), llvm::SMLoc());
    KernelConfig config;
    config.signature = abi::parseSignatureEntries(signature).take();
    llvm::raw_string_ostream os(diagnostics);
    kernel = Kernel::create(srcMgr, config, os);
    ok = kernel && mlir::succeeded(kernel->run({1, 1, 1}, args));
  }

  llvm::SourceMgr srcMgr;
  std::unique_ptr<Kernel> kernel;
  std::string diagnostics;
  bool ok = false;
};

} // namespace

TEST_CASE("buffers round to their element type", "[interpreter]") {
  Buffer half(ScalarType::FP16, 2), bf16(ScalarType::BF16, 1),
      fp8(ScalarType::FP8E4NV, 1), i8(ScalarType::I8, 1);
  half.set(0, 1.0 + std::ldexp(1.0, -11)); // A tie: to even, 1.
  half.set(1, 65504.0);
  bf16.set(0, 0.1);
  fp8.set(0, 0.3);
  i8.set(0, 200);
  CHECK(half.get(0) == 1.0);
  CHECK(half.get(1) == 65504.0);
  CHECK(half.getBytes().size() == 4);
  CHECK(bf16.get(0) == 0.10009765625);
  CHECK(fp8.get(0) == 0.3125);
  CHECK(i8.get(0) == -56);
  CHECK(abi::lookupScalarType("u8") == ScalarType::U8);
  CHECK(std::string(abi::scalarTypeName(*abi::lookupScalarType("f32"))) ==
        "fp32");
}

TEST_CASE("tf32 rounds to nearest with ties away from zero", "[interpreter]") {
  // Row i of a holds one value in every column; b is all ones / 16, so
  // c[i, j] is a[i, 0] rounded to tf32.
  Buffer a(ScalarType::FP32, 256), b(ScalarType::FP32, 256),
      c(ScalarType::FP32, 256);
  const double ulp = std::ldexp(1.0, -10);
  const double values[] = {1 + ulp / 2, -(1 + ulp / 2), 1 + ulp / 4,
                           1 + 3 * ulp / 4, 1 + 3 * ulp / 2};
  const double rounded[] = {1 + ulp, -(1 + ulp), 1, 1 + ulp, 1 + 2 * ulp};
  for (int i = 0; i < 256; ++i) {
    a.set(i, i / 16 < 5 ? values[i / 16] : 0.0);
    b.set(i, 1.0 / 16);
  }
  Run run(
      "a_ptr, b_ptr, c_ptr",
      "    r = tl.arange(0, 16)\n"
      "    i = r[:, None] * 16 + r[None, :]\n"
      "    tl.store(c_ptr + i, tl.dot(tl.load(a_ptr + i), "
      "tl.load(b_ptr + i)))\n",
      "*fp32, *fp32, *fp32",
      {Argument::ofBuffer(a), Argument::ofBuffer(b), Argument::ofBuffer(c)});
  REQUIRE(run.ok);
  for (int i = 0; i < 5; ++i)
    CHECK(c.get(i * 16 + 3) == rounded[i]);
}

TEST_CASE("narrow types round after every op", "[interpreter]") {
  Buffer out(ScalarType::FP32, 4);
  Run run("out_ptr, x",
          "    h = x.to(tl.float16)\n"
          "    tl.store(out_ptr, (h + 1.0).to(tl.float32))\n"
          "    tl.store(out_ptr + 1, (1000.0 * x).to(tl.float8e4nv)"
          ".to(tl.float32))\n"
          "    tl.store(out_ptr + 2, (x.to(tl.int32) + 2147483647).to("
          "tl.float32))\n"
          "    tl.store(out_ptr + 3, (x * 1e10).to(tl.int32).to(tl.float32))\n",
          "*fp32, fp32", {Argument::ofBuffer(out), Argument::ofFloat(2048.0)});
  REQUIRE(run.ok);
  CHECK(out.get(0) == 2048.0);        // 2049 is not an fp16.
  CHECK(out.get(1) == 448.0);         // fp8 conversions saturate.
  CHECK(out.get(2) == -2147481600.0); // i32 wraps.
  CHECK(out.get(3) == 2147483648.0);  // Saturated to 2^31 - 1, then fp32.
}

TEST_CASE("loops carry values", "[interpreter]") {
  Buffer out(ScalarType::I32, 2);
  Run run("out_ptr, n",
          "    i = 0\n"
          "    s = 0\n"
          "    while i < n:\n"
          "        s += i\n"
          "        i += 1\n"
          "    t = 0\n"
          "    for j in range(1, n, 3):\n"
          "        t += j\n"
          "    tl.store(out_ptr, s)\n"
          "    tl.store(out_ptr + 1, t)\n",
          "*i32, i32", {Argument::ofBuffer(out), Argument::ofInt(10)});
  REQUIRE(run.ok);
  CHECK(out.get(0) == 45);
  CHECK(out.get(1) == 1 + 4 + 7);
}

TEST_CASE("an access outside a buffer names the program and the element",
          "[interpreter]") {
  Buffer x(ScalarType::FP16, 10);
  Run run("x_ptr", "    tl.store(x_ptr + tl.arange(0, 16), 1.0)\n", "*fp16",
          {Argument::ofBuffer(x)});
  CHECK_FALSE(run.ok);
  CHECK(run.diagnostics ==
        "k.tile:7:5: error: out-of-bounds store in kernel 'k', program (0, "
        "0, 0), element [10]: element 10 of 'x_ptr', which holds 10 fp16 "
        "elements\n"
        "    tl.store(x_ptr + tl.arange(0, 16), 1.0)\n"
        "    ^\n");
  // Elements before the first bad one were stored.
  CHECK(x.get(9) == 1.0);
}

TEST_CASE("arguments are checked against the signature", "[interpreter]") {
  Buffer x(ScalarType::FP32, 16);
  std::string body = "    tl.store(x_ptr + tl.arange(0, 16), n)\n";
  Run hint("x_ptr, n", body, "*fp32, i32:16",
           {Argument::ofBuffer(x), Argument::ofInt(24)});
  CHECK_FALSE(hint.ok);
  CHECK_THAT(hint.diagnostics,
             Catch::Contains("argument 1 ('n', i32:16) of kernel 'k' is "
                             "declared a multiple of 16, but is 24"));
  Run range("x_ptr, n", body, "*fp32, i8",
            {Argument::ofBuffer(x), Argument::ofInt(300)});
  CHECK_FALSE(range.ok);
  CHECK_THAT(range.diagnostics, Catch::Contains("cannot hold 300"));
  Run good("x_ptr, n", body, "*fp32, i32:16",
           {Argument::ofBuffer(x), Argument::ofInt(32)});
  CHECK(good.ok);
  CHECK(x.get(15) == 32.0);
}
