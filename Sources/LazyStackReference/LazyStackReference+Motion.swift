import Foundation
import LazyStackCore

extension LazyStackReference {
  /// Where a motion goes (SPEC M3, M4).
  enum MotionTarget: Sendable {
    case row(ID, fraction: CGFloat, delta: Int64)
    case edge(Edge)
    case point(Int64)
    case content(Int64)
    /// A view-aligned deceleration's row: its start as it is now.
    case rowStart(ID)
  }

  var isMoving: Bool { phase == .animating || phase == .decelerating }

  /// A row anchor keeps a row on screen (a user's place, or the rows under
  /// an animation) rather than a pending programmatic target.
  var keepsPlaceOnScreen: Bool { storedPosition.isPositionedByUser || phase == .animating }

  mutating func setPhase(_ p: ScrollPhase) {
    guard p != phase else { return }
    lastPhaseChange = ScrollPhaseChange(oldPhase: phase, newPhase: p)
    phase = p
  }

  mutating func stopMotion() {
    if isMoving { setPhase(.idle) }
  }

  func now(_ t: TimeInterval) -> Double { t.isNaN ? clock : max(t, clock) }

  /// SPEC M2.
  public mutating func beginInteraction() {
    enter()
    defer { exit(.still) }
    if batch != nil { return outsideBatch { $0.beginInteraction() } }
    pendingRestore = nil
    let wasAnimating = phase == .animating
    setPhase(.interacting)
    if wasAnimating { track() }
  }

  /// SPEC M3: decelerate to the snapped target.
  public mutating func endInteraction(velocity: CGVector, snap: ReferenceSnap?,
                                      decelerationRate: ScrollDecelerationRate = .normal, at time: TimeInterval) {
    enter()
    defer { exit(.still) }
    if batch != nil {
      return outsideBatch { $0.endInteraction(velocity: velocity, snap: snap, decelerationRate: decelerationRate, at: time) }
    }
    clock = now(time)
    if phase == .animating { track() }
    let target: CGPoint
    if let snap {
      target = targetContentOffset(forReleaseAt: contentOffset, velocity: velocity, snap: snap,
                                   decelerationRate: decelerationRate)
    } else {
      // No snapping: the natural end of the fling (B2), clamped.
      let main = axis == .vertical ? contentOffset.y : contentOffset.x
      let v = axis == .vertical ? velocity.dy : velocity.dx
      let end = min(max(0, referenceProjectedOffset(from: main, velocity: v, rate: decelerationRate)), maxOffset)
      target = axis == .vertical ? CGPoint(x: 0, y: end) : CGPoint(x: end, y: 0)
    }
    let x = clamp(_FixedPoint.units(axis == .vertical ? target.y : target.x))
    let speed = axis == .vertical ? velocity.dy : velocity.dx
    let v = speed.isNaN ? 0 : min(max(Double(speed), -1e9), 1e9) * 256
    if (x == offset && v == 0) || viewportUnits <= 0 || ids.isEmpty {
      setPhase(.idle)
      return
    }
    if !storedPosition.isPositionedByUser { track() }
    motionRate = ReferenceCurve.decelerationRate(Double(decelerationRate.rawValue))
    motionTarget = .content(x)
    if case .viewAligned? = snap, let i = rowSnapStarts().lastIndex(of: x) { motionTarget = .rowStart(ids[i]) }
    motionTargetOffset = x
    curve = .decay(from: Double(offset - x), velocity: v, at: clock, rate: motionRate)
    setPhase(.decelerating)
  }

  /// SPEC M4: resolve like `setPosition`, then move there as the clock advances.
  public mutating func scroll(to p: ScrollPosition, animation: ScrollAnimation, at time: TimeInterval) {
    enter()
    defer { exit(.still) }
    if batch != nil { return outsideBatch { $0.scroll(to: p, animation: animation, at: time) } }
    let t = now(time)
    let oldPhase = phase
    let oldChange = lastPhaseChange
    let velocity = isMoving ? curve.value(at: clock).velocity : 0
    let start = offset
    let reset = frameState.reset
    setPosition(p)
    guard animation.referenceAnimates, viewportUnits > 0, !p.isPositionedByUser,
          case .resolved = lastPositionResult else { return }
    let target: MotionTarget
    switch anchor {
    case .row(let id, let f, let d): target = .row(id, fraction: f, delta: d)
    case .edge(let e): target = .edge(e)
    case .point: target = .point(offset)
    case .automatic: return
    }
    let end = offset
    if end == start && velocity == 0 { return }
    clock = t
    offset = start
    track(setPosition: false)
    motionTarget = target
    motionTargetOffset = end
    motionRate = animation.referenceRate
    curve = animation.referenceCurve(from: Double(start - end), velocity: velocity, at: t)
    phase = .animating
    frameState.reset = reset  // F6 (b): an animation starts
    lastPhaseChange = oldPhase == .animating ? oldChange : ScrollPhaseChange(oldPhase: oldPhase, newPhase: .animating)
    lastCorrection = ScrollCorrection(offsetDelta: 0, contentOffset: contentOffset, cause: .programmaticScroll)
    lastPositionResult = .resolved(lastCorrection)
  }

  /// The target's offset now, clamped; nil if its row is gone.
  func resolvedTarget() -> Int64? {
    switch motionTarget {
    case .row(let id, let f, let d):
      guard index(of: id) != nil else { return nil }
      return clamp(target(row: id, fraction: f, delta: d, programmatic: true))
    case .edge(let e): return (e == .top || e == .leading) ? 0 : maxOffsetUnits
    case .point(let x), .content(let x): return clamp(x)
    case .rowStart(let id):
      guard let i = index(of: id) else { return clamp(motionTargetOffset) }
      return clamp(rowSnapStarts()[i])
    }
  }

  /// A new segment from where the motion is, when the target moved or the
  /// offset moved under it (M4, M5). False: the target row is gone.
  mutating func retarget(force: Bool) -> Bool {
    guard let x = resolvedTarget() else {
      setPhase(.idle)
      track()
      return false
    }
    if !force && x == motionTargetOffset { return true }
    let v = curve.value(at: clock).velocity
    curve = curve.rebased(y: Double(offset - x), velocity: v, at: clock, rate: motionRate)
    motionTargetOffset = x
    return true
  }

  /// SPEC M5: a deceleration's target moves with the offset; a row target is re-resolved.
  mutating func motionDidSettle(shift: Int64) {
    if case .rowStart(let id) = motionTarget, index(of: id) == nil { motionTarget = .content(motionTargetOffset) }
    if case .content(let x) = motionTarget { motionTarget = .content(clamp(x + shift)) }
    _ = retarget(force: shift != 0)
  }

  /// SPEC M1.
  @discardableResult
  public mutating func advance(to time: TimeInterval) -> Bool {
    enter()
    defer { exit(.travel) }
    if batch != nil { return outsideBatch { $0.advance(to: time) } }
    let startOffset = offset
    defer { if offset != startOffset { frameState.forward = offset > startOffset } }
    let t = now(time)
    guard isMoving else {
      clock = t
      return false
    }
    guard retarget(force: false) else { return false }
    clock = t
    if curve.hasEnded(at: t) {
      offset = motionTargetOffset
      switch motionTarget {
      case .row(let id, let f, let d): anchor = .row(id, fraction: f, delta: d)
      case .edge(let e): anchor = .edge(e)
      case .point: anchor = .point
      case .content, .rowStart: track()
      }
      setPhase(.idle)
      return false
    }
    offset = clamp(curve.offset(at: t, target: motionTargetOffset))
    track(setPosition: phase == .decelerating)
    return true
  }

  /// SPEC M6 by a scan of every row.
  public func visibleIDs(threshold: Double) -> [ID] {
    let v = viewportUnits
    guard !ids.isEmpty, v > 0 else { return [] }
    let f = threshold.isNaN ? 0 : min(max(threshold, 0), 1)
    let low = offset - shift
    let high = low + v
    let s = starts()
    let x = extents()
    var result: [ID] = []
    for i in ids.indices {
      if x[i] == 0 {
        if s[i] >= low && s[i] < high { result.append(ids[i]) }
        continue
      }
      let seen = min(s[i] + x[i], high) - max(s[i], low)
      if seen > 0 && Double(seen) >= f * Double(x[i]) { result.append(ids[i]) }
    }
    return result
  }
}
