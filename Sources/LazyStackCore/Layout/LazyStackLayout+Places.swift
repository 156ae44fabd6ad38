import Foundation

// Snapshots and places (SPEC C1–C4): what a layout keeps across a
// relaunch, and a place given in points.

/// A restore waiting for its row (SPEC C3), shared by copies of a layout
/// (immutable).
@usableFromInline
internal final class _PendingRestore<ID: Hashable & Sendable>: Sendable {
  @usableFromInline let snapshot: LayoutSnapshot<ID>

  @inlinable
  init(_ snapshot: LayoutSnapshot<ID>) {
    self.snapshot = snapshot
  }
}

extension LazyStackLayout {
  /// What the layout knows that its ids do not say, and where the reader
  /// is (SPEC C1): every measured row's extent, the rows' kinds (other than
  /// 0) and own estimates, every kind's estimate and policy, every masonry
  /// row's lane (each masonry section with the runs of its rows whose
  /// lanes repeat, and the rows off them with their lanes), and the
  /// reading place: the
  /// kept row (the anchor row of §6, or the row at the viewport's anchor
  /// point), the distance from its start to that point, and the anchor.
  /// While a restore waits for its row (C3), the snapshot holds the place
  /// it waits to land, and its entries for ids that are not rows yet.
  /// Inside a batch the snapshot is the layout's as the batch's changes so
  /// far settle (U1): the offset a batch has not stabilized yet is one no
  /// reader sees, and a restore lands where `endBatch` would.
  ///
  ///     let data = layout.snapshot().encoded()   // save on quit
  ///
  /// - Complexity: O(n/B + m B + w) for m entries and w masonry rows (only
  ///   blocks holding a measured row or a kind are read; a masonry row's
  ///   lane byte, and the id of one off its run's lanes); inside a batch,
  ///   plus one stabilization of a copy (with lanes, O(n) for the copy).
  @inlinable
  public func snapshot() -> LayoutSnapshot<ID> {
    if _slowPath(_batch != nil) {
      var settled = self
      _ = settled._suspendBatch()
      return settled.snapshot()
    }
    var s = LayoutSnapshot<ID>()
    let hasKinds = _tree._kinds != nil
    for handle in _tree._order {
      _tree._withBlock(handle: Int(handle)) { block in
        let extras = block.pointee.extras
        guard block.pointee.measuredCount > 0 || !extras.isEmpty else { return }
        for slot in 0 ..< block.pointee.rowCount {
          let stored = block.pointee.extents[slot]
          if stored >= 0 {
            s._measuredIDs.append(block.pointee.ids[slot])
            s._measuredUnits.append(stored)
          }
          guard !extras.isEmpty, extras[slot] != 0 else { continue }
          let extra = extras[slot]
          if let own = ExtentTree<ID>._ownEstimate(ofExtra: extra) {
            s._ownIDs.append(block.pointee.ids[slot])
            s._ownUnits.append(Int32(truncatingIfNeeded: own))
          }
          let kind = ExtentTree<ID>._kind(ofExtra: extra)
          if kind != 0 {
            s._kindIDs.append(block.pointee.ids[slot])
            s._kinds.append(kind)
          }
        }
      }
    }
    s.kindSettings = [LayoutSnapshot<ID>.KindSettings(kind: 0, estimate: estimatedExtent, policy: _estimatePolicy)]
    if hasKinds, let table = _tree._kinds {
      for kind in table.kindOfSlot.sorted() {
        s.kindSettings.append(LayoutSnapshot<ID>.KindSettings(
          kind: kind, estimate: estimatedExtent(forKind: kind), policy: estimatePolicy(forKind: kind)))
      }
    }
    _placementAppendLanes(to: &s)
    s.place = _readingPlace
    if let waiting = _pendingRestore?.snapshot { s._addWaiting(waiting) { _tree.contains($0) } }
    return s
  }

  /// The reading place (SPEC C1): the anchor row (§6: the row a user
  /// scroll keeps, T3, or a programmatic target) with its fraction, or
  /// without one the row at the viewport's anchor point (the scroll
  /// anchor's, the trailing edge when pinned there, else the leading edge);
  /// the distance from its start to the viewport's point at that fraction.
  ///
  /// With pinned rows the distance is the one that lands the row at this
  /// offset under them (H6). Where the point falls in the spacing after
  /// the row at it, that row is off screen and no distance lands it here
  /// under its pinned header: the place is then kept by the first row
  /// after it that lands exactly, of those that start before the
  /// viewport's far edge.
  /// - Complexity: O(log n + B); with pinned rows O(r (log n + B)) for the
  ///   r rows tried (the rows on screen at most).
  @inlinable
  internal var _readingPlace: LayoutSnapshot<ID>.Place? {
    guard count > 0 else { return nil }
    var index: Int
    var fraction: CGFloat
    var byPoint = false
    if case .row(let id, let f, _) = _anchor, let i = _tree.index(of: id) {
      index = i
      fraction = f
    } else {
      if case .edge(let edge) = _anchor {
        fraction = edge.isLeadingEdge ? 0 : 1
      } else {
        fraction = _FixedPoint.fraction(_scrollAnchor?.fraction(along: axis) ?? 0)
      }
      let y = _offset &+ _FixedPoint.scale(_viewportUnits, by: fraction)
      index = _placeRow(atUnits: y)
      byPoint = true
    }
    let y = _offset &+ _FixedPoint.scale(_viewportUnits, by: fraction)
    let start = _leadingInset &+ _placedStart(index)
    var distance = y &- start
    if !_pinnedViews.isEmpty {
      // A restore lands the row in the viewport less the pinned rows (C2
      // through R3, H6): the distance that lands it at this offset, so the
      // reader sees the same lines after the restore.
      if let landing = _pinnedLanding(_placed(_tree.rowInfo(at: index)), fraction: fraction) {
        distance = landing
      } else if byPoint {
        let end = _offset &+ _viewportUnits
        var next = index &+ 1
        while next < count {
          let row = _placed(_tree.rowInfo(at: next))
          guard _leadingInset &+ row.start < end else { break }
          if let landing = _pinnedLanding(row, fraction: fraction) {
            index = next
            distance = landing
            break
          }
          next &+= 1
        }
      }
    }
    let anchor = axis == .vertical ? UnitPoint(x: 0.5, y: fraction) : UnitPoint(x: fraction, y: 0.5)
    return LayoutSnapshot<ID>.Place(id: _tree.id(at: index), distance: _FixedPoint.points(distance), anchor: anchor)
  }

  /// The distance (units) from `row`'s start to the viewport's point at
  /// `fraction` that lands it at this offset under the pinned rows (R3
  /// through H6), or nil when none does. The target is H6's line while the
  /// row meets the viewport less the pinned rows, else R3's: the delta
  /// that puts either line at the offset, where the target agrees (H6's
  /// first: a pinned header taller than the viewport can leave both, or
  /// only R3's; a row off screen, neither).
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _pinnedLanding(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat) -> Int64? {
    let (lead, trail) = _pinnedInsets(for: row)
    let plain = _rowTarget(row, fraction: fraction, delta: 0)
    let pinned = _pinnedTarget(row, fraction: fraction, lead: lead, trail: trail)
    for line in [pinned, plain] where _programmaticTarget(row, fraction: fraction, delta: line &- _offset) == _offset {
      return _FixedPoint.scale(row.extent, by: fraction) &- (line &- _offset)
    }
    return nil
  }

  /// Lands the row with `id` so that the viewport's anchor point lies
  /// `distance` points past the row's start (SPEC C4; negative: before it;
  /// Compose's `scrollToItem(index, scrollOffset)`), with R3's clamping,
  /// and keeps it there as rows around it are measured (R6) until the user
  /// scrolls. `anchor` nil uses `scrollAnchor`, else the leading edge. With
  /// pinned section headers the row lands in the viewport less them (H6).
  /// A non-finite distance counts as 0.
  ///
  ///     layout.scrollTo(id: messageID, distance: 120, anchor: .top)
  ///
  /// An unknown id changes nothing (R5): `lastPositionResult` says
  /// `.unknownID`. `position` then names the row with `anchor`.
  /// - Complexity: O(log n + B).
  @inlinable
  public mutating func scrollTo(id: ID, distance: CGFloat, anchor: UnitPoint?) {
    _frameEnter()
    defer { _frameExit(.still) }
    if _slowPath(_batch != nil) {
      let log = _suspendBatch()
      scrollTo(id: id, distance: distance, anchor: anchor)
      return _resumeBatch(log)
    }
    guard let row = _placedIfAny(_tree.rowInfo(of: id)) else {
      _lastPositionResult = .unknownID(String(describing: id))
      return
    }
    _pendingRestore = nil  // C3: a programmatic scroll drops a waiting restore
    let unit = anchor ?? _scrollAnchor ?? .top
    let position = ScrollPosition(id: id, anchor: unit)
    if _slowPath(_motion.phase._isMoving) { _stopMotion(writing: position) }
    let before = _offset
    let fraction = _FixedPoint.anchorFraction(unit.fraction(along: axis))
    let p = distance.isFinite ? _FixedPoint.units(distance) : 0
    let delta = _FixedPoint.scale(row.extent, by: fraction) &- p
    _land(row, fraction: fraction, delta: delta)
    _position = position
    _frameNoteReset()  // F6 (e)
    _reportProgrammaticScroll(from: before)
  }

  /// Applies a snapshot (SPEC C2): every entry whose id is a row here (the
  /// others are ignored), the kinds' estimates and policies, then the
  /// reading place, landed with `scrollTo(id:distance:anchor:)` as a
  /// pending programmatic target, so it stays exact however the rows
  /// around it are measured later (R6). A masonry row gets its lane back
  /// (the arrangement the reader saw): every row of a section here that is
  /// the one saved (the same first row, row count and lane count), and a
  /// listed row (off its run's lanes) where its section is a masonry of
  /// the lane count it had; the other rows keep the lanes they have here.
  ///
  ///     var layout = try LazyStackLayout(ids: ids, estimatedExtent: 60)
  ///     layout.viewportSize = size
  ///     layout.restore(try LayoutSnapshot(encoded: saved))
  ///
  /// When the kept row is not a row yet (state restored before the data
  /// loads, C3), the entries whose ids are present apply now, and the rest
  /// wait with the place: when the row arrives (an insert, a difference,
  /// `update(ids:)`), they apply and the place lands, unless a user or a
  /// programmatic scroll came first (it drops the waiting restore).
  /// - Complexity: O(m log n + k n/B) for m entries in the row order of a
  ///   layout with the same ids and k kinds; for entries in another order
  ///   O(m (log n + B) + k n/B), or O(n) for an m near n (one pass over the
  ///   rows). With lanes O(w) more for w lane rows: a pass over the
  ///   masonry rows' lane bytes, and one over the lane sections' extents
  ///   when it changes extents or lanes; a section is laid out again only where
  ///   its lanes change.
  @inlinable
  public mutating func restore(_ snapshot: LayoutSnapshot<ID>) {
    _frameEnter()
    defer { _frameExit(.still) }
    _pendingRestore = nil
    let before = _capture()
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _applyEntries(of: snapshot)
    _placementRestoresLanes(from: snapshot)
    _refreshEstimate()
    _settle(from: before, cause: .snapshot)
    guard let place = snapshot.place else { return }
    if _tree.contains(place.id) {
      scrollTo(id: place.id, distance: place.distance, anchor: place.anchor)
    } else {
      _pendingRestore = _PendingRestore(snapshot._keeping { !_tree.contains($0) })
    }
  }

  /// Whether a restore waits for its row (SPEC C3).
  /// - Complexity: O(1).
  @inlinable
  public var isRestorePending: Bool { _pendingRestore != nil }

  /// Applies a snapshot's settings and entries (no stabilization).
  /// - Complexity: as `restore(_:)`.
  @inlinable
  internal mutating func _applyEntries(of snapshot: LayoutSnapshot<ID>) {
    for s in snapshot.kindSettings {
      let units = s.estimate.flatMap(_FixedPoint.extentUnits)
      if s.kind == 0 {
        if let units { _givenEstimate = units }
        _estimatePolicy = s.policy
      } else {
        _ = _tree._slot(ofKind: s.kind)
        let table = _tree._writableKinds()
        table.given[Int(s.kind)] = units ?? -1
        table.meanPolicy[Int(s.kind)] = s.policy == .meanOfMeasured
        _refreshKindEstimate(s.kind)
      }
    }
    if !snapshot._measuredIDs.isEmpty {
      // In the snapshot's row order, each found just after the one before;
      // in another order, by the ids' index (or one pass over the rows).
      _tree._restore(ids: snapshot._measuredIDs, stored: snapshot._measuredUnits)
    }
    if !snapshot._kindIDs.isEmpty || !snapshot._ownIDs.isEmpty {
      var kinds: [ID: UInt8] = [:]
      kinds.reserveCapacity(snapshot._kindIDs.count)
      for (id, kind) in zip(snapshot._kindIDs, snapshot._kinds) { kinds[id] = kind }
      var own: [ID: Int64] = [:]
      own.reserveCapacity(snapshot._ownIDs.count)
      for (id, units) in zip(snapshot._ownIDs, snapshot._ownUnits) { own[id] = Int64(units) }
      _tree._applyExtras(kinds: kinds, own: own, rowOrder: snapshot._kindIDs + snapshot._ownIDs)
    }
  }

  /// A waiting restore whose row has arrived: its entries apply and its
  /// place lands (SPEC C3). Called after an edit that adds rows.
  @inlinable
  @inline(never)
  internal mutating func _resumeRestore(after correction: ScrollCorrection) -> ScrollCorrection {
    guard let pending = _pendingRestore, let place = pending.snapshot.place, _tree.contains(place.id) else {
      return correction
    }
    restore(pending.snapshot)
    return _lastCorrection
  }

  /// A programmatic position written while a restore waits: it drops the
  /// restore (SPEC C3), unless it names an unknown id (R5: it changes
  /// nothing) or is a user position being stored (T1).
  @inlinable
  @inline(never)
  internal mutating func _dropPendingRestore(writing position: ScrollPosition) {
    if position.isPositionedByUser { return }
    if case .id(let anyID, _) = position._target, !((anyID as? ID).map { _tree.contains($0) } ?? false) { return }
    _pendingRestore = nil
  }
}
