// A dependent app's debug build: measures rows of a layout the way a UI
// layer does and checks, through LazyStackCore's test switch, that no
// internal check ran; then turns the switch on and checks that the same
// work does run them (so this program can fail).
import Foundation
@_spi(Testing) import LazyStackCore

#if !DEBUG
print("lazystack-dependent: build it in debug (the configuration under test)")
exit(2)
#endif

func fail(_ message: String) -> Never {
  print("FAIL: \(message)")
  exit(1)
}

/// Measures `measurements` rows of a `rows`-row layout, as a UI layer does
/// after each frame; returns the seconds it took.
func measureRows(rows: Int, measurements: Int) throws -> Double {
  var layout = try LazyStackLayout(ids: 0 ..< rows, estimatedExtent: 44)
  layout.viewportSize = CGSize(width: 400, height: 800)
  let start = Date()
  for k in 0 ..< measurements {
    layout.setMeasuredExtent(CGFloat(20 + k % 181), for: (k &* 7919) % rows)
  }
  return Date().timeIntervalSince(start)
}

// The case: 2,000 measurements on a 20,000-row layout, the largest
// size the checks cover (they took 23 s when a debug build compiled them in).
let seconds = try measureRows(rows: 20_000, measurements: 2_000)
let runs = LazyStackInternalChecks.runs
guard runs == 0 else { fail("a dependent's debug build ran LazyStackCore's internal checks \(runs) times") }
print(String(format: "debug build of a dependent: 2,000 measurements on 20,000 rows in %.3f s, 0 internal checks run", seconds))

// The same in a masonry feed and a photo grid, through the public lane API
// (SPEC §13) as an app calls it.
func measureLanes(rows: Int, measurements: Int, _ sectionLayout: SectionLayout) throws -> (Double, Int) {
  var layout = try LazyStackLayout(ids: 0 ..< rows, estimatedExtent: 120)
  layout.viewportSize = CGSize(width: 400, height: 800)
  layout.sectionLayout = sectionLayout
  let start = Date()
  var drawn = 0
  for k in 0 ..< measurements {
    layout.setMeasuredExtent(CGFloat(60 + k % 181), for: (k &* 7919) % rows)
    for i in layout.visibleRows where layout.lane(at: i) >= 0 { drawn += 1 }
  }
  guard let hit = layout.index(at: CGPoint(x: 10, y: layout.contentOffset.y + 1)), layout.lane(at: hit) == 0 else {
    fail("the hit test at lane 0's first point found no row of lane 0")
  }
  return (Date().timeIntervalSince(start), drawn)
}
let masonry = try measureLanes(rows: 20_000, measurements: 2_000,
                               .masonry(try MasonryLayout(lanes: .fixed(4), laneSpacing: 4)))
let grid = try measureLanes(rows: 20_000, measurements: 2_000,
                            .grid(try GridLayout(lanes: .adaptive(minimum: 90), laneSpacing: 2)))
guard LazyStackInternalChecks.runs == 0 else {
  fail("lanes: a dependent's debug build ran LazyStackCore's internal checks \(LazyStackInternalChecks.runs) times")
}
print(String(format: "lanes: 2,000 measurements on 20,000 rows in masonry %.3f s, in a grid %.3f s, 0 internal checks run",
             masonry.0, grid.0))

// The control: with the switch on, the same kind of work runs the checks.
LazyStackInternalChecks.isEnabled = true
let checkedSeconds = try measureRows(rows: 20_000, measurements: 20)
guard LazyStackInternalChecks.runs >= 20 else {
  fail("with the switch on, 20 measurements ran the checks only \(LazyStackInternalChecks.runs) times")
}
print(String(format: "control, switch on: 20 measurements on 20,000 rows in %.3f s, %d internal checks run",
             checkedSeconds, LazyStackInternalChecks.runs))
print("ok")
