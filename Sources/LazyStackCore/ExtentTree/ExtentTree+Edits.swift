// Over 600 lines, on purpose: every edit of rows (a stored extent, an
// insert, a removal) changes the blocks, the spares and both Fenwick trees
// in one step, through helpers (split, merge, restructure) that only these
// edits use and that must stay in step with each other.

extension ExtentTree {
  /// Sets the stored extent of the row at `location` (`-1`: estimated,
  /// `-2`: invalidated) and
  /// returns the previous stored value.
  /// - Complexity: O(log(n/B)).
  @inlinable @inline(__always)
  @discardableResult
  package mutating func _setStored(_ stored: Int32, at location: _Location) -> Int32 {
    let handle = Int(_order[location.position])
    let slot = location.slot
    // One exclusive access to the block: its buffers are made unique once
    // each, and no field access re-checks `_blocks`.
    let (old, delta) = _blocks.withUnsafeMutableBufferPointer { blocks -> (Int32, _Summary) in
      let block = blocks.baseAddress.unsafelyUnwrapped + handle
      let old = block.pointee.extents[slot]
      guard old != stored else { return (old, _Summary()) }
      var delta = _Summary()
      if old >= 0 {
        delta.measuredSum &-= Int64(old)
        delta.measuredCount &-= 1
        if old == 0 { delta.measuredZeroCount &-= 1 }
      }
      if stored >= 0 {
        delta.measuredSum &+= Int64(stored)
        delta.measuredCount &+= 1
        if stored == 0 { delta.measuredZeroCount &+= 1 }
      }
      block.pointee.extents[slot] = stored
      // Packed words add as pairs: the sum's change over the count's, added
      // to the prefix of the row's chunk and of every chunk after it.
      let packed = delta.measuredSum &<< 12 &- Int64(delta.measuredCount)
      block.pointee.chunks.withUnsafeMutableBufferPointer { chunks in
        for c in (slot >> ExtentTree._chunkShift) ..< chunks.count { chunks[c] &+= packed }
      }
      block.pointee.measuredSum &+= delta.measuredSum
      block.pointee.measuredCount &+= delta.measuredCount
      block.pointee.measuredZeroCount &+= delta.measuredZeroCount
      return (old, delta)
    }
    guard old != stored else { return old }
    _fenwickAdd(delta, at: location.position)
    if _slowPath(_kinds != nil) { _kindStoredChanged(from: old, to: stored, at: location) }
    return old
  }

  /// Makes every measured row invalidated (`-2`): estimated again, with a
  /// record that it was measured (SPEC S12 a). Rows never measured stay so.
  /// Blocks with no measured row are not touched; the block-level tree is
  /// updated per touched block when few are, else rebuilt.
  /// - Complexity: O(n/B + m) for m measured rows.
  @inlinable
  package mutating func invalidateAll() {
    guard _total.measuredCount > 0 else { return }
    var touched: [Int] = []
    for position in 0 ..< _order.count where _blocks[Int(_order[position])].measuredCount > 0 {
      touched.append(position)
    }
    let rebuild = touched.count &* 8 > _order.count
    var deltas: [(position: Int, summary: _Summary)] = []
    let invalidated = Self._invalidated
    // The blocks' chunk prefixes become those of estimated rows: one buffer
    // shared by the blocks of one size (consecutive blocks mostly have the
    // same), as after a build, not a rewrite of every block's (a block
    // copies it when one of its rows is next written).
    var sharedChunks: (rows: Int, chunks: ContiguousArray<Int64>) = (-1, [])
    _blocks.withUnsafeMutableBufferPointer { blocks in
      var sink: Int32 = 0
      for (k, position) in touched.enumerated() {
        let handle = Int(_order[position])
        if k &+ 1 < touched.count {
          // Start the next block's first miss now, so it overlaps this block's work.
          let next = Int(_order[touched[k &+ 1]])
          blocks[next].extents.withUnsafeBufferPointer { sink |= $0[0] }
        }
        if !rebuild { deltas.append((position, blocks[handle].summary)) }
        blocks[handle].extents.withUnsafeMutableBufferPointer { extents in
          // Branch-free, so it vectorizes: measured (>= 0) -> -2, negatives kept.
          for slot in extents.indices {
            let e = extents[slot]
            let measured = ~(e >> 31)  // all ones when e >= 0
            extents[slot] = (e & ~measured) | (invalidated & measured)
          }
        }
        blocks[handle].measuredSum = 0
        blocks[handle].measuredCount = 0
        blocks[handle].measuredZeroCount = 0
        let rows = blocks[handle].extents.count
        if rows != sharedChunks.rows { sharedChunks = (rows, Self._estimatedChunks(rows)) }
        blocks[handle].chunks = sharedChunks.chunks
      }
      _touchedSink = UInt8(truncatingIfNeeded: sink)
    }
    if _kinds != nil {
      for position in touched { _recountKinds(handle: Int(_order[position])) }
    }
    if rebuild {
      _rebuildFenwick()
    } else {
      for (position, old) in deltas {
        var delta = _Summary()
        delta -= old
        delta.count = 0
        _fenwickAdd(delta, at: position)
      }
      _rebuildKindTree()
    }
  }

  /// Gives every row the stored extent `stored(index)`, rebuilding the
  /// blocks' sums and the block-level tree: a bulk load for tests and the
  /// benchmark's untimed resets.
  /// - Complexity: O(n).
  @inlinable
  package mutating func _setAllStored(_ stored: (Int) -> Int32) {
    var row = 0
    for position in 0 ..< _order.count {
      let handle = Int(_order[position])
      var block = _blocks[handle]
      _blocks[handle] = _Block()  // let `block` be uniquely referenced
      for slot in 0 ..< block.rowCount {
        block.extents[slot] = stored(row)
        row &+= 1
      }
      _blocks[handle] = _Block(ids: block.ids, extents: block.extents, roles: block.roles, extras: block.extras)
      _recountKinds(handle: handle)
    }
    _rebuildFenwick()
  }

  /// Sets row `index`'s measured extent in units, or makes it estimated
  /// again with `nil`.
  /// - Precondition: `0 <= index < count`, `0 <= units <= maxExtentUnits`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func setMeasuredExtent(_ units: Int64?, at index: Int) {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let stored = _stored(units)
    _setStored(stored, at: _locate(index))
  }

  @inlinable @inline(__always)
  package func _stored(_ units: Int64?) -> Int32 {
    guard let units else { return -1 }
    precondition(units >= 0 && units <= _FixedPoint.maxExtentUnits, "ExtentTree: extent out of range")
    return Int32(truncatingIfNeeded: units)
  }

  /// Throws unless every id in `ids` is new to the tree and to each other.
  /// - Complexity: O(k) for k ids.
  @inlinable
  package func _checkNewIDs(_ ids: some Collection<ID>) throws(LazyStackError) {
    if ids.count == 1 {
      let id = ids.first!
      if contains(id) { throw .duplicateID(String(describing: id), index: 0) }
      return
    }
    if ID.self == Int.self {
      // Ascending integers (a batch of new messages) cannot repeat each other: no set.
      var previous = Int.min
      var offset = 0
      let ascending = ids.allSatisfy { id in
        defer { offset &+= 1 }
        let x = unsafeBitCast(id, to: Int.self)
        defer { previous = x }
        return offset == 0 || x > previous
      }
      if ascending {
        // While ordered without exceptions, ids past the last row's (the
        // largest) or below the first key (the smallest) are new: new
        // messages, appended or prepended, skip the search.
        var low = Int.min
        var high = Int.max
        if _ordered && _exceptions == nil && !_order.isEmpty {
          low = _firstIDs[0]
          high = _withBlock(handle: Int(_order[_order.count &- 1])) {
            unsafeBitCast($0.pointee.ids, to: ContiguousArray<Int>.self).last!
          }
        }
        for (offset, id) in ids.enumerated() {
          let x = unsafeBitCast(id, to: Int.self)
          if (x > high || x < low) || !contains(id) { continue }
          throw .duplicateID(String(describing: id), index: offset)
        }
        return
      }
    }
    var seen = Set<ID>(minimumCapacity: ids.count)
    for (offset, id) in ids.enumerated() {
      if contains(id) || !seen.insert(id).inserted {
        throw .duplicateID(String(describing: id), index: offset)
      }
    }
  }

  /// Enters new ids into the id index, all in block `handle` (which does
  /// not hold them yet); on a duplicate (an id already present or repeated)
  /// the index is left as it was. One walk an id: the duplicate check reads
  /// the slots the entry then goes among.
  /// - Complexity: O(k + B) expected for k ids.
  @inlinable
  package mutating func _register(_ ids: some Collection<ID>, in handle: Int32) throws(LazyStackError) {
    _reserveIndex(ids.count)
    let hashes = ids.map { _index.hash($0) }
    if ids.count >= 8 { _index.warm(hashes) }
    let blocks = _blocks  // read by the check while the index changes
    for (offset, id) in ids.enumerated() {
      // A tag match names a block to check: this block holds the id if it
      // is already a row here or was entered earlier in this call.
      let entered = _index.insert(hashes[offset], handle: handle) { h in
        if h == handle && ids.prefix(offset).contains(id) { return true }
        return blocks[Int(h)].ids.contains(id)
      }
      if !entered {
        for earlier in 0 ..< offset { _indexRemove(hashes[earlier], handle: handle) }
        throw .duplicateID(String(describing: id), index: offset)
      }
      _fileInNextIndex(hashes[offset], handle: handle)
    }
  }

  /// Inserts rows at `index`; `extents` (if given) holds their stored extents
  /// (`-1`: estimated), else they start estimated; `roles` (if given) their
  /// roles (`_role`), else they are plain rows (SPEC H1). `knownNew`: the
  /// caller knows the ids are new and distinct (rows it just removed, a
  /// move), so ordered ids skip the duplicate check.
  /// - Throws: `LazyStackError.duplicateID` (the tree is unchanged) if an id
  ///   is already present or repeated.
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(k + B + log(n/B)), plus O(n/B) when a block in the
  ///   middle splits with no spare near (see `_splitIfNeeded`).
  @inlinable
  package mutating func insert(
    _ ids: some Collection<ID>, extents: [Int32]? = nil, roles: [UInt8]? = nil, extras: [UInt64]? = nil,
    at index: Int, knownNew: Bool = false
  ) throws(LazyStackError) {
    precondition(extras == nil || extras!.count == ids.count, "ExtentTree: one extra per id")
    precondition(index >= 0 && index <= count, "Insertion index \(index) out of range 0...\(count)")
    precondition(extents == nil || extents!.count == ids.count, "ExtentTree: one extent per id")
    precondition(roles == nil || roles!.count == ids.count, "ExtentTree: one role per id")
    guard !ids.isEmpty else { return }
    if (!_hasIndex || _order.isEmpty) && !knownNew { try _checkNewIDs(ids) }
    if let range = _implicit {
      // Appending the next integers keeps the ids a range; anything else leaves them ordered.
      var next = range.upperBound
      let appendsNext = index == count && ids.allSatisfy { id in
        defer { next &+= 1 }
        return (id as? Int) == next
      }
      _implicit = appendsNext ? range.lowerBound ..< next : nil
    }
    // Where the rows go (none yet in an empty tree): locations count rows, not ids.
    let place: _Location? = _order.isEmpty ? nil : _locate(index)
    // While ordered: how many ids break the order (filed as exceptions below).
    var breaking = 0
    var lowestOrdered: Int?
    var bounds = (low: Int.min, high: Int.max)
    if _ordered {
      if let place { bounds = _orderedBounds(at: place) }
      lowestOrdered = Self._classify(ids, after: bounds.low, before: bounds.high) { _, _ in breaking &+= 1 }
    }
    let newRoles = roles.map { ContiguousArray($0) } ?? []
    var newExtras: ContiguousArray<UInt64> = []
    if let extras, extras.contains(where: { $0 != 0 }) {
      newExtras = ContiguousArray(extras)
      for extra in extras where Self._kind(ofExtra: extra) != 0 { _ = _slot(ofKind: Self._kind(ofExtra: extra)) }
      _startKinds()
    }
    if _order.isEmpty {
      // Room first, while the tree has no rows: a rebuild for room reads the
      // blocks in `_order`, and must not find the new block there before
      // `count` counts its rows (it sized its records by `count`).
      if _hasIndex { _reserveIndex(ids.count) }
      let handle = _newHandle()
      let newExtents = extents.map { ContiguousArray($0) } ?? ContiguousArray(repeating: -1, count: ids.count)
      _blocks[Int(handle)] = _Block(ids: ContiguousArray(ids), extents: newExtents, roles: newRoles, extras: newExtras)
      _recountKinds(handle: Int(handle))
      _order.append(handle)
      if _hasIndex {
        for id in ids { _indexInsert(_index.hash(id), handle: handle) }
      }
      if _ordered {
        _firstIDs = [lowestOrdered ?? Int.max]
        _fileExceptions(breaking, of: ids, after: bounds.low, before: bounds.high, in: handle)
      }
      _rebuildFenwick()
      _splitIfNeeded(at: 0)
      _tidyIndex()
      return
    }
    let location = place!
    let handle = Int(_order[location.position])
    if _hasIndex { try _register(ids, in: Int32(truncatingIfNeeded: handle)) }
    if _ordered {
      _fileExceptions(breaking, of: ids, after: bounds.low, before: bounds.high, in: Int32(truncatingIfNeeded: handle))
      if let lowest = lowestOrdered { _lowerKey(to: lowest, at: location.position) }
    }
    // What the rows add (no block is made for them: a single insert
    // allocates nothing but room in its block).
    var added = _Summary(count: ids.count, measuredSum: 0, measuredCount: 0, measuredZeroCount: 0)
    for e in extents ?? [] where e >= 0 {
      added.measuredSum &+= Int64(e)
      added.measuredCount &+= 1
      if e == 0 { added.measuredZeroCount &+= 1 }
    }
    var addedRoles = 0
    for role in newRoles { addedRoles &+= Self._packedRoleCount(role) }
    // Estimated rows joining a block of rows never measured: it takes the
    // shared buffers of its new row count instead of growing its own.
    // (A moved row brings its stored extent: -1 when never measured.)
    var shared: _EstimatedBuffers?
    let rowsAfter = _blocks[handle].rowCount &+ ids.count
    if _blocks[handle].measuredCount == 0 && _poolsRows(rowsAfter)
        && (extents?.allSatisfy { $0 == Self._estimated } ?? true) && _blocks[handle]._isPristine {
      shared = _estimatedBuffers(rowsAfter)
    }
    _blocks[handle]._makeRoom(for: ids.count, extents: shared == nil)
    _blocks[handle]._insertRoles(newRoles, counts: addedRoles, rowCount: ids.count, at: location.slot)
    _blocks[handle]._insertExtras(newExtras, rowCount: ids.count, at: location.slot)
    _roleAdd(addedRoles, at: location.position)
    // One row (a message arriving, a drag): `insert(_:at:)`, not the
    // generic `replaceSubrange` behind `insert(contentsOf:at:)`.
    let single = ids.count == 1
    if single {
      _blocks[handle].ids.insert(ids.first.unsafelyUnwrapped, at: location.slot)
    } else {
      _blocks[handle].ids.insert(contentsOf: ids, at: location.slot)
    }
    _blocks[handle].rowCount &+= ids.count
    if let shared {
      _blocks[handle]._share(shared)
    } else {
      if single {
        _blocks[handle].extents.insert(extents?[0] ?? Self._estimated, at: location.slot)
      } else if let extents {
        _blocks[handle].extents.insert(contentsOf: extents, at: location.slot)
      } else {
        _blocks[handle].extents.insert(contentsOf: repeatElement(-1, count: ids.count), at: location.slot)
      }
      if single {
        _blocks[handle]._shiftChunks(insertedAt: location.slot)
      } else {
        _blocks[handle]._rebuildChunks(from: location.slot)
      }
    }
    _blocks[handle].measuredSum &+= added.measuredSum
    _blocks[handle].measuredCount &+= added.measuredCount
    _blocks[handle].measuredZeroCount &+= added.measuredZeroCount
    _fenwickAdd(added, at: location.position)
    _recountKinds(at: location.position)
    _splitIfNeeded(at: location.position)
    _tidyIndex()
  }

  /// A handle for a new block, reusing a freed one when there is one.
  @inlinable
  package mutating func _newHandle() -> Int32 {
    if let handle = _freeHandles.popLast() { return handle }
    _blocks.append(_Block())
    _positions.append(-1)
    return Int32(truncatingIfNeeded: _blocks.count &- 1)
  }

  /// Splits the block at `position` into blocks of at most `_fillCount`
  /// rows if it holds more than `blockCapacity`, and keeps the Fenwick tree
  /// (which already counts the block's rows) current. Returns whether it split.
  ///
  /// A split of the first block puts the new blocks in front, in the empty
  /// leading nodes (`_lead`), and a split of the last block appends them:
  /// both cost O(B + log(n/B)) plus a shift of the positions array, so
  /// prepending (a chat loading older messages) and appending do not rebuild
  /// the tree. A split anywhere else takes the nearest spares
  /// (`_splitIntoSpares`): O(B' + r log(n/B)) for r ≤ `_spareReach`
  /// positions. With none that near, it moves the later blocks up: the
  /// arrays by position and the trees' tails are streamed once
  /// (`_replaceTreeLeaves`), O(n/B) sequential, with no read of the other
  /// blocks, and puts `_sparesMade` spares after the pieces in the same
  /// pass (in a tree of at least `_spareThreshold` positions).
  /// - Complexity: O(B' + log(n/B)) for a block of B' rows at either end or
  ///   with a spare near, else O(B' + n/B).
  @inlinable
  @discardableResult
  package mutating func _splitIfNeeded(at position: Int) -> Bool {
    let handle = Int(_order[position])
    let total = _blocks[handle].rowCount
    guard total > blockCapacity else { return false }
    let pieces = (total &+ _fillCount &- 1) / _fillCount
    let whole = _blocks[handle]
    func piece(_ k: Int) -> _Block {
      let lower = total * k / pieces
      let upper = total * (k &+ 1) / pieces
      return _Block(ids: ContiguousArray(whole.ids[lower ..< upper]),
                    extents: ContiguousArray(whole.extents[lower ..< upper]),
                    roles: whole.roles.isEmpty ? [] : ContiguousArray(whole.roles[lower ..< upper]),
                    extras: whole.extras.isEmpty ? [] : ContiguousArray(whole.extras[lower ..< upper]))
    }
    func place(_ block: _Block) -> Int32 {
      let h = _newHandle()
      _blocks[Int(h)] = block
      _recountKinds(handle: Int(h))
      _refile(block.ids, from: Int32(truncatingIfNeeded: handle), to: h)
      return h
    }
    var parts = (0 ..< pieces).map(piece)
    // Pieces whose rows were never measured share the pool's buffers.
    for k in parts.indices where _poolsRows(parts[k].rowCount) && parts[k]._isPristine {
      if let shared = _estimatedBuffers(parts[k].rowCount) { parts[k]._share(shared) }
    }
    // While ordered, the pieces' keys: the first keeps the block's (see `_firstIDs`).
    let keys = _ordered ? _pieceKeys(parts, at: position) : []
    let moved = pieces &- 1
    if position == 0 && _order.count > 1 && _lead >= moved {
      // The first pieces go in front, into empty leading nodes; this handle keeps the last piece.
      let front = parts.dropLast()
      _blocks[handle] = parts[moved]
      _recountKinds(handle: handle)
      _fenwickNodeSubtract(front.reduce(into: _Summary()) { $0 += $1.summary }, at: _lead &+ 1)
      let roles = !_roleFenwick.isEmpty
      if roles { _roleFenwick.add(-front.reduce(0) { $0 &+ $1.roleCounts }, at: _lead &+ 1) }
      _lead &-= moved
      let handles = front.map(place)
      for (k, block) in front.enumerated() {
        _fenwickNodeAdd(block.summary, at: _lead &+ k &+ 1)
        if roles { _roleFenwick.add(block.roleCounts, at: _lead &+ k &+ 1) }
      }
      _order.insert(contentsOf: handles, at: 0)
      if _ordered { _firstIDs.replaceSubrange(0 ..< 1, with: keys) }
      _shiftPositions(from: 0, by: moved)
      for (k, h) in handles.enumerated() { _positions[Int(h)] = Int32(truncatingIfNeeded: k) }
      _refreshRowGuess()
      if _kinds != nil {
        // The kind tree's node for this block counted the front pieces too.
        for (k, h) in handles.enumerated() {
          for (e, v) in _blocks[Int(h)].kindVector.enumerated() where v != 0 {
            _kindAdd(v, entry: e, at: k)
            _kindAdd(-v, entry: e, at: moved)
          }
        }
        _refreshKindTotals()
      }
      return true
    }
    if _spareCount > 0 && position != _order.count &- 1, let span = _spareSpan(around: position, needing: moved) {
      // In the middle, with spares near: the pieces take them.
      _splitIntoSpares(parts, keys: keys, at: position, span: span)
      return true
    }
    // The first piece keeps this handle; the others follow it.
    let rest = parts.dropFirst()
    _blocks[handle] = parts[0]
    _recountKinds(handle: handle)
    let handles = rest.map(place)
    if position == _order.count &- 1 {
      _fenwickNodeSubtract(rest.reduce(into: _Summary()) { $0 += $1.summary }, at: _lead &+ position &+ 1)
      let roles = !_roleFenwick.isEmpty
      if roles { _roleFenwick.add(-rest.reduce(0) { $0 &+ $1.roleCounts }, at: _lead &+ position &+ 1) }
      for (k, (h, block)) in zip(handles, rest).enumerated() {
        _order.append(h)
        _positions[Int(h)] = Int32(truncatingIfNeeded: position &+ 1 &+ k)
        _fenwickAppend(block.summary)
        if roles { _roleFenwick.append(block.roleCounts) }
        if _ordered { _firstIDs.append(keys[k &+ 1]) }
      }
      _refreshRowGuess()
      let leaf = _lead &+ position &+ 1
      _replaceKindLeaves(leaf ..< leaf &+ 1, with: [Int32(truncatingIfNeeded: handle)] + handles)
      return true
    }
    // In the middle: the later blocks move up by the new ones, and the
    // trees' tails are streamed again (no read of every block). No spare
    // was near: in a tree large enough to keep them, spares go in after
    // the pieces in the same pass, for the next splits here.
    let fresh = _order.count >= Self._spareThreshold ? (0 ..< Self._sparesMade).map { _ in _newHandle() } : []
    let added = handles + fresh
    if _ordered {
      let next = _firstIDs[position &+ 1]  // a spare's key is the next block's
      _firstIDs.insert(contentsOf: keys.dropFirst() + repeatElement(next, count: fresh.count), at: position &+ 1)
    }
    _order.insert(contentsOf: added, at: position &+ 1)
    _shiftPositions(from: position &+ 1, by: added.count)
    for (k, h) in added.enumerated() { _positions[Int(h)] = Int32(truncatingIfNeeded: position &+ 1 &+ k) }
    _spareCount &+= fresh.count
    // The first block with no leading room left makes new room, as a rebuild would.
    let lead = position == 0 ? Swift.max(4, _order.count >> 4) : nil
    _replaceTreeLeaves(position ..< position &+ 1, with: [Int32(truncatingIfNeeded: handle)] + added, lead: lead)
    _refreshRowGuess()
    return true
  }

  /// Adds `delta` to the position of every block in use at `position` or
  /// later.
  /// - Complexity: O(n/B), a pass over a small array of integers.
  @inlinable
  package mutating func _shiftPositions(from position: Int, by delta: Int) {
    let d = Int32(truncatingIfNeeded: delta)
    let p = Int32(truncatingIfNeeded: position)
    _positions.withUnsafeMutableBufferPointer { positions in
      for i in positions.indices {
        let q = positions[i]
        positions[i] = q >= p ? q &+ d : q  // branch-free, so the pass vectorizes
      }
    }
  }

  /// Removes the rows at the given indices.
  /// - Parameter indices: Row indices, sorted ascending, without repeats.
  /// - Precondition: every index is in `0 ..< count`.
  /// - Complexity: O(k (log(n/B) + B)), plus O(n/B) when a block empties or
  ///   merges with a neighbour (sequential when one block does, a pass over
  ///   every block when several do).
  @inlinable
  package mutating func remove(sortedIndices indices: some Collection<Int>) {
    guard !indices.isEmpty else { return }
    _implicit = nil  // still ordered (see `_ordered`)
    var previous = -1
    for i in indices {
      precondition(i >= 0 && i < count, "Row index \(i) out of range 0..<\(count)")
      precondition(i > previous, "ExtentTree.remove: indices must be sorted and unique")
      previous = i
    }
    if indices.count == 1 {
      // One row (a swipe to delete, a move): no groups to gather.
      _remove(at: _locate(previous))
      return
    }
    // Group the slots by block position (locations computed before any change).
    var groups: [(position: Int, slots: [Int])] = []
    for i in indices {
      let l = _locate(i)
      if groups.last?.position == l.position {
        groups[groups.count &- 1].slots.append(l.slot)
      } else {
        groups.append((l.position, [l.slot]))
      }
    }
    var structural: [Int] = []  // the positions of blocks emptied or under a quarter full
    for group in groups where _removeSlots(group.slots, fromBlockAt: group.position) {
      structural.append(group.position)
    }
    _restructure(structural)
  }

  /// Removes the row at `location` (found by `_locate`, with no change
  /// since), as `remove(sortedIndices:)` does one row.
  /// - Complexity: O(log(n/B) + B), plus O(n/B) when its block empties or
  ///   merges with a neighbour where it may not be left as a spare.
  @inlinable
  package mutating func _remove(at location: _Location) {
    _implicit = nil  // still ordered (see `_ordered`)
    if _removeSlots(CollectionOfOne(location.slot), fromBlockAt: location.position) {
      _restructure(CollectionOfOne(location.position))
    }
  }

  /// Drops or merges the blocks at `positions` (emptied or under a quarter
  /// full by a removal): one where it is, several in a pass over every block.
  /// - Complexity: O(n/B).
  @inlinable
  internal mutating func _restructure(_ positions: some Collection<Int>) {
    if positions.count == 1 && _order.count > 1 {
      // One block emptied or under a quarter full (a single removal, a move):
      // it goes, or merges with a neighbour, where it is.
      _mergeLocally(at: positions.first.unsafelyUnwrapped)
      _tidyIndex()
    } else if !positions.isEmpty {
      _compactBlocks()
      _spreadSpares()
      _tidyIndex()
    }
  }

  /// Removes the rows at the ascending `slots` of the block at `position`,
  /// keeping the trees' counts; whether the block is left empty or under a
  /// quarter full with a neighbour to merge with (the caller restructures).
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  internal mutating func _removeSlots<Slots: RandomAccessCollection<Int>>(
    _ slots: Slots, fromBlockAt position: Int
  ) -> Bool where Slots.Index == Int {
    let handle = Int(_order[position])
    let before = _blocks[handle].summary
    // Take the block out (a swap: no copy of its buffers' references),
    // so that `block` is uniquely referenced.
    var block = _Block()
    swap(&block, &_blocks[handle])
    let rolesBefore = block.roleCounts
    let rowsAfter = block.rowCount &- slots.count
    var shared: _EstimatedBuffers?
    if block.measuredCount == 0 && _poolsRows(rowsAfter) && block._isPristine {
      shared = _estimatedBuffers(rowsAfter)
    }
    if _hasIndex && slots.count == 1 {
      _indexRemove(_index.hash(block.ids[slots[0]]), handle: Int32(truncatingIfNeeded: handle))
    } else if _hasIndex {
      let hashes = slots.map { _index.hash(block.ids[$0]) }
      if hashes.count >= 8 { _index.warm(hashes) }
      for hash in hashes.reversed() { _indexRemove(hash, handle: Int32(truncatingIfNeeded: handle)) }
    } else if _exceptions != nil {
      if slots.count == 1 {
        _dropExceptions(CollectionOfOne(block.ids[slots[0]]))
      } else {
        _dropExceptions(slots.map { block.ids[$0] })
      }
    }
    for slot in slots.reversed() {
      if !block.roles.isEmpty { block.roleCounts &-= Self._packedRoleCount(block.roles[slot]) }
      let e = block.extents[slot]
      if e >= 0 {
        block.measuredSum &-= Int64(e)
        block.measuredCount &-= 1
        if e == 0 { block.measuredZeroCount &-= 1 }
      }
    }
    let removedStored = slots.count == 1 ? block.extents[slots[0]] : 0
    if slots.count == block.ids.count {
      block.ids.removeAll()
      block.extents.removeAll()
      block.roles.removeAll()
      block.extras.removeAll()
      block.rowCount = 0
    } else {
      Self._compact(&block.ids, removing: slots)
      if shared == nil { Self._compact(&block.extents, removing: slots) }
      if block.roleCounts == 0 { block.roles = [] } else if !block.roles.isEmpty { Self._compact(&block.roles, removing: slots) }
      if !block.extras.isEmpty { Self._compact(&block.extras, removing: slots) }
      block.rowCount = block.ids.count
    }
    if shared == nil && before.measuredCount > 0 && block.measuredCount == 0 && _poolsRows(block.rowCount)
        && block._isPristine {
      shared = _estimatedBuffers(block.rowCount)  // the last measured row is gone
    }
    if let shared {
      // Rows never measured: the shared buffers of the new row count.
      block._share(shared)
    } else if slots.count == 1 && !block.ids.isEmpty {
      block._shiftChunks(removedAt: slots[0], stored: removedStored)
    } else {
      block._rebuildChunks(from: slots[0])
    }
    var delta = before
    delta -= block.summary
    let rows = block.ids.count
    let rolesAfter = block.roleCounts
    swap(&block, &_blocks[handle])  // put it back
    _fenwickSubtract(delta, at: position)
    _roleAdd(rolesAfter &- rolesBefore, at: position)
    _recountKinds(at: position)
    return rows == 0 || (rows < Swift.max(1, blockCapacity / 4) && _canMerge(position: position, rows: rows))
  }

  /// Drops the block at `position` when it is empty, else merges it with a
  /// neighbour it fits in, the previous one first (as `_compactBlocks`
  /// does: the block that stays keeps the first one's key). The trees
  /// already count its rows where they are. In the middle, where a spare
  /// may be (`_spareAllowed`), the block that goes stays, empty, as a
  /// spare, and only the two leaves change; where spares crowd there, it
  /// becomes a spare at the nearest position where one may be
  /// (`_spareHome`), the blocks between moving over by one; else the later
  /// blocks move down one position and the trees' tails are streamed
  /// (`_replaceTreeLeaves`), with no read of the other blocks.
  /// - Complexity: O(B + w log(n/B)) when it leaves a spare w positions
  ///   away (w ≤ `_spareHomeReach`), else O(B + n/B), the O(n/B) part
  ///   sequential.
  @inlinable
  @inline(never)
  package mutating func _mergeLocally(at position: Int) {
    let rows = _block(at: position).ids.count
    let gone: Int  // the position that goes
    let first: Int  // the first position whose block changes
    var kept: [Int32] = []  // the block that stays, if any
    if rows == 0 {
      (gone, first) = (position, position)
    } else if _fits(rows, at: position &- 1) {
      (gone, first) = (position, position &- 1)
    } else if _fits(rows, at: position &+ 1) {
      (gone, first) = (position &+ 1, position)
    } else {
      return  // no neighbour has room: the block stays as it is
    }
    // In the middle, the block that goes stays as a spare where a spare
    // may be (`_spareAllowed`): only the two positions' leaves change.
    // Where spares crowd (removals at one place), it becomes a spare at
    // the nearest place within `_spareHomeReach` where one may be, the
    // blocks between moving over by one (`_spareHome`).
    let middle = gone > 0 && gone &+ 1 < _order.count
    let home = !middle || _spareAllowed(at: gone) ? nil : _spareHome(near: gone)
    let spare = middle && (home != nil || _spareAllowed(at: gone))
    let target = home ?? gone  // where the spare ends
    let span = Swift.min(first, target) ... Swift.max(gone, target)
    let old = spare ? _leaves(span) : []
    if gone != first {
      _appendRows(of: Int(_order[gone]), to: Int(_order[first]))
      kept = [_order[first]]
    }
    let handle = Int(_order[gone])
    if spare {
      _spareCount &+= 1
      _blocks[handle] = _Block()
      if target > gone {
        for p in gone ..< target {
          _order[p] = _order[p &+ 1]
          if _ordered { _firstIDs[p] = _firstIDs[p &+ 1] }
        }
      } else if target < gone {
        var p = gone
        while p > target {
          _order[p] = _order[p &- 1]
          if _ordered { _firstIDs[p] = _firstIDs[p &- 1] }
          p &-= 1
        }
      }
      if target != gone {
        _order[target] = Int32(truncatingIfNeeded: handle)
        for p in span { _positions[Int(_order[p])] = Int32(truncatingIfNeeded: p) }
      }
      if _ordered { _firstIDs[target] = _firstIDs[target &+ 1] }
      if gone != first || target != gone { _rewriteLeaves(from: span.lowerBound, old: old) }
      return
    }
    _freeBlock(handle)
    _positions[handle] = -1
    _order.remove(at: gone)
    if _ordered { _firstIDs.remove(at: gone) }
    _shiftPositions(from: gone &+ 1, by: -1)
    _replaceTreeLeaves(first ..< gone &+ 1, with: kept)
    _refreshRowGuess()
    _dropEndSpares()
  }

  /// Whether the block at `position` exists, has rows, and has room for
  /// `rows` more (a spare is no neighbour to merge with).
  /// - Complexity: O(1).
  @inlinable
  package func _fits(_ rows: Int, at position: Int) -> Bool {
    guard position >= 0 && position < _order.count else { return false }
    let held = _block(at: position).ids.count
    return held > 0 && held &+ rows <= blockCapacity
  }

  /// Appends the rows of the block with handle `source` to the block with
  /// handle `target` (which has room for them), refiling their ids; the
  /// source keeps its rows (the caller frees it).
  /// - Complexity: O(B).
  @inlinable
  package mutating func _appendRows(of source: Int, to target: Int) {
    let moving = _blocks[source]
    let shares = _poolsRows(_blocks[target].rowCount &+ moving.rowCount)
      && moving._isPristine && _blocks[target]._isPristine
    _blocks[target]._insertRoles(of: moving, at: _blocks[target].rowCount)
    _blocks[target]._insertExtras(of: moving, at: _blocks[target].rowCount)
    _blocks[target].ids.append(contentsOf: moving.ids)
    _blocks[target].rowCount &+= moving.rowCount
    if shares, let shared = _estimatedBuffers(_blocks[target].rowCount) {
      _blocks[target]._share(shared)
    } else {
      let oldCount = _blocks[target].extents.count
      _blocks[target].extents.append(contentsOf: moving.extents)
      _blocks[target]._rebuildChunks(from: oldCount)
    }
    _blocks[target].measuredSum &+= moving.measuredSum
    _blocks[target].measuredCount &+= moving.measuredCount
    _blocks[target].measuredZeroCount &+= moving.measuredZeroCount
    _refile(moving.ids, from: Int32(truncatingIfNeeded: source), to: Int32(truncatingIfNeeded: target))
    _recountKinds(handle: target)
  }

  /// Removes the elements at `slots` (sorted ascending, without repeats)
  /// from `array`: one shift for one slot, else one pass from the first.
  /// - Complexity: O(count - slots[0]).
  @inlinable
  package static func _compact<Element, Slots: RandomAccessCollection<Int>>(
    _ array: inout ContiguousArray<Element>, removing slots: Slots
  ) where Slots.Index == Int {
    guard let first = slots.first else { return }
    if slots.count == 1 {
      array.remove(at: first)
      return
    }
    array.withUnsafeMutableBufferPointer { buffer in
      var keep = first
      var next = 0
      for slot in first ..< buffer.count {
        if next < slots.count && slots[next] == slot {
          next &+= 1
          continue
        }
        buffer.swapAt(keep, slot)
        keep &+= 1
      }
    }
    array.removeLast(slots.count)
  }

  /// Drops empty blocks and merges every block under a quarter full into a
  /// neighbour (re-splitting when the two together are over capacity).
  /// - Complexity: O(n/B) plus O(B) per merge.
  @inlinable
  @inline(never)
  package mutating func _compactBlocks() {
    let minimum = Swift.max(1, blockCapacity / 4)
    var order: ContiguousArray<Int32> = []
    order.reserveCapacity(_order.count)
    // While ordered, the keys of the blocks kept: a merged block keeps the
    // first one's (at most every ordered id of both).
    var keys: ContiguousArray<Int> = []
    if _ordered { keys.reserveCapacity(_order.count) }
    for (position, handle) in _order.enumerated() {
      let h = Int(handle)
      let rows = _blocks[h].ids.count
      if rows == 0 {
        _freeBlock(h)
        continue
      }
      if let last = order.last, rows < minimum || _blocks[Int(last)].ids.count < minimum,
         _blocks[Int(last)].ids.count &+ rows <= blockCapacity {
        // Merge this block into the previous one.
        _appendRows(of: h, to: Int(last))
        _freeBlock(h)
        continue
      }
      order.append(handle)
      if _ordered { keys.append(_firstIDs[position]) }
    }
    _order = order
    _spareCount = 0  // each was freed
    if _ordered { _firstIDs = keys }
  }

  /// Whether a block of `rows` rows at `position` fits into a neighbour.
  @inlinable
  package func _canMerge(position: Int, rows: Int) -> Bool {
    _fits(rows, at: position &- 1) || _fits(rows, at: position &+ 1)
  }

  @inlinable
  package mutating func _freeBlock(_ handle: Int) {
    _blocks[handle] = _Block()
    _freeHandles.append(Int32(truncatingIfNeeded: handle))
  }
}
