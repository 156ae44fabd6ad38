import Foundation

extension LazyStackLayout {
  /// Where content smaller than the viewport sits (SPEC D3), in units:
  /// `a.main * (viewportExtent - contentExtent)`, else 0.
  @inlinable @inline(__always)
  internal var _alignmentShift: Int64 {
    let free = _viewportUnits &- _contentUnits
    guard free > 0, let a = _alignmentAnchor else { return 0 }
    return _FixedPoint.scale(free, by: _FixedPoint.fraction(a.fraction(along: axis)))
  }

  /// The index of the row with the given id, or `nil`.
  /// - Complexity: O(log n + B) (B: the block capacity, at most 512).
  @inlinable
  public func index(of id: ID) -> Int? {
    _tree.index(of: id)
  }

  /// Whether a row has the given id.
  /// - Complexity: O(B) expected for B rows a block: a hash lookup, which
  ///   the scan of one block confirms (O(1) for ids given as a range,
  ///   O(log n) while `Int` ids ascend).
  @inlinable
  public func contains(_ id: ID) -> Bool {
    _tree.contains(id)
  }

  /// The id of the row at `index`.
  /// - Precondition: `0 <= index < count` (traps otherwise, like `Array`).
  /// - Complexity: O(log n).
  @inlinable
  public func id(at index: Int) -> ID {
    _tree.id(at: index)
  }

  /// The row's measured extent, or `nil` if it is estimated or unknown.
  /// - Complexity: O(log n + B).
  @inlinable
  public func measuredExtent(for id: ID) -> CGFloat? {
    guard let l = _tree._locate(id: id) else { return nil }
    let stored = _tree._storedExtent(at: l)
    return stored < 0 ? nil : _FixedPoint.points(Int64(stored))
  }

  /// The frame of the row at `index`, in content coordinates (SPEC G2, D3).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n + B).
  @inlinable
  public func frame(at index: Int) -> CGRect {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    return _placedFrame(at: index)
  }

  /// `frame(at:)` in a list (the placement's question, Lanes/+Placement).
  /// - Complexity: O(log n + B).
  @inlinable @inline(__always)
  internal func _listFrame(at index: Int) -> CGRect {
    if _slowPath(_tree._kinds != nil) { return _kindedFrame(at: index) }
    // No call into the tree on this path: each would copy it first (the
    // tree is a large struct, see HowItWorks' "Calls into the tree").
    let span = _tree._plainSpan(at: _tree._locate(index))
    return _rect(start: span.start, extent: span.extent)
  }

  /// `frame(at:)` with kinds (SPEC K1).
  @inlinable @inline(never)
  internal func _kindedFrame(at index: Int) -> CGRect {
    let span = _tree.span(index)
    return _rect(start: span.start, extent: span.extent)
  }

  /// The frame of the row with the given id, or `nil` if there is none.
  /// - Complexity: O(log n + B).
  @inlinable
  public func frame(of id: ID) -> CGRect? {
    guard let index = _tree.index(of: id) else { return nil }
    return frame(at: index)
  }

  @inlinable @inline(__always)
  internal func _rect(start: Int64, extent: Int64) -> CGRect {
    let main = _FixedPoint.points(_alignmentShift &+ _leadingInset &+ start)
    let length = _FixedPoint.points(extent)
    let lead = axis == .vertical ? insets.leading : insets.top
    let crossLength = _listCrossLength
    return axis == .vertical
      ? CGRect(x: lead, y: main, width: crossLength, height: length)
      : CGRect(x: main, y: lead, width: length, height: crossLength)
  }

  /// The cross-axis extent of a list row's frame (and of a header's or a
  /// footer's, which span the lanes): the content's, less the cross insets.
  @inlinable @inline(__always)
  internal var _listCrossLength: CGFloat {
    let crossInsets = axis == .vertical ? (insets.leading, insets.trailing) : (insets.top, insets.bottom)
    return Swift.max(0, _crossContent - crossInsets.0 - crossInsets.1)
  }

  /// The row at a main-axis content offset (SPEC G4), or `nil` if there are
  /// no rows.
  ///
  /// A row covers `[start, end)`. An offset in spacing or an inset gives the
  /// next row; an offset past the end gives the last row. Rows of zero
  /// extent are skipped: the result is the first non-empty row whose end is
  /// after the offset, else the last non-empty row. Only when every row is
  /// empty is an empty row returned: the first one whose start is at or
  /// after the offset, else the last row.
  /// - Parameter offset: In the coordinates of `frame(at:)`. NaN gives `nil`.
  /// - Complexity: O(log n + B).
  @inlinable
  public func index(atOffset offset: CGFloat) -> Int? {
    guard count > 0, !offset.isNaN else { return nil }
    let y = _FixedPoint.units(offset) &- _alignmentShift
    return _row(atUnits: y)
  }

  /// `_row(atUnits:)` in a list (the placement's question, Lanes/+Placement).
  /// - Complexity: O(log n + B).
  @inlinable @inline(__always)
  internal func _listRow(atUnits y: Int64) -> Int {
    let nonEmpty = _tree.nonEmptyCount
    if nonEmpty == 0 {
      return Swift.min(_firstStart(atOrAfter: y), count &- 1)
    }
    // end(i) > y  <=>  pitchPrefix(i + 1) > y - leading + spacing
    if let hit = _tree._firstRowSpan(withPitchPrefixAfterAbove: y &- _leadingInset &+ _tree.spacing) {
      if hit.extent > 0 { return hit.row }
      let rank = _tree.nonEmptyRows(before: hit.row)
      if rank < nonEmpty { return _tree.nonEmptyRow(rank: rank) }
    }
    return _tree.nonEmptyRow(rank: nonEmpty &- 1)
  }

  /// The first row whose start is at or after `y` (unshifted content units).
  @inlinable
  internal func _firstStart(atOrAfter y: Int64) -> Int {
    _tree.rowsStarting(before: y &- _leadingInset)
  }

  /// The rows that intersect the viewport, widened by `overscan` (SPEC G5).
  ///
  /// A row of extent > 0 is visible when `[start, end)` meets
  /// `[offset, offset + viewportExtent)`; a row of zero extent when its
  /// start lies in that interval. An empty list or a zero viewport gives an
  /// empty range.
  /// - Complexity: O(log n + B).
  @inlinable
  public var visibleIndices: Range<Int> {
    let lowerPoints: Int64
    let upperPoints: Int64
    switch overscan.before {
    case .points(let p): lowerPoints = p.isFinite && p > 0 ? _FixedPoint.units(p) : 0
    case .rows: lowerPoints = 0
    }
    switch overscan.after {
    case .points(let p): upperPoints = p.isFinite && p > 0 ? _FixedPoint.units(p) : 0
    case .rows: upperPoints = 0
    }
    let viewport = _viewportUnits
    guard count > 0, viewport > 0 else { return _emptyVisibleRange }
    let low = _offset &- _alignmentShift &- lowerPoints
    var range = _rows(intersecting: low, low &+ viewport &+ lowerPoints &+ upperPoints)
    if case .rows(let k) = overscan.before, k > 0, !range.isEmpty {
      range = Swift.max(0, range.lowerBound &- k) ..< range.upperBound
    }
    if case .rows(let k) = overscan.after, k > 0, !range.isEmpty {
      range = range.lowerBound ..< Swift.min(count, range.upperBound &+ (k > count ? count : k))
    }
    return range
  }

  /// An empty range where the first visible row would be.
  @inlinable
  internal var _emptyVisibleRange: Range<Int> {
    guard count > 0 else { return 0 ..< 0 }
    // With lanes a row that spans the empty viewport's edge comes first
    // (in a list it is the first row that ends after it anyway).
    if let spanning = _rowSpanning(_offset &- _alignmentShift) { return spanning ..< spanning }
    let first = _firstVisible(from: _offset &- _alignmentShift)
    return first ..< first
  }

  /// `_firstVisible`, with the row the search found (the first row that
  /// ends at or after `low`), so a caller can walk on from it; `nil` when
  /// no row does.
  @inlinable @inline(__always)
  internal func _firstVisibleSpan(from low: Int64) -> (first: Int, hit: ExtentTree<ID>._RowSpan)? {
    guard let hit = _tree._firstRowSpanInline(withPitchPrefixAfterAbove: _firstVisibleThreshold(low),
                                              hint: _nearHint) else { return nil }
    return (_firstVisible(of: hit, from: low), hit)
  }

  /// The pitch-prefix threshold whose first row (the search's hit) is the
  /// first row with end >= `low` ...
  @inlinable @inline(__always)
  internal func _firstVisibleThreshold(_ low: Int64) -> Int64 {
    low &- 1 &- _leadingInset &+ _tree.spacing
  }

  /// ... which is the first visible row, unless it is a non-empty row that
  /// ends exactly at `low`.
  @inlinable @inline(__always)
  internal func _firstVisible(of hit: ExtentTree<ID>._RowSpan, from low: Int64) -> Int {
    let endsAtLow = hit.extent > 0 && _leadingInset &+ hit.start &+ hit.extent == low
    return endsAtLow ? hit.row &+ 1 : hit.row
  }

  /// Where searches near the viewport start: the anchor row's block as the
  /// last stabilization found it, or -1 (no row anchor).
  @inlinable @inline(__always)
  internal var _nearHint: Int {
    if case .row = _anchor { return _seen.position }
    return -1
  }

  /// `_rows(intersecting:_:)` in a list (the placement's question,
  /// Lanes/+Placement).
  /// - Complexity: O(log n + B).
  @inlinable @inline(__always)
  internal func _listRows(intersecting low: Int64, _ high: Int64) -> Range<Int> {
    if _slowPath(_tree._kinds != nil) { return _kindedRows(intersecting: low, high) }
    // No call here takes the tree: the compiler copied it (256 bytes) at
    // the top of this function for one, every frame. The first row is
    // searched inline, the end walked to from it, and only a search past
    // the walk is a call, of the layout's.
    guard let hit = _tree._plainFirstRowSpan(withPitchPrefixAfterAbove: _firstVisibleThreshold(low),
                                             hint: _nearHint) else { return count ..< count }
    let first = _firstVisible(of: hit, from: low)
    let limit = high &- _leadingInset
    let end = _tree._walkedRowsStarting(before: limit, from: hit) ?? _searchedRowsStarting(before: limit)
    return end > first ? first ..< end : first ..< first
  }

  /// `_rows(intersecting:_:)` with kinds (SPEC K1).
  @inlinable @inline(never)
  internal func _kindedRows(intersecting low: Int64, _ high: Int64) -> Range<Int> {
    guard let (first, hit) = _firstVisibleSpan(from: low) else { return count ..< count }
    let end = _tree.rowsStarting(before: high &- _leadingInset, walkingFrom: hit)
    return end > first ? first ..< end : first ..< first
  }

  /// `_tree.rowsStarting(before:)`, called from a function that must not
  /// pass the tree to a call itself (`_rows(intersecting:_:)`).
  @inlinable @inline(never)
  internal func _searchedRowsStarting(before limit: Int64) -> Int {
    _tree.rowsStarting(before: limit)
  }

}
