import Foundation

// SPEC L8 in the layout: the edits that change the lane sections in place
// (a measurement, an insert, a removal, a move of plain rows; a kind's,
// a row's kind's or own estimate: K1), and what an edit they cannot follow
// leaves for the re-layout (the lanes masonry rows keep, L4, C2).

extension LazyStackLayout {
  // SPEC L8: the edits that change the lane sections in place. Each runs
  // right after its change to the tree and marks the sections current, so
  // the stabilization that follows does not lay them out again; an edit
  // these do not cover leaves them stale, and the stabilization rebuilds
  // them. A change of kind 0's estimate (X2, K3: every row that follows it
  // moves) is followed in place too (`_LaneLayout.setEstimate(_:)`).

  /// The estimates before a change (kind 0's, and with kinds each kind's
  /// own, -1 where it has none), for the lane sections to follow the rows
  /// it moves.
  @inlinable @inline(__always)
  internal var _laneEstimates: _LaneEstimates {
    _LaneEstimates(estimate: _tree.estimate, kindEstimates: _tree._kinds?.estimates)
  }

  /// The estimates before a change of extents (a kind, an own estimate,
  /// an invalidation), for the lane sections to follow it
  /// (`_lanesFollow(_:since:)`); nil without lane sections: a list pays
  /// this one test and nothing at the call.
  @inlinable @inline(__always)
  internal var _lanesBeforeExtents: _LaneEstimates? {
    _slowPath(_laneBox != nil) ? _laneEstimates : nil
  }

  /// `_lanesFollowExtents(of:since:)` after a change whose estimates
  /// `before` held (`_lanesBeforeExtents`); nothing without lane sections.
  @inlinable @inline(__always)
  internal mutating func _lanesFollow(_ rows: some Collection<Int>, since before: _LaneEstimates?) {
    if let before { _lanesFollowExtents(of: rows, since: before) }
  }

  /// After a change to the tree with the lane sections otherwise up to
  /// date (an edit changed them in place, or nothing else changed): brings
  /// kind 0's estimate (`_LaneLayout.setEstimate(_:)`: the rows that
  /// follow it move without being written), rows `rows` (whose extents
  /// may have changed: a kind, an own estimate, a measurement) and every
  /// estimated row of a kind whose own estimate moved since `before`
  /// (SPEC K1, K3) up to date in place, and marks the sections current.
  /// Leaves them for the re-layout when more rows moved than a re-layout
  /// costs (one in 64, at least 64).
  /// - Complexity: O(r k (log n + B) + c s log n) for the r rows that
  ///   moved, c kinds whose own estimate did and s lane sections, plus
  ///   `_LaneLayout.setEstimate(_:)`'s when kind 0's estimate moved.
  @inlinable @inline(never)
  internal mutating func _lanesFollowExtents(of rows: some Collection<Int>, since before: _LaneEstimates) {
    guard _laneBox != nil else { return }
    func stale() { if _laneBox.unsafelyUnwrapped.value.current { _writableLanes().value.current = false } }
    guard _laneBox.unsafelyUnwrapped.value.pendingKeep.isSameRows else { return stale() }
    var moved: [Int] = []
    if let table = _tree._kinds, let old = before.kindEstimates {
      let budget = Swift.max(64, count / 64)
      let sections = _laneBox.unsafelyUnwrapped.value.sections
      for kind in table.kindOfSlot where table.estimates[Int(kind)] != old[Int(kind)] {
        guard sections.count <= budget else { return stale() }
        for section in sections {
          guard let found = _tree._estimatedRows(ofKind: kind, in: section.body, limit: budget &- moved.count)
          else { return stale() }
          moved.append(contentsOf: found)
        }
      }
    }
    let box = _writableLanes()
    box.value.setEstimate(_tree.estimate)
    for i in rows { box.value.setExtent(_tree.laneExtent(at: i), at: i) }
    for i in moved { box.value.setExtent(_tree.laneExtent(at: i), at: i) }
    box.value.current = true
  }

  /// Row `index`'s extent went from `old` (units) to what the tree has
  /// now; `before`: the estimates before the measurement.
  @inlinable @inline(never)
  internal mutating func _lanesDidMeasure(_ index: Int, from old: Int64, before: _LaneEstimates, stamp: UInt64) {
    guard _laneBox != nil else { return }
    guard _tree._kinds == nil else { return _lanesFollowExtents(of: CollectionOfOne(index), since: before) }
    let box = _writableLanes()
    let grown = box.value.setExtent(_tree.laneExtent(at: index), old: old, at: index)
    box.value.current = true
    // `.meanOfMeasured`: every row that follows the estimate moved too, and
    // the rows on screen are read again.
    guard _tree.estimate == before.estimate else { return box.value.setEstimate(_tree.estimate) }
    _patchMeetingCache(afterMeasuring: index, old: old, grown: grown, stamp: stamp)
  }

  /// `count` rows were just inserted at `index`, estimated (of kind 0,
  /// SPEC K1); `estimate`: kind 0's before the insert.
  @inlinable @inline(never)
  internal mutating func _lanesDidInsert(count: Int, at index: Int, estimate: Int64) {
    guard _laneBox != nil else { return }
    guard _tree.estimate == estimate else {
      _writableLanes().value.pendingKeep = .inserted(at: index, count: count)
      return
    }
    let box = _writableLanes()
    box.value.insert(Array(repeating: _LaneBlocks.followsEstimate, count: count), kept: nil,
                     spacing: _tree.spacing, startsSection: _rowsStartSection(at: index), at: index)
    box.value.current = true
  }

  /// Whether plain rows just inserted at `index` start a section without
  /// a header (L1): no row is before them, or a footer is.
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _rowsStartSection(at index: Int) -> Bool {
    index == 0 || _tree.role(at: index &- 1) == ExtentTree<ID>._footerRole
  }

  /// After an edit that emptied lane sections without a header (`box`:
  /// the sections, taken for a write): they go, but for one that still
  /// ends in a footer (L1: laid out afresh, the tree has no section there).
  /// - Complexity: O(s) for s lane sections, plus O(log n + B) an emptied one.
  @inlinable
  internal func _lanesDropEmptied(in box: _LaneBox<ID>) {
    box.value.dropEmptied { b in b < _tree.count && _tree.role(at: b) == ExtentTree<ID>._footerRole }
  }

  /// Whether the lane sections can follow in place an edit of headers or
  /// footers (laying out again the sections around them): outside a batch,
  /// where the last stabilization laid them out for the rows as they are
  /// (in a batch, edits they did not follow may come before).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal var _lanesFollowRoles: Bool {
    _batch == nil && _laneBox.unsafelyUnwrapped.value.pendingKeep.isSameRows
  }

  /// Before a move of the rows at sorted `indices`: the lanes they hold,
  /// when the lane sections can follow the move in place (`plain`: none is
  /// a header or a footer; else outside a batch, `_lanesFollowRoles`;
  /// `_LaneLayout.lanesForMove`); else nil, and every masonry row's lane
  /// is kept by id for the re-layout (L4: moved rows keep their lanes).
  /// - Complexity: O(r (log n + B)) for r rows; O(m) expected for m
  ///   masonry rows when the sections cannot follow.
  @inlinable @inline(never)
  internal mutating func _lanesWillMove(_ indices: [Int], plain: Bool) -> [_KeptLane?]? {
    let lanes = _laneBox.unsafelyUnwrapped.value
    if plain ? lanes.pendingKeep.isSameRows : _lanesFollowRoles { return lanes.lanesForMove(sortedIndices: indices) }
    _keepLanesByID()
    return nil
  }

  /// The rows at sorted `indices` were just moved to `target ..< target +
  /// kept.count` (`_lanesWillMove` gave `kept`): the lane sections follow
  /// in place, a removal and an insert whose masonry rows keep their
  /// lanes where their new section has the flow they had (L4, L8). With
  /// headers or footers among them (`roles`: where), the sections around
  /// where each was and around where they went are laid out again
  /// (`_LaneLayout.relayout`), the moved rows keeping the lanes they held.
  /// - Complexity: O(r (log n + B) + k (B + log n) a section touched + s);
  ///   with headers or footers, plus O(k m + s) for each place, m rows of
  ///   the sections around it.
  @inlinable @inline(never)
  internal mutating func _lanesDidMove(_ indices: [Int], keeping kept: [_KeptLane?], to target: Int,
                                      roles: [Int] = []) {
    var extents: [Int64] = []
    extents.reserveCapacity(kept.count)
    for j in 0 ..< kept.count { extents.append(_tree.laneExtent(at: target &+ j)) }
    let box = _writableLanes()
    let emptied = box.value.remove(sortedIndices: indices, spacing: _tree.spacing)
    box.value.insert(extents, kept: kept, spacing: _tree.spacing, startsSection: _rowsStartSection(at: target),
                     at: target)
    if emptied { _lanesDropEmptied(in: box) }
    if !roles.isEmpty {
      // Where each header or footer was, its neighbours now meet: after the
      // removal at `indices[j] - j`, after the insert `kept.count` further
      // when past `target`. And where the rows went.
      var spans = roles.map { j in
        let joint = indices[j] &- j
        let place = joint > target ? joint &+ kept.count : joint
        return (from: place, to: place)
      }
      spans.append((target, target &+ kept.count))
      _lanesRelayout(spans, given: kept.indices.map { (target &+ $0, kept[$0]) }, in: box)
    }
    box.value.current = true
  }

  /// Lays out again the lane sections from the one holding the row before
  /// `from` to the one holding the row at `to`, for each of `spans`, merged
  /// where they meet: the sections an edit of headers or footers there
  /// joined or split (SPEC H2, L1). `given`: rows the edit moved or
  /// inserted, sorted, and the lanes they keep (L4).
  /// - Complexity: O(p (log n + B) + k m + p s) for p spans and the m
  ///   rows of the sections around them.
  @inlinable
  internal func _lanesRelayout(_ spans: [(from: Int, to: Int)], given: [(row: Int, lane: _KeptLane?)] = [],
                               in box: _LaneBox<ID>) {
    guard count > 0 else {
      // No rows: no sections (a section of no rows whose footer went too).
      if !box.value.sections.isEmpty {
        box.value.sections.removeAll()
        box.value._rebuildCorrections()
      }
      return
    }
    var ranges: [Range<Int>] = []
    for span in spans {
      let low = _tree.section(containing: Swift.min(count &- 1, Swift.max(0, span.from &- 1))).lowerBound
      let high = _tree.section(containing: Swift.min(count &- 1, Swift.max(0, span.to))).upperBound
      ranges.append(low ..< high)
    }
    ranges.sort { $0.lowerBound < $1.lowerBound }
    var merged: [Range<Int>] = []
    for range in ranges {
      if let previous = merged.last, range.lowerBound <= previous.upperBound {
        merged[merged.count &- 1] = previous.lowerBound ..< Swift.max(previous.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    for range in merged { box.value.relayout(range, in: _tree, given: given) }
  }

  /// The rows at `indices` were just removed; `roles`: where among them
  /// the headers and footers were (none: all plain rows). Plain rows leave
  /// their bodies in place; with headers or footers, outside a batch
  /// (`_lanesFollowRoles`), the sections around where each was are laid
  /// out again too, else all of them at the stabilization.
  /// `before`: the estimates before the removal (a removed measured row
  /// moves its kind's mean, K3).
  /// - Complexity: O(r (log s + log m) + k (B + log m) a section touched +
  ///   s); with headers or footers, plus O(k m + s) for each place, m rows
  ///   of the sections around it.
  @inlinable @inline(never)
  internal mutating func _lanesDidRemove(_ indices: [Int], roles: [Int], before: _LaneEstimates) {
    guard _laneBox != nil else { return }
    guard roles.isEmpty || _lanesFollowRoles else {
      _writableLanes().value.pendingKeep = .removed(indices)
      return
    }
    do {
      let box = _writableLanes()
      if box.value.remove(sortedIndices: indices, spacing: _tree.spacing) { _lanesDropEmptied(in: box) }
      // Where each header or footer was, the rows before and after it meet.
      if !roles.isEmpty { _lanesRelayout(roles.map { (indices[$0] &- $0, indices[$0] &- $0) }, in: box) }
    }
    _lanesFollowExtents(of: EmptyCollection(), since: before)
  }

  /// Before `apply(_:)` removes the rows at sorted `indices` (those whose
  /// ids are in `reinserted` come back: a move, L4): when the lane
  /// sections can follow its removals in place, the lanes the returning
  /// masonry rows keep, the estimates now, and where removed headers and
  /// footers were. They can when the sections are current with the rows,
  /// no header or footer is removed in a batch (`_lanesFollowRoles`), and
  /// no estimate will move (a measured row removed for good under
  /// `.meanOfMeasured` moves its kind's mean, and the new rows take their
  /// lanes by the rule under the estimates after the edit, K3, L4). Else
  /// every masonry row's lane is kept by id for the re-layout, and nil.
  /// - Complexity: O(r (log n + B)) for r removed rows; O(m) expected for
  ///   m masonry rows when the sections cannot follow.
  @inlinable @inline(never)
  internal mutating func _lanesWillApply(_ indices: [Int], reinserted: Set<ID>) -> _LaneApply<ID>? {
    let lanes = _laneBox.unsafelyUnwrapped.value
    func movesAMean(_ i: Int) -> Bool {
      let location = _tree._locate(i)
      guard _tree._storedExtent(at: location) >= 0, !reinserted.contains(_tree._row(at: location).id) else { return false }
      let kind = _tree._kinds == nil ? 0 : ExtentTree<ID>._kind(ofExtra: _tree._extra(at: location))
      return estimatePolicy(forKind: kind) == .meanOfMeasured
    }
    // Headers and footers, outside a batch: where each was (`joints`, in
    // the rows after the removals) and where one that comes back goes, the
    // sections around are laid out again at the end (`_lanesDidApply`).
    var joints: [Int] = []
    var movesRoles = false
    var follows = lanes.pendingKeep.isSameRows
    for (k, i) in indices.enumerated() where follows {
      if movesAMean(i) { follows = false }
      guard _tree.role(at: i) != ExtentTree<ID>._plainRole else { continue }
      if !_lanesFollowRoles { follows = false }
      if reinserted.contains(_tree.id(at: i)) { movesRoles = true }
      joints.append(i &- k)
    }
    guard follows else {
      _keepLanesByID()
      return nil
    }
    var kept: [ID: _KeptLane] = [:]
    for i in indices {
      let id = _tree.id(at: i)
      guard reinserted.contains(id), let lane = lanes.keptLane(at: i) else { continue }
      kept[id] = lane
    }
    return _LaneApply(kept: kept, before: _laneEstimates, joints: joints, movesRoles: movesRoles)
  }

  /// At the end of an `apply(_:)` that removed or moved headers or footers
  /// (`lanes.joints`): the sections around where each was, and around
  /// each that came back, laid out again (`_lanesRelayout`), the rows
  /// inserted there keeping the lanes `lanes.kept` gives them, a new row
  /// placed by L4's rule (as a full re-layout would, with the rows before
  /// it in place). `insertions`: the rows inserted, at their offsets, in
  /// ascending order.
  /// - Complexity: O(r + p log r + k m + p s) for r insertions, p headers
  ///   or footers and the m rows of the sections around them.
  @inlinable @inline(never)
  internal mutating func _lanesDidApply(_ lanes: _LaneApply<ID>, insertions: [(row: Int, id: ID)]) {
    // The t-th inserted row has `row - t` of the rows left by the removals
    // before it (non-decreasing in t): those before row j are the first
    // whose count is at most j.
    func final(_ j: Int) -> Int {
      var low = 0
      var high = insertions.count
      while low < high {
        let mid = (low &+ high) / 2
        if insertions[mid].row &- mid <= j { low = mid &+ 1 } else { high = mid }
      }
      return j &+ low
    }
    var spans: [(from: Int, to: Int)] = []
    for j in lanes.joints { spans.append((j == 0 ? 0 : final(j &- 1) &+ 1, final(j))) }
    if lanes.movesRoles {
      for (row, _) in insertions where _tree.role(at: row) != ExtentTree<ID>._plainRole { spans.append((row, row &+ 1)) }
    }
    let given = insertions.map { (row: $0.row, lane: lanes.kept[$0.id]) }
    _lanesRelayout(spans, given: given, in: _writableLanes())
  }

  /// `apply(_:)`'s removals, just made in the tree (`_lanesWillApply`
  /// said the sections follow them).
  /// - Complexity: O(r (log s + log m) + k (B + log m) a section touched + s).
  @inlinable @inline(never)
  internal mutating func _lanesDidApplyRemovals(_ indices: [Int]) {
    guard !indices.isEmpty else { return }
    let box = _writableLanes()
    if box.value.remove(sortedIndices: indices, spacing: _tree.spacing) { _lanesDropEmptied(in: box) }
  }

  /// One of `apply(_:)`'s insertions, the row `id` just inserted at
  /// `index`: it keeps the lane `kept` holds for it (L4), else takes one
  /// by L4's rule.
  /// - Complexity: O(log n + k (B + log m) + s).
  @inlinable @inline(never)
  internal mutating func _lanesDidApplyInsert(at index: Int, id: ID, kept: [ID: _KeptLane]) {
    let lane = kept[id]
    let box = _writableLanes()
    box.value.insert([_tree.laneExtent(at: index)], kept: lane.map { [$0] }, spacing: _tree.spacing,
                     startsSection: _rowsStartSection(at: index), at: index)
  }

  /// Keeps every masonry row's lane by id before an edit that changes the
  /// rows otherwise than by an insert or a removal (a move, `apply`,
  /// `update(ids:)`): the re-layout after it reads them (L4).
  /// `adding`: lanes of rows that are not in the sections now (rows of an
  /// `apply` still to come back), kept as well.
  /// - Complexity: O(m) expected for m masonry rows; O(1) without lanes.
  @inlinable @inline(never)
  internal mutating func _keepLanesByID(adding extra: [ID: _KeptLane] = [:]) {
    guard let lanes = _laneBox?.value else { return }
    var kept = extra
    for section in lanes.sections {
      guard let m = section.masonry else { continue }
      let all = m.blocks.allLanes
      var l = 0
      _tree.forEachRow(in: section.body) { id, _, _ in
        kept[id] = _KeptLane(lane: all[l], layout: section.layout, lanes: m.k)
        l &+= 1
      }
    }
    _writableLanes().value.pendingKeep = kept.isEmpty ? .sameRows : .byID(kept)
  }

  /// Gives masonry rows the lanes `snapshot` holds (SPEC C1, C2): a
  /// section the snapshot names unchanged (the same first row, row count
  /// and lane count) gets its runs' lanes but for the rows it lists; a
  /// listed row of another section gets its lane where its section is a
  /// masonry of the lane count it had there, and the other rows keep
  /// theirs. A section whose lanes change is rebuilt from them, and the
  /// settle that follows lays the sections out (the rows are the same: L4
  /// reads each row's lane by its index).
  /// - Complexity: O(w) for w rows of the masonry sections the snapshot
  ///   names or lists rows of (a pass over their lanes; an id read a
  ///   masonry section, to match it), plus O(e (log n + B)) for e listed
  ///   rows, or O(w) when they are more than one in 32 (one walk of the
  ///   ids, matching the entries in row order, by a dictionary from the
  ///   first out of order).
  @inlinable @inline(never)
  internal mutating func _restoreLanes(from snapshot: LayoutSnapshot<ID>) {
    guard let layout = _laneBox?.value else { return }
    var sections = layout.sections
    // Each section here the snapshot names unchanged: its saved section.
    var saved = [LayoutSnapshot<ID>.MasonrySection?](repeating: nil, count: sections.count)
    if !snapshot.masonrySections.isEmpty {
      var named: [ID: Int] = [:]
      for (r, section) in snapshot.masonrySections.enumerated() { named[section.firstID] = r }
      for p in sections.indices {
        guard let m = sections[p].masonry, m.count > 0, let r = named[_tree.id(at: sections[p].bodyStart)] else { continue }
        let section = snapshot.masonrySections[r]
        if section.rowCount == m.count && section.laneCount == m.k { saved[p] = section }
      }
    }
    let listed = _listedLanes(of: snapshot, in: layout)
    var changed = false
    for p in sections.indices {
      guard let m = sections[p].masonry, saved[p] != nil || !listed[p].isEmpty else { continue }
      let k = m.k
      let rows = listed[p]
      let runs = saved[p]?.runs ?? []
      // The lane row r is restored to, given its lane here: its listed
      // lane, else its run's, else its own. Rows are asked in order.
      var (r, phase, next, run) = (0, 0, 0, 0)
      func wanted(_ lane: Int) -> Int {
        defer {
          r &+= 1
          phase = phase &+ 1 == k ? 0 : phase &+ 1
        }
        if run &+ 1 < runs.count && runs[run &+ 1].start == r { (run, phase) = (run &+ 1, 0) }
        if next < rows.count && rows[next].row == r {
          next &+= 1
          return rows[next &- 1].lane
        }
        return runs.isEmpty ? lane : runs[run].lanes[phase]
      }
      // The lanes as they are, compared with the restored ones (a relaunch
      // into the same masonry usually finds them equal).
      var same = true
      compare: for block in m.blocks.lanes {
        for lane in block where wanted(Int(lane)) != Int(lane) {
          same = false
          break compare
        }
      }
      if same { continue }
      (r, phase, next, run) = (0, 0, 0, 0)
      let lanes = m.blocks.allLanes.map(wanted)
      sections[p].masonry = _MasonryLanes(extents: m.blocks.allExtents, lanes: lanes, lanes: k, spacing: m.spacing,
                                          estimate: m.estimate, blockCapacity: m.blocks.capacity)
      changed = true
    }
    guard changed else { return }
    let box = _writableLanes()
    box.value.sections = sections
    box.value.current = false  // laid out again by the settle that follows
  }

  /// The rows `snapshot` lists with a lane that apply here, section by
  /// section of `layout`: each a row of a masonry section of the lane
  /// count it had, as its place in the body and its lane, in row order.
  /// - Complexity: O(e (log n + B)) for e entries; O(w + e) expected for
  ///   w masonry rows when e is more than one in 32 of them.
  @inlinable
  internal func _listedLanes(of snapshot: LayoutSnapshot<ID>, in layout: _LaneLayout<ID>) -> [[(row: Int, lane: Int)]] {
    var listed = [[(row: Int, lane: Int)]](repeating: [], count: layout.sections.count)
    let ids = snapshot._laneIDs
    guard !ids.isEmpty else { return listed }
    func fits(_ e: Int, _ m: _MasonryLanes) -> Bool {
      Int(snapshot._laneCountsLessOne[e]) &+ 1 == m.k && Int(snapshot._lanes[e]) < m.k
    }
    let masonryRows = layout.sections.reduce(0) { $0 &+ ($1.masonry?.count ?? 0) }
    if ids.count &* 32 <= masonryRows {
      for e in ids.indices {
        guard let i = _tree.index(of: ids[e]), let p = layout.section(holding: i),
              let m = layout.sections[p].masonry, fits(e, m) else { continue }
        listed[p].append((i &- layout.sections[p].bodyStart, Int(snapshot._lanes[e])))
      }
      for p in listed.indices where !listed[p].isEmpty { listed[p].sort { $0.row < $1.row } }
      return listed
    }
    // Many entries: the ids walked once, the entries matched in row order,
    // each just after the one before (a layout of the same ids); from the
    // first that is not, by a dictionary of the rest.
    var next = 0
    var byID: [ID: Int]?
    for p in layout.sections.indices {
      guard let m = layout.sections[p].masonry else { continue }
      var r = 0
      _tree.forEachRow(in: layout.sections[p].body) { id, _, _ in
        defer { r &+= 1 }
        var entry = -1
        if byID == nil && next < ids.count && ids[next] == id {
          entry = next
          next &+= 1
        } else {
          if byID == nil {
            var map: [ID: Int] = [:]
            map.reserveCapacity(ids.count &- next)
            for e in next ..< ids.count where map[ids[e]] == nil { map[ids[e]] = e }
            byID = map
          }
          entry = byID.unsafelyUnwrapped[id] ?? -1
        }
        if entry >= 0 && fits(entry, m) { listed[p].append((r, Int(snapshot._lanes[entry]))) }
      }
    }
    return listed
  }
}

/// What `apply(_:)` carries through its edits when the lane sections
/// follow it in place: the lanes of the masonry rows that come back (L4),
/// and the estimates before it.
@usableFromInline
internal struct _LaneApply<ID: Hashable & Sendable> {
  @usableFromInline let kept: [ID: _KeptLane]
  @usableFromInline let before: _LaneEstimates
  /// Where removed headers and footers were, in the rows after the
  /// removals (none: all the removed rows were plain).
  @usableFromInline let joints: [Int]
  /// Whether a header or a footer among them comes back.
  @usableFromInline let movesRoles: Bool

  @inlinable
  init(kept: [ID: _KeptLane], before: _LaneEstimates, joints: [Int], movesRoles: Bool) {
    self.kept = kept
    self.before = before
    self.joints = joints
    self.movesRoles = movesRoles
  }
}

/// The estimates before a change to the tree: kind 0's (the tree's
/// `estimate`) and each kind's own, nil without kinds (SPEC K1); what the
/// lane sections need to follow the rows whose extent it moved.
@usableFromInline
internal struct _LaneEstimates: Sendable {
  /// Kind 0's estimate.
  @usableFromInline let estimate: Int64
  /// Each kind's own estimate, by kind (-1: it has none, it follows kind
  /// 0's), with kinds.
  @usableFromInline let kindEstimates: ContiguousArray<Int64>?

  @inlinable
  init(estimate: Int64, kindEstimates: ContiguousArray<Int64>?) {
    self.estimate = estimate
    self.kindEstimates = kindEstimates
  }
}

