import Foundation

/// A normalized 2D point in a view's coordinate space, with SwiftUI's
/// spelling: `x` and `y` are fractions of the width and height.
///
///     let a = UnitPoint.bottom      // (0.5, 1)
///     a.y                           // 1: the trailing end of a vertical axis
///
/// LazyStackCore uses the component along the layout's main axis
/// (`y` for `.vertical`, `x` for `.horizontal`) as an anchor fraction.
public struct UnitPoint: Hashable, Sendable {
  /// The horizontal fraction, 0 at the leading edge and 1 at the trailing edge.
  public var x: CGFloat
  /// The vertical fraction, 0 at the top and 1 at the bottom.
  public var y: CGFloat

  /// Creates a unit point at the origin.
  /// - Complexity: O(1).
  @inlinable
  public init() { self.init(x: 0, y: 0) }

  /// Creates a unit point with the given fractions.
  /// - Complexity: O(1).
  @inlinable
  public init(x: CGFloat, y: CGFloat) {
    self.x = x
    self.y = y
  }

  /// The point (0, 0). - Complexity: O(1).
  public static let zero = UnitPoint(x: 0, y: 0)
  /// The point (0.5, 0.5). - Complexity: O(1).
  public static let center = UnitPoint(x: 0.5, y: 0.5)
  /// The point (0, 0.5). - Complexity: O(1).
  public static let leading = UnitPoint(x: 0, y: 0.5)
  /// The point (1, 0.5). - Complexity: O(1).
  public static let trailing = UnitPoint(x: 1, y: 0.5)
  /// The point (0.5, 0). - Complexity: O(1).
  public static let top = UnitPoint(x: 0.5, y: 0)
  /// The point (0.5, 1). - Complexity: O(1).
  public static let bottom = UnitPoint(x: 0.5, y: 1)
  /// The point (0, 0). - Complexity: O(1).
  public static let topLeading = UnitPoint(x: 0, y: 0)
  /// The point (1, 0). - Complexity: O(1).
  public static let topTrailing = UnitPoint(x: 1, y: 0)
  /// The point (0, 1). - Complexity: O(1).
  public static let bottomLeading = UnitPoint(x: 0, y: 1)
  /// The point (1, 1). - Complexity: O(1).
  public static let bottomTrailing = UnitPoint(x: 1, y: 1)

  /// The fraction along `axis`: `y` for `.vertical`, `x` for `.horizontal`.
  /// - Complexity: O(1).
  @inlinable
  public func fraction(along axis: Axis) -> CGFloat {
    axis == .vertical ? y : x
  }
}
