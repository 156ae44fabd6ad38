import Foundation

// SPEC L3 and L8 for one grid section body: lines of k rows whose extent is
// their longest row's, kept so that an insert that shifts every later cell
// to the next lane costs O(r + k (B + log m)), not O(m).

/// What a run of rows adds to a grid's main axis, for the lane its first
/// row sits in (its *phase*): a line starts at every row of lane 0.
///
/// - `head`: the longest row before the run's first line start (a line the
///   run did not open), or -1 when the run starts a line (or is empty);
/// - `lines`: the pitch (longest row plus spacing) of every line the run
///   both opens and closes;
/// - `tail`: the longest row of the last line the run opens, which it
///   leaves open, or -1 when it opens none.
///
/// Runs combine associatively (`then`): the first's open last line and the
/// second's head are one line, closed when the second opens one.
@usableFromInline @frozen
package struct _LineSummary: Sendable, Equatable {
  @usableFromInline package var head: Int64
  @usableFromInline package var lines: Int64
  @usableFromInline package var tail: Int64

  @inlinable @inline(__always)
  package init(head: Int64, lines: Int64, tail: Int64) {
    self.head = head
    self.lines = lines
    self.tail = tail
  }

  /// The summary of no rows.
  @inlinable @inline(__always)
  package static var empty: _LineSummary { _LineSummary(head: -1, lines: 0, tail: -1) }

  /// This run followed by `next` (summarized at the phase this run ends
  /// at), with `spacing` after each line.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func then(_ next: _LineSummary, spacing: Int64) -> _LineSummary {
    if tail < 0 { return _LineSummary(head: Swift.max(head, next.head), lines: next.lines, tail: next.tail) }
    if next.tail < 0 { return _LineSummary(head: head, lines: lines, tail: Swift.max(tail, next.head)) }
    return _LineSummary(head: head, lines: lines &+ Swift.max(tail, next.head) &+ spacing &+ next.lines, tail: next.tail)
  }

  /// The pitch of a run that starts a line, once its last line is closed.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func closedPitch(spacing: Int64) -> Int64 {
    tail < 0 ? lines : lines &+ tail &+ spacing
  }
}

/// A row found by a lane query: its index and its start and extent (pitch
/// coordinates of the structure that found it), and, for a masonry row,
/// its lane, so an update of the rows on screen after a measurement
/// (`_MasonryLanes._patchSpans`) tells the measured row's lane from the
/// others without reading the blocks. 24 bytes: an extent is at most
/// `_FixedPoint.maxExtentUnits` (`Int32.max`), so it and the lane share a
/// word. (The two packed by hand in one `Int64` cost more instructions a
/// scroll frame than two 32-bit fields.)
@usableFromInline @frozen
package struct _LaneSpan: Sendable, Equatable {
  @usableFromInline package var row: Int
  @usableFromInline package var start: Int64
  @usableFromInline package var _extent: Int32
  /// The row's masonry lane; `-1` for a row that keeps none (a grid cell,
  /// a list row, a header or footer).
  @usableFromInline package var lane: Int32

  /// The row's extent, in units (at most `_FixedPoint.maxExtentUnits`).
  @inlinable @inline(__always)
  package var extent: Int64 {
    get { Int64(_extent) }
    set { _extent = Int32(truncatingIfNeeded: newValue) }
  }

  @inlinable @inline(__always)
  package init(row: Int, start: Int64, extent: Int64, lane: Int32 = -1) {
    self.row = row
    self.start = start
    self._extent = Int32(truncatingIfNeeded: extent)
    self.lane = lane
  }
}

/// Where the lanes' window searches (`appendSpans`) put the rows they
/// find: an array of spans, or of row indices alone (`_RowSink`), so a
/// caller that needs only the rows (`visibleRows`) builds one array.
@usableFromInline
package protocol _SpanSink {
  /// The number of spans appended.
  var count: Int { get }
  /// Takes back the last `k` spans appended.
  mutating func removeLast(_ k: Int)
  mutating func append(_ span: _LaneSpan)
  /// Appends `spans` in order: one call for many spans.
  mutating func append(contentsOf spans: UnsafeBufferPointer<_LaneSpan>)
}

extension _SpanSink {
  @inlinable
  package mutating func append(contentsOf spans: UnsafeBufferPointer<_LaneSpan>) {
    for span in spans { append(span) }
  }
}

extension Array: _SpanSink where Element == _LaneSpan {}

/// The rows of the spans appended, in order, in memory of its own:
/// appending is a store and a count (an array's append checks that its
/// buffer is unique every time). `take()` hands them over as an array and
/// frees the memory; a sink must be taken exactly once.
@usableFromInline
package struct _RowSink: _SpanSink {
  @usableFromInline package var base: UnsafeMutablePointer<Int>
  @usableFromInline package var count: Int
  @usableFromInline package var capacity: Int

  @inlinable @inline(__always)
  package init(capacity: Int = 128) {
    base = _mallocTrivial(Int.self, capacity: capacity)
    count = 0
    self.capacity = capacity
  }

  @inlinable
  package mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= count, "_RowSink: cannot remove \(k) of \(count) rows")
    count &-= k
  }

  @inlinable @inline(__always)
  package mutating func append(_ span: _LaneSpan) {
    if _slowPath(count == capacity) { _grow(to: Swift.max(16, capacity &* 2)) }
    (base + count).initialize(to: span.row)
    count &+= 1
  }

  @inlinable
  package mutating func append(contentsOf spans: UnsafeBufferPointer<_LaneSpan>) {
    if _slowPath(count &+ spans.count > capacity) { _grow(to: Swift.max(capacity &* 2, count &+ spans.count)) }
    let end = base + count
    for (i, span) in spans.enumerated() { (end + i).initialize(to: span.row) }
    count &+= spans.count
  }

  /// Moves the rows to memory for `capacity` rows.
  @inlinable @inline(never)
  package mutating func _grow(to capacity: Int) {
    let larger = _mallocTrivial(Int.self, capacity: capacity)
    larger.moveInitialize(from: base, count: count)
    _freeTrivial(base)
    base = larger
    self.capacity = capacity
  }

  /// The rows appended, as an array; frees the sink's memory.
  @inlinable
  package consuming func take() -> [Int] {
    let rows = _makeArray(UnsafeBufferPointer(start: base, count: count))
    _freeTrivial(base)
    return rows
  }
}

/// The body of one grid section (SPEC L3): its rows' extents in blocks and,
/// over the blocks, a segment tree that keeps for each node and each of the
/// k phases its run's `_LineSummary` (DESIGN §2's hint, L8).
///
/// Positions are in pitch: a line's start is the sum of the pitches
/// (longest row plus spacing) of the lines before it, from the body's
/// start.
/// - A measurement changes one line in each phase: its block's k summaries
///   in O(k²) and the nodes above it in O(k log(m/B)). An insert or removal
///   recomputes its block's summaries, all k phases in one pass: O(B + k).
/// - Blocks hold 128 rows (up to 256 before a split; more past 8M rows,
///   `_LaneBlocks.defaultCapacity`), twice a masonry body's: the tree has
///   half the leaves, so an edit's descents miss the cache less
///   (Benchmarks/RESULTS.md, 2026-11-27), and a measurement does not pay
///   for the larger block; an insert's O(B) and a scroll's block walk pay
///   a little.
/// - A line start is one descent at one phase: O(log(m/B) + B).
@usableFromInline
package struct _GridLines: Sendable {
  /// The rows.
  @usableFromInline package var blocks: _LaneBlocks
  /// The lanes: rows fill lines of `k` (at least 1).
  @usableFromInline package let k: Int
  /// The spacing after each line, in units.
  @usableFromInline package let spacing: Int64
  /// Leaves in the segment tree (a power of two, at least 1).
  @usableFromInline package var _leaves: Int
  /// Node `i`'s summaries at `[i * k, (i + 1) * k)`, by phase; node 1 is
  /// the root, node `_leaves + p` block `p`.
  @usableFromInline package var _summaries: ContiguousArray<_LineSummary>
  /// Node `i`'s row count.
  @usableFromInline package var _counts: ContiguousArray<Int>

  /// A grid body of `extents` (units) with `k` lanes and `spacing` after
  /// each line.
  /// - Complexity: O(k m).
  @inlinable
  package init(extents: some Collection<Int64>, lanes k: Int, spacing: Int64, blockCapacity: Int? = nil) {
    precondition(k >= 1 && k <= _LaneBlocks.maxLanes, "_GridLines: lane count \(k) out of range")
    self.k = k
    self.spacing = spacing
    let capacity = blockCapacity ?? _LaneBlocks.defaultCapacity(rows: extents.count, lanes: k, base: 128)
    blocks = _LaneBlocks(extents: extents, lanes: nil, capacity: capacity)
    _leaves = 1
    _summaries = []
    _counts = []
    _rebuildTree()
  }

  /// The number of rows.
  @inlinable @inline(__always)
  package var count: Int { blocks.count }

  /// Rebuilds every node from the blocks.
  /// - Complexity: O(k m).
  @inlinable
  package mutating func _rebuildTree() {
    var leaves = 1
    while leaves < blocks.blockCount { leaves &<<= 1 }
    _leaves = leaves
    _summaries = ContiguousArray(repeating: .empty, count: 2 &* leaves &* k)
    _counts = ContiguousArray(repeating: 0, count: 2 &* leaves)
    for p in 0 ..< blocks.blockCount { _summarizeLeaf(p) }
    var i = leaves &- 1
    while i >= 1 {
      _combineNode(i)
      i &-= 1
    }
  }

  /// Recomputes block `p`'s leaf: its count and its summary at each phase.
  ///
  /// All k phases in one pass. At phase `phase` the block's lines start at
  /// its rows `r, r + k, r + 2k, …` with `r = (k - phase) % k`, so a line
  /// is a window of k rows (the last one cut short by the block's end).
  /// The longest row of the window at every start comes from a sliding
  /// maximum (van Herk / Gil-Werman): the block in stretches of k rows,
  /// the window from `t` is the longest from `t` to its stretch's end
  /// (maxima backward) and the longest of the next stretch up to the
  /// window's end (maxima forward, one row more at each `t`). Each window
  /// goes to the phase of its offset in the stretch.
  /// - Complexity: O(B + k).
  @inlinable
  package mutating func _summarizeLeaf(_ p: Int) {
    let node = _leaves &+ p
    _counts[node] = blocks.extents[p].count
    let k = self.k
    let s = spacing
    blocks.extents[p].withUnsafeBufferPointer { e in
      let c = e.count
      _summaries.withUnsafeMutableBufferPointer { out in
        // By offset r in a stretch: heads, closed lines' pitch, open tails,
        // and the current stretch's maxima backward.
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: 4 &* k) { scratch in
          let head = scratch.baseAddress.unsafelyUnwrapped
          let lines = head + k
          let tail = lines + k
          let backward = tail + k
          var m: Int64 = -1
          for r in 0 ..< k {
            head[r] = m  // the longest of rows 0 ..< r: what comes before the first line
            if r < c { m = Swift.max(m, Int64(e[r])) }
            lines[r] = 0
            tail[r] = -1
          }
          var a = 0
          while a < c {
            let end = Swift.min(a &+ k, c)
            var i = end &- a &- 1
            m = Int64(e[end &- 1])
            while i >= 0 {
              m = Swift.max(m, Int64(e[a &+ i]))
              backward[i] = m
              i &-= 1
            }
            var ahead: Int64 = -1  // the longest of the next stretch's rows in the window
            let next = a &+ k
            let reach = c &- next  // the window from offset r reaches next stretch rows 0 ..< min(r, reach)
            for r in 0 ..< (end &- a) {
              if r > 0 && r <= reach { ahead = Swift.max(ahead, Int64(e[next &+ r &- 1])) }
              let longest = Swift.max(backward[r], ahead)
              if r < reach {
                lines[r] &+= longest &+ s  // closed by the next line's start
              } else {
                tail[r] = longest  // the last line this phase opens
              }
            }
            a = end
          }
          for phase in 0 ..< k {
            let r = phase == 0 ? 0 : k &- phase
            out[node &* k &+ phase] = _LineSummary(head: head[r], lines: lines[r], tail: tail[r])
          }
        }
      }
    }
  }

  /// `_summarizeLeaf`'s summaries of block `p`, phase by phase, row by row
  /// (O(k B)): what the consistency checks compare the one-pass ones with.
  package func _leafSummariesRowByRow(_ p: Int) -> [_LineSummary] {
    let e = blocks.extents[p]
    return (0 ..< k).map { phase in
      var sum = _LineSummary.empty
      var lane = phase
      for x in e.lazy.map(Int64.init) {
        if lane == 0 {
          if sum.tail >= 0 { sum.lines &+= sum.tail &+ spacing }
          sum.tail = x
        } else if sum.tail >= 0 {
          sum.tail = Swift.max(sum.tail, x)
        } else {
          sum.head = Swift.max(sum.head, x)
        }
        lane = (lane &+ 1) % k
      }
      return sum
    }
  }

  /// Recomputes node `i` from its two children.
  /// - Complexity: O(k).
  @inlinable
  package mutating func _combineNode(_ i: Int) {
    let k = self.k
    let s = spacing
    _counts.withUnsafeMutableBufferPointer { counts in
      _summaries.withUnsafeMutableBufferPointer { n in
        Self._combine(i, k: k, spacing: s, counts: counts, summaries: n)
      }
    }
  }

  /// Node `i` from its two children, in the tree's buffers: a node's count,
  /// and at each phase its left child's summary then its right child's at
  /// the phase the left child ends at.
  /// - Complexity: O(k).
  @inlinable @inline(__always)
  package static func _combine(_ i: Int, k: Int, spacing s: Int64, counts: UnsafeMutableBufferPointer<Int>,
                               summaries n: UnsafeMutableBufferPointer<_LineSummary>) {
    let left = 2 &* i
    let leftCount = counts[left]
    counts[i] = leftCount &+ counts[left &+ 1]
    let shift = leftCount % k
    let base = i &* k
    let leftBase = left &* k
    let rightBase = leftBase &+ k
    for phase in 0 ..< k {
      var q = phase &+ shift
      if q >= k { q &-= k }
      n[base &+ phase] = n[leftBase &+ phase].then(n[rightBase &+ q], spacing: s)
    }
  }

  /// Recomputes block `p`'s leaf and every node above it.
  /// - Complexity: O(B + k log(m/B)).
  @inlinable
  package mutating func _refresh(block p: Int) {
    _summarizeLeaf(p)
    _combineAncestors(ofBlock: p)
  }

  /// Recomputes every node above block `p`'s leaf.
  /// - Complexity: O(k log(m/B)).
  @inlinable
  package mutating func _combineAncestors(ofBlock p: Int) {
    let k = self.k
    let s = spacing
    var i = (_leaves &+ p) &>> 1
    // Both buffers opened once for the whole path (a measurement's cost).
    _counts.withUnsafeMutableBufferPointer { counts in
      _summaries.withUnsafeMutableBufferPointer { n in
        while i >= 1 {
          Self._combine(i, k: k, spacing: s, counts: counts, summaries: n)
          i &>>= 1
        }
      }
    }
  }

  /// The summary of the whole body, from its first row (phase 0).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var total: _LineSummary { _summaries[k] }

  /// The body's pitch: every line's longest row plus spacing.
  /// - Complexity: O(1).
  @inlinable
  package var pitch: Int64 { total.closedPitch(spacing: spacing) }

  /// The number of lines.
  /// - Complexity: O(1).
  @inlinable
  package var lineCount: Int { (count &+ k &- 1) / k }

  /// The summary of the first `b` blocks, from the body's first row.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func _prefix(blocks b: Int) -> _LineSummary {
    if b >= _leaves { return total }
    var acc = _LineSummary.empty
    var rows = 0
    var node = 1
    var low = 0
    var width = _leaves
    while width > 1 {
      let half = width &>> 1
      if b >= low &+ half {
        acc = acc.then(_summaries[2 &* node &* k &+ rows % k], spacing: spacing)
        rows &+= _counts[2 &* node]
        node = 2 &* node &+ 1
        low &+= half
      } else {
        node = 2 &* node
      }
      width = half
    }
    return acc
  }

  /// The start of line `line` (pitch from the body's start).
  /// - Precondition: `0 <= line <= lineCount`.
  /// - Complexity: O(log(m/B) + B).
  @inlinable
  package func lineStart(_ line: Int) -> Int64 {
    precondition(line >= 0 && line <= lineCount, "_GridLines: line \(line) out of range")
    let first = Swift.min(line &* k, count)
    if first == count { return pitch }
    let (b, slot) = blocks.locate(first)
    var acc = _prefix(blocks: b)
    let rows = blocks.rows(before: b)
    // The rows of block b before `first`: close lines as they open.
    let e = blocks.extents[b]
    var lane = rows % k
    for t in 0 ..< slot {
      let x = Int64(e[t])
      if lane == 0 {
        if acc.tail >= 0 { acc.lines &+= acc.tail &+ spacing }
        acc.tail = x
      } else {
        acc.tail = Swift.max(acc.tail, x)
      }
      lane &+= 1
      if lane == k { lane = 0 }
    }
    return acc.closedPitch(spacing: spacing)
  }

  /// The longest row of line `line`.
  /// - Precondition: `0 <= line < lineCount`.
  /// - Complexity: O(k + log(m/B)).
  @inlinable
  package func lineExtent(_ line: Int) -> Int64 {
    precondition(line >= 0 && line < lineCount, "_GridLines: line \(line) out of range")
    var (b, slot) = blocks.locate(line &* k)
    var left = Swift.min(k, count &- line &* k)
    var longest: Int64 = 0
    while left > 0 {
      let e = blocks.extents[b]
      let end = Swift.min(e.count, slot &+ left)
      for t in slot ..< end { longest = Swift.max(longest, Int64(e[t])) }
      left &-= end &- slot
      b &+= 1
      slot = 0
    }
    return longest
  }

  /// The line whose pitch holds `y` (pitch from the body's start): the
  /// first line whose start plus pitch is after `y`, or the last line; nil
  /// when there are no rows.
  /// - Complexity: O(log(m/B) + B).
  @inlinable
  package func line(atPitch y: Int64) -> Int? {
    _line(atPitch: y)?.line
  }

  /// `line(atPitch:)` with that line's start (`lineStart(_:)`), found by
  /// the same descent.
  /// - Complexity: O(log(m/B) + B).
  @inlinable
  package func _line(atPitch y: Int64) -> (line: Int, start: Int64)? {
    guard count > 0 else { return nil }
    // Before the body: its first line (the descent below assumes that no
    // blocks end at or before y).
    guard y >= 0 else { return (0, 0) }
    // The most blocks whose closed lines end at or before y.
    var acc = _LineSummary.empty
    var rows = 0
    var node = 1
    var width = _leaves
    var low = 0
    while width > 1 {
      let half = width &>> 1
      let candidate = acc.then(_summaries[2 &* node &* k &+ rows % k], spacing: spacing)
      if candidate.lines <= y {
        acc = candidate
        rows &+= _counts[2 &* node]
        node = 2 &* node &+ 1
        low &+= half
      } else {
        node = 2 &* node
      }
      width = half
    }
    // Block `low` closes the line: walk it.
    if low < blocks.blockCount {
      let e = blocks.extents[low]
      var lane = rows % k
      for t in 0 ..< e.count {
        let x = Int64(e[t])
        if lane == 0 {
          if acc.tail >= 0 {
            // The line that closes here started after every closed line.
            if acc.lines &+ acc.tail &+ spacing > y { return ((rows &+ t) / k &- 1, acc.lines) }
            acc.lines &+= acc.tail &+ spacing
          }
          acc.tail = x
        } else {
          acc.tail = Swift.max(acc.tail, x)
        }
        lane &+= 1
        if lane == k { lane = 0 }
      }
    }
    return (lineCount &- 1, lineStart(lineCount &- 1))
  }

  /// Row `i`'s start (pitch from the body's start): its line's start plus
  /// `alignment` (0...1) of what its line has to spare (SPEC L3).
  /// - Complexity: O(k + log(m/B) + B).
  @inlinable
  package func start(at i: Int, alignment: CGFloat) -> Int64 {
    precondition(i >= 0 && i < count, "_GridLines: row \(i) out of range 0..<\(count)")
    let line = i / k
    let lineStart = lineStart(line)
    guard alignment > 0 else { return lineStart }
    return lineStart &+ _FixedPoint.scale(lineExtent(line) &- blocks.extent(at: i), by: alignment)
  }

  /// Row `i`'s extent, in units.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func extent(at i: Int) -> Int64 { blocks.extent(at: i) }

  /// Sets row `i`'s extent (units): in each phase only the line that
  /// holds the row changes, so its block's summaries are updated in O(k)
  /// each, not recomputed from the block's rows, and the nodes above it
  /// mostly by adding the line's change (`_propagate`).
  /// - Complexity: O(k (k + log(m/B))).
  @inlinable
  package mutating func setExtent(_ units: Int64, at i: Int) {
    let (b, slot) = blocks.locate(i)
    let old = Int64(blocks.extents[b][slot])
    blocks.extents[b][slot] = Int32(truncatingIfNeeded: units)
    withUnsafeTemporaryAllocation(of: Int64.self, capacity: 2 &* k) { scratch in
      let changes = scratch.baseAddress.unsafelyUnwrapped
      _updateLeaf(b, slot: slot, from: old, changes: changes)
      _propagate(fromBlock: b, changes: changes, spare: changes + k)
    }
  }

  /// A phase's summary changed in more than its `lines` (`_propagate`).
  @inlinable @inline(__always)
  package static var _reshaped: Int64 { .min }

  /// Block `p`'s summaries after row `t` of it went from `old` to the
  /// extent it has now (`_summarizeLeaf`'s result, from the line that
  /// holds the row in each phase). `changes[phase]`: how much the phase's
  /// `lines` moved when that is all that changed (0: nothing), else
  /// `_reshaped` (its head or tail changed).
  /// - Complexity: O(k²).
  @inlinable
  package mutating func _updateLeaf(_ p: Int, slot t: Int, from old: Int64, changes: UnsafeMutablePointer<Int64>) {
    let node = _leaves &+ p
    let k = self.k
    blocks.extents[p].withUnsafeBufferPointer { e in
      let n = e.count
      let new = Int64(e[t])
      _summaries.withUnsafeMutableBufferPointer { out in
        for phase in 0 ..< k {
          let j = node &* k &+ phase
          // The block's first line starts at its first row of lane 0.
          let first = (k &- phase) % k
          if t < first {
            // Before it: the head, the longest of those rows.
            var head: Int64 = -1
            for u in 0 ..< Swift.min(first, n) { head = Swift.max(head, Int64(e[u])) }
            changes[phase] = out[j].head == head ? 0 : Self._reshaped
            out[j].head = head
            continue
          }
          let start = t &- (t &- first) % k
          if start &+ k >= n {
            // The last line the block opens: its tail.
            var tail: Int64 = 0
            for u in start ..< n { tail = Swift.max(tail, Int64(e[u])) }
            changes[phase] = out[j].tail == tail ? 0 : Self._reshaped
            out[j].tail = tail
          } else {
            // A line the block closes: its pitch moves by its longest row's change.
            var others: Int64 = 0
            for u in start ..< start &+ k where u != t { others = Swift.max(others, Int64(e[u])) }
            let change = Swift.max(others, new) &- Swift.max(others, old)
            changes[phase] = change
            out[j].lines &+= change
          }
        }
      }
    }
  }

  /// The nodes above block `p`'s leaf after its summaries changed by
  /// `changes` (`_updateLeaf`'s; `spare`: room for k more). A change of
  /// `lines` alone passes up unchanged: a run's `lines` enter its
  /// parent's as they are whenever they are not 0 (`_LineSummary.then`),
  /// so the parent's phase moves by the same amount; a phase that
  /// changed more is combined from its children, and passes up only what
  /// changed in it. The walk stops where nothing changed.
  /// - Complexity: O(k log(m/B)).
  @inlinable
  package mutating func _propagate(fromBlock p: Int, changes: UnsafeMutablePointer<Int64>,
                                   spare: UnsafeMutablePointer<Int64>) {
    let k = self.k
    let s = spacing
    var changes = changes
    var spare = spare
    var node = _leaves &+ p
    var moving = false
    for phase in 0 ..< k where changes[phase] != 0 { moving = true }
    _counts.withUnsafeBufferPointer { counts in
      _summaries.withUnsafeMutableBufferPointer { n in
        while moving && node > 1 {
          let parent = node &>> 1
          let left = node & ~1
          // The parent's phase q reads the left child at q and the right
          // child at q + the left child's rows (mod k).
          let shift = counts[left] % k
          if node != left {
            for q in 0 ..< k {
              var r = q &+ shift
              if r >= k { r &-= k }
              spare[q] = changes[r]
            }
            swap(&changes, &spare)
          }
          moving = false
          let base = parent &* k
          for q in 0 ..< k {
            let change = changes[q]
            if change == 0 { continue }
            moving = true
            if change != Self._reshaped {
              n[base &+ q].lines &+= change
              continue
            }
            let was = n[base &+ q]
            var r = q &+ shift
            if r >= k { r &-= k }
            let now = n[left &* k &+ q].then(n[(left &+ 1) &* k &+ r], spacing: s)
            n[base &+ q] = now
            changes[q] = was.head == now.head && was.tail == now.tail ? now.lines &- was.lines : Self._reshaped
          }
          node = parent
        }
      }
    }
  }

  /// Inserts rows (extents in units) at `i`: every later row moves on by
  /// their number of cells, and only their block's summaries change.
  /// - Complexity: O(r + B + k log(m/B)), plus O(k w) when a block splits
  ///   into a spare w positions away, O(k m/B) when none is near.
  @inlinable
  package mutating func insert(_ extents: some Collection<Int64>, at i: Int) {
    let wasEmpty = blocks.blockCount == 0
    let blockCount = blocks.blockCount
    let (b, split) = blocks.insert(extents: extents, lanes: nil, at: i)
    if wasEmpty {
      _rebuildTree()
      return
    }
    switch split {
    case .none: _refresh(block: b)
    case .spliced: _replaceLeaves(b ..< b &+ 1, count: blocks.blockCount &- blockCount &+ 1)
    case .shifted(let span, let sources): _shiftLeaves(span, sources: sources)
    }
  }

  /// After a split into a spare (`_LaneBlocks._splitIntoSpare`): the
  /// leaves of `span` take the leaves of their blocks' old positions
  /// (`sources`; a leaf's summaries do not depend on its position), the
  /// two halves' leaves are summarized from their rows, and only the
  /// nodes above the span are combined again.
  /// - Complexity: O(B + k (w + log(m/B))) for a span of w positions.
  @inlinable
  @inline(never)
  package mutating func _shiftLeaves(_ span: Range<Int>, sources: [Int]) {
    let k = self.k
    let oldCounts = Array(_counts[(_leaves &+ span.lowerBound) ..< (_leaves &+ span.upperBound)])
    let oldSummaries = Array(_summaries[(_leaves &+ span.lowerBound) &* k ..< (_leaves &+ span.upperBound) &* k])
    for (q, source) in sources.enumerated() where source >= 0 {
      let from = source &- span.lowerBound
      let node = _leaves &+ span.lowerBound &+ q
      _counts[node] = oldCounts[from]
      for e in 0 ..< k { _summaries[node &* k &+ e] = oldSummaries[from &* k &+ e] }
    }
    for (q, source) in sources.enumerated() where source < 0 { _summarizeLeaf(span.lowerBound &+ q) }
    var low = (_leaves &+ span.lowerBound) &>> 1
    var high = (_leaves &+ span.upperBound &- 1) &>> 1
    while low >= 1 {
      for i in low ... high { _combineNode(i) }
      low &>>= 1
      high &>>= 1
    }
  }

  /// After the blocks at `old` were replaced by `count` blocks (a split, or
  /// a tidy after a removal): the later leaves move by the difference, the
  /// new blocks' leaves are summarized from their rows, and the nodes above
  /// the moved leaves are combined again; the tree takes twice or half the
  /// leaves when `_rebuildTree` would, keeping the leaves' summaries. No
  /// other block's rows are read (`_rebuildTree` reads every row).
  /// - Complexity: O(B c + k m/B) for c new blocks, the O(k m/B) part
  ///   sequential.
  @inlinable
  @inline(never)
  package mutating func _replaceLeaves(_ old: Range<Int>, count: Int) {
    let k = self.k
    let n = blocks.blockCount
    let before = n &- count &+ old.count  // leaves in use before
    var target = 1
    while target < n { target &<<= 1 }
    var from = old.lowerBound  // the first leaf whose ancestors change
    if target > _leaves {
      _relayout(leaves: target, keeping: before, combining: false)
      from = 0
    }
    // The later leaves move by `delta`, copied away from the side they move to.
    let delta = count &- old.count
    let first = _leaves &+ old.upperBound
    let end = _leaves &+ before
    _summaries.withUnsafeMutableBufferPointer { nodes in
      _counts.withUnsafeMutableBufferPointer { counts in
        if delta > 0 {
          var leaf = end
          while leaf > first {
            leaf &-= 1
            counts[leaf &+ delta] = counts[leaf]
            for e in 0 ..< k { nodes[(leaf &+ delta) &* k &+ e] = nodes[leaf &* k &+ e] }
          }
        } else if delta < 0 {
          for leaf in first ..< end {
            counts[leaf &+ delta] = counts[leaf]
            for e in 0 ..< k { nodes[(leaf &+ delta) &* k &+ e] = nodes[leaf &* k &+ e] }
          }
          for leaf in (end &+ delta) ..< end {
            counts[leaf] = 0
            for e in 0 ..< k { nodes[leaf &* k &+ e] = .empty }
          }
        }
      }
    }
    for p in old.lowerBound ..< old.lowerBound &+ count { _summarizeLeaf(p) }
    if target < _leaves {
      _relayout(leaves: target, keeping: n, combining: true)
      return
    }
    // Every node above a leaf from `from` on, level by level.
    var low = (_leaves &+ from) &>> 1
    var high = (_leaves &+ Swift.max(1, Swift.max(n, before)) &- 1) &>> 1
    while low >= 1 {
      for i in low ... high { _combineNode(i) }
      low &>>= 1
      high &>>= 1
    }
  }

  /// Moves the first `used` leaves into a tree of `leaves` leaves (the rest
  /// empty), and combines its nodes when `combining`.
  /// - Complexity: O(k leaves + k used).
  @inlinable
  package mutating func _relayout(leaves: Int, keeping used: Int, combining: Bool) {
    let k = self.k
    var summaries = ContiguousArray<_LineSummary>(repeating: .empty, count: 2 &* leaves &* k)
    var counts = ContiguousArray<Int>(repeating: 0, count: 2 &* leaves)
    summaries[leaves &* k ..< (leaves &+ used) &* k] = _summaries[_leaves &* k ..< (_leaves &+ used) &* k]
    counts[leaves ..< leaves &+ used] = _counts[_leaves ..< _leaves &+ used]
    (_leaves, _summaries, _counts) = (leaves, summaries, counts)
    guard combining else { return }
    var i = leaves &- 1
    while i >= 1 {
      _combineNode(i)
      i &-= 1
    }
  }

  /// Removes the rows `range`.
  /// - Complexity: O(r + (r/B + 1) (B + k log(m/B))), plus O(k m/B) when
  ///   blocks empty or merge.
  @inlinable
  package mutating func remove(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    let (touched, reshaped) = blocks.remove(range)
    switch reshaped {
    case nil: for p in touched where !blocks.extents[p].isEmpty { _refresh(block: p) }
    case .spliced(let old, let new)?: _replaceLeaves(old, count: new.count)
    case .shifted(let span, let sources)?: _shiftLeaves(span, sources: sources)
    }
  }
}

extension _GridLines {
  /// Calls `body` with each line from `line` on, in order: its index, its
  /// start (pitch from the body's start), its longest row and its rows,
  /// until `body` returns false or the lines end.
  /// - Complexity: O(log(m/B) + B) to find the first line, then O(k) a line.
  @inlinable
  package func forEachLine(from line: Int,
                           _ body: (_ line: Int, _ start: Int64, _ extent: Int64, _ rows: Range<Int>) -> Bool) {
    guard line >= 0 && line < lineCount else { return }
    var start = lineStart(line)
    var (b, slot) = blocks.locate(line &* k)
    var l = line
    while l < lineCount {
      let first = l &* k
      let end = Swift.min(count, first &+ k)
      let longest = _readLine(end &- first, block: &b, slot: &slot, copyTo: nil)
      if !body(l, start, longest, first ..< end) { return }
      start &+= longest &+ spacing
      l &+= 1
    }
  }

  /// The longest of the `n` rows from slot `slot` of block `b` on (across
  /// blocks), each extent copied to `copy` when one is given; moves
  /// `(b, slot)` past them.
  /// - Complexity: O(n).
  @inlinable @inline(__always)
  package func _readLine(_ n: Int, block b: inout Int, slot: inout Int,
                         copyTo copy: UnsafeMutablePointer<Int32>?) -> Int64 {
    var longest: Int64 = 0
    var filled = 0
    while filled < n {
      blocks.extents[b].withUnsafeBufferPointer { e in
        let stop = Swift.min(e.count, slot &+ (n &- filled))
        for t in slot ..< stop {
          copy?[filled] = e[t]
          filled &+= 1
          longest = Swift.max(longest, Int64(e[t]))
        }
        slot = stop
        if slot == e.count {
          b &+= 1
          slot = 0
        }
      }
    }
    return longest
  }

  /// The rows that meet `[low, high)` (pitch from the body's start), in
  /// index order, by SPEC G5's rule on each row's own span (a row shorter
  /// than its line, aligned in it, may miss a window its line meets).
  /// - Complexity: O(log(m/B) + B + k v) for v lines met.
  @inlinable
  package func rows(meeting low: Int64, _ high: Int64, alignment: CGFloat) -> [Int] {
    var sink = _RowSink()
    appendSpans(meeting: low, high, alignment: alignment, rowBase: 0, startBase: 0, to: &sink)
    return sink.take()
  }

  /// Appends the spans (row, start, extent) of `rows(meeting:_:alignment:)`
  /// to `result`, each row moved on by `rowBase` and each start by
  /// `startBase` (the body's place in the layout): no array of its own.
  @inlinable @inline(never)  // its own function, as the walk is compiled best
  package func appendSpans(meeting low: Int64, _ high: Int64, alignment: CGFloat, rowBase: Int, startBase: Int64,
                           to result: inout some _SpanSink) {
    // From the first line that ends at or after `low`: an empty row that
    // starts at `low` meets the window, and so may a line of empty rows.
    guard low < high, let (firstLine, firstStart) = _line(atPitch: low &- 1) else { return }
    let k = self.k
    let count = self.count
    let spacing = self.spacing
    var i = firstLine &* k
    var (b, slot) = blocks.locate(i)
    var start = firstStart
    // The line of `n` extents at `start`, whose longest is `longest`: its
    // rows that meet the window, each at its place in the line.
    @inline(__always) func emit(_ extents: UnsafePointer<Int32>, _ n: Int, _ longest: Int64) {
      for t in 0 ..< n {
        let e = Int64(extents[t])
        let s = alignment == 0 ? start : start &+ _FixedPoint.scale(longest &- e, by: alignment)
        if e > 0 ? (s < high && s &+ e > low) : (s >= low && s < high) {
          result.append(_LaneSpan(row: rowBase &+ i &+ t, start: startBase &+ s, extent: e))
        }
      }
    }
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: k) { gathered in
      let line = gathered.baseAddress.unsafelyUnwrapped
      while i < count {
        // The lines that lie in block `b`, read in place.
        let done = blocks.extents[b].withUnsafeBufferPointer { e -> Bool in
          guard !e.isEmpty else { return false }  // a spare: on to the next block
          let base = e.baseAddress.unsafelyUnwrapped
          while i < count {
            let n = Swift.min(k, count &- i)
            if slot &+ n > e.count { return false }
            if start >= high { return true }
            var longest: Int64 = 0
            for t in slot ..< slot &+ n { longest = Swift.max(longest, Int64(base[t])) }
            emit(base + slot, n, longest)
            start &+= longest &+ spacing
            i &+= n
            slot &+= n
          }
          return true
        }
        if done || i >= count { return }
        if slot == blocks.extents[b].count {
          b &+= 1
          slot = 0
          continue
        }
        // A line across blocks: gathered first.
        let n = Swift.min(k, count &- i)
        let longest = _readLine(n, block: &b, slot: &slot, copyTo: line)
        if start >= high { return }
        emit(line, n, longest)
        start &+= longest &+ spacing
        i &+= n
      }
    }
  }

  /// The row of lane `lane` whose span holds `y` (pitch from the body's
  /// start), or nil: SPEC L5's hit test within the body.
  /// - Complexity: O(k + log(m/B) + B).
  @inlinable
  package func row(atPitch y: Int64, lane: Int, alignment: CGFloat) -> Int? {
    guard lane >= 0 && lane < k, let line = line(atPitch: y) else { return nil }
    let i = line &* k &+ lane
    guard i < count else { return nil }
    let s = start(at: i, alignment: alignment)
    let e = extent(at: i)
    return s <= y && y < s &+ e ? i : nil
  }
}

extension _GridLines {
  /// The last row of lane `lane` with an extent above zero, or nil.
  /// - Complexity: O(log(m/B)) a line passed, from the end.
  @inlinable
  package func lastNonEmptyRow(inLane lane: Int) -> Int? {
    guard lane < k, count > lane else { return nil }
    var i = (count &- 1 &- lane) / k &* k &+ lane
    while i >= 0 {
      if extent(at: i) > 0 { return i }
      i &-= k
    }
    return nil
  }
}

/// An array of `elements`, built through `reserveCapacity` and
/// `append(contentsOf:)`, which the compiler specializes for the element
/// type; `Array(unsafeUninitializedCapacity:initializingWith:)` allocates
/// through a generic entry point of the standard library that looks the
/// array's storage type up at run time, several hundred instructions an
/// array (callgrind, Swift 6.3 on Linux).
/// - Complexity: O(`elements.count`).
@inlinable
package func _makeArray<Element>(_ elements: UnsafeBufferPointer<Element>) -> [Element] {
  var array: [Element] = []
  guard !elements.isEmpty else { return array }
  array.reserveCapacity(elements.count)
  array.append(contentsOf: elements)
  return array
}

/// Memory for `capacity` values of a trivial type (no references,
/// alignment at most 16), from `malloc`, which
/// aligns to 16 bytes: `UnsafeMutablePointer.allocate` asks the runtime
/// for aligned memory (`posix_memalign` on Linux, several times the
/// instructions of `malloc`). Free it with `_freeTrivial`.
/// - Complexity: O(1).
@inlinable @inline(__always)
package func _mallocTrivial<T>(_: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
  guard let raw = malloc(Swift.max(1, capacity) &* MemoryLayout<T>.stride) else {
    fatalError("LazyStackCore: out of memory for \(capacity) values of \(T.self)")
  }
  return raw.bindMemory(to: T.self, capacity: capacity)
}

/// Frees memory from `_mallocTrivial`.
/// - Complexity: O(1).
@inlinable @inline(__always)
package func _freeTrivial<T>(_ pointer: UnsafeMutablePointer<T>) {
  free(UnsafeMutableRawPointer(pointer))
}
