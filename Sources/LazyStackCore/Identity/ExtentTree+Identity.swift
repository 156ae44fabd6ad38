extension ExtentTree {
  /// Whether a row has the given id.
  /// - Complexity: O(B) expected (a hash lookup and a scan of one block).
  @inlinable
  package func contains(_ id: ID) -> Bool {
    if let range = _implicit {
      guard let i = id as? Int else { return false }
      return range.contains(i)
    }
    if _ordered { return _findOrdered(unsafeBitCast(id, to: Int.self)) != nil }
    return _indexed(id) != nil
  }

  /// The handle of the block holding `id` and its slot there, by the id
  /// index: each handle the index files under the id's hash is confirmed by
  /// scanning its block (almost always one).
  /// - Complexity: O(B) expected.
  @inlinable
  package func _indexed(_ id: ID) -> (handle: Int32, slot: Int)? {
    var slot = -1
    let handle = _index.first(_index.hash(id)) { handle in
      slot = _withBlock(handle: Int(handle)) { $0.pointee.ids.firstIndex(of: id) } ?? -1
      return slot >= 0
    }
    return handle.map { ($0, slot) }
  }

  /// The location of the row with the given id: its block by the id index,
  /// the slot by scanning the block, the block's start by a Fenwick prefix.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func _locate(id: ID, hint: Int = -1) -> _Location? {
    if let range = _implicit {
      guard let i = id as? Int, range.contains(i) else { return nil }
      return _locate(i &- range.lowerBound)
    }
    if _ordered {
      guard let (position, slot) = _findOrdered(unsafeBitCast(id, to: Int.self), hint: hint) else { return nil }
      return _Location(position: position, slot: slot, before: _fenwickPrefix(position))
    }
    guard let (handle, slot) = _indexed(id) else { return nil }
    let position = Int(_positions[Int(handle)])
    return _Location(position: position, slot: slot, before: _fenwickPrefix(position))
  }

  /// The block position and slot of the row with integer id `id` while
  /// `_ordered`: an exception by `_exceptions`; else over the blocks' keys,
  /// then over the block, an interpolated guess checked with one or two
  /// reads (exact while the ids are dense, such as `0 ..< n` or sequence
  /// numbers: a random lookup then touches one cache line of the block
  /// instead of a binary search's half dozen), else a binary search. A block
  /// that holds exceptions may hide an ordered id from the binary search
  /// (its ids do not all ascend), so a miss there scans the block.
  /// - Complexity: O(log n + B).
  @inlinable
  package func _findOrdered(_ id: Int, hint: Int = -1) -> (position: Int, slot: Int)? {
    if let exceptions = _exceptions, let handle = exceptions[id] {
      let slot = _withBlock(handle: Int(handle)) { block in
        unsafeBitCast(block.pointee.ids, to: ContiguousArray<Int>.self).withUnsafeBufferPointer { Self._scan($0, for: id) }
      }
      guard let slot else { preconditionFailure("ExtentTree: exception \(id) is not in its block") }
      return (Int(_positions[Int(handle)]), slot)
    }
    // The last block whose key is at most `id`.
    let position = _firstIDs.withUnsafeBufferPointer { first -> Int in
      let n = first.count
      guard n > 0, first[0] <= id else { return -1 }
      // Whether the block at `p` is the one: it starts at or before `id`, the next after.
      func holds(_ p: Int) -> Bool { first[p] <= id && (p &+ 1 == n || first[p &+ 1] > id) }
      // The block a caller expects (such as the anchor row's), then a guess, checked.
      if hint >= 0 && hint < n && holds(hint) { return hint }
      let guess = Self._interpolate(id, first[0], first[n &- 1], n)
      if holds(guess) { return guess }
      return Self._partitionPoint(n) { first[$0] <= id } &- 1
    }
    guard position >= 0 else { return nil }
    let handle = Int(_order[position])
    // A block without exceptions ascends: a miss there is final.
    let exact = _exceptions == nil || _exceptionCount(handle) == 0
    let slot: Int? = _withBlock(handle: handle) { block in
      block.pointee.ids.withUnsafeBufferPointer { ids in
        guard let base = ids.baseAddress else { return nil }
        let ints = UnsafeRawPointer(base).assumingMemoryBound(to: Int.self)
        let n = block.pointee.rowCount  // not the buffer's header: one cache miss fewer in a row
        guard n > 0 else { return nil }  // a spare, whose key is the next block's
        // Dense ids (every integer from the first to the last): the slot is
        // the distance from the first, in integers.
        if ints[n &- 1] &- ints[0] == n &- 1 {
          let slot = id &- ints[0]
          if slot >= 0 && slot < n && (exact || ints[slot] == id) { return slot }
          if exact { return nil }
        }
        let guess = Self._interpolate(id, ints[0], ints[n &- 1], n)
        if ints[guess] == id { return guess }
        let low = Self._partitionPoint(n) { ints[$0] < id }
        if low < n && ints[low] == id { return low }
        if exact { return nil }
        return Self._scan(UnsafeBufferPointer(start: ints, count: n), for: id)
      }
    }
    return slot.map { (position, $0) }
  }

  /// The index of `id` in `ints`, or `nil`: 16 comparisons at a time
  /// without a branch (they vectorize), then the one chunk that matched.
  /// - Complexity: O(count).
  @inlinable
  package static func _scan(_ ints: UnsafeBufferPointer<Int>, for id: Int) -> Int? {
    let n = ints.count
    var lower = 0
    while lower &+ 16 <= n {
      var hit: UInt8 = 0
      for k in 0 ..< 16 { hit |= ints[lower &+ k] == id ? 1 : 0 }
      if hit != 0 { break }
      lower &+= 16
    }
    for i in lower ..< n where ints[i] == id { return i }
    return nil
  }

  /// Where `id` would sit among `count` ascending values from `first` to
  /// `last` if they were evenly spaced, clamped to `0 ..< count`.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package static func _interpolate(_ id: Int, _ first: Int, _ last: Int, _ count: Int) -> Int {
    guard count > 1, last > first, id > first else { return 0 }
    guard id < last else { return count &- 1 }
    // In Double: id - first and last - first may not fit an Int's product.
    let fraction = Double(id) - Double(first)
    let span = Double(last) - Double(first)
    // Clamped in Double (ids within 2^10 of each other near the ends of Int
    // can round to one Double: a span of 0); truncation of a non-negative value is floor.
    let guess = span > 0 ? fraction * Double(count &- 1) / span : 0
    return Int(Swift.min(Swift.max(guess, 0), Double(count &- 1)))
  }

  /// The first index in `0 ..< count` where `isBefore` is false (it must be
  /// true for a prefix of the indices and false after): a binary search.
  /// - Complexity: O(log count).
  @inlinable @inline(__always)
  package static func _partitionPoint(_ count: Int, _ isBefore: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low &+ high) >> 1
      if isBefore(middle) { low = middle &+ 1 } else { high = middle }
    }
    return low
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

  /// The stored extents of the measured and invalidated rows by id (rows
  /// never measured are left out), so a snapshot keeps both (X1, S12).
  /// - Complexity: O(n).
  @inlinable
  package var measuredExtentsByID: _IDTable<ID> {
    var result = _IDTable<ID>(minimumCapacity: measuredCount)
    for handle in _order {
      _withBlock(handle: Int(handle)) { block in
        block.pointee.extents.withUnsafeBufferPointer { extents in
          for slot in 0 ..< extents.count where extents[slot] != Self._estimated {
            result.updateValue(extents[slot], forKey: block.pointee.ids[slot])
          }
        }
      }
    }
    return result
  }

}
