import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackTestSupport

/// One named test per SPEC rule of §1 and §3–7, with worked numbers.
/// Unless a test says otherwise: 100 rows of estimated extent 50, viewport 500.
final class LayoutRuleTests: CheckedTestCase {
  func make(_ n: Int = 100, estimate: CGFloat = 50, spacing: CGFloat = 0, axis: Axis = .vertical,
            insets: EdgeInsets = EdgeInsets(), viewport: CGFloat = 500) throws -> LazyStackLayout<Int> {
    try makeLayout(rows: n, estimate: estimate, spacing: spacing, axis: axis, insets: insets, viewport: viewport, cross: 300)
  }

  // MARK: §1 Geometry

  func testG1_horizontalAxisLaysRowsOutAlongX() throws {
    var layout = try make(10, estimate: 40, axis: .horizontal, viewport: 100)
    XCTAssertEqual(layout.frame(at: 2), CGRect(x: 80, y: 0, width: 40, height: 300))
    XCTAssertEqual(layout.contentSize, CGSize(width: 400, height: 300))
    layout.userScroll(to: CGPoint(x: 130, y: 0))
    XCTAssertEqual(layout.contentOffset, CGPoint(x: 130, y: 0))
    XCTAssertEqual(layout.visibleIndices, 3 ..< 6)
  }

  func testG2_rowStartsIncludeLeadingInsetAndSpacing() throws {
    let layout = try make(3, estimate: 10, spacing: 4, insets: EdgeInsets(top: 7, leading: 2, bottom: 9, trailing: 3))
    XCTAssertEqual(layout.frame(at: 0), CGRect(x: 2, y: 7, width: 295, height: 10))
    XCTAssertEqual(layout.frame(at: 2).minY, 7 + 20 + 8)
    XCTAssertEqual(layout.contentSize.height, 7 + 30 + 8 + 9)
  }

  func testG3_offsetsAreClampedToZeroAndMaxOffset() throws {
    var layout = try make(100)  // content 5000, viewport 500
    XCTAssertEqual(layout.maxOffset, 4500)
    layout.userScroll(to: CGPoint(x: 50, y: 99_999))
    XCTAssertEqual(layout.contentOffset, CGPoint(x: 0, y: 4500), "the cross axis clamps to the viewport's width too")
    layout.userScroll(to: CGPoint(x: 0, y: -20))
    XCTAssertEqual(layout.contentOffset.y, 0)
    layout.crossAxisContentExtent = 1000
    layout.userScroll(to: CGPoint(x: 900, y: 0))
    XCTAssertEqual(layout.contentOffset.x, 700)
  }

  func testG4_offsetInSpacingOrInsetGivesTheNextRow() throws {
    let layout = try make(3, estimate: 10, spacing: 4, insets: EdgeInsets(top: 5, leading: 0, bottom: 5, trailing: 0))
    XCTAssertEqual(layout.index(atOffset: 0), 0, "leading inset")
    XCTAssertEqual(layout.index(atOffset: 15), 1, "spacing after row 0 (5..<15 is row 0)")
    XCTAssertEqual(layout.index(atOffset: 14.9), 0)
    XCTAssertEqual(layout.index(atOffset: 100), 2, "past the end: the last row")
    XCTAssertNil(try make(0).index(atOffset: 0))
  }

  func testG5_visibleRowsWithOverscanInPointsAndRows() throws {
    var layout = try make(100)
    layout.userScroll(to: CGPoint(x: 0, y: 1025))
    XCTAssertEqual(layout.visibleIndices, 20 ..< 31, "[1025, 1525) meets rows 20...30")
    layout.overscan = .rows(2)
    XCTAssertEqual(layout.visibleIndices, 18 ..< 33)
    layout.overscan = .points(60)
    XCTAssertEqual(layout.visibleIndices, 19 ..< 32, "[965, 1585): rows 19 (950..<1000) to 31 (1550..<1600)")
    layout.userScroll(to: CGPoint(x: 0, y: 1000))
    layout.overscan = .none
    XCTAssertEqual(layout.visibleIndices, 20 ..< 30, "a row ending exactly at the offset is not visible")
    XCTAssertEqual(try make(0).visibleIndices, 0 ..< 0)
  }

  // MARK: §2 Extents

  func testX1_measuredExtentsFollowTheirIdsThroughReorders() throws {
    var layout = try make(5, estimate: 10)
    layout.setMeasuredExtent(33, for: 3)
    try layout.update(ids: [3, 0, 1, 2, 4])
    XCTAssertEqual(layout.frame(of: 3)!.height, 33)
    XCTAssertEqual(layout.frame(of: 0)!.minY, 33)
    try layout.insert([9], at: 0)
    layout.move(fromOffsets: [1], toOffset: 6)
    XCTAssertEqual(layout.measuredExtent(for: 3), 33)
    XCTAssertEqual(layout.ids, [9, 0, 1, 2, 4, 3])
  }

  func testX2_runningMeanEstimate() throws {
    var layout = try make(10, estimate: 10)
    layout.estimatePolicy = .meanOfMeasured
    XCTAssertEqual(layout.currentEstimate, 10, "no measurement yet: the given estimate")
    layout.setMeasuredExtent(20, for: 0)
    layout.setMeasuredExtent(40, for: 1)
    XCTAssertEqual(layout.currentEstimate, 30)
    XCTAssertEqual(layout.contentSize.height, 20 + 40 + 8 * 30)
    try layout.setEstimatedExtent(5)
    XCTAssertEqual(layout.currentEstimate, 30, "the mean wins while rows are measured")
    layout.estimatePolicy = .fixed
    XCTAssertEqual(layout.contentSize.height, 20 + 40 + 8 * 5)
  }

  func testX5_invalidExtentsAreRejectedAndNothingChanges() throws {
    var layout = try make(10, estimate: 10)
    layout.setMeasuredExtent(12, for: 4)
    for bad in [CGFloat.nan, .infinity, -.infinity, -1] {
      let result = layout.setMeasuredExtent(bad, for: 4)
      guard case .rejected(.invalidExtent) = result else { return XCTFail("\(bad): \(result)") }
      XCTAssertEqual(layout.measuredExtent(for: 4), 12)
      XCTAssertThrowsError(try layout.setEstimatedExtent(bad), LazyStackError.invalidExtent(bad, what: "estimated extent"))
    }
    XCTAssertEqual(layout.currentEstimate, 10)
    XCTAssertEqual(layout.setMeasuredExtent(1e300, for: 4).isApplied, true)
    XCTAssertEqual(layout.measuredExtent(for: 4), _FixedPoint.points(_FixedPoint.maxExtentUnits), "huge extents clamp")
    XCTAssertThrowsError(try LazyStackLayout(ids: [1], estimatedExtent: .nan), LazyStackError.invalidExtent(.nan, what: "estimated extent"))
    XCTAssertThrowsError(try LazyStackLayout(ids: [1], estimatedExtent: 1, spacing: -2), LazyStackError.invalidExtent(-2, what: "spacing"))
    XCTAssertThrowsError(try LazyStackLayout(ids: [1], estimatedExtent: 1, insets: EdgeInsets(top: .infinity)),
                         LazyStackError.invalidExtent(.infinity, what: "top inset"))
  }

  // MARK: §3 ScrollPosition

  func testP1_idTypeInitIsAutomatic() {
    let p = ScrollPosition(idType: Int.self)
    XCTAssertNil(p.edge)
    XCTAssertNil(p.point)
    XCTAssertNil(p.viewID)
    XCTAssertTrue(p.isAutomatic)
    XCTAssertFalse(p.isPositionedByUser)
  }

  func testP2_eachScrollToSetsOneKindAndClearsTheOthers() {
    var p = ScrollPosition(id: 7)
    p.isPositionedByUser = true
    p.scrollTo(y: 40)
    XCTAssertEqual(p.y, 40)
    XCTAssertNil(p.x)
    XCTAssertNil(p.point, "point needs both components")
    XCTAssertNil(p.viewID)
    XCTAssertFalse(p.isPositionedByUser)
    p.scrollTo(x: 3, y: 4)
    XCTAssertEqual(p.point, CGPoint(x: 3, y: 4))
    p.scrollTo(edge: .bottom)
    XCTAssertEqual(p.edge, .bottom)
    XCTAssertNil(p.y)
    p.scrollTo(id: "row", anchor: .center)
    XCTAssertNil(p.edge)
    XCTAssertEqual(p.viewID(type: String.self), "row")
    XCTAssertEqual(p.anchor, .center)
    p.scrollTo(point: CGPoint(x: 1, y: 2))
    XCTAssertNil(p.viewID)
    XCTAssertEqual(ScrollPosition(idType: Int.self, x: 5).x, 5)
    XCTAssertEqual(ScrollPosition(idType: Int.self, y: 6).y, 6)
    XCTAssertEqual(ScrollPosition(idType: Int.self, x: 1, y: 2).point, CGPoint(x: 1, y: 2))
    XCTAssertEqual(ScrollPosition(idType: Int.self, edge: .top).edge, .top)
    XCTAssertEqual(ScrollPosition(idType: Int.self, point: .zero).point, .zero)
  }

  func testP3_viewIDTypeReturnsTheIdOnlyForItsType() {
    let p = ScrollPosition(id: 42)
    XCTAssertEqual(p.viewID(type: Int.self), 42)
    XCTAssertNil(p.viewID(type: String.self))
    XCTAssertNil(p.viewID(type: Int32.self))
    XCTAssertEqual(p.viewID(type: AnyHashable.self), AnyHashable(42), "a cast the runtime makes still works")
    XCTAssertEqual(ScrollPosition(id: "row").viewID(type: String.self), "row")
    XCTAssertNil(ScrollPosition(id: "row").viewID(type: Int.self))
    XCTAssertNil(ScrollPosition(idType: Int.self).viewID(type: Int.self))
    XCTAssertEqual(p, ScrollPosition(id: 42))
    XCTAssertNotEqual(p, ScrollPosition(id: "42"))
  }

  func testP4_positionedByUserClearsEdgeAndPoint() {
    var p = ScrollPosition(idType: Int.self, edge: .bottom)
    p.isPositionedByUser = true
    XCTAssertNil(p.edge)
    var q = ScrollPosition(idType: Int.self, x: 1, y: 2)
    q.isPositionedByUser = true
    XCTAssertNil(q.point)
    XCTAssertNil(q.y)
  }

  // MARK: §4 Resolution

  func testR1_edgesResolveToZeroAndMaxOffset() throws {
    var layout = try make()
    layout.position.scrollTo(edge: .bottom)
    XCTAssertEqual(layout.contentOffset.y, 4500)
    layout.position.scrollTo(edge: .top)
    XCTAssertEqual(layout.contentOffset.y, 0)
    layout.position.scrollTo(edge: .trailing)
    XCTAssertEqual(layout.contentOffset.y, 4500)
    layout.position.scrollTo(edge: .leading)
    XCTAssertEqual(layout.contentOffset.y, 0)
  }

  func testR2_pointsResolveClamped() throws {
    var layout = try make()
    layout.position.scrollTo(y: 1234.5)
    XCTAssertEqual(layout.contentOffset.y, 1234.5)
    layout.position.scrollTo(y: 1e9)
    XCTAssertEqual(layout.contentOffset.y, 4500)
    layout.position.scrollTo(point: CGPoint(x: 0, y: -3))
    XCTAssertEqual(layout.contentOffset.y, 0)
    layout.position.scrollTo(y: .nan)
    XCTAssertEqual(layout.contentOffset.y, 0, "a NaN component is ignored")
  }

  func testR3_idWithAnchorLinesUpTheAnchorPoints() throws {
    var layout = try make()
    layout.position.scrollTo(id: 40, anchor: .top)
    XCTAssertEqual(layout.contentOffset.y, 2000)
    layout.position.scrollTo(id: 40, anchor: .center)
    XCTAssertEqual(layout.contentOffset.y, 2000 + 25 - 250)
    layout.position.scrollTo(id: 40, anchor: .bottom)
    XCTAssertEqual(layout.contentOffset.y, 2050 - 500)
    layout.position.scrollTo(id: 99, anchor: .top)
    XCTAssertEqual(layout.contentOffset.y, 4500, "clamped")
  }

  func testR4_nilAnchorScrollsMinimally() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1000))  // rows 20 ..< 30 visible
    layout.position.scrollTo(id: 25)
    XCTAssertEqual(layout.contentOffset.y, 1000, "wholly visible: no change")
    layout.position.scrollTo(id: 40)
    XCTAssertEqual(layout.contentOffset.y, 2050 - 500, "after the viewport: trailing edge aligned")
    layout.position.scrollTo(id: 5)
    XCTAssertEqual(layout.contentOffset.y, 250, "before the viewport: leading edge aligned")
    layout.setMeasuredExtent(800, for: 60)
    layout.position.scrollTo(id: 60)
    XCTAssertEqual(layout.contentOffset.y, 3000, "taller than the viewport: leading edge aligned")
    // The aligned edge is the anchor kept afterwards: measuring rows above keeps the trailing edge.
    layout.position.scrollTo(id: 80)
    let bottom = screenY(layout, 80) + 50
    XCTAssertEqual(bottom, 500)
    layout.setMeasuredExtent(90, for: 70)
    XCTAssertEqual(screenY(layout, 80) + 50, 500)
  }

  func testR5_unknownIdChangesNothingAndIsReported() throws {
    var layout = try make()
    layout.position.scrollTo(y: 300)
    let before = layout.position
    layout.position.scrollTo(id: 12345)
    XCTAssertEqual(layout.contentOffset.y, 300)
    XCTAssertEqual(layout.position, before, "the previous position is put back")
    XCTAssertEqual(layout.lastPositionResult, .unknownID("12345"))
    layout.position.scrollTo(id: "wrong type")
    XCTAssertEqual(layout.lastPositionResult, .unknownID("wrong type"))
    XCTAssertEqual(layout.contentOffset.y, 300)
  }

  func testR6_exactLandingAsEstimatesAreReplacedByMeasurements() throws {
    var layout = try make(1000)
    layout.position.scrollTo(id: 500, anchor: .top)
    XCTAssertEqual(layout.contentOffset.y, 25_000, "first resolution uses estimates")
    // The UI measures rows above the target (taller than estimated) and the target itself.
    var rng = SeededRNG(seed: 6)
    for id in 480 ..< 510 { layout.setMeasuredExtent(CGFloat(Int.random(in: 20 ... 200, using: &rng)), for: id) }
    XCTAssertEqual(layout.frame(of: 500)!.minY, layout.contentOffset.y, "the target sits exactly at the top")
    // A user scroll cancels the pending target.
    layout.userScroll(to: CGPoint(x: 0, y: layout.contentOffset.y - 100))
    XCTAssertNotEqual(layout.position.viewID(type: Int.self), 500)
  }

  func testR7_scrollAnchorIsTheDefaultAndTheCallsAnchorWins() throws {
    var layout = try make()
    layout.scrollAnchor = .center
    layout.position.scrollTo(id: 40)
    XCTAssertEqual(layout.contentOffset.y, 2025 - 250, "the layout's anchor")
    layout.position.scrollTo(id: 40, anchor: .top)
    XCTAssertEqual(layout.contentOffset.y, 2000, "the call's anchor wins")
  }

  // MARK: §5 Tracking

  func testT1_userScrollTracksTheRowAtTheScrollAnchor() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1010))
    XCTAssertTrue(layout.position.isPositionedByUser)
    XCTAssertEqual(layout.position.viewID(type: Int.self), 20, "nil anchor: the first partly visible row")
    XCTAssertNil(layout.position.edge)
    layout.scrollAnchor = .bottom
    XCTAssertEqual(layout.position.viewID(type: Int.self), 30, "the bottom-most visible row")
    layout.scrollAnchor = .center
    XCTAssertEqual(layout.position.viewID(type: Int.self), 25, "the row at 1010 + 250")
    // Writing a user position back is not a programmatic scroll.
    let p = layout.position
    layout.position = p
    XCTAssertEqual(layout.lastPositionResult, .userPositionStored)
    XCTAssertEqual(layout.contentOffset.y, 1010)
  }

  func testT2_smallMovesTrackTheRowUnderTheAnchor() throws {
    var layout = try make(1_000)
    var y: CGFloat = 10_000
    for _ in 0 ..< 200 {
      y -= 7.25
      layout.userScroll(to: CGPoint(x: 0, y: y))
      XCTAssertEqual(layout.position.viewID(type: Int.self), layout.index(atOffset: y))
    }
  }

  // MARK: §6 Stability

  func testS1_measuringRowsAboveTheAnchorKeepsItOnScreen() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1010))  // tracks row 20 at -10
    let result = layout.setMeasuredExtent(80, for: 3)  // +30 above
    XCTAssertEqual(result, .applied(correction: ScrollCorrection(offsetDelta: 30, contentOffset: CGPoint(x: 0, y: 1040), cause: .measurement)))
    XCTAssertEqual(screenY(layout, 20), -10)
    layout.setMeasuredExtent(10, for: 50)  // below: nothing moves
    XCTAssertEqual(layout.contentOffset.y, 1040)
    // The anchor row itself, measured for the first time while it crosses
    // only the top edge: its end stays, it grows out of sight (S12 c).
    layout.setMeasuredExtent(70, for: 20)
    XCTAssertEqual(screenY(layout, 20), -30)
    XCTAssertEqual(screenY(layout, 21), 40, "the row below it does not move")
    // Measured again: its start stays (S12 b).
    layout.setMeasuredExtent(90, for: 20)
    XCTAssertEqual(screenY(layout, 20), -30)
  }

  func testS2_estimateChangesKeepTheAnchor() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1010))
    // Rows 0..<20 grow by 10 each (S2); the never-measured anchor row grows
    // by 10 too, crossing only the top edge: its end stays (S12 c).
    let correction = try layout.setEstimatedExtent(60)
    XCTAssertEqual(correction.offsetDelta, 210)
    XCTAssertEqual(screenY(layout, 20), -20)
    XCTAssertEqual(screenY(layout, 21), 40, "the row below the top does not move")
  }

  func testS3_reorderKeepsTheAnchorRowOnScreenAtItsNewIndex() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1010))
    try layout.update(ids: (0 ..< 100).reversed())
    XCTAssertEqual(layout.index(of: 20), 79)
    XCTAssertEqual(screenY(layout, 20), -10)
    XCTAssertEqual(layout.lastCorrection.cause, .snapshot)
  }

  func testS4_insertsAndDeletesBeforeTheAnchorKeepItInPlace() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1010))
    try layout.insert(Array(1000 ..< 1100), at: 0)  // "load older messages"
    XCTAssertEqual(screenY(layout, 20), -10)
    XCTAssertEqual(layout.contentOffset.y, 6010)
    layout.remove(atOffsets: IndexSet(integersIn: 0 ..< 50))
    XCTAssertEqual(screenY(layout, 20), -10)
    let offset = layout.contentOffset.y
    try layout.remove(ids: [90, 91])
    XCTAssertEqual(layout.contentOffset.y, offset, "deletes after the anchor change nothing above")
  }

  func testS5_deletedAnchorFallsToNextRow() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1010))
    try layout.update(ids: (0 ..< 100).filter { $0 != 20 && $0 != 21 })
    XCTAssertEqual(layout.position.viewID(type: Int.self), 22, "the next surviving row")
    XCTAssertEqual(screenY(layout, 22), -10, "at the same screen position")
    try layout.update(ids: Array(0 ..< 22))
    XCTAssertEqual(layout._anchorRowID, 19, "no next row: the previous one")
    // 22 rows of 50 in 500: the offset is clamped to 600 (S10), and the
    // position names the row now at the top (T1).
    XCTAssertEqual(layout.contentOffset.y, 600)
    XCTAssertEqual(layout.position.viewID(type: Int.self), 12)
  }

  func testS6_viewportResizeKeepsTheAnchorAtItsFraction() throws {
    var layout = try make()
    layout.scrollAnchor = .center
    layout.userScroll(to: CGPoint(x: 0, y: 1010))  // tracks row 25 (1250..<1300), centre 1275 vs 1260
    layout.viewportSize = CGSize(width: 300, height: 300)
    let row = layout.frame(of: 25)!
    XCTAssertEqual(row.midY - (layout.contentOffset.y + 150), 15)
  }

  func testS7_firstLayoutShowsTheIdPositionNeverTheTop() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 50)
    layout.position.scrollTo(id: 60, anchor: .center)
    layout.viewportSize = CGSize(width: 300, height: 400)
    XCTAssertEqual(layout.contentOffset.y, 3025 - 200)
    var minimal = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 50)
    minimal.position.scrollTo(id: 60)
    minimal.viewportSize = CGSize(width: 300, height: 400)
    XCTAssertEqual(minimal.contentOffset.y, 3000, "nil anchor before the first layout: leading edge")
  }

  func testS8_edgePositionsStayPinned() throws {
    var layout = try make()
    layout.position.scrollTo(edge: .bottom)
    try layout.insert([500, 501], at: 100)
    XCTAssertEqual(layout.contentOffset.y, 4600)
    layout.viewportSize = CGSize(width: 300, height: 200)
    XCTAssertEqual(layout.contentOffset.y, 4900)
    layout.position.scrollTo(edge: .top)
    try layout.insert([502], at: 0)
    XCTAssertEqual(layout.contentOffset.y, 0)
  }

  func testS9_pointPositionsAreOnlyClamped() throws {
    var layout = try make()
    layout.position.scrollTo(y: 1000)
    try layout.insert(Array(1000 ..< 1010), at: 0)
    XCTAssertEqual(layout.contentOffset.y, 1000, "not kept on content")
    try layout.update(ids: 0 ..< 12)
    XCTAssertEqual(layout.contentOffset.y, 100, "clamped to the new maxOffset")
  }

  func testS10_clampingKeepsTheAnchorForTheNextChange() throws {
    var layout = try make()
    layout.position.scrollTo(id: 95, anchor: .top)
    XCTAssertEqual(layout.contentOffset.y, 4500, "cannot put row 95 at the top: clamped")
    try layout.update(ids: 0 ..< 97)  // shrinks
    XCTAssertEqual(layout.contentOffset.y, 4350)
    try layout.insert(Array(1000 ..< 1020), at: 97)  // grows again: the anchor is still row 95 at the top
    XCTAssertEqual(layout.contentOffset.y, 4750)
    XCTAssertEqual(screenY(layout, 95), 0)
  }

  func testS11_everyStabilizationReportsItsCorrection() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1010))
    let c1 = try layout.insert([1000], at: 0)
    XCTAssertEqual(c1.offsetDelta, 50)
    XCTAssertEqual(c1.cause, .edit)
    XCTAssertEqual(layout.lastCorrection, c1)
    layout.viewportSize = CGSize(width: 300, height: 100)
    XCTAssertEqual(layout.lastCorrection.cause, .viewportResize)
    let c2 = try layout.update(ids: [1000] + Array(0 ..< 100).reversed())
    XCTAssertEqual(c2.contentOffset, layout.contentOffset)
    XCTAssertEqual(c2.cause, .snapshot)
  }

  // MARK: §7 Default anchors

  func testD1_defaultScrollAnchorSetsAllRolesOrOne() throws {
    var layout = try make()
    layout.defaultScrollAnchor(.bottom)
    for role in [ScrollAnchorRole.initialOffset, .sizeChanges, .alignment] {
      XCTAssertEqual(layout.defaultScrollAnchor(for: role), .bottom)
    }
    layout.defaultScrollAnchor(.center, for: .alignment)
    XCTAssertEqual(layout.defaultScrollAnchor(for: .alignment), .center)
    XCTAssertEqual(layout.defaultScrollAnchor(for: .sizeChanges), .bottom)
  }

  func testD2_initialOffsetAnchor() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 50)
    layout.defaultScrollAnchor(.center, for: .initialOffset)
    layout.viewportSize = CGSize(width: 300, height: 500)
    XCTAssertEqual(layout.contentOffset.y, 2250)
  }

  func testD3_alignmentOfContentSmallerThanTheViewport() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 4, estimatedExtent: 50)
    layout.defaultScrollAnchor(.bottom, for: .alignment)
    layout.viewportSize = CGSize(width: 300, height: 500)
    XCTAssertEqual(layout.frame(at: 0).minY, 300)
    XCTAssertEqual(layout.frame(at: 3).maxY, 500)
    XCTAssertEqual(layout.visibleIndices, 0 ..< 4)
    XCTAssertEqual(layout.index(atOffset: 320), 0)
    layout.defaultScrollAnchor(.center, for: .alignment)
    XCTAssertEqual(layout.frame(at: 0).minY, 150)
  }

  func testD4_sizeChangesAnchors() throws {
    // .top keeps the offset.
    var top = try make()
    top.defaultScrollAnchor(.top, for: .sizeChanges)
    top.position.scrollTo(y: 1000)
    top.position = ScrollPosition(idType: Int.self)
    try top.insert([1000], at: 0)
    XCTAssertEqual(top.contentOffset.y, 1000)
    // .center keeps the centre: half of the growth.
    var centre = try make()
    centre.defaultScrollAnchor(.center, for: .sizeChanges)
    centre.position.scrollTo(y: 1000)
    centre.position = ScrollPosition(idType: Int.self)
    try centre.insert([1000, 1001], at: 0)
    XCTAssertEqual(centre.contentOffset.y, 1050)
    // .bottom keeps the distance to the end only while the end is visible.
    var bottom = try make()
    bottom.defaultScrollAnchor(.bottom, for: .sizeChanges)
    bottom.position.scrollTo(y: 4500)
    bottom.position = ScrollPosition(idType: Int.self)
    try bottom.insert([1000], at: 100)
    XCTAssertEqual(bottom.contentOffset.y, 4550)
    bottom.position.scrollTo(y: 3000)
    bottom.position = ScrollPosition(idType: Int.self)
    try bottom.insert([1001], at: 101)
    XCTAssertEqual(bottom.contentOffset.y, 3000)
  }

  func testD4_chatStartsAtTheNewestRowAndFollowsUntilTheUserScrollsUp() throws {
    var chat = try LazyStackLayout(ids: 0 ..< 200, estimatedExtent: 60)
    chat.defaultScrollAnchor(.bottom)
    chat.viewportSize = CGSize(width: 390, height: 800)
    XCTAssertEqual(chat.contentOffset.y, chat.maxOffset, "starts at the newest row")
    XCTAssertEqual(chat.visibleIndices.last, 199)
    for id in 200 ..< 210 {
      try chat.insert([id], at: chat.count)
      chat.setMeasuredExtent(CGFloat(40 + id % 50), for: id)
      XCTAssertEqual(chat.contentOffset.y, chat.maxOffset, "pinned while at the end")
    }
    // The user scrolls to the end by hand: still pinned.
    chat.userScroll(to: CGPoint(x: 0, y: chat.maxOffset))
    try chat.insert([210], at: chat.count)
    XCTAssertEqual(chat.contentOffset.y, chat.maxOffset)
    // The user scrolls up: new rows no longer move what they read.
    chat.userScroll(to: CGPoint(x: 0, y: chat.maxOffset - 2000))
    let reading = chat.position.viewID(type: Int.self)!
    let y = screenY(chat, reading)
    try chat.insert([211, 212], at: chat.count)
    try chat.insert([-1, -2], at: 0)  // older messages load too
    XCTAssertEqual(screenY(chat, reading), y)
    XCTAssertLessThan(chat.contentOffset.y, chat.maxOffset)
  }
}
