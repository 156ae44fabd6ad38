// Over 600 lines, on purpose: the kind table, the kinds' Fenwick tree
// and every read and change of them (a kind's rows, its estimate, the
// vectors of a block) must agree on one vector layout, written here.
//
// Kinds of rows and rows' own estimates (SPEC K1–K3): what an estimated
// row's extent is when it is not the layout's one estimate.
//
// A row's *extra* (`_Block.extras`, one word a slot, empty while every row
// of the block is of kind 0 without an own estimate) holds its kind (bits
// 0–7), whether it has an own estimate (bit 8) and that estimate in units
// (bits 32–63). The main sums (`_Summary`, the chunk prefixes) count every
// estimated row at kind 0's estimate; a second Fenwick tree, node for node
// beside the main one, sums per block a short vector of corrections (the
// *kind vector*, `_KindTable`), so a prefix is the main pitch plus the
// vector's correction, and a kind's estimate change is one number per kind
// at each node of a descent, never a pass over rows. A tree that never
// had a kind or an own estimate has no table (`_kinds == nil`) and takes
// none of these paths.

extension ExtentTree {
  /// The kinds in use, their estimates, and the Fenwick tree of kind
  /// vectors.
  ///
  /// A kind vector (a block's, a node's, or the total) holds, in order:
  /// the sum of the own estimates of the estimated rows that have one, their
  /// number, the number of those whose own estimate is 0; then for each
  /// *kind slot* `j` (a kind other than 0, numbered in order of first use)
  /// the number of its estimated rows without an own estimate, the sum of
  /// its measured rows' extents, and their number.
  ///
  /// A class, so that a tree without kinds carries one word for it and
  /// tests it without touching the table's buffers; trees share a table
  /// until one of them writes (`_writableKinds()` copies it first). Its
  /// fields are read and written without dynamic exclusivity checks: a
  /// writer holds the only reference (`_writableKinds()`), and no access
  /// overlaps another; the checks were a runtime call on every read of the
  /// totals.
  @usableFromInline
  package final class _KindTable: @unchecked Sendable {
    /// Per kind (256): its estimate in units, or `-1` while it has none (it
    /// uses kind 0's, the tree's `estimate`).
    @exclusivity(unchecked) @usableFromInline package var estimates: ContiguousArray<Int64>
    /// Per kind (256): its slot in the vectors, or `-1`.
    @exclusivity(unchecked) @usableFromInline package var slotOfKind: ContiguousArray<Int16>
    /// Per slot: its kind.
    @exclusivity(unchecked) @usableFromInline package var kindOfSlot: ContiguousArray<UInt8>
    /// Per slot: its kind's estimate now, in units (kind 0's when unset).
    @exclusivity(unchecked) @usableFromInline package var slotEstimates: ContiguousArray<Int64>
    /// Entries per vector: `3 + 3 * slot capacity`.
    @exclusivity(unchecked) @usableFromInline package var stride: Int
    /// Fenwick nodes of vectors, `stride` entries each, indexed like the main
    /// tree's nodes (node `i` at `i * stride`).
    @exclusivity(unchecked) @usableFromInline package var nodes: ContiguousArray<Int64>
    /// The sum of every block's vector.
    @exclusivity(unchecked) @usableFromInline package var total: ContiguousArray<Int64>
    /// What `total` adds to the main sums' pitch and non-empty count (the
    /// tree's `_refreshKindTotals` keeps them), so the tree's totals read
    /// them without a pass over the kinds.
    @exclusivity(unchecked) @usableFromInline package var pitchTotal: Int64 = 0
    @exclusivity(unchecked) @usableFromInline package var nonEmptyTotal: Int = 0
    /// Per kind (256): the estimate the caller gave, in units, or `-1`
    /// (none: the kind uses kind 0's). Kind 0's is the layout's.
    @exclusivity(unchecked) @usableFromInline package var given: ContiguousArray<Int64>
    /// Per kind (256): whether its estimate is the running mean of its
    /// measured rows (`EstimatePolicy.meanOfMeasured`, K3). Kind 0's is the
    /// layout's.
    @exclusivity(unchecked) @usableFromInline package var meanPolicy: ContiguousArray<Bool>

    @inlinable
    package init() {
      estimates = ContiguousArray(repeating: -1, count: 256)
      slotOfKind = ContiguousArray(repeating: -1, count: 256)
      kindOfSlot = []
      slotEstimates = []
      stride = 3 &+ 3 &* 4
      nodes = []
      total = ContiguousArray(repeating: 0, count: stride)
      given = ContiguousArray(repeating: -1, count: 256)
      meanPolicy = ContiguousArray(repeating: false, count: 256)
    }

    /// What the total vector adds to the main sums' pitch, with kind 0's
    /// estimate `e0` (a method of the table, so a tree's hot path calls it
    /// without passing the tree).
    @inlinable @inline(never)
    package func _totalCorrection(_ e0: Int64) -> Int64 {
      total.withUnsafeBufferPointer { v in
        slotEstimates.withUnsafeBufferPointer { ExtentTree._kindCorrection(v, slotEstimates: $0, e0: e0) }
      }
    }

    /// What the total vector adds to the main sums' non-empty count.
    @inlinable @inline(never)
    package func _totalNonEmptyCorrection(_ e0: Int64) -> Int {
      total.withUnsafeBufferPointer { v in
        slotEstimates.withUnsafeBufferPointer { ExtentTree._kindNonEmptyCorrection(v, slotEstimates: $0, e0: e0) }
      }
    }

    /// A copy of `other`; with `rows: false`, the same kinds, slots,
    /// estimates and settings with no rows.
    @inlinable
    package init(copying other: _KindTable, rows: Bool = true) {
      estimates = other.estimates
      slotOfKind = other.slotOfKind
      kindOfSlot = other.kindOfSlot
      slotEstimates = other.slotEstimates
      stride = other.stride
      nodes = rows ? other.nodes : []
      total = rows ? other.total : ContiguousArray(repeating: 0, count: other.stride)
      given = other.given
      meanPolicy = other.meanPolicy
      pitchTotal = rows ? other.pitchTotal : 0
      nonEmptyTotal = rows ? other.nonEmptyTotal : 0
    }
  }

  /// The kind table, unique to this tree, for a write.
  /// - Precondition: the tree has one (`_hasKinds`).
  @inlinable
  package mutating func _writableKinds() -> _KindTable {
    if !isKnownUniquelyReferenced(&_kinds!) { _kinds = _KindTable(copying: _kinds!) }
    return _kinds.unsafelyUnwrapped
  }

  // MARK: Extras

  /// The kind bits of an extra.
  @inlinable @inline(__always)
  package static func _kind(ofExtra extra: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: extra) }

  /// The own estimate of an extra, in units, or `nil`.
  @inlinable @inline(__always)
  package static func _ownEstimate(ofExtra extra: UInt64) -> Int64? {
    extra & 0x100 == 0 ? nil : Int64(extra &>> 32)
  }

  /// An extra with `kind` and an own estimate (`nil`: none).
  @inlinable @inline(__always)
  package static func _extra(kind: UInt8, own: Int64?) -> UInt64 {
    guard let own else { return UInt64(kind) }
    return UInt64(kind) | 0x100 | (UInt64(truncatingIfNeeded: own) &<< 32)
  }

  /// Whether the tree has had a kind or an own estimate (the slow paths).
  @inlinable @inline(__always)
  package var _hasKinds: Bool { _kinds != nil }

  /// The estimate of `kind`, in units (kind 0's when it has none).
  /// - Complexity: O(1).
  @inlinable
  package func kindEstimate(_ kind: UInt8) -> Int64 {
    guard kind != 0, let table = _kinds else { return estimate }
    let e = table.estimates[Int(kind)]
    return e < 0 ? estimate : e
  }

  /// The extent of a slot holding `stored` with `extra`, in units.
  @inlinable @inline(__always)
  package func _extent(ofStored stored: Int32, extra: UInt64) -> Int64 {
    if stored >= 0 { return Int64(stored) }
    if extra & 0x100 != 0 { return Int64(extra &>> 32) }
    return kindEstimate(Self._kind(ofExtra: extra))
  }

  /// The extra of the slot `slot` of `block`.
  @inlinable @inline(__always)
  package static func _extra(_ block: UnsafePointer<_Block>, _ slot: Int) -> UInt64 {
    block.pointee.extras.isEmpty ? 0 : block.pointee.extras[slot]
  }

  /// The extent of the row at `location`, in units, were its stored value
  /// `stored` (its own, or one it had or will have).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func _extent(ofStored stored: Int32, at location: _Location) -> Int64 {
    guard _slowPath(_kinds != nil) else { return _extent(ofStored: stored) }
    return _kindedExtent(ofStored: stored, at: location)
  }

  /// `_extent(ofStored:at:)` with kinds.
  @inlinable @inline(never)
  package func _kindedExtent(ofStored stored: Int32, at location: _Location) -> Int64 {
    _withBlock(handle: Int(_order[location.position])) { _extent(ofStored: stored, extra: Self._extra($0, location.slot)) }
  }

  /// The extra (kind and own estimate) of the row at `location`.
  /// - Complexity: O(1).
  @inlinable
  package func _extra(at location: _Location) -> UInt64 {
    _withBlock(handle: Int(_order[location.position])) { Self._extra($0, location.slot) }
  }

  /// The kind of the row at `location` (SPEC K1).
  /// - Complexity: O(1).
  @inlinable
  package func kind(at location: _Location) -> UInt8 {
    guard _hasKinds else { return 0 }
    return Self._kind(ofExtra: _extra(at: location))
  }

  /// The own estimate of the row at `location`, in units, or `nil` (K2).
  /// - Complexity: O(1).
  @inlinable
  package func ownEstimate(at location: _Location) -> Int64? {
    guard _hasKinds else { return nil }
    return Self._ownEstimate(ofExtra: _extra(at: location))
  }

  // MARK: Vectors

  /// Adds (`sign` 1) or subtracts (`-1`) one slot's share to a vector.
  @inlinable @inline(__always)
  package static func _addShare(
    stored: Int32, extra: UInt64, sign: Int64, slotOfKind: UnsafeBufferPointer<Int16>,
    to vector: UnsafeMutableBufferPointer<Int64>
  ) {
    guard extra != 0 else { return }
    if stored < 0 {
      if extra & 0x100 != 0 {
        let own = Int64(extra &>> 32)
        vector[0] &+= sign &* own
        vector[1] &+= sign
        if own == 0 { vector[2] &+= sign }
        return
      }
      let j = Int(slotOfKind[Int(extra & 0xFF)])
      vector[3 &+ 3 &* j] &+= sign
    } else {
      let kind = Int(extra & 0xFF)
      guard kind != 0 else { return }
      let j = Int(slotOfKind[kind])
      vector[4 &+ 3 &* j] &+= sign &* Int64(stored)
      vector[5 &+ 3 &* j] &+= sign
    }
  }

  /// The kind vector of a block, computed from its rows (empty for a block
  /// without extras).
  /// - Complexity: O(B).
  @inlinable
  package func _countKinds(_ block: _Block) -> ContiguousArray<Int64> {
    guard let table = _kinds, !block.extras.isEmpty else { return [] }
    var vector = ContiguousArray<Int64>(repeating: 0, count: table.stride)
    vector.withUnsafeMutableBufferPointer { v in
      table.slotOfKind.withUnsafeBufferPointer { slots in
        for slot in 0 ..< block.rowCount {
          Self._addShare(stored: block.extents[slot], extra: block.extras[slot], sign: 1, slotOfKind: slots, to: v)
        }
      }
    }
    return vector
  }

  /// Recounts the kind vector of the block at `position` and puts the
  /// change into the kind tree (a no-op without kinds).
  /// - Complexity: O(B + s log(n/B)) for s entries per vector.
  @inlinable @inline(__always)
  package mutating func _recountKinds(at position: Int) {
    if _slowPath(_kinds != nil) { _recountKindsNow(at: position) }
  }

  /// `_recountKinds(at:)` with kinds.
  @inlinable @inline(never)
  package mutating func _recountKindsNow(at position: Int) {
    let handle = Int(_order[position])
    let old = _blocks[handle].kindVector
    let new = _countKinds(_blocks[handle])
    _blocks[handle].kindVector = new
    for e in 0 ..< Swift.max(old.count, new.count) {
      let d = (e < new.count ? new[e] : 0) &- (e < old.count ? old[e] : 0)
      if d != 0 { _kindAdd(d, entry: e, at: position) }
    }
    _refreshKindTotals()
  }

  /// Recounts the kind vector of the block with `handle`, leaving the kind
  /// tree alone (the caller rebuilds it).
  /// - Complexity: O(B).
  @inlinable @inline(__always)
  package mutating func _recountKinds(handle: Int) {
    if _slowPath(_kinds != nil) { _recountKindsNow(handle: handle) }
  }

  /// `_recountKinds(handle:)` with kinds.
  @inlinable @inline(never)
  package mutating func _recountKindsNow(handle: Int) {
    _blocks[handle].kindVector = _countKinds(_blocks[handle])
  }

  /// Adds `delta` to one entry of the vector of the block at `position`,
  /// in the kind tree and the total (the block's own vector is the
  /// caller's).
  /// The caller refreshes the totals (`_refreshKindTotals`) once its
  /// changes are in.
  /// - Complexity: O(log(n/B)).
  @inlinable
  package mutating func _kindAdd(_ delta: Int64, entry: Int, at position: Int) {
    let size = _fenwick.size
    var i = position &+ _lead &+ 1
    let table = _writableKinds()
    table.total[entry] &+= delta
    let stride = table.stride
    table.nodes.withUnsafeMutableBufferPointer { nodes in
      while i <= size {
        nodes[i &* stride &+ entry] &+= delta
        i &+= i & -i
      }
    }
  }

  /// Rebuilds the kind tree from the blocks' vectors, node for node beside
  /// the main tree (a no-op without kinds).
  /// - Complexity: O(s n/B) for s entries per vector.
  @inlinable
  @inline(never)
  package mutating func _rebuildKindTree() {
    guard _kinds != nil else { return }
    let table = _writableKinds()
    let size = _fenwick.size
    let stride = table.stride
    table.nodes = ContiguousArray(repeating: 0, count: (size &+ 1) &* stride)
    table.total = ContiguousArray(repeating: 0, count: stride)
    table.nodes.withUnsafeMutableBufferPointer { nodes in
      for p in 0 ..< _order.count {
        let vector = _blocks[Int(_order[p])].kindVector
        let base = (_lead &+ p &+ 1) &* stride
        for e in 0 ..< vector.count {
          nodes[base &+ e] = vector[e]
          table.total[e] &+= vector[e]
        }
      }
      if size >= 1 {
        for i in 1 ... size {
          let parent = i &+ (i & -i)
          guard parent <= size else { continue }
          for e in 0 ..< stride { nodes[parent &* stride &+ e] &+= nodes[i &* stride &+ e] }
        }
      }
    }
    _refreshKindTotals()
  }

  /// The sum of the vectors of the blocks before `position`.
  /// - Complexity: O(s log(n/B)).
  @inlinable
  package func _kindPrefix(_ position: Int) -> ContiguousArray<Int64> {
    let table = _kinds!
    let stride = table.stride
    var result = ContiguousArray<Int64>(repeating: 0, count: stride)
    var i = position &+ _lead
    table.nodes.withUnsafeBufferPointer { nodes in
      result.withUnsafeMutableBufferPointer { r in
        while i > 0 {
          for e in 0 ..< stride { r[e] &+= nodes[i &* stride &+ e] }
          i &= i &- 1
        }
      }
    }
    return result
  }

  /// What a vector adds to the pitch the main sums give (which count every
  /// estimated row at kind 0's estimate).
  @inlinable @inline(__always)
  package func _kindCorrection(_ vector: UnsafeBufferPointer<Int64>, slotEstimates: UnsafeBufferPointer<Int64>) -> Int64 {
    Self._kindCorrection(vector, slotEstimates: slotEstimates, e0: estimate)
  }

  /// `_kindCorrection(_:slotEstimates:)` with kind 0's estimate `e0`.
  @inlinable @inline(__always)
  package static func _kindCorrection(
    _ vector: UnsafeBufferPointer<Int64>, slotEstimates: UnsafeBufferPointer<Int64>, e0: Int64
  ) -> Int64 {
    guard !vector.isEmpty else { return 0 }
    var c = vector[0] &- vector[1] &* e0
    let slots = Swift.min(slotEstimates.count, (vector.count &- 3) / 3)
    for j in 0 ..< slots {
      let n = vector[3 &+ 3 &* j]
      if n != 0 { c &+= n &* (slotEstimates[j] &- e0) }
    }
    return c
  }

  /// What a vector adds to the non-empty count the main sums give.
  @inlinable @inline(__always)
  package func _kindNonEmptyCorrection(_ vector: UnsafeBufferPointer<Int64>, slotEstimates: UnsafeBufferPointer<Int64>) -> Int {
    Self._kindNonEmptyCorrection(vector, slotEstimates: slotEstimates, e0: estimate)
  }

  /// `_kindNonEmptyCorrection(_:slotEstimates:)` with kind 0's estimate `e0`.
  @inlinable @inline(__always)
  package static func _kindNonEmptyCorrection(
    _ vector: UnsafeBufferPointer<Int64>, slotEstimates: UnsafeBufferPointer<Int64>, e0: Int64
  ) -> Int {
    guard !vector.isEmpty else { return 0 }
    let main: Int64 = e0 > 0 ? 1 : 0
    var c = -(vector[1] &* main) &+ (vector[1] &- vector[2])
    let slots = Swift.min(slotEstimates.count, (vector.count &- 3) / 3)
    for j in 0 ..< slots {
      let n = vector[3 &+ 3 &* j]
      if n != 0 { c &+= n &* ((slotEstimates[j] > 0 ? 1 : 0) &- main) }
    }
    return Int(c)
  }

  /// The pitch correction of a whole vector array.
  @inlinable @inline(never)
  package func _kindCorrection(_ vector: ContiguousArray<Int64>) -> Int64 {
    guard let table = _kinds else { return 0 }
    return vector.withUnsafeBufferPointer { v in
      table.slotEstimates.withUnsafeBufferPointer { _kindCorrection(v, slotEstimates: $0) }
    }
  }

  /// The non-empty correction of a whole vector array.
  @inlinable @inline(never)
  package func _kindNonEmptyCorrection(_ vector: ContiguousArray<Int64>) -> Int {
    guard let table = _kinds else { return 0 }
    return vector.withUnsafeBufferPointer { v in
      table.slotEstimates.withUnsafeBufferPointer { _kindNonEmptyCorrection(v, slotEstimates: $0) }
    }
  }

  // MARK: Kinded queries

  /// The pitch of slots `0 ..< slot` of `block`, slot by slot.
  /// - Complexity: O(B).
  @inlinable
  package func _kindedSlotPitchPrefix(_ block: UnsafePointer<_Block>, _ slot: Int) -> Int64 {
    var sum: Int64 = 0
    for s in 0 ..< slot {
      sum &+= _extent(ofStored: block.pointee.extents[s], extra: Self._extra(block, s)) &+ spacing
    }
    return sum
  }

  /// Where the row at `location` starts (with kinds).
  /// - Complexity: O(s log(n/B) + B).
  @inlinable @inline(never)
  package func _kindedStart(at l: _Location) -> Int64 {
    _pitch(l.before) &+ _kindCorrection(_kindPrefix(l.position))
      &+ _withBlock(handle: Int(_order[l.position])) { _kindedSlotPitchPrefix($0, l.slot) }
  }

  /// `span(_:)` with kinds.
  @inlinable @inline(never)
  package func _kindedSpan(at l: _Location) -> (start: Int64, extent: Int64) {
    (_kindedStart(at: l), _kindedExtent(ofStored: _storedExtent(at: l), at: l))
  }

  /// `rowInfo(at:)` with kinds.
  @inlinable @inline(never)
  package func _kindedRowInfo(at l: _Location) -> _RowInfo {
    let (id, stored) = _row(at: l)
    return _RowInfo(index: l.before.count &+ l.slot, id: id, start: _kindedStart(at: l),
                    extent: _kindedExtent(ofStored: stored, at: l), stored: stored, position: l.position)
  }

  /// `_firstRowSpan` with kinds: a descent of both trees, then a walk of
  /// one block slot by slot.
  /// - Complexity: O(s log(n/B) + B).
  @inlinable
  @inline(never)
  package func _kindedFirstRowSpan(withPitchPrefixAfterAbove threshold: Int64) -> _RowSpan? {
    guard count > 0, threshold < totalPitch else { return nil }
    let table = _kinds!
    let stride = table.stride
    var accumulated: Int64 = 0
    var rows = 0
    var node = 0
    if threshold >= 0 {
      var step = _fenwick.topStep
      let size = _fenwick.size
      _fenwick.nodes.withUnsafeBufferPointer { main in
        table.nodes.withUnsafeBufferPointer { kinds in
          table.slotEstimates.withUnsafeBufferPointer { estimates in
            while step > 0 {
              let next = node &+ step
              if next <= size {
                let vector = UnsafeBufferPointer(rebasing: kinds[next &* stride ..< (next &+ 1) &* stride])
                let pitch = _pitch(main[next]) &+ _kindCorrection(vector, slotEstimates: estimates)
                if accumulated &+ pitch <= threshold {
                  node = next
                  accumulated &+= pitch
                  rows &+= main[next].count
                }
              }
              step &>>= 1
            }
          }
        }
      }
    }
    let position = threshold < 0 ? 0 : node &- _lead
    guard position < _order.count else { return nil }
    let blockStart = accumulated
    return _withBlock(handle: Int(_order[position])) { block -> _RowSpan? in
      for slot in 0 ..< block.pointee.rowCount {
        let extent = _extent(ofStored: block.pointee.extents[slot], extra: Self._extra(block, slot))
        if accumulated &+ extent &+ spacing > threshold {
          return _RowSpan(row: rows &+ slot, start: accumulated, extent: extent, position: position, slot: slot,
                          blockStart: blockStart)
        }
        accumulated &+= extent &+ spacing
      }
      preconditionFailure("ExtentTree: the block's rows end before the block's pitch")
    }
  }

  /// The non-empty rows among `0 ..< index`, with kinds.
  /// - Complexity: O(s log(n/B) + B).
  @inlinable @inline(never)
  package func _kindedNonEmptyRows(before index: Int) -> Int {
    if index == count { return nonEmptyCount }
    let l = _locate(index)
    var result = _nonEmpty(l.before) &+ _kindNonEmptyCorrection(_kindPrefix(l.position))
    _withBlock(handle: Int(_order[l.position])) { block in
      for slot in 0 ..< l.slot where _extent(ofStored: block.pointee.extents[slot], extra: Self._extra(block, slot)) > 0 {
        result &+= 1
      }
    }
    return result
  }

  /// The non-empty row of rank `rank`, with kinds.
  /// - Complexity: O(s log(n/B) + B).
  @inlinable @inline(never)
  package func _kindedNonEmptyRow(rank: Int) -> Int {
    let table = _kinds!
    let stride = table.stride
    var remaining = rank
    var rows = 0
    var node = 0
    var step = _fenwick.topStep
    let size = _fenwick.size
    _fenwick.nodes.withUnsafeBufferPointer { main in
      table.nodes.withUnsafeBufferPointer { kinds in
        table.slotEstimates.withUnsafeBufferPointer { estimates in
          while step > 0 {
            let next = node &+ step
            if next <= size {
              let vector = UnsafeBufferPointer(rebasing: kinds[next &* stride ..< (next &+ 1) &* stride])
              let w = _nonEmpty(main[next]) &+ _kindNonEmptyCorrection(vector, slotEstimates: estimates)
              if w <= remaining {
                node = next
                remaining &-= w
                rows &+= main[next].count
              }
            }
            step &>>= 1
          }
        }
      }
    }
    let position = node &- _lead
    return _withBlock(handle: Int(_order[position])) { block in
      for slot in 0 ..< block.pointee.rowCount
      where _extent(ofStored: block.pointee.extents[slot], extra: Self._extra(block, slot)) > 0 {
        if remaining == 0 { return rows &+ slot }
        remaining &-= 1
      }
      preconditionFailure("ExtentTree: block counts are inconsistent")
    }
  }

  /// The rows among `rows` whose extent is kind `kind`'s estimate (not 0):
  /// estimated, of that kind, without an own estimate (SPEC K1), in index
  /// order; nil when there are more than `limit`. Found block by block
  /// through the kind tree (a descent to each block holding one), never by
  /// a pass over rows: what a kind's estimate change moves.
  /// - Complexity: O(s log(n/B) + b (log(n/B) + B)) for the b blocks
  ///   holding them, s entries per vector.
  @inlinable
  package func _estimatedRows(ofKind kind: UInt8, in rows: Range<Int>, limit: Int) -> [Int]? {
    guard kind != 0, let table = _kinds, !rows.isEmpty, rows.lowerBound < count else { return [] }
    let slot = Int(table.slotOfKind[Int(kind)])
    guard slot >= 0 else { return [] }
    let entry = 3 &+ 3 &* slot
    let stride = table.stride
    let total = table.total[entry]
    var found: [Int] = []
    // The rank among all such rows of the first in the block holding `rows`' first row.
    var seen = _kindPrefix(_locate(rows.lowerBound).position)[entry]
    let size = _fenwick.size
    while seen < total {
      // The block holding the row of rank `seen`, and the rows before it.
      var remaining = seen
      var node = 0
      var rowsBefore = 0
      var step = _fenwick.topStep
      _fenwick.nodes.withUnsafeBufferPointer { main in
        table.nodes.withUnsafeBufferPointer { kinds in
          while step > 0 {
            let next = node &+ step
            if next <= size, kinds[next &* stride &+ entry] <= remaining {
              node = next
              remaining &-= kinds[next &* stride &+ entry]
              rowsBefore &+= main[next].count
            }
            step &>>= 1
          }
        }
      }
      guard rowsBefore < rows.upperBound else { break }
      // The block's such rows, up to the last of them (its vector counts them).
      // 1: past `limit`; 2: past `rows`; 0: go on to the next block.
      let (end, matches, wanted) = _withBlock(handle: Int(_order[node &- _lead])) { block -> (Int, Int64, Int64) in
        let wanted = block.pointee.kindVector[entry]
        var matches: Int64 = 0
        let end = block.pointee.extras.withUnsafeBufferPointer { extras in
          block.pointee.extents.withUnsafeBufferPointer { extents in
            var s = 0
            while matches < wanted && s < extras.count {
              // Of the kind, no own estimate (bit 8), estimated.
              if extras[s] & 0x1FF == UInt64(kind) && extents[s] < 0 {
                matches &+= 1
                let i = rowsBefore &+ s
                if i >= rows.upperBound { return 2 }
                if i >= rows.lowerBound {
                  if found.count == limit { return 1 }
                  found.append(i)
                }
              }
              s &+= 1
            }
            return 0
          }
        }
        return (end, matches, wanted)
      }
      if end == 1 { return nil }
      if end == 2 { break }
      precondition(matches > 0 && matches == wanted, "ExtentTree: kind counts are inconsistent")
      seen &+= matches
    }
    return found
  }

  // MARK: Changes

  /// The slot of `kind` in the vectors, made on its first use (a new
  /// capacity rebuilds the vectors and the kind tree).
  /// - Complexity: O(1); O(s n/B) when the slots outgrow their capacity
  ///   (at most 7 times: 4, 8, … 256 slots).
  @inlinable
  package mutating func _slot(ofKind kind: UInt8) -> Int {
    precondition(kind != 0, "ExtentTree: kind 0 has no slot")
    if _kinds == nil {
      _kinds = _KindTable()
      _rebuildKindTree()
    }
    let existing = Int(_kinds!.slotOfKind[Int(kind)])
    if existing >= 0 { return existing }
    let estimate = kindEstimate(kind)
    let table = _writableKinds()
    let slot = table.kindOfSlot.count
    table.slotOfKind[Int(kind)] = Int16(slot)
    table.kindOfSlot.append(kind)
    table.slotEstimates.append(estimate)
    if 3 &+ 3 &* (slot &+ 1) > table.stride {
      table.stride = 3 &+ 3 &* Swift.min(256, 2 &* (slot &+ 1))
      _rebuildKindTree()
    }
    return slot
  }

  /// Starts the kind table (a no-op when there is one).
  /// - Complexity: O(n/B) the first time.
  @inlinable
  package mutating func _startKinds() {
    guard _kinds == nil else { return }
    _kinds = _KindTable()
    _rebuildKindTree()
  }

  /// Gives the row at `location` the extra `extra` (a kind and an own
  /// estimate); returns the old one. Moves rows when the row is estimated
  /// and its extent changes (the caller stabilizes).
  /// - Complexity: O(s log(n/B)), plus O(B) for a block's first extra.
  @inlinable
  @discardableResult
  package mutating func _setExtra(_ extra: UInt64, at location: _Location) -> UInt64 {
    let kind = Self._kind(ofExtra: extra)
    if kind != 0 { _ = _slot(ofKind: kind) } else { _startKinds() }
    let handle = Int(_order[location.position])
    let old = _extra(at: location)
    guard old != extra else { return old }
    let stored = _blocks[handle].extents[location.slot]
    if _blocks[handle].extras.isEmpty {
      _blocks[handle].extras = ContiguousArray(repeating: 0, count: _blocks[handle].rowCount)
    }
    _blocks[handle].extras[location.slot] = extra
    _moveShare(from: (stored, old), to: (stored, extra), handle: handle, position: location.position)
    return old
  }

  /// Moves one slot's share from what it was (stored value and extra) to
  /// what it is, in its block's vector and the kind tree.
  /// - Complexity: O(s + log(n/B)).
  @inlinable
  package mutating func _moveShare(
    from old: (stored: Int32, extra: UInt64), to new: (stored: Int32, extra: UInt64), handle: Int, position: Int
  ) {
    let table = _kinds!
    var delta = ContiguousArray<Int64>(repeating: 0, count: table.stride)
    table.slotOfKind.withUnsafeBufferPointer { slots in
      delta.withUnsafeMutableBufferPointer { d in
        Self._addShare(stored: old.stored, extra: old.extra, sign: -1, slotOfKind: slots, to: d)
        Self._addShare(stored: new.stored, extra: new.extra, sign: 1, slotOfKind: slots, to: d)
      }
    }
    let vectorCount = _blocks[handle].kindVector.count
    if vectorCount < table.stride {
      _blocks[handle].kindVector.append(contentsOf: repeatElement(0, count: table.stride &- vectorCount))
    }
    for e in 0 ..< table.stride where delta[e] != 0 {
      _blocks[handle].kindVector[e] &+= delta[e]
      _kindAdd(delta[e], entry: e, at: position)
    }
    _refreshKindTotals()
  }

  /// The share change of one slot going from `old` to `new` stored values
  /// (a measurement), in the block's vector and the kind tree.
  /// - Complexity: O(log(n/B)).
  @inlinable @inline(never)
  package mutating func _kindStoredChanged(from old: Int32, to new: Int32, at location: _Location) {
    let extra = _extra(at: location)
    guard extra != 0 else { return }
    _moveShare(from: (old, extra), to: (new, extra), handle: Int(_order[location.position]), position: location.position)
  }

  /// Sets the estimate of `kind` (not 0) in units, or `nil` to make it use
  /// kind 0's. Moves every estimated row of the kind (the caller
  /// stabilizes).
  /// - Complexity: O(kinds) (plus O(n/B) for a tree's first kind).
  @inlinable
  package mutating func setKindEstimate(_ units: Int64?, for kind: UInt8) {
    precondition(kind != 0, "ExtentTree: kind 0's estimate is the tree's estimate")
    precondition(units.map { $0 >= 0 && $0 <= _FixedPoint.maxExtentUnits } ?? true, "ExtentTree: estimate out of range")
    let slot = _slot(ofKind: kind)
    let fallback = estimate
    let table = _writableKinds()
    table.estimates[Int(kind)] = units ?? -1
    table.slotEstimates[slot] = units ?? fallback
    _refreshKindTotals()
  }

  /// The sum and number of the measured rows of `kind` (SPEC K3).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func measuredTotals(ofKind kind: UInt8) -> (sum: Int64, count: Int) {
    guard _slowPath(_kinds != nil) else { return kind == 0 ? (measuredSum, measuredCount) : (0, 0) }
    return _kindedMeasuredTotals(ofKind: kind)
  }

  /// `measuredTotals(ofKind:)` with kinds.
  @inlinable @inline(never)
  package func _kindedMeasuredTotals(ofKind kind: UInt8) -> (sum: Int64, count: Int) {
    let table = _kinds.unsafelyUnwrapped
    if kind == 0 {
      var sum = measuredSum
      var count = Int64(measuredCount)
      for j in 0 ..< table.kindOfSlot.count {
        sum &-= table.total[4 &+ 3 &* j]
        count &-= table.total[5 &+ 3 &* j]
      }
      return (sum, Int(count))
    }
    let j = Int(table.slotOfKind[Int(kind)])
    guard j >= 0 else { return (0, 0) }
    return (table.total[4 &+ 3 &* j], Int(table.total[5 &+ 3 &* j]))
  }

  // MARK: Following ids

  /// Every row with a kind or an own estimate, by id (its extra), so a
  /// snapshot of ids keeps them (K1, K2). Blocks without extras are skipped.
  /// - Complexity: O(n/B + r) for r rows in blocks that hold extras.
  @inlinable
  package var extrasByID: [ID: UInt64] {
    var result: [ID: UInt64] = [:]
    guard _kinds != nil else { return result }
    for handle in _order {
      _withBlock(handle: Int(handle)) { block in
        for (slot, extra) in block.pointee.extras.enumerated() where extra != 0 {
          result[block.pointee.ids[slot]] = extra
        }
      }
    }
    return result
  }

  /// Takes `other`'s kinds, their slots, estimates and settings (not its
  /// rows' extras), for a tree built from a new snapshot of ids.
  /// - Complexity: O(s n/B).
  @inlinable
  package mutating func _adoptKinds(of other: ExtentTree) {
    guard let table = other._kinds else { return }
    let mine = _KindTable(copying: table, rows: false)
    for j in 0 ..< table.kindOfSlot.count where table.estimates[Int(table.kindOfSlot[j])] < 0 {
      mine.slotEstimates[j] = estimate
    }
    _kinds = mine
    for position in 0 ..< _order.count { _recountKinds(handle: Int(_order[position])) }
    _rebuildKindTree()
  }

  /// Gives every id of `extras` that is a row its extra.
  /// - Complexity: O(r (log(n/B) + B) + s n/B) for r extras.
  @inlinable
  package mutating func _restoreExtras(_ extras: [ID: UInt64]) {
    _applyExtras(kinds: extras.mapValues { Self._kind(ofExtra: $0) }, own: extras.compactMapValues { Self._ownEstimate(ofExtra: $0) },
                 clearingOwn: true)
  }

  /// Gives the rows with an id in `kinds` that kind, and those with an id
  /// in `own` that own estimate (`clearingOwn`: the other rows of `kinds`
  /// lose theirs); every other row keeps its extra. One pass: the rows
  /// are found by id (few) or every block is walked (many), and the kind
  /// vectors of the blocks written are counted again. `rowOrder`, when
  /// given, lists the ids of both in runs of row order (a snapshot's
  /// entries): they are then found with a `_RowCursor`.
  /// - Complexity: O(r log n + s n/B) for r ids in row order, else
  ///   O(r (log(n/B) + B) + s n/B), or O(n + s n/B).
  @inlinable
  package mutating func _applyExtras(kinds: [ID: UInt8], own: [ID: Int64], clearingOwn: Bool = false,
                                     rowOrder: [ID]? = nil) {
    guard !kinds.isEmpty || !own.isEmpty else { return }
    _startKinds()
    var touched = Set<Int>()
    func write(_ location: _Location, _ id: ID) {
      let handle = Int(_order[location.position])
      let old = _blocks[handle].extras.isEmpty ? 0 : _blocks[handle].extras[location.slot]
      var kind = Self._kind(ofExtra: old)
      var ownUnits = Self._ownEstimate(ofExtra: old)
      if let k = kinds[id] {
        kind = k
        if clearingOwn { ownUnits = nil }
      }
      if let o = own[id] { ownUnits = o }
      let new = Self._extra(kind: kind, own: ownUnits)
      guard new != old else { return }
      if kind != 0 { _ = _slot(ofKind: kind) }
      if _blocks[handle].extras.isEmpty {
        _blocks[handle].extras = ContiguousArray(repeating: 0, count: _blocks[handle].rowCount)
      }
      _blocks[handle].extras[location.slot] = new
      touched.insert(handle)
    }
    if let rowOrder {
      // A snapshot's ids, each found just after the one before while they
      // are in row order.
      var cursor = _RowCursor()
      for id in rowOrder {
        if cursor.isLost { break }
        if let location = cursor.find(id, in: self) { write(location, id) }
      }
      if !cursor.isLost {
        for handle in touched { _recountKinds(handle: handle) }
        _rebuildKindTree()
        return
      }
      // In another order: every id again the way below (a row written
      // already is written the same, so nothing changes there).
    }
    let ids = Set(kinds.keys).union(own.keys)
    if ids.count &* 64 < count {
      for id in ids {
        if let location = _locate(id: id) { write(location, id) }
      }
    } else {
      var before = _Summary()
      for position in 0 ..< _order.count {
        let handle = Int(_order[position])
        let rows = _blocks[handle].rowCount
        for slot in 0 ..< rows where ids.contains(_blocks[handle].ids[slot]) {
          write(_Location(position: position, slot: slot, before: before), _blocks[handle].ids[slot])
        }
        before += _blocks[handle].summary
      }
    }
    for handle in touched { _recountKinds(handle: handle) }
    _rebuildKindTree()
  }

  /// Gives row `i` the `i`-th kind of `kinds`, block by block (a build's
  /// kinds, given with its ids).
  /// - Precondition: `kinds` has one kind per row.
  /// - Complexity: O(n + s n/B).
  @inlinable
  package mutating func _setKindsInRowOrder(_ kinds: some Sequence<UInt8>) {
    var iterator = kinds.makeIterator()
    var given = 0
    for position in 0 ..< _order.count {
      let handle = Int(_order[position])
      let rows = _blocks[handle].rowCount
      var extras = ContiguousArray<UInt64>()
      extras.reserveCapacity(rows)
      var any = false
      for _ in 0 ..< rows {
        guard let kind = iterator.next() else { preconditionFailure("LazyStackLayout: \(given) kinds for \(count) ids") }
        given &+= 1
        if kind != 0 {
          any = true
          _ = _slot(ofKind: kind)
        }
        extras.append(UInt64(kind))
      }
      if any { _blocks[handle].extras = extras }
    }
    precondition(iterator.next() == nil, "LazyStackLayout: more kinds than the \(count) ids")
    guard _kinds != nil else { return }
    for position in 0 ..< _order.count { _recountKinds(handle: Int(_order[position])) }
    _rebuildKindTree()
  }
}
