import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore
import LazyStackReference
import LazyStackTestSupport

/// SPEC §8: fling projection, paging, view-aligned snapping, limits, custom
/// behaviours, and random releases checked against the reference model.
final class SnappingTests: CheckedTestCase {
  /// 1000 rows of 50 pt, viewport 800: maxOffset 49,200 (SPEC B4's examples).
  func make(axis: Axis = .vertical, spacing: CGFloat = 0, insets: EdgeInsets = EdgeInsets()) throws -> LazyStackLayout<Int> {
    try makeLayout(rows: 1000, spacing: spacing, axis: axis, insets: insets, viewport: 800, cross: 400)
  }

  func target(_ layout: LazyStackLayout<Int>, _ y: CGFloat, _ v: CGFloat, _ b: some ScrollTargetBehavior,
              rate: ScrollDecelerationRate = .normal) -> CGFloat {
    let vertical = layout.axis == .vertical
    let p = layout.targetContentOffset(
      forReleaseAt: vertical ? CGPoint(x: 0, y: y) : CGPoint(x: y, y: 0),
      velocity: vertical ? CGVector(dx: 0, dy: v) : CGVector(dx: v, dy: 0), behavior: b, decelerationRate: rate)
    return vertical ? p.y : p.x
  }

  /// Leaves the projected end where it is: shows the raw projection.
  struct Identity: ScrollTargetBehavior {
    func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {}
  }

  func testB1_customBehaviourAlignsToEveryTenthOfTheContainer() throws {
    // SwiftUI's documentation example, written against this API.
    struct Tenths: ScrollTargetBehavior {
      func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {
        let step = (context.containerSize.height / 10).rounded()
        target.rect.origin.y = (target.rect.origin.y / step).rounded() * step
      }
    }
    let layout = try make()
    XCTAssertEqual(target(layout, 1000, 0, Tenths()), 1040)
    XCTAssertEqual(target(layout, 1000, 2000, Tenths()), 2000, "1998 to the nearest 80")
  }

  func testB1_contextCarriesSwiftUIMembersAndRowGeometry() throws {
    final class Spy: ScrollTargetBehavior, @unchecked Sendable {
      var seen: ScrollTargetBehaviorContext?
      func updateTarget(_ target: inout ScrollTarget, context: TargetContext) {
        seen = context
        // Align to the row start nearest to the projected end, by hand.
        target.rect.origin.y = context.nearestRowStart(to: target.rect.origin.y)!
      }
    }
    let layout = try make(spacing: 10, insets: EdgeInsets(top: 5, leading: 0, bottom: 0, trailing: 0))
    let spy = Spy()
    XCTAssertEqual(target(layout, 1000, 0, spy), 1025, "rows start at 5 + 60k; 1025 is row 17")
    let context = try XCTUnwrap(spy.seen)
    XCTAssertEqual(context.originalTarget.rect, CGRect(x: 0, y: 1000, width: 400, height: 800))
    XCTAssertEqual(context.containerSize, CGSize(width: 400, height: 800))
    XCTAssertEqual(context.contentSize, layout.contentSize)
    XCTAssertEqual(context.axes, .vertical)
    XCTAssertEqual(context.velocity, CGVector(dx: 0, dy: 0))
    XCTAssertEqual(context.releaseOffset, CGPoint(x: 0, y: 1000))
    XCTAssertEqual(context.rowCount, 1000)
    XCTAssertEqual(context.rowStart(at: 2), 125)
    XCTAssertEqual(context.lastRow(startingAtOrBefore: 125), 2)
    XCTAssertEqual(context.lastRow(startingAtOrBefore: 124.9), 1)
    XCTAssertNil(context.lastRow(startingAtOrBefore: 4))
    XCTAssertEqual(context.rowBoundary(after: 125, by: 2), 245)
  }

  func testB2_flingProjection() throws {
    let layout = try make()
    XCTAssertEqual(target(layout, 1000, 2000, Identity()), 1998, "1000 + 2 * 0.998/0.002")
    XCTAssertEqual(target(layout, 1000, 2000, Identity(), rate: .fast), 1198, "1000 + 2 * 99")
    XCTAssertEqual(target(layout, 1000, -1e7, Identity()), 0, "clamped")
    XCTAssertEqual(target(layout, 1000, 1e9, Identity()), 49_200)
  }

  func testB3_targetIsClampedAndRetargetedAfterAResize() throws {
    var layout = try make()
    layout.userScroll(to: CGPoint(x: 0, y: 1300))
    layout.viewportSize = CGSize(width: 400, height: 600)
    XCTAssertEqual(layout.retargetedContentOffset(behavior: .paging).y, 1200, "nearest page of 600")
    XCTAssertEqual(target(layout, -50, 0, Identity()), 0)
  }

  func testB4_pagingWorkedExamples() throws {
    let layout = try make()
    XCTAssertEqual(target(layout, 1000, 2000, .paging), 1600)
    XCTAssertEqual(target(layout, 1000, 0, .paging), 800)
    XCTAssertEqual(target(layout, 1000, -2000, .paging), 800)
    XCTAssertEqual(target(layout, 1300, 0, .paging), 1600)
  }

  func testB4_pagingNeverMovesMoreThanOneBoundary() throws {
    let layout = try make()
    XCTAssertEqual(target(layout, 1000, 1e6, .paging), 1600, "from 1.25 pages: page 2 at most")
    XCTAssertEqual(target(layout, 1000, -1e6, .paging), 800, "page 1 at least")
    XCTAssertEqual(target(layout, 1600, 1e6, .paging), 2400, "exactly on page 2: 1, 2 or 3")
    XCTAssertEqual(target(layout, 1600, -1e6, .paging), 800)
    XCTAssertEqual(target(layout, 1600, 0, .paging), 1600)
  }

  func testB4_pagingFirstAndLastPagesAndHalfwayTies() throws {
    let layout = try make()
    XCTAssertEqual(target(layout, 0, -500, .paging), 0)
    XCTAssertEqual(target(layout, 49_100, 0, .paging), 49_200, "the last page is maxOffset, 49,200, not 49,600")
    XCTAssertEqual(target(layout, 48_900, 1e6, .paging), 49_200)
    XCTAssertEqual(target(layout, 49_200, -1e6, .paging), 48_800, "from the last page back one")
    XCTAssertEqual(target(layout, 1200, 0, .paging), 1600, "halfway, zero velocity: the larger offset")
    // Halfway between 800 and 1600 reached with negative velocity: the smaller one.
    let v = (1200 - 1300) * 1000 / (0.998 / 0.002)
    XCTAssertEqual(target(layout, 1300, v, .paging), 800)
  }

  func testB4_contentShorterThanTheViewportAndBadVelocities() throws {
    var short = try LazyStackLayout(ids: 0 ..< 3, estimatedExtent: 50)
    short.viewportSize = CGSize(width: 400, height: 800)
    XCTAssertEqual(target(short, 0, 5000, .paging), 0)
    XCTAssertEqual(target(short, 0, 5000, .viewAligned), 0)
    let layout = try make()
    XCTAssertEqual(target(layout, 1000, .nan, .paging), 800, "NaN velocity counts as 0")
    XCTAssertEqual(target(layout, 1000, .infinity, .paging), 1600)
    XCTAssertEqual(target(layout, 1000, -.infinity, .viewAligned), 0, "no limit on a vertical axis")
    XCTAssertEqual(target(layout, .nan, 0, .paging), 0, "a NaN release is the current offset")
    var empty = try LazyStackLayout(ids: [Int](), estimatedExtent: 50)
    empty.viewportSize = CGSize(width: 1, height: 1)
    XCTAssertEqual(target(empty, 10, 10, .viewAligned), 0)
    var zero = try make()
    zero.viewportSize = .zero
    XCTAssertEqual(target(zero, 1000, 0, .paging), 1000, "no page size: the projection, clamped")
  }

  func testB5_viewAlignedPicksTheNearestRowStart() throws {
    var layout = try make()
    XCTAssertEqual(target(layout, 1010, 0, .viewAligned), 1000)
    XCTAssertEqual(target(layout, 1030, 0, .viewAligned), 1050)
    XCTAssertEqual(target(layout, 1000, 2000, .viewAligned), 2000, "1998 -> 2000")
    XCTAssertEqual(target(layout, 49_190, 0, .viewAligned), 49_200, "clamped to maxOffset")
    layout.setMeasuredExtent(300, for: 20)  // row 20: 1000..<1300
    XCTAssertEqual(target(layout, 1140, 0, .viewAligned), 1000)
    XCTAssertEqual(target(layout, 1160, 0, .viewAligned), 1300)
  }

  func testB5_limitBehaviours() throws {
    let layout = try make()
    // Release strictly between rows 20 (1000) and 21 (1050).
    XCTAssertEqual(target(layout, 1010, 1e5, .viewAligned(limitBehavior: .alwaysByOne)), 1050)
    XCTAssertEqual(target(layout, 1010, -1e5, .viewAligned(limitBehavior: .alwaysByOne)), 1000)
    XCTAssertEqual(target(layout, 1010, 1e5, .viewAligned(limitBehavior: .alwaysByFew)), 1150, "b(k+3)")
    XCTAssertEqual(target(layout, 1010, -1e5, .viewAligned(limitBehavior: .alwaysByFew)), 900, "b(k-2)")
    // Release exactly on row 20.
    XCTAssertEqual(target(layout, 1000, 1e5, .viewAligned(limitBehavior: .alwaysByOne)), 1050)
    XCTAssertEqual(target(layout, 1000, -1e5, .viewAligned(limitBehavior: .alwaysByOne)), 950)
    XCTAssertEqual(target(layout, 1000, -1e5, .viewAligned(limitBehavior: .alwaysByFew)), 850)
    // .always: rows within one container extent (800) of the release.
    XCTAssertEqual(target(layout, 1010, 1e5, .viewAligned(limitBehavior: .always)), 1800)
    XCTAssertEqual(target(layout, 1010, -1e5, .viewAligned(limitBehavior: .always)), 250)
    XCTAssertEqual(target(layout, 1010, 1e5, .viewAligned(limitBehavior: .never)), 49_200)
    // .automatic: .never on a vertical axis, .always on a horizontal one.
    XCTAssertEqual(target(layout, 1010, 1e5, .viewAligned), 49_200)
    let horizontal = try make(axis: .horizontal)
    XCTAssertEqual(target(horizontal, 1010, 1e5, .viewAligned), 1800)
  }

  func testB6_spacingInsetsAndTheHorizontalAxis() throws {
    let layout = try make(axis: .horizontal, spacing: 10, insets: EdgeInsets(top: 0, leading: 20, bottom: 0, trailing: 20))
    // Row starts: 20 + 60k.
    XCTAssertEqual(target(layout, 1000, 0, .viewAligned), 980)
    XCTAssertEqual(target(layout, 1015, 0, .viewAligned), 1040)
    XCTAssertEqual(target(layout, 1000, 0, .paging), 800)
    XCTAssertEqual(target(layout, 1000, 2000, .paging), 1600)
  }

  func testRandomReleasesMatchTheReference() throws {
    var compared = 0
    defer { XCTAssertEqual(compared, 40 * 200, "every release of every seed compared") }
    for seed in UInt64(0) ..< 40 {
      var rng = SeededRNG(seed: seed)
      let n = Int.random(in: 0 ... 150, using: &rng)
      let axis: Axis = Bool.random(using: &rng) ? .vertical : .horizontal
      let spacing = CGFloat(Int.random(in: 0 ... 3, using: &rng)) * 4
      let insets = EdgeInsets(all: CGFloat(Int.random(in: 0 ... 2, using: &rng)) * 7)
      var layout = try LazyStackLayout(ids: 0 ..< n, estimatedExtent: 40, spacing: spacing, axis: axis,
                                       insets: insets, blockCapacity: 4)
      var reference = try LazyStackReference(ids: 0 ..< n, estimatedExtent: 40, spacing: spacing, axis: axis, insets: insets)
      for i in 0 ..< n where Bool.random(using: &rng) {
        let e = CGFloat(Int.random(in: 0 ... 4000, using: &rng)) / 16
        layout.setMeasuredExtent(e, for: i)
        reference.setMeasuredExtent(e, for: i)
      }
      let size = CGSize(width: CGFloat(Int.random(in: 0 ... 900, using: &rng)), height: CGFloat(Int.random(in: 0 ... 900, using: &rng)))
      layout.viewportSize = size
      reference.viewportSize = size
      let limits: [ViewAlignedScrollTargetBehavior.LimitBehavior] = [.automatic, .always, .alwaysByOne, .alwaysByFew, .never]
      let extent = axis == .vertical ? layout.contentSize.height : layout.contentSize.width
      for step in 0 ..< 200 {
        var release = CGFloat(Int.random(in: -20 ... Int(extent) + 20, using: &rng))
        if step % 5 == 0, n > 0 { release = axis == .vertical ? layout.frame(at: Int.random(in: 0 ..< n, using: &rng)).minY : layout.frame(at: Int.random(in: 0 ..< n, using: &rng)).minX }
        let v = CGFloat(Int.random(in: -8000 ... 8000, using: &rng))
        let point = axis == .vertical ? CGPoint(x: 0, y: release) : CGPoint(x: release, y: 0)
        let velocity = axis == .vertical ? CGVector(dx: 0, dy: v) : CGVector(dx: v, dy: 0)
        let rate: ScrollDecelerationRate = Bool.random(using: &rng) ? .normal : .fast
        let paged = layout.targetContentOffset(forReleaseAt: point, velocity: velocity, behavior: .paging, decelerationRate: rate)
        let expectedPaged = reference.targetContentOffset(forReleaseAt: point, velocity: velocity, snap: .paging, decelerationRate: rate)
        if paged != expectedPaged {
          return XCTFail("seed \(seed) step \(step) paging release \(release) v \(v): \(paged) vs \(expectedPaged)")
        }
        let limit = limits.randomElement(using: &rng)!
        let aligned = layout.targetContentOffset(forReleaseAt: point, velocity: velocity,
                                                 behavior: .viewAligned(limitBehavior: limit), decelerationRate: rate)
        let expectedAligned = reference.targetContentOffset(forReleaseAt: point, velocity: velocity,
                                                            snap: .viewAligned(limit), decelerationRate: rate)
        if aligned != expectedAligned {
          return XCTFail("seed \(seed) step \(step) viewAligned(\(limit)) release \(release) v \(v): \(aligned) vs \(expectedAligned)")
        }
        compared += 1
      }
    }
  }
}
