import Foundation

/// What a layout knows that its ids do not say, and where its reader is
/// (SPEC C1): every measured row's extent, every row's kind other than 0
/// and own estimate, the kinds' estimates and policies, every masonry
/// row's lane (with its section's lane count), and the reading place: the
/// kept row's id, the distance from its start to the viewport's anchor
/// point, and that anchor. Nothing else: a snapshot of 1M list rows with
/// 100k measured holds about 100k entries. A masonry section adds one
/// entry (`MasonrySection`: its first row, row and lane counts, and the
/// runs of rows whose lanes repeat every k rows) and one a row that is in
/// no run's pattern: a masonry whose rows took their lanes together at one
/// estimate (the round robin, the j-th in lane j mod k) adds one entry a
/// section.
///
/// Take one with `LazyStackLayout.snapshot()`, keep it (it is `Codable`
/// when the id is, and has a compact binary form, `encoded()` /
/// `init(encoded:)`, when the id is `Codable` or `LayoutSnapshotID`:
/// integers, `String` and `UUID` in their own bytes), and give it to
/// `restore(_:)` of a layout of any ids: after a relaunch, or when a
/// screen comes back.
///
///     let saved = layout.snapshot().encoded()          // on quit
///     var layout = try LazyStackLayout(ids: messages.map(\.id), estimatedExtent: 60)
///     layout.restore(try LayoutSnapshot(encoded: saved)) // on launch
///
/// Extents are kept in the layout's fixed-point units (1/256 pt), so a
/// round trip is exact.
public struct LayoutSnapshot<ID: Hashable & Sendable>: Sendable, Equatable, CustomStringConvertible {
  /// The reading place (SPEC C1): the viewport's anchor point lies
  /// `distance` points past the start of the row `id`.
  public struct Place: Sendable, Equatable {
    /// The kept row (§6, T3).
    public var id: ID
    /// From the row's start to the viewport's anchor point, in points
    /// (negative: the point lies before the row).
    public var distance: CGFloat
    /// The anchor whose point `distance` measures to (its main-axis
    /// component counts).
    public var anchor: UnitPoint

    /// Creates a place. - Complexity: O(1).
    @inlinable
    public init(id: ID, distance: CGFloat, anchor: UnitPoint) {
      self.id = id
      self.distance = distance
      self.anchor = anchor
    }
  }

  /// A kind's settings (SPEC K1, K3): its estimate as given (`nil`: it has
  /// none and uses kind 0's) and its policy.
  public struct KindSettings: Sendable, Equatable {
    /// The kind, 0...255.
    public var kind: UInt8
    /// Its estimate as given, in points, or `nil`: it uses kind 0's.
    public var estimate: CGFloat?
    /// `.fixed`, or `.meanOfMeasured` (K3).
    public var policy: EstimatePolicy

    /// Creates settings. - Complexity: O(1).
    @inlinable
    public init(kind: UInt8, estimate: CGFloat?, policy: EstimatePolicy) {
      self.kind = kind
      self.estimate = estimate
      self.policy = policy
    }
  }

  /// The measured rows' ids, in the order of the layout's rows.
  @usableFromInline package var _measuredIDs: [ID]
  /// Their extents, in units.
  @usableFromInline package var _measuredUnits: [Int32]
  /// The rows with an own estimate (K2), and those estimates in units.
  @usableFromInline package var _ownIDs: [ID]
  @usableFromInline package var _ownUnits: [Int32]
  /// The rows of a kind other than 0 (K1), and their kinds.
  @usableFromInline package var _kindIDs: [ID]
  @usableFromInline package var _kinds: [UInt8]
  /// The rows of masonry sections (L4), their lanes, and their sections'
  /// lane counts less one (1...256 in a byte).
  @usableFromInline package var _laneIDs: [ID]
  @usableFromInline package var _lanes: [UInt8]
  @usableFromInline package var _laneCountsLessOne: [UInt8]
  /// The masonry sections, in row order.
  @usableFromInline package var _masonrySections: [MasonrySection]
  /// Every kind's settings, kind 0's first.
  public var kindSettings: [KindSettings]
  /// The reading place, or `nil` (a layout without rows).
  public var place: Place?

  /// An empty snapshot: restoring it changes nothing but the kinds it
  /// names (none).
  /// - Complexity: O(1).
  @inlinable
  public init() {
    _measuredIDs = []
    _measuredUnits = []
    _ownIDs = []
    _ownUnits = []
    _kindIDs = []
    _kinds = []
    _laneIDs = []
    _lanes = []
    _laneCountsLessOne = []
    _masonrySections = []
    kindSettings = []
    place = nil
  }

  /// The measured rows and their extents, in row order.
  /// - Complexity: O(m).
  @inlinable
  public var measuredExtents: [(id: ID, extent: CGFloat)] {
    zip(_measuredIDs, _measuredUnits).map { ($0, _FixedPoint.points(Int64($1))) }
  }

  /// The rows with an own estimate and those estimates, in row order.
  /// - Complexity: O(m).
  @inlinable
  public var ownEstimates: [(id: ID, extent: CGFloat)] {
    zip(_ownIDs, _ownUnits).map { ($0, _FixedPoint.points(Int64($1))) }
  }

  /// The rows of a kind other than 0 and their kinds, in row order.
  /// - Complexity: O(m).
  @inlinable
  public var kinds: [(id: ID, kind: UInt8)] {
    zip(_kindIDs, _kinds).map { ($0, $1) }
  }

  /// The masonry rows listed with their lanes and the lane count of their
  /// section then, in row order (SPEC C1, L4): the rows of a section in
  /// `masonrySections` that its runs do not give their lanes, and every
  /// row of a section that is not there. A restore gives a listed row its
  /// lane back when its section here is a masonry with the same lane count.
  /// - Complexity: O(m).
  @inlinable
  public var masonryLanes: [(id: ID, lane: Int, laneCount: Int)] {
    (0 ..< _laneIDs.count).map { (_laneIDs[$0], Int(_lanes[$0]), Int(_laneCountsLessOne[$0]) + 1) }
  }

  /// The masonry sections, in row order, each with the runs that give its
  /// rows their lanes (SPEC C1; see `MasonrySection`).
  /// - Complexity: O(1).
  @inlinable
  public var masonrySections: [MasonrySection] { _masonrySections }

  /// The number of entries: measured rows, rows with a kind, rows with an
  /// own estimate, masonry rows' lanes and masonry sections (a row may be
  /// in more than one).
  /// - Complexity: O(1).
  @inlinable
  public var entryCount: Int {
    _measuredIDs.count + _ownIDs.count + _kindIDs.count + _laneIDs.count + masonrySections.count
  }

  /// A summary: entry counts and the place.
  /// - Complexity: O(1).
  public var description: String {
    let where_ = place.map { "\($0.id) +\($0.distance) pt at \($0.anchor.y)" } ?? "none"
    return "LayoutSnapshot(\(_measuredIDs.count) measured, \(_kindIDs.count) kinded, "
      + "\(_ownIDs.count) own estimates, \(_laneIDs.count) masonry lanes, \(masonrySections.count) masonry sections, "
      + "place \(where_))"
  }

  /// The entries whose ids `isPresent` does not accept (for a restore that
  /// waits for its row, C3), with the settings and the place.
  /// - Complexity: O(m).
  @usableFromInline
  package func _keeping(_ isKept: (ID) -> Bool) -> LayoutSnapshot {
    var result = LayoutSnapshot()
    result.kindSettings = kindSettings
    result.place = place
    for (id, units) in zip(_measuredIDs, _measuredUnits) where isKept(id) {
      result._measuredIDs.append(id)
      result._measuredUnits.append(units)
    }
    for (id, units) in zip(_ownIDs, _ownUnits) where isKept(id) {
      result._ownIDs.append(id)
      result._ownUnits.append(units)
    }
    for (id, kind) in zip(_kindIDs, _kinds) where isKept(id) {
      result._kindIDs.append(id)
      result._kinds.append(kind)
    }
    // A section whose first row is here was restored (or changed): only
    // one that has not arrived waits, and then with every listed lane (its
    // runs give its rows here their lanes again when it arrives, and its
    // listed rows among them theirs after).
    result._masonrySections = _masonrySections.filter { isKept($0.firstID) }
    let everyLane = !result._masonrySections.isEmpty
    for r in 0 ..< _laneIDs.count where everyLane || isKept(_laneIDs[r]) {
      result._appendLane(of: _laneIDs[r], lane: _lanes[r], countLessOne: _laneCountsLessOne[r])
    }
    return result
  }

  /// This snapshot of a layout whose restore of `waiting` still waits for
  /// its row (SPEC C3): the waiting place, not the layout's, and the
  /// waiting entries of ids that are not rows yet (`isRow` false), after
  /// the layout's own. A snapshot taken then (an app that quits before
  /// its data loaded) keeps the place it was restoring. While a masonry
  /// section waits, every waiting lane entry is kept, and replaces the
  /// layout's own entry for the same row.
  /// - Complexity: O(w) for w waiting entries; O(w + l) expected for l
  ///   lane entries of the layout's own while a masonry section waits.
  @inlinable
  package mutating func _addWaiting(_ waiting: LayoutSnapshot, isRow: (ID) -> Bool) {
    place = waiting.place
    for (id, units) in zip(waiting._measuredIDs, waiting._measuredUnits) where !isRow(id) {
      _measuredIDs.append(id)
      _measuredUnits.append(units)
    }
    for (id, units) in zip(waiting._ownIDs, waiting._ownUnits) where !isRow(id) {
      _ownIDs.append(id)
      _ownUnits.append(units)
    }
    for (id, kind) in zip(waiting._kindIDs, waiting._kinds) where !isRow(id) {
      _kindIDs.append(id)
      _kinds.append(kind)
    }
    let sections = waiting._masonrySections.filter { !isRow($0.firstID) }
    let everyLane = !sections.isEmpty
    if everyLane {
      let replaced = Set(waiting._laneIDs)
      let own = (0 ..< _laneIDs.count).filter { !replaced.contains(_laneIDs[$0]) }
      (_laneIDs, _lanes, _laneCountsLessOne) = (own.map { _laneIDs[$0] }, own.map { _lanes[$0] }, own.map { _laneCountsLessOne[$0] })
    }
    for r in 0 ..< waiting._laneIDs.count where everyLane || !isRow(waiting._laneIDs[r]) {
      _appendLane(of: waiting._laneIDs[r], lane: waiting._lanes[r], countLessOne: waiting._laneCountsLessOne[r])
    }
    _masonrySections += sections
  }

  /// Adds a masonry row's lane entry.
  /// - Complexity: amortized O(1).
  @inlinable
  package mutating func _appendLane(of id: ID, lane: UInt8, countLessOne: UInt8) {
    _laneIDs.append(id)
    _lanes.append(lane)
    _laneCountsLessOne.append(countLessOne)
  }

  /// A masonry section (SPEC C1, L4): its first row (header and footer
  /// aside) and number of rows, its lane count, and the runs that give its
  /// rows their lanes. A run gives the rows from its start (counted from
  /// the section's first row) to the next run's start, or the section's
  /// end, its `lanes` over and over: row `start + i` is in lane
  /// `lanes[i mod laneCount]`. The rows whose lanes differ from their run's
  /// are in `masonryLanes`. A section whose rows took their lanes together
  /// at one estimate is one run of lanes `0, 1, ..., k - 1` (the round
  /// robin).
  ///
  /// A restore into a masonry section with the same first row, row count
  /// and lane count (the same data) gives each of its rows the lane its
  /// run gives it, and then each listed row its own; a section that
  /// changed gets its listed rows' lanes only.
  public struct MasonrySection: Sendable, Equatable {
    /// A run of rows whose lanes repeat every `laneCount` rows.
    public struct Run: Sendable, Equatable {
      /// Its first row, counted from the section's first row.
      public var start: Int
      /// The lanes of its first `laneCount` rows, repeated.
      public var lanes: [Int]

      /// Creates a run. - Complexity: O(1).
      @inlinable
      public init(start: Int, lanes: [Int]) {
        self.start = start
        self.lanes = lanes
      }
    }

    /// The section's first row (after its header).
    public var firstID: ID
    /// Its number of rows (header and footer aside).
    public var rowCount: Int
    /// Its lane count, 1...256.
    public var laneCount: Int
    /// Its runs, by start: the first starts at 0.
    public var runs: [Run]

    /// Creates a section. - Complexity: O(1).
    @inlinable
    public init(firstID: ID, rowCount: Int, laneCount: Int, runs: [Run]) {
      self.firstID = firstID
      self.rowCount = rowCount
      self.laneCount = laneCount
      self.runs = runs
    }

    /// What makes the section one no snapshot holds, or nil: a row count
    /// outside 1...2^32 - 1, a lane count outside 1...256, no run, a first
    /// run that does not start at 0, starts that do not ascend within the
    /// rows, or a run whose lanes are not `laneCount` lanes below it.
    /// - Complexity: O(r k) for r runs.
    @inlinable
    public var problem: String? {
      guard rowCount >= 1 && UInt64(rowCount) <= UInt64(UInt32.max) else { return "a masonry section of \(rowCount) rows" }
      guard laneCount >= 1 && laneCount <= 256 else { return "a masonry section of \(laneCount) lanes" }
      guard runs.first?.start == 0 else { return "a masonry section whose first run does not start at its first row" }
      for (r, run) in runs.enumerated() {
        guard run.start < rowCount, r == 0 || run.start > runs[r &- 1].start else {
          return "a masonry run at row \(run.start) of \(rowCount), after one at \(r == 0 ? 0 : runs[r &- 1].start)"
        }
        guard run.lanes.count == laneCount, run.lanes.allSatisfy({ $0 >= 0 && $0 < laneCount }) else {
          return "a masonry run of lanes \(run.lanes) in \(laneCount) lanes"
        }
      }
      return nil
    }
  }
}

extension LayoutSnapshot.Place: Codable where ID: Codable {
  private enum CodingKeys: String, CodingKey { case id, distance, anchorX, anchorY }

  /// Decodes a place: its id, distance and the anchor's two components.
  /// The distance is rounded to the layout's units (1/256 pt), as the
  /// binary form holds it.
  /// - Throws: `DecodingError.dataCorrupted` for a distance that is not
  ///   finite or beyond the layout's range, or an anchor that is not finite.
  /// - Complexity: O(1) plus decoding the id.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(ID.self, forKey: .id)
    let points = try c.decode(CGFloat.self, forKey: .distance)
    // As the binary form holds it: whole units (1/256 pt) within the
    // layout's range, so a decoded place encodes and decodes to itself.
    guard points.isFinite, abs(Double(points)) * 256 <= Double(_FixedPoint.maxUnits) else {
      throw DecodingError.dataCorruptedError(forKey: .distance, in: c, debugDescription: "distance \(points) out of range")
    }
    distance = _FixedPoint.points(_FixedPoint.units(points))
    anchor = UnitPoint(x: try c.decode(CGFloat.self, forKey: .anchorX), y: try c.decode(CGFloat.self, forKey: .anchorY))
    guard anchor.x.isFinite && anchor.y.isFinite else {
      throw DecodingError.dataCorruptedError(forKey: .anchorY, in: c, debugDescription: "an anchor that is not finite")
    }
  }

  /// Encodes the place: its id, distance and the anchor's two components.
  /// - Complexity: O(1) plus encoding the id.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(distance, forKey: .distance)
    try c.encode(anchor.x, forKey: .anchorX)
    try c.encode(anchor.y, forKey: .anchorY)
  }
}

extension LayoutSnapshot: Codable where ID: Codable {
  private enum CodingKeys: String, CodingKey {
    case measuredIDs, measuredUnits, ownIDs, ownUnits, kindIDs, kinds, laneIDs, lanes, laneCounts
    case masonrySections, kindSettings, place
  }

  private struct CodedSettings: Codable {
    var kind: UInt8
    var estimateUnits: Int32?
    var mean: Bool
  }

  /// Decodes a snapshot; extents are in 1/256 pt units, as `encode(to:)`
  /// writes them.
  /// Masonry lanes and masonry sections are optional (a snapshot saved
  /// before they were kept has none).
  /// - Throws: `DecodingError` for missing or mismatched fields, and
  ///   `.dataCorrupted` for a value no snapshot holds, as `init(encoded:)`
  ///   rejects it: arrays of different lengths, a negative extent or
  ///   estimate, a lane count outside 1...256, a lane not below its count,
  ///   a masonry section that `MasonrySection.problem` names, a row that
  ///   starts two masonry sections,
  ///   a row named twice in one list, a kind entry of kind 0, a kind's
  ///   settings given twice, a place whose distance is not finite or beyond
  ///   the layout's range, or whose anchor is not finite.
  /// - Complexity: O(m) expected (repeats are found by hashing the ids).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init()
    _measuredIDs = try c.decode([ID].self, forKey: .measuredIDs)
    _measuredUnits = try c.decode([Int32].self, forKey: .measuredUnits)
    _ownIDs = try c.decode([ID].self, forKey: .ownIDs)
    _ownUnits = try c.decode([Int32].self, forKey: .ownUnits)
    _kindIDs = try c.decode([ID].self, forKey: .kindIDs)
    _kinds = try c.decode([UInt8].self, forKey: .kinds)
    guard _measuredIDs.count == _measuredUnits.count, _ownIDs.count == _ownUnits.count, _kindIDs.count == _kinds.count,
          !_measuredUnits.contains(where: { $0 < 0 }), !_ownUnits.contains(where: { $0 < 0 }) else {
      throw DecodingError.dataCorruptedError(forKey: .measuredUnits, in: c,
                                             debugDescription: "ids and values differ in number, or an extent is negative")
    }
    for (ids, key) in [(_measuredIDs, CodingKeys.measuredIDs), (_ownIDs, .ownIDs), (_kindIDs, .kindIDs)]
    where Self._hasRepeat(ids) {
      throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "a row named twice")
    }
    guard !_kinds.contains(0) else {
      throw DecodingError.dataCorruptedError(forKey: .kinds, in: c,
                                             debugDescription: "a kind entry of kind 0 (kind 0 is every other row's)")
    }
    _laneIDs = try c.decodeIfPresent([ID].self, forKey: .laneIDs) ?? []
    guard !Self._hasRepeat(_laneIDs) else {
      throw DecodingError.dataCorruptedError(forKey: .laneIDs, in: c, debugDescription: "a row named twice")
    }
    let lanes = try c.decodeIfPresent([Int].self, forKey: .lanes) ?? []
    let laneCounts = try c.decodeIfPresent([Int].self, forKey: .laneCounts) ?? []
    guard lanes.count == _laneIDs.count, laneCounts.count == _laneIDs.count,
          zip(lanes, laneCounts).allSatisfy({ $1 >= 1 && $1 <= 256 && $0 >= 0 && $0 < $1 }) else {
      throw DecodingError.dataCorruptedError(forKey: .lanes, in: c,
                                             debugDescription: "lane ids and lanes differ in number, or a lane is out of its count")
    }
    _lanes = lanes.map { UInt8($0) }
    _laneCountsLessOne = laneCounts.map { UInt8($0 - 1) }
    _masonrySections = try c.decodeIfPresent([MasonrySection].self, forKey: .masonrySections) ?? []
    if let problem = masonrySections.lazy.compactMap(\.problem).first {
      throw DecodingError.dataCorruptedError(forKey: .masonrySections, in: c, debugDescription: problem)
    }
    guard !Self._hasRepeat(masonrySections.map(\.firstID)) else {
      throw DecodingError.dataCorruptedError(forKey: .masonrySections, in: c, debugDescription: "a row starts two sections")
    }
    kindSettings = try c.decode([CodedSettings].self, forKey: .kindSettings).map { s in
      guard s.estimateUnits.map({ $0 >= 0 }) ?? true else {
        throw DecodingError.dataCorruptedError(forKey: .kindSettings, in: c, debugDescription: "a negative estimate")
      }
      return KindSettings(kind: s.kind, estimate: s.estimateUnits.map { _FixedPoint.points(Int64($0)) },
                          policy: s.mean ? .meanOfMeasured : .fixed)
    }
    var kindsSeen = _KindSet()
    guard kindSettings.allSatisfy({ kindsSeen.insert($0.kind) }) else {
      throw DecodingError.dataCorruptedError(forKey: .kindSettings, in: c, debugDescription: "a kind's settings given twice")
    }
    place = try c.decodeIfPresent(Place.self, forKey: .place)
  }

  /// Whether an id appears twice in `ids`.
  /// - Complexity: O(m) expected.
  private static func _hasRepeat(_ ids: [ID]) -> Bool {
    var seen = Set<ID>(minimumCapacity: ids.count)
    return !ids.allSatisfy { seen.insert($0).inserted }
  }

  /// Encodes the snapshot: parallel arrays of ids and values (extents in
  /// 1/256 pt units; masonry lanes with their lane counts and masonry
  /// sections, when there are any), the kinds' settings and the place.
  /// - Complexity: O(m).
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(_measuredIDs, forKey: .measuredIDs)
    try c.encode(_measuredUnits, forKey: .measuredUnits)
    try c.encode(_ownIDs, forKey: .ownIDs)
    try c.encode(_ownUnits, forKey: .ownUnits)
    try c.encode(_kindIDs, forKey: .kindIDs)
    try c.encode(_kinds, forKey: .kinds)
    if !_laneIDs.isEmpty {
      try c.encode(_laneIDs, forKey: .laneIDs)
      try c.encode(_lanes.map(Int.init), forKey: .lanes)
      try c.encode(_laneCountsLessOne.map { Int($0) + 1 }, forKey: .laneCounts)
    }
    if !masonrySections.isEmpty {
      try c.encode(masonrySections, forKey: .masonrySections)
    }
    try c.encode(kindSettings.map { s in
      CodedSettings(kind: s.kind, estimateUnits: s.estimate.map { Int32(truncatingIfNeeded: _FixedPoint.extentUnits($0) ?? 0) },
                    mean: s.policy == .meanOfMeasured)
    }, forKey: .kindSettings)
    try c.encodeIfPresent(place, forKey: .place)
  }
}

extension LayoutSnapshot.MasonrySection.Run: Codable where ID: Codable {}
extension LayoutSnapshot.MasonrySection: Codable where ID: Codable {}
