import Foundation
import LazyStackCore
import LazyStackReference

/// What a scenario needs from a variant: the public API a UI uses. Both
/// `LazyStackLayout` (`core`) and `LazyStackReference` (`naive`) conform.
protocol BenchSubject {
  static var variant: String { get }
  /// Rows with the given ids.
  init(ids: [Int], estimate: CGFloat) throws
  /// n rows with ids 0 ..< n given as an array.
  init(count: Int, estimate: CGFloat) throws
  /// n rows with ids given as the range 0 ..< n.
  init(range count: Int, estimate: CGFloat) throws
  var viewportSize: CGSize { get set }
  /// The scroll anchor: the viewport point tracked while the user scrolls (T1, T3).
  var scrollAnchor: UnitPoint? { get set }
  var count: Int { get }
  var contentOffset: CGPoint { get }
  var contentSize: CGSize { get }
  var visibleIndices: Range<Int> { get }
  var trackedID: Int? { get }
  var heapBytes: Int { get }
  func index(of id: Int) -> Int?
  func index(atOffset offset: CGFloat) -> Int?
  func frame(at index: Int) -> CGRect
  mutating func userScroll(to offset: CGPoint)
  mutating func setMeasuredExtent(_ extent: CGFloat, for id: Int) -> MeasurementResult
  mutating func setEstimatedExtent(_ extent: CGFloat) throws -> ScrollCorrection
  /// What unmeasured rows are estimated at (SPEC X2).
  var estimatePolicy: EstimatePolicy { get set }
  /// The extent unmeasured rows have right now (SPEC X2).
  var currentEstimate: CGFloat { get }
  mutating func invalidateAllMeasurements()
  /// Measures every row (an untimed reset).
  mutating func _measureAllRows(_ extent: (Int) -> CGFloat)
  var lastCorrection: ScrollCorrection { get }
  mutating func update(ids: [Int]) throws -> ScrollCorrection
  mutating func insert(_ ids: [Int], at index: Int) throws -> ScrollCorrection
  mutating func remove(atOffsets offsets: IndexSet) -> ScrollCorrection
  mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) -> ScrollCorrection
  mutating func apply(_ difference: CollectionDifference<Int>) throws -> ScrollCorrection
  mutating func scrollTo(id: Int, anchor: UnitPoint)
  func pagingTarget(release: CGFloat, velocity: CGFloat) -> CGFloat
  func viewAlignedTarget(release: CGFloat, velocity: CGFloat) -> CGFloat
  var pinnedViews: PinnedScrollableViews { get set }
  var pinnedRows: [PinnedRow] { get }
  /// Makes every `every`-th row (from row 0) a section header (an untimed setup).
  mutating func makeSections(every: Int)
  /// An animated scroll to row `id` at its top, eased over `duration` s (SPEC M4).
  mutating func animate(to id: Int, duration: Double, at time: Double)
  /// `advance(to:)` (SPEC M1): whether the motion is still moving.
  mutating func advance(to time: Double) -> Bool
  /// `performBatch` (SPEC U1): the number of rows in its transition.
  mutating func batch(_ changes: (inout Self) -> Void) -> Int
  func id(at index: Int) -> Int
  /// Gives rows kinds in one pass (an untimed setup; SPEC K1).
  mutating func _setKinds(_ kinds: [Int: UInt8])
  mutating func setEstimatedExtent(_ extent: CGFloat, forKind kind: UInt8) throws -> ScrollCorrection
  func snapshot() -> LayoutSnapshot<Int>
  mutating func restore(_ snapshot: LayoutSnapshot<Int>)
  /// The layout-wide section layout (SPEC L1).
  var sectionLayout: SectionLayout { get set }
  /// The rows on screen (SPEC L5).
  var visibleRows: [Int] { get }
  /// SPEC §16: the frame's questions.
  mutating func measureVisibleRows(_ extent: (Int, Int, CGSize) -> CGFloat)
  var rowsToDraw: [Int] { get }
  mutating func takeEdgeEvents() -> [Edge]
  var scrollIndicator: ScrollIndicator { get }
  func prefetchRows(ahead: CGFloat, behind: CGFloat) -> [Int]
}

extension LazyStackLayout: BenchSubject where ID == Int {
  static var variant: String { "core" }
  init(ids: [Int], estimate: CGFloat) throws { try self.init(ids: ids, estimatedExtent: estimate) }
  init(count: Int, estimate: CGFloat) throws { try self.init(ids: Array(0 ..< count), estimatedExtent: estimate) }
  init(range count: Int, estimate: CGFloat) throws { try self.init(ids: 0 ..< count, estimatedExtent: estimate) }
  var trackedID: Int? { position.viewID(type: Int.self) }
  var heapBytes: Int { _heapBytes }
  mutating func scrollTo(id: Int, anchor: UnitPoint) { position.scrollTo(id: id, anchor: anchor) }
  mutating func batch(_ changes: (inout LazyStackLayout<Int>) -> Void) -> Int { performBatch(changes).rows.count }
  mutating func animate(to id: Int, duration: Double, at time: Double) {
    scroll(to: ScrollPosition(id: id, anchor: .top), animation: .easeInOut(duration: duration), at: time)
  }
  mutating func makeSections(every: Int) {
    for row in stride(from: 0, to: count, by: every) { setRole(.sectionHeader, for: id(at: row)) }
  }
  func pagingTarget(release: CGFloat, velocity: CGFloat) -> CGFloat {
    targetContentOffset(forReleaseAt: CGPoint(x: 0, y: release), velocity: CGVector(dx: 0, dy: velocity),
                        behavior: .paging).y
  }
  func viewAlignedTarget(release: CGFloat, velocity: CGFloat) -> CGFloat {
    targetContentOffset(forReleaseAt: CGPoint(x: 0, y: release), velocity: CGVector(dx: 0, dy: velocity),
                        behavior: .viewAligned).y
  }
}

extension LazyStackReference: BenchSubject where ID == Int {
  static var variant: String { "naive" }
  init(ids: [Int], estimate: CGFloat) throws { try self.init(ids: ids, estimatedExtent: estimate) }
  init(count: Int, estimate: CGFloat) throws { try self.init(ids: Array(0 ..< count), estimatedExtent: estimate) }
  init(range count: Int, estimate: CGFloat) throws { try self.init(ids: 0 ..< count, estimatedExtent: estimate) }
  var trackedID: Int? { position.viewID(type: Int.self) }
  mutating func makeSections(every: Int) {
    _setRoles(Dictionary(uniqueKeysWithValues: stride(from: 0, to: count, by: every).map { (ids[$0], RowRole.sectionHeader) }))
  }
  mutating func batch(_ changes: (inout LazyStackReference<Int>) -> Void) -> Int { performBatch(changes).rows.count }
  mutating func scrollTo(id: Int, anchor: UnitPoint) {
    var p = position
    p.scrollTo(id: id, anchor: anchor)
    setPosition(p)
  }
  mutating func animate(to id: Int, duration: Double, at time: Double) {
    scroll(to: ScrollPosition(id: id, anchor: .top), animation: .easeInOut(duration: duration), at: time)
  }
  func pagingTarget(release: CGFloat, velocity: CGFloat) -> CGFloat {
    targetContentOffset(forReleaseAt: CGPoint(x: 0, y: release), velocity: CGVector(dx: 0, dy: velocity), snap: .paging).y
  }
  func viewAlignedTarget(release: CGFloat, velocity: CGFloat) -> CGFloat {
    targetContentOffset(forReleaseAt: CGPoint(x: 0, y: release), velocity: CGVector(dx: 0, dy: velocity),
                        snap: .viewAligned(.automatic)).y
  }
}
