// A block of consecutive rows: its ids, stored extents, chunk prefixes and
// roles, and the estimated buffers the blocks of one build share.

extension ExtentTree {
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
    /// Per chunk of `_chunk` (8) slots: the measured sum and the number of
    /// estimated slots of the block's slots up to the chunk's end (an
    /// inclusive prefix), packed in one word (`ExtentTree._packChunk`), so
    /// a slot's offset in its block is one load and at most 7 slots, and
    /// in-block searches skip 16 rows at a step. A measurement adds its
    /// change to the chunks from its own on (at most `B/8` words). Empty
    /// in a block of 4,096 rows or more, which only exists between an
    /// insert and the split that follows it.
    @usableFromInline package var chunks: ContiguousArray<Int64>
    /// Each slot's role (`ExtentTree._role`: 0 a row, 1 a section header,
    /// 2 a section footer, SPEC H1), or empty while every row of the block
    /// is a plain row: a list without sections pays nothing for them.
    @usableFromInline package var roles: ContiguousArray<UInt8>
    /// The block's headers and footers, packed (`ExtentTree._packedRoleCount`).
    @usableFromInline package var roleCounts: Int
    /// Each slot's kind and own estimate (`ExtentTree+Kinds`), or empty
    /// while every row of the block is of kind 0 without an own estimate.
    @usableFromInline package var extras: ContiguousArray<UInt64>
    /// The block's kind vector (`ExtentTree._KindTable`), or empty (no
    /// extras, or a tree without kinds).
    @usableFromInline package var kindVector: ContiguousArray<Int64>

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
      extras = []
      kindVector = []
    }

    /// Takes the extras of `added`'s rows, which are about to be inserted at
    /// `slot` (call it before `rowCount` counts them). Rows without extras
    /// joining a block without extras leave it without. The kind vector is
    /// the caller's to recount.
    /// - Complexity: O(B).
    @inlinable
    package mutating func _insertExtras(of added: _Block, at slot: Int) {
      _insertExtras(added.extras, rowCount: added.rowCount, at: slot)
    }

    /// Takes the extras of `rowCount` rows about to be inserted at `slot`
    /// (`added`: one a row, or empty when none has any).
    /// - Complexity: O(B).
    @inlinable
    package mutating func _insertExtras(_ added: ContiguousArray<UInt64>, rowCount addedRows: Int, at slot: Int) {
      guard !added.isEmpty || !extras.isEmpty else { return }
      if extras.isEmpty { extras = ContiguousArray(repeating: 0, count: rowCount) }
      if added.isEmpty {
        extras.insert(contentsOf: repeatElement(0, count: addedRows), at: slot)
      } else {
        extras.insert(contentsOf: added, at: slot)
      }
    }

    /// Makes room for `added` more rows in the block's row buffers, with a
    /// little to spare (an eighth, at least 8 rows) instead of the doubling
    /// of `Array`'s own growth: a block is at most `blockCapacity` rows
    /// (it splits past that), and an edited block of a built list would
    /// otherwise hold twice its rows' room in each buffer. A buffer shared
    /// with another block or layout that lacks room is copied here, into
    /// the room wanted (one with room is copied by the insert, as before).
    /// Roles and extras made for the first time keep `Array`'s own growth.
    /// With `extents: false` (the block is about to take shared buffers)
    /// the extents get no room.
    /// - Complexity: O(B) when a buffer grows, else O(1).
    @inlinable
    package mutating func _makeRoom(for added: Int, extents withExtents: Bool = true) {
      let needed = rowCount &+ added
      guard ids.capacity < needed || (withExtents && extents.capacity < needed) else { return }
      let room = needed &+ Swift.max(8, needed >> 3)
      if ids.capacity < needed { ids.reserveCapacity(room) }
      if withExtents && extents.capacity < needed { extents.reserveCapacity(room) }
      if !roles.isEmpty && roles.capacity < needed { roles.reserveCapacity(room) }
      if !extras.isEmpty && extras.capacity < needed { extras.reserveCapacity(room) }
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
      _insertRoles(added.roles, counts: added.roleCounts, rowCount: added.rowCount, at: slot)
    }

    /// Takes the roles of `rowCount` rows about to be inserted at `slot`:
    /// `added` holds one a row (or is empty: plain rows), `counts` their
    /// packed headers and footers.
    /// - Complexity: O(B).
    @inlinable
    package mutating func _insertRoles(_ added: ContiguousArray<UInt8>, counts: Int, rowCount addedRows: Int, at slot: Int) {
      guard counts != 0 || !roles.isEmpty else { return }
      _materializeRoles()
      if counts == 0 || added.isEmpty {
        roles.insert(contentsOf: repeatElement(0, count: addedRows), at: slot)
      } else {
        roles.insert(contentsOf: added, at: slot)
      }
      roleCounts &+= counts
    }

    /// Recomputes the chunk prefixes from the chunk holding `slot` on.
    /// - Complexity: O(B).
    @inlinable
    package mutating func _rebuildChunks(from slot: Int = 0) {
      // Packed counts need fewer than 4,096 slots: a larger block is about
      // to be split, and its pieces get their own chunks.
      guard extents.count < ExtentTree._chunkedRowLimit else { chunks = []; return }
      let wanted = (extents.count &+ ExtentTree._chunk &- 1) >> ExtentTree._chunkShift
      let first = Swift.min(slot >> ExtentTree._chunkShift, wanted, chunks.count)
      chunks.removeLast(chunks.count &- first)
      var running = first == 0 ? 0 : chunks[first &- 1]
      extents.withUnsafeBufferPointer { e in
        for c in first ..< wanted {
          let (measured, estimated) = ExtentTree._sum(e, (c << ExtentTree._chunkShift) ..< Swift.min(e.count, (c &+ 1) << ExtentTree._chunkShift))
          running &+= ExtentTree._packChunk(measured, estimated)
          chunks.append(running)
        }
      }
    }

    /// The chunk prefixes after one row was inserted at `slot` (already in
    /// `extents`): each later prefix loses the row its chunk no longer
    /// holds and gains the new one, one read a chunk instead of a sum of
    /// its eight rows (`_rebuildChunks`).
    /// - Complexity: O(B/8).
    @inlinable
    package mutating func _shiftChunks(insertedAt slot: Int) {
      let n = extents.count
      let old = n &- 1
      guard n < ExtentTree._chunkedRowLimit, old > 0,
            chunks.count == (old &+ ExtentTree._chunk &- 1) >> ExtentTree._chunkShift else {
        return _rebuildChunks(from: slot)
      }
      let shift = ExtentTree._chunkShift
      extents.withUnsafeBufferPointer { e in
        let added = Self._packed(e[slot])
        let oldChunks = chunks.count
        chunks.withUnsafeMutableBufferPointer { chunks in
          // Old chunk c ended at row 8c + 8 (exclusive); that row is now one
          // further on, and leaves the chunk when the chunk was full: every
          // chunk but the old last one, which was full when `old` is a
          // multiple of 8. Two loops, so the first has no test in it.
          let full = old >> shift
          var c = slot >> shift
          while c < full {
            chunks[c] &+= added &- Self._packed(e[(c &+ 1) << shift])
            c &+= 1
          }
          while c < oldChunks {
            chunks[c] &+= added
            c &+= 1
          }
        }
        if n > oldChunks << shift {  // a new last chunk: the last row alone
          chunks.append(chunks[oldChunks &- 1] &+ Self._packed(e[n &- 1]))
        }
      }
    }

    /// The chunk prefixes after the row at `slot`, whose stored extent was
    /// `removed`, was taken out of `extents`: `_shiftChunks(insertedAt:)`
    /// the other way.
    /// - Complexity: O(B/8).
    @inlinable
    package mutating func _shiftChunks(removedAt slot: Int, stored removed: Int32) {
      let n = extents.count
      let old = n &+ 1
      guard old < ExtentTree._chunkedRowLimit, n > 0,
            chunks.count == (old &+ ExtentTree._chunk &- 1) >> ExtentTree._chunkShift else {
        return _rebuildChunks(from: slot)
      }
      let shift = ExtentTree._chunkShift
      let wanted = (n &+ ExtentTree._chunk &- 1) >> shift
      chunks.removeLast(chunks.count &- wanted)
      extents.withUnsafeBufferPointer { e in
        let gone = Self._packed(removed)
        chunks.withUnsafeMutableBufferPointer { chunks in
          // The row after old chunk c's end moves into it, when there is
          // one: for every chunk that is full after the removal.
          let full = Swift.min(n >> shift, wanted)
          var c = slot >> shift
          while c < full {
            chunks[c] &+= Self._packed(e[((c &+ 1) << shift) &- 1]) &- gone
            c &+= 1
          }
          while c < wanted {
            chunks[c] &-= gone
            c &+= 1
          }
        }
      }
    }

    /// One row's packed chunk word (`_packChunk` of a single stored extent).
    @inlinable @inline(__always)
    package static func _packed(_ e: Int32) -> Int64 {
      ExtentTree._packChunk(Int64(e & ~(e >> 31)), Int(UInt32(bitPattern: e) >> 31))
    }

    /// A block of the given rows; `roles` is empty (all plain rows) or
    /// holds one role a row.
    @inlinable
    package init(
      ids: ContiguousArray<ID>, extents: ContiguousArray<Int32>, roles: ContiguousArray<UInt8> = [],
      extras: ContiguousArray<UInt64> = []
    ) {
      precondition(roles.isEmpty || roles.count == ids.count, "ExtentTree: one role per row, or none")
      precondition(extras.isEmpty || extras.count == ids.count, "ExtentTree: one extra per row, or none")
      self.extras = extras
      kindVector = []
      self.ids = ids
      self.extents = extents
      rowCount = ids.count
      measuredSum = 0
      measuredCount = 0
      measuredZeroCount = 0
      chunks = []
      var counts = 0
      for role in roles { counts &+= ExtentTree._packedRoleCount(role) }
      roleCounts = counts
      self.roles = counts == 0 ? [] : roles
      for e in extents where e >= 0 {
        measuredSum &+= Int64(e)
        measuredCount &+= 1
        if e == 0 { measuredZeroCount &+= 1 }
      }
      _rebuildChunks()
    }

    /// A block of estimated rows, without a pass over them: its extents and
    /// chunk prefixes are `shared`'s, which has as many rows (the tree's
    /// `_estimatedBuffers`). The blocks of one build share a single pair
    /// of buffers, and a block gets its own copy when one of its rows is
    /// first measured (copy on write). A list whose rows are mostly never
    /// measured so stores no extent for them.
    /// - Precondition: `shared.rows == ids.count`.
    /// - Complexity: O(1).
    @inlinable
    package init(estimated ids: ContiguousArray<ID>, sharing shared: _EstimatedBuffers) {
      precondition(shared.rows == ids.count, "ExtentTree: shared buffers of another row count")
      self.ids = ids
      extents = shared.extents
      rowCount = ids.count
      measuredSum = 0
      measuredCount = 0
      measuredZeroCount = 0
      roles = []
      roleCounts = 0
      extras = []
      kindVector = []
      chunks = shared.chunks
    }

    /// Whether every row of the block was never measured (each stored
    /// extent is `-1`, see `ExtentTree._estimated`), so its extents and
    /// chunk prefixes can be the shared ones of its row count.
    /// - Complexity: O(1) when a row is measured, else O(B) (a loop that
    ///   vectorizes).
    @inlinable
    package var _isPristine: Bool {
      guard measuredCount == 0, rowCount > 0, extents.count == rowCount else { return false }
      // -1 has every bit set: the AND of the stored values is -1 exactly
      // when every one is -1 (invalidated rows, -2, are not pristine).
      return extents.withUnsafeBufferPointer { stored in
        var all: Int32 = -1
        for e in stored { all &= e }
        return all == -1
      }
    }

    /// Takes `shared`'s extents and chunk prefixes (the block's rows are
    /// all estimated, never measured, and as many as `shared`'s).
    @inlinable
    package mutating func _share(_ shared: _EstimatedBuffers) {
      extents = shared.extents
      chunks = shared.chunks
    }

    @inlinable @inline(__always)
    package var summary: _Summary {
      _Summary(count: rowCount, measuredSum: measuredSum,
               measuredCount: measuredCount, measuredZeroCount: measuredZeroCount)
    }
  }

  /// The extents (all `-1`) and chunk prefixes of a block of `rows`
  /// estimated rows, which the blocks of that row count share
  /// (`ExtentTree._estimatedBuffers`).
  @usableFromInline
  package struct _EstimatedBuffers: Sendable {
    @usableFromInline package var extents: ContiguousArray<Int32>
    @usableFromInline package var chunks: ContiguousArray<Int64>
    /// `extents.count`, kept here so a search of the pool reads no buffer.
    @usableFromInline package var rows: Int

    /// The buffers of `rows` estimated rows.
    /// - Complexity: O(rows).
    @inlinable
    package init(rows: Int) {
      extents = ContiguousArray(repeating: ExtentTree._estimated, count: rows)
      chunks = ExtentTree._estimatedChunks(rows)
      self.rows = rows
    }
  }

  /// The most entries `_estimatedPool` holds.
  @inlinable @inline(__always)
  package static var _estimatedPoolLimit: Int { 64 }

  /// The shared buffers of `rows` estimated rows from `_estimatedPool`, or
  /// made and kept there while it has room: at most 64 row counts and
  /// `max(4 B, n / 8)` rows in all. A full pool drops nothing (a block that
  /// holds an entry's buffers keeps them either way), so edits that reach
  /// ever new row counts do not make and drop buffers in turn: nil then,
  /// and the block keeps buffers of its own, as without a pool.
  /// - Complexity: O(1) for a row count in the pool, else O(rows) (plus a
  ///   pass over the pool's 64 entries).
  @inlinable
  package mutating func _estimatedBuffers(_ rows: Int) -> _EstimatedBuffers? {
    let (found, held) = _estimatedPool.withUnsafeBufferPointer { pool -> (Int, Int) in
      var held = 0
      for i in pool.indices {
        if pool[i].rows == rows { return (i, 0) }
        held &+= pool[i].rows
      }
      return (-1, held)
    }
    if found >= 0 { return _estimatedPool[found] }
    guard _estimatedPool.count < Self._estimatedPoolLimit,
          held &+ rows <= Swift.max(4 &* blockCapacity, count >> 3) else { return nil }
    let made = _EstimatedBuffers(rows: rows)
    _estimatedPool.append(made)
    return made
  }

  /// Whether a block of `rows` rows may take the pool's buffers: chunked
  /// (under 4,096 rows) and at most twice the capacity (a block over it
  /// splits at once, and the pool keeps no row count it will not see again).
  @inlinable @inline(__always)
  package func _poolsRows(_ rows: Int) -> Bool {
    rows > 0 && rows < Self._chunkedRowLimit && rows <= 2 &* blockCapacity
  }

  /// The chunk prefixes of `n` estimated rows (none from 4,096 rows on,
  /// see `_Block.chunks`): one allocation, each word written once.
  /// - Complexity: O(n).
  @inlinable @inline(__always)
  package static func _estimatedChunks(_ n: Int) -> ContiguousArray<Int64> {
    guard n < _chunkedRowLimit else { return [] }
    let count = (n &+ _chunk &- 1) >> _chunkShift
    return ContiguousArray(unsafeUninitializedCapacity: count) { buffer, initialized in
      // Chunk c holds (c + 1) * 8 estimated rows, the last one n: a loop that vectorizes.
      if count > 0, let base = buffer.baseAddress {
        for c in 0 ..< count &- 1 { base[c] = _packChunk(0, (c &+ 1) &<< _chunkShift) }
        base[count &- 1] = _packChunk(0, n)
      }
      initialized = count
    }
  }
}
