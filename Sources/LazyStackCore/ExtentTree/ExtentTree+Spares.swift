// Spares: empty blocks kept between the blocks with rows, so a split or a
// merge in the middle of a large tree moves a few positions, not every
// later one (SPEC E4; issue #33). `ExtentTree._spareGap` says what a spare
// is; the split that takes them is `_splitIntoSpares`, the merge that
// leaves one is `_mergeLocally`.

extension ExtentTree {
  /// Puts one spare after every `_spareGap` blocks with rows (none after
  /// the last), dropping the spares there were, and rebuilds the
  /// positions and the block-level trees. Below `_spareThreshold` blocks
  /// with rows the tree keeps no spares. After a build and a compaction.
  /// - Complexity: O(n/B).
  @inlinable
  @inline(never)
  package mutating func _spreadSpares() {
    let gap = Self._spareGap
    var blocks: [(handle: Int32, key: Int)] = []
    blocks.reserveCapacity(_order.count)
    var reusable: [Int32] = []
    for (p, handle) in _order.enumerated() {
      if _isSpare(p) {
        reusable.append(handle)
      } else {
        blocks.append((handle, _ordered ? _firstIDs[p] : 0))
      }
    }
    let spread = blocks.count >= Self._spareThreshold
    if !spread && reusable.isEmpty {
      _spareCount = 0
      _rebuildFenwick()
      return
    }
    let spares = spread ? (blocks.count &- 1) / gap : 0
    var order = ContiguousArray<Int32>()
    order.reserveCapacity(_withRoom(blocks.count &+ spares))
    var keys = ContiguousArray<Int>()
    if _ordered { keys.reserveCapacity(_withRoom(blocks.count &+ spares)) }
    for (k, block) in blocks.enumerated() {
      order.append(block.handle)
      if _ordered { keys.append(block.key) }
      if spread && (k &+ 1) % gap == 0 && k &+ 1 < blocks.count {
        order.append(reusable.popLast() ?? _newHandle())
        if _ordered { keys.append(blocks[k &+ 1].key) }  // the next block's key
      }
    }
    for handle in reusable { _freeBlock(Int(handle)) }
    _spareCount = spares
    _order = order
    if _ordered { _firstIDs = keys }
    _rebuildFenwick()
  }

  /// The positions from `position` to the nearest `needed`-th spare on
  /// either side of it (looking outwards one position a side at a time),
  /// within `_spareReach` positions; `nil` when there are not that many so
  /// near.
  /// - Complexity: O(r) for the reach r.
  @inlinable
  package func _spareSpan(around position: Int, needing needed: Int) -> ClosedRange<Int>? {
    let last = _order.count &- 2  // the last block is never a spare, nor the first
    var (right, left) = (0, 0)
    for d in 1 ... Self._spareReach {
      let after = position &+ d
      let before = position &- d
      if after > last && before < 1 { break }
      if after <= last && _isSpare(after) {
        right &+= 1
        if right == needed { return position ... after }
      }
      if before >= 1 && _isSpare(before) {
        left &+= 1
        if left == needed { return before ... position }
      }
    }
    return nil
  }

  /// Splits the block at `position` into `parts` (its rows regrouped, with
  /// their `keys` while ordered) using the spares in `span` (from
  /// `_spareSpan`, which ends at the last spare needed, so the span holds
  /// one spare for each part but the first): the first part keeps the
  /// block's handle, the others take the spares' handles, and the blocks
  /// with rows in the span move over by as many positions, so the parts
  /// lie side by side. Nothing after the span moves.
  /// - Complexity: O(B + w log(n/B)) for a span of w positions.
  @inlinable
  @inline(never)
  package mutating func _splitIntoSpares(_ parts: [_Block], keys: [Int], at position: Int, span: ClosedRange<Int>) {
    let handle = _order[position]
    let old = _leaves(span)
    var spares: [Int32] = []
    var kept: [(handle: Int32, key: Int)] = []  // the span's other blocks with rows
    for p in span where p != position {
      if _isSpare(p) {
        spares.append(_order[p])
      } else {
        kept.append((_order[p], _ordered ? _firstIDs[p] : 0))
      }
    }
    _spareCount &-= spares.count
    _blocks[Int(handle)] = parts[0]
    _recountKinds(handle: Int(handle))
    for (k, h) in spares.enumerated() {
      _blocks[Int(h)] = parts[k &+ 1]
      _recountKinds(handle: Int(h))
      _refile(parts[k &+ 1].ids, from: handle, to: h)
    }
    // The span anew: the parts side by side, before or after the blocks
    // that move over (the spares were on the left or on the right).
    var own: [(handle: Int32, key: Int)] = [(handle, keys.first ?? 0)]
    for (k, h) in spares.enumerated() { own.append((h, _ordered ? keys[k &+ 1] : 0)) }
    let arrangement = span.upperBound == position ? kept + own : own + kept
    for (k, entry) in arrangement.enumerated() {
      let p = span.lowerBound &+ k
      _order[p] = entry.handle
      _positions[Int(entry.handle)] = Int32(truncatingIfNeeded: p)
      if _ordered { _firstIDs[p] = entry.key }
    }
    _rewriteLeaves(from: span.lowerBound, old: old)
  }

  /// Whether the block at `position` (in the middle) may become a spare:
  /// while the tree is large enough to spread spares, and fewer than a
  /// quarter of the positions within `_spareReach / 4` each way are
  /// spares already, so a walk over the blocks meets few in a row.
  /// - Complexity: O(r) for the reach r.
  @inlinable
  package func _spareAllowed(at position: Int) -> Bool {
    guard _order.count >= Self._spareThreshold else { return false }
    let reach = Self._spareReach / 4
    let lower = Swift.max(1, position &- reach)
    let upper = Swift.min(_order.count &- 2, position &+ reach)
    var spares = 0
    for p in lower ... upper where p != position && _isSpare(p) { spares &+= 1 }
    return spares &* 4 < upper &- lower
  }

  /// How far (in positions) a merge where spares crowd looks for a place
  /// where its emptied block may stay as a spare.
  @inlinable @inline(__always)
  package static var _spareHomeReach: Int { 256 }

  /// The nearest position within `_spareHomeReach` of `position` (in the
  /// middle, holding rows) where a spare may be (`_spareAllowed`), or nil:
  /// where a merge at `position`, among crowded spares, leaves its spare.
  /// - Complexity: O(r · reach) for the reach r, at most.
  @inlinable
  package func _spareHome(near position: Int) -> Int? {
    guard _order.count >= Self._spareThreshold else { return nil }
    let n = _order.count
    for d in 1 ... Self._spareHomeReach {
      let right = position &+ d
      if right < n &- 1 && !_isSpare(right) && _spareAllowed(at: right) { return right }
      let left = position &- d
      if left > 0 && !_isSpare(left) && _spareAllowed(at: left) { return left }
      if right >= n &- 1 && left <= 0 { break }
    }
    return nil
  }

  /// Removes spares left at either end (a removal there can leave the
  /// block next to a spare first or last), so the first and the last
  /// blocks have rows.
  /// - Complexity: O(n/B) when there are any, else O(1).
  @inlinable
  package mutating func _dropEndSpares() {
    while _order.count > 1 && _isSpare(_order.count &- 1) {
      _spareCount &-= 1
      _mergeLocally(at: _order.count &- 1)
    }
    while _order.count > 1 && _isSpare(0) {
      _spareCount &-= 1
      _mergeLocally(at: 0)
    }
  }
}
