/// An `_IDTable` of `Int` keys that grows without a stall: when it is full,
/// a table twice the size takes the new entries and the old one is drained
/// into it a few entries at a time, by every later insert and removal,
/// while lookups read both. No operation rehashes more than `drainStep`
/// entries, where a plain table rehashes all of them when it doubles (at a
/// million entries, about 50 ms in one call). The exceptions of ordered ids
/// (`ExtentTree._exceptions`) live in one, so that no edit stalls (SPEC E4).
///
/// A value type with copy-on-write storage (its two tables').
@usableFromInline
package struct _GrowingIDTable: Sendable {
  /// The table that takes new entries.
  @usableFromInline package var _current: _IDTable<Int>
  /// The table being drained into `_current`, if any; its slots before
  /// `_cursor` are empty.
  @usableFromInline package var _old: _IDTable<Int>?
  /// The next slot of `_old` to drain.
  @usableFromInline package var _cursor: Int

  /// How many entries of the old table an insert or a removal moves: 4, so
  /// the old table is empty before the new one fills (it has room for twice
  /// the entries both held; a quarter of that many inserts drain it).
  @inlinable @inline(__always)
  package static var drainStep: Int { 4 }

  /// An empty table with room for `minimumCapacity` entries before it grows.
  /// - Complexity: O(minimumCapacity).
  @inlinable
  package init(minimumCapacity: Int = 0) {
    _current = _IDTable(minimumCapacity: minimumCapacity)
    _old = nil
    _cursor = 0
  }

  /// The number of entries.
  /// - Complexity: O(1).
  @inlinable
  package var count: Int { _current.count &+ (_old?.count ?? 0) }

  /// Whether the table is empty.
  /// - Complexity: O(1).
  @inlinable
  package var isEmpty: Bool { count == 0 }

  /// The heap bytes held by both tables and by a retired one's pages not
  /// given back yet.
  /// - Complexity: O(1).
  @inlinable
  package var heapBytes: Int {
    var bytes = _current.heapBytes &+ (_old?.heapBytes ?? 0)
    if let retired = _current._storage.retired {
      bytes &+= 32 &+ retired.unreleasedBytes
    }
    return bytes
  }

  /// The value for `key`, or `nil`.
  /// - Complexity: O(1) expected.
  @inlinable
  package subscript(key: Int) -> Int32? {
    if let value = _current[key] { return value }
    return _old?[key]
  }

  /// Sets the value for `key` and returns the previous one, if any.
  /// - Complexity: O(1) expected, and never more than `drainStep` entries
  ///   moved (growth allocates a table twice the size in one call: fresh
  ///   mapped pages from 256 KB, faulted in as entries arrive).
  @inlinable
  @discardableResult
  package mutating func updateValue(_ value: Int32, forKey key: Int) -> Int32? {
    if _old != nil {
      _drain(Self.drainStep)
      if _old != nil, let previous = _old!.removeValue(forKey: key) {
        if _old!.isEmpty { _dropOld() }
        _makeRoom()
        _current.updateValue(value, forKey: key)
        _releaseRetired()
        return previous
      }
    }
    // Full: a new key starts the next table (an update of a present one fits).
    if _currentIsFull && _current[key] == nil { _makeRoom() }
    defer { _releaseRetired() }
    return _current.updateValue(value, forKey: key)
  }

  /// Removes `key` and returns its value, if it was present.
  /// - Complexity: O(1) expected, and never more than `drainStep` entries moved.
  @inlinable
  @discardableResult
  package mutating func removeValue(forKey key: Int) -> Int32? {
    if _old != nil { _drain(Self.drainStep) }
    defer { _releaseRetired() }
    if let value = _current.removeValue(forKey: key) { return value }
    guard _old != nil, let value = _old!.removeValue(forKey: key) else { return nil }
    if _old!.isEmpty { _dropOld() }
    return value
  }

  /// Drops the old table once it is drained. A large one that nothing else
  /// holds is handed to the current table's storage, which gives its pages
  /// back a slice at each later write (`_releaseRetired`): freeing tens of
  /// megabytes in one call takes milliseconds (1.6 ms for the 17 MB table
  /// of a million exceptions), which SPEC E4 does not allow an edit.
  /// - Complexity: O(1).
  @inlinable
  package mutating func _dropOld() {
    guard var old = _old else { return }
    _old = nil
    // (Not over a table still being given back: that one would then be
    // freed in one call. The drain ends long before the next growth, so
    // both never happen at once.)
    guard old.heapBytes >= Self.retiringThreshold, _current._storage.retired == nil,
          isKnownUniquelyReferenced(&old._storage), isKnownUniquelyReferenced(&_current._storage) else { return }
    _current._storage.retired = old._storage
  }

  /// Gives back `releaseStep` more bytes of a retired table's pages, and
  /// drops it when they are all given back (a short free then).
  /// - Complexity: O(1) (a bounded `madvise` or `munmap`).
  @inlinable
  package mutating func _releaseRetired() {
    guard _current._storage.retired != nil, isKnownUniquelyReferenced(&_current._storage) else { return }
    if _current._storage.retired!._releasePages(Self.releaseStep) { _current._storage.retired = nil }
  }

  /// From this many bytes a drained table is given back a slice at a
  /// time: the size from which a grown table is mapped
  /// (`_IDTableStorage.mappingThreshold`, 256 KB), so every mapped table is
  /// unmapped in slices, never in one call.
  @inlinable @inline(__always)
  package static var retiringThreshold: Int { _IDTableStorage<Int>.mappingThreshold }

  /// The bytes of a retired table's pages given back at each write: 64 KB
  /// (the id index's slice, `_IDIndex.releasePages(slots:)`).
  @inlinable @inline(__always)
  package static var releaseStep: Int { 1 << 16 }

  /// Calls `body` with every key and value, in no particular order.
  /// - Complexity: O(capacity).
  @inlinable
  package func forEach(_ body: (Int, Int32) throws -> Void) rethrows {
    try _current.forEach(body)
    try _old?.forEach(body)
  }

  /// Before an insert of a new key: when `_current` is full, it becomes the
  /// old table (the previous one drained first, which the drain rate makes
  /// a no-op) and a table with room for twice the entries takes over.
  @inlinable
  package mutating func _makeRoom() {
    guard _currentIsFull else { return }
    if _old != nil {
      // Not reached (the drain rate empties the old table first); our tests check it.
      precondition(!_internalChecksSwitch(), "_GrowingIDTable: the old table was not drained in time")
      _drain(Int.max)
    }
    let entries = _current.count  // (`count` would count this table twice once it is also `_old`)
    _old = _current
    _cursor = 0
    _current = _IDTable(minimumCapacity: Swift.max(16, entries &* 2), mapped: true)
  }

  /// Whether `_current` holds as many entries as it takes (read without
  /// keeping a reference to its storage, which would make the next write copy it).
  @inlinable @inline(__always)
  package var _currentIsFull: Bool { _current._storage.count >= _current._storage.maximumCount }

  /// Moves up to `limit` entries from the old table into the current one.
  /// Removing an entry shifts later entries of its run back into its slot,
  /// never before it, so the slots before the cursor stay empty.
  @inlinable
  package mutating func _drain(_ limit: Int) {
    guard _old != nil else { return }
    _old!._makeUnique()
    var drained = false
    do {
      let storage = _old!._storage
      var moved = 0
      while moved < limit && storage.count > 0 && _cursor < storage.slotCount {
        guard storage._meta(_cursor) != 0 else {
          _cursor &+= 1
          continue
        }
        let key = storage._key(_cursor).pointee
        let value = storage._value(_cursor)
        _ = storage._remove(key, hash: storage._hash(key))
        _current.updateValue(value, forKey: key)
        moved &+= 1
      }
      drained = storage.count == 0
    }
    if drained { _dropOld() }  // (outside the scope that holds a reference to it)
  }
}
