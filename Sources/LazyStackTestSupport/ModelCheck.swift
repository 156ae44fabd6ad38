import Foundation
import LazyStackCore
import LazyStackReference

/// One operation a UI performs on a layout, for model checking: the same
/// operation is applied to `LazyStackLayout` and to `LazyStackReference`
/// and their observable states are compared.
public enum LayoutOperation: Sendable, CustomStringConvertible {
  case viewport(CGSize)
  case userScroll(CGFloat)
  case scrollToID(Int, UnitPoint?)
  case scrollToEdge(Edge)
  case scrollToOffset(CGFloat)
  case automaticPosition
  case measure(Int, CGFloat)
  case invalidate(Int)
  case invalidateAll
  /// `measureVisibleRows` with extents made from each id and this salt.
  case measureVisible(Int)
  case estimate(CGFloat)
  case policy(EstimatePolicy)
  case snapshot([Int])
  case insert([Int], at: Int)
  case removeOffsets(IndexSet)
  case removeIDs([Int])
  case move(IndexSet, to: Int)
  case difference([Int])
  case scrollAnchor(UnitPoint?)
  case defaultAnchor(UnitPoint?, ScrollAnchorRole?)
  case overscan(Overscan)
  /// A snapping query: where a release at `release` with `velocity` settles,
  /// under `.paging` (limit nil) or `.viewAligned(limitBehavior:)`.
  case snap(release: CGFloat, velocity: CGFloat, limit: ViewAlignedScrollTargetBehavior.LimitBehavior?)
  /// `setRole(_:for:)` (SPEC H1).
  case setRole(Int, RowRole)
  /// `pinnedViews = ...` (SPEC H3–H6).
  case pinnedViews(PinnedScrollableViews)
  /// `beginInteraction()` (SPEC M2).
  case beginInteraction
  /// `endInteraction(velocity:behavior:decelerationRate:at:)` at the pair's
  /// clock (SPEC M3): `.paging`, `.viewAligned(limitBehavior:)`, or no
  /// snapping (`snap == nil`: B2's natural end).
  case endInteraction(velocity: CGFloat, snap: ReferenceSnap?, fast: Bool)
  /// `scroll(to:animation:at:)` at the pair's clock (SPEC M4), with the
  /// position of a `.scrollToID`, `.scrollToEdge` or `.scrollToOffset`.
  indirect case animated(LayoutOperation, ScrollAnimation)
  /// `advance(to:)` the pair's clock plus this many seconds (SPEC M1).
  case advance(Double)
  /// SPEC U1: the operations until `endBatch` form one batch.
  case beginBatch
  /// Ends the batch (comparing the transitions), or undoes it as an error
  /// thrown inside it would (U3).
  case endBatch(abort: Bool)
  /// `setKind(_:for:)` (SPEC K1).
  case setKind(Int, UInt8)
  /// `setEstimatedExtent(_:forKind:)` (K1).
  case kindEstimate(UInt8, CGFloat)
  /// `setEstimatePolicy(_:forKind:)` (K3).
  case kindPolicy(UInt8, EstimatePolicy)
  /// `setEstimatedExtent(_:for:)`, nil clearing it (K2).
  case ownEstimate(Int, CGFloat?)
  /// `snapshot()` of both, compared, round-tripped through `encoded()` and
  /// JSON, and kept for `restoreSaved` (SPEC C1).
  case saveSnapshot
  /// `restore(_:)` of the kept snapshot into both (C2, C3).
  case restoreSaved
  /// `scrollTo(id:distance:anchor:)` (C4).
  case scrollToDistance(Int, CGFloat, UnitPoint?)
  /// `restore(_:)` of this snapshot into both (C2, C3): a decoded one, say.
  case restoreSnapshot(LayoutSnapshot<Int>)
  /// `sectionLayout = ...` (SPEC L1).
  case sectionLayout(SectionLayout)
  /// `setSectionLayout(_:forHeader:)` (L1).
  case headerLayout(Int, SectionLayout?)
  /// A viewport of this size with lanes on: widths change, so adaptive
  /// lane counts do (L2).
  case laneViewport(CGSize)
  /// `keptIDs = ...` (SPEC F2); unknown ids among them.
  case keptIDs([Int])
  /// `edgeTriggerDistance = ...` (F3): negative and non-finite values too.
  case edgeTriggerDistance(CGFloat)
  /// `rearmEdgeTriggers()` (F3).
  case rearmEdgeTriggers
  /// `takeEdgeEvents()` (F3), the events compared.
  case takeEdgeEvents
  /// `dragIndicator(to:)` (F6 d): out of range and NaN too.
  case dragIndicator(Double)
  /// `scrollTo(index:anchor:)` (F7), with an index in range.
  case scrollToIndex(Int, UnitPoint?)
  /// The three-argument `measureVisibleRows` (F1, F2): true extents from
  /// the id and the proposed cross extent (a card wraps at its lane's width).
  case measureProposed(Int)

  public var description: String {
    switch self {
    case .viewport(let s): "viewport(\(s.width)x\(s.height))"
    case .userScroll(let y): "userScroll(\(y))"
    case .scrollToID(let id, let a): "scrollTo(id: \(id), anchor: \(a.map { "(\($0.x),\($0.y))" } ?? "nil"))"
    case .scrollToEdge(let e): "scrollTo(edge: .\(e))"
    case .scrollToOffset(let y): "scrollTo(offset: \(y))"
    case .automaticPosition: "position = automatic"
    case .measure(let id, let e): "measure(\(id), \(e))"
    case .invalidate(let id): "invalidate(\(id))"
    case .invalidateAll: "invalidateAllMeasurements()"
    case .measureVisible(let salt): "measureVisibleRows(salt: \(salt))"
    case .estimate(let e): "estimate(\(e))"
    case .policy(let p): "policy(\(p))"
    case .snapshot(let ids): "snapshot(\(ids.count) ids: \(ids.prefix(12))...)"
    case .insert(let ids, let i): "insert(\(ids), at: \(i))"
    case .removeOffsets(let o): "remove(atOffsets: \(Array(o)))"
    case .removeIDs(let ids): "remove(ids: \(ids))"
    case .move(let o, let d): "move(\(Array(o)), to: \(d))"
    case .difference(let ids): "apply(difference to \(ids.count) ids: \(ids.prefix(12))...)"
    case .scrollAnchor(let a): "scrollAnchor = \(a.map { "(\($0.x),\($0.y))" } ?? "nil")"
    case .defaultAnchor(let a, let r): "defaultScrollAnchor(\(a.map { "(\($0.x),\($0.y))" } ?? "nil"), for: \(r.map(\.description) ?? "all"))"
    case .overscan(let o): "overscan(\(o))"
    case .snap(let r, let v, let l): "snap(release: \(r), velocity: \(v), \(l.map { "viewAligned(\($0))" } ?? "paging"))"
    case .setRole(let id, let role): "setRole(.\(role), for: \(id))"
    case .pinnedViews(let p): "pinnedViews = \(p.rawValue)"
    case .beginInteraction: "beginInteraction()"
    case .endInteraction(let v, let snap, let fast):
      "endInteraction(velocity: \(v), \(snap.map { "\($0)" } ?? "no snapping")\(fast ? ", .fast" : ""))"
    case .animated(let op, let a): "animated(\(op), \(a))"
    case .advance(let dt): "advance(+\(dt))"
    case .beginBatch: "beginBatch"
    case .endBatch(let abort): abort ? "endBatch(abort)" : "endBatch"
    case .setKind(let id, let k): "setKind(\(k), for: \(id))"
    case .kindEstimate(let k, let e): "setEstimatedExtent(\(e), forKind: \(k))"
    case .kindPolicy(let k, let p): "setEstimatePolicy(\(p), forKind: \(k))"
    case .ownEstimate(let id, let e): "setEstimatedExtent(\(e.map { "\($0)" } ?? "nil"), for: \(id))"
    case .restoreSnapshot(let s): "restore(\(s))"
    case .saveSnapshot: "saveSnapshot"
    case .restoreSaved: "restoreSaved"
    case .scrollToDistance(let id, let d, let a): "scrollTo(id: \(id), distance: \(d), anchor: \(a.map { "(\($0.x),\($0.y))" } ?? "nil"))"
    case .sectionLayout(let l): "sectionLayout = \(l)"
    case .headerLayout(let id, let l): "setSectionLayout(\(l.map { "\($0)" } ?? "nil"), forHeader: \(id))"
    case .laneViewport(let s): "viewport(\(s.width)x\(s.height))"
    case .keptIDs(let ids): "keptIDs = \(ids)"
    case .edgeTriggerDistance(let d): "edgeTriggerDistance = \(d)"
    case .rearmEdgeTriggers: "rearmEdgeTriggers()"
    case .takeEdgeEvents: "takeEdgeEvents()"
    case .dragIndicator(let g): "dragIndicator(to: \(g))"
    case .scrollToIndex(let i, let a): "scrollTo(index: \(i), anchor: \(a.map { "(\($0.x),\($0.y))" } ?? "nil"))"
    case .measureProposed(let salt): "measureVisibleRows(proposed, salt: \(salt))"
    }
  }
}

/// Generates random operations from a seeded generator, valid for the
/// current list (ids drawn from it, offsets in range), with some bad input
/// mixed in (NaN, infinite and negative extents, unknown and duplicate ids).
public struct OperationGenerator: Sendable {
  public var rng: SeededRNG
  public var nextID: Int
  /// Whether to generate the incremental edits of SPEC §10.
  public var includeEdits: Bool
  public var maxRows: Int
  /// Whether to generate role changes and pinned-view sets (SPEC §11). Off,
  /// the generator draws exactly what it drew before sections existed, so
  /// seeds recorded in regression tests still replay the same steps.
  public var includeSections: Bool
  /// Whether to generate interactions, releases, animated scrolls and clock
  /// steps (SPEC §12); off, seeds replay as before, like `includeSections`.
  public var includeMotion: Bool
  /// Whether new ids leave gaps (spaced by 8) and inserts often use ids that
  /// fit between their neighbours, so that ascending `Int` ids see edits that
  /// keep their order as well as edits that break it and snapshots that
  /// restore it (SPEC E4); off, seeds replay as before, like `includeSections`.
  public var includeOrderedIDs: Bool
  /// Whether to open batches (SPEC §15): a few operations between
  /// `beginBatch` and `endBatch`, some of them undone; off, seeds replay
  /// as before, like `includeSections`.
  public var includeBatches: Bool = false
  /// Whether to give rows kinds and own estimates and kinds estimates and
  /// policies (SPEC §14); off, seeds replay as before, like
  /// `includeSections`.
  public var includeKinds: Bool = false
  /// Whether to give sections grid and masonry layouts and change the
  /// viewport's width (SPEC §13); off, seeds replay as before, like
  /// `includeSections`.
  public var includeLanes: Bool = false
  /// With `includeLanes`: every section layout given is `.list` (the
  /// layout-wide one and the headers' own), so the lane sections are kept
  /// (a header's own layout outlasts a layout-wide change) while no
  /// section has lanes, and the list's rules must hold throughout.
  public var listLayoutsOnly: Bool = false
  /// Whether to generate the frame's operations (SPEC §16): kept ids,
  /// trigger distances, re-arming and taking edge events, drags of the
  /// indicator, scrolls to an index, measurements with proposals; off,
  /// seeds replay as before, like `includeSections`.
  public var includeFrame: Bool = false
  /// The operations left in the open batch, or nil.
  var batchLeft: Int?

  /// A random section layout (SPEC L1–L4), now and then a list.
  public mutating func sectionLayout() -> SectionLayout {
    let count: LaneCount = Bool.random(using: &rng)
      ? .fixed(Int.random(in: 1 ... 4, using: &rng)) : .adaptive(minimum: CGFloat(Int.random(in: 60 ... 200, using: &rng)))
    let spacing = CGFloat([0, 0, 4, 10].randomElement(using: &rng)!)
    switch Int.random(in: 0 ..< 5, using: &rng) {
    case 0: return .list
    case 1, 2: return .grid(try! GridLayout(lanes: count, laneSpacing: spacing, alignment: [0, 0.5, 1].randomElement(using: &rng)!))
    default: return .masonry(try! MasonryLayout(lanes: count, laneSpacing: spacing))
    }
  }

  /// A lane operation (SPEC §13), or nil (most of the time) for any other.
  mutating func lanes(ids: [Int]) -> LayoutOperation? {
    // Drawn whatever the setting, so a seed's later operations stay the same.
    func layout() -> SectionLayout {
      let drawn = sectionLayout()
      return listLayoutsOnly ? .list : drawn
    }
    switch Int.random(in: 0 ..< 24, using: &rng) {
    case 0: return .sectionLayout(layout())
    case 1, 2: return .headerLayout(pickID(from: ids), Int.random(in: 0 ..< 4, using: &rng) == 0 ? nil : layout())
    case 3:
      let h = Int.random(in: 0 ..< 12, using: &rng) == 0 ? 0 : CGFloat(Int.random(in: 1 ... 1200, using: &rng))
      return .laneViewport(CGSize(width: CGFloat(Int.random(in: 0 ... 700, using: &rng)), height: h))
    default: return nil
    }
  }

  public init(seed: UInt64, firstNewID: Int = 1_000_000, includeEdits: Bool = true, maxRows: Int = 300,
              includeSections: Bool = false, includeMotion: Bool = false, includeOrderedIDs: Bool = false) {
    rng = SeededRNG(seed: seed)
    nextID = firstNewID
    self.includeEdits = includeEdits
    self.maxRows = maxRows
    self.includeSections = includeSections
    self.includeMotion = includeMotion
    self.includeOrderedIDs = includeOrderedIDs
  }

  /// A frame operation (SPEC §16), or nil (most of the time) for any other.
  mutating func frame(ids: [Int]) -> LayoutOperation? {
    switch Int.random(in: 0 ..< 28, using: &rng) {
    case 0:
      return .keptIDs((0 ..< Int.random(in: 0 ... 3, using: &rng)).map { _ in pickID(from: ids) })
    case 1:
      let d: CGFloat = Int.random(in: 0 ..< 10, using: &rng) == 0
        ? [-20, .nan, .infinity].randomElement(using: &rng)! : CGFloat(Int.random(in: 0 ... 1600, using: &rng))
      return .edgeTriggerDistance(d)
    case 2: return .rearmEdgeTriggers
    case 3, 4: return .takeEdgeEvents
    case 5, 6:
      let g: Double = Int.random(in: 0 ..< 10, using: &rng) == 0
        ? [-0.5, 1.5, .nan, 0, 1].randomElement(using: &rng)! : Double(Int.random(in: 0 ... 1000, using: &rng)) / 1000
      return .dragIndicator(g)
    case 7 where !ids.isEmpty:
      return .scrollToIndex(Int.random(in: 0 ..< ids.count, using: &rng), Self.anchors.randomElement(using: &rng)!)
    case 8, 9: return .measureProposed(Int.random(in: 0 ..< 1000, using: &rng))
    default: return nil
    }
  }

  /// A kind operation (SPEC §14), or nil (most of the time) for any other
  /// one. Kinds 0–3 mostly, now and then 200 (a kind far from the others).
  mutating func kinds(ids: [Int]) -> LayoutOperation? {
    func kind() -> UInt8 { Int.random(in: 0 ..< 12, using: &rng) == 0 ? 200 : UInt8.random(in: 0 ... 3, using: &rng) }
    func size() -> CGFloat {
      switch Int.random(in: 0 ..< 16, using: &rng) {
      case 0: return 0
      case 1: return [-1, .nan, .infinity].randomElement(using: &rng)!
      default: return CGFloat(Int.random(in: 1 ... 1600, using: &rng)) / 8
      }
    }
    switch Int.random(in: 0 ..< 20, using: &rng) {
    case 0 ..< 3: return .setKind(pickID(from: ids), kind())
    case 3: return .kindEstimate(kind(), size())
    case 4: return .kindPolicy(kind(), Bool.random(using: &rng) ? .fixed : .meanOfMeasured)
    case 5 ..< 7: return .ownEstimate(pickID(from: ids), Int.random(in: 0 ..< 3, using: &rng) == 0 ? nil : size())
    case 7: return .saveSnapshot
    case 8: return .restoreSaved
    case 9:
      var d = CGFloat(Int.random(in: -400 ... 800, using: &rng)) / 4
      if Int.random(in: 0 ..< 20, using: &rng) == 0 { d = [.nan, .infinity, -.infinity].randomElement(using: &rng)! }
      return .scrollToDistance(pickID(from: ids), d, Self.anchors.randomElement(using: &rng)!)
    default: return nil
    }
  }

  /// A motion operation, or nil (about half the time) for any other one.
  mutating func motion(ids: [Int], contentExtent: CGFloat) -> LayoutOperation? {
    switch Int.random(in: 0 ..< 24, using: &rng) {
    case 0 ..< 8:
      // Frames of 1/120 s to 1/20 s; now and then a long pause.
      let dt = Int.random(in: 0 ..< 15, using: &rng) == 0 ? Double(Int.random(in: 1 ... 30, using: &rng)) / 10
        : Double(Int.random(in: 1 ... 6, using: &rng)) / 120
      return .advance(dt)
    case 8:
      return .beginInteraction
    case 9, 10:
      let snaps: [ReferenceSnap?] = [nil, .paging, .viewAligned(.never), .viewAligned(.alwaysByOne), .viewAligned(.always)]
      var v = CGFloat(Int.random(in: -5000 ... 5000, using: &rng))
      if Int.random(in: 0 ..< 6, using: &rng) == 0 { v = 0 }
      if Int.random(in: 0 ..< 30, using: &rng) == 0 { v = .nan }
      return .endInteraction(velocity: v, snap: snaps.randomElement(using: &rng)!, fast: Bool.random(using: &rng))
    case 11 ..< 14:
      let animations: [ScrollAnimation] = [.easeInOut(duration: 0.15), .easeInOut(duration: 0.4), .smooth,
                                           .spring(response: 0.2), .easeInOut(duration: 0)]
      let target: LayoutOperation
      switch Int.random(in: 0 ..< 8, using: &rng) {
      case 0: target = .scrollToEdge(Edge.allCases.randomElement(using: &rng)!)
      case 1: target = .scrollToOffset(CGFloat(Int.random(in: -100 ... max(0, Int(contentExtent)) + 100, using: &rng)))
      default: target = .scrollToID(pickID(from: ids), Self.anchors.randomElement(using: &rng)!)
      }
      return .animated(target, animations.randomElement(using: &rng)!)
    default:
      return nil
    }
  }

  static let anchors: [UnitPoint?] = [nil, .top, .center, .bottom, .leading, .trailing, UnitPoint(x: 0.3, y: 0.25)]

  mutating func extent() -> CGFloat {
    switch Int.random(in: 0 ..< 20, using: &rng) {
    case 0: return .nan
    case 1: return -5
    case 2: return .infinity
    case 3: return 0
    case 4: return 1e12
    default: return CGFloat(Int.random(in: 1 ... 4000, using: &rng)) / 16
    }
  }

  mutating func pickID(from ids: [Int]) -> Int {
    if ids.isEmpty || Int.random(in: 0 ..< 25, using: &rng) == 0 { return -1 }  // unknown
    return ids.randomElement(using: &rng)!
  }

  mutating func freshIDs(_ count: Int) -> [Int] {
    if includeOrderedIDs && Bool.random(using: &rng) {
      defer { nextID += 8 * count }
      return Array(stride(from: nextID, to: nextID + 8 * count, by: 8))
    }
    defer { nextID += count }
    return Array(nextID ..< nextID + count)
  }

  /// Up to `count` new ids that ascend and fit between the rows on either
  /// side of offset `index` of `ids` (empty when there is no room).
  mutating func fittingIDs(_ count: Int, at index: Int, in ids: [Int]) -> [Int] {
    let low = index > 0 ? ids[index - 1] : (ids.first ?? 0) - 64
    let high = index < ids.count ? ids[index] : (ids.last ?? 0) + 64
    guard high - low > 1 else { return [] }
    var fit = Set<Int>()
    for _ in 0 ..< count {
      let x = Int.random(in: low + 1 ..< high, using: &rng)
      if !ids.contains(x) { fit.insert(x) }
    }
    return fit.sorted()
  }

  mutating func offsets(in count: Int, upTo k: Int) -> IndexSet {
    guard count > 0 else { return [] }
    var set = IndexSet()
    for _ in 0 ..< Int.random(in: 1 ... k, using: &rng) { set.insert(Int.random(in: 0 ..< count, using: &rng)) }
    return set
  }

  /// The next operation for a list with these ids and this content extent.
  public mutating func next(ids: [Int], contentExtent: CGFloat) -> LayoutOperation {
    let n = ids.count
    if includeBatches {
      if let left = batchLeft {
        if left == 0 {
          batchLeft = nil
          return .endBatch(abort: Int.random(in: 0 ..< 5, using: &rng) == 0)
        }
        batchLeft = left - 1
      } else if Int.random(in: 0 ..< 8, using: &rng) == 0 {
        batchLeft = Int.random(in: 0 ... 8, using: &rng)
        return .beginBatch
      }
    }
    if includeMotion, let op = motion(ids: ids, contentExtent: contentExtent) { return op }
    if includeKinds, let op = kinds(ids: ids) { return op }
    if includeLanes, let op = lanes(ids: ids) { return op }
    if includeFrame, let op = frame(ids: ids) { return op }
    if includeSections {
      switch Int.random(in: 0 ..< 16, using: &rng) {
      case 0, 1:
        let roles: [RowRole] = [.sectionHeader, .sectionHeader, .sectionHeader, .sectionFooter, .sectionFooter, .row]
        return .setRole(pickID(from: ids), roles.randomElement(using: &rng)!)
      case 2:
        return .pinnedViews(PinnedScrollableViews(rawValue: UInt32.random(in: 0 ... 3, using: &rng)))
      default:
        break
      }
    }
    let roll = Int.random(in: 0 ..< (includeEdits ? 112 : 86), using: &rng)
    switch roll {
    case 80 ..< 83 where !includeEdits, 106 ..< 109:
      return .invalidateAll
    case 83 ..< 86 where !includeEdits, 109 ..< 112:
      return .measureVisible(Int.random(in: 0 ..< 1000, using: &rng))
    case 100 ..< 106:
      let limits: [ViewAlignedScrollTargetBehavior.LimitBehavior?] = [nil, .automatic, .always, .alwaysByOne, .alwaysByFew, .never]
      var v = CGFloat(Int.random(in: -6000 ... 6000, using: &rng))
      if Int.random(in: 0 ..< 20, using: &rng) == 0 { v = [.nan, .infinity, -.infinity].randomElement(using: &rng)! }
      return .snap(release: CGFloat(Int.random(in: -50 ... max(0, Int(contentExtent)) + 50, using: &rng)),
                   velocity: v, limit: limits.randomElement(using: &rng)!)
    case 0 ..< 6:
      let h = Int.random(in: 0 ..< 12, using: &rng) == 0 ? 0 : CGFloat(Int.random(in: 1 ... 1200, using: &rng))
      return .viewport(CGSize(width: 320, height: h))
    case 6 ..< 22:
      let y = CGFloat(Int.random(in: -200 ... max(0, Int(contentExtent)) + 200, using: &rng))
      return .userScroll(Int.random(in: 0 ..< 30, using: &rng) == 0 ? .nan : y)
    case 22 ..< 30:
      return .scrollToID(pickID(from: ids), Self.anchors.randomElement(using: &rng)!)
    case 30 ..< 32:
      return .scrollToEdge(Edge.allCases.randomElement(using: &rng)!)
    case 32 ..< 34:
      return .scrollToOffset(CGFloat(Int.random(in: -100 ... max(0, Int(contentExtent)) + 100, using: &rng)))
    case 34:
      return .automaticPosition
    case 35 ..< 55:
      return .measure(pickID(from: ids), extent())
    case 55 ..< 57:
      return .invalidate(pickID(from: ids))
    case 57 ..< 60:
      return .estimate(Int.random(in: 0 ..< 10, using: &rng) == 0 ? -1 : CGFloat(Int.random(in: 0 ... 2000, using: &rng)) / 8)
    case 60:
      return .policy(Bool.random(using: &rng) ? .fixed : .meanOfMeasured)
    case 61 ..< 68:
      var list = ids
      switch Int.random(in: 0 ..< 5, using: &rng) {
      case 0: list.shuffle(using: &rng)
      case 1: list.insert(contentsOf: freshIDs(Int.random(in: 1 ... 20, using: &rng)), at: 0)
      case 2: list.removeAll { _ in Int.random(in: 0 ..< 4, using: &rng) == 0 }
      case 3: list = freshIDs(Int.random(in: 0 ... 30, using: &rng))
      default:
        if !list.isEmpty { list.append(list[0]) }  // a duplicate: must throw
      }
      if list.count > maxRows { list.removeLast(list.count - maxRows) }
      return .snapshot(list)
    case 68 ..< 72:
      return .scrollAnchor(Self.anchors.randomElement(using: &rng)!)
    case 72 ..< 75:
      let roles: [ScrollAnchorRole?] = [nil, .initialOffset, .sizeChanges, .alignment]
      return .defaultAnchor(Self.anchors.randomElement(using: &rng)!, roles.randomElement(using: &rng)!)
    case 75 ..< 77:
      let options: [Overscan] = [.none, .rows(2), .points(100), Overscan(before: .rows(1), after: .points(30))]
      return .overscan(options.randomElement(using: &rng)!)
    case 77 ..< 80:
      return .userScroll(CGFloat(Int.random(in: 0 ... 40, using: &rng)))
    case 80 ..< 86:
      if includeOrderedIDs && Int.random(in: 0 ..< 3, using: &rng) == 0 {
        let index = Int.random(in: 0 ... n, using: &rng)
        let fit = fittingIDs(Int.random(in: 1 ... 6, using: &rng), at: index, in: ids)
        if !fit.isEmpty && n + fit.count <= maxRows { return .insert(fit, at: index) }
      }
      var new = freshIDs(Int.random(in: 1 ... 12, using: &rng))
      if Int.random(in: 0 ..< 15, using: &rng) == 0, let existing = ids.first { new.append(existing) }
      if n + new.count > maxRows { return .removeOffsets(offsets(in: n, upTo: 8)) }
      return .insert(new, at: Int.random(in: 0 ... n, using: &rng))
    case 86 ..< 90:
      return .removeOffsets(offsets(in: n, upTo: 6))
    case 90 ..< 92:
      var gone = (0 ..< Int.random(in: 1 ... 4, using: &rng)).map { _ in pickID(from: ids) }
      if ids.isEmpty { gone = [] }
      return .removeIDs(gone)
    case 92 ..< 96:
      return .move(offsets(in: n, upTo: 5), to: Int.random(in: 0 ... n, using: &rng))
    default:
      var list = ids
      for _ in 0 ..< Int.random(in: 1 ... 6, using: &rng) {
        switch Int.random(in: 0 ..< 3, using: &rng) {
        case 0 where !list.isEmpty: list.remove(at: Int.random(in: 0 ..< list.count, using: &rng))
        case 1 where list.count < maxRows: list.insert(freshIDs(1)[0], at: Int.random(in: 0 ... list.count, using: &rng))
        default:
          if list.count > 1 {
            let x = list.remove(at: Int.random(in: 0 ..< list.count, using: &rng))
            list.insert(x, at: Int.random(in: 0 ... list.count, using: &rng))
          }
        }
      }
      return .difference(list)
    }
  }
}

extension LayoutOperation {
  /// The operation's case (`measure`, `beginBatch`, `animated`, …): what a
  /// model check counts to say which kinds of operation it covered.
  /// - Complexity: O(1).
  public var caseName: String {
    if let label = Mirror(reflecting: self).children.first?.label { return label }
    switch self {
    case .automaticPosition: return "automaticPosition"
    case .invalidateAll: return "invalidateAll"
    case .beginInteraction: return "beginInteraction"
    case .beginBatch: return "beginBatch"
    case .saveSnapshot: return "saveSnapshot"
    case .restoreSaved: return "restoreSaved"
    case .rearmEdgeTriggers: return "rearmEdgeTriggers"
    case .takeEdgeEvents: return "takeEdgeEvents"
    default: return "\(self)"
    }
  }

  /// Every case a generator can make (all but `restoreSnapshot`, which
  /// only the fuzzer makes, from decoded bytes).
  public static let generatedCaseNames: Set<String> = [
    "viewport", "userScroll", "scrollToID", "scrollToEdge", "scrollToOffset", "automaticPosition", "measure",
    "invalidate", "invalidateAll", "measureVisible", "estimate", "policy", "snapshot", "insert", "removeOffsets",
    "removeIDs", "move", "difference", "scrollAnchor", "defaultAnchor", "overscan", "snap", "setRole", "pinnedViews",
    "beginInteraction", "endInteraction", "animated", "advance", "beginBatch", "endBatch", "setKind", "kindEstimate",
    "kindPolicy", "ownEstimate", "saveSnapshot", "restoreSaved", "scrollToDistance", "sectionLayout", "headerLayout",
    "laneViewport", "keptIDs", "edgeTriggerDistance", "rearmEdgeTriggers", "takeEdgeEvents", "dragIndicator",
    "scrollToIndex", "measureProposed",
  ]
}

/// The restores `saveSnapshot` compared in a fresh layout (SPEC C1, C2):
/// how many, how many of them with lanes, sections and kinds, and how
/// many had no offset to compare (a restore that waits, C3, no place, or
/// an empty viewport under pinned rows).
public struct RestoreChecks: Sendable, Equatable, CustomStringConvertible {
  public var compared = 0
  public var withLanes = 0
  public var withSections = 0
  public var withKinds = 0
  public var offsetNotCompared = 0

  public init() {}

  public static func += (a: inout RestoreChecks, b: RestoreChecks) {
    a.compared += b.compared
    a.withLanes += b.withLanes
    a.withSections += b.withSections
    a.withKinds += b.withKinds
    a.offsetNotCompared += b.offsetNotCompared
  }

  public var description: String {
    "\(compared) restores into a fresh layout compared (\(withLanes) with lanes, \(withSections) with sections, "
      + "\(withKinds) with kinds; \(offsetNotCompared) without an offset to compare: waiting, no place, or an empty viewport under pinned rows)"
  }
}

/// A layout and its reference model, driven together.
public struct ModelPair: Sendable {
  public var core: LazyStackLayout<Int>
  public var reference: LazyStackReference<Int>
  /// The clock both are driven with (SPEC M1), in seconds.
  public var time: Double = 0
  /// In a batch: whether S13 is to be checked when it ends (the anchor row
  /// was on screen when it began, and nothing inside scrolled).
  var batchWatched: Bool?
  /// The snapshot `saveSnapshot` kept.
  public var saved: LayoutSnapshot<Int>?
  /// What the restores into a fresh layout compared (`saveSnapshot`).
  public var restoreChecks = RestoreChecks()

  public init(ids: [Int], estimate: CGFloat, spacing: CGFloat = 0, axis: Axis = .vertical,
              insets: EdgeInsets = EdgeInsets(), blockCapacity: Int = 4) throws {
    // A list of consecutive integers starting at an even id is passed as a
    // Range, so the core starts with its implicit id index; other ascending
    // lists start ordered (no hash index). The model checks cover both and
    // their materialization.
    if let first = ids.first, first % 2 == 0, ids == Array(first ..< first + ids.count) {
      core = try LazyStackLayout(ids: first ..< first + ids.count, estimatedExtent: estimate, spacing: spacing,
                                 axis: axis, insets: insets, blockCapacity: blockCapacity)
    } else {
      core = try LazyStackLayout(ids: ids, estimatedExtent: estimate, spacing: spacing, axis: axis,
                                 insets: insets, blockCapacity: blockCapacity)
    }
    reference = try LazyStackReference(ids: ids, estimatedExtent: estimate, spacing: spacing, axis: axis,
                                       insets: insets)
  }

  /// Applies `op` to both; returns a description of any difference in what
  /// the operation itself returned or threw.
  public mutating func apply(_ op: LayoutOperation) -> String? {
    func same<T: Equatable>(_ a: Result<T, LazyStackError>, _ b: Result<T, LazyStackError>) -> String? {
      a == b ? nil : "results differ: core \(a), reference \(b)"
    }
    switch op {
    case .viewport(let s):
      core.viewportSize = s
      reference.viewportSize = s
    case .userScroll(let y):
      let p = core.axis == .vertical ? CGPoint(x: 0, y: y) : CGPoint(x: y, y: 0)
      core.userScroll(to: p)
      reference.userScroll(to: p)
    case .scrollToID(let id, let a):
      core.position.scrollTo(id: id, anchor: a)
      var p = reference.position
      p.scrollTo(id: id, anchor: a)
      reference.setPosition(p)
    case .scrollToEdge(let e):
      core.position.scrollTo(edge: e)
      reference.setPosition(ScrollPosition(idType: Int.self, edge: e))
    case .scrollToOffset(let y):
      let p = core.axis == .vertical ? ScrollPosition(idType: Int.self, y: y) : ScrollPosition(idType: Int.self, x: y)
      core.position = p
      reference.setPosition(p)
    case .automaticPosition:
      core.position = ScrollPosition(idType: Int.self)
      reference.setPosition(ScrollPosition(idType: Int.self))
    case .measure(let id, let e):
      let a = core.setMeasuredExtent(e, for: id)
      let b = reference.setMeasuredExtent(e, for: id)
      if a != b { return "measurement results differ: core \(a), reference \(b)" }
    case .invalidate(let id):
      if core.invalidateMeasurement(for: id) != reference.invalidateMeasurement(for: id) { return "invalidate differs" }
    case .invalidateAll:
      core.invalidateAllMeasurements()
      reference.invalidateAllMeasurements()
    case .measureVisible(let salt):
      // True extents from the id: mostly 1...250 pt, sometimes 0.
      let extent = { (_: Int, id: Int) -> CGFloat in
        let h = (id &* 0x9E37_79B9 &+ salt &* 7919) & 0xFFFF
        return h % 17 == 0 ? 0 : CGFloat(1 + h % 1000) / 4
      }
      core.measureVisibleRows(extent)
      reference.measureVisibleRows(extent)
    case .estimate(let e):
      return same(Result { () throws(LazyStackError) in try core.setEstimatedExtent(e) },
                  Result { () throws(LazyStackError) in try reference.setEstimatedExtent(e) })
    case .policy(let p):
      core.estimatePolicy = p
      reference.estimatePolicy = p
    case .snapshot(let ids):
      if let first = ids.first, first % 2 == 0, ids == Array(first ..< first + ids.count) {
        return same(Result { () throws(LazyStackError) in try core.update(ids: first ..< first + ids.count) },
                    Result { () throws(LazyStackError) in try reference.update(ids: ids) })
      }
      return same(Result { () throws(LazyStackError) in try core.update(ids: ids) },
                  Result { () throws(LazyStackError) in try reference.update(ids: ids) })
    case .insert(let ids, let i):
      return same(Result { () throws(LazyStackError) in try core.insert(ids, at: i) },
                  Result { () throws(LazyStackError) in try reference.insert(ids, at: i) })
    case .removeOffsets(let o):
      let a = core.remove(atOffsets: o)
      let b = reference.remove(atOffsets: o)
      if a != b { return "remove results differ: core \(a), reference \(b)" }
    case .removeIDs(let ids):
      return same(Result { () throws(LazyStackError) in try core.remove(ids: ids) },
                  Result { () throws(LazyStackError) in try reference.remove(ids: ids) })
    case .move(let o, let d):
      let a = core.move(fromOffsets: o, toOffset: d)
      let b = reference.move(fromOffsets: o, toOffset: d)
      if a != b { return "move results differ: core \(a), reference \(b)" }
    case .difference(let ids):
      let diff = ids.difference(from: core.ids).inferringMoves()
      return same(Result { () throws(LazyStackError) in try core.apply(diff) },
                  Result { () throws(LazyStackError) in try reference.apply(diff) })
    case .scrollAnchor(let a):
      core.scrollAnchor = a
      reference.scrollAnchor = a
    case .defaultAnchor(let a, let role):
      if let role {
        core.defaultScrollAnchor(a, for: role)
        reference.defaultScrollAnchor(a, for: role)
      } else {
        core.defaultScrollAnchor(a)
        reference.defaultScrollAnchor(a)
      }
    case .overscan(let o):
      core.overscan = o
      reference.overscan = o
    case .snap(let release, let velocity, let limit):
      let vertical = core.axis == .vertical
      let point = vertical ? CGPoint(x: 0, y: release) : CGPoint(x: release, y: 0)
      let vector = vertical ? CGVector(dx: 0, dy: velocity) : CGVector(dx: velocity, dy: 0)
      let a: CGPoint
      let b: CGPoint
      if let limit {
        a = core.targetContentOffset(forReleaseAt: point, velocity: vector, behavior: .viewAligned(limitBehavior: limit))
        b = reference.targetContentOffset(forReleaseAt: point, velocity: vector, snap: .viewAligned(limit))
      } else {
        a = core.targetContentOffset(forReleaseAt: point, velocity: vector, behavior: .paging)
        b = reference.targetContentOffset(forReleaseAt: point, velocity: vector, snap: .paging)
      }
      if a != b { return "snap targets differ: core \(a), reference \(b)" }
    case .sectionLayout(let l):
      core.sectionLayout = l
      reference.sectionLayout = l
    case .headerLayout(let id, let l):
      let a = core.setSectionLayout(l, forHeader: id)
      let b = reference.setSectionLayout(l, forHeader: id)
      if a != b { return "setSectionLayout results differ: core \(a), reference \(b)" }
    case .laneViewport(let s):
      core.viewportSize = s
      reference.viewportSize = s
    case .keptIDs(let ids):
      core.keptIDs = Set(ids)
      reference.keptIDs = Set(ids)
    case .edgeTriggerDistance(let d):
      core.edgeTriggerDistance = d
      reference.edgeTriggerDistance = d
    case .rearmEdgeTriggers:
      core.rearmEdgeTriggers()
      reference.rearmEdgeTriggers()
    case .takeEdgeEvents:
      let a = core.takeEdgeEvents()
      let b = reference.takeEdgeEvents()
      if a != b { return "edge events differ: core \(a), reference \(b)" }
    case .dragIndicator(let g):
      core.dragIndicator(to: g)
      reference.dragIndicator(to: g)
    case .scrollToIndex(let i, let a):
      guard i < core.count else { return nil }
      core.scrollTo(index: i, anchor: a)
      reference.scrollTo(index: i, anchor: a)
    case .measureProposed(let salt):
      // A card's height from its id and the width it wraps at.
      let vertical = core.axis == .vertical
      let extent = { (_: Int, id: Int, proposal: CGSize) -> CGFloat in
        let cross = vertical ? proposal.width : proposal.height
        let h = (id &* 0x9E37_79B9 &+ salt &* 7919) & 0xFFFF
        return h % 19 == 0 ? 0 : CGFloat(1 + h % 1000) / 4 + (cross.isFinite ? (600 - min(cross, 600)) / 8 : 0)
      }
      core.measureVisibleRows(extent)
      reference.measureVisibleRows(extent)
    case .setRole(let id, let role):
      let a = core.setRole(role, for: id)
      let b = reference.setRole(role, for: id)
      if a != b { return "setRole results differ: core \(a), reference \(b)" }
    case .pinnedViews(let p):
      core.pinnedViews = p
      reference.pinnedViews = p
    case .beginInteraction:
      core.beginInteraction()
      reference.beginInteraction()
    case .endInteraction(let velocity, let snap, let fast):
      let vertical = core.axis == .vertical
      let vector = vertical ? CGVector(dx: 0, dy: velocity) : CGVector(dx: velocity, dy: 0)
      let rate: ScrollDecelerationRate = fast ? .fast : .normal
      switch snap {
      case .paging?: core.endInteraction(velocity: vector, behavior: .paging, decelerationRate: rate, at: time)
      case .viewAligned(let limit)?:
        core.endInteraction(velocity: vector, behavior: .viewAligned(limitBehavior: limit), decelerationRate: rate,
                            at: time)
      case nil: core.endInteraction(velocity: vector, behavior: FreeScrolling(), decelerationRate: rate, at: time)
      }
      reference.endInteraction(velocity: vector, snap: snap, decelerationRate: rate, at: time)
    case .animated(let op, let animation):
      let position: ScrollPosition
      switch op {
      case .scrollToID(let id, let a):
        var p = reference.position
        p.scrollTo(id: id, anchor: a)
        position = p
      case .scrollToEdge(let e): position = ScrollPosition(idType: Int.self, edge: e)
      case .scrollToOffset(let y):
        position = core.axis == .vertical ? ScrollPosition(idType: Int.self, y: y) : ScrollPosition(idType: Int.self, x: y)
      default: return "animated(\(op)) is not a programmatic scroll"
      }
      core.scroll(to: position, animation: animation, at: time)
      reference.scroll(to: position, animation: animation, at: time)
    case .advance(let dt):
      time += dt
      let a = core.advance(to: time)
      let b = reference.advance(to: time)
      if a != b { return "advance results differ: core \(a), reference \(b)" }
    case .setKind(let id, let k):
      let a = core.setKind(k, for: id)
      let b = reference.setKind(k, for: id)
      if a != b { return "setKind results differ: core \(a), reference \(b)" }
    case .kindEstimate(let k, let e):
      return same(Result { () throws(LazyStackError) in try core.setEstimatedExtent(e, forKind: k) },
                  Result { () throws(LazyStackError) in try reference.setEstimatedExtent(e, forKind: k) })
    case .kindPolicy(let k, let p):
      core.setEstimatePolicy(p, forKind: k)
      reference.setEstimatePolicy(p, forKind: k)
    case .ownEstimate(let id, let e):
      let a = core.setEstimatedExtent(e, for: id)
      let b = reference.setEstimatedExtent(e, for: id)
      if a != b { return "setEstimatedExtent(_:for:) results differ: core \(a), reference \(b)" }
    case .saveSnapshot:
      let a = core.snapshot()
      let b = reference.snapshot()
      if a != b { return "snapshots differ:\ncore \(a)\nreference \(b)" }
      do {
        // Inside a batch the snapshot is the layout's as the batch's
        // changes so far settle (C1, U1): it is compared with a copy whose
        // batch ends here.
        var shown = core
        if shown._inBatch {
          _ = shown._endBatch()
          let after = shown.snapshot()
          if after != a { return "the snapshot inside the batch differs from the one after it:\n\(a)\n\(after)" }
        }
        let decoded = try LayoutSnapshot<Int>(encoded: a.encoded())
        if decoded != a { return "snapshot changed through encoded(): \(decoded) vs \(a)" }
        let json = try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: JSONEncoder().encode(a))
        if json != a { return "snapshot changed through JSON: \(json) vs \(a)" }
        // A restored layout equals the saved one where the ids are the same:
        // every extent, every masonry row's lane (C1), and the offset (the
        // place lands where it was). A snapshot holds no roles, section
        // layouts or pinning: the fresh layout is given the same ones first
        // (each header its section's layout), as an app that restores into
        // the same screen does.
        let laneSections = shown._laysOutLanes
        var fresh = try LazyStackLayout(ids: shown.ids, estimatedExtent: shown.estimatedExtent, spacing: shown.spacing,
                                        axis: shown.axis, insets: shown.insets)
        fresh.viewportSize = shown.viewportSize
        fresh.scrollAnchor = shown.scrollAnchor
        fresh.pinnedViews = shown.pinnedViews
        if laneSections { fresh.sectionLayout = shown.sectionLayout }
        for i in 0 ..< shown.count where shown.role(at: i) != .row {
          _ = fresh.setRole(shown.role(at: i), for: shown.id(at: i))
          if laneSections && shown.role(at: i) == .sectionHeader {
            _ = fresh.setSectionLayout(shown.sectionLayout(at: i), forHeader: shown.id(at: i))
          }
        }
        fresh.restore(decoded)
        restoreChecks.compared += 1
        for i in 0 ..< shown.count where laneSections && fresh.lane(at: i) != shown.lane(at: i) {
          return "restored lane(at: \(i)) \(fresh.lane(at: i)) vs \(shown.lane(at: i))"
        }
        // (Frames relative to the first row's: a short list's alignment
        // shift, D3, comes from default anchors a snapshot does not hold.)
        if fresh.contentSize != shown.contentSize { return "restored contentSize \(fresh.contentSize) vs \(shown.contentSize)" }
        let vertical = shown.axis == .vertical
        let start = { (l: LazyStackLayout<Int>, i: Int) in
          vertical ? l.frame(at: i).minY - l.frame(at: 0).minY : l.frame(at: i).minX - l.frame(at: 0).minX
        }
        // Frames far from the origin (the D3 shift of a short list in a huge
        // viewport, near 2^51 points) are rounded to CGFloat's precision
        // there: starts are compared within it (exactly, anywhere else).
        let slack = { (l: LazyStackLayout<Int>, i: Int) -> CGFloat in
          let (a, b) = vertical ? (l.frame(at: i).minY, l.frame(at: 0).minY) : (l.frame(at: i).minX, l.frame(at: 0).minX)
          return 2 * (abs(a).ulp + abs(b).ulp)
        }
        for i in 0 ..< shown.count where fresh.frame(at: i).size != shown.frame(at: i).size
          || abs(start(fresh, i) - start(shown, i)) > slack(fresh, i) + slack(shown, i) {
          return "restored frame(at: \(i)) \(fresh.frame(at: i)) vs \(shown.frame(at: i))"
        }
        let main = { (l: LazyStackLayout<Int>) in vertical ? l.contentOffset.y : l.contentOffset.x }
        // (While a restore waits, C3, the snapshot holds the place it waits
        // for. In a viewport of no extent under pinned rows no row meets the
        // viewport, so H6 lands no distance exactly: a restore there is not
        // exact, and the offset is not compared; seed 1043 of
        // `testK1_modelCheck_kindsAndOwnEstimates`, pinned at the end.)
        let emptyViewport = (vertical ? shown.viewportSize.height : shown.viewportSize.width) <= 0
        if shown.isRestorePending || decoded.place == nil || (emptyViewport && !shown.pinnedViews.isEmpty) {
          restoreChecks.offsetNotCompared += 1
        } else if main(fresh) != main(shown) {
          return "restored contentOffset \(fresh.contentOffset) vs \(shown.contentOffset)"
        }
        if laneSections { restoreChecks.withLanes += 1 }
        if (0 ..< shown.count).contains(where: { shown.role(at: $0) != .row }) { restoreChecks.withSections += 1 }
        if a.kindSettings.count > 1 { restoreChecks.withKinds += 1 }
      } catch {
        return "snapshot round trip threw \(error)"
      }
      saved = a
    case .restoreSaved:
      guard let saved else { return nil }
      core.restore(saved)
      reference.restore(saved)
    case .restoreSnapshot(let s):
      core.restore(s)
      reference.restore(s)
    case .scrollToDistance(let id, let d, let anchor):
      core.scrollTo(id: id, distance: d, anchor: anchor)
      reference.scrollTo(id: id, distance: d, anchor: anchor)
    case .beginBatch:
      core._beginBatch()
      reference.beginBatch()
    case .endBatch(let abort):
      if abort {
        core._abortBatch()
        reference.abortBatch()
      } else {
        let a = core._endBatch()
        let b = reference.endBatch()
        if a != b { return "transitions differ:\ncore \(a)\nreference \(b)" }
      }
    }
    return nil
  }

  /// Whether SPEC S13 holds across `op`: an operation that does not scroll
  /// or resize keeps an anchor row that intersected the viewport on screen
  /// (for a deleted anchor row, its survivor), unless the offset was
  /// clamped (S10) or pinned to the end (D4). A row that was on screen only
  /// because an earlier step clamped the offset (its anchor keeps it off
  /// screen) is not watched. Applies `op` to both models.
  /// - Returns: a description of what went wrong (a result difference, or
  ///   the S13 violation), or `nil`.
  public mutating func step(_ op: LayoutOperation) -> String? {
    var watched: Bool
    switch op {
    case .viewport, .userScroll, .scrollToID, .scrollToEdge, .scrollToOffset, .automaticPosition, .scrollAnchor,
         .animated, .advance, .endInteraction, .beginInteraction, .restoreSaved, .scrollToDistance, .restoreSnapshot,
         .laneViewport:
      watched = false
    default:
      watched = reference.anchorRowIntersectsViewport == true
    }
    // Inside a batch nothing is stabilized: S13 is checked when it ends,
    // for the batch as one operation.
    switch op {
    case .beginBatch:
      batchWatched = watched
      watched = false
    case .endBatch(let abort):
      watched = batchWatched == true && !abort
      batchWatched = nil
    default:
      if batchWatched != nil {
        if !isContentChange(op) { batchWatched = false }
        watched = false
      }
    }
    // S13 does not hold for a place given in points (C4, a restore) whose
    // point lies outside its row, before or after the step.
    if reference.anchorPointOutsideRow { watched = false }
    let anchorBefore = reference.anchorRowID
    let thumbBefore = core.scrollIndicator.position
    let restoreWaited = reference.isRestorePending  // an edit may land it: a reset (F6 e)
    if let problem = apply(op) { return problem }
    // F6 (b): a measurement, an edit or an estimate never moves the thumb,
    // unless F6 (a) puts it at an end.
    if isStill(op) && !restoreWaited {
      let (o, m) = (reference.contentOffset, reference.maxOffset)
      let main = core.axis == .vertical ? o.y : o.x
      let thumb = core.scrollIndicator.position
      if thumb != thumbBefore && main != 0 && main != m && thumbBefore > 0 && thumbBefore < 1 {
        return "F6: the indicator moved from \(thumbBefore) to \(thumb) in \(op)"
      }
    }
    if reference.anchorPointOutsideRow { watched = false }
    // After the step the row must be on screen; where its anchor keeps it
    // is the same place unless this step clamped (S10, D4): then exempt.
    if watched, !reference.lastStabilizationWasClamped, reference.anchorRowIntersectsViewport == false {
      return "S13: anchor row \(anchorBefore.map(String.init(describing:)) ?? "nil") (now "
        + "\(reference.anchorRowID.map(String.init(describing:)) ?? "nil")) left the viewport"
    }
    return nil
  }

  /// Whether `op` is one F6 (b) names: the indicator stays (but for (a)).
  func isStill(_ op: LayoutOperation) -> Bool {
    switch op {
    case .measure, .invalidate, .invalidateAll, .measureVisible, .measureProposed, .estimate, .policy, .snapshot,
         .insert, .removeOffsets, .removeIDs, .move, .difference, .setRole, .pinnedViews, .setKind, .kindEstimate,
         .kindPolicy, .ownEstimate, .saveSnapshot, .keptIDs, .edgeTriggerDistance, .rearmEdgeTriggers,
         .takeEdgeEvents, .beginInteraction, .overscan, .defaultAnchor:
      return true
    default:
      return false
    }
  }

  /// Whether `op` changes only content (not the scroll position, the
  /// viewport or the motion).
  func isContentChange(_ op: LayoutOperation) -> Bool {
    switch op {
    case .viewport, .userScroll, .scrollToID, .scrollToEdge, .scrollToOffset, .automaticPosition, .scrollAnchor,
         .animated, .advance, .endInteraction, .beginInteraction, .restoreSaved, .scrollToDistance, .restoreSnapshot,
         .laneViewport:
      return false
    default:
      return true
    }
  }

  /// Compares every observable: ids, offset, sizes, visible range, position,
  /// anchor row, last correction, every frame and measured extent, and point
  /// queries at a few offsets. Returns the first difference.
  public func difference(probes: [CGFloat] = []) -> String? {
    if core.count != reference.count { return "count: \(core.count) vs \(reference.count)" }
    if core.ids != reference.ids { return "ids differ" }
    if core.contentOffset != reference.contentOffset { return "contentOffset: \(core.contentOffset) vs \(reference.contentOffset)" }
    if core.contentSize != reference.contentSize { return "contentSize: \(core.contentSize) vs \(reference.contentSize)" }
    if core.maxOffset != reference.maxOffset { return "maxOffset: \(core.maxOffset) vs \(reference.maxOffset)" }
    if core.currentEstimate != reference.currentEstimate { return "estimate: \(core.currentEstimate) vs \(reference.currentEstimate)" }
    if core.visibleIndices != reference.visibleIndices { return "visibleIndices: \(core.visibleIndices) vs \(reference.visibleIndices)" }
    if core.position != reference.position { return "position: \(core.position) vs \(reference.position)" }
    if core._anchorRowID != reference.anchorRowID {
      return "anchor row: \(String(describing: core._anchorRowID)) vs \(String(describing: reference.anchorRowID))"
    }
    if core.lastCorrection != reference.lastCorrection { return "lastCorrection: \(core.lastCorrection) vs \(reference.lastCorrection)" }
    if core.lastPositionResult != reference.lastPositionResult {
      return "lastPositionResult: \(core.lastPositionResult) vs \(reference.lastPositionResult)"
    }
    let frames = reference.frames()
    for i in 0 ..< core.count {
      let a = core.frame(at: i)
      let b = frames[i]
      if a != b { return "frame(at: \(i)): \(a) vs \(b)" }
      let id = core.id(at: i)
      if core.index(of: id) != i { return "index(of: \(id)) != \(i)" }
      if core.measuredExtent(for: id) != reference.measuredExtent(for: id) { return "measuredExtent(\(id)) differs" }
      if core.isMeasured(at: i) != reference.isMeasured(at: i) { return "isMeasured(at: \(i)) differs" }
      if core.role(at: i) != reference.role(at: i) { return "role(at: \(i)): \(core.role(at: i)) vs \(reference.role(at: i))" }
      if core.kind(at: i) != reference.kind(at: i) { return "kind(at: \(i)): \(core.kind(at: i)) vs \(reference.kind(at: i))" }
      if core.ownEstimatedExtent(for: id) != reference.ownEstimatedExtent(for: id) {
        return "ownEstimatedExtent(for: \(id)): \(String(describing: core.ownEstimatedExtent(for: id))) vs "
          + "\(String(describing: reference.ownEstimatedExtent(for: id)))"
      }
      if core.section(containing: i) != reference.section(containing: i) {
        return "section(containing: \(i)): \(core.section(containing: i)) vs \(reference.section(containing: i))"
      }
    }
    for k: UInt8 in [1, 2, 3, 200] {
      if core.currentEstimate(forKind: k) != reference.currentEstimate(forKind: k) {
        return "currentEstimate(forKind: \(k)): \(core.currentEstimate(forKind: k)) vs \(reference.currentEstimate(forKind: k))"
      }
      if core.estimatePolicy(forKind: k) != reference.estimatePolicy(forKind: k) { return "estimatePolicy(forKind: \(k)) differs" }
      if core.estimatedExtent(forKind: k) != reference.estimatedExtent(forKind: k) { return "estimatedExtent(forKind: \(k)) differs" }
    }
    if core.isRestorePending != reference.isRestorePending {
      return "isRestorePending: \(core.isRestorePending) vs \(reference.isRestorePending)"
    }
    let (snapshotA, snapshotB) = (core.snapshot(), reference.snapshot())
    if snapshotA != snapshotB { return "snapshot(): \(snapshotA) vs \(snapshotB)" }
    if core.pinnedRows != reference.pinnedRows { return "pinnedRows: \(core.pinnedRows) vs \(reference.pinnedRows)" }
    if core.phase != reference.phase { return "phase: \(core.phase) vs \(reference.phase)" }
    if core.lastPhaseChange != reference.lastPhaseChange {
      return "lastPhaseChange: \(String(describing: core.lastPhaseChange)) vs \(String(describing: reference.lastPhaseChange))"
    }
    for threshold in [0, 0.5, 1] where core.visibleIDs(threshold: threshold) != reference.visibleIDs(threshold: threshold) {
      return "visibleIDs(threshold: \(threshold)): \(core.visibleIDs(threshold: threshold)) vs "
        + "\(reference.visibleIDs(threshold: threshold))"
    }
    for y in probes {
      let a = core.index(atOffset: y)
      let b = reference.index(atOffset: y)
      if a != b { return "index(atOffset: \(y)): \(String(describing: a)) vs \(String(describing: b))" }
    }
    if core.sectionLayout != reference.sectionLayout { return "sectionLayout: \(core.sectionLayout) vs \(reference.sectionLayout)" }
    if let problem = frameDifference() { return problem }
    if reference.hasLanes || core._laysOutLanes {
      if core.visibleRows != reference.visibleRows { return "visibleRows: \(core.visibleRows) vs \(reference.visibleRows)" }
      let lanes = reference.lanes()
      for i in 0 ..< core.count {
        if core.lane(at: i) != lanes[i] { return "lane(at: \(i)): \(core.lane(at: i)) vs \(lanes[i])" }
        if core.sectionLayout(at: i) != reference.sectionLayout(at: i) { return "sectionLayout(at: \(i)) differs" }
      }
      let width = core.axis == .vertical ? core.contentSize.width : core.contentSize.height
      for y in probes {
        for x in [0, width / 3, width * 0.8] {
          let point = core.axis == .vertical ? CGPoint(x: x, y: y) : CGPoint(x: y, y: x)
          let a = core.index(at: point)
          let b = reference.index(at: point)
          if a != b { return "index(at: \(point)): \(String(describing: a)) vs \(String(describing: b))" }
        }
      }
    }
    return nil
  }
}

extension ModelPair {
  /// SPEC §16 compared: the indicator, the edge events waiting, the rows
  /// to draw, the ends, prefetch in both directions, the proposals.
  public func frameDifference() -> String? {
    if core.scrollIndicator != reference.scrollIndicator {
      return "scrollIndicator: \(core.scrollIndicator) vs \(reference.scrollIndicator)"
    }
    if core._pendingEdgeEvents != reference.pendingEdgeEvents {
      return "edge events waiting: \(core._pendingEdgeEvents) vs \(reference.pendingEdgeEvents)"
    }
    if core.keptIDs != reference.keptIDs { return "keptIDs differ" }
    if core.edgeTriggerDistance != reference.edgeTriggerDistance {
      return "edgeTriggerDistance: \(core.edgeTriggerDistance) vs \(reference.edgeTriggerDistance)"
    }
    if core.rowsToDraw != reference.rowsToDraw { return "rowsToDraw: \(core.rowsToDraw) vs \(reference.rowsToDraw)" }
    for edge in Edge.allCases where core.distance(to: edge) != reference.distance(to: edge) {
      return "distance(to: .\(edge)): \(core.distance(to: edge)) vs \(reference.distance(to: edge))"
    }
    if core.isAtStart != reference.isAtStart { return "isAtStart: \(core.isAtStart) vs \(reference.isAtStart)" }
    if core.isAtEnd != reference.isAtEnd { return "isAtEnd: \(core.isAtEnd) vs \(reference.isAtEnd)" }
    if core.rowsAfterViewport != reference.rowsAfterViewport {
      return "rowsAfterViewport: \(core.rowsAfterViewport) vs \(reference.rowsAfterViewport)"
    }
    let v = core.axis == .vertical ? core.viewportSize.height : core.viewportSize.width
    for (ahead, behind) in [(v, v / 2), (0, 300), (2.5 * v, 0)] {
      let a = core.prefetchRows(ahead: ahead, behind: behind)
      let b = reference.prefetchRows(ahead: ahead, behind: behind)
      if a != b { return "prefetchRows(ahead: \(ahead), behind: \(behind)): \(a) vs \(b)" }
    }
    for i in stride(from: 0, to: core.count, by: Swift.max(1, core.count / 16)) {
      if core.proposedSize(at: i) != reference.proposedSize(at: i) {
        return "proposedSize(at: \(i)): \(core.proposedSize(at: i)) vs \(reference.proposedSize(at: i))"
      }
    }
    return nil
  }
}

/// Runs `operations` random operations from `seed` on a fresh pair and
/// compares everything after every step. Returns the number of operations
/// run, or throws a description of the first divergence (with seed and step).
public struct SoakFailure: Error, CustomStringConvertible {
  public var description: String
}

/// A soak run's block capacity: small blocks (4–12 rows), so that edits
/// split and merge them and searches cross them, or, one run in three,
/// blocks of 40–160 rows, so that the in-block paths (walks of up to 64
/// rows, the quotient over a block without measured rows) run as they do
/// in an app, where blocks hold hundreds of rows.
func soakBlockCapacity(_ rng: inout SeededRNG) -> Int {
  Int.random(in: 0 ..< 3, using: &rng) == 0 ? Int.random(in: 40 ... 160, using: &rng) : Int.random(in: 4 ... 12, using: &rng)
}

/// What `soak`'s trace prints after each step (`lazystack-soak --trace`,
/// and the fuzz target's with `FUZZ_TRACE`):
/// both sides' offset, content size, position and row count; with the
/// environment variable `SOAK_TRACE_ROWS` set, also the first 24 rows'
/// ids and frames and the visible ranges.
package func traceState(of pair: ModelPair, step: Int, to trace: (Int, String) -> Void) {
  func state(_ offset: CGPoint, _ size: CGSize, _ position: ScrollPosition, _ count: Int) -> String {
    "offset \(offset), content \(size), \(position), \(count) rows"
  }
  trace(step, "  core:      " + state(pair.core.contentOffset, pair.core.contentSize, pair.core.position, pair.core.count))
  trace(step, "  reference: " + state(pair.reference.contentOffset, pair.reference.contentSize, pair.reference.position,
                                       pair.reference.ids.count))
  guard ProcessInfo.processInfo.environment["SOAK_TRACE_ROWS"] != nil else { return }
  func row(_ id: Int, _ f: CGRect) -> String { "\(id)@\(f.minX),\(f.minY)+\(f.height)" }
  let n = Swift.min(24, pair.core.count, pair.reference.ids.count)
  trace(step, "  core rows: " + (0 ..< n).map { row(pair.core.id(at: $0), pair.core.frame(at: $0)) }.joined(separator: " "))
  trace(step, "  ref rows:  " + (0 ..< n).map { row(pair.reference.ids[$0], pair.reference.frame(at: $0)) }.joined(separator: " "))
  trace(step, "  visible: core \(pair.core.visibleIndices), reference \(pair.reference.visibleIndices)")
}

public func soak(seed: UInt64, operations: Int, maxRows: Int = 120, axis: Axis = .vertical,
                 sections: Bool = true, motion: Bool = true, batches: Bool = true, kinds: Bool = true,
                 lanes: Bool = false, listLayoutsOnly: Bool = false, frame: Bool = false,
                 trace: ((Int, String) -> Void)? = nil) throws -> Int {
  var generator = OperationGenerator(seed: seed, includeEdits: true, maxRows: maxRows, includeSections: sections,
                                     includeMotion: motion, includeOrderedIDs: seed % 2 == 1)
  generator.includeBatches = batches
  generator.includeKinds = kinds
  generator.includeLanes = lanes
  generator.listLayoutsOnly = listLayoutsOnly
  generator.includeFrame = frame
  var rng = SeededRNG(seed: seed ^ 0xA5A5)
  // Odd seeds: ids spaced by 8, so inserts can keep their order (SPEC E4).
  let initial = Array(stride(from: 0, to: Int.random(in: 0 ... maxRows / 2, using: &rng) * (seed % 2 == 1 ? 8 : 1),
                             by: seed % 2 == 1 ? 8 : 1))
  var pair = try ModelPair(ids: initial, estimate: CGFloat(Int.random(in: 1 ... 80, using: &rng)),
                           spacing: CGFloat(Int.random(in: 0 ... 3, using: &rng)) * 2.5, axis: axis,
                           insets: EdgeInsets(all: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4),
                           blockCapacity: soakBlockCapacity(&rng))
  for step in 0 ..< operations {
    let extent = axis == .vertical ? pair.reference.contentSize.height : pair.reference.contentSize.width
    let op = generator.next(ids: pair.reference.ids, contentExtent: extent)
    trace?(step, "\(op)")
    defer { if let trace { traceState(of: pair, step: step, to: trace) } }
    if let problem = pair.step(op) {
      throw SoakFailure(description: "seed \(seed) step \(step) \(op): \(problem)")
    }
    let probes = (0 ..< 3).map { _ in CGFloat(Int.random(in: -50 ... Int(extent) + 50, using: &rng)) }
    if let problem = pair.difference(probes: probes) {
      throw SoakFailure(description: "seed \(seed) step \(step) \(op): \(problem)")
    }
  }
  return operations
}

/// A behaviour that keeps the natural end of a fling (SPEC B2): no snapping.
public struct FreeScrolling: ScrollTargetBehavior {
  public init() {}
  public func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {}
}
