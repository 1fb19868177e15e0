#!/usr/bin/env bash
# Configures and builds tilec in build/ (or $TILEC_BUILD_DIR), installing
# missing dependencies first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/tools/setup-deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build" -j "${TILEC_JOBS:-2}"
