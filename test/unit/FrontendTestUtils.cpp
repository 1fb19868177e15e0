//===- FrontendTestUtils.cpp - Helpers of the front-end unit tests --------===//
//
// Part of tilec.
//
//===----------------------------------------------------------------------===//
//
// This file implements the helpers declared in FrontendTestUtils.h and holds
// the kernel sources the tests parse: the kernels of the seed documents
// (copied verbatim, with imports and, for the matmul fragment, a kernel
// signature added) and a layer-norm/attention kernel that uses most of the
// supported syntax.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtils.h"

#include "tilec/Frontend/Lexer.h"
#include "tilec/Frontend/Parser.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace tilec;
using namespace tilec::test;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Parsing and rendering
//===----------------------------------------------------------------------===//

/// Diagnostic handler appending "line:col: message\n" to a std::string.
static void collectDiag(const llvm::SMDiagnostic &diag, void *context) {
  auto &out = *static_cast<std::string *>(context);
  out += std::to_string(diag.getLineNo()) + ":" +
         std::to_string(diag.getColumnNo() + 1) + ": " +
         diag.getMessage().str() + "\n";
}

/// Removes the " @line:col" suffixes of a dump.
static std::string stripLocations(StringRef dump) {
  std::string out;
  while (!dump.empty()) {
    auto [line, rest] = dump.split('\n');
    dump = rest;
    size_t at = line.rfind(" @");
    if (at != StringRef::npos) {
      StringRef suffix = line.substr(at + 2);
      auto [l, c] = suffix.split(':');
      if (!l.empty() && !c.empty() &&
          l.find_first_not_of("0123456789") == StringRef::npos &&
          c.find_first_not_of("0123456789") == StringRef::npos)
        line = line.substr(0, at);
    }
    out += line.str() + "\n";
  }
  return out;
}

/// Drops the first `lines` lines of `text` and `indent` leading spaces from
/// the others.
static std::string dropHeader(StringRef text, unsigned lines, unsigned indent) {
  std::string out;
  unsigned index = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    if (index++ < lines)
      continue;
    out += line.drop_front(std::min<size_t>(indent, line.size())).str() + "\n";
  }
  return out;
}

Parse::Parse(StringRef source) {
  bufferId = srcMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  srcMgr.setDiagHandler(collectDiag, &diags);
  module = parseModule(srcMgr, bufferId);
}

std::string Parse::dump() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (module)
    tilec::dump(*module, srcMgr, os);
  return text;
}

std::string Parse::pos(llvm::SMLoc loc) const {
  auto [line, col] = srcMgr.getLineAndColumn(loc, bufferId);
  return std::to_string(line) + ":" + std::to_string(col);
}

StringRef Parse::buffer() const {
  return srcMgr.getMemoryBuffer(bufferId)->getBuffer();
}

/// The dump (without locations) of the statements of `source`.
std::string test::stmtTree(StringRef source) {
  Parse p(source);
  INFO(source.str());
  INFO(p.diags);
  REQUIRE(p.module);
  return dropHeader(stripLocations(p.dump()), 1, 2);
}

/// The dump (without locations) of `expr`, parsed as an expression
/// statement.
std::string test::exprTree(StringRef expr) {
  Parse p(expr.str() + "\n");
  INFO(expr.str());
  INFO(p.diags);
  REQUIRE(p.module);
  REQUIRE(p.module->getBody().size() == 1);
  REQUIRE(llvm::isa<ExprStmtAST>(*p.module->getBody()[0]));
  return dropHeader(stripLocations(p.dump()), 2, 4);
}

/// The single diagnostic of `source` ("line:col: message"), which must fail
/// to parse.
std::string test::parseError(StringRef source) {
  Parse p(source);
  INFO(source.str());
  CHECK(!p.module);
  std::string diags = p.diags;
  CHECK(std::count(diags.begin(), diags.end(), '\n') == 1);
  if (!diags.empty() && diags.back() == '\n')
    diags.pop_back();
  return diags;
}

/// The text a source range covers.
StringRef test::textOf(llvm::SMRange range) {
  return StringRef(range.Start.getPointer(),
                   range.End.getPointer() - range.Start.getPointer());
}

/// Lexes `source` and returns the kinds of its tokens, space separated; an
/// error token is written as `error(message)`.
std::string test::lexKinds(StringRef source) {
  llvm::SourceMgr srcMgr;
  unsigned id = srcMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  Lexer lexer(srcMgr, id);
  std::string out;
  for (int i = 0; i < 10000; ++i) {
    Token tok = lexer.lex();
    if (!out.empty())
      out += ' ';
    out += getTokenKindName(tok.getKind()).str();
    if (tok.is(TokenKind::error))
      out += "(" + tok.getStringValue().str() + ")";
    if (tok.isAny(TokenKind::eof, TokenKind::error))
      break;
  }
  return out;
}

/// Lexes `source` and returns all its tokens (the buffer is kept alive by
/// `holder`).
std::vector<Token> test::lexAll(StringRef source,
                                std::unique_ptr<llvm::MemoryBuffer> &holder) {
  holder = llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile");
  Lexer lexer(holder->getBuffer());
  std::vector<Token> tokens;
  for (int i = 0; i < 10000; ++i) {
    tokens.push_back(lexer.lex());
    if (tokens.back().isAny(TokenKind::eof, TokenKind::error))
      break;
  }
  return tokens;
}

/// Lexes `source` up to its first error and returns "line:col: message", or
/// "no error".
std::string test::lexError(StringRef source) {
  llvm::SourceMgr srcMgr;
  unsigned id = srcMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  Lexer lexer(srcMgr, id);
  for (int i = 0; i < 100000; ++i) {
    Token tok = lexer.lex();
    if (tok.is(TokenKind::eof))
      break;
    if (tok.is(TokenKind::error)) {
      auto [line, col] = srcMgr.getLineAndColumn(tok.getLoc(), id);
      return std::to_string(line) + ":" + std::to_string(col) + ": " +
             tok.getStringValue().str();
    }
  }
  return "no error";
}

/// Lexes a single-token source and returns that token.
Token test::lexOne(StringRef source,
                   std::unique_ptr<llvm::MemoryBuffer> &holder) {
  std::vector<Token> tokens = lexAll(source, holder);
  REQUIRE(!tokens.empty());
  return tokens.front();
}

//===----------------------------------------------------------------------===//
// Structural checks
//===----------------------------------------------------------------------===//

namespace {

/// Checks the structural invariants of a parsed module: every range lies in
/// the buffer with Start <= End, and every expression lies within its parent.
class RangeChecker {
public:
  RangeChecker(StringRef buffer) : buffer(buffer) {}

  void check(const ModuleAST &module) {
    for (const StmtPtr &s : module.getBody())
      checkStmt(*s);
  }

private:
  bool inBuffer(llvm::SMRange r) const {
    const char *b = r.Start.getPointer(), *e = r.End.getPointer();
    return b && e && b <= e && b >= buffer.begin() && e <= buffer.end();
  }
  static bool contains(llvm::SMRange outer, llvm::SMRange inner) {
    return outer.Start.getPointer() <= inner.Start.getPointer() &&
           inner.End.getPointer() <= outer.End.getPointer();
  }
  void checkChild(llvm::SMRange parent, const ExprAST &child) {
    REQUIRE(contains(parent, child.getRange()));
    checkExpr(child);
  }
  void checkBody(llvm::SMRange parent, const StmtList &body) {
    for (const StmtPtr &s : body) {
      REQUIRE(contains(parent, s->getRange()));
      checkStmt(*s);
    }
  }

  void checkExpr(const ExprAST &e) {
    llvm::SMRange r = e.getRange();
    REQUIRE(inBuffer(r));
    REQUIRE(r.Start.getPointer() <= e.getLoc().getPointer());
    REQUIRE(e.getLoc().getPointer() <= r.End.getPointer());
    if (auto *a = llvm::dyn_cast<AttributeExprAST>(&e)) {
      checkChild(r, a->getValue());
    } else if (auto *c = llvm::dyn_cast<CallExprAST>(&e)) {
      checkChild(r, c->getCallee());
      for (const ExprPtr &arg : c->getArgs())
        checkChild(r, *arg);
      for (const KeywordArg &k : c->getKeywords()) {
        REQUIRE(contains(r, k.nameRange));
        REQUIRE(textOf(k.nameRange) == k.name);
        checkChild(r, *k.value);
      }
    } else if (auto *b = llvm::dyn_cast<BinaryExprAST>(&e)) {
      checkChild(r, b->getLHS());
      checkChild(r, b->getRHS());
    } else if (auto *u = llvm::dyn_cast<UnaryExprAST>(&e)) {
      checkChild(r, u->getOperand());
    } else if (auto *s = llvm::dyn_cast<SubscriptExprAST>(&e)) {
      checkChild(r, s->getValue());
      for (const ExprPtr &i : s->getIndices())
        checkChild(r, *i);
    } else if (auto *s = llvm::dyn_cast<SliceExprAST>(&e)) {
      for (const ExprAST *part : {s->getLower(), s->getUpper(), s->getStep()})
        if (part)
          checkChild(r, *part);
    } else if (auto *t = llvm::dyn_cast<TupleExprAST>(&e)) {
      for (const ExprPtr &el : t->getElements())
        checkChild(r, *el);
    } else if (auto *l = llvm::dyn_cast<ListExprAST>(&e)) {
      for (const ExprPtr &el : l->getElements())
        checkChild(r, *el);
    } else if (auto *i = llvm::dyn_cast<IfExpAST>(&e)) {
      checkChild(r, i->getCond());
      checkChild(r, i->getThen());
      checkChild(r, i->getElse());
    } else if (auto *n = llvm::dyn_cast<NameExprAST>(&e)) {
      REQUIRE(textOf(r) == n->getName());
    }
  }

  void checkStmt(const StmtAST &s) {
    llvm::SMRange r = s.getRange();
    REQUIRE(inBuffer(r));
    if (auto *x = llvm::dyn_cast<ExprStmtAST>(&s)) {
      checkChild(r, x->getValue());
    } else if (auto *a = llvm::dyn_cast<AssignStmtAST>(&s)) {
      for (const ExprPtr &t : a->getTargets())
        checkChild(r, *t);
      checkChild(r, a->getValue());
    } else if (auto *a = llvm::dyn_cast<AugAssignStmtAST>(&s)) {
      checkChild(r, a->getTarget());
      checkChild(r, a->getValue());
    } else if (auto *a = llvm::dyn_cast<AnnAssignStmtAST>(&s)) {
      checkChild(r, a->getTarget());
      checkChild(r, a->getAnnotation());
      if (a->getValue())
        checkChild(r, *a->getValue());
    } else if (auto *i = llvm::dyn_cast<IfStmtAST>(&s)) {
      checkChild(r, i->getCond());
      checkBody(r, i->getThen());
      checkBody(r, i->getElse());
    } else if (auto *f = llvm::dyn_cast<ForStmtAST>(&s)) {
      checkChild(r, f->getTarget());
      checkChild(r, f->getIter());
      checkBody(r, f->getBody());
      checkBody(r, f->getOrElse());
    } else if (auto *w = llvm::dyn_cast<WhileStmtAST>(&s)) {
      checkChild(r, w->getCond());
      checkBody(r, w->getBody());
      checkBody(r, w->getOrElse());
    } else if (auto *ret = llvm::dyn_cast<ReturnStmtAST>(&s)) {
      if (ret->getValue())
        checkChild(r, *ret->getValue());
    } else if (auto *a = llvm::dyn_cast<AssertStmtAST>(&s)) {
      checkChild(r, a->getCond());
      if (a->getMsg())
        checkChild(r, *a->getMsg());
    } else if (auto *f = llvm::dyn_cast<FunctionDefAST>(&s)) {
      REQUIRE(textOf(f->getNameRange()) == f->getName());
      for (const ExprPtr &d : f->getDecorators())
        checkExpr(*d);
      for (const ParamAST &p : f->getParams()) {
        REQUIRE(contains(r, p.range));
        if (p.annotation)
          checkChild(p.range, *p.annotation);
        if (p.defaultValue)
          checkChild(p.range, *p.defaultValue);
      }
      if (f->getReturns())
        checkChild(r, *f->getReturns());
      checkBody(r, f->getBody());
    }
  }

  StringRef buffer;
};

} // namespace

void test::checkRanges(const Parse &parse) {
  REQUIRE(parse.module);
  RangeChecker(parse.buffer()).check(*parse.module);
}

/// Parses `source` and checks the invariants that must hold for any input:
/// no crash, exactly one diagnostic if and only if parsing failed, a
/// well-formed dump and consistent ranges on success.
void test::checkRobust(StringRef source) {
  Parse p(source);
  size_t numDiags = std::count(p.diags.begin(), p.diags.end(), '\n');
  if (p.module) {
    REQUIRE(numDiags == 0);
    std::string text = p.dump();
    REQUIRE(StringRef(text).starts_with("Module\n"));
    checkRanges(p);
  } else {
    INFO(source.str());
    REQUIRE(numDiags == 1);
  }
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// The vector-add kernel of the tilec documentation.
const char *const test::addKernel = R"(import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
)";

/// Seed 000 ("Triton matmul"): the pointer-arithmetic K loop, wrapped in a
/// kernel (the document only shows the loop and its set-up).
const char *const test::seedMatmulKernel = R"(import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc)
)";

/// Seed 000: the one-line snippets about block pointers and descriptors.
const char *const test::seedMatmulSnippets = R"(import triton
import triton.language as tl

ptr = tl.make_block_ptr(base, shape, strides, offsets, block_shape, order)
ptr = tl.advance(ptr, (0, BLOCK_K))
x = tl.load(ptr, boundary_check=(0, 1), padding_option="zero")
desc = tl.make_tensor_descriptor(base, shape=[M, K], strides=[stride_am, 1], block_shape=[BLOCK_M, BLOCK_K])
t = desc.load([off_m, off_k])
ok = hasattr(tl, "make_block_ptr")
)";

/// Seed 002 ("Block Pointers"): the block-pointer matmul, its launch, and the
/// snippets of the lesson.
const char *const test::seedBlockPtrMatmul = R"(import triton
import triton.language as tl

a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
a = tl.make_block_ptr(a_ptr, (M, K), (K, 1), (pid_m * BLOCK_M, 0),
                      (BLOCK_M, BLOCK_K), (1, 0))
tile = tl.load(x, boundary_check=(0, 1), padding_option="zero")
a_ptrs += BLOCK_K * stride_ak
a = tl.advance(a, (0, BLOCK_K))     # slide a's window one K-chunk forward
b = tl.advance(b, (BLOCK_K, 0))     # slide b's window one K-chunk down


@triton.jit
def matmul_bp_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                     N_ITERS: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    a = tl.make_block_ptr(a_ptr, (M, K), (K, 1), (pid_m * BLOCK_M, 0),
                          (BLOCK_M, BLOCK_K), (1, 0))
    b = tl.make_block_ptr(b_ptr, (K, N), (N, 1), (0, pid_n * BLOCK_N),
                          (BLOCK_K, BLOCK_N), (1, 0))
    c = tl.make_block_ptr(c_ptr, (M, N), (N, 1),
                          (pid_m * BLOCK_M, pid_n * BLOCK_N),
                          (BLOCK_M, BLOCK_N), (1, 0))

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, N_ITERS):
        a_tile = tl.load(a, boundary_check=(0, 1), padding_option="zero")
        b_tile = tl.load(b, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a_tile, b_tile, acc)
        a = tl.advance(a, (0, BLOCK_K))              # slide along K
        b = tl.advance(b, (BLOCK_K, 0))

    tl.store(c, acc, boundary_check=(0, 1))

grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
matmul_bp_kernel[grid](
    a, b, c, M, N, K,
    N_ITERS=triton.cdiv(K, BLOCK_K),
    BLOCK_M=16, BLOCK_N=16, BLOCK_K=16,
)
)";

/// Seed 002: the 1-D block pointer of homework 1, as a kernel.
const char *const test::seedBlockPtr1D = R"(import triton
import triton.language as tl

@triton.jit
def copy_1d_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.make_block_ptr(x_ptr, shape=(N,), strides=(1,), offsets=(pid * BLOCK,),
                          block_shape=(BLOCK,), order=(0,))
    y = tl.make_block_ptr(y_ptr, shape=(N,), strides=(1,), offsets=(pid * BLOCK,),
                          block_shape=(BLOCK,), order=(0,))
    tl.store(y, tl.load(x, boundary_check=(0,)), boundary_check=(0,))
)";

/// Seed 002: softmax with a block pointer and a manual -inf mask.
const char *const test::seedSoftmax = R"(import triton
import triton.language as tl

@triton.jit
def softmax_bp_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    x = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (pid_m * BLOCK_M, 0),
                          (BLOCK_M, BLOCK_N), (1, 0))
    offs_n = tl.arange(0, BLOCK_N)
    col_mask = offs_n[None, :] < N
    t = tl.load(x, boundary_check=(0, 1), padding_option="zero")
    t = tl.where(col_mask, t, -float("inf"))
    m = tl.max(t, axis=1)
    p = tl.exp(t - m[:, None])
    l = tl.sum(p, axis=1)
    out = p / l[:, None]
    tl.store(x, out, boundary_check=(0, 1))
)";

/// A kernel in the style of layer-norm and attention kernels, using most of
/// the supported syntax.
const char *const test::layerNormKernel = R"PY("""Layer norm and friends."""
import triton
import triton.language as tl
from triton.language import (float16, float32,)
from .helpers import cdiv as ceil_div


@triton.jit
def _scale(x, factor: tl.constexpr = 2.0, shift=-1) -> tl.tensor:
    """Scales x."""
    return x * factor + shift


@triton.jit(do_not_specialize=["n_cols"])
@triton.autotune(configs=[], key=["n_cols"])
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, n_cols, eps,
                   BLOCK_SIZE: tl.constexpr, ACT: tl.constexpr = "none"):
    row = tl.program_id(0)
    Y += row * stride; X += row * stride
    mean = 0.0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < n_cols, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / n_cols
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    i = 0
    while i < n_cols:
        cols = i + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=(cols < n_cols) & (cols >= 0), other=0.)
        x = tl.where(cols < n_cols, x - mean, 0.)
        _var += x * x
        i += BLOCK_SIZE
    else:
        pass
    var = tl.sum(_var, axis=0) / n_cols
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        if ACT == "relu":
            y = tl.maximum(y, 0.0)
        elif ACT == "gelu" or ACT is "gelu_tanh":
            y = 0.5 * y * (1 + tl.erf(y / 1.4142135623730951))
        elif not ACT in ("none", None):
            tl.static_assert(False, "unknown activation")
        else:
            y = y if BLOCK_SIZE > 1 else -y
        tl.store(Y + cols, y.to(tl.float16), mask=mask)


@triton.jit
def attention_fwd(Q, K, V, sm_scale, Out, stride_qm, N_CTX,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  IS_CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, BLOCK_M], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(Q + offs_m[:, None] * stride_qm)
    hi = (start_m + 1) * BLOCK_M if IS_CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(K + (start_n + offs_n)[None, :])
        qk = tl.dot(q, k) * qk_scale
        if IS_CAUSAL:
            qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + (start_n + offs_n)[:, None])
        acc += tl.dot(p.to(tl.float16), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    t = acc.T
    bits = (offs_m << 2) >> 1 ^ (offs_m & 3) | ~offs_m % 7 // 2 ** 3 ** 1
    flag = offs_m is not None and not IS_CAUSAL or offs_m not in (1, 2)
    assert BLOCK_M >= 16, "BLOCK_M too small"
    w: tl.constexpr = 4
    x = y = BLOCK_M
    a, b = b, a
    acc **= 2; acc //= 2; acc %= 2; acc @= acc; acc <<= 1; acc >>= 1
    acc &= 1; acc |= 1; acc ^= 1; acc -= 1; acc *= 1; acc /= 1
    tl.store(Out + offs_m[:, None] * stride_qm + offs_n[None, :], acc.to(tl.float16))
    if True: pass
    while False: break
    for i in range(3): continue
    return
)PY";
