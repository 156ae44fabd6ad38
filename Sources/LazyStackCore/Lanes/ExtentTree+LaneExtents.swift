// SPEC X2, K1 for the lane bodies: which rows' extent is kind 0's estimate,
// so that a masonry body stores them as `_LaneBlocks.followsEstimate` and a
// change of that estimate writes none of them.

extension ExtentTree {
  /// The extent a lane body stores for a row with stored value `stored`
  /// and `extra`: `_LaneBlocks.followsEstimate` when its extent is kind
  /// 0's estimate (unmeasured, no estimate of its own, of kind 0 or of a
  /// kind that has none), else its extent in units.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func _laneExtent(ofStored stored: Int32, extra: UInt64) -> Int64 {
    if stored >= 0 { return Int64(stored) }
    guard let table = _kinds else { return _LaneBlocks.followsEstimate }
    if extra & 0x100 != 0 { return Int64(extra &>> 32) }
    let kind = Self._kind(ofExtra: extra)
    return kind == 0 || table.estimates[Int(kind)] < 0 ? _LaneBlocks.followsEstimate : table.estimates[Int(kind)]
  }

  /// What a lane body stores for row `index` (`_laneExtent(ofStored:extra:)`).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func laneExtent(at index: Int) -> Int64 {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let l = _locate(index)
    let stored = _storedExtent(at: l)
    if stored >= 0 { return Int64(stored) }
    return _laneExtent(ofStored: stored, extra: _kinds == nil ? 0 : _extra(at: l))
  }

  /// Calls `body` with the id and what a lane body stores
  /// (`_laneExtent(ofStored:extra:)`) of each row of `range`, in order:
  /// one search, then a walk over the blocks. A row's extent is what it
  /// stores, or `estimate` where that is `_LaneBlocks.followsEstimate`
  /// (only kind 0's estimate is stored so), so the walk does not resolve
  /// it twice; inlined, so a caller's appends see no closure box.
  /// - Complexity: O(log(n/B) + B + r) for r rows.
  @inlinable @inline(__always)
  package func _forEachLaneRow(in range: Range<Int>, _ body: (ID, Int64) -> Void) {
    guard !range.isEmpty else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "Rows \(range) out of range 0..<\(count)")
    let l = _locate(range.lowerBound)
    var position = l.position
    var slot = l.slot
    let kinded = _kinds != nil
    var remaining = range.count
    while remaining > 0 {
      _withBlock(handle: Int(_order[position])) { block in
        let rows = block.pointee.ids.count
        while slot < rows && remaining > 0 {
          let stored = block.pointee.extents[slot]
          let value: Int64
          if stored >= 0 {
            value = Int64(stored)
          } else if kinded {
            value = _laneExtent(ofStored: stored, extra: Self._extra(block, slot))
          } else {
            value = _LaneBlocks.followsEstimate
          }
          body(block.pointee.ids[slot], value)
          slot &+= 1
          remaining &-= 1
        }
      }
      position &+= 1
      slot = 0
    }
  }
}
