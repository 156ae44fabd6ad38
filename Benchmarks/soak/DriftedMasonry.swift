import Foundation
@_spi(Testing) import LazyStackCore
import LazyStackTestSupport

/// SPEC L4 and L8 where a masonry's lanes have drifted apart: `n` rows laid
/// out in 4 lanes with the estimate (44 pt), then every row of lane 0 in
/// the first quarter measured at 60 pt (a feed whose first column held
/// taller cards). Below that quarter, the rows of lane 0 on screen lie
/// tens of thousands of rows before the other lanes' (a row keeps its
/// lane).
///
/// At 101 places between 30 and 90 % of the shortest lane, the search `visibleRows` uses is timed
/// beside one walk in index order for every lane at once (the search it
/// replaced, which reads every row between the lanes' rows on screen);
/// both must give `visibleRows`, and at five places the rows are checked
/// against every frame in `visibleIndices`.
func driftedMasonry(rows n: Int, check: (Bool, @autoclosure () -> String) -> Void) throws {
  var layout = try LazyStackLayout(ids: 0 ..< n, estimatedExtent: 44)
  layout.viewportSize = CGSize(width: 390, height: 844)
  layout.sectionLayout = .masonry(try MasonryLayout(lanes: .fixed(4)))
  var measured = 0
  for i in 0 ..< n / 4 where layout.lane(at: i) == 0 {
    layout.setMeasuredExtent(60, for: i)
    measured += 1
  }
  // Where every lane still has rows: above the shortest lane's end.
  let shortest = (n - 8 ..< n).map { layout.frame(at: $0).maxY }.min() ?? 0
  var rng = SeededRNG(seed: 4)
  var searched: [EditTime] = []
  var walked: [EditTime] = []
  var spans: [Int] = []
  for round in 0 ..< 101 {
    let y = shortest * CGFloat(Double.random(in: 0.3 ..< 0.9, using: &rng))
    layout.userScroll(to: CGPoint(x: 0, y: y))
    var search: [Int]? = nil
    var walk: [Int]? = nil
    searched.append(EditTime.of("drifted masonry: rows on screen") { search = layout._masonryRowsOnScreen(walkLimit: nil) })
    walked.append(EditTime.unjudged { walk = layout._masonryRowsOnScreen(walkLimit: .max) })
    let rows = layout.visibleRows
    check(search == rows && walk == rows, "drifted masonry: the two searches disagree with visibleRows at \(y)")
    if let first = rows.first, let last = rows.last { spans.append(last - first + 1) }
    if round % 20 == 0 {
      let top = layout.contentOffset.y
      let meets = { (i: Int) in let f = layout.frame(at: i); return f.maxY > top && f.minY < top + 844 }
      check(!rows.isEmpty && layout.visibleIndices.filter(meets) == rows,
            "drifted masonry: visibleRows is not the rows whose frames meet the screen at \(y)")
    }
  }
  spans.sort()
  print("scale: drifted masonry (\(n) rows, 4 lanes, \(measured) rows of lane 0 at 60 pt): the rows on screen span "
        + "\(spans[spans.count / 2]) indices (median), \(spans.last ?? 0) at most")
  print("scale: drifted masonry: rows on screen, the search visibleRows uses: median "
        + "\(String(format: "%.1f", searched.medianWall)) µs, \(searched.slowestText) (101 times)")
  print("scale: drifted masonry: rows on screen, one walk in index order for all lanes: median "
        + "\(String(format: "%.1f", walked.medianWall)) µs, \(walked.slowestText) (101 times)")
}
