internal import ThumbForgeBasics
internal import ThumbForgeConfig

/// Encodes any `Encodable` value into a compact, unambiguous byte string, for hashing: every
/// value and nesting is tagged, every string length-prefixed and every absent optional marked,
/// so two different values of one type never give the same bytes, and the same value always
/// gives the same bytes (fields in declaration order, as the synthesized conformances encode
/// them). Keys are not written: for one type they are always the same, in the same order.
///
/// Not a file format — nothing decodes it. It exists because the cache key of every imageset
/// is derived from the whole planned value on every run, and JSONEncoder made the no-change
/// rebuild of 10 000 sources much slower (its time: docs/performance.md).
final class CanonicalEncoder {
  /// The bytes so far.
  fileprivate(set) var bytes: [UInt8] = []
  /// Each distinct recipe's encoding, as its SHA-256 digest: a plan repeats a few recipes
  /// over thousands of imagesets, and a recipe is the largest part of each (the digest
  /// keeps the key as unambiguous and makes the bytes to hash per imageset fewer).
  private var recipes: [String: (recipe: Recipe, digest: [UInt8])] = [:]

  init() {
    bytes.reserveCapacity(4096)
  }

  /// Appends `value`'s encoding.
  func append<T: Encodable>(_ value: T) {
    nested(value)
  }

  /// Empties the buffer, keeping its storage.
  func reset() {
    bytes.removeAll(keepingCapacity: true)
  }

  fileprivate func nested<T: Encodable>(_ value: T) {
    if T.self == Recipe.self {
      let recipe = value as! Recipe
      if let known = recipes[recipe.name], known.recipe == recipe {
        bytes.append(contentsOf: known.digest)
        return
      }
      let start = bytes.count
      encodeWhole(value)
      let digest = [UInt8(ascii: "R")] + SHA256Hasher.hash(bytes[start...])
      bytes.removeSubrange(start...)
      bytes.append(contentsOf: digest)
      recipes[recipe.name] = (recipe, digest)
      return
    }
    encodeWhole(value)
  }

  private func encodeWhole<T: Encodable>(_ value: T) {
    bytes.append(UInt8(ascii: "("))
    // The sink's containers never throw; a conformance that throws by itself leaves a marker
    // so that its failure still gives bytes of its own.
    do { try value.encode(to: Sink(self)) } catch { bytes.append(UInt8(ascii: "!")) }
    bytes.append(UInt8(ascii: ")"))
  }

  @inline(__always)
  fileprivate func tag(_ tag: Unicode.Scalar) {
    bytes.append(UInt8(ascii: tag))
  }

  fileprivate func integer(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  fileprivate func string(_ value: String) {
    tag("s")
    var value = value
    value.withUTF8 { utf8 in
      integer(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  /// Keys are implied by the type and the order; only absent optionals need a mark.
  @inline(__always)
  fileprivate func key(_ key: some CodingKey) {}

  fileprivate func value(_ value: Bool) { tag("b"); bytes.append(value ? 1 : 0) }
  fileprivate func value(_ value: Int64) { tag("i"); integer(UInt64(bitPattern: value)) }
  fileprivate func value(_ value: UInt64) { tag("u"); integer(value) }
  fileprivate func value(_ value: Double) { tag("d"); integer(value.bitPattern) }
}

/// The `Encoder` handed to `encode(to:)`: every container writes straight into the bytes.
private struct Sink: Encoder {
  let target: CanonicalEncoder
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(_ target: CanonicalEncoder) {
    self.target = target
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    target.tag("{")
    return KeyedEncodingContainer(Keyed(target: target))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    target.tag("[")
    return Unkeyed(target: target)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    Single(target: target)
  }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let target: CanonicalEncoder
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil(forKey key: Key) { target.key(key); target.tag("n") }
  mutating func encode(_ value: Bool, forKey key: Key) { target.key(key); target.value(value) }
  mutating func encode(_ value: String, forKey key: Key) { target.key(key); target.string(value) }
  mutating func encode(_ value: Double, forKey key: Key) { target.key(key); target.value(value) }
  mutating func encode(_ value: Float, forKey key: Key) {
    target.key(key)
    target.value(Double(value))
  }
  mutating func encode(_ value: Int, forKey key: Key) {
    target.key(key); target.value(Int64(value))
  }
  mutating func encode(_ value: Int8, forKey key: Key) {
    target.key(key); target.value(Int64(value))
  }
  mutating func encode(_ value: Int16, forKey key: Key) {
    target.key(key)
    target.value(Int64(value))
  }
  mutating func encode(_ value: Int32, forKey key: Key) {
    target.key(key)
    target.value(Int64(value))
  }
  mutating func encode(_ value: Int64, forKey key: Key) { target.key(key); target.value(value) }
  mutating func encode(_ value: UInt, forKey key: Key) {
    target.key(key)
    target.value(UInt64(value))
  }
  mutating func encode(_ value: UInt8, forKey key: Key) {
    target.key(key)
    target.value(UInt64(value))
  }
  mutating func encode(_ value: UInt16, forKey key: Key) {
    target.key(key)
    target.value(UInt64(value))
  }
  mutating func encode(_ value: UInt32, forKey key: Key) {
    target.key(key)
    target.value(UInt64(value))
  }
  mutating func encode(_ value: UInt64, forKey key: Key) { target.key(key); target.value(value) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
    target.key(key)
    target.nested(value)
  }

  // Absent optionals are marked (the default implementations would skip them).
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) {
    if let value { encode(value, forKey: key) } else { encodeNil(forKey: key) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    target.key(key)
    return Sink(target).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    target.key(key)
    return Sink(target).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { Sink(target) }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    target.key(key)
    return Sink(target)
  }
}

private struct Unkeyed: UnkeyedEncodingContainer {
  let target: CanonicalEncoder
  var codingPath: [any CodingKey] { [] }
  private(set) var count = 0

  init(target: CanonicalEncoder) {
    self.target = target
  }

  mutating func encodeNil() { next(); target.tag("n") }
  mutating func encode(_ value: Bool) { next(); target.value(value) }
  mutating func encode(_ value: String) { next(); target.string(value) }
  mutating func encode(_ value: Double) { next(); target.value(value) }
  mutating func encode(_ value: Float) { next(); target.value(Double(value)) }
  mutating func encode(_ value: Int) { next(); target.value(Int64(value)) }
  mutating func encode(_ value: Int8) { next(); target.value(Int64(value)) }
  mutating func encode(_ value: Int16) { next(); target.value(Int64(value)) }
  mutating func encode(_ value: Int32) { next(); target.value(Int64(value)) }
  mutating func encode(_ value: Int64) { next(); target.value(value) }
  mutating func encode(_ value: UInt) { next(); target.value(UInt64(value)) }
  mutating func encode(_ value: UInt8) { next(); target.value(UInt64(value)) }
  mutating func encode(_ value: UInt16) { next(); target.value(UInt64(value)) }
  mutating func encode(_ value: UInt32) { next(); target.value(UInt64(value)) }
  mutating func encode(_ value: UInt64) { next(); target.value(value) }
  mutating func encode<T: Encodable>(_ value: T) {
    next()
    target.nested(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    next()
    return Sink(target).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    next()
    return Sink(target).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    next()
    return Sink(target)
  }

  /// Each element is marked, so `[a, b]` and `[ab]` differ.
  private mutating func next() {
    count += 1
    target.tag(",")
  }
}

private struct Single: SingleValueEncodingContainer {
  let target: CanonicalEncoder
  var codingPath: [any CodingKey] { [] }

  mutating func encodeNil() { target.tag("n") }
  mutating func encode(_ value: Bool) { target.value(value) }
  mutating func encode(_ value: String) { target.string(value) }
  mutating func encode(_ value: Double) { target.value(value) }
  mutating func encode(_ value: Float) { target.value(Double(value)) }
  mutating func encode(_ value: Int) { target.value(Int64(value)) }
  mutating func encode(_ value: Int8) { target.value(Int64(value)) }
  mutating func encode(_ value: Int16) { target.value(Int64(value)) }
  mutating func encode(_ value: Int32) { target.value(Int64(value)) }
  mutating func encode(_ value: Int64) { target.value(value) }
  mutating func encode(_ value: UInt) { target.value(UInt64(value)) }
  mutating func encode(_ value: UInt8) { target.value(UInt64(value)) }
  mutating func encode(_ value: UInt16) { target.value(UInt64(value)) }
  mutating func encode(_ value: UInt32) { target.value(UInt64(value)) }
  mutating func encode(_ value: UInt64) { target.value(value) }
  mutating func encode<T: Encodable>(_ value: T) { target.nested(value) }
}
