import Foundation

/// What a scroll view is positioned at: an edge, a point, a row's id, or
/// nothing in particular (automatic), with SwiftUI's spelling (SPEC §3).
///
///     var position = ScrollPosition(idType: Int.self)   // automatic (P1)
///     position.scrollTo(id: 42, anchor: .center)
///     position.viewID(type: Int.self)                   // 42 (P3)
///     position.scrollTo(y: 40)                          // y == 40, x == nil (P2)
///
/// Assign it to `LazyStackLayout.position` (or mutate that property in place)
/// to scroll programmatically; the layout writes back the row it tracks while
/// the user scrolls, with `isPositionedByUser == true` (SPEC T1).
public struct ScrollPosition: Equatable, Sendable, CustomStringConvertible {
  @usableFromInline
  internal enum _Target: Sendable {
    case automatic
    case edge(Edge)
    case point(x: CGFloat?, y: CGFloat?)
    case id(any Hashable & Sendable, anchor: UnitPoint?)
  }

  @usableFromInline
  internal var _target: _Target

  /// Whether the user's own scrolling produced this position (SPEC T1).
  /// Setting it to `true` clears `edge` and `point` (SPEC P4).
  /// - Complexity: O(1).
  public var isPositionedByUser: Bool {
    didSet {
      guard isPositionedByUser else { return }
      switch _target {
      case .edge, .point: _target = .automatic
      case .automatic, .id: break
      }
    }
  }

  @inlinable
  internal init(_target: _Target, isPositionedByUser: Bool = false) {
    self._target = _target
    self.isPositionedByUser = isPositionedByUser
  }

  /// An automatic position: no edge, point or id (SPEC P1).
  /// - Parameter idType: The type of the ids the position may hold.
  /// - Complexity: O(1).
  public init<ID: Hashable & Sendable>(idType: ID.Type = Never.self) {
    self.init(_target: .automatic)
  }

  /// A position at an edge (SPEC R1).
  /// - Complexity: O(1).
  public init<ID: Hashable & Sendable>(idType: ID.Type = Never.self, edge: Edge) {
    self.init(_target: .edge(edge))
  }

  /// A position at a content offset (SPEC R2).
  /// - Complexity: O(1).
  public init<ID: Hashable & Sendable>(idType: ID.Type = Never.self, point: CGPoint) {
    self.init(_target: .point(x: point.x, y: point.y))
  }

  /// A position at a horizontal content offset (SPEC R2).
  /// - Complexity: O(1).
  public init<ID: Hashable & Sendable>(idType: ID.Type = Never.self, x: CGFloat) {
    self.init(_target: .point(x: x, y: nil))
  }

  /// A position at a vertical content offset (SPEC R2).
  /// - Complexity: O(1).
  public init<ID: Hashable & Sendable>(idType: ID.Type = Never.self, y: CGFloat) {
    self.init(_target: .point(x: nil, y: y))
  }

  /// A position at a content offset given by its components (SPEC R2).
  /// - Complexity: O(1).
  public init<ID: Hashable & Sendable>(idType: ID.Type = Never.self, x: CGFloat, y: CGFloat) {
    self.init(_target: .point(x: x, y: y))
  }

  /// A position at the row with the given id (SPEC R3, R4).
  /// - Parameters:
  ///   - id: The row's id.
  ///   - anchor: Which point of the row lines up with the same point of the
  ///     viewport; `nil` scrolls as little as possible (SPEC R4), unless the
  ///     layout has a `scrollAnchor` (SPEC R7).
  /// - Complexity: O(1).
  public init(id: some Hashable & Sendable, anchor: UnitPoint? = nil) {
    self.init(_target: .id(id, anchor: anchor))
  }

  /// The edge the position is at, if it is an edge position.
  /// - Complexity: O(1).
  public var edge: Edge? {
    if case .edge(let edge) = _target { return edge }
    return nil
  }

  /// The content offset, when both components were set (SPEC P2).
  /// - Complexity: O(1).
  public var point: CGPoint? {
    if case .point(let x?, let y?) = _target { return CGPoint(x: x, y: y) }
    return nil
  }

  /// The horizontal offset, when it was set (SPEC P2).
  /// - Complexity: O(1).
  public var x: CGFloat? {
    if case .point(let x, _) = _target { return x }
    return nil
  }

  /// The vertical offset, when it was set (SPEC P2).
  /// - Complexity: O(1).
  public var y: CGFloat? {
    if case .point(_, let y) = _target { return y }
    return nil
  }

  /// The id of the row the position is at, type-erased.
  /// - Complexity: O(1).
  public var viewID: (any Hashable & Sendable)? {
    if case .id(let id, _) = _target { return id }
    return nil
  }

  /// The anchor given with the id (`scrollTo(id:anchor:)`), if any. Not in
  /// SwiftUI's public surface; the layout needs it to resolve the position.
  /// - Complexity: O(1).
  public var anchor: UnitPoint? {
    if case .id(_, let anchor) = _target { return anchor }
    return nil
  }

  /// Whether the position is automatic: no edge, point or id (SPEC P1).
  /// - Complexity: O(1).
  public var isAutomatic: Bool {
    if case .automatic = _target { return true }
    return false
  }

  /// The id, if it has type `type`, else `nil` (SPEC P3).
  /// - Complexity: O(1).
  @inlinable
  public func viewID<T: Hashable>(type: T.Type) -> T? {
    guard case .id(let id, _) = _target else { return nil }
    return Self._cast(id, to: T.self)
  }

  /// `value as? T`, without the runtime's general cast when `value` is a
  /// `T` (the common case: a layout's own ids): one metadata comparison.
  @inlinable @inline(__always)
  internal static func _cast<V: Hashable, T>(_ value: V, to _: T.Type) -> T? {
    if V.self == T.self { return unsafeBitCast(value, to: T.self) }
    return value as? T
  }

  /// Scrolls to an edge (SPEC P2, R1).
  /// - Complexity: O(1).
  public mutating func scrollTo(edge: Edge) {
    _set(.edge(edge))
  }

  /// Scrolls to the row with the given id (SPEC P2, R3, R4).
  /// - Complexity: O(1).
  public mutating func scrollTo(id: some Hashable & Sendable, anchor: UnitPoint? = nil) {
    _set(.id(id, anchor: anchor))
  }

  /// Scrolls to a content offset (SPEC P2, R2).
  /// - Complexity: O(1).
  public mutating func scrollTo(point: CGPoint) {
    _set(.point(x: point.x, y: point.y))
  }

  /// Scrolls to a horizontal content offset (SPEC P2, R2).
  /// - Complexity: O(1).
  public mutating func scrollTo(x: CGFloat) {
    _set(.point(x: x, y: nil))
  }

  /// Scrolls to a vertical content offset (SPEC P2, R2).
  /// - Complexity: O(1).
  public mutating func scrollTo(y: CGFloat) {
    _set(.point(x: nil, y: y))
  }

  /// Scrolls to a content offset given by its components (SPEC P2, R2).
  /// - Complexity: O(1).
  public mutating func scrollTo(x: CGFloat, y: CGFloat) {
    _set(.point(x: x, y: y))
  }

  @inlinable
  internal mutating func _set(_ target: _Target) {
    _target = target
    isPositionedByUser = false
  }

  /// Two positions are equal when they name the same target (ids compared by
  /// value and type; NaN components equal to each other) and agree on
  /// `isPositionedByUser`.
  /// - Complexity: O(1), plus one id comparison.
  public static func == (lhs: ScrollPosition, rhs: ScrollPosition) -> Bool {
    guard lhs.isPositionedByUser == rhs.isPositionedByUser else { return false }
    switch (lhs._target, rhs._target) {
    case (.automatic, .automatic): return true
    case let (.edge(a), .edge(b)): return a == b
    case let (.point(ax, ay), .point(bx, by)): return _same(ax, bx) && _same(ay, by)
    case let (.id(a, aa), .id(b, ba)):
      return _same(aa?.x, ba?.x) && _same(aa?.y, ba?.y) && AnyHashable(a) == AnyHashable(b)
    default: return false
    }
  }

  /// Equality of optional components where NaN equals NaN, so a position
  /// is always equal to itself (found by the fuzzer).
  @inlinable
  internal static func _same(_ a: CGFloat?, _ b: CGFloat?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case let (x?, y?): return x == y || (x.isNaN && y.isNaN)
    default: return false
    }
  }

  /// A short description, e.g. `ScrollPosition(id: 42, anchor: .top)`.
  /// - Complexity: O(1).
  public var description: String {
    let user = isPositionedByUser ? ", isPositionedByUser" : ""
    switch _target {
    case .automatic: return "ScrollPosition(automatic\(user))"
    case .edge(let e): return "ScrollPosition(edge: .\(e)\(user))"
    case .point(let x, let y):
      return "ScrollPosition(x: \(x.map { "\($0)" } ?? "nil"), y: \(y.map { "\($0)" } ?? "nil")\(user))"
    case .id(let id, let anchor):
      let a = anchor.map { "(\($0.x), \($0.y))" } ?? "nil"
      return "ScrollPosition(id: \(id), anchor: \(a)\(user))"
    }
  }
}
