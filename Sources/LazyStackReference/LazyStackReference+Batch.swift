import Foundation
import LazyStackCore

/// A batch in progress (SPEC §15), the obvious way: the whole model as it
/// was, and the stabilization the batch still owes.
struct ReferenceBatch<ID: Hashable & Sendable>: Sendable {
  /// The model when the batch began (boxed in an array: a struct cannot hold itself).
  var boxedStart: [LazyStackReference<ID>]
  var start: LazyStackReference<ID> { boxedStart[0] }
  var before: LazyStackReference<ID>.Before
  var cause: ScrollCorrection.Cause = .none
}

extension LazyStackReference {
  /// SPEC U1–U3: runs `changes` with one stabilization at the end and
  /// returns every row on screen before or after with both frames; an
  /// error restores the model as it was.
  public mutating func performBatch(_ changes: (inout LazyStackReference) throws -> Void) rethrows -> LayoutTransition<ID> {
    guard batch == nil else {
      try changes(&self)
      return LayoutTransition(rows: [], correction: .none)
    }
    beginBatch()
    do {
      try changes(&self)
    } catch {
      abortBatch()
      throw error
    }
    return endBatch()
  }

  public mutating func beginBatch() {
    precondition(batch == nil)
    batch = ReferenceBatch(boxedStart: [self], before: snapshotBefore())
    enter()
  }

  public mutating func abortBatch() {
    self = batch!.start
  }

  public mutating func endBatch() -> LayoutTransition<ID> {
    let b = batch!
    batch = nil
    defer { exit(.still) }
    stabilize(before: b.before, cause: b.cause)
    let correction = ScrollCorrection(offsetDelta: _FixedPoint.points(offset - b.start.offset),
                                      contentOffset: contentOffset, cause: b.cause)
    lastCorrection = correction
    let old = b.start.drawn()
    let new = drawn()
    let oldFrames = b.start.frames()
    let newFrames = frames()
    var rows: [(id: ID, before: CGRect?, after: CGRect?)] = []
    func viewport(_ r: CGRect, _ o: CGPoint) -> CGRect { r.offsetBy(dx: -o.x, dy: -o.y) }
    for (i, frame) in new {
      let id = ids[i]
      let before: CGRect? = old.first { b.start.ids[$0.index] == id }.map(\.frame)
        ?? b.start.index(of: id).map { viewport(oldFrames[$0], b.start.contentOffset) }
      rows.append((id, before, frame))
    }
    for (i, frame) in old where !new.contains(where: { ids[$0.index] == b.start.ids[i] }) {
      let id = b.start.ids[i]
      rows.append((id, frame, index(of: id).map { viewport(newFrames[$0], contentOffset) }))
    }
    return LayoutTransition(rows: rows, correction: correction)
  }

  /// The rows on screen (overscan included) and the pinned rows, in index
  /// order, in viewport coordinates (a pinned row where it is drawn).
  func drawn() -> [(index: Int, frame: CGRect)] {
    let all = frames()
    var result: [Int: CGRect] = [:]
    for i in hasLanes ? visibleRows : Array(visibleIndices) { result[i] = all[i] }  // L5: rows on screen
    for p in pinnedRows { result[p.index] = p.frame }
    let o = contentOffset
    return result.keys.sorted().map { ($0, result[$0]!.offsetBy(dx: -o.x, dy: -o.y)) }
  }

  /// Inside a batch: no stabilization yet (the offset is only clamped).
  mutating func deferStabilization(cause: ScrollCorrection.Cause) -> ScrollCorrection {
    offset = clamp(offset)
    if cause != .none { batch!.cause = cause }
    return ScrollCorrection(offsetDelta: 0, contentOffset: contentOffset, cause: .none)
  }

  /// A scroll, viewport change or motion call inside a batch: the batch's
  /// changes so far are stabilized first, and the call runs outside it.
  mutating func outsideBatch<R>(_ body: (inout LazyStackReference) -> R) -> R {
    var b = batch!
    batch = nil
    stabilize(before: b.before, cause: b.cause)
    let result = body(&self)
    b.before = snapshotBefore()
    batch = b
    return result
  }
}
