import Foundation

// SPEC L5's point queries with lanes: `index(atOffset:)` (the lowest index
// among the rows whose span holds the offset, else G4 lane by lane) and
// the hit test `index(at:)`, in the extent tree's coordinates.

extension _LaneLayout {
  /// The first row of lane `j` in body `p` (starting at `g`) that is
  /// non-empty and starts after `y`, or nil.
  @inlinable
  package func _bodyRow(_ p: Int, lane j: Int, startingAfter y: Int64, bodyAt g: Int64) -> Int? {
    let s = sections[p]
    let local = y &- g
    switch s.run {
    case .masonry(let m):
      guard j < m.k, var i = m.firstRow(inLane: j, pitchEndAfter: local) else { return nil }
      var start = m.start(at: i)
      while true {
        let e = m.extent(at: i)
        if e > 0 && start > local { return s.bodyStart &+ i }
        start &+= e &+ m.spacing
        guard let next = m.nextRow(inLane: j, after: i) else { return nil }
        i = next
      }
    case .grid(let grid, let alignment):
      guard j < grid.k, let first = grid.line(atPitch: local) else { return nil }
      var i = first &* grid.k &+ j
      while i < grid.count {
        if grid.extent(at: i) > 0 && grid.start(at: i, alignment: alignment) > local { return s.bodyStart &+ i }
        i &+= grid.k
      }
      return nil
    }
  }

  /// The first non-empty list row of `range` (shifted by `shift`) that
  /// starts after `y`, or nil.
  @inlinable
  package func _listRow(_ range: Range<Int>, shift: Int64, startingAfter y: Int64, in tree: ExtentTree<ID>) -> Int? {
    guard !range.isEmpty else { return nil }
    let from = Swift.max(range.lowerBound, tree.rowsStarting(before: y &- shift &+ 1))
    guard from < range.upperBound else { return nil }
    let rank = tree.nonEmptyRows(before: from)
    guard rank < tree.nonEmptyCount else { return nil }
    let r = tree.nonEmptyRow(rank: rank)
    return r < range.upperBound ? r : nil
  }

  /// The last non-empty list row of `range`, or nil.
  @inlinable
  package func _lastListRow(_ range: Range<Int>, in tree: ExtentTree<ID>) -> Int? {
    guard !range.isEmpty else { return nil }
    let rank = tree.nonEmptyRows(before: range.upperBound)
    guard rank > tree.nonEmptyRows(before: range.lowerBound) else { return nil }
    return tree.nonEmptyRow(rank: rank &- 1)
  }

  /// The list rows between lane bodies before section `p` (`p ==
  /// sections.count`: after the last).
  @inlinable @inline(__always)
  package func _listRange(before p: Int, count: Int) -> Range<Int> {
    (p > 0 ? sections[p &- 1].body.upperBound : 0) ..< (p < sections.count ? sections[p].bodyStart : count)
  }

  /// The lowest index among the rows whose span holds `y`, or nil.
  @inlinable
  package func _rowHolding(_ y: Int64, in tree: ExtentTree<ID>) -> Int? {
    let p = _firstSection(endingAfter: y, in: tree)
    if p < sections.count {
      let g = bodyStart(p, in: tree)
      if g <= y {
        let s = sections[p]
        let local = y &- g
        switch s.run {
        case .grid(let grid, let alignment):
          guard let line = grid.line(atPitch: local) else { return nil }
          let first = line &* grid.k
          for i in first ..< Swift.min(grid.count, first &+ grid.k) {
            let start = grid.start(at: i, alignment: alignment)
            if start <= local && local < start &+ grid.extent(at: i) { return s.bodyStart &+ i }
          }
        case .masonry(let m):
          var best: Int?
          for j in 0 ..< m.k {
            if let i = m.row(atPitch: local, lane: j), best == nil || i < best! { best = i }
          }
          if let best { return s.bodyStart &+ best }
        }
        return nil
      }
    }
    // Among the list rows before body p.
    let range = _listRange(before: p, count: tree.count)
    guard !range.isEmpty else { return nil }
    let shift = correction(before: p)
    guard let hit = tree._firstRowSpan(withPitchPrefixAfterAbove: y &- shift &+ tree.spacing) else { return nil }
    guard range.contains(hit.row), hit.extent > 0, hit.start <= y &- shift else { return nil }
    return hit.row
  }

  /// SPEC L5 / G4: the lowest index among the rows whose span holds `y`;
  /// where none does, lane by lane (a lane holds its rows and every row
  /// outside lane bodies) the first non-empty row after `y`, else the
  /// last non-empty row, and the lowest of the lanes' answers.
  /// - Precondition: `tree.count > 0`.
  /// - Complexity: O(k (log n + B)) for a point in or next to a row; a
  ///   lane with no non-empty row after `y` walks back from the end.
  @inlinable
  package func index(atPitch y: Int64, in tree: ExtentTree<ID>) -> Int {
    if let holding = _rowHolding(y, in: tree) { return holding }
    let lanes = sections.reduce(1) { Swift.max($0, $1.run.lanes) }
    let first = _firstSection(endingAfter: y, in: tree)
    var best = Int.max
    for j in 0 ..< lanes {
      best = Swift.min(best, _answer(lane: j, after: y, from: first, in: tree))
    }
    return best == Int.max ? tree.count &- 1 : best
  }

  /// G4 in lane `j` (its rows and every row outside lane bodies) at `y`,
  /// given that no row holds `y`: Int.max when the lane has no row.
  @inlinable
  package func _answer(lane j: Int, after y: Int64, from first: Int, in tree: ExtentTree<ID>) -> Int {
    // The first non-empty row after y, segment by segment.
    var p = first
    while true {
      let shift = correction(before: p)
      if let r = _listRow(_listRange(before: p, count: tree.count), shift: shift, startingAfter: y, in: tree) {
        return r
      }
      guard p < sections.count else { break }
      if let r = _bodyRow(p, lane: j, startingAfter: y, bodyAt: bodyStart(p, in: tree)) { return r }
      p &+= 1
    }
    // Else the last non-empty row, from the end.
    p = sections.count
    while true {
      if let r = _lastListRow(_listRange(before: p, count: tree.count), in: tree) { return r }
      guard p > 0 else { break }
      p &-= 1
      let s = sections[p]
      let local: Int?
      switch s.run {
      case .grid(let g, _): local = g.lastNonEmptyRow(inLane: j)
      case .masonry(let m): local = j < m.k ? m.lastNonEmptyRow(inLane: j) : nil
      }
      if let local { return s.bodyStart &+ local }
    }
    // Every row of the lane is empty: the first starting at or after y,
    // else the last (a linear walk: only lists of empty rows get here).
    var answer = Int.max
    var last = Int.max
    for i in 0 ..< tree.count {
      if let q = section(holding: i), lane(of: i) != j || j >= sections[q].run.lanes { continue }
      last = i
      if answer == Int.max && start(of: i, in: tree) >= y { answer = i }
    }
    return answer != Int.max ? answer : last
  }

  /// SPEC L5's hit test: the row whose frame holds the point at `y` along
  /// the main axis and `x` across, or nil.
  /// - Complexity: O(k (log n + B)).
  @inlinable
  package func row(at y: Int64, cross x: CGFloat, in tree: ExtentTree<ID>) -> Int? {
    guard let i = _rowHolding(y, in: tree) else { return nil }
    // In a lane body the row holding y may be in another lane than x.
    if let p = section(holding: i) {
      let s = sections[p]
      let g = bodyStart(p, in: tree)
      for j in 0 ..< s.run.lanes {
        let local: Int?
        switch s.run {
        case .grid(let grid, let alignment): local = grid.row(atPitch: y &- g, lane: j, alignment: alignment)
        case .masonry(let m): local = m.row(atPitch: y &- g, lane: j)
        }
        if let local, let c = cross(of: s.bodyStart &+ local), c.start <= x && x < c.start + c.width {
          return s.bodyStart &+ local
        }
      }
      return nil
    }
    return i
  }
}
