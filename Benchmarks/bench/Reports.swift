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

// MARK: SVG charts, drawn by hand (no dependencies)

func escape(_ s: String) -> String {
  s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
}

/// Median against n on log-log axes, one line per variant.
func lineChart(scenario: String, unit: String, series: [(name: String, color: String, points: [(Int, Double)])]) -> String {
  let width = 560.0, height = 360.0, left = 70.0, right = 110.0, top = 40.0, bottom = 50.0
  let all = series.flatMap(\.points).filter { $0.1 > 0 && $0.1.isFinite }
  guard !all.isEmpty else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>" }
  let xs = all.map { log10(Double($0.0)) }, ys = all.map { log10($0.1) }
  let x0 = floor(xs.min()!), x1 = max(ceil(xs.max()!), x0 + 1)
  let y0 = floor(ys.min()!), y1 = max(ceil(ys.max()!), y0 + 1)
  func px(_ n: Int) -> Double { left + (log10(Double(n)) - x0) / (x1 - x0) * (width - left - right) }
  func py(_ v: Double) -> Double { height - bottom - (log10(v) - y0) / (y1 - y0) * (height - top - bottom) }
  var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
  svg += "<text x=\"\(left)\" y=\"22\" font-size=\"15\" font-weight=\"bold\">\(escape(scenario)): median \(unit == "ns" ? "ns per operation" : unit) vs rows (log-log)</text>\n"
  for e in stride(from: Int(y0), through: Int(y1), by: 1) {
    let y = py(pow(10, Double(e)))
    svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(width - right)\" y2=\"\(y)\" stroke=\"#ddd\"/>"
    svg += "<text x=\"\(left - 8)\" y=\"\(y + 4)\" text-anchor=\"end\">1e\(e)</text>\n"
  }
  for e in stride(from: Int(x0), through: Int(x1), by: 1) {
    let x = left + (Double(e) - x0) / (x1 - x0) * (width - left - right)
    svg += "<line x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(height - bottom)\" stroke=\"#eee\"/>"
    svg += "<text x=\"\(x)\" y=\"\(height - bottom + 18)\" text-anchor=\"middle\">1e\(e)</text>\n"
  }
  svg += "<text x=\"\((left + width - right) / 2)\" y=\"\(height - 10)\" text-anchor=\"middle\">rows (n)</text>\n"
  for (k, s) in series.enumerated() {
    let pts = s.points.filter { $0.1 > 0 && $0.1.isFinite }
    let path = pts.map { "\(px($0.0)),\(py($0.1))" }.joined(separator: " ")
    svg += "<polyline fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2.5\" points=\"\(path)\"/>\n"
    for p in pts { svg += "<circle cx=\"\(px(p.0))\" cy=\"\(py(p.1))\" r=\"3.5\" fill=\"\(s.color)\"/>" }
    let ly = top + 10 + Double(k) * 20
    svg += "<rect x=\"\(width - right + 12)\" y=\"\(ly - 9)\" width=\"12\" height=\"12\" fill=\"\(s.color)\"/>"
    svg += "<text x=\"\(width - right + 30)\" y=\"\(ly + 2)\">\(s.name)</text>\n"
  }
  return svg + "</svg>\n"
}

/// Core speedup over naive per scenario at one size (log scale bars).
func speedupChart(size: Int, speedups: [(String, Double)]) -> String {
  let rowHeight = 24.0, left = 140.0, width = 640.0, top = 44.0
  let height = top + Double(speedups.count) * rowHeight + 40
  let maxLog = max(1, ceil(log10(speedups.map(\.1).filter(\.isFinite).max() ?? 10)))
  func bar(_ v: Double) -> Double { max(2, log10(max(1, v)) / maxLog * (width - left - 90)) }
  var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
  svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
  svg += "<text x=\"10\" y=\"24\" font-size=\"15\" font-weight=\"bold\">Speedup of core over naive at n = \(size) (log scale)</text>\n"
  for (k, (name, v)) in speedups.enumerated() {
    let y = top + Double(k) * rowHeight
    svg += "<text x=\"\(left - 8)\" y=\"\(y + 15)\" text-anchor=\"end\">\(escape(name))</text>"
    svg += "<rect x=\"\(left)\" y=\"\(y + 3)\" width=\"\(bar(v))\" height=\"16\" fill=\"#2b7bb9\"/>"
    svg += "<text x=\"\(left + bar(v) + 6)\" y=\"\(y + 15)\">\(v.isFinite ? String(format: v >= 10 ? "%.0fx" : "%.1fx", v) : "n/a")</text>\n"
  }
  return svg + "</svg>\n"
}
