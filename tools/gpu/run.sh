#!/usr/bin/env bash
#===- tools/gpu/run.sh - Run tilec's GPU programs on the GPU machine ------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
#===----------------------------------------------------------------------===#
#
# Runs, on the machine with the GPU, everything that needs it, from the
# binaries and PTX built elsewhere and carried over:
#
#   tilec-gpu-tests, vector-add, tilec-bench, bench/triton_vector_add.py
#
# and prints a summary table last (each step's result, then the vector_add
# bandwidths of tilec, Triton, torch.add and a device copy).
#
#   tools/gpu/run.sh [DIR]
#
# DIR (default .device) holds the binaries and vector_add.ptx; each is looked
# for in DIR, DIR/bin and DIR/examples. Exit status: 0 when no step failed
# (skips are not failures), 1 otherwise.
#
#===----------------------------------------------------------------------===#

set -u

DIR=${1:-.device}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/tilec-gpu-run.XXXXXX")
export PYTHONUNBUFFERED=1

# Prints the path of $1 under DIR, DIR/bin or DIR/examples.
find_in_dir() {
  local candidate
  for candidate in "$DIR/$1" "$DIR/bin/$1" "$DIR/examples/$1"; do
    if [ -e "$candidate" ]; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

STEPS=()
STATUSES=()
CODES=()

# step NAME COMMAND...: runs COMMAND, logs its output, records its result.
step() {
  local name=$1
  shift
  echo
  echo "==== $name: $*"
  "$@" 2>&1 | tee "$LOGS/$name.log"
  local rc=${PIPESTATUS[0]}
  local status=FAIL
  case $rc in
    0) status=PASS ;;
    77) status=SKIP ;;
  esac
  STEPS+=("$name")
  STATUSES+=("$status")
  CODES+=("$rc")
}

# missing NAME WHAT: records a step whose binary or input is not there.
missing() {
  echo
  echo "==== $1: MISSING ($2 not found under $DIR)"
  STEPS+=("$1")
  STATUSES+=(MISSING)
  CODES+=(-)
}

# binary NAME: prints the path of an executable binary, or fails.
binary() {
  local path
  path=$(find_in_dir "$1") || return 1
  [ -x "$path" ] || chmod +x "$path" 2>/dev/null
  echo "$path"
}

PTX=$(find_in_dir vector_add.ptx) && PTX_DIR=$(dirname "$PTX") || PTX_DIR=""

echo "tilec GPU run: binaries and PTX from $DIR, logs in $LOGS"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader

if GPU_TESTS=$(binary tilec-gpu-tests) && [ -n "$PTX_DIR" ]; then
  step tilec-gpu-tests "$GPU_TESTS" --ptx-dir "$PTX_DIR"
else
  missing tilec-gpu-tests "tilec-gpu-tests or vector_add.ptx"
fi

if VECTOR_ADD=$(binary vector-add) && [ -n "$PTX_DIR" ]; then
  step vector-add "$VECTOR_ADD" "$PTX"
else
  missing vector-add "vector-add or vector_add.ptx"
fi

if BENCH=$(binary tilec-bench) && [ -n "$PTX_DIR" ]; then
  step tilec-bench "$BENCH" --ptx-dir "$PTX_DIR"
else
  missing tilec-bench "tilec-bench or vector_add.ptx"
fi

step triton-bench python3 "$ROOT/bench/triton_vector_add.py"

echo
echo "==== summary"
echo
printf '| %-16s | %-7s | %-4s |\n' step result exit
printf '|%s|%s|%s|\n' ------------------ --------- ------
FAILED=0
for i in "${!STEPS[@]}"; do
  printf '| %-16s | %-7s | %-4s |\n' "${STEPS[$i]}" "${STATUSES[$i]}" \
    "${CODES[$i]}"
  case ${STATUSES[$i]} in
    FAIL | MISSING) FAILED=1 ;;
  esac
done

BENCH_LINES=$(cat "$LOGS"/*.log 2>/dev/null | grep '^BENCH vector_add ')
if [ -n "$BENCH_LINES" ]; then
  echo
  echo "$BENCH_LINES" | awk '
    {
      for (i = 3; i <= NF; ++i) {
        split($i, kv, "=")
        field[kv[1]] = kv[2]
      }
      impl[NR] = field["impl"]; n[NR] = field["n"]
      ms[NR] = field["median_ms"]; gbps[NR] = field["gbps"]
      if (field["impl"] == "triton") triton = field["gbps"]
    }
    END {
      printf "| %-10s | %10s | %10s | %9s | %9s |\n", "vector_add", "n",
             "median ms", "GB/s", "vs triton"
      printf "|------------|------------|------------|-----------|-----------|\n"
      for (i = 1; i <= NR; ++i) {
        ratio = triton > 0 ? sprintf("%.3f", gbps[i] / triton) : "-"
        printf "| %-10s | %10s | %10s | %9s | %9s |\n", impl[i], n[i], ms[i],
               gbps[i], ratio
      }
    }'
fi

echo
if [ "$FAILED" -eq 0 ]; then
  echo "tilec GPU run: OK"
else
  echo "tilec GPU run: FAILED"
fi
exit "$FAILED"
