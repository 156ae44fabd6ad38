// Keeping the id index (`_IDIndex`) in step with the blocks: building it
// from ids or from the blocks, rebuilding it when edits crowd it, filing
// moved rows under their new block.

extension ExtentTree {
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

  /// Rebuilds the id index if an edit spilled entries (see `_IDIndex`),
  /// with more room if it was crowded.
  /// - Complexity: O(1), or O(n) expected when it rebuilds.
  @inlinable
  package mutating func _tidyIndex() {
    guard _hasIndex && _index.needsRebuild else { return }
    _index = _indexFromBlocks(minimumCapacity: _index.isCrowded ? count &* 2 : _IDIndex.buildCapacity(for: count))
  }

  /// Files every id of `ids` (the rows that moved from block `old` to block
  /// `new` in a split or a merge) under `new`; their home slots are read
  /// first, so the misses overlap.
  /// - Complexity: O(k) expected for k ids.
  @inlinable
  package mutating func _relabel(_ ids: ContiguousArray<ID>, from old: Int32, to new: Int32) {
    let hashes = ids.map { _index.hash($0) }
    _index.warm(hashes)
    for hash in hashes { _index.relabel(hash, from: old, to: new) }
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

  /// Makes room in the id index for `additional` more ids (doubling it).
  /// - Complexity: O(1), or O(n) expected when it grows.
  @inlinable
  package mutating func _reserveIndex(_ additional: Int) {
    guard _hasIndex && !_index.hasRoom(for: additional) else { return }
    _index = _indexFromBlocks(minimumCapacity: Swift.max(count &* 2, count &+ additional &* 2))
  }

  /// Whether `_index` is in use (the ids are not `_ordered`).
  @inlinable @inline(__always)
  package var _hasIndex: Bool { !_ordered }
}
