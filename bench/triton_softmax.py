#!/usr/bin/env python3
# ===- triton_softmax.py - Triton/torch side of the softmax bench -------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Time examples/softmax.tile's softmax_kernel under Triton, plus torch.

The .tile file is Python/Triton source, so it is imported as a module (its
text is not copied here). softmax_kernel runs on an 8192 x 4096 fp32 input
with BLOCK_SIZE=4096 (the next power of two >= n_cols) and num_warps 8 and 16,
one program per row (grid = (n_rows,)), exactly as tilec-bench --kernel
softmax launches tilec's PTX of the same source. Each output must match a
float64 softmax of the input (relative error ||y - ref|| / ||ref|| at most
1e-5, every element finite). torch.softmax is timed for reference. Every
timing is triton.testing.do_bench's median, printed on a line in the same
format as tilec-bench:

  BENCH softmax impl=triton-w8 rows=8192 cols=4096 median_ms=0.1 gbps=...

Bandwidth counts 2 * rows * cols * 4 bytes (one read, one write). Exit
status: 0 on success, 1 on a wrong result, 77 (after "SKIP: ...") without
torch, Triton or a CUDA device.
"""

import argparse
import pathlib
import sys

sys.dont_write_bytecode = True  # No __pycache__ in bench/.
from triton_vector_add import gpu_stack, load_tile_module  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_TILE = ROOT / "examples" / "softmax.tile"
SKIP = 77
TOLERANCE = 1e-5


def report(impl, rows, cols, ms):
    gbps = 2 * rows * cols * 4 / (ms * 1e-3) / 1e9
    print(f"BENCH softmax impl={impl} rows={rows} cols={cols} "
          f"median_ms={ms:.4f} gbps={gbps:.1f}", flush=True)


def relative_error(torch, y, ref):
    """||y - ref|| / ||ref|| in float64; NaN when y has a non-finite value."""
    if not torch.isfinite(y).all():
        return float("nan")
    diff = y.double() - ref
    return (torch.linalg.vector_norm(diff) /
            torch.linalg.vector_norm(ref)).item()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--block", type=int, default=0,
                        help="BLOCK_SIZE (default: next power of two >= "
                             "cols)")
    parser.add_argument("--num-warps", type=int, nargs="+", default=[8, 16])
    parser.add_argument("--rep-ms", type=int, default=300,
                        help="do_bench's time budget per measurement")
    parser.add_argument("--tile", type=pathlib.Path, default=DEFAULT_TILE)
    args = parser.parse_args()

    stack = gpu_stack()
    if not stack:
        return SKIP
    torch, triton = stack

    kernel = load_tile_module(args.tile).softmax_kernel
    rows, cols = args.rows, args.cols
    block = args.block or triton.next_power_of_2(cols)
    print(f"triton_softmax: {torch.cuda.get_device_name()}, "
          f"torch {torch.__version__}, triton {triton.__version__}; "
          f"{rows} x {cols} fp32, BLOCK_SIZE={block}, grid=({rows},)",
          flush=True)

    seed = torch.seed()
    generator = torch.Generator(device="cuda")
    generator.manual_seed(seed)
    x = torch.rand(rows, cols, device="cuda", generator=generator) * 2 - 1
    y = torch.empty_like(x)
    ref = torch.softmax(x.double(), dim=1)

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=25, rep=args.rep_ms,
                                       return_mode="median")

    def check(impl, out):
        error = relative_error(torch, out, ref)
        if not error <= TOLERANCE:  # NaN fails too.
            print(f"FAIL: {impl}: relative error {error:.3e} against the "
                  f"float64 softmax exceeds {TOLERANCE:g} (seed {seed})")
            return False
        print(f"{impl}: rel. error {error:.3e} against float64", flush=True)
        return True

    for num_warps in args.num_warps:
        impl = f"triton-w{num_warps}"

        def run_triton():
            kernel[(rows,)](y, x, x.stride(0), y.stride(0), rows, cols,
                            BLOCK_SIZE=block, num_warps=num_warps)

        y.fill_(float("nan"))  # Poison: every element must be written.
        run_triton()
        torch.cuda.synchronize()
        if not check(impl, y):
            return 1
        report(impl, rows, cols, bench(run_triton))
        if not check(impl + " (after timing)", y):
            return 1

    if not check("torch.softmax", torch.softmax(x, dim=1)):
        return 1
    report("torch.softmax", rows, cols, bench(lambda: torch.softmax(x, dim=1)))
    print(f"triton_softmax: results within {TOLERANCE:g} (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
