import Foundation

extension LazyStackLayout {
  /// The scroll position (SPEC §3–5). Setting it, or mutating it in place
  /// (`layout.position.scrollTo(id: 42)`), scrolls programmatically (R1–R7);
  /// while the user scrolls, the layout writes the tracked row here with
  /// `isPositionedByUser == true` (T1).
  ///
  /// - An edge resolves to 0 or `maxOffset` (R1) and stays pinned (S8).
  /// - A point (or x / y) resolves to that offset, clamped (R2, S9). A NaN
  ///   component is ignored; infinities clamp to the ends.
  /// - An id with an anchor lines the row's anchor point up with the
  ///   viewport's (R3); like SwiftUI's `UnitPoint`, an anchor outside 0...1
  ///   applies as written (with `UnitPoint(x: 0, y: 1.1)` the point 10 % of
  ///   the row's extent past its end lines up with the point 10 % of the
  ///   viewport past its end; magnitudes are capped at 2^20), and only the
  ///   offset is clamped. With no anchor (and no `scrollAnchor`, R7), it scrolls
  ///   as little as possible (R4). The row is then kept there through
  ///   measurements and data changes (R6, §6).
  /// - With `pinnedViews` holding `.sectionHeaders`, an id lands under its
  ///   section's pinned header (and above its pinned footer), and stays
  ///   exactly there as the header is measured, until the user scrolls
  ///   (H6); where the pinned rows leave the row no room, the whole
  ///   viewport is used.
  /// - An unknown id (or one of another type) changes nothing: `position` is
  ///   put back and `lastPositionResult` is `.unknownID` (R5).
  /// - A position with `isPositionedByUser == true` is stored, not resolved (T1).
  ///
  /// Read after the user scrolled, it names the row at the viewport's anchor
  /// point now (T1): measurements, edits and resizes since the scroll may
  /// have moved other rows there, while the row the layout keeps in place
  /// (T3) stays the same until the next user scroll.
  /// - Complexity: O(log n + B) (B: the block capacity, at most 512), to
  ///   read or to write.
  @inlinable
  public var position: ScrollPosition {
    get { _viewIDStale ? _derivedUserPosition : _position }
    set { _setPosition(newValue) }
  }

  @inlinable
  internal mutating func _setPosition(_ newValue: ScrollPosition) {
    _frameEnter()
    defer { _frameExit(.still) }
    if _slowPath(_batch != nil) {
      let log = _suspendBatch()
      _setPosition(newValue)
      return _resumeBatch(log)
    }
    if _slowPath(_motion.phase._isMoving) { _stopMotion(writing: newValue) }  // M4: a scroll without animation
    if _slowPath(_pendingRestore != nil) { _dropPendingRestore(writing: newValue) }  // C3
    if newValue.isPositionedByUser {
      _position = newValue
      _lastPositionResult = .userPositionStored
      return
    }
    let before = _capture()
    switch newValue._target {
    case .automatic:
      _anchor = .automatic
    case .edge(let edge):
      _anchor = .edge(edge)
      _offset = edge.isLeadingEdge ? 0 : _maxOffset
    case .point(let x, let y):
      _anchor = .point
      let (main, cross) = axis == .vertical ? (y, x) : (x, y)
      if let main, !main.isNaN {
        _offset = main == .infinity ? _maxOffset : _clamp(_FixedPoint.units(main))
      }
      if let cross, !cross.isNaN {
        _crossOffset = cross == .infinity ? .greatestFiniteMagnitude : cross
        _clampCrossOffset()
      }
    case .id(let anyID, let anchor):
      guard let id = anyID as? ID, let row = _placedIfAny(_tree.rowInfo(of: id)) else {
        _lastPositionResult = .unknownID(String(describing: anyID))
        return  // SPEC R5: `_position` still holds the previous position.
      }
      let fraction: CGFloat
      var delta: Int64 = 0
      if let anchor = anchor ?? _scrollAnchor {
        // SPEC R3: a fraction outside 0...1 applies as written.
        fraction = _FixedPoint.anchorFraction(anchor.fraction(along: axis))
      } else {
        // SPEC R4: minimal scroll, in the viewport less the pinned rows (H6).
        let (lead, trail) = _pinnedViews.isEmpty ? (0, 0) : _pinnedInsets(for: row)
        let start = _leadingInset &+ row.start
        let end = start &+ row.extent
        let top = _offset &+ lead
        let viewport = _viewportUnits &- lead &- trail
        if start >= top && end <= top &+ viewport {
          fraction = 0
          delta = start &- top
        } else {
          fraction = start < top || row.extent > viewport ? 0 : 1
        }
      }
      _land(row, fraction: fraction, delta: delta)
    }
    _position = newValue
    _frameNoteReset()  // F6 (e)
    _reportProgrammaticScroll(from: before.offset)
  }

  /// Lands `row` as a programmatic target: its point at `fraction`
  /// `delta` units after the viewport's (R3; in the viewport less the
  /// pinned rows, H6), kept as the anchor (R6).
  @inlinable @inline(__always)
  internal mutating func _land(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat, delta: Int64) {
    var target = _rowTarget(row, fraction: fraction, delta: delta)
    if !_pinnedViews.isEmpty { target = _programmaticTarget(row, fraction: fraction, delta: delta) }  // H6
    _anchor(to: row, fraction: fraction, delta: delta)
    _offset = _clamp(target)
  }

  /// Ends a programmatic scroll from the offset `before`: the cross offset
  /// clamped, the correction reported (S11) and the result stored.
  @inlinable @inline(__always)
  internal mutating func _reportProgrammaticScroll(from before: Int64) {
    _clampCrossOffset()
    let correction = ScrollCorrection(
      offsetDelta: _FixedPoint.points(_offset &- before), contentOffset: contentOffset, cause: .programmaticScroll)
    _lastCorrection = correction
    _lastPositionResult = .resolved(correction)
    _checkInvariants()
  }
}
