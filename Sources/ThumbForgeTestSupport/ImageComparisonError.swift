package import Vips

/// Why two images could not be compared.
package enum ImageComparisonError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The images differ in size, so no pixel-by-pixel comparison is meaningful.
  case sizeMismatch(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)
  /// After conversion to 8-bit sRGB an image did not have 3 or 4 bands.
  case unsupportedBands(Int)
  /// libvips failed while converting or reading an image.
  case vips(VipsError)

  /// What went wrong, with the sizes or libvips message involved.
  package var description: String {
    switch self {
    case .sizeMismatch(let expectedWidth, let expectedHeight, let actualWidth, let actualHeight):
      "image sizes differ: expected \(expectedWidth)×\(expectedHeight), "
        + "got \(actualWidth)×\(actualHeight)"
    case .unsupportedBands(let bands):
      "cannot compare an image with \(bands) bands after conversion to sRGB (expected 3 or 4)"
    case .vips(let error):
      "libvips failed while comparing images: \(error)"
    }
  }
}
