// The id index's own consistency check, run by this package's tests, soak
// and fuzzer only (through `ExtentTree._checkInvariants`).

extension _IDIndex {
  /// Checks the probing invariant: every run starts at its home, and along
  /// a run distances grow by at most one a slot (the slots are sorted by
  /// home). Whether each id is filed where its hash says is the owner's
  /// check, which has the ids.
  /// - Complexity: O(capacity).
  package func _checkInvariants() {
    let s = _storage
    var filled = 0
    for slot in 0 ..< s.slotCount where s.slots[slot] != 0 {
      filled &+= 1
      let distance = Int(s.slots[slot] & _IDIndexStorage.distanceMask) &- 1
      let previous = s.slots[slot == 0 ? s.slotCount &- 1 : slot &- 1]
      let previousDistance = previous == 0 ? -1 : Int(previous & _IDIndexStorage.distanceMask) &- 1
      precondition(distance <= previousDistance &+ 1, "_IDIndex: slot \(slot) is out of home order")
      precondition(Int(s._handle(s.slots[slot])) < s.handleLimit, "_IDIndex: slot \(slot) holds a handle past its field")
    }
    precondition(filled == s.count, "_IDIndex: count \(s.count), \(filled) slots filled")
  }
}
