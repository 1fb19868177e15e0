#!/usr/bin/env bash
# Builds tilec here and gathers what the GPU machine needs in .device/: the
# runtime-only programs (tilec-gpu-tests, vector-add, tilec-bench,
# tilec-interp-compare), libtilec-runtime-c.so (in .device/lib, for
# bench/compare.py), the examples' PTX and their manifest (for
# bench/triton_reference_ptx.py and bench/compare.py), and in .device/interp/ every
# example case run in the interpreter (inputs and outputs), which
# tilec-interp-compare runs again on the GPU; and what prepare-runtime.sh
# adds (host-app, tilec-launch-bench, a kernel cache); and tilec's compile
# time of the seed matmul (.device/compile-times.txt: BENCH compile lines,
# measured here since the GPU machine has no LLVM and compiles nothing),
# and the commit the PTX comes from (.device/build-info.txt, for the record
# run.sh can write). Then, with the device tool: run
# `bash tools/gpu/run.sh .device` there, carrying `.device`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
out="$root/.device"
rm -rf "$out"
mkdir -p "$out/bin" "$out/examples"
echo "commit $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)" \
  > "$out/build-info.txt"
for prog in tilec-gpu-tests vector-add multi-gpu-matmul nccl-data-parallel \
  tilec-bench tilec-interp-compare; do
  cp "$build/bin/$prog" "$out/bin/"
  if ldd "$out/bin/$prog" | grep -E -q 'libLLVM|libMLIR|libfmt'; then
    echo "prepare: $prog depends on a library the GPU machine lacks" >&2
    exit 1
  fi
done
# The runtime's C interface, which bench/compare.py loads with ctypes.
mkdir -p "$out/lib"
cp "$build/lib/libtilec-runtime-c.so" "$out/lib/"
if ldd "$out/lib/libtilec-runtime-c.so" | grep -E -q 'libLLVM|libMLIR|libfmt'; then
  echo "prepare: libtilec-runtime-c.so depends on a library the GPU machine lacks" >&2
  exit 1
fi
cp "$build"/examples/*.ptx "$build"/examples/ptx-manifest.tsv "$out/examples/"
# The HEAD_DIM 128 attention kernels built again with tilec's experimental
# --ping-pong (with 3 stages: the product it overlaps is deferred only from
# 3), beside the others' PTX and the manifest saying so, in ping-pong/ for
# run.sh's ping-pong steps; the builds with TMA rings (flash_attention_desc_*
# and flash_attention_tma_*) keep --multi-product-tma.
mkdir -p "$out/ping-pong"
cp "$build"/examples/*.ptx "$out/ping-pong/"
while IFS=$'\t' read -r name file kernel sig warps stages constexprs; do
  case $name in
  attention_fp16_d128 | attention_bf16_d128 | flash_attention*_fp16_d128_causal | flash_attention*_bf16_d128)
    defs=()
    for kv in $constexprs; do defs+=(-D "$kv"); done
    case $name in
    flash_attention_desc_* | flash_attention_tma_*) defs+=(--multi-product-tma) ;;
    esac
    "$build/bin/tilec" "$root/examples/$file" -k "$kernel" -s "$sig" \
      -w "$warps" --num-stages 3 "${defs[@]}" --ping-pong -Wno-block-ptr \
      -o "$out/ping-pong/$name.ptx"
    stages=3
    ;;
  esac
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$file" "$kernel" "$sig" \
    "$warps" "$stages" "$constexprs"
done < "$build/examples/ptx-manifest.tsv" > "$out/ping-pong/ptx-manifest.tsv"
bash "$root/tools/gpu/prepare-runtime.sh" "$build" "$out"
# tilec's compile time of the seed matmul (the benchmark's fp16 build, 128x256x64, 4 stages):
# source to PTX and to cubin, the median of 5 runs of the whole process.
compile_seconds() {
  local times=() i start end
  for i in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$build/bin/tilec" "$root/examples/seeds/matmul_ptr.tile" \
      -k matmul_ptr_kernel -D BLOCK_M=128 -D BLOCK_N=256 -D BLOCK_K=64 -w 8 --num-stages 4 \
      -s '*fp16:16, *fp16:16, *fp16:16, i32, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1' \
      "$@" -o /dev/null
    end=$(date +%s%N)
    times+=($(((end - start) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}
{
  echo "BENCH compile impl=tilec-ptx kernel=matmul_ptr ms=$(compile_seconds)"
  echo "BENCH compile impl=tilec-cubin kernel=matmul_ptr ms=$(compile_seconds --emit=cubin)"
} > "$out/compile-times.txt"
cat "$out/compile-times.txt"
"$build/bin/tilec-interpreter-examples" --save "$out/interp" | tail -n 1 ||
  echo "prepare: some interpreter cases failed; they are not in $out/interp"
du -sh "$out"
