// libFuzzer target: bytes are decoded into an operation sequence (with
// hostile values: NaN, ±infinity, negative and huge extents and sizes,
// duplicate and unknown ids, empty lists), applied to LazyStackLayout and to
// LazyStackReference; after every step the internal invariants and SPEC S13
// (the anchor row stays on screen) are checked
// and everything observable is compared (roles, sections and pinned rows
// included; inside batches too, and each batch's transition; lanes,
// visible rows and hit tests once sections have lanes). Any difference
// traps.
// Built and run by Tests/Fuzz/run.sh (not part of the SwiftPM package).

import Foundation
@_spi(Testing) import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

struct ByteReader {
  var bytes: UnsafeBufferPointer<UInt8>
  var index = 0
  var isAtEnd: Bool { index >= bytes.count }
  mutating func byte() -> UInt8 {
    defer { index += 1 }
    return index < bytes.count ? bytes[index] : 0
  }
  /// An offset below `count` (> 0) from two bytes.
  mutating func offset(_ count: Int) -> Int {
    (Int(byte()) << 8 | Int(byte())) % count
  }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    let raw = Int(byte()) << 8 | Int(byte())
    return range.lowerBound + raw % (range.upperBound - range.lowerBound + 1)
  }
  /// An extent, hostile about a quarter of the time.
  mutating func extent() -> CGFloat {
    let b = byte()
    switch b % 16 {
    case 0: return .nan
    case 1: return .infinity
    case 2: return -.infinity
    case 3: return -CGFloat(b)
    case 4: return 0
    case 5: return 1e300
    default: return CGFloat(int(0 ... 20_000)) / 16
    }
  }
  mutating func anchor() -> UnitPoint? {
    let options: [UnitPoint?] = [nil, .top, .center, .bottom, .leading, .trailing, UnitPoint(x: 0.3, y: 0.7),
                                 UnitPoint(x: -2, y: 3), UnitPoint(x: .nan, y: .nan)]
    return options[Int(byte()) % options.count]
  }
  mutating func id(_ ids: [Int]) -> Int {
    let b = byte()
    if ids.isEmpty || b % 13 == 0 { return Int(b) + 10_000 }  // unknown
    return ids[Int(b) % ids.count]
  }
}

/// `FUZZ_TRACE=1 .build-fuzz/lazystack-fuzz ARTIFACT` prints each operation
/// and both sides' state after it (`traceState`, as `lazystack-soak
/// --trace`): what led to a crash, step by step.
let trace = ProcessInfo.processInfo.environment["FUZZ_TRACE"] != nil

/// An id type that is `Codable` only (not `LayoutSnapshotID`).
struct CodableID: Hashable, Sendable, Codable {
  var key: Int
  var name: String?
  var path: [UInt8]
}

/// A layout of `CodableID`s, measured and scrolled, and its snapshot's
/// binary form: what the snapshot branch overwrites bytes of.
let codableLayout: LazyStackLayout<CodableID> = {
  let ids = (0 ..< 12).map { CodableID(key: $0 * 977 - 3000, name: $0 % 3 == 0 ? nil : "r\($0)", path: [UInt8($0), 7]) }
  var layout = try! LazyStackLayout(ids: ids, estimatedExtent: 40)
  layout.viewportSize = CGSize(width: 100, height: 100)
  for (k, id) in ids.enumerated() where k % 2 == 0 { layout.setMeasuredExtent(CGFloat(10 + k), for: id) }
  layout.setKind(3, for: ids[4])
  layout.userScroll(to: CGPoint(x: 0, y: 55))
  return layout
}()
/// Bytes, not `Data`: a `Data` held in a global is reported as leaked by
/// LeakSanitizer at exit (its storage reference sits in an enum payload,
/// likely with the enum's tag in the pointer's spare bits, where the scan
/// does not see a pointer), which failed a run whose inputs reach this
/// branch; an array's single reference is found.
let codableSnapshot = [UInt8](codableLayout.snapshot().encoded())

@_cdecl("LLVMFuzzerTestOneInput")
public func lazyStackFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  LazyStackInternalChecks.isEnabled = true  // the internal invariants after every step
  var r = ByteReader(bytes: UnsafeBufferPointer(start: data, count: size))
  let n = Int(r.byte() % 48)
  var initial = Array(0 ..< n)
  if r.byte() % 11 == 0, n > 1 { initial[n - 1] = 0 }  // a duplicate
  let estimate = r.extent()
  let spacing = [0, 2.5, 8, -1, .nan][Int(r.byte()) % 5] as CGFloat
  let axis: Axis = r.byte() % 2 == 0 ? .vertical : .horizontal
  let insets = EdgeInsets(all: [0, 3, .infinity][Int(r.byte()) % 3])
  let capacity = 4 + Int(r.byte() % 9)
  let coreInit = Result { () throws(LazyStackError) in
    try LazyStackLayout(ids: initial, estimatedExtent: estimate, spacing: spacing, axis: axis, insets: insets)
  }
  let referenceInit = Result { () throws(LazyStackError) in
    try LazyStackReference(ids: initial, estimatedExtent: estimate, spacing: spacing, axis: axis, insets: insets)
  }
  switch (coreInit, referenceInit) {
  case (.failure(let a), .failure(let b)):
    if a != b { fatalError("init errors differ: \(a) vs \(b)") }
    return 0
  case (.success, .success): break
  default: fatalError("init: one threw, one did not: \(coreInit) vs \(referenceInit)")
  }
  guard var pair = try? ModelPair(ids: initial, estimate: estimate, spacing: spacing, axis: axis, insets: insets,
                                  blockCapacity: capacity) else { fatalError("pair init") }
  var nextID = 1_000
  var step = 0
  var inBatch = false
  while !r.isAtEnd && step < 400 {
    step += 1
    let ids = pair.reference.ids
    let op: LayoutOperation
    let kind = r.byte()
    if kind == 248 {
      // SPEC §14 (byte 248): kinds, kinds' estimates and policies, own
      // estimates, snapshots (saved, restored) and places by points; and
      // bytes decoded as a snapshot's encoding (typed errors only: a
      // decoded one is restored into both).
      switch r.byte() % 9 {
      case 0, 1: op = .setKind(r.id(ids), [0, 1, 2, 3, 200][Int(r.byte()) % 5])
      case 2: op = .kindEstimate([0, 1, 2, 200][Int(r.byte()) % 4], r.extent())
      case 3: op = .kindPolicy([0, 1, 2][Int(r.byte()) % 3], r.byte() % 2 == 0 ? .fixed : .meanOfMeasured)
      case 4: op = .ownEstimate(r.id(ids), r.byte() % 4 == 0 ? nil : r.extent())
      case 5: op = .saveSnapshot
      case 6: op = .restoreSaved
      case 7: op = .scrollToDistance(r.id(ids), r.extent() * (r.byte() % 2 == 0 ? 1 : -1), r.anchor())
      default:
        // A saved encoding with bytes overwritten from the input, or raw input bytes.
        var bytes = [UInt8](pair.saved?.encoded() ?? Data("LZSS\u{1}".utf8))
        // Offsets of two bytes: an entry anywhere in the encoding (one byte
        // reached only its first 256).
        for _ in 0 ..< Int(r.byte() % 4) where !bytes.isEmpty { bytes[r.offset(bytes.count)] = r.byte() }
        if r.byte() % 3 == 0 { bytes = (0 ..< Int(r.byte() % 64)).map { _ in r.byte() } }
        if r.byte() % 4 == 0 { bytes.removeLast(min(bytes.count, Int(r.byte() % 8))) }
        do {
          op = .restoreSnapshot(try LayoutSnapshot<Int>(encoded: Data(bytes)))
        } catch {
          op = .saveSnapshot  // a typed error, as it must be
        }
        // The same overwrites of an encoding of `Codable`-only ids (each id
        // in its tagged binary form): a snapshot or a typed error.
        var coded = codableSnapshot
        for _ in 0 ..< Int(r.byte() % 4) { coded[r.offset(coded.count)] = r.byte() }
        if r.byte() % 4 == 0 { coded.removeLast(Int(r.byte()) % coded.count) }
        if let decoded = try? LayoutSnapshot<CodableID>(encoded: Data(coded)) {
          var target = codableLayout
          target.restore(decoded)
        }
      }
    } else if kind == 247 {
      // SPEC §13 (byte 247): section layouts, layout-wide and per header,
      // with hostile lane counts, spacings and alignments (each rejected
      // with a typed error, or laid out in both), and viewport widths
      // that change adaptive lane counts.
      let counts: [LaneCount] = [.fixed(1), .fixed(2), .fixed(3), .fixed(4), .fixed(0), .fixed(-3), .fixed(256),
                                 .fixed(257), .adaptive(minimum: r.extent()), .adaptive(minimum: 40)]
      let lanes = counts[Int(r.byte()) % counts.count]
      let spacing = r.byte() % 3 == 0 ? r.extent() : [0, 4, 8][Int(r.byte()) % 3]
      let alignment = ([0, 0.5, 1, -0.25, 1.5, .nan] as [CGFloat])[Int(r.byte()) % 6]
      let choice = r.byte() % 8
      var layout: SectionLayout?
      do throws(LazyStackError) {
        switch choice % 3 {
        case 0: layout = .list
        case 1: layout = .grid(try GridLayout(lanes: lanes, laneSpacing: spacing, alignment: alignment))
        default: layout = .masonry(try MasonryLayout(lanes: lanes, laneSpacing: spacing))
        }
      } catch {
        switch error {
        case .invalidLaneCount, .invalidExtent: break
        default: fatalError("a lane value rejected with \(error), not a lane error")
        }
      }
      if choice >= 6 {
        op = .laneViewport(CGSize(width: r.extent(), height: r.extent()))
      } else if let layout {
        op = choice >= 3 ? .headerLayout(r.id(ids), r.byte() % 5 == 0 ? nil : layout) : .sectionLayout(layout)
      } else {
        op = .measureVisible(Int(r.byte()))
      }
    } else if kind == 249 {
      // SPEC §15 (byte 249): a batch begins, or the open one ends (its
      // transition compared) or is undone as an error would (U3).
      op = inBatch ? .endBatch(abort: r.byte() % 4 == 0) : .beginBatch
      inBatch.toggle()
    } else if kind >= 250 {
      // SPEC §12 (bytes 250...255, which older inputs rarely hold): clock
      // steps (NaN, negative, infinite too), interactions, releases with
      // hostile velocities, animated scrolls with hostile durations.
      let times: [Double] = [1.0 / 60, 1.0 / 120, 0.05, 0.5, 3, 0, -1, .nan, .infinity]
      let animations: [ScrollAnimation] = [.easeInOut(duration: 0.15), .smooth, .spring(response: 0.05),
                                           .easeInOut(duration: 0), .easeInOut(duration: .nan),
                                           .spring(response: -1), .easeInOut(duration: .infinity),
                                           .easeInOut(duration: 1e9)]
      switch kind {
      case 250, 251: op = .advance(times[Int(r.byte()) % times.count])
      case 252: op = .beginInteraction
      case 253:
        let snaps: [ReferenceSnap?] = [nil, .paging, .viewAligned(.never), .viewAligned(.alwaysByFew)]
        op = .endInteraction(velocity: r.extent() * (r.byte() % 2 == 0 ? 40 : -40),
                             snap: snaps[Int(r.byte()) % snaps.count], fast: r.byte() % 2 == 0)
      default:
        let target: LayoutOperation
        switch r.byte() % 4 {
        case 0: target = .scrollToEdge(Edge.allCases[Int(r.byte()) % 4])
        case 1: target = .scrollToOffset(r.extent())
        default: target = .scrollToID(r.id(ids), r.anchor())
        }
        op = .animated(target, animations[Int(r.byte()) % animations.count])
      }
    } else {
    switch kind % 25 {
    case 0: op = .viewport(CGSize(width: r.extent(), height: r.extent()))
    case 1, 2: op = .userScroll(r.extent() * (r.byte() % 2 == 0 ? 1 : -1))
    case 3: op = .scrollToID(r.id(ids), r.anchor())
    case 4: op = .scrollToEdge(Edge.allCases[Int(r.byte()) % 4])
    case 5: op = .scrollToOffset(r.extent())
    case 6, 7: op = .measure(r.id(ids), r.extent())
    case 8: op = .estimate(r.extent())
    case 9: op = .policy(r.byte() % 2 == 0 ? .fixed : .meanOfMeasured)
    case 10:
      var list = ids
      switch r.byte() % 4 {
      case 0: list.reverse()
      case 1: list.removeAll { _ in r.byte() % 3 == 0 }
      case 2: list.insert(contentsOf: (0 ..< Int(r.byte() % 8)).map { _ in nextID += 1; return nextID }, at: 0)
      default: if let f = list.first { list.append(f) }
      }
      op = .snapshot(list)
    case 11:
      // Now and then many rows at once (a first large insert into an empty
      // layout once corrupted the heap: the id index grew for room wrongly).
      let k = r.byte() % 8 == 0 ? 1 + Int(r.byte() % 120) : 1 + Int(r.byte() % 5)
      var new = (0 ..< k).map { _ in nextID += 1; return nextID }
      if r.byte() % 9 == 0 { new.append(r.id(ids)) }
      op = .insert(new, at: ids.isEmpty ? 0 : Int(r.byte()) % (ids.count + 1))
    case 12:
      op = .removeOffsets(ids.isEmpty ? [] : IndexSet((0 ..< 1 + Int(r.byte() % 4)).map { _ in Int(r.byte()) % ids.count }))
    case 13: op = .removeIDs([r.id(ids), r.id(ids)])
    case 14:
      op = ids.isEmpty ? .removeOffsets([]) :
        .move(IndexSet((0 ..< 1 + Int(r.byte() % 3)).map { _ in Int(r.byte()) % ids.count }), to: Int(r.byte()) % (ids.count + 1))
    case 15:
      var list = ids
      if !list.isEmpty { list.remove(at: Int(r.byte()) % list.count) }
      nextID += 1
      list.insert(nextID, at: Int(r.byte()) % (list.count + 1))
      op = .difference(list)
    case 16: op = .scrollAnchor(r.anchor())
    case 17:
      let roles: [ScrollAnchorRole?] = [nil, .initialOffset, .sizeChanges, .alignment]
      op = .defaultAnchor(r.anchor(), roles[Int(r.byte()) % 4])
    case 18: op = .overscan([.none, .rows(3), .points(50), .points(.nan), .rows(-2)][Int(r.byte()) % 5])
    case 20: op = r.byte() % 3 == 0 ? .invalidateAll : .invalidate(r.id(ids))
    case 21: op = .measureVisible(Int(r.byte()))
    case 22, 23: op = .setRole(r.id(ids), [RowRole.sectionHeader, .sectionFooter, .row][Int(r.byte()) % 3])  // SPEC §11
    case 24: op = .pinnedViews(PinnedScrollableViews(rawValue: UInt32(r.byte() % 4)))
    default:
      let limits: [ViewAlignedScrollTargetBehavior.LimitBehavior?] = [nil, .automatic, .always, .alwaysByOne, .alwaysByFew, .never]
      op = .snap(release: r.extent(), velocity: r.extent() * (r.byte() % 2 == 0 ? 40 : -40), limit: limits[Int(r.byte()) % 6])
    }
    }
    // Standard error, unbuffered: the lines before a crash are not lost.
    func line(_: Int, _ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }
    if trace { line(step, "step \(step): \(op)") }
    let problem = pair.step(op)
    if trace { traceState(of: pair, step: step, to: line) }
    if let problem { fatalError("step \(step) \(op): \(problem)") }
    pair.core._checkInvariants()
    if let problem = pair.difference(probes: [r.extent(), CGFloat(r.int(-100 ... 5000))]) {
      fatalError("step \(step) \(op): \(problem)")
    }
  }
  return 0
}
