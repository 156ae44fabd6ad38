import Foundation

/// Where the viewer's records come from: a file (one record per line) or a
/// generated log stream. Records are numbered from 0 and only ever appended.
public protocol RecordSource {
  /// The number of records.
  var count: Int { get }
  /// The text of record `index`.
  func record(at index: Int) -> String
  /// Records that arrived since the last call (a growing file, a live
  /// stream); returns how many were appended.
  mutating func poll() -> Int
}

/// The lines of a text file, read into memory once and re-read from the
/// last known end when `poll()` is called (for `F`, like `tail -f`).
public struct FileRecords: RecordSource {
  public let path: String
  var lines: [Substring] = []
  var text: String = ""
  var offset: UInt64 = 0
  var partial = ""

  public init(path: String) throws {
    self.path = path
    _ = poll()
  }

  public var count: Int { lines.count }
  public func record(at index: Int) -> String { String(lines[index]) }

  public mutating func poll() -> Int {
    guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
    defer { try? handle.close() }
    try? handle.seek(toOffset: offset)
    let data = handle.readDataToEndOfFile()
    guard !data.isEmpty else { return 0 }
    offset += UInt64(data.count)
    let chunk = partial + String(decoding: data, as: UTF8.self)
    var pieces = chunk.split(separator: "\n", omittingEmptySubsequences: false)
    partial = String(pieces.removeLast())  // an unfinished last line waits for its newline
    let before = lines.count
    lines.append(contentsOf: pieces.map { Substring($0.replacingOccurrences(of: "\r", with: "")) })
    return lines.count - before
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
    let stamp = String(format: "2026-11-22T%02d:%02d:%02d.%03dZ", (seconds / 3600) % 24, (seconds / 60) % 60,
                       seconds % 60, milliseconds)
    let level = Self.levels[next() % Self.levels.count]
    var text = "\(stamp) \(level) [worker-\(next() % 16)] #\(index + 1)"
    let words = next() % 100 < 3 ? 150 + next() % 300 : 3 + next() % 40  // now and then a very long record
    for _ in 0 ..< words { text += " " + Self.words[next() % Self.words.count] }
    return text
  }

  public mutating func poll() -> Int {
    count += arrivalsPerPoll
    return arrivalsPerPoll
  }
}
