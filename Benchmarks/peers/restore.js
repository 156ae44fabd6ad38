// How far virtua and TanStack Virtual land from a saved reading place when a
// list is restored from its saved state ("after relaunch"), right after the
// restore and after the rows around the place get measured, with the data
// unchanged and with K new rows arrived at the top since the save (a chat or
// feed reopened: Virtuoso #951/#1114, TanStack #378/#997, virtua #627).
// Drives the peers' framework-agnostic cores (transpiled by build.sh into
// .build-peers/) headless in Node, the way their React adapters drive them,
// inside a small deterministic fake browser: a scroll container whose
// scrollTop is clamped to its content and fires one scroll event a frame, a
// ResizeObserver that reports each observed element's true size on first
// observation, fake timers and requestAnimationFrame on a 16 ms frame clock.
//
//   bash Benchmarks/peers/build.sh VIRTUA_CHECKOUT TANSTACK_CHECKOUT
//   node Benchmarks/peers/restore.js [--rows 100000[,1000000]] [--prepend 0,50]
//                                    [--output DIR]
//
// writes DIR/restore.csv (default Reports/peers; a line per peer, row count
// and prepended count K; --prepend defaults to 0,50: both) and prints a table.
//
// The experiment (seeded, so every peer gets the same inputs):
//   rows: N (--rows), estimated size 44 px, viewport 844 px; a row's true
//   size is a seeded function of its item's id, 20..200 px (in session 1,
//   row i is item i).
//   Session 1: mount the list at the top, measure a seeded random 10 % of
//   the rows with their true sizes (as if the user had scrolled through them
//   earlier: reported in index order through the same call the adapters'
//   ResizeObserver callback makes), then scroll natively (scrollTop = the
//   offset of row N/2) and let the UI settle: every rendered row (visible +
//   the library's default overscan: virtua bufferSize 200 px, TanStack
//   overscan 1) is observed and measured, the library's scroll corrections
//   are written to scrollTop, until nothing changes and the timers have run.
//   The reading place is then the first visible row and the distance from
//   its start to the viewport top; the state saved is what the docs say to
//   save, round-tripped through JSON (as sessionStorage would):
//     virtua    [handle.scrollOffset, handle.cache] = [store.$getScrollOffset(),
//               layout.$snapshot()] (the VList story "ScrollRestoration");
//               0.50.4's store has no getCache()/$getCacheSnapshot: the
//               snapshot ([sizes by index, default size]) is the list
//               layout's, which the handle's `cache` getter returns
//     tanstack  { snapshot: virtualizer.takeSnapshot(), offset:
//               virtualizer.scrollOffset } (3.17.8's docs for
//               initialMeasurementsCache: only the measured rows), sizes
//               keyed by the default getItemKey (the index)
//     tanstack-stableKey   the same with getItemKey: i => itemId(i), an id
//               that stays with the item across sessions
//     tanstack-measurementsCache   { virtualizer.measurementsCache, offset }:
//               the whole measurements array (every row, estimated ones
//               included), the older way to feed initialMeasurementsCache
//     tanstack-measurementsCache-live   the same, handed to the new list in
//               memory without the JSON round-trip (kept in a ref or a
//               store across a route change): in 3.17.8 measurementsCache is
//               a lazy Proxy over a sparse array, and initialMeasurementsCache
//               is read with forEach, which skips the rows never read by index
//   Session 2 ("after relaunch"), a fresh fake browser and list of N + K
//   rows (--prepend K): K new items on top (ids N..N+K-1, each with its own
//   true size, a seeded function of its id; none of them in the saved
//   state), then the N old ones (ids 0..N-1, as in session 1, same sizes),
//   so the saved row is now at index saved + K. K = 0 is the unchanged case.
//   Each peer restores as its docs say, also when K > 0 (an app does not
//   know where its row went):
//     virtua    createListLayout(N + K, 44, cache) + createVirtualStore +
//               createContainerDriver, mounted as its Virtualizer does, then
//               scrollTo(driver, offset) (the handle's scrollTo) in a layout
//               effect after mount, as the story does. Its docs say the
//               item count must be the same as at the snapshot; with another
//               count 0.50.4 neither throws nor ignores the cache: it keeps
//               the sizes by index, cut to or padded (unmeasured) at the end
//               to the new count (#441), so with K > 0 every row gets the
//               size of the row K above it; nothing is worked around
//     tanstack  new Virtualizer({ count: N + K, ..., initialMeasurementsCache,
//               initialOffset }) with initialOffset = the saved offset (as the
//               docs' examples do) and getItemKey as in session 1 (the
//               index, or the stable item id: then the old rows get their
//               own sizes back and only the K new rows are estimated), with
//               the React adapter's defaults (observeElementRect,
//               observeElementOffset, elementScroll), rows rendered with
//               ref = measureElement, _didMount/_willUpdate in layout effects
//   and the UI settles as above ("after restore"). Then every row within
//   +-300 rows of the saved row (at its session-2 index) is measured with
//   its true size, in the order a user scrolling up then down would reveal
//   them: saved-1, saved-2, ...,
//   saved-300, then saved+1, ..., saved+300, one row at a time through the
//   call the ResizeObserver callback makes (virtua: ACTION_ITEM_RESIZE;
//   TanStack: resizeItem), each followed by frames until the scroll
//   corrections have been written and their scroll events delivered; the
//   viewport itself is not scrolled by the user ("after measuring").
//   Error: (the saved row's start - the viewport top) now, minus the same
//   when saved, in px, from the positions the library renders the row at and
//   the container's real scrollTop: 0 = exact, > 0 = the row is lower on the
//   screen than when saved; the table marks it "off screen" when no part of
//   the row is in the viewport. The CSV's saved_row is the session-1 index
//   (session 2's is saved_row + prepended). The table also gives how many
//   rows' sizes the saved state holds (TanStack records no size for a row
//   measured at exactly its estimate) and whether a restore needs the same
//   row count.
"use strict";
const path = require("path");
const fs = require("fs");
const { option, random, int, loadPeers } = require("./common.js");

const sizes = option("--rows", "100000").split(",").map((s) => Number(s.replace(/_/g, "")));
const output = option("--output", "Reports/peers");
const prepends = option("--prepend", "0,50").split(",").map((s) => Number(s.replace(/_/g, "")));
if (sizes.some((n) => !Number.isInteger(n) || n < 1000)) {
  console.error("restore: --rows takes integers >= 1000 (comma-separated)");
  process.exit(2);
}
if (prepends.some((k) => !Number.isInteger(k) || k < 0)) {
  console.error("restore: --prepend takes integers >= 0 (comma-separated)");
  process.exit(2);
}

// virtua asks the navigator whether it runs in iOS WebKit (which defers
// scroll corrections): a desktop browser's answer, as Node 20 has none.
if (typeof globalThis.navigator === "undefined") {
  globalThis.navigator = { userAgent: "Node", platform: "Linux x86_64", maxTouchPoints: 0 };
}

// A fake clock. virtua's timers are the global setTimeout/clearTimeout (its
// utils capture setTimeout when loaded), so they are replaced before it is
// required; TanStack's go through the fake window below. Nothing here needs
// real timers (setImmediate, untouched, lets promise jobs run).
const FRAME_MS = 16;
const clock = { now: 0, next: 1, timers: new Map() };
function fakeSetTimeout(fn, ms, ...rest) {
  const id = clock.next++;
  clock.timers.set(id, { at: clock.now + Math.max(0, Number(ms) || 0), fn, rest });
  return id;
}
function fakeClearTimeout(id) {
  clock.timers.delete(id);
}
globalThis.setTimeout = fakeSetTimeout;
globalThis.clearTimeout = fakeClearTimeout;
function runDueTimers() {
  for (;;) {
    let due = null;
    for (const [id, t] of clock.timers) {
      if (t.at <= clock.now && (due === null || t.at < due[1].at)) due = [id, t];
    }
    if (due === null) return;
    clock.timers.delete(due[0]);
    due[1].fn(...due[1].rest);
  }
}

const {
  modules: [V, L, D, S, T],
  versions,
} = loadPeers("restore", ["virtua/store.js", "virtua/layouts/list.js", "virtua/driver.js", "virtua/scroll-to.js", "tanstack/index.js"]);

const ESTIMATE = 44;
const VIEWPORT = 844;
const WIDTH = 390;
const MEASURED_FRACTION = 0.1;
const AROUND = 300;
const SEED = 20240601;

/** Row i's true size: 20..200 px, a seeded function of i. */
const trueSize = (i) => 20 + Math.floor(random((Math.imul(i, 0x9e3779b1) ^ SEED) >>> 0)() * 181);

/**
 * A session's list: its row count and each row's item id. Session 1's ids
 * are its indices; in session 2, K new items (ids n..n+K-1) sit on top of
 * the n old ones, so old row i is at index i + K. A row's true size is a
 * function of its item's id: the same item has the same size in both.
 */
const firstList = (n) => ({ count: n, prepended: 0, idOf: (i) => i });
const secondList = (n, k) => ({ count: n + k, prepended: k, idOf: (i) => (i < k ? n + i : i - k) });
const sizeAt = (list, i) => trueSize(list.idOf(i));

/** The seeded 10 % of the rows measured earlier, in index order. */
function earlierRows(n) {
  const next = random(SEED ^ n);
  const k = Math.floor(n * MEASURED_FRACTION);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(next() * (n - i));
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return order.slice(0, k).sort();
}

/** A fake browser: a scroll container, items, ResizeObserver, rAF. */
class Browser {
  constructor(list) {
    const browser = this;
    this.list = list;
    this.observers = [];
    this.rafs = [];
    this.rafNext = 1;
    class ResizeObserver {
      constructor(callback) {
        this.callback = callback;
        this.targets = new Map(); // element -> last reported block size
        browser.observers.push(this);
      }
      observe(element) {
        if (!this.targets.has(element)) this.targets.set(element, null);
      }
      unobserve(element) {
        this.targets.delete(element);
      }
      disconnect() {
        this.targets.clear();
      }
    }
    this.window = {
      ResizeObserver,
      setTimeout: fakeSetTimeout,
      clearTimeout: fakeClearTimeout,
      requestAnimationFrame: (fn) => {
        const id = this.rafNext++;
        this.rafs.push([id, fn]);
        return id;
      },
      cancelAnimationFrame: (id) => {
        this.rafs = this.rafs.filter((r) => r[0] !== id);
      },
      performance: { now: () => clock.now },
    };
    this.document = { defaultView: this.window };
    this.window.document = this.document;
    const listeners = new Map();
    this.scroller = {
      ownerDocument: this.document,
      isConnected: true,
      offsetParent: {},
      style: {},
      clientHeight: VIEWPORT,
      offsetHeight: VIEWPORT,
      clientWidth: WIDTH,
      offsetWidth: WIDTH,
      scrollWidth: WIDTH,
      scrollLeft: 0,
      blockSize: VIEWPORT,
      contentHeight: 0,
      top: 0,
      pendingScroll: false,
      get scrollHeight() {
        return Math.max(this.contentHeight, VIEWPORT);
      },
      get scrollTop() {
        return this.top;
      },
      // The browser clamps to the scrollable range; a change fires one
      // scroll event at the next frame.
      set scrollTop(value) {
        const clamped = Math.min(Math.max(0, value), this.scrollHeight - VIEWPORT);
        if (clamped !== this.top) {
          this.top = clamped;
          this.pendingScroll = true;
        }
      },
      scrollTo(options) {
        if (options && options.top !== undefined) this.scrollTop = options.top;
      },
      addEventListener(type, fn) {
        if (!listeners.has(type)) listeners.set(type, []);
        listeners.get(type).push(fn);
      },
      removeEventListener(type, fn) {
        const list = listeners.get(type) || [];
        const i = list.indexOf(fn);
        if (i >= 0) list.splice(i, 1);
      },
      dispatch(type) {
        for (const fn of [...(listeners.get(type) || [])]) fn({ type, target: this });
      },
    };
  }

  /** The content (the list's sizer) got a new height; scrollTop stays in range. */
  setContentHeight(height) {
    this.scroller.contentHeight = height;
    this.scroller.scrollTop = this.scroller.top;
  }

  /** A rendered row: its box has the row's true size. */
  item(index) {
    const size = sizeAt(this.list, index);
    return {
      ownerDocument: this.document,
      isConnected: true,
      offsetParent: this.scroller,
      style: {},
      offsetHeight: size,
      offsetWidth: WIDTH,
      blockSize: size,
      getAttribute: (name) => (name === "data-index" ? String(index) : null),
    };
  }

  hasObservations() {
    for (const ro of this.observers) {
      for (const [element, last] of ro.targets) {
        if (element.isConnected && element.blockSize !== last) return true;
      }
    }
    return false;
  }

  /** One delivery of ResizeObserver entries (what changed since the last). */
  deliverObservations() {
    for (const ro of this.observers) {
      const entries = [];
      for (const [element, last] of ro.targets) {
        if (!element.isConnected || element.blockSize === last) continue;
        ro.targets.set(element, element.blockSize);
        const width = element === this.scroller ? WIDTH : element.offsetWidth;
        entries.push({
          target: element,
          contentRect: { width, height: element.blockSize },
          borderBoxSize: [{ inlineSize: width, blockSize: element.blockSize }],
        });
      }
      if (entries.length) ro.callback(entries, ro);
    }
  }

  dispatchScroll() {
    if (!this.scroller.pendingScroll) return;
    this.scroller.pendingScroll = false;
    this.scroller.dispatch("scroll");
  }

  runAnimationFrames() {
    const due = this.rafs;
    this.rafs = [];
    for (const [, fn] of due) fn(clock.now);
  }
}

/**
 * virtua as its React Virtualizer drives it: store + list layout + container
 * driver; a render mounts the rows of $getRange() (observed through
 * $observeItem, as ListItem does) and sizes the container to the total, and
 * each commit of a new state version calls $fixScrollJump.
 */
function virtua(browser, list, saved) {
  // Session 2 may have another row count than the snapshot: virtua's docs
  // say the length should be the same, and 0.50.4 neither throws nor drops
  // the cache then: createListLayout keeps its sizes by index, cut to or
  // padded (unmeasured) at the end to the new count (virtua #441).
  const layout = L.createListLayout(list.count, ESTIMATE, saved ? saved.cache : undefined);
  const store = V.createVirtualStore(layout);
  const driver = D.createContainerDriver(store, false);
  const container = { parentElement: browser.scroller, ownerDocument: browser.document };
  const mounted = new Map();
  let rendering = false;
  let effects = false;
  let committed = -1;
  const app = {
    dirty: true,
    commit() {
      if (app.dirty) render();
    },
    mount() {
      render();
      store.$subscribe(V.UPDATE_VIRTUAL_STATE, (sync) => {
        app.dirty = true;
        if (sync) render(); // flushSync(rerender)
      });
      driver.$observe(container);
      effects = true;
      committed = store.$getStateVersion();
      driver.$fixScrollJump();
      // The story's useLayoutEffect: handle.scrollTo(offset) on mount.
      if (saved && saved.offset) S.scrollTo(driver, saved.offset);
    },
    save: () => ({ offset: store.$getScrollOffset(), cache: layout.$snapshot() }),
    measure: (list) => store.$update(V.ACTION_ITEM_RESIZE, list),
    rowStart: (i) => store.$getItemOffset(i),
    rowSize: (i) => store.$getItemSize(i),
    rowAt: (offset) => store.$findItemIndex(offset),
    dispose() {
      for (const m of mounted.values()) m.cleanup();
      store.$dispose();
      driver.$dispose();
    },
  };
  function render() {
    if (rendering) {
      app.dirty = true;
      return;
    }
    rendering = true;
    do {
      app.dirty = false;
      const [first, last] = store.$getRange();
      for (const [i, m] of mounted) {
        if (i < first || i > last) {
          m.cleanup();
          m.element.isConnected = false;
          mounted.delete(i);
        }
      }
      browser.setContentHeight(store.$getTotalSize());
      for (let i = first; i <= last; i++) {
        if (!mounted.has(i)) {
          const element = browser.item(i);
          mounted.set(i, { element, cleanup: driver.$observeItem(element, i) });
        }
      }
      if (effects && store.$getStateVersion() !== committed) {
        committed = store.$getStateVersion();
        driver.$fixScrollJump();
      }
    } while (app.dirty);
    rendering = false;
  }
  return app;
}

/**
 * TanStack Virtual as its React useVirtualizer drives it: the adapter's
 * defaults (observeElementRect, observeElementOffset, elementScroll), a render
 * calls setOptions, mounts getVirtualItems() with ref = measureElement (and
 * measureElement(null) for rows unmounted), sizes the container to
 * getTotalSize(), then the layout effects _didMount (once) and _willUpdate.
 */
function tanstack(browser, list, saved, stableKey) {
  const mounted = new Map();
  let rendering = false;
  let unmount = null;
  const options = {
    count: list.count,
    estimateSize: () => ESTIMATE,
    getScrollElement: () => browser.scroller,
    observeElementRect: T.observeElementRect,
    observeElementOffset: T.observeElementOffset,
    scrollToFn: T.elementScroll,
    onChange: (_, sync) => {
      app.dirty = true;
      if (sync) render(); // flushSync(rerender)
    },
  };
  // Sizes are keyed by getItemKey: the default is the index; a stable key
  // is the item's id (the same item, the same key, in both sessions).
  if (stableKey) options.getItemKey = list.idOf;
  if (saved) {
    options.initialMeasurementsCache = saved.cache;
    options.initialOffset = saved.offset;
  }
  const v = new T.Virtualizer(options);
  const app = {
    dirty: true,
    commit() {
      if (app.dirty) render();
    },
    mount: () => render(),
    save: (whole) => ({ offset: v.scrollOffset, cache: whole ? v.measurementsCache : v.takeSnapshot() }),
    measure: (list) => {
      for (const [i, size] of list) v.resizeItem(i, size);
    },
    rowStart: (i) => v.getMeasurements()[i].start,
    rowSize: (i) => v.getMeasurements()[i].size,
    rowAt: (offset) => v.getVirtualItemForOffset(offset).index,
    dispose() {
      if (unmount) unmount();
    },
  };
  function render() {
    if (rendering) {
      app.dirty = true;
      return;
    }
    rendering = true;
    do {
      app.dirty = false;
      v.setOptions(options);
      const items = v.getVirtualItems();
      browser.setContentHeight(v.getTotalSize());
      const wanted = new Set(items.map((item) => item.index));
      for (const [i, element] of mounted) {
        if (!wanted.has(i)) {
          element.isConnected = false;
          mounted.delete(i);
          v.measureElement(null);
        }
      }
      for (const item of items) {
        if (!mounted.has(item.index)) {
          const element = browser.item(item.index);
          mounted.set(item.index, element);
          v.measureElement(element);
        }
      }
      if (!unmount) unmount = v._didMount();
      v._willUpdate();
    } while (app.dirty);
    rendering = false;
  }
  return app;
}

const MAX_FRAMES = 100000;
const jobs = () => new Promise((resolve) => setImmediate(resolve));

/** One frame: timers, the scroll event, rAF, render, ResizeObserver. */
async function frame(browser, app) {
  clock.now += FRAME_MS;
  runDueTimers();
  await jobs();
  app.commit();
  browser.dispatchScroll();
  app.commit();
  await jobs();
  browser.runAnimationFrames();
  app.commit();
  await jobs();
  app.commit();
  browser.deliverObservations();
  app.commit();
  await jobs();
  app.commit();
}

const busy = (browser, app) =>
  app.dirty || browser.scroller.pendingScroll || browser.rafs.length > 0 || browser.hasObservations();

/** Frames until nothing is pending (timers may remain). */
async function idle(browser, app) {
  await jobs();
  app.commit();
  for (let k = 0; busy(browser, app); k++) {
    if (k > MAX_FRAMES) throw new Error("restore: the list never settled");
    await frame(browser, app);
  }
}

/** Frames until nothing is pending and every timer has run. */
async function settle(browser, app) {
  await idle(browser, app);
  for (let k = 0; clock.timers.size > 0 || busy(browser, app); k++) {
    if (k > MAX_FRAMES) throw new Error("restore: the list never settled (timers)");
    await frame(browser, app);
  }
}

/** Where row `row` starts relative to the viewport top, as rendered. */
const position = (browser, app, row) => app.rowStart(row) - browser.scroller.scrollTop;

/** Whether no part of row `row` is in the viewport. */
function offScreen(browser, app, row) {
  const start = position(browser, app, row);
  return start >= VIEWPORT || start + app.rowSize(row) <= 0;
}

async function session1(p, n, measuredEarlier) {
  const list = firstList(n);
  const browser = new Browser(list);
  const app = p.make(browser, list, null, p.stableKey);
  app.mount();
  await settle(browser, app);
  const sizes = Array.from(measuredEarlier, (i) => [i, sizeAt(list, i)]);
  for (let k = 0; k < sizes.length; k += 4096) app.measure(sizes.slice(k, k + 4096));
  await settle(browser, app);
  browser.scroller.scrollTop = app.rowStart(Math.floor(n / 2));
  await settle(browser, app);
  const top = browser.scroller.scrollTop;
  const row = app.rowAt(top);
  const place = { row, distance: top - app.rowStart(row), position: app.rowStart(row) - top };
  const state = p.whole === "live" ? app.save(true) : JSON.parse(JSON.stringify(app.save(p.whole)));
  app.dispose();
  await settle(browser, app);
  return { place, state };
}

/** Session 2 with k new rows on top: the saved row is now at place.row + k. */
async function session2(p, n, k, saved, place) {
  const list = secondList(n, k);
  const browser = new Browser(list);
  const app = p.make(browser, list, saved, p.stableKey);
  app.mount();
  await settle(browser, app);
  const row = place.row + k;
  const afterRestore = position(browser, app, row) - place.position;
  const offAfterRestore = offScreen(browser, app, row);
  const order = [];
  for (let i = row - 1; i >= Math.max(0, row - AROUND); i--) order.push(i);
  for (let i = row + 1; i <= Math.min(list.count - 1, row + AROUND); i++) order.push(i);
  for (const i of order) {
    app.measure([[i, sizeAt(list, i)]]);
    await idle(browser, app);
  }
  await settle(browser, app);
  const afterMeasuring = position(browser, app, row) - place.position;
  const offAfterMeasuring = offScreen(browser, app, row);
  app.dispose();
  await settle(browser, app);
  return { afterRestore, afterMeasuring, offAfterRestore, offAfterMeasuring };
}

const SAME_COUNT_VIRTUA = "yes (docs); another count: sizes kept by index";
const SAME_COUNT_TANSTACK = "no (sizes by getItemKey)";
const peers = [
  { peer: "virtua", version: versions.virtua, make: virtua, whole: false, key: "-",
    sameCount: SAME_COUNT_VIRTUA },
  { peer: "tanstack", version: versions.tanstack, make: tanstack, whole: false, key: "index",
    sameCount: SAME_COUNT_TANSTACK },
  { peer: "tanstack-stableKey", version: versions.tanstack, make: tanstack, whole: false, key: "item id",
    stableKey: true, sameCount: SAME_COUNT_TANSTACK },
  { peer: "tanstack-measurementsCache", version: versions.tanstack, make: tanstack, whole: true, key: "index",
    sameCount: SAME_COUNT_TANSTACK },
  { peer: "tanstack-measurementsCache-live", version: versions.tanstack, make: tanstack, whole: "live",
    key: "index", sameCount: SAME_COUNT_TANSTACK },
];

/** How many rows' sizes the saved state gives the restored list. */
function restoredEntries(peer, state) {
  let count = 0;
  if (peer === "virtua") {
    for (const size of state.cache[0]) if (size !== -1) count++; // -1: not measured
  } else {
    state.cache.forEach(() => count++); // as initialMeasurementsCache is read
  }
  return count;
}

async function main() {
  console.log(`restore: virtua ${versions.virtua}, TanStack virtual-core ${versions.tanstack}, Node ${process.version}`);
  let csv = "peer,version,rows,prepended,saved_row,saved_distance_px,error_after_restore_px,error_after_measuring_px\n";
  const results = [];
  for (const rows of sizes) {
    const measuredEarlier = earlierRows(rows);
    for (const k of prepends) {
      for (const p of peers) {
        const t0 = process.hrtime.bigint();
        const { place, state } = await session1(p, rows, measuredEarlier);
        const saved = restoredEntries(p.peer, state);
        const after = await session2(p, rows, k, state, place);
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        results.push({ ...p, rows, k, place, ...after, saved, seconds });
        csv += `${p.peer},${p.version},${rows},${k},${place.row},${place.distance},${after.afterRestore},${after.afterMeasuring}\n`;
        process.stdout.write(`  ${p.peer.padEnd(32)} rows=${String(rows).padEnd(8)} prepended=${String(k).padEnd(4)} ${seconds.toFixed(1)} s\n`);
      }
    }
  }
  fs.mkdirSync(output, { recursive: true });
  fs.writeFileSync(path.join(output, "restore.csv"), csv);

  const header = ["peer", "version", "key", "rows", "prepended", "saved row", "distance", "after restore",
    "after measuring", "sizes restored", "same count needed"];
  const px = (value, off) => `${value} px${off ? " (off screen)" : ""}`;
  const lines = results.map((r) => [r.peer, r.version, r.key, String(r.rows), String(r.k),
    r.k ? `${r.place.row} -> ${r.place.row + r.k}` : String(r.place.row), `${r.place.distance} px`,
    px(r.afterRestore, r.offAfterRestore), px(r.afterMeasuring, r.offAfterMeasuring), String(r.saved), r.sameCount]);
  const widths = header.map((h, k) => Math.max(h.length, ...lines.map((l) => l[k].length)));
  const left = (k) => k < 3 || k === header.length - 1;
  const show = (cells) => cells.map((c, k) => (left(k) ? c.padEnd(widths[k]) : c.padStart(widths[k]))).join("  ").trimEnd();
  console.log(`\n${show(header)}`);
  for (const l of lines) console.log(show(l));
  console.log("\nerror: the saved row's start - the viewport top, now minus when saved (0 = exact, > 0 = lower on screen);");
  console.log("off screen: no part of the saved row is in the viewport; key: what TanStack keys sizes by");
  console.log(`wrote ${path.join(output, "restore.csv")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
