// The rows of one grid or masonry section body (SPEC §13), in blocks: the
// storage `_GridLines` and `_MasonryLanes` share. Each keeps its own tree of
// block summaries over it and splices that tree where the blocks change
// shape (a split or a merge).

/// A sequence of rows in blocks of at most `2 * capacity` rows, each row an
/// extent in units and a lane (0..<256), with a Fenwick tree of the blocks'
/// row counts: row `i` is found in O(log(m/B) + 1), and an edit touches one
/// block plus the tree.
///
/// A block grows to twice the capacity before it is split into blocks of
/// `capacity`, and a block that falls below a quarter of it merges with a
/// neighbour that has room: the shape changes (`insert` and `remove` say
/// so) once in many edits, and the owner then splices its summary tree
/// where the blocks changed, in sequential passes over O(m/B) summaries
/// that read the new blocks' rows only. A body of `spareThreshold` blocks
/// or more keeps *spares*, empty blocks between blocks with rows (never
/// first or last): a split takes the nearest one within `spareReach`
/// positions instead (`_splitIntoSpare`), and the owner rewrites only
/// the leaves of the positions between.
@usableFromInline
package struct _LaneBlocks: Sendable, Equatable {
  /// Each block's extents, in units, by block position.
  @usableFromInline package var extents: ContiguousArray<ContiguousArray<Int32>>
  /// Each block's lanes (a grid's stay empty: its lanes follow from the
  /// index, SPEC L3).
  @usableFromInline package var lanes: ContiguousArray<ContiguousArray<UInt8>>
  /// The blocks' row counts, in a Fenwick tree by position.
  @usableFromInline package var counts: _FenwickTree<Int>
  /// The number of rows.
  @usableFromInline package var count: Int
  /// Rows a block is built with and split into.
  @usableFromInline package let capacity: Int
  /// Whether rows keep a lane of their own (masonry).
  @usableFromInline package let keepsLanes: Bool
  /// The empty blocks kept between blocks with rows (*spares*, never
  /// first or last; see `_split`).
  @usableFromInline package var spareCount: Int = 0

  /// The most lanes a section can have: a lane is kept in one byte (DESIGN
  /// §2). `LaneCount.count` clamps to it.
  @inlinable @inline(__always)
  package static var maxLanes: Int { 256 }

  /// The capacity a body of `rows` rows in `k` lanes is built with when
  /// none is given: `base` rows, or more once the body has over 2^16
  /// blocks of it, so a split or a merge, which streams the trees over
  /// every later block, never streams more than about 2^16 of them (at
  /// 100M rows in a masonry, 65k blocks, not 1.6M; a read's O(B) part
  /// grows with it). Bodies under 4M rows keep `base`.
  /// - Complexity: O(1).
  @inlinable
  package static func defaultCapacity(rows: Int, lanes k: Int, base: Int) -> Int {
    // Blocks of 4 while the internal checks are on, so that the tests'
    // small bodies split, merge and take spares.
    Swift.max(_internalChecksSwitch() ? 4 : base, k, rows &>> 16)
  }

  /// Blocks built from `extents` (and `lanes` when `keepsLanes`, one for
  /// each extent).
  /// - Complexity: O(m).
  @inlinable
  package init(extents source: some Collection<Int64>, lanes laneSource: [Int]?, capacity: Int) {
    precondition(capacity >= 1, "_LaneBlocks: capacity must be positive")
    self.capacity = capacity
    self.keepsLanes = laneSource != nil
    self.extents = []
    self.lanes = []
    self.count = source.count
    var block = ContiguousArray<Int32>()
    block.reserveCapacity(capacity)
    for e in source {
      block.append(Int32(truncatingIfNeeded: e))
      if block.count == capacity {
        extents.append(block)
        block.removeAll(keepingCapacity: true)
      }
    }
    if !block.isEmpty { extents.append(block) }
    if let laneSource {
      precondition(laneSource.count == count, "_LaneBlocks: one lane a row")
      var start = 0
      for b in extents {
        lanes.append(ContiguousArray(laneSource[start ..< start &+ b.count].lazy.map { UInt8(truncatingIfNeeded: $0) }))
        start &+= b.count
      }
    }
    counts = _FenwickTree()
    if extents.count >= Self.spareThreshold { _spreadSpares() }
    _rebuildCounts()
  }

  /// The number of block positions, spares included (the owners' trees
  /// have a leaf for each).
  @inlinable @inline(__always)
  package var blockCount: Int { extents.count }

  /// The number of blocks with rows.
  @inlinable @inline(__always)
  package var filledBlockCount: Int { extents.count &- spareCount }

  /// From this many blocks a body is built with spares: 4,096 (about
  /// 260k rows in blocks of 64), or 4 while the internal checks are on so
  /// that the tests reach them.
  @inlinable @inline(__always)
  package static var spareThreshold: Int { _internalChecksSwitch() ? 4 : 4096 }

  /// A spare after every this many blocks at a build: 16, or 4 while the
  /// internal checks are on (the tests' bodies are small).
  @inlinable @inline(__always)
  package static var spareGap: Int { _internalChecksSwitch() ? 4 : 16 }

  /// How far (in positions) a split looks each way for a spare, and the
  /// most blocks it moves over by one to bring it next to it.
  @inlinable @inline(__always)
  package static var spareReach: Int { 64 }

  /// Puts a spare after every `spareGap` blocks but the last (a build, on
  /// blocks without spares).
  /// - Complexity: O(m/B).
  @inlinable
  package mutating func _spreadSpares() {
    precondition(spareCount == 0, "_LaneBlocks: spreading spares twice")
    let n = extents.count
    var e = ContiguousArray<ContiguousArray<Int32>>()
    var l = ContiguousArray<ContiguousArray<UInt8>>()
    e.reserveCapacity(n &+ n / Self.spareGap)
    if keepsLanes { l.reserveCapacity(n &+ n / Self.spareGap) }
    for p in 0 ..< n {
      e.append(extents[p])
      if keepsLanes { l.append(lanes[p]) }
      if (p &+ 1) % Self.spareGap == 0 && p &+ 1 < n {
        e.append([])
        if keepsLanes { l.append([]) }
        spareCount &+= 1
      }
    }
    extents = e
    if keepsLanes { lanes = l }
  }

  /// Rebuilds the count tree from the blocks.
  /// - Complexity: O(m/B).
  @inlinable
  package mutating func _rebuildCounts() {
    // Room for an eighth more blocks, so the splits that follow do not copy
    // the arrays by block (the count tree's reserved before it is written).
    let room = _withRoom(extents.count)
    counts.reset(zeros: extents.count, room: room &- extents.count)
    let blocks = extents
    counts.build { tree in
      for (p, b) in blocks.enumerated() { tree[p &+ 1] = b.count }
    }
    if extents.capacity < room { extents.reserveCapacity(room) }
    if keepsLanes && lanes.capacity < room { lanes.reserveCapacity(room) }
  }

  /// The block holding row `i` and its slot there; `i == count` gives the
  /// end of the last block (or block 0, slot 0 when there is none).
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func locate(_ i: Int) -> (block: Int, slot: Int) {
    precondition(i >= 0 && i <= count, "_LaneBlocks: row \(i) out of range 0...\(count)")
    if i == count {
      return extents.isEmpty ? (0, 0) : (extents.count &- 1, extents[extents.count &- 1].count)
    }
    var before = 0
    let block = counts.descend { c in
      if before &+ c <= i { before &+= c; return true }
      return false
    }
    return (block, i &- before)
  }

  /// The rows before block `b`.
  /// - Complexity: O(log(m/B)).
  @inlinable @inline(__always)
  package func rows(before b: Int) -> Int { counts.prefix(b) }

  /// What a row whose extent is kind 0's estimate holds in a masonry
  /// body (`_MasonryLanes.estimate`, SPEC X2, K1): a change of that
  /// estimate then writes no row.
  @inlinable @inline(__always)
  package static var followsEstimate: Int64 { -1 }

  /// Row `i`'s stored extent, in units (`followsEstimate` for a masonry
  /// row whose extent is kind 0's estimate).
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func stored(at i: Int) -> Int32 {
    let l = locate(i)
    return extents[l.block][l.slot]
  }

  /// Row `i`'s lane (0 when rows keep none).
  /// - Complexity: O(log(m/B)).
  @inlinable
  package func lane(at i: Int) -> Int {
    guard keepsLanes else { return 0 }
    let l = locate(i)
    return Int(lanes[l.block][l.slot])
  }

  /// Every row's extent, in order.
  /// - Complexity: O(m).
  @inlinable
  package var allExtents: [Int64] {
    var result: [Int64] = []
    result.reserveCapacity(count)
    for b in extents { for e in b { result.append(Int64(e)) } }
    return result
  }

  /// Every row's lane, in order.
  /// - Complexity: O(m).
  @inlinable
  package var allLanes: [Int] {
    var result: [Int] = []
    result.reserveCapacity(count)
    for b in lanes { for j in b { result.append(Int(j)) } }
    return result
  }

  /// The runs of rows whose lanes repeat every `k` rows, and the rows
  /// whose lanes differ from their run's (SPEC C1: what a masonry
  /// snapshot holds; see `LayoutSnapshot.MasonrySection`). The first run
  /// starts at row 0 with the lanes of rows 0..<k (past the last row, the
  /// round robin's). A row whose lane differs from its run's starts a run
  /// when it and the 2k - 1 rows after it exist and repeat every k rows
  /// (rows j..<j+k have the lanes of rows j+k..<j+2k); otherwise it is
  /// listed. A masonry whose rows took their lanes together at one
  /// estimate is one run; rows placed after others were measured
  /// (appended, re-flowed) are listed among the measured ones, and repeat
  /// again after them (a run).
  /// - Complexity: O(m + k l) for m rows and l of them not in their run.
  @inlinable
  package func masonryRuns(lanes k: Int) -> (runs: [(start: Int, lanes: [Int])], listed: [Int]) {
    var all: [UInt8] = []
    all.reserveCapacity(count)
    for b in lanes { all.append(contentsOf: b) }
    let m = all.count
    var pattern = (0 ..< k).map { $0 < m ? Int(all[$0]) : $0 }
    var runs = [(start: 0, lanes: pattern)]
    var listed: [Int] = []
    var phase = 0
    for j in 0 ..< m {
      if Int(all[j]) != pattern[phase] {
        if j &+ 2 &* k <= m && (0 ..< k).allSatisfy({ all[j &+ $0] == all[j &+ k &+ $0] }) {
          pattern = (0 ..< k).map { Int(all[j &+ $0]) }
          runs.append((j, pattern))
          phase = 0
        } else {
          listed.append(j)
        }
      }
      phase = phase &+ 1 == k ? 0 : phase &+ 1
    }
    return (runs, listed)
  }

  /// How an insert changed the blocks' shape.
  @usableFromInline
  package enum _Split: Equatable, Sendable {
    /// No split: the block took the rows.
    case none
    /// The block split into pieces spliced in its place: the positions
    /// after it moved by the pieces' number less one.
    case spliced
    /// The block split in two, and the nearest spare made room: the
    /// blocks of `span` between them moved over by one position, the
    /// positions outside it hold what they held. `sources[q]` is the
    /// position before the split of the block now at `span.lowerBound + q`,
    /// or -1 for the two halves.
    case shifted(span: Range<Int>, sources: [Int])
  }

  /// How a removal changed the blocks' shape (a block emptied or merged).
  @usableFromInline
  package enum _Reshape: Equatable, Sendable {
    /// The blocks at `old` were replaced by those at `new`: the positions
    /// after them moved by the difference.
    case spliced(old: Range<Int>, new: Range<Int>)
    /// The positions stayed: the blocks of `span` that emptied or merged
    /// into the one before them left spares where they were. `sources[q]`
    /// is the position before the removal of the block now at
    /// `span.lowerBound + q` when neither its rows nor its place changed,
    /// else -1.
    case shifted(span: Range<Int>, sources: [Int])
  }

  /// Inserts rows at `i`, all in one block (the block that holds row `i`,
  /// or the last); splits that block when it passes twice the capacity.
  /// Returns the block that took them (its position before any split)
  /// and how the blocks changed shape.
  /// - Complexity: O(r + B) for r rows, plus O(m/B) when a split finds no
  ///   spare within `spareReach` positions (O(B + spareReach) when it does).
  @inlinable
  package mutating func insert(extents new: some Collection<Int64>, lanes newLanes: [Int]?, at i: Int)
    -> (block: Int, split: _Split)
  {
    precondition(newLanes == nil || newLanes!.count == new.count, "_LaneBlocks: one lane a row")
    guard !new.isEmpty else { return (0, .none) }
    if extents.isEmpty {
      extents.append([])
      if keepsLanes { lanes.append([]) }
      counts.reset(zeros: 1)
    }
    let (b, slot) = locate(i)
    extents[b].insert(contentsOf: new.lazy.map { Int32(truncatingIfNeeded: $0) }, at: slot)
    if keepsLanes {
      lanes[b].insert(contentsOf: (newLanes ?? []).lazy.map { UInt8(truncatingIfNeeded: $0) }, at: slot)
    }
    count &+= new.count
    if extents[b].count > 2 &* capacity {
      if let shifted = _splitIntoSpare(b) { return (b, shifted) }
      _split(b)
      return (b, .spliced)
    }
    counts.add(new.count, at: b &+ 1)
    return (b, .none)
  }

  /// The position of the spare nearest to `b` within `spareReach`, or nil.
  /// - Complexity: O(spareReach).
  @inlinable
  package func _nearestSpare(to b: Int) -> Int? {
    let n = extents.count
    for d in 1 ... Self.spareReach {
      if b &+ d < n &- 1 && extents[b &+ d].isEmpty { return b &+ d }
      if b &- d > 0 && extents[b &- d].isEmpty { return b &- d }
      if b &+ d >= n &- 1 && b &- d <= 0 { break }
    }
    return nil
  }

  /// Splits block `b` in two halves into the nearest spare, if one is
  /// within reach: the blocks between move over by one position (their
  /// rows are not copied), and only the span's leaves of the count tree
  /// are rewritten. Returns nil (nothing done) when no spare is near.
  /// - Complexity: O(B + spareReach log(m/B)).
  @inlinable
  package mutating func _splitIntoSpare(_ b: Int) -> _Split? {
    // (A block that took many rows at once needs more than two pieces.)
    guard spareCount > 0, extents[b].count <= 4 &* capacity, let spare = _nearestSpare(to: b) else { return nil }
    let whole = extents[b]
    let half = whole.count / 2
    let first = ContiguousArray(whole[..<half])
    let second = ContiguousArray(whole[half...])
    var firstLanes = ContiguousArray<UInt8>()
    var secondLanes = ContiguousArray<UInt8>()
    if keepsLanes {
      firstLanes = ContiguousArray(lanes[b][..<half])
      secondLanes = ContiguousArray(lanes[b][half...])
    }
    let span: Range<Int>
    var sources: [Int] = []
    if spare > b {
      // [b, b+1 ..< spare, spare] -> [first, second, b+1 ..< spare]
      span = b ..< spare &+ 1
      var p = spare
      while p > b &+ 1 {
        extents.swapAt(p, p &- 1)
        if keepsLanes { lanes.swapAt(p, p &- 1) }
        p &-= 1
      }
      extents[b] = first
      extents[b &+ 1] = second
      if keepsLanes {
        lanes[b] = firstLanes
        lanes[b &+ 1] = secondLanes
      }
      sources = [-1, -1] + Array(b &+ 1 ..< spare)
    } else {
      // [spare, spare+1 ..< b, b] -> [spare+1 ..< b, first, second]
      span = spare ..< b &+ 1
      var p = spare
      while p < b &- 1 {
        extents.swapAt(p, p &+ 1)
        if keepsLanes { lanes.swapAt(p, p &+ 1) }
        p &+= 1
      }
      extents[b &- 1] = first
      extents[b] = second
      if keepsLanes {
        lanes[b &- 1] = firstLanes
        lanes[b] = secondLanes
      }
      sources = Array(spare &+ 1 ..< b) + [-1, -1]
    }
    spareCount &-= 1
    // The count tree's leaf for `b` did not count the new rows yet; the
    // span's other leaves move with their blocks.
    counts.replaceLeaves(span.lowerBound &+ 1 ..< span.upperBound &+ 1, with: span.map { extents[$0].count })
    return .shifted(span: span, sources: sources)
  }

  /// Splits block `b` into blocks of `capacity` rows; the count tree's
  /// tail is streamed (`replaceLeaves`), no other block is read.
  /// - Complexity: O(B + m/B), the O(m/B) part sequential.
  @inlinable
  package mutating func _split(_ b: Int) {
    let whole = extents[b]
    var pieces = ContiguousArray<ContiguousArray<Int32>>()
    var lanePieces = ContiguousArray<ContiguousArray<UInt8>>()
    var start = 0
    while start < whole.count {
      let end = Swift.min(whole.count, start &+ capacity)
      pieces.append(ContiguousArray(whole[start ..< end]))
      if keepsLanes { lanePieces.append(ContiguousArray(lanes[b][start ..< end])) }
      start = end
    }
    extents.replaceSubrange(b ... b, with: pieces)
    if keepsLanes { lanes.replaceSubrange(b ... b, with: lanePieces) }
    // The tree's leaf for the block did not count the new rows yet.
    counts.replaceLeaves(b &+ 1 ..< b &+ 2, with: pieces.map(\.count))
  }

  /// Removes the rows `range`. Returns the first and last block position
  /// whose rows changed, and, when the blocks changed shape (a block
  /// emptied or fell under a quarter), the positions `old` that were
  /// tidied (`_tidy(_:)`: the touched blocks and a neighbour on each side)
  /// and the positions `new` of the blocks that replace them; the count
  /// tree is current either way.
  /// - Complexity: O(r + B + (r/B) log(m/B)), plus O(m/B) sequential when
  ///   the shape changes.
  @inlinable
  package mutating func remove(_ range: Range<Int>)
    -> (blocks: ClosedRange<Int>, reshaped: _Reshape?)
  {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "_LaneBlocks: rows out of range")
    guard !range.isEmpty else { return (0 ... 0, nil) }
    let first = locate(range.lowerBound)
    var b = first.block
    var slot = first.slot
    var left = range.count
    var reshaped = false
    var emptied = 0  // blocks this removal empties
    while left > 0 {
      let before = extents[b].count
      let take = Swift.min(left, before &- slot)
      extents[b].removeSubrange(slot ..< slot &+ take)
      if keepsLanes { lanes[b].removeSubrange(slot ..< slot &+ take) }
      counts.add(-take, at: b &+ 1)
      left &-= take
      // Tidy when a block empties or first falls below a quarter (not at
      // every removal from a block that is already small).
      if before > 0 && extents[b].isEmpty { emptied &+= 1 }
      if before > 0 && (extents[b].isEmpty || (before >= capacity / 4 && extents[b].count < capacity / 4)) { reshaped = true }
      b &+= 1
      slot = 0
    }
    count &-= range.count
    let touched = first.block ... b &- 1
    guard reshaped else { return (touched, nil) }
    let old = Swift.max(0, touched.lowerBound &- 1) ..< Swift.min(extents.count, touched.upperBound &+ 2)
    return (touched, _tidy(old, touched: touched, emptied: emptied))
  }

  /// Merges a block at `positions` below a quarter of the capacity into the
  /// one before it when both fit in one, and tidies the empty blocks
  /// there (the rows of `touched` were just removed, emptying `emptied`
  /// blocks; the window's other empty blocks are spares). In a body of
  /// `spareThreshold` positions or more the positions stay where the
  /// blocks near the window can be laid out again with the empty ones as
  /// spares (`_rearrange`: `.shifted`); else the empty blocks, spares among
  /// them, are dropped and the count tree's tail is streamed (`.spliced`).
  /// Returns nil when no block empties or merges (a small block whose
  /// neighbours are too full stays as it is, and nothing is written).
  /// - Complexity: O(B w + w log(m/B)) for w positions when they stay,
  ///   O(B w + m/B) when they are spliced (the O(m/B) part sequential);
  ///   O(w) when nothing changes.
  @inlinable
  package mutating func _tidy(_ positions: Range<Int>, touched: ClosedRange<Int>, emptied: Int) -> _Reshape? {
    var e = ContiguousArray<ContiguousArray<Int32>>()
    var l = ContiguousArray<ContiguousArray<UInt8>>()
    // Each new block's position before, when neither its rows nor its
    // place changed; else -1.
    var origins: [Int] = []
    for p in positions where !extents[p].isEmpty {
      if let last = e.last, (last.count < capacity / 4 || extents[p].count < capacity / 4),
        last.count &+ extents[p].count <= capacity
      {
        e[e.count &- 1].append(contentsOf: extents[p])
        if keepsLanes { l[l.count &- 1].append(contentsOf: lanes[p]) }
        origins[origins.count &- 1] = -1
      } else {
        e.append(extents[p])
        if keepsLanes { l.append(lanes[p]) }
        origins.append(touched.contains(p) ? -1 : p)
      }
    }
    let empties = positions.reduce(0) { $0 &+ (extents[$1].isEmpty ? 1 : 0) }
    // Without a merge or a block emptied now, the blocks are the ones there already.
    guard e.count < positions.count &- empties || emptied > 0 else { return nil }
    if extents.count >= Self.spareThreshold,
       let shifted = _rearrange(positions, blocks: e, lanes: l, origins: origins, emptied: emptied) {
      return shifted
    }
    spareCount &-= empties &- emptied  // the splice drops the spares in its window too
    extents.replaceSubrange(positions, with: e)
    if keepsLanes { lanes.replaceSubrange(positions, with: l) }
    counts.replaceLeaves(positions.lowerBound &+ 1 ..< positions.upperBound &+ 1, with: e.map(\.count))
    return .spliced(old: positions, new: positions.lowerBound ..< positions.lowerBound &+ e.count)
  }

  /// Lays out the positions of `window` widened by 8, 32 or 128 on each
  /// side (the narrowest that fits) again:
  /// the blocks there, the window's replaced by `blocks` (with `lanes`
  /// and their `origins`; `emptied` of the window's empty blocks were
  /// emptied now, the others are spares), in order, with the empty positions left over
  /// spread among them as spares: an empty position after every `gap`
  /// blocks, so none is first or last in the span, at an end of the body,
  /// or next to another. Returns nil (nothing written) when more than a
  /// quarter of the widest span would be empty.
  /// - Complexity: O(w log(m/B)) for a span of w ≤ 257 + window positions.
  @inlinable
  package mutating func _rearrange(
    _ window: Range<Int>, blocks: ContiguousArray<ContiguousArray<Int32>>,
    lanes newLanes: ContiguousArray<ContiguousArray<UInt8>>, origins: [Int], emptied: Int
  ) -> _Reshape? {
    let n = extents.count
    // The narrowest span of radius 8, 32 or 128 around the window whose
    // empty positions would be a quarter at most.
    var radius = 8
    var span = window
    while true {
      span = Swift.max(0, window.lowerBound &- radius) ..< Swift.min(n, window.upperBound &+ radius)
      let outside = span.reduce(0) { $0 &+ (!window.contains($1) && !extents[$1].isEmpty ? 1 : 0) }
      if (span.count &- outside &- blocks.count) &* 4 <= span.count { break }
      guard radius < 128, span.count < n else { return nil }
      radius &*= 4
    }
    // The span's blocks in order, each with its position before (or -1).
    var order: [(extents: ContiguousArray<Int32>, lanes: ContiguousArray<UInt8>, origin: Int)] = []
    for p in span.lowerBound ..< window.lowerBound where !extents[p].isEmpty {
      order.append((extents[p], keepsLanes ? lanes[p] : [], p))
    }
    for q in 0 ..< blocks.count { order.append((blocks[q], keepsLanes ? newLanes[q] : [], origins[q])) }
    for p in window.upperBound ..< span.upperBound where !extents[p].isEmpty {
      order.append((extents[p], keepsLanes ? lanes[p] : [], p))
    }
    let empty = span.count &- order.count
    guard empty &* 4 <= span.count, !order.isEmpty else { return nil }
    let before = span.reduce(0) { $0 &+ (extents[$1].isEmpty ? 1 : 0) }
    let gap = order.count / (empty &+ 1)  // at least 3: a quarter at most is empty
    var sources: [Int] = []
    sources.reserveCapacity(span.count)
    var next = 0
    var placed = 0
    for p in span {
      if placed < empty && next > 0 && next % gap == 0 && next / gap > placed {
        extents[p] = []
        if keepsLanes { self.lanes[p] = [] }
        sources.append(-1)
        placed &+= 1
        continue
      }
      let block = order[next]
      extents[p] = block.extents
      if keepsLanes { self.lanes[p] = block.lanes }
      sources.append(block.origin)
      next &+= 1
    }
    precondition(next == order.count && placed == empty, "_LaneBlocks: a span laid out wrong")
    spareCount &+= empty &- (before &- emptied)  // (the blocks emptied now were no spares)
    counts.replaceLeaves(span.lowerBound &+ 1 ..< span.upperBound &+ 1, with: span.map { extents[$0].count })
    return .shifted(span: span, sources: sources)
  }
}
