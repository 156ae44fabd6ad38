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
           axis: Axis = .vertical, sections: Bool = false, motion: Bool = false,
           file: StaticString = #filePath, line: UInt = #line) throws {
    var compared = 0
    defer { XCTAssertEqual(compared, seeds.count * steps, "every step of every seed compared", file: file, line: line) }
    for seed in seeds {
      var generator = OperationGenerator(seed: seed, includeEdits: edits, maxRows: 120, includeSections: sections,
                                         includeMotion: motion)
      let initial = Array(0 ..< Int(seed % 60))
      var pair = try ModelPair(ids: initial, estimate: CGFloat(seed % 7) * 9 + 1, spacing: spacing, axis: axis,
                               insets: insets, blockCapacity: 4 + Int(seed % 5))
      for step in 0 ..< steps {
        let op = generator.next(ids: pair.reference.ids,
                                contentExtent: axis == .vertical ? pair.reference.contentSize.height
                                  : pair.reference.contentSize.width)
        if let problem = pair.step(op) {
          XCTFail("seed \(seed) step \(step) \(op): \(problem)", file: file, line: line)
          return
        }
        let probes = (0 ..< 4).map { _ in CGFloat(Int.random(in: -50 ... 5000, using: &generator.rng)) / 2 }
        if let problem = pair.difference(probes: probes) {
          XCTFail("seed \(seed) step \(step) \(op): \(problem)", file: file, line: line)
          return
        }
        compared += 1
      }
    }
  }

  func testModelCheck_scrollMeasureSnapshot() throws {
    try run(seeds: 0 ..< 60, steps: 150, edits: false)
  }

  func testModelCheck_withEdits() throws {
    try run(seeds: 100 ..< 160, steps: 150, edits: true)
  }

  func testModelCheck_spacingAndInsets() throws {
    try run(seeds: 200 ..< 240, steps: 150, edits: true, spacing: 6.5,
            insets: EdgeInsets(top: 12, leading: 3, bottom: 20.25, trailing: 4))
  }

  func testModelCheck_horizontal() throws {
    try run(seeds: 300 ..< 330, steps: 150, edits: true, spacing: 2, insets: EdgeInsets(top: 1, leading: 9, bottom: 2, trailing: 5),
            axis: .horizontal)
  }

  /// SPEC §11: random role changes and pinned-view sets among every other
  /// operation; `role(at:)`, `section(containing:)` and `pinnedRows` are
  /// compared after every step, and H6's landing through every position.
  func testModelCheck_sections() throws {
    try run(seeds: 400 ..< 460, steps: 200, edits: true, sections: true)
  }

  func testModelCheck_sectionsSpacingInsetsHorizontal() throws {
    try run(seeds: 500 ..< 530, steps: 200, edits: true, spacing: 4.5,
            insets: EdgeInsets(top: 7, leading: 11, bottom: 3, trailing: 2), sections: true)
    try run(seeds: 530 ..< 560, steps: 200, edits: true, spacing: 2,
            insets: EdgeInsets(top: 1, leading: 9, bottom: 2, trailing: 5), axis: .horizontal, sections: true)
  }

  /// SPEC §12: interactions, releases under every behaviour, animated
  /// scrolls (ease and spring) and clock steps of 1/120 s to 3 s among every
  /// other operation; phase, last phase change and `visibleIDs` are
  /// compared after every step, with the offsets of every frame.
  func testModelCheck_motion() throws {
    try run(seeds: 600 ..< 660, steps: 250, edits: true, motion: true)
  }

  func testModelCheck_motionWithSectionsSpacingInsetsHorizontal() throws {
    try run(seeds: 700 ..< 730, steps: 250, edits: true, spacing: 3.5,
            insets: EdgeInsets(top: 5, leading: 2, bottom: 8, trailing: 1), sections: true, motion: true)
    try run(seeds: 730 ..< 760, steps: 250, edits: true, spacing: 2,
            insets: EdgeInsets(top: 1, leading: 9, bottom: 2, trailing: 5), axis: .horizontal, sections: true,
            motion: true)
  }
}
