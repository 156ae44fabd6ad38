import Foundation

/// How far beyond the viewport `visibleIndices` reaches (SPEC G5), before
/// and after the visible rows, in points or in rows.
public struct Overscan: Hashable, Sendable {
  /// An amount of overscan on one side.
  public enum Amount: Hashable, Sendable {
    /// Rows within this distance of the viewport count as visible. Negative
    /// or non-finite values count as 0.
    case points(CGFloat)
    /// This many extra rows count as visible. Negative values count as 0.
    case rows(Int)
  }

  /// The overscan before the viewport (above, or to the leading side).
  public var before: Amount
  /// The overscan after the viewport.
  public var after: Amount

  /// Creates an overscan. - Complexity: O(1).
  @inlinable
  public init(before: Amount, after: Amount) {
    self.before = before
    self.after = after
  }

  /// No overscan: exactly the rows that intersect the viewport.
  public static let none = Overscan(before: .rows(0), after: .rows(0))

  /// The same number of extra rows on both sides. - Complexity: O(1).
  @inlinable
  public static func rows(_ count: Int) -> Overscan { Overscan(before: .rows(count), after: .rows(count)) }

  /// The same distance in points on both sides. - Complexity: O(1).
  @inlinable
  public static func points(_ distance: CGFloat) -> Overscan {
    Overscan(before: .points(distance), after: .points(distance))
  }
}

/// What unmeasured rows are estimated at (SPEC X2).
public enum EstimatePolicy: Hashable, Sendable {
  /// Every unmeasured row has the layout's `estimatedExtent`.
  case fixed
  /// Unmeasured rows have the mean extent of the measured rows (what SwiftUI
  /// does), or `estimatedExtent` while no row is measured.
  case meanOfMeasured
}

/// An offset correction the layout applied to keep the user's place (SPEC
/// S11), so a UI layer can apply the new offset and the content change in one
/// transaction.
public struct ScrollCorrection: Hashable, Sendable {
  /// What made the layout move.
  public enum Cause: Hashable, Sendable {
    case none, measurement, estimateChange, snapshot, edit, viewportResize, programmaticScroll
  }

  /// New main-axis content offset minus the old one, in points.
  public var offsetDelta: CGFloat
  /// The content offset after the correction.
  public var contentOffset: CGPoint
  /// What made the layout move.
  public var cause: Cause

  /// Creates a correction. - Complexity: O(1).
  @inlinable
  public init(offsetDelta: CGFloat, contentOffset: CGPoint, cause: Cause) {
    self.offsetDelta = offsetDelta
    self.contentOffset = contentOffset
    self.cause = cause
  }

  /// No correction, at the origin.
  public static let none = ScrollCorrection(offsetDelta: 0, contentOffset: .zero, cause: .none)
}

/// What `setMeasuredExtent(_:for:)` did (DESIGN §1). It never throws: rows
/// are measured every frame, and a row deleted between layout and measurement
/// is normal.
public enum MeasurementResult: Hashable, Sendable {
  /// The extent was stored; `correction` is the stabilization applied (S1, S11).
  case applied(correction: ScrollCorrection)
  /// The row was already measured at this extent (to 1/256 pt): nothing changed.
  case unchanged
  /// The extent was NaN, infinite or negative and was not stored (SPEC X5).
  case rejected(LazyStackError)
  /// No row has this id.
  case unknownID

  /// Whether the extent was stored. - Complexity: O(1).
  @inlinable
  public var isApplied: Bool {
    if case .applied = self { return true }
    return false
  }
}

/// How the last programmatic scroll (a write to `position`) resolved.
public enum PositionResult: Hashable, Sendable {
  /// No programmatic scroll yet.
  case none
  /// The position resolved; the offset moved by `correction`.
  case resolved(ScrollCorrection)
  /// The position named an id that is not a row (or of another type): the
  /// offset is unchanged and `position` was put back (SPEC R5).
  case unknownID(String)
  /// A position with `isPositionedByUser == true` was written back: it was
  /// stored and nothing scrolled (SPEC T1).
  case userPositionStored
}
