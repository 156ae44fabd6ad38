// The peers' side of the README's comparison table: drives the
// framework-agnostic cores of virtua and TanStack Virtual (transpiled by
// build.sh into .build-peers/) headless in Node, through the scenarios of
// `swift run -c release bench` that the table names, with the same setup
// (44 px estimated rows, an 844 px viewport, 50 random rows measured at
// 20-200 px, scrolled to the middle) and the same CSV columns, so the table
// is reproducible:
//
//   bash Benchmarks/peers/build.sh VIRTUA_CHECKOUT TANSTACK_CHECKOUT
//   node --expose-gc Benchmarks/peers/run.js [--sizes 1000,1000000] [--quick] [--filter NAME]...
//        [--output DIR] [--core Reports/results.csv]
//
// writes DIR/peers.csv (default Reports/peers) and prints a table; with
// --core, our core's medians from a bench results.csv beside them.
//
// What each scenario times, per peer (one call of the public or internal
// API a UI layer makes; virtua's store is its own adapters' model):
//   build             create the list + viewport + offsets of the visible rows
//   offset_to_index   the row at a random offset
//   index_to_offset   the offset of a random row
//   measure           one row above the viewport gets a new size (a real
//                     change every call: +1/4 or +3/4 px alternately)
//   measure_read      measure, then the total size and the visible range
//   index_to_offset_after_measure   measure, then the offset of a random row
//   scroll            scroll by 1-40 px either way + the visible range
//   frame             one UI frame: scroll forward 1-40 px, the rows that came
//                     into view measured, the offsets of the rows drawn, the
//                     total size, the rows a viewport ahead (prefetch)
//   frame_up          frame, scrolling back (a chat read upward)
//   prepend_read      100 rows inserted at the top, the view kept, + the total
//                     size and the visible range (undone, untimed, after each)
//   memory            heap bytes per row of a list of n rows (after a gc)
"use strict";
const path = require("path");
const fs = require("fs");
const { option, random, int, loadPeers } = require("./common.js");

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const sizes = option("--sizes", "1000,1000000").split(",").map((s) => Number(s.replace(/_/g, "")));
const output = option("--output", "Reports/peers");
const corePath = option("--core", null);
if (typeof global.gc !== "function") {
  console.error("peers: run with node --expose-gc (the memory scenario needs it)");
  process.exit(2);
}

// virtua asks the navigator whether it runs in iOS WebKit (which defers
// scroll corrections): a desktop browser's answer, as Node 20 has none.
if (typeof globalThis.navigator === "undefined") {
  globalThis.navigator = { userAgent: "Node", platform: "Linux x86_64", maxTouchPoints: 0 };
}

const {
  modules: [V, L, T],
  versions,
} = loadPeers("peers", ["virtua/store.js", "virtua/layouts/list.js", "tanstack/index.js"]);

const ESTIMATE = 44;
const VIEWPORT = 844;
const MEASURED = 50;


let sink = 0; // keeps results alive

/** virtua's store and list layout, driven as its adapters drive them. */
function virtua(n) {
  const store = V.createVirtualStore(L.createListLayout(n, ESTIMATE));
  store.$update(V.ACTION_VIEWPORT_RESIZE, VIEWPORT);
  let length = n;
  return {
    measure: (i, size) => store.$update(V.ACTION_ITEM_RESIZE, [[i, size]]),
    total: () => store.$getTotalSize(),
    range: () => store.$getRange(),
    offsetOf: (i) => store.$getItemOffset(i),
    indexAt: (y) => store.$findItemIndex(y),
    scroll: (y) => store.$update(V.ACTION_SCROLL, y),
    prepend: (k) => store.$update(V.ACTION_ITEMS_LENGTH_CHANGE, [(length += k), true]),
    unprepend: (k) => store.$update(V.ACTION_ITEMS_LENGTH_CHANGE, [(length -= k), true]),
    frames: () => {
      const [first, last] = store.$getRange();
      for (let i = first; i <= last; i++) sink += store.$getItemOffset(i);
    },
  };
}

/** TanStack Virtual's Virtualizer with a headless scroll element. */
function tanstack(n) {
  let report = null;
  // Stable keys (a row's id), as a list that prepends must give so that
  // measured sizes follow their rows: the rows prepended so far have
  // negative ids.
  let prepended = 0;
  const options = {
    count: n,
    getItemKey: (i) => i - prepended,
    estimateSize: () => ESTIMATE,
    getScrollElement: () => headless,
    scrollToFn: () => {},
    observeElementRect: (_, callback) => {
      callback({ width: 390, height: VIEWPORT });
      return () => {};
    },
    observeElementOffset: (_, callback) => {
      report = callback;
      callback(0, false);
      return () => {};
    },
    initialRect: { width: 390, height: VIEWPORT },
    overscan: 0,
  };
  // An element as the Virtualizer reads one: its scroll size is the list's.
  const headless = {
    get scrollHeight() { return v.getTotalSize(); },
    clientHeight: VIEWPORT,
    scrollWidth: 390,
    clientWidth: 390,
  };
  const v = new T.Virtualizer(options);
  v._willUpdate();
  return {
    measure: (i, size) => v.resizeItem(i, size),
    total: () => v.getTotalSize(),
    range: () => {
      const items = v.getVirtualItems();
      return items.length ? [items[0].index, items[items.length - 1].index] : [0, -1];
    },
    offsetOf: (i) => v.getOffsetForIndex(i, "start"),
    indexAt: (y) => v.getVirtualItemForOffset(y),
    scroll: (y) => report(y, true),
    prepend: (k) => {
      prepended += k;
      v.setOptions({ ...options, count: (options.count += k) });
    },
    unprepend: (k) => {
      prepended -= k;
      v.setOptions({ ...options, count: (options.count -= k) });
    },
    frames: () => {
      for (const item of v.getVirtualItems()) sink += item.start;
    },
  };
}

const peers = { virtua, tanstack };

/** A list of n rows set up like the bench's: 50 rows measured, scrolled to the middle. */
function prepared(make, n, next) {
  const list = make(n);
  for (let k = 0; k < Math.min(MEASURED, n); k++) list.measure(int(next, 0, n - 1), int(next, 20, 200));
  list.scroll(Math.max(0, list.total() / 2 - VIEWPORT / 2));
  list.range();
  return list;
}

/** Per-operation nanoseconds of `samples` batches (one operation a batch when there is a reset). */
function sample(operation, reset) {
  const samples = quick ? 11 : 31;
  const budget = (quick ? 1.5 : 5) * 1e9;
  let batch = 1;
  if (!reset) {
    for (;;) {
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < batch; k++) operation();
      const elapsed = Number(process.hrtime.bigint() - t0);
      if (elapsed >= 1e6 || batch >= 1 << 22) break;
      batch = elapsed === 0 ? batch * 16 : Math.max(batch * 2, Math.ceil((batch * 1e6) / elapsed));
    }
  } else {
    operation();
    reset();
  }
  const values = [];
  const deadline = Number(process.hrtime.bigint()) + budget;
  while (values.length < samples && (values.length < 5 || Number(process.hrtime.bigint()) < deadline)) {
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < batch; k++) operation();
    values.push(Number(process.hrtime.bigint() - t0) / batch);
    if (reset) reset();
  }
  return values;
}

/** Real measurements of distinct rows above the viewport, cycling. */
function measurements(list, n, next) {
  const first = list.range()[0];
  if (!Number.isInteger(first)) throw new Error(`range() gave no first row: ${first}`);
  const top = Math.max(1, first);
  const rows = Array.from({ length: Math.min(4096, top) }, () => int(next, 0, top - 1));
  const unique = [...new Set(rows)];
  const sizes = unique.map(() => int(next, 20, 200));
  let k = -1;
  let cycle = 0;
  return () => {
    if (++k === unique.length) {
      k = 0;
      cycle++;
    }
    list.measure(unique[k], sizes[k] + (cycle & 1 ? 0.75 : 0.25));
  };
}

/**
 * Checks, untimed, that `measure` changes the list every call (its total
 * size moves), so no scenario times a no-op (the bench's rule).
 */
function checkChanges(peer, list, measure) {
  for (let k = 0; k < 3; k++) {
    const before = list.total();
    measure();
    if (list.total() === before) throw new Error(`${peer}: a measurement changed nothing: the scenario would time a no-op`);
  }
}

function run(peer, scenario, n) {
  const next = random(n * 31 + scenario.length);
  const make = peers[peer];
  if (scenario === "build") {
    let list = null;
    return sample(() => {
      list = make(n);
      list.frames();
    }, () => (list = null));
  }
  if (scenario === "memory") {
    global.gc();
    const before = process.memoryUsage().heapUsed;
    const list = prepared(make, n, next);
    list.offsetOf(n - 1);
    global.gc();
    const bytes = process.memoryUsage().heapUsed - before;
    sink += list.total();
    return [bytes / n];
  }
  const list = prepared(make, n, next);
  const table = (f) => Array.from({ length: 4096 }, f);
  let i = 0;
  const step = () => (i = (i + 1) & 4095);
  switch (scenario) {
    case "offset_to_index": {
      const total = list.total();
      const offsets = table(() => next() * total);
      return sample(() => (sink += list.indexAt(offsets[step()]) ? 1 : 0));
    }
    case "index_to_offset": {
      const rows = table(() => int(next, 0, n - 1));
      return sample(() => (sink += list.offsetOf(rows[step()]) ? 1 : 0));
    }
    case "measure": {
      const measure = measurements(list, n, next);
      checkChanges(peer, list, measure);
      return sample(measure);
    }
    case "measure_read": {
      const measure = measurements(list, n, next);
      checkChanges(peer, list, measure);
      return sample(() => {
        measure();
        sink += list.total() + list.range().length;
      });
    }
    case "index_to_offset_after_measure": {
      const measure = measurements(list, n, next);
      checkChanges(peer, list, measure);
      const rows = table(() => int(next, 0, n - 1));
      return sample(() => {
        measure();
        sink += list.offsetOf(rows[step()]) ? 1 : 0;
      });
    }
    case "scroll": {
      const deltas = table(() => int(next, 1, 40) * (next() < 0.5 ? -1 : 1));
      const max = Math.max(0, list.total() - VIEWPORT);
      let y = Math.max(0, list.total() / 2 - VIEWPORT / 2);
      return sample(() => {
        y += deltas[step()];
        if (y < 0 || y > max) y = max / 2;
        list.scroll(y);
        sink += list.range().length;
      });
    }
    case "frame":
    case "frame_up": {
      // One UI frame as a UI pays it (the bench's `frame`, F8): a scroll
      // by 1-40 px (forward; `frame_up`: back, a chat read upward), the
      // range, the rows that came into view measured (the UI keeps which
      // it measured; a row's size from its index, as the bench's: 20-199
      // px plus 2.5 for the 390 px width), again while measuring brings new
      // rows into view, the offsets of the rows drawn, and what the bench's
      // frame reads besides, as a UI computes it from these cores: the
      // total size (the scroll content's, for the scroll bar and the end),
      // the rows of one viewport ahead (prefetch). Past the end it starts
      // again from the other end with nothing measured by the frame (the
      // bench invalidates its rows).
      const up = scenario === "frame_up";
      const deltas = table(() => int(next, 1, 40) * (up ? -1 : 1));
      const size = (row) => 20 + ((row * 40503) % 180) + 2.5;
      let seen = new Set();
      let y = Math.max(0, list.total() / 2 - VIEWPORT / 2);
      return sample(() => {
        y += deltas[step()];
        if (y < 0 || y > list.total() - VIEWPORT) {
          y = up ? list.total() - VIEWPORT : 0;
          seen = new Set();
        }
        list.scroll(y);
        for (let pass = 0; pass < 8; pass++) {
          const [first, last] = list.range();
          let measured = false;
          for (let row = first; row <= last; row++) {
            if (seen.has(row)) continue;
            seen.add(row);
            list.measure(row, size(row));
            measured = true;
          }
          if (!measured) break;
        }
        list.frames();
        const total = list.total();
        const ahead = up ? Math.max(0, y - VIEWPORT) : y + VIEWPORT;
        sink += total + (list.indexAt(ahead) ? 1 : 0) + (list.indexAt(Math.min(total, ahead + VIEWPORT)) ? 1 : 0);
      });
    }
    case "prepend_read": {
      const total = list.total();
      list.prepend(100);
      if (list.total() === total) throw new Error(`${peer}: prepending changed nothing`);
      list.unprepend(100);
      // The undo is read back too: TanStack memoizes its layout on the
      // options, and a prepend that brings back the count of the last read
      // would get that read's layout for free (a memo hit, not a prepend).
      return sample(() => {
        list.prepend(100);
        sink += list.total() + list.range().length;
      }, () => {
        list.unprepend(100);
        sink += list.total() + list.range().length;
      });
    }
    default:
      throw new Error(`unknown scenario ${scenario}`);
  }
}

const filters = args.flatMap((a, i) => (a === "--filter" && i + 1 < args.length ? [args[i + 1]] : []));
const scenarios = ["build", "offset_to_index", "index_to_offset", "measure", "measure_read",
  "index_to_offset_after_measure", "scroll", "frame", "frame_up", "prepend_read", "memory"]
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)));
if (scenarios.length === 0) {
  console.error(`peers: no scenario matches ${filters.join(", ")}`);
  process.exit(2);
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { min: sorted[0], median: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1], samples: sorted.length };
}

const format = (value, unit) => {
  if (unit === "B/row") return `${value.toFixed(1)} B`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)} ms`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(2)} µs`;
  return `${Math.round(value)} ns`;
};

const core = new Map();
if (corePath) {
  for (const line of fs.readFileSync(corePath, "utf8").trim().split("\n").slice(1)) {
    const [scenario, variant, size, , , , median] = line.split(",");
    if (variant === "core") core.set(`${scenario},${size}`, Number(median));
  }
}

console.log(`peers: virtua ${versions.virtua}, TanStack virtual-core ${versions.tanstack}, Node ${process.version}${quick ? ", quick" : ""}`);
let csv = "scenario,variant,size,unit,samples,min,median,p90,max\n";
const rows = [];
for (const scenario of scenarios) {
  for (const n of sizes) {
    const row = { scenario, n, unit: scenario === "memory" ? "B/row" : "ns" };
    for (const peer of Object.keys(peers)) {
      const s = stats(run(peer, scenario, n));
      row[peer] = s.median;
      csv += `${scenario},${peer},${n},${row.unit},${s.samples},${s.min},${s.median},${s.p90},${s.max}\n`;
      process.stdout.write(`  ${scenario.padEnd(30)} n=${String(n).padEnd(9)} ${peer.padEnd(9)} median ${format(s.median, row.unit)}\n`);
    }
    rows.push(row);
  }
}
fs.mkdirSync(output, { recursive: true });
fs.writeFileSync(path.join(output, "peers.csv"), csv);

console.log(`\n${"scenario".padEnd(30)} ${"n".padEnd(9)} ${"virtua".padStart(10)} ${"tanstack".padStart(10)}${corePath ? `${"core".padStart(10)}  best peer / core` : ""}`);
for (const row of rows) {
  let line = `${row.scenario.padEnd(30)} ${String(row.n).padEnd(9)} ${format(row.virtua, row.unit).padStart(10)} ${format(row.tanstack, row.unit).padStart(10)}`;
  const ours = core.get(`${row.scenario},${row.n}`);
  if (ours !== undefined) {
    const best = Math.min(row.virtua, row.tanstack);
    line += `${format(ours, row.unit).padStart(10)}  ${(best / ours).toFixed(2)}x`;
  }
  console.log(line);
}
console.log(`\nwrote ${path.join(output, "peers.csv")} (sink ${sink > 0 ? "live" : "zero"})`);
