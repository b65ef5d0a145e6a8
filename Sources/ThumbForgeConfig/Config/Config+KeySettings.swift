internal import ThumbForgeBasics
internal import Vips

extension Config {
  /// The settings besides recipes that enter imagesets' keys, by the names `check` gives
  /// them: `fail-on`, `master-scale`, `placeholders`, `web` and `android` (when on) and each focus point (`assets: Group/Name focus`,
  /// `rules: GLOB focus`). The manifest records them so that `check` can name the one that
  /// changed.
  package var keySettings: [String: String] {
    var settings = ["fail-on": failOn.rawValue, "master-scale": String(masterScale)]
    // Recorded only when on, so manifests without placeholders stay as they were.
    if placeholders != .none { settings["placeholders"] = placeholders.rawValue }
    if web.isOn { settings["web"] = web.keyText }
    if android.isOn { settings["android"] = android.keyText }
    for (asset, focus) in assetFocus { settings["assets: \(asset) focus"] = Self.text(focus) }
    // The first rule of a glob is the one that picks (the planner's order).
    for rule in rules {
      guard let focus = rule.focus, settings["rules: \(rule.match) focus"] == nil else {
        continue
      }
      settings["rules: \(rule.match) focus"] = Self.text(focus)
    }
    return settings
  }

  private static func text(_ focus: FocusPoint) -> String { "[\(focus.x), \(focus.y)]" }
}

/// How the key settings changed between two configurations, as `check` names it for one
/// asset: the settings every asset shares (compared once), and the asset's own focus point.
package struct KeySettingsChange: Sendable {
  private let before: [String: String]
  private let now: [String: String]
  /// `key old → new` for each changed setting that is not one asset's focus point.
  private let shared: [String]

  package init(before: [String: String], now: [String: String]) {
    self.before = before
    self.now = now
    shared = Recipe.changes(
      from: before.filter { !$0.key.hasPrefix(Self.assetPrefix) },
      to: now.filter { !$0.key.hasPrefix(Self.assetPrefix) })
  }

  /// The changes that concern `asset`, in key order: its own focus point's, then the shared
  /// ones.
  package func changes(for asset: String) -> [String] {
    let key = "\(Self.assetPrefix)\(asset) focus"
    guard before[key] != now[key] else { return shared }
    let own = { (settings: [String: String]) in settings[key].map { [key: $0] } ?? [:] }
    // First, where the sorted order of all keys puts it ("assets: " sorts before the rest).
    return Recipe.changes(from: own(before), to: own(now)) + shared
  }

  private static let assetPrefix = "assets: "
}
