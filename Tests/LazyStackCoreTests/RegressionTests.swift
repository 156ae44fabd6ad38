import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// Regression tests for what the fuzzer found (Tests/Fuzz).
final class FuzzRegressionTests: CheckedTestCase {
  /// crash-b0a44c4d: a NaN anchor made a position unequal to itself.
  func testFuzz_positionWithNaNAnchorEqualsItself() throws {
    let p = ScrollPosition(id: 1, anchor: UnitPoint(x: .nan, y: .nan))
    XCTAssertEqual(p, p)
    XCTAssertEqual(ScrollPosition(idType: Int.self, y: .nan), ScrollPosition(idType: Int.self, y: .nan))
    var layout = try LazyStackLayout(ids: 0 ..< 10, estimatedExtent: 10)
    layout.viewportSize = CGSize(width: 10, height: 30)
    layout.position.scrollTo(id: 5, anchor: UnitPoint(x: .nan, y: .nan))
    XCTAssertEqual(layout.contentOffset.y, 50, "a NaN fraction counts as 0 (top)")
  }
}

/// Found by running `lazystack-view --sections` (which starts from an empty
/// layout and appends every record): a first insert of hundreds of ids into
/// an empty layout with a hash index rebuilt the index for room with the new
/// block already listed but not yet counted, and wrote past the records'
/// buffer (a heap corruption in release builds).
final class EmptyLayoutInsertTests: CheckedTestCase {
  /// In an app's configuration (512-row blocks, as when it was found) and
  /// in the tests' (8-row blocks); the test runs the tree's checks itself.
  func testFirstLargeInsertIntoAnEmptyLayout() throws {
    defer { LazyStackInternalChecks.isEnabled = true }
    for checks in [false, true] {
      LazyStackInternalChecks.isEnabled = checks
      for n in [1, 300, 431, 1_000, 5_000, 70_000] {
        var layout = try LazyStackLayout(ids: [Int](), estimatedExtent: 10)
        var rng = SeededRNG(seed: UInt64(n))
        let ids = (0 ..< n).map { _ in Int.random(in: Int.min ... Int.max, using: &rng) }
        try layout.insert(ids, at: 0)
        XCTAssertEqual(layout.count, n)
        layout._tree._checkInvariants()
        for k in stride(from: 0, to: n, by: max(1, n / 50)) { XCTAssertEqual(layout.index(of: ids[k]), k) }
        XCTAssertThrowsError(try layout.insert([ids[n / 2]], at: 0))
      }
    }
  }
}
