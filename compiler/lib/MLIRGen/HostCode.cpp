//===- HostCode.cpp - The Python around kernels, at compile time ----------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// A .tile file is a Python module. Besides @triton.jit functions it holds
// the host code that configures them: `@triton.autotune(configs=[...],
// key=[...])` with its list of `triton.Config`s (often built by a
// comprehension in a module-level function), `@triton.heuristics({...})`
// with lambdas over the arguments. tilec runs that code when it compiles,
// with compile-time values only: dicts, lambdas, comprehensions, calls of
// module-level Python functions, the Python builtins such code uses, and the
// objects triton.Config, triton.autotune, triton.heuristics and the target
// triton.runtime.driver.active.get_current_target() describes.
//
// What the decorators of the kernel say becomes a KernelTuning: the
// configurations and key of @triton.autotune (which --emit=header and the
// JIT tune over), and the constexprs @triton.heuristics computes, which
// generate() binds once the other parameters are known.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TargetInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <regex>

using namespace mlir;
using namespace tilec;

/// The class of the value standing for a run-time argument in the `args`
/// dict @triton.heuristics functions get.
static constexpr llvm::StringLiteral kRuntimeArgument = "run-time argument";
/// A tensor argument as a heuristic sees it at a launch: its dtype, shape
/// and strides (the methods of torch.Tensor heuristics call).
static constexpr llvm::StringLiteral kTensor = "torch.Tensor";

/// The tensor a launch passed, described by the JIT as
/// "tensor(DTYPE;D0,D1,...;S0,S1,...)" (tilec::rt::JitArg::valueText), as an
/// Object of class torch.Tensor with `dtype`, `shape`, `ndim` and the
/// strides in `_strides`; nullopt when the text is not one.
static std::optional<TValue> parseTensorText(Generator &gen,
                                             llvm::StringRef text) {
  if (!text.consume_front("tensor(") || !text.consume_back(")"))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> parts;
  text.split(parts, ';');
  if (parts.size() != 3)
    return std::nullopt;
  std::optional<TValue> dtype = parseDefine(gen, parts[0]);
  if (!dtype || dtype->kind != TValue::Kind::DType)
    return std::nullopt;
  auto numbers =
      [](llvm::StringRef list) -> std::optional<std::vector<TValue>> {
    std::vector<TValue> values;
    if (list.empty())
      return values;
    llvm::SmallVector<llvm::StringRef, 4> items;
    list.split(items, ',');
    for (llvm::StringRef item : items) {
      int64_t n;
      if (item.getAsInteger(10, n))
        return std::nullopt;
      values.push_back(TValue::ofInt(n));
    }
    return values;
  };
  std::optional<std::vector<TValue>> shape = numbers(parts[1]);
  std::optional<std::vector<TValue>> strides = numbers(parts[2]);
  if (!shape || !strides || shape->size() != strides->size())
    return std::nullopt;
  int64_t rank = static_cast<int64_t>(shape->size());
  return TValue::ofObject(kTensor, {{"dtype", *dtype},
                                    {"shape", TValue::ofTuple(*shape)},
                                    {"ndim", TValue::ofInt(rank)},
                                    {"_strides", TValue::ofTuple(*strides)}});
}

/// The class of the match objects of Python's re (callPythonRegex): the
/// text of each group (None where a group did not take part) in `_groups`,
/// group 0 first, and where group 0 starts and ends in `_span`.
static constexpr llvm::StringLiteral kRegexMatch = "re.Match";

/// The class of a deferred module-level value (TValue::deferred).
static constexpr llvm::StringLiteral kDeferredValue = "deferred value";

/// The most elements a host-code list may have.
static constexpr size_t kMaxHostElements = 1 << 16;
/// The class of a host-side tensor descriptor parameter as a pre_hook sees
/// it (triton.tools.tensor_descriptor.TensorDescriptor).
static constexpr llvm::StringLiteral kHostDescriptor = "TensorDescriptor";

const TValue *TValue::lookup(llvm::StringRef name) const {
  for (auto [key, value] :
       llvm::zip(keys, mutableAttributes ? *mutableAttributes : elements))
    if (key.kind == Kind::String && key.s == name)
      return &value;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Dicts, lambdas, comprehensions
//===----------------------------------------------------------------------===//

/// Sets `dict[key] = value`, keeping the first position of a key.
static void setItem(TValue &dict, const TValue &key, const TValue &value) {
  auto it =
      llvm::find_if(dict.keys, [&](const TValue &k) { return k.sameAs(key); });
  if (it != dict.keys.end()) {
    dict.elements[it - dict.keys.begin()] = value;
    return;
  }
  dict.keys.push_back(key);
  dict.elements.push_back(value);
}

static TValue emptyDict() {
  TValue dict;
  dict.kind = TValue::Kind::Dict;
  return dict;
}

FailureOr<TValue> Generator::genDict(const DictExprAST &expr) {
  TValue dict = emptyDict();
  for (auto [keyExpr, valueExpr] :
       llvm::zip(expr.getKeys(), expr.getValues())) {
    FailureOr<TValue> key = genExpr(*keyExpr);
    if (failed(key))
      return failure();
    if (key->isValue())
      return error(keyExpr->getLoc())
             << "dict keys must be compile-time values, not "
             << key->describe();
    FailureOr<TValue> value = genExpr(*valueExpr);
    if (failed(value))
      return failure();
    setItem(dict, *key, *value);
  }
  return dict;
}

FailureOr<TValue> Generator::genLambda(const LambdaExprAST &expr) {
  TValue lambda;
  lambda.kind = TValue::Kind::Lambda;
  lambda.lambda = &expr;
  lambda.captured = std::make_shared<const std::map<std::string, TValue>>(
      scope ? scope->values : std::map<std::string, TValue>());
  lambda.source = current;
  return lambda;
}

FailureOr<TValue> Generator::callLambda(const TValue &lambda, CallArgs &args,
                                        llvm::SMLoc callLoc) {
  if (callDepth >= 64)
    return error(callLoc) << "calls nested too deeply (recursion is not "
                             "supported)";
  Scope locals;
  locals.values = *lambda.captured;
  if (failed(bindParams("lambda", lambda.lambda->getParams(), args, callLoc,
                        locals)))
    return failure();
  Scope *saved = scope;
  SourceModule *savedModule = current;
  scope = &locals;
  current = lambda.source ? lambda.source : current;
  ++callDepth;
  FailureOr<TValue> result = genExpr(lambda.lambda->getBody());
  --callDepth;
  scope = saved;
  current = savedModule;
  return result;
}

FailureOr<std::vector<TValue>> Generator::iterate(const TValue &v,
                                                  llvm::SMLoc l) {
  if (v.kind == TValue::Kind::Tuple)
    return v.elements;
  if (v.kind == TValue::Kind::Dict)
    return v.keys;
  return error(l) << "cannot iterate over " << v.describe()
                  << " at compile time";
}

FailureOr<TValue>
Generator::genComprehension(const ComprehensionExprAST &expr) {
  // The comprehension's variables are its own (Python 3): the scope is
  // restored afterwards.
  Scope *outer = scope;
  Scope inner;
  if (outer)
    inner = *outer;
  scope = &inner;
  ++comprehensionDepth;
  std::vector<TValue> results;
  const auto &clauses = expr.getClauses();
  std::function<LogicalResult(size_t)> run = [&](size_t i) -> LogicalResult {
    if (i == clauses.size()) {
      if (results.size() >= kMaxHostElements)
        return error(expr.getLoc()) << "a comprehension may make at most "
                                    << kMaxHostElements << " elements";
      FailureOr<TValue> element = genExpr(expr.getElement());
      if (failed(element))
        return failure();
      results.push_back(*element);
      return success();
    }
    const ComprehensionClause &clause = clauses[i];
    FailureOr<TValue> iterable = genExpr(*clause.iter);
    if (failed(iterable))
      return failure();
    FailureOr<std::vector<TValue>> items =
        iterate(*iterable, clause.iter->getLoc());
    if (failed(items))
      return failure();
    for (const TValue &item : *items) {
      if (failed(assign(*clause.target, item)))
        return failure();
      bool keep = true;
      for (const ExprPtr &cond : clause.conditions) {
        FailureOr<TValue> c = genExpr(*cond);
        if (failed(c))
          return failure();
        FailureOr<bool> truth = constTruth(*c, cond->getLoc());
        if (failed(truth))
          return failure();
        if (!(keep = *truth))
          break;
      }
      if (keep && failed(run(i + 1)))
        return failure();
    }
    return success();
  };
  LogicalResult result = run(0);
  --comprehensionDepth;
  scope = outer;
  if (failed(result))
    return failure();
  return TValue::ofTuple(std::move(results));
}

/// Calls `callee` (a lambda, a Python function or a builtin) on `values`.
static FailureOr<TValue> callWith(Generator &gen, const TValue &callee,
                                  std::vector<TValue> values,
                                  llvm::SMLoc callLoc) {
  CallArgs args;
  args.positional = std::move(values);
  args.positionalRanges.assign(args.positional.size(),
                               llvm::SMRange(callLoc, callLoc));
  switch (callee.kind) {
  case TValue::Kind::Lambda:
    return gen.callLambda(callee, args, callLoc);
  case TValue::Kind::Function:
    return gen.callFunction(*callee.function, args, callLoc);
  case TValue::Kind::Builtin:
    if (std::optional<FailureOr<TValue>> result =
            gen.callHostBuiltin(callee.s, args, callLoc))
      return *result;
    return gen.callPythonBuiltin(callee.s, args, callLoc);
  default:
    return gen.error(callLoc) << callee.describe() << " is not callable";
  }
}

//===----------------------------------------------------------------------===//
// Python builtins
//===----------------------------------------------------------------------===//

std::optional<FailureOr<TValue>>
Generator::callHostBuiltin(llvm::StringRef name, CallArgs &args,
                           llvm::SMLoc callLoc) {
  auto &a = args.positional;
  auto noKeywords = [&]() -> LogicalResult {
    if (args.keywords.empty())
      return success();
    return error(args.keywordRanges.front().Start)
           << "'" << name << "' takes no keyword arguments here";
  };
  if (name == "range") {
    // In host code and comprehensions, a range of constants is a list.
    if ((!hostDepth && !comprehensionDepth) || a.empty() || a.size() > 3 ||
        !args.keywords.empty() || !llvm::all_of(a, [](const TValue &v) {
          return v.kind == TValue::Kind::Int || v.kind == TValue::Kind::Bool;
        }))
      return std::nullopt;
    int64_t start = a.size() > 1 ? a[0].i : 0;
    int64_t end = a.size() > 1 ? a[1].i : a[0].i;
    int64_t step = a.size() > 2 ? a[2].i : 1;
    if (step == 0)
      return FailureOr<TValue>(error(callLoc) << "range() step is 0");
    std::vector<TValue> values;
    for (int64_t i = start; step > 0 ? i < end : i > end; i += step) {
      if (values.size() >= kMaxHostElements)
        return FailureOr<TValue>(error(callLoc)
                                 << "a compile-time range may have at most "
                                 << kMaxHostElements << " elements");
      values.push_back(TValue::ofInt(i));
    }
    return FailureOr<TValue>(TValue::ofTuple(std::move(values)));
  }
  if (name == "dict") {
    TValue dict = emptyDict();
    if (a.size() > 1)
      return FailureOr<TValue>(error(callLoc)
                               << "'dict' takes at most one positional "
                                  "argument");
    if (a.size() == 1) {
      if (a[0].kind == TValue::Kind::Dict) {
        dict = a[0];
      } else {
        FailureOr<std::vector<TValue>> items = iterate(a[0], callLoc);
        if (failed(items))
          return FailureOr<TValue>(failure());
        for (const TValue &item : *items) {
          if (item.kind != TValue::Kind::Tuple || item.elements.size() != 2)
            return FailureOr<TValue>(error(callLoc)
                                     << "'dict' needs (key, value) pairs");
          setItem(dict, item.elements[0], item.elements[1]);
        }
      }
    }
    for (auto &[key, value] : args.keywords)
      setItem(dict, TValue::named(TValue::Kind::String, key), value);
    return FailureOr<TValue>(dict);
  }
  if (name == "list" || name == "tuple") {
    if (failed(noKeywords()))
      return FailureOr<TValue>(failure());
    if (a.empty())
      return FailureOr<TValue>(TValue::ofTuple({}));
    if (a.size() > 1)
      return FailureOr<TValue>(error(callLoc)
                               << "'" << name << "' takes one argument");
    FailureOr<std::vector<TValue>> items = iterate(a[0], callLoc);
    if (failed(items))
      return FailureOr<TValue>(failure());
    return FailureOr<TValue>(TValue::ofTuple(std::move(*items)));
  }
  if (name == "map") {
    if (failed(noKeywords()))
      return FailureOr<TValue>(failure());
    if (a.size() != 2)
      return FailureOr<TValue>(error(callLoc)
                               << "'map' takes a function and a list");
    FailureOr<std::vector<TValue>> items = iterate(a[1], callLoc);
    if (failed(items))
      return FailureOr<TValue>(failure());
    std::vector<TValue> mapped;
    for (const TValue &item : *items) {
      FailureOr<TValue> r = callWith(*this, a[0], {item}, callLoc);
      if (failed(r))
        return FailureOr<TValue>(failure());
      mapped.push_back(*r);
    }
    return FailureOr<TValue>(TValue::ofTuple(std::move(mapped)));
  }
  if (name == "filter") {
    if (failed(noKeywords()))
      return FailureOr<TValue>(failure());
    if (a.size() != 2)
      return FailureOr<TValue>(error(callLoc)
                               << "'filter' takes a function and a list");
    FailureOr<std::vector<TValue>> items = iterate(a[1], callLoc);
    if (failed(items))
      return FailureOr<TValue>(failure());
    std::vector<TValue> kept;
    for (const TValue &item : *items) {
      TValue test = item;
      if (!a[0].isNone()) {
        FailureOr<TValue> r = callWith(*this, a[0], {item}, callLoc);
        if (failed(r))
          return FailureOr<TValue>(failure());
        test = *r;
      }
      FailureOr<bool> truth = constTruth(test, callLoc);
      if (failed(truth))
        return FailureOr<TValue>(failure());
      if (*truth)
        kept.push_back(item);
    }
    return FailureOr<TValue>(TValue::ofTuple(std::move(kept)));
  }
  if (name == "zip" || name == "enumerate" || name == "sum" || name == "any" ||
      name == "all") {
    if (failed(noKeywords()))
      return FailureOr<TValue>(failure());
    std::vector<std::vector<TValue>> lists;
    size_t numLists = name == "zip" ? a.size() : std::min<size_t>(a.size(), 1);
    for (size_t i = 0; i < numLists; ++i) {
      FailureOr<std::vector<TValue>> items = iterate(a[i], callLoc);
      if (failed(items))
        return FailureOr<TValue>(failure());
      lists.push_back(std::move(*items));
    }
    if (lists.empty() || (name != "zip" && a.size() > 2) ||
        ((name == "any" || name == "all") && a.size() != 1))
      return FailureOr<TValue>(error(callLoc)
                               << "'" << name << "' takes an iterable here");
    std::vector<TValue> &first = lists.front();
    if (name == "zip") {
      size_t n = first.size();
      for (const auto &list : lists)
        n = std::min(n, list.size());
      std::vector<TValue> tuples;
      for (size_t i = 0; i < n; ++i) {
        std::vector<TValue> tuple;
        for (const auto &list : lists)
          tuple.push_back(list[i]);
        tuples.push_back(TValue::ofTuple(std::move(tuple)));
      }
      return FailureOr<TValue>(TValue::ofTuple(std::move(tuples)));
    }
    if (name == "enumerate") {
      if (a.size() == 2 && a[1].kind != TValue::Kind::Int)
        return FailureOr<TValue>(error(callLoc)
                                 << "'enumerate' starts at an integer");
      int64_t start = a.size() == 2 ? a[1].i : 0;
      std::vector<TValue> pairs;
      for (auto [i, item] : llvm::enumerate(first))
        pairs.push_back(
            TValue::ofTuple({TValue::ofInt(start + int64_t(i)), item}));
      return FailureOr<TValue>(TValue::ofTuple(std::move(pairs)));
    }
    if (name == "sum") {
      TValue total = a.size() == 2 ? a[1] : TValue::ofInt(0);
      for (const TValue &item : first) {
        FailureOr<TValue> next = genBinary(BinaryOp::Add, total, item, callLoc);
        if (failed(next))
          return FailureOr<TValue>(failure());
        total = *next;
      }
      return FailureOr<TValue>(total);
    }
    bool isAll = name == "all";
    for (const TValue &item : first) {
      FailureOr<bool> truth = constTruth(item, callLoc);
      if (failed(truth))
        return FailureOr<TValue>(failure());
      if (*truth != isAll)
        return FailureOr<TValue>(TValue::ofBool(!isAll));
    }
    return FailureOr<TValue>(TValue::ofBool(isAll));
  }
  if ((name == "getattr" || name == "hasattr") && args.keywords.empty() &&
      a.size() >= 2 && a.size() <= (name == "getattr" ? 3u : 2u)) {
    // `getattr(props, "warp_size", 32)` on the objects host code models.
    if (a[1].kind != TValue::Kind::String)
      return FailureOr<TValue>(error(callLoc)
                               << "'" << name
                               << "' needs a string attribute name, not "
                               << a[1].describe());
    std::optional<TValue> found;
    if (a[0].kind == TValue::Kind::Module) {
      found = findModuleAttribute(a[0], a[1].s, callLoc);
    } else {
      withErrorsHeld([&] {
        FailureOr<TValue> v = hostAttribute(a[0], a[1].s, callLoc);
        if (succeeded(v))
          found = *v;
        return true;
      });
    }
    if (name == "hasattr")
      return FailureOr<TValue>(TValue::ofBool(found.has_value()));
    if (found)
      return FailureOr<TValue>(*found);
    if (a.size() == 3)
      return FailureOr<TValue>(a[2]);
    return FailureOr<TValue>(hostAttribute(a[0], a[1].s, callLoc));
  }
  if (name == "isinstance" && a.size() == 2 && args.keywords.empty()) {
    // The classes kernels and host code test for (`isinstance(desc,
    // tl.tensor_descriptor)` picks a helper's path at compile time).
    std::function<FailureOr<bool>(const TValue &)> test =
        [&](const TValue &cls) -> FailureOr<bool> {
      if (cls.kind == TValue::Kind::Tuple) {
        for (const TValue &c : cls.elements) {
          FailureOr<bool> r = test(c);
          if (failed(r) || *r)
            return r;
        }
        return false;
      }
      const TValue &v = a[0];
      if (cls.kind == TValue::Kind::Builtin) {
        llvm::StringRef c = cls.s;
        if (c == "tl.tensor")
          return v.isValue();
        if (c == "tl.tensor_descriptor")
          return v.kind == TValue::Kind::TensorDesc;
        if (c == "tl.constexpr")
          return !v.isValue();
        if (c == "int")
          return v.kind == TValue::Kind::Int || v.kind == TValue::Kind::Bool;
        if (c == "float")
          return v.kind == TValue::Kind::Float;
        if (c == "bool")
          return v.kind == TValue::Kind::Bool;
        if (c == "str")
          return v.kind == TValue::Kind::String;
        if (c == "tuple" || c == "list")
          return v.kind == TValue::Kind::Tuple;
        if (c == "dict")
          return v.kind == TValue::Kind::Dict;
        if (c == kVersionClass)
          return v.kind == TValue::Kind::Tuple && v.s == kVersionClass;
      }
      if (cls.kind == TValue::Kind::Module &&
          cls.s == "triton.tools.tensor_descriptor.TensorDescriptor")
        return v.kind == TValue::Kind::Object && v.s == kHostDescriptor;
      return error(args.positionalRanges[1].Start)
             << "isinstance against " << cls.describe()
             << " is not supported by tilec";
    };
    FailureOr<bool> result = test(a[1]);
    if (failed(result))
      return FailureOr<TValue>(failure());
    return FailureOr<TValue>(TValue::ofBool(*result));
  }
  if (name == "str" && a.size() == 1 && args.keywords.empty()) {
    std::optional<std::string> text = pythonStr(a[0]);
    if (!text)
      return FailureOr<TValue>(error(callLoc) << "'str' of " << a[0].describe()
                                              << " is not supported");
    return FailureOr<TValue>(TValue::named(TValue::Kind::String, *text));
  }
  return std::nullopt;
}

std::optional<std::string> tilec::pythonStr(const TValue &v) {
  switch (v.kind) {
  case TValue::Kind::String:
    return v.s;
  case TValue::Kind::Int:
    return std::to_string(v.i);
  case TValue::Kind::Bool:
    return std::string(v.i ? "True" : "False");
  case TValue::Kind::None:
    return std::string("None");
  case TValue::Kind::Float: {
    if (std::isnan(v.f))
      return std::string("nan");
    if (std::isinf(v.f))
      return std::string(v.f < 0 ? "-inf" : "inf");
    // Python's repr: the fewest significant digits that read back the same
    // double, in fixed notation for exponents from -4 to 15.
    char buffer[64];
    int digits = 1;
    for (; digits < 17; ++digits) {
      std::snprintf(buffer, sizeof(buffer), "%.*e", digits - 1, v.f);
      if (std::strtod(buffer, nullptr) == v.f)
        break;
    }
    int exponent = v.f == 0 ? 0 : int(std::floor(std::log10(std::fabs(v.f))));
    if (exponent < -4 || exponent >= 16) {
      std::snprintf(buffer, sizeof(buffer), "%.*e", digits - 1, v.f);
      return std::string(buffer);
    }
    std::snprintf(buffer, sizeof(buffer), "%.*f",
                  std::max(digits - 1 - exponent, 0), v.f);
    std::string text = buffer;
    if (text.find('.') == std::string::npos)
      text += ".0";
    return text;
  }
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// triton.Config, triton.autotune, triton.heuristics, the target
//===----------------------------------------------------------------------===//

std::optional<std::string> tilec::defineText(const TValue &v) {
  switch (v.kind) {
  case TValue::Kind::Int:
    return std::to_string(v.i);
  case TValue::Kind::Bool:
    return std::string(v.i ? "True" : "False");
  case TValue::Kind::Float: {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.17g", v.f);
    std::string text = buffer;
    if (text.find_first_of(".eEn") == std::string::npos)
      text += ".0";
    return text;
  }
  case TValue::Kind::String:
    return "'" + v.s + "'";
  case TValue::Kind::DType:
    return typeName(v.type, v.isUnsigned);
  case TValue::Kind::None:
    return std::string("None");
  default:
    return std::nullopt;
  }
}

llvm::ArrayRef<llvm::StringRef>
tilec::tritonHostParameters(llvm::StringRef name) {
  static const llvm::StringRef config[] = {
      "kwargs",  "num_warps", "num_stages", "num_ctas",
      "maxnreg", "pre_hook",  "ir_override"};
  static const llvm::StringRef autotune[] = {
      "configs",        "key",           "prune_configs_by",
      "reset_to_zero",  "restore_value", "pre_hook",
      "post_hook",      "warmup",        "rep",
      "use_cuda_graph", "do_bench",      "cache_results"};
  static const llvm::StringRef heuristics[] = {"values"};
  if (name == "Config")
    return config;
  if (name == "autotune")
    return autotune;
  if (name == "heuristics")
    return heuristics;
  return {};
}

FailureOr<TValue> Generator::callTritonHost(llvm::StringRef name,
                                            CallArgs &args,
                                            llvm::SMLoc callLoc) {
  if (name == "runtime.driver.active.get_current_target") {
    if (!args.positional.empty() || !args.keywords.empty())
      return error(callLoc) << "get_current_target() takes no arguments";
    std::optional<tile::TargetInfo> info = tile::TargetInfo::lookup(target);
    int64_t arch = info ? info->getComputeCapability() : 0;
    return TValue::ofObject(
        "GPUTarget", {{"backend", TValue::named(TValue::Kind::String, "cuda")},
                      {"arch", TValue::ofInt(arch)},
                      {"warp_size", TValue::ofInt(32)}});
  }
  if (!hostDepth)
    return error(callLoc) << "'triton." << name
                          << "' cannot be called in a kernel";
  std::string function = "triton." + name.str();
  Binder bind(*this, function, args, callLoc);
  if (name == "Config") {
    if (failed(bind.bind(tritonHostParameters(name), 1)))
      return failure();
    const TValue &kwargs = bind.get(0);
    if (kwargs.kind != TValue::Kind::Dict)
      return error(bind.locs[0]) << "the kwargs of triton.Config must be a "
                                    "dict, not "
                                 << kwargs.describe();
    for (auto [key, value] : llvm::zip(kwargs.keys, kwargs.elements)) {
      if (key.kind != TValue::Kind::String)
        return error(bind.locs[0])
               << "the keys of triton.Config's kwargs must be names, not "
               << key.describe();
      if (!defineText(value))
        return error(bind.locs[0])
               << "'" << key.s << "' of triton.Config must be a number, a "
               << "string or a dtype, not " << value.describe();
    }
    auto unsignedArg = [&](unsigned i, int64_t dflt,
                           llvm::StringRef what) -> FailureOr<TValue> {
      if (!bind.has(i))
        return TValue::ofInt(dflt);
      const TValue &v = bind.get(i);
      if (v.kind != TValue::Kind::Int || v.i < 0)
        return error(bind.locs[i])
               << "'" << what << "' of triton.Config must "
               << "be a non-negative integer, not " << v.describe();
      return v;
    };
    FailureOr<TValue> warps = unsignedArg(1, 4, "num_warps");
    FailureOr<TValue> stages = unsignedArg(2, 3, "num_stages");
    FailureOr<TValue> ctas = unsignedArg(3, 1, "num_ctas");
    if (failed(warps) || failed(stages) || failed(ctas))
      return failure();
    if (warps->i == 0 || warps->i > 32 || (warps->i & (warps->i - 1)))
      return error(bind.locs[1])
             << "num_warps must be a power of two from 1 to 32, not "
             << warps->i;
    if (ctas->i != 1)
      return error(bind.locs[3]) << "num_ctas=" << ctas->i
                                 << " is not supported by tilec (one CTA a "
                                    "program)";
    if (bind.has(4))
      warning(bind.locs[4], "tilec ignores maxnreg (ptxas chooses the "
                            "registers)");
    if (bind.has(6))
      return error(bind.locs[6]) << "ir_override is not supported by tilec";
    return TValue::ofObject(
        "triton.Config", {{"kwargs", kwargs},
                          {"num_warps", *warps},
                          {"num_stages", *stages},
                          {"num_ctas", *ctas},
                          {"maxnreg", bind.has(4) ? bind.get(4) : TValue()},
                          {"pre_hook", bind.has(5) ? bind.get(5) : TValue()}});
  }
  if (name == "autotune") {
    if (failed(bind.bind(tritonHostParameters(name), 2)))
      return failure();
    FailureOr<std::vector<TValue>> configs = iterate(bind.get(0), bind.locs[0]);
    if (failed(configs))
      return failure();
    if (configs->empty())
      return error(bind.locs[0]) << "@triton.autotune needs at least one "
                                    "configuration";
    for (const TValue &c : *configs)
      if (c.kind != TValue::Kind::Object || c.s != "triton.Config")
        return error(bind.locs[0]) << "the configs of @triton.autotune must "
                                      "be triton.Config objects, not "
                                   << c.describe();
    FailureOr<std::vector<TValue>> key = iterate(bind.get(1), bind.locs[1]);
    if (failed(key))
      return failure();
    for (const TValue &k : *key)
      if (k.kind != TValue::Kind::String)
        return error(bind.locs[1]) << "the key of @triton.autotune lists "
                                      "parameter names, not "
                                   << k.describe();
    // What tilec's tuner does not do is said once, at the keyword.
    static const struct {
      unsigned index;
      const char *text;
    } ignored[] = {
        {2, "tilec times every configuration: prune_configs_by is ignored"},
        {3, "tilec's tuner does not zero arguments between timing runs: "
            "reset_to_zero is ignored"},
        {4, "tilec's tuner does not restore arguments after timing runs: "
            "restore_value is ignored"},
        {5, "tilec runs no host code at launch: the pre_hook is ignored"},
        {6, "tilec runs no host code at launch: the post_hook is ignored"},
    };
    for (const auto &entry : ignored)
      if (bind.has(entry.index))
        warning(bind.locs[entry.index], entry.text);
    return TValue::ofObject("triton.autotune",
                            {{"configs", TValue::ofTuple(*configs)},
                             {"key", TValue::ofTuple(*key)}});
  }
  if (name == "heuristics") {
    if (failed(bind.bind(tritonHostParameters(name), 1)))
      return failure();
    const TValue &values = bind.get(0);
    if (values.kind != TValue::Kind::Dict)
      return error(bind.locs[0]) << "@triton.heuristics takes a dict of "
                                    "functions, not "
                                 << values.describe();
    for (auto [key, fn] : llvm::zip(values.keys, values.elements)) {
      if (key.kind != TValue::Kind::String)
        return error(bind.locs[0]) << "the keys of @triton.heuristics must "
                                      "be parameter names, not "
                                   << key.describe();
      if (fn.kind != TValue::Kind::Lambda && fn.kind != TValue::Kind::Function)
        return error(bind.locs[0])
               << "@triton.heuristics computes '" << key.s
               << "' with a function or lambda, not " << fn.describe();
    }
    return TValue::ofObject("triton.heuristics", {{"values", values}});
  }
  return error(callLoc) << "'" << function << "' cannot be called here";
}

FailureOr<TValue> Generator::callObject(const TValue &object, CallArgs &args,
                                        llvm::SMLoc callLoc) {
  bool isDecorator =
      object.s == "triton.autotune" || object.s == "triton.heuristics";
  if (!isDecorator)
    return error(callLoc) << object.describe() << " is not callable";
  if (args.positional.size() != 1 || !args.keywords.empty() ||
      args.positional[0].kind != TValue::Kind::Function)
    return error(callLoc) << "@" << object.s << " decorates a function";
  const FunctionDefAST *fn = args.positional[0].function;
  if (!jitted.contains(fn))
    return error(callLoc) << "@" << object.s << " must decorate a "
                          << "@triton.jit function ('" << fn->getName()
                          << "' is not one)";
  decorations[fn].push_back(object);
  return args.positional[0];
}

FailureOr<TValue> Generator::hostAttribute(const TValue &base,
                                           llvm::StringRef attr,
                                           llvm::SMLoc l) {
  if (base.kind == TValue::Kind::Object) {
    if (const TValue *value = base.lookup(attr))
      return *value;
    if ((base.s == "triton.Config" && attr == "all_kwargs") ||
        (base.s == kTensor &&
         llvm::is_contained({"stride", "size", "numel", "dim", "element_size",
                             "is_contiguous"},
                            attr)) ||
        (base.s == kModuleLoader && attr == "exec_module") ||
        (base.s == "GPUTarget" &&
         (attr == "is_cuda_backend" || attr == "is_hip_backend")) ||
        (base.s == kRegexMatch &&
         llvm::is_contained({"group", "groups", "start", "end", "span"},
                            attr))) {
      TValue method = TValue::named(TValue::Kind::Method, attr);
      method.elements.push_back(base);
      return method;
    }
  }
  if ((base.kind == TValue::Kind::Dict &&
       llvm::is_contained({"items", "keys", "values", "get", "copy"}, attr)) ||
      (base.kind == TValue::Kind::String &&
       llvm::is_contained({"lower", "upper", "strip", "lstrip", "rstrip",
                           "startswith", "endswith", "replace", "split",
                           "format", "join"},
                          attr))) {
    TValue method = TValue::named(TValue::Kind::Method, attr);
    method.elements.push_back(base);
    return method;
  }
  auto diag = error(l) << base.describe() << " has no attribute '" << attr
                       << "'";
  if (base.kind == TValue::Kind::Tuple &&
      llvm::is_contained({"append", "extend", "insert", "pop"}, attr))
    diag << " (tilec's lists are values: build them with a comprehension "
            "or '+')";
  return diag;
}

/// `text.name(...)` for the str methods host code uses on configuration
/// strings (`os.environ.get("K", "1").lower() in ("0", "false")`).
FailureOr<TValue> Generator::callStringMethod(llvm::StringRef text,
                                              llvm::StringRef name,
                                              Binder &bind,
                                              llvm::SMLoc callLoc) {
  auto str = [](llvm::StringRef s) {
    return TValue::named(TValue::Kind::String, s);
  };
  auto stringArg = [&](unsigned i) -> FailureOr<llvm::StringRef> {
    const TValue &v = bind.get(i);
    if (v.kind != TValue::Kind::String)
      return error(callLoc)
             << "str." << name << " expects a string, not " << v.describe();
    return llvm::StringRef(v.s);
  };
  if (name == "startswith" || name == "endswith") {
    if (failed(bind.bind({"prefix"}, 1)))
      return failure();
    // A tuple of strings matches if one does.
    std::vector<TValue> options = bind.get(0).kind == TValue::Kind::Tuple
                                      ? bind.get(0).elements
                                      : std::vector<TValue>{bind.get(0)};
    for (const TValue &option : options) {
      if (option.kind != TValue::Kind::String)
        return error(callLoc) << "str." << name << " expects strings, not "
                              << option.describe();
      if (name == "startswith" ? text.starts_with(option.s)
                               : text.ends_with(option.s))
        return TValue::ofBool(true);
    }
    return TValue::ofBool(false);
  }
  if (name == "format") {
    // `"{a} {0} {}".format(x, a=y)`: replacement fields by position, number
    // or keyword, `{{`/`}}` for braces; no conversions or format specs.
    std::string out;
    unsigned next = 0;
    bool numbered = false;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
        out += c;
        ++i;
        continue;
      }
      if (c == '}')
        return error(callLoc) << "str.format: single '}' in the format string";
      if (c != '{') {
        out += c;
        continue;
      }
      size_t close = text.find('}', i);
      if (close == llvm::StringRef::npos)
        return error(callLoc) << "str.format: '{' without '}'";
      llvm::StringRef field = text.slice(i + 1, close);
      if (field.find_first_of("!:[.") != llvm::StringRef::npos)
        return error(callLoc) << "str.format: the field '{" << field
                              << "}' is not supported by tilec (only "
                                 "positions, numbers and names)";
      const TValue *value = nullptr;
      unsigned index;
      if (field.empty() || !field.getAsInteger(10, index)) {
        if ((field.empty() && numbered) || (!field.empty() && next))
          return error(callLoc) << "str.format: cannot switch between "
                                   "automatic field numbering and numbered "
                                   "fields";
        numbered |= !field.empty();
        if (field.empty())
          index = next++;
        if (index >= bind.args.positional.size())
          return error(callLoc)
                 << "str.format: no positional argument " << index;
        value = &bind.args.positional[index];
      } else {
        for (const auto &[key, v] : bind.args.keywords)
          if (key == field)
            value = &v;
        if (!value)
          return error(callLoc) << "str.format: no argument '" << field << "'";
      }
      std::optional<std::string> piece = pythonStr(*value);
      if (!piece)
        return error(callLoc)
               << "str.format of " << value->describe() << " is not supported";
      out += *piece;
      i = close;
    }
    return str(out);
  }
  if (name == "join") {
    if (failed(bind.bind({"iterable"}, 1)))
      return failure();
    if (bind.get(0).kind != TValue::Kind::Tuple)
      return error(callLoc) << "str.join expects a list of strings, not "
                            << bind.get(0).describe();
    std::string out;
    for (auto [i, piece] : llvm::enumerate(bind.get(0).elements)) {
      if (piece.kind != TValue::Kind::String)
        return error(callLoc)
               << "str.join expects strings, not " << piece.describe();
      out += (i ? text.str() : "") + piece.s;
    }
    return str(out);
  }
  if (name == "replace") {
    if (failed(bind.bind({"old", "new"}, 2)))
      return failure();
    FailureOr<llvm::StringRef> from = stringArg(0), to = stringArg(1);
    if (failed(from) || failed(to))
      return failure();
    if (from->empty())
      return error(callLoc) << "str.replace with an empty string to replace "
                               "is not supported by tilec";
    std::string result;
    llvm::StringRef rest = text;
    for (size_t at; (at = rest.find(*from)) != llvm::StringRef::npos;
         rest = rest.drop_front(at + from->size()))
      result += (rest.take_front(at) + *to).str();
    return str(result + rest.str());
  }
  if (name == "split") {
    if (failed(bind.bind({"sep"}, 0)))
      return failure();
    llvm::SmallVector<llvm::StringRef> parts;
    if (!bind.has(0) || bind.get(0).kind == TValue::Kind::None) {
      llvm::SplitString(text, parts);
    } else {
      FailureOr<llvm::StringRef> sep = stringArg(0);
      if (failed(sep))
        return failure();
      if (sep->empty())
        return error(callLoc) << "str.split: empty separator";
      text.split(parts, *sep);
    }
    std::vector<TValue> elements;
    for (llvm::StringRef part : parts)
      elements.push_back(str(part));
    return TValue::ofTuple(std::move(elements));
  }
  if (name == "strip" || name == "lstrip" || name == "rstrip") {
    // chars=None strips whitespace, as Python's.
    if (failed(bind.bind({"chars"}, 0)))
      return failure();
    llvm::StringRef chars = " \t\n\v\f\r";
    if (bind.has(0)) {
      FailureOr<llvm::StringRef> given = stringArg(0);
      if (failed(given))
        return failure();
      chars = *given;
    }
    if (name == "strip")
      return str(text.trim(chars));
    if (name == "lstrip")
      return str(text.ltrim(chars));
    return str(text.rtrim(chars));
  }
  if (failed(bind.bind({}, 0)))
    return failure();
  if (name == "lower")
    return str(text.lower());
  return str(text.upper());
}

FailureOr<TValue> Generator::callTensorMethod(const TValue &tensor,
                                              llvm::StringRef name,
                                              Binder &bind,
                                              llvm::SMLoc callLoc) {
  const std::vector<TValue> &shape = tensor.lookup("shape")->elements;
  const std::vector<TValue> &strides = tensor.lookup("_strides")->elements;
  int64_t rank = static_cast<int64_t>(shape.size());
  if (name == "stride" || name == "size") {
    if (failed(bind.bind({"dim"}, 0)))
      return failure();
    const std::vector<TValue> &values = name == "stride" ? strides : shape;
    if (!bind.has(0))
      return TValue::ofTuple(values);
    FailureOr<int64_t> dim = bind.constInt(0);
    if (failed(dim))
      return failure();
    if (*dim < -rank || *dim >= rank)
      return error(callLoc) << "dimension " << *dim << " of a tensor of "
                            << rank << " dimensions";
    return values[*dim < 0 ? *dim + rank : *dim];
  }
  if (failed(bind.bind({}, 0)))
    return failure();
  if (name == "dim")
    return TValue::ofInt(rank);
  if (name == "numel") {
    int64_t count = 1;
    for (const TValue &extent : shape)
      count *= extent.i;
    return TValue::ofInt(count);
  }
  if (name == "element_size") {
    mlir::Type type = tensor.lookup("dtype")->type;
    return TValue::ofInt(llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
  }
  // is_contiguous: row-major strides (extents of 1 take any stride).
  int64_t expected = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    if (shape[d].i != 1 && strides[d].i != expected)
      return TValue::ofBool(false);
    expected *= shape[d].i;
  }
  return TValue::ofBool(true);
}

FailureOr<TValue> Generator::callHostMethod(const TValue &method,
                                            CallArgs &args,
                                            llvm::SMLoc callLoc) {
  const TValue &self = method.elements[0];
  llvm::StringRef name = method.s;
  Binder bind(*this, name, args, callLoc);
  if (self.kind == TValue::Kind::String)
    return callStringMethod(self.s, name, bind, callLoc);
  if (name == "get") {
    if (failed(bind.bind({"key", "default"}, 1)))
      return failure();
    for (auto [key, value] : llvm::zip(self.keys, self.elements))
      if (key.sameAs(bind.get(0)))
        return value;
    return bind.has(1) ? bind.get(1) : TValue();
  }
  if (self.kind == TValue::Kind::Object && self.s == kTensor)
    return callTensorMethod(self, name, bind, callLoc);
  if (self.kind == TValue::Kind::Object && self.s == kRegexMatch) {
    const std::vector<TValue> &groups = self.lookup("_groups")->elements;
    const std::vector<TValue> &span = self.lookup("_span")->elements;
    if (name == "groups") {
      // The groups after group 0, `default` where one did not take part.
      if (failed(bind.bind({"default"}, 0)))
        return failure();
      std::vector<TValue> rest;
      for (const TValue &g : llvm::drop_begin(groups))
        rest.push_back(g.isNone() && bind.has(0) ? bind.get(0) : g);
      return TValue::ofTuple(std::move(rest));
    }
    if (name == "group") {
      // m.group(), m.group(1), m.group(1, 2).
      if (!args.keywords.empty())
        return error(callLoc) << "'group' takes no keyword arguments";
      std::vector<TValue> picked;
      for (const TValue &index : args.positional) {
        if (index.kind != TValue::Kind::Int || index.i < 0 ||
            index.i >= int64_t(groups.size()))
          return error(callLoc) << "no such group: " << index.describe();
        picked.push_back(groups[index.i]);
      }
      if (picked.empty())
        return groups[0];
      if (picked.size() == 1)
        return picked[0];
      return TValue::ofTuple(std::move(picked));
    }
    if (failed(bind.bind({}, 0)))
      return failure();
    if (name == "start")
      return span[0];
    if (name == "end")
      return span[1];
    return TValue::ofTuple(span);
  }
  if (name == "exec_module") {
    // tilec's modules need no loading.
    if (failed(bind.bind({"module"}, 1)))
      return failure();
    return TValue();
  }
  if (failed(bind.bind({}, 0)))
    return failure();
  if (name == "keys")
    return TValue::ofTuple(self.keys);
  if (name == "values")
    return TValue::ofTuple(self.elements);
  if (name == "copy")
    return self;
  if (name == "items") {
    std::vector<TValue> pairs;
    for (auto [key, value] : llvm::zip(self.keys, self.elements))
      pairs.push_back(TValue::ofTuple({key, value}));
    return TValue::ofTuple(std::move(pairs));
  }
  if (name == "is_cuda_backend" || name == "is_hip_backend")
    return TValue::ofBool(name == "is_cuda_backend");
  // triton.Config.all_kwargs(): the constexprs and the launch options.
  TValue all = *self.lookup("kwargs");
  for (llvm::StringRef option : {"num_warps", "num_stages", "num_ctas"})
    setItem(all, TValue::named(TValue::Kind::String, option),
            *self.lookup(option));
  return all;
}

bool Generator::isRuntimeArgument(const TValue &v) {
  return v.kind == TValue::Kind::Object && v.s == kRuntimeArgument;
}

FailureOr<TValue> Generator::dictItem(const TValue &dict, const TValue &key,
                                      llvm::SMLoc l) {
  for (auto [k, value] : llvm::zip(dict.keys, dict.elements)) {
    if (!k.sameAs(key))
      continue;
    if (isRuntimeArgument(value) && readingIdentity)
      return value;
    if (isRuntimeArgument(value)) {
      // Its value at the launch the heuristics are evaluated for.
      if (const TValue *known = value.lookup("value")) {
        heuristicReads.insert(key.s);
        return *known;
      }
      if (value.lookup("tensor"))
        return error(l) << "heuristics read the launch values of integer "
                        << "and float scalars and of tensors, and '" << key.s
                        << "' is not one (a tensor descriptor, or an "
                           "fp16/bf16 or non-finite value)";
      auto diag = error(l) << "'" << key.s << "' is a run-time argument, "
                           << "whose value tilec does not know when it "
                              "compiles";
      if (!heuristicName.empty())
        diag << ": give '" << heuristicName << "' with -D " << heuristicName
             << "=VALUE";
      return diag;
    }
    return value;
  }
  auto diag = error(l) << "key "
                       << (key.kind == TValue::Kind::String ? "'" + key.s + "'"
                                                            : key.describe())
                       << " is not in the dict";
  // A heuristic reading a constexpr the caller's launch passes: -D gives
  // the heuristic's result instead.
  if (!heuristicName.empty())
    diag << " (a heuristic's args hold the kernel's arguments and the "
            "constexprs -D gives); give '"
         << heuristicName << "' with -D " << heuristicName << "=VALUE";
  return diag;
}

//===----------------------------------------------------------------------===//
// Module-level values
//===----------------------------------------------------------------------===//

TValue Generator::moduleValue(const ExprAST &expr) {
  std::optional<TValue> computed;
  withErrorsHeld([&] {
    FailureOr<TValue> value = genExpr(expr);
    if (succeeded(value) && !value->isValue())
      computed = *value;
    return true;
  });
  if (computed)
    return *computed;
  return deferredValue(expr);
}

TValue Generator::deferredValue(const ExprAST &expr) const {
  TValue deferred = TValue::named(TValue::Kind::Object, kDeferredValue);
  deferred.deferred = &expr;
  deferred.source = current;
  return deferred;
}

TValue Generator::hostStatementValue(const StmtAST &stmt) const {
  TValue skipped = TValue::named(TValue::Kind::Object, kDeferredValue);
  skipped.hostStatement = &stmt;
  skipped.source = current;
  return skipped;
}

/// The names `global` statements of `body` declare, nested blocks included.
static void collectGlobalNames(const StmtList &body,
                               std::vector<std::string> &names) {
  for (const StmtPtr &stmt : body) {
    if (auto *other = llvm::dyn_cast<UnsupportedStmtAST>(stmt.get())) {
      if (other->getKeyword() == "global")
        llvm::append_range(names, other->getDeclaredNames());
      for (const UnsupportedClause &clause : other->getClauses())
        collectGlobalNames(clause.body, names);
    } else if (auto *ifStmt = llvm::dyn_cast<IfStmtAST>(stmt.get())) {
      collectGlobalNames(ifStmt->getThen(), names);
      collectGlobalNames(ifStmt->getElse(), names);
    } else if (auto *loop = llvm::dyn_cast<ForStmtAST>(stmt.get())) {
      collectGlobalNames(loop->getBody(), names);
    } else if (auto *loop = llvm::dyn_cast<WhileStmtAST>(stmt.get())) {
      collectGlobalNames(loop->getBody(), names);
    }
  }
}

bool Generator::runModuleCall(const ExprStmtAST &stmt) {
  auto *call = llvm::dyn_cast<CallExprAST>(&stmt.getValue());
  if (!call)
    return false;
  HostCode host(*this);
  std::optional<TValue> callee;
  withErrorsHeld([&] {
    FailureOr<TValue> value = genExpr(call->getCallee());
    if (succeeded(value))
      callee = *value;
    return true;
  });
  if (!callee || callee->kind != TValue::Kind::Function ||
      jitted.contains(callee->function))
    return false;
  bool ran = withErrorsHeld([&] { return succeeded(genExpr(*call)); });
  if (ran)
    return true;
  // What it would have set is unknown now.
  std::vector<std::string> names;
  collectGlobalNames(callee->function->getBody(), names);
  auto home = homes.find(callee->function);
  Namespace &space = home != homes.end() ? home->second->globals : globals();
  for (const std::string &name : names)
    space[name] = hostStatementValue(stmt);
  return false;
}

FailureOr<TValue> Generator::evaluateDeferred(const TValue &value,
                                              llvm::StringRef name,
                                              llvm::SMLoc use) {
  if (value.hostStatement) {
    auto diag = hostError(use) << "'" << name
                               << "' is set or changed at module level by host "
                                  "code that tilec does not run";
    diag.attachNote(loc(value.hostStatement->getLoc()))
        << "the statement that sets or changes it";
    return diag;
  }
  // `X = f(X)` at module level with f host code: the deferred expression
  // names itself (the module's last binding of X), which never ends.
  if (!evaluatingDeferred.insert(value.deferred).second)
    return hostError(use) << "'" << name
                          << "' cannot be computed: its module-level value "
                             "depends on itself through host code that tilec "
                             "does not run";
  HostCode host(*this);
  Scope module;
  Scope *saved = scope;
  SourceModule *savedModule = current;
  scope = &module;
  current = value.source ? value.source : current;
  FailureOr<TValue> result = genExpr(*value.deferred);
  scope = saved;
  current = savedModule;
  evaluatingDeferred.erase(value.deferred);
  if (succeeded(result) && result->isValue())
    result = error(value.deferred->getLoc())
             << "module-level assignments must be compile-time constants";
  if (failed(result))
    return hostError(use) << "'" << name
                          << "' is used here, but its module-level value "
                             "cannot be computed (the error above)";
  return result;
}

//===----------------------------------------------------------------------===//
// Decorators
//===----------------------------------------------------------------------===//

/// True if `decorator` is `triton.jit`, `jit` or a call of either.
bool tilec::isJitDecorator(const ExprAST &decorator) {
  const ExprAST *e = &decorator;
  if (auto *call = llvm::dyn_cast<CallExprAST>(e))
    e = &call->getCallee();
  if (auto *attr = llvm::dyn_cast<AttributeExprAST>(e))
    return attr->getAttr() == "jit";
  if (auto *name = llvm::dyn_cast<NameExprAST>(e))
    return name->getName() == "jit";
  return false;
}

bool tilec::isConstexprFunctionDecorator(const ExprAST &decorator) {
  llvm::StringRef name;
  if (auto *attr = llvm::dyn_cast<AttributeExprAST>(&decorator))
    name = attr->getAttr();
  else if (auto *plain = llvm::dyn_cast<NameExprAST>(&decorator))
    name = plain->getName();
  return name == "constexpr_function" || name == "constexpr";
}

LogicalResult Generator::evaluateDecorators(const FunctionDefAST &fn) {
  HostCode host(*this);
  TValue function;
  function.kind = TValue::Kind::Function;
  function.function = &fn;
  // Python applies decorators from the innermost (last) one out.
  const ExprList &decorators = fn.getDecorators();
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    if (isJitDecorator(**it))
      continue;
    // @triton.autotune(...) and @triton.heuristics(...) are read, their
    // errors shown; another library's decorator (a launch cache such as
    // `@libentry()`, a wrapper that generates host code) only changes how
    // the host launches the kernel: tilec warns and compiles the kernel.
    const ExprAST *callee = it->get();
    if (auto *call = llvm::dyn_cast<CallExprAST>(callee))
      callee = &call->getCallee();
    bool isTritonDecorator = false;
    withErrorsHeld([&] {
      FailureOr<TValue> v = genExpr(*callee);
      isTritonDecorator =
          succeeded(v) && v->kind == TValue::Kind::Builtin &&
          (v->s == "triton.autotune" || v->s == "triton.heuristics");
      return true;
    });
    if (!isTritonDecorator) {
      warning((*it)->getRange().Start,
              "tilec ignores the decorator '" +
                  sourceText((*it)->getRange()).str() +
                  "': it reads @triton.jit, @triton.autotune and "
                  "@triton.heuristics, and compiles the kernel as written");
      continue;
    }
    // Arguments that come from host code tilec does not run (configurations
    // read from files, chosen by torch's state at run time) leave the
    // decorator out, with a warning that gives the first reason; the
    // kernel compiles with the constexprs -D gives. Other errors stand.
    unsigned unavailableBefore = hostUnavailable;
    std::optional<std::pair<Location, std::string>> reason;
    FailureOr<TValue> decorator = failure();
    {
      ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diag) {
        if (diag.getSeverity() != DiagnosticSeverity::Error)
          return failure();
        if (!reason)
          reason.emplace(diag.getLocation(), diag.str());
        return success();
      });
      decorator = genExpr(**it);
    }
    if (failed(decorator) && hostUnavailable != unavailableBefore) {
      InFlightDiagnostic diag =
          mlir::emitWarning(loc((*it)->getRange().Start))
          << "tilec leaves out @" << sourceText(callee->getRange())
          << "(...): its arguments come from host code that tilec does not "
             "run; give the constexprs it would choose with -D";
      if (reason)
        diag.attachNote(reason->first) << reason->second;
      continue;
    }
    if (failed(decorator)) {
      // Show the errors.
      (void)genExpr(**it);
      return failure();
    }
    if (decorator->kind != TValue::Kind::Object ||
        (decorator->s != "triton.autotune" &&
         decorator->s != "triton.heuristics"))
      return error((*it)->getLoc())
             << "@" << sourceText(callee->getRange())
             << " decorates with its result, not " << decorator->describe();
    CallArgs args;
    args.positional.push_back(function);
    args.positionalRanges.push_back((*it)->getRange());
    if (failed(callObject(*decorator, args, (*it)->getLoc())))
      return failure();
  }
  return success();
}

/// Whether a @triton.heuristics key is one of the launch's options, which
/// Triton's launcher takes where a kernel takes its arguments.
static bool isLaunchOption(llvm::StringRef name) {
  return name == "num_warps" || name == "num_stages" || name == "num_ctas" ||
         name == "maxnreg";
}

LogicalResult Generator::applyHeuristics(const FunctionDefAST &fn,
                                         const KernelConfig &config) {
  auto found = decorations.find(&fn);
  if (found == decorations.end())
    return success();
  HostCode host(*this);
  // The outermost decorator runs first at a launch: what an outer
  // heuristic computes, the inner ones see.
  for (const TValue &decoration : llvm::reverse(found->second)) {
    if (decoration.s != "triton.heuristics")
      continue;
    const TValue &values = *decoration.lookup("values");
    for (auto [key, compute] : llvm::zip(values.keys, values.elements)) {
      const std::string &name = key.s;
      if (isLaunchOption(name)) {
        if (!heuristicsOnly)
          warning(fn.getNameRange().Start,
                  "@triton.heuristics chooses the launch option '" + name +
                      "' at each launch; tilec compiles '" +
                      fn.getName().str() +
                      "' with the one it is given (--num-warps, "
                      "--num-stages or a configuration)");
        continue;
      }
      auto param = llvm::find_if(
          fn.getParams(), [&](const ParamAST &p) { return p.name == name; });
      if (param == fn.getParams().end())
        return error(fn.getNameRange().Start)
               << "@triton.heuristics computes '" << name << "', which is "
               << "not a parameter of '" << fn.getName() << "'";
      if (config.defines.count(name))
        continue;
      // The arguments as the heuristic sees them: constexprs by value, the
      // run-time ones as placeholders holding their launch values, if
      // known, and otherwise errors to read.
      TValue argsDict = emptyDict();
      unsigned position = 0;
      for (const ParamAST &p : fn.getParams()) {
        bool runtime = !isConstexprAnnotation(p.annotation.get());
        unsigned index = runtime ? position++ : 0;
        auto bound = scope->values.find(p.name);
        if (bound == scope->values.end())
          continue;
        TValue value = bound->second;
        if (value.isValue()) {
          std::optional<TValue> known;
          bool launched = runtime && index < config.runtimeValues.size();
          if (launched && !config.runtimeValues[index].empty()) {
            known = parseTensorText(*this, config.runtimeValues[index]);
            if (!known)
              known = parseDefine(*this, config.runtimeValues[index]);
          }
          if (known)
            value = TValue::ofObject(kRuntimeArgument, {{"value", *known}});
          else if (launched)
            value = TValue::ofObject(kRuntimeArgument,
                                     {{"tensor", TValue::ofBool(true)}});
          else
            value = TValue::ofObject(kRuntimeArgument, {});
        }
        setItem(argsDict, TValue::named(TValue::Kind::String, p.name), value);
      }
      heuristicName = name;
      FailureOr<TValue> result =
          callWith(*this, compute, {argsDict}, param->range.Start);
      heuristicName.clear();
      if (failed(result))
        return failure();
      if (result->isValue() || !defineText(*result))
        return error(param->range.Start)
               << "@triton.heuristics computed " << result->describe()
               << " for '" << name << "', which a constexpr cannot hold";
      define(name, *result, param->range.Start);
    }
  }
  return success();
}

FailureOr<bool> Generator::applyPreHook(
    const FunctionDefAST &fn,
    std::vector<std::pair<std::string, std::vector<int64_t>>> &blocks) {
  auto found = decorations.find(&fn);
  if (found == decorations.end())
    return false;
  // The outermost @triton.autotune's configurations (as tuningOf).
  const TValue *configs = nullptr;
  for (const TValue &decoration : found->second)
    if (decoration.s == "triton.autotune")
      configs = decoration.lookup("configs");
  if (!configs)
    return false;
  // The configuration compiled: its kwargs are what is bound.
  std::optional<TValue> hook;
  for (const TValue &config : configs->elements) {
    const TValue &kwargs = *config.lookup("kwargs");
    bool matches = llvm::all_of(
        llvm::zip(kwargs.keys, kwargs.elements), [&](const auto &entry) {
          auto bound = scope->values.find(std::get<0>(entry).s);
          return bound != scope->values.end() &&
                 bound->second.sameAs(std::get<1>(entry));
        });
    if (matches) {
      hook = *config.lookup("pre_hook");
      break;
    }
  }
  // Otherwise (constexprs given with -D) the hook they all have.
  if (!hook) {
    const TValue &first = *configs->elements.front().lookup("pre_hook");
    if (llvm::all_of(configs->elements, [&](const TValue &config) {
          return config.lookup("pre_hook")->sameAs(first);
        }))
      hook = first;
  }
  if (!hook || hook->isNone())
    return false;

  // nargs: the constexprs, the descriptors, and placeholders of the other
  // run-time arguments (which have no value at compile time).
  HostCode host(*this);
  TValue nargs = emptyDict();
  std::vector<std::shared_ptr<std::vector<TValue>>> descriptors;
  for (const ParamAST &p : fn.getParams()) {
    TValue value = TValue::ofObject(kRuntimeArgument, {});
    auto desc = llvm::find_if(
        blocks, [&](const auto &entry) { return entry.first == p.name; });
    if (desc != blocks.end()) {
      std::vector<TValue> block;
      for (int64_t b : desc->second)
        block.push_back(TValue::ofInt(b));
      value = TValue::ofObject(kHostDescriptor, {});
      value.keys.push_back(TValue::named(TValue::Kind::String, "block_shape"));
      value.mutableAttributes = std::make_shared<std::vector<TValue>>(
          std::vector<TValue>{TValue::ofTuple(std::move(block))});
      descriptors.push_back(value.mutableAttributes);
    } else if (auto bound = scope->values.find(p.name);
               bound != scope->values.end() && !bound->second.isValue()) {
      value = bound->second;
    }
    setItem(nargs, TValue::named(TValue::Kind::String, p.name), value);
  }
  llvm::SMLoc at = fn.getNameRange().Start;
  if (failed(callWith(*this, *hook, {nargs}, at)))
    return failure();
  for (auto [desc, attributes] : llvm::zip(blocks, descriptors)) {
    const TValue &shape = attributes->front();
    std::vector<int64_t> block;
    if (shape.kind == TValue::Kind::Tuple)
      for (const TValue &b : shape.elements)
        if (b.kind == TValue::Kind::Int && b.i > 0)
          block.push_back(b.i);
    if (shape.kind != TValue::Kind::Tuple ||
        block.size() != shape.elements.size() ||
        block.size() != desc.second.size())
      return error(at) << "the pre_hook of '" << fn.getName()
                       << "' set the block_shape of '" << desc.first << "' to "
                       << shape.describe() << ", not " << desc.second.size()
                       << " positive integers";
    desc.second = std::move(block);
  }
  return true;
}

KernelTuning Generator::tuningOf(const FunctionDefAST &fn) {
  KernelTuning tuning;
  tuning.kernel = fn.getName().str();
  for (const ParamAST &p : fn.getParams())
    if (!isConstexprAnnotation(p.annotation.get()))
      tuning.params.push_back(p.name);
  auto found = decorations.find(&fn);
  if (found == decorations.end())
    return tuning;
  for (const TValue &decoration : found->second) {
    if (decoration.s == "triton.heuristics") {
      for (const TValue &key : decoration.lookup("values")->keys)
        if (!isLaunchOption(key.s))
          tuning.heuristics.push_back(key.s);
      continue;
    }
    // The outermost @triton.autotune wins.
    tuning.configs.clear();
    tuning.key.clear();
    for (const TValue &config : decoration.lookup("configs")->elements) {
      AutotuneConfig c;
      const TValue &kwargs = *config.lookup("kwargs");
      for (auto [key, value] : llvm::zip(kwargs.keys, kwargs.elements))
        c.constexprs.emplace_back(key.s, *defineText(value));
      c.numWarps = unsigned(config.lookup("num_warps")->i);
      c.numStages = unsigned(config.lookup("num_stages")->i);
      tuning.configs.push_back(std::move(c));
    }
    for (const TValue &key : decoration.lookup("key")->elements)
      tuning.key.push_back(key.s);
  }
  return tuning;
}

FailureOr<KernelTuning> tilec::readKernelTuning(MLIRContext &context,
                                                const ModuleAST &module,
                                                llvm::SourceMgr &srcMgr,
                                                const KernelConfig &config) {
  loadGeneratorDialects(context);
  Generator generator(context, module, srcMgr);
  const FunctionDefAST *kernel = generator.evaluateModule(config);
  if (!kernel)
    return failure();
  return generator.tuningOf(*kernel);
}

//===----------------------------------------------------------------------===//
// Python's math module
//===----------------------------------------------------------------------===//

namespace {
/// A function of Python's math module on compile-time numbers.
struct PythonMathFunction {
  const char *name;
  /// Floats in, a float out (unary or binary), or an integer-valued result
  /// (`asInt`: floor, ceil, trunc) or a truth value (`asBool`).
  double (*unary)(double) = nullptr;
  double (*binary)(double, double) = nullptr;
  bool asInt = false, asBool = false;
};
} // namespace

static const PythonMathFunction kPythonMath[] = {
    {"sqrt", [](double x) { return std::sqrt(x); }},
    {"cbrt", [](double x) { return std::cbrt(x); }},
    {"exp", [](double x) { return std::exp(x); }},
    {"exp2", [](double x) { return std::exp2(x); }},
    {"expm1", [](double x) { return std::expm1(x); }},
    {"log2", [](double x) { return std::log2(x); }},
    {"log10", [](double x) { return std::log10(x); }},
    {"log1p", [](double x) { return std::log1p(x); }},
    {"sin", [](double x) { return std::sin(x); }},
    {"cos", [](double x) { return std::cos(x); }},
    {"tan", [](double x) { return std::tan(x); }},
    {"asin", [](double x) { return std::asin(x); }},
    {"acos", [](double x) { return std::acos(x); }},
    {"atan", [](double x) { return std::atan(x); }},
    {"sinh", [](double x) { return std::sinh(x); }},
    {"cosh", [](double x) { return std::cosh(x); }},
    {"tanh", [](double x) { return std::tanh(x); }},
    {"asinh", [](double x) { return std::asinh(x); }},
    {"acosh", [](double x) { return std::acosh(x); }},
    {"atanh", [](double x) { return std::atanh(x); }},
    {"erf", [](double x) { return std::erf(x); }},
    {"erfc", [](double x) { return std::erfc(x); }},
    {"lgamma", [](double x) { return std::lgamma(x); }},
    {"gamma", [](double x) { return std::tgamma(x); }},
    {"fabs", [](double x) { return std::fabs(x); }},
    {"degrees", [](double x) { return x * 180.0 / M_PI; }},
    {"radians", [](double x) { return x * M_PI / 180.0; }},
    {"pow", nullptr, [](double x, double y) { return std::pow(x, y); }},
    {"atan2", nullptr, [](double y, double x) { return std::atan2(y, x); }},
    {"copysign", nullptr,
     [](double x, double y) { return std::copysign(x, y); }},
    {"fmod", nullptr, [](double x, double y) { return std::fmod(x, y); }},
    {"hypot", nullptr, [](double x, double y) { return std::hypot(x, y); }},
    {"floor", [](double x) { return std::floor(x); }, nullptr, true},
    {"ceil", [](double x) { return std::ceil(x); }, nullptr, true},
    {"trunc", [](double x) { return std::trunc(x); }, nullptr, true},
    {"isnan", [](double x) { return double(std::isnan(x)); }, nullptr, false,
     true},
    {"isinf", [](double x) { return double(std::isinf(x)); }, nullptr, false,
     true},
    {"isfinite", [](double x) { return double(std::isfinite(x)); }, nullptr,
     false, true},
};

/// The functions of Python's math module on integers.
static const char *const kPythonMathIntegers[] = {"gcd", "lcm", "isqrt",
                                                  "factorial", "comb"};

FailureOr<TValue> Generator::pythonMathMember(llvm::StringRef name,
                                              llvm::SMLoc l) {
  if (name == "pi")
    return TValue::ofFloat(M_PI);
  if (name == "e")
    return TValue::ofFloat(M_E);
  if (name == "tau")
    return TValue::ofFloat(2 * M_PI);
  if (name == "inf")
    return TValue::ofFloat(INFINITY);
  if (name == "nan")
    return TValue::ofFloat(NAN);
  bool known = name == "log" || name == "prod" ||
               llvm::is_contained(kPythonMathIntegers, name) ||
               llvm::any_of(kPythonMath, [&](const PythonMathFunction &f) {
                 return name == f.name;
               });
  if (!known)
    return error(l) << "'math." << name << "' is not supported by tilec";
  return TValue::named(TValue::Kind::Builtin, "math." + name.str());
}

FailureOr<TValue> Generator::callPythonMath(llvm::StringRef name,
                                            CallArgs &args, llvm::SMLoc l) {
  if (!args.keywords.empty())
    return error(args.keywordRanges.front().Start)
           << "'math." << name << "' takes no keyword arguments";
  std::vector<TValue> a = args.positional;
  if (name == "prod" && a.size() == 1) {
    FailureOr<std::vector<TValue>> items = iterate(a[0], l);
    if (failed(items))
      return failure();
    a = *items;
  }
  for (auto [i, v] : llvm::enumerate(a))
    if (v.kind != TValue::Kind::Int && v.kind != TValue::Kind::Bool &&
        v.kind != TValue::Kind::Float)
      return error(i < args.positionalRanges.size()
                       ? args.positionalRanges[i].Start
                       : l)
             << "'math." << name
             << "' runs when tilec compiles: it takes compile-time numbers, "
                "not "
             << v.describe()
             << " (tl's and libdevice's functions compute on run-time values)";
  auto asDouble = [](const TValue &v) {
    return v.kind == TValue::Kind::Float ? v.f : double(v.i);
  };
  auto arity = [&](size_t lo, size_t hi) -> LogicalResult {
    if (a.size() >= lo && a.size() <= hi)
      return success();
    return error(l) << "'math." << name << "' takes " << lo
                    << (hi != lo ? " or " + std::to_string(hi) : "")
                    << " argument" << (hi == 1 ? "" : "s") << ", not "
                    << a.size();
  };
  // Python raises where the result leaves the reals or overflows.
  auto checked = [&](double result) -> FailureOr<TValue> {
    bool anyNan = llvm::any_of(
        a, [&](const TValue &v) { return std::isnan(asDouble(v)); });
    bool allFinite = llvm::all_of(
        a, [&](const TValue &v) { return std::isfinite(asDouble(v)); });
    if (std::isnan(result) && !anyNan)
      return error(l) << "math domain error: 'math." << name << "'";
    if (std::isinf(result) && allFinite)
      return error(l) << "math range error: 'math." << name << "'";
    return TValue::ofFloat(result);
  };
  if (name == "prod") {
    bool allInt = llvm::all_of(
        a, [](const TValue &v) { return v.kind != TValue::Kind::Float; });
    if (allInt) {
      int64_t product = 1;
      for (const TValue &v : a)
        if (llvm::MulOverflow(product, v.i, product))
          return error(l) << "'math.prod' overflows 64-bit integers";
      return TValue::ofInt(product);
    }
    double product = 1;
    for (const TValue &v : a)
      product *= asDouble(v);
    return TValue::ofFloat(product);
  }
  if (name == "log") {
    if (failed(arity(1, 2)))
      return failure();
    double x = asDouble(a[0]);
    if (x <= 0 || (a.size() == 2 && asDouble(a[1]) <= 0))
      return error(l) << "math domain error: 'math.log'";
    return checked(a.size() == 2 ? std::log(x) / std::log(asDouble(a[1]))
                                 : std::log(x));
  }
  if (llvm::is_contained(kPythonMathIntegers, name)) {
    for (const TValue &v : a)
      if (v.kind == TValue::Kind::Float)
        return error(l) << "'math." << name << "' takes integers, not "
                        << v.describe();
    if (name == "gcd" || name == "lcm") {
      int64_t result = name == "gcd" ? 0 : 1;
      for (const TValue &v : a) {
        int64_t x = std::llabs(v.i);
        if (name == "gcd") {
          result = std::gcd(result, x);
        } else if (result != 0 && x != 0) {
          int64_t g = std::gcd(result, x);
          if (llvm::MulOverflow(result / g, x, result))
            return error(l) << "'math.lcm' overflows 64-bit integers";
        } else {
          result = 0;
        }
      }
      return TValue::ofInt(result);
    }
    if (failed(arity(name == "comb" ? 2 : 1, name == "comb" ? 2 : 1)))
      return failure();
    if (llvm::any_of(a, [](const TValue &v) { return v.i < 0; }))
      return error(l) << "'math." << name << "' takes non-negative integers";
    if (name == "isqrt") {
      auto root = int64_t(std::sqrt(double(a[0].i)));
      while (root * root > a[0].i)
        --root;
      while ((root + 1) * (root + 1) <= a[0].i)
        ++root;
      return TValue::ofInt(root);
    }
    int64_t n = a[0].i, k = name == "comb" ? a[1].i : n, result = 1;
    if (name == "comb") {
      if (k > n)
        return TValue::ofInt(0);
      k = std::min(k, n - k);
      for (int64_t i = 1; i <= k; ++i) {
        // C(n - k + i, i) = C(n - k + i - 1, i - 1) * (n - k + i) / i.
        if (llvm::MulOverflow(result, n - k + i, result))
          return error(l) << "'math.comb' overflows 64-bit integers";
        result /= i;
      }
      return TValue::ofInt(result);
    }
    for (int64_t i = 2; i <= n; ++i)
      if (llvm::MulOverflow(result, i, result))
        return error(l) << "'math.factorial' overflows 64-bit integers";
    return TValue::ofInt(result);
  }
  const PythonMathFunction *f = llvm::find_if(
      kPythonMath, [&](const PythonMathFunction &f) { return name == f.name; });
  if (f == std::end(kPythonMath))
    return error(l) << "'math." << name << "' is not supported by tilec";
  if (failed(arity(f->binary ? 2 : 1, f->binary ? 2 : 1)))
    return failure();
  if (f->asBool)
    return TValue::ofBool(f->unary(asDouble(a[0])) != 0);
  if (f->asInt) {
    if (a[0].kind != TValue::Kind::Float)
      return TValue::ofInt(a[0].i);
    double x = f->unary(a[0].f);
    if (!std::isfinite(x))
      return error(l) << "'math." << name << "' of " << a[0].describe()
                      << " is not an integer";
    // [-2^63, 2^63): what an int64_t holds.
    if (x < -9223372036854775808.0 || x >= 9223372036854775808.0)
      return error(l) << "'math." << name << "' of " << a[0].describe()
                      << " is outside the 64-bit integers";
    return TValue::ofInt(int64_t(x));
  }
  return checked(f->binary ? f->binary(asDouble(a[0]), asDouble(a[1]))
                           : f->unary(asDouble(a[0])));
}

//===----------------------------------------------------------------------===//
// Python's re module
//===----------------------------------------------------------------------===//

FailureOr<TValue> Generator::callPythonRegex(llvm::StringRef name,
                                             CallArgs &args, llvm::SMLoc l) {
  Binder bind(*this, "re." + name.str(), args, l);
  bool isSub = name == "sub";
  if (failed(isSub ? bind.bind({"pattern", "repl", "string", "count"}, 3)
                   : bind.bind({"pattern", "string"}, 2)))
    return failure();
  for (unsigned i = 0; i < (isSub ? 3u : 2u); ++i)
    if (bind.get(i).kind != TValue::Kind::String)
      return error(l) << "'re." << name << "' takes compile-time strings, not "
                      << bind.get(i).describe();
  // std::regex's ECMAScript grammar covers the patterns such host code
  // writes (groups, classes, \d, anchors, alternatives); Python's own
  // extensions ((?P<name>...), lookbehind) are errors here.
  std::regex pattern;
  try {
    pattern = std::regex(bind.get(0).s, std::regex::ECMAScript);
  } catch (const std::regex_error &) {
    return error(l) << "the regular expression '" << bind.get(0).s
                    << "' is not supported by tilec (Python's syntax that "
                       "ECMAScript shares only)";
  }
  const std::string &text = bind.get(isSub ? 2 : 1).s;
  auto groupText = [](const std::ssub_match &group) {
    return group.matched ? TValue::named(TValue::Kind::String, group.str())
                         : TValue();
  };
  if (isSub) {
    // Python's \N and \g<N> in the replacement are ECMAScript's $N.
    std::string repl;
    const std::string &py = bind.get(1).s;
    for (size_t i = 0; i < py.size(); ++i) {
      if (py[i] == '$') {
        repl += "$$";
      } else if (py[i] == '\\' && i + 1 < py.size() && isdigit(py[i + 1])) {
        repl += '$';
      } else if (py.compare(i, 3, "\\g<") == 0) {
        size_t close = py.find('>', i);
        if (close == std::string::npos)
          return error(l) << "missing '>' in the replacement '" << py << "'";
        repl += "$" + py.substr(i + 3, close - i - 3);
        i = close;
      } else {
        repl += py[i];
      }
    }
    int64_t count = bind.has(3) ? bind.get(3).i : 0;
    if (count != 0) {
      // The first `count` matches only.
      std::string result;
      auto begin = std::sregex_iterator(text.begin(), text.end(), pattern);
      size_t last = 0;
      int64_t done = 0;
      for (auto it = begin; it != std::sregex_iterator() && done < count;
           ++it, ++done) {
        result += text.substr(last, it->position() - last);
        result += it->format(repl);
        last = it->position() + it->length();
      }
      return TValue::named(TValue::Kind::String, result + text.substr(last));
    }
    return TValue::named(TValue::Kind::String,
                         std::regex_replace(text, pattern, repl));
  }
  if (name == "findall") {
    std::vector<TValue> found;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern);
         it != std::sregex_iterator(); ++it) {
      const std::smatch &m = *it;
      if (m.size() == 1) {
        found.push_back(TValue::named(TValue::Kind::String, m.str()));
      } else if (m.size() == 2) {
        found.push_back(TValue::named(TValue::Kind::String, m[1].str()));
      } else {
        std::vector<TValue> groups;
        for (size_t g = 1; g < m.size(); ++g)
          groups.push_back(TValue::named(TValue::Kind::String, m[g].str()));
        found.push_back(TValue::ofTuple(std::move(groups)));
      }
    }
    return TValue::ofTuple(std::move(found));
  }
  std::smatch m;
  bool matched = name == "fullmatch" ? std::regex_match(text, m, pattern)
                 : name == "match"
                     ? std::regex_search(text, m, pattern,
                                         std::regex_constants::match_continuous)
                     : std::regex_search(text, m, pattern);
  if (!matched)
    return TValue();
  std::vector<TValue> groups;
  for (size_t g = 0; g < m.size(); ++g)
    groups.push_back(groupText(m[g]));
  return TValue::ofObject(
      kRegexMatch,
      {{"_groups", TValue::ofTuple(std::move(groups))},
       {"_span",
        TValue::ofTuple({TValue::ofInt(m.position(0)),
                         TValue::ofInt(m.position(0) + m.length(0))})}});
}
