#!/usr/bin/env bash
# The paired gate, as CI runs it (.ci/run): the library of this submission
# (HEAD) against the main it started from (the commit in Benchmarks/gate/base),
# with `bench --compare`, at 1e4 rows (threshold 5 %) and at 1e6 rows
# (threshold 15 %: there each process's memory layout moves a case by up to
# about 15 %). Exit 0 only on a clear verdict:
#   - every case "same", "improvement" or "placement" (a confirmed slowdown
#     whose two builds count the same instructions and data-cache misses an
#     operation under callgrind: where the linker put the code; needs valgrind);
#   - or a regression that a commit since the base declares in a trailer
#       Bench-Gate: SCENARIO[, SCENARIO...]: why the slowdown is accepted
#   - or no verdict possible because the benchmark cannot run against the
#     base (an API change it cannot bridge), declared in a trailer
#       Bench-Gate: api: why
#   - or the library sources (Sources/, Package.swift) are the same as the base's.
# Everything else fails: a base missing from the clone, a base that does
# not build or run, a crashed worker, a scenario that times no-ops, an
# undeclared regression.
#   bash Benchmarks/gate/paired.sh               (every scenario, both sizes)
#   GATE_FILTER="offset_to_index jump" GATE_SIZES="10000" bash Benchmarks/gate/paired.sh
# GATE_BUILD_ONLY=1: only the checks and the builds (CI builds the base so
# while its correctness jobs run; the gate then finds it built).
# GATE_HEAD_BINARY=PATH: the head is that release build of this very tree,
# made from scratch (CI passes its fresh clone's .build/release/bench rather
# than build the same tree a second time). LAZYSTACK_COMPARE_CACHE=DIR: where
# the base and head trees are extracted and built (CI keeps it outside the
# clone, so a base built once is reused; a miss builds it).
set -uo pipefail
root="$(git rev-parse --show-toplevel)" || { echo "paired gate: FAILED: not in a git checkout"; exit 1; }
cd "$root"
out="${GATE_OUTPUT:-${TMPDIR:-/tmp}/lazystack-paired}"
sizes="${GATE_SIZES:-10000 1000000}"
filters=()
for f in ${GATE_FILTER:-}; do filters+=(--filter "$f"); done

fail() { echo "paired gate: FAILED: $*"; exit 1; }

base="$(grep -v '^#' Benchmarks/gate/base 2>/dev/null | head -1 | tr -d '[:space:]')"
[ -n "$base" ] || fail "Benchmarks/gate/base names no commit: no base to compare with"
git rev-parse --verify --quiet "$base^{commit}" > /dev/null \
  || fail "the base $base (Benchmarks/gate/base) is not in this clone (a shallow clone?): no verdict"
git merge-base --is-ancestor "$base" HEAD || fail "the base $base is not an ancestor of HEAD"
echo "paired gate: HEAD $(git rev-parse --short HEAD) against the base $(git rev-parse --short "$base") ($(git rev-list --count "$base..HEAD") commits)"

if git diff --quiet "$base" HEAD -- Sources Package.swift; then
  echo "paired gate: the library sources (Sources/, Package.swift) are the base's: nothing to compare, passed"
  exit 0
fi

# The declarations: one `Bench-Gate:` trailer a line, from every commit since the base.
declared="$(git log --format='%(trailers:key=Bench-Gate,valueonly,separator=%x0A)' "$base..HEAD" | sed '/^[[:space:]]*$/d')"
if [ -n "$declared" ]; then
  echo "paired gate: declared in commits since the base:"
  echo "$declared" | sed 's/^/  Bench-Gate: /'
fi
# Whether scenario $1 (or the word api) is declared. (No `grep -q` at the
# end of the pipe: it stops reading at the first match, the loop writing
# the next trailer dies of SIGPIPE, and with pipefail a scenario declared
# on any but the last line read as undeclared.)
is_declared() {
  [ -n "$declared" ] || return 1
  local found
  found="$(echo "$declared" | while IFS= read -r line; do
    names="${line%%:*}"
    for name in ${names//,/ }; do [ "$name" = "$1" ] && echo yes; done
  done)"
  [ -n "$found" ]
}

swift build -c release --product bench > "$out-build.log" 2>&1 || { tail -30 "$out-build.log"; fail "the benchmark does not build"; }
bench="$root/.build/release/bench"

head=()
[ -n "${GATE_HEAD_BINARY:-}" ] && head=(--head-binary "$GATE_HEAD_BINARY")
# The builds first, once (the comparisons below find them built).
if ! "$bench" --compare "$base" --build-only "${head[@]}"; then
  if is_declared api; then
    echo "paired gate: the base does not build against this benchmark, and a commit declares an API change (Bench-Gate: api): accepted"
    exit 0
  fi
  fail "the base does not build against this benchmark (see above): no verdict; a deliberate API change is declared with a trailer Bench-Gate: api: why"
fi
if [ "${GATE_BUILD_ONLY:-0}" = 1 ]; then
  echo "paired gate: built (GATE_BUILD_ONLY: nothing compared)"
  exit 0
fi

# The sizes side by side, one a processor, when there are processors
# enough: each comparison pins its workers (and callgrind) to its own
# processor, so base and head of a pair still share one and a neighbour's
# load falls on both alike (Benchmarks/README.md, "The paired gate": the
# sensitivity was measured so). GATE_PARALLEL=0 runs them one after the other.
set -- $sizes
cpus="$(nproc 2> /dev/null || echo 1)"
parallel=0
[ "${GATE_PARALLEL:-1}" != 0 ] && [ "$#" -ge 2 ] && [ "$#" -le "$cpus" ] && parallel=1
compare() {  # size cpu-arguments...
  local size="$1" threshold=5; shift
  [ "$size" -ge 1000000 ] && threshold=15
  rm -f "$out-$size/compare.csv"
  "$bench" --compare "$base" --quick --sizes "$size" --threshold "$threshold" "${filters[@]}" "${head[@]}" "$@" --output "$out-$size"
}
declare -A statuses
if [ "$parallel" = 1 ]; then
  cpu=0
  pids=()
  for size in $sizes; do
    echo "== paired gate at $size rows: started on processor $cpu (log: $out-$size.log)"
    compare "$size" --cpu "$cpu" > "$out-$size.log" 2>&1 &
    pids+=("$!")
    cpu=$((cpu + 1))
  done
  i=0
  for size in $sizes; do
    wait "${pids[$i]}"
    statuses[$size]=$?
    i=$((i + 1))
  done
  for size in $sizes; do
    echo "== paired gate at $size rows"
    cat "$out-$size.log"
  done
else
  for size in $sizes; do
    echo "== paired gate at $size rows"
    compare "$size"
    statuses[$size]=$?
  done
fi

for size in $sizes; do
  status="${statuses[$size]}"
  case "$status" in
    0) echo "paired gate at $size rows: no regression" ;;
    1)
      [ -f "$out-$size/compare.csv" ] || fail "exit 1 at $size rows without a compare.csv"
      regressed="$(awk -F, 'NR > 1 && $8 == "regression" { print $1 }' "$out-$size/compare.csv")"
      [ -n "$regressed" ] || fail "exit 1 at $size rows with no regression in compare.csv"
      for scenario in $regressed; do
        if is_declared "$scenario"; then
          echo "paired gate at $size rows: $scenario regressed, declared in a Bench-Gate trailer: accepted"
        else
          fail "$scenario regressed at $size rows (see the table above), and no commit since the base declares it (Bench-Gate: $scenario: why)"
        fi
      done
      ;;
    *)
      if is_declared api; then
        echo "paired gate: bench --compare could not reach a verdict (exit $status), and a commit declares an API change (Bench-Gate: api): accepted"
        exit 0
      fi
      fail "bench --compare could not reach a verdict at $size rows (exit $status: a base that does not build against the benchmark, a crashed worker or a scenario timing no-ops; see above); a deliberate API change is declared with a trailer Bench-Gate: api: why"
      ;;
  esac
done
echo "paired gate: passed"
