import Foundation

/// Why bytes are not a `LayoutSnapshot` (`LayoutSnapshot(encoded:)`).
public enum LayoutSnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The bytes end before the snapshot does; `offset` is where more were needed.
  case truncated(offset: Int)
  /// The bytes do not start with a snapshot's mark (`LZSS`).
  case notASnapshot
  /// A snapshot of a format version this build does not read.
  case unsupportedVersion(UInt8)
  /// A value no snapshot holds (an extent out of range, a policy that does
  /// not exist, bytes after the end), at `offset`.
  case corrupt(String, offset: Int)

  /// A sentence naming the problem. - Complexity: O(1).
  public var description: String {
    switch self {
    case .truncated(let offset): "snapshot truncated: more bytes needed at offset \(offset)"
    case .notASnapshot: "not a layout snapshot (no LZSS mark)"
    case .unsupportedVersion(let v): "layout snapshot format version \(v) is not supported (this build reads 1 to 6)"
    case .corrupt(let what, let offset): "corrupt layout snapshot at offset \(offset): \(what)"
    }
  }
}

/// An id with a compact binary form, so a `LayoutSnapshot` of it has one
/// (`encoded()`, `init(encoded:)`). Integers (8, 16, 32, 64 bits, little
/// endian), `String` (a 32-bit length and UTF-8) and `UUID` (16 bytes)
/// conform; conform your own id type by writing and reading its bytes. An
/// id type that is only `Codable` has a binary form too, a little larger
/// (each id in a tagged form of its `Codable` encoding).
public protocol LayoutSnapshotID: Hashable, Sendable {
  /// Appends the id's bytes.
  /// - Complexity: O(size of the id).
  func appendSnapshotBytes(to bytes: inout [UInt8])
  /// Reads an id at `offset` and moves `offset` past it.
  /// - Throws: `LayoutSnapshotError.truncated` when the bytes end first,
  ///   `.corrupt` for bytes no id has.
  /// - Complexity: O(size of the id).
  init(snapshotBytes bytes: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError)
}

extension LayoutSnapshotID where Self: FixedWidthInteger {
  /// Appends the integer, little endian.
  /// - Complexity: O(1).
  @inlinable
  public func appendSnapshotBytes(to bytes: inout [UInt8]) {
    // Byte by byte: each append inlines to a store (appending a raw buffer
    // took 100 ns a call).
    for shift in stride(from: 0, to: Self.bitWidth, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: self >> shift))
    }
  }

  /// Reads a little-endian integer.
  /// - Complexity: O(1).
  @inlinable
  public init(snapshotBytes bytes: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) {
    let size = MemoryLayout<Self>.size
    guard offset + size <= bytes.count else { throw .truncated(offset: offset) }
    self.init(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Self.self))
    offset += size
  }
}

extension Int: LayoutSnapshotID {}
extension Int64: LayoutSnapshotID {}
extension Int32: LayoutSnapshotID {}
extension Int16: LayoutSnapshotID {}
extension UInt: LayoutSnapshotID {}
extension UInt64: LayoutSnapshotID {}
extension UInt32: LayoutSnapshotID {}
extension UInt16: LayoutSnapshotID {}
extension Int8: LayoutSnapshotID {}
extension UInt8: LayoutSnapshotID {}

extension String: LayoutSnapshotID {
  /// Appends a 32-bit length and the UTF-8 bytes.
  /// - Complexity: O(length).
  public func appendSnapshotBytes(to bytes: inout [UInt8]) {
    var utf8 = self
    utf8.withUTF8 { b in
      UInt32(truncatingIfNeeded: b.count).appendSnapshotBytes(to: &bytes)
      bytes.append(contentsOf: b)
    }
  }

  /// Reads a 32-bit length and that many UTF-8 bytes.
  /// - Complexity: O(length).
  public init(snapshotBytes bytes: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) {
    let start = offset
    let count = Int(try UInt32(snapshotBytes: bytes, offset: &offset))
    guard count <= bytes.count - offset else { throw .truncated(offset: offset) }
    guard let s = String(validating: UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + count]), as: UTF8.self) else {
      throw .corrupt("an id that is not UTF-8", offset: start)
    }
    self = s
    offset += count
  }
}

extension UUID: LayoutSnapshotID {
  /// Appends the 16 bytes.
  /// - Complexity: O(1).
  public func appendSnapshotBytes(to bytes: inout [UInt8]) {
    var u = uuid
    withUnsafeBytes(of: &u) { bytes.append(contentsOf: $0) }
  }

  /// Reads 16 bytes.
  /// - Complexity: O(1).
  public init(snapshotBytes bytes: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) {
    guard offset + 16 <= bytes.count else { throw .truncated(offset: offset) }
    var u: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + 16])) }
    self.init(uuid: u)
    offset += 16
  }
}

extension LayoutSnapshot where ID: LayoutSnapshotID {
  /// The snapshot's compact binary form (SPEC C1): per entry the id's
  /// bytes plus 4 (a measured extent or an own estimate, in 1/256 pt) or
  /// plus 1 (a kind) or plus 2 (a masonry row's lane and its section's
  /// lane count) or plus 9 and 4 + k a run (a masonry section: its row
  /// count, lane count k and runs), after a header of the kinds' settings
  /// and the place.
  /// 100k measured `Int` ids take 1.2 MB. A snapshot without masonry lanes
  /// is written in format 1, which builds from before lanes read too;
  /// with masonry sections in format 5 (format 1, a part of lanes, and one
  /// of sections at the end); with lanes only (a snapshot of format 2 read
  /// and written again), in format 2.
  /// - Complexity: O(m) for m entries.
  @inlinable
  public func encoded() -> Data {
    _encoded(using: _NativeIDCoder())
  }

  /// Reads a snapshot from `encoded()`'s bytes.
  /// - Throws: `LayoutSnapshotError`: `.truncated` when the bytes end
  ///   early, `.notASnapshot`, `.unsupportedVersion`, or `.corrupt` for a
  ///   value no snapshot holds: an extent, estimate or distance out of
  ///   range, an anchor that is not finite, a policy that does not exist,
  ///   a kind's settings given twice, a kind entry of kind 0, a lane not
  ///   below its count, a masonry section of no rows or no runs, runs out
  ///   of order or past the section's rows, a row named twice among the
  ///   measured rows, the own estimates, the kinds, the masonry lanes or
  ///   the masonry sections' first rows, or bytes after the end.
  ///   Never traps on any bytes.
  /// - Complexity: O(m) expected for m entries (repeats are found by
  ///   hashing the ids).
  @inlinable
  public init(encoded data: Data) throws(LayoutSnapshotError) {
    try self.init(_encoded: data, using: _NativeIDCoder())
  }
}

extension LayoutSnapshot {
  /// `encoded()` with the ids written by `coder`.
  /// - Complexity: O(m) for m entries.
  @inlinable
  internal func _encoded<Coder: _SnapshotIDCoder>(using coder: Coder) -> Data where Coder.ID == ID {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64 + entryCount * (MemoryLayout<ID>.size + 5))
    bytes.append(contentsOf: Array("LZSS".utf8))
    // The format: 1 (2 with lanes, 5 with masonry sections) for ids in
    // their own bytes, 3 (4, 6) for ids in their `Codable` form.
    let sections = !masonrySections.isEmpty
    bytes.append(sections ? Coder.sectionsFormat : Coder.formatBase &+ (_laneIDs.isEmpty ? 1 : 2))
    UInt16(kindSettings.count).appendSnapshotBytes(to: &bytes)
    for s in kindSettings {
      bytes.append(s.kind)
      bytes.append(s.policy == .meanOfMeasured ? 1 : 0)
      let units = s.estimate.flatMap(_FixedPoint.extentUnits).map { UInt32(truncatingIfNeeded: $0) } ?? .max
      units.appendSnapshotBytes(to: &bytes)
    }
    if let place {
      bytes.append(1)
      coder.append(place.id, to: &bytes)
      _FixedPoint.units(place.distance).appendSnapshotBytes(to: &bytes)
      Double(place.anchor.x).bitPattern.appendSnapshotBytes(to: &bytes)
      Double(place.anchor.y).bitPattern.appendSnapshotBytes(to: &bytes)
    } else {
      bytes.append(0)
    }
    UInt32(_measuredIDs.count).appendSnapshotBytes(to: &bytes)
    for (id, units) in zip(_measuredIDs, _measuredUnits) {
      coder.append(id, to: &bytes)
      UInt32(bitPattern: units).appendSnapshotBytes(to: &bytes)
    }
    UInt32(_ownIDs.count).appendSnapshotBytes(to: &bytes)
    for (id, units) in zip(_ownIDs, _ownUnits) {
      coder.append(id, to: &bytes)
      UInt32(bitPattern: units).appendSnapshotBytes(to: &bytes)
    }
    UInt32(_kindIDs.count).appendSnapshotBytes(to: &bytes)
    for (id, kind) in zip(_kindIDs, _kinds) {
      coder.append(id, to: &bytes)
      bytes.append(kind)
    }
    if sections || !_laneIDs.isEmpty {
      UInt32(_laneIDs.count).appendSnapshotBytes(to: &bytes)
      for r in 0 ..< _laneIDs.count {
        coder.append(_laneIDs[r], to: &bytes)
        bytes.append(_lanes[r])
        bytes.append(_laneCountsLessOne[r])
      }
    }
    if sections {
      UInt32(masonrySections.count).appendSnapshotBytes(to: &bytes)
      for section in masonrySections {
        coder.append(section.firstID, to: &bytes)
        UInt32(section.rowCount).appendSnapshotBytes(to: &bytes)
        bytes.append(UInt8(truncatingIfNeeded: section.laneCount &- 1))
        UInt32(section.runs.count).appendSnapshotBytes(to: &bytes)
        for run in section.runs {
          UInt32(run.start).appendSnapshotBytes(to: &bytes)
          for lane in run.lanes { bytes.append(UInt8(truncatingIfNeeded: lane)) }
        }
      }
    }
    return Data(bytes)
  }

  /// `init(encoded:)` with the ids read by `coder`.
  /// - Complexity: O(m) for m entries.
  @inlinable
  internal init<Coder: _SnapshotIDCoder>(_encoded data: Data, using coder: Coder) throws(LayoutSnapshotError)
  where Coder.ID == ID {
    let bytes = [UInt8](data)
    self = try bytes.withUnsafeBytes { b in
      Result { () throws(LayoutSnapshotError) in try Self._decode(b, using: coder) }
    }.get()
  }

  /// The snapshot `b` holds (see `init(encoded:)`).
  @inlinable
  internal static func _decode<Coder: _SnapshotIDCoder>(_ b: UnsafeRawBufferPointer, using coder: Coder)
    throws(LayoutSnapshotError) -> LayoutSnapshot where Coder.ID == ID
  {
    var result = LayoutSnapshot()
    do {
      var offset = 0
      // A prefix of the mark (the mark itself included) is a truncated snapshot.
      guard b.count >= 5 else { throw "LZSS".utf8.starts(with: b) ? .truncated(offset: b.count) : .notASnapshot }
      guard Array(b[0 ..< 4]) == Array("LZSS".utf8) else { throw .notASnapshot }
      let version = b[4]
      guard version >= 1 && version <= 6 else { throw .unsupportedVersion(version) }
      let sections = version >= 5
      guard sections ? version == Coder.sectionsFormat : version > Coder.formatBase && version <= Coder.formatBase &+ 2 else {
        // (Unreachable for an id type that is both: its reader takes either form.)
        throw .corrupt(Coder.formatBase == 0 ? "ids written in their Codable form, read as LayoutSnapshotIDs"
                                             : "ids written as LayoutSnapshotIDs, read in their Codable form", offset: 4)
      }
      offset = 5
      func byte() throws(LayoutSnapshotError) -> UInt8 {
        guard offset < b.count else { throw .truncated(offset: offset) }
        defer { offset += 1 }
        return b[offset]
      }
      func extent(_ what: String) throws(LayoutSnapshotError) -> Int32 {
        let at = offset
        let raw = try UInt32(snapshotBytes: b, offset: &offset)
        guard raw <= UInt32(Int32.max) else { throw .corrupt("\(what) out of range", offset: at) }
        return Int32(raw)
      }
      /// A count of entries of at least `size` bytes each, checked against
      /// the bytes left (so a corrupt count allocates nothing).
      func count(entrySize size: Int) throws(LayoutSnapshotError) -> Int {
        let n = Int(try UInt32(snapshotBytes: b, offset: &offset))
        guard n <= (b.count - offset) / Swift.max(1, size) else { throw .truncated(offset: offset) }
        return n
      }
      let settings = Int(try UInt16(snapshotBytes: b, offset: &offset))
      guard settings <= 256 else { throw .corrupt("\(settings) kinds", offset: offset - 2) }
      var kindsSeen = _KindSet()
      for _ in 0 ..< settings {
        let kind = try byte()
        guard kindsSeen.insert(kind) else { throw .corrupt("kind \(kind)'s settings repeated", offset: offset - 1) }
        let at = offset
        let policy = try byte()
        guard policy <= 1 else { throw .corrupt("estimate policy \(policy)", offset: at) }
        let raw = try UInt32(snapshotBytes: b, offset: &offset)
        guard raw == .max || raw <= UInt32(Int32.max) else { throw .corrupt("estimate out of range", offset: offset - 4) }
        result.kindSettings.append(KindSettings(kind: kind, estimate: raw == .max ? nil : _FixedPoint.points(Int64(raw)),
                                         policy: policy == 1 ? .meanOfMeasured : .fixed))
      }
      let hasPlace = try byte()
      guard hasPlace <= 1 else { throw .corrupt("place flag \(hasPlace)", offset: offset - 1) }
      if hasPlace == 1 {
        let id = try coder.read(b, offset: &offset)
        let at = offset
        let distance = try Int64(snapshotBytes: b, offset: &offset)
        guard abs(distance) <= _FixedPoint.maxUnits else { throw .corrupt("distance out of range", offset: at) }
        let x = Double(bitPattern: try UInt64(snapshotBytes: b, offset: &offset))
        let y = Double(bitPattern: try UInt64(snapshotBytes: b, offset: &offset))
        guard x.isFinite && y.isFinite else { throw .corrupt("an anchor that is not finite", offset: offset - 16) }
        result.place = Place(id: id, distance: _FixedPoint.points(distance), anchor: UnitPoint(x: CGFloat(x), y: CGFloat(y)))
      }
      // Each section names a row at most once (a snapshot holds one entry
      // a row in each): a repeated id is a corrupt encoding, not a choice
      // between its entries.
      var seen = Set<ID>()
      func entryID(_ what: String) throws(LayoutSnapshotError) -> ID {
        let at = offset
        let id = try coder.read(b, offset: &offset)
        guard seen.insert(id).inserted else { throw .corrupt("a row repeated among the \(what)", offset: at) }
        return id
      }
      let measured = try count(entrySize: 5)
      result._measuredIDs.reserveCapacity(measured)
      result._measuredUnits.reserveCapacity(measured)
      seen.reserveCapacity(measured)
      for _ in 0 ..< measured {
        result._measuredIDs.append(try entryID("measured rows"))
        result._measuredUnits.append(try extent("measured extent"))
      }
      let own = try count(entrySize: 5)
      seen.removeAll(keepingCapacity: true)
      for _ in 0 ..< own {
        result._ownIDs.append(try entryID("own estimates"))
        result._ownUnits.append(try extent("own estimate"))
      }
      let kinded = try count(entrySize: 2)
      seen.removeAll(keepingCapacity: true)
      for _ in 0 ..< kinded {
        result._kindIDs.append(try entryID("kinds"))
        let at = offset
        let kind = try byte()
        guard kind != 0 else { throw .corrupt("a kind entry of kind 0 (kind 0 is every other row's)", offset: at) }
        result._kinds.append(kind)
      }
      if sections || version == Coder.formatBase &+ 2 {
        let laned = try count(entrySize: 3)
        seen.removeAll(keepingCapacity: true)
        seen.reserveCapacity(laned)
        for _ in 0 ..< laned {
          let id = try entryID("masonry lanes")
          let at = offset
          let lane = try byte()
          let countLessOne = try byte()
          guard lane <= countLessOne else { throw .corrupt("lane \(lane) of \(Int(countLessOne) + 1)", offset: at) }
          result._appendLane(of: id, lane: lane, countLessOne: countLessOne)
        }
      }
      if sections {
        let records = try count(entrySize: 14)
        seen.removeAll(keepingCapacity: true)
        for _ in 0 ..< records {
          let id = try entryID("masonry sections")
          let at = offset
          let rawRows = try UInt32(snapshotBytes: b, offset: &offset)
          guard rawRows >= 1, let rows = Int(exactly: rawRows) else {
            throw .corrupt("a masonry section of \(rawRows) rows", offset: at)
          }
          let k = Int(try byte()) &+ 1
          let runsAt = offset
          let runCount = try count(entrySize: 4 &+ k)
          guard runCount >= 1 else { throw .corrupt("a masonry section without runs", offset: runsAt) }
          var runs: [MasonrySection.Run] = []
          runs.reserveCapacity(runCount)
          for r in 0 ..< runCount {
            let startAt = offset
            let rawStart = try UInt32(snapshotBytes: b, offset: &offset)
            let start = Int(truncatingIfNeeded: rawStart)
            guard rawStart < rawRows, r == 0 ? start == 0 : start > runs[r &- 1].start else {
              throw .corrupt("a masonry run at row \(start) of \(rows), out of order", offset: startAt)
            }
            var lanes: [Int] = []
            lanes.reserveCapacity(k)
            for _ in 0 ..< k {
              let lane = Int(try byte())
              guard lane < k else { throw .corrupt("lane \(lane) of \(k) in a masonry run", offset: offset &- 1) }
              lanes.append(lane)
            }
            runs.append(MasonrySection.Run(start: start, lanes: lanes))
          }
          result._masonrySections.append(MasonrySection(firstID: id, rowCount: rows, laneCount: k, runs: runs))
        }
      }
      guard offset == b.count else { throw .corrupt("\(b.count - offset) bytes after the end", offset: offset) }
    }
    return result
  }
}

/// The kinds seen so far, 256 bits (a decoder's check that no kind's
/// settings repeat).
@usableFromInline @frozen
internal struct _KindSet {
  @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

  @inlinable init() {}

  /// Adds `kind`; false when it was there.
  /// - Complexity: O(1).
  @inlinable
  mutating func insert(_ kind: UInt8) -> Bool {
    let bit = UInt64(1) << (kind & 63)
    return withUnsafeMutableBytes(of: &words) { raw in
      let w = raw.bindMemory(to: UInt64.self)
      let i = Int(kind >> 6)
      guard w[i] & bit == 0 else { return false }
      w[i] |= bit
      return true
    }
  }
}

/// How a snapshot's binary form writes and reads its ids: by the id's own
/// bytes (`LayoutSnapshotID`, `_NativeIDCoder`) or by its `Codable` form
/// (`_CodableIDCoder`).
@usableFromInline
internal protocol _SnapshotIDCoder {
  associatedtype ID
  /// The format number less 1 for a snapshot without lanes: 0 for ids in
  /// their own bytes (formats 1 and 2), 2 in their `Codable` form (3 and 4).
  static var formatBase: UInt8 { get }
  /// The format with masonry sections: 5 for ids in their own bytes, 6 in
  /// their `Codable` form.
  static var sectionsFormat: UInt8 { get }
  /// Appends `id`'s bytes.
  func append(_ id: ID, to bytes: inout [UInt8])
  /// Reads an id at `offset` and moves `offset` past it.
  func read(_ bytes: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) -> ID
}

/// Ids written as `LayoutSnapshotID` says.
@usableFromInline @frozen
internal struct _NativeIDCoder<ID: LayoutSnapshotID>: _SnapshotIDCoder {
  @inlinable init() {}
  @inlinable static var formatBase: UInt8 { 0 }
  @inlinable static var sectionsFormat: UInt8 { 5 }
  @inlinable @inline(__always)
  func append(_ id: ID, to bytes: inout [UInt8]) { id.appendSnapshotBytes(to: &bytes) }
  @inlinable @inline(__always)
  func read(_ bytes: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) -> ID {
    try ID(snapshotBytes: bytes, offset: &offset)
  }
}
