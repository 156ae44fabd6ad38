import Foundation

// What the lane sections hold beside the tree, for the benchmark's memory
// figures and the soak (not API).

extension LazyStackLayout {
  /// The heap bytes held by the lane sections beside the tree (SPEC §13):
  /// each body's blocks of extents and lanes and its summary trees; 0 while
  /// every section is a list.
  /// - Complexity: O(n/B) for the blocks of lane sections.
  package var _laneHeapBytes: Int {
    guard let lanes = _laneBox?.value else { return 0 }
    let header = 32
    func bytes<Element>(_ buffer: ContiguousArray<Element>) -> Int {
      header &+ buffer.capacity &* MemoryLayout<Element>.stride
    }
    func blocks(_ b: _LaneBlocks) -> Int {
      var total = bytes(b.extents) &+ bytes(b.lanes) &+ bytes(b.counts.nodes)
      for e in b.extents where e.capacity > 0 { total &+= bytes(e) }  // (a spare's empty buffer is shared)
      for l in b.lanes where l.capacity > 0 { total &+= bytes(l) }
      return total
    }
    var total = header &+ bytes(lanes.sections) &+ bytes(lanes.corrections.nodes)
    for section in lanes.sections {
      if let g = section.grid { total &+= blocks(g.blocks) &+ bytes(g._summaries) &+ bytes(g._counts) }
      if let m = section.masonry {
        total &+= blocks(m.blocks) &+ bytes(m._pitches) &+ bytes(m._counts) &+ bytes(m.laneTotals)
      }
    }
    return total
  }
}

extension LazyStackLayout {
  /// The number of blocks of rows in the lane sections' bodies (the soak
  /// tells the inserts that split one from the others); 0 while every
  /// section is a list.
  /// - Complexity: O(s) for s sections.
  package var _laneBlockCount: Int {
    guard let lanes = _laneBox?.value else { return 0 }
    return lanes.sections.reduce(0) { $0 &+ ($1.grid?.blocks.filledBlockCount ?? $1.masonry?.blocks.filledBlockCount ?? 0) }
  }

  /// The number of masonry rows whose lanes differ from their run's, and
  /// the number of runs: what a snapshot lists (SPEC C1).
  /// - Complexity: O(w) for w masonry rows.
  package var _masonryRunsAndListedRows: (runs: Int, listed: Int) {
    guard let lanes = _laneBox?.value else { return (0, 0) }
    var total = (runs: 0, listed: 0)
    for section in lanes.sections {
      guard let m = section.masonry, m.count > 0 else { continue }
      let found = m.blocks.masonryRuns(lanes: m.k)
      total.runs &+= found.runs.count
      total.listed &+= found.listed.count
    }
    return total
  }
}
