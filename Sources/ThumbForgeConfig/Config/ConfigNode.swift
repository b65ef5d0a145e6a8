internal import ThumbForgeBasics
internal import Yams

/// A YAML node with the file name, so every accessor can throw an error naming the
/// file, line and key path.
struct ConfigNode {
  let node: Node
  let file: String
  let path: String
  /// The line of the key this node is the value of (mapping values only).
  var keyLine: Int?

  var line: Int? { node.mark?.line }

  /// The line naming this node: its key's when it has one, else its own.
  var namingLine: Int? { keyLine ?? line }

  func error(_ message: String) -> ConfigError {
    ConfigError(file: file, line: line, key: path, message: message)
  }

  /// The pairs of a mapping, rejecting keys not in `allowed`.
  func mapping(allowed: Set<String>? = nil) throws(ConfigError) -> [(String, ConfigNode)] {
    guard case .mapping(let mapping) = node else { throw error("expected a mapping") }
    var result: [(String, ConfigNode)] = []
    var seen = Set<String>()
    for (keyNode, value) in mapping {
      guard let key = keyNode.string else {
        throw ConfigError(
          file: file, line: keyNode.mark?.line, key: path, message: "keys must be strings")
      }
      let child = ConfigNode(
        node: value, file: file, path: path.isEmpty ? key : "\(path).\(key)",
        keyLine: keyNode.mark?.line)
      if let allowed, !allowed.contains(key) {
        throw ConfigError(
          file: file, line: keyNode.mark?.line, key: child.path,
          message:
            "unknown key\(Suggestion.phrase(for: key, in: allowed)) (expected one of: \(allowed.sorted().joined(separator: ", ")))"
        )
      }
      if !seen.insert(key).inserted {
        throw ConfigError(
          file: file, line: keyNode.mark?.line, key: child.path, message: "duplicate key")
      }
      result.append((key, child))
    }
    return result
  }

  func sequence() throws(ConfigError) -> [ConfigNode] {
    guard case .sequence(let sequence) = node else { throw error("expected a list") }
    return sequence.enumerated().map { index, item in
      ConfigNode(node: item, file: file, path: "\(path)[\(index)]")
    }
  }

  func string() throws(ConfigError) -> String {
    guard case .scalar(let scalar) = node else { throw error("expected a string") }
    return scalar.string
  }

  func int(in range: ClosedRange<Int>? = nil) throws(ConfigError) -> Int {
    guard case .scalar = node, let value = node.int else { throw error("expected an integer") }
    if let range, !range.contains(value) {
      throw error("\(value) is out of range (\(range.lowerBound)…\(range.upperBound))")
    }
    return value
  }

  func double(positive: Bool = false, allowZero: Bool = true) throws(ConfigError) -> Double {
    guard case .scalar = node, let value = node.float, value.isFinite else {
      throw error("expected a number")
    }
    if value < 0 || (!allowZero && value == 0) {
      throw error("must be \(allowZero ? "zero or more" : "greater than zero"), got \(value)")
    }
    return value
  }

  func bool() throws(ConfigError) -> Bool {
    guard case .scalar = node, let value = node.bool else { throw error("expected true or false") }
    return value
  }

  func strings() throws(ConfigError) -> [String] {
    if case .scalar = node { return [try string()] }
    var result: [String] = []
    for item in try sequence() { result.append(try item.string()) }
    return result
  }

  func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(ConfigError) -> T
  where T.RawValue == String {
    let text = try string()
    guard let value = T(rawValue: text) else {
      let names = T.allCases.map(\.rawValue)
      throw error(
        "'\(text)' is not one of: \(names.joined(separator: ", "))\(Suggestion.phrase(for: text, in: names))"
      )
    }
    return value
  }
}
