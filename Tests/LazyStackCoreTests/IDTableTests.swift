import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackTestSupport

/// The purpose-built id table (DESIGN §2) against `Dictionary`: random
/// inserts, updates and removals (backward-shift deletion), copy-on-write,
/// the bulk build (both its sequential and its bucketed path) and its
/// duplicate report.
final class IDTableTests: XCTestCase {
  override func setUp() {
    super.setUp()
    LazyStackInternalChecks.isEnabled = true  // this package's own O(n) checks (tests only)
  }

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

  func testBulkBuildMatchesSequentialInsertsOnBothPaths() {
    for n in [0, 1, 1000, 70_000, 200_000] {
      var rng = SeededRNG(seed: UInt64(n))
      let keys = (0 ..< n).map { _ in Int.random(in: Int.min ... Int.max, using: &rng) }
      let (table, duplicate) = keys.withUnsafeBufferPointer { buffer in
        _IDTable<Int>._bulk(buffer) { Int32(truncatingIfNeeded: $0 / 3) }
      }
      XCTAssertNil(duplicate, "n \(n)")
      XCTAssertEqual(table.count, n)
      for (i, key) in keys.enumerated() where table[key] != Int32(i / 3) {
        XCTFail("n \(n): key at \(i) maps to \(String(describing: table[key]))")
        break
      }
      XCTAssertNil(table[42], "n \(n)")
    }
  }

  func testBulkBuildNamesTheFirstRepeatInKeyOrder() {
    for n in [500, 100_000] {
      var keys = Array(0 ..< n)
      keys[n - 10] = 7       // the first repeat, in key order
      keys[n / 2 + 1] = n / 2  // an earlier one
      keys[n - 3] = n - 20
      let duplicate = keys.withUnsafeBufferPointer { _IDTable<Int>._bulk($0) { _ in 0 }.duplicate }
      XCTAssertEqual(duplicate, n / 2 + 1, "n \(n)")
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
