/// The band layout of a generated fixture image.
package enum PixelLayout: String, Sendable, CaseIterable {
  /// One grey band.
  case grey
  /// Grey plus alpha (2 bands).
  case greyAlpha
  /// Red, green, blue (3 bands).
  case rgb
  /// Red, green, blue plus alpha (4 bands).
  case rgba

  /// Number of bands, alpha included.
  package var bands: Int {
    switch self {
    case .grey: 1
    case .greyAlpha: 2
    case .rgb: 3
    case .rgba: 4
    }
  }

  /// Number of colour bands, alpha excluded.
  package var colourBands: Int { hasAlpha ? bands - 1 : bands }

  /// Whether the last band is alpha.
  package var hasAlpha: Bool { self == .greyAlpha || self == .rgba }
}
