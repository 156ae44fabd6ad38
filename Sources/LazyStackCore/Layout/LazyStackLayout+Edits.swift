import Foundation

extension LazyStackLayout {
  /// Inserts new rows at `index` (SPEC E1, S4). They start estimated.
  ///
  ///     try layout.insert(olderMessageIDs, at: 0)   // "load older": nothing moves on screen
  ///
  /// - Returns: The correction applied.
  /// - Throws: `LazyStackError.duplicateID` if an id is already a row or
  ///   repeats; the layout is unchanged (E3).
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(k + B + log n) for k rows, plus O(n/B) when a block in
  ///   the middle splits (prepending and appending split blocks at the ends,
  ///   which stays O(B + log n)).
  @inlinable
  @discardableResult
  public mutating func insert(_ ids: some Collection<ID>, at index: Int) throws(LazyStackError) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    precondition(index >= 0 && index <= count, "Insertion index \(index) out of range 0...\(count)")
    let before = _capture()
    let oldCount = count
    let estimate = _tree.estimate
    try _tree.insert(ids, at: index)
    if _slowPath(_frame.notesEdits) { for id in ids { _frameNoteInserted(id) } }  // F3
    if _slowPath(_batch != nil) { _logInsertion(at: index, count: count &- oldCount) }
    _refreshEstimate()
    _placementDidInsert(count: count &- oldCount, at: index, estimate: estimate)
    let correction = _settle(from: before, cause: .edit)
    if _slowPath(_pendingRestore != nil) { return _resumeRestore(after: correction) }  // C3
    return correction
  }

  /// Removes the rows at the given offsets (SPEC E1, S4, S5).
  /// - Returns: The correction applied.
  /// - Precondition: every offset is in `0 ..< count`.
  /// - Complexity: O(k (log n + B)) for k rows, plus O(n/B) when blocks merge.
  @inlinable
  @discardableResult
  public mutating func remove(atOffsets offsets: IndexSet) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    if let first = offsets.first, offsets.last == first {
      // One row (a swipe to delete): no array of offsets.
      precondition(first >= 0 && first < count, "Offsets \(offsets) out of range 0..<\(count)")
      return _removeRows(sortedIndices: CollectionOfOne(first))
    }
    let indices = Self._sortedOffsets(offsets)
    if let last = indices.last {
      precondition(indices[0] >= 0 && last < count, "Offsets \(offsets) out of range 0..<\(count)")
    }
    return _removeRows(sortedIndices: indices)
  }

  /// The offsets of `set` in ascending order, read a range at a time
  /// (Foundation's `IndexSet` answers each index of an iteration, and
  /// each `first`, `last` or `count(in:)`, with calls into its storage).
  /// - Complexity: O(k) for k offsets.
  @inlinable
  internal static func _sortedOffsets(_ set: IndexSet) -> [Int] {
    // One offset (a swipe to delete, a drag): two calls instead of a range view.
    guard let first = set.first else { return [] }
    if set.last == first { return [first] }
    var offsets: [Int] = []
    for range in set.rangeView {
      if range.count == 1 { offsets.append(range.lowerBound) } else { offsets.append(contentsOf: range) }
    }
    return offsets
  }

  /// Removes the rows with the given ids (SPEC E1, S4, S5).
  /// - Returns: The correction applied.
  /// - Throws: `LazyStackError.unknownID` if an id is not a row; the layout
  ///   is unchanged (E3). Repeated ids are removed once.
  /// - Complexity: O(k (log n + B)) for k ids, plus O(n/B) when blocks merge.
  @inlinable
  @discardableResult
  public mutating func remove(ids: some Sequence<ID>) throws(LazyStackError) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    var indices: [Int] = []
    for id in ids {
      guard let index = _tree.index(of: id) else { throw .unknownID(String(describing: id)) }
      indices.append(index)
    }
    indices.sort()
    var unique: [Int] = []
    unique.reserveCapacity(indices.count)
    for i in indices where unique.last != i { unique.append(i) }
    return _removeRows(sortedIndices: unique)
  }

  @inlinable
  internal mutating func _removeRows<Indices: RandomAccessCollection<Int>>(
    sortedIndices indices: Indices
  ) -> ScrollCorrection where Indices.Index == Int {
    let before = _capture()
    _replaceRemovedAnchor(removing: indices, reinserted: [])
    if _slowPath(_frame.notesEdits) { for i in indices { _frameNoteRemoved(_tree.id(at: i)) } }  // F3
    if _slowPath(_batch != nil) { _logRemoval(indices) }
    let placement = _placementWillRemove(indices)
    _tree.remove(sortedIndices: indices)
    _refreshEstimate()
    _placementDidRemove(indices, placement)
    return _settle(from: before, cause: .edit)
  }

  /// If the anchor row is among the sorted `indices` about to be removed
  /// (and its id is not in `reinserted`), replaces it by the nearest row that
  /// stays (SPEC S5), looking forward first then backward.
  /// - Complexity: O(k (log n + B)).
  @inlinable
  internal mutating func _replaceRemovedAnchor<Indices: RandomAccessCollection<Int>>(
    removing indices: Indices, reinserted: Set<ID>
  ) where Indices.Index == Int {
    if let anchorID = _anchorRowID, case .removed(let survivor) = _fate(ofRemoved: anchorID, indices, reinserted) {
      _replaceAnchorRow(with: survivor)
    }
    if _slowPath(_motion.phase == .animating), let target = _animationTargetID {
      _replaceRemovedTarget(with: _fate(ofRemoved: target, indices, reinserted))  // M4
    }
  }

  /// Whether row `id` is among the sorted `indices` about to be removed
  /// (and not in `reinserted`), and then the nearest row that stays (SPEC
  /// S5), looking forward first then backward (nil: none).
  /// - Complexity: O(k (log n + B)).
  @inlinable
  internal func _fate<Indices: RandomAccessCollection<Int>>(
    ofRemoved id: ID, _ indices: Indices, _ reinserted: Set<ID>
  ) -> _RowFate<ID> where Indices.Index == Int {
    // A few rows removed: whether one of them is the row reads their ids
    // (a descent each) instead of looking the id up (a block scan where
    // ids that break their order crowd).
    if indices.count <= 4 && !indices.contains(where: { _tree.id(at: $0) == id }) { return .stays }
    guard !reinserted.contains(id), let anchorIndex = _tree.index(of: id) else { return .stays }
    let position = _lowerBound(indices, anchorIndex)
    guard position < indices.endIndex, indices[position] == anchorIndex else { return .stays }
    func survives(_ i: Int) -> Bool {
      let p = _lowerBound(indices, i)
      return !(p < indices.endIndex && indices[p] == i) || reinserted.contains(_tree.id(at: i))
    }
    var candidate = anchorIndex &+ 1
    while candidate < count && !survives(candidate) { candidate &+= 1 }
    if candidate < count { return .removed(survivor: _tree.id(at: candidate)) }
    candidate = anchorIndex &- 1
    while candidate >= 0 && !survives(candidate) { candidate &-= 1 }
    return .removed(survivor: candidate >= 0 ? _tree.id(at: candidate) : nil)
  }

  /// The index of the first element of `sorted` not below `value`
  /// (`endIndex` if none is).
  /// - Complexity: O(log k) for k elements.
  @inlinable
  internal func _lowerBound<Sorted: RandomAccessCollection<Int>>(_ sorted: Sorted, _ value: Int) -> Int
  where Sorted.Index == Int {
    var low = sorted.startIndex
    var high = sorted.endIndex
    while low < high {
      let mid = (low &+ high) >> 1
      if sorted[mid] < value { low = mid &+ 1 } else { high = mid }
    }
    return low
  }

  /// Moves rows, with SwiftUI `onMove` semantics: `destination` is an index
  /// in the list before the move (SPEC E1, S3). Measured extents and roles
  /// move with their rows; the anchor row keeps its place on screen.
  /// - Returns: The correction applied.
  /// - Precondition: every offset is in `0 ..< count`, `0 <= destination <= count`.
  /// - Complexity: O(k (log n + B)) for k rows, plus O(n/B) on splits or merges.
  @inlinable
  @discardableResult
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    precondition(destination >= 0 && destination <= count, "Destination \(destination) out of range 0...\(count)")
    if let first = source.first, source.last == first {
      // One row (a drag): no array of offsets.
      precondition(first >= 0 && first < count, "Offsets \(source) out of range 0..<\(count)")
      return _moveRow(from: first, to: destination, before: _capture())
    }
    let offsets = Self._sortedOffsets(source)
    if let last = offsets.last {
      precondition(offsets[0] >= 0 && last < count, "Offsets \(source) out of range 0..<\(count)")
    }
    let before = _capture()
    guard !offsets.isEmpty else { return _settle(from: before, cause: .edit) }
    if offsets.count == 1 { return _moveRow(from: offsets[0], to: destination, before: before) }
    var ids: [ID] = []
    var extents: [Int32] = []
    var roles: [UInt8] = []
    var extras: [UInt64] = []
    ids.reserveCapacity(offsets.count)
    extents.reserveCapacity(offsets.count)
    roles.reserveCapacity(offsets.count)
    for i in offsets {
      let location = _tree._locate(i)
      let row = _tree._row(at: location)
      ids.append(row.id)
      extents.append(row.stored)
      roles.append(_tree.role(at: location))  // H1: roles follow their ids
      if _tree._kinds != nil { extras.append(_tree._extra(at: location)) }  // K1, K2: so do kinds
    }
    let target = destination &- _lowerBound(offsets, destination)
    if _slowPath(_batch != nil) { _logRemoval(offsets) }
    // L4: moved rows keep their lanes; where among them the headers and footers are
    let roleOffsets = roles.indices.filter { roles[$0] != ExtentTree<ID>._plainRole }
    let keptLanes = _placementWillMove(offsets, plain: roleOffsets.isEmpty)
    _tree.remove(sortedIndices: offsets)
    do {
      try _tree.insert(ids, extents: extents, roles: roles, extras: extras.isEmpty ? nil : extras, at: target,
                       knownNew: true)  // just removed
    } catch {
      preconditionFailure("LazyStackLayout.move: reinserting moved rows failed: \(error)")
    }
    if _slowPath(_batch != nil) { _logInsertion(at: target, count: ids.count, stored: extents) }
    if let keptLanes { _lanesDidMove(offsets, keeping: keptLanes, to: target, roles: roleOffsets) }
    return _settle(from: before, cause: .edit)
  }

  /// `move(fromOffsets:toOffset:)` of one row (a drag): the row is read
  /// where it was found once, and an estimated row of the plain role with
  /// no kind goes back with no arrays of extents, roles or extras.
  /// - Complexity: O(log n + B), plus O(n/B) on a split or merge.
  @inlinable
  internal mutating func _moveRow(from source: Int, to destination: Int, before: _Before) -> ScrollCorrection {
    let location = _tree._locate(source)
    let row = _tree._row(at: location)
    let role = _tree.role(at: location)  // H1: roles follow their ids
    let extra = _tree._kinds == nil ? 0 : _tree._extra(at: location)  // K1, K2: so do kinds
    let target = source < destination ? destination &- 1 : destination
    if _slowPath(_batch != nil) { _logRemoval(CollectionOfOne(source)) }
    let keptLanes = _placementWillMove([source], plain: role == ExtentTree<ID>._plainRole)  // L4
    _tree._remove(at: location)
    let stored: [Int32]? = row.stored == ExtentTree<ID>._estimated ? nil : [row.stored]
    do {
      try _tree.insert(CollectionOfOne(row.id), extents: stored,
                       roles: role == ExtentTree<ID>._plainRole ? nil : [role], extras: extra == 0 ? nil : [extra],
                       at: target, knownNew: true)  // just removed
    } catch {
      preconditionFailure("LazyStackLayout.move: reinserting the moved row failed: \(error)")
    }
    if _slowPath(_batch != nil) { _logInsertion(at: target, count: 1, stored: stored) }
    if let keptLanes {
      _lanesDidMove([source], keeping: keptLanes, to: target, roles: role == ExtentTree<ID>._plainRole ? [] : [0])
    }
    return _settle(from: before, cause: .edit)
  }

  /// Applies a `CollectionDifference` of ids (SPEC E1, E2): removals at their
  /// offsets in the old list, then insertions at their offsets in the new
  /// one. An id removed and inserted again is a move: it keeps its measured
  /// extent and its role (H1) and stays the anchor if it was.
  /// - Returns: The correction applied.
  /// - Throws: `LazyStackError.unknownID` if a removal's id is not the row
  ///   at its offset; `LazyStackError.duplicateID` if an insertion's id is
  ///   already a row (and not removed) or repeats. The layout is unchanged.
  /// - Precondition: the offsets fit the list (like `Array.applying(_:)`).
  /// - Complexity: O(k (log n + B)) for k changes, plus O(n/B) on splits or
  ///   merges; with lane sections, O(k (log n + B + l) + k s) more for l
  ///   lanes and s lane sections (L8), or O(n) when a header or footer is
  ///   removed or a measured row removed for good moves a `.meanOfMeasured`
  ///   estimate (the sections are laid out again).
  @inlinable
  @discardableResult
  public mutating func apply(_ difference: CollectionDifference<ID>) throws(LazyStackError) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    var removedIndices: [Int] = []
    var removedIDs = Set<ID>()
    for change in difference.removals {
      guard case .remove(let offset, let id, _) = change else { continue }
      precondition(offset >= 0 && offset < count, "Removal offset \(offset) out of range 0..<\(count)")
      guard _tree.id(at: offset) == id else { throw .unknownID(String(describing: id)) }
      removedIndices.append(offset)
      removedIDs.insert(id)
    }
    removedIndices.sort()
    var inserted = Set<ID>()
    var finalCount = count &- removedIndices.count
    for change in difference.insertions {
      guard case .insert(let offset, let id, _) = change else { continue }
      precondition(offset >= 0 && offset <= finalCount, "Insertion offset \(offset) out of range")
      finalCount &+= 1
      if (_tree.contains(id) && !removedIDs.contains(id)) || !inserted.insert(id).inserted {
        throw .duplicateID(String(describing: id), index: offset)
      }
    }
    // Valid: carry out removals, then insertions in ascending order.
    let before = _capture()
    var carried: [ID: (stored: Int32, role: UInt8, extra: UInt64)] = [:]
    for i in removedIndices {
      let location = _tree._locate(i)
      let row = _tree._row(at: location)
      if inserted.contains(row.id) {
        carried[row.id] = (row.stored, _tree.role(at: location), _tree._kinds == nil ? 0 : _tree._extra(at: location))
      }
    }
    _replaceRemovedAnchor(removing: removedIndices, reinserted: inserted)
    if _slowPath(_frame.notesEdits) {  // F3: a row removed and inserted again is a move
      for id in removedIDs where !inserted.contains(id) { _frameNoteRemoved(id) }
      for id in inserted where !removedIDs.contains(id) { _frameNoteInserted(id) }
    }
    if _slowPath(_batch != nil) { _logRemoval(removedIndices) }
    let lanes = _placementWillApply(removedIndices, reinserted: inserted)  // L4: moved rows keep their lanes
    _tree.remove(sortedIndices: removedIndices)
    _placementDidApplyRemovals(removedIndices, lanes)
    for change in difference.insertions {
      guard case .insert(let offset, let id, _) = change else { continue }
      do {
        let kept = carried[id]
        let extra = kept?.extra ?? 0
        try _tree.insert(CollectionOfOne(id), extents: [kept?.stored ?? -1], roles: [kept?.role ?? 0],
                         extras: extra == 0 ? nil : [extra], at: offset, knownNew: true)  // validated above
      } catch {
        preconditionFailure("LazyStackLayout.apply: validated insertion failed: \(error)")
      }
      if _slowPath(_batch != nil) { _logInsertion(at: offset, count: 1, stored: [carried[id]?.stored ?? -1]) }
      _placementDidApplyInsert(at: offset, id: id, lanes)
    }
    _refreshEstimate()
    _placementDidApply(lanes, difference)
    let correction = _settle(from: before, cause: .edit)
    if _slowPath(_pendingRestore != nil) { return _resumeRestore(after: correction) }  // C3
    return correction
  }
}

/// What an edit does to a row the layout follows (the anchor row, an
/// animation's target): it stays, or it is removed and the nearest row
/// that stays takes its place (SPEC S5; nil: none stays).
@usableFromInline
internal enum _RowFate<ID: Hashable & Sendable>: Sendable {
  case stays
  case removed(survivor: ID?)
}
