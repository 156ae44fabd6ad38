import Foundation

/// Snaps to pages the size of the container (SPEC B4).
///
/// The page boundaries are the multiples of the container's main-axis extent
/// P below `maxOffset`, plus `maxOffset` itself. The target is the boundary
/// nearest to the projected end, but never more than one boundary away from
/// the release offset: from strictly between b(k) and b(k+1) only those two;
/// from exactly b(k), b(k-1) ... b(k+1). A projected end exactly halfway goes
/// the way of the velocity (with zero velocity, to the larger offset).
public struct PagingScrollTargetBehavior: ScrollTargetBehavior, Hashable, Sendable {
  /// Creates the paging behaviour. - Complexity: O(1).
  @inlinable
  public init() {}

  /// Moves the target to a page boundary (SPEC B4).
  /// - Complexity: O(1): a few divisions (page boundaries are multiples of P).
  public func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {
    let vertical = context.axis == .vertical
    let result = Self._resolve(
      projected: _FixedPoint.units(vertical ? target.rect.origin.y : target.rect.origin.x),
      release: _FixedPoint.units(vertical ? context.releaseOffset.y : context.releaseOffset.x),
      velocity: vertical ? context.velocity.dy : context.velocity.dx,
      page: _FixedPoint.units(vertical ? context.containerSize.height : context.containerSize.width),
      maximum: _FixedPoint.units(context.maxOffset))
    _setMain(&target, _FixedPoint.points(result), axis: context.axis)
  }

  /// The rule of SPEC B4 in units.
  @inlinable
  internal static func _resolve(projected: Int64, release: Int64, velocity: CGFloat, page: Int64, maximum: Int64) -> Int64 {
    guard page > 0 && maximum > 0 else { return Swift.min(Swift.max(0, projected), maximum) }
    // Boundaries b(j) = j * page for j < last, and b(last) = maximum.
    let last = (maximum &+ page &- 1) / page
    let boundary = { (j: Int64) -> Int64 in j >= last ? maximum : j &* page }
    let k: Int64
    let onBoundary: Bool
    if release >= maximum {
      (k, onBoundary) = (last, true)
    } else {
      let r = Swift.max(0, release)
      (k, onBoundary) = (r / page, r % page == 0)
    }
    let below = { (offset: Int64) -> Int64 in
      offset < 0 ? -1 : (offset >= maximum ? last : Swift.min(offset / page, last &- 1))
    }
    return _nearestBoundary(release: (k, onBoundary), projected: projected, velocity: velocity,
                            limit: 1, last: last, boundary: boundary, indexOf: below)
  }
}

/// Sets the target's main-axis origin (and drops its anchor: the origin is
/// the answer).
@inlinable
internal func _setMain(_ target: inout ScrollTarget, _ value: CGFloat, axis: Axis) {
  if axis == .vertical { target.rect.origin.y = value } else { target.rect.origin.x = value }
  target.anchor = nil
}

/// The boundary nearest to `projected` among those at most `limit`
/// boundaries from the release (SPEC B4): from strictly between b(k) and
/// b(k+1), b(k-limit+1) ... b(k+limit); from exactly b(k), b(k-limit) ...
/// b(k+limit). Ties go the way of the velocity, to the larger offset at zero.
/// `indexOf(x)` is the last boundary index at or before x (-1 if none).
/// - Complexity: O(1) calls of `boundary` and `indexOf`.
@inlinable
internal func _nearestBoundary(
  release: (k: Int64, onBoundary: Bool), projected: Int64, velocity: CGFloat,
  limit: Int64, last: Int64, boundary: (Int64) -> Int64, indexOf: (Int64) -> Int64
) -> Int64 {
  var low = release.onBoundary ? release.k &- limit : release.k &- limit &+ 1
  var high = release.k &+ limit
  low = Swift.max(0, Swift.min(low, last))
  high = Swift.max(0, Swift.min(high, last))
  if high < low { swap(&low, &high) }
  // The boundaries around the projected end, clamped into [low, high].
  let below = indexOf(projected)
  let a = Swift.min(Swift.max(below, low), high)
  let b = Swift.min(Swift.max(below &+ 1, low), high)
  let da = (boundary(a) &- projected).magnitude
  let db = (boundary(b) &- projected).magnitude
  if da < db { return boundary(a) }
  if db < da { return boundary(b) }
  return velocity < 0 ? Swift.min(boundary(a), boundary(b)) : Swift.max(boundary(a), boundary(b))
}

extension ScrollTargetBehavior where Self == PagingScrollTargetBehavior {
  /// Snaps to container-sized pages (SPEC B4). - Complexity: O(1).
  public static var paging: PagingScrollTargetBehavior { PagingScrollTargetBehavior() }
}
