import Foundation

// SPEC §13 in the layout: section layouts (L1), and where a row is once its
// section has lanes. `_laneBox` is nil while every section is a list, so a
// list pays one test of a field for lanes on the paths that read a row's
// place.

extension LazyStackLayout {
  /// The layout-wide section layout (SPEC L1): every section whose header
  /// has none of its own. Setting it re-flows those sections; the kept row
  /// keeps its place on screen.
  /// - Complexity: O(n) for a change (a re-flow), O(1) to read.
  @inlinable
  public var sectionLayout: SectionLayout {
    get { _laneBox?.value.defaultLayout ?? .list }
    set {
      guard newValue != sectionLayout else { return }
      _frameEnter()
      defer { _frameExit(.reset) }  // F6 (e): a re-flow
      _changeLaneLayouts { $0.defaultLayout = newValue }
    }
  }

  /// Gives the section of header `id` its own layout, or with nil the
  /// layout-wide one again (SPEC L1); it follows the id, as roles do (H1),
  /// and applies while the row is a header. Returns false for an id that
  /// is not a row.
  /// - Complexity: O(n) for a change (a re-flow).
  @inlinable @discardableResult
  public mutating func setSectionLayout(_ layout: SectionLayout?, forHeader id: ID) -> Bool {
    _frameEnter()
    defer { _frameExit(.still) }
    guard _tree.contains(id) else { return false }
    guard _laneBox?.value.layoutByHeader[id] != layout else { return true }
    _frameNoteReset()  // F6 (e): a re-flow
    _changeLaneLayouts { $0.layoutByHeader[id] = layout }
    return true
  }

  /// The layout in force for row `index`'s section (SPEC L1).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n + B).
  @inlinable
  public func sectionLayout(at index: Int) -> SectionLayout {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    guard let lanes = _laneBox?.value else { return .list }
    let rows = _tree.section(containing: index)
    let header = _tree.role(at: rows.lowerBound) == ExtentTree<ID>._headerRole ? _tree.id(at: rows.lowerBound) : nil
    return lanes.layout(forHeader: header)
  }

  /// Row `index`'s lane: its column (vertical) or row (horizontal) in a
  /// grid or masonry section; 0 in a list and for headers and footers.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n).
  @inlinable
  public func lane(at index: Int) -> Int {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    return _laneBox?.value.lane(of: index) ?? 0
  }

  /// Exactly the rows that intersect the viewport, overscan included, in
  /// index order (SPEC L5): `visibleIndices` is the smallest range holding
  /// them (in masonry it may hold rows that are off screen).
  /// - Complexity: O(log n + B + v) in a list; with lanes O(k (log n + B) + v)
  ///   for v rows on screen.
  @inlinable
  public var visibleRows: [Int] {
    guard _laneBox != nil, count > 0, _viewportUnits > 0 else { return Array(visibleIndices) }
    let window = _visibleWindow
    let (low, high) = (window.low &- _leadingInset, window.high &- _leadingInset)
    let meeting: [Int]
    if _meetingCache?.stamp == _stamp {
      // This frame's tracking walked the same window, or one a little
      // off it (a measurement's correction moved it): from its rows.
      var last = _meetingCache
      let spans = _meetingSpans(low, high, last: &last)
      var rows = _RowSink(capacity: spans.count)
      spans.withUnsafeBufferPointer { rows.append(contentsOf: $0) }
      meeting = rows.take()
    } else {
      meeting = _laneBox.unsafelyUnwrapped.value.rows(meeting: low, high, in: _tree)
    }
    guard let first = meeting.first, let last = meeting.last else { return [] }
    // Rows added by overscan in rows (as `visibleIndices` adds them) lie outside the meeting ones.
    var before = first
    var after = last &+ 1
    if case .rows(let k) = overscan.before, k > 0 { before = Swift.max(0, first &- k) }
    if case .rows(let k) = overscan.after, k > 0 { after = Swift.min(count, after &+ (k > count ? count : k)) }
    if before == first && after == last &+ 1 { return meeting }
    return Array(before ..< first) + meeting + Array((last &+ 1) ..< after)
  }

  /// The row whose frame contains `point` (content coordinates), or nil:
  /// in spacing, past a lane's end, on an empty row (SPEC L5, hit testing
  /// for taps and drops).
  /// - Complexity: O(log n + B); with lanes O(k (log n + B)).
  @inlinable
  public func index(at point: CGPoint) -> Int? {
    guard count > 0, !point.x.isNaN, !point.y.isNaN else { return nil }
    let (main, cross) = axis == .vertical ? (point.y, point.x) : (point.x, point.y)
    let y = _FixedPoint.units(main) &- _alignmentShift &- _leadingInset
    let candidate: Int?
    if let lanes = _laneBox?.value {
      candidate = lanes.row(at: y, cross: cross, in: _tree)
    } else {
      let hit = _tree._firstRowSpan(withPitchPrefixAfterAbove: y &+ _tree.spacing)
      candidate = hit.flatMap { $0.extent > 0 && $0.start <= y && y < $0.start &+ $0.extent ? $0.row : nil }
    }
    guard let i = candidate else { return nil }
    return frame(at: i).contains(point) ? i : nil
  }

  /// The viewport window `visibleIndices` reads, overscan in points
  /// included, in unshifted content units.
  @inlinable
  internal var _visibleWindow: (low: Int64, high: Int64) {
    var before: Int64 = 0
    var after: Int64 = 0
    if case .points(let p) = overscan.before, p.isFinite, p > 0 { before = _FixedPoint.units(p) }
    if case .points(let p) = overscan.after, p.isFinite, p > 0 { after = _FixedPoint.units(p) }
    let low = _offset &- _alignmentShift &- before
    return (low, low &+ _viewportUnits &+ before &+ after)
  }

  /// The cross extent lanes share (SPEC L2): the viewport's, less the
  /// cross insets; and where lane 0 starts.
  @inlinable
  internal var _laneCross: (extent: CGFloat, lead: CGFloat) {
    let (lead, trail) = axis == .vertical ? (insets.leading, insets.trailing) : (insets.top, insets.bottom)
    return (Swift.max(0, _viewportCross - lead - trail), lead)
  }

  /// Changes the section layouts, re-flows and stabilizes (SPEC L1).
  @inlinable
  internal mutating func _changeLaneLayouts(_ change: (inout _LaneLayout<ID>) -> Void) {
    let before = _capture()
    var lanes = _laneBox?.value ?? _LaneLayout(tree: ExtentTree(_emptyLike: _tree), defaultLayout: .list, layoutByHeader: [:],
                                      crossExtent: _laneCross.extent, crossLead: _laneCross.lead)
    change(&lanes)
    _laneBox = _LaneBox(lanes)
    _settle(from: before, cause: .snapshot)  // lays the sections out (`_rebuildLanes`), then stabilizes
  }

  /// Lays the lane sections out again from the tree (after any change of
  /// rows, extents, roles, layouts or the viewport's cross extent): masonry
  /// rows keep their lanes (L4); a section whose layout or lane count
  /// changed re-flows. Drops `_lanes` when no section layout is set.
  /// - Complexity: O(n) while any section has lanes; O(1) otherwise.
  @inlinable
  internal mutating func _rebuildLanes() {
    // Read in place, not bound to a copy, until a re-layout needs one.
    guard _laneBox != nil else { return }
    if _laneBox.unsafelyUnwrapped.value.current {  // brought up to date in place by the edit (L8)
      // `current` is no part of the geometry: the rows found meeting the
      // last window (`_meetingCache`, kept up to date by a measurement)
      // stay valid through its write.
      let cached = _meetingCache?.stamp == _stamp
      _writableLanes().value.current = false
      if cached { _meetingCache?.stamp = _stamp }
      // A removed row's layout goes with it here too: else it would come
      // back with the id, and keep `hasLanes` on.
      let layoutByHeader = _laneBox.unsafelyUnwrapped.value.layoutByHeader
      if layoutByHeader.keys.contains(where: { !_tree.contains($0) }) {
        let layouts = _layoutsOfRows(layoutByHeader)
        if Self._keepsLanes(_laneBox.unsafelyUnwrapped.value.defaultLayout, layouts) {
          _writableLanes().value.layoutByHeader = layouts
        } else {
          _laneBox = nil
        }
      }
      return
    }
    let old = _laneBox.unsafelyUnwrapped.value
    let fresh = _LaneLayout(tree: _tree, defaultLayout: old.defaultLayout, layoutByHeader: _layoutsOfRows(old.layoutByHeader),
                            crossExtent: _laneCross.extent, crossLead: _laneCross.lead, keeping: old)
    _laneBox = Self._keepsLanes(fresh.defaultLayout, fresh.layoutByHeader) ? _LaneBox(fresh) : nil
  }

  /// The header layouts whose ids are still rows: layouts follow ids, and
  /// a removed row's goes with it (SPEC L1, H1).
  /// - Complexity: O(h) for h header layouts.
  @inlinable
  internal func _layoutsOfRows(_ layouts: [ID: SectionLayout]) -> [ID: SectionLayout] {
    layouts.filter { _tree.contains($0.key) }
  }

  /// Whether some section lays its rows out in lanes (SPEC L1). The lane
  /// sections can stay while every section is a list (a header's own
  /// `.list`, `_keepsLanes`); then the list's rules apply where lanes have
  /// rules of their own (T1's tracked row, B5's and L7's snapping starts).
  /// - Complexity: O(h) for h header layouts.
  @inlinable @inline(__always)
  internal var _lanesInForce: Bool { _laneBox?.value.hasLanes ?? false }

  /// Whether the lane sections stay: while the layout-wide layout is not a
  /// list, or any header has a layout of its own (a `.list` one too: it
  /// outlasts a later layout-wide change).
  /// - Complexity: O(1).
  @inlinable
  internal static func _keepsLanes(_ defaultLayout: SectionLayout, _ layouts: [ID: SectionLayout]) -> Bool {
    defaultLayout != .list || !layouts.isEmpty
  }

  /// `row` with its start where lanes put it (its list start otherwise).
  @inlinable @inline(__always)
  internal func _placed(_ row: ExtentTree<ID>._RowInfo) -> ExtentTree<ID>._RowInfo {
    guard _slowPath(_laneBox != nil) else { return row }
    return _placedInLanes(row)
  }

  /// `_placed` of a row that may not exist.
  @inlinable @inline(__always)
  internal func _placedIfAny(_ row: ExtentTree<ID>._RowInfo?) -> ExtentTree<ID>._RowInfo? {
    guard let row else { return nil }
    return _placed(row)
  }

  /// `_placed` with lanes: the row's start from the rows the last frame
  /// found on screen when they are current and hold it (the kept row,
  /// usually: a stabilization after a measurement reads no lane
  /// structure), else from the lane sections.
  /// - Complexity: O(log v) for v rows on screen when they hold the row;
  ///   else `_LaneLayout.start(of:in:)`'s, O(k (log n + B)).
  @inlinable @inline(never)
  internal func _placedInLanes(_ row: ExtentTree<ID>._RowInfo) -> ExtentTree<ID>._RowInfo {
    var placed = row
    placed.start = _cachedStart(of: row.index) ?? _laneBox.unsafelyUnwrapped.value.start(of: row.index, in: _tree)
    if _slowPath(_checks) {
      let start = _laneBox.unsafelyUnwrapped.value.start(of: row.index, in: _tree)
      precondition(placed.start == start, "row \(row.index) kept on screen at \(placed.start), laid out at \(start)")
    }
    return placed
  }

  /// Row `index`'s start as `_meetingCache` has it, when the cache is
  /// current and holds the row; else nil.
  /// - Complexity: O(log v) for v rows in the cache.
  @inlinable
  internal func _cachedStart(of index: Int) -> Int64? {
    guard let cache = _meetingCache, cache.stamp == _stamp else { return nil }
    return cache.spans.withUnsafeBufferPointer { spans -> Int64? in
      // The spans are in row order.
      let k = _lowerBound(spans.lazy.map(\.row), index)
      return k < spans.count && spans[k].row == index ? spans[k].start : nil
    }
  }

  /// The lane sections, unique to this layout, for a write (copy on write).
  @inlinable
  internal mutating func _writableLanes() -> _LaneBox<ID> {
    if !isKnownUniquelyReferenced(&_laneBox) { _laneBox = _LaneBox(_laneBox.unsafelyUnwrapped.value) }
    _stamp &+= 1  // the caller writes through the reference
    return _laneBox.unsafelyUnwrapped
  }
}

extension LazyStackLayout {
  /// `setRole` with lanes: sections change, so rows may move; the kept row
  /// keeps its place on screen (SPEC L1, L6).
  @inlinable @inline(never)
  internal mutating func _setRoleInLanes(_ role: RowRole, at location: ExtentTree<ID>._Location) -> Bool {
    let before = _capture()
    let index = location.before.count &+ location.slot
    // Outside a batch the sections match the rows (the last stabilization
    // laid them out), so only the sections around the row are laid out
    // again; in a batch, after edits they did not follow, all of them.
    let around = _batch == nil && _laneBox.unsafelyUnwrapped.value.pendingKeep.isSameRows ? _sections(around: index) : nil
    let old = _tree.setRole(role._code, at: location)
    if _batch != nil && old != role._code { _log(.role(index: index, old: old)) }
    if let around {
      let box = _writableLanes()
      if old != role._code {
        let now = _sections(around: index)
        box.value.relayout(Swift.min(around.lowerBound, now.lowerBound) ..< Swift.max(around.upperBound, now.upperBound), in: _tree)
      }
      box.value.current = true
    }
    _motion.resolved = false
    _settle(from: before, cause: .snapshot)
    _checkInvariants()
    return true
  }
}

extension LazyStackLayout {
  /// The rows of the sections holding rows `index - 1 ... index + 1`: all
  /// a role change at `index` can change (SPEC H2: it starts, ends, splits
  /// or joins sections there).
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _sections(around index: Int) -> Range<Int> {
    let first = _tree.section(containing: Swift.max(0, index &- 1))
    let last = _tree.section(containing: Swift.min(count &- 1, index &+ 1))
    return first.lowerBound ..< last.upperBound
  }
}

extension LazyStackLayout {
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
}

/// The estimates before a change to the tree: kind 0's (the tree's
/// `estimate`) and each kind slot's, nil without kinds (SPEC K1); what the
/// lane sections need to follow the rows whose extent it moved.
@usableFromInline
internal struct _LaneEstimates: Sendable {
  @usableFromInline let estimate: Int64
  @usableFromInline let slots: ContiguousArray<Int64>?

  @inlinable
  init(estimate: Int64, slots: ContiguousArray<Int64>?) {
    self.estimate = estimate
    self.slots = slots
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

extension LazyStackLayout {
  /// Whether any section has lanes (the model checks compare lane
  /// queries then).
  /// - Complexity: O(1).
  @inlinable
  package var _laysOutLanes: Bool { _laneBox != nil }
}

extension LazyStackLayout {
  // SPEC L8: the edits that change the lane sections in place. Each runs
  // right after its change to the tree and marks the sections current, so
  // the stabilization that follows does not lay them out again; an edit
  // these do not cover (or one that also moved kind 0's estimate, which
  // moves every estimated row) leaves them stale, and the stabilization
  // rebuilds them.

  /// The estimates before a change (kind 0's, and each kind slot's with
  /// kinds), for the lane sections to follow the rows it moves.
  @inlinable @inline(__always)
  internal var _laneEstimates: _LaneEstimates {
    _LaneEstimates(estimate: _tree.estimate, slots: _tree._kinds?.slotEstimates)
  }

  /// After a change to the tree with the lane sections otherwise up to
  /// date (an edit changed them in place, or nothing else changed): brings
  /// rows `rows` (whose extents may have changed: a kind, an own estimate,
  /// a measurement) and every estimated row of a kind whose estimate moved
  /// since `before` (SPEC K1, K3) up to date in place, and marks the
  /// sections current. Leaves them for the re-layout when kind 0's
  /// estimate moved (every estimated row of kind 0 did), or when more
  /// rows moved than a re-layout costs (one in 64, at least 64).
  /// - Complexity: O(r k (log n + B) + c s log n) for the r rows that
  ///   moved, c kinds whose estimate did and s lane sections.
  @inlinable @inline(never)
  internal mutating func _lanesFollowExtents(of rows: some Collection<Int>, since before: _LaneEstimates) {
    guard _laneBox != nil else { return }
    func stale() { if _laneBox.unsafelyUnwrapped.value.current { _writableLanes().value.current = false } }
    guard _tree.estimate == before.estimate, _laneBox.unsafelyUnwrapped.value.pendingKeep.isSameRows else { return stale() }
    var moved: [Int] = []
    if let table = _tree._kinds, let old = before.slots {
      let budget = Swift.max(64, count / 64)
      let sections = _laneBox.unsafelyUnwrapped.value.sections
      for j in 0 ..< Swift.min(old.count, table.slotEstimates.count) where table.slotEstimates[j] != old[j] {
        guard sections.count <= budget else { return stale() }
        for section in sections {
          guard let found = _tree._estimatedRows(ofKind: table.kindOfSlot[j], in: section.body, limit: budget &- moved.count)
          else { return stale() }
          moved.append(contentsOf: found)
        }
      }
    }
    let box = _writableLanes()
    for i in rows { box.value.setExtent(_tree.extent(at: i), at: i) }
    for i in moved { box.value.setExtent(_tree.extent(at: i), at: i) }
    box.value.current = true
  }

  /// Row `index`'s extent went from `old` (units) to what the tree has
  /// now; `before`: the estimates before the measurement.
  @inlinable @inline(never)
  internal mutating func _lanesDidMeasure(_ index: Int, from old: Int64, before: _LaneEstimates, stamp: UInt64) {
    guard _laneBox != nil else { return }
    guard _tree._kinds == nil else { return _lanesFollowExtents(of: CollectionOfOne(index), since: before) }
    guard _tree.estimate == before.estimate else { return }  // `.meanOfMeasured`: every estimated row moved
    let new = _tree.extent(at: index)
    let box = _writableLanes()
    let grown = box.value.setExtent(new, old: old, at: index)
    box.value.current = true
    _patchMeetingCache(afterMeasuring: index, old: old, grown: grown, stamp: stamp)
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

  /// `ids` were just inserted at `index`, estimated (of kind 0, SPEC K1).
  @inlinable @inline(never)
  internal mutating func _lanesDidInsert(_ ids: [ID], at index: Int, estimate: Int64) {
    guard _laneBox != nil else { return }
    guard _tree.estimate == estimate else {
      _writableLanes().value.pendingKeep = .inserted(at: index, count: ids.count)
      return
    }
    let box = _writableLanes()
    box.value.current = box.value.insert(ids: ids, extents: Array(repeating: _tree.estimate, count: ids.count),
                                     spacing: _tree.spacing, at: index)
    if !box.value.current { box.value.pendingKeep = .inserted(at: index, count: ids.count) }
  }

  /// Before a move of the rows at sorted `indices` to `target` (an index
  /// among the rows left): the lanes they hold, when the lane sections can
  /// follow the move in place (`plain`: none is a header or a footer, and
  /// `_LaneLayout.lanesForMove`); else nil, and every masonry row's lane
  /// is kept by id for the re-layout (L4: moved rows keep their lanes).
  /// - Complexity: O(r (log n + B)) for r rows; O(m) expected for m
  ///   masonry rows when the sections cannot follow.
  @inlinable @inline(never)
  internal mutating func _lanesWillMove(_ indices: [Int], plain: Bool, to target: Int) -> [_KeptLane?]? {
    let lanes = _laneBox.unsafelyUnwrapped.value
    if plain && lanes.pendingKeep.isSameRows, let kept = lanes.lanesForMove(sortedIndices: indices, to: target) {
      return kept
    }
    _keepLanesByID()
    return nil
  }

  /// The rows at sorted `indices` were just moved to `target ..< target +
  /// kept.count` (`_lanesWillMove` gave `kept`): the lane sections follow
  /// in place, a removal and an insert whose masonry rows keep their
  /// lanes where their new section has the flow they had (L4, L8).
  /// - Complexity: O(r (log n + B) + k (B + log n) a section touched + s).
  @inlinable @inline(never)
  internal mutating func _lanesDidMove(_ indices: [Int], keeping kept: [_KeptLane?], to target: Int) {
    var extents: [Int64] = []
    extents.reserveCapacity(kept.count)
    for j in 0 ..< kept.count { extents.append(_tree.extent(at: target &+ j)) }
    let box = _writableLanes()
    let removed = box.value.remove(sortedIndices: indices, spacing: _tree.spacing)
    let inserted = box.value.insert(extents, kept: kept, spacing: _tree.spacing, at: target)
    precondition(removed && inserted, "LazyStackLayout.move: the lane sections did not follow a move they could")
    box.value.current = true
  }

  /// The rows at `indices` were just removed; `plain` says none was a
  /// header or a footer.
  /// `before`: the estimates before the removal (a removed measured row
  /// moves its kind's mean, K3).
  @inlinable @inline(never)
  internal mutating func _lanesDidRemove(_ indices: [Int], plain: Bool, before: _LaneEstimates) {
    guard _laneBox != nil else { return }
    let box = _writableLanes()
    if plain {
      box.value.current = box.value.remove(sortedIndices: indices, spacing: _tree.spacing)
    }
    guard box.value.current else {
      box.value.pendingKeep = .removed(indices)
      return
    }
    _lanesFollowExtents(of: EmptyCollection(), since: before)
  }
}

extension LazyStackLayout {
  /// Row `i`'s start (where lanes put it) and extent, in the tree's
  /// coordinates.
  /// - Complexity: O(log n + B); with lanes O(log n + k + B).
  @inlinable @inline(__always)
  internal func _span(_ i: Int) -> (start: Int64, extent: Int64) {
    guard let lanes = _laneBox?.value else { return _tree.span(i) }
    return (lanes.start(of: i, in: _tree), _tree.extent(at: i))
  }

  /// Where the rows of `section` end, in the tree's coordinates: its last
  /// row's end in a list; the longest lane's (or line's) end when it ends
  /// with a lane body (SPEC L4, H4).
  /// - Complexity: O(log n + B); with lanes O(log n + k + B).
  @inlinable
  internal func _sectionEnd(_ section: Range<Int>) -> Int64 {
    let last = section.upperBound &- 1
    if let lanes = _laneBox?.value, let p = lanes.section(holding: last), lanes.sections[p].body.count > 0 {
      let bodyEnd = lanes.bodyStart(p, in: _tree) &+ lanes.sections[p].pitch &- _tree.spacing
      return Swift.max(bodyEnd, section.lowerBound < lanes.sections[p].bodyStart
                         ? _span(section.lowerBound).start &+ _tree.extent(at: section.lowerBound) : bodyEnd)
    }
    let span = _span(last)
    return span.start &+ span.extent
  }
}

extension LazyStackLayout {
  /// After a viewport change: lanes share its cross extent (L2). A new
  /// width that changes no section's lane count only moves lanes across
  /// (O(s)); one that does re-flows (O(n)).
  @inlinable @inline(never)
  internal mutating func _lanesFollowViewport() {
    let (extent, lead) = _laneCross
    let lanes = _laneBox.unsafelyUnwrapped.value
    guard extent != lanes.crossExtent || lead != lanes.crossLead else { return }
    var moved = lanes
    moved.crossExtent = extent
    moved.crossLead = lead
    if lanes.sections.allSatisfy({ moved.laneCount($0.layout) == $0.run.lanes }) {
      _writableLanes().value.crossExtent = extent
      _writableLanes().value.crossLead = lead
    } else {
      _rebuildLanes()
    }
  }
}

extension LazyStackLayout {
  /// Keeps every masonry row's lane by id before an edit that changes the
  /// rows otherwise than by an insert or a removal (a move, `apply`,
  /// `update(ids:)`): the re-layout after it reads them (L4).
  /// - Complexity: O(m) expected for m masonry rows; O(1) without lanes.
  @inlinable @inline(never)
  internal mutating func _keepLanesByID() {
    guard let lanes = _laneBox?.value else { return }
    var kept: [ID: _KeptLane] = [:]
    for section in lanes.sections {
      guard let m = section.masonry else { continue }
      let all = m.blocks.allLanes
      var l = 0
      _tree.forEachRow(in: section.body) { id, _, _ in
        kept[id] = _KeptLane(lane: all[l], layout: section.layout, lanes: m.k)
        l &+= 1
      }
    }
    _writableLanes().value.pendingKeep = kept.isEmpty ? .sameRows : .byID(kept)
  }

  /// Gives each masonry row the lane `snapshot` holds for it, where its
  /// section is a masonry of the lane count it had there (SPEC C1, C2):
  /// the sections' lanes are rewritten, and the settle that follows lays
  /// the sections out from them (the rows are the same: L4 reads each
  /// row's lane by its index). The snapshot's entries are matched in row
  /// order, each just after the one before (a layout of the same ids);
  /// from the first that is not, by a dictionary of the rest.
  /// - Complexity: O(m + w) for m masonry rows and w lane entries; O(w)
  ///   expected more for entries in another order.
  @inlinable @inline(never)
  internal mutating func _restoreLanes(from snapshot: LayoutSnapshot<ID>) {
    guard var sections = _laneBox?.value.sections else { return }
    let ids = snapshot._laneIDs
    var next = 0
    var byID: [ID: Int]?  // entry by id, from the first row found out of order
    var changed = false
    for p in sections.indices {
      guard let m = sections[p].masonry else { continue }
      let k = m.k
      var lanes = m.blocks.allLanes
      var r = 0
      var moved = false
      _tree.forEachRow(in: sections[p].body) { id, _, _ in
        defer { r &+= 1 }
        var entry = -1
        if byID == nil && next < ids.count && ids[next] == id {
          entry = next
          next &+= 1
        } else {
          if byID == nil {
            var map: [ID: Int] = [:]
            map.reserveCapacity(ids.count &- next)
            for e in next ..< ids.count where map[ids[e]] == nil { map[ids[e]] = e }
            byID = map
          }
          entry = byID.unsafelyUnwrapped[id] ?? -1
        }
        guard entry >= 0, Int(snapshot._laneCountsLessOne[entry]) &+ 1 == k else { return }
        let lane = Int(snapshot._lanes[entry])
        if lanes[r] != lane {
          lanes[r] = lane
          moved = true
        }
      }
      if moved {
        sections[p].masonry = _MasonryLanes(extents: m.blocks.allExtents, lanes: lanes, lanes: k, spacing: m.spacing,
                                            blockCapacity: m.blocks.capacity)
        changed = true
      }
    }
    guard changed else { return }
    let box = _writableLanes()
    box.value.sections = sections
    box.value.current = false  // laid out again by the settle that follows
  }
}

extension LazyStackLayout {
  /// The rows of the first masonry section that meet the window of
  /// `visibleRows` (overscan aside), found by one walk in index order only
  /// (`walkLimit: .max`) or by the search `visibleRows` uses (`nil`): for
  /// the soak's comparison of the two on lanes that drifted apart. `nil`
  /// without a masonry section.
  /// - Complexity: that of `visibleRows`, or O(w) for the one walk, w the
  ///   rows between the lanes' first rows on screen and the last.
  package func _masonryRowsOnScreen(walkLimit: Int?) -> [Int]? {
    guard let lanes = _laneBox?.value, count > 0, _viewportUnits > 0,
          let p = lanes.sections.firstIndex(where: { $0.masonry != nil }) else { return nil }
    let window = _visibleWindow
    let g = lanes.bodyStart(p, in: _tree)
    let first = lanes.sections[p].bodyStart
    return lanes.sections[p].masonry.unsafelyUnwrapped
      .rows(meeting: window.low &- _leadingInset &- g, window.high &- _leadingInset &- g, walkLimit: walkLimit)
      .map { first &+ $0 }
  }
}
