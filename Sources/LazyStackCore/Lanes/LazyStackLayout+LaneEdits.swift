import Foundation

// SPEC L8 in the layout: the edits that change the lane sections in place
// (a measurement, an insert, a removal, a move of plain rows; a kind's,
// a row's kind's or own estimate: K1), and what an edit they cannot follow
// leaves for the re-layout (the lanes masonry rows keep, L4, C2).

extension LazyStackLayout {
  // SPEC L8: the edits that change the lane sections in place. Each runs
  // right after its change to the tree and marks the sections current, so
  // the stabilization that follows does not lay them out again; an edit
  // these do not cover (or one that also moved kind 0's estimate, which
  // moves every estimated row) leaves them stale, and the stabilization
  // rebuilds them.

  /// The estimates before a change (kind 0's, and each kind slot's with
  /// kinds), for the lane sections to follow the rows it moves.
  @inlinable @inline(__always)
  internal var _laneEstimates: _LaneEstimates {
    _LaneEstimates(estimate: _tree.estimate, slots: _tree._kinds?.slotEstimates)
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
  /// rows `rows` (whose extents may have changed: a kind, an own estimate,
  /// a measurement) and every estimated row of a kind whose estimate moved
  /// since `before` (SPEC K1, K3) up to date in place, and marks the
  /// sections current. Leaves them for the re-layout when kind 0's
  /// estimate moved (every estimated row of kind 0 did), or when more
  /// rows moved than a re-layout costs (one in 64, at least 64).
  /// - Complexity: O(r k (log n + B) + c s log n) for the r rows that
  ///   moved, c kinds whose estimate did and s lane sections.
  @inlinable @inline(never)
  internal mutating func _lanesFollowExtents(of rows: some Collection<Int>, since before: _LaneEstimates) {
    guard _laneBox != nil else { return }
    func stale() { if _laneBox.unsafelyUnwrapped.value.current { _writableLanes().value.current = false } }
    guard _tree.estimate == before.estimate, _laneBox.unsafelyUnwrapped.value.pendingKeep.isSameRows else { return stale() }
    var moved: [Int] = []
    if let table = _tree._kinds, let old = before.slots {
      let budget = Swift.max(64, count / 64)
      let sections = _laneBox.unsafelyUnwrapped.value.sections
      for j in 0 ..< Swift.min(old.count, table.slotEstimates.count) where table.slotEstimates[j] != old[j] {
        guard sections.count <= budget else { return stale() }
        for section in sections {
          guard let found = _tree._estimatedRows(ofKind: table.kindOfSlot[j], in: section.body, limit: budget &- moved.count)
          else { return stale() }
          moved.append(contentsOf: found)
        }
      }
    }
    let box = _writableLanes()
    for i in rows { box.value.setExtent(_tree.extent(at: i), at: i) }
    for i in moved { box.value.setExtent(_tree.extent(at: i), at: i) }
    box.value.current = true
  }

  /// Row `index`'s extent went from `old` (units) to what the tree has
  /// now; `before`: the estimates before the measurement.
  @inlinable @inline(never)
  internal mutating func _lanesDidMeasure(_ index: Int, from old: Int64, before: _LaneEstimates, stamp: UInt64) {
    guard _laneBox != nil else { return }
    guard _tree._kinds == nil else { return _lanesFollowExtents(of: CollectionOfOne(index), since: before) }
    guard _tree.estimate == before.estimate else { return }  // `.meanOfMeasured`: every estimated row moved
    let new = _tree.extent(at: index)
    let box = _writableLanes()
    let grown = box.value.setExtent(new, old: old, at: index)
    box.value.current = true
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
    box.value.current = box.value.insert(Array(repeating: _tree.estimate, count: count), kept: nil,
                                         spacing: _tree.spacing, at: index)
    if !box.value.current { box.value.pendingKeep = .inserted(at: index, count: count) }
  }

  /// Before a move of the rows at sorted `indices` to `target` (an index
  /// among the rows left): the lanes they hold, when the lane sections can
  /// follow the move in place (`plain`: none is a header or a footer, and
  /// `_LaneLayout.lanesForMove`); else nil, and every masonry row's lane
  /// is kept by id for the re-layout (L4: moved rows keep their lanes).
  /// - Complexity: O(r (log n + B)) for r rows; O(m) expected for m
  ///   masonry rows when the sections cannot follow.
  @inlinable @inline(never)
  internal mutating func _lanesWillMove(_ indices: [Int], plain: Bool, to target: Int) -> [_KeptLane?]? {
    let lanes = _laneBox.unsafelyUnwrapped.value
    if plain && lanes.pendingKeep.isSameRows, let kept = lanes.lanesForMove(sortedIndices: indices, to: target) {
      return kept
    }
    _keepLanesByID()
    return nil
  }

  /// The rows at sorted `indices` were just moved to `target ..< target +
  /// kept.count` (`_lanesWillMove` gave `kept`): the lane sections follow
  /// in place, a removal and an insert whose masonry rows keep their
  /// lanes where their new section has the flow they had (L4, L8).
  /// - Complexity: O(r (log n + B) + k (B + log n) a section touched + s).
  @inlinable @inline(never)
  internal mutating func _lanesDidMove(_ indices: [Int], keeping kept: [_KeptLane?], to target: Int) {
    var extents: [Int64] = []
    extents.reserveCapacity(kept.count)
    for j in 0 ..< kept.count { extents.append(_tree.extent(at: target &+ j)) }
    let box = _writableLanes()
    let removed = box.value.remove(sortedIndices: indices, spacing: _tree.spacing)
    let inserted = box.value.insert(extents, kept: kept, spacing: _tree.spacing, at: target)
    precondition(removed && inserted, "LazyStackLayout.move: the lane sections did not follow a move they could")
    box.value.current = true
  }

  /// The rows at `indices` were just removed; `plain` says none was a
  /// header or a footer.
  /// `before`: the estimates before the removal (a removed measured row
  /// moves its kind's mean, K3).
  @inlinable @inline(never)
  internal mutating func _lanesDidRemove(_ indices: [Int], plain: Bool, before: _LaneEstimates) {
    guard _laneBox != nil else { return }
    let box = _writableLanes()
    if plain {
      box.value.current = box.value.remove(sortedIndices: indices, spacing: _tree.spacing)
    }
    guard box.value.current else {
      box.value.pendingKeep = .removed(indices)
      return
    }
    _lanesFollowExtents(of: EmptyCollection(), since: before)
  }

  /// Before `apply(_:)` removes the rows at sorted `indices` (those whose
  /// ids are in `reinserted` come back: a move, L4): when the lane
  /// sections can follow its removals in place, the lanes the returning
  /// masonry rows keep and the estimates now. They can when the sections
  /// are current with the rows, every removed row is plain, the removal
  /// keeps every headerless section, and no estimate will move (a measured
  /// row removed for good under `.meanOfMeasured` moves its kind's mean,
  /// and the new rows take their lanes by the rule under the estimates
  /// after the edit, K3, L4). Else every masonry row's lane is kept by id
  /// for the re-layout, and nil.
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
    guard lanes.pendingKeep.isSameRows,
          !indices.contains(where: { _tree.role(at: $0) != ExtentTree<ID>._plainRole || movesAMean($0) }),
          lanes._removalKeepsSections(indices) else {
      _keepLanesByID()
      return nil
    }
    var kept: [ID: _KeptLane] = [:]
    for i in indices {
      let id = _tree.id(at: i)
      guard reinserted.contains(id), let lane = lanes.keptLane(at: i) else { continue }
      kept[id] = lane
    }
    return _LaneApply(kept: kept, before: _laneEstimates)
  }

  /// `apply(_:)`'s removals, just made in the tree (`_lanesWillApply`
  /// said the sections follow them).
  /// - Complexity: O(r (log s + log m) + k (B + log m) a section touched + s).
  @inlinable @inline(never)
  internal mutating func _lanesDidApplyRemovals(_ indices: [Int]) {
    guard !indices.isEmpty else { return }
    let removed = _writableLanes().value.remove(sortedIndices: indices, spacing: _tree.spacing)
    precondition(removed, "LazyStackLayout.apply: the lane sections did not follow a removal they could")
  }

  /// Before one of `apply(_:)`'s insertions at `index`, with the lane
  /// sections following it in place so far (`lanes`): whether they take
  /// this one too. When they do not (its row would start a section), the
  /// lanes are kept by id from here (with the lanes the rows still to come
  /// back hold) for the re-layout, and `lanes` becomes nil.
  /// - Complexity: O(log s); O(m) expected for m masonry rows when the
  ///   sections cannot take it.
  @inlinable @inline(never)
  internal mutating func _lanesWillApplyInsert(at index: Int, _ lanes: inout _LaneApply<ID>?) {
    guard let following = lanes, !_laneBox.unsafelyUnwrapped.value.takesInsert(at: index) else { return }
    _keepLanesByID(adding: following.kept)
    lanes = nil
  }

  /// One of `apply(_:)`'s insertions, the row `id` just inserted at
  /// `index`: it keeps the lane `kept` holds for it (L4), else takes one
  /// by L4's rule.
  /// - Complexity: O(log n + k (B + log m) + s).
  @inlinable @inline(never)
  internal mutating func _lanesDidApplyInsert(at index: Int, id: ID, kept: [ID: _KeptLane]) {
    let lane = kept[id]
    let inserted = _writableLanes().value.insert([_tree.extent(at: index)], kept: lane.map { [$0] },
                                                 spacing: _tree.spacing, at: index)
    precondition(inserted, "LazyStackLayout.apply: the lane sections did not take an insert they could")
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

  /// Gives each masonry row the lane `snapshot` holds for it, where its
  /// section is a masonry of the lane count it had there (SPEC C1, C2):
  /// the sections' lanes are rewritten, and the settle that follows lays
  /// the sections out from them (the rows are the same: L4 reads each
  /// row's lane by its index). The snapshot's entries are matched in row
  /// order, each just after the one before (a layout of the same ids);
  /// from the first that is not, by a dictionary of the rest.
  /// - Complexity: O(m + w) for m masonry rows and w lane entries; O(w)
  ///   expected more for entries in another order.
  @inlinable @inline(never)
  internal mutating func _restoreLanes(from snapshot: LayoutSnapshot<ID>) {
    guard var sections = _laneBox?.value.sections else { return }
    let ids = snapshot._laneIDs
    var next = 0
    var byID: [ID: Int]?  // entry by id, from the first row found out of order
    var changed = false
    for p in sections.indices {
      guard let m = sections[p].masonry else { continue }
      let k = m.k
      // The lanes as they are, read block by block until one differs (a
      // relaunch into the same masonry usually finds none); then as one
      // array, to build the body from.
      var lanes: [Int] = []
      var (block, slot) = (0, 0)
      var r = 0
      var moved = false
      _tree.forEachRow(in: sections[p].body) { id, _, _ in
        defer { r &+= 1 }
        if !moved {
          while m.blocks.lanes[block].count == slot { (block, slot) = (block &+ 1, 0) }  // spares are empty
          slot &+= 1
        }
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
        guard entry >= 0, Int(snapshot._laneCountsLessOne[entry]) &+ 1 == k else { return }
        let lane = Int(snapshot._lanes[entry])
        if moved {
          lanes[r] = lane
        } else if Int(m.blocks.lanes[block][slot &- 1]) != lane {
          lanes = m.blocks.allLanes
          lanes[r] = lane
          moved = true
        }
      }
      if moved {
        sections[p].masonry = _MasonryLanes(extents: m.blocks.allExtents, lanes: lanes, lanes: k, spacing: m.spacing,
                                            blockCapacity: m.blocks.capacity)
        changed = true
      }
    }
    guard changed else { return }
    let box = _writableLanes()
    box.value.sections = sections
    box.value.current = false  // laid out again by the settle that follows
  }
}

/// What `apply(_:)` carries through its edits when the lane sections
/// follow it in place: the lanes of the masonry rows that come back (L4),
/// and the estimates before it.
@usableFromInline
internal struct _LaneApply<ID: Hashable & Sendable> {
  @usableFromInline let kept: [ID: _KeptLane]
  @usableFromInline let before: _LaneEstimates

  @inlinable
  init(kept: [ID: _KeptLane], before: _LaneEstimates) {
    self.kept = kept
    self.before = before
  }
}

/// The estimates before a change to the tree: kind 0's (the tree's
/// `estimate`) and each kind slot's, nil without kinds (SPEC K1); what the
/// lane sections need to follow the rows whose extent it moved.
@usableFromInline
internal struct _LaneEstimates: Sendable {
  @usableFromInline let estimate: Int64
  @usableFromInline let slots: ContiguousArray<Int64>?

  @inlinable
  init(estimate: Int64, slots: ContiguousArray<Int64>?) {
    self.estimate = estimate
    self.slots = slots
  }
}
