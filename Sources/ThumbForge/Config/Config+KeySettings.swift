internal import Vips

extension Config {
  /// The settings besides recipes that enter imagesets' keys, by the names `check` gives
  /// them: `fail-on`, `master-scale` and each focus point (`assets: Group/Name focus`,
  /// `rules: GLOB focus`). The manifest records them so that `check` can name the one that
  /// changed.
  package var keySettings: [String: String] {
    var settings = ["fail-on": failOn.rawValue, "master-scale": String(masterScale)]
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

  /// Whether the key setting `key` can concern the asset `asset` (another asset's focus
  /// point cannot).
  static func keySetting(_ key: String, concerns asset: String) -> Bool {
    !key.hasPrefix("assets: ") || key == "assets: \(asset) focus"
  }

  private static func text(_ focus: FocusPoint) -> String { "[\(focus.x), \(focus.y)]" }
}
