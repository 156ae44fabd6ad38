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
