internal import Foundation
internal import ThumbForgeBasics
internal import ThumbForgeCatalog
package import ThumbForgeConfig
package import ThumbForgePlanning

/// `thumbforge lint`: checks a configuration against its folder without probing or
/// rendering anything (SwiftGen's `config lint`): the file must load (every error is one line
/// naming the file, line and key), and what loads but is likely a mistake is a warning — a
/// rule that matches no master, a rule whose masters an earlier rule already takes (rules are
/// tried in order, the first match wins), a recipe the file defines but no rule uses, an
/// `assets:` entry naming no asset (each with its file and line), files with an unknown scale
/// suffix, and files that are not masters (notes).
package enum ConfigLint {
  /// What lint found (the configuration loaded).
  package struct Report: Sendable, Codable {
    /// The configuration file read (empty when the folder has none: every default).
    package var configFile = ""
    package var rules = 0
    package var recipes = 0
    package var masters = 0
    /// Set folders (and group `Contents.json` files) carried as they are.
    package var carriedSets = 0
    /// Likely mistakes, one line each.
    package var warnings: [String] = []
    /// Files of the folder that are not masters, each with why.
    package var notes: [Problem] = []
  }

  /// Loads the configuration (throwing its first error) and checks it against the folder.
  package static func run(_ options: BuildOptions) throws(ConfigError) -> Report {
    let workspace = try Workspace.resolve(options)
    let config = workspace.config
    var report = Report()
    report.configFile = workspace.configFile?.path ?? ""
    report.rules = config.rules.count
    let file = workspace.configFile?.lastPathComponent ?? "configuration"
    let (scan, sorted) = SourceDiscovery.candidates(of: workspace)
    let masters = sorted.candidates.map(\.file.relativePath)
    let assets = Set(sorted.candidates.map { ($0.group + [$0.name.asset]).joined(separator: "/") })
    report.notes = sorted.notes
    report.masters = masters.count
    report.carriedSets = sorted.carried.count
    report.warnings = scan.problems.map(\.description)
    report.warnings += sorted.problems.map(\.description)
    let lines = config.lines
    report.warnings += ruleWarnings(config.rules, lines: lines.rules, masters: masters, file: file)
    for asset in config.assetFocus.keys.sorted() where !assets.contains(asset) {
      report.warnings.append(
        "\(place(file, lines.assets[asset] ?? nil)): assets: '\(asset)' names no asset of the folder"
      )
    }
    // Only recipes the file itself writes under `recipes:` can be unused by mistake: the
    // built-ins exist whether or not anything uses them, and top-level defaults (`scales:`,
    // `quality:`) change them without defining them.
    let used = Set(config.rules.flatMap(\.recipes) + config.defaultRecipes)
    report.recipes = config.recipes.values.filter(\.kind.isNamedByRules).count
    for name in lines.recipes.keys.sorted() where !used.contains(name) {
      report.warnings.append(
        "\(place(file, lines.recipes[name] ?? nil)): recipe '\(name)' is defined but no rule uses it"
      )
    }
    return report
  }

  /// `file:line`, or `file` when the line is unknown.
  static func place(_ file: String, _ line: Int?) -> String {
    line.map { "\(file):\($0)" } ?? file
  }

  /// Rules that match no master, or only masters an earlier rule takes.
  static func ruleWarnings(_ rules: [Rule], lines: [Int?], masters: [String], file: String)
    -> [String]
  {
    let globs = rules.map { try? Glob($0.match) }
    var taken = Set<String>()
    var warnings: [String] = []
    for (index, rule) in rules.enumerated() {
      guard let glob = globs[index] else { continue }
      let matched = masters.filter { glob.matches($0) }
      let line = index < lines.count ? lines[index] : nil
      let label = "\(place(file, line)): rule \(index + 1) (match: \"\(rule.match)\")"
      if matched.isEmpty {
        warnings.append("\(label) matches no master")
      } else if matched.allSatisfy({ taken.contains($0) }) {
        warnings.append(
          "\(label) matches only masters that an earlier rule takes (the first matching rule wins)")
      }
      taken.formUnion(matched)
    }
    return warnings
  }
}
