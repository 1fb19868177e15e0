//===- Generator.h - State of tile code generation -------------*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// Private to MLIRGen. Code generation evaluates the kernel's AST like an
// interpreter whose values are either MLIR values (run-time scalars and tiles)
// or compile-time Python values (constexprs, dtypes, modules, functions,
// tuples, block pointers). Compile-time values fold; run-time values become
// tile, arith, math and scf ops. The language accepted is described in
// docs/language.md.
//
// The implementation is split by topic: Generator.cpp (kernel selection,
// expressions, calls), Operators.cpp (operators, promotion, casts),
// Shapes.cpp (broadcasting, subscripts, shape builtins), Builtins.cpp (memory,
// atomics and misc tl.* functions), Math.cpp, Reductions.cpp (reductions,
// scans, tl.dot), BlockPointers.cpp, Statements.cpp, ControlFlow.cpp and
// Imports.cpp (files the kernel's file imports).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_MLIRGEN_GENERATOR_H
#define TILEC_LIB_MLIRGEN_GENERATOR_H

#include "tilec/Frontend/AST.h"
#include "tilec/MLIRGen/MLIRGen.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <memory>
#include <optional>
#include <set>

namespace mlir::scf {
class IfOp;
} // namespace mlir::scf

namespace tilec {

/// The most elements a tile may have (Triton's TRITON_MAX_TENSOR_NUMEL).
constexpr int64_t kMaxTileElements = int64_t(1) << 20;

struct BlockPointer;
struct SourceModule;

/// A value during code generation.
/// The classes of the objects importlib.util.find_spec returns, and of
/// their `loader` (Generator::callImportSpec).
inline constexpr llvm::StringLiteral kModuleSpec = "ModuleSpec";
inline constexpr llvm::StringLiteral kModuleLoader = "module loader";

struct TValue {
  enum class Kind {
    Value,  ///< an MLIR value: a run-time scalar or tile
    Int,    ///< a constexpr integer
    Float,  ///< a constexpr float
    Bool,   ///< a constexpr bool
    None,   ///< Python's None
    String, ///< a constexpr string
    DType,  ///< a dtype such as tl.float32
    Module, ///< a module: "triton", "triton.language", "triton.language.math",
            ///< or a file the kernel's file imports (`source`)
    Function,   ///< a @triton.jit function of the file
    Tuple,      ///< a tuple or list of values
    Builtin,    ///< a builtin function: "range", "min", "tl.load"...
    Method,     ///< a bound method, e.g. `x.to`; element 0 is `self`
    BlockPtr,   ///< a block pointer made by tl.make_block_ptr
    TensorDesc, ///< a tensor descriptor made by tl.make_tensor_descriptor
    Dict,       ///< a dict: `keys` and `elements` in insertion order
    Object,     ///< an object of host code (`s` names its class, `keys`
                ///< its attribute names and `elements` their values)
    Lambda,     ///< a lambda and the variables it captured
  };
  Kind kind = Kind::None;
  /// The run-time value (Value).
  mlir::Value value;
  /// The integer or bool (Int, Bool).
  int64_t i = 0;
  /// The float (Float).
  double f = 0;
  /// Module path, builtin or method name, string contents.
  std::string s;
  /// The dtype (DType).
  mlir::Type type;
  /// The function (Function).
  const FunctionDefAST *function = nullptr;
  /// Tuple elements; element 0 is `self` of a method.
  std::vector<TValue> elements;
  /// The fields of a BlockPtr or TensorDesc (immutable, shared by copies).
  std::shared_ptr<const BlockPointer> pointer;
  /// The keys of a Dict, the attribute names (strings) of an Object.
  std::vector<TValue> keys;
  /// The attribute values of an Object whose attributes host code may set
  /// (a host tensor descriptor, whose `block_shape` a pre_hook sets), in
  /// place of `elements` and shared by its copies as a Python object is by
  /// its references. Null for every other value.
  std::shared_ptr<std::vector<TValue>> mutableAttributes;
  /// A module-level value host code could not compute (an Object of class
  /// kDeferredValue): its expression, evaluated again where it is used.
  const ExprAST *deferred = nullptr;
  /// A module-level name that a statement tilec does not run binds or
  /// changes (an Object of class kDeferredValue too): using it is an error
  /// that points at the statement.
  const StmtAST *hostStatement = nullptr;
  /// The lambda (Lambda) and the variables of the scope it was made in.
  const LambdaExprAST *lambda = nullptr;
  std::shared_ptr<const std::map<std::string, TValue>> captured;
  /// The imported file a Module is (null for the others), or the file whose
  /// module-level names a deferred value's expression or a lambda sees.
  SourceModule *source = nullptr;
  /// Value and DType: the integers (of the elements, or those a pointer
  /// points to) are unsigned. The IR's integer types are signless; as in
  /// Triton's frontend, signedness is a property of the value that chooses
  /// the operations (divui, shrui, cmpi ult, uitofp, extui...).
  bool isUnsigned = false;
  /// DType: the block type of a tile (`x.type`), whose `element_ty` is the
  /// dtype and whose shape `elements` holds.
  bool blockType = false;

  static TValue of(mlir::Value v, bool isUnsigned = false) {
    TValue t;
    t.kind = Kind::Value;
    t.value = v;
    t.isUnsigned = isUnsigned;
    return t;
  }
  static TValue ofInt(int64_t v) {
    TValue t;
    t.kind = Kind::Int;
    t.i = v;
    return t;
  }
  static TValue ofFloat(double v) {
    TValue t;
    t.kind = Kind::Float;
    t.f = v;
    return t;
  }
  static TValue ofBool(bool v) {
    TValue t;
    t.kind = Kind::Bool;
    t.i = v;
    return t;
  }
  static TValue ofDType(mlir::Type ty, bool isUnsigned = false) {
    TValue t;
    t.kind = Kind::DType;
    t.type = ty;
    t.isUnsigned = isUnsigned;
    return t;
  }
  /// A block pointer (`Kind::BlockPtr`) or tensor descriptor
  /// (`Kind::TensorDesc`) described by `pointer`.
  static TValue ofPointer(Kind kind,
                          std::shared_ptr<const BlockPointer> pointer) {
    TValue t;
    t.kind = kind;
    t.pointer = std::move(pointer);
    return t;
  }
  static TValue ofTuple(std::vector<TValue> elements) {
    TValue t;
    t.kind = Kind::Tuple;
    t.elements = std::move(elements);
    return t;
  }
  static TValue named(Kind kind, llvm::StringRef name) {
    TValue t;
    t.kind = kind;
    t.s = name.str();
    return t;
  }

  /// An Object of class `cls` with `attributes`.
  static TValue
  ofObject(llvm::StringRef cls,
           std::vector<std::pair<std::string, TValue>> attributes) {
    TValue t = named(Kind::Object, cls);
    for (auto &[name, value] : attributes) {
      t.keys.push_back(named(Kind::String, name));
      t.elements.push_back(std::move(value));
    }
    return t;
  }
  /// The value of key or attribute `name` of a Dict or Object; null if
  /// absent.
  const TValue *lookup(llvm::StringRef name) const;

  bool isValue() const { return kind == Kind::Value; }
  bool isNone() const { return kind == Kind::None; }
  /// True for Int, Float and Bool: compile-time numbers.
  bool isConstNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  /// True for block pointers and tensor descriptors.
  bool isPointerStruct() const {
    return kind == Kind::BlockPtr || kind == Kind::TensorDesc;
  }
  /// The tile type if this is a run-time tile.
  mlir::RankedTensorType tileType() const {
    return isValue() ? llvm::dyn_cast<mlir::RankedTensorType>(value.getType())
                     : mlir::RankedTensorType();
  }
  /// A short description for diagnostics ("a tile of f32 [16]", "a dtype"...).
  std::string describe() const;
  /// True if both are the same compile-time value (run-time values compare
  /// by identity).
  bool sameAs(const TValue &other) const;
};

/// The fields of a block pointer (tl.make_block_ptr) or of a tensor descriptor
/// (tl.make_tensor_descriptor). Both are compile-time structures over run-time
/// values: loads and stores through them become pointer tiles and masks.
struct BlockPointer {
  /// The scalar base pointer.
  mlir::Value base;
  /// The elements are unsigned integers.
  bool isUnsigned = false;
  /// Per dimension: the extent, the stride (Int constexprs or i64 values) and,
  /// for block pointers only, the offset (an Int constexpr or an i32 value).
  std::vector<TValue> shape, strides, offsets;
  /// The block's shape and (block pointers) its order.
  llvm::SmallVector<int64_t> blockShape, order;
  /// Descriptors: "zero" or "nan", the padding of out-of-bounds elements.
  std::string padding;

  /// The pointee type.
  mlir::Type elementType() const;
};

/// Arguments of a call after evaluation.
struct CallArgs {
  std::vector<TValue> positional;
  std::vector<llvm::SMRange> positionalRanges;
  std::vector<std::pair<std::string, TValue>> keywords;
  /// The ranges of the keywords' names and of their values.
  std::vector<llvm::SMRange> keywordRanges, keywordValueRanges;
};

/// The variables of the function being generated.
struct Scope {
  /// Current values by name.
  std::map<std::string, TValue> values;
  /// Where each variable was last assigned (for notes in diagnostics).
  std::map<std::string, llvm::SMLoc> defLocs;
  /// A name assigned only inside a loop body or in one branch of a run-time
  /// `if`, which is not visible after it.
  struct Hidden {
    llvm::SMLoc assignLoc; ///< where it was assigned
    bool inLoop;           ///< in a loop body (else in a branch)
  };
  std::map<std::string, Hidden> hidden;
  /// Names a host function declared `global`: they live in its module.
  std::set<std::string> globalNames;
};

class Generator;

/// The module-level names of a file.
using Namespace = std::map<std::string, TValue>;

/// A file of Python: the kernel's, or one it imports (`import mylib as tle`,
/// `from .ext import helper`), found next to the kernel's file or in an -I
/// directory (docs/language.md, "Imports").
struct SourceModule {
  /// The dotted name it was imported as ("" for the kernel's file).
  std::string name;
  /// The directory its relative imports start from.
  std::string dir;
  /// An `__init__` file or a bare directory: its submodules are in `dir`.
  bool package = false;
  /// Its statements (null for the kernel's file and for a bare directory).
  std::unique_ptr<ModuleAST> ast;
  /// Its module-level names.
  Namespace globals;
  /// True while its module-level statements run: a circular import sees the
  /// names bound so far.
  bool loading = false;
};

/// Matches call arguments to a builtin's parameters, Python style, and
/// converts them with precise diagnostics.
struct Binder {
  Generator &gen;
  llvm::StringRef function;
  CallArgs &args;
  llvm::SMLoc callLoc;
  llvm::SmallVector<llvm::StringRef> params;
  llvm::SmallVector<std::optional<TValue>> values;
  llvm::SmallVector<llvm::SMLoc> locs;
  /// The source range of each given argument's value (empty when absent).
  llvm::SmallVector<llvm::SMRange> ranges;

  Binder(Generator &gen, llvm::StringRef function, CallArgs &args,
         llvm::SMLoc callLoc)
      : gen(gen), function(function), args(args), callLoc(callLoc) {}

  /// Binds `args` to `params`; the first `required` are mandatory. Keywords
  /// listed in `ignored` are accepted and dropped (performance hints).
  mlir::LogicalResult bind(llvm::ArrayRef<llvm::StringRef> params,
                           unsigned required,
                           llvm::ArrayRef<llvm::StringRef> ignored = {});
  /// True if parameter `i` was given and is not None.
  bool has(unsigned i) const {
    return values[i] && values[i]->kind != TValue::Kind::None;
  }
  /// Parameter `i` (which must have been given).
  const TValue &get(unsigned i) const { return *values[i]; }
  /// Parameter `i` as a compile-time integer.
  mlir::FailureOr<int64_t> constInt(unsigned i);
  /// Parameter `i` as a compile-time bool (or integer).
  mlir::FailureOr<bool> constBool(unsigned i);
  /// Parameter `i` as a compile-time string.
  mlir::FailureOr<std::string> constString(unsigned i);
  /// Parameter `i` as a dtype.
  mlir::FailureOr<mlir::Type> dtype(unsigned i);
  /// Parameter `i` as a run-time scalar or tile (constexpr numbers are
  /// materialised with their default type).
  mlir::FailureOr<mlir::Value> value(unsigned i);
  /// Parameter `i` as a tile (not a scalar).
  mlir::FailureOr<mlir::Value> tile(unsigned i);
  /// Parameter `i` as an axis of a tile of rank `rank` (negative axes count
  /// from the end).
  mlir::FailureOr<int64_t> axis(unsigned i, int64_t rank);
};

/// One call of a `tl.*` builtin, its arguments bound to the parameters the
/// builtin table (BuiltinTable.cpp) declares. Generators unpack it as
/// `auto &[name, qualified, bind, l, callLoc, args, varargs] = call`.
struct BuiltinCall {
  /// The builtin's name (`sum`) and its spelling in messages (`tl.sum`).
  llvm::StringRef name;
  std::string qualified;
  /// The bound arguments (unbound for builtins that bind themselves).
  Binder bind;
  mlir::Location l;
  llvm::SMLoc callLoc;
  /// The call's arguments as evaluated.
  CallArgs &args;
  /// The positional arguments after the first, for variadic builtins
  /// (none when the call has no more than one).
  std::optional<std::vector<TValue>> varargs;
};

/// Moves the positional arguments after the first `fixed` ones out of `args`
/// (the `*shape` of `tl.reshape(x, *shape)`); a single tuple or list is
/// unpacked.
std::vector<TValue> takeVarargs(CallArgs &args, size_t fixed);

/// One run-time or compile-time leaf of a (possibly structured) value, as
/// loop-carried variables and `if` merges see it.
struct Leaf {
  TValue value;
  /// The integer type this leaf must have when it is run-time (block pointer
  /// offsets are i32, extents and strides i64); null for plain variables.
  mlir::Type hint;
};

/// Generates the tile IR of one kernel.
class Generator {
public:
  /// Prepares code generation for `module`, parsed from `srcMgr`'s main
  /// buffer.
  Generator(mlir::MLIRContext &context, const ModuleAST &module,
            llvm::SourceMgr &srcMgr);

  /// Generates the module of the kernel `config` selects; null after an
  /// error (reported as a diagnostic).
  mlir::OwningOpRef<mlir::ModuleOp> generate(const KernelConfig &config,
                                             KernelInfo &info);
  /// Runs `run` with error diagnostics held back (warnings and remarks go
  /// through); returns what it returns.
  bool withErrorsHeld(llvm::function_ref<bool()> run);
  /// Runs the module-level statements and returns the kernel `config`
  /// selects, its decorators evaluated; null after an error.
  const FunctionDefAST *evaluateModule(const KernelConfig &config);
  /// Runs the kernel file's module-level statements, once (imported by its
  /// own package, they run there); false after an error.
  bool runMainModule();
  /// Imports the packages of a kernel file that lives in one, outermost
  /// first, as Python does before it runs `pkg.sub.file` (whose __init__
  /// files may import this very file, which then runs there). A package
  /// that fails to import for a reason of its own is warned about and left
  /// out: the file then runs on its own. False after an error of the kernel
  /// file itself.
  bool importMainPackages();
  /// Runs module-level statements of the current file. `kernels` (null in an
  /// imported file) collects its @triton.jit functions; the decorators of
  /// the one named `selected` (every one when empty) are evaluated.
  /// Runs a module-level `for` over a compile-time list, its body as
  /// module-level statements; false (nothing bound) if it cannot.
  bool runModuleLoop(const ForStmtAST &loop,
                     llvm::function_ref<bool(const StmtList &)> runStatements);
  bool runModuleLevel(const StmtList &statements,
                      std::vector<const FunctionDefAST *> *kernels,
                      llvm::StringRef selected);

  /// `importlib.import_module(name)` in host code: the import of `name`
  /// (absolute names only).
  mlir::FailureOr<TValue> callImportModule(CallArgs &args, llvm::SMLoc callLoc);
  /// `importlib.util.find_spec(name)` and `module_from_spec(spec)`, as host
  /// code probes for Triton's modules (`if spec := find_spec(loc): module =
  /// module_from_spec(spec); spec.loader.exec_module(module)`): a spec of
  /// each module tilec knows (isModulePath), None for the others; a spec's
  /// module, which its loader's exec_module leaves as it is.
  mlir::FailureOr<TValue> callImportSpec(llvm::StringRef name, CallArgs &args,
                                         llvm::SMLoc callLoc);

  // Imports (Imports.cpp).
  /// `import a.b as c` and `from .a import b`: binds the names.
  mlir::LogicalResult bindImport(const ImportStmtAST &stmt);
  mlir::LogicalResult bindFromImport(const FromImportStmtAST &stmt);
  /// The file module `dotted` names (relative when it starts with '.'),
  /// loaded once; null when no file has that name (a host module such as
  /// `torch`, left to its uses); failure after an error.
  mlir::FailureOr<SourceModule *> importFile(llvm::StringRef dotted,
                                             llvm::SMLoc at);
  /// Imports the module at `path` (a file, or a bare directory) under
  /// `name`, once: parses it and runs its module-level statements.
  mlir::FailureOr<SourceModule *> loadModule(llvm::StringRef path, bool package,
                                             llvm::StringRef name,
                                             llvm::SMLoc at);
  /// `m.attr` for an imported file `m`: a module-level name or a submodule.
  mlir::FailureOr<TValue> moduleAttribute(SourceModule &m, llvm::StringRef attr,
                                          llvm::SMLoc at);
  /// The value naming an imported file.
  static TValue moduleOf(SourceModule &m);
  /// The module-level names visible to the code being generated.
  Namespace &globals() { return current->globals; }

  // Locations and diagnostics.
  /// The file location of `l`.
  mlir::Location loc(llvm::SMLoc l) const;
  /// Starts an error at `l` (pending static_print remarks go first).
  mlir::InFlightDiagnostic error(llvm::SMLoc l) const;
  /// Reports warning `text` at `l` (with `note` attached when not empty),
  /// once even if the code around it is generated twice.
  void warning(llvm::SMLoc l, const std::string &text,
               const std::string &note = "");
  /// error(l) for host code that needs what tilec does not run (counted in
  /// hostUnavailable).
  mlir::InFlightDiagnostic hostError(llvm::SMLoc l) const {
    ++hostUnavailable;
    return error(l);
  }
  /// What is being generated, for diagnostics: "a kernel", or "host code"
  /// (module-level statements, decorators and the functions they call).
  llvm::StringRef whereGenerated() const {
    return hostDepth ? "host code (which tilec runs when it compiles)"
                     : "a kernel";
  }
  /// The source text of `range`.
  llvm::StringRef sourceText(llvm::SMRange range) const;

  // Expressions (Generator.cpp).
  /// Evaluates an expression.
  mlir::FailureOr<TValue> genExpr(const ExprAST &expr);
  /// Looks a name up: variables, module-level names, Python builtins.
  mlir::FailureOr<TValue> genName(const NameExprAST &expr);
  /// `value.attr`: module members, tile attributes and methods, dtype
  /// attributes, descriptor attributes.
  mlir::FailureOr<TValue> genAttribute(const AttributeExprAST &expr);
  /// Calls a builtin, a helper or a method.
  mlir::FailureOr<TValue> genCall(const CallExprAST &expr);
  /// Evaluates the arguments of a call.
  mlir::FailureOr<CallArgs> genArgs(const CallExprAST &expr);
  /// `a if c else b` (ControlFlow.cpp).
  mlir::FailureOr<TValue> genIfExp(const IfExpAST &expr);
  /// Inlines a @triton.jit helper (or, in host code, runs a Python
  /// function) and returns its `return` value.
  mlir::FailureOr<TValue> callFunction(const FunctionDefAST &fn, CallArgs &args,
                                       llvm::SMLoc callLoc);
  /// Binds the arguments of a call of `fn` (or of a lambda) to `params`.
  mlir::LogicalResult bindParams(llvm::StringRef fn,
                                 const std::vector<ParamAST> &params,
                                 CallArgs &args, llvm::SMLoc callLoc,
                                 Scope &locals);

  // Host code (HostCode.cpp): the Python around kernels, evaluated at
  // compile time (module-level statements, decorators, the functions they
  // call).
  /// `{k: v}`, `lambda ...: ...`, `[e for x in xs if c]`.
  mlir::FailureOr<TValue> genDict(const DictExprAST &expr);
  mlir::FailureOr<TValue> genLambda(const LambdaExprAST &expr);
  mlir::FailureOr<TValue> genComprehension(const ComprehensionExprAST &expr);
  /// Calls a lambda.
  mlir::FailureOr<TValue> callLambda(const TValue &lambda, CallArgs &args,
                                     llvm::SMLoc callLoc);
  /// The elements of a compile-time iterable (a tuple, list or dict).
  mlir::FailureOr<std::vector<TValue>> iterate(const TValue &v, llvm::SMLoc l);
  /// The Python builtins of host code (dict, list, tuple, filter, zip,
  /// enumerate, sorted, sum, any, all, isinstance); none if `name` is not
  /// one of them.
  std::optional<mlir::FailureOr<TValue>>
  callHostBuiltin(llvm::StringRef name, CallArgs &args, llvm::SMLoc callLoc);
  /// triton.Config, triton.autotune, triton.heuristics and
  /// triton.runtime.driver.active.get_current_target().
  mlir::FailureOr<TValue> callTritonHost(llvm::StringRef name, CallArgs &args,
                                         llvm::SMLoc callLoc);
  /// Calls an Object: an autotune or heuristics decorator applied to a
  /// function.
  mlir::FailureOr<TValue> callObject(const TValue &object, CallArgs &args,
                                     llvm::SMLoc callLoc);
  /// Attributes and methods of dicts and objects.
  mlir::FailureOr<TValue> hostAttribute(const TValue &base,
                                        llvm::StringRef attr, llvm::SMLoc l);
  /// A version read by host code (isVersionFunction): a tuple of its
  /// release numbers, or Triton's version string.
  mlir::FailureOr<TValue> callVersionFunction(llvm::StringRef name,
                                              CallArgs &args,
                                              llvm::SMLoc callLoc);
  /// Attribute `attr` of a module for getattr/hasattr: a file module's
  /// name, or what triton.language has; an error otherwise.
  mlir::FailureOr<TValue> moduleMember(const TValue &module,
                                       llvm::StringRef attr, llvm::SMLoc at);
  /// `text.name(...)`: the methods of str that host code uses.
  mlir::FailureOr<TValue> callStringMethod(llvm::StringRef text,
                                           llvm::StringRef name, Binder &bind,
                                           llvm::SMLoc callLoc);
  mlir::FailureOr<TValue> callHostMethod(const TValue &method, CallArgs &args,
                                         llvm::SMLoc callLoc);
  /// `t.stride(...)`, `t.size(...)`, `t.numel()`, `t.dim()`,
  /// `t.element_size()`, `t.is_contiguous()` on a tensor a heuristic reads.
  mlir::FailureOr<TValue> callTensorMethod(const TValue &tensor,
                                           llvm::StringRef name, Binder &bind,
                                           llvm::SMLoc callLoc);
  /// `d[key]` on a dict.
  /// Whether `v` is the placeholder of a run-time argument in a
  /// heuristic's `args` (see readingIdentity).
  static bool isRuntimeArgument(const TValue &v);
  mlir::FailureOr<TValue> dictItem(const TValue &dict, const TValue &key,
                                   llvm::SMLoc l);
  /// The value of a module-level assignment: `expr` evaluated now, or, when
  /// that fails, a deferred value whose error is reported where the name is
  /// used (a pasted file's `DEVICE = triton.runtime.driver.active...` that
  /// no kernel reads is no error).
  TValue moduleValue(const ExprAST &expr);
  /// A module-level value host code could not compute: `expr`, evaluated
  /// again (to report its error) where the name is used, with the names of
  /// the current file.
  TValue deferredValue(const ExprAST &expr) const;
  /// The value of the names `stmt`, which tilec does not run, binds or
  /// changes at module level.
  TValue hostStatementValue(const StmtAST &stmt) const;
  /// Runs a module-level call of a Python function of the file or of one it
  /// imports (`configure("fast")`), for what it does to module globals.
  /// When tilec cannot run it, the names it declares `global` become
  /// hostStatementValue(stmt) in its module (using them is an error), and it
  /// returns false.
  bool runModuleCall(const ExprStmtAST &stmt);
  /// Binds every module-level name `stmt` binds or changes to
  /// hostStatementValue(stmt).
  void skipHostStatement(const StmtAST &stmt);
  /// The value of a deferred module-level name, used at `use`.
  mlir::FailureOr<TValue>
  evaluateDeferred(const TValue &value, llvm::StringRef name, llvm::SMLoc use);
  /// Evaluates the decorators of kernel `fn` other than @triton.jit.
  mlir::LogicalResult evaluateDecorators(const FunctionDefAST &fn);
  /// Binds the constexprs @triton.heuristics computes for `fn` that the
  /// configuration does not give, once the other parameters are bound.
  mlir::LogicalResult applyHeuristics(const FunctionDefAST &fn,
                                      const KernelConfig &config);
  /// Runs the pre_hook of the @triton.autotune configuration of `fn` being
  /// compiled (the one whose kwargs the bound constexprs match, else the
  /// hook every configuration shares), once the constexprs are bound, with
  /// `nargs` holding them and, for each tensor-descriptor parameter named
  /// in `blocks`, a TensorDescriptor whose `block_shape` (initially its
  /// block in `blocks`) the hook may set; `blocks` gets what it set.
  /// Returns whether a hook ran.
  mlir::FailureOr<bool> applyPreHook(
      const FunctionDefAST &fn,
      std::vector<std::pair<std::string, std::vector<int64_t>>> &blocks);
  /// What the decorators of `fn` say, for KernelTuning.
  KernelTuning tuningOf(const FunctionDefAST &fn);

  // Operators and conversions (Operators.cpp).
  /// A binary operator (folded on compile-time numbers).
  mlir::FailureOr<TValue> genBinary(BinaryOp op, TValue lhs, TValue rhs,
                                    llvm::SMLoc opLoc);
  /// `x / y` on floats as Triton's `/` divides: `arith.divf` marked `afn`,
  /// which the lowering computes within 2 ulp in fp32 (`div.full.f32`);
  /// tl.div_rn is an unmarked (correctly rounded) `arith.divf`.
  mlir::Value approximateDivide(mlir::Location loc, mlir::Value x,
                                mlir::Value y);
  /// `lhs ** rhs` on run-time values.
  mlir::FailureOr<TValue> genPow(const TValue &lhs, const TValue &rhs,
                                 llvm::SMLoc opLoc);
  /// A unary operator.
  mlir::FailureOr<TValue> genUnary(UnaryOp op, TValue operand,
                                   llvm::SMLoc opLoc);
  /// Python's order of two compile-time numbers, strings or tuples of them
  /// (-1, 0, 1); std::nullopt if they do not compare.
  std::optional<int> compareConstants(const TValue &a, const TValue &b);
  /// Materialises a run-time value; constexpr numbers become constants of
  /// their default type (i32/i64, f32/f64, i1).
  mlir::FailureOr<mlir::Value> toValue(const TValue &v, llvm::SMLoc l);
  /// Materialises `v` as a value of element type `elem` (unsigned integers
  /// if `toUnsigned`), broadcast to the shape of `like` if `like` is a tile.
  mlir::FailureOr<mlir::Value> toValueOfType(const TValue &v, mlir::Type elem,
                                             mlir::Type like, llvm::SMLoc l,
                                             bool toUnsigned = false);
  /// A value stored through (or loaded as `other` from) a pointer of `elem`
  /// as Triton converts it: a float constant for an integer pointer becomes
  /// the integer toward zero (`tl.store(int_ptr, 0.0)`); others unchanged.
  static TValue storedConstant(const TValue &v, mlir::Type elem);
  /// A constant of element type `elem` (a splat tile if `like` is a tile).
  mlir::Value constant(double v, mlir::Type elem, mlir::Type like,
                       mlir::Location l);
  /// Converts `v` (scalar or tile) to element type `to`, Triton style.
  /// `rtz` selects round-toward-zero for float truncations; `fromUnsigned`
  /// and `toUnsigned` give the integers' signedness (zero extension,
  /// uitofp, fptoui).
  mlir::Value cast(mlir::Value v, mlir::Type to, mlir::Location l,
                   bool rtz = false, bool fromUnsigned = false,
                   bool toUnsigned = false);
  /// The element type two operands are promoted to (Triton's rules, see
  /// docs/language.md), and in `isUnsigned` whether its integers are
  /// unsigned; null after an error.
  mlir::Type promote(const TValue &lhs, const TValue &rhs, bool divOrMod,
                     llvm::SMLoc l, llvm::StringRef what, bool &isUnsigned);
  /// Promotes and broadcasts two arithmetic operands; `what` names the
  /// operation in diagnostics. `isUnsigned` (if given) receives the
  /// signedness of the promoted integers.
  mlir::LogicalResult binaryOperands(TValue lhs, TValue rhs, bool divOrMod,
                                     llvm::SMLoc l, llvm::StringRef what,
                                     mlir::Value &x, mlir::Value &y,
                                     bool *isUnsigned = nullptr);
  /// True if `v` holds unsigned integers: a run-time value or dtype marked
  /// so, or an integer constant in [2**31, 2**32), which Triton types uint32.
  static bool unsignedOf(const TValue &v);
  /// Converts `v` to an i1 truth value (`!= 0` for numbers).
  mlir::FailureOr<mlir::Value> toBool(const TValue &v, llvm::SMLoc l);
  /// Truthiness of a compile-time value.
  mlir::FailureOr<bool> constTruth(const TValue &v, llvm::SMLoc l);
  /// The default run-time type of a constexpr number (i32/i64, f32/f64, i1;
  /// i32 for the unsigned constants of unsignedOf).
  mlir::Type defaultType(const TValue &v);

  // Shapes (Shapes.cpp).
  /// The broadcast of two shapes, numpy style; null after an error.
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                  llvm::SMLoc l, llvm::StringRef what);
  /// Broadcasts a scalar or tile to `shape`, numpy style.
  mlir::FailureOr<mlir::Value>
  broadcastTo(mlir::Value v, llvm::ArrayRef<int64_t> shape, llvm::SMLoc l);
  /// Materialises `args` and broadcasts them to one shape, numpy style:
  /// `shape` receives it and `anyTile` whether any was a tile (if none, the
  /// values stay scalars). `what` names them in diagnostics.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  broadcastTogether(llvm::ArrayRef<TValue> args, llvm::SMLoc l,
                    llvm::StringRef what, llvm::SmallVectorImpl<int64_t> &shape,
                    bool &anyTile);
  /// Inserts a dimension of size 1 at `axis` (a scalar becomes a [1] tile).
  mlir::Value expandDims(mlir::Value v, int64_t axis, mlir::Location l);
  /// Reshapes a tile (a scalar is splat first).
  mlir::Value reshape(mlir::Value v, llvm::ArrayRef<int64_t> shape,
                      mlir::Location l);
  /// Checks that `shape` can be a tile shape: powers of two, not too large.
  mlir::LogicalResult checkTileShape(llvm::ArrayRef<int64_t> shape,
                                     llvm::SMLoc l);
  /// Converts a shape argument (tuple/list of constexpr ints or one int).
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  toShape(const TValue &v, llvm::SMLoc l, llvm::StringRef what);
  /// `x[:, None]` on tiles, `t[i]` / `t[a:b]` on tuples.
  mlir::FailureOr<TValue> genSubscript(const SubscriptExprAST &expr);
  /// The shape builtins: tl.zeros and tl.full, tl.zeros_like and
  /// tl.full_like, tl.reshape/view/ravel, tl.trans/permute, tl.expand_dims,
  /// tl.broadcast_to, tl.broadcast.
  mlir::FailureOr<TValue> builtinZeros(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinZerosLike(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinReshape(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinTrans(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinExpandDims(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinBroadcastTo(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinBroadcast(BuiltinCall &call);
  /// tl.join and tl.interleave, tl.split: pairs along a new last axis of
  /// size 2, built by selection and taken apart by exact integer sums.
  mlir::FailureOr<mlir::Value> join(const TValue &a, const TValue &b,
                                    llvm::SMLoc l, llvm::StringRef what);
  mlir::FailureOr<TValue> builtinJoin(BuiltinCall &call);
  /// `x[..., which, ...]`: the tile without its dimension `axis`
  /// (tile::buildSliceAlong).
  mlir::Value sliceAlong(mlir::Value x, int64_t axis, int64_t which,
                         llvm::SMLoc l);
  mlir::FailureOr<TValue> builtinSplit(BuiltinCall &call);
  /// tl.flip: the dimension reshaped to [2, ..., 2] and each pair swapped
  /// by xor (exact for every type); tl.cat of two 1-D tiles, in order.
  mlir::FailureOr<TValue> builtinFlip(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinCat(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinGather(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinInlineAsm(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinMapElementwise(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinHistogram(BuiltinCall &call);
  /// tl.sort along the last dimension: a bitonic network of
  /// compare-and-swaps, each finding its partner as tl.flip does; and
  /// tl.bitonic_merge, its last stage.
  mlir::FailureOr<TValue> builtinSort(BuiltinCall &call);
  /// tl.topk: the k largest along the last dimension, largest first (the
  /// first k of a descending sort).
  mlir::FailureOr<TValue> builtinTopk(BuiltinCall &call);
  /// `x` (a tile of integers, unsigned if `isUnsigned`, or floats) sorted
  /// along its last dimension (by its last merge stage alone with
  /// `mergeOnly`: a bitonic `x`); with `keep` (a power of two), only the
  /// `keep` largest, in order (`descending` for largest first).
  mlir::Value sortLastDim(mlir::Value x, bool descending, bool isUnsigned,
                          llvm::SMLoc l, bool mergeOnly = false,
                          int64_t keep = 0);

  // tl.* builtins (Builtins.cpp).
  /// Calls `tl.<name>` through the builtin table (BuiltinTable.cpp).
  /// `asMethod`: called as a tile method, which may name a method-only row
  /// (`x.to(...)`). `spelled`: the callee as the source writes it
  /// (`tl.math.foo`), for the error when there is no such builtin.
  mlir::FailureOr<TValue> callBuiltin(llvm::StringRef name, CallArgs &args,
                                      llvm::SMLoc callLoc,
                                      bool asMethod = false,
                                      llvm::StringRef spelled = {});
  /// Calls a bound method: tile methods, dtype predicates, descriptor and
  /// block pointer methods.
  mlir::FailureOr<TValue> callMethod(const TValue &method, CallArgs &args,
                                     llvm::SMLoc callLoc);
  /// Random numbers (Random.cpp): Philox on counters `c` keyed by the seed
  /// at `seedAt`; randint4x on the (seed, offset, n_rounds) of `bind`; a
  /// random word as a uniform fp32 in [0, 1); Box-Muller on two uniforms.
  mlir::FailureOr<std::array<mlir::Value, 4>>
  philox(Binder &bind, unsigned seedAt, std::array<mlir::Value, 4> c,
         int64_t rounds, llvm::SMLoc callLoc);
  mlir::FailureOr<std::array<mlir::Value, 4>> randint4x(Binder &bind,
                                                        llvm::SMLoc callLoc);
  mlir::Value uniformFloat(mlir::Value x, mlir::Location l);
  std::pair<mlir::Value, mlir::Value>
  uniformToNormal(mlir::Value u1, mlir::Value u2, mlir::Location l);
  mlir::FailureOr<TValue> builtinRandom(BuiltinCall &call);
  /// tl.add, tl.sub, tl.mul, tl.to_tensor, x.item(), tl.swizzle2d
  /// (Operators.cpp).
  mlir::FailureOr<TValue> builtinArithmetic(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinToTensor(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinItem(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinSwizzle2d(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinUmulhi(BuiltinCall &call);
  /// Calls a function of `triton.language.extra.libdevice` (Math.cpp).
  mlir::FailureOr<TValue> callLibdevice(llvm::StringRef name, CallArgs &args,
                                        llvm::SMLoc callLoc);
  /// triton.next_power_of_2 of a compile-time integer; torch.finfo and
  /// torch.iinfo of a dtype, and their attributes (min, max, eps, tiny,
  /// bits).
  /// The attribute `attr` of the module `module` names: a file's (through
  /// moduleMember), triton.language's, or one of a module tilec models
  /// itself (Python's standard modules, torch, triton).
  mlir::FailureOr<TValue> namedModuleAttribute(const TValue &module,
                                               llvm::StringRef attr,
                                               llvm::SMLoc l);
  /// The attribute `attr` of `module` if it has one, without diagnostics
  /// (`hasattr`, `from M import NAME`); triton.language's names and a
  /// file's are looked up strictly (moduleMember), where reading one is
  /// lenient (a kernel naming an unknown tl function fails where it calls
  /// it).
  std::optional<TValue> findModuleAttribute(const TValue &module,
                                            llvm::StringRef attr,
                                            llvm::SMLoc l);
  /// Python's `math.NAME` (a constant, or a function to callPythonMath),
  /// or an error.
  mlir::FailureOr<TValue> pythonMathMember(llvm::StringRef name, llvm::SMLoc l);
  /// Calls Python's `re.NAME` (search, match, fullmatch, sub, findall) on
  /// compile-time strings; a match is an object of class `re.Match`.
  mlir::FailureOr<TValue> callPythonRegex(llvm::StringRef name, CallArgs &args,
                                          llvm::SMLoc l);
  /// Calls Python's `math.NAME` on compile-time numbers.
  mlir::FailureOr<TValue> callPythonMath(llvm::StringRef name, CallArgs &args,
                                         llvm::SMLoc l);
  mlir::FailureOr<TValue> nextPowerOf2(CallArgs &args, llvm::SMLoc l);
  mlir::FailureOr<TValue> typeInfo(llvm::StringRef name, CallArgs &args,
                                   llvm::SMLoc l);
  mlir::FailureOr<TValue>
  typeInfoAttribute(const TValue &info, llvm::StringRef attr, llvm::SMLoc l);
  /// Calls a Python builtin (min, max, float, len...).
  mlir::FailureOr<TValue>
  callPythonBuiltin(llvm::StringRef name, CallArgs &args, llvm::SMLoc callLoc);
  /// The builtins of Builtins.cpp: program ids and ranges, memory,
  /// selection, conversions and compile-time helpers.
  mlir::FailureOr<TValue> builtinProgramId(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinArange(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinLoopIterable(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinLoad(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinStore(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinAtomic(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinAtomicCas(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinDebugBarrier(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinGridDependency(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinDevicePrint(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinDeviceAssert(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinWhere(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinMaximum(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinClamp(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinCast(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinCdiv(BuiltinCall &call);
  /// triton.language.standard's compile-time helpers of an integer:
  /// _log2 (floor of the base-2 logarithm, 0 below 2) and _is_power_of_two.
  mlir::FailureOr<TValue> builtinStandardIntHelper(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinConstexpr(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinConstexprFunction(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinGetIntDtype(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinStaticAssert(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinAssume(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinStaticPrint(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinMultipleOf(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinPointerType(BuiltinCall &call);
  /// tl.where with promotion and broadcasting of all three operands.
  mlir::FailureOr<TValue> genWhere(const TValue &cond, const TValue &a,
                                   const TValue &b, llvm::SMLoc l);
  /// tl.maximum / tl.minimum.
  mlir::FailureOr<TValue> genMinMax(bool isMax, const TValue &a,
                                    const TValue &b, bool propagateNan,
                                    llvm::SMLoc l);
  /// `.to()` and tl.cast to the dtype `to`; `rounding` is "", "rtne" or
  /// "rtz".
  mlir::FailureOr<TValue> genCast(const TValue &v, const TValue &to,
                                  bool bitcast, llvm::StringRef rounding,
                                  llvm::SMLoc l);
  /// `.to()` between pointers and 64-bit integers, and between pointer
  /// types.
  mlir::FailureOr<TValue> castPointer(const TValue &v, const TValue &to,
                                      llvm::SMLoc l);
  /// Maps a dtype name (`float32`, `fp32`, `int1`, `bfloat16`...) to its type.
  mlir::Type parseDType(llvm::StringRef name) const;
  /// The dtype `name` names (`uint8` is i8, unsigned); None if no dtype has
  /// that name.
  TValue dtypeNamed(llvm::StringRef name) const;

  // Math (Math.cpp).
  /// tl.exp, tl.log, tl.sqrt... (one generator for the unary functions),
  /// tl.abs, tl.sigmoid, tl.fma, tl.div_rn/fdiv, tl.pow, tl.softmax.
  mlir::FailureOr<TValue> builtinUnaryMath(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinAbs(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinSigmoid(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinFma(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinDivRn(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinPow(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinSoftmax(BuiltinCall &call);

  // Reductions, scans and dot products (Reductions.cpp).
  /// tl.sum, tl.max/min, tl.argmax/argmin, tl.cumsum, tl.dot.
  mlir::FailureOr<TValue> builtinSum(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinMax(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinArgmax(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinCumsum(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinDot(BuiltinCall &call);
  /// tl.dot_scaled: microscaled operands decoded and scaled, then tile.dot
  /// (DotScaled.cpp).
  mlir::FailureOr<TValue> builtinDotScaled(BuiltinCall &call);
  /// tl.reduce and tl.associative_scan with a @triton.jit combine function;
  /// tl.xor_sum and tl.reduce_or, whose combination is one operator.
  mlir::FailureOr<TValue> builtinCombine(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinBitwiseReduce(BuiltinCall &call);
  /// Generates the body of a combine region from its arguments (two partial
  /// results, one scalar per operand each) and returns what it yields.
  using CombineBodyFn =
      llvm::function_ref<mlir::FailureOr<llvm::SmallVector<mlir::Value>>(
          mlir::ValueRange args)>;
  /// A tile.combine_reduce (`isScan` false; `axis` none reduces every
  /// element) or tile.combine_scan of the tiles `xs` along `axis`, its
  /// region generated by `body`.
  mlir::FailureOr<TValue> combine(bool isScan, llvm::ArrayRef<mlir::Value> xs,
                                  std::optional<int64_t> axis, bool keepDims,
                                  bool reverse, CombineBodyFn body,
                                  llvm::SMLoc l);
  /// Reduces `x` along `axis` (all axes when none) with the tile::ReduceKind
  /// `kind`, in Triton's accumulation type; `isUnsigned`: `x` holds unsigned
  /// integers.
  mlir::FailureOr<TValue> reduce(mlir::Value x, std::optional<int64_t> axis,
                                 bool keepDims, int kind, llvm::SMLoc l,
                                 bool isUnsigned = false);

  // Block pointers and tensor descriptors (BlockPointers.cpp).
  /// tl.make_block_ptr, tl.advance, tl.make_tensor_descriptor,
  /// tl.load_tensor_descriptor and tl.store_tensor_descriptor.
  mlir::FailureOr<TValue> builtinMakeBlockPtr(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinAdvance(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinMakeTensorDescriptor(BuiltinCall &call);
  mlir::FailureOr<TValue> builtinLoadTensorDescriptor(BuiltinCall &call);
  /// tl.load / tl.store through a block pointer (`bind` holds the bound
  /// arguments of tl.load / tl.store).
  mlir::FailureOr<TValue> loadBlock(const TValue &ptr, Binder &bind,
                                    llvm::SMLoc callLoc);
  mlir::FailureOr<TValue> storeBlock(const TValue &ptr, Binder &bind,
                                     llvm::SMLoc callLoc);
  /// desc.load / desc.store.
  mlir::FailureOr<TValue> callDescriptorMethod(const TValue &desc,
                                               llvm::StringRef name,
                                               CallArgs &args,
                                               llvm::SMLoc callLoc);
  /// The index of the kernel argument `v` is, unless it is none or its
  /// ':16' hint makes it a multiple of `implied` (then the runtime checks
  /// it already).
  std::optional<unsigned> kernelArgument(mlir::Value v, int64_t implied) const;
  /// Records a launch requirement (once).
  void addRequirement(const LaunchRequirement &requirement);
  /// desc.dtype, desc.block_shape, desc.shape, desc.strides and methods.
  mlir::FailureOr<TValue>
  descriptorAttribute(const TValue &desc, llvm::StringRef attr, llvm::SMLoc l);

  // Statements (Statements.cpp).
  /// Generates statements, stopping after a `return`.
  mlir::LogicalResult genBlock(const StmtList &body, size_t start = 0);
  /// `if cond: ...; return` with a run-time `cond`: an scf.if whose `else`
  /// holds the rest of the function (`body` from `next`, then the enclosing
  /// blocks' continuations).
  mlir::LogicalResult genEarlyExit(const IfStmtAST &stmt, const TValue &cond,
                                   const StmtList &body, size_t next);
  /// Generates one statement.
  mlir::LogicalResult genStmt(const StmtAST &stmt);
  /// Runs `try`/`except`/`else`/`finally` as Python does, `run` running a
  /// block (false when it fails): the body with its errors held; if it
  /// fails, the first handler (the exception's class is not checked);
  /// `else` when the body completed; `finally` always. False when a clause
  /// fails, or the body fails with no handler (its errors shown then).
  bool runTry(const UnsupportedStmtAST &stmt,
              llvm::function_ref<bool(const StmtList &)> run);
  /// Assigns to a name or unpacks into a tuple of names.
  mlir::LogicalResult assign(const ExprAST &target, const TValue &value);
  /// `xs.append(v)`, `xs.extend(ys)`, `xs.insert(i, v)` as a statement, on
  /// a name holding a list (tilec's lists are values): the name and the
  /// list it holds after the call; std::nullopt if `expr` is no such call.
  std::optional<mlir::FailureOr<std::pair<std::string, TValue>>>
  listMutation(const ExprAST &expr);
  /// Binds `name` in the current scope.
  void define(llvm::StringRef name, const TValue &value, llvm::SMLoc l);

  // Control flow (ControlFlow.cpp).
  /// `if`, `for` and `while` statements.
  mlir::LogicalResult genIf(const IfStmtAST &stmt);
  mlir::LogicalResult genFor(const ForStmtAST &stmt);
  mlir::LogicalResult genWhile(const WhileStmtAST &stmt);
  /// The leaves of a value, in a fixed order.
  void flatten(const TValue &v, llvm::SmallVectorImpl<Leaf> &leaves,
               mlir::Type hint = {});
  /// Rebuilds a value like `shape` from leaves, starting at `pos`.
  TValue unflatten(const TValue &shape, llvm::ArrayRef<TValue> leaves,
                   size_t &pos);
  /// The value of `ifOp` (an scf.if without results) whose branches give
  /// `a` and `b`, merged as a variable assigned in both branches of an `if`
  /// is: leaves that differ become results of the `if`, which replaces
  /// `ifOp`. Failure (nothing reported) when they cannot merge.
  mlir::FailureOr<TValue> mergeBranchValues(mlir::scf::IfOp &ifOp,
                                            const TValue &a, const TValue &b,
                                            llvm::SMLoc l);

  /// Builds the IR.
  mlir::OpBuilder builder;
  /// The sources, for locations; imported files are added to it.
  llvm::SourceMgr &srcMgr;
  /// Variables of the function being generated (helpers get their own).
  Scope *scope = nullptr;
  /// The kernel's file, and the files it imports by path.
  SourceModule mainModule;
  /// The kernel file's real path (the key importedModules would give it).
  std::string mainKey;
  /// The kernel file's statements have started to run, and failed.
  bool mainStarted = false, mainFailed = false;
  /// Where the kernel file's @triton.jit functions are collected, and the
  /// one whose decorators are evaluated (see runModuleLevel).
  std::vector<const FunctionDefAST *> *mainKernels = nullptr;
  std::string mainSelected;
  /// The directory above the kernel file's outermost package (its
  /// directory has an __init__ file), where absolute imports look too;
  /// empty for a file outside packages.
  std::string packageRoot;
  std::map<std::string, std::unique_ptr<SourceModule>> importedModules;
  /// Files whose import failed (values may still point at them).
  std::vector<std::unique_ptr<SourceModule>> failedModules;
  /// The file whose module-level names are visible: the kernel's, or that
  /// of the function being generated.
  SourceModule *current = &mainModule;
  /// The file each function is defined in.
  std::map<const FunctionDefAST *, SourceModule *> homes;
  /// The @triton.jit functions, decorated or made by `f = triton.jit(f)`.
  llvm::SmallPtrSet<const FunctionDefAST *, 8> jitted;
  /// Python functions kernels may call at compile time: decorated with
  /// @tl.constexpr_function (or @tl.constexpr, which wraps one the same way).
  llvm::SmallPtrSet<const FunctionDefAST *, 8> constexprFunctions;
  /// What @triton.autotune and @triton.heuristics (decorators or
  /// `f = triton.heuristics(...)(f)`) attached to a function: Objects of
  /// class triton.autotune and triton.heuristics, innermost first.
  std::map<const FunctionDefAST *, std::vector<TValue>> decorations;
  /// Nonzero while host code runs: module-level statements, decorators and
  /// the Python functions they call (which kernels may not call).
  unsigned hostDepth = 0;
  /// Python functions (not @triton.jit ones) host code is running.
  unsigned hostCallDepth = 0;
  /// Errors saying that host code needs what tilec does not run (a host
  /// module's function, torch at run time, a value a skipped statement
  /// sets), or raised inside a Python function host code called. A
  /// @triton.autotune or @triton.heuristics whose arguments fail so is
  /// skipped with a warning rather than failing the compilation.
  mutable unsigned hostUnavailable = 0;
  /// The deferred module-level expressions being evaluated (one that names
  /// itself is an error, not a recursion without end).
  llvm::SmallPtrSet<const ExprAST *, 4> evaluatingDeferred;
  /// Comprehensions being evaluated (a range of constants is a list there).
  unsigned comprehensionDepth = 0;
  /// The constexpr a @triton.heuristics function is computing (for
  /// diagnostics); empty outside one.
  std::string heuristicName;
  /// The run-time arguments whose launch values (KernelConfig::
  /// runtimeValues) the heuristics read, by name.
  std::set<std::string> heuristicReads;
  /// Set while a subscript operand of `is` / `is not` is generated: a
  /// run-time argument read from a heuristic's `args` is then its
  /// placeholder, which is never None (a None argument is None in the
  /// signature), instead of an error: `args["bias"] is not None`.
  bool readingIdentity = false;
  /// Set by evaluateHeuristics: generate() stops after the heuristics and
  /// leaves their values here.
  HeuristicValues *heuristicsOnly = nullptr;
  /// The target (KernelConfig::target), for get_current_target().
  std::string target;
  /// Value of a `return` statement of the helper being inlined.
  std::optional<TValue> returnValue;
  /// The statements that follow each statement being generated, innermost
  /// last, from continuationBase on in the current function or early exit.
  std::vector<std::pair<const StmtList *, size_t>> continuations;
  size_t continuationBase = 0;
  /// The region depth of the `else` branch of the innermost early exit, in
  /// which a bare `return` ends the function; -1 outside one.
  int earlyExitDepth = -1;
  /// Helper call depth, to reject runaway recursion.
  unsigned callDepth = 0;
  /// Helper calls inlined and tl.static_range iterations unrolled so far,
  /// to reject inputs that would generate unbounded amounts of IR.
  unsigned expansions = 0;
  /// Run-time `if`s and loops around the statement being generated, in the
  /// current function (`return` is only allowed outside of them).
  unsigned regionDepth = 0;
  /// The innermost loop statement (for `break`/`continue` diagnostics).
  const StmtAST *innermostLoop = nullptr;
  /// tl.static_print output not reported yet: a loop may be generated twice
  /// (see ControlFlow.cpp), so remarks are reported when code generation ends
  /// or before the next error.
  mutable std::vector<std::pair<mlir::Location, std::string>> remarks;
  /// Reports the pending remarks.
  void flushRemarks() const;
  /// Warnings reported so far (location and text).
  std::set<std::pair<const char *, std::string>> warned;
  /// Whether fp32 dots that use tf32 without asking get a warning.
  bool warnImplicitTf32 = true;
  /// KernelConfig::debug: whether tl.device_assert generates checks.
  bool debug = false;
  /// What tl.make_block_ptr gets: a warning, nothing, or an error.
  BlockPtrPolicy blockPtrPolicy = BlockPtrPolicy::Warn;
  /// Launch requirements found so far (KernelInfo::requirements).
  std::vector<LaunchRequirement> requirements;

private:
  const ModuleAST &moduleAST;
  mlir::MLIRContext &context;
  mlir::StringAttr fileName;
  /// Where module-level expressions put the operations they create (only
  /// to be rejected as not constant).
  mlir::OwningOpRef<mlir::ModuleOp> scratch;
};

/// Marks what is generated while it lives as host code (Generator::hostDepth).
class HostCode {
public:
  explicit HostCode(Generator &gen) : gen(gen) { ++gen.hostDepth; }
  ~HostCode() { --gen.hostDepth; }
  HostCode(const HostCode &) = delete;
  HostCode &operator=(const HostCode &) = delete;

private:
  Generator &gen;
};

/// The most helper calls plus tl.static_range iterations one kernel may
/// expand into.
constexpr unsigned maxExpansions = 1 << 16;

/// True for the modules of triton.language a kernel may name.
bool isModulePath(llvm::StringRef path);
/// The value naming libdevice function `name`, if tilec has it (abs is
/// tilec's own tl.abs).
std::optional<TValue> libdeviceBuiltin(llvm::StringRef name);
/// The error for `path`, a name the libdevice module does not have.
mlir::LogicalResult libdeviceError(Generator &gen, llvm::StringRef path,
                                   llvm::SMLoc at);
/// What a use of host module `path` (no file of that name was found) adds
/// to its diagnostic: where tilec looked.
std::string missingModuleHint(llvm::StringRef path);

/// The parameters, in order, of Triton's host function `triton.<name>`
/// tilec reads (Config, autotune, heuristics): what their calls bind and
/// what `inspect.signature` of one lists. Empty for any other name.
llvm::ArrayRef<llvm::StringRef> tritonHostParameters(llvm::StringRef name);
/// The absolute directory of the file `path` names.
std::string directoryOf(llvm::StringRef path);
/// Loads the dialects generated code uses.
void loadGeneratorDialects(mlir::MLIRContext &context);
/// True if `decorator` is `triton.jit`, `jit` or a call of either.
bool isJitDecorator(const ExprAST &decorator);
/// True if `decorator` is `constexpr_function` or `constexpr` (of triton or
/// triton.language), which make a Python function callable in kernels.
bool isConstexprFunctionDecorator(const ExprAST &decorator);
/// True if `annotation` is `tl.constexpr` (or `constexpr`).
bool isConstexprAnnotation(const ExprAST *annotation);

/// Prints `[a, b, c]` into a string.
std::string shapeString(llvm::ArrayRef<int64_t> shape);
/// A type as diagnostics print it (`f32`, `pointer<fp16>`), without quotes;
/// `u32` for an unsigned integer type.
std::string typeName(mlir::Type t, bool isUnsigned = false);
/// The text `-D` takes for a constexpr value of a configuration; none for
/// values a constexpr cannot have.
std::optional<std::string> defineText(const TValue &v);
/// Parses the text of a -D value as a compile-time value; std::nullopt if
/// it is none.
std::optional<TValue> parseDefine(Generator &gen, llvm::StringRef text);
/// True if integers of `elem` (the innermost pointee of a pointer) compare,
/// divide, shift and extend as unsigned: an unsigned value, or i1 (Triton's
/// int1 is unsigned).
bool isUnsignedInt(mlir::Type elem, bool isUnsigned);
/// The element type of a pointer or tile of pointers; null for other values.
mlir::Type pointeeOf(const TValue &v);
/// True for the tl.* functions that are also methods of tiles (`x.sum(0)`),
/// as the builtin table says.
bool isTileMethod(llvm::StringRef name);
/// True if the builtin table has `name` ("debug_barrier",
/// "extra.cuda.gdc_wait").
bool isBuiltin(llvm::StringRef name);
/// True for the host functions that read versions: packaging.version.parse
/// and Version, importlib.metadata.version.
bool isVersionFunction(llvm::StringRef path);

/// packaging's version class; the versions host code reads carry it in
/// their `s` (TValue::s) so that isinstance tells them from other tuples.
inline constexpr llvm::StringLiteral kVersionClass =
    "packaging.version.Version";
/// Python's str() of a compile-time string, number, bool or None.
std::optional<std::string> pythonStr(const TValue &v);

} // namespace tilec

#endif // TILEC_LIB_MLIRGEN_GENERATOR_H
