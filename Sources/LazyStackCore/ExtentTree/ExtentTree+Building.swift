// Building a tree from ids: the initializer, the fills (a range of integer
// ids, ascending ids, any ids), and putting measured extents back.

extension ExtentTree {
  /// Creates a tree of estimated rows.
  /// - Parameters:
  ///   - ids: The rows' ids, in order; they must be unique.
  ///   - estimate: The extent of an estimated row, in units (0...maxExtentUnits).
  ///   - spacing: The spacing between rows, in units (>= 0).
  ///   - blockCapacity: The most rows a block holds (at least 4).
  ///   - measured: Measured extents (stored units) of ids that keep them.
  /// - Throws: `LazyStackError.duplicateID` naming the first repeated id.
  /// - Complexity: O(n).
  @inlinable
  package init(
    ids: some Sequence<ID>, estimate: Int64, spacing: Int64 = 0,
    blockCapacity: Int = ExtentTree.defaultBlockCapacity, measured: _IDTable<ID>? = nil
  ) throws(LazyStackError) {
    self.init(_empty: estimate, spacing: spacing, blockCapacity: blockCapacity)
    try _fill(ids: ids, measured: measured)
  }

  /// The fields of a tree with no rows, before `_fill` (nothing allocated):
  /// what `init(ids:…)` starts from, and the placeholder a batch keeps in
  /// place of the tree (`_beginBatch`), which is never read. Not a tree to
  /// edit: only `_fill` makes one.
  /// - Complexity: O(1).
  @inlinable
  package init(_empty estimate: Int64, spacing: Int64, blockCapacity: Int) {
    precondition(blockCapacity >= 4 && blockCapacity <= Int(Int32.max), "ExtentTree: blockCapacity must be in 4 ... Int32.max")
    precondition(estimate >= 0 && estimate <= _FixedPoint.maxExtentUnits, "ExtentTree: estimate out of range")
    precondition(spacing >= 0, "ExtentTree: negative spacing")
    self.estimate = estimate
    self.spacing = spacing
    self._blockCapacity = Int32(blockCapacity)
    _blocks = []
    _order = []
    _positions = []
    _freeHandles = []
    _fenwick = _FenwickTree(zeros: 0)
    _leadNodes = 0
    _index = _IDIndex()
    _implicit = nil
    _ordered = false
    _firstIDs = []
    _exceptions = nil
    _exceptionCounts = nil
    _nextIndex = nil
    _migrated = 0
    _retired = []
    _total = _Summary()
    _roleFenwick = _FenwickTree()
    _roleTotal = 0
    _kinds = nil
  }

  /// The number of rows a freshly built block holds: three quarters full, so
  /// a few inserts do not split it at once.
  @inlinable @inline(__always)
  package var _fillCount: Int { Swift.max(1, blockCapacity * 3 / 4) }

  /// Replaces every row with `ids`; a row whose id is in `measured` gets that
  /// extent. Leaves the tree empty and throws on a duplicate id.
  ///
  /// `Int` ids that mostly ascend need no index (`_ordered`); otherwise one
  /// pass fills the id index (and finds duplicates before anything else is
  /// built). One pass copies the ids into blocks of estimated rows, and the
  /// measured extents are put back either per row (many of them) or per
  /// measured id (few: k lookups instead of n).
  @inlinable
  package mutating func _fill(ids: some Sequence<ID>, measured: _IDTable<ID>?) throws(LazyStackError) {
    _blocks.removeAll(keepingCapacity: true)
    _order.removeAll(keepingCapacity: true)
    _positions.removeAll(keepingCapacity: true)
    _spareCount = 0
    _freeHandles.removeAll()
    _index = _IDIndex()
    _implicit = nil
    _ordered = false
    _firstIDs = []
    _exceptions = nil
    _exceptionCounts = nil
    _nextIndex = nil
    _migrated = 0
    _retired = []
    _total = _Summary()
    if ID.self == Int.self, let range = ids as? Range<Int> {
      _fillImplicit(range)
    } else {
      var failure: LazyStackError?
      let done: Void? = ids.withContiguousStorageIfAvailable { buffer in failure = _fill(buffer) }
      if done == nil {
        ContiguousArray<ID>(ids).withUnsafeBufferPointer { buffer in failure = _fill(buffer) }
      }
      if let failure { throw failure }
    }
    if _order.count >= Self._spareThreshold { _spreadSpares() }
    if let measured, !measured.isEmpty { _restore(measured) }
  }

  /// `_fill` from a buffer of ids; returns the duplicate-id error, if any
  /// (the tree is then empty).
  ///
  /// `Int` ids with few descents in their first block are counted for
  /// descents a block at a time, right after the block's copy while its ids
  /// are in cache: one pass over the ids, not two. None: the ids ascend,
  /// unique by construction. A few: the longest ascending run of rows stays
  /// ordered and the others become exceptions (`_fillExceptions`), if they
  /// are at most an eighth of the rows. Other ids get their index, first
  /// (a duplicate is found before any block is built) or after the blocks.
  @inlinable
  package mutating func _fill(_ ids: UnsafeBufferPointer<ID>) -> LazyStackError? {
    let n = ids.count
    let fill = _fillCount
    let head = Swift.min(n, fill)
    var tryOrdered = ID.self == Int.self && Self._descents(ids, from: 0, to: head) &* 4 <= head
    if !tryOrdered, let duplicate = _buildIndex(ids) {
      _rebuildFenwick()
      return .duplicateID(String(describing: ids[duplicate]), index: duplicate)
    }
    let indexed = !tryOrdered
    _blocks.reserveCapacity(_withRoom((n &+ fill &- 1) / fill))
    var shared = _EstimatedBuffers(rows: 0)  // made for the first block's row count
    var descents = 0
    var lower = 0
    while lower < n {
      let upper = Swift.min(n, lower &+ fill)
      if shared.rows != upper &- lower { shared = _EstimatedBuffers(rows: upper &- lower) }
      _blocks.append(_Block(estimated: ContiguousArray(UnsafeBufferPointer(rebasing: ids[lower ..< upper])),
                            sharing: shared))
      if tryOrdered { descents &+= Self._descents(ids, from: lower, to: upper) }
      lower = upper
    }
    _order = Self._identityOrder(_blocks.count)
    if tryOrdered && descents == 0 {
      // Unique by construction: no hash table (see `_ordered`).
      _ordered = true
      _firstIDs.reserveCapacity(_blocks.count)
      for lower in stride(from: 0, to: n, by: fill) { _firstIDs.append(unsafeBitCast(ids[lower], to: Int.self)) }
      if n > 0 && unsafeBitCast(ids[n &- 1], to: Int.self) == Int.max {
        // Never ordered (the end's key): an exception.
        _exceptions = _GrowingIDTable(minimumCapacity: 1)
        _exceptions!.updateValue(Int32(truncatingIfNeeded: _blocks.count &- 1), forKey: Int.max)
        _countExceptions(1, in: Int32(truncatingIfNeeded: _blocks.count &- 1))
      }
    } else {
      if tryOrdered && descents &* 4 > n { tryOrdered = false }
      if tryOrdered {
        switch _fillExceptions(ids) {
        case .ordered: break
        case .repeated(let offset):
          _blocks.removeAll(keepingCapacity: true)
          _order.removeAll(keepingCapacity: true)
          _rebuildFenwick()
          return .duplicateID(String(describing: ids[offset]), index: offset)
        case .tooMany: tryOrdered = false
        }
      }
      if !tryOrdered && !indexed, let duplicate = _buildIndex(ids) {
        _blocks.removeAll(keepingCapacity: true)
        _order.removeAll(keepingCapacity: true)
        _rebuildFenwick()
        return .duplicateID(String(describing: ids[duplicate]), index: duplicate)
      }
    }
    _rebuildFenwick()
    return nil
  }

  /// The number of rows of `ids[lower ..< upper]` (of type `Int`) that are
  /// not above the one before them (`ids[lower - 1]` included).
  /// - Complexity: O(upper - lower), without a branch a row (it vectorizes).
  @inlinable
  package static func _descents(_ ids: UnsafeBufferPointer<ID>, from lower: Int, to upper: Int) -> Int {
    guard let base = ids.baseAddress else { return 0 }
    let ints = UnsafeRawPointer(base).assumingMemoryBound(to: Int.self)
    let rows = Swift.max(lower, 1) ..< Swift.max(upper, 1)
    // Whether any, in bytes (the common case, and the faster loop), then how many.
    var any: UInt8 = 0
    for i in rows { any |= ints[i] <= ints[i &- 1] ? 1 : 0 }
    guard any != 0 else { return 0 }
    var descents = 0
    for i in rows { descents &+= ints[i] <= ints[i &- 1] ? 1 : 0 }
    return descents
  }

  /// Gives the row of each of `ids` the stored extent at the same place in
  /// `stored`; ids that are not rows are skipped (SPEC C2), and of repeated
  /// ids the last wins. The ids are found with a `_RowCursor` (a few
  /// comparisons each while they are in row order); when most lookups miss
  /// it (ids in another order), the rest go through `_restore(_:)`: one
  /// pass over the rows when they are many.
  /// - Complexity: O(m (1 + log(n/B))) for m ids in row order, O(m (log n +
  ///   B)) or O(n + m) otherwise.
  @inlinable
  package mutating func _restore(ids: some RandomAccessCollection<ID>, stored: some RandomAccessCollection<Int32>) {
    precondition(ids.count == stored.count, "ExtentTree._restore: ids and extents differ in count")
    var done = 0
    // With kinds each entry written alone moves its slot's share of the
    // kind sums (O(k) a row): many go in one pass, which counts each
    // block's kinds once.
    if !(_kinds != nil && _hasIndex && ids.count &* 64 >= count) {
      var cursor = _RowCursor()
      for (id, units) in zip(ids, stored) {
        if cursor.isLost { break }
        done &+= 1
        if let location = cursor.find(id, in: self) { _setStored(units, at: location) }
      }
      if done == ids.count { return }
    }
    // The rest (all of them with kinds, or those after the cursor was lost).
    var table = _IDTable<ID>(minimumCapacity: ids.count &- done)
    for (id, units) in zip(ids.dropFirst(done), stored.dropFirst(done)) { table.updateValue(units, forKey: id) }
    _restore(table)
  }

  /// Finds ids listed in row order (a snapshot's entries, in the order a
  /// relaunch with the same data keeps): each first just after the
  /// previous one found, within `_cursorReach` rows, a few comparisons
  /// instead of a search (a hash probe and a scan
  /// of a block, where ids need the hash index); an id not there is looked
  /// up as usual. It counts the lookups that miss, so that a caller can
  /// tell ids in another order (`isLost`) and take the rest another way.
  @usableFromInline
  package struct _RowCursor {
    /// Just after the last row found: a block position (-1: none yet) and
    /// a slot, which may be the block's end.
    @usableFromInline package var position = -1
    @usableFromInline package var slot = 0
    @usableFromInline package var misses = 0
    @usableFromInline package var lookups = 0

    @inlinable
    package init() {}

    /// Whether more than a quarter of the lookups missed (after 256
    /// misses): the ids are not in row order.
    /// - Complexity: O(1).
    @inlinable
    package var isLost: Bool { misses >= 256 && misses &* 4 > lookups }

    /// The location of `id` (its `before` left empty), or nil if no row has it.
    /// - Complexity: O(1) after the previous id's row, else O(log n + B).
    @inlinable
    package mutating func find(_ id: ID, in tree: ExtentTree) -> _Location? {
      lookups &+= 1
      var found = position >= 0 ? tree._findAhead(id, from: (position, slot)) : nil
      if found == nil {
        misses &+= 1
        found = tree._locate(id: id).map { ($0.position, $0.slot) }
      }
      guard let (p, s) = found else { return nil }
      position = p
      slot = s &+ 1
      return _Location(position: p, slot: s, before: _Summary())
    }
  }

  /// How far `_findAhead` looks: the rows a sparse snapshot typically skips
  /// between two entries (one row in ten measured), with room to spare.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package static var _cursorReach: Int { 64 }

  /// The position and slot of the row with `id` among the `_cursorReach`
  /// rows from `cursor` (a block position and a slot, which may be the
  /// block's end), in as many blocks as those rows cover; nil if it is not
  /// there.
  /// - Complexity: O(1) (at most `_cursorReach` comparisons).
  @inlinable
  package func _findAhead(_ id: ID, from cursor: (position: Int, slot: Int)) -> (Int, Int)? {
    var position = cursor.position
    var slot = cursor.slot
    var budget = Self._cursorReach
    while position < _order.count && budget > 0 {
      let hit: Int? = _withBlock(handle: Int(_order[position])) { block in
        block.pointee.ids.withUnsafeBufferPointer { ids -> Int? in
          let end = Swift.min(ids.count, slot &+ budget)
          var s = slot
          while s < end {
            if ids[s] == id { return s }
            s &+= 1
          }
          budget &-= Swift.max(0, end &- slot)
          return nil
        }
      }
      if let hit { return (position, hit) }
      position &+= 1
      slot = 0
    }
    return nil
  }

  /// Gives every row whose id `measured` names that stored extent.
  /// - Complexity: O(n) when many ids are measured, else O(k (log(n/B) + B))
  ///   for k measured ids.
  @inlinable
  package mutating func _restore(_ measured: _IDTable<ID>) {
    if measured.count &* 64 < count {
      measured.forEach { id, stored in
        if let location = _locate(id: id) { _setStored(stored, at: location) }
      }
      return
    }
    for p in 0 ..< _order.count {
      let handle = Int(_order[p])
      var block = _blocks[handle]
      var changed = false
      for slot in 0 ..< block.rowCount {
        guard let e = measured[block.ids[slot]] else { continue }
        if !changed {
          changed = true
          _blocks[handle] = _Block()  // let `block` be uniquely referenced
        }
        block.extents[slot] = e
      }
      // A block with no measured id keeps its shared estimated buffers.
      guard changed else { continue }
      let rebuilt = _Block(ids: block.ids, extents: block.extents, roles: block.roles, extras: block.extras)
      _blocks[handle] = rebuilt
      _recountKinds(handle: handle)
    }
    _rebuildFenwick()
  }

  /// The order of `count` blocks built in row order (handle `p` at
  /// position `p`), with room (`_withRoom`).
  /// - Complexity: O(count).
  @inlinable
  package static func _identityOrder(_ count: Int) -> ContiguousArray<Int32> {
    var order = ContiguousArray<Int32>()
    order.reserveCapacity(_withRoom(count))
    for p in 0 ..< count { order.append(Int32(truncatingIfNeeded: p)) }
    return order
  }

  /// `_fill` for a range of integer ids: unique by construction, so no hash
  /// table is built (see `_implicit`).
  @inlinable
  package mutating func _fillImplicit(_ range: Range<Int>) {
    let fill = _fillCount
    _blocks.reserveCapacity(_withRoom((range.count &+ fill &- 1) / fill))
    var shared = _EstimatedBuffers(rows: 0)  // made for the first block's row count
    var lower = range.lowerBound
    while lower < range.upperBound {
      let upper = Swift.min(range.upperBound, lower &+ fill)
      if shared.rows != upper &- lower { shared = _EstimatedBuffers(rows: upper &- lower) }
      let ids = unsafeBitCast(ContiguousArray<Int>(lower ..< upper), to: ContiguousArray<ID>.self)
      _blocks.append(_Block(estimated: ids, sharing: shared))
      lower = upper
    }
    _implicit = range
    _ordered = true
    // The keys now (n/B integers), so the first other edit leaves the range in O(1).
    let first = range.lowerBound
    _firstIDs = ContiguousArray((0 ..< _blocks.count).lazy.map { first &+ $0 &* fill })
    _order = Self._identityOrder(_blocks.count)
    _rebuildFenwick()
  }
}
