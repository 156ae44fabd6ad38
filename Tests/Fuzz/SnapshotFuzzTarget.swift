// libFuzzer target for snapshot encodings (SPEC C1–C3): an input is one
// byte choosing a layout and a form, then a snapshot in that form:
//
//   byte 0 % 8   the layout restored into (`setups`: a list, kinds and own
//                estimates, pinned sections, a grid, masonry with sections,
//                a horizontal masonry of 3 lanes, an empty layout, a layout
//                of other ids than the snapshot's)
//   byte 0 / 8 % 3  the form: 0 binary with `Int` ids, 1 JSON (`Codable`),
//                2 binary with ids that are only `Codable` (tagged form)
//
// Bytes that do not decode must be a typed error (`LayoutSnapshotError`, or
// `DecodingError` for JSON). A snapshot that decodes must go through both
// encodings unchanged, and (`Int` ids) restore into the layout and the
// reference alike: everything observable compared after the restore, after
// a frame's measurements and a scroll, and after a snapshot of the result
// (which restores it into a fresh layout and compares that too).
//
// The mutator knows the format: most mutations decode the snapshot (without
// validating it), change its entries, ids, lanes, kinds, counts, settings or
// place, and encode it again (so a row named twice, a lane out of its
// count, a kind entry of kind 0 are all one step away); the rest overwrite,
// insert or erase bytes at any offset, or are libFuzzer's own.
//
// Built and run by Tests/Fuzz/run.sh (`--target snapshot`); its corpus of
// real snapshots of every setup and form is Tests/Fuzz/snapshot-corpus,
// written by `FUZZ_WRITE_CORPUS=DIR .build-fuzz/lazystack-snapshot-fuzz`.

import Foundation
@_spi(Testing) import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// An id type that is `Codable` only (not `LayoutSnapshotID`).
struct CodableID: Hashable, Sendable, Codable {
  var key: Int
  var name: String?
}

/// The layouts a snapshot is restored into, each a pair (layout and
/// reference), set up once.
let setups: [ModelPair] = {
  func pair(_ ids: [Int], axis: Axis = .vertical, _ ops: [LayoutOperation]) -> ModelPair {
    var p = try! ModelPair(ids: ids, estimate: 30, spacing: 2, axis: axis, insets: EdgeInsets(all: 3), blockCapacity: 6)
    for op in ops {
      if let problem = p.step(op) ?? p.difference() { fatalError("setup \(op): \(problem)") }
    }
    return p
  }
  let rows = Array(0 ..< 40)
  let viewport = LayoutOperation.laneViewport(CGSize(width: 240, height: 150))
  let measured: [LayoutOperation] = [.measureVisible(3), .userScroll(260), .measureVisible(4), .userScroll(180)]
  let masonry2 = SectionLayout.masonry(try! MasonryLayout(lanes: .fixed(2), laneSpacing: 4))
  let masonry3 = SectionLayout.masonry(try! MasonryLayout(lanes: .fixed(3)))
  let grid = SectionLayout.grid(try! GridLayout(lanes: .adaptive(minimum: 70), laneSpacing: 3, alignment: 0.5))
  return [
    pair(rows, [viewport] + measured),
    pair(rows, [viewport, .setKind(3, 1), .setKind(8, 2), .setKind(20, 1), .kindEstimate(1, 55), .kindPolicy(2, .meanOfMeasured),
                .ownEstimate(5, 80), .ownEstimate(30, 12)] + measured),
    pair(rows, [viewport, .setRole(0, .sectionHeader), .setRole(12, .sectionHeader), .setRole(25, .sectionFooter),
                .setRole(26, .sectionHeader), .pinnedViews([.sectionHeaders])] + measured),
    pair(rows, [viewport, .sectionLayout(grid), .setRole(18, .sectionHeader)] + measured),
    pair(rows, [viewport, .sectionLayout(masonry2), .setRole(10, .sectionHeader), .headerLayout(10, masonry3),
                .setRole(24, .sectionHeader), .headerLayout(24, .list), .setKind(4, 1)] + measured),
    pair(rows, axis: .horizontal, [viewport, .sectionLayout(masonry3)] + measured),
    pair([], [viewport]),
    pair(Array(20 ..< 60), [viewport, .sectionLayout(masonry2)] + measured),
  ]
}()

/// A layout of `CodableID`s, measured, kinded and scrolled.
let codableLayout: LazyStackLayout<CodableID> = {
  let ids = (0 ..< 12).map { CodableID(key: $0 * 977 - 3000, name: $0 % 3 == 0 ? nil : "r\($0)") }
  var layout = try! LazyStackLayout(ids: ids, estimatedExtent: 40)
  layout.viewportSize = CGSize(width: 100, height: 100)
  for (k, id) in ids.enumerated() where k % 2 == 0 { layout.setMeasuredExtent(CGFloat(10 + k), for: id) }
  layout.setKind(3, for: ids[4])
  layout.sectionLayout = .masonry(try! MasonryLayout(lanes: .fixed(2)))
  layout.userScroll(to: CGPoint(x: 0, y: 55))
  return layout
}()

enum Form: Int { case binary = 0, json = 1, codableBinary = 2 }

/// The input's layout and form.
func header(_ byte: UInt8) -> (setup: Int, form: Form) {
  (Int(byte % 8), Form(rawValue: Int(byte / 8) % 3)!)
}

/// `s` in `form` (ids of `CodableID` form are `Int`s as keys).
func encode(_ s: LayoutSnapshot<Int>, _ form: Form) -> [UInt8] {
  switch form {
  case .binary: return [UInt8](s.encoded())
  case .json: return (try? JSONEncoder().encode(s)).map { [UInt8]($0) } ?? []  // (JSON has no NaN)
  case .codableBinary: return [UInt8](s.map { CodableID(key: $0, name: $0 % 3 == 0 ? nil : "r") }.encoded())
  }
}

/// The snapshot `bytes` hold in `form`, decoded without a check of their
/// values (what the mutator edits); nil when they do not parse.
func parse(_ bytes: [UInt8], _ form: Form) -> LayoutSnapshot<Int>? {
  switch form {
  case .binary: return try? LayoutSnapshot<Int>._unchecked(encoded: Data(bytes))
  case .json: return try? JSONDecoder().decode(_UncheckedSnapshot.self, from: Data(bytes)).snapshot
  case .codableBinary: return (try? LayoutSnapshot<CodableID>._unchecked(encoded: Data(bytes)))?.map(\.key)
  }
}

extension LayoutSnapshot {
  /// The snapshot with every id mapped.
  func map<Other>(_ f: (ID) -> Other) -> LayoutSnapshot<Other> {
    var s = LayoutSnapshot<Other>()
    s._measuredIDs = _measuredIDs.map(f)
    s._measuredUnits = _measuredUnits
    s._ownIDs = _ownIDs.map(f)
    s._ownUnits = _ownUnits
    s._kindIDs = _kindIDs.map(f)
    s._kinds = _kinds
    s._laneIDs = _laneIDs.map(f)
    s._lanes = _lanes
    s._laneCountsLessOne = _laneCountsLessOne
    s._masonrySections = _masonrySections.map {
      .init(firstID: f($0.firstID), rowCount: $0.rowCount, laneCount: $0.laneCount,
            runs: $0.runs.map { .init(start: $0.start, lanes: $0.lanes) })
    }
    s.kindSettings = kindSettings.map { .init(kind: $0.kind, estimate: $0.estimate, policy: $0.policy) }
    s.place = place.map { .init(id: f($0.id), distance: $0.distance, anchor: $0.anchor) }
    return s
  }
}

/// A JSON snapshot read field by field, unchecked (the mutator's view of
/// the `Codable` form).
struct _UncheckedSnapshot: Decodable {
  var snapshot = LayoutSnapshot<Int>()
  private enum Keys: String, CodingKey {
    case measuredIDs, measuredUnits, ownIDs, ownUnits, kindIDs, kinds, laneIDs, lanes, laneCounts
    case masonrySections, kindSettings, place
  }
  private struct Run: Decodable { var start: Int; var lanes: [Int] }
  private struct Section: Decodable { var firstID: Int; var rowCount: Int; var laneCount: Int; var runs: [Run] }
  private struct Settings: Decodable { var kind: UInt8; var estimateUnits: Int32?; var mean: Bool }
  private struct Place: Decodable { var id: Int; var distance: Double; var anchorX: Double; var anchorY: Double }
  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    snapshot._measuredIDs = try c.decode([Int].self, forKey: .measuredIDs)
    snapshot._measuredUnits = try c.decode([Int32].self, forKey: .measuredUnits)
    snapshot._ownIDs = try c.decode([Int].self, forKey: .ownIDs)
    snapshot._ownUnits = try c.decode([Int32].self, forKey: .ownUnits)
    snapshot._kindIDs = try c.decode([Int].self, forKey: .kindIDs)
    snapshot._kinds = try c.decode([UInt8].self, forKey: .kinds)
    snapshot._laneIDs = try c.decodeIfPresent([Int].self, forKey: .laneIDs) ?? []
    snapshot._lanes = (try c.decodeIfPresent([Int].self, forKey: .lanes) ?? []).map { UInt8(truncatingIfNeeded: $0) }
    snapshot._laneCountsLessOne = (try c.decodeIfPresent([Int].self, forKey: .laneCounts) ?? [])
      .map { UInt8(truncatingIfNeeded: $0 - 1) }
    snapshot._masonrySections = (try c.decodeIfPresent([Section].self, forKey: .masonrySections) ?? []).map {
      .init(firstID: $0.firstID, rowCount: $0.rowCount, laneCount: $0.laneCount,
            runs: $0.runs.map { .init(start: $0.start, lanes: $0.lanes) })
    }
    snapshot.kindSettings = try c.decode([Settings].self, forKey: .kindSettings).map {
      .init(kind: $0.kind, estimate: $0.estimateUnits.map { CGFloat($0) / 256 }, policy: $0.mean ? .meanOfMeasured : .fixed)
    }
    snapshot.place = try c.decodeIfPresent(Place.self, forKey: .place).map {
      .init(id: $0.id, distance: CGFloat($0.distance), anchor: UnitPoint(x: $0.anchorX, y: $0.anchorY))
    }
    // Parallel lists of one length each (the checked decoder rejects others).
    let m = min(snapshot._measuredIDs.count, snapshot._measuredUnits.count)
    snapshot._measuredIDs.removeLast(snapshot._measuredIDs.count - m)
    snapshot._measuredUnits.removeLast(snapshot._measuredUnits.count - m)
    let o = min(snapshot._ownIDs.count, snapshot._ownUnits.count)
    snapshot._ownIDs.removeLast(snapshot._ownIDs.count - o)
    snapshot._ownUnits.removeLast(snapshot._ownUnits.count - o)
    let k = min(snapshot._kindIDs.count, snapshot._kinds.count)
    snapshot._kindIDs.removeLast(snapshot._kindIDs.count - k)
    snapshot._kinds.removeLast(snapshot._kinds.count - k)
    let l = min(snapshot._laneIDs.count, snapshot._lanes.count, snapshot._laneCountsLessOne.count)
    snapshot._laneIDs.removeLast(snapshot._laneIDs.count - l)
    snapshot._lanes.removeLast(snapshot._lanes.count - l)
    snapshot._laneCountsLessOne.removeLast(snapshot._laneCountsLessOne.count - l)
  }
}

extension LayoutSnapshot where ID: LayoutSnapshotID {
  /// The binary form parsed with the bounds of its counts only: what the
  /// mutator edits. (A snapshot in the `Codable` id form is read by
  /// `LayoutSnapshot<CodableID>`'s.)
  static func _unchecked(encoded data: Data) throws -> LayoutSnapshot {
    var reader = _UncheckedReader(bytes: [UInt8](data))
    return try reader.read { (r: inout _UncheckedReader) throws -> ID in
      try r.withRemaining { b, offset in try ID(snapshotBytes: b, offset: &offset) }
    }
  }
}

extension LayoutSnapshot where ID == CodableID {
  static func _unchecked(encoded data: Data) throws -> LayoutSnapshot {
    // Each id in the tagged form: read one by decoding a one-entry
    // snapshot would need the format's internals; instead the checked
    // decoder is used, and an unparsable input is left to byte mutations.
    try LayoutSnapshot(encoded: data)
  }
}

/// A little-endian reader of the binary form's fields.
struct _UncheckedReader {
  var bytes: [UInt8]
  var offset = 0
  struct End: Error {}

  mutating func byte() throws -> UInt8 {
    guard offset < bytes.count else { throw End() }
    defer { offset += 1 }
    return bytes[offset]
  }
  mutating func int<T: FixedWidthInteger>(_: T.Type) throws -> T {
    guard offset + MemoryLayout<T>.size <= bytes.count else { throw End() }
    var v: T = 0
    for k in 0 ..< MemoryLayout<T>.size { v |= T(truncatingIfNeeded: bytes[offset + k]) << (8 * k) }
    offset += MemoryLayout<T>.size
    return v
  }
  mutating func withRemaining<R>(_ body: (UnsafeRawBufferPointer, inout Int) throws -> R) throws -> R {
    var o = offset
    let r = try bytes.withUnsafeBytes { try body($0, &o) }
    offset = o
    return r
  }
  mutating func read<ID>(id: (inout _UncheckedReader) throws -> ID) throws -> LayoutSnapshot<ID> {
    var s = LayoutSnapshot<ID>()
    guard bytes.count >= 5, bytes[0 ..< 4].elementsEqual("LZSS".utf8) else { throw End() }
    let version = bytes[4]
    offset = 5
    for _ in 0 ..< Int(try int(UInt16.self)) {
      let kind = try byte()
      let mean = try byte() == 1
      let raw = try int(UInt32.self)
      s.kindSettings.append(.init(kind: kind, estimate: raw == .max ? nil : CGFloat(raw) / 256, policy: mean ? .meanOfMeasured : .fixed))
    }
    if try byte() == 1 {
      let pid = try id(&self)
      let d = try int(Int64.self)
      let x = Double(bitPattern: try int(UInt64.self))
      let y = Double(bitPattern: try int(UInt64.self))
      s.place = .init(id: pid, distance: CGFloat(d) / 256, anchor: UnitPoint(x: x, y: y))
    }
    func count() throws -> Int {
      let n = Int(try int(UInt32.self))
      guard n <= bytes.count - offset else { throw End() }
      return n
    }
    for _ in 0 ..< (try count()) {
      s._measuredIDs.append(try id(&self))
      s._measuredUnits.append(Int32(truncatingIfNeeded: try int(UInt32.self)))
    }
    for _ in 0 ..< (try count()) {
      s._ownIDs.append(try id(&self))
      s._ownUnits.append(Int32(truncatingIfNeeded: try int(UInt32.self)))
    }
    for _ in 0 ..< (try count()) {
      s._kindIDs.append(try id(&self))
      s._kinds.append(try byte())
    }
    if version == 2 || version == 5 {
      for _ in 0 ..< (try count()) {
        s._laneIDs.append(try id(&self))
        s._lanes.append(try byte())
        s._laneCountsLessOne.append(try byte())
      }
    }
    if version == 5 {
      for _ in 0 ..< (try count()) {
        let first = try id(&self)
        let rows = Int(try int(UInt32.self))
        let k = Int(try byte()) + 1
        var runs: [LayoutSnapshot<ID>.MasonrySection.Run] = []
        for _ in 0 ..< (try count()) {
          let start = Int(try int(UInt32.self))
          runs.append(.init(start: start, lanes: try (0 ..< k).map { _ in Int(try byte()) }))
        }
        s._masonrySections.append(.init(firstID: first, rowCount: rows, laneCount: k, runs: runs))
      }
    }
    return s
  }
}

/// A small random source from libFuzzer's seed.
struct Mix {
  var state: UInt64
  mutating func next() -> UInt64 {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    return state >> 33
  }
  mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
}

/// A structural change of `s`: entries, ids, lanes, kinds, settings, the
/// place (each list's ids, a value no snapshot holds among them).
func mutate(_ s: inout LayoutSnapshot<Int>, _ m: inout Mix) {
  func someID(_ s: LayoutSnapshot<Int>) -> Int {
    let all = s._measuredIDs + s._ownIDs + s._kindIDs + s._laneIDs + s._masonrySections.map(\.firstID)
    switch m.below(4) {
    case 0: return m.below(70) - 5  // rows of the setups, and unknown ones
    case 1: return [Int.min, Int.max, -1, 1 << 40][m.below(4)]
    default: return all.isEmpty ? m.below(60) : all[m.below(all.count)]
    }
  }
  func list(_ k: Int) -> WritableKeyPath<LayoutSnapshot<Int>, [Int]> {
    [\._measuredIDs, \._ownIDs, \._kindIDs, \._laneIDs][k]
  }
  switch m.below(15) {
  case 0, 1, 2:
    // An id of a list set to another id (of that list: a row named twice).
    let l = list(m.below(4))
    guard !s[keyPath: l].isEmpty else { return }
    let i = m.below(s[keyPath: l].count)
    let j = m.below(s[keyPath: l].count)
    s[keyPath: l][i] = m.below(3) == 0 ? someID(s) : s[keyPath: l][j]
  case 3:
    // An entry added (a copy of one with another id) or removed.
    switch m.below(4) {
    case 0 where !s._measuredIDs.isEmpty:
      let i = m.below(s._measuredIDs.count)
      if m.below(2) == 0 { s._measuredIDs.remove(at: i); s._measuredUnits.remove(at: i) } else {
        s._measuredIDs.insert(someID(s), at: i); s._measuredUnits.insert(s._measuredUnits[i], at: i)
      }
    case 1 where !s._ownIDs.isEmpty:
      let i = m.below(s._ownIDs.count)
      if m.below(2) == 0 { s._ownIDs.remove(at: i); s._ownUnits.remove(at: i) } else {
        s._ownIDs.insert(someID(s), at: i); s._ownUnits.insert(s._ownUnits[i], at: i)
      }
    case 2:
      s._kindIDs.append(someID(s))
      s._kinds.append(UInt8(m.below(4)))
    default:
      if !s._laneIDs.isEmpty && m.below(2) == 0 {
        let i = m.below(s._laneIDs.count)
        s._laneIDs.remove(at: i); s._lanes.remove(at: i); s._laneCountsLessOne.remove(at: i)
      } else {
        s._appendLane(of: someID(s), lane: UInt8(m.below(4)), countLessOne: UInt8(m.below(4)))
      }
    }
  case 4:
    // A lane, or a lane count.
    guard !s._lanes.isEmpty else { return }
    let i = m.below(s._lanes.count)
    if m.below(2) == 0 { s._lanes[i] = UInt8(m.below(6)) } else { s._laneCountsLessOne[i] = UInt8([0, 1, 2, 3, 255][m.below(5)]) }
  case 5:
    // An extent or an own estimate.
    let values: [Int32] = [0, 1, 256 * 40, Int32.max, -1, Int32.min]
    if !s._measuredUnits.isEmpty && m.below(2) == 0 {
      s._measuredUnits[m.below(s._measuredUnits.count)] = values[m.below(values.count)]
    } else if !s._ownUnits.isEmpty {
      s._ownUnits[m.below(s._ownUnits.count)] = values[m.below(values.count)]
    }
  case 6:
    // A kind entry's kind (0 included).
    guard !s._kinds.isEmpty else { return }
    s._kinds[m.below(s._kinds.count)] = UInt8([0, 1, 2, 3, 255][m.below(5)])
  case 7:
    // Kinds' settings: repeated, dropped, another estimate or policy.
    switch m.below(3) {
    case 0 where !s.kindSettings.isEmpty: s.kindSettings.append(s.kindSettings[m.below(s.kindSettings.count)])
    case 1 where !s.kindSettings.isEmpty: s.kindSettings.remove(at: m.below(s.kindSettings.count))
    default:
      s.kindSettings.append(.init(kind: UInt8(m.below(5)), estimate: [nil, 0, 12.5, 1e9][m.below(4)],
                                  policy: m.below(2) == 0 ? .fixed : .meanOfMeasured))
    }
  case 8, 9:
    // The place: its row, its distance, its anchor, or none.
    switch m.below(4) {
    case 0: s.place = m.below(4) == 0 ? nil : .init(id: someID(s), distance: 10, anchor: .top)
    case 1:
      let id = someID(s)
      s.place?.id = id
    case 2: s.place?.distance = [-1e9, -40, 0, 0.5, 333.25, 1e12, 1e300, .nan][m.below(8)]
    default: s.place?.anchor = [UnitPoint.top, .bottom, .center, UnitPoint(x: 0.5, y: 1e6), UnitPoint(x: 0, y: .infinity)][m.below(5)]
    }
  case 10:
    // Two entries of a list swapped (order other than the rows').
    let l = list(m.below(4))
    guard s[keyPath: l].count > 1 else { return }
    s[keyPath: l].swapAt(m.below(s[keyPath: l].count), m.below(s[keyPath: l].count))
  case 11:
    // A list emptied (lanes and sections: the format drops to 2, or 1).
    switch m.below(5) {
    case 0: s._measuredIDs = []; s._measuredUnits = []
    case 1: s._ownIDs = []; s._ownUnits = []
    case 2: s._kindIDs = []; s._kinds = []
    case 3: s._laneIDs = []; s._lanes = []; s._laneCountsLessOne = []
    default: s._masonrySections = []
    }
  case 14:
    // A masonry section: added (at a setup's first body row, or any id),
    // removed, its row or lane count changed (0 rows included), a run
    // added, dropped or moved, or a run's lane changed.
    let sections = s._masonrySections.count
    switch m.below(6) {
    case 0:
      let k = [2, 3, 4, 1, 256][m.below(5)]
      s._masonrySections.append(.init(firstID: m.below(2) == 0 ? [0, 11, 25, 20][m.below(4)] : someID(s),
                                      rowCount: [1, 14, 30, 40, 0][m.below(5)], laneCount: k,
                                      runs: [.init(start: 0, lanes: (0 ..< k).map { m.below(4) == 0 ? m.below(k + 1) : $0 })]))
    case 1 where sections > 0:
      s._masonrySections.remove(at: m.below(sections))
    case 2 where sections > 0:
      let i = m.below(sections)
      if m.below(2) == 0 {
        s._masonrySections[i].rowCount = [0, 1, 13, 14, 15, 40, 1 << 31][m.below(7)]
      } else {
        s._masonrySections[i].laneCount = [1, 2, 3, 4, 256][m.below(5)]
      }
    case 3 where sections > 0:
      let i = m.below(sections)
      let k = s._masonrySections[i].laneCount
      s._masonrySections[i].runs.append(.init(start: [1, 3, 7, 14, 20, 0][m.below(6)], lanes: (0 ..< k).map { _ in m.below(k) }))
    case 4 where sections > 0:
      let i = m.below(sections)
      guard !s._masonrySections[i].runs.isEmpty else { return }
      let r = m.below(s._masonrySections[i].runs.count)
      if m.below(2) == 0 { s._masonrySections[i].runs.remove(at: r) } else { s._masonrySections[i].runs[r].start = m.below(50) }
    default:
      guard sections > 0 else { return }
      let i = m.below(sections)
      guard !s._masonrySections[i].runs.isEmpty else { return }
      let r = m.below(s._masonrySections[i].runs.count)
      guard !s._masonrySections[i].runs[r].lanes.isEmpty else { return }
      let j = m.below(s._masonrySections[i].runs[r].lanes.count)
      s._masonrySections[i].runs[r].lanes[j] = min(255, m.below(s._masonrySections[i].laneCount + 1))  // a byte in binary
    }
  default:
    // Every id of a list moved by the same amount (another layout's rows).
    let l = list(m.below(4))
    let by = m.below(41) - 20
    s[keyPath: l] = s[keyPath: l].map { $0 &+ by }
  }
}

/// libFuzzer's own mutation.
@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

@_cdecl("LLVMFuzzerCustomMutator")
public func snapshotMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
  var m = Mix(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1)
  guard size >= 1 else { return LLVMFuzzerMutate(data, size, maxSize) }
  var bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let choice = m.below(10)
  if choice == 0 {
    // Another layout or form for the same bytes (a form change re-encodes).
    let (_, form) = header(bytes[0])
    let newHeader = UInt8(m.below(256))
    if let s = parse(Array(bytes.dropFirst()), form) {
      bytes = [newHeader] + encode(s, header(newHeader).form)
    } else {
      bytes[0] = newHeader
    }
  } else if choice <= 6, let parsed = parse(Array(bytes.dropFirst()), header(bytes[0]).form) {
    var s = parsed
    for _ in 0 ... m.below(3) { mutate(&s, &m) }
    bytes = [bytes[0]] + encode(s, header(bytes[0]).form)
  } else if choice <= 8 {
    // Bytes at any offset: overwritten, inserted, erased.
    for _ in 0 ... m.below(4) where bytes.count > 1 {
      let at = 1 + m.below(bytes.count - 1)
      switch m.below(4) {
      case 0: bytes.insert(UInt8(m.below(256)), at: at)
      case 1: bytes.remove(at: at)
      default: bytes[at] = m.below(2) == 0 ? UInt8(m.below(256)) : bytes[1 + m.below(bytes.count - 1)]
      }
    }
  } else {
    return LLVMFuzzerMutate(data, size, maxSize)
  }
  let n = min(bytes.count, maxSize)
  for i in 0 ..< n { data[i] = bytes[i] }
  return n
}

@_cdecl("LLVMFuzzerInitialize")
public func snapshotFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
  LazyStackInternalChecks.isEnabled = true
  guard let dir = ProcessInfo.processInfo.environment["FUZZ_WRITE_CORPUS"] else { return 0 }
  // The committed corpus: each setup's own snapshot in each form.
  for (k, pair) in setups.enumerated() {
    for form in [Form.binary, .json, .codableBinary] {
      let bytes = [UInt8(form.rawValue * 8 + k)] + encode(pair.core.snapshot(), form)
      let name = "\(dir)/setup\(k)-\(["binary", "json", "codable"][form.rawValue])"
      _ = FileManager.default.createFile(atPath: name, contents: Data(bytes))
    }
  }
  print("wrote \(setups.count * 3) inputs to \(dir)")
  exit(0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func snapshotFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 1 else { return 0 }
  let (setup, form) = header(data[0])
  let bytes = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let snapshot: LayoutSnapshot<Int>
  switch form {
  case .binary:
    do throws(LayoutSnapshotError) {
      snapshot = try LayoutSnapshot<Int>(encoded: bytes)
    } catch {
      return 0  // a typed error, as it must be
    }
  case .json:
    do {
      snapshot = try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: bytes)
    } catch is DecodingError {
      return 0
    } catch {
      fatalError("JSON: an error that is not a DecodingError: \(error)")
    }
  case .codableBinary:
    do throws(LayoutSnapshotError) {
      let coded = try LayoutSnapshot<CodableID>(encoded: bytes)
      guard try LayoutSnapshot<CodableID>(encoded: coded.encoded()) == coded else {
        fatalError("a snapshot of Codable ids changed through encoded()")
      }
      var target = codableLayout
      target.restore(coded)
      target._checkInvariants()
      _ = target.snapshot()
      // As `Int` ids (two ids of one key are a repeat then: no comparison).
      guard let keyed = try? LayoutSnapshot<Int>(encoded: coded.map(\.key).encoded()) else { return 0 }
      snapshot = keyed
    } catch {
      return 0
    }
  }
  // Both encodings take a decoded snapshot through unchanged.
  do {
    let binary = try LayoutSnapshot<Int>(encoded: snapshot.encoded())
    if binary != snapshot { fatalError("changed through encoded(): \(binary) vs \(snapshot)") }
    let json = try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: JSONEncoder().encode(snapshot))
    if json != snapshot { fatalError("changed through JSON: \(json) vs \(snapshot)") }
  } catch {
    fatalError("a decoded snapshot does not decode again: \(error)")
  }
  // Restored into the layout and the reference alike, and what follows too.
  var pair = setups[setup]
  let ops: [LayoutOperation] = [.restoreSnapshot(snapshot), .measureVisible(9), .userScroll(120), .saveSnapshot,
                                .restoreSaved, .insert([1_000, 1_001], at: 0)]
  for (step, op) in ops.enumerated() {
    if let problem = pair.step(op) { fatalError("setup \(setup) step \(step) \(op): \(problem)") }
    pair.core._checkInvariants()
    if let problem = pair.difference(probes: [40, 200]) { fatalError("setup \(setup) step \(step) \(op): \(problem)") }
  }
  return 0
}
