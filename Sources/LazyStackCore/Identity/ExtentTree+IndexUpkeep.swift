// Keeping the id index (`_IDIndex`) in step with the blocks: building it
// from ids or from the blocks, rebuilding it when edits crowd it, filing
// moved rows under their new block.

/// Storage a tree dropped, whose pages it gives back a slice an edit
/// (`ExtentTree._retired`).
@usableFromInline
package enum _RetiredPages: Sendable {
  /// An id index a larger one replaced.
  case index(_IDIndex)
  /// An exception table's storage that emptied.
  case table(_IDTableStorage<Int>)

  /// The bytes not given back yet.
  /// - Complexity: O(1).
  @inlinable
  package var heapBytes: Int {
    switch self {
    case .index(let index): return index.heapBytes
    case .table(let storage): return storage.unreleasedBytes
    }
  }

  /// Whether this is an id index.
  @inlinable
  package var isIndex: Bool {
    if case .index = self { return true }
    return false
  }
}

extension ExtentTree {
  /// Gives back the pages of 64 KB more of the storage dropped last, and
  /// forgets it once they are all given back, or at once if a copy of the
  /// tree still holds it (a copy's live index, or its own list).
  /// - Complexity: O(1) (a bounded `munmap` or `madvise`).
  @inlinable
  package mutating func _releaseRetired() {
    switch _retired.removeLast() {
    case .index(var index):
      if !index.releasePages(slots: 16_384) { _retired.append(.index(index)) }
    case .table(var storage):
      guard isKnownUniquelyReferenced(&storage) else { return }
      if !storage._releasePages(_GrowingIDTable.releaseStep) { _retired.append(.table(storage)) }
    }
  }

  /// Fills `_index` from ids laid out in blocks of `_fillCount` (the index
  /// first: a duplicate is found before any block is built); returns the
  /// offset of the first repeated id, if any (the index is then empty).
  /// - Complexity: O(n) expected.
  @inlinable
  package mutating func _buildIndex(_ ids: UnsafeBufferPointer<ID>) -> Int? {
    let n = ids.count
    precondition(n < Int(Int32.max), "ExtentTree: more than 2^31 rows")
    let fill = _fillCount
    let seed = _IDIndex.seed
    func records(_ body: (_IDRecord) -> Void) {
      for i in 0 ..< n {
        body(_IDRecord(hash: _idHash(ids[i], seed: seed), handle: Int32(truncatingIfNeeded: i / fill),
                       row: Int32(truncatingIfNeeded: i)))
      }
    }
    // Whether the block `handle` will hold (the rows laid out by `fill`)
    // another row with row `row`'s id.
    func sameKey(_ handle: Int32, _ row: Int) -> Bool {
      let lower = Int(handle) &* fill
      for r in lower ..< Swift.min(n, lower &+ fill) where r != row && ids[r] == ids[row] { return true }
      return false
    }
    let blocks = (n &+ fill &- 1) / fill
    let (built, repeated) = _IDIndex._build(count: n, minimumCapacity: _IDIndex.buildCapacity(for: n), handles: blocks,
                                            records: records, sameKey: sameKey)
    guard repeated else {
      _index = built
      _nextIndex = nil
      _migrated = 0
      _retired.removeAll { $0.isIndex }
      return nil
    }
    // Name the first repeat in row order, as one insert after another would.
    var seen = Set<ID>(minimumCapacity: n)
    for i in 0 ..< n where !seen.insert(ids[i]).inserted { return i }
    preconditionFailure("ExtentTree: a repeated id that a set does not repeat")
  }

  /// An id index of the rows in the blocks, with room for
  /// `minimumCapacity` ids.
  /// - Complexity: O(n) expected.
  @inlinable
  package func _indexFromBlocks(minimumCapacity: Int) -> _IDIndex {
    let n = count
    precondition(n < Int(Int32.max), "ExtentTree: more than 2^31 rows")
    let seed = _IDIndex.seed
    func records(_ body: (_IDRecord) -> Void) {
      var row = 0
      for handle in _order {
        _withBlock(handle: Int(handle)) { block in
          for id in block.pointee.ids {
            body(_IDRecord(hash: _idHash(id, seed: seed), handle: handle, row: Int32(truncatingIfNeeded: row)))
            row &+= 1
          }
        }
      }
    }
    return _IDIndex._build(count: n, minimumCapacity: minimumCapacity, handles: _blocks.count,
                           records: records, sameKey: nil).index
  }

  /// After an edit: starts replacing the id index if the edit spilled
  /// entries (see `_IDIndex`; with more room if it was crowded), moves a
  /// replacement under way on by a bounded number of rows (or zeroes a
  /// slice of its slots), and unmaps the pages of 16,384 slots (64 KB)
  /// of the index replaced last, and 64 KB of a dropped exception table's.
  /// - Complexity: O(B) expected (B/8 rows, B/2 while entries are spilled:
  ///   64 and 256 in blocks of 512).
  @inlinable
  package mutating func _tidyIndex() {
    if _slowPath(!_retired.isEmpty) { _releaseRetired() }
    guard _hasIndex else { return }
    if _nextIndex == nil {
      guard _index.needsRebuild else { return }
      _startIndexMigration(minimumCapacity: _index.isCrowded ? count &* 2 : _IDIndex.buildCapacity(for: count))
    }
    _advanceIndexMigration(rows: _index.needsRebuild ? blockCapacity / 2 : blockCapacity / 8)
  }

  /// Makes room in the id index for `additional` more ids. From 5/8 full,
  /// a larger index is filled a block or so an edit (8 rows for each row
  /// inserted, and `_tidyIndex`'s block after each edit), so it is
  /// complete before this one is 3/4 full; a batch too large for the room
  /// left finishes it at once, O(n + k) = O(k) for such a batch.
  /// - Complexity: O(k + B) expected for k ids (O(n + k) for a batch of k
  ///   at least about n/8).
  @inlinable
  package mutating func _reserveIndex(_ additional: Int) {
    guard _hasIndex else { return }
    if _nextIndex == nil {
      guard _index.count &+ additional > _index.migrationStart else { return }
      _startIndexMigration(minimumCapacity: Swift.max(count &* 2, count &+ additional &* 2))
    }
    if _index.hasRoom(for: additional) {
      // Eight rows for each row inserted (a single row's share is in `_tidyIndex`'s block).
      if additional &* 8 > blockCapacity / 8 { _advanceIndexMigration(rows: additional &* 8) }
    } else {
      _advanceIndexMigration(rows: Int.max)
      if !_index.hasRoom(for: additional) {
        // Still no room (the finished index was sized before this batch).
        _index = _indexFromBlocks(minimumCapacity: Swift.max(count &* 2, count &+ additional &* 2))
      }
    }
  }

  /// Starts filling a new id index with room for `minimumCapacity` ids
  /// (`_nextIndex`), for the handles there are now.
  /// - Complexity: O(minimumCapacity) (the allocation).
  @inlinable
  package mutating func _startIndexMigration(minimumCapacity: Int) {
    _nextIndex = _IDIndex(unzeroedCapacity: minimumCapacity, handles: _blocks.count)
    _migrated = 0
  }

  /// Moves the replacement of the id index on: zeroes 16 slots for each
  /// row of `rows` (at least 1,024, 4 KB) while its slots are not all
  /// zeroed (each page is then faulted in once, in order, not by a row
  /// filed at a random place), else files the rows of the next blocks (by
  /// handle), until at least `rows` rows or the last block; the last block
  /// makes it the id index (and the old one goes to `_retired`). `Int.max`
  /// finishes it.
  /// - Complexity: O(rows + B) expected.
  @inlinable
  package mutating func _advanceIndexMigration(rows budget: Int) {
    guard var next = _nextIndex else { return }
    _nextIndex = nil  // let `next` be uniquely referenced
    if !next.isPrepared {
      let ready = next.prepare(slots: budget == Int.max ? Int.max : Swift.max(1_024, budget &* 16))
      if !ready || budget != Int.max {
        _nextIndex = next
        return
      }
    }
    var filed = 0
    while _migrated < _blocks.count && filed < budget {
      let handle = Int32(truncatingIfNeeded: _migrated)
      let hashes = _withBlock(handle: _migrated) { block in block.pointee.ids.map { next.hash($0) } }
      if hashes.count >= 8 { next.warm(hashes) }  // the misses overlap
      for hash in hashes { next.insert(hash, handle: handle) }
      filed &+= hashes.count
      _migrated &+= 1
    }
    if _migrated < _blocks.count {
      _nextIndex = next
    } else {
      _retired.append(.index(_index))
      _index = next
      _migrated = 0
    }
  }

  /// Files an id just entered in `_index` under block `handle` in
  /// `_nextIndex` too, if that block is migrated.
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  package mutating func _fileInNextIndex(_ hash: UInt64, handle: Int32) {
    if _nextIndex != nil && Int(handle) < _migrated { _nextIndex!.insert(hash, handle: handle) }
  }

  /// Files an id under block `handle` in the id index (and in a
  /// replacement under way, if that block is migrated).
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  package mutating func _indexInsert(_ hash: UInt64, handle: Int32) {
    _index.insert(hash, handle: handle)
    _fileInNextIndex(hash, handle: handle)
  }

  /// Removes an entry of (`hash`, `handle`) from the id index (and from a
  /// replacement under way, if that block is migrated).
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  package mutating func _indexRemove(_ hash: UInt64, handle: Int32) {
    _index.remove(hash, handle: handle)
    if _nextIndex != nil && Int(handle) < _migrated { _nextIndex!.remove(hash, handle: handle) }
  }

  /// Moves an entry of (`hash`, `old`) to block `new` in the id index; in a
  /// replacement under way, the entry follows whether each block is
  /// migrated (moved, removed, filed or left out).
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  package mutating func _indexRelabel(_ hash: UInt64, from old: Int32, to new: Int32) {
    _index.relabel(hash, from: old, to: new)
    guard _nextIndex != nil else { return }
    switch (Int(old) < _migrated, Int(new) < _migrated) {
    case (true, true): _nextIndex!.relabel(hash, from: old, to: new)
    case (true, false): _nextIndex!.remove(hash, handle: old)
    case (false, true): _nextIndex!.insert(hash, handle: new)
    case (false, false): break
    }
  }

  /// Files every id of `ids` (the rows that moved from block `old` to block
  /// `new` in a split or a merge) under `new`; their home slots are read
  /// first, so the misses overlap.
  /// - Complexity: O(k) expected for k ids.
  @inlinable
  package mutating func _relabel(_ ids: ContiguousArray<ID>, from old: Int32, to new: Int32) {
    let hashes = ids.map { _index.hash($0) }
    _index.warm(hashes)
    for hash in hashes { _indexRelabel(hash, from: old, to: new) }
  }

  /// Files the ids of rows that moved from block `old` to block `new` (a
  /// split or a merge) under `new`: in the id index, or, while the ids are
  /// ordered, those of them that are exceptions.
  /// - Complexity: O(k) expected for k ids (O(1) for ordered ids in a block
  ///   without exceptions).
  @inlinable
  package mutating func _refile(_ ids: ContiguousArray<ID>, from old: Int32, to new: Int32) {
    if _hasIndex {
      _relabel(ids, from: old, to: new)
    } else {
      _relabelExceptions(ids, from: old, to: new)
    }
  }


  /// Whether `_index` is in use (the ids are not `_ordered`).
  @inlinable @inline(__always)
  package var _hasIndex: Bool { !_ordered }
}
