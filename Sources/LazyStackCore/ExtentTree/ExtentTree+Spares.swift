// Spares: empty blocks kept between the blocks with rows, so a split or a
// merge in the middle of a large tree moves a few positions, not every
// later one (SPEC E4; issue #33). `ExtentTree._spareGap` says what a spare
// is; the split that takes them is `_splitIntoSpares`, the merge that
// leaves one is `_mergeLocally`.

extension ExtentTree {
  /// Puts one spare after every `_spareGap` blocks with rows (none after
  /// the last), dropping the spares there were, and rebuilds the
  /// positions and the block-level trees. Below `_spareThreshold` blocks
  /// with rows the tree keeps no spares. After a build, a compaction, and
  /// a split in the middle that found no spare near.
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
}
