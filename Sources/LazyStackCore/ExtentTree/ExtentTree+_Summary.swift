// What the block-level Fenwick tree sums (`_Summary`), the metrics that turn
// a summary into a pitch or a count, and the bit packing of chunk prefixes
// and role counts.

extension ExtentTree {
  /// The sums the block-level Fenwick tree keeps.
  @usableFromInline
  package struct _Summary: Sendable, Equatable {
    @usableFromInline package var count: Int
    @usableFromInline package var measuredSum: Int64
    @usableFromInline package var measuredCount: Int
    @usableFromInline package var measuredZeroCount: Int

    @inlinable @inline(__always)
    package init(count: Int = 0, measuredSum: Int64 = 0, measuredCount: Int = 0, measuredZeroCount: Int = 0) {
      self.count = count
      self.measuredSum = measuredSum
      self.measuredCount = measuredCount
      self.measuredZeroCount = measuredZeroCount
    }

    @inlinable @inline(__always)
    package static func += (lhs: inout _Summary, rhs: _Summary) {
      lhs.count &+= rhs.count
      lhs.measuredSum &+= rhs.measuredSum
      lhs.measuredCount &+= rhs.measuredCount
      lhs.measuredZeroCount &+= rhs.measuredZeroCount
    }

    @inlinable @inline(__always)
    package static func -= (lhs: inout _Summary, rhs: _Summary) {
      lhs.count &-= rhs.count
      lhs.measuredSum &-= rhs.measuredSum
      lhs.measuredCount &-= rhs.measuredCount
      lhs.measuredZeroCount &-= rhs.measuredZeroCount
    }
  }

  /// A summary's pitch: the extents of its rows (measured, or the estimate)
  /// plus one spacing a row, in units.
  @inlinable @inline(__always)
  package func _pitch(_ s: _Summary) -> Int64 {
    s.measuredSum &+ Int64(s.count &- s.measuredCount) &* estimate &+ Int64(s.count) &* spacing
  }

  /// A summary's rows with a non-zero extent (G4's point queries skip the
  /// others).
  @inlinable @inline(__always)
  package func _nonEmpty(_ s: _Summary) -> Int {
    (estimate > 0 ? s.count &- s.measuredCount : 0) &+ (s.measuredCount &- s.measuredZeroCount)
  }


  /// A slot's role: a plain row.
  @inlinable @inline(__always)
  package static var _plainRole: UInt8 { 0 }
  /// A slot's role: a section header.
  @inlinable @inline(__always)
  package static var _headerRole: UInt8 { 1 }
  /// A slot's role: a section footer.
  @inlinable @inline(__always)
  package static var _footerRole: UInt8 { 2 }

  /// A role's share of a packed header and footer count: headers count in
  /// the high 32 bits, footers in the low ones. The packed word is
  /// `headers * 2^32 + footers`, so packed words add and subtract as
  /// pairs while both counts stay under 2^31.
  @inlinable @inline(__always)
  package static func _packedRoleCount(_ role: UInt8) -> Int {
    role == _headerRole ? 1 &<< 32 : (role == _footerRole ? 1 : 0)
  }

  /// The number of `role` rows (header or footer) a packed count holds.
  @inlinable @inline(__always)
  package static func _unpackRoleCount(_ packed: Int, _ role: UInt8) -> Int {
    role == _headerRole ? packed &>> 32 : packed & 0xFFFF_FFFF
  }

  /// A chunk's measured sum and number of estimated slots in one word:
  /// the sum above 12 bits, the count below. Packed words add as pairs (a
  /// block's counts stay under 4,096 and its sums under 2^51), so a sum of
  /// chunks is one addition a chunk.
  @inlinable @inline(__always)
  package static func _packChunk(_ measured: Int64, _ estimated: Int) -> Int64 {
    // The count's 12 bits hold fewer than `_chunkedRowLimit` slots.
    measured &<< 12 | Int64(estimated)
  }

  /// The rows a block may hold and still keep chunk prefixes: the packed
  /// count has 12 bits (`_packChunk`). Only a block about to be split is
  /// larger.
  @inlinable @inline(__always)
  package static var _chunkedRowLimit: Int { 4096 }

  /// The measured sum and the number of estimated slots of a packed word.
  @inlinable @inline(__always)
  package static func _unpackChunk(_ word: Int64) -> (measured: Int64, estimated: Int) {
    (word &>> 12, Int(word & 0xFFF))
  }
}
