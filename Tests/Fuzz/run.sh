#!/usr/bin/env bash
# Builds the libFuzzer target (with AddressSanitizer; the target turns the
# internal checks on) and runs it for SECONDS seconds (default 60) on the seed corpus.
# Exits non-zero on a crash or a failed check; crashes are written to
# Tests/Fuzz/artifacts/ (turn each into a regression test).
#   bash Tests/Fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
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
build LazyStackTestSupport Sources/LazyStackTestSupport/*.swift
swiftc "${flags[@]}" -module-name LazyStackFuzz Tests/Fuzz/FuzzTarget.swift \
  -lLazyStackTestSupport -lLazyStackReference -lLazyStackCore -o "$out/lazystack-fuzz"
echo "== fuzzing for $seconds s"
work="$out/corpus"
mkdir -p "$work"
cp Tests/Fuzz/corpus/* "$work/" 2>/dev/null || true
"$out/lazystack-fuzz" -max_total_time="$seconds" -max_len=2048 -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix=Tests/Fuzz/artifacts/ -print_final_stats=1 "$work" Tests/Fuzz/corpus
