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

/// What a boxed recipe does when its master is smaller than the output.
public enum UpscalePolicy: String, Sendable, Codable, CaseIterable, Hashable {
  /// Render anyway and report the factor.
  case warn
  /// Leave the slot empty and report it.
  case never
  /// Render silently.
  case allow
}

/// The shape of a rounded corner.
public enum CornerStyle: String, Sendable, Codable, CaseIterable, Hashable {
  /// A quarter circle (SwiftUI `.circular`).
  case circular
  /// The smoother, squircle-like curve of SwiftUI's `.continuous`.
  case continuous
}

/// Where a border stroke sits relative to the shape's edge.
public enum StrokeAlignment: String, Sendable, Codable, CaseIterable, Hashable {
  /// Entirely inside the rounded rectangle (SwiftUI `strokeBorder`).
  case inside
  /// Centred on the edge (SwiftUI `.stroke`); the canvas grows by half the width per side.
  case center
}

/// The file format of an output: a fixed one, or `auto` (PNG when the output has alpha
/// or the master is PNG/SVG/PDF, otherwise JPEG).
public enum OutputFormat: String, Sendable, Codable, CaseIterable, Hashable {
  case auto, png, jpeg, webp, heif
}
