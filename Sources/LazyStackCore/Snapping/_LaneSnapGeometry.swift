// SPEC L7: with lanes, view-aligned snapping aligns to grid line starts
// and to every other row's start; several rows share a start (a grid
// line, masonry rows side by side), so a behaviour sees the distinct
// starts, in order, as its boundaries.

/// The distinct snapping starts of a layout with lanes, sorted: the
/// `_SnappingGeometry` a behaviour reads instead of the rows.
@usableFromInline
package struct _LaneSnapGeometry: _SnappingGeometry {
  /// The distinct starts, ascending, in units.
  @usableFromInline package let starts: [Int64]

  @inlinable
  package init(starts: [Int64]) {
    self.starts = starts
  }

  @inlinable
  package var _rowCount: Int { starts.count }

  @inlinable
  package func _rowStartUnits(at index: Int) -> Int64 { starts[index] }

  @inlinable
  package func _rowsStarting(atOrBefore offset: Int64) -> Int {
    var low = 0
    var high = starts.count
    while low < high {
      let mid = (low &+ high) &>> 1
      if starts[mid] <= offset { low = mid &+ 1 } else { high = mid }
    }
    return low
  }

  @inlinable
  package func _bracket(atOrBefore offset: Int64) -> (index: Int, start: Int64, next: Int64?) {
    let n = _rowsStarting(atOrBefore: offset)
    let next = n < starts.count ? starts[n] : nil
    return n == 0 ? (-1, 0, next) : (n &- 1, starts[n &- 1], next)
  }
}
