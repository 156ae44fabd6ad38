extension ExtentTree {
  /// The heap bytes held by the tree's buffers, from their capacities
  /// (allocator overhead and headers beyond 32 bytes a buffer not included).
  /// The benchmark's `memory` scenario reports it per row.
  /// - Complexity: O(n/B).
  package var _heapBytes: Int {
    let header = 32
    var bytes = header &+ _blocks.capacity &* MemoryLayout<_Block>.stride
    for handle in _order {
      let block = _blocks[Int(handle)]
      bytes &+= header &+ block.ids.capacity &* MemoryLayout<ID>.stride
      bytes &+= header &+ block.extents.capacity &* MemoryLayout<Int32>.stride
    }
    bytes &+= header &+ _order.capacity &* 4 &+ header &+ _positions.capacity &* 4
    bytes &+= header &+ _fenwick.capacity &* MemoryLayout<_Summary>.stride
    // Dictionary: keys and values in separate arrays plus one bit a bucket.
    let buckets = _index.capacity == 0 ? 0 : Swift.max(1, (_index.capacity &* 4 &+ 2) / 3).nextPowerOfTwo
    bytes &+= header &+ buckets &* (MemoryLayout<ID>.stride &+ MemoryLayout<Int32>.stride) &+ buckets / 8
    return bytes
  }
}

extension Int {
  @usableFromInline
  internal var nextPowerOfTwo: Int {
    self <= 1 ? 1 : 1 << (Int.bitWidth &- (self &- 1).leadingZeroBitCount)
  }
}

extension LazyStackLayout {
  /// The heap bytes held by the layout's storage (see `ExtentTree._heapBytes`).
  /// - Complexity: O(n/B).
  package var _heapBytes: Int { _tree._heapBytes }
}
