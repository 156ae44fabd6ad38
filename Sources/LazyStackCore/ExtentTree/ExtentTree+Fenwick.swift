extension ExtentTree {
  /// Rebuilds the handle positions and the block-level Fenwick tree from
  /// `_order` and the blocks, in linear time.
  /// - Complexity: O(n/B).
  @inlinable
  @inline(never)
  package mutating func _rebuildFenwick() {
    let blockCount = _order.count
    _positions.removeAll(keepingCapacity: true)
    _positions.append(contentsOf: repeatElement(-1, count: _blocks.count))
    _fenwick.removeAll(keepingCapacity: true)
    _fenwick.append(contentsOf: repeatElement(_Summary(), count: blockCount &+ 1))
    var total = _Summary()
    _positions.withUnsafeMutableBufferPointer { positions in
      _fenwick.withUnsafeMutableBufferPointer { fenwick in
        _order.withUnsafeBufferPointer { order in
          _blocks.withUnsafeBufferPointer { blocks in
            let base = blocks.baseAddress.unsafelyUnwrapped
            for p in 0 ..< blockCount {
              let handle = Int(order[p])
              positions[handle] = Int32(truncatingIfNeeded: p)
              let s = (base + handle).pointee.summary
              total += s
              let i = p &+ 1
              fenwick[i] += s
              let parent = i &+ (i & -i)
              if parent <= blockCount {
                let node = fenwick[i]
                fenwick[parent] += node
              }
            }
          }
        }
      }
    }
    _total = total
  }

  /// Adds `delta` to the summary of the block at `position`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickAdd(_ delta: _Summary, at position: Int) {
    var i = position &+ 1
    let n = _order.count
    while i <= n {
      _fenwick[i] += delta
      i &+= i & -i
    }
    _total += delta
  }

  /// Subtracts `delta` from the summary of the block at `position`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickSubtract(_ delta: _Summary, at position: Int) {
    var i = position &+ 1
    let n = _order.count
    while i <= n {
      _fenwick[i] -= delta
      i &+= i & -i
    }
    _total -= delta
  }

  /// The summary of the blocks at positions `0 ..< position`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func _fenwickPrefix(_ position: Int) -> _Summary {
    var result = _Summary()
    var i = position
    while i > 0 {
      result += _fenwick[i]
      i &= i &- 1
    }
    return result
  }

  /// The largest power of two not above the block count (the first step of
  /// every Fenwick descent), or 0 when there are no blocks.
  @inlinable @inline(__always)
  package var _topStep: Int {
    let n = _order.count
    return n == 0 ? 0 : 1 << (Int.bitWidth &- 1 &- n.leadingZeroBitCount)
  }
}
