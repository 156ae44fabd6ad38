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
///   split or merge in the middle takes or leaves a *spare*, an empty block
///   kept between blocks (`_spareGap`), and moves only the blocks between,
///   O(B + r log(n/B)) for r ≤ `_spareReach` positions; only with no spare
///   near does it splice the block-level trees in place, O(n/B)
///   sequential, reading no other block.
/// - The id index maps an id to the handle of its block, so inserting rows
///   never renumbers later rows: a row's index is its block's start (a Fenwick
///   prefix) plus its slot (a scan of one block).
@usableFromInline
package struct ExtentTree<ID: Hashable & Sendable>: Sendable {

  /// Blocks by handle (a freed handle holds an empty block).
  @usableFromInline package var _blocks: ContiguousArray<_Block>
  /// Handles in row order: `_order[p]` is the block at position `p`.
  @usableFromInline package var _order: ContiguousArray<Int32>
  /// Position of each handle in `_order`, `-1` for a free handle.
  @usableFromInline package var _positions: ContiguousArray<Int32>
  @usableFromInline package var _freeHandles: [Int32]
  /// Fenwick tree over block summaries by position, 1-based (`_fenwick[0]` unused).
  @usableFromInline package var _fenwick: _FenwickTree<_Summary>
  /// id -> handle of the block that holds it (empty while `_ordered`):
  /// keyless, so every hit is confirmed by the block scan that finds the
  /// row's slot.
  @usableFromInline package var _index: _IDIndex
  /// While the rows are exactly the integers of this range, in order (a tree
  /// built from a `Range<Int>` and since then only appended to with the next
  /// integers), `index(of: id) == id - lowerBound`. Implies `_ordered` (with
  /// no exceptions), so the first other edit only clears it: O(1).
  @usableFromInline package var _implicit: Range<Int>?
  /// Whether the ids are `Int`s found without a hash index over all rows
  /// (a tree built from integer ids that mostly ascend: message sequence
  /// numbers, database row ids, timestamps). Every row is either *ordered*
  /// or an *exception*:
  /// - the ordered rows' ids strictly increase in row order (so they are
  ///   unique by construction), and none is `Int.max`;
  /// - an exception is a row whose id broke that order when it was built or
  ///   inserted; `_exceptions` maps its id to its block's handle.
  /// A lookup asks `_exceptions` (when there are any), then searches the
  /// blocks' keys (`_firstIDs`) and one block. An edit that breaks the order
  /// files the ids that break it as exceptions, O(k) for k ids: no edit
  /// builds an index over all rows (SPEC E4). A snapshot (`_fill`) chooses
  /// again: ordered when at most an eighth of the ids are exceptions.
  @usableFromInline package var _ordered: Bool
  /// Where reads made only to start cache misses early are kept, so the
  /// optimizer does not drop them (`invalidateAll`). 8 bits after
  /// `_ordered`, in the room `_implicit`'s tag leaves before the next word.
  @usableFromInline package var _touchedSink: UInt8 = 0
  /// The number of spares in `_order` (see `_spareGap`), 32 bits (it is
  /// at most the number of blocks, whose handles are 32 bits) in the same
  /// room, so the tree keeps its 256 bytes.
  @inlinable @inline(__always)
  package var _spareCount: Int {
    get { Int(_spares) }
    set { _spares = Int32(truncatingIfNeeded: newValue) }
  }
  /// `_spareCount`, stored.
  @usableFromInline package var _spares: Int32 = 0
  /// The blocks' search keys, by position, while `_ordered`; else empty.
  /// `_firstIDs[p]` is greater than every ordered id before block `p` and at
  /// most every ordered id in it (the block's first id, while there are no
  /// exceptions and no first row was removed); the keys never decrease
  /// (a block built or split without an ordered row gets the next block's
  /// key, or `Int.max` at the end; one whose ordered rows were removed
  /// keeps its own). So every ordered id of block `p` is in
  /// `_firstIDs[p] ..< _firstIDs[p + 1]`, and the block that can hold
  /// ordered id `x` is the last one whose key is at most `x`.
  @usableFromInline package var _firstIDs: ContiguousArray<Int>
  /// The exceptions while `_ordered` (see there): id -> handle of its
  /// block; `nil` when there are none, so the common case tests one word.
  @usableFromInline package var _exceptions: _GrowingIDTable?
  /// The number of exceptions in each block that holds any, by handle
  /// (handle -> count; `nil` when there are no exceptions): a block without
  /// exceptions has ascending ids, so a search that misses there is final.
  /// A table, not an array by handle: the first exception of a list of 100M
  /// rows must not allocate a count for each of its 260,000 blocks.
  @usableFromInline package var _exceptionCounts: _GrowingIDTable?
  /// While the id index grows (or sheds a spill): the larger index that
  /// replaces `_index` once it files every row, filled a few blocks an edit
  /// (`_advanceIndexMigration`), so no single edit rebuilds the index.
  /// `_index` stays complete and answers every lookup meanwhile; an edit
  /// changes both for the rows of migrated blocks. `nil` otherwise.
  @usableFromInline package var _nextIndex: _IDIndex?
  /// The blocks with a handle below this are filed in `_nextIndex`.
  @usableFromInline package var _migrated: Int
  /// What the tree dropped and gives back to the system a slice an edit,
  /// the last first (see `_tidyIndex`): the id index `_nextIndex` replaced,
  /// and the storages of exception tables that emptied (the last exception
  /// went), so that dropping the table of a million exceptions is not one
  /// free of 17 MB (1.6 ms here). Empty but for that. (One array for both:
  /// the tree stays within 256 bytes.)
  @usableFromInline package var _retired: [_RetiredPages]
  /// The number of leading Fenwick nodes that hold no block: the block at
  /// position `p` is node `_lead + p + 1`. A block split off at the front
  /// takes the last empty node, so prepending costs O(log(n/B)) instead of a
  /// rebuild; a rebuild makes new room.
  @inlinable @inline(__always)
  package var _lead: Int {
    get { Int(_leadNodes) }
    set { _leadNodes = Int32(truncatingIfNeeded: newValue) }
  }
  /// `_lead`, 32 bits (it is at most the number of blocks, whose handles
  /// are 32 bits), beside `_blockCapacity` in one word.
  @usableFromInline package var _leadNodes: Int32
  /// The most rows one block holds (`blockCapacity`).
  @usableFromInline package let _blockCapacity: Int32
  /// Totals over all rows.
  @usableFromInline package var _total: _Summary
  /// The blocks' header and footer counts (`_Block.roleCounts`, packed) in
  /// a Fenwick tree of their own, node for node beside `_fenwick`: kept
  /// apart so the summaries every other search reads stay 32 bytes (a
  /// fifth field made `jump` 22 % slower), and empty until the first role
  /// is given, so a list without sections pays nothing for them.
  @usableFromInline package var _roleFenwick: _FenwickTree<Int>
  /// The headers and footers of all rows, packed.
  @usableFromInline package var _roleTotal: Int

  /// The extent of every estimated row, in units.
  @usableFromInline package var estimate: Int64
  /// The spacing after every row but the last, in units.
  @usableFromInline package var spacing: Int64
  /// Blocks per row, times 2^32 (`_refreshRowGuess`): `_locate`'s guess
  /// of a row's block is a multiplication and a shift, not a division.
  /// Refreshed whenever the row or block count changes; a stale value only
  /// makes the (checked) guess miss, and the search descends.
  @usableFromInline package var _rowGuessScale: UInt64 = 0
  /// What the kinds add to the pitch of all rows (`_KindTable.pitchTotal`,
  /// kept by `_refreshKindTotals`; 0 without kinds): a field of the tree,
  /// so `totalPitch` (every content size, every clamp) is a load and an
  /// add, with no test of `_kinds` and no call.
  @usableFromInline package var _kindPitch: Int64 = 0
  /// The kinds and their estimates, and the Fenwick tree of the blocks'
  /// kind vectors (`ExtentTree+Kinds`); `nil` until a row is first given a
  /// kind or an own estimate, so a list without them pays nothing. Late,
  /// so the other fields keep their places (and the tree its 256 bytes: a
  /// copy of it for a call that is not inlined is one block move of 8
  /// vectors; a larger tree's copy costs twice as much).
  @usableFromInline package var _kinds: _KindTable?
  /// Shared buffers of estimated rows, a few row counts (`_estimatedBuffers`):
  /// a block whose rows were all never measured keeps its extents and chunk
  /// prefixes in the pool's buffers of its row count through inserts and
  /// removals of estimated rows, instead of a copy of its own (4.5 bytes a row
  /// in every edited block). After `_kinds`, so it keeps its place.
  @usableFromInline package var _estimatedPool: ContiguousArray<_EstimatedBuffers> = []

  /// The block capacity used when none is given: 512, in every build
  /// configuration (an app's debug build gets the same layout as its
  /// release build); 8 while `LazyStackInternalChecks.isEnabled` (this
  /// package's tests), so tests reach splits and merges with small inputs.
  @usableFromInline
  package static var defaultBlockCapacity: Int {
    _internalChecksSwitch() ? 8 : 512
  }

  /// One spare after every this many blocks when spares are spread
  /// (`_spreadSpares`). A *spare* is an empty block kept in `_order`
  /// between two blocks with rows (never first or last): its Fenwick leaf
  /// is zero, so every search passes it, and a split in the middle takes
  /// the nearest one instead of moving every later block up a position
  /// (`_splitIntoSpares`); a merge in the middle leaves one behind.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package static var _spareGap: Int { 16 }

  /// The fewest blocks a tree spreads spares among: 4,096 (about 1.5M
  /// rows). Below it a split's O(n/B) pass is a few thousand integers, tens
  /// of µs, while spares cost every search a little: with them from 256
  /// blocks, `measure` at 1M rows (1,953 blocks) ran 5 % slower in time
  /// for 0.7 % more instructions (Benchmarks/RESULTS.md, 2026-11-29).
  /// 4 while `LazyStackInternalChecks.isEnabled`, so tests reach spares
  /// with small inputs.
  /// - Complexity: O(1).
  @usableFromInline
  package static var _spareThreshold: Int {
    _internalChecksSwitch() ? 4 : 4096
  }

  /// How far (in positions) a split looks each way for spares, and the
  /// most blocks it moves over by one to bring them next to it.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package static var _spareReach: Int { 64 }

  /// How many spares a split in the middle that found none near puts in
  /// after its pieces, in the pass that moves the later blocks up anyway,
  /// so the next splits there take them: one such pass every 9 splits at
  /// a place that keeps growing, none at a build's spread.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package static var _sparesMade: Int { 8 }

  /// Whether the block at `position` is a spare (see `_spareGap`).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func _isSpare(_ position: Int) -> Bool {
    _withBlock(handle: Int(_order[position])) { $0.pointee.rowCount == 0 }
  }

  /// The number of rows.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var count: Int { _total.count }

  /// The most rows one block holds.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var blockCapacity: Int { Int(_blockCapacity) }

  /// The number of blocks with rows (the spares between them, see
  /// `_spareGap`, not counted).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var blockCount: Int { _order.count &- _spareCount }

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
  package var totalPitch: Int64 {
    _pitch(_total) &+ _kindPitch
  }

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
  package var nonEmptyCount: Int {
    _nonEmpty(_total) &+ (_slowPath(_kinds != nil) ? Self._nonEmptyTotal(of: _kinds.unsafelyUnwrapped) : 0)
  }


  /// What the kinds add to `nonEmptyCount`: outlined, so a tree without
  /// kinds pays a test and a branch, and no registers, for them.
  @inlinable @inline(never)
  package static func _nonEmptyTotal(of kinds: _KindTable) -> Int { kinds.nonEmptyTotal }

  /// The extent of a stored slot value, in units.
  @inlinable @inline(__always)
  package func _extent(ofStored stored: Int32) -> Int64 {
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
    if _slowPath(_kinds != nil) { _followKindZero() }
  }

  /// The kinds without an estimate of their own follow kind 0's.
  @inlinable @inline(never)
  package mutating func _followKindZero() {
    let table = _writableKinds()
    for (j, kind) in table.kindOfSlot.enumerated() where table.estimates[Int(kind)] < 0 {
      table.slotEstimates[j] = estimate
    }
    _refreshKindTotals()
  }

  /// Recomputes the kind table's `pitchTotal` and `nonEmptyTotal` from its
  /// total, and the tree's copy of the first (`_kindPitch`).
  /// - Complexity: O(k) for k kinds in use.
  @inlinable @inline(never)
  package mutating func _refreshKindTotals() {
    guard let table = _kinds else {
      _kindPitch = 0
      return
    }
    let pitch = table._totalCorrection(estimate)
    let nonEmpty = table._totalNonEmptyCorrection(estimate)
    if pitch != table.pitchTotal || nonEmpty != table.nonEmptyTotal {
      // A table shared with another tree is copied first (`_writableKinds`).
      let mine = _writableKinds()
      mine.pitchTotal = pitch
      mine.nonEmptyTotal = nonEmpty
    }
    _kindPitch = pitch
  }
}
