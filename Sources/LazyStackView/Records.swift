import Foundation

/// Where the viewer's records come from: a file (one record per line) or a
/// generated log stream. Records are numbered from 0 and only ever appended
/// (a file that shrinks is read again from the start).
public protocol RecordSource {
  /// The number of records known so far.
  var count: Int { get }
  /// The text of record `index` (what the screen shows).
  func record(at index: Int) -> String
  /// Records that arrived since the last call (a growing file, a live
  /// stream, or more of a file still being indexed); returns how many were
  /// appended. A source that shrank (a truncated file) has a smaller
  /// `count` afterwards.
  mutating func poll() -> Int
  /// Whether every record is known (a file still being indexed: false).
  var isComplete: Bool { get }
  /// How much of the source is indexed, 0...1.
  var progress: Double { get }
  /// Indexes more of the source for about `seconds`; returns the number of
  /// records appended.
  mutating func index(for seconds: Double) -> Int
  /// Indexes until at least `count` records are known, or all of them.
  mutating func index(upTo count: Int) -> Int
  /// The first record at or after `start`, wrapping around to the start,
  /// that contains `text`; `nil` if none does. May index more records.
  mutating func find(_ text: String, from start: Int) -> Int?
  /// A record whose text changed since it was last read (an unfinished last
  /// line that grew), once; `nil` if none.
  mutating func takeChangedRecord() -> Int?
  /// Something to tell the user (a truncated file reloaded), once.
  mutating func takeNotice() -> String?
  /// The first `length` characters of record `index` (what `--sections`
  /// groups records by).
  func prefix(at index: Int, length: Int) -> String
  /// The records of `records` whose first `length` characters differ from
  /// the record's before them (the first one compared with `previous`, the
  /// UTF-8 of the prefix before the range; `nil`: a section starts there),
  /// and the UTF-8 of the last record's prefix.
  func sectionStarts(in records: Range<Int>, length: Int, after previous: [UInt8]?) -> (starts: [Int], last: [UInt8]?)
}

extension RecordSource {
  public var isComplete: Bool { true }
  public var progress: Double { 1 }
  public mutating func index(for seconds: Double) -> Int { 0 }
  public mutating func index(upTo count: Int) -> Int { 0 }
  public mutating func takeChangedRecord() -> Int? { nil }
  public mutating func takeNotice() -> String? { nil }
  public func prefix(at index: Int, length: Int) -> String { String(record(at: index).prefix(length)) }

  /// One `prefix(at:length:)` a record.
  public func sectionStarts(in records: Range<Int>, length: Int,
                            after previous: [UInt8]?) -> (starts: [Int], last: [UInt8]?) {
    var starts: [Int] = []
    var last = previous
    for record in records {
      let key = Array(prefix(at: record, length: length).utf8)
      if key != last { starts.append(record) }
      last = key
    }
    return (starts, last)
  }

  /// Searches the records' text, one record at a time.
  public mutating func find(_ text: String, from start: Int) -> Int? {
    let n = count
    guard !text.isEmpty, n > 0 else { return nil }
    for k in 0 ..< n {
      let i = (start + k) % n
      if record(at: i).contains(text) { return i }
    }
    return nil
  }
}

/// A deterministic stream of log records of varied length, computed from the
/// record number (nothing is stored, so 10M records cost nothing).
public struct GeneratedRecords: RecordSource {
  public private(set) var count: Int
  /// Records appended per `poll()` (the "live" stream in follow mode).
  public var arrivalsPerPoll: Int

  public init(count: Int, arrivalsPerPoll: Int = 3) {
    self.count = count
    self.arrivalsPerPoll = arrivalsPerPoll
  }

  static let levels = ["INFO ", "INFO ", "INFO ", "DEBUG", "WARN ", "ERROR"]
  static let words = ["request", "handled", "cache", "miss", "user", "session", "payload", "retry", "shard",
                      "latency", "queue", "flushed", "token", "refresh", "upstream", "timeout", "index", "rebuilt"]

  public func record(at index: Int) -> String {
    // Offset before mixing: record 0 must not start the mixer at zero
    // (which stays zero: one word repeated).
    var h = (UInt64(truncatingIfNeeded: index) &+ 0x632B_E59B_D9B4_E019) &* 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      h ^= h >> 31; h &*= 0xBF58_476D_1CE4_E5B9; h ^= h >> 27
      return Int(truncatingIfNeeded: h >> 1)
    }
    // Seven records a second, their milliseconds rising within it.
    let seconds = index / 7
    let milliseconds = (index % 7) * 142 + Int(truncatingIfNeeded: h >> 57)  // 0 ... 979
    let stamp = Self.stamp(seconds: seconds, milliseconds: milliseconds)
    let level = Self.levels[next() % Self.levels.count]
    var text = "\(stamp) \(level) [worker-\(next() % 16)] #\(index + 1)"
    let words = next() % 100 < 3 ? 150 + next() % 300 : 3 + next() % 40  // now and then a very long record
    for _ in 0 ..< words { text += " " + Self.words[next() % Self.words.count] }
    return text
  }

  /// "2026-11-22THH:MM:SS.mmmZ", built without `String(format:)` (the
  /// section scan reads it for every record).
  static func stamp(seconds: Int, milliseconds: Int) -> String {
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    let ms = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
    return "2026-11-22T" + two((seconds / 3600) % 24) + ":" + two((seconds / 60) % 60) + ":" + two(seconds % 60)
      + "." + ms + "Z"
  }

  /// The timestamp alone for prefixes within it (no words are generated).
  public func prefix(at index: Int, length: Int) -> String {
    guard length <= 16 else { return String(record(at: index).prefix(length)) }
    // Minutes and coarser do not depend on the milliseconds.
    return String(Self.stamp(seconds: index / 7, milliseconds: 0).prefix(length))
  }

  public mutating func poll() -> Int {
    count += arrivalsPerPoll
    return arrivalsPerPoll
  }
}
