// Keeping ordered `Int` ids findable without an index over all rows
// (`_ordered`): which inserted ids break the order, the exceptions table,
// and the blocks' search keys through inserts, splits and merges.

extension ExtentTree {
  /// Whether the row with integer id `id` is an exception (see `_ordered`).
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  package func _isException(_ id: Int) -> Bool {
    // Read in place (`guard let` copied the table: a retain and a release a probe).
    _exceptions?[id] != nil
  }

  /// The number of exceptions in the block with `handle`.
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  package func _exceptionCount(_ handle: Int) -> Int {
    Int(_exceptionCounts?[handle] ?? 0)
  }

  /// Adds `delta` to the exception count of the block with `handle`.
  /// - Complexity: O(1) expected.
  @inlinable
  package mutating func _countExceptions(_ delta: Int, in handle: Int32) {
    let h = Int(handle)
    var counts = _exceptionCounts ?? _GrowingIDTable(minimumCapacity: 4)
    _exceptionCounts = nil  // let `counts` be uniquely referenced
    let count = Int(counts[h] ?? 0) &+ delta
    if count == 0 {
      counts.removeValue(forKey: h)
    } else {
      counts.updateValue(Int32(truncatingIfNeeded: count), forKey: h)
    }
    if counts.isEmpty {
      _retire(&counts)
    } else {
      _exceptionCounts = counts
    }
  }

  /// Drops an exception table that emptied: the storages nothing else
  /// holds that are large enough to be mapped (its own, the one it was
  /// draining, the one it was giving back) go to `_retired`, whose
  /// pages `_tidyIndex` gives back a slice an edit; the others are freed
  /// now (short). A copy of the layout that shares a storage keeps it.
  /// - Complexity: O(1).
  @inlinable
  package mutating func _retire(_ table: inout _GrowingIDTable) {
    func keep(_ storage: _IDTableStorage<Int>) {
      if storage.slotCount &* MemoryLayout<_IDTableSlot<Int>>.stride >= _GrowingIDTable.retiringThreshold {
        _retired.append(.table(storage))
      }
    }
    if var old = table._old {
      table._old = nil
      if isKnownUniquelyReferenced(&old._storage) { keep(old._storage) }
    }
    guard isKnownUniquelyReferenced(&table._current._storage) else { return }
    let storage = table._current._storage
    if let giving = storage.retired {
      storage.retired = nil
      keep(giving)
    }
    keep(storage)
  }

  /// The first ordered id among `ids` (the block with `handle`'s), or `nil` if all are exceptions.
  /// - Complexity: O(k) expected for k ids, O(1) in a block without exceptions.
  @inlinable
  package func _firstOrderedID(in ids: ContiguousArray<ID>, handle: Int) -> Int? {
    let ints = unsafeBitCast(ids, to: ContiguousArray<Int>.self)
    guard _exceptionCount(handle) > 0 else { return ints.first }
    return ints.first { !_isException($0) }
  }

  /// Bounds for ids inserted at `location` that keep the order: every
  /// ordered id before the place is at most `low`, every one after it is at
  /// least `high`. Read from the nearest ordered rows of the place's block
  /// (or the previous block's last row), else from the blocks' keys: an id
  /// strictly between them can be ordered (sound, not always the widest).
  /// Among exceptions, at most `_boundsReach` rows each way are asked
  /// whether they are one (a hash probe each, unless the id is outside
  /// the block's key range, which only exceptions are); past them the bounds are
  /// the keys' (every ordered id of this block is below the next block's
  /// key, and at least this block's), so an insert where exceptions
  /// crowd is filed as an exception itself instead of probing the block.
  /// - Complexity: O(1).
  @inlinable
  package func _orderedBounds(at location: _Location) -> (low: Int, high: Int) {
    let p = location.position
    let s = location.slot
    var low: Int?
    var high: Int?
    var crowded = false
    let handle = Int(_order[p])
    let probe = _exceptionCount(handle) > 0
    // Every ordered id of the block is in `key ..< nextKey`: an id outside
    // is an exception without a probe of the table.
    let key = _firstIDs[p]
    let nextKey = p &+ 1 < _firstIDs.count ? _firstIDs[p &+ 1] : Int.max
    @inline(__always) func ordered(_ id: Int) -> Bool {
      !probe || (id >= key && id < nextKey && !_isException(id))
    }
    _withBlock(handle: handle) { block in
      let ids = unsafeBitCast(block.pointee.ids, to: ContiguousArray<Int>.self)
      var k = s
      while k > Swift.max(0, s &- Self._boundsReach) {
        k &-= 1
        if ordered(ids[k]) { low = ids[k]; break }
      }
      if low == nil && k > 0 { crowded = true }
      k = s
      while k < Swift.min(ids.count, s &+ Self._boundsReach) {
        if ordered(ids[k]) { high = ids[k]; break }
        k &+= 1
      }
      if high == nil && k < ids.count { crowded = true }
    }
    if crowded {
      // Sound: every ordered id before the place is below the next
      // block's key, every one after it at least this block's key.
      let next = p &+ 1 < _firstIDs.count ? _firstIDs[p &+ 1] : Int.max
      return (low ?? (next == Int.min ? Int.min : next &- 1), high ?? _firstIDs[p])
    }
    if low == nil && p > 0 {
      // The block before, past the spares (never first, and few in a row;
      // past `_spareReach` of them, the key's bound below).
      var before = p &- 1
      while before > 0 && p &- before < Self._spareReach && _isSpare(before) { before &-= 1 }
      let previous = Int(_order[before])
      let last = _withBlock(handle: previous) {
        unsafeBitCast($0.pointee.ids, to: ContiguousArray<Int>.self).last
      }
      // Every ordered id before block `p` is below its key.
      if let last, !(_exceptionCount(previous) > 0 && _isException(last)) {
        low = last
      } else {
        low = _firstIDs[p] == Int.min ? Int.min : _firstIDs[p] &- 1
      }
    }
    if high == nil { high = p &+ 1 < _firstIDs.count ? _firstIDs[p &+ 1] : Int.max }
    return (low ?? Int.min, high!)
  }

  /// How many rows each way `_orderedBounds` asks whether they are
  /// exceptions before it takes the blocks' keys.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package static var _boundsReach: Int { 16 }

  /// Which of `ids`, inserted in order between ordered ids at most `low`
  /// and at least `high`, break the order: a greedy pass keeps each id that
  /// is above the last one kept and below `high`, and calls `breaking` with
  /// the offset and id of each of the others. Returns the first id kept
  /// (the lowest). The one definition of which ids an insert files as
  /// exceptions: the insert counts them with it, then files them with it
  /// (`_fileExceptions`), so no array of offsets is made (an insert of one
  /// row allocates nothing for its order).
  /// - Complexity: O(k) for k ids.
  @inlinable @inline(__always)
  package static func _classify(
    _ ids: some Collection<ID>, after low: Int, before high: Int, breaking: (Int, Int) -> Void
  ) -> Int? {
    var lowest: Int?
    var last = low
    for (offset, id) in ids.enumerated() {
      let x = unsafeBitCast(id, to: Int.self)
      if x > last && x < high {
        if lowest == nil { lowest = x }
        last = x
      } else {
        breaking(offset, x)
      }
    }
    return lowest
  }

  /// Files the ids of `ids` that break the order between `low` and `high`
  /// (`_classify`) as exceptions in block `handle`; `count` is how many
  /// there are.
  /// - Complexity: O(k) expected (amortized over the table's growth).
  @inlinable
  package mutating func _fileExceptions(
    _ count: Int, of ids: some Collection<ID>, after low: Int, before high: Int, in handle: Int32
  ) {
    guard count > 0 else { return }
    var exceptions = _exceptions ?? _GrowingIDTable(minimumCapacity: count)
    _exceptions = nil  // let `exceptions` be uniquely referenced
    _ = Self._classify(ids, after: low, before: high) { _, x in exceptions.updateValue(handle, forKey: x) }
    _exceptions = exceptions
    _countExceptions(count, in: handle)
  }

  /// Files the exceptions among `ids` (rows that moved from block `old` to
  /// block `new`) under `new`.
  /// - Complexity: O(k) expected for k ids, O(1) if block `old` has no exceptions.
  @inlinable
  package mutating func _relabelExceptions(_ ids: some Collection<ID>, from old: Int32, to new: Int32) {
    guard _exceptionCount(Int(old)) > 0, var exceptions = _exceptions else { return }
    _exceptions = nil  // let `exceptions` be uniquely referenced
    for id in ids {
      let x = unsafeBitCast(id, to: Int.self)
      guard exceptions[x] != nil else { continue }
      exceptions.updateValue(new, forKey: x)
      _countExceptions(-1, in: old)
      _countExceptions(1, in: new)
    }
    _exceptions = exceptions
  }

  /// Forgets the exceptions among `ids` (rows being removed).
  /// - Complexity: O(k) expected for k ids.
  @inlinable
  package mutating func _dropExceptions(_ ids: some Collection<ID>) {
    guard var exceptions = _exceptions else { return }
    _exceptions = nil  // let `exceptions` be uniquely referenced
    for id in ids {
      if let handle = exceptions.removeValue(forKey: unsafeBitCast(id, to: Int.self)) { _countExceptions(-1, in: handle) }
    }
    if exceptions.isEmpty {
      _retire(&exceptions)
      if var counts = _exceptionCounts {
        _exceptionCounts = nil
        _retire(&counts)
      }
    } else {
      _exceptions = exceptions
    }
  }

  /// Lowers the key of the block at `position`, which now holds ordered
  /// id `id`, to `id` if it is above it, and the keys of the blocks before
  /// it that are above it too (blocks with no ordered row).
  /// - Complexity: O(1), plus one step a block before it that holds no ordered row.
  @inlinable
  package mutating func _lowerKey(to id: Int, at position: Int) {
    _firstIDs.withUnsafeMutableBufferPointer { keys in
      var p = position
      while p >= 0 && keys[p] > id {
        keys[p] = id
        p &-= 1
      }
    }
  }

  /// The keys of the pieces block `position` splits into: the first keeps
  /// the block's key; each other piece has its first ordered id, or the
  /// next piece's key when it holds none (the block after the split's, or
  /// `Int.max` at the end).
  /// - Complexity: O(B) expected.
  @inlinable
  package func _pieceKeys(_ pieces: [_Block], at position: Int) -> [Int] {
    var keys = [Int](repeating: 0, count: pieces.count)
    let handle = Int(_order[position])  // the pieces' exceptions are still filed under it
    var next = position &+ 1 < _firstIDs.count ? _firstIDs[position &+ 1] : Int.max
    for k in pieces.indices.reversed() {
      if k == 0 {
        keys[0] = _firstIDs[position]
      } else {
        next = _firstOrderedID(in: pieces[k].ids, handle: handle) ?? next
        keys[k] = next
      }
    }
    return keys
  }
}

/// How `ExtentTree._fillExceptions` came out.
@usableFromInline
package enum _OrderedFill: Sendable {
  /// The tree is ordered, with exceptions.
  case ordered
  /// The id at this offset repeats an earlier one (the first such offset).
  case repeated(Int)
  /// More than an eighth of the ids would be exceptions: index them instead.
  case tooMany
}

extension ExtentTree {
  /// Makes a freshly filled tree (blocks of `_fillCount` rows, `_order`
  /// set) of `Int` ids `ids` ordered: the rows of a longest strictly
  /// ascending run (not `Int.max`) stay ordered, the others become
  /// exceptions. Leaves the tree unordered (and returns `.tooMany` or
  /// `.repeated`) if more than an eighth of the rows would be exceptions or
  /// an id repeats.
  /// - Complexity: O(n log n) (a longest increasing subsequence, in n
  ///   steps of O(1) while the ids ascend), plus O(k log n) for k exceptions.
  @inlinable
  package mutating func _fillExceptions(_ ids: UnsafeBufferPointer<ID>) -> _OrderedFill {
    let n = ids.count
    guard let base = ids.baseAddress else { return .tooMany }
    let ints = UnsafeBufferPointer(start: UnsafeRawPointer(base).assumingMemoryBound(to: Int.self), count: n)
    // Patience sorting: `tails[k]` is the smallest last id of an ascending
    // run of k + 1 rows so far, `tailRows[k]` its row, `previous[i]` the
    // row before row `i` in the run that ends at it.
    var tails: [Int] = []
    var tailRows: [Int32] = []
    var previous = [Int32](repeating: -1, count: n)
    for i in 0 ..< n {
      let x = ints[i]
      if x == Int.max { continue }
      if let last = tails.last, x <= last {
        let k = Self._partitionPoint(tails.count) { tails[$0] < x }
        tails[k] = x
        tailRows[k] = Int32(truncatingIfNeeded: i)
        if k > 0 { previous[i] = tailRows[k &- 1] }
      } else {
        previous[i] = tailRows.last ?? -1
        tails.append(x)
        tailRows.append(Int32(truncatingIfNeeded: i))
      }
    }
    let exceptionCount = n &- tails.count
    guard exceptionCount &* 8 <= n else { return .tooMany }
    tails = []
    var ordered = [Bool](repeating: false, count: n)
    var row = tailRows.last ?? -1
    while row >= 0 {
      ordered[Int(row)] = true
      row = previous[Int(row)]
    }
    previous = []
    // The ordered ids, ascending: an exception equal to one of them repeats it.
    var orderedIDs: [Int] = []
    orderedIDs.reserveCapacity(n &- exceptionCount)
    for i in 0 ..< n where ordered[i] { orderedIDs.append(ints[i]) }
    let fill = _fillCount
    var exceptions = _GrowingIDTable(minimumCapacity: exceptionCount)
    for i in 0 ..< n where !ordered[i] {
      let x = ints[i]
      let k = Self._partitionPoint(orderedIDs.count) { orderedIDs[$0] < x }
      let repeatsOrdered = k < orderedIDs.count && orderedIDs[k] == x
      if repeatsOrdered || exceptions.updateValue(Int32(truncatingIfNeeded: i / fill), forKey: x) != nil {
        return .repeated(Self._firstRepeat(ids))
      }
    }
    // Keys: a block's first ordered id, else the next block's key.
    let blocks = _blocks.count
    _firstIDs = ContiguousArray(repeating: Int.max, count: blocks)
    var next = Int.max
    for b in (0 ..< blocks).reversed() {
      for i in b &* fill ..< Swift.min(n, b &* fill &+ fill) where ordered[i] {
        next = ints[i]
        break
      }
      _firstIDs[b] = next
    }
    _ordered = true
    _exceptions = exceptions.isEmpty ? nil : exceptions
    for i in 0 ..< n where !ordered[i] { _countExceptions(1, in: Int32(truncatingIfNeeded: i / fill)) }
    return .ordered
  }

  /// The offset of the first id of `ids` that repeats an earlier one.
  /// - Precondition: one does.
  /// - Complexity: O(n) expected.
  @inlinable
  package static func _firstRepeat(_ ids: UnsafeBufferPointer<ID>) -> Int {
    var seen = Set<ID>(minimumCapacity: ids.count)
    for i in ids.indices where !seen.insert(ids[i]).inserted { return i }
    preconditionFailure("ExtentTree: a repeated id that a set does not repeat")
  }
}
