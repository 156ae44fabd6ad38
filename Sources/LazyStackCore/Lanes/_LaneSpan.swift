import Foundation

// The rows a lane query finds (`_LaneSpan`), and where the window searches
// of grids and masonry put them (`_SpanSink`: an array, the rows alone,
// or a buffer of their own).

/// A row found by a lane query: its index and its start and extent (pitch
/// coordinates of the structure that found it), and, for a masonry row,
/// its lane, so an update of the rows on screen after a measurement
/// (`_MasonryLanes._patchSpans`) tells the measured row's lane from the
/// others without reading the blocks. 24 bytes: an extent is at most
/// `_FixedPoint.maxExtentUnits` (`Int32.max`), so it and the lane share a
/// word. (The two packed by hand in one `Int64` cost more instructions a
/// scroll frame than two 32-bit fields.)
@usableFromInline @frozen
package struct _LaneSpan: Sendable, Equatable {
  @usableFromInline package var row: Int
  @usableFromInline package var start: Int64
  @usableFromInline package var _extent: Int32
  /// The row's masonry lane; `-1` for a row that keeps none (a grid cell,
  /// a list row, a header or footer).
  @usableFromInline package var lane: Int32

  /// The row's extent, in units (at most `_FixedPoint.maxExtentUnits`).
  @inlinable @inline(__always)
  package var extent: Int64 {
    get { Int64(_extent) }
    set { _extent = Int32(truncatingIfNeeded: newValue) }
  }

  @inlinable @inline(__always)
  package init(row: Int, start: Int64, extent: Int64, lane: Int32 = -1) {
    self.row = row
    self.start = start
    self._extent = Int32(truncatingIfNeeded: extent)
    self.lane = lane
  }
}

/// Where the lanes' window searches (`appendSpans`) put the rows they
/// find: an array of spans, or of row indices alone (`_RowSink`), so a
/// caller that needs only the rows (`visibleRows`) builds one array.
@usableFromInline
package protocol _SpanSink {
  /// The number of spans appended.
  var count: Int { get }
  /// Takes back the last `k` spans appended.
  mutating func removeLast(_ k: Int)
  mutating func append(_ span: _LaneSpan)
  /// Appends `spans` in order: one call for many spans.
  mutating func append(contentsOf spans: UnsafeBufferPointer<_LaneSpan>)
}

extension _SpanSink {
  @inlinable
  package mutating func append(contentsOf spans: UnsafeBufferPointer<_LaneSpan>) {
    for span in spans { append(span) }
  }
}

extension Array: _SpanSink where Element == _LaneSpan {}

/// The rows of the spans appended, in order, in memory of its own:
/// appending is a store and a count (an array's append checks that its
/// buffer is unique every time). `take()` hands them over as an array and
/// frees the memory; a sink must be taken exactly once.
@usableFromInline
package struct _RowSink: _SpanSink {
  @usableFromInline package var base: UnsafeMutablePointer<Int>
  @usableFromInline package var count: Int
  @usableFromInline package var capacity: Int

  @inlinable @inline(__always)
  package init(capacity: Int = 128) {
    base = _mallocTrivial(Int.self, capacity: capacity)
    count = 0
    self.capacity = capacity
  }

  @inlinable
  package mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= count, "_RowSink: cannot remove \(k) of \(count) rows")
    count &-= k
  }

  @inlinable @inline(__always)
  package mutating func append(_ span: _LaneSpan) {
    if _slowPath(count == capacity) { _grow(to: Swift.max(16, capacity &* 2)) }
    (base + count).initialize(to: span.row)
    count &+= 1
  }

  @inlinable
  package mutating func append(contentsOf spans: UnsafeBufferPointer<_LaneSpan>) {
    if _slowPath(count &+ spans.count > capacity) { _grow(to: Swift.max(capacity &* 2, count &+ spans.count)) }
    let end = base + count
    for (i, span) in spans.enumerated() { (end + i).initialize(to: span.row) }
    count &+= spans.count
  }

  /// Moves the rows to memory for `capacity` rows.
  @inlinable @inline(never)
  package mutating func _grow(to capacity: Int) {
    let larger = _mallocTrivial(Int.self, capacity: capacity)
    larger.moveInitialize(from: base, count: count)
    _freeTrivial(base)
    base = larger
    self.capacity = capacity
  }

  /// The rows appended, as an array; frees the sink's memory.
  @inlinable
  package consuming func take() -> [Int] {
    let rows = _makeArray(UnsafeBufferPointer(start: base, count: count))
    _freeTrivial(base)
    return rows
  }
}

/// The spans a masonry window search collects lane by lane, in memory of
/// its own: appending is a store and a count (an array's append checks
/// that its buffer is unique every time). The owner deallocates it.
@usableFromInline
package struct _SpanBuffer: _SpanSink {
  @usableFromInline package var base: UnsafeMutablePointer<_LaneSpan>
  @usableFromInline package var count: Int
  @usableFromInline package var capacity: Int

  @inlinable
  package init(capacity: Int) {
    base = _mallocTrivial(_LaneSpan.self, capacity: capacity)
    count = 0
    self.capacity = capacity
  }

  @inlinable @inline(__always)
  package mutating func append(_ span: _LaneSpan) {
    if _slowPath(count == capacity) { _grow() }
    (base + count).initialize(to: span)
    count &+= 1
  }

  /// Moves the spans to memory twice as large.
  @inlinable @inline(never)
  package mutating func _grow() {
    reserve(Swift.max(16, capacity &* 2))
  }

  /// Makes room for `capacity` spans in all (the spans stay).
  @inlinable
  package mutating func reserve(_ capacity: Int) {
    guard capacity > self.capacity else { return }
    let larger = _mallocTrivial(_LaneSpan.self, capacity: capacity)
    larger.moveInitialize(from: base, count: count)
    _freeTrivial(base)
    base = larger
    self.capacity = capacity
  }

  @inlinable
  package mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= count, "_SpanBuffer: cannot remove \(k) of \(count) spans")
    count &-= k
  }

  /// Frees the memory (the spans are trivial: nothing to deinitialize).
  @inlinable
  package func deallocate() { _freeTrivial(base) }

  /// Removes the spans from index `first` on that `shouldRemove` picks,
  /// keeping the others in order.
  @inlinable
  package mutating func removeAll(from first: Int, where shouldRemove: (_LaneSpan) -> Bool) {
    var kept = first
    for i in first ..< count where !shouldRemove(base[i]) {
      base[kept] = base[i]
      kept &+= 1
    }
    count = kept
  }

  /// Puts the spans from index `first` on in row order.
  @inlinable
  package mutating func sortByRow(from first: Int = 0) {
    var spans = UnsafeMutableBufferPointer(start: base + first, count: count &- first)
    spans.sort { $0.row < $1.row }
  }

  /// The spans, as an array; frees the memory.
  @inlinable
  package consuming func take() -> [_LaneSpan] {
    let spans = _makeArray(UnsafeBufferPointer(start: base, count: count))
    _freeTrivial(base)
    return spans
  }
}
