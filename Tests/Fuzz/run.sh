#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer; the targets turn the
# internal checks on), replays each committed corpus, and explores from it:
# for SECONDS seconds, or for a fixed number of new inputs. Exits non-zero
# on a crash or a failed check; crashes are written to Tests/Fuzz/artifacts/
# (turn each into a regression test).
#
#   layout    FuzzTarget.swift: operation sequences with hostile values, the
#             layout against the reference (corpus: Tests/Fuzz/corpus)
#   snapshot  SnapshotFuzzTarget.swift: snapshot encodings, binary and JSON,
#             mutated by a mutator that knows the format, restored into the
#             layout and the reference (corpus: Tests/Fuzz/snapshot-corpus,
#             real snapshots of lists, sections, grids and masonry)
#
#   bash Tests/Fuzz/run.sh [SECONDS]            both targets, SECONDS each (default 60)
#   bash Tests/Fuzz/run.sh --runs N             replay both corpora, then N new inputs each (what CI runs)
#   bash Tests/Fuzz/run.sh --target snapshot 600    one target, by hand
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=(layout snapshot)
if [ "${1:-}" = "--target" ]; then
  [[ "${2:-}" =~ ^(layout|snapshot)$ ]] || { echo "usage: bash Tests/Fuzz/run.sh [--target layout|snapshot] [SECONDS | --runs N]"; exit 2; }
  targets=("$2"); shift 2
fi
limit=(-max_total_time="${1:-60}")
if [ "${1:-}" = "--runs" ]; then
  [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "usage: bash Tests/Fuzz/run.sh [--target layout|snapshot] [SECONDS | --runs N]"; exit 2; }
  limit=(-runs="$2")
fi
out=.build-fuzz
mkdir -p "$out" Tests/Fuzz/artifacts
flags=(-parse-as-library -O ${FUZZ_OPT:-} -sanitize=fuzzer,address -package-name lazystack
       -I "$out" -L "$out" -swift-version 6)
build() {  # module name, extra flags (one word), sources...
  local module="$1" extra="$2"; shift 2
  swiftc "${flags[@]}" $extra -module-name "$module" -emit-module -emit-module-path "$out/$module.swiftmodule" \
    -emit-library -static -o "$out/lib$module.a" "$@"
}
echo "== building the fuzz targets in $out"
build LazyStackCore "" $(find Sources/LazyStackCore -name '*.swift' | sort)
# The reference with cross-module optimization, as Package.swift builds it:
# its generic code is specialized in the targets that call it.
build LazyStackReference -cross-module-optimization Sources/LazyStackReference/*.swift
build LazyStackTestSupport "" $(find Sources/LazyStackTestSupport -name '*.swift' | sort)
libs=(-lLazyStackTestSupport -lLazyStackReference -lLazyStackCore)
for target in "${targets[@]}"; do
  case "$target" in
    layout) source=Tests/Fuzz/FuzzTarget.swift corpus=Tests/Fuzz/corpus binary="$out/lazystack-fuzz" ;;
    snapshot) source=Tests/Fuzz/SnapshotFuzzTarget.swift corpus=Tests/Fuzz/snapshot-corpus binary="$out/lazystack-snapshot-fuzz" ;;
  esac
  swiftc "${flags[@]}" -module-name "LazyStackFuzz_$target" "$source" "${libs[@]}" -o "$binary"
  echo "== $target: replaying the $(ls "$corpus" | wc -l) inputs of $corpus, then exploring (${limit[*]})"
  # The committed corpus is copied into a working one, where libFuzzer
  # adds the inputs it keeps (the committed one is read once, from the copy).
  work="$out/corpus-$target"
  mkdir -p "$work"
  cp "$corpus"/* "$work/" 2>/dev/null || true
  # -timeout: one input's limit (a hang). 30 s, not 10: an input of the
  # layout target that takes 8.0 s alone (the reference's lane geometry,
  # O(n) a question, under ASan) took over 10 s in CI beside the ASan suite
  # and the release build, and failed a run with no bug in it.
  "$binary" "${limit[@]}" -max_len=4096 -timeout=30 -rss_limit_mb=4096 \
    -artifact_prefix=Tests/Fuzz/artifacts/ -print_final_stats=1 "$work"
done
