/// The switch for this package's own consistency checks: after every
/// mutation, a layout created while the switch is on checks its internal
/// invariants (the tree's sums and indexes, the offset's bounds, the anchor
/// row's existence), in O(n) for lists up to 20,000 rows.
///
/// While it is on, trees are also built with blocks of 8 rows instead of
/// 512, so tests reach block splits and merges with small inputs.
///
/// Off unless a test turns it on, in every build configuration: an app's
/// debug build that depends on this package pays for no check and gets the
/// release block size. The package's own tests and the fuzzer turn it on.
///
///     @_spi(Testing) import LazyStackCore
///     LazyStackInternalChecks.isEnabled = true   // layouts created from now on check
///
/// Not for concurrent use: set it before creating the layouts to check.
@_spi(Testing)
public enum LazyStackInternalChecks {
  /// Whether layouts created from now on check their invariants after
  /// every mutation. `false` until set.
  /// - Complexity: O(1).
  nonisolated(unsafe) public static var isEnabled = false

  /// How many times a layout has run its checks in this process: a test
  /// reads it to show the checks ran, or did not.
  /// - Complexity: O(1).
  nonisolated(unsafe) public static var runs = 0
}

/// The switch as a layout reads it when created (not inlinable: clients
/// read the library's copy of the switch).
@usableFromInline
internal func _internalChecksSwitch() -> Bool {
  LazyStackInternalChecks.isEnabled
}
