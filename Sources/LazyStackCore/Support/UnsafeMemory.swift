import Foundation

// Memory helpers for the hot paths of lanes: arrays the compiler
// specializes, and trivial buffers from `malloc`.

/// An array of `elements`, built through `reserveCapacity` and
/// `append(contentsOf:)`, which the compiler specializes for the element
/// type; `Array(unsafeUninitializedCapacity:initializingWith:)` allocates
/// through a generic entry point of the standard library that looks the
/// array's storage type up at run time, several hundred instructions an
/// array (callgrind, Swift 6.3 on Linux).
/// - Complexity: O(`elements.count`).
@inlinable
package func _makeArray<Element>(_ elements: UnsafeBufferPointer<Element>) -> [Element] {
  var array: [Element] = []
  guard !elements.isEmpty else { return array }
  array.reserveCapacity(elements.count)
  array.append(contentsOf: elements)
  return array
}

/// Memory for `capacity` values of a trivial type (no references,
/// alignment at most 16), from `malloc`, which
/// aligns to 16 bytes: `UnsafeMutablePointer.allocate` asks the runtime
/// for aligned memory (`posix_memalign` on Linux, several times the
/// instructions of `malloc`). Free it with `_freeTrivial`.
/// - Complexity: O(1).
@inlinable @inline(__always)
package func _mallocTrivial<T>(_: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
  guard let raw = malloc(Swift.max(1, capacity) &* MemoryLayout<T>.stride) else {
    fatalError("LazyStackCore: out of memory for \(capacity) values of \(T.self)")
  }
  return raw.bindMemory(to: T.self, capacity: capacity)
}

/// Frees memory from `_mallocTrivial`.
/// - Complexity: O(1).
@inlinable @inline(__always)
package func _freeTrivial<T>(_ pointer: UnsafeMutablePointer<T>) {
  free(UnsafeMutableRawPointer(pointer))
}
