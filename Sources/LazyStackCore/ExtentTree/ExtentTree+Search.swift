// Over 600 lines, on purpose: offset -> row and row -> offset, ranks and
// selects, each a descent of the same Fenwick tree with the same checked
// guess and chunk-prefix scan (HowItWorks); apart they would repeat the
// descent's helpers.

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

  /// The block at `position` and the summary of the blocks before it, for
  /// a search by `metric` (a summary's share of the searched quantity) for
  /// `target`: starting from the block a proportional guess names (`guess`),
  /// one Fenwick prefix (its loads do not depend on each other, unlike a
  /// descent's) and at most two steps to a neighbouring block. `nil` when
  /// the guess is farther off (the caller descends).
  ///
  /// The block found holds the target: `metric(before) <= target <
  /// metric(before) + metric(block)`.
  /// - Complexity: O(log(n/B)).
  @inlinable @inline(__always)
  package func _guessBlock(
    _ guess: Int, target: Int64, metric: (_Summary) -> Int64
  ) -> (position: Int, before: _Summary, block: _Summary)? {
    let n = _order.count
    var position = Swift.min(Swift.max(guess, 0), n &- 1)
    var before = _fenwickPrefix(position)
    var block = _withBlock(handle: Int(_order[position])) { $0.pointee.summary }
    for _ in 0 ..< 3 {
      let start = metric(before)
      if target < start {
        guard position > 0 else { return nil }
        position &-= 1
        block = _withBlock(handle: Int(_order[position])) { $0.pointee.summary }
        before -= block
      } else if target >= start &+ metric(block) {
        guard position &+ 1 < n else { return nil }
        before += block
        position &+= 1
        block = _withBlock(handle: Int(_order[position])) { $0.pointee.summary }
      } else {
        return (position, before, block)
      }
    }
    return nil
  }

  /// Finds the block and slot of row `index`: a proportional guess checked
  /// (`_guessBlock`: exact while blocks hold similar numbers of rows), else a
  /// Fenwick descent on counts. `index == count` gives the end of the last
  /// block.
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B)).
  @inlinable @inline(__always)
  package func _locate(_ index: Int) -> _Location {
    let blocks = _order.count
    if blocks > 1 && index < count {
      // index < 2^31 and the scale <= 2^32: no overflow.
      let guess = Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: index) &* _rowGuessScale) >> 32)
      if let hit = _guessBlock(guess, target: Int64(index), metric: { Int64($0.count) }) {
        return _Location(position: hit.position, slot: index &- hit.before.count, before: hit.before)
      }
    }
    var remaining = index
    var before = _Summary()
    let position = _descend { node in
      guard node.count <= remaining else { return false }
      remaining &-= node.count
      before += node
      return true
    }
    let n = _order.count
    if position == n && n > 0 {
      // index == count: the end of the last block.
      let last = _blocks[Int(_order[n &- 1])].summary
      before -= last
      return _Location(position: n &- 1, slot: last.count, before: before)
    }
    return _Location(position: position, slot: remaining, before: before)
  }

  /// Calls `body` with a pointer to the block with `handle`, so reading a
  /// block never copies it (a copy would retain and release its buffers).
  @inlinable @inline(__always)
  package func _withBlock<R>(handle: Int, _ body: (UnsafePointer<_Block>) -> R) -> R {
    _blocks.withUnsafeBufferPointer { body($0.baseAddress.unsafelyUnwrapped + handle) }
  }

  /// The stored extent (`-1`: estimated) of the row at `location`.
  @inlinable @inline(__always)
  package func _storedExtent(at location: _Location) -> Int32 {
    _withBlock(handle: Int(_order[location.position])) { $0.pointee.extents[location.slot] }
  }

  /// The id and stored extent of the row at `location`.
  @inlinable @inline(__always)
  package func _row(at location: _Location) -> (id: ID, stored: Int32) {
    _withBlock(handle: Int(_order[location.position])) { ($0.pointee.ids[location.slot], $0.pointee.extents[location.slot]) }
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
    return _withBlock(handle: Int(_order[l.position])) { $0.pointee.ids[l.slot] }
  }

  /// The extent of row `index`, in units (the estimate if it is unmeasured).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package func extent(at index: Int) -> Int64 {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let l = _locate(index)
    return _extent(ofStored: _storedExtent(at: l), at: l)
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
    if _slowPath(_kinds != nil) { return _kindedStart(at: l) }
    return _pitch(l.before) &+ _withBlock(handle: Int(_order[l.position])) { _slotPitchPrefix($0, l.slot) }
  }

  /// The start (relative to the leading inset) and extent of row `index`.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable @inline(__always)
  package func span(_ index: Int) -> (start: Int64, extent: Int64) {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    let l = _locate(index)
    if _slowPath(_kinds != nil) { return _kindedSpan(at: l) }
    return _plainSpan(at: l)
  }

  /// `span(_:)` of the row at `l` in a tree without kinds.
  @inlinable @inline(__always)
  package func _plainSpan(at l: _Location) -> (start: Int64, extent: Int64) {
    _withBlock(handle: Int(_order[l.position])) { block in
      (_pitch(l.before) &+ _slotPitchPrefix(block, l.slot), _extent(ofStored: block.pointee.extents[l.slot]))
    }
  }

  /// The sum of the pitches of slots `0 ..< slot` of the block at `block`:
  /// whole chunks from one chunk prefix, then at most 7 slots.
  @inlinable @inline(__always)
  package func _slotPitchPrefix(_ block: UnsafePointer<_Block>, _ slot: Int) -> Int64 {
    let whole = slot >> ExtentTree._chunkShift
    let packed = whole == 0 ? 0 : block.pointee.chunks.withUnsafeBufferPointer { $0[whole &- 1] }
    var (measured, estimated) = ExtentTree._unpackChunk(packed)
    let (m, e) = block.pointee.extents.withUnsafeBufferPointer { ExtentTree._sum($0, (whole << ExtentTree._chunkShift) ..< slot) }
    measured &+= m
    estimated &+= e
    return measured &+ Int64(estimated) &* estimate &+ Int64(slot) &* spacing
  }

  /// The measured sum and the number of estimated slots in `range`,
  /// branch-free so the loop pipelines (and vectorizes where it can).
  @inlinable @inline(__always)
  package static func _sum(_ extents: UnsafeBufferPointer<Int32>, _ range: Range<Int>) -> (Int64, Int) {
    var measured: Int64 = 0
    var estimated = 0
    for i in range {
      let e = extents[i]
      measured &+= Int64(e & ~(e >> 31))            // max(e, 0)
      estimated &+= Int(UInt32(bitPattern: e) >> 31)  // 1 when e == -1
    }
    return (measured, estimated)
  }

  /// The number of slots scanned as one chunk by the in-block searches.
  @inlinable @inline(__always)
  package static var _chunk: Int { 1 << _chunkShift }

  /// `log2(_chunk)`.
  @inlinable @inline(__always)
  package static var _chunkShift: Int { 3 }

  /// The first row whose pitch prefix *after* it exceeds `threshold`:
  /// the smallest `i` with `pitchPrefix(i + 1) > threshold`, or `nil` if
  /// `threshold >= totalPitch`.
  ///
  /// This is the tree's one offset search; its five names are one descent
  /// at five call costs, not five searches:
  /// - `firstRow(withPitchPrefixAfterAbove:)`: the row index alone;
  /// - `_firstRowSpan`: with the row's start, extent and place (a call);
  /// - `_firstRowSpanInline`: the same, inlined into a hot caller (no copy
  ///   of the tree's 256 bytes to pass it to a call);
  /// - `_plainFirstRowSpan`: its body for a tree without kinds, with no
  ///   call in it at all (the scroll frame's, `_rows(intersecting:_:)`);
  /// - `_kindedFirstRowSpan` (+Kinds): its body with kinds (a search that
  ///   adds each kind's estimated rows a level).
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func firstRow(withPitchPrefixAfterAbove threshold: Int64) -> Int? {
    _firstRowSpan(withPitchPrefixAfterAbove: threshold)?.row
  }

  /// A row as a descent by offset finds it (`_firstRowSpan`): its index,
  /// start (pitch prefix) and extent, and where it lives (its block's
  /// position, its slot, and the block's start), before its id is read. A
  /// caller reads its id or stored state (`rowInfo(found:)`), walks its
  /// block, or asks about its block, without another descent.
  ///
  /// The tree describes a row in three ways, each for one kind of search:
  /// `_Location` (a row found by index: its block and the summary before
  /// it), `_RowSpan` (found by offset), and `_RowInfo` (either, described
  /// with its id and stored extent).
  @usableFromInline
  package struct _RowSpan: Sendable {
    @usableFromInline package var row: Int
    @usableFromInline package var start: Int64
    @usableFromInline package var extent: Int64
    @usableFromInline package var position: Int
    @usableFromInline package var slot: Int
    @usableFromInline package var blockStart: Int64

    @inlinable @inline(__always)
    package init(row: Int, start: Int64, extent: Int64, position: Int, slot: Int, blockStart: Int64) {
      self.row = row
      self.start = start
      self.extent = extent
      self.position = position
      self.slot = slot
      self.blockStart = blockStart
    }
  }

  /// How far a walk from a found row through its block goes before it
  /// gives up and the caller searches: 64 rows, about a viewport's worth,
  /// in cache since the search that found the row.
  @inlinable @inline(__always)
  package static var _walkLimit: Int { 64 }

  /// What a walk from a found row through its block for a measured row
  /// (T3) finds.
  @usableFromInline
  package enum _WalkResult: Sendable {
    /// The measured row the walk looked for.
    case found(_RowInfo)
    /// No row the walk looked at is measured, and it looked at every row
    /// that counts.
    case noMeasuredRow
    /// The walk reached its block's edge or `_walkLimit` rows first: the
    /// caller searches.
    case gaveUp
  }

  /// Whether the rows that intersect `[low, high)` (relative to the leading
  /// inset) are all in `span`'s block and none of them is measured: the
  /// window lies strictly inside the block and the block has no measured
  /// row. `false` says nothing (the caller searches).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func _blockHoldsNoMeasuredRow(_ span: _RowSpan, from low: Int64, to high: Int64) -> Bool {
    _kinds == nil && _withBlock(handle: Int(_order[span.position])) { block in
      block.pointee.measuredCount == 0 && low > span.blockStart
        && high < span.blockStart &+ _pitch(block.pointee.summary) &- spacing
    }
  }

  /// The first measured row after the row `span` describes among the rows
  /// that start before `limit` (relative to the leading inset), by walking
  /// on through `span`'s block: `.noMeasuredRow` when every row from
  /// `span`'s to the limit is estimated, `.gaveUp` when the walk reaches the
  /// block's end or `_walkLimit` rows first.
  /// - Complexity: O(1) (at most `_walkLimit` slots, in cache since the
  ///   search that found `span`).
  @inlinable @inline(__always)
  package func _firstMeasuredRow(after span: _RowSpan, before limit: Int64) -> _WalkResult {
    if _slowPath(_kinds != nil) { return .gaveUp }
    let estimate = self.estimate
    let spacing = self.spacing
    return _withBlock(handle: Int(_order[span.position])) { block -> _WalkResult in
      block.pointee.extents.withUnsafeBufferPointer { extents -> _WalkResult in
        var start = span.start &+ span.extent &+ spacing
        var slot = span.slot &+ 1
        let end = Swift.min(block.pointee.rowCount, slot &+ ExtentTree._walkLimit)
        while slot < end {
          if start >= limit { return .noMeasuredRow }
          let e = extents[slot]
          if e >= 0 {
            return .found(_RowInfo(index: span.row &+ (slot &- span.slot), id: block.pointee.ids[slot], start: start,
                            extent: Int64(e), stored: e, position: span.position))
          }
          start &+= estimate &+ spacing
          slot &+= 1
        }
        return .gaveUp
      }
    }
  }

  /// The last measured row before the row `span` describes among the rows
  /// visible from `low` (relative to the leading inset: rows that end
  /// after it, and empty rows that start on it); of several measured rows
  /// that end at the same place (at the same distance from a point at or
  /// after their ends), the earliest. Walks back through `span`'s block:
  /// `.noMeasuredRow` when no visible row before `span`'s is measured,
  /// `.gaveUp` when the walk reaches the block's start or `_walkLimit` rows
  /// first (the caller searches).
  /// - Complexity: O(1) (at most `_walkLimit` slots).
  @inlinable @inline(__always)
  package func _lastMeasuredRow(before span: _RowSpan, visibleFrom low: Int64) -> _WalkResult {
    if _slowPath(_kinds != nil) { return .gaveUp }
    let estimate = self.estimate
    let spacing = self.spacing
    return _withBlock(handle: Int(_order[span.position])) { block -> _WalkResult in
      block.pointee.extents.withUnsafeBufferPointer { extents -> _WalkResult in
        var start = span.start
        var slot = span.slot
        let end = Swift.max(0, slot &- ExtentTree._walkLimit)
        var found: _RowInfo?
        while slot > end {
          slot &-= 1
          let e = extents[slot]
          let extent = e < 0 ? estimate : Int64(e)
          start &-= extent &+ spacing
          // Ends do not decrease: once a row is hidden, so are the earlier ones.
          guard start &+ extent > low || (extent == 0 && start == low) else {
            return found.map { .found($0) } ?? .noMeasuredRow
          }
          guard e >= 0 else { continue }
          if let kept = found, kept.start &+ kept.extent != start &+ extent { return .found(kept) }
          found = _RowInfo(index: span.row &- (span.slot &- slot), id: block.pointee.ids[slot], start: start,
                           extent: extent, stored: e, position: span.position)
        }
        return .gaveUp
      }
    }
  }

  /// `firstRow(withPitchPrefixAfterAbove:)` with the row's start (pitch
  /// prefix), extent and place, found in the same descent. `hint`, a block
  /// position the row is likely in or next to (such as the anchor row's),
  /// replaces the proportional guess; a wrong hint costs a check.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func _firstRowSpan(withPitchPrefixAfterAbove threshold: Int64, hint: Int = -1) -> _RowSpan? {
    _firstRowSpanInline(withPitchPrefixAfterAbove: threshold, hint: hint)
  }

  /// `_firstRowSpan`, inlined into its caller: the scroll frame's search,
  /// which would otherwise copy the whole tree (256 bytes) to the stack to
  /// pass it to the call.
  /// - Complexity: O(log(n/B) + B).
  @inlinable @inline(__always)
  package func _firstRowSpanInline(withPitchPrefixAfterAbove threshold: Int64, hint: Int = -1) -> _RowSpan? {
    guard count > 0 else { return nil }
    if _slowPath(_kinds != nil) { return _kindedFirstRowSpan(withPitchPrefixAfterAbove: threshold) }
    return _plainFirstRowSpan(withPitchPrefixAfterAbove: threshold, hint: hint)
  }

  /// `_firstRowSpanInline` of a tree without kinds, with no call in it: a
  /// caller that tests for kinds itself and sends them to a function of
  /// its own makes no call that takes the tree, so the compiler keeps no
  /// copy of it (256 bytes) for one.
  /// - Precondition: `_kinds == nil`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable @inline(__always)
  package func _plainFirstRowSpan(withPitchPrefixAfterAbove threshold: Int64, hint: Int = -1) -> _RowSpan? {
    guard count > 0 else { return nil }
    if threshold < 0 {
      let block = _blocks[Int(_order[0])]
      return _RowSpan(row: 0, start: 0, extent: _extent(ofStored: block.extents[0]), position: 0, slot: 0, blockStart: 0)
    }
    var accumulated: Int64 = 0
    var rows = 0
    var position = -1
    let total = totalPitch
    guard threshold < total else { return nil }
    if _order.count > 1 {
      // A proportional guess, checked (exact while blocks have similar pitches).
      let guess = hint >= 0 && hint < _order.count ? hint
        : Int(Double(threshold) * Double(_order.count) / Double(total))
      if let hit = _guessBlock(guess, target: threshold, metric: { _pitch($0) }) {
        position = hit.position
        accumulated = _pitch(hit.before)
        rows = hit.before.count
      }
    }
    if position < 0 {
      position = _descend { node in
        let pitch = _pitch(node)
        guard accumulated &+ pitch <= threshold else { return false }
        accumulated &+= pitch
        rows &+= node.count
        return true
      }
    }
    guard position < _order.count else { return nil }
    let estimate = self.estimate
    let spacing = self.spacing
    let chunk = ExtentTree._chunk
    let blockStart = accumulated
    return _withBlock(handle: Int(_order[position])) { block -> _RowSpan? in
      var slot = 0
      // The block's row count from the block itself: the buffers' headers
      // are cache lines of their own, and the loads of the chunk and of the
      // extents need not wait for them.
      let rowCount = block.pointee.rowCount
      // Skip the whole chunks that end at or before the threshold (a pitch
      // through a chunk's end never decreases from one chunk to the next).
      let full = Swift.min(rowCount >> ExtentTree._chunkShift, block.pointee.chunks.count)
      block.pointee.chunks.withUnsafeBufferPointer { chunks in
        let base = chunks.baseAddress
        @inline(__always) func through(_ c: Int) -> Int64 {
          let (measured, estimated) = ExtentTree._unpackChunk(base.unsafelyUnwrapped[c])
          return measured &+ Int64(estimated) &* estimate &+ Int64((c &+ 1) &* chunk) &* spacing
        }
        // `low`: the chunks that end at or before the threshold. A linear
        // scan of every second chunk (16 rows a step: independent loads
        // and one mispredicted branch at its end, faster here than a binary
        // search's chain of dependent loads), then the chunk it skipped.
        let target = threshold &- blockStart
        var c = 1
        while c < full && through(c) <= target { c &+= 2 }
        var low = Swift.min(c &- 1, full)
        if low < full && through(low) <= target { low &+= 1 }
        accumulated = blockStart &+ (low == 0 ? 0 : through(low &- 1))
        slot = low << ExtentTree._chunkShift
      }
      return block.pointee.extents.withUnsafeBufferPointer { extents -> _RowSpan? in
      while slot < rowCount {
        let e = extents[slot]
        let extent = e < 0 ? estimate : Int64(e)
        if accumulated &+ extent &+ spacing > threshold {
          return _RowSpan(row: rows &+ slot, start: accumulated, extent: extent, position: position, slot: slot,
                          blockStart: blockStart)
        }
        accumulated &+= extent &+ spacing
        slot &+= 1
      }
      preconditionFailure("ExtentTree: the block's rows end before the block's pitch")
      }
    }
  }

  /// `rowsStarting(before: limit)` for a `limit` after the start of the
  /// row `span` describes, by walking on from that row through its block
  /// (at most `_walkLimit` rows, in cache since the search that found
  /// `span`); past the block, or farther, a search.
  /// - Complexity: O(log(n/B) + B).
  @inlinable @inline(__always)
  package func rowsStarting(before limit: Int64, walkingFrom span: _RowSpan) -> Int {
    _walkedRowsStarting(before: limit, from: span) ?? rowsStarting(before: limit)
  }

  /// `rowsStarting(before:walkingFrom:)` when the walk from `span`'s row
  /// finds it, else `nil` (a limit at or before `span`'s start, a tree
  /// with kinds, a limit past the walk): the caller then searches, in a
  /// function of its own if it keeps the tree from being copied for the
  /// call (see `_plainFirstRowSpan`).
  /// - Complexity: O(B).
  @inlinable @inline(__always)
  package func _walkedRowsStarting(before limit: Int64, from span: _RowSpan) -> Int? {
    guard span.start < limit, _kinds == nil else { return nil }
    let estimate = self.estimate
    let spacing = self.spacing
    let walked: Int? = _withBlock(handle: Int(_order[span.position])) { block in
      let pitch = estimate &+ spacing
      if block.pointee.measuredCount == 0 && pitch > 0 {
        // Every row of the block has the same pitch: the rows from `span`'s
        // on that start before the limit are a quotient (checked, as the
        // division is in floating point), if they end inside the block.
        let distance = limit &- span.start  // > 0
        let remaining = block.pointee.rowCount &- span.slot
        let quotient = (Double(distance) / Double(pitch)).rounded(.up)
        // Far past the block (or too large for an `Int`): the search.
        guard quotient <= Double(remaining &+ 1) else { return nil }
        var k = Int(quotient)
        if Int64(k &- 1) &* pitch >= distance {
          k &-= 1
        } else if Int64(k) &* pitch < distance {
          k &+= 1
        }
        return k <= remaining ? span.row &+ k : nil
      }
      return block.pointee.extents.withUnsafeBufferPointer { extents -> Int? in
        var start = span.start
        var slot = span.slot
        let end = Swift.min(block.pointee.rowCount, slot &+ ExtentTree._walkLimit)
        while slot < end {
          if start >= limit { return span.row &+ (slot &- span.slot) }
          let e = extents[slot]
          start &+= (e < 0 ? estimate : Int64(e)) &+ spacing
          slot &+= 1
        }
        // The row after the walk starts at `start`: the answer if it is at
        // or past the limit (the next block's first row, or the end).
        return start >= limit ? span.row &+ (slot &- span.slot) : nil
      }
    }
    return walked
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

  /// The number of rows among `0 ..< index` that a metric counts: `weight`
  /// gives the count of a summary, `counts` whether one stored slot counts.
  /// One Fenwick prefix and a scan of one block, whatever the metric.
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable @inline(__always)
  package func _rank(before index: Int, weight: (_Summary) -> Int, counts: (Int32) -> Bool) -> Int {
    precondition(index >= 0 && index <= count, "Row index \(index) out of range 0...\(count)")
    if index == count { return weight(_total) }
    return _rank(at: _locate(index), weight: weight, counts: counts)
  }

  /// `_rank` before the row at `l`, found already: the scan of its block.
  /// - Complexity: O(B).
  @inlinable @inline(__always)
  package func _rank(at l: _Location, weight: (_Summary) -> Int, counts: (Int32) -> Bool) -> Int {
    _withBlock(handle: Int(_order[l.position])) { block in
      block.pointee.extents.withUnsafeBufferPointer { extents in
        var result = weight(l.before)
        for slot in 0 ..< l.slot where counts(extents[slot]) { result &+= 1 }
        return result
      }
    }
  }

  /// The row of rank `rank` (0-based, in row order) among the rows a metric
  /// counts (see `_rank`): one Fenwick descent on the metric, then a scan of
  /// one block.
  /// - Precondition: `0 <= rank < weight(total)`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable @inline(__always)
  package func _select(rank: Int, weight: (_Summary) -> Int, counts: (Int32) -> Bool) -> Int {
    precondition(rank >= 0 && rank < weight(_total), "ExtentTree: rank \(rank) out of range")
    var remaining = rank
    var rows = 0
    let position = _descend { node in
      let w = weight(node)
      guard w <= remaining else { return false }
      remaining &-= w
      rows &+= node.count
      return true
    }
    return _withBlock(handle: Int(_order[position])) { block in
      block.pointee.extents.withUnsafeBufferPointer { extents in
        for slot in 0 ..< extents.count where counts(extents[slot]) {
          if remaining == 0 { return rows &+ slot }
          remaining &-= 1
        }
        preconditionFailure("ExtentTree: block counts are inconsistent")
      }
    }
  }

  /// The number of non-empty rows among rows `0 ..< index`.
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func nonEmptyRows(before index: Int) -> Int {
    if _slowPath(_kinds != nil) {
      precondition(index >= 0 && index <= count, "Row index \(index) out of range 0...\(count)")
      return _kindedNonEmptyRows(before: index)
    }
    let estimate = self.estimate
    return _rank(before: index, weight: { _nonEmpty($0) }, counts: { $0 < 0 ? estimate > 0 : $0 > 0 })
  }

  /// The non-empty row of rank `rank` (0-based) in row order.
  /// - Precondition: `0 <= rank < nonEmptyCount`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func nonEmptyRow(rank: Int) -> Int {
    if _slowPath(_kinds != nil) {
      precondition(rank >= 0 && rank < nonEmptyCount, "ExtentTree: rank \(rank) out of range")
      return _kindedNonEmptyRow(rank: rank)
    }
    let estimate = self.estimate
    return _select(rank: rank, weight: { _nonEmpty($0) }, counts: { $0 < 0 ? estimate > 0 : $0 > 0 })
  }

  /// The number of measured rows among rows `0 ..< index` (SPEC T3).
  /// - Precondition: `0 <= index <= count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func measuredRows(before index: Int) -> Int {
    _rank(before: index, weight: { $0.measuredCount }, counts: { $0 >= 0 })
  }

  /// The number of measured rows before the row at `l` (found already).
  /// - Complexity: O(B).
  @inlinable
  package func measuredRows(at l: _Location) -> Int {
    _rank(at: l, weight: { $0.measuredCount }, counts: { $0 >= 0 })
  }

  /// The measured row of rank `rank` (0-based) in row order (SPEC T3).
  /// - Precondition: `0 <= rank < measuredCount`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func measuredRow(rank: Int) -> Int {
    _select(rank: rank, weight: { $0.measuredCount }, counts: { $0 >= 0 })
  }

  /// A row's index, id, start (relative to the leading inset), extent and
  /// stored extent (`-1` estimated, `-2` invalidated), from one lookup.
  @usableFromInline
  package struct _RowInfo: Sendable {
    @usableFromInline package var index: Int
    @usableFromInline package var id: ID
    @usableFromInline package var start: Int64
    @usableFromInline package var extent: Int64
    @usableFromInline package var stored: Int32
    /// The position of the row's block when it was found (a hint for later
    /// searches near it: `_guessBlock` checks it).
    @usableFromInline package var position: Int

    @inlinable @inline(__always)
    package init(index: Int, id: ID, start: Int64, extent: Int64, stored: Int32, position: Int) {
      self.index = index
      self.id = id
      self.start = start
      self.extent = extent
      self.stored = stored
      self.position = position
    }
  }

  /// The row `_firstRowSpan` found, described (its id and stored state read
  /// from its block).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func rowInfo(found span: _RowSpan) -> _RowInfo {
    _withBlock(handle: Int(_order[span.position])) { block in
      _RowInfo(index: span.row, id: block.pointee.ids[span.slot], start: span.start, extent: span.extent,
               stored: block.pointee.extents[span.slot], position: span.position)
    }
  }

  /// The row at `location`, described by one read of its block.
  /// - Complexity: O(B).
  @inlinable @inline(__always)
  package func rowInfo(at l: _Location) -> _RowInfo {
    if _slowPath(_kinds != nil) { return _kindedRowInfo(at: l) }
    return _withBlock(handle: Int(_order[l.position])) { block in
      let stored = block.pointee.extents[l.slot]
      return _RowInfo(index: l.before.count &+ l.slot, id: block.pointee.ids[l.slot],
                      start: _pitch(l.before) &+ _slotPitchPrefix(block, l.slot),
                      extent: _extent(ofStored: stored), stored: stored, position: l.position)
    }
  }

  /// Row `index` described (see `_RowInfo`).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable
  package func rowInfo(at index: Int) -> _RowInfo {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    return rowInfo(at: _locate(index))
  }

  /// Calls `body` with the id, start (relative to the leading inset) and
  /// extent of each row in `range`, in order: one search, then a walk.
  /// - Precondition: `range` lies in `0 ..< count`.
  /// - Complexity: O(log(n/B) + B + k) for k rows.
  @inlinable @inline(__always)
  package func forEachRow(in range: Range<Int>, _ body: (ID, Int64, Int64) -> Void) {
    guard !range.isEmpty else { return }
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "Rows \(range) out of range 0..<\(count)")
    let l = _locate(range.lowerBound)
    var position = l.position
    var slot = l.slot
    let kinded = _kinds != nil
    var start = kinded ? _kindedStart(at: l)
      : _pitch(l.before) &+ _withBlock(handle: Int(_order[position])) { _slotPitchPrefix($0, slot) }
    var remaining = range.count
    while remaining > 0 {
      _withBlock(handle: Int(_order[position])) { block in
        let rows = block.pointee.ids.count
        while slot < rows && remaining > 0 {
          let stored = block.pointee.extents[slot]
          let extent = kinded ? _extent(ofStored: stored, extra: Self._extra(block, slot)) : _extent(ofStored: stored)
          body(block.pointee.ids[slot], start, extent)
          start &+= extent &+ spacing
          slot &+= 1
          remaining &-= 1
        }
      }
      position &+= 1
      slot = 0
    }
  }

  /// Calls `body` with each place `k` of `rows` and the stored extent of
  /// row `rows[k]` (`< 0`: estimated): one search for the first row, then
  /// a walk forward over the blocks, so rows near each other cost O(1)
  /// each (the rows on screen, in index order).
  /// - Precondition: `rows` ascend and lie in `0 ..< count`.
  /// - Complexity: O(log(n/B) + B + v + g) for v rows spread over g blocks.
  @inlinable @inline(__always)
  package func _forEachStored(ofAscending rows: some BidirectionalCollection<Int>, _ body: (Int, Int32) -> Void) {
    guard let firstRow = rows.first, let lastRow = rows.last else { return }
    precondition(firstRow >= 0 && lastRow < count, "Rows out of range 0..<\(count)")
    let l = _locate(firstRow)
    var position = l.position
    var slot = l.slot
    var at = firstRow  // the row at `slot`
    for (k, row) in rows.enumerated() {
      var ahead = row &- at
      precondition(ahead >= 0, "ExtentTree: rows must ascend")
      while true {
        let stored: Int32? = _withBlock(handle: Int(_order[position])) { block in
          let blockRows = block.pointee.ids.count
          if slot &+ ahead < blockRows { return block.pointee.extents[slot &+ ahead] }
          ahead &-= blockRows &- slot
          return nil
        }
        if let stored {
          slot &+= ahead
          at = row
          body(k, stored)
          break
        }
        position &+= 1
        slot = 0
      }
    }
  }

  /// The row with `id` described (see `_RowInfo`), or `nil`.
  /// - Complexity: O(log(n/B) + B).
  @inlinable @inline(__always)
  package func rowInfo(of id: ID, hint: Int = -1) -> _RowInfo? {
    guard let l = _locate(id: id, hint: hint) else { return nil }
    return rowInfo(at: l)
  }
}
