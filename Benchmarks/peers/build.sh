#!/usr/bin/env bash
# Transpiles the framework-agnostic cores of two peers from local checkouts
# into .build-peers/ (CommonJS, for Node), with TypeScript from Debian's
# packages (apt-get install nodejs node-typescript):
#   virtua           src/core/*.ts                     (tested: 0.50.4)
#   TanStack Virtual packages/virtual-core/src/*.ts    (tested: 3.17.8)
# Type errors (missing DOM and Node typings) do not stop the emit.
#   bash Benchmarks/peers/build.sh VIRTUA_CHECKOUT TANSTACK_CHECKOUT
set -euo pipefail
virtua="$(cd "${1:?usage: build.sh VIRTUA_CHECKOUT TANSTACK_CHECKOUT}" && pwd)"
tanstack="$(cd "${2:?usage: build.sh VIRTUA_CHECKOUT TANSTACK_CHECKOUT}" && pwd)"
cd "$(dirname "$0")/../.."
command -v node > /dev/null || { echo "peers: needs Node (apt-get install nodejs)"; exit 2; }
command -v tsc > /dev/null || { echo "peers: needs TypeScript (apt-get install node-typescript)"; exit 2; }
out=.build-peers
rm -rf "$out"
mkdir -p "$out"
flags=(--module commonjs --target es2020 --skipLibCheck --lib es2020,dom --noEmitOnError false)
sources=$(find "$virtua/src/core" -name '*.ts' ! -name '*.spec.ts' ! -name '*.test.ts')
tsc "${flags[@]}" --rootDir "$virtua/src/core" --outDir "$out/virtua" $sources > "$out/virtua.log" 2>&1 || true
tsc "${flags[@]}" --rootDir "$tanstack/packages/virtual-core/src" --outDir "$out/tanstack" \
  "$tanstack"/packages/virtual-core/src/*.ts > "$out/tanstack.log" 2>&1 || true
for f in "$out/virtua/store.js" "$out/virtua/layouts/list.js" "$out/tanstack/index.js"; do
  [ -f "$f" ] || { echo "peers: $f was not emitted (see $out/*.log)"; exit 2; }
done
version() { node -e "console.log(require('$1/package.json').version)" 2>/dev/null || echo unknown; }
echo "{\"virtua\": \"$(version "$virtua")\", \"tanstack\": \"$(version "$tanstack/packages/virtual-core")\"}" > "$out/versions.json"
echo "peers: built $out (virtua $(version "$virtua"), TanStack virtual-core $(version "$tanstack/packages/virtual-core"))"
