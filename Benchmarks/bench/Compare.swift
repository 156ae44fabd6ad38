import Foundation
import LazyStackCore
import LazyStackTestSupport

// `bench --compare REF`: a paired comparison of the library at git ref REF
// (the base) with the working tree (the head), sensitive enough to flag a
// 10 % slowdown on a noisy shared machine.
//
// Two processes in lockstep. REF's sources, and the working tree's, are
// each extracted (`git archive` of their git trees) into
// `.build-compare/<tree>/`, this tree's benchmark sources are copied over
// their `Benchmarks/bench`, and each is built in release the same way: both
// binaries run exactly the same scenarios, against their own library. Both
// binaries then run as workers (`bench --worker`) under this controller,
// prepare the same scenario from the same seeds, and time short batches of
// the same operation alternately (base then head, head then base, ...), so
// the machine's drift (the shared host's speed modes, other tenants) hits
// both sides of a pair alike. Batches alternate strictly (base, head, base,
// ...), so each follows a batch of the other process, and each head batch is
// paired with the mean of the base batches around it. The change is the
// median over rounds of fresh worker processes of each round's median
// head/base ratio; its 95 % confidence interval comes from a seeded
// bootstrap over the rounds.

// MARK: Worker

/// `bench --worker`: reads commands on standard input, one a line, and
/// answers one line each:
///   `prepare SCENARIO SIZE` -> `ready`, `ready reset` (each timed batch is
///                              then one operation, undone after it), or
///                              `bytes B` for a memory scenario
///   `run BATCH`             -> nanoseconds per operation of one timed batch;
///                              for a scenario with a reset, BATCH operations
///                              (at most, and as many as fit in 3 ms with their
///                              resets), each timed alone and undone, untimed,
///                              before the next: the mean of their times
///   `count BATCH`           -> `counted`, after exactly BATCH operations, no
///                              clock read: each runs inside
///                              `lazystackCountedOperation`, which callgrind
///                              counts alone (`--toggle-collect`), and for a
///                              scenario with a reset each is undone outside
///                              it (the same-work check, SameWork.swift)
///   `quit`
func runWorker() -> Never {
  var current: Prepared?
  func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
  while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    switch words.first {
    case "prepare" where words.count == 3:
      current = nil
      guard let size = Int(words[2]), scenarios.contains(where: { $0.name == words[1] }) else {
        answer("error unknown scenario or size: \(line)")
        continue
      }
      let prepared = prepare(CoreSubject.self, size, words[1])
      current = prepared
      answer(prepared.bytesPerRow.map { "bytes \($0)" } ?? (prepared.reset == nil ? "ready" : "ready reset"))
    case "run" where words.count == 2:
      guard let prepared = current, let batch = Int(words[1]), batch > 0 else {
        answer("error nothing prepared or bad batch: \(line)")
        continue
      }
      if let reset = prepared.reset {
        // One operation timed at a time (a batch of one is mostly noise for
        // a few microseconds of work), each undone before the next.
        var timed: UInt64 = 0
        var done = 0
        let deadline = now() + 3_000_000
        repeat {
          let start = now()
          prepared.operation()
          timed += now() - start
          reset()
          done += 1
        } while done < batch && now() < deadline
        prepared.tally?.check()
        answer(String(Double(timed) / Double(done)))
        continue
      }
      let start = now()
      for _ in 0 ..< batch { prepared.operation() }
      let elapsed = now() - start
      prepared.tally?.check()
      answer(String(Double(elapsed) / Double(batch)))
    case "count" where words.count == 2:
      guard let prepared = current, let batch = Int(words[1]), batch > 0 else {
        answer("error nothing prepared or bad batch: \(line)")
        continue
      }
      for _ in 0 ..< batch {
        lazystackCountedOperation(prepared.operation)
        prepared.reset?()
      }
      prepared.tally?.check()
      answer("counted")
    case "quit":
      exit(0)
    default:
      answer("error unknown command: \(line)")
    }
  }
  exit(0)
}

/// Runs one operation for `count`: the one function whose calls callgrind
/// counts (`--toggle-collect=*lazystackCountedOperation*`), so a reset or
/// the loop around it is left out. Never inlined: the count needs the call.
@inline(never)
func lazystackCountedOperation(_ operation: () -> Void) {
  operation()
}

// MARK: Statistics

/// `values` sorted by `key`, without the lowest and highest tenth (none
/// dropped below 10 values): a process whose memory layout made it
/// unusually fast or slow for its whole round moves an estimate no more
/// than its neighbours.
func trimmedTenth<T>(_ values: [T], by key: (T) -> Double) -> ArraySlice<T> {
  let sorted = values.sorted { key($0) < key($1) }
  let cut = sorted.count / 10
  return sorted[cut ..< sorted.count - cut]
}

func mean<C: Collection>(_ values: C) -> Double where C.Element == Double {
  values.reduce(0, +) / Double(Swift.max(1, values.count))
}

/// The mean of `values` without the lowest and highest tenth.
func trimmedMean(_ values: [Double]) -> Double {
  mean(trimmedTenth(values) { $0 })
}

/// The 95 % percentile interval of the trimmed mean of `values`, by a
/// seeded bootstrap (`resamples` resamples with replacement), so the same
/// values give the same interval.
func bootstrapTrimmedMeanInterval(_ values: [Double], resamples: Int = 2000, seed: UInt64 = 0x5EED) -> (Double, Double) {
  guard values.count > 1 else { return (values.first ?? .nan, values.first ?? .nan) }
  var rng = SeededRNG(seed: seed)
  var means: [Double] = []
  means.reserveCapacity(resamples)
  var sample = [Double](repeating: 0, count: values.count)
  for _ in 0 ..< resamples {
    for k in sample.indices { sample[k] = values[Int.random(in: 0 ..< values.count, using: &rng)] }
    means.append(trimmedMean(sample))
  }
  means.sort()
  return (means[Int(Double(resamples) * 0.025)], means[Int(Double(resamples) * 0.975) - 1])
}

/// What a comparison concludes for one scenario and size.
struct Comparison {
  var scenario: String
  var size: Int
  /// The base's and the head's time per operation: the geometric mean over
  /// rounds of each round's median, so `head / base - 1` is `change`
  /// exactly (the figures a reader compares say what the verdict says).
  var base: Double
  var head: Double
  /// head / base - 1: 0.12 means 12 % slower.
  var change: Double
  var low: Double
  var high: Double
  var pairs: Int
  /// Set when a regression's two builds do the same work an operation
  /// (`isPlacementOnly`, SameWork.swift).
  var placement = false

  /// `regression` when the interval lies wholly above +threshold (5 % by
  /// default), `improvement` when wholly below -threshold, else `same`;
  /// `placement` for a regression whose builds do the same work.
  var verdict: String {
    if low > Comparison.threshold { return placement ? "placement" : "regression" }
    if high < -Comparison.threshold { return "improvement" }
    return "same"
  }

  /// `--threshold` (a fraction): 0.05 unless given. CI's gate uses 5 % at
  /// 1e4 rows, where the data is in cache, and 15 % at 1e6, where each
  /// process's memory layout moves a case by up to about 15 %
  /// (Benchmarks/README.md, "How sensitive it is").
  nonisolated(unsafe) static var threshold = 0.05
}

/// Compares paired samples taken in rounds: `rounds[r][k]` holds the base's
/// and the head's time per operation of the k-th pair of round r.
///
/// A round (one pair of worker processes) gives one base and one head time,
/// the medians of its batches (robust to a batch the machine slowed down),
/// and one ratio, head / base. The change is the geometric mean of the
/// rounds' ratios without the lowest and highest tenth, with a bootstrap
/// interval over rounds (separate pairs of processes, whose memory layouts
/// differ: the interval includes that spread); the reported times are the
/// geometric means of the same rounds' times, whose ratio is the change.
/// (The change was the median of the rounds' median pair ratios, and the
/// times the medians of all batches: a run at 1e6 reported base 161 ns,
/// head 176 ns and "improvement -10.6 %", figures that contradict their
/// verdict.)
func compare(scenario: String, size: Int, rounds: [[(base: Double, head: Double)]]) -> Comparison {
  let logs = rounds.map { round in
    (base: Foundation.log(medianOf(round.map(\.base))), head: Foundation.log(medianOf(round.map(\.head))))
  }
  // The rounds the trimmed mean of the ratios keeps, so the times are the same rounds' means.
  let kept = trimmedTenth(logs) { $0.head - $0.base }
  let (low, high) = bootstrapTrimmedMeanInterval(logs.map { $0.head - $0.base })
  return Comparison(scenario: scenario, size: size, base: Foundation.exp(mean(kept.map(\.base))),
                    head: Foundation.exp(mean(kept.map(\.head))),
                    change: Foundation.exp(mean(kept.map { $0.head - $0.base })) - 1,
                    low: Foundation.exp(low) - 1, high: Foundation.exp(high) - 1,
                    pairs: rounds.reduce(0) { $0 + $1.count })
}

// MARK: Controller

/// A worker process: one line out, one line back.
final class Worker {
  let process = Process()
  let input = Pipe()
  let output = Pipe()
  var pending = Data()
  let name: String

  /// Starts `executable --worker`, pinned to processor `cpu` when
  /// `taskset` (util-linux) is there: both workers of a round share one
  /// processor, so neither runs on a processor the other does not (a CI
  /// run measured the head +38 % to +42 % slower on two scenarios, rounds
  /// after rounds, with the same binaries that read "same" when run again:
  /// the scheduler had kept each worker on its own processor, and one
  /// processor was slower for a while).
  init(executable: String, name: String, cpu: Int?) throws {
    self.name = name
    Worker.setCommand(of: process, executable, ["--worker"], cpu: cpu)
    process.standardInput = input
    process.standardOutput = output
    try process.run()
  }

  func ask(_ command: String) -> String {
    input.fileHandleForWriting.write(Data((command + "\n").utf8))
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[pending.startIndex ..< newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex ... newline)
        if line.hasPrefix("error") { compareFail("the \(name) worker: \(line)") }
        return line
      }
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { compareFail("the \(name) worker stopped (while: \(command))") }
      pending.append(chunk)
    }
  }

  func time(_ batch: Int) -> Double {
    guard let ns = Double(ask("run \(batch)")) else { compareFail("the \(name) worker sent no time") }
    return ns
  }

  static let taskset = "/usr/bin/taskset"

  /// Makes `process` run `executable` with `arguments`, pinned to processor
  /// `cpu` through `taskset` when both are there (the workers, and
  /// callgrind's workers of the same-work check).
  static func setCommand(of process: Process, _ executable: String, _ arguments: [String], cpu: Int?) {
    if let cpu, FileManager.default.isExecutableFile(atPath: taskset) {
      process.executableURL = URL(fileURLWithPath: taskset)
      process.arguments = ["-c", String(cpu), executable] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
    }
  }

  func stop() {
    input.fileHandleForWriting.write(Data("quit\n".utf8))
    process.waitUntilExit()
  }
}

/// Exit status 2: a usage or build error (not a verdict).
func compareFail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("bench --compare: \(message)\n".utf8))
  exit(2)
}

/// Runs a command; returns its exit status and its combined output.
@discardableResult
func shell(_ arguments: [String], in directory: String? = nil) -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  do { try process.run() } catch { return (127, "\(error)") }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The top of this git checkout.
func gitRoot() -> String {
  let top = shell(["git", "rev-parse", "--show-toplevel"])
  guard top.status == 0 else { compareFail("not in a git checkout: \(top.output)") }
  return top.output.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The git tree of `ref`.
func tree(of ref: String, in root: String) -> String {
  let resolved = shell(["git", "rev-parse", "--verify", "--quiet", "\(ref)^{tree}"], in: root)
  guard resolved.status == 0 else { compareFail("no commit \(ref) in \(root)") }
  return resolved.output.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The git tree of the working tree as it is (tracked files, uncommitted
/// changes included: `git stash create` records them without touching
/// anything). It refreshes the index under git's lock, so the paired
/// gate's two comparisons, started together, can meet there: a failed
/// attempt is tried again, five times in all, 0.2–0.8 s apart.
func workingTree(in root: String) -> String {
  var stash = shell(["git", "stash", "create"], in: root)
  for attempt in 1 ..< 5 where stash.status != 0 {
    Thread.sleep(forTimeInterval: 0.2 * Double(attempt))
    stash = shell(["git", "stash", "create"], in: root)
  }
  guard stash.status == 0 else { compareFail("git stash create failed: \(stash.output)") }
  let commit = stash.output.trimmingCharacters(in: .whitespacesAndNewlines)
  return tree(of: commit.isEmpty ? "HEAD" : commit, in: root)
}

/// Where `bench --compare` extracts and builds the trees it compares:
/// `$LAZYSTACK_COMPARE_CACHE` when set (CI keeps it outside the clone, so a
/// base built once is built before for every later run on the machine:
/// an optimisation only, a miss builds it), else `.build-compare` in the
/// checkout. At most `compareCacheKeep` trees are kept there; the ones
/// used least recently go first.
func compareDirectory(root: String) -> String {
  let cache = ProcessInfo.processInfo.environment["LAZYSTACK_COMPARE_CACHE"] ?? ""
  return cache.isEmpty ? "\(root)/.build-compare" : cache
}

/// How many built trees the compare directory keeps (each is a release
/// build: a few hundred megabytes).
let compareCacheKeep = 4

/// Removes all but the `keep` most recently used trees of `directory`
/// (a tree's `.bench-sources` stamp is rewritten each time it is used).
func pruneCompareDirectory(_ directory: String, keep: Int) {
  let fm = FileManager.default
  let entries = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.count == 40 }
  guard entries.count > keep else { return }
  func used(_ entry: String) -> Date {
    ((try? fm.attributesOfItem(atPath: "\(directory)/\(entry)/.bench-sources"))?[.modificationDate] as? Date) ?? .distantPast
  }
  for entry in entries.sorted(by: { used($0) > used($1) }).dropFirst(keep) {
    try? fm.removeItem(atPath: "\(directory)/\(entry)")
  }
}

/// Builds this tree's benchmark against the library of git tree `tree`, and
/// returns the binary's path. Base and head are both built this way, in
/// `<compare directory>/<tree>` (the same flags, from scratch): two builds
/// of one library made differently (this checkout's incremental `.build`
/// against a fresh one) measured `offset_to_index` 5 % apart, which the
/// pairing cannot tell from a change. A build is reused while the
/// benchmark sources and the toolchain are the same.
func buildBenchmark(tree: String, label: String, root: String) -> String {
  let benchSources = "\(root)/Benchmarks/bench"
  let files = ((try? FileManager.default.contentsOfDirectory(atPath: benchSources)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
  // A stable fingerprint of the benchmark sources (FNV-1a over their bytes).
  var fingerprint: UInt64 = 0xCBF2_9CE4_8422_2325
  for file in files {
    for byte in (try? Data(contentsOf: URL(fileURLWithPath: "\(benchSources)/\(file)"))) ?? Data() {
      fingerprint = (fingerprint ^ UInt64(byte)) &* 0x100_0000_01B3
    }
  }
  // The toolchain is part of the key: a cached base built by another
  // compiler is not the same build.
  for byte in shell(["swift", "--version"]).output.utf8 {
    fingerprint = (fingerprint ^ UInt64(byte)) &* 0x100_0000_01B3
  }
  let directories = compareDirectory(root: root)
  let directory = "\(directories)/\(tree)"
  let binary = "\(directory)/.build/release/bench"
  let stampFile = "\(directory)/.bench-sources"
  let want = String(fingerprint, radix: 16)
  if FileManager.default.isExecutableFile(atPath: binary),
     (try? String(contentsOfFile: stampFile, encoding: .utf8)) == want {
    try? want.write(toFile: stampFile, atomically: true, encoding: .utf8)  // used now
    print("\(label) (tree \(tree.prefix(12))): built before, in \(directory)")
    return binary
  }
  pruneCompareDirectory(directories, keep: compareCacheKeep - 1)
  print("\(label) (tree \(tree.prefix(12))): extracting and building in \(directory) (release)")
  try? FileManager.default.removeItem(atPath: directory)
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let extract = shell(["sh", "-c", "git archive --format=tar \(tree) | tar -x -C '\(directory)'"], in: root)
  guard extract.status == 0 else { compareFail("git archive \(tree) failed: \(extract.output)") }
  try? FileManager.default.removeItem(atPath: "\(directory)/Benchmarks/bench")
  do {
    try FileManager.default.createDirectory(atPath: "\(directory)/Benchmarks/bench", withIntermediateDirectories: true)
    for file in files {
      try FileManager.default.copyItem(atPath: "\(benchSources)/\(file)", toPath: "\(directory)/Benchmarks/bench/\(file)")
    }
  } catch {
    compareFail("copying the benchmark sources: \(error)")
  }
  let started = now()
  let build = shell(["swift", "build", "-c", "release", "--product", "bench"], in: directory)
  guard build.status == 0 else {
    compareFail("building \(label) with this benchmark failed (does it lack an API the benchmark uses?):\n"
                + build.output.split(separator: "\n").suffix(25).joined(separator: "\n"))
  }
  try? want.write(toFile: stampFile, atomically: true, encoding: .utf8)
  print(String(format: "%@: built in %.0f s", label, Double(now() - started) / 1e9))
  return binary
}

/// `bench --compare REF`: measures every selected scenario and size paired,
/// writes `DIR/compare.csv` and a table, and exits 1 if any verdict is a
/// regression, 0 otherwise (2 for a usage or build error). A case found a
/// regression, or undecided with an estimate above +5 %, is measured again
/// with fresh rounds and judged on all its rounds pooled (up to three
/// passes); the pooled figures are reported.
///
/// `headBinary`, when given, is the head: a release build of this very tree
/// made from scratch (CI's fresh clone builds one for the soak and the scale
/// test, and the gate uses it rather than build the same tree twice); it
/// must not be a checkout's incremental build (see `buildBenchmark`).
///
/// `cpu`, when given, pins every worker of every round (and callgrind) to
/// that processor, so that two comparisons can run side by side, one a
/// processor (CI's paired gate runs its two sizes so); otherwise each round
/// takes the next processor. `buildOnly` builds (or finds) the binaries
/// and exits 0: CI builds the base while its correctness jobs run.
func runCompare(ref: String, selected: [Scenario], sizes: [Int], quick: Bool, output: String,
                headBinary given: String? = nil, cpu pinned: Int? = nil, buildOnly: Bool = false) -> Never {
  let root = gitRoot()
  let baseBinary = buildBenchmark(tree: tree(of: ref, in: root), label: "base: \(ref)", root: root)
  let headBinary: String
  if let given {
    guard FileManager.default.isExecutableFile(atPath: given) else { compareFail("--head-binary \(given) is not an executable") }
    print("head: this tree, the release build at \(given)")
    headBinary = given
  } else {
    headBinary = buildBenchmark(tree: workingTree(in: root), label: "head: this tree", root: root)
  }
  if buildOnly {
    print("bench --compare \(ref) --build-only: built")
    exit(0)
  }
  // Many short rounds of fresh worker processes: each process's memory
  // layout shifts a memory-bound operation by up to ~15 % for its whole life
  // (one pair of processes is one sample of that), and adjacent batches on
  // this shared machine differ by up to ~30 %; both average out over rounds
  // and pairs. A time budget per case once the minimum is taken.
  // Rounds go on to the maximum while the budget lasts, and never stop
  // before the floor (cases whose reset is expensive, such as
  // invalidate_all at 1e6, stop near the floor; cheap ones reach the maximum).
  let maximumRounds = quick ? 40 : 80
  let minimumRounds = quick ? 8 : 16
  let pairsPerRound = 5
  let budget = quick ? 7.0 : 20.0  // seconds a case may take once it has its floor
  // A case stops at its floor once its interval lies clearly below the
  // threshold (its upper end under half of it): more rounds could not make
  // it a regression. A case near or above the threshold, or whose interval
  // is wide, goes on as before, so a real slowdown is measured in full.
  let clearlyInside = Comparison.threshold / 2
  let batchTarget = 3.0e6          // ns a timed batch should last
  print("bench --compare \(ref): \(selected.count) scenarios x \(sizes.count) sizes, paired (base vs head)\(quick ? ", quick" : "")"
        + (pinned.map { ", on processor \($0)" } ?? ""))
  var results: [Comparison] = []
  let started = now()

  /// Measures one case: memory exactly (no rounds), time in rounds of
  /// alternating batches.
  func measure(_ scenario: Scenario, _ size: Int) -> (Comparison, [[(base: Double, head: Double)]]) {
    let t0 = now()
    var batch: Int?
    var rounds: [[(base: Double, head: Double)]] = []
    while rounds.count < maximumRounds && (rounds.count < minimumRounds || Double(now() - t0) / 1e9 < budget) {
      if rounds.count >= minimumRounds
        && compare(scenario: scenario.name, size: size, rounds: rounds).high < clearlyInside { break }
      let base: Worker
      let head: Worker
      do {
        // Both on one processor: `pinned`, else a different one each round.
        let cpu = pinned ?? rounds.count % Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
        base = try Worker(executable: baseBinary, name: "base", cpu: cpu)
        head = try Worker(executable: headBinary, name: "head", cpu: cpu)
      } catch {
        compareFail("starting the workers: \(error)")
      }
      defer {
        base.stop()
        head.stop()
      }
      let a = base.ask("prepare \(scenario.name) \(size)")
      let b = head.ask("prepare \(scenario.name) \(size)")
      if a.hasPrefix("bytes"), b.hasPrefix("bytes"), let x = Double(a.dropFirst(6)), let y = Double(b.dropFirst(6)) {
        // Memory is exact: one pair, an interval of one point.
        let change = y / x - 1
        return (Comparison(scenario: scenario.name, size: size, base: x, head: y,
                           change: change, low: change, high: change, pairs: 1), [])
      }
      if batch == nil {
        // Calibrate one batch size on the head, then use it for both.
        // A scenario with a reset times up to 64 operations a batch, each
        // undone before the next (the worker stops a batch at 3 ms).
        var n = b.hasSuffix("reset") ? 64 : 1
        if !b.hasSuffix("reset") {
          while n < 1 << 22 {
            let ns = head.time(n)
            if ns * Double(n) >= batchTarget { break }
            n = ns <= 0 ? n * 16 : max(n * 2, Int(batchTarget / ns))
          }
          // A base far slower than the head (an operation the head made
          // O(log n) that was O(n)) would take minutes a batch at the
          // head's size: its batches stop at 10 targets (a clear
          // improvement needs no more).
          let baseNs = base.time(1)
          if baseNs * Double(n) > 10 * batchTarget { n = max(1, Int(10 * batchTarget / baseNs)) }
        }
        batch = n
      }
      let n = batch!
      _ = head.time(n)  // warm-up
      // Strictly alternating, base, head, base, head, ..., base: every batch
      // follows a batch of the other process (a process running twice in a
      // row would find its data warm). Each head batch is paired with the
      // mean of the base batches on either side, which also cancels a drift
      // of the machine's speed across the pair.
      var pairs: [(base: Double, head: Double)] = []
      var previous = base.time(n)
      while pairs.count < pairsPerRound {
        let y = head.time(n)
        let next = base.time(n)
        pairs.append(((previous + next) / 2, y))
        previous = next
      }
      if ProcessInfo.processInfo.environment["BENCH_DUMP_PAIRS"] != nil {
        print("  round \(rounds.count), batch \(n): " + pairs.map { String(format: "%.3f", $0.head / $0.base) }.joined(separator: " "))
      }
      rounds.append(pairs)
    }
    return (compare(scenario: scenario.name, size: size, rounds: rounds), rounds)
  }

  func show(_ r: Comparison, _ seconds: Double, note: String = "") {
    print(String(format: "%@ n=%-9d %@  change %+6.1f %% [%+6.1f, %+6.1f]  base %@ head %@  (%d pairs, %.1f s)%@",
                 r.scenario.padding(toLength: scenarioNameWidth, withPad: " ", startingAt: 0), r.size,
                 r.verdict.padding(toLength: 11, withPad: " ", startingAt: 0),
                 r.change * 100, r.low * 100, r.high * 100, String(format: "%.4g", r.base), String(format: "%.4g", r.head),
                 r.pairs, seconds, note))
    FileHandle.standardOutput.synchronizeFile()
  }

  for scenario in selected {
    for size in sizes {
      let t0 = now()
      var (r, rounds) = measure(scenario, size)
      show(r, Double(now() - t0) / 1e9)
      // Many cases at 95 % each: a false alarm somewhere in a run is likely,
      // so a regression found on the first pass is measured again with
      // fresh rounds, and the verdict is taken on all the rounds together
      // (twice the data: a real 10 % slowdown clears +5 % more surely, a
      // chance excursion is diluted). An undecided case whose estimate is
      // above +5 % (its interval reaching below) also gets more rounds, up
      // to three passes in all.
      var passes = 1
      while !rounds.isEmpty && passes < 3
        && (r.verdict == "regression" && passes == 1 || r.verdict == "same" && r.change > Comparison.threshold) {
        let t1 = now()
        rounds += measure(scenario, size).1
        passes += 1
        r = compare(scenario: scenario.name, size: size, rounds: rounds)
        show(r, Double(now() - t1) / 1e9, note: "  pooled, \(passes) passes" + (r.verdict == "regression" ? ": confirmed" : ""))
      }
      // A confirmed slowdown: do the two builds do the same work?
      if r.verdict == "regression" && !rounds.isEmpty {
        r.placement = isPlacementOnly(r, base: baseBinary, head: headBinary, cpu: pinned)
      }
      results.append(r)
    }
  }
  // Report.
  var csv = "scenario,size,base,head,change,ci_low,ci_high,verdict\n"
  for r in results {
    csv += "\(r.scenario),\(r.size),\(r.base),\(r.head),"
      + String(format: "%.4f,%.4f,%.4f", r.change, r.low, r.high) + ",\(r.verdict)\n"
  }
  try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
  do {
    try csv.write(toFile: "\(output)/compare.csv", atomically: true, encoding: .utf8)
  } catch {
    compareFail("writing \(output)/compare.csv: \(error)")
  }
  let regressions = results.filter { $0.verdict == "regression" }
  let improvements = results.filter { $0.verdict == "improvement" }
  let placements = results.filter { $0.verdict == "placement" }
  print(String(format: "\ncompare: %d cases, %d regressions, %d improvements, %d placement effects (threshold ±%.0f %%, 95 %% intervals); wrote %@/compare.csv in %.0f s",
               results.count, regressions.count, improvements.count, placements.count, Comparison.threshold * 100, output, Double(now() - started) / 1e9))
  for r in placements {
    print(String(format: "  PLACEMENT %@ n=%d: %+.1f %% [%+.1f, %+.1f] in time, the same work counted in both builds (not a regression)",
                 r.scenario, r.size, r.change * 100, r.low * 100, r.high * 100))
  }
  for r in regressions {
    print(String(format: "  REGRESSION %@ n=%d: %+.1f %% [%+.1f, %+.1f]", r.scenario, r.size, r.change * 100, r.low * 100, r.high * 100))
  }
  exit(regressions.isEmpty ? 0 : 1)
}
