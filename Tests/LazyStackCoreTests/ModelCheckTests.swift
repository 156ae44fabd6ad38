import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// Random operation sequences from seeded generators, applied to the core and
/// to the O(n) reference model; everything observable is compared after
/// every step. A failure prints the seed, the step and the operation.
final class ModelCheckTests: CheckedTestCase {
  func run(seeds: Range<UInt64>, steps: Int, edits: Bool, spacing: CGFloat = 0, insets: EdgeInsets = EdgeInsets(),
           axis: Axis = .vertical, sections: Bool = false, motion: Bool = false, orderedIDs: Bool = false,
           batches: Bool = false, kinds: Bool = false, lanes: Bool = false, frame: Bool = false,
           file: StaticString = #filePath, line: UInt = #line) throws -> (steps: Int, withExceptions: Int) {
    // A quarter of the seeds at the default scale, all of them at LAZYSTACK_TEST_SCALE=full (CI).
    let seeds = TestScale.seeds(seeds)
    var withExceptions = 0
    var compared = 0
    var batchesEnded = 0
    var restores = RestoreChecks()
    defer {
      if restores.compared > 0 { print("\(seeds): \(restores)") }
      if lanes { XCTAssertGreaterThan(restores.withLanes, 0, "restores with lanes compared", file: file, line: line) }
    }
    defer {
      if batches { XCTAssertGreaterThan(batchesEnded, seeds.count, "batches ended and compared", file: file, line: line) }
    }
    defer { XCTAssertEqual(compared, seeds.count * steps, "every step of every seed compared", file: file, line: line) }
    for seed in seeds {
      var generator = OperationGenerator(seed: seed, includeEdits: edits, maxRows: 120, includeSections: sections,
                                         includeMotion: motion, includeOrderedIDs: orderedIDs)
      generator.includeBatches = batches
      generator.includeKinds = kinds
      generator.includeLanes = lanes
      generator.includeFrame = frame
      // With ordered ids: spaced by 8, so that inserts can keep their order.
      let initial = Array(stride(from: 0, to: Int(seed % 60) * (orderedIDs ? 8 : 1), by: orderedIDs ? 8 : 1))
      var pair = try ModelPair(ids: initial, estimate: CGFloat(seed % 7) * 9 + 1, spacing: spacing, axis: axis,
                               insets: insets, blockCapacity: 4 + Int(seed % 5))
      for step in 0 ..< steps {
        let op = generator.next(ids: pair.reference.ids,
                                contentExtent: axis == .vertical ? pair.reference.contentSize.height
                                  : pair.reference.contentSize.width)
        if let problem = pair.step(op) {
          XCTFail("seed \(seed) step \(step) \(op): \(problem)", file: file, line: line)
          return (compared, withExceptions)
        }
        let probes = (0 ..< 4).map { _ in CGFloat(Int.random(in: -50 ... 5000, using: &generator.rng)) / 2 }
        if let problem = pair.difference(probes: probes) {
          XCTFail("seed \(seed) step \(step) \(op): \(problem)", file: file, line: line)
          return (compared, withExceptions)
        }
        compared += 1
        if pair.core._tree._exceptions != nil { withExceptions += 1 }
        if case .endBatch(abort: false) = op { batchesEnded += 1 }
      }
      restores += pair.restoreChecks
    }
    return (compared, withExceptions)
  }

  /// SPEC E4: ascending `Int` ids (spaced, so inserts can keep their order)
  /// under inserts that keep the order and inserts, moves and snapshots that
  /// break or restore it, against the reference model; a good share of the
  /// steps run with exceptions (ids out of order, no index over all rows).
  func testE4_modelCheck_orderedIDsBrokenAndRestored() throws {
    let run = try run(seeds: 900 ..< 960, steps: 150, edits: true, spacing: 2, orderedIDs: true)
    XCTAssertGreaterThan(run.withExceptions, run.steps / 5, "steps with exceptions")
  }

  /// SPEC §13 with every other kind of operation (sections, motion,
  /// batches, kinds, snapshots, the frame), both axes: grids and masonry
  /// made and changed by the generator, compared after every step.
  func testL1_modelCheck_lanesWithEverything() throws {
    _ = try run(seeds: 1100 ..< 1124, steps: 150, edits: true, sections: true, motion: true, batches: true, kinds: true,
                lanes: true, frame: true)
    _ = try run(seeds: 1124 ..< 1136, steps: 150, edits: true, spacing: 2, insets: EdgeInsets(top: 3, leading: 1, bottom: 5, trailing: 2),
                axis: .horizontal, sections: true, motion: true, batches: true, kinds: true, lanes: true, frame: true)
  }

  func testModelCheck_scrollMeasureSnapshot() throws {
    _ = try run(seeds: 0 ..< 60, steps: 150, edits: false)
  }

  func testModelCheck_withEdits() throws {
    _ = try run(seeds: 100 ..< 160, steps: 150, edits: true)
  }

  func testModelCheck_spacingAndInsets() throws {
    _ = try run(seeds: 200 ..< 240, steps: 150, edits: true, spacing: 6.5,
            insets: EdgeInsets(top: 12, leading: 3, bottom: 20.25, trailing: 4))
  }

  func testModelCheck_horizontal() throws {
    _ = try run(seeds: 300 ..< 330, steps: 150, edits: true, spacing: 2, insets: EdgeInsets(top: 1, leading: 9, bottom: 2, trailing: 5),
            axis: .horizontal)
  }

  /// SPEC §11: random role changes and pinned-view sets among every other
  /// operation; `role(at:)`, `section(containing:)` and `pinnedRows` are
  /// compared after every step, and H6's landing through every position.
  func testModelCheck_sections() throws {
    _ = try run(seeds: 400 ..< 460, steps: 200, edits: true, sections: true)
  }

  func testModelCheck_sectionsSpacingInsetsHorizontal() throws {
    _ = try run(seeds: 500 ..< 530, steps: 200, edits: true, spacing: 4.5,
            insets: EdgeInsets(top: 7, leading: 11, bottom: 3, trailing: 2), sections: true)
    _ = try run(seeds: 530 ..< 560, steps: 200, edits: true, spacing: 2,
            insets: EdgeInsets(top: 1, leading: 9, bottom: 2, trailing: 5), axis: .horizontal, sections: true)
  }

  /// SPEC §12: interactions, releases under every behaviour, animated
  /// scrolls (ease and spring) and clock steps of 1/120 s to 3 s among every
  /// other operation; phase, last phase change and `visibleIDs` are
  /// compared after every step, with the offsets of every frame.
  func testModelCheck_motion() throws {
    _ = try run(seeds: 600 ..< 660, steps: 250, edits: true, motion: true)
  }

  /// SPEC U1–U3: batches of a few operations (edits, snapshots,
  /// measurements, estimate and role changes, and scrolls and motion calls
  /// that stabilize the batch so far) among every other operation; every
  /// step inside a batch is compared (nothing is stabilized there), the
  /// transitions are compared when a batch ends, and one batch in five is
  /// undone as an error thrown inside it would, then compared.
  func testU1_modelCheck_batchesAndTransitions() throws {
    _ = try run(seeds: 800 ..< 860, steps: 200, edits: true, sections: true, batches: true)
    _ = try run(seeds: 860 ..< 880, steps: 200, edits: true, spacing: 3, insets: EdgeInsets(top: 4, leading: 2, bottom: 6, trailing: 1),
                axis: .horizontal, sections: true, motion: true, orderedIDs: true, batches: true)
  }

  /// SPEC K1–K3: kinds, kinds' estimates and policies and rows' own
  /// estimates, among every other operation (edits, sections, motion,
  /// batches), against the reference model.
  func testK1_modelCheck_kindsAndOwnEstimates() throws {
    _ = try run(seeds: 1000 ..< 1060, steps: 200, edits: true, sections: true, kinds: true)
    _ = try run(seeds: 1060 ..< 1080, steps: 200, edits: true, spacing: 2.5, insets: EdgeInsets(top: 3, leading: 1, bottom: 5, trailing: 2),
                axis: .horizontal, sections: true, motion: true, orderedIDs: true, batches: true, kinds: true)
  }

  func testModelCheck_motionWithSectionsSpacingInsetsHorizontal() throws {
    _ = try run(seeds: 700 ..< 730, steps: 250, edits: true, spacing: 3.5,
            insets: EdgeInsets(top: 5, leading: 2, bottom: 8, trailing: 1), sections: true, motion: true)
    _ = try run(seeds: 730 ..< 760, steps: 250, edits: true, spacing: 2,
            insets: EdgeInsets(top: 1, leading: 9, bottom: 2, trailing: 5), axis: .horizontal, sections: true,
            motion: true)
  }
}
