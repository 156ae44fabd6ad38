import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// One named test per rule of SPEC §15 (transitions for edits), with worked
/// numbers. Unless a test says otherwise: 1,000 rows estimated at 50 pt,
/// viewport 300 x 500, the user scrolled to 5,000 pt (row 100 at the top).
final class TransitionTests: CheckedTestCase {
  struct Failure: Error, Equatable {}

  func make(rows: Int = 1000, shuffled: Bool = false) throws -> LazyStackLayout<Int> {
    var layout: LazyStackLayout<Int>
    if shuffled {
      var rng = SeededRNG(seed: 7)
      layout = try LazyStackLayout(ids: Array(0 ..< rows).shuffled(using: &rng).sorted(by: { ($0 * 7919) % 1009 < ($1 * 7919) % 1009 }),
                                   estimatedExtent: 50)
    } else {
      layout = try LazyStackLayout(ids: Array(0 ..< rows), estimatedExtent: 50)
    }
    layout.viewportSize = CGSize(width: 300, height: 500)
    layout.userScroll(to: CGPoint(x: 0, y: 5000))
    return layout
  }

  func row(_ t: LayoutTransition<Int>, _ id: Int) -> (before: CGRect?, after: CGRect?)? {
    t.rows.first { $0.id == id }.map { ($0.before, $0.after) }
  }

  func cell(_ y: CGFloat, _ h: CGFloat = 50) -> CGRect { CGRect(x: 0, y: y, width: 300, height: h) }

  // MARK: U1

  /// SPEC U1: inserts above the screen, a measurement above it, a removal
  /// and an insert on screen, one stabilization: the kept row does not
  /// move, the correction is the sum (100 + 30 pt), every row on screen
  /// before or after is listed with both frames.
  func testU1_batchStabilizesOnceAndListsEveryRowOnScreenBeforeOrAfter() throws {
    var layout = try make()
    let transition = try layout.performBatch { layout in
      try layout.insert([2000, 2001], at: 0)             // +100 above
      layout.setMeasuredExtent(80, for: 50)              // +30 above
      try layout.remove(ids: [102])                      // on screen, 100 pt from the top
      try layout.insert([3000], at: layout.index(of: 105)!)
    }
    XCTAssertEqual(layout.contentOffset.y, 5130)
    XCTAssertEqual(transition.correction, ScrollCorrection(offsetDelta: 130, contentOffset: CGPoint(x: 0, y: 5130), cause: .edit))
    XCTAssertEqual(layout.lastCorrection, transition.correction, "one correction (S11)")
    // The rows on screen after, in index order, then the row only shown before.
    XCTAssertEqual(transition.rows.map(\.id), [100, 101, 103, 104, 3000, 105, 106, 107, 108, 109, 102])
    XCTAssertEqual(row(transition, 100)?.before, cell(0))
    XCTAssertEqual(row(transition, 100)?.after, cell(0), "the kept row does not move")
    XCTAssertEqual(row(transition, 102)?.before, cell(100))
    XCTAssertNil(row(transition, 102)?.after ?? nil, "removed")
    XCTAssertEqual(row(transition, 103)?.before, cell(150))
    XCTAssertEqual(row(transition, 103)?.after, cell(100))
    XCTAssertNil(row(transition, 3000)?.before ?? nil, "inserted")
    XCTAssertEqual(row(transition, 3000)?.after, cell(200))
    XCTAssertEqual(row(transition, 105)?.before, cell(250))
    XCTAssertEqual(row(transition, 105)?.after, cell(250))
    // Row 109 was below the screen (at 450 + 50 = 500 it just touched its end): its real old frame.
    XCTAssertEqual(row(transition, 109)?.before, cell(450))
    XCTAssertEqual(row(transition, 109)?.after, cell(450))
  }

  /// SPEC U1: a row moved from far below slides in from where it really
  /// was before the batch, 40,000 pt down, however far that is (a row
  /// between them measured inside the batch changes where it is, not
  /// where it was).
  func testU1_aRowFromFarAwayGetsItsRealOldFrame() throws {
    var layout = try make()
    let transition = layout.performBatch { layout in
      layout.setMeasuredExtent(120, for: 700)   // between the screen and row 900
      layout.move(fromOffsets: [900], toOffset: 101)
    }
    XCTAssertEqual(row(transition, 900)?.before, cell(900 * 50 - 5000))
    XCTAssertEqual(row(transition, 900)?.after, cell(50))
    XCTAssertEqual(row(transition, 101)?.before, cell(50))
    XCTAssertEqual(row(transition, 101)?.after, cell(100))
    XCTAssertEqual(transition.correction.offsetDelta, 0)
  }

  /// SPEC U1: a row measured inside the batch and then moved, a snapshot
  /// (an O(n) change: the batch keeps the tree from before it) and an
  /// estimate change: old frames are still exact. Against the reference
  /// model, which keeps both layouts whole.
  func testU1_matchesTheReferenceThroughSnapshotsAndEstimateChanges() throws {
    var layout = try make()
    var reference = try LazyStackReference(ids: Array(0 ..< 1000), estimatedExtent: 50)
    reference.viewportSize = CGSize(width: 300, height: 500)
    reference.userScroll(to: CGPoint(x: 0, y: 5000))
    func changes<L>(_ l: inout L, measure: (inout L, Int, CGFloat) -> Void, move: (inout L, Int, Int) -> Void,
                    update: (inout L, [Int]) throws -> Void, estimate: (inout L, CGFloat) throws -> Void) throws {
      measure(&l, 950, 300)
      move(&l, 950, 40)
      try estimate(&l, 44)
      try update(&l, Array((0 ..< 1000).reversed()) + [5000])
      measure(&l, 10, 12)
    }
    let a = try layout.performBatch { l in
      try changes(&l, measure: { $0.setMeasuredExtent($2, for: $1) }, move: { $0.move(fromOffsets: [$1], toOffset: $2) },
                  update: { try $0.update(ids: $1) }, estimate: { try $0.setEstimatedExtent($1) })
    }
    let b = try reference.performBatch { l in
      try changes(&l, measure: { $0.setMeasuredExtent($2, for: $1) }, move: { $0.move(fromOffsets: [$1], toOffset: $2) },
                  update: { try $0.update(ids: $1) }, estimate: { try $0.setEstimatedExtent($1) })
    }
    XCTAssertEqual(a, b)
    XCTAssertGreaterThan(a.rows.filter { $0.before != nil && $0.after != nil }.count, 5)
  }

  /// SPEC U1: a scroll inside the batch stabilizes the changes before it
  /// first (100 pt inserted above), then runs; the changes after it are
  /// stabilized when the batch ends (+30 pt). The correction covers it all.
  func testU1_aScrollInsideTheBatchStabilizesTheChangesBeforeIt() throws {
    var layout = try make()
    let transition = try layout.performBatch { layout in
      try layout.insert([2000, 2001], at: 0)
      XCTAssertEqual(layout.contentOffset.y, 5000, "not stabilized yet")
      layout.userScroll(to: CGPoint(x: 0, y: 7000))
      layout.setMeasuredExtent(80, for: 50)
    }
    XCTAssertEqual(layout.contentOffset.y, 7030)
    XCTAssertEqual(transition.correction.offsetDelta, 2030)
    XCTAssertEqual(layout.position.viewID(type: Int.self), 138)
    XCTAssertEqual(row(transition, 138)?.after, cell(0))
    XCTAssertEqual(row(transition, 138)?.before, cell(138 * 50 - 5000))
  }

  /// SPEC U1 and C1: a snapshot taken inside the batch holds the place the
  /// batch's changes so far settle to, not the offset the batch has not
  /// stabilized yet (100 pt inserted above: row 100 stays at the top, at
  /// 5,100 pt). Restored into a fresh layout, it lands where the batch
  /// ended; under a header made pinned inside the batch as well. Against
  /// the reference model.
  func testU1_aSnapshotInsideTheBatchHoldsThePlaceTheBatchSettlesTo() throws {
    for pinned in [false, true] {
      var layout = try make()
      var reference = try LazyStackReference(ids: Array(0 ..< 1000), estimatedExtent: 50)
      reference.viewportSize = layout.viewportSize
      reference.userScroll(to: CGPoint(x: 0, y: 5000))
      if pinned {
        layout.pinnedViews = .sectionHeaders
        reference.pinnedViews = .sectionHeaders
      }
      var saved: LayoutSnapshot<Int>?
      _ = try layout.performBatch { l in
        try l.insert([2000, 2001], at: 0)
        if pinned { _ = l.setRole(.sectionHeader, for: 60) }
        XCTAssertEqual(l.contentOffset.y, 5000, "not stabilized yet")
        saved = l.snapshot()
      }
      var referenceSaved: LayoutSnapshot<Int>?
      _ = try reference.performBatch { l in
        try l.insert([2000, 2001], at: 0)
        if pinned { _ = l.setRole(.sectionHeader, for: 60) }
        referenceSaved = l.snapshot()
      }
      XCTAssertEqual(saved, referenceSaved)
      XCTAssertEqual(saved, layout.snapshot(), "the same place as after the batch")
      XCTAssertEqual(layout.contentOffset.y, 5100)
      var fresh = try LazyStackLayout(ids: layout.ids, estimatedExtent: 50)
      fresh.viewportSize = layout.viewportSize
      if pinned {
        fresh.pinnedViews = .sectionHeaders
        _ = fresh.setRole(.sectionHeader, for: 60)
      }
      fresh.restore(try XCTUnwrap(saved))
      XCTAssertEqual(fresh.contentOffset, layout.contentOffset, "pinned: \(pinned)")
    }
  }

  /// SPEC U1: pinned rows are reported where they are drawn.
  func testU1_pinnedRowsAreReportedWhereTheyAreDrawn() throws {
    var layout = try make()
    XCTAssertTrue(layout.setRole(.sectionHeader, for: 90))
    layout.pinnedViews = .sectionHeaders
    let transition = try layout.performBatch { layout in
      try layout.insert([2000], at: 95)
    }
    XCTAssertEqual(row(transition, 90)?.before, cell(0), "pinned at the top")
    XCTAssertEqual(row(transition, 90)?.after, cell(0))
    XCTAssertEqual(layout.frame(of: 90)?.minY, 4500, "its own frame is above the screen")
  }

  /// SPEC U1: a batch inside a batch is part of it.
  func testU1_aNestedBatchIsPartOfTheOuterOne() throws {
    var layout = try make()
    let transition = try layout.performBatch { layout in
      let inner = try layout.performBatch { try $0.insert([2000], at: 0) }
      XCTAssertTrue(inner.rows.isEmpty)
      try layout.insert([2001], at: 0)
    }
    XCTAssertEqual(transition.correction.offsetDelta, 100)
    XCTAssertEqual(row(transition, 100)?.after, cell(0))
  }

  // MARK: U2

  /// SPEC U2: frames move linearly; inserted and removed rows keep their
  /// one frame; progress is clamped, NaN counts as 0.
  func testU2_framesInterpolateLinearly() throws {
    let t = LayoutTransition<Int>(rows: [(1, cell(0), CGRect(x: 10, y: 100, width: 200, height: 150)),
                                         (2, nil, cell(300)), (3, cell(400), nil)],
                                  correction: .none)
    func frames(_ p: Double) -> [CGRect] { t.frames(at: p).map(\.frame) }
    XCTAssertEqual(t.frames(at: 0.5).map(\.id), [1, 2, 3])
    XCTAssertEqual(frames(0), [cell(0), cell(300), cell(400)])
    XCTAssertEqual(frames(1), [CGRect(x: 10, y: 100, width: 200, height: 150), cell(300), cell(400)])
    XCTAssertEqual(frames(0.25), [CGRect(x: 2.5, y: 25, width: 275, height: 75), cell(300), cell(400)])
    XCTAssertEqual(frames(-3), frames(0))
    XCTAssertEqual(frames(7), frames(1))
    XCTAssertEqual(frames(.nan), frames(0))
    // A real batch: at 0 every row that was there is where it was, at 1 where it is.
    var layout = try make()
    let real = try layout.performBatch { try $0.remove(ids: [101, 103]) }
    for (id, frame) in real.frames(at: 0) {
      XCTAssertEqual(frame, row(real, id)!.before ?? row(real, id)!.after)
    }
    for (id, frame) in real.frames(at: 1) {
      XCTAssertEqual(frame, row(real, id)!.after ?? row(real, id)!.before)
    }
  }

  // MARK: U3

  /// SPEC U3: an error thrown inside the batch (the closure's own, or an
  /// edit's) leaves the layout as it was: ids, extents, roles, offset,
  /// position, last correction.
  func testU3_aThrownErrorLeavesTheLayoutAsItWas() throws {
    for shuffled in [false, true] {
      var layout = try make(shuffled: shuffled)
      layout.setMeasuredExtent(70, for: layout.id(at: 101))
      XCTAssertTrue(layout.setRole(.sectionHeader, for: layout.id(at: 99)))
      let saved = layout
      for ownError in [true, false] {
        XCTAssertThrowsError(try layout.performBatch { layout in
          try layout.insert([2000, 2001], at: 100)
          layout.setMeasuredExtent(80, for: layout.id(at: 3))
          layout.invalidateMeasurement(for: layout.id(at: 103))   // row 101 before the insert
          layout.move(fromOffsets: [5, 6, 900], toOffset: 102)
          layout.remove(atOffsets: [0, 104, 500])
          XCTAssertTrue(layout.setRole(.sectionFooter, for: layout.id(at: 10)))
          try layout.setEstimatedExtent(31)
          layout.invalidateAllMeasurements()
          try layout.update(ids: layout.ids.reversed())
          layout.setMeasuredExtent(12, for: layout.id(at: 7))
          if ownError { throw Failure() }
          try layout.insert([layout.id(at: 0)], at: 0)  // duplicate: throws
        }) { error in
          if ownError { XCTAssertTrue(error is Failure, "\(error)") } else {
            guard case .duplicateID(_, index: 0)? = error as? LazyStackError else { return XCTFail("\(error)") }
            XCTAssertTrue(true, "a duplicate id")
          }
        }
        XCTAssertEqual(layout.ids, saved.ids)
        XCTAssertEqual(layout.contentOffset, saved.contentOffset)
        XCTAssertEqual(layout.contentSize, saved.contentSize)
        XCTAssertEqual(layout.position, saved.position)
        XCTAssertEqual(layout.lastCorrection, saved.lastCorrection)
        XCTAssertEqual(layout.currentEstimate, saved.currentEstimate)
        for i in 0 ..< layout.count where i % 7 == 0 || (95 ..< 110) ~= i {
          XCTAssertEqual(layout.frame(at: i), saved.frame(at: i))
          XCTAssertEqual(layout.role(at: i), saved.role(at: i))
          XCTAssertEqual(layout.isMeasured(at: i), saved.isMeasured(at: i))
        }
        // And it works on as before: a later change stabilizes alike.
        var a = layout
        var b = saved
        a.setMeasuredExtent(90, for: a.id(at: 50))
        b.setMeasuredExtent(90, for: b.id(at: 50))
        XCTAssertEqual(a.contentOffset, b.contentOffset)
      }
    }
  }

  /// SPEC U3: a batch copies neither the id index (O(n)) nor, therefore,
  /// the layout: the index's storage is the same object after the batch.
  func testU3_aBatchDoesNotCopyTheIDIndex() throws {
    var layout = try make(shuffled: true)
    XCTAssertTrue(layout._tree._ordered == false && layout._tree._implicit == nil, "a hash index")
    let storage = ObjectIdentifier(layout._tree._index._storage)
    _ = try layout.performBatch { layout in
      try layout.insert([5000], at: 100)
      try layout.remove(ids: [layout.id(at: 300)])
      layout.setMeasuredExtent(80, for: layout.id(at: 3))
    }
    XCTAssertEqual(ObjectIdentifier(layout._tree._index._storage), storage)
  }
}
