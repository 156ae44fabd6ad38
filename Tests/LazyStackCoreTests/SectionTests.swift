import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// One named test per rule of SPEC §11 (sections and pinned headers), with
/// worked numbers. Unless a test says otherwise: sections of a 20 pt header,
/// five 50 pt rows and a 10 pt footer (280 pt a section), no spacing, row
/// `7 k + j` of section k is its header (j = 0), a plain row (1...5) or its
/// footer (6); viewport 300 x 200.
final class SectionTests: CheckedTestCase {
  /// `sections` sections as above, headers and footers measured unless
  /// `measured` is false (then every row is estimated at 50).
  func make(sections: Int = 10, spacing: CGFloat = 0, insets: EdgeInsets = EdgeInsets(), axis: Axis = .vertical,
            viewport: CGFloat = 200, measured: Bool = true,
            pinned: PinnedScrollableViews = [.sectionHeaders]) throws -> LazyStackLayout<Int> {
    var layout = try makeLayout(rows: 7 * sections, spacing: spacing, axis: axis, insets: insets, viewport: viewport,
                                cross: 300, blockCapacity: 4)
    for k in 0 ..< sections {
      XCTAssertTrue(layout.setRole(.sectionHeader, for: 7 * k))
      XCTAssertTrue(layout.setRole(.sectionFooter, for: 7 * k + 6))
      if measured {
        layout.setMeasuredExtent(20, for: 7 * k)
        layout.setMeasuredExtent(10, for: 7 * k + 6)
      }
    }
    layout.pinnedViews = pinned
    return layout
  }

  func main(_ layout: LazyStackLayout<Int>) -> CGFloat {
    layout.axis == .vertical ? layout.contentOffset.y : layout.contentOffset.x
  }

  func start(_ layout: LazyStackLayout<Int>, _ i: Int) -> CGFloat {
    layout.axis == .vertical ? layout.frame(at: i).minY : layout.frame(at: i).minX
  }

  // MARK: H1

  func testH1_rolesFollowIdsAndChangeNothingOnScreen() throws {
    var layout = try make(sections: 4, pinned: [])
    layout.userScroll(to: CGPoint(x: 0, y: 333))
    let frames = (0 ..< layout.count).map { layout.frame(at: $0) }
    let offset = layout.contentOffset
    // A role change and a pinned-view change move no row and no offset.
    XCTAssertTrue(layout.setRole(.sectionHeader, for: 3))
    layout.pinnedViews = [.sectionHeaders, .sectionFooters]
    XCTAssertEqual((0 ..< layout.count).map { layout.frame(at: $0) }, frames)
    XCTAssertEqual(layout.contentOffset, offset)
    XCTAssertEqual(layout.role(at: 3), .sectionHeader)
    XCTAssertTrue(layout.setRole(.row, for: 3))
    XCTAssertEqual(layout.role(at: 3), .row)
    // An unknown id: false, nothing changes.
    XCTAssertFalse(layout.setRole(.sectionHeader, for: -1))
    // Roles follow ids through a move, an insert, a removal, a snapshot and a difference.
    layout.move(fromOffsets: [0], toOffset: 10)  // the header of section 0 moves to index 9
    XCTAssertEqual(layout.role(at: 9), .sectionHeader)
    XCTAssertEqual(layout.id(at: 9), 0)
    try layout.insert([100, 101], at: 0)  // new ids are plain rows
    XCTAssertEqual(layout.role(at: 0), .row)
    XCTAssertEqual(layout.role(at: 1), .row)
    XCTAssertEqual(layout.role(at: layout.index(of: 0)!), .sectionHeader)
    layout.remove(atOffsets: [0, 1])
    var shuffled = layout.ids
    shuffled.reverse()
    try layout.update(ids: shuffled)
    for i in 0 ..< layout.count {
      let id = layout.id(at: i)
      XCTAssertEqual(layout.role(at: i), id % 7 == 0 ? .sectionHeader : id % 7 == 6 ? .sectionFooter : .row, "row \(i)")
    }
    let difference = Array(0 ..< 28).difference(from: layout.ids).inferringMoves()
    try layout.apply(difference)
    XCTAssertEqual(layout.ids, Array(0 ..< 28))
    XCTAssertEqual(layout.role(at: 7), .sectionHeader)
    XCTAssertEqual(layout.role(at: 13), .sectionFooter)
    // A removed id loses its role: inserted again it is a plain row.
    try layout.remove(ids: [7])
    try layout.insert([7], at: 7)
    XCTAssertEqual(layout.role(at: 7), .row)
  }

  func testH1_aPendingTargetUsesNewRolesFromItsNextReResolution() throws {
    var layout = try make(sections: 4, pinned: [])
    layout.position.scrollTo(id: 10, anchor: .top)  // row 3 of section 1: starts at 280 + 20 + 100 = 400
    XCTAssertEqual(main(layout), 400)
    layout.pinnedViews = .sectionHeaders  // moves nothing yet
    XCTAssertEqual(main(layout), 400)
    layout.setMeasuredExtent(60, for: 20)  // a measurement below: the target is re-resolved, now under the header
    XCTAssertEqual(main(layout), 380)
    XCTAssertTrue(layout.setRole(.row, for: 7))  // no header any more: nothing moves until the next re-resolution
    XCTAssertEqual(main(layout), 380)
    layout.setMeasuredExtent(61, for: 20)
    XCTAssertEqual(main(layout), 400)
  }

  // MARK: H2

  func testH2_sectionsStartAtHeadersAndEndWithFooters() throws {
    var layout = try LazyStackLayout(ids: 0 ..< 20, estimatedExtent: 10, spacing: 0, axis: .vertical,
                                     insets: EdgeInsets(), blockCapacity: 4)
    XCTAssertEqual(layout.section(containing: 7), 0 ..< 20)  // no roles: one section
    layout.setRole(.sectionHeader, for: 3)
    layout.setRole(.sectionFooter, for: 8)
    layout.setRole(.sectionFooter, for: 9)   // a footer right after a footer: a section of one row
    layout.setRole(.sectionHeader, for: 15)  // a header with no footer: its section ends at the last row
    XCTAssertEqual(layout.section(containing: 0), 0 ..< 3)   // starts at the first row, ends before a header
    XCTAssertEqual(layout.section(containing: 2), 0 ..< 3)
    XCTAssertEqual(layout.section(containing: 3), 3 ..< 9)   // header ... footer
    XCTAssertEqual(layout.section(containing: 8), 3 ..< 9)
    XCTAssertEqual(layout.section(containing: 9), 9 ..< 10)
    XCTAssertEqual(layout.section(containing: 10), 10 ..< 15)  // right after a footer, no header
    XCTAssertEqual(layout.section(containing: 19), 15 ..< 20)
    XCTAssertEqual(layout.role(at: 15), .sectionHeader)
    // The reference model agrees everywhere.
    var reference = try LazyStackReference(ids: 0 ..< 20, estimatedExtent: 10)
    for (id, role) in [(3, RowRole.sectionHeader), (8, .sectionFooter), (9, .sectionFooter), (15, .sectionHeader)] {
      reference.setRole(role, for: id)
    }
    for i in 0 ..< 20 { XCTAssertEqual(layout.section(containing: i), reference.section(containing: i), "row \(i)") }
  }

  // MARK: H3

  func testH3_pinnedHeaderSticksAndIsPushedOutByItsSectionsEnd() throws {
    var layout = try make()
    // Inside section 1 (280 ..< 560): its header (at 280) sticks to the offset.
    layout.userScroll(to: CGPoint(x: 0, y: 400))
    XCTAssertEqual(layout.pinnedRows, [PinnedRow(index: 7, frame: CGRect(x: 0, y: 400, width: 300, height: 20))])
    // Near the section's end (560): pushed out, at 560 - 20 = 540.
    layout.userScroll(to: CGPoint(x: 0, y: 545))
    XCTAssertEqual(layout.pinnedRows, [PinnedRow(index: 7, frame: CGRect(x: 0, y: 540, width: 300, height: 20))])
    // At the section's start: in its natural place, the frame of frame(at:).
    layout.userScroll(to: CGPoint(x: 0, y: 560))
    XCTAssertEqual(layout.pinnedRows, [PinnedRow(index: 14, frame: layout.frame(at: 14))])
    // Pinning changes neither frames nor the visible rows.
    let visible = layout.visibleIndices
    layout.pinnedViews = []
    XCTAssertEqual(layout.visibleIndices, visible)
    XCTAssertEqual(layout.pinnedRows, [])
    // A section without a header pins nothing.
    layout.pinnedViews = .sectionHeaders
    layout.setRole(.row, for: 14)
    layout.userScroll(to: CGPoint(x: 0, y: 600))
    XCTAssertEqual(layout.pinnedRows, [])
  }

  // MARK: H4

  func testH4_pinnedFooterSticksToTheTrailingEdge() throws {
    var layout = try make(pinned: .sectionFooters)
    // Viewport 300 ..< 500 inside section 1 (280 ..< 560): footer (natural 550) drawn at 500 - 10 = 490.
    layout.userScroll(to: CGPoint(x: 0, y: 300))
    XCTAssertEqual(layout.pinnedRows, [PinnedRow(index: 13, frame: CGRect(x: 0, y: 490, width: 300, height: 10))])
    // Viewport 370 ..< 570: the last visible row is in section 2, which starts at 560: its
    // footer is drawn at max(570 - 10, 560) = 560, stuck to its section's start.
    layout.userScroll(to: CGPoint(x: 0, y: 370))
    XCTAssertEqual(layout.pinnedRows, [PinnedRow(index: 20, frame: CGRect(x: 0, y: 560, width: 300, height: 10))])
    // Footer in its natural place: the frame of frame(at:).
    layout.userScroll(to: CGPoint(x: 0, y: 360))  // 360 ..< 560: section 1's footer ends at 560
    XCTAssertEqual(layout.pinnedRows, [PinnedRow(index: 13, frame: layout.frame(at: 13))])
  }

  // MARK: H5

  func testH5_pinnedRowsListHeaderThenFooterInContentCoordinates() throws {
    var layout = try make(pinned: [.sectionHeaders, .sectionFooters])
    layout.userScroll(to: CGPoint(x: 0, y: 300))
    XCTAssertEqual(layout.pinnedRows, [PinnedRow(index: 7, frame: CGRect(x: 0, y: 300, width: 300, height: 20)),
                                       PinnedRow(index: 13, frame: CGRect(x: 0, y: 490, width: 300, height: 10))])
    // The cross axis is frame(at:)'s: insets and a horizontal axis.
    var horizontal = try make(insets: EdgeInsets(top: 4, leading: 6, bottom: 8, trailing: 2), axis: .horizontal)
    horizontal.userScroll(to: CGPoint(x: 406, y: 0))  // section 1 starts at 6 + 280
    let header = horizontal.frame(at: 7)
    XCTAssertEqual(horizontal.pinnedRows, [PinnedRow(index: 7, frame: CGRect(x: 406, y: header.minY, width: 20,
                                                                                height: header.height))])
    // An empty list and a zero viewport have no pinned rows.
    layout.viewportSize = .zero
    XCTAssertEqual(layout.pinnedRows, [])
    var empty = try LazyStackLayout(ids: [Int](), estimatedExtent: 10)
    empty.viewportSize = CGSize(width: 100, height: 100)
    empty.pinnedViews = [.sectionHeaders, .sectionFooters]
    XCTAssertEqual(empty.pinnedRows, [])
  }

  // MARK: H6

  func testH6_scrollToLandsUnderThePinnedHeader() throws {
    var layout = try make()
    // The SPEC's example: the third row of section 1 starts at 400; under the 20 pt header: 380.
    layout.position.scrollTo(id: 10, anchor: .top)
    XCTAssertEqual(main(layout), 380)
    XCTAssertEqual(layout.pinnedRows.first?.frame.maxY, start(layout, 10))
    // A bottom anchor with footers pinned too: the row ends at the footer's top.
    layout.pinnedViews = [.sectionHeaders, .sectionFooters]
    layout.position.scrollTo(id: 10, anchor: .bottom)  // ends at 450; viewport 200 less the 10 pt footer
    XCTAssertEqual(main(layout), 450 + 10 - 200)
    // A center anchor: the middle of the viewport less header and footer.
    layout.position.scrollTo(id: 10, anchor: .center)  // 425 - 20 - 85
    XCTAssertEqual(main(layout), 320)
    // A header itself lands at the top (it is not under itself).
    layout.position.scrollTo(id: 7, anchor: .top)
    XCTAssertEqual(main(layout), 280)
    // R4 (no anchor): a row above the viewport lands under the header ...
    layout.userScroll(to: CGPoint(x: 0, y: 1000))
    layout.position.scrollTo(id: 10)
    XCTAssertEqual(main(layout), 380)
    // ... a row below it ends above the pinned footer ...
    layout.userScroll(to: .zero)
    layout.position.scrollTo(id: 12)  // 500 ..< 550
    XCTAssertEqual(main(layout), 550 + 10 - 200)
    // ... and a row already in the visible part does not move.
    layout.position.scrollTo(id: 11)  // 450 ..< 500, visible part 380 ..< 550
    XCTAssertEqual(main(layout), 360)
    // Hidden behind the pinned header counts as not visible: it scrolls.
    layout.userScroll(to: CGPoint(x: 0, y: 395))  // header pinned over 395 ..< 415; row 10 is 400 ..< 450
    layout.position.scrollTo(id: 10)
    XCTAssertEqual(main(layout), 380)
  }

  func testH6_reResolvedExactlyAsTheHeaderIsMeasured() throws {
    var layout = try make(measured: false)  // headers estimated at 50
    layout.position.scrollTo(id: 7 * 5 + 3, anchor: .top)
    // Every row 50: row 38 starts at 1900, its header (at 1750) is 50 tall.
    XCTAssertEqual(main(layout), 1900 - 50)
    layout.setMeasuredExtent(20, for: 35)  // the header measured: the row stays exactly under it
    XCTAssertEqual(main(layout), 1870 - 20)
    XCTAssertEqual(layout.pinnedRows.first?.frame.maxY, start(layout, 38))
    layout.setMeasuredExtent(30, for: 0)  // a row far above
    XCTAssertEqual(layout.pinnedRows.first?.frame.maxY, start(layout, 38))
    // A user scroll ends the pending target (T1): the header's next change no
    // longer keeps the row under it; the row the user sees stays put.
    layout.userScroll(to: CGPoint(x: 0, y: main(layout) + 1))
    let onScreen = start(layout, 38) - main(layout)
    layout.setMeasuredExtent(44, for: 35)
    XCTAssertEqual(start(layout, 38) - main(layout), onScreen)
  }

  func testH6_withSpacingInsetsAndTheHorizontalAxis() throws {
    let insets = EdgeInsets(top: 12, leading: 30, bottom: 5, trailing: 7)
    var layout = try make(spacing: 4, insets: insets, axis: .horizontal)
    // Section k spans 7 rows + 7 spacings: 280 + 28 = 308. Row 10 starts at 30 + 308 + (20 + 4) + 2 * (50 + 4) = 470.
    XCTAssertEqual(start(layout, 10), 470)
    layout.position.scrollTo(id: 10, anchor: .leading)
    XCTAssertEqual(main(layout), 450)
    XCTAssertEqual(layout.pinnedRows.first?.frame.maxX, 470)
  }

  func testH6_givesWayWhenThePinnedRowsLeaveNoRoom() throws {
    var layout = try make()
    layout.setMeasuredExtent(250, for: 7)  // a header taller than the 200 pt viewport
    layout.position.scrollTo(id: 10, anchor: .top)
    // Under the header the row would be off screen (S13): it lands at the top instead.
    XCTAssertEqual(main(layout), start(layout, 10))
  }

  // MARK: H7

  func testH7_rankAndSelectMatchAScanOnALargeList() throws {
    // 50,000 rows in blocks of 512, sections of random lengths.
    LazyStackInternalChecks.isEnabled = false
    defer { LazyStackInternalChecks.isEnabled = true }
    var rng = SeededRNG(seed: 7)
    var layout = try LazyStackLayout(ids: Array((0 ..< 50_000).reversed()), estimatedExtent: 30)
    var roles = [RowRole](repeating: .row, count: 50_000)
    var i = 0
    while i < 50_000 {
      roles[i] = .sectionHeader
      let length = Int.random(in: 1 ... 400, using: &rng)
      if Bool.random(using: &rng) && i + length - 1 < 50_000 { roles[i + length - 1] = .sectionFooter }
      i += length
    }
    let bytes = layout._heapBytes
    // The first role: one block gets role bytes, and the role counts get
    // their Fenwick tree (8 bytes a block); nothing else grows.
    layout.setRole(.sectionHeader, for: layout.id(at: 25_000))
    XCTAssertLessThanOrEqual(layout._heapBytes - bytes, 32 + 512 + 32 + 8 * layout._tree._fenwick.nodes.count)
    let withOne = layout._heapBytes
    layout.setRole(.sectionFooter, for: layout.id(at: 25_001))  // the same block: no new bytes
    XCTAssertEqual(layout._heapBytes, withOne)
    layout.setRole(.row, for: layout.id(at: 25_001))
    for (k, role) in roles.enumerated() where role != .row { layout.setRole(role, for: layout.id(at: k)) }
    if roles[25_000] == .row { layout.setRole(.row, for: layout.id(at: 25_000)) }
    layout._tree._checkInvariants()
    // Sections from one scan, compared at random rows.
    var starts = [Int](repeating: 0, count: 50_000)
    var current = 0
    for k in 0 ..< 50_000 {
      if roles[k] == .sectionHeader || (k > 0 && roles[k - 1] == .sectionFooter) { current = k }
      starts[k] = current
    }
    for _ in 0 ..< 2_000 {
      let k = Int.random(in: 0 ..< 50_000, using: &rng)
      XCTAssertEqual(layout.role(at: k), roles[k])
      let section = layout.section(containing: k)
      XCTAssertEqual(section.lowerBound, starts[k], "row \(k)")
      XCTAssertTrue(section.contains(k))
      let last = section.upperBound - 1
      XCTAssertTrue(last == 49_999 || roles[last] == .sectionFooter || roles[last + 1] == .sectionHeader, "row \(k)")
    }
  }
}
