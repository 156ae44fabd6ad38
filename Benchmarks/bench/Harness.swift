import Foundation
import LazyStackTestSupport

/// Keeps a value alive so the optimizer cannot delete the work that made it.
@inline(never) @_optimize(none)
func blackHole<T>(_ value: T) {}

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// How many samples to take and how long one (scenario, size, variant) may run.
struct SamplingPolicy {
  var samples: Int
  var minimumSamples: Int = 3
  /// Seconds; past it, sampling stops once `minimumSamples` are taken.
  var budget: Double
  /// A batch of operations is timed together until it lasts about this long.
  var batchNanoseconds: UInt64 = 200_000
}

/// One result row: nanoseconds per operation (or bytes per row).
struct Result {
  var scenario: String
  var variant: String
  var size: Int
  var unit: String
  var values: [Double]

  var sorted: [Double] { values.sorted() }
  var min: Double { sorted.first ?? .nan }
  var max: Double { sorted.last ?? .nan }
  var median: Double { medianOf(values) }
  var p90: Double {
    let s = sorted
    guard !s.isEmpty else { return .nan }
    return s[Swift.min(s.count - 1, Int((Double(s.count - 1) * 0.9).rounded(.up)))]
  }
}

/// The median of `values` (the mean of the middle two for an even count),
/// NaN when there are none.
func medianOf(_ values: [Double]) -> Double {
  let s = values.sorted()
  guard !s.isEmpty else { return .nan }
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Times `operation`, batched so one timed batch lasts about
/// `policy.batchNanoseconds`, after a warm-up; `reset` (untimed) runs after
/// every timed batch when an operation must be undone.
///
/// An operation whose warm-up run alone outlasts the whole budget (the
/// naive model's batches and re-flows at 1M rows: seconds to a minute
/// each) is timed once, by that run: three more would only repeat a
/// figure whose noise is small beside its length, and cost CI minutes.
func sample(_ policy: SamplingPolicy, operation: () -> Void, reset: (() -> Void)? = nil) -> [Double] {
  // Warm-up and calibration.
  var batch = 1
  if reset == nil {
    while true {
      let start = now()
      for _ in 0 ..< batch { operation() }
      let elapsed = now() - start
      if batch == 1 && Double(elapsed) >= policy.budget * 1e9 { return [Double(elapsed)] }
      if elapsed >= policy.batchNanoseconds || batch >= 1 << 20 { break }
      batch = elapsed == 0 ? batch * 16 : Swift.max(batch * 2, Int(Double(batch) * Double(policy.batchNanoseconds) / Double(elapsed)))
    }
  } else {
    let start = now()
    operation()
    let elapsed = now() - start
    reset!()
    if Double(elapsed) >= policy.budget * 1e9 { return [Double(elapsed)] }
  }
  var values: [Double] = []
  let deadline = now() + UInt64(policy.budget * 1e9)
  while values.count < policy.samples && (values.count < policy.minimumSamples || now() < deadline) {
    let start = now()
    for _ in 0 ..< batch { operation() }
    let elapsed = now() - start
    values.append(Double(elapsed) / Double(batch))
    reset?()
  }
  return values
}
