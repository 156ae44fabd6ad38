import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackTestSupport

/// The purpose-built id table (DESIGN §2) against `Dictionary`: random
/// inserts, updates and removals (backward-shift deletion), copy-on-write;
/// the keyless id index against a model of blocks: spills, the bulk build
/// (both its direct and its bucketed path) and its duplicate report.
final class IDTableTests: CheckedTestCase {
  func testRandomOperationsMatchDictionary() {
    for seed in UInt64(0) ..< 20 {
      var rng = SeededRNG(seed: seed)
      var table = _IDTable<Int>()
      var model: [Int: Int32] = [:]
      let keySpace = Int.random(in: 4 ... 400, using: &rng)
      for step in 0 ..< 3000 {
        let key = Int.random(in: 0 ..< keySpace, using: &rng) &* 7_919
        switch Int.random(in: 0 ..< 10, using: &rng) {
        case 0 ..< 5:
          let value = Int32.random(in: 0 ... 1000, using: &rng)
          XCTAssertEqual(table.updateValue(value, forKey: key), model.updateValue(value, forKey: key),
                         "seed \(seed) step \(step)")
        case 5 ..< 8:
          XCTAssertEqual(table.removeValue(forKey: key), model.removeValue(forKey: key), "seed \(seed) step \(step)")
        case 8:
          // A copy is independent of later changes to the original.
          let copy = table
          table[key] = 12_345
          XCTAssertEqual(copy[key], model[key], "seed \(seed) step \(step): copy changed")
          model[key] = 12_345
        default:
          XCTAssertEqual(table[key], model[key], "seed \(seed) step \(step)")
        }
        XCTAssertEqual(table.count, model.count, "seed \(seed) step \(step)")
      }
      for key in 0 ..< keySpace { XCTAssertEqual(table[key &* 7_919], model[key &* 7_919], "seed \(seed)") }
      var seen: [Int: Int32] = [:]
      table.forEach { seen[$0] = $1 }
      XCTAssertEqual(seen, model, "seed \(seed)")
    }
  }

  /// The growing table (the exceptions of ordered ids) against `Dictionary`
  /// through many doublings, inserts, updates and removals of keys in the
  /// table being drained and in the new one; no call moves more than
  /// `drainStep` old entries, so the old table must be empty before the new
  /// one fills (with the internal checks on, a fallback that drains it
  /// whole traps); and
  /// a copy made while draining keeps its own entries.
  /// E4: a full table takes an update of a key it holds in place; only a
  /// new key grows it (a growth copies every entry). The exception counts
  /// of a list of ascending ids update present keys all the time: one full
  /// table's growth there took 24.8 ms in a single move at 100M rows.
  func testE4_aFullTableUpdatesAPresentKeyWithoutGrowing() {
    var table = _IDTable<Int>(minimumCapacity: 16)
    var key = 0
    while table._storage.count < table._storage.maximumCount {
      table.updateValue(Int32(key), forKey: key * 7919)
      key += 1
    }
    let slots = table._storage.slotCount
    for k in 0 ..< key {
      XCTAssertEqual(table.updateValue(Int32(k + 1), forKey: k * 7919), Int32(k), "key \(k)")
      XCTAssertEqual(table._storage.slotCount, slots, "an update of present key \(k) grew the table")
    }
    for k in 0 ..< key { XCTAssertEqual(table[k * 7919], Int32(k + 1)) }
    table.updateValue(-1, forKey: -5)  // a new key: now it grows
    XCTAssertGreaterThan(table._storage.slotCount, slots)
    XCTAssertEqual(table.count, key + 1)
    for k in 0 ..< key { XCTAssertEqual(table[k * 7919], Int32(k + 1)) }
  }

  func testGrowingTableMatchesDictionaryThroughDoublings() {
    var growths = 0
    for seed in UInt64(0) ..< 12 {
      var rng = SeededRNG(seed: seed)
      var table = _GrowingIDTable(minimumCapacity: Int(seed % 3))
      var model: [Int: Int32] = [:]
      var copy: (_GrowingIDTable, [Int: Int32])?
      for step in 0 ..< 6_000 {
        let key = Int.random(in: 0 ..< (step < 4_000 ? 1 << 20 : 3_000), using: &rng) &* 7_919 &- 50_000
        let wasDraining = table._old != nil
        switch Int.random(in: 0 ..< 10, using: &rng) {
        case 0 ..< 7:
          let value = Int32.random(in: 0 ... 1000, using: &rng)
          XCTAssertEqual(table.updateValue(value, forKey: key), model.updateValue(value, forKey: key), "seed \(seed) step \(step)")
        default:
          let victim = model.keys.randomElement(using: &rng) ?? key
          XCTAssertEqual(table.removeValue(forKey: victim), model.removeValue(forKey: victim), "seed \(seed) step \(step)")
        }
        if !wasDraining && table._old != nil { growths += 1 }
        if step % 97 == 0 {
          XCTAssertEqual(table.count, model.count, "seed \(seed) step \(step)")
          for (k, v) in model.prefix(50) where table[k] != v { XCTFail("seed \(seed) step \(step): key \(k)") }
          XCTAssertNil(table[-50_001 - step], "an absent key")
        }
        if copy == nil && table._old != nil && step > 1_000 { copy = (table, model) }
      }
      assertEntries(of: table, model: model, copy: copy, "seed \(seed)")
    }
    XCTAssertGreaterThan(growths, 12 * 3, "the tables grew, and were drained, several times each")
  }

  /// A drained table of 256 KB or more is not freed inside the write that
  /// drains it (SPEC E4: 1.6 ms for a million exceptions' table at 100M
  /// rows): the current table's storage takes it and gives its whole pages
  /// back `releaseStep` bytes a write, then drops it. Lookups stay right
  /// throughout; each retired table takes exactly its number of slices,
  /// every page is given back before it is dropped, and the bytes counted
  /// fall as they go.
  func testE4_aLargeDrainedTableIsGivenBackASliceAWrite() {
    // A table that starts large is allocated (`calloc`); the tables it
    // grows into are mapped (`mmap`): both kinds retire.
    var rng = SeededRNG(seed: 7)
    var table = _GrowingIDTable(minimumCapacity: 20_000)
    XCTAssertEqual(table._current._storage.mappedBytes, 0, "a table made at its size is allocated")
    var model: [Int: Int32] = [:]
    var retirements = 0
    var mappedRetirements = 0
    var tracked: (storage: _IDTableStorage<Int>, slices: Int, bytes: Int)?
    for step in 0 ..< 420_000 {
      Self.write(&table, &model, step: step, &rng)
      let retired = table._current._storage.retired
      if var t = tracked {
        t.slices += 1
        if let retired {
          XCTAssertTrue(retired === t.storage, "step \(step): one table retires at a time")
          XCTAssertLessThan(table.heapBytes, t.bytes, "step \(step): the bytes fall as pages are given back")
          t.bytes = table.heapBytes
          tracked = t
        } else {
          let pages = t.storage._wholePages.count
          XCTAssertEqual(t.storage.released, pages, "step \(step): every whole page given back before the drop")
          XCTAssertEqual(t.slices, (pages + _GrowingIDTable.releaseStep - 1) / _GrowingIDTable.releaseStep,
                         "step \(step): one slice a write")
          tracked = nil
        }
      } else if let retired {
        retirements += 1
        if retired.mappedBytes > 0 { mappedRetirements += 1 }
        XCTAssertEqual(retired.count, 0, "step \(step): only an empty table retires")
        XCTAssertGreaterThan(retired._wholePages.count, _GrowingIDTable.releaseStep, "step \(step): a table of several slices")
        tracked = (retired, 1, table.heapBytes)
      }
      if step % 4_999 == 0 { Self.assertLookups(table, model, step: step, &rng) }
    }
    XCTAssertGreaterThanOrEqual(retirements, 3, "tables of 256 KB or more drained and retired")
    XCTAssertGreaterThanOrEqual(mappedRetirements, 2, "grown (mapped) tables retired")
    XCTAssertLessThan(mappedRetirements, retirements, "the allocated first table retired too")
    assertEntries(of: table, model: model, copy: nil, "after the retirements")
  }

  /// A copy made while a table is being given back: the first write to
  /// either side copies the current storage, and the copy does not take
  /// the retired table, which stays with the side that kept the storage.
  /// Both keep their entries, and that side goes on giving it back.
  func testE4_aCopyMadeWhileATableIsGivenBackKeepsItsEntries() {
    var rng = SeededRNG(seed: 11)
    var table = _GrowingIDTable()
    var model: [Int: Int32] = [:]
    var step = 0
    while table._current._storage.retired == nil {
      Self.write(&table, &model, step: step, &rng)
      step += 1
      XCTAssertLessThan(step, 1_000_000, "no table retired")
      if step >= 1_000_000 { return }
    }
    var copy = table
    var copyModel = model
    let retired = table._current._storage.retired!
    Self.write(&table, &model, step: step, &rng)
    XCTAssertNil(table._current._storage.retired, "the written side copied its storage, without the retired table")
    XCTAssertTrue(copy._current._storage.retired === retired, "the other side keeps it")
    var writes = 0
    while copy._current._storage.retired != nil && writes < 10_000 {
      Self.write(&copy, &copyModel, step: step + 1 + writes, &rng)
      writes += 1
    }
    XCTAssertEqual(retired.released, retired._wholePages.count, "the copy gave it back")
    Self.assertLookups(table, model, step: step, &rng)
    Self.assertLookups(copy, copyModel, step: step, &rng)
    assertEntries(of: table, model: model, copy: (copy, copyModel), "a copy made while a table retired")
  }

  /// One write of the retirement tests: mostly inserts of new keys, every
  /// fifth a removal, checked against the model.
  private static func write(_ table: inout _GrowingIDTable, _ model: inout [Int: Int32], step: Int, _ rng: inout SeededRNG) {
    if step % 5 == 4, let victim = model.keys.first {
      XCTAssertEqual(table.removeValue(forKey: victim), model.removeValue(forKey: victim), "step \(step)")
    } else {
      let key = Int.random(in: 0 ..< 1 << 40, using: &rng)
      let value = Int32(truncatingIfNeeded: step)
      XCTAssertEqual(table.updateValue(value, forKey: key), model.updateValue(value, forKey: key), "step \(step)")
    }
  }

  /// Twenty keys of the model and one absent key looked up.
  private static func assertLookups(_ table: _GrowingIDTable, _ model: [Int: Int32], step: Int, _ rng: inout SeededRNG) {
    XCTAssertEqual(table.count, model.count, "step \(step)")
    for (k, v) in model.prefix(20) { XCTAssertEqual(table[k], v, "step \(step): key \(k)") }
    XCTAssertNil(table[-1 - Int.random(in: 0 ..< 1_000, using: &rng)], "step \(step): an absent key")
  }

  /// Every entry of `table` is the model's, once, and so is every entry
  /// of `copy`'s table (made earlier) its own model's.
  private func assertEntries(
    of table: _GrowingIDTable, model: [Int: Int32], copy: (_GrowingIDTable, [Int: Int32])?, _ context: String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    func entries(_ t: _GrowingIDTable) -> [Int: Int32] {
      var seen: [Int: Int32] = [:]
      t.forEach { seen[$0] = $1 }
      return seen
    }
    XCTAssertEqual(entries(table), model, "\(context): every entry once", file: file, line: line)
    if let (frozen, frozenModel) = copy {
      XCTAssertEqual(entries(frozen), frozenModel, "\(context): the copy kept its entries", file: file, line: line)
    }
  }

  func testStringKeysAreReleasedAndCopied() {
    var table = _IDTable<String>()
    for i in 0 ..< 500 { table[String(repeating: "id", count: i % 7) + "\(i)"] = Int32(i) }
    var copy = table
    for i in stride(from: 0, to: 500, by: 2) { copy[String(repeating: "id", count: i % 7) + "\(i)"] = nil }
    XCTAssertEqual(table.count, 500)
    XCTAssertEqual(copy.count, 250)
    for i in 0 ..< 500 {
      let key = String(repeating: "id", count: i % 7) + "\(i)"
      XCTAssertEqual(table[key], Int32(i))
      XCTAssertEqual(copy[key], i % 2 == 0 ? nil : Int32(i))
    }
  }

  /// The keyless id index against a model of blocks: random inserts,
  /// removals and moves between blocks (relabels), with handles past the
  /// slot's field (spilled) and copies. A lookup must find the block that
  /// holds a key and nothing for a key no block holds.
  func testIDIndexMatchesModelBlocks() {
    for seed in UInt64(0) ..< 20 {
      var rng = SeededRNG(seed: seed)
      var index = _IDIndex(minimumCapacity: 600, handles: 8)
      var blockOf: [Int: Int32] = [:]
      let keySpace = Int.random(in: 4 ... 500, using: &rng)
      let handles = Int32.random(in: 1 ... 40, using: &rng)  // past 64 some handles spill
      func find(_ index: _IDIndex, _ key: Int, _ blockOf: [Int: Int32]) -> Int32? {
        index.first(index.hash(key)) { blockOf[key] == $0 }
      }
      for step in 0 ..< 3000 {
        let key = Int.random(in: 0 ..< keySpace, using: &rng) &* 7_919
        let hash = index.hash(key)
        switch Int.random(in: 0 ..< 10, using: &rng) {
        case 0 ..< 4:
          guard blockOf[key] == nil, index.hasRoom(for: 1) else { continue }
          let h = Int32.random(in: 0 ..< handles, using: &rng) &* (seed % 3 == 0 ? 5 : 1)
          index.insert(hash, handle: h)
          blockOf[key] = h
        case 4 ..< 6:
          guard let h = blockOf.removeValue(forKey: key) else { continue }
          index.remove(hash, handle: h)
        case 6 ..< 8:
          guard let h = blockOf[key] else { continue }
          let new = Int32.random(in: 0 ..< handles, using: &rng) &* (seed % 3 == 0 ? 5 : 1)
          index.relabel(hash, from: h, to: new)
          blockOf[key] = new
        case 8:
          let copy = index
          if let h = blockOf[key] { index.remove(hash, handle: h) } else { index.insert(hash, handle: 0) }
          XCTAssertEqual(find(copy, key, blockOf), blockOf[key], "seed \(seed) step \(step): copy changed")
          if blockOf[key] != nil { blockOf[key] = nil } else { blockOf[key] = 0 }
        default:
          XCTAssertEqual(find(index, key, blockOf), blockOf[key], "seed \(seed) step \(step)")
        }
        XCTAssertEqual(index.count, blockOf.count, "seed \(seed) step \(step)")
      }
      index._checkInvariants()
      for k in 0 ..< keySpace { XCTAssertEqual(find(index, k &* 7_919, blockOf), blockOf[k &* 7_919], "seed \(seed)") }
    }
  }

  /// Entries that cannot get a slot (one home past the distance field, a
  /// handle past the handle field) spill, stay findable and removable, and
  /// tell the owner to rebuild, with more room when crowded.
  func testIDIndexSpillsWhatDoesNotFit() {
    var index = _IDIndex(minimumCapacity: 200, handles: 4)
    for h in Int32(0) ..< 100 { index.insert(12_345, handle: h) }  // one hash: one home, one tag
    XCTAssertTrue(index.needsRebuild)
    XCTAssertTrue(index.isCrowded)
    XCTAssertEqual(index.count, 100)
    index._checkInvariants()
    for h in Int32(0) ..< 100 { XCTAssertEqual(index.first(12_345) { $0 == h }, h) }
    for h in stride(from: Int32(0), to: 100, by: 2) { index.remove(12_345, handle: h) }
    XCTAssertEqual(index.count, 50)
    for h in Int32(0) ..< 100 { XCTAssertEqual(index.first(12_345) { $0 == h }, h % 2 == 0 ? nil : h) }
    index._checkInvariants()

    var wide = _IDIndex(minimumCapacity: 100, handles: 4)
    wide.insert(99, handle: 1_000_000)
    XCTAssertTrue(wide.needsRebuild)
    XCTAssertFalse(wide.isCrowded)
    XCTAssertEqual(wide.first(99) { _ in true }, 1_000_000)
    wide.relabel(99, from: 1_000_000, to: 3)
    XCTAssertEqual(wide.first(99) { _ in true }, 3)
  }

  /// The bulk build (both its direct and its bucketed path) files every
  /// record, and reports a repeated key only through `sameKey`.
  func testIDIndexBuildOnBothPaths() {
    for n in [0, 1, 1000, 70_000, 200_000] {
      var rng = SeededRNG(seed: UInt64(n))
      let keys = (0 ..< n).map { _ in Int.random(in: Int.min ... Int.max, using: &rng) }
      let hasher = _IDIndex()
      func records(_ body: (_IDRecord) -> Void) {
        for i in 0 ..< n { body(_IDRecord(hash: hasher.hash(keys[i]), handle: Int32(i / 3), row: Int32(i))) }
      }
      func sameKey(_ handle: Int32, _ row: Int) -> Bool {
        let lower = Int(handle) * 3
        return (lower ..< min(n, lower + 3)).contains { $0 != row && keys[$0] == keys[row] }
      }
      let (index, repeated) = _IDIndex._build(count: n, minimumCapacity: n, handles: n / 3 + 1,
                                              records: records, sameKey: sameKey)
      XCTAssertFalse(repeated, "n \(n)")
      XCTAssertEqual(index.count, n)
      XCTAssertFalse(index.needsRebuild, "n \(n)")
      index._checkInvariants()
      for (i, key) in keys.enumerated() where index.first(index.hash(key), where: { $0 == Int32(i / 3) }) == nil {
        XCTFail("n \(n): key at \(i) is not filed under block \(i / 3)")
        break
      }
    }
  }

  /// A repeated key is reported on both paths; the tree names the first
  /// repeat in row order.
  func testBuildNamesTheFirstRepeatInRowOrder() {
    for n in [500, 100_000] {
      var ids = Array(0 ..< n)
      ids[n - 10] = 7       // the first repeat, in key order
      ids[n / 2 + 1] = n / 2  // an earlier one
      ids[n - 3] = n - 20
      ids.swapAt(0, 1)  // not ascending: the tree builds a hashed index
      XCTAssertThrowsError(try ExtentTree(ids: ids, estimate: 256), "n \(n)") { error in
        XCTAssertEqual(error as? LazyStackError, .duplicateID(String(n / 2), index: n / 2 + 1), "n \(n)")
      }
    }
  }

  func testTreeBuiltFromManyIdsFindsEveryId() throws {
    // Past the bucketed bulk build's threshold, through the public path.
    let n = 100_000
    var rng = SeededRNG(seed: 7)
    let ids = Array(0 ..< n).shuffled(using: &rng)
    let tree = try ExtentTree(ids: ids, estimate: 256)
    for _ in 0 ..< 2000 {
      let row = Int.random(in: 0 ..< n, using: &rng)
      XCTAssertEqual(tree.index(of: ids[row]), row)
    }
    XCTAssertNil(tree.index(of: n))
    XCTAssertThrowsError(try ExtentTree(ids: ids + [ids[500]], estimate: 256)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID(String(ids[500]), index: n))
    }
  }
}
