package import Vips

/// A display gamut an imageset has slots for (Xcode's Gamut: "sRGB and Display P3").
package enum DisplayGamut: String, Sendable, Codable, CaseIterable, Hashable {
  /// Every display: the files every device without a wide-gamut display is given.
  case sRGB = "sRGB"
  /// Wide-gamut displays (iPhone 7 and later, recent iPads and Macs): files converted to
  /// Display P3 and carrying its profile, made only from masters whose own profile reaches
  /// beyond sRGB.
  case displayP3 = "display-P3"

  /// The colour space files of this gamut are made in.
  package var profile: RGBProfile {
    switch self {
    case .sRGB: .sRGB
    case .displayP3: .displayP3
    }
  }
}
