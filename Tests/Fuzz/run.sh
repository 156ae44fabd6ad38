#!/usr/bin/env bash
# Builds the libFuzzer target (with AddressSanitizer; the target turns the
# internal checks on), replays the committed corpus (Tests/Fuzz/corpus), and
# explores from it: for SECONDS seconds, or for a fixed number of new inputs.
# Exits non-zero on a crash or a failed check; crashes are written to
# Tests/Fuzz/artifacts/ (turn each into a regression test).
#   bash Tests/Fuzz/run.sh [SECONDS]        explore for SECONDS seconds (default 60)
#   bash Tests/Fuzz/run.sh --runs N         replay the corpus, then N new inputs (what CI runs)
#   bash Tests/Fuzz/run.sh 3600             a longer run, by hand
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=(-max_total_time="${1:-60}")
if [ "${1:-}" = "--runs" ]; then
  [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "usage: bash Tests/Fuzz/run.sh [SECONDS | --runs N]"; exit 2; }
  limit=(-runs="$2")
fi
out=.build-fuzz
mkdir -p "$out" Tests/Fuzz/artifacts
flags=(-parse-as-library -O ${FUZZ_OPT:-} -sanitize=fuzzer,address -package-name lazystack
       -I "$out" -L "$out" -swift-version 6)
build() {  # module name, sources...
  local module="$1"; shift
  swiftc "${flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/$module.swiftmodule" \
    -emit-library -static -o "$out/lib$module.a" "$@"
}
echo "== building the fuzz target in $out"
build LazyStackCore $(find Sources/LazyStackCore -name '*.swift' | sort)
build LazyStackReference Sources/LazyStackReference/*.swift
build LazyStackTestSupport $(find Sources/LazyStackTestSupport -name '*.swift' | sort)
swiftc "${flags[@]}" -module-name LazyStackFuzz Tests/Fuzz/FuzzTarget.swift \
  -lLazyStackTestSupport -lLazyStackReference -lLazyStackCore -o "$out/lazystack-fuzz"
echo "== replaying the $(ls Tests/Fuzz/corpus | wc -l) inputs of Tests/Fuzz/corpus, then exploring (${limit[*]})"
work="$out/corpus"
mkdir -p "$work"
cp Tests/Fuzz/corpus/* "$work/" 2>/dev/null || true
"$out/lazystack-fuzz" "${limit[@]}" -max_len=2048 -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix=Tests/Fuzz/artifacts/ -print_final_stats=1 "$work" Tests/Fuzz/corpus
