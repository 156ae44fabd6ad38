import Foundation

/// The errors LazyStackCore throws for bad input that comes from data
/// (SPEC §9). Programmer errors, such as an out-of-range index, trap instead.
public enum LazyStackError: Error, Hashable, Sendable, CustomStringConvertible {
  /// An id appears twice: in a snapshot (`index` is the position of the
  /// second occurrence), or an edit adds an id that is already a row.
  case duplicateID(String, index: Int)
  /// An edit names an id that is not a row.
  case unknownID(String)
  /// An extent, estimate, spacing or inset that is NaN, infinite or negative
  /// (SPEC X5). The associated value says which input.
  case invalidExtent(CGFloat, what: String)
  /// A grid or masonry lane count outside 1...256 (SPEC L2; a lane is kept
  /// in a byte).
  case invalidLaneCount(Int)

  /// Equal cases with equal values; NaN values compare equal to each other,
  /// so a rejected NaN is the same error every time.
  /// - Complexity: O(1).
  public static func == (lhs: LazyStackError, rhs: LazyStackError) -> Bool {
    switch (lhs, rhs) {
    case let (.duplicateID(a, i), .duplicateID(b, j)): return a == b && i == j
    case let (.unknownID(a), .unknownID(b)): return a == b
    case let (.invalidExtent(a, w), .invalidExtent(b, v)): return w == v && (a == b || (a.isNaN && b.isNaN))
    case let (.invalidLaneCount(a), .invalidLaneCount(b)): return a == b
    default: return false
    }
  }

  /// Hashes consistently with `==`. - Complexity: O(1).
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .duplicateID(let id, let index): hasher.combine(0); hasher.combine(id); hasher.combine(index)
    case .unknownID(let id): hasher.combine(1); hasher.combine(id)
    case .invalidExtent(let value, let what):
      hasher.combine(2); hasher.combine(what); hasher.combine(value.isNaN ? CGFloat.infinity.nextDown : value)
    case .invalidLaneCount(let k): hasher.combine(3); hasher.combine(k)
    }
  }

  /// A readable sentence. - Complexity: O(1).
  public var description: String {
    switch self {
    case .duplicateID(let id, let index): "duplicate id \(id) (at position \(index))"
    case .unknownID(let id): "unknown id \(id)"
    case .invalidExtent(let value, let what): "invalid \(what): \(value) (must be finite and >= 0)"
    case .invalidLaneCount(let k): "invalid lane count: \(k) (must be 1 to 256)"
    }
  }
}
