#if canImport(CoreGraphics)
@_exported import CoreGraphics
#else
import Foundation

/// A two-dimensional vector (CoreGraphics' `CGVector`, which Foundation on
/// Linux does not have). Scroll velocities are `CGVector`s in points per second.
public struct CGVector: Hashable, Sendable {
  /// The horizontal component.
  public var dx: CGFloat
  /// The vertical component.
  public var dy: CGFloat

  /// Creates a vector with the given components.
  /// - Complexity: O(1).
  @inlinable
  public init(dx: CGFloat, dy: CGFloat) {
    self.dx = dx
    self.dy = dy
  }

  /// Creates a zero vector.
  /// - Complexity: O(1).
  @inlinable
  public init() { self.init(dx: 0, dy: 0) }

  /// The zero vector.
  public static let zero = CGVector(dx: 0, dy: 0)
}
#endif
