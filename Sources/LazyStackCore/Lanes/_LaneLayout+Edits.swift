// SPEC L8: a measurement, an insert, a removal or a move of plain rows
// changes the lane sections in place: the section that holds the rows
// changes its body and its correction, the later sections their body
// starts. Anything else (a role, a layout, the viewport's width, an
// estimate, a snapshot) lays the sections out again
// (`LazyStackLayout._rebuildLanes`).

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
  /// were inserted at `i`, as plain rows: the
  /// section whose body reaches `i` takes them, the later sections move
  /// on. In masonry a row keeps the lane `kept` gives it (L4: a moved row
  /// keeps its lane where its new section has the layout and lane count it
  /// had), and the others (all, with `kept` nil) are placed by L4's rule.
  /// Returns false, and changes nothing, when no lane body takes them and
  /// they may have made a section without a header in a lane layout (the
  /// caller lays the sections out again).
  /// - Complexity: O(r + k (B + log m) + s).
  @inlinable
  package mutating func insert(_ extents: [Int64], kept: [_KeptLane?]?, spacing: Int64, at i: Int) -> Bool {
    let r = extents.count
    guard r > 0 else { return true }
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
    } else if defaultLayout != .list {
      return false
    }
    // The sections after the one that took them (or after `i`) move on.
    for s in q ..< sections.count { sections[s].bodyStart &+= r }
    return true
  }

  /// Whether `insert(_:kept:spacing:at:)` at `i` changes the sections in
  /// place: a lane body takes the rows, or rows outside every body are list
  /// rows (`defaultLayout` is `.list`: they start no section).
  /// - Complexity: O(log s).
  @inlinable
  package func takesInsert(at i: Int) -> Bool {
    if defaultLayout == .list { return true }
    let q = _sections(startingAtOrBefore: i)
    return q > 0 && i <= sections[q &- 1].body.upperBound
  }

  /// Whether removing the plain rows at `indices` (sorted, unique) keeps
  /// every headerless section (`remove(sortedIndices:spacing:)` would
  /// change the sections in place).
  /// - Complexity: O(r + log s) for r indices.
  @inlinable
  package func _removalKeepsSections(_ indices: [Int]) -> Bool {
    var g = 0
    while g < indices.count {
      let (p, end) = _removedRun(indices, from: g)
      if let p, sections[p].header == nil && end &- g == sections[p].body.count { return false }
      g = end
    }
    return true
  }

  /// The lanes the plain rows at `indices` (sorted, unique) hold, for a
  /// move that leaves them at `target` (an index among the rows left):
  /// each masonry row's lane with its section's flow, nil for a row of a
  /// grid or a list (L4: moved rows keep their lanes). Nil when the
  /// sections cannot follow the move in place: it empties a headerless
  /// section, or its rows would start one (the caller lays the sections
  /// out again).
  /// - Complexity: O(r (log s + log m) + log r log s) for r rows.
  @inlinable
  package func lanesForMove(sortedIndices indices: [Int], to target: Int) -> [_KeptLane?]? {
    guard _removalKeepsSections(indices) else { return nil }
    // Where the insert lands once the rows are gone: the last section whose
    // body starts at or before `target` then (body starts only move back).
    func gone(before x: Int) -> Int {  // how many of `indices` are below `x`
      var low = 0
      var high = indices.count
      while low < high {
        let mid = (low &+ high) &>> 1
        if indices[mid] < x { low = mid &+ 1 } else { high = mid }
      }
      return low
    }
    var low = 0
    var high = sections.count
    while low < high {
      let mid = (low &+ high) &>> 1
      if sections[mid].bodyStart &- gone(before: sections[mid].bodyStart) <= target { low = mid &+ 1 } else { high = mid }
    }
    let upper = low > 0 ? sections[low &- 1].body.upperBound : 0
    guard (low > 0 && target <= upper &- gone(before: upper)) || defaultLayout == .list else { return nil }
    return indices.map(keptLane(at:))
  }

  /// The lane row `i` keeps when it moves (L4): its masonry lane with its
  /// section's flow; nil for a row of a grid or a list.
  /// - Complexity: O(log s + log m).
  @inlinable
  package func keptLane(at i: Int) -> _KeptLane? {
    guard let p = section(holding: i), let m = sections[p].masonry else { return nil }
    return _KeptLane(lane: m.lane(at: i &- sections[p].bodyStart), layout: sections[p].layout, lanes: m.k)
  }

  /// The plain rows at `indices` (sorted, unique; none a header or a
  /// footer) were removed. Returns false, and changes nothing, when that
  /// empties a headerless section (the caller lays the sections out
  /// again: such a section is gone).
  /// - Complexity: O(r (log s + log m) + k (B + log m) a section touched + s).
  @inlinable
  package mutating func remove(sortedIndices indices: [Int], spacing: Int64) -> Bool {
    guard !indices.isEmpty else { return true }
    // The indices are sorted, so each section's removed rows are one run
    // of them. Walked twice without a table: a first-time generic type
    // here (a dictionary of arrays, an array of ranges) costs the Swift
    // runtime about 100 µs to instantiate in the process's first removal.
    guard _removalKeepsSections(indices) else { return false }
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
    }
    // Body starts move back by the rows removed before them.
    var k = 0
    for p in sections.indices {
      while k < indices.count && indices[k] < sections[p].bodyStart { k &+= 1 }
      sections[p].bodyStart &-= k
    }
    return true
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
