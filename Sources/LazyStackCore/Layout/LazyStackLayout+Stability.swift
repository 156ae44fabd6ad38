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

  /// The offset that puts the anchor row where the anchor says (R3, S1–S6),
  /// before clamping.
  @inlinable
  internal func _rowTarget(_ id: ID, fraction: CGFloat, delta: Int64) -> Int64 {
    guard let index = _tree.index(of: id) else { return _offset }
    let span = _tree.span(index)
    let point = _leadingInset &+ span.start &+ _FixedPoint.scale(span.extent, by: fraction)
    return point &- _FixedPoint.scale(_viewportUnits, by: fraction) &- delta
  }

  /// The anchor row's current `delta`: its point at `fraction` minus the
  /// viewport's point at the same fraction.
  @inlinable
  internal func _rowDelta(at index: Int, fraction: CGFloat) -> Int64 {
    let span = _tree.span(index)
    let point = _leadingInset &+ span.start &+ _FixedPoint.scale(span.extent, by: fraction)
    return point &- _offset &- _FixedPoint.scale(_viewportUnits, by: fraction)
  }

  @inlinable @inline(__always)
  internal func _clamp(_ offset: Int64) -> Int64 {
    Swift.min(Swift.max(0, offset), _maxOffset)
  }

  /// Puts the offset where the anchor says after a change of content,
  /// extents or viewport, and records the correction (SPEC §6, §7, S11).
  /// - Complexity: O(log n + B).
  @inlinable
  @discardableResult
  internal mutating func _settle(from before: _Before, cause: ScrollCorrection.Cause) -> ScrollCorrection {
    let sizeFraction = _sizeChangesFraction
    // SPEC D4: a `.bottom` size-changes anchor pins to the end while it is visible.
    let pinned = sizeFraction >= 1 && _hasLaidOut && _endWasVisible(before)
    var target: Int64
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
    case .row(let id, let fraction, let delta):
      target = pinned ? _maxOffset : _rowTarget(id, fraction: fraction, delta: delta)
    }
    _offset = _clamp(target)
    if pinned, case .row(let id, let fraction, _) = _anchor, let index = _tree.index(of: id) {
      // Pinned to the end (D4): the row anchor follows what is now on screen.
      _anchor = .row(id, fraction: fraction, delta: _rowDelta(at: index, fraction: fraction))
    }
    _clampCrossOffset()
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
    func clean(_ v: CGFloat) -> CGFloat {
      guard v.isFinite, v > 0 else { return 0 }
      return _FixedPoint.points(_FixedPoint.units(v))
    }
    let before = _capture()
    _viewport = CGSize(width: clean(size.width), height: clean(size.height))
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
    _settle(from: before, cause: .viewportResize)
  }

  /// Replaces a row anchor whose row is gone by its nearest surviving
  /// neighbour (SPEC S5), keeping fraction and delta; with no survivor the
  /// layout falls back to an automatic position that keeps the offset.
  /// - Parameter replacement: The surviving row's id, or `nil`.
  @inlinable
  internal mutating func _replaceAnchorRow(with replacement: ID?) {
    guard case .row(_, let fraction, let delta) = _anchor else { return }
    let user = _position.isPositionedByUser
    if let replacement {
      _anchor = .row(replacement, fraction: fraction, delta: delta)
      _position = ScrollPosition(_target: .id(replacement, anchor: _position.anchor), isPositionedByUser: user)
    } else {
      _anchor = .automatic
      _position = ScrollPosition(_target: .automatic, isPositionedByUser: user)
    }
  }

  /// The row anchor's id, if the layout keeps a row.
  @inlinable
  package var _anchorRowID: ID? {
    if case .row(let id, _, _) = _anchor { return id }
    return nil
  }
}
