/// `count` records and room for an eighth more (and 4, so a small count
/// gets some): the arrays by block of the list's tree and of the lanes are
/// reserved that large when they are built, before they are written where
/// that can be done, so the splits after a build do not grow them (a
/// growth copies an array to new pages: 7 ms for 195k blocks on the
/// machine of Benchmarks/RESULTS.md, 2026-11-27).
/// - Complexity: O(1).
@inlinable @inline(__always)
package func _withRoom(_ count: Int) -> Int {
  count &+ count &>> 3 &+ 4
}
