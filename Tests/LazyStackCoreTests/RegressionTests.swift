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

  /// crash-d78891a7: a header's own `.list` keeps the lane sections with
  /// no section in lanes; view-aligned snapping then took the lanes'
  /// distinct starts (L7), so rows of zero extent sharing a start counted
  /// as one boundary, and `.alwaysByFew` (B5: three boundaries) went
  /// further than the list's rule allows. Every section a list: the list's
  /// boundaries, one a row.
  func testFuzz_viewAlignedSnapWithOnlyAListHeaderLayoutCountsEveryRow() throws {
    let ids = Array(0 ..< 60)
    var core = try LazyStackLayout(ids: ids, estimatedExtent: 20)
    var reference = try LazyStackReference(ids: ids, estimatedExtent: 20)
    for id in 30 ..< 40 {
      core.setMeasuredExtent(0, for: id)
      reference.setMeasuredExtent(0, for: id)
    }
    XCTAssertTrue(core.setRole(.sectionHeader, for: 10))
    XCTAssertTrue(reference.setRole(.sectionHeader, for: 10))
    core.setSectionLayout(.list, forHeader: 10)
    reference.setSectionLayout(.list, forHeader: 10)
    core.viewportSize = CGSize(width: 100, height: 100)
    reference.viewportSize = CGSize(width: 100, height: 100)
    for limit: ViewAlignedScrollTargetBehavior.LimitBehavior in [.alwaysByOne, .alwaysByFew, .always, .never] {
      for release: CGFloat in [610, 650, 700, 590] {
        for velocity: CGFloat in [-40_000, -2_000, 0, 2_000, 40_000] {
          let behavior = ViewAlignedScrollTargetBehavior(limitBehavior: limit)
          let at = CGPoint(x: 0, y: release)
          let v = CGVector(dx: 0, dy: velocity)
          XCTAssertEqual(core.targetContentOffset(forReleaseAt: at, velocity: v, behavior: behavior),
                         reference.targetContentOffset(forReleaseAt: at, velocity: v, snap: .viewAligned(limit)),
                         "\(limit) release \(release) velocity \(velocity)")
        }
      }
    }
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
        XCTAssertThrowsError(try layout.insert([ids[n / 2]], at: 0), LazyStackError.duplicateID("\(ids[n / 2])", index: 0))
      }
    }
  }
}
