extension ExtentTree {
  /// Where row `index` lives.
  @usableFromInline
  package struct _Location: Sendable {
    /// The position of the row's block in row order.
    @usableFromInline package var position: Int
    /// The row's slot inside its block.
    @usableFromInline package var slot: Int
    /// The summary of every block before the row's block.
    @usableFromInline package var before: _Summary

    @inlinable @inline(__always)
    package init(position: Int, slot: Int, before: _Summary) {
      self.position = position
      self.slot = slot
      self.before = before
    }
  }

  /// Finds the block and slot of row `index` by a Fenwick descent on counts.
  /// `index == count` gives the end of the last block.
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func _locate(_ index: Int) -> _Location {
    var position = 0
    var before = _Summary()
    var remaining = index
    var step = _topStep
    let n = _order.count
    while step > 0 {
      let next = position &+ step
      if next <= n {
        let node = _fenwick[next]
        if node.count <= remaining {
          position = next
          remaining &-= node.count
          before += node
        }
      }
      step &>>= 1
    }
    if position == n && n > 0 {
      // index == count: the end of the last block.
      let last = _blocks[Int(_order[n &- 1])].summary
      before -= last
      return _Location(position: n &- 1, slot: last.count, before: before)
    }
    return _Location(position: position, slot: remaining, before: before)
  }

  /// The block at `position`.
  @inlinable @inline(__always)
  package func _block(at position: Int) -> _Block {
    _blocks[Int(_order[position])]
  }

  /// The id of row `index`.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func id(at index: Int) -> ID {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let l = _locate(index)
    return _blocks[Int(_order[l.position])].ids[l.slot]
  }

  /// The extent of row `index`, in units (the estimate if it is unmeasured).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func extent(at index: Int) -> Int64 {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let l = _locate(index)
    return _extent(_blocks[Int(_order[l.position])].extents[l.slot])
  }

  /// Whether row `index` has a measured extent.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func isMeasured(at index: Int) -> Bool {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let l = _locate(index)
    return _blocks[Int(_order[l.position])].extents[l.slot] >= 0
  }

  /// The sum of the pitches of rows `0 ..< index`: where row `index` starts,
  /// relative to the leading inset (SPEC G2, X3).
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func pitchPrefix(_ index: Int) -> Int64 {
    precondition(index >= 0 && index <= count, "Row index \(index) out of range 0...\(count)")
    if index == count { return totalPitch }
    let l = _locate(index)
    return _pitch(l.before) &+ _slotPitchPrefix(_blocks[Int(_order[l.position])], l.slot)
  }

  /// The start (relative to the leading inset) and extent of row `index`.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func span(_ index: Int) -> (start: Int64, extent: Int64) {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let l = _locate(index)
    let block = _blocks[Int(_order[l.position])]
    return (_pitch(l.before) &+ _slotPitchPrefix(block, l.slot), _extent(block.extents[l.slot]))
  }

  /// The sum of the pitches of slots `0 ..< slot` of `block`.
  @inlinable @inline(__always)
  package func _slotPitchPrefix(_ block: _Block, _ slot: Int) -> Int64 {
    var measured: Int64 = 0
    var estimated = 0
    block.extents.withUnsafeBufferPointer { extents in
      for i in 0 ..< slot {
        let e = extents[i]
        if e < 0 { estimated &+= 1 } else { measured &+= Int64(e) }
      }
    }
    return measured &+ Int64(estimated) &* estimate &+ Int64(slot) &* spacing
  }

  /// The first row whose pitch prefix *after* it exceeds `threshold`:
  /// the smallest `i` with `pitchPrefix(i + 1) > threshold`, or `nil` if
  /// `threshold >= totalPitch`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func firstRow(withPitchPrefixAfterAbove threshold: Int64) -> Int? {
    guard count > 0 else { return nil }
    if threshold < 0 { return 0 }
    var position = 0
    var accumulated: Int64 = 0
    var rows = 0
    var step = _topStep
    let n = _order.count
    while step > 0 {
      let next = position &+ step
      if next <= n {
        let node = _fenwick[next]
        let pitch = _pitch(node)
        if accumulated &+ pitch <= threshold {
          position = next
          accumulated &+= pitch
          rows &+= node.count
        }
      }
      step &>>= 1
    }
    guard position < n else { return nil }
    let block = _blocks[Int(_order[position])]
    let estimate = self.estimate
    let spacing = self.spacing
    return block.extents.withUnsafeBufferPointer { extents -> Int? in
      for slot in 0 ..< extents.count {
        let e = extents[slot]
        accumulated &+= (e < 0 ? estimate : Int64(e)) &+ spacing
        if accumulated > threshold { return rows &+ slot }
      }
      return nil  // unreachable while the tree is consistent
    }
  }

  /// The number of rows that start before `limit`: rows with
  /// `pitchPrefix(i) < limit`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func rowsStarting(before limit: Int64) -> Int {
    guard limit > 0 else { return 0 }
    guard let last = firstRow(withPitchPrefixAfterAbove: limit &- 1) else { return count }
    return last &+ 1
  }

  /// The number of non-empty rows among rows `0 ..< index`.
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func nonEmptyRows(before index: Int) -> Int {
    precondition(index >= 0 && index <= count, "Row index \(index) out of range 0...\(count)")
    if index == count { return nonEmptyCount }
    let l = _locate(index)
    var result = _nonEmpty(l.before)
    let block = _blocks[Int(_order[l.position])]
    for slot in 0 ..< l.slot where _extent(block.extents[slot]) > 0 { result &+= 1 }
    return result
  }

  /// The non-empty row of rank `rank` (0-based) in row order.
  /// - Precondition: `0 <= rank < nonEmptyCount`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func nonEmptyRow(rank: Int) -> Int {
    precondition(rank >= 0 && rank < nonEmptyCount, "Non-empty rank out of range")
    var position = 0
    var remaining = rank
    var rows = 0
    var step = _topStep
    let n = _order.count
    while step > 0 {
      let next = position &+ step
      if next <= n {
        let node = _fenwick[next]
        let nonEmpty = _nonEmpty(node)
        if nonEmpty <= remaining {
          position = next
          remaining &-= nonEmpty
          rows &+= node.count
        }
      }
      step &>>= 1
    }
    let block = _blocks[Int(_order[position])]
    for slot in 0 ..< block.extents.count where _extent(block.extents[slot]) > 0 {
      if remaining == 0 { return rows &+ slot }
      remaining &-= 1
    }
    preconditionFailure("ExtentTree: non-empty counts are inconsistent")
  }
}
