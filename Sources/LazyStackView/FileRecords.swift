#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The lines of a text file, one record per line, indexed by a byte scan the
/// way `less` reads a file: nothing is decoded but the records on screen.
///
/// - The index is the byte offset where each record starts (8 bytes a
///   record), found by `memchr` over 4 MiB positional reads (`pread`) into
///   one reused buffer. Reads, not a memory map: a mapped file's touched
///   pages count as resident memory (a 1.3 GB scan would be 1.3 GB of RSS),
///   and touching a mapped page that a truncation removed kills the process
///   with SIGBUS; a read past the end just comes back short.
/// - Indexing goes in slices (`index(for:)`, `index(upTo:)`), so a viewer
///   shows its first frame before a multi-gigabyte file is scanned.
/// - `poll()` reads only the bytes appended since the last look (`F`); a file
///   that got shorter (truncated, rotated in place) is indexed again from
///   the start, with a notice.
/// - Records: `\n` ends a record and a `\r` before it is dropped (CRLF);
///   bytes after the last newline are a record once the scan is complete;
///   invalid UTF-8 shows as U+FFFD; a record longer than 1 MiB shows its
///   first MiB and how many bytes it left out.
public struct FileRecords: RecordSource {
  /// Owns the file descriptor (closed when the last copy goes).
  final class Descriptor: @unchecked Sendable {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    deinit { close(fd) }
  }

  public let path: String
  let file: Descriptor
  /// `starts[i]`: the byte offset of record i; the last element is where
  /// the record after the last newline starts.
  var starts: [Int] = [0]
  /// Every byte before this offset is indexed.
  public private(set) var scanned = 0
  /// The file's size when it was last looked at.
  public private(set) var fileSize = 0
  /// The bytes after the last newline are a record (the scan is complete).
  var tailIsRecord = false
  var changedRecord: Int?
  var notice: String?
  var buffer: [UInt8]

  /// The longest record shown in full.
  public static let maxRecordBytes = 1 << 20
  static let chunkBytes = 4 << 20

  /// Opens the file and indexes its first slice (about 50 ms of scanning).
  /// - Throws: `CocoaError(.fileReadNoPermission)`-style errors if it cannot be opened.
  public init(path: String, firstSlice seconds: Double = 0.05) throws {
    self.path = path
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
    file = Descriptor(fd)
    buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
    fileSize = currentSize()
    _ = index(for: seconds)
  }

  func currentSize() -> Int {
    var info = stat()
    guard fstat(file.fd, &info) == 0 else { return fileSize }
    return Int(info.st_size)
  }

  public var count: Int { starts.count - 1 + (tailIsRecord ? 1 : 0) }
  public var isComplete: Bool { scanned >= fileSize }
  public var progress: Double { fileSize == 0 ? 1 : min(1, Double(scanned) / Double(fileSize)) }
  /// Bytes held by the index (the record offsets).
  public var indexBytes: Int { starts.capacity * MemoryLayout<Int>.stride }

  /// Scans the next chunk of the file; returns false at the end (or when
  /// the file came back shorter than its size said).
  mutating func scanChunk() -> Bool {
    guard scanned < fileSize else { return false }
    let want = min(Self.chunkBytes, fileSize - scanned)
    let base = scanned
    let got = buffer.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, want, off_t(base)) }
    guard got > 0 else {
      fileSize = scanned  // shorter than it said: truncated under us
      return false
    }
    buffer.withUnsafeBytes { raw in
      let bytes = raw.baseAddress!
      var offset = 0
      while offset < got, let hit = memchr(bytes + offset, 0x0A, got - offset) {
        let position = bytes.distance(to: UnsafeRawPointer(hit))
        starts.append(base + position + 1)
        offset = position + 1
      }
    }
    scanned += got
    if base == 0 && got < fileSize {
      // Room for the whole file's records at the first chunk's density (+10 %),
      // so the index does not double past what it needs.
      let expected = Int(Double(starts.count) / Double(got) * Double(fileSize) * 1.1)
      starts.reserveCapacity(min(expected, fileSize / 2 + 2))
    }
    return true
  }

  /// Runs `scan` (which calls `scanChunk()`) with the unfinished last line
  /// not counted as a record, then counts it again once the scan is
  /// complete; a tail record that read more bytes is reported as changed.
  /// Returns the number of records appended.
  @discardableResult
  mutating func scanning(_ scan: (inout FileRecords) -> Void) -> Int {
    let before = count
    let (hadTail, scannedBefore) = (tailIsRecord, scanned)
    tailIsRecord = false
    scan(&self)
    tailIsRecord = isComplete && starts.last! < fileSize
    if hadTail && scanned > scannedBefore { changedRecord = record(startingAtOrBefore: scannedBefore) }
    return count - before
  }

  /// The index of the record that was the unfinished tail when `scanned` was
  /// `offset`: the last record starting at or before it.
  func record(startingAtOrBefore offset: Int) -> Int {
    var low = 0
    var high = starts.count
    while low < high {
      let middle = (low + high) / 2
      if starts[middle] <= offset { low = middle + 1 } else { high = middle }
    }
    return max(0, low - 1)
  }

  public mutating func index(for seconds: Double) -> Int {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
    return scanning { records in
      while records.scanChunk() && DispatchTime.now().uptimeNanoseconds < deadline {}
    }
  }

  public mutating func index(upTo wanted: Int) -> Int {
    scanning { records in
      while records.starts.count - 1 < wanted, records.scanChunk() {}
    }
  }

  /// Indexes until byte `offset` is indexed (or the end).
  mutating func index(throughByte offset: Int) {
    scanning { records in
      while records.scanned <= offset, records.scanChunk() {}
    }
  }

  public mutating func poll() -> Int {
    let size = currentSize()
    if size < fileSize || size < starts.last! {
      // Truncated (or rotated in place): index it again from the start.
      starts = [0]
      scanned = 0
      tailIsRecord = false
      notice = "file truncated: reloaded"
    }
    fileSize = size
    return index(for: 0.05)
  }

  public mutating func takeChangedRecord() -> Int? {
    defer { changedRecord = nil }
    return changedRecord
  }

  public mutating func takeNotice() -> String? {
    defer { notice = nil }
    return notice
  }

  /// The bytes `[start, end)` of the file (fewer if it is shorter now).
  func bytes(_ start: Int, _ end: Int) -> [UInt8] {
    guard end > start else { return [] }
    var result = [UInt8](repeating: 0, count: end - start)
    let got = result.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, end - start, off_t(start)) }
    result.removeLast(result.count - max(0, got))
    return result
  }

  public func record(at index: Int) -> String {
    let start = starts[index]
    let terminated = index + 1 < starts.count
    let end = terminated ? starts[index + 1] - 1 : fileSize  // without its newline
    var length = end - start
    let shown = min(length, Self.maxRecordBytes)
    var data = bytes(start, start + shown)
    if length > 0, terminated || isComplete {
      // CRLF: the \r before the newline is not shown (read with the record,
      // unless the record is too long to show whole).
      let lastIsCR = shown == length ? data.count == length && data.last == 0x0D : bytes(end - 1, end) == [0x0D]
      if lastIsCR {
        length -= 1
        if data.count > length { data.removeLast() }
      }
    }
    var text = String(decoding: data, as: UTF8.self)
    if min(length, Self.maxRecordBytes) < length { text += " … [\(length - Self.maxRecordBytes) more bytes]" }
    return text
  }

  /// The prefixes of the records of `records` from their bytes, read in
  /// runs of about `chunkBytes` (one `pread` a run, not one a record, and
  /// no `String` a record): the first `length` bytes when they are ASCII,
  /// else the first `length` characters decoded.
  public func sectionStarts(in records: Range<Int>, length: Int,
                            after previous: [UInt8]?) -> (starts: [Int], last: [UInt8]?) {
    var result: [Int] = []
    var last = previous
    let window = max(1, length) * 4  // enough bytes for `length` characters
    var record = records.lowerBound
    while record < records.upperBound {
      // A run of records that fits one read (at least one record).
      let first = starts[record]
      var end = record + 1
      while end < records.upperBound && lineEnd(end) - first <= Self.chunkBytes { end += 1 }
      // One record alone (a line longer than a chunk): only its first bytes.
      let span = bytes(first, end - record == 1 ? min(lineEnd(record), first + window) : lineEnd(end - 1))
      span.withUnsafeBufferPointer { buffer in
        for r in record ..< end {
          let lower = starts[r] - first
          let upper = min(lineEnd(r) - first, lower + window, buffer.count)
          let line = UnsafeBufferPointer(rebasing: buffer[min(lower, buffer.count) ..< max(upper, min(lower, buffer.count))])
          let key = Self.prefixKey(line, length: length)
          if key.elementsEqual(last ?? []) && last != nil { continue }
          result.append(r)
          last = Array(key)
        }
      }
      record = end
    }
    return (result, last)
  }

  /// Where record `index` ends (its newline, or the end of the file).
  func lineEnd(_ index: Int) -> Int { index + 1 < starts.count ? starts[index + 1] - 1 : fileSize }

  /// The UTF-8 of the first `length` characters of a line's first bytes
  /// (a carriage return at the end left out).
  static func prefixKey(_ line: UnsafeBufferPointer<UInt8>, length: Int) -> ArraySlice<UInt8> {
    var n = 0
    while n < min(length, line.count) && line[n] < 0x80 && line[n] != 0x0D { n += 1 }
    if n == min(length, line.count) || (n < line.count && line[n] == 0x0D) {
      return ArraySlice(line[0 ..< n])  // ASCII: bytes are characters
    }
    var text = String(decoding: line, as: UTF8.self)
    if text.hasSuffix("\r") { text.removeLast() }
    return ArraySlice(text.prefix(length).utf8)
  }

  public func prefix(at index: Int, length: Int) -> String {
    let start = starts[index]
    let data = bytes(start, min(lineEnd(index), start + max(1, length) * 4))
    return data.withUnsafeBufferPointer { String(decoding: Self.prefixKey($0, length: length), as: UTF8.self) }
  }

  /// Searches the file's bytes (not decoded text) with `memmem`, from record
  /// `start` to the end, then from the beginning; indexes as far as the
  /// match to name its record.
  public mutating func find(_ text: String, from start: Int) -> Int? {
    let needle = Array(text.utf8)
    guard !needle.isEmpty, count > 0 else { return nil }
    let from = starts[min(start, starts.count - 1)]
    let size = currentSize()
    guard let hit = search(needle, from: from, to: size) ?? search(needle, from: 0, to: min(size, from + needle.count - 1))
    else { return nil }
    index(throughByte: hit)
    return min(record(startingAtOrBefore: hit), count - 1)
  }

  /// The offset of the first occurrence of `needle` in `haystack`: `memchr`
  /// finds each candidate first byte, `memcmp` checks the rest.
  static func firstMatch(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Int? {
    let m = needle.count
    guard m > 0, haystack.count >= m, let base = haystack.baseAddress, let first = needle.first else { return nil }
    var offset = 0
    let last = haystack.count - m  // the last offset a match can start at
    while offset <= last, let hit = memchr(base + offset, Int32(first), last - offset + 1) {
      let position = base.distance(to: UnsafeRawPointer(hit))
      if memcmp(hit, needle.baseAddress!, m) == 0 { return position }
      offset = position + 1
    }
    return nil
  }

  /// The offset of the first match of `needle` in bytes `[from, to)`.
  func search(_ needle: [UInt8], from: Int, to: Int) -> Int? {
    var position = from
    let overlap = needle.count - 1
    var chunk = [UInt8](repeating: 0, count: Self.chunkBytes + overlap)
    while position + needle.count <= to {
      let want = min(chunk.count, to - position)
      let got = chunk.withUnsafeMutableBytes { pread(file.fd, $0.baseAddress, want, off_t(position)) }
      guard got >= needle.count else { return nil }
      let found: Int? = chunk.withUnsafeBytes { haystack in
        needle.withUnsafeBytes { n in Self.firstMatch(n, in: UnsafeRawBufferPointer(rebasing: haystack[0 ..< got])) }
      }
      if let found { return position + found }
      position += got - overlap
    }
    return nil
  }
}
