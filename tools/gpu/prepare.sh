#!/usr/bin/env bash
# Builds tilec here and gathers what the GPU machine needs in .device/: the
# runtime-only programs (tilec-gpu-tests, vector-add, tilec-bench,
# tilec-interp-compare), the examples' PTX, and in .device/interp/ every
# example case run in the interpreter (inputs and outputs), which
# tilec-interp-compare runs again on the GPU; and what prepare-runtime.sh
# adds (host-app, tilec-launch-bench, a kernel cache). The GPU machine has no
# LLVM, so nothing is compiled there.
# Then, with the device tool: run `bash tools/gpu/run.sh .device` there,
# carrying `.device`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
out="$root/.device"
rm -rf "$out"
mkdir -p "$out/bin" "$out/examples"
for prog in tilec-gpu-tests vector-add tilec-bench tilec-interp-compare; do
  cp "$build/bin/$prog" "$out/bin/"
  if ldd "$out/bin/$prog" | grep -E -q 'libLLVM|libMLIR|libfmt'; then
    echo "prepare: $prog depends on a library the GPU machine lacks" >&2
    exit 1
  fi
done
cp "$build"/examples/*.ptx "$out/examples/"
bash "$root/tools/gpu/prepare-runtime.sh" "$build" "$out"
"$build/bin/tilec-interpreter-examples" --save "$out/interp" | tail -n 1 ||
  echo "prepare: some interpreter cases failed; they are not in $out/interp"
du -sh "$out"
