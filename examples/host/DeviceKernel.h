//===- DeviceKernel.h - A kernel loaded on one device, for the examples ---===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// What the multi-GPU host programs set up on every device: the device's
// context, a PTX file's kernel loaded there, and a stream of its own.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_EXAMPLES_HOST_DEVICEKERNEL_H
#define TILEC_EXAMPLES_HOST_DEVICEKERNEL_H

#include "tilec/Runtime/Runtime.h"

#include <string>

struct DeviceKernel {
  tilec::rt::Context Ctx;
  tilec::rt::Module Mod;
  tilec::rt::Kernel Fn;
  tilec::rt::Stream Str;

  /// Loads kernel `name` of `ptxPath` on device `ordinal`.
  static tilec::rt::Expected<DeviceKernel>
  load(int ordinal, const std::string &ptxPath, const std::string &name) {
    using namespace tilec::rt;
    Expected<Context> ctx = Context::create(ordinal);
    if (!ctx)
      return ctx.status();
    Expected<Module> mod = Module::loadFile(*ctx, ptxPath);
    if (!mod)
      return mod.status();
    Expected<Kernel> fn = mod->getKernel(name);
    if (!fn)
      return fn.status();
    Expected<Stream> str = Stream::create(*ctx);
    if (!str)
      return str.status();
    return DeviceKernel{ctx.take(), mod.take(), fn.take(), str.take()};
  }
};

#endif // TILEC_EXAMPLES_HOST_DEVICEKERNEL_H
