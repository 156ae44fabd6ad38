// SPEC L8: a measurement, an insert, a removal or a move of plain rows
// changes the lane sections in place: the section that holds the rows
// changes its body and its correction, the later sections their body
// starts; rows that start a section without a header make one of their
// own, and such a section that an edit empties goes (`dropEmptied`).
// Anything else (a role, a layout, the viewport's width, a snapshot) lays
// the sections out again (`LazyStackLayout._rebuildLanes`).

extension _LaneLayout {
  /// Adds `delta` to section `p`'s correction.
  @inlinable @inline(__always)
  package mutating func _correct(_ p: Int, by delta: Int64) {
    if delta != 0 { corrections.add(Int(delta), at: p &+ 1) }
  }

  /// Row `i`'s extent went from `old` to `new` (units; `new` as the tree
  /// gives it to a lane body, `ExtentTree.laneExtent(at:)`:
  /// `_LaneBlocks.followsEstimate` for kind 0's `estimate`). Returns how
  /// far the body that holds the row grew (its pitch's change: in a grid
  /// the row's line's); 0 outside lane bodies.
  /// - Complexity: O(log s + k (B + log m)) in a grid, O(log s + log m) in
  ///   masonry, O(log s) outside lane bodies.
  @inlinable
  @discardableResult
  package mutating func setExtent(_ new: Int64, old: Int64, at i: Int) -> Int64 {
    guard let p = section(holding: i) else { return 0 }
    return _setExtent(new, old: old, inSection: p, at: i &- sections[p].bodyStart)
  }

  /// `setExtent(_:old:at:)` of row `local` of section `p`'s body.
  /// - Complexity: `setExtent(_:old:at:)`'s, less the section's search.
  @inlinable @inline(__always)
  package mutating func _setExtent(_ new: Int64, old: Int64, inSection p: Int, at local: Int) -> Int64 {
    // (A body also notes a row that starts or stops following the
    // estimate at the same extent.)
    let before = sections[p].correction
    let pitch = sections[p].pitch
    _changeRun(p, grid: { $0.setExtent(new, at: local) }, masonry: { $0.setExtent(new, at: local) })
    sections[p].listPitch &+= (new < 0 ? estimate : new) &- old
    _correct(p, by: sections[p].correction &- before)
    return sections[p].pitch &- pitch
  }

  /// Row `i`'s extent is now `new` (units, as `setExtent(_:old:at:)` takes
  /// it), whatever its body had: an estimate that moved with its kind's
  /// (SPEC K1, K3). Returns how far the body that holds the row grew; 0
  /// outside lane bodies.
  /// - Complexity: `setExtent(_:old:at:)`'s.
  @inlinable
  @discardableResult
  package mutating func setExtent(_ new: Int64, at i: Int) -> Int64 {
    guard let p = section(holding: i) else { return 0 }
    let local = i &- sections[p].bodyStart
    let old = sections[p].grid?.extent(at: local) ?? sections[p].masonry.unsafelyUnwrapped.extent(at: local)
    return _setExtent(new, old: old, inSection: p, at: local)
  }

  /// Rows with `extents` (units, as `setExtent(_:old:at:)` takes them)
  /// were inserted at `i`, as plain rows: the section whose body reaches
  /// `i` takes them, the later sections move on. In masonry a row keeps the
  /// lane `kept` gives it (L4: a moved row keeps its lane where its new
  /// section has the layout and lane count it had), and the others (all,
  /// with `kept` nil) are placed by L4's rule. Where no body reaches `i`,
  /// the rows start a section without a header when `startsSection` says
  /// so (asked only then: the tree has no row before them, or a footer: L1), which is a lane
  /// section of its own in a lane `defaultLayout`; else they join a list.
  /// - Complexity: O(r + k (B + log m) + s); O(k r + s) for a new section.
  @inlinable
  package mutating func insert(_ extents: [Int64], kept: [_KeptLane?]?, spacing: Int64,
                               startsSection: @autoclosure () -> Bool, at i: Int) {
    let r = extents.count
    guard r > 0 else { return }
    let q = _sections(startingAtOrBefore: i)
    if q > 0, i <= sections[q &- 1].body.upperBound {
      let p = q &- 1
      let local = i &- sections[p].bodyStart
      let before = sections[p].correction
      var given: [Int]?  // a move's rows: the lanes they keep
      if let kept { given = _lanesKept(kept, in: p) }
      _changeRun(p, grid: { $0.insert(extents, at: local) }, masonry: { _ = $0.insert(extents, lanes: given, at: local) })
      var pitch: Int64 = 0
      for e in extents { pitch &+= (e < 0 ? estimate : e) &+ spacing }
      sections[p].listPitch &+= pitch
      _correct(p, by: sections[p].correction &- before)
    } else if defaultLayout != .list && startsSection() {
      // A new section without a header, of the rows alone (the tree has a
      // header or nothing after them, else a body would reach `i`).
      let k = laneCount(defaultLayout)
      let given = kept.map { kept in
        kept.map { $0 != nil && $0!.layout == defaultLayout && $0!.lanes == k ? $0!.lane : -1 }
      } ?? []
      var pitch: Int64 = 0
      for e in extents { pitch &+= (e < 0 ? estimate : e) &+ spacing }
      let run = Self._run(defaultLayout, lanes: k, extents: extents, given: given, spacing: spacing, estimate: estimate)
      sections.insert(_LaneSection(header: nil, layout: defaultLayout, bodyStart: i, run: run.unsafelyUnwrapped,
                                   listPitch: pitch), at: q)
      for s in q &+ 1 ..< sections.count { sections[s].bodyStart &+= r }
      return _rebuildCorrections()
    }
    // The sections after the one that took them (or after `i`) move on.
    for s in q ..< sections.count { sections[s].bodyStart &+= r }
  }

  /// Drops the sections without a header that edits emptied, but for one
  /// that still ends in a footer (`footerAt(bodyStart)`): laid out afresh,
  /// the tree has no section there (L1).
  /// - Complexity: O(s) for s lane sections.
  @inlinable
  package mutating func dropEmptied(footerAt: (Int) -> Bool) {
    guard sections.contains(where: { $0.header == nil && $0.run.count == 0 && !footerAt($0.bodyStart) }) else { return }
    sections.removeAll { $0.header == nil && $0.run.count == 0 && !footerAt($0.bodyStart) }
    _rebuildCorrections()
  }

  /// The lanes the plain rows at `indices` (sorted, unique) hold, for a
  /// move: each masonry row's lane with its section's flow, nil for a row
  /// of a grid or a list (L4: moved rows keep their lanes).
  /// - Complexity: O(r (log s + log m)) for r rows.
  @inlinable
  package func lanesForMove(sortedIndices indices: [Int]) -> [_KeptLane?] {
    indices.map(keptLane(at:))
  }

  /// The lane row `i` keeps when it moves (L4): its masonry lane with its
  /// section's flow; nil for a row of a grid or a list.
  /// - Complexity: O(log s + log m).
  @inlinable
  package func keptLane(at i: Int) -> _KeptLane? {
    guard let p = section(holding: i), let m = sections[p].masonry else { return nil }
    return _KeptLane(lane: m.lane(at: i &- sections[p].bodyStart), layout: sections[p].layout, lanes: m.k)
  }

  /// The rows at `indices` (sorted, unique) were removed. A section
  /// without a header that this empties stays, empty, until
  /// `dropEmptied(footerAt:)` (a move's insert may fill it again). Returns
  /// whether it emptied one. A header or a footer among them leaves its
  /// sections as they were but for their rows (a section whose header
  /// went has none), for `relayout(_:in:given:)` to lay out again.
  /// - Complexity: O(r (log s + log m) + k (B + log m) a section touched + s).
  @inlinable
  @discardableResult
  package mutating func remove(sortedIndices indices: [Int], spacing: Int64) -> Bool {
    guard !indices.isEmpty else { return false }
    var emptied = false
    // The indices are sorted, so each section's removed rows are one run
    // of them, found without a table: a first-time generic type here (a
    // dictionary of arrays, an array of ranges) costs the Swift runtime
    // about 100 µs to instantiate in the process's first removal.
    var g = 0
    while g < indices.count {
      let (section, end) = _removedRun(indices, from: g)
      defer { g = end }
      guard let p = section else { continue }
      let before = sections[p].correction
      let base = sections[p].bodyStart
      var pitch: Int64 = 0
      // Contiguous runs of local indices, removed from the last.
      var j = end
      while j > g {
        let last = indices[j &- 1] &- base
        var first = last
        j &-= 1
        while j > g && indices[j &- 1] &- base == first &- 1 {
          first &-= 1
          j &-= 1
        }
        _changeRun(p, grid: { grid in
          for l in first ... last { pitch &+= grid.extent(at: l) &+ spacing }
          grid.remove(first ..< last &+ 1)
        }, masonry: { masonry in
          for l in first ... last { pitch &+= masonry.extent(at: l) &+ spacing }
          masonry.remove(first ..< last &+ 1)
        })
      }
      sections[p].listPitch &-= pitch
      _correct(p, by: sections[p].correction &- before)
      if sections[p].header == nil && sections[p].run.count == 0 { emptied = true }
    }
    // Body starts move back by the rows removed before them.
    var k = 0
    for p in sections.indices {
      while k < indices.count && indices[k] < sections[p].bodyStart { k &+= 1 }
      if k > 0 && indices[k &- 1] == sections[p].bodyStart &- 1 && sections[p].header != nil {
        sections[p].header = nil
        if sections[p].run.count == 0 { emptied = true }
      }
      sections[p].bodyStart &-= k
    }
    return emptied
  }
}

extension _LaneLayout {
  /// Kind 0's estimate is now `units` (SPEC X2, S2; every row that
  /// follows it moves, as in a list, and keeps its lane, L4): each body
  /// moves its rows that follow it without writing them, and every
  /// section's list pitch (as its body has it: rows not yet brought up to
  /// date keep theirs until `setExtent`) and correction follow.
  /// - Complexity: O(k m/B) a masonry body of m rows, O(m/B + k l + B x)
  ///   a grid body of m rows (`_GridLines.setEstimate`), plus O(s) for s
  ///   lane sections.
  @inlinable
  package mutating func setEstimate(_ units: Int64) {
    guard units != estimate else { return }
    estimate = units
    for p in sections.indices {
      let moved: Int64
      if sections[p].grid != nil {
        moved = sections[p].grid!.setEstimate(units)
      } else {
        moved = sections[p].masonry!.setEstimate(units)
      }
      sections[p].listPitch &+= moved
    }
    _rebuildCorrections()
  }

  /// The lanes rows that `kept` names keep in section `p` (L4: where its
  /// layout and lane count are the ones they had), -1 for the others; nil
  /// when none keeps one.
  /// - Complexity: O(r) for r rows.
  @inlinable @inline(never)
  package func _lanesKept(_ kept: [_KeptLane?], in p: Int) -> [Int]? {
    guard let m = sections[p].masonry else { return nil }
    let layout = sections[p].layout
    let lanes = kept.map { $0 != nil && $0!.layout == layout && $0!.lanes == m.k ? $0!.lane : -1 }
    return lanes.contains { $0 >= 0 } ? lanes : nil
  }

  /// The section holding `indices[g]` (nil: a list row) and the end of the
  /// run of sorted `indices` from `g` in the same place.
  /// - Complexity: O(log s + the run's length).
  @inlinable
  package func _removedRun(_ indices: [Int], from g: Int) -> (section: Int?, end: Int) {
    let p = section(holding: indices[g])
    var end = g &+ 1
    if let p {
      let upper = sections[p].body.upperBound
      while end < indices.count && indices[end] < upper { end &+= 1 }
    } else {
      let next = _sections(startingAtOrBefore: indices[g])  // the first section starting after it
      let upper = next < sections.count ? sections[next].bodyStart : Int.max
      while end < indices.count && indices[end] < upper { end &+= 1 }
    }
    return (p, end)
  }

  /// Changes section `p`'s body in place (its storage uniquely referenced
  /// while it changes: no copy on write of a whole body).
  @inlinable
  package mutating func _changeRun(_ p: Int, grid: (inout _GridLines) -> Void, masonry: (inout _MasonryLanes) -> Void) {
    if sections[p].grid != nil {
      grid(&sections[p].grid!)
    } else {
      masonry(&sections[p].masonry!)
    }
  }
}
