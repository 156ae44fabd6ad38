extension ExtentTree {
  /// Checks every internal invariant and traps on the first one broken:
  /// block sums match their rows, the Fenwick tree matches a rebuild, the id
  /// index names the block of every row and nothing else, handles and
  /// positions agree, no block is over capacity, and the only empty blocks are
  /// the spares, counted, between blocks with rows.
  /// For tests (directly, or through a layout's checks when
  /// `LazyStackInternalChecks.isEnabled`); nothing on a hot path calls it.
  /// - Complexity: O(n).
  package func _checkInvariants() {
    var total = _Summary()
    var seen = 0
    var previousID: Int?
    var exceptionRows = 0
    precondition(_ordered || (_firstIDs.isEmpty && _exceptions == nil), "keys or exceptions kept while not ordered")
    precondition(_implicit == nil || (_ordered && _exceptions == nil), "a range of ids with exceptions")
    precondition(_exceptions.map { !$0.isEmpty } ?? (_exceptionCounts == nil), "an empty exceptions table kept")
    var countedExceptions = 0
    _exceptionCounts?.forEach { _, count in countedExceptions += Int(count) }
    precondition(countedExceptions == (_exceptions?.count ?? 0), "exception counts and exceptions disagree")
    precondition(_positions.count == _blocks.count, "positions/blocks size mismatch")
    precondition(_order.reduce(0) { $0 + (_blocks[Int($1)].ids.isEmpty ? 1 : 0) } == _spareCount,
                 "spare count mismatch")
    for (position, handle) in _order.enumerated() {
      let block = _blocks[Int(handle)]
      precondition(_positions[Int(handle)] == Int32(position), "handle position mismatch")
      // Empty: a spare, only between two blocks with rows (`_spareGap`).
      precondition(!block.ids.isEmpty || (position > 0 && position < _order.count - 1),
                   "empty block first or last in order")
      precondition(block.ids.count > 0 || (block.extents.isEmpty && block.kindVector.allSatisfy { $0 == 0 }
                                           && block.roleCounts == 0 && _exceptionCount(Int(handle)) == 0),
                   "a spare keeps rows' traces")
      precondition(block.ids.count <= blockCapacity, "block over capacity")
      precondition(block.ids.count == block.extents.count, "ids/extents size mismatch")
      precondition(block.rowCount == block.ids.count, "block row count mismatch")
      precondition(block.roles.isEmpty || block.roles.count == block.rowCount, "roles/rows size mismatch")
      precondition(block.roles.isEmpty == (block.roleCounts == 0), "a block of plain rows keeps roles")
      for role in block.roles { precondition(role <= Self._footerRole, "invalid role") }
      let recomputed = _Block(ids: block.ids, extents: block.extents, roles: block.roles)
      precondition(recomputed.summary == block.summary, "block summary mismatch")
      precondition(recomputed.chunks == block.chunks, "chunk summaries mismatch")
      precondition(block.extras.isEmpty || block.extras.count == block.rowCount, "extras/rows size mismatch")
      precondition(block.extras.isEmpty || _kinds != nil, "extras without a kind table")
      if let table = _kinds {
        for extra in block.extras where Self._kind(ofExtra: extra) != 0 {
          precondition(table.slotOfKind[Int(Self._kind(ofExtra: extra))] >= 0, "a kind without a slot")
        }
        let counted = _countKinds(block)
        let kept = block.kindVector
        for e in 0 ..< Swift.max(counted.count, kept.count) {
          precondition((e < counted.count ? counted[e] : 0) == (e < kept.count ? kept[e] : 0),
                       "kind vector of block \(position) entry \(e) stale")
        }
      } else {
        precondition(block.kindVector.isEmpty, "a kind vector without a kind table")
      }
      if let range = _implicit {
        for (offset, id) in block.ids.enumerated() {
          precondition(id as? Int == range.lowerBound + seen + offset, "implicit index: row \(seen + offset) is \(id)")
        }
      }
      if _ordered {
        let inBlock = block.ids.reduce(0) { $0 + (_exceptions?[unsafeBitCast($1, to: Int.self)] != nil ? 1 : 0) }
        precondition(_exceptionCount(Int(handle)) == inBlock, "exception count of block \(position)")
        // The key: above every ordered id before the block, at most every one in it, not below the last.
        let key = _firstIDs[position]
        precondition(position == 0 || _firstIDs[position - 1] <= key, "keys descend at block \(position)")
        precondition(previousID.map { $0 < key } ?? true, "key of block \(position) not above the ordered ids before it")
        for id in block.ids {
          let i = unsafeBitCast(id, to: Int.self)
          if let filed = _exceptions?[i] {
            precondition(filed == Int32(handle), "exception \(i) filed under the wrong block")
            exceptionRows += 1
            continue
          }
          precondition(i != Int.max, "Int.max is ordered")
          precondition(key <= i, "key of block \(position) above its ordered id \(i)")
          precondition(previousID.map { $0 < i } ?? true, "ordered ids do not ascend at \(i)")
          previousID = i
        }
      } else {
        for (slot, id) in block.ids.enumerated() {
          let found = _indexed(id)
          precondition(found?.handle == Int32(handle) && found?.slot == slot,
                       "id index names the wrong block for \(id)")
        }
      }
      total += block.summary
      seen += block.ids.count
      for e in block.extents { precondition(e >= Self._invalidated, "invalid stored extent") }
    }
    if _ordered {
      precondition(ID.self == Int.self, "ordered ids are Ints")
      precondition(_index.isEmpty && _firstIDs.count == _order.count, "ordered index and blocks disagree")
      precondition(_nextIndex == nil && _migrated == 0, "an id index under way while the ids are ordered")
      precondition(exceptionRows == (_exceptions?.count ?? 0), "exceptions filed that are not rows")
      if let range = _implicit { precondition(range.count == seen, "implicit index and rows disagree") }
    } else {
      precondition(_index.count == seen, "id index holds ids that are not rows")
      precondition(!_index.needsRebuild || _nextIndex != nil, "id index left spilled after an edit, and no new one under way")
      _index._checkInvariants()
      if let next = _nextIndex {
        // The replacement under way files exactly the rows of the blocks below `_migrated`.
        precondition(_migrated < _blocks.count, "a finished replacement not made the id index")
        precondition(next.isPrepared || (_migrated == 0 && next.isEmpty), "rows filed in an index not zeroed yet")
        if next.isPrepared { next._checkInvariants() }
        var filed = 0
        for handle in 0 ..< _migrated {
          for id in _blocks[handle].ids {
            precondition(next.first(next.hash(id), where: { $0 == Int32(handle) }) != nil,
                         "the new id index lacks \(id) of migrated block \(handle)")
            filed &+= 1
          }
        }
        precondition(next.count == filed, "the new id index holds ids that are not rows of migrated blocks")
      } else {
        precondition(_migrated == 0, "a migration cursor without a new id index")
      }
    }
    precondition(total == _total, "total mismatch")
    let guessScale = seen == 0 ? 0 : (UInt64(_order.count) << 32) / UInt64(seen)
    precondition(_rowGuessScale == guessScale, "row guess scale stale: \(_rowGuessScale), expected \(guessScale)")
    let roleTotal = _order.reduce(0) { $0 &+ _blocks[Int($1)].roleCounts }
    precondition(roleTotal == _roleTotal, "role total mismatch")
    precondition(_roleTotal == 0 || _roleFenwick.size == _fenwick.size, "roles without a role tree")
    precondition(_lead >= 0 && _fenwickSize == _lead + _order.count, "Fenwick size mismatch")
    _checkFenwick(_fenwick, "Fenwick") { $0.summary }
    if !_roleFenwick.isEmpty {
      precondition(_roleFenwick.size == _fenwick.size, "role tree size mismatch")
      _checkFenwick(_roleFenwick, "role Fenwick") { $0.roleCounts }
    }
    if let table = _kinds {
      _checkKindTree(table)
      precondition(table.pitchTotal == table._totalCorrection(estimate), "kinds' pitch total stale")
      precondition(_kindPitch == table.pitchTotal, "the tree's copy of the kinds' pitch total stale")
      precondition(table.nonEmptyTotal == table._totalNonEmptyCorrection(estimate), "kinds' non-empty total stale")
    } else {
      precondition(_kindPitch == 0, "a pitch from kinds without kinds")
    }
    for handle in _freeHandles {
      precondition(_positions[Int(handle)] == -1 && _blocks[Int(handle)].ids.isEmpty, "free handle in use")
      precondition(_exceptionCount(Int(handle)) == 0, "a free handle counts exceptions")
    }
    precondition(_freeHandles.count + _order.count == _blocks.count, "handles leaked")
    precondition(_estimatedPool.count <= Self._estimatedPoolLimit, "estimated pool over its limit")
    for (k, entry) in _estimatedPool.enumerated() {
      precondition(entry.rows > 0 && entry.extents.count == entry.rows && entry.extents.allSatisfy { $0 == Self._estimated },
                   "estimated pool entry \(k) is not \(entry.rows) estimated rows")
      precondition(entry.chunks == Self._estimatedChunks(entry.rows), "estimated pool entry \(k)'s chunks are wrong")
      precondition(!_estimatedPool[..<k].contains { $0.rows == entry.rows }, "estimated pool holds \(entry.rows) rows twice")
    }
  }

  /// Checks the kind table: slots and kinds agree, each slot's estimate is
  /// its kind's, and the kind tree holds the blocks' vectors.
  /// - Complexity: O(s n/B).
  package func _checkKindTree(_ table: _KindTable) {
    precondition(table.kindOfSlot.count == table.slotEstimates.count, "kind slots and estimates disagree")
    precondition(3 + 3 * table.kindOfSlot.count <= table.stride, "kind slots over the vectors' stride")
    for (j, kind) in table.kindOfSlot.enumerated() {
      precondition(kind != 0 && table.slotOfKind[Int(kind)] == Int16(j), "kind slot \(j) misfiled")
      precondition(table.slotEstimates[j] == kindEstimate(kind), "kind \(kind)'s estimate stale")
    }
    precondition(table.nodes.count == (_fenwickSize + 1) * table.stride, "kind tree size mismatch")
    let stride = table.stride
    var prefixes = [ContiguousArray<Int64>(repeating: 0, count: stride)]
    for i in 1 ... Swift.max(1, _fenwickSize) where i <= _fenwickSize {
      var p = prefixes[i - 1]
      if i > _lead {
        let v = _blocks[Int(_order[i - _lead - 1])].kindVector
        for e in 0 ..< v.count { p[e] += v[e] }
      }
      prefixes.append(p)
    }
    for i in 1 ... Swift.max(1, _fenwickSize) where i <= _fenwickSize {
      for e in 0 ..< stride {
        let expected = prefixes[i][e] - prefixes[i - (i & -i)][e]
        precondition(table.nodes[i * stride + e] == expected, "kind tree node \(i) entry \(e) does not hold its range")
      }
    }
    precondition(prefixes.last! == table.total || _fenwickSize == 0, "kind total mismatch")
  }

  /// Checks that every node of a Fenwick tree laid out like `_fenwick`
  /// holds the sum of its range of nodes, the first `_lead` of which hold no
  /// block and the others `leaf` of their block.
  /// - Complexity: O(n/B).
  package func _checkFenwick<T: _FenwickValue & Equatable & Sendable>(
    _ tree: _FenwickTree<T>, _ name: String, leaf: (_Block) -> T
  ) {
    var prefixes = [T()]
    for i in 1 ... Swift.max(1, _fenwickSize) where i <= _fenwickSize {
      var p = prefixes[i - 1]
      if i > _lead { p += leaf(_blocks[Int(_order[i - _lead - 1])]) }
      prefixes.append(p)
    }
    for i in 1 ... Swift.max(1, _fenwickSize) where i <= _fenwickSize {
      var expected = prefixes[i]
      expected -= prefixes[i - (i & -i)]
      precondition(tree[node: i] == expected, "\(name) node \(i) does not hold its range")
    }
  }
}
