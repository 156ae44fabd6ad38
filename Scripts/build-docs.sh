#!/usr/bin/env bash
# Builds the DocC documentation of LazyStackCore: the module's symbol graph,
# then the catalog Sources/LazyStackCore/LazyStackCore.docc (the rules, the
# articles, the decisions). Fails on any DocC warning, such as a symbol link
# or a doc link that does not resolve.
#
#   bash Scripts/build-docs.sh          # from anywhere; needs only the Swift toolchain
#
# Output: .build-docs/LazyStackCore.doccarchive (open it with
# `docc preview`, or serve it: it is built for static hosting).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=".build-docs"
graphs="$scratch/symbol-graphs"
archive="$scratch/LazyStackCore.doccarchive"
catalog="Sources/LazyStackCore/LazyStackCore.docc"

# docc ships with the toolchain, next to `swift`.
docc="$(command -v docc || true)"
if [[ -z "$docc" ]]; then
  swift_bin="$(command -v swift || true)"
  if [[ -z "$swift_bin" ]]; then
    echo "build-docs: neither docc nor swift is on PATH" >&2
    exit 1
  fi
  docc="$(dirname "$(readlink -f "$swift_bin")")/docc"
fi
if [[ ! -x "$docc" ]]; then
  echo "build-docs: no docc at $docc" >&2
  exit 1
fi

# 1. The symbol graph of the public API (package, internal and SPI symbols are
#    left out). An incremental build that recompiles nothing leaves the last
#    graph in place, so the directory is kept between runs; it is rebuilt
#    from scratch when the graph is missing.
mkdir -p "$graphs"
build() {
  swift build --target LazyStackCore --scratch-path "$scratch" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
}
echo "== symbol graph (swift build --target LazyStackCore)"
build
if [[ ! -f "$graphs/LazyStackCore.symbols.json" ]]; then
  rm -rf "$scratch/debug" "$scratch"/*/debug
  build
fi
if [[ ! -f "$graphs/LazyStackCore.symbols.json" ]]; then
  echo "build-docs: swift build wrote no $graphs/LazyStackCore.symbols.json" >&2
  exit 1
fi

# 2. The catalog, with every warning an error. docc's log is kept and
#    searched for warnings too, in case a diagnostic slips past the flag.
echo "== docc convert $catalog"
log="$scratch/docc.log"
rm -rf "$archive"
set +e
"$docc" convert "$catalog" \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name LazyStackCore \
  --fallback-bundle-identifier org.lazystack.LazyStackCore \
  --transform-for-static-hosting \
  --warnings-as-errors \
  --output-path "$archive" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if [[ $status -ne 0 ]]; then
  echo "build-docs: docc convert failed (exit $status); see above or $log" >&2
  exit 1
fi
if grep -qiE '(^|[^a-z])(warning|error):' "$log"; then
  echo "build-docs: docc reported warnings; see above or $log" >&2
  exit 1
fi
echo "== documentation archive: $PWD/$archive"
