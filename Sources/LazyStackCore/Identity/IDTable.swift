import Foundation

/// A purpose-built hash table from ids to 32-bit values (DESIGN §2) that
/// keeps its keys: the measured-extent carry-over of `update(ids:)` (id ->
/// stored extent), which outlives the rows it was taken from. The tree's id
/// index, whose keys are in the blocks, is the keyless `_IDIndex`.
///
/// Open addressing with linear probing over one flat array of slots, each a
/// 64-bit word (a 32-bit hash tag over the 32-bit value; 0: empty) and the
/// key, so most probes compare one word and a hit costs one cache miss.
/// Deletion shifts the following run back
/// (no tombstones), so lookups never slow down after many edits. The slot
/// count is not a power of two: a hash maps to a slot by the high half of a
/// 128-bit product, so a table sized for `n` ids holds them at a load of at
/// most 3/4 instead of anywhere between 3/8 and 3/4.
///
/// `Int` ids are hashed by a seeded 64-bit mixer (a few cycles) instead of
/// `Hasher` (SipHash); other ids use `hashValue`, mixed the same way. The
/// seed is random per process, so colliding ids cannot be chosen in advance.
///
/// A value type with copy-on-write storage.
@usableFromInline
package struct _IDTable<Key: Hashable & Sendable>: Sendable {
  @usableFromInline package var _storage: _IDTableStorage<Key>

  /// An empty table that holds `minimumCapacity` ids without growing;
  /// `mapped`: a large one's slots are fresh pages of their own (see
  /// `_IDTableStorage.init(slots:mapped:)`).
  /// - Complexity: O(minimumCapacity).
  @inlinable
  package init(minimumCapacity: Int = 0, mapped: Bool = false) {
    _storage = _IDTableStorage(slots: _idSlotCount(for: minimumCapacity), mapped: mapped)
  }

  /// The number of ids in the table.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var count: Int { _storage.count }

  /// Whether the table is empty.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package var isEmpty: Bool { _storage.count == 0 }

  /// The heap bytes held by the table.
  /// - Complexity: O(1).
  @inlinable
  package var heapBytes: Int {
    32 &+ _storage.slotCount &* MemoryLayout<_IDTableSlot<Key>>.stride
  }

  /// The value for `key`, or `nil`.
  /// - Complexity: O(1) expected.
  @inlinable
  package subscript(key: Key) -> Int32? {
    get {
      let s = _storage
      let (slot, found) = s._find(key, hash: s._hash(key))
      return found ? s._value(slot) : nil
    }
    set {
      if let newValue { updateValue(newValue, forKey: key) } else { removeValue(forKey: key) }
    }
  }

  /// Gives the table storage of its own (copy-on-write), of the same size.
  /// - Complexity: O(capacity) when the storage is shared, else O(1).
  @inlinable
  package mutating func _makeUnique() {
    if !isKnownUniquelyReferenced(&_storage) {
      _storage = _storage._copy(slots: _storage.slotCount)
    }
  }

  /// Sets the value for `key` and returns the previous one, if any. A full
  /// table grows for a new key only: a key already present is updated in
  /// place (growing there copied the whole table inside one edit: 24.8 ms
  /// for the exception counts of 100M rows, SPEC E4).
  /// - Complexity: O(1) expected (amortized over growth).
  @inlinable
  @discardableResult
  package mutating func updateValue(_ value: Int32, forKey key: Key) -> Int32? {
    let hash = _storage._hash(key)
    if _storage.count >= _storage.maximumCount && !_storage._find(key, hash: hash).found {
      // A grown copy is this table's own.
      _storage = _storage._copy(slots: _idSlotCount(for: Swift.max(16, count &* 2)))
    } else {
      _makeUnique()
    }
    return _storage._update(value, forKey: key, hash: hash)
  }

  /// Removes `key` and returns its value, if it was present.
  /// - Complexity: O(1) expected.
  @inlinable
  @discardableResult
  package mutating func removeValue(forKey key: Key) -> Int32? {
    let hash = _storage._hash(key)
    guard _storage._find(key, hash: hash).found else { return nil }
    _makeUnique()
    return _storage._remove(key, hash: hash)
  }

  /// Calls `body` with every key and value, in no particular order.
  /// - Complexity: O(capacity).
  @inlinable
  package func forEach(_ body: (Key, Int32) throws -> Void) rethrows {
    let s = _storage
    for slot in 0 ..< s.slotCount where s._meta(slot) != 0 {
      try body(s._key(slot).pointee, s._value(slot))
    }
  }
}

/// One slot of an `_IDTable`: `meta` is 0 when the slot is empty, else a
/// 32-bit hash tag (never 0) over the 32-bit value; `key` is initialized
/// only when the slot is full. Key and value share a cache line, so an
/// insert or a hit costs one miss.
@usableFromInline
package struct _IDTableSlot<Key> {
  @usableFromInline package var meta: UInt64
  @usableFromInline package var key: Key
}

/// The buffer of an `_IDTable`.
@usableFromInline
package final class _IDTableStorage<Key: Hashable & Sendable>: @unchecked Sendable {
  // @unchecked: the buffer is written only through a uniquely referenced
  // storage (the table's copy-on-write), and read otherwise.
  @usableFromInline package let slotCount: Int
  @usableFromInline package let maximumCount: Int
  @exclusivity(unchecked) @usableFromInline package var count: Int
  /// The seed of the hash mixer (the process's, see `_idTableSeed`).
  @usableFromInline package let seed: UInt64
  /// `slotCount` slots, their `meta` words zeroed.
  @usableFromInline package let slots: UnsafeMutableRawPointer
  @usableFromInline package let keyOffset: Int
  /// A drained table's storage that this one gives back a slice at a time
  /// (`_GrowingIDTable._releaseRetired`), or nil. Set and cleared only
  /// while this storage is uniquely referenced; a copy does not take it.
  @exclusivity(unchecked) @usableFromInline package var retired: _IDTableStorage<Key>?
  /// In a retired storage: the bytes of its whole pages given back so far.
  @exclusivity(unchecked) @usableFromInline package var released: Int = 0

  /// The bytes of the slots not given back yet (`released`).
  /// - Complexity: O(1).
  @inlinable
  package var unreleasedBytes: Int { slotCount &* MemoryLayout<_IDTableSlot<Key>>.stride &- released }
  /// The bytes mapped for the slots (from `mmap`, a whole number of
  /// pages), or 0 when they come from `calloc`.
  @usableFromInline package let mappedBytes: Int

  /// From this many bytes (256 KB) the slots of a `mapped` storage are
  /// mapped.
  @inlinable @inline(__always)
  package static var mappingThreshold: Int { 1 << 18 }

  /// Storage of `count` empty slots. With `mapped`, slots of at least
  /// `mappingThreshold` bytes are fresh pages of their own (`mmap`),
  /// faulted in as entries arrive and unmapped a slice at a time once the
  /// storage is retired (`_releasePages`). Else they come from `calloc`,
  /// which gives a large table fresh zero pages too, unless the process
  /// has freed large blocks before: glibc then raises its mapping
  /// threshold and takes the table from its heap, and zeroes it in the
  /// call (a 4 MB exceptions table within one move: about 100 µs in the
  /// 10M-row scale test). A growing table (`_GrowingIDTable`) is mapped.
  @inlinable
  package init(slots count: Int, mapped: Bool = false) {
    slotCount = count
    maximumCount = count &* 3 / 4
    self.count = 0
    seed = _idTableSeed
    let stride = MemoryLayout<_IDTableSlot<Key>>.stride
    let bytes = Swift.max(1, count) &* stride
    var allocated: UnsafeMutableRawPointer?
    var mappedLength = 0
    if mapped && bytes >= Self.mappingThreshold, let pages = _mapZeroPages(bytes) {
      (allocated, mappedLength) = (pages.address, pages.length)
    }
    if allocated == nil { allocated = calloc(Swift.max(1, count), stride) }
    guard let allocated else { fatalError("_IDTable: out of memory") }
    precondition(Int(bitPattern: allocated) % MemoryLayout<_IDTableSlot<Key>>.alignment == 0, "_IDTable: misaligned")
    slots = allocated
    mappedBytes = mappedLength
    keyOffset = MemoryLayout<_IDTableSlot<Key>>.offset(of: \_IDTableSlot<Key>.key)!
  }

  /// The slots' whole pages, as a byte range of addresses: what
  /// `_releasePages` may give back (of an allocated table, the partial
  /// first and last pages hold the allocator's own words, and are left
  /// alone; a mapped one's are all its own).
  @inlinable
  package var _wholePages: Range<Int> {
    let first = Int(bitPattern: slots)
    if mappedBytes > 0 { return first ..< first &+ mappedBytes }  // the mapping is the table's own
    let page = Int(getpagesize())
    let bytes = slotCount &* MemoryLayout<_IDTableSlot<Key>>.stride
    let start = (first &+ page &- 1) / page &* page
    let end = (first &+ bytes) / page &* page
    return start ..< Swift.max(start, end)
  }

  /// Gives back the pages of up to `budget` more bytes of an empty storage
  /// that is never read again (a mapped one's are unmapped; else
  /// `madvise(MADV_DONTNEED)`: the system takes the pages, and the free
  /// that follows has little left to unmap). Returns whether every whole
  /// page is given back.
  /// - Complexity: O(budget).
  @inlinable
  package func _releasePages(_ budget: Int) -> Bool {
    precondition(count == 0, "_IDTable: releasing the pages of a table that holds ids")
    if mappedBytes > 0 {
      let page = Int(getpagesize())
      let length = Swift.min(Swift.max(page, budget / page &* page), mappedBytes &- released)
      if length > 0 { _ = munmap(slots + released, length) }
      released &+= Swift.max(0, length)
      return released >= mappedBytes
    }
    let pages = _wholePages
    let page = Int(getpagesize())
    let from = pages.lowerBound &+ released
    let length = Swift.min(Swift.max(page, budget / page &* page), pages.upperBound &- from)
    if length > 0 { _ = madvise(UnsafeMutableRawPointer(bitPattern: from), length, MADV_DONTNEED) }
    released &+= Swift.max(0, length)
    return pages.lowerBound &+ released >= pages.upperBound
  }

  @inlinable
  deinit {
    if !_isPOD(Key.self) && count > 0 {
      for slot in 0 ..< slotCount where _meta(slot) != 0 { _key(slot).deinitialize(count: 1) }
    }
    if mappedBytes == 0 {
      free(slots)
    } else if released < mappedBytes {
      _ = munmap(slots + released, mappedBytes &- released)
    }
  }

  @inlinable @inline(__always)
  package func _meta(_ slot: Int) -> UInt64 {
    slots.load(fromByteOffset: slot &* MemoryLayout<_IDTableSlot<Key>>.stride, as: UInt64.self)
  }

  @inlinable @inline(__always)
  package func _setMeta(_ meta: UInt64, _ slot: Int) {
    slots.storeBytes(of: meta, toByteOffset: slot &* MemoryLayout<_IDTableSlot<Key>>.stride, as: UInt64.self)
  }

  @inlinable @inline(__always)
  package func _key(_ slot: Int) -> UnsafeMutablePointer<Key> {
    (slots + (slot &* MemoryLayout<_IDTableSlot<Key>>.stride &+ keyOffset)).assumingMemoryBound(to: Key.self)
  }

  @inlinable @inline(__always)
  package func _value(_ slot: Int) -> Int32 {
    Int32(truncatingIfNeeded: _meta(slot))
  }

  /// A copy with `slots` slots (every id rehashed unless the size is kept).
  @inlinable
  package func _copy(slots count: Int) -> _IDTableStorage {
    let copy = _IDTableStorage(slots: count)
    if count == slotCount {
      if _isPOD(Key.self) {
        copy.slots.copyMemory(from: slots, byteCount: slotCount &* MemoryLayout<_IDTableSlot<Key>>.stride)
      } else {
        for slot in 0 ..< slotCount where _meta(slot) != 0 {
          copy._setMeta(_meta(slot), slot)
          copy._key(slot).initialize(to: _key(slot).pointee)
        }
      }
      copy.count = self.count
      return copy
    }
    for slot in 0 ..< slotCount where _meta(slot) != 0 {
      let key = _key(slot).pointee
      _ = copy._update(_value(slot), forKey: key, hash: copy._hash(key))
    }
    return copy
  }

  /// A 64-bit hash of `key`: a seeded mixer of the integer itself for `Int`
  /// ids, of `hashValue` otherwise.
  @inlinable @inline(__always)
  package func _hash(_ key: Key) -> UInt64 {
    _idHash(key, seed: seed)
  }

  /// The slot a hash starts probing at: the high half of `hash * slotCount`.
  @inlinable @inline(__always)
  package func _home(_ hash: UInt64) -> Int {
    Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(slotCount)).high)
  }

  /// The tag of a hash, in the high half of `meta` (never 0).
  @inlinable @inline(__always)
  package static func _tag(_ hash: UInt64) -> UInt64 { (hash | 1) << 32 }

  /// The slot holding `key` (`found`), or the empty slot where it would go.
  @inlinable @inline(__always)
  package func _find(_ key: Key, hash: UInt64) -> (slot: Int, found: Bool) {
    let tag = Self._tag(hash)
    var slot = _home(hash)
    while true {
      let meta = _meta(slot)
      if meta == 0 { return (slot, false) }
      if meta & 0xFFFF_FFFF_0000_0000 == tag && _key(slot).pointee == key { return (slot, true) }
      slot &+= 1
      if slot == slotCount { slot = 0 }
    }
  }

  /// Sets the value of `key` (inserting it if new); the caller made room.
  @inlinable @inline(__always)
  package func _update(_ value: Int32, forKey key: Key, hash: UInt64) -> Int32? {
    let (slot, found) = _find(key, hash: hash)
    let meta = Self._tag(hash) | UInt64(UInt32(bitPattern: value))
    if found {
      let old = _value(slot)
      _setMeta(meta, slot)
      return old
    }
    _setMeta(meta, slot)
    _key(slot).initialize(to: key)
    count &+= 1
    return nil
  }

  /// Removes `key` and shifts the run after it back (no tombstones).
  @inlinable
  package func _remove(_ key: Key, hash: UInt64) -> Int32? {
    let (found, present) = _find(key, hash: hash)
    guard present else { return nil }
    let old = _value(found)
    _key(found).deinitialize(count: 1)
    var hole = found
    var slot = found
    while true {
      slot &+= 1
      if slot == slotCount { slot = 0 }
      let meta = _meta(slot)
      if meta == 0 { break }
      let home = _home(_hash(_key(slot).pointee))
      // Move the entry into the hole unless its home lies cyclically in (hole, slot].
      let stays = hole <= slot ? (home > hole && home <= slot) : (home > hole || home <= slot)
      if stays { continue }
      _setMeta(meta, hole)
      _key(hole).moveInitialize(from: _key(slot), count: 1)
      hole = slot
    }
    _setMeta(0, hole)
    count &-= 1
    return old
  }
}

/// Fresh zero pages of this process's own for at least `bytes` bytes
/// (`mmap`, anonymous and private), as an address and the whole pages'
/// length; nil when the system refuses (the caller allocates instead).
/// - Complexity: O(1) (the pages are faulted in as they are touched).
@inlinable
package func _mapZeroPages(_ bytes: Int) -> (address: UnsafeMutableRawPointer, length: Int)? {
  let page = Int(getpagesize())
  let length = (bytes &+ page &- 1) / page &* page
  let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
  guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }  // MAP_FAILED
  return (address, length)
}

/// The hash seed of every `_IDTable` in this process.
@usableFromInline
internal let _idTableSeed: UInt64 = {
  var g = SystemRandomNumberGenerator()
  return g.next()
}()
