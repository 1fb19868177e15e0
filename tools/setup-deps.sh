#!/usr/bin/env bash
# Installs what tilec needs to build and test on a fresh Debian machine, if it
# is missing: LLVM/MLIR 22, lit/FileCheck, fmt, Catch2, CMake and Ninja, and
# for linking LLVM's static libraries zstd and lld. The
# CUDA toolkit (cuda.h, ptxas) is expected at /usr/local/cuda.
set -euo pipefail
need=()
for pkg in llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libfmt-dev \
           catch2 cmake ninja-build libzstd-dev zlib1g-dev lld; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "tilec: installing ${need[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need[@]}"
fi
[ -f /usr/local/cuda/include/cuda.h ] || {
  echo "tilec: the CUDA toolkit is missing (/usr/local/cuda/include/cuda.h)" >&2
  exit 1
}
