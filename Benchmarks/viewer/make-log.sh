#!/usr/bin/env bash
# Writes a timestamped log of LINES records (default 8,000,000, about 1.35 GB)
# to FILE, one record per line, with awk: the file `lazystack-view` and `less`
# are compared on in Documentation/lazystack-view.md ("Against less").
#   bash Benchmarks/viewer/make-log.sh [LINES] [FILE]
set -euo pipefail
lines="${1:-8000000}"
file="${2:-big.log}"
awk -v n="$lines" 'BEGIN {
  srand(42)
  split("INFO INFO INFO DEBUG WARN ERROR", level, " ")
  split("request handled cache miss user session payload retry shard latency queue flushed token refresh upstream timeout index rebuilt", word, " ")
  for (i = 1; i <= n; i++) {
    s = int(i / 7)
    line = sprintf("2026-11-22T%02d:%02d:%02d.%03dZ %-5s [worker-%d] #%d", int(s / 3600) % 24, int(s / 60) % 60, s % 60,
                   (i % 7) * 142 + int(rand() * 100), level[1 + int(rand() * 6)], int(rand() * 16), i)
    k = rand() < 0.02 ? 60 + int(rand() * 200) : 8 + int(rand() * 24)   # now and then a long record
    for (j = 0; j < k; j++) line = line " " word[1 + int(rand() * 18)]
    print line
  }
}' > "$file"
ls -l "$file"
