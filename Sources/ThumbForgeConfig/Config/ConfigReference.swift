/// The README's configuration reference, generated from ``Setting/all`` and
/// ``RecipeParameter/all`` (a test keeps the README equal to it).
enum ConfigReference {
  /// The top-level keys: every setting, then every recipe default.
  static func settingsTable() -> String {
    var lines = ["| key | type | default | meaning |", "|---|---|---|---|"]
    for setting in Setting.all {
      lines.append(
        "| `\(setting.key)` | \(setting.typeSummary) | \(code(setting.defaultText)) | \(setting.summary) |"
      )
    }
    for parameter in RecipeParameter.all where !parameter.topLevelKinds.isEmpty {
      let kinds =
        parameter.topLevelKinds == RecipeParameter.every
        ? "every recipe" : "every \(names(parameter.topLevelKinds)) recipe"
      lines.append(
        "| `\(parameter.key)` | \(parameter.typeSummary) | \(code(parameter.defaultText(.variants))) | the default of \(kinds): see below |"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The keys of the `serve:` section.
  static func serveTable() -> String { table(Setting.serve) }

  /// The keys of the `web:` section.
  static func webTable() -> String { table(Setting.web) }

  /// The keys of the `android:` section.
  static func androidTable() -> String { table(Setting.android) }

  /// A section's keys, one row each.
  private static func table(_ settings: [Setting]) -> String {
    var lines = ["| key | type | default | meaning |", "|---|---|---|---|"]
    for setting in settings {
      lines.append(
        "| `\(setting.key)` | \(setting.typeSummary) | \(code(setting.defaultText)) | \(setting.summary) |"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The recipe keys: the kinds that accept each, its default per kind, and what it changes.
  static func recipeTable() -> String {
    var lines = [
      "| key | kinds | type | default | changes | meaning |", "|---|---|---|---|---|---|",
      "| `kind` | new presets | \(RecipeKind.allCases.filter(\.isNamedByRules).map { "`\($0.rawValue)`" }.joined(separator: " \\| ")) | — | — | what the recipe makes |",
    ]
    for parameter in RecipeParameter.all {
      let kinds = RecipeKind.allCases.filter { parameter.kinds.contains($0) }
      let defaults = kinds.map { ($0, parameter.defaultText($0)) }
      let defaultText =
        Set(defaults.map(\.1)).count == 1
        ? code(defaults[0].1)
        : defaults.map { "\($0.0.rawValue) \(code($0.1))" }.joined(separator: ", ")
      let top = parameter.topLevelKinds.isEmpty ? "" : " (top-level key sets it)"
      lines.append(
        "| `\(parameter.key)` | \(parameter.kinds == RecipeParameter.every ? "all" : names(parameter.kinds)) | \(parameter.typeSummary) | \(defaultText)\(top) | \(parameter.effect.rawValue) | \(parameter.summary) |"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func names(_ kinds: Set<RecipeKind>) -> String {
    RecipeKind.allCases.filter { kinds.contains($0) }.map(\.rawValue).joined(separator: ", ")
  }

  private static func code(_ text: String) -> String {
    text.contains(" ") && !text.hasPrefix("[") ? text : "`\(text)`"
  }
}
