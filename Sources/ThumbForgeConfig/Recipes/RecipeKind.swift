/// What a recipe makes of a master.
package enum RecipeKind: String, Sendable, Codable, CaseIterable, Hashable {
  /// The asset itself at each scale.
  case variants
  /// SwiftUI `scaledToFit` into a box (optionally padded to exactly the box).
  case fit
  /// SwiftUI `scaledToFill` of a box, cropped at a gravity.
  case fill
  /// A list-row flag: `fill`, rounded-corner alpha mask and a border.
  case flag
  /// A grid tile: `fill` to a square.
  case tile
  /// An app icon set (`.appiconset`) from one square master: Xcode 15+'s single 1024×1024
  /// iOS icon with dark and tinted appearances, or every per-size slot (see ``IconLayout``).
  case appicon
  /// A set folder of the asset folder (`.imageset`, `.colorset`, `.appiconset` …, or a
  /// group's `Contents.json`) carried into the catalog as it is: its files copied, never
  /// resampled or re-encoded (see ``AsIsSource``). Not named by rules: the folder's extension
  /// chooses it.
  case asIs = "as-is"

  /// Whether the recipe crops the resized master to its box.
  package var crops: Bool {
    switch self {
    case .fill, .flag, .tile, .appicon: true
    case .variants, .fit, .asIs: false
    }
  }

  /// Whether the recipe writes an `.imageset` of its own making (every kind but ``appicon``
  /// and ``asIs``).
  package var makesImageSet: Bool { self != .appicon && self != .asIs }

  /// Whether rules and presets may name the kind (every kind but ``asIs``, which a set
  /// folder's extension chooses).
  package var isNamedByRules: Bool { self != .asIs }
}
