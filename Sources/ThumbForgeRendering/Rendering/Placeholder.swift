internal import ThumbForgeBasics
internal import ThumbForgePlanning
package import Vips

/// An imageset's placeholder: the ThumbHash of the output its plan chose
/// (``PlannedOutput/makesPlaceholder``), made from the output's own pixels.
package enum Placeholder {
  /// The ThumbHash of a rendered output: the image shrunk to fit 100 × 100 pixels (the
  /// format's limit), as 8-bit sRGB with alpha.
  package static func thumbHash(of image: VipsImage) throws(VipsError) -> [UInt8] {
    var small = image
    let longer = max(image.width, image.height)
    if longer > ThumbHash.maxSide {
      let width = max(1, (image.width * ThumbHash.maxSide + longer / 2) / longer)
      let height = max(1, (image.height * ThumbHash.maxSide + longer / 2) / longer)
      small = try image.resize(width: width, height: height, kernel: .linear)
    }
    small = try small.toSRGB8().addingAlpha()
    return ThumbHash.encode(width: small.width, height: small.height, rgba: try small.pixelBytes())
  }

  /// The ThumbHash of an output's file (a copied master): decoded, upright, then as
  /// ``thumbHash(of:)``.
  package static func thumbHash(ofFile bytes: [UInt8], failOn: FailOn) throws(VipsError)
    -> [UInt8]
  {
    try thumbHash(
      of: VipsImage.load(bytes: bytes, options: LoadOptions(failOn: failOn)).autoRotated())
  }
}
