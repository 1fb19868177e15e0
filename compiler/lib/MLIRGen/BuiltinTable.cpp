//===- BuiltinTable.cpp - The tl.* builtins, declared once ----------------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The one table of the `tl.*` functions: for each, Triton's parameter names
// (which are also its keywords) and how many are required, whether it is a
// tile method too (`x.sum(0)`), and the Generator member that generates it.
// Calls, method lookup, the "not supported" diagnostic of other names and
// `tilec --list-builtins` (the index in docs/language.md) all read this
// table. Adding a builtin is one row
// here plus its generator.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/Libdevice.h"
#include "tilec/MLIRGen/MLIRGen.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;

namespace {

/// One `tl.*` function.
struct BuiltinSpec {
  enum Flags : unsigned {
    None = 0,
    /// Also a method of tiles: `x.NAME(...)` is `tl.NAME(x, ...)`.
    Method = 1,
    /// Positional arguments after the first are collected into
    /// BuiltinCall::varargs (`tl.reshape(x, 2, 8)`).
    Varargs = 2,
    /// The generator matches its own arguments (variadic or delegated).
    BindsItself = 4,
    /// Only a method (`x.to(...)`); `tl.NAME` does not exist.
    MethodOnly = 8,
  };
  llvm::StringLiteral name;
  FailureOr<TValue> (Generator::*generate)(BuiltinCall &);
  /// Triton's parameter names, comma-separated; the first `required` are
  /// mandatory.
  llvm::StringLiteral params;
  unsigned required;
  unsigned flags;
};

using G = Generator;
constexpr unsigned M = BuiltinSpec::Method, V = BuiltinSpec::Varargs,
                   S = BuiltinSpec::BindsItself,
                   MO = BuiltinSpec::Method | BuiltinSpec::MethodOnly;

// clang-format off
const BuiltinSpec Builtins[] = {
    // Programs and ranges.
    {"program_id", &G::builtinProgramId, "axis", 1, 0},
    {"num_programs", &G::builtinProgramId, "axis", 1, 0},
    {"arange", &G::builtinArange, "start,end", 2, 0},
    {"cdiv", &G::builtinCdiv, "x,div", 2, M},
    {"swizzle2d", &G::builtinSwizzle2d, "i,j,size_i,size_j,size_g", 5, 0},
    {"range", &G::builtinLoopIterable, "", 0, S},
    {"static_range", &G::builtinLoopIterable, "", 0, S},
    // Making and reshaping tiles.
    {"zeros", &G::builtinZeros, "shape,dtype", 2, 0},
    {"full", &G::builtinZeros, "shape,value,dtype", 3, 0},
    {"zeros_like", &G::builtinZerosLike, "input,dtype", 1, 0},
    {"full_like", &G::builtinZerosLike, "input,value,dtype", 2, 0},
    {"reshape", &G::builtinReshape, "input,can_reorder", 1, M | V},
    {"view", &G::builtinReshape, "input,can_reorder", 1, M | V},
    {"ravel", &G::builtinReshape, "input,can_reorder", 1, M},
    {"trans", &G::builtinTrans, "input,dims", 1, M | V},
    {"permute", &G::builtinTrans, "input,dims", 1, M | V},
    {"expand_dims", &G::builtinExpandDims, "input,axis", 2, M},
    {"broadcast_to", &G::builtinBroadcastTo, "input,shape", 1, M | V},
    {"broadcast", &G::builtinBroadcast, "input,other", 2, 0},
    {"join", &G::builtinJoin, "a,b", 2, 0},
    {"interleave", &G::builtinJoin, "a,b", 2, 0},
    {"split", &G::builtinSplit, "a", 1, M},
    {"flip", &G::builtinFlip, "x,dim", 1, M},
    {"cat", &G::builtinCat, "input,other,can_reorder", 2, 0},
    {"sort", &G::builtinSort, "x,dim,descending", 1, M},
    {"topk", &G::builtinTopk, "x,k,dim", 2, M},
    {"bitonic_merge", &G::builtinSort, "x,dim,descending", 1, M},
    {"gather", &G::builtinGather, "src,index,axis", 3, M},
    {"histogram", &G::builtinHistogram, "input,num_bins,mask", 2, M},
    // Memory.
    {"load", &G::builtinLoad, "pointer,mask,other,boundary_check,padding_option,cache_modifier,eviction_policy,volatile", 1, 0},
    {"store", &G::builtinStore, "pointer,value,mask,boundary_check,cache_modifier,eviction_policy", 2, M},
    {"atomic_add", &G::builtinAtomic, "pointer,val,mask,sem,scope", 2, M},
    {"atomic_max", &G::builtinAtomic, "pointer,val,mask,sem,scope", 2, M},
    {"atomic_min", &G::builtinAtomic, "pointer,val,mask,sem,scope", 2, M},
    {"atomic_xchg", &G::builtinAtomic, "pointer,val,mask,sem,scope", 2, M},
    {"atomic_and", &G::builtinAtomic, "pointer,val,mask,sem,scope", 2, M},
    {"atomic_or", &G::builtinAtomic, "pointer,val,mask,sem,scope", 2, M},
    {"atomic_xor", &G::builtinAtomic, "pointer,val,mask,sem,scope", 2, M},
    {"atomic_cas", &G::builtinAtomicCas, "pointer,cmp,val,sem,scope", 3, M},
    {"debug_barrier", &G::builtinDebugBarrier, "", 0, 0},
    {"extra.cuda.gdc_wait", &G::builtinGridDependency, "", 0, 0},
    {"extra.cuda.gdc_launch_dependents", &G::builtinGridDependency, "", 0, 0},
    {"device_print", &G::builtinDevicePrint, "prefix,hex", 1, V},
    {"device_assert", &G::builtinDeviceAssert, "cond,msg,mask", 1, 0},
    // Block pointers and tensor descriptors.
    {"make_block_ptr", &G::builtinMakeBlockPtr, "base,shape,strides,offsets,block_shape,order", 6, 0},
    {"advance", &G::builtinAdvance, "base,offsets", 2, M},
    {"make_tensor_descriptor", &G::builtinMakeTensorDescriptor, "base,shape,strides,block_shape,padding_option", 4, 0},
    {"load_tensor_descriptor", &G::builtinLoadTensorDescriptor, "", 0, S},
    {"store_tensor_descriptor", &G::builtinLoadTensorDescriptor, "", 0, S},
    // Selection, extrema and conversions.
    {"where", &G::builtinWhere, "condition,x,y", 3, 0},
    {"maximum", &G::builtinMaximum, "x,y,propagate_nan", 2, 0},
    {"minimum", &G::builtinMaximum, "x,y,propagate_nan", 2, 0},
    {"clamp", &G::builtinClamp, "x,min,max,propagate_nan", 3, 0},
    {"cast", &G::builtinCast, "input,dtype,fp_downcast_rounding,bitcast", 2, M},
    {"to_tensor", &G::builtinToTensor, "x", 1, 0},
    {"item", &G::builtinItem, "input", 1, MO},
    // Arithmetic as functions.
    {"add", &G::builtinArithmetic, "x,y,sanitize_overflow", 2, 0},
    {"sub", &G::builtinArithmetic, "x,y,sanitize_overflow", 2, 0},
    {"mul", &G::builtinArithmetic, "x,y,sanitize_overflow", 2, 0},
    {"to", &G::builtinCast, "input,dtype,fp_downcast_rounding,bitcast", 2, MO},
    // Math.
    {"exp", &G::builtinUnaryMath, "x", 1, M},
    {"exp2", &G::builtinUnaryMath, "x", 1, M},
    {"log", &G::builtinUnaryMath, "x", 1, M},
    {"log2", &G::builtinUnaryMath, "x", 1, M},
    {"sqrt", &G::builtinUnaryMath, "x", 1, M},
    {"sqrt_rn", &G::builtinUnaryMath, "x", 1, M},
    {"rsqrt", &G::builtinUnaryMath, "x", 1, M},
    {"sin", &G::builtinUnaryMath, "x", 1, M},
    {"cos", &G::builtinUnaryMath, "x", 1, M},
    {"floor", &G::builtinUnaryMath, "x", 1, M},
    {"ceil", &G::builtinUnaryMath, "x", 1, M},
    {"erf", &G::builtinUnaryMath, "x", 1, M},
    {"tanh", &G::builtinUnaryMath, "x", 1, 0},
    {"abs", &G::builtinAbs, "x", 1, M},
    {"sigmoid", &G::builtinSigmoid, "x", 1, M},
    {"fma", &G::builtinFma, "x,y,z", 3, 0},
    {"div_rn", &G::builtinDivRn, "x,y", 2, 0},
    {"fdiv", &G::builtinDivRn, "x,y,ieee_rounding", 2, 0},
    {"pow", &G::builtinPow, "x,y", 2, 0},
    {"softmax", &G::builtinSoftmax, "x,dim,keep_dims,ieee_rounding", 1, M},
    {"umulhi", &G::builtinUmulhi, "x,y", 2, 0},
    // Random numbers.
    {"philox", &G::builtinRandom, "seed,c0,c1,c2,c3,n_rounds", 5, 0},
    {"philox_impl", &G::builtinRandom, "c0,c1,c2,c3,k0,k1,n_rounds", 6, 0},
    {"randint", &G::builtinRandom, "seed,offset,n_rounds", 2, 0},
    {"randint4x", &G::builtinRandom, "seed,offset,n_rounds", 2, 0},
    {"rand", &G::builtinRandom, "seed,offset,n_rounds", 2, 0},
    {"rand4x", &G::builtinRandom, "seed,offsets,n_rounds", 2, 0},
    {"randn", &G::builtinRandom, "seed,offset,n_rounds", 2, 0},
    {"randn4x", &G::builtinRandom, "seed,offset,n_rounds", 2, 0},
    {"uint_to_uniform_float", &G::builtinRandom, "x", 1, 0},
    {"pair_uniform_to_normal", &G::builtinRandom, "u1,u2", 2, 0},
    // Reductions, scans and products.
    {"sum", &G::builtinSum, "input,axis,keep_dims,dtype", 1, M},
    {"max", &G::builtinMax, "input,axis,return_indices,return_indices_tie_break_left,keep_dims", 1, M},
    {"min", &G::builtinMax, "input,axis,return_indices,return_indices_tie_break_left,keep_dims", 1, M},
    {"argmax", &G::builtinArgmax, "input,axis,tie_break_left,keep_dims", 2, M},
    {"argmin", &G::builtinArgmax, "input,axis,tie_break_left,keep_dims", 2, M},
    {"cumsum", &G::builtinCumsum, "input,axis,reverse,dtype", 1, M},
    {"cumprod", &G::builtinCumsum, "input,axis,reverse", 1, M},
    {"reduce", &G::builtinCombine, "input,axis,combine_fn,keep_dims", 3, M},
    {"associative_scan", &G::builtinCombine, "input,axis,combine_fn,reverse", 3, M},
    {"xor_sum", &G::builtinBitwiseReduce, "input,axis,keep_dims", 1, M},
    {"reduce_or", &G::builtinBitwiseReduce, "input,axis,keep_dims", 2, M},
    {"dot", &G::builtinDot, "input,other,acc,input_precision,allow_tf32,max_num_imprecise_acc,out_dtype", 2, 0},
    {"dot_scaled", &G::builtinDotScaled, "lhs,lhs_scale,lhs_format,rhs,rhs_scale,rhs_format,acc,fast_math,lhs_k_pack,rhs_k_pack,out_dtype", 6, 0},
    // Compile-time helpers and hints.
    {"constexpr", &G::builtinConstexpr, "value", 1, 0},
    {"constexpr_function", &G::builtinConstexprFunction, "fn", 1, 0},
    {"get_int_dtype", &G::builtinGetIntDtype, "bitwidth,signed", 2, 0},
    {"static_assert", &G::builtinStaticAssert, "cond,msg", 1, 0},
    {"assume", &G::builtinAssume, "cond", 1, 0},
    {"static_print", &G::builtinStaticPrint, "", 0, S},
    {"_log2", &G::builtinStandardIntHelper, "i", 1, 0},
    {"_is_power_of_two", &G::builtinStandardIntHelper, "i", 1, 0},
    {"multiple_of", &G::builtinMultipleOf, "input,values", 2, 0},
    {"max_contiguous", &G::builtinMultipleOf, "input,values", 2, 0},
    {"max_constancy", &G::builtinMultipleOf, "input,values", 2, 0},
    {"pointer_type", &G::builtinPointerType, "element_ty,address_space,const", 1, 0},
    {"inline_asm_elementwise", &G::builtinInlineAsm, "asm,constraints,args,dtype,is_pure,pack", 6, 0},
    // Scalar functions over the elements of tiles.
    {"map_elementwise", &G::builtinMapElementwise, "scalar_fn,pack", 1, V},
};
// clang-format on

const BuiltinSpec *lookupBuiltin(llvm::StringRef name) {
  for (const BuiltinSpec &spec : Builtins)
    if (spec.name == name)
      return &spec;
  return nullptr;
}

} // namespace

std::vector<TValue> tilec::takeVarargs(CallArgs &args, size_t fixed) {
  std::vector<TValue> rest;
  if (args.positional.size() <= fixed)
    return rest;
  rest.assign(args.positional.begin() + fixed, args.positional.end());
  args.positional.resize(fixed);
  args.positionalRanges.resize(fixed);
  if (rest.size() == 1 && rest.front().kind == TValue::Kind::Tuple)
    return rest.front().elements;
  return rest;
}

FailureOr<TValue> Generator::callBuiltin(llvm::StringRef name, CallArgs &args,
                                         llvm::SMLoc callLoc, bool asMethod,
                                         llvm::StringRef spelled) {
  std::string qualified = "tl." + name.str();
  const BuiltinSpec *spec = lookupBuiltin(name);
  if (spec && (spec->flags & BuiltinSpec::MethodOnly) && !asMethod)
    spec = nullptr;
  if (!spec)
    return error(callLoc) << "'" << (spelled.empty() ? qualified : spelled)
                          << "' is not supported";
  // Messages name a method-only builtin as the method (`to`).
  if (spec->flags & BuiltinSpec::MethodOnly)
    qualified = name.str();
  BuiltinCall call{name,
                   qualified,
                   Binder(*this, qualified, args, callLoc),
                   loc(callLoc),
                   callLoc,
                   args,
                   {}};
  call.bind.function = call.qualified;
  if ((spec->flags & BuiltinSpec::Varargs) && args.positional.size() > 1)
    call.varargs = takeVarargs(args, 1);
  if (!(spec->flags & BuiltinSpec::BindsItself)) {
    SmallVector<llvm::StringRef> params;
    spec->params.split(params, ',', -1, /*KeepEmpty=*/false);
    if (failed(call.bind.bind(params, spec->required)))
      return failure();
  }
  return (this->*spec->generate)(call);
}

bool tilec::isBuiltin(llvm::StringRef name) {
  return lookupBuiltin(name) != nullptr;
}

bool tilec::isTileMethod(llvm::StringRef name) {
  const BuiltinSpec *spec = lookupBuiltin(name);
  return spec && (spec->flags & BuiltinSpec::Method);
}

void tilec::printBuiltinIndex(llvm::raw_ostream &os) {
  os << "| function | parameters | method |\n| --- | --- | --- |\n";
  std::vector<const BuiltinSpec *> sorted;
  for (const BuiltinSpec &spec : Builtins)
    sorted.push_back(&spec);
  llvm::sort(sorted, [](const BuiltinSpec *a, const BuiltinSpec *b) {
    return a->name < b->name;
  });
  for (const BuiltinSpec *spec : sorted) {
    // A method-only row is shown as the method, without its `self`.
    bool methodOnly = spec->flags & BuiltinSpec::MethodOnly;
    os << "| `" << (methodOnly ? "x." : "tl.") << spec->name << "` | ";
    if (spec->flags & BuiltinSpec::BindsItself) {
      os << "matched by the generator (§7)";
    } else if (spec->params.empty()) {
      os << "none";
    } else {
      SmallVector<llvm::StringRef> params;
      spec->params.split(params, ',');
      for (unsigned i = methodOnly; i < params.size(); ++i) {
        os << (i > unsigned(methodOnly) ? ", " : "") << "`" << params[i]
           << (i < spec->required ? "" : "=None") << "`";
        if (i == 0 && (spec->flags & BuiltinSpec::Varargs))
          os << ", `*args`";
      }
    }
    os << " | "
       << (methodOnly                            ? "only"
           : (spec->flags & BuiltinSpec::Method) ? "yes"
                                                 : "")
       << " |\n";
  }
  // The libdevice module (tilec/Dialect/Tile/IR/Libdevice.def).
  os << "\n| libdevice function | 32-bit form | 64-bit form |\n"
        "| --- | --- | --- |\n";
  struct Row {
    std::string name, fp32, fp64;
  };
  std::vector<Row> rows = {{"abs", "`tl.abs`", "`tl.abs`"}};
  auto symbol = [](llvm::StringRef s) {
    return s.empty() ? std::string("none") : "`" + s.str() + "`";
  };
  for (const tile::LibdeviceFunction &f : tile::getLibdeviceFunctions()) {
    if (!f.isPublic)
      continue;
    std::string fp32 = symbol(f.symbol32), fp64 = symbol(f.symbol64);
    // pow with an int32 exponent calls powi.
    if (f.name == "pow") {
      const tile::LibdeviceFunction *powi =
          tile::lookupLibdeviceFunction("powi");
      fp32 += ", `" + powi->symbol32.str() + "`";
      fp64 += ", `" + powi->symbol64.str() + "`";
    }
    rows.push_back({f.name.str(), fp32, fp64});
  }
  llvm::sort(rows, [](const Row &a, const Row &b) { return a.name < b.name; });
  for (const Row &row : rows)
    os << "| `libdevice." << row.name << "` | " << row.fp32 << " | " << row.fp64
       << " |\n";
}
