/// What a recipe makes of a master.
public enum RecipeKind: String, Sendable, Codable, CaseIterable, Hashable {
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

  /// Whether the recipe crops the resized master to its box.
  public var crops: Bool {
    switch self {
    case .fill, .flag, .tile: true
    case .variants, .fit: false
    }
  }
}
