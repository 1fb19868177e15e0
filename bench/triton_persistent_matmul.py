"""Run examples/persistent_matmul.tile with Triton on host-side descriptors.

Triton passes a TensorDescriptor.from_tensor argument as a CUtensorMap with
its shape and strides, tilec's runtime as the base, extents and strides
(tilec::rt::TensorDescriptor), so Triton's PTX of this kernel cannot run
through tilec's harness (bench/triton_reference_ptx.py leaves it out). This
script runs the same source under Triton itself, with the configuration
examples/CMakeLists.txt builds for tilec (128 x 128 x 64, GROUP_M 8, 132
programs, 8 warps, 3 stages), checks C against torch.matmul in float64 and
prints two timings of each size: one launch after a warm-up between CUDA
events without an L2 flush (as tilec-gpu-tests times tilec's kernel), and
triton.testing.do_bench's median (L2 flushed), next to torch.matmul's.

  triton_persistent_matmul.py [M,N,K ...]

Exit status: 0 when every result is within 2e-3 relative error, 1 otherwise,
77 (after "SKIP: ...") without torch, Triton or a CUDA device.
"""

import pathlib
import sys

sys.dont_write_bytecode = True  # No __pycache__ in bench/ or examples/.
from triton_vector_add import gpu_stack, load_tile_module  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8,
              NUM_PROGRAMS=132)


def one_launch_ms(torch, fn):
    """One launch after a warm-up, between events, no flush."""
    fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end)


def main():
    stack = gpu_stack()
    if not stack:
        return 77
    torch, triton = stack
    from triton.tools.tensor_descriptor import TensorDescriptor
    sizes = [tuple(int(v) for v in arg.split(",")) for arg in sys.argv[1:]]
    sizes = sizes or [(1000, 776, 520), (4096, 4096, 4096)]
    module = load_tile_module(ROOT / "examples" / "persistent_matmul.tile")
    kernel = module.persistent_matmul_kernel
    while not isinstance(kernel, triton.runtime.jit.JITFunction):
        kernel = kernel.fn  # Unwrap @triton.autotune: one configuration.
    failures = 0
    for m, n, k in sizes:
        a = torch.rand(m, k, device="cuda", dtype=torch.float16) * 2 - 1
        b = torch.rand(k, n, device="cuda", dtype=torch.float16) * 2 - 1
        c = torch.full((m, n), float("nan"), device="cuda",
                       dtype=torch.float16)
        descs = [TensorDescriptor.from_tensor(a, [128, 64]),
                 TensorDescriptor.from_tensor(b, [64, 128]),
                 TensorDescriptor.from_tensor(c, [128, 128])]

        def run():
            kernel[(132,)](*descs, m, n, k, num_warps=8, num_stages=3,
                           **CONFIG)

        run()
        ref = a.double() @ b.double()
        error = ((c.double() - ref).norm() / ref.norm()).item()
        ok = error < 2e-3
        failures += not ok
        flops = 2.0 * m * n * k
        once = one_launch_ms(torch, run)
        bench = triton.testing.do_bench(run)
        torch_bench = triton.testing.do_bench(lambda: torch.matmul(a, b))
        print(f"{m}x{n}x{k}: rel. error {error:.3e} "
              f"{'PASS' if ok else 'FAIL'}; Triton one launch {once:.4f} ms, "
              f"do_bench {bench:.4f} ms ({flops / bench / 1e9:.1f} TFLOP/s); "
              f"torch.matmul do_bench {torch_bench:.4f} ms "
              f"({flops / torch_bench / 1e9:.1f} TFLOP/s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
