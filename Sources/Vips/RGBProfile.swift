/// An RGB colour space that outputs are made in, by one of libvips' built-in ICC profiles.
package enum RGBProfile: String, Sendable, CaseIterable {
  /// sRGB: every display shows it; files in it carry no profile.
  case sRGB = "srgb"
  /// Display P3: the wider gamut of Apple's displays since 2015. Files in it carry the
  /// profile, so that a viewer does not take their values for sRGB.
  case displayP3 = "p3"

  /// The name of libvips' built-in profile.
  var builtinName: String { rawValue }
}
