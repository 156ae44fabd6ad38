// The lane structures' consistency checks: every summary equals the one
// computed from scratch. Called by this package's tests (and, once the
// layout keeps lanes, by its `_checkInvariants`), never by an app.

extension _LaneBlocks {
  /// Traps unless the counts and the block shapes agree.
  /// - Complexity: O(m).
  package func _checkInvariants() {
    precondition(counts.size == extents.count, "_LaneBlocks: count tree size")
    var total = 0
    for (p, b) in extents.enumerated() {
      precondition(!b.isEmpty, "_LaneBlocks: empty block \(p)")
      precondition(b.count <= 2 &* capacity, "_LaneBlocks: block \(p) holds \(b.count) rows")
      precondition(counts.prefix(p &+ 1) - counts.prefix(p) == b.count, "_LaneBlocks: count of block \(p)")
      if keepsLanes { precondition(lanes[p].count == b.count, "_LaneBlocks: lanes of block \(p)") }
      total &+= b.count
    }
    precondition(keepsLanes || lanes.isEmpty, "_LaneBlocks: lanes without masonry")
    precondition(total == count, "_LaneBlocks: count \(count), rows \(total)")
  }
}

extension _GridLines {
  /// Traps unless every node equals the one rebuilt from the blocks.
  /// - Complexity: O(k m).
  package func _checkInvariants() {
    blocks._checkInvariants()
    var fresh = self
    fresh._rebuildTree()
    precondition(fresh._leaves == _leaves, "_GridLines: leaves")
    precondition(fresh._counts == _counts, "_GridLines: node counts")
    precondition(fresh._summaries == _summaries, "_GridLines: node summaries")
  }
}

extension _MasonryLanes {
  /// Traps unless the Fenwick trees and the totals equal the ones rebuilt
  /// from the blocks.
  /// - Complexity: O(k m/B + m).
  package func _checkInvariants() {
    blocks._checkInvariants()
    precondition(blocks.keepsLanes, "_MasonryLanes: rows without lanes")
    var fresh = self
    fresh._rebuildTree()
    precondition(fresh._pitches == _pitches, "_MasonryLanes: pitch tree")
    precondition(fresh._counts == _counts, "_MasonryLanes: count tree")
    precondition(fresh.laneTotals == laneTotals, "_MasonryLanes: lane totals")
    precondition(blocks.allLanes.allSatisfy { $0 < k }, "_MasonryLanes: a lane out of range")
  }
}
