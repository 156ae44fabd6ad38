import Foundation

/// What moves the content (SPEC M2), as SwiftUI's `ScrollPhase`.
public enum ScrollPhase: Hashable, Sendable {
  /// At rest.
  case idle
  /// SwiftUI's phase for a touch that has not started to scroll. The model
  /// never enters it: `beginInteraction()` goes straight to `.interacting`
  /// (SPEC M2); it exists so a UI layer can pass SwiftUI's phases through.
  case tracking
  /// The user's finger is down: between `beginInteraction()` and
  /// `endInteraction(velocity:behavior:decelerationRate:at:)`.
  case interacting
  /// Moving to the snapped target after a release (SPEC M3).
  case decelerating
  /// Moving to the target of an animated programmatic scroll (SPEC M4).
  case animating

  /// Whether the model moves the offset itself in this phase.
  @inlinable
  internal var _isMoving: Bool { self == .decelerating || self == .animating }
}

/// A change of `ScrollPhase` (SPEC M2).
public struct ScrollPhaseChange: Hashable, Sendable {
  /// The phase before the change.
  public var oldPhase: ScrollPhase
  /// The phase after it.
  public var newPhase: ScrollPhase

  /// Creates a change. - Complexity: O(1).
  @inlinable
  public init(oldPhase: ScrollPhase, newPhase: ScrollPhase) {
    self.oldPhase = oldPhase
    self.newPhase = newPhase
  }
}

/// How an animated programmatic scroll moves (SPEC M4).
///
///     layout.scroll(to: ScrollPosition(id: 500_000), animation: .easeInOut(duration: 0.15), at: now)
///     while layout.advance(to: nextFrameTime()) { draw() }
///
/// Either curve starts from the current offset and velocity (so a scroll
/// that interrupts another one continues smoothly) and never overshoots
/// the target: when the target comes nearer faster than the curve can
/// slow down, the curve ends sooner.
public struct ScrollAnimation: Hashable, Sendable {
  @usableFromInline
  internal enum _Kind: Hashable, Sendable {
    case easeInOut(duration: Double)
    case spring(response: Double)
  }

  @usableFromInline
  internal var _kind: _Kind

  @inlinable
  internal init(_kind: _Kind) {
    self._kind = _kind
  }

  /// A cubic ease-in-out over `duration` seconds: from rest, the offset
  /// follows `3s² − 2s³` of the distance at `s = elapsed / duration`. When
  /// the target moves on the way, the rest of the motion is the cubic from
  /// the current offset and velocity to the new target, ending at the same
  /// time. A duration that is not positive and finite animates nothing: the
  /// scroll lands at once.
  /// - Complexity: O(1).
  @inlinable
  public static func easeInOut(duration: TimeInterval) -> ScrollAnimation {
    ScrollAnimation(_kind: .easeInOut(duration: duration))
  }

  /// A critically damped spring: `response` is the period of the undamped
  /// spring in seconds (SwiftUI's meaning), so its rate is `ω = 2π / response`
  /// and the distance left decays as `(y₀ + (v₀ + ω·y₀)·t)·e^(−ωt)`. It ends
  /// once within 1/4 pt of the target at under 4 pt/s, exactly on the
  /// target. A response that is not positive and finite animates nothing.
  /// - Complexity: O(1).
  @inlinable
  public static func spring(response: TimeInterval) -> ScrollAnimation {
    ScrollAnimation(_kind: .spring(response: response))
  }

  /// `spring(response: 0.5)`, SwiftUI's default.
  /// - Complexity: O(1).
  @inlinable
  public static var smooth: ScrollAnimation { .spring(response: 0.5) }

  /// What the animation is, for the reference model, which computes the
  /// curves itself: whether it is a spring, and its response (a spring) or
  /// duration (an ease), in seconds.
  /// - Complexity: O(1).
  package var _parameters: (isSpring: Bool, seconds: Double) {
    switch _kind {
    case .easeInOut(let d): (false, d)
    case .spring(let r): (true, r)
    }
  }

  /// Whether the animation moves at all (a positive, finite duration or response).
  @inlinable
  package var _animates: Bool {
    switch _kind {
    case .easeInOut(let d): d.isFinite && d > 0
    case .spring(let r): r.isFinite && r > 0
    }
  }

  /// The base rate of the animation's exponential segments (the spring's
  /// ω = 2π / response), or 0 for the cubic.
  @inlinable
  package var _baseRate: Double {
    switch _kind {
    case .easeInOut: 0
    case .spring(let r): 2 * Double.pi / r
    }
  }

  /// The first segment of this animation from `y0` (offset minus target)
  /// and `v0` at `time`, in units and units per second.
  /// - Complexity: O(1).
  @inlinable
  package func _curve(from y0: Double, velocity v0: Double, at time: Double) -> _MotionCurve {
    switch _kind {
    case .easeInOut(let d): _MotionCurve(cubicFrom: y0, velocity: v0, at: time, end: time + d)
    case .spring: _MotionCurve(exponentialFrom: y0, velocity: v0, at: time, rate: _baseRate)
    }
  }
}

/// One segment of a motion (SPEC M3, M4), described by `y`, the offset
/// minus the target, in units (1/256 pt) over the caller's clock in
/// seconds. A stabilization or a moved target starts a new segment from the
/// current `y` and velocity (`rebased`), so position and velocity stay
/// continuous. The reference model computes the same curves on its own
/// (`ReferenceCurve`), so the model checks test these.
@frozen @usableFromInline
package struct _MotionCurve: Hashable, Sendable {
  /// The cubic's end time, or the exponential's rate (per second).
  @usableFromInline package var _parameter: Double
  /// Whether the segment is a cubic Hermite (ease-in-out) or an exponential
  /// (a critically damped spring, or a deceleration).
  @usableFromInline package var _isCubic: Bool
  /// When the segment starts.
  @usableFromInline package var start: Double
  /// `y` at `start`.
  @usableFromInline package var y0: Double
  /// `dy/dt` at `start`.
  @usableFromInline package var v0: Double

  /// Within this distance of the target (1/4 pt) and under `restSpeed`
  /// (4 pt/s), an exponential segment has ended.
  @usableFromInline package static let restDistance: Double = 64
  @usableFromInline package static let restSpeed: Double = 1024

  /// A cubic Hermite from `(time, y0, v0)` to `(end, 0, 0)`. When `v0`
  /// heads for the target so fast that the cubic would overshoot
  /// (`|v0|·T > 3|y0|`), the segment ends sooner, at `T = 3|y0| / |v0|`,
  /// where it arrives with zero velocity and no overshoot.
  /// - Complexity: O(1).
  @inlinable
  package init(cubicFrom y0: Double, velocity v0: Double, at time: Double, end: Double) {
    var end = Swift.max(end, time)
    if y0 * v0 < 0 || (y0 == 0 && v0 != 0) {
      let limit = 3 * Swift.abs(y0) / Swift.abs(v0)
      if end - time > limit { end = time + limit }
    }
    self.init(_parameter: end, isCubic: true, start: time, y0: y0, v0: v0)
  }

  @inlinable
  internal init(_parameter: Double, isCubic: Bool, start: Double, y0: Double, v0: Double) {
    self._parameter = _parameter
    _isCubic = isCubic
    self.start = start
    self.y0 = y0
    self.v0 = v0
  }

  /// `y(τ) = (y0 + (v0 + k·y0)·τ)·e^(−kτ)`. When `v0` heads for the target
  /// faster than `k·|y0|` (which would overshoot), `k` becomes `|v0| / |y0|`:
  /// a pure exponential with the same initial velocity.
  /// - Complexity: O(1).
  @inlinable
  package init(exponentialFrom y0: Double, velocity v0: Double, at time: Double, rate: Double) {
    var k = rate
    if y0 * v0 < 0, Swift.abs(v0) > k * Swift.abs(y0) { k = Swift.abs(v0) / Swift.abs(y0) }
    if y0 == 0 && v0 != 0 {
      // At the target and moving: it ends here.
      self.init(cubicFrom: 0, velocity: 0, at: time, end: time)
      return
    }
    self.init(_parameter: k, isCubic: false, start: time, y0: y0, v0: v0)
  }

  /// `y` and `dy/dt` at `time` (clamped to the segment's start).
  /// - Complexity: O(1).
  @inlinable
  package func value(at time: Double) -> (y: Double, velocity: Double) {
    if _isCubic {
      let length = _parameter - start
      guard length > 0, time < _parameter else { return (0, 0) }
      let s = Swift.max(0, time - start) / length
      let m0 = v0 * length
      let s2 = s * s
      let s3 = s2 * s
      let y = y0 * (2 * s3 - 3 * s2 + 1) + m0 * (s3 - 2 * s2 + s)
      let v = (y0 * (6 * s2 - 6 * s) + m0 * (3 * s2 - 4 * s + 1)) / length
      return (y, v)
    }
    let k = _parameter
    let tau = Swift.max(0, time - start)
    guard tau.isFinite else { return (0, 0) }
    let c2 = v0 + k * y0
    let e = Foundation.exp(-k * tau)
    let linear = y0 + c2 * tau
    return (linear * e, (c2 - k * linear) * e)
  }

  /// The offset at `time` for a target at `target` units, unclamped: `y`
  /// rounded to whole units, and bounded to ±2^61 so that a far curve (a
  /// huge velocity away from the target over a long duration) cannot
  /// overflow; the caller clamps to `0 ... maxOffset` (`target` is in
  /// `0 ... 2^60`).
  /// - Complexity: O(1).
  @inlinable
  package func offset(at time: Double, target: Int64) -> Int64 {
    let y = value(at: time).y
    let bound = Double(1 << 61)
    return target &+ Int64(y.isNaN ? 0 : Swift.min(Swift.max(y, -bound), bound).rounded())
  }

  /// Whether the segment has ended by `time`: the cubic at its end time,
  /// the exponential within `restDistance` at under `restSpeed`.
  /// - Complexity: O(1).
  @inlinable
  package func hasEnded(at time: Double) -> Bool {
    if _isCubic { return time >= _parameter }
    let (y, v) = value(at: time)
    return Swift.abs(y) <= Self.restDistance && Swift.abs(v) <= Self.restSpeed
  }

  /// The same kind of segment from `y` and `velocity` at `time`: a cubic
  /// keeps its end time, an exponential its base `rate` (the spring's or
  /// the deceleration's, before any raise against overshoot).
  /// - Complexity: O(1).
  @inlinable
  package func rebased(y: Double, velocity: Double, at time: Double, rate: Double) -> _MotionCurve {
    _isCubic
      ? _MotionCurve(cubicFrom: y, velocity: velocity, at: time, end: _parameter)
      : _MotionCurve(exponentialFrom: y, velocity: velocity, at: time, rate: rate)
  }

  /// The deceleration rate of SPEC M3 per second for a rate `d` per
  /// millisecond: `1000·(1 − d)/d`, so that a pure exponential decay from
  /// velocity v travels `v/1000 · d/(1 − d)`, exactly B2's projection.
  /// - Complexity: O(1).
  @inlinable
  package static func decelerationRate(_ d: Double) -> Double {
    1000 * (1 - d) / d
  }
}
