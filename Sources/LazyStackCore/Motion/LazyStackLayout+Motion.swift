import Foundation

extension LazyStackLayout {
  /// Where a motion goes (SPEC M3, M4).
  @usableFromInline
  internal enum _MotionTarget: Sendable {
    /// An animated scroll to a row: R3, R4 and H6 re-resolved as it goes.
    case row(ID, fraction: CGFloat, delta: Int64)
    /// An animated scroll to an edge: 0 or `maxOffset` as it is now.
    case edge(Edge)
    /// An animated scroll to a point: that offset, clamped (S9).
    case point(Int64)
    /// A deceleration's snapped target: it moves with the content (M5).
    case content(Int64)
    /// A view-aligned deceleration's row (B5): its start as it is now,
    /// clamped, so that measurements before the row (between the viewport
    /// and the row, too) move the target with it and the fling lands on
    /// the row's edge (M3).
    case rowStart(ID)
  }

  /// The phase, the last change of phase and the motion in progress.
  @usableFromInline
  internal struct _Motion: Sendable {
    @usableFromInline var phase: ScrollPhase = .idle
    @usableFromInline var lastChange: ScrollPhaseChange?
    @usableFromInline var target: _MotionTarget = .point(0)
    /// The target's offset as last resolved, in units.
    @usableFromInline var targetOffset: Int64 = 0
    @usableFromInline var curve = _MotionCurve(cubicFrom: 0, velocity: 0, at: 0, end: 0)
    /// The base rate of an exponential curve (the spring's ω, the deceleration's k).
    @usableFromInline var rate: Double = 0
    /// The clock's latest reading (seconds).
    @usableFromInline var time: Double = 0
    /// Whether `targetOffset` is the target's offset now: every
    /// stabilization re-resolves it; a role or pinned-view change (which
    /// moves no row) marks it for the next `advance`.
    @usableFromInline var resolved = true

    @inlinable
    init() {}
  }

  // MARK: Reading the phase

  /// What moves the content now (SPEC M2): `.idle` at rest, `.interacting`
  /// while the user's finger is down, `.decelerating` after a release with
  /// velocity, `.animating` during an animated programmatic scroll.
  /// - Complexity: O(1).
  @inlinable
  public var phase: ScrollPhase { _motion.phase }

  /// The last change of `phase`, or `nil` if it never changed (SPEC M2).
  /// - Complexity: O(1).
  @inlinable
  public var lastPhaseChange: ScrollPhaseChange? { _motion.lastChange }

  @inlinable
  internal mutating func _setPhase(_ phase: ScrollPhase) {
    guard phase != _motion.phase else { return }
    _motion.lastChange = ScrollPhaseChange(oldPhase: _motion.phase, newPhase: phase)
    _motion.phase = phase
    if !phase._isMoving { _motion.target = .point(0) }  // holds no id at rest
  }

  /// Ends any motion where it is (a user scroll or a programmatic scroll
  /// without animation cancels it: SPEC T1, M4).
  @inlinable @inline(never)
  internal mutating func _stopMotion() {
    if _motion.phase._isMoving { _setPhase(.idle) }
  }

  /// Ends any motion for a write of `position` (M4), unless the write
  /// names an unknown id: that changes nothing (R5), and the motion goes on.
  @inlinable @inline(never)
  internal mutating func _stopMotion(writing position: ScrollPosition) {
    if !position.isPositionedByUser, case .id(let anyID, _) = position._target,
       !((anyID as? ID).map { _tree.contains($0) } ?? false) { return }
    _stopMotion()
  }

  /// A caller's clock reading, kept monotonic (NaN: the last reading).
  @inlinable
  internal func _clock(_ time: TimeInterval) -> Double {
    time.isNaN ? _motion.time : Swift.max(Double(time), _motion.time)
  }

  // MARK: Interaction and deceleration

  /// The user's finger went down (SPEC M2, M3): `phase` becomes
  /// `.interacting`, and any deceleration or animation stops where it is.
  /// An animation stopped this way leaves the user's place there: `position`
  /// names the tracked row, with `isPositionedByUser == true` (T1).
  /// - Complexity: O(log n + B).
  @inlinable
  public mutating func beginInteraction() {
    _frameEnter()
    defer { _frameExit(.still) }
    if _slowPath(_batch != nil) {
      let log = _suspendBatch()
      beginInteraction()
      return _resumeBatch(log)
    }
    if _slowPath(_pendingRestore != nil) { _pendingRestore = nil }  // C3: the user scrolls
    let wasAnimating = _motion.phase == .animating
    _setPhase(.interacting)
    if wasAnimating { _track() }
    _checkInvariants()
  }

  /// The user lifted the finger with `velocity` (points per second) (SPEC
  /// M3): the scroll decelerates to `targetContentOffset(forReleaseAt:
  /// contentOffset, velocity:behavior:decelerationRate:)` along
  /// `y(t) = (y₀ + (v₀ + k·y₀)·t)·e^(−kt)` (y: the distance left, v₀ the
  /// release velocity, k = 1000·(1 − d)/d for the rate d per millisecond),
  /// so a fling no behaviour moves decays exactly to B2's natural end; when
  /// the target is nearer than that, k grows so the curve ends on it
  /// without overshooting. It ends exactly on the target with zero velocity
  /// (within 1/4 pt at under 4 pt/s, then on it). Each step tracks like a
  /// user scroll (T1, T3). With no velocity and nothing to snap to, `phase`
  /// becomes `.idle`. Drive it with `advance(to:)`.
  ///
  /// A `.viewAligned` target is the chosen row's start (B5) as it is now,
  /// re-resolved like an animation's (M4): the rows measured on the way
  /// move it with the row, so the fling lands on the row's edge however
  /// their true extents differ from the estimate. Other targets (paging,
  /// free, custom) are offsets, which move only with the content before the
  /// viewport (M5). If an edit removes the row, the target stays where the
  /// row last put it.
  ///
  ///     layout.endInteraction(velocity: CGVector(dx: 0, dy: -1800), behavior: .paging, at: now)
  ///
  /// - Parameters:
  ///   - velocity: NaN counts as 0; magnitudes are capped at 10⁹ pt/s.
  ///   - behavior: The snapping behaviour (B2–B5, or a custom one).
  ///   - decelerationRate: How fast the fling slows down.
  ///   - time: The caller's clock, in seconds.
  /// - Complexity: O(log n + B), plus a custom behaviour's own cost.
  @inlinable
  public mutating func endInteraction(
    velocity: CGVector, behavior: some ScrollTargetBehavior,
    decelerationRate: ScrollDecelerationRate = .normal, at time: TimeInterval
  ) {
    _frameEnter()
    defer { _frameExit(.still) }
    if _slowPath(_batch != nil) {
      let log = _suspendBatch()
      endInteraction(velocity: velocity, behavior: behavior, decelerationRate: decelerationRate, at: time)
      return _resumeBatch(log)
    }
    _motion.time = _clock(time)
    // A release during an animation ends it where it is: the user's place (T1).
    if _motion.phase == .animating { _track() }
    let released = targetContentOffset(forReleaseAt: contentOffset, velocity: velocity, behavior: behavior,
                                       decelerationRate: decelerationRate)
    let target = _clamp(_FixedPoint.units(axis == .vertical ? released.y : released.x))
    let speed = axis == .vertical ? velocity.dy : velocity.dx
    let v = speed.isNaN ? 0 : Swift.min(Swift.max(Double(speed), -1e9), 1e9) * _FixedPoint.unitsPerPoint
    guard target != _offset || v != 0, _viewportUnits > 0, count > 0 else {
      _setPhase(.idle)
      _checkInvariants()
      return
    }
    if !_position.isPositionedByUser { _track() }  // a release leaves the user's place
    let rate = _MotionCurve.decelerationRate(Double(decelerationRate.rawValue))
    _motion.target = behavior is ViewAlignedScrollTargetBehavior ? _rowStartTarget(at: target) : .content(target)
    _motion.targetOffset = target
    _motion.resolved = true
    _motion.rate = rate
    _motion.curve = _MotionCurve(exponentialFrom: Double(_offset &- target), velocity: v, at: _motion.time,
                                 rate: rate)
    _setPhase(.decelerating)
    _checkInvariants()
  }

  // MARK: Animated programmatic scrolls

  /// Scrolls to `position` with `animation`, starting at `time` (SPEC M4).
  ///
  /// The position resolves as a write to `position` would (R1–R5, H6), and
  /// `position` reads it at once; the offset then moves there as
  /// `advance(to:)` is called. The target is re-resolved at every
  /// `advance` and after every stabilization, and the motion continues from
  /// its current offset and velocity to the new target, so when it ends the
  /// row is exactly where R3 says, however many estimates were replaced on
  /// the way (then R6 keeps it there). Meanwhile the rows on screen are kept
  /// in place like a user scroll's (T3, S1–S5, M5), so measuring them moves
  /// nothing the user sees. An animated scroll that interrupts a motion
  /// starts with that motion's velocity. A point target is an offset (S9);
  /// an automatic position, a position with `isPositionedByUser`, a zero
  /// viewport or an animation of no duration scroll at once, without
  /// animation; an unknown id changes nothing (R5).
  ///
  ///     layout.scroll(to: ScrollPosition(id: messageID, anchor: .center), animation: .smooth, at: now)
  ///
  /// A user scroll, `beginInteraction()` or a write to `position` cancels it.
  /// - Complexity: O(log n + B).
  @inlinable
  public mutating func scroll(to position: ScrollPosition, animation: ScrollAnimation, at time: TimeInterval) {
    _frameEnter()
    defer { _frameExit(.still) }
    if _slowPath(_batch != nil) {
      let log = _suspendBatch()
      scroll(to: position, animation: animation, at: time)
      return _resumeBatch(log)
    }
    if _slowPath(_pendingRestore != nil) { _dropPendingRestore(writing: position) }  // C3
    let now = _clock(time)
    let oldPhase = _motion.phase
    let oldChange = _motion.lastChange
    let velocity = oldPhase._isMoving ? _motion.curve.value(at: _motion.time).velocity : 0
    let start = _offset
    let reset = _frame.reset
    _setPosition(position)
    guard animation._animates, _viewportUnits > 0, !position.isPositionedByUser,
          case .resolved = _lastPositionResult else { return }
    let target: _MotionTarget
    switch _anchor {
    case .row(let id, let fraction, let delta): target = .row(id, fraction: fraction, delta: delta)
    case .edge(let edge): target = .edge(edge)
    case .point: target = .point(_offset)
    case .automatic: return
    }
    let end = _offset
    guard end != start || velocity != 0 else { return }  // already there
    _motion.time = now
    _offset = start
    _track(updatingPosition: false)  // the rows on screen stay in place as they are measured (M5)
    _motion.target = target
    _motion.targetOffset = end
    _motion.resolved = true
    _motion.curve = animation._curve(from: Double(start &- end), velocity: velocity, at: now)
    _motion.rate = animation._baseRate
    _motion.phase = .animating
    _frame.reset = reset  // F6 (b): the start of an animated scroll leaves the indicator
    _motion.lastChange = oldPhase == .animating ? oldChange : ScrollPhaseChange(oldPhase: oldPhase, newPhase: .animating)
    let correction = ScrollCorrection(offsetDelta: 0, contentOffset: contentOffset, cause: .programmaticScroll)
    _lastCorrection = correction
    _lastPositionResult = .resolved(correction)
    _checkInvariants()
  }

  // MARK: The clock

  /// Moves any motion to `time` (seconds, the caller's monotonic clock)
  /// and returns whether it is still moving (SPEC M1). Nothing moves
  /// between calls, and the same calls give the same offsets on every
  /// machine. An earlier time than the last one (or NaN) counts as the last
  /// one. The motion's target is re-resolved first (M4); when the motion
  /// ends, the offset is exactly on its target, `phase` becomes `.idle`, and
  /// an animated scroll to a row leaves that row as the pending target of
  /// R6. While idle or interacting it returns `false`.
  /// - Complexity: O(log n + B).
  @inlinable
  @discardableResult
  public mutating func advance(to time: TimeInterval) -> Bool {
    _frameEnter()
    defer { _frameExit(.travel) }
    if _slowPath(_batch != nil) {
      let log = _suspendBatch()
      let moving = advance(to: time)
      _resumeBatch(log)
      return moving
    }
    let now = _clock(time)
    let start = _offset
    defer { if _offset != start { _frame.forward = _offset > start } }  // F5: the direction of travel
    guard _motion.phase._isMoving else {
      _motion.time = now
      return false
    }
    // M4: the target as it is now (every stabilization has re-resolved it).
    if !_motion.resolved { guard _retarget(force: false) else { return false } }
    _motion.time = now
    // Read into locals first: reading `self` while `_offset` is assigned
    // makes the compiler copy the whole layout.
    let curve = _motion.curve
    if curve.hasEnded(at: now) {
      _land()
      _checkInvariants()
      return false
    }
    let maxOffset = _maxOffset
    let unclamped = curve.offset(at: now, target: _motion.targetOffset)
    let tracksPosition = _motion.phase == .decelerating
    _offset = Swift.min(Swift.max(0, unclamped), maxOffset)
    _track(updatingPosition: tracksPosition)  // T1, T3 (M3); M5
    _checkInvariants()
    return true
  }

  /// The motion target's offset now (clamped), or `nil` if its row is gone.
  @inlinable
  internal func _resolvedTargetOffset() -> Int64? {
    switch _motion.target {
    case .row(let id, let fraction, let delta):
      guard let row = _placedIfAny(_tree.rowInfo(of: id)) else { return nil }
      // R3, R4, H6. `_programmaticTarget` alone gives the same value, but
      // this branch keeps the common path small: without it the paired
      // benchmark read pinned_rows +7.5 % at 1e4 (code placement in `_settle`).
      return _clamp(_pinnedViews.isEmpty ? _rowTarget(row, fraction: fraction, delta: delta)
                      : _programmaticTarget(row, fraction: fraction, delta: delta))
    case .edge(let edge): return edge.isLeadingEdge ? 0 : _maxOffset
    case .point(let offset), .content(let offset): return _clamp(offset)
    case .rowStart(let id):
      // A removed row hands the target back to its last offset (`_motionDidSettle`).
      guard let index = _tree.index(of: id) else { return _clamp(_motion.targetOffset) }
      return _clamp(_snapStart(of: index))  // L7: a grid row snaps to its line
    }
  }

  /// A view-aligned deceleration's target: the row that starts at `offset`
  /// (the last one, when rows of zero extent share the start, as
  /// `_bracket(atOrBefore:)` finds it), or the offset itself when no row
  /// starts there (the target was clamped to `maxOffset`).
  /// - Complexity: O(log n + B).
  @inlinable @inline(never)
  internal func _rowStartTarget(at offset: Int64) -> _MotionTarget {
    if let lanes = _laneBox?.value, lanes.hasLanes {
      // L7: the last row whose snapping start is `offset`.
      let starts = lanes.snapStarts(in: _tree)
      guard let i = starts.lastIndex(of: offset &- _leadingInset) else { return .content(offset) }
      return .rowStart(_tree.id(at: i))
    }
    let bracket = _bracket(atOrBefore: offset)
    return bracket.index >= 0 && bracket.start == offset ? .rowStart(_tree.id(at: bracket.index)) : .content(offset)
  }

  /// Re-resolves the target and, if it moved (or `force`: the offset
  /// moved under the motion), starts a new segment from the current offset
  /// and velocity at the clock's last reading (M4, M5). `false` (and the
  /// motion stopped) when the target row is gone.
  @inlinable
  internal mutating func _retarget(force: Bool) -> Bool {
    guard let target = _resolvedTargetOffset() else {
      // No target row left (edits replace it by its survivor first): the
      // motion ends where it is, the user's place.
      _setPhase(.idle)
      _track()
      return false
    }
    _motion.resolved = true
    guard force || target != _motion.targetOffset else { return true }
    let velocity = _motion.curve.value(at: _motion.time).velocity
    _motion.curve = _motion.curve.rebased(y: Double(_offset &- target), velocity: velocity, at: _motion.time,
                                          rate: _motion.rate)
    _motion.targetOffset = target
    return true
  }

  /// Puts the offset exactly on the motion's target and ends the motion.
  @inlinable
  internal mutating func _land() {
    _offset = _motion.targetOffset
    switch _motion.target {
    case .row(let id, let fraction, let delta):
      if let row = _placedIfAny(_tree.rowInfo(of: id)) { _anchor(to: row, fraction: fraction, delta: delta) }  // R6 goes on
    case .edge(let edge): _anchor = .edge(edge)
    case .point: _anchor = .point
    case .content, .rowStart: _track()
    }
    _setPhase(.idle)
  }

  /// After a stabilization moved the content under a motion (SPEC M5): a
  /// deceleration's target moves with the offset, a row target is
  /// re-resolved, and the motion continues from where the offset is now.
  @inlinable @inline(never)
  internal mutating func _motionDidSettle(from before: _Before) {
    let shift = _offset &- before.offset
    // A view-aligned target whose row an edit removed goes on as an offset.
    if case .rowStart(let id) = _motion.target, !_tree.contains(id) { _motion.target = .content(_motion.targetOffset) }
    if case .content(let offset) = _motion.target { _motion.target = .content(_clamp(offset &+ shift)) }
    _ = _retarget(force: shift != 0)
  }

  /// The row an animation goes to, if one is in progress.
  @inlinable
  internal var _animationTargetID: ID? {
    guard _motion.phase == .animating, case .row(let id, _, _) = _motion.target else { return nil }
    return id
  }

  /// Replaces an animation's target row that an edit or a snapshot removes
  /// by its survivor, as S5 replaces an anchor row (with none, the
  /// animation stops).
  @inlinable @inline(never)
  internal mutating func _replaceRemovedTarget(with fate: _RowFate<ID>) {
    guard case .row(_, let fraction, let delta) = _motion.target, case .removed(let replacement) = fate else {
      return
    }
    if let replacement {
      _motion.target = .row(replacement, fraction: fraction, delta: delta)
      _position = ScrollPosition(_target: .id(replacement, anchor: _position.anchor))
    } else {
      _setPhase(.idle)
      _position = ScrollPosition(_target: .automatic)
    }
  }

  // MARK: Visibility

  /// The ids of the rows whose visible fraction of their own extent is at
  /// least `threshold`, in order (SPEC M6): `onScrollTargetVisibilityChange`'s
  /// question. A row of zero extent counts when its start is in the
  /// viewport. The viewport is the whole one (pinned rows cover nothing
  /// here) and overscan does not apply.
  ///
  ///     let seen = layout.visibleIDs(threshold: 0.5)   // at least half on screen
  ///
  /// - Parameter threshold: In 0...1 (clamped; NaN counts as 0).
  /// - Complexity: O(log n + B + k) for k visible rows.
  @inlinable
  public func visibleIDs(threshold: Double) -> [ID] {
    let viewport = _viewportUnits
    guard count > 0, viewport > 0 else { return [] }
    let fraction = threshold.isNaN ? 0 : Swift.min(Swift.max(threshold, 0), 1)
    let low = _offset &- _alignmentShift
    let high = low &+ viewport
    if _slowPath(_laneBox != nil) {
      // With lanes (SPEC L5): the rows that meet the viewport, each by its own frame.
      return _laneBox.unsafelyUnwrapped.value.rows(meeting: low &- _leadingInset, high &- _leadingInset, in: _tree)
        .filter { i in
          let (start, extent) = _span(i)
          if extent == 0 { return true }
          let top = _leadingInset &+ start
          let seen = Swift.min(top &+ extent, high) &- Swift.max(top, low)
          return Double(seen) >= fraction * Double(extent)
        }
        .map { _tree.id(at: $0) }
    }
    let rows = _rows(intersecting: low, high)
    var result: [ID] = []
    result.reserveCapacity(rows.count)
    _tree.forEachRow(in: rows) { id, start, extent in
      if extent == 0 {
        result.append(id)
        return
      }
      let top = _leadingInset &+ start
      let seen = Swift.min(top &+ extent, high) &- Swift.max(top, low)
      if Double(seen) >= fraction * Double(extent) { result.append(id) }
    }
    return result
  }
}
