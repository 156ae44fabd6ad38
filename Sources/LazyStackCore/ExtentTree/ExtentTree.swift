/// Every row's identity and extent, in blocks of rows under a block-level
/// Fenwick tree (SPEC §1–2, §10; DESIGN §2).
///
/// - Extents are integer fixed-point units (`_FixedPoint`), so every prefix
///   sum is exact (X4).
/// - Estimated rows store no extent: the sentinel `-1` marks a row never
///   measured, `-2` a row whose measurement was invalidated (SPEC S12 tells
///   them apart; both have the estimate). The tree keeps the measured sum and
///   the measured count, and folds the estimate in, so a global estimate
///   change is O(1) (X2).
/// - A row's *pitch* is its extent plus the spacing that follows it, so
///   row `i` starts at `pitchPrefix(i)` relative to the leading inset (G2).
/// - Rows live in blocks of at most `blockCapacity` rows. Blocks are stored
///   by a stable *handle*; `_order` lists handles in row order and the Fenwick
///   tree sums per-block summaries by position. A point query descends the
///   Fenwick tree in O(log(n/B)) and scans one block in O(B); an insert or
///   delete edits one block in O(B) and updates the tree in O(log(n/B)); a
///   split or merge rebuilds the block-level tree in O(n/B).
/// - The id index maps an id to the handle of its block, so inserting rows
///   never renumbers later rows: a row's index is its block's start (a Fenwick
///   prefix) plus its slot (a scan of one block).
@usableFromInline
package struct ExtentTree<ID: Hashable & Sendable>: Sendable {
  /// One block of consecutive rows.
  @usableFromInline
  package struct _Block: Sendable {
    @usableFromInline package var ids: ContiguousArray<ID>
    /// Measured extents in units; `-1` marks a row never measured, `-2` an
    /// invalidated one (see `ExtentTree._estimated`, `_invalidated`).
    @usableFromInline package var extents: ContiguousArray<Int32>
    /// `ids.count`, kept beside the other sums so a rebuild of the
    /// block-level tree reads the block's own fields only (no row buffer).
    @usableFromInline package var rowCount: Int
    @usableFromInline package var measuredSum: Int64
    @usableFromInline package var measuredCount: Int
    @usableFromInline package var measuredZeroCount: Int
    /// Per chunk of `_chunk` (16) slots: the measured sum and the number of
    /// estimated slots of the block's slots up to the chunk's end (an
    /// inclusive prefix), packed in one word (`ExtentTree._packChunk`), so
    /// a slot's offset in its block is one load and at most 15 slots, and
    /// in-block searches skip 16 rows at a step. A measurement adds its
    /// change to the chunks from its own on (at most `B/16` words). Empty
    /// in a block of 4,096 rows or more, which only exists between an
    /// insert and the split that follows it.
    @usableFromInline package var chunks: ContiguousArray<Int64>
    /// Each slot's role (`ExtentTree._role`: 0 a row, 1 a section header,
    /// 2 a section footer, SPEC H1), or empty while every row of the block
    /// is a plain row: a list without sections pays nothing for them.
    @usableFromInline package var roles: ContiguousArray<UInt8>
    /// The block's headers and footers, packed (`ExtentTree._roleWord`).
    @usableFromInline package var roleCounts: Int

    @inlinable
    package init() {
      ids = []
      extents = []
      rowCount = 0
      measuredSum = 0
      measuredCount = 0
      measuredZeroCount = 0
      chunks = []
      roles = []
      roleCounts = 0
    }

    /// Gives the block one role per row (all plain rows) if it has none.
    /// - Complexity: O(B) the first time.
    @inlinable
    package mutating func _materializeRoles() {
      if roles.isEmpty { roles = ContiguousArray(repeating: 0, count: rowCount) }
    }

    /// Takes the roles of `added`'s rows, which are about to be inserted at
    /// `slot` (call it before `rowCount` counts them). Plain rows joining a
    /// block of plain rows leave it without roles.
    /// - Complexity: O(B).
    @inlinable
    package mutating func _insertRoles(of added: _Block, at slot: Int) {
      guard added.roleCounts != 0 || !roles.isEmpty else { return }
      _materializeRoles()
      if added.roles.isEmpty {
        roles.insert(contentsOf: repeatElement(0, count: added.rowCount), at: slot)
      } else {
        roles.insert(contentsOf: added.roles, at: slot)
      }
      roleCounts &+= added.roleCounts
    }

    /// Recomputes the chunk prefixes from the chunk holding `slot` on.
    /// - Complexity: O(B).
    @inlinable
    package mutating func _rebuildChunks(from slot: Int = 0) {
      // Packed counts need fewer than 4,096 slots: a larger block is about
      // to be split, and its pieces get their own chunks.
      guard extents.count < ExtentTree._chunkedRowLimit else { chunks = []; return }
      let wanted = (extents.count &+ 15) >> 4
      let first = Swift.min(slot >> 4, wanted, chunks.count)
      chunks.removeLast(chunks.count &- first)
      var running = first == 0 ? 0 : chunks[first &- 1]
      extents.withUnsafeBufferPointer { e in
        for c in first ..< wanted {
          let (measured, estimated) = ExtentTree._sum(e, (c << 4) ..< Swift.min(e.count, (c &+ 1) << 4))
          running &+= ExtentTree._packChunk(measured, estimated)
          chunks.append(running)
        }
      }
    }

    /// A block of the given rows; `roles` is empty (all plain rows) or
    /// holds one role a row.
    @inlinable
    package init(ids: ContiguousArray<ID>, extents: ContiguousArray<Int32>, roles: ContiguousArray<UInt8> = []) {
      precondition(roles.isEmpty || roles.count == ids.count, "ExtentTree: one role per row, or none")
      self.ids = ids
      self.extents = extents
      rowCount = ids.count
      measuredSum = 0
      measuredCount = 0
      measuredZeroCount = 0
      chunks = []
      var counts = 0
      for role in roles { counts &+= ExtentTree._roleWord(role) }
      roleCounts = counts
      self.roles = counts == 0 ? [] : roles
      for e in extents where e >= 0 {
        measuredSum &+= Int64(e)
        measuredCount &+= 1
        if e == 0 { measuredZeroCount &+= 1 }
      }
      _rebuildChunks()
    }

    /// A block of estimated rows, without a pass over them. Its extents and
    /// chunk prefixes are `shared`'s when it has as many rows (made for
    /// this block's size otherwise, and kept in `shared` for the next
    /// block): the blocks of one build share a single pair of buffers, and
    /// a block gets its own copy when one of its rows is first written
    /// (copy on write). A list whose rows are mostly never measured so
    /// stores no extent for them.
    /// - Complexity: O(1) when `shared` has this size, else O(B).
    @inlinable
    package init(estimated ids: ContiguousArray<ID>, sharing shared: inout _EstimatedBuffers) {
      let n = ids.count
      if shared.extents.count != n {
        shared = _EstimatedBuffers(extents: ContiguousArray(repeating: -1, count: n),
                                   chunks: ExtentTree._estimatedChunks(n))
      }
      self.ids = ids
      extents = shared.extents
      rowCount = n
      measuredSum = 0
      measuredCount = 0
      measuredZeroCount = 0
      roles = []
      roleCounts = 0
      chunks = shared.chunks
    }

    /// The chunk prefixes of a block whose rows are all estimated.
    /// - Complexity: O(B).
    @inlinable
    package mutating func _rebuildEstimatedChunks() {
      let n = extents.count
      guard n < ExtentTree._chunkedRowLimit && chunks.count == (n &+ 15) >> 4 else {
        chunks = ExtentTree._estimatedChunks(n)
        return
      }
      // In place (`invalidateAll`: the block keeps its rows).
      chunks.withUnsafeMutableBufferPointer { chunks in
        for c in chunks.indices { chunks[c] = ExtentTree._estimatedChunk(c, of: n) }
      }
    }

    @inlinable @inline(__always)
    package var summary: _Summary {
      _Summary(count: rowCount, measuredSum: measuredSum,
               measuredCount: measuredCount, measuredZeroCount: measuredZeroCount)
    }
  }

  /// The extents and chunk prefixes of a block of `extents.count`
  /// estimated rows, which every such block of one build shares
  /// (`_Block.init(estimated:sharing:)`).
  @usableFromInline
  package struct _EstimatedBuffers: Sendable {
    @usableFromInline package var extents: ContiguousArray<Int32>
    @usableFromInline package var chunks: ContiguousArray<Int64>

    /// No buffers yet: the first (non-empty) block makes them.
    @inlinable
    package init() {
      extents = []
      chunks = []
    }

    @inlinable
    package init(extents: ContiguousArray<Int32>, chunks: ContiguousArray<Int64>) {
      self.extents = extents
      self.chunks = chunks
    }
  }

  /// The chunk prefixes of `n` estimated rows (none from 4,096 rows on,
  /// see `_Block.chunks`): one allocation, each word written once.
  /// - Complexity: O(n).
  @inlinable @inline(__always)
  package static func _estimatedChunks(_ n: Int) -> ContiguousArray<Int64> {
    guard n < _chunkedRowLimit else { return [] }
    let count = (n &+ 15) >> 4
    return ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
      for c in 0 ..< count { buffer[c] = _estimatedChunk(c, of: n) }
      initialized = count
    }
  }

  /// Chunk `c`'s prefix in a block of `n` estimated rows: no measured sum,
  /// and the estimated slots through the chunk's end.
  @inlinable @inline(__always)
  package static func _estimatedChunk(_ c: Int, of n: Int) -> Int64 {
    _packChunk(0, Swift.min((c &+ 1) << 4, n))
  }

  /// A slot's role: a plain row.
  @inlinable @inline(__always)
  package static var _plainRole: UInt8 { 0 }
  /// A slot's role: a section header.
  @inlinable @inline(__always)
  package static var _headerRole: UInt8 { 1 }
  /// A slot's role: a section footer.
  @inlinable @inline(__always)
  package static var _footerRole: UInt8 { 2 }

  /// A role's share of a packed header and footer count: headers count in
  /// the high 32 bits, footers in the low ones. The packed word is
  /// `headers * 2^32 + footers`, so packed words add and subtract as
  /// pairs while both counts stay under 2^31.
  @inlinable @inline(__always)
  package static func _roleWord(_ role: UInt8) -> Int {
    role == _headerRole ? 1 &<< 32 : (role == _footerRole ? 1 : 0)
  }

  /// The number of `role` rows (header or footer) a packed count holds.
  @inlinable @inline(__always)
  package static func _roleCount(_ packed: Int, _ role: UInt8) -> Int {
    role == _headerRole ? packed &>> 32 : packed & 0xFFFF_FFFF
  }

  /// A chunk's measured sum and number of estimated slots in one word:
  /// the sum above 12 bits, the count below. Packed words add as pairs (a
  /// block's counts stay under 4,096 and its sums under 2^51), so a sum of
  /// chunks is one addition a chunk.
  @inlinable @inline(__always)
  package static func _packChunk(_ measured: Int64, _ estimated: Int) -> Int64 {
    // The count's 12 bits hold fewer than `_chunkedRowLimit` slots.
    measured &<< 12 | Int64(estimated)
  }

  /// The rows a block may hold and still keep chunk prefixes: the packed
  /// count has 12 bits (`_packChunk`). Only a block about to be split is
  /// larger.
  @inlinable @inline(__always)
  package static var _chunkedRowLimit: Int { 4096 }

  /// The measured sum and the number of estimated slots of a packed word.
  @inlinable @inline(__always)
  package static func _unpackChunk(_ word: Int64) -> (measured: Int64, estimated: Int) {
    (word &>> 12, Int(word & 0xFFF))
  }

  /// The sums the block-level Fenwick tree keeps.
  @usableFromInline
  package struct _Summary: Sendable, Equatable {
    @usableFromInline package var count: Int
    @usableFromInline package var measuredSum: Int64
    @usableFromInline package var measuredCount: Int
    @usableFromInline package var measuredZeroCount: Int

    @inlinable @inline(__always)
    package init(count: Int = 0, measuredSum: Int64 = 0, measuredCount: Int = 0, measuredZeroCount: Int = 0) {
      self.count = count
      self.measuredSum = measuredSum
      self.measuredCount = measuredCount
      self.measuredZeroCount = measuredZeroCount
    }

    @inlinable @inline(__always)
    package static func += (lhs: inout _Summary, rhs: _Summary) {
      lhs.count &+= rhs.count
      lhs.measuredSum &+= rhs.measuredSum
      lhs.measuredCount &+= rhs.measuredCount
      lhs.measuredZeroCount &+= rhs.measuredZeroCount
    }

    @inlinable @inline(__always)
    package static func -= (lhs: inout _Summary, rhs: _Summary) {
      lhs.count &-= rhs.count
      lhs.measuredSum &-= rhs.measuredSum
      lhs.measuredCount &-= rhs.measuredCount
      lhs.measuredZeroCount &-= rhs.measuredZeroCount
    }
  }

  /// Blocks by handle (a freed handle holds an empty block).
  @usableFromInline package var _blocks: ContiguousArray<_Block>
  /// Handles in row order: `_order[p]` is the block at position `p`.
  @usableFromInline package var _order: ContiguousArray<Int32>
  /// Position of each handle in `_order`, `-1` for a free handle.
  @usableFromInline package var _positions: ContiguousArray<Int32>
  @usableFromInline package var _freeHandles: [Int32]
  /// Fenwick tree over block summaries by position, 1-based (`_fenwick[0]` unused).
  @usableFromInline package var _fenwick: ContiguousArray<_Summary>
  /// id -> handle of the block that holds it (empty while `_implicit` is set
  /// or `_ordered`): keyless, so every hit is confirmed by the block scan
  /// that finds the row's slot.
  @usableFromInline package var _index: _IDIndex
  /// While the rows are exactly the integers of this range, in order (a tree
  /// built from a `Range<Int>` and since then only appended to with the next
  /// integers), the id index is implicit, `index(of: id) == id - lowerBound`,
  /// and `_index` stays empty: building 10M rows needs no hash table. The
  /// first other edit builds the index (`_materializeIndex()`, O(n)).
  @usableFromInline package var _implicit: Range<Int>?
  /// While the ids are `Int`s that strictly increase in row order (a tree
  /// built from ascending integer ids, such as message sequence numbers or
  /// database row ids, and since then only measured or appended to with
  /// larger ids), they are unique by construction and no hash table is kept
  /// either: `_firstIDs[p]` is the first id of the block at position `p`,
  /// and a lookup is a binary search over it and then over one block. The
  /// first other edit builds the index (`_materializeIndex()`, O(n)).
  @usableFromInline package var _ordered: Bool
  /// The first id of every block, by position, while `_ordered`; else empty.
  @usableFromInline package var _firstIDs: ContiguousArray<Int>
  /// The number of leading Fenwick nodes that hold no block: the block at
  /// position `p` is node `_lead + p + 1`. A block split off at the front
  /// takes the last empty node, so prepending costs O(log(n/B)) instead of a
  /// rebuild; a rebuild makes new room.
  @usableFromInline package var _lead: Int
  /// Totals over all rows.
  @usableFromInline package var _total: _Summary
  /// The blocks' header and footer counts (`_Block.roleCounts`, packed) in
  /// a Fenwick tree of their own, node for node beside `_fenwick`: kept
  /// apart so the summaries every other search reads stay 32 bytes (a
  /// fifth field made `jump` 22 % slower), and empty until the first role
  /// is given, so a list without sections pays nothing for them.
  @usableFromInline package var _roleFenwick: ContiguousArray<Int>
  /// The headers and footers of all rows, packed.
  @usableFromInline package var _roleTotal: Int

  /// The extent of every estimated row, in units.
  @usableFromInline package var estimate: Int64
  /// The spacing after every row but the last, in units.
  @usableFromInline package var spacing: Int64
  /// The most rows one block holds.
  @usableFromInline package let blockCapacity: Int
  /// Where reads made only to start cache misses early are kept, so the
  /// optimizer does not drop them (`invalidateAll`).
  @usableFromInline package var _touchedSink: Int32 = 0
  /// Blocks per row, times 2^32 (`_refreshRowGuess`): `_locate`'s guess
  /// of a row's block is a multiplication and a shift, not a division.
  /// Refreshed whenever the row or block count changes; a stale value only
  /// makes the (checked) guess miss, and the search descends.
  @usableFromInline package var _rowGuessScale: UInt64 = 0

  /// The block capacity used when none is given: 512, in every build
  /// configuration (an app's debug build gets the same layout as its
  /// release build); 8 while `LazyStackInternalChecks.isEnabled` (this
  /// package's tests), so tests reach splits and merges with small inputs.
  @usableFromInline
  package static var defaultBlockCapacity: Int {
    _internalChecksSwitch() ? 8 : 512
  }

  /// Creates a tree of estimated rows.
  /// - Parameters:
  ///   - ids: The rows' ids, in order; they must be unique.
  ///   - estimate: The extent of an estimated row, in units (0...maxExtentUnits).
  ///   - spacing: The spacing between rows, in units (>= 0).
  ///   - blockCapacity: The most rows a block holds (at least 4).
  ///   - measured: Measured extents (stored units) of ids that keep them.
  /// - Throws: `LazyStackError.duplicateID` naming the first repeated id.
  /// - Complexity: O(n).
  @inlinable
  package init(
    ids: some Sequence<ID>, estimate: Int64, spacing: Int64 = 0,
    blockCapacity: Int = ExtentTree.defaultBlockCapacity, measured: _IDTable<ID>? = nil
  ) throws(LazyStackError) {
    precondition(blockCapacity >= 4, "ExtentTree: blockCapacity must be at least 4")
    precondition(estimate >= 0 && estimate <= _FixedPoint.maxExtentUnits, "ExtentTree: estimate out of range")
    precondition(spacing >= 0, "ExtentTree: negative spacing")
    self.estimate = estimate
    self.spacing = spacing
    self.blockCapacity = blockCapacity
    _blocks = []
    _order = []
    _positions = []
    _freeHandles = []
    _fenwick = [_Summary()]
    _lead = 0
    _index = _IDIndex()
    _implicit = nil
    _ordered = false
    _firstIDs = []
    _total = _Summary()
    _roleFenwick = []
    _roleTotal = 0
    try _fill(ids: ids, measured: measured)
  }

  /// The number of rows a freshly built block holds: three quarters full, so
  /// a few inserts do not split it at once.
  @inlinable @inline(__always)
  package var _fillCount: Int { Swift.max(1, blockCapacity * 3 / 4) }

  /// Replaces every row with `ids`; a row whose id is in `measured` gets that
  /// extent. Leaves the tree empty and throws on a duplicate id.
  ///
  /// Ascending `Int` ids need no index (`_ordered`); otherwise one pass
  /// fills the id index (and finds duplicates before anything else is
  /// built). One pass copies the ids into blocks of estimated rows, and the
  /// measured extents are put back either per row (many of them) or per
  /// measured id (few: k lookups instead of n).
  @inlinable
  package mutating func _fill(ids: some Sequence<ID>, measured: _IDTable<ID>?) throws(LazyStackError) {
    _blocks.removeAll(keepingCapacity: true)
    _order.removeAll(keepingCapacity: true)
    _positions.removeAll(keepingCapacity: true)
    _freeHandles.removeAll()
    _index = _IDIndex()
    _implicit = nil
    _ordered = false
    _firstIDs = []
    _total = _Summary()
    if ID.self == Int.self, let range = ids as? Range<Int> {
      _fillImplicit(range)
    } else {
      var failure: LazyStackError?
      let done: Void? = ids.withContiguousStorageIfAvailable { buffer in failure = _fill(buffer) }
      if done == nil {
        ContiguousArray<ID>(ids).withUnsafeBufferPointer { buffer in failure = _fill(buffer) }
      }
      if let failure { throw failure }
    }
    if let measured, !measured.isEmpty { _restore(measured) }
  }

  /// `_fill` from a buffer of ids; returns the duplicate-id error, if any
  /// (the tree is then empty).
  ///
  /// `Int` ids that ascend in their first block are checked for ascending
  /// order a block at a time, right after the block's copy while its ids
  /// are in cache: one pass over the ids, not two. Other ids get their
  /// index first (a duplicate is found before any block is built); ids
  /// found out of order in a later block get it after the blocks.
  @inlinable
  package mutating func _fill(_ ids: UnsafeBufferPointer<ID>) -> LazyStackError? {
    let n = ids.count
    let fill = _fillCount
    var ascending = ID.self == Int.self && Self._ascending(ids, from: 0, to: Swift.min(n, fill))
    if !ascending, let duplicate = _buildIndex(ids) {
      _rebuildFenwick()
      return .duplicateID(String(describing: ids[duplicate]), index: duplicate)
    }
    let indexed = !ascending
    _blocks.reserveCapacity((n &+ fill &- 1) / fill)
    var shared = _EstimatedBuffers()
    var lower = 0
    while lower < n {
      let upper = Swift.min(n, lower &+ fill)
      _blocks.append(_Block(estimated: ContiguousArray(UnsafeBufferPointer(rebasing: ids[lower ..< upper])),
                            sharing: &shared))
      if ascending && lower != 0 { ascending = Self._ascending(ids, from: lower, to: upper) }
      lower = upper
    }
    if ascending {
      // Unique by construction: no hash table (see `_ordered`).
      _ordered = true
      _firstIDs.reserveCapacity(_blocks.count)
      for lower in stride(from: 0, to: n, by: fill) { _firstIDs.append(unsafeBitCast(ids[lower], to: Int.self)) }
    } else if !indexed, let duplicate = _buildIndex(ids) {
      _blocks.removeAll(keepingCapacity: true)
      _rebuildFenwick()
      return .duplicateID(String(describing: ids[duplicate]), index: duplicate)
    }
    _order = ContiguousArray((0 ..< _blocks.count).lazy.map { Int32(truncatingIfNeeded: $0) })
    _rebuildFenwick()
    return nil
  }

  /// Fills `_index` from ids laid out in blocks of `_fillCount` (the index
  /// first: a duplicate is found before any block is built); returns the
  /// offset of the first repeated id, if any (the index is then empty).
  /// - Complexity: O(n) expected.
  @inlinable
  package mutating func _buildIndex(_ ids: UnsafeBufferPointer<ID>) -> Int? {
    let n = ids.count
    precondition(n < Int(Int32.max), "ExtentTree: more than 2^31 rows")
    let fill = _fillCount
    let seed = _IDIndex.seed
    func records(_ body: (_IDRecord) -> Void) {
      for i in 0 ..< n {
        body(_IDRecord(hash: _idHash(ids[i], seed: seed), handle: Int32(truncatingIfNeeded: i / fill),
                       row: Int32(truncatingIfNeeded: i)))
      }
    }
    // Whether the block `handle` will hold (the rows laid out by `fill`)
    // another row with row `row`'s id.
    func sameKey(_ handle: Int32, _ row: Int) -> Bool {
      let lower = Int(handle) &* fill
      for r in lower ..< Swift.min(n, lower &+ fill) where r != row && ids[r] == ids[row] { return true }
      return false
    }
    let blocks = (n &+ fill &- 1) / fill
    let (built, repeated) = _IDIndex._build(count: n, minimumCapacity: _IDIndex.buildCapacity(for: n), handles: blocks,
                                            records: records, sameKey: sameKey)
    guard repeated else {
      _index = built
      return nil
    }
    // Name the first repeat in row order, as one insert after another would.
    var seen = Set<ID>(minimumCapacity: n)
    for i in 0 ..< n where !seen.insert(ids[i]).inserted { return i }
    preconditionFailure("ExtentTree: a repeated id that a set does not repeat")
  }

  /// An id index of the rows in the blocks, with room for
  /// `minimumCapacity` ids.
  /// - Complexity: O(n) expected.
  @inlinable
  package func _indexFromBlocks(minimumCapacity: Int) -> _IDIndex {
    let n = count
    precondition(n < Int(Int32.max), "ExtentTree: more than 2^31 rows")
    let seed = _IDIndex.seed
    func records(_ body: (_IDRecord) -> Void) {
      var row = 0
      for handle in _order {
        _withBlock(handle: Int(handle)) { block in
          for id in block.pointee.ids {
            body(_IDRecord(hash: _idHash(id, seed: seed), handle: handle, row: Int32(truncatingIfNeeded: row)))
            row &+= 1
          }
        }
      }
    }
    return _IDIndex._build(count: n, minimumCapacity: minimumCapacity, handles: _blocks.count,
                           records: records, sameKey: nil).index
  }

  /// Rebuilds the id index if an edit spilled entries (see `_IDIndex`),
  /// with more room if it was crowded.
  /// - Complexity: O(1), or O(n) expected when it rebuilds.
  @inlinable
  package mutating func _tidyIndex() {
    guard _hasIndex && _index.needsRebuild else { return }
    _index = _indexFromBlocks(minimumCapacity: _index.isCrowded ? count &* 2 : _IDIndex.buildCapacity(for: count))
  }

  /// Files every id of `ids` (the rows that moved from block `old` to block
  /// `new` in a split or a merge) under `new`; their home slots are read
  /// first, so the misses overlap.
  /// - Complexity: O(k) expected for k ids.
  @inlinable
  package mutating func _relabel(_ ids: ContiguousArray<ID>, from old: Int32, to new: Int32) {
    let hashes = ids.map { _index.hash($0) }
    _index.warm(hashes)
    for hash in hashes { _index.relabel(hash, from: old, to: new) }
  }

  /// Makes room in the id index for `additional` more ids (doubling it).
  /// - Complexity: O(1), or O(n) expected when it grows.
  @inlinable
  package mutating func _reserveIndex(_ additional: Int) {
    guard _hasIndex && !_index.hasRoom(for: additional) else { return }
    _index = _indexFromBlocks(minimumCapacity: Swift.max(count &* 2, count &+ additional &* 2))
  }

  /// Whether `ids[lower ..< upper]` (of type `Int`) strictly increase, each
  /// from the one before it (`ids[lower - 1]` included).
  /// - Complexity: O(upper - lower), without a branch a row (it vectorizes).
  @inlinable
  package static func _ascending(_ ids: UnsafeBufferPointer<ID>, from lower: Int, to upper: Int) -> Bool {
    guard let base = ids.baseAddress else { return true }
    let ints = UnsafeRawPointer(base).assumingMemoryBound(to: Int.self)
    var descents: UInt8 = 0
    for i in Swift.max(lower, 1) ..< Swift.max(upper, 1) { descents |= ints[i] <= ints[i &- 1] ? 1 : 0 }
    return descents == 0
  }

  /// Gives every row whose id `measured` names that stored extent.
  /// - Complexity: O(n) when many ids are measured, else O(k (log(n/B) + B))
  ///   for k measured ids.
  @inlinable
  package mutating func _restore(_ measured: _IDTable<ID>) {
    if measured.count &* 64 < count {
      measured.forEach { id, stored in
        if let location = _locate(id: id) { _setStored(stored, at: location) }
      }
      return
    }
    for p in 0 ..< _order.count {
      let handle = Int(_order[p])
      var block = _blocks[handle]
      var changed = false
      for slot in 0 ..< block.rowCount {
        guard let e = measured[block.ids[slot]] else { continue }
        if !changed {
          changed = true
          _blocks[handle] = _Block()  // let `block` be uniquely referenced
        }
        block.extents[slot] = e
      }
      // A block with no measured id keeps its shared estimated buffers.
      guard changed else { continue }
      let rebuilt = _Block(ids: block.ids, extents: block.extents, roles: block.roles)
      _blocks[handle] = rebuilt
    }
    _rebuildFenwick()
  }

  /// `_fill` for a range of integer ids: unique by construction, so no hash
  /// table is built (see `_implicit`).
  @inlinable
  package mutating func _fillImplicit(_ range: Range<Int>) {
    let fill = _fillCount
    _blocks.reserveCapacity((range.count &+ fill &- 1) / fill)
    var shared = _EstimatedBuffers()
    var lower = range.lowerBound
    while lower < range.upperBound {
      let upper = Swift.min(range.upperBound, lower &+ fill)
      let ids = unsafeBitCast(ContiguousArray<Int>(lower ..< upper), to: ContiguousArray<ID>.self)
      _blocks.append(_Block(estimated: ids, sharing: &shared))
      lower = upper
    }
    _implicit = range
    _order = ContiguousArray((0 ..< _blocks.count).lazy.map { Int32(truncatingIfNeeded: $0) })
    _rebuildFenwick()
  }

  /// Whether `_index` is in use (the ids are neither a range nor ordered).
  @inlinable @inline(__always)
  package var _hasIndex: Bool { _implicit == nil && !_ordered }

  /// Builds the id index if it is implicit (see `_implicit`, `_ordered`).
  /// - Complexity: O(n) the first time, O(1) after.
  @inlinable
  package mutating func _materializeIndex() {
    guard _implicit != nil || _ordered else { return }
    _implicit = nil
    _ordered = false
    _firstIDs = []
    _index = _indexFromBlocks(minimumCapacity: _IDIndex.buildCapacity(for: count))
  }

  /// The number of rows.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var count: Int { _total.count }

  /// The number of blocks.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var blockCount: Int { _order.count }

  /// The number of measured rows.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var measuredCount: Int { _total.measuredCount }

  /// The sum of the measured rows' extents, in units.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var measuredSum: Int64 { _total.measuredSum }

  /// The sum of all pitches (extents plus one spacing per row), in units.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var totalPitch: Int64 { _pitch(_total) }

  /// The sum of all extents plus the spacing between rows, in units: the
  /// main-axis content extent without insets.
  /// - Complexity: O(1).
  @inlinable
  package var totalExtent: Int64 {
    count == 0 ? 0 : totalPitch &- spacing
  }

  /// The number of rows with a non-zero extent.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var nonEmptyCount: Int { _nonEmpty(_total) }

  @inlinable @inline(__always)
  package func _pitch(_ s: _Summary) -> Int64 {
    s.measuredSum &+ Int64(s.count &- s.measuredCount) &* estimate &+ Int64(s.count) &* spacing
  }

  @inlinable @inline(__always)
  package func _nonEmpty(_ s: _Summary) -> Int {
    (estimate > 0 ? s.count &- s.measuredCount : 0) &+ (s.measuredCount &- s.measuredZeroCount)
  }

  /// The extent of a stored slot value, in units.
  @inlinable @inline(__always)
  package func _extent(_ stored: Int32) -> Int64 {
    stored < 0 ? estimate : Int64(stored)
  }

  /// The stored value of a row that was never measured (or is new).
  @inlinable @inline(__always)
  package static var _estimated: Int32 { -1 }

  /// The stored value of a row whose measurement was invalidated: estimated
  /// again after a measurement (SPEC S12 a).
  @inlinable @inline(__always)
  package static var _invalidated: Int32 { -2 }

  /// Sets the estimate of every unmeasured row (SPEC X2).
  /// - Complexity: O(1).
  @inlinable
  package mutating func setEstimate(_ units: Int64) {
    precondition(units >= 0 && units <= _FixedPoint.maxExtentUnits, "ExtentTree: estimate out of range")
    estimate = units
  }
}
