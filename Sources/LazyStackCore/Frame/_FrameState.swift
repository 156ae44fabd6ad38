import Foundation

/// What SPEC §16 keeps from one call to the next: the scroll indicator's
/// position, the edge triggers and their queue, the kept ids, the
/// direction of travel, and, while a call runs, what it did so far.
@usableFromInline
internal struct _FrameState<ID: Hashable & Sendable>: Sendable {
  /// Public calls in progress: §16 judges only the outermost one (a batch
  /// is one call), when it returns.
  @usableFromInline var depth: Int32 = 0
  /// The main-axis offset (units) when the outermost call began: a
  /// scroll's o in F6 (c).
  @usableFromInline var startOffset: Int64 = 0
  /// A reset (F6 e) happened inside the call: a programmatic scroll, a
  /// viewport size change, a section-layout change, a restore's landing.
  @usableFromInline var reset = false
  /// The thumb's position f (F6).
  @usableFromInline var indicator: Double = 0
  /// The edge triggers (F3): armed at the start.
  @usableFromInline var leadingArmed = true
  @usableFromInline var trailingArmed = true
  /// The ends that fired and were not taken yet (F3).
  @usableFromInline var events: [Edge] = []
  /// The distance set by the app (F3); `nil`: the viewport's extent.
  @usableFromInline var triggerDistance: CGFloat?
  /// The ids the UI keeps drawing (F2).
  @usableFromInline var kept: Set<ID> = []
  /// The direction of the last offset change by a user scroll, a
  /// deceleration or an animation step (F5): forward before any.
  @usableFromInline var forward = true
  /// While a trigger is disarmed (only then can an insertion re-arm it):
  /// the ids this call inserted that were not rows when it began, and the
  /// rows it removed that were (F3).
  @usableFromInline var newIDs: Set<ID> = []
  @usableFromInline var goneIDs: Set<ID> = []
  /// Whether `newIDs` or `goneIDs` holds anything (one test at a call's end).
  @usableFromInline var noted = false
  /// With `triggerDistance` set, an end is near when its distance in
  /// units is at most `nearLimit` (F3: the distance in units, rounded down,
  /// the offsets being whole units); without, at most the viewport's extent.
  @usableFromInline var nearLimit: Int64 = 0

  @inlinable
  init() {}

  /// Whether insertions and removals are noted (F3): a trigger is disarmed.
  @inlinable
  var notesEdits: Bool { !(leadingArmed && trailingArmed) }
}

/// What kind of call ends (SPEC F6): still (b), a scroll that travels (c),
/// a drag of the thumb (d) or a reset (e).
@usableFromInline
internal enum _FrameCall: Sendable {
  case still
  case travel
  case drag(Double)
  case reset
}
