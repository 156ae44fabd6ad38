// SPEC L4 and L8 for one masonry section body: each row keeps a lane, and
// starts where the row before it in its lane ends. Per block, a pitch sum
// and a row count for each lane, in a Fenwick tree of k-vectors (DESIGN §2).

/// The body of one masonry section (SPEC L4): its rows' extents and lanes
/// in blocks, and a Fenwick tree over the blocks whose leaves are each
/// block's pitch (extent plus spacing) and row count per lane.
///
/// Positions are in pitch from the body's start: a row starts at the sum
/// of the pitches of the rows before it in its lane.
///
/// A row whose extent is kind 0's estimate (SPEC X2, K1: unmeasured, of a
/// kind with no estimate of its own, without one of its own) is stored as
/// `_LaneBlocks.followsEstimate`, and its extent read as `estimate`: a
/// change of that estimate writes no row (`setEstimate(_:)`).
/// - A measurement is one Fenwick update in one lane: O(log(m/B)).
/// - An insert of r rows places them by L4's rule from the lanes' ends
///   just before the insertion point: O(r k + k (B + log(m/B))).
/// - A row's start is one prefix in its lane and one block scan:
///   O(log(m/B) + B).
@usableFromInline
package struct _MasonryLanes: Sendable {
  /// The rows.
  @usableFromInline package var blocks: _LaneBlocks
  /// The lanes (1...256).
  @usableFromInline package let k: Int
  /// The spacing after each row, in units.
  @usableFromInline package let spacing: Int64
  /// The Fenwick tree of each block's pitch per lane: node `i` (1-based)
  /// at `[i * k, (i + 1) * k)`.
  @usableFromInline package var _pitches: ContiguousArray<Int64>
  /// The Fenwick tree of each block's row count per lane, node for node
  /// beside `_pitches`.
  @usableFromInline package var _counts: ContiguousArray<Int32>
  /// Each lane's pitch over the whole body.
  @usableFromInline package var laneTotals: ContiguousArray<Int64>
  /// The Fenwick tree of each block's rows per lane that follow kind 0's
  /// estimate, node for node beside `_pitches`.
  @usableFromInline package var _estimated: ContiguousArray<Int32>
  /// Kind 0's estimate (units): the extent of the rows stored as
  /// `_LaneBlocks.followsEstimate`.
  @usableFromInline package private(set) var estimate: Int64

  /// A masonry body of `extents` (units; `_LaneBlocks.followsEstimate`:
  /// kind 0's `estimate`) with `k` lanes and `spacing` after each row.
  /// With `lanes` nil, every row is placed by L4's rule in index order (a
  /// re-flow); else each row keeps the lane given.
  /// - Complexity: O(k m).
  @inlinable
  package init(extents: some Collection<Int64>, lanes given: [Int]?, lanes k: Int, spacing: Int64, estimate: Int64,
               blockCapacity: Int? = nil)
  {
    precondition(k >= 1 && k <= _LaneBlocks.maxLanes, "_MasonryLanes: lane count \(k) out of range")
    self.k = k
    self.spacing = spacing
    self.estimate = estimate
    let lanes: [Int]
    if let given {
      precondition(given.allSatisfy { $0 >= 0 && $0 < k }, "_MasonryLanes: a lane out of range")
      lanes = given
    } else {
      var ends = ContiguousArray<Int64>(repeating: 0, count: k)
      lanes = extents.map { e in
        let j = Self._laneEndingFirst(ends)
        ends[j] &+= (e < 0 ? estimate : e) &+ spacing
        return j
      }
    }
    let capacity = blockCapacity ?? _LaneBlocks.defaultCapacity(rows: extents.count, lanes: k, base: 64)
    blocks = _LaneBlocks(extents: extents, lanes: lanes, capacity: capacity)
    _pitches = []
    _counts = []
    _estimated = []
    laneTotals = []
    _rebuildTree()
  }

  /// The number of rows.
  @inlinable @inline(__always)
  package var count: Int { blocks.count }

  /// The extent (units) of a row stored as `x`.
  @inlinable @inline(__always)
  package func _value(_ x: Int32) -> Int64 { x < 0 ? estimate : Int64(x) }

  /// Sets kind 0's estimate (units): every row that follows it moves, and
  /// none is written; each node of the pitch tree moves by the change
  /// times its rows that follow it. Returns how far the rows that follow
  /// it moved altogether (the change times their number).
  /// - Complexity: O(k m/B), one pass over the trees' nodes.
  @inlinable @discardableResult
  package mutating func setEstimate(_ units: Int64) -> Int64 {
    let change = units &- estimate
    guard change != 0 else { return 0 }
    estimate = units
    let n = blocks.blockCount
    _estimated.withUnsafeBufferPointer { estimated in
      _pitches.withUnsafeMutableBufferPointer { pitches in
        for i in 0 ..< Swift.min(pitches.count, estimated.count) { pitches[i] &+= change &* Int64(estimated[i]) }
      }
    }
    var moved: Int64 = 0
    for j in 0 ..< k {
      let rows = change &* Int64(_laneEstimated(j, blocks: n))
      laneTotals[j] &+= rows
      moved &+= rows
    }
    return moved
  }

  /// The rows of lane `j` over the first `b` blocks that follow kind 0's
  /// estimate.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func _laneEstimated(_ j: Int, blocks b: Int) -> Int32 {
    var result: Int32 = 0
    var i = b
    while i > 0 {
      result &+= _estimated[i &* k &+ j]
      i &= i &- 1
    }
    return result
  }

  /// The lane L4's rule gives a row after lanes that end at `ends`: the one
  /// that ends first, the lowest on ties.
  /// - Complexity: O(k).
  @inlinable
  package static func _laneEndingFirst(_ ends: ContiguousArray<Int64>) -> Int {
    var best = 0
    for j in 1 ..< ends.count where ends[j] < ends[best] { best = j }
    return best
  }

  /// Reads every row's extent again from `tree`'s rows `rows` (the same
  /// rows, in the same blocks and lanes), rebuilds the pitch tree, the
  /// tree of rows that follow kind 0's estimate (`tree.estimate` from now)
  /// and the totals (the counts stay: no row changed lanes), and returns
  /// the rows' pitch as a list (extents plus the tree's spacing). One pass
  /// over the rows: each block's pitch a lane is summed as its extents are
  /// written.
  /// - Complexity: O(m + k m/B).
  @inlinable
  package mutating func _refreshExtents<ID: Hashable & Sendable>(from tree: ExtentTree<ID>, rows: Range<Int>) -> Int64 {
    precondition(rows.count == count, "_MasonryLanes: \(rows.count) rows for a body of \(count)")
    let k = self.k
    let s = spacing
    estimate = tree.estimate
    // The extents in one walk of the tree, then written block by block
    // (a write through the blocks' nested arrays a row costs a uniqueness
    // check of each).
    var read = ContiguousArray<Int32>()
    read.reserveCapacity(rows.count)
    var listPitch: Int64 = 0
    let listSpacing = tree.spacing
    let e0 = estimate
    tree._forEachLaneRow(in: rows) { _, stored in
      read.append(Int32(truncatingIfNeeded: stored))
      listPitch &+= (stored < 0 ? e0 : stored) &+ listSpacing
    }
    var leaves = ContiguousArray<Int64>(repeating: 0, count: (blocks.blockCount &+ 1) &* k)
    var estimated = ContiguousArray<Int32>(repeating: 0, count: (blocks.blockCount &+ 1) &* k)
    var r = 0
    read.withUnsafeBufferPointer { read in
      leaves.withUnsafeMutableBufferPointer { leaves in
        estimated.withUnsafeMutableBufferPointer { estimated in
          for p in 0 ..< blocks.blockCount {
            let lanes = blocks.lanes[p]
            guard !lanes.isEmpty else { continue }  // a spare
            let node = (p &+ 1) &* k
            blocks.extents[p].withUnsafeMutableBufferPointer { extents in
              lanes.withUnsafeBufferPointer { lanes in
                for t in 0 ..< extents.count {
                  let e = read[r &+ t]
                  extents[t] = e
                  let j = node &+ Int(lanes[t])
                  leaves[j] &+= (e < 0 ? e0 : Int64(e)) &+ s
                  estimated[j] &+= e < 0 ? 1 : 0
                }
              }
            }
            r &+= lanes.count
          }
        }
      }
    }
    laneTotals = Self._fold(&leaves, blocks: blocks.blockCount, lanes: k)
    _ = Self._fold(&estimated, blocks: blocks.blockCount, lanes: k)
    _pitches = leaves
    _estimated = estimated
    return listPitch
  }

  /// Rebuilds the Fenwick trees and the totals from the blocks.
  /// - Complexity: O(k m/B + m).
  @inlinable
  package mutating func _rebuildTree() {
    let n = blocks.blockCount
    let k = self.k
    let s = spacing
    var pitches = ContiguousArray<Int64>(repeating: 0, count: (n &+ 1) &* k)
    var counts = ContiguousArray<Int32>(repeating: 0, count: (n &+ 1) &* k)
    var estimated = ContiguousArray<Int32>(repeating: 0, count: (n &+ 1) &* k)
    let e0 = estimate
    pitches.withUnsafeMutableBufferPointer { pitches in
      counts.withUnsafeMutableBufferPointer { counts in
        estimated.withUnsafeMutableBufferPointer { estimated in
          for p in 0 ..< n {
            let node = (p &+ 1) &* k
            blocks.extents[p].withUnsafeBufferPointer { e in
              blocks.lanes[p].withUnsafeBufferPointer { l in
                for t in 0 ..< e.count {
                  let j = node &+ Int(l[t])
                  pitches[j] &+= (e[t] < 0 ? e0 : Int64(e[t])) &+ s
                  counts[j] &+= 1
                  estimated[j] &+= e[t] < 0 ? 1 : 0
                }
              }
            }
          }
        }
      }
    }
    _ = Self._fold(&counts, blocks: n, lanes: k)
    _ = Self._fold(&estimated, blocks: n, lanes: k)
    laneTotals = Self._fold(&pitches, blocks: n, lanes: k)
    _pitches = pitches
    _counts = counts
    _estimated = estimated
  }

  /// Folds `tree`, the leaves of `n` blocks (`tree[(p + 1) k + j]`: block
  /// p's value in lane j), into a Fenwick tree of k-vectors, with room for
  /// an eighth more blocks (splits copy no tree), and returns the sum of
  /// every block's vector.
  /// - Complexity: O(k n).
  @inlinable
  internal static func _fold<Value: FixedWidthInteger>(
    _ tree: inout ContiguousArray<Value>, blocks n: Int, lanes k: Int
  ) -> ContiguousArray<Value> {
    var totals = ContiguousArray<Value>(repeating: 0, count: k)
    for node in 1 ..< n &+ 1 {
      for j in 0 ..< k { totals[j] &+= tree[node &* k &+ j] }
    }
    tree.reserveCapacity(_withRoom(n &+ 1) &* k)
    var i = 1
    while i <= n {
      let parent = i &+ (i & -i)
      if parent <= n {
        for j in 0 ..< k { tree[parent &* k &+ j] &+= tree[i &* k &+ j] }
      }
      i &+= 1
    }
    return totals
  }

  /// Puts the leaves of the blocks now at `positions` in place of the
  /// leaves `old` (block positions) in both trees: the trees' tails are
  /// streamed, and only the new blocks' rows are read (`_rebuildTree` reads
  /// every row). The totals are the caller's.
  /// - Complexity: O(k m/B + B), the O(k m/B) part sequential.
  @inlinable
  @inline(never)
  package mutating func _replaceLeaves(_ old: Range<Int>, withBlocks positions: Range<Int>) {
    let k = self.k
    let s = spacing
    var pitches = ContiguousArray<Int64>(repeating: 0, count: positions.count &* k)
    var counts = ContiguousArray<Int32>(repeating: 0, count: positions.count &* k)
    var estimated = ContiguousArray<Int32>(repeating: 0, count: positions.count &* k)
    for (q, p) in positions.enumerated() {
      for (e, j) in zip(blocks.extents[p], blocks.lanes[p]) {
        pitches[q &* k &+ Int(j)] &+= _value(e) &+ s
        counts[q &* k &+ Int(j)] &+= 1
        estimated[q &* k &+ Int(j)] &+= e < 0 ? 1 : 0
      }
    }
    let leaves = (old.lowerBound &+ 1) ..< (old.upperBound &+ 1)
    _FenwickTree<Int64>._replaceLeaves(&_pitches, stride: k, leaves, with: pitches)
    _FenwickTree<Int32>._replaceLeaves(&_counts, stride: k, leaves, with: counts)
    _FenwickTree<Int32>._replaceLeaves(&_estimated, stride: k, leaves, with: estimated)
  }

  /// Adds `pitch`, `rows` and `estimated` (rows that follow kind 0's
  /// estimate) to lane `j` of block `p`.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package mutating func _add(pitch: Int64, rows: Int32, estimated: Int32, lane j: Int, block p: Int) {
    var i = p &+ 1
    let n = blocks.blockCount
    let k = self.k
    while i <= n {
      _pitches[i &* k &+ j] &+= pitch
      _counts[i &* k &+ j] &+= rows
      if estimated != 0 { _estimated[i &* k &+ j] &+= estimated }
      i &+= i & -i
    }
    laneTotals[j] &+= pitch
  }

  /// The pitch of lane `j` over the first `b` blocks.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func _lanePitch(_ j: Int, blocks b: Int) -> Int64 {
    var result: Int64 = 0
    var i = b
    while i > 0 {
      result &+= _pitches[i &* k &+ j]
      i &= i &- 1
    }
    return result
  }

  /// The body's pitch: its longest lane's.
  /// - Complexity: O(k).
  @inlinable
  package var pitch: Int64 { laneTotals.max() ?? 0 }

  /// Row `i`'s lane.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func lane(at i: Int) -> Int { blocks.lane(at: i) }

  /// Row `i`'s extent, in units.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func extent(at i: Int) -> Int64 { _value(blocks.stored(at: i)) }

  /// Row `i`'s start (pitch from the body's start): the pitch of the rows
  /// before it in its lane.
  /// - Complexity: O(log(m/B) + B).
  @inlinable
  package func start(at i: Int) -> Int64 {
    precondition(i >= 0 && i < count, "_MasonryLanes: row \(i) out of range 0..<\(count)")
    let (b, slot) = blocks.locate(i)
    let lanes = blocks.lanes[b]
    let e = blocks.extents[b]
    let j = lanes[slot]
    var y = _lanePitch(Int(j), blocks: b)
    for t in 0 ..< slot where lanes[t] == j { y &+= _value(e[t]) &+ spacing }
    return y
  }

  /// Each lane's end (pitch) before row `i` (`i == count`: the body's).
  /// - Complexity: O(k log(m/B) + B).
  @inlinable
  package func laneEnds(before i: Int) -> ContiguousArray<Int64> {
    if i == count { return laneTotals }
    let (b, slot) = blocks.locate(i)
    var ends = ContiguousArray<Int64>(repeating: 0, count: k)
    for j in 0 ..< k { ends[j] = _lanePitch(j, blocks: b) }
    let lanes = blocks.lanes[b]
    let e = blocks.extents[b]
    for t in 0 ..< slot { ends[Int(lanes[t])] &+= _value(e[t]) &+ spacing }
    return ends
  }

  /// Sets row `i`'s extent (units; `_LaneBlocks.followsEstimate`: kind
  /// 0's); it keeps its lane (L4).
  /// - Complexity: O(log(m/B)).
  @inlinable
  package mutating func setExtent(_ units: Int64, at i: Int) {
    let (b, slot) = blocks.locate(i)
    let old = blocks.extents[b][slot]
    let new = Int32(truncatingIfNeeded: units)
    guard new != old else { return }
    blocks.extents[b][slot] = new
    _add(pitch: _value(new) &- _value(old), rows: 0, estimated: (new < 0 ? 1 : 0) &- (old < 0 ? 1 : 0),
         lane: Int(blocks.lanes[b][slot]), block: b)
  }

  /// Inserts rows (extents in units; `_LaneBlocks.followsEstimate`: kind
  /// 0's) at `i`. With `lanes` nil they are
  /// placed by L4's rule from the lanes' ends just before `i`; else they
  /// keep the lanes given (a moved row keeps its own), and a row given -1
  /// is placed by the rule. The rows after `i` keep theirs. Returns the
  /// lanes the rows took.
  /// - Complexity: O(r k + k (B + log(m/B))), plus O(k w log(m/B)) when a
  ///   block splits into a spare w positions away, O(k m/B) when none is near.
  @inlinable @discardableResult
  package mutating func insert(_ extents: some Collection<Int64>, lanes given: [Int]? = nil, at i: Int) -> [Int] {
    guard !extents.isEmpty else { return [] }
    let lanes: [Int]
    if var given {
      precondition(given.count == extents.count && given.allSatisfy { $0 >= -1 && $0 < k },
                   "_MasonryLanes: one lane in range (or -1) a row")
      if given.contains(-1) {
        var ends = laneEnds(before: i)
        for (r, e) in extents.enumerated() {
          if given[r] < 0 { given[r] = Self._laneEndingFirst(ends) }
          ends[given[r]] &+= (e < 0 ? estimate : e) &+ spacing
        }
      }
      lanes = given
    } else {
      var ends = laneEnds(before: i)
      lanes = extents.map { e in
        let j = Self._laneEndingFirst(ends)
        ends[j] &+= (e < 0 ? estimate : e) &+ spacing
        return j
      }
    }
    let wasEmpty = blocks.blockCount == 0
    let blockCount = blocks.blockCount
    let (b, split) = blocks.insert(extents: extents, lanes: lanes, at: i)
    if wasEmpty {
      _rebuildTree()
      return lanes
    }
    switch split {
    case .none:
      for (e, j) in zip(extents, lanes) {
        _add(pitch: (e < 0 ? estimate : e) &+ spacing, rows: 1, estimated: e < 0 ? 1 : 0, lane: j, block: b)
      }
    case .spliced:
      // Block `b` split: its leaf (without the new rows) becomes the pieces'.
      _replaceLeaves(b ..< b &+ 1, withBlocks: b ..< b &+ blocks.blockCount &- blockCount &+ 1)
      for (e, j) in zip(extents, lanes) { laneTotals[j] &+= (e < 0 ? estimate : e) &+ spacing }
    case .shifted(let span, let sources):
      _shiftLeaves(span, sources: sources)
      for (e, j) in zip(extents, lanes) { laneTotals[j] &+= (e < 0 ? estimate : e) &+ spacing }
    }
    return lanes
  }

  /// After a split into a spare (`_LaneBlocks._splitIntoSpare`): each leaf
  /// of `span` takes the leaf of its block's old position (`sources`, read
  /// off both trees before any is written), the two halves' leaves are
  /// summed from their rows, and the differences go up the trees from the
  /// span's leaves only. The totals are the caller's.
  /// - Complexity: O(B + k w log(m/B)) for a span of w positions.
  @inlinable
  @inline(never)
  package mutating func _shiftLeaves(_ span: Range<Int>, sources: [Int]) {
    let k = self.k
    let s = spacing
    let leaves = (span.lowerBound &+ 1) ..< (span.upperBound &+ 1)
    let oldPitches = _FenwickTree<Int64>._leafValues(_pitches, stride: k, leaves)
    let oldCounts = _FenwickTree<Int32>._leafValues(_counts, stride: k, leaves)
    let oldEstimated = _FenwickTree<Int32>._leafValues(_estimated, stride: k, leaves)
    var pitches = ContiguousArray<Int64>(repeating: 0, count: span.count &* k)
    var counts = ContiguousArray<Int32>(repeating: 0, count: span.count &* k)
    var estimated = ContiguousArray<Int32>(repeating: 0, count: span.count &* k)
    for (q, source) in sources.enumerated() {
      if source >= 0 {
        let from = source &- span.lowerBound
        for j in 0 ..< k {
          pitches[q &* k &+ j] = oldPitches[from &* k &+ j]
          counts[q &* k &+ j] = oldCounts[from &* k &+ j]
          estimated[q &* k &+ j] = oldEstimated[from &* k &+ j]
        }
      } else {
        let p = span.lowerBound &+ q
        for (e, j) in zip(blocks.extents[p], blocks.lanes[p]) {
          pitches[q &* k &+ Int(j)] &+= _value(e) &+ s
          counts[q &* k &+ Int(j)] &+= 1
          estimated[q &* k &+ Int(j)] &+= e < 0 ? 1 : 0
        }
      }
    }
    _FenwickTree<Int64>._overwriteLeaves(&_pitches, stride: k, leaves, with: pitches)
    _FenwickTree<Int32>._overwriteLeaves(&_counts, stride: k, leaves, with: counts)
    _FenwickTree<Int32>._overwriteLeaves(&_estimated, stride: k, leaves, with: estimated)
  }

  /// Removes the rows `range`.
  /// - Complexity: O(r + log(m/B) (r + 1)), plus O(k m/B) when blocks
  ///   empty or merge.
  @inlinable
  package mutating func remove(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    // What leaves each lane of each block, taken from the Fenwick tree
    // while the blocks are as they were (a reshape rebuilds it anyway).
    var (b, slot) = blocks.locate(range.lowerBound)
    var left = range.count
    while left > 0 {
      let end = Swift.min(blocks.extents[b].count, slot &+ left)
      for t in slot ..< end {
        let x = blocks.extents[b][t]
        _add(pitch: -(_value(x) &+ spacing), rows: -1, estimated: x < 0 ? -1 : 0, lane: Int(blocks.lanes[b][t]), block: b)
      }
      left &-= end &- slot
      b &+= 1
      slot = 0
    }
    switch blocks.remove(range).reshaped {
    case nil: break
    case .spliced(let old, let new)?: _replaceLeaves(old, withBlocks: new)
    case .shifted(let span, let sources)?: _shiftLeaves(span, sources: sources)
    }
  }

  /// The first row of lane `j` whose pitch end (start plus extent plus
  /// spacing) is after `y`, or nil when the lane ends at or before it.
  /// - Complexity: O(log(m/B) + B).
  @inlinable
  package func firstRow(inLane j: Int, pitchEndAfter y: Int64) -> Int? {
    _firstRow(inLane: j, pitchEndAfter: y)?.row
  }

  /// `firstRow(inLane:pitchEndAfter:)` with that row's start.
  /// - Complexity: O(log(m/B) + B).
  @inlinable
  package func _firstRow(inLane j: Int, pitchEndAfter y: Int64) -> (row: Int, start: Int64)? {
    let n = blocks.blockCount
    guard n > 0, laneTotals[j] > y else { return nil }
    // The most blocks whose lane-j pitch is at most y.
    var position = 0
    var passed: Int64 = 0
    var step = 1
    while step &<< 1 <= n { step &<<= 1 }
    while step > 0 {
      let next = position &+ step
      if next <= n && passed &+ _pitches[next &* k &+ j] <= y {
        position = next
        passed &+= _pitches[next &* k &+ j]
      }
      step &>>= 1
    }
    var b = position
    var rowsBefore = blocks.rows(before: b)
    while b < n {
      let e = blocks.extents[b]
      let l = blocks.lanes[b]
      for t in 0 ..< e.count where Int(l[t]) == j {
        let start = passed
        passed &+= _value(e[t]) &+ spacing
        if passed > y { return (rowsBefore &+ t, start) }
      }
      rowsBefore &+= e.count
      b &+= 1
    }
    return nil
  }

  /// The next row of lane `j` after row `i` (`i == -1`: its first), or nil.
  /// - Complexity: O(B) a block passed.
  @inlinable
  package func nextRow(inLane j: Int, after i: Int) -> Int? {
    let startRow = i &+ 1
    guard startRow < count else { return nil }
    var (b, slot) = blocks.locate(startRow)
    var rowsBefore = startRow &- slot
    let lane = UInt8(truncatingIfNeeded: j)
    while b < blocks.blockCount {
      let l = blocks.lanes[b]
      for t in slot ..< l.count where l[t] == lane { return rowsBefore &+ t }
      rowsBefore &+= l.count
      b &+= 1
      slot = 0
    }
    return nil
  }
}

extension _MasonryLanes {
  /// The last row of lane `j` with an extent above zero, or nil.
  /// - Complexity: O(B) a block passed, from the end.
  @inlinable
  package func lastNonEmptyRow(inLane j: Int) -> Int? {
    var b = blocks.blockCount &- 1
    var rowsBefore = count
    let lane = UInt8(truncatingIfNeeded: j)
    while b >= 0 {
      let l = blocks.lanes[b]
      let e = blocks.extents[b]
      rowsBefore &-= l.count
      var t = l.count &- 1
      while t >= 0 {
        if l[t] == lane && _value(e[t]) > 0 { return rowsBefore &+ t }
        t &-= 1
      }
      b &-= 1
    }
    return nil
  }
}
