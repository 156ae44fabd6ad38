/// Where a scroll indicator's thumb is (SPEC F6): a position and a length
/// on a track of length 1.
///
///     let thumb = layout.scrollIndicator
///     let top = thumb.position * (1 - thumb.length) * trackHeight
///     drawThumb(y: top, height: thumb.length * trackHeight)
///
/// The position moves only when the content scrolls, in the direction it
/// scrolls, and reaches each end exactly when the content does: rows
/// measured above the viewport, or arriving far from it, never move it.
public struct ScrollIndicator: Hashable, Sendable {
  /// The thumb's position f in `0 ... 1`: 0 at the leading end, 1 at the
  /// trailing end.
  public var position: Double
  /// The thumb's length L in `0 ... 1`: the viewport's main-axis extent
  /// over the content's, at most 1 (1 for an empty content).
  public var length: Double

  /// Creates an indicator. - Complexity: O(1).
  @inlinable
  public init(position: Double, length: Double) {
    self.position = position
    self.length = length
  }

  /// The part of a track of length 1 the thumb covers:
  /// `f (1 - L) ... f (1 - L) + L`.
  /// - Complexity: O(1).
  @inlinable
  public var thumb: ClosedRange<Double> {
    let start = position * (1 - length)
    return start ... start + length
  }
}
