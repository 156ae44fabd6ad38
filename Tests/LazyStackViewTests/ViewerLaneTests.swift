import Foundation
import XCTest
@_spi(Testing) import LazyStackCore
@testable import LazyStackView

/// `lazystack-view --lanes`: records side by side in a masonry (SPEC §13),
/// seen from the screen a user reads.
final class ViewerLaneTests: AssertingTestCase {
  override func setUp() {
    super.setUp()
    LazyStackInternalChecks.isEnabled = true
  }

  func viewer(_ count: Int = 4_000, columns: Int, rows: Int = 20, lanes: LaneCount,
              sections: Int? = nil) throws -> Viewer<GeneratedRecords> {
    var v = try Viewer(source: GeneratedRecords(count: count), columns: columns, rows: rows, sections: sections, lanes: lanes)
    v.animationDuration = 0
    return v
  }

  /// Checks that every row the layout puts on screen is drawn there, in its
  /// lane's columns, wrapped to its lane's width, and that nothing else is.
  func assertScreenMatchesLayout(_ v: Viewer<GeneratedRecords>, _ screen: [String], _ context: String,
                                 line: UInt = #line) {
    var expected = Array(repeating: Array(repeating: Character(" "), count: v.columns), count: v.pageRows)
    let offset = Int(v.layout.contentOffset.y)
    var rows = v.layout.visibleRows.map { (v.layout.id(at: $0), v.layout.frame(at: $0)) }
    rows += v.layout.pinnedRows.map { (v.layout.id(at: $0.index), $0.frame) }
    for (id, frame) in rows {
      let x = Int(frame.minX.rounded(.down))
      let width = Int(frame.width.rounded(.down))
      XCTAssertEqual(width, v.record(ofRow: id) == nil ? v.columns : v.recordColumns, "\(context): row \(id)'s width", line: line)
      for (k, text) in v.wrapped(id: id).enumerated() where (0 ..< v.pageRows) ~= Int(frame.minY) - offset + k {
        let cells = Array(text.padding(toLength: width, withPad: " ", startingAt: 0))
        expected[Int(frame.minY) - offset + k].replaceSubrange(x ..< x + width, with: cells)
      }
    }
    XCTAssertEqual(Array(screen[0 ..< v.pageRows]), expected.map { String($0) }, context, line: line)
  }

  func testRecordsAreDrawnInTheirLanesAtTheirLanesWidth() throws {
    var v = try viewer(columns: 100, lanes: .fixed(3))
    XCTAssertEqual(v.laneCount, 3)
    XCTAssertEqual(v.recordColumns, 32, "(100 - 2 spaces) / 3, whole columns")
    var screen = v.render()
    assertScreenMatchesLayout(v, screen, "first screen")
    XCTAssertTrue(screen.last!.contains("[3 lanes]"), screen.last!)
    // The first records fill the lanes left to right (L4: the lane ending first, the lowest on ties).
    XCTAssertEqual((0 ..< 3).map { v.layout.lane(at: $0) }, [0, 1, 2])
    XCTAssertTrue(screen[0].hasPrefix(v.wrapped(id: 0)[0]), screen[0])
    for (step, key) in ["jjjjj", " ", "kk", "G", "b", "g"].enumerated() {
      screen = v.perform(script: key)
      assertScreenMatchesLayout(v, screen, "step \(step) (\(key))")
    }
  }

  func testJumpPutsTheRecordsFirstLineAtTheTopOfItsLane() throws {
    var v = try viewer(columns: 100, lanes: .fixed(3))
    let screen = v.perform(script: ":1235\n")
    let frame = v.layout.frame(of: 1_234)!
    XCTAssertEqual(frame.minY, v.layout.contentOffset.y, "R3: the record's first line on the first text row")
    let x = Int(frame.minX.rounded(.down))
    XCTAssertEqual(String(Array(screen[0])[x ..< x + v.recordColumns]),
                   v.wrapped(id: 1_234)[0].padding(toLength: v.recordColumns, withPad: " ", startingAt: 0))
    assertScreenMatchesLayout(v, screen, "after the jump")
  }

  func testANarrowStatusLineDropsWholePartsTimeFirstThenLanes() throws {
    var v = try viewer(30_000, columns: 200, lanes: .fixed(1))
    _ = v.perform(script: ":2500\n")
    // The jump keeps record 2500 on top through every resize below (R3).
    let place = "record 2500 of 30000 (8%)"
    let full = v.statusLine().trimmingCharacters(in: .whitespaces)
    XCTAssertTrue(full.hasPrefix(place + "  core "), full)
    XCTAssertTrue(full.hasSuffix(" µs  [1 lane]") || full.hasSuffix(" ms  [1 lane]"), full)
    let withLanes = place + "  [1 lane]"
    // The shortest the time can read is "  core 0.0 µs".
    let shortestFull = place.count + "  core 0.0 µs".count + "  [1 lane]".count
    for columns in [shortestFull - 1, withLanes.count + 1, withLanes.count, withLanes.count - 1,
                    place.count, place.count - 1, 12] {
      _ = v.perform(script: "<resize \(columns)x20>")
      let status = v.statusLine()
      XCTAssertEqual(status.count, columns, "\(columns) columns: the status fills its row")
      let text = status.trimmingCharacters(in: .whitespaces)
      if columns >= withLanes.count {
        XCTAssertEqual(text, withLanes, "\(columns) columns: the time dropped, the lane count kept whole")
      } else if columns >= place.count {
        XCTAssertEqual(text, place, "\(columns) columns: the place alone")
      } else {
        XCTAssertEqual(text, String(place.prefix(columns)).trimmingCharacters(in: .whitespaces), "\(columns) columns: the place cut at the row's end")
      }
    }
    _ = v.perform(script: "<resize 200x20>")
    XCTAssertTrue(v.statusLine().hasPrefix(place + "  core "), "wide again, the time is back: \(v.statusLine())")
  }

  func testAStatusLineQuotingWideCharactersFillsItsRowInCells() throws {
    var v = try viewer(30_000, columns: 80, lanes: .fixed(1))
    _ = v.perform(script: "/日本語の検索\n")
    XCTAssertEqual(v.message, "\"日本語の検索\" not found")
    // The message is 18 characters and 24 cells, then " | record …":
    // while both fit the line holds them; narrower, the message alone,
    // never a place cut short; each width cuts it somewhere else, 10
    // inside a wide character.
    for columns in [80, 49, 48, 40, 30, 24, 21, 20, 10] {
      _ = v.perform(script: "<resize \(columns)x20>")
      let status = v.statusLine()
      XCTAssertEqual(Viewer<GeneratedRecords>.cells(in: status), columns, "\(columns) columns: \(status)")
      let text = status.trimmingCharacters(in: .whitespaces)
      if columns >= 49 {
        XCTAssertTrue(text.hasPrefix(v.message + " | record 1 of 30000 (0%)"), "\(columns) columns: \(text)")
      } else {
        XCTAssertTrue(v.message.hasPrefix(text) || text == v.message, "\(columns) columns: \(text)")
      }
    }
    // A prompt is cut by cells too, here inside a wide character (the
    // prompt is 1 + 12 cells: 8 columns end in the middle of the fourth),
    // and the terminal resized while it is open takes the new width.
    _ = v.perform(script: "/日本語の検索")
    for columns in [20, 13, 8, 7] {
      _ = v.perform(script: "<resize \(columns)x20>")
      let status = v.statusLine()
      XCTAssertEqual(Viewer<GeneratedRecords>.cells(in: status), columns, "\(columns) columns: \(status)")
      let text = status.trimmingCharacters(in: .whitespaces)
      XCTAssertTrue("/日本語の検索".hasPrefix(text) && !text.isEmpty, "\(columns) columns: \(text)")
    }
    _ = v.perform(script: "<esc><resize 80x20>")
    // A control character typed into the prompt never reaches the terminal.
    _ = v.perform(script: "/a\u{1}b\tc")
    XCTAssertEqual(v.statusLine().trimmingCharacters(in: .whitespaces), "/a?b c")
  }

  func testAStatusLineDropsFollowLastOfItsParts() throws {
    var v = try viewer(30_000, columns: 200, lanes: .fixed(1))
    _ = v.perform(script: "F")
    XCTAssertTrue(v.following)
    let full = v.statusLine().trimmingCharacters(in: .whitespaces)
    XCTAssertTrue(full.hasSuffix("  [follow]  [1 lane]"), full)
    let place = String(full[..<full.range(of: "  core ")!.lowerBound])
    // Narrow enough for the place and [follow] but not the lane count too.
    let columns = (place + "  [follow]").count + 3
    _ = v.perform(script: "<resize \(columns)x20>")
    // Following, the end moves as records arrive and the re-wrap moves the
    // top record: the place may read otherwise, but the parts are these.
    let text = v.statusLine().trimmingCharacters(in: .whitespaces)
    XCTAssertTrue(text.hasPrefix("record ") && text.hasSuffix(" (END)  [follow]"), text)
    XCTAssertFalse(text.contains("core") || text.contains("lane"), text)
  }

  /// In a masonry the lanes drift apart (L4: a record's lane is chosen by
  /// estimates when it arrives), so a record jumped to can start the top
  /// line of a later lane beside a record far on in the first. The status
  /// names the record jumped to, and the next search starts after it, not
  /// after the record beside it (found in tmux: `:500000` on a 663k-line
  /// file said `record 500037`).
  func testAJumpInADriftedMasonryNamesItsRecordAndSearchesOnFromIt() throws {
    var v = try viewer(30_000, columns: 150, lanes: .fixed(3))
    var besideAnother = 0
    for target in stride(from: 1_001, to: 28_000, by: 997) {
      _ = v.perform(script: ":\(target)\n")
      let frame = v.layout.frame(of: target - 1)!
      let y = v.layout.contentOffset.y
      XCTAssertEqual(frame.minY, y, "record \(target) starts the screen")
      if v.layout.visibleRows.contains(where: { i in
        let other = v.layout.frame(at: i)
        return i != target - 1 && other.minY == y && other.minX < frame.minX
      }) {
        besideAnother += 1
      }
      XCTAssertEqual(v.topRecord, target - 1)
      XCTAssertTrue(v.statusLine().hasPrefix("record \(target) of 30000"), v.statusLine())
      let expected = (target ..< 30_000).first { v.source.record(at: $0).contains("ERROR") }!
      _ = v.perform(script: "/ERROR\n")
      XCTAssertEqual(v.message, "found \"ERROR\" in record \(expected + 1)", "after :\(target)")
    }
    XCTAssertGreaterThan(besideAnother, 5, "jumps that landed right of a record starting the same line")
  }

  func testAutoLanesReflowOnAResizeAndTheTopRecordStaysOnTop() throws {
    // 1,500 records: the internal checks our tests turn on re-flow the whole
    // masonry after every measurement, so the count sets this test's time.
    var v = try viewer(1_500, columns: 130, lanes: .adaptive(minimum: 40))
    _ = v.perform(script: ":1200\n")
    XCTAssertEqual(v.laneCount, 3)
    for (columns, lanes) in [(90, 2), (39, 1), (170, 4), (130, 3)] {
      let screen = v.perform(script: "<resize \(columns)x20>")
      XCTAssertEqual(v.laneCount, lanes, "\(columns) columns")
      XCTAssertEqual(v.recordColumns, max(1, (columns - (lanes - 1)) / lanes))
      let frame = v.layout.frame(of: 1_199)!
      XCTAssertEqual(frame.minY, v.layout.contentOffset.y, "\(columns) columns: record 1200 still starts the screen (L6)")
      // Records of other lanes may start on the same first line; the status
      // names the one a reader reads first, the leftmost: still record 1200.
      XCTAssertEqual(v.topRecord, 1_199, "\(columns) columns: the status names the record kept at the top")
      XCTAssertTrue(v.statusLine().contains("record 1200 of"), "\(columns) columns: \(v.statusLine())")
      XCTAssertEqual(frame.width.rounded(.down), CGFloat(v.recordColumns))
      assertScreenMatchesLayout(v, screen, "\(columns) columns")
    }
    // Scrolling after the re-flows: every row on screen is measured at its lane's width.
    _ = v.perform(script: "jjjjjjjjjj")
    for i in v.layout.visibleRows {
      let id = v.layout.id(at: i)
      XCTAssertEqual(v.layout.frame(at: i).height, CGFloat(v.wrapped(id: id).count), "row \(id) wrapped at the lane's width")
    }
  }

  func testLanesWithPinnedSections() throws {
    var v = try viewer(columns: 100, lanes: .fixed(2), sections: 16)
    let screen = v.perform(script: ":3000\n")
    XCTAssertEqual(v.layout.pinnedRows.count, 1)
    XCTAssertTrue(screen[0].hasPrefix("── 2026-11-22T00:07"), "the minute's header spans the lanes: \(screen[0])")
    assertScreenMatchesLayout(v, screen, "sections in lanes")
  }

  /// SPEC C1–C3 in a masonry: the layout's reading place is T1's kept row,
  /// the row that meets the top, which can be a long record of another lane
  /// that started lines above the record the reader sees first. The state
  /// saves the record the status names, so at another width that record
  /// comes back to the top (the kept row would bring back the other one).
  func testStateInLanesReopensAtTheRecordTheStatusNames() throws {
    var v = try viewer(20_000, columns: 120, lanes: .fixed(2), sections: 16)
    _ = v.perform(script: ":12000\n")
    var steps = 0
    // Scroll until the kept row and the reader's top record differ.
    while steps < 400, let top = v.topRow, v.layout.snapshot().place?.id == v.layout.id(at: top.index) {
      _ = v.perform(script: "j")
      steps += 1
    }
    let top = try XCTUnwrap(v.topRow)
    let kept = try XCTUnwrap(v.layout.snapshot().place?.id)
    XCTAssertNotEqual(kept, v.layout.id(at: top.index), "no place in 400 lines where the kept row is another lane's record")
    let record = try XCTUnwrap(v.topRecord)
    let screen = v.render()
    let state = v.stateData()

    var same = try viewer(20_000, columns: 120, lanes: .fixed(2), sections: 16)
    try same.restoreState(state)
    XCTAssertEqual(same.render().dropLast(), screen.dropLast(), "the same screen, line for line")
    XCTAssertEqual(same.topRecord, record)

    for columns in [90, 160] {
      var other = try viewer(20_000, columns: columns, lanes: .fixed(2), sections: 16)
      try other.restoreState(state)
      _ = other.render()
      XCTAssertEqual(other.topRecord, record, "\(columns) columns: the record the reader saw at the top")
      XCTAssertTrue(other.statusLine().contains("record \(record + 1) of"), other.statusLine())
    }
  }

  func testBadLaneCountsAreErrors() throws {
    XCTAssertThrowsError(try viewer(columns: 80, lanes: .fixed(0)), LazyStackError.invalidLaneCount(0))
    XCTAssertThrowsError(try viewer(columns: 80, lanes: .fixed(257)), LazyStackError.invalidLaneCount(257))
    XCTAssertThrowsError(try viewer(columns: 80, lanes: .adaptive(minimum: 0)),
                         LazyStackError.invalidExtent(0, what: "adaptive lane minimum"))
  }
}
