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
  /// The body of a grid section, or nil (kept as an optional, not as an
  /// enum payload, so an edit changes it in place: `grid!.insert(...)`).
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
  /// Every masonry row's lane by id, with its section's layout and lane
  /// count, as the last rebuild left them: what the next rebuild keeps
  /// (L4: a row keeps its lane through measurements, edits and
  /// snapshots, until its section re-flows).
  @usableFromInline package var lanesByID: [ID: _KeptLane]
  /// Whether an edit since the last stabilization already brought the
  /// sections up to date in place (SPEC L8), so the next stabilization
  /// need not lay them out again; consumed by it.
  @usableFromInline package var current: Bool = false

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
  /// after each row. Masonry rows keep the lane `keep` gives them, when it
  /// gives one under their section's layout and lane count; the others
  /// are placed by L4's rule, in index order (a re-flow).
  /// - Complexity: O(n) (the rows of lane sections, and a role search a
  ///   section).
  @inlinable
  package init(tree: ExtentTree<ID>, defaultLayout: SectionLayout, layoutByHeader: [ID: SectionLayout],
               crossExtent: CGFloat, crossLead: CGFloat, keeping kept: [ID: _KeptLane] = [:])
  {
    self.defaultLayout = defaultLayout
    self.layoutByHeader = layoutByHeader
    self.crossExtent = crossExtent
    self.crossLead = crossLead
    sections = []
    corrections = _FenwickTree()
    lanesByID = [:]
    var i = 0
    let n = tree.count
    while i < n {
      let rows = tree.section(containing: i)
      i = rows.upperBound
      let header: ID? = tree.role(at: rows.lowerBound) == ExtentTree<ID>._headerRole ? tree.id(at: rows.lowerBound) : nil
      let layout = self.layout(forHeader: header)
      guard layout != .list else { continue }
      let last = rows.upperBound &- 1
      let hasFooter = tree.role(at: last) == ExtentTree<ID>._footerRole && (header == nil || last != rows.lowerBound)
      let body = (header == nil ? rows.lowerBound : rows.lowerBound &+ 1) ..< (hasFooter ? last : rows.upperBound)
      var extents: [Int64] = []
      var ids: [ID] = []
      extents.reserveCapacity(body.count)
      var listPitch: Int64 = 0
      tree.forEachRow(in: body) { id, _, extent in
        extents.append(extent)
        ids.append(id)
        listPitch &+= extent &+ tree.spacing
      }
      let k = laneCount(layout)
      let run: _LaneRun
      switch layout {
      case .grid(let g):
        run = .grid(_GridLines(extents: extents, lanes: k, spacing: tree.spacing), alignment: _FixedPoint.fraction(g.alignment))
      case .masonry:
        let m = Self._masonry(extents: extents, ids: ids, layout: layout, lanes: k, spacing: tree.spacing, keeping: kept)
        for (id, lane) in zip(ids, m.blocks.allLanes) { lanesByID[id] = _KeptLane(lane: lane, layout: layout, lanes: k) }
        run = .masonry(m)
      case .list:
        continue
      }
      sections.append(_LaneSection(header: header, layout: layout, bodyStart: body.lowerBound, run: run,
                                   listPitch: listPitch))
    }
    _rebuildCorrections()
  }

  /// A masonry body whose rows keep the lanes `keep` gives under this
  /// layout and lane count, the others placed by L4's rule in index order.
  /// - Complexity: O(k m).
  @inlinable
  package static func _masonry(extents: [Int64], ids: [ID], layout: SectionLayout, lanes k: Int, spacing: Int64,
                               keeping kept: [ID: _KeptLane]) -> _MasonryLanes {
    var ends = ContiguousArray<Int64>(repeating: 0, count: k)
    var lanes: [Int] = []
    lanes.reserveCapacity(extents.count)
    // A re-flow (no row kept under this layout and lane count) looks nothing up.
    let lookUp = !kept.isEmpty && kept.values.contains { $0.layout == layout && $0.lanes == k }
    for (e, id) in zip(extents, ids) {
      let j: Int
      if lookUp, let given = kept[id], given.layout == layout, given.lanes == k, given.lane < k {
        j = given.lane
      } else {
        j = _MasonryLanes._laneEndingFirst(ends)
      }
      ends[j] &+= e &+ spacing
      lanes.append(j)
    }
    return _MasonryLanes(extents: extents, lanes: lanes, lanes: k, spacing: spacing)
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
