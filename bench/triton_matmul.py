#!/usr/bin/env python3
# ===- triton_matmul.py - Triton/cuBLAS side of the matmul bench --------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
# ===--------------------------------------------------------------------===#
"""Time the seed matmul under Triton, plus torch.matmul (cuBLAS).

The .tile files are Python/Triton source, so they are imported as modules
(their text is not copied here), and the kernels run with the configurations
tilec-bench --kernel matmul times tilec's PTX of:

  dtype  kernel (file)                                     blocks     warps stages
  fp16   matmul_ptr_kernel (examples/seeds/matmul_ptr.tile) 128x256x64 8     4
  bf16   matmul_ptr_kernel (examples/seeds/matmul_ptr.tile) 128x256x64 8     4
  tf32   matmul_precision_kernel (examples/matmul_dtypes.tile,
         PRECISION="tf32", fp32 data)                       256x128x32 8     4
  fp16-desc matmul_desc_kernel (examples/seeds/matmul_desc.tile,
         tensor descriptors)                                128x256x64 8     4
  bf16-desc matmul_desc_kernel                              128x256x64 8     4

on dense row-major M x K and K x N matrices, grid (cdiv(M, BLOCK_M),
cdiv(N, BLOCK_N)); fp16, bf16 and the descriptor kernels at 4096^3, 8192^3
and 4000^3, tf32 at
4096^3 and 8192^3 (--size S: every dtype at S^3 only). Triton runs with the
same blocks, warps and stages (impl=triton), with its default num_stages
(impl=triton-sD), and for fp16/bf16 also with 128x128x64 blocks and its
default stages (impl=triton-128x128x64, the tile Triton's Hopper
configurations favour); torch.matmul runs with TF32 allowed for fp32
(impl=cublas). Triton builds the descriptor kernel's tensor descriptors in
global scratch memory from an allocator this script sets.

Inputs are uniform in [-1, 1) (made in fp32, then cast), outputs are
poisoned with NaN before the first call, and every result is checked before
it is timed: every element finite, and on 64 sampled rows (the first, the
last, 62 random ones; every column) ||C - ref|| / ||ref|| against a float64
product of the same inputs at most 2e-3 (fp16), 1e-2 (bf16) or 3e-3 (tf32).
Timings are triton.testing.do_bench's median (L2 flushed before each call;
tilec-bench times its own loop the same way), printed on lines in the same
format as tilec-bench:

  BENCH matmul impl=triton dtype=fp16 m=M n=N k=K median_ms=T tflops=R

(2 * M * N * K flops).

First of all, Triton's compile time of matmul_ptr_kernel (fp16, the
configuration above) is measured with an empty cache (TRITON_CACHE_DIR is a
fresh temporary folder, Triton's driver warmed up by compiling another
kernel first): the first call's time (compiling the kernel and its
launcher, then running it) minus a warm call's,

  BENCH compile impl=triton kernel=matmul_ptr seconds=S

A failing check prints FAIL and the other cases still run. Exit status: 0
on success, 1 on a wrong result, 77 (after "SKIP: ...") without torch,
Triton or a CUDA device.
"""

import argparse
import os
import pathlib
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # No __pycache__ in bench/.
from triton_vector_add import gpu_stack, load_tile_module  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED_TILE = ROOT / "examples" / "seeds" / "matmul_ptr.tile"
DESC_TILE = ROOT / "examples" / "seeds" / "matmul_desc.tile"
DTYPES_TILE = ROOT / "examples" / "matmul_dtypes.tile"
VECTOR_ADD_TILE = ROOT / "examples" / "vector_add.tile"
SKIP = 77
SAMPLED_ROWS = 64

# dtype -> (blocks (M, N, K), num_warps, tolerance, default sizes,
#           num_stages)
CONFIGS = {
    "fp16": ((128, 256, 64), 8, 2e-3, (4096, 8192, 4000), 4),
    "bf16": ((128, 256, 64), 8, 1e-2, (4096, 8192, 4000), 4),
    "tf32": ((256, 128, 32), 8, 3e-3, (4096, 8192), 4),
    "fp16-desc": ((128, 256, 64), 8, 2e-3, (4096, 8192, 4000), 4),
    "bf16-desc": ((128, 256, 64), 8, 1e-2, (4096, 8192, 4000), 4),
}


def report(impl, dtype, m, n, k, ms):
    tflops = 2.0 * m * n * k / (ms * 1e-3) / 1e12
    print(f"BENCH matmul impl={impl} dtype={dtype} m={m} n={n} k={k} "
          f"median_ms={ms:.4f} tflops={tflops:.1f}", flush=True)


def enable_cublas_tf32(torch):
    """Lets torch.matmul use TF32 tensor cores for fp32 (cuBLAS)."""
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):  # torch >= 2.9's spelling.
        matmul.fp32_precision = "tf32"
    else:
        matmul.allow_tf32 = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=0,
                        help="run every dtype at SIZE^3 only")
    parser.add_argument("--dtypes", nargs="+", default=list(CONFIGS),
                        choices=list(CONFIGS))
    parser.add_argument("--rep-ms", type=int, default=300,
                        help="do_bench's time budget per measurement")
    args = parser.parse_args()

    # A fresh, private cache, so that the first call compiles for real.
    cache_dir = tempfile.mkdtemp(prefix="tilec-triton-cache-")
    os.environ["TRITON_CACHE_DIR"] = cache_dir
    try:
        return run(args)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)


def run(args):
    stack = gpu_stack()
    if not stack:
        return SKIP
    torch, triton = stack

    seed_kernel = load_tile_module(SEED_TILE).matmul_ptr_kernel
    desc_kernel = load_tile_module(DESC_TILE).matmul_desc_kernel
    precision_kernel = load_tile_module(DTYPES_TILE).matmul_precision_kernel
    add_kernel = load_tile_module(VECTOR_ADD_TILE).add_kernel
    enable_cublas_tf32(torch)
    print(f"triton_matmul: {torch.cuda.get_device_name()}, "
          f"torch {torch.__version__}, triton {triton.__version__}, "
          f"cache {os.environ['TRITON_CACHE_DIR']}", flush=True)

    seed = torch.seed()
    generator = torch.Generator(device="cuda")
    generator.manual_seed(seed)
    torch_dtypes = {"fp16": torch.float16, "bf16": torch.bfloat16,
                    "tf32": torch.float32, "fp16-desc": torch.float16,
                    "bf16-desc": torch.bfloat16}

    # Scratch memory for the tensor descriptors Triton builds on the device.
    def scratch(size, alignment, stream):
        return torch.empty(size, device="cuda", dtype=torch.int8)
    triton.set_allocator(scratch)

    def bench(fn):
        return triton.testing.do_bench(fn, warmup=25, rep=args.rep_ms,
                                       return_mode="median")

    def launcher(dtype, a, b, c, num_stages=None, blocks=None):
        """A call of the Triton kernel for dtype (num_stages None: Triton's
        default); returns what it returns."""
        (bm, bn, bk), num_warps, _, _, _ = CONFIGS[dtype]
        if blocks:
            bm, bn, bk = blocks
        m, k = a.shape
        n = b.shape[1]
        grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
        extra = {} if num_stages is None else {"num_stages": num_stages}
        if dtype.endswith("-desc"):
            def call():
                return desc_kernel[grid](a, b, c, m, n, k, a.stride(0),
                                         b.stride(0), c.stride(0),
                                         BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                         num_warps=num_warps, **extra)
            return call
        if dtype == "tf32":
            extra["PRECISION"] = "tf32"
            kernel = precision_kernel
        else:
            kernel = seed_kernel

        def call():
            return kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1),
                                b.stride(0), b.stride(1), c.stride(0),
                                c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                BLOCK_K=bk, num_warps=num_warps, **extra)
        return call

    def inputs(size):
        a = torch.rand(size, size, device="cuda", generator=generator) * 2 - 1
        b = torch.rand(size, size, device="cuda", generator=generator) * 2 - 1
        return a, b

    # Triton's compile time: warm its driver up on another kernel (so that
    # its one-time set-up is not counted), then time matmul_ptr_kernel's
    # first call (compile + run) and a warm call (run) with an empty cache.
    x = torch.ones(4096, device="cuda")
    add_kernel[(4,)](x, x, torch.empty_like(x), 4096, BLOCK=1024)
    torch.cuda.synchronize()
    compile_size = 4096
    a32, b32 = inputs(compile_size)
    a, b = a32.half(), b32.half()
    c = torch.empty(compile_size, compile_size, device="cuda",
                    dtype=torch.float16)
    call = launcher("fp16", a, b, c)
    start = time.perf_counter()
    call()
    torch.cuda.synchronize()
    first = time.perf_counter() - start
    start = time.perf_counter()
    call()
    torch.cuda.synchronize()
    warm = time.perf_counter() - start
    print(f"triton compile: matmul_ptr_kernel fp16 128x128x32, 8 warps: "
          f"first call {first:.3f} s, warm call {warm * 1e3:.3f} ms",
          flush=True)
    print(f"BENCH compile impl=triton kernel=matmul_ptr "
          f"seconds={first - warm:.3f}", flush=True)
    del a32, b32, a, b, c

    sizes = []
    for dtype in args.dtypes:
        for size in CONFIGS[dtype][3]:
            if size not in sizes:
                sizes.append(size)
    if args.size:
        sizes = [args.size]

    failed = False
    for size in sizes:
        m = n = k = size
        a32, b32 = inputs(size)
        if size <= SAMPLED_ROWS:
            rows = torch.arange(size, device="cuda")
        else:  # The first and last rows and random others, sorted.
            rows = torch.randperm(size - 2, device="cuda",
                                  generator=generator)[:SAMPLED_ROWS - 2] + 1
            rows = torch.unique(torch.cat(
                [torch.tensor([0, size - 1], device="cuda"), rows]))
        for dtype in args.dtypes:
            if not args.size and size not in CONFIGS[dtype][3]:
                continue
            tolerance = CONFIGS[dtype][2]
            a = a32.to(torch_dtypes[dtype])
            b = b32.to(torch_dtypes[dtype])
            ref = a[rows].double() @ b.double()
            ref_norm = torch.linalg.vector_norm(ref)

            def check(impl, out):
                """Prints FAIL and returns False for a wrong result."""
                if not torch.isfinite(out).all():
                    bad = (~torch.isfinite(out)).sum().item()
                    why = f"{bad} outputs are not finite"
                else:
                    error = (torch.linalg.vector_norm(out[rows].double() - ref)
                             / ref_norm).item()
                    if error <= tolerance:
                        print(f"{impl} {dtype} {m}x{n}x{k}: rel. error "
                              f"{error:.3e} on {rows.numel()} sampled rows "
                              f"against float64", flush=True)
                        return True
                    why = (f"relative error {error:.3e} on {rows.numel()} "
                           f"sampled rows against float64 exceeds "
                           f"{tolerance:g}")
                print(f"FAIL: matmul impl={impl} dtype={dtype} m={m} n={n} "
                      f"k={k}: {why} (seed {seed})", flush=True)
                return False

            c = torch.empty(m, n, device="cuda", dtype=torch_dtypes[dtype])
            c.fill_(float("nan"))  # Poison: every element must be written.
            stages = CONFIGS[dtype][4]
            call = launcher(dtype, a, b, c, stages)
            default_call = launcher(dtype, a, b, c)
            compiled = default_call()
            torch.cuda.synchronize()
            default_stages = getattr(getattr(compiled, "metadata", None),
                                     "num_stages", None)
            variants = [("triton", call)]
            if default_stages != stages:
                variants.append((f"triton-s{default_stages}", default_call))
            if dtype in ("fp16", "bf16"):  # Triton's usual Hopper tile.
                variants.append(("triton-128x128x64",
                                 launcher(dtype, a, b, c,
                                          blocks=(128, 128, 64))))
            print(f"triton {dtype}: default num_stages={default_stages}",
                  flush=True)
            for impl, fn in variants:
                c.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                if not check(impl, c):
                    failed = True
                    continue
                report(impl, dtype, m, n, k, bench(fn))

            def cublas():
                return torch.matmul(a, b, out=c)
            c.fill_(float("nan"))
            cublas()
            torch.cuda.synchronize()
            if check("cublas", c):
                report("cublas", dtype, m, n, k, bench(cublas))
            else:
                failed = True

    if failed:
        print(f"triton_matmul: FAILED (seed {seed})")
        return 1
    print(f"triton_matmul: every result within its tolerance (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
