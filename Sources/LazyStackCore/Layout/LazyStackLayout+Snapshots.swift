import Foundation

extension LazyStackLayout {
  /// Replaces the rows with a new snapshot of ids (SPEC S3–S5, S8–S11).
  ///
  /// Measured extents, roles, kinds and own estimates follow their ids
  /// (X1, H1, K1, K2). The anchor row keeps its place
  /// on screen at its new index; if it is gone, the nearest surviving row
  /// (the next one in the old order, else the previous one) takes its place
  /// with the same fraction and distance (S5), and `position` names it.
  /// - Returns: The correction applied (also in `lastCorrection`).
  /// - Throws: `LazyStackError.duplicateID`; the layout is unchanged.
  /// - Complexity: O(n + m) for n old and m new rows.
  @inlinable
  @discardableResult
  public mutating func update(ids: some Sequence<ID>) throws(LazyStackError) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    var newTree = try ExtentTree(ids: ids, estimate: _tree.estimate, spacing: _tree.spacing,
                                 blockCapacity: _tree.blockCapacity, measured: _tree.measuredExtentsByID)
    let roles = _tree.rolesByID
    if !roles.isEmpty { newTree._restoreRoles(roles) }
    if _tree._kinds != nil {
      newTree._adoptKinds(of: _tree)
      newTree._restoreExtras(_tree.extrasByID)  // K1, K2: kinds and own estimates follow their ids
    }
    var anchorFate = _RowFate<ID>.stays
    if let anchorID = _anchorRowID, !newTree.contains(anchorID) {
      anchorFate = .removed(survivor: _survivor(of: anchorID) { newTree.contains($0) })
    }
    if _slowPath(_motion.phase == .animating), let target = _animationTargetID, !newTree.contains(target) {
      _replaceRemovedTarget(with: .removed(survivor: _survivor(of: target) { newTree.contains($0) }))  // M4
    }
    let before = _capture()
    if _slowPath(_frame.notesEdits) {  // F3
      for id in newTree.ids where !_tree.contains(id) { _frameNoteInserted(id) }
      for id in _tree.ids where !newTree.contains(id) { _frameNoteRemoved(id) }
    }
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _placementKeepsLanesByID()  // L4: rows keep their lanes by id
    _tree = newTree
    if case .removed(let survivor) = anchorFate { _replaceAnchorRow(with: survivor) }
    _refreshEstimate()
    let correction = _settle(from: before, cause: .snapshot)
    if _slowPath(_pendingRestore != nil) { return _resumeRestore(after: correction) }  // C3
    return correction
  }

  /// The nearest row to `id` in the current order that `survives`: the next
  /// one, else the previous one (SPEC S5). Walks outward from `id`.
  /// - Complexity: O(d (log n + B)) where d is the distance walked.
  @inlinable
  internal func _survivor(of id: ID, survives: (ID) -> Bool) -> ID? {
    guard let index = _tree.index(of: id) else { return nil }
    var i = index &+ 1
    while i < count {
      let candidate = _tree.id(at: i)
      if survives(candidate) { return candidate }
      i &+= 1
    }
    i = index &- 1
    while i >= 0 {
      let candidate = _tree.id(at: i)
      if survives(candidate) { return candidate }
      i &-= 1
    }
    return nil
  }
}
