extension ExtentTree {
  /// The heap bytes held by the tree's buffers, from their capacities
  /// (allocator overhead and headers beyond 32 bytes a buffer not included):
  /// every block's three buffers (four with roles), the block-level arrays, the id index and the exceptions.
  /// A buffer that blocks share (the estimated extents and chunk prefixes
  /// of `_Block.init(estimated:sharing:)`, from `_estimatedPool`) counts
  /// once, and so do the pool's buffers no block holds.
  /// The benchmark's `memory` scenario reports it per row.
  /// - Complexity: O(n/B).
  package var _heapBytes: Int {
    let header = 32
    var bytes = header &+ _blocks.capacity &* MemoryLayout<_Block>.stride
    var counted = Set<UnsafeRawPointer>()
    func once<Element>(_ buffer: ContiguousArray<Element>) -> Int {
      guard buffer.capacity > 0 else { return 0 }  // the shared empty array (a spare's)
      let address = buffer.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
      if let address, !counted.insert(address).inserted { return 0 }
      return header &+ buffer.capacity &* MemoryLayout<Element>.stride
    }
    for handle in _order {
      let block = _blocks[Int(handle)]
      if block.ids.capacity > 0 { bytes &+= header &+ block.ids.capacity &* MemoryLayout<ID>.stride }
      bytes &+= once(block.extents)
      bytes &+= once(block.chunks)
      if block.roles.capacity > 0 { bytes &+= header &+ block.roles.capacity }
      if block.extras.capacity > 0 { bytes &+= header &+ block.extras.capacity &* 8 }
      if block.kindVector.capacity > 0 { bytes &+= header &+ block.kindVector.capacity &* 8 }
    }
    bytes &+= header &+ _estimatedPool.capacity &* MemoryLayout<_EstimatedBuffers>.stride
    for entry in _estimatedPool { bytes &+= once(entry.extents) &+ once(entry.chunks) }
    bytes &+= header &+ _order.capacity &* 4 &+ header &+ _positions.capacity &* 4
    bytes &+= header &+ _fenwick.capacity &* MemoryLayout<_Summary>.stride
    if let kinds = _kinds { bytes &+= header &* 2 &+ (kinds.nodes.capacity &+ kinds.total.capacity) &* 8 &+ 4 * 256 * 8 }
    if _roleFenwick.capacity > 0 { bytes &+= header &+ _roleFenwick.capacity &* MemoryLayout<Int>.stride }
    bytes &+= _index.heapBytes
    bytes &+= _nextIndex?.heapBytes ?? 0
    for dropped in _retired { bytes &+= dropped.heapBytes }
    bytes &+= header &+ _firstIDs.capacity &* MemoryLayout<Int>.stride
    bytes &+= _exceptions?.heapBytes ?? 0
    bytes &+= _exceptionCounts?.heapBytes ?? 0
    return bytes
  }
}

extension LazyStackLayout {
  /// The heap bytes held by the layout's storage (see `ExtentTree._heapBytes`).
  /// - Complexity: O(n/B).
  package var _heapBytes: Int { _tree._heapBytes }
}

extension LazyStackLayout {
  /// The heap bytes held by the exceptions of ordered ids (see `ExtentTree._ordered`).
  /// - Complexity: O(1).
  package var _exceptionHeapBytes: Int {
    (_tree._exceptions?.heapBytes ?? 0) &+ (_tree._exceptionCounts?.heapBytes ?? 0)
  }

  /// The bytes of dropped exception tables not given back yet (see
  /// `ExtentTree._retired`).
  /// - Complexity: O(t) for t such tables (at most three).
  package var _retiredTableBytes: Int {
    _tree._retired.reduce(0) { $0 &+ ($1.isIndex ? 0 : $1.heapBytes) }
  }
}

extension LazyStackLayout {
  /// The hash index of unordered ids: its entries, the entries from which
  /// a larger one is filled (`ExtentTree._reserveIndex`), and whether one
  /// is being filled or the one it replaced is being released; zeros
  /// while the ids are ordered.
  /// - Complexity: O(1).
  package var _idIndexGrowth: (entries: Int, migrationStart: Int, growing: Bool) {
    guard _tree._hasIndex else { return (0, 0, false) }
    return (_tree._index.count, _tree._index.migrationStart, _tree._nextIndex != nil || _tree._retired.contains { $0.isIndex })
  }
}

extension LazyStackLayout {
  /// The number of blocks the rows are stored in.
  /// - Complexity: O(1).
  package var _blockCount: Int { _tree.blockCount }
}
