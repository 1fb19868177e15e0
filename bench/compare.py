#!/usr/bin/env python3
# ===- compare.py - tilec, Triton and torch timed the same way ----------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Time tilec, Triton (same source) and torch alike, in one process.

Every row runs one kernel of examples/ three ways on the same inputs:
tilec's PTX (DIR/NAME.ptx, from tools/gpu/prepare.sh) launched through
tilec's runtime (libtilec-runtime-c via bench/tilec_runtime.py, which calls
tilec::rt::Kernel::launch); the same kernel of the same .tile file under
Triton, with the manifest's constexprs, num_warps and num_stages; and
torch's (or cuBLAS's) own operation. Each implementation's output is
poisoned (NaN), computed once and checked against a float64 reference by
relative error (the largest error over the largest reference magnitude; NaN
fails), then timed by triton.testing.do_bench: the L2 flushed by writing
a 256 MB buffer before every call, CUDA events around the call, the
median. A row prints

  BENCH compare row=NAME impl=IMPL ms=T value=V unit=U
  (or impl=IMPL FAIL: why)

and the run ends with a table of all rows (value, and tilec over Triton);
--markdown FILE writes that table as markdown for docs/performance.md.

  compare.py [--ptx-dir DIR] [--only ROW ...] [--markdown FILE]

Exit status: 0 when every result was correct, 1 otherwise, 77 (after
"SKIP: ...") without torch, Triton, libtilec-runtime-c or a CUDA device.
"""

import argparse
import math
import pathlib
import sys

sys.dont_write_bytecode = True  # No __pycache__ in bench/ or examples/.
import tilec_runtime  # noqa: E402
from triton_reference_ptx import parse_manifest  # noqa: E402
from triton_vector_add import gpu_stack, load_tile_module  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SKIP = 77


class Harness:
    """What the rows share: the runtime, the manifest and the timing."""

    def __init__(self, torch, triton, ctx, ptx_dir, manifest, rep_ms):
        self.torch, self.triton, self.ctx = torch, triton, ctx
        self.ptx_dir, self.manifest, self.rep_ms = ptx_dir, manifest, rep_ms
        self.results = []  # (row, impl, ms, value, unit, error or None)
        self.failures = 0
        self._modules = {}

    def tilec(self, name):
        """tilec's kernel of manifest entry name: call it as kernel[grid]."""
        entry = self.manifest[name]
        return self.ctx.load_module(self.ptx_dir / f"{name}.ptx").kernel(
            entry["kernel"])

    def triton_kernel(self, name, **launch_options):
        """Triton's kernel of manifest entry name, with its constexprs,
        num_warps, num_stages and launch_options (launch_pdl=True):
        launch(grid, *args)."""
        entry = self.manifest[name]
        source = entry["source"]
        if source not in self._modules:
            self._modules[source] = load_tile_module(ROOT / "examples" /
                                                     source)
        kernel = getattr(self._modules[source], entry["kernel"])
        # @triton.autotune and @triton.heuristics wrap the JITFunction; the
        # manifest's constexprs are one configuration of them.
        while not isinstance(kernel, self.triton.runtime.jit.JITFunction):
            kernel = kernel.fn

        def launch(grid, *args):
            kernel[grid](*args, num_warps=entry["num_warps"],
                         num_stages=entry["num_stages"],
                         **entry["constexprs"], **launch_options)
        return launch

    def specialization_note(self, name, args):
        """"" when tilec's PTX for name is specialized as Triton's launcher
        specializes args (pointers and integers that are multiples of 16
        as ':16', the integer 1 as ':1'), else a note naming the
        parameters where they differ. Kernels taking tensor descriptors
        (which launch as several parameters) are not compared."""
        if any(isinstance(a, tilec_runtime.TensorDescriptor) for a in args):
            return ""
        signature = self.manifest[name]["signature"]
        differ = []
        for i, (arg, entry) in enumerate(zip(args, signature)):
            if hasattr(arg, "data_ptr"):
                value = arg.data_ptr()
            elif isinstance(arg, int) and not isinstance(arg, bool):
                value = arg
            else:
                continue
            triton = ":1" if value == 1 and not hasattr(arg, "data_ptr") \
                else ":16" if value % 16 == 0 else ""
            ours = ":" + entry.rsplit(":", 1)[1] if ":" in entry else ""
            if ours != triton:
                differ.append(str(i))
        if not differ:
            return ""
        return " [specialized unlike Triton: args " + ",".join(differ) + "]"

    def run_row(self, label, name, grid, args, outputs, references, tolerance,
                work, unit, torch_fn, torch_checked=False, triton_args=None,
                before=None):
        """Measures one row: tilec's PTX of manifest entry name and Triton's
        kernel of the same entry on grid and args (triton_args when Triton
        takes others: its own tensor descriptors), then torch_fn, whose
        outputs are checked only when torch_checked (it writes into
        outputs). before, when given, runs after the poisoning and before
        the checked run (an in-place kernel's inputs restored). The label
        gets specialization_note's remark."""
        tilec, triton_launch = self.tilec(name), self.triton_kernel(name)
        triton_args = args if triton_args is None else triton_args
        row = label + self.specialization_note(name, args)
        self.measure(row, "tilec", lambda: tilec[grid](*args), outputs,
                     references, tolerance, work, unit, before)
        self.measure(row, "triton", lambda: triton_launch(grid, *triton_args),
                     outputs, references, tolerance, work, unit, before)
        self.measure(row, "torch", torch_fn, outputs if torch_checked else [],
                     references if torch_checked else [], tolerance, work,
                     unit, before)

    def measure(self, row, impl, fn, outputs, references, tolerance, work,
                unit, before=None):
        """Poisons outputs, runs before (if any) and fn, checks every output
        against its float64 reference, then times fn. work / seconds / 1e9
        is the value (GB/s from bytes, or TFLOP/s from flops / 1e3)."""
        torch = self.torch
        try:
            for out in outputs:
                out.fill_(float("nan") if out.is_floating_point() else -1)
            if before is not None:
                before()
            fn()
            torch.cuda.synchronize()
            for i, (out, ref) in enumerate(zip(outputs, references)):
                error = relative_error(torch, out, ref)
                if not error <= tolerance:  # NaN fails.
                    raise AssertionError(f"output {i}: relative error "
                                         f"{error:.3g} > {tolerance:g}")
            ms = self.triton.testing.do_bench(fn, warmup=25, rep=self.rep_ms,
                                              return_mode="median")
        except Exception as error:  # Report the row and go on.
            message = str(error).strip().splitlines()
            why = f"{type(error).__name__}: {message[-1] if message else ''}"
            print(f"BENCH compare row={row} impl={impl} FAIL: {why}",
                  flush=True)
            self.results.append((row, impl, None, None, unit, why))
            self.failures += 1
            return
        value = work / (ms * 1e-3) / (1e12 if unit == "TFLOP/s" else 1e9)
        print(f"BENCH compare row={row} impl={impl} ms={ms:.4f} "
              f"value={value:.1f} unit={unit}", flush=True)
        self.results.append((row, impl, ms, value, unit, None))


def relative_error(torch, out, ref):
    """max |out - ref| / max |ref| in float64; NaN when out has a NaN."""
    out = out.to(torch.float64)
    ref = ref.to(torch.float64)
    if torch.isnan(out).any():
        return math.nan
    scale = ref.abs().max().item()
    return (out - ref).abs().max().item() / (scale if scale > 0 else 1.0)


def randn(torch, shape, dtype, scale=1.0):
    return (torch.randn(shape, device="cuda", dtype=torch.float32) *
            scale).to(dtype)


# ---------------------------------------------------------------------------
# Rows: each runs tilec, Triton and torch on one problem.
# ---------------------------------------------------------------------------

def row_vector_add(h):
    torch = h.torch
    n = (1 << 28) - 7  # Ragged: not a multiple of BLOCK.
    x = randn(torch, n, torch.float32)
    y = randn(torch, n, torch.float32)
    out = torch.empty_like(x)
    ref = x.double() + y.double()
    h.run_row(f"vector_add fp32 n={n}", "vector_add",
              (h.triton.cdiv(n, 1024),), (x, y, out, n), [out], [ref], 1e-6,
              12 * n, "GB/s", lambda: torch.add(x, y, out=out),
              torch_checked=True)


def row_softmax(h):
    torch = h.torch
    rows, cols = 8192, 4096
    x = randn(torch, (rows, cols), torch.float32)
    out = torch.empty_like(x)
    ref = torch.softmax(x.double(), dim=1)
    h.run_row(f"softmax fp32 {rows}x{cols}", "softmax_b4096_w8_h16", (rows,),
              (out, x, x.stride(0), out.stride(0), rows, cols), [out], [ref],
              1e-5, 8 * rows * cols, "GB/s", lambda: torch.softmax(x, dim=1))


def row_layer_norm(h):
    # Long rows (three passes of eight chunks) and short ones (one chunk).
    for rows, cols in ((4096, 8192), (32768, 1024)):
        layer_norm_size(h, rows, cols)


def layer_norm_size(h, rows, cols):
    torch = h.torch
    eps = 1e-5
    x = randn(torch, (rows, cols), torch.float16)
    w = randn(torch, cols, torch.float16)
    b = randn(torch, cols, torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty(rows, device="cuda", dtype=torch.float32)
    rstd = torch.empty_like(mean)
    xd = x.double()
    ref_mean = xd.mean(dim=1)
    ref_rstd = 1.0 / torch.sqrt(xd.var(dim=1, unbiased=False) + eps)
    ref = (xd - ref_mean[:, None]) * ref_rstd[:, None] * w.double() + \
        b.double()
    h.run_row(f"layer_norm fwd fp16 {rows}x{cols}", "layer_norm_fp16_h16",
              (rows,), (x, y, w, b, mean, rstd, x.stride(0), cols, eps),
              [y, mean, rstd], [ref, ref_mean, ref_rstd], 2e-3,
              4 * rows * cols, "GB/s",
              lambda: torch.nn.functional.layer_norm(x, (cols,), w, b, eps))


def row_layer_norm_bwd(h):
    # The tutorial's backward: dX with the dW/dB partials of 128 groups under
    # their locks (timed alone; later calls add into the partials), then
    # the partials summed per column.
    torch = h.torch
    rows, cols, groups = 4096, 4096, 128
    x = randn(torch, (rows, cols), torch.float16)
    dy = randn(torch, (rows, cols), torch.float16)
    w = randn(torch, cols, torch.float16)
    xd, dyd, wd = x.double(), dy.double(), w.double()
    mean = xd.mean(dim=1)
    rstd = 1.0 / torch.sqrt(xd.var(dim=1, unbiased=False) + 1e-5)
    mean32, rstd32 = mean.float(), rstd.float()
    x_hat = (xd - mean32.double()[:, None]) * rstd32.double()[:, None]
    wdy = wd * dyd
    ref_dx = (wdy - wdy.mean(dim=1, keepdim=True) -
              x_hat * (x_hat * wdy).mean(dim=1, keepdim=True)) * \
        rstd32.double()[:, None]
    dx = torch.empty_like(x)
    partial_dw = torch.zeros((groups, cols), device="cuda",
                             dtype=torch.float32)
    partial_db = torch.zeros_like(partial_dw)
    locks = torch.zeros(2 * groups, device="cuda", dtype=torch.int32)
    bias = torch.zeros_like(w)

    def torch_backward():
        torch.ops.aten.native_layer_norm_backward(
            dy, x, [cols], mean32[:, None], rstd32[:, None], w, bias,
            [True, True, True])
    h.run_row(f"layer_norm bwd dx fp16 {rows}x{cols} (torch: whole backward)",
              "layer_norm_bwd_dx_fp16_h16", (rows,),
              (dx, dy, partial_dw, partial_db, locks, x, w, mean32, rstd32,
               x.stride(0), cols),
              [dx], [ref_dx], 2e-3, 3 * 2 * rows * cols, "GB/s",
              torch_backward)
    pdw = randn(torch, (groups, cols), torch.float32)
    pdb = randn(torch, (groups, cols), torch.float32)
    dw, db = torch.empty_like(w), torch.empty_like(w)
    h.run_row(f"layer_norm bwd dwdb fp16 {groups}x{cols} (torch: sum)",
              "layer_norm_bwd_dwdb_fp16", (h.triton.cdiv(cols, 128),),
              (pdw, pdb, dw, db, groups, cols), [dw, db],
              [pdw.double().sum(dim=0), pdb.double().sum(dim=0)], 2e-3,
              2 * 4 * groups * cols, "GB/s",
              lambda: (pdw.sum(dim=0), pdb.sum(dim=0)))


def row_rope(h):
    # In place on the queries and keys of 4 sequences of 1024 tokens (32
    # query heads, 8 key heads of 128, bf16); each checked run starts from
    # the same inputs.
    torch = h.torch
    tokens, seq_len, q_heads, k_heads, dim = 4096, 1024, 32, 8, 128
    q0 = randn(torch, (tokens, q_heads, dim), torch.bfloat16)
    k0 = randn(torch, (tokens, k_heads, dim), torch.bfloat16)
    q, k = q0.clone(), k0.clone()
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, dim, 2, device="cuda",
                                               dtype=torch.float64) / dim))
    angles = torch.arange(seq_len, device="cuda",
                          dtype=torch.float64)[:, None] * inv_freq[None, :]
    cos, sin = torch.cos(angles).float(), torch.sin(angles).float()
    positions = torch.arange(tokens, device="cuda") % seq_len

    def rotated(x):
        x = x.double()
        c = cos.double()[positions][:, None, :]
        s = sin.double()[positions][:, None, :]
        x1, x2 = x[..., :dim // 2], x[..., dim // 2:]
        return torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1)
    ref_q, ref_k = rotated(q0), rotated(k0)
    cos_t = cos[positions][:, None, :].to(torch.bfloat16)
    sin_t = sin[positions][:, None, :].to(torch.bfloat16)

    def torch_rope():
        for x in (q, k):
            x1, x2 = x[..., :dim // 2], x[..., dim // 2:]
            x.copy_(torch.cat((x1 * cos_t - x2 * sin_t,
                               x2 * cos_t + x1 * sin_t), dim=-1))
    h.run_row(f"rope fwd bf16 {tokens}x({q_heads}+{k_heads})x{dim} "
              "(torch: eager)", "rope_bf16_h16", (tokens,),
              (q, k, cos, sin, q.stride(0), k.stride(0), cos.stride(0),
               seq_len, q_heads, k_heads),
              [q, k], [ref_q, ref_k], 1e-2,
              2 * 2 * tokens * (q_heads + k_heads) * dim, "GB/s", torch_rope,
              before=lambda: (q.copy_(q0), k.copy_(k0)))


def row_rms_norm(h):
    torch = h.torch
    rows, cols, eps, offset = 8192, 4096, 1e-6, 1.0
    x = randn(torch, (rows, cols), torch.bfloat16)
    w = randn(torch, cols, torch.bfloat16, 0.1)
    y = torch.empty_like(x)
    rstd = torch.empty(rows, device="cuda", dtype=torch.float32)
    xd = x.double()
    ref_rstd = 1.0 / torch.sqrt((xd * xd).mean(dim=1) + eps)
    ref = xd * ref_rstd[:, None] * (offset + w.double())
    w_offset = (w.float() + offset).to(torch.bfloat16)
    h.run_row(f"rms_norm fwd bf16 {rows}x{cols}", "rms_norm_bf16_h16",
              (rows,), (y, x, w, rstd, x.stride(0), cols, eps, offset),
              [y, rstd], [ref, ref_rstd], 1e-2, 4 * rows * cols, "GB/s",
              lambda: torch.nn.functional.rms_norm(x, (cols,), w_offset, eps))


def glu_row(h, name, activation):
    torch = h.torch
    rows, cols = 4096, 8192
    a = randn(torch, (rows, cols), torch.bfloat16)
    b = randn(torch, (rows, cols), torch.bfloat16)
    c = torch.empty_like(a)
    ad = a.double()
    if activation == "silu":
        act = ad * torch.sigmoid(ad)

        def eager():
            return torch.nn.functional.silu(a) * b
    else:
        act = 0.5 * ad * (1 + torch.tanh(math.sqrt(2 / math.pi) *
                                         (ad + 0.044715 * ad ** 3)))

        def eager():
            return torch.nn.functional.gelu(a, approximate="tanh") * b
    h.run_row(f"{name.split('_')[0]} fwd bf16 {rows}x{cols}", name, (rows,),
              (a, b, c, a.stride(0), cols), [c], [act * b.double()], 1e-2,
              6 * rows * cols, "GB/s", eager)


def row_swiglu(h):
    glu_row(h, "swiglu_bf16_h16", "silu")


def row_geglu(h):
    glu_row(h, "geglu_bf16_h16", "gelu_tanh")


def row_cross_entropy(h):
    torch = h.torch
    rows, vocab, ignore = 4096, 32003, -100
    logits = randn(torch, (rows, vocab), torch.float32)
    labels = torch.randint(0, vocab, (rows,), device="cuda",
                           dtype=torch.int32)
    labels[::7] = ignore  # Rows that leave early.
    grad = torch.empty_like(logits)
    loss = torch.empty(rows, device="cuda", dtype=torch.float32)
    ld = logits.double()
    lse = torch.logsumexp(ld, dim=1)
    kept = labels != ignore
    safe = torch.where(kept, labels, 0).long()
    ref_loss = torch.where(kept, lse - ld.gather(1, safe[:, None])[:, 0], 0.0)
    onehot = torch.nn.functional.one_hot(safe, vocab).double()
    ref_grad = torch.where(kept[:, None], torch.exp(ld - lse[:, None]) -
                           onehot, 0.0)
    labels_long = labels.long()
    h.run_row(f"cross_entropy fp32 {rows}x{vocab}", "cross_entropy", (rows,),
              (logits, grad, labels, loss, vocab, logits.stride(0), ignore),
              [grad, loss], [ref_grad, ref_loss], 1e-5, 12 * rows * vocab,
              "GB/s", lambda: torch.nn.functional.cross_entropy(
                  logits, labels_long, ignore_index=ignore, reduction="none"))


def row_linear_recurrence(h):
    """examples/scans.tile's linear_recurrence_kernel (tl.associative_scan
    of a non-commutative combine function, forward and reversed) on 4096
    rows of 1000. torch has no such scan: its row is the closed form
    cumprod/cumsum (timed, not checked: it over- and underflows)."""
    torch = h.torch
    rows, cols = 4096, 1000
    x = torch.rand((rows, cols), device="cuda") * 2 - 1
    fwd, bwd = torch.empty_like(x), torch.empty_like(x)
    a = (0.9 + 0.1 * x).double()
    xd = x.double()
    ref_fwd, ref_bwd = torch.empty_like(xd), torch.empty_like(xd)
    state = torch.zeros(rows, device="cuda", dtype=torch.float64)
    for c in range(cols):
        state = a[:, c] * state + xd[:, c]
        ref_fwd[:, c] = state
    state = torch.zeros_like(state)
    for c in reversed(range(cols)):
        state = a[:, c] * state + xd[:, c]
        ref_bwd[:, c] = state

    def closed_form():
        p = torch.cumprod(0.9 + 0.1 * x, dim=1)
        return p * torch.cumsum(x / p, dim=1)

    h.run_row(f"linear_recurrence fp32 {rows}x{cols} (torch: cumprod/cumsum "
              "closed form, unchecked)", "linear_recurrence", (rows,),
              (x, fwd, bwd, cols, x.stride(0)), [fwd, bwd],
              [ref_fwd, ref_bwd], 1e-5, 12 * rows * cols, "GB/s", closed_form)


def row_row_combines(h):
    """examples/scans.tile's row_combines_kernel (tl.reduce of (level,
    index) pairs, tl.xor_sum, tl.reduce_or) on 16384 rows of 256, its
    sizes and stride specialized as multiples of 16 as Triton's launcher
    specializes them (row_combines_h16). torch's
    row: torch.max with indices (no xor/or reductions)."""
    torch = h.torch
    rows, cols = 16384, 256
    x = torch.rand((rows, cols), device="cuda") * 2 - 1
    outs = [torch.empty(rows, device="cuda", dtype=torch.float32)] + [
        torch.empty(rows, device="cuda", dtype=torch.int32) for _ in range(3)]
    level = torch.floor(x * 4.0)
    biggest = level.max(dim=1).values
    first = (level == biggest[:, None]).int().argmax(dim=1)
    bits = x.view(torch.int32).long()
    xors, ors = bits[:, 0].clone(), bits[:, 0].clone()
    for c in range(1, cols):
        xors ^= bits[:, c]
        ors |= bits[:, c]
    refs = [biggest.double(), first.double(), xors.double(), ors.double()]
    entry = h.manifest["row_combines_h16"]["constexprs"]
    h.run_row(f"row_combines fp32 {rows}x{cols} (torch: max with indices)",
              "row_combines_h16", (h.triton.cdiv(rows, entry["ROWS"]),),
              (x, *outs, rows, cols, x.stride(0)), outs, refs, 0.0,
              4 * rows * cols, "GB/s",
              lambda: torch.max(torch.floor(x * 4.0), dim=1))


def row_flip_rows(h):
    """examples/flip_cat.tile's flip_rows_kernel (tl.flip of rows and of
    chunks, tl.cat) on 16384 rows of 256; tl.cat's output is not checked
    (Triton may reorder it). torch: torch.flip of the rows."""
    torch = h.torch
    rows, cols, block = 16384, 256, 256
    x = torch.rand((rows, cols), device="cuda") * 2 - 1
    rev, chunks = torch.empty_like(x), torch.empty_like(x)
    cat = torch.empty((rows, 2 * block), device="cuda")
    ref_rev = x.double().flip(1)
    ref_chunks = x.double().view(rows, block // 32, 32).flip(1).reshape(
        rows, block)
    h.run_row(f"flip_rows fp32 {rows}x{cols} (torch: flip)", "flip_rows_h16",
              (rows,), (x, rev, chunks, cat, cols, x.stride(0)),
              [rev, chunks], [ref_rev, ref_chunks], 0.0,
              (1 + 2 + 2) * 4 * rows * cols, "GB/s",
              lambda: torch.flip(x, dims=(1,)))


def row_sort_rows(h):
    """examples/sort.tile's sort_rows_kernel (tl.sort of floats ascending and
    descending, of integers; tl.topk) on 16384 rows of 256. torch:
    torch.sort of the rows, ascending."""
    torch = h.torch
    rows, cols = 16384, 256
    x = torch.rand((rows, cols), device="cuda") * 2 - 1
    outs = [torch.empty_like(x), torch.empty_like(x),
            torch.empty((rows, cols), device="cuda", dtype=torch.int32),
            torch.empty((rows, 16), device="cuda", dtype=torch.int32)]
    level = (torch.floor(x * 8.0) / 8.0).double()
    asc = level.sort(dim=1).values
    ints = (x * 1000.0).to(torch.int32).sort(dim=1).values.double()
    h.run_row(f"sort_rows fp32 {rows}x{cols} (torch: sort)", "sort_rows_h16",
              (rows,), (x, *outs, cols, x.stride(0)), outs,
              [asc, asc.flip(1), ints, ints.flip(1)[:, :16]], 0.0,
              4 * 4 * rows * cols, "GB/s", lambda: torch.sort(x, dim=1))


def row_asm_bytes(h):
    """examples/inline_asm.tile's asm_bytes_kernel (tl.inline_asm_elementwise,
    four bytes a register) on 2^24 + 7 elements. torch: the same bytes
    computed eagerly."""
    torch = h.torch
    n = (1 << 24) + 7
    x = torch.rand(n, device="cuda") * 2 - 1
    y = torch.empty(n, device="cuda", dtype=torch.int8)
    b = (x * 100.0).to(torch.int8)
    ref = ((b.to(torch.int32) & 0x1F) << 3).to(torch.int8).double()
    h.run_row(f"asm_bytes {n} (torch: eager)", "asm_bytes",
              (h.triton.cdiv(n, 1024),), (x, y, n), [y], [ref], 0.0,
              5 * n, "GB/s",
              lambda: (((x * 100.0).to(torch.int8).to(torch.int32) & 0x1F)
                       << 3).to(torch.int8))


def row_asm_pair(h):
    """examples/inline_asm.tile's asm_pair_kernel (two results of one asm
    block) on 2^24 + 7 elements. torch: x + s and x - s."""
    torch = h.torch
    n = (1 << 24) + 7
    shift = 0.375
    x = torch.rand(n, device="cuda") * 2 - 1
    total, difference = torch.empty_like(x), torch.empty_like(x)
    h.run_row(f"asm_pair fp32 {n} (torch: add, sub)", "asm_pair",
              (h.triton.cdiv(n, 1024),), (x, total, difference, n, shift),
              [total, difference], [(x + shift).double(), (x - shift).double()],
              0.0, 12 * n, "GB/s", lambda: (x + shift, x - shift))


def row_map_elementwise(h):
    """examples/map_elementwise.tile's map_elementwise_kernel (SELU with
    per-element branches, Collatz step counts in a per-element loop, a
    pack=2 swap, a (max, first index) reduction whose combine branches) on
    2^24 + 7 elements. torch's row: torch.nn.functional.selu alone."""
    torch = h.torch
    n = (1 << 24) + 7
    block = h.manifest["map_elementwise"]["constexprs"]["BLOCK"]
    alpha, scale = 1.6732632, 1.0507009873554805
    x = torch.rand(n, device="cuda") * 2 - 1
    programs = h.triton.cdiv(n, block)
    outs = [torch.empty_like(x) for _ in range(4)]
    outs[3] = torch.empty(programs, device="cuda")
    argmax = torch.empty(programs, device="cuda", dtype=torch.int32)
    xd = x.double()
    selu = torch.where(xd > 0, scale * xd, scale * alpha * torch.expm1(xd))
    seeds = ((x.abs() * 1000.0).to(torch.int32) + 1).long()
    steps = torch.zeros_like(seeds)
    while bool((seeds > 1).any()):
        live = seeds > 1
        steps += live.long()
        seeds = torch.where(live, torch.where(seeds % 2 == 0, seeds // 2,
                                              3 * seeds + 1), seeds)
    partner = torch.arange(n, device="cuda") ^ 1
    swap = torch.where(partner < n, xd[partner.clamp(max=n - 1)], 0.0)
    padded = torch.full((programs * block,), -float("inf"), device="cuda",
                        dtype=torch.float64)
    padded[:n] = xd
    largest, at = padded.view(programs, block).max(dim=1)
    first = at + torch.arange(programs, device="cuda") * block
    h.run_row(f"map_elementwise fp32 {n} (torch: selu alone)",
              "map_elementwise", (programs,),
              (x, *outs, argmax, n, alpha), outs + [argmax],
              [selu, steps.double(), swap, largest, first.double()], 1e-6,
              16 * n, "GB/s", lambda: torch.nn.functional.selu(x))


def row_gather_rows(h):
    """examples/gather_histogram.tile's gather_rows_kernel (tl.gather of 32
    indices along rows of 64) on 65536 rows. torch: torch.gather."""
    torch = h.torch
    rows, n, k = 65536, 64, 32
    src = torch.rand((rows, n), device="cuda") * 2 - 1
    idx = torch.randint(0, n, (rows, k), device="cuda", dtype=torch.int32)
    out = torch.empty((rows, k), device="cuda")
    ref = torch.gather(src.double(), 1, idx.long())
    idx64 = idx.long()
    h.run_row(f"gather_rows fp32 {rows}x{n} by {k} (torch: gather)",
              "gather_rows", (h.triton.cdiv(rows, 32),), (src, idx, out, rows),
              [out], [ref], 0.0, (n + 2 * k) * 4 * rows, "GB/s",
              lambda: torch.gather(src, 1, idx64))


def row_row_histogram(h):
    """examples/gather_histogram.tile's row_histogram_kernel (tl.histogram of
    each row's values bucketed into 64) on 16384 rows of 1000. torch: the
    same counts through one_hot and sum is far slower; torch.bincount of
    row-offset buckets is the baseline."""
    torch = h.torch
    rows, cols, bins = 16384, 1000, 64
    x = torch.rand((rows, cols), device="cuda") * 2 - 1
    out = torch.empty((rows, bins), device="cuda", dtype=torch.int32)
    bucket = ((x + 1.0) * (bins // 2)).to(torch.int32).clamp(max=bins)
    offsets = (torch.arange(rows, device="cuda") * (bins + 1))[:, None]
    flat = (bucket + offsets).flatten()
    ref = torch.bincount(flat, minlength=rows * (bins + 1)).view(
        rows, bins + 1)[:, :bins].double()
    h.run_row(f"row_histogram {rows}x{cols} into {bins} (torch: bincount)",
              "row_histogram", (rows,), (x, out, cols, x.stride(0)), [out],
              [ref], 0.0, (cols + bins) * 4 * rows, "GB/s",
              lambda: torch.bincount(flat, minlength=rows * (bins + 1)))


def row_hash_buckets(h):
    """examples/hashing.tile's hash_buckets_kernel (MurmurHash3's finalizer
    of uint32 keys, unsigned %, >= and >>) on 2^26 + 3 keys. torch: the same
    arithmetic eagerly, in int64 masked to 32 bits."""
    torch = h.torch
    n = (1 << 26) + 3
    buckets, split = 1009, 0xC0000000
    wide = torch.randint(0, 1 << 32, (n,), device="cuda", dtype=torch.int64)
    keys = wide.to(torch.int32).view(torch.uint32)
    bucket = torch.empty(n, device="cuda", dtype=torch.int32)
    unit = torch.empty(n, device="cuda")

    def mix(x):
        mask = 0xFFFFFFFF
        x = x ^ (x >> 16)
        x = (x * 0x85EBCA6B) & mask
        x = x ^ (x >> 13)
        x = (x * 0xC2B2AE35) & mask
        return x ^ (x >> 16)

    def eager():
        m = mix(wide)
        return m % buckets + (m >= split) * buckets, (m >> 8) * 2.0**-24

    ref_bucket, ref_unit = eager()
    h.run_row(f"hash_buckets u32 {n} (torch: eager int64)", "hash_buckets",
              (h.triton.cdiv(n, 1024),),
              (keys, bucket, unit, n, buckets, split), [bucket, unit],
              [ref_bucket.double(), ref_unit.double()], 0.0, 12 * n, "GB/s",
              eager)


def row_dependent_launch(h):
    """examples/dependent_launch.tile's chained_add_kernel eight times in a
    row (s = s + y), each a programmatic dependent launch of the one
    before (launch_pdl=True under tilec and Triton alike), on 2^20 + 3
    elements: short kernels, where the overlap of one's tail with the next
    one's start shows. torch: eight adds."""
    torch = h.torch
    n, links = (1 << 20) + 3, 8
    x = randn(torch, n, torch.float32)
    y = randn(torch, n, torch.float32)
    sums = [torch.empty_like(x) for _ in range(links)]
    ref = x.double()
    for _ in range(links):
        ref = (ref.float() + y).double()
    grid = (h.triton.cdiv(n, 1024),)
    tilec = h.tilec("vector_add_gdc")
    triton_launch = h.triton_kernel("vector_add_gdc", launch_pdl=True)

    def chain(launch):
        def run():
            prev = x
            for s in sums:
                launch(prev, s)
                prev = s
        return run

    row = f"dependent_launch fp32 {n}, {links} chained launches (torch: add)"
    work = links * 12 * n
    h.measure(row, "tilec",
              chain(lambda a, s: tilec[grid](a, y, s, n, launch_pdl=True)),
              [sums[-1]], [ref], 0.0, work, "GB/s")
    h.measure(row, "triton",
              chain(lambda a, s: triton_launch(grid, a, y, s, n)),
              [sums[-1]], [ref], 0.0, work, "GB/s")
    h.measure(row, "torch", chain(lambda a, s: torch.add(a, y, out=s)),
              [sums[-1]], [ref], 0.0, work, "GB/s")


def matmul_row(h, name, dtype, m, n, k, blocks, kind="ptr"):
    torch = h.torch
    a = randn(torch, (m, k), dtype)
    # kind "bt": B given as Bt [N, K] (matmul_bt_block_ptr_kernel).
    stored = randn(torch, (n, k) if kind == "bt" else (k, n), dtype)
    b = stored.t() if kind == "bt" else stored
    c = torch.empty((m, n), device="cuda", dtype=dtype)
    ref = a.double() @ b.double()
    bm, bn = blocks
    grid = (h.triton.cdiv(m, bm), h.triton.cdiv(n, bn))
    torch_fn = lambda: torch.matmul(a, b, out=c)  # noqa: E731
    if kind == "ptr":
        args = (a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                b.stride(1), c.stride(0), c.stride(1))
    elif kind == "bias_relu":
        # matmul_bias_act_kernel(a, b, bias, c, M, N, K, lda, ldb, ldc);
        # torch: cuBLASLt's fused bias + relu epilogue (nn.Linear + ReLU).
        bias = randn(torch, (n,), dtype)
        ref = torch.relu(ref + bias.double())
        args = (a, b, bias, c, m, n, k, a.stride(0), b.stride(0),
                c.stride(0))
        torch_fn = lambda: torch._addmm_activation(bias, a, b,  # noqa: E731
                                                   out=c)
    else:  # (a, b or bt, c, M, N, K, lda, ldb or ldbt, ldc)
        args = (a, stored, c, m, n, k, a.stride(0), stored.stride(0),
                c.stride(0))
    if kind in ("bt", "bias_relu"):  # GROUP_M ordering over a 1-D grid
        grid = (grid[0] * grid[1],)
    h.run_row(f"{name} {m}x{n}x{k}", name, grid, args, [c], [ref],
              1e-3 if dtype == torch.float16 else 1e-2, 2 * m * n * k,
              "TFLOP/s", torch_fn, torch_checked=True)


def row_matmul_fp16(h):
    matmul_row(h, "matmul_ptr_fp16_tc_n256", h.torch.float16, 4096, 4096,
               4096, (128, 256))


def row_matmul_bf16(h):
    matmul_row(h, "matmul_ptr_bf16_tc_n256", h.torch.bfloat16, 4096, 4096,
               4096, (128, 256))


def row_matmul_fp16_ragged(h):
    """The seed matmul without alignment hints, 128 x 128 x 32 and 128 x 256
    x 64 blocks, then 128 x 256 x 64 with ':8' strides."""
    for name, blocks in (("matmul_ptr_fp16_tc", (128, 128)),
                         ("matmul_ptr_fp16_tc_u256", (128, 256))):
        matmul_row(h, name, h.torch.float16, 4095, 4095, 4095, blocks)
        matmul_row(h, name, h.torch.float16, 3000, 5000, 2000, blocks)
    # With tilec's ':8' on the strides (its JIT's specialization of these
    # sizes; Triton's launcher gives them none).
    matmul_row(h, "matmul_ptr_fp16_tc_h8", h.torch.float16, 3000, 5000, 2000,
               (128, 256))


def row_matmul_int8(h):
    """examples/matmul_dtypes.tile's matmul_int8_kernel: int8 A and B, both
    row-major (B's rows are of N: 8-bit wgmma reads B only K-major, so
    tilec stages it through registers), summed exactly into int32; 4096^3
    and 3000x5008x2000 (M ragged; the build's hints want N, K and the row
    strides multiples of 16). torch: torch._int_mm."""
    torch = h.torch
    for m, n, k in ((4096, 4096, 4096), (3000, 5008, 2000)):
        a = torch.randint(-128, 128, (m, k), device="cuda", dtype=torch.int8)
        b = torch.randint(-128, 128, (k, n), device="cuda", dtype=torch.int8)
        c = torch.empty((m, n), device="cuda", dtype=torch.int32)
        ref = a.double() @ b.double()
        grid = (h.triton.cdiv(m, 128), h.triton.cdiv(n, 256))
        args = (a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                b.stride(1), c.stride(0), c.stride(1))
        h.run_row(f"matmul_int8_tc_n256 {m}x{n}x{k} (TOPS)",
                  "matmul_int8_tc_n256", grid, args, [c], [ref], 0.0,
                  2 * m * n * k, "TFLOP/s",
                  lambda: torch._int_mm(a, b, out=c), torch_checked=True)


def row_matmul_bias_relu(h):
    """examples/matmul_epilogue.tile: relu(A @ B + bias) with descriptors
    made in the kernel, the epilogue on the accumulator."""
    matmul_row(h, "matmul_bias_relu_fp16_n256", h.torch.float16, 4096, 4096,
               4096, (128, 256), kind="bias_relu")


def row_matmul_desc_fp16(h):
    matmul_row(h, "matmul_desc_fp16_tc_n256", h.torch.float16, 4096, 4096,
               4096, (128, 256), kind="desc")


def row_matmul_bt(h):
    """examples/matmul.tile's matmul_bt_block_ptr_kernel: B given as Bt
    [N, K] through a block pointer of order (0, 1) (torch: a @ bt.t(), the
    product nn.Linear runs): B copied by TMA from a map of Bt."""
    matmul_row(h, "matmul_bt_bp_fp16_tc_n256", h.torch.float16, 4096, 4096,
               4096, (128, 256), kind="bt")


def row_mx_matmul(h):
    """examples/mx_matmul.tile (tl.dot_scaled) with A in fp4 (e2m1, two a
    byte) and B in fp8 (e4m3), one e8m0 scale per 32 elements along K, at
    4096^3, from the build whose M, N and K are declared multiples of 16
    (as Triton's launcher specializes them there). torch: cuBLAS's bf16
    matmul of the decoded, scaled operands
    (the product tl.dot_scaled decodes to on sm_90)."""
    torch = h.torch
    m = n = k = 4096
    a = torch.randint(0, 256, (m, k // 2), device="cuda", dtype=torch.uint8)
    b = torch.randint(0, 256, (k, n), device="cuda", dtype=torch.uint8)
    b[(b & 0x7F) == 0x7F] = 0  # no e4m3 NaN
    a_scale = torch.randint(124, 131, (m, k // 32), device="cuda",
                            dtype=torch.uint8)
    b_scale = torch.randint(124, 131, (n, k // 32), device="cuda",
                            dtype=torch.uint8)
    fp4 = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], device="cuda",
                       dtype=torch.float64)
    fp4 = torch.cat([fp4, -fp4])
    # The first value of a byte is its low nibble.
    a_values = torch.stack([fp4[(a & 15).long()], fp4[(a >> 4).long()]],
                           dim=-1).reshape(m, k)
    b_values = b.view(torch.float8_e4m3fn).double()
    a_full = a_values * torch.exp2(a_scale.double() - 127).repeat_interleave(
        32, dim=1)
    b_full = b_values * torch.exp2(b_scale.double() - 127).repeat_interleave(
        32, dim=1).T
    ref = a_full @ b_full
    a16, b16 = a_full.to(torch.bfloat16), b_full.to(torch.bfloat16)
    c = torch.empty((m, n), device="cuda", dtype=torch.float32)
    c16 = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
    name = "mx_matmul_fp4_fp8_h16"
    bm = h.manifest[name]["constexprs"]["BLOCK_M"]
    bn = h.manifest[name]["constexprs"]["BLOCK_N"]
    h.run_row(f"mx_matmul_fp4_fp8 {m}x{n}x{k} (torch: bf16 matmul of the "
              "decoded operands)", name,
              (h.triton.cdiv(m, bm), h.triton.cdiv(n, bn)),
              (a, a_scale, b, b_scale, c, m, n, k, a.stride(0), b.stride(0),
               c.stride(0)), [c], [ref], 1e-4, 2 * m * n * k, "TFLOP/s",
              lambda: torch.matmul(a16, b16, out=c16))


def batched_matmul_row(h, name, label, batch, m, n, k, per_program):
    """A batched matmul row: manifest entry name (batched_matmul_kernel's
    argument list) on a batch of row-major fp16 products into fp32,
    per_program matrices a program. torch: bmm with fp16 output (cuBLAS's
    batched GEMM), unchecked."""
    torch = h.torch
    entry = h.manifest[name]["constexprs"]
    a = randn(torch, (batch, m, k), torch.float16)
    b = randn(torch, (batch, k, n), torch.float16)
    c = torch.empty((batch, m, n), device="cuda", dtype=torch.float32)
    c16 = torch.empty((batch, m, n), device="cuda", dtype=torch.float16)
    grid = (h.triton.cdiv(batch, per_program),
            h.triton.cdiv(m, entry["BLOCK_M"]),
            h.triton.cdiv(n, entry["BLOCK_N"]))
    h.run_row(f"{label} fp16 {batch}x{m}x{n}x{k} (torch: bmm, fp16 out)",
              name, grid,
              (a, b, c, batch, m, n, k, *a.stride(), *b.stride(),
               *c.stride()), [c], [a.double() @ b.double()], 1e-5,
              2 * batch * m * n * k, "TFLOP/s",
              lambda: torch.bmm(a, b, out=c16))


def row_batched_matmul(h):
    """examples/batched_matmul.tile (a 3-D tl.dot, two 64x64 products a
    program) on a batch of 4096 64x64x64 products."""
    name = "batched_matmul_wg16"
    batched_matmul_row(h, name, "batched_matmul", 4096, 64, 64, 64,
                       h.manifest[name]["constexprs"]["BLOCK_B"])


def row_batched_matmul_desc(h):
    """batched_matmul_desc_kernel of examples/batched_matmul.tile (one
    matrix a program, tensor descriptors made in the kernel on moved bases:
    3-D TMA maps, tilec's default) on a batch of 64 1024x1024x1024
    products, then as built with --batched-tma=false (plain loads)."""
    for name in ("batched_matmul_desc", "batched_matmul_desc_plain"):
        batched_matmul_row(h, name, name, 64, 1024, 1024, 1024, 1)


def row_batched_attention(h):
    """examples/batched_attention.tile (3-D tl.dot, two sequences a
    program, 64x64 blocks on 8 warps) on 8192 sequences of 128 x 64 fp16.
    torch: scaled_dot_product_attention on the same [8192, 1, 128, 64]."""
    torch = h.torch
    name = "batched_attention_wg"
    entry = h.manifest[name]["constexprs"]
    batch, seq, dim = 8192, 128, 64
    scale = 1.0 / math.sqrt(dim)
    q, k, v = (randn(torch, (batch, seq, dim), torch.float16)
               for _ in range(3))
    o = torch.empty_like(q)
    qd, kd, vd = (t.double() for t in (q, k, v))
    ref = torch.softmax(qd @ kd.transpose(1, 2) * scale, dim=-1) @ vd
    q4, k4, v4, o4 = (t.view(batch, 1, seq, dim) for t in (q, k, v, o))

    def sdpa():
        o4.copy_(torch.nn.functional.scaled_dot_product_attention(
            q4, k4, v4, scale=scale))

    h.run_row(f"batched_attention fp16 {batch}x{seq}x{dim}", name,
              (h.triton.cdiv(batch, entry["BLOCK_B"]),
               h.triton.cdiv(seq, entry["BLOCK_M"])),
              (q, k, v, o, batch, seq, scale, q.stride(0), q.stride(1)),
              [o], [ref], 2e-3, 4 * batch * seq * seq * dim, "TFLOP/s", sdpa,
              torch_checked=True)


def row_persistent_matmul(h):
    """examples/persistent_matmul.tile on host-side descriptors, 132
    programs: 128 x 128 tiles, then 128 x 256 ones."""
    for name in ("persistent_matmul", "persistent_matmul_n256"):
        persistent_matmul_row(h, name)


def persistent_matmul_row(h, name):
    torch = h.torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    entry = h.manifest[name]["constexprs"]
    bm, bn, bk = entry["BLOCK_M"], entry["BLOCK_N"], entry["BLOCK_K"]
    m = n = k = 4096
    a = randn(torch, (m, k), torch.float16)
    b = randn(torch, (k, n), torch.float16)
    c = torch.empty((m, n), device="cuda", dtype=torch.float16)
    blocks = [(a, [bm, bk]), (b, [bk, bn]), (c, [bm, bn])]
    ours = [tilec_runtime.TensorDescriptor(t, block) for t, block in blocks]
    theirs = [TensorDescriptor.from_tensor(t, block) for t, block in blocks]
    h.run_row(f"{name} fp16 {m}x{n}x{k}", name,
              (entry["NUM_PROGRAMS"],), (*ours, m, n, k), [c],
              [a.double() @ b.double()], 1e-3, 2 * m * n * k, "TFLOP/s",
              lambda: torch.matmul(a, b, out=c), torch_checked=True,
              triton_args=(*theirs, m, n, k))


def row_persistent_matmul_ptr(h):
    # The same product in the pointer form of Triton's persistent tutorial
    # (tl.range(..., flatten=True)), NUM_PROGRAMS programs.
    torch = h.torch
    name = "persistent_matmul_ptr"
    m = n = k = 4096
    a = randn(torch, (m, k), torch.float16)
    b = randn(torch, (k, n), torch.float16)
    c = torch.empty((m, n), device="cuda", dtype=torch.float16)
    h.run_row(f"persistent_matmul_ptr fp16 {m}x{n}x{k}", name,
              (h.manifest[name]["constexprs"]["NUM_PROGRAMS"],),
              (a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
               b.stride(1), c.stride(0), c.stride(1)), [c],
              [a.double() @ b.double()], 1e-3, 2 * m * n * k, "TFLOP/s",
              lambda: torch.matmul(a, b, out=c), torch_checked=True)


def row_linear(h):
    """examples/linear.tile: y = x @ w.T (torch.nn.functional.linear without
    bias) in fp16 at 4096^3, w [N, K] read through its transpose: the
    pointer build, then the one on host-side tensor descriptors. torch:
    torch.mm(x, w.t()), what linear runs."""
    torch = h.torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    m = n = k = 4096
    x = randn(torch, (m, k), torch.float16)
    w = randn(torch, (n, k), torch.float16)
    y = torch.empty((m, n), device="cuda", dtype=torch.float16)
    ref = x.double() @ w.double().T
    name = "linear_fp16"
    entry = h.manifest[name]["constexprs"]
    grid = (h.triton.cdiv(m, entry["BLOCK_M"]), h.triton.cdiv(n, entry["BLOCK_N"]))
    h.run_row(f"linear_fp16 {m}x{n}x{k}", name, grid,
              (x, w, y, m, n, k, x.stride(0), x.stride(1), w.stride(1),
               w.stride(0), y.stride(0), y.stride(1)), [y], [ref], 1e-3,
              2 * m * n * k, "TFLOP/s",
              lambda: torch.mm(x, w.t(), out=y),
              torch_checked=True)
    name = "linear_desc_fp16"
    entry = h.manifest[name]["constexprs"]
    bm, bn, bk = entry["BLOCK_M"], entry["BLOCK_N"], entry["BLOCK_K"]
    blocks = [(x, [bm, bk]), (w, [bn, bk]), (y, [bm, bn])]
    ours = [tilec_runtime.TensorDescriptor(t, block) for t, block in blocks]
    theirs = [TensorDescriptor.from_tensor(t, block) for t, block in blocks]
    h.run_row(f"linear_desc_fp16 {m}x{n}x{k}", name,
              (h.triton.cdiv(m, bm), h.triton.cdiv(n, bn)), (*ours, m, n, k),
              [y], [ref], 1e-3, 2 * m * n * k, "TFLOP/s",
              lambda: torch.mm(x, w.t(), out=y),
              torch_checked=True, triton_args=(*theirs, m, n, k))


def attention_row(h, name, dtype, heads, seq, dim):
    """The attention forward kernel of manifest entry name (attention_fwd of
    examples/attention.tile, or attn_fwd or attn_fwd_desc of
    examples/flash_attention.tile,
    causal when its CAUSAL is 1, over a sliding window of its WINDOW keys
    when given) on heads x seq x dim Q, K, V; torch's is
    scaled_dot_product_attention (a window as its boolean mask). A causal
    row counts half the flops, a window's the keys it sees."""
    torch = h.torch
    entry = h.manifest[name]["constexprs"]
    causal = bool(entry.get("CAUSAL", 0))
    window = int(entry.get("WINDOW", 0))
    scale = 1.0 / math.sqrt(dim)
    q, k, v = (randn(torch, (heads, seq, dim), dtype) for _ in range(3))
    o = torch.empty_like(q)
    # float64 reference, a few heads at a time (a seq x seq score matrix per
    # head).
    ref = torch.empty((heads, seq, dim), device="cuda", dtype=torch.float64)
    chunk = max(1, 2**26 // (seq * seq))
    future = torch.triu(torch.ones(seq, seq, device="cuda", dtype=torch.bool),
                        diagonal=1)
    if window:
        # Query i sees keys i - window + 1 .. i.
        future |= torch.tril(torch.ones(seq, seq, device="cuda",
                                        dtype=torch.bool), diagonal=-window)
    for h0 in range(0, heads, chunk):
        qd, kd, vd = (t[h0:h0 + chunk].double() for t in (q, k, v))
        s = qd @ kd.transpose(1, 2) * scale
        if causal:
            s.masked_fill_(future, float("-inf"))
        ref[h0:h0 + chunk] = torch.softmax(s, dim=-1) @ vd
        del s
    q4, k4, v4, o4 = (t.view(1, heads, seq, dim) for t in (q, k, v, o))

    keep = ~future if window else None

    def sdpa():
        o4.copy_(torch.nn.functional.scaled_dot_product_attention(
            q4, k4, v4, attn_mask=keep, scale=scale,
            is_causal=causal and not window))

    tolerance = 2e-3 if dtype == torch.float16 else 1e-2
    kind = f"window {window}" if window else "causal" if causal else "fwd"
    pairs = (sum(min(i + 1, window) for i in range(seq)) if window else
             seq * seq * (0.5 if causal else 1.0))
    h.run_row(f"{name} {kind} {heads}x{seq}x{dim}", name,
              (h.triton.cdiv(seq, entry["BLOCK_M"]), heads),
              (q, k, v, o, scale, seq), [o], [ref], tolerance,
              4 * heads * pairs * dim, "TFLOP/s", sdpa, torch_checked=True)


def row_attention_window(h):
    """attn_fwd_desc of examples/flash_attention.tile with a sliding window
    of 200 keys (causal; torch: SDPA with the window as a boolean mask)."""
    attention_row(h, "flash_attention_desc_fp16_window", h.torch.float16, 32,
                  4096, 64)


def row_attention_fp16(h):
    attention_row(h, "attention_fp16_m128", h.torch.float16, 64, 4096, 64)


def row_attention_tma(h):
    """attention_fwd of examples/attention.tile (K loaded column-major) as
    built with tilec's experimental --multi-product-tma (K's
    transposed view and V by TMA), the attention_fp16 and
    attention_fp16_d128 rows' shapes."""
    attention_row(h, "attention_fp16_m128_tma", h.torch.float16, 64, 4096, 64)
    attention_row(h, "attention_fp16_d128_tma", h.torch.float16, 32, 4096,
                  128)


def row_attention_store(h):
    """The default attention builds (O stored by a 3-D TMA store) against
    the same built with --batched-tma=false (_unbatched: O stored by the
    threads), same shapes."""
    fp16, bf16 = h.torch.float16, h.torch.bfloat16
    for suffix in ("", "_unbatched"):
        attention_row(h, "attention_fp16_d128" + suffix, fp16, 32, 4096, 128)
        attention_row(h, "flash_attention_fp16" + suffix, fp16, 32, 4096, 64)
        attention_row(h, "flash_attention_bf16_d128" + suffix, bf16, 16, 4096,
                      128)


def row_attention_kt_tma(h):
    """attention_fwd_kt of examples/attention.tile (K loaded as stored,
    transposed for the product) as built by default and with tilec's
    experimental --multi-product-tma (K and V by TMA)."""
    attention_row(h, "attention_kt_fp16", h.torch.float16, 64, 4096, 64)
    attention_row(h, "attention_kt_fp16_tma", h.torch.float16, 64, 4096, 64)


def row_attention_fp16_d128(h):
    attention_row(h, "attention_fp16_d128", h.torch.float16, 32, 4096, 128)


def row_attention_bf16_d128(h):
    attention_row(h, "attention_bf16_d128", h.torch.bfloat16, 32, 4096, 128)


def row_flash_attention(h):
    fp16, bf16 = h.torch.float16, h.torch.bfloat16
    attention_row(h, "flash_attention_fp16", fp16, 128, 1024, 64)
    attention_row(h, "flash_attention_fp16", fp16, 32, 4096, 64)
    attention_row(h, "flash_attention_fp16_causal", fp16, 32, 4096, 64)
    attention_row(h, "flash_attention_fp16_d128_causal", fp16, 16, 4096, 128)
    attention_row(h, "flash_attention_fp16_d128_causal", fp16, 4, 16384, 128)
    attention_row(h, "flash_attention_bf16_d128", bf16, 16, 4096, 128)


def flash_attention_variant_rows(h, prefix):
    """The flash_attention rows' four main shapes for the builds named
    prefix + the dtype and variant suffix."""
    fp16, bf16 = h.torch.float16, h.torch.bfloat16
    attention_row(h, prefix + "_fp16", fp16, 32, 4096, 64)
    attention_row(h, prefix + "_fp16_causal", fp16, 32, 4096, 64)
    attention_row(h, prefix + "_fp16_d128_causal", fp16, 16, 4096, 128)
    attention_row(h, prefix + "_bf16_d128", bf16, 16, 4096, 128)


def row_flash_attention_desc(h):
    """attn_fwd_desc of examples/flash_attention.tile: the flash_attention
    rows' kernel with tensor descriptors made in the kernel (Triton 3.x's
    way; tilec copies K and V with TMA under --multi-product-tma)."""
    flash_attention_variant_rows(h, "flash_attention_desc")


def row_flash_attention_tma(h):
    """attn_fwd of examples/flash_attention.tile built with
    --multi-product-tma (its block pointers' K and V copied by TMA)."""
    flash_attention_variant_rows(h, "flash_attention_tma")


def row_attention_bwd(h):
    """dK/dV and dQ of examples/flash_attention_bwd.tile on 128 heads of
    4096 x 64 fp16 (M and D from a float64 forward), causal and not. The
    torch column of both rows is the whole backward of
    scaled_dot_product_attention (dQ, dK and dV), timed alike: the two
    kernels together compare with it."""
    torch = h.torch
    heads, seq, dim = 128, 4096, 64
    scale = 1.0 / math.sqrt(dim)
    q, k, v, do = (randn(torch, (heads, seq, dim), torch.float16)
                   for _ in range(4))
    for causal in (False, True):
        # float64 reference, a few heads at a time.
        chunk = max(1, 2**26 // (seq * seq))
        future = torch.triu(torch.ones(seq, seq, device="cuda",
                                       dtype=torch.bool), diagonal=1)
        m = torch.empty((heads, seq), device="cuda", dtype=torch.float32)
        delta = torch.empty_like(m)
        refs = [torch.empty((heads, seq, dim), device="cuda",
                            dtype=torch.float64) for _ in range(3)]
        for h0 in range(0, heads, chunk):
            sl = slice(h0, h0 + chunk)
            qd, kd, vd, dod = (t[sl].double() for t in (q, k, v, do))
            s = qd @ kd.transpose(1, 2) * scale
            if causal:
                s.masked_fill_(future, float("-inf"))
            m[sl] = (torch.logsumexp(s, dim=-1) / math.log(2.0)).float()
            p = torch.softmax(s, dim=-1)
            o = (p @ vd).half().double()
            dl = (o * dod).sum(-1)
            delta[sl] = dl.float()
            dp = dod @ vd.transpose(1, 2)
            ds = p * (dp - dl[..., None])
            refs[0][sl] = scale * ds @ kd                  # dQ
            refs[1][sl] = scale * ds.transpose(1, 2) @ qd  # dK
            refs[2][sl] = p.transpose(1, 2) @ dod           # dV
            del s, p, dp, ds
        dq, dk, dv = (torch.empty_like(q) for _ in range(3))
        q4, k4, v4 = (t.view(1, heads, seq, dim).detach().requires_grad_()
                      for t in (q, k, v))
        do4 = do.view(1, heads, seq, dim)
        out = torch.nn.functional.scaled_dot_product_attention(
            q4, k4, v4, scale=scale, is_causal=causal)

        def sdpa_backward():
            torch.autograd.grad(out, (q4, k4, v4), do4, retain_graph=True)

        suffix = "_causal" if causal else ""
        kind = "causal" if causal else "full"
        work = (0.5 if causal else 1.0) * heads * seq * seq * dim
        entry = h.manifest["attn_bwd_dkdv" + suffix]["constexprs"]
        h.run_row(f"attn_bwd_dkdv {kind} {heads}x{seq}x{dim} "
                  "(torch: whole backward)", "attn_bwd_dkdv" + suffix,
                  (h.triton.cdiv(seq, entry["BLOCK_N"]), heads),
                  (q, k, v, do, dk, dv, m, delta, scale, seq), [dk, dv],
                  refs[1:], 1e-2, 8 * work, "TFLOP/s", sdpa_backward)
        entry = h.manifest["attn_bwd_dq" + suffix]["constexprs"]
        h.run_row(f"attn_bwd_dq {kind} {heads}x{seq}x{dim} "
                  "(torch: whole backward)", "attn_bwd_dq" + suffix,
                  (h.triton.cdiv(seq, entry["BLOCK_M"]), heads),
                  (q, k, v, do, dq, m, delta, scale, seq), [dq], refs[:1],
                  1e-2, 6 * work, "TFLOP/s", sdpa_backward)


ROWS = {
    "vector_add": row_vector_add,
    "dependent_launch": row_dependent_launch,
    "softmax": row_softmax,
    "layer_norm": row_layer_norm,
    "rms_norm": row_rms_norm,
    "layer_norm_bwd": row_layer_norm_bwd,
    "rope": row_rope,
    "swiglu": row_swiglu,
    "geglu": row_geglu,
    "cross_entropy": row_cross_entropy,
    "linear_recurrence": row_linear_recurrence,
    "row_combines": row_row_combines,
    "flip_rows": row_flip_rows,
    "sort_rows": row_sort_rows,
    "asm_bytes": row_asm_bytes,
    "asm_pair": row_asm_pair,
    "map_elementwise": row_map_elementwise,
    "gather_rows": row_gather_rows,
    "row_histogram": row_row_histogram,
    "hash_buckets": row_hash_buckets,
    "matmul_fp16": row_matmul_fp16,
    "matmul_bf16": row_matmul_bf16,
    "matmul_fp16_ragged": row_matmul_fp16_ragged,
    "matmul_desc_fp16": row_matmul_desc_fp16,
    "matmul_bt": row_matmul_bt,
    "matmul_bias_relu": row_matmul_bias_relu,
    "matmul_int8": row_matmul_int8,
    "mx_matmul": row_mx_matmul,
    "batched_matmul": row_batched_matmul,
    "batched_matmul_desc": row_batched_matmul_desc,
    "batched_attention": row_batched_attention,
    "persistent_matmul": row_persistent_matmul,
    "persistent_matmul_ptr": row_persistent_matmul_ptr,
    "linear": row_linear,
    "attention_fp16": row_attention_fp16,
    "attention_fp16_d128": row_attention_fp16_d128,
    "attention_bf16_d128": row_attention_bf16_d128,
    "flash_attention": row_flash_attention,
    "flash_attention_desc": row_flash_attention_desc,
    "flash_attention_tma": row_flash_attention_tma,
    "attention_kt_tma": row_attention_kt_tma,
    "attention_tma": row_attention_tma,
    "attention_window": row_attention_window,
    "attention_store": row_attention_store,
    "attention_bwd": row_attention_bwd,
}


def table(results):
    """The rows as (row, unit, {impl: value or 'FAIL'}) in order."""
    rows = {}
    for row, impl, _, value, unit, error in results:
        rows.setdefault(row, (unit, {}))[1][impl] = \
            "FAIL" if error else value
    return [(row, unit, values) for row, (unit, values) in rows.items()]


def format_value(value):
    return value if isinstance(value, str) else f"{value:.1f}" \
        if value is not None else "-"


def print_table(results, out, markdown=False):
    header = ["row", "unit", "tilec", "triton", "torch", "tilec/triton"]
    lines = []
    for row, unit, values in table(results):
        t, tr = values.get("tilec"), values.get("triton")
        ratio = f"{t / tr:.2f}" if isinstance(t, float) and \
            isinstance(tr, float) and tr > 0 else "-"
        lines.append([row, unit] + [format_value(values.get(i)) for i in
                                    ("tilec", "triton", "torch")] + [ratio])
    if markdown:
        out.write("| " + " | ".join(header) + " |\n")
        out.write("|" + "---|" * len(header) + "\n")
        for line in lines:
            out.write("| " + " | ".join(line) + " |\n")
        return
    widths = [max(len(x[i]) for x in [header] + lines)
              for i in range(len(header))]
    for line in [header] + lines:
        out.write("  ".join(x.ljust(w) for x, w in zip(line, widths)) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ptx-dir", type=pathlib.Path,
                        default=ROOT / ".device" / "examples")
    parser.add_argument("--library", default=None,
                        help="libtilec-runtime-c.so (default: "
                             "$TILEC_RUNTIME_C_LIBRARY or .device/lib)")
    parser.add_argument("--only", nargs="+", choices=sorted(ROWS),
                        default=None)
    parser.add_argument("--rep-ms", type=int, default=100,
                        help="do_bench's time budget per measurement")
    parser.add_argument("--markdown", type=pathlib.Path, default=None)
    args = parser.parse_args()

    stack = gpu_stack()
    if not stack:
        return SKIP
    torch, triton = stack
    torch.cuda.init()
    # Triton's device-side tensor descriptors live in memory it asks for.
    triton.set_allocator(lambda size, alignment, stream: torch.empty(
        size, dtype=torch.int8, device="cuda"))
    try:
        ctx = tilec_runtime.Runtime(args.library).context()
    except (OSError, tilec_runtime.TilecError) as error:
        print(f"SKIP: tilec's runtime: {error}")
        return SKIP
    manifest = {name: {"source": source, "kernel": kernel,
                       "signature": signature, "num_warps": warps,
                       "num_stages": stages, "constexprs": constexprs}
                for name, source, kernel, signature, warps, stages,
                constexprs in parse_manifest(args.ptx_dir /
                                             "ptx-manifest.tsv")}
    print(f"compare: {ctx.device}; torch {torch.__version__}, triton "
          f"{triton.__version__}; do_bench median, L2 flushed", flush=True)
    seed = torch.seed()
    print(f"compare: torch seed {seed}", flush=True)
    h = Harness(torch, triton, ctx, args.ptx_dir, manifest, args.rep_ms)
    for name in args.only or ROWS:
        try:
            ROWS[name](h)
        except Exception as error:  # A row that cannot even be set up.
            print(f"BENCH compare row={name} FAIL: "
                  f"{type(error).__name__}: {error}", flush=True)
            h.results.append((name, "tilec", None, None, "-", str(error)))
            h.failures += 1
        torch.cuda.empty_cache()
    print()
    print_table(h.results, sys.stdout)
    if args.markdown:
        with open(args.markdown, "w") as out:
            print_table(h.results, out, markdown=True)
    print(f"compare: {h.failures} failure(s)")
    return 1 if h.failures else 0


if __name__ == "__main__":
    sys.exit(main())
