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
public enum XcodeJSON: Sendable, Equatable {
  /// An object; its keys are written in sorted order.
  case object([String: XcodeJSON])
  /// An array; its elements are written in order.
  case array([XcodeJSON])
  /// A string.
  case string(String)
  /// An integer.
  case int(Int)
  /// A Boolean, written `true` or `false`.
  case bool(Bool)

  /// The value as Xcode would write it as a whole file: pretty-printed, with a final newline.
  public func serialized() -> String {
    var output = ""
    write(to: &output, indent: 0)
    output.append("\n")
    return output
  }

  private func write(to output: inout String, indent: Int) {
    switch self {
    case .object(let members):
      // Code-unit order; for catalog keys (lowercase ASCII) it is JSONSerialization's order.
      let keys = members.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
      writeContainer(open: "{", close: "}", count: keys.count, to: &output, indent: indent) {
        index, output in
        let key = keys[index]
        Self.writeString(key, to: &output)
        output.append(" : ")
        members[key]?.write(to: &output, indent: indent + 2)
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
    let inner = String(repeating: " ", count: indent + 2)
    output.append(open)
    output.append("\n")
    if count == 0 { output.append("\n") }
    for index in 0..<count {
      output.append(inner)
      member(index, &output)
      output.append(index == count - 1 ? "\n" : ",\n")
    }
    output.append(String(repeating: " ", count: indent))
    output.append(close)
  }

  private static func writeString(_ string: String, to output: inout String) {
    output.append("\"")
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
  public init(stringLiteral value: String) { self = .string(value) }
}

extension XcodeJSON: ExpressibleByIntegerLiteral {
  /// Creates an integer value from a literal.
  public init(integerLiteral value: Int) { self = .int(value) }
}

extension XcodeJSON: ExpressibleByBooleanLiteral {
  /// Creates a Boolean value from a literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension XcodeJSON: ExpressibleByArrayLiteral {
  /// Creates an array value from a literal.
  public init(arrayLiteral elements: XcodeJSON...) { self = .array(elements) }
}

extension XcodeJSON: ExpressibleByDictionaryLiteral {
  /// Creates an object value from a literal; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, XcodeJSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}
