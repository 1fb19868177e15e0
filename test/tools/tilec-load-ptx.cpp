//===- tilec-load-ptx.cpp - Load PTX files through the runtime ------------===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// `tilec-load-ptx FILE.ptx...` loads each file with tilec::rt::Module::
// loadFile and looks up each of its kernels, exactly as a host program
// does, then prints one line per kernel with the metadata the runtime read.
// The lit tests run it on the fake driver (TILEC_CUDA_LIBRARY) to check that
// what tilec writes is what the runtime accepts. Exits 1 with the runtime's
// message at the first failure.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Runtime.h"

#include <cstdio>

using namespace tilec;

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tilec-load-ptx FILE.ptx...\n");
    return 2;
  }
  rt::Expected<rt::Context> context = rt::Context::create();
  if (!context) {
    std::fprintf(stderr, "tilec-load-ptx: %s\n",
                 context.status().message().c_str());
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    rt::Expected<rt::Module> module = rt::Module::loadFile(*context, argv[i]);
    if (!module) {
      std::fprintf(stderr, "tilec-load-ptx: %s\n",
                   module.status().message().c_str());
      return 1;
    }
    for (const rt::KernelMetadata &meta : module->kernels()) {
      rt::Expected<rt::Kernel> kernel = module->getKernel(meta.Name);
      if (!kernel) {
        std::fprintf(stderr, "tilec-load-ptx: %s\n",
                     kernel.status().message().c_str());
        return 1;
      }
      std::printf("loaded %s\n",
                  abi::printMetadataLine(kernel->metadata()).c_str());
    }
  }
  return 0;
}
