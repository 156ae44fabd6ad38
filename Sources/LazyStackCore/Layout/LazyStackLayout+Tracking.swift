import Foundation

extension LazyStackLayout {
  /// The user scrolled to `offset` (SPEC T1, T3): the offset is clamped
  /// (G3), any pending programmatic target is cancelled (R6), and
  /// `position` becomes the tracked row with `isPositionedByUser == true`.
  ///
  /// The tracked row is the one at the viewport's point at the scroll
  /// anchor's fraction (top / leading if none), clamped into the visible
  /// rows. The row the layout keeps in place from now on (T3) is the
  /// tracked row if it is measured, else the measured visible row nearest to
  /// that point: so the rows this scroll revealed lie between the kept row
  /// and the edge they came in at, and measuring them moves nothing the user
  /// has seen (S1). NaN components are ignored.
  /// - Complexity: O(log n + B).
  @inlinable
  public mutating func userScroll(to offset: CGPoint) {
    _frameEnter()
    defer { _frameExit(.travel) }
    if _slowPath(_batch != nil) {  // U1: the batch's changes so far are stabilized first
      let log = _suspendBatch()
      userScroll(to: offset)
      return _resumeBatch(log)
    }
    let start = _offset
    defer { if _offset != start { _frame.forward = _offset > start } }  // F5: the direction of travel
    if _slowPath(_motion.phase._isMoving) { _stopMotion() }  // T1, M4
    if _slowPath(_pendingRestore != nil) { _pendingRestore = nil }  // C3: a user scroll drops a waiting restore
    let (main, cross) = axis == .vertical ? (offset.y, offset.x) : (offset.x, offset.y)
    if !main.isNaN {
      _offset = main == .infinity ? _maxOffset : _clamp(_FixedPoint.units(main))
    }
    if !cross.isNaN {
      _crossOffset = cross == .infinity ? .greatestFiniteMagnitude : cross
      _clampCrossOffset()
    }
    _track()
    _checkInvariants()
  }

  /// Where tracking looks (T1, T3): the viewport's edges and its anchor
  /// point, in the tree's coordinates (`ExtentTree` measures rows from the
  /// leading inset; `_fromTreeCoordinates(_:)` converts back), and the
  /// anchor's fraction; `nil` when there is no row or no viewport.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal var _trackingWindow: _TrackingWindow? {
    let viewport = _viewportUnits
    guard count > 0, viewport > 0 else { return nil }
    let fraction = _FixedPoint.fraction(_scrollAnchor?.fraction(along: axis) ?? 0)
    let low = _offset &- _alignmentShift &- _leadingInset
    return _TrackingWindow(low: low, high: low &+ viewport, point: low &+ _FixedPoint.scale(viewport, by: fraction),
                           fraction: fraction)
  }

  /// A position in the tree's coordinates as unshifted content units (the
  /// coordinates of `_row(atUnits:)` and `_rows(intersecting:_:)`).
  @inlinable @inline(__always)
  internal func _fromTreeCoordinates(_ units: Int64) -> Int64 {
    units &+ _leadingInset
  }

  /// The rows that intersect the window (G5, no overscan), by a search.
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _visibleRows(in window: _TrackingWindow) -> Range<Int> {
    _rows(intersecting: _fromTreeCoordinates(window.low), _fromTreeCoordinates(window.high))
  }

  /// The tracked row (T1) by a search: the row at the anchor point (G4),
  /// clamped into the visible rows.
  /// - Precondition: `visible` is `_visibleRows(in: window)` and not empty.
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _trackedRow(in window: _TrackingWindow, visible: Range<Int>) -> Int {
    Swift.min(Swift.max(_row(atUnits: _fromTreeCoordinates(window.point)), visible.lowerBound),
              visible.upperBound &- 1)
  }

  /// The tracked row (T1) by one descent, when that is enough: the row at
  /// the anchor point is not empty and intersects the viewport, so clamping
  /// it into the visible rows keeps it. `nil` sends the caller to the
  /// search (`_visibleRows(in:)`, `_trackedRow(in:visible:)`).
  /// - Complexity: O(log n + B).
  @_transparent @usableFromInline
  internal func _trackedRowSpan(in window: _TrackingWindow) -> ExtentTree<ID>._RowSpan? {
    // The row whose [start, end + spacing) holds the point: G4's row when it is not empty.
    guard let hit = _tree._firstRowSpanInline(withPitchPrefixAfterAbove: window.point &+ _tree.spacing,
                                              hint: _nearHint),
          hit.extent > 0, hit.start < window.high && hit.start &+ hit.extent > window.low else { return nil }
    return hit
  }

  /// Chooses the tracked row and the kept row at the current offset (T1, T3).
  /// - Complexity: O(log n + B).
  @inlinable
  internal mutating func _track() {
    _track(updatingPosition: true)
  }

  /// Chooses the kept row at the current offset (T3) and, if
  /// `updatingPosition`, makes the tracked row the user's position (T1). An
  /// animated scroll keeps rows on screen this way while `position` holds
  /// its target (M5).
  ///
  /// The kept row is the tracked row when it is measured, and when no
  /// visible row is measured; else the measured visible row nearest to the
  /// anchor point. One descent finds the tracked row and a walk of its
  /// block (`_nearestMeasuredRowByWalk`) the kept row, in the common case;
  /// else a search does (`_nearestMeasuredRowBySearch`).
  /// - Complexity: O(log n + B).
  @inlinable @inline(__always)
  internal mutating func _track(updatingPosition: Bool) {
    guard let window = _trackingWindow else {
      _anchor = .automatic
      if updatingPosition { _position = ScrollPosition(_target: .automatic, isPositionedByUser: true) }
      return
    }
    if _slowPath(_laneBox != nil) { return _trackInLanes(window, updatingPosition: updatingPosition) }
    var tracked: ExtentTree<ID>._RowInfo?
    if let span = _trackedRowSpan(in: window) {
      let row = _tree.rowInfo(found: span)
      // Every visible row is in the tracked row's block when the window
      // lies inside it: if that block has no measured row, none is visible.
      let walk: ExtentTree<ID>._WalkResult =
        row.stored >= 0 || _tree._blockHoldsNoMeasuredRow(span, from: window.low, to: window.high)
        ? .noMeasuredRow : _nearestMeasuredRowByWalk(around: span, in: window)
      switch walk {
      case .found(let kept):
        _keep(kept, tracked: row.id, in: window, updatingPosition: updatingPosition)
        return
      case .noMeasuredRow:
        _keep(row, tracked: row.id, in: window, updatingPosition: updatingPosition)
        return
      case .gaveUp:
        tracked = row
      }
    }
    let visible = _visibleRows(in: window)
    guard !visible.isEmpty else {
      _anchor = .automatic
      if updatingPosition { _position = ScrollPosition(_target: .automatic, isPositionedByUser: true) }
      return
    }
    let row = tracked ?? _tree.rowInfo(at: _trackedRow(in: window, visible: visible))
    let kept = row.stored >= 0 ? row : _nearestMeasuredRowBySearch(in: window, visible: visible) ?? row
    _keep(kept, tracked: row.id, in: window, updatingPosition: updatingPosition)
  }

  /// Makes `kept` the anchor row where it is now (T3) and, if
  /// `updatingPosition`, `tracked` the user's position (T1).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal mutating func _keep(_ kept: ExtentTree<ID>._RowInfo, tracked: ID, in window: _TrackingWindow,
                               updatingPosition: Bool) {
    _anchor(to: kept, fraction: window.fraction, delta: _rowDelta(kept, fraction: window.fraction))
    if updatingPosition { _setTrackedPosition(tracked) }
  }

  /// Makes the tracked row `id` the user's position (T1), unless the
  /// position already is that row as tracking wrote it and is current.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal mutating func _setTrackedPosition(_ id: ID) {
    if !_viewIDStale, let current = _trackedPositionID, current == id { return }
    _position = ScrollPosition(_target: .id(id, anchor: nil), isPositionedByUser: true)
    _trackedPositionID = id
  }

  /// A position the user scrolled to, as it reads after a stabilization: the
  /// row now at the viewport's anchor point (T1), or no row when none is
  /// visible; the kept row is unchanged (T3).
  /// - Complexity: O(log n + B).
  @inlinable
  internal var _derivedUserPosition: ScrollPosition {
    guard let window = _trackingWindow else { return ScrollPosition(_target: .automatic, isPositionedByUser: true) }
    if _slowPath(_laneBox != nil) {
      var last = _meetingCache
      let tracked = _trackedRowInLanes(window, last: &last).map { _tree.id(at: $0.tracked.row) }
      return ScrollPosition(_target: tracked.map { .id($0, anchor: nil) } ?? .automatic, isPositionedByUser: true)
    }
    if let span = _trackedRowSpan(in: window) {
      return ScrollPosition(_target: .id(_tree.rowInfo(found: span).id, anchor: nil), isPositionedByUser: true)
    }
    let visible = _visibleRows(in: window)
    guard !visible.isEmpty else { return ScrollPosition(_target: .automatic, isPositionedByUser: true) }
    return ScrollPosition(_target: .id(_tree.id(at: _trackedRow(in: window, visible: visible)), anchor: nil),
                          isPositionedByUser: true)
  }

  /// T3's kept row near the tracked row `span` (the estimated row whose
  /// `[start, end + spacing)` holds the anchor point), by walking its block
  /// both ways from it (rows before it start at or before the point, rows
  /// after it after): the measured visible row nearest to the point, ties
  /// to the earlier; `.noMeasuredRow` when no visible row is measured;
  /// `.gaveUp` when a walk leaves the block or passes
  /// `ExtentTree._walkLimit` rows (the caller searches:
  /// `_nearestMeasuredRowBySearch`).
  /// - Complexity: O(1) (at most twice `ExtentTree._walkLimit` slots, in
  ///   cache since the search that found `span`).
  @inlinable @inline(__always)
  internal func _nearestMeasuredRowByWalk(around span: ExtentTree<ID>._RowSpan,
                                          in window: _TrackingWindow) -> ExtentTree<ID>._WalkResult {
    let after = _tree._firstMeasuredRow(after: span, before: window.high)
    if case .gaveUp = after { return .gaveUp }
    let before = _tree._lastMeasuredRow(before: span, visibleFrom: window.low)
    switch (before, after) {
    case (.gaveUp, _): return .gaveUp
    case (.noMeasuredRow, _): return after
    case (.found, .noMeasuredRow), (.found, .gaveUp): return before
    case (.found(let earlier), .found(let later)):
      let point = window.point
      return .found(later.start &- point < Swift.max(0, point &- (earlier.start &+ earlier.extent)) ? later : earlier)
    }
  }

  /// The measured row in `visible` nearest to the window's anchor point
  /// (the distance from the point to the row's `[start, end]`; ties: the
  /// earlier row), or `nil` if no visible row is measured (SPEC T3).
  ///
  /// Rows that start at or before the point have ends that do not decrease,
  /// so their distance never grows with the index; rows that start after it
  /// are farther the later they are. On each side the nearest is therefore
  /// the closest measured row: a rank and a select on the tree's measured
  /// counts (and a step back over rows at the same distance, for ties).
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _nearestMeasuredRowBySearch(in window: _TrackingWindow,
                                            visible: Range<Int>) -> ExtentTree<ID>._RowInfo? {
    let point = window.point
    let measured = _tree.measuredCount
    guard measured > 0 else { return nil }
    // The first measured row from the first visible one on: none visible ends the search.
    let skipped = _tree.measuredRows(before: visible.lowerBound)
    guard skipped < measured else { return nil }
    let first = _tree.measuredRow(rank: skipped)
    guard first < visible.upperBound else { return nil }
    // With the point on the viewport's leading edge, every visible row is
    // at distance max(0, start - point), which never decreases: the first
    // measured visible row is the nearest, and the earliest.
    if point == window.low { return _tree.rowInfo(at: first) }
    func distance(_ r: ExtentTree<ID>._RowInfo) -> Int64 {
      point < r.start ? r.start &- point : Swift.max(0, point &- (r.start &+ r.extent))
    }
    // Rows 0 ..< split start at or before the point.
    let split = _tree.rowsStarting(before: point &+ 1)
    var best: ExtentTree<ID>._RowInfo?
    var rank = _tree.measuredRows(before: Swift.min(split, visible.upperBound))
    if rank > 0 {
      var index = _tree.measuredRow(rank: rank &- 1)
      if index >= visible.lowerBound {
        var candidate = _tree.rowInfo(at: index)
        let d = distance(candidate)
        while rank > 1 {
          index = _tree.measuredRow(rank: rank &- 2)
          guard index >= visible.lowerBound else { break }
          let earlier = _tree.rowInfo(at: index)
          guard distance(earlier) == d else { break }
          candidate = earlier
          rank &-= 1
        }
        best = candidate
      }
    }
    let after = _tree.measuredRows(before: Swift.min(split, count))
    if after < measured {
      let index = _tree.measuredRow(rank: after)
      if index < visible.upperBound && index >= visible.lowerBound {
        let candidate = _tree.rowInfo(at: index)
        if best.map({ distance(candidate) < distance($0) }) ?? true { best = candidate }
      }
    }
    return best
  }
}

/// Where tracking looks (SPEC T1, T3), in the tree's coordinates (units from
/// the leading inset, as `ExtentTree` measures rows): the viewport's leading
/// edge `low`, its trailing edge `high`, and the anchor point at
/// `fraction` of the way from one to the other.
@usableFromInline
internal struct _TrackingWindow {
  @usableFromInline internal var low: Int64
  @usableFromInline internal var high: Int64
  @usableFromInline internal var point: Int64
  @usableFromInline internal var fraction: CGFloat

  @inlinable @inline(__always)
  internal init(low: Int64, high: Int64, point: Int64, fraction: CGFloat) {
    self.low = low
    self.high = high
    self.point = point
    self.fraction = fraction
  }
}
