import Foundation

// SPEC L5 in a masonry body: the rows that meet a window, found lane by
// lane or in one walk in index order.

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
              let e = _value(x[t])
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
              let e = _value(x[slot])
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
    _MasonryLanes(extents: blocks.allExtents, lanes: nil, lanes: newK, spacing: spacing, estimate: estimate,
                  blockCapacity: blocks.capacity)
  }
}
