// The lane structures' consistency checks: every summary equals the one
// computed from scratch. Called by this package's tests (and, once the
// layout keeps lanes, by its `_checkInvariants`), never by an app.

extension _LaneBlocks {
  /// Traps unless the counts and the block shapes agree.
  /// - Complexity: O(m).
  package func _checkInvariants() {
    precondition(counts.size == extents.count, "_LaneBlocks: count tree size")
    var total = 0
    var spares = 0
    for (p, b) in extents.enumerated() {
      if b.isEmpty {
        // A spare: never first or last.
        precondition(p > 0 && p < extents.count &- 1, "_LaneBlocks: empty block \(p) at an end of \(extents.count)")
        spares &+= 1
      }
      precondition(b.count <= 2 &* capacity, "_LaneBlocks: block \(p) holds \(b.count) rows")
      precondition(counts.prefix(p &+ 1) - counts.prefix(p) == b.count, "_LaneBlocks: count of block \(p)")
      if keepsLanes { precondition(lanes[p].count == b.count, "_LaneBlocks: lanes of block \(p)") }
      total &+= b.count
    }
    precondition(keepsLanes || lanes.isEmpty, "_LaneBlocks: lanes without masonry")
    precondition(total == count, "_LaneBlocks: count \(count), rows \(total)")
    precondition(spares == spareCount, "_LaneBlocks: \(spares) empty blocks, \(spareCount) spares counted")
  }
}

extension _GridLines {
  /// Traps unless every node equals the one rebuilt from the blocks.
  /// - Complexity: O(k m).
  package func _checkInvariants() {
    blocks._checkInvariants()
    var fresh = self
    fresh._rebuildTree()
    precondition(fresh._leaves == _leaves, "_GridLines: leaves")
    precondition(fresh._counts == _counts, "_GridLines: node counts")
    precondition(fresh._estimatedRows == _estimatedRows, "_GridLines: node rows that follow the estimate")
    precondition(fresh._summaries == _summaries, "_GridLines: node summaries")
    for p in 0 ..< blocks.blockCount {
      let leaf = (_leaves &+ p) &* k
      precondition(Array(_summaries[leaf ..< leaf &+ k]) == _leafSummariesRowByRow(p),
                   "_GridLines: block \(p)'s one-pass summaries differ from the row-by-row ones")
    }
  }
}

extension _MasonryLanes {
  /// Traps unless the Fenwick trees and the totals equal the ones rebuilt
  /// from the blocks.
  /// - Complexity: O(k m/B + m).
  package func _checkInvariants() {
    blocks._checkInvariants()
    precondition(blocks.keepsLanes, "_MasonryLanes: rows without lanes")
    var fresh = self
    fresh._rebuildTree()
    precondition(fresh._pitches == _pitches, "_MasonryLanes: pitch tree")
    precondition(fresh._counts == _counts, "_MasonryLanes: count tree")
    precondition(fresh._estimated == _estimated, "_MasonryLanes: tree of the rows that follow the estimate")
    precondition(fresh.laneTotals == laneTotals, "_MasonryLanes: lane totals")
    precondition(blocks.allLanes.allSatisfy { $0 < k }, "_MasonryLanes: a lane out of range")
  }
}

extension _LaneLayout {
  /// Traps unless every section, body, correction and kept lane equals
  /// `fresh`'s (the same layout laid out again from the tree), and each
  /// body's own structure is sound.
  /// - Complexity: O(k m) for m rows in lane bodies.
  package func _checkInvariants(equals fresh: _LaneLayout) {
    precondition(estimate == fresh.estimate, "_LaneLayout: kind 0's estimate \(estimate), the tree's \(fresh.estimate)")
    precondition(sections.count == fresh.sections.count,
                 """
                 _LaneLayout: \(sections.count) lane sections, laid out afresh \(fresh.sections.count) \
                 (bodies \(sections.map(\.body)), afresh \(fresh.sections.map(\.body)))
                 """)
    for (p, (a, b)) in zip(sections, fresh.sections).enumerated() {
      precondition(a.header == b.header && a.layout == b.layout, "_LaneLayout: section \(p)'s header or layout")
      precondition(a.bodyStart == b.bodyStart, "_LaneLayout: section \(p) body at \(a.bodyStart), afresh \(b.bodyStart)")
      precondition(a.listPitch == b.listPitch, "_LaneLayout: section \(p) list pitch \(a.listPitch) vs \(b.listPitch)")
      // One body, of the section's layout (the two optionals, kept for edits
      // in place, can say otherwise; an enum could not, but costs each edit).
      precondition((a.grid != nil) != (a.masonry != nil), "_LaneLayout: section \(p) holds \(a.grid == nil ? "no" : "two") bodies")
      switch (a.layout, a.grid != nil) {
      case (.grid, true), (.masonry, false): break
      default: preconditionFailure("_LaneLayout: section \(p)'s body is not of its layout \(a.layout)")
      }
      switch (a.run, b.run) {
      case (.grid(let g, let x), .grid(let h, let y)):
        g._checkInvariants()
        precondition(g.estimate == estimate, "_LaneLayout: grid \(p) at estimate \(g.estimate), the layout's \(estimate)")
        precondition(x == y && g.k == h.k && g.blocks.allExtents == h.blocks.allExtents, "_LaneLayout: grid \(p)")
      case (.masonry(let m), .masonry(let n)):
        m._checkInvariants()
        precondition(m.estimate == estimate, "_LaneLayout: masonry \(p) at estimate \(m.estimate), the layout's \(estimate)")
        precondition(m.k == n.k && m.blocks.allExtents == n.blocks.allExtents, "_LaneLayout: masonry \(p) extents")
        precondition(m.blocks.allLanes == n.blocks.allLanes, "_LaneLayout: masonry \(p) lanes")
      default:
        preconditionFailure("_LaneLayout: section \(p)'s body is of another layout")
      }
      precondition(correction(before: p &+ 1) &- correction(before: p) == a.correction,
                   "_LaneLayout: correction tree at section \(p)")
    }
  }
}

extension LazyStackLayout {
  /// Traps unless the lane sections as edits left them in place equal the
  /// ones laid out afresh, and the rows kept meeting the last window are
  /// the rows that meet it (nothing without lanes).
  /// - Complexity: O(n).
  internal func _checkLaneInvariants() {
    guard var lanes = _laneBox?.value else { return }
    // The sections as edits left them in place equal the ones laid out
    // afresh (masonry rows keeping their lanes).
    lanes.pendingKeep = .sameRows
    let fresh = _LaneLayout(tree: _tree, defaultLayout: lanes.defaultLayout, layoutByHeader: lanes.layoutByHeader,
                            crossExtent: _laneCross.extent, crossLead: _laneCross.lead, keeping: lanes)
    lanes._checkInvariants(equals: fresh)
    // The rows the last frame found meeting its window, while they count
    // as current (the stamp), are exactly the rows that meet it now: what
    // `visibleRows` and the kept row's start (`_placedInLanes`) read.
    if let cache = _meetingCache, cache.stamp == _stamp {
      let spans = fresh.spans(meeting: cache.low, cache.high, in: _tree)
      precondition(cache.spans == spans,
                   "rows kept meeting \(cache.low)..<\(cache.high): \(cache.spans.map(\.row)), found \(spans.map(\.row))")
    }
  }
}
