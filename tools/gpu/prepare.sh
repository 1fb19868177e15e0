#!/usr/bin/env bash
# Builds tilec here and gathers what the GPU machine needs in .device/: the
# runtime-only programs (tilec-gpu-tests, vector-add, tilec-bench) and the
# examples' PTX. The GPU machine has no LLVM, so nothing is compiled there.
# Then, with the device tool: run `bash tools/gpu/run.sh .device` there,
# carrying `.device`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
out="$root/.device"
rm -rf "$out"
mkdir -p "$out/bin" "$out/examples"
for prog in tilec-gpu-tests vector-add tilec-bench; do
  cp "$build/bin/$prog" "$out/bin/"
  if ldd "$out/bin/$prog" | grep -E -q 'libLLVM|libMLIR|libfmt'; then
    echo "prepare: $prog depends on a library the GPU machine lacks" >&2
    exit 1
  fi
done
cp "$build"/examples/*.ptx "$out/examples/"
du -sh "$out"
