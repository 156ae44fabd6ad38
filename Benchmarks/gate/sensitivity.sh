#!/usr/bin/env bash
# Measures `bench --compare` itself (Benchmarks/README.md, "The paired gate"): in a
# scratch worktree of HEAD, injects a slowdown of about 10 % into a hot path
# (`index(atOffset:)`: one call in EVERY, by offset, runs its descent a
# second time and uses the result; with base and head built alike, one call
# in three measured +14 to +18 % at 1e4 rows), then runs `bench --compare HEAD --quick
# --filter offset_to_index` RUNS times and counts the verdicts; then the same
# with the tree unchanged (false positives).
#   bash Benchmarks/gate/sensitivity.sh [RUNS] [SIZE] [EVERY]   (default 10 runs at 10000 rows, one call in 5)
set -euo pipefail
runs="${1:-10}"
size="${2:-10000}"
every="${3:-5}"  # one call in EVERY runs the second descent
root="$(git rev-parse --show-toplevel)"
work="$(mktemp -d /tmp/lazystack-gate.XXXXXX)"
trap 'git -C "$root" worktree remove --force "$work" >/dev/null 2>&1 || true' EXIT
git -C "$root" worktree add --detach "$work" HEAD >/dev/null
cd "$work"
file=Sources/LazyStackCore/Layout/LazyStackLayout+Geometry.swift
inject() {
  python3 - "$file" "$every" <<'PY'
import sys
p, every = sys.argv[1], sys.argv[2]
s = open(p).read()
old = "    let y = _FixedPoint.units(offset) &- _alignmentShift\n    return _row(atUnits: y)\n"
new = ("    let y = _FixedPoint.units(offset) &- _alignmentShift\n"
       "    let row = _row(atUnits: y)\n"
       f"    // Injected by Benchmarks/gate/sensitivity.sh: a second descent for one call in {every}.\n"
       f"    if (y >> 8) % {every} == 0 {{ return Swift.min(row, _row(atUnits: y &+ 1)) }}\n"
       "    return row\n")
assert old in s, "injection point not found"
open(p, "w").write(s.replace(old, new))
PY
}
count() {  # label
  local regressions=0 same=0 improvements=0
  for i in $(seq 1 "$runs"); do
    swift run -c release bench --compare HEAD --quick --filter offset_to_index --sizes "$size" --output "$work/out" > "$work/log" 2>&1 || true
    line=$(grep "^offset_to_index" "$work/log" | tail -1)
    echo "  $1 run $i: $line"
    case "$line" in
      *regression*) regressions=$((regressions + 1)) ;;
      *improvement*) improvements=$((improvements + 1)) ;;
      *same*) same=$((same + 1)) ;;
      *) echo "  no verdict:"; tail -20 "$work/log"; exit 1 ;;
    esac
  done
  echo "$1: $regressions regression, $same same, $improvements improvement in $runs runs"
}
inject
count "one call in $every slower"
git checkout -q -- "$file"
count "unchanged"
