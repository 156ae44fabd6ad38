#!/usr/bin/env bash
# Every rule number the code, the tests or the benchmark cite (G4, S12, H6,
# ...) must be explained in the repository's own rules,
# Sources/LazyStackCore/LazyStackCore.docc/Rules.md, under a heading of its
# own ("### S12. ...") or, for a planned rule, a bullet ("- **L1.** ...").
# Prints the rules that are missing and fails if there are any.
set -euo pipefail
cd "$(dirname "$0")/.."
rules="Sources/LazyStackCore/LazyStackCore.docc/Rules.md"
cited=$(grep -rhoE '\b[GXPRTSDBEHMLKCUF][0-9]{1,2}\b' Sources Tests Benchmarks --include='*.swift' | sort -u)
missing=""
for rule in $cited; do
  grep -qE "^### $rule\. |^- \*\*$rule\.\*\*" "$rules" || missing="$missing $rule"
done
count=$(wc -w <<<"$cited")
if [[ -n "$missing" ]]; then
  echo "rule citations: $count rules cited; not explained in $rules:$missing" >&2
  exit 1
fi
echo "rule citations: all $count rules cited in Sources, Tests and Benchmarks are in $rules"
