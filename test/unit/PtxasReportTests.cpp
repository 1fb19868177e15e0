//===- PtxasReportTests.cpp - Parsing ptxas -v output -----------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// parsePtxasReport on ptxas -v output as CUDA 13's ptxas prints it: a kernel
// that fits, one that spills (the seed matmul unhinted with 128 x 256 x 64
// blocks), and wgmma serialization notes.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PtxasReport.h"

#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace tilec;

TEST_CASE("ptxas report: a kernel without spills", "[ptxas]") {
  PtxasReport report = parsePtxasReport(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'matmul_ptr_kernel' for "
      "'sm_90a'\n"
      "ptxas info    : Function properties for matmul_ptr_kernel\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 127 registers, used 1 barriers, 384 bytes smem, "
      "400 bytes cmem[0]\n"
      "ptxas info    : Compile time = 107.799 ms\n");
  REQUIRE(report.functions.size() == 1);
  const PtxasFunctionReport &kernel = report.functions[0];
  CHECK(kernel.name == "matmul_ptr_kernel");
  CHECK(kernel.isEntry);
  CHECK(kernel.registers == 127);
  CHECK(kernel.barriers == 1);
  CHECK(kernel.staticSharedBytes == 384);
  CHECK_FALSE(kernel.spills());
  CHECK(kernel.notes.empty());
  CHECK(report.notes.empty());
  CHECK(ptxasReportProblems(report).empty());

  std::string text;
  llvm::raw_string_ostream os(text);
  printPtxasReport(report, /*dynamicSharedBytes=*/16384, os);
  CHECK(text == "ptxas: matmul_ptr_kernel: registers=127 spill_stores=0 "
                "spill_loads=0 stack=0 shared=16768 (static=384 "
                "dynamic=16384) barriers=1\n");
}

TEST_CASE("ptxas report: spills", "[ptxas]") {
  PtxasReport report = parsePtxasReport(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'matmul_ptr_kernel' for "
      "'sm_90a'\n"
      "ptxas info    : Function properties for matmul_ptr_kernel\n"
      "    2112 bytes stack frame, 3118 bytes spill stores, 3272 bytes spill "
      "loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 2112 bytes "
      "cumulative stack size\n"
      "ptxas info    : Compile time = 378.606 ms\n");
  const PtxasFunctionReport *kernel = report.lookup("matmul_ptr_kernel");
  REQUIRE(kernel);
  CHECK(kernel->registers == 255);
  CHECK(kernel->stackFrameBytes == 2112);
  CHECK(kernel->spillStoreBytes == 3118);
  CHECK(kernel->spillLoadBytes == 3272);
  CHECK(kernel->staticSharedBytes == 0);
  CHECK(kernel->spills());
  CHECK(kernel->notes.empty());
  std::vector<std::string> problems = ptxasReportProblems(report);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == "kernel 'matmul_ptr_kernel' spills registers: 3118 "
                       "bytes spill stores, 3272 bytes spill loads");
}

TEST_CASE("ptxas report: wgmma serialization notes", "[ptxas]") {
  std::string c7515 =
      "ptxas info    : (C7515) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to non wgmma instructions defining "
      "accumulator registers of a wgmma between start and end of the "
      "pipeline stage in the function 'attention_fwd'";
  std::string c7519 = "ptxas warning : (C7519) Potential Performance Loss: "
                      "wgmma.mma_async instructions are serialized due to "
                      "insufficient register resources for the wgmma "
                      "pipeline in the function 'attention_fwd'";
  std::string unnamed = "ptxas warning : (C7999) something about the module";
  // The notes come before the kernel's resource lines, and one names no
  // function.
  PtxasReport report = parsePtxasReport(
      unnamed + "\n" + "ptxas info    : 0 bytes gmem\n" + c7515 + "\r\n" +
      "ptxas info    : Compiling entry function 'attention_fwd' for "
      "'sm_90a'\n" +
      c7519 + "\n" +
      "ptxas info    : Function properties for attention_fwd\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 166 registers, used 1 barriers\n");
  REQUIRE(report.functions.size() == 1);
  const PtxasFunctionReport &kernel = report.functions[0];
  CHECK(kernel.isEntry);
  CHECK(kernel.registers == 166);
  CHECK_FALSE(kernel.spills());
  REQUIRE(kernel.notes.size() == 2);
  CHECK(kernel.notes[0] == c7515);
  CHECK(kernel.notes[1] == c7519);
  REQUIRE(report.notes.size() == 1);
  CHECK(report.notes[0] == unnamed);

  std::vector<std::string> problems = ptxasReportProblems(report);
  REQUIRE(problems.size() == 3);
  CHECK(problems[0] == "ptxas note on kernel 'attention_fwd': " + c7515);
  CHECK(problems[1] == "ptxas note on kernel 'attention_fwd': " + c7519);
  CHECK(problems[2] == "ptxas note: " + unnamed);

  std::string text;
  llvm::raw_string_ostream os(text);
  printPtxasReport(report, /*dynamicSharedBytes=*/0, os);
  CHECK(text == "ptxas: attention_fwd: registers=166 spill_stores=0 "
                "spill_loads=0 stack=0 shared=0 (static=0 dynamic=0) "
                "barriers=1\n  " +
                    c7515 + "\n  " + c7519 + "\n  " + unnamed + "\n");
}

TEST_CASE("ptxas report: a note inside a block names no function", "[ptxas]") {
  PtxasReport report = parsePtxasReport(
      "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
      "ptxas info    : Potential Performance Loss: 'setmaxnreg' ignored; "
      "unable to determine register count at entry.\n"
      "ptxas info    : Function properties for k\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 1 register, used 0 barriers\n");
  const PtxasFunctionReport *kernel = report.lookup("k");
  REQUIRE(kernel);
  CHECK(kernel->registers == 1);
  CHECK(kernel->stackFrameBytes == 8);
  CHECK_FALSE(kernel->spills());
  REQUIRE(kernel->notes.size() == 1);
  CHECK(llvm::StringRef(kernel->notes[0]).contains("setmaxnreg"));
  CHECK(report.lookup("other") == nullptr);
}
