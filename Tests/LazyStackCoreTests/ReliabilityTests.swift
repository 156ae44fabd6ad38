import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// Soak, concurrency and the bad-input matrix (SPEC §9, X5).
final class ReliabilityTests: CheckedTestCase {
  /// The internal checks run in this package's tests (the switch is on),
  /// after every mutation of a layout created with it on, and not for a
  /// layout created with it off (what an app gets: Tests/Dependent checks
  /// the same from a dependent package's debug build).
  func testInternalChecksRunOnlyForLayoutsCreatedWithTheSwitchOn() throws {
    var checked = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 20)
    var runs = LazyStackInternalChecks.runs
    checked.viewportSize = CGSize(width: 100, height: 200)
    checked.setMeasuredExtent(30, for: 5)
    checked.userScroll(to: CGPoint(x: 0, y: 40))
    XCTAssertGreaterThanOrEqual(LazyStackInternalChecks.runs - runs, 3)
    LazyStackInternalChecks.isEnabled = false
    defer { LazyStackInternalChecks.isEnabled = true }
    var unchecked = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 20)
    runs = LazyStackInternalChecks.runs
    unchecked.viewportSize = CGSize(width: 100, height: 200)
    unchecked.setMeasuredExtent(30, for: 5)
    unchecked.userScroll(to: CGPoint(x: 0, y: 40))
    XCTAssertEqual(LazyStackInternalChecks.runs, runs)
  }

  /// The short soak (the long one is `swift run -c release lazystack-soak`,
  /// run by .ci/run): every kind of operation, snapping included, lanes and
  /// the frame on every other seed, model-checked.
  func testSoak_shortRandomOperationsOfEveryKindMatchTheReference() throws {
    var total = 0
    for seed in TestScale.seeds(1000 ..< 1008) {
      do {
        // Lanes (grids, masonry) and the frame on every other seed.
        total += try soak(seed: seed, operations: 600, maxRows: 60, axis: seed % 2 == 0 ? .vertical : .horizontal,
                          lanes: seed % 2 == 0, frame: seed % 2 == 0)
      } catch {
        return XCTFail("\(error)")
      }
    }
    XCTAssertEqual(total, 600 * TestScale.seeds(1000 ..< 1008).count)
  }

  /// SPEC T1: a header with a layout of its own that is `.list`, and no
  /// section in lanes, keeps the lane sections; tracking there follows the
  /// list's rule (G4's row clamped into the visible rows by index), not the
  /// lanes' nearest row. Found by `lazystack-soak 3000000 7000001`: 20 empty
  /// rows arrived above a user's place at the top, inside a batch, and
  /// `position` named the first of them, the reference the last visible one.
  func testT1_listSectionsKeptForAHeaderLayoutTrackAsAList_soakSeed7000561() throws {
    assertSoakSeedRunsClean(7000561, operations: 400, axis: .vertical)
  }

  /// B5 with every section a list: soak seed 9000057 (horizontal, lanes
  /// on) keeps its only section layout, a header's own `.list`, and at step
  /// 198 a view-aligned `.alwaysByFew` release must count each row's start
  /// as a boundary, as a list does. a6cbf02 snapped to 1866.875, the
  /// reference to 1944.5.
  func testB5_listSectionsKeptForAHeaderLayoutSnapAsAList_soakSeed9000057() throws {
    assertSoakSeedRunsClean(9000057, operations: 220, axis: .horizontal)
  }

  /// A soak seed with lanes on (as `lazystack-soak` runs it) replayed for
  /// `operations` steps: every one runs, and none diverges from the
  /// reference.
  func assertSoakSeedRunsClean(_ seed: UInt64, operations: Int, axis: Axis, line: UInt = #line) {
    do {
      let done = try soak(seed: seed, operations: operations, maxRows: 120, axis: axis, lanes: true)
      XCTAssertEqual(done, operations, line: line)
    } catch {
      XCTFail("\(error)", line: line)
    }
  }

  /// Value semantics under concurrency: copies handed to tasks are
  /// independent, and the original is untouched (run under TSan too).
  func testSendable_layoutsSharedAcrossTasksStayIndependent() async throws {
    var base = try LazyStackLayout(ids: 0 ..< 5_000, estimatedExtent: 40)
    base.viewportSize = CGSize(width: 300, height: 600)
    base.userScroll(to: CGPoint(x: 0, y: 40_000))
    let snapshot = base
    let results = try await withThrowingTaskGroup(of: (Int, CGFloat, Int).self) { group in
      for t in 0 ..< 8 {
        let copy = snapshot
        group.addTask {
          var mine = copy
          for i in 0 ..< 200 {
            mine.setMeasuredExtent(CGFloat(10 + (i * 7 + t) % 90), for: (i * 13 + t) % 1000)
          }
          try mine.insert(Array(100_000 + t * 10 ..< 100_000 + t * 10 + 10), at: 0)
          mine.move(fromOffsets: [t], toOffset: 4000)
          _ = mine.targetContentOffset(forReleaseAt: mine.contentOffset, velocity: CGVector(dx: 0, dy: 900), behavior: .viewAligned)
          mine._checkInvariants()
          return (t, mine.contentOffset.y, mine.count)
        }
      }
      var all: [(Int, CGFloat, Int)] = []
      for try await r in group { all.append(r) }
      return all
    }
    XCTAssertEqual(results.count, 8)
    for r in results { XCTAssertEqual(r.2, 5010) }
    XCTAssertEqual(base.count, 5_000, "the original is unchanged")
    XCTAssertEqual(base.contentOffset, snapshot.contentOffset)
    XCTAssertNil(base.measuredExtent(for: 13))
    base._checkInvariants()
  }

  // MARK: The bad-input matrix (README "Bad input")

  func testBadInput_nonFiniteOrNegativeMeasurementsAreRejected() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 10, estimatedExtent: 20)
    layout.setMeasuredExtent(30, for: 1)
    for bad: CGFloat in [.nan, .infinity, -.infinity, -0.5] {
      XCTAssertEqual(layout.setMeasuredExtent(bad, for: 1), .rejected(.invalidExtent(bad, what: "measured extent")))
    }
    XCTAssertEqual(layout.measuredExtent(for: 1), 30, "no measured extent is lost")
    layout._checkInvariants()
  }

  func testBadInput_hugeExtentsAreClamped() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 3, estimatedExtent: 1e12)
    XCTAssertEqual(layout.currentEstimate, 8_388_607.99609375)
    layout.setMeasuredExtent(.greatestFiniteMagnitude, for: 0)
    XCTAssertEqual(layout.measuredExtent(for: 0), 8_388_607.99609375)
    XCTAssertEqual(layout.contentSize.height, 3 * 8_388_607.99609375)
  }

  func testBadInput_invalidEstimatesSpacingAndInsetsThrow() throws {
    XCTAssertThrowsError(try LazyStackLayout(ids: [1], estimatedExtent: -1)) {
      XCTAssertEqual($0 as? LazyStackError, .invalidExtent(-1, what: "estimated extent"))
    }
    XCTAssertThrowsError(try LazyStackLayout(ids: [1], estimatedExtent: 1, spacing: .nan), LazyStackError.invalidExtent(.nan, what: "spacing"))
    XCTAssertThrowsError(try LazyStackLayout(ids: [1], estimatedExtent: 1, insets: EdgeInsets(bottom: -3)),
                         LazyStackError.invalidExtent(-3, what: "bottom inset"))
    var layout = try LazyStackLayout(ids: [1], estimatedExtent: 5)
    XCTAssertThrowsError(try layout.setEstimatedExtent(.infinity), LazyStackError.invalidExtent(.infinity, what: "estimated extent"))
    XCTAssertEqual(layout.currentEstimate, 5)
  }

  func testBadInput_duplicateIdsInSnapshotsAndEditsThrowAndChangeNothing() throws {
    XCTAssertThrowsError(try LazyStackLayout(ids: [1, 2, 1], estimatedExtent: 5)) {
      XCTAssertEqual($0 as? LazyStackError, .duplicateID("1", index: 2))
    }
    var layout = try LazyStackLayout(ids: 0 ..< 5, estimatedExtent: 5)
    layout.setMeasuredExtent(9, for: 2)
    XCTAssertThrowsError(try layout.update(ids: [0, 1, 0]), LazyStackError.duplicateID("0", index: 2))
    XCTAssertThrowsError(try layout.insert([7, 3], at: 1), LazyStackError.duplicateID("3", index: 1))
    XCTAssertThrowsError(try layout.insert([8, 8], at: 1), LazyStackError.duplicateID("8", index: 1))
    XCTAssertThrowsError(try layout.apply([0, 1, 2, 3, 4, 4].difference(from: [0, 1, 2, 3, 4])),
                         LazyStackError.duplicateID("4", index: 5))
    XCTAssertEqual(layout.ids, [0, 1, 2, 3, 4])
    XCTAssertEqual(layout.measuredExtent(for: 2), 9)
    layout._checkInvariants()
  }

  func testBadInput_unknownIdsAreReportedNotFatal() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 5, estimatedExtent: 5)
    XCTAssertEqual(layout.setMeasuredExtent(10, for: 99), .unknownID)
    XCTAssertThrowsError(try layout.remove(ids: [1, 99])) { XCTAssertEqual($0 as? LazyStackError, .unknownID("99")) }
    XCTAssertEqual(layout.count, 5)
    layout.position.scrollTo(id: 99)
    XCTAssertEqual(layout.lastPositionResult, .unknownID("99"))
    XCTAssertNil(layout.index(of: 99))
    XCTAssertNil(layout.frame(of: 99))
    XCTAssertFalse(layout.invalidateMeasurement(for: 99))
  }

  func testBadInput_emptyListsWork() throws {
    var layout = try LazyStackLayout(ids: [Int](), estimatedExtent: 5)
    layout.viewportSize = CGSize(width: 100, height: 100)
    XCTAssertEqual(layout.visibleIndices, 0 ..< 0)
    XCTAssertNil(layout.index(atOffset: 0))
    layout.userScroll(to: CGPoint(x: 0, y: 50))
    XCTAssertEqual(layout.contentOffset, .zero)
    XCTAssertTrue(layout.position.isPositionedByUser)
    XCTAssertNil(layout.position.viewID)
    layout.position.scrollTo(edge: .bottom)
    XCTAssertEqual(layout.contentOffset, .zero)
    try layout.update(ids: [1, 2])
    XCTAssertEqual(layout.count, 2)
  }

  func testBadInput_zeroAndInvalidViewportsAreClamped() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 10)
    layout.viewportSize = CGSize(width: CGFloat.nan, height: -5)
    XCTAssertEqual(layout.viewportSize, .zero)
    XCTAssertEqual(layout.visibleIndices, 0 ..< 0)
    layout.position.scrollTo(id: 50, anchor: .top)
    layout.viewportSize = CGSize(width: 100, height: CGFloat.infinity)
    XCTAssertEqual(layout.viewportSize, CGSize(width: 100, height: 0), "infinite is clamped to 0 as well")
    layout.viewportSize = CGSize(width: 100, height: 200)
    XCTAssertEqual(layout.contentOffset.y, 500, "the id position survives the bad sizes")
  }

  func testBadInput_nonFiniteScrollOffsetsAndVelocities() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 10)
    layout.viewportSize = CGSize(width: 100, height: 200)
    layout.userScroll(to: CGPoint(x: 0, y: 300))
    layout.userScroll(to: CGPoint(x: CGFloat.nan, y: CGFloat.nan))
    XCTAssertEqual(layout.contentOffset.y, 300, "NaN is ignored")
    layout.userScroll(to: CGPoint(x: 0, y: CGFloat.infinity))
    XCTAssertEqual(layout.contentOffset.y, 800)
    layout.userScroll(to: CGPoint(x: 0, y: -CGFloat.infinity))
    XCTAssertEqual(layout.contentOffset.y, 0)
    let t = layout.targetContentOffset(forReleaseAt: CGPoint(x: 0, y: CGFloat.nan), velocity: CGVector(dx: CGFloat.nan, dy: CGFloat.nan), behavior: .paging)
    XCTAssertEqual(t, .zero)
  }

  func testBadInput_hugeCountsStayExact() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 2_000_000, estimatedExtent: 2_000, spacing: 0, axis: .vertical,
                                     insets: EdgeInsets(), blockCapacity: 256)
    layout.viewportSize = CGSize(width: 100, height: 1000)
    XCTAssertEqual(layout.contentSize.height, 4_000_000_000)
    layout.position.scrollTo(id: 1_999_999, anchor: .top)
    XCTAssertEqual(layout.contentOffset.y, 3_999_998_000)
    XCTAssertEqual(layout.visibleIndices, 1_999_999 ..< 2_000_000)
  }
}
