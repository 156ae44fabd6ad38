extension ExtentTree {
  /// The number of nodes of the block-level Fenwick tree: the leading empty
  /// nodes (`_lead`) and one a block.
  @inlinable @inline(__always)
  package var _fenwickSize: Int { _fenwick.count &- 1 }

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
    _positions.append(contentsOf: repeatElement(-1, count: _blocks.count))
    _fenwick.removeAll(keepingCapacity: true)
    _fenwick.append(contentsOf: repeatElement(_Summary(), count: size &+ 1))
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
              fenwick[lead &+ p &+ 1] += s
            }
            // Push every node into its parent, bottom up: linear time.
            for i in 1 ... Swift.max(1, size) where i <= size {
              let parent = i &+ (i & -i)
              if parent <= size {
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

  /// Adds `delta` to Fenwick node `index` (1-based, counting the leading
  /// nodes) and the nodes above it; `_total` is left alone.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickNodeAdd(_ delta: _Summary, at index: Int) {
    var i = index
    let n = _fenwickSize
    _fenwick.withUnsafeMutableBufferPointer { fenwick in
      while i <= n {
        fenwick[i] += delta
        i &+= i & -i
      }
    }
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
  }

  /// Subtracts `delta` from the summary of the block at `position`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _fenwickSubtract(_ delta: _Summary, at position: Int) {
    _fenwickNodeSubtract(delta, at: position &+ _lead &+ 1)
    _total -= delta
  }

  /// The summary of the first `index` Fenwick nodes (leading nodes included).
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func _fenwickNodePrefix(_ index: Int) -> _Summary {
    var result = _Summary()
    var i = index
    while i > 0 {
      result += _fenwick[i]
      i &= i &- 1
    }
    return result
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
    let i = _fenwick.count
    // Node i covers (i - lowbit(i), i]: the new block and the nodes before it in that range.
    var node = _fenwickNodePrefix(i &- 1)
    node -= _fenwickNodePrefix(i &- (i & -i))
    node += s
    _fenwick.append(node)
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
    var position = 0
    var step = _topStep
    let size = _fenwickSize
    _fenwick.withUnsafeBufferPointer { fenwick in
      while step > 0 {
        let next = position &+ step
        if next <= size && take(fenwick[next]) { position = next }
        step &>>= 1
      }
    }
    return position &- _lead
  }

  /// The largest power of two not above the Fenwick tree's size (the first
  /// step of every descent), or 0 when it is empty.
  @inlinable @inline(__always)
  package var _topStep: Int {
    let n = _fenwickSize
    return n == 0 ? 0 : 1 << (Int.bitWidth &- 1 &- n.leadingZeroBitCount)
  }
}
