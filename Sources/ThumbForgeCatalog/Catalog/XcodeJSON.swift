/// A JSON value written exactly the way current Xcode writes an asset catalog's `Contents.json`.
///
/// The serializer sorts object keys, indents by two spaces, separates keys from values with
/// `" : "`, puts every array element and object member on its own line and ends the text with a
/// newline. Strings are escaped like `JSONSerialization` with `.withoutEscapingSlashes`: `/` and
/// non-ASCII characters are written as they are.
///
/// ```swift
/// let root: XcodeJSON = ["info": ["author": "xcode", "version": 1]]
/// print(root.serialized(), terminator: "")
/// // {
/// //   "info" : {
/// //     "author" : "xcode",
/// //     "version" : 1
/// //   }
/// // }
/// ```
enum XcodeJSON: Sendable, Equatable {
  /// An object; its keys are written in sorted order.
  case object(Object)
  /// An array; its elements are written in order.
  case array([XcodeJSON])
  /// A string.
  case string(String)
  /// An integer.
  case int(Int)
  /// A Boolean, written `true` or `false`.
  case bool(Bool)

  /// The value as Xcode would write it as a whole file: pretty-printed, with a final newline.
  func serialized() -> String {
    var output = ""
    write(to: &output, indent: 0)
    output.append("\n")
    return output
  }

  private func write(to output: inout String, indent: Int) {
    switch self {
    case .object(let object):
      // Code-unit order; for catalog keys (lowercase ASCII) it is JSONSerialization's order.
      let members = object.sortedMembers
      writeContainer(open: "{", close: "}", count: members.count, to: &output, indent: indent) {
        index, output in
        Self.writeString(members[index].key, to: &output)
        output.append(" : ")
        members[index].value.write(to: &output, indent: indent + 2)
      }
    case .array(let elements):
      writeContainer(open: "[", close: "]", count: elements.count, to: &output, indent: indent) {
        index, output in
        elements[index].write(to: &output, indent: indent + 2)
      }
    case .string(let string):
      Self.writeString(string, to: &output)
    case .int(let value):
      output.append(String(value))
    case .bool(let value):
      output.append(value ? "true" : "false")
    }
  }

  /// Writes `{`/`[`, one member per line indented by two more spaces, and the closing bracket.
  /// An empty container is written `[\n\n  ]` (a blank line), as `JSONSerialization` does.
  private func writeContainer(
    open: String, close: String, count: Int, to output: inout String, indent: Int,
    member: (Int, inout String) -> Void
  ) {
    let inner = Self.spaces(indent + 2)
    output.append(open)
    output.append("\n")
    if count == 0 { output.append("\n") }
    for index in 0..<count {
      output.append(inner)
      member(index, &output)
      output.append(index == count - 1 ? "\n" : ",\n")
    }
    output.append(Self.spaces(indent))
    output.append(close)
  }

  /// UTF-16 code-unit order (JSONSerialization's); UTF-8 byte order is the same for ASCII,
  /// and cheaper to compare.
  fileprivate static func precedes(_ a: String, _ b: String) -> Bool {
    if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) {
      return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
    return a.utf16.lexicographicallyPrecedes(b.utf16)
  }

  /// `count` spaces (indentation strings made once for the usual depths).
  private static func spaces(_ count: Int) -> String {
    count < indents.count ? indents[count] : String(repeating: " ", count: count)
  }

  private static let indents = (0..<16).map { String(repeating: " ", count: $0) }

  /// `string` as a JSON string literal, escaped as ``serialized()`` escapes it.
  static func quoted(_ string: String) -> String {
    var output = ""
    writeString(string, to: &output)
    return output
  }

  private static func writeString(_ string: String, to output: inout String) {
    output.append("\"")
    // Most strings (keys, file names) need no escape: appended whole.
    if !string.utf8.contains(where: {
      $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
    }) {
      output.append(string)
      output.append("\"")
      return
    }
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output.append("\\\"")
      case "\\": output.append("\\\\")
      case "\n": output.append("\\n")
      case "\r": output.append("\\r")
      case "\t": output.append("\\t")
      case "\u{08}": output.append("\\b")
      case "\u{0C}": output.append("\\f")
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
      default: output.unicodeScalars.append(scalar)
      }
    }
    output.append("\"")
  }
}

extension XcodeJSON: ExpressibleByStringLiteral {
  /// Creates a string value from a literal.
  init(stringLiteral value: String) { self = .string(value) }
}

extension XcodeJSON: ExpressibleByIntegerLiteral {
  /// Creates an integer value from a literal.
  init(integerLiteral value: Int) { self = .int(value) }
}

extension XcodeJSON: ExpressibleByBooleanLiteral {
  /// Creates a Boolean value from a literal.
  init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension XcodeJSON: ExpressibleByArrayLiteral {
  /// Creates an array value from a literal.
  init(arrayLiteral elements: XcodeJSON...) { self = .array(elements) }
}

extension XcodeJSON: ExpressibleByDictionaryLiteral {
  /// Creates an object value from a literal; a repeated key keeps its last value.
  init(dictionaryLiteral elements: (String, XcodeJSON)...) {
    self = .object(XcodeJSON.Object(elements))
  }
}

extension XcodeJSON {
  /// The members of an object: each key once (setting a key again replaces its value). Kept
  /// as a small array, not a dictionary: catalog objects have a handful of keys, and a
  /// build makes thousands of them, so hashing cost more than the search.
  struct Object: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var members: [Member] = []

    private struct Member: Sendable, Equatable {
      var key: String
      var value: XcodeJSON
    }

    /// Creates an object from pairs; a repeated key keeps its last value.
    init(_ pairs: some Sequence<(String, XcodeJSON)>) {
      for (key, value) in pairs { self[key] = value }
    }

    init(dictionaryLiteral elements: (String, XcodeJSON)...) {
      self.init(elements)
    }

    /// The value of `key`; setting `nil` removes it.
    subscript(key: String) -> XcodeJSON? {
      get { members.first { $0.key == key }?.value }
      set {
        let index = members.firstIndex { $0.key == key }
        switch (index, newValue) {
        case (let index?, let value?): members[index].value = value
        case (let index?, nil): members.remove(at: index)
        case (nil, let value?): members.append(Member(key: key, value: value))
        case (nil, nil): break
        }
      }
    }

    var isEmpty: Bool { members.isEmpty }

    /// The members in the order they are written.
    fileprivate var sortedMembers: [(key: String, value: XcodeJSON)] {
      members.sorted { XcodeJSON.precedes($0.key, $1.key) }.map { ($0.key, $0.value) }
    }

    /// Equal when they hold the same keys with equal values, in any order.
    static func == (lhs: Object, rhs: Object) -> Bool {
      lhs.members.count == rhs.members.count
        && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }
  }
}
