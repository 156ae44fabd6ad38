import Foundation
import LazyStackCore

// SPEC §13, lanes, the obvious way: every frame computed from scratch, a
// section at a time, and each masonry row's lane kept by id.

extension LazyStackReference {
  /// What a masonry row's lane was given under: its section's layout and
  /// lane count. A row whose flow is not its section's now is placed again
  /// by L4's rule (its section re-flowed, or it entered the section).
  struct Flow: Hashable {
    var layout: SectionLayout
    var lanes: Int
  }

  /// One section (SPEC H2) and its layout (L1), with its lane count (L2).
  struct SectionPlan {
    var rows: Range<Int>
    var header: Int?
    var footer: Int?
    var layout: SectionLayout
    var lanes: Int
    /// The rows other than the header and footer: the ones in lanes.
    var body: Range<Int> {
      (header.map { $0 + 1 } ?? rows.lowerBound) ..< (footer ?? rows.upperBound)
    }
  }

  /// Every row's place with lanes: its main-axis start, its lane's cross
  /// start and width (nil: the whole cross extent), the start view-aligned
  /// snapping aligns it by (its grid line's start, else its own: L7), its
  /// lane (0 outside lanes), and where a row after the last would start.
  struct LaneGeometry {
    var starts: [Int64]
    var cross: [(start: CGFloat, width: CGFloat)?]
    var snaps: [Int64]
    var lanes: [Int]
    var end: Int64
  }

  /// Whether any section can have lanes (else every path is the list's).
  package var hasLanes: Bool { defaultSectionLayout != .list || layoutByHeader.values.contains { $0 != .list } }

  /// The layout-wide section layout (SPEC L1): every section whose header
  /// has none of its own. Setting it re-flows those sections; the kept row
  /// keeps its place on screen.
  /// - Complexity: O(n) (the reference computes everything from scratch).
  public var sectionLayout: SectionLayout {
    get { defaultSectionLayout }
    set {
      guard newValue != defaultSectionLayout else { return }
      enter()
      defer { exit(.reset) }
      let before = snapshotBefore()
      defaultSectionLayout = newValue
      settleLanes()
      stabilize(before: before, cause: .snapshot)
    }
  }

  /// Gives the section of header `id` its own layout (nil: the layout-wide
  /// one again); it follows the id, as roles do (SPEC L1, H1). Returns
  /// false for an id that is not a row.
  /// - Complexity: O(n).
  @discardableResult
  public mutating func setSectionLayout(_ layout: SectionLayout?, forHeader id: ID) -> Bool {
    enter()
    defer { exit(.still) }
    guard index(of: id) != nil else { return false }
    guard layoutByHeader[id] != layout else { return true }
    frameState.reset = true  // F6 (e)
    let before = snapshotBefore()
    layoutByHeader[id] = layout
    settleLanes()
    stabilize(before: before, cause: .snapshot)
    return true
  }

  /// The cross extent lanes share (SPEC L2): the viewport's, less the
  /// cross insets.
  var laneCrossExtent: CGFloat {
    let c = axis == .vertical ? insets.leading + insets.trailing : insets.top + insets.bottom
    return max(0, viewportCross - c)
  }

  /// SPEC L2, computed here (not by `LaneCount.count`): `.fixed(k)` is k;
  /// `.adaptive(minimum: w)` is the most lanes, at least 1 and at most 256
  /// (`LaneCount`'s documented clamp), of which k lanes of w with the k - 1
  /// spacings between them fit in the cross extent c: k w + (k - 1) s <= c,
  /// which is k = floor((c + s) / (w + s)).
  package static func laneCount(_ count: LaneCount, crossExtent c: CGFloat, spacing s: CGFloat) -> Int {
    switch count {
    case .fixed(let k):
      return k
    case .adaptive(let w):
      var k = 1
      while k < 256 && CGFloat(k + 1) * w + CGFloat(k) * s <= c { k += 1 }
      return k
    }
  }

  /// The sections in order, each with its layout and lane count.
  func sectionPlans() -> [SectionPlan] {
    var result: [SectionPlan] = []
    var i = 0
    while i < count {
      let rows = section(containing: i)
      let header = role(at: rows.lowerBound) == .sectionHeader ? rows.lowerBound : nil
      let last = rows.upperBound - 1
      let footer = role(at: last) == .sectionFooter && last != header ? last : nil
      let layout = header.flatMap { layoutByHeader[ids[$0]] } ?? defaultSectionLayout
      let lanes = layout.lanes.map { Self.laneCount($0.count, crossExtent: laneCrossExtent, spacing: $0.spacing) } ?? 1
      result.append(SectionPlan(rows: rows, header: header, footer: footer, layout: layout, lanes: lanes))
      i = rows.upperBound
    }
    return result
  }

  /// The lane L4's rule gives a row whose section's lanes end at `ends`:
  /// the one that ends first, the lowest on ties.
  static func laneEndingFirst(_ ends: [Int64]) -> Int {
    var best = 0
    for j in ends.indices where ends[j] < ends[best] { best = j }
    return best
  }

  /// SPEC L4: every masonry row whose lane was given under another flow
  /// (or none: it entered the layout) is placed by the rule, in index
  /// order, from its section's lane ends at that point; the others keep
  /// their lanes. Rows outside masonry sections lose theirs, so a section
  /// that becomes masonry again re-flows.
  mutating func settleLanes() {
    guard hasLanes || !laneByID.isEmpty else { return }
    let e = extents()
    var keep = Set<ID>()
    var y = leadingUnits  // only the relative lane ends matter for the rule
    for plan in sectionPlans() {
      guard case .masonry = plan.layout else { continue }
      let flow = Flow(layout: plan.layout, lanes: plan.lanes)
      var ends = Array(repeating: y, count: plan.lanes)
      for i in plan.body {
        let id = ids[i]
        let lane: Int
        if let given = laneByID[id], given.flow == flow, given.lane < plan.lanes {
          lane = given.lane
        } else {
          lane = Self.laneEndingFirst(ends)
          laneByID[id] = (lane, flow)
        }
        keep.insert(id)
        ends[lane] += e[i] + spacingUnits
      }
      y = ends.max() ?? y
    }
    laneByID = laneByID.filter { keep.contains($0.key) }
  }

  /// Every row's place with lanes (SPEC L2–L4), from scratch.
  func laneGeometry() -> LaneGeometry {
    let e = extents()
    let n = count
    var g = LaneGeometry(starts: Array(repeating: 0, count: n), cross: Array(repeating: nil, count: n),
                         snaps: Array(repeating: 0, count: n), lanes: Array(repeating: 0, count: n), end: leadingUnits)
    let c = laneCrossExtent
    let crossLead = axis == .vertical ? insets.leading : insets.top
    var y = leadingUnits
    func place(_ i: Int, at start: Int64) {
      g.starts[i] = start
      g.snaps[i] = start
    }
    for plan in sectionPlans() {
      guard let (_, laneSpacing) = plan.layout.lanes else {
        for i in plan.rows {
          place(i, at: y)
          y += e[i] + spacingUnits
        }
        continue
      }
      if let h = plan.header {
        place(h, at: y)
        y += e[h] + spacingUnits
      }
      let k = plan.lanes
      let width = max(0, (c - CGFloat(k - 1) * laneSpacing) / CGFloat(k))
      func cross(_ lane: Int) -> (start: CGFloat, width: CGFloat) {
        (crossLead + CGFloat(lane) * (width + laneSpacing), width)
      }
      switch plan.layout {
      case .grid(let grid):
        // SPEC L3: lines of k; a line as long as its longest row; each row
        // at the alignment's share of what its line has to spare.
        // (The alignment is validated to 0...1 when the grid is made; the
        // share is rounded to the nearest unit, halves away from zero.)
        let a = Double(grid.alignment)
        var lineStart = plan.body.lowerBound
        while lineStart < plan.body.upperBound {
          let line = lineStart ..< min(lineStart + k, plan.body.upperBound)
          let longest = line.map { e[$0] }.max()!
          for (lane, i) in line.enumerated() {
            g.starts[i] = y + Int64((Double(longest - e[i]) * a).rounded(.toNearestOrAwayFromZero))
            g.snaps[i] = y
            g.lanes[i] = lane
            g.cross[i] = cross(lane)
          }
          y += longest + spacingUnits
          lineStart = line.upperBound
        }
      case .masonry:
        // SPEC L4: after the previous row of its lane; the section ends
        // where its longest lane ends.
        var ends = Array(repeating: y, count: k)
        let flow = Flow(layout: plan.layout, lanes: k)
        for i in plan.body {
          // Every edit, role, layout and viewport change settles the lanes
          // (`settleLanes`), so each row here has one given under this flow.
          guard let given = laneByID[ids[i]], given.flow == flow, given.lane < k else {
            preconditionFailure("LazyStackReference: row \(i) has no lane under its section's flow")
          }
          let lane = given.lane
          place(i, at: ends[lane])
          g.lanes[i] = lane
          g.cross[i] = cross(lane)
          ends[lane] += e[i] + spacingUnits
        }
        y = ends.max()!
      case .list:
        break
      }
      if let f = plan.footer {
        place(f, at: y)
        y += e[f] + spacingUnits
      }
    }
    g.end = y
    return g
  }

  /// The starts view-aligned snapping aligns to (SPEC L7), sorted, each
  /// once: grid line starts and every other row's start.
  func snapStarts() -> [Int64] {
    guard hasLanes else { return starts() }
    return Array(Set(laneGeometry().snaps)).sorted()
  }

  /// Each row's snapping start (its grid line's start, else its own).
  func rowSnapStarts() -> [Int64] {
    hasLanes ? laneGeometry().snaps : starts()
  }

  /// The layout in force for row `index`'s section (SPEC L1).
  /// - Complexity: O(n).
  public func sectionLayout(at index: Int) -> SectionLayout {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    guard hasLanes else { return .list }
    let rows = section(containing: index)
    let header = role(at: rows.lowerBound) == .sectionHeader ? ids[rows.lowerBound] : nil
    return header.flatMap { layoutByHeader[$0] } ?? defaultSectionLayout
  }

  /// Row `index`'s lane: its column (vertical) or row (horizontal) in a
  /// grid or masonry section, 0 in a list and for headers and footers.
  /// - Complexity: O(n).
  public func lane(at index: Int) -> Int {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    return hasLanes ? laneGeometry().lanes[index] : 0
  }

  /// Every row's lane (`lane(at:)` for all rows at once).
  /// - Complexity: O(n).
  public func lanes() -> [Int] {
    hasLanes ? laneGeometry().lanes : Array(repeating: 0, count: count)
  }

  /// SPEC L5: the lowest index among the rows whose span holds `y`; where
  /// none does, G4 lane by lane (the lowest of each lane's answer, where a
  /// lane holds its rows and every row that spans the lanes).
  func laneIndexAt(_ y: Int64) -> Int {
    let g = laneGeometry()
    let x = extents()
    if let holding = ids.indices.first(where: { x[$0] > 0 && g.starts[$0] <= y && y < g.starts[$0] + x[$0] }) {
      return holding
    }
    let plans = sectionPlans()
    var inLanes = Array(repeating: false, count: count)
    var maxLanes = 1
    for plan in plans where plan.layout != .list {
      for i in plan.body { inLanes[i] = true }
      maxLanes = max(maxLanes, plan.lanes)
    }
    var best = Int.max
    for lane in 0 ..< maxLanes {
      let rows = ids.indices.filter { !inLanes[$0] || g.lanes[$0] == lane }
      guard !rows.isEmpty else { continue }
      let nonEmpty = rows.filter { x[$0] > 0 }
      let answer: Int
      if nonEmpty.isEmpty {
        answer = rows.first { g.starts[$0] >= y } ?? rows.last!
      } else {
        answer = nonEmpty.first { g.starts[$0] + x[$0] > y } ?? nonEmpty.last!
      }
      best = min(best, answer)
    }
    return best == Int.max ? count - 1 : best
  }

  /// SPEC T1 with lanes (L6): the row at the anchor point (L5) if it meets
  /// the viewport; else the row meeting it nearest to the point along the
  /// main axis (the lower index on ties). A list clamps the row into the
  /// visible range, which holds only rows on screen; with lanes that range
  /// may hold rows that are not (a shorter lane's last row, say).
  func laneTrackedRow(low: Int64, point: Int64, high: Int64) -> Int? {
    let s = starts()
    let x = extents()
    func meets(_ i: Int) -> Bool { Self.meets(start: s[i], extent: x[i], low: low, high: high) }
    let at = indexAt(point)
    if meets(at) { return at }
    var best: (row: Int, distance: Int64)?
    for i in ids.indices where meets(i) {
      let distance = point < s[i] ? s[i] - point : max(0, point - (s[i] + x[i]))
      if best == nil || distance < best!.distance { best = (i, distance) }
    }
    return best?.row
  }

  /// SPEC L5: exactly the rows that intersect the viewport (its overscan
  /// included), in index order; `visibleIndices` is the smallest range
  /// holding them (plus rows of overscan by rows).
  /// - Complexity: O(n).
  public var visibleRows: [Int] {
    let range = visibleIndices
    guard !range.isEmpty else { return [] }
    var before: Int64 = 0
    var after: Int64 = 0
    if case .points(let p) = overscan.before, p.isFinite, p > 0 { before = _FixedPoint.units(p) }
    if case .points(let p) = overscan.after, p.isFinite, p > 0 { after = _FixedPoint.units(p) }
    let low = offset - shift - before
    let high = offset - shift + viewportUnits + after
    let s = starts()
    let x = extents()
    func meets(_ i: Int) -> Bool { Self.meets(start: s[i], extent: x[i], low: low, high: high) }
    let meeting = range.filter(meets)
    guard let first = meeting.first, let last = meeting.last else { return Array(range) }
    // Rows added by overscan in rows lie outside the meeting ones.
    return range.filter { meets($0) || $0 < first || $0 > last }
  }

  /// SPEC L5: the row whose frame holds `point` (content coordinates), or
  /// nil (spacing, past a lane's end, an empty row).
  /// - Complexity: O(n).
  public func index(at point: CGPoint) -> Int? {
    guard !point.x.isNaN, !point.y.isNaN else { return nil }
    return frames().firstIndex { $0.contains(point) }
  }
}
