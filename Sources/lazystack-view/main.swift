// lazystack-view: a terminal viewer for huge files, built on LazyStackCore.
//
//   swift run -c release lazystack-view FILE
//   swift run -c release lazystack-view --generate 10000000
//   swift run -c release lazystack-view --generate 1000000 --sections 16   (a pinned header a minute)
//   swift run -c release lazystack-view --generate 1000 --script ':500\nkkk' --size 80x24   (headless)
//
//   swift run -c release lazystack-view --state ~/.view-state FILE   (reopens where it was)
//   swift run -c release lazystack-view --lanes auto FILE   (records side by side, a masonry)
//
// Keys: ↑/↓ or k/j one line, PgUp/PgDn or b/space one screen, g/G top/bottom,
// :N record N, :N% N % down the scroll bar, /text find, F follow the end (tail -f), q quit;
// the mouse drags the scroll bar (the last column) and its wheel scrolls.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LazyStackCore
import LazyStackView

let usage = """
usage: lazystack-view [FILE | --generate N] [--sections N] [--lanes N|auto] [--no-animation] [--no-scrollbar] [--state PATH] [--script KEYS --size COLSxROWS]
  FILE            a text file, one record per line
  --generate N    N generated log records (default 1000000 when no FILE)
  --sections N    group consecutive records whose first N characters are equal under a
                  header row showing them, pinned at the top (--sections 16: by minute
                  for ISO timestamps)
  --lanes N|auto  records side by side in N lanes (a masonry: each record goes to the lane
                  that ends first and stays there), each wrapped to its lane's width;
                  auto: as many lanes of at least 40 columns as the terminal fits, re-flowed
                  on a resize (the record at the top stays at the top)
  --no-animation  :N, searches and pages move at once (by default they animate over 150 ms,
                  landing exactly on the record however many heights change on the way)
  --no-scrollbar  no scroll indicator in the last column (by default there is one: drag it
                  with the mouse, or go to a place on it with :N%)
  --state PATH    reopen where the last run with this PATH left off (the same record, the
                  same line of it, even at another terminal width), and save the place
                  there on quit
  --script KEYS   headless: run KEYS, then print the screen to stdout
                  (tokens: <up> <down> <pgup> <pgdn> <home> <end> <enter> <esc> <bs>
                   <resize 100x30> <tick N> <drag ROW>; \\n is enter)
  --size CxR      headless screen size (default 80x24)
"""

var path: String?
var generate: Int?
var script: String?
var sections: Int?
var lanes: LaneCount?
var animated = true
var scrollbar = true
var statePath: String?
var size = (80, 24)
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
  let a = args.removeFirst()
  switch a {
  case "--generate" where !args.isEmpty:
    guard let n = Int(args.removeFirst().replacingOccurrences(of: "_", with: "")), n >= 0 else { print(usage); exit(2) }
    generate = n
  case "--sections" where !args.isEmpty:
    guard let n = Int(args.removeFirst()), n > 0 else { print(usage); exit(2) }
    sections = n
  case "--lanes" where !args.isEmpty:
    let value = args.removeFirst()
    if value == "auto" {
      lanes = .adaptive(minimum: 40)
    } else {
      guard let n = Int(value), (1 ... 256).contains(n) else {
        print("lazystack-view: --lanes takes 1 to 256 or auto, not \(value)\n\(usage)"); exit(2)
      }
      lanes = .fixed(n)
    }
  case "--no-animation": animated = false
  case "--no-scrollbar": scrollbar = false
  case "--state" where !args.isEmpty: statePath = args.removeFirst()
  case "--script" where !args.isEmpty: script = args.removeFirst().replacingOccurrences(of: "\\n", with: "\n")
  case "--size" where !args.isEmpty:
    let parts = args.removeFirst().split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2, parts[0] > 0, parts[1] > 1 else { print(usage); exit(2) }
    size = (parts[0], parts[1])
  case "--help", "-h": print(usage); exit(0)
  default:
    if a.hasPrefix("-") { print("lazystack-view: unknown option \(a)\n\(usage)"); exit(2) }
    path = a
  }
}

@MainActor
func run<S: RecordSource>(_ source: S) throws {
  if let script {
    var viewer = try Viewer(source: source, columns: size.0, rows: size.1, sections: sections, lanes: lanes,
                            scrollIndicator: scrollbar)
    if !animated { viewer.animationDuration = 0 }
    try loadState(into: &viewer)
    print(viewer.perform(script: script).joined(separator: "\n"))
    try saveState(of: viewer)
    return
  }
  try Terminal.run(source, sections: sections, lanes: lanes, animated: animated, scrollbar: scrollbar,
                   load: loadState, save: saveState)
}

/// Restores the place saved at `--state`, if the file exists (a state that
/// cannot be read is reported and ignored).
@MainActor
func loadState<S: RecordSource>(into viewer: inout Viewer<S>) throws {
  guard let statePath, let data = FileManager.default.contents(atPath: statePath) else { return }
  do {
    try viewer.restoreState(data)
  } catch {
    FileHandle.standardError.write("lazystack-view: ignoring \(statePath): \(error)\n".data(using: .utf8)!)
  }
}

/// Saves the place at `--state`.
@MainActor
func saveState<S: RecordSource>(of viewer: Viewer<S>) throws {
  guard let statePath else { return }
  try viewer.stateData().write(to: URL(fileURLWithPath: statePath), options: .atomic)
}

do {
  if let path {
    guard FileManager.default.isReadableFile(atPath: path) else {
      FileHandle.standardError.write("lazystack-view: cannot read \(path)\n".data(using: .utf8)!)
      exit(1)
    }
    try run(FileRecords(path: path, firstSlice: 0))  // one chunk: the rest is read as it is scrolled to
  } else {
    try run(GeneratedRecords(count: generate ?? 1_000_000))
  }
} catch {
  FileHandle.standardError.write("lazystack-view: \(error)\n".data(using: .utf8)!)
  exit(1)
}
