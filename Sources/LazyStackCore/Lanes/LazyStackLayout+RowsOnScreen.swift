import Foundation

// The rows on screen with lanes, and their cache (`_meetingCache`): the
// rows the last frame found meeting its window, with the window and the
// layout's `_stamp` they were read under. Its rules, all here:
// - any write to the lane sections goes through `_writableLanes`, which
//   moves `_stamp` on, so a cache read before it is stale;
// - a scroll frame (T1, L6) reads the rows it gains from the last frame's
//   (`_meetingSpans`) and leaves its own rows in the cache (`_trackInLanes`);
// - a measurement patches the cache in place (`_patchMeetingCache`), and
//   the window it moved to is followed (`_followMeetingCache`);
// - `visibleRows`, `_placedInLanes` (`_cachedStart`) and `frame(at:)`
//   (`_laneFrame`, in Layout/: `_cachedSpan`) read a current cache
//   instead of the lane sections.

extension LazyStackLayout {
  /// Row `index`'s start as `_meetingCache` has it, when the cache is
  /// current and holds the row; else nil.
  /// - Complexity: O(log v) for v rows in the cache.
  @inlinable
  internal func _cachedStart(of index: Int) -> Int64? {
    _cachedSpan(of: index)?.start
  }

  /// Row `index`'s span among the rows the last frame found meeting its
  /// window, while they are current (`_meetingCache`, same `_stamp`).
  /// - Complexity: O(log v) for v rows on screen.
  @inlinable
  internal func _cachedSpan(of index: Int) -> _LaneSpan? {
    guard let cache = _meetingCache, cache.stamp == _stamp else { return nil }
    return cache.spans.withUnsafeBufferPointer { spans -> _LaneSpan? in
      var low = 0, high = spans.count
      while low < high {
        let mid = (low &+ high) &>> 1
        if spans[mid].row < index { low = mid &+ 1 } else { high = mid }
      }
      return low < spans.count && spans[low].row == index ? spans[low] : nil
    }
  }

  /// T1 with lanes (SPEC L6): the row at the anchor point (L5) if it
  /// meets the viewport, else the row meeting it nearest to the point
  /// along the main axis (the lower index on ties); with the rows that
  /// meet the viewport (index order). `nil` when none does. While every
  /// section is a list (a header's own `.list` keeps the lane sections),
  /// T1's list rule: that row clamped into the visible rows by index.
  /// - Complexity: O(k (log n + B) + v) for v rows on screen.
  @inlinable @inline(never)
  internal func _trackedRowInLanes(
    _ window: _TrackingWindow, last: inout _MeetingSpans?
  ) -> (tracked: _LaneSpan, meeting: [_LaneSpan])? {
    let lanes = _laneBox.unsafelyUnwrapped.value
    let meeting = _meetingSpans(window.low, window.high, last: &last)
    guard !meeting.isEmpty else { return nil }
    // L5 / G4: the lowest index whose span holds the point. Inside the
    // window every such row meets it, so it is among `meeting` (the first
    // one found, in index order); a point on the window's far edge, or one
    // no row holds, is left to the search.
    if window.point >= window.low && window.point < window.high {
      for span in meeting where span.start <= window.point && window.point < span.start &+ span.extent {
        return (span, meeting)
      }
    }
    let at = lanes.index(atPitch: window.point, in: _tree)
    if let hit = meeting.first(where: { $0.row == at }) { return (hit, meeting) }
    if !lanes.hasLanes {
      // Every section a list (the lane sections stay for a header's own
      // `.list`): T1's rule for a list, G4's row clamped into the visible
      // rows by index, which `meeting` holds in order.
      let clamped = Swift.min(Swift.max(at, meeting[0].row), meeting[meeting.count &- 1].row)
      if let hit = meeting.first(where: { $0.row == clamped }) { return (hit, meeting) }
    }
    var best = meeting[0]
    for row in meeting.dropFirst() where _distance(row, to: window.point) < _distance(best, to: window.point) {
      best = row
    }
    return (best, meeting)
  }

  /// The spans of the rows that meet `[low, high)` (the tracking window's
  /// coordinates), in index order (SPEC L5). While nothing was written
  /// since the last frame's (`_meetingCache`, same `_stamp`) and the
  /// window moved by less than half its extent (a scroll frame), they are
  /// the last frame's that still meet it, merged with the rows of the
  /// strips it gained that did not meet the last window: inside one
  /// masonry body, each lane's rows next to its rows on screen
  /// (`_MasonryLanes.appendStrips`); else a search of the strips, not of
  /// the whole window. Else a search of the whole window.
  /// - Complexity: O(k (log n + B) + v + g) for v rows met and g rows in
  ///   the strips gained.
  @inlinable
  internal func _meetingSpans(_ low: Int64, _ high: Int64, last: inout _MeetingSpans?) -> [_LaneSpan] {
    let lanes = _laneBox.unsafelyUnwrapped.value
    // Moved by less than half the extent: the two windows overlap.
    // (`last` is read in place, never bound to a copy, so its array stays
    // uniquely referenced for the merge below.)
    guard last?.stamp == _stamp, low < high else { return lanes.spans(meeting: low, high, in: _tree) }
    let lastLow = last.unsafelyUnwrapped.low
    let lastHigh = last.unsafelyUnwrapped.high
    guard (low < lastLow ? lastLow &- low : low &- lastLow)
            &+ (high < lastHigh ? lastHigh &- high : high &- lastHigh) < (high &- low) / 2
    else { return lanes.spans(meeting: low, high, in: _tree) }
    if lastLow == low && lastHigh == high { return last.unsafelyUnwrapped.spans }
    @inline(__always) func meets(_ s: _LaneSpan, _ l: Int64, _ h: Int64) -> Bool {
      s.extent > 0 ? (s.start < h && s.start &+ s.extent > l) : (s.start >= l && s.start < h)
    }
    // A row meets the window if and only if it meets the part shared with
    // the last window (then it met that one: it is among the last spans)
    // or a strip gained; those of a strip that met the last window are
    // among the last spans already.
    var gained = _SpanBuffer(capacity: 32)
    defer { gained.deallocate() }
    // Within one masonry body, from each lane's first and last row on
    // screen; else a search of each strip.
    let fromLanes = last.unsafelyUnwrapped.spans.withUnsafeBufferPointer {
      lanes._appendStrips(meeting: low, high, after: lastLow, lastHigh, last: $0, in: _tree, to: &gained)
    }
    if !fromLanes {
      if low < lastLow { lanes._appendSpans(meeting: low, lastLow, in: _tree, to: &gained) }
      gained.removeAll(from: 0) { meets($0, lastLow, lastHigh) }
      let above = gained.count
      if high > lastHigh {
        lanes._appendSpans(meeting: lastHigh, high, in: _tree, to: &gained)
        gained.removeAll(from: above) { meets($0, lastLow, lastHigh) }
        // In lanes the two strips' rows interleave by index (a row in both
        // met the last window, which lies between them: it is not here).
        if above > 0 && gained.count > above { gained.sortByRow() }
      }
    }
    // The last spans that still meet the window, merged with the gained
    // ones by row, in the last spans' own array: with `last` emptied it is
    // the only reference to it (when the caller took it out of
    // `_meetingCache`), so no memory is allocated or freed for it.
    var spans = last.unsafelyUnwrapped.spans
    last = nil
    var keptCount = 0
    spans.withUnsafeMutableBufferPointer { buffer in
      // Copied as 24 bytes, not field by field (two moves, not four).
      let base = UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped)
      let stride = MemoryLayout<_LaneSpan>.stride
      for i in buffer.indices where meets(buffer[i], low, high) {
        if keptCount != i {
          (base + keptCount &* stride).copyMemory(from: base + i &* stride, byteCount: stride)
        }
        keptCount &+= 1
      }
    }
    Self._merge(&spans, kept: keptCount, with: gained)
    return spans
  }

  /// How far `row` is from `point` along the main axis (0 inside it).
  @inlinable @inline(__always)
  internal func _distance(_ row: _LaneSpan, to point: Int64) -> Int64 {
    point < row.start ? row.start &- point : Swift.max(0, point &- (row.start &+ row.extent))
  }

  /// The measured row of `meeting` (in index order) nearest to `point`
  /// along the main axis, the lower index on ties, other than row
  /// `other`; `nil` if none is measured. One walk over the rows' stored
  /// extents, not a search for each.
  /// - Complexity: O(log n + B + v + g) for v rows over g blocks.
  @inlinable
  internal func _nearestMeasured(_ meeting: [_LaneSpan], to point: Int64, other: Int) -> ExtentTree<ID>._RowInfo? {
    var best = -1
    var bestDistance: Int64 = 0
    _tree._forEachStored(ofAscending: meeting.lazy.map(\.row)) { k, stored in
      guard stored >= 0 else { return }
      let span = meeting[k]
      let d = _distance(span, to: point)
      // In index order: a later row wins only when strictly nearer.
      if span.row != other && (best < 0 || d < bestDistance) {
        best = k
        bestDistance = d
      }
    }
    return best < 0 ? nil : _rowInfo(meeting[best])
  }

  /// `row` as the tree describes it, with its start where lanes put it.
  @inlinable
  internal func _rowInfo(_ row: _LaneSpan) -> ExtentTree<ID>._RowInfo {
    var info = _tree.rowInfo(at: row.row)
    info.start = row.start
    return info
  }

  /// `_track` with lanes (SPEC T1, T3, L6): the kept row is the tracked
  /// row when it is measured, else the measured row on screen nearest to
  /// the anchor point (the lower index on ties), else the tracked row.
  /// - Complexity: O(k (log n + B) + v + g) for v rows on screen over g
  ///   blocks.
  @inlinable @inline(never)
  internal mutating func _trackInLanes(_ window: _TrackingWindow, updatingPosition: Bool) {
    let stamp = _stamp
    // The last frame's spans, out of the cache so the scroll frame's merge
    // can reuse their array (`_meetingSpans`).
    var last: _MeetingSpans?
    swap(&last, &_meetingCache)
    guard let (tracked, meeting) = _trackedRowInLanes(window, last: &last) else {
      _anchor = .automatic
      if updatingPosition { _position = ScrollPosition(_target: .automatic, isPositionedByUser: true) }
      return
    }
    let trackedInfo = _rowInfo(tracked)
    var kept = trackedInfo
    if trackedInfo.stored < 0, let nearest = _nearestMeasured(meeting, to: window.point, other: tracked.row) {
      kept = nearest
    }
    _keep(kept, tracked: trackedInfo.id, in: window, updatingPosition: updatingPosition)
    // For `visibleRows` (one walk a frame), under the stamp it was read at.
    _meetingCache = _MeetingSpans(stamp: stamp, low: window.low, high: window.high, spans: meeting)
  }

  /// Keeps the rows the last frame found meeting its window
  /// (`_meetingCache`) for the layout as it is now, after row `index`'s
  /// extent went from `old` to the tree's: in a masonry only the rows of
  /// its lane move (`_LaneLayout._patchSpans`), so the stabilization that
  /// follows and `visibleRows` need no search of the window; in a grid,
  /// when the row's line lies above the rows on screen, they and their
  /// window move on by `grown`, the pitch the body grew by
  /// (`_LaneLayout._gridShift`). Else the cache is dropped. `stamp`: the
  /// layout's before the write.
  /// - Complexity: O(log n + v + g) for v rows on screen and g coming in.
  @inlinable @inline(never)
  internal mutating func _patchMeetingCache(afterMeasuring index: Int, old: Int64, grown: Int64, stamp: UInt64) {
    // Moved out (no copy), or dropped: it was read before this write.
    var cache: _MeetingSpans?
    swap(&cache, &_meetingCache)
    guard cache?.stamp == stamp else { return }
    let (low, high) = (cache.unsafelyUnwrapped.low, cache.unsafelyUnwrapped.high)
    // The only reference to the array now, so it is rewritten in place.
    var spans = cache.unsafelyUnwrapped.spans
    cache = nil
    var entering = _SpanBuffer(capacity: 8)
    defer { entering.deallocate() }
    let patched = Self._patchSpans(&spans, afterMeasuring: index, old: old, grown: grown, meeting: low, high,
                                   lanes: _laneBox.unsafelyUnwrapped, tree: _tree, entering: &entering)
    guard let (kept, shift) = patched else { return }
    Self._merge(&spans, kept: kept, with: entering)
    _meetingCache = _MeetingSpans(stamp: _stamp, low: low &+ shift, high: high &+ shift, spans: spans)
  }

  /// The rows on screen after a measurement, in `spans`' memory: in a
  /// grid moved on with their window by `shift` (`_LaneLayout._gridShift`,
  /// `kept` all of them, none entering), in a masonry the first `kept`
  /// still meeting the window and the rows that came in appended to
  /// `entering` (`_LaneLayout._patchSpans`, `shift` 0); nil when neither
  /// answers. Static, with the box and the tree passed in: a closure in a
  /// mutating method that read them through `self` cost about 640
  /// instructions more a measurement (callgrind, `masonry_measure` at 1M
  /// rows), in copies, and so did each further read of them.
  /// - Complexity: O(v) in a grid for v rows on screen;
  ///   `_LaneLayout._patchSpans`' in a masonry.
  @inlinable
  internal static func _patchSpans(_ spans: inout [_LaneSpan], afterMeasuring index: Int, old: Int64, grown: Int64,
                                    meeting low: Int64, _ high: Int64, lanes: _LaneBox<ID>,
                                    tree: ExtentTree<ID>, entering: inout _SpanBuffer) -> (kept: Int, shift: Int64)? {
    spans.withUnsafeMutableBufferPointer {
      lanes.value._patchSpans(afterMeasuring: index, old: old, grown: grown, meeting: low, high, spans: $0, in: tree,
                              entering: &entering)
    }
  }

  /// Moves the rows found meeting the last window (`_meetingCache`, up to
  /// date) on to the window `visibleRows` reads now, when a measurement's
  /// correction moved it: the scroll frame's strips (`_meetingSpans`), so
  /// measurement after measurement above the anchor keeps the cache near
  /// the screen instead of falling behind it into a search of the window.
  /// - Complexity: `_meetingSpans`'.
  @inlinable @inline(never)
  internal mutating func _followMeetingCache() {
    // (Read in place, not bound to a copy: its array stays uniquely referenced.)
    guard _meetingCache?.stamp == _stamp, _viewportUnits > 0 else { return }
    let window = _visibleWindow
    let (low, high) = (window.low &- _leadingInset, window.high &- _leadingInset)
    guard _meetingCache?.low != low || _meetingCache?.high != high else { return }
    var last: _MeetingSpans?
    swap(&last, &_meetingCache)
    let spans = _meetingSpans(low, high, last: &last)
    _meetingCache = _MeetingSpans(stamp: _stamp, low: low, high: high, spans: spans)
  }

  /// Makes `spans` its first `kept` spans merged by row with `added`'s (in
  /// row order, no row in both), in its own memory.
  /// - Complexity: O(kept + added).
  @inlinable
  internal static func _merge(_ spans: inout [_LaneSpan], kept keptCount: Int, with gained: _SpanBuffer) {
    let added = gained.base
    let addedCount = gained.count
    let total = keptCount &+ addedCount
    if spans.count < total {
      // Room at the end (its values are written over below).
      spans.append(contentsOf: UnsafeBufferPointer(start: added, count: total &- spans.count))
    } else if spans.count > total {
      spans.removeLast(spans.count &- total)
    }
    guard addedCount > 0 else { return }
    spans.withUnsafeMutableBufferPointer { buffer in
      // From the back, so no kept span is written over before it is read.
      var k = keptCount &- 1
      var g = addedCount &- 1
      var w = total &- 1
      while g >= 0 {
        if k >= 0 && buffer[k].row > added[g].row {
          buffer[w] = buffer[k]
          k &-= 1
        } else {
          buffer[w] = added[g]
          g &-= 1
        }
        w &-= 1
      }
    }
  }
}

/// The rows that met a window (`_LaneLayout.spans(meeting:_:in:)`), with
/// the window and the layout's `_stamp` they were read under.
@usableFromInline
internal struct _MeetingSpans: Sendable {
  @usableFromInline var stamp: UInt64
  @usableFromInline let low: Int64
  @usableFromInline let high: Int64
  @usableFromInline let spans: [_LaneSpan]

  @inlinable
  init(stamp: UInt64, low: Int64, high: Int64, spans: [_LaneSpan]) {
    self.stamp = stamp
    self.low = low
    self.high = high
    self.spans = spans
  }
}
