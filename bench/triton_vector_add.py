#!/usr/bin/env python3
# ===- triton_vector_add.py - Triton/torch side of the vector_add bench -===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Time examples/vector_add.tile under Triton itself, plus torch references.

The .tile file is Python/Triton source, so it is imported as a module (its
text is not copied here). add_kernel runs on 2^28 fp32 elements with
BLOCK=1024 and num_warps=4, as tilec compiles it; its output must equal
torch's x + y exactly. Then torch.add and a device-to-device copy are timed
for reference. Every timing is triton.testing.do_bench's median, printed on
a line in the same format as tilec-bench:

  BENCH vector_add impl=triton n=268435456 median_ms=0.7000 gbps=4601.3

Bandwidth counts 3 * 4 * n bytes for the adds (two reads, one write) and
2 * 4 * n for the copy. Exit status: 0 on success, 1 on a wrong result, 77
(after "SKIP: ...") without torch, Triton or a CUDA device.
"""

import argparse
import importlib.machinery
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_TILE = ROOT / "examples" / "vector_add.tile"
SKIP = 77


def load_tile_module(path):
    """Imports a .tile file as a Python module (Triton needs a real file)."""
    sys.dont_write_bytecode = True  # No __pycache__ next to the examples.
    # Modules the file imports (examples/kernel_utils.py) sit next to it, as
    # tilec finds them.
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = "tilec_example_" + path.stem
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def gpu_stack():
    """Returns (torch, triton), with triton.testing imported, or None after
    printing "SKIP: ..." when torch, Triton or a CUDA device is missing (the
    benchmarks then exit with SKIP)."""
    try:
        import torch
        import triton
        import triton.testing  # noqa: F401
    except ImportError as error:
        print(f"SKIP: {error}")
        return None
    if not torch.cuda.is_available():
        print("SKIP: no CUDA device (torch.cuda.is_available() is False)")
        return None
    return torch, triton


def report(impl, n, ms, nbytes):
    gbps = nbytes / (ms * 1e-3) / 1e9
    print(f"BENCH vector_add impl={impl} n={n} median_ms={ms:.4f} "
          f"gbps={gbps:.1f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1 << 28)
    parser.add_argument("--block", type=int, default=1024)
    parser.add_argument("--num-warps", type=int, default=4)
    parser.add_argument("--rep-ms", type=int, default=300,
                        help="do_bench's time budget per measurement")
    parser.add_argument("--tile", type=pathlib.Path, default=DEFAULT_TILE)
    args = parser.parse_args()

    stack = gpu_stack()
    if not stack:
        return SKIP
    torch, triton = stack

    kernel = load_tile_module(args.tile).add_kernel
    n, block = args.n, args.block
    print(f"triton_vector_add: {torch.cuda.get_device_name()}, "
          f"torch {torch.__version__}, triton {triton.__version__}", flush=True)

    seed = torch.seed()
    generator = torch.Generator(device="cuda")
    generator.manual_seed(seed)
    x = torch.rand(n, device="cuda", generator=generator) * 2 - 1
    y = torch.rand(n, device="cuda", generator=generator) * 2 - 1
    out = torch.full_like(x, float("nan"))  # Poison: every element is written.
    expected = torch.add(x, y)
    grid = (triton.cdiv(n, block),)

    def run_triton():
        kernel[grid](x, y, out, n, BLOCK=block, num_warps=args.num_warps)

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=25, rep=args.rep_ms,
                                       return_mode="median")

    run_triton()
    torch.cuda.synchronize()
    if not torch.equal(out, expected):
        wrong = (out != expected).sum().item()  # NaN != anything.
        print(f"FAIL: triton add_kernel: {wrong} of {n} elements differ from "
              f"torch.add (seed {seed})")
        return 1
    report("triton", n, bench(run_triton), 3 * 4 * n)
    if not torch.equal(out, expected):
        print("FAIL: triton add_kernel's output changed while timing")
        return 1

    out.fill_(float("nan"))
    report("torch.add", n, bench(lambda: torch.add(x, y, out=out)), 3 * 4 * n)
    if not torch.equal(out, expected):
        print("FAIL: torch.add(out=) disagrees with torch.add")
        return 1

    report("torch.copy", n, bench(lambda: out.copy_(x)), 2 * 4 * n)
    if not torch.equal(out, x):
        print("FAIL: the device copy is wrong")
        return 1
    print(f"triton_vector_add: results exact (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
