import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// One named test per rule of SPEC §13 (lanes), with worked numbers, run
/// against the layout (the model checks, `LaneModelCheckTests`, hold the
/// reference model to the same behaviour). Unless a test says otherwise:
/// 40 pt estimates, no spacing, no insets, a viewport 400 wide and 200
/// tall, vertical.
final class LaneTests: CheckedTestCase {
  typealias Model = LazyStackLayout<Int>

  func make(rows: Int = 40, estimate: CGFloat = 40, spacing: CGFloat = 0, insets: EdgeInsets = EdgeInsets(),
            viewport: CGSize = CGSize(width: 400, height: 200), layout: SectionLayout = .list) throws -> Model {
    var model = try Model(ids: 0 ..< rows, estimatedExtent: estimate, spacing: spacing, insets: insets)
    model.viewportSize = viewport
    model.sectionLayout = layout
    return model
  }

  func grid(_ k: Int, laneSpacing: CGFloat = 0, alignment: CGFloat = 0) throws -> SectionLayout {
    .grid(try GridLayout(lanes: .fixed(k), laneSpacing: laneSpacing, alignment: alignment))
  }

  func masonry(_ lanes: LaneCount, laneSpacing: CGFloat = 0) throws -> SectionLayout {
    .masonry(try MasonryLayout(lanes: lanes, laneSpacing: laneSpacing))
  }

  /// Where row `i` is on screen (its frame's main-axis start less the offset).
  func onScreen(_ m: Model, _ i: Int) -> CGFloat { m.frame(at: i).minY - m.contentOffset.y }

  // MARK: L1

  /// SPEC L1: the layout-wide layout applies to every section without its
  /// own; a header's own follows its id (a move keeps it) and nil removes
  /// it; headers and footers span the whole cross axis.
  func testL1_sectionLayoutsDefaultAndPerHeader() throws {
    // Sections: header 0, rows 1–8, footer 9; header 10, rows 11–18, footer 19.
    var m = try make(rows: 20)
    for h in [0, 10] { m.setRole(.sectionHeader, for: h) }
    for f in [9, 19] { m.setRole(.sectionFooter, for: f) }
    XCTAssertTrue(m.setSectionLayout(try grid(4), forHeader: 10))
    XCTAssertFalse(m.setSectionLayout(try grid(4), forHeader: 99), "not a row")
    XCTAssertEqual(m.sectionLayout(at: 5), .list)
    XCTAssertEqual(m.sectionLayout(at: 12), try grid(4))
    // The first section is a list: 10 rows of 40; the second: header, two lines of 4, footer.
    XCTAssertEqual(m.frame(at: 11), CGRect(x: 0, y: 440, width: 100, height: 40))
    XCTAssertEqual(m.frame(at: 14), CGRect(x: 300, y: 440, width: 100, height: 40))
    XCTAssertEqual(m.frame(at: 15), CGRect(x: 0, y: 480, width: 100, height: 40))
    XCTAssertEqual(m.frame(at: 10), CGRect(x: 0, y: 400, width: 400, height: 40), "a header spans the lanes")
    XCTAssertEqual(m.frame(at: 19), CGRect(x: 0, y: 520, width: 400, height: 40), "a footer spans the lanes")
    XCTAssertEqual(m.contentSize.height, 560)
    // The default now: the first section too.
    m.sectionLayout = try grid(2)
    XCTAssertEqual(m.sectionLayout(at: 5), try grid(2))
    XCTAssertEqual(m.sectionLayout(at: 12), try grid(4), "its own layout wins")
    XCTAssertEqual(m.frame(at: 2), CGRect(x: 200, y: 40, width: 200, height: 40))
    // The header's layout follows its id through a move.
    m.move(fromOffsets: IndexSet(10 ..< 20), toOffset: 0)
    XCTAssertEqual(m.sectionLayout(at: 1), try grid(4))
    XCTAssertTrue(m.setSectionLayout(nil, forHeader: 10))
    XCTAssertEqual(m.sectionLayout(at: 1), try grid(2))
  }

  /// SPEC L1, H1: a header's own layout goes with its id when the row is
  /// removed, also when it was a plain row by then and the edit updates
  /// the lane sections in place (found by the fuzzer: the layout stayed,
  /// and came back with the id).
  func testL1_aRemovedRowsLayoutGoesWithItAlsoWhenLanesFollowTheEditInPlace() throws {
    var m = try make(rows: 20)
    m.setRole(.sectionHeader, for: 0)
    XCTAssertTrue(m.setSectionLayout(try masonry(.fixed(2)), forHeader: 0))
    m.setRole(.sectionHeader, for: 10)
    XCTAssertTrue(m.setSectionLayout(try grid(2), forHeader: 10))
    m.setRole(.row, for: 10)  // its rows join header 0's masonry; the layout stays with id 10
    XCTAssertEqual(m.sectionLayout(at: 11), try masonry(.fixed(2)))
    try m.remove(ids: [10])  // a plain row: the lane sections follow the edit in place (L8)
    try m.insert([10], at: 10)
    m.setRole(.sectionHeader, for: 10)
    XCTAssertEqual(m.sectionLayout(at: 11), .list, "the removed row's grid came back with its id")
    XCTAssertEqual(m.sectionLayout(at: 5), try masonry(.fixed(2)))
  }

  /// SPEC L1: changing a section's layout re-flows it, and the kept row
  /// keeps its place on screen at its anchor fraction.
  func testL1_reflowKeepsTheKeptRowOnScreen() throws {
    var m = try make(rows: 400, layout: try masonry(.fixed(4)))
    for i in 0 ..< 400 { m.setMeasuredExtent(CGFloat(20 + (i * 37) % 90), for: i) }
    m.userScroll(to: CGPoint(x: 0, y: 1500))
    let kept = try XCTUnwrap(m._anchorRowID)
    let before = onScreen(m, kept)
    m.sectionLayout = try masonry(.fixed(5))
    XCTAssertEqual(onScreen(m, kept), before, "4 to 5 lanes")
    m.sectionLayout = try grid(3)
    XCTAssertEqual(onScreen(m, kept), before, "masonry to grid")
    m.sectionLayout = .list
    XCTAssertEqual(onScreen(m, kept), before, "grid to list")
  }

  // MARK: L2

  /// SPEC L2: k = max(1, floor((c + s) / (w + s))) for the viewport's
  /// cross extent less the cross insets; lanes of (c - (k - 1) s) / k
  /// from the leading inset; a width that changes k re-flows.
  func testL2_adaptiveLaneCountWidthsAndStarts() throws {
    let insets = EdgeInsets(top: 0, leading: 10, bottom: 0, trailing: 10)
    // c = 380, s = 20, w = 100: floor(400 / 120) = 3 lanes of (380 - 40) / 3.
    var m = try make(rows: 12, insets: insets, layout: .grid(try GridLayout(lanes: .adaptive(minimum: 100), laneSpacing: 20)))
    let width = CGFloat(340) / 3
    XCTAssertEqual(m.frame(at: 0).minX, 10)
    XCTAssertEqual(m.frame(at: 1).minX, 10 + width + 20, accuracy: 1e-9)
    XCTAssertEqual(m.frame(at: 2).width, width, accuracy: 1e-9)
    XCTAssertEqual(m.frame(at: 3).minX, 10, "row 3 opens the second line")
    // 500 wide: c = 480, floor(500 / 120) = 4.
    m.viewportSize = CGSize(width: 500, height: 200)
    XCTAssertEqual(m.lane(at: 3), 3)
    // Narrower than one lane: still one.
    m.viewportSize = CGSize(width: 60, height: 200)
    XCTAssertEqual(m.lane(at: 3), 0)
    XCTAssertEqual(m.frame(at: 3).width, 40)
    XCTAssertEqual(LaneCount.adaptive(minimum: 100).count(crossExtent: 0, spacing: 0), 1)
    // Masonry: a width that changes k re-flows (every row by L4's rule again).
    var masonry = try make(rows: 6, layout: try self.masonry(.adaptive(minimum: 100)))  // 4 lanes
    masonry.setMeasuredExtent(300, for: 0)
    XCTAssertEqual((0 ..< 6).map { masonry.lane(at: $0) }, [0, 1, 2, 3, 0, 1], "lanes given before the measurement")
    masonry.viewportSize = CGSize(width: 200, height: 200)  // 2 lanes: 0 | 1, 2, 3, 4, 5 (lane 1 ends first)
    XCTAssertEqual((0 ..< 6).map { masonry.lane(at: $0) }, [0, 1, 1, 1, 1, 1])
    masonry.viewportSize = CGSize(width: 400, height: 200)  // 4 lanes again, placed by the rule now
    XCTAssertEqual((0 ..< 6).map { masonry.lane(at: $0) }, [0, 1, 2, 3, 1, 2])
  }

  /// SPEC L2 (and X5): bad lane counts, minimums, spacings and alignments
  /// are typed errors.
  /// SPEC L2: the layout's adaptive lane count (`LaneCount.count`) is the
  /// reference's, computed on its own as the most lanes of w with their
  /// spacings that fit (k w + (k - 1) s <= c), over a sweep of cross
  /// extents, minimums and spacings, the exact fits included; worked: 3
  /// lanes of 100 with 10 between need 320 pt.
  func testL2_adaptiveLaneCountIsTheReferencesOverASweep() {
    let three = LaneCount.adaptive(minimum: 100)
    XCTAssertEqual(three.count(crossExtent: 320, spacing: 10), 3)
    XCTAssertEqual(three.count(crossExtent: 319.75, spacing: 10), 2)
    XCTAssertEqual(three.count(crossExtent: 0, spacing: 10), 1)
    XCTAssertEqual(LaneCount.adaptive(minimum: 1).count(crossExtent: 10_000, spacing: 0), 256, "at most 256")
    var compared = 0
    for w in [0.5, 1, 7.5, 40, 99.25, 100, 333] as [CGFloat] {
      for s in [0, 0.25, 2.5, 4, 16] as [CGFloat] {
        for step in 0 ... 2_400 {
          let c = CGFloat(step) / 4
          let core = LaneCount.adaptive(minimum: w).count(crossExtent: c, spacing: s)
          let reference = LazyStackReference<Int>.laneCount(.adaptive(minimum: w), crossExtent: c, spacing: s)
          if core != reference { return XCTFail("w \(w) s \(s) c \(c): \(core) vs \(reference)") }
          compared += 1
        }
      }
    }
    XCTAssertEqual(compared, 7 * 5 * 2_401)
  }

  func testL2_badLaneValuesAreTypedErrors() {
    XCTAssertThrowsError(try GridLayout(lanes: .fixed(0))) { XCTAssertEqual($0 as? LazyStackError, .invalidLaneCount(0)) }
    XCTAssertThrowsError(try MasonryLayout(lanes: .fixed(-3))) { XCTAssertEqual($0 as? LazyStackError, .invalidLaneCount(-3)) }
    for w in [-1, 0, .nan, .infinity] as [CGFloat] {
      XCTAssertThrowsError(try GridLayout(lanes: .adaptive(minimum: w)), LazyStackError.invalidExtent(w, what: "adaptive lane minimum"))
    }
    for s in [-1, .nan, .infinity] as [CGFloat] {
      XCTAssertThrowsError(try MasonryLayout(lanes: .fixed(2), laneSpacing: s)) {
        XCTAssertEqual($0 as? LazyStackError, .invalidExtent(s, what: "lane spacing"))
      }
    }
    for a in [-0.5, 1.5, .nan] as [CGFloat] {
      XCTAssertThrowsError(try GridLayout(lanes: .fixed(2), alignment: a), LazyStackError.invalidExtent(a, what: "grid alignment (0 to 1)"))
    }
    for s in [-1, .nan, .infinity] as [CGFloat] {
      XCTAssertThrowsError(try GridLayout(lanes: .fixed(2), laneSpacing: s), LazyStackError.invalidExtent(s, what: "lane spacing"))
    }
    XCTAssertNoThrow(try GridLayout(lanes: .fixed(1), laneSpacing: 0, alignment: 1))
  }

  // MARK: L3

  /// SPEC L3: lines of k in index order, as long as their longest row
  /// (an estimated row with its estimate), separated by spacing; a row at
  /// its alignment's share of what its line has to spare.
  func testL3_gridLinesAreTheirLongestRowAndRowsAlign() throws {
    for (alignment, expectedY) in [(0, 0), (0.5, 30), (1, 60)] as [(CGFloat, CGFloat)] {
      var m = try make(rows: 7, spacing: 10, layout: try grid(3, alignment: alignment))
      m.setMeasuredExtent(100, for: 1)  // line 0: 40, 100, 40 -> 100
      m.setMeasuredExtent(20, for: 3)   // line 1: 20, 40, 40 -> 40
      XCTAssertEqual(m.frame(at: 0), CGRect(x: 0, y: expectedY, width: 400.0 / 3, height: 40), "alignment \(alignment)")
      XCTAssertEqual(m.frame(at: 1).minY, 0)
      XCTAssertEqual(m.frame(at: 4).minY, 110, "line 1 starts after 100 + 10")
      XCTAssertEqual(m.frame(at: 3).minY, 110 + alignment * 20)
      XCTAssertEqual(m.frame(at: 6).minY, 160, "line 2: one row")
      XCTAssertEqual(m.frame(at: 6).minX, 0)
      XCTAssertEqual(m.contentSize.height, 200)
      XCTAssertEqual((0 ..< 7).map { m.lane(at: $0) }, [0, 1, 2, 0, 1, 2, 0])
    }
  }

  // MARK: L4

  /// SPEC L4: with one estimate and nothing measured, round robin; a
  /// measurement never moves a row to another lane; the section ends where
  /// its longest lane ends.
  func testL4_masonryRoundRobinAndMeasurementsNeverMoveRowsSideways() throws {
    var m = try make(rows: 9, layout: try masonry(.fixed(3)))
    XCTAssertEqual((0 ..< 9).map { m.lane(at: $0) }, [0, 1, 2, 0, 1, 2, 0, 1, 2])
    m.setMeasuredExtent(200, for: 0)
    XCTAssertEqual((0 ..< 9).map { m.lane(at: $0) }, [0, 1, 2, 0, 1, 2, 0, 1, 2], "no row moved sideways")
    XCTAssertEqual(m.frame(at: 3).minY, 200, "below row 0 in its lane")
    XCTAssertEqual(m.frame(at: 4).minY, 40)
    XCTAssertEqual(m.contentSize.height, 280, "lane 0: 200 + 40 + 40")
  }

  /// SPEC L4: an insert places its rows by the rule from the lanes' ends
  /// just before the insertion point; the rows after keep their lanes; a
  /// re-flow places every row again.
  func testL4_insertPlacesNewRowsByTheRuleAndReflowPlacesAll() throws {
    var m = try make(rows: 6, layout: try masonry(.fixed(2)))
    m.setMeasuredExtent(300, for: 0)  // lane 0 is long now
    XCTAssertEqual((0 ..< 6).map { m.lane(at: $0) }, [0, 1, 0, 1, 0, 1])
    // Before index 2: lane 0 ends at 300, lane 1 at 40: both new rows go to lane 1.
    try m.insert([100, 101], at: 2)
    XCTAssertEqual(m.lane(at: 2), 1)
    XCTAssertEqual(m.lane(at: 3), 1)
    XCTAssertEqual((4 ..< 8).map { m.lane(at: $0) }, [0, 1, 0, 1], "the rows after keep their lanes")
    m.setMeasuredExtent(500, for: 100)
    XCTAssertEqual((0 ..< 8).map { m.lane(at: $0) }, [0, 1, 1, 1, 0, 1, 0, 1], "the new rows keep the lanes they got")
    // Re-flow (another lane spacing is another layout): every row by the rule, in index order.
    m.sectionLayout = try masonry(.fixed(2), laneSpacing: 4)
    // 0 -> lane 0 (ends 300), 1 -> lane 1 (40), 100 -> lane 1 (540), then 101, 2, 3, 4, 5 -> lane 0 (340 … 500).
    XCTAssertEqual((0 ..< 8).map { m.lane(at: $0) }, [0, 1, 1, 0, 0, 0, 0, 0])
  }

  /// SPEC L4 through `apply(_:)`: a difference that removes rows, moves
  /// some (removed and inserted again) and inserts new ones, followed by
  /// the lane sections in place (L8): a moved row keeps its lane, a new
  /// one takes the rule's. Three layouts: one masonry of every row, a
  /// masonry section after a header in a list, and a masonry whose first
  /// row is a header, where an insert before it starts a section (a
  /// section of its own, in place; the moved rows still keep their
  /// lanes). Against the reference after each step.
  func testL4_applyKeepsMovedRowsLanesAndPlacesNewOnesByTheRule() throws {
    let masonry4 = SectionLayout.masonry(try MasonryLayout(lanes: .fixed(4)))
    for setup in 0 ..< 3 {
      var pair = try ModelPair(ids: Array(0 ..< 40), estimate: 30, blockCapacity: 4)
      var ops: [LayoutOperation] = [.laneViewport(CGSize(width: 400, height: 300))]
      switch setup {
      case 0: ops.append(.sectionLayout(masonry4))
      case 1: ops += [.sectionLayout(.list), .setRole(0, .sectionHeader), .headerLayout(0, masonry4)]
      default: ops += [.sectionLayout(masonry4), .setRole(0, .sectionHeader)]
      }
      for id in 1 ..< 40 { ops.append(.measure(id, CGFloat(20 + (id * 37) % 90))) }
      for op in ops { XCTAssertNil(pair.step(op) ?? pair.difference(probes: []), "setup \(setup) \(op)") }
      let lane = pair.core.lane(at: 20)
      var list = pair.reference.ids
      list.remove(at: 30)  // removed
      list.remove(at: 20)
      list.insert(20, at: 5)  // moved up
      list.insert(100, at: 12)  // new
      if setup == 2 { list.insert(101, at: 0) }  // before the first header: starts a section
      XCTAssertNil(pair.step(.difference(list)) ?? pair.difference(probes: [0, 400]), "setup \(setup)")
      XCTAssertEqual(pair.core.lane(at: setup == 2 ? 6 : 5), lane, "setup \(setup): the moved row keeps its lane")
      XCTAssertEqual(pair.core.count, 40 + (setup == 2 ? 1 : 0))
    }
  }

  /// SPEC L4 and X2 through `apply(_:)`: a measured row removed under
  /// `.meanOfMeasured` moves the estimate, and the new row takes its lane by
  /// the rule from the lane ends under the estimate after the edit, as the
  /// reference places it (the lanes are laid out again, keeping the others
  /// by id). 150 random 3-lane masonries, each with a third of its rows
  /// measured; against the reference.
  func testL4_applyUnderMeanOfMeasuredPlacesNewRowsUnderTheNewEstimate() throws {
    var rng = SeededRNG(seed: 5)
    for trial in 0 ..< 150 {
      let n = 16
      var pair = try ModelPair(ids: Array(0 ..< n), estimate: 30, blockCapacity: 4)
      var ops: [LayoutOperation] = [.laneViewport(CGSize(width: 400, height: 3000)),
                                    .sectionLayout(.masonry(try MasonryLayout(lanes: .fixed(3)))),
                                    .policy(.meanOfMeasured)]
      for id in 0 ..< n where Int.random(in: 0 ..< 3, using: &rng) == 0 {
        ops.append(.measure(id, CGFloat(Int.random(in: 5 ... 300, using: &rng))))
      }
      for op in ops { XCTAssertNil(pair.step(op) ?? pair.difference(probes: []), "trial \(trial) \(op)") }
      guard let removed = (0 ..< n).filter({ pair.core.measuredExtent(for: $0) != nil }).randomElement(using: &rng) else {
        continue
      }
      var list = pair.reference.ids
      list.removeAll { $0 == removed }
      list.insert(100, at: Int.random(in: 0 ... list.count, using: &rng))
      XCTAssertNil(pair.step(.difference(list)) ?? pair.difference(probes: [0, 300]), "trial \(trial)")
    }
  }

  // MARK: L8

  /// Runs `steps` on `pair`, each made from the rows as they are then (the
  /// reference's ids), comparing the models at `probes` after each.
  func run(_ steps: [(String, ([Int]) -> LayoutOperation)], on pair: inout ModelPair, probes: [CGFloat],
           _ label: String, file: StaticString = #filePath, line: UInt = #line) {
    for (what, make) in steps {
      let op = make(pair.reference.ids)
      XCTAssertNil(pair.step(op) ?? pair.difference(probes: probes), "\(label): \(what): \(op)", file: file, line: line)
    }
  }

  /// SPEC L1, L4, L8: plain rows that empty a section without a header, or
  /// start one (before the first header, or after a footer), are followed
  /// in place like any insert, removal or move: an emptied section goes
  /// (unless a footer still ends it), new rows make a section of their own
  /// in the default layout, and moved masonry rows keep their lanes. Grid
  /// and masonry defaults, header sections in a list and in masonry;
  /// against the reference (and the internal checks, which compare the
  /// sections with ones laid out afresh) after each step.
  func testL8_rowsThatEmptyOrStartASectionWithoutAHeaderAreFollowedInPlace() throws {
    let masonry3 = SectionLayout.masonry(try MasonryLayout(lanes: .fixed(3)))
    let grid3 = SectionLayout.grid(try GridLayout(lanes: .fixed(3), alignment: 0.5))
    for (setup, layout) in [masonry3, grid3].enumerated() {
      var pair = try ModelPair(ids: Array(0 ..< 40), estimate: 30, blockCapacity: 4)
      // Rows 0-5: a section without a header; 6: a header (a list), its
      // footer 15; 16-19: a section without a header; 20: a header (masonry).
      var ops: [LayoutOperation] = [
        .laneViewport(CGSize(width: 300, height: 400)), .sectionLayout(layout),
        .setRole(6, .sectionHeader), .headerLayout(6, .list), .setRole(15, .sectionFooter),
        .setRole(20, .sectionHeader), .headerLayout(20, masonry3), .setRole(39, .sectionFooter),
      ]
      for id in 0 ..< 40 where id % 3 != 0 { ops.append(.measure(id, CGFloat(20 + (id * 37) % 90))) }
      for op in ops { XCTAssertNil(pair.step(op) ?? pair.difference(probes: []), "setup \(setup) \(op)") }
      // Each step is made from the rows as they are then.
      let steps: [(String, ([Int]) -> LayoutOperation)] = [
        ("a row of the first section moved past the last footer: it starts a section and keeps its lane",
         { ids in .move(IndexSet(integer: ids.firstIndex(of: 2)!), to: ids.count) }),
        ("the first section's rows moved into the list section: it empties", { _ in .move(IndexSet(0 ..< 5), to: 10) }),
        ("a difference that moves the last row above the first header: its section empties, it starts one, keeping its lane",
         { ids in .difference([2] + ids.dropLast()) }),
        ("and back", { ids in .move(IndexSet(integer: 0), to: ids.count) }),
        ("a row inserted before the first header: it starts a section", { _ in .insert([105], at: 0) }),
        ("and removed: the section empties again", { _ in .removeOffsets(IndexSet(integer: 0)) }),
        ("two rows moved back before the first header: they start it", { _ in .move(IndexSet(4 ..< 6), to: 0) }),
        ("the rows after the footer removed: that section empties", { ids in
          .removeOffsets(IndexSet(ids.firstIndex(of: 16)! ... ids.firstIndex(of: 19)!)) }),
        ("new rows after the footer: they start a section", { ids in .insert([100, 101, 102], at: ids.firstIndex(of: 15)! + 1) }),
        ("the first of them a footer: it ends a section of no rows", { _ in .setRole(100, .sectionFooter) }),
        ("the two after it removed: their section empties", { ids in
          .removeOffsets(IndexSet(ids.firstIndex(of: 101)! ... ids.firstIndex(of: 102)!)) }),
        ("a row inserted before that footer", { ids in .insert([106], at: ids.firstIndex(of: 100)!) }),
        ("and removed: the section stays, its footer ends it", { ids in .removeOffsets(IndexSet(integer: ids.firstIndex(of: 106)!)) }),
        ("a row of the masonry header's section moved to the very end", { ids in
          .move(IndexSet(integer: ids.firstIndex(of: 21)!), to: ids.count) }),
        ("a difference that empties the first section and starts one after the second footer", { ids in
          var list = ids
          list.removeFirst(list.firstIndex(of: 6)!)
          list.insert(104, at: list.firstIndex(of: 100)! + 1)
          return .difference(list)
        }),
      ]
      run(steps, on: &pair, probes: [0, 200, 600], "setup \(setup)")
    }
    // Footers with no rows before them: a footer at row 0 and one right
    // after another end sections of no rows, which rows join and leave.
    var pair = try ModelPair(ids: Array(0 ..< 12), estimate: 30, blockCapacity: 4)
    let setup: [LayoutOperation] = [
      .laneViewport(CGSize(width: 300, height: 400)), .sectionLayout(masonry3),
      .setRole(0, .sectionFooter), .setRole(4, .sectionFooter), .setRole(5, .sectionFooter), .setRole(8, .sectionHeader),
    ]
    for op in setup { XCTAssertNil(pair.step(op) ?? pair.difference(probes: []), "footers: \(op)") }
    let steps: [(String, ([Int]) -> LayoutOperation)] = [
      ("a row before the footer at row 0", { _ in .insert([50], at: 0) }),
      ("a row between two footers", { ids in .insert([51], at: ids.firstIndex(of: 5)!) }),
      ("the rows after the second footer removed: their section goes", { ids in
        .removeOffsets(IndexSet(ids.firstIndex(of: 6)! ... ids.firstIndex(of: 7)!)) }),
      ("a row after it: it starts a section", { ids in .insert([53], at: ids.firstIndex(of: 5)! + 1) }),
      ("the row between the footers removed: its footer's section stays", { ids in
        .removeOffsets(IndexSet(integer: ids.firstIndex(of: 51)!)) }),
      ("the row before the first footer removed: its section stays", { _ in .removeOffsets(IndexSet(integer: 0)) }),
      ("a row moved from the last section before the first footer", { ids in
        .move(IndexSet(integer: ids.firstIndex(of: 10)!), to: 0) }),
    ]
    run(steps, on: &pair, probes: [0, 200], "footers")
  }

  /// SPEC H2, L1, L4, L8: a header or a footer removed or moved joins or
  /// splits the sections around where it was and where it goes; the
  /// sections are laid out again only there, masonry rows keeping their
  /// lanes where their section keeps its flow, moved ones the lanes they
  /// held (L4). Grid and masonry defaults, sections of each layout;
  /// against the reference (and the internal checks, which compare the
  /// sections with ones laid out afresh) after each step.
  func testL8_headersAndFootersRemovedOrMovedLayOutOnlyTheSectionsAroundThem() throws {
    let masonry3 = SectionLayout.masonry(try MasonryLayout(lanes: .fixed(3)))
    let masonry2 = SectionLayout.masonry(try MasonryLayout(lanes: .fixed(2)))
    let grid3 = SectionLayout.grid(try GridLayout(lanes: .fixed(3), alignment: 0.5))
    for (setup, layout) in [masonry3, grid3].enumerated() {
      var pair = try ModelPair(ids: Array(0 ..< 60), estimate: 30, blockCapacity: 4)
      // Rows 0-5: no header (the default); 6: a header (masonry, 3 lanes),
      // its footer 15; 16-19: no header; 20: a header (grid), 30: a header
      // (a list), its footer 39; 40: a header (masonry, 2 lanes), 50: one
      // (the default).
      var ops: [LayoutOperation] = [
        .laneViewport(CGSize(width: 300, height: 400)), .sectionLayout(layout),
        .setRole(6, .sectionHeader), .headerLayout(6, masonry3), .setRole(15, .sectionFooter),
        .setRole(20, .sectionHeader), .headerLayout(20, grid3), .setRole(30, .sectionHeader), .headerLayout(30, .list),
        .setRole(39, .sectionFooter), .setRole(40, .sectionHeader), .headerLayout(40, masonry2), .setRole(50, .sectionHeader),
      ]
      for id in 0 ..< 60 where id % 3 != 0 { ops.append(.measure(id, CGFloat(20 + (id * 37) % 90))) }
      for op in ops { XCTAssertNil(pair.step(op) ?? pair.difference(probes: []), "setup \(setup) \(op)") }
      func at(_ id: Int, _ ids: [Int]) -> Int { ids.firstIndex(of: id)! }
      // Each step is made from the rows as they are then.
      let steps: [(String, ([Int]) -> LayoutOperation)] = [
        ("the masonry header removed: its rows join the section before", { ids in .removeOffsets([at(6, ids)]) }),
        ("its footer removed: the rows after it join too", { ids in .removeOffsets([at(15, ids)]) }),
        ("the grid header moved into its body: its first rows join the section before", { ids in
          .move([at(20, ids)], to: at(25, ids)) }),
        ("the 2-lane masonry header with four rows moved into the list section: they keep their lanes", { ids in
          .move(IndexSet(at(40, ids) ... at(44, ids)), to: at(32, ids)) }),
        ("the list header with three rows moved to the top", { ids in .move(IndexSet(at(30, ids) ... at(33, ids)), to: 0) }),
        ("a header and plain rows far apart removed at once", { ids in
          .removeOffsets([at(1, ids), at(40, ids), at(47, ids), at(58, ids)]) }),
        ("the header at row 0 removed", { _ in .removeOffsets([0]) }),
        ("a footer moved into the last section", { ids in .move([at(39, ids)], to: at(52, ids)) }),
        ("and the header of that section moved to the very end", { ids in .move([at(50, ids)], to: ids.count) }),
        ("rows up to that footer removed, the footer with them", { ids in
          .removeOffsets(IndexSet(at(51, ids) ... at(39, ids))) }),
        ("the grid header, its rows and a row of the first section moved after the last row", { ids in
          var rows = IndexSet(at(20, ids) ..< at(20, ids) + 3)
          rows.insert(at(2, ids))
          return .move(rows, to: ids.count)
        }),
        ("a difference that removes the grid header for good, and a row, and inserts two", { ids in
          var list = ids.filter { $0 != 20 && $0 != 5 }
          list.insert(200, at: 2)
          list.insert(201, at: list.count - 3)
          return .difference(list)
        }),
        ("a difference that moves the list header (it comes back: laid out afresh)", { ids in
          var list = ids.filter { $0 != 30 }
          list.insert(30, at: list.count / 2)
          return .difference(list)
        }),
        ("every row removed", { ids in .removeOffsets(IndexSet(0 ..< ids.count)) }),
      ]
      run(steps, on: &pair, probes: [0, 200, 600], "setup \(setup)")
    }
    // A footer at row 0 ends a section of no rows; removed, the rows after
    // it start at row 0 as that section did (soak seed 13).
    var pair = try ModelPair(ids: Array(0 ..< 12), estimate: 30, blockCapacity: 4)
    let setup: [LayoutOperation] = [
      .laneViewport(CGSize(width: 300, height: 400)), .sectionLayout(masonry3),
      .setRole(0, .sectionFooter), .setRole(3, .sectionFooter), .setRole(6, .sectionHeader), .headerLayout(6, grid3),
    ]
    for op in setup { XCTAssertNil(pair.step(op) ?? pair.difference(probes: []), "footer at 0: \(op)") }
    // And the last row, a footer right after another: its section of no
    // rows starts at the end (soak seed 33641).
    for op: LayoutOperation in [.removeOffsets([0]), .removeOffsets([2, 3, 5]), .setRole(10, .sectionFooter),
                                .setRole(11, .sectionFooter), .removeOffsets([7]),
                                // Every row but that footer, then it: no rows, no sections (seed 150005).
                                .removeOffsets(IndexSet(0 ..< 6)), .removeOffsets([0])] {
      XCTAssertNil(pair.step(op) ?? pair.difference(probes: [0, 200]), "footer at 0: \(op)")
    }
    // Differences: a header that comes back elsewhere splits the section
    // it lands in; rows that come back keep their lanes (L4) and new rows
    // are placed by the rule where sections joined.
    pair = try ModelPair(ids: Array(0 ..< 30), estimate: 30, blockCapacity: 4)
    let sections: [LayoutOperation] = [
      .laneViewport(CGSize(width: 300, height: 400)), .sectionLayout(masonry3),
      .setRole(10, .sectionHeader), .headerLayout(10, masonry2), .setRole(20, .sectionHeader), .headerLayout(20, grid3),
    ]
    for op in sections { XCTAssertNil(pair.step(op) ?? pair.difference(probes: []), "differences: \(op)") }
    for id in 0 ..< 30 where id % 4 != 0 { XCTAssertNil(pair.step(.measure(id, CGFloat(20 + (id * 53) % 110)))) }
    let differences: [(String, ([Int]) -> LayoutOperation)] = [
      ("the 2-lane header removed for good, rows of the first section moved after it, new rows there", { ids in
        let moved = [1, 2, 3, 6, 7, 9]
        var list = ids.filter { $0 != 10 && !moved.contains($0) }
        let at = list.firstIndex(of: 12)!
        list.insert(contentsOf: moved + [100, 101], at: at)
        list.insert(102, at: 1)
        return .difference(list)
      }),
      ("the grid header moved into the first section", { ids in
        var list = ids.filter { $0 != 20 }
        list.insert(20, at: 5)
        return .difference(list)
      }),
    ]
    run(differences, on: &pair, probes: [0, 200], "differences")
  }

  // MARK: L5

  /// SPEC L5: `visibleRows` lists exactly the rows that meet the viewport;
  /// `visibleIndices` is the smallest range holding them; `index(atOffset:)`
  /// is the lowest index whose span holds the offset, lane by lane;
  /// `index(at:)` hits a frame or nothing.
  func testL5_visibleRowsOffsetsAndHitTesting() throws {
    var m = try make(rows: 8, layout: try masonry(.fixed(2)))
    m.viewportSize = CGSize(width: 400, height: 100)
    m.setMeasuredExtent(300, for: 0)  // after the lanes were given: they stay round robin
    XCTAssertEqual((0 ..< 8).map { m.lane(at: $0) }, [0, 1, 0, 1, 0, 1, 0, 1], "lanes were given before the measurement")
    m.userScroll(to: CGPoint(x: 0, y: 50))
    // Lane 0: 0 [0,300), 2 [300,340)…; lane 1: 1 [0,40), 3 [40,80), 5 [80,120), 7 [120,160).
    XCTAssertEqual(m.visibleRows, [0, 3, 5, 7])
    XCTAssertEqual(m.visibleIndices, 0 ..< 8)
    XCTAssertEqual(m.index(atOffset: 50), 0, "row 0 and row 3 both hold 50: the lower index")
    XCTAssertEqual(m.index(atOffset: 310), 2)
    XCTAssertEqual(m.index(at: CGPoint(x: 250, y: 60)), 3)
    XCTAssertEqual(m.index(at: CGPoint(x: 50, y: 60)), 0)
    XCTAssertNil(m.index(at: CGPoint(x: 250, y: 500)), "past lane 1's end")
    XCTAssertNil(m.index(at: CGPoint(x: 450, y: 10)), "past the cross extent")
  }

  /// The rows whose own frames meet the viewport (SPEC G5 on each frame),
  /// by looking at every row.
  func rowsMeetingViewport(_ m: Model) -> [Int] {
    let low = m.contentOffset.y
    let high = low + m.viewportSize.height
    return (0 ..< m.count).filter { i in
      let f = m.frame(at: i)
      return f.height > 0 ? (f.minY < high && f.maxY > low) : (f.minY >= low && f.minY < high)
    }
  }

  /// SPEC L5 after a scroll frame: a frame's tracking keeps the rows it
  /// found for the `visibleRows` that follows; a later change that does
  /// not track again (a measurement after a programmatic position, an
  /// edit, a list row's measurement, a re-flow) must not be answered
  /// from them.
  func testL5_visibleRowsFollowChangesAfterAScrollFrame() throws {
    // A masonry section under a header, after a list of 10 rows.
    var m = try make(rows: 120)
    XCTAssertTrue(m.setRole(.sectionHeader, for: 10))
    XCTAssertTrue(m.setSectionLayout(try masonry(.fixed(2)), forHeader: 10))
    for step in 0 ..< 6 {
      m.userScroll(to: CGPoint(x: 0, y: 700))
      XCTAssertEqual(m.visibleRows, rowsMeetingViewport(m), "after the scroll frame, step \(step)")
      m.position = ScrollPosition(id: m.id(at: m.visibleRows[0]))  // programmatic: changes do not track again
      switch step {
      case 0:
        // A row on screen grows: the rows after it in its lane move down.
        let first = m.visibleRows[0]
        m.setMeasuredExtent(190, for: m.id(at: first))
      case 1:
        // A row above the viewport, in a lane: that lane moves.
        m.setMeasuredExtent(5, for: m.id(at: 12))
      case 2:
        try m.insert([1_000 + step], at: m.visibleRows[1])
      case 3:
        m.remove(atOffsets: IndexSet(integer: m.visibleRows[0]))
      case 4:
        // A list row before the section.
        m.setMeasuredExtent(120, for: m.id(at: 3))
      default:
        XCTAssertTrue(m.setSectionLayout(try masonry(.fixed(3)), forHeader: 10))
      }
      XCTAssertEqual(m.visibleRows, rowsMeetingViewport(m), "after change \(step)")
    }
  }

  /// SPEC L5 at a body's start: a header measured 0 starts where its
  /// masonry body does and meets a window from there (G5). A scroll frame
  /// back to that start, and a measurement on screen after it, must find
  /// it, not only the body's rows next to the last frame's (soak seed
  /// 33641 found the first).
  func testL5_anEmptyHeaderAtItsBodysStartMeetsTheWindowFromThere() throws {
    var m = try make(rows: 60)
    XCTAssertTrue(m.setRole(.sectionHeader, for: 0))
    XCTAssertTrue(m.setSectionLayout(try masonry(.fixed(2)), forHeader: 0))
    m.setMeasuredExtent(0, for: m.id(at: 0))
    // Less than half the viewport (200 pt) in all: a scroll frame each.
    m.userScroll(to: CGPoint(x: 0, y: 20))
    XCTAssertEqual(m.visibleRows, rowsMeetingViewport(m))
    XCTAssertFalse(m.visibleRows.contains(0))
    m.userScroll(to: CGPoint(x: 0, y: 0))
    XCTAssertEqual(m.visibleRows, rowsMeetingViewport(m), "after the scroll frame back to the body's start")
    XCTAssertEqual(m.visibleRows.first, 0)
    // A row on screen in a lane grows, under an automatic anchor: the
    // rows kept on screen are patched, the header among them.
    m.setMeasuredExtent(130, for: m.id(at: m.visibleRows[2]))
    XCTAssertEqual(m.visibleRows, rowsMeetingViewport(m), "after the measurement")
    XCTAssertEqual(m.visibleRows.first, 0)
  }

  // MARK: L6

  /// SPEC L6: a grid measured above the viewport moves nothing on screen;
  /// a change of a line's extent by another row of the kept row's line
  /// moves the kept row by its alignment share, and the offset follows.
  func testL6_gridChangesAboveMoveNothingOnScreen() throws {
    var m = try make(rows: 300, layout: try grid(3, alignment: 0.5))
    m.userScroll(to: CGPoint(x: 0, y: 2000))
    m.measureVisibleRows { i, _ in CGFloat(30 + (i * 7) % 20) }
    let kept = try XCTUnwrap(m._anchorRowID)
    let screen = (0 ..< 300).map { onScreen(m, $0) }
    for i in stride(from: 0, to: 30, by: 4) { m.setMeasuredExtent(90, for: i) }
    for i in m.visibleRows { XCTAssertEqual(onScreen(m, i), screen[i], "row \(i)") }
    // A neighbour in the kept row's line grows: the kept row stays on screen.
    let line = kept / 3 * 3
    let other = kept == line ? line + 1 : line
    m.setMeasuredExtent(120, for: other)
    XCTAssertEqual(onScreen(m, kept), screen[kept], "the offset follows the kept row's alignment share")
  }

  /// SPEC L6, L8: after a scroll frame, measurements above the screen in a
  /// grid (with a list section before it and one after) keep the rows on
  /// screen where they are; the rows the frame found stay current and move
  /// with the correction (`_LaneLayout._gridShift`), which the checks
  /// compare with a fresh search after every step. A measurement in the
  /// line just above the first row on screen, or on screen, is searched.
  func testL6_gridMeasurementsAboveTheScreenKeepTheRowsOnScreen() throws {
    for alignment: CGFloat in [0, 0.5, 1] {
      var m = try make(rows: 400, spacing: 4)
      for h in [20, 380] { m.setRole(.sectionHeader, for: h) }
      XCTAssertTrue(m.setSectionLayout(try grid(3, alignment: alignment), forHeader: 20))
      m.userScroll(to: CGPoint(x: 0, y: 3000))
      let rows = m.visibleRows
      let first = try XCTUnwrap(rows.first)
      XCTAssertGreaterThan(first, 40, "the screen is well inside the grid")
      let screen = Dictionary(uniqueKeysWithValues: rows.map { ($0, onScreen(m, $0)) })
      var rng = SeededRNG(seed: 7)
      for step in 0 ..< 200 {
        // Rows of lines at least two above the first row on screen, and list rows before the grid.
        let row = Int.random(in: 0 ..< (21 + (first - 21) / 3 * 3 - 6), using: &rng)
        m.setMeasuredExtent(CGFloat(Int.random(in: 0 ... 120, using: &rng)), for: row)
        XCTAssertEqual(m.visibleRows, rows, "alignment \(alignment), step \(step)")
        for i in rows { XCTAssertEqual(onScreen(m, i), screen[i], "row \(i), alignment \(alignment), step \(step)") }
      }
      // On screen and just above it: the rows are found again.
      for row in [first - 3, first, rows[rows.count / 2]] { m.setMeasuredExtent(77, for: row) }
      let (low, high) = (m.contentOffset.y, m.contentOffset.y + 200)
      let meeting = (0 ..< m.count).filter {
        let f = m.frame(at: $0)
        return f.height > 0 ? f.minY < high && f.maxY > low : f.minY >= low && f.minY < high
      }
      XCTAssertEqual(m.visibleRows, meeting, "alignment \(alignment)")
    }
  }

  /// SPEC L6: in masonry a row's change moves only the rows after it in
  /// its lane; the offset follows the kept row, and the rows on screen in
  /// another lane move by the change above them in their lane.
  func testL6_masonryChangeMovesOnlyItsLane() throws {
    var m = try make(rows: 200, layout: try masonry(.fixed(2)))
    m.userScroll(to: CGPoint(x: 0, y: 1000))
    m.measureVisibleRows { _, _ in 40 }
    let kept = try XCTUnwrap(m._anchorRowID)
    let keptLane = m.lane(at: kept)
    let screen = (0 ..< 200).map { onScreen(m, $0) }
    // Grow a row far above in each lane by 25.
    let above = (0 ..< 10).first { m.lane(at: $0) != keptLane }!
    m.setMeasuredExtent(65, for: above)
    for i in m.visibleRows {
      XCTAssertEqual(onScreen(m, i), screen[i] + (m.lane(at: i) == keptLane ? 0 : 25), "row \(i), lane \(m.lane(at: i))")
    }
    let sameLane = (0 ..< 10).first { m.lane(at: $0) == keptLane }!
    m.setMeasuredExtent(65, for: sameLane)
    XCTAssertEqual(onScreen(m, kept), screen[kept], "the kept row's lane: the offset follows")
  }

  // MARK: L7

  /// SPEC L7: view-aligned targets are a grid's line starts and every
  /// masonry lane's row starts; paging is unchanged.
  func testL7_viewAlignedTargetsAreLineStartsAndLaneRowStarts() throws {
    var g = try make(rows: 30, layout: try grid(3, alignment: 1))
    g.setMeasuredExtent(70, for: 4)  // line 1: 40, 70, 40 -> 70; rows 3, 5 start at 70
    let target = g.targetContentOffset(forReleaseAt: CGPoint(x: 0, y: 60), velocity: .zero, behavior: .viewAligned(limitBehavior: .always))
    XCTAssertEqual(target.y, 40, "line 1 starts at 40 (rows 3 and 5 start at 70, aligned to its end: not targets)")
    var m = try make(rows: 30, layout: try masonry(.fixed(2)))
    m.setMeasuredExtent(60, for: 0)  // lane 0: 0, 60, 100…; lane 1: 0, 40, 80…
    let t2 = m.targetContentOffset(forReleaseAt: CGPoint(x: 0, y: 52), velocity: .zero, behavior: .viewAligned(limitBehavior: .always))
    XCTAssertEqual(t2.y, 60, "lane 0's second row")
    let t3 = m.targetContentOffset(forReleaseAt: CGPoint(x: 0, y: 43), velocity: .zero, behavior: .viewAligned(limitBehavior: .always))
    XCTAssertEqual(t3.y, 40, "lane 1's second row")
    let page = m.targetContentOffset(forReleaseAt: CGPoint(x: 0, y: 130), velocity: .zero, behavior: .paging)
    XCTAssertEqual(page.y, 200, "paging: viewport heights")
  }
}

/// SPEC §13's promises checked on the reference model under random
/// operations (the oracle must keep them before the layout is compared
/// with it): lists, grids and masonry in sections, adaptive lanes, every
/// edit, role and layout changes, width changes and scrolls. After every
/// step: frames of non-empty rows in lanes do not overlap; a grid row's
/// lane is its place in its section mod k; a measurement moves no masonry
/// row to another lane (L4); `visibleRows` is exactly the rows that meet
/// the viewport, inside `visibleIndices` (L5); `index(at:)` finds each
/// visible row from a point inside it, and `index(atOffset:)` a row whose
/// span holds the offset where one does (L5); the kept row meets the
/// viewport (L6 with S13) unless the offset was clamped.
final class LaneReferenceCheckTests: CheckedTestCase {
  typealias Model = LazyStackReference<Int>

  func randomLayout(_ rng: inout SeededRNG) -> SectionLayout {
    let lanes: LaneCount = Bool.random(using: &rng) ? .fixed(Int.random(in: 1 ... 4, using: &rng))
                                                      : .adaptive(minimum: CGFloat(Int.random(in: 60 ... 200, using: &rng)))
    let spacing = CGFloat(Int.random(in: 0 ... 2, using: &rng) * 4)
    switch Int.random(in: 0 ... 2, using: &rng) {
    case 0: return .list
    case 1: return .grid(try! GridLayout(lanes: lanes, laneSpacing: spacing,
                                         alignment: [0, 0.5, 1][Int.random(in: 0 ... 2, using: &rng)]))
    default: return .masonry(try! MasonryLayout(lanes: lanes, laneSpacing: spacing))
    }
  }

  func testL4_L5_L6_referenceKeepsLanePromisesUnderRandomOperations() throws {
    for seed in TestScale.seeds(1 ..< 41) {
      var rng = SeededRNG(seed: seed)
      var next = 10_000
      var m = try Model(ids: 0 ..< Int.random(in: 0 ... 120, using: &rng), estimatedExtent: 40,
                        spacing: CGFloat(Int.random(in: 0 ... 1, using: &rng) * 6))
      m.viewportSize = CGSize(width: CGFloat(Int.random(in: 200 ... 600, using: &rng)), height: 300)
      m.sectionLayout = randomLayout(&rng)
      for step in 0 ..< 120 {
        var op = "scroll"
        let lanesBefore = Dictionary(uniqueKeysWithValues: zip(m.ids, m.lanes()))
        var measuring = false
        switch Int.random(in: 0 ..< 12, using: &rng) {
        case 0 ... 2 where m.count > 0:
          measuring = true
          op = "measure"
          m.setMeasuredExtent(CGFloat(Int.random(in: 0 ... 150, using: &rng)), for: m.id(at: Int.random(in: 0 ..< m.count, using: &rng)))
        case 3:
          let new = (0 ..< Int.random(in: 1 ... 4, using: &rng)).map { _ in next += 1; return next }
          op = "insert \(new.count)"
          try m.insert(new, at: Int.random(in: 0 ... m.count, using: &rng))
        case 4 where m.count > 0:
          op = "remove"
          m.remove(atOffsets: IndexSet(integer: Int.random(in: 0 ..< m.count, using: &rng)))
        case 5 where m.count > 1:
          op = "move"
          m.move(fromOffsets: IndexSet(integer: Int.random(in: 0 ..< m.count, using: &rng)),
                 toOffset: Int.random(in: 0 ... m.count, using: &rng))
        case 6 where m.count > 0:
          let role: RowRole = [.row, .sectionHeader, .sectionFooter][Int.random(in: 0 ... 2, using: &rng)]
          op = "role \(role)"
          m.setRole(role, for: m.id(at: Int.random(in: 0 ..< m.count, using: &rng)))
        case 7 where m.count > 0:
          let headers = (0 ..< m.count).filter { m.role(at: $0) == .sectionHeader }
          op = "header layout"
          if let h = headers.randomElement(using: &rng) {
            m.setSectionLayout(Bool.random(using: &rng) ? randomLayout(&rng) : nil, forHeader: m.id(at: h))
          }
        case 8:
          op = "layout"
          m.sectionLayout = randomLayout(&rng)
        case 9:
          op = "width"
          m.viewportSize = CGSize(width: CGFloat(Int.random(in: 100 ... 700, using: &rng)), height: 300)
        default:
          m.userScroll(to: CGPoint(x: 0, y: CGFloat(Int.random(in: 0 ... Int(max(1, m.maxOffset)), using: &rng))))
        }
        let context = "seed \(seed) step \(step) (\(op))"
        check(m, context)
        if measuring {
          let lanes = m.lanes()
          for i in 0 ..< m.count where lanes[i] != lanesBefore[m.id(at: i)] && m.sectionLayout(at: i).isMasonry {
            XCTFail("\(context): a measurement moved row \(i) sideways")
          }
        }
        if testRun?.failureCount ?? 0 > 0 { return }
      }
    }
  }

  func check(_ m: Model, _ context: String) {
    let frames = m.frames()
    let viewport = CGRect(origin: m.contentOffset, size: m.viewportSize)
    // Grid lanes: a row's place in its section's body, mod k.
    let lanes = m.lanes()
    var body = 0
    for i in 0 ..< m.count {
      let role = m.role(at: i)
      if role == .sectionHeader || i == 0 || m.role(at: i - 1) == .sectionFooter { body = 0 }
      if case .grid(let grid) = m.sectionLayout(at: i), role == .row {
        let k = LazyStackReference<Int>.laneCount(grid.lanes, crossExtent: m.viewportSize.width, spacing: grid.laneSpacing)
        XCTAssertEqual(lanes[i], body % k, "\(context): grid lane of \(i)")
      }
      if role == .row { body += 1 }
    }
    // No two non-empty frames overlap.
    let nonEmpty = (0 ..< m.count).filter { frames[$0].height > 0 && frames[$0].width > 0 }
    for (a, i) in nonEmpty.enumerated() {
      // (Lanes' cross starts are computed, not summed: adjacent lanes may differ by an ulp.)
      func overlap(_ p: CGRect, _ q: CGRect) -> Bool {
        let e = 1e-9 as CGFloat
        return p.minX + e < q.maxX && q.minX + e < p.maxX && p.minY < q.maxY && q.minY < p.maxY
      }
      for j in nonEmpty[(a + 1)...] where overlap(frames[i], frames[j]) {
        XCTFail("\(context): rows \(i) \(frames[i]) and \(j) \(frames[j]) overlap")
        return
      }
    }
    // visibleRows: exactly the rows meeting the viewport, inside visibleIndices.
    if m.viewportSize.height > 0 {
      let rows = m.visibleRows
      let range = m.visibleIndices
      XCTAssertTrue(rows.allSatisfy { range.contains($0) }, "\(context): visibleRows \(rows) outside \(range)")
      let meeting = (0 ..< m.count).filter { i in
        frames[i].height > 0 ? frames[i].minY < viewport.maxY && frames[i].maxY > viewport.minY
                             : frames[i].minY >= viewport.minY && frames[i].minY < viewport.maxY
      }
      XCTAssertEqual(rows, meeting, "\(context): visibleRows")
      for i in rows where frames[i].height > 0 && frames[i].width > 0 {
        XCTAssertEqual(m.index(at: CGPoint(x: frames[i].midX, y: frames[i].midY)), i, "\(context): index(at:) of row \(i)")
        if let found = m.index(atOffset: frames[i].midY) {
          XCTAssertTrue(found <= i && frames[found].minY <= frames[i].midY && frames[found].maxY > frames[i].midY,
                        "\(context): index(atOffset: \(frames[i].midY)) = \(found), row \(i) holds it")
        }
      }
    }
    // S13: the kept row meets the viewport, unless the offset was clamped.
    if !m.lastStabilizationWasClamped, let meets = m.anchorRowIntersectsViewport {
      let kept = m.anchorRowID.flatMap { m.index(of: $0) }
      XCTAssertTrue(meets, "\(context): the kept row \(kept.map { "\($0) at \(frames[$0])" } ?? "?") left the viewport \(viewport); visible \(m.visibleRows.map { "\($0): \(frames[$0])" })")
    }
  }
}

extension SectionLayout {
  var isMasonry: Bool { if case .masonry = self { true } else { false } }
}

