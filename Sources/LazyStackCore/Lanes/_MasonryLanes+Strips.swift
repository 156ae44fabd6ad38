import Foundation

// A scroll frame in a masonry body: the rows of the strips a window gained,
// read from each lane's rows on screen in the last frame (SPEC L5, T1).

extension _MasonryLanes {
  /// Appends to `gained`, in row order, the spans of the rows that meet
  /// `[low, high)` but not `[lastLow, lastHigh)` (SPEC G5's rule on each
  /// row's span; pitch from the body's start), from `last`: the spans of
  /// the rows that met the last window, in row order, each row moved on by
  /// `rowBase` and each start by `startBase` (as `appendSpans` writes
  /// them). A scroll frame's strips, lane by lane from each lane's first
  /// and last row on screen, not a search from the body's start.
  ///
  /// In a lane, the rows that meet a window are a run (their starts and
  /// ends ascend), so the rows gained below are those after the lane's last
  /// row in `last`, and those gained above the ones before its first.
  /// Returns false, `gained` unchanged, when that cannot answer: a lane
  /// with rows has none in `last` (unless it ends before `lastLow`, when
  /// nothing below can be in it), or a lane's next row lies more than
  /// `scanLimit` rows away.
  /// - Complexity: O(log(m/B) + u + k + g log g) for u spans in `last`, g
  ///   spans gained, and the rows of other lanes between (at most
  ///   `scanLimit` a lane).
  @inlinable
  package func appendStrips(meeting low: Int64, _ high: Int64, after lastLow: Int64, _ lastHigh: Int64,
                            last: UnsafeBufferPointer<_LaneSpan>, rowBase: Int, startBase: Int64,
                            to gained: inout _SpanBuffer, scanLimit: Int = 256) -> Bool {
    guard low < high, lastLow < lastHigh, !last.isEmpty, k <= 64,
          last[0].row >= rowBase, last[last.count &- 1].row < rowBase &+ count else { return false }
    @inline(__always) func meets(_ s: Int64, _ e: Int64, _ l: Int64, _ h: Int64) -> Bool {
      e > 0 ? (s < h && s &+ e > l) : (s >= l && s < h)
    }
    let k = self.k
    let spacing = self.spacing
    // Each lane's first span in `last` (for the strip above) and last (for
    // the strip below): an index into `last` and the row's block and slot.
    // One locate, then a walk with the rows from that end until every
    // lane has been seen.
    typealias Place = (index: Int, block: Int, slot: Int)
    let all: UInt64 = k == 64 ? .max : (1 &<< UInt64(k)) &- 1
    return withUnsafeTemporaryAllocation(of: (first: Place, last: Place).self, capacity: k) { ends in
      for j in 0 ..< k { ends[j] = ((-1, 0, 0), (-1, 0, 0)) }
      if low < lastLow {
        var seen: UInt64 = 0
        var (b, slot) = blocks.locate(last[0].row &- rowBase)
        var row = last[0].row
        for i in 0 ..< last.count {
          slot &+= last[i].row &- row
          row = last[i].row
          while slot >= blocks.lanes[b].count {
            slot &-= blocks.lanes[b].count
            b &+= 1
          }
          let j = Int(blocks.lanes[b][slot])
          if seen & (1 &<< UInt64(j)) == 0 {
            seen |= 1 &<< UInt64(j)
            ends[j].first = (i, b, slot)
            if seen == all { break }
          }
        }
      }
      if high > lastHigh {
        var seen: UInt64 = 0
        var (b, slot) = blocks.locate(last[last.count &- 1].row &- rowBase)
        var row = last[last.count &- 1].row
        for i in (0 ..< last.count).reversed() {
          slot &-= row &- last[i].row
          row = last[i].row
          while slot < 0 {
            b &-= 1
            slot &+= blocks.lanes[b].count
          }
          let j = Int(blocks.lanes[b][slot])
          if seen & (1 &<< UInt64(j)) == 0 {
            seen |= 1 &<< UInt64(j)
            ends[j].last = (i, b, slot)
            if seen == all { break }
          }
        }
      }
      let start = gained.count
      for j in 0 ..< k {
        if (low < lastLow && ends[j].first.index < 0) || (high > lastHigh && ends[j].last.index < 0) {
          // No row of this lane met the last window: below it, nothing
          // when the lane ends before it; else search.
          if laneTotals[j] <= lastLow && high > lastHigh && low >= lastLow { continue }
          gained.removeLast(gained.count &- start)
          return false
        }
        let lane = UInt8(truncatingIfNeeded: j)
        if low < lastLow {
          // Above: back from the lane's first row on screen.
          let first = last[ends[j].first.index]
          var s = first.start &- startBase
          var (b, t) = (ends[j].first.block, ends[j].first.slot)
          var r = first.row
          var scanned = 0
          search: while true {
            // The lane's row before (b, t).
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
                gained.removeLast(gained.count &- start)
                return false
              }
            } while blocks.lanes[b][t] != lane
            let e = _value(blocks.extents[b][t])
            s &-= e &+ spacing
            guard e > 0 ? s &+ e > low : s >= low else { break }
            if meets(s, e, low, high) && !meets(s, e, lastLow, lastHigh) {
              gained.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: Int32(lane)))
            }
          }
        }
        if high > lastHigh {
          // Below: on from the lane's last row on screen.
          let final = last[ends[j].last.index]
          var s = final.start &- startBase &+ final.extent &+ spacing
          var (b, t) = (ends[j].last.block, ends[j].last.slot)
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
                gained.removeLast(gained.count &- start)
                return false
              }
            } while blocks.lanes[b][t] != lane
            let e = _value(blocks.extents[b][t])
            if meets(s, e, low, high) && !meets(s, e, lastLow, lastHigh) {
              gained.append(_LaneSpan(row: r, start: startBase &+ s, extent: e, lane: Int32(lane)))
            }
            s &+= e &+ spacing
          }
        }
      }
      // Each lane's in order (above: last to first), the lanes' interleaved.
      if gained.count &- start > 1 { gained.sortByRow(from: start) }
      return true
    }
  }
}
