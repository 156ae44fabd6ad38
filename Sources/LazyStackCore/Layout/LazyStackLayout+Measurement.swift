import Foundation

extension LazyStackLayout {
  /// Reports a row's measured main-axis extent (SPEC X1, X5, S1, R6).
  ///
  /// The extent is rounded to 1/256 pt and stays attached to the id through
  /// reorders, inserts and deletes. If the row lies before the anchor row,
  /// the offset moves by the same amount so the anchor row does not move on
  /// screen; if it is the anchor row, its anchor point stays fixed.
  /// - Returns: `.applied` with the correction, `.unchanged` if the row was
  ///   already measured at this extent, `.rejected` for a NaN, infinite or
  ///   negative extent (nothing is stored), `.unknownID` if no row has `id`.
  ///   Finite extents above 8,388,607 pt are clamped to it.
  /// - Complexity: O(log n + B) (B: the block capacity, at most 512).
  @inlinable
  @discardableResult
  public mutating func setMeasuredExtent(_ extent: CGFloat, for id: ID) -> MeasurementResult {
    guard let units = _FixedPoint.extentUnits(extent) else {
      return .rejected(.invalidExtent(extent, what: "measured extent"))
    }
    guard let location = _tree._locate(id: id) else { return .unknownID }
    let stored = Int32(truncatingIfNeeded: units)
    if _tree._storedExtent(at: location) == stored { return .unchanged }
    let before = _capture()
    _tree._setStored(stored, at: location)
    _refreshEstimate()
    return .applied(correction: _settle(from: before, cause: .measurement))
  }

  /// Forgets a row's measurement: it is estimated again (for example after
  /// its content changed). Stabilizes like a measurement.
  /// - Returns: `false` if no row has `id`.
  /// - Complexity: O(log n + B).
  @inlinable
  @discardableResult
  public mutating func invalidateMeasurement(for id: ID) -> Bool {
    guard let location = _tree._locate(id: id) else { return false }
    guard _tree._storedExtent(at: location) >= 0 else { return true }
    let before = _capture()
    _tree._setStored(-1, at: location)
    _refreshEstimate()
    _settle(from: before, cause: .measurement)
    return true
  }

  /// Changes the estimated extent of unmeasured rows (SPEC X2, S2); with
  /// `.meanOfMeasured` it is the fallback used while no row is measured.
  /// - Returns: The stabilization applied.
  /// - Throws: `LazyStackError.invalidExtent` for NaN, infinite or negative
  ///   values; the layout is unchanged.
  /// - Complexity: O(log n + B): the estimate is folded into the tree's sums,
  ///   no row is touched.
  @inlinable
  @discardableResult
  public mutating func setEstimatedExtent(_ extent: CGFloat) throws(LazyStackError) -> ScrollCorrection {
    guard let units = _FixedPoint.extentUnits(extent) else {
      throw .invalidExtent(extent, what: "estimated extent")
    }
    let before = _capture()
    _givenEstimate = units
    _refreshEstimate()
    return _settle(from: before, cause: .estimateChange)
  }

  /// Recomputes the tree's estimate from the policy (SPEC X2).
  /// - Complexity: O(1).
  @inlinable
  internal mutating func _refreshEstimate() {
    switch _estimatePolicy {
    case .fixed:
      if _tree.estimate != _givenEstimate { _tree.setEstimate(_givenEstimate) }
    case .meanOfMeasured:
      let n = Int64(_tree.measuredCount)
      let mean = n == 0 ? _givenEstimate : (_tree.measuredSum &+ n / 2) / n
      if _tree.estimate != mean { _tree.setEstimate(mean) }
    }
  }
}
