#!/usr/bin/env bash
#===- tools/compare-ptx.sh - Compare two tilec builds' PTX ---------------===#
#
# Part of tilec, a Triton-style tile-language compiler.
#
#===----------------------------------------------------------------------===#
#
#   tools/compare-ptx.sh OLD_TILEC NEW_TILEC [MANIFEST]
#
# Compiles every kernel of the examples' PTX manifest (build/examples/
# ptx-manifest.tsv: the examples and seed kernels under their
# configurations) with both compilers and reports each whose PTX differs,
# with the diff. A refactoring that promises unchanged code runs it against
# a build of the commit before. Exits 1 when any PTX differs.
#
#===----------------------------------------------------------------------===#

set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=$1
new=$2
manifest=${3:-$root/build/examples/ptx-manifest.tsv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

same=0
differ=0
while IFS=$'\t' read -r name source kernel signature warps stages constexprs; do
  [[ $name == \#* || -z $name ]] && continue
  args=("$root/examples/$source" -k "$kernel" -s "$signature"
        --num-warps "$warps" --num-stages "$stages" -Wno-tf32 -Wno-block-ptr)
  for define in $constexprs; do
    args+=(-D "$define")
  done
  "$old" "${args[@]}" -o "$work/old.ptx" 2> "$work/old.err" || true
  "$new" "${args[@]}" -o "$work/new.ptx" 2> "$work/new.err" || true
  if cmp -s "$work/old.ptx" "$work/new.ptx" &&
     cmp -s "$work/old.err" "$work/new.err"; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "=== $name ($source, $kernel)"
    diff "$work/old.ptx" "$work/new.ptx" | head -20 || true
    diff "$work/old.err" "$work/new.err" | head -10 || true
  fi
done < "$manifest"
echo "compare-ptx: $same kernels with the same PTX, $differ different"
[ "$differ" -eq 0 ]
