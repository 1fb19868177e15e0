#!/usr/bin/env bash
#===- tools/gpu/record.sh - Append a GPU run's section to the log -------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
#===----------------------------------------------------------------------===#
#
# Appends FILE, the section tools/gpu/run.sh wrote with
# TILEC_PERF_RECORD=FILE on the GPU machine (fetched back here), to
# docs/performance.md.
#
#   tools/gpu/record.sh FILE
#
#===----------------------------------------------------------------------===#
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ $# -ne 1 ] || [ ! -s "$1" ]; then
  echo "usage: tools/gpu/record.sh FILE (a non-empty section from run.sh)" >&2
  exit 1
fi
{
  echo
  cat "$1"
} >> "$root/docs/performance.md"
echo "record.sh: appended $1 to docs/performance.md"
