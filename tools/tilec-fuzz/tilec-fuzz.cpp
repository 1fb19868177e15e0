//===- tilec-fuzz.cpp - libFuzzer target for the compiler -------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to the whole compiler: the parser, then for every
// @triton.jit function code generation with a made-up signature (pointers and
// i32 scalars alternating, constexprs bound to 16) and the lowering pipeline
// down to the LLVM dialect. Any crash, assertion or sanitizer report is a
// bug: errors must be diagnostics. Built by tools/fuzz.sh with clang.
//
//===----------------------------------------------------------------------===//

#include "tilec/Driver/Driver.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace tilec;

/// True if `annotation` spells `tl.constexpr` or `constexpr`.
static bool isConstexpr(const ExprAST *annotation) {
  if (auto *attr = llvm::dyn_cast_or_null<AttributeExprAST>(annotation))
    return attr->getAttr() == "constexpr";
  if (auto *name = llvm::dyn_cast_or_null<NameExprAST>(annotation))
    return name->getName() == "constexpr";
  return false;
}

static std::unique_ptr<llvm::SourceMgr> makeSourceMgr(llvm::StringRef text) {
  auto srcMgr = std::make_unique<llvm::SourceMgr>();
  srcMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tile"), llvm::SMLoc());
  // Diagnostics are expected; keep them off the terminal.
  srcMgr->setDiagHandler([](const llvm::SMDiagnostic &, void *) {});
  return srcMgr;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  auto srcMgr = makeSourceMgr(text);
  std::unique_ptr<ModuleAST> module =
      parseModule(*srcMgr, srcMgr->getMainFileID());
  if (!module)
    return 0;
  for (const StmtPtr &stmt : module->getBody()) {
    auto *fn = llvm::dyn_cast<FunctionDefAST>(stmt.get());
    if (!fn)
      continue;
    CompileOptions options;
    options.kernel.name = fn->getName().str();
    options.emit = EmitKind::LLVMMLIR;
    unsigned index = 0;
    for (const ParamAST &param : fn->getParams()) {
      if (isConstexpr(param.annotation.get())) {
        if (!param.defaultValue)
          options.kernel.defines[param.name] = "16";
        continue;
      }
      SignatureEntry entry;
      entry.Type.IsPointer = index++ % 2 == 0;
      entry.Type.Elem =
          entry.Type.IsPointer ? abi::ScalarType::FP32 : abi::ScalarType::I32;
      entry.Type.Hint = 16;
      options.kernel.signature.push_back(entry);
    }
    auto compileMgr = makeSourceMgr(text);
    std::string out;
    llvm::raw_string_ostream os(out);
    (void)compile(*compileMgr, options, os);
  }
  return 0;
}
