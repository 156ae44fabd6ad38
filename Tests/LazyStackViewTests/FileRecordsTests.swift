import Foundation
import XCTest
@_spi(Testing) import LazyStackCore
@testable import LazyStackView

/// `FileRecords`: the byte-scan index behind `lazystack-view FILE`, and the
/// bad files of issue "opens a 1.3 GB log the way less does": each is shown
/// or reported, never a crash.
final class FileRecordsTests: AssertingTestCase {
  override func setUp() {
    super.setUp()
    LazyStackInternalChecks.isEnabled = true  // this package's own O(n) checks (tests only)
  }

  var files: [URL] = []

  func file(_ bytes: [UInt8], _ name: String = #function) throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("lazystack-\(getpid())-\(files.count)-\(name.filter(\.isLetter)).txt")
    try Data(bytes).write(to: url)
    files.append(url)
    return url
  }

  func file(_ text: String, _ name: String = #function) throws -> URL { try file(Array(text.utf8), name) }

  override func tearDown() {
    for url in files { try? FileManager.default.removeItem(at: url) }
  }

  func testRecordsAreLinesWithCRLFAndNoFinalNewline() throws {
    let records = try FileRecords(path: file("one\r\ntwo\n\nfour\r\nlast, unterminated").path)
    XCTAssertEqual(records.count, 5)
    XCTAssertEqual((0 ..< 5).map { records.record(at: $0) }, ["one", "two", "", "four", "last, unterminated"])
    XCTAssertTrue(records.isComplete)
    XCTAssertEqual(records.progress, 1)
  }

  func testAnEmptyFileHasNoRecords() throws {
    var v = try Viewer(source: FileRecords(path: file("").path), columns: 30, rows: 6)
    let screen = v.perform(script: "jjG:3\n/x\n")
    XCTAssertEqual(v.layout.count, 0)
    XCTAssertTrue(screen.last!.contains("record 0 of 0"), screen.last!)
  }

  func testInvalidUTF8IsShownAsReplacementCharacters() throws {
    let records = try FileRecords(path: file([0x61, 0xFF, 0xFE, 0x62, 0x0A, 0xC3, 0x0A]).path)
    XCTAssertEqual(records.count, 2)
    XCTAssertEqual(records.record(at: 0), "a\u{FFFD}\u{FFFD}b")
    XCTAssertEqual(records.record(at: 1), "\u{FFFD}")
  }

  func testARecordOverOneMebibyteShowsItsFirstMebibyteAndSaysSo() throws {
    let long = String(repeating: "0123456789", count: 150_000)  // 1.5 MB
    var v = try Viewer(source: FileRecords(path: file("short\n" + long + "\nafter\n").path), columns: 100, rows: 10)
    let shown = v.source.record(at: 1)
    XCTAssertTrue(shown.hasPrefix("0123456789"))
    XCTAssertTrue(shown.hasSuffix(" … [451424 more bytes]"), String(shown.suffix(40)))
    _ = v.perform(script: ":2\n")
    XCTAssertEqual(v.topRecord, 1)
    XCTAssertEqual(v.layout.frame(at: 1).height, CGFloat((shown.count + 99) / 100))
    let end = v.perform(script: "G")
    XCTAssertEqual(end[v.pageRows - 1].trimmingCharacters(in: .whitespaces), "after")
  }

  func testIndexingGoesInSlicesAndJumpsIndexOnDemand() throws {
    let lines = (1 ... 200_000).map { "line \($0) " + String(repeating: "x", count: $0 % 50) }
    let url = try file(lines.joined(separator: "\n") + "\n")
    var records = try FileRecords(path: url.path, firstSlice: 0)  // one 4 MiB chunk
    XCTAssertFalse(records.isComplete)
    let first = records.count
    XCTAssertGreaterThan(first, 0)
    XCTAssertLessThan(first, 200_000)
    XCTAssertEqual(records.record(at: first - 1), lines[first - 1])
    // A viewer jumps beyond what is indexed: it indexes up to the record.
    var v = try Viewer(source: records, columns: 80, rows: 10)
    XCTAssertTrue(v.render().last!.contains("read "))
    _ = v.perform(script: ":150000\n")
    XCTAssertEqual(v.topRecord, 149_999)
    XCTAssertTrue(v.render()[0].hasPrefix("line 150000 "))
    // G in a headless viewer indexes to the true end.
    let end = v.perform(script: "G")
    XCTAssertTrue(v.sourceIsComplete)
    XCTAssertEqual(v.layout.count, 200_000)
    XCTAssertTrue(end.last!.contains("(END)"), end.last!)
    XCTAssertFalse(end.last!.contains("read "))
    // Slices: index(for:) appends what it scanned.
    records = try FileRecords(path: url.path, firstSlice: 0)
    while !records.isComplete { XCTAssertGreaterThan(records.index(for: 0), 0) }
    XCTAssertEqual(records.count, 200_000)
  }

  func testFindSearchesTheFileBytesAndIndexesAsFarAsTheMatch() throws {
    let lines = (1 ... 200_000).map { $0 == 180_000 ? "the needle is here" : "hay \($0)" }
    var v = try Viewer(source: FileRecords(path: file(lines.joined(separator: "\n") + "\n").path, firstSlice: 0),
                       columns: 80, rows: 10)
    _ = v.perform(script: "/needle\n")
    XCTAssertEqual(v.topRecord, 179_999)
    XCTAssertTrue(v.render()[0].hasPrefix("the needle is here"))
    _ = v.perform(script: "/hay 7\n")
    XCTAssertEqual(v.topRecord, 6, "no record after the needle has \"hay 7\": it wraps around to line 7")
    _ = v.perform(script: "/no such thing\n")
    XCTAssertTrue(v.render().last!.contains("not found"))
  }

  func testFollowReadsOnlyAppendedBytesAndAnUnfinishedLineThatGrows() throws {
    let url = try file("one\ntwo\npart")
    var v = try Viewer(source: FileRecords(path: url.path), columns: 20, rows: 5)
    XCTAssertEqual(v.layout.count, 3)
    let scannedBefore = v.source.scanned
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("ial line that wraps past twenty columns\nfour\n".utf8))
    try handle.close()
    let screen = v.perform(script: "F<tick 1>")
    XCTAssertEqual(v.source.scanned - scannedBefore, 45, "only the appended bytes were read")
    XCTAssertEqual(v.layout.count, 4)
    XCTAssertEqual(v.source.record(at: 2), "partial line that wraps past twenty columns")
    XCTAssertEqual(v.layout.frame(at: 2).height, 3, "the grown record was measured again")
    XCTAssertEqual(screen[v.pageRows - 1].trimmingCharacters(in: .whitespaces), "four")
  }

  func testAFileTruncatedWhileOpenIsReadAgainAndReported() throws {
    let url = try file((1 ... 1000).map { "record \($0)" }.joined(separator: "\n") + "\n")
    var v = try Viewer(source: FileRecords(path: url.path), columns: 30, rows: 8)
    _ = v.perform(script: ":900\n")
    XCTAssertEqual(v.layout.count, 1000)
    // Log rotation in place: the file is cut down and written again.
    try Data("fresh 1\nfresh 2\n".utf8).write(to: url)
    let screen = v.perform(script: "<tick 1>")
    XCTAssertEqual(v.layout.count, 2)
    XCTAssertTrue(screen.last!.contains("file truncated: reloaded"), screen.last!)
    XCTAssertEqual(v.source.record(at: 0), "fresh 1")
    // Records on screen are read with positional reads: a record cut off under
    // the viewer comes back short, never a crash.
    let cut = try FileRecords(path: url.path)
    try Data("fr".utf8).write(to: url)
    XCTAssertEqual(cut.record(at: 1), "")
  }

  /// `--sections N` on a file: the batched scan (one read a run of records)
  /// finds the same sections as comparing each record's first N characters,
  /// with CRLF, short and empty lines, non-ASCII text and a line longer than
  /// a read; across two batches too.
  func testSectionStartsMatchThePrefixesOfEachRecord() throws {
    var lines: [String] = []
    var rng = SplitMix(state: 3)
    let stems = ["2026-11-22T10:00", "2026-11-22T10:01", "Überschrift ÄÖÜ", "é", "", "2026-11-22T10:0"]
    for k in 0 ..< 3_000 {
      var line = stems[Int.random(in: 0 ..< stems.count, using: &rng)] + (Bool.random(using: &rng) ? ":00 x" : "")
      if k % 7 == 0 { line += "\r" }
      if k == 1_234 { line += String(repeating: "long ", count: 1_000_000) }  // 5 MB: longer than a read
      lines.append(line)
    }
    let records = try FileRecords(path: file(lines.joined(separator: "\n") + "\n").path)
    XCTAssertEqual(records.count, 3_000)
    for length in [1, 4, 16, 18] {
      var expected: [Int] = []
      var previous: String?
      for r in 0 ..< 3_000 {
        let key = String(records.record(at: r).prefix(length))
        if key != previous { expected.append(r) }
        previous = key
        XCTAssertEqual(records.prefix(at: r, length: length), key, "record \(r)")
      }
      let first = records.sectionStarts(in: 0 ..< 1_500, length: length, after: nil)
      let second = records.sectionStarts(in: 1_500 ..< 3_000, length: length, after: first.last)
      XCTAssertEqual(first.starts + second.starts, expected, "length \(length)")
      XCTAssertEqual(second.last, Array(String(records.record(at: 2_999).prefix(length)).utf8))
    }
  }

  /// `--sections` on a file that grows, is searched and is truncated: new
  /// records join the last section or open a new one, `/text` lands just
  /// under the pinned header, and a truncation rebuilds the sections.
  func testSectionsFollowSearchAndTruncation() throws {
    let lines = (0 ..< 300).map { "10:0\($0 / 100) line \($0)" }
    let url = try file(lines.joined(separator: "\n") + "\n")
    var v = try Viewer(source: FileRecords(path: url.path), columns: 40, rows: 6, sections: 5)
    XCTAssertEqual(v.layout.count, 300 + 3)
    var screen = v.perform(script: "/line 150\n")
    XCTAssertTrue(screen[0].hasPrefix("── 10:01 "), screen[0])
    XCTAssertTrue(screen[1].hasPrefix("10:01 line 150"), screen[1])
    XCTAssertEqual(v.topRecord, 150)
    // Appended: two more of the last minute, then a new one.
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("10:02 line 300\n10:02 line 301\n10:03 line 302\n".utf8))
    try handle.close()
    screen = v.perform(script: "F<tick 1>")
    XCTAssertEqual(v.recordsInLayout, 303)
    XCTAssertEqual(v.layout.count, 303 + 4, "one new header, for 10:03")
    XCTAssertTrue(screen[v.pageRows - 1].hasPrefix("10:03 line 302"), screen[v.pageRows - 1])
    XCTAssertTrue(screen[v.pageRows - 2].hasPrefix("── 10:03 "), screen[v.pageRows - 2])
    // Truncated and written again: sections from the new text.
    try Data("11:00 a\n11:00 b\n11:01 c\n".utf8).write(to: url)
    screen = v.perform(script: "F<tick 1>")
    XCTAssertEqual(v.recordsInLayout, 3)
    XCTAssertEqual(v.layout.count, 3 + 2)
    XCTAssertEqual((0 ..< v.layout.count).map { v.layout.role(at: $0) },
                   [.sectionHeader, .row, .row, .sectionHeader, .row])
  }
}

/// A seeded generator (this test target does not depend on the test support module).
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
