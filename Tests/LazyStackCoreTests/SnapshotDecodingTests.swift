import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// SPEC C1: "a truncated or corrupt encoding is a typed error". A value no
/// snapshot holds is rejected by both encodings, each with the error named;
/// and whatever decodes, the layout and the reference restore alike.
final class SnapshotDecodingTests: CheckedTestCase {
  /// A pair of 40 masonry rows in 2 lanes, measured and kinded, with own
  /// estimates, re-flowed over the measured rows (out of the round robin)
  /// and scrolled: its snapshot has entries in every list.
  func masonryPair() throws -> ModelPair {
    var pair = try ModelPair(ids: Array(0 ..< 40), estimate: 30)
    let steps: [LayoutOperation] = [.laneViewport(CGSize(width: 200, height: 120)),
                                    .sectionLayout(.masonry(try MasonryLayout(lanes: .fixed(2), laneSpacing: 4))),
                                    .setKind(3, 2), .setKind(9, 1), .ownEstimate(5, 70), .ownEstimate(6, 12),
                                    .measureVisible(7), .userScroll(200), .measureVisible(8),
                                    .sectionLayout(.masonry(try MasonryLayout(lanes: .fixed(3)))),
                                    .sectionLayout(.masonry(try MasonryLayout(lanes: .fixed(2), laneSpacing: 4))),
                                    .userScroll(150)]
    for op in steps { XCTAssertNil(pair.step(op), "\(op)") }
    return pair
  }

  /// The offset of the first byte of entry `k` of `ids` in `bytes`: ids are
  /// `Int`s (8 bytes), found by their bytes after the header.
  func offset(of id: Int, in bytes: [UInt8], after start: Int) -> Int {
    var needle: [UInt8] = []
    id.appendSnapshotBytes(to: &needle)
    return (start ... bytes.count - 8).first { Array(bytes[$0 ..< $0 + 8]) == needle }!
  }

  /// SPEC C1: a row named twice in any one list of entries (measured
  /// rows, own estimates, kinds, masonry lanes) is corrupt in the binary
  /// form, at the repeated id's offset, and in the `Codable` form, at the
  /// list's key. (Before, both decoded it, and the layout kept the first
  /// lane entry and the reference the last: one flipped byte of a 40-row
  /// masonry snapshot restored to offsets 150 and 131.)
  func testC1_aRowNamedTwiceInAListIsCorruptInBothForms() throws {
    let pair = try masonryPair()
    let s = pair.core.snapshot()
    XCTAssertGreaterThan(s._measuredIDs.count, 2)
    XCTAssertEqual(s._ownIDs.count, 2)
    XCTAssertEqual(s._kindIDs.count, 2)
    XCTAssertGreaterThan(s._laneIDs.count, 2)
    XCTAssertEqual(s.masonrySections.map(\.firstID), [0])
    let lists: [(String, WritableKeyPath<LayoutSnapshot<Int>, [Int]>, String)] = [
      ("measured rows", \._measuredIDs, "measuredIDs"), ("own estimates", \._ownIDs, "ownIDs"),
      ("kinds", \._kindIDs, "kindIDs"), ("masonry lanes", \._laneIDs, "laneIDs")]
    for (what, list, key) in lists {
      var bad = s
      bad[keyPath: list][1] = bad[keyPath: list][0]
      let bytes = [UInt8](bad.encoded())
      // The second entry of that list: where the binary decoder meets the repeat.
      let firstEntry = [UInt8](s.encoded()).indices.first { i in
        [UInt8](s.encoded())[i] != bytes[i]
      }!
      XCTAssertThrowsError(try LayoutSnapshot<Int>(encoded: Data(bytes)),
                           LayoutSnapshotError.corrupt("a row repeated among the \(what)", offset: firstEntry), what)
      XCTAssertThrowsError(try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: JSONEncoder().encode(bad))) { error in
        guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(what): \(error)") }
        XCTAssertEqual(context.codingPath.map(\.stringValue), [key], what)
        XCTAssertEqual(context.debugDescription, "a row named twice", what)
      }
    }
    // A row that starts two masonry sections.
    var twoSections = s
    twoSections._masonrySections.append(.init(firstID: 0, rowCount: 3, laneCount: 2, runs: [.init(start: 0, lanes: [0, 1])]))
    let sectionBytes = [UInt8](twoSections.encoded())
    // The second section: an id, its row and lane counts, a run count and a run of 2 lanes.
    XCTAssertThrowsError(try LayoutSnapshot<Int>(encoded: Data(sectionBytes)),
                         LayoutSnapshotError.corrupt("a row repeated among the masonry sections",
                                                     offset: sectionBytes.count - (8 + 4 + 1 + 4 + 4 + 2)))
    XCTAssertThrowsError(try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: JSONEncoder().encode(twoSections))) { error in
      guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("sections: \(error)") }
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["masonrySections"])
      XCTAssertEqual(context.debugDescription, "a row starts two sections")
    }
    // The reproduction: one lane entry's id overwritten with the
    // one before it (8 bytes here; one byte of a small id).
    var bytes = [UInt8](s.encoded())
    let sectionsSize = 4 + s.masonrySections.reduce(0) { $0 + 8 + 4 + 1 + 4 + $1.runs.count * (4 + $1.laneCount) }
    let laneStart = bytes.count - s._laneIDs.count * 10 - sectionsSize
    let second = offset(of: s._laneIDs[1], in: bytes, after: laneStart)
    let first = offset(of: s._laneIDs[0], in: bytes, after: laneStart)
    bytes.replaceSubrange(second ..< second + 8, with: bytes[first ..< first + 8])
    XCTAssertThrowsError(try LayoutSnapshot<Int>(encoded: Data(bytes)),
                         LayoutSnapshotError.corrupt("a row repeated among the masonry lanes", offset: second))
    // The same id in two different lists is what a snapshot holds.
    XCTAssertTrue(Set(s._measuredIDs).intersection(s._laneIDs).count > 2)
    XCTAssertEqual(try LayoutSnapshot<Int>(encoded: s.encoded()), s)
  }

  /// SPEC C1, K1: a kind entry of kind 0 (kind 0 is every row without an
  /// entry) and a kind's settings given twice are corrupt in both forms.
  func testC1_kindZeroEntriesAndRepeatedKindSettingsAreCorrupt() throws {
    let s = try masonryPair().core.snapshot()
    var zero = s
    zero._kinds[0] = 0
    let zeroBytes = [UInt8](zero.encoded())
    let at = [UInt8](s.encoded()).indices.first { [UInt8](s.encoded())[$0] != zeroBytes[$0] }!
    XCTAssertThrowsError(try LayoutSnapshot<Int>(encoded: Data(zeroBytes)),
                         LayoutSnapshotError.corrupt("a kind entry of kind 0 (kind 0 is every other row's)", offset: at))
    XCTAssertThrowsError(try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: JSONEncoder().encode(zero))) { error in
      guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(error)") }
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["kinds"])
    }
    var twice = s
    XCTAssertEqual(twice.kindSettings.map(\.kind), [0, 1, 2])
    twice.kindSettings.append(twice.kindSettings[1])
    // Header: mark, format, count (2 bytes), then 6 bytes a kind.
    XCTAssertThrowsError(try LayoutSnapshot<Int>(encoded: twice.encoded()),
                         LayoutSnapshotError.corrupt("kind 1's settings repeated", offset: 7 + 3 * 6))
    XCTAssertThrowsError(try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: JSONEncoder().encode(twice))) { error in
      guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(error)") }
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["kindSettings"])
      XCTAssertEqual(context.debugDescription, "a kind's settings given twice")
    }
  }

  /// SPEC C1, C4: the `Codable` form bounds the place's distance as the
  /// binary form does (before, a distance of 1e300 decoded, and the
  /// snapshot then changed through `encoded()`), rejects an anchor that is
  /// not finite, and rounds the distance to the layout's units, so every
  /// snapshot it decodes goes through the binary form unchanged.
  func testC1_codableFormBoundsTheDistanceAsTheBinaryFormDoes() throws {
    var s = try masonryPair().core.snapshot()
    let encoder = JSONEncoder()
    for bad in [1e300, -1e300, CGFloat(Double(_FixedPoint.maxUnits) / 256 * 2)] {
      s.place!.distance = bad
      XCTAssertThrowsError(try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: encoder.encode(s)), "\(bad)") { error in
        guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(bad): \(error)") }
        XCTAssertEqual(context.codingPath.map(\.stringValue), ["place", "distance"], "\(bad)")
      }
    }
    // Non-finite numbers: JSON has none, so a lenient encoding writes them as text.
    let lenient = JSONEncoder()
    lenient.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    let lenientDecoder = JSONDecoder()
    lenientDecoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    s.place!.distance = .nan
    XCTAssertThrowsError(try lenientDecoder.decode(LayoutSnapshot<Int>.self, from: lenient.encode(s))) { error in
      guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(error)") }
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["place", "distance"])
    }
    s.place!.distance = 10
    s.place!.anchor = UnitPoint(x: 0.5, y: .infinity)
    XCTAssertThrowsError(try lenientDecoder.decode(LayoutSnapshot<Int>.self, from: lenient.encode(s))) { error in
      guard case .dataCorrupted(let context)? = error as? DecodingError else { return XCTFail("\(error)") }
      XCTAssertEqual(context.codingPath.map(\.stringValue), ["place", "anchorY"])
    }
    s.place!.anchor = .top
    s.place!.distance = 10.001
    let decoded = try JSONDecoder().decode(LayoutSnapshot<Int>.self, from: encoder.encode(s))
    XCTAssertEqual(decoded.place!.distance, 10, "rounded to 1/256 pt")
    XCTAssertEqual(try LayoutSnapshot<Int>(encoded: decoded.encoded()), decoded)
  }

  /// SPEC C1, C2: every one-byte change of a masonry snapshot's binary
  /// form, at every offset, is a typed error or a snapshot that goes
  /// through `encoded()` unchanged and restores into the layout and the
  /// reference alike (everything observable compared after the restore).
  func testC1_everyByteChangedDecodesToASnapshotBothRestoreAlikeOrIsAnError() throws {
    let pair = try masonryPair()
    let bytes = [UInt8](pair.core.snapshot().encoded())
    var decodedCount = 0
    var errorCount = 0
    for at in bytes.indices {
      // (The byte 10 on: the same byte of the next lane entry's id.)
      for value in Set([bytes[at] ^ 1, bytes[at] ^ 0x80, bytes[(at + 10) % bytes.count]]) where value != bytes[at] {
        var changed = bytes
        changed[at] = value
        let decoded: LayoutSnapshot<Int>
        do {
          decoded = try LayoutSnapshot<Int>(encoded: Data(changed))
        } catch {
          errorCount += 1
          continue
        }
        decodedCount += 1
        XCTAssertEqual(try LayoutSnapshot<Int>(encoded: decoded.encoded()), decoded, "byte \(at) = \(value)")
        var restored = pair
        if let problem = restored.step(.restoreSnapshot(decoded)) ?? restored.difference() {
          return XCTFail("byte \(at) = \(value): \(problem)")
        }
      }
    }
    print("every byte changed: \(decodedCount) decoded and restored alike, \(errorCount) typed errors")
    XCTAssertGreaterThan(decodedCount, bytes.count, "most changes of an extent or an id's high bytes decode")
    XCTAssertGreaterThan(errorCount, 100)
  }
}
