import Foundation

// Over 600 lines, on purpose: SPEC §16 is one contract (F1–F8), read
// and kept in one place.
//
// SPEC §16: what a UI reads and is told each frame. The reads (proposals,
// the rows to draw, the ends, prefetch) are searches near the viewport;
// the edge triggers and the scroll indicator are kept at the end of every
// outermost call (`_frameExit`), in O(1) plus O(log n + B) per row the
// call inserted while a trigger waits to re-arm.

extension LazyStackLayout {
  // MARK: Proposals and the rows to draw (F1, F2)

  /// The size a UI proposes to the row at `index` when it measures it
  /// (SPEC F1): its frame's cross-axis extent (its lane's, in a grid or
  /// masonry section; the list's for list rows, headers and footers) and
  /// an unbounded main-axis extent (`.infinity`).
  ///
  ///     let size = layout.proposedSize(at: i)   // (lane width, .infinity)
  ///
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(1) in a list; O(log s) with lanes for s sections.
  @inlinable
  public func proposedSize(at index: Int) -> CGSize {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let cross = _proposedCross(at: index)
    return axis == .vertical ? CGSize(width: cross, height: .infinity) : CGSize(width: .infinity, height: cross)
  }

  /// Measures every unmeasured row of `rowsToDraw` (SPEC F1, F2: the
  /// visible rows with overscan, the pinned rows and the kept rows), with
  /// the size proposed to each, and repeats while measuring brings
  /// unmeasured rows into view. S1 and S12 apply to every measurement.
  ///
  ///     feed.measureVisibleRows { index, id, proposal in
  ///       card(id).height(fittingWidth: proposal.width)   // the lane's width in a masonry
  ///     }
  ///
  /// The closure gets the proposal, so it never reads the layout (which
  /// Swift's exclusivity rules forbid while the layout is being mutated).
  /// With a main- or cross-axis viewport extent of 0 nothing is measured.
  /// - Parameter extent: The main-axis extent of the row at an index with
  ///   an id, given the size proposed to it; a rejected value (NaN,
  ///   infinite, negative) leaves the row unmeasured.
  /// - Complexity: O(k (log n + B)) for k rows asked, plus
  ///   O((v + p)(log n + B)) a pass for v rows on screen and p kept ids
  ///   (at most 1,024 passes).
  @inlinable
  public mutating func measureVisibleRows(_ extent: (Int, ID, CGSize) -> CGFloat) {
    _measureRowsToDraw(proposing: true, extent)
  }

  /// The ids of rows the UI keeps drawing however far they are from the
  /// viewport (SPEC F2): a focused text field, a row being played or
  /// dragged. They are in `rowsToDraw` and measured like the rows on
  /// screen; ids that are not rows are ignored (and count again once
  /// inserted).
  ///
  ///     layout.keptIDs = [focusedMessageID]
  ///
  /// - Complexity: O(1) to read; O(p) to write p ids.
  @inlinable
  public var keptIDs: Set<ID> {
    get { _frame.kept }
    set {
      _frameEnter()
      _frame.kept = newValue
      _frameExit(.still)
    }
  }

  /// The rows to draw this frame, in index order, each once (SPEC F2): the
  /// rows of `visibleRows` (overscan included), the pinned rows (§11) and
  /// the row of every kept id in the list.
  ///
  ///     for i in layout.rowsToDraw { draw(layout.id(at: i), in: layout.frame(at: i)) }
  ///
  /// - Complexity: O((v + p)(log n + B)) for v rows on screen and p kept ids.
  @inlinable
  public var rowsToDraw: [Int] {
    var rows = visibleRows
    let pinned = _pinnedViews.isEmpty ? [] : pinnedRows
    if pinned.isEmpty && _frame.kept.isEmpty { return rows }
    let visibleCount = rows.count
    for row in pinned { rows.append(row.index) }
    for id in _frame.kept {
      if let index = _tree.index(of: id) { rows.append(index) }
    }
    if rows.count == visibleCount { return rows }
    rows.sort()
    var unique: [Int] = []
    unique.reserveCapacity(rows.count)
    for i in rows where unique.last != i { unique.append(i) }
    return unique
  }

  /// Both forms of `measureVisibleRows` (F1, F2): the proposal is computed
  /// only for the three-argument form.
  @inlinable
  internal mutating func _measureRowsToDraw(proposing: Bool, _ extent: (Int, ID, CGSize) -> CGFloat) {
    _frameEnter()
    defer { _frameExit(.still) }
    guard _viewportMain > 0, _viewportCross > 0 else { return }
    if _laneBox == nil && _frame.kept.isEmpty && _pinnedViews.isEmpty {
      // A list without pinned or kept rows: the rows to draw are the
      // visible range. A pass asks only the rows the previous one did not see.
      let proposal = proposing && count > 0 ? proposedSize(at: 0) : .zero
      var seen = 0 ..< 0
      for _ in 0 ..< 1024 {
        let visible = visibleIndices
        var applied = false
        for index in visible where !seen.contains(index) {
          let row = _tree._row(at: _tree._locate(index))
          guard row.stored < 0 else { continue }
          if setMeasuredExtent(extent(index, row.id, proposal), for: row.id).isApplied { applied = true }
        }
        if !applied { return }
        seen = visible
      }
      return
    }
    // A pass asks only the rows the previous one did not see (both lists
    // are in index order: one walk).
    var seen: [Int] = []
    for _ in 0 ..< 1024 {
      var applied = false
      let rows = rowsToDraw
      var k = 0
      for index in rows {
        while k < seen.count && seen[k] < index { k &+= 1 }
        if k < seen.count && seen[k] == index { continue }
        let row = _tree._row(at: _tree._locate(index))
        guard row.stored < 0 else { continue }
        let proposal = proposing ? proposedSize(at: index) : .zero
        if setMeasuredExtent(extent(index, row.id, proposal), for: row.id).isApplied { applied = true }
      }
      if !applied { return }
      seen = rows
    }
  }

  // MARK: Edge triggers (F3)

  /// How near an end of the content the viewport must come for that end's
  /// trigger to fire (SPEC F3), in points; by default the viewport's
  /// main-axis extent. A negative value is taken as 0; a non-finite one
  /// is ignored.
  /// - Complexity: O(1).
  @inlinable
  public var edgeTriggerDistance: CGFloat {
    get { _frame.triggerDistance ?? _FixedPoint.points(_viewportMain) }
    set {
      guard newValue.isFinite else { return }
      _frameEnter()
      _frame.triggerDistance = Swift.max(0, newValue)
      _frame.nearLimit = Self._nearLimit(Swift.max(0, newValue))
      _frameExit(.still)
    }
  }

  /// Returns the ends whose triggers fired since the last call, in order,
  /// and empties the queue (SPEC F3): `.top` / `.bottom` on a vertical
  /// axis, `.leading` / `.trailing` on a horizontal one.
  ///
  ///     for edge in layout.takeEdgeEvents() {
  ///       if edge == .top { loadOlderMessages() } else { loadNewerMessages() }
  ///     }
  ///
  /// An end fires once when the viewport comes within `edgeTriggerDistance`
  /// of it; again after rows arrive beyond the viewport at that end while
  /// it is still near, or after the viewport leaves and comes back.
  /// - Complexity: O(e) for e events.
  @inlinable
  public mutating func takeEdgeEvents() -> [Edge] {
    _frameEnter()
    let events = _frame.events
    _frame.events = []
    _frameExit(.still)
    return events
  }

  /// Re-arms both edge triggers (SPEC F3): a failed load to retry, a new
  /// data set. An end that is near fires again at once.
  /// - Complexity: O(1).
  @inlinable
  public mutating func rearmEdgeTriggers() {
    _frameEnter()
    _frame.leadingArmed = true
    _frame.trailingArmed = true
    _frameExit(.still)
  }

  // MARK: Ends (F4)

  /// The main-axis distance from the viewport to an end of the content
  /// (SPEC F4): the content offset for the leading end (`.top`,
  /// `.leading`), `maxOffset` less the content offset for the trailing end
  /// (`.bottom`, `.trailing`), on either axis.
  /// - Complexity: O(1).
  @inlinable
  public func distance(to edge: Edge) -> CGFloat {
    _FixedPoint.points(edge.isLeadingEdge ? _offset : _maxOffset &- _offset)
  }

  /// Whether the viewport is at the leading end: within
  /// `pinnedToEndTolerance` of it (SPEC F4).
  /// - Complexity: O(1).
  @inlinable
  public var isAtStart: Bool { _offset <= _endTolerance }

  /// Whether the viewport is at the trailing end: within
  /// `pinnedToEndTolerance` of `maxOffset` (SPEC F4), the condition under
  /// which a `.bottom` size-changes anchor keeps the list pinned (D4), so a
  /// "jump to newest" button and the pinning never disagree.
  ///
  ///     jumpToNewestButton.isHidden = layout.isAtEnd
  ///
  /// - Complexity: O(1).
  @inlinable
  public var isAtEnd: Bool { _maxOffset &- _offset <= _endTolerance }

  /// D4's tolerance in units.
  @inlinable
  internal var _endTolerance: Int64 {
    pinnedToEndTolerance.isFinite && pinnedToEndTolerance > 0 ? _FixedPoint.units(pinnedToEndTolerance) : 0
  }

  /// The number of rows after the viewport (SPEC F4): the rows whose index
  /// is greater than that of every row intersecting the viewport (no
  /// overscan), or, when none intersects it, the rows that start at or
  /// after its trailing edge. A chat's "n new messages" badge.
  /// - Complexity: O(log n + B); with lanes O(k (log n + B)) for k lanes,
  ///   or, when no row meets the viewport, O(r (log n + B)) for the r rows
  ///   after it (a masonry row need not start after the rows before it).
  @inlinable
  public var rowsAfterViewport: Int {
    guard count > 0 else { return 0 }
    let low = _offset, high = _offset &+ _viewportMain
    if _slowPath(_laneBox != nil) {
      if let last = _spansMeeting(low, high).last { return count &- 1 &- last.row }
      let end = Swift.max(high, _contentUnits &+ _alignmentShift) &+ 1
      return _spansMeeting(high, end).reduce(0) { $0 &+ ($1.start >= high ? 1 : 0) }
    }
    let visible = _rows(intersecting: low &- _alignmentShift, high &- _alignmentShift)
    if !visible.isEmpty { return count &- visible.upperBound }
    // No row meets the viewport: in a list, starts grow with the index.
    var first = 0, after = count
    while first < after {
      let mid = first &+ (after &- first) / 2
      if _mainSpan(at: mid).start >= high { after = mid } else { first = mid &+ 1 }
    }
    return count &- first
  }

  // MARK: Prefetch (F5)

  /// The rows to prepare before they are drawn (SPEC F5), none of them in
  /// `rowsToDraw`, each once: while a deceleration or an animation moves,
  /// first the rows of the screen it lands on (in index order); then the
  /// rows within `ahead` points beyond the viewport (beyond the landing
  /// screen) in the direction of travel, nearest first; then the rows
  /// within `behind` points behind the viewport, nearest first. Rows a
  /// motion only passes over are not listed.
  ///
  ///     for i in layout.prefetchRows(ahead: viewportHeight, behind: 100) { warmUp(layout.id(at: i)) }
  ///
  /// - Complexity: O((r + v + 1)(log n + B)) for r rows listed and v rows
  ///   on screen (with lanes, times k).
  @inlinable
  public func prefetchRows(ahead: CGFloat, behind: CGFloat) -> [Int] {
    let v = _viewportMain
    guard v > 0, count > 0 else { return [] }
    func units(_ p: CGFloat) -> Int64 { p.isFinite && p > 0 ? Swift.min(_FixedPoint.units(p), _FixedPoint.maxExtentUnits) : 0 }
    let (a, b) = (units(ahead), units(behind))
    // No nested function here reads `self`: each would copy the layout.
    let drawn = rowsToDraw
    let moving = _motion.phase == .decelerating || _motion.phase == .animating
    var listed = Set<Int>()
    var result: [Int] = []
    var screen = _offset
    if moving {
      screen = _currentMotionTarget
      for span in _spansMeeting(screen, screen &+ v) where Self._isNew(span.row, drawn, moving, &listed) {
        result.append(span.row)
      }
    }
    let offset = _offset
    let (ahead, behind): ((Int64, Int64), (Int64, Int64)) = _travelsForward
      ? ((screen &+ v, screen &+ v &+ a), (offset &- b, offset))
      : ((screen &- a, screen), (offset &+ v, offset &+ v &+ b))
    if ahead.1 > ahead.0 {
      Self._appendBand(_spansMeeting(ahead.0, ahead.1), from: screen, screen &+ v, drawn, moving, &listed, to: &result)
    }
    if behind.1 > behind.0 {
      Self._appendBand(_spansMeeting(behind.0, behind.1), from: offset, offset &+ v, drawn, moving, &listed, to: &result)
    }
    return result
  }

  /// Whether `row` is not listed yet (F5): not among the rows to draw
  /// (`drawn`, in index order: a binary search) and, while a motion moves,
  /// not listed before (the bands around two screens may overlap; without a
  /// motion the two bands lie on either side of the viewport, and a row
  /// meeting both meets it).
  @inlinable
  internal static func _isNew(_ row: Int, _ drawn: [Int], _ moving: Bool, _ listed: inout Set<Int>) -> Bool {
    var low = 0, high = drawn.count
    while low < high {
      let mid = (low &+ high) &>> 1
      if drawn[mid] < row { low = mid &+ 1 } else { high = mid }
    }
    if low < drawn.count && drawn[low] == row { return false }
    return !moving || listed.insert(row).inserted
  }

  /// Appends a band's new rows to `result`, nearest to the window
  /// `[windowLow, windowHigh)` first, ties by index (F5).
  @inlinable
  internal static func _appendBand(_ spans: [(row: Int, start: Int64, extent: Int64)], from windowLow: Int64,
                                   _ windowHigh: Int64, _ drawn: [Int], _ moving: Bool, _ listed: inout Set<Int>,
                                   to result: inout [Int]) {
    var rows: [(gap: Int64, index: Int)] = []
    rows.reserveCapacity(spans.count)
    var ordered = true
    for span in spans where _isNew(span.row, drawn, moving, &listed) {
      let end = span.start &+ span.extent
      let gap = end <= windowLow && span.extent > 0 ? windowLow &- end
        : span.start >= windowHigh ? span.start &- windowHigh
        : span.extent == 0 && span.start < windowLow ? windowLow &- span.start : 0
      if let last = rows.last, last.gap > gap { ordered = false }
      rows.append((gap, span.row))
    }
    // In a list a band ahead comes nearest first already, one behind in
    // reverse; with lanes it is sorted.
    if !ordered {
      if zip(rows, rows.dropFirst()).allSatisfy({ $0.gap > $1.gap }) {
        rows.reverse()
      } else {
        rows.sort { $0.gap != $1.gap ? $0.gap < $1.gap : $0.index < $1.index }
      }
    }
    for row in rows { result.append(row.index) }
  }

  /// The direction of travel (F5): toward the motion's target while one
  /// moves (when it is not already there), else the last offset change's.
  @inlinable
  internal var _travelsForward: Bool {
    if _motion.phase == .decelerating || _motion.phase == .animating {
      let target = _currentMotionTarget
      if target != _offset { return target > _offset }
    }
    return _frame.forward
  }

  /// The offset a moving motion lands on, as it is now (clamped).
  @inlinable
  internal var _currentMotionTarget: Int64 {
    _resolvedTargetOffset() ?? _clamp(_motion.targetOffset)
  }

  // MARK: The scroll indicator (F6) and scrolling to an index (F7)

  /// Where the scroll indicator's thumb is (SPEC F6). Its position moves
  /// only with scrolling, toward the end the content travels to, in
  /// proportion to the distance left, so it never jumps while estimates
  /// are replaced by measurements, and reaches each end exactly when the
  /// content does; a programmatic scroll, a viewport size change and a
  /// re-flow set it to `contentOffset / maxOffset`.
  /// - Complexity: O(1).
  @inlinable
  public var scrollIndicator: ScrollIndicator {
    let content = _contentUnits
    let length = content > 0 ? Swift.min(1, Double(_viewportMain) / Double(content)) : 1
    return ScrollIndicator(position: _frame.indicator, length: length)
  }

  /// Scrolls as if the user dragged the indicator's thumb to `position`
  /// (SPEC F6 d): a user scroll (T1, T3) to the offset that moves the thumb
  /// there the way scrolling would, so the thumb stays under the finger
  /// while the rows it reveals are measured. `position` is clamped to
  /// `0 ... 1`; a non-finite one changes nothing.
  ///
  ///     layout.dragIndicator(to: fingerY / trackHeight)
  ///
  /// - Complexity: O(log n + B).
  @inlinable
  public mutating func dragIndicator(to position: Double) {
    guard position.isFinite else { return }
    _frameEnter()
    let g = Swift.min(1, Swift.max(0, position))
    let f = _frame.indicator
    let o = Double(_offset), m = Double(_maxOffset)
    let target: Double
    if g == 1 {
      target = m
    } else if g == 0 {
      target = 0
    } else if g > f {
      target = o + (g - f) / (1 - f) * (m - o)
    } else if g < f {
      target = o - (f - g) / f * o
    } else {
      target = o
    }
    let units = Int64(Swift.min(Swift.max(0, target.rounded()), m))
    let point = _FixedPoint.points(units)
    userScroll(to: axis == .vertical ? CGPoint(x: .nan, y: point) : CGPoint(x: point, y: .nan))
    _frameExit(.drag(g))
  }

  /// Scrolls to the row at `index` (SPEC F7):
  /// `position.scrollTo(id: id(at: index), anchor: anchor)`.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n + B).
  @inlinable
  public mutating func scrollTo(index: Int, anchor: UnitPoint? = nil) {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    _frameEnter()
    position.scrollTo(id: id(at: index), anchor: anchor)
    _frameExit(.still)
  }

  /// The ends that fired and were not taken yet (the model checks compare
  /// them after every step without taking them).
  /// - Complexity: O(1).
  @inlinable
  package var _pendingEdgeEvents: [Edge] { _frame.events }

  // MARK: Geometry for §16

  /// Row `index`'s main-axis start and extent in units, in the coordinates
  /// of `contentOffset` (alignment shift and leading inset included).
  @inlinable
  internal func _mainSpan(at index: Int) -> (start: Int64, extent: Int64) {
    let span = _span(index)
    return (_alignmentShift &+ _leadingInset &+ span.start, span.extent)
  }

  // MARK: Keeping the triggers and the indicator (end of each call)

  /// A public call begins (SPEC §16: a call inside another is part of it).
  @inlinable @inline(__always)
  internal mutating func _frameEnter() {
    if _frame.depth == 0 { _frame.startOffset = _offset }
    _frame.depth &+= 1
  }

  /// A public call ends: the outermost one keeps the indicator (F6) and the
  /// edge triggers (F3).
  @inlinable @inline(__always)
  internal mutating func _frameExit(_ call: _FrameCall) {
    _frame.depth &-= 1
    if _frame.depth == 0 { _frameEndOfCall(call) }
  }

  /// A reset of the indicator (F6 e) inside the current call.
  @inlinable @inline(__always)
  internal mutating func _frameNoteReset() {
    _frame.reset = true
  }

  /// Row `id` was inserted (F3): noted while a trigger is disarmed.
  @inlinable @inline(__always)
  internal mutating func _frameNoteInserted(_ id: ID) {
    if _frame.goneIDs.remove(id) == nil { _frame.newIDs.insert(id) }
    _frame.noted = true
  }

  /// Row `id` was removed (F3): noted while a trigger is disarmed.
  @inlinable @inline(__always)
  internal mutating func _frameNoteRemoved(_ id: ID) {
    if _frame.newIDs.remove(id) == nil { _frame.goneIDs.insert(id) }
    _frame.noted = true
  }

  /// F6 and F3 at the end of an outermost call: inline only what a call
  /// that scrolls or measures needs (F6 (a), and whether a trigger has
  /// anything to do), the rest outlined.
  /// - Complexity: O(1), plus O(log n + B) per row the call inserted while
  ///   a trigger was disarmed.
  @inlinable @inline(__always)
  internal mutating func _frameEndOfCall(_ call: _FrameCall) {
    let now = _offset, m = _maxOffset
    if _slowPath(_frame.reset) {
      _frame.reset = false
      _frameMoveIndicator(.reset, to: now, of: m)
    } else if case .still = call {
    } else {
      _frameMoveIndicator(call, to: now, of: m)
    }
    // F6 (a): the ends.
    let f = _frame.indicator
    if now == 0 || m == 0 {
      if f != 0 { _frame.indicator = 0 }
    } else if now == m {
      if f != 1 { _frame.indicator = 1 }
    } else if !(f > 0 && f < 1) {
      _frame.indicator = Double(now) / Double(m)
    }
    // F3: nothing to do while each armed end is far and each disarmed end
    // near, with no row inserted.
    let v = _viewportMain
    if v > 0 {
      // The default distance is the viewport's extent: its limit is v.
      let limit = _frame.triggerDistance == nil ? v : _frame.nearLimit
      let leadingNear = now <= limit
      let trailingNear = m &- now <= limit
      if _slowPath(_frame.leadingArmed == leadingNear || _frame.trailingArmed == trailingNear || _frame.noted) {
        _keepEdgeTriggers(leadingNear: leadingNear, trailingNear: trailingNear)
      }
    }
    if _slowPath(_frame.noted) { _frameForgetEdits() }
  }

  /// F3's limit for a distance of `d` points: an end at a distance of u
  /// units (a whole number) is near when u / 256 <= d, that is when
  /// u <= floor(256 d) (scaling by 256 is exact).
  @inlinable
  internal static func _nearLimit(_ d: CGFloat) -> Int64 {
    let units = Double(d) * 256
    return units >= 0x1p62 ? Int64.max : Int64(units.rounded(.down))
  }

  /// F6 (c), (d), (e): a scroll, a drag or a reset moves the indicator.
  @inlinable @inline(never)
  internal mutating func _frameMoveIndicator(_ call: _FrameCall, to now: Int64, of m: Int64) {
    let o = _frame.startOffset
    var f = _frame.indicator
    switch call {
    case .still: return
    case .reset: f = m > 0 ? Double(now) / Double(m) : 0
    case .drag(let g): f = g
    case .travel:
      if now > o {
        f = m > o ? f + (1 - f) * Double(now &- o) / Double(m &- o) : 1
      } else if now < o {
        f = f - f * Double(o &- now) / Double(o)
      }
    }
    _frame.indicator = f
  }

  /// The ids a call noted (F3), forgotten when it ends.
  @inlinable @inline(never)
  internal mutating func _frameForgetEdits() {
    _frame.newIDs = []
    _frame.goneIDs = []
    _frame.noted = false
  }

  /// F3 at the end of a call with a viewport: each end re-arms if it is
  /// not near or if a row inserted by the call lies beyond the viewport
  /// toward it; then fires if it is armed and near.
  @inlinable @inline(never)
  internal mutating func _keepEdgeTriggers(leadingNear: Bool, trailingNear: Bool) {
    if !_frame.leadingArmed && (!leadingNear || _insertedRowLiesBeyond(leading: true)) { _frame.leadingArmed = true }
    if _frame.leadingArmed && leadingNear && count > 0 {
      _frame.events.append(axis == .vertical ? .top : .leading)
      _frame.leadingArmed = false
    }
    if !_frame.trailingArmed && (!trailingNear || _insertedRowLiesBeyond(leading: false)) { _frame.trailingArmed = true }
    if _frame.trailingArmed && trailingNear && count > 0 {
      _frame.events.append(axis == .vertical ? .bottom : .trailing)
      _frame.trailingArmed = false
    }
  }

  /// Whether a row the call inserted lies wholly beyond the viewport
  /// toward the leading (or trailing) end: it does not meet the viewport
  /// and starts before it (or at or after its trailing edge).
  @inlinable
  internal func _insertedRowLiesBeyond(leading: Bool) -> Bool {
    guard !_frame.newIDs.isEmpty else { return false }
    let low = _offset, high = _offset &+ _viewportMain
    for id in _frame.newIDs {
      guard let index = _tree.index(of: id) else { continue }
      let span = _mainSpan(at: index)
      let meets = span.extent > 0 ? span.start < high && span.start &+ span.extent > low
        : span.start >= low && span.start < high
      if meets { continue }
      if leading ? span.start < low : span.start >= high { return true }
    }
    return false
  }
}
