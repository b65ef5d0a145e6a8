import Foundation

/// A JSON value, decoded strictly (a boolean is never a number, nor a number a boolean), to
/// check documents against a JSON Schema without a package.
indirect enum JSONValue: Decodable, Equatable, CustomStringConvertible {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  static func parse(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  var integer: Int? {
    if case .integer(let value) = self { return value }
    return nil
  }

  var array: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  var description: String {
    switch self {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .integer(let value): "\(value)"
    case .number(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
    case .object(let members):
      "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ")
        + "}"
    }
  }
}

/// Checks a document against a JSON Schema written with the keywords this repository's
/// schemas use: `type`, `required`, `properties`, `additionalProperties` (true or false),
/// `enum`, `const`, `items`, `minimum` and `$ref` to `#/$defs/…`. Any other keyword (other
/// than annotations) is itself an error, so that a schema cannot use one this check would
/// silently ignore.
struct JSONSchemaCheck {
  let root: JSONValue

  static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]
  static let keywords: Set<String> = [
    "type", "required", "properties", "additionalProperties", "enum", "const", "items",
    "minimum", "$ref",
  ]

  /// Every way `value` does not conform (`/path: what`); empty when it does.
  func errors(_ value: JSONValue) -> [String] { errors(value, root, at: "") }

  private func errors(_ value: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
    guard case .object(let rules) = schema else { return ["\(path): schema is not an object"] }
    var found: [String] = []
    for key in rules.keys where !Self.keywords.contains(key) && !Self.annotations.contains(key) {
      found.append("\(path): the schema uses '\(key)', which this check does not know")
    }
    if let reference = rules["$ref"]?.string {
      let prefix = "#/$defs/"
      guard reference.hasPrefix(prefix),
        let target = root["$defs"]?[String(reference.dropFirst(prefix.count))]
      else { return found + ["\(path): unresolvable $ref \(reference)"] }
      found += errors(value, target, at: path)
    }
    if let type = rules["type"]?.string, !Self.matches(value, type: type) {
      return found + ["\(path): expected \(type), got \(value)"]
    }
    if let allowed = rules["enum"]?.array, !allowed.contains(value) {
      found.append("\(path): \(value) is not one of \(allowed)")
    }
    if let constant = rules["const"], constant != value {
      found.append("\(path): \(value) is not \(constant)")
    }
    if case .integer(let minimum)? = rules["minimum"], case .integer(let number) = value,
      number < minimum
    {
      found.append("\(path): \(number) is below \(minimum)")
    }
    if case .object(let members) = value {
      for case .string(let name) in rules["required"]?.array ?? [] where members[name] == nil {
        found.append("\(path): '\(name)' is required")
      }
      let properties: [String: JSONValue]
      if case .object(let declared)? = rules["properties"] {
        properties = declared
      } else {
        properties = [:]
      }
      for (name, member) in members {
        if let rule = properties[name] {
          found += errors(member, rule, at: "\(path)/\(name)")
        } else if rules["additionalProperties"] == .bool(false) {
          found.append("\(path): '\(name)' is not allowed")
        }
      }
    }
    if case .array(let items) = value, let rule = rules["items"] {
      for (index, item) in items.enumerated() {
        found += errors(item, rule, at: "\(path)/\(index)")
      }
    }
    return found
  }

  private static func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool),
      ("integer", .integer), ("number", .integer), ("number", .number), ("null", .null):
      true
    default: false
    }
  }
}
