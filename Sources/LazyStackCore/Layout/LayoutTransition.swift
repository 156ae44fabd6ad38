import Foundation

/// Where rows were and are around a batch of changes (SPEC U1, U2): what a
/// UI needs to animate inserts, removals, moves and size changes.
///
///     let transition = try layout.performBatch { layout in
///       try layout.remove(ids: [deleted])
///       try layout.insert([arrived], at: 0)
///     }
///     for (id, before, after) in transition.rows { ... }   // nil before: fade in; nil after: fade out
///     let frames = transition.frames(at: 0.5)               // halfway through the animation
///
/// Every frame is in viewport coordinates: the row's frame in content
/// coordinates (where it is drawn, for a pinned row) less the content
/// offset of that moment.
public struct LayoutTransition<ID: Hashable & Sendable>: Sendable {
  /// Every id whose frame intersected the viewport before the batch or
  /// intersects it after (overscan included, and the pinned rows), with its
  /// frame before (`nil`: inserted by the batch) and after (`nil`: removed).
  /// The rows shown after come first, in index order, then the rows shown
  /// only before, in their old index order.
  public var rows: [(id: ID, before: CGRect?, after: CGRect?)]
  /// The one correction the batch's stabilization applied (SPEC S11): the
  /// content offset after the batch less the one before it.
  public var correction: ScrollCorrection

  /// Creates a transition. - Complexity: O(1).
  @inlinable
  public init(rows: [(id: ID, before: CGRect?, after: CGRect?)], correction: ScrollCorrection) {
    self.rows = rows
    self.correction = correction
  }

  /// Each row's frame at `progress` through the transition (SPEC U2): 0 is
  /// before, 1 after, and each coordinate moves linearly in between. An
  /// inserted row has its frame after and a removed row its frame before
  /// throughout (for the UI to fade them). `progress` is clamped to 0...1;
  /// NaN counts as 0.
  /// - Complexity: O(rows).
  @inlinable
  public func frames(at progress: Double) -> [(id: ID, frame: CGRect)] {
    let t = progress.isNaN ? 0 : Swift.min(Swift.max(progress, 0), 1)
    func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat {
      t == 1 ? b : a + (b - a) * CGFloat(t)
    }
    return rows.map { row in
      switch (row.before, row.after) {
      case (let a?, let b?):
        let frame = CGRect(x: mix(a.origin.x, b.origin.x), y: mix(a.origin.y, b.origin.y),
                           width: mix(a.width, b.width), height: mix(a.height, b.height))
        return (row.id, frame)
      case (let a?, nil): return (row.id, a)
      case (nil, let b?): return (row.id, b)
      case (nil, nil): return (row.id, .zero)
      }
    }
  }
}

extension LayoutTransition: Equatable {
  /// Whether both list the same rows with the same frames, in the same
  /// order, and the same correction. - Complexity: O(rows).
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.correction == rhs.correction && lhs.rows.count == rhs.rows.count
      && zip(lhs.rows, rhs.rows).allSatisfy { $0.id == $1.id && $0.before == $1.before && $0.after == $1.after }
  }
}

extension LayoutTransition: CustomStringConvertible {
  /// The rows and their frames, one a line. - Complexity: O(rows).
  public var description: String {
    func text(_ r: CGRect?) -> String {
      r.map { "(\($0.origin.x), \($0.origin.y), \($0.width), \($0.height))" } ?? "nil"
    }
    let lines = rows.map { "\($0.id): \(text($0.before)) -> \(text($0.after))" }
    return "LayoutTransition(\(correction.offsetDelta) pt)\n" + lines.joined(separator: "\n")
  }
}
