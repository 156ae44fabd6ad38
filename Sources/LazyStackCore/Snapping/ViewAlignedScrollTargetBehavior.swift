import Foundation

/// Snaps to the leading edge of a row (SPEC B5).
///
/// The target is the row start nearest to the projected end, clamped to
/// `maxOffset`, found in O(log n). `limitBehavior` limits how far one
/// interaction may go from the release offset, counting rows as boundaries
/// by the paging rule of B4.
public struct ViewAlignedScrollTargetBehavior: ScrollTargetBehavior, Hashable, Sendable {
  /// How many rows one interaction may pass (SPEC B5).
  public struct LimitBehavior: Hashable, Sendable {
    @usableFromInline
    internal enum _Kind: Hashable, Sendable { case automatic, always, alwaysByOne, alwaysByFew, never }
    @usableFromInline
    internal var _kind: _Kind
    @inlinable
    internal init(_ kind: _Kind) { _kind = kind }

    /// `.always` on a horizontal axis, `.never` on a vertical one.
    public static let automatic = LimitBehavior(.automatic)
    /// Only the rows within one container extent of the release offset. If
    /// none is, as `.alwaysByOne`.
    public static let always = LimitBehavior(.always)
    /// At most one row boundary away.
    public static let alwaysByOne = LimitBehavior(.alwaysByOne)
    /// At most three row boundaries away.
    public static let alwaysByFew = LimitBehavior(.alwaysByFew)
    /// No limit.
    public static let never = LimitBehavior(.never)
  }

  /// The limit on how far one interaction may go.
  public var limitBehavior: LimitBehavior

  /// Creates the behaviour. - Complexity: O(1).
  @inlinable
  public init(limitBehavior: LimitBehavior = .automatic) {
    self.limitBehavior = limitBehavior
  }

  /// Moves the target to a row's leading edge (SPEC B5).
  /// - Complexity: O(log n).
  public func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {
    let vertical = context.axis == .vertical
    let result = _resolve(
      projected: _FixedPoint.units(vertical ? target.rect.origin.y : target.rect.origin.x),
      release: _FixedPoint.units(vertical ? context.releaseOffset.y : context.releaseOffset.x),
      velocity: vertical ? context.velocity.dy : context.velocity.dx,
      containerExtent: _FixedPoint.units(vertical ? context.containerSize.height : context.containerSize.width),
      maximum: _FixedPoint.units(context.maxOffset), axis: context.axis, geometry: context._geometry)
    _setMain(&target, _FixedPoint.points(result), axis: context.axis)
  }

  /// The rule of SPEC B5 in units, over any row geometry (the layout calls
  /// it directly for `.viewAligned`, without building a context).
  /// - Complexity: O(log n).
  @inlinable
  internal func _resolve<G: _SnappingGeometry>(
    projected: Int64, release: Int64, velocity: CGFloat, containerExtent: Int64, maximum: Int64, axis: Axis,
    geometry: G
  ) -> Int64 {
    let count = geometry._rowCount
    guard count > 0 else { return Swift.min(Swift.max(0, projected), maximum) }
    // One descent for the release (k, b(k), b(k+1)) and one for the projected
    // end (j, b(j), b(j+1)); a third only when the limit clamps the answer.
    let r = geometry._bracket(atOrBefore: release)
    let onBoundary = r.index >= 0 && r.start == release
    var kind = limitBehavior._kind
    if kind == .automatic { kind = axis == .horizontal ? .always : .never }
    var limit: Int
    var low = 0
    var high = count &- 1
    switch kind {
    case .never, .automatic: limit = count
    case .alwaysByOne: limit = 1
    case .alwaysByFew: limit = 3
    case .always:
      // Rows starting within one container extent of the release.
      let first = geometry._bracket(atOrBefore: release &- containerExtent &- 1).index &+ 1
      let last = geometry._bracket(atOrBefore: release &+ containerExtent).index
      if first <= last {
        limit = count
        low = first
        high = last
      } else {
        limit = 1
      }
    }
    if limit < count {
      low = Swift.max(low, onBoundary ? r.index &- limit : r.index &- limit &+ 1)
      high = Swift.min(high, r.index &+ limit)
    }
    low = Swift.max(0, Swift.min(low, count &- 1))
    high = Swift.max(0, Swift.min(high, count &- 1))
    if high < low { swap(&low, &high) }
    let p = geometry._bracket(atOrBefore: projected)
    func start(_ i: Int) -> Int64 {
      if i == p.index { return p.start }
      if i == p.index &+ 1, let next = p.next { return next }
      if i == r.index { return r.start }
      if i == r.index &+ 1, let next = r.next { return next }
      return geometry._rowStartUnits(at: i)
    }
    let a = Swift.min(Swift.max(p.index, low), high)
    let b = Swift.min(Swift.max(p.index &+ 1, low), high)
    let sa = start(a)
    let sb = start(b)
    let da = (sa &- projected).magnitude
    let db = (sb &- projected).magnitude
    let result: Int64
    if da < db { result = sa } else if db < da { result = sb } else { result = velocity < 0 ? Swift.min(sa, sb) : Swift.max(sa, sb) }
    return Swift.min(Swift.max(0, result), maximum)
  }
}

extension ScrollTargetBehavior where Self == ViewAlignedScrollTargetBehavior {
  /// Snaps to rows' leading edges with the `.automatic` limit (SPEC B5).
  /// - Complexity: O(1).
  public static var viewAligned: ViewAlignedScrollTargetBehavior { ViewAlignedScrollTargetBehavior() }

  /// Snaps to rows' leading edges with the given limit (SPEC B5).
  /// - Complexity: O(1).
  public static func viewAligned(
    limitBehavior: ViewAlignedScrollTargetBehavior.LimitBehavior
  ) -> ViewAlignedScrollTargetBehavior {
    ViewAlignedScrollTargetBehavior(limitBehavior: limitBehavior)
  }
}
