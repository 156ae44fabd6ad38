#!/usr/bin/env bash
# Breaks the gates on purpose and prints what CI would say of each break
# (issue #34). In a scratch worktree of HEAD, each case commits one breaking
# change on top of HEAD, names HEAD as the gate's base (Benchmarks/gate/base)
# and runs the gate CI runs (Benchmarks/gate/paired.sh), restricted to the
# scenario the break touches so that a case takes minutes:
#   1. a 2x slowdown at 1e5 rows and more (`frame(at:)` looks two more rows
#      up when the list has 50,000 rows or more; one more measured +70 % at
#      1e5 and +77 % at 1e6, which the ratio gate's 1.6 let by): the paired
#      gate at 1e6, and
#      the ratio gate (`bench --quick --check`, which judges the speedup at
#      1e5) against the committed baseline;
#   2. a slowdown of about 10 % at 1e4 (`index(atOffset:)` descends twice for one
#      offset in five; one in ten measured +6 % on 2026-12-02, inside the 5 % line): the paired gate at 1e4;
#   3. an API change the benchmark cannot bridge (a new public member the
#      benchmark calls, which the base lacks), without a trailer, then with
#      `Bench-Gate: api: ...`;
#   4. a worker that crashes (`move` traps on lists of more than 5,000 rows).
# Every case but the declared API change must FAIL; the script exits 1 if
# one does not.
#   bash Benchmarks/gate/break-on-purpose.sh          (every case)
#   bash Benchmarks/gate/break-on-purpose.sh "1 4"    (cases 1 and 4 only)
set -uo pipefail
cases="${1:-1 2 3 4}"
wants() { [[ " $cases " == *" $1 "* ]]; }
root="$(git rev-parse --show-toplevel)"
work="$(mktemp -d /tmp/lazystack-break.XXXXXX)"
trap 'git -C "$root" worktree remove --force "$work" > /dev/null 2>&1 || true' EXIT
git -C "$root" worktree add --detach "$work" HEAD > /dev/null
cd "$work"
good="$(git rev-parse HEAD)"
unexpected=0

# Applies a Python edit ($2) to file $1; the edit reads the file as s and must change it.
edit() {
  python3 - "$1" "$2" <<'PY'
import sys
path, code = sys.argv[1], sys.argv[2]
s = open(path).read()
before = s
exec(code)
assert s != before, f"the break did not apply to {path}"
open(path, "w").write(s)
PY
}

# Commits the break on top of the good tree, with the good commit as the gate's base.
commit_break() {  # message [trailer]
  echo "$good" > Benchmarks/gate/base
  git add -A
  if [ -n "${2:-}" ]; then
    git -c user.name=gate -c user.email=gate@localhost commit -q -m "$1" -m "$2"
  else
    git -c user.name=gate -c user.email=gate@localhost commit -q -m "$1"
  fi
}

reset_to_good() { git reset -q --hard "$good"; }

# Runs the paired gate; $1 is what CI must say (FAIL or PASS).
verdict() {  # expected label filter sizes
  local expected="$1" label="$2"
  local log="$work/gate-$(echo "$label" | tr -c 'a-z0-9' '-').log"
  GATE_FILTER="$3" GATE_SIZES="$4" GATE_OUTPUT="$work/out" bash Benchmarks/gate/paired.sh > "$log" 2>&1
  local status=$?
  local said
  said="$(grep -E '^paired gate|^bench --compare:|^[a-z_]+ +n=' "$log" | tail -4)"
  local got=PASS
  [ "$status" -ne 0 ] && got=FAIL
  echo "-- $label: CI would $([ "$got" = FAIL ] && echo fail || echo pass) (paired gate exit $status; expected $expected)"
  echo "$said" | sed 's/^/     /'
  if [ "$got" != "$expected" ]; then
    unexpected=$((unexpected + 1))
    echo "     UNEXPECTED: the whole log is $log"
  fi
}

if wants 1; then
echo "== 1. a 2x slowdown at 1e5 rows and more (frame(at:))"
reset_to_good
edit Sources/LazyStackCore/Layout/LazyStackLayout+Geometry.swift '
old = "    let span = _tree._plainSpan(at: _tree._locate(index))\n    return _rect(start: span.start, extent: span.extent)\n"
new = ("    let span = _tree._plainSpan(at: _tree._locate(index))\n"
       "    // Broken on purpose (Benchmarks/gate/break-on-purpose.sh): a second lookup on large lists.\n"
       "    if count >= 50_000, _tree._plainSpan(at: _tree._locate((index &* 7919) % count)).start < 0 { return .zero }\n"
       "    if count >= 50_000, _tree._plainSpan(at: _tree._locate((index &* 104_729) % count)).start < 0 { return .zero }\n"
       "    return _rect(start: span.start, extent: span.extent)\n")
assert old in s
s = s.replace(old, new)
'
commit_break "Break: frame(at:) looks two more rows up on lists of 50,000 rows or more"
# The paired gate at 1e6 only: at 1e4 the break does no extra work, yet its
# branch alone was once flagged there (index_to_offset_after_measure +6.6 %,
# code placement), which would hide whether the 1e6 gate catches the slowdown.
verdict FAIL "2x from 1e5, paired gate at 1e6" "index_to_offset" "1000000"
head_bench="$(ls -d "$work"/.build-compare/*/ | while read -r d; do
  [ "$(basename "$d")" = "$(git rev-parse HEAD^{tree})" ] && echo "$d.build/release/bench"; done)"
if [ -x "$head_bench" ]; then
  "$head_bench" --quick --check --filter index_to_offset --sizes 1000,100000,1000000 --baseline "$work/Reports/baseline.csv" \
    --output "$work/check" > "$work/check.log" 2>&1
  status=$?
  echo "-- 2x from 1e5, ratio gate (bench --quick --check): CI would $([ $status -ne 0 ] && echo fail || echo pass) (exit $status; expected FAIL)"
  grep -E "speedup|growth|gate:" "$work/check.log" | tail -4 | sed 's/^/     /'
  [ $status -ne 0 ] || unexpected=$((unexpected + 1))
else
  echo "-- 2x from 1e5, ratio gate: the broken tree's benchmark was not built"; unexpected=$((unexpected + 1))
fi

fi

if wants 2; then
echo "== 2. a slowdown of about 10 % at 1e4 rows (index(atOffset:): a second descent for one offset in five)"
reset_to_good
edit Sources/LazyStackCore/Layout/LazyStackLayout+Geometry.swift '
old = "    let y = _FixedPoint.units(offset) &- _alignmentShift\n    return _row(atUnits: y)\n"
new = ("    let y = _FixedPoint.units(offset) &- _alignmentShift\n"
       "    let row = _row(atUnits: y)\n"
       "    // Broken on purpose (Benchmarks/gate/break-on-purpose.sh): a second descent for one offset in five.\n"
       "    if (y >> 8) % 5 == 0 { return Swift.min(row, _row(atUnits: y &+ 1)) }\n"
       "    return row\n")
assert old in s
s = s.replace(old, new)
'
commit_break "Break: index(atOffset:) descends twice for one offset in five"
verdict FAIL "about 10 % at 1e4" "offset_to_index" "10000"

fi

if wants 3; then
echo "== 3. an API change the benchmark cannot bridge"
reset_to_good
edit Sources/LazyStackCore/Layout/LazyStackLayout+Geometry.swift '
s = s.replace("extension LazyStackLayout {", """extension LazyStackLayout {
  /// Added on purpose by Benchmarks/gate/break-on-purpose.sh (the base lacks it).
  /// - Complexity: O(1).
  public var gateProbe: Int { count }
""", 1)
'
edit Benchmarks/bench/Prepare.swift '
old = "func prepareJump<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {\n"
new = old + "  if let layout = box.value as? CoreSubject { blackHole(layout.gateProbe) }\n"
assert old in s
s = s.replace(old, new)
'
commit_break "Break: the benchmark calls a member the base lacks"
verdict FAIL "API change, no trailer" "jump" "10000 1000000"
git commit -q --amend -m "Break: the benchmark calls a member the base lacks" \
  -m "Bench-Gate: api: the benchmark calls gateProbe, which the base lacks (a test of the gate)"
verdict PASS "API change, declared (Bench-Gate: api)" "jump" "10000 1000000"

fi

if wants 4; then
echo "== 4. a worker that crashes (move traps on lists of more than 5,000 rows)"
reset_to_good
edit Sources/LazyStackCore/Layout/LazyStackLayout+Edits.swift '
import re
m = re.search(r"public mutating func move\(fromOffsets[^{]*\{\n", s)
assert m, "move not found"
s = s[:m.end()] + "    precondition(count <= 5_000, \"broken on purpose by Benchmarks/gate/break-on-purpose.sh\")\n" + s[m.end():]
'
commit_break "Break: move traps on lists of more than 5,000 rows"
# Both sizes: the gate runs them side by side, and a crash in either fails it.
verdict FAIL "worker crashes, both sizes side by side" "reorder_move" "10000 1000000"

fi
echo
if [ "$unexpected" -eq 0 ]; then
  echo "break-on-purpose: every break failed the gate, and the declared API change passed"
else
  echo "break-on-purpose: $unexpected case(s) did not get the verdict they must"
  exit 1
fi
