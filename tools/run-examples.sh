#!/usr/bin/env bash
# The main job: builds tilec, compiles every example kernel to PTX, checks the
# PTX with ptxas for sm_90a, and runs the examples on the GPU if there is one,
# or else in tilec's interpreter (the same kernels on the CPU, checked against
# the same float64 references).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
echo "== PTX of the examples (in $build/examples)"
for ptx in "$build"/examples/*.ptx; do
  if "$ptxas" -arch=sm_90a "$ptx" -o /dev/null; then
    echo "  $(basename "$ptx"): ptxas sm_90a OK"
  else
    echo "  $(basename "$ptx"): ptxas FAILED"; exit 1
  fi
done
echo "== Running the examples"
status=0
"$build/bin/vector-add" "$build/examples/vector_add.ptx" || status=$?
if [ $status = 77 ]; then
  echo "No usable CUDA GPU on this machine: running the examples in the"
  echo "interpreter instead (tilec run --interpret)."
  "$build/bin/tilec" run --interpret "$root/examples/vector_add.tile" \
    -D BLOCK=1024 --grid 2 'fp32[1500]:rand' 'fp32[1500]:rand' 'fp32[1500]' \
    i32=1500
  # Every example and seed kernel, checked against float64 references.
  exec "$build/bin/tilec-interpreter-examples"
fi
[ $status = 0 ] || exit $status
# Every example and seed kernel, checked against float64 references.
"$build/bin/tilec-gpu-tests" --ptx-dir "$build/examples"
