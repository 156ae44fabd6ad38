import Foundation

// Batches of changes and their transitions (SPEC §15, U1–U3).
//
// A batch must not copy the layout: its tree's arrays are O(n/B) and its id
// index O(n), and copy on write would copy them at the batch's first change.
// So a batch keeps only what it needs:
// - the frames of the rows on screen before it, read when it starts;
// - a log of its changes (the rows an edit removed or inserted, the old
//   extent of a measured row, an old estimate), from which the frame a row
//   had before the batch is found by undoing the log for that one row
//   (`_oldTrace`), and by which an error thrown inside the batch undoes it
//   (`_abortBatch`);
// - the layout's other state (a copy without its tree), to put back on an
//   error.
// A change that costs O(n) anyway (a snapshot, invalidating every
// measurement) keeps the tree from before it instead (a checkpoint).

extension LazyStackLayout {
  /// Where a row was at some moment of a batch: its index, the sum of the
  /// pitches before it, the number of estimated rows before it, and its
  /// own extent and whether it was estimated. The number of estimated rows
  /// before it is read only by an estimate change that a walk back passes,
  /// so a trace taken when no estimate change is logged before it leaves
  /// it 0 (`_trace(at:in:counting:)`).
  @usableFromInline
  internal struct _Trace: Sendable {
    @usableFromInline var index: Int
    @usableFromInline var prefix: Int64
    @usableFromInline var estimatedBefore: Int
    @usableFromInline var extent: Int64
    @usableFromInline var estimated: Bool

    @inlinable
    init(index: Int, prefix: Int64, estimatedBefore: Int, extent: Int64, estimated: Bool) {
      self.index = index
      self.prefix = prefix
      self.estimatedBefore = estimatedBefore
      self.extent = extent
      self.estimated = estimated
    }
  }

  /// A row a batch removed, with what undoing the removal or walking a
  /// row back through it needs: its id, stored extent and role, and where
  /// it was just before the removal (its index is `trace.index`).
  @usableFromInline
  internal struct _RemovedRow: Sendable {
    @usableFromInline var id: ID
    @usableFromInline var stored: Int32
    @usableFromInline var role: UInt8
    /// Its kind and own estimate (`ExtentTree+Kinds`).
    @usableFromInline var extra: UInt64
    @usableFromInline var trace: _Trace

    @inlinable
    init(id: ID, stored: Int32, role: UInt8, extra: UInt64, trace: _Trace) {
      self.id = id
      self.stored = stored
      self.role = role
      self.extra = extra
      self.trace = trace
    }
  }

  /// One step of a batch's log: scalars only, so walking the log copies
  /// no array (a removal and a checkpoint are kept beside it).
  @usableFromInline
  internal enum _Edit: Sendable {
    /// `count` rows inserted at `at`, their pitches summing to `pitch`,
    /// `estimated` of them estimated.
    case insert(at: Int, count: Int, pitch: Int64, estimated: Int)
    /// The rows `removed[start ..< start + count]` removed, in ascending
    /// index order (indices before the removal).
    case remove(start: Int, count: Int)
    /// The row at `index` went from `oldStored` (extent `old`) to
    /// `newStored` (extent `new`).
    case extent(index: Int, oldStored: Int32, old: Int64, new: Int64, newStored: Int32)
    /// The estimate went from `old` to `new`.
    case estimate(old: Int64, new: Int64)
    /// The row at `index` had role `old`.
    case role(index: Int, old: UInt8)
    /// `checkpoints[k]`: the tree before a change that costs O(n) anyway.
    case checkpoint(Int)
  }

  /// A batch in progress (see the top of this file). A class, so that the
  /// layout grows by one word; copied before a write when shared, so
  /// layouts stay values.
  @usableFromInline
  internal final class _BatchLog: @unchecked Sendable {
    /// What the pending stabilization starts from.
    @usableFromInline @exclusivity(unchecked) var before: _Before
    /// The cause of the last change (S11); `.none` while there is none.
    @usableFromInline @exclusivity(unchecked) var cause: ScrollCorrection.Cause = .none
    /// The main-axis offset when the batch began.
    @usableFromInline @exclusivity(unchecked) var startOffset: Int64
    /// The content offset, alignment shift and cross-axis content extent
    /// when the batch began: the old frames' coordinates.
    @usableFromInline @exclusivity(unchecked) var startContentOffset: CGPoint
    @usableFromInline @exclusivity(unchecked) var startShift: Int64
    @usableFromInline @exclusivity(unchecked) var startCross: CGFloat
    /// The rows on screen when the batch began, in index order, and where
    /// each id is in that list.
    @usableFromInline @exclusivity(unchecked) var shown: [(id: ID, frame: CGRect)] = []
    @usableFromInline @exclusivity(unchecked) var shownIndex: [ID: Int] = [:]
    @usableFromInline @exclusivity(unchecked) var edits: [_Edit] = []
    /// The removed rows of every `.remove` step, one after another.
    @usableFromInline @exclusivity(unchecked) var removed: [_RemovedRow] = []
    @usableFromInline @exclusivity(unchecked) var checkpoints: [ExtentTree<ID>] = []
    /// Whether an `.estimate` step is logged: until then a trace needs no
    /// count of the estimated rows before it.
    @usableFromInline @exclusivity(unchecked) var estimateLogged = false
    /// The layout when the batch began, without its tree (an empty one).
    @usableFromInline @exclusivity(unchecked) var saved: LazyStackLayout?

    @inlinable
    init(before: _Before, startOffset: Int64, startContentOffset: CGPoint, startShift: Int64, startCross: CGFloat) {
      self.before = before
      self.startOffset = startOffset
      self.startContentOffset = startContentOffset
      self.startShift = startShift
      self.startCross = startCross
    }

    @inlinable
    func copy() -> _BatchLog {
      let c = _BatchLog(before: before, startOffset: startOffset, startContentOffset: startContentOffset,
                        startShift: startShift, startCross: startCross)
      c.cause = cause
      c.shown = shown
      c.shownIndex = shownIndex
      c.edits = edits
      c.removed = removed
      c.checkpoints = checkpoints
      c.estimateLogged = estimateLogged
      c.saved = saved
      return c
    }
  }

  /// Runs `changes` on the layout as one batch (SPEC U1–U3) and returns
  /// where the rows on screen were and are.
  ///
  /// Inside the batch, edits, snapshots, measurements and estimate and role
  /// changes are not stabilized one by one: the layout stabilizes once,
  /// when the batch ends, and reports one correction (S11) in
  /// `lastCorrection` and in the transition. Until then the offset stays
  /// where it was (clamped to the content). A scroll, a viewport change or
  /// a motion call inside the batch first stabilizes the changes before it.
  /// A batch inside a batch is part of the outer one (it returns an empty
  /// transition).
  ///
  ///     let transition = try layout.performBatch { layout in
  ///       try layout.remove(ids: [deleted])
  ///       try layout.insert([arrived], at: 0)
  ///     }
  ///
  /// - Returns: Every row on screen before or after, with its frame before
  ///   and after, in viewport coordinates; a row that slides in from far
  ///   away gets its real old frame.
  /// - Throws: What `changes` throws; the layout is then as it was before
  ///   the batch.
  /// - Complexity: O((k + v)(log n + B) + w (k + r)) besides the changes
  ///   themselves, for k changes removing r rows in all, v rows on screen,
  ///   and w of them that came on screen (each walked back through the log
  ///   of the k changes), whatever n is (no copy of the layout is made);
  ///   O(n) when the batch holds an O(n) change (a snapshot,
  ///   `invalidateAllMeasurements()`).
  @inlinable
  public mutating func performBatch(_ changes: (inout LazyStackLayout) throws -> Void) rethrows -> LayoutTransition<ID> {
    guard _batch == nil else {
      try changes(&self)
      return LayoutTransition(rows: [], correction: .none)
    }
    _beginBatch()
    do {
      try changes(&self)
    } catch {
      _abortBatch()
      throw error
    }
    return _endBatch()
  }

  /// Whether a batch is in progress (`_beginBatch` without its end yet).
  /// - Complexity: O(1).
  @inlinable
  package var _inBatch: Bool { _batch != nil }

  /// Starts a batch: reads the rows on screen and keeps the layout's state.
  /// - Complexity: O(v (log n + B)).
  @inlinable
  package mutating func _beginBatch() {
    precondition(_batch == nil, "LazyStackLayout: a batch is already in progress")
    let log = _BatchLog(before: _capture(), startOffset: _offset, startContentOffset: contentOffset,
                        startShift: _alignmentShift, startCross: _crossContent)
    let drawn = _drawnRows()
    log.shown.reserveCapacity(drawn.count)
    log.shownIndex.reserveCapacity(drawn.count)
    for (index, frame) in drawn {
      let id = _tree.id(at: index)
      log.shownIndex[id] = log.shown.count
      log.shown.append((id, frame))
    }
    var saved = self
    // With lanes the state at the start answers where a row was (its
    // frame depends on its whole section); a list traces rows back
    // through the log instead, and keeps no copy of the tree.
    // (The placeholder is never read: `_abortBatch` swaps the tree back in.)
    if _laneBox == nil {
      saved._tree = ExtentTree(_empty: _tree.estimate, spacing: _tree.spacing, blockCapacity: _tree.blockCapacity)
    }
    log.saved = saved
    _batch = log
    _frameEnter()  // SPEC §16: a batch is one call (an abort puts back the state saved above)
  }

  /// The rows on screen (overscan included) and the pinned rows, in index
  /// order, with their frames in viewport coordinates (a pinned row where
  /// it is drawn).
  /// - Complexity: O(v (log n + B)).
  @inlinable
  internal func _drawnRows() -> [(index: Int, frame: CGRect)] {
    let origin = contentOffset
    var pinned: [Int: CGRect] = [:]
    for row in pinnedRows { pinned[row.index] = row.frame }
    var indices = visibleRows  // L5: with lanes, the rows on screen
    for index in pinned.keys where !indices.contains(index) { indices.append(index) }
    indices.sort()
    return indices.map { index in
      let frame = pinned[index] ?? frame(at: index)
      return (index, frame.offsetBy(dx: -origin.x, dy: -origin.y))
    }
  }

  /// Ends a batch: stabilizes once and builds the transition.
  /// - Complexity: O(v (log n + B + e)) for a log of e steps.
  @inlinable
  package mutating func _endBatch() -> LayoutTransition<ID> {
    guard let log = _batch else { preconditionFailure("LazyStackLayout: no batch in progress") }
    _batch = nil
    defer { _frameExit(.still) }
    _settle(from: log.before, cause: log.cause)
    let correction = ScrollCorrection(offsetDelta: _FixedPoint.points(_offset &- log.startOffset),
                                      contentOffset: contentOffset, cause: log.cause)
    _lastCorrection = correction
    let drawn = _drawnRows()
    var rows: [(id: ID, before: CGRect?, after: CGRect?)] = []
    rows.reserveCapacity(drawn.count &+ log.shown.count)
    var listed = Set<ID>(minimumCapacity: drawn.count)
    for (index, frame) in drawn {
      let id = _tree.id(at: index)
      listed.insert(id)
      let before: CGRect?
      if let k = log.shownIndex[id] {
        before = log.shown[k].frame
      } else if log.saved?._laneBox != nil {  // lanes at the start: the state then says where it was
        let start = log.startContentOffset
        before = log.saved?.frame(of: id)?.offsetBy(dx: -start.x, dy: -start.y)
      } else {
        let now = _trace(at: _tree._locate(index), in: _tree, counting: log.estimateLogged).0
        before = _oldTrace(of: id, from: now, log: log)
          .map { _oldFrame($0, log: log) }
      }
      rows.append((id, before, frame))
    }
    let origin = contentOffset
    for (id, frame) in log.shown where !listed.contains(id) {
      rows.append((id, frame, self.frame(of: id)?.offsetBy(dx: -origin.x, dy: -origin.y)))
    }
    return LayoutTransition(rows: rows, correction: correction)
  }

  /// Where the row at `location` of `tree` is, and the row itself.
  /// `counting`: whether the trace counts the estimated rows before it,
  /// which only a walk back past an estimate change reads (a rank of the
  /// measured rows: a Fenwick prefix and a scan of the block).
  /// - Complexity: O(B).
  @inlinable
  internal func _trace(at location: ExtentTree<ID>._Location, in tree: ExtentTree<ID>,
                       counting: Bool = true) -> (_Trace, ExtentTree<ID>._RowInfo) {
    let info = tree.rowInfo(at: location)
    let estimatedBefore = counting ? info.index &- tree.measuredRows(at: location) : 0
    return (_Trace(index: info.index, prefix: info.start, estimatedBefore: estimatedBefore, extent: info.extent,
                   estimated: info.stored < 0), info)
  }

  /// The frame, in viewport coordinates, that a row traced back to the
  /// batch's start had then.
  @inlinable
  internal func _oldFrame(_ t: _Trace, log: _BatchLog) -> CGRect {
    let main = _FixedPoint.points(log.startShift &+ _leadingInset &+ t.prefix)
    let length = _FixedPoint.points(t.extent)
    let crossInsets = axis == .vertical ? (insets.leading, insets.trailing) : (insets.top, insets.bottom)
    let crossLength = Swift.max(0, log.startCross - crossInsets.0 - crossInsets.1)
    let o = log.startContentOffset
    return axis == .vertical
      ? CGRect(x: crossInsets.0 - o.x, y: main - o.y, width: crossLength, height: length)
      : CGRect(x: main - o.x, y: crossInsets.0 - o.y, width: length, height: crossLength)
  }

  /// Walks row `id`, now at `trace`, back through the log to where it was
  /// when the batch began; `nil` if it was not a row then.
  /// - Complexity: O(e + r) for e steps and r removed rows, plus
  ///   O(log n + B) for each checkpoint.
  @inlinable
  internal func _oldTrace(of id: ID, from trace: _Trace, log: _BatchLog) -> _Trace? {
    // The log's arrays read through buffers: a walk back reads every step,
    // and each read through the class would load (and retain) its array again.
    log.edits.withUnsafeBufferPointer { edits in
      log.removed.withUnsafeBufferPointer { removed in
        _oldTrace(of: id, from: trace, edits: edits, removed: removed, log: log)
      }
    }
  }

  /// `_oldTrace(of:from:log:)` over the log's steps and removed rows.
  /// - Complexity: as there.
  @inlinable
  internal func _oldTrace(
    of id: ID, from trace: _Trace, edits: UnsafeBufferPointer<_Edit>, removed: UnsafeBufferPointer<_RemovedRow>,
    log: _BatchLog
  ) -> _Trace? {
    var t = trace
    var e = edits.count &- 1
    let spacing = _tree.spacing
    // The row was not a row just before step `e`: it is back where its
    // last removal before that step found it, or was never a row.
    func removal(before e: Int) -> (Int, _Trace)? {
      var k = e &- 1
      while k >= 0 {
        if case .remove(let start, let count) = edits[k] {
          var i = start &+ count &- 1
          while i >= start {
            if removed[i].id == id { return (k, removed[i].trace) }
            i &-= 1
          }
        }
        k &-= 1
      }
      return nil
    }
    while e >= 0 {
      switch edits[e] {
      case .insert(let at, let count, let pitch, let estimated):
        if t.index >= at &+ count {
          t.index &-= count
          t.prefix &-= pitch
          t.estimatedBefore &-= estimated
        } else if t.index >= at {
          guard let (k, found) = removal(before: e) else { return nil }
          t = found
          e = k
        }
      case .remove(let start, let count):
        // Put back the removed rows before it: their pitches and estimates.
        var c = 0
        while c < count && removed[start &+ c].trace.index <= t.index &+ c {
          let r = removed[start &+ c].trace
          t.prefix &+= r.extent &+ spacing
          if r.estimated { t.estimatedBefore &+= 1 }
          c &+= 1
        }
        t.index &+= c
      case .extent(let index, let oldStored, let old, let new, let newStored):
        if index < t.index {
          t.prefix &-= new &- old
          t.estimatedBefore &+= (oldStored < 0 ? 1 : 0) &- (newStored < 0 ? 1 : 0)
        } else if index == t.index {
          t.extent = old
          t.estimated = oldStored < 0
        }
      case .estimate(let old, let new):
        t.prefix &-= Int64(t.estimatedBefore) &* (new &- old)
        if t.estimated { t.extent = old }
      case .role:
        break
      case .checkpoint(let k):
        let tree = log.checkpoints[k]
        if let location = tree._locate(id: id) {
          t = _trace(at: location, in: tree).0
        } else {
          guard let (k, found) = removal(before: e) else { return nil }
          t = found
          e = k
        }
      }
      e &-= 1
    }
    return t
  }

  /// Undoes the batch in progress: the layout is as it was before it.
  /// - Complexity: O(k (log n + B)) for k changed rows, or the size of the
  ///   tree kept at a checkpoint.
  @inlinable
  package mutating func _abortBatch() {
    guard let log = _batch else { preconditionFailure("LazyStackLayout: no batch in progress") }
    _batch = nil
    for edit in log.edits.reversed() {
      switch edit {
      case .insert(let at, let count, _, _):
        _tree.remove(sortedIndices: at ..< at &+ count)
      case .remove(let start, let count):
        for r in log.removed[start ..< start &+ count] {
          do {
            try _tree.insert(CollectionOfOne(r.id), extents: [r.stored], roles: [r.role],
                             extras: r.extra == 0 ? nil : [r.extra], at: r.trace.index,
                             knownNew: true)
          } catch {
            preconditionFailure("LazyStackLayout: undoing a removal failed: \(error)")
          }
        }
      case .extent(let index, let oldStored, _, _, _):
        _tree._setStored(oldStored, at: _tree._locate(index))
      case .estimate(let old, _):
        _tree.setEstimate(old)
      case .role(let index, let old):
        _tree.setRole(old, at: _tree._locate(index))
      case .checkpoint(let k):
        _tree = log.checkpoints[k]
      }
    }
    guard var saved = log.saved else { preconditionFailure("LazyStackLayout: a batch without its state") }
    swap(&saved._tree, &_tree)
    self = saved
    _checkInvariants()
  }

  /// The batch's log, unique to this layout, for a write.
  @inlinable
  internal mutating func _batchLog() -> _BatchLog {
    if !isKnownUniquelyReferenced(&_batch!) { _batch = _batch!.copy() }
    return _batch.unsafelyUnwrapped
  }

  /// Records a step of the batch in progress (and, for an estimate
  /// change, that one is logged: `estimateLogged`).
  @inlinable
  internal mutating func _log(_ edit: _Edit) {
    let log = _batchLog()
    log.edits.append(edit)
    if case .estimate = edit { log.estimateLogged = true }
  }

  /// Records, before they are removed, the rows at the sorted `indices`.
  /// - Complexity: O(k (log n + B)).
  @inlinable
  @inline(never)
  internal mutating func _logRemoval(_ indices: some Collection<Int>) {
    let log = _batchLog()
    let start = log.removed.count
    for index in indices {
      let location = _tree._locate(index)
      // A walk back reads the count only at an estimate change logged before this step.
      let (t, row) = _trace(at: location, in: _tree, counting: log.estimateLogged)
      log.removed.append(_RemovedRow(id: row.id, stored: row.stored, role: _tree.role(at: location),
                                     extra: _tree._kinds == nil ? 0 : _tree._extra(at: location), trace: t))
    }
    guard log.removed.count > start else { return }
    log.edits.append(.remove(start: start, count: log.removed.count &- start))
  }

  /// Records the rows just inserted at `index`, with these stored extents
  /// (`nil`: `count` new, estimated rows).
  /// - Complexity: O(k).
  @inlinable
  @inline(never)
  internal mutating func _logInsertion(at index: Int, count: Int, stored: [Int32]? = nil) {
    guard count > 0 else { return }
    var pitch = Int64(count) &* (_tree.estimate &+ _tree.spacing)
    var estimated = count
    if _tree._kinds != nil {
      // Kinds and own estimates: the rows as the tree now has them.
      pitch = _tree.pitchPrefix(index &+ count) &- _tree.pitchPrefix(index)
      estimated = count &- (_tree.measuredRows(before: index &+ count) &- _tree.measuredRows(before: index))
    } else if let stored {
      pitch = 0
      estimated = 0
      for s in stored {
        pitch &+= _tree._extent(ofStored: s) &+ _tree.spacing
        if s < 0 { estimated &+= 1 }
      }
    }
    _log(.insert(at: index, count: count, pitch: pitch, estimated: estimated))
  }

  /// Records that the row at `location` just went from `oldStored` to
  /// `newStored` (before the estimate is refreshed).
  @inlinable
  @inline(never)
  internal mutating func _logExtent(at location: ExtentTree<ID>._Location, from oldStored: Int32, to newStored: Int32) {
    guard oldStored != newStored else { return }
    let index = location.before.count &+ location.slot
    _log(.extent(index: index, oldStored: oldStored, old: _tree._extent(ofStored: oldStored, at: location),
                 new: _tree._extent(ofStored: newStored, at: location), newStored: newStored))
  }

  /// Keeps the tree from before a change that costs O(n) anyway.
  @inlinable
  @inline(never)
  internal mutating func _logCheckpoint() {
    let log = _batchLog()
    log.edits.append(.checkpoint(log.checkpoints.count))
    log.checkpoints.append(_tree)
  }

  /// Stands in for a stabilization inside a batch: the offset is clamped,
  /// and the batch remembers the cause.
  @inlinable
  @inline(never)
  internal mutating func _deferSettle(cause: ScrollCorrection.Cause) -> ScrollCorrection {
    _placementCatchesUp()  // SPEC §13: rows, extents or roles changed
    _offset = _clamp(_offset)
    if cause != .none { _batchLog().cause = cause }
    _checkInvariants()
    return ScrollCorrection(offsetDelta: 0, contentOffset: contentOffset, cause: .none)
  }

  /// Before a scroll, a viewport change or a motion call inside a batch:
  /// stabilizes the batch's changes so far and takes the batch off the
  /// layout while the call runs (`_resumeBatch` puts it back).
  @inlinable
  @inline(never)
  internal mutating func _suspendBatch() -> _BatchLog {
    let log = _batchLog()
    _batch = nil
    _settle(from: log.before, cause: log.cause)
    return log
  }

  /// Puts a suspended batch back: it stabilizes from here.
  @inlinable
  @inline(never)
  internal mutating func _resumeBatch(_ log: _BatchLog) {
    log.before = _capture()
    _batch = log
  }
}

extension ExtentTree {
  /// An empty tree with `tree`'s estimate, spacing and block capacity.
  /// - Complexity: O(1).
  @inlinable
  package init(_emptyLike tree: ExtentTree) {
    do {
      try self.init(ids: EmptyCollection(), estimate: tree.estimate, spacing: tree.spacing,
                    blockCapacity: tree.blockCapacity)
    } catch {
      preconditionFailure("ExtentTree: an empty tree failed: \(error)")
    }
  }
}
