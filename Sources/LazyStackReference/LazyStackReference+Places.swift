import Foundation
import LazyStackCore

// SPEC C1–C4, the obvious way: a snapshot read off the arrays, a restore
// that writes them, and a waiting restore checked after every edit.

extension LazyStackReference {
  /// SPEC C1; inside a batch, the model as the batch's changes so far
  /// stabilize (U1).
  public func snapshot() -> LayoutSnapshot<ID> {
    if let b = batch {
      var settled = self
      settled.batch = nil
      _ = settled.stabilize(before: b.before, cause: b.cause)
      return settled.snapshot()
    }
    var s = LayoutSnapshot<ID>()
    for (i, id) in ids.enumerated() {
      if let m = measured[i] {
        s._measuredIDs.append(id)
        s._measuredUnits.append(Int32(m))
      }
      if let own = ownByID[id] {
        s._ownIDs.append(id)
        s._ownUnits.append(Int32(own))
      }
      if let k = kindByID[id], k != 0 {
        s._kindIDs.append(id)
        s._kinds.append(k)
      }
    }
    s.kindSettings = [.init(kind: 0, estimate: _FixedPoint.points(givenEstimate), policy: policy)]
    for k in usedKinds.sorted() {
      s.kindSettings.append(.init(kind: k, estimate: kindGiven[k].map(_FixedPoint.points),
                                  policy: kindMean.contains(k) ? .meanOfMeasured : .fixed))
    }
    if hasLanes {
      let lanes = laneGeometry().lanes
      for plan in sectionPlans() {
        // The section, its runs (lanes that repeat every k rows: from row
        // 0, and from each row off its run's lanes where the 2k rows from
        // it repeat), and the other rows off their run's lanes, listed.
        guard case .masonry = plan.layout, !plan.body.isEmpty else { continue }
        let k = plan.lanes
        let own = plan.body.map { lanes[$0] }
        var runs = [LayoutSnapshot<ID>.MasonrySection.Run(start: 0, lanes: (0 ..< k).map { $0 < own.count ? own[$0] : $0 })]
        for j in own.indices where own[j] != runs.last!.lanes[(j - runs.last!.start) % k] {
          if j + 2 * k <= own.count && (0 ..< k).allSatisfy({ own[j + $0] == own[j + k + $0] }) {
            runs.append(.init(start: j, lanes: Array(own[j ..< j + k])))
          } else {
            s._appendLane(of: ids[plan.body.lowerBound + j], lane: UInt8(own[j]), countLessOne: UInt8(k - 1))
          }
        }
        s._masonrySections.append(.init(firstID: ids[plan.body.lowerBound], rowCount: own.count, laneCount: k, runs: runs))
      }
    }
    s.place = readingPlace
    if let pendingRestore {
      // C3: the place it waits to land, and its entries for ids that are
      // not rows yet, after this layout's own.
      let present = Set(ids)
      s.place = pendingRestore.place
      for (id, u) in zip(pendingRestore._measuredIDs, pendingRestore._measuredUnits) where !present.contains(id) {
        s._measuredIDs.append(id)
        s._measuredUnits.append(u)
      }
      for (id, u) in zip(pendingRestore._ownIDs, pendingRestore._ownUnits) where !present.contains(id) {
        s._ownIDs.append(id)
        s._ownUnits.append(u)
      }
      for (id, k) in zip(pendingRestore._kindIDs, pendingRestore._kinds) where !present.contains(id) {
        s._kindIDs.append(id)
        s._kinds.append(k)
      }
      // While a masonry section waits, every waiting lane, in place of
      // this layout's own entry for the row.
      let sections = pendingRestore.masonrySections.filter { !present.contains($0.firstID) }
      let lanes = pendingRestore.masonryLanes.filter { !sections.isEmpty || !present.contains($0.id) }
      let replaced = Set(lanes.map(\.id))
      let own = s.masonryLanes.filter { !replaced.contains($0.id) }
      (s._laneIDs, s._lanes, s._laneCountsLessOne) = ([], [], [])
      for e in own + lanes {
        s._laneIDs.append(e.id)
        s._lanes.append(UInt8(e.lane))
        s._laneCountsLessOne.append(UInt8(e.laneCount - 1))
      }
      s._masonrySections += sections
    }
    return s
  }

  /// C3: what a restore whose row is not here yet waits with: its
  /// settings, its place, and its entries of ids that are not rows.
  static func waiting(_ snapshot: LayoutSnapshot<ID>, present: Set<ID>) -> LayoutSnapshot<ID> {
    var w = LayoutSnapshot<ID>()
    w.kindSettings = snapshot.kindSettings
    w.place = snapshot.place
    for (id, u) in zip(snapshot._measuredIDs, snapshot._measuredUnits) where !present.contains(id) {
      w._measuredIDs.append(id)
      w._measuredUnits.append(u)
    }
    for (id, u) in zip(snapshot._ownIDs, snapshot._ownUnits) where !present.contains(id) {
      w._ownIDs.append(id)
      w._ownUnits.append(u)
    }
    for (id, k) in zip(snapshot._kindIDs, snapshot._kinds) where !present.contains(id) {
      w._kindIDs.append(id)
      w._kinds.append(k)
    }
    // A section whose first row is here was restored (or changed): only
    // one that has not arrived waits, and then with every listed lane.
    w._masonrySections = snapshot.masonrySections.filter { !present.contains($0.firstID) }
    for e in snapshot.masonryLanes where !w._masonrySections.isEmpty || !present.contains(e.id) {
      w._laneIDs.append(e.id)
      w._lanes.append(UInt8(e.lane))
      w._laneCountsLessOne.append(UInt8(e.laneCount - 1))
    }
    return w
  }

  /// The kept row and the distance from its start to the viewport's
  /// anchor point: the anchor row, else the row whose pitch holds that
  /// point (the scroll anchor's; the trailing edge when pinned there).
  var readingPlace: LayoutSnapshot<ID>.Place? {
    guard !ids.isEmpty else { return nil }
    let f: CGFloat
    var i: Int
    let s = starts()
    let x = extents()
    var keptByAnchor = false
    if case .row(let id, let fraction, _) = anchor, let at = index(of: id) {
      f = fraction
      i = at
      keptByAnchor = true
    } else {
      if case .edge(let e) = anchor {
        f = (e == .top || e == .leading) ? 0 : 1
      } else {
        f = _FixedPoint.fraction(scrollAnchorValue?.fraction(along: axis) ?? 0)
      }
      let y = offset + _FixedPoint.scale(viewportUnits, by: f)
      i = ids.indices.first { s[$0] + x[$0] + spacingUnits > y } ?? ids.count - 1
    }
    let y = offset + _FixedPoint.scale(viewportUnits, by: f)
    var p = y - s[i]
    if !pinnedViews.isEmpty {
      // C2 lands the place as R3 does, under pinned rows (H6): the distance
      // that lands row j at this offset. The target is H6's line while the
      // row meets the viewport less the pinned rows, else R3's: the delta
      // that puts either line at the offset, where the target agrees.
      let v = viewportUnits
      func landing(_ j: Int) -> Int64? {
        let (lead, trail) = pinnedInsets(j)
        let lines = [s[j] + _FixedPoint.scale(x[j], by: f) - lead - _FixedPoint.scale(v - lead - trail, by: f),
                     s[j] + _FixedPoint.scale(x[j], by: f) - _FixedPoint.scale(v, by: f)]
        let line = lines.first { target(row: ids[j], fraction: f, delta: $0 - offset, programmatic: true) == offset }
        return line.map { _FixedPoint.scale(x[j], by: f) - ($0 - offset) }
      }
      if let d = landing(i) {
        p = d
      } else if !keptByAnchor {
        // The point is in the spacing after row i, which is off screen:
        // the first row after it that lands exactly, of those that start
        // before the viewport's far edge.
        for j in i + 1 ..< ids.count {
          if s[j] >= offset + v { break }
          if let d = landing(j) {
            i = j
            p = d
            break
          }
        }
      }
    }
    let a = axis == .vertical ? UnitPoint(x: 0.5, y: f) : UnitPoint(x: f, y: 0.5)
    return .init(id: ids[i], distance: _FixedPoint.points(p), anchor: a)
  }

  /// SPEC C4.
  public mutating func scrollTo(id: ID, distance: CGFloat, anchor a: UnitPoint?) {
    enter()
    defer { exit(.still) }
    if batch != nil { return outsideBatch { $0.scrollTo(id: id, distance: distance, anchor: a) } }
    guard let i = index(of: id) else {
      lastPositionResult = .unknownID(String(describing: id))
      return
    }
    pendingRestore = nil
    stopMotion()
    let unit = a ?? scrollAnchorValue ?? .top
    let before = offset
    let f = _FixedPoint.anchorFraction(unit.fraction(along: axis))
    let p = distance.isFinite ? _FixedPoint.units(distance) : 0
    let d = _FixedPoint.scale(extent(i), by: f) - p
    anchor = .row(id, fraction: f, delta: d)
    pointsAnchor = (id, f, d)
    storedPosition = ScrollPosition(id: id, anchor: unit)
    offset = clamp(target(row: id, fraction: f, delta: d))
    frameState.reset = true  // F6 (e)
    clampCross()
    lastCorrection = ScrollCorrection(offsetDelta: _FixedPoint.points(offset - before),
                                      contentOffset: contentOffset, cause: .programmaticScroll)
    lastPositionResult = .resolved(lastCorrection)
  }

  /// SPEC C2, C3.
  public mutating func restore(_ snapshot: LayoutSnapshot<ID>) {
    enter()
    defer { exit(.still) }
    pendingRestore = nil
    let before = snapshotBefore()
    let present = Set(ids)
    let indexOf = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    for setting in snapshot.kindSettings {
      let units = setting.estimate.flatMap(_FixedPoint.extentUnits)
      if setting.kind == 0 {
        if let units { givenEstimate = units }
        policy = setting.policy
      } else {
        usedKinds.insert(setting.kind)
        kindGiven[setting.kind] = units
        if setting.policy == .meanOfMeasured { kindMean.insert(setting.kind) } else { kindMean.remove(setting.kind) }
      }
    }
    for (id, u) in zip(snapshot._measuredIDs, snapshot._measuredUnits) where present.contains(id) {
      measured[indexOf[id]!] = Int64(u)
      invalidatedIDs.remove(id)
    }
    for (id, k) in zip(snapshot._kindIDs, snapshot._kinds) where present.contains(id) {
      kindByID[id] = k == 0 ? nil : k
      if k != 0 { usedKinds.insert(k) }
    }
    for (id, u) in zip(snapshot._ownIDs, snapshot._ownUnits) where present.contains(id) { ownByID[id] = Int64(u) }
    // C1, C2: a masonry section named unchanged (first row, row count,
    // lane count) takes its runs' lanes, row j of a run from row s in the
    // run's lane (j - s) mod k; then a listed row takes its lane back in a
    // masonry section of the lane count it had.
    if !snapshot._laneIDs.isEmpty || !snapshot.masonrySections.isEmpty {
      var flowOf: [ID: Flow] = [:]
      for plan in sectionPlans() {
        guard case .masonry = plan.layout else { continue }
        let flow = Flow(layout: plan.layout, lanes: plan.lanes)
        for i in plan.body { flowOf[ids[i]] = flow }
        let saved = plan.body.isEmpty ? nil : snapshot.masonrySections.first {
          $0.firstID == ids[plan.body.lowerBound] && $0.rowCount == plan.body.count && $0.laneCount == plan.lanes
        }
        if let saved {
          for i in plan.body {
            let j = i - plan.body.lowerBound
            let run = saved.runs.last { $0.start <= j }!
            laneByID[ids[i]] = (run.lanes[(j - run.start) % plan.lanes], flow)
          }
        }
      }
      for entry in snapshot.masonryLanes {
        guard let flow = flowOf[entry.id], flow.lanes == entry.laneCount else { continue }
        laneByID[entry.id] = (entry.lane, flow)
      }
    }
    stabilize(before: before, cause: .snapshot)
    guard let place = snapshot.place else { return }
    if present.contains(place.id) {
      scrollTo(id: place.id, distance: place.distance, anchor: place.anchor)
    } else {
      pendingRestore = Self.waiting(snapshot, present: present)
    }
  }

  public var isRestorePending: Bool { pendingRestore != nil }

  /// Whether the anchor row's kept point (the viewport's anchor point, a
  /// distance from the row's start) lies outside the row: a place given in
  /// points (C4) may ask for that, and then nothing keeps the row itself on
  /// screen (S13 does not apply).
  public var anchorPointOutsideRow: Bool {
    guard case .row(let id, let f, let d) = anchor, let i = index(of: id) else { return false }
    // Only a place by points that is still the anchor (C4): a user's kept
    // row (T3) may have the viewport's point outside it too, and S13 holds there.
    guard let kept = pointsAnchor, kept.id == id, kept.fraction == f, kept.delta == d else { return false }
    let e = extent(i)
    let p = _FixedPoint.scale(e, by: f) - d
    return p < 0 || p > e
  }

  /// After an edit: a waiting restore whose row is here now applies.
  mutating func resumeRestore() {
    guard let pending = pendingRestore, let place = pending.place, index(of: place.id) != nil else { return }
    restore(pending)
  }
}
