import Foundation
import LazyStackCore
import LazyStackTestSupport

// How each scenario is set up: `prepare` picks one small function a
// scenario (or a family that shares its setup). Each draws its random
// inputs before the timing, from the generator `prepare` seeds by scenario
// and size, in the same order for both variants and both sides of a
// paired comparison.

/// Sets scenario `name` up for `n` rows of variant `S`; the inputs come from
/// a generator seeded by the scenario and size, so two processes (or two
/// versions of the library) prepare the same inputs.
func prepare<S: BenchSubject>(_ type: S.Type, _ n: Int, _ name: String) -> Prepared {
  var rng = SeededRNG(seed: UInt64(n) &* 31 &+ UInt64(truncatingIfNeeded: name.utf8.reduce(0) { $0 &* 131 &+ Int($1) }))
  switch name {
  case "build", "build_indexed", "build_range", "build_shuffled": return prepareBuild(S.self, n, name, &rng)
  case "memory", "memory_ordered": return prepareMemory(S.self, n, name, &rng)
  case "grid_measure", "grid_measure_visible", "grid_insert", "grid_move", "grid_kind_estimate_change", "grid_scroll",
       "grid_estimate_change", "masonry_measure", "masonry_measure_visible", "masonry_measure_mean", "masonry_insert",
       "masonry_move", "masonry_move_above_headers", "masonry_move_header", "masonry_apply", "masonry_estimate_change", "masonry_scroll":
    return prepareLanes(S.self, n, name, &rng)
  case "reflow": return prepareReflow(S.self, n, name, &rng)
  case "masonry_snapshot_restore": return prepareMasonryRestore(S.self, n, name, &rng)
  case "frame", "frame_up", "lanes_frame": return prepareFrame(S.self, n, name, &rng)
  default: break
  }
  let box = Box(prepared(S.self, n, &rng))
  switch name {
  case "offset_to_index": return prepareOffsetToIndex(box, &rng)
  case "index_to_offset": return prepareIndexToOffset(box, n, &rng)
  case "measure", "measure_read", "measure_visible": return prepareMeasure(box, n, name, &rng)
  case "index_to_offset_after_measure": return prepareLookupAfterMeasure(box, n, name, &rng)
  case "estimate_change": return prepareEstimateChange(box, name)
  case "scroll", "pinned_rows": return prepareScroll(box, name, &rng)
  case "jump": return prepareJump(box, n, name, &rng)
  case "animate_frame": return prepareAnimateFrame(box, n, name, &rng)
  case "reorder_move": return prepareMove(box, n, &rng)
  case "reorder_prepend", "prepend_read": return preparePrepend(box, n, name)
  case "reorder_shuffle": return prepareShuffle(box, n, &rng)
  case "resize_viewport": return prepareResize(box)
  case "invalidate_all": return prepareInvalidateAll(box)
  case "paging", "view_aligned": return prepareSnapping(box, name, &rng)
  case "batch_transition": return prepareBatch(box, n, &rng)
  case "kind_estimate_change": return prepareKindEstimateChange(box, n)
  case "snapshot_restore", "snapshot_restore_hashed": return prepareSnapshotRestore(S.self, box, n, name, &rng)
  default: fatalError("unknown scenario \(name)")
  }
}

/// Walks a table of 4,096 prepared inputs cyclically: the timed closures'
/// index (a class, so no dynamic exclusivity check on the timed path).
final class Cursor {
  @exclusivity(unchecked) private var value = 0
  @inline(__always) func next() -> Int {
    value = (value &+ 1) & 4095
    return value
  }
}

/// build, build_indexed, build_range, build_shuffled: the ids exist before
/// the timing (a UI has them); the layout built in one operation is
/// released in the untimed reset.
func prepareBuild<S: BenchSubject>(_: S.Type, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let lookups = table { Int.random(in: 0 ..< n, using: &rng) }
  var ids = Array(0 ..< n)
  if name == "build_shuffled" { ids.shuffle(using: &rng) }
  let built = Box<S?>(nil)
  let cursor = Cursor()
  return Prepared(operation: {
    var subject = name == "build_range" ? try! S(range: n, estimate: 44) : try! S(ids: ids, estimate: 44)
    subject.viewportSize = viewport
    for row in subject.visibleIndices { blackHole(subject.frame(at: row)) }
    if name != "build" { blackHole(subject.index(of: lookups[cursor.next()])) }
    built.value = subject
  }, reset: { built.value = nil })
}

/// memory (random order: the hash index), memory_ordered (ascending ids).
func prepareMemory<S: BenchSubject>(_: S.Type, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  var ids = Array(0 ..< n)
  if name == "memory" { ids.shuffle(using: &rng) }
  var subject = try! S(ids: ids, estimate: 44)
  subject.viewportSize = viewport
  return Prepared(bytesPerRow: Double(subject.heapBytes) / Double(n))
}

func prepareOffsetToIndex<S: BenchSubject>(_ box: Box<S>, _ rng: inout SeededRNG) -> Prepared {
  let height = box.value.contentSize.height
  let offsets = table { CGFloat.random(in: 0 ..< height, using: &rng) }
  let cursor = Cursor()
  return Prepared(operation: { box.with { blackHole($0.index(atOffset: offsets[cursor.next()])) } })
}

func prepareIndexToOffset<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ rng: inout SeededRNG) -> Prepared {
  let rows = table { Int.random(in: 0 ..< n, using: &rng) }
  let cursor = Cursor()
  return Prepared(operation: { box.with { blackHole($0.frame(at: rows[cursor.next()])) } })
}

/// measure, and measure_read (then what a UI reads to lay out the frame);
/// measure_visible: a real measurement of a random row on screen (at or
/// below the kept row too: the search for its new place is timed), then
/// the same reads.
func prepareMeasure<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let measure = name == "measure_visible" ? visibleMeasurements(S.self, &rng) : realMeasurements(box.value, n, &rng)
  let tally = Tally(name)
  let read = name != "measure"
  return Prepared(operation: {
    box.with { layout in
      let result = measure(&layout)
      tally.record(changed: result.isApplied)
      blackHole(result)
      if read {
        blackHole(layout.contentSize)
        blackHole(layout.visibleIndices)
      }
    }
  }, tally: tally)
}

/// index_to_offset_after_measure: the case a lazily rebuilt prefix array
/// pays O(n) for: every lookup follows a change above it.
func prepareLookupAfterMeasure<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let measure = realMeasurements(box.value, n, &rng)
  let rows = table { Int.random(in: 0 ..< n, using: &rng) }
  let tally = Tally(name)
  let cursor = Cursor()
  return Prepared(operation: {
    box.with { layout in
      tally.record(changed: measure(&layout).isApplied)
      blackHole(layout.frame(at: rows[cursor.next()]))
    }
  }, tally: tally)
}

/// estimate_change: the estimate alternates between 44 and 46 pt.
func prepareEstimateChange<S: BenchSubject>(_ box: Box<S>, _ name: String) -> Prepared {
  let flip = Box(false)
  let size = Box(box.value.contentSize.height)
  let tally = Tally(name)
  return Prepared(operation: {
    box.with { layout in
      flip.value.toggle()
      blackHole(try! layout.setEstimatedExtent(flip.value ? 46 : 44))
      let changed = layout.contentSize.height
      tally.record(changed: changed != size.value)
      size.value = changed
    }
  }, tally: tally)
}

/// scroll (the frame: a small scroll, the visible range, the tracked id);
/// pinned_rows (the same scroll in sections of 100 rows under a pinned
/// header, then where the pinned header is drawn).
func prepareScroll<S: BenchSubject>(_ box: Box<S>, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let pinned = name == "pinned_rows"
  if pinned {
    box.with { layout in
      layout.makeSections(every: 100)
      layout.pinnedViews = .sectionHeaders
    }
  }
  let scroll = smallScrolls(S.self, from: box.value.contentOffset.y, height: box.value.contentSize.height, &rng)
  let tally = Tally(name)
  let cursor = Cursor()
  return Prepared(operation: {
    box.with { layout in
      let moved = scroll(&layout, cursor.next())
      if pinned {
        let rows = layout.pinnedRows
        blackHole(rows)
        tally.record(changed: moved && !rows.isEmpty)
      } else {
        blackHole(layout.visibleIndices)
        blackHole(layout.trackedID)
        tally.record(changed: moved)
      }
    }
  }, tally: tally)
}

func prepareJump<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let ids = table { Int.random(in: 0 ..< n, using: &rng) }
  let tally = Tally(name)
  let cursor = Cursor()
  return Prepared(operation: {
    box.with { layout in
      let before = layout.contentOffset.y
      layout.scrollTo(id: ids[cursor.next()], anchor: .top)
      tally.record(changed: layout.contentOffset.y != before)
    }
  }, tally: tally)
}

/// animate_frame: animated scrolls of 10 s (600 frames at 60 Hz) between
/// rows in the first and the last quarter, so every frame moves; each timed
/// call is one frame: advance the clock by 1/60 s, then measure one row on
/// screen with an extent no call gave it before (a real change, which moves
/// the target: the motion re-resolves it). A call whose animation ended
/// starts the next.
func prepareAnimateFrame<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let targets = table { k in Int.random(in: 0 ..< Swift.max(1, n / 4), using: &rng) + (k & 1 == 0 ? 0 : n - n / 4) }
  let frame = Box((time: 0.0, animation: 0, count: 0))
  let tally = Tally(name)
  box.with { $0.animate(to: targets[0], duration: 10, at: 0) }
  return Prepared(operation: {
    box.with { layout in
      frame.value.time += 1.0 / 60
      frame.value.count &+= 1
      let before = layout.contentOffset.y
      var moving = layout.advance(to: frame.value.time)
      let moved = layout.contentOffset.y != before
      let visible = layout.visibleIndices
      let row = visible.lowerBound + frame.value.count % Swift.max(1, visible.count)
      let extent = CGFloat(20 + frame.value.count % 1447) + 0.25
      let measured = layout.setMeasuredExtent(extent, for: row).isApplied  // ids are 0 ..< n
      if !moving {
        frame.value.animation = (frame.value.animation &+ 1) & 4095
        layout.animate(to: targets[frame.value.animation], duration: 10, at: frame.value.time)
        moving = true
      }
      tally.record(changed: moved && measured && moving)
    }
  }, tally: tally)
}

/// reorder_move: never to where the row is (destination s or s + 1 would
/// be no move).
func prepareMove<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ rng: inout SeededRNG) -> Prepared {
  let sources = table { Int.random(in: 0 ..< Swift.max(1, n / 4), using: &rng) }
  let targets = sources.map { s in
    var t = s
    while t == s || t == s + 1 { t = Int.random(in: 0 ... n, using: &rng) }
    return t
  }
  let cursor = Cursor()
  return Prepared(operation: {
    let k = cursor.next()
    box.with { blackHole($0.move(fromOffsets: IndexSet(integer: sources[k]), toOffset: targets[k])) }
  })
}

/// reorder_prepend, prepend_read: the new ids exist before the timing (a
/// UI has them); each timed call inserts 100 fresh ones, removed in the
/// untimed reset.
func preparePrepend<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ name: String) -> Prepared {
  let batches = (0 ..< 64).map { k in Array(n + 100 * k ..< n + 100 * (k + 1)) }
  let k = Box(-1)
  let removal = IndexSet(integersIn: 0 ..< 100)
  let tally = Tally(name)
  let read = name == "prepend_read"
  return Prepared(operation: {
    k.value = (k.value &+ 1) & 63
    box.with { layout in
      let count = layout.count
      blackHole(try! layout.insert(batches[k.value], at: 0))
      tally.record(changed: layout.count == count + 100)
      if read {
        blackHole(layout.contentSize)
        blackHole(layout.visibleIndices)
      }
    }
  }, reset: { box.with { blackHole($0.remove(atOffsets: removal)) } }, tally: tally)
}

/// reorder_shuffle: two shuffled orders of every id, alternately.
func prepareShuffle<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ rng: inout SeededRNG) -> Prepared {
  var a = Array(0 ..< n)
  a.shuffle(using: &rng)
  var b = a
  b.shuffle(using: &rng)
  let flip = Box(false)
  return Prepared(operation: {
    flip.value.toggle()
    box.with { blackHole(try! $0.update(ids: flip.value ? a : b)) }
  })
}

/// resize_viewport: two viewport heights, alternately.
func prepareResize<S: BenchSubject>(_ box: Box<S>) -> Prepared {
  let flip = Box(false)
  return Prepared(operation: {
    flip.value.toggle()
    box.with { layout in
      layout.viewportSize = flip.value ? CGSize(width: 390, height: 600) : viewport
      blackHole(layout.contentOffset)
    }
  })
}

/// invalidate_all: every row measured before each call (untimed), so every
/// call invalidates n rows; the reading place is kept (S12 a).
func prepareInvalidateAll<S: BenchSubject>(_ box: Box<S>) -> Prepared {
  let remeasure = { box.with { $0._measureAllRows { CGFloat(20 + $0 % 181) } } }
  remeasure()
  return Prepared(operation: {
    box.with { layout in
      layout.invalidateAllMeasurements()
      blackHole(layout.lastCorrection)
    }
  }, reset: remeasure)
}

/// batch_transition: 100 edits a batch, half on screen and half anywhere:
/// 25 inserts of one new row, 25 removals of one row, 25 moves of one row
/// and 25 real measurements (a new extent every time), then the
/// transition. The row count stays n; new ids come from a counter. "On
/// screen" is the screen when the batch begins, read once: the UI knows
/// it, and reading it again before every edit would time 100 reads the
/// scenario's name does not say (until 2026-11-28 it did: about a tenth
/// of the instructions, `Benchmarks/RESULTS.md`).
func prepareBatch<S: BenchSubject>(_ box: Box<S>, _ n: Int, _ rng: inout SeededRNG) -> Prepared {
  // Each edit: a kind (0 insert, 1 remove, 2 move, 3 measure), whether it
  // is on screen, where (a fraction of the screen or of the list), where
  // to (for a move) and an extent.
  let edits = table { k in
    (kind: k % 4, onScreen: Int.random(in: 0 ..< 2, using: &rng) == 0, at: Double.random(in: 0 ..< 1, using: &rng),
     to: Double.random(in: 0 ..< 1, using: &rng), extent: CGFloat(Int.random(in: 20 ... 200, using: &rng)))
  }
  let next = Box(n)
  let cursor = Cursor()
  let tally = Tally("batch_transition")
  return Prepared(operation: {
    box.with { layout in
      let rows = layout.batch { layout in
        let visible = layout.visibleIndices
        for _ in 0 ..< 100 {
          let e = edits[cursor.next()]
          let count = layout.count
          func place(_ f: Double, _ limit: Int) -> Int {
            e.onScreen && !visible.isEmpty
              ? Swift.min(limit - 1, visible.lowerBound + Int(f * Double(visible.count)))
              : Int(f * Double(limit))
          }
          switch e.kind {
          case 0:
            blackHole(try! layout.insert([next.value], at: place(e.at, count + 1)))
            next.value &+= 1
          case 1:
            blackHole(layout.remove(atOffsets: IndexSet(integer: place(e.at, count))))
          case 2:
            blackHole(layout.move(fromOffsets: IndexSet(integer: place(e.at, count)), toOffset: place(e.to, count + 1)))
          default:
            let id = layout.id(at: place(e.at, count))
            blackHole(layout.setMeasuredExtent(e.extent + CGFloat(next.value & 1) / 4, for: id))
            next.value &+= 1
          }
        }
      }
      tally.record(changed: rows > 0)
    }
  }, tally: tally)
}

/// kind_estimate_change: every row has one of 8 kinds (its id mod 8, given
/// untimed); a call gives kind `c mod 8` a new estimate (kind 0's is the
/// layout's), stabilized. Consecutive calls to a kind give it values 8 pt
/// apart, so every call moves rows (checked by the content size).
func prepareKindEstimateChange<S: BenchSubject>(_ box: Box<S>, _ n: Int) -> Prepared {
  var kinds: [Int: UInt8] = [:]
  kinds.reserveCapacity(n)
  for id in 0 ..< n where id % 8 != 0 { kinds[id] = UInt8(id % 8) }
  box.with { $0._setKinds(kinds) }
  let step = Box(0)
  let size = Box(box.value.contentSize.height)
  let tally = Tally("kind_estimate_change")
  return Prepared(operation: {
    box.with { layout in
      step.value &+= 1
      let kind = UInt8(step.value & 7)
      let extent = CGFloat(30 + (step.value >> 3) % 16 * 8 + Int(kind))
      blackHole(kind == 0 ? try! layout.setEstimatedExtent(extent) : try! layout.setEstimatedExtent(extent, forKind: kind))
      let changed = layout.contentSize.height
      tally.record(changed: changed != size.value)
      size.value = changed
    }
  }, tally: tally)
}

/// snapshot_restore, snapshot_restore_hashed: a snapshot of n rows with
/// every tenth measured (20–200 pt), its place in the middle, restored into
/// a fresh layout of the same n estimated rows (made untimed before each
/// call), as a relaunch with the same data does: ids 0 ..< n in order
/// (found without a hash index), or in random order (`_hashed`: found
/// through the hash index). The entries are in row order, as `snapshot()`
/// lists them.
func prepareSnapshotRestore<S: BenchSubject>(_: S.Type, _ box: Box<S>, _ n: Int, _ name: String,
                                             _ rng: inout SeededRNG) -> Prepared {
  let ids = name == "snapshot_restore_hashed" ? Array(0 ..< n).shuffled(using: &rng) : Array(0 ..< n)
  var snapshot = LayoutSnapshot<Int>()
  snapshot._measuredIDs = stride(from: 0, to: n, by: 10).map { ids[$0] }
  snapshot._measuredUnits = snapshot._measuredIDs.map { _ in Int32(Int.random(in: 20 ... 200, using: &rng) * 256) }
  snapshot.kindSettings = [.init(kind: 0, estimate: 44, policy: .fixed)]
  snapshot.place = .init(id: ids[n / 2], distance: 12, anchor: .top)
  let fresh = { () -> S in
    var layout = try! S(ids: ids, estimate: 44)
    layout.viewportSize = viewport
    return layout
  }
  box.value = fresh()
  return timedRestores(of: snapshot, into: box, fresh: fresh, name)
}

/// paging, view_aligned: a release offset and velocity a call.
func prepareSnapping<S: BenchSubject>(_ box: Box<S>, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let height = box.value.contentSize.height
  let releases = table { CGFloat(Int.random(in: 0 ..< Swift.max(1, Int(height)), using: &rng)) }
  let velocities = table { CGFloat(Int.random(in: -4000 ... 4000, using: &rng)) }
  let paging = name == "paging"
  let cursor = Cursor()
  return Prepared(operation: {
    let k = cursor.next()
    box.with { layout in
      blackHole(paging ? layout.pagingTarget(release: releases[k], velocity: velocities[k])
                       : layout.viewAlignedTarget(release: releases[k], velocity: velocities[k]))
    }
  })
}

/// n rows in one section of `layout`, every `every`-th row measured at
/// 20–200 pt, all at once (a snapshot restored: the naive variant pays
/// O(n) for each single measurement), the viewport set.
func lanePrepared<S: BenchSubject>(_: S.Type, _ n: Int, _ layout: SectionLayout, every: Int,
                                   _ rng: inout SeededRNG) -> S {
  var subject = try! S(count: n, estimate: 44)
  subject.viewportSize = viewport
  subject.scrollAnchor = benchAnchor()
  var snapshot = LayoutSnapshot<Int>()
  snapshot._measuredIDs = Array(stride(from: 0, to: n, by: every))
  snapshot._measuredUnits = snapshot._measuredIDs.map { _ in Int32(Int.random(in: 20 ... 200, using: &rng) * 256) }
  snapshot.kindSettings = [.init(kind: 0, estimate: 44, policy: .fixed)]
  subject.restore(snapshot)
  subject.sectionLayout = layout
  return subject
}

/// grid_* and masonry_* (SPEC §13): n rows in one section of 4 lanes, 10 %
/// of them measured at 20–200 pt (every row for grid_insert), the viewport
/// in the middle. `measure` times a real measurement of a random row above
/// the kept row, then what a UI reads next (contentSize, visibleRows);
/// `measure_visible` a real measurement of a random row on screen, as
/// `measureVisibleRows` makes it, then the same reads; `insert` one
/// new row at a random index (in a grid every later cell moves to the next
/// lane), then the same reads; `move` one row from a random index to
/// another (in a grid the cells between move a lane; in masonry the row
/// keeps its lane, L4), then the same reads; `apply` a difference of a
/// removal, a move and an insert, then the same reads; `kind_estimate_change` a new
/// estimate for the kind of 16 estimated rows spread over the grid (each
/// taller than any measured row, so their lines grow or shrink), then the
/// same reads; `scroll` a small user scroll, then visibleRows and the
/// tracked id.
func prepareLanes<S: BenchSubject>(_: S.Type, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let masonry = name.hasPrefix("masonry")
  let layout: SectionLayout = masonry ? .masonry(try! MasonryLayout(lanes: .fixed(4)))
    : .grid(try! GridLayout(lanes: .fixed(4)))
  var subject = lanePrepared(S.self, n, layout, every: name == "grid_insert" ? 1 : 10, &rng)
  subject.userScroll(to: CGPoint(x: 0, y: subject.contentSize.height / 2))
  let box = Box(subject)
  let tally = Tally(name)
  if name.hasSuffix("_measure") || name.hasSuffix("_measure_visible") {
    let measure = name.hasSuffix("_visible") ? visibleMeasurements(S.self, &rng) : realMeasurements(box.value, n, &rng)
    return Prepared(operation: {
      box.with { layout in
        tally.record(changed: measure(&layout).isApplied)
        blackHole(layout.contentSize)
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name.hasSuffix("_insert") {
    let indices = table { Int.random(in: 0 ..< n, using: &rng) }
    let next = Box(n)
    let cursor = Cursor()
    return Prepared(operation: {
      next.value &+= 1
      let id = next.value
      box.with { layout in
        let count = layout.count
        blackHole(try! layout.insert([id], at: indices[cursor.next()]))
        tally.record(changed: layout.count == count + 1)
        blackHole(layout.contentSize)
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name.hasSuffix("_move") {
    let moves = table { () -> (from: Int, to: Int) in
      let from = Int.random(in: 0 ..< n, using: &rng)
      var to = from
      while to == from || to == from + 1 { to = Int.random(in: 0 ... n, using: &rng) }
      return (from, to)
    }
    let cursor = Cursor()
    return Prepared(operation: {
      let (from, to) = moves[cursor.next()]
      box.with { layout in
        let id = layout.id(at: from)
        blackHole(layout.move(fromOffsets: IndexSet(integer: from), toOffset: to))
        tally.record(changed: layout.id(at: from < to ? to - 1 : to) == id)
        blackHole(layout.contentSize)
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name == "masonry_move_above_headers" {
    // Headers at every eighth of the rows, from row 0: no row is above the
    // first. A call moves a plain row up there (it starts a section without
    // a header, L1) or, the next, back (that section empties and goes), so
    // the rows are as set up after every second call.
    let every = Swift.max(n / 8, 2)
    box.with { $0.makeSections(every: every) }
    let rows = table { () -> Int in
      var row = 0
      while row % every == 0 { row = Int.random(in: 1 ..< n, using: &rng) }
      return row
    }
    let cursor = Cursor()
    let away = Box(-1)  // the row now at the top, moved from there; -1: none
    return Prepared(operation: {
      box.with { layout in
        if away.value < 0 {
          let row = rows[cursor.next()]
          let id = layout.id(at: row)
          blackHole(layout.move(fromOffsets: IndexSet(integer: row), toOffset: 0))
          tally.record(changed: layout.id(at: 0) == id)
          away.value = row
        } else {
          let id = layout.id(at: 0)
          blackHole(layout.move(fromOffsets: IndexSet(integer: 0), toOffset: away.value &+ 1))
          tally.record(changed: layout.id(at: away.value) == id)
          away.value = -1
        }
        blackHole(layout.contentSize)
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name == "masonry_move_header" {
    // Headers every 256 rows. A call moves a random header (not the first)
    // 100 rows down into its own section, whose first 100 rows join the
    // section before (H2, L1), or, the next, back: the two sections around
    // it are laid out again, not the list (L8).
    let every = Swift.min(256, Swift.max(n / 4, 2))
    box.with { layout in
      // Marked in a list (each header splits the long section after it:
      // in lanes O(n) each), then laid out in lanes once.
      let lanes = layout.sectionLayout
      layout.sectionLayout = .list
      layout.makeSections(every: every)
      layout.sectionLayout = lanes
    }
    let headers = Swift.max(1, (n &- 1) / every)
    let rows = table { () -> Int in every * Int.random(in: 1 ... headers, using: &rng) }
    let cursor = Cursor()
    let away = Box(-1)  // where the header moved from; -1: it is there
    let moved = Box(0)  // where it is while away
    return Prepared(operation: {
      box.with { layout in
        if away.value < 0 {
          let row = Swift.min(rows[cursor.next()], layout.count &- 1)
          let to = Swift.min(row &+ 101, layout.count)
          let id = layout.id(at: row)
          blackHole(layout.move(fromOffsets: IndexSet(integer: row), toOffset: to))
          tally.record(changed: layout.id(at: to &- 1) == id)
          away.value = row
          moved.value = to &- 1
        } else {
          let id = layout.id(at: moved.value)
          blackHole(layout.move(fromOffsets: IndexSet(integer: moved.value), toOffset: away.value))
          tally.record(changed: layout.id(at: away.value) == id)
          away.value = -1
        }
        blackHole(layout.contentSize)
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name.hasSuffix("_apply") {
    // Old offsets: a row removed, a row moved (removed and inserted again:
    // it keeps its lane, L4); new offsets: where the moved row and a new
    // one land. Every call changes the rows (the tally checks the move).
    let edits = table { () -> (removed: Int, from: Int, to: Int, new: Int) in
      let removed = Int.random(in: 0 ..< n, using: &rng)
      var from = removed
      while from == removed { from = Int.random(in: 0 ..< n, using: &rng) }
      let to = Int.random(in: 0 ..< n, using: &rng)
      var new = to
      while new == to { new = Int.random(in: 0 ..< n, using: &rng) }
      return (removed, from, to, new)
    }
    let next = Box(2 * n)
    let cursor = Cursor()
    return Prepared(operation: {
      let e = edits[cursor.next()]
      next.value &+= 1
      let newID = next.value
      box.with { layout in
        let moved = layout.id(at: e.from)
        let difference = CollectionDifference<Int>([
          .remove(offset: e.removed, element: layout.id(at: e.removed), associatedWith: nil),
          .remove(offset: e.from, element: moved, associatedWith: nil),
          .insert(offset: e.to, element: moved, associatedWith: nil),
          .insert(offset: e.new, element: newID, associatedWith: nil),
        ])!
        blackHole(try! layout.apply(difference))
        tally.record(changed: layout.id(at: e.to) == moved && layout.id(at: e.new) == newID)
        blackHole(layout.contentSize)
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name == "grid_estimate_change" || name == "masonry_estimate_change" {
    // Kind 0's estimate, which the 90 % of rows not measured follow (X2):
    // 44 and 46 pt in turn, so each call moves every one of them.
    let flip = Box(false)
    let size = Box(box.value.contentSize.height)
    return Prepared(operation: {
      box.with { layout in
        flip.value.toggle()
        blackHole(try! layout.setEstimatedExtent(flip.value ? 46 : 44))
        let height = layout.contentSize.height
        tally.record(changed: height != size.value)
        size.value = height
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name == "masonry_measure_mean" {
    // `.meanOfMeasured` (X2, K3): a measurement moves the mean, and every
    // row that follows it.
    box.with { $0.estimatePolicy = .meanOfMeasured }
    let rows = table { Int.random(in: 0 ..< n, using: &rng) }
    let cursor = Cursor()
    let tall = Box([Bool](repeating: false, count: n))
    let mean = Box(box.value.currentEstimate)
    return Prepared(operation: {
      box.with { layout in
        // 4,000 pt, or 1 pt where the row had 4,000 (a tall card, or one
        // cut short): each call moves the sum by 4,000 pt at least, and so
        // the mean of even 100,000 measured rows by more than a unit.
        let row = rows[cursor.next()]
        let units = tall.value[row] ? 256 : 4_000 * 256
        tall.value[row].toggle()
        let applied = layout.setMeasuredExtent(CGFloat(units) / 256, for: layout.id(at: row)).isApplied
        // The mean moved (a row in a lane shorter than the longest may
        // leave the content size as it was).
        tally.record(changed: applied && layout.currentEstimate != mean.value)
        mean.value = layout.currentEstimate
        blackHole(layout.contentSize)
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  if name.hasSuffix("_kind_estimate_change") {
    // 16 rows of kind 1, spread over the grid, estimated; their estimate
    // taller than any measured row, so each change moves their lines.
    var kinds: [Int: UInt8] = [:]
    for r in 0 ..< 16 { kinds[Swift.min(n - 1, r * n / 160 * 10 + 5)] = 1 }  // not a tenth row: estimated
    box.with { $0._setKinds(kinds) }
    let step = Box(0)
    let size = Box(box.value.contentSize.height)
    return Prepared(operation: {
      box.with { layout in
        step.value &+= 1
        blackHole(try! layout.setEstimatedExtent(CGFloat(220 + step.value % 64), forKind: 1))
        let height = layout.contentSize.height
        tally.record(changed: height != size.value)
        size.value = height
        blackHole(layout.visibleRows)
      }
    }, tally: tally)
  }
  let scroll = smallScrolls(S.self, from: box.value.contentOffset.y, height: box.value.contentSize.height, &rng)
  let cursor = Cursor()
  return Prepared(operation: {
    box.with { layout in
      let moved = scroll(&layout, cursor.next())
      blackHole(layout.visibleRows)
      blackHole(layout.trackedID)
      tally.record(changed: moved)
    }
  }, tally: tally)
}

/// masonry_snapshot_restore (SPEC C2, L4): a relaunch of a masonry feed.
/// n rows laid out in a 4-lane masonry while estimated (round robin), then
/// every tenth measured at 20–200 pt (measurements never move a row to
/// another lane: the masonry never re-flowed), scrolled to the middle; its
/// snapshot (taken untimed) restored into a fresh layout of the same ids
/// with the same section layout (made untimed before each call).
func prepareMasonryRestore<S: BenchSubject>(_: S.Type, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let layout = SectionLayout.masonry(try! MasonryLayout(lanes: .fixed(4)))
  let fresh = { () -> S in
    var subject = try! S(count: n, estimate: 44)
    subject.viewportSize = viewport
    subject.scrollAnchor = benchAnchor()
    subject.sectionLayout = layout
    return subject
  }
  var saved = fresh()
  var measured = LayoutSnapshot<Int>()
  measured._measuredIDs = Array(stride(from: 0, to: n, by: 10))
  measured._measuredUnits = measured._measuredIDs.map { _ in Int32(Int.random(in: 20 ... 200, using: &rng) * 256) }
  measured.kindSettings = [.init(kind: 0, estimate: 44, policy: .fixed)]
  saved.restore(measured)
  saved.userScroll(to: CGPoint(x: 0, y: saved.contentSize.height / 2))
  let snapshot = saved.snapshot()
  return timedRestores(of: snapshot, into: Box(fresh()), fresh: fresh, name)
}

/// A call restores `snapshot` into the fresh layout in `box` (a real
/// restore: its place lands off the top); the untimed reset makes a fresh
/// one again.
func timedRestores<S: BenchSubject>(of snapshot: LayoutSnapshot<Int>, into box: Box<S>, fresh: @escaping () -> S,
                                    _ name: String) -> Prepared {
  let tally = Tally(name)
  return Prepared(operation: {
    box.with { layout in
      layout.restore(snapshot)
      tally.record(changed: layout.contentOffset.y != 0)
    }
  }, reset: { box.value = fresh() }, tally: tally)
}

/// reflow (SPEC L1, L2): a masonry section of n measured rows (10 %) goes
/// from 4 lanes to 5 and back, one change a call, the kept row in place.
func prepareReflow<S: BenchSubject>(_: S.Type, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let four = SectionLayout.masonry(try! MasonryLayout(lanes: .fixed(4)))
  let five = SectionLayout.masonry(try! MasonryLayout(lanes: .fixed(5)))
  var subject = lanePrepared(S.self, n, four, every: 10, &rng)
  subject.userScroll(to: CGPoint(x: 0, y: subject.contentSize.height / 2))
  let box = Box(subject)
  let tally = Tally(name)
  return Prepared(operation: {
    box.with { layout in
      let target = layout.sectionLayout == four ? five : four
      let height = layout.contentSize.height
      layout.sectionLayout = target
      // Four lanes and five stack the same rows to other heights: a
      // re-flow that did nothing leaves the content's height as it was.
      tally.record(changed: layout.contentSize.height != height)
      blackHole(layout.visibleRows)
    }
  }, tally: tally)
}

/// frame, frame_up and lanes_frame (SPEC F8): one UI frame as a UI pays it,
/// in a list or a 4-lane masonry of n rows, 10 % of them measured
/// beforehand: a user scroll forward (frame_up: back, a chat read upward)
/// by 1 to 40 pt, the rows that came into view measured
/// through the three-argument `measureVisibleRows` (each at its proposed
/// width), `rowsToDraw` with the frame of each, `takeEdgeEvents`,
/// `scrollIndicator` and `prefetchRows` of one viewport ahead. Past the
/// end the frame starts again from the other end with every measurement
/// invalidated, so rows keep coming into view unmeasured at every size
/// (at 1e3 rows that happens once in about a thousand frames).
func prepareFrame<S: BenchSubject>(_: S.Type, _ n: Int, _ name: String, _ rng: inout SeededRNG) -> Prepared {
  let layout: SectionLayout = name == "lanes_frame" ? .masonry(try! MasonryLayout(lanes: .fixed(4))) : .list
  var subject = lanePrepared(S.self, n, layout, every: 10, &rng)
  subject.userScroll(to: CGPoint(x: 0, y: subject.contentSize.height / 2))
  let box = Box(subject)
  let up = name == "frame_up"
  let deltas = table { CGFloat(Int.random(in: 1 ... 40, using: &rng) * (up ? -1 : 1)) }
  let cursor = Cursor()
  let tally = Tally(name)
  return Prepared(operation: {
    box.with { layout in
      let before = layout.contentOffset.y
      var y = before + deltas[cursor.next()]
      if up ? before <= 0 : before >= layout.contentSize.height - viewport.height {
        layout.invalidateAllMeasurements()
        y = up ? .infinity : 0
      }
      layout.userScroll(to: CGPoint(x: 0, y: y))
      layout.measureVisibleRows { _, id, proposal in
        CGFloat(20 + (id &* 40_503) % 180) + (400 - Swift.min(proposal.width, 400)) / 4
      }
      for i in layout.rowsToDraw { blackHole(layout.frame(at: i)) }
      blackHole(layout.takeEdgeEvents())
      blackHole(layout.scrollIndicator)
      blackHole(layout.prefetchRows(ahead: viewport.height, behind: 0))
      tally.record(changed: layout.contentOffset.y != before)
    }
  }, tally: tally)
}
