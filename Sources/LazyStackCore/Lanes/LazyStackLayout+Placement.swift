import Foundation

// The placement: the one seam between the layout and where its rows go.
//
// A list places its rows end to end in index order; lane sections (grids
// and masonry, SPEC §13, `_laneBox`) place them in lanes. The layout asks
// the placement every geometry question and tells it every change through
// the names in this file (and snapping's two, `_lanesInForce` and
// `_laneSnapGeometry`, L7), and through no others: each is one test of
// `_laneBox`, inlined, with the list's case answered where it is asked
// (the tree's own search, as fast as with no lanes at all) and the lanes'
// case a call into the rest of Lanes/.
//
// | the layout asks                    | here                       |
// |------------------------------------|----------------------------|
// | a row's start, and its extent      | `_placedStart`, `_span`    |
// | a row's cross-axis place (F1)      | `_proposedCross`           |
// | the total extent (G2)              | `_contentUnits`            |
// | the row at a point, by pitch       | `_placeRow(atUnits:)`      |
// | a row's frame (G2, L3)             | `_placedFrame(at:)`        |
// | the row at an offset (G4)          | `_row(atUnits:)`           |
// | the first row shown from a point   | `_firstVisible(from:)`     |
// | the rows meeting a window (G5, L5) | `_rows(intersecting:_:)`, `_spansMeeting` |
// | a row spanning an empty viewport   | `_rowSpanning(_:)`         |
// | a row's snapping start (L7)        | `_snapStart(of:)`          |
//
// | the layout tells                    | here                                     |
// |-------------------------------------|------------------------------------------|
// | rows inserted                       | `_placementDidInsert`                    |
// | rows removed                        | `_placementWillRemove`, `_placementDidRemove` |
// | rows moved                          | `_placementWillMove` (then `_lanesDidMove`) |
// | a difference applied (`apply`)      | `_placementWillApply`, `…DidApplyRemovals`, `…DidApplyInsert`, `…DidApply` |
// | rows changed otherwise (`update(ids:)`, a restore) | `_placementKeepsLanesByID` |
// | a row measured                      | `_placementOldExtent`, `_placementSettlesMeasurement` |
// | a row's role                        | `_placementSetsRole`                     |
// | estimates and kinds changed         | `_lanesBeforeExtents`, `_lanesFollow` (LaneEdits) |
// | a snapshot taken, restored          | `_placementAppendLanes`, `_placementRestoresLanes` |
// | a settle: catch up, the viewport, done | `_placementCatchesUp`, `_placementFollowsViewport`, `_placementLaidOut` |
//
// What stays outside, eight tests in four files: where a list answers a
// whole question by a path of its own rather than through the questions
// above. Tracking the row a user scroll keeps (Tracking, two: a list
// searches one block), the rows to measure in a frame (Frame: a list with
// no pinned or kept rows measures a range), the rows after the viewport
// (Frame: a list's starts grow with the index), the rows seen past a
// threshold and the row a view-aligned target starts at (Motion), and a
// batch's saved state (Batch, two: with lanes it keeps the whole layout
// from its start, a list the log).

extension LazyStackLayout {
  // MARK: Questions

  /// The frame of the row at `index` (G2, L3, L4), in content coordinates.
  /// - Complexity: O(log n + B); with lanes O(log n + k + B).
  @inlinable @inline(__always)
  internal func _placedFrame(at index: Int) -> CGRect {
    if _slowPath(_laneBox != nil) { return _laneFrame(at: index) }
    return _listFrame(at: index)
  }

  /// Row `i`'s start (where lanes put it) and extent, in the tree's
  /// coordinates.
  /// - Complexity: O(log n + B); with lanes O(log n + k + B).
  @inlinable @inline(__always)
  internal func _span(_ i: Int) -> (start: Int64, extent: Int64) {
    guard let lanes = _laneBox?.value else { return _tree.span(i) }
    return (lanes.start(of: i, in: _tree), _tree.extent(at: i))
  }

  /// Row `i`'s start, in the tree's coordinates.
  /// - Complexity: O(log n + B); with lanes O(log n + k + B).
  @inlinable @inline(__always)
  internal func _placedStart(_ i: Int) -> Int64 {
    guard let lanes = _laneBox?.value else { return _tree.pitchPrefix(i) }
    return lanes.start(of: i, in: _tree)
  }

  /// The cross-axis extent of row `index`'s frame (F1): its lane's, or the
  /// list's.
  /// - Complexity: O(1) in a list; with lanes O(log n + B).
  @inlinable @inline(__always)
  internal func _proposedCross(at index: Int) -> CGFloat {
    if _slowPath(_laneBox != nil), let cross = _laneBox.unsafelyUnwrapped.value.cross(of: index) { return cross.width }
    return _listCrossLength
  }

  /// The main-axis content extent in units: insets, extents and spacing (G2).
  /// - Complexity: O(1); with lanes O(log s) for s lane sections.
  @inlinable @inline(__always)
  internal var _contentUnits: Int64 {
    if _slowPath(_laneBox != nil) { return _laneContentUnits }
    return _leadingInset &+ _tree.totalExtent &+ _trailingInset
  }

  /// The row whose pitch holds the content point `y` (units, leading inset
  /// included): the first row before the content, the last after it.
  /// - Complexity: O(log n + B); with k lanes O(k (log n + B)).
  @inlinable
  internal func _placeRow(atUnits y: Int64) -> Int {
    if let lanes = _laneBox?.value {
      return Swift.min(lanes.firstRow(from: y &- _leadingInset, byPitch: true, in: _tree), count &- 1)
    }
    return _tree.firstRow(withPitchPrefixAfterAbove: y &- _leadingInset) ?? (count &- 1)
  }

  /// `index(atOffset:)` in units, in unshifted content coordinates.
  /// (Not always inlined: the list's body holds calls that take the tree,
  /// and a caller that inlined them would copy it, HowItWorks.)
  /// - Complexity: O(log n + B); with k lanes O(k (log n + B)).
  @inlinable
  internal func _row(atUnits y: Int64) -> Int {
    if _slowPath(_laneBox != nil) { return _laneBox.unsafelyUnwrapped.value.index(atPitch: y &- _leadingInset, in: _tree) }
    return _listRow(atUnits: y)
  }

  /// The first row that is visible from `low` down, by the rule of
  /// `visibleIndices`, or `count`.
  /// - Complexity: O(log n + B); with k lanes O(k (log n + B)).
  @inlinable
  internal func _firstVisible(from low: Int64) -> Int {
    if _slowPath(_laneBox != nil) { return _laneBox.unsafelyUnwrapped.value.firstRow(from: low &- _leadingInset, in: _tree) }
    return _firstVisibleSpan(from: low)?.first ?? count
  }

  /// With lanes, a row that spans the point `low` (unshifted content
  /// units) though it starts before it, the first such: an empty viewport
  /// there shows it first (L5). In a list, nil: the first row that ends
  /// after the point is that row anyway.
  /// - Complexity: O(1) in a list; with lanes O(k (log n + B)).
  @inlinable
  internal func _rowSpanning(_ low: Int64) -> Int? {
    guard let lanes = _laneBox?.value else { return nil }
    let y = low &- _leadingInset
    return lanes.rows(meeting: y, y &+ 1, in: _tree).first { lanes.start(of: $0, in: _tree) < y }
  }

  /// The rows visible in `[low, high)` (unshifted content units): with
  /// lanes the smallest range holding them (L5).
  /// - Complexity: O(log n + B); with lanes O(k (log n + B) + r).
  @inlinable
  internal func _rows(intersecting low: Int64, _ high: Int64) -> Range<Int> {
    if _slowPath(_laneBox != nil) { return _laneRows(intersecting: low, high) }
    return _listRows(intersecting: low, high)
  }

  /// The rows that meet the window `[low, high)` of content units (the
  /// coordinates of `contentOffset`), in index order (G5's intersection),
  /// each with its main-axis start (in the same coordinates) and extent.
  /// - Complexity: O(log n + B + r) in a list, O(k (log n + B) + r) with lanes.
  @inlinable
  internal func _spansMeeting(_ low: Int64, _ high: Int64) -> [(row: Int, start: Int64, extent: Int64)] {
    guard count > 0, high > low else { return [] }
    let base = _alignmentShift &+ _leadingInset
    if let lanes = _laneBox?.value {
      return lanes.spans(meeting: low &- base, high &- base, in: _tree).map { ($0.row, $0.start &+ base, $0.extent) }
    }
    let rows = _rows(intersecting: low &- _alignmentShift, high &- _alignmentShift)
    var spans: [(row: Int, start: Int64, extent: Int64)] = []
    spans.reserveCapacity(rows.count)
    var i = rows.lowerBound
    _tree.forEachRow(in: rows) { _, start, extent in
      spans.append((i, start &+ base, extent))
      i &+= 1
    }
    return spans
  }

  /// Where row `index` snaps (L7): its line's start in a grid, its own
  /// start elsewhere; units, leading inset included.
  /// - Complexity: O(log n + B); with lanes O(log n + k + B).
  @inlinable
  internal func _snapStart(of index: Int) -> Int64 {
    if let lanes = _laneBox?.value, lanes.hasLanes { return _leadingInset &+ lanes.snapStart(of: index, in: _tree) }
    return _rowStartUnits(at: index)
  }

  // MARK: Changes

  /// After `count` rows were inserted at `index` into the tree (kind 0's
  /// estimate `estimate` before): the lanes take them in place (L8).
  /// - Complexity: O(1) in a list; with lanes see `_lanesDidInsert`.
  @inlinable @inline(__always)
  internal mutating func _placementDidInsert(count: Int, at index: Int, estimate: Int64) {
    if _slowPath(_laneBox != nil) { _lanesDidInsert(count: count, at: index, estimate: estimate) }
  }

  /// Before the rows at the sorted `indices` are removed from the tree:
  /// where among them the headers and footers are (none: all plain rows),
  /// and the estimates then; nil in a list.
  /// - Complexity: O(1) in a list; with lanes O(r (log n + B)) for r rows.
  @inlinable @inline(__always)
  internal func _placementWillRemove(_ indices: some Collection<Int>) -> (roles: [Int], before: _LaneEstimates)? {
    guard _slowPath(_laneBox != nil) else { return nil }
    var roles: [Int] = []
    for (k, i) in indices.enumerated() where _tree.role(at: i) != ExtentTree<ID>._plainRole { roles.append(k) }
    return (roles, _laneEstimates)
  }

  /// After the rows at the sorted `indices` were removed (`note` from
  /// `_placementWillRemove`): the lanes drop them in place (L8).
  /// - Complexity: O(1) in a list; with lanes see `_lanesDidRemove`.
  @inlinable @inline(__always)
  internal mutating func _placementDidRemove(_ indices: some Collection<Int>,
                                             _ note: (roles: [Int], before: _LaneEstimates)?) {
    if let note { _lanesDidRemove(Array(indices), roles: note.roles, before: note.before) }
  }

  /// Before the rows at the sorted `indices` move (`plain`: all of the
  /// plain role): the lanes they keep (L4), for `_lanesDidMove`;
  /// nil in a list, or when the lanes will be laid out again.
  /// - Complexity: O(1) in a list; with lanes see `_lanesWillMove`.
  @inlinable @inline(__always)
  internal mutating func _placementWillMove(_ indices: [Int], plain: Bool) -> [_KeptLane?]? {
    guard _slowPath(_laneBox != nil) else { return nil }
    return _lanesWillMove(indices, plain: plain)
  }

  /// Before `apply(_:)` removes the rows at sorted `indices` (`reinserted`:
  /// the ids that come back): what the lanes carry through it in place, or
  /// nil (in a list; with lanes that cannot follow it, they keep their
  /// lanes by id for the re-layout).
  /// - Complexity: O(1) in a list; with lanes see `_lanesWillApply`.
  @inlinable @inline(__always)
  internal mutating func _placementWillApply(_ indices: [Int], reinserted: Set<ID>) -> _LaneApply<ID>? {
    guard _slowPath(_laneBox != nil) else { return nil }
    return _lanesWillApply(indices, reinserted: reinserted)
  }

  /// After `apply(_:)`'s removals (`lanes` from `_placementWillApply`).
  /// - Complexity: O(1) in a list; with lanes see `_lanesDidApplyRemovals`.
  @inlinable @inline(__always)
  internal mutating func _placementDidApplyRemovals(_ indices: [Int], _ lanes: _LaneApply<ID>?) {
    if lanes != nil { _lanesDidApplyRemovals(indices) }
  }

  /// After one of `apply(_:)`'s insertions, of `id` at `index`.
  /// - Complexity: O(1) in a list; with lanes see `_lanesDidApplyInsert`.
  @inlinable @inline(__always)
  internal mutating func _placementDidApplyInsert(at index: Int, id: ID, _ lanes: _LaneApply<ID>?) {
    if let lanes { _lanesDidApplyInsert(at: index, id: id, kept: lanes.kept) }
  }

  /// At the end of `apply(_:)` (of `difference`), after the estimates were
  /// refreshed: where it removed or moved headers or footers, the sections
  /// around are laid out again (`_lanesDidApply`); the lanes follow the
  /// estimated rows whose kind's estimate moved (K3), and are current.
  /// - Complexity: O(1) in a list; with lanes see `_lanesDidApply` and
  ///   `_lanesFollowExtents`.
  @inlinable @inline(__always)
  internal mutating func _placementDidApply(_ lanes: _LaneApply<ID>?, _ difference: CollectionDifference<ID>) {
    guard let lanes else { return }
    if !lanes.joints.isEmpty {
      var insertions: [(row: Int, id: ID)] = []
      for case .insert(let offset, let id, _) in difference.insertions { insertions.append((offset, id)) }
      _lanesDidApply(lanes, insertions: insertions)
    }
    _lanesFollowExtents(of: EmptyCollection(), since: lanes.before)
  }

  /// Before an edit that changes the rows otherwise than by an insert, a
  /// removal or a move in place (`update(ids:)`, an `apply` or a move the
  /// lanes do not follow): masonry rows keep their lanes by id (L4).
  /// - Complexity: O(1) in a list; with lanes see `_keepLanesByID`.
  @inlinable @inline(__always)
  internal mutating func _placementKeepsLanesByID() {
    if _slowPath(_laneBox != nil) { _keepLanesByID() }
  }

  /// The extent of the row at `location` before a measurement, for the
  /// lanes to follow it; 0 in a list (not read).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal func _placementOldExtent(at location: ExtentTree<ID>._Location) -> Int64 {
    guard _slowPath(_laneBox != nil) else { return 0 }
    return _tree._extent(ofStored: _tree._storedExtent(at: location), at: location)
  }

  /// After row `index` was measured (from extent `old`, the estimates
  /// `before` and the stamp `stamp` as they were): the lanes follow it in
  /// place (L8), and the layout settles (S1–S6).
  /// - Complexity: O(log n + B); with lanes see `_lanesDidMeasure`.
  @inlinable @inline(__always)
  internal mutating func _placementSettlesMeasurement(_ index: Int, from old: Int64, before lanes: _LaneEstimates,
                                                      stamp: UInt64, settling before: _Before) -> ScrollCorrection {
    guard _slowPath(_laneBox != nil) else { return _settleNow(from: before, cause: .measurement) }
    _lanesDidMeasure(index, from: old, before: lanes, stamp: stamp)
    let correction = _settleNow(from: before, cause: .measurement)
    _followMeetingCache()
    return correction
  }

  /// Sets the role of the row at `location` where lane sections exist
  /// (H1, L8), or nil in a list (the caller sets it).
  /// - Complexity: O(1) in a list; with lanes see `_setRoleInLanes`.
  @inlinable @inline(__always)
  internal mutating func _placementSetsRole(_ role: RowRole, at location: ExtentTree<ID>._Location) -> Bool? {
    guard _slowPath(_laneBox != nil), _laneBox.unsafelyUnwrapped.value.hasLanes else { return nil }
    return _setRoleInLanes(role, at: location)
  }

  /// Adds each masonry section to `snapshot`, its runs, and the lanes of
  /// its rows whose lanes differ from their run's (C1): a masonry whose
  /// rows took their lanes together at one estimate adds one entry a
  /// section.
  /// - Complexity: O(1) in a list; O(w) for w masonry rows (a pass over
  ///   their lanes), plus O(e (k + log n + B)) for e rows listed, or
  ///   O(w) when they are more than one in 16.
  @inlinable
  internal func _placementAppendLanes(to snapshot: inout LayoutSnapshot<ID>) {
    guard let lanes = _laneBox?.value else { return }
    for section in lanes.sections {
      guard let m = section.masonry, m.count > 0 else { continue }
      let body = section.body
      let countLessOne = UInt8(truncatingIfNeeded: m.k &- 1)
      let (runs, out) = m.blocks.masonryRuns(lanes: m.k)
      snapshot._masonrySections.append(.init(firstID: _tree.id(at: body.lowerBound), rowCount: body.count, laneCount: m.k,
                                            runs: runs.map { .init(start: $0.start, lanes: $0.lanes) }))
      guard !out.isEmpty else { continue }
      if out.count &* 16 <= body.count {
        for r in out {
          snapshot._appendLane(of: _tree.id(at: body.lowerBound &+ r), lane: UInt8(truncatingIfNeeded: m.blocks.lane(at: r)),
                               countLessOne: countLessOne)
        }
      } else {
        // Many rows listed: one walk of the ids rather than a search for each.
        let all = m.blocks.allLanes
        var (r, next) = (0, 0)
        _tree.forEachRow(in: body) { id, _, _ in
          if next < out.count && out[next] == r {
            snapshot._appendLane(of: id, lane: UInt8(truncatingIfNeeded: all[r]), countLessOne: countLessOne)
            next &+= 1
          }
          r &+= 1
        }
      }
    }
  }

  /// Gives masonry rows the lanes `snapshot` holds (C2).
  /// - Complexity: O(1) in a list or for a snapshot with no lanes; else
  ///   see `_restoreLanes`.
  @inlinable @inline(__always)
  internal mutating func _placementRestoresLanes(from snapshot: LayoutSnapshot<ID>) {
    if (!snapshot._laneIDs.isEmpty || !snapshot.masonrySections.isEmpty) && _laneBox != nil { _restoreLanes(from: snapshot) }
  }

  /// At a settle: lays the lane sections out again if an edit left them
  /// stale (SPEC §13: rows, extents or roles changed).
  /// - Complexity: O(1) in a list or when the lanes are current; else O(n).
  @inlinable @inline(__always)
  internal mutating func _placementCatchesUp() {
    if _slowPath(_laneBox != nil) { _rebuildLanes() }
  }

  /// At a settle: an adaptive lane count follows the viewport's width (L2).
  /// - Complexity: O(1) in a list; a re-flow when the count changes.
  @inlinable @inline(__always)
  internal mutating func _placementFollowsViewport() {
    if _slowPath(_laneBox != nil) { _lanesFollowViewport() }
  }

  /// At the end of a settle: the lane sections are current.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal mutating func _placementLaidOut() {
    if _slowPath(_laneBox != nil) { _writableLanes().value.current = true }
  }
}
