import Foundation

/// Integer fixed-point units for extents and offsets (SPEC X4).
///
/// Every extent, spacing, inset and offset is rounded once, on the way in,
/// to a whole number of 1/256 pt and kept as an `Int64`. Sums are then exact:
/// there is no drift however many updates are made, and offsets stay exact
/// far past 2^31 pt (2^63 units is about 3.6e16 pt).
///
/// A row's extent is stored in 32 bits, so one extent is at most
/// `maxExtentUnits` (8,388,607.996 pt); larger finite values are clamped to it.
@usableFromInline
package enum _FixedPoint {
  /// Units per point: 256, so the resolution is 1/256 pt (about 0.004 pt).
  @usableFromInline
  package static let unitsPerPoint: Double = 256

  /// The largest extent one row can have, in units: `Int32.max`.
  @usableFromInline
  package static let maxExtentUnits: Int64 = Int64(Int32.max)

  /// The largest offset or size the model computes with, in units (2^60):
  /// inputs beyond it are clamped to it.
  @usableFromInline
  package static let maxUnits: Int64 = 1 << 60

  /// Rounds a finite number of points to units (to nearest, ties away from
  /// zero), clamped to `-maxUnits...maxUnits`. NaN becomes 0.
  @inlinable
  package static func units(_ points: CGFloat) -> Int64 {
    let scaled = (Double(points) * unitsPerPoint).rounded()
    guard !scaled.isNaN else { return 0 }
    if scaled >= Double(maxUnits) { return maxUnits }
    if scaled <= -Double(maxUnits) { return -maxUnits }
    return Int64(scaled)
  }

  /// Converts units back to points.
  @inlinable @inline(__always)
  package static func points(_ units: Int64) -> CGFloat {
    CGFloat(Double(units) / unitsPerPoint)
  }

  /// `fraction * units`, rounded to the nearest unit: the one place anchor
  /// fractions are applied, so the core and the reference round alike.
  @inlinable @inline(__always)
  package static func scale(_ units: Int64, by fraction: CGFloat) -> Int64 {
    if fraction == 0 { return 0 }
    if fraction == 1 { return units }
    let product = (Double(units) * Double(fraction)).rounded()
    guard product.isFinite else { return 0 }
    return Int64(max(-Double(maxUnits), min(Double(maxUnits), product)))
  }

  /// Validates an extent that comes from data (SPEC X5): NaN, infinite and
  /// negative values are rejected (`nil`); finite values above the maximum
  /// are clamped to `maxExtentUnits`.
  @inlinable
  package static func extentUnits(_ points: CGFloat) -> Int64? {
    guard points.isFinite, points >= 0 else { return nil }
    return min(units(points), maxExtentUnits)
  }

  /// A fraction of the viewport that must lie in it (tracking, T1; the
  /// default anchors, D2–D4): NaN becomes 0, and the value is clamped to
  /// `0...1`.
  @inlinable
  package static func fraction(_ value: CGFloat) -> CGFloat {
    guard !value.isNaN else { return 0 }
    return min(1, max(0, value))
  }

  /// The largest magnitude of an anchor fraction that `anchorFraction`
  /// passes through (2^20): beyond it `scale` could saturate, and every
  /// such offset is clamped to an end of the content anyway.
  @usableFromInline
  package static let maxAnchorFraction: CGFloat = 1_048_576

  /// An anchor fraction as SwiftUI's `UnitPoint` allows it (SPEC R3):
  /// values outside `0...1` apply as written (up to ±2^20); a non-finite
  /// value becomes 0.
  @inlinable
  package static func anchorFraction(_ value: CGFloat) -> CGFloat {
    guard value.isFinite else { return 0 }
    return min(maxAnchorFraction, max(-maxAnchorFraction, value))
  }
}
