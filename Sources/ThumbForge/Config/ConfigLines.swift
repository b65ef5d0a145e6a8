/// Where things were written in the configuration file, for messages that point at a line
/// after loading (`thumbforge lint`). Not part of what a configuration means: two files that
/// differ only in layout configure the same build.
struct ConfigLines: Sendable {
  /// The line of each rule (`- match:`), in order.
  var rules: [Int?] = []
  /// The line of each recipe the file's `recipes:` section writes (a preset or a change to a
  /// built-in), by name. Built-ins the file does not name are absent.
  var recipes: [String: Int?] = [:]
  /// The line of each `assets:` entry, by asset name.
  var assets: [String: Int?] = [:]
}

extension ConfigLines: Equatable {
  /// Always equal: lines describe the file's layout, not the configuration.
  static func == (lhs: ConfigLines, rhs: ConfigLines) -> Bool { true }
}
