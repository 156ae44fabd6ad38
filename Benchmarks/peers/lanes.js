// TanStack Virtual with lanes (a masonry of `lanes` columns), driven
// headless in Node like run.js, on the operations issue #30 (SPEC §13)
// names, so its table is reproducible: n rows of 44 px estimates, a tenth
// of them measured at 20-200 px, an 844 px viewport scrolled to the middle.
//
//   bash Benchmarks/peers/build.sh VIRTUA_CHECKOUT TANSTACK_CHECKOUT
//   node Benchmarks/peers/lanes.js [--sizes 100000,1000000] [--lanes 1,4] [--samples 5]
//        [--output DIR]
//
// writes DIR/lanes.csv (default Reports/peers) and prints a table. Each
// operation is what a UI layer does for one event, read back as it renders:
//   measure_read   one row gets a new size (a real change every call), then
//                  the total size and the visible rows
//   insert_read    one row inserted at the top (stable keys, so measured
//                  sizes follow their rows), then the total size and the
//                  visible rows (removed again, untimed)
//   move_read      one row moved from a random index to another (a drag:
//                  the keys are reordered, so measured sizes follow their
//                  rows, and the app passes the new key function, as a
//                  re-render does), then the total size and the visible
//                  rows (moved back, untimed); the bench's `grid_move` and
//                  `masonry_move`
//   estimate_read  the estimate of the rows not measured set to 46 and 44 px
//                  in turn (a new estimateSize, as a re-render passes it),
//                  then the total size and the visible rows; the bench's
//                  `grid_estimate_change` and `masonry_estimate_change`
//   scroll_read    scroll by 1-40 px either way, then the visible rows
//   frame          one UI frame (the bench's `lanes_frame`, SPEC F8): scroll
//                  forward by 1-40 px, the rows that came into view measured
//                  (a card's size from its index and its lane's width, as
//                  the bench's), again while measuring brings new rows in,
//                  the offsets of the rows drawn, the total size and the rows
//                  of one viewport ahead (what a UI computes for prefetch)
// virtua has no lanes, so only TanStack is measured.
"use strict";
const path = require("path");
const fs = require("fs");
const { option, random, int, loadPeers } = require("./common.js");

const sizes = option("--sizes", "100000,1000000").split(",").map((s) => Number(s.replace(/_/g, "")));
const laneCounts = option("--lanes", "1,4").split(",").map(Number);
const samples = Number(option("--samples", "5"));
const output = option("--output", "Reports/peers");

const {
  modules: [T],
  versions,
} = loadPeers("lanes", ["tanstack/index.js"]);

const ESTIMATE = 44;
const VIEWPORT = 844;
const WIDTH = 390;

let sink = 0;

/** A Virtualizer of n rows in `lanes` lanes with a headless scroll element. */
function make(n, lanes) {
  let report = null;
  let prepended = 0;
  // The keys in row order once a row has moved (null before: row i has key i).
  let order = null;
  const options = {
    count: n,
    lanes,
    getItemKey: (i) => i - prepended,
    estimateSize: () => ESTIMATE,
    getScrollElement: () => headless,
    scrollToFn: () => {},
    observeElementRect: (_, callback) => {
      callback({ width: WIDTH, height: VIEWPORT });
      return () => {};
    },
    observeElementOffset: (_, callback) => {
      report = callback;
      callback(0, false);
      return () => {};
    },
    initialRect: { width: WIDTH, height: VIEWPORT },
    overscan: 0,
  };
  const headless = {
    get scrollHeight() { return v.getTotalSize(); },
    clientHeight: VIEWPORT,
    scrollWidth: WIDTH,
    clientWidth: WIDTH,
  };
  const v = new T.Virtualizer(options);
  v._willUpdate();
  return {
    v,
    read: () => {
      sink += v.getTotalSize();
      for (const item of v.getVirtualItems()) sink += item.start;
    },
    scroll: (y) => report(y, true),
    offset: () => v.getScrollOffset(),
    prepend: (k) => {
      prepended += k;
      v.setOptions({ ...options, count: (options.count += k) });
    },
    unprepend: (k) => {
      prepended -= k;
      v.setOptions({ ...options, count: (options.count -= k) });
    },
    estimate: (size) => {
      v.setOptions({ ...options, estimateSize: (options.estimateSize = () => size) });
    },
    move: (from, to) => {
      if (order === null) order = Array.from({ length: options.count }, (_, i) => i - prepended);
      const [key] = order.splice(from, 1);
      order.splice(to, 0, key);
      const keys = order;
      v.setOptions({ ...options, getItemKey: (options.getItemKey = (i) => keys[i]) });
    },
  };
}

/** Nanoseconds of each of `samples` single operations (reset untimed after each). */
function sample(operation, reset) {
  const values = [];
  for (let k = 0; k < samples; k++) {
    const t0 = process.hrtime.bigint();
    operation();
    values.push(Number(process.hrtime.bigint() - t0));
    if (reset) reset();
  }
  return values;
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const rows = [];
console.log(`lanes: TanStack virtual-core ${versions.tanstack}, Node ${process.version}, ${samples} samples each`);
for (const n of sizes) {
  for (const lanes of laneCounts) {
    const next = random(30);
    const list = make(n, lanes);
    const setup = process.hrtime.bigint();
    const measured = [];
    for (let i = 0; i < n; i += 10) {
      list.v.resizeItem(i, int(next, 20, 200));
      measured.push(i);
    }
    list.read();
    list.scroll(Math.max(0, list.v.getTotalSize() / 2 - VIEWPORT / 2));
    list.read();
    const setupMs = Number(process.hrtime.bigint() - setup) / 1e6;
    // measure_read: a measured row a call, its size changing every time.
    let cycle = 0;
    const measure = sample(() => {
      const i = measured[int(next, 0, measured.length - 1)];
      list.v.resizeItem(i, 20 + ((cycle++ * 37) % 181) + 0.5);
      list.read();
    });
    const before = list.v.getTotalSize();
    // The undo is read back too: TanStack memoizes its layout on the
    // options, and an insert that brings back the count of the last read
    // would get that read's layout for free (a memo hit, not an insert).
    const insert = sample(() => {
      list.prepend(1);
      list.read();
    }, () => {
      list.unprepend(1);
      list.read();
    });
    if (list.v.getTotalSize() !== before) throw new Error("insert_read: the undo did not restore the list");
    // move_read: as the bench's, from a random index to another (the
    // index it lands at, so the undo moves it back from there).
    let move = [0, 0];
    const moved = sample(() => {
      const from = int(next, 0, n - 1);
      let to = from;
      while (to === from) to = int(next, 0, n - 1);
      move = [from, to];
      list.move(from, to);
      list.read();
    }, () => {
      list.move(move[1], move[0]);
      list.read();
    });
    if (list.v.getTotalSize() !== before) throw new Error("move_read: the undo did not restore the list");
    let flip = false;
    const estimate = sample(() => {
      flip = !flip;
      const size = list.v.getTotalSize();
      list.estimate(flip ? ESTIMATE + 2 : ESTIMATE);
      list.read();
      if (list.v.getTotalSize() === size) throw new Error("estimate_read: the estimate moved no row");
    });
    if (flip) {
      list.estimate(ESTIMATE);
      list.read();
    }
    if (list.v.getTotalSize() !== before) throw new Error("estimate_read: the estimate back did not restore the list");
    let direction = 1;
    const scroll = sample(() => {
      direction = -direction;
      list.scroll(Math.max(0, list.offset() + direction * int(next, 1, 40)));
      for (const item of list.v.getVirtualItems()) sink += item.start;
    });
    const laneWidth = WIDTH / lanes;
    const size = (row) => 20 + ((row * 40503) % 180) + (400 - Math.min(laneWidth, 400)) / 4;
    const seen = new Set();
    for (const item of list.v.getVirtualItems()) seen.add(item.index);
    const frame = sample(() => {
      list.scroll(list.offset() + int(next, 1, 40));
      for (let pass = 0; pass < 8; pass++) {
        let measuredAny = false;
        for (const item of list.v.getVirtualItems()) {
          if (seen.has(item.index)) continue;
          seen.add(item.index);
          list.v.resizeItem(item.index, size(item.index));
          measuredAny = true;
        }
        if (!measuredAny) break;
      }
      list.read();
      const ahead = list.offset() + VIEWPORT;
      sink += (list.v.getVirtualItemForOffset(ahead) ? 1 : 0) + (list.v.getVirtualItemForOffset(ahead + VIEWPORT) ? 1 : 0);
    });
    for (const [scenario, values] of [["measure_read", measure], ["insert_read", insert], ["move_read", moved], ["estimate_read", estimate],
      ["scroll_read", scroll],
      ["frame", frame]]) {
      rows.push({ scenario, n, lanes, median: median(values), samples: values.length });
    }
    console.log(`  n=${n} lanes=${lanes}: set up in ${setupMs.toFixed(0)} ms`);
  }
}

function format(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(1)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${ns.toFixed(0)} ns`;
}
console.log(`\n${"scenario".padEnd(14)} ${"n".padEnd(9)} ${"lanes".padStart(5)} ${"median".padStart(10)}`);
for (const row of rows) {
  console.log(`${row.scenario.padEnd(14)} ${String(row.n).padEnd(9)} ${String(row.lanes).padStart(5)} ${format(row.median).padStart(10)}`);
}
fs.mkdirSync(output, { recursive: true });
const csv = ["peer,version,scenario,n,lanes,median_ns,samples"]
  .concat(rows.map((r) => `tanstack,${versions.tanstack},${r.scenario},${r.n},${r.lanes},${r.median.toFixed(0)},${r.samples}`));
fs.writeFileSync(path.join(output, "lanes.csv"), csv.join("\n") + "\n");
console.log(`\nwrote ${path.join(output, "lanes.csv")} (sink ${sink > 0 ? "live" : "zero"})`);
