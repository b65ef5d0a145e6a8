internal import Foundation

/// `thumbforge lint`: checks a configuration against its folder without probing or
/// rendering anything (SwiftGen's `config lint`): the file must load (every error is one line
/// naming the file, line and key), and what loads but is likely a mistake is a warning — a
/// rule that matches no master, a rule whose masters an earlier rule already takes (rules are
/// tried in order, the first match wins), a recipe defined but used by no rule, an `assets:`
/// entry naming no asset, and files that are not masters.
public enum ConfigLint {
  /// What lint found (the configuration loaded).
  public struct Report: Sendable, Codable {
    /// The configuration file read (empty when the folder has none: every default).
    public var configFile = ""
    public var rules = 0
    public var recipes = 0
    public var masters = 0
    /// Likely mistakes, one line each.
    public var warnings: [String] = []
    /// Files of the folder that are not masters, each with why.
    public var notes: [Problem] = []
  }

  /// Loads the configuration (throwing its first error) and checks it against the folder.
  public static func run(_ options: BuildOptions) throws(ConfigError) -> Report {
    let workspace = try Workspace.resolve(options)
    let config = workspace.config
    var report = Report()
    report.configFile = workspace.configFile?.path ?? ""
    report.rules = config.rules.count
    let file = workspace.configFile?.lastPathComponent ?? "configuration"
    let scan = FolderScanner.scan(folder: workspace.folder, skipping: workspace.skippedPaths)
    var masters: [String] = []
    var assets = Set<String>()
    for scanned in scan.files {
      let path = scanned.relativePath
      if let asset = MasterName.assetName(ofFile: path, darkSuffix: config.darkSuffix) {
        masters.append(path)
        assets.insert(asset)
      } else {
        let name = (path as NSString).lastPathComponent
        report.notes.append(Problem(path: path, reason: MasterName.whyNot(fileName: name)))
      }
    }
    report.masters = masters.count
    report.warnings = scan.problems.map(\.description)
    report.warnings += ruleWarnings(config.rules, masters: masters, file: file)
    for asset in config.assetFocus.keys.sorted() where !assets.contains(asset) {
      report.warnings.append("\(file): assets: '\(asset)' names no asset of the folder")
    }
    let used = Set(config.rules.flatMap(\.recipes) + config.defaultRecipes)
    let defined = config.recipes.keys.filter { Config.builtinRecipes()[$0] != config.recipes[$0] }
    report.recipes = config.recipes.count
    for name in defined.sorted() where !used.contains(name) {
      report.warnings.append("\(file): recipe '\(name)' is defined but no rule uses it")
    }
    return report
  }

  /// Rules that match no master, or only masters an earlier rule takes.
  static func ruleWarnings(_ rules: [Rule], masters: [String], file: String) -> [String] {
    let globs = rules.map { try? Glob($0.match) }
    var taken = Set<String>()
    var warnings: [String] = []
    for (index, rule) in rules.enumerated() {
      guard let glob = globs[index] else { continue }
      let matched = masters.filter { glob.matches($0) }
      let label = "\(file): rule \(index + 1) (match: \"\(rule.match)\")"
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
