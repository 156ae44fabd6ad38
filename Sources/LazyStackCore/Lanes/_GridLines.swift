import Foundation

// SPEC L3 and L8 for one grid section body: lines of k rows whose extent is
// their longest row's, kept so that an insert that shifts every later cell
// to the next lane costs O(r + k (B + log m)), not O(m).

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
/// - A row whose extent is kind 0's estimate (SPEC X2, K1) is stored as
///   `_LaneBlocks.followsEstimate` and read as `estimate`; each node counts
///   its rows that do. A change of that estimate writes no row: only the
///   leaves with such rows are summarized again (from their row count
///   alone where every row follows it), and the nodes above them.
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
  /// Node `i`'s rows that follow kind 0's estimate.
  @usableFromInline package var _estimatedRows: ContiguousArray<Int32>
  /// Kind 0's estimate (units): the extent of the rows stored as
  /// `_LaneBlocks.followsEstimate`.
  @usableFromInline package private(set) var estimate: Int64

  /// A grid body of `extents` (units; `_LaneBlocks.followsEstimate`: kind
  /// 0's `estimate`) with `k` lanes and `spacing` after each line.
  /// - Complexity: O(k m).
  @inlinable
  package init(extents: some Collection<Int64>, lanes k: Int, spacing: Int64, estimate: Int64, blockCapacity: Int? = nil) {
    precondition(k >= 1 && k <= _LaneBlocks.maxLanes, "_GridLines: lane count \(k) out of range")
    self.k = k
    self.spacing = spacing
    self.estimate = estimate
    let capacity = blockCapacity ?? _LaneBlocks.defaultCapacity(rows: extents.count, lanes: k, base: 128)
    blocks = _LaneBlocks(extents: extents, lanes: nil, capacity: capacity)
    _leaves = 1
    _summaries = []
    _counts = []
    _estimatedRows = []
    _rebuildTree()
  }

  /// The number of rows.
  @inlinable @inline(__always)
  package var count: Int { blocks.count }

  /// The extent (units) of a row stored as `x`.
  @inlinable @inline(__always)
  package func _value(_ x: Int32) -> Int64 { x < 0 ? estimate : Int64(x) }

  /// Sets kind 0's estimate (units): every row that follows it moves, and
  /// none is written. A leaf whose rows all follow it is summarized from
  /// its row count, one that mixes them with others from its rows, and
  /// the nodes above them are combined again. Returns how far the rows
  /// that follow it moved altogether (the change times their number).
  /// - Complexity: O(m/B + k l + B x) for the l leaves with such rows, x
  ///   of them mixed with other rows.
  @inlinable @discardableResult
  package mutating func setEstimate(_ units: Int64) -> Int64 {
    let change = units &- estimate
    guard change != 0 else { return 0 }
    estimate = units
    let following = _estimatedRows[1]
    guard following > 0 else { return 0 }
    for p in 0 ..< blocks.blockCount {
      let rows = _estimatedRows[_leaves &+ p]
      guard rows > 0 else { continue }
      if Int(rows) == _counts[_leaves &+ p] { _summarizeEstimatedLeaf(p) } else { _summarizeLeaf(p) }
    }
    var i = _leaves &- 1
    while i >= 1 {
      if _estimatedRows[i] > 0 { _combineNode(i) }
      i &-= 1
    }
    return change &* Int64(following)
  }

  /// Block `p`'s summaries when every row of it follows the estimate: at
  /// each phase its lines open at rows `r, r + k, …` (`r = (k - phase) %
  /// k`), each `estimate` long, the rows before `r` its head.
  /// - Complexity: O(k).
  @inlinable
  package mutating func _summarizeEstimatedLeaf(_ p: Int) {
    let node = _leaves &+ p
    let c = _counts[node]
    let e = estimate
    for phase in 0 ..< k {
      let r = phase == 0 ? 0 : k &- phase
      let opened = r < c ? (c &- r &+ k &- 1) / k : 0
      _summaries[node &* k &+ phase] = _LineSummary(head: Swift.min(r, c) > 0 ? e : -1,
                                                    lines: Int64(Swift.max(0, opened &- 1)) &* (e &+ spacing),
                                                    tail: opened > 0 ? e : -1)
    }
  }

  /// Rebuilds every node from the blocks.
  /// - Complexity: O(k m).
  @inlinable
  package mutating func _rebuildTree() {
    var leaves = 1
    while leaves < blocks.blockCount { leaves &<<= 1 }
    _leaves = leaves
    _summaries = ContiguousArray(repeating: .empty, count: 2 &* leaves &* k)
    _counts = ContiguousArray(repeating: 0, count: 2 &* leaves)
    _estimatedRows = ContiguousArray(repeating: 0, count: 2 &* leaves)
    for p in 0 ..< blocks.blockCount { _summarizeLeaf(p) }
    var i = leaves &- 1
    while i >= 1 {
      _combineNode(i)
      i &-= 1
    }
  }

  /// Recomputes block `p`'s leaf: its counts and its summary at each phase.
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
    let e0 = estimate
    _estimatedRows[node] = blocks.extents[p].withUnsafeBufferPointer { x in
      var rows: Int32 = 0
      for t in 0 ..< x.count where x[t] < 0 { rows &+= 1 }
      return rows
    }
    blocks.extents[p].withUnsafeBufferPointer { x in
      let c = x.count
      @inline(__always) func e(_ t: Int) -> Int64 { x[t] < 0 ? e0 : Int64(x[t]) }
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
            if r < c { m = Swift.max(m, e(r)) }
            lines[r] = 0
            tail[r] = -1
          }
          var a = 0
          while a < c {
            let end = Swift.min(a &+ k, c)
            var i = end &- a &- 1
            m = e(end &- 1)
            while i >= 0 {
              m = Swift.max(m, e(a &+ i))
              backward[i] = m
              i &-= 1
            }
            var ahead: Int64 = -1  // the longest of the next stretch's rows in the window
            let next = a &+ k
            let reach = c &- next  // the window from offset r reaches next stretch rows 0 ..< min(r, reach)
            for r in 0 ..< (end &- a) {
              if r > 0 && r <= reach { ahead = Swift.max(ahead, e(next &+ r &- 1)) }
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
      for x in e.lazy.map(_value) {
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
      _estimatedRows.withUnsafeMutableBufferPointer { estimated in
        _summaries.withUnsafeMutableBufferPointer { n in
          Self._combine(i, k: k, spacing: s, counts: counts, estimated: estimated, summaries: n)
        }
      }
    }
  }

  /// Node `i` from its two children, in the tree's buffers: a node's
  /// counts, and at each phase its left child's summary then its right
  /// child's at the phase the left child ends at.
  /// - Complexity: O(k).
  @inlinable @inline(__always)
  package static func _combine(_ i: Int, k: Int, spacing s: Int64, counts: UnsafeMutableBufferPointer<Int>,
                               estimated: UnsafeMutableBufferPointer<Int32>,
                               summaries n: UnsafeMutableBufferPointer<_LineSummary>) {
    let left = 2 &* i
    let leftCount = counts[left]
    counts[i] = leftCount &+ counts[left &+ 1]
    estimated[i] = estimated[left] &+ estimated[left &+ 1]
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
    // The buffers opened once for the whole path (a measurement's cost).
    _counts.withUnsafeMutableBufferPointer { counts in
      _estimatedRows.withUnsafeMutableBufferPointer { estimated in
        _summaries.withUnsafeMutableBufferPointer { n in
          while i >= 1 {
            Self._combine(i, k: k, spacing: s, counts: counts, estimated: estimated, summaries: n)
            i &>>= 1
          }
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
      let x = _value(e[t])
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
      for t in slot ..< end { longest = Swift.max(longest, _value(e[t])) }
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
        let x = _value(e[t])
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
    return lineStart &+ _FixedPoint.scale(lineExtent(line) &- _value(blocks.stored(at: i)), by: alignment)
  }

  /// Row `i`'s extent, in units.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func extent(at i: Int) -> Int64 { _value(blocks.stored(at: i)) }
}
