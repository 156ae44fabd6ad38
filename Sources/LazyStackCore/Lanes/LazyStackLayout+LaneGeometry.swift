import Foundation

// SPEC L3–L5 in the layout: where a row is once its section has lanes
// (`_placed`, `_sectionEnd`, a frame, the content's extent), the rows
// meeting the viewport (`visibleRows`), hit testing (`index(at:)`) and the
// starts snapping aligns to (L7). The placement (+Placement) asks these.

extension LazyStackLayout {
  /// Exactly the rows that intersect the viewport, overscan included, in
  /// index order (SPEC L5): `visibleIndices` is the smallest range holding
  /// them (in masonry it may hold rows that are off screen).
  /// - Complexity: O(log n + B + v) in a list; with lanes O(k (log n + B) + v)
  ///   for v rows on screen.
  @inlinable
  public var visibleRows: [Int] {
    guard _laneBox != nil, count > 0, _viewportUnits > 0 else { return Array(visibleIndices) }
    let window = _visibleWindow
    let (low, high) = (window.low &- _leadingInset, window.high &- _leadingInset)
    let meeting: [Int]
    if _meetingCache?.stamp == _stamp {
      // This frame's tracking walked the same window, or one a little
      // off it (a measurement's correction moved it): from its rows.
      var last = _meetingCache
      let spans = _meetingSpans(low, high, last: &last)
      var rows = _RowSink(capacity: spans.count)
      spans.withUnsafeBufferPointer { rows.append(contentsOf: $0) }
      meeting = rows.take()
    } else {
      meeting = _laneBox.unsafelyUnwrapped.value.rows(meeting: low, high, in: _tree)
    }
    guard let first = meeting.first, let last = meeting.last else { return [] }
    // Rows added by overscan in rows (as `visibleIndices` adds them) lie outside the meeting ones.
    var before = first
    var after = last &+ 1
    if case .rows(let k) = overscan.before, k > 0 { before = Swift.max(0, first &- k) }
    if case .rows(let k) = overscan.after, k > 0 { after = Swift.min(count, after &+ (k > count ? count : k)) }
    if before == first && after == last &+ 1 { return meeting }
    return Array(before ..< first) + meeting + Array((last &+ 1) ..< after)
  }

  /// The row whose frame contains `point` (content coordinates), or nil:
  /// in spacing, past a lane's end, on an empty row (SPEC L5, hit testing
  /// for taps and drops).
  /// - Complexity: O(log n + B); with lanes O(k (log n + B)).
  @inlinable
  public func index(at point: CGPoint) -> Int? {
    guard count > 0, !point.x.isNaN, !point.y.isNaN else { return nil }
    let (main, cross) = axis == .vertical ? (point.y, point.x) : (point.x, point.y)
    let y = _FixedPoint.units(main) &- _alignmentShift &- _leadingInset
    let candidate: Int?
    if let lanes = _laneBox?.value {
      candidate = lanes.row(at: y, cross: cross, in: _tree)
    } else {
      let hit = _tree._firstRowSpan(withPitchPrefixAfterAbove: y &+ _tree.spacing)
      candidate = hit.flatMap { $0.extent > 0 && $0.start <= y && y < $0.start &+ $0.extent ? $0.row : nil }
    }
    guard let i = candidate else { return nil }
    return frame(at: i).contains(point) ? i : nil
  }

  /// The viewport window `visibleRows` reads, overscan in points
  /// included, in unshifted content units, the leading inset not taken
  /// off (its callers take it off; `visibleIndices` works out the same
  /// window by itself).
  @inlinable
  internal var _visibleWindow: (low: Int64, high: Int64) {
    var before: Int64 = 0
    var after: Int64 = 0
    if case .points(let p) = overscan.before, p.isFinite, p > 0 { before = _FixedPoint.units(p) }
    if case .points(let p) = overscan.after, p.isFinite, p > 0 { after = _FixedPoint.units(p) }
    let low = _offset &- _alignmentShift &- before
    return (low, low &+ _viewportUnits &+ before &+ after)
  }

  /// `row` with its start where lanes put it (its list start otherwise).
  @inlinable @inline(__always)
  internal func _placed(_ row: ExtentTree<ID>._RowInfo) -> ExtentTree<ID>._RowInfo {
    guard _slowPath(_laneBox != nil) else { return row }
    return _placedInLanes(row)
  }

  /// `_placed` of a row that may not exist.
  @inlinable @inline(__always)
  internal func _placedIfAny(_ row: ExtentTree<ID>._RowInfo?) -> ExtentTree<ID>._RowInfo? {
    guard let row else { return nil }
    return _placed(row)
  }

  /// `_placed` with lanes: the row's start from the rows the last frame
  /// found on screen when they are current and hold it (the kept row,
  /// usually: a stabilization after a measurement reads no lane
  /// structure), else from the lane sections.
  /// - Complexity: O(log v) for v rows on screen when they hold the row;
  ///   else `_LaneLayout.start(of:in:)`'s, O(k (log n + B)).
  @inlinable @inline(never)
  internal func _placedInLanes(_ row: ExtentTree<ID>._RowInfo) -> ExtentTree<ID>._RowInfo {
    var placed = row
    placed.start = _cachedStart(of: row.index) ?? _laneBox.unsafelyUnwrapped.value.start(of: row.index, in: _tree)
    if _slowPath(_checks) {
      let start = _laneBox.unsafelyUnwrapped.value.start(of: row.index, in: _tree)
      precondition(placed.start == start, "row \(row.index) kept on screen at \(placed.start), laid out at \(start)")
    }
    return placed
  }

  /// Where the rows of `section` end, in the tree's coordinates: its last
  /// row's end in a list; the longest lane's (or line's) end when it ends
  /// with a lane body (SPEC L4, H4).
  /// - Complexity: O(log n + B); with lanes O(log n + k + B).
  @inlinable
  internal func _sectionEnd(_ section: Range<Int>) -> Int64 {
    let last = section.upperBound &- 1
    if let lanes = _laneBox?.value, let p = lanes.section(holding: last), lanes.sections[p].body.count > 0 {
      let bodyEnd = lanes.bodyStart(p, in: _tree) &+ lanes.sections[p].pitch &- _tree.spacing
      return Swift.max(bodyEnd, section.lowerBound < lanes.sections[p].bodyStart
                         ? _span(section.lowerBound).start &+ _tree.extent(at: section.lowerBound) : bodyEnd)
    }
    let span = _span(last)
    return span.start &+ span.extent
  }

  /// The rows of the first masonry section that meet the window of
  /// `visibleRows` (overscan aside), found by one walk in index order only
  /// (`walkLimit: .max`) or by the search `visibleRows` uses (`nil`): for
  /// the soak's comparison of the two on lanes that drifted apart. `nil`
  /// without a masonry section.
  /// - Complexity: that of `visibleRows`, or O(w) for the one walk, w the
  ///   rows between the lanes' first rows on screen and the last.
  package func _masonryRowsOnScreen(walkLimit: Int?) -> [Int]? {
    guard let lanes = _laneBox?.value, count > 0, _viewportUnits > 0,
          let p = lanes.sections.firstIndex(where: { $0.masonry != nil }) else { return nil }
    let window = _visibleWindow
    let g = lanes.bodyStart(p, in: _tree)
    let first = lanes.sections[p].bodyStart
    return lanes.sections[p].masonry.unsafelyUnwrapped
      .rows(meeting: window.low &- _leadingInset &- g, window.high &- _leadingInset &- g, walkLimit: walkLimit)
      .map { first &+ $0 }
  }

  /// `frame(at:)` with lanes: the row's start and its lane's cross-axis
  /// start and width (SPEC L2–L4).
  /// - Complexity: O(log v) for a row on screen (v rows); else O(k (log n + B)).
  @inlinable @inline(never)
  internal func _laneFrame(at index: Int) -> CGRect {
    let lanes = _laneBox.unsafelyUnwrapped.value
    // A row on screen: its start, extent and masonry lane as this frame's
    // walk found them (the rows a UI draws, asked for every frame).
    let span = _cachedSpan(of: index)
    let rect = span.map { _rect(start: $0.start, extent: $0.extent) }
      ?? _rect(start: lanes.start(of: index, in: _tree), extent: _tree.extent(at: index))
    guard let cross = lanes.cross(of: index, lane: span.map { Int($0.lane) } ?? -1) else { return rect }
    return axis == .vertical
      ? CGRect(x: cross.start, y: rect.minY, width: cross.width, height: rect.height)
      : CGRect(x: rect.minX, y: cross.start, width: rect.width, height: cross.width)
  }

  /// `_rows(intersecting:_:)` with lanes: the smallest range holding every
  /// row that meets the window (SPEC L5), else an empty range where the
  /// first visible row would be.
  /// - Complexity: O(k (log n + B) + r) for r rows met.
  @inlinable @inline(never)
  internal func _laneRows(intersecting low: Int64, _ high: Int64) -> Range<Int> {
    let lanes = _laneBox.unsafelyUnwrapped.value
    let meeting = lanes.rows(meeting: low &- _leadingInset, high &- _leadingInset, in: _tree)
    if let first = meeting.first, let last = meeting.last { return first ..< last &+ 1 }
    let first = lanes.firstRow(from: low &- _leadingInset, in: _tree)
    return first ..< first
  }

  /// `_contentUnits` with lanes (SPEC L3, L4): the corrections added.
  /// - Complexity: O(log s) for s lane sections.
  @inlinable @inline(never)
  internal var _laneContentUnits: Int64 {
    guard count > 0, let lanes = _laneBox?.value else { return _leadingInset &+ _trailingInset }
    return _leadingInset &+ lanes.totalPitch(in: _tree) &- _tree.spacing &+ _trailingInset
  }

  /// The distinct starts view-aligned snapping aligns to with lanes
  /// (SPEC L7), in content units.
  /// - Complexity: O(n log n).
  @inlinable @inline(never)
  internal func _laneSnapGeometry() -> _LaneSnapGeometry {
    guard let lanes = _laneBox?.value else { return _LaneSnapGeometry(starts: []) }
    let sorted = lanes.snapStarts(in: _tree).map { _leadingInset &+ $0 }.sorted()
    var distinct: [Int64] = []
    distinct.reserveCapacity(sorted.count)
    for s in sorted where distinct.last != s { distinct.append(s) }
    return _LaneSnapGeometry(starts: distinct)
  }
}
