import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// The extent tree (SPEC §1–2): exact prefix sums, point queries, the
/// estimate folded in, splits and merges, no drift.
final class ExtentTreeTests: CheckedTestCase {
  /// Prefix sums recomputed from scratch, the obvious way.
  func naivePrefixes(_ extents: [Int64?], estimate: Int64, spacing: Int64) -> [Int64] {
    var result: [Int64] = [0]
    for e in extents { result.append(result.last! + (e ?? estimate) + spacing) }
    return result
  }

  func assertPrefixes<ID>(_ tree: ExtentTree<ID>, _ extents: [Int64?], _ context: @autoclosure () -> String,
                          file: StaticString = #filePath, line: UInt = #line) {
    let expected = naivePrefixes(extents, estimate: tree.estimate, spacing: tree.spacing)
    let wrong = (0 ... extents.count).first { tree.pitchPrefix($0) != expected[$0] }
    XCTAssertNil(wrong, "\(context()): pitchPrefix(\(wrong ?? 0)) = \(tree.pitchPrefix(wrong ?? 0)), expected \(expected[wrong ?? 0])",
                 file: file, line: line)
  }

  /// The tree stays at most 256 bytes: a call that is not inlined takes a
  /// copy of it, and a larger tree's copy cost twice as much (measured
  /// when kinds were added). A field added to it has to fit.
  func testTreeFitsIn256Bytes() {
    XCTAssertLessThanOrEqual(MemoryLayout<ExtentTree<Int>>.size, 256)
    XCTAssertLessThanOrEqual(MemoryLayout<ExtentTree<String>>.size, 256)
  }

  /// Lookups by id in ascending-id trees (no hash index: an interpolated
  /// guess, then a binary search) find every row and no absent id, for
  /// dense ids, ids with gaps, clustered ids, and ids near Int.min and
  /// Int.max, in blocks of several sizes and after measurements and appends.
  func testOrderedIDLookupsFindEveryRowWhateverTheSpacing() throws {
    var rng = SeededRNG(seed: 7)
    let shapes: [[Int]] = [
      Array(0 ..< 3_000),
      Array(stride(from: -5_000, to: 40_000, by: 7)),
      (0 ..< 2_000).map { $0 * $0 },
      Array(0 ..< 1_000) + Array(1_000_000 ..< 1_001_000) + [Int.max - 5],
      [Int.min, Int.min + 1] + Array(-100 ..< 100) + [Int.max - 1, Int.max],
    ]
    for ids in shapes {
      for capacity in [4, 8, 64, 512] {
        var tree = try ExtentTree(ids: ids, estimate: 256, blockCapacity: capacity)
        XCTAssertTrue(tree._ordered)
        for _ in 0 ..< 50 { tree.setMeasuredExtent(Int64(Int.random(in: 0 ... 9_000, using: &rng)), at: Int.random(in: 0 ..< ids.count, using: &rng)) }
        for (k, id) in ids.enumerated() { XCTAssertEqual(tree.index(of: id), k, "id \(id), capacity \(capacity)") }
        for id in ids.prefix(200) where id < Int.max {
          if !ids.contains(id + 1) { XCTAssertNil(tree.index(of: id + 1), "absent id \(id + 1)") }
        }
        if ids.last! < Int.max - 10 {
          try tree.insert([ids.last! + 3, ids.last! + 10], at: ids.count)
          XCTAssertTrue(tree._ordered)
          XCTAssertEqual(tree.index(of: ids.last! + 10), ids.count + 1)
          XCTAssertNil(tree.index(of: ids.last! + 5))
        }
        tree._checkInvariants()
      }
    }
  }

  /// Blocks whose rows were never measured keep sharing the pool's
  /// buffers of estimated rows through inserts and removals of estimated
  /// rows (issue #33: editing such a list gave each edited block its own
  /// extents and chunk prefixes, 14.7 bytes a row at 1M rows after 1 % of
  /// the rows moved); a measured row gives its block its own copy, and an
  /// invalidated one (-2, SPEC S12) keeps it. Blocks of 64 rows, checked
  /// against an array after every step.
  func testEditedBlocksOfEstimatedRowsShareTheirBuffers() throws {
    var rng = SeededRNG(seed: 33)
    var ids = Array(0 ..< 40_000)
    var tree = try ExtentTree(ids: ids, estimate: 100, blockCapacity: 64)
    var expected = [Int64?](repeating: nil, count: ids.count)
    func address(_ buffer: ContiguousArray<Int32>) -> UnsafeRawPointer? {
      buffer.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
    var next = 100_000
    var invalidated = 0
    for step in 0 ..< 600 {
      switch Int.random(in: 0 ..< 10, using: &rng) {
      case 0 ..< 4:
        let at = Int.random(in: 0 ... 3_000, using: &rng)
        let added = Array(next ..< next + Int.random(in: 1 ... 3, using: &rng))
        next += added.count
        try tree.insert(added, at: at)
        ids.insert(contentsOf: added, at: at)
        expected.insert(contentsOf: [Int64?](repeating: nil, count: added.count), at: at)
      case 4 ..< 8:
        let at = Int.random(in: 0 ..< 3_000, using: &rng)
        let gone = [at, at + 2]
        tree.remove(sortedIndices: gone)
        for i in gone.reversed() {
          ids.remove(at: i)
          expected.remove(at: i)
        }
      case 8:
        let at = Int.random(in: 0 ..< 3_000, using: &rng)
        let units = Int64(Int.random(in: 0 ... 500, using: &rng))
        tree.setMeasuredExtent(units, at: at)
        expected[at] = units
      default:
        // A measured row invalidated: estimated again, but not pristine (-2).
        let start = Int.random(in: 0 ..< 3_000, using: &rng)
        if let at = expected[start...].firstIndex(where: { $0 != nil }) ?? expected.firstIndex(where: { $0 != nil }) {
          tree._setStored(ExtentTree<Int>._invalidated, at: tree._locate(at))
          expected[at] = nil
          invalidated += 1
        }
      }
      if step % 25 == 0 { tree._checkInvariants() }
      XCTAssertEqual(tree.count, ids.count, "step \(step)")
      for _ in 0 ..< 20 {
        let i = Int.random(in: 0 ..< ids.count, using: &rng)
        XCTAssertEqual(tree.index(of: ids[i]), i, "step \(step)")
      }
    }
    tree._checkInvariants()
    XCTAssertGreaterThan(invalidated, 0, "the run invalidated no measurement")
    // The edits (in the first 3,000 rows: dozens of blocks, each edited many
    // times) left every block of rows never measured in the buffer of its
    // row count: the pool's (its 64 row counts and n/8 rows are not reached
    // here), or, for a block of a built size, the build's.
    let builtSizes: Set<Int> = [48, 40_000 % 48]
    let pool = Set(tree._estimatedPool.map { address($0.extents) })
    var pristine = 0, own = 0
    var buffers = Set<UnsafeRawPointer?>()
    var rowCounts = Set<Int>()
    for position in 0 ..< tree._order.count where !tree._block(at: position).ids.isEmpty {
      let block = tree._block(at: position)
      if block._isPristine {
        pristine += 1
        buffers.insert(address(block.extents))
        rowCounts.insert(block.rowCount)
        XCTAssertTrue(builtSizes.contains(block.rowCount) || pool.contains(address(block.extents)),
                      "a block of \(block.rowCount) estimated rows outside the pool")
      } else {
        own += 1
        XCTAssertFalse(pool.contains(address(block.extents)), "a block with measured or invalidated rows in a pooled buffer")
      }
    }
    XCTAssertGreaterThan(pristine, 500, "blocks of estimated rows: \(pristine)")
    XCTAssertGreaterThan(own, 0, "no block has a measured row")
    XCTAssertGreaterThan(rowCounts.count, 5, "the edits left the blocks \(rowCounts.count) row counts")
    XCTAssertLessThanOrEqual(buffers.count, rowCounts.count + builtSizes.count,
                             "\(pristine) blocks of estimated rows of \(rowCounts.count) sizes hold \(buffers.count) buffers")
    assertPrefixes(tree, expected, "after the edits")
  }

  /// SPEC E4 when the last exception goes: the exceptions table of 30,000
  /// moved rows (mapped, over 256 KB) is not freed within that removal but
  /// kept aside and given back 64 KB an edit by the inserts that follow;
  /// lookups stay exact throughout, and the bytes are accounted until the
  /// last slice is given back.
  func testE4_theLastExceptionsRemovalGivesTheTableBackASliceAnEdit() throws {
    var layout = try LazyStackLayout(ids: Array(0 ..< 200_000), estimatedExtent: 30)
    var rng = SeededRNG(seed: 65)
    var moved = Set<Int>()
    while moved.count < 30_000 {
      let from = Int.random(in: 0 ..< layout.count, using: &rng)
      let to = Int.random(in: 0 ... layout.count, using: &rng)
      moved.insert(layout.id(at: from))
      layout.move(fromOffsets: [from], toOffset: to)
    }
    let table = layout._exceptionHeapBytes
    XCTAssertGreaterThan(table, 1 << 18, "the exceptions' tables are mapped")
    XCTAssertEqual(layout._retiredTableBytes, 0)
    for id in moved.sorted() { try layout.remove(ids: [id]) }
    XCTAssertEqual(layout._exceptionHeapBytes, 0, "no exception is left")
    let retired = layout._retiredTableBytes
    XCTAssertGreaterThan(retired, 1 << 18, "the emptied tables are kept aside, not freed in the last removal")
    let held = layout._heapBytes
    var inserts = 0
    while layout._retiredTableBytes > 0 {
      let before = layout._retiredTableBytes
      try layout.insert([1_000_000 + inserts], at: Int.random(in: 0 ... layout.count, using: &rng))
      inserts += 1
      XCTAssertLessThanOrEqual(before - layout._retiredTableBytes, 1 << 16, "at most 64 KB given back an edit")
      if inserts > 10_000 { return XCTFail("the dropped tables were not given back") }
    }
    XCTAssertGreaterThanOrEqual(inserts, retired >> 16, "a slice an edit")
    XCTAssertGreaterThanOrEqual(held - layout._heapBytes, retired / 2, "the bytes kept aside were counted, and are given back")
    layout._checkInvariants()
    for k in stride(from: 0, to: layout.count, by: 97) { XCTAssertEqual(layout.index(of: layout.id(at: k)), k) }
  }

  /// SPEC E4 where exceptions crowd: an insert among more exceptions than
  /// `_boundsReach` on either side takes its bounds from the blocks' keys
  /// (no probe of every exception around it), which stays sound: random
  /// inserts of in-order and out-of-order ids, moves and removals in
  /// blocks of 64 and 512 rows, checked against an array after every step,
  /// and the crowded path is taken (blocks of 8, as in the other tests,
  /// never reach it).
  func testE4_insertsAmongCrowdedExceptionsStaySound() throws {
    for capacity in [64, 512] {
      var rng = SeededRNG(seed: UInt64(capacity))
      var ids = Array(stride(from: 0, to: 20_000, by: 10))
      var tree = try ExtentTree(ids: ids, estimate: 256, blockCapacity: capacity)
      // A crowd: 100 out-of-order ids in the middle.
      let crowd = (0 ..< 100).map { 1_000_000 - $0 }
      try tree.insert(crowd, at: 1_000)
      ids.insert(contentsOf: crowd, at: 1_000)
      var next = 2_000_000
      for step in 0 ..< 600 {
        switch Int.random(in: 0 ..< 4, using: &rng) {
        case 0:
          // An id that fits its place by value (ordered if the bounds allow), often in the crowd.
          let at = Bool.random(using: &rng) ? Int.random(in: 1_000 ... 1_100, using: &rng) : Int.random(in: 0 ... ids.count, using: &rng)
          let before = ids[..<at].last { $0 < 1_000_000 } ?? -10
          let candidate = before + 1
          guard !ids.contains(candidate), candidate < (ids[at...].first { $0 < 1_000_000 } ?? Int.max) else { continue }
          try tree.insert([candidate], at: at)
          ids.insert(candidate, at: at)
        case 1:
          next += 1
          let at = Int.random(in: 0 ... ids.count, using: &rng)
          try tree.insert([next], at: at)
          ids.insert(next, at: at)
        case 2 where !ids.isEmpty:
          let at = Int.random(in: 0 ..< ids.count, using: &rng)
          tree.remove(sortedIndices: [at])
          ids.remove(at: at)
        default:
          guard ids.count > 1 else { continue }
          let from = Int.random(in: 0 ..< ids.count, using: &rng)
          let id = ids.remove(at: from)
          tree.remove(sortedIndices: [from])
          let to = Int.random(in: 0 ... ids.count, using: &rng)
          try tree.insert([id], at: to)
          ids.insert(id, at: to)
        }
        if step % 50 == 0 || step == 599 {
          tree._checkInvariants()
          for (k, id) in ids.enumerated() where tree.index(of: id) != k {
            XCTFail("capacity \(capacity), step \(step): id \(id) at \(k), found at \(String(describing: tree.index(of: id)))")
            return
          }
          XCTAssertNil(tree.index(of: 1_500_000), "an absent id")
        }
      }
      XCTAssertTrue(tree._ordered, "still found without a hash index")
    }
  }

  /// Ascending ids so close to `Int.max` or `Int.min` that neighbours round
  /// to one `Double` (the interpolated guess's span is 0) are found, in
  /// blocks that hold nothing else.
  func testOrderedIDsNearTheEndsOfIntAreFound() throws {
    for ids in [Array(Int.max - 40 ... Int.max), Array(Int.min ... Int.min + 40), [Int.min, Int.min + 1, Int.max - 1, Int.max]] {
      let tree = try ExtentTree(ids: ids, estimate: 256, blockCapacity: 4)
      XCTAssertTrue(tree._ordered)
      for (k, id) in ids.enumerated() { XCTAssertEqual(tree.index(of: id), k, "id \(id)") }
      tree._checkInvariants()
    }
  }

  func testX3_prefixSumsAndPointQueriesMatchReferenceUnderRandomMeasurements() throws {
    // Block capacities from 4 to 130: blocks of one chunk, and blocks of
    // many chunks (the in-block searches skip chunks by a binary search).
    let capacities = [4, 9, 16, 33, 64, 130]
    for seed in TestScale.seeds(0 ..< 18) {
      var rng = SeededRNG(seed: seed)
      let n = Int.random(in: 0 ... 2000, using: &rng)
      let spacing = CGFloat(Int.random(in: 0 ... 3, using: &rng)) * 2.5
      let insets = EdgeInsets(top: CGFloat(seed % 3) * 7, leading: 0, bottom: 4, trailing: 0)
      var layout = try LazyStackLayout(ids: 0 ..< n, estimatedExtent: 30, spacing: spacing, axis: .vertical,
                                       insets: insets, blockCapacity: capacities[Int(seed) % capacities.count])
      var reference = try LazyStackReference(ids: 0 ..< n, estimatedExtent: 30, spacing: spacing, insets: insets)
      for step in 0 ..< 25 {
        if n > 0 && Int.random(in: 0 ..< 6, using: &rng) > 0 {
          let id = Int.random(in: 0 ..< n, using: &rng)
          let e = Int.random(in: 0 ..< 8, using: &rng) == 0 ? 0 : CGFloat(Int.random(in: 1 ... 20000, using: &rng)) / 64
          XCTAssertEqual(layout.setMeasuredExtent(e, for: id).isApplied, reference.setMeasuredExtent(e, for: id).isApplied)
        } else {
          let e = CGFloat(Int.random(in: 0 ... 400, using: &rng)) / 4
          _ = try layout.setEstimatedExtent(e)
          _ = try reference.setEstimatedExtent(e)
        }
        let frames = reference.frames()
        for i in 0 ..< n where layout.frame(at: i) != frames[i] {
          return XCTFail("seed \(seed) step \(step): frame(at: \(i)) \(layout.frame(at: i)) vs \(frames[i])")
        }
        XCTAssertEqual(layout.contentSize, reference.contentSize, "seed \(seed) step \(step)")
        let end = Int(reference.contentSize.height) + 10
        for _ in 0 ..< 30 {
          let y = CGFloat(Int.random(in: -40 ... end * 4, using: &rng)) / 4
          if layout.index(atOffset: y) != reference.index(atOffset: y) {
            return XCTFail("seed \(seed) step \(step): index(atOffset: \(y)) \(String(describing: layout.index(atOffset: y))) vs \(String(describing: reference.index(atOffset: y)))")
          }
        }
      }
    }
  }

  func testG4_exhaustiveSmallListsEveryMixOfMeasuredEstimatedAndEmptyRows() throws {
    // Each row: estimated, measured 0, or measured 10; every list of up to 6
    // rows, with and without spacing, insets and an empty estimate.
    var configurations = 0
    for n in 0 ... 6 {
      var states = 1
      for _ in 0 ..< n { states *= 3 }
      // Six rows: every mix at the full scale, one in six at the default one.
      for mask in stride(from: 0, to: states, by: n == 6 && TestScale.current == .short ? TestScale.shortDivisor : 1) {
        for (estimate, spacing, top) in [(CGFloat(8), CGFloat(0), CGFloat(0)), (0, 3, 5), (8, 3, 5), (0, 0, 0)] {
          try checkSmall(n: n, mask: mask, estimate: estimate, spacing: spacing, top: top)
          configurations += 1
        }
      }
    }
    // Lists of 7 and 8 rows: a deterministic sample of the 3^n mixes.
    var rng = SeededRNG(seed: 78)
    for n in 7 ... 8 {
      for _ in 0 ..< TestScale.count(150) {
        try checkSmall(n: n, mask: Int.random(in: 0 ..< 6561, using: &rng), estimate: 8, spacing: 2, top: 1)
        configurations += 1
      }
    }
    XCTAssertGreaterThan(configurations, TestScale.current == .full ? 4000 : 1900)
  }

  func checkSmall(n: Int, mask: Int, estimate: CGFloat, spacing: CGFloat, top: CGFloat) throws {
    let insets = EdgeInsets(top: top, leading: 0, bottom: 7, trailing: 0)
    var layout = try LazyStackLayout(ids: 0 ..< n, estimatedExtent: estimate, spacing: spacing, axis: .vertical,
                                     insets: insets, blockCapacity: 4)
    var reference = try LazyStackReference(ids: 0 ..< n, estimatedExtent: estimate, spacing: spacing, insets: insets)
    var m = mask
    for i in 0 ..< n {
      switch m % 3 {
      case 1: layout.setMeasuredExtent(0, for: i); reference.setMeasuredExtent(0, for: i)
      case 2: layout.setMeasuredExtent(10, for: i); reference.setMeasuredExtent(10, for: i)
      default: break
      }
      m /= 3
    }
    let context = "n \(n) mask \(mask) estimate \(estimate) spacing \(spacing) top \(top)"
    let frames = reference.frames()
    for i in 0 ..< n where layout.frame(at: i) != frames[i] {
      return XCTFail("\(context): frame(at: \(i)) \(layout.frame(at: i)) vs \(frames[i])")
    }
    let end = Int(reference.contentSize.height)
    for y in -2 ... end + 2 where layout.index(atOffset: CGFloat(y)) != reference.index(atOffset: CGFloat(y)) {
      return XCTFail("\(context): index(atOffset: \(y)) differs")
    }
    for height in [CGFloat(0), 9, 25] {
      layout.viewportSize = CGSize(width: 100, height: height)
      reference.viewportSize = CGSize(width: 100, height: height)
      for y in stride(from: CGFloat(0), through: CGFloat(end), by: 2) {
        layout.userScroll(to: CGPoint(x: 0, y: y))
        reference.userScroll(to: CGPoint(x: 0, y: y))
        if layout.visibleIndices != reference.visibleIndices || layout.position != reference.position {
          return XCTFail("\(context) viewport \(height) y \(y): \(layout.visibleIndices) \(layout.position) vs \(reference.visibleIndices) \(reference.position)")
        }
      }
    }
  }

  func testG4_zeroExtentTieBreak() throws {
    // Rows: 10, 0, 0, 10, 0 (no spacing). The empty rows 1, 2 sit at 10;
    // row 4 sits at 20, the end.
    var layout = try LazyStackLayout(ids: 0 ..< 5, estimatedExtent: 10)
    for id in [1, 2, 4] { layout.setMeasuredExtent(0, for: id) }
    XCTAssertEqual(layout.index(atOffset: 9.99), 0)
    XCTAssertEqual(layout.index(atOffset: 10), 3, "a boundary belongs to the next non-empty row")
    XCTAssertEqual(layout.index(atOffset: 19), 3)
    XCTAssertEqual(layout.index(atOffset: 20), 3, "past the end: the last non-empty row, not the empty row 4")
    XCTAssertEqual(layout.index(atOffset: -5), 0)
    // Every row empty: the first row starting at or after the offset.
    var empty = try LazyStackLayout(ids: 0 ..< 3, estimatedExtent: 0, spacing: 4)
    XCTAssertEqual(empty.index(atOffset: 0), 0)
    XCTAssertEqual(empty.index(atOffset: 1), 1)
    XCTAssertEqual(empty.index(atOffset: 8), 2)
    XCTAssertEqual(empty.index(atOffset: 100), 2)
    empty.viewportSize = CGSize(width: 10, height: 5)
    XCTAssertEqual(empty.visibleIndices, 0 ..< 2, "empty rows at 0 and 4 lie in [0, 5)")
  }

  func testX4_noDriftAfterMillionsOfUpdates() throws {
    let n = 5000
    var tree = try ExtentTree(ids: 0 ..< n, estimate: 44 * 256, spacing: 3, blockCapacity: 16)
    var extents = [Int64?](repeating: nil, count: n)
    var rng = SeededRNG(seed: 4)
    let updates = 1_000_000
    for k in 0 ..< updates {
      let i = Int(rng.next() % UInt64(n))
      switch rng.next() % 16 {
      case 0:
        tree.setMeasuredExtent(nil, at: i)
        extents[i] = nil
      case 1:
        tree.setEstimate(Int64(rng.next() % 100_000))
      default:
        let e = Int64(rng.next() % UInt64(_FixedPoint.maxExtentUnits / 1024))
        tree.setMeasuredExtent(e, at: i)
        extents[i] = e
      }
      if k % 250_000 == 0 { assertPrefixes(tree, extents, "after \(k) updates") }
    }
    assertPrefixes(tree, extents, "after \(updates) updates")
    tree._checkInvariants()
  }

  func testX4_offsetsExactPast2To31Points() throws {
    // 10M rows of 300 pt: 3e9 pt of content, past 2^31 pt, exact to the unit.
    let n = 10_000_000
    let tree = try ExtentTree(ids: 0 ..< n, estimate: 300 * 256, blockCapacity: 1024)
    XCTAssertEqual(tree.pitchPrefix(n), Int64(n) * 300 * 256)
    XCTAssertEqual(_FixedPoint.points(tree.pitchPrefix(n)), 3_000_000_000)
    let row = 9_999_999
    XCTAssertEqual(_FixedPoint.points(tree.pitchPrefix(row)), CGFloat(row) * 300)
    let past = Int64(1) << 31  // 2^31 pt
    XCTAssertEqual(tree.firstRow(withPitchPrefixAfterAbove: past * 256), Int(past / 300))
    XCTAssertEqual(tree.index(of: row), row)
  }

  func testX2_estimateChangeTouchesNoRow() throws {
    var tree = try ExtentTree(ids: 0 ..< 1000, estimate: 256, blockCapacity: 8)
    tree.setMeasuredExtent(512, at: 10)
    let fenwick = tree._fenwick
    tree.setEstimate(1024)
    XCTAssertEqual(tree._fenwick, fenwick, "the per-block sums do not include the estimate")
    XCTAssertEqual(tree.pitchPrefix(1000), 999 * 1024 + 512)
  }

  func testBlocksSplitAndMergeWithSmallInputs() throws {
    var tree = try ExtentTree(ids: 0 ..< 10, estimate: 256, blockCapacity: 4)
    var model = Array(0 ..< 10)
    var rng = SeededRNG(seed: 9)
    var next = 100
    var splits = 0
    var merges = 0
    for _ in 0 ..< 3000 {
      let blocks = tree.blockCount
      if Bool.random(using: &rng) || model.count < 3 {
        let k = Int.random(in: 1 ... 6, using: &rng)
        let at = Int.random(in: 0 ... model.count, using: &rng)
        let ids = Array(next ..< next + k)
        next += k
        try tree.insert(ids, at: at)
        model.insert(contentsOf: ids, at: at)
        if tree.blockCount > blocks { splits += 1 }
      } else {
        var offsets = Set<Int>()
        for _ in 0 ..< Int.random(in: 1 ... 5, using: &rng) { offsets.insert(Int.random(in: 0 ..< model.count, using: &rng)) }
        let sorted = offsets.sorted()
        tree.remove(sortedIndices: sorted)
        for i in sorted.reversed() { model.remove(at: i) }
        if tree.blockCount < blocks { merges += 1 }
      }
      tree._checkInvariants()
      XCTAssertEqual(tree.ids, model)
    }
    XCTAssertGreaterThan(splits, 10)
    XCTAssertGreaterThan(merges, 10)
    for (i, id) in model.enumerated() { XCTAssertEqual(tree.index(of: id), i) }
  }

  /// Chunk prefixes hold a block's counts in 12 bits: an insert of more
  /// than 4,096 rows into one block makes a block that keeps none until its
  /// split, and every piece gets exact prefixes (X3).
  func testX3_insertOfThousandsOfMeasuredRowsIntoOneBlockKeepsExactPrefixes() throws {
    var tree = try ExtentTree(ids: 0 ..< 1000, estimate: 50 * 256, spacing: 3, blockCapacity: 512)
    var extents = [Int64](repeating: 50 * 256, count: 1000)
    for i in stride(from: 0, to: 1000, by: 7) {
      tree.setMeasuredExtent(Int64(i % 200 + 1) * 256, at: i)
      extents[i] = Int64(i % 200 + 1) * 256
    }
    let added: [Int32] = (0 ..< 9000).map { (k: Int) -> Int32 in
      let points = k % 180 + 20
      return Int32(points * 256 + k % 3)
    }
    try tree.insert(10_000 ..< 19_000, extents: added, at: 600)
    extents.insert(contentsOf: added.map(Int64.init), at: 600)
    tree._checkInvariants()
    var start: Int64 = 0
    for (i, extent) in extents.enumerated() {
      XCTAssertEqual(tree.pitchPrefix(i), start, "row \(i)")
      XCTAssertEqual(tree.firstRow(withPitchPrefixAfterAbove: start), i, "row \(i)")
      start += extent + 3
    }
    // A measurement after the split moves every later row by its change.
    tree.setMeasuredExtent(7 * 256, at: 5000)
    XCTAssertEqual(tree.pitchPrefix(5001) - tree.pitchPrefix(5000), 7 * 256 + 3)
    tree._checkInvariants()
  }

  /// A fresh build's blocks of estimated rows share one extents buffer and
  /// one chunk-prefix buffer; a measurement gives its block its own copy
  /// and changes no other block; `invalidateAll` and a reload that restores
  /// measured ids keep the sharing of blocks they do not touch.
  func testEstimatedBlocksShareTheirBuffersUntilARowIsWritten() throws {
    func buffers<ID>(_ tree: ExtentTree<ID>) -> [UnsafeRawPointer?] {
      // The blocks with rows (a spare, between them, has no buffer of rows).
      tree._order.filter { !tree._blocks[Int($0)].ids.isEmpty }.map { handle in
        tree._blocks[Int(handle)].extents.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
      }
    }
    var rng = SeededRNG(seed: 11)
    let shuffled = Array(0 ..< 4000).shuffled(using: &rng)
    for (name, ids) in [("range", Array(0 ..< 4000)), ("shuffled", shuffled)] {
      var tree = name == "range"
        ? try ExtentTree(ids: 0 ..< 4000, estimate: 40 * 256, spacing: 2, blockCapacity: 64)
        : try ExtentTree(ids: ids, estimate: 40 * 256, spacing: 2, blockCapacity: 64)
      var extents = [Int64?](repeating: nil, count: 4000)
      // 4000 rows in blocks of 48: 83 full blocks share one buffer, the last (16 rows) has its own.
      XCTAssertEqual(Set(buffers(tree)).count, 2, name)
      let fresh = tree._heapBytes
      tree.setMeasuredExtent(77 * 256, at: 1000)
      extents[1000] = 77 * 256
      let after = buffers(tree)
      XCTAssertEqual(Set(after).count, 3, "\(name): only the measured row's block got its own buffer")
      XCTAssertLessThanOrEqual(tree._heapBytes - fresh, 2 * 32 + 48 * 4 + 3 * 8 + 64, name)
      assertPrefixes(tree, extents, name)
      for i in stride(from: 0, to: 4000, by: 97) {
        tree.setMeasuredExtent(Int64(i % 50 + 1) * 256, at: i)
        extents[i] = Int64(i % 50 + 1) * 256
      }
      tree._checkInvariants()
      assertPrefixes(tree, extents, name)
      tree.invalidateAll()
      tree._checkInvariants()
      assertPrefixes(tree, [Int64?](repeating: nil, count: 4000), "\(name) invalidated")
      for i in 0 ..< 4000 {
        XCTAssertEqual(tree._storedExtent(at: tree._locate(i)), extents[i] == nil ? -1 : -2, "\(name) row \(i)")
      }
      // Reloads that restore measured ids, few (one lookup an id) and many
      // (one pass over the rows): the blocks without one still share.
      for rows in [[5, 3990], Array(0 ..< 70) + [3990]] {
        var measured = _IDTable<Int>()
        var restored = [Int64?](repeating: nil, count: 4000)
        for row in rows {
          measured[ids[row]] = Int32(row % 9 + 1) * 256
          restored[row] = Int64(row % 9 + 1) * 256
        }
        try tree._fill(ids: ids, measured: measured)
        tree._checkInvariants()
        assertPrefixes(tree, restored, "\(name) reloaded")
        // The shared buffer, the last block's, and one for each block with a
        // restored row other than the last (rows 0..<70 span two blocks).
        XCTAssertEqual(Set(buffers(tree)).count, rows.count == 2 ? 3 : 4, "\(name) reloaded \(rows.count)")
      }
    }
  }

  /// The visible range's end found from its first row (`rowsStarting(before:from:)`):
  /// in a block without measured rows it is a quotient, checked against
  /// the search for every limit from the row's start to past its block's
  /// end, with and without spacing, at the start and end of blocks; and a
  /// block with a measured row walks.
  func testG5_rowsStartingBeforeALimitFromARowMatchesTheSearch() throws {
    for (estimate, spacing) in [(Int64(44 * 256), Int64(0)), (Int64(44 * 256 + 3), Int64(8 * 256 + 1)),
                                (Int64(1), Int64(0)), (Int64(0), Int64(5)), (Int64(7), Int64(0))] {
      var tree = try ExtentTree(ids: 0 ..< 500, estimate: estimate, spacing: spacing, blockCapacity: 64)
      tree.setMeasuredExtent(13 * 256, at: 250)  // one block walks
      let pitch = estimate + spacing
      for row in [0, 1, 46, 47, 48, 100, 249, 251, 480, 499] {
        guard let span = tree._firstRowSpan(withPitchPrefixAfterAbove: tree.pitchPrefix(row)) else {
          XCTFail("no span for row \(row)")
          continue
        }
        XCTAssertEqual(span.row, row)
        for step in 1 ... 120 {
          // Limits just before, at and after row starts: the off-by-one cases of the quotient.
          for limit in [span.start + Int64(step) * pitch - 1, span.start + Int64(step) * pitch,
                        span.start + Int64(step) * pitch + 1] where limit > span.start {
            XCTAssertEqual(tree.rowsStarting(before: limit, walkingFrom: span), tree.rowsStarting(before: limit),
                           "estimate \(estimate), spacing \(spacing), row \(row), limit \(limit)")
          }
        }
      }
    }
  }

  /// The scroll frame's walk for T3's kept row under a top anchor: the
  /// first measured row after a row, among those starting before a limit,
  /// against a scan of every row; `nil` only past the block or 64 rows.
  func testT3_theFirstMeasuredRowAfterARowMatchesAScan() throws {
    var rng = SeededRNG(seed: 17)
    // Seeded; the last figure is how many of the 400 walks must end inside
    // the block and be compared (they read 348, 391, 252 and 73: sparse
    // measurements send most walks of the last case past the block).
    for (estimate, spacing, density, floor) in [(Int64(44 * 256), Int64(0), 10, 330), (Int64(44 * 256 + 3), Int64(8 * 256 + 1), 3, 370),
                                                (Int64(0), Int64(5), 20, 235), (Int64(7), Int64(0), 200, 65)] {
      var tree = try ExtentTree(ids: 0 ..< 600, estimate: estimate, spacing: spacing, blockCapacity: 128)
      for row in 0 ..< 600 where Int.random(in: 0 ..< density, using: &rng) == 0 {
        tree.setMeasuredExtent(Int64.random(in: 0 ... 3, using: &rng) == 0 ? 0 : Int64.random(in: 1 ... 60_000, using: &rng),
                               at: row)
      }
      var walked = 0, gaveUp = 0, other = 0
      for _ in 0 ..< 400 {
        let row = Int.random(in: 0 ..< 600, using: &rng)
        guard let span = tree._firstRowSpan(withPitchPrefixAfterAbove: tree.pitchPrefix(row) + tree.span(row).extent
                                              + tree.spacing - 1), span.row == row else { other += 1; continue }
        let limit = span.start + Int64.random(in: 0 ... 400_000, using: &rng)
        let expected = (row + 1 ..< 600).first { tree.pitchPrefix($0) >= limit || tree.rowInfo(at: $0).stored >= 0 }
          .flatMap { tree.pitchPrefix($0) < limit ? $0 : nil }
        let found: ExtentTree<Int>._RowInfo?
        switch tree._firstMeasuredRow(after: span, before: limit) {
        case .gaveUp:
          gaveUp += 1
          continue
        case .noMeasuredRow: found = nil
        case .found(let row): found = row
        }
        walked += 1
        XCTAssertEqual(found?.index, expected, "estimate \(estimate), spacing \(spacing), row \(row), limit \(limit)")
        if let found, let expected {
          XCTAssertEqual(found.id, expected)
          XCTAssertEqual(found.start, tree.pitchPrefix(expected))
          XCTAssertEqual(found.extent, tree.span(expected).extent)
        }
      }
      XCTAssertGreaterThanOrEqual(walked, floor, "walks compared with the scan (gave up: \(gaveUp), not the found row: \(other))")
    }
  }

  func testE3_insertingADuplicateLeavesTheTreeUnchanged() throws {
    var tree = try ExtentTree(ids: 0 ..< 10, estimate: 256, blockCapacity: 4)
    XCTAssertThrowsError(try tree.insert([100, 3], at: 2)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("3", index: 1))
    }
    XCTAssertThrowsError(try tree.insert([100, 100], at: 2), LazyStackError.duplicateID("100", index: 1))
    XCTAssertEqual(tree.ids, Array(0 ..< 10))
    tree._checkInvariants()
  }

  func testE3_duplicateInsertIntoAnIndexedTreeRollsTheIndexBack() throws {
    // Array ids: the id index is a hash table, and the insert enters ids as it checks them.
    var tree = try ExtentTree(ids: Array(0 ..< 10), estimate: 256, blockCapacity: 4)
    XCTAssertThrowsError(try tree.insert([100, 101, 3], at: 2)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("3", index: 2))
    }
    XCTAssertThrowsError(try tree.insert([100, 101, 100], at: 9)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("100", index: 2))
    }
    tree._checkInvariants()
    XCTAssertEqual(tree.ids, Array(0 ..< 10))
    for id in 0 ..< 10 { XCTAssertEqual(tree.index(of: id), id) }
    XCTAssertNil(tree.index(of: 100))
    XCTAssertNil(tree.index(of: 101))
    try tree.insert([100, 101], at: 5)
    XCTAssertEqual(tree.index(of: 101), 6)
    tree._checkInvariants()
  }

  func testSplitsAtEitherEndKeepTheTreeWithoutARebuild() throws {
    // Prepending (a chat loading older messages) splits the first block into
    // the leading room of the Fenwick tree; appending splits the last block
    // onto its end. Both keep every sum, position and id exact.
    var tree = try ExtentTree(ids: Array(0 ..< 40), estimate: 256, spacing: 3, blockCapacity: 4)
    var model = Array(0 ..< 40)
    var extents = [Int64?](repeating: nil, count: 40)
    var rng = SeededRNG(seed: 21)
    var next = 1000
    for step in 0 ..< 400 {
      let k = Int.random(in: 1 ... 7, using: &rng)
      let ids = Array(next ..< next + k)
      next += k
      let front = step % 3 != 2
      let at = front ? 0 : model.count
      let stored = ids.map { _ in Bool.random(using: &rng) ? Int32.random(in: 0 ... 5000, using: &rng) : -1 }
      try tree.insert(ids, extents: stored, at: at)
      model.insert(contentsOf: ids, at: at)
      extents.insert(contentsOf: stored.map { $0 < 0 ? nil : Int64($0) }, at: at)
      tree._checkInvariants()
      XCTAssertEqual(tree.ids, model, "step \(step)")
      assertPrefixes(tree, extents, "step \(step)")
    }
    for (i, id) in model.enumerated() { XCTAssertEqual(tree.index(of: id), i) }
  }

  /// A Fenwick tree's leaves replaced in place (a block split or merge in
  /// the middle) leave every node what a build from the new leaves gives,
  /// for vectors of several values a node too (the kind tree).
  func testFenwickLeavesReplacedInPlaceMatchABuild() {
    var rng = SeededRNG(seed: 45)
    // Small trees take the stream; larger ones also write as many leaves
    // as they replace in place (every third step replaces like for like).
    for (width, start) in [(1, 37), (3, 37), (1, 600), (3, 600)] {
      var leaves = (0 ..< start).map { _ in Int64.random(in: -50 ... 50, using: &rng) }
      func built(_ leaves: [Int64]) -> ContiguousArray<Int64> {
        var nodes = ContiguousArray<Int64>(repeating: 0, count: leaves.count + width)
        for (k, v) in leaves.enumerated() { nodes[width + k] = v }
        let size = leaves.count / width
        for i in 1 ... max(1, size) where i <= size {
          let parent = i + (i & -i)
          if parent <= size { for e in 0 ..< width { nodes[parent * width + e] += nodes[i * width + e] } }
        }
        return nodes
      }
      leaves = Array(leaves.prefix(leaves.count / width * width))
      var nodes = built(leaves)
      for step in 0 ..< 300 {
        let size = leaves.count / width
        let first = Int.random(in: 1 ... size + 1, using: &rng)
        let removing = Int.random(in: 0 ... min(3, size + 1 - first), using: &rng)
        let replacing = step % 3 == 0 ? removing : Int.random(in: 0 ... 4, using: &rng)
        let inserting = (0 ..< replacing * width).map { _ in Int64.random(in: -50 ... 50, using: &rng) }
        _FenwickTree<Int64>._replaceLeaves(&nodes, stride: width, first ..< first + removing, with: inserting)
        leaves.replaceSubrange((first - 1) * width ..< (first - 1 + removing) * width, with: inserting)
        XCTAssertEqual(Array(nodes), Array(built(leaves)), "width \(width), step \(step): leaves \(first) ..< \(first + removing)")
      }
    }
  }

  /// Splits and merges in the middle take or leave spares near them
  /// (rewriting a few leaves), or else stream the trees' tails (a split
  /// putting new spares after its pieces), instead of rebuilding the trees from the blocks: with
  /// headers, footers and kinds on the rows (so the role and kind trees
  /// are changed too), at the front once its leading room is gone, and for
  /// blocks emptied or merged by removals, every tree stays what a rebuild
  /// gives, and the spares are where they may be.
  func testE4_splitsAndMergesInTheMiddleKeepEveryBlockTreeWithRolesAndKinds() throws {
    var tree = try ExtentTree(ids: Array(0 ..< 40), estimate: 256, spacing: 3, blockCapacity: 4)
    var model = Array(0 ..< 40)
    var extents = [Int64?](repeating: nil, count: 40)
    var rng = SeededRNG(seed: 46)
    var next = 1000
    let roles: [UInt8] = [ExtentTree<Int>._plainRole, ExtentTree<Int>._headerRole, ExtentTree<Int>._footerRole]
    var splitsIntoSpares = 0
    for step in 0 ..< TestScale.count(600, minimum: 200) {
      let k = Int.random(in: 1 ... 7, using: &rng)
      let ids = Array(next ..< next + k)
      next += k
      let at = [0, model.count, Int.random(in: 0 ... model.count, using: &rng)][step % 3]
      let stored = ids.map { _ in Bool.random(using: &rng) ? Int32.random(in: 0 ... 5000, using: &rng) : -1 }
      let extras = ids.map { _ in ExtentTree<Int>._extra(kind: UInt8.random(in: 0 ... 3, using: &rng), own: nil) }
      let (positions, spares) = (tree._order.count, tree._spareCount)
      try tree.insert(ids, extents: stored, roles: ids.map { _ in roles.randomElement(using: &rng)! }, extras: extras, at: at)
      if tree._order.count == positions && tree._spareCount < spares {
        splitsIntoSpares += 1
      }
      model.insert(contentsOf: ids, at: at)
      extents.insert(contentsOf: stored.map { $0 < 0 ? nil : Int64($0) }, at: at)
      tree._checkInvariants()
      XCTAssertEqual(tree.ids, model, "step \(step)")
    }
    XCTAssertGreaterThan(tree.blockCount, 300)
    XCTAssertGreaterThan(splitsIntoSpares, 50, "splits in the middle take spares")
    for (i, id) in model.enumerated() { XCTAssertEqual(tree.index(of: id), i) }
    // Removals one row at a time (a block that empties or falls under a
    // quarter full goes or merges where it is), and now and then a batch
    // over several blocks (the pass over every block).
    var merges = 0
    var sparesLeft = 0
    for step in 0 ..< 800 where !model.isEmpty {
      let (blocks, spares) = (tree.blockCount, tree._spareCount)
      let indices = step % 50 == 49
        ? Array(Set((0 ..< 20).map { _ in Int.random(in: 0 ..< model.count, using: &rng) })).sorted()
        : [Int.random(in: 0 ..< model.count, using: &rng)]
      tree.remove(sortedIndices: indices)
      for i in indices.reversed() {
        model.remove(at: i)
        extents.remove(at: i)
      }
      if tree.blockCount < blocks { merges += 1 }
      if tree._spareCount > spares { sparesLeft += 1 }
      tree._checkInvariants()
      XCTAssertEqual(tree.ids, model, "removal step \(step)")
    }
    XCTAssertGreaterThan(merges, 50)
    XCTAssertGreaterThan(sparesLeft, 10, "merges in the middle leave spares")
    assertPrefixes(tree, extents, "after the removals")
    for (i, id) in model.enumerated() { XCTAssertEqual(tree.index(of: id), i) }
  }

  /// E4: a split in the middle of a large tree takes the nearest spare,
  /// and a merge there leaves one: the number of positions stays, no block
  /// farther than `_spareReach` positions moves, and the trees, the ids
  /// and the offsets stay what they were, for ascending ids (keys) and
  /// shuffled ids (the hash index).
  /// SPEC E4: removals at one place empty block after block there; where
  /// the spares near it crowd, a merge leaves its spare at the nearest
  /// place within `_spareHomeReach` where one may be (the blocks between
  /// move over by one) instead of splicing the later blocks down. Only
  /// once the spares within that reach are a quarter of its positions
  /// does a merge splice (the number of positions falls): after hundreds
  /// of merges at one place (2,000 rows of blocks of 8 here; at blocks of
  /// 512, over 50,000 rows). Ascending ids and shuffled ones.
  func testE4_removalsAtOnePlaceMoveTheirSparesInsteadOfSplicing() throws {
    for shuffled in [false, true] {
      var rng = SeededRNG(seed: 41)
      var ids = Array(0 ..< 16_000)
      if shuffled { ids.shuffle(using: &rng) }
      var tree = try ExtentTree(ids: ids, estimate: 100, blockCapacity: 8)
      var model = ids
      let positions = tree.blockCount + tree._spareCount
      XCTAssertGreaterThan(tree._spareCount, 100, "shuffled \(shuffled): spares spread at the build")
      var merges = 0
      var splices = 0
      var firstSplice: Int?
      for step in 0 ..< 3_000 {
        let (blocks, before) = (tree.blockCount, tree.blockCount + tree._spareCount)
        tree.remove(sortedIndices: [8_000])
        model.remove(at: 8_000)
        if tree.blockCount < blocks { merges += 1 }
        if tree.blockCount + tree._spareCount < before {
          splices += 1
          if firstSplice == nil { firstSplice = merges }
        }
        if step % 250 == 0 {
          tree._checkInvariants()
          XCTAssertEqual(tree.ids, model, "shuffled \(shuffled), step \(step)")
        }
      }
      XCTAssertGreaterThan(merges, 300, "shuffled \(shuffled): blocks emptied or merged at that place")
      // (Here 499 merges; the first splice after 271 of them, when the
      // spares within reach are a quarter of its positions.)
      XCTAssertGreaterThan(firstSplice ?? Int.max, 200, "shuffled \(shuffled): the first splice only after 200 merges at one place")
      XCTAssertGreaterThan(splices, 0, "shuffled \(shuffled): a saturated reach splices, as documented")
      XCTAssertEqual(tree.blockCount + tree._spareCount, positions - splices, "shuffled \(shuffled): one position a splice")
      tree._checkInvariants()
      XCTAssertEqual(tree.ids, model, "shuffled \(shuffled)")
      for (i, id) in model.enumerated() where i % 97 == 0 { XCTAssertEqual(tree.index(of: id), i) }
    }
  }

  func testE4_aSplitOrMergeInTheMiddleMovesNoBlockBeyondTheNearestSpare() throws {
    var rng = SeededRNG(seed: 33)
    for shuffled in [false, true] {
      let ids = shuffled ? Array(0 ..< 4000).shuffled(using: &rng) : Array(0 ..< 4000)
      var tree = try ExtentTree(ids: ids, estimate: 256, spacing: 2, blockCapacity: 8)
      var model = ids
      XCTAssertEqual(tree._spareCount, (tree.blockCount - 1) / ExtentTree<Int>._spareGap, "spread at the build")
      let middle = tree._order.count / 2
      let before = Array(tree._order)
      let row = tree._fenwickPrefix(middle).count + 1  // inside the block at `middle`
      let blocks = tree.blockCount
      var next = 100_000
      while tree.blockCount == blocks {
        try tree.insert([next], at: row)
        model.insert(next, at: row)
        next += 1
      }
      tree._checkInvariants()
      XCTAssertEqual(tree._order.count, before.count, "shuffled \(shuffled): the split took a spare")
      let moved = (0 ..< before.count).filter { tree._order[$0] != before[$0] }
      XCTAssertFalse(moved.isEmpty)
      XCTAssertTrue(moved.allSatisfy { abs($0 - middle) <= ExtentTree<Int>._spareReach },
                    "shuffled \(shuffled): blocks moved at \(moved)")
      XCTAssertEqual(tree.ids, model)
      for (i, id) in model.enumerated() where i % 7 == 0 || abs(i - row) < 40 { XCTAssertEqual(tree.index(of: id), i) }
      assertPrefixes(tree, [Int64?](repeating: nil, count: model.count), "shuffled \(shuffled) split")
      // Removals there until a block merges or empties: it stays as a spare.
      let spares = tree._spareCount
      let kept = Array(tree._order)
      while tree.blockCount == blocks + 1 {
        tree.remove(sortedIndices: [row])
        model.remove(at: row)
      }
      tree._checkInvariants()
      XCTAssertEqual(tree._order.count, kept.count, "shuffled \(shuffled): the merge left a spare")
      XCTAssertEqual(tree._spareCount, spares + 1)
      XCTAssertEqual(tree.ids, model)
      for (i, id) in model.enumerated() where i % 7 == 0 || abs(i - row) < 40 { XCTAssertEqual(tree.index(of: id), i) }
      assertPrefixes(tree, [Int64?](repeating: nil, count: model.count), "shuffled \(shuffled) merge")
    }
  }

  /// E4: an id inserted in order at the first row of a block after a spare
  /// stays ordered: the bound below it is the last id of the block before
  /// the spare (a spare has none), so no exception is filed.
  func testE4_inOrderInsertsAfterASpareMakeNoException() throws {
    var tree = try ExtentTree(ids: Array(stride(from: 0, to: 8000, by: 2)), estimate: 256, blockCapacity: 8)
    XCTAssertGreaterThan(tree._spareCount, 0)
    var inserted = 0
    var p = 1
    while p < tree._order.count - 1 {
      if tree._isSpare(p - 1) && !tree._isSpare(p) {
        let row = tree._fenwickPrefix(p).count  // the first row of block p
        let x = tree.id(at: row) - 1
        if x > tree.id(at: row - 1) {
          try tree.insert([x], at: row)
          inserted += 1
        }
      }
      p += 1
    }
    tree._checkInvariants()
    XCTAssertGreaterThan(inserted, 10)
    XCTAssertNil(tree._exceptions, "in-order inserts after spares made exceptions")
    for i in stride(from: 0, to: tree.count, by: 3) { XCTAssertEqual(tree.index(of: tree.id(at: i)), i) }
  }

  /// E4: the hash index of unordered ids grows without a rebuild inside
  /// one edit: from 5/8 full, a larger index is filled a few blocks an edit
  /// while both answer (inserts, removals, moves and the splits and merges
  /// they cause reach rows on both sides of the migration's cursor), and
  /// replaces the old one when it files every row.
  func testE4_hashIndexGrowsAFewBlocksAnEditUnderRandomEdits() throws {
    for seed in TestScale.seeds(0 ..< 4) {
      var rng = SeededRNG(seed: seed)
      var model = Array(0 ..< 300).shuffled(using: &rng)
      var tree = try ExtentTree(ids: model, estimate: 256, blockCapacity: 16)
      XCTAssertFalse(tree._ordered)
      var next = 1_000
      var editsWhileMigrating = 0
      var replacements = 0
      var wasMigrating = false
      for step in 0 ..< 1_000 {
        let roll = Int.random(in: 0 ..< 10, using: &rng)
        if roll < 6 || model.count < 20 {
          let k = Int.random(in: 0 ..< 8, using: &rng) == 0 ? Int.random(in: 2 ... 40, using: &rng) : 1
          let ids = (0 ..< k).map { next + $0 }
          next += k
          let at = Int.random(in: 0 ... model.count, using: &rng)
          try tree.insert(ids, at: at)
          model.insert(contentsOf: ids, at: at)
        } else if roll < 8 {
          let i = Int.random(in: 0 ..< model.count, using: &rng)
          tree.remove(sortedIndices: [i])
          model.remove(at: i)
        } else {
          let from = Int.random(in: 0 ..< model.count, using: &rng)
          let to = Int.random(in: 0 ..< model.count, using: &rng)
          let id = model[from]
          tree.remove(sortedIndices: [from])
          try tree.insert([id], at: to, knownNew: true)
          model.remove(at: from)
          model.insert(id, at: to)
        }
        let migrating = tree._nextIndex != nil
        if migrating { editsWhileMigrating += 1 }
        if wasMigrating && !migrating { replacements += 1 }
        wasMigrating = migrating
        tree._checkInvariants()
        for _ in 0 ..< 20 {
          let i = Int.random(in: 0 ..< model.count, using: &rng)
          guard tree.index(of: model[i]) == i else {
            return XCTFail("seed \(seed) step \(step): index(of: \(model[i])) is \(String(describing: tree.index(of: model[i]))), not \(i)")
          }
        }
        XCTAssertNil(tree.index(of: next + 7), "seed \(seed) step \(step)")
      }
      for (i, id) in model.enumerated() { XCTAssertEqual(tree.index(of: id), i, "seed \(seed)") }
      // The index was replaced more than once, each time over many edits.
      XCTAssertGreaterThanOrEqual(replacements, 2, "seed \(seed)")
      XCTAssertGreaterThan(editsWhileMigrating, replacements * 4, "seed \(seed)")
    }
  }

  func testAscendingIntIDsNeedNoHashIndexEvenAfterAnEditBreaksTheOrder() throws {
    // Ascending (not consecutive) integer ids: unique by construction.
    let base = Array(stride(from: 5, to: 5 + 3 * 60, by: 3))
    var tree = try ExtentTree(ids: base, estimate: 256, blockCapacity: 4)
    XCTAssertTrue(tree._ordered)
    XCTAssertTrue(tree._index.isEmpty)
    tree._checkInvariants()
    for (i, id) in base.enumerated() { XCTAssertEqual(tree.index(of: id), i) }
    for missing in [-1, 4, 6, 7, 500, Int.min, Int.max] { XCTAssertNil(tree.index(of: missing)) }
    // Appending larger ids, one or many at a time, keeps the order (and splits the last block).
    var model = base
    for k in 0 ..< 40 {
      let ids = (0 ..< (k % 5 + 1)).map { model.last! + 2 + $0 * 7 }
      try tree.insert(ids, at: tree.count)
      model += ids
      tree.setMeasuredExtent(Int64(k), at: (k * 7) % model.count)
      XCTAssertTrue(tree._ordered)
      XCTAssertNil(tree._exceptions)
      tree._checkInvariants()
    }
    XCTAssertEqual(tree.ids, model)
    for (i, id) in model.enumerated() { XCTAssertEqual(tree.index(of: id), i) }
    // A duplicate is still refused while ordered.
    XCTAssertThrowsError(try tree.insert([model.last! + 1, model[3]], at: tree.count)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID(String(model[3]), index: 1))
    }
    XCTAssertTrue(tree._ordered)
    // An id that fits between its neighbours stays ordered.
    try tree.insert([model[10] + 1], at: 11)
    model.insert(model[10] + 1, at: 11)
    XCTAssertNil(tree._exceptions)
    // An insert that breaks the order files that id alone as an exception: no index is built.
    try tree.insert([1], at: 10)
    model.insert(1, at: 10)
    XCTAssertTrue(tree._ordered)
    XCTAssertTrue(tree._index.isEmpty)
    XCTAssertEqual(tree._exceptions?.count, 1)
    tree._checkInvariants()
    for (i, id) in model.enumerated() { XCTAssertEqual(tree.index(of: id), i) }
    // A duplicate of an exception, or of an ordered id, is refused.
    XCTAssertThrowsError(try tree.insert([1], at: 0), LazyStackError.duplicateID("1", index: 0))
    XCTAssertThrowsError(try tree.insert([model[40]], at: 3), LazyStackError.duplicateID("\(model[40])", index: 0))
    // Removing the exception leaves no exception behind.
    tree.remove(sortedIndices: [10])
    model.remove(at: 10)
    XCTAssertNil(tree._exceptions)
    tree._checkInvariants()
    // A snapshot that ascends again has no exceptions; one that mostly does has few; a shuffled one is indexed.
    let shuffled = try ExtentTree(ids: model.shuffled(), estimate: 256, blockCapacity: 4)
    XCTAssertFalse(shuffled._ordered)
    let sorted = try ExtentTree(ids: model.sorted(), estimate: 256, blockCapacity: 4)
    XCTAssertTrue(sorted._ordered)
    XCTAssertNil(sorted._exceptions)
    var mostly = model.sorted()
    mostly.swapAt(3, 70)
    let nearly = try ExtentTree(ids: mostly, estimate: 256, blockCapacity: 4)
    XCTAssertTrue(nearly._ordered)
    XCTAssertEqual(nearly._exceptions?.count, 2)
    nearly._checkInvariants()
    for (i, id) in mostly.enumerated() { XCTAssertEqual(nearly.index(of: id), i) }
    XCTAssertThrowsError(try ExtentTree(ids: [1, 2, 3, 3], estimate: 256)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("3", index: 3))
    }
    // A repeat among mostly ascending ids, of an exception or of an ordered id, names its first repeat.
    XCTAssertThrowsError(try ExtentTree(ids: Array(0 ..< 40) + [7] + Array(40 ..< 80), estimate: 256)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("7", index: 40))
    }
    XCTAssertThrowsError(try ExtentTree(ids: [500] + Array(0 ..< 80) + [500], estimate: 256)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("500", index: 81))
    }
  }

  /// Ordered ids with exceptions (SPEC E4: no edit builds an index over all
  /// rows) against an array: random inserts that keep or break the order,
  /// removals, moves and snapshots, in small blocks; every id's index, some
  /// absent ids and the invariants after every step, many seeds.
  func testE4_orderedIDsWithExceptionsMatchAnArrayUnderRandomEdits() throws {
    var steps = 0
    var stepsWithExceptions = 0
    var stepsWithout = 0
    for seed in UInt64(0) ..< 40 {
      var rng = SeededRNG(seed: seed)
      let capacity = [4, 5, 8, 16][Int(seed % 4)]
      var model = Array(stride(from: 0, to: 100 * Int.random(in: 0 ... 6, using: &rng), by: 100))
      var tree = try ExtentTree(ids: model, estimate: 256, blockCapacity: capacity)
      var used = Set(model)
      func fresh(near index: Int) -> Int {
        // Often an id that fits between its neighbours, else anything new (edges included).
        for _ in 0 ..< 8 {
          let x: Int
          switch Int.random(in: 0 ..< 10, using: &rng) {
          case 0 ..< 5:
            let low = index > 0 ? model[index - 1] : -1_000
            let high = index < model.count ? model[index] : (model.last ?? 0) &+ 1_000
            let (gap, overflow) = high.subtractingReportingOverflow(low)
            x = !overflow && gap > 1 ? Int.random(in: low + 1 ..< high, using: &rng) : Int.random(in: -2_000 ... 2_000_000, using: &rng)
          case 5: x = [Int.max, Int.min, Int.max - 1, Int.min + 1].randomElement(using: &rng)!
          default: x = Int.random(in: -2_000 ... 2_000_000, using: &rng)
          }
          if !used.contains(x) { return x }
        }
        var x = 3_000_000
        while used.contains(x) { x += 1 }
        return x
      }
      for step in 0 ..< 150 {
        let context = "seed \(seed) step \(step)"
        switch Int.random(in: 0 ..< 10, using: &rng) {
        case 0 ..< 4:
          let index = Int.random(in: 0 ... model.count, using: &rng)
          var ids: [Int] = []
          for _ in 0 ..< Int.random(in: 1 ... 6, using: &rng) {
            let x = fresh(near: index)
            ids.append(x)
            used.insert(x)
          }
          try tree.insert(ids, at: index)
          model.insert(contentsOf: ids, at: index)
        case 4 ..< 6 where !model.isEmpty:
          let picks = Set((0 ..< Int.random(in: 1 ... 5, using: &rng)).map { _ in Int.random(in: 0 ..< model.count, using: &rng) })
          let sorted = picks.sorted()
          tree.remove(sortedIndices: sorted)
          for i in sorted.reversed() { used.remove(model.remove(at: i)) }
        case 6 ..< 8 where !model.isEmpty:
          // A move: out, then back in elsewhere.
          let from = Int.random(in: 0 ..< model.count, using: &rng)
          let id = model.remove(at: from)
          tree.remove(sortedIndices: [from])
          let to = Int.random(in: 0 ... model.count, using: &rng)
          try tree.insert([id], at: to)
          model.insert(id, at: to)
        case 8:
          // A duplicate is refused and changes nothing.
          if let existing = model.randomElement(using: &rng) {
            XCTAssertThrowsError(try tree.insert([fresh(near: 0), existing], at: Int.random(in: 0 ... model.count, using: &rng)),
                                 LazyStackError.duplicateID("\(existing)", index: 1), context)
          }
        default:
          if Int.random(in: 0 ..< 2, using: &rng) == 0 {
            // A snapshot: sorted, or with a few rows displaced.
            var ids = model.sorted()
            for _ in 0 ..< max(0, Int.random(in: -2 ... 3, using: &rng)) where ids.count > 1 {
              ids.swapAt(Int.random(in: 0 ..< ids.count, using: &rng), Int.random(in: 0 ..< ids.count, using: &rng))
            }
            tree = try ExtentTree(ids: ids, estimate: 256, blockCapacity: capacity)
            model = ids
          }
        }
        tree._checkInvariants()
        XCTAssertEqual(tree.ids, model, context)
        for (i, id) in model.enumerated() where tree.index(of: id) != i {
          XCTFail("\(context): index(of: \(id)) is \(String(describing: tree.index(of: id))), not \(i)")
        }
        for _ in 0 ..< 5 {
          let x = Int.random(in: -2_000 ... 2_000_000, using: &rng)
          if !used.contains(x) && tree.contains(x) { XCTFail("\(context): absent id \(x) found") }
        }
        steps += 1
        if tree._exceptions != nil { stepsWithExceptions += 1 }
        if tree._ordered && tree._exceptions == nil && !model.isEmpty { stepsWithout += 1 }
      }
    }
    XCTAssertEqual(steps, 40 * 150)
    // Both kinds of tree were driven: with exceptions, and ordered with none.
    XCTAssertGreaterThan(stepsWithExceptions, steps / 4)
    XCTAssertGreaterThan(stepsWithout, steps / 50)
  }

  func testDuplicateIDsInInitAreATypedError() throws {
    XCTAssertThrowsError(try ExtentTree(ids: [1, 2, 3, 2], estimate: 1)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("2", index: 3))
    }
    // Ids that ascend through their first blocks and then repeat one: the
    // order is found broken after the blocks are built, the index finds
    // the repeat, and a reload with them leaves the tree empty.
    let ids = Array(0 ..< 100) + [7] + Array(200 ..< 300)
    XCTAssertThrowsError(try ExtentTree(ids: ids, estimate: 1, blockCapacity: 8)) { error in
      XCTAssertEqual(error as? LazyStackError, .duplicateID("7", index: 100))
    }
    var tree = try ExtentTree(ids: 0 ..< 50, estimate: 1, blockCapacity: 8)
    XCTAssertThrowsError(try tree._fill(ids: ids, measured: nil), LazyStackError.duplicateID("7", index: 100))
    tree._checkInvariants()
    XCTAssertEqual(tree.count, 0)
    // Out of order after the first block, without a repeat: indexed lookups.
    let late = Array(0 ..< 100) + [-5] + Array(200 ..< 300)
    tree = try ExtentTree(ids: late, estimate: 1, blockCapacity: 8)
    tree._checkInvariants()
    for (row, id) in late.enumerated() { XCTAssertEqual(tree.index(of: id), row) }
  }

  /// `_estimatedRows(ofKind:in:limit:)` (what a kind's estimate change
  /// moves in lane sections, SPEC K1, L8) against a pass over the rows:
  /// random kinds, own estimates, measurements and invalidations over
  /// blocks of 4 to 64 rows, random ranges and limits.
  func testEstimatedRowsOfAKindAgainstAPassOverRows() throws {
    for seed in UInt64(1) ... 30 {
      var rng = SeededRNG(seed: seed ^ 0xe57)
      let n = Int.random(in: 1 ... 600, using: &rng)
      var tree = try ExtentTree(ids: Array(0 ..< n), estimate: 256, blockCapacity: [4, 8, 64][Int(seed % 3)])
      for i in 0 ..< n {
        switch Int.random(in: 0 ..< 8, using: &rng) {
        case 0 ... 2: tree._setExtra(ExtentTree<Int>._extra(kind: UInt8(Int.random(in: 1 ... 3, using: &rng)), own: nil), at: tree._locate(i))
        case 3: tree._setExtra(ExtentTree<Int>._extra(kind: 2, own: 300), at: tree._locate(i))
        default: break
        }
        switch Int.random(in: 0 ..< 6, using: &rng) {
        case 0: tree._setStored(Int32(Int.random(in: 0 ... 9_000, using: &rng)), at: tree._locate(i))
        case 1: tree._setStored(ExtentTree<Int>._invalidated, at: tree._locate(i))
        default: break
        }
      }
      tree._checkInvariants()
      for _ in 0 ..< 40 {
        let kind = UInt8(Int.random(in: 0 ... 4, using: &rng))
        let a = Int.random(in: 0 ... n, using: &rng)
        let b = Int.random(in: a ... n, using: &rng)
        let expected = kind == 0 ? [] : (a ..< b).filter { i in
          let l = tree._locate(i)
          let extra = tree._extra(at: l)
          return tree._storedExtent(at: l) < 0 && extra & 0x100 == 0 && ExtentTree<Int>._kind(ofExtra: extra) == kind
        }
        let limit = Int.random(in: 0 ..< 3, using: &rng) == 0 ? Int.random(in: 0 ... 10, using: &rng) : n
        let found = tree._estimatedRows(ofKind: kind, in: a ..< b, limit: limit)
        XCTAssertEqual(found, expected.count > limit ? nil : expected, "seed \(seed) kind \(kind) rows \(a)..<\(b) limit \(limit)")
      }
    }
  }
}
