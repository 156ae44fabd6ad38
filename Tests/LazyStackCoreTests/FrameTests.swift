import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// SPEC §16, rule by rule: what a UI reads and is told each frame.
final class FrameTests: CheckedTestCase {
  /// A list of `n` rows of 50 pt in a 320 × 500 viewport.
  func list(_ n: Int = 1_000, estimate: CGFloat = 50) throws -> LazyStackLayout<Int> {
    var layout = try LazyStackLayout(ids: 0 ..< n, estimatedExtent: estimate)
    layout.viewportSize = CGSize(width: 320, height: 500)
    return layout
  }

  // MARK: F1

  func testF1_proposalsAreTheFramesCrossExtentAndMeasureAMasonryAtItsLaneWidth() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 200, estimatedExtent: 100,
                                     insets: EdgeInsets(top: 0, leading: 10, bottom: 0, trailing: 10))
    layout.viewportSize = CGSize(width: 420, height: 600)
    XCTAssertEqual(layout.proposedSize(at: 3), CGSize(width: 400, height: CGFloat.infinity), "a list row: the list's width")
    layout.setRole(.sectionHeader, for: 0)
    layout.sectionLayout = .masonry(try MasonryLayout(lanes: .fixed(2), laneSpacing: 20))
    XCTAssertEqual(layout.proposedSize(at: 0).width, 400, "a header spans the lanes")
    XCTAssertEqual(layout.proposedSize(at: 5), CGSize(width: 190, height: CGFloat.infinity), "a card: its lane's width")
    XCTAssertTrue(layout.proposedSize(at: 5).height.isInfinite)
    // The three-argument form: each card measured at its lane's width,
    // without the closure reading the layout.
    var asked: [Int: CGSize] = [:]
    layout.measureVisibleRows { index, _, proposal in
      asked[index] = proposal
      return proposal.width / 2
    }
    XCTAssertFalse(asked.isEmpty)
    for (index, proposal) in asked {
      XCTAssertEqual(proposal, layout.proposedSize(at: index))
      XCTAssertEqual(layout.frame(at: index).height, proposal.width / 2, "row \(index) measured at its proposal")
    }
    // Horizontal: the proposal's height is the cross extent.
    var row = try LazyStackLayout(ids: 0 ..< 10, estimatedExtent: 80, axis: .horizontal)
    row.viewportSize = CGSize(width: 300, height: 120)
    XCTAssertEqual(row.proposedSize(at: 2), CGSize(width: CGFloat.infinity, height: 120))
  }

  func testF1_aViewportWithoutExtentOnEitherAxisMeasuresNothing() throws {
    for size in [CGSize(width: 0, height: 500), CGSize(width: 320, height: 0)] {
      var layout = try LazyStackLayout(ids: 0 ..< 50, estimatedExtent: 40)
      layout.viewportSize = size
      var asked = 0
      layout.measureVisibleRows { _, _, _ in asked += 1; return 10 }
      layout.measureVisibleRows { _, _ in asked += 1; return 10 }
      XCTAssertEqual(asked, 0, "viewport \(size)")
      XCTAssertFalse(layout.isMeasured(at: 0))
    }
  }

  // MARK: F2

  func testF2_keptRowsAreDrawnAndMeasuredFarFromTheViewportAndMoveNothingAbove() throws {
    var layout = try list()
    layout.userScroll(to: CGPoint(x: 0, y: 20_000))  // rows 400 ..< 410 on screen
    layout.measureVisibleRows { _, _ in 50 }
    let screenFirst = layout.rowsToDraw.first!
    XCTAssertEqual(layout.rowsToDraw, Array(400 ..< 410))
    layout.keptIDs = [7, 900, 123_456]  // 123456 is not a row
    XCTAssertEqual(layout.rowsToDraw, [7] + Array(400 ..< 410) + [900])
    let before = layout.frame(at: screenFirst)
    let offsetBefore = layout.contentOffset
    var measured: [Int] = []
    layout.measureVisibleRows { index, _ in measured.append(index); return 200 }
    XCTAssertEqual(measured.sorted(), [7, 900], "only the kept rows were unmeasured")
    XCTAssertTrue(layout.isMeasured(at: 7))
    // S1: the kept row above grew by 150 pt; the rows on screen stay where the user sees them.
    XCTAssertEqual(layout.frame(at: screenFirst).minY - layout.contentOffset.y, before.minY - offsetBefore.y)
    // An absent kept id counts once inserted.
    try layout.insert([123_456], at: 950)
    XCTAssertTrue(layout.rowsToDraw.contains(950))
    // Pinned rows are drawn too, each row once.
    layout.setRole(.sectionHeader, for: 300)
    layout.pinnedViews = .sectionHeaders
    let rows = layout.rowsToDraw
    XCTAssertTrue(rows.contains(300), "the pinned header")
    XCTAssertEqual(rows, Array(Set(rows)).sorted(), "in index order, each once")
  }

  // MARK: F3

  func testF3_anEndFiresOnceWhenNearAndAgainOnlyAfterLeavingOrNewRowsBeyond() throws {
    var layout = try list(100)  // 5,000 pt of content, maxOffset 4,500
    XCTAssertEqual(layout.edgeTriggerDistance, 500, "default: the viewport's extent")
    XCTAssertEqual(layout.takeEdgeEvents(), [.top], "at the start the leading end is near")
    layout.userScroll(to: CGPoint(x: 0, y: 2_000))
    XCTAssertEqual(layout.takeEdgeEvents(), [])
    layout.userScroll(to: CGPoint(x: 0, y: 4_000))
    XCTAssertEqual(layout.takeEdgeEvents(), [.bottom], "within 500 pt of the end")
    layout.userScroll(to: CGPoint(x: 0, y: 4_200))
    layout.userScroll(to: CGPoint(x: 0, y: 4_500))
    XCTAssertEqual(layout.takeEdgeEvents(), [], "once per approach, never twice")
    // A page arrives beyond the viewport while the end is still near: again.
    try layout.insert(100 ..< 105, at: 100)
    XCTAssertEqual(layout.takeEdgeEvents(), [.bottom])
    // Rows that arrive inside the viewport (a list pinned to its end, D4) do not re-arm.
    layout.defaultScrollAnchor(.bottom, for: .sizeChanges)
    layout.userScroll(to: CGPoint(x: 0, y: CGFloat.infinity))
    XCTAssertTrue(layout.isAtEnd)
    _ = layout.takeEdgeEvents()
    try layout.insert([500], at: layout.count)
    XCTAssertTrue(layout.isAtEnd, "D4: pinned")
    XCTAssertEqual(layout.takeEdgeEvents(), [], "the new row is on screen: nothing loads unasked")
    // Leaving and coming back fires again; removals never re-arm.
    layout.userScroll(to: CGPoint(x: 0, y: 1_000))
    layout.userScroll(to: CGPoint(x: 0, y: CGFloat.infinity))
    XCTAssertEqual(layout.takeEdgeEvents(), [.bottom])
    layout.remove(atOffsets: [0])
    XCTAssertEqual(layout.takeEdgeEvents(), [])
    // A retry: re-arming fires a near end at once.
    layout.rearmEdgeTriggers()
    XCTAssertEqual(layout.takeEdgeEvents(), [.bottom])
  }

  func testF3_olderPagesAboveKeepLoadingAndAShortListFiresBothEndsOnce() throws {
    // A chat scrolled to its top keeps loading older pages: each arrives
    // above the viewport (S4 keeps the place), so the leading end re-arms.
    // Rows inserted above move the offset by their extent (S4), so the
    // distance is a few pages here.
    var chat = try LazyStackLayout(ids: 1_000 ..< 1_040, estimatedExtent: 50)
    chat.viewportSize = CGSize(width: 320, height: 500)
    chat.edgeTriggerDistance = 1_600
    XCTAssertEqual(chat.takeEdgeEvents(), [.top, .bottom], "1,500 pt of content to scroll: both ends near")
    chat.userScroll(to: CGPoint(x: 0, y: 100))
    XCTAssertEqual(chat.takeEdgeEvents(), [])
    for page in 0 ..< 3 {
      try chat.insert((0 ..< 20).map { 900 - page * 20 + $0 }, at: 0)
      XCTAssertEqual(chat.takeEdgeEvents(), [.top], "page \(page): rows arrived above a near leading end")
      chat.userScroll(to: CGPoint(x: 0, y: chat.distance(to: .top) - 900))
      XCTAssertEqual(chat.takeEdgeEvents(), [], "page \(page): scrolling nearer does not fire twice")
    }
    // Content shorter than the viewport: both ends, once.
    var short = try LazyStackLayout(ids: 0 ..< 3, estimatedExtent: 50)
    short.viewportSize = CGSize(width: 320, height: 500)
    XCTAssertEqual(short.takeEdgeEvents(), [.top, .bottom])
    short.setMeasuredExtent(60, for: 1)
    XCTAssertEqual(short.takeEdgeEvents(), [])
    // Horizontal ends are named .leading and .trailing.
    var row = try LazyStackLayout(ids: 0 ..< 3, estimatedExtent: 50, axis: .horizontal)
    row.viewportSize = CGSize(width: 500, height: 100)
    XCTAssertEqual(row.takeEdgeEvents(), [.leading, .trailing])
  }

  func testF3_noViewportNoRowsBadDistancesThrowingCallsAndBatches() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 100, estimatedExtent: 50)
    XCTAssertEqual(layout.takeEdgeEvents(), [], "a viewport of 0: neither re-arm nor fire")
    var empty = try LazyStackLayout(ids: EmptyCollection<Int>(), estimatedExtent: 50)
    empty.viewportSize = CGSize(width: 320, height: 500)
    XCTAssertEqual(empty.takeEdgeEvents(), [], "an empty list does not fire")
    try empty.insert([1], at: 0)
    XCTAssertEqual(empty.takeEdgeEvents(), [.top, .bottom], "armed all along: fires once a row exists")

    layout.viewportSize = CGSize(width: 320, height: 500)
    _ = layout.takeEdgeEvents()
    layout.edgeTriggerDistance = -30
    XCTAssertEqual(layout.edgeTriggerDistance, 0, "negative: 0")
    layout.edgeTriggerDistance = .nan
    XCTAssertEqual(layout.edgeTriggerDistance, 0, "non-finite: ignored")
    layout.userScroll(to: CGPoint(x: 0, y: 4_499))
    XCTAssertEqual(layout.takeEdgeEvents(), [], "1 pt from the end is not within 0")
    layout.userScroll(to: CGPoint(x: 0, y: 4_500))
    XCTAssertEqual(layout.takeEdgeEvents(), [.bottom])

    // A call that throws changes nothing of §16; a batch is one call.
    layout.edgeTriggerDistance = 600
    layout.userScroll(to: CGPoint(x: 0, y: 3_950))
    XCTAssertThrowsError(try layout.insert([5], at: 0)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("5", index: 0))
    }
    XCTAssertEqual(layout.takeEdgeEvents(), [])
    _ = layout.performBatch { l in
      l.userScroll(to: CGPoint(x: 0, y: 0))
      l.userScroll(to: CGPoint(x: 0, y: 3_950))
    }
    XCTAssertEqual(layout.takeEdgeEvents(), [], "judged when the batch returns: never left")
    struct Failure: Error {}
    XCTAssertThrowsError(try layout.performBatch { l in
      l.rearmEdgeTriggers()
      _ = l.takeEdgeEvents()
      throw Failure()
    }) { XCTAssertTrue($0 is Failure) }
    XCTAssertEqual(layout.takeEdgeEvents(), [], "the aborted batch re-armed nothing")
  }

  // MARK: F4

  func testF4_endsDistancesAndTheRowsAfterTheViewport() throws {
    var layout = try list(100)
    XCTAssertEqual(layout.distance(to: .top), 0)
    XCTAssertEqual(layout.distance(to: .bottom), 4_500)
    XCTAssertEqual(layout.distance(to: .trailing), 4_500, "either name, either axis")
    XCTAssertTrue(layout.isAtStart)
    XCTAssertFalse(layout.isAtEnd)
    XCTAssertEqual(layout.rowsAfterViewport, 90)
    layout.userScroll(to: CGPoint(x: 0, y: 4_499.5))
    XCTAssertTrue(layout.isAtEnd, "within D4's 1 pt")
    XCTAssertEqual(layout.rowsAfterViewport, 0)
    layout.pinnedToEndTolerance = 0.25
    XCTAssertFalse(layout.isAtEnd)
    // isAtEnd is exactly when D4 keeps the list pinned.
    for (offset, tolerance) in [(4_499.5, 0.25), (4_499.5, 1), (4_499.75, 0.25), (4_490, 20)] as [(CGFloat, CGFloat)] {
      var chat = try list(100)
      chat.defaultScrollAnchor(.bottom, for: .sizeChanges)
      chat.pinnedToEndTolerance = tolerance
      chat.userScroll(to: CGPoint(x: 0, y: offset))
      let atEnd = chat.isAtEnd
      try chat.insert([1_000], at: chat.count)
      XCTAssertEqual(chat.distance(to: .bottom) == 0, atEnd, "offset \(offset), tolerance \(tolerance)")
    }
    // "n new messages": rows appended below a user scrolled up.
    layout.userScroll(to: CGPoint(x: 0, y: 2_000))
    XCTAssertEqual(layout.rowsAfterViewport, 100 - 50)
    try layout.insert(200 ..< 207, at: layout.count)
    XCTAssertEqual(layout.rowsAfterViewport, 57)
    // No row meets the viewport (it lies in a large spacing): the rows starting after it.
    var gaps = try LazyStackLayout(ids: 0 ..< 10, estimatedExtent: 10, spacing: 400)
    gaps.viewportSize = CGSize(width: 100, height: 100)
    gaps.userScroll(to: CGPoint(x: 0, y: 1_250))
    XCTAssertEqual(gaps.rowsAfterViewport, 6, "rows 4 ..< 10 start at 1,640 pt and after")
  }

  // MARK: F5

  func testF5_prefetchLooksAheadInTheDirectionOfTravelThenBehindNearestFirst() throws {
    var layout = try list()
    layout.userScroll(to: CGPoint(x: 0, y: 10_000))  // rows 200 ..< 210
    XCTAssertEqual(layout.prefetchRows(ahead: 120, behind: 60), [210, 211, 212, 199, 198], "forward")
    layout.userScroll(to: CGPoint(x: 0, y: 9_000))  // rows 180 ..< 190, travelling back
    XCTAssertEqual(layout.prefetchRows(ahead: 100, behind: 50), [179, 178, 190])
    XCTAssertEqual(layout.prefetchRows(ahead: 0, behind: 0), [])
    layout.overscan = .rows(2)
    XCTAssertFalse(layout.prefetchRows(ahead: 100, behind: 100).contains(178), "rows to draw are not prefetched")
    layout.overscan = .none
    // A fling: first the screen it lands on, then ahead of it.
    layout.endInteraction(velocity: CGVector(dx: 0, dy: 3_000), behavior: .paging, at: 0)
    XCTAssertEqual(layout.phase, .decelerating)
    let landing = layout.targetContentOffset(forReleaseAt: CGPoint(x: 0, y: 9_000), velocity: CGVector(dx: 0, dy: 3_000),
                                             behavior: .paging)
    let first = Int(landing.y / 50)
    XCTAssertEqual(layout.prefetchRows(ahead: 100, behind: 0), Array(first ..< first + 12))
    var empty = try LazyStackLayout(ids: 0 ..< 10, estimatedExtent: 50)
    XCTAssertEqual(empty.prefetchRows(ahead: 100, behind: 100), [], "no viewport")
    empty.viewportSize = CGSize(width: 10, height: 10)
    XCTAssertEqual(empty.prefetchRows(ahead: .nan, behind: -5), [], "bad distances count as 0")
  }

  // MARK: F6

  func testF6_theThumbMovesOnlyWithScrollingAndReachesTheEndsWithTheContent() throws {
    var layout = try list(1_000, estimate: 100)  // an estimate twice the real extents
    XCTAssertEqual(layout.scrollIndicator, ScrollIndicator(position: 0, length: 500.0 / 100_000))
    layout.userScroll(to: CGPoint(x: 0, y: 30_000))
    let f = layout.scrollIndicator.position
    XCTAssertEqual(f, 30_000.0 / 99_500, "o / m after a scroll from 0")
    // Rows measured above and on screen change the content, not the thumb.
    for i in 100 ..< 310 { layout.setMeasuredExtent(50, for: i) }
    layout.measureVisibleRows { _, _ in 50 }
    XCTAssertEqual(layout.scrollIndicator.position, f, "(b): measurements never move the thumb")
    XCTAssertGreaterThan(layout.scrollIndicator.length, 500.0 / 100_000)
    // Travel: forward in proportion to the distance left; the end exactly with the content.
    let o = Double(layout.contentOffset.y), m = Double(layout.maxOffset)
    layout.userScroll(to: CGPoint(x: 0, y: o + 1_000))
    XCTAssertEqual(layout.scrollIndicator.position, f + (1 - f) * 1_000 / (m - o), accuracy: 1e-12)
    var last = layout.scrollIndicator.position
    while layout.contentOffset.y < layout.maxOffset {
      layout.userScroll(to: CGPoint(x: 0, y: layout.contentOffset.y + 7_000))
      XCTAssertGreaterThan(layout.scrollIndicator.position, last)
      last = layout.scrollIndicator.position
      XCTAssertEqual(last == 1, layout.contentOffset.y == layout.maxOffset)
    }
    // Backward to the start: 0 exactly there.
    while layout.contentOffset.y > 0 {
      layout.userScroll(to: CGPoint(x: 0, y: layout.contentOffset.y - 9_000))
      XCTAssertLessThan(layout.scrollIndicator.position, last)
      last = layout.scrollIndicator.position
    }
    XCTAssertEqual(last, 0)
    // (e): a programmatic scroll resets it to offset / maxOffset.
    layout.scrollTo(index: 600, anchor: .top)
    XCTAssertEqual(layout.scrollIndicator.position, Double(layout.contentOffset.y / layout.maxOffset))
    layout.viewportSize = CGSize(width: 320, height: 400)
    XCTAssertEqual(layout.scrollIndicator.position, Double(layout.contentOffset.y / layout.maxOffset))
  }

  func testF6_draggingTheThumbKeepsItUnderTheFingerWhileRowsAreMeasured() throws {
    var layout = try list(10_000, estimate: 80)
    layout.measureVisibleRows { _, _ in 40 }
    layout.dragIndicator(to: 0.5)
    XCTAssertEqual(layout.scrollIndicator.position, 0.5)
    XCTAssertEqual(layout.phase, .idle)
    XCTAssertTrue(layout.position.isPositionedByUser, "a user scroll (T1)")
    layout.measureVisibleRows { _, _ in 40 }
    XCTAssertEqual(layout.scrollIndicator.position, 0.5, "the rows revealed are measured with nothing moving")
    layout.dragIndicator(to: 0.75)
    XCTAssertEqual(layout.scrollIndicator.position, 0.75)
    layout.dragIndicator(to: 2)
    XCTAssertEqual(layout.scrollIndicator.position, 1)
    XCTAssertEqual(layout.contentOffset.y, layout.maxOffset)
    layout.dragIndicator(to: .nan)
    XCTAssertEqual(layout.scrollIndicator.position, 1, "non-finite: nothing")
    layout.dragIndicator(to: -1)
    XCTAssertEqual(layout.contentOffset.y, 0)
    XCTAssertEqual(layout.scrollIndicator.position, 0)
  }

  // MARK: F7

  func testF7_scrollToIndexIsScrollToTheIdAtThatIndex() throws {
    var a = try list()
    var b = a
    a.scrollTo(index: 640, anchor: .center)
    b.position.scrollTo(id: 640, anchor: .center)
    XCTAssertEqual(a.contentOffset, b.contentOffset)
    XCTAssertEqual(a.position, b.position)
    XCTAssertEqual(a.scrollIndicator, b.scrollIndicator)
  }

  // MARK: F8

  /// F8 at 2M rows in a 4-lane masonry and a list: every answer of a
  /// frame, checked against what the rows' geometry says (the benchmark's
  /// `frame` and `lanes_frame` show the cost does not grow with n).
  func testF8_aFrameOverMillionsOfRowsAnswersEveryQuestion() throws {
    LazyStackInternalChecks.isEnabled = false
    defer { LazyStackInternalChecks.isEnabled = true }
    let n = 2_000_000
    var layout = try LazyStackLayout(ids: 0 ..< n, estimatedExtent: 100)
    layout.viewportSize = CGSize(width: 400, height: 1_000)
    layout.sectionLayout = .masonry(try MasonryLayout(lanes: .fixed(4)))
    XCTAssertEqual(layout.takeEdgeEvents(), [.top])
    layout.userScroll(to: CGPoint(x: 0, y: 25_000_000))
    layout.measureVisibleRows { _, _, proposal in proposal.width }  // 100 pt: the estimate
    let rows = layout.rowsToDraw
    XCTAssertEqual(rows, Array(1_000_000 ..< 1_000_040))
    XCTAssertEqual(layout.rowsAfterViewport, n - 1_000_040)
    XCTAssertEqual(layout.prefetchRows(ahead: 100, behind: 0), Array(1_000_040 ..< 1_000_044))
    XCTAssertEqual(layout.scrollIndicator.position, 25_000_000 / (50_000_000 - 1_000), accuracy: 1e-9)
    XCTAssertEqual(layout.takeEdgeEvents(), [])
    layout.dragIndicator(to: 1)
    XCTAssertEqual(layout.takeEdgeEvents(), [.bottom])
    XCTAssertTrue(layout.isAtEnd)
  }

  // MARK: The model checks

  /// §16 against the reference model after every step: the indicator,
  /// the edge events waiting and taken, the rows to draw, the ends,
  /// prefetch, the proposals; lists, sections, kinds, snapshots, batches
  /// and motion in the mix; with lanes too. A floor proves the frame's
  /// operations ran and edge events fired.
  func testF_modelCheck_theFrameAgainstTheReference() throws {
    var frameOps = 0
    var events = 0
    let seeds = TestScale.seeds(0 ..< 24)
    for seed in seeds {
      var generator = OperationGenerator(seed: seed, includeEdits: true, maxRows: 80, includeSections: true,
                                         includeMotion: true, includeOrderedIDs: seed % 2 == 1)
      generator.includeBatches = true
      generator.includeKinds = true
      generator.includeLanes = seed % 3 == 1
      generator.includeFrame = true
      var rng = SeededRNG(seed: seed ^ 0xF16)
      let axis: Axis = seed % 4 == 3 ? .horizontal : .vertical
      var pair = try ModelPair(ids: Array(0 ..< Int.random(in: 0 ... 40, using: &rng)),
                               estimate: CGFloat(Int.random(in: 5 ... 80, using: &rng)),
                               spacing: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 3, axis: axis,
                               insets: EdgeInsets(all: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4),
                               blockCapacity: Int.random(in: 4 ... 12, using: &rng))
      for step in 0 ..< 300 {
        let extent = axis == .vertical ? pair.reference.contentSize.height : pair.reference.contentSize.width
        let op = generator.next(ids: pair.reference.ids, contentExtent: extent)
        switch op {
        case .keptIDs, .edgeTriggerDistance, .rearmEdgeTriggers, .takeEdgeEvents, .dragIndicator, .scrollToIndex,
             .measureProposed:
          frameOps += 1
        default: break
        }
        events += pair.core._pendingEdgeEvents.count
        let problem = pair.step(op) ?? pair.difference(probes: (0 ..< 3).map { _ in
          CGFloat(Int.random(in: -50 ... Int(extent) + 50, using: &rng))
        })
        if let problem { return XCTFail("seed \(seed) step \(step) \(op): \(problem)") }
      }
    }
    XCTAssertGreaterThan(frameOps, seeds.count * 300 / 20, "the frame's operations ran")
    XCTAssertGreaterThan(events, seeds.count, "edge events fired and were compared")
  }
}
