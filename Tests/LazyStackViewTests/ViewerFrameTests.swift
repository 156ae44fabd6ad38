import Foundation
import XCTest
@_spi(Testing) import LazyStackCore
@testable import LazyStackView

/// lazystack-view uses SPEC §16 as an app would: the file read on the
/// trailing edge trigger, a scroll indicator drawn from `scrollIndicator`
/// and dragged, follow mode driven by `isAtEnd` with a count of the
/// records below from `rowsAfterViewport`.
final class ViewerFrameTests: AssertingTestCase {
  override func setUp() {
    super.setUp()
    LazyStackInternalChecks.isEnabled = true
  }

  /// A file of `count` lines of 60 to 200 bytes.
  func file(_ name: String, lines count: Int) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lazystack-\(name)-\(getpid()).txt")
    let lines = (0 ..< count).map { "line \($0) " + String(repeating: "x", count: 50 + $0 % 140) }
    try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// SPEC F3: opening a large file reads one chunk; the rest is read only
  /// as the reader nears the end of what is read, a slice at a time.
  func testF3_aFileIsReadAsTheReaderNearsTheEndOfWhatIsRead() throws {
    let url = try file("edges", lines: 150_000)  // about 20 MB
    defer { try? FileManager.default.removeItem(at: url) }
    var v = try Viewer(source: FileRecords(path: url.path, firstSlice: 0), columns: 80, rows: 20)
    v.animationDuration = 0
    _ = v.render()
    let first = v.source.count
    XCTAssertFalse(v.sourceIsComplete, "one chunk read")
    XCTAssertLessThan(first, 150_000)
    _ = v.perform(script: "jjjj<pgdn><pgdn>")
    XCTAssertEqual(v.source.count, first, "nothing read far from the end of what is read")
    // Jump near the end of what is read: the next slices are read, and the
    // reader is never within four pages of it.
    _ = v.perform(script: ":\(first - 10)\n")
    XCTAssertGreaterThan(v.source.count, first)
    XCTAssertGreaterThan(v.layout.distance(to: .bottom), CGFloat(4 * v.pageRows))
    XCTAssertEqual(v.topRecord, first - 11)
    // G reads to the end.
    let screen = v.perform(script: "G")
    XCTAssertTrue(v.sourceIsComplete)
    XCTAssertEqual(v.source.count, 150_000)
    XCTAssertTrue(screen.last!.contains("(END)"), screen.last!)
  }

  /// SPEC F6: the last column is a scroll indicator; its thumb moves with
  /// scrolling only (reading up into one-line estimates that wrap to two
  /// or three lines never moves it), and it can be dragged.
  func testF6_theScrollIndicatorIsDrawnAndDraggedAndNeverJumps() throws {
    var v = try Viewer(source: GeneratedRecords(count: 100_000), columns: 61, rows: 21, scrollIndicator: true)
    v.animationDuration = 0
    XCTAssertEqual(v.textColumns, 60)
    var screen = v.perform(script: "")
    XCTAssertEqual(screen[0].last, "█", "the thumb at the top")
    XCTAssertEqual(screen[19].last, "│")
    XCTAssertTrue(screen.dropLast().allSatisfy { $0.count == 61 })
    // Dragged to the middle: the thumb stays under the pointer.
    screen = v.perform(script: "<drag 10>")
    XCTAssertEqual(v.layout.scrollIndicator.position, 10.0 / 19)
    let thumbRows = screen.dropLast().enumerated().filter { $0.element.last == "█" }.map(\.offset)
    XCTAssertTrue(thumbRows.contains(10), "thumb rows \(thumbRows)")
    // Scrolling up through records measured only now: the content grows
    // above the screen, the thumb only moves up, a little each line.
    var last = v.layout.scrollIndicator.position
    for _ in 0 ..< 30 {
      _ = v.perform(script: "k")
      let f = v.layout.scrollIndicator.position
      XCTAssertLessThan(f, last)
      XCTAssertGreaterThan(f, last - 0.01, "one line up moves the thumb by about a line's share")
      last = f
    }
    // :N% drags it from the keyboard; 100 % is the end of the file.
    _ = v.perform(script: ":25%\n")
    XCTAssertEqual(v.layout.scrollIndicator.position, 0.25)
    screen = v.perform(script: ":100%\n")
    XCTAssertEqual(v.layout.scrollIndicator.position, 1)
    XCTAssertTrue(screen.last!.contains("(END)"), screen.last!)
    XCTAssertEqual(screen[19].last, "█", "the thumb at the bottom")
  }

  /// SPEC F4 and D4: following, the status says `[follow]` exactly while
  /// the layout is at its end (pinned); scrolled up, how many records wait
  /// below, growing as the file grows; back at the end, pinned again.
  func testF4_followIsDrivenByIsAtEndAndCountsTheRecordsBelow() throws {
    let url = try file("follow", lines: 200)
    defer { try? FileManager.default.removeItem(at: url) }
    var v = try Viewer(source: FileRecords(path: url.path), columns: 100, rows: 10)
    v.animationDuration = 0
    var screen = v.perform(script: "F")
    XCTAssertTrue(v.layout.isAtEnd)
    XCTAssertTrue(screen.last!.contains("[follow]"), screen.last!)
    screen = v.perform(script: "kkkkkkkkkkkkkkkkkkkk")
    XCTAssertFalse(v.layout.isAtEnd)
    let below = v.layout.rowsAfterViewport
    XCTAssertGreaterThan(below, 0)
    XCTAssertTrue(screen.last!.contains("[follow: \(below) below]"), screen.last!)
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("\nnew 1\nnew 2\nnew 3".utf8))
    try handle.close()
    screen = v.perform(script: "<tick 1>")
    XCTAssertFalse(v.layout.isAtEnd, "scrolled up: not pinned (D4)")
    XCTAssertTrue(screen.last!.contains("[follow: \(below + 3) below]"), screen.last!)
    screen = v.perform(script: "G")
    XCTAssertTrue(v.layout.isAtEnd)
    XCTAssertTrue(screen.last!.contains("[follow]"), screen.last!)
  }
}
