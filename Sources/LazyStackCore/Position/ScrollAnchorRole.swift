/// The situations a default scroll anchor applies to (SPEC D1), with SwiftUI's
/// spelling: `defaultScrollAnchor(_:for:)` sets the anchor of one role.
public struct ScrollAnchorRole: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline
  internal enum _Role: UInt8, Hashable, Sendable { case initialOffset, sizeChanges, alignment }

  @usableFromInline
  internal var _role: _Role

  @inlinable
  internal init(_ role: _Role) { _role = role }

  /// Where the content starts when it is first laid out and is larger than
  /// the viewport (SPEC D2). - Complexity: O(1).
  public static let initialOffset = ScrollAnchorRole(.initialOffset)
  /// What stays fixed when the content or viewport size changes (SPEC D4).
  /// - Complexity: O(1).
  public static let sizeChanges = ScrollAnchorRole(.sizeChanges)
  /// Where content smaller than the viewport sits in it (SPEC D3).
  /// - Complexity: O(1).
  public static let alignment = ScrollAnchorRole(.alignment)

  /// The role's name. - Complexity: O(1).
  public var description: String {
    switch _role {
    case .initialOffset: "initialOffset"
    case .sizeChanges: "sizeChanges"
    case .alignment: "alignment"
    }
  }
}
