import Foundation

// SPEC L3, L8 in a grid body: a measurement changes one line a phase;
// an insert or a removal re-summarizes its blocks (all k phases in one
// pass) and the tree above them.

extension _GridLines {
  /// Sets row `i`'s extent (units; `_LaneBlocks.followsEstimate`: kind
  /// 0's): in each phase only the line that holds the row changes, so its
  /// block's summaries are updated in O(k) each, not recomputed from the
  /// block's rows, and the nodes above it mostly by adding the line's
  /// change (`_propagate`).
  /// - Complexity: O(k (k + log(m/B))).
  @inlinable
  package mutating func setExtent(_ units: Int64, at i: Int) {
    let (b, slot) = blocks.locate(i)
    let stored = blocks.extents[b][slot]
    let new = Int32(truncatingIfNeeded: units)
    guard new != stored else { return }
    let old = _value(stored)
    blocks.extents[b][slot] = new
    let following = (new < 0 ? 1 : 0) &- (stored < 0 ? 1 : 0) as Int32
    if following != 0 {
      var node = _leaves &+ b
      while node >= 1 {
        _estimatedRows[node] &+= following
        node &>>= 1
      }
    }
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
    let e0 = estimate
    blocks.extents[p].withUnsafeBufferPointer { x in
      @inline(__always) func e(_ u: Int) -> Int64 { x[u] < 0 ? e0 : Int64(x[u]) }
      let n = x.count
      let new = e(t)
      _summaries.withUnsafeMutableBufferPointer { out in
        for phase in 0 ..< k {
          let j = node &* k &+ phase
          // The block's first line starts at its first row of lane 0.
          let first = (k &- phase) % k
          if t < first {
            // Before it: the head, the longest of those rows.
            var head: Int64 = -1
            for u in 0 ..< Swift.min(first, n) { head = Swift.max(head, e(u)) }
            changes[phase] = out[j].head == head ? 0 : Self._reshaped
            out[j].head = head
            continue
          }
          let start = t &- (t &- first) % k
          if start &+ k >= n {
            // The last line the block opens: its tail.
            var tail: Int64 = 0
            for u in start ..< n { tail = Swift.max(tail, e(u)) }
            changes[phase] = out[j].tail == tail ? 0 : Self._reshaped
            out[j].tail = tail
          } else {
            // A line the block closes: its pitch moves by its longest row's change.
            var others: Int64 = 0
            for u in start ..< start &+ k where u != t { others = Swift.max(others, e(u)) }
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
    let oldEstimated = Array(_estimatedRows[(_leaves &+ span.lowerBound) ..< (_leaves &+ span.upperBound)])
    let oldSummaries = Array(_summaries[(_leaves &+ span.lowerBound) &* k ..< (_leaves &+ span.upperBound) &* k])
    for (q, source) in sources.enumerated() where source >= 0 {
      let from = source &- span.lowerBound
      let node = _leaves &+ span.lowerBound &+ q
      _counts[node] = oldCounts[from]
      _estimatedRows[node] = oldEstimated[from]
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
        _estimatedRows.withUnsafeMutableBufferPointer { estimated in
          if delta > 0 {
            var leaf = end
            while leaf > first {
              leaf &-= 1
              counts[leaf &+ delta] = counts[leaf]
              estimated[leaf &+ delta] = estimated[leaf]
              for e in 0 ..< k { nodes[(leaf &+ delta) &* k &+ e] = nodes[leaf &* k &+ e] }
            }
          } else if delta < 0 {
            for leaf in first ..< end {
              counts[leaf &+ delta] = counts[leaf]
              estimated[leaf &+ delta] = estimated[leaf]
              for e in 0 ..< k { nodes[(leaf &+ delta) &* k &+ e] = nodes[leaf &* k &+ e] }
            }
            for leaf in (end &+ delta) ..< end {
              counts[leaf] = 0
              estimated[leaf] = 0
              for e in 0 ..< k { nodes[leaf &* k &+ e] = .empty }
            }
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
    var estimated = ContiguousArray<Int32>(repeating: 0, count: 2 &* leaves)
    summaries[leaves &* k ..< (leaves &+ used) &* k] = _summaries[_leaves &* k ..< (_leaves &+ used) &* k]
    counts[leaves ..< leaves &+ used] = _counts[_leaves ..< _leaves &+ used]
    estimated[leaves ..< leaves &+ used] = _estimatedRows[_leaves ..< _leaves &+ used]
    (_leaves, _summaries, _counts, _estimatedRows) = (leaves, summaries, counts, estimated)
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
