import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// SPEC §13 in the layout against the reference model: random sections,
/// grid and masonry layouts (fixed and adaptive lane counts, lane spacing,
/// alignments), width changes, measurements, scrolls and edits, every
/// observable compared after every step (frames with their lanes,
/// `visibleIndices`, `visibleRows`, the position and the kept row, point
/// queries and hit tests), the seed and step printed on failure.
final class LaneModelCheckTests: CheckedTestCase {
  /// Every kind of operation with lanes, frame included: returns how many
  /// steps of each case ran, and what the restores compared.
  @discardableResult
  func run(seeds: ClosedRange<UInt64>, steps: Int, maxRows: Int = 60) -> (cases: [String: Int], restores: RestoreChecks) {
    var cases: [String: Int] = [:]
    var restores = RestoreChecks()
    for seed in TestScale.seeds(seeds.lowerBound ..< seeds.upperBound + 1) {
      var rng = SeededRNG(seed: seed ^ 0x1a7e)
      var generator = OperationGenerator(seed: seed, includeEdits: true, maxRows: maxRows, includeSections: true,
                                         includeMotion: true)
      generator.includeLanes = true
      generator.includeBatches = true
      generator.includeKinds = true
      generator.includeFrame = true
      let initial = Array(0 ..< Int.random(in: 0 ... maxRows / 2, using: &rng))
      let axis: Axis = seed % 3 == 0 ? .horizontal : .vertical
      var pair = try! ModelPair(ids: initial, estimate: CGFloat(Int.random(in: 10 ... 80, using: &rng)),
                                spacing: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4, axis: axis,
                                insets: EdgeInsets(all: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4),
                                blockCapacity: Int.random(in: 4 ... 12, using: &rng))
      var opening = [LayoutOperation.laneViewport(CGSize(width: 400, height: 300)),
                     .sectionLayout(generator.sectionLayout())]
      var step = 0
      while step < steps {
        let extent = axis == .vertical ? pair.reference.contentSize.height : pair.reference.contentSize.width
        // (Halfway, every other seed goes back to an automatic position: the
        // generator makes one only about once in 1,000 steps with lanes.)
        let op = !opening.isEmpty ? opening.removeFirst()
          : step == steps / 2 && seed % 2 == 0 ? .automaticPosition
          : generator.next(ids: pair.reference.ids, contentExtent: extent)
        cases[op.caseName, default: 0] += 1
        let problem = pair.step(op) ?? pair.difference(probes: (0 ..< 3).map { _ in
          CGFloat(Int.random(in: -50 ... Int(extent) + 50, using: &rng))
        })
        XCTAssertNil(problem, "seed \(seed) step \(step) \(op)")
        if problem != nil {
          if ProcessInfo.processInfo.environment["LANE_DEBUG"] != nil {
            let c = pair.core, r = pair.reference
            print("offset", c.contentOffset, "viewport", c.viewportSize, "anchor", c._anchorRowID as Any, r.anchorRowID as Any)
            for i in 0 ..< c.count {
              print(i, c.id(at: i), c.role(at: i), c.frame(at: i), r.frames()[i], c.lane(at: i), c.isMeasured(at: i))
            }
          }
          return (cases, restores)
        }
        step += 1
      }
      restores += pair.restoreChecks
    }
    return (cases, restores)
  }

  /// A scroll frame in masonry reads the rows it gains from each lane's
  /// rows on screen in the last frame (`_MasonryLanes.appendStrips`): many
  /// small scrolls both ways, over drifted lanes (a quarter of the rows
  /// measured), headers and footers between masonry bodies, spacing and
  /// overscan, compared with the reference after every one (SPEC L5, T1).
  func testSmallScrollsInMasonryAgainstTheReference() {
    for seed in TestScale.seeds(1 ..< 11) {
      var rng = SeededRNG(seed: seed ^ 0x5c20)
      let n = Int.random(in: 40 ... 240, using: &rng)
      var pair = try! ModelPair(ids: Array(0 ..< n), estimate: CGFloat(Int.random(in: 10 ... 60, using: &rng)),
                                spacing: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4, axis: .vertical,
                                insets: EdgeInsets(all: 4), blockCapacity: Int.random(in: 4 ... 24, using: &rng))
      var ops: [LayoutOperation] = [
        .laneViewport(CGSize(width: 400, height: CGFloat(Int.random(in: 100 ... 600, using: &rng)))),
        .sectionLayout(.masonry(try! MasonryLayout(lanes: .fixed(Int.random(in: 1 ... 5, using: &rng)),
                                                   laneSpacing: CGFloat(Int.random(in: 0 ... 1, using: &rng)) * 6))),
      ]
      if seed % 2 == 0 {
        for h in stride(from: Int.random(in: 0 ... 20, using: &rng), to: n, by: Int.random(in: 30 ... 120, using: &rng)) {
          ops.append(.setRole(h, .sectionHeader))
          if h + 25 < n && Bool.random(using: &rng) { ops.append(.setRole(h + 25, .sectionFooter)) }
        }
      }
      if seed % 3 == 0 { ops.append(.overscan(Overscan(before: .points(30), after: .rows(2)))) }
      for id in 0 ..< n where Int.random(in: 0 ..< 4, using: &rng) == 0 {
        ops.append(.measure(id, CGFloat(Int.random(in: 0 ... 200, using: &rng))))
      }
      for (step, op) in ops.enumerated() {
        let problem = pair.step(op) ?? pair.difference(probes: [])
        XCTAssertNil(problem, "seed \(seed) setup step \(step) \(op)")
        if problem != nil { return }
      }
      var y = CGFloat(Int.random(in: 0 ... Int(pair.reference.contentSize.height), using: &rng))
      var direction: CGFloat = Bool.random(using: &rng) ? 1 : -1
      for step in 0 ..< 120 {
        if Int.random(in: 0 ..< 40, using: &rng) == 0 { direction = -direction }
        y += direction * CGFloat(Int.random(in: 0 ... 90, using: &rng))
        y = Swift.min(Swift.max(y, -50), pair.reference.contentSize.height + 50)
        let op: LayoutOperation = Int.random(in: 0 ..< 25, using: &rng) == 0
          ? .measure(Int.random(in: 0 ..< n, using: &rng), CGFloat(Int.random(in: 0 ... 200, using: &rng)))
          : .userScroll(y)
        let problem = pair.step(op) ?? pair.difference(probes: [y + 20, y + 150])
        XCTAssertNil(problem, "seed \(seed) step \(step) \(op)")
        if problem != nil { return }
      }
    }
  }

  /// A measurement in a masonry moves only its lane's later rows, so the
  /// rows found on screen are kept up to date without a search
  /// (`_MasonryLanes._patchSpans`), and follow the correction with the
  /// scroll frame's strips: many measurements that grow and shrink rows
  /// above, on and below the screen (rows come in from above and below in
  /// one lane), with a fixed estimate (else every estimated row moves),
  /// small scrolls between them, over drifted lanes, sometimes with
  /// headers and footers, spacing and overscan; compared with the
  /// reference after every one (SPEC L4, L5, S1).
  func testMeasurementsInMasonryAgainstTheReference() {
    for seed in TestScale.seeds(1 ..< 11) {
      var rng = SeededRNG(seed: seed ^ 0x3ea5)
      let n = Int.random(in: 60 ... 240, using: &rng)
      var pair = try! ModelPair(ids: Array(0 ..< n), estimate: CGFloat(Int.random(in: 10 ... 60, using: &rng)),
                                spacing: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4, axis: .vertical,
                                insets: EdgeInsets(all: 4), blockCapacity: Int.random(in: 4 ... 24, using: &rng))
      var ops: [LayoutOperation] = [
        .policy(.fixed),
        .laneViewport(CGSize(width: 400, height: CGFloat(Int.random(in: 100 ... 600, using: &rng)))),
        .sectionLayout(.masonry(try! MasonryLayout(lanes: .fixed(Int.random(in: 1 ... 5, using: &rng)),
                                                   laneSpacing: CGFloat(Int.random(in: 0 ... 1, using: &rng)) * 6))),
      ]
      if seed % 3 == 0 {
        for h in stride(from: Int.random(in: 0 ... 20, using: &rng), to: n, by: Int.random(in: 30 ... 120, using: &rng)) {
          ops.append(.setRole(h, .sectionHeader))
          if h + 25 < n && Bool.random(using: &rng) { ops.append(.setRole(h + 25, .sectionFooter)) }
        }
      }
      if seed % 4 == 0 { ops.append(.overscan(Overscan(before: .points(30), after: .rows(2)))) }
      for id in 0 ..< n where Int.random(in: 0 ..< 4, using: &rng) == 0 {
        ops.append(.measure(id, CGFloat(Int.random(in: 0 ... 200, using: &rng))))
      }
      ops.append(.userScroll(CGFloat(Int.random(in: 0 ... 2000, using: &rng))))
      for (step, op) in ops.enumerated() {
        let problem = pair.step(op) ?? pair.difference(probes: [])
        XCTAssertNil(problem, "seed \(seed) setup step \(step) \(op)")
        if problem != nil { return }
      }
      var y = pair.reference.contentOffset.y
      for step in 0 ..< 150 {
        let op: LayoutOperation
        if Int.random(in: 0 ..< 8, using: &rng) == 0 {
          y += CGFloat(Int.random(in: -60 ... 60, using: &rng))
          y = Swift.min(Swift.max(y, -50), pair.reference.contentSize.height + 50)
          op = .userScroll(y)
        } else {
          // A row on screen or near it, most of the time; else anywhere.
          let visible = pair.reference.visibleIndices
          let row = Int.random(in: 0 ..< 3, using: &rng) > 0 && !visible.isEmpty
            ? Swift.min(n - 1, Swift.max(0, Int.random(in: visible.lowerBound - 30 ... visible.upperBound + 10, using: &rng)))
            : Int.random(in: 0 ..< n, using: &rng)
          op = .measure(row, CGFloat(Int.random(in: 0 ... 240, using: &rng)))
        }
        let problem = pair.step(op) ?? pair.difference(probes: [y + 20, y + 150])
        XCTAssertNil(problem, "seed \(seed) step \(step) \(op)")
        if problem != nil { return }
      }
    }
  }

  /// Moves of plain rows change the lane sections in place (SPEC L4, L8):
  /// drags within a grid or masonry body, across sections of the same
  /// flow and of another, into and out of list sections, multi-row moves,
  /// differences applied (removals, moves and inserts in one `apply`);
  /// between them measurements, inserts, removals, role changes and
  /// kinds' estimates; compared with the reference (which lays every lane
  /// out from scratch) after every step.
  func testEditsInLanesAgainstTheReference() {
    for seed in TestScale.seeds(1 ..< 41) {
      var rng = SeededRNG(seed: seed ^ 0x30fe)
      let n = Int.random(in: 20 ... 160, using: &rng)
      var pair = try! ModelPair(ids: Array(0 ..< n), estimate: CGFloat(Int.random(in: 10 ... 60, using: &rng)),
                                spacing: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4,
                                axis: seed % 4 == 3 ? .horizontal : .vertical,
                                insets: EdgeInsets(all: 4), blockCapacity: Int.random(in: 4 ... 16, using: &rng))
      func layout() -> SectionLayout {
        switch Int.random(in: 0 ..< 5, using: &rng) {
        case 0: return .list
        case 1, 2:
          return .grid(try! GridLayout(lanes: .fixed(Int.random(in: 1 ... 4, using: &rng)),
                                       alignment: [0, 0.5, 1][Int.random(in: 0 ... 2, using: &rng)]))
        default:
          return .masonry(try! MasonryLayout(lanes: .fixed(Int.random(in: 1 ... 4, using: &rng)),
                                             laneSpacing: CGFloat(Int.random(in: 0 ... 1, using: &rng)) * 6))
        }
      }
      var ops: [LayoutOperation] = [
        .laneViewport(CGSize(width: 400, height: CGFloat(Int.random(in: 100 ... 500, using: &rng)))),
        .sectionLayout(seed % 5 == 0 ? .list : layout()),
      ]
      for h in stride(from: Int.random(in: 0 ... 10, using: &rng), to: n, by: Int.random(in: 12 ... 50, using: &rng)) {
        ops.append(.setRole(h, .sectionHeader))
        if Bool.random(using: &rng) { ops.append(.headerLayout(h, layout())) }
        if h + 8 < n && Int.random(in: 0 ..< 3, using: &rng) == 0 { ops.append(.setRole(h + 8, .sectionFooter)) }
      }
      if seed % 3 == 0 {
        for id in 0 ..< n where Int.random(in: 0 ..< 5, using: &rng) == 0 { ops.append(.setKind(id, 1)) }
        ops.append(.kindEstimate(1, CGFloat(Int.random(in: 5 ... 90, using: &rng))))
        if seed % 2 == 0 { ops.append(.kindPolicy(1, .meanOfMeasured)) }
      }
      // Estimates that follow the measured mean (X2, K3): a removal of a
      // measured row moves them, and every estimated row with them.
      if seed % 4 == 1 { ops.append(.policy(.meanOfMeasured)) }
      for id in 0 ..< n where Int.random(in: 0 ..< 3, using: &rng) == 0 {
        ops.append(.measure(id, CGFloat(Int.random(in: 0 ... 150, using: &rng))))
      }
      ops.append(.userScroll(CGFloat(Int.random(in: 0 ... 1500, using: &rng))))
      for (step, op) in ops.enumerated() {
        let problem = pair.step(op) ?? pair.difference(probes: [])
        XCTAssertNil(problem, "seed \(seed) setup step \(step) \(op)")
        if problem != nil { return }
      }
      var nextID = n
      for step in 0 ..< 160 {
        let ids = pair.reference.ids
        let count = ids.count
        let op: LayoutOperation
        switch Int.random(in: 0 ..< 18, using: &rng) {
        case 0 ..< 7 where count > 0:
          let from = Int.random(in: 0 ..< count, using: &rng)
          op = .move(IndexSet(integer: from), to: Int.random(in: 0 ... count, using: &rng))
        case 7 ..< 9 where count > 1:
          var offsets = IndexSet()
          for _ in 0 ..< Int.random(in: 2 ... 5, using: &rng) { offsets.insert(Int.random(in: 0 ..< count, using: &rng)) }
          op = .move(offsets, to: Int.random(in: 0 ... count, using: &rng))
        case 9 ... 10 where count > 0:
          op = .measure(ids[Int.random(in: 0 ..< count, using: &rng)], CGFloat(Int.random(in: 0 ... 150, using: &rng)))
        case 11:
          let new = Array(nextID ..< nextID + Int.random(in: 1 ... 3, using: &rng))
          nextID += new.count
          op = .insert(new, at: Int.random(in: 0 ... count, using: &rng))
        case 12 where count > 4:
          op = .removeOffsets(IndexSet(integer: Int.random(in: 0 ..< count, using: &rng)))
        case 13 where count > 0:
          op = .kindEstimate(UInt8(Int.random(in: 0 ... 1, using: &rng)), CGFloat(Int.random(in: 5 ... 90, using: &rng)))
        case 14 where count > 0:
          op = .setKind(ids[Int.random(in: 0 ..< count, using: &rng)], UInt8(Int.random(in: 0 ... 2, using: &rng)))
        case 15 ... 16 where count > 4:
          // `apply(_:)` of a difference: rows removed, moved (removed and
          // inserted again: they keep their lanes, L4) and new.
          var list = ids
          for _ in 0 ..< Int.random(in: 0 ... 2, using: &rng) { list.remove(at: Int.random(in: 0 ..< list.count, using: &rng)) }
          for _ in 0 ..< Int.random(in: 0 ... 3, using: &rng) {
            let id = list.remove(at: Int.random(in: 0 ..< list.count, using: &rng))
            list.insert(id, at: Int.random(in: 0 ... list.count, using: &rng))
          }
          for _ in 0 ..< Int.random(in: 0 ... 2, using: &rng) {
            list.insert(nextID, at: Int.random(in: 0 ... list.count, using: &rng))
            nextID += 1
          }
          op = .difference(list)
        default:
          op = .userScroll(CGFloat(Int.random(in: 0 ... 1500, using: &rng)))
        }
        let problem = pair.step(op) ?? pair.difference(probes: [CGFloat(Int.random(in: 0 ... 1500, using: &rng))])
        XCTAssertNil(problem, "seed \(seed) step \(step) \(op)")
        if problem != nil { return }
      }
    }
  }

  /// Kind 0's estimate moves every row that follows it (SPEC X2, K1, K3):
  /// with lanes the sections follow in place (a masonry body moves its
  /// rows that follow the estimate without writing them, L4: they keep
  /// their lanes), through fixed estimates set again, `.meanOfMeasured`
  /// (every measurement and every removal of a measured row moves it),
  /// rows that start or stop following it (measured, invalidated, given a
  /// kind or an own estimate, a kind given an estimate of its own or its
  /// mean), inserts, removals, moves and scrolls, in grid and masonry
  /// sections beside lists; compared with the reference after every step.
  func testEstimatesInLanesAgainstTheReference() {
    for seed in TestScale.seeds(1 ..< 31) {
      var rng = SeededRNG(seed: seed ^ 0x35e7)
      let n = Int.random(in: 20 ... 180, using: &rng)
      var pair = try! ModelPair(ids: Array(0 ..< n), estimate: CGFloat(Int.random(in: 10 ... 60, using: &rng)),
                                spacing: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 4,
                                axis: seed % 5 == 4 ? .horizontal : .vertical,
                                insets: EdgeInsets(all: 4), blockCapacity: Int.random(in: 4 ... 16, using: &rng))
      func layout() -> SectionLayout {
        switch Int.random(in: 0 ..< 6, using: &rng) {
        case 0: return .list
        case 1, 2:
          return .grid(try! GridLayout(lanes: .fixed(Int.random(in: 1 ... 4, using: &rng)),
                                       alignment: [0, 0.5, 1][Int.random(in: 0 ... 2, using: &rng)]))
        default:
          return .masonry(try! MasonryLayout(lanes: .fixed(Int.random(in: 1 ... 5, using: &rng)),
                                             laneSpacing: CGFloat(Int.random(in: 0 ... 1, using: &rng)) * 6))
        }
      }
      var ops: [LayoutOperation] = [
        .laneViewport(CGSize(width: 400, height: CGFloat(Int.random(in: 100 ... 500, using: &rng)))),
        .sectionLayout(layout()),
      ]
      if seed % 2 == 0 {
        for h in stride(from: Int.random(in: 0 ... 10, using: &rng), to: n, by: Int.random(in: 15 ... 60, using: &rng)) {
          ops.append(.setRole(h, .sectionHeader))
          if Bool.random(using: &rng) { ops.append(.headerLayout(h, layout())) }
        }
      }
      if seed % 3 != 0 {
        for id in 0 ..< n where Int.random(in: 0 ..< 6, using: &rng) == 0 { ops.append(.setKind(id, UInt8(Int.random(in: 1 ... 2, using: &rng)))) }
        if Bool.random(using: &rng) { ops.append(.kindEstimate(1, CGFloat(Int.random(in: 5 ... 90, using: &rng)))) }
        if Bool.random(using: &rng) { ops.append(.kindPolicy(2, .meanOfMeasured)) }
      }
      ops.append(.policy(seed % 2 == 1 ? .meanOfMeasured : .fixed))
      for id in 0 ..< n where Int.random(in: 0 ..< 4, using: &rng) == 0 {
        ops.append(.measure(id, CGFloat(Int.random(in: 0 ... 150, using: &rng))))
      }
      ops.append(.userScroll(CGFloat(Int.random(in: 0 ... 1500, using: &rng))))
      for (step, op) in ops.enumerated() {
        let problem = pair.step(op) ?? pair.difference(probes: [])
        XCTAssertNil(problem, "seed \(seed) setup step \(step) \(op)")
        if problem != nil { return }
      }
      var nextID = n
      for step in 0 ..< 150 {
        let ids = pair.reference.ids
        let count = ids.count
        func anyID() -> Int { ids[Int.random(in: 0 ..< count, using: &rng)] }
        let op: LayoutOperation
        switch Int.random(in: 0 ..< 20, using: &rng) {
        case 0 ..< 4:
          op = .estimate(CGFloat(Int.random(in: 0 ... 90, using: &rng)))
        case 4:
          op = .policy(Bool.random(using: &rng) ? .meanOfMeasured : .fixed)
        case 5 ..< 9 where count > 0:
          op = .measure(anyID(), CGFloat(Int.random(in: 0 ... 150, using: &rng)))
        case 9 where count > 0:
          op = .invalidate(anyID())
        case 10 where count > 0:
          op = .setKind(anyID(), UInt8(Int.random(in: 0 ... 2, using: &rng)))
        case 11 where count > 0:
          op = .ownEstimate(anyID(), Bool.random(using: &rng) ? CGFloat(Int.random(in: 5 ... 90, using: &rng)) : nil)
        case 12:
          op = .kindEstimate(UInt8(Int.random(in: 1 ... 2, using: &rng)), CGFloat(Int.random(in: 5 ... 90, using: &rng)))
        case 13:
          op = .kindPolicy(UInt8(Int.random(in: 1 ... 2, using: &rng)), Bool.random(using: &rng) ? .meanOfMeasured : .fixed)
        case 14:
          let new = Array(nextID ..< nextID + Int.random(in: 1 ... 3, using: &rng))
          nextID += new.count
          op = .insert(new, at: Int.random(in: 0 ... count, using: &rng))
        case 15 where count > 4:
          op = .removeOffsets(IndexSet(integer: Int.random(in: 0 ..< count, using: &rng)))
        case 16 where count > 0:
          op = .move(IndexSet(integer: Int.random(in: 0 ..< count, using: &rng)), to: Int.random(in: 0 ... count, using: &rng))
        case 17:
          op = .invalidateAll
        default:
          op = .userScroll(CGFloat(Int.random(in: 0 ... 1500, using: &rng)))
        }
        let problem = pair.step(op) ?? pair.difference(probes: [CGFloat(Int.random(in: 0 ... 1500, using: &rng))])
        XCTAssertNil(problem, "seed \(seed) step \(step) \(op)")
        if problem != nil { return }
      }
    }
  }

  func testLanesAgainstTheReference() {
    let env = ProcessInfo.processInfo.environment
    let first = UInt64(env["LANE_SEED"] ?? "") ?? 1
    let seeds = UInt64(env["LANE_SEEDS"] ?? "") ?? 40
    // (The short scale runs 6 of the 40 seeds, each twice as long, so that
    // every kind of operation still runs.)
    let steps = Int(env["LANE_STEPS"] ?? "") ?? (TestScale.current == .short ? 240 : 120)
    let (cases, restores) = run(seeds: first ... first + seeds - 1, steps: steps)
    // What ran, printed; and a floor: every kind of operation a generator
    // makes ran with lanes (snapping, motion, batches, kinds, snapshots and
    // the frame included), and restores with lanes and with sections were
    // compared in a fresh layout.
    print("lanes against the reference: " + cases.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
      .joined(separator: ", "))
    print("lanes against the reference: \(restores)")
    guard env["LANE_SEED"] == nil && env["LANE_SEEDS"] == nil && env["LANE_STEPS"] == nil else { return }
    XCTAssertEqual(LayoutOperation.generatedCaseNames.subtracting(cases.keys).sorted(), [], "operations never run with lanes")
    XCTAssertGreaterThanOrEqual(restores.withLanes, 3, "\(restores)")
    XCTAssertGreaterThanOrEqual(restores.withSections, 3, "\(restores)")
  }
}
