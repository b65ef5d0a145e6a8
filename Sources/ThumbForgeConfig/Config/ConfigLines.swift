/// Where things were written in the configuration file, for messages that point at a line
/// after loading (`thumbforge lint`). Not part of what a configuration means: two files that
/// differ only in layout configure the same build.
package struct ConfigLines: Sendable {
  /// The line of each rule (`- match:`), in order.
  package var rules: [Int?] = []
  /// The line of each recipe the file's `recipes:` section writes (a preset or a change to a
  /// built-in), by name. Built-ins the file does not name are absent.
  package var recipes: [String: Int?] = [:]
  /// The line of each `assets:` entry, by asset name.
  package var assets: [String: Int?] = [:]
}

extension ConfigLines: Equatable {
  /// Always equal: lines describe the file's layout, not the configuration.
  package static func == (lhs: ConfigLines, rhs: ConfigLines) -> Bool { true }
}
