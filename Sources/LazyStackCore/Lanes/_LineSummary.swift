import Foundation

// SPEC L3, L8: what a run of grid rows adds to the main axis, per phase;
// the grid's segment tree (`_GridLines`) combines these.

/// What a run of rows adds to a grid's main axis, for the lane its first
/// row sits in (its *phase*): a line starts at every row of lane 0.
///
/// - `head`: the longest row before the run's first line start (a line the
///   run did not open), or -1 when the run starts a line (or is empty);
/// - `lines`: the pitch (longest row plus spacing) of every line the run
///   both opens and closes;
/// - `tail`: the longest row of the last line the run opens, which it
///   leaves open, or -1 when it opens none.
///
/// Runs combine associatively (`then`): the first's open last line and the
/// second's head are one line, closed when the second opens one.
@usableFromInline @frozen
package struct _LineSummary: Sendable, Equatable {
  @usableFromInline package var head: Int64
  @usableFromInline package var lines: Int64
  @usableFromInline package var tail: Int64

  @inlinable @inline(__always)
  package init(head: Int64, lines: Int64, tail: Int64) {
    self.head = head
    self.lines = lines
    self.tail = tail
  }

  /// The summary of no rows.
  @inlinable @inline(__always)
  package static var empty: _LineSummary { _LineSummary(head: -1, lines: 0, tail: -1) }

  /// This run followed by `next` (summarized at the phase this run ends
  /// at), with `spacing` after each line.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func then(_ next: _LineSummary, spacing: Int64) -> _LineSummary {
    if tail < 0 { return _LineSummary(head: Swift.max(head, next.head), lines: next.lines, tail: next.tail) }
    if next.tail < 0 { return _LineSummary(head: head, lines: lines, tail: Swift.max(tail, next.head)) }
    return _LineSummary(head: head, lines: lines &+ Swift.max(tail, next.head) &+ spacing &+ next.lines, tail: next.tail)
  }

  /// The pitch of a run that starts a line, once its last line is closed.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func closedPitch(spacing: Int64) -> Int64 {
    tail < 0 ? lines : lines &+ tail &+ spacing
  }
}
