import Foundation
import LazyStackCore

// The motion of SPEC §12 and the fling projection of B2, computed by the
// reference model itself from the rules (Rules.md, M3, M4 and B2 "In this
// implementation"), not by calling the core's curve: a mistake in the
// core's curves, overshoot limits, end of motion or projection then shows
// as a divergence in the model checks. What the reference shares with the
// core is vocabulary (the public types, `_FixedPoint`'s rounding) and how
// an animation is described (`ScrollAnimation._parameters`).

/// One segment of a motion: `y`, the offset minus the target in units
/// (1/256 pt), over the caller's clock in seconds.
struct ReferenceCurve: Sendable {
  enum Shape: Sendable {
    /// Cubic Hermite ease from (start, y0, v0) to (end, 0, 0).
    case ease(end: Double)
    /// Critically damped decay at `rate` per second (a spring, or a deceleration).
    case decay(rate: Double)
  }

  var shape: Shape
  var start: Double
  var y0: Double
  var v0: Double

  /// A motion has ended within 1/4 pt of its target at under 4 pt/s (M3, M4).
  static let restDistance = 0.25 * 256
  static let restSpeed = 4.0 * 256

  /// At rest: a segment that has already ended.
  static let rest = ReferenceCurve(shape: .ease(end: 0), start: 0, y0: 0, v0: 0)

  /// The ease from `y0` with velocity `v0` at `time`, ending at `end`. A
  /// velocity heading for the target so fast that the cubic would pass it
  /// (|v0|·T > 3|y0|) ends it sooner, at T = 3|y0| / |v0|, where it arrives
  /// at rest (no overshoot, M4).
  static func ease(from y0: Double, velocity v0: Double, at time: Double, end: Double) -> ReferenceCurve {
    var end = max(end, time)
    let headsForTarget = y0 * v0 < 0 || (y0 == 0 && v0 != 0)
    if headsForTarget && end - time > 3 * abs(y0) / abs(v0) { end = time + 3 * abs(y0) / abs(v0) }
    return ReferenceCurve(shape: .ease(end: end), start: time, y0: y0, v0: v0)
  }

  /// The decay `(y0 + (v0 + k·y0)·τ)·e^(−kτ)` from `y0` with velocity `v0`
  /// at `time`. A velocity heading for the target faster than k·|y0| would
  /// overshoot: k becomes |v0| / |y0| (a pure exponential with that
  /// velocity). At the target and moving, it ends at once.
  static func decay(from y0: Double, velocity v0: Double, at time: Double, rate: Double) -> ReferenceCurve {
    if y0 == 0 && v0 != 0 { return ease(from: 0, velocity: 0, at: time, end: time) }
    var k = rate
    if y0 * v0 < 0 && abs(v0) > k * abs(y0) { k = abs(v0) / abs(y0) }
    return ReferenceCurve(shape: .decay(rate: k), start: time, y0: y0, v0: v0)
  }

  /// `y` and `dy/dt` at `time` (before the start: at the start).
  func value(at time: Double) -> (y: Double, velocity: Double) {
    switch shape {
    case .ease(let end):
      let length = end - start
      if !(length > 0) || !(time < end) { return (0, 0) }
      let s = max(0, time - start) / length
      let m0 = v0 * length
      let s2 = s * s
      let s3 = s2 * s
      // The Hermite basis: h00 = 2s³ − 3s² + 1, h10 = s³ − 2s² + s, and their derivatives.
      return (y0 * (2 * s3 - 3 * s2 + 1) + m0 * (s3 - 2 * s2 + s),
              (y0 * (6 * s2 - 6 * s) + m0 * (3 * s2 - 4 * s + 1)) / length)
    case .decay(let k):
      let tau = max(0, time - start)
      if !tau.isFinite { return (0, 0) }
      let c = v0 + k * y0
      let e = exp(-k * tau)
      let linear = y0 + c * tau
      return (linear * e, (c - k * linear) * e)
    }
  }

  /// The offset at `time` toward `target` (units), in whole units, kept
  /// within ±2^61 so that a far curve cannot overflow; the caller clamps.
  func offset(at time: Double, target: Int64) -> Int64 {
    let y = value(at: time).y
    if y.isNaN { return target }
    return target + Int64(min(max(y, -Double(1 << 61)), Double(1 << 61)).rounded())
  }

  /// An ease ends at its end time; a decay within `restDistance` at under `restSpeed`.
  func hasEnded(at time: Double) -> Bool {
    switch shape {
    case .ease(let end): return time >= end
    case .decay:
      let (y, v) = value(at: time)
      return abs(y) <= Self.restDistance && abs(v) <= Self.restSpeed
    }
  }

  /// The same kind of segment from `y` and `velocity` at `time`: an ease
  /// keeps its end time, a decay starts again from the base `rate`.
  func rebased(y: Double, velocity: Double, at time: Double, rate: Double) -> ReferenceCurve {
    switch shape {
    case .ease(let end): return .ease(from: y, velocity: velocity, at: time, end: end)
    case .decay: return .decay(from: y, velocity: velocity, at: time, rate: rate)
    }
  }

  /// M3's rate per second for a deceleration rate `d` per millisecond,
  /// `1000·(1 − d)/d`: a pure decay from velocity v then travels
  /// `v/1000 · d/(1 − d)`, B2's projection.
  static func decelerationRate(_ d: Double) -> Double {
    1000 * (1 - d) / d
  }
}

extension ScrollAnimation {
  /// Whether the animation moves at all: a positive, finite duration or response.
  var referenceAnimates: Bool {
    let seconds = _parameters.seconds
    return seconds.isFinite && seconds > 0
  }

  /// The spring's rate ω = 2π / response; 0 for the ease.
  var referenceRate: Double {
    let (isSpring, seconds) = _parameters
    return isSpring ? 2 * Double.pi / seconds : 0
  }

  /// The first segment of the animation from `y0` and `v0` at `time` (M4).
  func referenceCurve(from y0: Double, velocity v0: Double, at time: Double) -> ReferenceCurve {
    let (isSpring, seconds) = _parameters
    return isSpring ? .decay(from: y0, velocity: v0, at: time, rate: referenceRate)
      : .ease(from: y0, velocity: v0, at: time, end: time + seconds)
  }
}

/// B2: the natural end of a fling released at `offset` with `velocity`
/// (points per second) under deceleration rate d: `offset + v/1000 · d/(1−d)`;
/// NaN velocities count as 0.
func referenceProjectedOffset(from offset: CGFloat, velocity: CGFloat, rate: ScrollDecelerationRate) -> CGFloat {
  let v = velocity.isNaN ? 0 : velocity
  if v == 0 { return offset }
  let d = rate.rawValue
  return offset + v / 1000 * d / (1 - d)
}
