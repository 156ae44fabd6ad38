import Foundation

// The binary form of a snapshot whose ids are `Codable` but not
// `LayoutSnapshotID` (SPEC C1): each id in a small self-describing binary
// form of its `Codable` encoding (formats 3, 4 and 6). Integers are
// variable-length; a 128-bit one beyond 64 bits is written as its decimal
// text.

extension LayoutSnapshot where ID: Codable {
  /// The snapshot's compact binary form (SPEC C1) for ids that are
  /// `Codable`: the format of `LayoutSnapshotID` ids, with each id written
  /// in a tagged binary form of its `Codable` encoding (a tag byte per
  /// value, variable-length integers, keys as UTF-8). Conform the id type to
  /// `LayoutSnapshotID` for the smallest form; integers, `String` and `UUID`
  /// conform already.
  /// - Complexity: O(m s) for m entries of ids of s values.
  public func encoded() -> Data {
    _encoded(using: _CodableIDCoder<ID>())
  }

  /// Reads a snapshot from `encoded()`'s bytes.
  /// - Throws: `LayoutSnapshotError`: `.truncated` when the bytes end
  ///   early, `.notASnapshot`, `.unsupportedVersion`, or `.corrupt` for a
  ///   value no snapshot holds or an id the id type does not decode from.
  ///   Never traps on any bytes.
  /// - Complexity: O(m s) for m entries of ids of s values.
  public init(encoded data: Data) throws(LayoutSnapshotError) {
    try self.init(_encoded: data, using: _CodableIDCoder<ID>())
  }
}

extension LayoutSnapshot where ID: LayoutSnapshotID & Codable {
  /// The snapshot's compact binary form (SPEC C1), the id's own bytes
  /// (`LayoutSnapshotID`) for each id; see `encoded()` where `ID:
  /// LayoutSnapshotID`.
  /// - Complexity: O(m) for m entries.
  @inlinable
  public func encoded() -> Data {
    _encoded(using: _NativeIDCoder())
  }

  /// Reads a snapshot from `encoded()`'s bytes, or from the bytes of a
  /// snapshot of these ids written in their `Codable` form (by code that
  /// knew the id type only as `Codable`, or before it was a
  /// `LayoutSnapshotID`).
  /// - Throws: `LayoutSnapshotError` (see `init(encoded:)` where `ID:
  ///   LayoutSnapshotID`). Never traps on any bytes.
  /// - Complexity: O(m s) for m entries of ids of s values.
  public init(encoded data: Data) throws(LayoutSnapshotError) {
    let codable = _CodableIDCoder<ID>.formatBase
    if data.count > 4, case let v = data[data.startIndex + 4],
       v == codable &+ 1 || v == codable &+ 2 || v == _CodableIDCoder<ID>.sectionsFormat {
      try self.init(_encoded: data, using: _CodableIDCoder<ID>())
    } else {
      try self.init(_encoded: data, using: _NativeIDCoder())
    }
  }
}

/// Ids written by their `Codable` form, as `_BinaryValue`s.
internal struct _CodableIDCoder<ID: Codable>: _SnapshotIDCoder {
  static var formatBase: UInt8 { 2 }
  static var sectionsFormat: UInt8 { 6 }

  func append(_ id: ID, to bytes: inout [UInt8]) {
    let encoder = _BinaryValueEncoder()
    do {
      try _BinaryValueEncoder.encode(id, into: encoder.box, path: [])
    } catch {
      // Only the id type's own `encode(to:)` throws here (this encoder
      // never does); an id that cannot be written is a programmer error.
      preconditionFailure("LayoutSnapshot.encoded(): the id \(id) failed to encode: \(error)")
    }
    let value = encoder.value
    precondition(value.depth <= _BinaryValue.maxDepth,
                 "LayoutSnapshot.encoded(): the id \(id) nests deeper than \(_BinaryValue.maxDepth) containers")
    value.write(to: &bytes)
  }

  func read(_ bytes: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) -> ID {
    let start = offset
    let value = try _BinaryValue.read(bytes, offset: &offset, depth: 0)
    do {
      return try _BinaryValueDecoder(value: value, codingPath: []).decode(ID.self)
    } catch {
      throw .corrupt("an id that does not decode (\(error))", offset: start)
    }
  }
}

/// A `Codable` value as written: a tree of primitives, arrays and keyed
/// objects.
internal indirect enum _BinaryValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case uint(UInt64)
  case double(Double)
  case string(String)
  case array([_BinaryValue])
  case object([(key: String, value: _BinaryValue)])

  /// Whether the value is `null` (what `decodeNil` asks).
  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// Values nest at most this deep in an id (deeper bytes are corrupt, so
  /// a hostile encoding cannot exhaust the stack; `encoded()` traps on a
  /// deeper id, which it could not read back).
  static var maxDepth: Int { 512 }

  /// A 128-bit integer: an integer when it fits in 64 bits, else its
  /// decimal text.
  static func wide<I: FixedWidthInteger>(_ v: I) -> _BinaryValue {
    if let small = Int64(exactly: v) { return .int(small) }
    if let small = UInt64(exactly: v) { return .uint(small) }
    return .string(String(v))
  }

  /// The 128-bit integer `wide` wrote, or `nil` for another value or one
  /// out of `I`'s range.
  func wide<I: FixedWidthInteger>(_: I.Type) -> I? {
    switch self {
    case .int(let v): I(exactly: v)
    case .uint(let v): I(exactly: v)
    case .string(let s): I(s)
    default: nil
    }
  }

  /// How deep the value nests (a primitive: 0).
  var depth: Int {
    switch self {
    case .array(let items): 1 + (items.map(\.depth).max() ?? 0)
    case .object(let pairs): 1 + (pairs.map(\.value.depth).max() ?? 0)
    default: 0
    }
  }

  /// A short name of the value's kind, for errors (never the value: a
  /// corrupt one may be large).
  var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a Bool"
    case .int, .uint: "an integer"
    case .double: "a floating-point number"
    case .string: "a string"
    case .array(let items): "an array of \(items.count)"
    case .object(let pairs): "a keyed container of \(pairs.count)"
    }
  }

  /// Appends the value: a tag byte, then its payload.
  /// - Complexity: O(size).
  func write(to bytes: inout [UInt8]) {
    switch self {
    case .null: bytes.append(0)
    case .bool(let b): bytes.append(b ? 2 : 1)
    case .int(let v):
      bytes.append(3)
      Self.writeVarint(UInt64(bitPattern: (v << 1) ^ (v >> 63)), to: &bytes)  // zigzag
    case .uint(let v):
      bytes.append(4)
      Self.writeVarint(v, to: &bytes)
    case .double(let d):
      bytes.append(5)
      d.bitPattern.appendSnapshotBytes(to: &bytes)
    case .string(let s):
      bytes.append(6)
      Self.writeString(s, to: &bytes)
    case .array(let items):
      bytes.append(7)
      Self.writeVarint(UInt64(items.count), to: &bytes)
      for item in items { item.write(to: &bytes) }
    case .object(let pairs):
      bytes.append(8)
      Self.writeVarint(UInt64(pairs.count), to: &bytes)
      for (key, value) in pairs {
        Self.writeString(key, to: &bytes)
        value.write(to: &bytes)
      }
    }
  }

  static func writeVarint(_ v: UInt64, to bytes: inout [UInt8]) {
    var v = v
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  static func writeString(_ s: String, to bytes: inout [UInt8]) {
    var s = s
    s.withUTF8 { b in
      writeVarint(UInt64(b.count), to: &bytes)
      bytes.append(contentsOf: b)
    }
  }

  /// Reads a value at `offset` and moves `offset` past it.
  /// - Throws: `.truncated` when the bytes end first, `.corrupt` for a tag
  ///   no value has, an integer over 64 bits, text that is not UTF-8 or
  ///   values nested deeper than `maxDepth`.
  /// - Complexity: O(size).
  static func read(_ b: UnsafeRawBufferPointer, offset: inout Int, depth: Int) throws(LayoutSnapshotError) -> _BinaryValue {
    guard depth <= maxDepth else { throw .corrupt("an id nested deeper than \(maxDepth)", offset: offset) }
    guard offset < b.count else { throw .truncated(offset: offset) }
    let at = offset
    let tag = b[offset]
    offset += 1
    switch tag {
    case 0: return .null
    case 1, 2: return .bool(tag == 2)
    case 3:
      let z = try readVarint(b, offset: &offset)
      return .int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
    case 4: return .uint(try readVarint(b, offset: &offset))
    case 5: return .double(Double(bitPattern: try UInt64(snapshotBytes: b, offset: &offset)))
    case 6: return .string(try readString(b, offset: &offset))
    case 7:
      let n = try readCount(b, offset: &offset)
      var items: [_BinaryValue] = []
      items.reserveCapacity(n)
      for _ in 0 ..< n { items.append(try read(b, offset: &offset, depth: depth + 1)) }
      return .array(items)
    case 8:
      let n = try readCount(b, offset: &offset)
      var pairs: [(key: String, value: _BinaryValue)] = []
      pairs.reserveCapacity(n)
      for _ in 0 ..< n {
        let key = try readString(b, offset: &offset)
        pairs.append((key, try read(b, offset: &offset, depth: depth + 1)))
      }
      return .object(pairs)
    default:
      throw .corrupt("an id value of tag \(tag)", offset: at)
    }
  }

  static func readVarint(_ b: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) -> UInt64 {
    let at = offset
    var v: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < b.count else { throw .truncated(offset: offset) }
      let byte = b[offset]
      offset += 1
      guard shift < 64, shift < 63 || byte <= 1 else { throw .corrupt("an integer of more than 64 bits", offset: at) }
      v |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return v }
      shift += 7
    }
  }

  /// A count of items, each at least one byte, checked against the bytes
  /// left (so a corrupt count allocates nothing).
  static func readCount(_ b: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) -> Int {
    let n = try readVarint(b, offset: &offset)
    guard n <= UInt64(b.count - offset) else { throw .truncated(offset: offset) }
    return Int(n)
  }

  static func readString(_ b: UnsafeRawBufferPointer, offset: inout Int) throws(LayoutSnapshotError) -> String {
    let at = offset
    let n = try readCount(b, offset: &offset)
    guard let s = String(validating: UnsafeRawBufferPointer(rebasing: b[offset ..< offset + n]), as: UTF8.self) else {
      throw .corrupt("id text that is not UTF-8", offset: at)
    }
    offset += n
    return s
  }
}

// MARK: - Encoding

/// Writes a `Codable` value as a `_BinaryValue`. Containers hold their
/// parts in boxes, so nested containers and super encoders fill them in
/// place.
final class _BinaryValueEncoder: Encoder {
  final class Box {
    var value: _BinaryValue = .null
    var pairs: [(key: String, value: Box)]?
    var items: [Box]?

    /// The value with its containers' parts filled in.
    var resolved: _BinaryValue {
      if let pairs { return .object(pairs.map { ($0.key, $0.value.resolved) }) }
      if let items { return .array(items.map(\.resolved)) }
      return value
    }
  }

  let box: Box
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(box: Box = Box(), codingPath: [any CodingKey] = []) {
    self.box = box
    self.codingPath = codingPath
  }

  /// What was written.
  var value: _BinaryValue { box.resolved }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if box.pairs == nil { box.pairs = [] }
    return KeyedEncodingContainer(Keyed<Key>(box: box, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if box.items == nil { box.items = [] }
    return Unkeyed(box: box, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: box, codingPath: codingPath) }

  /// The box of `value` encoded at `path` (primitives directly, others by
  /// their own `encode(to:)` into a nested encoder).
  static func encode<T: Encodable>(_ value: T, into box: Box, path: [any CodingKey]) throws {
    switch value {
    case let v as Bool: box.value = .bool(v)
    case let v as String: box.value = .string(v)
    case let v as Double: box.value = .double(v)
    case let v as Float: box.value = .double(Double(v))
    case let v as Int: box.value = .int(Int64(v))
    case let v as Int8: box.value = .int(Int64(v))
    case let v as Int16: box.value = .int(Int64(v))
    case let v as Int32: box.value = .int(Int64(v))
    case let v as Int64: box.value = .int(v)
    case let v as UInt: box.value = .uint(UInt64(v))
    case let v as UInt8: box.value = .uint(UInt64(v))
    case let v as UInt16: box.value = .uint(UInt64(v))
    case let v as UInt32: box.value = .uint(UInt64(v))
    case let v as UInt64: box.value = .uint(v)
    default: try value.encode(to: _BinaryValueEncoder(box: box, codingPath: path))
    }
  }

  struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: Box
    let codingPath: [any CodingKey]

    /// The box for `key`: the one written before for that key (a second
    /// write replaces its value, a second nested container adds to it, as
    /// `JSONEncoder` does), else a new one.
    func child(_ key: String) -> Box {
      if let existing = box.pairs!.first(where: { $0.key == key }) { return existing.value }
      let child = Box()
      box.pairs!.append((key, child))
      return child
    }
    func child(_ key: Key) -> Box { child(key.stringValue) }
    mutating func encodeNil(forKey key: Key) throws { child(key).value = .null }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws { child(key).value = .wide(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws { child(key).value = .wide(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try _BinaryValueEncoder.encode(value, into: child(key), path: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
      -> KeyedEncodingContainer<NestedKey>
    {
      _BinaryValueEncoder(box: child(key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      _BinaryValueEncoder(box: child(key), codingPath: codingPath + [key]).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
      _BinaryValueEncoder(box: child("super"), codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      _BinaryValueEncoder(box: child(key), codingPath: codingPath + [key])
    }
  }

  struct Unkeyed: UnkeyedEncodingContainer {
    let box: Box
    let codingPath: [any CodingKey]
    var count: Int { box.items!.count }

    func next() -> Box {
      let child = Box()
      box.items!.append(child)
      return child
    }
    mutating func encodeNil() throws { next().value = .null }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { next().value = .wide(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { next().value = .wide(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try _BinaryValueEncoder.encode(value, into: next(), path: codingPath)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
      _BinaryValueEncoder(box: next(), codingPath: codingPath).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      _BinaryValueEncoder(box: next(), codingPath: codingPath).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { _BinaryValueEncoder(box: next(), codingPath: codingPath) }
  }

  struct Single: SingleValueEncodingContainer {
    let box: Box
    let codingPath: [any CodingKey]
    mutating func encodeNil() throws { box.value = .null }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { box.value = .wide(value) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { box.value = .wide(value) }
    mutating func encode<T: Encodable>(_ value: T) throws {
      try _BinaryValueEncoder.encode(value, into: box, path: codingPath)
    }
  }
}

// MARK: - Decoding

/// Reads a `Decodable` value from a `_BinaryValue`; a value of the wrong
/// shape is a `DecodingError`.
struct _BinaryValueDecoder: Decoder {
  let value: _BinaryValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func mismatch(_ expected: String) -> DecodingError {
    .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.kindName)"))
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let pairs) = value else { throw mismatch("a keyed container") }
    return KeyedDecodingContainer(Keyed<Key>(pairs: pairs, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let items) = value else { throw mismatch("an unkeyed container") }
    return Unkeyed(items: items, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

  /// A 128-bit integer (`_BinaryValue.wide`).
  func wide<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
    guard let v = value.wide(type) else { throw mismatch("an integer of type \(I.self)") }
    return v
  }

  /// `T` from this decoder's value: primitives directly, others by their
  /// own `init(from:)`.
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    func integer<I: FixedWidthInteger>(_: I.Type) throws -> I {
      switch value {
      case .int(let v): if let i = I(exactly: v) { return i }
      case .uint(let v): if let i = I(exactly: v) { return i }
      default: break
      }
      throw mismatch("an integer of type \(I.self)")
    }
    switch type {
    case is Bool.Type:
      guard case .bool(let b) = value else { throw mismatch("a Bool") }
      return b as! T
    case is String.Type:
      guard case .string(let s) = value else { throw mismatch("a String") }
      return s as! T
    case is Double.Type:
      guard case .double(let d) = value else { throw mismatch("a Double") }
      return d as! T
    case is Float.Type:
      guard case .double(let d) = value else { throw mismatch("a Float") }
      return Float(d) as! T
    case is Int.Type: return try integer(Int.self) as! T
    case is Int8.Type: return try integer(Int8.self) as! T
    case is Int16.Type: return try integer(Int16.self) as! T
    case is Int32.Type: return try integer(Int32.self) as! T
    case is Int64.Type: return try integer(Int64.self) as! T
    case is UInt.Type: return try integer(UInt.self) as! T
    case is UInt8.Type: return try integer(UInt8.self) as! T
    case is UInt16.Type: return try integer(UInt16.self) as! T
    case is UInt32.Type: return try integer(UInt32.self) as! T
    case is UInt64.Type: return try integer(UInt64.self) as! T
    default: return try T(from: self)
    }
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let pairs: [(key: String, value: _BinaryValue)]
    let codingPath: [any CodingKey]
    var allKeys: [Key] { pairs.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { pairs.contains { $0.key == key.stringValue } }
    func child(_ key: Key) throws -> _BinaryValueDecoder {
      guard let pair = pairs.first(where: { $0.key == key.stringValue }) else {
        throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \(key.stringValue)"))
      }
      return _BinaryValueDecoder(value: pair.value, codingPath: codingPath + [key])
    }
    func child(_ key: String) throws -> _BinaryValueDecoder {
      guard let pair = pairs.first(where: { $0.key == key }) else {
        throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no value for \(key)"))
      }
      return _BinaryValueDecoder(value: pair.value, codingPath: codingPath)
    }
    func decodeNil(forKey key: Key) throws -> Bool { try child(key).value.isNull }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try child(key).wide(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try child(key).wide(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try child(key).unkeyedContainer() }
    func superDecoder() throws -> any Decoder { try child("super") }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
  }

  struct Unkeyed: UnkeyedDecodingContainer {
    let items: [_BinaryValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next() throws -> _BinaryValueDecoder {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "no more values"))
      }
      defer { currentIndex += 1 }
      return _BinaryValueDecoder(value: items[currentIndex], codingPath: codingPath)
    }
    mutating func decodeNil() throws -> Bool {
      guard !isAtEnd, items[currentIndex].isNull else { return false }
      currentIndex += 1
      return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try next().wide(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next().wide(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
      try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
  }

  struct Single: SingleValueDecodingContainer {
    let decoder: _BinaryValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    func decodeNil() -> Bool { decoder.value.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try decoder.wide(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try decoder.wide(type) }
  }
}
