#!/usr/bin/env bash
# Builds Tests/Dependent (a package that depends on LazyStackCore by path) in
# debug, as an app's debug build would, and runs it: it fails if
# LazyStackCore's internal checks run in that build (README, "Tests").
#   bash Tests/Dependent/check.sh
set -euo pipefail
cd "$(dirname "$0")"
scratch="${TMPDIR:-/tmp}/lazystack-dependent-build"
swift build -c debug --scratch-path "$scratch" 2>&1 | grep -v "ld.gold: warning" | tail -3
"$scratch/debug/lazystack-dependent"
