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
  ///   viewport's (R3); with no anchor (and no `scrollAnchor`, R7), it scrolls
  ///   as little as possible (R4). The row is then kept there through
  ///   measurements and data changes (R6, §6).
  /// - An unknown id (or one of another type) changes nothing: `position` is
  ///   put back and `lastPositionResult` is `.unknownID` (R5).
  /// - A position with `isPositionedByUser == true` is stored, not resolved (T1).
  /// - Complexity: O(log n + B) (B: the block capacity, at most 512).
  @inlinable
  public var position: ScrollPosition {
    get { _position }
    set { _setPosition(newValue) }
  }

  @inlinable
  internal mutating func _setPosition(_ newValue: ScrollPosition) {
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
      guard let id = anyID as? ID, let index = _tree.index(of: id) else {
        _lastPositionResult = .unknownID(String(describing: anyID))
        return  // SPEC R5: `_position` still holds the previous position.
      }
      if let anchor = anchor ?? _scrollAnchor {
        // SPEC R3
        _anchor = .row(id, fraction: _FixedPoint.fraction(anchor.fraction(along: axis)), delta: 0)
      } else {
        // SPEC R4: minimal scroll.
        let span = _tree.span(index)
        let start = _leadingInset &+ span.start
        let end = start &+ span.extent
        let viewport = _viewportUnits
        if start >= _offset && end <= _offset &+ viewport {
          _anchor = .row(id, fraction: 0, delta: start &- _offset)
        } else if start < _offset || span.extent > viewport {
          _anchor = .row(id, fraction: 0, delta: 0)
        } else {
          _anchor = .row(id, fraction: 1, delta: 0)
        }
      }
      if case .row(let id, let fraction, let delta) = _anchor {
        _offset = _clamp(_rowTarget(id, fraction: fraction, delta: delta))
      }
    }
    _position = newValue
    _clampCrossOffset()
    let correction = ScrollCorrection(
      offsetDelta: _FixedPoint.points(_offset &- before.offset), contentOffset: contentOffset,
      cause: .programmaticScroll)
    _lastCorrection = correction
    _lastPositionResult = .resolved(correction)
    _checkInvariants()
  }
}

extension LazyStackLayout {
  /// The user scrolled to `offset` (SPEC T1): the offset is clamped (G3),
  /// any pending programmatic target is cancelled (R6), and `position`
  /// becomes the tracked row with `isPositionedByUser == true`. The tracked
  /// row is the one at the viewport's point at the scroll anchor's fraction
  /// (top / leading if none), clamped into the visible rows. NaN components
  /// are ignored.
  /// - Complexity: O(log n + B).
  @inlinable
  public mutating func userScroll(to offset: CGPoint) {
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

  /// Tracks the row under the scroll anchor at the current offset (T1).
  @inlinable
  internal mutating func _track() {
    let fraction = _FixedPoint.fraction(_scrollAnchor?.fraction(along: axis) ?? 0)
    let viewport = _viewportUnits
    let low = _offset &- _alignmentShift
    let visible = count > 0 && viewport > 0 ? _rows(intersecting: low, low &+ viewport) : 0 ..< 0
    guard !visible.isEmpty else {
      _anchor = .automatic
      _position = ScrollPosition(_target: .automatic, isPositionedByUser: true)
      return
    }
    var index = _index(atUnits: low &+ _FixedPoint.scale(viewport, by: fraction))
    index = Swift.min(Swift.max(index, visible.lowerBound), visible.upperBound &- 1)
    let id = _tree.id(at: index)
    _anchor = .row(id, fraction: fraction, delta: _rowDelta(at: index, fraction: fraction))
    _position = ScrollPosition(_target: .id(id, anchor: nil), isPositionedByUser: true)
  }
}
