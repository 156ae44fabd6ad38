import Foundation
import XCTest
@_spi(Testing) import LazyStackCore
@testable import LazyStackView

/// Headless runs of lazystack-view: the core's guarantees seen from a real UI.
final class ViewerTests: AssertingTestCase {
  override func setUp() {
    super.setUp()
    LazyStackInternalChecks.isEnabled = true  // this package's own O(n) checks (tests only)
  }

  func viewer(_ count: Int = 100_000, columns: Int = 60, rows: Int = 20) throws -> Viewer<GeneratedRecords> {
    try Viewer(source: GeneratedRecords(count: count), columns: columns, rows: rows)
  }

  /// A frame after every key, as in the terminal.
  func run<S>(_ v: inout Viewer<S>, _ script: String) -> [String] {
    v.perform(script: script)
  }

  func testJumpThenScrollUpNeverMovesTheTopRecord() throws {
    var v = try viewer()
    var screen = run(&v, ":50000\n")
    XCTAssertEqual(v.topRecord, 49_999, ":N puts record N at the top")
    XCTAssertTrue(screen[0].contains("#50000 "), screen[0])
    // Scrolling up one line at a time: rows above are measured as they come
    // into view, yet every frame is exactly the previous one moved down a line.
    for step in 0 ..< 120 {
      let previous = screen
      screen = run(&v, "k")
      XCTAssertEqual(Array(screen[1 ..< v.pageRows]), Array(previous[0 ..< v.pageRows - 1]), "step \(step): the view jumped")
    }
  }

  func testPagingMovesOneScreenFromWhereTheReaderIs() throws {
    var v = try viewer(1000, rows: 11)
    _ = v.render()  // the first frame measures the first records (and a page more)
    _ = run(&v, "<pgdn>")
    XCTAssertEqual(v.layout.contentOffset.y, 10)
    let reading = run(&v, "jjj")
    let screen = run(&v, " ")
    XCTAssertEqual(v.layout.contentOffset.y, 23, "one screen from 13 lines, not the next multiple of the page (20)")
    XCTAssertFalse(screen.contains { reading.contains($0) && !$0.allSatisfy { $0 == " " } },
                   "no line of the last screen is on the next one, and none between them was skipped")
    _ = run(&v, "b")
    XCTAssertEqual(v.layout.contentOffset.y, 13)
    _ = run(&v, "bb")
    XCTAssertEqual(v.layout.contentOffset.y, 0, "clamped at the top")
    _ = run(&v, "G ")
    XCTAssertEqual(v.layout.contentOffset.y, v.layout.maxOffset, "clamped at the end")
  }

  func testPagesPressedDuringAPageAddUp() throws {
    var v = try viewer(1000, rows: 11)
    _ = v.render()
    for key in ViewerKey.parse(script: "  ") { XCTAssertTrue(v.handle(key)) }
    XCTAssertTrue(v.isAnimating)
    _ = v.finishAnimation()
    XCTAssertEqual(v.layout.contentOffset.y, 20, "the second page goes on from where the first lands")
    XCTAssertTrue(v.layout.position.isPositionedByUser)
  }

  func testFollowModeKeepsTheViewAtTheEndAsRecordsArrive() throws {
    var v = try viewer(500)
    var screen = run(&v, "G")
    screen = run(&v, "F<tick 5>")
    XCTAssertEqual(v.layout.count, 500 + 6 * 3)
    XCTAssertEqual(v.layout.contentOffset.y, v.layout.maxOffset, "pinned to the end")
    let last = v.wrapped(v.layout.count - 1).last!
    XCTAssertEqual(screen[v.pageRows - 1].trimmingCharacters(in: .whitespaces), last.trimmingCharacters(in: .whitespaces))
    // The user scrolls up: new records no longer move the view.
    screen = run(&v, "kkkk")
    let reading = screen
    let after = run(&v, "<tick 4>")
    XCTAssertEqual(Array(after[0 ..< v.pageRows]), Array(reading[0 ..< v.pageRows]))
    XCTAssertLessThan(v.layout.contentOffset.y, v.layout.maxOffset)
  }

  /// SPEC U1, U2 in a real UI: records that arrive while following come in
  /// one batch; the screen shows the rows sliding up over a few frames.
  /// The first frame is the screen before they arrived, every frame draws
  /// each row that was on screen where the transition has it at that
  /// moment (the arriving rows show from under them), and the last one is
  /// the screen without animation.
  func testFollowModeAnimatesArrivingRecordsWithTheBatchTransition() throws {
    var v = try viewer(500)
    _ = run(&v, "G")
    let before = run(&v, "F")
    XCTAssertTrue(v.following)
    XCTAssertTrue(v.handle(.tick(1)))
    guard let t = v.transition else { return XCTFail("no transition after records arrived") }
    XCTAssertEqual(v.layout.count, 500 + 2 * 3, "F polls once, then one tick")
    XCTAssertTrue(t.value.rows.contains { $0.before == nil && $0.after != nil }, "an arriving row")
    XCTAssertTrue(t.value.rows.contains { ($0.before?.minY ?? -1) >= 0 && $0.after!.maxY <= 0 },
                  "a row leaving the screen at the top")
    // Frame 0: where the rows were.
    let first = v.render()
    XCTAssertEqual(Array(first[0 ..< v.pageRows]), Array(before[0 ..< v.pageRows]), "the first frame is the old screen")
    // Every frame: each row at its interpolated place.
    var frames = 0
    while v.advance(to: v.time + v.frameInterval) {
      let screen = v.render()
      frames += 1
      guard let t = v.transition else { break }
      let progress = (v.time - t.start) / v.animationDuration
      XCTAssertGreaterThan(progress, 0)
      for (row, (id, frame)) in zip(t.value.rows, t.value.frames(at: progress)) where row.before != nil {
        for (k, line) in v.wrapped(id: id).enumerated() where (0 ..< v.pageRows) ~= Int(frame.minY.rounded()) + k {
          XCTAssertEqual(screen[Int(frame.minY.rounded()) + k], line.padding(toLength: v.columns, withPad: " ", startingAt: 0),
                         "frame \(frames), row \(id), line \(k)")
        }
      }
    }
    XCTAssertGreaterThan(frames, 3, "a few frames of animation")
    XCTAssertNil(v.transition)
    // The last frame: the view pinned to the end, as without animation.
    let last = v.render()
    XCTAssertEqual(v.layout.contentOffset.y, v.layout.maxOffset)
    var still = try viewer(500)
    still.animationDuration = 0
    _ = run(&still, "GF<tick 1>")
    XCTAssertEqual(Array(last[0 ..< v.pageRows]), Array(still.render()[0 ..< still.pageRows]))
  }

  func testResizeRewrapsAndKeepsTheTopRecord() throws {
    var v = try viewer()
    _ = run(&v, ":300\njj")
    let top = v.topRecord
    var screen = run(&v, "<resize 35x14>")
    XCTAssertEqual(v.topRecord, top)
    XCTAssertEqual(screen.count, 14)
    XCTAssertEqual(screen[0].count, 35)
    screen = run(&v, "<resize 120x40>")
    XCTAssertEqual(v.topRecord, top)
    XCTAssertTrue(screen.allSatisfy { $0.count == 120 })
  }

  func testFindLandsOnTheMatchingRecord() throws {
    var v = try viewer()
    _ = run(&v, "/#4242 \n")
    XCTAssertEqual(v.topRecord, 4241)
    let found = v.render()
    XCTAssertTrue(found[0].contains("#4242 "), "\(found)")
    _ = run(&v, "/no such text\n")
    XCTAssertTrue(v.render().last!.contains("not found"))
    XCTAssertEqual(v.topRecord, 4241)
  }

  func testEmptyFileAndVeryLongLines() throws {
    let directory = FileManager.default.temporaryDirectory
    let empty = directory.appendingPathComponent("lazystack-empty-\(getpid()).txt")
    try Data().write(to: empty)
    var e = try Viewer(source: FileRecords(path: empty.path), columns: 40, rows: 10)
    let screen = run(&e, "jjkG g<pgdn>:5\n/x\n")
    XCTAssertEqual(screen.count, 10)
    XCTAssertTrue(screen.last!.contains("record 0 of 0"))

    let long = directory.appendingPathComponent("lazystack-long-\(getpid()).txt")
    let line = String(repeating: "abcdefghij", count: 500)  // 5000 characters: 125 lines at 40 columns
    try (["short", line, "tail"].joined(separator: "\n") + "\n").write(to: long, atomically: true, encoding: .utf8)
    var l = try Viewer(source: FileRecords(path: long.path), columns: 40, rows: 10)
    _ = l.render()
    XCTAssertEqual(l.layout.frame(at: 1).height, 125)
    let bottom = run(&l, "G")
    XCTAssertEqual(bottom[l.pageRows - 1].trimmingCharacters(in: .whitespaces), "tail")
    let middle = run(&l, ":2\n")
    XCTAssertEqual(middle[0], String(line.prefix(40)))
    try? FileManager.default.removeItem(at: empty)
    try? FileManager.default.removeItem(at: long)
  }

  func testFollowingAGrowingFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lazystack-grow-\(getpid()).txt")
    try "one\ntwo\n".write(to: url, atomically: true, encoding: .utf8)
    var v = try Viewer(source: FileRecords(path: url.path), columns: 20, rows: 5)
    _ = run(&v, "F")
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: "three\nfour\nfive\nsix\nseven\n".data(using: .utf8)!)
    try handle.close()
    let screen = run(&v, "<tick 1>")
    XCTAssertEqual(v.layout.count, 7)
    XCTAssertEqual(screen[3].trimmingCharacters(in: .whitespaces), "seven")
    try? FileManager.default.removeItem(at: url)
  }

  /// The reproduction of the reader's-place issue: `:N`, `kk` (the top
  /// line is now inside a long record), then the terminal narrows from
  /// 100x20 to 60x12. The record at the top stays there (the issue saw it
  /// move 19 records forward, 49999 -> 50018, before SPEC S12 a). N is the
  /// first jump from 50000 on whose `kk` lands inside a record of 3 or more
  /// lines (the generator decides the lengths).
  func resizeInsideALongRecord(count: Int) throws {
    let records = GeneratedRecords(count: count)
    let target = (50_000 ..< 60_000).first { Viewer<GeneratedRecords>.lineCount(of: records.record(at: $0 - 2), columns: 100) >= 3 }!
    var v = try Viewer(source: records, columns: 100, rows: 20)
    var screen = run(&v, ":\(target)\nkk")
    let top = target - 2  // the record before the one jumped to, 0-based
    XCTAssertEqual(v.topRecord, top)
    XCTAssertTrue(screen.last!.contains("record \(top + 1) of"), screen.last!)
    XCTAssertLessThan(v.layout.frame(at: top).minY, v.layout.contentOffset.y, "the top line is inside the record")
    screen = run(&v, "<resize 60x12>")
    XCTAssertEqual(v.topRecord, top, "after narrowing, jumped to \(target)")
    XCTAssertTrue(screen.last!.contains("record \(top + 1) of"), screen.last!)
    XCTAssertEqual(screen.count, 12)
    // Back to the first width: still there.
    _ = run(&v, "<resize 100x20>")
    XCTAssertEqual(v.topRecord, top)
  }

  func testResizeInsideALongRecordKeepsItAtTheTop_100k() throws {
    try resizeInsideALongRecord(count: 100_000)
  }

  func testResizeInsideALongRecordKeepsItAtTheTop_10M() throws {
    try resizeInsideALongRecord(count: 10_000_000)
  }

  /// SPEC C1–C3 from a real UI: quit inside a long record, reopen (a new
  /// viewer of the same records): the same record at the top, the same
  /// line of it; at another width, the same record, its line scaled; and
  /// a state restored before the file is indexed waits for its record.
  func testStateReopensAtTheSameRecordAndLine() throws {
    let records = GeneratedRecords(count: 100_000)
    let target = (50_000 ..< 60_000).first { Viewer<GeneratedRecords>.lineCount(of: records.record(at: $0 - 2), columns: 60) >= 3 }!
    var first = try Viewer(source: records, columns: 60, rows: 20)
    let screen = run(&first, ":\(target)\nkk")
    let top = target - 2
    XCTAssertEqual(first.topRecord, top)
    let into = first.layout.contentOffset.y - first.layout.frame(at: top).minY
    XCTAssertGreaterThan(into, 0, "the top line is inside the record")
    let state = first.stateData()

    var same = try Viewer(source: records, columns: 60, rows: 20)
    try same.restoreState(state)
    XCTAssertEqual(same.render().dropLast(), screen.dropLast(), "the same screen, line for line (the status line shows timings)")
    XCTAssertEqual(same.layout.contentOffset.y - same.layout.frame(at: top).minY, into)

    var wider = try Viewer(source: records, columns: 120, rows: 20)
    try wider.restoreState(state)
    _ = wider.render()
    XCTAssertEqual(wider.topRecord, top, "at another width, the same record")
    XCTAssertEqual(wider.layout.contentOffset.y - wider.layout.frame(at: top).minY, (into * 60 / 120).rounded(.down))

    XCTAssertThrowsError(try same.restoreState(Data("not a state".utf8))) { error in
      guard case .notAState? = error as? Viewer<GeneratedRecords>.StateError else { return XCTFail("\(error)") }
      XCTAssertTrue(true, "not a state")
    }
    XCTAssertThrowsError(try same.restoreState(state.prefix(state.count - 3))) { error in
      guard case .snapshot(.truncated(let offset))? = error as? Viewer<GeneratedRecords>.StateError else {
        return XCTFail("\(error)")
      }
      XCTAssertLessThanOrEqual(offset, state.count - 8 - 3, "the truncated snapshot's offset")
    }
    XCTAssertEqual(same.topRecord, top, "a bad state changes nothing")
  }

  /// SPEC C3: the state is read before the file is indexed: the place
  /// waits for its record, and lands when indexing reaches it.
  func testStateWaitsForItsRecordWhileTheFileIsIndexed() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lazystack-state-\(getpid()).txt")
    let lines = (0 ..< 200_000).map { "line \($0) " + String(repeating: "x", count: $0 % 150) }
    try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    var first = try Viewer(source: FileRecords(path: url.path), columns: 60, rows: 20)
    while first.indexMore(seconds: 1) {}
    _ = run(&first, ":150000\nj")
    let top = try XCTUnwrap(first.topRecord)
    let into = first.layout.contentOffset.y - first.layout.frame(at: top).minY
    let state = first.stateData()

    var reopened = try Viewer(source: FileRecords(path: url.path), columns: 60, rows: 20)
    try reopened.restoreState(state)
    if reopened.layout.count <= top {
      XCTAssertTrue(reopened.layout.isRestorePending, "record \(top) not indexed yet: the place waits")
    }
    while reopened.indexMore(seconds: 0.01) {}
    XCTAssertFalse(reopened.layout.isRestorePending)
    _ = reopened.render()
    XCTAssertEqual(reopened.topRecord, top)
    XCTAssertEqual(reopened.layout.contentOffset.y - reopened.layout.frame(at: top).minY, into)
  }

  /// A record wraps at terminal cells, not characters: CJK and emoji take
  /// two, a combining mark none (part of its base), a zero-width space
  /// none; a wide character that does not fit goes to the next line. The
  /// line count the layout measures is the count of lines drawn.
  func testWideCharactersTakeTwoCellsAndWrapWhole() throws {
    typealias V = Viewer<GeneratedRecords>
    XCTAssertEqual(V.wrap("日本語abc", columns: 4), ["日本", "語ab", "c"])
    XCTAssertEqual(V.wrap("ab日", columns: 3), ["ab", "日"], "a wide character never straddles the edge")
    XCTAssertEqual(V.wrap("e\u{301}x\u{200B}y", columns: 2), ["e\u{301}x", "y"])
    XCTAssertEqual(V.wrap("🎉a\tb", columns: 3), ["🎉a", " b"])
    XCTAssertEqual(V.wrap("日", columns: 1), ["?"], "no line is two cells wide")
    XCTAssertEqual(V.wrap("", columns: 5), [""])
    for text in ["日本語abc", "ab日", "e\u{301}x\u{200B}y", "🎉a\tb", "日", "", "plain ascii text", "한국어 텍스트입니다 ok"] {
      for columns in 1 ... 7 {
        XCTAssertEqual(V.lineCount(of: text, columns: columns), V.wrap(text, columns: columns).count, "\(text) at \(columns)")
      }
    }

    // Drawn in two lanes: every screen line is exactly the terminal's width
    // in cells (all non-ASCII text here is two cells wide).
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lazystack-wide-\(getpid()).txt")
    let lines = (0 ..< 500).map { "\($0) " + String(repeating: "日本語のテキスト ", count: 1 + $0 % 4) }
    try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    var v = try Viewer(source: FileRecords(path: url.path), columns: 31, rows: 12, lanes: .fixed(2))
    while v.indexMore(seconds: 1) {}
    v.animationDuration = 0
    for script in ["", ":200\n", "jjj"] {
      let screen = v.perform(script: script)
      for (k, line) in screen.dropLast().enumerated() {
        XCTAssertEqual(line.reduce(0) { $0 + ($1.isASCII ? 1 : 2) }, 31, "\(script): line \(k): \(line)")
      }
      for i in v.layout.visibleRows {
        let id = v.layout.id(at: i)
        XCTAssertEqual(v.layout.frame(at: i).height, CGFloat(v.wrapped(id: id).count), "record \(id)'s height is its lines")
      }
    }
  }

  func testStatusSaysEndWhenTheLastRecordIsVisible() throws {
    var v = try viewer(1000)
    var screen = run(&v, "G")
    XCTAssertTrue(screen.last!.contains("(100%) (END)"), screen.last!)
    screen = run(&v, "k")
    XCTAssertFalse(screen.last!.contains("(END)"), screen.last!)
    XCTAssertFalse(screen.last!.contains("100%"), screen.last!)
    var short = try viewer(3)
    XCTAssertTrue(short.render().last!.contains("(END)"))
  }

  func testGeneratedRecordsVaryAndTheirTimestampsNeverGoBack() throws {
    let records = GeneratedRecords(count: 10_000)
    let first = records.record(at: 0).split(separator: " ").dropFirst(4)
    XCTAssertGreaterThan(Set(first).count, 2, "record #1 is not one word repeated: \(first)")
    var previous = ""
    for i in 0 ..< 10_000 {
      let stamp = String(records.record(at: i).prefix(24))
      XCTAssertGreaterThanOrEqual(stamp, previous, "record \(i + 1) goes back in time")
      previous = stamp
    }
  }

  /// `--sections 16` (issue #13): a header a minute, pinned at the top while
  /// its minute is on screen; `:N` lands record N just under it (SPEC H6),
  /// and scrolling down keeps it pinned until the next minute pushes it out.
  func testSectionsPinTheMinuteAndJumpsLandUnderIt() throws {
    var v = try Viewer(source: GeneratedRecords(count: 200_000), columns: 100, rows: 12, sections: 16)
    var screen = run(&v, ":100000\n")
    // Record 100,000 (index 99,999) is at 99,999 / 7 s = 03:58:05: its minute began ~35 s (245 records) earlier.
    XCTAssertTrue(screen[0].hasPrefix("── 2026-11-22T03:58 ─"), screen[0])
    XCTAssertTrue(screen[1].hasPrefix("2026-11-22T03:58:05") && screen[1].contains("#100000 "), screen[1])
    XCTAssertEqual(v.topRecord, 99_999)
    XCTAssertEqual(v.layout.pinnedRows.count, 1)
    XCTAssertEqual(v.layout.role(at: v.layout.pinnedRows[0].index), .sectionHeader)
    // Scrolling down a line at a time: the first line is always the header
    // of the minute of the record right under it.
    var checked = 0
    for _ in 0 ..< 40 {
      screen = run(&v, "j")
      // Only a record's first line starts with its timestamp (not a wrapped
      // line's continuation, nor the next header in its natural place).
      guard screen[1].hasPrefix("2026-") else { continue }
      let minute = String(screen[1].prefix(16))
      checked += 1
      XCTAssertTrue(screen[0].hasPrefix("── " + minute), "\(screen[0]) over \(screen[1])")
    }
    XCTAssertGreaterThan(checked, 5)
    // Every record still counts once: headers are not records.
    XCTAssertEqual(v.recordsInLayout, 200_000)
    XCTAssertEqual(v.layout.count, 200_000 + (200_000 + 419) / 420)
    XCTAssertTrue(v.statusLine().contains("of 200000"))
  }

  /// `:N` and the page keys animate over 150 ms at the frame rate (SPEC
  /// M4), the records on the way measured as they come into view, and land
  /// exactly: record N's first line on the top row, a page on its boundary.
  func testJumpsAndPagesAnimateAndLandExactly() throws {
    var v = try viewer(200_000, columns: 60, rows: 20)
    _ = v.render()
    for key in ViewerKey.parse(script: ":150000\n") { XCTAssertTrue(v.handle(key)) }
    XCTAssertTrue(v.isAnimating)
    var tops: [Int] = []
    var screen: [String] = []
    var frames = 0
    while v.advance(to: v.time + v.frameInterval) {
      frames += 1
      screen = v.render()  // measures the records in view, as the terminal's frame does
      tops.append(v.topRecord ?? -1)
      XCTAssertLessThan(frames, 100)
    }
    screen = v.render()
    XCTAssertEqual(frames, 8, "150 ms at 60 Hz: 8 frames in motion, the 9th (at 150 ms) lands")
    XCTAssertEqual(v.topRecord, 149_999)
    XCTAssertTrue(screen[0].contains("#150000 "), screen[0])
    XCTAssertEqual(v.layout.contentOffset.y, v.layout.frame(of: 149_999)!.minY, "exactly on its first line")
    XCTAssertEqual(tops, tops.sorted(), "every frame further on")
    XCTAssertGreaterThan(Set(tops).count, 5, "it moved through the file")

    // A page animates too, and lands on the boundary as the user's place.
    let before = v.layout.contentOffset.y
    _ = v.perform(script: "<pgdn>")
    XCTAssertEqual(v.lastAnimationFrames, 9)
    XCTAssertEqual(v.layout.contentOffset.y, before + 19, "one screen further")
    XCTAssertTrue(v.layout.position.isPositionedByUser)

    // A resize in the middle of a jump: it still lands on the record's
    // first line, re-wrapped at the new width.
    for key in ViewerKey.parse(script: ":120000\n") { XCTAssertTrue(v.handle(key)) }
    v.advance(to: v.time + 0.05)
    _ = v.render()
    v.resize(columns: 45, rows: 16)
    XCTAssertTrue(v.isAnimating)
    screen = v.finishAnimation() ?? []
    XCTAssertEqual(v.topRecord, 119_999)
    XCTAssertEqual(screen[0], v.wrapped(id: 119_999)[0].padding(toLength: 45, withPad: " ", startingAt: 0))
    XCTAssertEqual(v.layout.contentOffset.y, v.layout.frame(of: 119_999)!.minY)

    // --no-animation: at once.
    var still = try viewer(200_000, columns: 60, rows: 20)
    still.animationDuration = 0
    screen = still.perform(script: ":150000\n")
    XCTAssertFalse(still.isAnimating)
    XCTAssertTrue(screen[0].contains("#150000 "), screen[0])
  }
}
