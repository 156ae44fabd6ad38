import Foundation
import LazyStackCore

// `swift run -c release bench [--quick | --full] [--check] [--filter NAME] [--sizes N,N] [--output DIR]
//                              [--baseline FILE] [--update-baseline]`
// `swift run -c release bench --compare REF [--quick] [--filter NAME] [--sizes N,N] [--output DIR]`

let usage = """
usage: swift run -c release bench [options]
  (no option)        every scenario, the core at 1e3 to 1e6 rows beside the naive model
                     wherever one naive operation takes at most 20 ms (a minute or two);
                     writes Reports/runs/DATE-COMMIT/ (ignored by git)
  --full             the complete run: the naive model at every size, and 1e7 rows added
                     (unless --sizes is given)
  --quick            fewer samples
  --check            regression gate against Reports/baseline.csv (exit 1 on a regression)
  --filter NAME      only scenarios whose name contains NAME (repeatable)
  --sizes N,N,...    row counts (default 1000,10000,100000,1000000)
  --variant NAME     only one variant (core or naive), for profiling
  --naive-limit MS   run the naive model at a size only if one operation there is predicted
                     (from the size before, as O(n)) to take at most MS milliseconds
                     (default 20; --full: no limit)
  --runs N           measure every case N times (1-9), in N passes over the scenarios, and
                     report the lowest of the N medians (default 1; 3 with --check and
                     --update-baseline)
  --measured N|P%    rows measured (random, 20-200 pt) in each prepared layout before timing:
                     a count, or a percentage of the rows (default 50)
  --anchor top|center|bottom
                     the scroll anchor of each prepared layout (default none: the top)
  --profile          sample for 4 s per case (for a profiler)
  --output DIR       where results.csv, meta.json, index.html and the SVG charts go
                     (default Reports/runs/DATE-COMMIT)
  --baseline FILE    the baseline for --check (default Reports/baseline.csv)
  --update-baseline  write this run's results as the baseline
  --compare REF      paired comparison of the library at git ref REF (base) with this tree
                     (head), core only, default size 1000000: DIR/compare.csv, exit 1 on a
                     regression (a 95 % interval wholly above +threshold), 2 on a usage or
                     build error or a worker that failed
  --threshold P      with --compare: the change in percent that counts (default 5)
  --head-binary PATH with --compare: the head is this release build of this very tree, made
                     from scratch (CI's clone), instead of a build of its own
  --cpu N            with --compare: every worker (and callgrind) on processor N, rather than
                     a different one each round (two comparisons side by side, one a processor)
  --build-only       with --compare: build the base (and the head, without --head-binary)
                     into the compare directory, or find them built, and exit
"""

/// Where the date and commit of the baseline at `path` are kept:
/// `Reports/baseline.csv` -> `Reports/baseline-meta.json`.
func baselineMetaPath(_ path: String) -> String {
  (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + "-meta.json"
}

/// Whether this is a debug build (a call, so neither branch reads as dead code).
func isDebugBuild() -> Bool {
  #if DEBUG
  return true
  #else
  return false
  #endif
}
if isDebugBuild() {
  FileHandle.standardError.write("bench: refusing to run a debug build; use `swift run -c release bench`\n".data(using: .utf8)!)
  exit(2)
}

if CommandLine.arguments.dropFirst().first == "--worker" { runWorker() }

var profile = false
var compareRef: String?
var threshold: Double?
var headBinary: String?
var compareCPU: Int?
var buildOnly = false
var sizesGiven = false
var quick = false, full = false, check = false, updateBaseline = false
var filters: [String] = []
var variants = ["core", "naive"]
var sizes = [1_000, 10_000, 100_000, 1_000_000]
var output: String?
var baselinePath = "Reports/baseline.csv"
var naiveLimitMilliseconds: Double?
var runs = 1
var runsGiven = false
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let a = arguments.removeFirst()
  switch a {
  case "--quick": quick = true
  case "--profile": profile = true
  case "--full": full = true
  case "--check": check = true
  case "--update-baseline": updateBaseline = true
  case "--filter" where !arguments.isEmpty: filters.append(arguments.removeFirst())
  case "--sizes" where !arguments.isEmpty:
    let parsed = arguments.removeFirst().split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
    guard !parsed.isEmpty else { print(usage); exit(2) }
    sizes = parsed.sorted()
    sizesGiven = true
  case "--variant" where !arguments.isEmpty:
    let value = arguments.removeFirst()
    guard ["core", "naive"].contains(value) else { print("bench: --variant takes core or naive\n\(usage)"); exit(2) }
    variants = [value]
  case "--naive-limit" where !arguments.isEmpty:
    guard let ms = Double(arguments.removeFirst()), ms > 0, ms.isFinite else {
      print("bench: --naive-limit takes a positive number of milliseconds\n\(usage)"); exit(2)
    }
    naiveLimitMilliseconds = ms
  case "--runs" where !arguments.isEmpty:
    guard let n = Int(arguments.removeFirst()), n >= 1, n <= 9 else { print("bench: --runs takes 1 to 9\n\(usage)"); exit(2) }
    runs = n
    runsGiven = true
  case "--measured" where !arguments.isEmpty:
    let value = arguments.removeFirst()
    guard MeasuredRows(value) != nil else {
      print("bench: --measured takes a count or a percentage such as 10%\n\(usage)"); exit(2)
    }
    setenv("LAZYSTACK_BENCH_MEASURED", value, 1)  // the paired comparison's workers inherit it
  case "--anchor" where !arguments.isEmpty:
    let value = arguments.removeFirst()
    guard ["top", "center", "bottom"].contains(value) else { print("bench: --anchor takes top, center or bottom\n\(usage)"); exit(2) }
    setenv("LAZYSTACK_BENCH_ANCHOR", value, 1)
  case "--output" where !arguments.isEmpty: output = arguments.removeFirst()
  case "--baseline" where !arguments.isEmpty: baselinePath = arguments.removeFirst()
  case "--compare" where !arguments.isEmpty: compareRef = arguments.removeFirst()
  case "--head-binary" where !arguments.isEmpty: headBinary = arguments.removeFirst()
  case "--cpu" where !arguments.isEmpty:
    guard let n = Int(arguments.removeFirst()), n >= 0, n < ProcessInfo.processInfo.activeProcessorCount else {
      print("bench: --cpu takes a processor number below \(ProcessInfo.processInfo.activeProcessorCount)\n\(usage)"); exit(2)
    }
    compareCPU = n
  case "--build-only": buildOnly = true
  case "--threshold" where !arguments.isEmpty:
    guard let percent = Double(arguments.removeFirst()), percent > 0, percent < 100 else {
      print("bench: --threshold takes a percentage between 0 and 100, such as 15\n\(usage)"); exit(2)
    }
    threshold = percent / 100
  case "--help", "-h": print(usage); exit(0)
  default: print("bench: unknown argument \(a)\n\(usage)"); exit(2)
  }
}
if full && !sizesGiven && !sizes.contains(10_000_000) { sizes.append(10_000_000) }
if (check || updateBaseline) && !runsGiven { runs = 3 }
if full && naiveLimitMilliseconds != nil { print("bench: --full runs the naive model at every size; --naive-limit goes without it\n\(usage)"); exit(2) }

var corePolicy = quick ? SamplingPolicy(samples: 15, budget: 0.25) : SamplingPolicy(samples: 41, budget: 1.0)
if profile { corePolicy = SamplingPolicy(samples: 100_000, budget: 4) }
// The naive model's samples: as many within less time outside --full, where
// it is the reference beside the core rather than a result of its own.
let naivePolicy = quick ? SamplingPolicy(samples: 9, budget: 0.3)
  : full ? SamplingPolicy(samples: 21, budget: 2.0) : SamplingPolicy(samples: 11, budget: 0.5)
/// The naive model runs at a size only if one operation there is predicted
/// to take at most this long (nanoseconds), from its median at the size
/// before, scaled as O(n); at the smallest two sizes it always runs, so
/// every scenario has a naive figure beside the core. `nil` (`--full`): no
/// limit.
let naiveLimit: Double? = full ? nil : (naiveLimitMilliseconds ?? 20) * 1e6
let selected = scenarios.filter { s in filters.isEmpty || filters.contains { s.name.contains($0) } }
guard !selected.isEmpty else { print("bench: no scenario matches \(filters)"); exit(2) }
if threshold != nil && compareRef == nil { print("bench: --threshold goes with --compare\n\(usage)"); exit(2) }
if headBinary != nil && compareRef == nil { print("bench: --head-binary goes with --compare\n\(usage)"); exit(2) }
if (compareCPU != nil || buildOnly) && compareRef == nil { print("bench: --cpu and --build-only go with --compare\n\(usage)"); exit(2) }
if let ref = compareRef {
  if check || updateBaseline || full || profile || naiveLimitMilliseconds != nil {
    print("bench: --compare goes with --quick, --filter, --sizes, --threshold, --head-binary, --cpu, --build-only and --output only\n\(usage)"); exit(2)
  }
  if let threshold { Comparison.threshold = threshold }
  runCompare(ref: ref, selected: selected, sizes: sizesGiven ? sizes : [1_000_000], quick: quick,
             output: output ?? "Reports/compare", headBinary: headBinary, cpu: compareCPU, buildOnly: buildOnly)
}

/// This run's folder: `--output`, else a fresh one under `Reports/runs/`
/// (git ignores it: a run never touches the committed reports).
let outputDirectory: String = output ?? {
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(identifier: "UTC")
  formatter.dateFormat = "yyyy-MM-dd'T'HHmmss"
  let commit = shell("git rev-parse --short HEAD") ?? "nocommit"
  return "Reports/runs/\(formatter.string(from: Date()))-\(commit)"
}()

func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(1, width - s.count)) + s }

/// A duration for people: `1:05` (minutes and seconds) or `42 s`.
func clock(_ seconds: Double) -> String {
  let s = Int(seconds.rounded())
  return s >= 60 ? String(format: "%d:%02d", s / 60, s % 60) : "\(s) s"
}

/// A size for people: 1e3, 1e6, 2.5e5.
func sizeLabel(_ n: Int) -> String {
  var m = Double(n), e = 0
  while m >= 10 && m.truncatingRemainder(dividingBy: 10) == 0 { m /= 10; e += 1 }
  return m == 1 ? "1e\(e)" : (e == 0 ? String(n) : String(format: "%ge%d", m, e))
}

let variantLabel = variants.count == 2 ? (naiveLimit == nil ? "core and naive" : "core, and naive where it takes at most \(human(naiveLimit!, "ns")) an operation") : variants[0]
print("LazyStackCore benchmark: \(selected.count) scenarios x \(sizes.map(sizeLabel).joined(separator: ", ")) rows, \(variantLabel)\(quick ? " (quick)" : full ? " (full)" : "")")
print("writing to \(outputDirectory)/")
var results: [Result] = []
/// Cases skipped because the naive model would take too long: (scenario, size, predicted ns an operation).
var skipped: [(String, Int, Double)] = []
let total = selected.count * sizes.count * variants.count
var done = 0
let started = now()
/// Each pass's results (`--runs`).
var passes: [[Result]] = []
/// The seconds the cases of each (variant, size) took so far: the estimate of the time left.
var caseSeconds: [String: (sum: Double, count: Int)] = [:]

/// Runs one case (scenario, size, variant) with its variant's policy.
@MainActor func measureCase(_ s: Scenario, _ size: Int, _ variant: String) -> Result {
  Result(scenario: s.name, variant: variant, size: size, unit: s.growth == .memory ? "B/row" : "ns",
         values: s.run(variant, size, variant == "core" ? corePolicy : naivePolicy))
}

/// The naive model's median at the largest size below `size` this run measured.
@MainActor func previousNaive(_ scenario: String, before size: Int) -> (size: Int, median: Double)? {
  results.filter { $0.scenario == scenario && $0.variant == "naive" && $0.size < size }
    .max { $0.size < $1.size }.map { ($0.size, $0.median) }
}

/// Whether the naive model runs `scenario` at `size`, and the operation's predicted time.
@MainActor func naiveRuns(_ s: Scenario, _ size: Int) -> (runs: Bool, predicted: Double) {
  guard let limit = naiveLimit, s.growth != .memory else { return (true, 0) }
  let smallerSizes = sizes.filter { $0 < size }
  if smallerSizes.count < 2 { return (true, 0) }  // the two smallest sizes always run
  guard let before = previousNaive(s.name, before: size) else { return (false, .infinity) }  // skipped below: skipped here
  let predicted = before.median * Double(size) / Double(before.size)
  return (predicted <= limit, predicted)
}

/// The time left: each remaining case at the mean of its (variant, size)
/// so far (or of every case); a naive case that the limit may skip counts
/// for the share of naive cases of its size that ran so far.
@MainActor func secondsLeft(after scenarioIndex: Int, _ sizeIndex: Int, _ variantIndex: Int) -> Double {
  let all = caseSeconds.values.reduce((0.0, 0)) { ($0.0 + $1.sum, $0.1 + $1.count) }
  let overall = all.1 > 0 ? all.0 / Double(all.1) : 0
  var left = 0.0
  for (i, s) in selected.enumerated() {
    for (j, size) in sizes.enumerated() {
      for (k, variant) in variants.enumerated() where (i, j, k) > (scenarioIndex, sizeIndex, variantIndex) {
        var weight = 1.0
        if variant == "naive" && s.growth != .memory && naiveLimit != nil && j >= 2 {
          if i == scenarioIndex, previousNaive(s.name, before: size)?.size == sizes[j - 1] {
            weight = naiveRuns(s, size).runs ? 1 : 0  // the size before ran: the rule decides
          } else {
            let ran = caseSeconds["naive \(size)"]?.count ?? 0
            let notRun = skipped.filter { $0.1 == size }.count
            weight = ran + notRun > 0 ? Double(ran) / Double(ran + notRun) : 1
          }
        }
        left += weight * (caseSeconds["\(variant) \(size)"].map { $0.sum / Double($0.count) } ?? overall)
      }
    }
  }
  return left
}

for pass in 1 ... runs {
  done = 0
  for (i, s) in selected.enumerated() {
    for (j, size) in sizes.enumerated() {
      for (k, variant) in variants.enumerated() {
        done += 1
        if pass > 1 {
          // A later pass measures the cases the first one measured, no others.
          guard let first = passes[0].first(where: { $0.scenario == s.name && $0.size == size && $0.variant == variant }) else { continue }
          let r = measureCase(s, size, variant)
          results.append(r)
          print("pass \(pass) of \(runs): \(s.name.padding(toLength: scenarioNameWidth, withPad: " ", startingAt: 0)) n=\(sizeLabel(size).padding(toLength: 4, withPad: " ", startingAt: 0)) \(variant.padding(toLength: 6, withPad: " ", startingAt: 0)) \(pad(human(r.median, r.unit), 10))  (first pass \(human(first.median, first.unit)))")
          continue
        }
        let progress = "[" + String(repeating: " ", count: String(total).count - String(done).count) + "\(done)/\(total)]"
        let name = s.name.padding(toLength: scenarioNameWidth, withPad: " ", startingAt: 0)
        let sizeText = "n=\(sizeLabel(size))".padding(toLength: 6, withPad: " ", startingAt: 0)
        let variantText = variant.padding(toLength: 6, withPad: " ", startingAt: 0)
        if variant == "naive" {
          let decision = naiveRuns(s, size)
          if !decision.runs {
            skipped.append((s.name, size, decision.predicted))
            let why = decision.predicted.isFinite ? "predicted \(human(decision.predicted, "ns")) an operation" : "skipped at a smaller size"
            print("\(progress) \(name) \(sizeText) \(variantText) skipped (\(why); --full runs it)")
            continue
          }
        }
        let t0 = now()
        let r = measureCase(s, size, variant)
        results.append(r)
        let seconds = Double(now() - t0) / 1e9
        let key = "\(variant) \(size)"
        caseSeconds[key] = ((caseSeconds[key]?.sum ?? 0) + seconds, (caseSeconds[key]?.count ?? 0) + 1)
        let elapsed = Double(now() - started) / 1e9
        print("\(progress) \(name) \(sizeText) \(variantText) \(pad(human(r.median, r.unit), 10))  (\(r.values.count) samples, \(String(format: "%.1f", seconds)) s)  \(clock(elapsed)) elapsed, about \(clock(secondsLeft(after: i, j, k))) left")
        FileHandle.standardOutput.synchronizeFile()
      }
    }
  }
  passes.append(results)
  results = []
}
// With --runs N, a case's figure is the lowest of its N passes' medians,
// and its samples are those of that pass. Passes a minute apart meet
// different phases of a shared machine (a memory-bound case at 1e6 rows
// read 197, 219, 352 and 457 ns in four runs of one tree, its naive
// reference steady): the machine's noise only ever adds time, and a real
// slowdown raises every pass.
results = runs == 1 ? passes[0] : passes[0].map { first in
  passes.compactMap { pass in
    pass.first { $0.scenario == first.scenario && $0.size == first.size && $0.variant == first.variant }
  }.min { $0.median < $1.median }!
}

@MainActor func median(_ scenario: String, _ variant: String, _ size: Int, in rows: [Row]) -> Double? {
  rows.first { $0.scenario == scenario && $0.variant == variant && $0.size == size }?.median
}

let rows = results.map(Row.init)
let smallest = sizes.min()!
let headline = sizes.contains(1_000_000) ? 1_000_000 : sizes.max()!

/// The largest size at which the naive model ran `scenario` (at most `headline`).
@MainActor func naiveSize(_ scenario: String, in rows: [Row]) -> Int? {
  rows.filter { $0.scenario == scenario && $0.variant == "naive" && $0.size <= headline }.map(\.size).max()
}

// Reports.
try? FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
try! csv(results).write(toFile: "\(outputDirectory)/results.csv", atomically: true, encoding: .utf8)
try! metaJSON(arguments: Array(CommandLine.arguments.dropFirst())).write(toFile: "\(outputDirectory)/meta.json", atomically: true, encoding: .utf8)
try? FileManager.default.createDirectory(atPath: "\(outputDirectory)/charts", withIntermediateDirectories: true)
for s in selected {
  let series = [("core", "#2b7bb9"), ("naive", "#d9534f")].map { name, color in
    (name: name, color: color, points: sizes.compactMap { n in median(s.name, name, n, in: rows).map { (n, $0) } })
  }
  try! lineChart(scenario: s.name, summary: s.summary, unit: s.growth == .memory ? "B/row" : "ns", series: series)
    .write(toFile: "\(outputDirectory)/charts/\(s.name).svg", atomically: true, encoding: .utf8)
}
/// Speedups of the core over the naive model, each at the largest size the naive model ran.
let speedups: [(name: String, size: Int, speedup: Double)] = selected.filter { $0.growth != .memory }.compactMap { s in
  guard let m = naiveSize(s.name, in: rows), let c = median(s.name, "core", m, in: rows),
        let n = median(s.name, "naive", m, in: rows) else { return nil }
  return (s.name, m, n / c)
}
try! speedupChart(speedups: speedups).write(toFile: "\(outputDirectory)/charts/speedup.svg", atomically: true, encoding: .utf8)
try! indexPage(scenarios: selected.map { ($0.name, $0.summary) }, arguments: Array(CommandLine.arguments.dropFirst()))
  .write(toFile: "\(outputDirectory)/index.html", atomically: true, encoding: .utf8)
if updateBaseline {
  try! csv(results).write(toFile: baselinePath, atomically: true, encoding: .utf8)
  // When and from which commit the baseline comes (the gate prints it).
  let metaPath = baselineMetaPath(baselinePath)
  try! metaJSON(arguments: Array(CommandLine.arguments.dropFirst())).write(toFile: metaPath, atomically: true, encoding: .utf8)
  print("baseline written to \(baselinePath) (its date and commit: \(metaPath))")
}

// The table people read.
print("\nThe core's median an operation at each size; the naive model's at the largest size it ran; the speedup there; the core's growth from n=\(sizeLabel(smallest)) to n=\(sizeLabel(headline)):")
var header = "scenario".padding(toLength: scenarioNameWidth + 1, withPad: " ", startingAt: 0)
for n in sizes { header += pad("n=\(sizeLabel(n))", 11) }
header += pad("naive", 11) + pad("at", 5) + pad("speedup", 10) + pad("growth", 8)
print(header)
for s in selected {
  var line = s.name.padding(toLength: scenarioNameWidth + 1, withPad: " ", startingAt: 0)
  let unit = s.growth == .memory ? "B/row" : "ns"
  for n in sizes { line += pad(median(s.name, "core", n, in: rows).map { human($0, unit) } ?? "-", 11) }
  let m = naiveSize(s.name, in: rows)
  let naive = m.flatMap { median(s.name, "naive", $0, in: rows) }
  let core = m.flatMap { median(s.name, "core", $0, in: rows) }
  line += pad(naive.map { human($0, unit) } ?? "-", 11) + pad(m.map(sizeLabel) ?? "-", 5)
  let speed = s.growth == .memory ? "-" : (naive.flatMap { n in core.map { String(format: "%.0fx", n / $0) } } ?? "-")
  line += pad(speed, 10)
  let hi = median(s.name, "core", headline, in: rows), low = median(s.name, "core", smallest, in: rows)
  line += pad(hi.flatMap { c in low.map { String(format: "%.1f", c / $0) } } ?? "-", 8)
  print(line)
}
if !skipped.isEmpty {
  print("\nThe naive model was skipped in \(skipped.count) cases, where one operation would take over \(human(naiveLimit ?? 0, "ns")) (--full runs them all).")
}
print(String(format: "\nwrote %@/index.html (every chart), results.csv, meta.json and charts/*.svg in %@", outputDirectory,
             clock(Double(now() - started) / 1e9)))

if check {
  guard let baseline = readCSV(baselinePath) else {
    print("bench --check: no baseline at \(baselinePath)")
    exit(1)
  }
  let metaPath = baselineMetaPath(baselinePath)
  if let meta = try? String(contentsOfFile: metaPath, encoding: .utf8) {
    print("\nbench --check: the baseline's run: " + meta.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
  } else {
    print("\nbench --check: the baseline \(baselinePath) has no \(metaPath) (no date or commit)")
  }
  // A scenario this run measured that the baseline has no row for cannot
  // be judged: a failure (the baseline is to be remade), never a silent pass.
  let unjudged = selected.filter { s in
    rows.contains { $0.scenario == s.name && $0.size == headline }
      && !baseline.contains { $0.scenario == s.name && $0.size == headline }
  }
  for s in unjudged {
    print("\nbench --check: FAIL \(s.name): \(baselinePath) has no row for it at n=\(headline), so it cannot be judged "
          + "(remake the baseline: bench --quick --update-baseline)")
  }
  guard var failed = gate(results: rows, baseline: baseline, scenarios: selected, smallest: smallest, headline: headline)
  else { exit(1) }
  // The machine is shared: a slow phase during one scenario's few quick
  // samples can fail a check (a quick CI run once measured index_to_offset
  // at 1e6 at 541 ns, where five quick runs right after read 75-139 ns; one
  // measured measure's speedup at 0.48 of the baseline's, which passed when
  // measured again). A failure stands only if the scenario fails twice
  // more, measured anew each time; a 2x slowdown reads about 0.5 every time.
  var attempt = 0
  while !failed.isEmpty && attempt < 2 {
    attempt += 1
    let again = selected.filter { failed.contains($0.name) }
    print("\nbench --check: measuring again (\(attempt) of 2) \(again.map(\.name).joined(separator: ", ")) (a failure must repeat twice to count)")
    var remeasured = rows.filter { !failed.contains($0.scenario) }
    // The same cases as the first pass (the naive model where it ran).
    for s in again {
      // Each the best of as many measurements as the first pass took (--runs).
      for r in rows where r.scenario == s.name {
        remeasured.append(Row((1 ... runs).map { _ in measureCase(s, r.size, r.variant) }.min { $0.median < $1.median }!))
      }
    }
    // Nothing to compare on the re-measure is no verdict: a failure.
    guard let confirmed = gate(results: remeasured, baseline: baseline, scenarios: again, smallest: smallest,
                               headline: headline) else { exit(1) }
    failed = confirmed
  }
  if !unjudged.isEmpty {
    print("bench --check: FAILED: no baseline for \(unjudged.map(\.name).joined(separator: ", ")) at n=\(headline)")
  }
  exit(failed.isEmpty && unjudged.isEmpty ? 0 : 1)
}
