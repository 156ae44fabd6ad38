import Foundation

// SPEC L5 in a grid body: the lines and rows that meet a window, and
// point queries.

extension _GridLines {
  /// Calls `body` with each line from `line` on, in order: its index, its
  /// start (pitch from the body's start), its longest row and its rows,
  /// until `body` returns false or the lines end.
  /// - Complexity: O(log(m/B) + B) to find the first line, then O(k) a line.
  @inlinable
  package func forEachLine(from line: Int,
                           _ body: (_ line: Int, _ start: Int64, _ extent: Int64, _ rows: Range<Int>) -> Bool) {
    guard line >= 0 && line < lineCount else { return }
    var start = lineStart(line)
    var (b, slot) = blocks.locate(line &* k)
    var l = line
    while l < lineCount {
      let first = l &* k
      let end = Swift.min(count, first &+ k)
      let longest = _readLine(end &- first, block: &b, slot: &slot, copyTo: nil)
      if !body(l, start, longest, first ..< end) { return }
      start &+= longest &+ spacing
      l &+= 1
    }
  }

  /// The longest of the `n` rows from slot `slot` of block `b` on (across
  /// blocks), each extent copied to `copy` when one is given; moves
  /// `(b, slot)` past them.
  /// - Complexity: O(n).
  @inlinable @inline(__always)
  package func _readLine(_ n: Int, block b: inout Int, slot: inout Int,
                         copyTo copy: UnsafeMutablePointer<Int32>?) -> Int64 {
    var longest: Int64 = 0
    var filled = 0
    while filled < n {
      blocks.extents[b].withUnsafeBufferPointer { e in
        let stop = Swift.min(e.count, slot &+ (n &- filled))
        for t in slot ..< stop {
          copy?[filled] = e[t]
          filled &+= 1
          longest = Swift.max(longest, _value(e[t]))
        }
        slot = stop
        if slot == e.count {
          b &+= 1
          slot = 0
        }
      }
    }
    return longest
  }

  /// The rows that meet `[low, high)` (pitch from the body's start), in
  /// index order, by SPEC G5's rule on each row's own span (a row shorter
  /// than its line, aligned in it, may miss a window its line meets).
  /// - Complexity: O(log(m/B) + B + k v) for v lines met.
  @inlinable
  package func rows(meeting low: Int64, _ high: Int64, alignment: CGFloat) -> [Int] {
    var sink = _RowSink()
    appendSpans(meeting: low, high, alignment: alignment, rowBase: 0, startBase: 0, to: &sink)
    return sink.take()
  }

  /// Appends the spans (row, start, extent) of `rows(meeting:_:alignment:)`
  /// to `result`, each row moved on by `rowBase` and each start by
  /// `startBase` (the body's place in the layout): no array of its own.
  @inlinable @inline(never)  // its own function, as the walk is compiled best
  package func appendSpans(meeting low: Int64, _ high: Int64, alignment: CGFloat, rowBase: Int, startBase: Int64,
                           to result: inout some _SpanSink) {
    // From the first line that ends at or after `low`: an empty row that
    // starts at `low` meets the window, and so may a line of empty rows.
    guard low < high, let (firstLine, firstStart) = _line(atPitch: low &- 1) else { return }
    let k = self.k
    let count = self.count
    let spacing = self.spacing
    var i = firstLine &* k
    var (b, slot) = blocks.locate(i)
    var start = firstStart
    // The line of `n` extents at `start`, whose longest is `longest`: its
    // rows that meet the window, each at its place in the line.
    @inline(__always) func emit(_ extents: UnsafePointer<Int32>, _ n: Int, _ longest: Int64) {
      for t in 0 ..< n {
        let e = _value(extents[t])
        let s = alignment == 0 ? start : start &+ _FixedPoint.scale(longest &- e, by: alignment)
        if e > 0 ? (s < high && s &+ e > low) : (s >= low && s < high) {
          result.append(_LaneSpan(row: rowBase &+ i &+ t, start: startBase &+ s, extent: e))
        }
      }
    }
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: k) { gathered in
      let line = gathered.baseAddress.unsafelyUnwrapped
      while i < count {
        // The lines that lie in block `b`, read in place.
        let done = blocks.extents[b].withUnsafeBufferPointer { e -> Bool in
          guard !e.isEmpty else { return false }  // a spare: on to the next block
          let base = e.baseAddress.unsafelyUnwrapped
          while i < count {
            let n = Swift.min(k, count &- i)
            if slot &+ n > e.count { return false }
            if start >= high { return true }
            var longest: Int64 = 0
            for t in slot ..< slot &+ n { longest = Swift.max(longest, _value(base[t])) }
            emit(base + slot, n, longest)
            start &+= longest &+ spacing
            i &+= n
            slot &+= n
          }
          return true
        }
        if done || i >= count { return }
        if slot == blocks.extents[b].count {
          b &+= 1
          slot = 0
          continue
        }
        // A line across blocks: gathered first.
        let n = Swift.min(k, count &- i)
        let longest = _readLine(n, block: &b, slot: &slot, copyTo: line)
        if start >= high { return }
        emit(line, n, longest)
        start &+= longest &+ spacing
        i &+= n
      }
    }
  }

  /// The row of lane `lane` whose span holds `y` (pitch from the body's
  /// start), or nil: SPEC L5's hit test within the body.
  /// - Complexity: O(k + log(m/B) + B).
  @inlinable
  package func row(atPitch y: Int64, lane: Int, alignment: CGFloat) -> Int? {
    guard lane >= 0 && lane < k, let line = line(atPitch: y) else { return nil }
    let i = line &* k &+ lane
    guard i < count else { return nil }
    let s = start(at: i, alignment: alignment)
    let e = extent(at: i)
    return s <= y && y < s &+ e ? i : nil
  }
}

extension _GridLines {
  /// The last row of lane `lane` with an extent above zero, or nil.
  /// - Complexity: O(log(m/B)) a line passed, from the end.
  @inlinable
  package func lastNonEmptyRow(inLane lane: Int) -> Int? {
    guard lane < k, count > lane else { return nil }
    var i = (count &- 1 &- lane) / k &* k &+ lane
    while i >= 0 {
      if extent(at: i) > 0 { return i }
      i &-= k
    }
    return nil
  }
}
