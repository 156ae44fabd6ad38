// SPEC L4 and L8 for one masonry section body: each row keeps a lane, and
// starts where the row before it in its lane ends. Per block, a pitch sum
// and a row count for each lane, in a Fenwick tree of k-vectors (DESIGN §2).

/// The body of one masonry section (SPEC L4): its rows' extents and lanes
/// in blocks, and a Fenwick tree over the blocks whose leaves are each
/// block's pitch (extent plus spacing) and row count per lane.
///
/// Positions are in pitch from the body's start: a row starts at the sum
/// of the pitches of the rows before it in its lane.
/// - A measurement is one Fenwick update in one lane: O(B + log(m/B)).
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

  /// A masonry body of `extents` (units) with `k` lanes and `spacing`
  /// after each row. With `lanes` nil, every row is placed by L4's rule in
  /// index order (a re-flow); else each row keeps the lane given.
  /// - Complexity: O(k m).
  @inlinable
  package init(extents: some Collection<Int64>, lanes given: [Int]?, lanes k: Int, spacing: Int64,
               blockCapacity: Int? = nil)
  {
    precondition(k >= 1 && k <= _LaneBlocks.maxLanes, "_MasonryLanes: lane count \(k) out of range")
    self.k = k
    self.spacing = spacing
    let lanes: [Int]
    if let given {
      precondition(given.allSatisfy { $0 >= 0 && $0 < k }, "_MasonryLanes: a lane out of range")
      lanes = given
    } else {
      var ends = ContiguousArray<Int64>(repeating: 0, count: k)
      lanes = extents.map { e in
        let j = Self._laneEndingFirst(ends)
        ends[j] &+= e &+ spacing
        return j
      }
    }
    let capacity = blockCapacity ?? _LaneBlocks.defaultCapacity(rows: extents.count, lanes: k, base: 64)
    blocks = _LaneBlocks(extents: extents, lanes: lanes, capacity: capacity)
    _pitches = []
    _counts = []
    laneTotals = []
    _rebuildTree()
  }

  /// The number of rows.
  @inlinable @inline(__always)
  package var count: Int { blocks.count }

  /// The lane L4's rule gives a row after lanes that end at `ends`: the one
  /// that ends first, the lowest on ties.
  /// - Complexity: O(k).
  @inlinable
  package static func _laneEndingFirst(_ ends: ContiguousArray<Int64>) -> Int {
    var best = 0
    for j in 1 ..< ends.count where ends[j] < ends[best] { best = j }
    return best
  }

  /// Rebuilds the Fenwick trees and the totals from the blocks.
  /// - Complexity: O(k m/B + m).
  @inlinable
  package mutating func _rebuildTree() {
    let n = blocks.blockCount
    let k = self.k
    let s = spacing
    _pitches = ContiguousArray(repeating: 0, count: (n &+ 1) &* k)
    _counts = ContiguousArray(repeating: 0, count: (n &+ 1) &* k)
    // Room for an eighth more blocks (splits copy no tree).
    _pitches.reserveCapacity(_withRoom(n &+ 1) &* k)
    _counts.reserveCapacity(_withRoom(n &+ 1) &* k)
    for p in 0 ..< n {
      let node = p &+ 1
      let e = blocks.extents[p]
      let l = blocks.lanes[p]
      for t in 0 ..< e.count {
        _pitches[node &* k &+ Int(l[t])] &+= Int64(e[t]) &+ s
        _counts[node &* k &+ Int(l[t])] &+= 1
      }
    }
    var i = 1
    while i <= n {
      let parent = i &+ (i & -i)
      if parent <= n {
        for j in 0 ..< k {
          _pitches[parent &* k &+ j] &+= _pitches[i &* k &+ j]
          _counts[parent &* k &+ j] &+= _counts[i &* k &+ j]
        }
      }
      i &+= 1
    }
    laneTotals = ContiguousArray(repeating: 0, count: k)
    for p in 0 ..< n {
      for (e, j) in zip(blocks.extents[p], blocks.lanes[p]) { laneTotals[Int(j)] &+= Int64(e) &+ s }
    }
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
    for (q, p) in positions.enumerated() {
      for (e, j) in zip(blocks.extents[p], blocks.lanes[p]) {
        pitches[q &* k &+ Int(j)] &+= Int64(e) &+ s
        counts[q &* k &+ Int(j)] &+= 1
      }
    }
    let leaves = (old.lowerBound &+ 1) ..< (old.upperBound &+ 1)
    _FenwickTree<Int64>._replaceLeaves(&_pitches, stride: k, leaves, with: pitches)
    _FenwickTree<Int32>._replaceLeaves(&_counts, stride: k, leaves, with: counts)
  }

  /// Adds `pitch` and `rows` to lane `j` of block `p`.
  /// - Complexity: O(log(m/B)).
  @inlinable
  package mutating func _add(pitch: Int64, rows: Int32, lane j: Int, block p: Int) {
    var i = p &+ 1
    let n = blocks.blockCount
    let k = self.k
    while i <= n {
      _pitches[i &* k &+ j] &+= pitch
      _counts[i &* k &+ j] &+= rows
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
  package func extent(at i: Int) -> Int64 { blocks.extent(at: i) }

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
    for t in 0 ..< slot where lanes[t] == j { y &+= Int64(e[t]) &+ spacing }
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
    for t in 0 ..< slot { ends[Int(lanes[t])] &+= Int64(e[t]) &+ spacing }
    return ends
  }

  /// Sets row `i`'s extent (units); it keeps its lane (L4).
  /// - Complexity: O(log(m/B)).
  @inlinable
  package mutating func setExtent(_ units: Int64, at i: Int) {
    let (b, slot) = blocks.locate(i)
    let old = Int64(blocks.extents[b][slot])
    blocks.extents[b][slot] = Int32(truncatingIfNeeded: units)
    _add(pitch: units &- old, rows: 0, lane: Int(blocks.lanes[b][slot]), block: b)
  }

  /// Inserts rows (extents in units) at `i`. With `lanes` nil they are
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
          ends[given[r]] &+= e &+ spacing
        }
      }
      lanes = given
    } else {
      var ends = laneEnds(before: i)
      lanes = extents.map { e in
        let j = Self._laneEndingFirst(ends)
        ends[j] &+= e &+ spacing
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
      for (e, j) in zip(extents, lanes) { _add(pitch: e &+ spacing, rows: 1, lane: j, block: b) }
    case .spliced:
      // Block `b` split: its leaf (without the new rows) becomes the pieces'.
      _replaceLeaves(b ..< b &+ 1, withBlocks: b ..< b &+ blocks.blockCount &- blockCount &+ 1)
      for (e, j) in zip(extents, lanes) { laneTotals[j] &+= e &+ spacing }
    case .shifted(let span, let sources):
      _shiftLeaves(span, sources: sources)
      for (e, j) in zip(extents, lanes) { laneTotals[j] &+= e &+ spacing }
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
    var pitches = ContiguousArray<Int64>(repeating: 0, count: span.count &* k)
    var counts = ContiguousArray<Int32>(repeating: 0, count: span.count &* k)
    for (q, source) in sources.enumerated() {
      if source >= 0 {
        let from = source &- span.lowerBound
        for j in 0 ..< k {
          pitches[q &* k &+ j] = oldPitches[from &* k &+ j]
          counts[q &* k &+ j] = oldCounts[from &* k &+ j]
        }
      } else {
        let p = span.lowerBound &+ q
        for (e, j) in zip(blocks.extents[p], blocks.lanes[p]) {
          pitches[q &* k &+ Int(j)] &+= Int64(e) &+ s
          counts[q &* k &+ Int(j)] &+= 1
        }
      }
    }
    _FenwickTree<Int64>._overwriteLeaves(&_pitches, stride: k, leaves, with: pitches)
    _FenwickTree<Int32>._overwriteLeaves(&_counts, stride: k, leaves, with: counts)
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
        _add(pitch: -(Int64(blocks.extents[b][t]) &+ spacing), rows: -1, lane: Int(blocks.lanes[b][t]), block: b)
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
        passed &+= Int64(e[t]) &+ spacing
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
  /// The rows that meet `[low, high)` (pitch from the body's start), in
  /// index order, by SPEC G5's rule: each lane from its first row whose
  /// pitch end is after `low`.
  /// - Complexity: O(k (log(m/B) + B) + v log v) for the v rows met (see
  ///   `appendSpans`).
  @inlinable
  package func rows(meeting low: Int64, _ high: Int64, walkLimit: Int? = nil) -> [Int] {
    var sink = _RowSink()
    appendSpans(meeting: low, high, rowBase: 0, startBase: 0, to: &sink, walkLimit: walkLimit)
    return sink.take()
  }

  /// Appends the spans (row, start, extent) of `rows(meeting:_:)` to
  /// `result`, in index order, each row moved on by `rowBase` and each
  /// start by `startBase` (the body's place in the layout).
  ///
  /// First one walk in index order for every lane at once, from the most
  /// blocks in which no lane has a row that ends after `low - 1`. Lanes
  /// drift apart, though (a row keeps its lane, L4): the rows met in one
  /// lane can lie hundreds of rows after those met in another, and that
  /// walk would read every row between them, a number that grows with the
  /// body. So it stops after `walkLimit` rows plus eight a row met (by
  /// default 16 blocks' rows: a drift of hundreds of rows costs what it
  /// did, one of thousands no longer does; 0 or less: no walk), and each
  /// lane is then found on its own and the lanes' spans put in row order.
  /// - Complexity: O(k (log(m/B) + B) + v log v) for the v rows met; O(k
  ///   log(m/B) + B + v) while the lanes' rows met lie close together.
  @inlinable
  package func appendSpans(meeting low: Int64, _ high: Int64, rowBase: Int, startBase: Int64,
                           to result: inout some _SpanSink, walkLimit: Int? = nil) {
    guard low < high, blocks.blockCount > 0 else { return }
    let limit = Swift.min(walkLimit ?? 16 &* blocks.capacity &+ 64, Int.max >> 4)
    if limit > 0 {
      let count = result.count
      if _appendSpansInOneWalk(meeting: low, high, rowBase: rowBase, startBase: startBase, to: &result, limit: limit) {
        return
      }
      result.removeLast(result.count &- count)
    }
    var spans = _SpanBuffer(capacity: 256)
    defer { spans.deallocate() }
    _appendSpansLaneByLane(meeting: low, high, rowBase: rowBase, startBase: startBase, spans: &spans, to: &result)
  }

  /// `appendSpans`' walk of every lane at once, into `result`: false
  /// (with `result` partly written) once it has read more than `limit`
  /// rows, plus eight for each row met.
  /// - Complexity: O(k log(m/B) + limit + v).
  @inlinable @inline(never)  // its own function, as the walk is compiled best
  package func _appendSpansInOneWalk(meeting low: Int64, _ high: Int64, rowBase: Int, startBase: Int64,
                                     to result: inout some _SpanSink, limit: Int) -> Bool {
    let y = low &- 1
    // One descent for every lane at once: the most blocks in which no
    // lane has a row whose pitch ends after `y` (each node's k lane pitches
    // added together). Every lane's first row that ends at or after `low`
    // (an empty row at `low` meets the window) is in a later block, so one
    // walk in index order from there, each lane's start carried along,
    // finds them all, then the rows met, until every lane has passed
    // `high`.
    return withUnsafeTemporaryAllocation(of: (start: Int64, state: Int).self, capacity: k) { lanes in
      // state: 0 before the window in its lane, 1 meeting it, 2 done.
      var open = 0
      for j in 0 ..< k {
        lanes[j] = (0, laneTotals[j] > y ? 0 : 2)
        if laneTotals[j] > y { open &+= 1 }
      }
      guard open > 0 else { return true }
      let n = blocks.blockCount
      var position = 0
      var step = 1
      while step &<< 1 <= n { step &<<= 1 }
      _pitches.withUnsafeBufferPointer { pitches in
        while step > 0 {
          let next = position &+ step
          if next <= n {
            var within = true
            for j in 0 ..< k where lanes[j].start &+ pitches[next &* k &+ j] > y {
              within = false
              break
            }
            if within {
              position = next
              for j in 0 ..< k { lanes[j].start &+= pitches[next &* k &+ j] }
            }
          }
          step &>>= 1
        }
      }
      var b = position
      var rowsBefore = blocks.rows(before: b)
      var read = 0
      let count = result.count
      while open > 0 && b < n {
        if read > limit &+ 8 &* (result.count &- count) { return false }
        blocks.lanes[b].withUnsafeBufferPointer { l in
          blocks.extents[b].withUnsafeBufferPointer { x in
            for t in 0 ..< l.count {
              let j = Int(l[t])
              let lane = lanes[j]
              if lane.state == 2 { continue }
              let s = lane.start
              let e = Int64(x[t])
              let next = s &+ e &+ spacing
              if lane.state == 0 {
                if next <= y {  // before the window in its lane
                  lanes[j].start = next
                  continue
                }
                lanes[j].state = 1
              }
              if s >= high {
                lanes[j].state = 2
                open &-= 1
                if open == 0 { return }
                continue
              }
              if e > 0 ? (s &+ e > low) : (s >= low) {
                result.append(_LaneSpan(row: rowBase &+ rowsBefore &+ t, start: startBase &+ s, extent: e,
                                         lane: Int32(truncatingIfNeeded: j)))
              }
              lanes[j].start = next
            }
          }
          read &+= l.count
          rowsBefore &+= l.count
        }
        b &+= 1
      }
      return true
    }
  }

  /// `appendSpans` lane by lane, with `spans` (empty) for the lanes' spans
  /// before they are put in row order.
  /// - Complexity: O(k (log(m/B) + B) + v log v) for the v rows met; O(k
  ///   (log(m/B) + B) + v) while they lie within 4v rows of each other.
  @inlinable @inline(never)  // out of the way of the one walk's registers
  package func _appendSpansLaneByLane(meeting low: Int64, _ high: Int64, rowBase: Int, startBase: Int64,
                                      spans: inout _SpanBuffer, to result: inout some _SpanSink) {
    let y = low &- 1
    let k = self.k
    let n = blocks.blockCount
    // Every lane's descent at once, step by step: each to the most blocks
    // in which none of its rows ends after `y` (its pitch there and the
    // rows before it carried along); then where its spans lie in `spans`.
    let lanes = UnsafeMutablePointer<(position: Int, start: Int64, rowsBefore: Int, spans: Range<Int>)>
      .allocate(capacity: k)
    defer { lanes.deallocate() }
    lanes.initialize(repeating: (0, 0, 0, 0 ..< 0), count: k)
    var step = 1
    while step &<< 1 <= n { step &<<= 1 }
    _pitches.withUnsafeBufferPointer { pitches in
      blocks.counts.nodes.withUnsafeBufferPointer { counts in
        while step > 0 {
          for j in 0 ..< k {
            let next = lanes[j].position &+ step
            if next <= n {
              let pitch = pitches[next &* k &+ j]
              if lanes[j].start &+ pitch <= y {
                lanes[j].position = next
                lanes[j].start &+= pitch
                lanes[j].rowsBefore &+= counts[next]
              }
            }
          }
          step &>>= 1
        }
      }
    }
    // The lanes' spans, lane after lane, in memory of our own (an array's
    // append checks its buffer's uniqueness every time).
    var lowest = Int.max
    var highest = Int.min
    for j in 0 ..< k where laneTotals[j] > y {
      let first = spans.count
      _appendSpans(ofLane: j, from: (lanes[j].position, lanes[j].start, lanes[j].rowsBefore),
                   meeting: low, high, rowBase: rowBase, startBase: startBase, to: &spans)
      lanes[j].spans = first ..< spans.count
      if first < spans.count {
        lowest = Swift.min(lowest, spans.base[first].row)
        highest = Swift.max(highest, spans.base[spans.count &- 1].row)
      }
    }
    let total = spans.count
    guard total > 0 else { return }
    let met = UnsafeMutableBufferPointer(start: spans.base, count: total)
    let width = highest &- lowest &+ 1
    guard k > 1 else {
      result.append(contentsOf: UnsafeBufferPointer(met))
      return
    }
    guard width <= 4 &* total else {
      guard k <= 16 else {
        var met = met
        met.sort { $0.row < $1.row }
        result.append(contentsOf: UnsafeBufferPointer(met))
        return
      }
      // Lanes far apart: a k-way merge of the lanes' spans (each lane's
      // ascend), over each lane's first row not yet taken (`.max` once it
      // has none left).
      let heads = UnsafeMutablePointer<(next: Int, end: Int, row: Int)>.allocate(capacity: k)
      defer { heads.deallocate() }
      for j in 0 ..< k {
        let range = lanes[j].spans
        (heads + j).initialize(to: (range.lowerBound, range.upperBound, range.isEmpty ? .max : met[range.lowerBound].row))
      }
      let sorted = UnsafeMutablePointer<_LaneSpan>.allocate(capacity: total)
      defer { sorted.deallocate() }
      for i in 0 ..< total {
        var best = 0
        var bestRow = heads[0].row
        for j in 1 ..< k where heads[j].row < bestRow {
          best = j
          bestRow = heads[j].row
        }
        let next = heads[best].next
        (sorted + i).initialize(to: met[next])
        heads[best].next = next &+ 1
        heads[best].row = next &+ 1 < heads[best].end ? met[next &+ 1].row : .max
      }
      result.append(contentsOf: UnsafeBufferPointer(start: sorted, count: total))
      return
    }
    // Rows close together: each span to its row's slot, then the slots in
    // order. Both in the spans' memory, after them (`width` 32-bit slots
    // take at most 16 bytes a span).
    spans.reserve(3 &* total)
    let from = spans.base
    let sorted = from + total
    let slots = UnsafeMutableRawPointer(from + 2 &* total).bindMemory(to: Int32.self, capacity: width)
    slots.initialize(repeating: -1, count: width)
    for i in 0 ..< total { slots[from[i].row &- lowest] = Int32(truncatingIfNeeded: i) }
    var c = 0
    for r in 0 ..< width where slots[r] >= 0 {
      (sorted + c).initialize(to: from[Int(slots[r])])
      c &+= 1
    }
    result.append(contentsOf: UnsafeBufferPointer(start: sorted, count: total))
  }

  /// Appends the spans of the rows of lane `j` that meet `[low, high)`,
  /// in index order, from `from`: the most blocks in which no row of the
  /// lane ends after `low - 1`, the lane's pitch over them, and their rows.
  /// The lane's rows are read from there (each block's lane bytes eight at
  /// a time) until one starts at or after `high`.
  /// - Complexity: O(B + v k) for the v rows of the lane met.
  @inlinable @inline(__always)
  package func _appendSpans(ofLane j: Int, from: (position: Int, start: Int64, rowsBefore: Int),
                            meeting low: Int64, _ high: Int64, rowBase: Int, startBase: Int64,
                            to result: inout some _SpanSink) {
    let y = low &- 1
    let n = blocks.blockCount
    let position = from.position
    let start = from.start
    var rowsBefore = from.rowsBefore
    // The lane's rows from block `position` on: skipped while they end by
    // `y` (before the window; a lane's ends only grow, so once one is
    // after `y` every later one is), then met until one starts at `high`.
    var s = start
    let spacing = self.spacing
    let lane = UInt8(truncatingIfNeeded: j)
    let pattern = UInt64(lane) &* 0x0101_0101_0101_0101
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var b = position
    while b < n {
      let done = blocks.lanes[b].withUnsafeBufferPointer { l in
        blocks.extents[b].withUnsafeBufferPointer { x in
          let count = l.count
          let first = rowBase &+ rowsBefore
          var w = 0
          while w < count {
            // 0x80 in the byte of each slot of lane j among the eight from
            // `w` (in a word of them, no carry crosses a byte).
            var m: UInt64 = 0
            if w &+ 8 <= count {
              let word = UInt64(littleEndian: UnsafeRawPointer(l.baseAddress.unsafelyUnwrapped)
                .loadUnaligned(fromByteOffset: w, as: UInt64.self)) ^ pattern
              m = ~(((word & low7) &+ low7) | word | low7)
            } else {
              for i in w ..< count where l[i] == lane { m |= 0x80 &<< UInt64((i &- w) &<< 3) }
            }
            while m != 0 {
              let slot = w &+ (m.trailingZeroBitCount &>> 3)
              m &= m &- 1
              let e = Int64(x[slot])
              let next = s &+ e &+ spacing
              if next <= y {
                s = next
                continue
              }
              if s >= high { return true }
              if e > 0 ? (s &+ e > low) : (s >= low) {
                result.append(_LaneSpan(row: first &+ slot, start: startBase &+ s, extent: e,
                                           lane: Int32(truncatingIfNeeded: j)))
              }
              s = next
            }
            w &+= 8
          }
          return false
        }
      }
      if done { return }
      rowsBefore &+= blocks.lanes[b].count
      b &+= 1
    }
  }

  /// The row of lane `lane` whose span holds `y` (pitch from the body's
  /// start), or nil: SPEC L5's hit test within the body.
  /// - Complexity: O(log(m/B) + B).
  @inlinable
  package func row(atPitch y: Int64, lane: Int) -> Int? {
    guard lane >= 0 && lane < k, let i = firstRow(inLane: lane, pitchEndAfter: y) else { return nil }
    let s = start(at: i)
    return s <= y && y < s &+ extent(at: i) ? i : nil
  }

  /// The same rows and extents re-flowed into `lanes` lanes by L4's rule
  /// (SPEC L1, L2): every row placed again, in index order.
  /// - Complexity: O(k m).
  @inlinable
  package func reflowed(lanes newK: Int) -> _MasonryLanes {
    _MasonryLanes(extents: blocks.allExtents, lanes: nil, lanes: newK, spacing: spacing, blockCapacity: blocks.capacity)
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
        if l[t] == lane && e[t] > 0 { return rowsBefore &+ t }
        t &-= 1
      }
      b &-= 1
    }
    return nil
  }
}

/// The spans a masonry window search collects lane by lane, in memory of
/// its own: appending is a store and a count (an array's append checks
/// that its buffer is unique every time). The owner deallocates it.
@usableFromInline
package struct _SpanBuffer: _SpanSink {
  @usableFromInline package var base: UnsafeMutablePointer<_LaneSpan>
  @usableFromInline package var count: Int
  @usableFromInline package var capacity: Int

  @inlinable
  package init(capacity: Int) {
    base = _mallocTrivial(_LaneSpan.self, capacity: capacity)
    count = 0
    self.capacity = capacity
  }

  @inlinable @inline(__always)
  package mutating func append(_ span: _LaneSpan) {
    if _slowPath(count == capacity) { _grow() }
    (base + count).initialize(to: span)
    count &+= 1
  }

  /// Moves the spans to memory twice as large.
  @inlinable @inline(never)
  package mutating func _grow() {
    reserve(Swift.max(16, capacity &* 2))
  }

  /// Makes room for `capacity` spans in all (the spans stay).
  @inlinable
  package mutating func reserve(_ capacity: Int) {
    guard capacity > self.capacity else { return }
    let larger = _mallocTrivial(_LaneSpan.self, capacity: capacity)
    larger.moveInitialize(from: base, count: count)
    _freeTrivial(base)
    base = larger
    self.capacity = capacity
  }

  @inlinable
  package mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= count, "_SpanBuffer: cannot remove \(k) of \(count) spans")
    count &-= k
  }

  /// Frees the memory (the spans are trivial: nothing to deinitialize).
  @inlinable
  package func deallocate() { _freeTrivial(base) }

  /// Removes the spans from index `first` on that `shouldRemove` picks,
  /// keeping the others in order.
  @inlinable
  package mutating func removeAll(from first: Int, where shouldRemove: (_LaneSpan) -> Bool) {
    var kept = first
    for i in first ..< count where !shouldRemove(base[i]) {
      base[kept] = base[i]
      kept &+= 1
    }
    count = kept
  }

  /// Puts the spans from index `first` on in row order.
  @inlinable
  package mutating func sortByRow(from first: Int = 0) {
    var spans = UnsafeMutableBufferPointer(start: base + first, count: count &- first)
    spans.sort { $0.row < $1.row }
  }

  /// The spans, as an array; frees the memory.
  @inlinable
  package consuming func take() -> [_LaneSpan] {
    let spans = _makeArray(UnsafeBufferPointer(start: base, count: count))
    _freeTrivial(base)
    return spans
  }
}

extension _MasonryLanes {
  /// Appends to `gained`, in row order, the spans of the rows that meet
  /// `[low, high)` but not `[lastLow, lastHigh)` (SPEC G5's rule on each
  /// row's span; pitch from the body's start), from `last`: the spans of
  /// the rows that met the last window, in row order, each row moved on by
  /// `rowBase` and each start by `startBase` (as `appendSpans` writes
  /// them). A scroll frame's strips, lane by lane from each lane's first
  /// and last row on screen, not a search from the body's start.
  ///
  /// In a lane, the rows that meet a window are a run (their starts and
  /// ends ascend), so the rows gained below are those after the lane's last
  /// row in `last`, and those gained above the ones before its first.
  /// Returns false, `gained` unchanged, when that cannot answer: a lane
  /// with rows has none in `last` (unless it ends before `lastLow`, when
  /// nothing below can be in it), or a lane's next row lies more than
  /// `scanLimit` rows away.
  /// - Complexity: O(log(m/B) + u + k + g log g) for u spans in `last`, g
  ///   spans gained, and the rows of other lanes between (at most
  ///   `scanLimit` a lane).
  @inlinable
  package func appendStrips(meeting low: Int64, _ high: Int64, after lastLow: Int64, _ lastHigh: Int64,
                            last: UnsafeBufferPointer<_LaneSpan>, rowBase: Int, startBase: Int64,
                            to gained: inout _SpanBuffer, scanLimit: Int = 256) -> Bool {
    guard low < high, lastLow < lastHigh, !last.isEmpty, k <= 64,
          last[0].row >= rowBase, last[last.count &- 1].row < rowBase &+ count else { return false }
    @inline(__always) func meets(_ s: Int64, _ e: Int64, _ l: Int64, _ h: Int64) -> Bool {
      e > 0 ? (s < h && s &+ e > l) : (s >= l && s < h)
    }
    let k = self.k
    let spacing = self.spacing
    // Each lane's first span in `last` (for the strip above) and last (for
    // the strip below): an index into `last` and the row's block and slot.
    // One locate, then a walk with the rows from that end until every
    // lane has been seen.
    typealias Place = (index: Int, block: Int, slot: Int)
    let all: UInt64 = k == 64 ? .max : (1 &<< UInt64(k)) &- 1
    return withUnsafeTemporaryAllocation(of: (first: Place, last: Place).self, capacity: k) { ends in
      for j in 0 ..< k { ends[j] = ((-1, 0, 0), (-1, 0, 0)) }
      if low < lastLow {
        var seen: UInt64 = 0
        var (b, slot) = blocks.locate(last[0].row &- rowBase)
        var row = last[0].row
        for i in 0 ..< last.count {
          slot &+= last[i].row &- row
          row = last[i].row
          while slot >= blocks.lanes[b].count {
            slot &-= blocks.lanes[b].count
            b &+= 1
          }
          let j = Int(blocks.lanes[b][slot])
          if seen & (1 &<< UInt64(j)) == 0 {
            seen |= 1 &<< UInt64(j)
            ends[j].first = (i, b, slot)
            if seen == all { break }
          }
        }
      }
      if high > lastHigh {
        var seen: UInt64 = 0
        var (b, slot) = blocks.locate(last[last.count &- 1].row &- rowBase)
        var row = last[last.count &- 1].row
        for i in (0 ..< last.count).reversed() {
          slot &-= row &- last[i].row
          row = last[i].row
          while slot < 0 {
            b &-= 1
            slot &+= blocks.lanes[b].count
          }
          let j = Int(blocks.lanes[b][slot])
          if seen & (1 &<< UInt64(j)) == 0 {
            seen |= 1 &<< UInt64(j)
            ends[j].last = (i, b, slot)
            if seen == all { break }
          }
        }
      }
      let start = gained.count
      for j in 0 ..< k {
        if (low < lastLow && ends[j].first.index < 0) || (high > lastHigh && ends[j].last.index < 0) {
          // No row of this lane met the last window: below it, nothing
          // when the lane ends before it; else search.
          if laneTotals[j] <= lastLow && high > lastHigh && low >= lastLow { continue }
          gained.removeLast(gained.count &- start)
          return false
        }
        let lane = UInt8(truncatingIfNeeded: j)
        if low < lastLow {
          // Above: back from the lane's first row on screen.
          let first = last[ends[j].first.index]
          var s = first.start &- startBase
          var (b, t) = (ends[j].first.block, ends[j].first.slot)
          var r = first.row
          var scanned = 0
          search: while true {
            // The lane's row before (b, t).
            repeat {
              while t == 0 {  // (past spares: empty blocks)
                if b == 0 { break search }
                b &-= 1
                t = blocks.lanes[b].count
              }
              t &-= 1
              r &-= 1
              scanned &+= 1
              if scanned > scanLimit {
                gained.removeLast(gained.count &- start)
                return false
              }
            } while blocks.lanes[b][t] != lane
            let e = Int64(blocks.extents[b][t])
            s &-= e &+ spacing
            guard e > 0 ? s &+ e > low : s >= low else { break }
            if meets(s, e, low, high) && !meets(s, e, lastLow, lastHigh) {
              gained.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: Int32(lane)))
            }
          }
        }
        if high > lastHigh {
          // Below: on from the lane's last row on screen.
          let final = last[ends[j].last.index]
          var s = final.start &- startBase &+ final.extent &+ spacing
          var (b, t) = (ends[j].last.block, ends[j].last.slot)
          var r = final.row
          var scanned = 0
          search: while s < high {
            repeat {
              t &+= 1
              r &+= 1
              while t == blocks.lanes[b].count {  // (past spares: empty blocks)
                b &+= 1
                t = 0
                if b == blocks.blockCount { break search }
              }
              scanned &+= 1
              if scanned > scanLimit {
                gained.removeLast(gained.count &- start)
                return false
              }
            } while blocks.lanes[b][t] != lane
            let e = Int64(blocks.extents[b][t])
            if meets(s, e, low, high) && !meets(s, e, lastLow, lastHigh) {
              gained.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: Int32(lane)))
            }
            s &+= e &+ spacing
          }
        }
      }
      // Each lane's in order (above: last to first), the lanes' interleaved.
      if gained.count &- start > 1 { gained.sortByRow(from: start) }
      return true
    }
  }
}

extension _MasonryLanes {
  /// The rows that meet `[low, high)` (pitch from the body's start) after
  /// row `i`'s extent went from `old` to its extent now, from `spans`: the
  /// spans of the rows that met it before, in row order, each row moved on
  /// by `rowBase` and each start by `startBase` (as `appendSpans` writes
  /// them). A measurement moves only the rows after `i` in its lane (L4),
  /// by the change, so only that lane's rows on screen change, and only
  /// that lane's rows next to them can come in. Rewrites `spans` in place:
  /// its first rows are then the ones that still meet the window, with
  /// their new starts and extents, in row order, and returns how many;
  /// appends to `entering` the rows of the lane that meet it now and did
  /// not, in row order. `nil`, with `spans` unchanged, when that cannot
  /// answer: the lane has rows that reach the window and none in `spans`,
  /// a row of `spans` is not in the body, or the lane's next row lies more
  /// than `scanLimit` rows away.
  /// - Complexity: O(log(m/B) + u + g) for u spans and g rows entering,
  ///   and the rows of other lanes between (at most `scanLimit`).
  @inlinable
  package func _patchSpans(afterMeasuring i: Int, old: Int64, meeting low: Int64, _ high: Int64,
                           spans: UnsafeMutableBufferPointer<_LaneSpan>, rowBase: Int, startBase: Int64,
                           entering: inout _SpanBuffer, scanLimit: Int = 256) -> Int? {
    guard i >= 0, i < count, low < high else { return nil }
    let n = spans.count
    guard n == 0 || (spans[0].row >= rowBase && spans[n &- 1].row < rowBase &+ count) else { return nil }
    @inline(__always) func meets(_ s: Int64, _ e: Int64) -> Bool {
      e > 0 ? (s < high && s &+ e > low) : (s >= low && s < high)
    }
    let (bi, ti) = blocks.locate(i)
    let lane = blocks.lanes[bi][ti]
    let new = Int64(blocks.extents[bi][ti])
    let delta = new &- old
    let row = rowBase &+ i
    let spacing = self.spacing
    // The lane's first and last span: each span keeps its lane.
    let laneTag = Int32(lane)
    let first = spans.firstIndex { $0.lane == laneTag } ?? -1
    let last = first < 0 ? -1 : spans.lastIndex { $0.lane == laneTag }.unsafelyUnwrapped
    // A span of the lane as it is now.
    @inline(__always) func moved(_ span: _LaneSpan) -> _LaneSpan {
      _LaneSpan(row: span.row, start: span.row > row ? span.start &+ delta : span.start,
                extent: span.row == row ? new : span.extent, lane: laneTag)
    }
    let start = entering.count
    if first < 0 {
      // No row of the lane met the window: nothing can come in when the
      // lane ended before it, before and after.
      let total = laneTotals[Int(lane)]
      guard total <= low && total &- delta <= low else { return nil }
    } else if delta < 0 && spans[last].row >= row {
      // The lane's rows after its last on screen moved up: on from it.
      let final = moved(spans[last])
      var s = final.start &- startBase &+ final.extent &+ spacing
      var (b, t) = blocks.locate(final.row &- rowBase)
      var r = final.row
      var scanned = 0
      search: while s < high {
        repeat {
          t &+= 1
          r &+= 1
          while t == blocks.lanes[b].count {  // (past spares: empty blocks)
            b &+= 1
            t = 0
            if b == blocks.blockCount { break search }
          }
          scanned &+= 1
          if scanned > scanLimit {
            entering.removeLast(entering.count &- start)
            return nil
          }
        } while blocks.lanes[b][t] != lane
        let e = Int64(blocks.extents[b][t])
        if meets(s, e) { entering.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: laneTag)) }
        s &+= e &+ spacing
      }
    } else if delta > 0 && spans[first].row > row {
      // The lane's rows from row `i` to its first on screen moved down
      // (row `i` grew): back from it, down to row `i`.
      let head = moved(spans[first])
      var s = head.start &- startBase
      var (b, t) = blocks.locate(head.row &- rowBase)
      var r = head.row
      var scanned = 0
      search: while r > row {
        repeat {
          while t == 0 {  // (past spares: empty blocks)
            if b == 0 { break search }
            b &-= 1
            t = blocks.lanes[b].count
          }
          t &-= 1
          r &-= 1
          scanned &+= 1
          if scanned > scanLimit {
            entering.removeLast(entering.count &- start)
            return nil
          }
        } while blocks.lanes[b][t] != lane
        let e = Int64(blocks.extents[b][t])
        s &-= e &+ spacing
        guard e > 0 ? s &+ e > low : s >= low else { break }
        if meets(s, e) { entering.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: laneTag)) }
      }
      // Found last to first.
      var (x, y) = (start, entering.count &- 1)
      while x < y {
        swap(&entering.base[x], &entering.base[y])
        x &+= 1
        y &-= 1
      }
    }
    guard first >= 0 else { return n }
    // The lane's spans move; those that no longer meet the window go.
    var kept = first
    for k in first ... last {
      let span = spans[k]
      if span.lane == laneTag {
        let now = moved(span)
        if meets(now.start &- startBase, now.extent) {
          spans[kept] = now
          kept &+= 1
        }
      } else {
        if kept != k { spans[kept] = span }
        kept &+= 1
      }
    }
    // Those after the lane's last, as they were.
    let tail = n &- last &- 1
    if tail > 0 && kept != last &+ 1 {
      let base = spans.baseAddress.unsafelyUnwrapped
      (base + kept).update(from: base + (last &+ 1), count: tail)
    }
    kept &+= tail
    return kept
  }
}
