import Foundation

// `bench --compare`'s check of a confirmed time regression: whether the two
// builds do the same work for the operation, counted by callgrind.
//
// The paired gate times two builds of the library. Where a commit does not
// touch a scenario's path, the two binaries still differ in where the
// linker put the code, and that alone moved whole cases: `scroll` at 1e4
// read +7.8 % in one CI run and −8.6 % at 1e6 in another of the same
// library, with 1,979 and 1,980 instructions an operation (stop 50's CI,
// Benchmarks/RESULTS.md). A user's app links the library somewhere else
// again, so such a difference says nothing about the library. When
// valgrind is installed, a confirmed regression is counted on both sides:
// instructions, and data reads and writes that miss the simulated first-
// and last-level caches, an operation. When both are the base's (within
// the tolerances below), the verdict is `placement`, which does not fail;
// otherwise the regression stands. Without valgrind, or when the count
// cannot be made (a worker that fails under valgrind), the regression
// stands too. Callgrind counts only inside `lazystackCountedOperation`
// (the worker's `count` command), so a scenario timed with a reset is
// counted without its resets.

/// Callgrind's counts for one operation.
struct WorkCounts {
  /// Instructions executed.
  var instructions: Double
  /// Data reads and writes that missed the first-level data cache, plus
  /// those that missed the last-level cache (simulated).
  var dataMisses: Double
}

/// The tolerances of the same-work check: instructions may grow by 1 %,
/// data-cache misses by 2 % plus half a miss an operation (counts are
/// nearly exact, not quite: heap addresses differ between two binaries).
let sameWorkInstructionTolerance = 0.01
let sameWorkMissTolerance = 0.02
let sameWorkMissSlack = 0.5

/// valgrind's path, or `nil` when it is not installed.
func valgrindPath() -> String? {
  let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
  return paths.map { "\($0)/valgrind" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// The totals callgrind counts for a worker of `binary` that prepares
/// `scenario` at `size` and runs exactly `operations` operations (`count`):
/// instructions and data-cache misses inside the operations alone, or
/// `nil` with the reason. `cpu`: the processor callgrind runs on
/// (`bench --compare --cpu N`), so that a comparison beside it is not
/// disturbed; `nil`, anywhere.
func callgrindTotals(
  valgrind: String, binary: String, scenario: String, size: Int, operations: Int, cpu: Int?
) -> (WorkCounts?, String) {
  let file = NSTemporaryDirectory() + "lazystack-samework-\(ProcessInfo.processInfo.processIdentifier)-\(operations).out"
  let errors = file + ".err"
  defer {
    try? FileManager.default.removeItem(atPath: file)
    try? FileManager.default.removeItem(atPath: errors)
  }
  _ = FileManager.default.createFile(atPath: errors, contents: nil)
  let process = Process()
  Worker.setCommand(of: process, valgrind, ["--tool=callgrind", "--cache-sim=yes", "--toggle-collect=*lazystackCountedOperation*",
                                            "--callgrind-out-file=\(file)", binary, "--worker"], cpu: cpu)
  // The same hash seeds in both processes (Swift's Hasher is seeded per
  // process otherwise), so both do the same probes.
  var environment = ProcessInfo.processInfo.environment
  environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
  process.environment = environment
  let input = Pipe()
  let output = Pipe()
  process.standardInput = input
  process.standardOutput = output
  // To a file, not a pipe: nothing reads it until the worker has ended.
  process.standardError = FileHandle(forWritingAtPath: errors) ?? FileHandle.nullDevice
  do { try process.run() } catch { return (nil, "valgrind did not start: \(error)") }
  input.fileHandleForWriting.write(Data("prepare \(scenario) \(size)\ncount \(operations)\nquit\n".utf8))
  try? input.fileHandleForWriting.close()
  let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  let lines = answers.split(separator: "\n")
  guard process.terminationStatus == 0, lines.count == 2, lines[0] == "ready" || lines[0] == "ready reset",
        lines[1] == "counted" else {
    let said = lines.isEmpty ? "nothing" : lines.joined(separator: " / ")
    // The worker's own last complaint (a tally's "timed no-ops"), not
    // valgrind's lines, which start with "==PID==".
    let complaint = ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
      .split(separator: "\n").last { !$0.hasPrefix("==") }.map { ": \($0)" } ?? ""
    return (nil, "the worker under valgrind exited \(process.terminationStatus) and said \(said)\(complaint)")
  }
  guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return (nil, "no callgrind output") }
  var events: [Substring] = []
  var totals: [Double] = []
  for line in text.split(separator: "\n") {
    if line.hasPrefix("events:") { events = line.dropFirst(7).split(separator: " ") }
    if line.hasPrefix("totals:") || line.hasPrefix("summary:") && totals.isEmpty {
      totals = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    }
  }
  // Callgrind leaves out zero counts at the end of the line: an event it
  // names past the last count is 0 (a read-only case whose data stays in
  // the simulated last-level cache misses none there).
  func total(_ event: String) -> Double? {
    events.firstIndex(of: Substring(event)).map { $0 < totals.count ? totals[$0] : 0 }
  }
  guard let ir = total("Ir"), let d1r = total("D1mr"), let d1w = total("D1mw"),
        let llr = total("DLmr"), let llw = total("DLmw") else {
    return (nil, "callgrind's output has no cache counts (events: \(events.joined(separator: " ")))")
  }
  guard ir > 0 else {
    return (nil, "callgrind counted nothing: --toggle-collect matched no lazystackCountedOperation")
  }
  return (WorkCounts(instructions: ir, dataMisses: d1r + d1w + llr + llw), "")
}

/// The counts for one operation of a case on `binary`: the difference of
/// two workers that run `operations` and three times as many, over the
/// difference in operations (what the first calls alone cost, such as lazy
/// symbol binding and first touches of memory, cancels out; preparing is
/// not counted at all).
func workCounts(
  valgrind: String, binary: String, scenario: String, size: Int, operations: Int, cpu: Int?
) -> (WorkCounts?, String) {
  let (few, why) = callgrindTotals(valgrind: valgrind, binary: binary, scenario: scenario, size: size, operations: operations, cpu: cpu)
  guard let few else { return (nil, why) }
  let (many, why2) = callgrindTotals(valgrind: valgrind, binary: binary, scenario: scenario, size: size,
                                     operations: 3 * operations, cpu: cpu)
  guard let many else { return (nil, why2) }
  let k = Double(2 * operations)
  return (WorkCounts(instructions: (many.instructions - few.instructions) / k,
                     dataMisses: (many.dataMisses - few.dataMisses) / k), "")
}

/// Whether a confirmed regression of `r` is a placement effect: both
/// builds count the same work an operation. Prints what it counted.
/// `cpu`: the processor callgrind runs on, or `nil` (`callgrindTotals`).
func isPlacementOnly(_ r: Comparison, base baseBinary: String, head headBinary: String, cpu: Int?) -> Bool {
  guard let valgrind = valgrindPath() else {
    print("  same-work check for \(r.scenario) n=\(r.size): valgrind is not installed; the regression stands")
    return false
  }
  // About 2 ms of native work (callgrind runs it 50-100 times slower).
  let operations = Swift.max(10, Swift.min(100_000, Int(2.0e6 / Swift.max(r.head, 1))))
  let (base, whyBase) = workCounts(valgrind: valgrind, binary: baseBinary, scenario: r.scenario, size: r.size, operations: operations,
                                      cpu: cpu)
  let (head, whyHead) = workCounts(valgrind: valgrind, binary: headBinary, scenario: r.scenario, size: r.size, operations: operations,
                                      cpu: cpu)
  guard let base, let head else {
    print("  same-work check for \(r.scenario) n=\(r.size): not counted (\(base == nil ? whyBase : whyHead)); the regression stands")
    return false
  }
  let sameInstructions = head.instructions <= base.instructions * (1 + sameWorkInstructionTolerance)
  let sameMisses = head.dataMisses <= base.dataMisses * (1 + sameWorkMissTolerance) + sameWorkMissSlack
  func change(_ a: Double, _ b: Double) -> String { a > 0 ? String(format: "%+.1f %%", (b / a - 1) * 100) : "" }
  print(String(format: "  same-work check for %@ n=%d (callgrind, an operation, %d and %d operations): instructions base %.0f head %.0f (%@), data-cache misses base %.2f head %.2f (%@): %@",
               r.scenario, r.size, operations, 3 * operations, base.instructions, head.instructions,
               change(base.instructions, head.instructions), base.dataMisses, head.dataMisses,
               change(base.dataMisses, head.dataMisses),
               sameInstructions && sameMisses ? "the same work, a placement effect" : "more work, the regression stands"))
  return sameInstructions && sameMisses
}
