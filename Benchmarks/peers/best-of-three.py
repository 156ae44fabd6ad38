#!/usr/bin/env python3
"""The README's peers table from alternating runs: the best (lowest) median
of each scenario over the runs given, for our core and for each peer.

    python3 Benchmarks/peers/best-of-three.py CORE1.csv PEERS1.csv CORE2.csv PEERS2.csv ...

CORE*.csv are `bench --variant core --sizes 1000000` results.csv files;
PEERS*.csv are `node --expose-gc Benchmarks/peers/run.js --sizes 1000000`
peers.csv files (same columns). Prints the markdown table, each row
followed by our core's figure in every run.
"""
import csv
import sys

SIZE = "1000000"
# (scenario, target) in the order of issue #20's table.
ROWS = [
    ("build", "≤ 1.5 ms"),
    ("offset_to_index", "≤ 100 ns"),
    ("index_to_offset", "≤ 29 ns"),
    ("measure", "≤ 150 ns"),
    ("measure_read", "≤ 200 ns"),
    ("index_to_offset_after_measure", "≤ 200 ns"),
    ("scroll", "≤ 150 ns"),
    ("prepend_read", "≤ 5 µs"),
    ("memory", "≤ 20 B/row"),
    ("memory_ordered", "≤ 12 B/row"),
]


def fmt(value, unit):
    if unit == "B/row":
        return f"{value:.1f} B/row"
    for scale, name in ((1e6, "ms"), (1e3, "µs")):
        if value >= scale:
            return f"{value / scale:.2f} {name}"
    return f"{value:.0f} ns"


def main(paths):
    runs = {}  # (scenario, variant) -> [median per run]
    units = {}
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f):
                if row["size"] != SIZE:
                    continue
                key = (row["scenario"], row["variant"])
                runs.setdefault(key, []).append(float(row["median"]))
                units[row["scenario"]] = row["unit"]
    print("| at 1e6 | virtua | TanStack | us | best peer / us | target |")
    print("|---|---|---|---|---|---|")
    for scenario, target in ROWS:
        unit = units.get(scenario, "ns")
        best = {v: min(runs[(scenario, v)]) for v in ("virtua", "tanstack", "core") if (scenario, v) in runs}
        cells = [fmt(best[v], unit) if v in best else "" for v in ("virtua", "tanstack", "core")]
        peers = [best[v] for v in ("virtua", "tanstack") if v in best]
        verdict = ""
        if peers and "core" in best:
            ratio = min(peers) / best["core"]
            verdict = f"{ratio:.1f}× ahead" if ratio >= 1 else f"**{1 / ratio:.1f}× behind**"
        print(f"| {scenario} | {cells[0]} | {cells[1]} | {cells[2]} | {verdict} | {target} |")
        if (scenario, "core") in runs:
            print("   runs: core " + " / ".join(fmt(v, unit) for v in runs[(scenario, "core")]))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
