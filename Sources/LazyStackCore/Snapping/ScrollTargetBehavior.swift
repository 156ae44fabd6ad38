import Foundation

/// A type that decides where a scroll comes to rest (SPEC B1), with
/// SwiftUI's names. The layout projects the natural end of a fling, hands it
/// to `updateTarget(_:context:)` as a `ScrollTarget`, and clamps what the
/// behaviour leaves there.
///
///     struct Tenths: ScrollTargetBehavior {   // SwiftUI's "every tenth of the container"
///       func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {
///         let step = (context.containerSize.height / 10).rounded()
///         target.rect.origin.y = (target.rect.origin.y / step).rounded() * step
///       }
///     }
public protocol ScrollTargetBehavior {
  /// The context passed to `updateTarget(_:context:)`.
  typealias TargetContext = ScrollTargetBehaviorContext

  /// Moves `target` to where the scroll should settle.
  /// - Complexity: whatever the behaviour does; the built-in ones are O(log n).
  func updateTarget(_ target: inout ScrollTarget, context: TargetContext)
}

/// Where a scroll will come to rest: the content rectangle to show (its
/// origin is the content offset) and an optional anchor (SPEC B1).
public struct ScrollTarget: Hashable, Sendable {
  /// The content rectangle to show; `rect.origin` is the target offset.
  public var rect: CGRect
  /// If set, the point of `rect` at this fraction lines up with the same
  /// point of the container, instead of `rect.origin` with the container's origin.
  public var anchor: UnitPoint?

  /// Creates a target. - Complexity: O(1).
  @inlinable
  public init(rect: CGRect, anchor: UnitPoint? = nil) {
    self.rect = rect
    self.anchor = anchor
  }
}

/// The row geometry a behaviour can ask for, provided by the layout.
@usableFromInline
package protocol _SnappingGeometry: Sendable {
  var _rowCount: Int { get }
  /// Row `index`'s start (frame origin on the main axis), in units.
  func _rowStartUnits(at index: Int) -> Int64
  /// The number of rows whose start is at or before `offset` (units).
  func _rowsStarting(atOrBefore offset: Int64) -> Int
  /// The last row starting at or before `offset` (-1 if none), with its
  /// start and the next row's start (nil past the last row), in one descent.
  func _bracket(atOrBefore offset: Int64) -> (index: Int, start: Int64, next: Int64?)
}

/// What a `ScrollTargetBehavior` knows about the scroll (SPEC B1):
/// SwiftUI's members, plus the release offset and row geometry so a custom
/// behaviour can align to rows.
public struct ScrollTargetBehaviorContext: Sendable {
  /// The target before any behaviour changed it: the projected end of the fling.
  public var originalTarget: ScrollTarget
  /// The velocity at release, in points per second.
  public var velocity: CGVector
  /// The size of the content.
  public var contentSize: CGSize
  /// The size of the container (the viewport).
  public var containerSize: CGSize
  /// The axes that scroll: the layout's main axis.
  public var axes: Axis.Set
  /// Beyond SwiftUI: the content offset at which the user released.
  public var releaseOffset: CGPoint
  /// Beyond SwiftUI: the layout's main axis.
  public var axis: Axis
  /// Beyond SwiftUI: the largest main-axis content offset.
  public var maxOffset: CGFloat

  @usableFromInline
  internal var _geometry: any _SnappingGeometry

  @usableFromInline
  internal init(originalTarget: ScrollTarget, velocity: CGVector, contentSize: CGSize, containerSize: CGSize,
                releaseOffset: CGPoint, axis: Axis, maxOffset: CGFloat, geometry: any _SnappingGeometry) {
    self.originalTarget = originalTarget
    self.velocity = velocity
    self.contentSize = contentSize
    self.containerSize = containerSize
    self.axes = axis == .vertical ? .vertical : .horizontal
    self.releaseOffset = releaseOffset
    self.axis = axis
    self.maxOffset = maxOffset
    _geometry = geometry
  }

  /// The number of rows. - Complexity: O(1).
  public var rowCount: Int { _geometry._rowCount }

  /// The main-axis start of row `index` (its frame's origin).
  /// - Precondition: `0 <= index < rowCount`.
  /// - Complexity: O(log n).
  public func rowStart(at index: Int) -> CGFloat {
    precondition(index >= 0 && index < rowCount, "Row index \(index) out of range 0..<\(rowCount)")
    return _FixedPoint.points(_geometry._rowStartUnits(at: index))
  }

  /// The last row whose start is at or before `offset`, or `nil` if every
  /// row starts after it.
  /// - Complexity: O(log n).
  public func lastRow(startingAtOrBefore offset: CGFloat) -> Int? {
    guard !offset.isNaN else { return nil }
    let count = _geometry._rowsStarting(atOrBefore: _FixedPoint.units(offset))
    return count == 0 ? nil : count &- 1
  }

  /// The row start nearest to `offset` (the earlier one on a tie), or `nil`
  /// if there are no rows.
  /// - Complexity: O(log n).
  public func nearestRowStart(to offset: CGFloat) -> CGFloat? {
    guard rowCount > 0, !offset.isNaN else { return nil }
    let before = lastRow(startingAtOrBefore: offset)
    let after = (before ?? -1) &+ 1
    guard let before else { return rowStart(at: 0) }
    guard after < rowCount else { return rowStart(at: before) }
    let a = rowStart(at: before)
    let b = rowStart(at: after)
    return offset - a <= b - offset ? a : b
  }

  /// The start of the `k`-th row boundary after `offset` (k >= 1), clamped
  /// to the last row's start, or `nil` if there are no rows.
  /// - Complexity: O(log n).
  public func rowBoundary(after offset: CGFloat, by k: Int = 1) -> CGFloat? {
    guard rowCount > 0, !offset.isNaN else { return nil }
    let base = lastRow(startingAtOrBefore: offset) ?? -1
    return rowStart(at: Swift.min(rowCount &- 1, Swift.max(0, base &+ Swift.max(1, k))))
  }
}

/// How fast a fling slows down: the fraction of velocity kept per
/// millisecond (SPEC B2).
public struct ScrollDecelerationRate: Hashable, Sendable {
  /// The fraction of velocity kept per millisecond, in (0, 1).
  public var rawValue: CGFloat

  /// Creates a rate; values outside (0, 1) are clamped into it.
  /// - Complexity: O(1).
  @inlinable
  public init(rawValue: CGFloat) {
    self.rawValue = rawValue.isNaN ? 0.998 : Swift.min(0.999_999, Swift.max(0.000_001, rawValue))
  }

  /// 0.998 per millisecond, UIKit's `.normal`.
  public static let normal = ScrollDecelerationRate(rawValue: 0.998)
  /// 0.99 per millisecond, UIKit's `.fast`.
  public static let fast = ScrollDecelerationRate(rawValue: 0.99)

  /// The natural end of a fling released at `offset` with `velocity`
  /// (points per second): `offset + v/1000 * d/(1-d)`, unclamped. NaN
  /// velocities count as 0; infinite ones give an infinite distance.
  /// - Complexity: O(1).
  @inlinable
  public func projectedOffset(from offset: CGFloat, velocity: CGFloat) -> CGFloat {
    let v = velocity.isNaN ? 0 : velocity
    if v == 0 { return offset }
    return offset + v / 1000 * rawValue / (1 - rawValue)
  }
}
