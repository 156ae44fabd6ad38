#!/usr/bin/env bash
# Measures `bench --compare` itself (Benchmarks/README.md, "The paired gate"): in a
# scratch worktree of HEAD, injects a slowdown of about 10 % into a hot path
# (`index(atOffset:)`: one call in EVERY, by offset, runs its descent a
# second time and uses the result; with base and head built alike, one call
# in three measured +14 to +18 % at 1e4 rows), then runs `bench --compare HEAD --quick
# --filter offset_to_index` RUNS times and counts the verdicts; then the same
# with the tree unchanged (false positives).
#   bash Benchmarks/gate/sensitivity.sh [RUNS] [SIZE] [EVERY]   (default 10 runs at 10000 rows, one call in 5)
#   bash Benchmarks/gate/sensitivity.sh --beside [RUNS] [SIZE] [EVERY]
# --beside measures it as CI's paired gate runs it: the comparison on
# processor 0, while a comparison of every scenario at 1e6 rows runs over
# and over on processor 1 (this checkout's release build of bench, which
# must be built).
set -euo pipefail
beside=0
if [ "${1:-}" = "--beside" ]; then beside=1; shift; fi
runs="${1:-10}"
size="${2:-10000}"
every="${3:-5}"  # one call in EVERY runs the second descent
root="$(git rev-parse --show-toplevel)"
work="$(mktemp -d /tmp/lazystack-gate.XXXXXX)"
neighbour=""
trap '[ -n "$neighbour" ] && kill -- -"$neighbour" 2> /dev/null; git -C "$root" worktree remove --force "$work" >/dev/null 2>&1 || true' EXIT
git -C "$root" worktree add --detach "$work" HEAD >/dev/null
pin=()
if [ "$beside" = 1 ]; then
  [ -x "$root/.build/release/bench" ] || { echo "--beside needs this checkout's release build: swift build -c release --product bench"; exit 2; }
  (cd "$root" && .build/release/bench --compare HEAD --build-only --head-binary .build/release/bench) > /dev/null
  set -m
  ( while true; do
      (cd "$root" && .build/release/bench --compare HEAD --quick --sizes 1000000 --cpu 1 \
        --head-binary .build/release/bench --output "$work/beside") > /dev/null 2>&1
    done ) &
  neighbour=$!
  set +m
  pin=(--cpu 0)
  echo "beside: a comparison at 1e6 rows runs over and over on processor 1; this one runs on processor 0"
fi
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
    swift run -c release bench --compare HEAD --quick --filter offset_to_index --sizes "$size" "${pin[@]}" --output "$work/out" > "$work/log" 2>&1 || true
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
