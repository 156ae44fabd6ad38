extension ExtentTree {
  /// The number of nodes of the block-level Fenwick tree: the leading empty
  /// nodes (`_lead`) and one a block.
  @inlinable @inline(__always)
  package var _fenwickSize: Int { _fenwick.size }

  /// Rebuilds the handle positions and the block-level Fenwick tree from
  /// `_order` and the blocks, in linear time, with fresh room for blocks
  /// split off at the front (`_lead`: one node per 16 blocks, at least 4).
  /// - Complexity: O(n/B).
  @inlinable
  @inline(never)
  package mutating func _rebuildFenwick() {
    let blockCount = _order.count
    let lead = Swift.max(4, blockCount >> 4)
    let size = lead &+ blockCount
    _lead = lead
    _positions.removeAll(keepingCapacity: true)
    _positions.reserveCapacity(_withRoom(_blocks.count))
    _positions.append(contentsOf: repeatElement(-1, count: _blocks.count))
    _fenwick.reset(zeros: size, room: _withRoom(size) &- size)
    var total = _Summary()
    var roleTotal = 0
    _positions.withUnsafeMutableBufferPointer { positions in
      _fenwick.build { fenwick in
        _order.withUnsafeBufferPointer { order in
          _blocks.withUnsafeBufferPointer { blocks in
            let base = blocks.baseAddress.unsafelyUnwrapped
            for p in 0 ..< blockCount {
              let handle = Int(order[p])
              positions[handle] = Int32(truncatingIfNeeded: p)
              let s = (base + handle).pointee.summary
              total += s
              roleTotal &+= (base + handle).pointee.roleCounts
              fenwick[lead &+ p &+ 1] += s
            }
          }
        }
      }
    }
    _total = total
    _refreshRowGuess()
    _roleTotal = roleTotal
    if roleTotal != 0 || !_roleFenwick.isEmpty { _rebuildRoleFenwick() }
    if _kinds != nil { _rebuildKindTree() }
  }

  /// Puts the blocks `handles` (which hold their rows already) in place of
  /// the blocks at `positions` in every block-level tree: the main one, the
  /// role tree when it is built, the kind tree when there are kinds. For a
  /// split or a merge: the rows are the same, regrouped, so the totals stay.
  /// Streams over the trees' tails (`_FenwickTree.replaceLeaves`) and reads
  /// only the new blocks, not every block by its handle as a rebuild does.
  /// With `lead`, the leading empty nodes change too: the leaves from the
  /// first node to `positions` are replaced by `lead` empty ones and the
  /// blocks (new room in front, for a split of the first block).
  /// - Complexity: O(n/B − p) for the first position p, sequential.
  @inlinable
  @inline(never)
  package mutating func _replaceTreeLeaves(
    _ positions: Range<Int>, with handles: some Collection<Int32>, lead: Int? = nil
  ) {
    let zeros = lead ?? 0
    let leaves = (lead == nil ? positions.lowerBound &+ _lead &+ 1 : 1) ..< (positions.upperBound &+ _lead &+ 1)
    if let lead { _lead = lead }
    _fenwick.replaceLeaves(leaves, with: repeatElement(_Summary(), count: zeros) + handles.map { _blocks[Int($0)].summary })
    if !_roleFenwick.isEmpty {
      _roleFenwick.replaceLeaves(leaves, with: repeatElement(0, count: zeros) + handles.map { _blocks[Int($0)].roleCounts })
    }
    _replaceKindLeaves(leaves, zeros: zeros, with: handles)
  }

  /// What the block-level trees hold for one position (`_leaves`), kept
  /// before the blocks of a few positions are regrouped or moved, so
  /// `_rewriteLeaves` can put in the differences.
  @usableFromInline
  package struct _Leaf {
    @usableFromInline package var summary: _Summary
    @usableFromInline package var roles: Int
    @usableFromInline package var kinds: ContiguousArray<Int64>

    @inlinable
    package init(summary: _Summary, roles: Int, kinds: ContiguousArray<Int64>) {
      self.summary = summary
      self.roles = roles
      self.kinds = kinds
    }
  }

  /// What the trees hold for the blocks at `positions`: their summaries,
  /// role counts and kind vectors, which the trees count where they are.
  /// - Complexity: O(w) for w positions.
  @inlinable
  package func _leaves(_ positions: ClosedRange<Int>) -> [_Leaf] {
    positions.map(_leaf)
  }

  /// What the trees hold for the block at `position` (see `_leaves`).
  /// - Complexity: O(1).
  @inlinable
  package func _leaf(_ position: Int) -> _Leaf {
    _withBlock(handle: Int(_order[position])) {
      _Leaf(summary: $0.pointee.summary, roles: $0.pointee.roleCounts, kinds: $0.pointee.kindVector)
    }
  }

  /// Makes every block-level tree hold, at the positions from `first` on,
  /// the blocks now there, given what it held (`old`, from `_leaves`
  /// before the change): one Fenwick update a changed position in each
  /// tree, so a regrouping of w positions costs O(w log(n/B)) wherever it
  /// is, with no pass over the later blocks. The rows are the same, so
  /// the totals stay (the kind totals are refreshed).
  /// - Complexity: O(w log(n/B)) for w positions.
  @inlinable
  @inline(never)
  package mutating func _rewriteLeaves(from first: Int, old: [_Leaf]) {
    let roles = !_roleFenwick.isEmpty
    let kinded = _kinds != nil
    for (k, before) in old.enumerated() {
      let p = first &+ k
      let now = _leaf(p)
      var delta = now.summary
      delta -= before.summary
      if delta != _Summary() { _fenwickNodeAdd(delta, at: _lead &+ p &+ 1) }
      if roles && now.roles != before.roles { _roleFenwick.add(now.roles &- before.roles, at: _lead &+ p &+ 1) }
      if kinded {
        for e in 0 ..< Swift.max(now.kinds.count, before.kinds.count) {
          let d = (e < now.kinds.count ? now.kinds[e] : 0) &- (e < before.kinds.count ? before.kinds[e] : 0)
          if d != 0 { _kindAdd(d, entry: e, at: p) }
        }
      }
    }
    if kinded { _refreshKindTotals() }
  }

  /// Puts `zeros` empty vectors and the kind vectors of the blocks
  /// `handles` in place of the kind tree's `leaves` (1-based nodes); a
  /// no-op without kinds.
  /// - Complexity: O(s (n/B − l)) for s entries per vector and the first leaf l.
  @inlinable
  package mutating func _replaceKindLeaves(_ leaves: Range<Int>, zeros: Int = 0, with handles: some Collection<Int32>) {
    guard let table = _kinds else { return }
    let stride = table.stride
    var vectors = ContiguousArray<Int64>(repeating: 0, count: (zeros &+ handles.count) &* stride)
    for (k, handle) in handles.enumerated() {
      for (e, v) in _blocks[Int(handle)].kindVector.enumerated() { vectors[(zeros &+ k) &* stride &+ e] = v }
    }
    let mine = _writableKinds()
    _FenwickTree<Int64>._replaceLeaves(&mine.nodes, stride: stride, leaves, with: vectors)
  }

  /// Rebuilds the role Fenwick tree from the blocks, node for node beside
  /// `_fenwick` (same size and leading nodes); `_roleTotal` is left alone.
  /// - Complexity: O(n/B).
  @inlinable
  @inline(never)
  package mutating func _rebuildRoleFenwick() {
    let size = _fenwickSize
    let lead = _lead
    var tree = _FenwickTree<Int>(zeros: size)
    tree.build { fenwick in
      for p in 0 ..< _order.count {
        fenwick[lead &+ p &+ 1] = _withBlock(handle: Int(_order[p])) { $0.pointee.roleCounts }
      }
    }
    _roleFenwick = tree
  }

  /// Adds `delta` (a packed header and footer count) to the block at
  /// `position`; the first role builds the role tree.
  /// - Complexity: O(log(n/B)), or O(n/B) for the first role.
  @inlinable
  package mutating func _roleAdd(_ delta: Int, at position: Int) {
    guard delta != 0 else { return }
    _roleTotal &+= delta
    if _roleFenwick.isEmpty {
      _rebuildRoleFenwick()  // the blocks already hold the change
    } else {
      _roleFenwick.add(delta, at: position &+ _lead &+ 1)
    }
  }

  /// Adds `delta` to Fenwick node `index` (1-based, counting the leading
  /// nodes) and the nodes above it; `_total` is left alone.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickNodeAdd(_ delta: _Summary, at index: Int) {
    _fenwick.add(delta, at: index)
  }

  /// Subtracts `delta` at Fenwick node `index`, like `_fenwickNodeAdd`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickNodeSubtract(_ delta: _Summary, at index: Int) {
    var negated = _Summary()
    negated -= delta
    _fenwickNodeAdd(negated, at: index)
  }

  /// Adds `delta` to the summary of the block at `position`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickAdd(_ delta: _Summary, at position: Int) {
    _fenwickNodeAdd(delta, at: position &+ _lead &+ 1)
    _total += delta
    if delta.count != 0 { _refreshRowGuess() }
  }

  /// Subtracts `delta` from the summary of the block at `position`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickSubtract(_ delta: _Summary, at position: Int) {
    _fenwickNodeSubtract(delta, at: position &+ _lead &+ 1)
    _total -= delta
    if delta.count != 0 { _refreshRowGuess() }
  }

  /// Recomputes `_rowGuessScale` from the row and block counts.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package mutating func _refreshRowGuess() {
    let rows = UInt64(truncatingIfNeeded: _total.count)
    _rowGuessScale = rows == 0 ? 0 : (UInt64(truncatingIfNeeded: _order.count) << 32) / rows
  }

  /// The summary of the first `index` Fenwick nodes (leading nodes included).
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func _fenwickNodePrefix(_ index: Int) -> _Summary {
    _fenwick.prefix(index)
  }

  /// The summary of the blocks at positions `0 ..< position`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func _fenwickPrefix(_ position: Int) -> _Summary {
    _fenwickNodePrefix(position &+ _lead)
  }

  /// Appends a Fenwick node for a new last block with summary `s`
  /// (`_total` is left alone).
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickAppend(_ s: _Summary) {
    _fenwick.append(s)
  }

  /// One descent of the block-level Fenwick tree, the single copy every
  /// search uses (a metric's search is a `take` closure, as swift-collections'
  /// Rope finds by a metric): from the top, a node is passed when `take`
  /// accepts it, so `take` sees the passed nodes in row order and keeps the
  /// running totals its metric needs (and nothing more: the pitch search,
  /// the hottest, adds two numbers a step). Returns the position of the
  /// block the descent stops in (leading empty nodes are always passed).
  /// - Complexity: O(log(n/B)).
  @inlinable @inline(__always)
  package func _descend(_ take: (_Summary) -> Bool) -> Int {
    _fenwick.descend(take) &- _lead
  }

  /// `_descend` over the role tree (laid out like `_fenwick`).
  /// - Complexity: O(log(n/B)).
  @inlinable @inline(__always)
  package func _descendRoles(_ take: (Int) -> Bool) -> Int {
    _roleFenwick.descend(take) &- _lead
  }
}

extension ExtentTree._Summary: _FenwickValue {
  @inlinable @inline(__always)
  package init() { self.init(count: 0, measuredSum: 0, measuredCount: 0, measuredZeroCount: 0) }
}
