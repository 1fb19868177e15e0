//===- PTX.cpp - LLVM-dialect module to PTX text ----------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Translates an LLVM/NVVM-dialect module to LLVM IR, links the functions of
// CUDA's libdevice it calls, runs LLVM's optimisation pipeline with the NVPTX
// target machine, and prints PTX with the NVPTX backend, all in process.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/PTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

#include <cstdlib>
#include <memory>
#include <mutex>

using namespace mlir;

namespace {

constexpr const char *kTriple = "nvptx64-nvidia-cuda";

/// Initialises the NVPTX backend once per process.
static void initNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

/// Skips NVPTX's straight-line strength reduction (`slsr`) and otherwise
/// defers to LLVM's own gate (`-opt-bisect`, `-opt-disable`). On a tile
/// kernel, every element's address is a candidate, and the pass's SCEV
/// queries took a sixth of the seed matmul's compile for a few registers of
/// difference in the PTX, arithmetic that ptxas strength-reduces itself.
class CodegenPassGate : public llvm::OptPassGate {
public:
  bool shouldRunPass(llvm::StringRef passName,
                     llvm::StringRef irDescription) const override {
    if (passName == "slsr")
      return false;
    const llvm::OptPassGate &global = llvm::getGlobalPassGate();
    return !global.isEnabled() || global.shouldRunPass(passName, irDescription);
  }
  bool isEnabled() const override { return true; }
};

/// Builds the NVPTX target machine for `options`, or reports why not.
static std::unique_ptr<llvm::TargetMachine>
createTargetMachine(ModuleOp module, const tilec::PTXOptions &options) {
  initNVPTX();
  llvm::Triple triple(kTriple);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    module.emitError("NVPTX target unavailable: ") << error;
    return nullptr;
  }
  // -O3 generates code at the Default level: Aggressive only swaps the
  // backend's early CSE for GVN, which left every example's PTX as ptxas
  // assembles it unchanged and cost 4 ms of the seed matmul's compile.
  static const llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default};
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion =
      options.fpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, options.arch, options.features, targetOptions, std::nullopt,
      std::nullopt, levels[std::min(options.optLevel, 2u)]));
  if (!machine)
    module.emitError("cannot create an NVPTX target machine for ")
        << options.arch;
  return machine;
}

/// The data layout of tilec's modules: NVPTX's, with shared-memory pointers
/// (address space 3) of 32 bits, as PTX addresses shared memory (a 64-bit
/// pointer made every element's shared address two instructions of 64-bit
/// arithmetic). Local and constant pointers keep 64 bits: libdevice's
/// trigonometric reductions keep their local table in registers so.
static llvm::DataLayout getDataLayout(const llvm::TargetMachine &machine) {
  return llvm::DataLayout(machine.createDataLayout().getStringRepresentation() +
                          "-p3:32:32");
}

/// The first libdevice function `llvmModule` declares, or null.
static const llvm::Function *firstLibdeviceCall(const llvm::Module &module) {
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      return &f;
  return nullptr;
}

/// Past this many calls of libdevice functions (elements per thread times
/// the calls of the kernel), they stay functions the kernel calls instead of
/// being inlined into it: inlining all of them made LLVM's time grow faster
/// than the code (6 s at 1800 calls, 53 s at 7200, minutes past that).
constexpr unsigned kMaxInlinedLibdeviceCalls = 1024;

/// The calls of libdevice functions in `module`.
static unsigned countLibdeviceCalls(const llvm::Module &module) {
  unsigned calls = 0;
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("__nv_"))
      calls += f.getNumUses();
  return calls;
}

/// Links the libdevice functions `llvmModule` calls (none: nothing to do)
/// and inlines them into the kernel, unless it calls them more than
/// kMaxInlinedLibdeviceCalls times. libdevice asks `__nvvm_reflect` whether
/// to flush fp32 denormals; tilec answers yes, as Triton does, so that its
/// functions give Triton's results (`__nv_sqrtf` is sqrt.approx.ftz.f32).
static LogicalResult linkLibdevice(ModuleOp module, llvm::Module &llvmModule,
                                   const tilec::PTXOptions &options) {
  const llvm::Function *call = firstLibdeviceCall(llvmModule);
  if (!call)
    return success();
  std::string path =
      options.libdevice.empty() ? tilec::findLibdevice() : options.libdevice;
  if (path.empty())
    return module.emitError("the kernel calls the libdevice function '")
           << call->getName()
           << "' but CUDA's libdevice.10.bc was not found (set "
              "TILEC_LIBDEVICE or CUDA_HOME, or pass --libdevice)";
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> library =
      llvm::parseIRFile(path, diag, llvmModule.getContext());
  if (!library)
    return module.emitError("cannot read libdevice '")
           << path << "': " << diag.getMessage();
  bool inlineCalls =
      countLibdeviceCalls(llvmModule) <= kMaxInlinedLibdeviceCalls;
  library->setTargetTriple(llvmModule.getTargetTriple());
  library->setDataLayout(llvmModule.getDataLayout());
  if (llvm::Linker::linkModules(llvmModule, std::move(library),
                                llvm::Linker::Flags::LinkOnlyNeeded))
    return module.emitError("cannot link libdevice '") << path << "'";
  for (llvm::Function &f : llvmModule) {
    if (f.isDeclaration() ||
        f.getCallingConv() == llvm::CallingConv::PTX_Kernel)
      continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    if (inlineCalls) {
      f.removeFnAttr(llvm::Attribute::NoInline);
      f.addFnAttr(llvm::Attribute::AlwaysInline);
    } else {
      f.removeFnAttr(llvm::Attribute::AlwaysInline);
      f.addFnAttr(llvm::Attribute::NoInline);
    }
  }
  llvmModule.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz",
                           uint32_t(1));
  return success();
}

/// Moves the instructions that unpack loaded values (extractvalue,
/// insertelement, extractelement, bitcasts and widening casts) down their
/// block to just before their first user. The NVPTX backend emits code in IR
/// order and ptxas largely allocates registers in it, so a tile loaded long
/// before its use (a row kernel's weights, read only after its reduction)
/// then stays packed in as few registers as it was loaded into, rather than
/// unpacked into one register per element.
static void sinkUnpacking(llvm::Function &function) {
  for (llvm::BasicBlock &block : function) {
    llvm::SmallVector<llvm::Instruction *> worklist;
    for (llvm::Instruction &inst : block)
      if (llvm::isa<llvm::ExtractValueInst, llvm::InsertElementInst,
                    llvm::ExtractElementInst, llvm::BitCastInst,
                    llvm::FPExtInst, llvm::ZExtInst, llvm::SExtInst>(inst))
        worklist.push_back(&inst);
    // Last first: an instruction's users are already where they end up.
    for (llvm::Instruction *inst : llvm::reverse(worklist)) {
      llvm::Instruction *first = nullptr;
      bool movable = !inst->use_empty();
      for (llvm::User *user : inst->users()) {
        auto *userInst = llvm::dyn_cast<llvm::Instruction>(user);
        if (!userInst || userInst->getParent() != &block ||
            llvm::isa<llvm::PHINode>(userInst)) {
          movable = false;
          break;
        }
        if (!first || userInst->comesBefore(first))
          first = userInst;
      }
      if (movable && first != inst->getNextNode())
        inst->moveBefore(first->getIterator());
    }
  }
}

/// Translates and optimises `module` for `machine`.
static std::unique_ptr<llvm::Module>
translateAndOptimize(ModuleOp module, llvm::TargetMachine &machine,
                     const tilec::PTXOptions &options,
                     llvm::LLVMContext &llvmContext) {
  unsigned optLevel = options.optLevel;
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);

  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tilec");
  if (!llvmModule) {
    module.emitError("translation to LLVM IR failed");
    return nullptr;
  }
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(getDataLayout(machine));
  bool libdevice = firstLibdeviceCall(*llvmModule);
  if (failed(linkLibdevice(module, *llvmModule, options)))
    return nullptr;

  if (optLevel == 0 && !libdevice)
    return llvmModule;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  // The module holds one kernel and no calls: the inliner, IPSCCP and the
  // other module passes of the default pipeline find nothing to do and cost
  // a third of its time. The per-function simplification pipeline of the
  // same level is what changes the kernel.
  llvm::ModulePassManager passes;
  if (libdevice) {
    // The linked functions go into the kernel and away; __nvvm_reflect
    // calls become constants (NVPTX's `nvvm-reflect`).
    passes.addPass(llvm::AlwaysInlinerPass());
    passes.addPass(llvm::GlobalDCEPass());
    if (llvm::Error e = builder.parsePassPipeline(passes, "nvvm-reflect")) {
      module.emitError("NVPTX has no nvvm-reflect pass: ")
          << llvm::toString(std::move(e));
      return nullptr;
    }
  }
  if (optLevel == 0) {
    passes.run(*llvmModule, mam);
    return llvmModule;
  }
  passes.addPass(llvm::createModuleToFunctionPassAdaptor(
      builder.buildFunctionSimplificationPipeline(
          levels[std::min(optLevel, 3u)], llvm::ThinOrFullLTOPhase::None)));
  passes.run(*llvmModule, mam);
  for (llvm::Function &function : *llvmModule)
    sinkUnpacking(function);
  return llvmModule;
}

} // namespace

std::string tilec::findLibdevice() {
  auto exists = [](const std::string &path) {
    return !path.empty() && llvm::sys::fs::is_regular_file(path);
  };
  if (const char *env = std::getenv("TILEC_LIBDEVICE"))
    return exists(env) ? env : "";
  std::vector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *env = std::getenv(var))
      roots.push_back(env);
  roots.push_back(TILEC_CONFIGURED_CUDA_ROOT);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    if (root.empty())
      continue;
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (exists(std::string(path)))
      return std::string(path);
  }
  return "";
}

LogicalResult tilec::emitLLVMIR(ModuleOp module, const PTXOptions &options,
                                llvm::raw_ostream &os) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(module, options);
  if (!machine)
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateAndOptimize(module, *machine, options, llvmContext);
  if (!llvmModule)
    return failure();
  llvmModule->print(os, nullptr);
  return success();
}

LogicalResult tilec::emitPTX(ModuleOp module, const PTXOptions &options,
                             std::string &ptx) {
  std::unique_ptr<llvm::TargetMachine> machine =
      createTargetMachine(module, options);
  if (!machine)
    return failure();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateAndOptimize(module, *machine, options, llvmContext);
  if (!llvmModule)
    return failure();

  CodegenPassGate gate;
  llvmContext.setOptPassGate(gate);
  llvm::raw_string_ostream os(ptx);
  llvm::buffer_ostream bos(os);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, bos, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return module.emitError("the NVPTX backend cannot emit assembly");
  codegen.run(*llvmModule);
  return success();
}
