import Foundation
import LazyStackCore

/// The built-in snapping behaviours, for the reference model.
public enum ReferenceSnap: Sendable {
  case paging
  case viewAligned(ViewAlignedScrollTargetBehavior.LimitBehavior)
}

extension LazyStackReference {
  /// SPEC B2–B5 the obvious way: list every boundary, keep the allowed
  /// ones, take the nearest to the projected end.
  /// - Complexity: O(n).
  public func targetContentOffset(
    forReleaseAt offset: CGPoint, velocity: CGVector, snap: ReferenceSnap,
    decelerationRate: ScrollDecelerationRate = .normal
  ) -> CGPoint {
    let vertical = axis == .vertical
    let maximum = maxOffsetUnits
    let currentMain = _FixedPoint.points(self.offset)
    func clampMain(_ v: CGFloat) -> CGFloat {
      v.isNaN ? currentMain : min(max(0, v), _FixedPoint.points(maximum))
    }
    let crossMax = max(0, crossContent - viewportCross)
    func clampCross(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(0, v), crossMax) }
    let releaseMain = clampMain(_FixedPoint.points(_FixedPoint.units(vertical ? offset.y : offset.x)))
    let cross = clampCross(vertical ? offset.x : offset.y)
    let v = vertical ? velocity.dy : velocity.dx
    var projectedPoints = referenceProjectedOffset(from: releaseMain, velocity: v, rate: decelerationRate)
    projectedPoints = min(max(0, projectedPoints), _FixedPoint.points(maximum))
    let projected = _FixedPoint.units(projectedPoints)
    let release = _FixedPoint.units(releaseMain)
    let extent = viewportUnits

    var boundaries: [Int64] = []
    var limit = Int.max
    var window = false
    switch snap {
    case .paging:
      limit = 1
      if extent > 0 && maximum > 0 {
        var b: Int64 = 0
        while b < maximum { boundaries.append(b); b += extent }
        boundaries.append(maximum)
      }
    case .viewAligned(let l):
      boundaries = snapStarts()
      var kind = l
      if kind == .automatic { kind = axis == .horizontal ? .always : .never }
      switch kind {
      case .alwaysByOne: limit = 1
      case .alwaysByFew: limit = 3
      case .always: window = true
      default: limit = Int.max
      }
    }
    var result: Int64
    if boundaries.isEmpty {
      result = projected
    } else {
      let k = (boundaries.lastIndex { $0 <= release }) ?? -1
      let onBoundary = k >= 0 && boundaries[k] == release
      var allowed: [Int] = []
      if window {
        allowed = boundaries.indices.filter { abs(boundaries[$0] - release) <= extent }
        if allowed.isEmpty { limit = 1 }
      }
      if allowed.isEmpty {
        let low = limit == Int.max ? 0 : (onBoundary ? k - limit : k - limit + 1)
        let high = limit == Int.max ? boundaries.count - 1 : k + limit
        allowed = boundaries.indices.filter { $0 >= low && $0 <= high }
        if allowed.isEmpty { allowed = [min(max(0, k), boundaries.count - 1)] }
      }
      let best = allowed.map { abs(boundaries[$0] - projected) }.min()!
      let nearest = allowed.filter { abs(boundaries[$0] - projected) == best }.map { boundaries[$0] }
      result = v < 0 ? nearest.min()! : nearest.max()!
    }
    result = min(max(0, result), maximum)
    let main = _FixedPoint.points(result)
    return vertical ? CGPoint(x: cross, y: main) : CGPoint(x: main, y: cross)
  }
}
