import Foundation

/// The model behind a lazy stack: every row's identity and extent, the
/// viewport, the visible rows, programmatic scrolling, tracking and the
/// stability of the user's place while data, sizes and measurements change.
///
///     var layout = try LazyStackLayout(ids: messages.map(\.id), estimatedExtent: 44)
///     layout.defaultScrollAnchor(.bottom)          // a chat: start at the newest row
///     layout.viewportSize = CGSize(width: 390, height: 800)
///     for i in layout.visibleIndices {
///       layout.setMeasuredExtent(height(of: i), for: layout.id(at: i))
///     }
///     layout.userScroll(to: CGPoint(x: 0, y: layout.contentOffset.y - 30))
///     try layout.insert([newest.id], at: layout.count)  // stays pinned if at the end
///
/// It draws nothing: a UI layer reads `contentOffset`, `visibleIndices` and
/// `frame(at:)`, and reports sizes, scrolls and data changes back.
///
/// A value type: copies are independent (copy-on-write storage), and it is
/// `Sendable`. Extents are kept in exact fixed-point units of 1/256 pt.
public struct LazyStackLayout<ID: Hashable & Sendable>: Sendable {
  /// What the layout keeps stable (SPEC §6, §7).
  @usableFromInline
  internal enum _Anchor: Sendable {
    /// No explicit position: the default scroll anchors apply (D2, D4).
    case automatic
    /// Pinned to an edge (S8).
    case edge(Edge)
    /// A point position: only clamped (S9).
    case point
    /// A row: its point at `fraction` stands `delta` units after the
    /// viewport's point at the same fraction (R3, R4, T1, S1–S6).
    case row(ID, fraction: CGFloat, delta: Int64)
  }

  /// The anchor row as the last stabilization left it (SPEC S12): its extent
  /// and its stored state, so the next change can tell whether the row's own
  /// extent changed, and from what.
  @usableFromInline
  internal struct _SeenRow: Sendable {
    @usableFromInline var extent: Int64
    /// The stored extent: measured (>= 0), estimated (-1), invalidated (-2).
    @usableFromInline var stored: Int32
    /// The anchor row took a deleted row's place since (S5): its extent
    /// change counts as S12 (a), from the deleted row's.
    @usableFromInline var survivor: Bool
    /// The position of the anchor row's block then (-1: none): where
    /// searches near the viewport start (a hint, checked; edits may move it).
    @usableFromInline var position: Int

    @inlinable
    init(extent: Int64 = 0, stored: Int32 = -1, survivor: Bool = false, position: Int = -1) {
      self.extent = extent
      self.stored = stored
      self.survivor = survivor
      self.position = position
    }
  }

  /// Every row's identity and extent. A write moves `_stamp` on.
  @usableFromInline internal var _tree: ExtentTree<ID> {
    didSet { _stamp &+= 1 }  // no `oldValue`: the tree is still written in place
  }
  @usableFromInline internal var _anchor: _Anchor
  /// Valid while `_anchor` is `.row`: that row as it was seen last.
  @usableFromInline internal var _seen: _SeenRow
  /// The position as last written (by a programmatic scroll, a user
  /// scroll's tracking or a position written back); any write makes it
  /// current again (see `_viewIDStale`).
  @usableFromInline internal var _position: ScrollPosition {
    didSet {
      _viewIDStale = false
      _trackedPositionID = nil
    }
  }
  /// The id of `_position` while it is the one a user scroll's tracking
  /// wrote (`.id(id)`, positioned by the user), else `nil`: a scroll frame
  /// that tracks the same row as the last one compares two ids instead of
  /// writing a position (an existential) again (`_setTrackedPosition`).
  @usableFromInline internal var _trackedPositionID: ID?
  /// A stabilization changed the layout under a position the user scrolled
  /// to: `position` names the row now at the anchor point, derived when
  /// read (SPEC T1), rather than `_position`'s row.
  @usableFromInline internal var _viewIDStale = false
  @usableFromInline internal var _viewport: CGSize {
    didSet { _viewportMain = _FixedPoint.units(axis == .vertical ? _viewport.height : _viewport.width) }
  }
  /// The main-axis viewport extent in units, kept with `_viewport` (read
  /// by every query near the viewport: no rounding on each read).
  @usableFromInline internal var _viewportMain: Int64 = 0
  /// The main-axis content offset in units, always in `0 ... _maxOffset`.
  @usableFromInline internal var _offset: Int64
  @usableFromInline internal var _crossOffset: CGFloat
  @usableFromInline internal var _leadingInset: Int64
  @usableFromInline internal var _trailingInset: Int64
  @usableFromInline internal var _givenEstimate: Int64
  @usableFromInline internal var _hasLaidOut: Bool
  @usableFromInline internal var _initialAnchor: UnitPoint?
  @usableFromInline internal var _sizeChangesAnchor: UnitPoint?
  @usableFromInline internal var _alignmentAnchor: UnitPoint?
  @usableFromInline internal var _scrollAnchor: UnitPoint?
  @usableFromInline internal var _estimatePolicy: EstimatePolicy
  /// Which section rows are pinned (SPEC H3–H6).
  @usableFromInline internal var _pinnedViews: PinnedScrollableViews
  /// `LazyStackInternalChecks.isEnabled` when the layout was created.
  @usableFromInline internal var _checks: Bool
  /// The phase and any motion the layout drives (SPEC §12).
  @usableFromInline internal var _motion: _Motion

  /// The main axis. - Complexity: O(1).
  public let axis: Axis
  /// The spacing between adjacent rows, in points (rounded to 1/256 pt).
  public let spacing: CGFloat
  /// The insets around the content.
  public let insets: EdgeInsets
  /// How far beyond the viewport `visibleIndices` reaches (SPEC G5).
  public var overscan: Overscan = .none
  /// The cross-axis content extent; `nil` means the viewport's (SPEC G3).
  public var crossAxisContentExtent: CGFloat? {
    didSet { _clampCrossOffset() }
  }
  /// How close to `maxOffset` (in points) the offset must be for the end
  /// of the content to count as visible, for a `.bottom` size-changes anchor
  /// (SPEC D4). Default 1 pt.
  public var pinnedToEndTolerance: CGFloat = 1
  @usableFromInline
  internal var _lastCorrection: ScrollCorrection = .none
  @usableFromInline
  internal var _lastPositionResult: PositionResult = .none
  /// The batch in progress (SPEC U1), or `nil`.
  @usableFromInline internal var _batch: _BatchLog?
  /// A restore waiting for its row to arrive (SPEC C3), or `nil`.
  @usableFromInline internal var _pendingRestore: _PendingRestore<ID>?
  /// The grid and masonry sections (SPEC §13), or `nil` while every
  /// section is a list: one reference, so a list's copies, calls and
  /// tests of it cost one word.
  @usableFromInline internal var _laneBox: _LaneBox<ID>? {
    didSet { _stamp &+= 1 }
  }
  /// Moves on with every write to the rows (`_tree`) or the lane sections
  /// (`_laneBox`, `_writableLanes()`): what was read from them under the
  /// same stamp still holds.
  @usableFromInline internal var _stamp: UInt64 = 0
  /// The rows a scroll frame's tracking found meeting its window, kept for
  /// the `visibleRows` that follows (lanes only; `nil` otherwise).
  @usableFromInline internal var _meetingCache: _MeetingSpans?
  /// SPEC §16: the indicator, the edge triggers, the kept ids.
  @usableFromInline internal var _frame = _FrameState<ID>()

  /// The correction the last stabilization applied (SPEC S11): every
  /// measurement, estimate change, snapshot, edit, viewport change and
  /// programmatic scroll sets it.
  /// - Complexity: O(1).
  @inlinable
  public var lastCorrection: ScrollCorrection { _lastCorrection }

  /// How the last write to `position` resolved (SPEC R5).
  /// - Complexity: O(1).
  @inlinable
  public var lastPositionResult: PositionResult { _lastPositionResult }

  /// Creates a layout of estimated rows.
  ///
  ///     let layout = try LazyStackLayout(ids: 0 ..< 1_000_000, estimatedExtent: 44, spacing: 8)
  ///
  /// - Parameters:
  ///   - ids: The rows' ids, in order; they must be unique.
  ///   - estimatedExtent: The main-axis extent of a row until it is measured.
  ///   - spacing: The distance between adjacent rows.
  ///   - axis: The main axis.
  ///   - insets: The insets around the content.
  /// - Throws: `LazyStackError.duplicateID` for a repeated id;
  ///   `LazyStackError.invalidExtent` for a NaN, infinite or negative
  ///   estimate, spacing or inset.
  /// - Complexity: O(n), where n is the number of ids.
  @inlinable
  public init(
    ids: some Sequence<ID>, estimatedExtent: CGFloat, spacing: CGFloat = 0,
    axis: Axis = .vertical, insets: EdgeInsets = EdgeInsets()
  ) throws(LazyStackError) {
    try self.init(ids: ids, estimatedExtent: estimatedExtent, spacing: spacing, axis: axis,
                  insets: insets, blockCapacity: ExtentTree<ID>.defaultBlockCapacity)
  }

  /// The designated initializer, with the block capacity exposed for tests
  /// (tiny blocks reach splits and merges with small inputs).
  /// - Complexity: O(n).
  @inlinable
  package init(
    ids: some Sequence<ID>, estimatedExtent: CGFloat, spacing: CGFloat,
    axis: Axis, insets: EdgeInsets, blockCapacity: Int
  ) throws(LazyStackError) {
    guard let estimate = _FixedPoint.extentUnits(estimatedExtent) else {
      throw .invalidExtent(estimatedExtent, what: "estimated extent")
    }
    guard let spacingUnits = _FixedPoint.extentUnits(spacing) else {
      throw .invalidExtent(spacing, what: "spacing")
    }
    for (value, name) in [(insets.top, "top inset"), (insets.leading, "leading inset"),
                          (insets.bottom, "bottom inset"), (insets.trailing, "trailing inset")]
    where !(value.isFinite && value >= 0) {
      throw .invalidExtent(value, what: name)
    }
    _tree = try ExtentTree(ids: ids, estimate: estimate, spacing: spacingUnits, blockCapacity: blockCapacity)
    self.axis = axis
    self.spacing = _FixedPoint.points(spacingUnits)
    self.insets = insets
    let mainInsets = axis == .vertical ? (insets.top, insets.bottom) : (insets.leading, insets.trailing)
    _leadingInset = min(_FixedPoint.units(mainInsets.0), _FixedPoint.maxExtentUnits)
    _trailingInset = min(_FixedPoint.units(mainInsets.1), _FixedPoint.maxExtentUnits)
    _givenEstimate = estimate
    _anchor = .automatic
    _seen = _SeenRow()
    _position = ScrollPosition(idType: ID.self)
    _viewport = .zero
    _offset = 0
    _crossOffset = 0
    _hasLaidOut = false
    _initialAnchor = nil
    _sizeChangesAnchor = nil
    _alignmentAnchor = nil
    _scrollAnchor = nil
    _estimatePolicy = .fixed
    _pinnedViews = []
    crossAxisContentExtent = nil
    _checks = _internalChecksSwitch()
    _motion = _Motion()
    _batch = nil
    _pendingRestore = nil
    _laneBox = nil
    _checkInvariants()
  }

  // MARK: Basic properties

  /// The number of rows.
  /// - Complexity: O(1).
  @inlinable
  public var count: Int { _tree.count }

  /// Whether there are no rows.
  /// - Complexity: O(1).
  @inlinable
  public var isEmpty: Bool { _tree.count == 0 }

  /// Every id, in order.
  /// - Complexity: O(n).
  @inlinable
  public var ids: [ID] { _tree.ids }

  /// The extent of unmeasured rows given by the caller (the fixed estimate,
  /// or the fallback of `.meanOfMeasured` while nothing is measured).
  /// - Complexity: O(1).
  @inlinable
  public var estimatedExtent: CGFloat { _FixedPoint.points(_givenEstimate) }

  /// The extent unmeasured rows have right now (SPEC X2).
  /// - Complexity: O(1).
  @inlinable
  public var currentEstimate: CGFloat { _FixedPoint.points(_tree.estimate) }

  /// What unmeasured rows are estimated at (SPEC X2). Changing it
  /// stabilizes like an estimate change (S2).
  /// - Complexity: O(log n + B) (B: the block capacity, at most 512); with
  ///   k lanes, O(k m/B) for the m rows of masonry sections and O(g/B + k
  ///   l + B x) for the g rows of grid sections whose l blocks hold rows
  ///   that follow the estimate, x of them beside other rows (Lanes.md).
  @inlinable
  public var estimatePolicy: EstimatePolicy {
    get { _estimatePolicy }
    set {
      guard newValue != _estimatePolicy else { return }
      _frameEnter()
      defer { _frameExit(.still) }
      let before = _capture()
      let laneBefore = _lanesBeforeExtents
      _estimatePolicy = newValue
      _refreshEstimate()
      _lanesFollow(EmptyCollection(), since: laneBefore)
      _settle(from: before, cause: .estimateChange)
    }
  }

  /// The main-axis viewport extent in units.
  @inlinable @inline(__always)
  internal var _viewportUnits: Int64 { _viewportMain }

  /// The cross-axis viewport extent in points.
  @inlinable @inline(__always)
  internal var _viewportCross: CGFloat {
    axis == .vertical ? _viewport.width : _viewport.height
  }

  /// The largest main-axis offset in units (G3).
  @inlinable @inline(__always)
  internal var _maxOffset: Int64 {
    Swift.max(0, _contentUnits &- _viewportUnits)
  }

  /// The largest main-axis content offset (G3).
  /// - Complexity: O(1).
  @inlinable
  public var maxOffset: CGFloat { _FixedPoint.points(_maxOffset) }

  /// The cross-axis content extent in points.
  @inlinable
  internal var _crossContent: CGFloat {
    if let c = crossAxisContentExtent, c.isFinite, c >= 0 { return c }
    return _viewportCross
  }

  /// The viewport size. Setting it lays the rows out (the first time the
  /// main-axis extent is positive: S7, D2) and keeps the user's place (S6,
  /// S8, D4). NaN, infinite or negative components are clamped to 0.
  /// - Complexity: O(log n + B).
  @inlinable
  public var viewportSize: CGSize {
    get { _viewport }
    set { _setViewportSize(newValue) }
  }

  /// The content offset, clamped to `0 ... maxOffset` on the main axis (G3).
  /// - Complexity: O(1).
  @inlinable
  public var contentOffset: CGPoint {
    let main = _FixedPoint.points(_offset)
    return axis == .vertical ? CGPoint(x: _crossOffset, y: main) : CGPoint(x: main, y: _crossOffset)
  }

  /// The content size: the main-axis content extent (G2) and the cross-axis
  /// content extent.
  /// - Complexity: O(1).
  @inlinable
  public var contentSize: CGSize {
    let main = _FixedPoint.points(_contentUnits)
    return axis == .vertical ? CGSize(width: _crossContent, height: main)
      : CGSize(width: main, height: _crossContent)
  }

  /// The scroll anchor of `scrollPosition(_:anchor:)` (SPEC R7, T1): the
  /// anchor of id positions that give none, and the viewport point whose row
  /// is tracked while the user scrolls. Setting it re-tracks a user position
  /// at the current offset (the offset does not move).
  /// - Complexity: O(log n + B).
  @inlinable
  public var scrollAnchor: UnitPoint? {
    get { _scrollAnchor }
    set {
      _frameEnter()
      defer { _frameExit(.still) }
      if _slowPath(_batch != nil) {  // U1: tracking runs outside the batch
        let log = _suspendBatch()
        self.scrollAnchor = newValue
        return _resumeBatch(log)
      }
      _scrollAnchor = newValue
      if _position.isPositionedByUser { _track() }
    }
  }

  /// The default anchor of one role (SPEC D1).
  /// - Complexity: O(1).
  @inlinable
  public func defaultScrollAnchor(for role: ScrollAnchorRole) -> UnitPoint? {
    switch role._role {
    case .initialOffset: _initialAnchor
    case .sizeChanges: _sizeChangesAnchor
    case .alignment: _alignmentAnchor
    }
  }

  /// Sets the default anchor of every role (SPEC D1): `.bottom` makes a chat
  /// list that starts at its newest row and stays pinned there.
  /// - Complexity: O(1).
  @inlinable
  public mutating func defaultScrollAnchor(_ anchor: UnitPoint?) {
    _initialAnchor = anchor
    _sizeChangesAnchor = anchor
    _alignmentAnchor = anchor
  }

  /// Sets the default anchor of one role (SPEC D1).
  /// - Complexity: O(1).
  @inlinable
  public mutating func defaultScrollAnchor(_ anchor: UnitPoint?, for role: ScrollAnchorRole) {
    switch role._role {
    case .initialOffset: _initialAnchor = anchor
    case .sizeChanges: _sizeChangesAnchor = anchor
    case .alignment: _alignmentAnchor = anchor
    }
  }
}
