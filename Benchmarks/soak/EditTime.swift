import Foundation

/// One edit timed alone: its wall-clock time and the CPU time of the thread
/// that ran it, in microseconds.
///
/// Both, because this machine (a shared virtual machine) stops a thread
/// now and then: a loop that only read the clock saw 61 stops of more than
/// 300 µs in a minute, the longest 4.7 ms, and its thread's CPU time moved
/// by 10 to 500 µs across them. The slowest of a million edits is then a
/// stop of the machine, not an edit; its CPU time says which it was. CPU
/// time counts what the thread did, its page faults included.
struct EditTime {
  var wall: Double
  var cpu: Double

  /// The thread's CPU time, in nanoseconds (a system call: read outside
  /// the wall-clock interval).
  static func threadCPU() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }

  /// Times `body`.
  static func of(_ body: () throws -> Void) rethrows -> EditTime {
    let c0 = threadCPU()
    let t0 = DispatchTime.now().uptimeNanoseconds
    try body()
    let t1 = DispatchTime.now().uptimeNanoseconds
    let c1 = threadCPU()
    return EditTime(wall: Double(t1 &- t0) / 1e3, cpu: Double(c1 &- c0) / 1e3)
  }
}

extension Array where Element == EditTime {
  /// The median wall time (a stop of the machine moves it by one place).
  var medianWall: Double { map(\.wall).sorted()[count / 2] }

  /// The slowest by wall time with its CPU time, and the one that took the
  /// most CPU time when that is another: "slowest 4302.7 µs (CPU 12.4 µs;
  /// the most CPU 534.0 µs)".
  var slowestText: String {
    guard let slowest = self.max(by: { $0.wall < $1.wall }), let busiest = self.max(by: { $0.cpu < $1.cpu }) else { return "none" }
    var text = String(format: "slowest %.1f µs (CPU %.1f µs", slowest.wall, slowest.cpu)
    if busiest.cpu > slowest.cpu { text += String(format: "; the most CPU %.1f µs", busiest.cpu) }
    return text + ")"
  }
}
