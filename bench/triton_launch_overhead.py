#!/usr/bin/env python3
# ===- triton_launch_overhead.py - Triton's side of the launch bench ----===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Host time per launch of bench/empty_kernel.tile under Triton.

The counterpart of tilec-launch-bench (bench/launch_bench.cpp): the same
empty kernel (the .tile file is imported as a module), one block, num_warps
4, launched many times after a warmup; the time around the loop of launches
(the GPU synchronized before and after) divided by their number:

  triton           kernel[(1,)](x, y, n, BLOCK=128): the JIT's dispatch
  triton-compiled  the CompiledKernel the first launch returned, called
                   directly (Triton's launcher without the dispatch)

  BENCH launch impl=triton us_per_launch=12.345 iters=100000

Exit status 0, or 77 (after "SKIP: ...") without torch, Triton or a device.
"""

import argparse
import pathlib
import sys
import time

sys.dont_write_bytecode = True  # No __pycache__ in bench/.
from triton_vector_add import gpu_stack, load_tile_module  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_TILE = ROOT / "bench" / "empty_kernel.tile"
SKIP = 77


def time_launches(torch, iters, launch):
    for _ in range(1000):
        launch()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        launch()
    end = time.perf_counter()
    torch.cuda.synchronize()
    return (end - start) / iters * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iters", type=int, default=100000)
    parser.add_argument("--tile", type=pathlib.Path, default=DEFAULT_TILE)
    args = parser.parse_args()
    stack = gpu_stack()
    if not stack:
        return SKIP
    torch, _ = stack

    kernel = load_tile_module(args.tile).empty_kernel
    n = 1024
    x = torch.empty(n, device="cuda", dtype=torch.float32)
    y = torch.empty(n, device="cuda", dtype=torch.float32)

    def dispatch():
        return kernel[(1,)](x, y, n, BLOCK=128, num_warps=4)

    us = time_launches(torch, args.iters, dispatch)
    print(f"BENCH launch impl=triton us_per_launch={us:.3f} iters={args.iters}",
          flush=True)

    compiled = dispatch()
    try:
        us = time_launches(torch, args.iters,
                           lambda: compiled[(1, 1, 1)](x, y, n))
    except Exception as error:  # The CompiledKernel API differs by version.
        print(f"triton-compiled: not measured ({type(error).__name__}: "
              f"{error})")
    else:
        print(f"BENCH launch impl=triton-compiled us_per_launch={us:.3f} "
              f"iters={args.iters}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
