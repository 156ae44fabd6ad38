import Foundation

/// The inset distances of the content from each edge, with SwiftUI's spelling.
///
/// For a `.vertical` layout `top` and `bottom` inset the main axis (SPEC G2)
/// and `leading` and `trailing` the cross axis; for `.horizontal` the other way.
public struct EdgeInsets: Hashable, Sendable {
  /// The inset at the top edge.
  public var top: CGFloat
  /// The inset at the leading edge.
  public var leading: CGFloat
  /// The inset at the bottom edge.
  public var bottom: CGFloat
  /// The inset at the trailing edge.
  public var trailing: CGFloat

  /// Creates insets; every distance defaults to 0.
  /// - Complexity: O(1).
  @inlinable
  public init(top: CGFloat = 0, leading: CGFloat = 0, bottom: CGFloat = 0, trailing: CGFloat = 0) {
    self.top = top
    self.leading = leading
    self.bottom = bottom
    self.trailing = trailing
  }

  /// Creates insets with the same distance on every edge.
  /// - Complexity: O(1).
  @inlinable
  public init(all inset: CGFloat) {
    self.init(top: inset, leading: inset, bottom: inset, trailing: inset)
  }
}
