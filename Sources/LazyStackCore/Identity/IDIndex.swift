import Foundation

// Over 600 lines, on purpose: the index, its probing and its page pool
// are one structure whose invariants hold across all three.

/// The id index of an `ExtentTree` (DESIGN §2): id -> handle of the block
/// that holds the row, in one 32-bit word a slot and no keys.
///
/// The ids are already stored once, in the blocks, so the index keeps only
/// what leads to the right block. A slot packs the block handle, a few bits
/// of the id's hash (the *tag*) and the slot's distance from the id's home
/// slot. A lookup walks the slots of its home, and every slot whose tag
/// matches names a block the caller checks for the id, a scan it makes
/// anyway to find the row's slot. A tag matches another id's with
/// probability 2^-tagBits (1/8,192 at a million rows), so a wrong block is
/// scanned rarely. That is 8 bytes a row as built (half full, see
/// `buildCapacity`) and 5.3 at the most crowded (3/4 full, when it grows),
/// where a table that also kept the keys took 21 for `Int` ids.
///
/// Robin Hood linear probing: the slots are sorted by home (cyclically), so
/// the entries of one home are adjacent and a lookup stops at the first slot
/// whose distance is smaller than its own. An insert shifts the run after
/// its place forward by one slot; a removal shifts it back (no tombstones),
/// so lookups never slow down after many edits.
///
/// Entries equal in home, tag and handle are interchangeable: the index is a
/// multiset of (home, tag, handle). Moving an id to another block relabels
/// one entry of that id's (home, tag, old handle), whichever it is, and the
/// multiset comes out right.
///
/// An entry that does not fit (a handle past the slot's field, a distance
/// past its field, a table with no free slot) is kept whole, with its full
/// hash, in a short spill list that lookups also read; after the edit that
/// spilled (`needsRebuild`), the owner starts filling a new index from its
/// blocks, a few blocks an edit, so the index never fails an edit.
///
/// A value type with copy-on-write storage.
@usableFromInline
package struct _IDIndex: Sendable {
  @usableFromInline package var _storage: _IDIndexStorage

  /// An empty index with room for `minimumCapacity` ids in blocks with
  /// handles below about twice `handles`.
  /// - Complexity: O(minimumCapacity).
  @inlinable
  package init(minimumCapacity: Int = 0, handles: Int = 0) {
    _storage = _IDIndexStorage(slots: _idSlotCount(for: minimumCapacity), handles: handles)
  }

  /// The number of entries (one per id).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var count: Int { _storage.count &+ _storage.spilledCount }

  /// Whether the index is empty.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var isEmpty: Bool { count == 0 }

  /// Whether `additional` more ids fit without passing the load limit.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func hasRoom(for additional: Int) -> Bool {
    _storage.count &+ additional <= _storage.maximumCount
  }

  /// The entries from which the owner starts filling a larger index (5/8
  /// of the slots), so that it is complete before this one is 3/4 full
  /// (see `ExtentTree._reserveIndex`).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var migrationStart: Int { _storage.slotCount &* 5 / 8 }

  /// Whether an edit spilled entries, so the owner should replace the index.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var needsRebuild: Bool { _storage.spilledCount != 0 }

  /// Whether a rebuild should also make more room: an entry spilled for
  /// want of a slot or of distance, not only for a large handle.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var isCrowded: Bool { _storage.crowded }

  /// The heap bytes held by the index.
  /// - Complexity: O(1).
  @inlinable
  package var heapBytes: Int {
    32 &+ _storage.slotCount &* 4 &+ (_storage.spilled.capacity == 0 ? 0 : 32 &+ _storage.spilled.capacity &* 16)
  }

  /// The 64-bit hash the index files `key` under.
  /// - Complexity: O(1) for `Int` ids; `hashValue` otherwise.
  @inlinable @inline(__always)
  package func hash<Key: Hashable>(_ key: Key) -> UInt64 { _idHash(key, seed: _storage.seed) }

  /// The seed every index of this process hashes with (random per process),
  /// for records hashed before there is an index to ask.
  @inlinable @inline(__always)
  package static var seed: UInt64 { _idTableSeed }

  /// The room a built index gets for `n` ids: n/2 more, so a built index
  /// is half full (2 slots, 8 bytes, a row) and the first edits after a
  /// build do not grow it. Runs of occupied slots stay short, so an insert
  /// (which shifts the run after its place) and a lookup touch fewer
  /// slots than at the 3/4 load a tighter index would start at: paired at
  /// 1e6 against room for n/16 more (5.7 bytes a row), `prepend_read`
  /// −31 %, `build_shuffled` −21 %, `reorder_shuffle` −20 %, for +2.3
  /// bytes a row.
  @inlinable @inline(__always)
  package static func buildCapacity(for n: Int) -> Int { n &+ n >> 1 &+ 64 }

  /// The first handle filed under `hash` for which `holds` is true (the
  /// caller checks the block for its id), or `nil`.
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  package func first(_ hash: UInt64, where holds: (Int32) -> Bool) -> Int32? {
    _storage._first(hash, where: holds)
  }

  /// Files an id with hash `hash` under block `handle`; the caller knows
  /// the id is not filed yet.
  /// - Complexity: O(1) expected.
  @inlinable
  package mutating func insert(_ hash: UInt64, handle: Int32) {
    _makeUnique()
    _storage._insert(hash, handle: handle)
  }

  /// Files an id with hash `hash` under block `handle` unless `present`
  /// is true for a handle already filed under `hash` (the caller checks
  /// that block for the id): returns false, and changes nothing, then.
  /// - Complexity: O(1) expected.
  @inlinable
  package mutating func insert(_ hash: UInt64, handle: Int32, unless present: (Int32) -> Bool) -> Bool {
    _makeUnique()
    return _storage._insert(hash, handle: handle, unless: present)
  }

  /// Removes one entry of (`hash`, `handle`).
  /// - Precondition: there is one.
  /// - Complexity: O(1) expected.
  @inlinable
  package mutating func remove(_ hash: UInt64, handle: Int32) {
    _makeUnique()
    _storage._remove(hash, handle: handle)
  }

  /// Moves one entry of (`hash`, `old`) to block `new`.
  /// - Precondition: there is one.
  /// - Complexity: O(1) expected.
  @inlinable
  package mutating func relabel(_ hash: UInt64, from old: Int32, to new: Int32) {
    _makeUnique()
    _storage._relabel(hash, from: old, to: new)
  }

  /// Reads the home slot of every hash before the caller edits them one by
  /// one: the reads are independent, so their cache misses overlap.
  /// - Complexity: O(k) for k hashes.
  @inlinable
  package mutating func warm(_ hashes: some Sequence<UInt64>) {
    _makeUnique()  // the sink below is written to the storage
    let s = _storage
    var sink: UInt32 = 0
    for hash in hashes { sink |= s.slots[s._home(hash)] }
    s._touched = sink  // keeps the reads
  }

  /// An empty index like `init(minimumCapacity:handles:)` whose slots are
  /// zeroed by `prepare`, a bounded number a call: nothing may be filed or
  /// looked up before `prepare` returns true.
  /// - Complexity: O(1) (the allocation).
  @inlinable
  package init(unzeroedCapacity minimumCapacity: Int, handles: Int) {
    _storage = _IDIndexStorage(slots: _idSlotCount(for: minimumCapacity), handles: handles, zeroed: false)
  }

  /// Zeroes up to `slots` more slots of an index made with
  /// `init(unzeroedCapacity:handles:)`; returns whether it is ready.
  /// - Complexity: O(slots).
  @inlinable
  package mutating func prepare(slots budget: Int) -> Bool {
    if _storage.prepared == _storage.slotCount { return true }
    _makeUnique()
    return _storage._prepare(budget)
  }

  /// Whether every slot is zeroed (always, but for an index made with
  /// `init(unzeroedCapacity:handles:)` that `prepare` has not finished).
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var isPrepared: Bool { _storage.prepared == _storage.slotCount }

  /// For an index its owner no longer reads: gives the pages of up to
  /// `slots` more slots back to the system if no copy shares them, and
  /// returns true when the owner can drop it (freeing it is then short).
  /// - Complexity: O(slots).
  @inlinable
  package mutating func releasePages(slots budget: Int) -> Bool {
    guard isKnownUniquelyReferenced(&_storage) else { return true }  // a copy still reads it
    return _storage._releasePages(budget)
  }

  /// Gives the index storage of its own (copy-on-write).
  /// - Complexity: O(capacity) when the storage is shared, else O(1).
  @inlinable
  package mutating func _makeUnique() {
    if !isKnownUniquelyReferenced(&_storage) { _storage = _storage._copy() }
  }
}

/// The slot count for `capacity` ids: at a load of at most 3/4, rounded up
/// to 16 slots (shared by `_IDTable` and `_IDIndex`).
@inlinable
package func _idSlotCount(for capacity: Int) -> Int {
  let wanted = Swift.max(16, (capacity &* 4 &+ 2) / 3)
  return (wanted &+ 15) & ~15
}

/// A 64-bit hash of `key`: a seeded mixer of the integer itself for `Int`
/// ids, of `hashValue` otherwise (shared by `_IDTable` and `_IDIndex`).
@inlinable @inline(__always)
package func _idHash<Key: Hashable>(_ key: Key, seed: UInt64) -> UInt64 {
  var x: UInt64
  if Key.self == Int.self {
    x = UInt64(truncatingIfNeeded: unsafeBitCast(key, to: Int.self))
  } else {
    x = UInt64(truncatingIfNeeded: key.hashValue)
  }
  x ^= seed
  x = (x ^ (x &>> 33)) &* 0xFF51_AFD7_ED55_8CCD
  x = (x ^ (x &>> 33)) &* 0xC4CE_B9FE_1A85_EC53
  return x ^ (x &>> 33)
}

/// One id to file by `_IDIndex._build`: its hash, its block and its row.
@usableFromInline
package struct _IDRecord: Sendable {
  @usableFromInline package var hash: UInt64
  @usableFromInline package var handle: Int32
  @usableFromInline package var row: Int32

  @inlinable @inline(__always)
  package init(hash: UInt64, handle: Int32, row: Int32) {
    self.hash = hash
    self.handle = handle
    self.row = row
  }
}

/// The buffer of an `_IDIndex`. A slot word is, from the high bits down:
/// the handle (`32 - handleShift` bits), the tag, and the distance from the
/// home slot plus one in the low 6 bits (0: the slot is empty).
@usableFromInline
package final class _IDIndexStorage: @unchecked Sendable {
  // @unchecked: the buffer is written only through a uniquely referenced
  // storage (the index's copy-on-write), and read otherwise.
  @usableFromInline package let slotCount: Int
  @usableFromInline package let maximumCount: Int
  /// Handles below this fit in a slot.
  @usableFromInline package let handleLimit: Int
  @usableFromInline package let handleShift: UInt32
  /// The tag field, in place (bits 6 ..< handleShift).
  @usableFromInline package let tagField: UInt32
  @usableFromInline package let seed: UInt64
  @usableFromInline package let slots: UnsafeMutablePointer<UInt32>
  /// Entries in `slots`.
  @exclusivity(unchecked) @usableFromInline package var count: Int
  /// Entries that did not fit (see `_IDIndex`), with their full hashes.
  @exclusivity(unchecked) @usableFromInline package var spilled: ContiguousArray<(hash: UInt64, handle: Int32)>
  /// `spilled.count`, read on every lookup and insert without touching the
  /// array (reading an array stored in a class retains and releases it).
  @exclusivity(unchecked) @usableFromInline package var spilledCount: Int
  /// Whether an entry spilled for want of a slot or of distance.
  @exclusivity(unchecked) @usableFromInline package var crowded: Bool
  /// Where `warm`'s reads go (so they are not dropped).
  @exclusivity(unchecked) @usableFromInline package var _touched: UInt32 = 0
  /// The slots zeroed so far (`slotCount` but in a storage made with
  /// `zeroed: false` that `_prepare` has not finished): nothing is filed
  /// before every slot is zeroed.
  @exclusivity(unchecked) @usableFromInline package var prepared: Int
  /// The slots whose pages `_releasePages` has unmapped (only in an index
  /// that is no longer read).
  @exclusivity(unchecked) @usableFromInline package var released: Int = 0
  /// The bytes mapped for the slots (from `mmap`, a whole number of pages),
  /// or 0 when they come from `malloc`.
  @usableFromInline package let mappedBytes: Int

  /// From this many bytes the slots of a replacement (`zeroed: false`)
  /// are mapped (`mmap`) rather than allocated, and so unmapped a slice at
  /// a time once retired.
  @inlinable @inline(__always)
  package static var mappingThreshold: Int { 1 << 21 }

  /// From this many bytes the slots of any other index are mapped.
  @inlinable @inline(__always)
  package static var builtMappingThreshold: Int { 1 << 25 }

  @inlinable @inline(__always)
  package static var distanceMask: UInt32 { 63 }

  /// The largest stored distance plus one.
  @inlinable @inline(__always)
  package static var distanceLimit: UInt32 { 63 }

  /// Storage of `count` empty slots for handles below a power of two of at
  /// least twice `handles` (at most 2^26: larger handles spill). With
  /// `zeroed: false` the slots are not ready until `_prepare` has zeroed
  /// them all, a bounded number a call.
  @inlinable
  package init(slots count: Int, handles: Int, zeroed: Bool = true) {
    slotCount = count
    maximumCount = count &* 3 / 4
    self.count = 0
    spilled = []
    spilledCount = 0
    crowded = false
    seed = _IDIndex.seed
    let wanted = Swift.max(64, handles &* 2)
    let bits = Swift.min(26, Int.bitWidth &- (wanted &- 1).leadingZeroBitCount)
    handleLimit = 1 << bits
    handleShift = UInt32(32 &- bits)
    tagField = ((1 as UInt32) << handleShift &- 1) & ~Self.distanceMask
    // A large index is mapped, so that it can be unmapped a slice at a time
    // once it is retired (`_releasePages`): a replacement filled while
    // edits go on (`zeroed: false`) from 2 MB, which is zeroed a slice an
    // edit before it is used (that faults its pages in order: filing rows
    // at random places in fresh pages would fault one page a row); any
    // other index from 32 MB, where malloc maps fresh pages anyway. Below
    // that it comes from calloc, which reuses the pages a freed layout gave
    // back (a build into fresh mapped pages faults every page:
    // `build_shuffled` +41 % at 1e6).
    let bytes = Swift.max(1, count) &* MemoryLayout<UInt32>.stride
    var allocated: UnsafeMutableRawPointer?
    var mapped = 0
    if bytes >= (zeroed ? Self.builtMappingThreshold : Self.mappingThreshold), let pages = _mapZeroPages(bytes) {
      (allocated, mapped) = (pages.address, pages.length)
    }
    if allocated == nil && zeroed && bytes >= Self.mappingThreshold {
      allocated = calloc(Swift.max(1, count), MemoryLayout<UInt32>.stride)  // zero pages, not a memset
    }
    if allocated == nil {
      // A small index: malloc and a memset (glibc's calloc of a few bytes
      // took 0.4 µs more: `build_range` +13 % at 1e4).
      allocated = malloc(bytes)
      if zeroed { allocated?.initializeMemory(as: UInt32.self, repeating: 0, count: Swift.max(1, count)) }
    }
    guard let allocated else { fatalError("_IDIndex: out of memory") }
    mappedBytes = mapped
    slots = allocated.bindMemory(to: UInt32.self, capacity: Swift.max(1, count))
    prepared = zeroed ? count : 0
  }

  /// Zeroes up to `budget` more slots; returns whether every slot is zeroed.
  /// - Complexity: O(budget).
  @inlinable
  package func _prepare(_ budget: Int) -> Bool {
    let n = Swift.min(budget, slotCount &- prepared)
    if n > 0 {
      (slots + prepared).initialize(repeating: 0, count: n)
      prepared &+= n
    }
    return prepared == slotCount
  }

  /// Unmaps the pages of up to `budget` more slots of a mapped index that
  /// nothing reads any more (its owner drops it when this returns true:
  /// at once for an allocated one, whose free is short), so freeing a
  /// large index is not one long call (800 MB at once: about a
  /// millisecond here).
  /// - Complexity: O(budget).
  @inlinable
  package func _releasePages(_ budget: Int) -> Bool {
    guard mappedBytes > 0 else { return true }
    let page = Int(getpagesize())
    let stride = MemoryLayout<UInt32>.stride
    // Whole pages: `released` stays at a page boundary, and the last slice
    // takes the rest of the mapping.
    let done = released &* stride
    var length = Swift.max(page, budget &* stride / page &* page)
    if done &+ length >= mappedBytes { length = mappedBytes &- done }
    if length > 0 { _ = munmap(UnsafeMutableRawPointer(slots) + done, length) }
    released = (done &+ length) / stride
    return done &+ length >= mappedBytes
  }

  @inlinable
  deinit {
    if mappedBytes == 0 {
      free(slots)
    } else {
      let done = released &* MemoryLayout<UInt32>.stride
      if done < mappedBytes { _ = munmap(UnsafeMutableRawPointer(slots) + done, mappedBytes &- done) }
    }
  }

  /// A copy of the same size.
  @inlinable
  package func _copy() -> _IDIndexStorage {
    let copy = _IDIndexStorage(slots: slotCount, handles: handleLimit / 2)
    copy.slots.update(from: slots, count: prepared)
    copy.prepared = prepared
    copy.count = count
    copy.spilled = spilled
    copy.spilledCount = spilledCount
    copy.crowded = crowded
    return copy
  }

  /// The slot a hash starts probing at: the high half of `hash * slotCount`.
  @inlinable @inline(__always)
  package func _home(_ hash: UInt64) -> Int {
    Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(slotCount)).high)
  }

  /// The tag of a hash, in place: from its low bits (the home takes the high).
  @inlinable @inline(__always)
  package func _tag(_ hash: UInt64) -> UInt32 {
    UInt32(truncatingIfNeeded: hash) & tagField
  }

  @inlinable @inline(__always)
  package func _handle(_ word: UInt32) -> Int32 {
    Int32(bitPattern: word >> handleShift)
  }

  @inlinable @inline(__always)
  package func _next(_ slot: Int) -> Int {
    slot &+ 1 == slotCount ? 0 : slot &+ 1
  }

  /// Walks the slots of `hash`'s home and returns the first slot whose tag
  /// matches and for whose handle `accept` is true, or `-1`.
  @inlinable @inline(__always)
  package func _slot(_ hash: UInt64, where accept: (Int32) -> Bool) -> Int {
    let slots = self.slots
    let tagField = self.tagField
    let tag = _tag(hash)
    var slot = _home(hash)
    var expected: UInt32 = 1  // the distance plus one
    while true {
      let word = slots[slot]
      let distance = word & Self.distanceMask
      // An empty slot (0) or an entry of a later home ends the walk.
      if distance < expected { return -1 }
      if distance == expected && word & tagField == tag && accept(_handle(word)) { return slot }
      if expected == Self.distanceLimit { return -1 }
      expected &+= 1
      slot = _next(slot)
    }
  }

  @inlinable @inline(__always)
  package func _first(_ hash: UInt64, where holds: (Int32) -> Bool) -> Int32? {
    let slot = _slot(hash, where: holds)
    if slot >= 0 { return _handle(slots[slot]) }
    return _spilledEntry(hash, where: holds).map { spilled[$0].handle }
  }

  /// The position in the spill list of the first entry filed under `hash`
  /// for whose handle `accept` is true, or `nil` (at once while the list is
  /// empty, as it almost always is).
  @inlinable @inline(__always)
  package func _spilledEntry(_ hash: UInt64, where accept: (Int32) -> Bool) -> Int? {
    guard spilledCount != 0 else { return nil }
    return spilled.firstIndex { $0.hash == hash && accept($0.handle) }
  }

  @inlinable
  package func _spill(_ hash: UInt64, _ handle: Int32, crowded: Bool) {
    spilled.append((hash, handle))
    spilledCount &+= 1
    if crowded { self.crowded = true }
  }

  @inlinable
  package func _insert(_ hash: UInt64, handle: Int32) {
    _ = _insert(hash, handle: handle) { _ in false }
  }

  /// Files (`hash`, `handle`) unless `present` is true for a handle filed
  /// under `hash` (then returns false and changes nothing). The walk to the
  /// entry's place passes every entry of its home, so the check costs no
  /// extra probe.
  @inlinable @inline(__always)
  package func _insert(_ hash: UInt64, handle: Int32, unless present: (Int32) -> Bool) -> Bool {
    let slots = self.slots  // a local: the stores below cannot change it
    let tagField = self.tagField
    let tag = _tag(hash)
    var word = UInt32(bitPattern: handle) << handleShift | tag | 1
    var place = _home(hash)
    // The place: the first slot that is empty or holds an entry of a later
    // home (a smaller distance); entries of the same home stay first.
    // A full table (one empty slot kept, so every walk ends) spills too.
    var crowded = count &+ 1 >= slotCount
    var fits = Int(handle) < handleLimit && !crowded
    while true {
      let other = slots[place]
      let distance = other & Self.distanceMask
      if distance < word & Self.distanceMask { break }
      if distance == word & Self.distanceMask && other & tagField == tag && present(_handle(other)) { return false }
      if word & Self.distanceMask == Self.distanceLimit {
        fits = false
        crowded = true
        break
      }
      word &+= 1
      place = _next(place)
    }
    if _spilledEntry(hash, where: present) != nil { return false }
    guard fits else {
      _spill(hash, handle, crowded: crowded)
      return true
    }
    // The run from the place to the next empty slot moves one slot on.
    var end = place
    while slots[end] != 0 {
      if slots[end] & Self.distanceMask == Self.distanceLimit {
        _spill(hash, handle, crowded: true)
        return true
      }
      end = _next(end)
    }
    while end != place {
      let previous = end == 0 ? slotCount &- 1 : end &- 1
      slots[end] = slots[previous] &+ 1
      end = previous
    }
    slots[place] = word
    count &+= 1
    return true
  }

  @inlinable
  package func _remove(_ hash: UInt64, handle: Int32) {
    let slot = _slot(hash) { $0 == handle }
    guard slot >= 0 else {
      guard let i = _spilledEntry(hash, where: { $0 == handle }) else {
        preconditionFailure("_IDIndex: no entry to remove for block \(handle)")
      }
      spilled.swapAt(i, spilled.count &- 1)
      spilled.removeLast()
      spilledCount &-= 1
      return
    }
    // Shift the run after the hole back until an empty slot or an entry at its home.
    var hole = slot
    var next = _next(hole)
    while slots[next] & Self.distanceMask > 1 {
      slots[hole] = slots[next] &- 1
      hole = next
      next = _next(next)
    }
    slots[hole] = 0
    count &-= 1
  }

  @inlinable
  package func _relabel(_ hash: UInt64, from old: Int32, to new: Int32) {
    let slot = _slot(hash) { $0 == old }
    guard slot >= 0 else {
      guard let i = _spilledEntry(hash, where: { $0 == old }) else {
        preconditionFailure("_IDIndex: no entry to relabel for block \(old)")
      }
      spilled[i].handle = new
      return
    }
    guard Int(new) < handleLimit else {
      _remove(hash, handle: old)
      return _spill(hash, new, crowded: false)
    }
    let below = ((1 as UInt32) << handleShift) &- 1
    slots[slot] = slots[slot] & below | UInt32(bitPattern: new) << handleShift
  }
}

extension _IDIndex {
  /// An index of the `count` records that `records` passes to its argument
  /// (it may be called twice, and must pass the same records in the same
  /// order each time), with room for `minimumCapacity` ids (at least
  /// `count`) in blocks with handles below about twice `handles`.
  /// `sameKey(handle, row)`, when given, tells whether block `handle` holds
  /// another row with the id of row `row`: it is asked only when a tag
  /// matches, and a true answer reports a repeated id (`repeated`, and the
  /// index is then incomplete).
  ///
  /// Filing a million ids one by one into a table of megabytes misses the
  /// cache on almost every insert. Large builds first bucket the records by
  /// the top bits of their hash (a counting pass and a scatter pass), so the
  /// inserts then sweep the table from start to end and each bucket's probes
  /// stay within a small part of it.
  /// - Complexity: O(n) expected.
  @inlinable
  package static func _build(
    count n: Int, minimumCapacity: Int, handles: Int,
    records: ((_IDRecord) -> Void) -> Void, sameKey: ((Int32, Int) -> Bool)?
  ) -> (index: _IDIndex, repeated: Bool) {
    let index = _IDIndex(minimumCapacity: Swift.max(n, minimumCapacity), handles: handles)
    let s = index._storage
    // Files a run of records; false on a repeated id. (The optional
    // closure is unwrapped once a run, not once a record.)
    func file(_ run: UnsafeBufferPointer<_IDRecord>) -> Bool {
      if let sameKey {
        for r in run where !s._insert(r.hash, handle: r.handle, unless: { sameKey($0, Int(r.row)) }) { return false }
      } else {
        for r in run { s._insert(r.hash, handle: r.handle) }
      }
      return true
    }
    guard n >= 1 << 16 else {
      // Few ids: the table is in cache; file them in one run, in row order.
      let run = UnsafeMutablePointer<_IDRecord>.allocate(capacity: n)
      defer { run.deallocate() }
      var k = 0
      records { r in
        precondition(k < n, "_IDIndex._build: more records than the count given")
        (run + k).initialize(to: r)
        k &+= 1
      }
      return (index, !file(UnsafeBufferPointer(start: run, count: n)))
    }
    let tableBytes = s.slotCount &* 4
    let bucketBits = Swift.min(14, Swift.max(4, Int.bitWidth &- (tableBytes >> 14).leadingZeroBitCount))
    let shift = UInt64(64 &- bucketBits)
    let buckets = 1 << bucketBits
    var starts = [Int](repeating: 0, count: buckets &+ 1)
    starts.withUnsafeMutableBufferPointer { starts in
      records { r in starts[Int(truncatingIfNeeded: r.hash &>> shift) &+ 1] &+= 1 }
      for b in 1 ... buckets { starts[b] &+= starts[b &- 1] }
    }
    precondition(starts[buckets] == n, "_IDIndex._build: \(starts[buckets]) records for a count of \(n)")
    let sorted = UnsafeMutablePointer<_IDRecord>.allocate(capacity: n)
    defer { sorted.deallocate() }
    var next = starts
    next.withUnsafeMutableBufferPointer { next in
      records { r in
        let b = Int(truncatingIfNeeded: r.hash &>> shift)
        (sorted + next[b]).initialize(to: r)
        next[b] &+= 1
      }
    }
    // Records of one hash keep their row order (the scatter is stable), so
    // a repeated id is met at its second row. Each bucket's part of the
    // table is read in order first (the prefetcher streams it in), so its
    // probes hit the cache.
    var touched = 0
    var sink: UInt32 = 0
    for b in 0 ..< buckets {
      let end = b &+ 1 == buckets ? s.slotCount : s._home(UInt64(b &+ 1) << shift)
      while touched < end {
        sink |= s.slots[touched]
        touched &+= 16
      }
      if !file(UnsafeBufferPointer(start: sorted + starts[b], count: starts[b &+ 1] &- starts[b])) {
        return (index, true)
      }
    }
    s._touched = sink  // keeps the reads
    return (index, false)
  }
}
