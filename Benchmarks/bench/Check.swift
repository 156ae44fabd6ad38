import Foundation

/// The regression gate's tolerances. They judge only what does not depend
/// on the machine's speed of the day: ratios measured within one run,
/// against a baseline kept current (`Reports/baseline.csv`, with its date and
/// commit in `Reports/baseline-meta.json`).
enum Tolerance {
  /// The core's speedup at `speedupSize` (1e5 rows), over the naive model
  /// at the largest size up to it that both this run and the baseline ran
  /// (the naive model runs only where an operation takes milliseconds), may
  /// fall to baseline / 1.6 before it counts as a regression: a uniform 2x
  /// slowdown of the core halves it and fails. (It was 4: a 2x slowdown
  /// passed.) The core and the naive model of a scenario are measured back
  /// to back, so the machine's speed of the moment mostly cancels; a
  /// failure must also repeat when measured again. At 1e6 rows it does not:
  /// there a memory-bound core operation moves with each process's memory
  /// and the machine's neighbours (`index_to_offset_after_measure` read 216
  /// ns, best of three, in the baseline's run and 350-425 ns in a fresh
  /// clone's CI run an hour later, the same tree, its naive reference and
  /// its figure at 1e5 within 2 %), so 1e6 is judged by the growth below,
  /// whose floors catch a change of complexity, and by the paired gate,
  /// which times base and head in the same minutes.
  static let speedupFactor = 1.6
  static let speedupSize = 100_000
  /// Growth of the core's median from the smallest to the headline size may
  /// rise to 3 x the baseline's, and always to a floor: quick runs are noisy
  /// (ten quick runs on one tree reached 3.5 at 1e3 -> 1e6 where a full run
  /// measured 1.0; a quick CI run measured 7.1 for offset_to_index where two
  /// full runs of the same code measured 2.3 and 2.3). The floors still catch
  /// a change of complexity: an O(log n) operation that becomes O(n) grows
  /// about 1,000x, an O(n) one that becomes O(n^2) about 10^6 x.
  static let growthFactor = 3.0
  static let logarithmicGrowthFloor = 10.0
  static let linearGrowthFloor = 5_000.0
  /// Bytes per row may rise by 5 %: memory is counted from the buffers'
  /// capacities, the same in every run of one build.
  static let memoryFactor = 1.05
}

/// Compares this run with the baseline; prints every check and returns the
/// scenarios with a failed check, or `nil` when the baseline has nothing
/// to compare with (a failure too).
func gate(results: [Row], baseline: [Row], scenarios: [Scenario], smallest: Int, headline: Int) -> Set<String>? {
  func m(_ rows: [Row], _ s: String, _ v: String, _ n: Int) -> Double? {
    rows.first { $0.scenario == s && $0.variant == v && $0.size == n }?.median
  }
  var failures = 0
  var checked = 0
  var failed: Set<String> = []
  // The size the speedup is judged at: 1e5, or the largest size below it this run has.
  let speedSize = Set(results.map(\.size)).filter { $0 <= Tolerance.speedupSize }.max() ?? headline
  print("\nRegression gate (the core at n=\(speedSize) over the naive model at the largest size up to it both runs have, and growth n=\(smallest)->\(headline), against the baseline):")
  var current = ""
  func report(_ ok: Bool, _ text: String) {
    checked += 1
    if !ok {
      failures += 1
      failed.insert(current)
    }
    print("  \(ok ? "ok  " : "FAIL") \(text)")
  }
  for s in scenarios {
    current = s.name
    if s.growth == .memory {
      guard let now = m(results, s.name, "core", headline), let base = m(baseline, s.name, "core", headline) else { continue }
      let limit = base * Tolerance.memoryFactor
      report(now <= limit, "\(s.name.padding(toLength: scenarioNameWidth, withPad: " ", startingAt: 0)) memory " + String(format: "%.1f B/row (baseline %.1f, limit %.1f)", now, base, limit))
      continue
    }
    // The naive model's size: the largest (up to the headline) both runs measured.
    let naiveSizes = Set(results.filter { $0.scenario == s.name && $0.variant == "naive" && $0.size <= speedSize }.map(\.size))
      .intersection(baseline.filter { $0.scenario == s.name && $0.variant == "naive" }.map(\.size))
    if let size = naiveSizes.max(), let c = m(results, s.name, "core", speedSize), let n = m(results, s.name, "naive", size),
       let bc = m(baseline, s.name, "core", speedSize), let bn = m(baseline, s.name, "naive", size) {
      let speedup = n / c, base = bn / bc, limit = base / Tolerance.speedupFactor
      report(speedup >= limit, "\(s.name.padding(toLength: scenarioNameWidth, withPad: " ", startingAt: 0)) " + String(format: "speedup %.1fx at n=%d over naive at n=%d (baseline %.1fx, at least %.1fx)", speedup, speedSize, size, base, limit))
    } else if m(results, s.name, "core", speedSize) != nil {
      report(false, "\(s.name.padding(toLength: scenarioNameWidth, withPad: " ", startingAt: 0)) no naive figure in both runs to set the core against (remake the baseline)")
    }
    if smallest < headline, let hi = m(results, s.name, "core", headline), let lo = m(results, s.name, "core", smallest),
       let bhi = m(baseline, s.name, "core", headline), let blo = m(baseline, s.name, "core", smallest) {
      let growth = hi / lo, base = bhi / blo
      var limit = base * Tolerance.growthFactor
      if s.growth == .logarithmic { limit = max(limit, Tolerance.logarithmicGrowthFloor) }
      if s.growth == .linear { limit = max(limit, Tolerance.linearGrowthFloor) }
      report(growth <= limit, "\(s.name.padding(toLength: scenarioNameWidth, withPad: " ", startingAt: 0)) " + String(format: "growth %.2f (baseline %.2f, at most %.2f)", growth, base, limit))
    }
  }
  if checked == 0 {
    print("  FAIL nothing to compare: the baseline has no rows for these scenarios and sizes")
    return nil
  }
  print(failures == 0 ? "gate: passed (\(checked) checks)" : "gate: \(failures) of \(checked) checks FAILED")
  return failed
}
