import Foundation

// Kinds of rows, their estimates and policies, and rows' own estimates
// (SPEC K1–K3). The tree keeps them (`ExtentTree+Kinds`); here they are
// given by id, checked, and stabilized like any estimate change (S2).

extension LazyStackLayout {
  /// Creates a layout of estimated rows with their kinds and estimates
  /// (SPEC K1, K2): a feed whose posts, photos and ads have sizes far apart
  /// from the first frame on.
  ///
  ///     let layout = try LazyStackLayout(
  ///       ids: posts.map(\.id), kinds: posts.map { $0.isPhoto ? 1 : 0 }, estimatedExtent: 80,
  ///       kindEstimates: [1: 320], ownEstimates: knownHeights)
  ///
  /// - Parameters:
  ///   - ids: The rows' ids, in order; they must be unique.
  ///   - kinds: One kind per id, in the same order.
  ///   - estimatedExtent: Kind 0's estimate, the layout's (X2).
  ///   - kindEstimates: Other kinds' estimates (a kind without one uses
  ///     kind 0's).
  ///   - ownEstimates: Rows' own estimates, by id (ids that are not rows
  ///     are ignored).
  ///   - spacing: The distance between adjacent rows.
  ///   - axis: The main axis.
  ///   - insets: The insets around the content.
  /// - Throws: `LazyStackError.duplicateID` for a repeated id;
  ///   `LazyStackError.invalidExtent` for a NaN, infinite or negative
  ///   estimate, spacing or inset.
  /// - Precondition: `kinds` has as many elements as `ids`.
  /// - Complexity: O(n + k n/B) for n ids and k kinds, plus O(m (log n + B))
  ///   for m own estimates.
  @inlinable
  public init(
    ids: some Sequence<ID>, kinds: some Sequence<UInt8>, estimatedExtent: CGFloat,
    kindEstimates: [UInt8: CGFloat] = [:], ownEstimates: [ID: CGFloat] = [:],
    spacing: CGFloat = 0, axis: Axis = .vertical, insets: EdgeInsets = EdgeInsets()
  ) throws(LazyStackError) {
    var kindUnits: [(UInt8, Int64)] = []
    for (kind, extent) in kindEstimates.sorted(by: { $0.key < $1.key }) {
      guard let units = _FixedPoint.extentUnits(extent) else {
        throw .invalidExtent(extent, what: "estimated extent of kind \(kind)")
      }
      kindUnits.append((kind, units))
    }
    var ownUnits: [ID: Int64] = [:]
    for (id, extent) in ownEstimates {
      guard let units = _FixedPoint.extentUnits(extent) else {
        throw .invalidExtent(extent, what: "own estimated extent of \(id)")
      }
      ownUnits[id] = units
    }
    try self.init(ids: ids, estimatedExtent: estimatedExtent, spacing: spacing, axis: axis, insets: insets,
                  blockCapacity: ExtentTree<ID>.defaultBlockCapacity)
    _tree._setKindsInRowOrder(kinds)
    for (kind, units) in kindUnits {
      if kind == 0 {
        _givenEstimate = units
      } else {
        _ = _tree._slot(ofKind: kind)
        _tree._writableKinds().given[Int(kind)] = units
        _refreshKindEstimate(kind)
      }
    }
    if !ownUnits.isEmpty { _tree._applyExtras(kinds: [:], own: ownUnits) }
    _refreshEstimate()
    _checkInvariants()
  }

  /// Gives the row with `id` a kind, 0...255 (SPEC K1): an unmeasured row
  /// of kind `k` has kind `k`'s estimate (`setEstimatedExtent(_:forKind:)`),
  /// or its own (`setEstimatedExtent(_:for:)`). Kinds follow ids through
  /// edits and snapshots, as roles do; new ids are of kind 0, whose
  /// estimate is the layout's (`estimatedExtent`, X2).
  ///
  ///     layout.setKind(2, for: photoID)   // photos: kind 2
  ///
  /// A change that changes the row's extent stabilizes like an estimate
  /// change (S2, cause `.estimateChange`).
  /// - Returns: `false` if no row has this id (nothing changes).
  /// - Complexity: O(log n + B + k) for k kinds in use; the first kind
  ///   other than 0 the layout sees also costs O(n/B).
  @inlinable
  @discardableResult
  public mutating func setKind(_ kind: UInt8, for id: ID) -> Bool {
    _frameEnter()
    defer { _frameExit(.still) }
    guard let location = _tree._locate(id: id) else { return false }
    let old = _tree._extra(at: location)
    let new = (old & ~0xFF) | UInt64(kind)
    guard new != old || (kind != 0 && _tree._kinds == nil) else { return true }
    let before = _capture()
    let laneBefore = _lanesBeforeExtents
    let index = location.before.count &+ location.slot
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _tree._setExtra(new, at: location)
    _refreshEstimate()
    _lanesFollow(CollectionOfOne(index), since: laneBefore)
    _settle(from: before, cause: .estimateChange)
    return true
  }

  /// The kind of the row at `index` (SPEC K1): 0 unless given.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n).
  @inlinable
  public func kind(at index: Int) -> UInt8 {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    guard _tree._kinds != nil else { return 0 }
    return _tree.kind(at: _tree._locate(index))
  }

  /// Sets the estimate of every unmeasured row of `kind` that has no
  /// estimate of its own (SPEC K1): with `.fixed` (the default) the
  /// number given, with `.meanOfMeasured` the number until a row of the
  /// kind is measured (K3). Kind 0's estimate is the layout's
  /// (`setEstimatedExtent(_:)`); a kind never given one uses kind 0's.
  ///
  ///     try layout.setEstimatedExtent(300, forKind: 2)   // photos
  ///
  /// Stabilizes like any estimate change (S2): no row on screen moves.
  /// - Returns: The correction applied (also in `lastCorrection`).
  /// - Throws: `LazyStackError.invalidExtent` for a NaN, infinite or
  ///   negative extent; the layout is unchanged.
  /// - Complexity: O(log n + B + k) for k kinds in use (never O(n)); the
  ///   first kind other than 0 the layout sees also costs O(n/B).
  @inlinable
  @discardableResult
  public mutating func setEstimatedExtent(_ extent: CGFloat, forKind kind: UInt8) throws(LazyStackError) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    guard kind != 0 else { return try setEstimatedExtent(extent) }
    guard let units = _FixedPoint.extentUnits(extent) else {
      throw .invalidExtent(extent, what: "estimated extent of kind \(kind)")
    }
    let before = _capture()
    let laneBefore = _lanesBeforeExtents
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _ = _tree._slot(ofKind: kind)
    _tree._writableKinds().given[Int(kind)] = units
    _refreshKindEstimate(kind)
    _lanesFollow(EmptyCollection(), since: laneBefore)
    return _settle(from: before, cause: .estimateChange)
  }

  /// The estimate the caller gave `kind` (its fixed estimate, or the
  /// fallback of `.meanOfMeasured`), or `nil` if it has none (it uses kind
  /// 0's). Kind 0's is `estimatedExtent`.
  /// - Complexity: O(1).
  @inlinable
  public func estimatedExtent(forKind kind: UInt8) -> CGFloat? {
    guard kind != 0 else { return estimatedExtent }
    guard let given = _tree._kinds?.given[Int(kind)], given >= 0 else { return nil }
    return _FixedPoint.points(given)
  }

  /// The extent unmeasured rows of `kind` without an own estimate have
  /// right now (SPEC K1, K3).
  /// - Complexity: O(1).
  @inlinable
  public func currentEstimate(forKind kind: UInt8) -> CGFloat {
    _FixedPoint.points(_tree.kindEstimate(kind))
  }

  /// Sets what unmeasured rows of `kind` are estimated at (SPEC K3):
  /// `.fixed` (the number given) or `.meanOfMeasured` (the running mean of
  /// the kind's measured rows, the number given until one is measured).
  /// Kind 0's policy is `estimatePolicy`. Stabilizes like an estimate
  /// change (S2).
  /// - Complexity: O(log n + B + k) for k kinds in use; the mean is kept up
  ///   in O(1) a measurement for each kind whose policy is the mean.
  @inlinable
  public mutating func setEstimatePolicy(_ policy: EstimatePolicy, forKind kind: UInt8) {
    _frameEnter()
    defer { _frameExit(.still) }
    guard kind != 0 else {
      estimatePolicy = policy
      return
    }
    guard policy != estimatePolicy(forKind: kind) else { return }
    let before = _capture()
    let laneBefore = _lanesBeforeExtents
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _ = _tree._slot(ofKind: kind)
    _tree._writableKinds().meanPolicy[Int(kind)] = policy == .meanOfMeasured
    _refreshKindEstimate(kind)
    _lanesFollow(EmptyCollection(), since: laneBefore)
    _settle(from: before, cause: .estimateChange)
  }

  /// The estimate policy of `kind` (SPEC K3); kind 0's is `estimatePolicy`.
  /// - Complexity: O(1).
  @inlinable
  public func estimatePolicy(forKind kind: UInt8) -> EstimatePolicy {
    guard kind != 0 else { return estimatePolicy }
    return _tree._kinds?.meanPolicy[Int(kind)] == true ? .meanOfMeasured : .fixed
  }

  /// Gives the row with `id` an estimate of its own (SPEC K2), or takes it
  /// away with `nil`: a photo whose aspect ratio is known, a message whose
  /// length is. The row stays unmeasured (its first measurement is S12 c)
  /// and keeps the estimate through edits and snapshots until it is
  /// measured and invalidated again, or the estimate is cleared.
  ///
  ///     layout.setEstimatedExtent(width / aspectRatio, for: photoID)
  ///
  /// Stabilizes like an estimate change (S2) when the row is unmeasured.
  /// - Returns: `false` if no row has this id, or the extent is NaN,
  ///   infinite or negative (nothing changes; `isValidExtent` tells which).
  /// - Complexity: O(log n + B + k) for k kinds in use.
  @inlinable
  @discardableResult
  public mutating func setEstimatedExtent(_ extent: CGFloat?, for id: ID) -> Bool {
    _frameEnter()
    defer { _frameExit(.still) }
    var units: Int64?
    if let extent {
      guard let u = _FixedPoint.extentUnits(extent) else { return false }
      units = u
    }
    guard let location = _tree._locate(id: id) else { return false }
    let old = _tree._extra(at: location)
    let new = ExtentTree<ID>._extra(kind: ExtentTree<ID>._kind(ofExtra: old), own: units)
    guard new != old else { return true }
    let before = _capture()
    let laneBefore = _lanesBeforeExtents
    let index = location.before.count &+ location.slot
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _tree._setExtra(new, at: location)
    _lanesFollow(CollectionOfOne(index), since: laneBefore)
    _settle(from: before, cause: .estimateChange)
    return true
  }

  /// The own estimate of the row with `id` (SPEC K2), or `nil` (none, or
  /// no such row).
  /// - Complexity: O(log n + B).
  @inlinable
  public func ownEstimatedExtent(for id: ID) -> CGFloat? {
    guard _tree._kinds != nil, let location = _tree._locate(id: id) else { return nil }
    return _tree.ownEstimate(at: location).map(_FixedPoint.points)
  }

  /// Whether `extent` is one the layout takes: finite and not negative
  /// (SPEC X5).
  /// - Complexity: O(1).
  @inlinable
  public static func isValidExtent(_ extent: CGFloat) -> Bool {
    _FixedPoint.extentUnits(extent) != nil
  }

  /// Gives the rows with an id in `kinds` those kinds in one pass, one
  /// stabilization: a bulk load for tests and the benchmark's untimed
  /// setups (an app gives kinds with `setKind(_:for:)`).
  /// - Complexity: O(r (log n + B) + k n/B) for r ids, or O(n) for many.
  @inlinable
  package mutating func _setKinds(_ kinds: [ID: UInt8]) {
    let before = _capture()
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _tree._applyExtras(kinds: kinds, own: [:])
    _refreshEstimate()
    _settle(from: before, cause: .estimateChange)
  }

  /// Brings `kind`'s estimate in the tree up to its policy: the given
  /// number, or the mean of its measured rows (the given number, else kind
  /// 0's, while none is measured).
  /// - Complexity: O(k) for k kinds in use.
  @inlinable
  internal mutating func _refreshKindEstimate(_ kind: UInt8) {
    guard let table = _tree._kinds else { return }
    let given = table.given[Int(kind)]
    var units: Int64? = given >= 0 ? given : nil
    if table.meanPolicy[Int(kind)] {
      let (sum, n) = _tree.measuredTotals(ofKind: kind)
      if n > 0 { units = (sum &+ Int64(n) / 2) / Int64(n) }
    }
    let current: Int64? = table.estimates[Int(kind)] >= 0 ? table.estimates[Int(kind)] : nil
    guard units != current else { return }
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _tree.setKindEstimate(units, for: kind)
  }

  /// Brings every kind whose policy is the mean up to date (after a
  /// measurement or an edit).
  /// - Complexity: O(k) for k kinds in use.
  @inlinable
  @inline(never)
  internal mutating func _refreshKindEstimates() {
    guard let table = _tree._kinds else { return }
    for kind in table.kindOfSlot where table.meanPolicy[Int(kind)] { _refreshKindEstimate(kind) }
  }
}
