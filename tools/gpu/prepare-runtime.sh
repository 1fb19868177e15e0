#!/usr/bin/env bash
#===- tools/gpu/prepare-runtime.sh - The runtime's part of prepare.sh -----===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
#===----------------------------------------------------------------------===#
#
#   tools/gpu/prepare-runtime.sh BUILD OUT
#
# Called by prepare.sh after the build. Puts into OUT/bin examples/host-app,
# built against an install of BUILD as a user would build it, and
# tilec-launch-bench; and into OUT/cache the kernel cache holding their JIT
# kernels. The GPU machine has no compiler, so host-app is built twice: with
# the JIT compiler, to compile its JIT matmul into the cache here on the fake
# driver, and without it (HOST_APP_JIT=OFF) to ship; that one loads the JIT
# kernel from the cache (tools/gpu/run.sh points TILEC_CACHE_DIR at it). The
# cache keys hold the kernels' source text, so run.sh passes the same .tile
# files of the repository.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
out=$2
fake="$build/lib/libtilec-fake-cuda.so"

prefix="$build/prepare-install"
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for jit in ON OFF; do
  app="$build/prepare-host-app-jit-$jit"
  cmake -S "$root/examples/host-app" -B "$app" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    -DHOST_APP_JIT=$jit >/dev/null
  cmake --build "$app" -j2 >/dev/null
done

mkdir -p "$out/bin" "$out/cache"
TILEC_CUDA_LIBRARY="$fake" TILEC_CACHE_DIR="$out/cache" \
  "$build/prepare-host-app-jit-ON/host-app" --steps jit-matmul,jit-desc-matmul \
  --jit-no-launch --matmul-source "$root/examples/seeds/matmul_ptr.tile" \
  --desc-matmul-source "$root/examples/matmul_descriptor_autotune.tile"
TILEC_CUDA_LIBRARY="$fake" TILEC_CACHE_DIR="$out/cache" \
  "$build/bin/tilec-launch-bench-jit" --only jit --iters 10 \
  --jit-source "$root/bench/empty_kernel.tile"

cp "$build/prepare-host-app-jit-OFF/host-app" "$build/bin/tilec-launch-bench" \
  "$out/bin/"
for prog in host-app tilec-launch-bench; do
  if ldd "$out/bin/$prog" | grep -E -q 'libLLVM|libMLIR|libfmt|libtilec'; then
    echo "prepare-runtime: $prog depends on a library the GPU machine lacks" >&2
    exit 1
  fi
done
