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
    if _slowPath(_motion.phase._isMoving) { _stopMotion() }  // T1, M4
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

  /// The scroll anchor's fraction for tracking (T1): inside the viewport.
  @inlinable @inline(__always)
  internal var _trackingFraction: CGFloat {
    _FixedPoint.fraction(_scrollAnchor?.fraction(along: axis) ?? 0)
  }

  /// Where tracking looks (T1): the rows that intersect the viewport (G5, no
  /// overscan) and the viewport's anchor point; `nil` when no row is visible.
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _tracking(fraction: CGFloat) -> (visible: Range<Int>, point: Int64, low: Int64)? {
    let viewport = _viewportUnits
    guard count > 0, viewport > 0 else { return nil }
    let low = _offset &- _alignmentShift
    let visible = _rows(intersecting: low, low &+ viewport)
    guard !visible.isEmpty else { return nil }
    return (visible, low &+ _FixedPoint.scale(viewport, by: fraction), low)
  }

  /// The tracked row (T1) where `_tracking` looks: the row at the anchor
  /// point (G4), clamped into the visible rows.
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _trackedRow(at point: Int64, in visible: Range<Int>) -> Int {
    Swift.min(Swift.max(_index(atUnits: point), visible.lowerBound), visible.upperBound &- 1)
  }

  /// The tracked row (T1) when one descent finds it: the row at the anchor
  /// point is not empty and intersects the viewport, so clamping it into the
  /// visible rows keeps it. `nil` sends the caller to `_tracking` and
  /// `_trackedRow`.
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _trackedFast(fraction: CGFloat) -> ExtentTree<ID>._RowInfo? {
    _trackedSpan(fraction: fraction).map { _tree._rowInfo($0.span) }
  }

  /// `_trackedFast`'s row as the descent found it, with the viewport's
  /// leading edge (`low`).
  /// - Complexity: O(log n + B).
  @inlinable @inline(__always)
  internal func _trackedSpan(fraction: CGFloat) -> (span: ExtentTree<ID>._Span, low: Int64)? {
    let viewport = _viewportUnits
    guard count > 0, viewport > 0 else { return nil }
    let low = _offset &- _alignmentShift
    let point = low &+ _FixedPoint.scale(viewport, by: fraction)
    // The row whose [start, end + spacing) holds the point: G4's row when it is not empty.
    guard let hit = _tree._firstRowSpanInline(withPitchPrefixAfterAbove: point &- _leadingInset &+ _tree.spacing,
                                              hint: _nearHint),
          hit.extent > 0 else { return nil }
    let start = _leadingInset &+ hit.start
    guard start < low &+ viewport && start &+ hit.extent > low else { return nil }
    return (hit, low)
  }

  /// Chooses the tracked row and the kept row at the current offset (T1, T3).
  /// - Complexity: O(log n + B).
  @inlinable
  internal mutating func _track() {
    _track(position: true)
  }

  /// Chooses the kept row at the current offset (T3) and, if `position`,
  /// makes the tracked row the user's position (T1). An animated scroll
  /// keeps rows on screen this way while `position` holds its target (M5).
  /// - Complexity: O(log n + B).
  @inlinable @inline(__always)
  internal mutating func _track(position: Bool) {
    let fraction = _trackingFraction
    var fast: ExtentTree<ID>._RowInfo?
    if let (span, low) = _trackedSpan(fraction: fraction) {
      let tracked = _tree._rowInfo(span)
      // A measured tracked row is the kept row (T3), and so is an estimated
      // one when no visible row is measured (every visible row is in the
      // tracked row's block, which has none): one descent. Else the nearest
      // measured visible row, by a walk of that block if it finds one.
      let nearest: ExtentTree<ID>._RowInfo?? = tracked.stored >= 0 || _tree._blockHoldsNoMeasuredRow(
        span, from: low &- _leadingInset, to: low &+ _viewportUnits &- _leadingInset)
        ? .some(nil) : _nearestMeasuredRow(around: span, fraction: fraction, low: low)
      if let found = nearest {
        let kept = found ?? tracked
        _anchor(to: kept, fraction: fraction, delta: _rowDelta(kept, fraction: fraction))
        if position { _setTrackedPosition(tracked.id) }
        return
      }
      fast = tracked
    }
    guard let (visible, point, low) = _tracking(fraction: fraction) else {
      _anchor = .automatic
      if position { _position = ScrollPosition(_target: .automatic, isPositionedByUser: true) }
      return
    }
    let tracked = fast ?? _tree.rowInfo(at: _trackedRow(at: point, in: visible))
    let kept = tracked.stored >= 0 ? tracked
      : _nearestMeasuredRow(to: point, in: visible, top: point == low) ?? tracked
    _anchor(to: kept, fraction: fraction, delta: _rowDelta(kept, fraction: fraction))
    if position { _setTrackedPosition(tracked.id) }
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
    let fraction = _trackingFraction
    if let tracked = _trackedFast(fraction: fraction) {
      return ScrollPosition(_target: .id(tracked.id, anchor: nil), isPositionedByUser: true)
    }
    if let (visible, point, _) = _tracking(fraction: fraction) {
      return ScrollPosition(_target: .id(_tree.id(at: _trackedRow(at: point, in: visible)), anchor: nil),
                            isPositionedByUser: true)
    }
    return ScrollPosition(_target: .automatic, isPositionedByUser: true)
  }

  /// T3's kept row near the tracked row `span` (the estimated row whose
  /// `[start, end + spacing)` holds the tracking point): the measured
  /// visible row nearest to the point, ties to the earlier, found by
  /// walking its block both ways from it (rows before it start at or
  /// before the point, rows after it after). `.some(nil)` when no visible
  /// row is measured; `nil` when a walk leaves the block or passes 64 rows
  /// (the caller searches: `_nearestMeasuredRow(to:in:top:)`).
  /// - Complexity: O(1) (at most 128 slots, in cache since the search that
  ///   found `span`).
  @inlinable @inline(__always)
  internal func _nearestMeasuredRow(around span: ExtentTree<ID>._Span, fraction: CGFloat,
                                    low: Int64) -> ExtentTree<ID>._RowInfo?? {
    let viewport = _viewportUnits
    let relativeLow = low &- _leadingInset
    guard let after = _tree._firstMeasuredRow(after: span, before: relativeLow &+ viewport),
          let before = _tree._lastMeasuredRow(before: span, visibleFrom: relativeLow) else { return nil }
    guard let earlier = before else { return .some(after) }
    guard let later = after else { return .some(earlier) }
    let point = relativeLow &+ _FixedPoint.scale(viewport, by: fraction)
    return later.start &- point < Swift.max(0, point &- (earlier.start &+ earlier.extent)) ? later : earlier
  }

  /// The measured row in `visible` nearest to `point` (the distance from the
  /// point to the row's `[start, end]`; ties: the earlier row), or `nil` if
  /// no visible row is measured (SPEC T3).
  ///
  /// Rows that start at or before the point have ends that do not decrease,
  /// so their distance never grows with the index; rows that start after it
  /// are farther the later they are. On each side the nearest is therefore
  /// the closest measured row: a rank and a select on the tree's measured
  /// counts (and a step back over rows at the same distance, for ties).
  /// `top` says the point is the viewport's leading edge (a top anchor).
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _nearestMeasuredRow(to point: Int64, in visible: Range<Int>, top: Bool) -> ExtentTree<ID>._RowInfo? {
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
    if top { return _tree.rowInfo(at: first) }
    func distance(_ r: ExtentTree<ID>._RowInfo) -> Int64 {
      let start = _leadingInset &+ r.start
      return point < start ? start &- point : Swift.max(0, point &- (start &+ r.extent))
    }
    // Rows 0 ..< split start at or before the point.
    let split = _tree.rowsStarting(before: point &- _leadingInset &+ 1)
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
