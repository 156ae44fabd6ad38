import Foundation
import XCTest
@_spi(Testing) @testable import LazyStackCore

/// The base of this target's test cases: every test runs with this
/// package's own O(n) consistency checks on (`_checkInvariants()` after
/// every mutation of a layout created during the test), which an app's
/// build never runs; and, as every test case of the package, fails a test
/// that evaluated no assertion (`AssertingTestCase`).
class CheckedTestCase: AssertingTestCase {
  override func setUp() {
    super.setUp()
    LazyStackInternalChecks.isEnabled = true
  }
}

/// A layout of the integer ids `0 ..< rows`, every row estimated at
/// `estimate`, with a viewport of `viewport` points along `axis` and
/// `cross` points across it. The test suites' `make` functions call it with
/// their own defaults.
/// - Parameter blockCapacity: The tree's block size; `nil` for the default
///   (8 rows while the internal checks are on).
func makeLayout(rows: Int, estimate: CGFloat = 50, spacing: CGFloat = 0, axis: Axis = .vertical,
                insets: EdgeInsets = EdgeInsets(), viewport: CGFloat, cross: CGFloat,
                blockCapacity: Int? = nil) throws -> LazyStackLayout<Int> {
  var layout = if let blockCapacity {
    try LazyStackLayout(ids: 0 ..< rows, estimatedExtent: estimate, spacing: spacing, axis: axis, insets: insets,
                        blockCapacity: blockCapacity)
  } else {
    try LazyStackLayout(ids: 0 ..< rows, estimatedExtent: estimate, spacing: spacing, axis: axis, insets: insets)
  }
  layout.viewportSize = axis == .vertical ? CGSize(width: cross, height: viewport) : CGSize(width: viewport, height: cross)
  return layout
}

/// Where row `id` is on screen: its frame's main-axis start less the
/// content offset (vertical layouts).
func screenY(_ layout: LazyStackLayout<Int>, _ id: Int) -> CGFloat {
  layout.frame(of: id)!.minY - layout.contentOffset.y
}
