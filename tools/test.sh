#!/usr/bin/env bash
# Builds tilec and runs every test with ctest: Catch2 unit tests, the lit
# suite (FileCheck, ptxas on every example's PTX) and the GPU tests, which
# skip cleanly where there is no GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/tools/build.sh"
cd "$build"
ctest --output-on-failure -j "${TILEC_JOBS:-2}"
