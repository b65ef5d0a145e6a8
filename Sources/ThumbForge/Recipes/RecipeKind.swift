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

  /// Whether the recipe crops the resized master to its box.
  package var crops: Bool {
    switch self {
    case .fill, .flag, .tile, .appicon: true
    case .variants, .fit: false
    }
  }

  /// Whether the recipe writes an `.imageset` (every kind but ``appicon``).
  package var makesImageSet: Bool { self != .appicon }
}
