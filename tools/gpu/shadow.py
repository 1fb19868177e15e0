#!/usr/bin/env python3
# ===- tools/gpu/shadow.py - Every Triton launch of a program, again by tilec ===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===------------------------------------------------------------------------===#
"""Run a Python program that launches Triton kernels (a kernel library's
tests, a tutorial, a model step) and launch each of its launches a second
time with tilec: the same source file and kernel, compiled by tilec for the
specialization Triton's launcher chose, on the same arguments and grid;
then compare what the two wrote.

  python3 tools/gpu/shadow.py --tilec PATH --library libtilec-runtime-c.so \
      [--per-kernel N] [--bench] [--json FILE] -- program.py ARGS...

For each launch (JITFunction.run, after @triton.autotune and
@triton.heuristics chose their configuration; launches made while an
autotuner benchmarks its configurations are left alone):

 1. every tensor among the arguments (in tuples too, a tensor descriptor's
    base) is saved;
 2. Triton's launch runs, and its results are saved;
 3. the arguments Triton's launch changed are restored (through .data, as a
    kernel writes them: autograd's version counters stay as they were),
    tilec's kernel runs on them (compiled once
    per specialization: pointers and integers that are multiples of 16 as
    `:16`, the integer 1 as `:1`, None as `None`, constexprs with `-D`,
    num_warps and num_stages as given, the file's package root on `-I`);
 4. each argument tensor is compared with Triton's: integers and booleans
    exactly, floats by the relative error of the norm (fp64 1e-9, fp32
    1e-5, fp16/bf16 1e-2, fp8 1e-1; fp32 1e-3 when tilec's PTX has tf32
    products, 1e-2 when it computes with 16-bit floats) with NaN and
    infinities where Triton has them;
 5. Triton's results are put back, so the program goes on with them.

A line per compared launch goes to standard error, then a summary by kernel;
the exit status is 1 when any launch differed or failed under tilec. With
--bench, each specialization's first launch is also timed under both by
triton.testing.do_bench (L2 flushed, median). Only argument tensors are
compared: memory reached through pointers stored in tensors is not.
"""

import argparse
import atexit
import collections
import hashlib
import inspect
import json
import os
import pathlib
import re
import runpy
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bench"))
import tilec_runtime  # noqa: E402

LAUNCH_OPTIONS = {"num_warps", "num_stages", "num_ctas", "maxnreg",
                  "enable_fp_fusion", "launch_cooperative_grid",
                  "launch_pdl", "debug", "instrumentation_mode",
                  "sanitize_overflow", "enable_reflect_ftz", "extern_libs",
                  "stream", "warmup", "device", "device_type"}

# Signature names of torch dtypes.
TORCH_DTYPES = tilec_runtime.TORCH_DTYPES

# Relative error allowed between tilec's and Triton's float results.
TOLERANCE = {"float64": 1e-9, "float32": 1e-5, "float16": 1e-2,
             "bfloat16": 1e-2, "float8_e4m3fn": 1e-1, "float8_e5m2": 1e-1}
# fp32 results of a kernel whose products round their operands to tf32
# (tl.dot's default precision on fp32), or that computes with 16-bit floats
# (a bf16 row summed in bf16: the order of the additions matters at bf16's
# precision), told by the instructions of tilec's PTX.
TF32_TOLERANCE = 1e-3
HALF_TOLERANCE = 1e-2
HALF_ARITHMETIC = re.compile(r"\b(add|sub|mul|fma|min|max)(\.rn)?\.(bf16|f16)")


class Unsupported(Exception):
    """An argument the shadow cannot give tilec."""


def dtype_name(dtype):
    """The signature name of a torch dtype, or of a Triton dtype (a tensor
    given as triton.reinterpret(t, tl.float8e5) has one)."""
    name = str(dtype).rsplit(".", 1)[-1]
    if name in TORCH_DTYPES.values():
        return name
    if name not in TORCH_DTYPES:
        raise Unsupported(f"tensors of {dtype}")
    return TORCH_DTYPES[name]


def int_type(value):
    if -2**31 <= value < 2**31:
        return "i32"
    if -2**63 <= value < 2**63:
        return "i64"
    return "u64"


def is_tensor(value):
    return hasattr(value, "data_ptr") and hasattr(value, "dtype")


def entry(value, hinted):
    """The signature entry of a run-time argument as Triton's launcher
    specializes it, and its launch arguments (flattened)."""
    if value is None:
        return "None", []
    if is_tensor(value):
        hint = ":16" if hinted and value.data_ptr() % 16 == 0 else ""
        return f"*{dtype_name(value.dtype)}{hint}", [value]
    if isinstance(value, bool):
        return "i1", [value]
    if isinstance(value, int):
        hint = ""
        if hinted and value == 1:
            hint = ":1"
        elif hinted and value % 16 == 0:
            hint = ":16"
        return int_type(value) + hint, [value]
    if isinstance(value, float):
        return "fp32", [value]
    if isinstance(value, tuple):
        entries, launch = [], []
        for element in value:
            e, a = entry(element, hinted)
            entries.append(e)
            launch += a
        inner = ", ".join(entries) + ("," if len(entries) == 1 else "")
        return f"({inner})", launch
    if type(value).__name__ == "TensorDescriptor":
        base = value.base
        block = ", ".join(str(b) for b in value.block_shape)
        desc = tilec_runtime.TensorDescriptor(
            base, list(value.block_shape), shape=list(value.shape),
            strides=list(value.strides), dtype=base.dtype)
        return f"tensordesc<{dtype_name(base.dtype)}[{block}]>", [desc]
    raise Unsupported(f"an argument of type {type(value).__name__}")


def constexpr_text(value):
    """A constexpr's value as tilec's -D reads it."""
    if type(value).__name__ == "constexpr":  # tl.constexpr(...) given
        value = value.value
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value + '"'
    if type(value).__name__ == "dtype":  # triton.language.dtype
        return str(value)
    raise Unsupported(f"a constexpr of type {type(value).__name__}")


def specialize(tilec, fn, args, kwargs):
    """The tilec command compiling the launch fn[grid](*args, **kwargs) of
    JITFunction fn (its .fn, .params, .signature) as Triton's launcher
    specializes it, the launch arguments of tilec's kernel, and the bound
    arguments by name."""
    options = {k: v for k, v in kwargs.items() if k in LAUNCH_OPTIONS}
    params = {p.name: p for p in fn.params}
    bound = fn.signature.bind(*args, **{k: v for k, v in kwargs.items()
                                        if k in params})
    bound.apply_defaults()
    entries, defines, launch = [], [], []
    for name, value in bound.arguments.items():
        param = params[name]
        if param.is_constexpr:
            defines.append(f"{name}={constexpr_text(value)}")
            continue
        e, a = entry(value, not param.do_not_specialize)
        if e.startswith("*") and getattr(
                param, "do_not_specialize_on_alignment", False):
            e = e.split(":")[0]
        entries.append(e)
        launch += a
    if (options.get("num_ctas") or 1) != 1:
        raise Unsupported(f"num_ctas={options['num_ctas']}")
    source = pathlib.Path(inspect.getsourcefile(fn.fn)).resolve()
    # The package root: the directory above the outermost package.
    root = source.parent
    while (root / "__init__.py").exists():
        root = root.parent
    command = [tilec, str(source), "-k", fn.fn.__name__, "-s",
               ", ".join(entries),
               "--num-warps", str(options.get("num_warps") or 4),
               "--num-stages", str(options.get("num_stages") or 3),
               "-I", str(root)]
    if options.get("enable_fp_fusion") is False:
        command.append("--fp-fusion=false")
    for d in defines:
        command += ["-D", d]
    return command, launch, bound.arguments


class Shadow:
    def __init__(self, torch, triton, tilec, ctx, per_kernel, bench, workdir):
        self.torch, self.triton, self.tilec = torch, triton, tilec
        self.ctx, self.per_kernel, self.bench = ctx, per_kernel, bench
        self.workdir = workdir
        self.kernels = {}      # compile key -> tilec kernel or error text
        self.fp32_limit = {}   # compile key -> limit for fp32 results
        self.seen = collections.Counter()   # compile key -> launches compared
        self.records = []
        self.in_autotune = 0

    def compile(self, key, command):
        """tilec's kernel of `command` (compiled once per key), or the text
        of its error."""
        if key not in self.kernels:
            out = pathlib.Path(self.workdir) / f"{key}.ptx"
            done = subprocess.run(command + ["-o", str(out)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                lines = [line for line in done.stderr.splitlines()
                         if "error" in line] or done.stderr.splitlines()
                self.kernels[key] = "tilec: " + (lines[0] if lines
                                                 else "failed")
            else:
                name = command[command.index("-k") + 1]
                self.kernels[key] = self.ctx.load_module(out).kernel(name)
                ptx = out.read_text()
                self.fp32_limit[key] = (
                    HALF_TOLERANCE if HALF_ARITHMETIC.search(ptx) else
                    TF32_TOLERANCE if ".tf32" in ptx else
                    TOLERANCE["float32"])
        return self.kernels[key]

    # -- the comparison ----------------------------------------------------
    def tensors(self, value, out):
        if type(value).__name__ == "TensorWrapper":  # triton.reinterpret
            out.append(value.base)
        elif is_tensor(value):
            out.append(value)
        elif isinstance(value, (tuple, list)):
            for v in value:
                self.tensors(v, out)
        elif type(value).__name__ == "TensorDescriptor":
            out.append(value.base)
        return out

    def difference(self, ours, theirs, fp32_limit):
        """None when ours matches theirs (fp32 results within `fp32_limit`),
        else why not."""
        torch = self.torch
        if ours.dtype in (torch.bool,) or not ours.is_floating_point():
            # Compared as bytes: torch lacks != on some unsigned types.
            a = ours.contiguous().reshape(-1).view(torch.uint8)
            b = theirs.contiguous().reshape(-1).view(torch.uint8)
            bad = int((a != b).sum())
            return None if bad == 0 else \
                f"{bad} of {a.numel()} bytes differ"
        a, b = ours.double(), theirs.double()
        nan_a, nan_b = torch.isnan(a), torch.isnan(b)
        if not torch.equal(nan_a, nan_b):
            return (f"NaN at {int((nan_a & ~nan_b).sum())} elements where "
                    f"Triton has a number, {int((nan_b & ~nan_a).sum())} "
                    f"the other way")
        inf_a, inf_b = torch.isinf(a), torch.isinf(b)
        if not torch.equal(inf_a, inf_b) or not torch.equal(a[inf_a],
                                                            b[inf_b]):
            return "infinities differ"
        finite = ~(nan_b | inf_b)
        a, b = a[finite], b[finite]
        norm = float(torch.linalg.vector_norm(b))
        error = float(torch.linalg.vector_norm(a - b)) / norm if norm \
            else float(torch.linalg.vector_norm(a))
        limit = TOLERANCE[str(ours.dtype).rsplit(".", 1)[-1]]
        if ours.dtype == torch.float32:
            limit = fp32_limit
        return None if error <= limit else \
            f"relative error {error:.3g} > {limit:g}"

    def run(self, original, fn, args, grid, kwargs):
        torch = self.torch
        name = fn.fn.__name__
        record = {"kernel": name}
        try:
            command, launch, bound = specialize(self.tilec, fn, args, kwargs)
        except Unsupported as why:
            record.update(result="UNSUPPORTED", why=str(why))
            self.note(record)
            return original(fn, *args, grid=grid, warmup=False, **kwargs)
        record["signature"] = command[command.index("-s") + 1]
        record["defines"] = [command[i + 1] for i, c in enumerate(command)
                             if c == "-D"]
        key = hashlib.sha1("\0".join(command).encode()).hexdigest()[:16]
        if self.seen[key] >= self.per_kernel:
            return original(fn, *args, grid=grid, warmup=False, **kwargs)
        self.seen[key] += 1
        tensors = self.tensors(list(bound.values()), [])
        saved = [t.clone() for t in tensors]
        result = original(fn, *args, grid=grid, warmup=False, **kwargs)
        torch.cuda.synchronize()
        theirs = [t.clone() for t in tensors]
        # Rewritten through .data, as the kernels write them: without
        # touching autograd's version counters (a weight saved for the
        # backward pass stays valid); only those Triton's launch changed
        # need their result put back.
        written = [i for i, (s, r) in enumerate(zip(saved, theirs))
                   if not torch.equal(s.reshape(-1).view(torch.uint8),
                                      r.reshape(-1).view(torch.uint8))]
        dims = grid(dict(bound, **kwargs)) if callable(grid) else grid
        dims = tuple(dims) if isinstance(dims, (tuple, list)) else (dims,)
        record["grid"] = list(dims)
        try:
            kernel = self.compile(key, command)
            if isinstance(kernel, str):
                record.update(result="COMPILE-ERROR", why=kernel)
                return result
            for i in written:
                tensors[i].data.copy_(saved[i])
            kernel[dims](*launch)
            torch.cuda.synchronize()
            why = []
            for i, (ours, ref) in enumerate(zip(tensors, theirs)):
                d = self.difference(ours, ref, self.fp32_limit[key])
                if d:
                    why.append(f"tensor {i} {tuple(ours.shape)} "
                               f"{str(ours.dtype).rsplit('.', 1)[-1]}: {d}")
            record.update(result="DIFFER" if why else "MATCH",
                          why="; ".join(why))
            if self.bench and self.seen[key] == 1:
                do_bench = self.triton.testing.do_bench
                record["tilec_ms"] = do_bench(lambda: kernel[dims](*launch),
                                              return_mode="median")
                record["triton_ms"] = do_bench(
                    lambda: original(fn, *args, grid=grid, warmup=False,
                                     **kwargs), return_mode="median")
        except Exception as error:  # Report it and go on with Triton's.
            message = str(error).strip().splitlines()
            record.update(result="LAUNCH-ERROR",
                          why=f"{type(error).__name__}: "
                              f"{message[-1] if message else ''}")
        finally:
            for i in range(len(tensors)):
                if i in written or self.bench:
                    tensors[i].data.copy_(theirs[i])
            torch.cuda.synchronize()
            self.note(record)
        return result

    def note(self, record):
        self.records.append(record)
        timing = ""
        if "tilec_ms" in record:
            timing = (f" tilec_ms={record['tilec_ms']:.4f} "
                      f"triton_ms={record['triton_ms']:.4f}")
        print(f"SHADOW {record['result']} kernel={record['kernel']} "
              f"sig=[{record.get('signature', '')}] "
              f"D={','.join(record.get('defines', []))} "
              f"grid={record.get('grid', '')}{timing}"
              + (f" why={record['why']}" if record.get("why") else ""),
              file=sys.stderr, flush=True)

    def summary(self):
        by_kernel = collections.defaultdict(collections.Counter)
        for r in self.records:
            by_kernel[r["kernel"]][r["result"]] += 1
        print("\nSHADOW summary (launches compared, by kernel)",
              file=sys.stderr)
        for name in sorted(by_kernel):
            counts = ", ".join(f"{k} {v}" for k, v in
                               sorted(by_kernel[name].items()))
            print(f"  {name}: {counts}", file=sys.stderr)
        total = collections.Counter(r["result"] for r in self.records)
        print("  total: " + ", ".join(f"{k} {v}" for k, v in
                                      sorted(total.items())),
              file=sys.stderr, flush=True)
        return any(r["result"] not in ("MATCH",) for r in self.records)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tilec", required=True, help="the tilec binary")
    parser.add_argument("--library", help="libtilec-runtime-c.so")
    parser.add_argument("--per-kernel", type=int, default=2,
                        help="launches compared per specialization")
    parser.add_argument("--bench", action="store_true",
                        help="time each specialization's first launch")
    parser.add_argument("--json", help="write every record to this file")
    parser.add_argument("program", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    program = [a for a in options.program if a != "--"]
    if not program:
        parser.error("no program to run")

    import torch
    import triton
    from triton.runtime import autotuner, jit

    rt = tilec_runtime.Runtime(options.library)
    ctx = rt.context()
    workdir = tempfile.mkdtemp(prefix="tilec-shadow.")
    shadow = Shadow(torch, triton, options.tilec, ctx, options.per_kernel,
                    options.bench, workdir)

    original_run = jit.JITFunction.run

    def run(self, *args, grid, warmup, **kwargs):
        if warmup or shadow.in_autotune:
            return original_run(self, *args, grid=grid, warmup=warmup,
                                **kwargs)
        return shadow.run(original_run, self, args, grid, kwargs)
    jit.JITFunction.run = run

    original_bench = getattr(autotuner.Autotuner, "_bench", None)

    def bench(self, *args, **kwargs):
        shadow.in_autotune += 1
        try:
            return original_bench(self, *args, **kwargs)
        finally:
            shadow.in_autotune -= 1
    if original_bench is not None:
        autotuner.Autotuner._bench = bench

    crashed = []

    def finish():
        failed = shadow.summary() or bool(crashed)
        if options.json:
            pathlib.Path(options.json).write_text(
                json.dumps(shadow.records, indent=1))
        if failed:
            os._exit(1)
    atexit.register(finish)
    sys.argv = program
    sys.path.insert(0, str(pathlib.Path(program[0]).resolve().parent))
    try:
        runpy.run_path(program[0], run_name="__main__")
    except SystemExit:
        pass
    except Exception:
        traceback.print_exc()
        crashed.append(True)


if __name__ == "__main__":
    main()
