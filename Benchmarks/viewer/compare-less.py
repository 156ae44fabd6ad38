#!/usr/bin/env python3
"""lazystack-view vs less on one big log, side by side, in tmux.

Starts each program in a tmux window of 100x30, sends keys as a person
would, and times each step until the screen shows what the step asks for
(polling the pane every 5 ms); then reads the program's resident memory.
Writes a Markdown table to stdout.

    python3 Benchmarks/viewer/compare-less.py big.log [--viewer PATH] [--runs N]

Needs tmux and less (Debian packages). The file should be in the page cache
(run `cat big.log > /dev/null` first) so both read it from memory.
"""
import argparse, subprocess, time

def tmux(*args):
    return subprocess.run(["tmux", *args], capture_output=True, text=True).stdout

def screen():
    return tmux("capture-pane", "-t", "cmp", "-p")

def wait(predicate, timeout=300):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if predicate(screen()):
            return time.monotonic() - start
        time.sleep(0.005)
    raise SystemExit(f"timed out waiting; screen:\n{screen()}")

def rss_mb(command_word):
    pid = tmux("display-message", "-p", "-t", "cmp", "#{pane_pid}").strip()
    out = subprocess.run(["ps", "-o", "rss=,comm=", "--ppid", pid, "-p", pid], capture_output=True, text=True).stdout
    for line in out.splitlines():
        kb, comm = line.split(None, 1)
        if command_word in comm:
            return int(kb) / 1024
    return float("nan")

def run(name, command, steps, word):
    tmux("kill-session", "-t", "cmp")
    t0 = time.monotonic()
    tmux("new-session", "-d", "-s", "cmp", "-x", "100", "-y", "30", command)
    first = wait(lambda s: "#1 " in s) + (time.monotonic() - t0 - 0)  # includes tmux start
    first = time.monotonic() - t0
    times = {"first frame": first}
    for label, keys, predicate in steps:
        for k in keys:
            tmux("send-keys", "-t", "cmp", *k)
        times[label] = wait(predicate)
    times["resident"] = rss_mb(word)
    tmux("send-keys", "-t", "cmp", "q")
    time.sleep(0.3)
    tmux("kill-session", "-t", "cmp")
    return times

def top_line_has(text):
    return lambda s: text in s.splitlines()[0]

def any_line_has(text):
    return lambda s: text in s

parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("--viewer", default=".build/release/lazystack-view")
parser.add_argument("--runs", type=int, default=3)
a = parser.parse_args()
lines = int(subprocess.run(["wc", "-l", a.file], capture_output=True, text=True).stdout.split()[0])
middle, last = lines // 2, lines
viewer_steps = [
    (f":{middle}", [[":"], [str(middle), "Enter"]], top_line_has(f"#{middle} ")),
    ("G (end)", [["G"]], lambda s: f"#{last} " in s and "(END)" in s),
]
less_steps = [
    (f":{middle}", [[f"{middle}G"]], any_line_has(f"#{middle} ")),
    ("G (end)", [["G"]], lambda s: f"#{last} " in s),
]
results = {"lazystack-view": [], "less -n": []}
for _ in range(a.runs):  # alternate, so both see the same machine
    results["lazystack-view"].append(run("lazystack-view", f"{a.viewer} {a.file}", viewer_steps, "lazystack"))
    results["less -n"].append(run("less", f"less -n {a.file}", less_steps, "less"))
keys = ["first frame", f":{middle}", "G (end)", "resident"]
print(f"| {a.file}: {lines:,} lines | " + " | ".join(k if k != f':{middle}' else f':{middle} (less: {middle}G)' for k in keys) + " |")
print("|---|" + "---|" * len(keys))
for name, runs in results.items():
    cells = []
    for k in keys:
        values = sorted(r[k] for r in runs)
        best = values[0] if k != "resident" else values[-1]
        cells.append(f"{best:.0f} MB" if k == "resident" else f"{best:.2f} s")
    print(f"| `{name}` | " + " | ".join(cells) + " |")
print(f"\n(best of {a.runs} alternating runs for times, largest resident size; 100x30 tmux pane)")
