import Foundation
import LazyStackCore

/// `lazystack-soak --animated-jump N` (issue #17): animated jumps over N
/// estimated rows (50 pt) whose true heights (20...200 pt, from a hash of
/// the id) are measured frame by frame as the rows come into view, at
/// 60 Hz. Each jump must land exactly where a scroll without animation
/// resolves the target now (SPEC R3, M4) and no frame may move back while
/// the target is still ahead. Prints the figures; returns false on a miss.
func animatedJumpTest(rows n: Int) -> Bool {
  func truth(_ id: Int) -> CGFloat { CGFloat(20 + (id &* 0x9E37_79B9 >> 7) % 181) }
  var layout = try! LazyStackLayout(ids: 0 ..< n, estimatedExtent: 50)
  layout.viewportSize = CGSize(width: 390, height: 844)
  layout.measureVisibleRows { _, id in truth(id) }
  print("animated jumps over \(n) rows estimated at 50 pt, true heights 20...200 pt measured as they come into view, 60 Hz:")
  let jumps: [(Int, UnitPoint, String, ScrollAnimation, String)] = [
    (n * 7 / 10, .top, ".top", .easeInOut(duration: 0.4), "easeInOut(0.4)"),
    (n - 3, .bottom, ".bottom", .smooth, "smooth"),
    (n / 1000 + 1, .center, ".center", .spring(response: 0.3), "spring(0.3)"),
    (n * 7 / 10 + 5, .top, ".top", .easeInOut(duration: 0.15), "easeInOut(0.15)"),
  ]
  var ok = true
  var time = 0.0
  for (target, anchor, anchorName, animation, name) in jumps {
    let start = layout.contentOffset.y
    layout.scroll(to: ScrollPosition(id: target, anchor: anchor), animation: animation, at: time)
    var frames = 0, backward = 0, measured = 0
    var direction: CGFloat = 0
    var largestStep: CGFloat = 0
    var targetBehind = false
    var nanoseconds: UInt64 = 0
    var moving = true
    while moving {
      frames += 1
      time += 1.0 / 60
      let before = layout.contentOffset.y
      let t0 = DispatchTime.now().uptimeNanoseconds
      moving = layout.advance(to: time)
      let after = layout.contentOffset.y
      layout.measureVisibleRows { _, id in
        measured += 1
        return truth(id)
      }
      nanoseconds &+= DispatchTime.now().uptimeNanoseconds - t0
      if direction == 0 && after != before { direction = after > before ? 1 : -1 }
      if !targetBehind && (after - before) * direction < 0 { backward += 1 }
      largestStep = max(largestStep, abs(after - before))
      // Where the target is now, for the next frame's check.
      var resolved = layout
      resolved.position = ScrollPosition(id: target, anchor: anchor)
      if direction != 0 && (resolved.contentOffset.y - layout.contentOffset.y) * direction < 0 { targetBehind = true }
      if frames > 100_000 { break }
    }
    var resolved = layout
    resolved.position = ScrollPosition(id: target, anchor: anchor)
    let error = layout.contentOffset.y - resolved.contentOffset.y
    let line = String(format: "  %@ to row %d (%@): %d frames, %.0f pt travelled, largest step %.0f pt, %d rows measured on the way, %d frames backwards, final error %@ pt, %.1f µs a frame (advance + measuring the new rows)",
                      name, target, anchorName, frames, abs(layout.contentOffset.y - start), largestStep, measured,
                      backward, "\(error)", Double(nanoseconds) / Double(frames) / 1e3)
    print(line)
    if error != 0 || backward > 0 || moving || layout.phase != .idle { ok = false }
  }
  print(ok ? "animated jumps: all landed exactly" : "animated jumps: FAILED")
  return ok
}
