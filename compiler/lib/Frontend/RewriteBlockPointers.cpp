//===- RewriteBlockPointers.cpp - Block pointers to descriptors -*- C++ -*-===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// A syntactic rewrite, function by function. A block pointer
//
//   x = tl.make_block_ptr(base, shape, (s0, 1), (o0, o1), block, (1, 0))
//
// whose `order` is the literal (r-1, ..., 0), whose last stride is the literal
// 1 and whose offsets are a tuple or list, and whose name is used only by
// tl.load(x, ...), tl.store(x, ...) and `x = tl.advance(x, (d0, d1))` (or
// `x = x.advance(...)`), becomes
//
//   x = tl.make_tensor_descriptor(base, shape=[...], strides=[s0, 1],
//                                 block_shape=[...])
//   x_off0, x_off1 = o0, o1
//
// with x.load([x_off0, x_off1]), x.store([x_off0, x_off1], value) and
// `x_off0, x_off1 = x_off0 + (d0), x_off1 + (d1)`. Loads and stores must
// check every dimension or none (a descriptor checks them all, which changes
// nothing where the block pointer's access was in bounds), loads may not
// disagree on the padding, and neither may take a mask. Anything else leaves
// the block pointer as it is, with a warning.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/RewriteBlockPointers.h"

#include "tilec/Frontend/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include <map>

using namespace tilec;
using llvm::SMLoc;
using llvm::SMRange;
using llvm::StringRef;

std::string tilec::tupleTextAsList(StringRef text) {
  text = text.trim();
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return text.str();
  // The parentheses must enclose the whole text (not `(a) + (b)`).
  int depth = 0;
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
    if (depth == 0)
      return text.str();
  }
  StringRef inner = text.drop_front().drop_back().trim();
  inner.consume_back(",");
  return ("[" + inner.trim() + "]").str();
}

std::string tilec::rowMajorOrder(size_t rank) {
  std::string text = "(";
  for (size_t d = rank; d-- > 0;)
    text += std::to_string(d) + (d ? ", " : rank == 1 ? "," : "");
  return text + ")";
}

/// True for `tl.<name>`.
static bool isTl(const ExprAST &e, StringRef name) {
  const auto *attr = llvm::dyn_cast<AttributeExprAST>(&e);
  if (!attr || attr->getAttr() != name)
    return false;
  const auto *base = llvm::dyn_cast<NameExprAST>(&attr->getValue());
  return base && base->getName() == "tl";
}

/// The NameExprAST `e` if it names `name`.
static const NameExprAST *asName(const ExprAST *e, StringRef name) {
  const auto *n = llvm::dyn_cast_or_null<NameExprAST>(e);
  return n && n->getName() == name ? n : nullptr;
}

/// The elements of a tuple or list literal; null for other expressions.
static const ExprList *literalElements(const ExprAST *e) {
  if (const auto *t = llvm::dyn_cast_or_null<TupleExprAST>(e))
    return &t->getElements();
  if (const auto *l = llvm::dyn_cast_or_null<ListExprAST>(e))
    return &l->getElements();
  return nullptr;
}

/// The value of an integer literal.
static std::optional<int64_t> intLiteral(const ExprAST &e) {
  if (const auto *i = llvm::dyn_cast<IntExprAST>(&e))
    return i->getValue();
  return std::nullopt;
}

/// Binds the arguments of `call` to `params`, Python style; false when one is
/// unknown or given twice. Absent parameters stay null.
static bool bindArgs(const CallExprAST &call, llvm::ArrayRef<StringRef> params,
                     llvm::SmallVectorImpl<const ExprAST *> &bound) {
  bound.assign(params.size(), nullptr);
  if (call.getArgs().size() > params.size())
    return false;
  for (auto [i, arg] : llvm::enumerate(call.getArgs()))
    bound[i] = arg.get();
  for (const KeywordArg &kw : call.getKeywords()) {
    auto *it = llvm::find(params, kw.name);
    if (it == params.end() || bound[it - params.begin()])
      return false;
    bound[it - params.begin()] = kw.value.get();
  }
  return true;
}

/// Calls `fn` on `e` and on every expression inside it.
static void walkExpr(const ExprAST *e,
                     llvm::function_ref<void(const ExprAST &)> fn) {
  if (!e)
    return;
  fn(*e);
  auto walkList = [&](const ExprList &list) {
    for (const ExprPtr &x : list)
      walkExpr(x.get(), fn);
  };
  switch (e->getKind()) {
  case ExprAST::Expr_Attribute:
    walkExpr(&llvm::cast<AttributeExprAST>(e)->getValue(), fn);
    break;
  case ExprAST::Expr_Call: {
    const auto *call = llvm::cast<CallExprAST>(e);
    walkExpr(&call->getCallee(), fn);
    walkList(call->getArgs());
    for (const KeywordArg &kw : call->getKeywords())
      walkExpr(kw.value.get(), fn);
    break;
  }
  case ExprAST::Expr_Binary:
    walkExpr(&llvm::cast<BinaryExprAST>(e)->getLHS(), fn);
    walkExpr(&llvm::cast<BinaryExprAST>(e)->getRHS(), fn);
    break;
  case ExprAST::Expr_Unary:
    walkExpr(&llvm::cast<UnaryExprAST>(e)->getOperand(), fn);
    break;
  case ExprAST::Expr_Subscript:
    walkExpr(&llvm::cast<SubscriptExprAST>(e)->getValue(), fn);
    walkList(llvm::cast<SubscriptExprAST>(e)->getIndices());
    break;
  case ExprAST::Expr_Slice: {
    const auto *slice = llvm::cast<SliceExprAST>(e);
    walkExpr(slice->getLower(), fn);
    walkExpr(slice->getUpper(), fn);
    walkExpr(slice->getStep(), fn);
    break;
  }
  case ExprAST::Expr_Tuple:
  case ExprAST::Expr_List:
    walkList(*literalElements(e));
    break;
  case ExprAST::Expr_IfExp: {
    const auto *ifExp = llvm::cast<IfExpAST>(e);
    walkExpr(&ifExp->getCond(), fn);
    walkExpr(&ifExp->getThen(), fn);
    walkExpr(&ifExp->getElse(), fn);
    break;
  }
  default:
    break;
  }
}

/// Calls `onStmt` on every statement of `body` (nested ones included) and
/// `onExpr` on every expression in them.
static void walkStmts(const StmtList &body,
                      llvm::function_ref<void(const StmtAST &)> onStmt,
                      llvm::function_ref<void(const ExprAST &)> onExpr) {
  for (const StmtPtr &stmt : body) {
    onStmt(*stmt);
    auto expr = [&](const ExprAST *e) { walkExpr(e, onExpr); };
    auto stmts = [&](const StmtList &list) { walkStmts(list, onStmt, onExpr); };
    switch (stmt->getKind()) {
    case StmtAST::Stmt_Expr:
      expr(&llvm::cast<ExprStmtAST>(*stmt).getValue());
      break;
    case StmtAST::Stmt_Assign: {
      const auto &assign = llvm::cast<AssignStmtAST>(*stmt);
      for (const ExprPtr &target : assign.getTargets())
        expr(target.get());
      expr(&assign.getValue());
      break;
    }
    case StmtAST::Stmt_AugAssign:
      expr(&llvm::cast<AugAssignStmtAST>(*stmt).getTarget());
      expr(&llvm::cast<AugAssignStmtAST>(*stmt).getValue());
      break;
    case StmtAST::Stmt_AnnAssign:
      expr(&llvm::cast<AnnAssignStmtAST>(*stmt).getTarget());
      expr(llvm::cast<AnnAssignStmtAST>(*stmt).getValue());
      break;
    case StmtAST::Stmt_If: {
      const auto &ifStmt = llvm::cast<IfStmtAST>(*stmt);
      expr(&ifStmt.getCond());
      stmts(ifStmt.getThen());
      stmts(ifStmt.getElse());
      break;
    }
    case StmtAST::Stmt_For: {
      const auto &forStmt = llvm::cast<ForStmtAST>(*stmt);
      expr(&forStmt.getTarget());
      expr(&forStmt.getIter());
      stmts(forStmt.getBody());
      stmts(forStmt.getOrElse());
      break;
    }
    case StmtAST::Stmt_While: {
      const auto &whileStmt = llvm::cast<WhileStmtAST>(*stmt);
      expr(&whileStmt.getCond());
      stmts(whileStmt.getBody());
      stmts(whileStmt.getOrElse());
      break;
    }
    case StmtAST::Stmt_Return:
      expr(llvm::cast<ReturnStmtAST>(*stmt).getValue());
      break;
    case StmtAST::Stmt_Assert:
      expr(&llvm::cast<AssertStmtAST>(*stmt).getCond());
      expr(llvm::cast<AssertStmtAST>(*stmt).getMsg());
      break;
    default:
      break;
    }
  }
}

namespace {
/// One tl.make_block_ptr call and what the rewrite found about it.
struct Candidate {
  const CallExprAST *call = nullptr;
  /// The statement `name = tl.make_block_ptr(...)`; null when the call is
  /// not assigned to a single name.
  const AssignStmtAST *creation = nullptr;
  std::string name;
  /// base, shape, strides, offsets, block_shape, order.
  llvm::SmallVector<const ExprAST *> args;
  size_t rank = 0;
  /// "", "zero" or "nan": the padding the loads ask for.
  std::string padding;
  std::vector<const CallExprAST *> loads, stores;
  /// `name = tl.advance(name, deltas)` statements and their deltas.
  std::vector<std::pair<const AssignStmtAST *, const ExprList *>> advances;
  /// Why the rewrite is not exact, and where (empty when it is).
  std::string why;
  SMLoc whyLoc;
  /// The names of the offset variables (set when the rewrite is exact).
  std::vector<std::string> offsetNames;

  bool reject(const std::string &reason, SMLoc l) {
    if (why.empty()) {
      why = reason;
      whyLoc = l;
    }
    return false;
  }
};

/// A replacement of the source text [begin, end).
struct Edit {
  const char *begin, *end;
  std::string text;
};

class Rewriter {
public:
  Rewriter(const ModuleAST &module, llvm::SourceMgr &srcMgr)
      : module(module), srcMgr(srcMgr) {}
  std::string run();

private:
  void analyzeFunction(const FunctionDefAST &fn);
  bool checkCreation(Candidate &c);
  bool checkUses(Candidate &c, const FunctionDefAST &fn);
  bool checkAccess(Candidate &c, const CallExprAST &call, bool isLoad);
  void rewrite(Candidate &c);
  /// The text of [begin, end) with the edits made so far inside it.
  std::string text(const char *begin, const char *end) const;
  std::string text(const ExprAST &e) const {
    return text(e.getRange().Start.getPointer(), e.getRange().End.getPointer());
  }
  void addEdit(const char *begin, const char *end, std::string replacement);
  /// The text of the line of `l` before `l`.
  StringRef lineBefore(SMLoc l) const;
  std::string freshName(const std::string &base);

  const ModuleAST &module;
  llvm::SourceMgr &srcMgr;
  std::vector<Candidate> candidates;
  /// Sorted by begin, then outer edits first.
  std::vector<Edit> edits;
  /// The names of the function being analyzed and the module's.
  llvm::StringSet<> usedNames;
};
} // namespace

void Rewriter::addEdit(const char *begin, const char *end,
                       std::string replacement) {
  auto it = llvm::find_if(edits, [&](const Edit &e) {
    return e.begin > begin || (e.begin == begin && e.end < end);
  });
  edits.insert(it, Edit{begin, end, std::move(replacement)});
}

std::string Rewriter::text(const char *begin, const char *end) const {
  std::string out;
  const char *pos = begin;
  for (const Edit &e : edits) {
    if (e.begin < pos || e.end > end)
      continue; // outside, or inside an edit already applied
    out.append(pos, e.begin);
    out += e.text;
    pos = e.end;
  }
  out.append(pos, end);
  return out;
}

StringRef Rewriter::lineBefore(SMLoc l) const {
  StringRef buffer =
      srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBuffer();
  const char *start = l.getPointer();
  while (start > buffer.begin() && start[-1] != '\n')
    --start;
  return StringRef(start, l.getPointer() - start);
}

std::string Rewriter::freshName(const std::string &base) {
  std::string name = base;
  while (usedNames.contains(name))
    name += "_";
  usedNames.insert(name);
  return name;
}

bool Rewriter::checkCreation(Candidate &c) {
  SMLoc callLoc = c.call->getLoc();
  if (!c.creation)
    return c.reject("it is not assigned to a variable of its own", callLoc);
  StringRef line = lineBefore(c.creation->getLoc());
  if (!line.trim().empty())
    return c.reject("its statement does not start a line", callLoc);
  if (!bindArgs(*c.call,
                {"base", "shape", "strides", "offsets", "block_shape", "order"},
                c.args) ||
      llvm::is_contained(c.args, nullptr))
    return c.reject("its arguments are not the six of tl.make_block_ptr",
                    callLoc);
  const ExprList *order = literalElements(c.args[5]);
  if (!order)
    return c.reject("its 'order' is not a tuple literal", c.args[5]->getLoc());
  c.rank = order->size();
  for (auto [d, e] : llvm::enumerate(*order))
    if (intLiteral(*e) != int64_t(c.rank - 1 - d))
      return c.reject("its 'order' is not the row-major " +
                          rowMajorOrder(c.rank) +
                          "; a tensor descriptor is row-major",
                      c.args[5]->getLoc());
  const ExprList *strides = literalElements(c.args[2]);
  if (!strides || strides->size() != c.rank ||
      intLiteral(*strides->back()) != 1)
    return c.reject("its last stride is not the literal 1, which a tensor "
                    "descriptor needs",
                    c.args[2]->getLoc());
  const ExprList *offsets = literalElements(c.args[3]);
  if (!offsets || offsets->size() != c.rank)
    return c.reject("its 'offsets' are not a tuple of " +
                        std::to_string(c.rank) + " values",
                    c.args[3]->getLoc());
  return true;
}

/// Reads a `boundary_check`: true when it checks every dimension of `rank`,
/// false when it checks none; std::nullopt otherwise.
static std::optional<bool> checksAll(const ExprAST *check, size_t rank) {
  if (!check || llvm::isa<NoneExprAST>(check))
    return false;
  std::vector<int64_t> dims;
  if (std::optional<int64_t> d = intLiteral(*check))
    dims.push_back(*d);
  else if (const ExprList *list = literalElements(check))
    for (const ExprPtr &e : *list) {
      std::optional<int64_t> d = intLiteral(*e);
      if (!d)
        return std::nullopt;
      dims.push_back(*d);
    }
  else
    return std::nullopt;
  if (dims.empty())
    return false;
  llvm::sort(dims);
  if (!llvm::equal(dims, llvm::seq<int64_t>(0, int64_t(rank))))
    return std::nullopt;
  return true;
}

bool Rewriter::checkAccess(Candidate &c, const CallExprAST &call, bool isLoad) {
  llvm::SmallVector<const ExprAST *> args;
  bool bound =
      isLoad ? bindArgs(call,
                        {"pointer", "mask", "other", "boundary_check",
                         "padding_option", "cache_modifier", "eviction_policy"},
                        args)
             : bindArgs(call, {"pointer", "value", "mask", "boundary_check"},
                        args);
  std::string what = isLoad ? "tl.load" : "tl.store";
  if (!bound || (isLoad ? args[1] || args[2] : !args[1] || args[2]))
    return c.reject("this " + what +
                        " passes arguments that a tensor descriptor does "
                        "not take",
                    call.getLoc());
  if (!checksAll(args[3], c.rank))
    return c.reject("this " + what +
                        " checks the bounds of only some dimensions (a "
                        "tensor descriptor checks them all)",
                    call.getLoc());
  if (!isLoad || !args[4])
    return true;
  const auto *padding = llvm::dyn_cast<StringExprAST>(args[4]);
  if (!padding)
    return c.reject("this tl.load's 'padding_option' is not a string literal",
                    args[4]->getLoc());
  StringRef value = padding->getValue();
  if (value.empty())
    return true;
  if (!c.padding.empty() && c.padding != value)
    return c.reject("its loads pad with both \"zero\" and \"nan\" (a tensor "
                    "descriptor has one padding)",
                    args[4]->getLoc());
  c.padding = value.str();
  return true;
}

bool Rewriter::checkUses(Candidate &c, const FunctionDefAST &fn) {
  llvm::SmallPtrSet<const ExprAST *, 16> accounted;
  accounted.insert(c.creation->getTargets().front().get());
  bool ok = true;
  auto onStmt = [&](const StmtAST &stmt) {
    // `name = tl.advance(name, deltas)` or `name = name.advance(deltas)`.
    const auto *assign = llvm::dyn_cast<AssignStmtAST>(&stmt);
    if (!assign || assign->getTargets().size() != 1 ||
        !asName(assign->getTargets().front().get(), c.name))
      return;
    const auto *call = llvm::dyn_cast<CallExprAST>(&assign->getValue());
    if (!call)
      return;
    llvm::SmallVector<const ExprAST *> args;
    const NameExprAST *base = nullptr;
    if (isTl(call->getCallee(), "advance") &&
        bindArgs(*call, {"base", "offsets"}, args))
      base = asName(args[0], c.name);
    else if (const auto *method =
                 llvm::dyn_cast<AttributeExprAST>(&call->getCallee());
             method && method->getAttr() == "advance" &&
             bindArgs(*call, {"offsets"}, args)) {
      base = asName(&method->getValue(), c.name);
      args.insert(args.begin(), base);
    }
    if (!base)
      return;
    const ExprList *deltas = literalElements(args[1]);
    if (!deltas || deltas->size() != c.rank) {
      ok = c.reject("this tl.advance's offsets are not a tuple of " +
                        std::to_string(c.rank) + " values",
                    call->getLoc());
      return;
    }
    accounted.insert(assign->getTargets().front().get());
    accounted.insert(base);
    c.advances.push_back({assign, deltas});
  };
  auto onExpr = [&](const ExprAST &e) {
    const auto *call = llvm::dyn_cast<CallExprAST>(&e);
    if (!call || call->getArgs().empty())
      return;
    bool isLoad = isTl(call->getCallee(), "load");
    if (!isLoad && !isTl(call->getCallee(), "store"))
      return;
    const NameExprAST *pointer = asName(call->getArgs().front().get(), c.name);
    if (!pointer)
      return;
    accounted.insert(pointer);
    if (!checkAccess(c, *call, isLoad))
      ok = false;
    (isLoad ? c.loads : c.stores).push_back(call);
  };
  walkStmts(fn.getBody(), onStmt, onExpr);
  if (!ok)
    return false;
  // Every other mention of the name stops the rewrite.
  walkStmts(
      fn.getBody(), [](const StmtAST &) {},
      [&](const ExprAST &e) {
        if (asName(&e, c.name) && !accounted.contains(&e))
          ok = c.reject("'" + c.name +
                            "' is used here other than by tl.load, tl.store "
                            "and " +
                            c.name + " = tl.advance(" + c.name + ", ...)",
                        e.getLoc());
      });
  for (const ParamAST &param : fn.getParams())
    if (param.name == c.name)
      ok = c.reject("'" + c.name + "' is also a parameter", param.range.Start);
  return ok;
}

void Rewriter::analyzeFunction(const FunctionDefAST &fn) {
  std::map<std::string, unsigned> creations;
  size_t first = candidates.size();
  const AssignStmtAST *assign = nullptr;
  walkStmts(
      fn.getBody(),
      [&](const StmtAST &stmt) {
        assign = llvm::dyn_cast<AssignStmtAST>(&stmt);
      },
      [&](const ExprAST &e) {
        const auto *call = llvm::dyn_cast<CallExprAST>(&e);
        if (!call || !isTl(call->getCallee(), "make_block_ptr"))
          return;
        Candidate c;
        c.call = call;
        // Only `name = tl.make_block_ptr(...)` itself.
        if (assign && &assign->getValue() == call &&
            assign->getTargets().size() == 1)
          if (const auto *target = llvm::dyn_cast<NameExprAST>(
                  assign->getTargets().front().get())) {
            c.creation = assign;
            c.name = target->getName().str();
            ++creations[c.name];
          }
        candidates.push_back(std::move(c));
      });
  for (Candidate &c : llvm::drop_begin(candidates, first)) {
    if (!checkCreation(c))
      continue;
    if (creations[c.name] > 1) {
      c.reject("'" + c.name + "' is made by more than one tl.make_block_ptr",
               c.call->getLoc());
      continue;
    }
    if (checkUses(c, fn))
      for (size_t d = 0; d < c.rank; ++d)
        c.offsetNames.push_back(freshName(c.name + "_off" + std::to_string(d)));
  }
}

void Rewriter::rewrite(Candidate &c) {
  std::string offsets = "[" + llvm::join(c.offsetNames, ", ") + "]";
  for (const CallExprAST *load : c.loads) {
    std::string replacement = c.name + ".load(" + offsets;
    for (const KeywordArg &kw : load->getKeywords())
      if (kw.name == "cache_modifier" || kw.name == "eviction_policy")
        replacement += ", " + kw.name + "=" + text(*kw.value);
    addEdit(load->getRange().Start.getPointer(),
            load->getRange().End.getPointer(), replacement + ")");
  }
  for (const CallExprAST *store : c.stores) {
    llvm::SmallVector<const ExprAST *> args;
    bindArgs(*store, {"pointer", "value", "mask", "boundary_check"}, args);
    addEdit(store->getRange().Start.getPointer(),
            store->getRange().End.getPointer(),
            c.name + ".store(" + offsets + ", " + text(*args[1]) + ")");
  }
}

std::string Rewriter::run() {
  // New names must differ from the module's and the function's names.
  auto collectNames = [](const StmtList &body, llvm::StringSet<> &names) {
    walkStmts(
        body, [](const StmtAST &) {},
        [&](const ExprAST &e) {
          if (const auto *name = llvm::dyn_cast<NameExprAST>(&e))
            names.insert(name->getName());
        });
  };
  llvm::StringSet<> moduleNames;
  collectNames(module.getBody(), moduleNames);
  for (const StmtPtr &stmt : module.getBody()) {
    const auto *fn = llvm::dyn_cast<FunctionDefAST>(stmt.get());
    if (!fn)
      continue;
    usedNames = moduleNames;
    for (const ParamAST &param : fn->getParams())
      usedNames.insert(param.name);
    collectNames(fn->getBody(), usedNames);
    analyzeFunction(*fn);
  }

  // Loads and stores first: a stored value or an offset may hold a load.
  for (Candidate &c : candidates)
    if (c.why.empty())
      rewrite(c);
  for (Candidate &c : candidates) {
    if (!c.why.empty()) {
      srcMgr.PrintMessage(c.call->getLoc(), llvm::SourceMgr::DK_Warning,
                          "tl.make_block_ptr not rewritten: " + c.why);
      if (c.whyLoc != c.call->getLoc())
        srcMgr.PrintMessage(c.whyLoc, llvm::SourceMgr::DK_Note, "here");
      continue;
    }
    for (auto [assign, deltas] : c.advances) {
      std::vector<std::string> names, values;
      for (auto [d, delta] : llvm::enumerate(*deltas)) {
        if (intLiteral(*delta) == 0)
          continue;
        bool simple = llvm::isa<NameExprAST, IntExprAST>(delta.get());
        names.push_back(c.offsetNames[d]);
        values.push_back(c.offsetNames[d] + " + " +
                         (simple ? text(*delta) : "(" + text(*delta) + ")"));
      }
      std::string replacement =
          names.empty() ? "pass"
          : names.size() == 1
              ? names.front() + " = " + values.front()
              : llvm::join(names, ", ") + " = " + llvm::join(values, ", ");
      addEdit(assign->getTargets().front()->getRange().Start.getPointer(),
              assign->getValue().getRange().End.getPointer(), replacement);
    }
    std::string indent = lineBefore(c.creation->getLoc()).str();
    std::vector<std::string> initial;
    for (const ExprPtr &offset : *literalElements(c.args[3]))
      initial.push_back(text(*offset));
    std::string descriptor =
        "tl.make_tensor_descriptor(" + text(*c.args[0]) +
        ", shape=" + tupleTextAsList(text(*c.args[1])) +
        ", strides=" + tupleTextAsList(text(*c.args[2])) +
        ", block_shape=" + tupleTextAsList(text(*c.args[4])) +
        (c.padding == "nan" ? ", padding_option=\"nan\"" : "") + ")\n" +
        indent + llvm::join(c.offsetNames, ", ") + " = " +
        llvm::join(initial, ", ");
    addEdit(c.call->getRange().Start.getPointer(),
            c.call->getRange().End.getPointer(), descriptor);
  }
  StringRef buffer =
      srcMgr.getMemoryBuffer(srcMgr.getMainFileID())->getBuffer();
  return text(buffer.begin(), buffer.end());
}

std::string tilec::rewriteBlockPointers(const ModuleAST &module,
                                        llvm::SourceMgr &srcMgr) {
  return Rewriter(module, srcMgr).run();
}
