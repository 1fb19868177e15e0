#!/usr/bin/env bash
#===- tools/gpu/prepare-shadow.sh - tilec for the GPU machine's shadow runs ===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
#===----------------------------------------------------------------------===#
#
#   tools/gpu/prepare-shadow.sh PROGRAMS_DIR [OUT]
#
# Puts into OUT (default .device/shadow) what tools/gpu/shadow.py needs on the
# GPU machine, which has no LLVM: the tilec binary (statically linked against
# LLVM and MLIR; stripped and xz-compressed to fit the carry), the runtime's
# C library, and a copy of PROGRAMS_DIR: the Python programs to shadow (each
# *.py at its top level) with the kernel libraries they import, kept outside
# the project. tools/gpu/run.sh's `shadow` step runs them. Carry OUT alone
# (it is about 13 MB plus the programs), or with .device when it fits.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: tools/gpu/prepare-shadow.sh PROGRAMS_DIR [OUT]" >&2
  exit 1
fi
programs=$(cd "$1" && pwd)
out=${2:-$root/.device/shadow}
rm -rf "$out"
mkdir -p "$out/lib"
for lib in $(ldd "$build/bin/tilec" | awk '/=>/ {print $1}'); do
  case $lib in
  libLLVM* | libMLIR* | libfmt*)
    echo "prepare-shadow: tilec depends on $lib, which the GPU machine lacks" >&2
    exit 1
    ;;
  esac
done
strip -o "$out/tilec" "$build/bin/tilec"
xz -T2 -6 "$out/tilec"
cp "$build/lib/libtilec-runtime-c.so" "$out/lib/"
cp -r "$programs" "$out/programs"
find "$out/programs" -name __pycache__ -prune -exec rm -rf {} +
du -sh "$out"
