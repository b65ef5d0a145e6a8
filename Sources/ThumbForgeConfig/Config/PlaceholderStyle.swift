/// The placeholder each imageset gets (`placeholders:`): a tiny stand-in an app shows while
/// the image loads.
package enum PlaceholderStyle: String, Sendable, Codable, CaseIterable, Hashable {
  /// No placeholders.
  case none
  /// A ThumbHash of the imageset's largest sRGB file: about 25 bytes, with its aspect ratio
  /// and alpha.
  case thumbhash
}
