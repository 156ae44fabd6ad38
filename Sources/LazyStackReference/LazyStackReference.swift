import Foundation
import LazyStackCore

/// The deliberately simple O(n) model of LazyStackCore's behaviour: plain
/// arrays and linear scans, written straight from SPEC.md. It is the tests'
/// oracle and the benchmark's `naive` variant, so its API mirrors
/// `LazyStackLayout`'s.
///
/// It shares only the vocabulary types and the fixed-point rounding helpers
/// with the core (so both round alike); every rule is implemented again here.
public struct LazyStackReference<ID: Hashable & Sendable>: Sendable {
  enum Anchor: Sendable {
    case automatic
    case edge(Edge)
    case point
    case row(ID, fraction: CGFloat, delta: Int64)
  }

  public private(set) var ids: [ID]
  /// Measured extents in units; nil: estimated.
  var measured: [Int64?]
  /// Ids of rows whose measurement was invalidated and not replaced since
  /// (SPEC S12: "estimated again after a measurement"). They follow their
  /// ids through edits and snapshots, like measured extents.
  var invalidatedIDs = Set<ID>()
  /// Roles other than `.row`, by id (SPEC H1): they follow their ids
  /// through edits and snapshots.
  var roleByID: [ID: RowRole] = [:]
  /// SPEC K1, K2: the rows' kinds (0 not kept) and own estimates, by id.
  var kindByID: [ID: UInt8] = [:]
  var ownByID: [ID: Int64] = [:]
  /// SPEC K1, K3: the estimates given to kinds other than 0, and the kinds
  /// whose estimate is the mean of their measured rows.
  var kindGiven: [UInt8: Int64] = [:]
  var kindMean: Set<UInt8> = []
  /// Every kind other than 0 ever given to a row, an estimate or a policy.
  var usedKinds: Set<UInt8> = []
  /// SPEC C3: a restore waiting for its row.
  var pendingRestore: LayoutSnapshot<ID>?
  /// The anchor the last place by points (C4) set, while it is the anchor.
  var pointsAnchor: (id: ID, fraction: CGFloat, delta: Int64)?
  /// Which section rows are pinned (SPEC H3–H6).
  public var pinnedViews: PinnedScrollableViews = []
  /// SPEC §12: the phase, its last change, and the motion in progress
  /// (see LazyStackReference+Motion.swift).
  public internal(set) var phase: ScrollPhase = .idle
  public internal(set) var lastPhaseChange: ScrollPhaseChange?
  var motionTarget: MotionTarget = .point(0)
  var motionTargetOffset: Int64 = 0
  var curve = ReferenceCurve.rest
  var motionRate: Double = 0
  var clock: Double = 0
  var givenEstimate: Int64
  var policy: EstimatePolicy = .fixed
  public var estimatePolicy: EstimatePolicy {
    get { policy }
    set {
      guard newValue != policy else { return }
      enter()
      defer { exit(.still) }
      let before = snapshotBefore()
      policy = newValue
      stabilize(before: before, cause: .estimateChange)
    }
  }
  public let axis: Axis
  public let spacing: CGFloat
  public let insets: EdgeInsets
  let spacingUnits: Int64
  let leadingUnits: Int64
  let trailingUnits: Int64
  var viewport: CGSize = .zero
  var offset: Int64 = 0
  var crossOffset: CGFloat = 0
  var anchor: Anchor = .automatic
  /// The position as last written; any write makes it current again.
  var storedPosition: ScrollPosition { didSet { positionStale = false } }
  /// A stabilization changed the layout under a position the user scrolled
  /// to: `position` names the row now at the anchor point (T1), derived when read.
  var positionStale = false

  /// SPEC T1: a user position reads as the row now at the anchor point.
  public var position: ScrollPosition {
    guard positionStale else { return storedPosition }
    var p: ScrollPosition
    if let i = trackedRow() { p = ScrollPosition(id: ids[i]) } else { p = ScrollPosition(idType: ID.self) }
    p.isPositionedByUser = true
    return p
  }
  var hasLaidOut = false
  var initialAnchor: UnitPoint?
  var sizeChangesAnchor: UnitPoint?
  var alignmentAnchor: UnitPoint?
  var scrollAnchorValue: UnitPoint?
  public var overscan: Overscan = .none
  public var crossAxisContentExtent: CGFloat? { didSet { clampCross() } }
  public var pinnedToEndTolerance: CGFloat = 1
  public internal(set) var lastCorrection: ScrollCorrection = .none
  public internal(set) var lastPositionResult: PositionResult = .none
  /// Whether the last stabilization could not put the anchor where it
  /// wanted: the offset was clamped (S10) or pinned to the end (D4). The
  /// model checks exempt such steps from S13.
  public private(set) var lastStabilizationWasClamped = false
  /// The batch in progress (SPEC U1), see LazyStackReference+Batch.swift.
  var batch: ReferenceBatch<ID>?
  /// SPEC §16's state.
  package var frameState = ReferenceFrame<ID>()
  /// Lanes (SPEC §13), see LazyStackReference+Lanes.swift: the layout of
  /// every section whose header has none of its own, the headers' own, and
  /// each masonry row's lane with the flow (layout and lane count) it was
  /// given under.
  var defaultSectionLayout: SectionLayout = .list
  var layoutByHeader: [ID: SectionLayout] = [:]
  var laneByID: [ID: (lane: Int, flow: Flow)] = [:]

  /// Creates the model; the same errors as `LazyStackLayout.init`.
  /// - Complexity: O(n).
  public init(
    ids: some Sequence<ID>, estimatedExtent: CGFloat, spacing: CGFloat = 0,
    axis: Axis = .vertical, insets: EdgeInsets = EdgeInsets()
  ) throws(LazyStackError) {
    guard let e = _FixedPoint.extentUnits(estimatedExtent) else {
      throw .invalidExtent(estimatedExtent, what: "estimated extent")
    }
    guard let s = _FixedPoint.extentUnits(spacing) else { throw .invalidExtent(spacing, what: "spacing") }
    for (v, name) in [(insets.top, "top inset"), (insets.leading, "leading inset"),
                      (insets.bottom, "bottom inset"), (insets.trailing, "trailing inset")]
    where !(v.isFinite && v >= 0) {
      throw .invalidExtent(v, what: name)
    }
    let list = Array(ids)
    var seen = Set<ID>()
    for (i, id) in list.enumerated() where !seen.insert(id).inserted {
      throw .duplicateID(String(describing: id), index: i)
    }
    self.ids = list
    measured = Array(repeating: nil, count: list.count)
    givenEstimate = e
    self.axis = axis
    spacingUnits = s
    self.spacing = _FixedPoint.points(s)
    self.insets = insets
    let m = axis == .vertical ? (insets.top, insets.bottom) : (insets.leading, insets.trailing)
    leadingUnits = min(_FixedPoint.units(m.0), _FixedPoint.maxExtentUnits)
    trailingUnits = min(_FixedPoint.units(m.1), _FixedPoint.maxExtentUnits)
    storedPosition = ScrollPosition(idType: ID.self)
  }

  // MARK: Geometry, the obvious way

  public var count: Int { ids.count }

  var estimate: Int64 {
    switch policy {
    case .fixed: return givenEstimate
    case .meanOfMeasured:
      let values = ids.indices.compactMap { kind(of: ids[$0]) == 0 ? measured[$0] : nil }
      if values.isEmpty { return givenEstimate }
      let n = Int64(values.count)
      return (values.reduce(0, +) + n / 2) / n
    }
  }

  public var currentEstimate: CGFloat { _FixedPoint.points(estimate) }

  func extent(_ i: Int) -> Int64 { measured[i] ?? ownByID[ids[i]] ?? kindEstimate(kind(of: ids[i])) }

  /// Every row's extent, in units.
  func extents() -> [Int64] {
    let e = estimate
    if kindByID.isEmpty && ownByID.isEmpty { return measured.map { $0 ?? e } }
    var byKind: [UInt8: Int64] = [0: e]
    return ids.indices.map { i in
      if let m = measured[i] { return m }
      if let own = ownByID[ids[i]] { return own }
      let k = kind(of: ids[i])
      if let known = byKind[k] { return known }
      let value = kindEstimate(k)
      byKind[k] = value
      return value
    }
  }

  /// Every row's start, in units, in unshifted content coordinates: its
  /// frame's main-axis start (with lanes, SPEC L3, L4).
  func starts() -> [Int64] {
    if hasLanes { return laneGeometry().starts }
    var result: [Int64] = []
    result.reserveCapacity(ids.count)
    var y = leadingUnits
    for e in extents() {
      result.append(y)
      y += e + spacingUnits
    }
    return result
  }

  /// Every row's frame (`frame(at:)` for all rows at once).
  public func frames() -> [CGRect] {
    if hasLanes {
      let g = laneGeometry()
      let e = extents()
      let shift = self.shift
      return ids.indices.map { frame(start: g.starts[$0], extent: e[$0], shift: shift, cross: g.cross[$0]) }
    }
    let s = starts()
    let e = extents()
    let shift = self.shift
    return ids.indices.map { frame(start: s[$0], extent: e[$0], shift: shift) }
  }

  var viewportUnits: Int64 { _FixedPoint.units(axis == .vertical ? viewport.height : viewport.width) }
  var viewportCross: CGFloat { axis == .vertical ? viewport.width : viewport.height }

  var contentUnits: Int64 {
    if hasLanes {
      let g = laneGeometry()
      return g.end - (ids.isEmpty ? 0 : spacingUnits) + trailingUnits
    }
    var total = leadingUnits + trailingUnits
    for e in extents() { total += e }
    if ids.count > 1 { total += Int64(ids.count - 1) * spacingUnits }
    return total
  }

  var maxOffsetUnits: Int64 { max(0, contentUnits - viewportUnits) }
  public var maxOffset: CGFloat { _FixedPoint.points(maxOffsetUnits) }

  var crossContent: CGFloat {
    if let c = crossAxisContentExtent, c.isFinite, c >= 0 { return c }
    return viewportCross
  }

  var shift: Int64 {
    let free = viewportUnits - contentUnits
    guard free > 0, let a = alignmentAnchor else { return 0 }
    return _FixedPoint.scale(free, by: _FixedPoint.fraction(a.fraction(along: axis)))
  }

  public var viewportSize: CGSize {
    get { viewport }
    set { setViewport(newValue) }
  }

  public var contentOffset: CGPoint {
    let main = _FixedPoint.points(offset)
    return axis == .vertical ? CGPoint(x: crossOffset, y: main) : CGPoint(x: main, y: crossOffset)
  }

  public var contentSize: CGSize {
    let main = _FixedPoint.points(contentUnits)
    return axis == .vertical ? CGSize(width: crossContent, height: main) : CGSize(width: main, height: crossContent)
  }

  public func index(of id: ID) -> Int? { ids.firstIndex(of: id) }
  public func id(at index: Int) -> ID { ids[index] }

  enum RowState { case estimated, invalidated, measured }

  func state(_ i: Int) -> RowState {
    if measured[i] != nil { return .measured }
    return invalidatedIDs.contains(ids[i]) ? .invalidated : .estimated
  }

  /// Whether row `index` is measured.
  public func isMeasured(at index: Int) -> Bool { measured[index] != nil }

  public func measuredExtent(for id: ID) -> CGFloat? {
    guard let i = index(of: id), let m = measured[i] else { return nil }
    return _FixedPoint.points(m)
  }

  public func frame(at index: Int) -> CGRect {
    if hasLanes {
      let g = laneGeometry()
      return frame(start: g.starts[index], extent: extent(index), shift: shift, cross: g.cross[index])
    }
    return frame(start: starts()[index], extent: extent(index), shift: shift)
  }

  /// A row's frame; `cross`, a lane's cross-axis start and width (nil: the
  /// whole cross extent less the insets).
  func frame(start: Int64, extent: Int64, shift: Int64, cross: (start: CGFloat, width: CGFloat)? = nil) -> CGRect {
    let main = _FixedPoint.points(shift + start)
    let length = _FixedPoint.points(extent)
    let c = axis == .vertical ? (insets.leading, insets.trailing) : (insets.top, insets.bottom)
    let (crossStart, crossLength) = cross ?? (c.0, max(0, crossContent - c.0 - c.1))
    return axis == .vertical
      ? CGRect(x: crossStart, y: main, width: crossLength, height: length)
      : CGRect(x: main, y: crossStart, width: length, height: crossLength)
  }

  public func frame(of id: ID) -> CGRect? { index(of: id).map { frame(at: $0) } }

  /// SPEC G4 by a linear scan.
  public func index(atOffset offset: CGFloat) -> Int? {
    guard !ids.isEmpty, !offset.isNaN else { return nil }
    return indexAt(_FixedPoint.units(offset) - shift)
  }

  func indexAt(_ y: Int64) -> Int {
    if hasLanes { return laneIndexAt(y) }
    let s = starts()
    let x = extents()
    let nonEmpty = ids.indices.filter { x[$0] > 0 }
    if nonEmpty.isEmpty {
      return ids.indices.first { s[$0] >= y } ?? ids.count - 1
    }
    if let i = nonEmpty.first(where: { s[$0] + x[$0] > y }) { return i }
    return nonEmpty.last!
  }

  /// SPEC G5: whether a row meets the window [low, high) (an empty row:
  /// when it starts inside it).
  static func meets(start s: Int64, extent e: Int64, low: Int64, high: Int64) -> Bool {
    e > 0 ? (s < high && s + e > low) : (s >= low && s < high)
  }

  func visible(low: Int64, high: Int64) -> Range<Int> {
    let s = starts()
    let x = extents()
    func isVisible(_ i: Int) -> Bool {
      let e = x[i]
      return Self.meets(start: s[i], extent: e, low: low, high: high)
    }
    let rows = ids.indices.filter(isVisible)
    if let first = rows.first { return first ..< rows.last! + 1 }
    // Empty: where the first visible row would be.
    let first = ids.indices.first { i in
      let e = x[i]
      return e > 0 ? s[i] + e > low : s[i] >= low
    } ?? ids.count
    return first ..< first
  }

  public var visibleIndices: Range<Int> {
    var before: Int64 = 0
    var after: Int64 = 0
    if case .points(let p) = overscan.before, p.isFinite, p > 0 { before = _FixedPoint.units(p) }
    if case .points(let p) = overscan.after, p.isFinite, p > 0 { after = _FixedPoint.units(p) }
    let v = viewportUnits
    if ids.isEmpty { return 0 ..< 0 }
    if v <= 0 {
      let r = visible(low: offset - shift, high: offset - shift)
      return r.lowerBound ..< r.lowerBound
    }
    let low = offset - shift - before
    var r = visible(low: low, high: low + v + before + after)
    if case .rows(let k) = overscan.before, k > 0, !r.isEmpty { r = max(0, r.lowerBound - k) ..< r.upperBound }
    if case .rows(let k) = overscan.after, k > 0, !r.isEmpty {
      r = r.lowerBound ..< min(ids.count, r.upperBound + min(k, ids.count))
    }
    return r
  }

  // MARK: Anchors and stabilization, the obvious way

  public var scrollAnchor: UnitPoint? {
    get { scrollAnchorValue }
    set {
      enter()
      defer { exit(.still) }
      if batch != nil { return outsideBatch { $0.scrollAnchor = newValue } }
      scrollAnchorValue = newValue
      if storedPosition.isPositionedByUser { track() }
    }
  }

  public mutating func defaultScrollAnchor(_ a: UnitPoint?) {
    initialAnchor = a
    sizeChangesAnchor = a
    alignmentAnchor = a
  }

  public mutating func defaultScrollAnchor(_ a: UnitPoint?, for role: ScrollAnchorRole) {
    switch role {
    case .initialOffset: initialAnchor = a
    case .sizeChanges: sizeChangesAnchor = a
    default: alignmentAnchor = a
    }
  }

  /// The anchor row as it was before a change (SPEC S12), and the offset
  /// its anchor asked for then (the real one unless S10 clamped it).
  struct AnchorRow { var id: ID; var start: Int64; var extent: Int64; var state: RowState; var keptOffset: Int64 }

  struct Before {
    var offset, maxOffset, content, viewport: Int64
    var anchorRow: AnchorRow?
  }

  func snapshotBefore() -> Before {
    var row: AnchorRow?
    if case .row(let id, let f, let d) = anchor, let i = index(of: id) {
      row = AnchorRow(id: id, start: starts()[i], extent: extent(i), state: state(i),
                      keptOffset: target(row: id, fraction: f, delta: d))
    }
    return Before(offset: offset, maxOffset: maxOffsetUnits, content: contentUnits, viewport: viewportUnits,
                  anchorRow: row)
  }

  enum Place { case keepDelta, place(Int64) }

  /// SPEC S12 and S1 for the anchor row's own change: where the viewport's
  /// anchor point lies in the row (from its start) afterwards. Everything is
  /// measured where the anchor kept the row (the viewport at `keptOffset`).
  func placeInAnchorRow(before b: Before, row: AnchorRow, fraction f: CGFloat, newExtent e2: Int64,
                        newState: RowState, survivor: Bool) -> Place {
    let v = b.viewport
    let point = row.keptOffset + _FixedPoint.scale(v, by: f)
    let p = point - row.start
    let e = row.extent
    let rowEnd = row.start + e
    if e == 0 {
      // An empty row grows toward the point.
      if row.start < point { return .place(p) }       // start stays
      if row.start > point { return .place(p + e2) }  // end stays
      return .keepDelta
    }
    // The point outside the row: the edge nearest to it stays.
    if row.start >= point { return .place(p) }
    if rowEnd <= point { return .place(p + e2 - e) }
    // The row in viewport coordinates before the change.
    let top = row.start - row.keptOffset
    let bottom = top + e
    func proportional() -> Int64 {
      if e2 < 2 { return 0 }
      // p * e2 / e, rounded half up, exactly (128-bit product).
      let (quotient, remainder) = e.dividingFullWidth(p.multipliedFullWidth(by: e2))
      let q = remainder * 2 >= e ? quotient + 1 : quotient
      return min(max(q, 1), e2 - 1)
    }
    if survivor { return .place(proportional()) }                 // (a) S5
    switch (row.state, newState) {
    case (.invalidated, _), (.measured, .invalidated), (.measured, .estimated):
      return .place(proportional())                               // (a) a re-layout
    case (.measured, .measured):                                  // (b) measured again
      let stillVisible = e2 > 0 ? (top < v && top + e2 > 0) : (top >= 0 && top < v)
      return .place(stillVisible ? p : max(0, e2 - 1))
    case (.estimated, _):                                         // (c) revealed
      let crossesLeading = top < 0 && bottom > 0
      let crossesTrailing = top < v && bottom > v
      if crossesLeading && !crossesTrailing { return .place(p + e2 - e) }
      if crossesTrailing && !crossesLeading { return .place(p) }
      return .place(proportional())
    }
  }

  func clamp(_ o: Int64) -> Int64 { min(max(0, o), maxOffsetUnits) }

  /// The anchor row's point minus the viewport's point, at `fraction`.
  func delta(ofRow i: Int, fraction f: CGFloat) -> Int64 {
    let s = starts()[i]
    return s + _FixedPoint.scale(extent(i), by: f) - offset - _FixedPoint.scale(viewportUnits, by: f)
  }

  /// Where the row anchor puts the offset: R3's formula; for a pending
  /// programmatic target (not a user position), in the viewport less the
  /// pinned header and footer of H6.
  func target(row id: ID, fraction f: CGFloat, delta d: Int64, programmatic: Bool? = nil) -> Int64 {
    let i = index(of: id)!
    let s = starts()[i]
    let e = extent(i)
    let v = viewportUnits
    let plain = s + _FixedPoint.scale(e, by: f) - _FixedPoint.scale(v, by: f) - d
    let (lead, trail) = (programmatic ?? !keepsPlaceOnScreen) ? pinnedInsets(i) : (0, 0)
    if lead == 0 && trail == 0 { return plain }
    let t = s + _FixedPoint.scale(e, by: f) - lead - _FixedPoint.scale(v - lead - trail, by: f) - d
    // H6 gives way when the row would land outside the viewport (no room
    // under the pinned rows): S13 keeps it on screen.
    let place = s - t
    let meets = e > 0 ? place < v && place + e > 0 : place >= 0 && place <= v
    return meets ? t : plain
  }

  /// SPEC H6: what the leading and trailing edges of the viewport lose for
  /// a programmatic target of row i: its section header's extent (headers
  /// pinned, i not the header), and its footer's (footers pinned too, i not
  /// the footer).
  func pinnedInsets(_ i: Int) -> (Int64, Int64) {
    guard pinnedViews.contains(.sectionHeaders), role(at: i) != .sectionHeader else { return (0, 0) }
    let s = section(containing: i)
    guard role(at: s.lowerBound) == .sectionHeader else { return (0, 0) }
    let f = s.upperBound - 1
    let trail = pinnedViews.contains(.sectionFooters) && f != i && role(at: f) == .sectionFooter ? extent(f) : 0
    return (extent(s.lowerBound), trail)
  }

  // MARK: Sections (SPEC §11), the obvious O(n) way

  public func role(at index: Int) -> RowRole { roleByID[ids[index]] ?? .row }

  @discardableResult
  public mutating func setRole(_ role: RowRole, for id: ID) -> Bool {
    enter()
    defer { exit(.still) }
    guard index(of: id) != nil else { return false }
    changingSections { $0.roleByID[id] = role == .row ? nil : role }
    return true
  }

  /// Gives many rows their roles at once (the benchmark's untimed setup:
  /// `setRole` finds each id by a scan).
  public mutating func _setRoles(_ roles: [ID: RowRole]) {
    changingSections { model in
      for (id, role) in roles { model.roleByID[id] = role == .row ? nil : role }
    }
  }

  /// A change of roles: in a list nothing moves; with lanes (SPEC §13) the
  /// sections' rows are laid out anew (L4: rows that entered a masonry
  /// section get lanes), then stabilized.
  mutating func changingSections(_ change: (inout Self) -> Void) {
    guard hasLanes else { return change(&self) }
    let before = snapshotBefore()
    change(&self)
    settleLanes()
    stabilize(before: before, cause: .snapshot)
  }

  /// SPEC H2: walk back to a header, the first row or a footer's successor;
  /// walk on to a footer, the row before a header or the last row.
  public func section(containing index: Int) -> Range<Int> {
    var lower = index
    while lower > 0 && role(at: lower) != .sectionHeader && role(at: lower - 1) != .sectionFooter { lower -= 1 }
    var upper = index
    while upper < count - 1 && role(at: upper) != .sectionFooter && role(at: upper + 1) != .sectionHeader { upper += 1 }
    return lower ..< upper + 1
  }

  /// SPEC H3–H5.
  public var pinnedRows: [PinnedRow] {
    let v = viewportUnits
    guard !ids.isEmpty, v > 0 else { return [] }
    let low = offset - shift
    let vis = visible(low: low, high: low + v)
    guard !vis.isEmpty else { return [] }
    let s = starts()
    var result: [PinnedRow] = []
    if pinnedViews.contains(.sectionHeaders) {
      let sec = section(containing: vis.lowerBound)
      let h = sec.lowerBound
      if role(at: h) == .sectionHeader {
        let end = sec.map { s[$0] + extent($0) }.max()!  // with lanes, the longest lane's end (L4)
        let y = max(s[h], min(low, end - extent(h)))
        result.append(PinnedRow(index: h, frame: frame(start: y, extent: extent(h), shift: shift)))
      }
    }
    if pinnedViews.contains(.sectionFooters) {
      let sec = section(containing: vis.upperBound - 1)
      let f = sec.upperBound - 1
      if role(at: f) == .sectionFooter {
        let y = min(s[f], max(low + v - extent(f), s[sec.lowerBound]))
        result.append(PinnedRow(index: f, frame: frame(start: y, extent: extent(f), shift: shift)))
      }
    }
    return result
  }

  mutating func clampCross() {
    crossOffset = min(max(0, crossOffset), max(0, crossContent - viewportCross))
  }

  @discardableResult
  mutating func stabilize(before: Before, cause: ScrollCorrection.Cause) -> ScrollCorrection {
    if batch != nil { return deferStabilization(cause: cause) }
    let sf = _FixedPoint.fraction(sizeChangesAnchor?.fraction(along: axis) ?? 0)
    let tol = pinnedToEndTolerance.isFinite && pinnedToEndTolerance > 0 ? _FixedPoint.units(pinnedToEndTolerance) : 0
    let endVisible = before.offset >= before.maxOffset - tol
    let pinned = sf >= 1 && endVisible && hasLaidOut
    var t: Int64
    switch anchor {
    case .automatic:
      if !hasLaidOut || sf == 0 {
        t = before.offset
      } else if sf >= 1 {
        t = pinned ? maxOffsetUnits : before.offset
      } else {
        t = before.offset + _FixedPoint.scale((contentUnits - before.content) - (viewportUnits - before.viewport), by: sf)
      }
    case .edge(let e):
      t = (e == .top || e == .leading) ? 0 : maxOffsetUnits
    case .point:
      t = before.offset
    case .row(let id, let f, var d):
      let i = index(of: id)!
      if keepsPlaceOnScreen, let row = before.anchorRow, row.id != id || row.extent != extent(i),
         case .place(let place) = placeInAnchorRow(before: before, row: row, fraction: f, newExtent: extent(i),
                                                   newState: state(i), survivor: row.id != id) {
        d = _FixedPoint.scale(extent(i), by: f) - place
        anchor = .row(id, fraction: f, delta: d)
      }
      t = pinned ? maxOffsetUnits : target(row: id, fraction: f, delta: d)
    }
    offset = clamp(t)
    lastStabilizationWasClamped = offset != t || pinned
    if pinned, case .row(let id, let f, _) = anchor {
      anchor = .row(id, fraction: f, delta: target(row: id, fraction: f, delta: 0) - offset)
    }
    clampCross()
    // SPEC T1: a user position reads as the row now at the viewport's anchor point.
    if storedPosition.isPositionedByUser { positionStale = true }
    if phase == .animating || phase == .decelerating { motionDidSettle(shift: offset - before.offset) }
    lastCorrection = ScrollCorrection(offsetDelta: _FixedPoint.points(offset - before.offset),
                                      contentOffset: contentOffset, cause: cause)
    return lastCorrection
  }

  mutating func setViewport(_ size: CGSize) {
    enter()
    defer { exit(.still) }
    if batch != nil { return outsideBatch { $0.setViewport(size) } }
    func clean(_ v: CGFloat) -> CGFloat { v.isFinite && v > 0 ? _FixedPoint.points(_FixedPoint.units(v)) : 0 }
    let before = snapshotBefore()
    let old = viewport
    viewport = CGSize(width: clean(size.width), height: clean(size.height))
    if viewport != old { frameState.reset = true }  // F6 (e)
    settleLanes()  // L2: a new adaptive lane count re-flows its sections
    if !hasLaidOut && viewportUnits > 0 {
      hasLaidOut = true
      if case .automatic = anchor {
        offset = _FixedPoint.scale(maxOffsetUnits, by: _FixedPoint.fraction(initialAnchor?.fraction(along: axis) ?? 0))
        clampCross()
        lastCorrection = ScrollCorrection(offsetDelta: _FixedPoint.points(offset - before.offset),
                                          contentOffset: contentOffset, cause: .viewportResize)
        return
      }
    }
    stabilize(before: before, cause: .viewportResize)
  }

  public mutating func setPosition(_ p: ScrollPosition) {
    enter()
    defer { exit(.still) }
    if batch != nil { return outsideBatch { $0.setPosition(p) } }
    // SPEC R5: an unknown id changes nothing, not even a motion.
    if p.isPositionedByUser || p.viewID == nil || (p.viewID as? ID).flatMap(index(of:)) != nil { stopMotion() }
    if !p.isPositionedByUser && (p.viewID == nil || (p.viewID as? ID).flatMap(index(of:)) != nil) { pendingRestore = nil }
    if p.isPositionedByUser {
      storedPosition = p
      lastPositionResult = .userPositionStored
      return
    }
    let before = offset
    if p.isAutomatic {
      anchor = .automatic
    } else if let e = p.edge {
      anchor = .edge(e)
      offset = (e == .top || e == .leading) ? 0 : maxOffsetUnits
    } else if let any = p.viewID {
      guard let id = any as? ID, let i = index(of: id) else {
        lastPositionResult = .unknownID(String(describing: any))
        return
      }
      // SPEC H6: the viewport less the pinned header (and footer).
      let (lead, trail) = pinnedInsets(i)
      if let a = p.anchor ?? scrollAnchorValue {
        anchor = .row(id, fraction: _FixedPoint.anchorFraction(a.fraction(along: axis)), delta: 0)
      } else {
        let s = starts()[i]
        let e = s + extent(i)
        let top = offset + lead
        let v = viewportUnits - lead - trail
        if s >= top && e <= top + v {
          anchor = .row(id, fraction: 0, delta: s - top)
        } else if s < top || extent(i) > v {
          anchor = .row(id, fraction: 0, delta: 0)
        } else {
          anchor = .row(id, fraction: 1, delta: 0)
        }
      }
      storedPosition = p  // programmatic: `target` applies H6
      if case .row(let id, let f, let d) = anchor { offset = clamp(target(row: id, fraction: f, delta: d)) }
    } else {
      anchor = .point
      let main = axis == .vertical ? p.y : p.x
      let cross = axis == .vertical ? p.x : p.y
      if let main, !main.isNaN { offset = main == .infinity ? maxOffsetUnits : clamp(_FixedPoint.units(main)) }
      if let cross, !cross.isNaN { crossOffset = cross == .infinity ? .greatestFiniteMagnitude : cross }
    }
    storedPosition = p
    frameState.reset = true  // F6 (e)
    clampCross()
    lastCorrection = ScrollCorrection(offsetDelta: _FixedPoint.points(offset - before),
                                      contentOffset: contentOffset, cause: .programmaticScroll)
    lastPositionResult = .resolved(lastCorrection)
  }

  public mutating func userScroll(to point: CGPoint) {
    enter()
    defer { exit(.travel) }
    if batch != nil { return outsideBatch { $0.userScroll(to: point) } }
    let startOffset = offset
    defer { if offset != startOffset { frameState.forward = offset > startOffset } }
    stopMotion()
    pendingRestore = nil
    let main = axis == .vertical ? point.y : point.x
    let cross = axis == .vertical ? point.x : point.y
    if !main.isNaN { offset = main == .infinity ? maxOffsetUnits : clamp(_FixedPoint.units(main)) }
    if !cross.isNaN {
      crossOffset = cross == .infinity ? .greatestFiniteMagnitude : cross
      clampCross()
    }
    track()
  }

  /// SPEC T1: the row at the viewport's anchor point, clamped into the
  /// visible rows; nil when none is visible.
  func trackedRow() -> Int? {
    let f = _FixedPoint.fraction(scrollAnchorValue?.fraction(along: axis) ?? 0)
    let v = viewportUnits
    let low = offset - shift
    let vis = ids.isEmpty || v <= 0 ? 0 ..< 0 : visible(low: low, high: low + v)
    if vis.isEmpty { return nil }
    if hasLanes { return laneTrackedRow(low: low, point: low + _FixedPoint.scale(v, by: f), high: low + v) }
    return min(max(indexAt(low + _FixedPoint.scale(v, by: f)), vis.lowerBound), vis.upperBound - 1)
  }

  /// SPEC T1, T3; without `setPosition` (an animation's steps, M5) only
  /// the kept row is chosen.
  mutating func track(setPosition: Bool = true) {
    let f = _FixedPoint.fraction(scrollAnchorValue?.fraction(along: axis) ?? 0)
    guard let i = trackedRow() else {
      anchor = .automatic
      if setPosition {
        storedPosition = ScrollPosition(idType: ID.self)
        storedPosition.isPositionedByUser = true
      }
      return
    }
    // SPEC T3: keep the tracked row if it is measured, else the measured
    // visible row nearest to the anchor point (ties: the earlier row).
    var kept = i
    if measured[i] == nil {
      let v = viewportUnits
      let low = offset - shift
      let point = low + _FixedPoint.scale(v, by: f)
      let s = starts()
      let x = extents()
      var best: (row: Int, distance: Int64)?
      // With lanes the visible range may hold rows off screen (L6: among the rows that meet it).
      func meets(_ r: Int) -> Bool { Self.meets(start: s[r], extent: x[r], low: low, high: low + v) }
      for r in visible(low: low, high: low + v) where measured[r] != nil && meets(r) {
        let distance = point < s[r] ? s[r] - point : max(0, point - (s[r] + x[r]))
        if best == nil || distance < best!.distance { best = (r, distance) }
      }
      if let best { kept = best.row }
    }
    anchor = .row(ids[kept], fraction: f, delta: delta(ofRow: kept, fraction: f))
    guard setPosition else { return }
    storedPosition = ScrollPosition(id: ids[i])
    storedPosition.isPositionedByUser = true
  }

  // MARK: Measurements and data

  @discardableResult
  public mutating func setMeasuredExtent(_ e: CGFloat, for id: ID) -> MeasurementResult {
    enter()
    defer { exit(.still) }
    guard let u = _FixedPoint.extentUnits(e) else { return .rejected(.invalidExtent(e, what: "measured extent")) }
    guard let i = index(of: id) else { return .unknownID }
    if measured[i] == u { return .unchanged }
    let before = snapshotBefore()
    measured[i] = u
    invalidatedIDs.remove(id)
    return .applied(correction: stabilize(before: before, cause: .measurement))
  }

  @discardableResult
  public mutating func invalidateMeasurement(for id: ID) -> Bool {
    enter()
    defer { exit(.still) }
    guard let i = index(of: id) else { return false }
    guard measured[i] != nil else { return true }
    let before = snapshotBefore()
    measured[i] = nil
    invalidatedIDs.insert(id)
    stabilize(before: before, cause: .measurement)
    return true
  }

  /// Every measured row becomes invalidated; one stabilization.
  public mutating func invalidateAllMeasurements() {
    enter()
    defer { exit(.still) }
    let before = snapshotBefore()
    for i in ids.indices where measured[i] != nil {
      measured[i] = nil
      invalidatedIDs.insert(ids[i])
    }
    stabilize(before: before, cause: .measurement)
  }

  /// Measures every row at once (the core's `_measureAllRows`), one stabilization.
  public mutating func _measureAllRows(_ extent: (Int) -> CGFloat) {
    let before = snapshotBefore()
    for i in ids.indices { measured[i] = _FixedPoint.extentUnits(extent(i))! }
    invalidatedIDs.removeAll()
    stabilize(before: before, cause: .measurement)
  }

  /// Measures unmeasured visible rows until a pass applies nothing (at most 1,024 passes).
  public mutating func measureVisibleRows(_ extent: (Int, ID) -> CGFloat) {
    measureVisibleRows { i, id, _ in extent(i, id) }
  }

  @discardableResult
  public mutating func setEstimatedExtent(_ e: CGFloat) throws(LazyStackError) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    guard let u = _FixedPoint.extentUnits(e) else { throw .invalidExtent(e, what: "estimated extent") }
    let before = snapshotBefore()
    givenEstimate = u
    return stabilize(before: before, cause: .estimateChange)
  }

  @discardableResult
  public mutating func update(ids newIDs: some Sequence<ID>) throws(LazyStackError) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    return try replace(with: Array(newIDs), cause: .snapshot)
  }

  mutating func replace(with list: [ID], cause: ScrollCorrection.Cause) throws(LazyStackError) -> ScrollCorrection {
    var seen = Set<ID>()
    for (i, id) in list.enumerated() where !seen.insert(id).inserted {
      throw .duplicateID(String(describing: id), index: i)
    }
    var kept: [ID: Int64] = [:]
    for (i, id) in ids.enumerated() { if let m = measured[i] { kept[id] = m } }
    let before = snapshotBefore()
    func survivor(of id: ID) -> ID? {
      let old = index(of: id)!
      return ids[(old + 1)...].first { seen.contains($0) } ?? ids[..<old].last { seen.contains($0) }
    }
    // SPEC M4: an animation's target row gone: its survivor (S5), or the animation stops.
    if phase == .animating, case .row(let id, let f, let d) = motionTarget, !seen.contains(id) {
      if let r = survivor(of: id) {
        motionTarget = .row(r, fraction: f, delta: d)
        storedPosition = ScrollPosition(id: r, anchor: storedPosition.anchor)
      } else {
        setPhase(.idle)
        storedPosition = ScrollPosition(idType: ID.self)
      }
    }
    if case .row(let id, let f, let d) = anchor, !seen.contains(id) {
      let user = storedPosition.isPositionedByUser
      let r = survivor(of: id)
      anchor = r.map { .row($0, fraction: f, delta: d) } ?? .automatic
      // A place by points (C4) handed to the survivor stays one.
      if let kept = pointsAnchor, kept.id == id, kept.fraction == f, kept.delta == d, let r { pointsAnchor = (r, f, d) }
      if phase != .animating {  // during an animation `position` holds its target
        storedPosition = r.map { ScrollPosition(id: $0, anchor: storedPosition.anchor) } ?? ScrollPosition(idType: ID.self)
        storedPosition.isPositionedByUser = user
      }
    }
    ids = list
    measured = list.map { kept[$0] }
    invalidatedIDs.formIntersection(seen)
    roleByID = roleByID.filter { seen.contains($0.key) }
    layoutByHeader = layoutByHeader.filter { seen.contains($0.key) }
    kindByID = kindByID.filter { seen.contains($0.key) }
    ownByID = ownByID.filter { seen.contains($0.key) }
    settleLanes()  // L4: new rows get lanes; the others keep theirs
    let correction = stabilize(before: before, cause: cause)
    if pendingRestore != nil {
      resumeRestore()
      if pendingRestore == nil { return lastCorrection }
    }
    return correction
  }

  // MARK: Edits, as snapshots (SPEC E2 says they must be the same thing)

  @discardableResult
  public mutating func insert(_ new: some Collection<ID>, at index: Int) throws(LazyStackError) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    var seen = Set<ID>()
    let existing = Set(ids)
    for (i, id) in new.enumerated() where existing.contains(id) || !seen.insert(id).inserted {
      throw .duplicateID(String(describing: id), index: i)
    }
    var list = ids
    list.insert(contentsOf: new, at: index)
    return try replace(with: list, cause: .edit)
  }

  @discardableResult
  public mutating func remove(atOffsets offsets: IndexSet) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    var list = ids
    list.remove(atOffsets: offsets)
    return try! replace(with: list, cause: .edit)
  }

  @discardableResult
  public mutating func remove(ids gone: some Sequence<ID>) throws(LazyStackError) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    let set = Set(gone)
    let existing = Set(ids)
    for id in gone where !existing.contains(id) { throw .unknownID(String(describing: id)) }
    return try replace(with: ids.filter { !set.contains($0) }, cause: .edit)
  }

  @discardableResult
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    var list = ids
    list.move(fromOffsets: source, toOffset: destination)
    return try! replace(with: list, cause: .edit)
  }

  @discardableResult
  public mutating func apply(_ difference: CollectionDifference<ID>) throws(LazyStackError) -> ScrollCorrection {
    enter()
    defer { exit(.still) }
    var removed = Set<ID>()
    for case .remove(let o, let id, _) in difference.removals {
      guard ids[o] == id else { throw .unknownID(String(describing: id)) }
      removed.insert(id)
    }
    var inserted = Set<ID>()
    let existing = Set(ids)
    for case .insert(let o, let id, _) in difference.insertions
    where (existing.contains(id) && !removed.contains(id)) || !inserted.insert(id).inserted {
      throw .duplicateID(String(describing: id), index: o)
    }
    guard let list = ids.applying(difference) else { preconditionFailure("difference does not apply") }
    return try replace(with: list, cause: .edit)
  }

  /// The heap bytes of the model's arrays, from their capacities.
  public var heapBytes: Int {
    64 + ids.capacity * MemoryLayout<ID>.stride + measured.capacity * MemoryLayout<Int64?>.stride
  }

  /// SPEC S13's test: whether the anchor row intersects the viewport (a
  /// zero-extent row: touches it), on screen and also where its anchor keeps
  /// it (the two differ only while S10 clamps the offset); nil without a row
  /// anchor, with an empty viewport, or for a programmatic anchor whose
  /// fraction lies outside 0...1 (R3 applies it as written and R6 re-resolves
  /// it exactly: nothing promises that row a place on screen).
  public var anchorRowIntersectsViewport: Bool? {
    guard case .row(let id, let f, let d) = anchor, f >= 0 && f <= 1,
          let i = index(of: id), viewportUnits > 0 else { return nil }
    let start = starts()[i]
    let e = extent(i)
    func meets(_ low: Int64, _ high: Int64) -> Bool {
      e > 0 ? (start < high && start + e > low) : (start >= low && start <= high)
    }
    let kept = target(row: id, fraction: f, delta: d)
    return meets(offset - shift, offset - shift + viewportUnits) && meets(kept, kept + viewportUnits)
  }

  /// The tracked or anchored row, for comparisons.
  public var anchorRowID: ID? {
    if case .row(let id, _, _) = anchor { return id }
    return nil
  }
}

extension RangeReplaceableCollection where Self: MutableCollection, Index == Int {
  /// SwiftUI's `onMove` semantics, written out for the reference model.
  mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    let moving = source.map { self[$0] }
    let before = source.count(in: 0 ..< destination)
    remove(atOffsets: source)
    insert(contentsOf: moving, at: destination - before)
  }

  mutating func remove(atOffsets offsets: IndexSet) {
    for i in offsets.reversed() { remove(at: i) }
  }
}
