import Foundation

// SPEC §13 across sections: which sections have lanes, and where every row
// is once they do. The extent tree stays the one store of ids, extents and
// roles, laid out as a list; this overlay keeps, for each grid or masonry
// section, its body's lane structure and how much the lanes change the
// body's extent from the list's (its *correction*). A row's start is its
// list start plus the corrections of the lane sections before it, or, in a
// lane section's body, the body's start plus the row's start in its lanes.

/// One grid or masonry section's body in lanes (SPEC L3, L4).
@usableFromInline
package enum _LaneRun: Sendable {
  case grid(_GridLines, alignment: CGFloat)
  case masonry(_MasonryLanes)

  /// The rows in lanes.
  @inlinable
  package var count: Int {
    switch self {
    case .grid(let g, _): g.count
    case .masonry(let m): m.count
    }
  }

  /// The body's pitch in lanes.
  @inlinable
  package var pitch: Int64 {
    switch self {
    case .grid(let g, _): g.pitch
    case .masonry(let m): m.pitch
    }
  }

  /// The lanes.
  @inlinable
  package var lanes: Int {
    switch self {
    case .grid(let g, _): g.k
    case .masonry(let m): m.k
    }
  }
}

/// A grid or masonry section (SPEC L1) and its body in lanes.
@usableFromInline
package struct _LaneSection<ID: Hashable & Sendable>: Sendable {
  /// The section's header, or nil for a section that has none (the rows
  /// before the first header, or after a footer).
  @usableFromInline package var header: ID?
  /// Its layout (`.grid` or `.masonry`).
  @usableFromInline package var layout: SectionLayout
  /// The index of its body's first row (after the header).
  @usableFromInline package var bodyStart: Int
  /// The body of a grid section, or nil. Exactly one of `grid` and
  /// `masonry` is set (`_checkInvariants(equals:)` checks it). Two
  /// optionals rather than an enum, so that an edit changes a body in
  /// place (`grid!.insert(...)`): a payload cannot be changed in place, and
  /// taking it out and back (an enum tried on 2026-12-04, three runs
  /// beside this) cost a measurement on screen in a 1M-row masonry about
  /// half again (0.68–0.74 µs to 1.07–1.12 µs) and a grid insert a quarter,
  /// in retains and releases of the body's buffers.
  @usableFromInline package var grid: _GridLines?
  /// The body of a masonry section, or nil.
  @usableFromInline package var masonry: _MasonryLanes?
  /// A grid's alignment (0 in masonry).
  @usableFromInline package var alignment: CGFloat

  /// The body, to read.
  @inlinable
  package var run: _LaneRun {
    if let grid { return .grid(grid, alignment: alignment) }
    return .masonry(masonry.unsafelyUnwrapped)
  }
  /// The body's pitch as a list (its rows' extents plus spacing): what the
  /// extent tree counts for it.
  @usableFromInline package var listPitch: Int64

  @inlinable
  package init(header: ID?, layout: SectionLayout, bodyStart: Int, run: _LaneRun, listPitch: Int64) {
    self.header = header
    self.layout = layout
    self.bodyStart = bodyStart
    switch run {
    case .grid(let g, let a):
      grid = g
      masonry = nil
      alignment = a
    case .masonry(let m):
      grid = nil
      masonry = m
      alignment = 0
    }
    self.listPitch = listPitch
  }

  /// The rows in lanes.
  @inlinable @inline(__always)
  package var body: Range<Int> { bodyStart ..< bodyStart &+ (grid?.count ?? masonry.unsafelyUnwrapped.count) }

  /// The body's pitch in lanes.
  @inlinable @inline(__always)
  package var pitch: Int64 { grid?.pitch ?? masonry.unsafelyUnwrapped.pitch }

  /// What the lanes add to the list's pitch of the body (negative when
  /// they save room, as they usually do).
  @inlinable @inline(__always)
  package var correction: Int64 { pitch &- listPitch }
}

/// A masonry row's lane and the flow it was given under (its section's
/// layout and lane count): a row whose section now has another flow is
/// placed again (L1, L2, L4).
@usableFromInline
package struct _KeptLane: Sendable, Equatable {
  @usableFromInline package var lane: Int
  @usableFromInline package var layout: SectionLayout
  @usableFromInline package var lanes: Int

  @inlinable
  package init(lane: Int, layout: SectionLayout, lanes: Int) {
    self.lane = lane
    self.layout = layout
    self.lanes = lanes
  }
}

/// How the rows of the tree relate to the rows the lane sections were last
/// laid out from: what a re-layout needs to keep masonry rows in their
/// lanes (L4) without keeping a lane per id.
@usableFromInline
package enum _LaneKeep<ID: Hashable & Sendable>: Sendable {
  /// The same rows, in the same order (a measurement, an estimate, a
  /// role, a layout or the viewport changed).
  case sameRows
  /// `count` rows were inserted at `index` since.
  case inserted(at: Int, count: Int)
  /// The rows at these sorted indices were removed since.
  case removed([Int])
  /// The rows changed otherwise (a move, `apply`, `update(ids:)`): every
  /// masonry row's lane by id, taken before the change.
  case byID([ID: _KeptLane])

  /// Whether the rows are the ones the sections were laid out from.
  @inlinable
  package var isSameRows: Bool {
    if case .sameRows = self { return true }
    return false
  }
}

/// Every grid and masonry section of a layout, over its extent tree (SPEC
/// §13): `nil` in a layout where every section is a list, so a list pays
/// nothing for lanes.
@usableFromInline
package struct _LaneLayout<ID: Hashable & Sendable>: Sendable {
  /// The layout of every section whose header has none of its own (L1).
  @usableFromInline package var defaultLayout: SectionLayout
  /// The headers' own layouts (L1), by header id.
  @usableFromInline package var layoutByHeader: [ID: SectionLayout]
  /// The cross extent lanes share: the viewport's less the cross insets (L2).
  @usableFromInline package var crossExtent: CGFloat
  /// Where lane 0 starts across: the leading cross inset.
  @usableFromInline package var crossLead: CGFloat
  /// The lane sections in row order.
  @usableFromInline package var sections: ContiguousArray<_LaneSection<ID>>
  /// The sections' corrections, in a Fenwick tree by section position.
  @usableFromInline package var corrections: _FenwickTree<Int>
  /// How the tree's rows changed since these sections were laid out, when
  /// an edit did not change them in place: the next re-layout reads each
  /// masonry row's lane from them through it (L4: a row keeps its lane
  /// through measurements, edits and snapshots, until its section
  /// re-flows).
  @usableFromInline package var pendingKeep: _LaneKeep<ID> = .sameRows
  /// Whether an edit since the last stabilization already brought the
  /// sections up to date in place (SPEC L8), so the next stabilization
  /// need not lay them out again; consumed by it.
  @usableFromInline package var current: Bool = false
  /// Kind 0's estimate (units) the sections were brought up to: a masonry
  /// body reads it for its rows that follow it (`setEstimate(_:in:)`).
  @usableFromInline package var estimate: Int64

  /// Whether any section can have lanes.
  @inlinable
  package var hasLanes: Bool { defaultLayout != .list || layoutByHeader.values.contains { $0 != .list } }

  /// The sum of every section's correction.
  /// - Complexity: O(log s) for s lane sections.
  @inlinable
  package var totalCorrection: Int64 { Int64(corrections.prefix(sections.count)) }

  /// The corrections of the first `p` lane sections.
  /// - Complexity: O(log s).
  @inlinable @inline(__always)
  package func correction(before p: Int) -> Int64 { Int64(corrections.prefix(p)) }

  /// The layout in force for a section whose header is `header` (L1).
  /// - Complexity: O(1) expected.
  @inlinable
  package func layout(forHeader header: ID?) -> SectionLayout {
    header.flatMap { layoutByHeader[$0] } ?? defaultLayout
  }

  /// The lane count of `layout` in this cross extent (L2).
  /// - Complexity: O(1).
  @inlinable
  package func laneCount(_ layout: SectionLayout) -> Int {
    guard let lanes = layout.lanes else { return 1 }
    return lanes.count.count(crossExtent: crossExtent, spacing: lanes.spacing)
  }

  /// The lane sections' layouts and bodies from `tree`, with `spacing`
  /// after each row. Masonry rows keep the lane they have in `old` (found
  /// through its `pendingKeep`) when their section there had the same
  /// layout and lane count; the others are placed by L4's rule, in index
  /// order (a re-flow).
  /// - Complexity: O(n) (the rows of lane sections, and a role search a
  ///   section); O(n) expected with lanes kept by id.
  @inlinable
  package init(tree: ExtentTree<ID>, defaultLayout: SectionLayout, layoutByHeader: [ID: SectionLayout],
               crossExtent: CGFloat, crossLead: CGFloat, keeping old: _LaneLayout<ID>? = nil)
  {
    self.defaultLayout = defaultLayout
    self.layoutByHeader = layoutByHeader
    self.crossExtent = crossExtent
    self.crossLead = crossLead
    estimate = tree.estimate
    sections = []
    corrections = _FenwickTree()
    var kept = _KeptLanes(old)
    var i = 0
    let n = tree.count
    while i < n {
      let rows = tree.section(containing: i)
      i = rows.upperBound
      if let section = _section(of: rows, in: tree, kept: &kept) { sections.append(section) }
    }
    _rebuildCorrections()
  }

  /// The lane section of the tree's section `rows`, laid out; nil when its
  /// layout is a list. Masonry rows keep the lanes `kept` has for them.
  /// - Complexity: O(k m) for the section's m rows.
  @inlinable
  package func _section(of rows: Range<Int>, in tree: ExtentTree<ID>, kept: inout _KeptLanes<ID>) -> _LaneSection<ID>? {
    let header: ID? = tree.role(at: rows.lowerBound) == ExtentTree<ID>._headerRole ? tree.id(at: rows.lowerBound) : nil
    let layout = self.layout(forHeader: header)
    guard layout != .list else { return nil }
    let last = rows.upperBound &- 1
    let hasFooter = tree.role(at: last) == ExtentTree<ID>._footerRole && (header == nil || last != rows.lowerBound)
    let body = (header == nil ? rows.lowerBound : rows.lowerBound &+ 1) ..< (hasFooter ? last : rows.upperBound)
    let k = laneCount(layout)
    if case .masonry = layout, var m = kept.sameBody(body, layout: layout, lanes: k) {
      // The same rows in the same body and flow (a measurement, an
      // estimate, a restore): every row keeps its lane; only the extents
      // are read again.
      let listPitch = m._refreshExtents(from: tree, rows: body)
      return _LaneSection(header: header, layout: layout, bodyStart: body.lowerBound, run: .masonry(m), listPitch: listPitch)
    }
    var extents: [Int64] = []
    extents.reserveCapacity(body.count)
    var listPitch: Int64 = 0
    let e0 = tree.estimate
    let s = tree.spacing
    // Each masonry row's kept lane, or -1: placed by L4's rule.
    var given: [Int] = []
    if case .masonry = layout, kept.keepsAny(layout: layout, lanes: k) {
      given.reserveCapacity(body.count)
      if kept.byID {
        tree._forEachLaneRow(in: body) { id, stored in
          extents.append(stored)
          given.append(kept.lane(of: id, layout: layout, lanes: k))
          listPitch &+= (stored < 0 ? e0 : stored) &+ s
        }
      } else {
        var r = body.lowerBound
        tree._forEachLaneRow(in: body) { _, stored in
          extents.append(stored)
          given.append(kept.lane(ofRow: r, layout: layout, lanes: k))
          r &+= 1
          listPitch &+= (stored < 0 ? e0 : stored) &+ s
        }
      }
    } else {
      // A lane body stores the rows that follow kind 0's estimate as such
      // (`_LaneBlocks.followsEstimate`).
      tree._forEachLaneRow(in: body) { _, stored in
        extents.append(stored)
        listPitch &+= (stored < 0 ? e0 : stored) &+ s
      }
    }
    guard let run = Self._run(layout, lanes: k, extents: extents, given: given, spacing: tree.spacing,
                              estimate: tree.estimate) else { return nil }
    return _LaneSection(header: header, layout: layout, bodyStart: body.lowerBound, run: run, listPitch: listPitch)
  }

  /// A body of `layout` in `k` lanes of rows with `extents` (units;
  /// `_LaneBlocks.followsEstimate`: kind 0's `estimate`); in masonry a row
  /// keeps the lane `given` has for it (-1, or `given` empty: placed by
  /// L4's rule). Nil for a list.
  /// - Complexity: O(k m) for m rows.
  @inlinable
  package static func _run(_ layout: SectionLayout, lanes k: Int, extents: [Int64], given: [Int], spacing: Int64,
                           estimate: Int64) -> _LaneRun? {
    switch layout {
    case .grid(let g):
      .grid(_GridLines(extents: extents, lanes: k, spacing: spacing, estimate: estimate),
            alignment: _FixedPoint.fraction(g.alignment))
    case .masonry:
      .masonry(_masonry(extents: extents, given: given, lanes: k, spacing: spacing, estimate: estimate))
    case .list:
      nil
    }
  }

  /// Lays out again the sections of rows `rows`, whole sections both of
  /// `tree` and of the rows these sections were laid out from (the same
  /// rows, roles changed among them), and keeps the others as they are: a
  /// role change (SPEC H2, L1), or a header or a footer removed or moved,
  /// changes only the sections around its row. Masonry rows keep their
  /// lanes as a full re-layout would keep them; the rows `given` names
  /// (sorted by row: rows just moved or inserted, which the sections took
  /// in place) keep the lanes it gives them instead (L4: a moved row's
  /// from before the move; nil, a new row's: placed by the rule).
  /// - Precondition: `pendingKeep` is `.sameRows`.
  /// - Complexity: O(k m + s) for the m rows of `rows` and s sections;
  ///   O(k m + log s) when they are as many sections as before.
  @inlinable
  package mutating func relayout(_ rows: Range<Int>, in tree: ExtentTree<ID>,
                                 given: [(row: Int, lane: _KeptLane?)] = []) {
    // The old sections in `rows`: those whose first row (the header's, else
    // the body's) is in it. A row asked for its old lane is in one of them.
    func first(_ p: Int) -> Int { sections[p].header == nil ? sections[p].bodyStart : sections[p].bodyStart &- 1 }
    // Back over every section that starts at the range's start: sections
    // of no rows (footers with none before them) share their body start.
    var low = _sections(startingAtOrBefore: rows.lowerBound)
    while low > 0 && first(low &- 1) >= rows.lowerBound { low &-= 1 }
    while low < sections.count && first(low) < rows.lowerBound { low &+= 1 }
    // To the end, when the range ends there: a section of no rows whose
    // footer went starts at the last row's end.
    let toEnd = rows.upperBound == tree.count
    var high = low
    while high < sections.count && (toEnd || first(high) < rows.upperBound) { high &+= 1 }
    var kept = _KeptLanes(sections[low ..< high], keep: .sameRows)
    if !given.isEmpty { kept.keep(given) }
    var fresh: ContiguousArray<_LaneSection<ID>> = []
    var i = rows.lowerBound
    while i < rows.upperBound {
      let section = tree.section(containing: i)
      i = section.upperBound
      if let laidOut = _section(of: section, in: tree, kept: &kept) { fresh.append(laidOut) }
    }
    guard fresh.count == high &- low else {
      sections.replaceSubrange(low ..< high, with: fresh)
      return _rebuildCorrections()
    }
    // As many sections as before (a header moved within its neighbours):
    // only theirs change in the corrections' tree, not every later one's.
    for (p, section) in zip(low ..< high, fresh) {
      _correct(p, by: section.correction &- sections[p].correction)
      sections[p] = section
    }
  }

  /// A masonry body of `extents` (`_LaneBlocks.followsEstimate`: kind
  /// 0's `estimate`) whose rows keep the lanes `given` has for them (-1:
  /// none), the others placed by L4's rule in index order; with `given`
  /// empty, every row is placed (a re-flow).
  /// - Complexity: O(k m).
  @inlinable
  package static func _masonry(extents: [Int64], given: [Int], lanes k: Int, spacing: Int64,
                               estimate: Int64) -> _MasonryLanes {
    guard !given.isEmpty else {
      return _MasonryLanes(extents: extents, lanes: nil, lanes: k, spacing: spacing, estimate: estimate)
    }
    var ends = ContiguousArray<Int64>(repeating: 0, count: k)
    var lanes = given
    for (r, e) in extents.enumerated() {
      var j = lanes[r]
      if j < 0 || j >= k {
        j = _MasonryLanes._laneEndingFirst(ends)
        lanes[r] = j
      }
      ends[j] &+= (e < 0 ? estimate : e) &+ spacing
    }
    return _MasonryLanes(extents: extents, lanes: lanes, lanes: k, spacing: spacing, estimate: estimate)
  }

  /// Rebuilds the corrections' Fenwick tree.
  /// - Complexity: O(s).
  @inlinable
  package mutating func _rebuildCorrections() {
    corrections.reset(zeros: sections.count)
    let values = sections.map { Int($0.correction) }
    corrections.build { tree in
      for (p, c) in values.enumerated() { tree[p &+ 1] = c }
    }
  }
}

/// A layout's lane sections behind one reference (`LazyStackLayout` keeps
/// them here, copied on write), so a list without lanes carries one nil
/// word for them.
@usableFromInline
package final class _LaneBox<ID: Hashable & Sendable>: @unchecked Sendable {
  /// The sections. Written only through a uniquely referenced box
  /// (`LazyStackLayout._writableLanes`).
  @exclusivity(unchecked) @usableFromInline package var value: _LaneLayout<ID>

  @inlinable
  package init(_ value: _LaneLayout<ID>) {
    self.value = value
  }
}

/// The lanes a re-layout keeps: each masonry row's lane in the sections it
/// replaces, found through what changed since (`_LaneKeep`), read in
/// row order.
@usableFromInline
package struct _KeptLanes<ID: Hashable & Sendable> {
  /// The masonry sections replaced (none: nothing kept).
  @usableFromInline let sections: ContiguousArray<_LaneSection<ID>>
  /// What changed since they were laid out.
  @usableFromInline let keep: _LaneKeep<ID>
  /// The distinct layouts and lane counts of those sections.
  @usableFromInline var flows: [(layout: SectionLayout, lanes: Int)] = []
  /// The old section the last row asked for was in.
  @usableFromInline var p = 0
  /// The first old section not before the last body `sameBody` asked for.
  @usableFromInline var same = 0
  /// The lanes of old section `p`, read once it is asked for.
  @usableFromInline var lanes: [Int] = []
  @usableFromInline var lanesOf = -1
  /// `.removed`: how many removed rows come before the last old row asked for.
  @usableFromInline var removedBefore = 0
  /// Rows just moved or inserted (under `.sameRows`: the sections took
  /// them in place), sorted by row, and the lanes they keep; the next of
  /// them `lane(ofRow:)` and `sameBody` may ask for.
  @usableFromInline var given: [(row: Int, lane: _KeptLane?)] = []
  @usableFromInline var nextGiven = 0
  @usableFromInline var nextGivenBody = 0

  @inlinable
  init(_ old: _LaneLayout<ID>?) {
    self.init(old?.sections[...] ?? [], keep: old?.pendingKeep ?? .sameRows)
  }

  /// The lanes of the masonry sections among `old`, the rows changed since
  /// as `keep` says.
  @inlinable
  init(_ old: ArraySlice<_LaneSection<ID>>, keep: _LaneKeep<ID>) {
    sections = ContiguousArray(old.lazy.filter { $0.masonry != nil })
    self.keep = keep
    for s in sections where !flows.contains(where: { $0.layout == s.layout && $0.lanes == s.masonry.unsafelyUnwrapped.k }) {
      flows.append((s.layout, s.masonry.unsafelyUnwrapped.k))
    }
  }

  /// The rows `given` names (sorted by row) keep the lanes it gives them
  /// (a moved row's from before the move; nil for a new row, or one of a
  /// grid or a list), not the lanes the sections gave them since.
  /// - Complexity: O(r) for r rows.
  @inlinable
  mutating func keep(_ given: [(row: Int, lane: _KeptLane?)]) {
    self.given = given
    for case let lane? in given.lazy.map(\.lane)
    where !flows.contains(where: { $0.layout == lane.layout && $0.lanes == lane.lanes }) {
      flows.append((lane.layout, lane.lanes))
    }
  }

  /// The masonry body of the old sections that holds exactly the rows
  /// `body` under this layout and lane count, while the rows are the ones
  /// they were laid out from (`.sameRows`); nil otherwise. Bodies are
  /// asked for in increasing order.
  /// - Complexity: amortized O(1).
  @inlinable
  mutating func sameBody(_ body: Range<Int>, layout: SectionLayout, lanes k: Int) -> _MasonryLanes? {
    guard case .sameRows = keep else { return nil }
    // A body with given rows reads their lanes from `given`.
    while nextGivenBody < given.count && given[nextGivenBody].row < body.lowerBound { nextGivenBody &+= 1 }
    if nextGivenBody < given.count && given[nextGivenBody].row < body.upperBound { return nil }
    // (Its own cursor: `lane(ofRow:)` may still read the section before.)
    while same < sections.count && sections[same].bodyStart < body.lowerBound { same &+= 1 }
    guard same < sections.count, sections[same].body == body, let m = sections[same].masonry, m.k == k,
          sections[same].layout == layout else { return nil }
    return m
  }

  /// Whether the rows changed in a way that only ids follow.
  @inlinable
  var byID: Bool {
    if case .byID = keep { return true }
    return false
  }

  /// Whether any row can keep a lane under this layout and lane count:
  /// an old masonry section had them (else the section re-flows and
  /// nothing is looked up).
  @inlinable
  func keepsAny(layout: SectionLayout, lanes k: Int) -> Bool {
    flows.contains { $0.layout == layout && $0.lanes == k }
  }

  /// The lane `id` had, if its section had this layout and lane count;
  /// else -1.
  /// - Complexity: O(1) expected.
  @inlinable
  func lane(of id: ID, layout: SectionLayout, lanes k: Int) -> Int {
    guard case .byID(let kept) = keep, let given = kept[id], given.layout == layout, given.lanes == k
    else { return -1 }
    return given.lane
  }

  /// The lane row `r` of the tree had, if its section had this layout and
  /// lane count; else -1. Rows are asked for in increasing order.
  /// - Complexity: amortized O(1) (O(m) the first time a section is read).
  @inlinable
  mutating func lane(ofRow r: Int, layout: SectionLayout, lanes k: Int) -> Int {
    while nextGiven < given.count && given[nextGiven].row < r { nextGiven &+= 1 }
    if nextGiven < given.count && given[nextGiven].row == r {
      guard let lane = given[nextGiven].lane, lane.layout == layout, lane.lanes == k else { return -1 }
      return lane.lane
    }
    var o = r
    switch keep {
    case .sameRows, .byID:
      break
    case .inserted(let at, let count):
      if r >= at { if r < at &+ count { return -1 }; o = r &- count }
    case .removed(let indices):
      // Old row o is the r-th that stayed: skip the removed ones before it.
      while removedBefore < indices.count && indices[removedBefore] <= r &+ removedBefore { removedBefore &+= 1 }
      o = r &+ removedBefore
    }
    while p < sections.count && sections[p].body.upperBound <= o { p &+= 1 }
    guard p < sections.count, sections[p].bodyStart <= o, sections[p].layout == layout,
          let m = sections[p].masonry, m.k == k else { return -1 }
    if lanesOf != p {
      lanes = m.blocks.allLanes
      lanesOf = p
    }
    return lanes[o &- sections[p].bodyStart]
  }
}
