/// An edge of a rectangle, with SwiftUI's spelling.
public enum Edge: Int8, CaseIterable, Hashable, Sendable {
  case top, leading, bottom, trailing

  /// Whether the edge is at the start of its axis (`.top`, `.leading`).
  /// - Complexity: O(1).
  @inlinable
  public var isLeadingEdge: Bool { self == .top || self == .leading }
}

/// A horizontal or vertical dimension, with SwiftUI's spelling.
public enum Axis: Int8, CaseIterable, Hashable, Sendable {
  case horizontal, vertical
}

extension Axis {
  /// A set of axes, with SwiftUI's spelling (`ScrollTargetBehaviorContext.axes`).
  public struct Set: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int8
    /// Creates a set from raw bits. - Complexity: O(1).
    @inlinable
    public init(rawValue: Int8) { self.rawValue = rawValue }
    /// The horizontal axis.
    public static let horizontal = Set(rawValue: 1)
    /// The vertical axis.
    public static let vertical = Set(rawValue: 2)
  }
}
