import Foundation

let csvHeader = "scenario,variant,size,unit,samples,min,median,p90,max"

func format(_ v: Double) -> String {
  if v.isNaN { return "nan" }
  return v >= 100 ? String(format: "%.0f", v) : String(format: "%.2f", v)
}

func csv(_ results: [Result]) -> String {
  var lines = [csvHeader]
  for r in results {
    lines.append([r.scenario, r.variant, String(r.size), r.unit, String(r.values.count),
                  format(r.min), format(r.median), format(r.p90), format(r.max)].joined(separator: ","))
  }
  return lines.joined(separator: "\n") + "\n"
}

/// A row of a results CSV, read back (for the baseline).
struct Row {
  var scenario: String
  var variant: String
  var size: Int
  var unit: String
  var median: Double
}

extension Row {
  /// The row a measured case reports: its median.
  init(_ result: Result) {
    self.init(scenario: result.scenario, variant: result.variant, size: result.size, unit: result.unit,
              median: result.median)
  }
}

func readCSV(_ path: String) -> [Row]? {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
  var rows: [Row] = []
  for line in text.split(separator: "\n").dropFirst() {
    let f = line.split(separator: ",").map(String.init)
    guard f.count == 9, let size = Int(f[2]), let median = Double(f[6]) else { continue }
    rows.append(Row(scenario: f[0], variant: f[1], size: size, unit: f[3], median: median))
  }
  return rows
}

func shell(_ command: String) -> String? {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

func metaJSON(arguments: [String]) -> String {
  let commit = shell("git rev-parse HEAD") ?? "unknown"
  let dirty = (shell("git status --porcelain -- Sources Benchmarks Package.swift") ?? "").isEmpty ? false : true
  let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
    .split(separator: "\n").first { $0.hasPrefix("model name") }?
    .split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
    ?? shell("sysctl -n machdep.cpu.brand_string") ?? "unknown"
  let toolchain = shell("swift --version 2>&1 | head -1") ?? "unknown"
  let object: [String: Any] = [
    "commit": commit,
    "uncommitted_changes": dirty,
    "date": ISO8601DateFormatter().string(from: Date()),
    "toolchain": toolchain,
    "cpu": cpu,
    "cores": ProcessInfo.processInfo.activeProcessorCount,
    "memory_bytes": ProcessInfo.processInfo.physicalMemory,
    "os": ProcessInfo.processInfo.operatingSystemVersionString,
    "build_configuration": "release (-c release, whole-module optimization; internal checks off)",
    "arguments": arguments,
  ]
  let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
  return String(decoding: data, as: UTF8.self) + "\n"
}

/// A median for people: ns, µs, ms or s (or bytes a row).
func human(_ value: Double, _ unit: String) -> String {
  if value.isNaN { return "-" }
  if unit != "ns" { return String(format: "%.1f B", value) }
  if value >= 1e9 { return String(format: "%.2f s", value / 1e9) }
  if value >= 1e6 { return String(format: "%.2f ms", value / 1e6) }
  if value >= 1e3 { return String(format: "%.2f µs", value / 1e3) }
  return String(format: value >= 100 ? "%.0f ns" : "%.1f ns", value)
}

// MARK: SVG charts, drawn by hand (no dependencies)

func escape(_ s: String) -> String {
  s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: "\"", with: "&quot;")
}

/// `text` broken into lines of at most `width` characters, at spaces.
func wrap(_ text: String, width: Int) -> [String] {
  var lines: [String] = []
  var line = ""
  for word in text.split(separator: " ") {
    if !line.isEmpty && line.count + 1 + word.count > width {
      lines.append(line)
      line = ""
    }
    line += (line.isEmpty ? "" : " ") + word
  }
  if !line.isEmpty { lines.append(line) }
  return lines
}

/// A tick's label on a log axis: `500 ns`, `2 µs`, `20 B`, or for rows `1k`, `1M`.
func tickLabel(_ v: Double, unit: String) -> String {
  func trim(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(format: "%g", x) }
  switch unit {
  case "ns":
    if v >= 1e9 { return trim(v / 1e9) + " s" }
    if v >= 1e6 { return trim(v / 1e6) + " ms" }
    if v >= 1e3 { return trim(v / 1e3) + " µs" }
    return trim(v) + " ns"
  case "rows":
    if v >= 1e6 { return trim(v / 1e6) + "M" }
    if v >= 1e3 { return trim(v / 1e3) + "k" }
    return trim(v)
  default:
    return trim(v) + " B"
  }
}

/// Tick values for a log axis from 10^lo to 10^hi: 1, 2 and 5 of each
/// decade when it spans two decades or more; else round values evenly
/// spaced (2, 5 or 10 of a power of ten apart), at least four of them, so a
/// value can be read off an axis that spans less than a decade.
func logTicks(lo: Double, hi: Double) -> [Double] {
  if hi - lo >= 2 {
    var ticks: [Double] = []
    for e in Int(floor(lo)) ... Int(ceil(hi)) {
      for m in [1.0, 2, 5] {
        let v = m * pow(10, Double(e))
        if log10(v) >= lo - 1e-9 && log10(v) <= hi + 1e-9 { ticks.append(v) }
      }
    }
    return ticks
  }
  let low = pow(10, lo), high = pow(10, hi)
  let rough = (high - low) / 6
  let magnitude = pow(10, floor(log10(rough)))
  let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
  var ticks: [Double] = []
  var v = ceil(low / step) * step
  while v <= high * (1 + 1e-9) {
    if v > 0 { ticks.append(v) }
    v += step
  }
  return ticks
}

/// Median against n on log-log axes, one line per variant, titled with the
/// scenario's name and its one-line meaning (wrapped), each axis labelled,
/// and the last point of each line labelled with its value.
func lineChart(scenario: String, summary: String, unit: String,
               series: [(name: String, color: String, points: [(Int, Double)])]) -> String {
  let summaryLines = wrap(summary, width: 92)
  let width = 680.0, left = 86.0, right = 130.0
  let top = 44.0 + Double(summaryLines.count) * 16, plotHeight = 300.0, bottom = 52.0
  let height = top + plotHeight + bottom
  let all = series.flatMap(\.points).filter { $0.1 > 0 && $0.1.isFinite }
  guard !all.isEmpty else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>" }
  let xs = all.map { log10(Double($0.0)) }, ys = all.map { log10($0.1) }
  let x0 = floor(xs.min()!), x1 = max(ceil(xs.max()!), x0 + 1)
  // The y axis: whole decades when the values span two or more, else the
  // values' own range with a margin (bytes a row span less than one).
  var y0 = ys.min()!, y1 = ys.max()!
  if y1 - y0 >= 2 { y0 = floor(y0); y1 = ceil(y1) } else { y0 -= 0.08; y1 += 0.08; if y1 - y0 < 0.5 { let c = (y0 + y1) / 2; y0 = c - 0.25; y1 = c + 0.25 } }
  func px(_ n: Double) -> Double { left + (log10(n) - x0) / (x1 - x0) * (width - left - right) }
  func py(_ v: Double) -> Double { top + plotHeight - (log10(v) - y0) / (y1 - y0) * plotHeight }
  let valueWord = unit == "ns" ? "median time an operation" : "bytes a row"
  var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
  svg += "<text x=\"12\" y=\"24\" font-size=\"16\" font-weight=\"bold\">\(escape(scenario))</text>\n"
  for (k, line) in summaryLines.enumerated() {
    svg += "<text x=\"12\" y=\"\(44 + k * 16)\" font-size=\"12\" fill=\"#444\">\(escape(line))</text>\n"
  }
  for v in logTicks(lo: y0, hi: y1) {
    let y = py(v)
    svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(width - right)\" y2=\"\(y)\" stroke=\"#e4e4e4\"/>"
    svg += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\">\(escape(tickLabel(v, unit: unit)))</text>\n"
  }
  for e in Int(x0) ... Int(x1) {
    let v = pow(10, Double(e))
    let x = px(v)
    svg += "<line x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(top + plotHeight)\" stroke=\"#eee\"/>"
    svg += "<text x=\"\(x)\" y=\"\(top + plotHeight + 16)\" text-anchor=\"middle\">\(tickLabel(v, unit: "rows"))</text>\n"
  }
  svg += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(width - left - right)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
  svg += "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 12)\" text-anchor=\"middle\">rows in the list (n, log scale)</text>\n"
  svg += "<text transform=\"translate(16 \(top + plotHeight / 2)) rotate(-90)\" text-anchor=\"middle\">\(valueWord) (log scale)</text>\n"
  for (k, s) in series.enumerated() {
    let pts = s.points.filter { $0.1 > 0 && $0.1.isFinite }
    let path = pts.map { "\(px(Double($0.0))),\(py($0.1))" }.joined(separator: " ")
    svg += "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2.5\" points=\"\(path)\"/>\n"
    for p in pts { svg += "<circle cx=\"\(px(Double(p.0)))\" cy=\"\(py(p.1))\" r=\"3.5\" fill=\"\(s.color)\"/>" }
    if let last = pts.last {
      let text = unit == "ns" ? human(last.1, "ns") : String(format: "%.1f B", last.1)
      svg += "<text x=\"\(px(Double(last.0)) + 7)\" y=\"\(py(last.1) + (k == 0 ? 14 : -6))\" fill=\"\(s.color)\">\(escape(text))</text>\n"
    }
    let ly = top + 10 + Double(k) * 20
    svg += "<rect x=\"\(width - right + 44)\" y=\"\(ly - 9)\" width=\"12\" height=\"12\" fill=\"\(s.color)\"/>"
    svg += "<text x=\"\(width - right + 62)\" y=\"\(ly + 2)\">\(s.name)\(pts.isEmpty ? " (not run)" : "")</text>\n"
  }
  return svg + "</svg>\n"
}

/// The core's speedup over the naive model per scenario, each at the
/// largest size the naive model ran (log-scale bars).
func speedupChart(speedups: [(name: String, size: Int, speedup: Double)]) -> String {
  let rowHeight = 24.0, left = 270.0, width = 800.0, top = 60.0
  let height = top + Double(speedups.count) * rowHeight + 40
  let maxLog = max(1, ceil(log10(speedups.map(\.speedup).filter(\.isFinite).max() ?? 10)))
  func bar(_ v: Double) -> Double { max(2, log10(max(1, v)) / maxLog * (width - left - 150)) }
  var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
  svg += "<text x=\"12\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Speedup of the core over the naive model</text>\n"
  svg += "<text x=\"12\" y=\"44\" fill=\"#444\">at the largest size the naive model ran (in brackets); log scale</text>\n"
  for e in 0 ... Int(maxLog) {
    let x = left + Double(e) / maxLog * (width - left - 150)
    svg += "<line x1=\"\(x)\" y1=\"\(top - 4)\" x2=\"\(x)\" y2=\"\(height - 30)\" stroke=\"#eee\"/>"
    svg += "<text x=\"\(x)\" y=\"\(height - 14)\" text-anchor=\"middle\">\(String(format: "%.0f", pow(10, Double(e))))x</text>\n"
  }
  for (k, entry) in speedups.enumerated() {
    let y = top + Double(k) * rowHeight
    let v = entry.speedup
    svg += "<text x=\"\(left - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(escape(entry.name)) (\(tickLabel(Double(entry.size), unit: "rows")))</text>"
    svg += "<rect x=\"\(left)\" y=\"\(y + 3)\" width=\"\(bar(v))\" height=\"16\" fill=\"#2b7bb9\"/>"
    svg += "<text x=\"\(left + bar(v) + 6)\" y=\"\(y + 15)\">\(v.isFinite ? String(format: v >= 10 ? "%.0fx" : "%.1fx", v) : "n/a")</text>\n"
  }
  return svg + "</svg>\n"
}

/// One page that shows every chart of a run, each under its scenario's
/// one-line meaning.
func indexPage(scenarios: [(name: String, summary: String)], arguments: [String]) -> String {
  var html = """
  <!doctype html>
  <html lang="en"><head><meta charset="utf-8"><title>LazyStackCore benchmark</title>
  <style>body{font-family:sans-serif;margin:24px;max-width:1400px}figure{display:inline-block;margin:8px;vertical-align:top}
  img{border:1px solid #ddd}p.s{color:#444;max-width:680px}</style></head><body>
  <h1>LazyStackCore benchmark</h1>
  <p>bench \(escape(arguments.joined(separator: " "))) &mdash; the numbers are in <a href="results.csv">results.csv</a>,
  the machine and commit in <a href="meta.json">meta.json</a>. Each chart is the median time of one operation
  (or bytes a row) against the rows in the list, on log-log axes: an O(log n) operation is a nearly flat line,
  an O(n) one climbs a decade a decade.</p>
  <figure><img src="charts/speedup.svg" alt="speedup of the core over the naive model"></figure>

  """
  for s in scenarios {
    html += "<figure><img src=\"charts/\(escape(s.name)).svg\" alt=\"\(escape(s.name)): \(escape(s.summary))\"></figure>\n"
  }
  return html + "</body></html>\n"
}
