import Foundation
import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// How a scenario's cost should grow with n (what `--check` judges).
enum Growth: String {
  case logarithmic = "O(log n)"
  case linear = "O(n)"
  case memory = "B/row"
}

/// One operation a UI performs (DESIGN §3), runnable for either variant.
struct Scenario {
  var name: String
  var growth: Growth
  var summary: String
  var run: (_ variant: String, _ size: Int, _ policy: SamplingPolicy) -> [Double]
}

let viewport = CGSize(width: 390, height: 844)

/// How many random rows (drawn with repetition) `prepared` measures: a
/// count, or a percentage of the rows.
enum MeasuredRows: Equatable {
  case count(Int)
  case percent(Double)

  /// `--measured`'s value: `N` (a whole number) or `P%` (0 to 100), else `nil`.
  init?(_ text: String) {
    if text.hasSuffix("%") {
      guard let percent = Double(text.dropLast()), percent >= 0, percent <= 100 else { return nil }
      self = .percent(percent)
    } else {
      guard let count = Int(text), count >= 0 else { return nil }
      self = .count(count)
    }
  }

  /// The rows to measure in a layout of `n` rows.
  func rows(of n: Int) -> Int {
    switch self {
    case .count(let count): Swift.min(n, count)
    case .percent(let percent): Swift.min(n, Int(Double(n) * percent / 100))
    }
  }
}

/// `--measured` (`LAZYSTACK_BENCH_MEASURED`, which the paired comparison's
/// workers inherit; `main` checked it); 50 rows by default.
func measuredRows(_ n: Int) -> Int {
  let given = ProcessInfo.processInfo.environment["LAZYSTACK_BENCH_MEASURED"].flatMap(MeasuredRows.init)
  return (given ?? .count(50)).rows(of: n)
}

/// The scroll anchor of each prepared layout: `--anchor`
/// (`LAZYSTACK_BENCH_ANCHOR`: top, center or bottom); none (top) by default.
func benchAnchor() -> UnitPoint? {
  switch ProcessInfo.processInfo.environment["LAZYSTACK_BENCH_ANCHOR"] {
  case "center": .center
  case "bottom": .bottom
  default: nil
  }
}

/// A layout of `n` estimated rows (44 pt) in a phone-sized viewport,
/// scrolled by the user to the middle (so the tracked anchor row is there),
/// with `measuredRows(n)` random rows measured (50 by default) and
/// `benchAnchor()` as its scroll anchor.
func prepared<S: BenchSubject>(_: S.Type, _ n: Int, _ rng: inout SeededRNG) -> S {
  var subject = try! S(count: n, estimate: 44)
  subject.viewportSize = viewport
  subject.scrollAnchor = benchAnchor()
  subject.userScroll(to: CGPoint(x: 0, y: subject.contentSize.height / 2))
  for _ in 0 ..< measuredRows(n) {
    _ = subject.setMeasuredExtent(CGFloat(Int.random(in: 20 ... 200, using: &rng)), for: Int.random(in: 0 ..< n, using: &rng))
  }
  return subject
}

/// Random values reused cyclically, so generating them is not timed.
func table<T>(_ count: Int = 4096, _ make: () -> T) -> [T] { (0 ..< count).map { _ in make() } }
/// `table` with the index of each value.
func table<T>(_ count: Int = 4096, _ make: (Int) -> T) -> [T] { (0 ..< count).map(make) }

typealias CoreSubject = LazyStackLayout<Int>
typealias NaiveSubject = LazyStackReference<Int>

/// A value the closures of a prepared scenario share and mutate in place
/// (a class, so the subject is never copied between calls). Its value is
/// only ever reached from one operation at a time: no dynamic exclusivity
/// check on the timed path.
///
/// Each timed operation reaches the layout through one `with` access (an
/// `inout` borrow of the stored value): a read such as `box.value.frame(at:)`
/// would copy the whole layout out of the class first (retaining and
/// releasing each of its buffers), which times the copy rather than the
/// library. A UI that keeps its layout in a class does the same with one
/// access per frame (README, "Reading a layout kept in a class").
final class Box<Value> {
  @exclusivity(unchecked) var value: Value
  init(_ value: Value) { self.value = value }

  @inline(__always)
  func with<R>(_ body: (inout Value) throws -> R) rethrows -> R { try body(&value) }
}

/// A scenario set up for one variant and size: the timed operation and, when
/// the operation must be undone, the untimed reset that follows each timed
/// batch; or, for a memory scenario, the bytes per row.
struct Prepared {
  var operation: () -> Void = {}
  var reset: (() -> Void)? = nil
  var bytesPerRow: Double? = nil
  /// The calls of a scenario that writes, and how many of them changed
  /// nothing (see `Tally`).
  var tally: Tally? = nil
}

/// Counts a writing scenario's timed calls that changed nothing (a
/// measurement returning `.unchanged`, a scroll or a jump that left the
/// offset where it was, an estimate change that left the content size, an
/// insertion that left the count): a scenario whose calls are mostly no-ops
/// times the wrong thing, and the run stops (`check`). The cost in the timed
/// path is one comparison of a value the call returns, or of an O(1) read.
final class Tally {
  let scenario: String
  @exclusivity(unchecked) var calls = 0
  @exclusivity(unchecked) var noOps = 0
  init(_ scenario: String) { self.scenario = scenario }

  @inline(__always) func record(changed: Bool) {
    calls &+= 1
    if !changed { noOps &+= 1 }
  }

  /// Stops the run if more than 1 % of the calls so far changed nothing.
  func check() {
    guard noOps * 100 > calls else { return }
    FileHandle.standardError.write(Data("bench: \(scenario): \(noOps) of \(calls) timed calls changed nothing; the scenario would time a no-op\n".utf8))
    exit(3)
  }
}

func generic<S: BenchSubject>(_ type: S.Type, _ n: Int, _ policy: SamplingPolicy, _ name: String) -> [Double] {
  let prepared = prepare(type, n, name)
  if let bytes = prepared.bytesPerRow { return [bytes] }
  let values = sample(policy, operation: prepared.operation, reset: prepared.reset)
  prepared.tally?.check()
  return values
}

/// Real measurements of rows above the tracked row, one a call: distinct
/// rows within a cycle of 4,096, and extents off the integers by +1/4 pt on
/// even cycles and +3/4 pt on odd ones, so no call stores the value the row
/// already holds. Each returns the result of `setMeasuredExtent`.
func realMeasurements<S: BenchSubject>(_ layout: S, _ n: Int, _ rng: inout SeededRNG) -> (inout S) -> MeasurementResult {
  let anchor = layout.index(of: layout.trackedID ?? 0) ?? n / 2
  var candidates = Array(0 ..< Swift.max(1, anchor))
  candidates.shuffle(using: &rng)
  let rows = Array(candidates.prefix(4096))
  let extents = (0 ..< rows.count).map { _ in CGFloat(Int.random(in: 20 ... 200, using: &rng)) }
  let state = Box((k: -1, cycle: 0))
  return { layout in
    state.value.k += 1
    if state.value.k == rows.count { state.value = (0, state.value.cycle + 1) }
    let (k, cycle) = state.value
    return layout.setMeasuredExtent(extents[k] + (cycle & 1 == 0 ? 0.25 : 0.75), for: rows[k])
  }
}

/// Real measurements of rows on screen, one a call, as a UI's
/// `measureVisibleRows` makes them when a row comes into view or its
/// content changes: a random row of `visibleRows` (at and below the kept
/// row as well as above it, so the kept row's place is searched for), its
/// true extent +1/4 pt and +3/4 pt in turn, so every call stores a new
/// value. Each returns the result of `setMeasuredExtent`.
func visibleMeasurements<S: BenchSubject>(_: S.Type, _ rng: inout SeededRNG) -> (inout S) -> MeasurementResult {
  let picks = table { Int.random(in: 0 ..< 1 << 20, using: &rng) }
  let cursor = Cursor()
  // The rows given an extent, with the quarter it is off their true one.
  let offsets = Box([Int: CGFloat]())
  return { layout in
    let onScreen = layout.visibleRows
    let index = onScreen.isEmpty ? 0 : onScreen[picks[cursor.next()] % onScreen.count]
    let id = layout.id(at: index)
    let off: CGFloat = offsets.value[id] == 0.25 ? 0.75 : 0.25
    offsets.value[id] = off
    return layout.setMeasuredExtent(CGFloat(20 + (id &* 0x9E37_79B1 >> 7) % 181) + off, for: id)
  }
}

/// User scrolls by 1 to 40 pt either way (never 0: every call moves), back
/// to the middle past either end: the frame of `scroll` and `pinned_rows`.
/// A call scrolls with the `k`-th delta and returns whether the offset moved.
func smallScrolls<S: BenchSubject>(_: S.Type, from start: CGFloat, height: CGFloat,
                                   _ rng: inout SeededRNG) -> (inout S, Int) -> Bool {
  let deltas = table { CGFloat(Int.random(in: 1 ... 40, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)) }
  let y = Box(start)
  let maxY = Swift.max(0, height - viewport.height)
  return { layout, k in
    let before = y.value
    y.value += deltas[k]
    if y.value < 0 || y.value > maxY { y.value = maxY / 2 }
    layout.userScroll(to: CGPoint(x: 0, y: y.value))
    return layout.contentOffset.y != before
  }
}

nonisolated(unsafe) let scenarios: [Scenario] = [
  ("build", Growth.linear, "init from n ascending ids ([Int] 0..<n) + viewport + frames of the visible rows (first frame)"),
  ("build_indexed", .linear, "build, then index(of:) a random id (ready for any id)"),
  ("build_range", .linear, "build_indexed with the ids given as the Range 0..<n (implicit id index)"),
  ("build_shuffled", .linear, "build_indexed with the ids 0..<n in random order (hash index built by init)"),
  ("offset_to_index", .logarithmic, "index(atOffset:) at a random offset"),
  ("index_to_offset", .logarithmic, "frame(at:) of a random row"),
  ("measure", .logarithmic, "setMeasuredExtent of a random row above the anchor with a new extent (a real change every call), with S1 stabilization"),
  ("measure_visible", .logarithmic, "setMeasuredExtent of a random row on screen (as measureVisibleRows measures it) with a new extent, with S1 stabilization, then contentSize and visibleIndices"),
  ("measure_read", .logarithmic, "measure, then contentSize and visibleIndices (what a UI reads next)"),
  ("index_to_offset_after_measure", .logarithmic, "measure, then frame(at:) of a random row (a lookup after every change)"),
  ("estimate_change", .logarithmic, "change the estimate for unmeasured rows, with stabilization"),
  ("scroll", .logarithmic, "userScroll by a small delta + visible range + tracked id"),
  ("jump", .logarithmic, "position.scrollTo(id:anchor:) to a random id"),
  ("animate_frame", .logarithmic, "one frame of an animated scroll: advance(to:) by 1/60 s + one real measurement of a row on screen (the target re-resolved)"),
  ("pinned_rows", .logarithmic, "userScroll by a small delta + pinnedRows (sections of 100 rows under pinned headers)"),
  ("reorder_move", .logarithmic, "move one row (above the anchor) to a random index, stabilized"),
  ("reorder_prepend", .logarithmic, "insert 100 new rows at index 0, stabilized"),
  ("prepend_read", .logarithmic, "reorder_prepend, then contentSize and visibleIndices"),
  ("reorder_shuffle", .linear, "update(ids:) with all ids shuffled, stabilized"),
  ("resize_viewport", .logarithmic, "viewport size change with the anchor kept (S6)"),
  ("invalidate_all", .linear, "invalidateAllMeasurements() of a fully measured layout, stabilized (S12 a)"),
  ("batch_transition", .logarithmic, "performBatch of 100 random edits (inserts, removals, moves, measurements), half on screen, with its transition (U1)"),
  ("kind_estimate_change", .logarithmic, "change one of 8 kinds' estimate (every row has one), stabilized (K1)"),
  ("snapshot_restore", .linear, "restore a snapshot with 10 % of the rows measured and its place into a fresh layout of n rows, ids in order (C2)"),
  ("snapshot_restore_hashed", .linear, "snapshot_restore into a layout whose ids are in random order (found through the hash index)"),
  ("grid_measure", .logarithmic, "setMeasuredExtent of a random row above the kept row in a 4-lane grid (10 % measured), stabilized, then contentSize and visibleRows (L3)"),
  ("grid_measure_visible", .logarithmic, "setMeasuredExtent of a random row on screen in a 4-lane grid (10 % measured) with a new extent, stabilized, then contentSize and visibleRows (L3)"),
  ("grid_insert", .logarithmic, "insert one row at a random index of a measured 4-lane grid (every later cell moves a lane), stabilized, then contentSize and visibleRows"),
  ("grid_move", .logarithmic, "move one row from a random index to another in a 4-lane grid (10 % measured: the cells between move a lane), stabilized, then contentSize and visibleRows (L3, L8)"),
  ("grid_kind_estimate_change", .logarithmic, "change the estimate of a kind that 16 estimated rows of a 4-lane grid have (10 % measured), stabilized, then contentSize and visibleRows (K1, L8)"),
  ("grid_estimate_change", .linear, "change kind 0's estimate (44 and 46 pt in turn), which the 90 % of rows not measured in a 4-lane grid follow, stabilized, then contentSize and visibleRows (X2, L8; no row written; every block, measured every tenth row, is summarized again: O(n))"),
  ("grid_scroll", .logarithmic, "userScroll by a small delta in a 4-lane grid + visibleRows + tracked id"),
  ("masonry_measure", .logarithmic, "setMeasuredExtent of a random row above the kept row in a 4-lane masonry (10 % measured), stabilized, then contentSize and visibleRows (L4)"),
  ("masonry_measure_visible", .logarithmic, "setMeasuredExtent of a random row on screen in a 4-lane masonry (10 % measured) with a new extent, stabilized, then contentSize and visibleRows (L4)"),
  ("masonry_measure_mean", .linear, "setMeasuredExtent of a random row in a 4-lane masonry (10 % measured) under .meanOfMeasured: the mean moves, and every row that follows it (no row written: O(n/B), one pass over the pitch tree's nodes), stabilized, then contentSize and visibleRows (X2, K3, L8)"),
  ("masonry_insert", .logarithmic, "insert one row at a random index of a 4-lane masonry (placed by L4), stabilized, then contentSize and visibleRows"),
  ("masonry_move", .logarithmic, "move one row from a random index to another in a 4-lane masonry (10 % measured; it keeps its lane), stabilized, then contentSize and visibleRows (L4, L8)"),
  ("masonry_move_above_headers", .logarithmic, "move a random row of a 4-lane masonry in 8 headed sections (10 % measured) to the top, above the first header, where it starts a section without a header, then back in the next call, which empties that section (the row keeps its lane, L4), stabilized, then contentSize and visibleRows (L1, L8)"),
  ("masonry_move_header", .linear, "move a random header of a 4-lane masonry with a header every 256 rows 100 rows down into its own section (its first rows join the section before), then back in the next call, stabilized, then contentSize and visibleRows (H2, L1, L8: the two sections around it are laid out again, O(k m + s) for their m rows and s = n/256 sections)"),
  ("masonry_apply", .logarithmic, "apply(_:) of a difference that removes a random row, moves another (it keeps its lane) and inserts a new one in a 4-lane masonry (10 % measured), stabilized, then contentSize and visibleRows (L4, L8)"),
  ("masonry_estimate_change", .linear, "change kind 0's estimate (44 and 46 pt in turn), which the 90 % of rows not measured in a 4-lane masonry follow, stabilized, then contentSize and visibleRows (X2, L4: no row written; O(n/B), one pass over the pitch tree's nodes)"),
  ("masonry_snapshot_restore", .linear, "restore the snapshot of a 4-lane masonry of n rows (set up estimated, then 10 % measured: never re-flowed) with its place into a fresh masonry layout of the same ids (C2, L4)"),
  ("masonry_scroll", .logarithmic, "userScroll by a small delta in a 4-lane masonry + visibleRows + tracked id"),
  ("frame", .logarithmic, "one UI frame (F8): userScroll forward by 1-40 pt, the rows that came into view measured at their proposals, rowsToDraw with every frame, takeEdgeEvents, scrollIndicator, prefetchRows of one viewport ahead (10 % measured)"),
  ("frame_up", .logarithmic, "frame scrolling back by 1-40 pt: a chat read upward, the rows measured above the kept row (S1)"),
  ("lanes_frame", .logarithmic, "frame in a 4-lane masonry: each card measured at its lane's width (F1)"),
  ("reflow", .linear, "a 4-lane masonry of n rows (10 % measured) re-flowed to 5 lanes and back, one change a call, anchor kept (L1)"),
  ("paging", .logarithmic, "targetContentOffset with .paging"),
  ("view_aligned", .logarithmic, "targetContentOffset with .viewAligned"),
  ("memory", .memory, "bytes per row of a layout built from n Int ids in random order (hash index; unit B/row)"),
  ("memory_ordered", .memory, "bytes per row of a layout built from n ascending Int ids (no hash index; unit B/row)"),
].map { entry in
  Scenario(name: entry.0, growth: entry.1, summary: entry.2) { variant, n, policy in
    variant == "core" ? generic(CoreSubject.self, n, policy, entry.0) : generic(NaiveSubject.self, n, policy, entry.0)
  }
}

/// The width of the scenario-name column of the console tables.
let scenarioNameWidth = scenarios.map(\.name.count).max() ?? 16
