//===- Generator.cpp - Kernel selection, expressions, calls -----*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// The entry point of code generation: reads the module's imports and
// functions, picks the kernel, binds its parameters from the signature and
// the -D constexprs, and generates its body. Also expression evaluation
// (names, attributes, calls) and the inlining of @triton.jit helpers.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"

#include "tilec/Dialect/Tile/IR/TargetInfo.h"

#include "tilec/Dialect/Tile/IR/DTypes.h"
#include "tilec/Dialect/Tile/IR/DialectAttrs.h"
#include "tilec/Dialect/Tile/IR/Libdevice.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SaveAndRestore.h"

#include <cmath>
#include <cstdlib>
#include <functional>

extern char **environ;

using namespace mlir;
using namespace tilec;

//===----------------------------------------------------------------------===//
// Generator
//===----------------------------------------------------------------------===//

Generator::Generator(MLIRContext &context, const ModuleAST &module,
                     llvm::SourceMgr &srcMgr)
    : builder(&context), srcMgr(srcMgr), moduleAST(module), context(context) {
  const llvm::MemoryBuffer *buffer =
      srcMgr.getMemoryBuffer(srcMgr.getMainFileID());
  fileName = builder.getStringAttr(buffer->getBufferIdentifier());
  mainModule.dir = directoryOf(buffer->getBufferIdentifier());
  llvm::SmallString<256> key;
  if (llvm::sys::fs::real_path(buffer->getBufferIdentifier(), key))
    key = buffer->getBufferIdentifier();
  mainKey = key.str().str();
}

Location Generator::loc(llvm::SMLoc l) const {
  if (!l.isValid())
    return FileLineColLoc::get(fileName, 0, 0);
  unsigned id = srcMgr.FindBufferContainingLoc(l);
  auto [line, col] = srcMgr.getLineAndColumn(l, id);
  StringAttr file =
      id == srcMgr.getMainFileID() || id == 0
          ? fileName
          : StringAttr::get(&context,
                            srcMgr.getMemoryBuffer(id)->getBufferIdentifier());
  return FileLineColLoc::get(file, line, col);
}

InFlightDiagnostic Generator::error(llvm::SMLoc l) const {
  if (hostCallDepth)
    ++hostUnavailable;
  flushRemarks();
  return mlir::emitError(loc(l));
}

void Generator::warning(llvm::SMLoc l, const std::string &text,
                        const std::string &note) {
  if (!warned.insert({l.getPointer(), text}).second)
    return;
  InFlightDiagnostic diag = mlir::emitWarning(loc(l)) << text;
  if (!note.empty())
    diag.attachNote(loc(l)) << note;
}

llvm::StringRef Generator::sourceText(llvm::SMRange range) const {
  return llvm::StringRef(range.Start.getPointer(),
                         range.End.getPointer() - range.Start.getPointer());
}

void Generator::flushRemarks() const {
  for (const auto &[location, text] : remarks)
    mlir::emitRemark(location) << text;
  remarks.clear();
}

std::string tilec::shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

std::string tilec::typeName(Type t, bool isUnsigned) {
  if (auto ptr = dyn_cast<tile::PtrType>(t))
    return "pointer<" + typeName(ptr.getPointeeType(), isUnsigned) + ">";
  std::string name = tile::getTypeName(t);
  if (isUnsigned && t.isInteger() && !t.isInteger(1))
    name[0] = 'u';
  return name;
}

bool tilec::isUnsignedInt(Type elem, bool isUnsigned) {
  while (auto ptr = dyn_cast<tile::PtrType>(elem))
    elem = ptr.getPointeeType();
  return elem.isInteger(1) || (isUnsigned && elem.isInteger());
}

Type BlockPointer::elementType() const {
  return llvm::cast<tile::PtrType>(base.getType()).getPointeeType();
}

std::string TValue::describe() const {
  switch (kind) {
  case Kind::Value: {
    if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
      return "a tile of " + typeName(tensor.getElementType(), isUnsigned) +
             " " + shapeString(tensor.getShape());
    return "a scalar of " + typeName(value.getType(), isUnsigned);
  }
  case Kind::Int:
    return "the integer " + std::to_string(i);
  case Kind::Float:
    return "a float constant";
  case Kind::Bool:
    return i ? "True" : "False";
  case Kind::None:
    return "None";
  case Kind::String:
    return "the string '" + s + "'";
  case Kind::DType:
    return "the dtype " + typeName(type, isUnsigned);
  case Kind::Module:
    return "the module '" + s + "'";
  case Kind::Function:
    return "the function '" + function->getName().str() + "'";
  case Kind::Tuple:
    return "a tuple of " + std::to_string(elements.size()) +
           (elements.size() == 1 ? " value" : " values");
  case Kind::Builtin:
    return "the builtin '" + s + "'";
  case Kind::Method:
    return "the method '" + s + "'";
  case Kind::BlockPtr:
    return "a block pointer of " + typeName(pointer->elementType()) + " " +
           shapeString(pointer->blockShape);
  case Kind::TensorDesc:
    return "a tensor descriptor of " + typeName(pointer->elementType()) + " " +
           shapeString(pointer->blockShape);
  case Kind::Dict:
    return "a dict of " + std::to_string(elements.size()) + " items";
  case Kind::Object:
    return "a " + s + " object";
  case Kind::Lambda:
    return "a lambda";
  }
  return "a value";
}

bool TValue::sameAs(const TValue &other) const {
  if (kind != other.kind)
    return false;
  auto sameList = [](const std::vector<TValue> &a,
                     const std::vector<TValue> &b) {
    if (a.size() != b.size())
      return false;
    for (auto [x, y] : llvm::zip_equal(a, b))
      if (!x.sameAs(y))
        return false;
    return true;
  };
  switch (kind) {
  case Kind::Value:
    return value == other.value;
  case Kind::Int:
  case Kind::Bool:
    return i == other.i;
  case Kind::Float:
    return f == other.f || (std::isnan(f) && std::isnan(other.f));
  case Kind::None:
    return true;
  case Kind::String:
  case Kind::Builtin:
    return s == other.s;
  case Kind::Module:
    return s == other.s && source == other.source;
  case Kind::DType:
    return type == other.type && isUnsigned == other.isUnsigned;
  case Kind::Function:
    return function == other.function;
  case Kind::Tuple:
    return sameList(elements, other.elements);
  case Kind::Method:
    return s == other.s && sameList(elements, other.elements);
  case Kind::Dict:
  case Kind::Object:
    return s == other.s && sameList(keys, other.keys) &&
           sameList(elements, other.elements);
  case Kind::Lambda:
    return lambda == other.lambda && captured == other.captured;
  case Kind::BlockPtr:
  case Kind::TensorDesc: {
    const BlockPointer &a = *pointer, &b = *other.pointer;
    return a.base == b.base && sameList(a.shape, b.shape) &&
           sameList(a.strides, b.strides) && sameList(a.offsets, b.offsets) &&
           a.blockShape == b.blockShape && a.order == b.order &&
           a.padding == b.padding;
  }
  }
  return false;
}

bool tilec::isConstexprAnnotation(const ExprAST *annotation) {
  if (!annotation)
    return false;
  if (auto *attr = llvm::dyn_cast<AttributeExprAST>(annotation))
    return attr->getAttr() == "constexpr";
  if (auto *name = llvm::dyn_cast<NameExprAST>(annotation))
    return name->getName() == "constexpr";
  return false;
}

/// True for the functions of the `triton` module tilec runs or reads
/// (`triton.cdiv`, `triton.autotune`, ...), by their dotted path.
static bool isTritonHostFunction(llvm::StringRef path) {
  static const char *const known[] = {
      "triton.cdiv",
      "triton.next_power_of_2",
      "triton.jit",
      "triton.Config",
      "triton.autotune",
      "triton.heuristics",
      "triton.runtime.driver.active.get_current_target"};
  return llvm::is_contained(known, path);
}

bool tilec::isModulePath(llvm::StringRef path) {
  static const char *const modules[] = {"triton.language",
                                        "triton.language.math",
                                        "triton.language.extra",
                                        "triton.language.extra.cuda",
                                        "triton.language.extra.libdevice",
                                        "triton.language.extra.cuda.libdevice",
                                        "triton.language.standard",
                                        "triton.language.core"};
  return llvm::is_contained(modules, path);
}

std::optional<TValue> tilec::libdeviceBuiltin(llvm::StringRef name) {
  const tile::LibdeviceFunction *fn = tile::lookupLibdeviceFunction(name);
  if ((fn && fn->isPublic) || name == "abs")
    return TValue::named(TValue::Kind::Builtin, "libdevice." + name.str());
  return std::nullopt;
}

LogicalResult tilec::libdeviceError(Generator &gen, llvm::StringRef path,
                                    llvm::SMLoc at) {
  return gen.error(at) << "'" << path << "' is not supported";
}

/// Adds to `names` the names an assignment to `target` binds, and the
/// variable an assignment to its attribute or item changes (`cfg.x = 1`,
/// `os.environ["K"] = v`: `cfg`, `os`).
static void collectTargetNames(const ExprAST &target,
                               llvm::StringSet<> &names) {
  const ExprAST *e = &target;
  while (true) {
    if (auto *attr = llvm::dyn_cast<AttributeExprAST>(e))
      e = &attr->getValue();
    else if (auto *sub = llvm::dyn_cast<SubscriptExprAST>(e))
      e = &sub->getValue();
    else if (auto *star = llvm::dyn_cast<StarredExprAST>(e))
      e = &star->getValue();
    else
      break;
  }
  if (auto *name = llvm::dyn_cast<NameExprAST>(e))
    names.insert(name->getName());
  else if (auto *tuple = llvm::dyn_cast<TupleExprAST>(e))
    for (const ExprPtr &element : tuple->getElements())
      collectTargetNames(*element, names);
  else if (auto *list = llvm::dyn_cast<ListExprAST>(e))
    for (const ExprPtr &element : list->getElements())
      collectTargetNames(*element, names);
}

/// Adds to `names` the module-level names `stmt` binds or may change when
/// it runs: its assignment targets, loop variables, functions and imports,
/// and the variables whose methods it calls as statements
/// (`configs.append(c)`), in nested blocks too.
static void collectChangedNames(const StmtAST &stmt, llvm::StringSet<> &names) {
  auto block = [&](const StmtList &body) {
    for (const StmtPtr &s : body)
      collectChangedNames(*s, names);
  };
  switch (stmt.getKind()) {
  case StmtAST::Stmt_Expr: {
    const ExprAST *e = &llvm::cast<ExprStmtAST>(stmt).getValue();
    if (auto *call = llvm::dyn_cast<CallExprAST>(e))
      if (auto *method = llvm::dyn_cast<AttributeExprAST>(&call->getCallee()))
        collectTargetNames(method->getValue(), names);
    return;
  }
  case StmtAST::Stmt_Assign:
    for (const ExprPtr &target : llvm::cast<AssignStmtAST>(stmt).getTargets())
      collectTargetNames(*target, names);
    return;
  case StmtAST::Stmt_AugAssign:
    return collectTargetNames(llvm::cast<AugAssignStmtAST>(stmt).getTarget(),
                              names);
  case StmtAST::Stmt_AnnAssign: {
    const auto &ann = llvm::cast<AnnAssignStmtAST>(stmt);
    if (ann.getValue())
      collectTargetNames(ann.getTarget(), names);
    return;
  }
  case StmtAST::Stmt_If:
    block(llvm::cast<IfStmtAST>(stmt).getThen());
    return block(llvm::cast<IfStmtAST>(stmt).getElse());
  case StmtAST::Stmt_For: {
    const auto &loop = llvm::cast<ForStmtAST>(stmt);
    collectTargetNames(loop.getTarget(), names);
    block(loop.getBody());
    return block(loop.getOrElse());
  }
  case StmtAST::Stmt_While:
    block(llvm::cast<WhileStmtAST>(stmt).getBody());
    return block(llvm::cast<WhileStmtAST>(stmt).getOrElse());
  case StmtAST::Stmt_Import:
    for (const ImportAlias &alias : llvm::cast<ImportStmtAST>(stmt).getNames())
      names.insert(alias.alias.empty()
                       ? llvm::StringRef(alias.name).split('.').first
                       : llvm::StringRef(alias.alias));
    return;
  case StmtAST::Stmt_FromImport:
    for (const ImportAlias &alias :
         llvm::cast<FromImportStmtAST>(stmt).getNames())
      if (alias.name != "*")
        names.insert(alias.alias.empty() ? alias.name : alias.alias);
    return;
  case StmtAST::Stmt_FunctionDef:
    names.insert(llvm::cast<FunctionDefAST>(stmt).getName());
    return;
  case StmtAST::Stmt_Unsupported: {
    // A class body binds the class's attributes, not module-level names
    // (the class's own name is in its unparsed header).
    const auto &other = llvm::cast<UnsupportedStmtAST>(stmt);
    if (!other.getBoundName().empty())
      names.insert(other.getBoundName());
    if (other.getKeyword() != "class")
      for (const UnsupportedClause &clause : other.getClauses())
        block(clause.body);
    return;
  }
  case StmtAST::Stmt_Return:
  case StmtAST::Stmt_Pass:
  case StmtAST::Stmt_Break:
  case StmtAST::Stmt_Continue:
  case StmtAST::Stmt_Assert:
    return;
  }
}

void Generator::skipHostStatement(const StmtAST &stmt) {
  llvm::StringSet<> names;
  collectChangedNames(stmt, names);
  for (const auto &name : names) {
    TValue &bound = globals()[name.getKey().str()];
    // `os.environ["K"] = v`, `torch.manual_seed(0)`: what host code does to
    // a module tilec does not model; the module stays usable.
    if (bound.kind != TValue::Kind::Module)
      bound = hostStatementValue(stmt);
  }
}

std::optional<TValue> tilec::parseDefine(Generator &gen, llvm::StringRef text) {
  text = text.trim();
  int64_t i;
  if (!text.getAsInteger(0, i))
    return TValue::ofInt(i);
  // Digits that do not fit in 64 bits are not a float.
  if (!text.empty() &&
      llvm::all_of(text.drop_front(text.front() == '-' || text.front() == '+'),
                   llvm::isDigit))
    return std::nullopt;
  double f;
  if (!text.getAsDouble(f))
    return TValue::ofFloat(f);
  if (text == "True" || text == "False")
    return TValue::ofBool(text == "True");
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front())
    return TValue::named(TValue::Kind::String, text.drop_front().drop_back());
  if (text == "None")
    return TValue();
  llvm::StringRef dtype = text;
  dtype.consume_front("tl.");
  if (TValue t = gen.dtypeNamed(dtype); !t.isNone())
    return t;
  // Any other word is a string (`-D PRECISION=tf32x3`).
  if (text.empty())
    return std::nullopt;
  return TValue::named(TValue::Kind::String, text);
}

FailureOr<TValue> Generator::callImportModule(CallArgs &args,
                                              llvm::SMLoc callLoc) {
  Binder bind(*this, "importlib.import_module", args, callLoc);
  if (failed(bind.bind({"name", "package"}, 1)))
    return failure();
  FailureOr<std::string> name = bind.constString(0);
  if (failed(name))
    return failure();
  if (llvm::StringRef(*name).starts_with("."))
    return hostError(bind.locs[0])
           << "importlib.import_module of a relative name is not supported; "
              "use an absolute one";
  FailureOr<SourceModule *> module = importFile(*name, bind.locs[0]);
  if (failed(module))
    return failure();
  return *module ? moduleOf(**module)
                 : TValue::named(TValue::Kind::Module, *name);
}

FailureOr<TValue> Generator::callImportSpec(llvm::StringRef name,
                                            CallArgs &args,
                                            llvm::SMLoc callLoc) {
  Binder bind(*this, name, args, callLoc);
  if (name == "importlib.util.find_spec") {
    if (failed(bind.bind({"name", "package"}, 1)))
      return failure();
    FailureOr<std::string> module = bind.constString(0);
    if (failed(module))
      return failure();
    if (!isModulePath(*module))
      return TValue();
    return TValue::ofObject(
        kModuleSpec, {{"name", TValue::named(TValue::Kind::String, *module)},
                      {"loader", TValue::ofObject(kModuleLoader, {})}});
  }
  if (failed(bind.bind({"spec"}, 1)))
    return failure();
  const TValue &spec = bind.get(0);
  if (spec.kind != TValue::Kind::Object || spec.s != kModuleSpec)
    return hostError(bind.locs[0])
           << "importlib.util.module_from_spec takes a spec of "
              "importlib.util.find_spec, not "
           << spec.describe();
  return TValue::named(TValue::Kind::Module, spec.lookup("name")->s);
}

/// The Triton version tilec follows: what `triton.__version__` and
/// `importlib.metadata.version("triton")` answer in host code.
static constexpr llvm::StringLiteral kTritonVersion = "3.6.0";
/// The torch release (and its CUDA) that goes with it: `torch.__version__`,
/// `torch.version.cuda`.
static constexpr llvm::StringLiteral kTorchVersion = "2.11.0";
static constexpr llvm::StringLiteral kTorchCudaVersion = "13.0";

bool tilec::isVersionFunction(llvm::StringRef path) {
  return path == "packaging.version.parse" || path == kVersionClass ||
         path == "importlib.metadata.version";
}

FailureOr<TValue> Generator::callVersionFunction(llvm::StringRef name,
                                                 CallArgs &args,
                                                 llvm::SMLoc callLoc) {
  Binder bind(*this, name, args, callLoc);
  if (failed(
          bind.bind({name == "importlib.metadata.version" ? "distribution_name"
                                                          : "version"},
                    1)))
    return failure();
  FailureOr<std::string> text = bind.constString(0);
  if (failed(text))
    return failure();
  if (name == "importlib.metadata.version") {
    if (*text != "triton")
      return hostError(callLoc) << "the version of '" << *text
                                << "' is not known when tilec compiles";
    return TValue::named(TValue::Kind::String, kTritonVersion);
  }
  // A version is the tuple of its release numbers ("3.6.0+git1" and
  // "3.6.0rc1" are (3, 6, 0)), which compares as packaging's Version does
  // on releases.
  std::vector<TValue> release;
  llvm::StringRef rest = llvm::StringRef(*text).trim();
  rest.consume_front("v");
  while (!rest.empty() && llvm::isDigit(rest.front())) {
    size_t digits = rest.find_if_not(llvm::isDigit);
    int64_t part;
    if (rest.take_front(digits).getAsInteger(10, part))
      break;
    release.push_back(TValue::ofInt(part));
    rest = rest.drop_front(digits);
    if (!rest.consume_front(".") || rest.empty() ||
        !llvm::isDigit(rest.front()))
      break;
  }
  if (release.empty())
    return error(callLoc) << "'" << *text << "' is not a version tilec reads";
  // Tagged, for isinstance(v, Version).
  TValue version = TValue::ofTuple(std::move(release));
  version.s = kVersionClass;
  return version;
}

bool Generator::withErrorsHeld(llvm::function_ref<bool()> run) {
  ScopedDiagnosticHandler holdErrors(&context, [](Diagnostic &diag) {
    return success(diag.getSeverity() == DiagnosticSeverity::Error);
  });
  return run();
}

/// True if `body` holds a `break` or `continue` of the loop around it.
static bool breaksLoop(const StmtList &body) {
  for (const StmtPtr &stmt : body) {
    if (llvm::isa<SimpleStmtAST>(stmt.get()) &&
        stmt->getKind() != StmtAST::Stmt_Pass)
      return true;
    if (auto *ifStmt = llvm::dyn_cast<IfStmtAST>(stmt.get()))
      if (breaksLoop(ifStmt->getThen()) || breaksLoop(ifStmt->getElse()))
        return true;
    if (auto *other = llvm::dyn_cast<UnsupportedStmtAST>(stmt.get()))
      for (const UnsupportedClause &clause : other->getClauses())
        if (breaksLoop(clause.body))
          return true;
  }
  return false;
}

/// Binds a module-level loop's `target` (a name, or a tuple of them) to
/// `value`.
static bool bindModuleTarget(Namespace &globals, const ExprAST &target,
                             const TValue &value) {
  if (auto *name = llvm::dyn_cast<NameExprAST>(&target)) {
    globals[name->getName().str()] = value;
    return true;
  }
  const ExprList *targets = nullptr;
  if (auto *tuple = llvm::dyn_cast<TupleExprAST>(&target))
    targets = &tuple->getElements();
  else if (auto *list = llvm::dyn_cast<ListExprAST>(&target))
    targets = &list->getElements();
  if (!targets || value.kind != TValue::Kind::Tuple ||
      value.elements.size() != targets->size())
    return false;
  for (auto [t, v] : llvm::zip_equal(*targets, value.elements))
    if (!bindModuleTarget(globals, *t, v))
      return false;
  return true;
}

bool Generator::runModuleLoop(
    const ForStmtAST &loop,
    llvm::function_ref<bool(const StmtList &)> runStatements) {
  if (!loop.getOrElse().empty() || breaksLoop(loop.getBody()))
    return false;
  std::optional<TValue> iterable;
  withErrorsHeld([&] {
    FailureOr<TValue> v = genExpr(loop.getIter());
    if (succeeded(v) && v->kind == TValue::Kind::Tuple)
      iterable = *v;
    return true;
  });
  if (!iterable)
    return false;
  Namespace saved = globals();
  bool ran = withErrorsHeld([&] {
    for (const TValue &element : iterable->elements)
      if (!bindModuleTarget(globals(), loop.getTarget(), element) ||
          !runStatements(loop.getBody()))
        return false;
    return true;
  });
  if (!ran)
    globals() = std::move(saved);
  return ran;
}

bool Generator::runModuleLevel(const StmtList &statements,
                               std::vector<const FunctionDefAST *> *kernels,
                               llvm::StringRef selected) {
  auto runStatements = [&](const StmtList &nested) {
    return runModuleLevel(nested, kernels, selected);
  };
  for (const StmtPtr &stmt : statements) {
    if (auto *imp = llvm::dyn_cast<ImportStmtAST>(stmt.get())) {
      if (failed(bindImport(*imp)))
        return false;
    } else if (auto *from = llvm::dyn_cast<FromImportStmtAST>(stmt.get())) {
      if (failed(bindFromImport(*from)))
        return false;
    } else if (auto *fn = llvm::dyn_cast<FunctionDefAST>(stmt.get())) {
      TValue f;
      f.kind = TValue::Kind::Function;
      f.function = fn;
      globals()[fn->getName().str()] = f;
      homes[fn] = current;
      if (llvm::any_of(fn->getDecorators(), [](const ExprPtr &d) {
            return isConstexprFunctionDecorator(*d);
          }))
        constexprFunctions.insert(fn);
      if (llvm::any_of(fn->getDecorators(),
                       [](const ExprPtr &d) { return isJitDecorator(*d); })) {
        jitted.insert(fn);
        // Decorators run at the definition, seeing the names defined above
        // it; only the selected kernel's are evaluated (an imported file
        // holds helpers, not the kernel).
        if (kernels) {
          kernels->push_back(fn);
          if ((selected.empty() || selected == fn->getName()) &&
              failed(evaluateDecorators(*fn)))
            return false;
        }
      }
    } else if (auto *assign = llvm::dyn_cast<AssignStmtAST>(stmt.get())) {
      std::optional<TValue> value = moduleValue(assign->getValue());
      for (const ExprPtr &target : assign->getTargets()) {
        if (auto *name = llvm::dyn_cast<NameExprAST>(target.get())) {
          globals()[name->getName().str()] = *value;
          continue;
        }
        // `BATCH, HEADS = 4, 32`: a tuple of names takes a tuple apart (a
        // deferred value stays deferred in each name).
        auto *tuple = llvm::dyn_cast<TupleExprAST>(target.get());
        bool names =
            tuple && llvm::all_of(tuple->getElements(), [](const ExprPtr &e) {
              return llvm::isa<NameExprAST>(e.get());
            });
        if (!names) {
          // `os.environ["K"] = "0"`, `cfg.x = 1`, `a, *rest = v`.
          skipHostStatement(*stmt);
          continue;
        }
        const ExprList &elements = tuple->getElements();
        if (!value->deferred && (value->kind != TValue::Kind::Tuple ||
                                 value->elements.size() != elements.size())) {
          error(target->getLoc()) << "cannot unpack " << value->describe()
                                  << " into " << elements.size() << " names";
          return false;
        }
        for (auto [i, e] : llvm::enumerate(elements))
          globals()[llvm::cast<NameExprAST>(e.get())->getName().str()] =
              value->deferred ? *value : value->elements[i];
      }
      // `f = triton.jit(f)` makes f a kernel as the decorator would.
      if (kernels && value->kind == TValue::Kind::Function &&
          jitted.contains(value->function) &&
          !llvm::is_contained(*kernels, value->function))
        kernels->push_back(value->function);
    } else if (auto *ann = llvm::dyn_cast<AnnAssignStmtAST>(stmt.get())) {
      // `X: int` alone binds nothing.
      auto *name = llvm::dyn_cast<NameExprAST>(&ann->getTarget());
      if (name && ann->getValue())
        globals()[name->getName().str()] = moduleValue(*ann->getValue());
      else
        skipHostStatement(*stmt);
    } else if (auto *ifStmt = llvm::dyn_cast<IfStmtAST>(stmt.get())) {
      // `if is_hip(): ... else: ...`: the branch a compile-time condition
      // picks runs as module-level statements.
      std::optional<bool> truth;
      withErrorsHeld([&] {
        FailureOr<TValue> cond = genExpr(ifStmt->getCond());
        if (succeeded(cond) && !cond->isValue()) {
          FailureOr<bool> t = constTruth(*cond, ifStmt->getCond().getLoc());
          if (succeeded(t))
            truth = *t;
        }
        return true;
      });
      if (truth) {
        if (!runStatements(*truth ? ifStmt->getThen() : ifStmt->getElse()))
          return false;
        continue;
      }
      // A condition host code cannot compute (`compare_version(...)` of
      // an imported helper) picks no branch: a name every branch binds
      // to a function (the same libdevice function under the names
      // Triton versions give it) takes the first branch's; the other
      // names the branches bind are errors where they are used.
      std::vector<std::map<std::string, TValue>> bound;
      for (const StmtList *branch : {&ifStmt->getThen(), &ifStmt->getElse()}) {
        Namespace saved = globals();
        bool ok = withErrorsHeld([&] { return runStatements(*branch); });
        std::map<std::string, TValue> changed;
        for (auto &[name, value] : globals()) {
          auto old = saved.find(name);
          if (ok && (old == saved.end() || !old->second.sameAs(value)))
            changed[name] = value;
        }
        globals() = std::move(saved);
        bound.push_back(std::move(changed));
      }
      TValue deferred = deferredValue(ifStmt->getCond());
      for (const auto &branch : bound)
        for (const auto &[name, value] : branch) {
          bool agreed = llvm::all_of(bound, [&](const auto &other) {
            auto it = other.find(name);
            return it != other.end() &&
                   it->second.kind == TValue::Kind::Builtin &&
                   value.kind == TValue::Kind::Builtin;
          });
          globals()[name] = agreed ? bound.front().at(name) : deferred;
        }
    } else if (auto *other = llvm::dyn_cast<UnsupportedStmtAST>(stmt.get());
               other && other->getKeyword() == "try") {
      // `try: from ...libdevice import f  except ...: from ... import f`.
      if (!runTry(*other, runStatements))
        return false;
    } else if (auto *expr = llvm::dyn_cast<ExprStmtAST>(stmt.get());
               expr && llvm::isa<StringExprAST>(expr->getValue())) {
      continue; // a docstring
    } else if (auto *expr = llvm::dyn_cast<ExprStmtAST>(stmt.get())) {
      // `configs.append(triton.Config(...))`; other calls are host code.
      std::optional<std::pair<std::string, TValue>> mutated;
      withErrorsHeld([&] {
        auto mutation = listMutation(expr->getValue());
        if (mutation && succeeded(*mutation))
          mutated = **mutation;
        return true;
      });
      if (mutated)
        globals()[mutated->first] = mutated->second;
      else if (!runModuleCall(*expr))
        skipHostStatement(*stmt);
    } else if (auto *loop = llvm::dyn_cast<ForStmtAST>(stmt.get())) {
      // A loop over a compile-time list without break, continue or else
      // (`for bm in [64, 128]: configs.append(...)`) runs; others are host
      // code.
      if (!runModuleLoop(*loop, runStatements))
        skipHostStatement(*stmt);
    } else if (auto *other = llvm::dyn_cast<UnsupportedStmtAST>(stmt.get());
               other && other->getKeyword() == "raise") {
      // Reached at module level, as Python would: importing the file fails
      // (a `try` around the import takes its handler).
      error(stmt->getLoc()) << "the module raises an exception here when it "
                               "is imported";
      return false;
    } else {
      // Host code tilec does not run: calls for their effects
      // (`torch.manual_seed(0)`), loops, `with`, `class`, `assert`,
      // `global`... The names it binds or changes are errors where a
      // kernel uses them.
      skipHostStatement(*stmt);
    }
  }
  return true;
}

const FunctionDefAST *Generator::evaluateModule(const KernelConfig &config) {
  // Module-level statements: imports, functions and constants. Operations a
  // module-level expression creates (only to be rejected as not constant) go
  // into a scratch module.
  warnImplicitTf32 = config.warnImplicitTf32;
  blockPtrPolicy = config.blockPtrPolicy;
  debug = config.debug;
  target = config.target;
  scratch = ModuleOp::create(builder.getUnknownLoc());
  builder.setInsertionPointToEnd(scratch->getBody());
  std::vector<const FunctionDefAST *> kernels;
  mainKernels = &kernels;
  mainSelected = config.name;
  if (!importMainPackages())
    return nullptr;
  if (!mainStarted && !runMainModule())
    return nullptr;
  if (mainFailed)
    return nullptr;

  // Pick the kernel.
  scope = nullptr;
  const FunctionDefAST *kernel = nullptr;
  std::string names;
  for (const FunctionDefAST *k : kernels)
    names += (names.empty() ? "" : ", ") + k->getName().str();
  llvm::SMLoc fileStart = llvm::SMLoc::getFromPointer(
      srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBufferStart());
  if (!config.name.empty()) {
    for (const FunctionDefAST *k : kernels)
      if (k->getName() == config.name)
        kernel = k;
    if (!kernel) {
      auto diag = error(fileStart)
                  << "no @triton.jit function named '" << config.name << "'";
      if (!names.empty())
        diag << " (found: " << names << ")";
      return nullptr;
    }
  } else if (kernels.size() == 1) {
    kernel = kernels.front();
  } else if (kernels.empty()) {
    error(fileStart) << "no @triton.jit function in this file";
    return nullptr;
  } else {
    error(fileStart) << "several @triton.jit functions (" << names
                     << "): choose the kernel with --kernel";
    return nullptr;
  }
  return kernel;
}

OwningOpRef<ModuleOp> Generator::generate(const KernelConfig &config,
                                          KernelInfo &info) {
  const FunctionDefAST *kernel = evaluateModule(config);
  if (!kernel)
    return nullptr;
  info.name = kernel->getName().str();
  // Python names may be non-ASCII; PTX's entry points may not.
  if (!llvm::all_of(info.name, [](char c) { return llvm::isASCII(c); })) {
    error(kernel->getNameRange().Start)
        << "kernel name '" << info.name
        << "' is not ASCII: PTX names its entry points in ASCII only; rename "
           "the kernel";
    return nullptr;
  }

  // Bind parameters.
  const auto &params = kernel->getParams();
  size_t numRuntime = llvm::count_if(params, [](const ParamAST &p) {
    return !isConstexprAnnotation(p.annotation.get());
  });
  const auto &sig = config.signature;
  bool fullSignature = sig.size() == params.size() && sig.size() != numRuntime;
  if (!sig.empty() && sig.size() != numRuntime && !fullSignature) {
    error(kernel->getNameRange().Start)
        << "the signature has " << sig.size() << " entries but kernel '"
        << info.name << "' has " << numRuntime << " non-constexpr parameters ("
        << params.size() << " in all)";
    return nullptr;
  }
  if (sig.empty() && numRuntime > 0) {
    std::string list;
    for (const ParamAST &p : params)
      if (!isConstexprAnnotation(p.annotation.get()))
        list += (list.empty() ? "" : ", ") + p.name;
    error(kernel->getNameRange().Start)
        << "kernel '" << info.name << "' needs a signature for its parameters "
        << list << " (e.g. --signature '*fp32:16, i32')";
    return nullptr;
  }
  for (const auto &define : config.defines) {
    auto param = llvm::find_if(
        params, [&](const ParamAST &p) { return p.name == define.getKey(); });
    if (param == params.end()) {
      error(kernel->getNameRange().Start)
          << "-D " << define.getKey() << ": kernel '" << info.name
          << "' has no parameter named '" << define.getKey() << "'";
      return nullptr;
    }
    if (!isConstexprAnnotation(param->annotation.get())) {
      error(param->range.Start)
          << "-D " << define.getKey() << ": '" << define.getKey()
          << "' is a run-time parameter of kernel '" << info.name
          << "', not a tl.constexpr; to compile the kernel for one value of "
             "it, write the value in its place in --signature";
      return nullptr;
    }
  }

  OwningOpRef<ModuleOp> module =
      ModuleOp::create(loc(kernel->getRange().Start));
  builder.setInsertionPointToEnd(module->getBody());
  Scope locals;
  scope = &locals;

  SmallVector<Type> argTypes;
  // The parameters the function's arguments bind, in order: a tensor
  // descriptor's take several arguments (abi::descriptorArgTypes).
  struct ArgParam {
    std::string name;
    unsigned hint;
    std::vector<int64_t> descriptorBlock;
    /// `u32`, `*u8`...: unsigned integers.
    bool isUnsigned;
    /// A tuple's signature entry (its elements are arguments in order).
    const SignatureEntry *tuple = nullptr;
  };
  SmallVector<ArgParam> argParams;
  size_t sigIndex = 0;
  KernelTuning tuning = tuningOf(*kernel);
  for (const ParamAST &p : params) {
    bool isConstexpr = isConstexprAnnotation(p.annotation.get());
    const SignatureEntry *entry = nullptr;
    if (fullSignature || !isConstexpr)
      entry = &sig[sigIndex++];
    auto defined = config.defines.find(p.name);
    // @triton.heuristics binds it below, unless -D gives it.
    if (isConstexpr && defined == config.defines.end() &&
        llvm::is_contained(tuning.heuristics, p.name))
      continue;
    if (defined != config.defines.end() || (entry && entry->IsConstant) ||
        isConstexpr) {
      std::optional<TValue> value;
      llvm::StringRef text;
      if (defined != config.defines.end() && entry && entry->IsConstant &&
          llvm::StringRef(entry->Literal).trim() !=
              llvm::StringRef(defined->getValue()).trim()) {
        error(p.range.Start)
            << "constexpr '" << p.name << "' is " << entry->Literal
            << " in --signature but " << defined->getValue() << " in -D";
        return nullptr;
      }
      if (defined != config.defines.end())
        text = defined->getValue();
      else if (entry && entry->IsConstant)
        text = entry->Literal;
      if (!text.empty()) {
        value = parseDefine(*this, text);
        if (!value) {
          error(p.range.Start)
              << "cannot parse the value '" << text << "' given for constexpr '"
              << p.name << "' (integers must fit in 64 bits)";
          return nullptr;
        }
      } else if (p.defaultValue) {
        FailureOr<TValue> v = genExpr(*p.defaultValue);
        if (failed(v))
          return nullptr;
        value = *v;
      } else if (entry) {
        error(p.range.Start) << "constexpr parameter '" << p.name
                             << "' takes a literal in the signature, not '"
                             << entry->str() << "'";
        return nullptr;
      } else {
        auto diag = error(p.range.Start)
                    << "constexpr parameter '" << p.name
                    << "' has no value: pass -D " << p.name << "=<value>";
        bool tuned =
            !tuning.configs.empty() &&
            llvm::any_of(tuning.configs.front().constexprs,
                         [&](const auto &c) { return c.first == p.name; });
        if (tuned)
          diag.attachNote(loc(kernel->getNameRange().Start))
              << "@triton.autotune gives it in " << tuning.configs.size()
              << (tuning.configs.size() == 1 ? " configuration"
                                             : " configurations")
              << ": --emit=header compiles and tunes them all; -D (or "
                 "--config) picks one";
        return nullptr;
      }
      define(p.name, *value, p.range.Start);
      continue;
    }
    if (entry->IsTuple) {
      // One argument an element, depth first, named as launch messages
      // spell them: stride_0, stride_1, nested pairs_0_1...
      std::function<bool(const SignatureEntry &, const std::string &)> add =
          [&](const SignatureEntry &e, const std::string &name) {
            if (e.IsTuple) {
              for (auto [i, element] : llvm::enumerate(e.Elements))
                if (!add(element, name + "_" + std::to_string(i)))
                  return false;
              return true;
            }
            Type elem = tile::getElementType(&context, e.Type.Elem);
            if (!elem) {
              error(p.range.Start)
                  << "parameter '" << p.name << "' has the type '"
                  << e.Type.str() << "' in its tuple, which kernels cannot use";
              return false;
            }
            argTypes.push_back(e.Type.IsPointer
                                   ? Type(tile::PtrType::get(&context, elem))
                                   : elem);
            info.signature.push_back(e.Type);
            info.argNames.push_back(name);
            return true;
          };
      if (!add(*entry, p.name))
        return nullptr;
      argParams.push_back({p.name, 0, {}, false, entry});
      continue;
    }
    const abi::ArgType &arg = entry->Type;
    Type elem = tile::getElementType(&context, arg.Elem);
    if (!elem) {
      error(p.range.Start) << "parameter '" << p.name << "' has the type '"
                           << arg.str() << "', which kernels cannot use";
      return nullptr;
    }
    if (entry->isTensorDesc()) {
      std::vector<abi::ArgType> types = abi::flatTypes(*entry);
      size_t rank = entry->DescriptorBlock.size();
      info.descriptors.push_back(
          {info.signature.size(), entry->DescriptorBlock});
      for (auto [i, t] : llvm::enumerate(types)) {
        Type argElem = tile::getElementType(&context, t.Elem);
        argTypes.push_back(t.IsPointer ? tile::PtrType::get(&context, argElem)
                                       : argElem);
        info.signature.push_back(t);
        // Names as launch messages and requirements spell them:
        // a_desc, a_desc_shape0, ..., a_desc_stride0, ...
        info.argNames.push_back(
            i == 0      ? p.name
            : i <= rank ? p.name + "_shape" + std::to_string(i - 1)
                        : p.name + "_stride" + std::to_string(i - rank - 1));
      }
      argParams.push_back(
          {p.name, 0, entry->DescriptorBlock, abi::isUnsignedType(arg.Elem)});
      continue;
    }
    Type type = arg.IsPointer ? Type(tile::PtrType::get(&context, elem)) : elem;
    argTypes.push_back(type);
    argParams.push_back({p.name, arg.Hint, {}, abi::isUnsignedType(arg.Elem)});
    info.signature.push_back(arg);
    info.argNames.push_back(p.name);
  }

  // A configuration's pre_hook may set the blocks of host descriptors (as
  // Triton's tutorials size them for each configuration): the kernel is
  // compiled for the blocks it sets.
  std::vector<std::pair<std::string, std::vector<int64_t>>> blocks;
  for (const ArgParam &param : argParams)
    if (!param.descriptorBlock.empty())
      blocks.emplace_back(param.name, param.descriptorBlock);
  if (!blocks.empty()) {
    FailureOr<bool> hooked = applyPreHook(*kernel, blocks);
    if (failed(hooked))
      return nullptr;
    if (*hooked) {
      auto block = blocks.begin();
      for (ArgParam &param : argParams)
        if (!param.descriptorBlock.empty())
          param.descriptorBlock = (block++)->second;
      for (auto [desc, set] : llvm::zip_equal(info.descriptors, blocks)) {
        desc.Block = set.second;
        desc.FromPreHook = true;
      }
    }
  }

  auto funcType = builder.getFunctionType(argTypes, {});
  auto func = func::FuncOp::create(builder, loc(kernel->getNameRange().Start),
                                   info.name, funcType);
  Block *entryBlock = func.addEntryBlock();
  builder.setInsertionPointToStart(entryBlock);
  unsigned argIndex = 0;
  for (const ArgParam &param : argParams) {
    llvm::SMLoc paramLoc = llvm::find_if(params, [&](const ParamAST &p) {
                             return p.name == param.name;
                           })->range.Start;
    if (param.tuple) {
      // The tuple of its elements' arguments, hints applied as to scalars.
      std::function<TValue(const SignatureEntry &)> bind =
          [&](const SignatureEntry &e) {
            if (e.IsTuple) {
              std::vector<TValue> elements;
              for (const SignatureEntry &element : e.Elements)
                elements.push_back(bind(element));
              return TValue::ofTuple(std::move(elements));
            }
            unsigned i = argIndex++;
            // `:16` and `:8`: divisibility; `:1`: the constant 1.
            if (e.Type.Hint > 1)
              tile::setDivisibility(func, i, e.Type.Hint);
            if (e.Type.Hint == 1)
              return TValue::ofInt(1);
            return TValue::of(entryBlock->getArgument(i),
                              abi::isUnsignedType(e.Type.Elem));
          };
      define(param.name, bind(*param.tuple), paramLoc);
      continue;
    }
    unsigned i = argIndex++;
    Value arg = entryBlock->getArgument(i);
    if (!param.descriptorBlock.empty()) {
      // A host-side descriptor is the device-side one its arguments make.
      size_t rank = param.descriptorBlock.size();
      std::vector<TValue> shape, strides, block;
      for (size_t d = 0; d < rank; ++d)
        shape.push_back(TValue::of(entryBlock->getArgument(argIndex++)));
      for (size_t d = 0; d + 1 < rank; ++d)
        strides.push_back(TValue::of(entryBlock->getArgument(argIndex++)));
      strides.push_back(TValue::ofInt(1));
      for (int64_t b : param.descriptorBlock)
        block.push_back(TValue::ofInt(b));
      CallArgs args;
      for (TValue v :
           {TValue::of(arg, param.isUnsigned), TValue::ofTuple(shape),
            TValue::ofTuple(strides), TValue::ofTuple(block)}) {
        args.positional.push_back(v);
        args.positionalRanges.push_back(llvm::SMRange(paramLoc, paramLoc));
      }
      FailureOr<TValue> desc =
          callBuiltin("make_tensor_descriptor", args, paramLoc);
      if (failed(desc))
        return nullptr;
      define(param.name, *desc, paramLoc);
      continue;
    }
    if (param.hint > 1)
      tile::setDivisibility(func, i, param.hint);
    if (param.hint == 1) {
      // `:1` specialises the argument to the constant 1.
      define(param.name, TValue::ofInt(1), paramLoc);
      continue;
    }
    define(param.name, TValue::of(arg, param.isUnsigned), paramLoc);
  }
  if (failed(applyHeuristics(*kernel, config)))
    return nullptr;
  if (heuristicsOnly) {
    // What the heuristics computed, and which launch values they read.
    for (const std::string &name : tuning.heuristics) {
      if (config.defines.count(name))
        continue;
      std::optional<std::string> text = defineText(scope->values[name]);
      heuristicsOnly->values.emplace_back(name, text.value_or(""));
    }
    unsigned position = 0;
    for (const ParamAST &p : params) {
      if (isConstexprAnnotation(p.annotation.get()))
        continue;
      if (heuristicReads.count(p.name))
        heuristicsOnly->reads.push_back(position);
      ++position;
    }
    return module;
  }

  LogicalResult result = genBlock(kernel->getBody());
  flushRemarks();
  if (failed(result))
    return nullptr;
  func::ReturnOp::create(builder, loc(kernel->getRange().End));
  if (failed(mlir::verify(*module)))
    return nullptr;
  info.requirements = requirements;
  for (LaunchRequirement &requirement : info.requirements)
    requirement.ArgName = info.argNames[requirement.ArgIndex];
  llvm::sort(info.requirements);
  return module;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<TValue> Generator::genExpr(const ExprAST &expr) {
  switch (expr.getKind()) {
  case ExprAST::Expr_Name:
    return genName(llvm::cast<NameExprAST>(expr));
  case ExprAST::Expr_Int:
    return TValue::ofInt(llvm::cast<IntExprAST>(expr).getValue());
  case ExprAST::Expr_Float:
    return TValue::ofFloat(llvm::cast<FloatExprAST>(expr).getValue());
  case ExprAST::Expr_Bool:
    return TValue::ofBool(llvm::cast<BoolExprAST>(expr).getValue());
  case ExprAST::Expr_None:
    return TValue();
  case ExprAST::Expr_String:
    return TValue::named(TValue::Kind::String,
                         llvm::cast<StringExprAST>(expr).getValue());
  case ExprAST::Expr_Attribute:
    return genAttribute(llvm::cast<AttributeExprAST>(expr));
  case ExprAST::Expr_Call:
    return genCall(llvm::cast<CallExprAST>(expr));
  case ExprAST::Expr_Binary: {
    const auto &bin = llvm::cast<BinaryExprAST>(expr);
    if (bin.isChained())
      return error(bin.getLoc())
             << "chained comparisons are not supported; combine the "
                "comparisons with '&'";
    bool identity =
        bin.getOp() == BinaryOp::Is || bin.getOp() == BinaryOp::IsNot;
    if (identity) {
      // `args["bias"] is not None` in a heuristic: only None-ness of a
      // run-time argument is known when compiling.
      // Only `args[...]` itself reads as the placeholder (not
      // `args["x"].dtype`, which still needs the launch's value).
      auto operand = [&](const ExprAST &e) {
        llvm::SaveAndRestore reading(readingIdentity,
                                     llvm::isa<SubscriptExprAST>(e));
        return genExpr(e);
      };
      FailureOr<TValue> lhs = operand(bin.getLHS());
      if (failed(lhs))
        return failure();
      FailureOr<TValue> rhs = operand(bin.getRHS());
      if (failed(rhs))
        return failure();
      bool lhsArg = isRuntimeArgument(*lhs), rhsArg = isRuntimeArgument(*rhs);
      if ((lhsArg && rhs->kind != TValue::Kind::None) ||
          (rhsArg && lhs->kind != TValue::Kind::None))
        return error(bin.getLoc())
               << "a run-time argument can only be compared with None by "
                  "'is' when tilec compiles (it is None only where the "
                  "signature says None)";
      return genBinary(bin.getOp(), *lhs, *rhs, bin.getLoc());
    }
    FailureOr<TValue> lhs = genExpr(bin.getLHS());
    if (failed(lhs))
      return failure();
    if ((bin.getOp() == BinaryOp::And || bin.getOp() == BinaryOp::Or) &&
        !lhs->isValue()) {
      // Python short-circuit on compile-time values.
      FailureOr<bool> truth = constTruth(*lhs, bin.getLHS().getLoc());
      if (failed(truth))
        return failure();
      if (*truth == (bin.getOp() == BinaryOp::Or))
        return *lhs;
      return genExpr(bin.getRHS());
    }
    FailureOr<TValue> rhs = genExpr(bin.getRHS());
    if (failed(rhs))
      return failure();
    if ((bin.getOp() == BinaryOp::And || bin.getOp() == BinaryOp::Or) &&
        !rhs->isValue()) {
      // As Triton: a compile-time operand after a run-time one decides an
      // `and` when false (`x and False` is False, so `if i == n - 1 and
      // FLAG:` is dead code with FLAG false) and an `or` when true; else
      // it leaves the run-time value as it is.
      FailureOr<bool> truth = constTruth(*rhs, bin.getRHS().getLoc());
      if (failed(truth))
        return failure();
      return *truth == (bin.getOp() == BinaryOp::Or) ? *rhs : *lhs;
    }
    return genBinary(bin.getOp(), *lhs, *rhs, bin.getLoc());
  }
  case ExprAST::Expr_Unary: {
    const auto &un = llvm::cast<UnaryExprAST>(expr);
    FailureOr<TValue> operand = genExpr(un.getOperand());
    if (failed(operand))
      return failure();
    return genUnary(un.getOp(), *operand, un.getLoc());
  }
  case ExprAST::Expr_Tuple:
  case ExprAST::Expr_List: {
    const ExprList &elements =
        expr.getKind() == ExprAST::Expr_Tuple
            ? llvm::cast<TupleExprAST>(expr).getElements()
            : llvm::cast<ListExprAST>(expr).getElements();
    std::vector<TValue> values;
    for (const ExprPtr &e : elements) {
      FailureOr<TValue> v = genExpr(*e);
      if (failed(v))
        return failure();
      values.push_back(*v);
    }
    return TValue::ofTuple(std::move(values));
  }
  case ExprAST::Expr_IfExp:
    return genIfExp(llvm::cast<IfExpAST>(expr));
  case ExprAST::Expr_Subscript:
    return genSubscript(llvm::cast<SubscriptExprAST>(expr));
  case ExprAST::Expr_Slice:
    return error(expr.getLoc()) << "a slice is only valid inside '[...]'";
  case ExprAST::Expr_Dict:
    return genDict(llvm::cast<DictExprAST>(expr));
  case ExprAST::Expr_Lambda:
    return genLambda(llvm::cast<LambdaExprAST>(expr));
  case ExprAST::Expr_Comprehension:
    return genComprehension(llvm::cast<ComprehensionExprAST>(expr));
  case ExprAST::Expr_FString:
    return error(expr.getLoc()) << "f-strings are not supported by tilec";
  case ExprAST::Expr_Named: {
    const auto &named = llvm::cast<NamedExprAST>(expr);
    if (!hostDepth)
      return error(expr.getLoc())
             << "assignment expressions (':=') are not supported in kernels "
                "(as in Triton); they are in host code";
    FailureOr<TValue> value = genExpr(named.getValue());
    if (failed(value))
      return failure();
    define(named.getName(), *value, expr.getLoc());
    return value;
  }
  case ExprAST::Expr_HostOnly:
    return error(expr.getLoc()) << llvm::cast<HostOnlyExprAST>(expr).getWhat()
                                << " are not supported by tilec";
  case ExprAST::Expr_Starred:
    return error(expr.getLoc())
           << "a starred expression is only valid among a call's arguments";
  }
  return error(expr.getLoc()) << "unsupported expression";
}

FailureOr<TValue> Generator::genName(const NameExprAST &expr) {
  std::string name = expr.getName().str();
  auto it = scope->values.find(name);
  if (it != scope->values.end() && !scope->globalNames.count(name))
    return it->second;
  auto g = globals().find(name);
  if (g != globals().end()) {
    if (g->second.deferred || g->second.hostStatement)
      return evaluateDeferred(g->second, name, expr.getLoc());
    return g->second;
  }
  static const char *const builtins[] = {
      "range", "min",    "max",   "float",      "int",       "bool",
      "len",   "abs",    "print", "isinstance", "dict",      "list",
      "tuple", "filter", "map",   "zip",        "enumerate", "sorted",
      "sum",   "any",    "all",   "str",        "getattr",   "hasattr"};
  if (llvm::is_contained(builtins, expr.getName()))
    return TValue::named(TValue::Kind::Builtin, expr.getName());
  auto hidden = scope->hidden.find(name);
  if (hidden != scope->hidden.end()) {
    auto diag =
        error(expr.getLoc())
        << "'" << name << "' is only defined inside "
        << (hidden->second.inLoop ? "the loop above"
                                  : "one branch of the run-time 'if' above")
        << "; assign it before the "
        << (hidden->second.inLoop ? "loop" : "'if'") << " to use it here";
    diag.attachNote(loc(hidden->second.assignLoc))
        << "'" << name << "' is assigned here";
    return diag;
  }
  return error(expr.getLoc()) << "undefined name '" << name << "'";
}

FailureOr<TValue> Generator::moduleMember(const TValue &module,
                                          llvm::StringRef attr,
                                          llvm::SMLoc at) {
  if (module.source)
    return moduleAttribute(*module.source, attr, at);
  std::string path = module.s + "." + attr.str();
  if (isModulePath(path))
    return TValue::named(TValue::Kind::Module, path);
  llvm::StringRef name = module.s;
  if (name.starts_with("triton.language.extra")) {
    if (name.ends_with("libdevice")) {
      if (std::optional<TValue> f = libdeviceBuiltin(attr))
        return *f;
      return libdeviceError(*this, path, at);
    }
    // tl.extra.cuda.gdc_wait and the other rows "extra.cuda.NAME".
    std::string row =
        name.drop_front(strlen("triton.language.")).str() + "." + attr.str();
    if (isBuiltin(row))
      return TValue::named(TValue::Kind::Builtin, "tl." + row);
    return error(at) << "'" << path << "' is not supported";
  }
  // What triton.language has: the builtin table's functions, the dtypes and
  // the classes kernels name (`hasattr(tl, "make_tensor_descriptor")`).
  if (name == "triton.language" || name == "triton.language.core" ||
      name == "triton.language.math") {
    static const char *const classes[] = {
        "constexpr", "tensor",       "tensor_descriptor",
        "dtype",     "PropagateNan", "TRITON_MAX_TENSOR_NUMEL",
        "pi32_t"};
    if (isBuiltin(attr) || llvm::is_contained(classes, attr) ||
        parseDType(attr))
      return TValue::named(TValue::Kind::Builtin, "tl." + attr.str());
  }
  return error(at) << "module '" << name << "' has no attribute '" << attr
                   << "' that tilec knows";
}

FailureOr<TValue> Generator::namedModuleAttribute(const TValue &base,
                                                  llvm::StringRef attr,
                                                  llvm::SMLoc at) {
  std::string path = base.s + "." + attr.str();
  llvm::StringRef module = base.s;
  if (base.source || isModulePath(path) ||
      module.starts_with("triton.language.extra"))
    return moduleMember(base, attr, at);
  if (module.starts_with("triton.language")) {
    if (TValue t = dtypeNamed(attr); !t.isNone())
      return t;
    if (attr == "pi32_t")
      return TValue::ofDType(
          tile::PtrType::get(builder.getContext(), builder.getI32Type()));
    if (attr == "TRITON_MAX_TENSOR_NUMEL")
      return TValue::ofInt(kMaxTileElements);
    // core's `CONSTEXPR_0 = constexpr(0)`, a default some libraries use.
    if (attr == "CONSTEXPR_0")
      return TValue::ofInt(0);
    return TValue::named(TValue::Kind::Builtin, "tl." + attr.str());
  }
  // The compiler's environment, as Python's when it imports the file.
  if (path == "os.environ") {
    TValue environ;
    environ.kind = TValue::Kind::Dict;
    for (char **entry = ::environ; entry && *entry; ++entry) {
      auto [key, value] = llvm::StringRef(*entry).split('=');
      environ.keys.push_back(TValue::named(TValue::Kind::String, key));
      environ.elements.push_back(TValue::named(TValue::Kind::String, value));
    }
    return environ;
  }
  if (path == "os.getenv" || path == "inspect.signature")
    return TValue::named(TValue::Kind::Builtin, path);
  if (path == "triton.runtime" || path == "triton.runtime.driver" ||
      path == "triton.runtime.driver.active" || path == "triton.runtime.jit" ||
      path == "importlib.util")
    return TValue::named(TValue::Kind::Module, path);
  // The call form of @triton.constexpr_function.
  if (path == "triton.constexpr_function" ||
      path == "triton.runtime.jit.constexpr_function")
    return TValue::named(TValue::Kind::Builtin, "tl.constexpr_function");
  if (path == "triton.__version__")
    return TValue::named(TValue::Kind::String, kTritonVersion);
  if (path == "typing.TYPE_CHECKING")
    return TValue::ofBool(false);
  if (module == "math")
    return pythonMathMember(attr, at);
  // Python's re on compile-time strings (a library parsing torch's version).
  if (module == "re") {
    if (!llvm::is_contained({"search", "match", "fullmatch", "sub", "findall"},
                            attr))
      return error(at) << "'re." << attr << "' is not supported by tilec";
    return TValue::named(TValue::Kind::Builtin, path);
  }
  if (module == "triton" || module == "triton.runtime.driver.active") {
    if (!isTritonHostFunction(path))
      return error(at) << "'" << path << "' is not supported by tilec";
    return TValue::named(TValue::Kind::Builtin, path);
  }
  // torch's dtypes and the finfo/iinfo of one, as module-level constants
  // (`torch.finfo(torch.float32).min`) and in kernels.
  if (module == "torch") {
    if (TValue t = dtypeNamed(attr); !t.isNone())
      return t;
    if (attr == "finfo" || attr == "iinfo")
      return TValue::named(TValue::Kind::Builtin, "torch." + attr.str());
    if (attr == "cuda" && hostDepth)
      return TValue::named(TValue::Kind::Module, "torch.cuda");
    if (attr == "utils" && hostDepth)
      return TValue::named(TValue::Kind::Module, "torch.utils");
    if (attr == "version")
      return TValue::named(TValue::Kind::Module, "torch.version");
    if (attr == "__version__")
      return TValue::named(TValue::Kind::String, kTorchVersion);
    if (attr == "are_deterministic_algorithms_enabled" && hostDepth)
      return TValue::named(TValue::Kind::Builtin, path);
    return hostError(at) << "'torch." << attr << "' cannot be used in "
                         << whereGenerated();
  }
  // The torch build the Triton tilec follows goes with (CUDA, not ROCm),
  // which libraries test to pick a kernel's path (`torch.version.hip is
  // not None`), in host code and in kernels.
  if (module == "torch.version") {
    if (attr == "hip")
      return TValue();
    if (attr == "cuda")
      return TValue::named(TValue::Kind::String, kTorchCudaVersion);
    if (attr == "__version__")
      return TValue::named(TValue::Kind::String, kTorchVersion);
    if (attr == "debug")
      return TValue::ofBool(false);
    // Present in torch's releases (its absence marks Meta's internal
    // builds); its value, a commit, is not known to tilec.
    if (attr == "git_version")
      return TValue::named(TValue::Kind::String, "");
    return hostError(at) << "'" << path << "' is not known to tilec";
  }
  // Triton is available: tilec is the Triton kernels compile with.
  if (path == "torch.utils._triton")
    return TValue::named(TValue::Kind::Module, path);
  if (path == "torch.utils._triton.has_triton" ||
      path == "torch.utils._triton.has_triton_package")
    return TValue::named(TValue::Kind::Builtin, path);
  // The compute capability of the target tilec compiles for (sm_90a:
  // (9, 0)), which is what host code asks the device about.
  if (path == "torch.cuda.get_device_capability" ||
      path == "torch.cuda.get_device_properties" ||
      path == "torch.cuda.current_device" ||
      path == "torch.cuda.is_available" || isVersionFunction(path) ||
      path == "importlib.import_module" || path == "importlib.util.find_spec" ||
      path == "importlib.util.module_from_spec")
    return TValue::named(TValue::Kind::Builtin, path);
  if (module == "torch.cuda")
    return hostError(at) << "'" << path << "' cannot be used in "
                         << whereGenerated()
                         << ": the device is not known when tilec compiles";
  return hostError(at) << "module '" << module << "' cannot be used in "
                       << whereGenerated() << missingModuleHint(module);
}

std::optional<TValue> Generator::findModuleAttribute(const TValue &module,
                                                     llvm::StringRef attr,
                                                     llvm::SMLoc at) {
  std::optional<TValue> found;
  unsigned unavailableBefore = hostUnavailable;
  withErrorsHeld([&] {
    FailureOr<TValue> value =
        module.source ||
                llvm::StringRef(module.s).starts_with("triton.language")
            ? moduleMember(module, attr, at)
            : namedModuleAttribute(module, attr, at);
    if (succeeded(value))
      found = *value;
    return true;
  });
  hostUnavailable = unavailableBefore;
  return found;
}

FailureOr<TValue> Generator::genAttribute(const AttributeExprAST &expr) {
  FailureOr<TValue> base = genExpr(expr.getValue());
  if (failed(base))
    return failure();
  llvm::StringRef attr = expr.getAttr();
  // `dtype.value` on a constexpr parameter: Triton passes constexprs wrapped
  // in tl.constexpr, whose `value` is what it holds.
  if (attr == "value" &&
      llvm::is_contained({TValue::Kind::Int, TValue::Kind::Float,
                          TValue::Kind::Bool, TValue::Kind::String,
                          TValue::Kind::DType, TValue::Kind::None},
                         base->kind))
    return *base;
  // Triton makes a number a kernel assigns to a name a scalar tensor of its
  // default type (i32, fp32, i1): `zero = 0.0` then `zero.to(x.dtype)`.
  if (!hostDepth &&
      llvm::is_contained(
          {TValue::Kind::Int, TValue::Kind::Float, TValue::Kind::Bool},
          base->kind) &&
      (attr == "to" || attr == "dtype" || isTileMethod(attr))) {
    FailureOr<Value> value = toValue(*base, expr.getLoc());
    if (failed(value))
      return failure();
    base = TValue::of(*value);
  }
  switch (base->kind) {
  case TValue::Kind::Module:
    return namedModuleAttribute(*base, attr, expr.getLoc());
  case TValue::Kind::Value: {
    Type type = base->value.getType();
    if (attr == "dtype")
      return TValue::ofDType(getElementTypeOrSelf(type), base->isUnsigned);
    // A scalar's type is its dtype (`x_ptr.type.element_ty`); a tile's is
    // its block type, whose `element_ty` is the dtype (`acc.type.element_ty`).
    if (attr == "type") {
      auto tile = dyn_cast<RankedTensorType>(type);
      if (!tile)
        return TValue::ofDType(type, base->isUnsigned);
      TValue block = TValue::ofDType(tile.getElementType(), base->isUnsigned);
      block.blockType = true;
      for (int64_t d : tile.getShape())
        block.elements.push_back(TValue::ofInt(d));
      return block;
    }
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (attr == "shape") {
      std::vector<TValue> dims;
      if (tensor)
        for (int64_t d : tensor.getShape())
          dims.push_back(TValue::ofInt(d));
      return TValue::ofTuple(std::move(dims));
    }
    if (attr == "numel")
      return TValue::ofInt(tensor ? tensor.getNumElements() : 1);
    if (attr == "ndim")
      return TValue::ofInt(tensor ? tensor.getRank() : 0);
    if (attr == "T") {
      CallArgs args;
      args.positional.push_back(*base);
      args.positionalRanges.push_back(expr.getValue().getRange());
      return callBuiltin("trans", args, expr.getLoc());
    }
    if (attr != "to" && !isTileMethod(attr))
      break;
    TValue method = TValue::named(TValue::Kind::Method, attr);
    method.elements.push_back(*base);
    return method;
  }
  case TValue::Kind::DType: {
    if (base->blockType && (attr == "element_ty" || attr == "scalar"))
      return TValue::ofDType(base->type, base->isUnsigned);
    if (base->blockType && attr == "shape")
      return TValue::ofTuple(base->elements);
    if (attr == "element_ty") {
      if (auto ptr = dyn_cast<tile::PtrType>(base->type))
        return TValue::ofDType(ptr.getPointeeType(), base->isUnsigned);
      return error(expr.getLoc()) << "'element_ty' of a non-pointer dtype";
    }
    if (attr == "primitive_bitwidth" || attr == "int_bitwidth") {
      if (isa<tile::PtrType>(base->type))
        return TValue::ofInt(64);
      if (attr == "int_bitwidth" && !base->type.isInteger())
        return error(expr.getLoc()) << "'int_bitwidth' of a non-integer dtype";
      return TValue::ofInt(base->type.getIntOrFloatBitWidth());
    }
    if (attr.starts_with("is_")) {
      TValue method = TValue::named(TValue::Kind::Method, attr);
      method.elements.push_back(*base);
      return method;
    }
    break;
  }
  case TValue::Kind::BlockPtr:
  case TValue::Kind::TensorDesc:
    return descriptorAttribute(*base, attr, expr.getLoc());
  case TValue::Kind::Dict:
  case TValue::Kind::Object:
  case TValue::Kind::Tuple:
  case TValue::Kind::String:
    return hostAttribute(*base, attr, expr.getLoc());
  case TValue::Kind::Builtin:
    if (base->s == "tl.PropagateNan" && (attr == "ALL" || attr == "NONE"))
      return TValue::named(TValue::Kind::String, attr);
    if (llvm::StringRef(base->s).starts_with("torch.finfo:") ||
        llvm::StringRef(base->s).starts_with("torch.iinfo:"))
      return typeInfoAttribute(*base, attr, expr.getLoc());
    break;
  default:
    break;
  }
  return error(expr.getLoc())
         << base->describe() << " has no attribute '" << attr << "'";
}

FailureOr<CallArgs> Generator::genArgs(const CallExprAST &expr) {
  CallArgs args;
  for (const ExprPtr &arg : expr.getArgs()) {
    if (auto *starred = llvm::dyn_cast<StarredExprAST>(arg.get())) {
      FailureOr<TValue> v = genExpr(starred->getValue());
      if (failed(v))
        return failure();
      if (starred->isDoubleStar()) {
        if (v->kind != TValue::Kind::Dict)
          return error(starred->getLoc())
                 << "'**' unpacks a dict, not " << v->describe();
        for (auto [key, value] : llvm::zip(v->keys, v->elements)) {
          if (key.kind != TValue::Kind::String)
            return error(starred->getLoc())
                   << "'**' needs string keys, not " << key.describe();
          args.keywords.push_back({key.s, value});
          args.keywordRanges.push_back(starred->getRange());
          args.keywordValueRanges.push_back(starred->getRange());
        }
        continue;
      }
      FailureOr<std::vector<TValue>> items =
          iterate(*v, starred->getValue().getLoc());
      if (failed(items))
        return failure();
      for (const TValue &item : *items) {
        args.positional.push_back(item);
        args.positionalRanges.push_back(starred->getRange());
      }
      continue;
    }
    FailureOr<TValue> v = genExpr(*arg);
    if (failed(v))
      return failure();
    args.positional.push_back(*v);
    args.positionalRanges.push_back(arg->getRange());
  }
  for (const KeywordArg &kw : expr.getKeywords()) {
    for (const auto &seen : args.keywords)
      if (seen.first == kw.name)
        return error(kw.nameRange.Start)
               << "keyword argument '" << kw.name << "' repeated";
    FailureOr<TValue> v = genExpr(*kw.value);
    if (failed(v))
      return failure();
    args.keywords.push_back({kw.name, *v});
    args.keywordRanges.push_back(kw.nameRange);
    args.keywordValueRanges.push_back(kw.value->getRange());
  }
  return args;
}

FailureOr<TValue> Generator::genCall(const CallExprAST &expr) {
  FailureOr<TValue> callee = genExpr(expr.getCallee());
  if (failed(callee))
    return failure();
  FailureOr<CallArgs> args = genArgs(expr);
  if (failed(args))
    return failure();
  switch (callee->kind) {
  case TValue::Kind::Builtin: {
    llvm::StringRef name = callee->s;
    if (name.consume_front("tl.")) {
      llvm::SMRange range = expr.getCallee().getRange();
      return callBuiltin(
          name, *args, expr.getLoc(), /*asMethod=*/false,
          llvm::StringRef(range.Start.getPointer(),
                          range.End.getPointer() - range.Start.getPointer()));
    }
    if (name.consume_front("libdevice."))
      return callLibdevice(name, *args, expr.getLoc());
    if (name.consume_front("math."))
      return callPythonMath(name, *args, expr.getLoc());
    if (name.consume_front("re."))
      return callPythonRegex(name, *args, expr.getLoc());
    if (name.consume_front("triton.")) {
      if (name == "cdiv")
        return callBuiltin("cdiv", *args, expr.getLoc());
      if (name == "next_power_of_2")
        return nextPowerOf2(*args, expr.getLoc());
      if (name == "jit" && args->positional.size() == 1 &&
          args->positional[0].kind == TValue::Kind::Function) {
        jitted.insert(args->positional[0].function);
        return args->positional[0];
      }
      if (name == "Config" || name == "autotune" || name == "heuristics" ||
          name == "runtime.driver.active.get_current_target")
        return callTritonHost(name, *args, expr.getLoc());
      return hostError(expr.getLoc())
             << "'triton." << name << "' cannot be called in "
             << whereGenerated();
    }
    if (name == "torch.finfo" || name == "torch.iinfo")
      return typeInfo(name, *args, expr.getLoc());
    if (name == "torch.utils._triton.has_triton" ||
        name == "torch.utils._triton.has_triton_package")
      return TValue::ofBool(true);
    // torch's default: the module is imported before any program sets it.
    if (name == "torch.are_deterministic_algorithms_enabled")
      return TValue::ofBool(false);
    if (name == "torch.cuda.get_device_capability") {
      std::optional<tile::TargetInfo> info = tile::TargetInfo::lookup(target);
      int64_t arch = info ? info->getComputeCapability() : 0;
      return TValue::ofTuple(
          {TValue::ofInt(arch / 10), TValue::ofInt(arch % 10)});
    }
    // What host code asks the device about, answered for the target: its
    // compute capability and warp size (other properties are not known
    // when tilec compiles).
    if (name == "torch.cuda.get_device_properties") {
      std::optional<tile::TargetInfo> info = tile::TargetInfo::lookup(target);
      int64_t arch = info ? info->getComputeCapability() : 0;
      TValue props = TValue::named(TValue::Kind::Object, "device properties");
      for (auto [attr, value] : {std::pair{"major", arch / 10},
                                 {"minor", arch % 10},
                                 {"warp_size", int64_t(32)}}) {
        props.keys.push_back(TValue::named(TValue::Kind::String, attr));
        props.elements.push_back(TValue::ofInt(value));
      }
      return props;
    }
    if (isVersionFunction(name))
      return callVersionFunction(name, *args, expr.getLoc());
    if (name == "importlib.import_module")
      return callImportModule(*args, expr.getLoc());
    if (name == "importlib.util.find_spec" ||
        name == "importlib.util.module_from_spec")
      return callImportSpec(name, *args, expr.getLoc());
    if (name == "torch.cuda.current_device")
      return TValue::ofInt(0);
    if (name == "torch.cuda.is_available")
      return TValue::ofBool(true);
    if (name == "inspect.signature") {
      // Of Triton's host functions: what a library tests to pass an
      // argument only Triton versions that take it (flash-linear-attention:
      // `"cache_results" in inspect.signature(triton.autotune).parameters`).
      Binder bind(*this, name, *args, expr.getLoc());
      if (failed(bind.bind({"obj"}, 1)))
        return failure();
      const TValue &fn = bind.get(0);
      llvm::StringRef function = fn.s;
      llvm::ArrayRef<llvm::StringRef> params;
      if (fn.kind == TValue::Kind::Builtin && function.consume_front("triton."))
        params = tritonHostParameters(function);
      if (params.empty())
        return hostError(bind.locs[0])
               << "inspect.signature of " << fn.describe()
               << " is not supported by tilec (only of triton.autotune, "
                  "triton.heuristics and triton.Config)";
      TValue parameters;
      parameters.kind = TValue::Kind::Dict;
      for (llvm::StringRef param : params) {
        parameters.keys.push_back(TValue::named(TValue::Kind::String, param));
        parameters.elements.push_back(
            TValue::named(TValue::Kind::String, param));
      }
      return TValue::ofObject("inspect.Signature",
                              {{"parameters", parameters}});
    }
    if (name == "os.getenv") {
      Binder bind(*this, name, *args, expr.getLoc());
      if (failed(bind.bind({"key", "default"}, 1)))
        return failure();
      FailureOr<std::string> key = bind.constString(0);
      if (failed(key))
        return failure();
      if (const char *value = std::getenv(key->c_str()))
        return TValue::named(TValue::Kind::String, value);
      return bind.has(1) ? bind.get(1) : TValue();
    }
    if (std::optional<FailureOr<TValue>> result =
            callHostBuiltin(name, *args, expr.getLoc()))
      return *result;
    return callPythonBuiltin(name, *args, expr.getLoc());
  }
  case TValue::Kind::Lambda:
    return callLambda(*callee, *args, expr.getLoc());
  case TValue::Kind::Object:
    return callObject(*callee, *args, expr.getLoc());
  case TValue::Kind::Function:
    return callFunction(*callee->function, *args, expr.getLoc());
  case TValue::Kind::Method:
    if (!callee->elements.empty() &&
        (callee->elements[0].kind == TValue::Kind::Dict ||
         callee->elements[0].kind == TValue::Kind::Object ||
         callee->elements[0].kind == TValue::Kind::String))
      return callHostMethod(*callee, *args, expr.getLoc());
    return callMethod(*callee, *args, expr.getLoc());
  case TValue::Kind::DType:
    // `tl.float32(-float("inf"))`: the value converted to the dtype.
    if (isa<tile::PtrType>(callee->type))
      break;
    if (args->positional.size() != 1 || !args->keywords.empty())
      return error(expr.getLoc())
             << "a dtype call takes one positional argument";
    return genCast(args->positional[0], *callee, /*bitcast=*/false, "",
                   expr.getLoc());
  case TValue::Kind::Module:
    // `from packaging.version import parse`, `from importlib.metadata import
    // version`.
    if (!callee->source && isVersionFunction(callee->s))
      return callVersionFunction(callee->s, *args, expr.getLoc());
    // `from importlib import import_module`.
    if (!callee->source && callee->s == "importlib.import_module")
      return callImportModule(*args, expr.getLoc());
    // `from extlib import f` where no file is extlib: a host module's name.
    if (!callee->source && !llvm::StringRef(callee->s).starts_with("triton"))
      return hostError(expr.getLoc())
             << "'" << callee->s << "' cannot be called in " << whereGenerated()
             << missingModuleHint(callee->s);
    break;
  default:
    break;
  }
  return error(expr.getLoc()) << callee->describe() << " is not callable";
}

LogicalResult Generator::bindParams(llvm::StringRef fn,
                                    const std::vector<ParamAST> &params,
                                    CallArgs &args, llvm::SMLoc callLoc,
                                    Scope &locals) {
  auto bindName = [&](const ParamAST &p, TValue value) {
    locals.values[p.name] = std::move(value);
    locals.defLocs[p.name] = p.range.Start;
  };
  const ParamAST *varArgs = nullptr, *varKeywords = nullptr;
  std::vector<const ParamAST *> positional;
  for (const ParamAST &p : params) {
    if (p.kind == ParamKind::VarArgs)
      varArgs = &p;
    else if (p.kind == ParamKind::VarKeywords)
      varKeywords = &p;
    else if (!varArgs)
      positional.push_back(&p);
  }
  if (args.positional.size() > positional.size() && !varArgs)
    return error(callLoc) << "'" << fn << "' takes " << positional.size()
                          << " arguments but " << args.positional.size()
                          << " were given";
  std::vector<TValue> extra;
  for (size_t i = 0; i < args.positional.size(); ++i) {
    if (i < positional.size())
      bindName(*positional[i], args.positional[i]);
    else
      extra.push_back(args.positional[i]);
  }
  if (varArgs)
    bindName(*varArgs, TValue::ofTuple(std::move(extra)));
  TValue extraKeywords;
  extraKeywords.kind = TValue::Kind::Dict;
  for (auto [i, kw] : llvm::enumerate(args.keywords)) {
    auto it = llvm::find_if(params, [&](const ParamAST &p) {
      return p.name == kw.first && p.kind == ParamKind::Normal;
    });
    if (it == params.end()) {
      if (varKeywords) {
        extraKeywords.keys.push_back(
            TValue::named(TValue::Kind::String, kw.first));
        extraKeywords.elements.push_back(kw.second);
        continue;
      }
      return error(args.keywordRanges[i].Start)
             << "'" << fn << "' has no parameter '" << kw.first << "'";
    }
    if (locals.values.count(kw.first))
      return error(args.keywordRanges[i].Start)
             << "argument '" << kw.first << "' given twice";
    bindName(*it, kw.second);
  }
  if (varKeywords)
    bindName(*varKeywords, extraKeywords);
  for (const ParamAST &p : params) {
    if (locals.values.count(p.name))
      continue;
    if (!p.defaultValue)
      return error(callLoc) << "missing argument '" << p.name << "' in call "
                            << "to '" << fn << "'";
    // Defaults are evaluated in the module's scope.
    Scope empty;
    Scope *saved = scope;
    scope = &empty;
    FailureOr<TValue> v = genExpr(*p.defaultValue);
    scope = saved;
    if (failed(v))
      return failure();
    bindName(p, *v);
  }
  return success();
}

FailureOr<TValue> Generator::callFunction(const FunctionDefAST &fn,
                                          CallArgs &args, llvm::SMLoc callLoc) {
  if (constexprFunctions.contains(&fn) && !hostDepth) {
    // A constexpr function runs as host code on compile-time arguments.
    for (const TValue &arg : args.positional)
      if (arg.isValue())
        return error(callLoc)
               << "'" << fn.getName() << "' is a constexpr function: its "
               << "arguments must be compile-time values, not "
               << arg.describe();
    for (const auto &keyword : args.keywords)
      if (keyword.second.isValue())
        return error(callLoc)
               << "'" << fn.getName() << "' is a constexpr function: its "
               << "arguments must be compile-time values, not "
               << keyword.second.describe();
    HostCode host(*this);
    return callFunction(fn, args, callLoc);
  }
  if (!jitted.contains(&fn) && !hostDepth)
    return error(callLoc) << "'" << fn.getName()
                          << "' is not a @triton.jit function";
  if (jitted.contains(&fn) && hostDepth)
    return error(callLoc) << "the @triton.jit function '" << fn.getName()
                          << "' cannot be called from host code";
  if (callDepth >= 64)
    return error(callLoc) << "calls nested too deeply (recursion is not "
                             "supported)";
  // Errors inside a Python function that host code runs are host code's.
  bool pythonFunction = !jitted.contains(&fn);
  hostCallDepth += pythonFunction;
  llvm::scope_exit leaveHostCall([&] { hostCallDepth -= pythonFunction; });
  if (++expansions > maxExpansions)
    return error(callLoc) << "too many helper calls and unrolled iterations "
                             "(more than "
                          << maxExpansions << ")";
  Scope locals;
  if (failed(bindParams(fn.getName(), fn.getParams(), args, callLoc, locals)))
    return failure();
  // As in Triton, a helper's tl.constexpr annotation does not constrain
  // its callers: a run-time value passed there stays one (the attention
  // tutorial passes its offsets so).

  Scope *savedScope = scope;
  SourceModule *savedModule = current;
  auto home = homes.find(&fn);
  if (home != homes.end())
    current = home->second;
  auto savedReturn = std::move(returnValue);
  unsigned savedRegionDepth = regionDepth;
  const StmtAST *savedLoop = innermostLoop;
  size_t savedBase = continuationBase;
  int savedExitDepth = earlyExitDepth;
  scope = &locals;
  returnValue.reset();
  regionDepth = 0;
  innermostLoop = nullptr;
  continuationBase = continuations.size();
  earlyExitDepth = -1;
  ++callDepth;
  LogicalResult result = genBlock(fn.getBody());
  --callDepth;
  continuationBase = savedBase;
  earlyExitDepth = savedExitDepth;
  scope = savedScope;
  current = savedModule;
  regionDepth = savedRegionDepth;
  innermostLoop = savedLoop;
  std::optional<TValue> value = std::move(returnValue);
  returnValue = std::move(savedReturn);
  if (failed(result))
    return failure();
  return value ? *value : TValue();
}

void tilec::loadGeneratorDialects(MLIRContext &context) {
  context.getOrLoadDialect<tile::TileDialect>();
  context.getOrLoadDialect<func::FuncDialect>();
  context.getOrLoadDialect<arith::ArithDialect>();
  context.getOrLoadDialect<math::MathDialect>();
  context.getOrLoadDialect<scf::SCFDialect>();
}

FailureOr<HeuristicValues>
tilec::evaluateHeuristics(MLIRContext &context, const ModuleAST &module,
                          llvm::SourceMgr &srcMgr, const KernelConfig &config) {
  loadGeneratorDialects(context);
  Generator generator(context, module, srcMgr);
  HeuristicValues values;
  generator.heuristicsOnly = &values;
  KernelInfo info;
  if (!generator.generate(config, info))
    return failure();
  return values;
}

OwningOpRef<ModuleOp> tilec::mlirGen(MLIRContext &context,
                                     const ModuleAST &module,
                                     llvm::SourceMgr &srcMgr,
                                     const KernelConfig &config,
                                     KernelInfo &info) {
  loadGeneratorDialects(context);
  Generator generator(context, module, srcMgr);
  return generator.generate(config, info);
}

FailureOr<TValue> Generator::nextPowerOf2(CallArgs &args, llvm::SMLoc l) {
  if (args.positional.size() != 1 || !args.keywords.empty() ||
      args.positional[0].kind != TValue::Kind::Int)
    return error(l) << "triton.next_power_of_2 takes one compile-time integer";
  int64_t n = args.positional[0].i;
  return TValue::ofInt(n <= 1 ? 1 : int64_t(llvm::PowerOf2Ceil(uint64_t(n))));
}

FailureOr<TValue> Generator::typeInfo(llvm::StringRef name, CallArgs &args,
                                      llvm::SMLoc l) {
  bool isFloat = name == "torch.finfo";
  if (args.positional.size() != 1 || !args.keywords.empty() ||
      args.positional[0].kind != TValue::Kind::DType)
    return error(l) << name << " takes one dtype";
  Type t = args.positional[0].type;
  if (isFloat ? !isa<FloatType>(t) : !t.isInteger())
    return error(l) << name << " of " << typeName(t) << " is not defined";
  // The dtype travels in the builtin's name.
  return TValue::named(TValue::Kind::Builtin,
                       name.str() + ":" +
                           typeName(t, args.positional[0].isUnsigned));
}

FailureOr<TValue> Generator::typeInfoAttribute(const TValue &info,
                                               llvm::StringRef attr,
                                               llvm::SMLoc l) {
  auto [kind, dtype] = llvm::StringRef(info.s).split(':');
  TValue named = dtypeNamed(dtype);
  Type t = named.type;
  if (kind == "torch.iinfo") {
    unsigned bits = t.getIntOrFloatBitWidth();
    if (attr == "bits")
      return TValue::ofInt(bits);
    if (named.isUnsigned && attr == "min")
      return TValue::ofInt(0);
    if (named.isUnsigned && attr == "max") {
      if (bits == 64)
        return error(l) << kind << "(" << dtype
                        << ").max is above the largest integer tilec's "
                           "constants hold (2**63 - 1)";
      return TValue::ofInt((int64_t(1) << bits) - 1);
    }
    if (attr == "min" || attr == "max") {
      llvm::APInt v = attr == "min" ? llvm::APInt::getSignedMinValue(bits)
                                    : llvm::APInt::getSignedMaxValue(bits);
      return TValue::ofInt(v.getSExtValue());
    }
  } else {
    const llvm::fltSemantics &sem =
        llvm::cast<FloatType>(t).getFloatSemantics();
    if (attr == "bits")
      return TValue::ofInt(t.getIntOrFloatBitWidth());
    if (attr == "max" || attr == "min")
      return TValue::ofFloat(
          llvm::APFloat::getLargest(sem, attr == "min").convertToDouble());
    if (attr == "tiny" || attr == "smallest_normal")
      return TValue::ofFloat(
          llvm::APFloat::getSmallestNormalized(sem).convertToDouble());
    if (attr == "eps")
      return TValue::ofFloat(
          std::ldexp(1.0, 1 - int(llvm::APFloat::semanticsPrecision(sem))));
  }
  return error(l) << kind << "(" << dtype << ") has no attribute '" << attr
                  << "'";
}
