import Foundation

// SPEC §13 in the layout: section layouts (L1), lane counts (L2), and
// the lane sections' upkeep: laid out again (`_rebuildLanes`) after a
// change no edit followed in place, copied on write (`_writableLanes`).
// `_laneBox` is nil while every section is a list, so a list pays one test
// of a field for lanes on the paths that read a row's place.

extension LazyStackLayout {
  /// The layout-wide section layout (SPEC L1): every section whose header
  /// has none of its own. Setting it re-flows those sections; the kept row
  /// keeps its place on screen.
  /// - Complexity: O(n) for a change (a re-flow), O(1) to read.
  @inlinable
  public var sectionLayout: SectionLayout {
    get { _laneBox?.value.defaultLayout ?? .list }
    set {
      guard newValue != sectionLayout else { return }
      _frameEnter()
      defer { _frameExit(.reset) }  // F6 (e): a re-flow
      _changeLaneLayouts { $0.defaultLayout = newValue }
    }
  }

  /// Gives the section of header `id` its own layout, or with nil the
  /// layout-wide one again (SPEC L1); it follows the id, as roles do (H1),
  /// and applies while the row is a header. Returns false for an id that
  /// is not a row.
  /// - Complexity: O(n) for a change (a re-flow).
  @inlinable @discardableResult
  public mutating func setSectionLayout(_ layout: SectionLayout?, forHeader id: ID) -> Bool {
    _frameEnter()
    defer { _frameExit(.still) }
    guard _tree.contains(id) else { return false }
    guard _laneBox?.value.layoutByHeader[id] != layout else { return true }
    _frameNoteReset()  // F6 (e): a re-flow
    _changeLaneLayouts { $0.layoutByHeader[id] = layout }
    return true
  }

  /// The layout in force for row `index`'s section (SPEC L1).
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n + B).
  @inlinable
  public func sectionLayout(at index: Int) -> SectionLayout {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    guard let lanes = _laneBox?.value else { return .list }
    let rows = _tree.section(containing: index)
    let header = _tree.role(at: rows.lowerBound) == ExtentTree<ID>._headerRole ? _tree.id(at: rows.lowerBound) : nil
    return lanes.layout(forHeader: header)
  }

  /// Row `index`'s lane: its column (vertical) or row (horizontal) in a
  /// grid or masonry section; 0 in a list and for headers and footers.
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(log n).
  @inlinable
  public func lane(at index: Int) -> Int {
    precondition(index >= 0 && index < count, "Row index \(index) out of range 0..<\(count)")
    return _laneBox?.value.lane(of: index) ?? 0
  }

  /// The cross extent lanes share (SPEC L2): the viewport's, less the
  /// cross insets; and where lane 0 starts.
  @inlinable
  internal var _laneCross: (extent: CGFloat, lead: CGFloat) {
    let (lead, trail) = axis == .vertical ? (insets.leading, insets.trailing) : (insets.top, insets.bottom)
    return (Swift.max(0, _viewportCross - lead - trail), lead)
  }

  /// Changes the section layouts, re-flows and stabilizes (SPEC L1).
  @inlinable
  internal mutating func _changeLaneLayouts(_ change: (inout _LaneLayout<ID>) -> Void) {
    let before = _capture()
    var lanes = _laneBox?.value ?? _LaneLayout(tree: ExtentTree(_emptyLike: _tree), defaultLayout: .list, layoutByHeader: [:],
                                      crossExtent: _laneCross.extent, crossLead: _laneCross.lead)
    change(&lanes)
    _laneBox = _LaneBox(lanes)
    _settle(from: before, cause: .snapshot)  // lays the sections out (`_rebuildLanes`), then stabilizes
  }

  /// Lays the lane sections out again from the tree (after any change of
  /// rows, extents, roles, layouts or the viewport's cross extent): masonry
  /// rows keep their lanes (L4); a section whose layout or lane count
  /// changed re-flows. Drops `_lanes` when no section layout is set.
  /// - Complexity: O(n) while any section has lanes; O(1) otherwise.
  @inlinable
  internal mutating func _rebuildLanes() {
    // Read in place, not bound to a copy, until a re-layout needs one.
    guard _laneBox != nil else { return }
    if _laneBox.unsafelyUnwrapped.value.current {  // brought up to date in place by the edit (L8)
      // `current` is no part of the geometry: the rows found meeting the
      // last window (`_meetingCache`, kept up to date by a measurement)
      // stay valid through its write.
      let cached = _meetingCache?.stamp == _stamp
      _writableLanes().value.current = false
      if cached { _meetingCache?.stamp = _stamp }
      // A removed row's layout goes with it here too: else it would come
      // back with the id, and keep `hasLanes` on.
      let layoutByHeader = _laneBox.unsafelyUnwrapped.value.layoutByHeader
      if layoutByHeader.keys.contains(where: { !_tree.contains($0) }) {
        let layouts = _layoutsOfRows(layoutByHeader)
        if Self._keepsLanes(_laneBox.unsafelyUnwrapped.value.defaultLayout, layouts) {
          _writableLanes().value.layoutByHeader = layouts
        } else {
          _laneBox = nil
        }
      }
      return
    }
    let old = _laneBox.unsafelyUnwrapped.value
    let fresh = _LaneLayout(tree: _tree, defaultLayout: old.defaultLayout, layoutByHeader: _layoutsOfRows(old.layoutByHeader),
                            crossExtent: _laneCross.extent, crossLead: _laneCross.lead, keeping: old)
    _laneBox = Self._keepsLanes(fresh.defaultLayout, fresh.layoutByHeader) ? _LaneBox(fresh) : nil
  }

  /// The header layouts whose ids are still rows: layouts follow ids, and
  /// a removed row's goes with it (SPEC L1, H1).
  /// - Complexity: O(h) for h header layouts.
  @inlinable
  internal func _layoutsOfRows(_ layouts: [ID: SectionLayout]) -> [ID: SectionLayout] {
    layouts.filter { _tree.contains($0.key) }
  }

  /// Whether some section lays its rows out in lanes (SPEC L1). The lane
  /// sections can stay while every section is a list (a header's own
  /// `.list`, `_keepsLanes`); then the list's rules apply where lanes have
  /// rules of their own (T1's tracked row, B5's and L7's snapping starts).
  /// - Complexity: O(h) for h header layouts.
  @inlinable @inline(__always)
  internal var _lanesInForce: Bool { _laneBox?.value.hasLanes ?? false }

  /// Whether the lane sections stay: while the layout-wide layout is not a
  /// list, or any header has a layout of its own (a `.list` one too: it
  /// outlasts a later layout-wide change).
  /// - Complexity: O(1).
  @inlinable
  internal static func _keepsLanes(_ defaultLayout: SectionLayout, _ layouts: [ID: SectionLayout]) -> Bool {
    defaultLayout != .list || !layouts.isEmpty
  }

  /// The lane sections, unique to this layout, for a write (copy on write).
  @inlinable
  internal mutating func _writableLanes() -> _LaneBox<ID> {
    if !isKnownUniquelyReferenced(&_laneBox) { _laneBox = _LaneBox(_laneBox.unsafelyUnwrapped.value) }
    _stamp &+= 1  // the caller writes through the reference
    return _laneBox.unsafelyUnwrapped
  }

  /// `setRole` with lanes: sections change, so rows may move; the kept row
  /// keeps its place on screen (SPEC L1, L6).
  @inlinable @inline(never)
  internal mutating func _setRoleInLanes(_ role: RowRole, at location: ExtentTree<ID>._Location) -> Bool {
    let before = _capture()
    let index = location.before.count &+ location.slot
    // Outside a batch the sections match the rows (the last stabilization
    // laid them out), so only the sections around the row are laid out
    // again; in a batch, after edits they did not follow, all of them.
    let around = _batch == nil && _laneBox.unsafelyUnwrapped.value.pendingKeep.isSameRows ? _sections(around: index) : nil
    let old = _tree.setRole(role._code, at: location)
    if _batch != nil && old != role._code { _log(.role(index: index, old: old)) }
    if let around {
      let box = _writableLanes()
      if old != role._code {
        let now = _sections(around: index)
        box.value.relayout(Swift.min(around.lowerBound, now.lowerBound) ..< Swift.max(around.upperBound, now.upperBound), in: _tree)
      }
      box.value.current = true
    }
    _motion.resolved = false
    _settle(from: before, cause: .snapshot)
    _checkInvariants()
    return true
  }

  /// The rows of the sections holding rows `index - 1 ... index + 1`: all
  /// a role change at `index` can change (SPEC H2: it starts, ends, splits
  /// or joins sections there).
  /// - Complexity: O(log n + B).
  @inlinable
  internal func _sections(around index: Int) -> Range<Int> {
    let first = _tree.section(containing: Swift.max(0, index &- 1))
    let last = _tree.section(containing: Swift.min(count &- 1, index &+ 1))
    return first.lowerBound ..< last.upperBound
  }

  /// Whether any section has lanes (the model checks compare lane
  /// queries then).
  /// - Complexity: O(1).
  @inlinable
  package var _laysOutLanes: Bool { _laneBox != nil }

  /// After a viewport change: lanes share its cross extent (L2). A new
  /// width that changes no section's lane count only moves lanes across
  /// (O(s)); one that does re-flows (O(n)).
  @inlinable @inline(never)
  internal mutating func _lanesFollowViewport() {
    let (extent, lead) = _laneCross
    let lanes = _laneBox.unsafelyUnwrapped.value
    guard extent != lanes.crossExtent || lead != lanes.crossLead else { return }
    var moved = lanes
    moved.crossExtent = extent
    moved.crossLead = lead
    if lanes.sections.allSatisfy({ moved.laneCount($0.layout) == $0.run.lanes }) {
      _writableLanes().value.crossExtent = extent
      _writableLanes().value.crossLead = lead
    } else {
      _rebuildLanes()
    }
  }
}
