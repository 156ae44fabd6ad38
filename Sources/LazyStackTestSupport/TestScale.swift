import Foundation

/// How much of each randomized test runs: the seeds a model check goes
/// through, the operations a soak makes, the sizes an exhaustive sweep
/// covers.
///
/// `swift test` runs the `short` scale by default: every test, every rule
/// and every kind of operation, on a sixth of the seeds (a few minutes in
/// a debug build). CI runs the `full` scale once, under AddressSanitizer
/// (`.ci/run`), and so does anyone who sets the environment variable:
///
/// ```sh
/// LAZYSTACK_TEST_SCALE=full swift test
/// ```
///
/// Any other value of `LAZYSTACK_TEST_SCALE` is a programmer error and
/// traps, so a misspelt `fulll` never runs the short scale unseen.
public enum TestScale: String, Sendable {
  /// A sixth of the seeds (at least two) and of the operations of each
  /// randomized test: the default.
  case short
  /// Every seed and every operation: what CI runs once.
  case full

  /// The short scale runs one part in this many of the seeds and counts.
  /// - Complexity: O(1).
  public static let shortDivisor = 6

  /// The scale of this process, read once from `LAZYSTACK_TEST_SCALE`
  /// (`short` when unset or empty).
  /// - Complexity: O(1).
  public static let current: TestScale = {
    let value = ProcessInfo.processInfo.environment["LAZYSTACK_TEST_SCALE"] ?? ""
    if value.isEmpty { return .short }
    guard let scale = TestScale(rawValue: value) else {
      preconditionFailure("LAZYSTACK_TEST_SCALE is \(value); it takes short or full")
    }
    return scale
  }()

  /// The part of `seeds` this scale runs: all of them at `full`, the first
  /// sixth (at least two, and never more than there are) at `short`.
  /// - Complexity: O(1).
  public static func seeds(_ seeds: Range<UInt64>) -> Range<UInt64> {
    guard current == .short else { return seeds }
    let count = Swift.min(UInt64(seeds.count), Swift.max(2, UInt64(seeds.count) / UInt64(shortDivisor)))
    return seeds.lowerBound ..< seeds.lowerBound + count
  }

  /// The part of `count` (operations, steps, rows) this scale runs: all of
  /// it at `full`, a sixth at `short` (at least `minimum`, and never more
  /// than `count`).
  /// - Complexity: O(1).
  public static func count(_ count: Int, minimum: Int = 1) -> Int {
    guard current == .short else { return count }
    return Swift.min(count, Swift.max(minimum, count / shortDivisor))
  }
}
