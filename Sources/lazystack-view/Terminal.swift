#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LazyStackCore
import LazyStackView

/// Set by the SIGWINCH handler, read by the input loop.
nonisolated(unsafe) var windowChanged: sig_atomic_t = 0
nonisolated(unsafe) var savedTerminal = termios()

/// A real terminal: raw mode, the alternate screen, keys from standard input.
enum Terminal {
  static func size() -> (Int, Int) {
    var w = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 1 {
      return (Int(w.ws_col), Int(w.ws_row))
    }
    return (80, 24)
  }

  static func write(_ s: String) {
    var s = s
    s.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        if n <= 0 { break }
        offset += n
      }
    }
  }

  static func restore() {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedTerminal)
    write("\u{1B}[?1002l\u{1B}[?1006l\u{1B}[?25h\u{1B}[?1049l")
  }

  /// The monotonic clock, in seconds.
  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  static func run<S: RecordSource>(
    _ source: S, sections: Int? = nil, lanes: LaneCount? = nil, animated: Bool = true, scrollbar: Bool = true,
    load: (inout Viewer<S>) throws -> Void = { _ in }, save: (Viewer<S>) throws -> Void = { _ in }
  ) throws {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      FileHandle.standardError.write("lazystack-view: needs a terminal (or use --script for headless output)\n".data(using: .utf8)!)
      exit(1)
    }
    let (columns, rows) = size()
    var viewer = try Viewer(source: source, columns: columns, rows: rows, sections: sections, lanes: lanes,
                            scrollIndicator: scrollbar)
    if !animated { viewer.animationDuration = 0 }
    try load(&viewer)
    tcgetattr(STDIN_FILENO, &savedTerminal)
    var raw = savedTerminal
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    signal(SIGWINCH) { _ in windowChanged = 1 }
    signal(SIGTERM) { _ in Terminal.restore(); exit(0) }
    // The alternate screen, no cursor, and the mouse's presses, drags and
    // wheel reported in SGR form (the scroll indicator can be dragged).
    write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1002h\u{1B}[?1006h")
    defer { restore() }
    var pending: [UInt8] = []
    var lastPoll = Date()
    draw(&viewer)
    while true {
      // A file is read as the reader nears the end of what is read
      // (`render`, SPEC F3); only a restore waiting for its record (C3)
      // reads on between keys, in slices of about 30 ms.
      let indexing = !viewer.sourceIsComplete && viewer.layout.isRestorePending
      // While an animation runs, a frame every 1/60 s (SPEC M1: the clock is ours).
      let animating = viewer.isAnimating
      var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
      let ready = poll(&fds, 1, indexing || animating ? (animating ? 16 : 0) : 100)
      var redraw = false
      viewer.time = now()
      if animating {
        viewer.advance(to: viewer.time)
        redraw = true
      }
      if indexing {
        viewer.indexMore(seconds: 0.03)
        redraw = true  // the progress in the status line
      }
      if windowChanged != 0 {
        windowChanged = 0
        let (c, r) = size()
        viewer.resize(columns: c, rows: r)
        redraw = true
      }
      if viewer.following, Date().timeIntervalSince(lastPoll) > 0.25 {
        lastPoll = Date()
        if viewer.pollSource() > 0 { redraw = true }
      }
      if ready > 0 {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(STDIN_FILENO, &buffer, buffer.count)
        if n > 0 { pending.append(contentsOf: buffer[0 ..< n]) }
        while let key = decode(&pending, columns: viewer.columns, scrollbar: viewer.showsScrollIndicator) {
          if !viewer.handle(key) {
            try save(viewer)
            return
          }
          redraw = true
        }
      }
      if redraw { draw(&viewer) }
    }
  }

  static func draw<S: RecordSource>(_ viewer: inout Viewer<S>) {
    let screen = viewer.render()
    var out = "\u{1B}[H"
    for (i, line) in screen.enumerated() {
      if i == screen.count - 1 { out += "\u{1B}[7m" + line + "\u{1B}[0m" } else { out += line + "\r\n" }
    }
    write(out)
  }

  /// Decodes one key from the front of `bytes` (escape sequences included).
  static func decode(_ bytes: inout [UInt8], columns: Int, scrollbar: Bool) -> ViewerKey? {
    guard let first = bytes.first else { return nil }
    if first == 0x1B {
      if bytes.count == 1 { bytes.removeFirst(); return .escape }
      if bytes.count >= 3, bytes[1] == UInt8(ascii: "["), bytes[2] == UInt8(ascii: "<") {
        // A mouse report, ESC [ < button ; column ; row (M press or drag, m release).
        guard let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "M") || $0 == UInt8(ascii: "m") }) else {
          return nil  // wait for the rest
        }
        let fields = String(decoding: bytes[3 ..< end], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
        let pressed = bytes[end] == UInt8(ascii: "M")
        bytes.removeFirst(end + 1)
        guard fields.count == 3, pressed else { return nil }
        let (button, column, row) = (fields[0], fields[1], fields[2])
        if button == 64 { return .wheel(-3) }
        if button == 65 { return .wheel(3) }
        // The left button pressed or dragged (32: motion) on the last column.
        if scrollbar && (button == 0 || button == 32) && column >= columns { return .indicator(row: row - 1) }
        return nil
      }
      if bytes.count >= 3, bytes[1] == UInt8(ascii: "[") {
        let code = bytes[2]
        switch code {
        case UInt8(ascii: "A"): bytes.removeFirst(3); return .up
        case UInt8(ascii: "B"): bytes.removeFirst(3); return .down
        case UInt8(ascii: "H"): bytes.removeFirst(3); return .home
        case UInt8(ascii: "F"): bytes.removeFirst(3); return .end
        case UInt8(ascii: "5") where bytes.count >= 4: bytes.removeFirst(4); return .pageUp
        case UInt8(ascii: "6") where bytes.count >= 4: bytes.removeFirst(4); return .pageDown
        default: bytes.removeFirst(min(3, bytes.count)); return nil
        }
      }
      if bytes.count < 3 { return nil }  // wait for the rest of the sequence
      bytes.removeFirst()
      return .escape
    }
    bytes.removeFirst()
    switch first {
    case 13, 10: return .enter
    case 127, 8: return .backspace
    case 3: return .character("q")  // Ctrl-C quits too
    default:
      return first < 128 ? .character(Character(UnicodeScalar(first))) : nil
    }
  }
}
