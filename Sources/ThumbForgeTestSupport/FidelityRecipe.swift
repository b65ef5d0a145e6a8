/// The recipe a fidelity case goes through, as the test's configuration declares it, with
/// the box of each boxed recipe in points.
package enum FidelityRecipe: String, Sendable, CaseIterable {
  case variants, fit, fitPad = "fit-pad", fill, smartFill = "fill-attention", flag, tile

  /// The `recipes:` section of the test's `thumbforge.yml`: small boxes for `fit` and
  /// `fill` (the masters are 13–40 pt), a non-central gravity for `fill`, so that a crop
  /// placed at the centre shows; `flag` and `tile` at their defaults.
  package static let configuration = """
    recipes:
      fit: { size: [24, 20] }
      fit-pad: { kind: fit, size: [24, 20], pad: true, background: "#2060C0" }
      fill: { size: [24, 16], gravity: southwest }
      fill-attention: { kind: fill, size: [12, 8], gravity: attention }

    """

  /// The box in points (nil: `variants`).
  package var box: (width: Int, height: Int)? {
    switch self {
    case .variants: nil
    case .fit, .fitPad: (24, 20)
    case .fill: (24, 16)
    case .smartFill: (12, 8)
    case .flag: (40, 25)
    case .tile: (300, 300)
    }
  }

  /// Where a `fill` crop is placed (fractions of the spare width and height).
  var gravity: (x: Int, y: Int) {
    switch self {
    case .fill: (0, 2)  // southwest
    default: (1, 1)  // centre
    }
  }

  /// The colour `fit-pad` letterboxes with.
  static let padColour: [Double] = [0x20, 0x60, 0xC0]

  /// The imageset of asset `name` (`{asset}` for variants, `{asset}-{recipe}` otherwise).
  package func imageSet(_ name: String) -> String {
    self == .variants ? name : "\(name)-\(rawValue)"
  }
}

/// A deliberate mistake in the reference, to prove that the test sees it.
package enum FidelityBreak: String, Sendable, CaseIterable {
  /// Embedded ICC profiles ignored (colour taken as sRGB, or libvips' default conversion).
  case ignoreProfile = "ignore-profile"
  /// EXIF orientation not applied.
  case noRotation = "no-rotation"
  /// The flag's rounded-corner mask left out (the border still drawn).
  case noRoundedMask = "no-rounded-mask"
  /// `fill` cropped at the centre instead of its gravity.
  case wrongGravity = "wrong-gravity"

  /// Whether the break changes `fidelityCase`'s expected pixels at all.
  package func affects(_ fidelityCase: FidelityCase) -> Bool {
    switch self {
    case .ignoreProfile: fidelityCase.profile != .none
    case .noRotation: fidelityCase.orientation != 1
    case .noRoundedMask: fidelityCase.recipe == .flag
    case .wrongGravity: fidelityCase.recipe == .fill
    }
  }
}
