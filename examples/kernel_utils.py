# Helpers the examples import, as kernel libraries keep theirs in a module of
# utilities: tilec finds this file next to the kernel's (`from kernel_utils
# import bucketize`), Triton through Python's import path.
import triton
import triton.language as tl


@triton.jit
def bucketize(x, NUM_BINS: tl.constexpr):
    # The bucket of each x in [-1, 1) among NUM_BINS equal buckets.
    return ((x + 1.0) * (NUM_BINS // 2)).to(tl.int32)
