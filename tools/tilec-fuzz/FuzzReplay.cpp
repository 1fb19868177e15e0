//===- FuzzReplay.cpp - Run the fuzz target on saved inputs -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// A main() for the fuzz target without libFuzzer: runs every file named on
// the command line through LLVMFuzzerTestOneInput. The regression test of
// inputs the fuzzer once crashed on (test/Fuzz) uses it in ordinary builds.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    auto buffer = llvm::MemoryBuffer::getFile(argv[i]);
    if (!buffer) {
      llvm::errs() << "tilec-fuzz-replay: cannot read " << argv[i] << "\n";
      return 2;
    }
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
        (*buffer)->getBufferSize());
  }
  llvm::outs() << "tilec-fuzz-replay: " << argc - 1 << " inputs, no crash\n";
  return 0;
}
