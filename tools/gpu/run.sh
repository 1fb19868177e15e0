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
#   tilec-gpu-tests (also under compute-sanitizer memcheck, racecheck and
#   synccheck), vector-add, multi-gpu-matmul (the seed matmul split over
#   every GPU, peer copies gathering C), nccl-data-parallel (partial
#   products on every GPU, NCCL's all-reduce), tilec-bench (vector add,
#   softmax, then the tensor-core matmuls), tilec-interp-compare (the GPU against the
#   interpreter, from DIR/interp), bench/triton_vector_add.py,
#   bench/triton_softmax.py, bench/triton_matmul.py, bench/compare.py
#   (every kernel family under tilec, Triton and torch, timed alike), the
#   experimental ping-pong (the HEAD_DIM 128 attention kernels of
#   DIR/ping-pong tested, then timed against the default build),
#   examples/host-app
#   (twice: tuning then reuse; JIT kernels from DIR/cache),
#   tilec-launch-bench, bench/triton_launch_overhead.py, and, when
#   DIR/shadow exists (tools/gpu/prepare-shadow.sh), tools/gpu/shadow.py on
#   each program there (a step per program: every Triton launch it makes
#   compared with tilec's launch of the same kernel source)
#
# and prints a summary last: each step's result, the counts of
# tilec-gpu-tests and its failing rows, then the vector_add bandwidths of
# tilec, Triton, torch.add and a device copy, the softmax (8192 x 4096
# fp32) bandwidths of tilec, Triton (same kernel source, same grid) and
# torch.softmax, and the matmul TFLOP/s (the pointer seed in fp16, bf16 and
# tf32, the descriptor seed in fp16 and bf16; 4096^3, 8192^3, 4000^3) of
# tilec, Triton (same kernel source and blocks) and cuBLAS, with Triton's
# first-call compile time of the matmul.
#
#   tools/gpu/run.sh [DIR]
#
# With TILEC_PERF_RECORD=FILE, the summary also goes to FILE as a section of
# docs/performance.md (a heading with the date and the commit prepare.sh
# recorded, the command, the summary's tables); tools/gpu/record.sh FILE
# appends it there once FILE is back on the build machine.
#
# DIR (default .device) holds the binaries and the PTX (vector_add.ptx and,
# for the softmax benchmark, softmax_b4096_w8.ptx and softmax_b4096_w16.ptx,
# for the matmul one matmul_ptr_fp16_tc_n256.ptx and its neighbours);
# each is looked for in DIR, DIR/bin and DIR/examples. TILEC_GPU_TESTS_ONLY,
# when set, is passed to tilec-gpu-tests as --only (e.g. "vector_add*");
# TILEC_COMPARE_ONLY, when set, is passed to bench/compare.py as --only
# (rows, space-separated: e.g. "flash_attention flash_attention_desc");
# TILEC_STEPS, when set, runs only the named steps (e.g.
# "sanitize-memcheck,compare").
# Exit status: 0 when no step failed (skips are not failures), 1 otherwise.
#
#===----------------------------------------------------------------------===#

set -u

DIR=${1:-.device}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/tilec-gpu-run.XXXXXX")
export PYTHONUNBUFFERED=1

# Prints the path of $1 under DIR, DIR/bin, DIR/examples or DIR/lib.
find_in_dir() {
  local candidate
  for candidate in "$DIR/$1" "$DIR/bin/$1" "$DIR/examples/$1" "$DIR/lib/$1"; do
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

# step NAME COMMAND...: runs COMMAND, logs its output, records its result
# (unless TILEC_STEPS, a comma-separated list of step names, leaves it out;
# a name stands for the steps it is a dash-separated prefix of: "shadow",
# "sanitize", "ping-pong").
selected() {
  local want
  [ -z "${TILEC_STEPS:-}" ] && return 0
  for want in ${TILEC_STEPS//,/ }; do
    [[ $1 == "$want" || $1 == "$want"-* ]] && return 0
  done
  return 1
}
step() {
  local name=$1
  shift
  selected "$name" || return 0
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

# The GPU suite under compute-sanitizer's memcheck, racecheck and synccheck
# (TILEC_SANITIZERS, default all three; "none" skips them), on the sizes up
# to TILEC_SANITIZER_MAX_SIZE elements (default 5000000): each tool's
# "ERROR SUMMARY" (racecheck: "RACECHECK SUMMARY") goes to the summary.
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -n "${GPU_TESTS:-}" ] && [ -n "$PTX_DIR" ] && [ -x "$SANITIZER" ]; then
  for tool in ${TILEC_SANITIZERS:-memcheck racecheck synccheck}; do
    [ "$tool" = none ] && break
    step "sanitize-$tool" "$SANITIZER" --tool "$tool" --error-exitcode 1 \
      "$GPU_TESTS" --ptx-dir "$PTX_DIR" \
      --max-size "${TILEC_SANITIZER_MAX_SIZE:-5000000}" \
      ${ONLY[@]+"${ONLY[@]}"}
  done
elif [ "${TILEC_SANITIZERS:-}" != none ]; then
  missing sanitize "compute-sanitizer, tilec-gpu-tests or the PTX"
fi

if COMPARE=$(binary tilec-interp-compare) && [ -n "$PTX_DIR" ] &&
  [ -f "$DIR/interp/cases.txt" ]; then
  step interp-compare "$COMPARE" "$DIR/interp" --ptx-dir "$PTX_DIR"
else
  missing interp-compare "tilec-interp-compare or interp/cases.txt"
fi

if VECTOR_ADD=$(binary vector-add) && [ -n "$PTX_DIR" ]; then
  step vector-add "$VECTOR_ADD" "$PTX"
else
  missing vector-add "vector-add or vector_add.ptx"
fi

# The seed matmul split over every GPU (one GPU: the whole product there).
if MULTI_GPU=$(binary multi-gpu-matmul) && [ -n "$PTX_DIR" ] &&
  [ -f "$PTX_DIR/matmul_ptr_fp16_tc_n256.ptx" ]; then
  step multi-gpu-matmul "$MULTI_GPU" "$PTX_DIR/matmul_ptr_fp16_tc_n256.ptx"
else
  missing multi-gpu-matmul "multi-gpu-matmul or matmul_ptr_fp16_tc_n256.ptx"
fi

# A data-parallel step over every GPU: tilec's matmul, NCCL's all-reduce
# (libnccl.so.2 from the loader's path, else torch's, unless
# TILEC_NCCL_LIBRARY names one).
if NCCL_STEP=$(binary nccl-data-parallel) && [ -n "$PTX_DIR" ] &&
  [ -f "$PTX_DIR/matmul_ptr_ieee_fp32.ptx" ]; then
  if [ -z "${TILEC_NCCL_LIBRARY:-}" ] &&
    ! ldconfig -p 2>/dev/null | grep -q 'libnccl\.so\.2 '; then
    TILEC_NCCL_LIBRARY=$(python3 -c 'import glob, os, nvidia.nccl; print((glob.glob(os.path.join(list(nvidia.nccl.__path__)[0], "lib", "libnccl.so*")) + [""])[0])' 2>/dev/null || true)
    [ -n "$TILEC_NCCL_LIBRARY" ] && export TILEC_NCCL_LIBRARY
  fi
  step nccl-data-parallel "$NCCL_STEP" "$PTX_DIR/matmul_ptr_ieee_fp32.ptx"
else
  missing nccl-data-parallel "nccl-data-parallel or matmul_ptr_ieee_fp32.ptx"
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

MATMUL_PTX=$(find_in_dir matmul_ptr_fp16_tc_n256.ptx) || MATMUL_PTX=""
if [ -n "$BENCH" ] && [ -n "$MATMUL_PTX" ]; then
  step tilec-bench-matmul "$BENCH" --kernel matmul \
    --ptx-dir "$(dirname "$MATMUL_PTX")"
else
  missing tilec-bench-matmul "tilec-bench or matmul_ptr_fp16_tc_n256.ptx"
fi

step triton-bench python3 "$ROOT/bench/triton_vector_add.py"
step triton-softmax python3 "$ROOT/bench/triton_softmax.py"
step triton-matmul python3 "$ROOT/bench/triton_matmul.py"

# One table: each kernel family under tilec, Triton (same source) and
# torch, all timed by do_bench in one process (bench/compare.py).
if C_LIB=$(find_in_dir libtilec-runtime-c.so) && [ -n "$PTX_DIR" ]; then
  COMPARE_ONLY=()
  # shellcheck disable=SC2206 # rows are words
  [ -n "${TILEC_COMPARE_ONLY:-}" ] && COMPARE_ONLY=(--only $TILEC_COMPARE_ONLY)
  step compare python3 "$ROOT/bench/compare.py" --ptx-dir "$PTX_DIR" \
    --library "$C_LIB" --markdown "$LOGS/compare.md" \
    ${COMPARE_ONLY[@]+"${COMPARE_ONLY[@]}"}
else
  missing compare "libtilec-runtime-c.so or the PTX"
fi

# The experimental ping-pong (prepare.sh's ping-pong/, tilec --ping-pong):
# the HEAD_DIM 128 attention kernels' GPU tests under a time limit (an error
# in the mbarrier protocol would hang), then their rows timed as built by
# default and with the ping-pong, one process after the other.
PP_DIR="$DIR/ping-pong"
if [ -n "${GPU_TESTS:-}" ] && [ -n "${C_LIB:-}" ] &&
  [ -f "$PP_DIR/ptx-manifest.tsv" ]; then
  step ping-pong-tests timeout 300 "$GPU_TESTS" --ptx-dir "$PP_DIR" --only \
    "attention_fp16_d128,attention_bf16_d128,flash_attention*_fp16_d128_causal,flash_attention*_bf16_d128"
  for pp in "$PTX_DIR" "$PP_DIR"; do
    step "ping-pong-compare-$(basename "$pp")" python3 "$ROOT/bench/compare.py" \
      --ptx-dir "$pp" --library "$C_LIB" \
      --only attention_fp16_d128 attention_bf16_d128 flash_attention \
      flash_attention_desc flash_attention_tma
  done
else
  missing ping-pong "tilec-gpu-tests, libtilec-runtime-c.so or ping-pong/"
fi

# The field check (prepare-shadow.sh's shadow/): each program there run by
# shadow.py, every Triton launch it makes launched again by tilec and
# compared.
if [ -f "$DIR/shadow/tilec.xz" ]; then
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    "$DIR/shadow/tilec.xz" "$LOGS/tilec" && chmod +x "$LOGS/tilec"
  for program in "$DIR"/shadow/programs/*.py; do
    step "shadow-$(basename "$program" .py)" timeout "${TILEC_SHADOW_LIMIT:-300}" \
      python3 "$ROOT/tools/gpu/shadow.py" --tilec "$LOGS/tilec" \
      --library "$DIR/shadow/lib/libtilec-runtime-c.so" \
      --json "$LOGS/shadow-$(basename "$program" .py).json" -- "$program"
  done
fi

# The runtime (docs/runtime.md): examples/host-app twice, where the second
# run reuses the tuned matmul configuration and loads its JIT kernel from the
# cache prepare-runtime.sh filled; then the host time per launch of an empty
# kernel through each launch path of tilec and of Triton.
export TILEC_CACHE_DIR="$DIR/cache"
export TILEC_TUNING_FILE="$LOGS/tuning.tsv"
if HOST_APP=$(binary host-app); then
  for run in 1 2; do
    step host-app-$run "$HOST_APP" \
      --matmul-source "$ROOT/examples/seeds/matmul_ptr.tile" \
      --desc-matmul-source "$ROOT/examples/matmul_descriptor_autotune.tile"
  done
else
  missing host-app host-app
fi
if LAUNCH_BENCH=$(binary tilec-launch-bench) &&
  EMPTY_PTX=$(find_in_dir empty_kernel.ptx); then
  step launch-bench "$LAUNCH_BENCH" --ptx-dir "$(dirname "$EMPTY_PTX")" \
    --jit-source "$ROOT/bench/empty_kernel.tile"
else
  missing launch-bench "tilec-launch-bench or empty_kernel.ptx"
fi
step triton-launch python3 "$ROOT/bench/triton_launch_overhead.py"

FAILED=0
for i in "${!STEPS[@]}"; do
  case ${STATUSES[$i]} in
    FAIL | MISSING) FAILED=1 ;;
  esac
done

echo
echo "==== summary"
echo
{
printf '| %-19s | %-7s | %-4s |\n' step result exit
printf '|%s|%s|%s|\n' --------------------- --------- ------
for i in "${!STEPS[@]}"; do
  printf '| %-19s | %-7s | %-4s |\n' "${STEPS[$i]}" "${STATUSES[$i]}" \
    "${CODES[$i]}"
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

# compute-sanitizer: each tool's error summary.
for log in "$LOGS"/sanitize-*.log; do
  [ -f "$log" ] || continue
  tool=$(basename "$log" .log)
  echo
  echo "$tool: $(grep -E '(ERROR|RACECHECK) SUMMARY' "$log" | tail -n 1)"
  grep -E '^tilec-gpu-tests: [0-9]+ passed' "$log" | sed 's/^/  /'
done

# tilec-interp-compare: its count line and its failing cases.
if [ -f "$LOGS/interp-compare.log" ]; then
  echo
  grep -E '^tilec-interp-compare: ' "$LOGS/interp-compare.log"
  grep -E '^\|.*\| FAIL ' "$LOGS/interp-compare.log" | head -n 20
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

# matmul: TFLOP/s per dtype and size of tilec, Triton (same blocks, warps
# and stages, and the best of the configurations tried) and cuBLAS, and
# tilec's ratios to them.
MATMUL_LINES=$(cat "$LOGS"/*.log 2>/dev/null | grep '^BENCH matmul ')
if [ -n "$MATMUL_LINES" ]; then
  echo
  echo "$MATMUL_LINES" | awk '
    function ratio(a, b) {
      return (a > 0 && b > 0) ? sprintf("%.3f", a / b) : "-"
    }
    function show(v) { return v > 0 ? sprintf("%.1f", v) : "-" }
    {
      split("", field)
      for (i = 3; i <= NF; ++i) {
        split($i, kv, "=")
        field[kv[1]] = kv[2]
      }
      if (field["m"] == field["n"] && field["n"] == field["k"])
        size = field["m"] "^3"
      else
        size = field["m"] "x" field["n"] "x" field["k"]
      key = field["dtype"] " " size
      if (!(key in seen)) { seen[key] = 1; keys[++count] = key }
      impl = field["impl"]; t = field["tflops"] + 0
      if (impl == "tilec") tilec[key] = t
      else if (impl == "triton") triton[key] = t
      else if (impl == "cublas") cublas[key] = t
      if (impl ~ /^triton/ && t > best[key]) best[key] = t
    }
    END {
      printf "| %-12s | %7s | %7s | %7s | %7s | %12s | %12s | %12s |\n",
             "matmul", "tilec", "triton", "tr best", "cuBLAS",
             "tilec/cuBLAS", "tilec/triton", "tilec/best"
      printf "|--------------|---------|---------|---------|---------|"
      printf "--------------|--------------|--------------|\n"
      for (i = 1; i <= count; ++i) {
        key = keys[i]
        printf "| %-12s | %7s | %7s | %7s | %7s | %12s | %12s | %12s |\n",
               key, show(tilec[key]), show(triton[key]), show(best[key]),
               show(cublas[key]), ratio(tilec[key], cublas[key]),
               ratio(tilec[key], triton[key]), ratio(tilec[key], best[key])
      }
      print "(TFLOP/s = 2 * m * n * k / median time; triton: same " \
            "blocks, warps and stages as tilec, tr best: best of the " \
            "Triton configurations tried)"
    }'
fi
if [ -s "$LOGS/compare.md" ]; then
  echo
  cat "$LOGS/compare.md"
  echo "(bench/compare.py: tilec's PTX through tilec's runtime, Triton on the" \
    "same source and constexprs, torch; every one timed by" \
    "triton.testing.do_bench in one process: L2 flushed, median; GB/s or" \
    "TFLOP/s)"
fi
COMPILE_LINE=$(cat "$LOGS"/*.log 2>/dev/null |
  grep -m 1 '^BENCH compile impl=triton kernel=matmul_ptr ')
[ -n "$COMPILE_LINE" ] &&
  echo "Triton first-call compile of matmul_ptr_kernel (fp16, empty cache):" \
    "${COMPILE_LINE##*seconds=} s"
# tilec's, measured where tools/gpu/prepare.sh built it.
if [ -f "$DIR/compile-times.txt" ]; then
  sed -n 's/^BENCH compile impl=tilec-\([a-z]*\) kernel=matmul_ptr ms=\(.*\)/tilec compile of matmul_ptr_kernel, source to \1 (whole process, build machine): \2 ms/p' \
    "$DIR/compile-times.txt"
fi

HOST_LINES=$(grep -h -E '^(aot-|jit-)' "$LOGS"/host-app-*.log 2>/dev/null)
if [ -n "$HOST_LINES" ]; then
  echo
  echo "host-app, run 1 then run 2:"
  echo "$HOST_LINES" | sed 's/^/  /'
fi
if [ -s "$LOGS/tuning.tsv" ]; then
  echo
  echo "tuning file $LOGS/tuning.tsv (bake it in with tilec --tuning):"
  sed 's/^/  /' "$LOGS/tuning.tsv"
fi
LAUNCH_LINES=$(cat "$LOGS"/*.log 2>/dev/null | grep '^BENCH launch ')
if [ -n "$LAUNCH_LINES" ]; then
  echo
  echo "$LAUNCH_LINES" | awk '
    BEGIN {
      printf "| %-16s | %12s |\n", "launch path", "us/launch"
      printf "|------------------|--------------|\n"
    }
    {
      for (i = 3; i <= NF; ++i) {
        split($i, kv, "=")
        field[kv[1]] = kv[2]
      }
      printf "| %-16s | %12s |\n", field["impl"], field["us_per_launch"]
    }
    END { print "(host time per launch of bench/empty_kernel.tile, 1 block)" }'
fi
} | tee "$LOGS/summary.md"

if [ -n "${TILEC_PERF_RECORD:-}" ]; then
  GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
    2>/dev/null | head -n 1)
  {
    echo "## $(date -u +%Y-%m-%d), $(cat "$DIR/build-info.txt" 2>/dev/null ||
      echo "commit unknown"), recorded by tools/gpu/run.sh"
    echo
    echo "\`bash tools/gpu/prepare.sh\`, then \`TILEC_PERF_RECORD=FILE bash" \
      "tools/gpu/run.sh $DIR\` on ${GPU:-the GPU machine}, and" \
      "\`tools/gpu/record.sh FILE\`. Summary as printed:"
    echo
    cat "$LOGS/summary.md"
  } > "$TILEC_PERF_RECORD"
fi

echo
if [ "$FAILED" -eq 0 ]; then
  echo "tilec GPU run: OK"
else
  echo "tilec GPU run: FAILED"
fi
exit "$FAILED"
