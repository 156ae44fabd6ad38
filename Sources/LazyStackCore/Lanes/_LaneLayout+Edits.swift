// SPEC L8: a measurement, an insert or a removal changes the lane
// sections in place: the section that holds the rows changes its body and
// its correction, the later sections their body starts. Anything else (a
// role, a layout, the viewport's width, an estimate, a snapshot, a move)
// lays the sections out again (`LazyStackLayout._rebuildLanes`).

extension _LaneLayout {
  /// Adds `delta` to section `p`'s correction.
  @inlinable @inline(__always)
  package mutating func _correct(_ p: Int, by delta: Int64) {
    if delta != 0 { corrections.add(Int(delta), at: p &+ 1) }
  }

  /// Row `i`'s extent went from `old` to `new` (units).
  /// - Complexity: O(log s + k (B + log m)) in a grid, O(log s + log m) in
  ///   masonry, O(log s) outside lane bodies.
  @inlinable
  package mutating func setExtent(_ new: Int64, old: Int64, at i: Int) {
    guard let p = section(holding: i), new != old else { return }
    let local = i &- sections[p].bodyStart
    let before = sections[p].correction
    _changeRun(p, grid: { $0.setExtent(new, at: local) }, masonry: { $0.setExtent(new, at: local) })
    sections[p].listPitch &+= new &- old
    _correct(p, by: sections[p].correction &- before)
  }

  /// Rows `ids` with `extents` (units) were inserted at `i`, as plain
  /// rows: the section whose body reaches `i` takes them (masonry places
  /// them by L4's rule), the later sections move on. Returns false, and
  /// changes nothing, when no lane body takes them and they may have made
  /// a section without a header in a lane layout (the caller lays the
  /// sections out again).
  /// - Complexity: O(r + k (B + log m) + s).
  @inlinable
  package mutating func insert(ids: [ID], extents: [Int64], spacing: Int64, at i: Int) -> Bool {
    let r = ids.count
    guard r > 0 else { return true }
    let q = _sections(startingAtOrBefore: i)
    var firstShifted = q
    if q > 0, i <= sections[q &- 1].body.upperBound {
      let p = q &- 1
      let local = i &- sections[p].bodyStart
      let before = sections[p].correction
      _changeRun(p, grid: { $0.insert(extents, at: local) }, masonry: { _ = $0.insert(extents, at: local) })
      var pitch: Int64 = 0
      for e in extents { pitch &+= e &+ spacing }
      sections[p].listPitch &+= pitch
      _correct(p, by: sections[p].correction &- before)
      firstShifted = q
    } else if defaultLayout != .list {
      return false
    }
    for s in firstShifted ..< sections.count { sections[s].bodyStart &+= r }
    return true
  }

  /// The plain rows at `indices` (sorted, unique; none a header or a
  /// footer) were removed. Returns false, and changes nothing, when that
  /// empties a headerless section (the caller lays the sections out
  /// again: such a section is gone).
  /// - Complexity: O(r (log s + log m) + k (B + log m) a section touched + s).
  @inlinable
  package mutating func remove(sortedIndices indices: [Int], spacing: Int64) -> Bool {
    guard !indices.isEmpty else { return true }
    // The removed rows of each section's body, as local runs, by section.
    var bySection: [Int: [Int]] = [:]
    for i in indices {
      if let p = section(holding: i) { bySection[p, default: []].append(i &- sections[p].bodyStart) }
    }
    for (p, locals) in bySection where sections[p].header == nil && locals.count == sections[p].body.count {
      return false
    }
    for (p, locals) in bySection {
      let before = sections[p].correction
      var pitch: Int64 = 0
      // Contiguous runs of local indices, removed from the last.
      var runs: [Range<Int>] = []
      for l in locals {
        if let last = runs.last, last.upperBound == l { runs[runs.count &- 1] = last.lowerBound ..< l &+ 1 } else { runs.append(l ..< l &+ 1) }
      }
      _changeRun(p, grid: { g in
        for range in runs.reversed() {
          for l in range { pitch &+= g.extent(at: l) &+ spacing }
          g.remove(range)
        }
      }, masonry: { m in
        for range in runs.reversed() {
          for l in range { pitch &+= m.extent(at: l) &+ spacing }
          m.remove(range)
        }
      })
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
