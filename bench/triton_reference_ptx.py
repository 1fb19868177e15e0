#!/usr/bin/env python3
# ===- triton_reference_ptx.py - Triton's PTX for tilec-gpu-tests -------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Compile the examples' kernels with Triton into PTX for tilec's runtime.

CMake writes one line per tilec_add_ptx call to
<build>/examples/ptx-manifest.tsv (name, source, kernel, signature,
num_warps, num_stages, constexprs; in TILEC_RUNTIME_ONLY builds too). For
every line this compiles the same kernel of the same .tile file (a .tile
file is Triton source) with Triton, with the same constexprs, num_warps and
num_stages and the same specialization as the signature says (pointers
16-byte aligned; an integer declared ':16' is specialized as a multiple of
16, the others are not specialized), and writes OUTDIR/<name>.ptx with tilec's metadata line:

  // tilec.kernel name=K num_warps=W shared=BYTES signature=...

so that `tilec-gpu-tests --ptx-dir OUTDIR` (and `tilec-bench --kernel
softmax --ptx-dir OUTDIR`) run Triton's code through the same harness as
tilec's: a check of the harness itself (grids, arguments, references,
tolerances) that does not depend on tilec's code generator, and a baseline
for tilec's timings. Run it on the GPU machine (Triton compiles for the
device it finds).

Triton appends scratch-memory pointers to every kernel's parameters; where
the kernel body never reads them they are dropped from the .entry, otherwise
the kernel is reported as not convertible and left out (tensor descriptors,
for one, are built in Triton's global scratch memory).

  triton_reference_ptx.py MANIFEST OUTDIR [--only NAME ...] [--ttgir]

With --ttgir, Triton's TritonGPU IR of each kernel goes beside its PTX
(OUTDIR/<name>.ttgir), to compare layouts and pipelining with tilec's.

Exit status: 0 when every selected kernel was written, 1 otherwise, 77
(after "SKIP: ...") without torch, Triton or a CUDA device.
"""

import argparse
import pathlib
import re
import sys

sys.dont_write_bytecode = True  # No __pycache__ in bench/ or examples/.
from triton_vector_add import gpu_stack, load_tile_module  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SKIP = 77


def split_entries(signature):
    """The signature's entries: split at the commas outside brackets (a
    tuple entry, "(i32, i32)", or a descriptor's block stays whole)."""
    entries, depth, start = [], 0, 0
    for i, c in enumerate(signature):
        depth += c in "([<"
        depth -= c in ")]>"
        if c == "," and depth == 0:
            entries.append(signature[start:i])
            start = i + 1
    entries.append(signature[start:])
    return [e.strip() for e in entries if e.strip()]


def parse_manifest(path):
    """Yields (name, source, kernel, signature, num_warps, num_stages,
    constexprs)."""
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 7:
            raise ValueError(f"{path}: malformed line: {line!r}")
        name, source, kernel, signature, num_warps, num_stages, constexprs = \
            fields
        entries = split_entries(signature)
        values = {}
        for binding in constexprs.split():
            key, _, value = binding.partition("=")
            if re.fullmatch(r"-?\d+", value):
                values[key] = int(value)
            elif value in ("True", "False"):
                values[key] = value == "True"
            else:
                values[key] = value
        yield (name, source, kernel, entries, int(num_warps), int(num_stages),
               values)


def example_argument(torch, entry):
    """A launch argument that makes Triton specialize as entry says."""
    dtypes = {"fp64": torch.float64, "fp32": torch.float32,
              "fp16": torch.float16, "bf16": torch.bfloat16,
              "i64": torch.int64, "i32": torch.int32, "i8": torch.int8,
              "u64": torch.uint64, "u32": torch.uint32, "u16": torch.uint16,
              "u8": torch.uint8, "fp8e4nv": torch.float8_e4m3fn,
              "fp8e5": torch.float8_e5m2}
    if entry.startswith("(") and entry.endswith(")"):
        # A tuple argument, element by element.
        return tuple(example_argument(torch, e)
                     for e in split_entries(entry[1:-1]))
    if entry.startswith("tensordesc<"):
        raise RuntimeError("Triton passes a host-side tensor descriptor as "
                           "a CUtensorMap with its shape and strides, not "
                           "as tilec's runtime does")
    if entry.startswith("*"):
        type_name = entry[1:].split(":")[0]
        # Fresh allocations are 256-byte aligned: Triton assumes 16.
        return torch.empty(64, dtype=dtypes[type_name], device="cuda")
    if entry.startswith("fp"):
        return 0.5
    # Triton's launcher types a Python int i32, i64 outside the i32 range,
    # or u64 when it is at least 2**63: it passes no narrower unsigned
    # scalars.
    base = {"i64": 2**32, "u64": 2**63}.get(entry.split(":")[0], 0)
    if entry.startswith("u") and not base:
        raise RuntimeError(f"Triton's launcher passes no {entry} scalars")
    if entry.endswith(":16"):
        return base + 64  # A multiple of 16 (and not 1): divisibility 16.
    return base + 37  # Neither 1 nor a multiple of 16: no specialization.


def strip_scratch_params(ptx, entry_name, count):
    """Drops the parameters past the first count from the .entry when the
    body never reads them; returns the new PTX or None."""
    match = re.search(r"\.entry\s+" + re.escape(entry_name) +
                      r"\s*\(([^)]*)\)", ptx)
    if not match:
        return None
    params = [p.strip() for p in match.group(1).split(",") if p.strip()]
    if len(params) < count:
        return None
    extra = [p.split()[-1] for p in params[count:]]
    body = ptx[match.end():]
    if any(re.search(r"\b" + re.escape(name) + r"\b", body)
           for name in extra):
        return None
    params_text = "(\n\t" + ",\n\t".join(params[:count]) + "\n)"
    return ptx[:match.start(1) - 1] + params_text + ptx[match.end():]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("manifest", type=pathlib.Path)
    parser.add_argument("outdir", type=pathlib.Path)
    parser.add_argument("--only", nargs="+", default=None,
                        help="names of the manifest to compile")
    parser.add_argument("--ttgir", action="store_true",
                        help="also write each kernel's TritonGPU IR")
    args = parser.parse_args()

    stack = gpu_stack()
    if not stack:
        return SKIP
    torch, triton = stack

    args.outdir.mkdir(parents=True, exist_ok=True)
    print(f"triton_reference_ptx: triton {triton.__version__} on "
          f"{torch.cuda.get_device_name()}", flush=True)
    failures = 0
    for name, source, kernel_name, signature, num_warps, num_stages, \
            constexprs in parse_manifest(args.manifest):
        if args.only and name not in args.only:
            continue
        try:
            module = load_tile_module(ROOT / "examples" / source)
            kernel = getattr(module, kernel_name)
            # @triton.autotune and @triton.heuristics wrap the JITFunction;
            # the manifest's constexprs are one configuration of them.
            while not isinstance(kernel, triton.runtime.jit.JITFunction):
                kernel = kernel.fn
            call_args = [example_argument(torch, e) for e in signature]
            compiled = kernel.warmup(*call_args, grid=(1,),
                                     num_warps=num_warps,
                                     num_stages=num_stages, **constexprs)
            meta = compiled.metadata
            ptx = compiled.asm["ptx"]
            stripped = strip_scratch_params(ptx, meta.name, len(signature))
            if stripped is None:
                raise RuntimeError("its scratch-memory parameters are used "
                                   "(or its .entry has too few parameters)")
            line = (f"// tilec.kernel name={meta.name} "
                    f"num_warps={meta.num_warps} shared={meta.shared} "
                    f"signature={','.join(signature)}\n"
                    f"// Compiled by Triton {triton.__version__} from "
                    f"examples/{source} by bench/triton_reference_ptx.py; "
                    f"not tilec's code.\n")
            (args.outdir / f"{name}.ptx").write_text(line + stripped)
            if args.ttgir:
                (args.outdir / f"{name}.ttgir").write_text(
                    compiled.asm["ttgir"])
            print(f"  {name}: {kernel_name}, num_warps={meta.num_warps}, "
                  f"shared={meta.shared}", flush=True)
        except Exception as error:  # Report and go on with the others.
            failures += 1
            message = str(error).strip().splitlines()
            print(f"  {name}: NOT CONVERTED: {type(error).__name__}: "
                  f"{message[-1] if message else ''}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
