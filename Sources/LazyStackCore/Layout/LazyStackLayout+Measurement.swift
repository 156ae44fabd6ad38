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
  /// - Complexity: O(log n + B) (B: the block capacity, at most 512); with
  ///   lanes O(k (log n + B) + v) for k lanes and v rows on screen (in a
  ///   masonry the rows on screen are kept up to date, see Lanes.md); with
  ///   lanes and a `.meanOfMeasured` estimate, when the mean moves (every
  ///   row that follows it moves with it), plus O(k m/B) for the m rows of
  ///   masonry sections and O(g/B + k l + B x) for the g rows of grid
  ///   sections whose l blocks hold rows that follow the estimate, x of
  ///   them beside other rows.
  @inlinable
  @discardableResult
  public mutating func setMeasuredExtent(_ extent: CGFloat, for id: ID) -> MeasurementResult {
    _frameEnter()
    defer { _frameExit(.still) }
    guard let units = _FixedPoint.extentUnits(extent) else {
      return .rejected(.invalidExtent(extent, what: "measured extent"))
    }
    if _slowPath(_batch != nil) { return _setMeasuredExtentInBatch(units, for: id) }
    guard let location = _tree._locate(id: id) else { return .unknownID }
    let stored = Int32(truncatingIfNeeded: units)
    if _tree._storedExtent(at: location) == stored { return .unchanged }
    let before = _capture()
    let laneOld = _placementOldExtent(at: location)
    let laneBefore = _laneEstimates
    let stamp = _stamp
    _tree._setStored(stored, at: location)
    _refreshEstimate()
    return .applied(correction: _placementSettlesMeasurement(location.before.count &+ location.slot, from: laneOld,
                                                            before: laneBefore, stamp: stamp, settling: before))
  }

  /// `setMeasuredExtent` inside a batch: logged, stabilized when the batch ends.
  @inlinable
  @inline(never)
  internal mutating func _setMeasuredExtentInBatch(_ units: Int64, for id: ID) -> MeasurementResult {
    guard let location = _tree._locate(id: id) else { return .unknownID }
    let stored = Int32(truncatingIfNeeded: units)
    if _tree._storedExtent(at: location) == stored { return .unchanged }
    let old = _tree._setStored(stored, at: location)
    _logExtent(at: location, from: old, to: stored)
    _refreshEstimate()
    return .applied(correction: _deferSettle(cause: .measurement))
  }

  /// Forgets a row's measurement because its content must be laid out again
  /// (it was edited, or the width changed): the row is estimated again and
  /// marked invalidated. Stabilizes like a measurement; if the viewport's
  /// anchor point lies inside the anchor row, that point keeps its relative
  /// place in the row, now and when the row is measured again (SPEC S12 a).
  /// A row that is not measured is left alone.
  /// - Returns: `false` if no row has `id`.
  /// - Complexity: O(log n + B).
  @inlinable
  @discardableResult
  public mutating func invalidateMeasurement(for id: ID) -> Bool {
    _frameEnter()
    defer { _frameExit(.still) }
    guard let location = _tree._locate(id: id) else { return false }
    guard _tree._storedExtent(at: location) >= 0 else { return true }
    let before = _capture()
    let laneBefore = _lanesBeforeExtents
    let old = _tree._setStored(ExtentTree<ID>._invalidated, at: location)
    if _slowPath(_batch != nil) { _logExtent(at: location, from: old, to: ExtentTree<ID>._invalidated) }
    _refreshEstimate()
    _lanesFollow(CollectionOfOne(location.before.count &+ location.slot), since: laneBefore)
    _settle(from: before, cause: .measurement)
    return true
  }

  /// Forgets every row's measurement, as a change of width requires (every
  /// row wraps again): each measured row is estimated again and marked
  /// invalidated, and the layout stabilizes once. The text under the
  /// viewport's anchor point keeps its relative place in the anchor row, so
  /// the row stays on screen however much it shrinks to its estimate, and
  /// stays there as it is measured again (SPEC S12 a).
  ///
  ///     layout.invalidateAllMeasurements()
  ///     layout.viewportSize = newSize
  ///     layout.measureVisibleRows { index, id in height(of: id, width: newSize.width) }
  ///
  /// - Complexity: O(n/B + m) for m measured rows (blocks with no measured
  ///   row are skipped), plus O(log n + B) for the stabilization.
  @inlinable
  public mutating func invalidateAllMeasurements() {
    _frameEnter()
    defer { _frameExit(.still) }
    let before = _capture()
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _tree.invalidateAll()
    _refreshEstimate()
    _settle(from: before, cause: .measurement)
  }

  /// Measures every row at once with `extent(index)`, stabilized like one
  /// measurement: a bulk load for tests and the benchmark's untimed resets
  /// (a UI measures rows as they come into view).
  /// - Precondition: every extent is finite and non-negative.
  /// - Complexity: O(n).
  @inlinable
  package mutating func _measureAllRows(_ extent: (Int) -> CGFloat) {
    let before = _capture()
    if _slowPath(_batch != nil) { _logCheckpoint() }
    _tree._setAllStored { Int32(truncatingIfNeeded: _FixedPoint.extentUnits(extent($0))!) }
    _refreshEstimate()
    _settle(from: before, cause: .measurement)
  }

  /// Whether the row at `index` is measured (not estimated, nor invalidated).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n).
  @inlinable
  public func isMeasured(at index: Int) -> Bool {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    return _tree._storedExtent(at: _tree._locate(index)) >= 0
  }

  /// Measures the rows a frame shows: calls `extent` for each row of
  /// `rowsToDraw` (the visible rows with overscan, the pinned rows and the
  /// kept rows: SPEC F2) that is not measured, reports the result with
  /// `setMeasuredExtent(_:for:)`, and repeats while measuring brings
  /// unmeasured rows into view (rows that came out smaller than their
  /// estimate). S1 and S12 apply to every measurement, so rows the user has
  /// already seen do not move. With a main- or cross-axis viewport extent
  /// of 0 nothing is measured. In grids and masonry, use the form whose
  /// closure gets the size proposed to the row (its lane's width, F1).
  ///
  ///     layout.userScroll(to: newOffset)
  ///     layout.measureVisibleRows { index, id in cell(for: id).height }
  ///     draw(layout.visibleIndices.map { layout.frame(at: $0) })
  ///
  /// - Parameter extent: The main-axis extent of the row at an index with
  ///   an id, in points; a rejected value (NaN, infinite, negative) leaves
  ///   the row unmeasured, and it is not asked again in this call.
  /// - Complexity: O(k (log n + B)) for k rows asked, plus O(log n + B) per
  ///   pass; a pass asks only rows the previous one did not see (at most
  ///   1,024 passes, however small the rows are next to their estimate).
  @inlinable
  public mutating func measureVisibleRows(_ extent: (Int, ID) -> CGFloat) {
    _measureRowsToDraw(proposing: false) { index, id, _ in extent(index, id) }
  }

  /// Changes the estimated extent of unmeasured rows (SPEC X2, S2); with
  /// `.meanOfMeasured` it is the fallback used while no row is measured.
  /// - Returns: The stabilization applied.
  /// - Throws: `LazyStackError.invalidExtent` for NaN, infinite or negative
  ///   values; the layout is unchanged.
  /// - Complexity: O(log n + B): the estimate is folded into the tree's sums,
  ///   no row is touched; with k lanes, O(k m/B) for the m rows of masonry
  ///   sections and O(g/B + k l + B x) for the g rows of grid sections
  ///   whose l blocks hold rows that follow the estimate, x of them beside
  ///   other rows (Lanes.md).
  @inlinable
  @discardableResult
  public mutating func setEstimatedExtent(_ extent: CGFloat) throws(LazyStackError) -> ScrollCorrection {
    _frameEnter()
    defer { _frameExit(.still) }
    guard let units = _FixedPoint.extentUnits(extent) else {
      throw .invalidExtent(extent, what: "estimated extent")
    }
    let before = _capture()
    let laneBefore = _lanesBeforeExtents
    _givenEstimate = units
    _refreshEstimate()
    _lanesFollow(EmptyCollection(), since: laneBefore)
    return _settle(from: before, cause: .estimateChange)
  }

  /// Recomputes the tree's estimate from the policy (SPEC X2), and with
  /// kinds every kind's (K3).
  /// - Complexity: O(1); O(k) for k kinds in use.
  @inlinable
  internal mutating func _refreshEstimate() {
    if _slowPath(_tree._kinds != nil) { return _refreshEstimatesWithKinds() }
    _refreshKindZeroEstimate(measuredSum: _tree.measuredSum, measuredCount: _tree.measuredCount)
  }

  /// `_refreshEstimate` with kinds: kind 0's mean counts only its own
  /// rows (K3). Outlined, so a layout without kinds pays one test for it.
  @inlinable @inline(never)
  internal mutating func _refreshEstimatesWithKinds() {
    let (sum, count) = _tree.measuredTotals(ofKind: 0)
    _refreshKindZeroEstimate(measuredSum: sum, measuredCount: count)
    _refreshKindEstimates()
  }

  /// Sets the tree's estimate (kind 0's) from the policy, given the sum
  /// and number of kind 0's measured rows.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal mutating func _refreshKindZeroEstimate(measuredSum sum: Int64, measuredCount count: Int) {
    switch _estimatePolicy {
    case .fixed:
      if _tree.estimate != _givenEstimate { _setTreeEstimate(_givenEstimate) }
    case .meanOfMeasured:
      let n = Int64(count)
      let mean = n == 0 ? _givenEstimate : (sum &+ n / 2) / n
      if _tree.estimate != mean { _setTreeEstimate(mean) }
    }
  }

  /// Sets the tree's estimate (logged inside a batch, SPEC U1).
  /// - Complexity: O(1).
  @inlinable
  internal mutating func _setTreeEstimate(_ units: Int64) {
    if _slowPath(_batch != nil) {
      // With kinds, an estimate moves only kind 0's rows: the batch keeps
      // the tree instead of replaying the change on every estimated row.
      if _tree._kinds != nil { _logCheckpoint() } else { _log(.estimate(old: _tree.estimate, new: units)) }
    }
    _tree.setEstimate(units)
  }
}
