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
  /// Operations the layout's lanes do not cover yet (snapping, motion,
  /// batches, kinds and snapshots with lanes) are left out.
  func covered(_ op: LayoutOperation) -> Bool {
    switch op {
    default:
      return true
    }
  }

  func run(seeds: ClosedRange<UInt64>, steps: Int, maxRows: Int = 60) {
    for seed in seeds {
      var rng = SeededRNG(seed: seed ^ 0x1a7e)
      var generator = OperationGenerator(seed: seed, includeEdits: true, maxRows: maxRows, includeSections: true,
                                         includeMotion: true)
      generator.includeLanes = true
      generator.includeBatches = true
      generator.includeKinds = true
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
        let op = opening.isEmpty ? generator.next(ids: pair.reference.ids, contentExtent: extent) : opening.removeFirst()
        guard covered(op) else { continue }
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
          return
        }
        step += 1
      }
    }
  }

  func testLanesAgainstTheReference() {
    let env = ProcessInfo.processInfo.environment
    let first = UInt64(env["LANE_SEED"] ?? "") ?? 1
    let seeds = UInt64(env["LANE_SEEDS"] ?? "") ?? 40
    run(seeds: first ... first + seeds - 1, steps: Int(env["LANE_STEPS"] ?? "") ?? 120)
  }
}
