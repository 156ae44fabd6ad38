import Foundation

// After a measurement in a masonry body: the rows on screen, moved in place
// (only the measured row's lane moves, SPEC L4, L6).

extension _MasonryLanes {
  /// The rows that meet `[low, high)` (pitch from the body's start) after
  /// row `i`'s extent went from `old` to its extent now, from `spans`: the
  /// spans of the rows that met it before, in row order, each row moved on
  /// by `rowBase` and each start by `startBase` (as `appendSpans` writes
  /// them). A measurement moves only the rows after `i` in its lane (L4),
  /// by the change, so only that lane's rows on screen change, and only
  /// that lane's rows next to them can come in. Rewrites `spans` in place:
  /// its first rows are then the ones that still meet the window, with
  /// their new starts and extents, in row order, and returns how many;
  /// appends to `entering` the rows of the lane that meet it now and did
  /// not, in row order. `nil`, with `spans` unchanged, when that cannot
  /// answer: the lane has rows that reach the window and none in `spans`,
  /// a row of `spans` is not in the body, or the lane's next row lies more
  /// than `scanLimit` rows away.
  /// - Complexity: O(log(m/B) + u + g) for u spans and g rows entering,
  ///   and the rows of other lanes between (at most `scanLimit`).
  @inlinable
  package func _patchSpans(afterMeasuring i: Int, old: Int64, meeting low: Int64, _ high: Int64,
                           spans: UnsafeMutableBufferPointer<_LaneSpan>, rowBase: Int, startBase: Int64,
                           entering: inout _SpanBuffer, scanLimit: Int = 256) -> Int? {
    guard i >= 0, i < count, low < high else { return nil }
    let n = spans.count
    guard n == 0 || (spans[0].row >= rowBase && spans[n &- 1].row < rowBase &+ count) else { return nil }
    @inline(__always) func meets(_ s: Int64, _ e: Int64) -> Bool {
      e > 0 ? (s < high && s &+ e > low) : (s >= low && s < high)
    }
    let (bi, ti) = blocks.locate(i)
    let lane = blocks.lanes[bi][ti]
    let new = _value(blocks.extents[bi][ti])
    let delta = new &- old
    let row = rowBase &+ i
    let spacing = self.spacing
    // The lane's first and last span: each span keeps its lane.
    let laneTag = Int32(lane)
    let first = spans.firstIndex { $0.lane == laneTag } ?? -1
    let last = first < 0 ? -1 : spans.lastIndex { $0.lane == laneTag }.unsafelyUnwrapped
    // A span of the lane as it is now.
    @inline(__always) func moved(_ span: _LaneSpan) -> _LaneSpan {
      _LaneSpan(row: span.row, start: span.row > row ? span.start &+ delta : span.start,
                extent: span.row == row ? new : span.extent, lane: laneTag)
    }
    let start = entering.count
    if first < 0 {
      // No row of the lane met the window: nothing can come in when the
      // lane ended before it, before and after.
      let total = laneTotals[Int(lane)]
      guard total <= low && total &- delta <= low else { return nil }
    } else if delta < 0 && spans[last].row >= row {
      // The lane's rows after its last on screen moved up: on from it.
      let final = moved(spans[last])
      var s = final.start &- startBase &+ final.extent &+ spacing
      var (b, t) = blocks.locate(final.row &- rowBase)
      var r = final.row
      var scanned = 0
      search: while s < high {
        repeat {
          t &+= 1
          r &+= 1
          while t == blocks.lanes[b].count {  // (past spares: empty blocks)
            b &+= 1
            t = 0
            if b == blocks.blockCount { break search }
          }
          scanned &+= 1
          if scanned > scanLimit {
            entering.removeLast(entering.count &- start)
            return nil
          }
        } while blocks.lanes[b][t] != lane
        let e = _value(blocks.extents[b][t])
        if meets(s, e) { entering.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: laneTag)) }
        s &+= e &+ spacing
      }
    } else if delta > 0 && spans[first].row > row {
      // The lane's rows from row `i` to its first on screen moved down
      // (row `i` grew): back from it, down to row `i`.
      let head = moved(spans[first])
      var s = head.start &- startBase
      var (b, t) = blocks.locate(head.row &- rowBase)
      var r = head.row
      var scanned = 0
      search: while r > row {
        repeat {
          while t == 0 {  // (past spares: empty blocks)
            if b == 0 { break search }
            b &-= 1
            t = blocks.lanes[b].count
          }
          t &-= 1
          r &-= 1
          scanned &+= 1
          if scanned > scanLimit {
            entering.removeLast(entering.count &- start)
            return nil
          }
        } while blocks.lanes[b][t] != lane
        let e = _value(blocks.extents[b][t])
        s &-= e &+ spacing
        guard e > 0 ? s &+ e > low : s >= low else { break }
        if meets(s, e) { entering.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: laneTag)) }
      }
      // Found last to first.
      var (x, y) = (start, entering.count &- 1)
      while x < y {
        swap(&entering.base[x], &entering.base[y])
        x &+= 1
        y &-= 1
      }
    }
    guard first >= 0 else { return n }
    // The lane's spans move; those that no longer meet the window go.
    var kept = first
    for k in first ... last {
      let span = spans[k]
      if span.lane == laneTag {
        let now = moved(span)
        if meets(now.start &- startBase, now.extent) {
          spans[kept] = now
          kept &+= 1
        }
      } else {
        if kept != k { spans[kept] = span }
        kept &+= 1
      }
    }
    // Those after the lane's last, as they were.
    let tail = n &- last &- 1
    if tail > 0 && kept != last &+ 1 {
      let base = spans.baseAddress.unsafelyUnwrapped
      (base + kept).update(from: base + (last &+ 1), count: tail)
    }
    kept &+= tail
    return kept
  }
}
