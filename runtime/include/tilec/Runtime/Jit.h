//===- Jit.h - Kernels compiled from source at run time ---------*- C++ -*-===//
//
// Part of tilec, a Triton-style tile-language compiler.
//
//===----------------------------------------------------------------------===//
//
// A JitKernel is a kernel of a .tile source that is compiled when it is
// launched, specialized on the arguments as Triton's JIT does:
//
//   tensor (TensorView)  -> "*<dtype>", with ":16" when its address is a
//                           multiple of 16
//   integer              -> "i32" when the value fits, else "i64" ("u64"
//                           above INT64_MAX), with ":1" when it equals 1 and
//                           ":16" when it is a multiple of 16
//   float / double       -> "fp32" / "fp64"
//   TensorDescriptor     -> "tensordesc<fp16[128, 64]>" (its dtype and block)
//
// Each specialization, with the constexprs, num_warps and the target, is
// compiled once: the PTX (and a cubin when ptxas was available) is kept in
// memory per device and on disk in a DiskCache (Cache.h) under a key made of
// all of that, the kernel's source text and this build's identity (tilec,
// LLVM and ptxas versions), so a second run of a program compiles nothing.
//
// The compiler itself is not part of the runtime (it needs LLVM): a
// KernelCompiler is passed in, and tilec::jit::createCompiler() of the
// tilec::jit library (tilec/JIT/Compiler.h) makes one. Without a compiler a
// JitKernel only loads from the disk cache, which lets a program built
// without LLVM run kernels compiled into the cache elsewhere.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_JIT_H
#define TILEC_RUNTIME_JIT_H

#include "tilec/Runtime/Autotune.h"
#include "tilec/Runtime/Cache.h"
#include "tilec/Runtime/FunctionRef.h"
#include "tilec/Runtime/Runtime.h"
#include "tilec/Runtime/Tensor.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace tilec {
namespace rt {

/// This build of tilec, as it enters cache keys: "tilec 0.1.0, LLVM 22.1.8,
/// ptxas V13.0.88".
const char *buildIdentity();

/// Constexpr bindings, num_warps and num_stages of one compilation.
struct JitConfig {
  /// NAME=VALUE bindings of constexpr parameters, VALUE as tilec's -D takes
  /// it (64, 1.5, True, tl.float16).
  std::vector<std::pair<std::string, std::string>> Constexprs;
  unsigned NumWarps = 4;
  /// The stages of a pipelined product loop's operand rings (tilec's
  /// --num-stages); part of the cache key.
  unsigned NumStages = 3;

  /// "BLOCK=1024,num_warps=4,num_stages=3", the name tuning files use.
  std::string name() const;
};

/// What a JitKernel asks its compiler for.
struct CompileRequest {
  std::string SourceName;
  std::string Source;
  std::string Kernel;
  /// The specialized signature, in Triton's grammar.
  std::string Signature;
  JitConfig Config;
  std::string Arch;
};

/// A compiled kernel: PTX that starts with its "// tilec.kernel" line, and a
/// cubin for the request's architecture (empty when none was made).
struct CompiledKernel {
  std::string Ptx;
  std::string Cubin;
  /// The files the source imported (`from .ext import f`), each with its
  /// contents as compiled: a disk-cache entry is used only while every one
  /// of them still reads the same (the cache key holds the source alone).
  std::vector<std::pair<std::string, std::string>> Imports;
};

/// What a kernel's @triton.autotune decorator says.
struct JitTuning {
  /// The configurations (none without @triton.autotune).
  std::vector<JitConfig> Configs;
  /// The run-time parameters, in launch order.
  std::vector<std::string> Params;
  /// `key=`: the parameters whose values select a configuration.
  std::vector<std::string> Key;
};

/// What a kernel's @triton.heuristics compute for one launch.
struct JitHeuristics {
  /// NAME=VALUE bindings of the constexprs they compute, VALUE as tilec's -D
  /// takes it.
  std::vector<std::pair<std::string, std::string>> Values;
  /// The positions (in launch order) of the run-time arguments whose values
  /// they read; empty when the values depend on the specialization only.
  std::vector<std::size_t> Reads;
};

class KernelCompiler {
public:
  virtual ~KernelCompiler();
  /// Compiles \p request; a failure's message holds the diagnostics.
  virtual Expected<CompiledKernel> compile(const CompileRequest &request) = 0;
  /// Reads the decorators of the kernel \p request names (its signature
  /// and configuration are not used). This default says it cannot.
  virtual Expected<JitTuning> readTuning(const CompileRequest &request);
  /// Evaluates the @triton.heuristics of \p request's kernel (its signature
  /// and configuration) for a launch whose run-time arguments have the
  /// values \p args (as -D spells them; empty for tensors), without
  /// compiling it. This default computes none.
  virtual Expected<JitHeuristics>
  evaluateHeuristics(const CompileRequest &request,
                     const std::vector<std::string> &args);
};

/// A launch argument of a JitKernel.
class JitArg {
public:
  /// A tensor: its element type and alignment enter the specialization.
  JitArg(const TensorView &view)
      : Value(view.data()), IsTensor(true), DType(view.dtype()),
        Shape(view.shape()), Strides(view.strides()) {}
  /// A tensor descriptor ("tensordesc<fp16[128, 64]>"); it must outlive the
  /// launch.
  JitArg(const TensorDescriptor &desc)
      : Value(desc), IsTensor(true), DType(desc.view().dtype()) {}
  /// A scalar; the same conversions as KernelArg.
  template <typename T,
            std::enable_if_t<
                std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, int> = 0>
  JitArg(T value) : Value(value) {}
  /// A pointer without an element type cannot be specialized.
  JitArg(const DeviceBuffer &) = delete;
  JitArg(DevicePtr) = delete;
  /// A tuple argument, as a kernel's Python tuple parameter takes it
  /// (`strides` in `x + i * strides[0]`): specialized element by element
  /// ("(i32:16, i32:1)"), launched as its elements in order.
  static JitArg tuple(std::vector<JitArg> elements);

  /// The scalar, tensor or descriptor (not a tuple).
  const KernelArg &value() const { return Value; }
  bool isTuple() const { return IsTuple; }
  /// Appends the kernel arguments this argument launches as: its value, or
  /// a tuple's elements' values, depth first.
  void appendValues(std::vector<KernelArg> &values) const;
  /// Appends this argument's signature entry ("*fp16:16", "i32:1", ...).
  void appendSpecialization(std::string &signature) const;
  /// The value of a scalar as -D spells it ("42", "0.5"), or a tensor's
  /// dtype, shape and strides ("tensor(fp16;4096,64;64,1)"), which
  /// @triton.heuristics may read; empty for tensor descriptors and for
  /// values -D cannot spell (non-finite floats, fp16/bf16).
  std::string valueText() const;

private:
  KernelArg Value;
  bool IsTensor = false;
  bool IsTuple = false;
  std::vector<JitArg> Elements;
  ScalarType DType = ScalarType::FP32;
  /// A TensorView's extents and strides (empty for descriptors).
  std::vector<std::int64_t> Shape, Strides;
};

/// How many kernels a JitKernel got from where.
struct JitStats {
  unsigned Compiled = 0;
  unsigned FromDisk = 0;
  unsigned FromMemory = 0;
};

class JitKernel {
public:
  /// The kernel \p kernel of \p source (named \p sourceName in messages).
  /// \p compiler may be null (cache only); it must outlive this object.
  JitKernel(std::string sourceName, std::string source, std::string kernel,
            KernelCompiler *compiler, DiskCache cache = DiskCache(),
            std::string arch = "sm_90a");
  /// Reads the source from \p path.
  static Expected<std::unique_ptr<JitKernel>>
  fromFile(const std::string &path, std::string kernel,
           KernelCompiler *compiler, DiskCache cache = DiskCache(),
           std::string arch = "sm_90a");
  ~JitKernel();

  /// Compiles (or finds) and loads the kernel specialized for \p args on
  /// \p ctx's device, without launching it (Triton's warmup).
  Expected<const Kernel *> prepare(const Context &ctx,
                                   std::initializer_list<JitArg> args,
                                   const JitConfig &config = {});
  Expected<const Kernel *> prepare(const Context &ctx, const JitArg *args,
                                   std::size_t numArgs,
                                   const JitConfig &config);

  /// Launches the specialization for \p args on \p grid, with \p options
  /// (programmatic dependent launch: Triton's `launch_pdl=True`).
  Status launch(const Context &ctx, Dim3 grid,
                std::initializer_list<JitArg> args,
                const JitConfig &config = {}, const Stream *stream = nullptr,
                const LaunchOptions &options = {});
  Status launch(const Context &ctx, Dim3 grid, const JitArg *args,
                std::size_t numArgs, const JitConfig &config,
                const Stream *stream, const LaunchOptions &options = {});

  /// Launches the configuration of \p configs that \p tuner (which must
  /// name the same configurations, in order) chooses for \p key, with the
  /// grid \p grid computes for it.
  Status launchTuned(const Context &ctx,
                     FunctionRef<Dim3(const JitConfig &)> grid,
                     std::initializer_list<JitArg> args,
                     const std::vector<JitConfig> &configs, Autotuner &tuner,
                     std::string_view key, const Stream *stream = nullptr,
                     const LaunchOptions &options = {});

  /// Launches the configuration of the kernel's @triton.autotune that a
  /// tuner keyed by the integer arguments its `key=` names chooses (timed
  /// on the first launch with a new key, recorded in the tuning file), with
  /// the grid \p grid computes for it. Needs a compiler (to read the
  /// decorators) the first time.
  Status launchAutotuned(const Context &ctx,
                         FunctionRef<Dim3(const JitConfig &)> grid,
                         std::initializer_list<JitArg> args,
                         const Stream *stream = nullptr,
                         const LaunchOptions &options = {});
  /// The kernel's @triton.autotune configurations, read once.
  Expected<const std::vector<JitConfig> *> autotuneConfigs();

  JitStats stats() const;
  const std::string &kernelName() const { return KernelName; }
  const DiskCache &cache() const { return Cache; }

private:
  struct Loaded;
  /// The decorators' configurations, key and tuner.
  struct Autotuned;
  Expected<Autotuned *> autotuned();
  Status launchTuned(const Context &ctx,
                     FunctionRef<Dim3(const JitConfig &)> grid,
                     const JitArg *args, std::size_t numArgs,
                     const std::vector<JitConfig> &configs, Autotuner &tuner,
                     std::string_view key, const Stream *stream,
                     const LaunchOptions &options);

  /// What the kernel's @triton.heuristics computed per specialization
  /// (signature and configuration), for the values of the arguments they
  /// read.
  struct HeuristicMemo {
    bool Evaluated = false;
    std::vector<std::size_t> Reads;
    std::map<std::string, std::vector<std::pair<std::string, std::string>>>
        Values;
  };
  /// \p config with the constexprs @triton.heuristics computes from the
  /// values of \p args added (none when they read no run-time value:
  /// those the compiler computes itself).
  Expected<JitConfig> withHeuristics(const std::string &signature,
                                     const JitConfig &config,
                                     const JitArg *args, std::size_t numArgs);

  /// The cache key of one specialization.
  std::string cacheKey(const std::string &signature,
                       const JitConfig &config) const;
  /// The kernel of one specialization from the disk cache (\p fromDisk),
  /// else compiled and stored; a corrupt entry is removed and rebuilt.
  Expected<CompiledKernel> compileOrLoad(const std::string &signature,
                                         const JitConfig &config,
                                         bool &fromDisk);

  std::string SourceName;
  std::string Source;
  std::string KernelName;
  KernelCompiler *Compiler;
  DiskCache Cache;
  std::string Arch;
  mutable std::mutex Lock;
  JitStats Stats;
  /// Loaded kernels by CUDA context and cache key.
  std::map<std::pair<void *, std::string>, std::unique_ptr<Loaded>> Kernels;
  std::unique_ptr<Autotuned> Tuning;
  std::map<std::string, HeuristicMemo> Heuristics;
};

} // namespace rt
} // namespace tilec

#endif // TILEC_RUNTIME_JIT_H
