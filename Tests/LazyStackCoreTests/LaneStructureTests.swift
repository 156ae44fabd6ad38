import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackTestSupport

/// The lane structures of SPEC §13 on their own (`_GridLines`,
/// `_MasonryLanes`), against the rules computed from scratch over plain
/// arrays: random edits with seeded generators, tiny blocks (so splits and
/// merges happen within a few edits), every query compared after every
/// step, the seed and step printed on failure.
final class LaneStructureTests: CheckedTestCase {
  // MARK: The rules, from scratch

  /// SPEC L3 over plain arrays: each line's longest row, and each line's
  /// start (pitch: the lines before it, each its longest row plus spacing).
  struct GridModel {
    var extents: [Int64]
    let k: Int
    let spacing: Int64

    var lineCount: Int { (extents.count + k - 1) / k }
    func lineExtent(_ line: Int) -> Int64 { extents[line * k ..< min(extents.count, line * k + k)].max()! }
    /// Every line's start, and the body's pitch last.
    var lineStarts: [Int64] {
      var result: [Int64] = [0]
      for l in 0 ..< lineCount { result.append(result.last! + lineExtent(l) + spacing) }
      return result
    }
    func lineStart(_ line: Int) -> Int64 { lineStarts[line] }
    var pitch: Int64 { lineStarts.last! }
    /// The first line whose start plus pitch is after y, else the last.
    func line(atPitch y: Int64) -> Int? {
      guard !extents.isEmpty else { return nil }
      let starts = lineStarts
      return (0 ..< lineCount).first { starts[$0 + 1] > y } ?? lineCount - 1
    }
    /// Every row's start at `alignment`.
    func starts(alignment: CGFloat) -> [Int64] {
      let lines = lineStarts
      return extents.indices.map { i in
        lines[i / k] + _FixedPoint.scale(lineExtent(i / k) - extents[i], by: alignment)
      }
    }
  }

  /// SPEC L4 over plain arrays: each row after the rows before it in its
  /// lane; new rows to the lane that ends first there.
  struct MasonryModel {
    var extents: [Int64]
    var lanes: [Int]
    var k: Int
    var spacing: Int64

    func laneEnds(before i: Int) -> [Int64] {
      var ends = Array(repeating: Int64(0), count: k)
      for t in 0 ..< i { ends[lanes[t]] += extents[t] + spacing }
      return ends
    }
    func start(at i: Int) -> Int64 { laneEnds(before: i)[lanes[i]] }
    var pitch: Int64 { laneEnds(before: extents.count).max() ?? 0 }
    static func laneEndingFirst(_ ends: [Int64]) -> Int {
      var best = 0
      for j in ends.indices where ends[j] < ends[best] { best = j }
      return best
    }
    mutating func insert(_ new: [Int64], at i: Int) -> [Int] {
      var ends = laneEnds(before: i)
      let given = new.map { e in
        let j = Self.laneEndingFirst(ends)
        ends[j] += e + spacing
        return j
      }
      extents.insert(contentsOf: new, at: i)
      lanes.insert(contentsOf: given, at: i)
      return given
    }
    func firstRow(inLane j: Int, pitchEndAfter y: Int64) -> Int? {
      var end: Int64 = 0
      for i in extents.indices where lanes[i] == j {
        end += extents[i] + spacing
        if end > y { return i }
      }
      return nil
    }
  }

  // MARK: Comparisons

  /// `stored`: what the body holds, when rows follow its estimate (the
  /// model's extents are then theirs at that estimate).
  func compare(_ g: _GridLines, _ m: GridModel, stored: [Int64]? = nil, _ context: @autoclosure () -> String,
               file: StaticString = #filePath, line: UInt = #line) {
    g._checkInvariants()
    XCTAssertEqual(g.blocks.allExtents, stored ?? m.extents, "extents, \(context())", file: file, line: line)
    XCTAssertEqual(g.pitch, m.pitch, "pitch, \(context())", file: file, line: line)
    XCTAssertEqual(g.lineCount, m.lineCount, "lines, \(context())", file: file, line: line)
    let lineStarts = m.lineStarts
    for l in 0 ... m.lineCount {
      XCTAssertEqual(g.lineStart(l), lineStarts[l], "start of line \(l), \(context())", file: file, line: line)
      if l < m.lineCount {
        XCTAssertEqual(g.lineExtent(l), m.lineExtent(l), "extent of line \(l), \(context())", file: file, line: line)
      }
    }
    let starts = m.starts(alignment: 0.5)
    for i in m.extents.indices {
      XCTAssertEqual(g.start(at: i, alignment: 0.5), starts[i], "start of row \(i), \(context())", file: file, line: line)
    }
    // Every line boundary, a unit either side, and past both ends.
    var probes: [Int64] = [-1, 0, m.pitch, m.pitch + 1]
    for l in 0 ..< m.lineCount {
      let s = lineStarts[l]
      probes += [s - 1, s, s + 1, s + m.lineExtent(l), s + m.lineExtent(l) + m.spacing - 1]
    }
    for y in probes {
      XCTAssertEqual(g.line(atPitch: y), m.line(atPitch: y), "line at \(y), \(context())", file: file, line: line)
      if let (l, s) = g._line(atPitch: y) {  // the descent's start of that line
        XCTAssertEqual(s, lineStarts[l], "start of the line at \(y), \(context())", file: file, line: line)
      }
    }
    // SPEC G5 on each row's own span, and L5's hit test, at alignment 0.5.
    for low in probes.prefix(12) {
      for height: Int64 in [1, 17, 90] {
        let expected = m.extents.indices.filter { i in
          let s = starts[i]
          let e = m.extents[i]
          return e > 0 ? (s < low + height && s + e > low) : (s >= low && s < low + height)
        }
        XCTAssertEqual(g.rows(meeting: low, low + height, alignment: 0.5), expected,
                       "rows meeting \(low) + \(height), \(context())", file: file, line: line)
      }
      for lane in 0 ..< m.k {
        let expected = m.extents.indices.first { i in
          let s = starts[i]
          return i % m.k == lane && s <= low && low < s + m.extents[i]
        }
        XCTAssertEqual(g.row(atPitch: low, lane: lane, alignment: 0.5), expected,
                       "row at \(low) in lane \(lane), \(context())", file: file, line: line)
      }
    }
  }

  func compare(_ s: _MasonryLanes, _ m: MasonryModel, stored: [Int64]? = nil, _ context: @autoclosure () -> String,
               file: StaticString = #filePath, line: UInt = #line) {
    s._checkInvariants()
    XCTAssertEqual(s.blocks.allExtents, stored ?? m.extents, "extents, \(context())", file: file, line: line)
    XCTAssertEqual(s.blocks.allLanes, m.lanes, "lanes, \(context())", file: file, line: line)
    XCTAssertEqual(s.pitch, m.pitch, "pitch, \(context())", file: file, line: line)
    for i in m.extents.indices {
      XCTAssertEqual(s.start(at: i), m.start(at: i), "start of row \(i), \(context())", file: file, line: line)
    }
    for i in stride(from: 0, through: m.extents.count, by: max(1, m.extents.count / 7)) {
      XCTAssertEqual(Array(s.laneEnds(before: i)), m.laneEnds(before: i), "lane ends before \(i), \(context())",
                     file: file, line: line)
    }
    for j in 0 ..< m.k {
      var y: Int64 = -1
      while y <= m.pitch + 1 {
        XCTAssertEqual(s.firstRow(inLane: j, pitchEndAfter: y), m.firstRow(inLane: j, pitchEndAfter: y),
                       "lane \(j) at \(y), \(context())", file: file, line: line)
        y += max(1, m.pitch / 13)
      }
      var row = -1
      var expected = m.lanes.indices.filter { m.lanes[$0] == j }[...]
      while let next = s.nextRow(inLane: j, after: row) {
        XCTAssertEqual(next, expected.popFirst(), "next in lane \(j) after \(row), \(context())", file: file, line: line)
        row = next
      }
      XCTAssertTrue(expected.isEmpty, "lane \(j) walked to its end, \(context())", file: file, line: line)
    }
    // SPEC G5 and L5's hit test, lane by lane.
    var y: Int64 = -3
    while y <= m.pitch + 3 {
      for height: Int64 in [1, 25, 120] {
        let expected = m.extents.indices.filter { i in
          let s = m.start(at: i)
          let e = m.extents[i]
          return e > 0 ? (s < y + height && s + e > y) : (s >= y && s < y + height)
        }
        XCTAssertEqual(s.rows(meeting: y, y + height), expected, "rows meeting \(y) + \(height), \(context())",
                       file: file, line: line)
        // Each of the two searches on its own: one walk, and lane by lane.
        XCTAssertEqual(s.rows(meeting: y, y + height, walkLimit: .max / 2), expected,
                       "rows meeting \(y) + \(height) in one walk, \(context())", file: file, line: line)
        XCTAssertEqual(s.rows(meeting: y, y + height, walkLimit: -1), expected,
                       "rows meeting \(y) + \(height) lane by lane, \(context())", file: file, line: line)
        XCTAssertEqual(s.rows(meeting: y, y + height, walkLimit: 2), expected,
                       "rows meeting \(y) + \(height), a walk stopped, \(context())", file: file, line: line)
      }
      for lane in 0 ..< m.k {
        let expected = m.extents.indices.first { i in
          m.lanes[i] == lane && m.start(at: i) <= y && y < m.start(at: i) + m.extents[i]
        }
        XCTAssertEqual(s.row(atPitch: y, lane: lane), expected, "row at \(y) in lane \(lane), \(context())",
                       file: file, line: line)
      }
      y += max(1, m.pitch / 11)
    }
  }

  // MARK: Worked examples

  /// SPEC L3: lines of 3; a line as long as its longest row; starts in
  /// pitch (longest plus spacing).
  func testL3_gridLinesWorkedExample() {
    let g = _GridLines(extents: [10, 30, 20, 5, 5, 40, 7], lanes: 3, spacing: 2, estimate: 0, blockCapacity: 2)
    XCTAssertEqual(g.lineCount, 3)
    XCTAssertEqual([g.lineExtent(0), g.lineExtent(1), g.lineExtent(2)], [30, 40, 7])
    XCTAssertEqual([g.lineStart(0), g.lineStart(1), g.lineStart(2), g.lineStart(3)], [0, 32, 74, 83])
    XCTAssertEqual(g.pitch, 83)
    XCTAssertEqual(g.start(at: 3, alignment: 1), 32 + 35)
    XCTAssertEqual(g.line(atPitch: 31), 0)
    XCTAssertEqual(g.line(atPitch: 32), 1)
    XCTAssertEqual(g.line(atPitch: 1_000), 2)
  }

  /// SPEC L4: with equal extents the rule is round robin; a tall row holds
  /// its lane back, so the next rows go to the others; a measurement never
  /// moves a row to another lane.
  func testL4_masonryWorkedExample() {
    var s = _MasonryLanes(extents: [10, 10, 10, 10, 10, 10], lanes: nil, lanes: 3, spacing: 0, estimate: 0, blockCapacity: 2)
    XCTAssertEqual(s.blocks.allLanes, [0, 1, 2, 0, 1, 2])
    s.setExtent(100, at: 0)
    XCTAssertEqual(s.blocks.allLanes, [0, 1, 2, 0, 1, 2], "measurements keep lanes")
    XCTAssertEqual(s.start(at: 3), 100)
    XCTAssertEqual(s.insert([10, 10, 10], at: 6), [1, 2, 1])
    XCTAssertEqual(s.pitch, 110)
  }

  /// SPEC E4 with lanes: a block that splits in the middle of a body takes
  /// the nearest spare (an empty block kept between blocks with rows): the
  /// number of positions stays, no block beyond the spare moves, and the
  /// trees over the blocks equal the ones built from scratch. A split of
  /// the last block, with no spare after it, splices as before.
  func testE4_aLaneBlockSplitInTheMiddleTakesTheNearestSpare() {
    let extents = (0 ..< 256).map { Int64($0 % 7 + 1) }
    for masonry in [false, true] {
      var g = _GridLines(extents: extents, lanes: 3, spacing: 1, estimate: 0, blockCapacity: 4)
      var m = _MasonryLanes(extents: extents, lanes: nil, lanes: 3, spacing: 1, estimate: 0, blockCapacity: 4)
      func blocks() -> _LaneBlocks { masonry ? m.blocks : g.blocks }
      func insert(_ e: Int64, at i: Int) {
        if masonry { _ = m.insert([e], at: i) } else { g.insert([e], at: i) }
      }
      XCTAssertEqual(blocks().filledBlockCount, 64, "masonry \(masonry)")
      XCTAssertEqual(blocks().spareCount, 63 / _LaneBlocks.spareGap,
                     "masonry \(masonry): a spare after every \(_LaneBlocks.spareGap) blocks but the last")
      let positions = blocks().blockCount
      // Rows inserted at row 100 until its block splits.
      let before = blocks().extents
      let splitting = blocks().locate(100).block
      var added = 0
      while blocks().filledBlockCount == 64 && added < 100 {
        insert(Int64(10 + added), at: 100)
        added += 1
      }
      XCTAssertEqual(blocks().filledBlockCount, 65, "masonry \(masonry): the block split")
      XCTAssertEqual(blocks().blockCount, positions, "masonry \(masonry): into a spare, the positions stay")
      XCTAssertEqual(blocks().spareCount, 63 / _LaneBlocks.spareGap - 1, "masonry \(masonry)")
      let after = blocks().extents
      let moved = (0 ..< positions).filter { before[$0] != after[$0] }
      let span = moved.first! ... moved.last!
      XCTAssertEqual(moved.count, span.count, "masonry \(masonry): one run of positions changed")
      XCTAssertTrue(span.contains(splitting), "masonry \(masonry): the split block's")
      XCTAssertTrue(before[span.lowerBound].isEmpty || before[span.upperBound].isEmpty,
                    "masonry \(masonry): from the split block to the spare it took")
      XCTAssertLessThanOrEqual(span.count, _LaneBlocks.spareGap + 2, "masonry \(masonry): the nearest spare")
      if masonry { m._checkInvariants() } else { g._checkInvariants() }
      // Each later split there takes the next spare; once none is left,
      // a split splices its pieces in (the positions grow).
      var spares = blocks().spareCount
      added = 0
      while blocks().blockCount == positions && added < 1_000 {
        insert(Int64(3 + added % 5), at: 100)
        added += 1
        if blocks().spareCount != spares {
          XCTAssertEqual(blocks().spareCount, spares - 1, "masonry \(masonry): one spare a split")
          spares = blocks().spareCount
          if masonry { m._checkInvariants() } else { g._checkInvariants() }
        }
      }
      XCTAssertEqual(blocks().spareCount, 0, "masonry \(masonry): every spare taken before a splice")
      XCTAssertGreaterThan(blocks().blockCount, positions, "masonry \(masonry): the split with no spare left spliced")
      if masonry { m._checkInvariants() } else { g._checkInvariants() }
    }
  }

  /// SPEC E4 with lanes: a block that falls under a quarter of the
  /// capacity between two full neighbours cannot merge, so the removal
  /// leaves the blocks' shape alone (no reshape for the trees above to
  /// stream); the removal that empties it drops it.
  func testE4_aSmallBlockBetweenFullNeighboursIsNotReshaped() {
    var blocks = _LaneBlocks(extents: (0 ..< 24).map { Int64($0) }, lanes: nil, capacity: 8)
    XCTAssertEqual(blocks.extents.map(\.count), [8, 8, 8])
    var reshapes: [Bool] = []
    for _ in 0 ..< 7 { reshapes.append(blocks.remove(8 ..< 9).reshaped != nil) }
    XCTAssertEqual(reshapes, Array(repeating: false, count: 7), "a block of 1 beside blocks of 8 merges with neither")
    XCTAssertEqual(blocks.extents.map(\.count), [8, 1, 8])
    XCTAssertEqual(blocks.rows(before: 2), 9)
    let last = blocks.remove(8 ..< 9)
    XCTAssertEqual(last.reshaped, .spliced(old: 0 ..< 3, new: 0 ..< 2), "the emptied block is dropped (three blocks keep no spares)")
    XCTAssertEqual(blocks.extents.map(\.count), [8, 8])
    XCTAssertEqual(blocks.rows(before: 1), 8)
    XCTAssertEqual(blocks.extents.joined().map(Int64.init), (0 ..< 8).map(Int64.init) + (16 ..< 24).map(Int64.init))
  }

  // MARK: Random edits against the rules

  func testGridLinesAgainstTheRules() {
    var sparesTaken = 0  // splits into a spare (the positions stay, a spare fewer)
    var sparesLeft = 0  // removals that emptied or merged a block and left a spare (the positions stay)
    defer {
      // At least one a third of a seed: above 20 for the 60 seeds of the full scale.
      XCTAssertGreaterThan(sparesTaken, TestScale.seeds(1 ..< 61).count / 3, "splits into spares")
      XCTAssertGreaterThan(sparesLeft, TestScale.seeds(1 ..< 61).count / 3, "merges that left spares")
    }
    for seed in TestScale.seeds(1 ..< 61) {
      var rng = SeededRNG(seed: seed)
      // Every fifth seed: more lanes than the spans' merge takes one by one.
      let k = seed % 5 == 0 ? Int.random(in: 17 ... 20, using: &rng) : Int.random(in: 1 ... 5, using: &rng)
      let spacing = Int64.random(in: 0 ... 3, using: &rng)
      // Odd seeds: blocks large enough to fall under a quarter without merging.
      let capacity = Int.random(in: 1 ... 4, using: &rng) * (seed % 2 == 0 ? 1 : 3)
      let initial = (0 ..< Int.random(in: 0 ... 30, using: &rng)).map { _ in Int64.random(in: 0 ... 50, using: &rng) }
      var g = _GridLines(extents: initial, lanes: k, spacing: spacing, estimate: 0, blockCapacity: capacity)
      var m = GridModel(extents: initial, k: k, spacing: spacing)
      compare(g, m, "seed \(seed), built")
      for step in 0 ..< 40 {
        let op = Int.random(in: 0 ..< 3, using: &rng)
        if op == 0 && !m.extents.isEmpty {
          let i = Int.random(in: 0 ..< m.extents.count, using: &rng)
          let e = Int64.random(in: 0 ... 60, using: &rng)
          g.setExtent(e, at: i)
          m.extents[i] = e
        } else if op == 1 || m.extents.isEmpty {
          let i = Int.random(in: 0 ... m.extents.count, using: &rng)
          let new = (0 ..< Int.random(in: 1 ... 6, using: &rng)).map { _ in Int64.random(in: 0 ... 60, using: &rng) }
          let (positions, spares) = (g.blocks.blockCount, g.blocks.spareCount)
          g.insert(new, at: i)
          m.extents.insert(contentsOf: new, at: i)
          if g.blocks.blockCount == positions && g.blocks.spareCount < spares { sparesTaken += 1 }
        } else {
          let a = Int.random(in: 0 ..< m.extents.count, using: &rng)
          let b = Int.random(in: a ... min(m.extents.count, a + 7), using: &rng)
          let (before, filled) = (g.blocks.blockCount, g.blocks.filledBlockCount)
          g.remove(a ..< b)
          if g.blocks.blockCount == before && g.blocks.filledBlockCount < filled { sparesLeft += 1 }
          m.extents.removeSubrange(a ..< b)
        }
        compare(g, m, "seed \(seed), step \(step)")
        if testRun?.failureCount ?? 0 > 0 { return }
      }
    }
  }

  /// SPEC G5 in a masonry when a window meets more rows than the walk keeps
  /// on the stack (256), with few lanes (merged one row at a time) and many
  /// (sorted), lanes drifted apart by measurements after placement.
  func testMasonryRowsMeetingAWindowOfManyRows() {
    for k in [3, 20] {
      var rng = SeededRNG(seed: UInt64(k))
      let count = 3_000
      var s = _MasonryLanes(extents: Array(repeating: 4, count: count), lanes: nil, lanes: k, spacing: 1, estimate: 0, blockCapacity: 16)
      var extents = [Int64](repeating: 4, count: count)
      for i in stride(from: 0, to: count, by: 3) {
        let e = Int64.random(in: 0 ... 12, using: &rng)
        s.setExtent(e, at: i)
        extents[i] = e
      }
      let lanes = s.blocks.allLanes
      var ends = [Int64](repeating: 0, count: k)
      let starts = extents.indices.map { i in
        defer { ends[lanes[i]] += extents[i] + 1 }
        return ends[lanes[i]]
      }
      let top = ends.max()!
      for (low, height) in [(Int64(0), top), (top / 3, top / 3), (top / 2, 7), (-5, top + 10)] {
        let expected = extents.indices.filter { i in
          extents[i] > 0 ? (starts[i] < low + height && starts[i] + extents[i] > low)
            : (starts[i] >= low && starts[i] < low + height)
        }
        XCTAssertGreaterThan(expected.count, height >= top ? 256 : 0, "the window is meant to meet rows")
        XCTAssertEqual(s.rows(meeting: low, low + height), expected, "\(k) lanes, rows meeting \(low) + \(height)")
        XCTAssertEqual(s.rows(meeting: low, low + height, walkLimit: -1), expected,
                       "\(k) lanes, rows meeting \(low) + \(height) lane by lane")
      }
    }
  }

  func testMasonryLanesAgainstTheRules() {
    var sparesTaken = 0  // splits into a spare (the positions stay, a spare fewer)
    var sparesLeft = 0  // removals that emptied or merged a block and left a spare (the positions stay)
    defer {
      // At least one a third of a seed: above 20 for the 60 seeds of the full scale.
      XCTAssertGreaterThan(sparesTaken, TestScale.seeds(1 ..< 61).count / 3, "splits into spares")
      XCTAssertGreaterThan(sparesLeft, TestScale.seeds(1 ..< 61).count / 3, "merges that left spares")
    }
    for seed in TestScale.seeds(1 ..< 61) {
      var rng = SeededRNG(seed: seed)
      // Every fifth seed: more lanes than the spans' merge takes one by one.
      let k = seed % 5 == 0 ? Int.random(in: 17 ... 20, using: &rng) : Int.random(in: 1 ... 5, using: &rng)
      let spacing = Int64.random(in: 0 ... 3, using: &rng)
      // Odd seeds: blocks large enough to fall under a quarter without merging.
      let capacity = Int.random(in: 1 ... 4, using: &rng) * (seed % 2 == 0 ? 1 : 3)
      let initial = (0 ..< Int.random(in: 0 ... 30, using: &rng)).map { _ in Int64.random(in: 0 ... 50, using: &rng) }
      var s = _MasonryLanes(extents: initial, lanes: nil, lanes: k, spacing: spacing, estimate: 0, blockCapacity: capacity)
      var m = MasonryModel(extents: [], lanes: [], k: k, spacing: spacing)
      _ = m.insert(initial, at: 0)
      compare(s, m, "seed \(seed), built")
      for step in 0 ..< 40 {
        let op = Int.random(in: 0 ..< 4, using: &rng)
        if op == 0 && !m.extents.isEmpty {
          let i = Int.random(in: 0 ..< m.extents.count, using: &rng)
          let e = Int64.random(in: 0 ... 60, using: &rng)
          s.setExtent(e, at: i)
          m.extents[i] = e
        } else if op == 1 || m.extents.isEmpty {
          let i = Int.random(in: 0 ... m.extents.count, using: &rng)
          let new = (0 ..< Int.random(in: 1 ... 6, using: &rng)).map { _ in Int64.random(in: 0 ... 60, using: &rng) }
          let (positions, spares) = (s.blocks.blockCount, s.blocks.spareCount)
          let placed = s.insert(new, at: i)
          if s.blocks.blockCount == positions && s.blocks.spareCount < spares { sparesTaken += 1 }
          XCTAssertEqual(placed, m.insert(new, at: i), "lanes of new rows, seed \(seed), step \(step)")
        } else if op == 2 {
          // A move: the rows keep their lanes (L4).
          let a = Int.random(in: 0 ..< m.extents.count, using: &rng)
          let b = Int.random(in: a ... min(m.extents.count, a + 3), using: &rng)
          let extents = Array(m.extents[a ..< b])
          let lanes = Array(m.lanes[a ..< b])
          s.remove(a ..< b)
          m.extents.removeSubrange(a ..< b)
          m.lanes.removeSubrange(a ..< b)
          let to = Int.random(in: 0 ... m.extents.count, using: &rng)
          s.insert(extents, lanes: lanes, at: to)
          m.extents.insert(contentsOf: extents, at: to)
          m.lanes.insert(contentsOf: lanes, at: to)
        } else if op == 3 && step % 10 == 9 {
          // A re-flow to another lane count (L1, L2): every row placed again.
          let k2 = Int.random(in: 1 ... 5, using: &rng)
          s = s.reflowed(lanes: k2)
          var fresh = MasonryModel(extents: [], lanes: [], k: k2, spacing: spacing)
          _ = fresh.insert(m.extents, at: 0)
          m = fresh
        } else {
          let a = Int.random(in: 0 ..< m.extents.count, using: &rng)
          let b = Int.random(in: a ... min(m.extents.count, a + 7), using: &rng)
          let (before, filled) = (s.blocks.blockCount, s.blocks.filledBlockCount)
          s.remove(a ..< b)
          if s.blocks.blockCount == before && s.blocks.filledBlockCount < filled { sparesLeft += 1 }
          m.extents.removeSubrange(a ..< b)
          m.lanes.removeSubrange(a ..< b)
        }
        compare(s, m, "seed \(seed), step \(step)")
        if testRun?.failureCount ?? 0 > 0 { return }
      }
    }
  }

  /// SPEC X2, K1 in the lane bodies: rows whose extent is kind 0's
  /// estimate are stored as `_LaneBlocks.followsEstimate`, and a change of
  /// that estimate moves them without a write (a masonry's pitch tree moves
  /// node by node, a grid's leaves with such rows are summarized again,
  /// from their count alone where every row follows it); through
  /// measurements, rows that start or stop following it, inserts (a
  /// masonry places them by L4 at the estimate of the moment), removals
  /// and splits into spares, both bodies equal the rules over the rows'
  /// extents at the estimate of the moment.
  func testX2_rowsThatFollowTheEstimateMoveWithItInLaneBodies() {
    let f = _LaneBlocks.followsEstimate
    for seed in TestScale.seeds(1 ..< 41) {
      var rng = SeededRNG(seed: seed ^ 0xe57)
      let k = Int.random(in: 1 ... 5, using: &rng)
      let spacing = Int64.random(in: 0 ... 3, using: &rng)
      let capacity = Int.random(in: 1 ... 4, using: &rng) * (seed % 2 == 0 ? 1 : 3)
      var estimate = Int64.random(in: 0 ... 60, using: &rng)
      // Mostly rows that follow the estimate, so that leaves of only them
      // and leaves that mix them with others both occur.
      func extent() -> Int64 { Int.random(in: 0 ..< 3, using: &rng) == 0 ? Int64.random(in: 0 ... 60, using: &rng) : f }
      var stored = (0 ..< Int.random(in: 0 ... 60, using: &rng)).map { _ in extent() }
      func resolved(_ x: [Int64]) -> [Int64] { x.map { $0 < 0 ? estimate : $0 } }
      var g = _GridLines(extents: stored, lanes: k, spacing: spacing, estimate: estimate, blockCapacity: capacity)
      var s = _MasonryLanes(extents: stored, lanes: nil, lanes: k, spacing: spacing, estimate: estimate, blockCapacity: capacity)
      var m = MasonryModel(extents: [], lanes: [], k: k, spacing: spacing)
      _ = m.insert(resolved(stored), at: 0)
      func check(_ context: String) {
        m.extents = resolved(stored)
        compare(g, GridModel(extents: m.extents, k: k, spacing: spacing), stored: stored, "grid, seed \(seed), \(context)")
        compare(s, m, stored: stored, "masonry, seed \(seed), \(context)")
      }
      check("built")
      for step in 0 ..< 60 {
        switch Int.random(in: 0 ..< 5, using: &rng) {
        case 0, 1:
          estimate = Int64.random(in: 0 ... 60, using: &rng)
          let moved = stored.filter { $0 < 0 }.count
          let before = (g.estimate, s.estimate)
          XCTAssertEqual(g.setEstimate(estimate), (estimate - before.0) * Int64(moved), "grid's rows moved, seed \(seed)")
          XCTAssertEqual(s.setEstimate(estimate), (estimate - before.1) * Int64(moved), "masonry's rows moved, seed \(seed)")
        case 2 where !stored.isEmpty:
          let i = Int.random(in: 0 ..< stored.count, using: &rng)
          stored[i] = extent()
          g.setExtent(stored[i], at: i)
          s.setExtent(stored[i], at: i)
        case 3 where stored.count > 2:
          let a = Int.random(in: 0 ..< stored.count, using: &rng)
          let b = Int.random(in: a ... min(stored.count, a + 9), using: &rng)
          g.remove(a ..< b)
          s.remove(a ..< b)
          stored.removeSubrange(a ..< b)
          m.extents.removeSubrange(a ..< b)
          m.lanes.removeSubrange(a ..< b)
        default:
          let i = Int.random(in: 0 ... stored.count, using: &rng)
          let new = (0 ..< Int.random(in: 1 ... 12, using: &rng)).map { _ in extent() }
          g.insert(new, at: i)
          XCTAssertEqual(s.insert(new, at: i), m.insert(resolved(new), at: i), "lanes of new rows, seed \(seed), step \(step)")
          stored.insert(contentsOf: new, at: i)
        }
        check("step \(step)")
        if testRun?.failureCount ?? 0 > 0 { return }
      }
    }
  }

  /// The lane count is kept in a byte: 256 at most, a typed error above
  /// it, and an adaptive count clamped to it (SPEC L2, X5).
  func testL2_laneCountsAboveTheByteAreRejectedOrClamped() {
    XCTAssertThrowsError(try GridLayout(lanes: .fixed(257))) { XCTAssertEqual($0 as? LazyStackError, .invalidLaneCount(257)) }
    XCTAssertNoThrow(try MasonryLayout(lanes: .fixed(256)))
    XCTAssertEqual(LaneCount.adaptive(minimum: 1).count(crossExtent: 10_000, spacing: 0), 256)
    let wide = _GridLines(extents: (0 ..< 600).map { Int64($0 % 9) }, lanes: 256, spacing: 1, estimate: 0)
    XCTAssertEqual(wide.lineCount, 3)
    XCTAssertEqual(wide.lineStart(1), 9)
  }
}
