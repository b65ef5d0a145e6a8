/// Walks the tab-separated lines of the cache files in place: a line's fields are byte
/// ranges, turned into values only when asked for.
package struct TabSeparatedLines {
  let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  /// The byte ranges of the current line's fields (at least one, maybe empty).
  package private(set) var fields: [Range<Int>] = []
  /// Whether the current line ended with a line feed (false only for an unfinished last line).
  package private(set) var isTerminated = false

  package init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    fields.reserveCapacity(16)
  }

  /// Moves to the next line and splits it at tabs; false after the last line.
  package mutating func next() -> Bool {
    guard position < bytes.count else { return false }
    fields.removeAll(keepingCapacity: true)
    var start = position
    var index = position
    while index < bytes.count {
      let byte = bytes[index]
      if byte == .newline { break }
      if byte == .tab {
        fields.append(start..<index)
        start = index + 1
      }
      index += 1
    }
    fields.append(start..<index)
    isTerminated = index < bytes.count
    position = index + 1
    return true
  }

  /// The bytes of field `index` of the current line.
  package func field(_ index: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
    bytes[fields[index]]
  }

  /// Field `index` as text; nil when it is not valid UTF-8.
  package func text(_ index: Int) -> String? {
    Self.text(UnsafeBufferPointer(rebasing: field(index)))
  }

  /// Bytes as text; nil when they are not valid UTF-8. ASCII, by far the most common case,
  /// takes a shorter path than full validation.
  package static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let isASCII = !bytes.contains { $0 >= 0x80 }
    return isASCII
      ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
  }

  /// Whether field `index` holds exactly `text`.
  package func field(_ index: Int, equals text: String) -> Bool {
    field(index).elementsEqual(text.utf8)
  }

  /// Field `index` as a decimal integer of at most 19 digits, with a leading `-` when
  /// `signed`; nil for anything else or a value outside `Int` (`Int.min` included: it is
  /// what `String(Int.min)` writes).
  package func integer(_ index: Int, signed: Bool = false) -> Int? {
    var digits = field(index)
    let negative = signed && digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    guard !digits.isEmpty, digits.count <= 19 else { return nil }
    // 19 digits always fit in a UInt64: accumulate the magnitude there.
    var magnitude: UInt64 = 0
    for digit in digits {
      guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
      magnitude = magnitude * 10 + UInt64(digit - UInt8(ascii: "0"))
    }
    if negative {
      guard magnitude <= UInt64(Int.max) + 1 else { return nil }
      return Int(truncatingIfNeeded: 0 &- magnitude)
    }
    guard magnitude <= UInt64(Int.max) else { return nil }
    return Int(magnitude)
  }
}

extension UInt8 {
  /// The bytes the cache files' line formats give a meaning.
  package static let tab = UInt8(ascii: "\t")
  package static let newline = UInt8(ascii: "\n")
  package static let backslash = UInt8(ascii: "\\")
}
