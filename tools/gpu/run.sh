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
#   tilec-gpu-tests, vector-add, tilec-bench (vector add, then softmax),
#   bench/triton_vector_add.py, bench/triton_softmax.py
#
# and prints a summary last: each step's result, the counts of
# tilec-gpu-tests and its failing rows, then the vector_add bandwidths of
# tilec, Triton, torch.add and a device copy, and the softmax (8192 x 4096
# fp32) bandwidths of tilec, Triton (same kernel source, same grid) and
# torch.softmax.
#
#   tools/gpu/run.sh [DIR]
#
# DIR (default .device) holds the binaries and the PTX (vector_add.ptx and,
# for the softmax benchmark, softmax_b4096_w8.ptx and softmax_b4096_w16.ptx);
# each is looked for in DIR, DIR/bin and DIR/examples. TILEC_GPU_TESTS_ONLY,
# when set, is passed to tilec-gpu-tests as --only (e.g. "vector_add*").
# Exit status: 0 when no step failed (skips are not failures), 1 otherwise.
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
  ONLY=()
  [ -n "${TILEC_GPU_TESTS_ONLY:-}" ] && ONLY=(--only "$TILEC_GPU_TESTS_ONLY")
  step tilec-gpu-tests "$GPU_TESTS" --ptx-dir "$PTX_DIR" \
    ${ONLY[@]+"${ONLY[@]}"}
else
  missing tilec-gpu-tests "tilec-gpu-tests or vector_add.ptx"
fi

if VECTOR_ADD=$(binary vector-add) && [ -n "$PTX_DIR" ]; then
  step vector-add "$VECTOR_ADD" "$PTX"
else
  missing vector-add "vector-add or vector_add.ptx"
fi

BENCH=$(binary tilec-bench) || BENCH=""
if [ -n "$BENCH" ] && [ -n "$PTX_DIR" ]; then
  step tilec-bench "$BENCH" --ptx-dir "$PTX_DIR"
else
  missing tilec-bench "tilec-bench or vector_add.ptx"
fi

SOFTMAX_PTX=$(find_in_dir softmax_b4096_w8.ptx) || SOFTMAX_PTX=""
if [ -n "$BENCH" ] && [ -n "$SOFTMAX_PTX" ]; then
  step tilec-bench-softmax "$BENCH" --kernel softmax \
    --ptx-dir "$(dirname "$SOFTMAX_PTX")"
else
  missing tilec-bench-softmax "tilec-bench or softmax_b4096_w8.ptx"
fi

step triton-bench python3 "$ROOT/bench/triton_vector_add.py"
step triton-softmax python3 "$ROOT/bench/triton_softmax.py"

echo
echo "==== summary"
echo
printf '| %-19s | %-7s | %-4s |\n' step result exit
printf '|%s|%s|%s|\n' --------------------- --------- ------
FAILED=0
for i in "${!STEPS[@]}"; do
  printf '| %-19s | %-7s | %-4s |\n' "${STEPS[$i]}" "${STATUSES[$i]}" \
    "${CODES[$i]}"
  case ${STATUSES[$i]} in
    FAIL | MISSING) FAILED=1 ;;
  esac
done

# tilec-gpu-tests: its count line and its failing rows (test and size).
if [ -f "$LOGS/tilec-gpu-tests.log" ]; then
  COUNTS=$(grep -E '^tilec-gpu-tests: [0-9]+ passed' \
    "$LOGS/tilec-gpu-tests.log")
  [ -n "$COUNTS" ] && echo && echo "$COUNTS"
  FAIL_ROWS=$(grep -E '^\|.*\| FAIL +\|$' "$LOGS/tilec-gpu-tests.log" |
    awk -F'|' '{ gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3);
                 printf "  FAIL %s %s\n", $2, $3 }')
  if [ -n "$FAIL_ROWS" ]; then
    echo "$FAIL_ROWS" | head -n 40
    NFAIL=$(echo "$FAIL_ROWS" | wc -l)
    [ "$NFAIL" -gt 40 ] && echo "  ... ($NFAIL failing rows in all)"
  fi
fi

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

SOFTMAX_LINES=$(cat "$LOGS"/*.log 2>/dev/null | grep '^BENCH softmax ')
if [ -n "$SOFTMAX_LINES" ]; then
  echo
  echo "$SOFTMAX_LINES" | awk '
    {
      for (i = 3; i <= NF; ++i) {
        split($i, kv, "=")
        field[kv[1]] = kv[2]
      }
      impl[NR] = field["impl"]; size[NR] = field["rows"] "x" field["cols"]
      ms[NR] = field["median_ms"]; gbps[NR] = field["gbps"]
      if (field["impl"] ~ /^triton/ && field["gbps"] + 0 > triton)
        triton = field["gbps"] + 0
    }
    END {
      printf "| %-14s | %10s | %10s | %9s | %9s |\n", "softmax", "size",
             "median ms", "GB/s", "vs triton"
      printf "|----------------|------------|------------|-----------|"
      printf "-----------|\n"
      for (i = 1; i <= NR; ++i) {
        ratio = triton > 0 ? sprintf("%.3f", gbps[i] / triton) : "-"
        printf "| %-14s | %10s | %10s | %9s | %9s |\n", impl[i], size[i],
               ms[i], gbps[i], ratio
      }
      print "(softmax GB/s count 2 * rows * cols * 4 bytes; vs triton: " \
            "against the fastest Triton num_warps)"
    }'
fi

echo
if [ "$FAILED" -eq 0 ]; then
  echo "tilec GPU run: OK"
else
  echo "tilec GPU run: FAILED"
fi
exit "$FAILED"
