import Foundation

// Lanes (SPEC §13): the layouts a section can have, under their DESIGN §1
// names. `LazyStackLayout` takes them through package API until its lanes
// are complete (see `LazyStackLayout+Lanes.swift`).

/// How many lanes a grid or masonry section has (SPEC L2).
public enum LaneCount: Hashable, Sendable {
  /// Exactly this many lanes (1 to 256: a row's lane is kept in a byte).
  case fixed(Int)
  /// As many lanes of at least this cross extent as fit:
  /// k = max(1, floor((c + s) / (w + s))) for a cross extent c and lane
  /// spacing s, at most 256 (a documented clamp: a row's lane is kept in
  /// a byte).
  case adaptive(minimum: CGFloat)

  /// The number of lanes in a cross extent `crossExtent` (the viewport's,
  /// less the cross insets) with lane spacing `spacing` (SPEC L2).
  /// - Complexity: O(1).
  @inlinable
  public func count(crossExtent: CGFloat, spacing: CGFloat) -> Int {
    switch self {
    case .fixed(let k):
      return k
    case .adaptive(let minimum):
      let c = Swift.max(0, crossExtent.isFinite ? crossExtent : 0)
      let fit = ((c + spacing) / (minimum + spacing)).rounded(.down)
      return fit >= 1 ? Int(Swift.min(fit, CGFloat(_LaneBlocks.maxLanes))) : 1
    }
  }

  /// Throws the typed error for a lane count that cannot be laid out: a
  /// fixed count outside 1...256, an adaptive minimum that is not finite and
  /// positive (SPEC L2, X5).
  /// - Throws: `LazyStackError.invalidLaneCount`, `.invalidExtent`.
  /// - Complexity: O(1).
  @inlinable
  public func validate() throws(LazyStackError) {
    switch self {
    case .fixed(let k):
      if k < 1 || k > _LaneBlocks.maxLanes { throw .invalidLaneCount(k) }
    case .adaptive(let minimum):
      if !(minimum.isFinite && minimum > 0) { throw .invalidExtent(minimum, what: "adaptive lane minimum") }
    }
  }
}

/// A grid section: rows fill lines of k lanes in index order; a line is as
/// long as its longest row, and each row sits in its line at `alignment`
/// (SPEC L2, L3).
public struct GridLayout: Hashable, Sendable {
  /// The lanes.
  public let lanes: LaneCount
  /// The cross-axis space between lanes, in points.
  public let laneSpacing: CGFloat
  /// Where a row shorter than its line sits in it: 0 at the line's start
  /// (the default), 0.5 centred, 1 at its end.
  public let alignment: CGFloat

  /// A grid layout; bad values are typed errors (SPEC L2): a lane count
  /// below 1, a non-finite or non-positive adaptive minimum, a non-finite
  /// or negative lane spacing, an alignment outside 0...1.
  /// - Throws: `LazyStackError.invalidLaneCount`, `.invalidExtent`.
  /// - Complexity: O(1).
  @inlinable
  public init(lanes: LaneCount, laneSpacing: CGFloat = 0, alignment: CGFloat = 0) throws(LazyStackError) {
    try lanes.validate()
    guard laneSpacing.isFinite && laneSpacing >= 0 else { throw .invalidExtent(laneSpacing, what: "lane spacing") }
    guard alignment.isFinite && alignment >= 0 && alignment <= 1 else {
      throw .invalidExtent(alignment, what: "grid alignment (0 to 1)")
    }
    self.lanes = lanes
    self.laneSpacing = laneSpacing
    self.alignment = alignment
  }
}

/// A masonry section: each row has a lane, given when it enters the layout
/// (the lane that ends first there) and when its section re-flows, and
/// starts where the row before it in its lane ends (SPEC L2, L4).
public struct MasonryLayout: Hashable, Sendable {
  /// The lanes.
  public let lanes: LaneCount
  /// The cross-axis space between lanes, in points.
  public let laneSpacing: CGFloat

  /// A masonry layout; bad values are typed errors (SPEC L2), as for
  /// `GridLayout`.
  /// - Throws: `LazyStackError.invalidLaneCount`, `.invalidExtent`.
  /// - Complexity: O(1).
  @inlinable
  public init(lanes: LaneCount, laneSpacing: CGFloat = 0) throws(LazyStackError) {
    try lanes.validate()
    guard laneSpacing.isFinite && laneSpacing >= 0 else { throw .invalidExtent(laneSpacing, what: "lane spacing") }
    self.lanes = lanes
    self.laneSpacing = laneSpacing
  }
}

/// The layout of a section (SPEC L1): one row per line, a grid, or masonry.
public enum SectionLayout: Hashable, Sendable {
  /// One row per line (SPEC §1).
  case list
  /// Lines of k lanes (L3).
  case grid(GridLayout)
  /// Lanes that rows keep (L4).
  case masonry(MasonryLayout)

  /// The lanes and their spacing, nil for a list.
  /// - Complexity: O(1).
  @inlinable
  public var lanes: (count: LaneCount, spacing: CGFloat)? {
    switch self {
    case .list: nil
    case .grid(let g): (g.lanes, g.laneSpacing)
    case .masonry(let m): (m.lanes, m.laneSpacing)
    }
  }
}
