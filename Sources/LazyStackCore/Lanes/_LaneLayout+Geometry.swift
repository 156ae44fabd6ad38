import Foundation

// Where rows are with lanes (SPEC L3–L5), in the extent tree's coordinates:
// pitch from the leading inset. A lane section's body starts at its list
// start plus the corrections of the lane sections before it; every other
// row at its list start plus the corrections of the sections before it.

extension _LaneLayout {
  /// The number of lane sections whose body starts at or before row `i`.
  /// - Complexity: O(log s).
  @inlinable
  package func _sections(startingAtOrBefore i: Int) -> Int {
    var low = 0
    var high = sections.count
    while low < high {
      let mid = (low &+ high) &>> 1
      if sections[mid].bodyStart <= i { low = mid &+ 1 } else { high = mid }
    }
    return low
  }

  /// The lane section whose body holds row `i`, or nil.
  /// - Complexity: O(log s).
  @inlinable
  package func section(holding i: Int) -> Int? {
    let p = _sections(startingAtOrBefore: i)
    guard p > 0, i < sections[p &- 1].body.upperBound else { return nil }
    return p &- 1
  }

  /// Where section `p`'s body starts.
  /// - Complexity: O(log n + log s).
  @inlinable
  package func bodyStart(_ p: Int, in tree: ExtentTree<ID>) -> Int64 {
    tree.pitchPrefix(sections[p].bodyStart) &+ correction(before: p)
  }

  /// Row `i`'s start: its frame's main-axis start (L3, L4).
  /// - Complexity: O(log n + k + B).
  @inlinable
  package func start(of i: Int, in tree: ExtentTree<ID>) -> Int64 {
    let p = _sections(startingAtOrBefore: i)
    if p > 0, i < sections[p &- 1].body.upperBound {
      let q = p &- 1
      let local = i &- sections[q].bodyStart
      let inBody = sections[q].grid?.start(at: local, alignment: sections[q].alignment)
        ?? sections[q].masonry.unsafelyUnwrapped.start(at: local)
      return bodyStart(q, in: tree) &+ inBody
    }
    return tree.pitchPrefix(i) &+ correction(before: p)
  }

  /// The start view-aligned snapping aligns row `i` by (L7): its grid
  /// line's start, else its own.
  /// - Complexity: O(log n + k + B).
  @inlinable
  package func snapStart(of i: Int, in tree: ExtentTree<ID>) -> Int64 {
    if let p = section(holding: i), case .grid(let g, _) = sections[p].run {
      return bodyStart(p, in: tree) &+ g.lineStart((i &- sections[p].bodyStart) / g.k)
    }
    return start(of: i, in: tree)
  }

  /// Row `i`'s lane: 0 outside lane bodies (headers, footers, lists).
  /// - Complexity: O(log s + log n).
  @inlinable
  package func lane(of i: Int) -> Int {
    guard let p = section(holding: i) else { return 0 }
    switch sections[p].run {
    case .grid(let g, _): return (i &- sections[p].bodyStart) % g.k
    case .masonry(let m): return m.lane(at: i &- sections[p].bodyStart)
    }
  }

  /// Row `i`'s cross-axis start and width (L2), or nil for a row that
  /// spans the cross axis.
  /// - Complexity: O(log s + log n).
  @inlinable
  package func cross(of i: Int) -> (start: CGFloat, width: CGFloat)? {
    cross(of: i, lane: -1)
  }

  /// `cross(of:)` given row `i`'s lane when known (a masonry span's), or -1.
  /// - Complexity: O(log s), plus O(log n + B) when the lane is not given.
  @inlinable
  package func cross(of i: Int, lane knownLane: Int) -> (start: CGFloat, width: CGFloat)? {
    guard let p = section(holding: i), let (_, laneSpacing) = sections[p].layout.lanes else { return nil }
    let k = sections[p].run.lanes
    let width = Swift.max(0, (crossExtent - CGFloat(k &- 1) * laneSpacing) / CGFloat(k))
    return (crossLead + CGFloat(knownLane >= 0 ? knownLane : lane(of: i)) * (width + laneSpacing), width)
  }

  /// The pitch of every row: the list's plus every correction.
  /// - Complexity: O(log s).
  @inlinable
  package func totalPitch(in tree: ExtentTree<ID>) -> Int64 {
    tree.totalPitch &+ totalCorrection
  }

  /// The first lane section whose body ends after `y`, or `sections.count`.
  /// - Complexity: O(log s (log n + log s)).
  @inlinable
  package func _firstSection(endingAfter y: Int64, in tree: ExtentTree<ID>) -> Int {
    var low = 0
    var high = sections.count
    while low < high {
      let mid = (low &+ high) &>> 1
      if bodyStart(mid, in: tree) &+ sections[mid].pitch > y { high = mid } else { low = mid &+ 1 }
    }
    return low
  }

  /// The rows of the list rows `range` (between lane bodies, shifted by
  /// `shift`) that meet `[low, high)` (SPEC G5), appended in order.
  @inlinable
  package func _listRows(_ range: Range<Int>, shift: Int64, meeting low: Int64, _ high: Int64,
                         in tree: ExtentTree<ID>, into result: inout some _SpanSink) {
    guard !range.isEmpty else { return }
    let l = low &- shift
    let h = high &- shift
    // The first row that ends at or after `l` (an empty row at `l` meets).
    let first = Swift.max(range.lowerBound,
                          tree.firstRow(withPitchPrefixAfterAbove: l &- 1 &+ tree.spacing) ?? tree.count)
    let end = Swift.min(range.upperBound, tree.rowsStarting(before: h))
    guard first < end else { return }
    var i = first
    tree.forEachRow(in: first ..< end) { _, s, e in
      if e > 0 ? (s < h && s &+ e > l) : (s >= l && s < h) { result.append(_LaneSpan(row: i, start: s &+ shift, extent: e)) }
      i &+= 1
    }
  }

  /// The rows that meet `[low, high)` (SPEC G5 on each row's own frame),
  /// in index order: L5's `visibleRows`.
  /// - Complexity: O((s' + 1)(log n + k B) + v) for v rows met across s'
  ///   lane sections.
  @inlinable
  package func rows(meeting low: Int64, _ high: Int64, in tree: ExtentTree<ID>) -> [Int] {
    var sink = _RowSink()
    _appendSpans(meeting: low, high, in: tree, to: &sink)
    return sink.take()
  }

  /// `rows(meeting:_:in:)` with each row's start (the tree's coordinates)
  /// and extent.
  /// `capacity`: the room reserved (a frame's rows fit the default).
  @inlinable
  package func spans(meeting low: Int64, _ high: Int64, in tree: ExtentTree<ID>, capacity: Int = 128) -> [_LaneSpan] {
    var result = _SpanBuffer(capacity: capacity)
    _appendSpans(meeting: low, high, in: tree, to: &result)
    return result.take()
  }

  /// Appends `spans(meeting:_:in:)` to `result`.
  @inlinable
  package func _appendSpans(meeting low: Int64, _ high: Int64, in tree: ExtentTree<ID>,
                            to result: inout some _SpanSink) {
    guard low < high, tree.count > 0 else { return }
    // From the first section whose body ends at or after `low`.
    var p = _firstSection(endingAfter: low &- 1, in: tree)
    var listStart = p > 0 ? sections[p &- 1].body.upperBound : 0
    while true {
      let shift = correction(before: p)
      let listEnd = p < sections.count ? sections[p].bodyStart : tree.count
      _listRows(listStart ..< listEnd, shift: shift, meeting: low, high, in: tree, into: &result)
      guard p < sections.count else { break }
      let g = bodyStart(p, in: tree)
      if g >= high { break }
      if let grid = sections[p].grid {
        grid.appendSpans(meeting: low &- g, high &- g, alignment: sections[p].alignment,
                         rowBase: sections[p].bodyStart, startBase: g, to: &result)
      } else {
        sections[p].masonry.unsafelyUnwrapped.appendSpans(meeting: low &- g, high &- g,
                                                          rowBase: sections[p].bodyStart, startBase: g, to: &result)
      }
      listStart = sections[p].body.upperBound
      p &+= 1
    }
  }
}

extension _LaneLayout {
  /// When `[low, high)` and `[lastLow, lastHigh)` both lie in one masonry
  /// section's body: appends to `gained` the spans of the rows that meet
  /// the first and not the second, in row order, from `last` (the spans
  /// `spans(meeting: lastLow, lastHigh, in: tree)` gave), and returns
  /// true. Else, or when `_MasonryLanes.appendStrips` cannot answer,
  /// returns false with `gained` unchanged.
  /// - Complexity: O(log s (log n + log s)) and `appendStrips`'.
  @inlinable
  package func _appendStrips(meeting low: Int64, _ high: Int64, after lastLow: Int64, _ lastHigh: Int64,
                             last: UnsafeBufferPointer<_LaneSpan>, in tree: ExtentTree<ID>,
                             to gained: inout _SpanBuffer) -> Bool {
    let top = Swift.min(low, lastLow)
    let bottom = Swift.max(high, lastHigh)
    let p = sections.count == 1 ? 0 : _firstSection(endingAfter: top, in: tree)
    guard p < sections.count, let masonry = sections[p].masonry else { return false }
    let g = bodyStart(p, in: tree)
    // Rows before the body end by its start, rows after start at its end.
    // An empty row may start at the body's start (a header measured 0),
    // and meets a window from there: the window must start after it.
    guard (g < top || sections[p].bodyStart == 0) && bottom <= g &+ masonry.pitch else { return false }
    return masonry.appendStrips(meeting: low &- g, high &- g, after: lastLow &- g, lastHigh &- g, last: last,
                                rowBase: sections[p].bodyStart, startBase: g, to: &gained)
  }
}

extension _LaneLayout {
  /// `spans` (the spans `spans(meeting: low, high, in: tree)` gave before
  /// row `i`'s extent went from `old` to the tree's now, `grown` the pitch
  /// its body grew by) for the layout as it is now, in place:
  /// - in a grid, when `_gridShift` answers, each moved on by its `shift`,
  ///   all `kept`, meeting `[low + shift, high + shift)`;
  /// - when `[low, high)` lies in one masonry section's body and row `i` is
  ///   in it, the first `kept` are those that still meet the window (`shift`
  ///   0), and the rows that came in are appended to `entering`
  ///   (`_MasonryLanes._patchSpans`).
  /// Else `nil`, `spans` unchanged.
  /// - Complexity: O(log s + v) in a grid for v spans; in a masonry
  ///   O(log s (log n + log s)) and `_MasonryLanes._patchSpans`'.
  @inlinable
  package func _patchSpans(afterMeasuring i: Int, old: Int64, grown: Int64, meeting low: Int64, _ high: Int64,
                           spans: UnsafeMutableBufferPointer<_LaneSpan>, in tree: ExtentTree<ID>,
                           entering: inout _SpanBuffer) -> (kept: Int, shift: Int64)? {
    let p = sections.count == 1 ? 0 : _firstSection(endingAfter: low, in: tree)
    guard p < sections.count, sections[p].body.contains(i) else { return nil }
    let g = bodyStart(p, in: tree)
    if sections[p].grid != nil {
      guard let first = spans.first,
            let shift = _gridShift(afterMeasuring: i, by: grown, meeting: low, high, firstRow: first.row,
                                   section: p, bodyStart: g)
      else { return nil }
      if shift != 0 {
        for k in spans.indices { spans[k].start &+= shift }
      }
      return (spans.count, shift)
    }
    let masonry = sections[p].masonry.unsafelyUnwrapped
    // Rows before the body end by its start, rows after start at its end:
    // a measurement in the body moves none of them, and one that meets the
    // window (an empty header at the body's start) is among `spans`.
    guard g <= low && high <= g &+ masonry.pitch else { return nil }
    return masonry._patchSpans(afterMeasuring: i &- sections[p].bodyStart, old: old, meeting: low &- g, high &- g,
                               spans: spans, rowBase: sections[p].bodyStart, startBase: g, entering: &entering)
      .map { ($0, 0) }
  }
}

extension _LaneLayout {
  /// After row `i` of grid section `p`'s body (the first section whose
  /// body ends after `low`; the body starts at `g`) grew by `delta` units
  /// of pitch (its line's change, `setExtent`'s result), the rows that met
  /// `[low, high)` before, from row `firstRow` on, meet
  /// `[low + delta, high + delta)` now, each `delta` further on, and no
  /// other row does, when:
  /// - the window lay in the body before: `g < low`, `high <= g + pitch`;
  /// - the first row that met it is at least two lines after row `i`'s
  ///   line `L`. Then line `L + 1` met no part of the window, so its
  ///   longest row, which starts at the line's start, ended at or before
  ///   `low`, or was empty and started before it: line `L` ended strictly
  ///   before `low`, and after the change strictly before `low + delta`.
  ///   The lines from `L + 1` on moved by `delta`, the earlier ones and the
  ///   rows before the body not at all, the rows after the body by `delta`.
  ///
  /// Returns `delta` then (the window's and the spans' shift), else nil:
  /// the caller searches. A measurement above the screen, the common one,
  /// keeps the rows on screen without a search.
  /// - Complexity: O(1).
  @inlinable
  package func _gridShift(afterMeasuring i: Int, by delta: Int64, meeting low: Int64, _ high: Int64,
                          firstRow: Int, section p: Int, bodyStart g: Int64) -> Int64? {
    let grid = sections[p].grid.unsafelyUnwrapped
    let body = sections[p].body
    guard body.contains(firstRow),
          (firstRow &- body.lowerBound) / grid.k >= (i &- body.lowerBound) / grid.k &+ 2 else { return nil }
    guard g < low && high <= g &+ grid.pitch &- delta else { return nil }
    return delta
  }
}

extension _LaneLayout {
  /// The first row, in index order, that is visible from `low` down: a
  /// non-empty row that ends after it or an empty row that starts at or
  /// after it; with `byPitch`, the first whose end plus spacing is after
  /// `low`. `tree.count` when there is none.
  /// - Complexity: O(s' (log n + k B)) for the s' lane sections passed.
  @inlinable
  package func firstRow(from low: Int64, byPitch: Bool = false, in tree: ExtentTree<ID>) -> Int {
    let spacing = tree.spacing
    func visible(_ s: Int64, _ e: Int64) -> Bool {
      byPitch ? s &+ e &+ spacing > low : (e > 0 ? s &+ e > low : s >= low)
    }
    var p = _firstSection(endingAfter: low &- 1, in: tree)
    while true {
      let shift = correction(before: p)
      let range = _listRange(before: p, count: tree.count)
      if !range.isEmpty {
        let l = low &- shift
        // The first row whose pitch ends after `l`, or that ends at or after it.
        if let hit = tree._firstRowSpan(withPitchPrefixAfterAbove: byPitch ? l : l &- 1 &+ spacing),
           hit.row < range.upperBound {
          let first = Swift.max(hit.row, range.lowerBound)
          // The search may land on a non-empty row that ends exactly at `low`.
          var i = first
          var answer: Int?
          tree.forEachRow(in: first ..< Swift.min(range.upperBound, first &+ 2)) { _, s, e in
            if answer == nil && (byPitch ? s &+ e &+ spacing > l : (e > 0 ? s &+ e > l : s >= l)) { answer = i }
            i &+= 1
          }
          if let answer { return answer }
        }
      }
      guard p < sections.count else { return tree.count }
      let g = bodyStart(p, in: tree)
      let s = sections[p]
      var best: Int?
      switch s.run {
      case .grid(let grid, let alignment):
        if let line = grid.line(atPitch: low &- g &- 1) {
          grid.forEachLine(from: line) { _, start, longest, rows in
            for i in rows {
              let e = grid.extent(at: i)
              if visible(g &+ start &+ _FixedPoint.scale(longest &- e, by: alignment), e) {
                best = i
                return false
              }
            }
            return true  // the lines after it start after `low`: one of them has the row
          }
        }
      case .masonry(let m):
        for j in 0 ..< m.k {
          guard var i = m.firstRow(inLane: j, pitchEndAfter: low &- g &- 1) else { continue }
          var start = m.start(at: i)
          while best.map({ i < $0 }) ?? true {
            let e = m.extent(at: i)
            if visible(g &+ start, e) {
              best = i
              break
            }
            start &+= e &+ m.spacing
            guard let next = m.nextRow(inLane: j, after: i) else { break }
            i = next
          }
        }
      }
      if let best { return s.bodyStart &+ best }
      p &+= 1
    }
  }
}

extension _LaneLayout {
  /// Every row's start view-aligned snapping aligns to (L7: a grid row's
  /// line start, any other row's own start), in row order.
  /// - Complexity: O(n + s log n).
  @inlinable
  package func snapStarts(in tree: ExtentTree<ID>) -> [Int64] {
    var result: [Int64] = []
    result.reserveCapacity(tree.count)
    for p in 0 ... sections.count {
      let range = _listRange(before: p, count: tree.count)
      let shift = correction(before: p)
      if !range.isEmpty { tree.forEachRow(in: range) { _, s, _ in result.append(s &+ shift) } }
      guard p < sections.count else { break }
      let g = bodyStart(p, in: tree)
      switch sections[p].run {
      case .grid(let grid, _):
        grid.forEachLine(from: 0) { _, start, _, rows in
          for _ in rows { result.append(g &+ start) }
          return true
        }
      case .masonry(let m):
        var ends = ContiguousArray<Int64>(repeating: g, count: m.k)
        for (e, j) in zip(m.blocks.allExtents, m.blocks.allLanes) {
          result.append(ends[j])
          ends[j] &+= (e < 0 ? m.estimate : e) &+ m.spacing
        }
      }
    }
    return result
  }
}
