import Foundation
import LazyStackCore

/// SPEC §16 kept the obvious way: the ids when a call began (a set of them
/// all), every frame computed afresh at its end.
package struct ReferenceFrame<ID: Hashable & Sendable>: Sendable {
  var depth = 0
  var startOffset: Int64 = 0
  /// The ids when the call began (an array: a copy costs nothing until
  /// the list changes; made a set only when a trigger may re-arm).
  var idsAtStart: [ID] = []
  var reset = false
  /// F6's f.
  var thumb: Double = 0
  /// F3: [leading, trailing].
  var armed = [true, true]
  var queue: [Edge] = []
  var distance: CGFloat?
  var kept: Set<ID> = []
  /// F5: the last offset change's direction, forward before any.
  package var forward = true
}

/// How a call moves the indicator (F6 b–e).
enum ReferenceCall {
  case still, travel, drag(Double), reset
}

extension LazyStackReference {
  // MARK: Calls

  mutating func enter() {
    if frameState.depth == 0 {
      frameState.startOffset = offset
      frameState.idsAtStart = ids
    }
    frameState.depth += 1
  }

  mutating func exit(_ call: ReferenceCall) {
    frameState.depth -= 1
    if frameState.depth == 0 { endOfCall(call) }
  }

  /// F6 and F3 after an outermost call.
  mutating func endOfCall(_ call: ReferenceCall) {
    let o = Double(frameState.startOffset)
    let now = Double(offset)
    let m = Double(maxOffsetUnits)
    var f = frameState.thumb
    let kind = frameState.reset ? .reset : call
    frameState.reset = false
    switch kind {
    case .still: break
    case .reset: f = m > 0 ? now / m : 0
    case .drag(let g): f = g
    case .travel:
      if now > o { f = m > o ? f + (1 - f) * (now - o) / (m - o) : 1 }
      if now < o { f = f - f * (o - now) / o }
    }
    // (a) the ends.
    if now == 0 || m == 0 {
      f = 0
    } else if now == m {
      f = 1
    } else if f <= 0 || f >= 1 {
      f = now / m
    }
    frameState.thumb = f
    // F3.
    let v = viewportUnits
    guard v > 0 else { return }
    let d = edgeTriggerDistance
    let near = [distance(to: .top) <= d, distance(to: .bottom) <= d]
    let low = offset, high = offset + v
    // The rows this call inserted beyond the viewport toward an end: asked
    // only of a disarmed end that is near (the only case they decide).
    func arrivedBeyond(_ end: Int) -> Bool {
      let before = Set(frameState.idsAtStart)
      let spans = mainSpans()
      return ids.indices.contains { i in
        guard !before.contains(ids[i]) else { return false }
        let (s, e) = spans[i]
        if Self.meets(start: s, extent: e, low: low, high: high) { return false }
        return end == 0 ? s < low : s >= high
      }
    }
    for end in 0 ..< 2 {
      if !frameState.armed[end] && (!near[end] || arrivedBeyond(end)) { frameState.armed[end] = true }
      if frameState.armed[end] && near[end] && !ids.isEmpty {
        frameState.queue.append(end == 0 ? (axis == .vertical ? .top : .leading) : (axis == .vertical ? .bottom : .trailing))
        frameState.armed[end] = false
      }
    }
  }

  /// Every row's main-axis start and extent in units, in the coordinates of
  /// `contentOffset`.
  func mainSpans() -> [(Int64, Int64)] {
    frames().map { r in
      axis == .vertical ? (_FixedPoint.units(r.minY), _FixedPoint.units(r.height))
        : (_FixedPoint.units(r.minX), _FixedPoint.units(r.width))
    }
  }

  /// The rows whose frames meet `[low, high)` (content units), in index
  /// order, given every row's span (`mainSpans()`).
  func rowsMeeting(_ low: Int64, _ high: Int64, in spans: [(Int64, Int64)]) -> [Int] {
    guard high > low else { return [] }
    return ids.indices.filter { Self.meets(start: spans[$0].0, extent: spans[$0].1, low: low, high: high) }
  }

  // MARK: F1, F2

  public func proposedSize(at index: Int) -> CGSize {
    let r = frame(at: index)
    return axis == .vertical ? CGSize(width: r.width, height: .infinity) : CGSize(width: .infinity, height: r.height)
  }

  public var keptIDs: Set<ID> {
    get { frameState.kept }
    set {
      enter()
      frameState.kept = newValue
      exit(.still)
    }
  }

  public var rowsToDraw: [Int] {
    var rows = Set(hasLanes ? visibleRows : Array(visibleIndices))
    for p in pinnedRows { rows.insert(p.index) }
    for id in frameState.kept { if let i = index(of: id) { rows.insert(i) } }
    return rows.sorted()
  }

  /// F1, F2: every unmeasured row to draw, until a pass applies nothing.
  public mutating func measureVisibleRows(_ extent: (Int, ID, CGSize) -> CGFloat) {
    enter()
    defer { exit(.still) }
    guard viewportUnits > 0, viewportCross > 0 else { return }
    for _ in 0 ..< 1024 {
      var applied = false
      for i in rowsToDraw where measured[i] == nil {
        if setMeasuredExtent(extent(i, ids[i], proposedSize(at: i)), for: ids[i]).isApplied { applied = true }
      }
      if !applied { return }
    }
  }

  // MARK: F3

  public var edgeTriggerDistance: CGFloat {
    get { frameState.distance ?? _FixedPoint.points(viewportUnits) }
    set {
      guard newValue.isFinite else { return }
      enter()
      frameState.distance = max(0, newValue)
      exit(.still)
    }
  }

  public mutating func takeEdgeEvents() -> [Edge] {
    enter()
    defer { exit(.still) }
    let q = frameState.queue
    frameState.queue = []
    return q
  }

  public mutating func rearmEdgeTriggers() {
    enter()
    frameState.armed = [true, true]
    exit(.still)
  }

  /// The queue without taking it (the model checks compare it every step).
  public var pendingEdgeEvents: [Edge] { frameState.queue }

  // MARK: F4

  public func distance(to edge: Edge) -> CGFloat {
    _FixedPoint.points(edge == .top || edge == .leading ? offset : maxOffsetUnits - offset)
  }

  var endTolerance: Int64 {
    pinnedToEndTolerance.isFinite && pinnedToEndTolerance > 0 ? _FixedPoint.units(pinnedToEndTolerance) : 0
  }

  public var isAtStart: Bool { offset <= endTolerance }
  public var isAtEnd: Bool { maxOffsetUnits - offset <= endTolerance }

  public var rowsAfterViewport: Int {
    let high = offset + viewportUnits
    let spans = mainSpans()
    if let last = rowsMeeting(offset, high, in: spans).last { return ids.count - 1 - last }
    return spans.filter { $0.0 >= high }.count
  }

  // MARK: F5

  public func prefetchRows(ahead: CGFloat, behind: CGFloat) -> [Int] {
    let v = viewportUnits
    guard v > 0, !ids.isEmpty else { return [] }
    func units(_ p: CGFloat) -> Int64 { p.isFinite && p > 0 ? min(_FixedPoint.units(p), _FixedPoint.maxExtentUnits) : 0 }
    let a = units(ahead), b = units(behind)
    var taken = Set(rowsToDraw)
    var out: [Int] = []
    let moving = phase == .decelerating || phase == .animating
    let landing = moving ? (resolvedTarget() ?? clamp(motionTargetOffset)) : offset
    let spans = mainSpans()
    if moving {
      for i in rowsMeeting(landing, landing + v, in: spans) where !taken.contains(i) {
        taken.insert(i)
        out.append(i)
      }
    }
    var forward = frameState.forward
    if moving && landing != offset { forward = landing > offset }
    func gap(_ i: Int, _ low: Int64, _ high: Int64) -> Int64 {
      let (s, e) = spans[i]
      if s >= high { return s - high }
      if e > 0 && s + e <= low { return low - (s + e) }
      if e == 0 && s < low { return low - s }
      return 0
    }
    func band(_ low: Int64, _ high: Int64, _ wl: Int64, _ wh: Int64) {
      let rows = rowsMeeting(low, high, in: spans).filter { !taken.contains($0) }
        .sorted { (gap($0, wl, wh), $0) < (gap($1, wl, wh), $1) }
      for i in rows {
        taken.insert(i)
        out.append(i)
      }
    }
    if forward {
      band(landing + v, landing + v + a, landing, landing + v)
      band(offset - b, offset, offset, offset + v)
    } else {
      band(landing - a, landing, landing, landing + v)
      band(offset + v, offset + v + b, offset, offset + v)
    }
    return out
  }

  // MARK: F6, F7

  public var scrollIndicator: ScrollIndicator {
    let c = contentUnits
    return ScrollIndicator(position: frameState.thumb, length: c > 0 ? min(1, Double(viewportUnits) / Double(c)) : 1)
  }

  public mutating func dragIndicator(to position: Double) {
    guard position.isFinite else { return }
    enter()
    let g = min(1, max(0, position))
    let f = frameState.thumb
    let o = Double(offset), m = Double(maxOffsetUnits)
    var y = o
    if g == 1 { y = m } else if g == 0 { y = 0 } else if g > f { y = o + (g - f) / (1 - f) * (m - o) } else if g < f { y = o - (f - g) / f * o }
    let u = Int64(min(max(0, y.rounded()), m))
    userScroll(to: axis == .vertical ? CGPoint(x: CGFloat.nan, y: _FixedPoint.points(u)) : CGPoint(x: _FixedPoint.points(u), y: .nan))
    exit(.drag(g))
  }

  public mutating func scrollTo(index: Int, anchor: UnitPoint? = nil) {
    precondition(index >= 0 && index < ids.count, "Row index \(index) out of range 0..<\(ids.count)")
    enter()
    var p = position
    p.scrollTo(id: ids[index], anchor: anchor)
    setPosition(p)
    exit(.still)
  }
}
