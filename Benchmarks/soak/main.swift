import Foundation
import LazyStackCore
import LazyStackTestSupport

// `swift run -c release lazystack-soak [OPERATIONS] [FIRST_SEED]`
// Random operations of every kind (scrolls, programmatic scrolls,
// measurements with hostile values, estimate changes, snapshots, incremental
// edits, viewport and anchor changes, snapping queries), each applied to
// LazyStackLayout and to LazyStackReference, everything observable compared
// after every step. Exits 1 on the first divergence, printing seed and step.

let arguments = CommandLine.arguments.dropFirst()
let total = arguments.first.flatMap { Int($0.replacingOccurrences(of: "_", with: "")) } ?? 1_000_000
let firstSeed = arguments.dropFirst().first.flatMap { UInt64($0) } ?? 1
let perSeed = 2_000
let start = Date()
var done = 0
var seed = firstSeed
while done < total {
  let n = min(perSeed, total - done)
  do {
    done += try soak(seed: seed, operations: n, maxRows: seed % 10 == 0 ? 400 : 120,
                     axis: seed % 3 == 0 ? .horizontal : .vertical)
  } catch {
    print("soak: DIVERGENCE after \(done) operations: \(error)")
    exit(1)
  }
  seed += 1
  if seed % 50 == 0 {
    print("soak: \(done) operations, \(seed - firstSeed) seeds, \(String(format: "%.0f", Date().timeIntervalSince(start))) s")
  }
}
print("soak: \(done) operations over \(seed - firstSeed) seeds (\(firstSeed)..<\(seed)), 0 divergences, \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
