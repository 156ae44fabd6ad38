import Foundation

extension LazyStackLayout: _SnappingGeometry {
  @inlinable
  package var _rowCount: Int { count }

  @inlinable
  package func _rowStartUnits(at index: Int) -> Int64 {
    _leadingInset &+ _tree.pitchPrefix(index)
  }

  @inlinable
  package func _bracket(atOrBefore offset: Int64) -> (index: Int, start: Int64, next: Int64?) {
    guard count > 0 else { return (-1, 0, nil) }
    // The first row whose next start is after `offset` is the last row that
    // starts at or before it (its own start is at or before the threshold).
    guard offset >= _leadingInset,
          let hit = _tree._firstRowSpan(withPitchPrefixAfterAbove: offset &- _leadingInset) else {
      if offset < _leadingInset { return (-1, 0, _leadingInset) }
      let last = count &- 1
      return (last, _leadingInset &+ _tree.pitchPrefix(last), nil)
    }
    let start = _leadingInset &+ hit.start
    let next = hit.row &+ 1 < count ? start &+ hit.extent &+ _tree.spacing : nil
    return (hit.row, start, next)
  }

  @inlinable
  package func _rowsStarting(atOrBefore offset: Int64) -> Int {
    _tree.rowsStarting(before: offset &- _leadingInset &+ 1)
  }
}

extension LazyStackLayout {
  /// Where a scroll released at `offset` with `velocity` settles under
  /// `behavior` (SPEC B2, B3).
  ///
  /// The natural end of the fling, `offset + v/1000 * d/(1-d)` clamped to
  /// `0 ... maxOffset`, becomes a `ScrollTarget` (its rect is the viewport
  /// at that offset); the behaviour updates it, and the result is clamped.
  ///
  ///     layout.targetContentOffset(forReleaseAt: CGPoint(x: 0, y: 1000),
  ///                                velocity: CGVector(dx: 0, dy: 2000), behavior: .paging)
  ///
  /// - Parameters:
  ///   - offset: The content offset at release (clamped first).
  ///   - velocity: Points per second; NaN counts as 0, infinities fling to an end.
  ///   - behavior: The snapping behaviour.
  ///   - decelerationRate: How fast the fling slows down.
  /// - Returns: The content offset to animate to.
  /// - Complexity: O(log n) with the built-in behaviours, plus the custom
  ///   behaviour's own cost.
  @inlinable
  public func targetContentOffset(
    forReleaseAt offset: CGPoint, velocity: CGVector, behavior: some ScrollTargetBehavior,
    decelerationRate: ScrollDecelerationRate = .normal
  ) -> CGPoint {
    let vertical = axis == .vertical
    let maximum = _FixedPoint.points(_maxOffset)
    func clampMain(_ v: CGFloat) -> CGFloat {
      v.isNaN ? _FixedPoint.points(_offset) : Swift.min(Swift.max(0, v), maximum)
    }
    let crossMaximum = Swift.max(0, _crossContent - _viewportCross)
    func clampCross(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : Swift.min(Swift.max(0, v), crossMaximum) }
    let releaseMain = clampMain(_FixedPoint.points(_FixedPoint.units(vertical ? offset.y : offset.x)))
    let releaseCross = clampCross(vertical ? offset.x : offset.y)
    let release = vertical ? CGPoint(x: releaseCross, y: releaseMain) : CGPoint(x: releaseMain, y: releaseCross)
    let v = vertical ? velocity.dy : velocity.dx
    var projected = decelerationRate.projectedOffset(from: releaseMain, velocity: v)
    projected = _FixedPoint.points(_FixedPoint.units(Swift.min(Swift.max(0, projected), maximum)))
    let origin = vertical ? CGPoint(x: releaseCross, y: projected) : CGPoint(x: projected, y: releaseCross)
    // The built-in behaviours, without building a context.
    if _slowPath(_lanesInForce), let viewAligned = behavior as? ViewAlignedScrollTargetBehavior {
      let main = _FixedPoint.points(viewAligned._resolve(
        projected: _FixedPoint.units(projected), release: _FixedPoint.units(releaseMain), velocity: v,
        containerExtent: _viewportUnits, maximum: _maxOffset, axis: axis, geometry: _laneSnapGeometry()))
      return vertical ? CGPoint(x: releaseCross, y: main) : CGPoint(x: main, y: releaseCross)
    }
    if let viewAligned = behavior as? ViewAlignedScrollTargetBehavior {
      let main = _FixedPoint.points(viewAligned._resolve(
        projected: _FixedPoint.units(projected), release: _FixedPoint.units(releaseMain), velocity: v,
        containerExtent: _viewportUnits, maximum: _maxOffset, axis: axis, geometry: self))
      return vertical ? CGPoint(x: releaseCross, y: main) : CGPoint(x: main, y: releaseCross)
    }
    if behavior is PagingScrollTargetBehavior {
      let main = _FixedPoint.points(PagingScrollTargetBehavior._resolve(
        projected: _FixedPoint.units(projected), release: _FixedPoint.units(releaseMain), velocity: v,
        page: _viewportUnits, maximum: _maxOffset))
      return vertical ? CGPoint(x: releaseCross, y: main) : CGPoint(x: main, y: releaseCross)
    }
    let original = ScrollTarget(rect: CGRect(origin: origin, size: _viewport))
    var target = original
    let context = ScrollTargetBehaviorContext(
      originalTarget: original, velocity: velocity, contentSize: contentSize, containerSize: _viewport,
      releaseOffset: release, axis: axis, maxOffset: maximum,
      geometry: _lanesInForce ? _laneSnapGeometry() : self as any _SnappingGeometry)
    behavior.updateTarget(&target, context: context)
    var main = vertical ? target.rect.origin.y : target.rect.origin.x
    var cross = vertical ? target.rect.origin.x : target.rect.origin.y
    if let anchor = target.anchor {
      // The target rect's anchor point lines up with the container's.
      let size = target.rect.size
      if vertical {
        main += anchor.y * (size.height - _viewport.height)
        cross += anchor.x * (size.width - _viewport.width)
      } else {
        main += anchor.x * (size.width - _viewport.width)
        cross += anchor.y * (size.height - _viewport.height)
      }
    }
    main = clampMain(main)
    cross = clampCross(cross)
    return vertical ? CGPoint(x: cross, y: main) : CGPoint(x: main, y: cross)
  }

  /// Re-targets after a viewport size change (SPEC B3): where the scroll
  /// should settle from the current offset with no velocity, so a paged or
  /// row-aligned list lands on a boundary again after rotation.
  /// - Complexity: as `targetContentOffset(forReleaseAt:velocity:behavior:decelerationRate:)`.
  @inlinable
  public func retargetedContentOffset(behavior: some ScrollTargetBehavior) -> CGPoint {
    targetContentOffset(forReleaseAt: contentOffset, velocity: CGVector(dx: 0, dy: 0), behavior: behavior)
  }
}
