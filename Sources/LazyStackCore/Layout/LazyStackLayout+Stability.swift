import Foundation

extension LazyStackLayout {
  /// What the layout looked like before a change, for stabilization.
  @usableFromInline
  internal struct _Before {
    @usableFromInline var offset: Int64
    @usableFromInline var maxOffset: Int64
    @usableFromInline var content: Int64
    @usableFromInline var viewport: Int64

    @inlinable
    init(offset: Int64, maxOffset: Int64, content: Int64, viewport: Int64) {
      self.offset = offset
      self.maxOffset = maxOffset
      self.content = content
      self.viewport = viewport
    }
  }

  @inlinable
  internal func _capture() -> _Before {
    _Before(offset: _offset, maxOffset: _maxOffset, content: _contentUnits, viewport: _viewportUnits)
  }

  /// The size-changes anchor's main-axis fraction (nil: 0, top / leading).
  @inlinable
  internal var _sizeChangesFraction: CGFloat {
    _FixedPoint.fraction(_sizeChangesAnchor?.fraction(along: axis) ?? 0)
  }

  /// Whether the end of the content was visible before a change (SPEC D4).
  @inlinable
  internal func _endWasVisible(_ before: _Before) -> Bool {
    let tolerance = pinnedToEndTolerance.isFinite && pinnedToEndTolerance > 0
      ? _FixedPoint.units(pinnedToEndTolerance) : 0
    return before.offset >= before.maxOffset &- tolerance
  }

  /// The offset that puts `row`'s point at `fraction` `delta` units after
  /// the viewport's point at the same fraction (R3, R4, S1–S6), before
  /// clamping.
  @inlinable @inline(__always)
  internal func _rowTarget(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat, delta: Int64) -> Int64 {
    _leadingInset &+ row.start &+ _FixedPoint.scale(row.extent, by: fraction)
      &- _FixedPoint.scale(_viewportUnits, by: fraction) &- delta
  }

  /// The anchor row's current `delta`: its point at `fraction` minus the
  /// viewport's point at the same fraction.
  @inlinable
  internal func _rowDelta(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat) -> Int64 {
    _rowTarget(row, fraction: fraction, delta: 0) &- _offset
  }

  /// Makes `row` the anchor row, its point at `fraction` standing `delta`
  /// after the viewport's, and records how it looks now (S12).
  @inlinable @inline(__always)
  internal mutating func _anchor(to row: ExtentTree<ID>._RowInfo, fraction: CGFloat, delta: Int64) {
    _anchor = .row(row.id, fraction: fraction, delta: delta)
    _seen = _SeenRow(extent: row.extent, stored: row.stored, position: row.position)
  }

  @inlinable @inline(__always)
  internal func _clamp(_ offset: Int64) -> Int64 {
    Swift.min(Swift.max(0, offset), _maxOffset)
  }

  /// Where the viewport's anchor point lies in the anchor row, as a distance
  /// from the row's start, after the row's own extent changed from
  /// `_seen.extent` to `row.extent`; `nil` to keep `delta` as it is.
  ///
  /// Distances are measured where the anchor keeps the row (the screen,
  /// unless S10 clamped the offset). When the point lies inside the row,
  /// what the user has seen decides (SPEC S12): (a) a re-layout (an
  /// invalidation, the first measurement after one, a deleted anchor's
  /// survivor) keeps the point's relative place; (b) a measured row measured
  /// again keeps its start, unless the row would leave the viewport; (c) a
  /// row measured for the first time (or a never-measured row's estimate
  /// change) keeps the edge it shows on screen, or acts as (a) when it shows
  /// both or neither. When the point lies outside the row, the row's edge
  /// nearest to it keeps its place (S1; for a top or bottom anchor that is
  /// the row's point at the anchor's fraction, and for an anchor in between
  /// it keeps the row on screen, S13); a row of zero extent grows toward
  /// the point.
  /// - Complexity: O(1).
  @inlinable
  internal func _placeAfterOwnChange(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat, delta: Int64,
                                     viewport: Int64) -> Int64? {
    let old = _seen.extent
    let new = row.extent
    let p = _FixedPoint.scale(old, by: fraction) &- delta
    if old == 0 {
      // An empty row grows toward the point (a row at it keeps its point at the fraction).
      if p > 0 { return p }           // above the point: its start stays
      if p < 0 { return p &+ new }    // below it: its end stays
      return nil
    }
    if p <= 0 { return p }                          // after the point: its start stays
    if p >= old { return p &+ (new &- old) }        // before it: its end stays
    // Where the row was in the viewport before the change: [top, top + old).
    let top = _FixedPoint.scale(viewport, by: fraction) &- p
    func proportional() -> Int64 {
      guard new >= 2 else { return 0 }
      let scaled = (p &* new &+ old / 2) / old  // p < old <= 2^31, new <= 2^31: no overflow
      return Swift.min(Swift.max(scaled, 1), new &- 1)
    }
    if _seen.survivor || _seen.stored == ExtentTree<ID>._invalidated {
      return proportional()  // (a)
    }
    if _seen.stored >= 0 {
      guard row.stored >= 0 else { return proportional() }  // (a): invalidated
      // (b): the start stays, unless the whole row would leave the viewport.
      let visible = new > 0 ? top < viewport && top &+ new > 0 : top >= 0 && top < viewport
      return visible ? p : Swift.max(0, new &- 1)
    }
    // (c): revealed. Which edges of the viewport did the row cross?
    let leading = top < 0 && top &+ old > 0
    let trailing = top < viewport && top &+ old > viewport
    if leading && !trailing { return p &+ (new &- old) }  // its end stays
    if trailing && !leading { return p }                  // its start stays
    return proportional()
  }

  /// Puts the offset where the anchor says after a change of content,
  /// extents or viewport, and records the correction (SPEC §6, §7, S11);
  /// a position the user scrolled to will name the row now at the
  /// viewport's anchor point when it is read (T1).
  /// - Complexity: O(log n + B).
  @inlinable
  @discardableResult
  internal mutating func _settle(from before: _Before, cause: ScrollCorrection.Cause) -> ScrollCorrection {
    if _slowPath(_batch != nil) { return _deferSettle(cause: cause) }  // U1: once, when the batch ends
    return _settleNow(from: before, cause: cause)
  }

  /// `_settle` outside a batch (a caller that has checked).
  /// - Complexity: O(log n + B).
  @inlinable
  @discardableResult
  internal mutating func _settleNow(from before: _Before, cause: ScrollCorrection.Cause) -> ScrollCorrection {
    _placementCatchesUp()  // SPEC §13: rows, extents or roles changed
    let sizeFraction = _sizeChangesFraction
    // SPEC D4: a `.bottom` size-changes anchor pins to the end while it is visible.
    let pinned = sizeFraction >= 1 && _hasLaidOut && _endWasVisible(before)
    var target: Int64
    var anchorRow: ExtentTree<ID>._RowInfo?
    switch _anchor {
    case .automatic:
      if !_hasLaidOut || sizeFraction == 0 {
        target = before.offset
      } else if sizeFraction >= 1 {
        target = pinned ? _maxOffset : before.offset
      } else {
        let change = (_contentUnits &- before.content) &- (_viewportUnits &- before.viewport)
        target = before.offset &+ _FixedPoint.scale(change, by: sizeFraction)
      }
    case .edge(let edge):
      target = edge.isLeadingEdge ? 0 : _maxOffset
    case .point:
      target = before.offset
    case .row(let id, let fraction, var delta):
      guard let row = _placedIfAny(_tree.rowInfo(of: id, hint: _seen.position)) else {
        target = before.offset
        break
      }
      anchorRow = row
      // SPEC S12, S1: the anchor row's own extent changed (a pending
      // programmatic target is re-resolved instead: its delta stands).
      if _keepsPlaceOnScreen && (row.extent != _seen.extent || _seen.survivor),
         let place = _placeAfterOwnChange(row, fraction: fraction, delta: delta, viewport: before.viewport) {
        delta = _FixedPoint.scale(row.extent, by: fraction) &- place
        _anchor = .row(id, fraction: fraction, delta: delta)
      }
      // SPEC R6, H6: a pending programmatic target is re-resolved under its pinned header.
      target = pinned ? _maxOffset : _anchorTarget(row, fraction: fraction, delta: delta)
    }
    _offset = _clamp(target)
    if let row = anchorRow, case .row(_, let fraction, let delta) = _anchor {
      // Pinned to the end (D4): the row anchor follows what is now on screen.
      let kept = pinned ? _anchorTarget(row, fraction: fraction, delta: 0) &- _offset : delta
      _anchor(to: row, fraction: fraction, delta: kept)
    }
    _clampCrossOffset()
    if _position.isPositionedByUser { _viewIDStale = true }  // T1: re-derived when read
    if _slowPath(_motion.phase._isMoving) { _motionDidSettle(from: before) }  // M4, M5
    let correction = ScrollCorrection(
      offsetDelta: _FixedPoint.points(_offset &- before.offset), contentOffset: contentOffset, cause: cause)
    _lastCorrection = correction
    _checkInvariants()
    return correction
  }

  @inlinable
  internal mutating func _clampCrossOffset() {
    let maximum = Swift.max(0, _crossContent - _viewportCross)
    _crossOffset = Swift.min(Swift.max(0, _crossOffset), maximum)
  }

  /// Sets the viewport size: the first layout (S7, D2) or a resize (S6, S8, D4).
  @inlinable
  internal mutating func _setViewportSize(_ size: CGSize) {
    _frameEnter()
    defer { _frameExit(.still) }
    if _slowPath(_batch != nil) {
      let log = _suspendBatch()
      _setViewportSize(size)
      _resumeBatch(log)
      return
    }
    func clean(_ v: CGFloat) -> CGFloat {
      guard v.isFinite, v > 0 else { return 0 }
      return _FixedPoint.points(_FixedPoint.units(v))
    }
    let before = _capture()
    let old = _viewport
    _viewport = CGSize(width: clean(size.width), height: clean(size.height))
    if _viewport != old { _frameNoteReset() }  // F6 (e)
    _placementFollowsViewport()  // L2: an adaptive lane count follows the width
    if !_hasLaidOut && _viewportUnits > 0 {
      // SPEC S7, D2: the very first layout.
      _hasLaidOut = true
      if case .automatic = _anchor {
        let fraction = _FixedPoint.fraction(_initialAnchor?.fraction(along: axis) ?? 0)
        let base = _Before(offset: _FixedPoint.scale(_maxOffset, by: fraction), maxOffset: _maxOffset,
                           content: _contentUnits, viewport: _viewportUnits)
        _offset = base.offset
        _clampCrossOffset()
        _lastCorrection = ScrollCorrection(
          offsetDelta: _FixedPoint.points(_offset &- before.offset), contentOffset: contentOffset,
          cause: .viewportResize)
        _checkInvariants()
        return
      }
    }
    _placementLaidOut()  // laid out above
    _settle(from: before, cause: .viewportResize)
  }

  /// Replaces a row anchor whose row is gone by its nearest surviving
  /// neighbour (SPEC S5), keeping fraction and delta; the next stabilization
  /// treats the survivor as the deleted row with the survivor's extent
  /// (S12 a, for a position the user scrolled to). With no survivor the
  /// layout falls back to an automatic position that keeps the offset.
  /// - Parameter replacement: The surviving row's id, or `nil`.
  @inlinable
  internal mutating func _replaceAnchorRow(with replacement: ID?) {
    guard case .row(_, let fraction, let delta) = _anchor else { return }
    let user = _position.isPositionedByUser
    // During an animation `position` holds its target, not this row (M4).
    let names = _motion.phase != .animating
    if let replacement {
      _anchor = .row(replacement, fraction: fraction, delta: delta)
      _seen.survivor = true
      if names {
        _position = ScrollPosition(_target: .id(replacement, anchor: _position.anchor), isPositionedByUser: user)
      }
    } else {
      _anchor = .automatic
      if names { _position = ScrollPosition(_target: .automatic, isPositionedByUser: user) }
    }
  }

  /// Whether the row anchor keeps a row where it is on screen (a user's
  /// place, T1, T3; or the rows under an animation, M5) rather than a
  /// pending programmatic target (R6).
  @inlinable @inline(__always)
  internal var _keepsPlaceOnScreen: Bool {
    _position.isPositionedByUser || _motion.phase == .animating
  }

  /// The row anchor's id, if the layout keeps a row.
  @inlinable
  package var _anchorRowID: ID? {
    if case .row(let id, _, _) = _anchor { return id }
    return nil
  }
}
