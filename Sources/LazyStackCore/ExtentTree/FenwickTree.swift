/// What a Fenwick tree's nodes hold: a sum with a zero (`init()`).
@usableFromInline
package protocol _FenwickValue {
  init()
  static func += (lhs: inout Self, rhs: Self)
  static func -= (lhs: inout Self, rhs: Self)
}

extension Int: _FenwickValue {}

extension Int64: _FenwickValue {}

extension Int32: _FenwickValue {}

/// A Fenwick (binary indexed) tree over a sequence of leaves: node `i`
/// (1-based) holds the sum of the leaves `(i − lowbit(i), i]`, so a prefix
/// sum, an update and a descent by a running total each touch O(log m)
/// nodes for m leaves, and a leaf appended at the end costs O(log m).
///
/// `ExtentTree` keeps one over its blocks' summaries (`_fenwick`) and one,
/// node for node beside it, over their packed role counts
/// (`_roleFenwick`); the tree decides what a leaf is (its leading empty
/// nodes, `_lead`, included). An empty tree (no node at all) stands for a
/// tree not built yet.
@frozen @usableFromInline
package struct _FenwickTree<Value: _FenwickValue & Sendable>: Sendable {
  /// The nodes, with an unused zero at index 0 (so node `i` is `nodes[i]`).
  @usableFromInline package var nodes: ContiguousArray<Value>

  /// A tree that is not built: no node.
  /// - Complexity: O(1).
  @inlinable
  package init() {
    nodes = []
  }

  /// A tree of `size` zero leaves.
  /// - Complexity: O(size).
  @inlinable
  package init(zeros size: Int) {
    nodes = ContiguousArray(repeating: Value(), count: size &+ 1)
  }

  /// Whether the tree is not built (it has no node, not even the unused one).
  @inlinable @inline(__always)
  package var isEmpty: Bool { nodes.isEmpty }

  /// The number of leaves.
  @inlinable @inline(__always)
  package var size: Int { nodes.count &- 1 }

  /// The allocated nodes (for memory accounting).
  @inlinable
  package var capacity: Int { nodes.capacity }

  /// Node `i` (1-based): the sum of its range of leaves.
  @inlinable @inline(__always)
  package subscript(node i: Int) -> Value { nodes[i] }

  /// Makes `size` zero leaves, keeping the allocation, with room for
  /// `room` more leaves (reserved before the nodes are written: no copy).
  /// - Complexity: O(size).
  @inlinable
  package mutating func reset(zeros size: Int, room: Int = 0) {
    nodes.removeAll(keepingCapacity: true)
    nodes.reserveCapacity(size &+ room &+ 1)
    nodes.append(contentsOf: repeatElement(Value(), count: size &+ 1))
  }

  /// Builds the tree in place from its leaves: `setLeaves` writes each
  /// leaf's value into its node (1-based), then every node is added to its
  /// parent, bottom up, so each holds the sum of its range.
  /// - Complexity: O(m) for m leaves, plus `setLeaves`.
  @inlinable @inline(__always)
  package mutating func build(_ setLeaves: (UnsafeMutableBufferPointer<Value>) -> Void) {
    nodes.withUnsafeMutableBufferPointer { tree in
      setLeaves(tree)
      let size = tree.count &- 1
      for i in 1 ... Swift.max(1, size) where i <= size {
        let parent = i &+ (i & -i)
        if parent <= size {
          let node = tree[i]
          tree[parent] += node
        }
      }
    }
  }

  /// Adds `delta` to leaf `index` (1-based): to its node and the nodes above it.
  /// - Complexity: O(log m).
  @inlinable @inline(__always)
  package mutating func add(_ delta: Value, at index: Int) {
    var i = index
    nodes.withUnsafeMutableBufferPointer { tree in
      let n = tree.count &- 1
      while i <= n {
        tree[i] += delta
        i &+= i & -i
      }
    }
  }

  /// The sum of the first `count` leaves.
  /// - Complexity: O(log m).
  @inlinable @inline(__always)
  package func prefix(_ count: Int) -> Value {
    var result = Value()
    var i = count
    nodes.withUnsafeBufferPointer { tree in
      while i > 0 {
        result += tree[i]
        i &= i &- 1
      }
    }
    return result
  }

  /// Appends a leaf `value` at the end.
  /// - Complexity: O(log m).
  @inlinable
  package mutating func append(_ value: Value) {
    let i = nodes.count
    // Node i covers (i - lowbit(i), i]: the new leaf and the leaves before it in that range.
    var node = prefix(i &- 1)
    node -= prefix(i &- (i & -i))
    node += value
    nodes.append(node)
  }

  /// Replaces the leaves `range` (1-based) with `leaves`, keeping every
  /// node a sum of its range: the nodes from `range.lowerBound` on go back
  /// to their leaves, the leaves are spliced, and those nodes are summed
  /// again. The nodes before the range are left alone, and the passes are
  /// sequential, so a block split or merge in the middle of a list costs a
  /// few streams over the tree's tail instead of a rebuild from the blocks.
  /// - Complexity: O(m − range.lowerBound + leaves.count).
  @inlinable
  package mutating func replaceLeaves(_ range: Range<Int>, with leaves: some Collection<Value>) {
    Self._replaceLeaves(&nodes, stride: 1, range, with: leaves)
  }

  /// `replaceLeaves` over `nodes` whose nodes are `stride` values wide
  /// (node `i` is `nodes[i * stride ..< (i + 1) * stride]`, as in the kind
  /// tree), with `leaves.count` a multiple of `stride`.
  ///
  /// As many leaves as `range` holds are written in place instead when
  /// that is cheaper: each leaf's old value is read off its node, and the
  /// difference goes up its path, so a block that changes its rows but
  /// not the number of blocks costs O(log m) a leaf, not a stream.
  /// - Complexity: O(stride (m − range.lowerBound) + leaves.count), or
  ///   O(stride w log m) for w leaves replaced by as many.
  @inlinable
  package static func _replaceLeaves(
    _ nodes: inout ContiguousArray<Value>, stride s: Int, _ range: Range<Int>, with leaves: some Collection<Value>
  ) {
    precondition(range.lowerBound >= 1 && range.upperBound &* s <= nodes.count && leaves.count % s == 0,
                 "_FenwickTree: leaves out of range")
    let first = range.lowerBound
    let size = nodes.count / s &- 1
    if leaves.count == range.count &* s && range.count &* (Int.bitWidth &- size.leadingZeroBitCount) < size &- first {
      _overwriteLeaves(&nodes, stride: s, range, with: leaves)
      return
    }
    nodes.withUnsafeMutableBufferPointer { tree in
      let size = tree.count / s &- 1
      // Top down, each node from `first` on leaves its parent; then the
      // nodes before `first` whose parents lie after it (the prefix chain of
      // `first - 1`) leave theirs.
      var i = size
      while i >= first {
        Self._fold(tree, s, i, size, subtracting: true)
        i &-= 1
      }
      var j = first &- 1
      while j > 0 {
        Self._fold(tree, s, j, size, subtracting: true)
        j &= j &- 1
      }
    }
    nodes.replaceSubrange(first &* s ..< range.upperBound &* s, with: leaves)
    nodes.withUnsafeMutableBufferPointer { tree in
      let size = tree.count / s &- 1
      var j = first &- 1
      while j > 0 {
        Self._fold(tree, s, j, size, subtracting: false)
        j &= j &- 1
      }
      var i = first
      while i <= size {
        Self._fold(tree, s, i, size, subtracting: false)
        i &+= 1
      }
    }
  }

  /// The leaves `range` of `nodes` whose nodes are `stride` values wide:
  /// each its node less the nodes of its range below it.
  /// - Complexity: O(stride w log m) for w leaves.
  @inlinable
  package static func _leafValues(
    _ nodes: ContiguousArray<Value>, stride s: Int, _ range: Range<Int>
  ) -> ContiguousArray<Value> {
    var result = ContiguousArray<Value>()
    result.reserveCapacity(range.count &* s)
    nodes.withUnsafeBufferPointer { tree in
      for i in range {
        for e in 0 ..< s { result.append(_leafValue(tree, s, i, e)) }
      }
    }
    return result
  }

  /// Element `e` of leaf `i` of `tree` (nodes `s` values wide): node `i`
  /// less the nodes of its range below it (node `i` covers the leaves
  /// (i - lowbit(i), i]).
  /// - Complexity: O(log m).
  @inlinable @inline(__always)
  package static func _leafValue(_ tree: UnsafeBufferPointer<Value>, _ s: Int, _ i: Int, _ e: Int) -> Value {
    let low = i &- (i & -i)
    var value = tree[i &* s &+ e]
    var j = i &- 1
    while j > low {
      value -= tree[j &* s &+ e]
      j &-= j & -j
    }
    return value
  }

  /// `_replaceLeaves` for as many leaves as `range` holds: each leaf's old
  /// value is its node less the nodes of its range below it, and the
  /// difference goes to the node and every node above it.
  /// - Complexity: O(stride w log m) for w leaves.
  @inlinable
  package static func _overwriteLeaves(
    _ nodes: inout ContiguousArray<Value>, stride s: Int, _ range: Range<Int>, with leaves: some Collection<Value>
  ) {
    nodes.withUnsafeMutableBufferPointer { tree in
      let size = tree.count / s &- 1
      var source = leaves.startIndex
      for i in range {
        for e in 0 ..< s {
          let old = _leafValue(UnsafeBufferPointer(tree), s, i, e)
          var delta = leaves[source]
          delta -= old
          source = leaves.index(after: source)
          var u = i
          while u <= size {
            tree[u &* s &+ e] += delta
            u &+= u & -u
          }
        }
      }
    }
  }

  /// Adds node `i` to its parent (or subtracts it), when the parent exists.
  @inlinable @inline(__always)
  package static func _fold(
    _ tree: UnsafeMutableBufferPointer<Value>, _ s: Int, _ i: Int, _ size: Int, subtracting: Bool
  ) {
    let parent = i &+ (i & -i)
    guard parent <= size else { return }
    for e in 0 ..< s {
      let node = tree[i &* s &+ e]
      if subtracting { tree[parent &* s &+ e] -= node } else { tree[parent &* s &+ e] += node }
    }
  }

  /// The largest power of two not above the number of leaves (the first
  /// step of a descent), or 0 when there is none.
  @inlinable @inline(__always)
  package var topStep: Int {
    let n = size
    return n <= 0 ? 0 : 1 << (Int.bitWidth &- 1 &- n.leadingZeroBitCount)
  }

  /// One descent from the top: a node is passed when `take` accepts it, so
  /// `take` sees the passed nodes in leaf order and keeps the running totals
  /// its search needs. Returns how many leaves were passed.
  /// - Complexity: O(log m).
  @inlinable @inline(__always)
  package func descend(_ take: (Value) -> Bool) -> Int {
    var position = 0
    var step = topStep
    let size = self.size
    nodes.withUnsafeBufferPointer { tree in
      while step > 0 {
        let next = position &+ step
        if next <= size && take(tree[next]) { position = next }
        step &>>= 1
      }
    }
    return position
  }
}

extension _FenwickTree: Equatable where Value: Equatable {}
