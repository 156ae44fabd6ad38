import Foundation
import LazyStackCore

/// The terminal viewer's model: records laid out by LazyStackCore, one
/// point per terminal row. A record's height (its wrapped line count) is
/// only known once it is wrapped to the terminal width, so rows start
/// estimated at one line and are measured as they come into view: exactly
/// the situation the core exists for. The same code renders to a real
/// terminal and to a headless screen for tests.
public struct Viewer<Source: RecordSource> {
  public private(set) var source: Source
  public private(set) var layout: LazyStackLayout<Int>
  public private(set) var columns: Int
  public private(set) var rows: Int
  public private(set) var following = false
  public private(set) var message = ""
  /// Nanoseconds spent in LazyStackCore while producing the last frame.
  public private(set) var coreNanoseconds: UInt64 = 0
  var prompt: String?

  /// How long `:N`, a search hit and a page key animate, in seconds (SPEC
  /// M4); 0 moves at once (`--no-animation`).
  public var animationDuration: Double = 0.15
  /// The viewer's clock, in seconds: the terminal sets it from its
  /// monotonic clock before each key and frame; headless runs step it by
  /// `frameInterval` while an animation runs.
  public var time: Double = 0
  /// The headless frame rate's interval (60 Hz).
  public var frameInterval: Double = 1.0 / 60
  /// The frames the last headless animation took.
  public private(set) var lastAnimationFrames = 0
  /// Where the page animation in flight lands, or `nil`: a page ends as a
  /// user scroll there (the reader's place).
  var pageInFlight: CGFloat?

  /// The rows moving to make room for records that arrived while
  /// following, and when they started (SPEC U1, U2): drawn at
  /// `frames(at:)` for `animationDuration`.
  public private(set) var transition: (value: LayoutTransition<Int>, start: Double)?

  /// Whether an animated jump or page, or a transition, is moving.
  public var isAnimating: Bool { layout.phase == .animating || transition != nil }

  /// The text rows available for records (the last row is the status line).
  public var pageRows: Int { max(1, rows - 1) }

  /// Whether the last column shows a scroll indicator (SPEC F6): the
  /// records take the columns before it.
  public let showsScrollIndicator: Bool

  /// The columns records and headers are drawn in: all, or all but the
  /// scroll indicator's.
  public var textColumns: Int { Swift.max(1, columns - (showsScrollIndicator ? 1 : 0)) }

  /// With `--sections N`: consecutive records whose first N characters are
  /// equal form a section under a header row showing that prefix, pinned
  /// at the top while its section is on screen (SPEC §11).
  public let sectionPrefix: Int?
  /// With `--lanes`: the records side by side in a masonry of lanes
  /// (SPEC §13), one column apart, each record wrapped to its lane's
  /// width. `.adaptive(minimum:)` lanes follow the terminal's width: a
  /// resize re-flows them, and the record at the top stays at the top.
  public let lanes: LaneCount?
  /// The number of records that have rows in the layout.
  public private(set) var recordsInLayout = 0
  /// The prefix of the last record in the layout (sections only).
  var lastPrefix: [UInt8]?

  /// A viewer of `source`, `columns` x `rows` characters (the last row is
  /// the status line); `sections` groups records by their first N
  /// characters; `lanes` lays them out in a masonry of lanes.
  /// - Throws: `LazyStackError.invalidLaneCount` or `.invalidExtent` for a
  ///   lane count the core rejects.
  public init(source: Source, columns: Int, rows: Int, sections: Int? = nil, lanes: LaneCount? = nil,
              scrollIndicator: Bool = false) throws {
    self.source = source
    self.columns = max(1, columns)
    showsScrollIndicator = scrollIndicator
    self.rows = max(2, rows)
    sectionPrefix = sections.map { max(1, $0) }
    self.lanes = lanes
    if sectionPrefix == nil {
      layout = try LazyStackLayout(ids: 0 ..< source.count, estimatedExtent: 1)
      recordsInLayout = source.count
    } else {
      layout = try LazyStackLayout(ids: [Int](), estimatedExtent: 1)
      layout.pinnedViews = .sectionHeaders
      appendRecords(upTo: source.count)
    }
    // Measure a page beyond each edge, so a record is measured before it
    // scrolls into view and the text the user reads never jumps (SPEC S1).
    layout.overscan = .points(CGFloat(pageRows))
    layout.viewportSize = CGSize(width: CGFloat(textColumns), height: CGFloat(pageRows))
    // The file is read as the reader nears its end (SPEC F3), four pages ahead.
    layout.edgeTriggerDistance = CGFloat(4 * pageRows)
    if let lanes {
      layout.sectionLayout = .masonry(try MasonryLayout(lanes: lanes, laneSpacing: 1))
    }
  }

  /// The width records are wrapped to: the terminal's, or with lanes their
  /// lane's (whole columns; headers span the terminal).
  public var recordColumns: Int {
    guard lanes != nil, layout.count > 0 else { return textColumns }
    // Every record has the same lane width; with sections row 0 is a header.
    let row = sectionPrefix == nil || layout.count == 1 ? 0 : 1
    return Swift.max(1, Int(layout.frame(at: row).width.rounded(.down)))
  }

  /// The number of lanes (1 without `--lanes`): c = k w + (k - 1) s.
  public var laneCount: Int {
    guard lanes != nil else { return 1 }
    return Swift.max(1, Int((Double(textColumns + 1) / Double(recordColumns + 1)).rounded(.down)))
  }

  // MARK: Rows and sections

  /// The row id of record `record`: the record number itself, or with
  /// sections `2 record + 1`, so that the header before it can be
  /// `2 record` and the ids still ascend (the layout then keeps no hash
  /// index: 13 bytes a row rather than 19).
  func rowID(ofRecord record: Int) -> Int { sectionPrefix == nil ? record : 2 &* record &+ 1 }

  /// The record of a row id, or `nil` for a section header.
  func record(ofRow id: Int) -> Int? {
    sectionPrefix == nil ? id : (id & 1 == 1 ? id >> 1 : nil)
  }

  /// The row id of the header of the section that starts at `record`.
  static func headerID(startingAt record: Int) -> Int { 2 &* record }

  /// The record a section header row stands before.
  static func sectionStart(ofHeader id: Int) -> Int { id >> 1 }

  /// Appends rows for records `recordsInLayout ..< count`: with sections, a
  /// header before every record whose prefix differs from the one before.
  mutating func appendRecords(upTo count: Int) {
    guard count > recordsInLayout else { return }
    let rows = appendedRows(upTo: count)
    Self.append(rows, to: &layout)
    lastPrefix = rows.lastPrefix
    recordsInLayout = count
  }

  /// The rows for records `recordsInLayout ..< count`: their ids (with
  /// sections, a header before every record whose prefix differs from the
  /// one before), the headers among them, and the last record's prefix.
  func appendedRows(upTo count: Int) -> (ids: [Int], headers: [Int], lastPrefix: [UInt8]?) {
    guard let length = sectionPrefix else { return (Array(recordsInLayout ..< count), [], nil) }
    let (starts, last) = source.sectionStarts(in: recordsInLayout ..< count, length: length, after: lastPrefix)
    var ids: [Int] = []
    var headers: [Int] = []
    ids.reserveCapacity(count - recordsInLayout + starts.count)
    var next = 0
    for record in recordsInLayout ..< count {
      if next < starts.count && starts[next] == record {
        headers.append(Self.headerID(startingAt: record))
        ids.append(headers.last!)
        next += 1
      }
      ids.append(2 &* record &+ 1)
    }
    return (ids, headers, last)
  }

  /// Appends `rows` to `layout`.
  ///
  /// With lanes, a role change lays out again the sections around its row
  /// (SPEC L1), so each header is marked as it arrives, after the section
  /// before it: it then ends only that section. (All
  /// rows first and then every header would lay out the rest of the rows
  /// again at each header: minutes for a few million records.)
  static func append(_ rows: (ids: [Int], headers: [Int], lastPrefix: [UInt8]?), to layout: inout LazyStackLayout<Int>) {
    guard !rows.headers.isEmpty, layout.sectionLayout != .list else {
      _ = try? layout.insert(rows.ids, at: layout.count)
      for id in rows.headers { layout.setRole(.sectionHeader, for: id) }
      return
    }
    var start = 0
    for header in rows.headers {
      let at = rows.ids[start...].firstIndex(of: header)!
      _ = try? layout.insert(rows.ids[start ... at], at: layout.count)  // the section before, then the header
      layout.setRole(.sectionHeader, for: header)
      start = at + 1
    }
    if start < rows.ids.count { _ = try? layout.insert(rows.ids[start...], at: layout.count) }
  }

  /// Starts the rows over from the source's records (a truncated file).
  mutating func reloadRecords() {
    lastPrefix = nil
    recordsInLayout = 0
    if sectionPrefix == nil {
      _ = try? layout.update(ids: 0 ..< source.count)
      recordsInLayout = source.count
    } else {
      _ = try? layout.update(ids: [Int]())
      appendRecords(upTo: source.count)
    }
  }

  /// The text of a row: a record, or a section header showing its prefix.
  func text(ofRow id: Int) -> String {
    if let record = record(ofRow: id) { return source.record(at: record) }
    let title = "── " + source.prefix(at: Self.sectionStart(ofHeader: id), length: sectionPrefix ?? 0) + " "
    return String((title + String(repeating: "─", count: max(0, textColumns - title.count))).prefix(textColumns))
  }

  // MARK: Wrapping

  /// A row wrapped to the width (tabs as spaces, control characters shown
  /// as '?'): the record at row `index`, or a section header.
  public func wrapped(_ index: Int) -> [String] {
    wrapped(id: layout.id(at: index))
  }

  func wrapped(id: Int) -> [String] {
    wrapped(id: id, columns: record(ofRow: id) == nil ? textColumns : recordColumns)
  }

  func wrapped(id: Int, columns: Int) -> [String] {
    let lines = Self.wrap(text(ofRow: id), columns: columns)
    // A section header is one line (`lineCount(ofRow:)`), cut at the width.
    return record(ofRow: id) == nil ? Array(lines.prefix(1)) : lines
  }

  /// `text` in lines of at most `columns` terminal cells: tabs as spaces,
  /// control characters as '?', characters that take no cell dropped, and
  /// a wide character (two cells) that does not fit moved to the next line
  /// (shown as '?' when no line is two cells wide).
  static func wrap(_ text: String, columns: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    forEachCell(of: text, columns: columns) { c, startsLine in
      if startsLine {
        lines.append(line)
        line = ""
      }
      line.append(c)
    }
    lines.append(line)
    return lines
  }

  /// Calls `body` with each character of `text` as it is drawn, and
  /// whether it starts a new line at `columns` cells: the one rule of line
  /// breaks that `wrap` and `lineCount` share (see `wrap`).
  static func forEachCell(of text: String, columns: Int, _ body: (Character, _ startsLine: Bool) -> Void) {
    var used = 0
    func emit(_ c: Character, _ width: Int) {
      let startsLine = used + width > columns
      if startsLine { used = 0 }
      used += width
      body(c, startsLine)
    }
    for c in text {
      if c.isASCII {
        let v = c.asciiValue!
        emit(c == "\t" ? " " : (v < 32 || v == 127 ? "?" : c), 1)
        continue
      }
      let width = cells(of: c)
      if width == 0 { continue }
      if width > columns { emit("?", 1) } else { emit(c, width) }
    }
  }

  /// The terminal cells a non-ASCII character takes: 2 for East Asian wide
  /// and fullwidth characters (CJK, Hangul, kana, fullwidth forms) and for
  /// emoji shown as emoji, 0 for a lone combining mark or format character
  /// (zero-width space, direction marks), else 1. Combining marks that
  /// follow a base are part of its character and add nothing.
  static func cells(of c: Character) -> Int {
    let scalars = c.unicodeScalars
    let first = scalars.first!
    if scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F && first.properties.isEmoji }) {
      return 2
    }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    switch first.value {
    case 0x1100 ... 0x115F, 0x2E80 ... 0x303E, 0x3041 ... 0x33FF, 0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF,
         0xA000 ... 0xA4CF, 0xA960 ... 0xA97F, 0xAC00 ... 0xD7A3, 0xF900 ... 0xFAFF, 0xFE10 ... 0xFE19,
         0xFE30 ... 0xFE6F, 0xFF00 ... 0xFF60, 0xFFE0 ... 0xFFE6, 0x1F300 ... 0x1F64F, 0x1F900 ... 0x1F9FF,
         0x20000 ... 0x2FFFD, 0x30000 ... 0x3FFFD:
      return 2
    default:
      return 1
    }
  }

  /// What the second cell of a wide character holds on the screen: never
  /// a character of a record (NUL is shown as '?'), dropped from the
  /// rendered lines.
  static var wideTail: Character { "\u{0}" }

  /// Accumulates the time spent in LazyStackCore calls.
  final class CoreClock {
    var nanoseconds: UInt64 = 0
    func time<T>(_ body: () throws -> T) rethrows -> T {
      let t0 = DispatchTime.now().uptimeNanoseconds
      defer { nanoseconds &+= DispatchTime.now().uptimeNanoseconds - t0 }
      return try body()
    }
  }
  let clock = CoreClock()

  /// Measures every visible record (overscan included) that is not measured
  /// at this width yet, until nothing new comes into view: the core's
  /// frame-loop helper; the time spent wrapping is not counted as core time.
  mutating func measureVisible() {
    var wrapping: UInt64 = 0
    let columns = recordColumns
    let source = self.source
    let sectioned = sectionPrefix != nil
    clock.time {
      layout.measureVisibleRows { _, id in
        let t0 = DispatchTime.now().uptimeNanoseconds
        defer { wrapping &+= DispatchTime.now().uptimeNanoseconds - t0 }
        return CGFloat(Self.lineCount(ofRow: id, in: source, columns: columns, sectioned: sectioned))
      }
    }
    clock.nanoseconds &-= Swift.min(clock.nanoseconds, wrapping)
  }

  /// The number of terminal lines row `id` takes at `columns`: its
  /// record's wrapped lines, or one for a section header (an even id with
  /// sections).
  static func lineCount(ofRow id: Int, in source: Source, columns: Int, sectioned: Bool) -> Int {
    guard !sectioned || id & 1 == 1 else { return 1 }
    return lineCount(of: source.record(at: sectioned ? id >> 1 : id), columns: columns)
  }

  /// The number of terminal lines a record takes at `columns` (at least 1).
  static func lineCount(of record: String, columns: Int) -> Int {
    if record.utf8.allSatisfy({ $0 < 0x80 }) {
      return Swift.max(1, (record.utf8.count + columns - 1) / columns)
    }
    // Wide characters take two cells and may move to the next line (`wrap`).
    var lines = 1
    forEachCell(of: record, columns: columns) { _, startsLine in
      if startsLine { lines += 1 }
    }
    return lines
  }

  // MARK: Rendering

  /// The screen: `rows` strings of exactly `columns` characters, the last
  /// one the status line.
  public mutating func render() -> [String] {
    clock.nanoseconds = 0
    if let notice = source.takeNotice() { message = notice }
    readOnEdges()
    measureVisible()
    var screen = Array(repeating: Array(repeating: Character(" "), count: columns), count: pageRows)
    if let t = transition {
      // Records arrived while following: every row on screen before or after
      // drawn where the transition has it now (SPEC U2). A terminal cannot
      // fade, so the arriving rows are drawn first, at their place, and the
      // rows that were there slide over them: the first frame is the old
      // screen, and the new rows show as the old ones move away.
      let progress = animationDuration > 0 ? (time - t.start) / animationDuration : 1
      let frames = clock.time { t.value.frames(at: progress) }
      for pass in 0 ..< 2 {
        for (row, (id, frame)) in zip(t.value.rows, frames) where (row.before == nil) == (pass == 0) {
          draw(id: id, in: frame, top: Int(frame.minY.rounded()), on: &screen)
        }
      }
      coreNanoseconds = clock.nanoseconds
      return screen.map { String($0.filter { $0 != Self.wideTail }) } + [statusLine()]
    }
    let offset = Int(clock.time { layout.contentOffset.y })
    // Exactly the rows on screen: in a masonry the visible range can hold
    // rows of a short lane that end above the screen (SPEC L5).
    for i in clock.time({ layout.visibleRows }) {
      let frame = clock.time { layout.frame(at: i) }
      draw(id: layout.id(at: i), in: frame, top: Int(frame.minY) - offset, on: &screen)
    }
    // The pinned section header, drawn over the rows (SPEC H3, H5).
    for pinned in clock.time({ layout.pinnedRows }) {
      draw(id: layout.id(at: pinned.index), in: pinned.frame, top: Int(pinned.frame.minY) - offset, on: &screen)
    }
    drawScrollIndicator(on: &screen)
    coreNanoseconds = clock.nanoseconds
    return screen.map { String($0.filter { $0 != Self.wideTail }) } + [statusLine()]
  }

  /// The scroll indicator in the last column (SPEC F6): a track of `│`
  /// with the thumb in `█`, at least one row, from `scrollIndicator`. Its
  /// position moves only with scrolling, so reading up into estimated
  /// records (every record is one line until it is wrapped) never makes it
  /// jump.
  func drawScrollIndicator(on screen: inout [[Character]]) {
    guard showsScrollIndicator, columns > 1 else { return }
    let thumb = clock.time { layout.scrollIndicator }.thumb
    let rows = Double(pageRows)
    let first = Swift.min(pageRows - 1, Int((thumb.lowerBound * rows).rounded(.down)))
    let last = Swift.max(first, Swift.min(pageRows - 1, Int((thumb.upperBound * rows).rounded(.up)) - 1))
    for row in 0 ..< pageRows { screen[row][columns - 1] = (first ... last).contains(row) ? "█" : "│" }
  }

  /// Reads more of the source when the reader comes within four pages of
  /// the end of what is read (SPEC F3's trailing trigger), slice by slice
  /// while the end stays that near: so opening a huge file reads only what
  /// is scrolled to (`G`, `:N`, a search and a waiting restore read on
  /// demand).
  mutating func readOnEdges() {
    for _ in 0 ..< 256 {
      let events = clock.time { layout.takeEdgeEvents() }
      guard events.contains(.bottom), !source.isComplete else { return }
      _ = source.index(for: 0.02)
      guard syncRows() else { return }
    }
  }

  /// Draws row `id` wrapped to its frame's width, its first line on text
  /// row `top`, from the frame's first column (a lane's, or 0); the cells
  /// it does not fill are cleared (a row drawn over another hides it).
  func draw(id: Int, in frame: CGRect, top: Int, on screen: inout [[Character]]) {
    let columns = textColumns
    let x = Swift.max(0, Swift.min(columns, Int(frame.minX.rounded(.down))))
    let width = Swift.max(1, Swift.min(columns - x, Int(frame.width.rounded(.down))))
    guard x < columns else { return }
    for (k, line) in wrapped(id: id, columns: width).enumerated() where top + k >= 0 && top + k < pageRows {
      var column = x
      for c in line {
        let cells = c.isASCII ? 1 : Self.cells(of: c)
        guard column + cells <= x + width else { break }
        screen[top + k][column] = c
        if cells == 2 { screen[top + k][column + 1] = Self.wideTail }
        column += cells
      }
      while column < x + width {
        screen[top + k][column] = " "
        column += 1
      }
    }
  }

  /// The record shown on the first text row that a pinned header does not
  /// cover (nil for an empty list).
  public var topRecord: Int? {
    guard var row = topRow?.index else { return nil }
    // A header row at the top: the record after it (or before it, at the very end).
    while row < layout.count - 1 && record(ofRow: layout.id(at: row)) == nil { row += 1 }
    let id = layout.id(at: row)
    return record(ofRow: id) ?? max(0, Self.sectionStart(ofHeader: id) - 1)
  }

  /// The row on the first text row that a pinned header does not cover,
  /// and how far into it that text row is (nil for an empty list). In
  /// lanes, of the rows there: the row the layout's position names when it
  /// starts on that text row (the record a jump or a search went to, or
  /// the one a re-flow kept at the top, L6); else the one that starts
  /// nearest to it, and of those that start on the same line the leftmost,
  /// as a reader reads the screen. (In a masonry whose lanes drifted apart,
  /// `:500000` put record 500000 at the top of the third lane beside record
  /// 500037 in the first: the status named 500037, and the next search
  /// started after it.)
  var topRow: (index: Int, distance: CGFloat)? {
    guard layout.count > 0 else { return nil }
    var y = layout.contentOffset.y
    if let header = layout.pinnedRows.first, header.frame.minY <= y { y = header.frame.maxY }
    var best: (index: Int, distance: CGFloat, x: CGFloat)?
    if lanes != nil {
      let named = layout.position.viewID(type: Int.self).flatMap { layout.index(of: $0) }
      for i in layout.visibleRows {
        let frame = layout.frame(at: i)
        guard frame.minY <= y && y < frame.maxY else { continue }
        let distance = y - frame.minY
        if i == named && distance == 0 { return (i, 0) }
        if let best, (best.distance, best.x) <= (distance, frame.minX) { continue }
        best = (i, distance, frame.minX)
      }
    }
    if let best { return (best.index, best.distance) }
    guard let row = layout.index(atOffset: y) else { return nil }
    return (row, Swift.max(0, y - layout.frame(at: row).minY))
  }

  /// The last text row: the prompt while one is open, else any message,
  /// the place (`record T of N (P%)`, `(END)` at the end), the core's time
  /// for the last command, `[follow]` and the lane count. Where the row is
  /// too narrow for all, the core's time goes first, then the lane count,
  /// then `[follow]`, then the place when a message is shown (which is
  /// then cut at the row's end), so no part is cut in the middle; without a
  /// message the place is cut at the row's end. Widths are terminal cells
  /// (`cells(of:)`).
  func statusLine() -> String {
    var status: String
    if let prompt {
      status = prompt
    } else {
      let total = recordsInLayout
      let top = topRecord.map { $0 + 1 } ?? 0
      // The last record is visible: (END) and 100 %, as `less` says.
      let atEnd = source.isComplete && (total == 0 || layout.contentOffset.y >= layout.maxOffset)
      let indexing = source.isComplete ? "" : "read \(Int(source.progress * 100)) % | "
      let percent = atEnd ? 100 : Int((Double(top) / Double(total) * 100).rounded(.down))
      let core = coreNanoseconds >= 1_000_000 ? String(format: "%.2f ms", Double(coreNanoseconds) / 1e6)
        : String(format: "%.1f µs", Double(coreNanoseconds) / 1e3)
      var said = message.isEmpty ? "" : message + " | "
      var place = "record \(top) of \(total) (\(percent)%)\(atEnd ? " (END)" : "")"
      var time = "  core \(core)"
      // Following: pinned to the end exactly when the layout is at it (D4,
      // F4); scrolled up, how many records arrived or wait below.
      let below = following && !layout.isAtEnd ? clock.time { layout.rowsAfterViewport } : 0
      var follow = !following ? "" : below > 0 ? "  [follow: \(below) below]" : "  [follow]"
      var laneLabel = lanes == nil ? "" : "  [\(laneCount) lane\(laneCount == 1 ? "" : "s")]"
      status = indexing + said + place + time + follow + laneLabel
      // Drop the parts in that order until the rest fits. Behind a
      // message the place goes whole rather than cut: cut, it would read
      // as another record ("record 381" for record 381054).
      for drop in 1 ... 4 where Self.cells(in: status) > columns {
        if drop == 1 { time = "" }
        if drop == 2 { laneLabel = "" }
        if drop == 3 { follow = "" }
        if drop == 4 && !message.isEmpty { (said, place) = (message, "") }
        status = indexing + said + place + time + follow + laneLabel
      }
    }
    // Cut and padded by terminal cells, drawn as records are drawn
    // (`forEachCell`: a wide character takes two cells, a tab is a space,
    // any other control character `?`): a message may quote a search for
    // CJK text, and a prompt may hold a control character typed into it.
    var line = ""
    var full = false
    Self.forEachCell(of: status, columns: columns) { c, startsLine in
      if startsLine && !line.isEmpty { full = true }
      if !full { line.append(c) }
    }
    return line + String(repeating: " ", count: columns - Self.cells(in: line))
  }

  /// The terminal cells `text` takes on one line (`cells(of:)` a character).
  static func cells(in text: String) -> Int {
    text.reduce(0) { $0 + ($1.isASCII ? 1 : cells(of: $1)) }
  }

  // MARK: Commands

  public mutating func scroll(lines: Int) {
    message = ""
    clock.time { layout.userScroll(to: CGPoint(x: 0, y: layout.contentOffset.y + CGFloat(lines))) }
  }

  /// One screen further (`direction` 1) or back (-1), as a pager's Space
  /// and `b` go: after a page down, the line below the last one shown is at
  /// the top. Animated over `animationDuration`; a page pressed while one is
  /// still moving goes one screen past that page's target. Where it lands
  /// is the reader's place (a user scroll), as without animation.
  ///
  /// Not `.paging` (SPEC B4): that snaps to multiples of the viewport's
  /// height, which is right for a paged scroll view but, from a reader's
  /// place a few lines into a page, moves a pager only to the next
  /// multiple.
  public mutating func page(_ direction: Int) {
    message = ""
    let from = pageInFlight ?? layout.contentOffset.y
    let y = min(max(0, from + CGFloat(direction.signum()) * layout.viewportSize.height), layout.maxOffset)
    let target = CGPoint(x: 0, y: y)
    guard animationDuration > 0 else {
      clock.time { layout.userScroll(to: target) }
      return
    }
    go(to: ScrollPosition(y: target.y))
    pageInFlight = isAnimating ? target.y : nil
    if !isAnimating { clock.time { layout.userScroll(to: target) } }
  }

  /// Scrolls to `position`, animated over `animationDuration` if it is positive.
  mutating func go(to position: ScrollPosition) {
    pageInFlight = nil
    let duration = animationDuration
    let now = time
    clock.time {
      if duration > 0 {
        layout.scroll(to: position, animation: .easeInOut(duration: duration), at: now)
      } else {
        layout.position = position
      }
    }
  }

  /// Moves an animation to `time` (SPEC M1); returns whether it is still
  /// moving. A page that lands becomes the reader's place.
  @discardableResult
  public mutating func advance(to time: Double) -> Bool {
    self.time = max(self.time, time)
    let now = self.time
    if let t = transition, now - t.start >= animationDuration { transition = nil }
    let moving = clock.time { layout.advance(to: now) }
    if !moving && pageInFlight != nil {
      pageInFlight = nil
      clock.time { layout.userScroll(to: layout.contentOffset) }
    }
    return moving || transition != nil
  }

  /// Headless: steps the clock by `frameInterval` and renders every frame
  /// until the animation lands; returns the last frame, or `nil` if nothing
  /// was animating.
  public mutating func finishAnimation() -> [String]? {
    guard isAnimating else { return nil }
    var frames = 0
    var screen: [String] = []
    var moving = true
    while moving && frames < 100_000 {
      frames += 1
      moving = advance(to: time + frameInterval)
      screen = render()
    }
    lastAnimationFrames = frames
    return screen
  }

  // MARK: Indexing

  /// Whether every record of the source is known.
  public var sourceIsComplete: Bool { source.isComplete }

  /// Indexes more of the source for about `seconds` and appends the new
  /// records as rows (the view is held still: SPEC S4, D4); returns whether
  /// any arrived.
  @discardableResult
  public mutating func indexMore(seconds: Double) -> Bool {
    guard !source.isComplete else { return false }
    _ = source.index(for: seconds)
    let changed = syncRows()
    if message.hasPrefix("restoring"), !layout.isRestorePending { message = "" }  // the saved record arrived (C3)
    return changed
  }

  /// Makes the layout's rows match the source's records: appends new ones,
  /// re-measures one whose text changed, starts over if the source shrank.
  @discardableResult
  mutating func syncRows() -> Bool {
    let known = source.count
    var changed = false
    clock.time {
      if known < recordsInLayout {
        reloadRecords()  // a truncated file, read again
        changed = true
      } else if known > recordsInLayout {
        appendRecords(upTo: known)
        changed = true
      }
      if let record = source.takeChangedRecord(), record < known {
        layout.invalidateMeasurement(for: rowID(ofRecord: record))
        changed = true
      }
    }
    return changed
  }

  public mutating func top() {
    message = ""
    clock.time { layout.position.scrollTo(edge: .top) }
  }

  public mutating func bottom() {
    message = ""
    if !source.isComplete {  // `G` reads to the true end
      _ = source.index(upTo: .max)
      syncRows()
    }
    clock.time { layout.position.scrollTo(edge: .bottom) }
  }

  /// Jumps to record `number` (1-based) with its first line at the top: the
  /// layout re-resolves the target as the rows around it are measured (R6).
  public mutating func jump(toRecord number: Int) {
    if number > recordsInLayout && !source.isComplete {
      _ = source.index(upTo: number)  // exact as soon as the records up to N are known
      syncRows()
    }
    guard recordsInLayout > 0 else { return }
    // With sections, the record lands just under its pinned header (SPEC H6).
    let index = min(max(1, number), recordsInLayout) - 1
    message = ""
    go(to: ScrollPosition(id: rowID(ofRecord: index), anchor: .top))
  }

  /// Finds the next record after the top one containing `text` (wrapping
  /// around) and jumps to it.
  public mutating func find(_ text: String) {
    guard !text.isEmpty, layout.count > 0 else { return }
    let start = (topRecord ?? -1) + 1
    let found = source.find(text, from: start % max(1, source.count))
    syncRows()  // the search may have indexed further
    if let i = found {
      go(to: ScrollPosition(id: rowID(ofRecord: i), anchor: .top))
      message = "found \"\(text)\" in record \(i + 1)"
    } else {
      message = "\"\(text)\" not found"
    }
  }

  /// Drags the scroll indicator's thumb to `fraction` of its track (SPEC F6
  /// d): a mouse on the last column, or `:N%`. The thumb stays where it was
  /// put while the records it revealed are wrapped and measured. The ends
  /// of the track are the ends of the file (`g`, `G`): a drag to the
  /// bottom is a user scroll to the end of the records as estimated, and
  /// the records it reveals there, wrapped to more lines than their
  /// one-line estimate, would leave it short of the end.
  public mutating func drag(to fraction: Double) {
    guard fraction.isFinite else { return }
    if fraction <= 0 { return top() }
    if fraction >= 1 { return bottom() }
    message = ""
    pageInFlight = nil
    clock.time { layout.dragIndicator(to: fraction) }
  }

  /// Follow mode (`F`): go to the end and stay pinned there as records
  /// arrive, until the user scrolls up (SPEC S8, D4).
  public mutating func toggleFollow() {
    following.toggle()
    if following {
      layout.defaultScrollAnchor(.bottom, for: .sizeChanges)
      bottom()
      _ = pollSource()
    } else {
      layout.defaultScrollAnchor(nil, for: .sizeChanges)
    }
  }

  /// Appends records that arrived; returns how many.
  @discardableResult
  public mutating func pollSource() -> Int {
    let arrived = source.poll()
    let known = source.count
    guard following, animationDuration > 0, known > recordsInLayout, !isAnimating else {
      return syncRows() ? max(1, arrived) : 0
    }
    // Following: the new records are appended in one batch, with the newest
    // screenful of them measured, so its transition says where every row on
    // screen goes (SPEC U1); the screen then shows them sliding (U2).
    let rows = appendedRows(upTo: known)
    let (columns, source, sectioned) = (recordColumns, self.source, sectionPrefix != nil)
    let lines = pageRows * laneCount  // a screenful in every lane
    let moved = clock.time {
      layout.performBatch { layout in
        Self.append(rows, to: &layout)
        var measured = 0
        var index = layout.count - 1
        while index >= 0 && measured < lines {
          let id = layout.id(at: index)
          let height = Self.lineCount(ofRow: id, in: source, columns: columns, sectioned: sectioned)
          layout.setMeasuredExtent(CGFloat(height), for: id)
          measured += height
          index -= 1
        }
      }
    }
    lastPrefix = rows.lastPrefix
    recordsInLayout = known
    syncRows()  // a record whose text changed
    if moved.rows.contains(where: { $0.before != $0.after }) { transition = (moved, time) }
    return max(1, arrived)
  }

  /// A terminal resize (SIGWINCH): every record is re-wrapped at the new
  /// width, and the text at the top stays at the top: the core keeps the
  /// reader's place in the top record through the invalidation and the
  /// first measurements at the new width (SPEC S12 a, S6).
  public mutating func resize(columns: Int, rows: Int) {
    let columns = max(1, columns), rows = max(2, rows)
    guard columns != self.columns || rows != self.rows else { return }
    let animating = isAnimating
    // In lanes the row the user reads is the one at the top of the screen,
    // whichever lane it is in: held by id and by the same text at the top.
    let held = lanes == nil || animating || layout.position.edge != nil
      ? nil : topRow.map { (id: layout.id(at: $0.index), distance: $0.distance, columns: recordColumns) }
    clock.time {
      // Track what is at the top now, so it is what stays put; an animated
      // jump goes on instead, to its target re-resolved at the new width
      // (SPEC M4; the rows it shows stay put meanwhile, M5).
      if !animating, !layout.position.isPositionedByUser, case nil = layout.position.edge {
        layout.userScroll(to: layout.contentOffset)
      }
      if columns != self.columns { layout.invalidateAllMeasurements() }
    }
    self.columns = columns
    self.rows = rows
    clock.time {
      layout.overscan = .points(CGFloat(pageRows))
      layout.viewportSize = CGSize(width: CGFloat(textColumns), height: CGFloat(pageRows))
      layout.edgeTriggerDistance = CGFloat(4 * pageRows)
    }
    if lanes != nil, !animating, let held {
      // Re-wrapped at the new lane width: the same characters at the top.
      let distance = (held.distance * CGFloat(held.columns) / CGFloat(recordColumns)).rounded(.down)
      clock.time { layout.scrollTo(id: held.id, distance: distance, anchor: .top) }
    }
  }

  // MARK: State across runs

  /// Why a saved state was not used (`restoreState(_:)`).
  public enum StateError: Error, CustomStringConvertible {
    /// Not a state file of this viewer.
    case notAState
    /// The snapshot inside is truncated or corrupt.
    case snapshot(LayoutSnapshotError)

    public var description: String {
      switch self {
      case .notAState: "not a lazystack-view state file"
      case .snapshot(let e): "state file: \(e)"
      }
    }
  }

  /// The reading place and the measured line counts, to reopen the file
  /// where it was (SPEC C1): the width the records were wrapped at (the
  /// terminal's, or a lane's), then the layout's snapshot in its binary
  /// form.
  ///
  /// In lanes the place is the record the status line names (`topRow`: of
  /// the records on the first text row, the one that starts nearest to
  /// it), not the layout's kept row (SPEC C1 through T1: the row that
  /// meets the top, which in a masonry can be a long record of another
  /// lane that started screens above). At the same width both restore the
  /// same screen; at another width the records re-flow, and only the one
  /// the reader saw at the top still comes back to the top.
  public func stateData() -> Data {
    var bytes = Array("LSVS".utf8)
    UInt32(truncatingIfNeeded: recordColumns).appendSnapshotBytes(to: &bytes)
    var snapshot = layout.snapshot()
    if lanes != nil, let top = topRow {
      snapshot.place = LayoutSnapshot<Int>.Place(id: layout.id(at: top.index), distance: top.distance, anchor: .top)
    }
    return Data(bytes) + snapshot.encoded()
  }

  /// Reopens at a saved place (SPEC C2, C3): the same record, at the same
  /// distance into it. At the width the state was saved at, the line
  /// counts measured then apply too; at another width they do not (the
  /// records wrap differently), and the distance into the top record is
  /// scaled by the ratio of the widths (the same characters stay at the
  /// top). A record not indexed yet is waited for (C3).
  public mutating func restoreState(_ data: Data) throws(StateError) {
    let bytes = [UInt8](data)
    guard bytes.count >= 8, Array(bytes[0 ..< 4]) == Array("LSVS".utf8) else { throw .notAState }
    var offset = 4
    let saved: UInt32
    do {
      saved = try bytes.withUnsafeBytes { b in
        Result { () throws(LayoutSnapshotError) in try UInt32(snapshotBytes: b, offset: &offset) }
      }.get()
    } catch {
      throw .notAState
    }
    var snapshot: LayoutSnapshot<Int>
    do {
      snapshot = try LayoutSnapshot<Int>(encoded: Data(bytes[8...]))
    } catch {
      throw .snapshot(error)
    }
    let savedColumns = max(1, Int(saved))
    let columns = recordColumns
    clock.time {
      if savedColumns != columns {
        var place = snapshot.place
        if let p = place {
          place!.distance = (p.distance * CGFloat(savedColumns) / CGFloat(columns)).rounded(.down)
        }
        snapshot = LayoutSnapshot()
        snapshot.place = place
      }
      layout.restore(snapshot)
    }
    measureVisible()
    message = layout.isRestorePending ? "restoring: waiting for the record to be indexed" : ""
  }

  // MARK: Keys

  /// Runs a script the way the terminal loop does, a frame rendered after
  /// every key and every animation run to its end at `frameInterval`, and
  /// returns the last frame (headless mode, tests).
  public mutating func perform(script: String) -> [String] {
    var screen = render()
    for key in ViewerKey.parse(script: script) {
      let goOn = handle(key)
      screen = render()
      if let last = finishAnimation() { screen = last }
      if !goOn { break }
    }
    return screen
  }

  /// Handles one key; returns false when the viewer should quit.
  public mutating func handle(_ key: ViewerKey) -> Bool {
    // The terminal and the file change while a prompt is open too.
    switch key {
    case .resize(let c, let r):
      resize(columns: c, rows: r)
      return true
    case .tick(let n):
      for _ in 0 ..< n { pollSource() }
      return true
    case .indicator(let row):
      drag(to: Double(row) / Double(Swift.max(1, pageRows - 1)))
      return true
    case .wheel(let lines):
      scroll(lines: lines)
      return true
    default: break
    }
    if var text = prompt {
      switch key {
      case .enter:
        prompt = nil
        let body = String(text.dropFirst())
        let number = body.trimmingCharacters(in: .whitespaces)
        if text.first == ":" {
          if number.hasSuffix("%"), let p = Double(number.dropLast()) { drag(to: p / 100) }
          else if let n = Int(number) { jump(toRecord: n) }
        } else {
          find(body)
        }
      case .escape: prompt = nil
      case .backspace: text.removeLast(); prompt = text.isEmpty ? nil : text
      case .character(let c): prompt = text + String(c)
      default: break
      }
      return true
    }
    switch key {
    case .character("q"): return false
    case .character("j"), .down: scroll(lines: 1)
    case .character("k"), .up: scroll(lines: -1)
    case .character(" "), .pageDown: page(1)
    case .character("b"), .pageUp: page(-1)
    case .character("g"), .home: top()
    case .character("G"), .end: bottom()
    case .character("F"): toggleFollow()
    case .character(":"): prompt = ":"
    case .character("/"): prompt = "/"
    default: break
    }
    return true
  }

}

/// A key or a script token.
public enum ViewerKey: Equatable, Sendable {
  case character(Character), up, down, pageUp, pageDown, home, end, enter, escape, backspace
  case resize(Int, Int)
  /// Headless only: `n` polls of the source (records arriving while following).
  case tick(Int)
  /// The mouse pressed or dragged on the scroll indicator's column, at a
  /// text row (0 at the top).
  case indicator(row: Int)
  /// The mouse wheel: lines to scroll (negative: up).
  case wheel(Int)

  /// Parses a script: plain characters are keys; `<up>`, `<down>`, `<pgup>`,
  /// `<pgdn>`, `<home>`, `<end>`, `<enter>`, `<esc>`, `<bs>`,
  /// `<resize 100x30>`, `<tick 5>` and `<drag ROW>` (the mouse on the scroll
  /// indicator at text row ROW) are tokens; `\n` is enter.
  public static func parse(script: String) -> [ViewerKey] {
    var keys: [ViewerKey] = []
    var rest = Substring(script)
    while let c = rest.first {
      if c == "<", let close = rest.firstIndex(of: ">") {
        let token = rest[rest.index(after: rest.startIndex) ..< close]
        rest = rest[rest.index(after: close)...]
        let parts = token.split(separator: " ")
        switch parts.first ?? "" {
        case "up": keys.append(.up)
        case "down": keys.append(.down)
        case "pgup": keys.append(.pageUp)
        case "pgdn": keys.append(.pageDown)
        case "home": keys.append(.home)
        case "end": keys.append(.end)
        case "enter": keys.append(.enter)
        case "esc": keys.append(.escape)
        case "bs": keys.append(.backspace)
        case "resize" where parts.count == 2:
          let size = parts[1].split(separator: "x").compactMap { Int($0) }
          if size.count == 2 { keys.append(.resize(size[0], size[1])) }
        case "tick": keys.append(.tick(parts.count == 2 ? Int(parts[1]) ?? 1 : 1))
        case "drag" where parts.count == 2 && Int(parts[1]) != nil: keys.append(.indicator(row: Int(parts[1])!))
        default: keys.append(contentsOf: ("<" + token + ">").map { .character($0) })
        }
      } else {
        rest = rest.dropFirst()
        keys.append(c == "\n" ? .enter : .character(c))
      }
    }
    return keys
  }
}
