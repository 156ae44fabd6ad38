// The layout's consistency checks: switched on only for layouts created
// while `LazyStackInternalChecks.isEnabled` is on (this package's tests,
// soak and fuzzer), so an app's build never runs them.

extension LazyStackLayout {
  /// Checks the layout's invariants (the tree's, the offset's bounds, the
  /// anchor row's existence) if the layout was created while
  /// `LazyStackInternalChecks.isEnabled` was on (tests only).
  /// - Complexity: O(1) when off; O(n) when on, for lists up to 20,000 rows.
  @inlinable @inline(__always)
  package func _checkInvariants() {
    if _slowPath(_checks) { _runInternalChecks() }
  }

  /// The checks themselves (not inlinable: a client's build never carries them).
  @usableFromInline
  internal func _runInternalChecks() {
    LazyStackInternalChecks.runs += 1
    // The O(n) tree check runs on every mutation of lists up to 20,000 rows
    // (what the model-checking tests use); larger lists check bounds only.
    if _tree.count <= 20_000 { _tree._checkInvariants() }
    precondition(_offset >= 0 && _offset <= _maxOffset, "offset \(_offset) outside 0...\(_maxOffset)")
    if case .row(let id, _, _) = _anchor {
      precondition(_tree.contains(id), "anchor row \(id) is not a row")
    }
    if _motion.phase == .animating, case .row(let id, _, _) = _motion.target {
      precondition(_tree.contains(id), "animation target \(id) is not a row")
    }
    precondition(_motion.phase._isMoving || _motion.phase == .idle || _motion.phase == .interacting,
                 "phase \(_motion.phase) is never entered")
    if _tree.count <= 20_000 { _checkLaneInvariants() }
  }
}
