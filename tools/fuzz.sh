#!/usr/bin/env bash
# Fuzzes the compiler (parser, code generation, lowering) with libFuzzer for
# $1 seconds (default 600). Builds an instrumented tilec with clang-22 in
# build-fuzz/, seeds the corpus with every .tile file of the repository, and
# copies any crashing input to test/Fuzz/Inputs/ so it becomes a regression
# test (test/Fuzz/regressions.test runs tilec on each of them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
build=$root/build-fuzz
bash "$root/tools/setup-deps.sh"
for pkg in clang-22 libclang-rt-22-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q clang-22 libclang-rt-22-dev; break; }
done
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release -DTILEC_ENABLE_FUZZER=ON
fi
cmake --build "$build" -j "${TILEC_JOBS:-2}" --target tilec-fuzz
corpus=$build/corpus
mkdir -p "$corpus" "$build/crashes"
find "$root/examples" "$root/test" -name '*.tile' -exec cp {} "$corpus/" \;
status=0
"$build/bin/tilec-fuzz" "$corpus" -max_total_time="$seconds" -max_len=4096 \
  -artifact_prefix="$build/crashes/" -close_fd_mask=3 -rss_limit_mb=4096 || status=$?
mkdir -p "$root/test/Fuzz/Inputs"
for crash in "$build"/crashes/*; do
  [ -f "$crash" ] || continue
  cp "$crash" "$root/test/Fuzz/Inputs/$(basename "$crash").tile"
  echo "fuzz: kept $(basename "$crash") as a regression input"
done
exit $status
