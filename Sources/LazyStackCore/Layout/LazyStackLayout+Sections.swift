import Foundation

/// What a row is in its section (SPEC H1): a plain row, the section's
/// header or its footer. Headers and footers are rows like any other (an
/// id, an extent, a place in the flow); pinning them (`pinnedViews`)
/// changes only where the UI draws them and where a programmatic scroll
/// lands.
public enum RowRole: Hashable, Sendable {
  /// A plain row (every row's role until it is given another).
  case row
  /// The first row of a section.
  case sectionHeader
  /// The last row of a section.
  case sectionFooter

  @inlinable
  internal var _code: UInt8 {
    switch self {
    case .row: 0
    case .sectionHeader: 1
    case .sectionFooter: 2
    }
  }

  @inlinable
  internal init(_code code: UInt8) {
    switch code {
    case 1: self = .sectionHeader
    case 2: self = .sectionFooter
    default: self = .row
    }
  }
}

/// Which section rows stay pinned to the viewport's edges while their
/// section is on screen, as SwiftUI's `LazyVStack(pinnedViews:)` (SPEC H3, H4).
public struct PinnedScrollableViews: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32

  /// Creates a set from its raw value. - Complexity: O(1).
  @inlinable
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Section headers stick to the viewport's leading edge (H3), and a
  /// programmatic scroll lands under them (H6).
  public static let sectionHeaders = PinnedScrollableViews(rawValue: 1 << 0)
  /// Section footers stick to the viewport's trailing edge (H4).
  public static let sectionFooters = PinnedScrollableViews(rawValue: 1 << 1)
}

/// A pinned row and where the UI draws it (SPEC H5).
public struct PinnedRow: Hashable, Sendable {
  /// The row's index.
  public var index: Int
  /// Where the row is drawn, in content coordinates (the coordinates of
  /// `frame(at:)`; equal to it when the row is in its natural place).
  public var frame: CGRect

  /// Creates a pinned row. - Complexity: O(1).
  @inlinable
  public init(index: Int, frame: CGRect) {
    self.index = index
    self.frame = frame
  }
}

extension LazyStackLayout {
  /// Which section rows are pinned (SPEC H3–H6); default none. Changing it
  /// moves no row and no offset: a pending programmatic target uses it from
  /// its next re-resolution (H1).
  /// - Complexity: O(1).
  @inlinable
  public var pinnedViews: PinnedScrollableViews {
    get { _pinnedViews }
    set {
      _pinnedViews = newValue
      _motion.resolved = false  // an animation's target under its pinned header (H6, M4)
    }
  }

  /// Gives a row a role (SPEC H1). Roles follow ids through edits and
  /// snapshots; ids new to the layout are plain rows. Moves no row and no
  /// offset: a pending programmatic target uses the role from its next
  /// re-resolution.
  ///
  ///     for id in letterIDs { layout.setRole(.sectionHeader, for: id) }
  ///     layout.pinnedViews = .sectionHeaders
  ///
  /// - Returns: `false` if no row has this id (nothing changes).
  /// - Complexity: O(log n + B) (B: the block capacity, at most 512); with
  ///   lanes O(log n + B + k m + s): the m rows of the sections around the
  ///   row (k lanes) are laid out again, among s lane sections (in
  ///   ``performBatch(_:)`` after edits the lanes did not follow, O(n)).
  @inlinable
  @discardableResult
  public mutating func setRole(_ role: RowRole, for id: ID) -> Bool {
    _frameEnter()
    defer { _frameExit(.still) }
    guard let location = _tree._locate(id: id) else { return false }
    if let done = _placementSetsRole(role, at: location) { return done }
    let old = _tree.setRole(role._code, at: location)
    if _slowPath(_batch != nil) && old != role._code { _log(.role(index: location.before.count &+ location.slot, old: old)) }
    _motion.resolved = false  // an animation's target under its pinned header (H6, M4)
    _checkInvariants()
    return true
  }

  /// The role of the row at `index` (SPEC H1).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n).
  @inlinable
  public func role(at index: Int) -> RowRole {
    RowRole(_code: _tree.role(at: index))
  }

  /// The section holding the row at `index`, header and footer included
  /// (SPEC H2): it starts at a header, at the first row, or right after a
  /// footer, and ends before the next header, with its footer, or at the
  /// last row. A list without headers and footers is one section.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n + B).
  @inlinable
  public func section(containing index: Int) -> Range<Int> {
    _tree.section(containing: index)
  }

  /// Where the UI draws the pinned rows (SPEC H3–H5): the header of the
  /// section of the first row that meets the viewport (if `pinnedViews`
  /// holds `.sectionHeaders` and that section has one), stuck to the
  /// viewport's leading edge and pushed out by its section's end; then the
  /// footer of the section of the last row that meets the viewport (with
  /// `.sectionFooters`), stuck to the trailing edge. Each frame is in
  /// content coordinates and equals `frame(at:)` when the row is in its
  /// natural place. `frame(at:)` and `visibleIndices` do not change: a
  /// pinned row need not be visible, and the UI draws it over the others.
  /// An empty list or a zero viewport has no pinned rows.
  /// - Complexity: O(log n + B).
  @inlinable
  public var pinnedRows: [PinnedRow] {
    guard !_pinnedViews.isEmpty, _tree._roleTotal != 0, count > 0 else { return [] }
    let viewport = _viewportUnits
    guard viewport > 0 else { return [] }
    let shift = _alignmentShift
    let low = _offset &- shift
    let visible = _rows(intersecting: low, low &+ viewport)
    guard !visible.isEmpty else { return [] }
    // Frames in unshifted units (relative to the content's start), shifted on output.
    func start(_ i: Int) -> Int64 { _leadingInset &+ _placedStart(i) }
    var result: [PinnedRow] = []
    if _pinnedViews.contains(.sectionHeaders) {
      let section = _tree.section(containing: visible.lowerBound)
      let h = section.lowerBound
      if _tree.role(at: h) == ExtentTree<ID>._headerRole {
        let header = _span(h)
        let end = _leadingInset &+ _sectionEnd(section)
        let natural = _leadingInset &+ header.start
        let place = Swift.max(natural, Swift.min(low, end &- header.extent))
        result.append(PinnedRow(index: h, frame: _rect(start: place &- _leadingInset, extent: header.extent)))
      }
    }
    if _pinnedViews.contains(.sectionFooters) {
      let section = _tree.section(containing: visible.upperBound &- 1)
      let f = section.upperBound &- 1
      if _tree.role(at: f) == ExtentTree<ID>._footerRole {
        let footer = _span(f)
        let natural = _leadingInset &+ footer.start
        let first = start(section.lowerBound)
        let place = Swift.min(natural, Swift.max(low &+ viewport &- footer.extent, first))
        result.append(PinnedRow(index: f, frame: _rect(start: place &- _leadingInset, extent: footer.extent)))
      }
    }
    return result
  }

  /// The viewport a programmatic target of `row` lands in (SPEC H6), as
  /// what its leading and trailing edges lose: the extent of the row's
  /// section header when headers are pinned (and the row is not that
  /// header), and then of its footer when footers are pinned too (and the
  /// row is not that footer). Both 0 when H6 does not apply.
  /// - Complexity: O(1) without pinned headers, else O(log n + B).
  @inlinable @inline(__always)
  internal func _pinnedInsets(for row: ExtentTree<ID>._RowInfo) -> (lead: Int64, trail: Int64) {
    guard _pinnedViews.contains(.sectionHeaders) else { return (0, 0) }
    return _tree._sectionInsets(of: row.index, footers: _pinnedViews.contains(.sectionFooters))
  }

  /// The offset a programmatic target of `row` asks for (R3, R4, R6):
  /// `_rowTarget` in the viewport less the pinned rows of H6,
  /// `start + a * e - lead - a * (viewport - lead - trail) - delta`.
  ///
  /// When that would leave the row outside the viewport (a pinned header
  /// and footer that leave it no room: as tall as the viewport, or grown
  /// past the row since the scroll), the whole viewport is used instead,
  /// so the row stays on screen (S13).
  /// - Complexity: O(1) without pinned headers, else O(log n + B).
  @inlinable @inline(__always)
  internal func _programmaticTarget(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat, delta: Int64) -> Int64 {
    let (lead, trail) = _pinnedInsets(for: row)
    guard lead != 0 || trail != 0 else { return _rowTarget(row, fraction: fraction, delta: delta) }
    let viewport = _viewportUnits
    let target = _pinnedTarget(row, fraction: fraction, lead: lead, trail: trail) &- delta
    // Where the row would start in the viewport.
    let place = _leadingInset &+ row.start &- target
    let meets = row.extent > 0 ? place < viewport && place &+ row.extent > 0 : place >= 0 && place <= viewport
    return meets ? target : _rowTarget(row, fraction: fraction, delta: delta)
  }

  /// H6's target of `row` at delta 0: `_rowTarget`'s in the viewport less
  /// `lead` and `trail` (`_pinnedInsets`),
  /// `start + a * e - lead - a * (viewport - lead - trail)`.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  internal func _pinnedTarget(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat, lead: Int64, trail: Int64) -> Int64 {
    _leadingInset &+ row.start &+ _FixedPoint.scale(row.extent, by: fraction) &- lead
      &- _FixedPoint.scale(_viewportUnits &- lead &- trail, by: fraction)
  }

  /// The offset the row anchor asks for: a position the user scrolled to
  /// keeps its row where it is on screen (T1, T3, pinned rows or not); a
  /// pending programmatic target is re-resolved under the pinned header
  /// (H6, R6).
  @inlinable @inline(__always)
  internal func _anchorTarget(_ row: ExtentTree<ID>._RowInfo, fraction: CGFloat, delta: Int64) -> Int64 {
    _pinnedViews.isEmpty || _keepsPlaceOnScreen
      ? _rowTarget(row, fraction: fraction, delta: delta)
      : _programmaticTarget(row, fraction: fraction, delta: delta)
  }
}
