package import Foundation
internal import ThumbForgeBasics
internal import Yams

/// Reads `thumbforge.yml` (or `.json`) into a ``Config``, rejecting unknown keys, wrong
/// types and impossible values with the file, line and key.
package enum ConfigLoader {
  /// The configuration file names looked for at the asset folder's root, in order.
  package static let fileNames = ["thumbforge.yml", "thumbforge.yaml", "thumbforge.json"]

  /// Finds and parses the configuration of `folder`; defaults when there is none.
  package static func load(folder: URL, explicit: URL? = nil) throws(ConfigError) -> (Config, URL?)
  {
    let candidates = explicit.map { [$0] } ?? fileNames.map { folder.appendingPathComponent($0) }
    for url in candidates where FileManager.default.fileExists(atPath: url.path) {
      guard let data = FileManager.default.contents(atPath: url.path),
        let text = String(data: data, encoding: .utf8)
      else {
        throw ConfigError(
          file: url.path, line: nil, key: "",
          message: "cannot read the file (not UTF-8 text or no permission)")
      }
      let config = try parse(text, file: url.lastPathComponent)
      try validatePaths(config, folder: folder, file: url.lastPathComponent)
      return (config, url)
    }
    if let explicit {
      throw ConfigError(file: explicit.path, line: nil, key: "", message: "no such file")
    }
    return (Config(), nil)
  }

  /// Readies the YAML reader ahead of the first configuration: Yams compiles the regular
  /// expressions that resolve scalars' types (about a millisecond and a half) on first use.
  /// `LibvipsStart` calls it on its thread while the command line is parsed.
  package static func prepare() {
    _ = Resolver.default
  }

  /// Parses configuration text.
  package static func parse(_ text: String, file: String) throws(ConfigError) -> Config {
    let root: Node?
    do {
      root = try Yams.compose(yaml: text)
    } catch YamlError.duplicatedKeysInMapping(let keys, let context) {
      let key = keys.sorted().first ?? ""
      throw ConfigError(
        file: file, line: repeatLine(of: key, firstAt: context.mark.line, in: text), key: key,
        message:
          "duplicate key '\(key)' (first at line \(context.mark.line)): a key may appear once in a mapping"
      )
    } catch let error as YamlError {
      throw ConfigError(
        file: file, line: line(of: error), key: "",
        message: "not valid YAML (\(summary(of: error)))")
    } catch {
      throw ConfigError(file: file, line: nil, key: "", message: "not valid YAML")
    }
    guard let root else { return Config() }
    return try ConfigReader(file: file).read(ConfigNode(node: root, file: file, path: ""))
  }

  /// The output and the destinations' folders must not be inside the asset folder, where they would be
  /// read as input.
  package static func validatePaths(_ config: Config, folder: URL, file: String) throws(ConfigError)
  {
    if FolderPath.isInside(URL(fileURLWithPath: config.output, relativeTo: folder), folder: folder)
    {
      throw ConfigError(
        file: file, line: config.outputLine, key: "output",
        message:
          "'\(config.output)' is inside the asset folder and would be read back as input; choose a folder outside it"
      )
    }
    for (key, path, line) in config.destinationFolders
    where FolderPath.isInside(URL(fileURLWithPath: path, relativeTo: folder), folder: folder) {
      throw ConfigError(
        file: file, line: line, key: key,
        message:
          "'\(path)' is inside the asset folder and would be read back as input; choose a folder outside it"
      )
    }
  }

  /// The line where `key`, first at line `first` (1-based), appears again at the same
  /// indentation; `first` when it cannot be told (a flow mapping on one line).
  static func repeatLine(of key: String, firstAt first: Int, in text: String) -> Int {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard first >= 1, first <= lines.count else { return first }
    func keyed(_ line: Substring) -> (indent: Int, key: String)? {
      let indent = line.prefix { $0 == " " || $0 == "-" }.count
      let rest = line.dropFirst(indent)
      guard let colon = rest.firstIndex(of: ":") else { return nil }
      var name = rest[..<colon].trimmingCharacters(in: .whitespaces)
      if name.count >= 2, name.first == "\"" || name.first == "'", name.last == name.first {
        name = String(name.dropFirst().dropLast())
      }
      return (indent, name)
    }
    guard let indent = keyed(lines[first - 1])?.indent else { return first }
    for index in first..<lines.count {
      guard let found = keyed(lines[index]) else { continue }
      if found.indent < indent { break }  // the mapping ended
      if found.indent == indent, found.key == key { return index + 1 }
    }
    return first
  }

  private static func line(of error: YamlError) -> Int? {
    switch error {
    case .scanner(_, _, let mark, _), .parser(_, _, let mark, _): mark.line
    default: nil
    }
  }

  private static func summary(of error: YamlError) -> String {
    switch error {
    case .scanner(_, let problem, _, _), .parser(_, let problem, _, _): problem
    default: "\(error)".split(separator: "\n").first.map(String.init) ?? "syntax error"
    }
  }
}
