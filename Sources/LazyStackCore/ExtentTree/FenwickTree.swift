/// What a Fenwick tree's nodes hold: a sum with a zero (`init()`).
@usableFromInline
package protocol _FenwickValue {
  init()
  static func += (lhs: inout Self, rhs: Self)
  static func -= (lhs: inout Self, rhs: Self)
}

extension Int: _FenwickValue {}

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

  /// Makes `size` zero leaves, keeping the allocation.
  /// - Complexity: O(size).
  @inlinable
  package mutating func reset(zeros size: Int) {
    nodes.removeAll(keepingCapacity: true)
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
