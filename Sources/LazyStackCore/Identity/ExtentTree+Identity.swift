extension ExtentTree {
  /// Whether a row has the given id.
  /// - Complexity: O(1) on average (a hash lookup).
  @inlinable
  package func contains(_ id: ID) -> Bool {
    if let range = _implicit {
      guard let i = id as? Int else { return false }
      return range.contains(i)
    }
    return _index[id] != nil
  }

  /// The location of the row with the given id: its block by the id index,
  /// the block's start by a Fenwick prefix, the slot by scanning the block.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func _locate(id: ID) -> _Location? {
    if let range = _implicit {
      guard let i = id as? Int, range.contains(i) else { return nil }
      return _locate(i &- range.lowerBound)
    }
    guard let handle = _index[id] else { return nil }
    let position = Int(_positions[Int(handle)])
    guard let slot = _withBlock(handle: Int(handle), { $0.pointee.ids.firstIndex(of: id) }) else {
      preconditionFailure("ExtentTree: the id index names a block that does not hold the id")
    }
    return _Location(position: position, slot: slot, before: _fenwickPrefix(position))
  }

  /// The index of the row with the given id, or `nil`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func index(of id: ID) -> Int? {
    guard let l = _locate(id: id) else { return nil }
    return l.before.count &+ l.slot
  }

  /// Calls `body` with every row's id and stored extent (`-1`: estimated),
  /// in order.
  /// - Complexity: O(n).
  @inlinable
  package func forEachRow(_ body: (ID, Int32) throws -> Void) rethrows {
    for handle in _order {
      let block = _blocks[Int(handle)]
      for slot in 0 ..< block.ids.count {
        try body(block.ids[slot], block.extents[slot])
      }
    }
  }

  /// Every id, in order.
  /// - Complexity: O(n).
  @inlinable
  package var ids: [ID] {
    var result: [ID] = []
    result.reserveCapacity(count)
    for handle in _order { result.append(contentsOf: _blocks[Int(handle)].ids) }
    return result
  }

  /// The measured extents by id (estimated rows are left out).
  /// - Complexity: O(n).
  @inlinable
  package var measuredExtentsByID: _IDTable<ID> {
    var result = _IDTable<ID>(minimumCapacity: measuredCount)
    guard measuredCount > 0 else { return result }
    for handle in _order {
      let block = _blocks[Int(handle)]
      guard block.measuredCount > 0 else { continue }
      for slot in 0 ..< block.ids.count where block.extents[slot] >= 0 {
        result.updateValue(block.extents[slot], forKey: block.ids[slot])
      }
    }
    return result
  }
}
